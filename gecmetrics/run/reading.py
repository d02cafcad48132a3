"""Aligned files read in chunks of sentences, in lockstep: a corpus of any size passes through
the pipeline in bounded memory (only the per-sentence statistics of finished chunks are kept).

:class:`CorpusChunks` opens the source, reference and hypothesis files (and a gold M2 file) and
yields :class:`~gecmetrics.io.corpus.Corpus` chunks of at most ``chunk_lines`` sentences. Lines
follow SPEC 1 exactly as :func:`~gecmetrics.io.corpus.read_lines` reads them; errors name the
file and its line number in the whole file, and files whose line counts differ are reported
as :func:`~gecmetrics.io.corpus.read_corpus` reports them (the odd one out is named).
"""
from __future__ import annotations

import itertools
import sys
from typing import IO, Iterator, Sequence

from ..io.corpus import Corpus

from ..io.text import STDIN, blame_line_counts, decode_lines, open_input
from ..errors import InputError
from .engine import DEFAULT_CHUNK_LINES, chunk_size


class LineReader:
    """One text file (or standard input), read a number of lines at a time."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.name = "<stdin>" if path == STDIN else path
        self.handle: IO[bytes] = sys.stdin.buffer if path == STDIN else open_input(path)
        self.lines_read = 0

    def read(self, count: int) -> list[str]:
        """The next ``count`` lines (fewer at the end of the file)."""
        raw = list(itertools.islice(self.handle, count))
        if not raw:
            return []
        lines = decode_lines(b"".join(raw), self.name, first_line=self.lines_read + 1,
                             start_of_file=self.lines_read == 0)
        self.lines_read += len(raw)
        return lines

    def __iter__(self) -> Iterator[str]:
        while True:
            lines = self.read(DEFAULT_CHUNK_LINES)
            if not lines:
                return
            yield from lines

    def count_rest(self) -> int:
        """Lines read so far plus the lines left (read to the end, not kept)."""
        return self.lines_read + sum(1 for _ in self.handle)

    def close(self) -> None:
        if self.handle is not sys.stdin.buffer:
            self.handle.close()


class CorpusChunks:
    """The corpus of the given files as consecutive chunks of sentences (see module docs).

    ``source`` may be None when ``gold`` (an M2 file) is given: its sentences are the source.
    ``hypothesis_m2``: one M2 file per hypothesis file (same order), read in lockstep and given
    to each chunk as :attr:`Corpus.hypothesis_m2` (for metrics that read hypothesis edits).
    Iterate once; ``lines`` is the number of sentences read so far.
    """

    def __init__(self, source: str | None, references: Sequence[str] = (), hypotheses: Sequence[str] = (),
                 gold: str | None = None, chunk_lines: int | None = None, hypothesis_m2: Sequence[str] = ()) -> None:
        paths = [p for p in [source, *references, *hypotheses, gold, *hypothesis_m2] if p is not None]
        if paths.count(STDIN) > 1:
            raise InputError("standard input ('-') can be read only once")
        if source is None and gold is None:
            raise InputError("a corpus needs a source file or a gold M2 file")
        if hypothesis_m2 and len(hypothesis_m2) != len(hypotheses):
            raise InputError(f"give one hypothesis M2 file per hypothesis file, in the same order: "
                             f"{len(hypothesis_m2)} M2 files for {len(hypotheses)} hypothesis files")
        self.hypothesis_m2_paths = list(hypothesis_m2)
        self.chunk_lines = chunk_size(chunk_lines)
        self.source_path, self.reference_paths, self.hypothesis_paths = source, list(references), list(hypotheses)
        self.gold_path = gold
        self.lines = 0
        self._readers: list[LineReader] = []
        self._names = {"source": f"the source {_shown(source)}"} if source is not None else {}
        self._names |= {f"reference {k}": _shown(p) for k, p in enumerate(references)}
        if gold is not None:
            self._names["gold"] = _shown(gold)
            if source is None:
                self._names["source"] = _shown(gold)

    def __iter__(self) -> Iterator[Corpus]:
        from ..io.m2 import iter_m2_blocks

        try:
            texts = [LineReader(p) for p in [self.source_path] if p is not None]
            texts += [LineReader(p) for p in self.reference_paths + self.hypothesis_paths]
            self._readers = list(texts)
            blocks = None
            if self.gold_path is not None:
                gold_reader = LineReader(self.gold_path)
                self._readers.append(gold_reader)
                blocks = iter_m2_blocks(gold_reader, gold_reader.name)
            edits = []
            for path in self.hypothesis_m2_paths:
                reader = LineReader(path)
                self._readers.append(reader)
                edits.append((reader.name, iter_m2_blocks(reader, reader.name)))
            yield from self._with_edits(self._chunks(texts, blocks), edits)
        finally:
            for reader in self._readers:
                reader.close()

    def _chunks(self, texts: list[LineReader], blocks) -> Iterator[Corpus]:
        has_source = self.source_path is not None
        refs = len(self.reference_paths)
        while True:
            gold = None if blocks is None else list(itertools.islice(blocks, self.chunk_lines))
            size = len(gold) if gold is not None and not has_source else self.chunk_lines
            parts = [reader.read(size) for reader in texts]
            counts = {len(part) for part in parts} | ({len(gold)} if gold is not None else set())
            if len(counts) > 1 or (max(counts, default=0) < self.chunk_lines and self._unfinished(texts)):
                self._blame(texts, blocks, gold)
            if not counts or counts == {0}:
                if self.lines == 0:
                    shown = self._names.get("gold" if not has_source else "source", "the corpus")
                    raise InputError("the corpus has no sentences (an empty file scores nothing)", shown)
                return
            sources = parts[0] if has_source else None
            texts_part = parts[1:] if has_source else parts
            hypotheses = dict(zip(self.hypothesis_paths, texts_part[refs:]))
            corpus = Corpus(sources, texts_part[:refs], {}, gold, dict(self._names), offset=self.lines)
            corpus.hypotheses = hypotheses  # lengths checked above
            self.lines += corpus.size
            yield corpus

    def _with_edits(self, chunks: Iterator[Corpus], edits: list) -> Iterator[Corpus]:
        """The chunks, each with its sentences' blocks of every hypothesis M2 file (checked
        against the chunk's sentences and texts); a file with more or fewer blocks than the
        corpus has sentences is an error naming it (and where its last block starts)."""
        last_line: dict[str, int | None] = {name: None for name, _ in edits}
        for chunk in chunks:
            for path, (name, blocks) in zip(self.hypothesis_paths, edits):
                part = list(itertools.islice(blocks, chunk.size))
                last_line[name] = part[-1].line if part else last_line[name]
                if len(part) < chunk.size:
                    raise InputError(f"has {self.lines - chunk.size + len(part)} sentences, fewer than "
                                     f"{self._names['source']}", name, last_line[name])
                chunk.add_hypothesis_m2(path, part, name)
            yield chunk
        for name, blocks in edits:
            extra = next(blocks, None)
            if extra is not None:
                raise InputError(f"has more sentences than {self._names['source']} ({self.lines})", name,
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
            total = self.lines + len(gold) + sum(1 for _ in blocks)
            gold_name = self._names["gold"]
            source_count = counts[0][1] if self.source_path is not None else None
            if source_count is not None and source_count != total:
                raise InputError(f"has {total} sentences but {self._names['source']} has {source_count} lines",
                                 gold_name)
            for name, count in counts:
                if count != total:
                    raise InputError(f"has {count} lines but the M2 file {gold_name} has {total} blocks", name)
        blame_line_counts(counts)


def _shown(path: str | None) -> str:
    return "<stdin>" if path == STDIN else str(path)


def m2_hypothesis_chunks(gold: str, hypotheses: Sequence[str], chunk_lines: int | None = None) -> Iterator[Corpus]:
    """A reference M2 file and hypothesis M2 files (CLEME's input) read in lockstep as
    :class:`Corpus` chunks whose hypotheses (keyed by the name shown) are M2 blocks. A file with
    another number of sentences or other sources is an error naming it and the line."""
    from ..io.m2 import iter_m2_blocks

    if [gold, *hypotheses].count(STDIN) > 1:
        raise InputError("standard input ('-') can be read only once")
    size = chunk_size(chunk_lines)
    readers = [LineReader(path) for path in [gold, *hypotheses]]
    try:
        streams = [(reader.name, iter_m2_blocks(reader, reader.name)) for reader in readers]
        names, offset, last_lines = {"source": readers[0].name, "gold": readers[0].name}, 0, {}
        while True:
            gold_part = list(itertools.islice(streams[0][1], size))
            parts = {}
            for name, blocks in streams[1:]:
                parts[name] = list(itertools.islice(blocks, size))
                last_lines[name] = parts[name][-1].line if parts[name] else last_lines.get(name)
                if len(parts[name]) != len(gold_part):
                    _blame_m2_count(streams[0], offset, len(gold_part), (name, blocks), parts[name],
                                    last_lines[name])
            if not gold_part and offset > 0:
                return
            corpus = Corpus(None, [], {}, gold_part, dict(names), offset=offset)  # an empty file: an error
            for name, part in parts.items():
                corpus.check_blocks(part, name)  # the same sources, sentence by sentence
                corpus.hypotheses[name] = part
            offset += corpus.size
            yield corpus
    finally:
        for reader in readers:
            reader.close()


def _blame_m2_count(gold: tuple[str, Iterator], offset: int, size: int, hypothesis: tuple[str, Iterator], part: list,
                    last_line: int | None) -> None:
    """A hypothesis M2 file whose number of sentences differs from the reference's (whose chunk
    at ``offset`` has ``size``): both counted to the end; the error names the file at its first
    extra block (or its last block)."""
    gold_total = offset + size + sum(1 for _ in gold[1])
    extra = len(part) > size
    line = part[size].line if extra else last_line
    total = offset + len(part) + sum(1 for _ in hypothesis[1])
    raise InputError(f"has {total} sentences but {gold[0]} has {gold_total}"
                     + ("" if extra or not line else " (the last one starts here)"), hypothesis[0], line or None)


# ----------------------------------------------------------------------------- chunk descriptors


class ChunkSpec:
    """Where one chunk of a corpus lies in its files: per file, a byte offset and a number of
    lines (for a gold M2 file: of blocks). Small and picklable: a worker on another machine
    reads its chunk itself (:meth:`read`) from a shared file system. ``edits``: per hypothesis
    with an M2 file, (hypothesis, M2 path, byte offset, line number) of the chunk's first block."""

    def __init__(self, files: list[tuple[str, int, int]], gold: tuple[str, int, int] | None, offset: int,
                 roles: dict, edits: Sequence[tuple[str, str, int, int]] = ()) -> None:
        self.files, self.gold, self.offset, self.roles, self.edits = files, gold, offset, roles, list(edits)

    def read(self) -> Corpus:
        """The chunk as a :class:`Corpus` (its lines were checked when the files were indexed)."""
        from ..io.m2 import iter_m2_blocks

        texts = [_read_at(path, start, count) for path, start, count in self.files]
        gold = None
        if self.gold is not None:
            path, start, count = self.gold
            line = self.roles["gold_line"]
            gold = list(itertools.islice(iter_m2_blocks(_lines_from(path, start, line), path, line), count))
        has_source, references = self.roles["has_source"], self.roles["references"]
        sources = texts[0] if has_source else None
        rest = texts[1:] if has_source else texts
        corpus = Corpus(sources, rest[:references], {}, gold, dict(self.roles["names"]), offset=self.offset)
        corpus.hypotheses = dict(zip(self.roles["hypotheses"], rest[references:]))
        for name, path, start, line in self.edits:
            blocks = itertools.islice(iter_m2_blocks(_lines_from(path, start, line), path, line), corpus.size)
            corpus.add_hypothesis_m2(name, blocks, path)
        return corpus


