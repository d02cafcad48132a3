"""Reading, validating and writing M2 files (SPEC 4.1).

An M2 file is a sequence of blocks separated by blank lines: one ``S <tokenized source>`` line,
then zero or more edit lines
``A <start> <end>|||<type>|||<correction>|||<required>|||<comment>|||<annotator id>``.
Every malformed line is reported with its file and line number, so that a scorer never works on
a silently misread annotation. The data model (:class:`Block`, :class:`Edit`) is
:mod:`gecmetrics.core.edits.blocks`'s, named here too.
"""
from __future__ import annotations

import dataclasses
import io
import itertools
import os
import re
import stat
import sys
from typing import Iterable, Iterator, TextIO

from .text import STDIN, check_path, check_sequence, file_lines, open_input, read_lines, shown_path, split_lines
from ..core.edits.blocks import (ALTERNATIVE_SEPARATOR, DELETION, FIELD_SEPARATOR, NOOP_SPAN, NOOP_TYPE,  # noqa: F401
                                 MAX_ANNOTATOR_ID, Block, Edit, NamedBlocks, ReadEdits, blocks_name, check_blocks,
                                 check_built_blocks, format_m2, normalize_correction, span_problem)
from ..core.checks import check_count, check_flag
from ..core.lines import sequence_problem
from ..errors import InputError, kind_of, plural, shown

MAX_NUMBER_DIGITS = 18
"""Longest token offset or annotator id read as a number: longer ones are out of range anyway
(and ``int()`` of more than 4,300 digits is a ValueError)."""

_INTEGER = re.compile(r"-?[0-9]+")
_TARGET_LINE = re.compile(r"T[0-9]+(?:-A([0-9]+))? ")


_SPAN = re.compile(r"(-?[0-9]{1,18}) (-?[0-9]{1,18})")  # the common span; longer offsets: the checked path
_SMALL_ANNOTATORS = {str(n): n for n in range(64)}
"""Annotator fields written as ``str(n)``: those of every known M2 file (0, 1, ...)."""
_intern = sys.intern  # the type, required and comment fields repeat over a file: one string object each

_ODD_SPACING = re.compile(r"(?<=\S) {3,}(?=\S)|(?:^| )[^\S ]+(?= |$)")
"""What ``errant_parallel -tok`` writes for a whitespace token of spaCy's, which its spans count
and the line's words (``str.split``, as ERRANT and the M2 scorer read an 'S' line) do not: three
spaces or more between words (the token of one or more spaces, joined by one on each side), or
a token of other whitespace alone (`` \\u00a0 ``, `` \\t ``). Two spaces, or a no-break space
inside a word (``a\\u00a0b``), are separators as ``str.split`` reads them."""


def _words_before_odd_spacing(source: str, n_words: int) -> int | None:
    """How many words of an 'S' line (of ``n_words``) come before its first :data:`_ODD_SPACING`
    (None: none): spans that end there number the words alike whoever wrote them."""
    if source.isprintable() and source.count(" ") + 1 == n_words:  # (single spaces alone: the common line, at once)
        return None
    found = _ODD_SPACING.search(source)
    return None if found is None else len(source[:found.start()].split())


def _spacing_error(edit: Edit, plain_words: int, source_line: int, name: str, line_number: int) -> InputError:
    where = f" (line {source_line})" if source_line else ""
    return InputError(f"the span {edit.start}-{edit.end} ends after a whitespace token (a run of spaces, a tab or a "
                      f"no-break space standing alone) of the 'S' line{where}, after its first "
                      f"{plural(plain_words, 'word')}: errant_parallel -tok numbers spaCy's token of such whitespace, "
                      "the words of the line do not, so the span cannot be matched with them; collapse the text's "
                      "spaces before annotating, or annotate without -tok", name, line_number)


