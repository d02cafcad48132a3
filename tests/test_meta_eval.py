"""Meta-evaluation: correlations, human tables, meta_evaluate and the ``meta-eval`` command."""
from __future__ import annotations

import json
import math
import subprocess
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from gecmetrics.cli import main
from gecmetrics.errors import InputError
from gecmetrics.meta.correlations import average_ranks, kendall, pearson, spearman
from gecmetrics.meta.human_tables import load_human
from gecmetrics.meta.score_files import read_system_scores
from gecmetrics.meta.system_level import meta_evaluate
from tests.conftest import gecmetric_script

scipy_stats = pytest.importorskip("scipy.stats")

PACKAGE_HUMAN = Path(__file__).resolve().parent.parent / "gecmetrics" / "data" / "human"

# GJG15 Table 5 (13 systems with INPUT): M2 F0.5 against Expected Wins and TrueSkill.
TABLE5 = {"expected_wins": (0.627, 0.692), "trueskill": (0.676, 0.725)}
KENDALL_TABLE5 = {"expected_wins": 0.538, "trueskill": 0.590}  # not in the paper: tau-b as scipy computes it


def gjg15_m2_scores() -> dict[str, float]:
    """The M2 F0.5 column GJG15 correlated in its Table 5, as metric scores."""
    return dict(load_human("gjg15").scores["m2_f05_gjg15"])


def write_scores(path: Path, metrics: dict[str, dict[str, float]]) -> Path:
    names = list(metrics)
    systems = list(metrics[names[0]])
    lines = ["system\t" + "\t".join(names)]
    lines += [system + "\t" + "\t".join(repr(metrics[name][system]) for name in names) for system in systems]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


# --------------------------------------------------------------------------- correlations


def test_pearson_and_spearman_hand_computed() -> None:
    # dx = (-1, 0, 1), dy = (-4/3, -1/3, 5/3): r = 3 / sqrt(2 * 42/9) = 9 / sqrt(84)
    assert pearson([1, 2, 3], [1, 2, 4]) == pytest.approx(9 / math.sqrt(84), abs=1e-15)
    # one swapped pair among 4: rho = 1 - 6 * 2 / (4 * 15) = 0.8
    assert spearman([1, 2, 3, 4], [1, 3, 2, 4]) == pytest.approx(0.8, abs=1e-15)
    assert pearson([1, 2, 3], [3, 2, 1]) == pytest.approx(-1.0, abs=1e-15)
    # ties: ranks (1, 2.5, 2.5, 4) against (1, 2, 3, 4)
    assert spearman([0.1, 0.5, 0.5, 0.9], [1, 2, 3, 4]) == pytest.approx(math.sqrt(0.9), abs=1e-15)


def test_average_ranks_give_ties_their_mean_rank() -> None:
    assert average_ranks([3, 1, 3, 2, 3]).tolist() == [4.0, 1.0, 4.0, 2.0, 4.0]
    assert average_ranks([2.0, 2.0]).tolist() == [1.5, 1.5]


def test_pearson_is_scale_and_shift_invariant_for_tiny_and_huge_scores() -> None:
    x = [1e-300, 2e-300, 4e-300]
    y = [1e300, 2e300, 4e300]
    assert pearson(x, y) == pytest.approx(1.0, abs=1e-12)


tied_values = st.lists(st.integers(min_value=-4, max_value=4), min_size=3, max_size=25)
float_values = st.lists(st.floats(min_value=-1e3, max_value=1e3, allow_nan=False, width=64), min_size=3, max_size=25)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_correlations_equal_scipy(data) -> None:
    values = data.draw(st.one_of(tied_values, float_values))
    others = data.draw(st.lists(st.one_of(st.integers(-3, 3).map(float), st.floats(-10, 10)),
                                min_size=len(values), max_size=len(values)))
    if len(set(values)) == 1 or len(set(others)) == 1:
        with pytest.raises(InputError, match="constant"):
            pearson(values, others)
        return
    assert pearson(values, others) == pytest.approx(scipy_stats.pearsonr(values, others)[0], abs=1e-9)
    assert spearman(values, others) == pytest.approx(scipy_stats.spearmanr(values, others)[0], abs=1e-9)


