"""Ways of selecting rows of a statistics array and summing them.

A metric's statistics have shape (D, R, K): K integer counts per sentence and reference.
Corpus scores, reference sampling and best-reference choice are all selections of one
reference per sentence followed by a sum over sentences.
"""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from typing import Iterator

import numpy as np

from . import stop
from .backend import compiled as _counting, compiled_core_enabled


DRAW_BUDGET_BYTES = 64 * 2**20
"""The largest array of reference draws made at once: beyond, draws come in blocks of
iterations (a million sentences times 500 iterations would be 4 GB)."""

INDICATOR_BYTES = 32 * 2**20
"""The largest block of reference indicators (float64, iterations by sentences) that
:func:`sum_selected` makes at once: they are made again for each call, a block at a time, and
never kept (500 iterations of 10^5 sentences would be 400 MB per reference)."""


def draw_dtype(references: int) -> np.dtype:
    """The narrowest unsigned integer type of reference indices 0 .. references - 1 (one byte
    for up to 256 references): the kept draws take an eighth of int64's memory."""
    return np.min_scalar_type(max(references - 1, 0))


def _iteration_blocks(iterations: int, sentences: int) -> Iterator[tuple[int, int]]:
    """(first, count) of consecutive blocks of iterations whose int64 draws fit
    :data:`DRAW_BUDGET_BYTES`."""
    block = max(1, DRAW_BUDGET_BYTES // (8 * max(sentences, 1)))
    for first in range(0, iterations, block):
        yield first, min(block, iterations - first)


def draw_blocks(iterations: int, sentences: int, references: int, seed: int | None = None):
    """The reference draws of every sampling iteration, as (block, sentences) arrays in
    iteration order: gec-ranking's draws (``seed`` None) or NumPy's from ``seed``. One block
    (cached) when it fits :data:`DRAW_BUDGET_BYTES`; the blocks give the same draws."""
    if iterations * sentences * 8 <= DRAW_BUDGET_BYTES:
        yield (python2_draws(iterations, sentences, references) if seed is None
               else seeded_draws(iterations, sentences, references, seed))
        return
    generator = None if seed is None else np.random.default_rng(seed)
    for first, count in _iteration_blocks(iterations, sentences):
        if generator is None:
            yield _python2_draws_from(first, count, sentences, references, compiled_core_enabled())
        else:  # consecutive calls of one generator continue its stream exactly
            yield generator.integers(0, references, size=(count, sentences), dtype=np.int64)


_THREADS: ContextVar[int] = ContextVar("gecmetrics_reducer_threads", default=1)
STOP_DRAWS = 1 << 22
"""Sentence draws (iterations x sentences) of one call of the C loop of gec-ranking's draws: a
stop (Ctrl-C) waits for one call, about 0.05 s, not for all 500 iterations (9 s at 1.5 million
lines); the sums do not depend on it."""


@contextmanager
def reducer_threads(count: int) -> Iterator[None]:
    """Let the reducers called inside the block use ``count`` threads (the pipeline passes its
    ``jobs`` here, so ``-p N`` also speeds up what happens after the join)."""
    token = _THREADS.set(max(1, int(count)))
    try:
        yield
    finally:
        _THREADS.reset(token)


def sampled_sums(stats: np.ndarray, blocks) -> np.ndarray:
    """:func:`sum_selected` over every block of draws, shape (iterations, K)."""
    summer = _SelectedSums(stats)
    return np.concatenate([summer(block) for block in blocks], axis=0)


def python2_sampled_sums(stats: np.ndarray, iterations: int) -> np.ndarray:
    """``sampled_sums(stats, draw_blocks(iterations, D, R))``: the sums gec-ranking's draws
    select, shape (iterations, K). When the draws fit :data:`DRAW_BUDGET_BYTES` they are made
    once per run and kept (every hypothesis file reuses them); beyond, the C extension, when
    built, draws and adds in one pass without storing the draws (a million sentences: no 4 GB of
    draws, no float products), on :func:`reducer_threads` threads, each a range of iterations."""
    size, references, width = stats.shape
    fits = iterations * size * 8 <= DRAW_BUDGET_BYTES
    if fits or not (compiled_core_enabled() and stats.dtype in (np.int32, np.int64)):
        return sampled_sums(stats, draw_blocks(iterations, size, references))
    stats = np.ascontiguousarray(stats)
    step = max(1, STOP_DRAWS // size)  # iterations a call: a stop waits for one call, not the whole loop

    def iterations_from(span: tuple[int, int]) -> np.ndarray:
        first, count = span
        parts = []
        for start in range(first, first + count, step):
            stop.check()  # (a signal's handler runs between the calls in the main thread; a thread looks here)
            chunk = min(step, first + count - start)
            sums = _counting.python2_sampled_sums(stats, size, references, width, chunk, start)
            parts.append(np.frombuffer(sums, np.int64).reshape(chunk, width))
        return np.concatenate(parts, axis=0)

    threads = min(_THREADS.get(), iterations)
    if threads <= 1:
        return iterations_from((0, iterations))
    bounds = [iterations * t // threads for t in range(threads + 1)]
    from concurrent.futures import ThreadPoolExecutor  # the C loop releases the GIL

    with ThreadPoolExecutor(threads) as pool:
        parts = list(pool.map(iterations_from, [(a, b - a) for a, b in zip(bounds, bounds[1:])]))
    return np.concatenate(parts, axis=0)


def python2_draws(iterations: int, sentences: int, references: int) -> np.ndarray:
    """gec-ranking's reference draws, shape (iterations, sentences).

    Iteration j seeds Python 2's ``random`` with ``j * 101`` and draws
    ``int(random() * R)`` for each sentence (what Python 2's ``randint(0, R-1)`` did).
    ``RandomState([seed])`` seeds through init_by_array exactly like ``random.seed(seed)``
    (a bare integer or a one-element array would take another seeding path), and its
    ``random_sample`` gives the same doubles as ``random.random``. The array is cached and
    read-only, of :func:`draw_dtype` (made a block of iterations at a time). The C extension,
    when built, runs the same generator without NumPy's per-seed overhead (and without
    importing ``numpy.random``).
    """
    return _python2_draws(iterations, sentences, references, compiled_core_enabled())


@lru_cache(maxsize=8)
def _python2_draws(iterations: int, sentences: int, references: int, compiled: bool) -> np.ndarray:
    draws = np.empty((iterations, sentences), dtype=draw_dtype(references))
    for first, count in _iteration_blocks(iterations, sentences):
        draws[first:first + count] = _python2_draws_from(first, count, sentences, references, compiled)
    draws.flags.writeable = False
    return draws


def _python2_draws_from(first: int, iterations: int, sentences: int, references: int, compiled: bool) -> np.ndarray:
    """gec-ranking's draws of iterations ``first`` .. ``first + iterations - 1``."""
    if compiled:
        draws = np.frombuffer(_counting.python2_draws(iterations, sentences, references, first), np.int64)
        return draws.reshape(iterations, sentences)  # bytes: read-only already
    draws = np.empty((iterations, sentences), dtype=np.int64)
    generator = np.random.RandomState()
    for j in range(first, first + iterations):
        generator.seed([j * 101])
        draws[j - first] = (generator.random_sample(sentences) * references).astype(np.int64)
    return draws


@lru_cache(maxsize=8)
def seeded_draws(iterations: int, sentences: int, references: int, seed: int) -> np.ndarray:
    """Reference draws from NumPy's default generator (deterministic for a given seed), of
    :func:`draw_dtype`; read-only, as every hypothesis file of a run uses the same draws."""
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, references, size=(iterations, sentences), dtype=np.int64).astype(draw_dtype(references))
    draws.flags.writeable = False
    return draws


def sum_selected(stats: np.ndarray, choice: np.ndarray) -> np.ndarray:
    """Sum over sentences of ``stats[d, choice[..., d]]``.

    ``stats`` has shape (D, R, K) and ``choice`` (..., D) reference indices; the result has
    shape (..., K). Done as one matrix product per reference, so sampling 500 iterations
    never materializes an (iterations, D, K) array. Exact for integer counts below 2**53.
    """
    return _SelectedSums(stats)(choice)


class _SelectedSums:
    """:func:`sum_selected` of one statistics array for many choices: the sum of reference 0's
    rows and the other references' differences from them are made once."""

    def __init__(self, stats: np.ndarray) -> None:
        stats = np.asarray(stats)
        self.shape, self.integer = stats.shape, stats.dtype.kind in "iu"
        first = stats[:, 0, :].astype(np.float64)
        self.base = first.sum(axis=0)
        # (D, K), C order: the indicators (I, D) times them is a plain row-major product (the
        # transposed form, (K, D) by (D, I), ran 10-70 times slower with NumPy 2.4's OpenBLAS)
        self.differences = [stats[:, r, :].astype(np.float64) - first for r in range(1, stats.shape[1])]

    def __call__(self, choice: np.ndarray) -> np.ndarray:
        lead = choice.shape[:-1]
        flat = choice.reshape(int(np.prod(lead, dtype=np.int64)), choice.shape[-1])
        # sum of reference 0's rows, plus, where another reference is drawn, its difference
        # (the indicators a block of rows at a time: INDICATOR_BYTES)
        total = self.base + np.zeros((flat.shape[0], self.shape[2]))
        step = max(1, INDICATOR_BYTES // (8 * max(flat.shape[1], 1)))
        for start in range(0, flat.shape[0], step):
            rows = flat[start:start + step]
            for r, difference in enumerate(self.differences, start=1):
                total[start:start + step] += (rows == r).astype(np.float64) @ difference
        if self.integer:
            total = np.rint(total).astype(np.int64)
        return total.reshape(*lead, self.shape[2])


def select(stats: np.ndarray, choice: np.ndarray) -> np.ndarray:
    """The rows ``stats[d, choice[d]]``, shape (D, K)."""
    return stats[np.arange(stats.shape[0]), choice]


def best_reference(keys: np.ndarray) -> np.ndarray:
    """Per sentence, the reference whose key vector is lexicographically largest.

    ``keys`` has shape (D, R, M): for each sentence and reference, M values compared in
    order (the first decides, later ones break ties). Full ties go to the first reference.
    """
    n_sentences, n_refs, n_keys = keys.shape
    best = np.zeros(n_sentences, dtype=np.int64)
    rows = np.arange(n_sentences)
    for r in range(1, n_refs):
        current = keys[rows, best]
        candidate = keys[:, r]
        better = np.zeros(n_sentences, dtype=bool)
        undecided = np.ones(n_sentences, dtype=bool)
        for m in range(n_keys):
            better |= undecided & (candidate[:, m] > current[:, m])
            undecided &= candidate[:, m] == current[:, m]
        best[better] = r
    return best


SENTENCE_BLOCK = 1 << 16
"""Sentences whose per-sentence choices (best references) are computed together: the float
temporaries of a choice stay near (block x references x orders) whatever the corpus size."""


def by_sentence_blocks(function, stats: np.ndarray, axis: int = 0) -> np.ndarray:
    """``function(stats[block])`` for consecutive blocks of sentences, joined along ``axis``
    (the sentence axis of what ``function`` returns): the same as ``function(stats)``."""
    if len(stats) <= SENTENCE_BLOCK:
        return function(stats)
    return np.concatenate([function(stats[start:start + SENTENCE_BLOCK])
                           for start in range(0, len(stats), SENTENCE_BLOCK)], axis=axis)
