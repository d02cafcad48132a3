"""ChERRANT's parallel input ("para") files: one sentence per line,
``id<TAB>source<TAB>target1[<TAB>target2 ...]`` in UTF-8.

Read as ``parallel_to_m2.py`` reads them: in text mode (universal newlines: ``\\r\\n`` and a
lone ``\\r`` end a line as ``\\n`` does), the whole text stripped of surrounding whitespace and
split on ``\\n``, each line on tabs; the first field is an id (not used), the second the
source, the others its targets (references, or one system output). Whitespace inside a sentence
is not part of it at character level (it is removed when the sentence is annotated).

Where ChERRANT would write a broken block or stop with a KeyError (a line without a target, a
blank line between sentences, a sentence that is empty once its whitespace is removed), this
reader raises an :class:`InputError` naming the file and line instead.
"""
from __future__ import annotations

import os
from contextlib import contextmanager
from dataclasses import dataclass
from typing import BinaryIO, Iterator

from ..core.checks import check_count
from ..errors import InputError, plural
from .text import NUL_MESSAGE, check_not_standard_output, check_path, decode_utf8, file_lines, read_whole


@dataclass(frozen=True)
class ParaRecord:
    """One line of a para file: its id, source and targets (as in the file), and line number."""

    id: str
    source: str
    targets: tuple[str, ...]
    line: int = 0


def parse_para(text: str, name: str = "<para>") -> list[ParaRecord]:
    """The records of a para file's text; ``name`` is used in error messages."""
    if not isinstance(text, str):
        raise InputError(f"expected the text of a para file, got {type(text).__name__}", name)
    if "\0" in text:
        raise InputError(NUL_MESSAGE, name, text.count("\n", 0, text.index("\0")) + 1)
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:  # (Python's text mode, which ChERRANT reads with: a lone CR made two sentences one block)
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    stripped = text.strip()
    if not stripped:
        raise InputError("has no sentences (expected lines id<TAB>source<TAB>target...)", name)
    first_line = text[:len(text) - len(text.lstrip())].count("\n") + 1
    return [_record(line, number, name) for number, line in enumerate(stripped.split("\n"), start=first_line)]


def _record(line: str, number: int, name: str) -> ParaRecord:
    """The record of one line (number ``number``) of a para file's stripped text."""
    fields = line.split("\t")
    if len(fields) < 3:
        if not line.strip():
            raise InputError("blank line between sentences (ChERRANT would write an empty block)", name, number)
        raise InputError(f"expected id<TAB>source<TAB>target[<TAB>target...], found "
                         f"{plural(len(fields), 'tab-separated field')}", name, number)
    identifier, source, *targets = fields
    if not "".join(source.split()):
        raise InputError("the source is empty (ChERRANT cannot annotate an empty sentence)", name, number)
    for k, target in enumerate(targets):
        if not "".join(target.split()):
            raise InputError(f"target {k + 1} is empty (ChERRANT cannot annotate an empty sentence; "
                             "write the source for 'no change')", name, number)
    return ParaRecord(identifier, source, tuple(targets), number)


def read_para(path: str | os.PathLike) -> list[ParaRecord]:
    """Read and check a para file."""
    with _opened(path) as (handle, name):
        data = read_whole(handle, name)
    return parse_para(decode_utf8(data, name), name)


PARA_BATCH = 2_000
"""Records :func:`para_batches` gives at a time."""


def para_batches(path: str | os.PathLike, batch: int | None = None) -> Iterator[list[ParaRecord]]:
    """The records of a para file, ``batch`` at a time, read a line at a time: the records
    :func:`read_para` gives (the same text stripped of surrounding whitespace, lines ended as
    Python's text mode ends them, numbered as there), but a file of any size in the memory of
    one batch. A fault is the one :func:`read_para` would raise for its line, found when the
    reading gets there (the first fault in the file's order: the records before it have been
    given). ``batch``: :data:`PARA_BATCH` unless given."""
    batch = PARA_BATCH if batch is None else check_count(batch, "batch", 1)
    records: list[ParaRecord] = []
    held: tuple[str, int] | None = None  # the last line with text, stripped on the left if the first
    blank: list[tuple[str, int]] = []  # lines of whitespace after it: the text's end, or a fault
    with _opened(path) as (handle, name):
        for line, number in _text_lines(handle, name):
            if not line.strip():
                blank.append((line, number))
                continue
            if held is not None:
                records.append(_record(*held, name))
                for faulty in blank[:1]:  # (raises: whitespace alone is not a record)
                    records.append(_record(*faulty, name))
            held, blank = (line, number) if held is not None else (line.lstrip(), number), []
            if len(records) >= batch:
                yield records
                records = []
    if held is None:
        raise InputError("has no sentences (expected lines id<TAB>source<TAB>target...)", name)
    records.append(_record(held[0].rstrip(), held[1], name))
    yield records


def _text_lines(handle: BinaryIO, name: str) -> Iterator[tuple[str, int]]:
    """The lines of a para file's text as :func:`parse_para` splits it (a leading byte-order mark
    dropped, ``\\r\\n`` and a lone ``\\r`` ending a line as ``\\n`` does), each with its number;
    a NUL byte or invalid UTF-8 is the InputError of :func:`decode_utf8` for its line."""
    number = 1
    for raw_number, raw in enumerate(file_lines(handle, name), start=1):
        text = decode_utf8(raw, name, raw_number)
        if raw_number == 1 and text.startswith("\ufeff"):
            text = text[1:]
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        pieces = text.split("\n")
        for piece in pieces[:-1]:
            yield piece, number
            number += 1
        if pieces[-1]:  # the file's last line, without a line break
            yield pieces[-1], number


@contextmanager
def _opened(path: str | os.PathLike) -> Iterator[tuple[BinaryIO, str]]:
    """A para file opened for reading, with its name; what fails to open is one InputError."""
    if not isinstance(path, (str, os.PathLike)):
        raise InputError(f"the para file's path must be a string or a path, got {type(path).__name__}")
    name = check_path(path)  # not ''
    try:
        handle = open(name, "rb")
    except IsADirectoryError:
        raise InputError("is a directory, not a file", name) from None
    except FileNotFoundError:
        raise InputError("no such file", name) from None
    except OSError as err:
        raise InputError(f"cannot read: {err.strerror}", name) from None
    with handle:
        check_not_standard_output(handle, name)
        try:
            yield handle, name
        except IsADirectoryError:
            raise InputError("is a directory, not a file", name) from None
        except OSError as err:
            raise InputError(f"cannot read: {err.strerror}", name) from None
