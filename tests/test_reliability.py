"""Hostile input through the installed console script: every case ends with exit 2 and one line
on stderr naming the file (and line), or with the right output; none with a traceback, a hang
or nan. Then random corpora and random M2 files through every command (hypothesis): no crash,
scores within their range; and sound files damaged one at a time (emptied, cut, a NUL or an
invalid UTF-8 byte, UTF-16, CRLF, a line dropped or doubled, a field replaced by junk) through
the text, M2 and judgment commands: a score or one line naming the file."""
from __future__ import annotations

import math
import os
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import run_gecmetric, gecmetric_script, run_cli

TIMEOUT = 60  # seconds: a case that runs longer is a hang

GOLD = """S a b c
A 0 1|||R:X|||x|||REQUIRED|||-NONE-|||0

S d e f
A 2 3|||R:X|||g|||REQUIRED|||-NONE-|||0
"""
FILES = {
    "src": "a b c\nd e f\n", "ref0": "x b c\nd e g\n", "ref1": "a b c\nd e g\n", "hyp": "x b c\nd e f\n",
    "short": "a b c\n", "empty": "", "latin1": "a b c\nd \xe9 f\n", "gold.m2": GOLD,
    "gold_short.m2": GOLD.split("\n\n")[0] + "\n",
    "gold_other.m2": GOLD.replace("S d e f", "S d e q"),
    "bad.m2": "S a b c\nA 0 9|||R:X|||x|||REQUIRED|||-NONE-|||0\n",
    "overlap.m2": "S a b c\nA 0 2|||R:X|||x|||REQUIRED|||-NONE-|||0\nA 1 3|||R:X|||y|||REQUIRED|||-NONE-|||0\n",
    "weights_digits": "1\n\u0663 0\n0\n",
    "scores.tsv": "system\tm\nAMU\t1\nCAMB\t2\n", "nan_scores.tsv": "system\tm\nAMU\tnan\nCAMB\t1\nCUUI\t2\n",
}


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("battery")
    for name, text in FILES.items():
        data = text.encode("latin-1") if name == "latin1" else text.encode("utf-8")
        (folder / name).write_bytes(data)
    (folder / "dir").mkdir()
    return folder


