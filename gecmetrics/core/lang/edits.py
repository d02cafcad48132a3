"""What the annotator extracts: typed edits, and ERRANT's line for an unchanged sentence."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from ...errors import InputError, plural
from ..edits.blocks import NOOP_TYPE, Edit

DETECTION_TYPES = frozenset({"Um", "UNK"})


@dataclass(frozen=True)
class AnnotatedEdit:
    """One extracted edit: orig tokens [o_start, o_end) -> cor tokens [c_start, c_end), typed."""

    o_start: int
    o_end: int
    c_start: int
    c_end: int
    type: str
    correction: str

    def to_m2(self, annotator: int) -> Edit:
        return Edit(self.o_start, self.o_end, self.type, self.correction, "REQUIRED", "-NONE-", annotator)


def noop_edit(annotator: int) -> Edit:
    """ERRANT's line for a correction identical to its source."""
    return Edit(-1, -1, NOOP_TYPE, "-NONE-", "REQUIRED", "-NONE-", annotator)


def checked_sets(sources: Sequence[str],
                 sets: Sequence[Sequence[Sequence[str]]]) -> tuple[list[str], list[list[list[str]]]]:
    """The arguments of an annotator's ``annotate_sets`` as lists, checked: sequences of str
    lines (TypeError), every hypothesis set as long as the sources (InputError)."""
    sources = _lines(sources, "sources")
    checked = [[_lines(hyps, f"hypotheses {k}") for k, hyps in enumerate(hypotheses_list)] for hypotheses_list in sets]
    for hypotheses_list in checked:
        for k, hypotheses in enumerate(hypotheses_list):
            if len(hypotheses) != len(sources):
                raise InputError(f"hypothesis set {k} has {plural(len(hypotheses), 'line')} "
                                 f"but the source has {len(sources)}")
    return sources, checked


def _lines(lines: Sequence[str], name: str) -> list[str]:
    if isinstance(lines, str) or not isinstance(lines, Iterable) or not all(isinstance(line, str) for line in lines):
        raise TypeError(f"{name} must be a sequence of str lines")
    return list(lines)
