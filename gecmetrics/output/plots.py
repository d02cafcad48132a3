"""Figures of a meta-evaluation (optional ``plot`` extra, matplotlib), written as PNG, PDF or
SVG by the file's extension:

* the scatter of each metric against the human scores, one panel per metric (and human score),
  in the scale of the tables (x100 for metrics printed x100), with the least-squares line, the
  correlations of the table printed on the panel and the systems labelled where their labels do
  not overlap (a small repelling layout of our own);
* the window analysis: Pearson and Spearman over the window start, one colour per metric, the
  legend beside the plot;
* the heat map of the pairwise analysis (agreement per pair of human ranks), one panel per metric.
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import numpy as np

from ..core.checks import check_name_text, check_score
from ..core.table import round_half_up
from ..errors import InputError
from ..io.text import check_path
from ..meta.correlations import CORRELATIONS, correlation
from ..meta.pairwise import PairwiseAnalysis
from ..meta.windows import WindowAnalysis

FIGURE_SUFFIXES = (".png", ".pdf", ".svg")
SYMBOLS = {"pearson": "r", "spearman": "ρ", "kendall": "τ"}
HUMAN_NAMES = {"ew": "Expected Wins", "ts": "TrueSkill", "EW": "Expected Wins", "TS": "TrueSkill"}
_DPI = 150


def _pyplot():
    try:
        import matplotlib
    except ImportError:
        raise InputError("plots need matplotlib: pip install 'gecmetrics[plot]'") from None
    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    return plt


def _plain(text: Any) -> str:
    """Text from the input (a system, metric, human score or file name, a title) as matplotlib
    draws it as it is: a ``$`` escaped, since an even number of them made the text mathtext (a
    name ``$x^$`` or ``$\\frac$`` was a ValueError traceback when the figure was drawn, and
    ``$x$`` was drawn as a formula)."""
    return str(text).replace("$", r"\$")


def check_figure(path: str | os.PathLike) -> str:
    """A figure can be written at ``path`` (.png, .pdf or .svg, in an existing folder we may
    write to) with matplotlib installed; checked before the work that the figure shows."""
    path = _check_path(path)
    _pyplot()
    return path


def _check_path(path: str | os.PathLike) -> str:
    path = check_path(path, "figure")  # (None was a TypeError from os.fspath)
    if os.path.splitext(path)[1].lower() not in FIGURE_SUFFIXES:
        raise InputError(f"a figure is written as {', '.join(FIGURE_SUFFIXES[:-1])} or {FIGURE_SUFFIXES[-1]}, "
                         f"not {path!r}")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise InputError("the folder of the figure does not exist", path)
    if not os.access(folder, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise InputError("cannot write the figure here: permission denied", path)
    if os.path.isdir(path):
        raise InputError("cannot write the figure: a folder has that name", path)
    return path


def _save(figure: Any, path: str) -> str:
    """Write the figure (format from the extension); an OS error names the path."""
    return _save_together([(figure, path)])[0]


def _save_together(figures: Sequence[tuple[Any, str]]) -> list[str]:
    """Write the figures, each to its path (format from the extension), complete or absent
    together, as every command's outputs (:func:`..io.atomic.output_group`): a disk that fills
    at the second leaves the first as it was. Closes the figures; an OS error names its path."""
    from ..io.atomic import output_group

    plt = _pyplot()
    written = None
    try:
        with output_group() as group:
            for figure, path in figures:
                written = path
                with group.output(path, binary=True) as handle:
                    figure.savefig(handle, dpi=_DPI, bbox_inches="tight",
                                   format=os.path.splitext(path)[1][1:].lower() or None)
    except OSError as error:
        raise InputError(f"cannot write the figure: {error.strerror or error}", error.filename or written) from None
    finally:
        for figure, _ in figures:
            plt.close(figure)
    return [path for _, path in figures]


# --------------------------------------------------------------------------- scatter


@dataclass
class ScatterPanel:
    """One panel of the scatter: a metric column (x, in the scale of the tables) against a
    human score (y), the correlations printed on it."""

    metric: str
    human: str
    systems: list[str]
    x: list[float]
    y: list[float]
    values: Mapping[str, float] | None = None
    scale: float = 1.0
    lower_is_better: bool = False


def scatter_panel(metric: str, metric_scores: Mapping[str, float], human: str, human_scores: Mapping[str, float],
                  scale: float = 1.0, values: Mapping[str, float] | None = None,
                  lower_is_better: bool = False) -> ScatterPanel:
    """The panel of the systems with both scores: x = ``scale`` x the metric score (100 for
    metrics printed x100), y = the human score; ``values``: the correlations to print
    (computed here from the scores, oriented, when not given and defined)."""
    for what, scores in (("metric scores", metric_scores), ("human scores", human_scores)):
        if not isinstance(scores, Mapping):  # (a list was an AttributeError, None a TypeError)
            raise InputError(f"a scatter plot takes the {what} as a mapping system -> score, "
                             f"got {type(scores).__name__}")
    systems = [s for s in metric_scores if s in human_scores]
    for name in (metric, human, *systems):  # (matplotlib could not draw it: a TypeError from FreeType)
        check_name_text(str(name), "a scatter plot")
    if len(systems) < 2:
        raise InputError(f"a scatter plot needs at least 2 systems with both scores ({metric})")
    # a nan drawn where no correlation checked it (2 systems), a text or None (a ValueError or TypeError)
    x = [scale * check_score(metric_scores[s], f"{metric}: the score of {s}") for s in systems]
    y = [check_score(human_scores[s], f"{human}: the score of {s}") for s in systems]
    for axis, coordinates in ((f"{metric} (x)", x), (f"{human} (y)", y)):
        # the axis's span with its margins must be a finite number: scores as far apart as -1e308 and
        # 1e308 were a ValueError traceback from matplotlib's ticks ("arange: cannot compute length")
        if not math.isfinite(1.25 * (max(coordinates) - min(coordinates))):
            raise InputError(f"a scatter plot cannot draw {axis}: its scores span {min(coordinates):g} to "
                             f"{max(coordinates):g}, too far apart for a figure's axis")
    if values is None and len(systems) >= 3 and len(set(x)) > 1 and len(set(y)) > 1:
        sign = -1.0 if lower_is_better else 1.0
        values = {name: correlation(name, [sign * v for v in x], y) for name in CORRELATIONS}
    return ScatterPanel(metric, human, systems, x, y, values, scale, lower_is_better)


def plot_scatter(metric_scores: Mapping[str, float] | Mapping[str, Mapping[str, float]],
                 human_scores: Mapping[str, float], path: str | os.PathLike, *, metric: str = "metric",
                 human: str = "human", scales: Mapping[str, float] | None = None, title: str | None = None) -> str:
    """Each system as a labelled point (metric score, human score) with the least-squares
    line, one panel per metric (``metric_scores``: {system: score}, or {metric: {system:
    score}}), x in the scale of the tables (``scales``: metric -> 100 or 1), the correlations
    printed on each panel; written to ``path`` (.png, .pdf or .svg). Returns the path."""
    path = _check_path(path)
    if not isinstance(metric_scores, Mapping):  # (a list or None was an AttributeError)
        raise InputError(f"plot_scatter takes the metric scores as a mapping system -> score (or metric -> "
                         f"{{system: score}}), got {type(metric_scores).__name__}")
    if scales is not None and not isinstance(scales, Mapping):
        raise InputError(f"plot_scatter takes the scales as a mapping metric -> 100 or 1, got {type(scales).__name__}")
    first = next(iter(metric_scores.values()), None)
    by_metric = dict(metric_scores) if isinstance(first, Mapping) else {metric: metric_scores}
    panels = [scatter_panel(label, scores, human, human_scores, (scales or {}).get(label, 1.0))
              for label, scores in by_metric.items()]
    return draw_scatter(panels, path, title)


def draw_scatter(panels: Sequence[ScatterPanel], path: str, title: str | None = None) -> str:
    """The panels side by side (at most 3 a row) under ``title``, written to ``path``."""
    return _save(_scatter_figure(panels, title), path)


def _scatter_figure(panels: Sequence[ScatterPanel], title: str | None) -> Any:
    plt = _pyplot()
    columns = min(len(panels), 3)
    rows = -(-len(panels) // columns)
    figure, axes = plt.subplots(rows, columns, figsize=(4.6 * columns, 4.2 * rows), squeeze=False, dpi=_DPI)
    cells = [axes[k // columns][k % columns] for k in range(rows * columns)]
    for cell, panel in zip(cells, panels):
        _draw_panel(cell, panel)
    for cell in cells[len(panels):]:
        cell.set_visible(False)
    if title:
        figure.suptitle(_plain(title), fontsize=11)
    figure.tight_layout()
    for cell, panel in zip(cells, panels):
        _label_points(cell, panel.systems, panel.x, panel.y)
    return figure


def _draw_panel(axes: Any, panel: ScatterPanel) -> None:
    x, y = np.array(panel.x), np.array(panel.y)
    axes.scatter(x, y, s=18, color="tab:blue", zorder=3)
    if np.ptp(x) > 0:
        slope, intercept = np.polyfit(x, y, 1)
        line = np.linspace(x.min(), x.max(), 2)
        axes.plot(line, slope * line + intercept, color="tab:red", linewidth=1, zorder=2)
    axes.margins(x=0.12, y=0.12)
    if panel.values:
        text = "\n".join(f"{SYMBOLS[name]} = {round_half_up(panel.values[name], 3)}" for name in CORRELATIONS
                         if name in panel.values)
        axes.text(0.03, 0.97, f"{text}\nn = {len(panel.systems)}", transform=axes.transAxes, va="top", ha="left",
                  fontsize=8, bbox={"boxstyle": "round", "facecolor": "white", "edgecolor": "0.7", "alpha": 0.9})
    suffix = " (x100)" if panel.scale == 100 else ""
    metric, human = _plain(panel.metric), _plain(panel.human)
    axes.set_xlabel(f"{metric}{suffix}" + (", lower is better" if panel.lower_is_better else ""))
    axes.set_ylabel(HUMAN_NAMES.get(panel.human, human))
    axes.set_title(metric if panel.human in HUMAN_NAMES else f"{metric} / {human}", fontsize=10)
    axes.grid(alpha=0.4)


def _label_points(axes: Any, names: Sequence[str], x: Sequence[float], y: Sequence[float],
                  iterations: int = 400) -> None:
    """Label every point with a name where the labels overlap neither each other nor a point
    nor the correlation box (in display pixels, within the axes): each label takes the first
    free place of eight around its own point (right, upper right, ... at growing distances);
    labels left overlapping are then pushed out of every overlap along the shorter way. A label
    that ended away from its point gets a thin leader line."""
    names = [_plain(name) for name in names]
    figure = axes.figure
    renderer = figure.canvas.get_renderer()
    axes.set_xlim(axes.get_xlim())  # freeze the limits: the layout below is in display pixels
    axes.set_ylim(axes.get_ylim())
    points = axes.transData.transform(np.column_stack([x, y]))
    sizes = []
    for name in names:
        probe = axes.text(0, 0, name, fontsize=7)
        extent = probe.get_window_extent(renderer)
        sizes.append((extent.width + 4.0, extent.height + 2.0))
        probe.remove()
    sizes = np.array(sizes)
    box = axes.get_window_extent(renderer)
    radius = 4.0 * figure.dpi / 72.0
    obstacles = [(p[0] - radius, p[1] - radius, p[0] + radius, p[1] + radius) for p in points]
    for child in axes.texts:  # the correlation box
        extent = child.get_window_extent(renderer)
        obstacles.append((extent.x0 - 4, extent.y0 - 4, extent.x1 + 4, extent.y1 + 4))
    frame = (box.x0, box.y0, box.x1, box.y1)
    taken = list(obstacles)
    centres = np.array([_free_place(point, size, radius, taken, frame) for point, size in zip(points, sizes)])
    # each round compares every two labels and every label with every obstacle, one NumPy call each: 400 rounds
    # of 100 systems took a minute, of 500 systems half an hour; the rounds are cut to LABEL_CHECKS comparisons
    # (every round up to 25 systems)
    comparisons = len(names) * (len(names) - 1) // 2 + len(names) * len(obstacles)
    for _ in range(max(1, min(iterations, LABEL_CHECKS // max(1, comparisons)))):
        moved = False
        for i in range(len(names)):
            for j in range(i + 1, len(names)):
                moved |= _push_apart(centres, sizes, i, j)
            for obstacle in obstacles:
                moved |= _push_out(centres, sizes, i, obstacle)
        low = np.array([box.x0, box.y0]) + sizes / 2
        high = np.array([box.x1, box.y1]) - sizes / 2
        centres = np.clip(centres, low, np.maximum(low, high))
        if not moved:
            break
    scale = 72.0 / figure.dpi
    for name, xy, point, centre, size in zip(names, zip(x, y), points, centres, sizes):
        offset = (centre - point) * scale
        gap = np.maximum(np.abs(centre - point) - size / 2, 0.0)
        arrow = {"arrowstyle": "-", "color": "0.5", "linewidth": 0.5} if np.hypot(*gap) > 2 * radius else None
        axes.annotate(name, xy, xytext=tuple(offset), textcoords="offset points",
                      ha="center", va="center", fontsize=7, arrowprops=arrow, zorder=4,
                      bbox={"boxstyle": "round,pad=0.1", "facecolor": "white", "edgecolor": "none", "alpha": 0.75})


LABEL_CHECKS = 400_000
"""The comparisons of labels (with each other and with the points and the correlation box) that
:func:`_label_points` makes at most, in all its rounds of pushing overlapping labels apart."""

_PLACES = ((1, 0), (1, 1), (1, -1), (-1, 1), (-1, 0), (-1, -1), (0, 1), (0, -1))
"""Where a label goes around its point, in order of preference (x, y directions)."""


def _free_place(point: np.ndarray, size: np.ndarray, radius: float, taken: list, frame: tuple) -> np.ndarray:
    """The centre of the first place around ``point`` where a ``size`` box overlaps nothing
    ``taken`` (which it then joins) and stays in ``frame``; up and to the right otherwise."""
    for distance in (radius + 2.0, 2.0 * radius + 6.0, 3.0 * radius + 12.0):
        for sx, sy in _PLACES:
            centre = point + np.array([sx * (size[0] / 2 + distance), sy * (size[1] / 2 + distance * 0.6)])
            placed = (*(centre - size / 2), *(centre + size / 2))
            inside = frame[0] <= placed[0] and frame[1] <= placed[1] and placed[2] <= frame[2] and placed[3] <= frame[3]
            if inside and not any(_boxes_overlap(placed, other) for other in taken):
                taken.append(placed)
                return centre
    return point + size / 2 + radius


def _boxes_overlap(a: tuple, b: tuple) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _push_apart(centres: np.ndarray, sizes: np.ndarray, i: int, j: int) -> bool:
    delta = centres[i] - centres[j]
    overlap = (sizes[i] + sizes[j]) / 2 - np.abs(delta)
    if overlap[0] <= 0 or overlap[1] <= 0:
        return False
    axis = int(np.argmin(overlap))
    direction = np.sign(delta[axis]) or (1.0 if i < j else -1.0)
    step = overlap[axis] / 2 + 0.5
    centres[i, axis] += direction * step
    centres[j, axis] -= direction * step
    return True


def _push_out(centres: np.ndarray, sizes: np.ndarray, i: int, obstacle: tuple[float, float, float, float]) -> bool:
    x0, y0, x1, y1 = obstacle
    half = sizes[i] / 2
    left, right = centres[i] - half, centres[i] + half
    overlap_x = min(right[0], x1) - max(left[0], x0)
    overlap_y = min(right[1], y1) - max(left[1], y0)
    if overlap_x <= 0 or overlap_y <= 0:
        return False
    middle = np.array([(x0 + x1) / 2, (y0 + y1) / 2])
    axis = 0 if overlap_x < overlap_y else 1
    direction = np.sign(centres[i, axis] - middle[axis]) or 1.0
    centres[i, axis] += direction * ((overlap_x, overlap_y)[axis] + 0.5)
    return True


# --------------------------------------------------------------------------- windows


def plot_windows(analyses: WindowAnalysis | Sequence[WindowAnalysis], path: str | os.PathLike, *,
                 title: str | None = None) -> str:
    """Pearson (solid) and Spearman (dashed) of each window (x: the human rank where it
    starts), one colour per metric, the legends beside the plot; written to ``path`` (.png,
    .pdf or .svg). Returns the path."""
    path = _check_path(path)
    return _save(_windows_figure(analyses, title), path)


def _windows_figure(analyses: WindowAnalysis | Sequence[WindowAnalysis], title: str | None) -> Any:
    analyses = [analyses] if isinstance(analyses, WindowAnalysis) else analyses
    if isinstance(analyses, (str, bytes)) or not isinstance(analyses, Sequence) \
            or not all(isinstance(a, WindowAnalysis) for a in analyses):  # (None, 5, "x": a TypeError or AttributeError)
        raise InputError(f"expected a WindowAnalysis (or a list of them), got {type(analyses).__name__}")
    analyses = list(analyses)
    if not analyses:
        raise InputError("no window analysis to plot")
    plt = _pyplot()
    from matplotlib.lines import Line2D

    figure, axes = plt.subplots(figsize=(7.0, 4.0), dpi=_DPI)
    styles = {"pearson": ("-", "o"), "spearman": ("--", "s")}
    colours = plt.get_cmap("tab10").colors
    for k, analysis in enumerate(analyses):
        starts = [w.start for w in analysis.windows]
        for name, (line, marker) in styles.items():
            values = [np.nan if getattr(w, name) is None else getattr(w, name) for w in analysis.windows]
            axes.plot(starts, values, linestyle=line, marker=marker, markersize=4, color=colours[k % len(colours)])
    k = analyses[0].window
    axes.set_xlabel(f"best human rank in the window (windows of {k} systems)")
    axes.set_ylabel("correlation with " + HUMAN_NAMES.get(analyses[0].human, _plain(analyses[0].human)))
    axes.set_xticks(range(1, max(w.start for a in analyses for w in a.windows) + 1))
    axes.set_ylim(-1.05, 1.05)
    axes.axhline(0.0, color="grey", linewidth=0.5)
    axes.grid(alpha=0.4)
    metrics = axes.legend([Line2D([], [], color=colours[k % len(colours)], linewidth=2) for k in range(len(analyses))],
                          [_plain(a.metric) for a in analyses], title="metric", fontsize="small", loc="upper left",
                          bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0)
    axes.add_artist(metrics)
    # add_artist clips an artist to the axes, and the tight bounding box of the figure leaves out what is clipped
    # to the axes: the metrics' legend beside the plot was cut at the right edge of the correlations' legend
    # under it ("GREEN b2 [TS]" as "GREEN b2 [", its title "metric" as "me")
    metrics.set_clip_on(False)
    axes.legend([Line2D([], [], color="0.3", linestyle=line, marker=marker) for line, marker in styles.values()],
                ["Pearson", "Spearman"], title="correlation", fontsize="small", loc="lower left",
                bbox_to_anchor=(1.02, 0.0), borderaxespad=0.0)
    axes.set_title(_plain(title) if title else f"Correlations over windows of {k} systems adjacent in the human "
                   "ranking", fontsize=10)
    return figure


# --------------------------------------------------------------------------- pairwise heat map


def plot_pairwise(analysis: PairwiseAnalysis | Sequence[PairwiseAnalysis], path: str | os.PathLike) -> str:
    """The heat map of accuracies (rows: better rank, columns: worse rank, each cell
    annotated), one panel per analysis, written to ``path`` (.png, .pdf or .svg; needs
    matplotlib). Returns the path."""
    path = _check_path(path)
    analyses = [analysis] if isinstance(analysis, PairwiseAnalysis) else list(analysis)
    if not analyses or not all(isinstance(a, PairwiseAnalysis) for a in analyses):
        raise InputError("expected a PairwiseAnalysis (or a list of them)")
    plt = _pyplot()
    shapes = [a.heatmap() for a in analyses]
    width = max(len(columns) for _, columns, _ in shapes)
    height = max(len(rows) for rows, _, _ in shapes)
    figure, axes = plt.subplots(1, len(analyses), figsize=((1.0 + 0.9 * width) * len(analyses) + 1.0,
                                                            0.8 + 0.8 * height), squeeze=False, dpi=_DPI)
    for panel, one, (rows, columns, matrix) in zip(axes[0], analyses, shapes):
        image = panel.imshow(np.ma.masked_invalid(matrix), cmap="coolwarm", vmin=0.0, vmax=1.0)
        for r in range(len(rows)):
            for c in range(len(columns)):
                if not np.isnan(matrix[r, c]):
                    panel.text(c, r, f"{matrix[r, c]:.2f}", ha="center", va="center", fontsize=9)
        panel.set_xticks(range(len(columns)), [str(x) for x in columns])
        panel.set_yticks(range(len(rows)), [str(x) for x in rows])
        panel.xaxis.tick_top()
        panel.xaxis.set_label_position("top")
        panel.set_xlabel("worse human rank")
        panel.set_ylabel("better human rank")
        panel.set_title(f"{_plain(one.metric)}: agreement per human rank pair", fontsize=10, pad=24)
    figure.colorbar(image, ax=list(axes[0]), fraction=0.046, pad=0.04)
    return _save(figure, path)


# --------------------------------------------------------------------------- a result's figures


def plot_meta_evaluation(result: Any, path: str | os.PathLike) -> list[str]:
    """The figures of a meta-evaluation result (against a human table or raw judgments): the
    scatter of every metric column against the human scores at ``path``; with windows, the
    windows at ``path`` and the scatter beside it (``NAME-scatter.png``); at the sentence level,
    the pairwise heat map. Returns the paths written."""
    path = _check_path(path)
    if not hasattr(result, "correlations") and not hasattr(result, "pairwise"):
        raise InputError(f"plot_meta_evaluation draws a meta-evaluation result (meta_evaluate, "
                         f"meta_evaluate_judgments), got {type(result).__name__}")
    if getattr(result, "level", "system") == "sentence":
        if not result.pairwise:
            raise InputError("the sentence level's figure is the heat map of the pairwise analysis (pairwise=True)")
        return [plot_pairwise(result.pairwise, path)]
    panels, title = result_scatter(result)
    if not getattr(result, "windows", None):
        return [draw_scatter(panels, path, title)]
    scatter = _check_path(windows_scatter_path(path))
    windows_title = (f"Correlations over windows of {result.windows[0].window} systems adjacent in the human "
                     f"ranking ({os.path.basename(result.judgments)})")
    windows = _windows_figure(result.windows, windows_title)
    try:
        scatter_figure = _scatter_figure(panels, title)
    except BaseException:
        _pyplot().close(windows)
        raise
    return _save_together([(windows, path), (scatter_figure, scatter)])  # both or neither


def windows_scatter_path(path: str | os.PathLike) -> str:
    """Where the scatter goes beside the windows figure at ``path``: ``NAME-scatter.png``."""
    stem, suffix = os.path.splitext(os.fspath(path))
    return f"{stem}-scatter{suffix}"


def result_scatter(result: Any) -> tuple[list[ScatterPanel], str]:
    """The scatter panels of a system-level result (one per metric column and human score,
    x in the scale of its tables, the table's correlations) and the figure's title."""
    panels, seen = [], set()
    for c in result.correlations:
        if (c.metric, c.human) in seen:
            continue
        seen.add((c.metric, c.human))
        human_scores = result.human_scores[c.human] if hasattr(result, "human_scores") else result.ranking.scores
        panels.append(scatter_panel(c.metric, {s: result.scores[c.metric][s] for s in c.systems}, c.human,
                                    human_scores, result.scales.get(c.metric, 1.0), c.values,
                                    not result.higher_is_better.get(c.metric, True)))
    over = f"{len(result.systems)} systems, subset {result.subset}"
    if hasattr(result, "human_table"):
        return panels, f"Metric scores against human table {result.human_table} ({over})"
    return panels, (f"Metric scores against {HUMAN_NAMES[result.ranking.method]} of "
                    f"{os.path.basename(result.judgments)} ({over})")
