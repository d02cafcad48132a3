"""spaCy parses for the ERRANT annotator: load a model lazily, parse each distinct line once.

ERRANT reads, for every token, its text, lower case, lemma, coarse part of speech, fine
(Penn Treebank) tag, dependency label and head; a :class:`ParsedSentence` keeps exactly
those, as plain tuples (picklable, cheap to share between systems and worker processes).
spaCy is an optional dependency (``pip install 'gecmetrics[errant]'``): it is imported only
when a model is first needed, and every failure to get a usable English model is one
:class:`~gecmetrics.errors.InputError` line.
"""
from __future__ import annotations

import errno
import os
import threading
from dataclasses import dataclass, field
from typing import Any, Sequence

from ...checks import check_count
from ...stop import check as check_stop
from ....errors import InputError

INSTALL_HINT = "pip install 'gecmetrics[errant]'"
DEFAULT_MODEL = "en_core_web_sm"
"""The official English model ERRANT loads; $GECMETRICS_SPACY_MODEL names another once for all runs."""
MODEL_VARIABLE = "GECMETRICS_SPACY_MODEL"
REQUIRED_PIPES = ("tagger", "parser", "lemmatizer")
# ERRANT loads its model with the named entity recogniser disabled; nothing it reads comes from it
EXCLUDED_PIPES = ("ner",)
DEFAULT_BATCH_SIZE = 128
# set to 1 to run spaCy's attribute ruler and lemmatizer on every sentence (no per-token reuse)
NO_RULE_CACHE_VARIABLE = "GECMETRICS_NO_RULE_CACHE"
RELOAD_AFTER = 100_000
"""Texts parsed by one loaded pipeline before it is dropped and loaded again: spaCy's vocabulary
and string store, the rule reuse's table and the string table grow with every new word, so a
long run (``m2 annotate`` of millions of lines) reloads to keep its memory bounded (about 2 s
of CPU per reload, against about 140 s of parsing; the parses are the same)."""


@dataclass(frozen=True)
class ParsedSentence:
    """One parsed line: per token its text, lower case, lemma, coarse POS (spaCy's ``pos_``),
    fine tag, dependency label, head index and whether a space follows it."""

    words: tuple[str, ...]
    lower: tuple[str, ...]
    lemma: tuple[str, ...]
    pos: tuple[str, ...]
    tag: tuple[str, ...]
    dep: tuple[str, ...]
    head: tuple[int, ...]
    space: tuple[bool, ...]
    _children: dict = field(default_factory=dict, compare=False, repr=False)
    _features: list = field(default_factory=list, compare=False, repr=False)
    """The alignment's token features, made once however many sentences this one is aligned with."""

    def __len__(self) -> int:
        return len(self.words)

    def span_text(self, start: int, end: int) -> str:
        """The text of tokens [start, end) with their own spacing, as spaCy's ``Span.text``."""
        parts = []
        for index in range(start, end):
            parts.append(self.words[index])
            if self.space[index] and index < end - 1:
                parts.append(" ")
        return "".join(parts)

    def children(self, index: int) -> list[int]:
        """The tokens whose head is ``index`` (itself excluded), in sentence order."""
        found = self._children.get(index)
        if found is None:
            found = [i for i, head in enumerate(self.head) if head == index and i != index]
            self._children[index] = found
        return found


EMPTY_SENTENCE = ParsedSentence((), (), (), (), (), (), (), ())


def sentence_from_words(words: Sequence[str], *, lower: Sequence[str] | None = None,
                        lemma: Sequence[str] | None = None, pos: Sequence[str] | None = None,
                        tag: Sequence[str] | None = None, dep: Sequence[str] | None = None,
                        head: Sequence[int] | None = None) -> ParsedSentence:
    """A hand-made parse (for tests and examples): unspecified fields get neutral values
    (lower-cased words as lower case and lemma, POS 'X', tag 'XX', dep 'dep', each token its
    own head), every token followed by a space."""
    n = len(words)
    return ParsedSentence(
        tuple(words), tuple(lower or [w.lower() for w in words]), tuple(lemma or [w.lower() for w in words]),
        tuple(pos or ["X"] * n), tuple(tag or ["XX"] * n), tuple(dep or ["dep"] * n),
        tuple(head if head is not None else range(n)), (True,) * n)