@pytest.mark.parametrize("x, y, message", [
    ([1, 2], [1, 2], "at least 3 systems, got 2"),
    ([1, 1, 1], [1, 2, 3], "first input is constant"),
    ([1, 2, 3], [5, 5, 5], "second input is constant"),
    ([1, 2, 3], [1, 2], "different lengths"),
    ([1, 2, float("nan")], [1, 2, 3], "first input, item 3: nan is not a finite number"),
    # numeric texts and bools were converted (pearson(["1", "2", "3"], ...) gave a number)
    (["1", "2", "3"], [1, 3, 2], "first input, item 1: '1' is not a finite number"),
    ([1, 2, 3], [True, False, True], "second input, item 1: True is not a finite number"),
    (np.array(["1", "2", "3"]), [1, 3, 2], "first input, item 1: '1' is not a finite number"),
    (np.array([True, False, True]), [1, 3, 2], "first input, item 1: True is not a finite number"),
    ([1, None, 3], [1, 3, 2], "first input, item 2: None is not a finite number"),
    ([[1, 2], [3, 4], [5, 6]], [1, 3, 2], "first input must be a flat sequence of numbers"),
    ("123", [1, 3, 2], "first input must be a flat sequence of numbers"),
    (5, [1, 3, 2], "first input must be a flat sequence of numbers"),
])
def test_correlation_errors(x, y, message) -> None:
    for correlation in (pearson, spearman, kendall):
        with pytest.raises(InputError, match=message):
            correlation(x, y)


# --------------------------------------------------------------------------- human tables


def test_gjg15_table_5_reproduced() -> None:
    result = meta_evaluate(gjg15_m2_scores(), "gjg15")
    assert [c.human_score for c in result.correlations] == ["expected_wins", "trueskill"]
    for correlation in result.correlations:
        expected_pearson, expected_spearman = TABLE5[correlation.human_score]
        assert round(correlation.pearson, 3) == expected_pearson
        assert round(correlation.spearman, 3) == expected_spearman
        assert correlation.n_systems == 13 and "INPUT" in correlation.systems
    by_column = {c.human_score: c for c in result.correlations}
    assert by_column["expected_wins"].pearson == pytest.approx(0.6272216190755303, abs=1e-12)
    assert by_column["expected_wins"].spearman == pytest.approx(9 / 13, abs=1e-12)  # 1 - 6*112/(13*168)
    assert by_column["trueskill"].spearman == pytest.approx(0.7252747252747254, abs=1e-12)
    assert result.notes == []


def test_shipped_tables_are_the_shared_ones(shared_data: Path) -> None:
    for name in ("gjg15", "seeda"):
        assert (PACKAGE_HUMAN / f"{name}.tsv").read_bytes() == (shared_data / "human" / f"{name}.tsv").read_bytes()


def test_gjg15_columns_and_citation() -> None:
    table = load_human("gjg15")
    assert len(table.systems) == 13 and table.systems[0] == "AMU" and table.systems[-1] == "IPN"
    assert table.human_columns == ["expected_wins", "trueskill"]  # m2_f05_gjg15 is a metric column
    assert table.score_columns == ["expected_wins", "trueskill", "m2_f05_gjg15"]
    assert set(table.other_columns) == {"ew_rank", "ts_rank"}  # rank ranges such as 2-3
    assert table.scores["trueskill"]["IPN"] == -0.358
    assert any("Grundkiewicz" in line for line in table.comments)
    assert table.default_subset == "all"  # no fluency outputs: all 13 rows, INPUT included (Table 5)
    assert set(table.systems) - set(table.subsets["base"]) == {"INPUT"}


def test_seeda_subsets() -> None:
    table = load_human("seeda")
    assert table.default_subset == "base"
    assert table.human_columns == ["ew_edit", "ew_sent", "ts_edit", "ts_sent"]
    everything = set(table.systems)
    assert len(everything) == 15
    assert everything - set(table.subsets["base"]) == {"GPT-3.5", "INPUT", "REF-F"}
    assert everything - set(table.subsets["+INPUT"]) == {"GPT-3.5", "REF-F"}
    assert everything - set(table.subsets["+fluency"]) == {"INPUT"}
    assert set(table.subsets["all"]) == everything
    assert any("Kobayashi" in line for line in table.comments)


