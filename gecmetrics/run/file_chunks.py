"""Files counted in worker processes that read their own chunks (``-p N`` on files).

With the chunks read in the main process (:class:`~gecmetrics.run.reading.CorpusChunks`), reading
and parsing (of a gold M2 file above all) is serial, and every chunk is pickled to a worker:
the main process becomes the bottleneck. Here the main process only finds where each chunk
starts and ends in every file (byte offsets, from a count of lines and of blank lines: nothing
is decoded or parsed) and each worker reads, decodes, parses, checks and counts its own byte
ranges. The per-sentence statistics are joined in order, so the numbers are those of the
serial reader, digit for digit.

Errors stay exactly those of the serial reader: when the files' counts disagree (or the corpus
is empty) nothing is farmed out, and when a worker meets bad input, the corpus is read again
the serial way, which reports the first error as it always has (file and global line number).
Bad input is rare; it costs a second pass up to the error, never a different message.
"""
from __future__ import annotations

from contextlib import closing
from dataclasses import dataclass, field
from typing import Any, Sequence

from ..io.corpus import Corpus

from ..io.text import STDIN, decode_lines, open_input
from ..errors import InputError
from ..metrics.protocol import Metric
from .engine import Scored, _checked, _Progress, chunk_size, in_pool, joined, score_chunk
from .reading import block_starts
from ..core.units import TextChecks


class Misread(Exception):
    """A worker's chunk does not hold the number of sentences its byte range was indexed with
    (a line the index and the M2 parser see differently): the serial reader decides."""


@dataclass(frozen=True)
class ByteRange:
    """Lines [``start``, ``end``) in bytes of one file, holding ``count`` sentences (lines, or
    M2 blocks) whose first line is line ``first_line`` of the file."""

    path: str
    start: int
    end: int
    count: int
    first_line: int


@dataclass
class FileChunk:
    """One chunk of a corpus of files: its byte range in every file, and what a worker needs to
    build the same :class:`Corpus` the serial reader builds. Small and picklable."""

    texts: list[ByteRange]
    gold: ByteRange | None
    offset: int
    names: dict[str, str]
    has_source: bool
    references: int
    hypotheses: list[str]
    edits: list[tuple[str, ByteRange]] = field(default_factory=list)

    def read(self) -> Corpus:
        """The chunk as the serial reader makes it (gold, texts, then hypothesis M2, each
        checked as it does); :class:`Misread` when a range does not hold its sentences."""
        gold = _read_blocks(self.gold) if self.gold is not None else None
        texts = [_read_lines(part) for part in self.texts]
        sources = texts[0] if self.has_source else None
        rest = texts[1:] if self.has_source else texts
        corpus = Corpus(sources, rest[:self.references], {}, gold, dict(self.names), offset=self.offset)
        corpus.hypotheses = dict(zip(self.hypotheses, rest[self.references:]))
        for name, part in self.edits:
            corpus.add_hypothesis_m2(name, _read_blocks(part), part.path)
        return corpus


def _read_bytes(part: ByteRange) -> list[str]:
    with open_input(part.path) as handle:
        handle.seek(part.start)
        data = handle.read(part.end - part.start)
    return decode_lines(data, part.path, part.first_line, start_of_file=part.start == 0)


def _read_lines(part: ByteRange) -> list[str]:
    lines = _read_bytes(part)
    if len(lines) != part.count:
        raise Misread(part.path)
    return lines


def _read_blocks(part: ByteRange) -> list[Any]:
    from ..io.m2 import iter_m2_blocks

    blocks = list(iter_m2_blocks(_read_bytes(part), part.path, part.first_line))
    if len(blocks) != part.count:
        raise Misread(part.path)
    return blocks


def _line_starts(path: str, size: int) -> tuple[list[tuple[int, int]], int, int]:
    """(byte offset, line number) of every ``size``-th line of a text file, the file's length
    in bytes and its number of lines."""
    starts, position, count = [], 0, 0
    with open_input(path) as handle:
        for count, line in enumerate(handle, start=1):
            if (count - 1) % size == 0:
                starts.append((position, count))
            position += len(line)
    return starts, position, count


