"""Sentence-level meta-evaluation (SEEDA's ``utils/corr_sentence.py``, gec-metrics'
``MetaEvalBase.corr_sentence``): does the metric order two outputs of a sentence as a human did?

Every ranking item gives human preferences between pairs of its systems (ties left out: a pair
the human ranked equal is not counted). The metric prefers the system with the higher sentence
score (``higher_is_better=False``: the lower). Over all such pairs:

* accuracy = agreements / pairs
* Kendall-like tau = (agreements - disagreements) / pairs

A metric tie (equal sentence scores) is where the definitions differ. ``seeda`` (the default)
does what both originals do: of the pair (i, j), i before j in the system order (code-point
order of the names, SEEDA's), the metric's verdict is "i better" only if score_i > score_j, so
a tie counts as "j better" (``higher_is_better=False``: as "i better"). ``disagree`` counts every
metric tie as a disagreement; ``ignore`` drops the pairs the metric ties from the counts.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import numpy as np

from ..errors import InputError
from ..io.judgments import Judgments

TIE_RULES = ("seeda", "disagree", "ignore")


@dataclass
class SentenceAgreement:
    """Agreement of one metric's sentence scores with the human pairwise preferences."""

    metric: str
    judgments: str
    systems: list[str]
    pairs: int  # human-decided pairs counted (the denominator)
    agreements: int
    disagreements: int
    metric_ties: int  # pairs whose two outputs the metric scored equal
    accuracy: float
    kendall: float
    tie_rule: str
    higher_is_better: bool

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return dict(self.__dict__, systems=list(self.systems))


def _score_matrix(sentence_scores: Mapping[str, Sequence[float]], systems: Sequence[str]) -> np.ndarray:
    missing = [s for s in systems if s not in sentence_scores]
    if missing:
        raise InputError(f"systems in the judgments without sentence scores: {', '.join(missing)}")
    rows = [np.asarray(sentence_scores[s], dtype=np.float64) for s in systems]
    lengths = {row.shape for row in rows}
    if len(lengths) != 1 or rows[0].ndim != 1:
        raise InputError(f"sentence scores must be flat arrays of one length for all systems, got shapes "
                         f"{sorted(lengths)}")
    matrix = np.stack(rows)
    if not np.all(np.isfinite(matrix)):
        bad = systems[int(np.argwhere(~np.isfinite(matrix))[0][0])]
        raise InputError(f"sentence scores of {bad} contain a value that is not a finite number")
    return matrix


def check_item_rows(judgments: Judgments, item_rows: Sequence[int], sentences: int) -> np.ndarray:
    """``item_rows`` as an integer array: one corpus row per ranking item, each within the
    ``sentences`` scored (an error names the item's line otherwise)."""
    rows = np.asarray(item_rows)
    if rows.shape != (len(judgments.items),) or (rows.size and not np.issubdtype(rows.dtype, np.integer)):
        raise InputError(f"item_rows needs one integer corpus row per ranking item ({len(judgments.items)}), "
                         f"got shape {rows.shape}")
    outside = np.flatnonzero((rows < 0) | (rows >= sentences))
    if outside.size:
        item = judgments.items[int(outside[0])]
        raise InputError(f"ranking item src-id={item.src_id} maps to row {int(rows[outside[0]])}, outside the "
                         f"{sentences} scored sentences", judgments.source, item.line)
    return rows


