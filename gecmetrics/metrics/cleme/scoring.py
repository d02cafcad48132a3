"""Reducers from CLEME's chunk statistics to scores: weighted counts, the per-sentence choice of
a reference, P / R / F / accuracy (CLEME) and the disentangled scores of CLEME2.0.

Pure functions of the statistics rows (so a bootstrap resample simply passes other rows). They
follow THUKElab/CLEME (commit e90abea), ``scorers/scorer_prf.py``, ``scorer_heuo.py`` and
``scorer_utils.py``:

* P = TP / (TP + FP), 1 when TP + FP = 0; R = TP / (TP + FN), 1 when TP + FN = 0; accuracy =
  (TP + TN) / all, 0 when there is no chunk; CLEME rounds each to 4 decimals as it computes it.
* corpus level: per sentence, in order, the reference whose counts added to the running totals
  give the highest rounded F (CLEME2.0: the highest aggregate score, unrounded); ties: more TP,
  fewer FP, fewer FN, more TN, then the first reference.
* sentence level: per sentence the reference with the highest (F, P, R, accuracy) of the
  sentence alone (CLEME2.0: aggregate, hit, then fewer wrong, under, over), rounded scores
  averaged over sentences. (CLEME always uses beta 0.5 for this choice; here beta is honoured,
  which is the same at the default.)
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

from ...errors import InputError, LineRefused
from .statistics import (BIAS_COUNT, BIAS_SUM, CATEGORIES, FN, FP_NECESSARY, FP_UNNECESSARY, PRESENT, TN, TP,
                         ChunkStatistics)
from .weighting import LengthWeighting

DECIMALS = 4


def f_beta(precision: float, recall: float, beta: float) -> float:
    """CLEME's F-beta of a precision and a recall (0 when its denominator is 0; recall for inf)."""
    if math.isinf(beta):
        return recall
    denominator = ((beta ** 2) * precision) + recall
    return float((1 + (beta ** 2)) * precision * recall) / denominator if denominator else 0.0


def prf(tp: float, fp: float, fn: float, beta: float) -> tuple[float, float, float]:
    """Unrounded precision, recall and F-beta of chunk counts."""
    precision = float(tp) / (tp + fp) if (tp + fp) else 1.0
    recall = float(tp) / (tp + fn) if (tp + fn) else 1.0
    return precision, recall, f_beta(precision, recall, beta)


def accuracy(tp: float, fp: float, fn: float, tn: float) -> float:
    """(TP + TN) / all chunks, 0 when there is none."""
    total = tp + fp + fn + tn
    return float(tp + tn) / total if total else 0.0


def rounded_prf(tp: float, fp: float, fn: float, beta: float) -> tuple[float, float, float]:
    """P, R, F as CLEME computes and compares them: each rounded to 4 decimals."""
    return tuple(round(value, DECIMALS) for value in prf(tp, fp, fn, beta))


def length_bias(statistics: ChunkStatistics) -> float:
    """The weighting bias: mean length of the chunks the references correct, over these rows."""
    total = int(statistics.header[:, :, BIAS_SUM].sum())
    count = int(statistics.header[:, :, BIAS_COUNT].sum())
    if count == 0:
        raise LineRefused("length weighting needs at least one reference correction in the corpus, or in the "
                          "sentence where one is scored on its own (edit attribution, rewards): CLEME's bias is the "
                          "mean length of corrected reference chunks; score it unweighted (weighted=false: cleme's "
                          "--unweighted, or cleme:weighted=false in --metric/--metrics)")
    return total / count


@dataclass(frozen=True)
class LengthEntries:
    """The non-zero histogram entries of statistics rows, length by length (ascending): for each
    length L, the flat index ``(row * slots + slot) * 5 + category`` of every (row, slot,
    category) with chunks of that length, the category and the number of chunks. Weighted sums
    are taken in that order, so any number of weightings at once (a paired test's resamples,
    each with its own bias) gives the very bits one weighting gives."""

    rows: int
    slots: int
    by_length: tuple[tuple[int, np.ndarray, np.ndarray, np.ndarray], ...]


FP_EITHER = 5
"""The summed categories are those of the statistics plus FP of either kind (column 5): CLEME
sums the weights of all its FP chunks in one go, so FP is not the sum of the necessary and the
unnecessary weight sums (which can differ from it in the last bit and flip a tie-break on FP
between references whose FP chunks are the same)."""


