"""M2 blocks in any language of :mod:`gecmetrics.core.lang`: the annotator of a ``lang`` setting.

``en`` is ERRANT's :class:`~gecmetrics.metrics.errant.annotator.Annotator`; every other language
is a :class:`LanguageAnnotator` over the language's
:class:`~gecmetrics.core.lang.base.EditLanguage`. Both give the same blocks API
(``annotate_sets``, ``annotate``, ``signature_fields``), so the metrics never ask which language
they hold.

A :class:`LanguageAnnotator` block is what the language's tool writes, read back: for ``zh``,
ChERRANT's M2 block (``S`` the source characters; per target k, a ``noop`` or ``NA`` line, or the
edits of each distinct cheapest edit set n, every line with annotator id k and
:attr:`~gecmetrics.io.m2.Edit.edit_set` n, as the ``T<k>-A<n>`` line before them says in the
file); for the generic languages, ERRANT's layout (one edit set, a ``noop`` line for an
unchanged target).
"""
from __future__ import annotations

from typing import Any, Iterable, Sequence

from ...core.lang import ENGLISH, language_kind, make_language
from ...core.lang.base import EDITS, NOOP, NOT_ANNOTATABLE, EditLanguage, PairEdits, annotate_pair
from ...errors import InputError
from ...io.m2 import Block, Edit
from .edits import checked_sets
from ...core.lang.en.parse import DEFAULT_BATCH_SIZE, SpacyModel, model_name

_NONE = "-NONE-"


class SentenceError(InputError):
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
    once, over the annotator's life."""

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
                        kind = self.language.special(source, target)
                    except InputError as err:
                        raise SentenceError(str(err), kept[n], None if not source else s, None if not source else h
                                            ) from None
                    if kind is None:
                        changed.append(target)
        self._tokenise(list(prepared.values()) + changed)
        return [[self._block(prepared[d], [per_hyp[n] for per_hyp in per_set], (d, s)) for n, d in enumerate(kept)]
                for s, per_set in enumerate(targets)]

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

    def _block(self, source: str, targets: Sequence[str], where: tuple[int, int] | None = None) -> Block:
        """The block of one source and its targets; ``where`` = (sentence, hypothesis set) makes
        an error a :class:`SentenceError` (an alignment too large for its bound)."""
        block = Block(" ".join(self.language.words(self._sentences[source])))
        for k, target in enumerate(targets):
            try:
                found = self.pair(source, target)
            except InputError as err:
                if where is None or isinstance(err, SentenceError):
                    raise
                raise SentenceError(str(err), where[0], where[1], k) from None
            if found.kind == NOOP:
                block.edits.append(Edit(-1, -1, NOOP, _NONE, "REQUIRED", _NONE, k))
            elif found.kind == NOT_ANNOTATABLE:
                block.edits.append(Edit(-1, -1, NOT_ANNOTATABLE, _NONE, "REQUIRED", _NONE, k))
            else:
                assert found.kind == EDITS
                block.edits.extend(Edit(e.start, e.end, e.type, e.correction, "REQUIRED", _NONE, k, edit_set=n)
                                   for n, edits in enumerate(found.alternatives) for e in edits)
        return block


def language_annotator(lang: str, *, spacy_model: str | None = None, merge: str = "rules", lev: bool = False,
                       tokenise: bool = False, word_list: str | None = None, cherrant_data: str | None = None,
                       simplified: bool = True, alignments: str = "all", context: Any = None) -> Any:
    """The annotator of language ``lang``: ERRANT's (en), a ChERRANT character annotator (zh) or
    the generic one (any other code). ``context``: the run's
    :class:`~gecmetrics.core.context.RunContext` (its cache keeps ERRANT's parses; its resources
    the loaded pipelines and data; None: the default one)."""
    from ...core.context import run_context

    context = run_context(context)
    if lang == ENGLISH:
        from .annotator import Annotator

        return Annotator(shared_model(spacy_model, context.resources), merge, lev, tokenise, word_list,
                         cache=context.cache)
    if language_kind(lang) == "cherrant":
        return LanguageAnnotator(make_language(lang, data=cherrant_data, strategy=alignments, simplified=simplified))
    if word_list is not None:
        raise InputError(f"word_list is ERRANT's English SPELL list: not a setting of lang {lang}")
    return LanguageAnnotator(make_language(lang, model=shared_language_model(lang, spacy_model, context.resources),
                                           merge=merge, lev=lev, tokenise=tokenise))


def shared_language_model(code: str, model: str | None, resources: Any = None) -> Any:
    """One loaded spaCy pipeline per (language, model) in a process (loaded on first use;
    ``resources``: a run's store, else the process's)."""
    from ...core.context import loaded
    from ...core.lang.generic import AnyLanguageModel

    return loaded(("spacy-language", code, model), lambda: AnyLanguageModel(model, code), resources)


def shared_model(name: str | None, resources: Any = None) -> SpacyModel:
    """One loaded pipeline per model name in a process, whatever the number of metrics using it
    (None: the default model, :func:`~gecmetrics.core.lang.en.parse.model_name`; ``resources``:
    a run's store, else the process's)."""
    from ...core.context import loaded

    name = model_name(name)
    return loaded(("spacy", name), lambda: SpacyModel(name, DEFAULT_BATCH_SIZE), resources)
