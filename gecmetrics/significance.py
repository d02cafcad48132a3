"""Paired significance tests on per-sentence statistics: paired bootstrap resampling and
approximate randomization, following the procedure of sacrebleu's ``significance.py``.

Nothing is recounted: a test resamples (or swaps) rows of the statistics arrays that the metrics
already computed, and scores each resample with the metric's own reducer.

* Paired bootstrap (``bs``): ``numpy.random.default_rng(seed).choice(D, (N, D), replace=True)``
  gives N resamples of sentence indices, the same for the baseline and every system. The test
  statistic of resample i is ``|score_sys_i - score_base_i|``; the p-value counts the resamples
  whose statistic, shifted by its mean over the resamples, reaches the observed difference:
  ``p = (c + 1) / (N + 1)``. The 95% interval is the percentile interval of the bootstrap scores
  (``scores[N // 40]`` and ``scores[N - N // 40 - 1]`` after sorting), as sacrebleu computes it.
* Approximate randomization (``ar``): per trial and per sentence a fair coin decides whether the
  two pseudo-systems swap that sentence's statistics (``default_rng(seed).integers(2, (N, D))``);
  the p-value counts the trials whose ``|score_a - score_b|`` reaches the observed difference,
  with the same +1 smoothing. Its interval comes from a paired bootstrap of the same seed.

"Reaches" is ``>=`` by default, so a system compared with itself gets p = 1. sacrebleu counts
with a strict ``>`` (``strict=True`` here), which gives a system against itself the smallest
possible p = 1 / (N + 1); the two differ only on exact ties.

Where a metric's choice depends on the corpus, it is redone inside every resample: sampled
GLEU+ draws a reference for every position of the resampled corpus exactly as it would for a
corpus in that order, and M2-family scorers choose the annotator by the running corpus F in
resample order (vectorized across resamples, sequential over sentence positions).
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Mapping, Sequence

import numpy as np

from . import __version__
from .aggregate import select, sum_selected
from .errors import InputError

METHODS = ("bs", "ar")
DEFAULT_SAMPLES = {"bs": 1000, "ar": 10000}
DEFAULT_CONFIDENCE_SAMPLES = 1000
SIGNIFICANCE_LEVEL = 0.05
CHUNK_BYTES = 16 * 2**20
"""Upper bound of the temporary float arrays built per chunk of resamples."""


# --------------------------------------------------------------------------- results


@dataclass
class SystemSignificance:
    """One system's corpus score, bootstrap interval and p-value against the baseline."""

    name: str
    score: float
    mean: float
    """Mean of the bootstrap scores (sacrebleu's mu)."""
    interval: tuple[float, float]
    """95% percentile interval of the bootstrap scores."""
    p_value: float | None = None
    """None for the baseline."""

    @property
    def half_width(self) -> float:
        """sacrebleu's '95% CI' figure: half the width of the interval (printed as mean +- it)."""
        return 0.5 * (self.interval[1] - self.interval[0])

    @property
    def significant(self) -> bool:
        """p < 0.05 (never for the baseline)."""
        return self.p_value is not None and self.p_value < SIGNIFICANCE_LEVEL


@dataclass
class PairedTestResult:
    """A paired test of several systems against the first (the baseline)."""

    method: str
    """'bs' (paired bootstrap) or 'ar' (approximate randomization)."""
    samples: int
    """Bootstrap resamples (bs) or randomization trials (ar)."""
    confidence_samples: int
    """Bootstrap resamples behind the intervals."""
    seed: int
    metric: str
    systems: list[SystemSignificance]
    signature: str
    strict: bool = False
    settings: dict = field(default_factory=dict)

    @property
    def baseline(self) -> SystemSignificance:
        return self.systems[0]


# --------------------------------------------------------------------------- random draws


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


def bootstrap_indices(sentences: int, samples: int, seed: int) -> np.ndarray:
    """sacrebleu's resample indices: ``default_rng(seed).choice(D, size=(N, D), replace=True)``."""
    rng = np.random.default_rng(seed)
    return rng.choice(sentences, size=(samples, sentences), replace=True)