def _read_at(path: str, start: int, count: int) -> list[str]:
    """``count`` lines of a file from byte ``start``."""
    with open_input(path) as handle:
        handle.seek(start)
        raw = list(itertools.islice(handle, count))
    return decode_lines(b"".join(raw), path, start_of_file=start == 0)


def _lines_from(path: str, start: int, first_line: int) -> Iterator[str]:
    """The lines of a file from byte ``start``, read as they are asked for."""
    with open_input(path) as handle:
        handle.seek(start)
        while True:
            raw = list(itertools.islice(handle, 1000))
            if not raw:
                return
            yield from decode_lines(b"".join(raw), path, first_line, start_of_file=start == 0 and first_line == 1)
            first_line += len(raw)


def index_chunks(source: str | None, references: Sequence[str], hypotheses: Sequence[str], gold: str | None = None,
                 chunk_lines: int | None = None, checked: Iterator[Corpus] | None = None,
                 hypothesis_m2: Sequence[str] = ()) -> list[ChunkSpec]:
    """The chunks of a corpus of files, as :class:`ChunkSpec` s, after one pass that checks the
    files (UTF-8, M2 syntax, equal numbers of sentences) exactly as :class:`CorpusChunks` does
    (``checked``: that pass's chunks, when the caller watches them too). Standard input cannot
    be indexed (it cannot be read twice). ``hypothesis_m2``: as in :class:`CorpusChunks`."""
    if STDIN in [source, *references, *hypotheses, gold, *hypothesis_m2]:
        raise InputError("standard input cannot be split for a cluster: give files")
    size = chunk_size(chunk_lines)
    reader = CorpusChunks(source, references, hypotheses, gold, size, hypothesis_m2)
    paths = [p for p in [source] if p is not None] + list(references) + list(hypotheses)
    offsets = {path: _line_offsets(path, size) for path in set(paths)}
    gold_offsets = _block_offsets(gold, size) if gold is not None else None
    edit_offsets = [(name, path, _block_offsets(path, size)) for name, path in zip(hypotheses, hypothesis_m2)]
    roles = {"has_source": source is not None, "references": len(references), "hypotheses": list(hypotheses),
             "names": reader._names}
    specs = []
    for k, chunk in enumerate(checked if checked is not None else reader):  # the checking pass
        files = [(path, offsets[path][k], chunk.size) for path in paths]
        gold_spec = None
        if gold_offsets is not None:
            gold_spec = (gold, gold_offsets[k][0], chunk.size)
            roles = dict(roles, gold_line=gold_offsets[k][1])
        edits = [(name, path, *offsets[k]) for name, path, offsets in edit_offsets]
        specs.append(ChunkSpec(files, gold_spec, chunk.offset, roles, edits))
    return specs


