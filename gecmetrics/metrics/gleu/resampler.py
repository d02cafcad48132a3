"""GLEU+'s paired-test resampler: sampled references redrawn in every resample."""
from __future__ import annotations

import numpy as np

from ...core.aggregate import sum_selected
from ...core.resampling import Resample, Resampler, chunk_rows, compact_rows, float64_rows


BLOCK_BYTES = 16 * 2**20
"""Bound of the operand that :class:`SampledGLEUResampler`'s paired tests make for one block of
sentences, in the product's float type: the bootstrap's indicators of the reference drawn (500
iterations, float32: 8,388 sentences a block), the randomization's kept differences (trials x
columns). Each block is one matrix product, (iterations x sentences) by (sentences x resamples x
columns) or (trials x columns x sentences) by (sentences x iterations): shapes the BLAS runs near
its speed, where one product over every sentence at once (a 10^5-long inner dimension, a few
iterations and resamples wide) spent its time copying its operands."""


STEP_BYTES = 16 * 2**20
"""Bound of the float64 sums (resamples or trials x iterations x columns) that
:class:`SampledGLEUResampler`'s paired tests score at once (CoNLL-2014 draws 3,196 resamples a
chunk: 400 a step at 500 iterations and n = 4)."""


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

    def prepare(self, statistics: np.ndarray) -> np.ndarray:
        # counts of that many references (the draws are of them; negated counts were tested as if they were)
        statistics = self.metric.check_statistic_values(self.metric.check_statistics(statistics, self.references))
        return compact_rows(np.asarray(statistics, dtype=np.float64)[:, :, self._columns])

    def size(self, prepared: np.ndarray) -> int:
        return prepared.shape[0]

    def _score_sums(self, sums: np.ndarray) -> np.ndarray:
        return self.metric.score_from_scored_sums(sums)

    def _draws(self, prepared: np.ndarray) -> np.ndarray:
        return self.metric.draws(prepared.shape[0], prepared.shape[1])

    @staticmethod
    def _float_type(sentences: int, *arrays: np.ndarray) -> type:
        largest = max((float(np.abs(a).max()) if a.size else 0.0 for a in arrays), default=0.0)
        return np.float32 if sentences * largest < 2 ** 24 else np.float64

    def _references_apart(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, type, list[np.ndarray]]:
        """Rows (D, R, K) as reference 0's (D, K), the columns where the references differ, the
        product's float type, and each other reference's difference from reference 0 in those
        columns (D, K') in that type: only they are multiplied (the hypothesis's n-gram counts and
        length do not differ: about half the columns); the others are reference 0's."""
        first = rows[:, 0]
        differences = [rows[:, r] - first for r in range(1, rows.shape[1])]
        varying = np.flatnonzero(np.any(rows != rows[:, :1], axis=(0, 1)))
        dtype = self._float_type(rows.shape[0], *differences)
        return first, varying, dtype, [x[:, varying].astype(dtype) for x in differences]

    def score(self, prepared: np.ndarray) -> float:
        return float(np.mean(self._score_sums(sum_selected(prepared, self._draws(prepared)))))  # (float64 sums)

    def bootstrap_scores(self, prepared: np.ndarray, resample: Resample) -> np.ndarray:
        prepared = float64_rows(prepared)
        draws = self._draws(prepared)
        iterations, columns = draws.shape[0], prepared.shape[2]
        first, varying, dtype, differences = self._references_apart(prepared)
        out = np.empty(resample.samples)
        step = chunk_rows(iterations * columns * 8, resample.samples, STEP_BYTES)
        for start in range(0, resample.samples, step):
            indices = resample.indices[start:start + step]
            # every iteration sums reference 0's rows of the resample, plus the differences
            # where another reference is drawn
            sums = np.broadcast_to((resample.counts[start:start + step] @ first)[:, None, :],
                                   (len(indices), iterations, columns)).copy()
            if len(varying):
                added = self._drawn_differences(draws, differences, indices, dtype)
                sums[:, :, varying] += added.reshape(iterations, len(indices), len(varying)).transpose(1, 0, 2)
            out[start:start + len(indices)] = self._score_sums(sums).mean(axis=1)
        return out

    @staticmethod
    def _drawn_differences(draws: np.ndarray, differences: list[np.ndarray], indices: np.ndarray,
                           dtype: type) -> np.ndarray:
        """(I, N * K'): for each iteration, resample and varying column, the sum over the resample's
        positions of the difference (reference r minus reference 0) of the sentence at the position
        where reference r is drawn there. A block of positions at a time: (I, B) indicators (the
        draws themselves with two references, 0 or 1) times the (B, N * K') gathered differences.
        The values are integers whose partial sums stay below the type's exact range (float32:
        2**24, see :meth:`_float_type`), so the blocks change no sum."""
        iterations, sentences = draws.shape
        samples, width = indices.shape[0], differences[0].shape[1]
        total = np.zeros((iterations, samples * width), dtype)
        block = chunk_rows(iterations * np.dtype(dtype).itemsize, sentences, BLOCK_BYTES)
        for start in range(0, sentences, block):
            positions = slice(start, start + block)
            drawn = draws[:, positions]
            rows = indices[:, positions].T                                                  # (B, N)
            for r, difference in enumerate(differences, start=1):
                total += _indicators(drawn, r, len(differences), dtype) @ difference[rows].reshape(len(rows), -1)
        return total

    def swapped_scores(self, baseline: np.ndarray, system: np.ndarray,
                       keep_baseline: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        baseline, system = float64_rows(baseline), float64_rows(system)
        draws = self._draws(baseline)
        iterations, columns = draws.shape[0], baseline.shape[2]
        sums_baseline = sum_selected(baseline, draws)
        sums_system = sum_selected(system, draws)
        # what a sentence's baseline row adds to the system's sums in place of its own, with
        # reference 0 drawn (first), and how much more with reference r drawn (others)
        first, varying, dtype, others = self._references_apart(baseline - system)
        trials = keep_baseline.shape[0]
        scores_a, scores_b = np.empty(trials), np.empty(trials)
        step = chunk_rows(iterations * columns * 8, trials, STEP_BYTES)
        for start in range(0, trials, step):
            keep = keep_baseline[start:start + step]
            # pseudo-system A: the system's sentences, the baseline's where kept; B the other way
            sums_a = sums_system + (keep.astype(np.float64) @ first)[:, None, :]    # (T, I, K)
            if len(varying):
                added = self._kept_differences(draws, others, keep, dtype)             # (T * K', I)
                sums_a[:, :, varying] += added.reshape(len(keep), len(varying), iterations).transpose(0, 2, 1)
            sums_b = sums_baseline + sums_system - sums_a
            scores_a[start:start + len(keep)] = self._score_sums(sums_a).mean(axis=1)
            scores_b[start:start + len(keep)] = self._score_sums(sums_b).mean(axis=1)
        return scores_a, scores_b

    @staticmethod
    def _kept_differences(draws: np.ndarray, others: list[np.ndarray], keep: np.ndarray, dtype: type) -> np.ndarray:
        """(T * K', I): for each trial, varying column and iteration, the sum over the sentences
        the trial keeps from the baseline of how much more swapping them in adds where reference
        r (not 0) is drawn. A block of sentences at a time: the (T * K', B) kept differences times
        the (B, I) indicators (the draws themselves with two references); exact integers, as in
        :meth:`bootstrap_scores`."""
        iterations, sentences = draws.shape
        trials, width = keep.shape[0], others[0].shape[1]
        total = np.zeros((trials * width, iterations), dtype)
        block = chunk_rows(trials * width * np.dtype(dtype).itemsize, sentences, BLOCK_BYTES)
        for start in range(0, sentences, block):
            positions = slice(start, start + block)
            kept = keep[:, positions].astype(dtype)                                          # (T, B)
            drawn = draws[:, positions]
            for r, other in enumerate(others, start=1):
                rows = (kept[:, None, :] * other[positions].T[None]).reshape(trials * width, -1)  # (T * K', B)
                total += rows @ _indicators(drawn, r, len(others), dtype).T
        return total


def _indicators(drawn: np.ndarray, reference: int, others: int, dtype: type) -> np.ndarray:
    """(I, B) 1 where ``reference`` (not 0) is drawn, in the product's type: the draws
    themselves when it is the only other reference (they are 0 or 1)."""
    return (drawn if others == 1 else drawn == reference).astype(dtype)
