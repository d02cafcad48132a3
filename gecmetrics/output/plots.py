"""Figures (optional ``plot`` extra, matplotlib): the window analysis as lines over the window
start, and a scatter of metric against human scores with the least-squares line."""
from __future__ import annotations

import os
from typing import Any, Mapping, Sequence

import numpy as np

from ..errors import InputError
from ..meta.pairwise import PairwiseAnalysis
from ..meta.windows import WindowAnalysis

FIGURE_SUFFIXES = (".png", ".pdf")


def _pyplot():
    try:
        import matplotlib
    except ImportError:
        raise InputError("plots need matplotlib: pip install 'gecmetrics[plot]'") from None
    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    return plt


def check_figure(path: str | os.PathLike) -> str:
    """A figure can be written at ``path`` (.png or .pdf, existing folder) with matplotlib
    installed; checked before the work that the figure shows."""
    path = _check_path(path)
    _pyplot()
    return path


def _check_path(path: str | os.PathLike) -> str:
    path = os.fspath(path)
    if os.path.splitext(path)[1].lower() not in FIGURE_SUFFIXES:
        raise InputError(f"a figure is written as {' or '.join(FIGURE_SUFFIXES)}, not {path!r}")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise InputError("the folder of the figure does not exist", path)
    return path


def plot_windows(analyses: WindowAnalysis | Sequence[WindowAnalysis], path: str | os.PathLike) -> str:
    """Pearson and Spearman of each window (x: the human rank where it starts), one pair of
    lines per analysis; written to ``path`` (.png or .pdf). Returns the path."""
    path = _check_path(path)
    analyses = [analyses] if isinstance(analyses, WindowAnalysis) else list(analyses)
    if not analyses:
        raise InputError("no window analysis to plot")
    plt = _pyplot()
    figure, axes = plt.subplots(figsize=(6.4, 4.0))
    for analysis in analyses:
        starts = [w.start for w in analysis.windows]
        for name in ("pearson", "spearman"):
            values = [np.nan if getattr(w, name) is None else getattr(w, name) for w in analysis.windows]
            axes.plot(starts, values, marker="o", label=f"{analysis.metric} {name}")
    axes.set_xlabel(f"first human rank of the window (k = {analyses[0].window})")
    axes.set_ylabel("correlation")
    axes.set_xticks(range(1, max(w.start for a in analyses for w in a.windows) + 1))
    axes.axhline(0.0, color="grey", linewidth=0.5)
    axes.grid(alpha=0.5)
    axes.legend(fontsize="small")
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)
    return path


def plot_scatter(metric_scores: Mapping[str, float] | Mapping[str, Mapping[str, float]],
                 human_scores: Mapping[str, float], path: str | os.PathLike, *, metric: str = "metric",
                 human: str = "human") -> str:
    """Each system as a labelled point (metric score, human score) with the least-squares
    line, one panel per metric (``metric_scores``: {system: score}, or {metric: {system:
    score}}); written to ``path`` (.png or .pdf). Returns the path."""
    path = _check_path(path)
    first = next(iter(metric_scores.values()), None)
    panels = dict(metric_scores) if isinstance(first, Mapping) else {metric: metric_scores}
    for label, scores in panels.items():
        if len([s for s in scores if s in human_scores]) < 2:
            raise InputError(f"a scatter plot needs at least 2 systems with both scores ({label})")
    plt = _pyplot()
    figure, axes = plt.subplots(1, len(panels), figsize=(5.0 * len(panels), 4.0), squeeze=False)
    for panel, (label, scores) in zip(axes[0], panels.items()):
        _scatter_panel(panel, scores, human_scores, label, human)
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)
    return path


def _scatter_panel(axes, metric_scores: Mapping[str, float], human_scores: Mapping[str, float], metric: str,
                   human: str) -> None:
    systems = [s for s in metric_scores if s in human_scores]
    x = np.array([float(metric_scores[s]) for s in systems])
    y = np.array([float(human_scores[s]) for s in systems])
    axes.scatter(x, y)
    for system, xs, ys in zip(systems, x, y):
        axes.annotate(system, (xs, ys), fontsize="x-small", xytext=(3, 3), textcoords="offset points")
    if np.ptp(x) > 0:
        slope, intercept = np.polyfit(x, y, 1)
        line = np.linspace(x.min(), x.max(), 2)
        axes.plot(line, slope * line + intercept, color="tab:red", linewidth=1)
    axes.set_xlabel(metric)
    axes.set_ylabel(human)
    axes.grid(alpha=0.5)


def plot_meta_evaluation(result: Any, path: str | os.PathLike) -> list[str]:
    """The figures of a :class:`~gecmetrics.meta.evaluate.JudgmentMetaEvaluation`: the scatter
    of every metric column against the human scores at ``path``; with windows, the windows at
    ``path`` and the scatter beside it (``NAME-scatter.png``). Returns the paths written."""
    if result.ranking is None:
        raise InputError("figures are system-level: there is nothing to plot at the sentence level")
    path = os.fspath(path)
    human = "Expected Wins" if result.ranking.method == "ew" else "TrueSkill"
    scores = {label: {s: v for s, v in by_system.items() if s in result.systems}
              for label, by_system in result.scores.items()}
    if not result.windows:
        return [plot_scatter(scores, result.ranking.scores, path, human=human)]
    stem, suffix = os.path.splitext(path)
    return [plot_windows(result.windows, path),
            plot_scatter(scores, result.ranking.scores, f"{stem}-scatter{suffix}", human=human)]


def plot_pairwise(analysis: PairwiseAnalysis, path: str | os.PathLike) -> str:
    """The heat map of accuracies (rows: better rank, columns: worse rank, each cell annotated)
    written to ``path`` (.png or .pdf; needs matplotlib). Returns the path."""
    path = _check_path(path)
    if not isinstance(analysis, PairwiseAnalysis):
        raise InputError(f"expected a PairwiseAnalysis, got {type(analysis).__name__}")
    plt = _pyplot()
    rows, columns, matrix = analysis.heatmap()
    figure, axes = plt.subplots(figsize=(1.0 + 0.9 * len(columns), 0.8 + 0.8 * len(rows)))
    image = axes.imshow(np.ma.masked_invalid(matrix), cmap="coolwarm", vmin=0.0, vmax=1.0)
    for r in range(len(rows)):
        for c in range(len(columns)):
            if not np.isnan(matrix[r, c]):
                axes.text(c, r, f"{matrix[r, c]:.2f}", ha="center", va="center", fontsize=9)
    axes.set_xticks(range(len(columns)), [str(x) for x in columns])
    axes.set_yticks(range(len(rows)), [str(x) for x in rows])
    axes.xaxis.tick_top()
    axes.xaxis.set_label_position("top")
    axes.set_xlabel("worse human rank")
    axes.set_ylabel("better human rank")
    axes.set_title(f"{analysis.metric}: agreement per human rank pair", fontsize=10, pad=24)
    figure.colorbar(image, ax=axes, fraction=0.046, pad=0.04)
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)
    return path
