"""ChERRANT's ``compare_m2_for_evaluation.py`` (registered as ``cherrant-m2``): ERRANT's
comparison with ChERRANT's four differences (:mod:`gecmetrics.core.edits.cherrant` says which),
and the reading of ChERRANT's M2 files (their ``T<k>-A<n>`` target lines are skipped).
"""
from __future__ import annotations

from typing import Sequence

from ...core.edits.blocks import the_reference
from ...core.edits.cherrant import CherrantComparison
from ...io.m2 import Block, check_blocks
from ..edit_comparison import CherrantSettings, ErrantResult, comparison_from
from .compare import ErrantCompare


class CherrantCompare(ErrantCompare):
    """ChERRANT ``compare_m2_for_evaluation.py`` as a library object (see
    :mod:`gecmetrics.core.edits.cherrant` for how it differs from :class:`ErrantCompare`, whose
    modes and options it has, with ``max_answer_num`` and ``reference_num``)."""

    name = "cherrant-m2"
    settings_class = CherrantSettings
    label = "ChERRANT"
    m2_target_lines = True

    def make_comparison(self) -> CherrantComparison:
        return comparison_from(self.settings, CherrantComparison)

    def settings_dict(self) -> dict:
        s = self.settings
        return {**super().settings_dict(), "max_answer_num": s.max_answer_num, "reference_num": s.reference_num}


def compare_cherrant_blocks(hyp_blocks: Sequence[Block], ref_blocks: Sequence[Block],
                            comparer: CherrantCompare | None = None, start: int | None = None,
                            end: int | None = None, hyp_name: str = "hypothesis",
                            ref_name: str = "reference") -> ErrantResult:
    """Compare blocks as ChERRANT does, with its optional [start:end] selection."""
    comparer = comparer or CherrantCompare()
    hyp_blocks = check_blocks(hyp_blocks, hyp_name)
    ref_blocks = check_blocks(ref_blocks, ref_name)
    hyp_blocks, ref_blocks = selected_blocks(hyp_blocks, ref_blocks, start, end, hyp_name)
    if len(hyp_blocks) != len(ref_blocks):
        from ...io.para_m2 import unequal_lengths

        raise unequal_lengths(len(hyp_blocks), len(ref_blocks), the_reference(ref_name), hyp_name)
    return comparer.compare(hyp_blocks, ref_blocks, hyp_name, ref_name)


def selected_blocks(hyp_blocks: Sequence[Block], ref_blocks: Sequence[Block], start: int | None, end: int | None,
                    hyp_name: str) -> tuple[Sequence[Block], Sequence[Block]]:
    """ChERRANT's ``--start``/``--end`` selection (Python's ``[start:end]`` of both files, given
    together or not at all). A selection of no sentence from files that have some is an error
    naming the flags: ChERRANT prints zero counts with P = R = F = 1.0 there, a perfect score
    for nothing scored. One of the two alone, which ChERRANT ignores, is an error too."""
    from ...io.para_m2 import check_selection, no_selection

    check_selection(start, end)
    if start is None or end is None:
        return hyp_blocks, ref_blocks
    chosen = hyp_blocks[start:end], ref_blocks[start:end]
    if hyp_blocks and not chosen[0] and not chosen[1]:
        raise no_selection(start, end, len(hyp_blocks), hyp_name)
    return chosen
