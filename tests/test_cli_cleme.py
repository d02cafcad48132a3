"""CLEME through the commands and the generic machinery: `gecmetric cleme` (scores, -v, --json,
--sentence, --cleme2, paired tests, one-line errors), the registry's cleme and cleme2 names, and
CLEME columns in `compare` and `meta-eval`, whose text hypotheses get their edits from --hyp-m2."""
from __future__ import annotations

import json

import pytest

from gecmetrics import compare, get_metric
from gecmetrics.metrics.cleme import CLEME, CLEME2
from gecmetrics.io.corpus import Corpus
from gecmetrics.errors import InputError
from gecmetrics.io.m2 import parse_m2
from gecmetrics.run.engine import score_corpus
from gecmetrics.metrics.registry import metrics_from_text
from tests.conftest import json_x100, one_line_error, run_cli

SOURCES = ["he go to school every day", "she have two cat", "it are raining today", "we is happy now"]
REFERENCES = [["he goes to school every day", "she has two cats", "it is raining today", "we are happy now"],
              ["he went to school every day", "she has two cats", "it was raining today", "we are happy now"]]


def a_line(start, end, correction, annotator=0, edit_type="R:X"):
    return f"A {start} {end}|||{edit_type}|||{correction}|||REQUIRED|||-NONE-|||{annotator}"


NOOP = a_line(-1, -1, "-NONE-", 0, "noop")
GOLD = [[a_line(1, 2, "goes"), a_line(1, 2, "went", 1)],
        [a_line(1, 2, "has"), a_line(3, 4, "cats"), a_line(1, 2, "has", 1), a_line(3, 4, "cats", 1)],
        [a_line(1, 2, "is"), a_line(1, 2, "was", 1)],
        [a_line(1, 2, "are")]]
SYSTEMS = {  # text, and the M2 of its edits
    "good": (REFERENCES[0], [[a_line(1, 2, "goes")], [a_line(1, 2, "has"), a_line(3, 4, "cats")],
                             [a_line(1, 2, "is")], [a_line(1, 2, "are")]]),
    "half": (["he went to school every day", "she have two cat", "it are raining today", "we are happy now"],
             [[a_line(1, 2, "went")], [NOOP], [NOOP], [a_line(1, 2, "are")]]),
    "input": (SOURCES, [[NOOP]] * 4),
    "bad": (["he go to to school every day", "she two cat", "it are raining today", "we is happy now"],
            [[a_line(3, 3, "to")], [a_line(1, 2, "-NONE-")], [NOOP], [NOOP]]),
}


def m2_text(lines_per_sentence, sources=SOURCES):
    return "".join(f"S {source}\n" + "".join(line + "\n" for line in lines) + "\n"
                   for source, lines in zip(sources, lines_per_sentence))


@pytest.fixture
def files(tmp_path):
    paths = {}

    def write(name, text):
        (tmp_path / name).write_text(text, encoding="utf-8")
        paths[name] = str(tmp_path / name)

    write("src", "\n".join(SOURCES) + "\n")
    write("ref0", "\n".join(REFERENCES[0]) + "\n")
    write("ref1", "\n".join(REFERENCES[1]) + "\n")
    write("gold.m2", m2_text(GOLD))
    for name, (text, edits) in SYSTEMS.items():
        write(name, "\n".join(text) + "\n")
        write(f"{name}.m2", m2_text(edits))
    write("human.tsv", "system\thuman\ngood\t0.9\nhalf\t0.6\ninput\t0.3\nbad\t0.1\n")
    return paths


def table_rows(out):
    lines = out.splitlines()
    header = lines[0].split("\t")
    return header, {row.split("\t")[0]: dict(zip(header[1:], row.split("\t")[1:])) for row in lines[1:]}


# ---------------------------------------------------------------- gecmetric cleme


