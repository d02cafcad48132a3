"""Lines and reference sets given in Python, checked where any layer takes them (the io
readers, the n-gram encoder of :class:`~gecmetrics.core.ngrams.EncodedCorpus`): a list of
strings in order, never one string read as characters, a set in hash order or a mapping's keys."""
from __future__ import annotations

import os
import re
from typing import Any, Mapping, Sequence

from ..errors import InputError, kind_of, plural


def unordered(values: Any, mapping: bool = True, sets: bool = True) -> str | None:
    """What is wrong with ``values`` given where their order counts (lines, reference sets, the
    paths of references, M2 blocks, sentence numbers), or None: a set or frozenset has none (its
    items come in the order of their hashes, which for strings changes from one process to the
    next: the lines of a hypothesis scored against other sentences, GLEU+'s references drawn in
    another order; ``sets`` False: names that only select), and a mapping (``mapping``) would be
    read as its keys."""
    if sets and isinstance(values, (set, frozenset)):
        return f"{kind_of(values)} (it has no order: give a list)"
    if mapping and isinstance(values, Mapping):
        return f"{kind_of(values)} (its keys would be read: give a list)"
    return None


def sequence_problem(values: Any) -> str | None:
    """What keeps ``values`` from being read as a sequence in its order, for a message (``a
    str``, ``None``, ``a set (it has no order: give a list)``), or None when nothing does."""
    if isinstance(values, (str, bytes)) or not is_iterable(values):
        return kind_of(values)
    return unordered(values)


def check_length(lines: Sequence[Any], expected: int, name: str, source_name: str = "the source") -> None:
    """Raise a clear error when a text does not have as many lines as the source."""
    if len(lines) != expected:
        raise InputError(f"has {plural(len(lines), 'line')} but {source_name} has {expected}", name)


def check_lines(lines: Any, name: str, offset: int = 0) -> list[str]:
    """A list of lines: a sequence of strings, not a string (whose characters would be read as
    lines); anything else is an InputError saying what was expected."""
    if isinstance(lines, (str, bytes)):
        hint = (f"wrap it in a list: [{type(lines).__name__}]" if not _file_names([lines]) else
                "a file's name: its lines are gecmetrics.read_lines(path)")
        raise InputError(f"expected a list of lines, got a single {type(lines).__name__} ({hint})", name)
    if not isinstance(lines, Sequence) and not is_iterable(lines):
        raise InputError(f"expected a list of lines, got {type(lines).__name__}", name)
    problem = unordered(lines)
    if problem is not None:
        raise InputError(f"expected a list of lines, got {problem}", name)
    lines = list(lines)
    for k, line in enumerate(lines):
        if not isinstance(line, str):
            raise InputError(f"expected lines of text, got {type(line).__name__} at line {k + 1 + offset}", name,
                             k + 1 + offset)
        if "\n" in line:  # (no line of a file holds one: a caller's text scored as it would never be read)
            raise InputError("holds a line break ('\\n'): a line of text has none; give each sentence as its own line",
                             name, k + 1 + offset)
        if not line.isascii() and (found := LONE_SURROGATE.search(line)):  # (spaCy's hashing raised on it)
            raise InputError(f"holds a lone surrogate ({found.group()!r}), which is no Unicode text", name,
                             k + 1 + offset)
    return lines


LONE_SURROGATE = re.compile("[\ud800-\udfff]")
"""A code point of a UTF-16 surrogate pair on its own: a Python string may hold one, no text
file can (UTF-8 has no encoding of it)."""


def check_reference_sets(references: Any, name: str = "references") -> list[list[str]]:
    """A list of reference sets, each a list of lines. A flat list of strings is the common
    mistake (one reference set given without its outer list): it is an error, never read set
    by set as if each string were a set of lines."""
    if isinstance(references, (str, bytes)) or not is_iterable(references):
        raise InputError(f"expected a list of reference sets (each a list of lines), got {type(references).__name__}",
                         name)
    problem = unordered(references)
    if problem is not None:
        raise InputError(f"expected a list of reference sets (each a list of lines), got {problem}", name)
    references = list(references)
    if references and all(isinstance(r, str) for r in references):
        hint = ("files' names: their lines are [gecmetrics.read_lines(path) for path in paths]"
                if _file_names(references) else "one reference set is written [lines]")
        raise InputError(f"expected a list of reference sets (each a list of lines), got a list of strings; {hint}",
                         name)
    return [check_lines(ref, f"reference {k}") for k, ref in enumerate(references)]


def _file_names(texts: Sequence[str]) -> bool:
    """Whether every text (lines given where a list of lines is read) names a file that exists:
    the paths given in place of the files' lines."""
    return all(isinstance(text, str) and text and "\n" not in text and len(text) < 4096 and os.path.isfile(text)
               for text in texts)


def check_reference_lengths(references: Sequence[Sequence[str]], expected: int, name_of: Any = "reference {}",
                            source_name: str = "the source") -> None:
    """Every reference set as long as the source (``expected`` lines; ``name_of``: a reference's
    name from its index, a format or a function). Sets of one length as many as the source's
    lines are most likely the references laid out sentence by sentence: the message says how
    they go (a square layout cannot be told apart)."""
    for k, reference in enumerate(references):
        if len(reference) != expected:
            transposed = len(references) == expected and len({len(r) for r in references}) == 1
            hint = (f" (there are {len(references)} reference sets, one per source line: references go set by set, "
                    "each as long as the source, [ref0_lines, ref1_lines]; sentence by sentence rows become "
                    "[list(r) for r in zip(*rows)])") if transposed else ""
            name = name_of.format(k) if isinstance(name_of, str) else name_of(k)
            raise InputError(f"has {plural(len(reference), 'line')} but {source_name} has {expected}{hint}", name)


def is_iterable(value: Any) -> bool:
    try:
        iter(value)
    except TypeError:
        return False
    return True
