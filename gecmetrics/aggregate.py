"""Ways of selecting rows of a statistics array and summing them.

A metric's statistics have shape (D, R, K): K integer counts per sentence and reference.
Corpus scores, reference sampling and best-reference choice are all selections of one
reference per sentence followed by a sum over sentences.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from .backend import compiled as _counting, compiled_core_enabled


DRAW_BUDGET_BYTES = 64 * 2**20
"""The largest array of reference draws made at once: beyond, draws come in blocks of
iterations (a million sentences times 500 iterations would be 4 GB)."""


def draw_blocks(iterations: int, sentences: int, references: int, seed: int | None = None):
    """The reference draws of every sampling iteration, as (block, sentences) arrays in
    iteration order: gec-ranking's draws (``seed`` None) or NumPy's from ``seed``. One block
    (cached) when it fits :data:`DRAW_BUDGET_BYTES`; the blocks give the same draws."""
    if iterations * sentences * 8 <= DRAW_BUDGET_BYTES:
        yield (python2_draws(iterations, sentences, references) if seed is None
               else seeded_draws(iterations, sentences, references, seed))
        return
    block = max(1, DRAW_BUDGET_BYTES // (8 * max(sentences, 1)))
    generator = None if seed is None else np.random.default_rng(seed)
    for first in range(0, iterations, block):
        count = min(block, iterations - first)
        if generator is None:  # writeable: only the shared (cached, read-only) draws keep indicators
            yield _python2_draws_from(first, count, sentences, references, compiled_core_enabled()).copy()
        else:  # consecutive calls of one generator continue its stream exactly
            yield generator.integers(0, references, size=(count, sentences), dtype=np.int64)


def sampled_sums(stats: np.ndarray, blocks) -> np.ndarray:
    """:func:`sum_selected` over every block of draws, shape (iterations, K)."""
    return np.concatenate([sum_selected(stats, block) for block in blocks], axis=0)


def python2_draws(iterations: int, sentences: int, references: int) -> np.ndarray:
    """gec-ranking's reference draws, shape (iterations, sentences).

    Iteration j seeds Python 2's ``random`` with ``j * 101`` and draws
    ``int(random() * R)`` for each sentence (what Python 2's ``randint(0, R-1)`` did).
    ``RandomState([seed])`` seeds through init_by_array exactly like ``random.seed(seed)``
    (a bare integer or a one-element array would take another seeding path), and its
    ``random_sample`` gives the same doubles as ``random.random``. The array is cached and
    read-only. The C extension, when built, runs the same generator without NumPy's
    per-seed overhead (and without importing ``numpy.random``).
    """
    return _python2_draws(iterations, sentences, references, compiled_core_enabled())


@lru_cache(maxsize=8)
def _python2_draws(iterations: int, sentences: int, references: int, compiled: bool) -> np.ndarray:
    draws = _python2_draws_from(0, iterations, sentences, references, compiled)
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
    """Reference draws from NumPy's default generator (deterministic for a given seed);
    cached and read-only, as every hypothesis file of a run uses the same draws."""
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, references, size=(iterations, sentences), dtype=np.int64)
    draws.flags.writeable = False
    return draws


def sum_selected(stats: np.ndarray, choice: np.ndarray) -> np.ndarray:
    """Sum over sentences of ``stats[d, choice[..., d]]``.

    ``stats`` has shape (D, R, K) and ``choice`` (..., D) reference indices; the result has
    shape (..., K). Done as one matrix product per reference, so sampling 500 iterations
    never materializes an (iterations, D, K) array. Exact for integer counts below 2**53.
    """
    stats = np.asarray(stats)
    n_refs = stats.shape[1]
    lead = choice.shape[:-1]
    flat = choice.reshape(int(np.prod(lead, dtype=np.int64)), choice.shape[-1])
    # sum of reference 0's rows, plus, where another reference is drawn, its difference
    first = stats[:, 0, :].astype(np.float64)
    total = first.sum(axis=0) + np.zeros((flat.shape[0], stats.shape[2]))
    for r in range(1, n_refs):
        total += _indicator(flat, r) @ (stats[:, r, :].astype(np.float64) - first)
    if stats.dtype.kind in "iu":
        total = np.rint(total).astype(np.int64)
    return total.reshape(*lead, stats.shape[2])


_INDICATORS: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}


def _indicator(choice: np.ndarray, reference: int) -> np.ndarray:
    """``choice == reference`` as floats; kept for read-only (cached) draws, which every
    hypothesis file of a run shares."""
    if choice.flags.writeable or choice.base is None:
        return (choice == reference).astype(np.float64)
    key = (id(choice.base), reference)
    found = _INDICATORS.get(key)
    if found is None or found[0] is not choice.base:
        if len(_INDICATORS) > 8:
            _INDICATORS.clear()
        found = _INDICATORS[key] = (choice.base, (choice == reference).astype(np.float64))
    return found[1]


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
