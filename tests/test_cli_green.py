"""`gecmetric green` on tiny corpora: output layouts, options, and bad input (one line on
stderr, exit code 2, nothing on stdout)."""
from __future__ import annotations

import json
import math
import os
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from gecmetrics.cli import main
from gecmetrics.metrics import GREEN
from gecmetrics.core.table import percent
from tests.conftest import gecmetric_script

SOURCE = ["a a b", "c c", "the cat sat on mat"]
REFERENCE_0 = ["a b b", "c b b b", "the cat sat on the mat"]
REFERENCE_1 = ["a b c", "", "the cat sat on the mat"]
HYPOTHESIS = ["a b c", "c b", "the cat sat on the mat"]
OTHER = ["a a b", "c c", "the cat sat on mat"]  # no change


def write(path: Path, lines: list[str]) -> str:
    path.write_bytes("".join(line + "\n" for line in lines).encode("utf-8"))
    return str(path)


@pytest.fixture
def files(tmp_path, monkeypatch):
    """A three-sentence corpus in tmp_path, run from there so paths print bare."""
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "src", SOURCE)
    write(tmp_path / "ref0", REFERENCE_0)
    write(tmp_path / "ref1", REFERENCE_1)
    write(tmp_path / "hyp", HYPOTHESIS)
    write(tmp_path / "other", OTHER)
    return tmp_path


BASE = ["green", "-s", "src", "-r", "ref0", "ref1"]


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def expected_scores(hypothesis, betas, **options):
    return GREEN(beta=betas, **options).corpus_score(SOURCE, [REFERENCE_0, REFERENCE_1], hypothesis).scores


def test_default_layout(files):
    result = run(*BASE, "-c", "hyp", "other")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "beta\t2"  # default beta 2
    assert lines[1] == "hyp\t" + percent(expected_scores(HYPOTHESIS, [2.0])[0], 2)
    assert lines[2] == "other\t" + percent(expected_scores(OTHER, [2.0])[0], 2)
    assert len(lines) == 3
    assert result.stderr == ""
    # Not a trivial number: 2 of 3 sentences are too short for 4-grams but count at orders 1..3.
    assert 0 < float(lines[1].split("\t")[1]) < 100


def test_several_betas(files):
    result = run(*BASE, "-c", "hyp", "other", "-b", "0.5", "1", "2", "-d", "6")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "beta\t0.5\t1\t2"
    for line, name, hypothesis in zip(lines[1:], ["hyp", "other"], [HYPOTHESIS, OTHER]):
        assert line == "\t".join([name] + [percent(s, 6) for s in expected_scores(hypothesis, [0.5, 1.0, 2.0])])
    # The columns differ (betas are not ignored).
    assert len(set(lines[1].split("\t")[1:])) == 3


def test_beta_inf_prints_recall(files):
    # The original's corpus command crashes on -b inf; F = cumulative recall here.
    result = run(*BASE, "-c", "hyp", "-b", "inf", "-d", "6")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == "beta\tinf"
    recall = GREEN(beta=math.inf).corpus_score(SOURCE, [REFERENCE_0, REFERENCE_1], HYPOTHESIS).orders().cumulative_recall[-1]
    assert result.stdout.splitlines()[1] == "hyp\t" + percent(recall, 6)
    assert recall < 1.0


def test_o_is_an_alias_of_c(files):
    with_c = run(*BASE, "-c", "hyp", "other", "-b", "1", "2")
    for flag in ("-o", "--hypothesis", "--corrected"):
        other = run(*BASE, flag, "hyp", "other", "-b", "1", "2")
        assert other.exit_code == 0, other.output
        assert other.stdout == with_c.stdout


def test_digits(files):
    result = run(*BASE, "-c", "hyp", "-d", "4")
    assert result.stdout.splitlines()[1] == "hyp\t" + percent(expected_scores(HYPOTHESIS, [2.0])[0], 4)
    assert len(result.stdout.splitlines()[1].split(".")[1]) == 4


def test_sentence(files):
    result = run(*BASE, "-c", "hyp", "other", "-b", "0.5", "2", "--sentence", "-d", "6")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 3  # one per sentence, no header
    metric = GREEN(beta=[0.5, 2.0])
    hyp = metric.sentence_scores(SOURCE, [REFERENCE_0, REFERENCE_1], HYPOTHESIS).scores
    other = metric.sentence_scores(SOURCE, [REFERENCE_0, REFERENCE_1], OTHER).scores
    for d, line in enumerate(lines):  # beta-major: b0.5 hyp, b0.5 other, b2 hyp, b2 other
        assert line.split("\t") == [percent(x, 6) for x in (hyp[0, d], other[0, d], hyp[1, d], other[1, d])]
    assert lines[2].split("\t")[0] == "100.000000"  # the third sentence is corrected as both references
    assert lines[0].split("\t")[0] == "0.000000"  # a sentence shorter than 4 units scores 0


