"""Units of text: words (``str.split()``) or characters of the raw line (SPEC 1)."""
from __future__ import annotations

from typing import Sequence

UNITS = ("word", "char")

# What Python 2's ``bytes.split()`` (gec-ranking) splits on; ``str.split()`` splits on more.
_PY2_WHITESPACE = frozenset(" \t\n\r\x0b\x0c")


def check_unit(unit: str) -> str:
    from .errors import InputError

    if unit not in UNITS:
        raise InputError(f"unknown unit {unit!r}; choose one of: {', '.join(UNITS)}")
    return unit


def normalized_space(line: str) -> str:
    """The line with leading, trailing and repeated whitespace removed (``--normalize-space``)."""
    return " ".join(line.split())


def split_units(line: str, unit: str = "word", normalize_space: bool = False) -> list[str]:
    """The units of one line: its ``split()`` tokens, or its characters exactly as read."""
    if unit == "word":
        return line.split()
    return list(normalized_space(line) if normalize_space else line)


def _has_other_whitespace(line: str) -> bool:
    return any(c.isspace() and c not in _PY2_WHITESPACE for c in line)


def _has_stray_space(line: str) -> bool:
    return line != normalized_space(line)


def whitespace_warnings(lines: Sequence[str], name: str, unit: str, normalize_space: bool = False) -> list[str]:
    """Warnings (one line each) about whitespace that makes scores differ from other tools."""
    warnings = []
    if unit == "word":
        other = sum(1 for line in lines if not line.isascii() and _has_other_whitespace(line))
        if other:
            warnings.append(
                f"gecmetric: warning: {name}: {other} line(s) contain non-ASCII whitespace (e.g. U+00A0), "
                "which splits words here but not in gec-ranking (Python 2); scores may differ from it")
    elif not normalize_space:
        stray = sum(1 for line in lines if _has_stray_space(line))
        if stray:
            warnings.append(
                f"gecmetric: warning: {name}: {stray} line(s) have leading, trailing or repeated whitespace, "
                "which counts in char mode (as in the original tools); --normalize-space ignores it")
    return warnings


def longest(lines: Sequence[str], unit: str = "word", normalize_space: bool = False) -> int:
    """The most units any line has."""
    if unit == "word":
        return max((len(line.split()) for line in lines), default=0)
    return max((len(normalized_space(line) if normalize_space else line) for line in lines), default=0)


def order_warning(n: int, longest_line: int, unit: str) -> str | None:
    """A warning when no sentence has n units: every n-gram precision and recall of order n is
    then undefined, and GLEU+/GREEN score 0."""
    if n <= longest_line:
        return None
    units = "words" if unit == "word" else "characters"
    return (f"gecmetric: warning: n = {n} is more than the length of every sentence (at most {longest_line} "
            f"{units}): every score is 0")