def test_the_command_line_of_clemes_main_py(files):
    """main.py's own command line (its README's): --ref, --hyp and --metric cleme or cleme2 give
    what -ref, -hyp and --cleme2 give; its other metrics are other commands here (one line)."""
    given = ["--ref", files["gold.m2"], "--hyp", files["good.m2"], "--level", "corpus", "--assumption", "dependent"]
    ours = ["-ref", files["gold.m2"], "-hyp", files["good.m2"], "--level", "corpus", "--assumption", "dependent"]
    cleme = run_cli("cleme", *given, "--metric", "cleme")
    assert cleme[0] == 0 and cleme == run_cli("cleme", *ours)
    cleme2 = run_cli("cleme", *given, "--metric", "cleme2")
    assert cleme2[0] == 0 and cleme2 == run_cli("cleme", *ours, "--cleme2") and cleme2 != cleme
    assert "m2 compare" in one_line_error("cleme", *given, "--metric", "errant")
    assert "gecmetric gleu" in one_line_error("cleme", *given, "--metric", "gleu")
    assert "--cleme2" in one_line_error("cleme", *given, "--metric", "cleme", "--cleme2")



def test_cleme_prints_a_row_per_hypothesis(files):
    code, out, err = run_cli("cleme", "-hyp", files["good.m2"], files["input.m2"], "-ref", files["gold.m2"],
                             "--signature", "--scale", "1")
    assert code == 0, err
    header, rows = table_rows(out)
    assert header == ["system", "F0.5 (fraction)", "P (fraction)", "R (fraction)", "Acc (fraction)", "TP", "FP", "FN",
                      "TN"]
    assert rows[files["good.m2"]]["F0.5 (fraction)"] == "1.0000" and rows[files["input.m2"]]["F0.5 (fraction)"] == "0.0000"
    assert rows[files["input.m2"]]["P (fraction)"] == "1.0000"  # nothing proposed
    assert err == "CLEME|assumption:dependent|level:corpus|weights:length|beta:0.5|version:0.1.0\n"
    header, rows = table_rows(run_cli("cleme", "-hyp", files["good.m2"], "-ref", files["gold.m2"])[1])  # x100
    assert header[1:3] == ["F0.5 (x100)", "P (x100)"] and rows[files["good.m2"]]["F0.5 (x100)"] == "100.00"


def test_cleme_names_standard_input_as_every_command_does(files):
    """``cleme -hyp -`` named its row ``<stdin>`` (the name messages give standard input); the
    other commands name it ``-``, as given: in the table, --sentence, JSON and a paired test."""
    from pathlib import Path

    hypothesis = Path(files["good.m2"]).read_text(encoding="utf-8")
    base = ["cleme", "-hyp", "-", "-ref", files["gold.m2"]]
    code, out, err = run_cli(*base, input=hypothesis)
    assert code == 0 and list(table_rows(out)[1]) == ["-"], (out, err)
    code, out, err = run_cli(*base, "--sentence", input=hypothesis)
    assert code == 0 and {line.split("\t")[0] for line in out.splitlines()[1:]} == {"-"}, (out, err)
    code, out, err = run_cli(*base, "--json", input=hypothesis)
    assert code == 0 and json.loads(out)[0]["system"] == "-", (out, err)
    code, out, err = run_cli("cleme", "-hyp", files["input.m2"], "-", "-ref", files["gold.m2"], "--paired-bs", "20",
                             "--tsv", input=hypothesis)
    assert code == 0 and [line.split("\t")[1] for line in out.splitlines()[1:]] == [files["input.m2"], "-"], out


def test_cleme_settings_json_and_digits(files):
    code, out, err = run_cli("cleme", "-hyp", files["half.m2"], "-ref", files["gold.m2"], "--assumption",
                             "independent", "--level", "sentence", "--unweighted", "-b", "1", "--json")
    assert code == 0, err
    data = json.loads(out)[0]
    assert data["system"] == files["half.m2"] and data["metric"] == "CLEME" and data["bias"] is None
    assert data["signature"] == "CLEME|assumption:independent|level:sentence|weights:none|beta:1|version:0.1.0"
    metric = CLEME(assumption="independent", level="sentence", weighted=False, beta=1)
    corpus = Corpus(None, [], {"h": parse_m2(m2_text(SYSTEMS["half"][1]), "h")}, parse_m2(m2_text(GOLD), "g"))
    assert data["f"] == json_x100(score_corpus([metric], corpus).result("h", 0).f)  # JSON follows the scale rule too
    code, out, err = run_cli("cleme", "-hyp", files["half.m2"], "-ref", files["gold.m2"], "-d", "2", "--scale", "1")
    f = score_corpus([CLEME()], corpus).result("h", 0).f
    assert table_rows(out)[1][files["half.m2"]]["F0.5 (fraction)"] == f"{f:.2f}" != f"{f:.4f}"


