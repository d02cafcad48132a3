"""meta-eval's two paths agree (issue 24 item 4), its outputs parse (item 5), its figures (item
6), rankings from sentence scores and the pairwise analysis (issues 25, 26), lower-is-better
metrics (issue 22), and the option and input checks of issue 23 (items 6, 17, 19)."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from gecmetrics import Corpus, register_metric, unregister_metric
from gecmetrics.io.judgments import read_judgments
from gecmetrics.meta.evaluate import item_rows
from gecmetrics.meta.pairwise import pairwise_analysis, pairwise_table
from gecmetrics.meta.system_level import correlate_with_judgments
from gecmetrics.stats.rankings import expected_wins
from gecmetrics.stats.sentence_rankings import rank_by_sentence_scores
from tests._meta_support import REFERENCES, SOURCES, SYSTEMS, ToyHit, ToyMiss, toy_args, toy_files
from tests.conftest import one_line_error, run_cli

LEFT_OUT_BAD = ("gecmetric: note: left out 1 system without an output file: bad (--systems NAME,NAME,... "
                "selects the systems explicitly)")
FEW = "gecmetric: warning: the correlations rest on 3 systems only: with fewer than 5, one system moves them a lot"


@pytest.fixture
def toy(tmp_path: Path) -> dict[str, str]:
    paths = toy_files(tmp_path)
    ranking = expected_wins(read_judgments(paths["xml"]), resamples=0)
    (tmp_path / "human.tsv").write_text("system\tew\n" + "".join(f"{s}\t{v!r}\n" for s, v in ranking.scores.items()))
    paths["human"] = str(tmp_path / "human.tsv")
    return paths


@pytest.fixture
def mirrored():
    register_metric("toy-miss", ToyMiss)
    register_metric("toy-hit", ToyHit)
    yield
    unregister_metric("toy-miss")
    unregister_metric("toy-hit")


def table_args(toy: dict[str, str], *more: str) -> list[str]:
    return ["meta-eval", "--human", toy["human"], *toy_args(toy)[3:], *more]


def tsv_rows(out: str) -> list[list[str]]:
    return [line.split("\t") for line in out.splitlines()]


# --------------------------------------------------------------------------- the two paths agree


def test_both_paths_leave_out_systems_without_outputs_and_print_the_same_columns(toy) -> None:
    outputs = {"judgments": toy_args(toy)[:-1], "table": table_args(toy)[:-1]}  # no output file for "bad"
    printed = {}
    for path, args in outputs.items():
        code, out, err = run_cli(*args, "--metrics", "gleu", "green", "--tsv")
        assert code == 0, err
        assert err.splitlines()[:2] == [LEFT_OUT_BAD, FEW], path
        printed[path] = tsv_rows(out)
    assert printed["judgments"][0] == printed["table"][0] == ["metric", "human", "n", "pearson", "spearman", "kendall"]
    # the table holds the Expected Wins of the judgments: the same numbers both ways
    assert [row[2:] for row in printed["judgments"][1:]] == [row[2:] for row in printed["table"][1:]]
    assert [row[0] for row in printed["table"][1:]] == ["GLEU+ f", "GREEN b2"]
    for args in outputs.values():  # a system named explicitly must have an output
        assert "systems named by --systems without an output file: bad" in one_line_error(
            *args, "--systems", "good,half,bad")


def test_five_systems_or_more_give_no_warning(toy, tmp_path) -> None:
    extra = tmp_path / "fifth"
    extra.write_text("\n".join(REFERENCES[1]) + "\n")
    human = Path(toy["human"])
    human.write_text(human.read_text() + "fifth\t0.9\n")
    code, out, err = run_cli(*table_args(toy, str(extra)), "--metrics", "green", "--tsv")
    assert code == 0 and err == "" and tsv_rows(out)[1][2] == "5"


# --------------------------------------------------------------------------- lower is better


def test_a_lower_is_better_metric_correlates_as_its_mirror(toy, mirrored) -> None:
    """toy-miss (an error rate) and toy-hit (1 - it) must meta-evaluate the same everywhere:
    correlations (both paths), intervals, windows, sentence level, pairwise analysis and rankings
    from sentence scores; the printed scores stay the metric's own."""
    metrics = ("--metrics", "toy-miss", "toy-hit")
    code, out, err = run_cli(*toy_args(toy, *metrics, "--bootstrap", "50", "--resample", "both", "--src-ids", "0",
                                       "--window", "3", "--json"))
    assert code == 0, err
    data = json.loads(out)
    miss, hit = data["correlations"][0], data["correlations"][1]
    assert (miss["metric"], hit["metric"]) == ("ToyMiss", "ToyHit")
    for name in ("pearson", "spearman", "kendall"):
        assert miss[name] == pytest.approx(hit[name], abs=1e-12) and miss[name] > 0.5
    sentence_miss, sentence_hit = data["correlations"][2], data["correlations"][3]
    for name in ("pearson", "spearman", "kendall"):
        assert sentence_miss["intervals"][name] == pytest.approx(sentence_hit["intervals"][name], abs=1e-12)
    assert data["scores"]["ToyMiss"]["bad"] > data["scores"]["ToyMiss"]["good"] == 0.0  # printed as they are
    assert [w["pearson"] for w in data["windows"][0]["windows"]] == pytest.approx(
        [w["pearson"] for w in data["windows"][1]["windows"]], abs=1e-12)
    for more in (("--metric-ranking", "ew"), ("--level", "sentence", "--src-ids", "0", "--pairwise")):
        code, out, err = run_cli(*toy_args(toy, *metrics, *more, "--json"))
        assert code == 0, err
        data = json.loads(out)
        for key in ("correlations", "sentence", "pairwise"):
            pair = data[key]
            if pair:
                strip = lambda d: {k: v for k, v in d.items() if k != "metric"}  # noqa: E731
                assert strip(pair[0]) == strip(pair[1]), key
    code, out, err = run_cli(*table_args(toy, *metrics, "--tsv"))
    assert code == 0 and tsv_rows(out)[1][2:] == tsv_rows(out)[2][2:]


