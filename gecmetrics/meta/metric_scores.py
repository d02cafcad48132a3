"""The metric side of a meta-evaluation: what each metric column says about each system.

It comes from precomputed scores (``{metric: {system: score}}``: system level only, read as
higher is better) or from one :func:`~gecmetrics.run.engine.score_corpus` run of any registered
metrics on the system outputs, which gives per column the corpus scores, the sentence scores
(``metric.sentence_matrix``) and the sentence bootstrap (``metric.resampler(column,
references)``, the paired-test resampler). Wherever scores are compared they are oriented by
``metric.oriented`` (higher is better), so a lower-is-better metric correlates the right way;
the scores printed stay as the metric gives them.

Only the systems correlated are scored (gec-metrics, too, gives a metric only the outputs of the
systems it ranks): a metric whose scores depend on the other systems of the run
(``metric.shared_by_systems``: GoToScorer's chunk weights) then takes them from exactly the systems
ranked, never from outputs left out, and a note says so; a ``scored`` run made with other systems
too is noted the same way.

Instead of its corpus scores, a metric with sentence scores can rank the systems by the pairwise
wins of their sentence scores (Expected Wins or TrueSkill, gec-metrics' settings:
:mod:`gecmetrics.stats.sentence_rankings`); those rankings are what is correlated then.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from ..core.checks import check_distinct_names, check_score
from ..core.resampling import Resample, prepared_for
from ..core.table import scale_factor
from ..errors import InputError, kind_of
from ..stats.sentence_rankings import SENTENCE_RANKING_METHODS, rank_by_sentence_scores
from .score_files import SINGLE_METRIC_NAME

SentenceResampler = Callable[[Resample], np.ndarray]
"""Scores of one system on resampled corpora: a :class:`~gecmetrics.core.resampling.Resample`
(B resamples of D sentence indices) -> corpus scores (B,), oriented (higher is better)."""
RANKING_LABELS = {"ew": "EW", "ts": "TS"}


def metric_score_table(metric_scores: Any) -> dict[str, dict[str, float]]:
    """``{system: score}`` (one metric, named ``metric``) or ``{metric: {system: score}}``,
    checked: non-empty, every score a finite number. Returns metric -> system -> float."""
    if not isinstance(metric_scores, Mapping) or not metric_scores:
        raise InputError("metric scores must be a non-empty mapping: {system: score} or {metric: {system: score}}")
    values = list(metric_scores.values())
    if all(isinstance(value, Mapping) for value in values):
        check_distinct_names(metric_scores, "metric scores")
        nested = {str(metric): scores for metric, scores in metric_scores.items()}
    elif not any(isinstance(value, Mapping) for value in values):
        nested = {SINGLE_METRIC_NAME: metric_scores}
    else:
        raise InputError("metric scores mix {system: score} and {metric: {system: score}} entries")
    table = {}
    for metric, scores in nested.items():
        if not scores:
            raise InputError(f"metric {metric!r} has no system scores")
        check_distinct_names(scores, f"metric {metric!r}")
        table[metric] = {str(s): check_score(v, f"metric {metric!r}, system {s!r}") for s, v in scores.items()}
    return table


def systems_in_every(table: Mapping[str, Mapping[str, float]]) -> list[str]:
    """The systems every metric of ``table`` scores (in the order of the first)."""
    first, *others = table.values()
    return [s for s in first if all(s in scores for scores in others)]


# --------------------------------------------------------------------------- scored columns


@dataclass(frozen=True)
class ScoredColumns:
    """The score columns of a :class:`~gecmetrics.run.engine.Scored` run: each column's label,
    metric index, part and signature (``run.compare.Column``), in table order."""

    scored: Any
    columns: list

    @classmethod
    def of(cls, scored: Any) -> "ScoredColumns":
        from ..run.compare import metric_columns

        return cls(scored, metric_columns(scored.metrics, scored.references)[0])

    def metric(self, column: Any) -> Any:
        return self.scored.metrics[column.metric_index]

    def system_scores(self) -> dict[str, dict[str, float]]:
        """label -> system -> corpus score (a fraction, as the metric gives it)."""
        return {c.label: {name: float(self.scored.result(name, c.metric_index).scores[c.part])
                          for name in self.scored.names} for c in self.columns}

    def resamplers(self) -> dict[str, dict[str, SentenceResampler]]:
        """label -> system -> the metric's paired-test resampler of that column, bound to the
        system's statistics, its scores oriented (higher is better)."""
        out: dict[str, dict[str, SentenceResampler]] = {}
        for c in self.columns:
            metric = self.metric(c)
            resampler = metric.resampler(c.part, self.scored.references)
            out[c.label] = {name: _OrientedResampler(resampler, prepared_for(
                resampler, name, self.scored.statistics[name][c.metric_index]), metric.oriented)
                for name in self.scored.names}
        return out

    def sentence_scores(self, column: Any, use: str) -> dict[str, np.ndarray]:
        """system -> the column's sentence scores, shape (D,), oriented (higher is better), for
        ``use`` (which compares the systems on every sentence): a sentence without a score (an LLM
        judge's unanswered prompt) is refused saying why and what to do (``metric.unscored_refusal``)."""
        metric = self.metric(column)
        metric.require_sentence_scores()
        for name in self.scored.names:
            refused = metric.unscored_refusal(self.scored.statistics[name][column.metric_index], use)
            if refused:
                raise InputError(refused, name)
        return {name: metric.oriented(metric.sentence_matrix(self.scored.statistics[name][column.metric_index])
                                      [column.part]) for name in self.scored.names}

    @property
    def sentences(self) -> int:
        first = self.scored.names[0]
        return int(len(self.scored.statistics[first][0]))