def test_a_score_exactly_half_way_at_4_decimals_is_rounded_as_cleme_rounds_it(tmp_path):
    """CLEME rounds with Python's round(x, 4) and prints with tabulate's ".4f": a double exactly
    half-way is rounded to even. TP 1, FP 6, FN 3 (unweighted): F0.5 = 5/32 = 0.15625 exactly,
    CLEME's 0.1562 (half up from the decimal form: 0.1563); at 4 fraction decimals (x100 at 2,
    compare's column) the tables print it, at more the value's own digits."""
    source = "a b c d e f g h i j k l m n o p q r s t u v"
    (tmp_path / "ref.m2").write_text(m2_text([[a_line(k, k + 1, "x") for k in (0, 2, 4, 6)]], [source]))
    (tmp_path / "hyp.m2").write_text(m2_text([[a_line(0, 1, "x")] + [a_line(k, k + 1, "y") for k in range(8, 20, 2)]],
                                             [source]))
    (tmp_path / "src").write_text(source + "\n")
    (tmp_path / "hyp").write_text("x b c d e f g h y j y l y n y p y r y t u v\n")
    hyp, ref = str(tmp_path / "hyp.m2"), str(tmp_path / "ref.m2")
    for flags, expected in ((["--scale", "1"], "0.1562 0.1429 0.2500 0.5500 1.0000 6.0000 3.0000 10.0000"),
                            ([], "15.62 14.29 25.00 55.00 1.0000 6.0000 3.0000 10.0000"),
                            (["-d", "3"], "15.625 14.286 25.000 55.000 1.00000 6.00000 3.00000 10.00000")):
        code, out, err = run_cli("cleme", "-hyp", hyp, "-ref", ref, "--unweighted", *flags)
        assert code == 0 and out.splitlines()[1].split("\t")[1:] == expected.split(), (flags, out, err)
    code, out, err = run_cli("compare", "-s", str(tmp_path / "src"), "-o", str(tmp_path / "hyp"), "--hyp-m2", hyp,
                             "--m2", ref, "--metrics", "cleme:weighted=false", "--tsv")
    assert code == 0 and out.splitlines()[1].split("\t")[1:] == ["15.62"], (out, err)
    # the one sentence's row of --sentence alike (it printed 0.1563: half up)
    code, out, err = run_cli("cleme", "-hyp", hyp, "-ref", ref, "--unweighted", "--sentence", "--scale", "1")
    assert code == 0 and out.splitlines()[1].split("\t")[:5] == [hyp, "1", "0.1562", "0.1429", "0.2500"], (out, err)
    code, out, err = run_cli("compare", "-s", str(tmp_path / "src"), "-o", str(tmp_path / "hyp"), "--hyp-m2", hyp,
                             "--m2", ref, "--metrics", "cleme:weighted=false", "--sentence", "--tsv")
    assert code == 0 and out.splitlines()[1].split("\t") == ["1", "15.62"], (out, err)


def test_cleme2_and_its_factors(files):
    code, out, err = run_cli("cleme", "-hyp", files["half.m2"], "-ref", files["gold.m2"], "--cleme2", "--unweighted",
                             "--scale", "1")
    assert code == 0, err
    header, rows = table_rows(out)
    assert header == ["system", "aggregate (fraction)", "HC (fraction)", "WC (fraction)", "UC (fraction)", "OC (fraction)",
                      "TP", "FP", "FN", "TN"]
    # the running choice takes "went" (reference 1) in sentence 1: 2 hits of 5 corrections needed
    assert rows[files["half.m2"]]["HC (fraction)"] == "0.4000" and rows[files["half.m2"]]["OC (fraction)"] == "0.0000"
    code, out, err = run_cli("cleme", "-hyp", files["half.m2"], "-ref", files["gold.m2"], "--cleme2", "--unweighted",
                             "--factors", "1/0/0/0", "--scale", "1")
    assert table_rows(out)[1][files["half.m2"]]["aggregate (fraction)"] == "0.4000"
    code, out, err = run_cli("cleme", "-hyp", files["half.m2"], "-ref", files["gold.m2"], "--cleme2", "--unweighted",
                             "--factors", "1/0/0/0", "--scale", "100", "-d", "2")
    row = table_rows(out)[1][files["half.m2"]]
    assert row["aggregate (x100)"] == "40.00" and row["HC (x100)"] == "40.00"
    assert "factors" in one_line_error("cleme", "-hyp", files["half.m2"], "-ref", files["gold.m2"], "--factors",
                                       "1/0/0/0")
    assert "no beta" in one_line_error("cleme", "-hyp", files["half.m2"], "-ref", files["gold.m2"], "--cleme2",
                                       "-b", "1")
    assert "add up to 1" in one_line_error("cleme", "-hyp", files["half.m2"], "-ref", files["gold.m2"], "--cleme2",
                                           "--factors", "1/1/0/0")