def test_unknown_table_name_lists_valid_ones() -> None:
    with pytest.raises(InputError, match="unknown human table 'gjg16'; valid names: gjg15, seeda"):
        load_human("gjg16")
    with pytest.raises(InputError, match="no such file"):
        load_human("missing/table.tsv")


def test_user_table_rank_range_column_is_not_a_score(tmp_path: Path) -> None:
    path = tmp_path / "human.tsv"
    path.write_text("# my ranking\nsystem\tscore\trank\nA\t0.9\t1\nB\t0.5\t2-3\nC\t0.4\t2-3\nD\t0.1\t4\n")
    table = load_human(str(path))
    assert table.human_columns == ["score"]
    assert table.other_columns == {"rank": (4, "2-3")}  # comment, header, A, B
    result = meta_evaluate({"A": 4.0, "B": 3.0, "C": 1.0, "D": 2.0}, str(path))
    assert [(c.metric, c.human_score, c.n_systems) for c in result.correlations] == [("metric", "score", 4)]
    assert result.correlations[0].spearman == pytest.approx(0.8)
    assert any("rank (line 4: '2-3')" in note for note in result.notes)
    with pytest.raises(InputError) as error:
        meta_evaluate({"A": 4.0, "B": 3.0, "C": 1.0}, str(path), human_score="rank")
    assert (error.value.path, error.value.line) == (str(path), 4)
    assert "'2-3' is not a number" in str(error.value)


@pytest.mark.parametrize("text, message, line", [
    ("system\ts\nA\t1\nA\t2\nB\t3\n", "system 'A' appears twice", 3),
    ("system\ts\nA\t1\t2\n", "has 3 tab-separated fields but the header has 2", 2),
    ("# only\nname\ts\nA\t1\n", "must start with a 'system' column", 2),
    ("system\ts\ts\nA\t1\t2\n", "repeated column names", 1),
    ("# nothing\n", "no header line", None),
    ("system\ts\n", "no system rows", None),
])
def test_user_table_format_errors(tmp_path: Path, text: str, message: str, line: int | None) -> None:
    path = tmp_path / "human.tsv"
    path.write_text(text)
    with pytest.raises(InputError, match=message) as error:
        load_human(str(path))
    assert error.value.path == str(path) and error.value.line == line


# --------------------------------------------------------------------------- meta_evaluate


def test_unknown_human_column_lists_valid_ones() -> None:
    with pytest.raises(InputError, match="no score column 'ew'; valid: expected_wins, trueskill, m2_f05_gjg15"):
        meta_evaluate(gjg15_m2_scores(), "gjg15", human_score="ew")


def test_systems_missing_from_table_are_listed() -> None:
    scores = gjg15_m2_scores() | {"ZZZ": 0.1, "AAA": 0.2}
    with pytest.raises(InputError, match="no row in human table gjg15: AAA, ZZZ;"):
        meta_evaluate(scores, "gjg15")
    # systems listed by name leave the others out: --systems AMU,CAMB,... beside NULL's scores was
    # refused for NULL, the way offered to choose the systems
    listed = ["AMU", "CAMB", "CUUI", "INPUT", "IPN"]
    chosen = meta_evaluate(scores, "gjg15", systems=",".join(listed))
    alone = meta_evaluate({name: gjg15_m2_scores()[name] for name in listed}, "gjg15", systems=listed)
    assert chosen.systems == alone.systems == listed
    assert [c.pearson for c in chosen.correlations] == [c.pearson for c in alone.correlations]
    with pytest.raises(InputError, match="no row in human table gjg15: AAA, ZZZ;"):
        meta_evaluate(scores, "gjg15", systems="all")


