"""The meta-evaluation results as :class:`~gecmetrics.core.table.Table` objects (text, TSV,
Markdown, LaTeX), numbers rounded half up, and a titled sequence of them for the commands
(``gecmetric rank``, ``gecmetric meta-eval --judgments``). JSON is each result's ``to_dict()``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ..core.table import Table, round_half_up, scaled
from .correlation import CORRELATIONS, CorrelationComparison, SystemCorrelation
from ..stats.rankings import HumanRanking
from .sentence import SentenceAgreement
from .windows import WindowAnalysis

HUMAN_LABELS = {"ew": "EW", "ts": "TS"}


def number(value: float | None, digits: int) -> str:
    """A number rounded half up, ``-`` for an undefined one."""
    return "-" if value is None else round_half_up(value, digits)


def interval(bounds: tuple[float, float] | None, digits: int) -> str:
    """``[low, high]``, empty without bounds."""
    if bounds is None:
        return ""
    return f"[{number(bounds[0], digits)}, {number(bounds[1], digits)}]"


def ranking_table(ranking: HumanRanking, digits: int = 4, metric_scores: Mapping[str, Mapping[str, float]] = {},
                  scales: Mapping[str, float] = {}, metric_digits: int = 2) -> Table:
    """The human ranking, best first: cluster number, system, score, rank range (with
    resamples), then each metric's score of the system (x its scale: 100 for n-gram metrics)."""
    cluster_of = {s: k + 1 for k, members in enumerate(ranking.clusters) for s in members}
    header = ["#", "system", HUMAN_LABELS.get(ranking.method, ranking.method), "range", *metric_scores]
    rows = []
    for system in ranking.systems:
        metric_cells = [scaled(scores[system], metric_digits, scales.get(label, 1)) if system in scores else ""
                        for label, scores in metric_scores.items()]
        rows.append([str(cluster_of.get(system, "")), system, number(ranking.scores[system], digits),
                     str(ranking.ranges.get(system, "")), *metric_cells])
    return Table(header, rows, left=(1,))


def ranking_title(ranking: HumanRanking) -> str:
    """What the ranking is and how its ranges were made."""
    name = {"ew": f"Expected Wins ({ranking.procedure})", "ts": "TrueSkill (mean mu)"}[ranking.method]
    title = f"Human ranking: {name} of {ranking.source}, {ranking.comparisons} pairwise comparisons"
    if ranking.resamples:
        what = "resamples" if ranking.method == "ew" else "runs"
        title += f"; rank ranges and clusters from {ranking.resamples} {what} (seed {ranking.seed})"
    return title


def correlation_table(results: Sequence[SystemCorrelation], digits: int = 3) -> Table:
    """One row per metric (and resampling): each correlation and, when resampled, its
    percentile interval."""
    resampled = any(r.intervals for r in results)
    header = ["metric", "n"] + (["resampling"] if resampled else [])
    for name in CORRELATIONS:
        header += [name] + ([f"{name} CI"] if resampled else [])
    rows = []
    for result in results:
        row = [result.metric, str(len(result.systems))] + ([result.resampling or ""] if resampled else [])
        for name in CORRELATIONS:
            row.append(number(result.values[name], digits))
            if resampled:
                row.append(interval(result.intervals.get(name), digits))
        rows.append(row)
    return Table(header, rows, left=(0, 2) if resampled else (0,))


def comparison_table(comparisons: Sequence[CorrelationComparison], digits: int = 3) -> Table:
    """Metric A minus metric B, per correlation: the difference, its paired-bootstrap interval
    and one-sided p-value; Williams' t and p on the Pearson rows."""
    header = ["A", "B", "correlation", "A - B", "CI", "p (bootstrap)", "Williams t", "p (Williams)", "resampling"]
    rows = []
    for comparison in comparisons:
        for name in CORRELATIONS:
            williams = [number(comparison.williams.t, digits), number(comparison.williams.p_value, digits)] \
                if name == "pearson" else ["", ""]
            p_value = comparison.p_values.get(name)
            rows.append([comparison.metric_a, comparison.metric_b, name,
                         number(comparison.differences[name], digits),
                         interval(comparison.intervals.get(name), digits),
                         "" if p_value is None else number(p_value, digits), *williams,
                         comparison.resampling or ""])
    return Table(header, rows, left=(0, 1, 2, 8))


def sentence_table(results: Sequence[SentenceAgreement], digits: int = 3) -> Table:
    """One row per metric: pairs, accuracy, Kendall-like tau, metric ties."""
    header = ["metric", "pairs", "accuracy", "kendall", "metric ties"]
    rows = [[r.metric, str(r.pairs), number(r.accuracy, digits), number(r.kendall, digits), str(r.metric_ties)]
            for r in results]
    return Table(header, rows)


def window_table(analyses: WindowAnalysis | Sequence[WindowAnalysis], digits: int = 3) -> Table:
    """One row per metric and window: the human ranks it spans, Pearson, Spearman."""
    analyses = [analyses] if isinstance(analyses, WindowAnalysis) else list(analyses)
    rows = [[a.metric, f"{w.start}-{w.end}", number(w.pearson, digits), number(w.spearman, digits)]
            for a in analyses for w in a.windows]
    return Table(["metric", "ranks", "pearson", "spearman"], rows, left=(0, 1))


@dataclass
class Section:
    """A titled table."""

    title: str
    table: Table


def render_sections(sections: Sequence[Section], fmt: str = "text") -> str:
    """Titled tables one after another: the title on its own line (``# `` in TSV, ``% `` in
    LaTeX, bold in Markdown), a blank line between sections."""
    prefix = {"tsv": "# ", "latex": "% "}.get(fmt, "")
    parts = []
    for section in sections:
        title = f"**{section.title}**\n" if fmt == "markdown" else f"{prefix}{section.title}"
        parts.append(f"{title}\n{section.table.render(fmt)}")
    return "\n\n".join(parts)


def as_dicts(results: Any) -> Any:
    """``to_dict()`` of one result or of each of a list."""
    if isinstance(results, (list, tuple)):
        return [r.to_dict() for r in results]
    return results.to_dict()