def test_cleme_chunk_tables_and_sentences(files):
    code, out, err = run_cli("cleme", "-hyp", files["half.m2"], "-ref", files["gold.m2"], "-v")
    assert code == 0, err
    assert out.count("╒") == 4 and "│ target-2   │" in out and out.rstrip().splitlines()[-2].startswith("system")
    code, out, err = run_cli("cleme", "-hyp", files["half.m2"], files["good.m2"], "-ref", files["gold.m2"],
                             "--sentence", "--unweighted", "--scale", "1")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == ("system\tsentence\tf (fraction)\tprecision (fraction)\trecall (fraction)\t"
                        "accuracy (fraction)") and len(lines) == 9
    assert lines[1].startswith(f"{files['half.m2']}\t1\t1.0000\t") and lines[2].split("\t")[2] == "0.0000"


@pytest.mark.parametrize("test", ["--paired-bs", "--paired-ar"])
def test_cleme_paired_tests(files, test):
    code, out, err = run_cli("cleme", "-hyp", files["input.m2"], files["good.m2"], files["input.m2"], "-ref",
                             files["gold.m2"], test, "60", "--json")
    assert code == 0, err
    data = json.loads(out)[0]
    assert data["metric"] == "CLEME" and data["baseline"] == files["input.m2"]
    assert [s["score"] for s in data["systems"]] == [0.0, 100.0, 0.0]  # x100, as printed
    assert data["systems"][2]["p_value"] == 1.0
    assert data["signature"].startswith("CLEME|assumption:dependent|level:corpus|weights:length|beta:0.5|test:")
    code, out, err = run_cli("cleme", "-hyp", files["good.m2"], "-ref", files["gold.m2"], test, "60", "--json")
    alone = json.loads(out)[0]["systems"]  # one file: its score and interval, no test
    assert code == 0 and [(s["score"], s["p_value"]) for s in alone] == [(100.0, None)], err


def test_cleme_bad_input_is_one_line(files, tmp_path):
    short = tmp_path / "short.m2"
    short.write_text(m2_text(SYSTEMS["good"][1][:3]), encoding="utf-8")
    err = one_line_error("cleme", "-hyp", str(short), "-ref", files["gold.m2"])
    assert f"{short}:8: has 3 sentences but {files['gold.m2']} has 4" in err
    other = tmp_path / "other.m2"
    other.write_text(m2_text(SYSTEMS["good"][1], SOURCES[:2] + ["it is raining", SOURCES[3]]), encoding="utf-8")
    err = one_line_error("cleme", "-hyp", str(other), "-ref", files["gold.m2"])
    assert f"{other}:8: the source of sentence 3 differs from sentence 3 of {files['gold.m2']} (line 11)" in err
    broken = tmp_path / "broken.m2"
    broken.write_text("S a b\nA 0 1|||X|||y|||REQUIRED\n\n", encoding="utf-8")
    assert f"{broken}:2: malformed edit line" in one_line_error("cleme", "-hyp", str(broken), "-ref", files["gold.m2"])
    assert f"{broken}:2:" in one_line_error("cleme", "-hyp", files["good.m2"], "-ref", str(broken))
    for beta in ("nan", "-1"):
        assert "beta" in one_line_error("cleme", "-hyp", files["good.m2"], "-ref", files["gold.m2"], "-b", beta)
    assert "no such file" in one_line_error("cleme", "-hyp", str(tmp_path / "none.m2"), "-ref", files["gold.m2"])
    assert "-v" in one_line_error("cleme", "-hyp", files["good.m2"], "-ref", files["gold.m2"], "-v", "--json")
    # a reference without corrections: length weights cannot be made; the reference is named, and
    # -v's chunk tables are not printed before the error (one line, nothing on stdout)
    plain = tmp_path / "plain.m2"
    plain.write_text(m2_text([[] for _ in SOURCES]), encoding="utf-8")
    for verbose in ((), ("-v",)):
        assert f"{plain}: length weighting needs at least one reference correction" in one_line_error(
            "cleme", "-hyp", str(plain), "-ref", str(plain), *verbose)


