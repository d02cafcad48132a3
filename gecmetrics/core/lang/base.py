"""The interface every language of the edit metrics implements, and the drivers over it.

An :class:`EditLanguage` says, for one language, how a line becomes tokens (``tokenise``), which
alignments of two token sequences are cheapest under its costs (``alignments``: one, or every
cheapest one), how an alignment becomes edits (``merge``) and how an edit is typed
(``classify``), with the source and target preparation and the special targets the language's
tool knows (``prepare_source``, ``prepare_target``, ``special``). :func:`annotate_pair` is the
one driver of a pair: special target, else every alignment merged and typed, distinct edit lists
kept in the order they are found; :class:`LanguageAnnotator` the one driver of a corpus (M2
blocks, M2 text), unless the language brings its own (``annotator``).

Beside its steps a language declares what the metrics ask of it, so that none compares language
codes: the annotation settings it reads (``settings``, made into a language by
``from_settings``), the comparison rules of its tool (``comparison``), whether its tokens are
characters (``character_level``), whether its tool's M2 has target lines (``m2_target_lines``,
written by ``m2_lines``), whether its tokenisations go through the persistent cache
(``caches_parses``) and whether it re-annotates M2 files (``reannotates``).

The languages (:mod:`gecmetrics.core.lang`, found by their code): ``en`` (ERRANT 3.0.2's English
rules, :class:`gecmetrics.core.lang.en.annotator.English`, whose annotator is ERRANT's own),
``zh`` (ChERRANT's character level, :class:`gecmetrics.core.lang.zh.language.ChineseCharacters`),
any language with a spaCy model (:class:`gecmetrics.core.lang.generic.GenericLanguage`: ERRANT's
language-independent part), and languages registered by other packages.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar, Iterable, NamedTuple, Sequence

from ...errors import InputError, LineRefused
from ..edits.blocks import DELETION, Block, Edit
from ..edits.compare import EditComparison
from .edits import checked_sets

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
    settings: ClassVar[tuple[str, ...]] = ()
    """The annotation settings of the ``errant`` metric (and ``m2 annotate``) this language reads,
    by name (``spacy_model``, ``merge``, ``cherrant_data`` ...): :meth:`from_settings` takes
    them; giving another is refused."""
    comparison: ClassVar[type[EditComparison]] = EditComparison
    """The rules its tool compares edits with: ERRANT's ``compare_m2`` (ChERRANT's for zh). Its
    fields are settings of the metric (``mode``, ``max_answer_num`` ...); its ``label`` names
    the metric (``ERRANT``, ``ChERRANT``)."""
    character_level: ClassVar[bool] = False
    """Its tokens are characters: its M2 tokens join without spaces."""
    m2_target_lines: ClassVar[bool] = False
    """Its tool's M2 files carry ``T<k>-A<n>`` target lines (ChERRANT's): readers skip them,
    :meth:`m2_lines` writes them."""
    every_line: ClassVar[bool] = False
    """Its tool writes a block for every source line (an empty one is an error); else empty
    lines are left out, as ERRANT does."""
    caches_parses: ClassVar[bool] = False
    """Its tokenisations are kept in the persistent cache (a signature then says ``cache:on``)."""
    reannotates: ClassVar[bool] = False
    """It re-annotates M2 files (ERRANT's ``errant_m2 -auto|-gold``: the annotator's ``reannotate``)."""

    @classmethod
    def from_settings(cls, code: str, **settings: Any) -> "EditLanguage":
        """The language of code ``code`` made from its :attr:`settings` (default: they are the
        constructor's keywords). An override may also take ``context``: the run's
        :class:`~gecmetrics.core.context.RunContext`, whose ``resources`` keep what it loads
        (models, data tables) and whose ``cache`` keeps what it may reuse across runs
        (:func:`~gecmetrics.core.lang.make_language` hands it only to one that takes it)."""
        return cls(**settings)

    @classmethod
    def check_settings(cls, **settings: Any) -> None:
        """Refuse settings values the language cannot run (before anything is loaded; default:
        none)."""

    @classmethod
    def used_settings(cls, code: str, **settings: Any) -> dict[str, Any]:
        """The settings as a run uses them, for what a result shows (JSON settings): a value
        left to a default the language looks up (an environment variable's spaCy model or
        data) named; a built-in file stays None (default: the settings as given)."""
        return settings

    def annotator(self) -> Any:
        """What annotates corpora in this language (``annotate_sets``, ``annotate``,
        ``m2_text``, ``signature_fields``): a :class:`LanguageAnnotator` over it."""
        return LanguageAnnotator(self)

    def m2_lines(self, annotation: "PairEdits", annotator: int) -> str:
        """One target's lines of an M2 block as the language's tool writes them (ERRANT's: the
        edit lines of :func:`target_edits`)."""
        return "".join(edit.to_line() + "\n" for edit in target_edits(annotation, annotator))

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


def option_fields(merge: str, lev: bool, tokenise: bool) -> dict[str, str]:
    """Signature fields of ERRANT's options where they are not its defaults: the merging
    strategy, plain Levenshtein costs, spaCy's tokeniser."""
    fields = {"merge": merge} if merge != "rules" else {}
    fields.update({flag: "yes" for flag, on in (("lev", lev), ("tok", tokenise)) if on})
    return fields


def annotation_fields(fields: dict[str, str], cache: Any = None) -> list[tuple[str, str]]:
    """The signature fields of the annotation that made edits a number reads, the one rule of
    ERRANT's signature and of an edit attribution's: the language's ``fields`` (its
    ``signature_fields()``: English, the options that are not ERRANT's defaults, a SPELL word list
    of one's own by its checksum, spaCy's and the model's versions), then ``cache:on`` when the
    parses may have come from the persistent ``cache`` (None: a language that keeps none)."""
    return [*fields.items(), *([("cache", "on")] if cache is not None and cache.enabled else [])]


def target_edits(annotation: PairEdits, annotator: int) -> list[Edit]:
    """One target's edit lines in a block, with annotator id ``annotator``: a ``noop`` or ``NA``
    line, or the edits of each distinct edit list n (:attr:`~gecmetrics.core.edits.blocks.Edit.edit_set` n)."""
    if annotation.kind != EDITS:
        return [Edit(-1, -1, annotation.kind, DELETION, "REQUIRED", DELETION, annotator)]
    return [Edit(e.start, e.end, e.type, e.correction, "REQUIRED", DELETION, annotator, edit_set=n)
            for n, edits in enumerate(annotation.alternatives) for e in edits]


class SentenceError(LineRefused):
    """A sentence the language cannot annotate (ChERRANT: an empty one), with where it is:
    ``sentence`` (0-based, in the lines given), ``set_index`` and ``hypothesis`` (its hypothesis
    set and position in it; None: the source line), so that the caller can name the file and
    line."""

    def __init__(self, message: str, sentence: int, set_index: int | None, hypothesis: int | None):
        super().__init__(message)
        self.sentence, self.set_index, self.hypothesis = sentence, set_index, hypothesis


class LanguageAnnotator:
    """Blocks of plain-text corrections in one :class:`EditLanguage`; each distinct line is
    tokenised once (in one batch per call) and each distinct (source, target) pair annotated
    once, over the annotator's life.

    A block is what the language's tool writes, read back: for ``zh``, ChERRANT's M2 block (``S``
    the source characters; per target k, a ``noop`` or ``NA`` line, or the edits of each distinct
    cheapest edit set n, every line with annotator id k and edit set n, as the ``T<k>-A<n>`` line
    before them says in the file); for the generic languages, ERRANT's layout (one edit set, a
    ``noop`` line for an unchanged target). :meth:`m2_text` writes the tool's own text."""

    def __init__(self, language: EditLanguage, first_only: bool = False) -> None:
        self.language = language
        self.first_only = bool(first_only)
        self._sentences: dict[str, Any] = {}
        self._pairs: dict[tuple[str, str], PairEdits] = {}

    def __getstate__(self) -> dict:
        return {**self.__dict__, "_sentences": {}, "_pairs": {}}

    def signature_fields(self) -> dict[str, str]:
        return {"lang": self.language.code, **self.language.signature_fields()}

    def versions(self) -> dict[str, str]:
        return self.language.signature_fields()

    def annotate(self, sources: Sequence[str], hypotheses_list: Sequence[Sequence[str]],
                 keep_empty: bool = False) -> list[Block]:
        """One block per non-empty source line (every line with ``keep_empty``), each hypothesis
        set's edits as annotator 0, 1, ..."""
        return self.annotate_sets(sources, [hypotheses_list], keep_empty)[0]

    def annotate_sets(self, sources: Sequence[str], sets: Sequence[Sequence[Sequence[str]]],
                      keep_empty: bool = False) -> list[list[Block]]:
        """:meth:`annotate` of several sets of hypotheses of the same sources (each distinct line
        tokenised once for them all)."""
        return [[self._block(source, pairs) for source, pairs in sentences]
                for sentences in self._annotations(sources, sets, keep_empty)]

    def m2_text(self, sources: Sequence[str], hypotheses_list: Sequence[Sequence[str]]) -> str:
        """The M2 text the language's tool writes for the hypotheses (annotators 0, 1, ...): a
        block per source line (non-empty ones, unless :attr:`EditLanguage.every_line`), each
        target's lines by :meth:`EditLanguage.m2_lines`."""
        language = self.language
        return "".join("S " + " ".join(language.words(self._sentences[source])) + "\n"
                       + "".join(language.m2_lines(found, k) for k, found in enumerate(pairs)) + "\n"
                       for source, pairs in self._annotations(sources, [hypotheses_list], language.every_line)[0])

    def _annotations(self, sources: Sequence[str], sets: Sequence[Sequence[Sequence[str]]],
                     keep_empty: bool) -> list[list[tuple[str, list[PairEdits]]]]:
        """Per set, per kept sentence: the prepared source and each hypothesis's annotation. A
        sentence the language cannot annotate is a :class:`SentenceError` saying where it is."""
        sources, sets = checked_sets(sources, sets)
        language = self.language
        kept = [d for d, line in enumerate(sources) if keep_empty or line.strip()]
        prepared = {d: language.prepare_source(sources[d]) for d in kept}
        targets = [[[language.prepare_target(hyps[d]) for d in kept] for hyps in hypotheses_list]
                   for hypotheses_list in sets]
        changed = []
        for s, per_set in enumerate(targets):
            for h, per_hyp in enumerate(per_set):
                for n, (source, target) in enumerate(zip(prepared.values(), per_hyp)):
                    try:
                        kind = language.special(source, target)
                    except InputError as err:
                        raise SentenceError(str(err), kept[n], None if not source else s, None if not source else h
                                            ) from None
                    if kind is None:
                        changed.append(target)
        self._tokenise(list(prepared.values()) + changed)
        return [[(prepared[d], [self._located_pair(prepared[d], per_hyp[n], (d, s, k))
                                for k, per_hyp in enumerate(per_set)]) for n, d in enumerate(kept)]
                for s, per_set in enumerate(targets)]

    def _located_pair(self, source: str, target: str, where: tuple[int, int, int]) -> PairEdits:
        """:meth:`pair`, a refusal of which (an alignment too large for its bound) is a
        :class:`SentenceError` at ``where`` = (sentence, hypothesis set, hypothesis); any other
        error (a setting, a word list that cannot be read) is not about the line."""
        try:
            return self.pair(source, target)
        except LineRefused as err:
            if isinstance(err, SentenceError):
                raise
            raise SentenceError(str(err), *where) from None

    def _tokenise(self, texts: Iterable[str]) -> None:
        missing = [text for text in dict.fromkeys(texts) if text not in self._sentences]
        if missing:
            self._sentences.update(zip(missing, self.language.tokenise(missing)))

    def _special(self, source: str, target: str) -> str | None:
        try:
            return self.language.special(source, target)
        except InputError as err:
            raise InputError(f"{err}: source {source[:40]!r}, target {target[:40]!r}") from None

    def pair(self, source: str, target: str) -> PairEdits:
        """The annotation of one prepared pair (once per distinct pair)."""
        key = (source, target)
        found = self._pairs.get(key)
        if found is None and (kind := self._special(source, target)) is not None:
            found = self._pairs[key] = PairEdits(kind, ())
        if found is None:
            self._tokenise((source, target))
            found = self._pairs[key] = annotate_pair(self.language, source, target, self._sentences[source],
                                                     self._sentences[target], self.first_only)
        return found

    def _block(self, source: str, annotations: Sequence[PairEdits]) -> Block:
        block = Block(" ".join(self.language.words(self._sentences[source])))
        for k, found in enumerate(annotations):
            block.edits.extend(target_edits(found, k))
        return block


__all__ = ["AlignOp", "EDITS", "EditLanguage", "LanguageAnnotator", "NOOP", "NOT_ANNOTATABLE", "PairEdits",
           "SentenceError", "TypedEdit", "annotate_pair", "option_fields", "target_edits"]
