"""Meta-evaluation of metrics against raw human judgments, in one call on the metric protocol.

One :func:`~gecmetrics.run.engine.score_corpus` run gives every system's per-sentence statistics
under every metric; the corpus scores, the sentence scores and the sentence bootstrap all come
from them (:mod:`gecmetrics.meta.metric_scores`), so any registered metric (a user's too) gets
correlations, intervals, paired tests, rankings from its sentence scores, sentence-level
agreement, pairwise analysis and window analysis. :func:`meta_evaluate_judgments` is the one
call; its result is a :class:`JudgmentMetaEvaluation` with ``to_dict()``.
"""
from __future__ import annotations

import os
import warnings
from dataclasses import dataclass, field, fields
from itertools import combinations
from typing import Any, Mapping, Sequence

import numpy as np

from ..core.checks import check_count, check_flag, check_fraction, check_keywords, check_progress, check_seed
from ..errors import InputError, kind_of, plural
from ..io.judgments import EXCLUDED_USERS, MAX_SRC_ID, Judgments, read_judgments
from ..io.text import check_sequence, check_system_names, first_repeated
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
from ..stats.sentence_rankings import SENTENCE_RANKING_METHODS
from .metric_scores import MetricSide, metric_side, provided_systems
from .pairwise import PairwiseAnalysis, pairwise_analysis
from .resampling import RESAMPLING_UNITS, RESAMPLINGS, Resampling
from .sentence import TIE_RULES, SentenceAgreement, rows_of_src_ids, sentence_agreement, warn_shared_translations
from .system_level import HUMAN_LABELS, CorrelationComparison, SystemCorrelation, compare_metrics, \
    correlate_with_judgments
from .systems import choose_systems
from .windows import WindowAnalysis, undefined_windows_note, window_analysis

LEVELS = ("system", "sentence")


# --------------------------------------------------------------------------- items and sentences


def item_rows(judgments: Judgments, src_ids: int | Sequence[int] | str | os.PathLike | None,
              sentences: int | None = None) -> np.ndarray:
    """The corpus row of every ranking item: ``src_ids`` is the src-id of the corpus's first
    line (0 for GJG15, 1 for SEEDA's full-corpus ids), or the src-id of every corpus line (a
    list, or a file of one per line: SEEDA's subset ``LINES``; each once and each judged), one
    per sentence of a corpus of ``sentences`` when that is given."""
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
        raise InputError(f"{plural(len(src_ids), 'src-id')} for a corpus of {plural(sentences, 'sentence')}: "
                         "one per corpus line is needed", where)
    return rows_of_src_ids(judgments, src_ids, path=where)


def read_src_ids(path: str) -> list[int]:
    """A file of one integer per line: the src-id of each corpus line."""
    from ..io.text import ascii_integer, read_lines

    values = []
    for number, line in enumerate(read_lines(path), start=1):
        value = ascii_integer(line) if len(line.strip()) <= 20 else None
        if value is None:
            raise InputError(f"expected one integer src-id per line, got {line!r}", path, number)
        if not 0 <= value <= MAX_SRC_ID:
            raise InputError(f"src-id {value} is outside 0 to {MAX_SRC_ID:,} (gecmetrics.io.judgments.MAX_SRC_ID)",
                             path, number)
        values.append(value)
    return values


# --------------------------------------------------------------------------- options and result


