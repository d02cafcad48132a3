"""What ``gecmetric llm`` prints: each system's mean score with how many of its sentences were
scored and left unscored, and the line about the (sentence, system) pairs without a score."""
from __future__ import annotations

from typing import Any, Mapping

from ...core.table import Table, round_half_up


def means_table(metric: Any, results: Mapping[str, Any], digits: int) -> Table:
    """A row per system: its mean (1-5, at ``digits`` decimals rounded half up), then the counts of
    its scored and unscored sentences."""
    rows = [[name, round_half_up(result.score, digits), str(result.scored), str(result.unscored)]
            for name, result in results.items()]
    return Table(["system", metric.column_labels()[0], "scored", "unscored"], rows)


def unscored_note(unscored: int, sentence: bool, grouping: str) -> str:
    """The stderr line for ``unscored`` (sentence, system) pairs without a score ('' for none)."""
    if not unscored:
        return ""
    shown = "their cells are empty (null in JSON)" if sentence else "each system's mean is over its scored ones"
    why = " (grouping gec-metrics scores 5 hypotheses a source)" if grouping != "all" else ""
    return f"gecmetric llm: {unscored} (sentence, system) pairs have no score; {shown}{why}"
