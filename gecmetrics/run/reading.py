"""The serial reader: aligned files read in chunks of sentences, in lockstep, by one process.

:class:`CorpusChunks` opens the files of a :class:`~gecmetrics.run.files.CorpusFiles` and
yields :class:`~gecmetrics.io.corpus.Corpus` chunks of at most ``chunk_lines`` sentences. It
reads anything, standard input and pipes included, and it is the reference for messages: lines
follow SPEC 1 exactly as :func:`~gecmetrics.io.text.read_lines` reads them, errors name the file
and its line number in the whole file, and files whose counts differ are reported as
:func:`~gecmetrics.io.corpus.read_corpus` reports them (the odd one out is named). Workers that
read their own byte ranges (:mod:`gecmetrics.run.chunks`) leave any bad input to this reader.
"""
from __future__ import annotations

import itertools
from typing import IO, Iterator

from ..core.checks import check_count
from ..errors import InputError, plural
from ..io.corpus import Corpus
from ..io.text import PIECE_BYTES, STDIN, blame_line_counts, check_no_nul, decode_lines, open_input, standard_input
from ..io.text import shown_path
from .files import CorpusFiles, blame_gold_count

BOM = "\ufeff".encode()

DEFAULT_CHUNK_LINES = 2_000
"""Sentences counted together: a run keeps only the per-sentence statistics of finished chunks,
so memory stays near what one chunk needs, whatever the corpus size."""
MAX_CHUNK_LINES = 10_000_000
"""The largest chunk: beyond, one chunk's texts would not fit in memory anyway."""


def chunk_size(chunk_lines: int | None) -> int:
    """Sentences per chunk: ``chunk_lines`` checked, or the default."""
    if chunk_lines is None:
        return DEFAULT_CHUNK_LINES
    return check_count(chunk_lines, "the chunk size (--chunk-lines N)", 1, MAX_CHUNK_LINES,
                       "gecmetrics.run.reading.MAX_CHUNK_LINES")