N = ["-s", "src", "-r", "ref0", "ref1"]
# (arguments, the file the message must name or None, the line it must name or None)
BAD = [
    (["gleu", *N, "-o", "missing"], "missing", None),
    (["gleu", *N, "-o", "dir"], "dir", None),
    (["gleu", *N, "-o", "latin1"], "latin1", 2),
    (["gleu", *N, "-o", "short"], "short", None),
    (["gleu", "-s", "short", "-r", "ref0", "ref1", "-o", "hyp"], "short", None),   # the source is the odd one out
    (["gleu", "-s", "empty", "-r", "empty", "-o", "empty"], "empty", None),
    (["gleu", *N, "-o", "hyp", "-d", "21"], None, None),
    (["gleu", *N, "-o", "hyp", "-n", "0"], None, None),
    (["gleu", *N, "-o", "hyp", "-i", "0"], None, None),
    (["gleu", *N, "-o", "hyp", "-f", "--seed", "3"], None, None),
    (["gleu", *N, "-o", "-", "-"], None, None),
    (["green", *N, "-c", "hyp", "-b", "nan"], None, None),
    (["green", *N, "-c", "hyp", "-b", "-1"], None, None),
    (["green", *N, "-c", "hyp", "-d", "29"], None, None),
    (["green", *N, "-c", "short"], "short", None),
    (["compare", *N, "-o", "hyp", "--metrics", "bleu"], None, None),
    (["compare", *N, "-o", "hyp", "--metrics", "green:beta=x"], None, None),
    (["compare", *N, "-o", "hyp", "--m2", "gold_short.m2"], "gold_short.m2", None),
    (["compare", *N, "-o", "hyp", "--m2", "gold_other.m2"], "gold_other.m2", 4),
    (["compare", *N, "-o", "hyp", "--metrics", "m2"], None, None),
    (["m2", "score", "-s", "gold.m2", "-o", "short"], "short", None),
    (["m2", "score", "-s", "gold_short.m2", "-o", "hyp"], "hyp", None),
    (["m2", "score", "-s", "bad.m2", "-o", "short"], "bad.m2", 2),
    (["m2", "score", "-s", "gold.m2", "-o", "hyp", "-b", "nan"], None, None),
    (["m2", "score", "-s", "gold.m2", "-o", "hyp", "-d", "29"], None, None),
    (["m2", "score", "-s", "empty", "-o", "empty"], "empty", None),
    (["m2", "compare", "-hyp", "gold_short.m2", "-ref", "gold.m2"], "gold_short.m2", None),
    (["m2", "compare", "-hyp", "gold.m2", "-ref", "gold.m2", "-b", "nan"], None, None),
    (["m2", "compare", "-hyp", "empty", "-ref", "empty"], "empty", None),
    (["m2", "compare", "-hyp", "bad.m2", "-ref", "gold.m2"], "bad.m2", 2),
    (["m2", "refs", "overlap.m2", "-o", "out"], "overlap.m2", 1),
    (["m2", "refs", "empty", "-o", "out"], "empty", None),
    (["meta-eval", "--scores", "scores.tsv"], None, None),                    # 2 systems: too few
    (["meta-eval", "--scores", "nan_scores.tsv"], "nan_scores.tsv", 2),
    (["meta-eval", "--scores", "scores.tsv", "-d", "29"], None, None),
    # a reference given twice would count twice (GLEU+ draws it twice as often)
    (["gleu", *N, "ref0", "-o", "hyp"], "ref0", None),
    (["compare", "-s", "src", "-r", "ref1", "ref1", "-o", "hyp"], "ref1", None),
    # numbers as typed in ASCII: int() and float() read "\u0661" as 1 (-n 1 ran: 86.69 for 67.33) and "1_0" as 10
    (["gleu", *N, "-o", "hyp", "-n", "\u0661"], None, None),
    (["gleu", *N, "-o", "hyp", "-n", "1_0"], None, None),
    (["gleu", *N, "-o", "hyp", "--chunk-lines", "\u0661"], None, None),
    (["gleu", *N, "-o", "hyp", "--seed", "\uff11"], None, None),
    (["green", *N, "-c", "hyp", "-b", "\u0662"], None, None),
    (["m2", "score", "-s", "gold.m2", "-o", "hyp", "--max-unchanged-words", "\u0661"], None, None),
    (["compare", *N, "-o", "hyp", "--metrics", "gleu:n=\u0661"], None, None),
    (["gotoscorer", "-ref", "gold.m2", "-hyp", "gold.m2", "-a", "\u0661"], None, None),
    (["gotoscorer", "-ref", "gold.m2", "-hyp", "gold.m2", "-w_file", "weights_digits"], "weights_digits", 2),
    # a number too large for a float reads as inf: recall is asked for by "inf" only
    (["green", *N, "-c", "hyp", "-b", "1e309"], None, None),
    (["m2", "score", "-s", "gold.m2", "-o", "hyp", "-b", "1e309"], None, None),
    (["m2", "compare", "-hyp", "gold.m2", "-ref", "gold.m2", "-b", "1e999"], None, None),
    (["cleme", "-hyp", "gold.m2", "-ref", "gold.m2", "-b", "1e309"], None, None),
]


def _run(folder: Path, args: list[str], stdout=subprocess.PIPE) -> subprocess.CompletedProcess:
    return run_gecmetric(args, cwd=folder, stdout=stdout, stderr=subprocess.PIPE, text=True, timeout=TIMEOUT)


def test_bad_input_battery(folder):
    with ThreadPoolExecutor(4) as pool:
        done = list(pool.map(lambda case: _run(folder, case[0]), BAD))
    for (args, file, line), result in zip(BAD, done):
        where = " ".join(args)
        assert result.returncode == 2, (where, result.stdout, result.stderr)
        assert result.stdout == "", where
        assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith("gecmetric: error: "), \
            (where, result.stderr)
        assert "Traceback" not in result.stderr and "nan" not in result.stdout
        if file is not None:
            assert f" {file}" in result.stderr or f"{file}:" in result.stderr, (where, result.stderr)
        if line is not None:
            assert f"{file}:{line}:" in result.stderr, (where, result.stderr)


