"""The interface every language of the edit metrics implements, and the one pair annotator over it.

An :class:`EditLanguage` says, for one language, how a line becomes tokens (``tokenise``), which
alignments of two token sequences are cheapest under its costs (``alignments``: one, or every
cheapest one), how an alignment becomes edits (``merge``) and how an edit is typed
(``classify``), with the source and target preparation and the special targets the language's
tool knows (``prepare_source``, ``prepare_target``, ``special``). :func:`annotate_pair` is the
one driver: special target, else every alignment merged and typed, distinct edit lists kept in
the order they are found.

The languages (:mod:`gecmetrics.core.lang`): ``en`` (ERRANT 3.0.2's English rules, run by its
own annotator, :class:`gecmetrics.metrics.errant.Annotator`, which predates this interface and
keeps its parse cache and re-annotation), ``zh`` (ChERRANT's character level,
:class:`gecmetrics.core.lang.zh.language.ChineseCharacters`) and any language with a spaCy model
(:class:`gecmetrics.core.lang.generic.GenericLanguage`: ERRANT's language-independent part).
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Iterable, NamedTuple, Sequence

AlignOp = tuple
"""(operation, source start, source end, target start, target end); operation M, S, I, D or T<k>."""

NOOP, NOT_ANNOTATABLE, EDITS = "noop", "NA", "edits"


class TypedEdit(NamedTuple):
    """One typed edit: source tokens [start, end) replaced by ``correction`` (the target tokens
    joined by spaces, or the language's deletion mark)."""

    start: int
    end: int
    type: str
    correction: str


class PairEdits(NamedTuple):
    """The annotation of one (source, target) pair: its kind (``edits``, ``noop`` or ``NA``), the
    target's tokens, and the distinct edit lists of its cheapest alignments (``edits`` only; one
    list for a language that keeps one alignment)."""

    kind: str
    target_tokens: tuple[str, ...]
    alternatives: tuple[tuple[TypedEdit, ...], ...] = ()


class EditLanguage(ABC):
    """One language's edit extraction (see the module docstring)."""

    code: str = ""
    """The language's name as ``lang`` gives it (``zh``, ``fr``)."""

    def prepare_source(self, text: str) -> str:
        """A source line as the language's tool reads it (default: as it is)."""
        return text

    def prepare_target(self, text: str) -> str:
        """A target line as the language's tool reads it (default: as it is)."""
        return text

    def special(self, source: str, target: str) -> str | None:
        """``noop`` or ``NA`` for a prepared target the tool does not align, else None (default:
        noop when the target equals the source)."""
        return NOOP if source == target else None

    @abstractmethod
    def tokenise(self, texts: Sequence[str]) -> list[Any]:
        """The sentences of prepared lines, in one batch (objects :meth:`words` reads)."""

    def words(self, sentence: Any) -> tuple[str, ...]:
        """A tokenised sentence's tokens (default: the sentence is its token sequence)."""
        return tuple(sentence)

    @abstractmethod
    def alignments(self, orig: Any, cor: Any) -> Iterable[list[AlignOp]]:
        """The cheapest alignments of two tokenised sentences under the language's costs, in the
        order its tool finds them (a language that keeps one gives one)."""

    @abstractmethod
    def merge(self, alignment: list[AlignOp], orig: Any, cor: Any) -> list[AlignOp]:
        """The edits of one alignment, as (operation, o_start, o_end, c_start, c_end)."""

    @abstractmethod
    def classify(self, edits: Sequence[AlignOp], orig: Any, cor: Any) -> list[TypedEdit]:
        """The merged edits of one alignment, typed."""

    def signature_fields(self) -> dict[str, str]:
        """What the edits depend on beyond the language's name (data, model and library versions)."""
        return {}


def annotate_pair(language: EditLanguage, source: str, target: str, orig: Any = None, cor: Any = None,
                  first_only: bool = False) -> PairEdits:
    """The annotation of one prepared (source, target) pair: the language's special target, else
    the distinct edit lists of its cheapest alignments, in the order they are found (only the
    first with ``first_only``). ``orig`` and ``cor`` are the tokenised sentences when the caller
    has them (a batch tokeniser), else they are tokenised here."""
    kind = language.special(source, target)
    if kind is not None:
        if cor is None:
            cor = language.tokenise([target])[0]
        return PairEdits(kind, language.words(cor))
    if orig is None or cor is None:
        orig, cor = language.tokenise([source, target])
    alternatives: list[tuple[TypedEdit, ...]] = []
    seen: set = set()
    for alignment in language.alignments(orig, cor):
        edits = tuple(language.merge(alignment, orig, cor))
        if edits not in seen:
            seen.add(edits)
            alternatives.append(tuple(language.classify(edits, orig, cor)))
        if first_only:
            break
    return PairEdits(EDITS, language.words(cor), tuple(alternatives))

