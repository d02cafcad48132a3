"""The run engine: -p N on files, workers read their own byte ranges; the numbers, warnings and
errors are those of -p 1 (the serial reader), whatever the executor."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gecmetrics import InputError, M2Scorer
from gecmetrics.run.chunks import index_files
from gecmetrics.run.engine import _run_task, _Run, score_files
from gecmetrics.run.executors import ProcessExecutor, SerialExecutor
from gecmetrics.run.files import CorpusFiles
from tests.conftest import run_cli


def _block(k: int) -> str:
    edits = f"A 0 1|||R:X|||v{k % 3}|||REQUIRED|||-NONE-|||0\nA 1 2|||U:X|||-NONE-|||REQUIRED|||-NONE-|||1\n"
    return f"S w{k} x{k % 5} y\n" + (edits if k % 4 else "".join(
        f"A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||{a}\n" for a in (0, 1)))  # 4 lines with the blank


def _write(tmp_path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_bytes(text.encode())
    return str(path)


@pytest.fixture
def m2_files(tmp_path):
    gold = _write(tmp_path, "gold.m2", "\n".join(_block(k) for k in range(23)) + "\n")
    hyp = _write(tmp_path, "hyp", "".join(f"v{k % 3} x{k % 5} y\n" if k % 2 else f"w{k}  x{k % 5}\n"
                                          for k in range(23)))
    return gold, hyp


def _both(*args: str) -> tuple[tuple[int, str, str], tuple[int, str, str]]:
    return run_cli(*args, "-p", "1", "--chunk-lines", "3"), run_cli(*args, "-p", "2", "--chunk-lines", "3")


def test_workers_reading_their_chunks_print_what_one_process_prints(m2_files, tmp_path):
    gold, hyp = m2_files
    serial, parallel = _both("m2", "score", "-s", gold, "-o", hyp, hyp, "-d", "8")
    assert serial == parallel and serial[0] == 0 and "hyp" in serial[1]
    text = _write(tmp_path, "text", "".join(f"a b  c{k}\n" for k in range(23)))  # a whitespace warning
    for command in (["gleu", "-s", text, "-r", hyp, text, "-o", hyp, "-d", "8"],
                    ["green", "-s", text, "-r", hyp, "-c", hyp, text, "-n", "9", "-d", "8"]):
        serial, parallel = _both(*command)
        assert serial == parallel and serial[0] == 0 and "warning" in serial[2], command


def test_the_statistics_come_from_the_workers_own_reading(m2_files):
    gold, hyp = m2_files
    files = CorpusFiles(None, (), (hyp,), gold)
    chunks = index_files(files, 3)
    assert [c.gold.first_line for c in chunks[:3]] == [1, 13, 25] and [c.offset for c in chunks] == list(range(0, 23, 3))
    with ProcessExecutor(2) as executor:
        scored = score_files([M2Scorer()], files, executor=executor, chunk_lines=3)
    serial = score_files([M2Scorer()], files, executor=SerialExecutor(), chunk_lines=3)
    assert (scored.statistics[hyp][0] == serial.statistics[hyp][0]).all()


def test_a_bad_block_in_a_later_chunk_is_the_same_error(m2_files, tmp_path):
    gold, hyp = m2_files
    lines = open(gold).read().splitlines(keepends=True)
    lines[61] = "A 0 9|||R:X|||v|||REQUIRED|||-NONE-|||0\n"  # line 62: block 16, in the 6th chunk of 3
    bad = _write(tmp_path, "bad.m2", "".join(lines))
    chunks = index_files(CorpusFiles(None, (), (hyp,), bad), 3)
    run = _Run([M2Scorer()], [hyp], SerialExecutor(), 1, None, None)
    assert _run_task(run.task(chunks[5], [hyp])) is None  # a worker leaves it to the serial reader
    with pytest.raises(InputError, match="edit span 0 9 goes beyond"), ProcessExecutor(2) as executor:
        score_files([M2Scorer()], CorpusFiles(None, (), (hyp,), bad), executor=executor, chunk_lines=3)
    serial, parallel = _both("m2", "score", "-s", bad, "-o", hyp)
    assert serial == parallel and serial[0] == 2 and f"{bad}:62: edit span 0 9 goes beyond" in serial[2]
    text = tmp_path / "text"
    text.write_bytes(b"a b\n" * 20 + b"a \xff\n" + b"a b\n" * 2)  # invalid UTF-8 on line 21, in chunk 7
    serial, parallel = _both("gleu", "-s", str(text), "-r", str(text), "-o", hyp)
    assert serial == parallel and serial[0] == 2 and f"{text}:21:" in serial[2]


def test_counts_that_disagree_and_lines_the_index_misreads_go_the_serial_way(m2_files, tmp_path):
    gold, hyp = m2_files
    short = _write(tmp_path, "short", "v x y\n" * 22)
    assert index_files(CorpusFiles(None, (), (short,), gold), 3) is None
    serial, parallel = _both("m2", "score", "-s", gold, "-o", short)
    assert serial == parallel and serial[0] == 2 and "has 22 lines but the M2 file" in serial[2]
    odd = _write(tmp_path, "odd.m2", open(gold).read().replace("\n\nS w7", "\n\x1c\nS w7"))  # blank to the parser only
    serial, parallel = _both("m2", "score", "-s", odd, "-o", hyp, "-d", "8")
    assert serial == parallel and serial[0] == 0


def test_a_slow_metric_chooses_small_chunks_unless_the_run_is_told() -> None:
    """Metric.chunk_lines: the chunk size a run takes when none is given (the smallest of its
    metrics'); an explicit chunk size wins; the numbers never depend on it."""
    from gecmetrics import GLEU, Corpus
    from gecmetrics.run.engine import score_corpus, scored_chunks

    class SlowGLEU(GLEU):
        chunk_lines = 3

    sources = [f"a b c {k}" for k in range(10)]
    corpus = Corpus(sources, [[f"a b d {k}" for k in range(10)]], {"sys": [f"a b d {k}" for k in range(10)]})
    assert [c.size for c in scored_chunks([SlowGLEU(best_reference=True)], corpus)] == [3, 3, 3, 1]
    assert [c.size for c in scored_chunks([SlowGLEU(best_reference=True), GLEU(best_reference=True)], corpus)] \
        == [3, 3, 3, 1]
    assert [c.size for c in scored_chunks([SlowGLEU(best_reference=True)], corpus, chunk_lines=5)] == [5, 5]
    assert [c.size for c in scored_chunks([GLEU(best_reference=True)], corpus)] == [10]
    slow = score_corpus([SlowGLEU(best_reference=True)], corpus).result("sys", 0).score
    assert slow == score_corpus([GLEU(best_reference=True)], corpus).result("sys", 0).score


def test_workers_get_equal_chunks_as_many_as_a_multiple_of_workers(tmp_path) -> None:
    """-p N: the corpus is cut into chunks of one size, at least two per worker and as many as
    a multiple of N, never above the default or the metric's chunk size, so that no worker idles through
    another's last chunk (ERRANT on CoNLL-2014 with two workers: six chunks of 219 lines, where
    five of 250 and one of 62 kept a worker idle for a whole chunk). The numbers never depend on it."""
    from gecmetrics import GLEU, Corpus
    from gecmetrics.run.chunks import parallel_chunk_lines
    from gecmetrics.run.engine import score_corpus, scored_chunks
    from gecmetrics.run.reading import worker_chunk_size

    assert worker_chunk_size(1312, 2, 250) == 219
    assert worker_chunk_size(1312, 3, 250) == 219 and worker_chunk_size(1312, 4, 250) == 164
    assert worker_chunk_size(1312, 1, 250) == 250 and worker_chunk_size(1312, 2, None) == 328
    assert worker_chunk_size(0, 2, 5) == 5 and worker_chunk_size(3, 2, None) == 1
    assert worker_chunk_size(100_000, 16, None) == 1_563 and worker_chunk_size(1000, 2, 300) == 250  # 64 and 4 chunks
    with pytest.raises(InputError, match="chunk size"):
        worker_chunk_size(10, 2, 0)

    class TwoWorkers(SerialExecutor):
        jobs = 2

    class SlowGLEU(GLEU):
        chunk_lines = 4

    sources = [f"a b c {k}" for k in range(18)]
    corpus = Corpus(sources, [[f"a b d {k}" for k in range(18)]], {"sys": [f"a b d {k}" for k in range(18)]})
    assert [c.size for c in scored_chunks([SlowGLEU(best_reference=True)], corpus, executor=TwoWorkers())] \
        == [3, 3, 3, 3, 3, 3]  # not 4, 4, 4, 4, 2
    # a size the caller gives is kept (it shapes a model metric's batches), lowered only to give
    # every worker two chunks
    assert [c.size for c in scored_chunks([GLEU()], corpus, executor=TwoWorkers(), chunk_lines=4)] == [4, 4, 4, 4, 2]
    assert worker_chunk_size(150, 2, 30, even=False) == 30 and worker_chunk_size(150, 2, 60, even=False) == 38
    assert score_corpus([SlowGLEU(best_reference=True)], corpus, executor=TwoWorkers()).result("sys", 0).score \
        == score_corpus([GLEU(best_reference=True)], corpus).result("sys", 0).score
    text = tmp_path / "t"
    text.write_text("".join(f"a b {k}\n" for k in range(1312)), encoding="utf-8")
    assert parallel_chunk_lines(CorpusFiles(str(text), (str(text),), (str(text),)), 2, 250) == 219


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_corpus_in_memory_warns_as_its_files_do(tmp_path, jobs):
    """score_corpus observed no text (the engine named none of a corpus's texts): its warnings
    said "n = 4 is more than the length of every sentence (at most 0 words)" of every corpus and
    missed the whitespace. A corpus read from files now warns as its files do (the source named
    as its messages name it, the systems by their names)."""
    from gecmetrics.io.corpus import Corpus, read_corpus
    from gecmetrics.run.engine import score_corpus

    src = _write(tmp_path, "src", "a b c d e\nf g h\n")
    ref = _write(tmp_path, "ref", "a b c d e\nf g\u00a0h\n")  # non-ASCII whitespace
    hyp = _write(tmp_path, "hyp", "a b  c d e\nf g h\n")  # a repeated space: counts in char mode
    metrics = ["gleu", "green:unit=char"]
    files = score_files(metrics, CorpusFiles(src, (ref,), (hyp,)), jobs=jobs, chunk_lines=1)
    corpus = score_corpus(metrics, read_corpus(src, [ref], [hyp]), jobs=jobs, chunk_lines=1)
    assert corpus.warnings() == files.warnings()
    assert f"gecmetric: warning: {ref}: 1 line contains whitespace that Python 2 did not split on " \
        "(e.g. U+00A0, U+001C), which splits words here but not in gec-ranking; scores may differ from it" in files.warnings()
    assert f"gecmetric: warning: {hyp}: 1 line has whitespace other than single spaces between " \
        "words (leading, trailing or repeated, a tab, a lone '\\r'), which counts in char mode (as in the original " \
        "tools); --normalize-space (Python: normalize_space=True) ignores it" in files.warnings()
    assert not any("more than the length" in line for line in files.warnings())
    short = Corpus(["a b", "c"], [["a x", "c"]], {"SYS": ["a b", "c"]})
    assert score_corpus(["gleu"], short, jobs=jobs).warnings() == [
        "gecmetric: warning: n = 4 is more than the length of every sentence (at most 2 words): no n-gram of order 4 "
        "to match, so corpus scores are 0 (sentence scores follow each metric's rules for short sentences)"]
    assert score_corpus(["gleu"], Corpus(["a b c d"], [["a b c d"]], {"SYS": ["a b c d"]})).warnings() == []


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_file_written_to_while_its_chunks_are_read_is_an_error(tmp_path, jobs):
    """A hypothesis rewritten in place with the same bytes per line kept every line count and
    gave a score of neither version, exit 0; the files' versions are now compared after the run
    (a replaced file, or one whose times were put back, has another inode or change time)."""
    lines = [f"w{k} x{k} y{k} ." for k in range(40)]
    source = _write(tmp_path, "src", "\n".join(lines) + "\n")
    hyp = _write(tmp_path, "hyp", "\n".join(lines) + "\n")
    files = CorpusFiles(source, (source + "2",), (hyp,))
    _write(tmp_path, "src2", "\n".join(line.upper() for line in lines) + "\n")
    baseline = score_files(["gleu"], files, chunk_lines=5).result(hyp, 0).score
    seen = []

    def rewrite(done, total, what):
        seen.append(done)
        if len(seen) == 1:  # after the first chunk: the same size, every line another text
            with open(hyp, "r+b") as handle:
                handle.write("\n".join(line.upper() for line in lines).encode() + b"\n")

    with pytest.raises(InputError, match=r"hyp: changed while the run read it"):
        score_files(["gleu"], files, chunk_lines=5, jobs=jobs, progress=rewrite)
    assert score_files(["gleu"], files, chunk_lines=5).result(hyp, 0).score != baseline  # (the file did change)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.lists(st.sampled_from([b"a", b"bc", b"\n", b"\r\n", b"\r", b" ", "é".encode(), b"\xef\xbb\xbf"]),
                     max_size=40).map(b"".join),
       piece=st.integers(1, 9), counts=st.lists(st.integers(1, 5), min_size=1, max_size=6))
