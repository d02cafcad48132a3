"""GREEN against the numbers printed by the original implementation (github shotakoyama/green)
on CoNLL-2014 (../shared/data/expected: green.tsv, green_mean.tsv, sentence_green_word_b2.tsv,
green_verbose_AMU_b2.txt), compared as the strings printed with 6 decimals."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from gecmetrics.cli import main
from gecmetrics.io.corpus import read_corpus
from gecmetrics.io.text import read_lines
from gecmetrics.metrics import GREEN
from gecmetrics.core.table import percent
from tests.conftest import read_tsv

SYSTEMS = ["AMU", "CAMB", "CUUI", "INPUT", "REF0", "NULL"]


@pytest.fixture(scope="module")
def conll(conll14):
    """The CoNLL-2014 corpus and one EncodedCorpus per unit (counted once for every test)."""
    corpus = read_corpus(str(conll14 / "INPUT"), [str(conll14 / "REF0"), str(conll14 / "REF1")],
                         [str(conll14 / name) for name in SYSTEMS])
    systems = {name: corpus.hypotheses[str(conll14 / name)] for name in SYSTEMS}
    encoded = {unit: GREEN(unit=unit).encode(corpus.sources, corpus.references) for unit in ("word", "char")}
    return corpus, encoded, systems


def test_corpus_scores(conll, expected):
    """Every row of green.tsv: word and char, betas 0.5 1 2, the NULL rows and word(n=2)."""
    corpus, encoded, systems = conll
    rows = read_tsv(expected / "green.tsv")
    assert len(rows) == 33
    assert {row["unit"] for row in rows} == {"word", "char", "word(n=2)"}
    betas = [0.5, 1.0, 2.0]
    scores = {}  # (unit column, hypothesis) -> {beta: printed score}: one count pass for the three betas
    for row in rows:
        assert (row["dataset"], row["source"], row["references"]) == ("conll14", "INPUT", "REF0 REF1")
        key = (row["unit"], row["hypothesis"])
        if key not in scores:
            unit, n = ("word", 2) if row["unit"] == "word(n=2)" else (row["unit"], 4)
            result = GREEN(n=n, beta=betas, unit=unit).corpus_score(None, None, systems[row["hypothesis"]],
                                                                    encoded[unit])
            scores[key] = {f"{beta:.1f}": percent(score, 6) for beta, score in zip(betas, result.scores)}
        assert scores[key][row["beta"]] == row["score"], row


def test_one_beta_alone_gives_the_same_numbers(conll, expected):
    """Asked alone, a beta gives what it gives among others (AMU)."""
    _, encoded, systems = conll
    rows = [row for row in read_tsv(expected / "green.tsv") if row["hypothesis"] == "AMU"
            and row["unit"] in ("word", "char")]
    assert len(rows) == 6
    for row in rows:
        result = GREEN(beta=float(row["beta"]), unit=row["unit"]).corpus_score(
            None, None, systems[row["hypothesis"]], encoded[row["unit"]])
        assert percent(result.score, 6) == row["score"], row


def test_mean_of_sentence_scores(conll, expected):
    _, encoded, systems = conll
    rows = read_tsv(expected / "green_mean.tsv")
    assert len(rows) == 8
    for row in rows:
        metric = GREEN(beta=[0.5, 2.0], unit=row["unit"])
        mean = metric.sentence_scores(None, None, systems[row["hypothesis"]], encoded[row["unit"]]).mean
        got = dict(zip(["0.5", "2.0"], mean))
        assert percent(got[row["beta"]], 6) == row["score"], row


def test_sentence_scores(conll, expected):
    """sentence_green_word_b2.tsv: 1312 lines `AMU<TAB>CAMB`, word, beta 2."""
    _, encoded, systems = conll
    lines = [line for line in (expected / "sentence_green_word_b2.tsv").read_text(encoding="utf-8").splitlines()
             if not line.startswith("#")]
    assert len(lines) == 1312
    metric = GREEN(beta=2.0)
    columns = [metric.sentence_scores(None, None, systems[name], encoded["word"]).scores[0] for name in ("AMU", "CAMB")]
    got = ["\t".join(percent(column[d], 6) for column in columns) for d in range(1312)]
    mismatches = [(d + 1, g, w) for d, (g, w) in enumerate(zip(got, lines)) if g != w]
    assert mismatches == []


def test_cli_sentence_output_is_the_original_layout(conll14, expected):
    """`gecmetric green --sentence` prints exactly sgreen's lines."""
    want = [line for line in (expected / "sentence_green_word_b2.tsv").read_text(encoding="utf-8").splitlines()
            if not line.startswith("#")]
    result = CliRunner().invoke(main, ["green", "-s", str(conll14 / "INPUT"), "-r", str(conll14 / "REF0"),
                                       str(conll14 / "REF1"), "-c", str(conll14 / "AMU"), str(conll14 / "CAMB"),
                                       "-b", "2", "-d", "6", "--sentence"])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == want


