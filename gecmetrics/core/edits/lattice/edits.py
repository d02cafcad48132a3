"""The edits a lattice path stands for (system edits) and the gold edits it is weighed against."""
from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from typing import Sequence

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

    def shrunk(self) -> "SystemEdit":
        """The edit without the tokens its original and correction share at both ends, as the
        official's ``shrinkEdit`` shows a system edit in its -v report (a transitive arc holds
        unchanged tokens): a common prefix first, then a common suffix of what is left."""
        original, correction = self.original.split(), self.correction.split()
        shortest = min(len(original), len(correction))
        prefix = 0
        while prefix < shortest and original[prefix] == correction[prefix]:
            prefix += 1
        suffix = 0
        while suffix < shortest - prefix and original[-1 - suffix] == correction[-1 - suffix]:
            suffix += 1
        return SystemEdit(self.start + prefix, self.end - suffix, " ".join(original[prefix:len(original) - suffix]),
                          " ".join(correction[prefix:len(correction) - suffix]))


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


def match_in_order(system: Sequence[SystemEdit], gold: Sequence[GoldEdit]) -> list[SystemEdit]:
    """System edits found in the gold list, scanning it forward only, as the official's matchSeq
    does: it never looks back (a gold list out of order can miss matches) and goes on after a
    match, so a system edit matching two gold edits (an exactly duplicated gold line) counts
    twice (SPEC 4.4).

    The same result as the plain double loop, in O((S + G) log G) instead of O(S * G): the
    gold edits are indexed by (start, end, original, correction), and each system edit counts
    the matching gold edits at or past the scan's position (a sentence of 200,000 tokens may
    have tens of thousands of gold and system edits).
    """
    return [edit for edit, found in zip(system, matched_gold(system, gold)) for _ in found]


def matched_gold(system: Sequence[SystemEdit], gold: Sequence[GoldEdit]) -> list[list[int]]:
    """Per system edit, the indices of the gold edits :func:`match_in_order` counts it against
    (empty: the edit matches none; two: a duplicated gold line, counted twice)."""
    indexes: dict[tuple[int, int, str, str], list[int]] = {}
    for index, edit in enumerate(gold):
        for correction in dict.fromkeys(edit.corrections):
            indexes.setdefault((edit.start, edit.end, edit.original, correction), []).append(index)
    matched: list[list[int]] = []
    next_index = 0
    for edit in system:
        found = indexes.get(edit.as_tuple())
        at = bisect_left(found, next_index) if found else 0
        if found and at < len(found):
            matched.append(found[at:])
            next_index = found[-1] + 1
        else:
            matched.append([])
    return matched