def test_mean(files):
    result = run(*BASE, "-c", "hyp", "-b", "1", "2", "--mean", "-d", "6")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "beta\t1\t2"
    # Sentences 1 and 2 are too short (F = 0), sentence 3 is perfect: the mean is 1/3.
    assert lines[1] == "hyp\t33.333333\t33.333333"
    corpus = run(*BASE, "-c", "hyp", "-b", "1", "2", "-d", "6").stdout.splitlines()[1]
    assert corpus != lines[1]


def test_sentence_and_mean_exclusive(files):
    result = run(*BASE, "-c", "hyp", "--sentence", "--mean")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1


def test_verbose_corpus_table(files):
    result = run(*BASE, "-c", "hyp", "-b", "2", "-v")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "hyp\talpha=0.20\tbeta=2.00"
    header = [cell.strip() for cell in lines[2].split("|")[1:-1]]
    assert header == ["", "tk", "td", "ti", "od", "oi", "ud", "ui", "TP", "FP", "FN", "P", "R", "F2.0",
                      "cumP", "cumR", "cumF"]
    rows = [[cell.strip() for cell in line.split("|")[1:-1]] for line in lines if line.startswith("| ") and
            line.split("|")[1].strip().isdigit()]
    result_green = GREEN(beta=2.0).corpus_score(SOURCE, [REFERENCE_0, REFERENCE_1], HYPOTHESIS)
    assert [[int(x) for x in row[1:8]] for row in rows] == result_green.regions[0].tolist()
    assert rows[-1][-1] == percent(result_green.score, 2)
    assert "GREEN|beta:2|n:4|unit:word|refs:2" in result.stderr  # the signature goes to stderr


def test_verbose_negative_zero_beta_keeps_its_sign(files, tmp_path):
    # `-b -0` is beta 0 (alpha 1); the original prints the beta of the verbose line as given,
    # sign included, like the F column of the table. Printed by the original:
    #   green -s S -r R -c C2 -b -0 -n 2 -v   (S: "a b c"/"b c d", R: "a b d"/"b c d", C2 = S)
    #   C2\talpha=1.00\tbeta=-0.00  and a table header with F-0.0
    write(tmp_path / "s", ["a b c", "b c d"])
    write(tmp_path / "r", ["a b d", "b c d"])
    write(tmp_path / "c2", ["a b c", "b c d"])
    result = run("green", "-s", "s", "-r", "r", "-c", "c2", "-b", "-0", "-n", "2", "-v")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "c2\talpha=1.00\tbeta=-0.00"
    assert "| F-0.0  |" in lines[2]


def test_verbose_sentence(files):
    result = run(*BASE, "-c", "hyp", "-b", "2", "--sentence", "-v")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    labels = [line.split("\t")[0] for line in lines if line[:2] in ("S-", "C-", "R-")]
    # Per sentence, per reference: S-i, C-i-c, R-i-r, with * on the chosen reference.
    # Sentence 1: "a b c" equals reference 2; sentence 2 prefers reference 2 ("", see
    # test_green.test_tie_on_full_order_broken_by_lower_orders_from_high_to_low); sentence 3 ties: first.
    assert labels == ["S-1   ", "C-1-1 ", "R-1-1 ", "S-1   ", "C-1-1 ", "R-1-2*",
                      "S-2   ", "C-2-1 ", "R-2-1 ", "S-2   ", "C-2-1 ", "R-2-2*",
                      "S-3   ", "C-3-1 ", "R-3-1*", "S-3   ", "C-3-1 ", "R-3-2 "]
    assert lines[0] == "S-1   \ta a b"
    assert lines[1] == "C-1-1 \ta b c"
    assert lines[2] == "R-1-1 \ta b b"
    # The first table is sentence 1 against reference 1 (test_green.test_regions_by_hand_aab_abb_abc).
    first_rows = [[cell.strip() for cell in line.split("|")[1:-1]] for line in lines[3:12] if line.startswith("| ")
                  and line.split("|")[1].strip().isdigit()]
    assert [row[1:8] for row in first_rows[:2]] == [["2", "1", "0", "0", "1", "0", "1"], ["1", "1", "0", "0", "1", "0", "1"]]