@pytest.mark.parametrize("flags", [("--cleme2",), ("--level", "sentence", "--assumption", "independent")])
def test_cleme_reads_in_chunks_and_processes(files, flags):
    """-p and --chunk-lines change nothing in the scores, the sentence lines or the paired tests."""
    base = ["cleme", "-hyp", files["good.m2"], files["half.m2"], files["bad.m2"], "-ref", files["gold.m2"], *flags]
    for more in ([], ["--sentence"], ["--json"], ["--paired-bs", "30", "--json"]):
        outputs = {run_cli(*base, *more, *scale)[1] for scale in ([], ["--chunk-lines", "1"],
                                                                  ["-p", "2", "--chunk-lines", "3"], ["-p", "2"])}
        assert len(outputs) == 1 and outputs.pop(), more


def test_cleme_bad_input_at_chunk_boundaries(files, tmp_path):
    """A hypothesis M2 with fewer or more sentences than the reference is named at its last (or
    first extra) block whatever the chunk size, with both whole counts."""
    short = tmp_path / "short.m2"
    short.write_text(m2_text(SYSTEMS["good"][1][:3]), encoding="utf-8")
    long = tmp_path / "long.m2"
    long.write_text(m2_text(SYSTEMS["half"][1] + [[NOOP]], SOURCES + ["one more"]), encoding="utf-8")
    for chunk_lines in ("1", "2", "3", "4", "10"):
        base = ["cleme", "--chunk-lines", chunk_lines, "-ref", files["gold.m2"], "-hyp", files["good.m2"]]
        err = one_line_error(*base, str(short))
        assert f"{short}:8: has 3 sentences but {files['gold.m2']} has 4 (the last one starts here)" in err
        assert f"{long}:13: has 5 sentences but {files['gold.m2']} has 4" in one_line_error(*base, str(long))
        err = one_line_error("cleme", "--chunk-lines", chunk_lines, "-ref", str(short), "-hyp", files["good.m2"])
        assert f"{files['good.m2']}:11: has 4 sentences but {short} has 3" in err
    empty = tmp_path / "empty.m2"
    empty.write_text("", encoding="utf-8")
    assert "no sentences" in one_line_error("cleme", "-ref", str(empty), "-hyp", str(empty))
    assert f"{empty}" in one_line_error("cleme", "-ref", files["gold.m2"], "-hyp", str(empty))
    serial = run_cli("cleme", "-ref", files["gold.m2"], "-hyp", files["good.m2"], files["half.m2"])
    on_dask = run_cli("cleme", "-ref", files["gold.m2"], "-hyp", files["good.m2"], files["half.m2"], "--dask", "local")
    assert serial[0] == 0 and on_dask[:2] == serial[:2]  # --dask means what it means elsewhere


def test_cleme_shows_progress_on_a_terminal(files, monkeypatch):
    """Like the other commands: a progress line on stderr (a terminal's), none with --json."""
    import io

    import gecmetrics.cli.scoring as command  # the scoring commands' run
    from gecmetrics.cli.progress import StderrProgress  # (its module's: common's name may be bound to a class
    # another test patched in when common was first imported, e.g. test_attribution_runs' recorder)

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    shown: list = []

    def progress(as_json, name):
        shown.append(None if as_json else Terminal())
        return None if as_json else StderrProgress(name, shown[-1], delay=0.0)

    monkeypatch.setattr(command, "progress_unless", progress)
    code, out, err = run_cli("cleme", "-hyp", files["good.m2"], "-ref", files["gold.m2"], "--chunk-lines", "1")
    assert code == 0 and "gecmetric cleme  [######" in shown[0].getvalue() and "1/4 lines" in shown[0].getvalue(), err  # the total is known
    code, out, err = run_cli("cleme", "-hyp", files["good.m2"], "-ref", files["gold.m2"], "--json")
    assert code == 0 and shown[1] is None


