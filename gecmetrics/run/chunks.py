"""The one chunk index: where each chunk of a corpus lies in every file, by byte ranges.

The main process finds where every chunk starts and ends in each file (from a count of lines,
and of blank lines for M2 files: nothing is decoded or parsed), so that a worker, here or on a
Dask cluster sharing the file system, reads, decodes, parses and checks its own ranges
(:meth:`FileChunk.read`). The statistics are per sentence and joined in order, so the numbers
are those of the serial reader (:mod:`gecmetrics.run.reading`), digit for digit; when a range
holds bad input, the run asks the serial reader, which reports it as it always has.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..io.corpus import Corpus
from ..io.text import decode_lines, file_lines, open_input
from .files import CorpusFiles, count_sentences
from .reading import chunk_size, worker_chunk_size


class Misread(Exception):
    """A chunk's byte range does not hold the number of sentences it was indexed with (a line
    the index and the M2 parser see differently): the serial reader decides."""


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

    files: CorpusFiles
    offset: int
    size: int
    texts: list[ByteRange]
    gold: ByteRange | None = None
    m2: list[ByteRange] = field(default_factory=list)
    """The hypotheses' M2 ranges: of hypothesis M2 files, or of the hypotheses themselves."""

    def read(self) -> Corpus:
        """The chunk as the serial reader makes it (gold, texts, then M2, each checked as it
        does); :class:`Misread` when a range does not hold its sentences."""
        files = self.files
        gold = _read_blocks(self.gold, files.target_lines) if self.gold is not None else None
        texts = [_read_lines(part) for part in self.texts]
        sources = texts[0] if files.source is not None else None
        rest = texts[1:] if files.source is not None else texts
        refs = len(files.references)
        corpus = Corpus(sources, rest[:refs], {}, gold, dict(files.names), offset=self.offset)
        if files.m2_hypotheses:
            for name, part in zip(files.hypothesis_names, self.m2):
                blocks = _read_blocks(part, files.target_lines)
                corpus.add_hypothesis_blocks(name, blocks)
            return corpus
        corpus.hypotheses = dict(zip(files.hypotheses, rest[refs:]))
        for path, part in zip(files.hypotheses, self.m2):
            corpus.add_hypothesis_m2(path, _read_blocks(part, files.target_lines), part.path)
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


def _read_blocks(part: ByteRange, target_lines: bool = False) -> list[Any]:
    from ..io.m2 import iter_m2_blocks  # (here: a command on text files never loads the M2 code)

    blocks = list(iter_m2_blocks(_read_bytes(part), part.path, part.first_line, target_lines))
    if len(blocks) != part.count:
        raise Misread(part.path)
    return blocks


def line_starts(path: str, size: int) -> tuple[list[tuple[int, int]], int, int]:
    """(byte offset, line number) of every ``size``-th line of a text file, the file's length
    in bytes and its number of lines."""
    starts, position, count = [], 0, 0
    with open_input(path) as handle:
        for count, line in enumerate(file_lines(handle, path), start=1):
            if (count - 1) % size == 0:
                starts.append((position, count))
            position += len(line)
    return starts, position, count


def block_starts(path: str, size: int) -> tuple[list[tuple[int, int]], int, int]:
    """(byte offset, line number) of the first line of every ``size``-th block (run of
    non-blank lines) of an M2 file, the file's length in bytes and its number of blocks."""
    starts, position, blocks, in_block = [], 0, 0, False
    with open_input(path) as handle:
        for number, line in enumerate(file_lines(handle, path), start=1):
            blank = line.isspace()
            if not blank and not in_block:
                if blocks % size == 0:
                    starts.append((position, number))
                blocks += 1
            in_block = not blank
            position += len(line)
    return starts, position, blocks


def _ranges(path: str, starts: list[tuple[int, int]], length: int, total: int, size: int) -> list[ByteRange]:
    ends = [start for start, _ in starts[1:]] + [length]
    return [ByteRange(path, start, end, min(size, total - k * size), line)
            for k, ((start, line), end) in enumerate(zip(starts, ends))]


def index_files(files: CorpusFiles, chunk_lines: int | None = None) -> list[FileChunk] | None:
    """The chunks of a corpus of files as byte ranges, or None when the files cannot be split
    so (standard input or a pipe, an empty corpus, or counts that disagree: the serial reader
    reports those)."""
    if not files.seekable():
        return None
    size = chunk_size(chunk_lines)
    m2_paths = list(files.hypotheses if files.m2_hypotheses else files.hypothesis_m2)
    text_index = {path: line_starts(path, size) for path in dict.fromkeys(files.text_paths)}
    block_index = {path: block_starts(path, size) for path in dict.fromkeys([files.gold, *m2_paths]) if path}
    totals = {index[2] for index in [*text_index.values(), *block_index.values()]}
    if len(totals) != 1 or totals == {0}:
        return None
    total = totals.pop()
    ranges = {path: _ranges(path, *index[:2], total, size) for path, index in {**text_index, **block_index}.items()}
    return [FileChunk(files, k * size, min(size, total - k * size), [ranges[path][k] for path in files.text_paths],
                      ranges[files.gold][k] if files.gold else None, [ranges[path][k] for path in m2_paths])
            for k in range(-(-total // size))]


def parallel_chunk_lines(files: CorpusFiles, jobs: int, chunk_lines: int | None, even: bool = True) -> int | None:
    """The chunk size that shares the files' sentences among ``jobs`` workers
    (:func:`~.reading.worker_chunk_size`); ``chunk_lines`` when they cannot be counted."""
    if jobs <= 1:
        return chunk_lines
    total = count_sentences(files)
    if not total:
        return chunk_lines
    return worker_chunk_size(total, jobs, chunk_lines, even)
