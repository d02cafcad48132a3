"""Paired tests of CLEME and CLEME2.0 (:mod:`gecmetrics.stats.significance`): every bootstrap resample
and every randomized pseudo-system is scored exactly as ``metric.score`` scores its rows in
that order. Everything CLEME decides from the corpus is redone on them: the length weighting's
bias (a mean over the corpus's reference chunks), hence every chunk weight, and at corpus level
the running choice of a reference sentence after sentence. Sequential over sentence positions,
vectorized across resamples; the weighted sums run length after length as in ``score`` (see
:class:`~gecmetrics.metrics.cleme.scoring.LengthEntries`), so the numbers are the same bits.
"""
from __future__ import annotations

import math
from typing import Any, Callable, Iterable, Iterator

import numpy as np

from ...errors import InputError
from ...core.fscore import round_like_python
from ...core.resampling import Resample, Resampler
from .scoring import (DECIMALS, FP_EITHER, AspectFactors, LengthEntries, SummedCells, length_bias, length_entries,
                      summed_counts, summed_weights, weighted_counts)
from .statistics import (BIAS_COUNT, BIAS_SUM, CATEGORIES as CATEGORY_COLUMNS, FN, FP_NECESSARY, FP_UNNECESSARY,
                         PRESENT, TN, TP, ChunkStatistics, check_statistics)

TABLE_BYTES = 64 * 2 ** 20
"""Upper bound of the per-resample weighted count tables built at once."""
COLUMNS = ("tp", "fp", "fn", "tn", "fp_necessary", "fp_unnecessary")
_TP, _FP, _FN, _TN, _NE, _UN = range(6)


class ChunkRows:
    """The statistics rows of one system (or of two, pooled), ready for resampling."""

    def __init__(self, statistics: ChunkStatistics | np.ndarray) -> None:

        self.statistics = check_statistics(statistics)
        header = self.statistics.header
        self.present = header[:, :, PRESENT] != 0
        self.bias_sum = header[:, :, BIAS_SUM].sum(axis=1).astype(np.float64)
        self.bias_count = header[:, :, BIAS_COUNT].sum(axis=1).astype(np.float64)
        self.alike = _alike(self.statistics, self.present)
        """Rows whose references all count alike (every choice keeps the first)."""
        self._entries: LengthEntries | None = None
        self._row_entries: list | None = None

    @property
    def size(self) -> int:
        return self.statistics.shape[0]

    @property
    def entries(self) -> LengthEntries:
        if self._entries is None:
            self._entries = length_entries(self.statistics)
        return self._entries

    def unweighted(self) -> np.ndarray:
        """The counts table (1, rows, slots, 6) of :data:`COLUMNS`."""
        return _columns(summed_counts(self.statistics))[None]

    def weights(self, weighting: Any, sequences: np.ndarray) -> np.ndarray:
        """The weight tables (n, category, length) of the sequences of rows, each with its own
        bias (the mean length of the reference chunks its rows correct)."""
        n, rows = len(sequences), self.size
        drawn = np.bincount((sequences + (np.arange(n) * rows)[:, None]).ravel(), minlength=n * rows)
        drawn = drawn.reshape(n, rows).astype(np.float64)
        total, count = drawn @ self.bias_sum, drawn @ self.bias_count    # integers: exact
        if (count == 0).any():
            raise InputError("length weighting needs at least one reference correction in every resample (CLEME's "
                             "bias is the mean length of corrected reference chunks); score it unweighted")
        width = self.statistics.width
        return np.stack([summed_weights(weighting.category_weights(width - 1, bias))
                         for bias in (total / count).tolist()])

    def weighted(self, weighting: Any, sequences: np.ndarray) -> np.ndarray:
        """The weighted counts table (n, rows, slots, 6), each with the bias of its sequence."""
        return _columns(weighted_counts(self.entries, self.weights(weighting, sequences)))

    @property
    def row_entries(self) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
        """Per row, its non-zero (slot * 5 + category, category, length, count), by length."""
        if self._row_entries is None:
            cells = SummedCells.of(self.statistics)
            order = np.lexsort((cells.lengths, cells.rows))
            flat = (cells.slots * (FP_EITHER + 1) + cells.categories)[order]
            edges = np.searchsorted(cells.rows[order], np.arange(1, self.size))
            self._row_entries = list(zip(*(np.split(a, edges) for a in (flat, cells.categories[order],
                                                                        cells.lengths[order], cells.counts[order]))))
        return self._row_entries

    def alone_weighted(self, weighting: Any) -> np.ndarray:
        """The weighted counts table (rows, slots, 6) with each row weighted as a corpus of that
        row alone: under the weights of its own bias, summed length after length as ``score``
        sums them (rows without a corrected reference chunk are the caller's to refuse)."""
        cells = SummedCells.of(self.statistics)
        starts = np.searchsorted(cells.rows, np.arange(self.size + 1))
        bias = (self.bias_sum / np.where(self.bias_count == 0, 1, self.bias_count)).tolist()
        weights = np.empty(len(cells.counts))
        for row in np.flatnonzero(np.diff(starts)).tolist():
            table = summed_weights(weighting.category_weights(self.statistics.width - 1, bias[row]))
            cut = slice(starts[row], starts[row + 1])
            weights[cut] = table[cells.categories[cut], cells.lengths[cut]]
        slots, categories = self.statistics.slots, len(CATEGORY_COLUMNS) + 1
        out = np.zeros(self.size * slots * categories)
        order = np.argsort(cells.lengths, kind="stable")
        flat, values, lengths = cells.flat(slots)[order], (cells.counts * weights)[order], cells.lengths[order]
        for group in np.split(np.arange(len(order)), np.flatnonzero(np.diff(lengths)) + 1):
            out[flat[group]] += values[group]
        return _columns(out.reshape(self.size, slots, categories))

    def weighted_row(self, row: int, weights_by_length: np.ndarray) -> np.ndarray:
        """Row ``row``'s weighted counts under n weight tables given as (category, length, n):
        (n, slots, 6)."""
        slots, categories = self.statistics.slots, len(CATEGORY_COLUMNS) + 1
        out = np.zeros((slots * categories, weights_by_length.shape[-1]))
        for flat, category, length, count in zip(*self.row_entries[row]):
            out[flat] += count * weights_by_length[category, length]
        return _columns(out.T.reshape(-1, slots, categories))


