"""`gecmetric gleu` through click's runner and a real process: output and bad input."""
from __future__ import annotations

import subprocess

import pytest
from click.testing import CliRunner

from gecmetrics.cli import main
from tests.conftest import one_line_error, run_cli


@pytest.fixture()
def files(tmp_path):
    def write(name, text, mode="w"):
        path = tmp_path / name
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
        return str(path)
    return write


@pytest.fixture()
def small(files):
    src = files("src", "the cat sat on mat\na dog barks loud now\n")
    ref0 = files("ref0", "the cat sat on the mat\na dog barks loudly now\n")
    ref1 = files("ref1", "the cat sat on a mat\nthe dog barks loud now\n")
    hyp = files("hyp", "the cat sat on the mat\na dog barks loudly now\n")
    return src, ref0, ref1, hyp


run = run_cli


def test_corpus_output_layout(small):
    src, ref0, ref1, hyp = small
    code, out, err = run("gleu", "-s", src, "-r", ref0, ref1, "-o", hyp, src, "-f", "-d", "4")
    assert code == 0, err
    lines = out.splitlines()
    assert [line.split("\t")[0] for line in lines] == [hyp, src]
    assert float(lines[0].split("\t")[1]) > float(lines[1].split("\t")[1])
    assert len(lines[0].split("\t")[1].split(".")[1]) == 4


def test_stdin_hypothesis_equals_file(small):
    src, ref0, ref1, hyp = small
    _, from_file, _ = run("gleu", "-s", src, "-r", ref0, ref1, "-o", hyp, "-f")
    with open(hyp) as handle:
        code, from_stdin, _ = run("gleu", "-s", src, "-r", ref0, ref1, "-o", "-", "-f", input=handle.read())
    assert code == 0
    assert from_stdin.split("\t")[1] == from_file.split("\t")[1]


def test_modes_and_json(small):
    src, ref0, ref1, hyp = small
    code, out, _ = run("gleu", "-s", src, "-r", ref0, ref1, "-o", hyp, src, "--sentence", "-d", "6")
    assert code == 0 and len(out.splitlines()) == 2 and len(out.splitlines()[0].split("\t")) == 2
    code, out, _ = run("gleu", "-s", src, "-r", ref0, ref1, "-o", hyp, "--sentence", "--smooth")
    assert code == 0 and len(out.splitlines()[0].split("\t")) == 3
    code, out, _ = run("gleu", "-s", src, "-r", ref0, ref1, "-o", hyp, "-m", "--mean")
    assert code == 0 and out.startswith(hyp + "\t")
    code, out, err = run("gleu", "-s", src, "-r", ref0, ref1, "-o", hyp, "-m", "-v")
    assert code == 0 and "| match | penal | numer | denom |" in out and "ref:best" in err
    # the line under a sampled score's table is ours: it follows --scale (it printed x100 whatever the scale)
    lines = {scale: [line for line in run("gleu", "-s", src, "-r", ref0, ref1, "-o", hyp, "-v", "--scale", scale,
                                          "-d", "4")[1].splitlines() if line.startswith("mean ")]
             for scale in ("1", "100")}
    import re

    numbers = {scale: [float(x) for x in re.findall(r"-?\d+\.\d+", line[0])] for scale, line in lines.items()}
    assert len(numbers["1"]) == 4 and all(abs(100 * a - b) < 0.006 for a, b in zip(numbers["1"], numbers["100"]))
    code, out, err = run("gleu", "-s", src, "-r", ref0, ref1, "-o", hyp, "-m", "-i", "10")  # ran, changed nothing
    assert code == 2 and out == "" and "-i/--iter does not apply to -m/--max" in err
    code, out, _ = run("gleu", "-s", src, "-r", ref0, ref1, "-o", hyp, "--sentence", "-v")
    assert "S-1   \t" in out and "R-1-1*\t" in out
    code, out, _ = run("gleu", "-s", src, "-r", ref0, ref1, "-o", hyp, "-f", "--json")
    import json

    data = json.loads(out)
    assert data[0]["signature"].startswith("GLEU+|variant:official|n:4|unit:word|refs:2|iter:500|sampling:py2-compatible")
    code, out, _ = run("gleu", "-s", src, "-r", ref0, ref1, "-o", hyp, "--variant", "gleu0", "-l", "0", "1")
    assert out.splitlines()[0] == "lambda\t0\t1"


