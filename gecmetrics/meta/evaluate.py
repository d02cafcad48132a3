"""Meta-evaluation of metrics against raw human judgments, wired on the metric protocol.

One :func:`~gecmetrics.run.engine.score_corpus` run gives every system's per-sentence statistics
under every metric; the corpus scores (``metric.score``), the sentence scores
(``metric.sentence_matrix``) and the sentence bootstrap (``metric.resampler(column,
references)``, the paired-test resampler) all come from them, so any registered metric (a
user's too) gets correlations, intervals, paired tests, sentence-level agreement and window
analysis. :func:`meta_evaluate_judgments` is the one call; its result is a
:class:`JudgmentMetaEvaluation` with ``to_dict()``.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import partial
from itertools import combinations
from typing import Any, Mapping, Sequence

import numpy as np

from ..core.checks import check_count, check_seed
from ..errors import InputError
from .correlation import (
    RESAMPLING_UNITS,
    RESAMPLINGS,
    CorrelationComparison,
    Resampling,
    SentenceResampler,
    SystemCorrelation,
    check_systems,
    compare_metrics,
    correlate_with_judgments,
)
from ..io.judgments import MAX_SRC_ID, Judgments, read_judgments
from ..stats.rankings import (
    DEFAULT_CONFIDENCE,
    DEFAULT_RESAMPLES,
    DEFAULT_TS_RUNS,
    EW_METHODS,
    MAX_RESAMPLES,
    MAX_TS_RUNS,
    RANKING_METHODS,
    HumanRanking,
    human_ranking,
)
from .sentence import TIE_RULES, SentenceAgreement, check_src_ids, rows_of_src_ids, sentence_agreement
from .windows import WindowAnalysis, window_analysis

SUBSETS = ("base", "+INPUT", "+fluency", "all")
INPUT_SYSTEMS = ("INPUT", "src", "source")
"""Names of the uncorrected input among judged systems (GJG15/SEEDA, Napoles et al.)."""
FLUENCY_SYSTEMS = ("REF-F", "GPT-3.5")
"""SEEDA's fluency-edited outputs, outside its ``base`` set."""
_LEFT_OUT = {"base": INPUT_SYSTEMS + FLUENCY_SYSTEMS, "+INPUT": FLUENCY_SYSTEMS, "+fluency": INPUT_SYSTEMS,
             "all": ()}
LEVELS = ("system", "sentence")


# --------------------------------------------------------------------------- systems


def subset_systems(judged: Sequence[str], subset: str | Sequence[str] | None = None) -> list[str]:
    """The judged systems of a subset, in the judgments' order: ``base`` (no input, no fluency
    outputs), ``+INPUT``, ``+fluency``, ``all``, or a list of names (a string with commas);
    default: ``base`` where the judgments rank fluency outputs (SEEDA), ``all`` otherwise."""
    judged = list(judged)
    if subset is None:
        subset = "base" if any(s in FLUENCY_SYSTEMS for s in judged) else "all"
    if isinstance(subset, str) and subset in _LEFT_OUT:
        return [s for s in judged if s not in _LEFT_OUT[subset]]
    names = [s.strip() for s in subset.split(",")] if isinstance(subset, str) else [str(s) for s in subset]
    if isinstance(subset, str) and len(names) == 1:
        raise InputError(f"unknown system subset {subset!r}; choose one of: {', '.join(SUBSETS)}, "
                         "or list the systems separated by commas")
    unknown = [s for s in names if s not in judged]
    if unknown or len(set(names)) != len(names) or "" in names:
        raise InputError(f"the system list {', '.join(names)} names systems that are not judged or repeats one; "
                         f"the judgments rank: {', '.join(judged)}")
    return [s for s in judged if s in names]


def subset_name(subset: str | Sequence[str] | None, judged: Sequence[str]) -> str:
    """The name shown for a subset (the default resolved; a list as given)."""
    if subset is None:
        return "base" if any(s in FLUENCY_SYSTEMS for s in judged) else "all"
    return subset if isinstance(subset, str) else ",".join(subset)