@dataclass(frozen=True)
class _OrientedResampler:
    resampler: Any
    prepared: Any
    orient: Callable[[np.ndarray], np.ndarray]

    def __call__(self, resample: Resample) -> np.ndarray:
        return self.orient(np.asarray(self.resampler.bootstrap_scores(self.prepared, resample), dtype=np.float64))


# --------------------------------------------------------------------------- the metric side


@dataclass
class MetricSide:
    """The metric columns to correlate: their scores as printed, which way is better, how
    they are printed (x100 or as fractions, and ``rounds_to``: the decimals to which a column's
    metric's tool rounds its scores, :attr:`~gecmetrics.metrics.base.Metric.rounds_to`; a column
    not there has none) and their signatures; ``columns`` when they were scored here (sentence
    scores and resamplers), ``what`` a system needs to take part."""

    scores: dict[str, dict[str, float]]
    higher_is_better: dict[str, bool]
    scales: dict[str, float]
    signatures: dict[str, str] = field(default_factory=dict)
    columns: ScoredColumns | None = None
    what: str = "a score from every metric"
    ranking: str | None = None  # "ew"/"ts": the scores rank systems by sentence-score wins
    notes: list[str] = field(default_factory=list)
    """Lines for the user: which systems decided what a metric shares between systems."""
    rounds_to: dict[str, int | None] = field(default_factory=dict)

    @property
    def systems(self) -> list[str]:
        """The systems every column scores (in the order of the first)."""
        return systems_in_every(self.scores)

    def oriented(self, systems: Sequence[str] | None = None) -> dict[str, dict[str, float]]:
        """label -> system -> score, higher is better (what correlations compare)."""
        return {label: {s: (v if self.higher_is_better[label] else -v) for s, v in scores.items()
                        if systems is None or s in systems} for label, scores in self.scores.items()}

    def need_columns(self, what: str) -> ScoredColumns:
        """The scored columns, or an error saying that ``what`` needs the system outputs."""
        if self.columns is None:
            raise InputError(f"{what} needs the system outputs (sentence statistics), not precomputed scores")
        return self.columns

    def ranked_by_sentences(self, method: str, systems: Sequence[str]) -> "MetricSide":
        """Each column replaced by the ranking of ``systems`` by the pairwise wins of its sentence
        scores: Expected Wins or TrueSkill, whose matches are played in the order of ``systems``
        (the human table's rows, or the judged systems in code-point order), as gec-metrics plays
        them in the order of its system list (SEEDA's alphabetical one, GJG15's Table 3 one)."""
        if method not in SENTENCE_RANKING_METHODS:
            raise InputError(f"unknown ranking from sentence scores {method!r}; choose one of: "
                             f"{', '.join(SENTENCE_RANKING_METHODS)}")
        columns = self.need_columns("a ranking from sentence scores")
        order = list(systems)
        tag = RANKING_LABELS[method]
        scores, signatures = {}, {}
        for column in columns.columns:
            by_system = columns.sentence_scores(column, f"a ranking from sentence scores ({method})")
            ranking = rank_by_sentence_scores({s: by_system[s] for s in order}, method)
            label = f"{column.label} [{tag}]"
            scores[label] = {s: ranking.scores[s] for s in order}
            signatures[label] = f"{self.signatures.get(column.label, column.label)}|ranking:{method}-of-sentences"
        return replace(self, scores=scores, higher_is_better=dict.fromkeys(scores, True),
                       scales=dict.fromkeys(scores, 1.0), signatures=signatures, ranking=method, rounds_to={})