def randomization_masks(sentences: int, trials: int, seed: int) -> np.ndarray:
    """sacrebleu's swap masks: True where pseudo-system A keeps the baseline's sentence
    (``default_rng(seed).integers(2, size=(N, D), dtype=bool)``)."""
    rng = np.random.default_rng(seed)
    return rng.integers(2, size=(trials, sentences), dtype=bool)


def percentile_interval(scores: np.ndarray) -> tuple[float, float, float]:
    """Mean and the 95% interval of bootstrap scores as sacrebleu's ``estimate_ci`` takes them:
    sorted, the values at positions N // 40 and N - N // 40 - 1."""
    ordered = np.sort(np.asarray(scores, dtype=np.float64))
    lower = len(ordered) // 40
    return float(ordered.mean()), float(ordered[lower]), float(ordered[len(ordered) - lower - 1])


def p_value(sample_statistics: np.ndarray, observed: float, strict: bool = False) -> float:
    """(c + 1) / (N + 1), c = number of sample statistics reaching ``observed`` (``>=``; ``>``
    with ``strict``, sacrebleu's count)."""
    sample_statistics = np.asarray(sample_statistics)
    reached = sample_statistics > observed if strict else sample_statistics >= observed
    return (int(np.count_nonzero(reached)) + 1) / (len(sample_statistics) + 1)