# --------------------------------------------------------------------------- rankings from sentence scores


@pytest.mark.parametrize("method", ["ew", "ts"])
def test_metric_ranking_from_sentence_scores(toy, method) -> None:
    """--metric-ranking correlates each metric's ranking by sentence-score wins (gec-metrics'
    Expected Wins / TrueSkill) instead of its corpus scores, in both paths."""
    if method == "ts":
        pytest.importorskip("trueskill")
    code, out, err = run_cli(*toy_args(toy, "--metrics", "gleu", "green", "--metric-ranking", method, "--json"))
    assert code == 0, err
    data = json.loads(out)
    label = f"GREEN b2 [{method.upper()}]"
    assert data["sentence_ranking"] == method and list(data["scores"]) == [f"GLEU+ f [{method.upper()}]", label]
    from gecmetrics import GREEN, read_lines  # the ranking from the library, on the metric's sentence scores

    corpus = [read_lines(toy["src"]), [read_lines(toy["ref0"]), read_lines(toy["ref1"])]]
    green = GREEN(beta=2.0)
    sentences = {s: green.sentence_scores(*corpus, read_lines(toy[s])).scores[0] for s in sorted(SYSTEMS)}
    ranking = rank_by_sentence_scores(sentences, method)
    assert data["scores"][label] == pytest.approx(ranking.scores, abs=1e-12)
    expected = correlate_with_judgments({label: ranking.scores}, read_judgments(toy["xml"]), resampling=None)[0]
    assert data["correlations"][1]["pearson"] == pytest.approx(expected.values["pearson"], abs=1e-12)
    code, out, err = run_cli(*table_args(toy, "--metrics", "green", "--metric-ranking", method, "--tsv"))
    assert code == 0 and tsv_rows(out)[1][0] == label, err


def test_metric_ranking_ts_plays_the_matches_in_the_table_row_order(toy, tmp_path) -> None:
    """TrueSkill from sentence scores depends on the order of the matches: gec-metrics plays them in
    the order of its system list (MetaEvalGJG.MODELS is GJG15's Table 3 order, AMU RAC CAMB ...,
    not code-point order), so a human table's rows give the order, not the sorted names. Expected:
    gec-metrics' MetricBase.run_trueskill(make_pairwise_scores(scores)) (src/gec_metrics/metrics/
    base.py, commit of github gotutiyan/gec-metrics fetched 2026-11-30) on GREEN b2's sentence
    scores of the toy systems listed input, good, bad, half (in code-point order they get bad -0.106,
    good 0.358, half -0.050, input -0.582)."""
    pytest.importorskip("trueskill")
    table = tmp_path / "rows.tsv"
    table.write_text("system\tew\ninput\t0.3\ngood\t0.9\nbad\t0.1\nhalf\t0.6\n")
    printed_by_gec_metrics = {"input": -0.49156380691889123, "good": 0.435204842161922,
                              "bad": -0.02251070433498201, "half": 0.040746940095020515}
    code, out, err = run_cli("meta-eval", "--human", str(table), *toy_args(toy)[3:], "--metrics", "green",
                             "--metric-ranking", "ts", "--json")
    assert code == 0, err
    assert json.loads(out)["scores"]["GREEN b2 [TS]"] == pytest.approx(printed_by_gec_metrics, abs=1e-12)