# --------------------------------------------------------------------------- metric columns


@dataclass(frozen=True)
class ScoredColumns:
    """The score columns of a :class:`~gecmetrics.run.engine.Scored` run: each column's label,
    metric index, part and signature (``comparison.Column``), in table order."""

    scored: Any
    columns: list

    @classmethod
    def of(cls, scored: Any) -> "ScoredColumns":
        from ..run.compare import metric_columns

        return cls(scored, metric_columns(scored.metrics, scored.references)[0])

    def system_scores(self) -> dict[str, dict[str, float]]:
        """label -> system -> corpus score (a fraction)."""
        return {c.label: {name: float(self.scored.result(name, c.metric_index).scores[c.part])
                          for name in self.scored.names} for c in self.columns}

    def resamplers(self) -> dict[str, dict[str, SentenceResampler]]:
        """label -> system -> the metric's paired-test resampler of that column, bound to the
        system's statistics (``bootstrap_scores(prepared, resample)``)."""
        out: dict[str, dict[str, SentenceResampler]] = {}
        for c in self.columns:
            resampler = self.scored.metrics[c.metric_index].resampler(c.part, self.scored.references)
            out[c.label] = {name: partial(resampler.bootstrap_scores,
                                          resampler.prepare(self.scored.statistics[name][c.metric_index]))
                            for name in self.scored.names}
        return out

    def sentence_scores(self, column: Any) -> dict[str, np.ndarray]:
        """system -> the column's sentence scores (``metric.sentence_matrix``), shape (D,)."""
        metric = self.scored.metrics[column.metric_index]
        return {name: metric.sentence_matrix(self.scored.statistics[name][column.metric_index])[column.part]
                for name in self.scored.names}

    @property
    def sentences(self) -> int:
        first = self.scored.names[0]
        return int(len(self.scored.statistics[first][0]))


def item_rows(judgments: Judgments, src_ids: int | Sequence[int] | str | os.PathLike | None,
              sentences: int | None = None) -> np.ndarray:
    """The corpus row of every ranking item: ``src_ids`` is the src-id of the corpus's first
    line (0 for GJG15, 1 for SEEDA's full-corpus ids), or the src-id of every corpus line (a
    list, or a file of one per line: SEEDA's subset ``LINES``), one per sentence of a corpus
    of ``sentences`` when that is given."""
    if src_ids is None:
        raise InputError("matching judgments to sentences needs the src-id of the corpus lines (--src-ids 0 or 1, "
                         "or a file of one src-id per corpus line): GJG15's count from 0, SEEDA's from 1",
                         judgments.source)
    if isinstance(src_ids, (int, np.integer)) and not isinstance(src_ids, bool):
        first = check_count(src_ids, "the src-id of the first corpus line (--src-ids N)", 0, MAX_SRC_ID,
                            "gecmetrics.io.judgments.MAX_SRC_ID")
        return rows_of_src_ids(judgments, first_line=first)
    where = os.fspath(src_ids) if isinstance(src_ids, (str, os.PathLike)) else None
    if where is not None:
        src_ids = read_src_ids(where)
    else:
        if not hasattr(src_ids, "__iter__"):
            raise InputError(f"src_ids must be an integer (the src-id of the first corpus line), a list of one "
                             f"src-id per corpus line or a file of them, got {type(src_ids).__name__}")
        src_ids = [check_count(value, f"src_ids[{k}]", 0, MAX_SRC_ID, "gecmetrics.io.judgments.MAX_SRC_ID")
                   for k, value in enumerate(src_ids)]
    if sentences is not None and len(src_ids) != sentences:
        raise InputError(f"{len(src_ids)} src-ids for a corpus of {sentences} sentences: one per corpus line "
                         "is needed", where)
    check_src_ids(judgments, src_ids, where)
    return rows_of_src_ids(judgments, src_ids)


