"""System-level meta-evaluation: how well metric scores of systems agree with human scores of
the same systems (Pearson, Spearman, Kendall), whatever gives the human scores.

* :func:`meta_evaluate`: the human scores are columns of a human table (shipped GJG15 / SEEDA,
  or a user's TSV).
* :func:`correlate_with_judgments`: they are Expected Wins or TrueSkill of raw judgments, with
  bootstrap intervals (:mod:`gecmetrics.meta.resampling`); :func:`compare_metrics` tests whether
  one metric agrees with the humans better than another (paired bootstrap, Williams' test).

Both give :class:`SystemCorrelation` rows from one function, :func:`correlate_systems`.
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import numpy as np

from ..core.checks import check_fraction
from ..core.resampling import resamples_needed
from ..errors import InputError, plural
from ..io.judgments import Judgments
from ..io.text import check_sequence, check_system_names
from ..stats.rankings import DEFAULT_CONFIDENCE, HumanRanking, expected_wins, ranked_judgments
from .correlations import CORRELATIONS, MIN_SYSTEMS, WilliamsTest, correlation, correlation_rows, pearson, \
    williams_test
from .human_tables import SHIPPED_TABLES, HumanTable, load_human
from .metric_scores import metric_score_table, metric_side, provided_systems
from .resampling import Resampling, as_resampling, percentile_interval, resample
from .systems import choose_systems, is_system_list

HUMAN_LABELS = {"ew": "EW", "ts": "TS"}


@dataclass
class SystemCorrelation:
    """One metric column against one human score over ``systems``: the three correlations,
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

    @property
    def pearson(self) -> float:
        return self.values["pearson"]

    @property
    def spearman(self) -> float:
        return self.values["spearman"]

    @property
    def kendall(self) -> float:
        return self.values["kendall"]

    @property
    def n_systems(self) -> int:
        return len(self.systems)

    @property
    def human_score(self) -> str:
        """The human score column (``human``)."""
        return self.human

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (full precision)."""
        return {"metric": self.metric, "human": self.human, "n": len(self.systems), "systems": list(self.systems),
                **self.values, "intervals": {k: list(v) for k, v in self.intervals.items()},
                "resampling": self.resampling, "resamples": self.resamples, "undefined": dict(self.undefined),
                "confidence": self.confidence, "seed": self.seed}


def correlate_systems(metric_scores: Mapping[str, Mapping[str, float]], human_scores: Mapping[str, Mapping[str, float]],
                      systems: Sequence[str], *, human_source: str = "",
                      confidence: float = DEFAULT_CONFIDENCE) -> list[SystemCorrelation]:
    """Every metric (``{metric: {system: score}}``, higher is better) against every human score
    (``{label: {system: score}}``) over ``systems``; a constant column is an error."""
    systems = list(systems)
    of = f" of {human_source}" if human_source else ""
    results = []
    for metric, scores in metric_scores.items():
        x = [scores[s] for s in systems]
        if len(systems) >= MIN_SYSTEMS and len(set(x)) == 1:
            raise InputError(f"metric {metric!r} gives the same score ({x[0]:g}) to all {len(x)} systems: "
                             "its correlation is undefined")
        for human, by_system in human_scores.items():
            y = [by_system[s] for s in systems]
            if len(systems) >= MIN_SYSTEMS and len(set(y)) == 1:
                raise InputError(f"human column {human!r}{of} is the same ({y[0]:g}) for all {len(y)} systems: "
                                 "its correlation is undefined")
            values = {name: correlation(name, x, y) for name in CORRELATIONS}
            results.append(SystemCorrelation(metric, human, systems, values, confidence=confidence))
    return results


# --------------------------------------------------------------------------- human tables


@dataclass
class MetaEvalResult:
    """All (metric, human score) correlations against a human table, with the subset and
    systems used, the scores (as printed; ``scales``: x100 or as fractions), and notes and
    warnings about the systems (the CLI prints them on stderr)."""

    human_table: str
    subset: str
    correlations: list[SystemCorrelation]
    notes: list[str]
    warnings: list[str] = field(default_factory=list)
    systems: list[str] = field(default_factory=list)
    scores: dict[str, dict[str, float]] = field(default_factory=dict)
    scales: dict[str, float] = field(default_factory=dict)
    signatures: dict[str, str] = field(default_factory=dict)
    human_scores: dict[str, dict[str, float]] = field(default_factory=dict)
    higher_is_better: dict[str, bool] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (full precision)."""
        return {"human_table": self.human_table, "subset": self.subset, "systems": list(self.systems),
                "correlations": [c.to_dict() for c in self.correlations], "notes": list(self.notes),
                "warnings": list(self.warnings), "scores": self.scores, "signatures": dict(self.signatures)}