def test_human_rows_without_scores_are_left_out_with_a_note() -> None:
    scores = gjg15_m2_scores()
    del scores["INPUT"], scores["IPN"]
    result = meta_evaluate({"m2": scores}, "gjg15", human_score="trueskill")
    (correlation,) = result.correlations
    assert correlation.n_systems == 11 and "INPUT" not in correlation.systems
    assert result.notes == ["left out 2 systems without a score from every metric: INPUT, IPN "
                            "(--systems NAME,NAME,... selects the systems explicitly)"]
    assert result.warnings == []
    table = load_human("gjg15")
    kept = [s for s in table.systems if s not in ("INPUT", "IPN")]
    x = [scores[s] for s in kept]
    y = [table.scores["trueskill"][s] for s in kept]
    assert correlation.pearson == pytest.approx(scipy_stats.pearsonr(x, y)[0], abs=1e-12)


def test_seeda_subset_selects_systems() -> None:
    table = load_human("seeda")
    metric = {system: table.scores["ts_sent"][system] + 0.01 * i for i, system in enumerate(table.systems)}
    sizes = {}
    for subset in ("base", "+INPUT", "+fluency", "all"):
        result = meta_evaluate({"m": metric}, "seeda", human_score="ew_edit", systems=subset)
        sizes[subset] = result.correlations[0].n_systems
        systems = result.correlations[0].systems
        x = [metric[s] for s in systems]
        y = [table.scores["ew_edit"][s] for s in systems]
        assert result.correlations[0].spearman == pytest.approx(scipy_stats.spearmanr(x, y)[0], abs=1e-12)
    assert sizes == {"base": 12, "+INPUT": 13, "+fluency": 14, "all": 15}
    default = meta_evaluate({"m": metric}, "seeda")
    assert default.subset == "base" and len(default.correlations) == 4
    assert default.notes == ["left out (not in system subset 'base' of seeda): GPT-3.5, INPUT, REF-F"]
    with pytest.raises(InputError, match="unknown system subset 'top'; choose one of: base, \\+INPUT, \\+fluency, all"):
        meta_evaluate({"m": metric}, "seeda", systems="top")
    # the subsets are the same for every table: base leaves out GJG15's INPUT (12 systems)
    without_input = meta_evaluate(gjg15_m2_scores(), "gjg15", systems="base")
    assert without_input.correlations[0].n_systems == 12 and "INPUT" not in without_input.systems
    assert round(without_input.correlations[0].pearson, 3) == 0.639
    with pytest.raises(InputError, match="systems named by --systems without a score from every metric: INPUT"):
        meta_evaluate({s: v for s, v in gjg15_m2_scores().items() if s != "INPUT"}, "gjg15",
                      systems="AMU,CAMB,CUUI,INPUT")


def test_constant_or_too_few_metric_scores_are_errors() -> None:
    with pytest.raises(InputError, match="same score \\(0.5\\) to all 3 systems"):
        meta_evaluate({"AMU": 0.5, "RAC": 0.5, "CAMB": 0.5})
    with pytest.raises(InputError, match="at least 3 systems, got 2"):
        meta_evaluate({"AMU": 0.5, "RAC": 0.4})
    with pytest.raises(InputError, match="not a finite number"):
        meta_evaluate({"AMU": 0.5, "RAC": 0.4, "CAMB": float("inf")})


# --------------------------------------------------------------------------- scores file


def test_read_system_scores(tmp_path: Path) -> None:
    path = tmp_path / "scores.tsv"
    path.write_text("# computed elsewhere\nsystem\tGLEU\tGREEN\r\nAMU\t0.5833\t6.1e-1\nCAMB\t.5\t-0\n")
    assert read_system_scores(str(path)) == {"GLEU": {"AMU": 0.5833, "CAMB": 0.5},
                                             "GREEN": {"AMU": 0.61, "CAMB": 0.0}}
    path.write_text("system\tGLEU\nAMU\t0.5\nCAMB\t0,4\n")
    with pytest.raises(InputError, match="column 'GLEU': '0,4' is not a number") as error:
        read_system_scores(str(path))
    assert (error.value.path, error.value.line) == (str(path), 3)