def read_src_ids(path: str) -> list[int]:
    """A file of one integer per line: the src-id of each corpus line."""
    from ..io.text import read_lines

    values = []
    for number, line in enumerate(read_lines(path), start=1):
        try:
            value = int(line.strip())
        except ValueError:
            raise InputError(f"expected one integer src-id per line, got {line!r}", path, number) from None
        if not 0 <= value <= MAX_SRC_ID:
            raise InputError(f"src-id {value} is outside 0 to {MAX_SRC_ID:,} (gecmetrics.io.judgments.MAX_SRC_ID)",
                             path, number)
        values.append(value)
    return values


# --------------------------------------------------------------------------- options and result


@dataclass(frozen=True)
class JudgmentOptions:
    """What :func:`meta_evaluate_judgments` computes (each checked once, here)."""

    ranking: str = "ew"
    """``ew`` (Expected Wins) or ``ts`` (TrueSkill, optional extra ``trueskill``)."""
    ew_procedure: str = "plain"
    """``plain`` (GJG15's EW.pl) or ``bootstrap-mean`` (the Makefile's, SEEDA's files)."""
    systems: str | tuple[str, ...] | None = None
    """Subset: base, +INPUT, +fluency, all, or names (default: see :func:`subset_systems`)."""
    bootstrap: int = 0
    """Resamples of the intervals (0: none); for TrueSkill, its runs (0: 10, no intervals)."""
    resampling: tuple[str, ...] = ("judgments",)
    unit: str = "pair"
    seed: int = 0
    confidence: float = DEFAULT_CONFIDENCE
    compare: bool = False
    """Paired tests of every pair of metric columns (Williams; paired bootstrap with resamples)."""
    level: str = "system"
    window: int | None = None
    src_ids: Any = None
    """How items map to corpus lines (see :func:`item_rows`); needed by sentence-level work."""
    tie_rule: str = "seeda"

    def __post_init__(self) -> None:
        _choose("ranking method", self.ranking, RANKING_METHODS)
        _choose("Expected Wins procedure", self.ew_procedure, EW_METHODS)
        _choose("level", self.level, LEVELS)
        _choose("tie rule", self.tie_rule, TIE_RULES)
        _choose("resampling unit", self.unit, RESAMPLING_UNITS)
        resampling = (self.resampling,) if isinstance(self.resampling, str) else tuple(self.resampling)
        for kind in resampling:
            _choose("resampling", kind, RESAMPLINGS)
        object.__setattr__(self, "resampling", resampling)
        if self.ranking == "ts":
            check_count(self.bootstrap, "bootstrap (--bootstrap N: the TrueSkill runs)", 0, MAX_TS_RUNS,
                        "gecmetrics.stats.rankings.MAX_TS_RUNS")
        else:
            check_count(self.bootstrap, "bootstrap (--bootstrap N)", 0, MAX_RESAMPLES,
                        "gecmetrics.stats.rankings.MAX_RESAMPLES")
        check_seed(self.seed, "seed (--seed)")
        if not 0.0 < self.confidence < 1.0:
            raise InputError(f"the confidence level must be between 0 and 1, got {self.confidence!r}")
        self._check_combinations()

    def _check_combinations(self) -> None:
        """Options that would be ignored are errors instead."""
        if self.level == "sentence":
            system_level = [name for name, on in (("window analysis", self.window is not None),
                                                  ("bootstrap intervals", self.bootstrap > 0),
                                                  ("paired tests", self.compare)) if on]
            if system_level:
                raise InputError(f"{system_level[0]} is system-level: it does not go with the sentence level")
        elif self.tie_rule != "seeda":
            raise InputError("the tie rule is for the sentence level (level='sentence')")
        if self.resampling != ("judgments",) and self.bootstrap == 0:
            raise InputError("resampling sentences needs a number of bootstrap resamples")

    def ranking_options(self) -> dict[str, Any]:
        """Keywords of :func:`~gecmetrics.stats.rankings.human_ranking`."""
        if self.ranking == "ts":
            return {"runs": self.bootstrap or DEFAULT_TS_RUNS, "seed": self.seed}
        resamples = self.bootstrap or (DEFAULT_RESAMPLES if self.ew_procedure == "bootstrap-mean" else 0)
        return {"procedure": self.ew_procedure, "resamples": resamples, "seed": self.seed,
                "confidence": self.confidence}