def _parse_edit_line(body: str, n_tokens: int, name: str, line_number: int, corrections: dict[str, str]) -> Edit:
    """Parse the part after ``A `` of an edit line; raise InputError naming file and line.
    ``corrections``: the file's corrections so far, each kept once (a gold of 10^5 sentences
    holds about 450,000 edit lines and 14,000 distinct corrections)."""
    fields = body.split(FIELD_SEPARATOR)
    if len(fields) == 6:  # the common line, read as the checks below read it, with fewer steps
        span, edit_type, correction, required, comment, annotator_text = fields
        offsets = _SPAN.fullmatch(span)
        annotator = _SMALL_ANNOTATORS.get(annotator_text)
        if offsets is not None and annotator is not None:
            start, end = int(offsets[1]), int(offsets[2])
            if 0 <= start <= end <= n_tokens or start == end == -1:
                return Edit(start, end, _intern(edit_type), corrections.setdefault(correction, correction),
                            _intern(required), _intern(comment), annotator)
    return _checked_edit_line(fields, n_tokens, name, line_number)


def _checked_edit_line(fields: list[str], n_tokens: int, name: str, line_number: int) -> Edit:
    """An edit line's fields read with every check (an uncommon span or annotator field, or a
    line to refuse with its reason)."""
    if len(fields) != 6:
        raise InputError(
            f"malformed edit line: expected 6 fields separated by '|||', found {len(fields)}", name, line_number)
    span, edit_type, correction, required, comment, annotator_text = fields
    offsets = span.split()
    if len(offsets) != 2 or not all(_INTEGER.fullmatch(o) for o in offsets):
        raise InputError(f"malformed edit span {shown(span.strip())}: expected two integer token offsets",
                         name, line_number)
    if any(len(o) > MAX_NUMBER_DIGITS for o in offsets):  # (int() of 4,301 digits is a ValueError)
        raise InputError(f"edit span {shown(span.strip())}: an offset of more than {MAX_NUMBER_DIGITS} digits is "
                         "beyond any sentence", name, line_number)
    start, end = int(offsets[0]), int(offsets[1])
    problem = span_problem(start, end, n_tokens)
    if problem:
        raise InputError(problem, name, line_number)
    written = annotator_text.rstrip()  # errant_m2 strips the line: the field's leading spaces stay
    annotator_text = annotator_text.strip()
    if not annotator_text.isascii() or not annotator_text.isdigit():
        raise InputError(f"annotator id {shown(annotator_text)} is not a non-negative integer", name, line_number)
    too_long = len(annotator_text) > MAX_NUMBER_DIGITS  # (int() of 4,301 digits is a ValueError)
    annotator = MAX_ANNOTATOR_ID + 1 if too_long else int(annotator_text)
    if annotator > MAX_ANNOTATOR_ID:
        raise InputError(f"annotator id {shown(annotator_text) if too_long else annotator} is more than "
                         f"{MAX_ANNOTATOR_ID:,} (gecmetrics.io.m2.MAX_ANNOTATOR_ID)", name, line_number)
    written = "" if written == str(annotator) else sys.intern(written)
    # the type, required and comment fields repeat over a file: one string object each
    return Edit(start, end, sys.intern(edit_type), correction, sys.intern(required), sys.intern(comment), annotator,
                annotator_text=written)


def parse_m2_lines(lines: Iterable[str], name: str, target_lines: bool = False) -> list[Block]:
    """Parse M2 lines (terminators stripped) into blocks; errors name ``name`` and the line
    (``target_lines``: ChERRANT's T lines are skipped); the arguments as :func:`iter_m2_blocks`
    checks them."""
    return list(iter_m2_blocks(lines, name, target_lines=target_lines))


def iter_m2_blocks(lines: Iterable[str], name: str, first_line: int = 1, target_lines: bool = False
                   ) -> Iterator[Block]:
    """The blocks of M2 lines, each as soon as it is complete (a file of any size in bounded
    memory); errors name ``name`` and the line (``first_line``: the number of the first).
    ``target_lines``: skip ChERRANT's ``T<k>[-A<n>] <text>`` lines inside blocks, each ``A``
    line after ``T<k>-A<n>`` keeping n as its :attr:`Edit.edit_set`. The arguments are checked
    here, at the call (one text, None or a number for ``lines`` is an InputError; a line that is
    no string, one naming its line when it is reached)."""
    name = check_path(name, "M2 file's name")
    problem = sequence_problem(lines)  # (not check_sequence: it would read a whole file into a list)
    if problem is not None:
        raise InputError(f"lines must be the lines of an M2 file (a list of strings), got {problem}", name)
    first_line = check_count(first_line, "first_line (the number of the first line)", minimum=1)
    return _m2_blocks(lines, name, first_line, check_flag(target_lines, "target_lines"))


