"""`gecmetric rank` and `gecmetric meta-eval --judgments`, and the Python call behind them
(`meta_evaluate_judgments`): the issue's must-show numbers through the commands, any registered
metric with intervals, and bad input as one line with exit 2."""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import numpy as np
import pytest

from gecmetrics import Corpus, InputError, meta_evaluate_judgments, register_metric, unregister_metric
from gecmetrics.meta.evaluate import JudgmentOptions
from gecmetrics.meta.system_level import correlate_with_judgments
from gecmetrics.meta.systems import subset_systems
from gecmetrics.io.corpus import read_corpus
from gecmetrics.io.judgments import read_judgments
from gecmetrics.stats.rankings import expected_wins
from gecmetrics.meta.windows import window_analysis
from tests.test_meta_correlation import gjg15_submissions
from tests._meta_support import REFERENCES, SOURCES, SYSTEMS, TOY_RANKS, toy_args, toy_files, toy_xml
from tests.conftest import one_line_error, read_tsv, run_cli
from tests.test_metric_protocol import ToyF

DATA = Path(__file__).resolve().parent / "data"
GJG15_SHARED = ("AMU", "CAMB", "CUUI", "INPUT")


@pytest.fixture
def toy(tmp_path: Path) -> dict[str, str]:
    return toy_files(tmp_path)


@pytest.fixture
def toyf():
    register_metric("toyf-meta", ToyF)
    yield
    unregister_metric("toyf-meta")


# --------------------------------------------------------------------------- rank


def test_rank_prints_gjg15_expected_wins_at_4_decimals(shared_data: Path) -> None:
    """The 13 Expected Wins of GJG15's EW.pl, best first, through the command."""
    code, out, err = run_cli("rank", "--judgments", str(shared_data / "human/judgments/gjg15.xml"), "--tsv")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "system\tEW\trange\tcluster"  # one header row, no '#' line before it
    printed = [line.split("\t")[0:2] for line in lines[1:]]
    expected = [[row["system"], row["ew"]] for row in read_tsv(DATA / "meta_ewpl.tsv") if row["file"] == "gjg15"]
    assert printed == expected and len(printed) == 13


def test_rank_bootstrap_mean_and_json(shared_data: Path) -> None:
    """SEEDA's procedure (checked against its files in test_meta_rankings) through the command."""
    path = shared_data / "human/judgments/seeda_edit.xml"
    code, out, err = run_cli("rank", "--judgments", str(path), "--ew-procedure", "bootstrap-mean", "--bootstrap",
                             "200", "--seed", "3", "--json")
    assert code == 0, err
    data = json.loads(out)
    library = expected_wins(read_judgments(path), "bootstrap-mean", resamples=200, seed=3)
    assert [s["system"] for s in data["systems"]] == library.systems
    assert [s["score"] for s in data["systems"]] == [library.scores[s] for s in library.systems]
    assert data["clusters"] == library.clusters and data["procedure"] == "bootstrap-mean"