def test_a_file_given_twice_under_another_name_is_the_same_file(folder, tmp_path):
    """`-r ref0 ./ref0` (or a symbolic or hard link to ref0) read one reference twice: GLEU+
    drew it twice as often, with no error, while `-r ref0 ref0` was refused."""
    os.symlink(folder / "ref0", tmp_path / "soft")
    os.link(folder / "ref0", tmp_path / "hard")
    for other in ("./ref0", str(tmp_path / "soft"), str(tmp_path / "hard")):
        for args in (["gleu", *N, other, "-o", "hyp"], ["compare", *N, other, "-o", "hyp"]):
            result = _run(folder, args)
            assert (result.returncode, result.stdout) == (2, ""), (args, result.stderr)
            assert result.stderr == (f"gecmetric: error: {other}: given twice (the same file as ref0) as a reference: "
                                     "each copy would count as one more reference, and the scores would change (give "
                                     "each reference file once)\n"), result.stderr
    result = _run(folder, ["compare", *N, "-o", "hyp", "./hyp"])
    assert result.returncode == 2 and "./hyp: given twice (the same file as hyp) in -o" in result.stderr
    copy = tmp_path / "copy"
    copy.write_bytes((folder / "ref0").read_bytes())  # a copy is another file: another annotator
    assert _run(folder, ["gleu", *N, str(copy), "-o", "hyp"]).returncode == 0


def test_good_input_gives_the_numbers(folder):
    gleu = _run(folder, ["gleu", *N, "-o", "hyp", "ref0", "-d", "4"])
    assert gleu.returncode == 0 and gleu.stdout == "hyp\t0.0000\nref0\t0.0000\n"  # 3-word lines: no 4-grams
    green = _run(folder, ["green", *N, "-c", "ref0", "-n", "2", "-b", "inf"])
    assert green.returncode == 0 and green.stdout == "beta\tinf\nref0\t100.00\n", green.stderr
    m2 = _run(folder, ["m2", "score", "-s", "gold.m2", "-o", "hyp", "-b", "inf"])
    assert m2.returncode == 0 and m2.stdout.splitlines()[1] == "hyp\t100.00\t50.00\t50.00"  # x100 (one scale rule)
    long_n = _run(folder, ["gleu", *N, "-o", "hyp", "-n", "32"])  # the largest order (MAX_ORDER)
    assert long_n.returncode == 0 and "n = 32 is more than the length of every sentence" in long_n.stderr


def test_write_failures(folder):
    with open("/dev/full", "w") as full:
        result = _run(folder, ["gleu", *N, "-o", "hyp", "--sentence", "-n", "2"], stdout=full)
    assert result.returncode == 1
    assert result.stderr == "gecmetric: error: cannot write to standard output: No space left on device\n"
    piped = subprocess.run(f"'{gecmetric_script()}' gleu -s src -r ref0 -o hyp src ref0 --sentence -n 2 | head -1",
                           shell=True, cwd=folder, capture_output=True, text=True, timeout=TIMEOUT)
    assert piped.returncode == 0 and piped.stderr == "" and len(piped.stdout.splitlines()) == 1


def test_closed_standard_streams(folder):
    """A process started with stdin, stdout or stderr closed (<&-, >&-, 2>&-; Python then has
    None for that stream): reading '-' is one error (it was an AttributeError), printing is one
    error and exit 1 (click dropped the results without a word, then the final flush was a
    traceback; --help failed inside click's parsing), and without stderr the exit code still
    says what happened (a file the run opens never takes the closed descriptor's number)."""
    def run(command: str) -> subprocess.CompletedProcess:
        return subprocess.run(f"'{gecmetric_script()}' {command}", shell=True, cwd=folder, capture_output=True,
                              text=True, timeout=TIMEOUT)

    closed_out = "gecmetric: error: cannot write the output: standard output is closed\n"
    for command in ("gleu -s src -r ref0 -o hyp -n 2 >&-", "gleu --help >&-", "gleu -s src -r ref0 -o hyp -n 2 -p 2 >&-"):
        done = run(command)
        assert (done.returncode, done.stderr) == (1, closed_out), (command, done.stderr)
    done = run("gleu -s src -r ref0 -o - -n 2 <&-")
    assert (done.returncode, done.stderr) == (2, "gecmetric: error: standard input ('-') is closed: nothing to read\n")
    assert run("gleu -s src -r ref0 -o missing 2>&-").returncode == 2
    done, full = run("gleu -s src -r ref0 -o hyp -n 2 -d 4 2>&- <&-"), run("gleu -s src -r ref0 -o hyp -n 2 -d 4")
    assert done.returncode == 0 and done.stdout == full.stdout and full.stdout.startswith("hyp\t")


