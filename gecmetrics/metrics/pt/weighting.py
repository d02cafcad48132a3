"""The pure parts of PT-M2 and PT-ERRANT (Gong et al., 2022): edit weights from BERTScore
values, per-sentence weighted statistics, the annotator choice and the reducers. No torch here.

An edit's weight is how much applying it alone to the source moves the source's BERTScore F
against the annotator's reference: ``|F(source with the edit, reference) - F(source,
reference)|``. Per sentence and annotator, the weights of the union of the system's and the
annotator's edits give three sums: correct (system edits matching a gold edit), proposed (all
system edits) and gold (all gold edits). At sentence level, when every weight of a sentence and
annotator is 0, each edit weighs 1 / (number of edits) instead (the authors' rule).

Statistics are the M2 family's layout (:data:`gecmetrics.core.fscore.STATISTICS_WIDTH`) with
float64 weights: shape (D, A, 5), per sentence and annotator slot (correct, proposed, gold,
available, annotator id); padding slots are rows of zeros, so chunks concatenate. The annotator
choice reuses the M2 family's :class:`~gecmetrics.core.fscore.RunningChoice` with the authors'
rule (:data:`PT_RULE`): corpus level, the running corpus F (as the NUS scorer chooses);
sentence level, each sentence's own F.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Hashable, Sequence

import numpy as np

from ...errors import InputError
from ...core import fscore
from ...core.table import scaled_number
from ..results import PRFResult, Signature

CORRECT, PROPOSED, GOLD = 0, 1, 2
LEVELS = ("sentence", "corpus")


def apply_edits_in_order(tokens: Sequence[str], edits: Sequence[tuple[int, int, str]]) -> str:
    """Apply (start, end, replacement) edits sorted by span, shifting later offsets, as the
    authors' ``get_ref`` does (an empty replacement deletes); returns the joined text."""
    result = list(tokens)
    shift = 0
    for start, end, replacement in sorted(edits, key=lambda edit: (edit[0], edit[1])):
        words = replacement.split()
        result[start + shift:end + shift] = words
        shift += len(words) - (end - start)
    return " ".join(result)


def edit_weights(keys: Sequence[Hashable], edited_f: Sequence[float], source_f: float,
                 sentence_level: bool) -> dict[Hashable, float]:
    """Weight of each edit key: |F(edited) - F(source)|. At sentence level all-zero weights
    become uniform (1 / number of edits): the authors' ``compute_weight_edits`` rule, which the
    M2 family does not have (its edits all weigh 1)."""
    weights = {key: abs(f - source_f) for key, f in zip(keys, edited_f)}
    if sentence_level and weights and sum(weights.values()) == 0:
        weights = {key: 1 / len(weights) for key in weights}
    return weights


def statistics_row(weights: dict[Hashable, float], correct: Sequence[Hashable], proposed: Sequence[Hashable],
                   gold: Sequence[Hashable]) -> tuple[float, float, float]:
    """(correct, proposed, gold): weight sums in the order the authors add them."""
    return (sum(weights[key] for key in correct), sum(weights[key] for key in proposed),
            sum(weights[key] for key in gold))


def pack_rows(rows: Sequence[Sequence[tuple[float, float, float, int]]]) -> np.ndarray:
    """Statistics (D, A, 5) float64 from per-sentence lists of (correct, proposed, gold,
    annotator id), padded with rows of zeros (absent slots)."""
    width = max((len(row) for row in rows), default=1) or 1
    array = np.zeros((len(rows), width, fscore.STATISTICS_WIDTH), dtype=np.float64)
    for d, row in enumerate(rows):
        for slot, (correct, proposed, gold, annotator) in enumerate(row):
            array[d, slot] = (correct, proposed, gold, 1.0, annotator)
    return array


# ----------------------------------------------------------------------------- scores and choice


def pt_scores(counts: Any, beta: float) -> tuple[Any, Any, Any]:
    """The authors' P, R and F-beta of weighted (correct, proposed, gold) (..., 3): P = correct /
    proposed (1 with nothing proposed), R = correct / gold (1 with no gold weight), F in the P/R
    form, 0 when its denominator is 0; ``beta = inf`` gives R. Written out instead of the M2
    family's rule because its floating-point form must be the authors' (c / p, not c / (c + fp)).
    Python floats for one row, arrays otherwise."""
    counts = np.asarray(counts, dtype=np.float64)
    correct, proposed, gold = counts[..., CORRECT], counts[..., PROPOSED], counts[..., GOLD]
    with np.errstate(divide="ignore", invalid="ignore"):
        precision = np.where(proposed != 0, correct / np.where(proposed == 0, 1.0, proposed), 1.0)
        recall = np.where(gold != 0, correct / np.where(gold == 0, 1.0, gold), 1.0)
        if math.isinf(beta):
            f = recall
        else:
            denominator = beta * beta * precision + recall
            f = np.where(denominator != 0, (1.0 + beta * beta) * precision * recall
                         / np.where(denominator == 0, 1.0, denominator), 0.0)
    if counts.ndim == 1:
        return float(precision), float(recall), float(f)
    return precision, recall, f