@dataclass(frozen=True)
class SummedCells:
    """The non-zero cells of statistics rows with FP of either kind added (category
    :data:`FP_EITHER`, per row, slot and length the two FP categories' chunks together), in
    (row, slot, category, length) order: the non-zero entries of the dense histograms
    (rows, slots, 6 categories, length) in the order ``numpy.nonzero`` lists them."""

    rows: np.ndarray
    slots: np.ndarray
    categories: np.ndarray
    lengths: np.ndarray
    counts: np.ndarray  # float64

    @classmethod
    def of(cls, statistics: ChunkStatistics) -> "SummedCells":
        slots, categories = np.divmod(statistics.cells.astype(np.int64), len(CATEGORIES))
        rows, lengths = statistics.rows, statistics.lengths.astype(np.int64)
        counts = statistics.counts.astype(np.int64)
        fp = (categories == FP_NECESSARY) | (categories == FP_UNNECESSARY)
        keys = (rows[fp] * statistics.slots + slots[fp]) * statistics.width + lengths[fp]
        either, summed = np.unique(keys, return_inverse=True)
        either_counts = np.bincount(summed, weights=counts[fp], minlength=len(either)).astype(np.int64)
        either_cells, either_lengths = np.divmod(either, statistics.width)
        either_rows, either_slots = np.divmod(either_cells, statistics.slots)
        columns = [np.concatenate([a, b]) for a, b in ((rows, either_rows), (slots, either_slots),
                                                        (categories, np.full(len(either), FP_EITHER)),
                                                        (lengths, either_lengths), (counts, either_counts))]
        order = np.lexsort(columns[3::-1])
        return cls(*(column[order] for column in columns[:4]), columns[4][order].astype(np.float64))

    def flat(self, slots: int) -> np.ndarray:
        """Each cell's index in a (rows, slots, 6) table."""
        return (self.rows * slots + self.slots) * (FP_EITHER + 1) + self.categories


def summed_counts(statistics: ChunkStatistics) -> np.ndarray:
    """The number of chunks per row, slot and category (the 6 of :class:`SummedCells`), float64."""
    cells = SummedCells.of(statistics)
    size = len(statistics) * statistics.slots * (FP_EITHER + 1)
    return np.bincount(cells.flat(statistics.slots), weights=cells.counts,
                       minlength=size).reshape(len(statistics), statistics.slots, FP_EITHER + 1)


def summed_weights(category_weights: np.ndarray) -> np.ndarray:
    """Weight tables (..., 5 categories, length) extended with the FP weights for :data:`FP_EITHER`."""
    return np.concatenate([category_weights, category_weights[..., FP_NECESSARY:FP_NECESSARY + 1, :]], axis=-2)


def length_entries(statistics: ChunkStatistics) -> LengthEntries:
    """The :class:`LengthEntries` of statistics rows (the categories of :class:`SummedCells`)."""
    cells = SummedCells.of(statistics)
    order = np.argsort(cells.lengths, kind="stable")
    flat, category, length, values = (cells.flat(statistics.slots)[order], cells.categories[order],
                                      cells.lengths[order], cells.counts[order])
    edges = np.flatnonzero(np.diff(length)) + 1
    groups = tuple((int(ls[0]), f, c, v) for ls, f, c, v in zip(np.split(length, edges), np.split(flat, edges),
                                                                np.split(category, edges), np.split(values, edges))
                   if len(ls))
    return LengthEntries(len(statistics), statistics.slots, groups)


def weighted_counts(entries: LengthEntries, weights: np.ndarray) -> np.ndarray:
    """Summed chunk weights per (weighting, row, slot, category): ``weights`` (n, category,
    length) holds n weight tables; sums run over lengths in ascending order."""
    n_categories = weights.shape[1]
    out = np.zeros((weights.shape[0], entries.rows * entries.slots * n_categories))
    for length, flat, category, values in entries.by_length:
        out[:, flat] += values * weights[:, category, length]
    return out.reshape(weights.shape[0], entries.rows, entries.slots, n_categories)