def test_metric_ranking_refuses_what_it_cannot_do(toy, tmp_path) -> None:
    scores = tmp_path / "scores.tsv"
    scores.write_text("system\tm\ngood\t4\nhalf\t3\ninput\t2\nbad\t1\n")
    assert "needs the system outputs" in one_line_error("meta-eval", "--judgments", toy["xml"], "--scores",
                                                        str(scores), "--metric-ranking", "ew")
    assert "does not go with a ranking from sentence scores" in one_line_error(
        *toy_args(toy, "--metric-ranking", "ew", "--bootstrap", "10", "--resample", "sentences", "--src-ids", "0"))
    assert "is system-level" in one_line_error(*toy_args(toy, "--metric-ranking", "ew", "--level", "sentence",
                                                         "--src-ids", "0"))
    assert "unknown --metric-ranking 'elo'" in one_line_error(*toy_args(toy, "--metric-ranking", "elo"))


# --------------------------------------------------------------------------- pairwise analysis


def test_pairwise_analysis_through_meta_eval(toy, tmp_path) -> None:
    pytest.importorskip("matplotlib")
    args = toy_args(toy, "--metrics", "green", "--level", "sentence", "--src-ids", "0", "--pairwise")
    code, out, err = run_cli(*args, "--tsv", "--table", "pairwise", "--plot", str(tmp_path / "heat.svg"))
    assert code == 0, err
    rows = tsv_rows(out)
    assert rows[0] == ["metric", "better rank", "worse rank", "pairs", "agree", "disagree", "metric ties", "accuracy"]
    judgments = read_judgments(toy["xml"])
    from gecmetrics import GREEN, read_lines

    green = GREEN(beta=2.0)
    corpus = [read_lines(toy["src"]), [read_lines(toy["ref0"]), read_lines(toy["ref1"])]]
    sentences = {s: green.sentence_scores(*corpus, read_lines(toy[s])).scores[0] for s in SYSTEMS}
    library = pairwise_analysis(sentences, judgments, item_rows(judgments, 0, 6), sorted(SYSTEMS))
    _, cells = pairwise_table(library)
    assert [row[1:7] for row in rows[1:]] == [[str(v) for v in cell[:-1]] for cell in cells]
    assert [float(row[7]) for row in rows[1:]] == pytest.approx([cell[-1] for cell in cells], abs=5e-4)
    assert b"<svg" in (tmp_path / "heat.svg").read_bytes()[:400] and f"wrote {tmp_path / 'heat.svg'}" in err
    assert "pairwise analysis is sentence-level" in one_line_error(*toy_args(toy, "--pairwise"))


# --------------------------------------------------------------------------- output formats


def test_tsv_is_one_table_with_one_header_row_and_no_empty_column(toy) -> None:
    args = toy_args(toy, "--metrics", "gleu", "green", "--compare", "--window", "3", "--tsv")
    code, out, err = run_cli(*args)
    assert code == 0
    assert tsv_rows(out)[0] == ["metric", "human", "n", "pearson", "spearman", "kendall"]
    assert "--tsv prints one table (correlations); --table ranking|comparisons|windows prints another" in err
    for name, first in (("ranking", "system"), ("comparisons", "A"), ("windows", "metric")):
        code, out, err = run_cli(*args, "--table", name)
        assert code == 0 and "--tsv prints one table" not in err
        rows = tsv_rows(out)
        assert rows[0][0] == first and not out.startswith("#") and len({len(row) for row in rows}) == 1
        assert all(any(row[k] for row in rows[1:]) for k in range(len(rows[0]))), name  # no empty column
    code, out, _ = run_cli(*toy_args(toy, "--metrics", "green", "--latex", "--table", "correlations"))
    assert out.count("\\begin{tabular}") == 1
    assert "no table 'windows' here" in one_line_error(*toy_args(toy, "--table", "windows"))
    assert "JSON holds them all" in one_line_error(*toy_args(toy, "--table", "ranking", "--json"))