def meta_evaluate(metric_scores: Mapping[str, Any] | None = None, human: str | HumanTable = "gjg15",
                  human_score: str | Sequence[str] | None = None, systems: str | Sequence[str] | None = None, *,
                  metrics: Any = None, corpus: Any = None, scored: Any = None, sentence_ranking: str | None = None,
                  jobs: int = 1, progress: Any = None) -> MetaEvalResult:
    """Correlate system-level metric scores with the human scores of a table.

    The metric side: ``metric_scores`` (``{system: score}`` for one metric or ``{metric:
    {system: score}}``), or ``metrics`` scored on ``corpus`` (hypotheses named like the table's
    rows; ``jobs`` processes, ``progress`` callback), or a ``scored`` run; with those,
    ``sentence_ranking`` (``ew``/``ts``) correlates the ranking by sentence-score wins instead of
    the corpus scores. ``human``: a shipped table name, a TSV path or a :class:`HumanTable`;
    ``human_score``: its column(s) (default: every human score column; a published metric
    column such as GJG15's ``m2_f05_gjg15`` only when named). ``systems``: a subset (base,
    +INPUT, +fluency, all) or a list of names (default: ``base`` for SEEDA, all otherwise).
    A system with metric scores but no human row is an error, unless ``systems`` lists the
    systems to correlate without it; rows without metric scores are left out with a note (an
    error when ``systems`` names them)."""
    from ..run.executors import check_jobs

    check_jobs(jobs)  # (checked with given scores too, which need no processes)
    if systems is not None and not isinstance(systems, (str, Sequence)):  # a generator was used up by the first look
        systems = check_sequence(systems, "systems", "system names", ordered=False)
    table = human if isinstance(human, HumanTable) else load_human(human)
    columns = table.columns(human_score)
    listed = is_system_list(systems)
    table.systems_of_subset(systems)  # an unknown subset: an error before any scoring
    provided, named, what = provided_systems(metric_scores, metrics, corpus, scored)
    unknown = [] if listed else sorted(s for s in named if s not in table.systems)
    if unknown:
        raise InputError(f"systems with metric scores but no row in human table {table.name}: {', '.join(unknown)}; "
                         f"it has: {', '.join(table.systems)}")
    choice = choose_systems(table.systems, systems, provided, what=what, where=table.name)
    side = metric_side(metric_scores, metrics, corpus, scored, systems=choice.systems, jobs=jobs, progress=progress)
    notes = []
    if not human_score and table.other_columns and table.name not in SHIPPED_TABLES:
        skipped = [f"{column} (line {line}: {value!r})" for column, (line, value) in table.other_columns.items()]
        notes.append(f"{table.source}: columns with a non-number, not used as human scores: {', '.join(skipped)}")
    if sentence_ranking is not None:
        side = side.ranked_by_sentences(sentence_ranking, choice.systems)
    human_scores = {column: table.scores[column] for column in columns}
    correlations = correlate_systems(side.oriented(choice.systems), human_scores, choice.systems,
                                     human_source=table.name)
    return MetaEvalResult(table.name, choice.subset, correlations, notes + choice.notes + side.notes, choice.warnings,
                          choice.systems, side.scores, side.scales, side.signatures, human_scores,
                          side.higher_is_better)


# --------------------------------------------------------------------------- raw judgments


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


def _systems_to_correlate(table: Mapping[str, Mapping[str, float]], judgments: Judgments,
                          systems: Sequence[str] | None) -> list[str]:
    chosen = list(judgments.systems) if systems is None else check_system_names(systems)
    unjudged = [s for s in chosen if s not in judgments.systems]
    if unjudged:
        raise InputError(f"systems not in the judgments: {', '.join(unjudged)}; "
                         f"they rank: {', '.join(judgments.systems)}", judgments.source)
    for metric, scores in table.items():
        check_systems(judgments, chosen, list(scores), f"a score from metric {metric!r}")
    return chosen


def human_scores_of(judgments: Judgments, systems: Sequence[str],
                    ranking: HumanRanking | None) -> tuple[str, dict[str, float]]:
    """The human label (EW, TS) and scores of ``systems``: the ranking's, or plain Expected Wins."""
    if ranking is None:
        ranking = expected_wins(judgments, resamples=0)
    if not isinstance(ranking, HumanRanking):
        raise InputError(f"expected a HumanRanking, got {type(ranking).__name__}")
    missing = [s for s in systems if s not in ranking.scores]
    if missing:
        raise InputError(f"systems without a human score in the ranking: {', '.join(missing)}", ranking.source)
    return HUMAN_LABELS[ranking.method], {s: ranking.scores[s] for s in systems}


def _check_inputs(judgments: Judgments, confidence: float) -> None:
    if not isinstance(judgments, Judgments):
        raise InputError(f"expected Judgments, got {type(judgments).__name__}")
    check_fraction(confidence, "the confidence level")


