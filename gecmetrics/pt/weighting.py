"""The pure parts of PT-M2 and PT-ERRANT (Gong et al., 2022): edit weights from BERTScore
values, per-sentence weighted statistics, the annotator choice and the reducers. No torch here.

An edit's weight is how much applying it alone to the source moves the source's BERTScore F
against the annotator's reference: ``|F(source with the edit, reference) - F(source,
reference)|``. Per sentence and annotator, the weights of the union of the system's and the
annotator's edits give three sums, the statistics row: correct (system edits matching a gold
edit), proposed (all system edits) and gold (all gold edits). At sentence level, when every
weight of a sentence and annotator is 0, each edit weighs 1 / (number of edits) instead.

A statistics array has shape (D, A, 4): per sentence and annotator slot, (correct, proposed,
gold, present), ``present`` being 1.0 for an annotator of that sentence and 0.0 for padding.
Rows of different sentences concatenate and resample freely; the annotator choice is a
function of the rows (:func:`choose_annotators`), redone on any selection of them.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Hashable, Sequence

import numpy as np

from ..errors import InputError

CORRECT, PROPOSED, GOLD, PRESENT = 0, 1, 2, 3
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
    """Weight of each edit key: |F(edited) - F(source)|; at sentence level, all-zero weights
    become uniform (1 / number of edits), as the authors' ``compute_weight_edits`` does."""
    weights = {key: abs(f - source_f) for key, f in zip(keys, edited_f)}
    if sentence_level and weights and sum(weights.values()) == 0:
        weights = {key: 1 / len(weights) for key in weights}
    return weights


def statistics_row(weights: dict[Hashable, float], correct: Sequence[Hashable], proposed: Sequence[Hashable],
                   gold: Sequence[Hashable]) -> tuple[float, float, float, float]:
    """(correct, proposed, gold, 1.0): weight sums in the order the authors add them."""
    return (sum(weights[key] for key in correct), sum(weights[key] for key in proposed),
            sum(weights[key] for key in gold), 1.0)


def precision_recall_f(correct: float, proposed: float, gold: float, beta: float) -> tuple[float, float, float]:
    """The authors' P, R and F-beta from weighted sums: P = 1 with nothing proposed, R = 1 with
    no gold weight, F = 0 when its denominator is 0."""
    precision = correct / proposed if proposed else 1.0
    recall = correct / gold if gold else 1.0
    denominator = beta * beta * precision + recall
    f = (1.0 + beta * beta) * precision * recall / denominator if denominator else 0.0
    return precision, recall, f


def check_statistics(statistics: np.ndarray) -> np.ndarray:
    """The array as float64 (D, A, 4), or InputError."""
    array = np.asarray(statistics, dtype=np.float64)
    if array.ndim != 3 or array.shape[2] != 4:
        raise InputError(f"PT statistics must have shape (sentences, annotators, 4), got {array.shape}")
    if array.shape[0] and not array[:, :, PRESENT].any(axis=1).all():
        raise InputError("PT statistics: every sentence needs at least one annotator")
    return array


def _best_slot(rows: list[list[float]], totals: tuple[float, float, float], beta: float) -> int:
    """The authors' choice among one sentence's annotators given running totals: higher F,
    then more correct, then less proposed + beta^2 gold; the first one on exact ties."""
    sqbeta = beta * beta
    best, best_f, best_correct, best_cost = 0, -math.inf, -math.inf, math.inf
    for slot, (correct, proposed, gold, present) in enumerate(rows):
        if not present:
            continue
        local = (totals[0] + correct, totals[1] + proposed, totals[2] + gold)
        f = precision_recall_f(*local, beta)[2]
        cost = local[1] + sqbeta * local[2]
        if best_f < f or (best_f == f and best_correct < local[0]) or \
                (best_f == f and best_correct == local[0] and best_cost > cost):
            best, best_f, best_correct, best_cost = slot, f, local[0], cost
    return best


def choose_annotators(statistics: np.ndarray, beta: float, level: str) -> np.ndarray:
    """The annotator slot kept per sentence. ``corpus``: the one maximizing the running corpus
    F (totals over the sentences before it, in row order); ``sentence``: the sentence's own F."""
    if level not in LEVELS:
        raise InputError(f"level must be one of {', '.join(LEVELS)}, got {level!r}")
    array = check_statistics(statistics)
    chosen = np.zeros(array.shape[0], dtype=np.int64)
    totals = (0.0, 0.0, 0.0)
    for row, rows in enumerate(array.tolist()):
        slot = _best_slot(rows, totals if level == "corpus" else (0.0, 0.0, 0.0), beta)
        chosen[row] = slot
        if level == "corpus":
            correct, proposed, gold, _ = rows[slot]
            totals = (totals[0] + correct, totals[1] + proposed, totals[2] + gold)
    return chosen


@dataclass
class PTScore:
    """A PT-M2 / PT-ERRANT result: the headline ``score`` (F-beta, a fraction), P and R,
    the weighted totals (corpus level) and per-sentence F (both levels)."""

    score: float
    precision: float
    recall: float
    correct: float
    proposed: float
    gold: float
    level: str
    beta: float
    chosen: np.ndarray
    sentence_f: np.ndarray
    signature: str = ""
    settings: dict = field(default_factory=dict)

    @property
    def scores(self) -> list[float]:
        return [self.precision, self.recall, self.score]

    def to_dict(self) -> dict:
        return {"score": self.score, "scores": self.scores, "precision": self.precision, "recall": self.recall,
                "correct": self.correct, "proposed": self.proposed, "gold": self.gold, "level": self.level,
                "signature": self.signature, "settings": dict(self.settings)}


def reduce_statistics(statistics: np.ndarray, beta: float, level: str, chosen: np.ndarray | None = None) -> PTScore:
    """The score of (possibly resampled) rows: the annotator choice (unless given), then
    ``corpus``: F of the summed chosen rows; ``sentence``: the mean of the sentences' F (and
    of their P and R), as the authors' ``sentm2`` / ``senterrant`` average them."""
    array = check_statistics(statistics)
    if array.shape[0] == 0:
        raise InputError("PT scores need at least one sentence")
    if chosen is None:
        chosen = choose_annotators(array, beta, level)
    kept = array[np.arange(array.shape[0]), chosen].tolist()
    per_sentence = [precision_recall_f(c, p, g, beta) for c, p, g, _ in kept]
    sentence_f = np.array([f for _, _, f in per_sentence])
    correct = proposed = gold = 0.0
    for c, p, g, _ in kept:  # running sums in sentence order, as the authors accumulate
        correct, proposed, gold = correct + c, proposed + p, gold + g
    if level == "corpus":
        precision, recall, f = precision_recall_f(correct, proposed, gold, beta)
    else:
        count = len(per_sentence)
        precision = sum(p for p, _, _ in per_sentence) / count
        recall = sum(r for _, r, _ in per_sentence) / count
        f = sum(f for _, _, f in per_sentence) / count
    return PTScore(f, precision, recall, correct, proposed, gold, level, beta, chosen, sentence_f)