def _choose(what: str, value: Any, choices: Sequence[str]) -> None:
    if value not in choices:
        raise InputError(f"unknown {what} {value!r}; choose one of: {', '.join(choices)}")


@dataclass
class JudgmentMetaEvaluation:
    """Everything :func:`meta_evaluate_judgments` computed: the human ranking, system-level
    correlations (one per metric column and resampling), paired tests, sentence-level
    agreement and windows, with the metric columns' scores and signatures."""

    judgments: str
    level: str
    subset: str
    systems: list[str]
    ranking: HumanRanking | None = None
    scores: dict[str, dict[str, float]] = field(default_factory=dict)
    signatures: dict[str, str] = field(default_factory=dict)
    scales: dict[str, float] = field(default_factory=dict)
    """How each column is printed: x100 (n-gram metrics) or as a fraction (1)."""
    correlations: list[SystemCorrelation] = field(default_factory=list)
    comparisons: list[CorrelationComparison] = field(default_factory=list)
    sentence: list[SentenceAgreement] = field(default_factory=list)
    windows: list[WindowAnalysis] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (full precision)."""
        return {"judgments": self.judgments, "level": self.level, "subset": self.subset,
                "systems": list(self.systems), "ranking": None if self.ranking is None else self.ranking.to_dict(),
                "scores": self.scores, "signatures": dict(self.signatures),
                "correlations": [c.to_dict() for c in self.correlations],
                "comparisons": [c.to_dict() for c in self.comparisons],
                "sentence": [s.to_dict() for s in self.sentence], "windows": [w.to_dict() for w in self.windows]}


# --------------------------------------------------------------------------- the one call


def meta_evaluate_judgments(judgments: Judgments | str | os.PathLike, metrics: Any = None, corpus: Any = None, *,
                            scores: Mapping[str, Mapping[str, float]] | None = None, scored: Any = None,
                            options: JudgmentOptions | None = None, jobs: int = 1, progress: Any = None,
                            **settings: Any) -> JudgmentMetaEvaluation:
    """Meta-evaluate metrics against raw human judgments (a :class:`Judgments` or the path of
    an Appraise XML file). The metric side is ``metrics`` (objects or registry texts such as
    ``"green:beta=2"``) scored on ``corpus`` (a :class:`~gecmetrics.Corpus` whose hypotheses
    are named like the judged systems), or a ``scored`` run, or precomputed ``scores``
    ({metric: {system: score}}: system level, intervals over judgments only). ``options``, or
    its fields as keywords: see :class:`JudgmentOptions`. ``jobs`` worker processes (0: one per
    core) and a ``progress`` callback go to :func:`~gecmetrics.run.engine.score_corpus`."""
    if options is not None and settings:
        raise InputError("give options or their fields as keywords, not both")
    settings = options if options is not None else JudgmentOptions(**settings)
    judgments = judgments if isinstance(judgments, Judgments) else read_judgments(judgments)
    systems = subset_systems(judgments.systems, settings.systems)
    columns = None
    if scores is None:
        scored = scored if scored is not None else _score(judgments, systems, metrics, corpus, jobs, progress)
        columns = ScoredColumns.of(scored)
        scores = columns.system_scores()
    elif metrics is not None or corpus is not None or scored is not None:
        raise InputError("give metrics with a corpus, a scored run, or scores; not several")
    for metric_scores in scores.values():
        check_systems(judgments, systems, list(metric_scores), "scores")
    result = JudgmentMetaEvaluation(judgments.source, settings.level, subset_name(settings.systems, judgments.systems),
                                    systems, scores={k: dict(v) for k, v in scores.items()})
    if columns is not None:
        result.signatures = {c.label: str(c.signature) for c in columns.columns}
        result.scales = {c.label: scored.metrics[c.metric_index].scale for c in columns.columns}
    if settings.level == "sentence":
        result.sentence = _sentence_level(judgments, systems, columns, settings)
        return result
    result.ranking = human_ranking(judgments, settings.ranking, **settings.ranking_options())
    _system_level(result, judgments, columns, settings)
    return result


def _score(judgments: Judgments, systems: list[str], metrics: Any, corpus: Any, jobs: int = 1,
           progress: Any = None) -> Any:
    """Score the corpus's hypotheses (after checking them against the judgments)."""
    from ..io.corpus import Corpus
    from ..run.engine import check_metrics, score_corpus
    from ..metrics.registry import resolve_metrics

    if metrics is None or not isinstance(corpus, Corpus):
        raise InputError("give metrics and a Corpus (or a scored run, or scores)")
    check_systems(judgments, systems, list(corpus.hypotheses), "an output file")
    return score_corpus(check_metrics(resolve_metrics(metrics)), corpus, progress=progress, jobs=jobs)