def _pt_keys(ops: Any, totals: Any, local: Any, beta: float) -> tuple:
    """The authors' comparison of annotators (``batch_multi_pre_rec_f1``): F of the running
    sums in the P/R form, unrounded (the NUS scorer compares (1 + b^2) c / (b^2 g + p), ERRANT a
    rounded F), then more correct, then less proposed + b^2 gold (the NUS scorer's tie-breaks)."""
    correct, proposed, gold = totals[0] + local[0], totals[1] + local[1], totals[2] + local[2]
    precision = ops.where(proposed != 0, correct / ops.where(proposed == 0, 1.0, proposed), 1.0)
    recall = ops.where(gold != 0, correct / ops.where(gold == 0, 1.0, gold), 1.0)
    if math.isinf(beta):
        return (recall, correct, -gold)
    denominator = beta * beta * precision + recall
    f = ops.where(denominator != 0, (1.0 + beta * beta) * precision * recall
                  / ops.where(denominator == 0, 1.0, denominator), 0.0)
    return (f, correct, -(proposed + beta * beta * gold))


class PTRule(fscore.ChoiceRule):
    """The authors' rule as an M2-family :class:`~gecmetrics.core.fscore.ChoiceRule`: their keys
    and their P/R/F (:func:`pt_scores`)."""

    whole_counts = False  # weighted

    def __init__(self) -> None:
        super().__init__("pt", lambda c: (c[..., 0], c[..., 1] - c[..., 0], c[..., 2] - c[..., 0]), _pt_keys)

    def scores(self, counts: Any, beta: float) -> tuple[Any, Any, Any]:
        return pt_scores(counts, beta)


PT_RULE = PTRule()


def check_statistics(statistics: Any) -> fscore.CandidateCounts:
    """PT statistics as float candidate counts, or InputError: shape (D, A, 5), finite, every
    sentence with an annotator."""
    array = np.asarray(statistics, dtype=np.float64) if not isinstance(statistics, fscore.CandidateCounts) else None
    if array is None:
        return statistics
    if array.ndim != 3 or array.shape[2] != fscore.STATISTICS_WIDTH:
        raise InputError(f"PT statistics must have shape (sentences, annotators, {fscore.STATISTICS_WIDTH}), "
                         f"got {array.shape}")
    if not np.isfinite(array).all():
        raise InputError("PT statistics hold a value that is not a finite number")
    if array.shape[0] and not (array[..., fscore.AVAILABLE] != 0).any(axis=1).all():
        raise InputError("PT statistics: every sentence needs at least one annotator")
    return fscore.candidate_counts(array, whole=False)


def sentence_choice(data: fscore.CandidateCounts, beta: float) -> np.ndarray:
    """Sentence level: per sentence the annotator with the best F of its own counts (the running
    totals start at 0 in each sentence), all sentences at once."""
    return fscore.RunningChoice(PT_RULE, beta).choose(np.zeros((len(data), 3)), data.counts, data.available,
                                                      data.rank)


def choose_annotators(statistics: Any, beta: float, level: str) -> np.ndarray:
    """The annotator slot kept per sentence: ``corpus``, the one maximizing the running corpus F
    (sentences in row order); ``sentence``, the one maximizing the sentence's own F."""
    if level not in LEVELS:
        raise InputError(f"level must be one of {', '.join(LEVELS)}, got {level!r}")
    data = check_statistics(statistics)
    if level == "sentence":
        return sentence_choice(data, beta)
    return fscore.RunningChoice(PT_RULE, beta).corpus(data)[0]


@dataclass(repr=False)
class PTResult(PRFResult):
    """A PT-M2 / PT-ERRANT result: ``f`` (the headline ``score``, a fraction), P and R (means
    of the sentences' at sentence level), the weighted totals of the chosen annotators, the
    annotator slot chosen per sentence and each sentence's F."""

    precision: float
    recall: float
    f: float
    totals: tuple[float, float, float]
    level: str
    beta: float
    chosen: np.ndarray
    sentence_f: np.ndarray
    signature: Signature | str = ""
    settings: dict = field(default_factory=dict)

    def f_beta(self) -> float:
        return self.beta

    def to_dict(self, scale: float = 1.0) -> dict[str, Any]:
        correct, proposed, gold = self.totals
        return {"precision": scaled_number(self.precision, scale), "recall": scaled_number(self.recall, scale),
                "f": scaled_number(self.f, scale),
                "level": self.level, "weights": {"correct": correct, "proposed": proposed, "gold": gold},
                "signature": str(self.signature), "settings": dict(self.settings)}


def reduce_statistics(statistics: Any, beta: float, level: str) -> PTResult:
    """The score of (possibly resampled) rows: the annotator choice, then ``corpus``: F of the
    summed chosen rows; ``sentence``: the mean of the sentences' F (and of their P and R),
    summed in sentence order as the authors' ``sentm2`` / ``senterrant`` do."""
    data = check_statistics(statistics)
    if len(data) == 0:
        raise InputError("PT scores need at least one sentence")
    chosen = choose_annotators(data, beta, level)
    kept = data.counts[np.arange(len(data)), chosen]
    sentence_p, sentence_r, sentence_f = pt_scores(kept, beta)
    totals = [0.0, 0.0, 0.0]
    for correct, proposed, gold in kept.tolist():  # running sums in sentence order, as the authors add
        totals = [totals[0] + correct, totals[1] + proposed, totals[2] + gold]
    if level == "corpus":
        precision, recall, f = pt_scores(np.array(totals), beta)
    else:
        precision, recall, f = (sum(values.tolist()) / len(data) for values in (sentence_p, sentence_r, sentence_f))
    return PTResult(precision, recall, f, (totals[0], totals[1], totals[2]), level, beta, chosen, sentence_f)
