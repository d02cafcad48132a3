"""ChERRANT's character level as an :class:`~gecmetrics.core.lang.base.EditLanguage`: tokens are
characters (``[缺失成分]`` one token), sources lose their whitespace, targets their whitespace and
(by default) traditional characters, 没有错误 and 无法标注 are special targets, every cheapest
alignment under the Cilin / confusion-set / pinyin costs is kept (:mod:`.align`), merged by
ChERRANT's character rules (:mod:`.merge`) and typed by operation (:mod:`.classify`); its edits are
compared by ChERRANT's rules (:class:`~gecmetrics.core.edits.cherrant.CherrantComparison`) and its
M2 carries ChERRANT's target lines (:func:`cherrant_lines`)."""
from __future__ import annotations

import os
from typing import Any, Iterable, Sequence

from ....errors import InputError
from ...edits.cherrant import CherrantComparison
from ..base import EDITS, NOOP, NOT_ANNOTATABLE, AlignOp, EditLanguage, PairEdits, TypedEdit
from . import align as alignment
from .classify import classify
from .data import ENVIRONMENT_VARIABLE as DATA_VARIABLE, CherrantData, data_folder, load_data
from .merge import merge
from .text import PinyinTable, char_tokens, clean, pinyin_version, simplifier_version, to_simplified

NO_ERROR = "没有错误"
NOT_ANNOTATABLE_TEXT = "无法标注"
STRATEGIES = ("all", "first")
WORD_LEVEL_MESSAGE = ("ChERRANT's word level (-g word / --segmenter ltp) is not available: it needs LTP 4.x (pip install "
                      "ltp) and its segmentation and POS model (e.g. LTP/small, a download), with ChERRANT's word-level "
                      "costs and spelling classifier, which gecmetrics does not run; use the character level (-g char, "
                      "the default)")


def cherrant_lines(kind: str, target_tokens: Sequence[str], alternatives: Sequence[Sequence[TypedEdit]],
                   annotator: int) -> str:
    """One target's lines of a ChERRANT M2 block for annotator id ``annotator``: ``T<k> 没有错误``
    and a ``noop`` line, ``T<k> 无法标注`` and an ``NA`` line, or per distinct edit list n a
    ``T<k>-A<n>`` line with the target's characters, then its edit lines."""
    if kind == NOOP:
        return (f"T{annotator} {NO_ERROR}\n"
                f"A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||{annotator}\n")
    if kind == NOT_ANNOTATABLE:
        return (f"T{annotator} {NOT_ANNOTATABLE_TEXT}\n"
                f"A -1 -1|||NA|||-NONE-|||REQUIRED|||-NONE-|||{annotator}\n")
    target = " ".join(target_tokens)
    parts = []
    for number, edits in enumerate(alternatives):
        parts.append(f"T{annotator}-A{number} {target}\n")
        parts.extend(f"A {e.start} {e.end}|||{e.type}|||{e.correction}|||REQUIRED|||-NONE-|||{annotator}\n"
                     for e in edits)
    return "".join(parts)


class ChineseCharacters(EditLanguage):
    """ChERRANT ``parallel_to_m2.py -g char``'s steps. ``data``: the data files (a
    :class:`CherrantData`, a folder, or None for the usual places); ``strategy``: ``all`` (every
    cheapest alignment, ChERRANT's default) or ``first``; ``simplified``: OpenCC t2s on targets
    (ChERRANT's default); ``use_compiled``: the C table filler (default: when built)."""

    code = "zh"
    settings = ("cherrant_data", "no_simplified", "alignments", "granularity", "segmenter")
    comparison = CherrantComparison
    character_level = True
    m2_target_lines = True
    every_line = True

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

    @classmethod
    def check_settings(cls, granularity: str = "char", segmenter: str | None = None, **settings: Any) -> None:
        """The word level (``-g word``, ``--segmenter ltp``) is refused: it needs LTP."""
        if granularity == "word" or segmenter is not None:
            raise InputError(WORD_LEVEL_MESSAGE)

    @classmethod
    def from_settings(cls, code: str, cherrant_data: str | None = None, no_simplified: bool = False,
                      alignments: str = "all", granularity: str = "char",
                      segmenter: str | None = None, context: Any = None) -> "ChineseCharacters":
        """The settings of ``errant --lang zh``: ChERRANT's data folder, ``--no-simplified``,
        ``--alignments all|first`` (``-s``); the word level is refused. The data tables are read
        once per process into the run's resources (``context``: a
        :class:`~gecmetrics.core.context.RunContext`; None: the process's store)."""
        cls.check_settings(granularity, segmenter)
        data = load_data(cherrant_data, None if context is None else context.resources)
        return cls(data, alignments, not no_simplified)

    @classmethod
    def used_settings(cls, code: str, **settings: Any) -> dict[str, Any]:
        """The data folder of $GECMETRICS_CHERRANT_DATA when it is set and none is given (None:
        the user data folder)."""
        if "cherrant_data" in settings and settings["cherrant_data"] is None and os.environ.get(DATA_VARIABLE):
            return {**settings, "cherrant_data": str(data_folder())}
        return settings

    def m2_lines(self, annotation: PairEdits, annotator: int) -> str:
        """ChERRANT's lines of one target (:func:`cherrant_lines`)."""
        return cherrant_lines(annotation.kind, annotation.target_tokens,
                              annotation.alternatives if annotation.kind == EDITS else (), annotator)

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