def category_counts(statistics: ChunkStatistics, weighting: LengthWeighting | None
                    ) -> tuple[np.ndarray, float | None]:
    """Per sentence, slot and category (TP, FP necessary, FP unnecessary, FN, TN, FP of either
    kind) the number of chunks, or their summed length weights; and the bias used (None when
    unweighted)."""
    if weighting is None:
        return summed_counts(statistics), None
    bias = length_bias(statistics)
    weights = summed_weights(weighting.category_weights(statistics.width - 1, bias))
    return weighted_counts(length_entries(statistics), weights[None])[0], bias


def slot_table(counts: np.ndarray, statistics: ChunkStatistics) -> list[list[tuple[float, ...]]]:
    """Per sentence, the (TP, FP, FN, TN, FP necessary, FP unnecessary) of each reference slot
    present, as Python floats (the choices below loop over them)."""
    present = statistics.header[:, :, PRESENT].astype(bool)
    tp, fn, tn = counts[..., TP], counts[..., FN], counts[..., TN]
    necessary, unnecessary = counts[..., FP_NECESSARY], counts[..., FP_UNNECESSARY]
    columns = np.stack([tp, counts[..., FP_EITHER], fn, tn, necessary, unnecessary], axis=-1).tolist()
    return [[tuple(values) for values, here in zip(row, mask) if here] for row, mask in zip(columns, present.tolist())]


@dataclass(frozen=True)
class ChunkTotals:
    """Chunk counts (or weight sums) of one selection of reference slots."""

    tp: float = 0.0
    fp: float = 0.0
    fn: float = 0.0
    tn: float = 0.0
    fp_necessary: float = 0.0
    fp_unnecessary: float = 0.0


def _all_alike(slots: list[tuple[float, ...]]) -> bool:
    """One slot, or all with the same counts: every choice rule then keeps the first."""
    first = slots[0]
    return all(values == first for values in slots[1:])


def _add(totals: list[float], values: tuple[float, ...]) -> None:
    for index, value in enumerate(values):
        totals[index] += value


def running_choice(table: list[list[tuple[float, ...]]], score: Callable[[list[float], tuple[float, ...]], float]
                   ) -> tuple[ChunkTotals, np.ndarray]:
    """The corpus level's choice of one reference per sentence, in order: the highest
    ``score(totals so far, the slot's counts)``, then more TP, fewer FP, fewer FN, more TN, the
    first; the totals and the slot chosen per sentence."""
    totals = [0.0] * 6
    chosen = np.zeros(len(table), dtype=np.int64)
    for row, slots in enumerate(table):
        best_key, best = None, 0
        if _all_alike(slots):
            _add(totals, slots[0])
            continue
        for index, values in enumerate(slots):
            tp, fp, fn, tn = values[:4]
            key = (score(totals, values), tp, -fp, -fn, tn)
            if best_key is None or key > best_key:
                best_key, best = key, index
        chosen[row] = best
        _add(totals, slots[best])
    return ChunkTotals(*totals), chosen


def choose_prf_corpus(table: list[list[tuple[float, ...]]], beta: float) -> tuple[ChunkTotals, np.ndarray]:
    """CLEME's running choice: the highest corpus F so far, rounded to 4 decimals."""
    def rounded_f(totals: list[float], values: tuple[float, ...]) -> float:
        return round(prf(totals[0] + values[0], totals[1] + values[1], totals[2] + values[2], beta)[2], DECIMALS)

    return running_choice(table, rounded_f)


def sentence_prf(values: tuple[float, ...], beta: float) -> tuple[float, float, float, float]:
    """Rounded (F, P, R, accuracy) of one sentence against one reference."""
    tp, fp, fn, tn = values[:4]
    precision, recall, f = rounded_prf(tp, fp, fn, beta)
    return f, precision, recall, round(accuracy(tp, fp, fn, tn), DECIMALS)


def choose_prf_sentences(table: list[list[tuple[float, ...]]], beta: float) -> tuple[np.ndarray, np.ndarray]:
    """Per sentence the reference with the highest rounded (F, P, R, accuracy); returns the
    chosen slots and an array (D, 4) of those F, P, R, accuracy."""
    chosen = np.zeros(len(table), dtype=np.int64)
    scores = np.zeros((len(table), 4), dtype=np.float64)
    known: dict[tuple[float, ...], tuple[float, float, float, float]] = {}  # many sentences share counts
    for row, slots in enumerate(table):
        keys = []
        for values in ([slots[0]] if _all_alike(slots) else slots):
            if values not in known:
                known[values] = sentence_prf(values, beta)
            keys.append(known[values])
        best = max(range(len(keys)), key=lambda index: (keys[index], -index))
        chosen[row] = best
        scores[row] = keys[best]
    return chosen, scores


