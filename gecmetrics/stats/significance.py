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

Where a metric's choice depends on the corpus, its resampler (:mod:`gecmetrics.core.resampling`,
or the family's own) redoes it inside every resample; nothing here names a metric: the tests ask
a metric only for its resampler (``metric.resampler(column, references)``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Iterator, Mapping, NamedTuple, Sequence

import numpy as np

from ..core.resampling import Resample, Resampler, prepared_for, resamples_needed
from ..core.checks import check_count, check_flag, check_seed
from ..core.table import CORRECTION_TITLES, scaled_number
from ..errors import InputError, large_count, plural
from ..io.text import check_named
from ..metrics.results import Signature

from . import DEFAULT_SAMPLES, METHODS  # noqa: E402,F401 (the tests' names, re-exported)

DEFAULT_CONFIDENCE_SAMPLES = 1000
MAX_PAIRED_SAMPLES = 1_000_000
"""Upper bound of the resamples (--paired-bs N) or trials (--paired-ar N), and of the bootstrap
resamples behind the intervals: 100 times sacrebleu's 10,000 trials (2147483648 asked for 800
GiB)."""
MAX_RESAMPLED_SENTENCES = 2**27
"""Upper bound of resamples x sentences of a bootstrap (CoNLL-2014, 1,312 sentences: 102,000
resamples): the work it asks; its memory is bounded apart, the draws being made a chunk at a time
(:data:`BOOTSTRAP_CHUNK_BYTES`)."""
SIGNIFICANCE_LEVEL = 0.05


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
                "systems": [{"system": s.name, "score": scaled_number(s.score, scale),
                             "mean": scaled_number(s.mean, scale),
                             "interval": scaled_number(list(s.interval), scale), "p_value": s.p_value,
                             "significant": s.significant} for s in self.systems],
                "signature": str(self.signature)}


# --------------------------------------------------------------------------- random draws


def bootstrap_indices(sentences: int, samples: int, seed: int) -> np.ndarray:
    """sacrebleu's resample indices: ``default_rng(seed).choice(D, size=(N, D), replace=True)``."""
    rng = np.random.default_rng(seed)
    return rng.choice(sentences, size=(samples, sentences), replace=True)


BOOTSTRAP_CHUNK_BYTES = 64 * 2**20
"""Bound of one chunk of bootstrap resamples: its indices and its per-sentence counts (16 bytes
per resample and sentence). CoNLL-2014 (1,312 sentences) takes up to 3,196 resamples at once."""