def test_processes_give_the_same_numbers(small):
    src, ref0, ref1, hyp = small
    _, one, _ = run("gleu", "-s", src, "-r", ref0, ref1, "-o", hyp, src, "-f")
    _, two, _ = run("gleu", "-s", src, "-r", ref0, ref1, "-o", hyp, src, "-f", "-p", "2")
    assert one == two


bad = one_line_error


def test_bad_input(small, files):
    src, ref0, ref1, hyp = small
    short = files("short", "one line\n")
    err = bad("gleu", "-s", src, "-r", ref0, "-o", short)
    assert short in err and "1 line " in err and "2" in err
    assert "no such file" in bad("gleu", "-s", src, "-r", ref0, "-o", hyp + ".missing")
    broken = files("broken", b"fine\n\xc3\x28 bad\n")
    assert f"{broken}:2: invalid UTF-8" in bad("gleu", "-s", src, "-r", ref0, "-o", broken)
    assert "-n must be an integer >= 1" in bad("gleu", "-s", src, "-r", ref0, "-o", hyp, "-n", "0")
    assert "-i/--iter must be an integer >= 1" in bad("gleu", "-s", src, "-r", ref0, "-o", hyp, "-i", "0")
    bad("gleu", "-s", src, "-r", ref0, "-o", hyp, "--variant", "bleu")
    assert "--lambda" in bad("gleu", "-s", src, "-r", ref0, "-o", hyp, "-l", "0.1")
    # each lambda is a column, as each of green's betas: one given twice (0 and 0.0 alike) printed two identical ones
    for command in (["gleu", "--variant", "gleu0"], ["gleu0"]):
        for lambdas in (["0", "0"], ["0.5", "1", "5e-1"], ["1", "-l", "1.0"]):
            assert bad(*command, "-s", src, "-r", ref0, "-o", hyp, "-l", *lambdas) == \
                f"gecmetric: error: -l/--lambda: lambda {float(lambdas[0]):g} given twice (each lambda is a column)\n"
    assert "is a directory" in bad("gleu", "-s", src, "-r", ref0, "-o", str(__import__("pathlib").Path(hyp).parent))


def test_lone_carriage_return_is_a_character(files):
    src = files("src", "a\rb c\nd e\n")
    code, out, err = run("gleu", "-s", src, "-r", src, "-o", src, "-m")
    assert code == 0, err
    assert len(out.splitlines()) == 1


def test_non_ascii_whitespace_warning(files):
    src = files("src", "a\u00a0b c\nd e\n")
    code, out, err = run("gleu", "-s", src, "-r", src, "-o", src, "-m")
    assert code == 0 and "did not split on (e.g. U+00A0, U+001C)" in err and "1 line contains" in err


def test_ascii_separator_warning(files):
    """U+001C..U+001F are ASCII, and str.split() splits on them where gec-ranking's Python 2
    bytes.split() did not: the numbers differ, so they warn too (they did not: the check skipped
    ASCII lines). Oracle: gec-ranking scripts/compute_gleu under Python 2.7 printed 0.000000 for
    `-s S -r S -o H` (S = "a<U+001C>b c d e", H = "a<U+001C>b c d f": 4 tokens, no 4-gram matches);
    we print 0.668740 from the 5 tokens a b c d f."""
    src = files("src", "a\x1cb c d e\n")
    hyp = files("hyp", "a\x1cb c d f\n")
    code, out, err = run("gleu", "-s", src, "-r", src, "-o", hyp, "--scale", "1", "-d", "6")
    assert code == 0 and out.split("\t")[1].strip() == "0.668740"
    assert f"{src}: 1 line contains whitespace that Python 2 did not split on" in err
    assert f"{hyp}: 1 line contains" in err
    code, out, err = run("gleu", "-s", src, "-r", src, "-o", src, "-t", "char")
    assert code == 0 and "Python 2" not in err  # characters: nothing is split