# ---------------------------------------------------------------- the registry, compare, meta-eval


def test_registry_names_and_text_settings():
    metric = get_metric("cleme", assumption="independent", b=2)
    assert isinstance(metric, CLEME) and metric.assumption == "independent" and metric.beta == 2.0
    cleme2 = metrics_from_text("cleme2:level=sentence:factors=0.25/0.25/0.25/0.25:weighted=false")[0]
    assert isinstance(cleme2, CLEME2) and cleme2.settings.aspect_factors.hit == 0.25
    assert cleme2.column_labels() == ["CLEME2 sent unweighted factors:0.25/0.25/0.25/0.25"]
    assert cleme2.signature == ("CLEME2|assumption:dependent|level:sentence|weights:none|factors:0.25/0.25/0.25/0.25"
                                "|version:0.1.0")
    assert json.dumps(cleme2.settings_dict())  # JSON-ready
    with pytest.raises(InputError, match="metric 'cleme' has no setting 'factors'"):
        get_metric("cleme", factors="1/0/0/0")
    code, out, err = run_cli("compare", "--list-metrics")
    assert "cleme: CLEME F-beta" in out and "cleme2: CLEME2.0" in out and "factors: CLEME2" in out


def test_cleme_columns_in_compare(files):
    args = ["compare", "-s", files["src"], "-r", files["ref0"], files["ref1"], "-o", files["good"], files["half"],
            files["bad"], "--hyp-m2", files["good.m2"], files["half.m2"], files["bad.m2"], "--m2", files["gold.m2"],
            "--metrics", "cleme,cleme2:weighted=false,m2,gleu", "--json"]
    code, out, err = run_cli(*args)
    assert code == 0, err
    data = json.loads(out)
    assert [c["label"] for c in data["columns"]] == ["CLEME F0.5", "CLEME2 unweighted", "M2 F0.5", "GLEU+ f"]
    scores = {row["system"]: row["scores"] for row in data["rows"]}
    assert scores[files["good"]]["CLEME F0.5"] == 100.0
    assert scores[files["bad"]]["CLEME F0.5"] < scores[files["half"]]["CLEME F0.5"]
    code, chunked, err = run_cli(*args, "--chunk-lines", "1", "-p", "2")  # files read one sentence at a time
    assert code == 0 and json.loads(chunked)["rows"] == data["rows"], err
    code, out, err = run_cli(*args[:-1], "--paired-bs", "40")
    assert code == 0 and "CLEME" in out and "CLEME2" in out, err


def test_all_pairs_signature_keeps_one_level_key(files):
    """compare --all-pairs of CLEME columns: the test's significance level is ``sig-level``, beside
    CLEME's own ``level:corpus`` (it was a second ``level:`` field)."""
    code, out, err = run_cli("compare", "-s", files["src"], "-r", files["ref0"], "-o", files["good"], files["half"],
                             files["bad"], "--hyp-m2", files["good.m2"], files["half.m2"], files["bad.m2"], "--m2",
                             files["gold.m2"], "--metrics", "cleme,cleme:level=sentence", "--paired-bs", "40",
                             "--all-pairs", "--json")
    assert code == 0, err
    for table, level in zip(json.loads(out), ("corpus", "sentence")):
        keys = [part.split(":", 1)[0] for part in table["signature"].split("|")[1:]]
        assert len(keys) == len(set(keys)), table["signature"]
        assert f"|level:{level}|" in table["signature"] and "|correction:holm|sig-level:0.05|" in table["signature"]