def correlate_with_judgments(metric_scores: Mapping[str, Mapping[str, float]], judgments: Judgments,
                             systems: Sequence[str] | None = None, resampling: Resampling | str | None = "judgments",
                             *, ranking: HumanRanking | None = None, confidence: float = DEFAULT_CONFIDENCE,
                             **resampling_options: Any) -> list[SystemCorrelation]:
    """Correlate every metric (``{metric: {system: score}}``, higher is better) with the human
    scores over ``systems`` (default: every judged system; each must have a score from every
    metric, and every scored system must be judged): ``ranking``'s scores (Expected Wins or
    TrueSkill, computed over all judged systems, as SEEDA's subsets do), plain Expected Wins
    without one. With ``resampling`` (a :class:`~gecmetrics.meta.resampling.Resampling`, or its
    kind with its options as keywords: ``resamples``, ``seed``, ``unit``, ``resamplers``,
    ``item_rows``, ``sentences``) each correlation gets a bootstrap percentile interval; a
    judgment bootstrap takes the ranking's own resamples or runs when it has them."""
    _check_inputs(judgments, confidence)
    judgments = ranked_judgments(judgments)
    table = metric_score_table(metric_scores)
    chosen = _systems_to_correlate(table, judgments, systems)
    label, human = human_scores_of(judgments, chosen, ranking)
    results = correlate_systems(table, {label: human}, chosen, human_source=judgments.source, confidence=confidence)
    how = as_resampling(resampling, resampling_options)
    if how is None:
        return results
    sampled = resample(table, judgments, chosen, how, ranking)
    needed = resamples_needed(confidence)
    if len(sampled.human) < needed:  # (resamples=1: (0.862, 0.862) around 0.955)
        warnings.warn(f"the correlations' {100 * confidence:g}% intervals come from only "
                      f"{plural(len(sampled.human), 'resample')} (at least {needed}): they need not hold the "
                      "correlation")
    for result in results:
        for name in CORRELATIONS:
            values = correlation_rows(name, sampled.metrics[result.metric], sampled.human)
            result.intervals[name], result.undefined[name] = percentile_interval(values, confidence)
        result.resampling, result.resamples, result.seed = sampled.label, len(sampled.human), how.seed
    return results


def compare_metrics(metric_a: str, metric_b: str, metric_scores: Mapping[str, Mapping[str, float]],
                    judgments: Judgments, systems: Sequence[str] | None = None,
                    resampling: Resampling | str | None = "judgments", *, ranking: HumanRanking | None = None,
                    confidence: float = DEFAULT_CONFIDENCE, **resampling_options: Any) -> CorrelationComparison:
    """Paired test of "metric A correlates with the human scores better than metric B": the
    same resamples score both (options as :func:`correlate_with_judgments`), and Williams' test
    on the Pearson correlations (the only test when ``resampling`` is None)."""
    table = metric_score_table(metric_scores)
    for name in (metric_a, metric_b):
        if not isinstance(name, str) or name not in table:
            raise InputError(f"no scores for metric {name!r}; have: {', '.join(table)}")
    if metric_a == metric_b:
        raise InputError("compare two different metrics")
    table = {metric_a: table[metric_a], metric_b: table[metric_b]}
    _check_inputs(judgments, confidence)
    judgments = ranked_judgments(judgments)
    point = correlate_with_judgments(table, judgments, systems, None, ranking=ranking, confidence=confidence)
    chosen = point[0].systems
    differences = {name: point[0].values[name] - point[1].values[name] for name in CORRELATIONS}
    r_a_b = pearson([table[metric_a][s] for s in chosen], [table[metric_b][s] for s in chosen])
    try:
        williams = williams_test(point[0].values["pearson"], point[1].values["pearson"], r_a_b, len(chosen))
    except InputError as err:  # which pair (and that it is the comparison of metrics) is undefined
        raise InputError(f"comparing {metric_a!r} with {metric_b!r} (paired tests of metrics): {err}") from None
    comparison = CorrelationComparison(metric_a, metric_b, point[0].human, chosen, differences, {}, {}, williams)
    how = as_resampling(resampling, resampling_options)
    if how is None:
        return comparison
    sampled = resample(table, judgments, chosen, how, ranking)
    for name in CORRELATIONS:
        paired = (correlation_rows(name, sampled.metrics[metric_a], sampled.human)
                  - correlation_rows(name, sampled.metrics[metric_b], sampled.human))
        comparison.intervals[name], _ = percentile_interval(paired, confidence)
        defined = paired[~np.isnan(paired)]
        comparison.p_values[name] = float((np.count_nonzero(defined <= 0) + 1) / (defined.size + 1))
    comparison.resampling, comparison.resamples, comparison.seed = sampled.label, len(sampled.human), how.seed
    return comparison
