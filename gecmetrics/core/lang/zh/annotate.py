"""ChERRANT's ``parallel_to_m2.py -g char``: parallel sentences to character-level M2.

For one source and its targets (references, or a system's output) the block is the one ChERRANT
writes, byte for byte::

    S <source characters separated by spaces>
    T0-A0 <target characters>            (one T line per distinct edit set of the target)
    A <start> <end>|||<type>|||<correction>|||REQUIRED|||-NONE-|||0
    ...
    <blank line>

A target equal to its source, or the literal 没有错误 ("no error"), gives ``T<k> 没有错误`` and a
``noop`` line; the literal 无法标注 ("cannot be annotated") gives ``T<k> 无法标注`` and an ``NA``
line. Otherwise every cheapest alignment (only the first with ``strategy="first"``) is merged
into edits, and each distinct edit list, in the order the paths are found, is written as
``T<k>-A<n>`` with its typed edits; all carry annotator id k (the target's position).

Work is done once per distinct (source, target) pair: the annotations are kept in the annotator
(a system output mostly repeats its source or a reference), and the per-token features once
per distinct character.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Iterable, Sequence

from ...lines import check_lines
from ....errors import InputError, kind_of
from ..base import EDITS, annotate_pair
from .classify import TypedEdit
from .data import CherrantData
from .language import ChineseCharacters, cherrant_lines
from .text import char_tokens


@dataclass(frozen=True)
class PairAnnotation:
    """The id-independent part of one target's annotation: its kind (``noop``, ``NA`` or
    ``edits``), the target's tokens, and the distinct edit lists (``edits`` only)."""

    kind: str
    target_tokens: tuple[str, ...]
    alternatives: tuple[tuple[TypedEdit, ...], ...] = ()

    def m2_lines(self, annotator: int) -> str:
        """This target's lines of an M2 block (T lines and A lines) for annotator id ``annotator``."""
        return cherrant_lines(self.kind, self.target_tokens, self.alternatives, annotator)


class CharAnnotator:
    """ChERRANT's character-level annotator.

    data: the data files (a :class:`CherrantData`, a folder, or None for the usual places, see
    :mod:`.data`); strategy: 'all' (ChERRANT's default ``-s all``: every cheapest alignment) or
    'first'; simplified: convert targets to simplified characters with OpenCC (ChERRANT's
    default; ``no_simplified`` there); use_compiled: the C table filler (default: when built).
    """

    def __init__(self, data: CherrantData | str | os.PathLike | None = None, strategy: str = "all",
                 simplified: bool = True, use_compiled: bool | None = None):
        self.language = ChineseCharacters(data, strategy, simplified, use_compiled)
        self.data, self.strategy, self.simplified = self.language.data, strategy, bool(simplified)
        self.costs = self.language.costs
        self._annotations: dict[tuple[str, str], PairAnnotation] = {}

    def prepare_source(self, text: str) -> str:
        """A source as ChERRANT reads it: without whitespace."""
        return self.language.prepare_source(text)

    def prepare_target(self, text: str) -> str:
        """A target as ChERRANT reads it: without whitespace, then simplified (by default)."""
        return self.language.prepare_target(text)

    def annotate(self, source: str, target: str) -> PairAnnotation:
        """The annotation of one prepared (source, target) pair (see :meth:`prepare_source`,
        :meth:`prepare_target`), computed once per distinct pair."""
        key = (source, target)
        found = self._annotations.get(key)
        if found is None:
            found = self._annotations[key] = self._annotate(source, target)
        return found

    def _annotate(self, source: str, target: str) -> PairAnnotation:
        """ChERRANT's annotation of one pair (:func:`~gecmetrics.core.lang.base.annotate_pair` over
        :class:`~gecmetrics.core.lang.zh.language.ChineseCharacters`)."""
        found = annotate_pair(self.language, source, target)
        return PairAnnotation(found.kind, found.target_tokens, found.alternatives if found.kind == EDITS else ())

    def block(self, source: str, targets: Sequence[str]) -> str:
        """The M2 block of one raw source and its raw targets (ids 0, 1, ...), blank line included."""
        if not isinstance(source, str):
            raise InputError(f"the source must be a text, got {kind_of(source)}", "source")
        targets = check_lines(targets, "targets")  # (a str's characters were read as targets)
        prepared = self.prepare_source(source)
        parts = ["S " + " ".join(char_tokens(prepared)) + "\n"]
        for number, target in enumerate(targets):
            parts.append(self.annotate(prepared, self.prepare_target(target)).m2_lines(number))
        parts.append("\n")
        return "".join(parts)

    def to_m2(self, records: Iterable[tuple[str, Sequence[str]]]) -> str:
        """The M2 text of (source, targets) records, as ``parallel_to_m2.py -g char`` writes it."""
        return "".join(self.block(source, targets) for source, targets in records)