# --------------------------------------------------------------------------- figures


def test_figures_of_both_paths_in_the_tables_scale(toy, tmp_path) -> None:
    pytest.importorskip("matplotlib")
    from gecmetrics import meta_evaluate, meta_evaluate_judgments
    from gecmetrics.output.plots import result_scatter

    corpus = Corpus(SOURCES, REFERENCES, dict(SYSTEMS))
    for result in (meta_evaluate(metrics=["green", "gleu"], corpus=corpus, human=toy["human"]),
                   meta_evaluate_judgments(toy["xml"], ["green", "gleu"], corpus)):
        panels, title = result_scatter(result)
        assert "4 systems" in title and [p.metric for p in panels] == ["GREEN b2", "GLEU+ f"]
        green = panels[0]
        assert green.x == pytest.approx([100 * result.scores["GREEN b2"][s] for s in green.systems])  # x100
        assert green.values == result.correlations[0].values  # r and rho of the table
    for name in ("scatter.png", "scatter.pdf", "scatter.svg"):
        code, _, err = run_cli(*table_args(toy, "--metrics", "green", "--plot", str(tmp_path / name)))
        assert code == 0 and (tmp_path / name).stat().st_size > 1000, err


def test_scatter_labels_do_not_overlap() -> None:
    """SEEDA's crowded corner (GREEN b2 against Expected Wins of seeda_sent.xml): TransGEC and T5,
    GECToR-BERT and UEDIN-MS sit almost on each other; their labels must not."""
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    from gecmetrics.output.plots import _label_points

    points = {"TransGEC": (85.46, 0.6469), "T5": (85.43, 0.6348), "REF-M": (84.33, 0.5557),
              "BERT-fuse": (84.59, 0.5397), "Riken-Tohoku": (84.75, 0.5274), "PIE": (83.42, 0.5068),
              "LM-Critic": (81.28, 0.4311), "TemplateGEC": (81.73, 0.4228), "GECToR-BERT": (82.83, 0.4182),
              "UEDIN-MS": (83.39, 0.4112), "GECToR-ens": (80.49, 0.3802), "BART": (80.45, 0.3631)}
    figure, axes = plt.subplots(figsize=(4.6, 4.2), dpi=150)
    x, y = zip(*points.values())
    axes.scatter(x, y)
    axes.margins(0.12)
    figure.tight_layout()
    _label_points(axes, list(points), list(x), list(y))
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    boxes = [text.get_window_extent(renderer) for text in axes.texts]
    frame = axes.get_window_extent(renderer)
    assert len(boxes) == len(points)
    for i, box in enumerate(boxes):
        assert frame.x0 - 1 <= box.x0 and box.x1 <= frame.x1 + 1 and frame.y0 - 1 <= box.y0 and box.y1 <= frame.y1 + 1
        for other in boxes[i + 1:]:
            assert not box.overlaps(other), (axes.texts[i].get_text())
    plt.close(figure)


def test_plot_where_it_cannot_be_written_is_one_line(toy, tmp_path, monkeypatch) -> None:
    pytest.importorskip("matplotlib")
    folder_named_like_it = tmp_path / "p.png"
    folder_named_like_it.mkdir()
    error = one_line_error(*toy_args(toy, "--plot", str(folder_named_like_it)))
    assert str(folder_named_like_it) in error and "is a directory" in error
    read_only = tmp_path / "ro"
    read_only.mkdir()
    target = read_only / "p.png"
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda path, mode: False if str(path) == str(read_only) and mode == os.W_OK
                        else real_access(path, mode))
    for args in (toy_args(toy, "--plot", str(target)), table_args(toy, "--plot", str(target))):
        error = one_line_error(*args)
        assert error == f"gecmetric: error: {target}: cannot write the figure here: permission denied\n"
    assert not target.exists()
    monkeypatch.setattr(os, "access", real_access)
    if os.geteuid() != 0:  # a real read-only folder (root may write anyway)
        read_only.chmod(0o555)
        try:
            assert str(target) in one_line_error(*toy_args(toy, "--plot", str(target)))
        finally:
            read_only.chmod(0o755)


