"""Units of text: words (``str.split()``) or characters of the raw line (SPEC 1)."""
from __future__ import annotations

from typing import Sequence

from ..errors import plural

UNITS = ("word", "char")

# What Python 2's ``bytes.split()`` (gec-ranking) splits on; ``str.split()`` splits on more:
# non-ASCII whitespace, and the ASCII information separators U+001C..U+001F.
_PY2_WHITESPACE = frozenset(" \t\n\r\x0b\x0c")
_ASCII_SEPARATORS = "\x1c\x1d\x1e\x1f"
_ASCII_OTHER_SPACE = "\t\n\r\x0b\x0c" + _ASCII_SEPARATORS
"""The ASCII characters other than the space that ``str.split()`` splits on."""


def normalized_space(line: str) -> str:
    """The line with leading, trailing and repeated whitespace removed (``--normalize-space``)."""
    return " ".join(line.split())


def split_units(line: str, unit: str = "word", normalize_space: bool = False) -> list[str]:
    """The units of one line: its ``split()`` tokens, or its characters exactly as read."""
    if unit == "word":
        return line.split()
    return list(normalized_space(line) if normalize_space else line)


def _has_other_whitespace(line: str) -> bool:
    """Whether ``str.split()`` splits the line where Python 2's ``bytes.split()`` did not."""
    if line.isascii():
        return any(c in line for c in _ASCII_SEPARATORS)
    return any(c.isspace() and c not in _PY2_WHITESPACE for c in line)


def _has_stray_space(line: str) -> bool:
    return line != normalized_space(line)


def whitespace_count(lines: Sequence[str], unit: str, normalize_space: bool = False) -> int:
    """Lines whose whitespace makes scores differ from other tools: with words, whitespace
    gec-ranking did not split on (non-ASCII, U+001C..U+001F); with characters, stray spaces
    (they count). The lines are first looked at joined, a few searches in C over the whole
    chunk: only when those find something is each line looked at in Python, else only the lines
    that are not ASCII (10^6 lines: about 1 s instead of 5 s per file; a CoNLL-2014 file with two
    such lines at character level 1.6 -> 0.34 ms)."""
    if unit == "word":
        text = "\n".join(lines)
        if any(c in text for c in _ASCII_SEPARATORS):
            return sum(1 for line in lines if _has_other_whitespace(line))
        return 0 if text.isascii() else sum(1 for line in lines if not line.isascii() and _has_other_whitespace(line))
    if normalize_space:
        return 0
    # joined by one space: a line's leading or trailing space, or an empty line, makes a double
    # space there (an empty line is then looked at and found clean)
    text = " ".join(lines)
    if text.startswith(" ") or text.endswith(" ") or "  " in text or any(c in text for c in _ASCII_OTHER_SPACE):
        return sum(1 for line in lines if _has_stray_space(line))
    # only whitespace outside ASCII is left to find (U+00A0, U+3000 ...): in the lines that are not ASCII
    return 0 if text.isascii() else sum(1 for line in lines if not line.isascii() and _has_stray_space(line))


def whitespace_warning(name: str, unit: str, count: int) -> str | None:
    """The warning line of :func:`whitespace_count` lines of a file (None when there are none)."""
    if not count:
        return None
    if unit == "word":
        return (f"gecmetric: warning: {name}: {plural(count, 'line')} {'contains' if count == 1 else 'contain'} "
                "whitespace that Python 2 did not split on "
                "(e.g. U+00A0, U+001C), which splits words here but not in gec-ranking; scores may differ from it")
    return (f"gecmetric: warning: {name}: {plural(count, 'line')} {'has' if count == 1 else 'have'} whitespace "
            "other than single spaces between words (leading, trailing or repeated, a tab, a lone '\\r'), "
            "which counts in char mode (as in the original tools); --normalize-space (Python: normalize_space=True) ignores it")


def whitespace_warnings(lines: Sequence[str], name: str, unit: str, normalize_space: bool = False) -> list[str]:
    """Warnings (one line each) about whitespace that makes scores differ from other tools."""
    warning = whitespace_warning(name, unit, whitespace_count(lines, unit, normalize_space))
    return [warning] if warning else []


def longest(lines: Sequence[str], unit: str = "word", normalize_space: bool = False, enough: int | None = None) -> int:
    """The most units any line has; with ``enough``, the first length that reaches it (the
    order warning only asks whether some line is that long: the first line usually is)."""
    if unit == "word":
        sizes = (len(line.split()) for line in lines)
    else:
        sizes = (len(normalized_space(line) if normalize_space else line) for line in lines)
    most = 0
    for size in sizes:
        if size > most:
            most = size
            if enough is not None and most >= enough:
                break
    return most


def order_warning(n: int, longest_line: int, unit: str) -> str | None:
    """A warning when no sentence has n units: every n-gram precision and recall of order n is
    then undefined, and GLEU+/GREEN score 0."""
    if n <= longest_line:
        return None
    units = plural(longest_line, "word" if unit == "word" else "character")
    return (f"gecmetric: warning: n = {n} is more than the length of every sentence (at most {units}): no "
            f"n-gram of order {n} to match, so corpus scores are 0 (sentence scores follow each "
            "metric's rules for short sentences)")


class TextChecks:
    """What the whitespace and order warnings need, gathered chunk by chunk over whole files:
    per file and unit setting, the lines with troublesome whitespace; per unit setting, the
    longest line. ``settings``: the (unit, normalize_space, n, python2_words) of the n-gram
    metrics, ``python2_words`` whether the metric's original split words as Python 2 did
    (gec-ranking's GLEU: the word-mode warning is about it; GREEN is Python 3's ``str.split``)."""

    def __init__(self, settings: Sequence[tuple[str, bool, int, bool]]) -> None:
        self.settings = list(dict.fromkeys(settings))
        self.counts: dict[tuple[int, str, str, bool], int] = {}
        self.longest: dict[tuple[str, bool], int] = {}
        self.notes: list[str] = []
        """The metrics' notes of the whole run (:meth:`~gecmetrics.metrics.base.Metric.notes`),
        added by the engine once every chunk is in."""

    def observe(self, named_texts: Sequence[tuple[str, Sequence[str]]]) -> None:
        """Count one chunk: (file name, its lines of the chunk) for every file."""
        for unit, normalize_space in dict.fromkeys((u, s) for u, s, _, _ in self.settings):  # (in the metrics' order:
            # a set's order of str pairs changes with the process's hash seed, and so did the warnings' order)
            alike = [(n, py2) for u, s, n, py2 in self.settings if (u, s) == (unit, normalize_space)]
            enough = max(n for n, _ in alike)
            counted = unit != "word" or any(py2 for _, py2 in alike)
            for position, (name, lines) in enumerate(named_texts):
                key = (position, name, unit, normalize_space)
                if counted:
                    self.counts[key] = self.counts.get(key, 0) + whitespace_count(lines, unit, normalize_space)
                so_far = self.longest.get((unit, normalize_space), 0)
                if so_far < enough:
                    size = longest(lines, unit, normalize_space, enough)
                    self.longest[(unit, normalize_space)] = max(so_far, size)

    def warnings(self) -> list[str]:
        """The warning lines as the command line prints them, each once: whitespace per file and
        unit, then orders, then the metrics' notes."""
        lines = [whitespace_warning(name, unit, count) for (_, name, unit, _), count in self.counts.items()]
        lines += [order_warning(n, self.longest.get((unit, normalize), 0), unit) for unit, normalize, n, _ in self.settings]
        return [line for line in dict.fromkeys([*lines, *self.notes]) if line]
