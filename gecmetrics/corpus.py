"""Reading and validating aligned text files: one sentence per line, UTF-8.

Lines are split on ``\\n`` only (a lone ``\\r`` inside a line is a character), a ``\\r\\n``
terminator counts as ``\\n``, a final line without ``\\n`` counts, and a leading byte-order mark
is dropped. Nothing else is changed (SPEC 1).
"""
from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Sequence

from .errors import InputError

STDIN = "-"


def decode_lines(data: bytes, path: str) -> list[str]:
    """Split raw bytes into lines as SPEC 1 says; invalid UTF-8 names the file and line."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        raise InputError(f"invalid UTF-8 (byte 0x{data[err.start]:02x})", path, line) from None
    return split_lines(text)


def split_lines(text: str) -> list[str]:
    """Lines of a decoded text: split on ``\n`` only, a ``\r\n`` terminator counts as
    ``\n``, a final line without ``\n`` counts, a leading byte-order mark is dropped."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text:
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def read_lines(path: str) -> list[str]:
    """Read a text file (or standard input for ``-``) into a list of lines."""
    if path == STDIN:
        return decode_lines(sys.stdin.buffer.read(), "<stdin>")
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except IsADirectoryError:
        raise InputError("is a directory, not a file", path) from None
    except FileNotFoundError:
        raise InputError("no such file", path) from None
    except OSError as err:
        raise InputError(f"cannot read: {err.strerror}", path) from None
    return decode_lines(data, path)


@dataclass
class Corpus:
    """D aligned sentences: one source, R reference sets, named hypothesis sets (SPEC 1)."""

    sources: list[str]
    references: list[list[str]]
    hypotheses: dict[str, list[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.sources = list(self.sources)
        self.references = [list(r) for r in self.references]
        if not self.references:
            raise InputError("at least one reference set is needed")
        d = len(self.sources)
        for k, ref in enumerate(self.references):
            check_length(ref, d, f"reference {k}")
        self.hypotheses = {name: list(h) for name, h in self.hypotheses.items()}
        for name, hyp in self.hypotheses.items():
            check_length(hyp, d, name)

    @property
    def size(self) -> int:
        return len(self.sources)


def check_length(lines: Sequence[str], expected: int, name: str, source_name: str = "the source") -> None:
    """Raise a clear error when a file does not have as many lines as the source."""
    if len(lines) != expected:
        raise InputError(f"has {len(lines)} lines but {source_name} has {expected}", name)


def read_corpus(source: str, references: Sequence[str], hypotheses: Sequence[str] = ()) -> Corpus:
    """Read source, reference and hypothesis files and check that they are aligned."""
    src = read_lines(source)
    refs = []
    for path in references:
        lines = read_lines(path)
        check_length(lines, len(src), path, f"the source {source}")
        refs.append(lines)
    hyps = {}
    for path in hypotheses:
        lines = read_lines(path)
        check_length(lines, len(src), path if path != STDIN else "<stdin>", f"the source {source}")
        hyps[path] = lines
    return Corpus(src, refs, hyps)
