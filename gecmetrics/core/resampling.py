"""Resampling the per-sentence rows of one metric: what a paired test asks of a metric.

A :class:`Resampler` scores a corpus, its bootstrap resamples and its randomised swaps from the
metric's per-sentence statistics. :class:`LinearResampler` serves every metric whose corpus score
is a function of the sum of fixed per-sentence rows (the protocol's default); a family whose
choices depend on the corpus (sampled references, the running-F annotator choice) brings its own.
Nothing here knows a metric.
"""
from __future__ import annotations

import math
from abc import ABC, abstractmethod
from functools import cached_property
from typing import Any

import numpy as np

from ..errors import InputError

CHUNK_BYTES = 16 * 2**20
"""Upper bound of the temporary float arrays built per chunk of resamples."""


def resamples_needed(confidence: float) -> int:
    """The fewest resamples whose central ``confidence`` percentile interval leaves one beyond
    each end (40 at 95%): fewer give ends at (or near) the lowest and highest resample."""
    return math.ceil(round(2 / (1 - confidence), 6))


class Resample:
    """N resamples of D sentence indices, with their per-sentence counts computed on demand."""

    def __init__(self, indices: np.ndarray) -> None:
        self.indices = indices

    @property
    def samples(self) -> int:
        return self.indices.shape[0]

    @property
    def size(self) -> int:
        return self.indices.shape[1]

    @cached_property
    def counts(self) -> np.ndarray:
        """How often resample i drew sentence d, shape (N, D), float64 (a matrix-product operand)."""
        n, d = self.indices.shape
        flat = (self.indices + (np.arange(n) * d)[:, None]).ravel()
        return np.bincount(flat, minlength=n * d).reshape(n, d).astype(np.float64)


def compact_rows(rows: np.ndarray) -> np.ndarray:
    """Prepared rows as a resampler keeps them from one chunk of resamples to the next: float32
    where that holds every value exactly (counts below 2**24: GREEN's, GLEU+'s), float64
    otherwise. Every use reads them back as float64 (:func:`float64_rows`) before any
    arithmetic, so the sums and scores are those of the float64 rows, with half the memory (the
    report's prepared rows were 312 MB at 10^5 sentences)."""
    rows = np.asarray(rows, dtype=np.float64)
    narrow = rows.astype(np.float32)
    return narrow if np.array_equal(narrow, rows) else rows


def float64_rows(prepared: np.ndarray) -> np.ndarray:
    """:func:`compact_rows`' rows as float64 (the same values; no copy when they are)."""
    return np.asarray(prepared, dtype=np.float64)


def chunk_rows(row_bytes: int, total: int, budget: int | None = None) -> int:
    """How many of ``total`` rows of ``row_bytes`` each fit in ``budget`` bytes (default
    :data:`CHUNK_BYTES`), at least one."""
    return max(1, min(total, (CHUNK_BYTES if budget is None else budget) // max(row_bytes, 1)))


class Resampler(ABC):
    """Scores a corpus, its bootstrap resamples and its randomized swaps from prepared
    per-sentence statistics of one metric (one score column)."""

    label: str = ""
    signature: str = ""

    @abstractmethod
    def prepare(self, statistics: Any) -> Any:
        """Per-system preparation of the statistics (done once per system)."""

    @abstractmethod
    def size(self, prepared: Any) -> int:
        """Number of sentences."""

    @abstractmethod
    def score(self, prepared: Any) -> float:
        """The corpus score (a fraction), as the metric reports it."""

    @abstractmethod
    def bootstrap_scores(self, prepared: Any, resample: Resample) -> np.ndarray:
        """Corpus score of every resample, shape (N,)."""

    @abstractmethod
    def swapped_scores(self, baseline: Any, system: Any, keep_baseline: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Scores of the pseudo-systems A (the baseline's sentences where ``keep_baseline``, the
        system's elsewhere) and B (the opposite), shapes (N,)."""


def prepared_for(resampler: Resampler, name: str, statistics: Any) -> Any:
    """``resampler.prepare(statistics)`` of the system ``name``: a refusal that names no file
    names the system (an LLM judge's sentences without a score cannot be resampled)."""
    try:
        return resampler.prepare(statistics)
    except InputError as err:
        if err.path is not None:
            raise
        raise err.naming(name) from None


class LinearResampler(Resampler):
    """Metrics whose per-sentence rows are fixed (one chosen reference per sentence, or merged
    references) and whose corpus score is a function of the row sums: resample sums are one
    (N x D) count matrix times the (D, K) rows."""

    def __init__(self, rows, score_sums, label: str, signature: str) -> None:
        self._rows = rows
        self._score_sums = score_sums
        self.label = label
        self.signature = signature

    def prepare(self, statistics: np.ndarray) -> np.ndarray:
        """The rows ``rows(statistics)`` makes of the statistics as they are given (a metric's own
        object, not yet an array: its check can read what the array leaves out), compacted."""
        return compact_rows(np.ascontiguousarray(self._rows(statistics), dtype=np.float64))

    def size(self, prepared: np.ndarray) -> int:
        return prepared.shape[0]

    def score(self, prepared: np.ndarray) -> float:
        return float(self._score_sums(float64_rows(prepared).sum(axis=0)))

    def bootstrap_scores(self, prepared: np.ndarray, resample: Resample) -> np.ndarray:
        return np.asarray(self._score_sums(resample.counts @ float64_rows(prepared)), dtype=np.float64)

    def swapped_scores(self, baseline: np.ndarray, system: np.ndarray,
                       keep_baseline: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        baseline, system = float64_rows(baseline), float64_rows(system)
        total_baseline, total_system = baseline.sum(axis=0), system.sum(axis=0)
        difference = baseline - system
        trials = keep_baseline.shape[0]
        scores_a = np.empty(trials)
        scores_b = np.empty(trials)
        step = chunk_rows(keep_baseline.shape[1] * 8, trials)
        for start in range(0, trials, step):
            mask = keep_baseline[start:start + step].astype(np.float64)
            sums_a = total_system + mask @ difference
            sums_b = total_baseline + total_system - sums_a
            scores_a[start:start + step] = self._score_sums(sums_a)
            scores_b[start:start + step] = self._score_sums(sums_b)
        return scores_a, scores_b