def sentence_agreement(sentence_scores: Mapping[str, Sequence[float]], judgments: Judgments,
                       item_rows: Sequence[int], systems: Sequence[str] | None = None, *,
                       higher_is_better: bool = True, tie_rule: str = "seeda",
                       metric: str = "metric") -> SentenceAgreement:
    """Accuracy and Kendall-like tau of ``sentence_scores`` ({system: (D,) scores}) against the
    pairwise preferences of ``judgments``; ``item_rows[i]`` is the score row of item i's
    sentence; ``systems`` (default: all judged) are kept in every item, the rest dropped, and
    their order is the order of the ``seeda`` tie rule (default: code-point order)."""
    if tie_rule not in TIE_RULES:
        raise InputError(f"unknown tie rule {tie_rule!r}; choose one of: {', '.join(TIE_RULES)}")
    if not isinstance(judgments, Judgments):
        raise InputError(f"expected Judgments, got {type(judgments).__name__}")
    order = list(judgments.systems) if systems is None else list(systems)
    if len(set(order)) != len(order):
        raise InputError("a system is listed twice")
    unjudged = sorted(set(sentence_scores) - set(judgments.systems)) if systems is None else []
    if unjudged:
        raise InputError(f"systems with sentence scores but no human judgments: {', '.join(unjudged)}",
                         judgments.source)
    restricted = judgments.restricted(order)
    scores = _score_matrix(sentence_scores, order)
    rows = check_item_rows(judgments, item_rows, scores.shape[1])
    pairwise = restricted.pairwise()
    position = np.array([order.index(s) for s in restricted.systems])  # restricted index -> order
    decided = ~pairwise.tie
    better, worse = position[pairwise.better[decided]], position[pairwise.worse[decided]]
    row = rows[pairwise.item[decided]]
    first, second = np.minimum(better, worse), np.maximum(better, worse)
    human_first = better == first
    score_first, score_second = scores[first, row], scores[second, row]
    tied = score_first == score_second
    metric_first = score_first > score_second if higher_is_better else score_first < score_second
    if tie_rule == "seeda":
        metric_first = np.where(tied, not higher_is_better, metric_first)
    agree = (metric_first == human_first) & ~(tied & (tie_rule != "seeda"))
    counted = ~tied if tie_rule == "ignore" else np.ones_like(tied)
    pairs, agreements = int(counted.sum()), int((agree & counted).sum())
    if pairs == 0:
        raise InputError("no pair of outputs that the humans ranked differently (and the metric did not tie)",
                         judgments.source)
    disagreements = pairs - agreements
    return SentenceAgreement(metric, judgments.source, order, pairs, agreements, disagreements, int(tied.sum()),
                             agreements / pairs, (agreements - disagreements) / pairs, tie_rule, higher_is_better)


def check_src_ids(judgments: Judgments, src_ids: Sequence[int], where: str | None = None, judged: bool = True) -> None:
    """The src-ids of the corpus lines (``where``: their file, for messages) name each line once
    and (``judged``) only sentences the judgments rank: a src-id given twice would count one
    sentence's judgments twice, and one the judgments lack would score a sentence no one ranked."""
    def place(k: int) -> str:
        return f"line {k + 1}" if where is not None else f"src_ids[{k}]"

    first: dict[int, int] = {}
    ranked = set(judgments.src_ids.tolist())
    for k, value in enumerate(src_ids):
        if value in first:
            raise InputError(f"src-id {value} is given twice ({place(first[value])} and {place(k)}): each corpus line "
                             "is one sentence", where, k + 1 if where is not None else None)
        first[value] = k
        if judged and value not in ranked:
            raise InputError(f"src-id {value} is not a src-id of the judgments {judgments.source}", where,
                             k + 1 if where is not None else None)


def rows_of_src_ids(judgments: Judgments, corpus_lines: Sequence[int] | None = None, first_line: int = 1) -> np.ndarray:
    """The corpus row of every ranking item: ``corpus_lines[k]`` is the ``src-id`` of row k (a
    subset such as SEEDA's 391 sentences, whose LINES file holds 1-based CoNLL-2014 lines); without
    it, rows are src-id - ``first_line`` (GJG15's src-ids count from 0, SEEDA's from 1)."""
    src_ids = judgments.src_ids
    without = np.flatnonzero(src_ids < 0)
    if without.size:
        item = judgments.items[int(without[0])]
        raise InputError("a ranking item without src-id cannot be matched to a sentence", judgments.source, item.line)
    if corpus_lines is None:
        return src_ids - int(first_line)
    lines = [int(line) for line in corpus_lines]
    check_src_ids(judgments, lines, judged=False)
    where = {line: k for k, line in enumerate(lines)}
    rows = np.array([where.get(int(s), -1) for s in src_ids], dtype=np.int64)
    missing = np.flatnonzero(rows < 0)
    if missing.size:
        item = judgments.items[int(missing[0])]
        raise InputError(f"src-id {item.src_id} is not one of the corpus lines given", judgments.source, item.line)
    check_src_ids(judgments, lines)
    return rows