def _m2_blocks(lines: Iterable[str], name: str, first_line: int, target_lines: bool) -> Iterator[Block]:
    """:func:`iter_m2_blocks` of checked arguments."""
    current: Block | None = None
    n_tokens = 0
    edit_set = 0
    s_alone = False
    plain_words: int | None = None
    corrections: dict[str, str] = {}
    for line_number, line in enumerate(lines, start=first_line):
        if not isinstance(line, str):
            raise InputError(f"expected M2 lines of text, got {kind_of(line)}", name, line_number)
        if not line.strip():
            if current is not None:
                current.edits = ReadEdits(current.edits, current.source)
                yield current
            current = None
            continue
        if line.startswith("S ") or line == "S":
            if current is not None:
                raise InputError("'S' line inside a block (a blank line must separate blocks)", name, line_number)
            current = Block(line[2:], [], line_number)
            n_tokens = len(current.tokens)
            plain_words = _words_before_odd_spacing(current.source, n_tokens)
            edit_set = 0
            s_alone = line == "S"
        elif line.startswith("A ") or line == "A":
            if current is None:
                raise InputError("'A' line outside a block (no 'S' line before it)", name, line_number)
            edit = _parse_edit_line(line[2:], n_tokens, name, line_number, corrections)
            if plain_words is not None and edit.end > plain_words:
                raise _spacing_error(edit, plain_words, current.line, name, line_number)
            if s_alone and not current.edits:  # compare_m2 -v shows this line as the sentence
                current.shown_source = line
            current.edits.append(dataclasses.replace(edit, edit_set=edit_set) if edit_set else edit)
        elif target_lines and current is not None and (target := _TARGET_LINE.match(line)):
            edit_set = int(target.group(1) or 0)
            s_alone = False
        else:
            shown = line if len(line) <= 40 else line[:40] + "..."
            text = (" (plain text where an M2 file is expected? M2 begins with an 'S ' line)" if current is None else
                    " (a ChERRANT target line: its M2 is read with target_lines=True, as the cherrant commands read it)"
                    if _TARGET_LINE.match(line) else "")
            raise InputError(f"not an M2 line (expected 'S ', 'A ' or a blank line): {shown!r}{text}", name,
                             line_number)
    if current is not None:
        current.edits = ReadEdits(current.edits, current.source)
        yield current


def parse_m2(text: str, name: str, target_lines: bool = False) -> list[Block]:
    """Parse the text of an M2 file; ``name`` is used in error messages (``target_lines``:
    ChERRANT's T lines are skipped)."""
    if not isinstance(text, str):
        raise InputError(f"expected the text of an M2 file (a str), got {type(text).__name__}", str(name))
    return parse_m2_lines(split_lines(text), name, target_lines)


def read_m2(path: str, target_lines: bool = False) -> list[Block]:
    """Read and validate an M2 file (``-`` for standard input); ``target_lines``: accept (and
    skip) the ``T<k>[-A<n>] <text>`` lines of ChERRANT's M2 files."""
    path = check_path(path, "M2 file")
    check_flag(target_lines, "target_lines")
    return parse_m2_lines(read_lines(path), shown_path(path), target_lines)


def read_cherrant_m2(path: str) -> list[Block]:
    """An M2 file as ChERRANT writes it (``T`` lines skipped)."""
    return read_m2(path, target_lines=True)