def _line_offsets(path: str, size: int) -> list[int]:
    """The byte offset of every ``size``-th line of a file (the starts of the chunks)."""
    offsets, position = [], 0
    with open_input(path) as handle:
        for number, line in enumerate(handle):
            if number % size == 0:
                offsets.append(position)
            position += len(line)
    return offsets


def _block_offsets(path: str, size: int) -> list[tuple[int, int]]:
    """(byte offset, line number) of the start of every ``size``-th block of an M2 file."""
    return block_starts(path, size)[0]


def block_starts(path: str, size: int) -> tuple[list[tuple[int, int]], int, int]:
    """(byte offset, line number) of the first line of every ``size``-th block (run of
    non-blank lines) of an M2 file, the file's length in bytes and its number of blocks."""
    starts, position, blocks, in_block = [], 0, 0, False
    with open_input(path) as handle:
        for number, line in enumerate(handle, start=1):
            blank = line.isspace()
            if not blank and not in_block:
                if blocks % size == 0:
                    starts.append((position, number))
                blocks += 1
            in_block = not blank
            position += len(line)
    return starts, position, blocks


def count_sentences(path: str, m2: bool = False) -> int | None:
    """A quick count of a file's lines (an M2 file's ``S`` lines), without decoding; None for
    standard input, which can be read only once."""
    if path == STDIN:
        return None
    count, last = 0, b"\n"
    with open_input(path) as handle:
        if m2:
            return sum(1 for line in handle if line.startswith(b"S"))
        while block := handle.read(1 << 20):
            count += block.count(b"\n")
            last = block[-1:]
    return count + (last != b"\n")


def parallel_chunk_lines(paths: Sequence[str | None], gold: str | None, jobs: int,
                         chunk_lines: int | None) -> int | None:
    """Chunks small enough that ``jobs`` workers each get at least two (and never above
    ``chunk_lines``): the number of sentences is counted quickly in the first file."""
    if jobs <= 1:
        return chunk_lines
    first = next((p for p in paths if p is not None), None)
    total = count_sentences(gold, m2=True) if first is None and gold is not None else \
        count_sentences(first) if first is not None else None
    if not total:
        return chunk_lines
    return max(1, min(chunk_size(chunk_lines), -(-total // (2 * jobs))))
