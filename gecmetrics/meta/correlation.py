"""System-level correlations with uncertainty: Pearson, Spearman, Kendall, bootstrap intervals
and paired tests of whether one metric agrees with humans better than another.

* Pearson and Spearman are :func:`gecmetrics.meta.human.pearson` / ``spearman`` (NumPy only).
* Kendall is tau-b, ``(C - D) / sqrt((n0 - ties_x)(n0 - ties_y))`` — the default of
  ``scipy.stats.kendalltau``, which is what a Python original gets when it asks for Kendall.
* Bootstrap intervals resample either the human judgments (the comparisons, as GJG15's EW
  bootstrap does, or whole ranking items; TrueSkill's own runs) with the metric scores fixed,
  or the test sentences: each resample rescored by the metric (its paired-test resampler) and
  the human judgments of each sentence weighted by how often the resample drew it.
* A/B: a paired bootstrap (both metrics on the same resamples) and Williams' test for two
  dependent correlations sharing the human variable (Williams 1959; Graham & Baldwin 2014).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from ..core.checks import check_count, check_seed
from ..errors import InputError
from .human import MIN_SYSTEMS, pearson, spearman
from ..stats.significance import bootstrap_indices, check_draws
from ..core.resampling import Resample
from ..io.judgments import Judgments
from ..stats.rankings import (DEFAULT_CONFIDENCE, DEFAULT_RESAMPLES, MAX_RESAMPLES, HumanRanking,
                              expected_wins_of_counts)
from .sentence import check_item_rows

CORRELATIONS = ("pearson", "spearman", "kendall")
RESAMPLING_UNITS = ("pair", "item")

SentenceResampler = Callable[[Resample], np.ndarray]
"""Scores of one system on resampled corpora: a :class:`~gecmetrics.core.resampling.Resample`
(B resamples of D sentence indices) -> corpus scores (B,). A metric's paired-test resampler is
one as it is: ``functools.partial(resampler.bootstrap_scores, resampler.prepare(statistics))``
(see :mod:`gecmetrics.meta.evaluate`); :func:`additive_resampler` makes one from rows and a
reducer."""


# --------------------------------------------------------------------------- point correlations


def kendall(x: Sequence[float], y: Sequence[float]) -> float:
    """Kendall's tau-b of two paired score vectors (ties in either reduce the denominator)."""
    pearson(x, y)  # the same checks: finite, same length >= 3, not constant
    return float(_kendall_rows(np.asarray(x, float)[None, :], np.asarray(y, float)[None, :])[0])


def _signs(rows: np.ndarray) -> np.ndarray:
    """sign(x_i - x_j) for i < j, shape (B, pairs)."""
    first, second = np.triu_indices(rows.shape[-1], 1)
    return np.sign(rows[:, first] - rows[:, second])