def test_cleme_columns_on_dask(files):
    """Dask workers read each chunk's hypothesis M2 blocks themselves (from byte offsets) and give
    the statistics of the local pipeline, here and through compare --dask."""
    pytest.importorskip("distributed", reason="the Dask path needs gecmetrics[dask] (dask, distributed)")
    from gecmetrics.run.engine import score_files
    from gecmetrics.run.executors import DaskExecutor
    from gecmetrics.run.files import CorpusFiles

    names = [files[n] for n in ("good", "half", "bad")]
    edits = [files[f"{n}.m2"] for n in ("good", "half", "bad")]
    metrics = metrics_from_text("cleme,cleme2,senterrant")
    args = (files["src"], (files["ref0"],), tuple(names), files["gold.m2"])
    local = score_files(metrics, CorpusFiles(*args, hypothesis_m2=tuple(edits)), chunk_lines=3)
    executor = DaskExecutor("local", 1)
    on_dask = score_files(metrics, CorpusFiles(*args, hypothesis_m2=tuple(edits)), executor=executor, chunk_lines=1)
    for name in names:
        assert [on_dask.result(name, k).to_dict() for k in range(3)] == [local.result(name, k).to_dict()
                                                                          for k in range(3)]
    base = ["compare", "-s", files["src"], "-r", files["ref0"], "-o", *names, "--hyp-m2", *edits, "--m2",
            files["gold.m2"], "--metrics", "cleme,cleme2", "--json"]
    code, here, err = run_cli(*base)
    assert code == 0, err
    code, there, err = run_cli(*base, "--dask", "local", "-p", "1", "--chunk-lines", "2")
    assert code == 0 and json.loads(there)["rows"] == json.loads(here)["rows"], err
    swapped = [edits[0], edits[2], edits[1]]
    with pytest.raises(InputError, match=f"sentence 1 with its edits applied differs from line 1 of {names[1]}"), \
            executor:
        score_files(metrics, CorpusFiles(*args, hypothesis_m2=tuple(swapped)), executor=executor, chunk_lines=2)


def test_compare_python_api_takes_hypothesis_m2():
    gold = parse_m2(m2_text(GOLD), "gold")
    systems = {name: text for name, (text, _) in SYSTEMS.items()}
    edits = {name: parse_m2(m2_text(lines), name) for name, (_, lines) in SYSTEMS.items()}
    table = compare(SOURCES, REFERENCES, systems, ["cleme", "cleme2", "sentm2"], m2_blocks=gold, hypothesis_m2=edits)
    own = score_corpus([CLEME()], Corpus(None, [], edits, gold))
    for name in SYSTEMS:
        assert table.score(name, "CLEME F0.5") == own.result(name, 0).score
    with pytest.raises(InputError, match="metric cleme reads hypotheses as M2 edits.*--hyp-m2"):
        compare(SOURCES, REFERENCES, systems, ["cleme"], m2_blocks=gold)


def test_compare_errors_about_hypothesis_m2(files, tmp_path):
    base = ["compare", "-s", files["src"], "-r", files["ref0"], "-o", files["good"], files["half"], "--m2",
            files["gold.m2"], "--metrics", "cleme"]
    assert "reads hypotheses as M2 edits" in one_line_error(*base) and "--hyp-m2" in one_line_error(*base)
    err = one_line_error(*base, "--hyp-m2", files["good.m2"])
    assert "one hypothesis M2 file per hypothesis file" in err
    err = one_line_error(*base, "--hyp-m2", files["half.m2"], files["good.m2"])  # in the wrong order
    assert f"{files['half.m2']}:1: sentence 1 with its edits applied differs from line 1 of {files['good']}" in err
    assert "the cleme metric needs the gold annotation" in one_line_error(*base[:7], "--metrics", "cleme")
    short = tmp_path / "short.m2"
    short.write_text(m2_text(SYSTEMS["half"][1][:3]), encoding="utf-8")
    for chunk_lines in ("1", "10"):
        err = one_line_error(*base, "--hyp-m2", files["good.m2"], str(short), "--chunk-lines", chunk_lines)
        assert f"{short}:7: has 3 sentences, fewer than the source {files['src']}" in err
    long = tmp_path / "long.m2"
    long.write_text(m2_text(SYSTEMS["half"][1] + [[NOOP]], SOURCES + ["one more"]), encoding="utf-8")
    err = one_line_error(*base, "--hyp-m2", files["good.m2"], str(long))
    assert f"{long}:13: has more sentences than the source {files['src']} (4)" in err