def test_verbose_table(conll14, expected, monkeypatch):
    """green_verbose_AMU_b2.txt, byte for byte (run in the data folder: bare file names)."""
    monkeypatch.chdir(conll14)
    result = CliRunner().invoke(main, ["green", "-s", "INPUT", "-r", "REF0", "REF1", "-c", "AMU", "-t", "word",
                                       "-b", "2", "-v"])
    assert result.exit_code == 0, result.output
    assert result.stdout == (expected / "green_verbose_AMU_b2.txt").read_text(encoding="utf-8")


def test_verbose_counts_match_library(conll, expected):
    """The region counts of the verbose file are the library's corpus regions (AMU, beta 2)."""
    _, encoded, systems = conll
    result = GREEN(beta=2.0).corpus_score(None, None, systems["AMU"], encoded["word"])
    table_rows = [line for line in read_lines(str(expected / "green_verbose_AMU_b2.txt")) if line.startswith("| ")
                  and line.split("|")[1].strip().isdigit()]
    counts = [[int(cell) for cell in line.split("|")[2:9]] for line in table_rows]
    assert counts == result.regions[0].tolist()
    assert counts[0] == [27385, 471, 425, 679, 943, 1609, 1519]


def test_cli_corpus_table(conll14, expected, monkeypatch):
    """`gecmetric green` in the data folder prints the green.tsv numbers in its own layout."""
    monkeypatch.chdir(conll14)
    rows = read_tsv(expected / "green.tsv")
    result = CliRunner().invoke(main, ["green", "-s", "INPUT", "-r", "REF0", "REF1", "-c", "AMU", "CAMB", "CUUI",
                                       "INPUT", "REF0", "-t", "char", "-b", "0.5", "1", "2", "-d", "6"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "beta\t0.5\t1\t2"
    for line in lines[1:]:
        name, *scores = line.split("\t")
        assert scores == [row["score"] for row in rows if row["unit"] == "char" and row["hypothesis"] == name]
    assert len(lines) == 6


# printed by the original GREEN (shotakoyama/green ab1546d) in the CoNLL-2014 folder:
#   green -s INPUT -r REF0 REF1 -c AMU CAMB -b 0.5 1 -v -l
#   green -s INPUT -r REF0 REF1 -c AMU -b 1 -v -l -d 4 -t char
LINE_VERBOSE = {
    ("AMU", "CAMB", "-b", "0.5", "1"): "0.80\t0.50\t88.15\t76.00\t85.42\n0.50\t1.00\t87.33\t77.23\t81.97\n"
                                      "0.80\t0.50\t83.46\t76.69\t82.02\n0.50\t1.00\t82.29\t78.79\t80.50\n",
    ("AMU", "-b", "1", "-d", "4", "-t", "char"): "0.5000\t1.0000\t96.2063\t92.6873\t94.4140\n",
}


@pytest.mark.parametrize("arguments", list(LINE_VERBOSE))
def test_line_verbose_is_the_originals(conll14, monkeypatch, arguments):
    """-v -l: a line per file and beta (alpha, beta, cumulative P R F), as the original prints it;
    -l without -v changes nothing, as there."""
    monkeypatch.chdir(conll14)
    command = ["green", "-s", "INPUT", "-r", "REF0", "REF1", "-c", *arguments]
    result = CliRunner().invoke(main, [*command, "-v", "-l"])
    assert result.exit_code == 0, result.output
    assert result.stdout == LINE_VERBOSE[arguments]
    assert CliRunner().invoke(main, [*command, "-l"]).stdout == CliRunner().invoke(main, command).stdout