def test_a_headerless_scores_file_is_named_after_it_and_a_pipe_metric(tmp_path: Path) -> None:
    """``--scores <(cut ...)`` (/dev/fd/63) named its metric '63'."""
    import os
    import threading

    (tmp_path / "m2.tsv").write_text("AMU\t0.5\nCAMB\t0.4\n")
    assert list(read_system_scores(str(tmp_path / "m2.tsv"))) == ["m2"]
    fifo = tmp_path / "63"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: fifo.write_text("AMU\t0.5\nCAMB\t0.4\n"))
    writer.start()
    assert read_system_scores(str(fifo)) == {"metric": {"AMU": 0.5, "CAMB": 0.4}}
    writer.join(10)


# --------------------------------------------------------------------------- CLI


@pytest.fixture()
def table5_scores(tmp_path: Path) -> Path:
    m2 = gjg15_m2_scores()
    reversed_m2 = {system: -score for system, score in m2.items()}
    return write_scores(tmp_path / "scores.tsv", {"M2": m2, "negM2": reversed_m2})


def run_cli(*args: str):
    return CliRunner().invoke(main, ["meta-eval", *args])


def test_cli_table(table5_scores: Path) -> None:
    result = run_cli("--human", "gjg15", "--scores", str(table5_scores))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "System-level correlations with human table gjg15 over 13 systems (subset all)"
    assert lines[2].split() == ["|", "metric", "|", "human", "|", "n", "|", "pearson", "|", "spearman", "|",
                                "kendall", "|"]
    rows = [line.replace("|", " ").split() for line in lines[4:-1]]
    assert rows == [["M2", "expected_wins", "13", "0.627", "0.692", "0.538"],
                    ["M2", "trueskill", "13", "0.676", "0.725", "0.590"],
                    ["negM2", "expected_wins", "13", "-0.627", "-0.692", "-0.538"],
                    ["negM2", "trueskill", "13", "-0.676", "-0.725", "-0.590"]]
    assert result.stderr == ""


def test_cli_tsv_digits_and_note(table5_scores: Path) -> None:
    text = table5_scores.read_text().splitlines()
    table5_scores.write_text("\n".join(line for line in text if not line.startswith("INPUT")) + "\n")
    result = run_cli("--scores", str(table5_scores), "--tsv", "-d", "4", "--human-score", "expected_wins", "trueskill")
    assert result.exit_code == 0, result.output
    # without INPUT: 12 systems (values checked against scipy)
    assert result.stdout.splitlines() == [
        "metric\thuman\tn\tpearson\tspearman\tkendall",
        "M2\texpected_wins\t12\t0.6387\t0.6783\t0.5152",
        "M2\ttrueskill\t12\t0.7194\t0.7483\t0.6061",
        "negM2\texpected_wins\t12\t-0.6387\t-0.6783\t-0.5152",
        "negM2\ttrueskill\t12\t-0.7194\t-0.7483\t-0.6061",
    ]
    assert result.stderr == ("gecmetric: note: left out 1 system without a score from every metric: INPUT "
                             "(--systems NAME,NAME,... selects the systems explicitly)\n")


def test_cli_json(table5_scores: Path) -> None:
    result = run_cli("--scores", str(table5_scores), "--json", "--human-score", "trueskill")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["human_table"] == "gjg15" and data["subset"] == "all"
    first = data["correlations"][0]
    assert first["metric"] == "M2" and first["n"] == 13 and len(first["systems"]) == 13
    assert first["pearson"] == pytest.approx(0.6758789690324514, abs=1e-12)


def test_cli_rounds_half_up(tmp_path: Path) -> None:
    # x = (0, 0, 1), y = (0, 1, 1): r = 0.5 exactly, printed with 0 decimals as 1 (half up)
    human = tmp_path / "h.tsv"
    human.write_text("system\th\nA\t0\nB\t1\nC\t1\n")
    scores = tmp_path / "s.tsv"
    scores.write_text("system\tm\nA\t0\nB\t0\nC\t1\n")
    result = run_cli("--human", str(human), "--scores", str(scores), "--tsv", "-d", "0")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[1] == "m\th\t3\t1\t1\t1"