def test_verbose_marks_choice_per_beta(files, tmp_path):
    # S = "b a c", C = "c", references "c c" and "a c": beta 0.5 chooses the first, beta 2 the
    # second (test_green.test_betas_choose_references_separately).
    write(tmp_path / "s", ["b a c"])
    write(tmp_path / "a", ["c c"])
    write(tmp_path / "b", ["a c"])
    write(tmp_path / "c", ["c"])
    result = run("green", "-s", "s", "-r", "a", "b", "-c", "c", "-n", "2", "-b", "0.5", "2", "--sentence", "-v")
    assert result.exit_code == 0, result.output
    marks = [line.split("\t")[0] for line in result.stdout.splitlines() if line.startswith("R-")]
    assert marks == ["R-1-1*", "R-1-2 ", "R-1-1 ", "R-1-2*"]
    tables = [line for line in result.stdout.splitlines() if "F0.5" in line or "F2.0" in line]
    assert len(tables) == 4 and "F0.5" in tables[0] and "F2.0" in tables[3]


def test_json_carries_signature_and_regions(files):
    result = run(*BASE, "-c", "hyp", "other", "-b", "0.5", "2", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [item["system"] for item in data] == ["hyp", "other"]
    assert data[0]["signature"] == "GREEN|beta:0.5,2|n:4|unit:word|refs:2|version:0.1.0"
    scores = expected_scores(HYPOTHESIS, [0.5, 2.0])
    # the one JSON vocabulary: scores and regions in column order (they were keyed by beta), the columns' labels
    assert data[0]["labels"] == ["GREEN b0.5", "GREEN b2"]
    assert data[0]["scores"] == pytest.approx([100 * scores[0], 100 * scores[1]], rel=1e-12)
    regions = GREEN(beta=[0.5, 2.0]).corpus_score(SOURCE, [REFERENCE_0, REFERENCE_1], HYPOTHESIS).regions
    assert data[0]["regions"][1]["tk"] == regions[1][:, 0].tolist()
    assert data[0]["regions"][1]["ui"] == regions[1][:, 6].tolist()
    assert data[0]["settings"]["n"] == 4 and data[0]["settings"]["unit"] == "word"
    char = json.loads(run(*BASE, "-c", "hyp", "-t", "char", "--normalize-space", "--json").stdout)
    assert char[0]["signature"] == "GREEN|beta:2|n:4|unit:char|space:normalized|refs:2|version:0.1.0"


def test_json_sentence_and_mean_carry_signature(files):
    sentence = json.loads(run(*BASE, "-c", "hyp", "--sentence", "--json").stdout)
    assert sentence[0]["signature"].startswith("GREEN|beta:2|n:4|unit:word|refs:2")
    assert "|sentences:each|" in sentence[0]["signature"] and sentence[0]["labels"] == ["GREEN b2"]
    assert len(sentence[0]["scores"]) == 1 and len(sentence[0]["scores"][0]) == 3  # a column of 3 sentences
    mean = json.loads(run(*BASE, "-c", "hyp", "--mean", "--json").stdout)
    assert "|sentences:mean|" in mean[0]["signature"]
    assert mean[0]["scores"] == pytest.approx([100 / 3], rel=1e-12)


def test_signature_flag(files):
    result = run(*BASE, "-c", "hyp", "-n", "3", "--signature")
    assert result.exit_code == 0, result.output
    assert result.stderr.strip() == "GREEN|beta:2|n:3|unit:word|refs:2|version:0.1.0"
    assert result.stdout.splitlines()[0] == "beta\t2"


def test_order_option(files):
    result = run(*BASE, "-c", "hyp", "-n", "2", "-d", "6")
    want = GREEN(n=2).corpus_score(SOURCE, [REFERENCE_0, REFERENCE_1], HYPOTHESIS).score
    assert result.stdout.splitlines()[1] == "hyp\t" + percent(want, 6)
    assert result.stdout != run(*BASE, "-c", "hyp", "-d", "6").stdout


def test_char_trailing_spaces_warn_and_normalize(files, tmp_path):
    write(tmp_path / "spaced", [line + " " for line in HYPOTHESIS])
    plain = run(*BASE, "-c", "spaced", "-t", "char", "-d", "6")
    assert plain.exit_code == 0, plain.output
    warnings = plain.stderr.strip().splitlines()
    assert len(warnings) == 1
    assert "spaced" in warnings[0] and "3 line" in warnings[0] and "--normalize-space" in warnings[0]
    normalized = run(*BASE, "-c", "spaced", "-t", "char", "--normalize-space", "-d", "6")
    assert normalized.exit_code == 0, normalized.output
    assert normalized.stderr == ""
    assert plain.stdout != normalized.stdout
    # Normalized, the trailing spaces are gone: the same number as the clean file.
    clean = run(*BASE, "-c", "hyp", "-t", "char", "-d", "6")
    assert clean.stderr == ""
    assert normalized.stdout.splitlines()[1].split("\t")[1] == clean.stdout.splitlines()[1].split("\t")[1]
    # Without it, the spaces are characters (as in the original).
    spaced = [line + " " for line in HYPOTHESIS]
    want = GREEN(unit="char").corpus_score(SOURCE, [REFERENCE_0, REFERENCE_1], spaced).score
    assert plain.stdout.splitlines()[1] == "spaced\t" + percent(want, 6)
    # Word mode does not care.
    assert run(*BASE, "-c", "spaced").stderr == ""
    assert run(*BASE, "-c", "spaced").stdout.splitlines()[1].split("\t")[1] == \
        run(*BASE, "-c", "hyp").stdout.splitlines()[1].split("\t")[1]


def test_crlf_and_bom_are_read_as_plain_lines(files, tmp_path):
    path = tmp_path / "crlf"
    path.write_bytes(b"\xef\xbb\xbf" + "".join(line + "\r\n" for line in HYPOTHESIS).encode())
    result = run(*BASE, "-c", "crlf", "-t", "char", "-d", "6")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[1].split("\t")[1] == run(*BASE, "-c", "hyp", "-t", "char", "-d", "6").stdout.splitlines()[1].split("\t")[1]


def test_lone_carriage_return_is_a_character(files, tmp_path):
    # "a\rb c" is one line (line counts stay aligned): in word mode \r separates words like a
    # space, so the file scores as HYPOTHESIS; in char mode it is one more character.
    write(tmp_path / "cr", ["a\rb c"] + HYPOTHESIS[1:])
    result = run(*BASE, "-c", "cr", "-d", "6")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[1].split("\t")[1] == run(*BASE, "-c", "hyp", "-d", "6").stdout.splitlines()[1].split("\t")[1]
    char = run(*BASE, "-c", "cr", "-t", "char", "-d", "6")
    assert char.exit_code == 0, char.output
    want = GREEN(unit="char").corpus_score(SOURCE, [REFERENCE_0, REFERENCE_1], ["a\rb c"] + HYPOTHESIS[1:]).score
    assert char.stdout.splitlines()[1] == "cr\t" + percent(want, 6)
    sentences = run(*BASE, "-c", "cr", "--sentence").stdout.splitlines()
    assert len(sentences) == 3


def test_standard_input(files):
    result = CliRunner().invoke(main, BASE + ["-c", "-", "-d", "6"], input="\n".join(HYPOTHESIS) + "\n")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[1] == "-\t" + percent(expected_scores(HYPOTHESIS, [2.0])[0], 6)


# ----------------------------------------------------------------------------- bad input


def assert_one_line_error(result, *fragments: str) -> str:
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    assert "Traceback" not in result.stderr
    return lines[0]


@pytest.mark.parametrize("beta", ["-1", "-0.5", "x", "nan", "-inf"])
def test_bad_beta(files, beta):
    assert_one_line_error(run(*BASE, "-c", "hyp", "-b", "2", beta), "beta", beta)


@pytest.mark.parametrize("order", ["0", "-1"])
def test_bad_order(files, order):
    assert_one_line_error(run(*BASE, "-c", "hyp", "-n", order), "-n")


def test_not_a_number_order(files):
    assert_one_line_error(run(*BASE, "-c", "hyp", "-n", "x"), "-n")


def test_different_line_counts(files, tmp_path):
    write(tmp_path / "short", HYPOTHESIS[:2])
    line = assert_one_line_error(run(*BASE, "-c", "hyp", "short"), "short", "2", "3")
    assert "has 2 lines" in line and "src has 3" in line
    line = assert_one_line_error(run("green", "-s", "src", "-r", "ref0", "short", "-c", "hyp"), "short", "has 2 lines")
    write(tmp_path / "long", HYPOTHESIS + ["extra"])
    assert_one_line_error(run(*BASE, "-c", "long"), "long", "has 4 lines", "src has 3")


def test_missing_final_newline_is_not_a_missing_line(files, tmp_path):
    (tmp_path / "nofinal").write_bytes("\n".join(HYPOTHESIS).encode())
    result = run(*BASE, "-c", "nofinal", "-d", "6")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[1].split("\t")[1] == run(*BASE, "-c", "hyp", "-d", "6").stdout.splitlines()[1].split("\t")[1]
    # An empty last line is a line: then the counts differ.
    (tmp_path / "extra").write_bytes(("\n".join(HYPOTHESIS) + "\n\n").encode())
    assert_one_line_error(run(*BASE, "-c", "extra"), "extra", "has 4 lines")


def test_missing_file(files):
    assert_one_line_error(run(*BASE, "-c", "nothere"), "nothere", "no such file")
    assert_one_line_error(run("green", "-s", "nosource", "-r", "ref0", "-c", "hyp"), "nosource")


def test_invalid_utf8(files, tmp_path):
    (tmp_path / "latin1").write_bytes(b"a b c\nc \xe9 b\nthe cat\n")
    assert_one_line_error(run(*BASE, "-c", "latin1"), "latin1:2:", "UTF-8")


def test_missing_required_options(files):
    assert_one_line_error(run("green", "-s", "src", "-c", "hyp"), "-r")
    assert_one_line_error(run(*BASE), "-c")
    assert_one_line_error(run(*BASE, "-c", "hyp", "-b"), "-b")


def test_unknown_unit(files):
    assert_one_line_error(run(*BASE, "-c", "hyp", "-t", "byte"), "byte")


# ----------------------------------------------------------------------------- the console script


def gecmetric_command() -> list[str]:
    return [gecmetric_script()]


def test_console_script(files):
    command = gecmetric_command() + BASE + ["-c", "hyp", "-b", "0.5", "inf", "-d", "6"]
    done = subprocess.run(command, capture_output=True, text=True, env={**os.environ, "LANG": "C.UTF-8"}, timeout=120)
    assert done.returncode == 0, done.stderr
    scores = expected_scores(HYPOTHESIS, [0.5, math.inf])
    assert done.stdout == "beta\t0.5\tinf\nhyp\t" + "\t".join(percent(s, 6) for s in scores) + "\n"
    bad = subprocess.run(gecmetric_command() + BASE + ["-c", "hyp", "-b", "-1"], capture_output=True, text=True,
                         timeout=120)
    assert bad.returncode == 2
    assert bad.stdout == ""
    assert len(bad.stderr.strip().splitlines()) == 1 and "beta" in bad.stderr


def test_a_scoring_command_imports_only_what_it_needs(tmp_path):
    """Start-up is part of every command's time (GREEN on CoNLL-2014 is about 0.2 s in all):
    ``gecmetric green`` printing its tab-separated table loads no optional extra, no table
    drawer, no M2 code (reader, edit blocks), no JSON module, and not NumPy's masked arrays
    (NumPy 2.4's plain ``np.unique`` loads ``numpy.ma``, about 10 ms: the counting core finds
    distinct values by sorting)."""
    import subprocess
    import sys

    from tests.conftest import write_files

    lines = ["a b c .", "a b e .", "f b c .", "a g c ."]  # four or more: the repeated-rows check runs
    paths = write_files(tmp_path, {"src": lines, "ref": [line.replace("b", "d") for line in lines], "hyp": lines})
    heavy = ["torch", "transformers", "spacy", "scipy", "dask", "distributed", "matplotlib", "prettytable",
             "gecmetrics.io.m2", "gecmetrics.core.edits", "json"]
    bare = subprocess.run([sys.executable, "-c", "import sys, numpy; print('numpy.ma' in sys.modules)"],
                          capture_output=True, text=True, timeout=120)
    if bare.stdout.strip() == "False":  # (a NumPy that loads it with itself is not the command's doing)
        heavy.append("numpy.ma")
    code = ("import sys\nfrom gecmetrics.cli import main\n"
            f"try:\n    main(['green', '-s', {paths['src']!r}, '-r', {paths['ref']!r}, '-o', {paths['hyp']!r}])\n"
            "except SystemExit as stop:\n    assert not stop.code, stop.code\n"
            f"print('LOADED', sorted(name for name in {heavy!r} if name in sys.modules))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "LOADED []" in done.stdout, done.stdout
