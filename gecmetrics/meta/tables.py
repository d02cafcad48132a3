"""Text rendering of the meta-evaluation results for the CLI (``gecmetric rank``,
``gecmetric meta-eval --judgments``): prettytable tables or TSV, numbers rounded half up;
JSON is each result's ``to_dict()``."""
from __future__ import annotations

import json
from typing import Any, Sequence

from prettytable import PrettyTable

from ..report import round_half_up
from .correlation import CORRELATIONS, CorrelationComparison, SystemCorrelation
from .rankings import HumanRanking
from .sentence import SentenceAgreement
from .windows import WindowAnalysis


def _render(header: list[str], rows: list[list[str]], as_tsv: bool, left: Sequence[str] = ()) -> str:
    if as_tsv:
        return "\n".join("\t".join(row) for row in [header] + rows)
    table = PrettyTable(header)
    table.align = "r"
    for column in left:
        table.align[column] = "l"
    table.add_rows(rows)
    return table.get_string()


def _number(value: float | None, digits: int) -> str:
    return "-" if value is None else round_half_up(value, digits)


def ranking_table(ranking: HumanRanking, digits: int = 4, as_tsv: bool = False) -> str:
    """The human ranking, best first: cluster number, system, score, rank range."""
    cluster_of = {s: k + 1 for k, members in enumerate(ranking.clusters) for s in members}
    header = ["#", "system", ranking.method.upper(), "range"]
    rows = [[str(cluster_of.get(s, "")), s, _number(ranking.scores[s], digits), str(ranking.ranges.get(s, ""))]
            for s in ranking.systems]
    return _render(header, rows, as_tsv, ["system"])


def _interval_text(result: SystemCorrelation, name: str, digits: int) -> str:
    if name not in result.intervals:
        return ""
    low, high = result.intervals[name]
    return f"[{_number(low, digits)}, {_number(high, digits)}]"


def correlation_table(results: Sequence[SystemCorrelation], digits: int = 3, as_tsv: bool = False) -> str:
    """One row per metric: each correlation and, when resampled, its interval."""
    header = ["metric", "n"]
    for name in CORRELATIONS:
        header += [name, f"{name} CI"]
    rows = []
    for result in results:
        row = [result.metric, str(len(result.systems))]
        for name in CORRELATIONS:
            row += [_number(result.values[name], digits), _interval_text(result, name, digits)]
        rows.append(row)
    return _render(header, rows, as_tsv, ["metric"])


def comparison_table(comparison: CorrelationComparison, digits: int = 3, as_tsv: bool = False) -> str:
    """Metric A minus metric B per correlation: difference, interval, paired-bootstrap p, and
    Williams' t and p on the Pearson row."""
    header = ["correlation", "A - B", "CI", "p (bootstrap)", "Williams t", "p (Williams)"]
    rows = []
    for name in CORRELATIONS:
        low, high = comparison.intervals[name]
        williams = [_number(comparison.williams.t, digits), _number(comparison.williams.p_value, digits)] \
            if name == "pearson" else ["", ""]
        rows.append([name, _number(comparison.differences[name], digits),
                     f"[{_number(low, digits)}, {_number(high, digits)}]",
                     _number(comparison.p_values[name], digits), *williams])
    return _render(header, rows, as_tsv, ["correlation"])


def sentence_table(results: Sequence[SentenceAgreement], digits: int = 3, as_tsv: bool = False) -> str:
    """One row per metric: pairs, accuracy, Kendall-like tau, metric ties."""
    header = ["metric", "pairs", "accuracy", "kendall", "metric ties"]
    rows = [[r.metric, str(r.pairs), _number(r.accuracy, digits), _number(r.kendall, digits), str(r.metric_ties)]
            for r in results]
    return _render(header, rows, as_tsv, ["metric"])


def window_table(analysis: WindowAnalysis, digits: int = 3, as_tsv: bool = False) -> str:
    """One row per window: human ranks, Pearson, Spearman."""
    header = ["ranks", "pearson", "spearman"]
    rows = [[f"{w.start}-{w.end}", _number(w.pearson, digits), _number(w.spearman, digits)]
            for w in analysis.windows]
    return _render(header, rows, as_tsv, ["ranks"])


def as_json(results: Any) -> str:
    """JSON of one result or a list of results (each with ``to_dict()``)."""
    if isinstance(results, (list, tuple)):
        return json.dumps([r.to_dict() for r in results], indent=2)
    return json.dumps(results.to_dict(), indent=2)