def bootstrap_chunks(sentences: int, samples: int, seed: int,
                     chunk_bytes: int | None = None) -> Iterator[tuple[int, Resample]]:
    """(first resample, Resample) of consecutive chunks of :func:`bootstrap_indices`'s rows: the
    same draws (NumPy's generator continues its stream from one call to the next, a half-used
    64-bit word included), a chunk at a time, so that memory stays bounded on large corpora."""
    rng = np.random.default_rng(seed)
    budget = BOOTSTRAP_CHUNK_BYTES if chunk_bytes is None else chunk_bytes
    step = max(1, min(samples, budget // max(16 * sentences, 1)))
    for start in range(0, samples, step):
        yield start, Resample(rng.choice(sentences, size=(min(step, samples - start), sentences), replace=True))


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


# --------------------------------------------------------------------------- the tests


MIN_INTERVAL_SAMPLES = resamples_needed(0.95)  # 40
"""Fewer bootstrap resamples than this leave a 95% percentile interval no resample beyond its
ends: its ends are (near) the lowest and highest resample (a warning says so)."""


def check_samples(method: str, samples: int | None, confidence_samples: int | None = None) -> int:
    """The number of resamples (``bs``) or trials (``ar``) of a paired test, checked against
    :data:`MAX_PAIRED_SAMPLES` before anything is drawn (None: the method's default), and
    ``confidence_samples``: the bootstrap behind ``ar``'s intervals (None: 1000). A paired
    bootstrap draws its intervals from its own resamples, so it refuses one (it was ignored)."""
    if method not in METHODS:
        raise InputError(f"unknown paired test {method!r}; choose 'bs' (bootstrap) or 'ar' (randomization)")
    samples = DEFAULT_SAMPLES[method] if samples is None else samples
    bound = "gecmetrics.stats.significance.MAX_PAIRED_SAMPLES"
    what = "the number of resamples (--paired-bs N)" if method == "bs" else "the number of trials (--paired-ar N)"
    samples = check_count(samples, what, 1, MAX_PAIRED_SAMPLES, bound)
    if confidence_samples is not None:
        if method == "bs":
            raise InputError("confidence_samples is the bootstrap behind a randomization test's intervals "
                             "(method='ar'): a paired bootstrap draws its intervals from its own resamples "
                             "(samples)", "confidence_samples")
        check_count(confidence_samples, "the number of bootstrap resamples for the interval", 1, MAX_PAIRED_SAMPLES,
                    bound)
    return samples


def interval_samples_of(method: str, samples: int, confidence_samples: int | None) -> int:
    """The bootstrap resamples behind a paired test's intervals: a paired bootstrap's own
    resamples, or ``confidence_samples`` of a randomization test (None: 1000)."""
    if method == "bs":
        return samples
    return DEFAULT_CONFIDENCE_SAMPLES if confidence_samples is None else confidence_samples


def warn_if_few_resamples(interval_samples: int) -> None:
    """Said once the intervals are drawn (not while arguments are checked: a refused command
    stays one line): an interval from fewer than :data:`MIN_INTERVAL_SAMPLES` resamples.
    (``--samples 1`` drew "67.15 [67.63, 67.63]" without a word.)"""
    if interval_samples < MIN_INTERVAL_SAMPLES:
        import warnings

        warnings.warn(f"the 95% intervals come from only {plural(interval_samples, 'bootstrap resample')} (at least "
                      f"{MIN_INTERVAL_SAMPLES} for a 95% percentile interval; the default is {DEFAULT_SAMPLES['bs']}): "
                      "they need not hold the score")  # (one place: shown once per run)


def warn_if_no_pair_can_differ(pairs: int, samples: int, correction: str, level: float) -> None:
    """Said when no pair can come out significant whatever the data: no raw p-value is below
    1 / (N + 1), so no Holm-adjusted one is below m / (N + 1) for m pairs (Benjamini-Hochberg's
    smallest is 1 / (N + 1) itself)."""
    factor = pairs if correction == "holm" else 1
    if pairs and factor / (samples + 1) >= level:
        import warnings

        # the least N with factor / (N + 1) < level: exact arithmetic (a float overflows or cannot step for tiny
        # levels), then at most two steps for the float division the test makes at the boundary
        needed = max(samples + 1, math.floor(Fraction(factor) / Fraction(level)))
        for _ in range(2):
            needed += factor / (needed + 1) >= level
        adjusted = "raw" if correction == "none" else f"{CORRECTION_TITLES[correction]}-adjusted"
        trials = "trial" if samples == 1 else "trials"
        warnings.warn(f"no pair can differ significantly: with {plural(samples, 'resample')} (or {trials}) no "
                      f"p-value is below 1/{samples + 1}, so no {adjusted} p-value of {'the ' if pairs > 1 else ''}"
                      f"{plural(pairs, 'pair')} is below {level:g} (at least {large_count(needed)} resamples)")


MIN_TEST_SENTENCES = 2
"""The fewest sentences a paired test is run on: on one sentence every bootstrap resample is that
sentence (and every randomization trial swaps that one sentence or not), so the test has no
power, and a small p-value (sacrebleu's bootstrap gives 1 / (N + 1)) would be an artefact."""


def untestable(sentences: int, test: str = "a paired test") -> str | None:
    """Why a paired test of ``sentences`` sentences cannot mean anything (``test`` "needs at
    least ..."), or None when it can: the one rule of :func:`check_sentences` and of the report,
    which then shows no test."""
    if sentences >= MIN_TEST_SENTENCES:
        return None
    why = (": every bootstrap resample is that sentence and every randomization trial swaps it or not, so no "
           "p-value could mean anything") if sentences == 1 else ""
    return f"{test} needs at least {MIN_TEST_SENTENCES} sentences, the corpus has {sentences}{why}"


def check_sentences(sentences: int, method: str) -> None:
    """A paired test (``method`` 'bs' or 'ar', named by its flag) of at least
    :data:`MIN_TEST_SENTENCES` sentences, or one InputError (checked before anything is drawn)."""
    reason = untestable(sentences, f"a paired test ({'--paired-bs' if method == 'bs' else '--paired-ar'})")
    if reason is not None:
        raise InputError(reason)


def check_draws(samples: int, sentences: int) -> None:
    """Resamples x sentences within :data:`MAX_RESAMPLED_SENTENCES` (checked before drawing)."""
    if samples * sentences > MAX_RESAMPLED_SENTENCES:
        raise InputError(f"{samples:,} resamples (or randomization trials) of {sentences:,} sentences are "
                         f"{samples * sentences:,} draws, more than {MAX_RESAMPLED_SENTENCES:,} (gecmetrics.stats."
                         f"significance.MAX_RESAMPLED_SENTENCES): at most {MAX_RESAMPLED_SENTENCES // sentences:,} "
                         "for this corpus")




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
                                confidence_samples: int | None = None,
                                strict: bool = False) -> PairedTestResult:
    """Paired test of every system against the first, from their statistics (name -> the
    metric's per-sentence statistics)."""
    samples = check_samples(method, samples, confidence_samples)
    if not isinstance(resampler, Resampler):
        raise InputError(f"resampler must be a metric's Resampler (metric.resampler()), got {type(resampler).__name__}")
    check_named(statistics, "statistics", "its per-sentence statistics (metric.corpus_statistics), baseline first")
    if len(statistics) < 1:
        raise InputError("a paired test needs at least one system (the baseline)")
    seed = check_seed(seed, "the seed of the paired test (--seed)")
    check_flag(strict, "strict")
    draws = drawn(resampler, statistics, method, samples, seed, confidence_samples)
    for name, score in zip(statistics, draws.scores):
        if not np.isfinite(score):
            raise InputError(f"the statistics of {name!r} give a score of {score}: give the metric's own statistics "
                             "(finite counts)", "statistics")
    return paired_test_from_draws(resampler, list(statistics), draws, method, samples, seed, strict)


def paired_test_from_draws(resampler: Resampler, names: Sequence[str], draws: "Drawn", method: str, samples: int,
                           seed: int, strict: bool = False) -> PairedTestResult:
    """:func:`paired_test_from_statistics` from the systems' draws (:func:`drawn`, or one column
    of :func:`drawn_columns`), its settings checked."""
    prepared, scores, bootstrap, masks, interval_samples = draws
    return _paired_result(resampler, list(names), prepared, scores, bootstrap, method, samples, interval_samples,
                          seed, strict, masks)


class Drawn(NamedTuple):
    """What every paired test of one column's systems draws (:func:`drawn`)."""

    prepared: list
    scores: list[float]
    bootstrap: list[np.ndarray]
    masks: np.ndarray | None
    interval_samples: int


def drawn(resampler: Resampler, statistics: Mapping[str, Any], method: str, samples: int, seed: int,
          confidence_samples: int | None = None) -> Drawn:
    """What every paired test of these systems draws (checked: same number of sentences, at
    least one, within :data:`MAX_RESAMPLED_SENTENCES`): per system its prepared statistics,
    score and bootstrap scores (drawn a chunk of resamples at a time, the same draws as one
    draw of them all), the swap masks (``ar``) and the interval's resamples."""
    return drawn_columns([(resampler, statistics)], method, samples, seed, confidence_samples)[0]


def drawn_columns(columns: Sequence[tuple[Resampler, Mapping[str, Any]]], method: str, samples: int, seed: int,
                  confidence_samples: int | None = None) -> list[Drawn]:
    """:func:`drawn` of several score columns of the same sentences (``columns``: (resampler,
    name -> statistics) pairs): each chunk of resamples is drawn once and scored by every
    column (the draws, and a resample's per-sentence counts, depend only on the number of
    sentences and the seed), so each column gets what :func:`drawn` alone gives it."""
    columns = [(resampler, *_prepared(resampler, statistics)) for resampler, statistics in columns]
    sizes = {size for _, _, size in columns}
    if len(sizes) > 1:
        raise InputError("the score columns do not have the same number of sentences")
    interval_samples = interval_samples_of(method, samples, confidence_samples)
    if not columns:
        return []
    size = sizes.pop()
    check_sentences(size, method)
    check_draws(max(samples, interval_samples), size)
    masks = randomization_masks(size, samples, seed) if method == "ar" else None  # the same for every column
    out = [Drawn(prepared, [resampler.score(p) for p in prepared], [np.empty(interval_samples) for _ in prepared],
                 masks, interval_samples) for resampler, prepared, _ in columns]
    for start, resample in bootstrap_chunks(size, interval_samples, seed):
        for (resampler, prepared, _), column in zip(columns, out):
            for k, p in enumerate(prepared):
                column.bootstrap[k][start:start + resample.samples] = resampler.bootstrap_scores(p, resample)
    return out


def _prepared(resampler: Resampler, statistics: Mapping[str, Any]) -> tuple[list[Any], int]:
    """Every system's prepared statistics and the number of sentences (checked: a text, a
    non-number array or statistics the resampler cannot read are one InputError naming the
    system, not a NumPy error or a number made of them)."""
    prepared = []
    for name, value in statistics.items():
        if isinstance(value, (str, bytes)) or isinstance(value, np.ndarray) and value.dtype.kind not in "iuf":
            raise InputError(f"the statistics of {name!r} are not a metric's per-sentence counts "
                             f"({type(value).__name__}{'' if not isinstance(value, np.ndarray) else ' of ' + str(value.dtype)})",
                             "statistics")
        if isinstance(value, np.ndarray) and value.dtype.kind == "f" and not np.isfinite(value).all():
            raise InputError(f"the statistics of {name!r} hold values that are not finite numbers (nan or inf): a "
                             "metric's per-sentence counts are finite", "statistics")
        try:
            prepared.append(prepared_for(resampler, name, value))
        except InputError:
            raise
        except (ValueError, TypeError, IndexError, AttributeError) as err:
            raise InputError(f"the statistics of {name!r} do not fit the resampler ({err}): give the statistics of "
                             "the metric the resampler comes from, with its number of references", "statistics") from None
    sizes = {resampler.size(p) for p in prepared}
    if len(sizes) != 1:
        raise InputError("the systems do not have the same number of sentences")
    return prepared, sizes.pop()


def _paired_result(resampler: Resampler, names: list[str], prepared: list[Any], scores: list[float],
                   bootstrap: list[np.ndarray], method: str, samples: int, interval_samples: int, seed: int,
                   strict: bool, masks: np.ndarray | None) -> PairedTestResult:
    """One column's test from its systems' scores and bootstrap scores (and randomized swaps)."""
    warn_if_few_resamples(interval_samples)
    # (--paired-ar 1 printed p = 0.5 for every system, which no data could bring below 0.05, without a word)
    warn_if_no_pair_can_differ(len(names) - 1, samples, "none", SIGNIFICANCE_LEVEL)
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
    signature = paired_signature(resampler.signature, method, samples, interval_samples, seed, strict)
    settings = {"method": method, "samples": samples, "confidence_samples": interval_samples, "seed": seed,
                "strict": strict, "baseline": names[0]}
    return PairedTestResult(method, samples, interval_samples, seed, resampler.label, systems, signature,
                            strict, settings)


# --------------------------------------------------------------------------- metrics


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