@dataclass(frozen=True)
class JudgmentOptions:
    """What :func:`meta_evaluate_judgments` computes (each checked once, here; an option that
    would do nothing with the others is an error)."""

    ranking: str = "ew"
    """``ew`` (Expected Wins) or ``ts`` (TrueSkill, optional extra ``trueskill``)."""
    ew_procedure: str = "plain"
    """``plain`` (GJG15's EW.pl) or ``bootstrap-mean`` (the Makefile's, SEEDA's files)."""
    systems: str | tuple[str, ...] | None = None
    """Subset: base, +INPUT, +fluency, all, or names (default: see :mod:`gecmetrics.meta.systems`)."""
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
    sentence_ranking: str | None = None
    """``ew``/``ts``: correlate each metric's ranking by sentence-score wins, not its corpus scores."""
    pairwise: bool = False
    """Sentence level: also the agreement per pair of human ranks (gec-metrics' pairwise analysis)."""

    def __post_init__(self) -> None:
        _choose("ranking method", self.ranking, RANKING_METHODS)
        _choose("Expected Wins procedure", self.ew_procedure, EW_METHODS)
        _choose("level", self.level, LEVELS)
        _choose("tie rule", self.tie_rule, TIE_RULES)
        _choose("resampling unit", self.unit, RESAMPLING_UNITS)
        if self.sentence_ranking is not None:
            _choose("ranking from sentence scores", self.sentence_ranking, SENTENCE_RANKING_METHODS)
        resampling = (self.resampling,) if isinstance(self.resampling, str) else \
            tuple(check_sequence(self.resampling, "resampling", f"kinds ({', '.join(RESAMPLINGS)})"))
        if self.systems is not None and not isinstance(self.systems, str):
            object.__setattr__(self, "systems", tuple(check_system_names(self.systems)))
        if not resampling:
            raise InputError(f"resampling needs at least one kind ({', '.join(RESAMPLINGS)}): none would give no "
                             "correlation", "resampling")
        for kind in resampling:
            _choose("resampling", kind, RESAMPLINGS)
        repeated = first_repeated(resampling)
        if repeated is not None:  # (each correlation was given twice)
            raise InputError(f"resampling {repeated!r} given twice")
        object.__setattr__(self, "resampling", resampling)
        if self.ranking == "ts":
            check_count(self.bootstrap, "bootstrap (--bootstrap N: the TrueSkill runs)", 0, MAX_TS_RUNS,
                        "gecmetrics.stats.rankings.MAX_TS_RUNS")
        else:
            check_count(self.bootstrap, "bootstrap (--bootstrap N)", 0, MAX_RESAMPLES,
                        "gecmetrics.stats.rankings.MAX_RESAMPLES")
        check_seed(self.seed, "seed (--seed)")
        check_flag(self.compare, "compare")
        check_flag(self.pairwise, "pairwise")
        check_fraction(self.confidence, "the confidence level")
        self._check_combinations()

    def _check_combinations(self) -> None:
        """Options that would be ignored are errors instead (``seed``, ``confidence`` and ``unit``
        where nothing is drawn or no judgment is resampled: a value other than the default, which
        cannot be told from the default given)."""
        if self.level == "sentence":
            system_level = [name for name, on in (("window analysis", self.window is not None),
                                                  ("bootstrap intervals", self.bootstrap > 0),
                                                  ("paired tests", self.compare),
                                                  ("a ranking from sentence scores", self.sentence_ranking),
                                                  ("the human ranking (ranking='ts')", self.ranking != "ew"),
                                                  ("the Expected Wins procedure", self.ew_procedure != "plain"))
                            if on]
            if system_level:
                raise InputError(f"{system_level[0]} is system-level: it does not go with the sentence level")
        else:
            if self.tie_rule != "seeda":
                raise InputError("the tie rule is for the sentence level (level='sentence')")
            if self.pairwise:
                raise InputError("the pairwise analysis is sentence-level (level='sentence')")
        if self.resampling != ("judgments",) and self.bootstrap == 0:
            raise InputError(f"resampling {' and '.join(map(repr, self.resampling))} needs a number of bootstrap "
                             "resamples (bootstrap=N)")
        if self.ranking == "ts" and self.ew_procedure != "plain":
            raise InputError("the Expected Wins procedure is for ranking='ew': TrueSkill has none")
        drawn = self.ranking != "ew" or self.ew_procedure != "plain" or self.bootstrap > 0
        if self.seed != 0 and not drawn:
            raise InputError("seed does nothing here: nothing is drawn without bootstrap resamples, ranking='ts' or "
                             "ew_procedure='bootstrap-mean'")
        if self.confidence != DEFAULT_CONFIDENCE and not drawn:
            raise InputError("confidence does nothing here: no interval or rank range is made without bootstrap "
                             "resamples, ranking='ts' or ew_procedure='bootstrap-mean'")
        if self.unit != "pair" and (self.bootstrap == 0 or "judgments" not in self.resampling):
            raise InputError(f"unit={self.unit!r} does nothing here: it chooses what a bootstrap of the judgments "
                             "resamples (bootstrap resamples with resampling 'judgments')")
        if self.src_ids is not None and self.level == "system" and "sentences" not in self.resampling:
            raise InputError("src-ids match the judgments to corpus lines: they are for the sentence level and "
                             "sentence resampling, and would do nothing here")
        if self.sentence_ranking is not None and "sentences" in self.resampling:
            raise InputError("resampling sentences rescored corpus scores: it does not go with a ranking from "
                             "sentence scores")

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
    correlations (one per metric column and resampling), paired tests, windows, sentence-level
    agreement and pairwise analysis, with the metric columns' scores (as printed) and
    signatures, and notes and warnings about the systems."""

    judgments: str
    level: str
    subset: str
    systems: list[str]
    ranking: HumanRanking | None = None
    scores: dict[str, dict[str, float]] = field(default_factory=dict)
    signatures: dict[str, str] = field(default_factory=dict)
    scales: dict[str, float] = field(default_factory=dict)
    """How each column is printed: x100 (n-gram metrics) or as a fraction (1)."""
    rounds_to: dict[str, int | None] = field(default_factory=dict)
    """The decimals to which each column's metric's tool rounds its scores (``Metric.rounds_to``:
    the ranking table prints them as it does); a column not there has none."""
    higher_is_better: dict[str, bool] = field(default_factory=dict)
    correlations: list[SystemCorrelation] = field(default_factory=list)
    comparisons: list[CorrelationComparison] = field(default_factory=list)
    sentence: list[SentenceAgreement] = field(default_factory=list)
    pairwise: list[PairwiseAnalysis] = field(default_factory=list)
    windows: list[WindowAnalysis] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    sentence_ranking: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (full precision)."""
        return {"judgments": self.judgments, "level": self.level, "subset": self.subset,
                "systems": list(self.systems), "ranking": None if self.ranking is None else self.ranking.to_dict(),
                "sentence_ranking": self.sentence_ranking, "scores": self.scores,
                "signatures": dict(self.signatures), "correlations": [c.to_dict() for c in self.correlations],
                "comparisons": [c.to_dict() for c in self.comparisons],
                "sentence": [s.to_dict() for s in self.sentence], "pairwise": [p.to_dict() for p in self.pairwise],
                "windows": [w.to_dict() for w in self.windows], "notes": list(self.notes),
                "warnings": list(self.warnings)}


