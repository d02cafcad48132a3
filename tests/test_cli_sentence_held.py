"""--sentence's family lines are held back until the whole input is read: a fault near the end
(a line too many on standard input, a bad byte, a broken M2 block) printed the rows before it,
which looked like the whole output, then the error."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run_cli, write_files

SOURCES = [f"sentence number {k} has a error ." for k in range(12)]
REFERENCE = [f"sentence number {k} has an error ." for k in range(12)]


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    block = "S {}\nA 5 6|||R:DET|||an|||REQUIRED|||-NONE-|||0\n"
    broken = "S {}\nA 6 5|||R:DET|||an|||REQUIRED|||-NONE-|||0\n"
    gold = "\n".join((broken if k == 10 else block).format(s) for k, s in enumerate(SOURCES))
    paths = write_files(tmp_path, {"src": SOURCES, "ref": REFERENCE, "hyp": REFERENCE, "late.m2": gold})
    (tmp_path / "bad_byte").write_bytes("".join(line + "\n" for line in REFERENCE[:10]).encode() + b"an \xe9 byte\n"
                                        + REFERENCE[11].encode() + b"\n")
    return {**paths, "bad_byte": str(tmp_path / "bad_byte")}


@pytest.mark.parametrize("command", [["green"], ["gleu"]])
def test_a_line_too_many_on_standard_input_prints_no_row(files, command):
    code, out, err = run_cli(*command, "-s", files["src"], "-r", files["ref"], "-o", "-", "--sentence",
                             "--chunk-lines", "3", "--no-cache", input="\n".join(REFERENCE + ["one more"]) + "\n")
    assert code == 2 and out == "" and err.count("\n") == 1 and "<stdin>: has 13 lines" in err, (out, err)
    code, out, err = run_cli(*command, "-s", files["src"], "-r", files["ref"], "-o", "-", "--sentence",
                             "--chunk-lines", "3", "--no-cache", input="\n".join(REFERENCE) + "\n")
    assert code == 0 and len(out.splitlines()) >= 12, err


def test_a_bad_byte_near_the_end_prints_no_row(files):
    """(A file's bytes are checked before any row, with its line count; standard input's as it is read.)"""
    with open(files["bad_byte"], "rb") as handle:
        data = handle.read()
    code, out, err = run_cli("gleu", "-s", files["src"], "-r", files["ref"], "-o", "-", "--sentence",
                             "--chunk-lines", "3", "--no-cache", input=data)
    assert code == 2 and out == "" and "<stdin>:11: invalid UTF-8" in err, (out, err)


def test_a_broken_m2_block_near_the_end_prints_no_row(files):
    for command in (["m2", "score"], ["sentm2"]):
        code, out, err = run_cli(*command, "-s", files["late.m2"], "-o", files["hyp"], "--sentence", "--chunk-lines",
                                 "3", "--no-cache")
        assert code == 2 and out == "" and "late.m2:" in err and "starts after it ends" in err, (command, out, err)


def test_rows_past_the_memory_bound_go_through_a_file(files, monkeypatch):
    from gecmetrics.cli import sentences

    code, whole, _ = run_cli("green", "-s", files["src"], "-r", files["ref"], "-o", files["hyp"], "--sentence",
                             "--no-cache")
    monkeypatch.setattr(sentences, "HELD_IN_MEMORY", 10)
    code2, spilled, _ = run_cli("green", "-s", files["src"], "-r", files["ref"], "-o", files["hyp"], "--sentence",
                                "--chunk-lines", "2", "--no-cache")
    assert code == code2 == 0 and spilled == whole and len(whole.splitlines()) >= 12


@pytest.mark.parametrize("command", [["gleu"], ["green", "-b", "0.5", "2"], ["gleu", "-m"]])
def test_the_tsv_table_streams_chunk_by_chunk_as_the_whole_run_prints_it(conll14, monkeypatch, command):
    """--sentence --tsv of metrics whose sentences are scored alone is printed chunk by chunk (it
    held the whole corpus's statistics and table: 1.58 GB for GREEN at 10^6 lines, 84 MB now):
    the same bytes as the table of the whole run, in chunks of 7 sentences and spilled to a file."""
    from gecmetrics.cli import sentences
    from gecmetrics.output.formats import render
    from gecmetrics.run.compare import sentence_comparison
    from gecmetrics.run.engine import score_files
    from gecmetrics.run.files import CorpusFiles
    from gecmetrics.metrics.registry import metrics_from_text

    from gecmetrics.run import compare

    def whole_table(*args, **kwargs):
        raise AssertionError("the table of the whole run was made")

    files = [str(conll14 / name) for name in ("INPUT", "REF0", "REF1", "AMU", "CAMB")]
    monkeypatch.setattr(sentences, "HELD_IN_MEMORY", 1000)
    with monkeypatch.context() as patched:
        patched.setattr(compare, "sentence_comparison", whole_table)
        code, out, err = run_cli(*command, "-s", files[0], "-r", *files[1:3], "-o", *files[3:], "--sentence",
                                 "--tsv", "--chunk-lines", "7", "--no-cache", "-d", "6")
    assert code == 0, err
    spec = {"gleu": "gleu", "green": "green:beta=0.5/2"}[command[0]] + (":best_reference=true" if "-m" in command else "")
    scored = score_files(metrics_from_text(spec), CorpusFiles(files[0], tuple(files[1:3]), tuple(files[3:])),
                         cache=False)
    assert out == render(sentence_comparison(scored, digits=6), "tsv") + "\n"
    assert len(out.splitlines()) == 1313


def test_a_bad_byte_near_the_end_prints_no_tsv_row(files):
    with open(files["bad_byte"], "rb") as handle:
        data = handle.read()
    code, out, err = run_cli("green", "-s", files["src"], "-r", files["ref"], "-o", "-", "--sentence", "--tsv",
                             "--chunk-lines", "3", "--no-cache", input=data)
    assert code == 2 and out == "" and "<stdin>:11: invalid UTF-8" in err, (out, err)


@pytest.mark.parametrize("command", [["gleu", "--smooth"], ["green", "-b", "0.5", "2"], ["gleu", "-m"]])
def test_the_json_of_sentences_scored_alone_keeps_their_scores_not_their_statistics(conll14, monkeypatch, command):
    """--sentence --json of a metric whose sentences are scored alone scores each chunk as it
    comes and keeps the scores (it kept every chunk's statistics and scored them joined: GREEN
    of two systems at 10^6 lines 1.54 GB, 419 MB now): in chunks of 7 sentences, the bytes of
    the corpus scored in one chunk."""
    from gecmetrics.metrics.base import Metric

    files = [str(conll14 / name) for name in ("INPUT", "REF0", "REF1", "AMU", "CAMB")]
    arguments = [*command, "-s", files[0], "-r", *files[1:3], "-o", *files[3:], "--sentence", "--json", "--no-cache"]
    code, whole, err = run_cli(*arguments, "--chunk-lines", "2000")
    assert code == 0 and len(json.loads(whole)[0]["scores"][0]) == 1312, err
    with monkeypatch.context() as patched:
        patched.setattr(Metric, "join_statistics", lambda *args: pytest.fail("the statistics were joined"))
        code, out, err = run_cli(*arguments, "--chunk-lines", "7")
    assert code == 0 and out == whole, err


def test_compare_sentence_streams_where_every_metric_scores_sentences_alone(conll14, monkeypatch):
    """compare --sentence (TSV) of metrics that score each sentence alone prints the table chunk
    by chunk, as a metric's own command does (it was made from the whole run): the same bytes;
    with the M2 scorer (a running choice) the table is still made from the whole run."""
    from gecmetrics.cli import compare as compare_command
    from gecmetrics.metrics.registry import metrics_from_text
    from gecmetrics.output.formats import render
    from gecmetrics.run.compare import sentence_comparison
    from gecmetrics.run.engine import score_files
    from gecmetrics.run.files import CorpusFiles

    files = [str(conll14 / name) for name in ("INPUT", "REF0", "REF1", "AMU", "CAMB")]
    spec = ["gleu", "green:beta=0.5/2", "gleu-max"]
    with monkeypatch.context() as patched:
        patched.setattr(compare_command, "sentence_comparison", lambda *args: pytest.fail("the whole run's table"))
        code, out, err = run_cli("compare", "-s", files[0], "-r", *files[1:3], "-o", *files[3:], "--metrics",
                                 ",".join(spec), "--sentence", "--chunk-lines", "7", "--no-cache", "-d", "6")
    assert code == 0, err
    scored = score_files(metrics_from_text(spec), CorpusFiles(files[0], tuple(files[1:3]), tuple(files[3:])),
                         cache=False)
    assert out == render(sentence_comparison(scored, digits=6), "tsv") + "\n" and len(out.splitlines()) == 1313
    gold = str(conll14 / "official-2014.combined.m2")
    code, out, err = run_cli("compare", "-s", files[0], "-r", *files[1:3], "-o", *files[3:], "--metrics", "gleu",
                             "--m2", gold, "--sentence", "--chunk-lines", "7", "--no-cache")
    assert code == 0 and len(out.splitlines()) == 1313, err
