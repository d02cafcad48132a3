"""ChERRANT's character level as an :class:`~gecmetrics.core.lang.base.EditLanguage`: tokens are
characters (``[缺失成分]`` one token), sources lose their whitespace, targets their whitespace and
(by default) traditional characters, 没有错误 and 无法标注 are special targets, every cheapest
alignment under the Cilin / confusion-set / pinyin costs is kept (:mod:`.align`), merged by
ChERRANT's character rules (:mod:`.merge`) and typed by operation (:mod:`.classify`)."""
from __future__ import annotations

import os
from typing import Iterable, Sequence

from ....errors import InputError
from ..base import NOOP, NOT_ANNOTATABLE, AlignOp, EditLanguage, TypedEdit
from . import align as alignment
from .classify import classify
from .data import CherrantData, load_data
from .merge import merge
from .text import PinyinTable, char_tokens, clean, pinyin_version, simplifier_version, to_simplified

NO_ERROR = "没有错误"
NOT_ANNOTATABLE_TEXT = "无法标注"
STRATEGIES = ("all", "first")


class ChineseCharacters(EditLanguage):
    """ChERRANT ``parallel_to_m2.py -g char``'s steps. ``data``: the data files (a
    :class:`CherrantData`, a folder, or None for the usual places); ``strategy``: ``all`` (every
    cheapest alignment, ChERRANT's default) or ``first``; ``simplified``: OpenCC t2s on targets
    (ChERRANT's default); ``use_compiled``: the C table filler (default: when built)."""

    code = "zh"

    def __init__(self, data: CherrantData | str | os.PathLike | None = None, strategy: str = "all",
                 simplified: bool = True, use_compiled: bool | None = None) -> None:
        if strategy not in STRATEGIES:
            raise InputError(f"strategy must be one of {', '.join(STRATEGIES)}, not {strategy!r}")
        self.data = data if isinstance(data, CherrantData) else load_data(data)
        self.strategy = strategy
        self.simplified = bool(simplified)
        self.use_compiled = use_compiled
        self.costs = alignment.CostModel(self.data, PinyinTable())
        self._targets: dict[str, str] = {}

    def prepare_source(self, text: str) -> str:
        """Without whitespace."""
        return clean(text)

    def prepare_target(self, text: str) -> str:
        """Without whitespace, then simplified (by default); once per distinct text."""
        found = self._targets.get(text)
        if found is None:
            found = clean(text)
            if self.simplified:
                found = to_simplified(found)
            self._targets[text] = found
        return found

    def special(self, source: str, target: str) -> str | None:
        if not source:
            raise InputError("empty source sentence (ChERRANT cannot annotate it)")
        if not target:
            raise InputError("empty target sentence (ChERRANT cannot annotate it)")
        if target == NO_ERROR or source == target:
            return NOOP
        if target == NOT_ANNOTATABLE_TEXT:
            return NOT_ANNOTATABLE
        return None

    def tokenise(self, texts: Sequence[str]) -> list[tuple[str, ...]]:
        return [tuple(char_tokens(text)) for text in texts]

    def alignments(self, orig: Sequence[str], cor: Sequence[str]) -> Iterable[list[AlignOp]]:
        tab = alignment.table(self.costs.encode(orig), self.costs.encode(cor), self.costs, self.use_compiled)
        paths = alignment.cheapest_paths(tab)
        if self.strategy == "first":
            return [next(paths)]
        return paths

    def merge(self, path: list[AlignOp], orig: Sequence[str], cor: Sequence[str]) -> list[AlignOp]:
        return merge(path, orig, cor)

    def classify(self, edits: Sequence[AlignOp], orig: Sequence[str], cor: Sequence[str]) -> list[TypedEdit]:
        return classify(edits, cor)

    def signature_fields(self) -> dict[str, str]:
        """The data files (``published``, or the first 12 hex digits of their fingerprint), the
        strategy and the conversion when not ChERRANT's defaults, pypinyin's and OpenCC's versions."""
        fields = {"data": "published" if self.data.matches_published else self.data.fingerprint()[:12]}
        if self.strategy != "all":
            fields["alignments"] = self.strategy
        if not self.simplified:
            fields["simplified"] = "no"
        fields["pypinyin"] = pinyin_version()
        if self.simplified:
            fields["opencc"] = simplifier_version()
        return fields
