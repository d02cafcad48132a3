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
from dataclasses import dataclass

from ..errors import InputError, plural
from .text import NUL_MESSAGE, check_not_standard_output, check_path, decode_utf8, read_whole


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
    records = []
    for number, line in enumerate(stripped.split("\n"), start=first_line):
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
        records.append(ParaRecord(identifier, source, tuple(targets), number))
    return records


def read_para(path: str | os.PathLike) -> list[ParaRecord]:
    """Read and check a para file."""
    if not isinstance(path, (str, os.PathLike)):
        raise InputError(f"the para file's path must be a string or a path, got {type(path).__name__}")
    name = check_path(path)  # not ''
    try:
        with open(name, "rb") as handle:
            check_not_standard_output(handle, name)
            data = read_whole(handle, name)
    except IsADirectoryError:
        raise InputError("is a directory, not a file", name) from None
    except FileNotFoundError:
        raise InputError("no such file", name) from None
    except OSError as err:
        raise InputError(f"cannot read: {err.strerror}", name) from None
    return parse_para(decode_utf8(data, name), name)