def _ranges(path: str, starts: list[tuple[int, int]], length: int, total: int, size: int) -> list[ByteRange]:
    ends = [start for start, _ in starts[1:]] + [length]
    return [ByteRange(path, start, end, min(size, total - k * size), line)
            for k, ((start, line), end) in enumerate(zip(starts, ends))]


def index_file_chunks(source: str | None, references: Sequence[str], hypotheses: Sequence[str],
                      gold: str | None, chunk_lines: int | None, hypothesis_m2: Sequence[str] = ()
                      ) -> list[FileChunk] | None:
    """The chunks of a corpus of files as byte ranges, or None when the files cannot be split
    so (standard input, an empty corpus, or counts that disagree: the serial reader reports)."""
    from .reading import CorpusChunks

    texts = [p for p in [source] if p is not None] + list(references) + list(hypotheses)
    if STDIN in [*texts, gold, *hypothesis_m2]:
        return None
    size = chunk_size(chunk_lines)
    names = CorpusChunks(source, references, hypotheses, gold, size, hypothesis_m2)._names  # checks the options
    text_index = {path: _line_starts(path, size) for path in dict.fromkeys(texts)}
    block_index = {path: block_starts(path, size) for path in dict.fromkeys([gold, *hypothesis_m2]) if path}
    totals = {index[2] for index in [*text_index.values(), *block_index.values()]}
    if len(totals) != 1 or totals == {0}:
        return None
    total = totals.pop()
    text_ranges = {path: _ranges(path, index[0], index[1], total, size) for path, index in text_index.items()}
    block_ranges = {path: _ranges(path, index[0], index[1], total, size) for path, index in block_index.items()}
    return [FileChunk([text_ranges[path][k] for path in texts], block_ranges[gold][k] if gold else None,
                      k * size, names, source is not None, len(references), list(hypotheses),
                      [(name, block_ranges[path][k]) for name, path in zip(hypotheses, hypothesis_m2)])
            for k in range(-(-total // size))]


@dataclass
class _Task:
    metrics: list[Metric]
    chunk: FileChunk
    names: list[str]
    check_settings: list[tuple[str, bool, int]]
    shown: list[str]


def _score_file_chunk(task: _Task) -> tuple[tuple[dict[str, list[Any]], int], int, int, TextChecks] | None:
    """A worker's whole job for one chunk: read it, check it as the pipeline does, count it.
    None when the input is bad or misread (the serial reader then says how)."""
    try:
        corpus = task.chunk.read()
        references: list[int | None] = [None]
        next(_checked(iter([corpus]), task.metrics, task.names, references))
        statistics = score_chunk((task.metrics, corpus, task.names))
    except (InputError, Misread):
        return None
    checks = TextChecks(task.check_settings)
    texts = ([corpus.sources] if task.chunk.has_source else []) + corpus.references
    checks.observe(list(zip(task.shown, texts + [corpus.hypotheses[p] for p in task.chunk.hypotheses])))
    return statistics, corpus.size, len(corpus.references), checks


def score_files_in_pool(metrics: list[Metric], chunks: list[FileChunk], names: list[str], jobs: int,
                        checks: TextChecks, shown: list[str], progress: Any = None) -> Scored | None:
    """The statistics of the indexed chunks, each read and counted by a worker, joined in order
    (``checks`` gather the texts' warnings as the serial reader's would); None as soon as a
    chunk has bad input: the caller reads the files the serial way, which reports it."""
    report = _Progress(progress, 0)
    tasks = (_Task(metrics, chunk, names, checks.settings, shown) for chunk in chunks)
    parts, references = [], 0
    with closing(in_pool(_score_file_chunk, tasks, jobs)) as results:  # leaving early stops the pool
        for _, result in results:
            if result is None:
                return None
            statistics, size, references, chunk_checks = result
            parts.append(statistics)
            _merge_checks(checks, chunk_checks)
            report.add(size * len(names), names[-1] if names else "")
    report.finish()
    return joined(metrics, names, parts, references, jobs)

def _merge_checks(checks: TextChecks, chunk: TextChecks) -> None:
    """One chunk's observations added to the corpus's, as :meth:`TextChecks.observe` would."""
    for key, count in chunk.counts.items():
        checks.counts[key] = checks.counts.get(key, 0) + count
    for key, size in chunk.longest.items():
        checks.longest[key] = max(checks.longest.get(key, 0), size)