def worker_chunk_size(sentences: int, jobs: int, chunk_lines: int | None, even: bool = True) -> int:
    """Sentences per chunk when ``jobs`` workers share ``sentences``: at least two chunks per
    worker and never above :func:`chunk_size`. ``even`` (a default or a metric's own chunk
    size): chunks of one size, as many as a multiple of ``jobs``, so that the workers finish
    together (1,312 lines in chunks of at most 250 on two workers: six of 219, not five of 250
    and one of 62 that leaves a worker idle for a whole chunk at the end). Not ``even`` (a size
    the user gave): that size, lowered only to give every worker two chunks, since the chunks
    shape a model metric's batches, whose float32 sums differ in their last bits."""
    size = chunk_size(chunk_lines)
    if jobs <= 1 or sentences <= 0:
        return size
    if not even:
        return max(1, min(size, -(-sentences // (2 * jobs))))
    chunks = max(-(-sentences // size), 2 * jobs)
    chunks = -(-chunks // jobs) * jobs
    return max(1, -(-sentences // chunks))


class LineReader:
    """One text file (or standard input), read a number of lines at a time: the file is read a
    piece of :data:`~gecmetrics.io.text.PIECE_BYTES` at a time and cut after the line asked for
    last, so a line costs a byte search, not a call of ``readline`` (8,000 lines of CoNLL-2014:
    4.6 -> 1 ms); a piece holding a NUL byte is refused at once, naming the line."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.name = shown_path(path)
        self.handle: IO[bytes] = standard_input() if path == STDIN else open_input(path)
        self._pending = b""  # (read from the file, not yet given: at most one piece)
        self.lines_read = 0

    def _piece(self, first_line: int) -> bytes:
        """The next piece of the file (empty at its end); ``first_line``: the line it starts in."""
        piece = self.handle.read(PIECE_BYTES)
        check_no_nul(piece, self.name, first_line)
        return piece

    def read(self, count: int) -> list[str]:
        """The next ``count`` lines (fewer at the end of the file)."""
        taken: list[bytes] = []
        found = 0  # line ends in taken
        while found < count:
            if not self._pending:
                self._pending = self._piece(self.lines_read + found + 1)
                if not self._pending:
                    break
            ends = self._pending.count(b"\n")
            if found + ends < count:
                taken.append(self._pending)
                self._pending, found = b"", found + ends
                continue
            cut = -1
            for _ in range(count - found):
                cut = self._pending.index(b"\n", cut + 1)
            taken.append(self._pending[:cut + 1])
            self._pending, found = self._pending[cut + 1:], count
        data = b"".join(taken)
        if not data:
            return []
        lines = decode_lines(data, self.name, first_line=self.lines_read + 1, start_of_file=self.lines_read == 0)
        self.lines_read += len(lines)
        return lines

    def __iter__(self) -> Iterator[str]:
        while True:
            lines = self.read(DEFAULT_CHUNK_LINES)
            if not lines:
                return
            yield from lines

    def count_rest(self) -> int:
        """Lines read so far plus the lines left (read to the end, not kept)."""
        total, last, piece = self.lines_read, b"\n", self._pending
        self._pending = b""
        if total == 0:  # (a byte-order mark opening the file is no line of its own)
            while len(piece) < len(BOM) and (more := self._piece(1)):
                piece += more
            piece = piece.removeprefix(BOM)
        while piece or (piece := self._piece(total + 1)):
            total += piece.count(b"\n")
            last, piece = piece[-1:], b""
        return total + (last != b"\n")  # (a last line without its line break counts)

    def close(self) -> None:
        if self.path != STDIN:
            self.handle.close()


def _m2_blocks(reader: LineReader, target_lines: bool) -> Iterator:
    """The M2 blocks of an open file, read as they are asked for (the M2 reader is imported
    here: a command on text files never loads it)."""
    from ..io.m2 import iter_m2_blocks

    return iter_m2_blocks(reader, reader.name, target_lines=target_lines)


class CorpusChunks:
    """The corpus of ``files`` as consecutive chunks of sentences (see the module docstring).
    Iterate once; ``lines`` is the number of sentences read so far."""

    def __init__(self, files: CorpusFiles, chunk_lines: int | None = None) -> None:
        self.files = files
        self.chunk_lines = chunk_size(chunk_lines)
        self.lines = 0
        self._readers: list[LineReader] = []

    def _open(self, path: str) -> LineReader:
        reader = LineReader(path)
        self._readers.append(reader)
        return reader

    def __iter__(self) -> Iterator[Corpus]:
        files = self.files
        try:
            texts = [self._open(path) for path in files.text_paths]
            blocks = None
            if files.gold is not None:
                blocks = self._gold_blocks = _m2_blocks(self._open(files.gold), files.target_lines)
            m2_paths = files.hypotheses if files.m2_hypotheses else files.hypothesis_m2
            streams = [(reader.name, _m2_blocks(reader, files.target_lines)) for reader in map(self._open, m2_paths)]
            chunks = self._chunks(texts, blocks)
            yield from (self._with_m2_hypotheses(chunks, streams) if files.m2_hypotheses
                        else self._with_edits(chunks, streams))
        finally:
            for reader in self._readers:
                reader.close()

    def _chunks(self, texts: list[LineReader], blocks) -> Iterator[Corpus]:
        files = self.files
        has_source = files.source is not None
        refs = len(files.references)
        while True:
            gold = None if blocks is None else list(itertools.islice(blocks, self.chunk_lines))
            size = len(gold) if gold is not None and not has_source else self.chunk_lines
            parts = [reader.read(size) for reader in texts]
            counts = {len(part) for part in parts} | ({len(gold)} if gold is not None else set())
            if len(counts) > 1 or (max(counts, default=0) < self.chunk_lines and self._unfinished(texts)):
                self._blame(texts, blocks, gold)
            if not counts or counts == {0}:
                if self.lines == 0:
                    where = files.names.get("gold" if not has_source else "source", "the corpus")
                    raise InputError("the corpus has no sentences (an empty file scores nothing)", where)
                return
            sources = parts[0] if has_source else None
            texts_part = parts[1:] if has_source else parts
            corpus = Corpus(sources, texts_part[:refs], {}, gold, dict(files.names), offset=self.lines)
            corpus.hypotheses = dict(zip(files.hypotheses, texts_part[refs:]))  # lengths checked above
            self.lines += corpus.size
            yield corpus

    def _with_edits(self, chunks: Iterator[Corpus], streams: list) -> Iterator[Corpus]:
        """The chunks, each with its sentences' blocks of every hypothesis M2 file (checked
        against the chunk's sentences and texts)."""
        last_line: dict[str, int | None] = {}
        for chunk in chunks:
            for path, (name, blocks) in zip(self.files.hypotheses, streams):
                chunk.add_hypothesis_m2(path, self._part(chunk, name, blocks, last_line), name)
            yield chunk
        self._no_more(streams)

    def _with_m2_hypotheses(self, chunks: Iterator[Corpus], streams: list) -> Iterator[Corpus]:
        """The chunks, each with the blocks of every hypothesis M2 file as its hypotheses (the
        same sentences as the gold's, checked block by block)."""
        last_line: dict[str, int | None] = {}
        for chunk in chunks:
            for name, blocks in streams:
                part = self._part(chunk, name, blocks, last_line)
                try:
                    chunk.check_blocks(part, name)
                except InputError:  # other sentences: first say whether the counts differ too
                    gold_total = self.lines + sum(1 for _ in self._gold_blocks)
                    total = self.lines + sum(1 for _ in blocks)
                    if total != gold_total:
                        raise InputError(f"has {plural(total, 'sentence')} "
                                         f"but {self.files.names['gold']} has {gold_total}",
                                         name) from None
                    raise
                chunk.hypotheses[name] = part
            yield chunk
        self._no_more(streams)

    def _part(self, chunk: Corpus, name: str, blocks: Iterator, last_line: dict) -> list:
        """The next ``chunk.size`` blocks of a hypothesis M2 stream (fewer: an error naming it)."""
        part = list(itertools.islice(blocks, chunk.size))
        last_line[name] = part[-1].line if part else last_line.get(name)
        if len(part) < chunk.size:
            if self.files.m2_hypotheses:
                self._blame_m2_count(name, blocks, chunk.size, part, last_line[name])
            raise InputError(f"has {plural(self.lines - chunk.size + len(part), 'sentence')}, fewer than "
                             f"{self.files.names['source']}", name, last_line[name])
        return part

    def _blame_m2_count(self, name: str, blocks: Iterator, size: int, part: list, line: int | None) -> None:
        """A hypothesis M2 file with fewer sentences than the gold's: both counted to the end."""
        gold_total = self.lines + sum(1 for _ in self._gold_blocks)
        total = self.lines - size + len(part) + sum(1 for _ in blocks)
        raise InputError(f"has {plural(total, 'sentence')} but {self.files.names['gold']} has {gold_total}"
                         + (" (the last one starts here)" if line else ""), name, line or None)

    def _no_more(self, streams: list) -> None:
        for name, blocks in streams:
            extra = next(blocks, None)
            if extra is None:
                continue
            if self.files.m2_hypotheses:
                total = self.lines + 1 + sum(1 for _ in blocks)
                raise InputError(f"has {plural(total, 'sentence')} "
                                 f"but {self.files.names['gold']} has {self.lines}", name,
                                 extra.line or None)
            raise InputError(f"has more sentences than {self.files.names['source']} ({self.lines})", name,
                             extra.line or None)

    @staticmethod
    def _unfinished(texts: list[LineReader]) -> bool:
        """At the corpus's last chunk: whether a file still has lines (they are counted by
        :meth:`_blame`, which is the only thing that happens next)."""
        return any(reader.read(1) for reader in texts)

    def _blame(self, texts: list[LineReader], blocks, gold) -> None:
        """Files whose line counts differ: count them to the end and name the odd one out."""
        counts = [(reader.name, reader.count_rest()) for reader in texts]
        if blocks is not None:
            blame_gold_count(counts, self.files.names, self.lines + len(gold) + sum(1 for _ in blocks),
                             self.files.source is not None)
        blame_line_counts(counts)
