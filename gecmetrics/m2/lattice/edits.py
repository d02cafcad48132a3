"""The edits a lattice path stands for (system edits) and the gold edits it is weighed against."""
from __future__ import annotations

from dataclasses import dataclass

EPSILON = 0.001
"""Weight the official scorer adds to a changing arc that matches no gold edit (per copy)."""


@dataclass(frozen=True)
class SystemEdit:
    """One edit of the system: source span [start, end), original and corrected text."""

    start: int
    end: int
    original: str
    correction: str

    def as_tuple(self) -> tuple[int, int, str, str]:
        return (self.start, self.end, self.original, self.correction)


@dataclass(frozen=True)
class GoldEdit:
    """One gold edit of one annotator: span, original text and the accepted corrections."""

    start: int
    end: int
    original: str
    corrections: tuple[str, ...]

    def matches(self, edit: SystemEdit) -> bool:
        return (edit.start == self.start and edit.end == self.end and edit.original == self.original
                and edit.correction in self.corrections)

    def token_corrections(self) -> list[list[str]]:
        """The distinct corrections an arc's hypothesis tokens can equal (an arc's correction is
        its tokens joined by single spaces, so a correction with other spacing matches none)."""
        found = []
        for correction in dict.fromkeys(self.corrections):
            tokens = correction.split()
            if " ".join(tokens) == correction:
                found.append(tokens)
        return found