@dataclass(frozen=True)
class AspectFactors:
    """CLEME2.0's weights of hit, (1 - wrong), (1 - under), (1 - over) in the aggregate score."""

    hit: float = 0.45
    wrong: float = 0.35
    under: float = 0.15
    over: float = 0.05

    def __post_init__(self) -> None:
        values = (self.hit, self.wrong, self.under, self.over)
        if any(isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) for v in values):
            raise InputError(f"CLEME2.0 factors must be finite numbers, not {values}")
        if any(v < 0 for v in values):
            raise InputError(f"CLEME2.0 factors hit/wrong/under/over must be >= 0 (weights of an average), "
                             f"not {values}")
        if abs(sum(values) - 1.0) > 1e-5:
            raise InputError(f"CLEME2.0 factors must add up to 1, not {sum(values)} ({values})")


CORPUS_FACTORS = AspectFactors()
SENTENCE_FACTORS = AspectFactors(0.35, 0.25, 0.20, 0.20)


def aspects(tp: float, fn: float, fp_necessary: float, fp_unnecessary: float, factors: AspectFactors
            ) -> tuple[float, float, float, float, float]:
    """CLEME2.0's hit, wrong, under, over-correction rates and their aggregate: the first three
    over the chunks that needed a correction (TP + necessary FP + FN), over-correction over the
    hypothesis's corrections; a rate is 0 when its denominator is."""
    needed = tp + fp_necessary + fn
    fp = fp_necessary + fp_unnecessary
    hit = float(tp) / needed if needed else 0.0
    wrong = float(fp_necessary) / needed if needed else 0.0
    under = float(fn) / needed if needed else 0.0
    over = float(fp_unnecessary) / (tp + fp) if (tp + fp) else 0.0
    aggregate = factors.hit * hit + factors.wrong * (1 - wrong) + factors.under * (1 - under) + factors.over * (1 - over)
    return hit, wrong, under, over, aggregate


def choose_aspects_corpus(table: list[list[tuple[float, ...]]], factors: AspectFactors
                          ) -> tuple[ChunkTotals, np.ndarray]:
    """CLEME2.0's running choice: the highest aggregate of the totals so far (unrounded)."""
    def aggregate(totals: list[float], values: tuple[float, ...]) -> float:
        tp, _fp, fn, _tn, necessary, unnecessary = values
        return aspects(totals[0] + tp, totals[2] + fn, totals[4] + necessary, totals[5] + unnecessary, factors)[4]

    return running_choice(table, aggregate)


def choose_aspects_sentences(table: list[list[tuple[float, ...]]], factors: AspectFactors
                             ) -> tuple[np.ndarray, np.ndarray]:
    """Per sentence the reference with the highest (aggregate, hit, -wrong, -under, -over) of
    the sentence alone; the chosen slots and an array (D, 5) of hit, wrong, under, over, aggregate."""
    chosen = np.zeros(len(table), dtype=np.int64)
    scores = np.zeros((len(table), 5), dtype=np.float64)
    for row, slots in enumerate(table):
        best_key, best, best_values = None, 0, (0.0,) * 5
        for index, (tp, _fp, fn, _tn, necessary, unnecessary) in enumerate(slots[:1] if _all_alike(slots) else slots):
            values = aspects(tp, fn, necessary, unnecessary, factors)
            hit, wrong, under, over, aggregate = values
            key = (aggregate, hit, -wrong, -under, -over)
            if best_key is None or key > best_key:
                best_key, best, best_values = key, index, values
        chosen[row] = best
        scores[row] = best_values
    return chosen, scores


def chosen_totals(table: list[list[tuple[float, ...]]], chosen: np.ndarray) -> ChunkTotals:
    """The totals of the chosen slots, added sentence after sentence."""
    totals = [0.0] * 6
    for slots, best in zip(table, chosen.tolist()):
        _add(totals, slots[best])
    return ChunkTotals(*totals)