# --------------------------------------------------------------------------- the one call


def meta_evaluate_judgments(judgments: Judgments | str | os.PathLike, metrics: Any = None, corpus: Any = None, *,
                            scores: Mapping[str, Mapping[str, float]] | None = None, scored: Any = None,
                            options: JudgmentOptions | None = None, jobs: int = 1, progress: Any = None,
                            ranking_progress: Any = None, **settings: Any) -> JudgmentMetaEvaluation:
    """Meta-evaluate metrics against raw human judgments (a :class:`Judgments` or the path of
    an Appraise XML file). The metric side is ``metrics`` (objects or registry texts such as
    ``"green:beta=2"``) scored on ``corpus`` (a :class:`~gecmetrics.Corpus` whose hypotheses
    are named like the judged systems), or a ``scored`` run, or precomputed ``scores``
    ({metric: {system: score}}: system level, intervals over judgments only). Judged systems
    without an output are left out with a note (an error when ``systems`` names them); an
    output of a system the judgments do not rank is an error. ``options``, or its fields as
    keywords: see :class:`JudgmentOptions`; a path is read without the user ``admin``'s items at
    the system level (as GJG15's scripts read it), with them at the sentence level (as SEEDA's
    ``corr_sentence.py`` and gec-metrics do). ``jobs`` worker processes (0: one per core) and a
    ``progress`` callback go to :func:`~gecmetrics.run.engine.score_corpus`; ``ranking_progress``
    hears of the TrueSkill runs (``ranking="ts"``)."""
    if options is not None and settings:
        raise InputError("give options or their fields as keywords, not both")
    check_keywords(settings, [f.name for f in fields(JudgmentOptions)], "meta_evaluate_judgments")
    if options is not None and not isinstance(options, JudgmentOptions):
        raise InputError(f"options must be JudgmentOptions (or its fields as keywords), got {kind_of(options)}")
    settings = options if options is not None else JudgmentOptions(**settings)
    _check_callbacks(progress, ranking_progress)
    judgments = judgments if isinstance(judgments, Judgments) else read_judgments(
        judgments, EXCLUDED_USERS if settings.level == "system" else ())  # (as GJG15's scripts; SEEDA's keep admin)
    provided, named, what = provided_systems(scores, metrics, corpus, scored)
    unjudged = [s for s in named if s not in judgments.systems]
    if unjudged:
        having = "an output file" if what == "an output file" else "scores"
        raise InputError(f"systems the judgments do not rank have {having}: {', '.join(unjudged)}; "
                         f"they rank: {', '.join(judgments.systems)}", judgments.source)
    judgments, choice, alone = _chosen_systems(judgments, settings, provided, what)
    side = metric_side(scores, metrics, corpus, scored, systems=choice.systems, jobs=jobs, progress=progress)
    result = JudgmentMetaEvaluation(judgments.source, settings.level, choice.subset, choice.systems,
                                    notes=choice.notes + side.notes, warnings=choice.warnings)
    if settings.level == "sentence":
        _sentence_level(result, judgments, side, settings)
    else:
        ranking_options = settings.ranking_options()
        if settings.ranking == "ts" and ranking_progress is not None:
            ranking_options["progress"] = ranking_progress
        with warnings.catch_warnings(record=True) as caught:  # (few resamples: said with the result's, once
            warnings.simplefilter("always")                 # every check has passed)
            result.ranking = human_ranking(judgments, settings.ranking, **ranking_options)
        result.warnings += [str(warning.message) for warning in caught] + ([] if alone is None else [alone])
        if settings.sentence_ranking is not None:
            side = side.ranked_by_sentences(settings.sentence_ranking, choice.systems)
        _system_level(result, judgments, side, settings)
    result.scores, result.signatures = side.scores, side.signatures
    result.scales, result.rounds_to, result.higher_is_better = side.scales, side.rounds_to, side.higher_is_better
    result.sentence_ranking = side.ranking
    return result


