"""GLEU+'s paired-test resampler: sampled references redrawn in every resample."""
from __future__ import annotations

import numpy as np

from ...core.aggregate import sum_selected
from ...core.resampling import Resample, Resampler, chunk_rows, compact_rows, float64_rows


GATHER_BYTES = 64 * 2**20
"""Bound of one step of :meth:`SampledGLEUResampler.bootstrap_scores`: the resamples whose
gathered rows are multiplied at once. The product is what the bootstrap costs; a step of a few
resamples keeps it near the BLAS's speed on a large corpus (10^5 sentences, 500 iterations: 18
resamples a step, 1.6-1.9x faster than the 2 that a 16 MB bound of float64 rows allowed)."""


MASK_BYTES = 32 * 2**20
"""Bound of the indicator rows in the product's float type (iterations where a reference is
drawn, per sentence) that :meth:`SampledGLEUResampler.bootstrap_scores` makes at once from the
one-byte indicators: at 10^5 sentences all 500 iterations' were 200 MB per call."""


class SampledGLEUResampler(Resampler):
    """GLEU+ with reference sampling: in every resample, each position i of the resampled corpus
    takes the reference the metric draws for position i in each iteration (``metric.draws``),
    so a resample's score is exactly ``metric.score(stats[indices]).score``.

    Only the columns the score reads (lengths, numerators, denominators) are summed, and the
    matrix products run in float32 when every partial sum is an integer below 2**24 (exact)."""

    def __init__(self, metric, references: int) -> None:
        self.metric = metric
        self.references = references
        self.label = "GLEU+"
        self.signature = metric.signature(references)
        self._columns = metric.layout.scored
        self._width = metric.layout.width

    def prepare(self, statistics: np.ndarray) -> np.ndarray:
        statistics = self.metric.check_statistics(statistics, self.references)  # the draws are of that many references
        return compact_rows(np.asarray(statistics, dtype=np.float64)[:, :, self._columns])

    def size(self, prepared: np.ndarray) -> int:
        return prepared.shape[0]

    def _score_sums(self, sums: np.ndarray) -> np.ndarray:
        full = np.zeros(sums.shape[:-1] + (self._width,))
        full[..., self._columns] = sums
        return self.metric.score_from_sums(full)

    def _draws(self, prepared: np.ndarray) -> np.ndarray:
        return self.metric.draws(prepared.shape[0], prepared.shape[1])

    @staticmethod
    def _float_type(sentences: int, *arrays: np.ndarray) -> type:
        largest = max(float(np.abs(a).max()) if a.size else 0.0 for a in arrays)
        return np.float32 if sentences * largest < 2 ** 24 else np.float64

    def score(self, prepared: np.ndarray) -> float:
        return float(np.mean(self._score_sums(sum_selected(prepared, self._draws(prepared)))))  # (float64 sums)

    def bootstrap_scores(self, prepared: np.ndarray, resample: Resample) -> np.ndarray:
        prepared = float64_rows(prepared)
        draws = self._draws(prepared)
        iterations, sentences = draws.shape
        n_refs, columns = prepared.shape[1], prepared.shape[2]
        first = prepared[:, 0]
        differences = [prepared[:, r] - first for r in range(1, n_refs)]
        # only the columns that differ between references are multiplied (the hypothesis's
        # n-gram counts and length do not: about half of them); the others are reference 0's
        varying = np.flatnonzero(np.any(prepared != prepared[:, :1], axis=(0, 1)))
        width = len(varying)
        dtype = self._float_type(sentences, *differences)
        differences = [x[:, varying].astype(dtype) for x in differences]
        out = np.empty(resample.samples)
        # per resample: its gathered differences (D, K') in the product's type and its sums (I, width)
        step = chunk_rows(max(sentences * max(width, 1) * np.dtype(dtype).itemsize, iterations * self._width * 8),
                          resample.samples, GATHER_BYTES)
        block = chunk_rows(sentences * np.dtype(dtype).itemsize, iterations, MASK_BYTES)
        # (I, D) indicators of each other reference drawn; with two references, the draws
        # themselves (0 or 1: no second array of I x D, 50 MB at 10^5 sentences)
        drawn = ([draws] if n_refs == 2 else [draws == r for r in range(1, n_refs)]) if width else []
        for start in range(0, resample.samples, step):
            indices = resample.indices[start:start + step]
            chunk = len(indices)
            # every iteration sums reference 0's rows of the resample, plus the differences
            # where another reference is drawn: (I, D) indicators times the gathered (D, chunk*K'),
            # a block of iterations at a time (exact integers: the blocks change no sum)
            sums = np.broadcast_to((resample.counts[start:start + step] @ first)[:, None, :],
                                   (chunk, iterations, columns)).copy()
            for indicators, difference in zip(drawn, differences):
                gathered = difference[indices.T].reshape(sentences, chunk * width)    # (D, chunk*K')
                for i in range(0, iterations, block):
                    part = indicators[i:i + block].astype(dtype) @ gathered  # (one block's indicators at a time)
                    sums[:, i:i + block, varying] += part.reshape(len(part), chunk, width).transpose(1, 0, 2)
            out[start:start + chunk] = self._score_sums(sums).mean(axis=1)
        return out

    def swapped_scores(self, baseline: np.ndarray, system: np.ndarray,
                       keep_baseline: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        baseline, system = float64_rows(baseline), float64_rows(system)
        draws = self._draws(baseline)
        iterations, sentences = draws.shape
        columns = baseline.shape[2]
        rows = np.arange(sentences)
        sums_baseline = sum_selected(baseline, draws)
        sums_system = sum_selected(system, draws)
        dtype = self._float_type(sentences, baseline - system)
        trials = keep_baseline.shape[0]
        scores_a = np.zeros((trials, iterations))
        scores_b = np.zeros((trials, iterations))
        block = chunk_rows(sentences * columns * 8, iterations)
        step = chunk_rows(block * columns * 8 * 2, trials)
        for first_iteration in range(0, iterations, block):
            part = draws[first_iteration:first_iteration + block]                  # (b, D)
            # per sentence and iteration, the drawn reference's row: baseline minus system
            difference = (baseline[rows, part] - system[rows, part]).transpose(1, 0, 2)  # (D, b, K)
            difference = difference.reshape(sentences, -1).astype(dtype)
            total_b = sums_baseline[first_iteration:first_iteration + block]
            total_s = sums_system[first_iteration:first_iteration + block]
            for start in range(0, trials, step):
                mask = keep_baseline[start:start + step].astype(dtype)
                sums_a = total_s + (mask @ difference).reshape(len(mask), len(part), columns)
                sums_b = total_b + total_s - sums_a
                scores_a[start:start + step, first_iteration:first_iteration + block] = self._score_sums(sums_a)
                scores_b[start:start + step, first_iteration:first_iteration + block] = self._score_sums(sums_b)
        return scores_a.mean(axis=1), scores_b.mean(axis=1)
