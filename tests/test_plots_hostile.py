"""Hostile input to the plots (a sweep, 2026-12-05): names with ``$`` (mathtext), scores no figure
can draw, a scatter of many systems, the windows figure's legend."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from gecmetrics.errors import InputError
from gecmetrics.meta.windows import WindowAnalysis, WindowCorrelation
from gecmetrics.output import plots
from gecmetrics.output.plots import plot_scatter, plot_windows
from tests.conftest import run_cli, write_files
from tests.test_report import REFERENCES, SOURCES


# A system, metric or human-score name holding two ``$`` (a file name ``$x^$``, a scores
# file's ``$\\frac$``) was drawn by matplotlib as mathtext: a formula in place of the name, or a
# ValueError traceback (exit 1) when the figure was drawn. Every name is drawn as it is.
def test_names_with_dollars_are_drawn_as_they_are(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    human = tmp_path / "human.tsv"
    human.write_text("system\tew\n$\\frac$\t0.1\nB\t0.5\nC\t0.9\nD\t0.3\n", encoding="utf-8")
    scores = tmp_path / "scores.tsv"
    scores.write_text("system\t$x^$\n$\\frac$\t0.1\nB\t0.2\nC\t0.3\nD\t0.25\n", encoding="utf-8")
    code, _, err = run_cli("meta-eval", "--human", str(human), "--scores", str(scores),
                           "--plot", str(tmp_path / "fig.svg"))
    assert code == 0 and "Traceback" not in err, err
    drawn = (tmp_path / "fig.svg").read_text(encoding="utf-8")
    assert "$\\frac$" in drawn and "$x^$" in drawn  # (the SVG names each text it draws in a comment)
    names = {"$\\bad$": 0.1, "$x$": 0.2, "C": 0.3}
    path = plot_scatter(names, {"$\\bad$": 0.2, "$x$": 0.1, "C": 0.9}, tmp_path / "api.png", metric="$\\sqrt$",
                        title="$\\nope$")
    assert Path(path).is_file()


# The scatter's public functions took scores they cannot draw: -1e308 and 1e308 (a human
# table's column) were a ValueError traceback from matplotlib's ticks in ``meta-eval --plot``
# (exit 1); a nan of two systems was drawn without a word; a text, None, a list or a name
# holding a lone surrogate were a ValueError, TypeError or AttributeError. Each is an
# InputError, one line and exit 2 in the command.
@pytest.mark.filterwarnings("ignore")  # (numpy: the least-squares line of 5e307s is poorly conditioned)
def test_scores_a_figure_cannot_draw_are_an_input_error(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    human = {"A": 0.1, "B": 0.5, "C": 0.9}
    for metric, humans in [({"A": -1e308, "B": 1e308, "C": 0.3}, human),
                           ({"A": 0.1, "B": 0.2, "C": 0.3}, {"A": -1e308, "B": 1e308, "C": 0.3}),
                           ({"A": float("nan"), "B": 0.2}, human),
                           ({"A": "x", "B": 0.2, "C": 0.3}, human),
                           ({"A": None, "B": 0.2, "C": 0.3}, human),
                           ([0.1, 0.2, 0.3], human),
                           ({"A": 0.1, "B": 0.2, "C": 0.3}, [0.1, 0.5, 0.9]),
                           ({"A\ud800": 0.1, "B": 0.2, "C": 0.3}, {"A\ud800": 0.1, "B": 0.5, "C": 0.9})]:
        with pytest.raises(InputError):
            plot_scatter(metric, humans, tmp_path / "fig.png")
        assert not (tmp_path / "fig.png").exists()
    with pytest.raises(InputError):
        plot_scatter({"A": 0.1, "B": 0.2, "C": 0.3}, human, tmp_path / "fig.png", scales=[100])
    for analyses in (None, 5, "x"):
        with pytest.raises(InputError):
            plot_windows(analyses, tmp_path / "w.png")
    assert Path(plot_scatter({"A": 5e307, "B": -5e307, "C": 0.3}, human, tmp_path / "fig.png")).is_file()

    f = write_files(tmp_path, {"src": SOURCES, "ref": REFERENCES[0], "A": REFERENCES[1], "B": SOURCES,
                               "C": REFERENCES[0],
                               "human.tsv": "system\tew\nA\t-1e308\nB\t1e308\nC\t0\n"})
    code, out, err = run_cli("meta-eval", "--human", f["human.tsv"], "-s", f["src"], "-r", f["ref"], "-o", f["A"],
                             f["B"], f["C"], "--metrics", "gleu", "--plot", str(tmp_path / "cli.png"), "--tsv")
    error = err.strip().splitlines()[-1]  # (after the warning: 3 systems only)
    assert code == 2 and out == "" and "Traceback" not in err and "too far apart" in error, err
    assert not (tmp_path / "cli.png").exists()


# The scatter's labels were pushed apart in 400 rounds, each comparing every two labels and
# every label with every point, one NumPy call each: a scatter of 100 systems (a scores file of
# checkpoints) took a minute, of 500 systems half an hour. The rounds are cut to a bound of
# comparisons (every round up to 25 systems, as before).
BOUND = 500_000  # plots.LABEL_CHECKS (400,000) and the first round's comparisons


def test_a_scatter_of_many_systems_makes_a_bounded_number_of_comparisons(tmp_path: Path, monkeypatch) -> None:
    pytest.importorskip("matplotlib")
    calls = [0]

    def counted(function):
        def call(*args):
            calls[0] += 1
            if calls[0] > BOUND:
                raise AssertionError(f"more than {BOUND} comparisons of labels")
            return function(*args)
        return call

    monkeypatch.setattr(plots, "_push_apart", counted(plots._push_apart))
    monkeypatch.setattr(plots, "_push_out", counted(plots._push_out))
    rng = random.Random(0)
    names = [f"system-{k:03d}" for k in range(60)]
    path = plots.plot_scatter({name: rng.random() for name in names}, {name: rng.random() for name in names},
                              tmp_path / "many.png")
    assert Path(path).is_file() and 0 < calls[0] <= BOUND


# The windows figure's legend of metrics (beside the plot, over the legend of correlations) was
# cut at the right edge of the legend under it: matplotlib's tight bounding box leaves out an
# artist clipped to the axes, as ``add_artist`` clips it. A metric label longer than "Spearman"
# ("GREEN b2 [TS]", "m2_f05_gjg15") lost its end, and the legend's title "metric" its last
# letters. The figure now holds the whole legend: a longer label makes a wider figure.
def _width(path: Path, label: str) -> int:
    import matplotlib.image

    windows = [WindowCorrelation(k, k + 3, ["a", "b", "c", "d"], 0.1 * k, 0.05 * k) for k in range(1, 6)]
    plot_windows([WindowAnalysis(label, "ew", 4, list("abcdefgh"), windows)], path)
    return matplotlib.image.imread(path).shape[1]


def test_the_windows_figure_holds_its_whole_legend_of_metrics(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    short = _width(tmp_path / "short.png", "m")
    long = _width(tmp_path / "long.png", "a-much-longer-metric-name [TS]")
    assert long > short + 100, (short, long)