def _chosen_systems(judgments: Judgments, settings: JudgmentOptions, provided: Any,
                    what: str) -> tuple[Judgments, Any, str | None]:
    """The judgments and systems to meta-evaluate (:func:`choose_systems`); at the system level
    only the systems a ranking places (:meth:`Judgments.compared`), with a warning naming the
    chosen ones it cannot place (None when there are none)."""
    where, system_level = os.path.basename(judgments.source), settings.level == "system"
    choice = choose_systems(judgments.systems, settings.systems, provided, what=what, where=where,
                            system_level=system_level)
    if not system_level:
        return judgments, choice, None
    alone, compared = judgments.uncompared_note(among=choice.systems), judgments.compared()
    if alone is not None:
        choice = choose_systems(compared.systems, settings.systems, provided, what=what, where=where)
    return compared, choice, alone


def _check_callbacks(progress: Any, ranking_progress: Any) -> None:
    """``progress`` and ``ranking_progress``: a function or None, checked whether or not anything
    is scored or run (as ``jobs`` is: ``progress=5`` was taken with ``scores=``)."""
    check_progress(progress)
    check_progress(ranking_progress, "ranking_progress")


def _resamplings(judgments: Judgments, side: MetricSide, settings: JudgmentOptions) -> list[Resampling | None]:
    """One :class:`Resampling` per kind asked for (none without bootstrap resamples)."""
    if settings.bootstrap == 0:
        return [None]
    out: list[Resampling | None] = []
    for kind in settings.resampling:
        if kind == "judgments":
            out.append(Resampling("judgments", settings.bootstrap, settings.seed, settings.unit))
            continue
        columns = side.need_columns("resampling sentences")
        out.append(Resampling("sentences", settings.bootstrap, settings.seed, resamplers=columns.resamplers(),
                              item_rows=item_rows(judgments, settings.src_ids, columns.sentences),
                              sentences=columns.sentences))
    return out


