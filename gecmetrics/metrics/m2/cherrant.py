"""ChERRANT's ``compare_m2_for_evaluation.py``: ERRANT's comparison with four differences.

ChERRANT's scorer is ERRANT 3.0.2's ``compare_m2.py`` (:class:`~gecmetrics.metrics.m2.compare.ErrantCompare`,
whose every rule it keeps: edit keys per mode, noop handling, UNK dropped outside detection,
``-single``/``-multi``/``-filt``, the running-F choice of a (hypothesis annotator, reference
annotator) pair with its tie-breaks, P/R/F rounded to 4 decimals, ``-cat 1/2/3``, the printed
tables) plus:

1. spaces are removed from every correction before anything else (``cor.replace(" ", "")``):
   keys compare the corrections without spaces, and ``-single``/``-multi`` count the tokens of
   the correction *without spaces*, so a correction is at most one token; ``-multi`` keeps only
   edits spanning two or more source tokens, ``-single`` only those spanning at most one;
2. a sentence whose reference has one annotator with one edit key, of type ``NA`` (ChERRANT's
   "cannot be annotated"), counts nothing (TP = FP = FN = 0, no categories);
3. ``--max_answer_num K`` (K = 1, 2 or 3) keeps only the edits of annotators 0..K-1 in both
   files (a block left without edits is a noop of annotator 0); ChERRANT treats any other K as
   "no edit anywhere", which is refused here;
4. ``--reference_num N`` scores only the sentences whose reference has exactly N annotators
   (after 3); the others count nothing. ``--start S --end E`` (both needed, as in ChERRANT)
   scores the blocks [S:E] of both files (a Python slice).

ChERRANT's M2 files carry ``T<k>-A<n>`` target lines, which are skipped when they are read
(ChERRANT reads only the ``S`` line and the ``A`` lines). Its ``-multi_hyp_avg`` and
``-multi_hyp_max`` options are accepted by its parser but used nowhere; ``-v`` prints traces
but changes no number (its trace text is not reproduced).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Sequence

from ...errors import InputError
from ...io.m2 import Block, check_blocks, read_m2
from ..settings import optional_int, setting, setting_label, when_set
from .compare import ErrantCompare, ErrantResult, ErrantSettings, _Sentence

NOT_ANNOTATABLE = "NA"
ANSWER_NUMBERS = (1, 2, 3)


def _answer_number(name: str, value: Any) -> int | None:
    number = optional_int(name, value)
    if number is not None and number not in ANSWER_NUMBERS:
        raise InputError(f"{setting_label(name)} must be 1, 2 or 3 (ChERRANT ignores every edit for other values), "
                         f"got {value!r}")
    return number


def _reference_number(name: str, value: Any) -> int | None:
    number = optional_int(name, value)
    if number is not None and number < 1:
        raise InputError(f"{setting_label(name)} must be a positive integer, got {value!r}")
    return number


@dataclass(frozen=True)
class CherrantSettings(ErrantSettings):
    max_answer_num: int | None = setting(None, "only annotators 0..K-1 (K = 1, 2, 3)", _answer_number,
                                         signature="answers", shown=when_set)
    reference_num: int | None = setting(None, "only sentences with exactly N reference annotators", _reference_number,
                                        signature="refnum", shown=when_set)


class CherrantCompare(ErrantCompare):
    """ChERRANT ``compare_m2_for_evaluation.py`` as a library object (see the module docstring
    for how it differs from :class:`ErrantCompare`, whose modes and options it has)."""

    name = "cherrant-m2"
    settings_class = CherrantSettings
    label = "ChERRANT"
    m2_target_lines = True

    def sharing_key(self) -> Any:
        s = self.settings
        return ("cherrant-reference", s.mode, s.single, s.multi, s.filter_types, s.max_answer_num)

    def edit_tables(self, block: Block) -> dict:
        """ERRANT's tables of the block after ChERRANT's own steps: spaces removed from the
        corrections, annotators beyond ``max_answer_num`` dropped."""
        limit = self.settings.max_answer_num
        edits = [dataclasses.replace(e, correction=e.correction.replace(" ", "")) for e in block.edits
                 if limit is None or e.annotator < limit]
        return super().edit_tables(Block(block.source, edits, block.line))

    def skipped(self, ref_tables: dict) -> bool:
        """Whether a sentence counts nothing: a reference with another number of annotators than
        ``reference_num``, or one annotator whose only edit is ``NA``."""
        wanted = self.settings.reference_num
        if wanted is not None and len(ref_tables) != wanted:
            return True
        if len(ref_tables) == 1:
            table = next(iter(ref_tables.values()))
            return len(table) == 1 and next(iter(table.values()))[0] == NOT_ANNOTATABLE
        return False

    def _sentences(self, reference: list[dict], hyp_blocks: Sequence[Block], name: str,
                   ref_name: str = "the reference") -> list[_Sentence]:
        sentences = super()._sentences(reference, hyp_blocks, name, ref_name)
        for sentence in sentences:
            if self.skipped(sentence.ref_tables):
                sentence.pairs = sentence.pairs[:1]
                sentence.counts = [(0, 0, 0)]
                sentence.categories = [{}]
        return sentences

    def settings_dict(self) -> dict:
        s = self.settings
        return {**super().settings_dict(), "max_answer_num": s.max_answer_num, "reference_num": s.reference_num}


def read_cherrant_m2(path: str) -> list[Block]:
    """An M2 file as ChERRANT writes it (``T`` lines skipped)."""
    return read_m2(path, target_lines=True)


def compare_cherrant_files(hyp_path: str, ref_path: str, comparer: CherrantCompare | None = None,
                           start: int | None = None, end: int | None = None) -> ErrantResult:
    """Read two ChERRANT M2 files and compare them; ``start`` and ``end`` (both or neither, as
    in ChERRANT) select the blocks [start:end] of both."""
    comparer = comparer or CherrantCompare()
    hyp_blocks, ref_blocks = read_cherrant_m2(hyp_path), read_cherrant_m2(ref_path)
    return compare_cherrant_blocks(hyp_blocks, ref_blocks, comparer, start, end, hyp_path, ref_path)


def compare_cherrant_blocks(hyp_blocks: Sequence[Block], ref_blocks: Sequence[Block],
                            comparer: CherrantCompare | None = None, start: int | None = None,
                            end: int | None = None, hyp_name: str = "hypothesis",
                            ref_name: str = "reference") -> ErrantResult:
    """Compare blocks as ChERRANT does, with its optional [start:end] selection."""
    comparer = comparer or CherrantCompare()
    hyp_blocks = check_blocks(hyp_blocks, hyp_name)
    ref_blocks = check_blocks(ref_blocks, ref_name)
    if start is not None and end is not None:
        hyp_blocks, ref_blocks = hyp_blocks[start:end], ref_blocks[start:end]
    if len(hyp_blocks) != len(ref_blocks):
        raise InputError(f"has {len(hyp_blocks)} sentences but the reference {ref_name} has {len(ref_blocks)}",
                         hyp_name)
    return comparer.compare(hyp_blocks, ref_blocks, hyp_name, ref_name)