# --------------------------------------------------------------------------- idle options, src-ids


def test_options_that_would_do_nothing_are_refused(toy) -> None:
    rank = ["rank", "--judgments", toy["xml"]]
    assert "--ew-procedure is for Expected Wins" in one_line_error(*rank, "--ranking", "ts", "--ew-procedure",
                                                                   "bootstrap-mean")
    assert "--ew-procedure is for Expected Wins" in one_line_error(*rank, "--ranking", "ts", "--ew-procedure", "plain")
    assert "--seed does nothing here" in one_line_error(*rank, "--bootstrap", "0", "--seed", "3")
    assert "--ew-procedure is for Expected Wins" in one_line_error(*toy_args(toy, "--ranking", "ts", "--ew-procedure",
                                                                             "bootstrap-mean"))
    assert "--seed does nothing here" in one_line_error(*toy_args(toy, "--seed", "3"))
    assert "would do nothing here" in one_line_error(*toy_args(toy, "--src-ids", "0"))
    assert run_cli(*rank, "--seed", "3")[0] == 0  # 1000 resamples by default: the seed draws them


def test_src_ids_file_lines_are_unique_and_judged(toy, tmp_path) -> None:
    lines = tmp_path / "lines"
    sentence = [*toy_args(toy), "--level", "sentence", "--src-ids", str(lines)]
    lines.write_text("0\n1\n2\n3\n4\n5\n")
    assert run_cli(*sentence)[0] == 0
    lines.write_text("0\n0\n2\n3\n4\n5\n")
    assert f"{lines}:2: src-id 0 is given twice (first for corpus line 1)" in one_line_error(*sentence)
    lines.write_text("0\n1\n2\n3\n4\n9\n")
    assert f"{lines}:6: src-id 9 is not the src-id of any ranking item" in one_line_error(*sentence)
    lines.write_text("0\n1\n2\n3\n4\n99999999999999999999\n")
    assert f"{lines}:6: src-id 99999999999999999999 is outside 0 to 2,147,483,647" in one_line_error(*sentence)
    huge = [*toy_args(toy), "--level", "sentence", "--src-ids", "99999999999999999999"]
    assert "the src-id of the first corpus line (--src-ids N) must be at most" in one_line_error(*huge)


def test_a_system_some_metric_does_not_score_is_left_out_with_a_note(toy) -> None:
    from gecmetrics import meta_evaluate, meta_evaluate_judgments

    scores = {"m": {"good": 4.0, "half": 3.0, "input": 2.0, "bad": 1.0}, "n": {"good": 3.0, "half": 2.5, "input": 1.0}}
    for result in (meta_evaluate_judgments(toy["xml"], scores=scores), meta_evaluate(scores, toy["human"])):
        assert result.systems == ["good", "half", "input"]
        assert result.notes == ["left out 1 system without a score from every metric: bad (--systems NAME,NAME,... "
                                "selects the systems explicitly)"]
        assert [c.n_systems for c in result.correlations] == [3, 3] and len(result.warnings) == 1


def test_constant_windows_are_named_on_stderr_not_printed_silently(toy, tmp_path) -> None:
    """A window whose metric scores are all equal has no correlation: SEEDA's
    window_analysis_system.py prints 'Pearson: nan' / 'Spearman: nan' for it (scipy's
    ConstantInputWarning aside); ours prints '-' and says why in one note on stderr (and in the
    JSON notes), instead of a bare '-'."""
    scores = tmp_path / "flat.tsv"
    scores.write_text("system\tflat\ngood\t0.5\nhalf\t0.5\ninput\t0.5\nbad\t0.1\n")  # human order: good half input bad
    args = ["meta-eval", "--judgments", toy["xml"], "--scores", str(scores), "--window", "3"]
    code, out, err = run_cli(*args, "--table", "windows", "--tsv")
    assert code == 0, err
    assert tsv_rows(out)[1:] == [["flat", "1-3", "-", "-"], ["flat", "2-4", "0.918", "0.866"]]  # scipy: 0.9177, 0.8660
    note = ("gecmetric: note: windows 1-3 of flat: the scores are all equal there, so the correlation is "
            "undefined (printed -)")
    assert note in err.splitlines() and "nan" not in out + err
    code, out, err = run_cli(*args, "--json")
    assert code == 0 and note.removeprefix("gecmetric: note: ") in json.loads(out)["notes"], err