def test_pipes_and_standard_input_with_workers(folder, tmp_path):
    """A FIFO or /dev/stdin with -p 2 is read once, by the main process (workers cannot reopen
    it): the numbers of a regular file, no hang."""
    import os

    expected = _run(folder, ["gleu", *N, "-o", "hyp", "-n", "2", "-d", "4"]).stdout.strip().split("\t")[1]
    assert float(expected) > 0
    m2_expected = _run(folder, ["m2", "score", "-s", "gold.m2", "-o", "hyp"]).stdout.splitlines()[1].split("\t")[1:]
    for args, feed in ((["gleu", *N, "-o", "FIFO", "-p", "2", "-n", "2", "-d", "4"], "hyp"),
                       (["m2", "score", "-s", "gold.m2", "-o", "FIFO", "-p", "2"], "hyp"),
                       (["m2", "score", "-s", "FIFO", "-o", "hyp", "-p", "2"], "gold.m2"),
                       (["compare", *N, "-o", "FIFO", "-p", "2", "--tsv", "--metrics", "gleu:n=2"], "hyp")):
        fifo = tmp_path / "fifo"
        if fifo.exists():
            fifo.unlink()
        os.mkfifo(fifo)
        command = [gecmetric_script(), *[str(fifo) if a == "FIFO" else a for a in args]]
        process = subprocess.Popen(command, cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        with open(fifo, "w", encoding="utf-8") as writer:
            writer.write((folder / feed).read_text(encoding="utf-8"))
        out, err = process.communicate(timeout=TIMEOUT)
        assert process.returncode == 0, (args, err)
        row = out.strip().splitlines()[-1].split("\t")
        if args[0] == "gleu":
            assert row[1] == expected, (args, out)
        elif args[0] == "m2":
            assert row[1:] == m2_expected, (args, out)
        else:
            assert row[1] == f"{float(expected):.2f}", (args, out)
    for args, feed in ((["gleu", *N, "-o", "/dev/stdin", "-p", "2", "-n", "2", "-d", "4"], "hyp"),
                       (["gleu", "-s", "/dev/stdin", "-r", "ref0", "ref1", "-o", "hyp", "-p", "2", "-n", "2", "-d", "4"],
                        "src")):
        with open(folder / feed, encoding="utf-8") as given:
            result = subprocess.run([gecmetric_script(), *args], cwd=folder, stdin=given, capture_output=True,
                                    text=True, timeout=TIMEOUT)
        assert result.returncode == 0 and result.stdout.strip().split("\t")[1] == expected, (args, result.stderr)


def test_commands_load_in_any_order_in_one_process():
    """The lazy command group loads every module of a name: `errant --help` first, then `m2
    score`, in one process (CliRunner), still finds `score` (issue 23, item 16)."""
    from click.testing import CliRunner

    from gecmetrics.cli import main

    runner = CliRunner()
    assert runner.invoke(main, ["errant", "--help"]).exit_code == 0
    result = runner.invoke(main, ["m2", "score", "--help"])
    assert result.exit_code == 0 and "SYSTEM GOLD" in result.output


# ---------------------------------------------------------------------------- random input

WORDS = ["a", "b", "c", "the", "cat", "."]
line = st.lists(st.sampled_from(WORDS + [" ", "  ", "\t", "\u00a0"]), max_size=8).map("".join)


@st.composite
def corpora(draw):
    size = draw(st.integers(1, 5))
    texts = [draw(st.lists(line, min_size=size, max_size=size)) for _ in range(5)]
    return texts  # source, two references, two hypotheses


@st.composite
def m2_files(draw):
    blocks = []
    for _ in range(draw(st.integers(1, 4))):
        tokens = draw(st.lists(st.sampled_from(WORDS), max_size=6))
        lines = ["S " + " ".join(tokens)]
        for annotator in range(draw(st.integers(0, 2))):
            if draw(st.booleans()):
                lines.append(f"A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||{annotator}")
                continue
            start = draw(st.integers(0, len(tokens)))
            end = draw(st.integers(start, len(tokens)))
            correction = " ".join(draw(st.lists(st.sampled_from(WORDS), max_size=2)))
            lines.append(f"A {start} {end}|||R:X|||{correction or '-NONE-'}|||REQUIRED|||-NONE-|||{annotator}")
        blocks.append("\n".join(lines) + "\n")
    return "\n".join(blocks)


def _write(folder: Path, texts: dict[str, str]) -> None:
    for name, text in texts.items():
        (folder / name).write_text(text, encoding="utf-8")


def _scores(output: str) -> list[float]:
    values = []
    for row in output.splitlines():
        if row.split("\t")[0] in ("beta", "lambda", "system"):  # a header
            continue
        for cell in row.split("\t")[1:]:
            try:
                values.append(float(cell))
            except ValueError:
                pass
    return values


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(texts=corpora(), unit=st.sampled_from(["word", "char"]), n=st.integers(1, 5))
def test_random_corpora_never_crash(tmp_path, monkeypatch, texts, unit, n):
    monkeypatch.chdir(tmp_path)
    _write(tmp_path, {name: "\n".join(lines) + "\n" for name, lines in zip(["s", "r0", "r1", "h0", "h1"], texts)})
    base = ["-s", "s", "-r", "r0", "r1"]
    for args in (["gleu", *base, "-o", "h0", "h1", "-t", unit, "-n", str(n)],
                 ["gleu", *base, "-o", "h0", "h1", "-m", "--sentence"],
                 ["green", *base, "-c", "h0", "h1", "-t", unit, "-n", str(n), "-b", "0", "1", "inf"],
                 ["green", *base, "-c", "h0", "--mean"],
                 ["compare", *base, "-o", "h0", "h1", "--tsv"]):
        code, out, err = run_cli(*args)
        assert code == 0, (args, err)
        scores = _scores(out)
        assert scores and all(0.0 <= x <= 100.0 and not math.isnan(x) for x in scores), (args, out)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(gold=m2_files(), data=st.data())
def test_random_m2_files_never_crash(tmp_path, monkeypatch, gold, data):
    monkeypatch.chdir(tmp_path)
    blocks = gold.split("\n\n")
    hypothesis = [" ".join(data.draw(st.lists(st.sampled_from(WORDS), max_size=6))) for _ in blocks]
    _write(tmp_path, {"gold.m2": gold, "hyp": "\n".join(hypothesis) + "\n"})
    for args in (["m2", "score", "-s", "gold.m2", "-o", "hyp"], ["m2", "compare", "-hyp", "gold.m2", "-ref", "gold.m2"],
                 ["m2", "refs", "gold.m2", "--prefix", "out"]):
        code, out, err = run_cli(*args)
        if code == 2:  # overlapping random edits make an ill-defined reference: one line naming the file
            assert args[1] == "refs" and "gold.m2:" in err and len(err.splitlines()) == 1, err
            continue
        assert code == 0, (args, err)
        if args[1] == "score":
            assert all(0.0 <= x <= 100.0 for x in _scores(out)), out  # x100, as every command prints


def test_a_warning_made_an_error_by_the_warnings_filter_is_one_line(tmp_path):
    """With PYTHONWARNINGS=error (or -W error) a command's warning (here a paired test's: too few
    resamples for its intervals) came out as a traceback: it is one ``gecmetric: error:`` line
    naming it, exit 2. An input note is one of the command's own lines, which compare prints
    whatever the filter: meta-eval's (issued by the library as an InputNote) is printed too, with
    the filter at error or ignore, and the run goes on."""
    import os

    (tmp_path / "systems").mkdir()
    for name in ("src", "ref", *(f"systems/{n}" for n in ("AMU", "CAMB", "CUUI", "IITB"))):
        (tmp_path / name).write_text("A B\nC D\nE F\n", encoding="utf-8")
    (tmp_path / "other").write_text("A C\nC D\nE F\n", encoding="utf-8")

    def run(setting: str, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([gecmetric_script(), *args], capture_output=True, text=True, timeout=TIMEOUT,
                              env={**os.environ, "PYTHONWARNINGS": setting}, cwd=tmp_path)

    few = "the 95% intervals come from only 20 bootstrap resamples"
    done = run("error", "gleu", "-s", "src", "-r", "ref", "-o", "ref", "other", "-n", "1", "--paired-bs", "20")
    assert done.returncode == 2 and done.stderr.startswith(f"gecmetric: error: {few}"), done.stderr
    assert done.stderr.endswith("(a warning, made an error by the Python warnings filter)\n"), done.stderr
    done = run("default", "gleu", "-s", "src", "-r", "ref", "-o", "ref", "other", "-n", "1", "--paired-bs", "20")
    assert done.returncode == 0 and done.stderr.startswith(f"gecmetric: warning: {few}"), done.stderr
    note = "gecmetric: warning: n = 8 is more than the length of every sentence (at most 2 words)"
    systems = sorted(str(p) for p in (tmp_path / "systems").iterdir())
    for setting in ("error", "ignore", "default"):
        done = run(setting, "meta-eval", "--human", "gjg15", "-s", "src", "-r", "ref", "-o", *systems,
                   "--metrics", "gleu:n=8")
        lines = done.stderr.splitlines()
        assert "Traceback" not in done.stderr and done.returncode == 2, (setting, done.stderr)
        # the note, then the refusal of a score that is the same for every system
        assert lines[0].startswith(note) and lines[1].startswith("gecmetric: error: metric 'GLEU+"), (setting, lines)


# ----------------------------------------------------------------------------- damaged files

SOUND = {
    "src.txt": "a b c d\ne f g\nh i j k\nl m\n",
    "ref0.txt": "a x c d\ne f h\nh i j k\nl m n\n",
    "ref1.txt": "a b c e\ne f g\nh j k\nl m\n",
    "out.txt": "a x c d\ne f g\nh i k\nl\n",
    "gold.m2": "S a b c d\nA 1 2|||R:NOUN|||x|||REQUIRED|||-NONE-|||0\nA 3 4|||R:VERB|||e|||REQUIRED|||-NONE-|||1\n\n"
               "S e f g\nA 2 3|||R:NOUN|||h|||REQUIRED|||-NONE-|||0\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1\n\n"
               "S h i j k\nA 1 2|||U:NOUN||||||REQUIRED|||-NONE-|||1\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n"
               "S l m\nA 2 2|||M:NOUN|||n|||REQUIRED|||-NONE-|||0\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1\n",
    "hyp.m2": "S a b c d\nA 1 2|||R:NOUN|||x|||REQUIRED|||-NONE-|||0\n\nS e f g\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n"
              "S h i j k\nA 2 3|||U:NOUN||||||REQUIRED|||-NONE-|||0\n\nS l m\nA 1 2|||U:NOUN||||||REQUIRED|||-NONE-|||0\n",
    "judgments.xml": '<?xml version="1.0" encoding="UTF-8"?>\n<appraise-results>\n'
             '<error-correction-ranking-result source-language="err" id="t" target-language="cor">\n'
             + "".join(f'<ranking-item doc-id="d{k}" id="{k}" src-id="{k}" user="u{k % 2}">\n'
                       f'<translation rank="{1 + k % 3}" system="A"/>\n<translation rank="{1 + (k + 1) % 3}" system="B C"/>\n'
                       f'<translation rank="{1 + (k + 2) % 3}" system="D"/>\n</ranking-item>\n' for k in range(6))
             + "</error-correction-ranking-result>\n</appraise-results>\n",
    "scores.tsv": "system\tm1\tm2\nA\t0.1\t0.5\nB\t0.3\t0.2\nC\t0.2\t0.4\nD\t0.4\t0.1\n",
}
"""Small sound inputs of every kind the commands below read; each example damages one of them."""

TEXTS = ["-s", "src.txt", "-r", "ref0.txt", "ref1.txt"]
DAMAGED_RUNS = [
    ("src.txt", "ref0.txt", "out.txt", ["gleu", *TEXTS, "-o", "out.txt"]),
    ("src.txt", "ref1.txt", "out.txt", ["green", *TEXTS, "-c", "out.txt", "-t", "char"]),
    ("src.txt", "gold.m2", "out.txt", ["compare", *TEXTS, "-o", "out.txt", "--metrics", "gleu,green,m2", "--m2", "gold.m2"]),
    ("gold.m2", "out.txt", None, ["m2", "score", "-s", "gold.m2", "-o", "out.txt"]),
    ("gold.m2", "out.txt", None, ["sentm2", "-s", "gold.m2", "-o", "out.txt"]),
    ("gold.m2", "hyp.m2", None, ["m2", "compare", "-hyp", "hyp.m2", "-ref", "gold.m2", "-cat", "3"]),
    ("gold.m2", "hyp.m2", None, ["gotoscorer", "-ref", "gold.m2", "-hyp", "hyp.m2", "-v"]),
    ("gold.m2", "hyp.m2", None, ["cleme", "-ref", "gold.m2", "-hyp", "hyp.m2"]),
    ("judgments.xml", None, None, ["rank", "--judgments", "judgments.xml"]),
    ("judgments.xml", "scores.tsv", None, ["meta-eval", "--judgments", "judgments.xml", "--scores", "scores.tsv"]),
]
"""Each run: three of the files it reads (None: no file), then its command line. An example
damages one of the three files in one way (or none, where it picks None)."""


def _damage(data: bytes, kind: str, where: float, junk: bytes) -> bytes:
    """``data`` damaged in one way a real file can be (``where`` in [0, 1) picks the place)."""
    at = int(where * len(data))
    lines = data.split(b"\n")
    line = int(where * len(lines))
    if kind == "empty":
        return b""
    if kind == "truncated":
        return data[:at]
    if kind == "bytes":  # NUL, an invalid UTF-8 byte, a lone CR, a stray separator ...
        return data[:at] + junk + data[at:]
    if kind == "utf16":
        return data.decode("utf-8").encode("utf-16")
    if kind == "crlf":
        return data.replace(b"\n", b"\r\n")
    if kind == "line dropped":
        return b"\n".join(lines[:line] + lines[line + 1:])
    if kind == "line doubled":
        return b"\n".join(lines[:line + 1] + lines[line:])
    if kind == "field":  # one field of a line replaced by junk
        fields = lines[line].split(b"|||") if b"|||" in lines[line] else lines[line].split(b"\t")
        fields[int(where * 7) % len(fields)] = junk
        lines[line] = (b"|||" if b"|||" in lines[line] else b"\t").join(fields)
        return b"\n".join(lines)
    raise AssertionError(kind)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(run=st.sampled_from(DAMAGED_RUNS), which=st.integers(0, 2),
       kind=st.sampled_from(["empty", "truncated", "bytes", "utf16", "crlf", "line dropped", "line doubled", "field"]),
       where=st.floats(0, 1, exclude_max=True),
       junk=st.sampled_from([b"\x00", b"\xff", b"\xe2\x82", b"\r", b"|||", b"\t", b"-1", b"99999", b"x", b"1 0", b"",
                             b"nan", b"inf", b"<", b'"', b"\xef\xbb\xbf", b"\xe9"]))
def test_a_damaged_file_is_one_line_naming_it_or_a_score(tmp_path, monkeypatch, run, which, kind, where, junk):
    """Every command, given one of its files damaged (emptied, cut, a NUL or an invalid UTF-8
    byte, UTF-16, CRLF, a line dropped or doubled, a field replaced by junk), prints its numbers
    (without nan) and exits 0, or exits 2 with one ``gecmetric: error:`` line that names one of
    its files; never a traceback (an exception escaping the command is exit 1)."""
    monkeypatch.chdir(tmp_path)
    *names, args = run
    damaged = names[which]
    for name, text in SOUND.items():
        data = text.encode("utf-8")
        (tmp_path / name).write_bytes(_damage(data, kind, where, junk) if name == damaged else data)
    code, out, err = run_cli(*args)
    lines = [line for line in err.splitlines() if line.strip()]
    assert code in (0, 2) and "Traceback" not in err, (args, damaged, kind, err)
    if code == 2:
        assert len(lines) == 1 and lines[0].startswith("gecmetric: error: "), (args, damaged, kind, err)
        assert any(name in lines[0] for name in SOUND), (args, damaged, kind, lines[0])
    else:
        assert "nan" not in out.lower().split(), (args, damaged, kind, out)
