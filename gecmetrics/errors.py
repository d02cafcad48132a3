"""The one error type users see: bad input, reported in one line with file and line; and the
one warning category of the lines a scoring run says about its input (:class:`InputNote`)."""
from __future__ import annotations

TYPE_CHECKING = False  # (annotations only: see gecmetrics._lazy)
if TYPE_CHECKING:
    from typing import Iterable


class InputError(ValueError):
    """Bad input (file, line, option or value). The CLI prints it in one line and exits 2."""

    def __init__(self, message: str, path: str | None = None, line: int | None = None):
        self.path = path
        self.line = line
        self.message = message
        """The message without the place (a caller that knows the file names it: ``path:line: message``)."""
        where = ""
        if path is not None:
            where = f"{path}:{line}: " if line is not None else f"{path}: "
        elif line is not None:  # (the line of statistics whose file the scorer does not know)
            where = f"line {line}: "
        super().__init__(where + message)

    def naming(self, path: str) -> "InputError":
        """This error as one naming ``path``, the file whose data it is about (its line kept), for
        a caller that knows the file where the raiser did not."""
        return InputError(self.message, path, self.line)


class LineRefused(InputError):
    """One line (sentence) that a metric cannot score within its work bounds or its rules while
    it can score the others: an alignment or a merge past its bound, a sentence the language
    cannot annotate, CLEME's length weights with no reference correction. The CLI prints it as
    any InputError; a reward (:mod:`gecmetrics.rewards`) gives such a line its fallback value,
    while any other InputError (a setting, a model that cannot be loaded) still raises."""


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """A count with its noun for messages: ``1 line``, ``0 lines``, ``3 lists of edits`` (``nouns``:
    the plural where it is not the noun with an s)."""
    return f"{count} {noun if count == 1 else nouns or noun + 's'}"


def large_count(number: int) -> str:
    """An integer for messages: with thousands separators, or past 10^15 in exponent form
    (``1.00e+400``: the digits of an integer given by mistake say nothing)."""
    if abs(number) < 10**15:
        return f"{number:,}"
    from decimal import Decimal

    return f"{Decimal(number):.2e}"


NOTE_PREFIXES = ("gecmetric: warning: ", "gecmetric: note: ")
"""How the command line begins the lines it prints about its input (:func:`note_text`)."""


def note_text(line: str) -> str:
    """A line the command line prints about its input or its run without the command's prefix
    (:data:`NOTE_PREFIXES`): ``gecmetric: warning: AMU: 3 lines ...`` is ``AMU: 3 lines ...``;
    a line without one (a plugin's note) as it is. The one place that knows the prefix."""
    for prefix in NOTE_PREFIXES:
        if line.startswith(prefix):
            return line[len(prefix):]
    return line


class InputNote(UserWarning):
    """A line a scoring run says about its input or its run that changes no number: the input
    warnings (whitespace that splits words or counts in char mode, sentences shorter than the
    n-gram order) and the metrics' notes (:meth:`~gecmetrics.metrics.base.Metric.notes`:
    sentences a model cut to its maximum length). The public functions that compute scores
    issue each as one Python warning of this category (:func:`warn_notes`); the engine's runs
    return the lines (``Scored.warnings()``). ``str(note)`` is the text (:func:`note_text`),
    ``note.line`` the line as the command line prints it on stderr (``gecmetric: warning: ...``)."""

    def __init__(self, line: str):
        self.line = line
        super().__init__(note_text(line))

    def __reduce__(self):  # (pickled, as a worker's warning: made again from its line)
        return type(self), (self.line,)


def warn_notes(lines: Iterable[str]) -> None:
    """Each line (as the command line prints it), once, as an :class:`InputNote` warning
    attributed to the code that called gecmetrics (the first frame of the stack outside this
    package), whatever the depth of the public function it called. The one place the library
    tells what the command line prints."""
    import sys
    import warnings

    lines = list(dict.fromkeys(lines))
    if not lines:
        return
    level, frame = 2, sys._getframe(1)
    while frame is not None and _in_package(frame.f_globals.get("__name__", "")):
        level, frame = level + 1, frame.f_back
    for line in lines:
        warnings.warn(InputNote(line), stacklevel=level)


def _in_package(module: str) -> bool:
    return module == "gecmetrics" or module.startswith("gecmetrics.")


SHOWN_CHARS = 80
"""The most characters of a value an error message shows (a whole text or a list of a million
scores given where one value belongs stays a one-line message of readable length)."""


def one_line(message: str) -> str:
    """A message as one printable line: its whitespace runs one space, anything unprintable
    escaped (a path, an SQLite or a server's message may hold newlines or a damaged file's bytes)."""
    return "".join(char if char.isprintable() else ascii(char)[1:-1] for char in " ".join(message.split()))


_SAID_WITH_AN = frozenset({"ndarray"})
"""Type names that begin with a consonant letter said with a vowel sound ("en-dee-array"): :func:`kind_of`."""


def kind_of(value: object) -> str:
    """What a value is, for messages: ``None``, or its type's name with its article (``a list``,
    ``an int``, ``an ndarray``)."""
    if value is None:
        return "None"
    name = type(value).__name__
    return f"{'an' if name[:1].lower() in 'aeiou' or name in _SAID_WITH_AN else 'a'} {name}"


def shown(value: object) -> str:
    """``repr(value)``, cut to :data:`SHOWN_CHARS` characters with ``...``; an integer too long
    for that as :func:`large_count` writes it (``1.00e+5000``: the repr of one of more than 4,300
    digits is a ValueError)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 256:
        return large_count(value)
    try:
        text = repr(value)
    except ValueError:  # (a huge integer inside a container)
        return f"{kind_of(value)} holding a number too long to show"
    return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS - 3] + "..."
