"""Scale: results never depend on how the corpus is cut into chunks, on the number of worker
processes, or on whether a Dask cluster counted the chunks; files are read chunk by chunk with
errors naming the line in the whole file."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gecmetrics import GLEU, GLEU2015, GREEN, Corpus, ErrantCompare, InputError, M2Scorer
from gecmetrics.io.m2 import Block, parse_m2
from gecmetrics.run.engine import score_corpus
from gecmetrics.run.chunks import index_files
from gecmetrics.run.files import CorpusFiles
from gecmetrics.run.reading import CorpusChunks
from tests.conftest import run_cli

WORDS = ["a", "b", "c", "the", "cat", "sat", "."]
METRICS = [GLEU(iterations=20), GLEU(seed=4, iterations=20), GLEU(best_reference=True), GLEU("paper", iterations=20),
           GLEU2015(lambda_=0.5), GREEN(beta=[0.5, 2]), GREEN(n=2, unit="char")]


def sentence(draw):
    return " ".join(draw(st.lists(st.sampled_from(WORDS), max_size=9)))


@st.composite
def corpora(draw):
    size = draw(st.integers(1, 30))
    texts = [[sentence(draw) for _ in range(size)] for _ in range(5)]
    return Corpus(texts[0], texts[1:3], {"h0": texts[3], "h1": texts[4]})


def assert_same(whole, other):
    for name in whole.names:
        for k, metric in enumerate(whole.metrics):
            np.testing.assert_array_equal(whole.statistics[name][k], other.statistics[name][k])
            assert whole.result(name, k).scores == pytest.approx(other.result(name, k).scores, abs=0, rel=0) \
                or list(whole.result(name, k).scores) == list(other.result(name, k).scores)
            np.testing.assert_array_equal(metric.sentence_matrix(whole.statistics[name][k]),
                                          metric.sentence_matrix(other.statistics[name][k]))


@settings(max_examples=25, deadline=None)
@given(corpus=corpora(), chunk=st.sampled_from([1, 7, None]))
def test_chunked_equals_whole_for_every_ngram_metric(corpus, chunk):
    whole = score_corpus(METRICS, corpus, chunk_lines=10 ** 6)
    assert_same(whole, score_corpus(METRICS, corpus, chunk_lines=chunk))


@st.composite
def m2_corpora(draw):
    blocks, hypotheses = [], []
    for _ in range(draw(st.integers(1, 12))):
        tokens = draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=6))
        lines = ["S " + " ".join(tokens)]
        for annotator in range(draw(st.integers(1, 3))):
            start = draw(st.integers(0, len(tokens) - 1))
            lines.append(f"A {start} {start + 1}|||R:X|||{draw(st.sampled_from(WORDS))}|||REQUIRED|||-NONE-|||{annotator}")
        blocks.append("\n".join(lines))
        hypotheses.append(sentence(draw))
    return parse_m2("\n\n".join(blocks) + "\n", "gold"), hypotheses


@settings(max_examples=25, deadline=None)
@given(data=m2_corpora(), chunk=st.sampled_from([1, 7, None]))
def test_chunked_equals_whole_for_the_m2_family(data, chunk):
    gold, hypotheses = data
    corpus = Corpus(None, [], {"h": hypotheses}, gold)
    metrics = [M2Scorer(), M2Scorer(beta=1, max_unchanged_words=0)]
    assert_same(score_corpus(metrics, corpus, chunk_lines=10 ** 6), score_corpus(metrics, corpus, chunk_lines=chunk))
    first_edits = [Block(block.source, block.edits[:1], block.line) for block in gold]  # same sentences, fewer edits
    errant = Corpus(None, [], {"same": gold, "first": first_edits}, gold)
    assert_same(score_corpus([ErrantCompare()], errant, chunk_lines=10 ** 6),
                score_corpus([ErrantCompare()], errant, chunk_lines=chunk))


def test_worker_processes_give_the_same_statistics(conll14):
    from gecmetrics.io.corpus import read_corpus

    corpus = read_corpus(str(conll14 / "INPUT"), [str(conll14 / "REF0"), str(conll14 / "REF1")],
                         [str(conll14 / name) for name in ("AMU", "CAMB")])
    one = score_corpus(METRICS, corpus)
    assert_same(one, score_corpus(METRICS, corpus, jobs=2))
    assert_same(one, score_corpus(METRICS, corpus, jobs=2, chunk_lines=97))


def test_cli_jobs_and_chunks_print_the_same(conll14, monkeypatch):
    monkeypatch.chdir(conll14)
    for args in (["gleu", "-s", "INPUT", "-r", "REF0", "REF1", "-o", "AMU", "CAMB", "-d", "8"],
                 ["green", "-s", "INPUT", "-r", "REF0", "REF1", "-c", "AMU", "CAMB", "-b", "0.5", "2", "-d", "8"],
                 ["gleu", "-s", "INPUT", "-r", "REF0", "REF1", "-o", "AMU", "--sentence", "-m"],
                 ["green", "-s", "INPUT", "-r", "REF0", "REF1", "-c", "AMU", "--sentence", "--json"],
                 ["m2", "score", "-s", "official-2014.combined.m2", "-o", "AMU", "CAMB", "--sentence"],
                 ["m2", "score", "-s", "official-2014.combined.m2", "-o", "AMU", "CAMB", "-d", "8"]):
        outputs = {run_cli(*args, *extra)[1] for extra in ([], ["--chunk-lines", "100"], ["-p", "2"],
                                                          ["-p", "2", "--chunk-lines", "333"])}
        assert len(outputs) == 1 and outputs.pop(), args
    # the sentence scores' JSON: each sentence's annotator is chosen by the totals of the sentences
    # before it, in earlier chunks too (they restarted at every chunk: CAMB's sentence 295 read 1.0
    # instead of 0.9091 with --chunk-lines 7, as chunks of 294 lines give it)
    args = ["m2", "score", "-s", "official-2014.combined.m2", "-o", "AMU", "CAMB", "--sentence", "--json"]
    outputs = {run_cli(*args, *extra)[1] for extra in ([], ["--chunk-lines", "7"], ["--chunk-lines", "294"],
                                                      ["-p", "2", "--chunk-lines", "7"])}
    assert len(outputs) == 1 and outputs.pop(), args


def test_dask_cluster_gives_the_local_statistics(conll14):
    pytest.importorskip("distributed", reason="the Dask path needs gecmetrics[dask] (dask, distributed)")
    from gecmetrics.run.engine import score_files
    from gecmetrics.run.executors import DaskExecutor

    files = CorpusFiles(str(conll14 / "INPUT"), (str(conll14 / "REF0"), str(conll14 / "REF1")), (str(conll14 / "AMU"),))
    metrics = [GLEU(), GREEN(beta=[0.5, 2])]
    local = score_files(metrics, files, chunk_lines=400)
    with DaskExecutor("local", 2) as executor:
        assert_same(local, score_files(metrics, files, executor=executor, chunk_lines=300))
        m2_files = CorpusFiles(None, (), (str(conll14 / "CAMB"),), str(conll14 / "official-2014.combined.m2"))
        m2 = score_files([M2Scorer()], m2_files, executor=executor, chunk_lines=500)
    assert m2.result(str(conll14 / "CAMB"), 0).f == pytest.approx(0.3733, abs=5e-5)


# ---------------------------------------------------------------------------- reading in chunks


def _write(tmp_path, name, data: bytes) -> str:
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def test_chunks_report_lines_of_the_whole_file(tmp_path):
    good = _write(tmp_path, "good", b"".join(b"a b %d\n" % k for k in range(10)))
    bad = _write(tmp_path, "bad", b"".join(b"a b %d\n" % k for k in range(7)) + b"a \xff\n" + b"x\ny\n")
    with pytest.raises(InputError) as error:
        list(CorpusChunks(CorpusFiles(good, (good,), (bad,)), chunk_lines=3))
    assert (error.value.path, error.value.line) == (bad, 8)
    short = _write(tmp_path, "short", b"a\n" * 9)
    with pytest.raises(InputError, match="has 9 lines but the source .* has 10"):
        list(CorpusChunks(CorpusFiles(good, (good,), (short,)), chunk_lines=4))
    long = _write(tmp_path, "long", b"a\n" * 11)
    with pytest.raises(InputError, match="has 11 lines but the source .* has 10"):
        list(CorpusChunks(CorpusFiles(good, (good,), (long,)), chunk_lines=5))
    with pytest.raises(InputError, match="has 10 lines but the other 2 files have 11"):
        list(CorpusChunks(CorpusFiles(good, (long,), (long,)), chunk_lines=5))


def test_gold_m2_read_in_chunks(tmp_path):
    blocks = "".join(f"S w{k} x\nA 0 1|||R:X|||v|||REQUIRED|||-NONE-|||0\n\n" for k in range(5))
    gold = _write(tmp_path, "gold.m2", blocks.encode())
    hyp = _write(tmp_path, "hyp", b"v x\n" * 5)
    chunks = list(CorpusChunks(CorpusFiles(None, (), (hyp,), gold), chunk_lines=2))
    assert [c.size for c in chunks] == [2, 2, 1] and [c.offset for c in chunks] == [0, 2, 4]
    assert chunks[2].gold[0].line == 13 and chunks[2].sources == ["w4 x"]
    specs = index_files(CorpusFiles(None, (), (hyp,), gold), chunk_lines=2)
    assert [[b.line for b in s.read().gold] for s in specs] == [[b.line for b in c.gold] for c in chunks]
    six = _write(tmp_path, "six", b"v x\n" * 6)
    with pytest.raises(InputError, match="has 6 lines but the M2 file .*gold.m2 has 5 blocks"):
        list(CorpusChunks(CorpusFiles(None, (), (six,), gold), chunk_lines=2))
    bad = _write(tmp_path, "bad.m2", (blocks + "S y\nA 0 5|||R:X|||v|||REQUIRED|||-NONE-|||0\n").encode())
    with pytest.raises(InputError) as error:
        list(CorpusChunks(CorpusFiles(None, (), (hyp,), bad), chunk_lines=2))
    assert (error.value.path, error.value.line) == (bad, 17)


def test_cli_chunks_and_jobs_options_are_checked(tmp_path):
    text = _write(tmp_path, "t", b"a b c d\n")
    for bad in (["--chunk-lines", "0"], ["-p", "-1"]):
        code, out, err = run_cli("gleu", "-s", text, "-r", text, "-o", text, *bad)
        assert code == 2 and out == "" and len(err.splitlines()) == 1, err
    serial = run_cli("gleu", "-s", text, "-r", text, "-o", text, "--sentence")
    assert run_cli("gleu", "-s", text, "-r", text, "-o", text, "--sentence", "--dask", "local")[:2] == serial[:2]


class _DyingGLEU(GLEU):
    """A metric whose worker processes die (as one killed for lack of memory would)."""

    parent = 0

    def statistics(self, prepared, hypothesis):
        import os
        import signal

        if os.getpid() != _DyingGLEU.parent:
            os.kill(os.getpid(), signal.SIGKILL)
        return super().statistics(prepared, hypothesis)


def test_a_worker_that_dies_is_one_error_not_a_hang():
    import os

    _DyingGLEU.parent = os.getpid()
    corpus = Corpus(["a b c d"] * 40, [["a b c d"] * 40], {"h": ["a b c e"] * 40})
    with pytest.raises(InputError, match="a worker process died"):
        score_corpus([_DyingGLEU()], corpus, jobs=2, chunk_lines=10)
    assert score_corpus([_DyingGLEU()], corpus, jobs=1).result("h", 0).score >= 0  # in this process it lives


def test_a_files_line_count_is_counted_once_per_version(tmp_path):
    """--sentence checks every file's line count before its first chunk and the engine then asks
    the first file's: one count per version of a file in a process, a changed file counted again."""
    from gecmetrics.run import files

    path = tmp_path / "lines"
    path.write_text("a\nb\n", encoding="utf-8")
    files._counted_lines.cache_clear()
    assert files._line_count(str(path)) == 2 == files._line_count(str(path))
    assert files._counted_lines.cache_info().misses == 1
    path.write_text("a\nb\nc", encoding="utf-8")  # another size: counted again
    assert files._line_count(str(path)) == 3