def metric_side(scores: Mapping[str, Any] | None = None, metrics: Any = None, corpus: Any = None,
                scored: Any = None, *, systems: Sequence[str] | None = None, jobs: int = 1,
                progress: Any = None) -> MetricSide:
    """The metric side from precomputed ``scores``, a ``scored`` run, or ``metrics`` (objects or
    registry texts) scored on ``corpus`` (hypotheses named like the systems) in ``jobs``
    processes: only its hypotheses among ``systems`` (the systems correlated; None: all)."""
    from ..run.executors import check_jobs

    check_jobs(jobs)  # (checked whether or not anything is scored here: jobs='abc' was taken)
    given = [value for value in (scores, metrics, scored) if value is not None]
    if len(given) > 1 or (corpus is not None and metrics is None):
        raise InputError("give metrics with a corpus, a scored run, or scores; not several")
    if scores is not None:
        table = metric_score_table(scores)
        return MetricSide(table, dict.fromkeys(table, True), dict.fromkeys(table, 1.0))
    if scored is None:
        scored = score_systems(metrics, corpus, jobs, progress, systems)
        offered = list(corpus.hypotheses)
    else:
        offered = list(scored.names)
    columns = ScoredColumns.of(scored)
    metric_of = {c.label: columns.metric(c) for c in columns.columns}
    return MetricSide(columns.system_scores(), {label: bool(m.higher_is_better) for label, m in metric_of.items()},
                      {label: scale_factor(m) for label, m in metric_of.items()},
                      {c.label: str(c.signature) for c in columns.columns}, columns, "an output file",
                      notes=shared_by_notes(scored.metrics, list(scored.names), offered, systems),
                      rounds_to={label: m.rounds_to for label, m in metric_of.items()})


def score_systems(metrics: Any, corpus: Any, jobs: int = 1, progress: Any = None,
                  systems: Sequence[str] | None = None) -> Any:
    """One :func:`~gecmetrics.run.engine.score_corpus` run of ``metrics`` on ``corpus``, of its
    hypotheses among ``systems`` only (None: all)."""
    from ..io.corpus import Corpus
    from ..metrics.registry import resolve_metrics
    from ..run.compare import metric_columns
    from ..run.engine import check_metrics, score_corpus

    if metrics is None or not isinstance(corpus, Corpus):
        raise InputError("give metrics and a Corpus (or a scored run, or scores)")
    metrics = check_metrics(resolve_metrics(metrics))
    metric_columns(metrics, len(corpus.references))  # a setting given twice: an error before any counting
    if systems is not None:
        corpus = corpus.keeping([name for name in corpus.hypotheses if name in systems])
    return score_corpus(metrics, corpus, progress=progress, jobs=jobs).issued()


def shared_by_notes(metrics: Sequence[Any], run: Sequence[str], offered: Sequence[str],
                    systems: Sequence[str] | None) -> list[str]:
    """One line per metric whose scores depend on the other systems of the run
    (``shared_by_systems``), where that can differ from the ``systems`` correlated: the ``run``
    scored outputs that are not correlated (a ``scored`` run), or outputs ``offered`` were left
    out of the run."""
    if systems is None:
        return []
    extra = [name for name in run if name not in systems]
    left_out = [name for name in offered if name not in run]
    notes = []
    for label, what in dict.fromkeys((m.label, m.shared_by_systems) for m in metrics if m.shared_by_systems):
        if extra:
            notes.append(f"{label}: {what} from the {len(run)} systems of the scored run, {len(extra)} of them not "
                         f"correlated: {', '.join(extra)} (score the correlated systems alone to take them from "
                         "those)")
        elif left_out:
            notes.append(f"{label}: {what} from the {len(run)} systems correlated, not from the outputs left out: "
                         f"{', '.join(left_out)}")
    return notes


def provided_systems(scores: Any, metrics: Any, corpus: Any, scored: Any) -> tuple[list[str], list[str], str]:
    """Before any scoring: the systems the metric side will score (with ``scores``, those every
    metric scores), every system it names, and what a system needs to take part."""
    from ..io.corpus import Corpus

    if scores is not None:
        table = metric_score_table(scores)
        every = systems_in_every(table)
        return every, every + sorted({s for t in table.values() for s in t} - set(every)), "a score from every metric"
    if scored is not None:
        from ..run.engine import Scored

        if not isinstance(scored, Scored):
            raise InputError(f"scored must be a run of gecmetrics.score_corpus (Scored), got {kind_of(scored)}")
        return list(scored.names), list(scored.names), "an output file"
    if metrics is None or not isinstance(corpus, Corpus):
        raise InputError("give metrics and a Corpus (or a scored run, or scores)")
    return list(corpus.hypotheses), list(corpus.hypotheses), "an output file"