def _alike(statistics: ChunkStatistics, present: np.ndarray) -> np.ndarray:
    """Per row, whether every present slot's histogram is slot 0's: as many cells, and each
    the same (category, length, count) as slot 0's cell at its place (a row's cells are in
    (slot, category, length) order)."""
    slots, categories = np.divmod(statistics.cells.astype(np.int64), len(CATEGORY_COLUMNS))
    rows, width = statistics.rows, statistics.slots
    sizes = np.bincount(rows * width + slots, minlength=len(statistics) * width).reshape(len(statistics), width)
    starts = (np.cumsum(sizes.ravel()) - sizes.ravel()).reshape(sizes.shape)
    alike = ((sizes == sizes[:, :1]) | ~present).all(axis=1)
    compared = np.flatnonzero((slots > 0) & present[rows, slots] & alike[rows])
    here, there = rows[compared], slots[compared]
    partner = starts[here, 0] + compared - starts[here, there]
    differ = (categories[compared] != categories[partner]) | (statistics.lengths[compared] != statistics.lengths[partner]) \
        | (statistics.counts[compared] != statistics.counts[partner])
    alike[here[differ]] = False
    return alike


def _columns(counts: np.ndarray) -> np.ndarray:
    """(..., 6 summed categories) -> (..., 6): TP, FP, FN, TN, FP necessary, FP unnecessary."""
    return np.stack([counts[..., TP], counts[..., FP_EITHER], counts[..., FN], counts[..., TN],
                     counts[..., FP_NECESSARY], counts[..., FP_UNNECESSARY]], axis=-1)


