"""Window analysis (SEEDA's ``utils/window_analysis_system.py``; gec-metrics'
``window_analysis_system``): correlations over windows of k systems adjacent in the human
ranking, to see whether a metric separates the top systems as well as it separates all.

Systems are sorted by human score, best first (equal human scores: the later system of the
given order first, as SEEDA's reversed ``np.argsort``); window i holds ranks i .. i+k-1."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import numpy as np

from ..core.checks import check_score
from ..errors import InputError
from ..io.text import check_named, check_system_names
from .correlations import MIN_SYSTEMS, pearson, spearman


@dataclass(frozen=True)
class WindowCorrelation:
    """Pearson and Spearman over the systems ranked ``start`` .. ``end`` (1-based) by humans;
    None where undefined (a window whose scores are all equal)."""

    start: int
    end: int
    systems: list[str]
    pearson: float | None
    spearman: float | None


@dataclass
class WindowAnalysis:
    """All windows of one size for one metric."""

    metric: str
    human: str
    window: int
    systems: list[str]  # in human order, best first
    windows: list[WindowCorrelation] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"metric": self.metric, "human": self.human, "window": self.window, "systems": list(self.systems),
                "windows": [dict(w.__dict__, systems=list(w.systems)) for w in self.windows]}


def _defined(function, x: Sequence[float], y: Sequence[float]) -> float | None:
    try:
        return function(x, y)
    except InputError:
        return None


def window_analysis(metric_scores: Mapping[str, float], human_scores: Mapping[str, float], window: int,
                    systems: Sequence[str] | None = None, *, metric: str = "metric",
                    human: str = "human") -> WindowAnalysis:
    """Correlations of the metric with the human scores over every window of ``window``
    systems adjacent in the human order; ``systems`` (default: all with a human score, in
    code-point order) are the systems considered (SEEDA's script: its ``base`` 12). Every score
    of those systems must be a finite number (as :func:`~gecmetrics.meta.system_level.meta_evaluate`
    requires): a nan, a text or a list is an InputError, not a window without a correlation."""
    for name, scores in (("metric_scores", metric_scores), ("human_scores", human_scores)):
        check_named(scores, name, "its score")
    order = sorted(human_scores) if systems is None else check_system_names(systems)
    unjudged = sorted(set(metric_scores) - set(human_scores)) if systems is None else []
    if unjudged:
        raise InputError(f"systems with a metric score but no human score: {', '.join(unjudged)}")
    missing = [s for s in order if s not in metric_scores or s not in human_scores]
    if missing:
        raise InputError(f"systems without a metric or human score: {', '.join(missing)}")
    if not isinstance(window, (int, np.integer)) or isinstance(window, bool) \
            or not MIN_SYSTEMS <= window <= len(order):
        raise InputError(f"the window must be an integer from {MIN_SYSTEMS} to the number of systems "
                         f"({len(order)}), got {window!r}")
    metric_of = {s: check_score(metric_scores[s], f"metric {metric!r}, system {s!r}") for s in order}
    human_of = {s: check_score(human_scores[s], f"human score {human!r}, system {s!r}") for s in order}
    human_vector = np.array([human_of[s] for s in order])
    ranked = [order[k] for k in np.argsort(human_vector, kind="stable")[::-1]]
    result = WindowAnalysis(metric, human, int(window), ranked)
    for start in range(len(ranked) - window + 1):
        members = ranked[start:start + window]
        x = [metric_of[s] for s in members]
        y = [human_of[s] for s in members]
        result.windows.append(WindowCorrelation(start + 1, start + window, members,
                                                _defined(pearson, x, y), _defined(spearman, x, y)))
    return result


def undefined_windows_note(analysis: WindowAnalysis) -> str | None:
    """One line naming the windows whose correlations are undefined (printed ``-``): the metric
    or the human scores are all equal there (SEEDA's script prints ``nan``); None if there are none."""
    ranks = [f"{w.start}-{w.end}" for w in analysis.windows if w.pearson is None or w.spearman is None]
    if not ranks:
        return None
    return (f"windows {', '.join(ranks)} of {analysis.metric}: the scores are all equal there, so the "
            "correlation is undefined (printed -)")
