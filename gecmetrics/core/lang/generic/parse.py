"""spaCy parses of any language for the generic annotator (the English loader checks for English
and ERRANT's pipes; this one checks the model's language and takes what it has)."""
from __future__ import annotations

from typing import Any

from ....errors import InputError
from ..en.parse import DEFAULT_BATCH_SIZE, ParsedSentence, SpacyModel, installed_models, _StringTable



def default_model(code: str) -> str:
    """spaCy's small news model of a language (``fr_core_news_sm``): the name its official
    pipelines have for most languages."""
    return f"{code}_core_news_sm"


def spacy_languages() -> list[str]:
    """The language codes of the installed spaCy (its ``spacy.lang`` packages; for messages)."""
    try:
        import pkgutil

        import spacy.lang

        return sorted(module.name for module in pkgutil.iter_modules(spacy.lang.__path__) if module.ispkg)
    except Exception:  # noqa: BLE001 - a message helper: never an error of its own
        return []


def _spacy_language(code: str) -> bool:
    """Whether spaCy has a language class for ``code`` (one of its own, or one a package registers)."""
    try:
        import spacy.util

        spacy.util.get_lang_class(code)
    except Exception:  # noqa: BLE001 - spaCy raises ImportError (E048) for a code it does not know
        return False
    return True


class AnyLanguageModel(SpacyModel):
    """A spaCy pipeline of language ``code`` loaded on first use (default: :func:`default_model`)."""

    def __init__(self, model: str | None, code: str, batch_size: int = DEFAULT_BATCH_SIZE) -> None:
        super().__init__(model or default_model(code), batch_size)
        self.code = code

    def _loaded(self) -> Any:  # under the model's lock (SpacyModel.nlp)
        if self._nlp is None:
            self._nlp = self._load()
            self._strings = _StringTable(self._nlp.vocab.strings)
            self.has_lemmas = "lemmatizer" in self._nlp.pipe_names
        return self._nlp

    def _missing(self) -> InputError:
        """What is installed, what spaCy knows of the language (a code it has no language for
        cannot be parsed by any of its models), and how to give a model: no guessed name to
        install, since spaCy has trained pipelines for a few of its languages only."""
        known = spacy_languages()
        if known and self.code not in known and not _spacy_language(self.code):
            return InputError(f"language {self.code!r} (--lang) is neither one of gecmetrics' (en, zh, or one "
                              f"registered: docs/languages.md) nor one of spaCy's, whose models parse the others: "
                              f"{', '.join(known)}")
        installed = ", ".join(installed_models()) or "none"
        if self.model == default_model(self.code):
            missing = (f"no spaCy model given for language {self.code!r} (--spacy-model) and {self.model!r}, the "
                       f"name spaCy's pipelines have for most languages, is not installed")
        else:
            missing = f"spaCy model {self.model!r} not found"
        return InputError(f"{missing} (installed spaCy models: {installed}); name a spaCy pipeline of language "
                          f"{self.code!r} with --spacy-model NAME_OR_PATH (Python: spacy_model=NAME), e.g. one of "
                          "spaCy's trained pipelines (https://spacy.io/models: python -m spacy download NAME)")

    def _refusal(self, lang: str, pipes: Any) -> InputError | None:
        """A model of another language (whatever its components: the annotator takes what it has)."""
        if lang != self.code:
            return InputError(f"spaCy model {self.model!r} is for language {lang!r}, not {self.code!r} (--lang)")
        return None

    def _sentence(self, doc: Any) -> ParsedSentence:
        """The token fields; a token without a lemma (no lemmatizer) gets its lower case."""
        sentence = super()._sentence(doc)
        if self.has_lemmas or not len(sentence):
            return sentence
        return ParsedSentence(sentence.words, sentence.lower, tuple(lemma or lower for lemma, lower in
                                                                     zip(sentence.lemma, sentence.lower)),
                              sentence.pos, sentence.tag, sentence.dep, sentence.head, sentence.space)

    def __getstate__(self) -> dict:
        return {**super().__getstate__(), "code": self.code}

    def __reduce_ex__(self, protocol: Any) -> Any:
        # sent to a worker by its language, name and batch size, as the English model is: there,
        # the process's one pipeline of them, loaded there once (a subclass: its state)
        if type(self) is AnyLanguageModel:
            return (_process_language_model, (self.code, self.model, self.batch_size))
        return super().__reduce_ex__(protocol)


def shared_language_model(code: str, model: str | None, resources: Any = None,
                          batch_size: int = DEFAULT_BATCH_SIZE) -> AnyLanguageModel:
    """One loaded spaCy pipeline per (language, model and batch size) in a process (None: the
    language's :func:`default_model`; loaded on first use; ``resources``: a run's store, else
    the process's)."""
    from ...context import loaded

    model = model or default_model(code)
    key = ("spacy-language", code, model) + (() if batch_size == DEFAULT_BATCH_SIZE else (batch_size,))
    return loaded(key, lambda: AnyLanguageModel(model, code, batch_size), resources)


def _process_language_model(code: str, model: str, batch_size: int) -> AnyLanguageModel:
    """An :class:`AnyLanguageModel` unpickled (in a worker): the process's shared one."""
    return shared_language_model(code, model, None, batch_size)