BAD_SCORES = {
    "letters.tsv": "system\tm\nAMU\t0.3\nRAC\tx1\nCAMB\t0.2\n",
    "unknown.tsv": "system\tm\nAMU\t0.3\nRAC\t0.2\nFOO\t0.1\n",
    "constant.tsv": "system\tm\nAMU\t0.3\nRAC\t0.3\nCAMB\t0.3\n",
    "two.tsv": "system\tm\nAMU\t0.3\nRAC\t0.2\n",
}


@pytest.mark.parametrize("args, message", [
    (["--human", "gjg16", "--scores", "{good}"], "unknown human table 'gjg16'; valid names: gjg15, seeda"),
    (["--human-score", "ew", "--scores", "{good}"], "no score column 'ew'; valid: expected_wins"),
    (["--human-score", "ew_rank", "--scores", "{good}"], ":9: column 'ew_rank': '2-3' is not a number"),
    (["--human", "{human_bad}", "--human-score", "h", "--scores", "{good}"], "h.tsv:4: column 'h': 'nan' is not"),
    (["--scores", "{letters}"], "letters.tsv:3: column 'm': 'x1' is not a number"),
    (["--scores", "{unknown}"], "no row in human table gjg15: FOO"),
    (["--scores", "{constant}"], "same score (0.3) to all 3 systems"),
    (["--scores", "{two}"], "at least 3 systems, got 2"),
    (["--human", "seeda", "--systems", "top", "--scores", "{good}"], "unknown system subset 'top'"),
    (["--scores", "{dir}/none.tsv"], "none.tsv: no such file"),
    ([], "give --scores FILE.tsv"),
    (["--scores", "{good}", "--tsv", "--json"], "choose one output format, got tsv and json"),
    (["--scores", "{good}", "-d", "-1"], "-1 is not in the range 0<=x<=20"),
])
def test_cli_bad_input_one_line_exit_2(tmp_path: Path, table5_scores: Path, args: list[str], message: str) -> None:
    for name, text in BAD_SCORES.items():
        (tmp_path / name).write_text(text)
    (tmp_path / "h.tsv").write_text("system\th\nAMU\t0.5\nRAC\t0.2\nNTHU\tnan\n")
    values = {"good": str(table5_scores), "human_bad": str(tmp_path / "h.tsv"), "dir": str(tmp_path)}
    values |= {name.removesuffix(".tsv"): str(tmp_path / name) for name in BAD_SCORES}
    result = run_cli(*[arg.format(**values) if arg.startswith("{") else arg for arg in args])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith("gecmetric: error: ")
    assert message in result.stderr


_console_script = gecmetric_script


def test_console_script_subprocess(table5_scores: Path, tmp_path: Path) -> None:
    script = _console_script()
    good = subprocess.run([script, "meta-eval", "--human", "gjg15", "--scores", str(table5_scores), "--tsv"],
                          capture_output=True, text=True, check=False)
    assert good.returncode == 0, good.stderr
    assert good.stdout.splitlines()[1:3] == ["M2\texpected_wins\t13\t0.627\t0.692\t0.538",
                                             "M2\ttrueskill\t13\t0.676\t0.725\t0.590"]
    bad_path = tmp_path / "bad.tsv"
    bad_path.write_text("system\tm\nAMU\t0.3\nRAC\t-\n")
    bad = subprocess.run([script, "meta-eval", "--scores", str(bad_path)], capture_output=True, text=True, check=False)
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr == f"gecmetric: error: {bad_path}:3: column 'm': '-' is not a number\n"


def test_scipy_reference_values_of_table5() -> None:
    """The Table 5 numbers as scipy computes them, so the reproduction does not rest on us alone."""
    table = load_human("gjg15")
    m2 = [table.scores["m2_f05_gjg15"][s] for s in table.systems]
    for column, (expected_pearson, expected_spearman) in TABLE5.items():
        human = [table.scores[column][s] for s in table.systems]
        assert round(float(scipy_stats.pearsonr(m2, human)[0]), 3) == expected_pearson
        assert round(float(scipy_stats.spearmanr(m2, human)[0]), 3) == expected_spearman
        assert round(float(scipy_stats.kendalltau(m2, human)[0]), 3) == KENDALL_TABLE5[column]
        assert np.isclose(pearson(m2, human), scipy_stats.pearsonr(m2, human)[0], atol=1e-12)
