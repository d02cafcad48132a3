"""The one error type users see: bad input, reported in one line with file and line."""
from __future__ import annotations


class InputError(ValueError):
    """Bad input (file, line, option or value). The CLI prints it in one line and exits 2."""

    def __init__(self, message: str, path: str | None = None, line: int | None = None):
        self.path = path
        self.line = line
        where = ""
        if path is not None:
            where = f"{path}:{line}: " if line is not None else f"{path}: "
        super().__init__(where + message)


class LineRefused(InputError):
    """One line (sentence) that a metric cannot score within its work bounds or its rules while
    it can score the others: an alignment or a merge past its bound, a sentence the language
    cannot annotate, CLEME's length weights with no reference correction. The CLI prints it as
    any InputError; a reward (:mod:`gecmetrics.rewards`) gives such a line its fallback value,
    while any other InputError (a setting, a model that cannot be loaded) still raises."""


SHOWN_CHARS = 80
"""The most characters of a value an error message shows (a whole text or a list of a million
scores given where one value belongs stays a one-line message of readable length)."""


def one_line(message: str) -> str:
    """A message as one printable line: its whitespace runs one space, anything unprintable
    escaped (a path, an SQLite or a server's message may hold newlines or a damaged file's bytes)."""
    return "".join(char if char.isprintable() else ascii(char)[1:-1] for char in " ".join(message.split()))


def shown(value: object) -> str:
    """``repr(value)``, cut to :data:`SHOWN_CHARS` characters with ``...``."""
    text = repr(value)
    return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS - 3] + "..."