def _head_lines(path: str, max_lines: int) -> list[str]:
    """The first lines of a file (nothing for standard input, for what is not a regular file, or
    for a file that cannot be read although it can be looked up: the reading proper reports
    that; a missing file or a folder was refused before, by :func:`_file_mode`). A pipe (a FIFO,
    ``<(...)``) is read once, by the reader: a look here took what it read (a FIFO's writer gone,
    the run waited for another forever; ``<(cat ref.m2)`` read as 0 sentences)."""
    if path == "-":
        return []
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return []
    except OSError:
        return []
    try:
        with open(path, "rb") as handle:  # (a NUL byte in a line is the reader's InputError, said at once)
            lines = list(itertools.islice(file_lines(handle, path), max_lines))
    except OSError:
        return []
    lines = [line.decode("utf-8", "replace").rstrip("\r\n") for line in lines]
    if lines:  # (a byte-order mark is dropped, as the reader drops it: SPEC 1)
        lines[0] = lines[0].removeprefix("\ufeff")
    return lines


def _file_mode(path: str) -> int:
    """The ``st_mode`` of a path given as an M2 file; one that is missing, a folder or cannot be
    looked up is open_input's InputError naming it (a pipe is not opened: it would be read)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        mode = None
    if mode is None or stat.S_ISDIR(mode):
        open_input(path).close()  # raises: no such file, a directory, cannot read
    if mode is None:  # (looked up by open but not by stat: read as any file that is not regular)
        return stat.S_IFIFO
    return mode


def file_annotator_ids(path: str) -> set[int] | None:
    """The annotator ids of every edit line of a whole M2 file, by a scan of its bytes
    (malformed lines are left to the reader); None for standard input or anything else that
    cannot be read twice (a pipe, a device). A path of the wrong type, a missing file or a
    folder is an InputError naming it."""
    path = check_path(path, "M2 file")
    if path == STDIN or not stat.S_ISREG(_file_mode(path)):
        return None
    ids = set()
    with open_input(path) as handle:
        for line in file_lines(handle, path):
            if line.startswith(b"A "):
                last = line.rsplit(FIELD_SEPARATOR.encode(), 1)[-1].strip()
                if last.isdigit():
                    ids.add(int(last))
    return ids


def looks_like_text(path: str) -> bool:
    """Whether a file meant as M2 starts with a line that is neither blank nor ``S``/``A``: a
    plain-text file given where an M2 file was expected (used to suggest the right option)."""
    for line in _head_lines(path, 50):
        if line.strip():
            return not (line.startswith(("S ", "A ")) or line in ("S", "A"))
    return False


def annotator_ids(path: str, max_lines: int = 20000) -> set[int]:
    """The annotator ids of the edit lines among the first ``max_lines`` lines of an M2 file
    (a cheap look used to warn about swapped files; malformed lines are left to the reader).
    A path of the wrong type, a file that cannot be opened (none for standard input: nothing is
    read from it) or a ``max_lines`` that is no count >= 1 is an InputError."""
    path = check_path(path, "M2 file")
    max_lines = check_count(max_lines, "max_lines", minimum=1)
    if path != STDIN:
        _file_mode(path)
    ids = set()
    for line in _head_lines(path, max_lines):
        if line.startswith("A "):
            last = line.rsplit(FIELD_SEPARATOR, 1)[-1].strip()
            if last.isascii() and last.isdigit():
                ids.add(int(last))
    return ids


def write_m2(blocks: Iterable[Block], handle: TextIO) -> None:
    """Write blocks in M2 format to an open text handle (no block: nothing is written)."""
    if not callable(getattr(handle, "write", None)) or isinstance(handle, (io.RawIOBase, io.BufferedIOBase)):
        raise InputError(f"write_m2 writes to an open text file (open(path, 'w', encoding='utf-8')), "
                         f"got {type(handle).__name__}")
    if getattr(handle, "closed", False) or not getattr(handle, "writable", lambda: True)():
        raise InputError("write_m2 writes to an open text file, got one that is "
                         f"{'closed' if getattr(handle, 'closed', False) else 'not open for writing'}", "handle")
    blocks = check_sequence(blocks, "blocks", "M2 blocks (gecmetrics.io.m2.read_m2)")
    check_built_blocks(blocks, "blocks")  # what is written reads back: one line per field, spans in the sentence
    handle.write(format_m2(blocks))
