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
from typing import TYPE_CHECKING, Any, Mapping, Sequence

import numpy as np

from ..core.aggregate import sum_selected
from ..errors import InputError
from ..metrics.protocol import Signature

if TYPE_CHECKING:
    from ..core.fscore import CandidateCounts

_FROM_M2_RULES = ("CandidateCounts", "round_like_python")
"""Names of :mod:`gecmetrics.core.fscore` also readable here (imported only when used: n-gram
commands never load the M2 branch)."""


def __getattr__(name: str) -> Any:
    if name in _FROM_M2_RULES:
        from ..core import fscore

        return getattr(fscore, name)
    raise AttributeError(f"module 'gecmetrics.stats.significance' has no attribute {name!r}")


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

    def to_dict(self, scale: float = 1.0) -> dict[str, Any]:
        """JSON-ready values; scores, means and intervals multiplied by ``scale``."""
        return {"metric": self.metric, "method": self.method, "samples": self.samples,
                "confidence_samples": self.confidence_samples, "seed": self.seed, "baseline": self.baseline.name,
                "systems": [{"hypothesis": s.name, "score": scale * s.score, "mean": scale * s.mean,
                             "interval": [scale * s.interval[0], scale * s.interval[1]], "p_value": s.p_value,
                             "significant": s.significant} for s in self.systems],
                "signature": str(self.signature)}


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
    so a resample's score is exactly ``metric.score(stats[indices]).score``.

    Only the columns the score reads (lengths, numerators, denominators) are summed, and the
    matrix products run in float32 when every partial sum is an integer below 2**24 (exact)."""

    def __init__(self, metric, references: int) -> None:
        self.metric = metric
        self.label = "GLEU+"
        self.signature = metric.signature(references)
        self._columns = metric.layout.scored
        self._width = metric.layout.width

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


class RunningFResampler(Resampler):
    """M2-family scorers: per sentence, the candidate maximizing the running corpus F (counts
    of the sentences before it in the resampled order plus its own), then the F of the totals
    (:mod:`gecmetrics.core.fscore`: ``rule`` 'errant' or 'maxmatch' with its own tie-breaks)."""

    def __init__(self, rule: str, beta: float = 0.5, label: str = "", signature: str = "") -> None:
        from ..core.fscore import RunningChoice

        self.choice = RunningChoice(rule, beta)
        self.rule = self.choice.rule.name
        self.beta = self.choice.beta
        self.label = label or ("ERRANT" if self.rule == "errant" else "M2")
        self.signature = signature

    def prepare(self, statistics: Any) -> "CandidateCounts":
        from ..core.fscore import candidate_counts

        return candidate_counts(statistics)

    def size(self, prepared: "CandidateCounts") -> int:
        return len(prepared)

    def final_score(self, totals: np.ndarray) -> np.ndarray:
        """Corpus F of totals (..., 3) as the scorer reports it (unrounded)."""
        return self.choice.final_score(totals)

    def chosen_candidates(self, prepared: "CandidateCounts") -> np.ndarray:
        """The candidate chosen for each sentence of the corpus in its own order, shape (D,)."""
        return self.choice.corpus(prepared)[0]

    def score(self, prepared: "CandidateCounts") -> float:
        return float(self.final_score(self.choice.corpus(prepared)[1]))

    def bootstrap_scores(self, prepared: "CandidateCounts", resample: Resample) -> np.ndarray:
        indices = resample.indices

        def at(position: int):
            rows = indices[:, position]
            return prepared.counts[rows], prepared.available[rows], prepared.rank[rows]

        return self.final_score(self.choice.run(resample.samples, resample.size, at))

    def swapped_scores(self, baseline: "CandidateCounts", system: "CandidateCounts",
                       keep_baseline: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        width = max(baseline.counts.shape[1], system.counts.shape[1])
        baseline, system = _widened(baseline, width), _widened(system, width)

        def side(keep: np.ndarray):
            def at(position: int):
                take = keep[:, position]
                return (np.where(take[:, None, None], baseline.counts[position], system.counts[position]),
                        np.where(take[:, None], baseline.available[position], system.available[position]),
                        np.where(take[:, None], baseline.rank[position], system.rank[position]))
            return at

        trials, sentences = keep_baseline.shape
        scores_a = self.final_score(self.choice.run(trials, sentences, side(keep_baseline)))
        scores_b = self.final_score(self.choice.run(trials, sentences, side(~keep_baseline)))
        return scores_a, scores_b


def _widened(data: "CandidateCounts", width: int) -> "CandidateCounts":
    """The same candidates with absent ones appended up to ``width`` columns."""
    from ..core.fscore import CandidateCounts

    extra = width - data.counts.shape[1]
    if extra <= 0:
        return data
    d = len(data)
    return CandidateCounts(np.concatenate([data.counts, np.zeros((d, extra, 3), np.int64)], axis=1),
                           np.concatenate([data.available, np.zeros((d, extra), bool)], axis=1),
                           np.concatenate([data.rank, np.full((d, extra), np.iinfo(np.int64).max // 2)], axis=1))


def errant_candidates(results: Sequence[Any]) -> list["CandidateCounts"]:
    """CandidateCounts of several ErrantResult objects over one common list of annotator pairs
    (columns in sorted pair order, ranks in each sentence's trial order)."""
    from ..core.fscore import CandidateCounts

    pairs = sorted({pair for result in results for pair in result.pairs})
    position = {pair: k for k, pair in enumerate(pairs)}
    out = []
    for result in results:
        sentences = len(result.counts)
        counts = np.zeros((sentences, len(pairs), 3), dtype=np.int64)
        available = np.zeros((sentences, len(pairs)), dtype=bool)
        rank = np.full((sentences, len(pairs)), len(pairs), dtype=np.int64)
        columns = np.array([position[pair] for pair in result.pairs], dtype=np.int64)
        counts[:, columns] = result.pair_counts
        available[:, columns] = result.pair_available
        for d, order in enumerate(result.candidate_order):
            rank[d, columns[order]] = np.arange(len(order))
        out.append(CandidateCounts(counts, available, rank))
    return out


# --------------------------------------------------------------------------- the tests


def _check_method(method: str, samples: int | None, confidence_samples: int) -> int:
    if method not in METHODS:
        raise InputError(f"unknown paired test {method!r}; choose 'bs' (bootstrap) or 'ar' (randomization)")
    samples = DEFAULT_SAMPLES[method] if samples is None else samples
    if not isinstance(samples, (int, np.integer)) or isinstance(samples, bool) or samples < 1:
        raise InputError(f"the number of resamples/trials must be an integer >= 1, got {samples!r}")
    if not isinstance(confidence_samples, (int, np.integer)) or isinstance(confidence_samples, bool) \
            or confidence_samples < 1:
        raise InputError(f"the number of bootstrap resamples for the interval must be >= 1, got {confidence_samples!r}")
    return int(samples)


def paired_signature(metric_signature: str, method: str, samples: int, confidence_samples: int, seed: int,
                     strict: bool = False) -> Signature:
    """The metric's signature with the test's settings (the seed included) before its version."""
    signature = metric_signature if isinstance(metric_signature, Signature) else _parsed(metric_signature)
    fields: list = [("test", "paired-bs" if method == "bs" else "paired-ar"), (method, str(samples))]
    if method == "ar":
        fields.append(("bs", str(confidence_samples)))
    fields.append(("seed", str(seed)))
    if strict:
        fields.append(("ties", "strict"))
    return signature.with_fields(*fields)


def _parsed(text: str) -> Signature:
    """A signature given as plain text (from outside the library)."""
    name, *parts = str(text).split("|") if text else ["metric"]
    version = parts.pop()[len("version:"):] if parts and parts[-1].startswith("version:") else None
    fields = [tuple(part.split(":", 1)) if ":" in part else part for part in parts]
    return Signature(name, fields, *([version] if version else []))


def paired_test_from_statistics(resampler: Resampler, statistics: Mapping[str, Any], method: str = "bs",
                                samples: int | None = None, seed: int = 0,
                                confidence_samples: int = DEFAULT_CONFIDENCE_SAMPLES,
                                strict: bool = False) -> PairedTestResult:
    """Paired test of every system against the first, from their statistics (name -> the
    metric's per-sentence statistics)."""
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


def column_of_beta(metric: Any, beta: float | None) -> int:
    """The score column of ``beta``: its position among the metric's betas (GREEN has one
    column per beta); column 0 when no beta is asked for."""
    if beta is None:
        return 0
    betas = metric.settings.to_dict().get("beta")
    betas = [float(b) for b in betas] if isinstance(betas, list) else [betas]
    if float(beta) not in betas:
        raise InputError(f"beta {float(beta):g} is not a beta of this metric (it has {', '.join(f'{b:g}' for b in betas)})")
    return betas.index(float(beta))


def resampler_for(metric: Any, references: int, beta: float | None = None) -> Resampler:
    """The resampler of a metric's column (``beta`` picks the column of that beta, for metrics
    with several; default the first)."""
    return metric.resampler(column_of_beta(metric, beta), references)


def resamplers_for(metrics: Sequence[Any], references: int) -> list[Resampler]:
    """One resampler per score column of each metric (e.g. per GREEN beta)."""
    return [metric.resampler(part, references) for metric in metrics for part in range(len(metric.column_labels()))]


def column_tests(scored: Any) -> list[tuple[Resampler, list[Any]]]:
    """(resampler, per-hypothesis statistics) for every score column of a
    :class:`~gecmetrics.run.engine.Scored` run."""
    tests = []
    for k, metric in enumerate(scored.metrics):
        statistics = [scored.statistics[name][k] for name in scored.names]
        tests += [(metric.resampler(part, scored.references), statistics)
                  for part in range(len(metric.column_labels()))]
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

    ``systems``: name -> hypothesis (a dict, first = baseline) or a list of them.
    ``references``: reference sets for metrics with text references; the gold M2 blocks for
    the M2 family (``sources`` may then be None). ``beta`` picks the column of that beta.
    """
    from ..run.engine import corpus_for, score_corpus

    named = _named_systems(systems)
    if not named:
        raise InputError("a paired test needs at least one system (the baseline)")
    corpus = corpus_for([metric], sources, references, named)
    scored = score_corpus([metric], corpus)
    resampler = metric.resampler(column_of_beta(metric, beta), scored.references)
    return paired_test_from_statistics(resampler, scored.of_metric(0), method, samples, seed, confidence_samples,
                                       strict)