class ChunkResampler(Resampler):
    """CLEME's or CLEME2.0's paired-test resampler (score column 0: F, or the aggregate)."""

    def __init__(self, metric: Any) -> None:
        self.metric = metric
        self.label = metric.label
        self.signature = metric.signature
        self.weighting = metric.settings.length_weighting

    def prepare(self, statistics: np.ndarray) -> ChunkRows:
        return statistics if isinstance(statistics, ChunkRows) else ChunkRows(statistics)

    def size(self, prepared: ChunkRows) -> int:
        return prepared.size

    def score(self, prepared: ChunkRows) -> float:
        return float(self.metric.score(prepared.statistics).score)

    def bootstrap_scores(self, prepared: ChunkRows, resample: Resample) -> np.ndarray:
        return self.sequence_scores(prepared, resample.indices)

    def swapped_scores(self, baseline: ChunkRows, system: ChunkRows,
                       keep_baseline: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        pool = ChunkRows(self.metric.join_statistics([baseline.statistics, system.statistics]))
        positions = np.arange(baseline.size)
        own, other = positions, positions + baseline.size
        sides = (np.where(keep_baseline, own, other), np.where(keep_baseline, other, own))
        if self.weighting is not None and self.metric.settings.level == "corpus":
            return tuple(self.swapped_running(pool, side) for side in sides)  # type: ignore[return-value]
        return tuple(self.sequence_scores(pool, side) for side in sides)  # type: ignore[return-value]

    def swapped_running(self, pool: ChunkRows, sequences: np.ndarray) -> np.ndarray:
        """Weighted corpus level of randomized pseudo-systems: position p holds row p or row
        D + p of the pool, so each position's counts are computed for the two rows under every
        trial's weights (instead of one table per trial and row)."""
        weights = np.ascontiguousarray(pool.weights(self.weighting, sequences).transpose(1, 2, 0))
        size = sequences.shape[1]

        def local_at(position: int) -> tuple[np.ndarray, np.ndarray, bool]:
            first = sequences[:, position] == position
            own, other = pool.weighted_row(position, weights), pool.weighted_row(size + position, weights)
            present = np.where(first[:, None], pool.present[position], pool.present[size + position])
            alike = bool(pool.alike[position] and pool.alike[size + position])
            return np.where(first[:, None, None], own, other), present, alike

        return running_choice(len(sequences), size, local_at, self.keys())

    def sequence_scores(self, rows: ChunkRows, sequences: np.ndarray) -> np.ndarray:
        """The score of the rows taken in each order of ``sequences`` (N, D)."""
        sequences = np.asarray(sequences, dtype=np.int64)
        out = np.empty(len(sequences))
        trial_bytes = rows.statistics.shape[0] * rows.statistics.shape[1] * len(COLUMNS) * 8 * 2
        step = max(1, TABLE_BYTES // trial_bytes) if self.weighting is not None else max(1, len(sequences))
        shared = rows.unweighted() if self.weighting is None else None
        for start in range(0, len(sequences), step):
            chunk = sequences[start:start + step]
            table = shared if shared is not None else rows.weighted(self.weighting, chunk)
            out[start:start + len(chunk)] = self.reduce(table, rows.present, chunk, rows.alike)
        return out

    def alone_scores(self, rows: ChunkRows) -> np.ndarray:
        """Each row's score as a corpus of that row alone (its own bias and choice of a
        reference), all at once: what scoring each one-row slice gives."""
        size = rows.size
        if self.weighting is None:
            table = rows.unweighted()[0]
        else:
            refused = np.flatnonzero(rows.bias_count == 0)
            if len(refused):
                length_bias(rows.statistics[refused[:1]])  # (raises the refusal a row scored alone meets)
            table = rows.alone_weighted(self.weighting)
        if self.metric.settings.level == "sentence":
            return sentence_means(table[None], rows.present, np.arange(size)[:, None], self.keys())
        return running_choice(size, 1, lambda position: (table, rows.present, bool(rows.alike.all())), self.keys())

    def keys(self) -> "PRFKeys | AspectKeys":
        settings = self.metric.settings
        return PRFKeys(settings.beta) if hasattr(settings, "beta") else AspectKeys(settings.aspect_factors)

    def reduce(self, table: np.ndarray, present: np.ndarray, sequences: np.ndarray, alike: np.ndarray) -> np.ndarray:
        """Scores of the sequences from their count tables (one shared, or one per sequence)."""
        if self.metric.settings.level == "sentence":
            return sentence_means(table, present, sequences, self.keys())
        n = len(sequences)
        tables = np.arange(n) if len(table) > 1 else np.zeros(n, dtype=np.int64)

        def local_at(position: int) -> tuple[np.ndarray, np.ndarray, bool]:
            rows = sequences[:, position]
            return table[tables, rows], present[rows], bool(alike[rows].all())

        return running_choice(n, sequences.shape[1], local_at, self.keys())


# ----------------------------------------------------------------------------- choice rules, vectorized


def _ratio(numerator: np.ndarray, denominator: np.ndarray, otherwise: float) -> np.ndarray:
    """numerator / denominator, ``otherwise`` where the denominator is 0 (as CLEME's ``if``)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(denominator != 0, numerator / np.where(denominator == 0, 1, denominator), otherwise)


class PRFKeys:
    """CLEME's rule: the corpus choice maximizes (rounded F of the totals, TP, -FP, -FN, TN); the
    sentence choice (F, P, R, accuracy), each rounded; the score is F."""

    def __init__(self, beta: float) -> None:
        self.beta = float(beta)

    def prf(self, tp: np.ndarray, fp: np.ndarray, fn: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """P, R, F-beta in the operations of :func:`gecmetrics.metrics.cleme.scoring.prf`."""
        precision, recall = _ratio(tp, tp + fp, 1.0), _ratio(tp, tp + fn, 1.0)
        if math.isinf(self.beta):
            return precision, recall, recall
        square = self.beta ** 2
        denominator = (square * precision) + recall
        return precision, recall, _ratio((1 + square) * precision * recall, denominator, 0.0)

    def corpus_keys(self, totals: np.ndarray, local: np.ndarray) -> Iterator[np.ndarray]:
        cumulative = [totals[:, None, k] + local[..., k] for k in (_TP, _FP, _FN)]
        yield round_like_python(self.prf(*cumulative)[2], DECIMALS)
        yield from _tie_breaks(local)

    def corpus_score(self, totals: np.ndarray) -> np.ndarray:
        return self.prf(totals[:, _TP], totals[:, _FP], totals[:, _FN])[2]

    def sentence_keys(self, local: np.ndarray) -> list[np.ndarray]:
        tp, fp, fn, tn = (local[..., k] for k in (_TP, _FP, _FN, _TN))
        precision, recall, f = self.prf(tp, fp, fn)
        accuracy = _ratio(tp + tn, tp + fp + fn + tn, 0.0)
        return [round_like_python(value, DECIMALS) for value in (f, precision, recall, accuracy)]


class AspectKeys:
    """CLEME2.0's rule: the corpus choice maximizes (aggregate of the totals, TP, -FP, -FN, TN),
    unrounded; the sentence choice (aggregate, hit, -wrong, -under, -over); the score is the
    aggregate."""

    def __init__(self, factors: AspectFactors) -> None:
        self.factors = factors

    def aspects(self, tp: np.ndarray, fn: np.ndarray, necessary: np.ndarray, unnecessary: np.ndarray) -> list:
        """hit, wrong, under, over, aggregate in the operations of ``scoring.aspects``."""
        f = self.factors
        needed = tp + necessary + fn
        hit, wrong, under = _ratio(tp, needed, 0.0), _ratio(necessary, needed, 0.0), _ratio(fn, needed, 0.0)
        over = _ratio(unnecessary, tp + (necessary + unnecessary), 0.0)
        aggregate = f.hit * hit + f.wrong * (1 - wrong) + f.under * (1 - under) + f.over * (1 - over)
        return [hit, wrong, under, over, aggregate]

    def corpus_keys(self, totals: np.ndarray, local: np.ndarray) -> Iterator[np.ndarray]:
        tp, fn, necessary, unnecessary = (totals[:, None, k] + local[..., k] for k in (_TP, _FN, _NE, _UN))
        yield self.aspects(tp, fn, necessary, unnecessary)[4]
        yield from _tie_breaks(local)

    def corpus_score(self, totals: np.ndarray) -> np.ndarray:
        return self.aspects(totals[:, _TP], totals[:, _FN], totals[:, _NE], totals[:, _UN])[4]

    def sentence_keys(self, local: np.ndarray) -> list[np.ndarray]:
        hit, wrong, under, over, aggregate = self.aspects(local[..., _TP], local[..., _FN], local[..., _NE],
                                                          local[..., _UN])
        return [aggregate, hit, -wrong, -under, -over]


def _tie_breaks(local: np.ndarray) -> Iterator[np.ndarray]:
    """The corpus choice's keys after the score: more TP, fewer FP, fewer FN, more TN."""
    yield local[..., _TP]
    yield -local[..., _FP]
    yield -local[..., _FN]
    yield local[..., _TN]


def first_best(keys: Iterable[np.ndarray], available: np.ndarray) -> np.ndarray:
    """Index of the lexicographically largest keys among the available slots (last axis), the
    first on ties. Keys are taken one by one until no tie is left."""
    best = available.copy()
    if best.shape[-1] > 1:
        for key in keys:
            values = np.where(best, key, -np.inf)
            best &= values == values.max(axis=-1, keepdims=True)
            if np.count_nonzero(best) == best.size // best.shape[-1]:
                break
    return best.argmax(axis=-1)


def running_choice(n: int, size: int, local_at: Callable[[int], tuple[np.ndarray, np.ndarray, bool]],
                   keys: Any) -> np.ndarray:
    """Corpus level for n sequences of ``size`` rows: position after position, the slot whose
    counts added to the running totals rank highest; the score of the totals. ``local_at(p)``
    gives the counts (n, slots, 6), the present slots (n, slots) at position p, and whether
    every row there has its slots alike (then the first is kept without comparing)."""
    trials = np.arange(n)
    totals = np.zeros((n, len(COLUMNS)))
    for position in range(size):
        local, present, alike = local_at(position)
        if alike:
            totals += local[:, 0]
            continue
        chosen = first_best(keys.corpus_keys(totals, local), present)
        totals += local[trials, chosen]
    return keys.corpus_score(totals)


def sentence_means(table: np.ndarray, present: np.ndarray, sequences: np.ndarray, keys: Any) -> np.ndarray:
    """Sentence level: per row its best slot's headline score (the first key), then per sequence
    the mean over its rows, added as ``np.average`` adds them."""
    sentence_keys = keys.sentence_keys(table)
    best = first_best(sentence_keys, np.broadcast_to(present, table.shape[:3]))
    headline = np.take_along_axis(sentence_keys[0], best[..., None], axis=-1)[..., 0]     # (1 or n, rows)
    picked = headline[np.arange(len(sequences))[:, None] if len(headline) > 1 else 0, sequences]
    if sequences.shape[1] == 0:
        return np.zeros(len(sequences))
    return np.array([np.average(row) for row in picked])