def _heads(offsets: Sequence[int]) -> tuple[int, ...]:
    """Head indices from spaCy's HEAD column (the offset to the head, as unsigned 64-bit)."""
    return tuple(i + (offset if offset < 2**63 else offset - 2**64) for i, offset in enumerate(offsets))


class _StringTable(dict):
    """Strings of spaCy hash keys, taken from a string store once each (0: the empty string)."""

    def __init__(self, store: Any) -> None:
        super().__init__()
        self.store = store

    def __missing__(self, key: int) -> str:
        found = self[key] = self.store[key] if key else ""
        return found


def model_name(model: str | None = None) -> str:
    """The spaCy model to load: ``model`` when given, else $GECMETRICS_SPACY_MODEL, else the
    official ``en_core_web_sm``."""
    if model is None:
        model = os.environ.get(MODEL_VARIABLE, "").strip() or DEFAULT_MODEL
    if not isinstance(model, str) or not model.strip():
        raise InputError(f"the spaCy model must be a package name or a path, not {model!r}")
    return model.strip()


def installed_models() -> list[str]:
    """The spaCy pipeline packages installed (for messages)."""
    try:
        import spacy.util

        return sorted(spacy.util.get_installed_models())
    except Exception:  # noqa: BLE001 - a message helper: never an error of its own
        return []


def model_missing(model: str) -> InputError:
    """The one message for a model that does not load: what is installed, and how to choose."""
    installed = ", ".join(installed_models()) or "none"
    return InputError(f"spaCy model {model!r} not found (installed spaCy models: {installed}); choose one with "
                      f"--spacy-model NAME (Python: spacy_model=NAME) or once for all runs with "
                      f"{MODEL_VARIABLE}=NAME, or install the official one: python -m spacy download {DEFAULT_MODEL}")


def model_unloadable(model: str, err: BaseException) -> InputError:
    """The one message for a model spaCy finds but cannot load (damaged weights, a config or
    components this spaCy cannot read)."""
    reason = " ".join(str(err).split())[:200] or type(err).__name__
    return InputError(f"spaCy model {model!r} cannot be loaded ({type(err).__name__}: {reason}): its files may be "
                      "damaged or made for another spaCy; reinstall it or choose another with --spacy-model")


def _import_spacy() -> Any:
    try:
        import spacy
    except ImportError:
        raise InputError(f"ERRANT annotation needs spaCy, which is not installed: {INSTALL_HINT}") from None
    return spacy