def _system_level(result: JudgmentMetaEvaluation, judgments: Judgments, side: MetricSide,
                  settings: JudgmentOptions) -> None:
    """Correlations (per resampling), paired tests and windows, of the oriented scores."""
    scores = side.oriented(result.systems)
    if settings.compare and len(scores) < 2:
        raise InputError("paired tests compare two or more metric columns; one was given")
    common = {"ranking": result.ranking, "confidence": settings.confidence}
    for how in _resamplings(judgments, side, settings):
        result.correlations += correlate_with_judgments(scores, judgments, result.systems, how, **common)
        result.notes += [note for correlation in result.correlations[-len(scores):]
                         if (note := undefined_resamples_note(correlation))]
        if settings.compare:
            result.comparisons += [compare_metrics(a, b, scores, judgments, result.systems, how, **common)
                                   for a, b in combinations(scores, 2)]
    if settings.window is not None:
        result.windows = [window_analysis(by_system, result.ranking.scores, settings.window, result.systems,
                                          metric=label, human=HUMAN_LABELS[settings.ranking])
                          for label, by_system in scores.items()]
        result.notes += [note for analysis in result.windows if (note := undefined_windows_note(analysis))]


def undefined_resamples_note(correlation: SystemCorrelation) -> str | None:
    """One line saying how many resamples had no defined correlation (all scores equal in the
    resample) and were left out of the interval (and of the paired tests' p-values); None if none."""
    left_out = {name: count for name, count in correlation.undefined.items() if count}
    if not left_out:
        return None
    counts = ", ".join(f"{name} {count}" for name, count in left_out.items())
    return (f"{correlation.metric} ({correlation.resampling}): resamples with all scores equal have no correlation "
            f"and are left out of the intervals and p-values, of {correlation.resamples}: {counts}")


def _sentence_level(result: JudgmentMetaEvaluation, judgments: Judgments, side: MetricSide,
                    settings: JudgmentOptions) -> None:
    """SEEDA's sentence-level agreement of every metric column (and, with ``pairwise``, per
    pair of human ranks), from its oriented sentence scores."""
    columns = side.need_columns("sentence-level meta-evaluation")
    rows = item_rows(judgments, settings.src_ids, columns.sentences)
    for k, column in enumerate(columns.columns):
        sentence_scores = columns.sentence_scores(column, "sentence-level meta-evaluation")
        if k == 0:
            warn_shared_translations(sentence_scores, judgments, rows, column.label)
        result.sentence.append(sentence_agreement(sentence_scores, judgments, rows, result.systems,
                                                  metric=column.label, tie_rule=settings.tie_rule))
        if settings.pairwise:
            result.pairwise.append(pairwise_analysis(sentence_scores, judgments, rows, result.systems,
                                                     metric=column.label, tie_rule=settings.tie_rule))