def _chunk_rows(row_bytes: int, total: int) -> int:
    return max(1, min(total, CHUNK_BYTES // max(row_bytes, 1)))


# --------------------------------------------------------------------------- resamplers


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
        return np.ascontiguousarray(self._rows(np.asarray(statistics)), dtype=np.float64)

    def size(self, prepared: np.ndarray) -> int:
        return prepared.shape[0]

    def score(self, prepared: np.ndarray) -> float:
        return float(self._score_sums(prepared.sum(axis=0)))

    def bootstrap_scores(self, prepared: np.ndarray, resample: Resample) -> np.ndarray:
        return np.asarray(self._score_sums(resample.counts @ prepared), dtype=np.float64)

    def swapped_scores(self, baseline: np.ndarray, system: np.ndarray,
                       keep_baseline: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        total_baseline, total_system = baseline.sum(axis=0), system.sum(axis=0)
        difference = baseline - system
        trials = keep_baseline.shape[0]
        scores_a = np.empty(trials)
        scores_b = np.empty(trials)
        step = _chunk_rows(keep_baseline.shape[1] * 8, trials)
        for start in range(0, trials, step):
            mask = keep_baseline[start:start + step].astype(np.float64)
            sums_a = total_system + mask @ difference
            sums_b = total_baseline + total_system - sums_a
            scores_a[start:start + step] = self._score_sums(sums_a)
            scores_b[start:start + step] = self._score_sums(sums_b)
        return scores_a, scores_b


class SampledGLEUResampler(Resampler):
    """GLEU+ with reference sampling: in every resample, each position i of the resampled corpus
    takes the reference the metric draws for position i in each iteration (``metric.draws``),
    so a resample's score is exactly ``metric.corpus_from_statistics(stats[indices]).score``.

    Only the columns the score reads (lengths, numerators, denominators) are summed, and the
    matrix products run in float32 when every partial sum is an integer below 2**24 (exact)."""

    def __init__(self, metric, references: int) -> None:
        self.metric = metric
        self.label = "GLEU+"
        self.signature = metric.signature(references)
        n = metric.n
        self._columns = np.r_[0:2, 2 + 2 * n:2 + 4 * n]
        self._width = 2 + 4 * n

    def prepare(self, statistics: np.ndarray) -> np.ndarray:
        return np.asarray(statistics, dtype=np.float64)[:, :, self._columns]

    def size(self, prepared: np.ndarray) -> int:
        return prepared.shape[0]

    def _score_sums(self, sums: np.ndarray) -> np.ndarray:
        full = np.zeros(sums.shape[:-1] + (self._width,))
        full[..., self._columns] = sums
        return self.metric.score_sums(full)

    def _draws(self, prepared: np.ndarray) -> np.ndarray:
        return self.metric.draws(prepared.shape[0], prepared.shape[1])

    @staticmethod
    def _float_type(sentences: int, *arrays: np.ndarray) -> type:
        largest = max(float(np.abs(a).max()) if a.size else 0.0 for a in arrays)
        return np.float32 if sentences * largest < 2 ** 24 else np.float64

    def score(self, prepared: np.ndarray) -> float:
        return float(np.mean(self._score_sums(sum_selected(prepared, self._draws(prepared)))))

    def bootstrap_scores(self, prepared: np.ndarray, resample: Resample) -> np.ndarray:
        draws = self._draws(prepared)
        iterations, sentences = draws.shape
        n_refs, columns = prepared.shape[1], prepared.shape[2]
        first = prepared[:, 0]
        differences = [prepared[:, r] - first for r in range(1, n_refs)]
        dtype = self._float_type(sentences, *differences)
        masks = [(draws == r).astype(dtype) for r in range(1, n_refs)]
        differences = [x.astype(dtype) for x in differences]
        out = np.empty(resample.samples)
        step = _chunk_rows(max(sentences, iterations) * columns * 8, resample.samples)
        for start in range(0, resample.samples, step):
            indices = resample.indices[start:start + step]
            chunk = len(indices)
            # every iteration sums reference 0's rows of the resample, plus the differences
            # where another reference is drawn: (I, D) masks times the gathered (D, chunk*K)
            sums = np.broadcast_to((resample.counts[start:start + step] @ first)[:, None, :],
                                   (chunk, iterations, columns)).copy()
            for mask, difference in zip(masks, differences):
                gathered = difference[indices.T].reshape(sentences, chunk * columns)    # (D, chunk*K)
                sums += (mask @ gathered).reshape(iterations, chunk, columns).transpose(1, 0, 2)
            out[start:start + chunk] = self._score_sums(sums).mean(axis=1)
        return out

    def swapped_scores(self, baseline: np.ndarray, system: np.ndarray,
                       keep_baseline: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
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
        block = _chunk_rows(sentences * columns * 8, iterations)
        step = _chunk_rows(block * columns * 8 * 2, trials)
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


# --------------------------------------------------------------------------- M2 family


@dataclass
class CandidateCounts:
    """Per-sentence counts of every candidate annotator (or annotator pair) of an M2-family
    scorer, the statistics its running-F choice works on.

    ``counts[d, p]`` = (TP, FP, FN) for ERRANT, (correct, proposed, gold) for MaxMatch;
    ``available[d, p]`` says whether candidate p exists in sentence d; ``rank[d, p]`` is its
    position in the sentence's trial order (exact ties go to the lowest rank).
    """

    counts: np.ndarray
    available: np.ndarray
    rank: np.ndarray

    def __post_init__(self) -> None:
        self.counts = np.asarray(self.counts, dtype=np.int64)
        self.available = np.asarray(self.available, dtype=bool)
        self.rank = np.asarray(self.rank, dtype=np.int64)
        if self.counts.ndim != 3 or self.counts.shape[2] != 3 or self.available.shape != self.counts.shape[:2] \
                or self.rank.shape != self.counts.shape[:2]:
            raise ValueError("counts must be (D, P, 3) and available, rank (D, P)")
        if len(self.counts) and not self.available.any(axis=1).all():
            raise ValueError("every sentence needs at least one available candidate")


def round_like_python(values: np.ndarray, digits: int) -> np.ndarray:
    """``round(x, digits)`` of Python for every element: NumPy's rounding goes through a scaled
    product and may fall on the other side of an exact half; those few entries are redone."""
    values = np.asarray(values, dtype=np.float64)
    rounded = np.round(values, digits)
    scaled = values * 10.0 ** digits
    near_half = np.abs(scaled - np.floor(scaled) - 0.5) < 1e-6
    if near_half.any():
        flat = rounded.reshape(-1)
        for position in np.flatnonzero(near_half.reshape(-1)):
            flat[position] = round(float(values.reshape(-1)[position]), digits)
    return rounded


class RunningFResampler(Resampler):
    """M2-family scorers: per sentence, the candidate maximizing the running corpus F (counts
    of the sentences before it in the resampled order plus its own), then the F of the totals.

    ``rule='errant'``: ERRANT compare_m2 (F rounded to 4 decimals; ties: more TP, fewer FP,
    fewer FN, lowest rank). ``rule='maxmatch'``: the M2 scorer (F = (1+b^2) c / (b^2 g + e);
    ties: more correct, fewer proposed + b^2 gold, lowest rank).
    """

    RULES = ("errant", "maxmatch")

    def __init__(self, rule: str, beta: float = 0.5, label: str = "", signature: str = "") -> None:
        if rule not in self.RULES:
            raise ValueError(f"unknown rule {rule!r}")
        self.rule = rule
        self.beta = float(beta)
        self.label = label or ("ERRANT" if rule == "errant" else "M2")
        self.signature = signature

    def prepare(self, statistics: CandidateCounts) -> CandidateCounts:
        return statistics

    def size(self, prepared: CandidateCounts) -> int:
        return prepared.counts.shape[0]

    # ---- the scores of (TP, FP, FN) / (correct, proposed, gold) totals, vectorized
    def _choice_f(self, totals: np.ndarray) -> np.ndarray:
        a, b, c = (totals[..., k].astype(np.float64) for k in range(3))
        beta2 = self.beta ** 2 if self.rule == "errant" else self.beta * self.beta
        with np.errstate(divide="ignore", invalid="ignore"):
            if self.rule == "errant":
                return round_like_python(self._errant_f(a, b, c, beta2), 4)
            denominator = beta2 * c + b
            f = (1.0 + beta2) * a / denominator
            return np.where(denominator == 0, np.where(a == 0, 1.0, 0.0), f)

    @staticmethod
    def _errant_f(tp, fp, fn, beta2):
        precision = np.where(fp != 0, tp / np.where(tp + fp == 0, 1, tp + fp), 1.0)
        recall = np.where(fn != 0, tp / np.where(tp + fn == 0, 1, tp + fn), 1.0)
        f = ((1 + beta2) * precision * recall) / ((beta2 * precision) + recall)
        return np.where(precision + recall != 0, f, 0.0)

    def final_score(self, totals: np.ndarray) -> np.ndarray:
        """Corpus F of totals (..., 3) as the scorer reports it (unrounded)."""
        a, b, c = (totals[..., k].astype(np.float64) for k in range(3))
        beta2 = self.beta ** 2 if self.rule == "errant" else self.beta * self.beta
        with np.errstate(divide="ignore", invalid="ignore"):
            if self.rule == "errant":
                return self._errant_f(a, b, c, beta2)
            precision = np.where(b != 0, a / np.where(b == 0, 1, b), 1.0)
            recall = np.where(c != 0, a / np.where(c == 0, 1, c), 1.0)
            denominator = beta2 * precision + recall
            f = (1.0 + beta2) * precision * recall / denominator
            return np.where(denominator != 0, f, 0.0)

    def _keys(self, totals: np.ndarray, local: np.ndarray) -> list[np.ndarray]:
        """Comparison keys of every candidate, most significant first, shape (N, P) each."""
        f = self._choice_f(totals[:, None, :] + local)
        first, second, third = (local[..., k].astype(np.float64) for k in range(3))
        if self.rule == "errant":
            return [f, first, -second, -third]
        # the M2 scorer compares cumulative proposed + beta^2 * gold (same order, same floats)
        beta2 = self.beta * self.beta
        cost = (totals[:, None, 1] + second) + beta2 * (totals[:, None, 2] + third)
        return [f, first, -cost]

    def _choose(self, totals: np.ndarray, local: np.ndarray, available: np.ndarray, rank: np.ndarray) -> np.ndarray:
        """Index of the chosen candidate per row (lexicographic max of the keys, then lowest rank)."""
        best = available.copy()
        for key in self._keys(totals, local):
            values = np.where(best, key, -np.inf)
            best &= values == values.max(axis=1, keepdims=True)
        return np.where(best, rank, np.iinfo(np.int64).max).argmin(axis=1)

    def _run_positions(self, samples: int, sentences: int, at) -> np.ndarray:
        """``at(i)`` gives (counts (N, P, 3), available (N, P), rank (N, P)) of position i."""
        totals = np.zeros((samples, 3), dtype=np.int64)
        rows = np.arange(samples)
        for position in range(sentences):
            local, available, rank = at(position)
            chosen = self._choose(totals, local, available, rank)
            totals += local[rows, chosen]
        return totals

    def chosen_candidates(self, prepared: CandidateCounts) -> np.ndarray:
        """The candidate chosen for each sentence of the corpus in its own order, shape (D,)."""
        chosen = np.zeros(prepared.counts.shape[0], dtype=np.int64)
        totals = np.zeros((1, 3), dtype=np.int64)
        for d in range(prepared.counts.shape[0]):
            k = self._choose(totals, prepared.counts[d][None], prepared.available[d][None], prepared.rank[d][None])[0]
            chosen[d] = k
            totals += prepared.counts[d, k]
        return chosen

    def score(self, prepared: CandidateCounts) -> float:
        return float(self.bootstrap_scores(prepared, Resample(np.arange(self.size(prepared))[None]))[0])

    def bootstrap_scores(self, prepared: CandidateCounts, resample: Resample) -> np.ndarray:
        indices = resample.indices

        def at(position: int):
            rows = indices[:, position]
            return prepared.counts[rows], prepared.available[rows], prepared.rank[rows]

        return self.final_score(self._run_positions(resample.samples, resample.size, at))

    def swapped_scores(self, baseline: CandidateCounts, system: CandidateCounts,
                       keep_baseline: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if baseline.counts.shape != system.counts.shape:
            raise ValueError("baseline and system must have the same candidates (align them first)")

        def side(keep: np.ndarray):
            def at(position: int):
                take = keep[:, position]
                return (np.where(take[:, None, None], baseline.counts[position], system.counts[position]),
                        np.where(take[:, None], baseline.available[position], system.available[position]),
                        np.where(take[:, None], baseline.rank[position], system.rank[position]))
            return at

        trials, sentences = keep_baseline.shape
        scores_a = self.final_score(self._run_positions(trials, sentences, side(keep_baseline)))
        scores_b = self.final_score(self._run_positions(trials, sentences, side(~keep_baseline)))
        return scores_a, scores_b


def maxmatch_candidates(results: Sequence[Any]) -> list[CandidateCounts]:
    """CandidateCounts of M2Result objects: annotator slots tried in order (ties: first)."""
    out = []
    for result in results:
        rank = np.broadcast_to(np.arange(result.counts.shape[1]), result.annotator_mask.shape)
        out.append(CandidateCounts(result.counts, result.annotator_mask, rank))
    return out


def errant_candidates(results: Sequence[Any]) -> list[CandidateCounts]:
    """CandidateCounts of several ErrantResult objects over one common list of annotator pairs."""
    pairs = sorted({pair for result in results for pair in result.pairs})
    position = {pair: k for k, pair in enumerate(pairs)}
    out = []
    for result in results:
        sentences = result.pair_counts.shape[0]
        counts = np.zeros((sentences, len(pairs), 3), dtype=np.int64)
        available = np.zeros((sentences, len(pairs)), dtype=bool)
        rank = np.full((sentences, len(pairs)), len(pairs), dtype=np.int64)
        columns = [position[pair] for pair in result.pairs]
        counts[:, columns] = result.pair_counts
        available[:, columns] = result.pair_available
        for d, order in enumerate(result.candidate_order):
            for trial, k in enumerate(order):
                rank[d, columns[k]] = trial
        out.append(CandidateCounts(counts, available, rank))
    return out


# --------------------------------------------------------------------------- the tests


def _check_method(method: str, samples: int | None, confidence_samples: int) -> int:
    if method not in METHODS:
        raise InputError(f"unknown paired test {method!r}; choose 'bs' (bootstrap) or 'ar' (randomization)")
    samples = DEFAULT_SAMPLES[method] if samples is None else samples
    if not isinstance(samples, (int, np.integer)) or isinstance(samples, bool) or samples < 1:
        raise InputError(f"the number of resamples/trials must be an integer >= 1, got {samples!r}")
    if not isinstance(confidence_samples, (int, np.integer)) or confidence_samples < 1:
        raise InputError(f"the number of bootstrap resamples for the interval must be >= 1, got {confidence_samples!r}")
    return int(samples)


def paired_signature(metric_signature: str, method: str, samples: int, confidence_samples: int, seed: int,
                   strict: bool = False) -> str:
    """The metric's signature with the test's settings (the seed included) before its version."""
    parts = metric_signature.split("|")
    version = parts.pop() if parts and parts[-1].startswith("version:") else f"version:{__version__}"
    parts += [f"test:{'paired-bs' if method == 'bs' else 'paired-ar'}", f"{method}:{samples}"]
    if method == "ar":
        parts.append(f"bs:{confidence_samples}")
    parts.append(f"seed:{seed}")
    if strict:
        parts.append("ties:strict")
    return "|".join(parts + [version])


def paired_test_from_statistics(resampler: Resampler, statistics: Mapping[str, Any], method: str = "bs",
                                samples: int | None = None, seed: int = 0,
                                confidence_samples: int = DEFAULT_CONFIDENCE_SAMPLES,
                                strict: bool = False) -> PairedTestResult:
    """Paired test of every system against the first, from their statistics (name -> the
    metric's per-sentence statistics, or CandidateCounts for the M2 family)."""
    samples = _check_method(method, samples, confidence_samples)
    if len(statistics) < 1:
        raise InputError("a paired test needs at least one system (the baseline)")
    seed = int(seed)
    names = list(statistics)
    prepared = [resampler.prepare(statistics[name]) for name in names]
    sizes = {resampler.size(p) for p in prepared}
    if len(sizes) != 1:
        raise InputError("the systems do not have the same number of sentences")
    size = sizes.pop()
    if size == 0:
        raise InputError("a paired test needs at least one sentence")
    scores = [resampler.score(p) for p in prepared]

    interval_samples = samples if method == "bs" else confidence_samples
    resample = Resample(bootstrap_indices(size, interval_samples, seed))
    bootstrap = [resampler.bootstrap_scores(p, resample) for p in prepared]
    masks = randomization_masks(size, samples, seed) if method == "ar" else None

    systems = []
    for k, name in enumerate(names):
        mean, lower, upper = percentile_interval(bootstrap[k])
        p = None
        if k > 0:
            observed = abs(scores[k] - scores[0])
            if method == "bs":
                differences = np.abs(bootstrap[k] - bootstrap[0])
                p = p_value(differences - differences.mean(), observed, strict)
            else:
                scores_a, scores_b = resampler.swapped_scores(prepared[0], prepared[k], masks)
                p = p_value(np.abs(scores_a - scores_b), observed, strict)
        systems.append(SystemSignificance(name, scores[k], mean, (lower, upper), p))
    signature = paired_signature(resampler.signature, method, samples, confidence_samples, seed, strict)
    settings = {"method": method, "samples": samples, "confidence_samples": interval_samples, "seed": seed,
                "strict": strict, "baseline": names[0]}
    return PairedTestResult(method, samples, interval_samples, seed, resampler.label, systems, signature,
                            strict, settings)


# --------------------------------------------------------------------------- metrics


def resampler_for(metric, references: int, beta: float | None = None) -> Resampler:
    """The resampler of a GLEU or GREEN metric (``beta`` picks one of GREEN's betas; default the
    first), an M2Scorer or an ErrantCompare."""
    from .metrics.gleu import GLEU
    from .metrics.green import GREEN
    from .m2.errant import ErrantCompare
    from .m2.maxmatch import M2Scorer

    if isinstance(metric, GREEN):
        beta = metric.betas[0] if beta is None else float(beta)
        return LinearResampler(lambda stats: select(stats, metric.best_references(stats, beta)),
                               lambda sums: metric.score_sums(sums, beta), f"GREEN beta={beta:g}",
                               metric.signature(references, [beta]))
    if isinstance(metric, GLEU):
        label = "GLEU" if metric.variant == "gleu0" else "GLEU+"
        if metric.variant == "gleu0":
            rows = lambda stats: metric.lambda_rows(stats)[:, 0]  # noqa: E731 (lambda-dependent numerators)
        elif metric.best_reference:
            rows = lambda stats: select(stats, metric.best_references(stats))  # noqa: E731
        elif references == 1:
            rows = lambda stats: stats[:, 0]  # noqa: E731 (nothing to sample)
        else:
            return SampledGLEUResampler(metric, references)
        return LinearResampler(rows, metric.score_sums, label, metric.signature(references))
    if isinstance(metric, ErrantCompare):
        return RunningFResampler("errant", metric.beta, "ERRANT", metric.signature)
    if isinstance(metric, M2Scorer):
        return RunningFResampler("maxmatch", metric.beta, "M2", metric.signature)
    raise InputError(f"no paired test for {type(metric).__name__}")


def resamplers_for(metrics: Sequence[Any], references: int) -> list[Resampler]:
    """One resampler per score column: per GREEN beta, per metric otherwise (e.g. GLEU lambdas)."""
    out = []
    for metric in metrics:
        for beta in getattr(metric, "betas", [None]):
            out.append(resampler_for(metric, references, beta))
    return out


def paired_statistics(metrics: Sequence[Any], sources: Sequence[str], references: Sequence[Sequence[str]],
                      hypotheses: Sequence[Sequence[str]], names: Sequence[str],
                      m2_blocks: Sequence[Any] | None = None) -> list[tuple[Resampler, list[Any]]]:
    """(resampler, per-file statistics) for every score column of several metrics (``gecmetric
    compare``): n-gram metrics with the same units share one encoding; M2 scores the gold blocks."""
    from .m2.maxmatch import M2Scorer
    from .ngrams import EncodedCorpus

    orders: dict[Any, int] = {}
    for metric in metrics:
        if not isinstance(metric, M2Scorer):
            orders[metric.encoding] = max(orders.get(metric.encoding, 1), metric.n)
    encoded = {key: EncodedCorpus(sources, references, order, *key) for key, order in orders.items()}
    tests: list[tuple[Resampler, list[Any]]] = []
    for metric in metrics:
        if isinstance(metric, M2Scorer):
            results = [metric.score(m2_blocks, lines, name) for name, lines in zip(names, hypotheses)]
            tests.append((resampler_for(metric, 1), maxmatch_candidates(results)))
            continue
        statistics = [metric.statistics(encoded[metric.encoding], lines) for lines in hypotheses]
        tests += [(r, statistics) for r in resamplers_for([metric], len(references))]
    return tests


def _named_systems(systems) -> dict[str, Any]:
    if isinstance(systems, Mapping):
        return dict(systems)
    return {f"system {k}": lines for k, lines in enumerate(systems)}


def paired_test(metric, sources: Sequence[str] | None, references: Sequence[Any], systems, method: str = "bs",
                samples: int | None = None, seed: int = 0, confidence_samples: int = DEFAULT_CONFIDENCE_SAMPLES,
                beta: float | None = None, strict: bool = False) -> PairedTestResult:
    """Paired bootstrap (``method='bs'``) or approximate randomization (``'ar'``) of every
    system against the first one.

    >>> paired_test(GREEN(), sources, [ref0, ref1], {"INPUT": src, "AMU": amu}).systems[1].p_value

    ``systems``: name -> hypothesis lines (a dict, first = baseline) or a list of them. For
    GLEU and GREEN ``references`` is a list of reference sets; for an M2Scorer, the gold M2
    blocks (systems: hypothesis lines); for an ErrantCompare, the reference M2 blocks, each system
    given as its hypothesis M2 blocks (``sources`` unused for both).
    """
    from .m2.errant import ErrantCompare
    from .m2.maxmatch import M2Scorer

    named = _named_systems(systems)
    if not named:
        raise InputError("a paired test needs at least one system (the baseline)")
    if isinstance(metric, ErrantCompare):
        results = [metric.compare(blocks, references, name) for name, blocks in named.items()]
        statistics = dict(zip(named, errant_candidates(results)))
        resampler = resampler_for(metric, 1)
    elif isinstance(metric, M2Scorer):
        results = [metric.score(references, lines, name) for name, lines in named.items()]
        statistics = dict(zip(named, maxmatch_candidates(results)))
        resampler = resampler_for(metric, 1)
    else:
        encoded = metric.encode(sources, references)
        statistics = {name: metric.statistics(encoded, lines) for name, lines in named.items()}
        resampler = resampler_for(metric, len(references), beta)
    return paired_test_from_statistics(resampler, statistics, method, samples, seed, confidence_samples, strict)