def test_the_line_reader_gives_the_lines_read_lines_gives_whatever_its_pieces(data, piece, counts, tmp_path_factory,
                                                                             monkeypatch):
    """The reader cuts pieces of PIECE_BYTES after the lines asked for: any piece size and any
    numbers of lines asked for give the lines of read_lines in order (a line or a CRLF across
    pieces, a byte-order mark, a last line without its break), and count_rest their number."""
    from gecmetrics.io.text import read_lines
    from gecmetrics.run import reading

    path = tmp_path_factory.mktemp("reader") / "text"
    path.write_bytes(data)
    expected = read_lines(str(path))
    monkeypatch.setattr(reading, "PIECE_BYTES", piece)
    reader, got = reading.LineReader(str(path)), []
    for count in counts * 20:
        part = reader.read(count)
        assert len(part) == min(count, len(expected) - len(got))
        got += part
    assert got == expected
    reader.close()
    for first in range(len(expected) + 1):
        reader = reading.LineReader(str(path))
        reader.read(first) if first else None
        assert reader.count_rest() == len(expected), first
        reader.close()


def test_the_line_reader_refuses_a_nul_byte_in_the_piece_it_reads_naming_its_line(tmp_path, monkeypatch):
    from gecmetrics.run import reading

    path = tmp_path / "text"
    path.write_bytes(b"a\nb\nc\nd\x00e\nf\n")
    monkeypatch.setattr(reading, "PIECE_BYTES", 4)
    reader = reading.LineReader(str(path))
    assert reader.read(2) == ["a", "b"]
    with pytest.raises(InputError, match=r"text:4: NUL byte"):
        reader.read(5)


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_corpus_made_chunk_by_chunk_scores_as_the_whole(jobs) -> None:
    """score_chunks (a corpus never whole: cherrant score's para files) gives score_corpus's
    scores, each chunk taken once; an error the chunks raise after the last one ends the run."""
    from gecmetrics.io.corpus import Corpus
    from gecmetrics.run.engine import score_chunks, score_corpus

    sources = [f"a b c {k} d e" for k in range(9)]
    references = [[f"a b c {k} d f" for k in range(9)], [f"a c {k} d e" for k in range(9)]]
    hypothesis = [f"a b {k} d e" if k % 2 else s for k, s in enumerate(sources)]
    whole = Corpus(sources, references, {"h": hypothesis})
    taken = []

    def chunks(fail: bool = False):
        for start in range(0, 9, 4):
            taken.append(start)
            yield whole.slice(start, min(start + 4, 9))
        if fail:
            raise InputError("found after the last chunk", "h")

    expected = score_corpus(["gleu", "green"], whole, jobs=jobs)
    scored = score_chunks(["gleu", "green"], chunks(), ["h"], jobs=jobs)
    for k in range(2):
        assert scored.result("h", k).score == expected.result("h", k).score
    assert taken == [0, 4, 8]
    with pytest.raises(InputError, match="found after the last chunk"):
        score_chunks(["gleu"], chunks(fail=True), ["h"], jobs=jobs)
    with pytest.raises(InputError, match="chunks that are each a Corpus, got list"):
        score_chunks(["gleu"], [sources], ["h"])
    with pytest.raises(InputError, match="names must be a sequence"):
        score_chunks(["gleu"], chunks(), "h")