def _kendall_rows(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    sx, sy = _signs(x), _signs(y)
    concordance = (sx * sy).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return concordance / np.sqrt(np.abs(sx).sum(axis=1) * np.abs(sy).sum(axis=1))


def _pearson_rows(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Pearson r of each row pair (B, n); nan where a row is constant."""
    xd = x - x.mean(axis=1, keepdims=True)
    yd = y - y.mean(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        r = (xd * yd).sum(axis=1) / np.sqrt((xd * xd).sum(axis=1) * (yd * yd).sum(axis=1))
    return np.clip(r, -1.0, 1.0)


def _average_rank_rows(x: np.ndarray) -> np.ndarray:
    """Average ranks (ties share their mean rank) of each row (B, n)."""
    less = (x[:, None, :] < x[:, :, None]).sum(axis=2)
    equal = (x[:, None, :] == x[:, :, None]).sum(axis=2)
    return less + (equal + 1) / 2.0


def correlation_rows(name: str, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """One correlation of every row pair (B, n) -> (B,), nan where undefined."""
    x = np.broadcast_to(np.asarray(x, float), np.broadcast_shapes(np.shape(x), np.shape(y)))
    y = np.broadcast_to(np.asarray(y, float), x.shape)
    if name == "pearson":
        return _pearson_rows(x, y)
    if name == "spearman":
        return _pearson_rows(_average_rank_rows(x), _average_rank_rows(y))
    if name == "kendall":
        return _kendall_rows(x, y)
    raise InputError(f"unknown correlation {name!r}; choose one of: {', '.join(CORRELATIONS)}")


def correlation(name: str, x: Sequence[float], y: Sequence[float]) -> float:
    """Pearson, Spearman or Kendall (tau-b) of two paired vectors, with the input checks of
    :func:`gecmetrics.meta.human.pearson`."""
    if name == "pearson":
        return pearson(x, y)
    if name == "spearman":
        return spearman(x, y)
    if name == "kendall":
        return kendall(x, y)
    raise InputError(f"unknown correlation {name!r}; choose one of: {', '.join(CORRELATIONS)}")


# --------------------------------------------------------------------------- Williams' test


def _continued_fraction(a: float, b: float, x: float) -> float:
    """Lentz's continued fraction of the incomplete beta function (converges for x < (a+1)/(a+b+2))."""
    tiny, c, d = 1e-300, 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    result = d
    for m in range(1, 500):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            result *= c * d
        if abs(c * d - 1.0) < 1e-15:
            break
    return result


def regularized_beta(a: float, b: float, x: float) -> float:
    """I_x(a, b), the regularized incomplete beta function."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _continued_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _continued_fraction(b, a, 1.0 - x) / b


def student_t_sf(t: float, df: float) -> float:
    """P(T > t) for Student's t with ``df`` degrees of freedom."""
    tail = 0.5 * regularized_beta(df / 2.0, 0.5, df / (df + t * t))
    return tail if t >= 0 else 1.0 - tail


@dataclass(frozen=True)
class WilliamsTest:
    """Williams' t for r(human, A) > r(human, B) given r(A, B), df = n - 3; one-sided p."""

    r_human_a: float
    r_human_b: float
    r_a_b: float
    n: int
    t: float
    p_value: float

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def williams_test(r_human_a: float, r_human_b: float, r_a_b: float, n: int) -> WilliamsTest:
    """Williams' test of whether metric A correlates with the human scores better than metric
    B, both correlated over the same n systems (the test WMT metrics tasks use)."""
    if n <= 3:
        raise InputError(f"Williams' test needs more than 3 systems, got {n}")
    for value in (r_human_a, r_human_b, r_a_b):
        if not -1.0 <= value <= 1.0:
            raise InputError(f"a correlation must be within [-1, 1], got {value!r}")
    determinant = 1 - r_human_a ** 2 - r_human_b ** 2 - r_a_b ** 2 + 2 * r_human_a * r_human_b * r_a_b
    denominator = (2 * (n - 1) / (n - 3) * determinant
                   + ((r_human_a + r_human_b) / 2) ** 2 * (1 - r_a_b) ** 3)
    if denominator <= 0:
        raise InputError("Williams' test is undefined here (the three scores are exactly collinear)")
    t = (r_human_a - r_human_b) * math.sqrt((n - 1) * (1 + r_a_b)) / math.sqrt(denominator)
    return WilliamsTest(r_human_a, r_human_b, r_a_b, n, t, student_t_sf(t, n - 3))


# --------------------------------------------------------------------------- results


@dataclass
class SystemCorrelation:
    """One metric against the human Expected Wins over ``systems``: the three correlations,
    and (when resampled) their percentile intervals."""

    metric: str
    human: str
    systems: list[str]
    values: dict[str, float]
    intervals: dict[str, tuple[float, float]] = field(default_factory=dict)
    resampling: str | None = None  # "judgments/pair", "judgments/item", "sentences" or None
    resamples: int = 0
    undefined: dict[str, int] = field(default_factory=dict)  # resamples where it is undefined
    confidence: float = DEFAULT_CONFIDENCE
    seed: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (full precision)."""
        return {"metric": self.metric, "human": self.human, "n": len(self.systems), "systems": list(self.systems),
                "values": dict(self.values), "intervals": {k: list(v) for k, v in self.intervals.items()},
                "resampling": self.resampling, "resamples": self.resamples, "undefined": dict(self.undefined),
                "confidence": self.confidence, "seed": self.seed}


@dataclass
class CorrelationComparison:
    """Does metric A agree with the humans better than metric B? Per correlation: the observed
    difference, its paired-bootstrap interval and one-sided p-value (share of resamples where
    A does not beat B, +1 smoothed), and Williams' test on the Pearson correlations."""

    metric_a: str
    metric_b: str
    human: str
    systems: list[str]
    differences: dict[str, float]
    intervals: dict[str, tuple[float, float]]
    p_values: dict[str, float]
    williams: WilliamsTest
    resampling: str | None = None  # None: Williams' test only
    resamples: int = 0
    seed: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (full precision)."""
        return {"metric_a": self.metric_a, "metric_b": self.metric_b, "human": self.human,
                "systems": list(self.systems), "differences": dict(self.differences),
                "intervals": {k: list(v) for k, v in self.intervals.items()}, "p_values": dict(self.p_values),
                "williams": self.williams.to_dict(), "resampling": self.resampling,
                "resamples": self.resamples, "seed": self.seed}


# --------------------------------------------------------------------------- inputs


def _metric_table(metric_scores: Mapping[str, Mapping[str, float]]) -> dict[str, dict[str, float]]:
    if not isinstance(metric_scores, Mapping) or not metric_scores:
        raise InputError("metric scores must be a non-empty {metric: {system: score}} mapping")
    table = {}
    for metric, scores in metric_scores.items():
        if not isinstance(scores, Mapping):
            raise InputError(f"metric {metric!r}: expected a {{system: score}} mapping, got {type(scores).__name__}")
        for system, score in scores.items():
            if isinstance(score, bool) or not isinstance(score, (int, float, np.integer, np.floating)) \
                    or not math.isfinite(score):
                raise InputError(f"metric {metric!r}, system {system!r}: {score!r} is not a finite number")
        table[str(metric)] = {str(s): float(v) for s, v in scores.items()}
    return table


def check_systems(judgments: Judgments, systems: Sequence[str], provided: Sequence[str], what: str) -> None:
    """Both ways: every system to correlate has ``what`` (an output file, a metric's score),
    and every system that has it is judged; at least 3 systems."""
    missing = [s for s in systems if s not in provided]
    if missing:
        raise InputError(f"systems in the judgments without {what}: {', '.join(missing)}", judgments.source)
    unjudged = [s for s in provided if s not in judgments.systems]
    if unjudged:
        raise InputError(f"systems the judgments do not rank have {what}: {', '.join(unjudged)}; "
                         f"they rank: {', '.join(judgments.systems)}", judgments.source)
    if len(systems) < MIN_SYSTEMS:
        raise InputError(f"meta-evaluation needs at least {MIN_SYSTEMS} systems, got {len(systems)}: "
                         f"{', '.join(systems)}", judgments.source)


def systems_to_correlate(metric_scores: Mapping[str, Mapping[str, float]], judgments: Judgments,
                         systems: Sequence[str] | None = None) -> list[str]:
    """The systems to correlate (default: every judged system), checked both ways against
    every metric's scores (:func:`check_systems`)."""
    chosen = list(judgments.systems) if systems is None else list(systems)
    unjudged = [s for s in chosen if s not in judgments.systems]
    if unjudged:
        raise InputError(f"systems not in the judgments: {', '.join(unjudged)}; "
                         f"they rank: {', '.join(judgments.systems)}", judgments.source)
    for metric, scores in metric_scores.items():
        check_systems(judgments, chosen, list(scores), f"a score from metric {metric!r}")
    return chosen


# --------------------------------------------------------------------------- resampling

def additive_resampler(rows: np.ndarray, reducer: Callable[[np.ndarray], np.ndarray]) -> SentenceResampler:
    """A :data:`SentenceResampler` for a metric whose corpus score is ``reducer(sum of rows)``:
    ``rows`` (D, K) per-sentence statistics, ``reducer`` (B, K) -> (B,)."""
    rows = np.asarray(rows, dtype=np.float64)
    if rows.ndim != 2:
        raise InputError(f"per-sentence statistics must be a (sentences, K) array, got shape {rows.shape}")

    def resampled(resample: Resample) -> np.ndarray:
        return np.asarray(reducer(resample.counts @ rows), dtype=np.float64)

    return resampled


def _item_cells(judgments: Judgments) -> np.ndarray:
    """Per ranking item, its win counts as a flat (items, S * S) matrix."""
    pairwise = judgments.pairwise()
    n = len(judgments.systems)
    decided = ~pairwise.tie
    keys = pairwise.item[decided] * (n * n) + pairwise.better[decided] * n + pairwise.worse[decided]
    counts = np.bincount(keys, minlength=len(judgments.items) * n * n)
    return counts.reshape(len(judgments.items), n * n).astype(np.float64)


def judgment_resamples(judgments: Judgments, unit: str, resamples: int, seed: int) -> np.ndarray:
    """Expected Wins of every judged system in ``resamples`` resamples of the judgments, drawn
    by comparison (``pair``, GJG15's bootstrap) or by ranking item (``item``): (B, S)."""
    from ..stats.rankings import pair_resample_counts

    n = len(judgments.systems)
    check_count(resamples, "the number of bootstrap resamples (--bootstrap N)", 1, MAX_RESAMPLES,
                "gecmetrics.stats.rankings.MAX_RESAMPLES")
    seed = check_seed(seed, "the seed of the bootstrap resamples (--seed)")
    if unit == "pair":
        return expected_wins_of_counts(pair_resample_counts(judgments.pairwise(), resamples, seed))
    if unit == "item":
        cells = _item_cells(judgments)
        rng = np.random.default_rng(seed)
        weights = rng.multinomial(len(cells), np.full(len(cells), 1.0 / len(cells)), size=resamples)
        return expected_wins_of_counts((weights @ cells).reshape(resamples, n, n))
    raise InputError(f"unknown resampling unit {unit!r}; choose one of: {', '.join(RESAMPLING_UNITS)}")


def human_on_sentence_resamples(judgments: Judgments, item_rows: np.ndarray, resample: Resample) -> np.ndarray:
    """Expected Wins (B, S) when each ranking item counts as often as its sentence (its row
    ``item_rows[i]`` of the scored corpus) was drawn by each resample."""
    rows = check_item_rows(judgments, item_rows, resample.size)
    weights = resample.counts[:, rows]
    n = len(judgments.systems)
    return expected_wins_of_counts((weights @ _item_cells(judgments)).reshape(resample.samples, n, n))


RESAMPLINGS = ("judgments", "sentences")


@dataclass(frozen=True)
class Resampling:
    """How to resample for intervals and paired tests: ``kind`` judgments (``unit`` pair or
    item) or sentences (``resamplers``: metric -> system -> :data:`SentenceResampler`;
    ``item_rows``: the corpus row of every ranking item; ``sentences``: the corpus size)."""

    kind: str = "judgments"
    resamples: int = DEFAULT_RESAMPLES
    seed: int = 0
    unit: str = "pair"
    resamplers: Mapping[str, Mapping[str, SentenceResampler]] | None = None
    item_rows: Any = None
    sentences: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in RESAMPLINGS:
            raise InputError(f"unknown resampling {self.kind!r}; choose one of: {', '.join(RESAMPLINGS)}")
        if self.unit not in RESAMPLING_UNITS:
            raise InputError(f"unknown resampling unit {self.unit!r}; choose one of: {', '.join(RESAMPLING_UNITS)}")
        check_count(self.resamples, "the number of bootstrap resamples (--bootstrap N)", 1, MAX_RESAMPLES,
                    "gecmetrics.stats.rankings.MAX_RESAMPLES")
        check_seed(self.seed, "the seed of the bootstrap resamples (--seed)")
        if self.kind == "sentences" and (self.resamplers is None or self.item_rows is None or not self.sentences):
            raise InputError("resampling sentences needs resamplers, item_rows and the number of sentences")


@dataclass
class _Resampled:
    """Human (B, S) and per-metric (B, S) scores of every resample, for the chosen systems."""

    label: str
    human: np.ndarray
    metrics: dict[str, np.ndarray]


def _judgment_side(judgments: Judgments, systems: list[str], how: Resampling,
                   ranking: HumanRanking | None) -> tuple[str, np.ndarray]:
    """The human scores of every judgment resample: the ranking's own resamples (EW) or runs
    (TrueSkill) when it has them, else Expected Wins of fresh resamples."""
    stored = ranking.sample_matrix(systems) if ranking is not None and how.unit == "pair" else None
    if stored is not None:
        return ("judgments/trueskill-runs" if ranking.method == "ts" else "judgments/pair"), stored
    if ranking is not None and ranking.method == "ts":
        raise InputError("TrueSkill intervals come from its runs: rank with two or more runs "
                         "(resampling by item is for Expected Wins)")
    columns = [judgments.systems.index(s) for s in systems]
    return f"judgments/{how.unit}", judgment_resamples(judgments, how.unit, how.resamples, how.seed)[:, columns]


def _resample(table: dict[str, dict[str, float]], judgments: Judgments, systems: list[str], how: Resampling,
              ranking: HumanRanking | None) -> _Resampled:
    if how.kind == "judgments":
        label, human = _judgment_side(judgments, systems, how, ranking)
        fixed = {m: np.array([scores[s] for s in systems])[None, :] for m, scores in table.items()}
        return _Resampled(label, human, fixed)
    if ranking is not None and ranking.method != "ew":
        raise InputError("resampling sentences needs Expected Wins (--ranking ew): TrueSkill would be rerun "
                         "on every resample")
    check_draws(how.resamples, int(how.sentences))
    resample = Resample(bootstrap_indices(int(how.sentences), how.resamples, how.seed))
    columns = [judgments.systems.index(s) for s in systems]
    human = human_on_sentence_resamples(judgments, how.item_rows, resample)[:, columns]
    metrics = {}
    for metric in table:
        per_system = how.resamplers.get(metric, {})
        missing = [s for s in systems if s not in per_system]
        if missing:
            raise InputError(f"metric {metric!r} has no sentence resampler for: {', '.join(missing)}")
        metrics[metric] = np.stack([np.asarray(per_system[s](resample), float) for s in systems], axis=1)
    return _Resampled("sentences", human, metrics)


def percentile_interval(values: np.ndarray, confidence: float) -> tuple[tuple[float, float], int]:
    """The central ``confidence`` percentile interval of the defined values (sorted[k] and
    sorted[B - k - 1], k = floor(B (1 - confidence) / 2)), and how many were undefined (nan)."""
    defined = np.sort(values[~np.isnan(values)])
    undefined = int(values.size - defined.size)
    if defined.size == 0:
        return (math.nan, math.nan), undefined
    k = int(math.floor(defined.size * (1.0 - confidence) / 2.0 + 1e-9))
    return (float(defined[k]), float(defined[defined.size - k - 1])), undefined


def _human_scores(judgments: Judgments, systems: list[str], ranking: HumanRanking | None) -> tuple[str, list[float]]:
    """The human label and scores of ``systems``: the ranking's, or plain Expected Wins."""
    if ranking is None:
        plain = expected_wins_of_counts(judgments.pairwise().win_counts())
        return f"expected wins ({judgments.source})", [float(plain[judgments.systems.index(s)]) for s in systems]
    if not isinstance(ranking, HumanRanking):
        raise InputError(f"expected a HumanRanking, got {type(ranking).__name__}")
    missing = [s for s in systems if s not in ranking.scores]
    if missing:
        raise InputError(f"systems without a human score in the ranking: {', '.join(missing)}", ranking.source)
    name = "expected wins" if ranking.method == "ew" else "trueskill"
    return f"{name} ({ranking.source})", [ranking.scores[s] for s in systems]


def _check_inputs(judgments: Judgments, confidence: float) -> None:
    if not isinstance(judgments, Judgments):
        raise InputError(f"expected Judgments, got {type(judgments).__name__}")
    if not 0.0 < confidence < 1.0:
        raise InputError(f"the confidence level must be between 0 and 1, got {confidence!r}")


def correlate_with_judgments(metric_scores: Mapping[str, Mapping[str, float]], judgments: Judgments,
                             systems: Sequence[str] | None = None, resampling: Resampling | str | None = "judgments",
                             *, ranking: HumanRanking | None = None, confidence: float = DEFAULT_CONFIDENCE,
                             **resampling_options: Any) -> list[SystemCorrelation]:
    """Correlate every metric with the human scores over ``systems`` (default: every judged
    system): ``ranking``'s scores (Expected Wins or TrueSkill, computed over all judged
    systems, as SEEDA's subsets do), plain Expected Wins without one. With ``resampling``
    (a :class:`Resampling`, or its kind with its options as keywords: ``resamples``, ``seed``,
    ``unit``, ``resamplers``, ``item_rows``, ``sentences``) each correlation gets a bootstrap
    percentile interval; a judgment bootstrap takes the ranking's own resamples or runs when
    it has them."""
    _check_inputs(judgments, confidence)
    table = _metric_table(metric_scores)
    chosen = systems_to_correlate(table, judgments, systems)
    label, human = _human_scores(judgments, chosen, ranking)
    results = [SystemCorrelation(metric, label, chosen, {name: correlation(name, [scores[s] for s in chosen], human)
                                                          for name in CORRELATIONS}, confidence=confidence)
               for metric, scores in table.items()]
    how = _resampling(resampling, resampling_options)
    if how is None:
        return results
    sampled = _resample(table, judgments, chosen, how, ranking)
    for result in results:
        for name in CORRELATIONS:
            values = correlation_rows(name, sampled.metrics[result.metric], sampled.human)
            result.intervals[name], result.undefined[name] = percentile_interval(values, confidence)
        result.resampling, result.resamples, result.seed = sampled.label, len(sampled.human), how.seed
    return results


def _resampling(resampling: Resampling | str | None, options: dict[str, Any]) -> Resampling | None:
    if resampling is None or isinstance(resampling, Resampling):
        if options:
            raise InputError(f"resampling options without a resampling kind: {', '.join(options)}")
        return resampling
    return Resampling(resampling, **options)


def compare_metrics(metric_a: str, metric_b: str, metric_scores: Mapping[str, Mapping[str, float]],
                    judgments: Judgments, systems: Sequence[str] | None = None,
                    resampling: Resampling | str | None = "judgments", *, ranking: HumanRanking | None = None,
                    confidence: float = DEFAULT_CONFIDENCE, **resampling_options: Any) -> CorrelationComparison:
    """Paired test of "metric A correlates with the human scores better than metric B": the
    same resamples score both (options as :func:`correlate_with_judgments`), and Williams' test
    on the Pearson correlations (the only test when ``resampling`` is None)."""
    table = _metric_table(metric_scores)
    for name in (metric_a, metric_b):
        if name not in table:
            raise InputError(f"no scores for metric {name!r}; have: {', '.join(table)}")
    if metric_a == metric_b:
        raise InputError("compare two different metrics")
    table = {metric_a: table[metric_a], metric_b: table[metric_b]}
    point = correlate_with_judgments(table, judgments, systems, None, ranking=ranking, confidence=confidence)
    chosen = point[0].systems
    differences = {name: point[0].values[name] - point[1].values[name] for name in CORRELATIONS}
    r_a_b = pearson([table[metric_a][s] for s in chosen], [table[metric_b][s] for s in chosen])
    williams = williams_test(point[0].values["pearson"], point[1].values["pearson"], r_a_b, len(chosen))
    comparison = CorrelationComparison(metric_a, metric_b, point[0].human, chosen, differences, {}, {}, williams,
                                       None, 0, None)
    how = _resampling(resampling, resampling_options)
    if how is not None:
        _paired_bootstrap(comparison, table, judgments, how, ranking, confidence)
    return comparison


def _paired_bootstrap(comparison: CorrelationComparison, table: dict[str, dict[str, float]], judgments: Judgments,
                      how: Resampling, ranking: HumanRanking | None, confidence: float) -> None:
    """Fill in the paired-bootstrap intervals and one-sided p-values of a comparison."""
    sampled = _resample(table, judgments, comparison.systems, how, ranking)
    for name in CORRELATIONS:
        paired = (correlation_rows(name, sampled.metrics[comparison.metric_a], sampled.human)
                  - correlation_rows(name, sampled.metrics[comparison.metric_b], sampled.human))
        comparison.intervals[name], _ = percentile_interval(paired, confidence)
        defined = paired[~np.isnan(paired)]
        comparison.p_values[name] = float((np.count_nonzero(defined <= 0) + 1) / (defined.size + 1))
    comparison.resampling, comparison.resamples, comparison.seed = sampled.label, len(sampled.human), how.seed
