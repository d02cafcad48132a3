"""What a metric may offer beyond its scores, as generic code (the report, edit attribution)
receives it: plain data, so that the code asking needs no metric's types.

A metric says what it offers by the capability attributes of
:class:`~gecmetrics.metrics.base.Metric` (``marks_edits``, ``weighs_gold_edits``,
``independent_sentences``, ``candidate_refusal``); the methods behind them return these objects.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class SentenceMarks:
    """One sentence of a system, its edits compared with a reference annotator's.

    ``edits``: the system's edits (noop lines left out), in file order, each with its mark
    (``"TP"``, ``"FP"``, or None for an edit the comparison leaves out); ``reference``: the
    reference annotator compared against (the one the metric's choice kept); ``matched`` and
    ``missed``: positions, among the reference block's edits that are not noop lines (every
    annotator, file order), of the reference edits the system matched (TP) and missed (FN)."""

    edits: list[tuple[Any, str | None]]
    reference: int
    matched: list[int]
    missed: list[int]


@dataclass(frozen=True)
class EditMarks:
    """One system's edits compared with the reference by a metric that marks edits
    (:meth:`~gecmetrics.metrics.base.Metric.edit_marks`): per sentence its :class:`SentenceMarks`,
    and per category level the counts and scores of each error type (or group of types):
    ``categories[level][type] = (TP, FP, FN, P, R, F)``, F with the metric's ``beta``;
    ``type_note``: what those tables hold when no row of them is one error type's (types of two
    schemes: a gold typed otherwise against ERRANT-typed edits, and why), or None."""

    sentences: list[SentenceMarks]
    categories: dict[int, dict[str, tuple[int, int, int, float, float, float]]]
    beta: float
    type_note: str | None = None


@dataclass(frozen=True)
class GoldEditWeights:
    """How hard the reference's gold edits are, by a metric that weighs them
    (:meth:`~gecmetrics.metrics.base.Metric.gold_edit_weights`).

    ``edits``: per sentence, one weight per edit of the gold block (``block.edits``, file
    order; None for an edit that is not weighed: another annotator's, a noop line);
    ``sentence``: per sentence the mean weight of its weighed edits (NaN without one);
    ``categories``: per category level, per error type group, the (mean, sample standard
    deviation, number) of its edits' weights; ``signature``: what the weights were made with."""

    edits: list[list[float | None]]
    sentence: Any
    categories: dict[int, dict[str, tuple[float, float, int]]] = field(default_factory=dict)
    signature: str = ""