def test_cleme_in_meta_evaluation(files):
    names = list(SYSTEMS)
    code, out, err = run_cli("meta-eval", "--human", files["human.tsv"], "-s", files["src"], "-r", files["ref0"],
                             files["ref1"], "-o", *(files[n] for n in names), "--hyp-m2",
                             *(files[f"{n}.m2"] for n in names), "--m2", files["gold.m2"], "--metrics",
                             "cleme,cleme2", "--json")
    assert code == 0, err
    correlations = {c["metric"]: c for c in json.loads(out)["correlations"]}
    assert set(correlations) == {"CLEME F0.5", "CLEME2"} and correlations["CLEME F0.5"]["n"] == 4
    assert correlations["CLEME F0.5"]["spearman"] > 0.7


def judgments_xml(ranks: dict[str, tuple[int, ...]]) -> str:
    items = []
    for sentence in range(len(SOURCES)):
        translations = "".join(f'<translation system="{s}" rank="{r[sentence]}"/>' for s, r in ranks.items())
        items.append(f'<ranking-item src-id="{sentence}" user="u">{translations}</ranking-item>')
    return "<results>\n" + "\n".join(items) + "\n</results>\n"


def test_cleme_in_meta_evaluation_with_judgments(files, tmp_path):
    """Raw judgments (meta-eval --judgments) take CLEME columns too: --hyp-m2 gives their edits,
    and the sentence bootstrap resamples CLEME's own rows."""
    ranks = {"good": (1, 1, 1, 1), "half": (2, 3, 3, 1), "input": (3, 2, 2, 3), "bad": (4, 4, 4, 4)}
    (tmp_path / "judged.xml").write_text(judgments_xml(ranks), encoding="utf-8")
    names = list(SYSTEMS)
    args = ["meta-eval", "--judgments", str(tmp_path / "judged.xml"), "-s", files["src"], "-r", files["ref0"],
            files["ref1"], "-o", *(files[n] for n in names), "--m2", files["gold.m2"], "--metrics", "cleme,m2"]
    assert "metric cleme reads hypotheses as M2 edits" in one_line_error(*args)
    code, out, err = run_cli(*args, "--hyp-m2", *(files[f"{n}.m2"] for n in names), "--bootstrap", "20",
                             "--resample", "both", "--src-ids", "0", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert {(c["metric"], c["resampling"], c["n"]) for c in data["correlations"]} == {
        (metric, resampling, 4) for metric in ("CLEME F0.5", "M2 F0.5") for resampling in ("judgments/pair", "sentences")}
    edits = {name: parse_m2(m2_text(lines), name) for name, (_, lines) in SYSTEMS.items()}
    own = score_corpus([CLEME()], Corpus(None, [], edits, parse_m2(m2_text(GOLD), "gold")))
    assert data["scores"]["CLEME F0.5"] == {name: own.result(name, 0).score for name in names}
    scores = tmp_path / "scores.tsv"
    scores.write_text("system\tx\ngood\t1\nhalf\t0.5\ninput\t0.2\nbad\t0\n", encoding="utf-8")
    err = one_line_error("meta-eval", "--scores", str(scores), "--hyp-m2", files["good.m2"])
    assert "--hyp-m2 goes with -o system files scored here" in err


def test_cleme_verbose_runs_on_the_executor_asked_for(files, monkeypatch):
    """-v scores the corpus read whole: it ran in this process whatever --dask said (a scheduler
    that cannot be reached printed scores, exit 0); it now goes to the run's executor."""
    import gecmetrics.run.engine as engine
    from gecmetrics.run.executors import SerialExecutor

    asked = []

    def recorded(jobs=1, dask=None):
        asked.append((jobs, dask))
        return SerialExecutor()

    monkeypatch.setattr(engine, "make_executor", recorded)
    args = ("cleme", "-hyp", files["good.m2"], "-ref", files["gold.m2"], "-v")
    code, here, err = run_cli(*args)
    assert code == 0, err
    code, there, err = run_cli(*args, "--dask", "tcp://127.0.0.1:8786", "-p", "2")
    assert code == 0 and there == here, err
    assert asked == [(1, None), (2, "tcp://127.0.0.1:8786")]
