"""What a run reads: the files of one evaluation (:class:`CorpusFiles`), checked once."""
from __future__ import annotations

import functools
import os
import stat
from dataclasses import dataclass, field
from typing import Iterator

from ..core.checks import check_flag
from ..errors import InputError, plural, shown as shown_value
from ..io.text import (REPEATED_REFERENCE, STDIN, blame_line_counts, check_distinct, check_sequence, check_stdin_once,
                       decode_utf8, open_input, shown_path)


@dataclass(frozen=True)
class CorpusFiles:
    """The files of one evaluation, line i of each belonging to sentence i.

    ``source`` (text; may be None when ``gold`` is given: its sentences are the source),
    ``references`` (text, one file per reference set), ``hypotheses`` (system outputs: text
    files, or M2 files with ``m2_hypotheses``), ``gold`` (an M2 file: the M2 family's
    references) and ``hypothesis_m2`` (one M2 file per text hypothesis, in the same order, for
    metrics that read hypothesis edits). ``-`` is standard input, which can be read once.
    """

    source: str | None = None
    references: tuple[str, ...] = ()
    hypotheses: tuple[str, ...] = ()
    gold: str | None = None
    hypothesis_m2: tuple[str, ...] = ()
    m2_hypotheses: bool = False
    target_lines: bool = False
    """Accept ChERRANT's ``T<k>[-A<n>]`` lines in the M2 files (set by :func:`score_files` when a
    metric reads ChERRANT's M2: ``m2_target_lines``)."""
    names: dict[str, str] = field(default_factory=dict, compare=False)
    """File names for messages: 'source', 'gold', 'reference K' (set from the paths)."""

    def __post_init__(self) -> None:
        for name in ("references", "hypotheses", "hypothesis_m2"):  # (a pathlib.Path is kept as its str)
            value = getattr(self, name)
            paths = [os.fspath(path) if isinstance(path, os.PathLike) else path
                     for path in check_sequence(value, name, "file paths")]
            if not all(isinstance(path, str) for path in paths):
                raise InputError(f"{name} must be a sequence of file paths, got {shown_value(value)}")
            object.__setattr__(self, name, tuple(paths))
        for name in ("source", "gold"):
            value = getattr(self, name)
            if isinstance(value, os.PathLike):
                value = os.fspath(value)
                object.__setattr__(self, name, value)
            if value is not None and not isinstance(value, str):
                raise InputError(f"{name} must be a file path, got {value!r}")
        check_flag(self.m2_hypotheses, "m2_hypotheses")
        check_flag(self.target_lines, "target_lines")
        if self.source is None and self.gold is None:
            raise InputError("a corpus needs a source file or a gold M2 file")
        check_stdin_once(*self.paths)
        check_distinct(self.references, REPEATED_REFERENCE)
        if self.hypothesis_m2 and len(self.hypothesis_m2) != len(self.hypotheses):
            raise InputError(f"give one hypothesis M2 file per hypothesis file, in the same order: "
                             f"{len(self.hypothesis_m2)} M2 files for {len(self.hypotheses)} hypothesis files")
        if self.m2_hypotheses and (self.gold is None or self.hypothesis_m2):
            raise InputError("M2 hypotheses are read against a gold (reference) M2 file, without --hyp-m2")
        names = {f"reference {k}": shown_path(path) for k, path in enumerate(self.references)}
        if self.source is not None:
            names["source"] = f"the source {shown_path(self.source)}"
        if self.gold is not None:
            names["gold"] = shown_path(self.gold)
            names.setdefault("source", shown_path(self.gold))
        object.__setattr__(self, "names", names)

    @property
    def paths(self) -> list[str]:
        """Every file, in reading order: source, references, hypotheses, gold, hypothesis M2."""
        return [path for path in [self.source, *self.references, *self.hypotheses, self.gold, *self.hypothesis_m2]
                if path is not None]

    @property
    def text_paths(self) -> list[str]:
        """The files read as lines of text (source, references, text hypotheses)."""
        hypotheses = [] if self.m2_hypotheses else list(self.hypotheses)
        return [path for path in [self.source] if path is not None] + list(self.references) + hypotheses

    @property
    def hypothesis_names(self) -> list[str]:
        """The names the hypotheses are known by in a run: their paths as given (M2 hypotheses
        by the names shown in messages: ``<stdin>`` for ``-``)."""
        return [shown_path(path) for path in self.hypotheses] if self.m2_hypotheses else list(self.hypotheses)

    @property
    def shown_texts(self) -> list[str]:
        """The names of the text files in warnings: source, references, hypotheses."""
        return [shown_path(path) for path in self.text_paths]

    def seekable(self) -> bool:
        """Whether every file can be read by byte ranges (regular files: not standard input, a
        pipe or a device), so that workers can read their own chunks."""
        return all(_regular_file(path) for path in self.paths)