class SpacyModel:
    """A spaCy pipeline loaded on first use, by package name or path (default: :func:`model_name`).
    One model object serves every run and thread of a process (it is kept in the process's
    resources): loading, parsing and releasing take turns under its lock, as spaCy's pipeline and
    vocabulary are not made to be used by two threads at once."""

    def __init__(self, model: str | None = None, batch_size: int = DEFAULT_BATCH_SIZE):
        self.batch_size = check_count(batch_size, "batch size")
        self.model = model_name(model)
        self._nlp: Any = None
        self._strings: dict[int, str] = {}  # a _StringTable once the model is loaded
        self._rules: Any = None
        self.parsed = 0
        """How many texts this process ran through spaCy (the others came from the cache)."""
        self._since_load = 0
        self._lock = threading.RLock()

    @property
    def nlp(self) -> Any:
        """The loaded pipeline (loaded and checked now if it was not yet)."""
        with self._lock:
            return self._nlp if self._nlp is not None else self._loaded()

    def _loaded(self) -> Any:
        if self._nlp is None:
            self._nlp = self._load()
            from .rulecache import index_lists_as_sets

            self._strings = _StringTable(self._nlp.vocab.strings)
            index_lists_as_sets(self._nlp)
            if os.environ.get(NO_RULE_CACHE_VARIABLE, "") in ("", "0"):
                from .rulecache import RuleCache

                self._rules = RuleCache.for_pipeline(self._nlp)
        return self._nlp

    def _load(self) -> Any:
        from .modelid import model_identity

        identity = model_identity(self.model)  # a model found on disk that will not do: refused unloaded
        refused = None if identity is None else self._refusal(identity.lang, identity.pipeline)
        if refused is not None:
            raise refused
        spacy = _import_spacy()
        try:
            nlp = spacy.load(self.model, exclude=list(EXCLUDED_PIPES))
        except OSError as err:
            if err.errno in (errno.EMFILE, errno.ENFILE):  # (too many open files: not a missing model)
                raise
            raise self._missing() from None
        except Exception as err:  # noqa: BLE001 - damaged weights, a broken config: whatever spaCy raises
            raise model_unloadable(self.model, err) from None
        check_stop()  # (an interrupt while spaCy imported torch, whose exception an import swallowed: the
        # run went on parsing the whole corpus, 16 s, before it stopped)
        return self._checked(nlp)

    def _missing(self) -> InputError:
        """The error for a model spaCy cannot find."""
        return model_missing(self.model)

    def _checked(self, nlp: Any) -> Any:
        """The loaded pipeline, when it has what the annotator reads (else InputError)."""
        refused = self._refusal(nlp.lang, nlp.pipe_names)
        if refused is not None:
            raise refused
        return nlp

    def _refusal(self, lang: str, pipes: Sequence[str]) -> InputError | None:
        """Why a model of language ``lang`` with components ``pipes`` will not do (None: it
        will): checked on the model's meta.json before loading it, and on the loaded pipeline."""
        if lang != "en":
            return InputError(f"spaCy model {self.model!r} is for language {lang!r}: ERRANT's annotator needs "
                              "an English model")
        missing = [name for name in REQUIRED_PIPES if name not in pipes]
        if missing:
            return InputError(f"spaCy model {self.model!r} has no {', '.join(missing)}: ERRANT needs tags, "
                              "dependencies and lemmas")
        return None

    @property
    def identity(self) -> Any:
        """The model as found on disk without loading it (a
        :class:`~gecmetrics.core.lang.en.modelid.ModelIdentity`), or None when it is not found
        there as a model this loader accepts (:meth:`_fits`; loading it then says why)."""
        from .modelid import model_identity

        identity = model_identity(self.model)
        return identity if identity is not None and self._fits(identity) else None

    def _fits(self, identity: Any) -> bool:
        """Whether a model found on disk is one this loader would accept (:meth:`_refusal`)."""
        return self._refusal(identity.lang, identity.pipeline) is None

    def versions(self) -> dict[str, str]:
        """spaCy's version and the model's ``lang_name-version`` (the numbers depend on both),
        read from the installed packages when the model is found on disk (nothing is loaded:
        a run whose parses are all in the cache never starts spaCy), else from the loaded model."""
        from . import modelid

        identity = self.identity
        if identity is not None and modelid.package_version("spacy") != "none":
            return {"spacy": modelid.package_version("spacy"), "model": identity.label}
        spacy = _import_spacy()
        meta = self.nlp.meta
        return {"spacy": spacy.__version__, "model": f"{meta.get('lang', '')}_{meta.get('name', '')}-"
                                                     f"{meta.get('version', '')}"}

    def parse(self, texts: Sequence[str], tokenise: bool = False) -> list[ParsedSentence]:
        """Parse lines in batches: whitespace-split tokens as given (ERRANT's default), or
        spaCy's own tokenisation with ``tokenise``. (Through the persistent cache:
        :func:`gecmetrics.core.lang.en.parsestore.parse_lines`.)"""
        with self._lock:
            return self._parse(texts, tokenise)

    def _parse(self, texts: Sequence[str], tokenise: bool) -> list[ParsedSentence]:
        if self._nlp is not None and self._since_load >= RELOAD_AFTER:
            self.release()
        nlp = self.nlp
        result = [EMPTY_SENTENCE] * len(texts)
        filled = [index for index, text in enumerate(texts) if text.strip()]  # nothing to parse in an empty line
        self.parsed += len(filled)
        self._since_load += len(filled)
        if tokenise:
            inputs: Any = (texts[index] for index in filled)
        else:
            from spacy.tokens import Doc

            inputs = (Doc(nlp.vocab, words=texts[index].split()) for index in filled)
        disabled = list(self._rules.nlp.pipe_names[-2:]) if self._rules is not None else []
        docs = zip(filled, nlp.pipe(inputs, batch_size=self.batch_size, disable=disabled))
        if self._rules is None:
            for index, doc in docs:
                result[index] = self._sentence(doc)
        else:
            self._parse_with_rules(docs, result)
        return result

    def release(self) -> None:
        """Drop the loaded pipeline and what was learnt with it (loaded again on next use): the
        memory its vocabulary and tables gained goes back to the process."""
        import gc

        with self._lock:
            self._nlp, self._strings, self._rules, self._since_load = None, {}, None, 0
        gc.collect()

    def _parse_with_rules(self, docs: Any, result: list[ParsedSentence]) -> None:
        """Fill ``result`` from (index, Doc) pairs with the rule cache's POS, tags, dependencies
        and lemmas; the Docs with unseen tokens wait until ``batch_size`` of them have come, so
        that the ruler and the lemmatizer run once on the unseen tokens of them all."""
        from spacy.attrs import DEP, HEAD, LOWER, ORTH, SPACY, TAG

        rules, pending = self._rules, []
        for index, doc in docs:
            if len(doc) == 0:
                continue  # EMPTY_SENTENCE already
            columns = doc.to_array([ORTH, TAG, DEP, LOWER, HEAD, SPACY]).T.tolist()
            keys, found = rules.start(doc, self._text_of, columns[:3])
            if found is not None:
                result[index] = self._sentence_from(columns, found)
                continue
            pending.append((index, doc, keys, columns))
            if len(pending) == self.batch_size:
                self._complete(pending, result)
        self._complete(pending, result)

    def _complete(self, pending: list, result: list[ParsedSentence]) -> None:
        """The waiting Docs' sentences, their unseen tokens run together; empties ``pending``."""
        if not pending:
            return
        done = self._rules.complete([(doc, keys) for _, doc, keys, _ in pending], self._text_of)
        for (index, _, _, columns), found in zip(pending, done):
            result[index] = self._sentence_from(columns, found)
        pending.clear()

    def _sentence_from(self, columns: list[list[int]], rule_results: list[tuple[int, int, int, int]]
                       ) -> ParsedSentence:
        """A sentence from a Doc's ORTH, TAG, DEP, LOWER, HEAD and SPACY columns and the rule
        cache's (POS, tag, dependency, lemma) per token."""
        orth, _, _, lower, head, space = columns
        pos, tag, dep, lemma = zip(*rule_results)
        texts = self._texts
        return ParsedSentence(texts(orth), texts(lower), texts(lemma), texts(pos), texts(tag), texts(dep),
                              _heads(head), tuple(map(bool, space)))

    def _sentence(self, doc: Any) -> ParsedSentence:
        """The fields ERRANT reads, taken from the Doc's arrays in one call (no rule cache)."""
        from spacy.attrs import DEP, HEAD, LEMMA, LOWER, ORTH, POS, SPACY, TAG

        if len(doc) == 0:
            return EMPTY_SENTENCE
        orth, lower, lemma, pos, tag, dep, head, space = doc.to_array(
            [ORTH, LOWER, LEMMA, POS, TAG, DEP, HEAD, SPACY]).T.tolist()
        texts = self._texts
        return ParsedSentence(texts(orth), texts(lower), texts(lemma), texts(pos), texts(tag), texts(dep),
                              _heads(head), tuple(map(bool, space)))

    def _texts(self, keys: Sequence[int]) -> tuple[str, ...]:
        """The strings of hash keys (a dict lookup each; spaCy's string store for new ones)."""
        return tuple(map(self._strings.__getitem__, keys))

    def _text_of(self, key: int) -> str:
        return self._strings[key]

    def __getstate__(self) -> dict:
        return {"model": self.model, "batch_size": self.batch_size, "_nlp": None, "_strings": {}, "_rules": None,
                "parsed": 0, "_since_load": 0}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._lock = threading.RLock()

    def __reduce_ex__(self, protocol: Any) -> Any:
        # sent to a worker by name: there, the process's one pipeline of that name and batch size,
        # loaded there once however many tasks bring an annotator with it (a subclass: its state)
        if type(self) is SpacyModel:
            return (_process_model, (self.model, self.batch_size))
        return super().__reduce_ex__(protocol)


def shared_model(name: str | None, resources: Any = None, batch_size: int = DEFAULT_BATCH_SIZE) -> SpacyModel:
    """One loaded pipeline per model name (and batch size) in a process, whatever the number of
    metrics using it (None: the default model, :func:`model_name`; ``resources``: a run's store,
    else the process's)."""
    from ...context import loaded

    name = model_name(name)
    key = ("spacy", name) if batch_size == DEFAULT_BATCH_SIZE else ("spacy", name, batch_size)
    return loaded(key, lambda: SpacyModel(name, batch_size), resources)


def _process_model(name: str, batch_size: int) -> SpacyModel:
    """A :class:`SpacyModel` unpickled (in a worker): the process's shared one."""
    return shared_model(name, None, batch_size)
