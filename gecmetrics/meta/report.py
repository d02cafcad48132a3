"""Meta-evaluation results as tables (:class:`~gecmetrics.core.table.Table`, rendered by
:mod:`gecmetrics.output.formats`: text, TSV, Markdown, LaTeX), numbers rounded half up; JSON is
each result's ``to_dict()``.

Every table has one header row and only columns for what was computed (intervals only when
resampled, rank ranges only with resamples): a TSV stream holds one table (:data:`TABLES`
names them), text, Markdown and LaTeX hold titled tables one after another.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ..core.table import Table, more_digits, round_half_up, scaled
from ..errors import InputError
from ..stats.rankings import HumanRanking
from .correlations import CORRELATIONS
from .pairwise import PairwiseAnalysis, pairwise_table as pairwise_rows
from .sentence import SentenceAgreement
from .system_level import HUMAN_LABELS, CorrelationComparison, SystemCorrelation
from .windows import WindowAnalysis

TABLES = ("ranking", "correlations", "comparisons", "windows", "sentence", "pairwise")
"""The tables a meta-evaluation prints, by name (``--table``)."""
HUMAN_NAMES = {"ew": "Expected Wins", "ts": "TrueSkill"}


def number(value: float | None, digits: int) -> str:
    """A number rounded half up, ``-`` for an undefined one."""
    return "-" if value is None else round_half_up(value, digits)


def interval(bounds: tuple[float, float], digits: int) -> str:
    """``[low, high]``."""
    return f"[{number(bounds[0], digits)}, {number(bounds[1], digits)}]"


def metric_cell(value: float | None, digits: int, scale: float, rounds_to: int | None = None) -> str:
    """A metric's score as the tables print it: x100 (``scale`` 100) with ``digits``, else as
    it is with two more; at the precision its tool rounds to (``rounds_to``, the metric's) as
    that tool rounds (:func:`~gecmetrics.core.table.scaled`: 0.15625 is 15.62); empty for a
    system without one."""
    if value is None:
        return ""
    return scaled(value, digits if scale == 100 else more_digits(digits, 2), scale, rounds_to=rounds_to)


def ranking_table(ranking: HumanRanking, digits: int = 4, metric_scores: Mapping[str, Mapping[str, float]] = {},
                  scales: Mapping[str, float] = {}, metric_digits: int = 2,
                  rounds_to: Mapping[str, int | None] = {}) -> Table:
    """The human ranking, best first: system, score, and with resamples its rank range and
    cluster (1 = best), then each metric's score of the system (:func:`metric_cell`: x100 for
    a fraction, ``scales``; at its tool's rounding, ``rounds_to``)."""
    resampled = bool(ranking.ranges)
    cluster_of = {s: k + 1 for k, members in enumerate(ranking.clusters) for s in members}
    header = ["system", HUMAN_LABELS.get(ranking.method, ranking.method)] + (["range", "cluster"] if resampled else [])
    rows = []
    for system in ranking.systems:
        row = [system, number(ranking.scores[system], digits)]
        if resampled:
            row += [str(ranking.ranges[system]), str(cluster_of[system])]
        rows.append(row + [metric_cell(scores.get(system), metric_digits, scales.get(label, 1.0), rounds_to.get(label))
                           for label, scores in metric_scores.items()])
    return Table(header + list(metric_scores), rows, left=(0,))


def ranking_title(ranking: HumanRanking) -> str:
    """What the ranking is and how its ranges were made."""
    name = {"ew": f"Expected Wins ({ranking.procedure})", "ts": "TrueSkill (mean mu)"}[ranking.method]
    title = f"Human ranking: {name} of {ranking.source}, {ranking.comparisons} pairwise comparisons"
    if ranking.resamples:
        what = "resamples" if ranking.method == "ew" else "runs"
        title += f"; rank ranges and clusters from {ranking.resamples} {what} (seed {ranking.seed})"
    return title


def correlation_table(results: Sequence[SystemCorrelation], digits: int = 3) -> Table:
    """One row per metric and human score (and resampling): n, each correlation and, when
    resampled, its percentile interval."""
    resampled = any(r.intervals for r in results)
    header = ["metric", "human", "n"] + (["resampling"] if resampled else [])
    for name in CORRELATIONS:
        header += [name] + ([f"{name} CI"] if resampled else [])
    rows = []
    for result in results:
        row = [result.metric, result.human, str(len(result.systems))] + ([result.resampling] if resampled else [])
        for name in CORRELATIONS:
            row.append(number(result.values[name], digits))
            if resampled:
                row.append(interval(result.intervals[name], digits))
        rows.append(row)
    return Table(header, rows, left=(0, 1, 3) if resampled else (0, 1))


def comparison_table(comparisons: Sequence[CorrelationComparison], digits: int = 3) -> Table:
    """One row per pair of metrics (and resampling): per correlation the difference A - B and,
    when resampled, its paired-bootstrap interval and one-sided p-value; Williams' t and p on
    the Pearson correlations."""
    resampled = any(c.intervals for c in comparisons)
    header = ["A", "B", "n"] + (["resampling"] if resampled else [])
    for name in CORRELATIONS:
        header += [f"{name} A-B"] + ([f"{name} CI", f"{name} p"] if resampled else [])
    header += ["Williams t", "Williams p"]
    rows = []
    for comparison in comparisons:
        row = [comparison.metric_a, comparison.metric_b, str(len(comparison.systems))]
        row += [comparison.resampling] if resampled else []
        for name in CORRELATIONS:
            row.append(number(comparison.differences[name], digits))
            if resampled:
                row += [interval(comparison.intervals[name], digits), number(comparison.p_values[name], digits)]
        rows.append(row + [number(comparison.williams.t, digits), number(comparison.williams.p_value, digits)])
    return Table(header, rows, left=(0, 1, 3) if resampled else (0, 1))


def sentence_table(results: Sequence[SentenceAgreement], digits: int = 3) -> Table:
    """One row per metric: pairs, accuracy, Kendall-like tau, metric ties."""
    header = ["metric", "pairs", "accuracy", "kendall", "metric ties"]
    rows = [[r.metric, str(r.pairs), number(r.accuracy, digits), number(r.kendall, digits), str(r.metric_ties)]
            for r in results]
    return Table(header, rows)


def pairwise_table(analyses: PairwiseAnalysis | Sequence[PairwiseAnalysis], digits: int = 3) -> Table:
    """One row per metric and pair of human ranks (better, worse): comparisons, agreements,
    disagreements, metric ties, accuracy."""
    analyses = [analyses] if isinstance(analyses, PairwiseAnalysis) else list(analyses)
    rows = []
    for analysis in analyses:
        header, cells = pairwise_rows(analysis)
        rows += [[analysis.metric, *(str(v) for v in cell[:-1]), number(cell[-1], digits)] for cell in cells]
    return Table(["metric", *(header if analyses else [])], rows)


def window_table(analyses: WindowAnalysis | Sequence[WindowAnalysis], digits: int = 3) -> Table:
    """One row per metric and window: the human ranks it spans, Pearson, Spearman."""
    analyses = [analyses] if isinstance(analyses, WindowAnalysis) else list(analyses)
    rows = [[a.metric, f"{w.start}-{w.end}", number(w.pearson, digits), number(w.spearman, digits)]
            for a in analyses for w in a.windows]
    return Table(["metric", "ranks", "pearson", "spearman"], rows, left=(0, 1))


@dataclass
class Section:
    """A named, titled table."""

    title: str
    table: Table
    name: str = ""


def result_sections(result: Any, digits: int = 3) -> list[Section]:
    """The tables of a :class:`~gecmetrics.meta.system_level.MetaEvalResult` or a
    :class:`~gecmetrics.meta.evaluate.JudgmentMetaEvaluation`, the signatures of the metric
    columns under the last (not in TSV)."""
    over = f"{len(result.systems)} systems (subset {result.subset})"
    if hasattr(result, "human_table"):
        sections = [Section(f"System-level correlations with human table {result.human_table} over {over}",
                            correlation_table(result.correlations, digits), "correlations")]
    elif result.level == "sentence":
        sections = [Section(f"Sentence-level agreement with the pairwise judgments of {result.judgments} over {over}",
                            sentence_table(result.sentence, digits), "sentence")]
        if result.pairwise:
            sections.append(Section("Agreement per pair of human ranks (pairwise analysis)",
                                    pairwise_table(result.pairwise, digits), "pairwise"))
    else:
        sections = _judged_system_sections(result, digits, over)
    sections[-1].table.notes = [f"{label}: {signature}" for label, signature in result.signatures.items()]
    return sections


def _judged_system_sections(result: Any, digits: int, over: str) -> list[Section]:
    ranking = result.ranking
    sections = [Section(ranking_title(ranking), ranking_table(ranking, digits + 1, result.scores, result.scales,
                                                              max(digits - 1, 0), result.rounds_to), "ranking")]
    metric = "; metrics ranked by the wins of their sentence scores" if result.sentence_ranking else ""
    sections.append(Section(f"System-level correlations with {HUMAN_NAMES[ranking.method]} over {over}{metric}",
                            correlation_table(result.correlations, digits), "correlations"))
    if result.comparisons:
        sections.append(Section("Paired tests: does metric A agree with the humans better than metric B? "
                                "(one-sided p-values)", comparison_table(result.comparisons, digits), "comparisons"))
    if result.windows:
        sections.append(Section(f"Windows of {result.windows[0].window} systems adjacent in the human ranking",
                                window_table(result.windows, digits), "windows"))
    return sections


def select_sections(sections: list[Section], name: str | None, fmt: str) -> tuple[list[Section], str | None]:
    """The sections to print: the one named, or in TSV the main one (correlations, or the
    sentence level's), with a note naming the others; every section otherwise."""
    if name is not None:
        chosen = [s for s in sections if s.name == name]
        if not chosen:
            raise InputError(f"no table {name!r} here; this meta-evaluation has: "
                             f"{', '.join(s.name for s in sections)}")
        return chosen, None
    if fmt != "tsv" or len(sections) == 1:
        return sections, None
    main = next(s for s in sections if s.name in ("correlations", "sentence"))
    others = [s.name for s in sections if s is not main]
    return [main], f"--tsv prints one table ({main.name}); --table {'|'.join(others)} prints another"


def as_dicts(results: Any) -> Any:
    """``to_dict()`` of one result or of each of a list."""
    if isinstance(results, (list, tuple)):
        return [r.to_dict() for r in results]
    return results.to_dict()