def count_sentences(files: CorpusFiles) -> int | None:
    """A quick count of the corpus's sentences (lines of the first text file, or ``S`` lines of
    the gold M2), without decoding; None when a file cannot be read twice."""
    if not files.seekable():
        return None
    if files.text_paths:
        return _line_count(files.text_paths[0])
    return _m2_sentence_count(files.gold)


def check_line_counts(files: CorpusFiles) -> None:
    """Text files of unequal line counts, or a gold M2 whose sentences are not the texts' lines,
    refused before any work (the odd one out named, as the reader names it), where the files can
    be read twice: a command that streams its output chunk by chunk (m2 annotate to standard
    output, --sentence) wrote every chunk before the short file's end, then the error."""
    if not files.seekable():
        return
    counts = [(shown_path(path), _line_count(path)) for path in files.text_paths]
    if files.gold is not None and counts:
        blame_gold_count(counts, files.names, _m2_sentence_count(files.gold), files.source is not None)
    blame_line_counts(counts)


def blame_gold_count(counts: list[tuple[str, int]], names: dict[str, str], total: int, has_source: bool) -> None:
    """The texts' line counts (the source first when ``has_source``) against the gold M2's
    ``total`` sentences: the gold named when it differs from the source, else the first text
    file that differs from it."""
    if has_source and counts[0][1] != total:
        raise InputError(f"has {plural(total, 'sentence')} but {names['source']} has {plural(counts[0][1], 'line')}",
                         names["gold"])
    for name, count in counts:
        if count != total:
            raise InputError(f"has {plural(count, 'line')} but the M2 file {names['gold']} has {plural(total, 'block')}",
                             name)


def _m2_sentence_count(path: str) -> int:
    """``S`` lines of an M2 file (a leading byte-order mark dropped), checked as text on the way."""
    count = 0
    for first_line, piece, _ in _text_pieces(path):
        lines = piece.split(b"\n")
        if first_line == 1:
            lines[0] = lines[0].removeprefix(b"\xef\xbb\xbf")
        count += sum(line.startswith(b"S ") or line.rstrip(b"\r") == b"S" for line in lines)
    return count


def _line_count(path: str) -> int:
    """Lines of a regular file (a last line without a newline counts), checked as text on the
    way; counted once per version of the file in a process (a --sentence run checks every file's
    count, then the engine asks the first file's for its chunks)."""
    try:
        found = os.stat(path)
    except OSError:  # gone since it was checked: reading it names the problem
        return _counted_lines.__wrapped__(path, 0, 0, 0)
    return _counted_lines(path, found.st_ino, found.st_size, found.st_mtime_ns)


@functools.lru_cache(maxsize=64)
def _counted_lines(path: str, _inode: int, _size: int, _mtime_ns: int) -> int:
    count = 0
    for _, piece, breaks in _text_pieces(path):
        count += breaks + (not piece.endswith(b"\n"))
    return count


def _text_pieces(path: str) -> Iterator[tuple[int, bytes, int]]:
    """A file's bytes in pieces of whole lines (about 1 MB) with the number of each piece's
    first line and its line breaks, each checked as the reader checks it (a NUL byte, invalid UTF-8, UTF-16 or -32:
    the reader's own error with the file and line), so that a command that streams its output
    stops before its first line, not at the bad line with the lines before it written."""
    first_line, rest = 1, b""
    with open_input(path) as handle:
        while block := handle.read(1 << 20):
            data = rest + block
            cut = data.rfind(b"\n") + 1
            if cut:
                piece, rest = data[:cut], data[cut:]
                decode_utf8(piece, path, first_line)
                breaks = piece.count(b"\n")
                yield first_line, piece, breaks
                first_line += breaks
            else:
                rest = data
    if rest:
        decode_utf8(rest, path, first_line)
        yield first_line, rest, 0


def file_states(files: CorpusFiles) -> list[tuple[str, tuple[int, ...]]]:
    """What tells each regular file of ``files`` from another version of it (device, inode,
    size, the times of its last write and change), before a run reads it chunk by chunk, for
    :func:`check_unchanged` after the run."""
    return [(path, state) for path in files.paths if (state := _file_state(path)) is not None]


def check_unchanged(states: list[tuple[str, tuple[int, ...]]]) -> None:
    """An InputError naming the first file of ``states`` (:func:`file_states`) that changed
    since: written to or replaced while its chunks were read, its scores would mix two versions
    (a same-size rewrite kept every line count and gave a number of neither, exit 0)."""
    for path, state in states:
        if _file_state(path) != state:
            raise InputError("changed while the run read it (written to or replaced): its scores would mix two "
                             "versions of it; score it again once it is complete", shown_path(path))


def _file_state(path: str) -> tuple[int, ...] | None:
    if path == STDIN:
        return None
    try:
        found = os.stat(path)
    except OSError:  # gone: a later reader names the problem, or the run has read it
        return (-1,)
    if not stat.S_ISREG(found.st_mode):
        return None
    return found.st_dev, found.st_ino, found.st_size, found.st_mtime_ns, found.st_ctime_ns


def _regular_file(path: str) -> bool:
    if path == STDIN:
        return False
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False  # the reader names the file and says why
