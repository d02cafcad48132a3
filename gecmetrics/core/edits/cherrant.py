"""ChERRANT's ``compare_m2_for_evaluation.py`` rules: ERRANT's comparison with four differences.

ChERRANT's scorer is ERRANT 3.0.2's ``compare_m2.py`` (:class:`~gecmetrics.core.edits.compare.EditComparison`,
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
   "no edit anywhere", which is refused (:class:`gecmetrics.metrics.edit_comparison.CherrantSettings`);
4. ``--reference_num N`` scores only the sentences whose reference has exactly N annotators
   (after 3); the others count nothing. ``--start S --end E`` (both needed, as in ChERRANT)
   scores the blocks [S:E] of both files (a Python slice).

ChERRANT's M2 files carry ``T<k>-A<n>`` target lines, which are skipped when they are read
(ChERRANT reads only the ``S`` line and the ``A`` lines). Its ``-multi_hyp_avg`` and
``-multi_hyp_max`` options are accepted by its parser but used nowhere; ``-v`` prints traces
but changes no number (ERRANT 2's layout: ``metrics.m2.errant_report.TRACE_LAYOUTS``).
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Any, ClassVar

from .blocks import Block
from .compare import EditComparison, EditTable

NOT_ANNOTATABLE = "NA"
ANSWER_NUMBERS = (1, 2, 3)


@dataclass(frozen=True)
class CherrantComparison(EditComparison):
    """ChERRANT's rules (see the module docstring): ERRANT's, with ``max_answer_num`` and
    ``reference_num``."""

    max_answer_num: int | None = None
    reference_num: int | None = None

    label: ClassVar[str] = "ChERRANT"
    trace_layout: ClassVar[str] = "compare_m2_for_evaluation"  # its -v: ERRANT 2's layout
    reads_back_m2: ClassVar[bool] = False
    type_form: ClassVar[re.Pattern | None] = None  # its own types (S, M, R, W)
    filter_form: ClassVar[tuple[re.Pattern, str] | None] = (
        re.compile(r"[MRSW](?::[A-Z]+)?|NA"), "an operation, and at word level a category: S, M, R, W, R:NOUN, M:VERB; NA")

    def sharing_key(self) -> Any:
        return ("cherrant-reference", self.mode, self.single, self.multi, self.filter_types, self.max_answer_num)

    def edit_tables(self, block: Block) -> dict[int, EditTable]:
        """ERRANT's tables of the block after ChERRANT's own steps: spaces removed from the
        corrections, annotators beyond ``max_answer_num`` dropped."""
        limit = self.max_answer_num
        edits = [dataclasses.replace(e, correction=e.correction.replace(" ", "")) for e in block.edits
                 if limit is None or e.annotator < limit]
        return super().edit_tables(Block(block.source, edits, block.line))

    def skipped(self, ref_tables: dict[int, EditTable]) -> bool:
        """Whether a sentence counts nothing: a reference with another number of annotators than
        ``reference_num``, or one annotator whose only edit is ``NA``."""
        wanted = self.reference_num
        if wanted is not None and len(ref_tables) != wanted:
            return True
        if len(ref_tables) == 1:
            table = next(iter(ref_tables.values()))
            return len(table) == 1 and next(iter(table.values()))[0] == NOT_ANNOTATABLE
        return False