def test_real_process(small):
    src, ref0, ref1, hyp = small
    done = subprocess.run(["gecmetric", "gleu", "-s", src, "-r", ref0, ref1, "-o", hyp, "-f"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0 and done.stdout.startswith(hyp + "\t")
    done = subprocess.run(["gecmetric", "gleu", "-s", src, "-r", ref0, "-o", hyp + "x"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2 and done.stdout == "" and "Traceback" not in done.stderr


def test_empty_corpus_is_an_error(files):
    """A corpus with no sentences is bad input (issue 12), not a score of 0."""
    empty, also_empty = files("empty", ""), files("also_empty", "")
    for args in (["gleu", "-f"], ["gleu", "-m"], ["gleu", "--mean"], ["gleu", "--variant", "gleu0"]):
        code, out, err = run(args[0], "-s", empty, "-r", empty, also_empty, "-o", empty, *args[1:])
        assert code == 2 and out == "" and err.count("\n") == 1 and f"the source {empty}" in err, err
    code, out, err = run("compare", "-s", empty, "-r", empty, "-o", empty, "--tsv")
    assert code == 2 and "the corpus has no sentences" in err


def test_console_script_exit_keeps_output_and_codes(small, tmp_path):
    """The console script (`gecmetrics.cli:run`) ends with os._exit: the output must still be
    complete and flushed (to a file and through a pipe), and the exit codes those of `main`."""
    import sys

    src, ref0, ref1, hyp = small
    script = [sys.executable, "-c", "from gecmetrics.cli import run; run()"]
    reference = [sys.executable, "-c", "from gecmetrics.cli import main; main()"]
    args = ["gleu", "--sentence", "-v", "-s", src, "-r", ref0, ref1, "-o", hyp, src]
    fast, slow = (subprocess.run(command + args, capture_output=True, text=True) for command in (script, reference))
    assert (fast.returncode, fast.stdout, fast.stderr) == (slow.returncode, slow.stdout, slow.stderr)
    assert fast.returncode == 0 and fast.stdout.count("\n") > 4
    with open(tmp_path / "out.tsv", "w") as out:
        subprocess.run(script + ["gleu", "-s", src, "-r", ref0, "-o", hyp], stdout=out, check=True)
    assert (tmp_path / "out.tsv").read_text().startswith(hyp + "\t")
    bad = subprocess.run(script + ["gleu", "-s", src, "-r", ref0, "-o", str(tmp_path / "missing")],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stdout == "" and "missing" in bad.stderr
    usage = subprocess.run(script + ["gleu", "-n", "0", "-s", src, "-r", ref0, "-o", hyp], capture_output=True, text=True)
    assert usage.returncode == 2 and usage.stderr.count("\n") == 1


# `sgleu -s S -r R0 -o H -n 1 -v -d 15` of the gleu package 1.1.0 printed this (S: "a b", "a b c";
# R0: "a x y z", "x"; H: "a c", "a"): sentence 1's per-order gleu is exp(log BP + log p), which
# differs from BP * p in the last digit (…114, not …118); sentence 2's penal column is the penalty
# before the clamp to the match (1; numer is the clamped 0).
SGLEU_VERBOSE = """S-1   	a b
H-1-1 	a c
R-1-1*	a x y z
+-------+-------+-------+-------+-------+--------------------+--------------------+--------------------+
|       | match | penal | numer | denom |         p          |         bp         |        gleu        |
+-------+-------+-------+-------+-------+--------------------+--------------------+--------------------+
|   1   |   1   |   0   |   1   |   2   | 50.000000000000000 | 36.787944117144235 | 18.393972058572114 |
| total |   1   |   0   |   1   |   2   | 50.000000000000000 | 36.787944117144235 | 18.393972058572114 |
+-------+-------+-------+-------+-------+--------------------+--------------------+--------------------+
S-2   	a b c
H-2-1 	a
R-2-1*	x
+-------+-------+-------+-------+-------+-------+---------------------+-------+
|       | match | penal | numer | denom |   p   |          bp         |  gleu |
+-------+-------+-------+-------+-------+-------+---------------------+-------+
|   1   |   0   |   1   |   0   |   1   | 0E-15 | 100.000000000000000 | 0E-15 |
| total |   0   |   1   |   0   |   1   | 0E-15 | 100.000000000000000 | 0E-15 |
+-------+-------+-------+-------+-------+-------+---------------------+-------+
"""


def test_sentence_verbose_tables_are_the_gleu_packages(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name, text in [("S", "a b\na b c\n"), ("R0", "a x y z\nx\n"), ("H", "a c\na\n")]:
        (tmp_path / name).write_text(text)
    result = CliRunner().invoke(main, ["gleu", "-s", "S", "-r", "R0", "-o", "H", "-n", "1", "--sentence", "-v",
                                       "-d", "15"])
    assert result.exit_code == 0, result.stderr
    assert result.stdout == SGLEU_VERBOSE


def test_gleu0_sentence_verbose_tables_are_of_all_the_references_at_once(tmp_path, monkeypatch):
    """`gleu0 --sentence -v` stopped with a TypeError traceback (its tables were asked per
    reference, which GLEU 2015 merges): each sentence and hypothesis prints its references and
    one table, whose total is the sentence's score."""
    monkeypatch.chdir(tmp_path)
    for name, text in [("S", "He go home now .\nShe walk .\n"), ("R0", "He goes home now .\nShe walks .\n"),
                       ("R1", "He goes home now .\nShe walk .\n"), ("H", "He go home now .\nShe walks .\n")]:
        (tmp_path / name).write_text(text)
    code, out, err = run_cli("gleu0", "-s", "S", "-r", "R0", "R1", "-o", "H", "--sentence", "-v", "-d", "4")
    assert code == 0, err
    assert out.count("| total |") == 2 and out.count("S-1 ") == 1 and out.count("R-2-2 ") == 1 and "*" not in out
    code, plain, err = run_cli("gleu0", "-s", "S", "-r", "R0", "R1", "-o", "H", "--sentence", "-d", "4")
    totals = [line.split("|")[-2].strip() for line in out.splitlines() if line.startswith("| total |")]
    assert totals == plain.split(), (totals, plain)


def test_mean_prints_the_table_of_the_format_asked_for(small):
    """--mean with --tsv, --markdown or --latex printed the family's bare lines, no header, as if
    no format were asked: it prints compare's table of the sentence scores' means, the values of
    the plain --mean, signed sentences:mean."""
    src, ref0, ref1, hyp = small
    for command, files in ((["gleu"], ["-o", hyp, src]), (["green", "-b", "0.5", "2"], ["-c", hyp, src]),
                           (["gleu0", "-l", "0", "1"], ["-o", hyp, src])):
        args = [*command, "-s", src, "-r", ref0, ref1, *files, "--mean", "-d", "4"]
        code, plain, err = run_cli(*args)
        assert code == 0, err
        values = [line.split("\t")[1:] for line in plain.splitlines() if line.startswith((hyp, src))]
        code, tsv, err = run_cli(*args, "--tsv")
        rows = tsv.splitlines()
        assert code == 0 and rows[0].startswith("system\t") and "(x100)" in rows[0], (tsv, err)
        assert [row.split("\t")[1:] for row in rows[1:]] == values, (tsv, plain)
        code, markdown, _ = run_cli(*args, "--markdown")
        assert markdown.startswith("| system |") and "sentences:mean" in markdown
        assert run_cli(*args, "--latex")[1].startswith("\\begin{tabular}")


def test_gleu0_paired_tests_name_each_lambda(small):
    """gleu0 -l 0 1 with a paired test titled both tables GLEU: which was which only the JSON
    signature said."""
    src, ref0, ref1, hyp = small
    code, out, err = run_cli("gleu0", "-s", src, "-r", ref0, ref1, "-o", hyp, src, "-l", "0", "1",
                             "--paired-bs", "20", "--tsv")
    assert code == 0, err
    assert {line.split("\t")[0] for line in out.splitlines()[1:] if line and not line.startswith("metric")} == \
        {"GLEU lambda=0", "GLEU lambda=1"}


def test_several_lambdas_with_sentence_is_refused_naming_the_flag(small):
    """gleu0 -l 0 1 --sentence printed the first lambda's sentence scores and dropped the others
    without a word (-v too); compare --sentence prints a column for each."""
    src, ref0, ref1, hyp = small
    for command in (["gleu0"], ["gleu", "--variant", "gleu0"]):
        for extra in ([], ["-v"], ["--tsv"], ["--json"]):
            error = one_line_error(*command, "-s", src, "-r", ref0, ref1, "-o", hyp, "-l", "0", "1", "--sentence",
                                   *extra)
            assert "-l: --sentence prints one lambda's sentence scores" in error, error
    code, out, err = run_cli("compare", "-s", src, "-r", ref0, ref1, "-o", hyp, "--sentence",
                             "--metrics", "gleu0:lambda=0,gleu0:lambda=1")
    assert code == 0 and "GLEU0 l0" in out.splitlines()[0] and "GLEU0 l1" in out.splitlines()[0], err