def _resamplings(judgments: Judgments, columns: ScoredColumns | None,
                 settings: JudgmentOptions) -> list[Resampling | None]:
    """One :class:`Resampling` per kind asked for (none without bootstrap resamples)."""
    if settings.bootstrap == 0:
        return [None]
    out: list[Resampling | None] = []
    for kind in settings.resampling:
        if kind == "judgments":
            out.append(Resampling("judgments", settings.bootstrap, settings.seed, settings.unit))
            continue
        if columns is None:
            raise InputError("resampling sentences needs the system outputs (per-sentence statistics), "
                             "not precomputed scores")
        out.append(Resampling("sentences", settings.bootstrap, settings.seed, resamplers=columns.resamplers(),
                              item_rows=item_rows(judgments, settings.src_ids, columns.sentences),
                              sentences=columns.sentences))
    return out


def _system_level(result: JudgmentMetaEvaluation, judgments: Judgments, columns: ScoredColumns | None,
                  settings: JudgmentOptions) -> None:
    """Correlations (per resampling), paired tests and windows."""
    if settings.compare and len(result.scores) < 2:
        raise InputError("paired tests compare two or more metric columns; one was given")
    common = {"ranking": result.ranking, "confidence": settings.confidence}
    for how in _resamplings(judgments, columns, settings):
        result.correlations += correlate_with_judgments(result.scores, judgments, result.systems, how, **common)
        if settings.compare:
            result.comparisons += [compare_metrics(a, b, result.scores, judgments, result.systems, how, **common)
                                   for a, b in combinations(result.scores, 2)]
    if settings.window is not None:
        human = "expected wins" if settings.ranking == "ew" else "trueskill"
        result.windows = [window_analysis(scores, result.ranking.scores, settings.window, result.systems,
                                          metric=label, human=human) for label, scores in result.scores.items()]


def _sentence_level(judgments: Judgments, systems: list[str], columns: ScoredColumns | None,
                    settings: JudgmentOptions) -> list[SentenceAgreement]:
    """SEEDA's sentence-level agreement of every metric column with sentence scores."""
    if columns is None:
        raise InputError("sentence-level meta-evaluation needs the system outputs (sentence scores), "
                         "not precomputed scores")
    rows = item_rows(judgments, settings.src_ids, columns.sentences)
    return [sentence_agreement(columns.sentence_scores(column), judgments, rows, systems, metric=column.label,
                               tie_rule=settings.tie_rule) for column in columns.columns]
