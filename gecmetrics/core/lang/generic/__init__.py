"""An operation-level annotator for any language with a spaCy model: ERRANT's language-independent
part, not ERRANT's English rules.

* Tokens: the line split on whitespace (as given, ERRANT's default) or spaCy's tokeniser
  (``tokenise``); each token's text, lower case, lemma and universal POS come from the model
  (:class:`AnyLanguageModel`). A model without a lemmatizer gives each token its lower case as
  lemma; a model without a tagger or morphologizer gives no POS. The parses go through the
  persistent cache as English ones do (:func:`gecmetrics.core.lang.en.parsestore.parse_lines`:
  keyed by the model's files and spaCy's versions), so a run whose lines are all stored does not
  start spaCy.
* Alignment: ERRANT's Damerau-Levenshtein alignment with its linguistic substitution cost, which
  reads only the lower case, the lemma and the universal POS (:mod:`gecmetrics.core.lang.en.align`,
  language-independent as it is), or plain Levenshtein (``lev``).
* Merging: ERRANT's strategies (:mod:`gecmetrics.core.lang.en.merge`). Its ``rules`` read the
  universal POS, case, punctuation, hyphens and apostrophes; the one English rule among them, for
  the Penn Treebank possessive tag ``POS``, never fires on a model without that tag.
* Types (:mod:`.classify`): the operation (M missing, U unnecessary, R replacement) and a class
  from the universal POS where the model gives one; no spelling, agreement or tense classes,
  which need a language's word lists and morphology rules.
"""
from __future__ import annotations

from typing import Any, Sequence

from ..base import AlignOp, EditLanguage, TypedEdit, option_fields
from ..en.align import align
from ..en.merge import STRATEGIES, edit_spans
from ..en.parse import ParsedSentence
from ..en.parsestore import parse_lines
from .classify import classify_edit
from .parse import AnyLanguageModel, default_model, shared_language_model

__all__ = ["AnyLanguageModel", "GenericLanguage", "default_model", "shared_language_model", "STRATEGIES"]


class GenericLanguage(EditLanguage):
    """ERRANT's language-independent part for language ``code`` over a spaCy model (a name or a
    path, default :func:`default_model`): ``merge`` one of ERRANT's strategies, ``lev`` plain
    Levenshtein costs, ``tokenise`` spaCy's tokeniser instead of the whitespace tokens given;
    ``cache``: where parses are kept across runs (a :class:`~gecmetrics.core.cache.Cache`; None:
    the default folder's, looked up on first use)."""

    settings = ("spacy_model", "merge", "lev", "tokenise")
    caches_parses = True

    def __init__(self, code: str, model: str | AnyLanguageModel | None = None, merge: str = "rules",
                 lev: bool = False, tokenise: bool = False, cache: Any = None) -> None:
        from ....errors import InputError

        if merge not in STRATEGIES:
            raise InputError(f"unknown merging strategy {merge!r}: choose from {', '.join(STRATEGIES)}")
        self.code = code
        self.spacy = model if isinstance(model, AnyLanguageModel) else AnyLanguageModel(model, code)
        self.merging, self.lev, self.tokenising = merge, bool(lev), bool(tokenise)
        self._cache = cache

    @classmethod
    def from_settings(cls, code: str, spacy_model: str | None = None, merge: str = "rules", lev: bool = False,
                      tokenise: bool = False, context: Any = None) -> "GenericLanguage":
        """The language on the pipeline of ``spacy_model``, loaded once per process into the run's
        resources, its parses in the run's cache (``context``: a
        :class:`~gecmetrics.core.context.RunContext`; None: the process's store and the default
        cache)."""
        resources, cache = (None, None) if context is None else (context.resources, context.cache)
        return cls(code, shared_language_model(code, spacy_model, resources), merge, lev, tokenise, cache)

    @classmethod
    def used_settings(cls, code: str, **settings: Any) -> dict[str, Any]:
        """The spaCy model loaded: ``spacy_model``, else the language's ``CODE_core_news_sm``."""
        if "spacy_model" not in settings:
            return settings
        return {**settings, "spacy_model": settings["spacy_model"] or default_model(code)}

    @property
    def cache(self) -> Any:
        """The persistent cache of parses: the one given, else the default folder's."""
        if self._cache is None:
            from ...context import run_context

            self._cache = run_context().cache
        return self._cache

    def prepare_source(self, text: str) -> str:
        return text.strip() if self.tokenising else " ".join(text.split())

    def prepare_target(self, text: str) -> str:
        return self.prepare_source(text)

    def tokenise(self, texts: Sequence[str]) -> list[ParsedSentence]:
        return parse_lines(self.spacy, list(texts), self.tokenising, self.cache)

    def words(self, sentence: ParsedSentence) -> tuple[str, ...]:
        return sentence.words

    def alignments(self, orig: ParsedSentence, cor: ParsedSentence) -> list[list[AlignOp]]:
        return [align(orig, cor, self.lev)]

    def merge(self, alignment: list[AlignOp], orig: ParsedSentence, cor: ParsedSentence) -> list[AlignOp]:
        return [("X", *span) for span in edit_spans(alignment, orig, cor, self.merging)]

    def classify(self, edits: Sequence[AlignOp], orig: ParsedSentence, cor: ParsedSentence) -> list[TypedEdit]:
        return [TypedEdit(o_start, o_end, classify_edit(orig, range(o_start, o_end), cor, range(c_start, c_end)),
                          " ".join(cor.words[c_start:c_end]))
                for _, o_start, o_end, c_start, c_end in edits]

    def signature_fields(self) -> dict[str, Any]:
        return {**option_fields(self.merging, self.lev, self.tokenising), **self.spacy.versions()}