def test_rank_formats_subsets_and_trueskill(toy: dict[str, str]) -> None:
    code, out, _ = run_cli("rank", "--judgments", toy["xml"], "--bootstrap", "0", "--markdown")
    assert code == 0 and out.splitlines()[2] == "| system | EW |"  # no resamples: no range, no cluster
    code, out, _ = run_cli("rank", "--judgments", toy["xml"], "--systems", "good,half,bad", "--latex")
    assert code == 0 and "input" not in out and "\\begin{tabular}" in out
    pytest.importorskip("trueskill")
    code, out, err = run_cli("rank", "--judgments", toy["xml"], "--ranking", "ts", "--bootstrap", "3", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["method"] == "ts" and data["resamples"] == 3 and data["systems"][0]["system"] == "good"


# --------------------------------------------------------------------------- GJG15 and the poster


def poster_scores_file(tmp_path: Path) -> str:
    rows = read_tsv(DATA / "meta_green_gjg15.tsv")
    path = tmp_path / "green.tsv"
    path.write_text("system\tGREEN b2\n" + "".join(f"{r['system']}\t{r['green_word_b2']}\n" for r in rows))
    return str(path)


def correlation_row(out: str) -> list[str]:
    lines = out.splitlines()
    assert lines[0].split("\t") == ["metric", "human", "n", "pearson", "spearman", "kendall"]
    return lines[1].split("\t")


def test_poster_correlation_through_the_command_with_stored_scores(shared_data: Path, tmp_path: Path) -> None:
    """wordGREEN of the original GREEN (stored) against the raw judgments: 0.741 / 0.698."""
    code, out, err = run_cli("meta-eval", "--judgments", str(shared_data / "human/judgments/gjg15.xml"),
                             "--scores", poster_scores_file(tmp_path), "--tsv")
    assert code == 0, err
    row = correlation_row(out)
    assert row == ["GREEN b2", "EW", "13", "0.741", "0.698", "0.564"]


def gjg15_outputs(conll14: Path) -> list[str]:
    folder = gjg15_submissions()
    names = ["AMU", "CAMB", "CUUI", "IITB", "INPUT", "IPN", "NTHU", "PKU", "POST", "RAC", "SJTU", "UFC", "UMC"]
    return [str((conll14 if name in GJG15_SHARED else folder) / name) for name in names]


def test_poster_correlation_end_to_end_through_the_command(shared_data: Path, conll14: Path) -> None:
    """Raw judgments and the 13 system outputs -> GREEN -> Pearson 0.741, Spearman 0.698, with
    intervals of both kinds (200 resamples), the paired test and windows k = 4 and 8."""
    outputs = gjg15_outputs(conll14)
    base = ["meta-eval", "--judgments", str(shared_data / "human/judgments/gjg15.xml"), "-s", str(conll14 / "INPUT"),
            "-r", str(conll14 / "REF0"), str(conll14 / "REF1"), "-o", *outputs, "--metrics", "gleu", "green:beta=2"]
    code, out, err = run_cli(*base, "--bootstrap", "200", "--resample", "both", "--src-ids", "0", "--compare",
                             "--window", "4", "--json")
    assert code == 0, err
    data = json.loads(out)
    green = [c for c in data["correlations"] if c["metric"] == "GREEN b2"]
    assert [c["resampling"] for c in green] == ["judgments/pair", "sentences"]
    assert round(green[0]["pearson"], 3) == 0.741 and round(green[0]["spearman"], 3) == 0.698
    for correlation in green:
        low, high = correlation["intervals"]["pearson"]
        assert low < correlation["pearson"] < high
    assert {(c["metric_a"], c["metric_b"], c["resampling"]) for c in data["comparisons"]} == {
        ("GLEU+ f", "GREEN b2", "judgments/pair"), ("GLEU+ f", "GREEN b2", "sentences")}
    code, out, err = run_cli(*base, "--window", "8", "--tsv", "--table", "windows")
    assert out.splitlines()[0] == "metric\tranks\tpearson\tspearman"
    windows = [line.split("\t") for line in out.splitlines()[1:]]
    human = {s["system"]: s["score"] for s in data["ranking"]["systems"]}
    library = window_analysis(data["scores"]["GREEN b2"], human, 8, data["systems"], metric="GREEN b2")
    assert [w[1] for w in windows if w[0] == "GREEN b2"] == [f"{w.start}-{w.end}" for w in library.windows]


# --------------------------------------------------------------------------- SEEDA sentence level


def seeda_subset_files(shared_data: Path, tmp_path: Path) -> tuple[Path, list[str]]:
    subset = shared_data / "seeda_subset"
    lines = [int(x) for x in (subset / "LINES").read_text().split()]
    references = []
    for k in (0, 1):
        full = (shared_data / "conll14" / f"REF{k}").read_text(encoding="utf-8").split("\n")
        (tmp_path / f"REF{k}").write_text("".join(full[line - 1] + "\n" for line in lines), encoding="utf-8")
        references.append(str(tmp_path / f"REF{k}"))
    return subset, references


def test_sentence_level_through_the_command_equals_seeda_corr_sentence(shared_data: Path, tmp_path: Path) -> None:
    """`--level sentence` on the SEEDA subset prints corr_sentence.py's numbers (to the last bit,
    in JSON) for GLEU+ and GREEN, both judgment files and the four system sets."""
    subset, references = seeda_subset_files(shared_data, tmp_path)
    systems = [p.name for p in sorted(subset.iterdir()) if p.name not in ("LINES", "README.md")]
    printed = {(r["metric"], r["judgments"], r["systems"]): (r["accuracy"], r["kendall"])
               for r in read_tsv(DATA / "meta_seeda_corr_sentence.tsv")}
    names = {"base": "base", "+INPUT": "+INPUT", "+REF-F_GPT-3.5": "+fluency", "all": "all"}
    for judgments in ("sent", "edit"):
        for seeda_name, ours in names.items():
            code, out, err = run_cli("meta-eval", "--judgments", str(shared_data / f"human/judgments/seeda_{judgments}.xml"),
                                     "-s", str(subset / "INPUT"), "-r", *references,
                                     "-o", *(str(subset / s) for s in systems), "--metrics", "gleu", "green:beta=2",
                                     "--level", "sentence", "--src-ids", str(subset / "LINES"), "--systems", ours,
                                     "--json")
            assert code == 0, err
            for agreement, metric in zip(json.loads(out)["sentence"], ("gleu", "green")):
                expected = printed[(metric, judgments, seeda_name)]
                assert (repr(agreement["accuracy"]), repr(agreement["kendall"])) == expected


# --------------------------------------------------------------------------- any metric, the API


def test_a_users_metric_gets_intervals_from_its_own_resampler(toy: dict[str, str], toyf) -> None:
    code, out, err = run_cli(*toy_args(toy, "--metrics", "toyf-meta", "gleu", "--bootstrap", "200", "--resample",
                                       "both", "--src-ids", "0", "--compare", "--json"))
    assert code == 0, err
    data = json.loads(out)
    assert [(c["metric"], c["resampling"]) for c in data["correlations"]] == [
        ("ToyF b1", "judgments/pair"), ("GLEU+ f", "judgments/pair"), ("ToyF b1", "sentences"),
        ("GLEU+ f", "sentences")]
    for correlation in data["correlations"]:
        low, high = correlation["intervals"]["spearman"]
        assert -1.0 <= low <= high <= 1.0 and correlation["resamples"] == 200
    assert data["signatures"]["ToyF b1"].startswith("ToyF|beta:1")


def test_sentence_resamples_are_the_metrics_own(toy: dict[str, str], toyf) -> None:
    """The sentence bootstrap rescored each system by its metric's resampler: the scores of an
    identity resample are the corpus scores, and a resample's score equals scoring the
    resampled corpus."""
    from gecmetrics.meta.metric_scores import ScoredColumns
    from gecmetrics.run.engine import score_corpus
    from gecmetrics.metrics.registry import resolve_metrics
    from gecmetrics.core.resampling import Resample

    corpus = Corpus(SOURCES, REFERENCES, dict(SYSTEMS))
    scored = score_corpus(resolve_metrics(["toyf-meta", "green:beta=2"]), corpus)
    columns = ScoredColumns.of(scored)
    resamplers, scores = columns.resamplers(), columns.system_scores()
    indices = np.array([np.arange(6), [0, 0, 1, 3, 5, 5]])
    for label in scores:
        for system in SYSTEMS:
            resampled = resamplers[label][system](Resample(indices))
            assert resampled[0] == pytest.approx(scores[label][system], abs=1e-12)
            rows = [SYSTEMS[system][k] for k in indices[1]]
            again = Corpus([SOURCES[k] for k in indices[1]], [[r[k] for k in indices[1]] for r in REFERENCES],
                           {system: rows})
            expected = ScoredColumns.of(score_corpus(scored.metrics, again)).system_scores()[label][system]
            assert resampled[1] == pytest.approx(expected, abs=1e-12)


def test_the_ranking_table_prints_a_metrics_score_as_its_tool_rounds_it(tmp_path: Path, toyf) -> None:
    """M2 F0.5 = 5/32 = 0.15625 (tests/test_maxmatch.py's tie: the m2scorer prints 0.1562): the
    ranking table beside the human ranking printed 15.63 (half up) where `m2 score` and every
    other table of M2 print 15.62; the result says which columns round so (``rounds_to``)."""
    from tests.test_maxmatch import TIE_SENTENCE, TIE_SENTENCE_GOLD, TIE_WORDS

    (tmp_path / "gold.m2").write_text(TIE_SENTENCE_GOLD)
    source = " ".join(TIE_WORDS) + "\nthe cat sat\n"
    for name, text in [("src", source), ("A", TIE_SENTENCE + "\nthe cat sat\n"), ("B", TIE_SENTENCE + "\nthe cat sat\n"),
                       ("C", source)]:
        (tmp_path / name).write_text(text)
    (tmp_path / "j.xml").write_text(toy_xml({"A": (1,) * 6, "B": (2,) * 6, "C": (3,) * 6}))
    files = [str(tmp_path / name) for name in ("src", "A", "B", "C", "gold.m2", "j.xml")]
    code, out, err = run_cli("meta-eval", "--judgments", files[5], "-s", files[0], "-o", *files[1:4], "--m2", files[4],
                             "--metrics", "m2", "--table", "ranking", "--tsv")
    assert code == 0, err
    assert [line.split("\t") for line in out.splitlines()] == [["system", "EW", "M2 F0.5"], ["A", "1.0000", "15.62"],
                                                               ["B", "0.5000", "15.62"], ["C", "0.0000", "0.00"]]
    code, out, err = run_cli("m2", "score", files[1], files[4])
    assert code == 0 and out.splitlines()[1].split("\t")[-1] == "15.62", err
    corpus = read_corpus(files[0], [files[1]], files[1:4], files[4])
    corpus.hypotheses = dict(zip("ABC", corpus.hypotheses.values()))
    result = meta_evaluate_judgments(files[5], ["m2", "toyf-meta"], corpus, bootstrap=0)
    assert result.rounds_to == {"M2 F0.5": 4, "ToyF b1": None} and result.scores["M2 F0.5"]["A"] == 0.15625


def test_python_api_one_call(toy: dict[str, str]) -> None:
    corpus = Corpus(SOURCES, REFERENCES, dict(SYSTEMS))
    result = meta_evaluate_judgments(toy["xml"], ["gleu", "green:beta=2"], corpus, bootstrap=100, compare=True,
                                     window=3)
    assert result.systems == ["bad", "good", "half", "input"] and result.ranking.systems[0] == "good"
    assert [c.metric for c in result.correlations] == ["GLEU+ f", "GREEN b2"]
    assert result.comparisons[0].williams.n == 4 and len(result.windows) == 2
    data = json.loads(json.dumps(result.to_dict()))
    assert set(data) >= {"ranking", "correlations", "comparisons", "windows", "scores", "signatures"}
    fresh = correlate_with_judgments(result.scores, read_judgments(toy["xml"]), resamples=100, seed=0)
    assert [c.values for c in fresh] == [c.values for c in result.correlations]
    # the ranking's own resamples are the judgment bootstrap: the same as drawing them afresh
    assert [c.intervals for c in fresh] == [c.intervals for c in result.correlations]
    sentence = meta_evaluate_judgments(toy["xml"], ["gleu"], corpus, level="sentence", src_ids=0)
    assert sentence.ranking is None and sentence.sentence[0].pairs > 0
    options = JudgmentOptions(bootstrap=50)
    assert meta_evaluate_judgments(toy["xml"], scores=result.scores, options=options).correlations[0].resamples == 50


def test_trueskill_human_side_and_its_runs(toy: dict[str, str]) -> None:
    pytest.importorskip("trueskill")
    code, out, err = run_cli(*toy_args(toy, "--ranking", "ts", "--bootstrap", "4", "--json"))
    assert code == 0, err
    data = json.loads(out)
    assert data["ranking"]["method"] == "ts" and data["correlations"][0]["resampling"] == "judgments/trueskill-runs"
    assert data["correlations"][0]["resamples"] == 4
    assert "TrueSkill would be rerun" in one_line_error(*toy_args(toy, "--ranking", "ts", "--bootstrap", "4",
                                                                   "--resample", "sentences", "--src-ids", "0"))


def test_subsets() -> None:
    seeda = ["BART", "GPT-3.5", "INPUT", "REF-F", "REF-M", "T5"]
    assert subset_systems(seeda) == ["BART", "REF-M", "T5"]
    assert subset_systems(seeda, "+INPUT") == ["BART", "INPUT", "REF-M", "T5"]
    assert subset_systems(seeda, "+fluency") == ["BART", "GPT-3.5", "REF-F", "REF-M", "T5"]
    assert subset_systems(seeda, "all") == seeda and subset_systems(["A", "src"]) == ["A", "src"]
    assert subset_systems(seeda, "T5,BART") == ["BART", "T5"]
    with pytest.raises(InputError, match="unknown system subset 'basic'"):
        subset_systems(seeda, "basic")
    # the name at fault is named (the message said only "names an unknown system or repeats one")
    with pytest.raises(InputError, match="the system list 'T5', 'XYZ' names 'XYZ', which has no human score; the systems"):
        subset_systems(seeda, "T5,XYZ")
    with pytest.raises(InputError, match="the system list 'T5', 'BART', 'T5' repeats 'T5'; "):
        subset_systems(seeda, "T5,BART,T5")
    with pytest.raises(InputError, match="the system list 'T5', '' holds an empty name; "):
        subset_systems(seeda, "T5,")


# --------------------------------------------------------------------------- output formats


def test_text_markdown_latex_and_notes(toy: dict[str, str]) -> None:
    code, out, _ = run_cli(*toy_args(toy, "--compare"))
    assert code == 0
    assert out.startswith("Human ranking: Expected Wins (plain) of ") and "Paired tests" in out
    assert out.rstrip().splitlines()[-1].startswith("GREEN b2: GREEN|beta:2")
    code, out, _ = run_cli(*toy_args(toy, "--markdown"))
    assert "**System-level correlations with Expected Wins over 4 systems (subset all)**" in out
    code, out, _ = run_cli(*toy_args(toy, "--latex", "--bootstrap", "20"))
    assert out.count("\\begin{tabular}") == 2 and "% System-level correlations" in out


def test_plots(toy: dict[str, str], tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    code, _, err = run_cli(*toy_args(toy, "--plot", str(tmp_path / "fig.pdf")))
    assert code == 0 and (tmp_path / "fig.pdf").read_bytes()[:4] == b"%PDF" and "wrote" in err
    code, _, err = run_cli(*toy_args(toy, "--window", "3", "--plot", str(tmp_path / "w.png")))
    assert code == 0 and (tmp_path / "w.png").is_file() and (tmp_path / "w-scatter.png").is_file()
    # the scatter beside the windows is an output too: never over an input (here the source)
    source = Path(toy["src"]).rename(tmp_path / "src-scatter.png")
    kept = source.read_bytes()
    args = [str(source) if arg == toy["src"] else arg for arg in toy_args(toy, "--window", "3", "--plot",
                                                                            str(tmp_path / "src.png"))]
    assert "the output (--plot (its scatter)) is also an input" in one_line_error(*args)
    assert source.read_bytes() == kept and not (tmp_path / "src.png").exists()


def test_window_plots_are_written_both_or_neither(toy: dict[str, str], tmp_path: Path) -> None:
    """The windows figure was renamed into place before the scatter was written: a disk that
    filled at the scatter left a new windows figure beside an old (or no) scatter."""
    pytest.importorskip("matplotlib")
    (tmp_path / "w.png").write_bytes(b"OLD")
    os.symlink("/dev/full", tmp_path / "w-scatter.png")  # a device, written through: ENOSPC
    code, out, err = run_cli(*toy_args(toy, "--window", "3", "--plot", str(tmp_path / "w.png")))
    error = err.strip().splitlines()[-1]  # (after the toy's warning: 4 systems only)
    assert code == 2 and "w-scatter.png" in error and "space" in error.lower() and "Traceback" not in err, err
    assert (tmp_path / "w.png").read_bytes() == b"OLD" and not list(tmp_path.glob(".*.part"))


def test_plot_without_matplotlib_is_one_line(toy: dict[str, str], tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    error = one_line_error(*toy_args(toy, "--plot", str(tmp_path / "fig.png")))
    assert "pip install 'gecmetrics[plot]'" in error and not (tmp_path / "fig.png").exists()


# --------------------------------------------------------------------------- bad input


def test_bad_input_one_line_exit_2(toy: dict[str, str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.xml"
    bad.write_text('<results>\n<ranking-item src-id="0">\n<translation system="a" rank="1">\n</ranking-item>\n')
    assert f"{bad}:4: malformed XML" in one_line_error("rank", "--judgments", str(bad))
    assert f"{bad}:4: malformed XML" in one_line_error(*toy_args(toy)[:1], "--judgments", str(bad),
                                                       *toy_args(toy)[3:])
    args = toy_args(toy)
    without_bad = args[:-1]  # a judged system without an output file: left out with a note
    code, out, err = run_cli(*without_bad, "--json")
    assert code == 0 and json.loads(out)["systems"] == ["good", "half", "input"]
    assert err.splitlines() == [
        "gecmetric: note: left out 1 system without an output file: bad (--systems NAME,NAME,... selects the "
        "systems explicitly)",
        "gecmetric: warning: the correlations rest on 3 systems only: with fewer than 5, one system moves them a lot"]
    assert "systems named by --systems without an output file: bad" in one_line_error(
        *without_bad, "--systems", "good,half,bad")
    extra = tmp_path / "extra"
    extra.write_text("\n".join(SOURCES) + "\n")
    assert "judgments do not rank have an output file: extra" in one_line_error(*args, str(extra))
    assert "unknown ranking method 'elo'; choose one of: ew, ts" in one_line_error(*args, "--ranking", "elo")
    assert "unknown ranking method 'elo'" in one_line_error("rank", "--judgments", toy["xml"], "--ranking", "elo")
    assert "at least 3 systems, got 2" in one_line_error(*args, "--systems", "good,bad")
    two = tmp_path / "two.xml"
    two.write_text(toy_xml({"good": TOY_RANKS["good"], "bad": TOY_RANKS["bad"]}))
    assert "a ranking needs at least 3 systems compared with each other, the judgments rank 2: " in \
        one_line_error("rank", "--judgments", str(two))
    one = tmp_path / "one.xml"  # (its system is left out, with a warning: the message ended "rank 0: ")
    one.write_text('<appraise-results><error-correction-ranking-result><ranking-item src-id="1" user="u">'
                   '<translation rank="1" system="A"/></ranking-item></error-correction-ranking-result>'
                   '</appraise-results>')
    code, stdout, stderr = run_cli("rank", "--judgments", str(one))
    assert code == 2 and stderr.rstrip().endswith("the judgments rank 0"), stderr


def test_bad_option_combinations(toy: dict[str, str], tmp_path: Path) -> None:
    args = toy_args(toy)
    assert "--bootstrap needs --judgments" in one_line_error("meta-eval", "--bootstrap", "10")
    assert "--human and --human-score are for score tables" in one_line_error(*args, "--human", "seeda")
    assert "needs the src-id of the corpus lines" in one_line_error(*args, "--level", "sentence")
    assert "needs the src-id" in one_line_error(*args, "--bootstrap", "10", "--resample", "sentences")
    assert "unknown --resample 'rows'" in one_line_error(*args, "--bootstrap", "10", "--resample", "rows")
    scores = tmp_path / "scores.tsv"
    scores.write_text("system\tm\ngood\t4\nhalf\t3\ninput\t2\nbad\t1\n")
    with_scores = ["meta-eval", "--judgments", toy["xml"], "--scores", str(scores)]
    assert "not precomputed scores" in one_line_error(*with_scores, "--level", "sentence", "--src-ids", "0")
    assert "not precomputed scores" in one_line_error(*with_scores, "--bootstrap", "5", "--resample", "sentences",
                                                      "--src-ids", "0")
    assert "two or more metric columns" in one_line_error(*with_scores, "--compare")
    for flags in (["-p", "2"], ["--jobs", "1"]):  # no file is scored: the workers would do nothing
        assert "-p/--jobs goes with -o system files scored here" in one_line_error(*with_scores, *flags)
    assert ".png, .pdf or .svg" in one_line_error(*args, "--plot", str(tmp_path / "fig.txt"))
    assert "window must be an integer from 3" in one_line_error(*args, "--window", "9")
    sentence = [*args, "--level", "sentence", "--src-ids", "0"]
    assert "paired tests is system-level" in one_line_error(*sentence, "--compare")
    assert "bootstrap intervals is system-level" in one_line_error(*sentence, "--bootstrap", "10")
    assert "the pairwise heat map: add --pairwise" in one_line_error(*sentence, "--plot", str(tmp_path / "f.png"))
    assert "tie rule is for the sentence level" in one_line_error(*args, "--tie-rule", "ignore")
    assert "needs a number of bootstrap resamples" in one_line_error(*args, "--resample", "both")
    # given at their defaults, they were taken and ignored
    assert "--resample chooses what --bootstrap N resamples" in one_line_error(*args, "--resample", "judgments")
    for flag, value in (("--seed", "0"), ("--bootstrap", "0"), ("--ranking", "ew"), ("--level", "system")):
        assert f"{flag} needs --judgments FILE.xml" in one_line_error("meta-eval", "--scores", str(scores), flag,
                                                                      value)
    assert "src-id 0 is below first_line=3, the src-id of the first corpus line (--src-ids)" in one_line_error(
        "meta-eval", "--judgments", toy["xml"], "-s", toy["src"], "-r", toy["ref0"], "-o", *(toy[s] for s in SYSTEMS),
        "--level", "sentence", "--src-ids", "3")
    lines = tmp_path / "lines"
    lines.write_text("0\n1\n2\n")
    assert f"{lines}: 3 src-ids for a corpus of 6 sentences" in one_line_error(*args, "--level", "sentence",
                                                                             "--src-ids", str(lines))
    lines.write_text("0\n1\nx\n")
    assert f"{lines}:3: expected one integer src-id" in one_line_error(*args, "--level", "sentence", "--src-ids",
                                                                      str(lines))


def test_worker_processes_change_nothing(toy: dict[str, str]) -> None:
    """-p 2 counts the systems' chunks in worker processes: the same correlations, intervals and
    sentence resamples as one process."""
    args = ("--metrics", "gleu", "green", "--bootstrap", "50", "--resample", "both", "--src-ids", "0", "--json")
    code, one, err = run_cli(*toy_args(toy, *args))
    assert code == 0, err
    code, two, err = run_cli(*toy_args(toy, *args, "-p", "2"))
    assert code == 0, err
    assert json.loads(two) == json.loads(one) and json.loads(one)["correlations"]


# --------------------------------------------------------------------------- help that names metrics


def test_the_hyp_m2_helps_name_the_metrics_that_read_hypothesis_m2() -> None:
    """meta-eval --hyp-m2 said 'for cleme and cleme2' and compare's '(cleme, cleme2)', while
    GoToScorer, SentERRANT and PT-ERRANT read it too: compare, meta-eval and report name the
    registered metrics that declare hypothesis_kind M2, one registered later too; compare's -r
    names those that declare reference_kind none."""
    import re

    from gecmetrics.kinds import M2, NONE
    from gecmetrics.metrics.registry import names_reading

    class ToyEdits(ToyF):
        hypothesis_kind = M2

    readers = names_reading("hypothesis_kind", M2)
    assert {"senterrant", "cleme", "cleme2", "pt-errant", "gotoscorer"} <= set(readers) and "gleu" not in readers
    reference_free = names_reading("reference_kind", NONE)
    assert {"some", "llm-s"} <= set(reference_free) and "gotoscorer" not in reference_free
    register_metric("toy-edits", ToyEdits)
    try:
        for command in ("compare", "meta-eval", "report"):
            code, out, err = run_cli(command, "--help")
            text = " ".join(re.sub(r"(?<=\w-)\s+", "", out).split())  # (click wraps lines after a hyphen)
            assert code == 0, err
            hyp_m2 = text[text.index("--hyp-m2 "):]
            assert hyp_m2.index(f"({', '.join([*readers, 'toy-edits'])})") < hyp_m2.index(" --", 10), command
            if command == "compare":
                assert f"not needed by reference-free metrics ({', '.join(reference_free)})" in text
    finally:
        unregister_metric("toy-edits")
