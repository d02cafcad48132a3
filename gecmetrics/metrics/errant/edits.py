"""What the annotator extracts: typed edits, and ERRANT's line for an unchanged sentence."""
from __future__ import annotations

from dataclasses import dataclass

from ...io.m2 import NOOP_TYPE, Edit

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
