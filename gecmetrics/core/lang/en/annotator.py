"""ERRANT's annotator: plain-text corrections (or M2 annotations) to typed M2 edits.

``Annotator.annotate(sources, [hypotheses, ...])`` does what ``errant_parallel -orig SRC -cor
HYP ...`` does, and ``Annotator.reannotate(blocks, mode)`` what ``errant_m2 -auto|-gold``
does, with ERRANT 3.0.2's behaviour (including the M2 it writes, block by block), but each
distinct line is parsed once per annotator (the source once for all systems), in batches, and
a hypothesis line equal to its source is not parsed at all. Parses and the edits of each
(source, correction) pair are kept in the persistent cache (:mod:`gecmetrics.core.cache`; the
run's, unless one is given): a line parsed by an earlier run, of any system, is read back
instead of parsed again, and a pair annotated by an earlier run is neither parsed nor aligned
(:mod:`.parsestore`, :mod:`.editstore`).

:class:`English` is the language ``en`` of :mod:`gecmetrics.core.lang`: an annotator's parse,
alignment, merging and classification behind the :class:`~gecmetrics.core.lang.base.EditLanguage`
interface (the annotator's own edits go through it), with that annotator as its annotator.
"""
from __future__ import annotations

import os
from typing import Any, Sequence

from ....errors import InputError, LineRefused
from ...checks import check_flag
from ...edits.blocks import Block, format_m2
from ..base import AlignOp, EditLanguage, SentenceError, TypedEdit, annotation_fields, option_fields
from ..edits import DETECTION_TYPES, AnnotatedEdit, checked_sets, noop_edit
from .align import AlignmentTooLarge, align
from .classify import UNKNOWN, Classifier, Side
from .editstore import edits_namespace, store_edits, stored_edits
from .merge import STRATEGIES, MergeTooLong, edit_spans
from .parse import DEFAULT_BATCH_SIZE, ParsedSentence, SpacyModel, model_name, shared_model
from .parsestore import model_namespace, parse_lines
from .wordlist import SHIPPED_SHA256, SHIPPED_WORDS, load_word_list, word_list_path, words_checksum

REANNOTATION_MODES = ("auto", "gold")
class Annotator:
    """ERRANT 3.0.2's English annotator.

    ``model``: a spaCy model name or path (or a loaded :class:`SpacyModel`); ``merge``: rules,
    all-split, all-merge or all-equal; ``lev``: plain Levenshtein alignment; ``tokenise``:
    spaCy tokenises the lines (else they are whitespace-split, as given); ``word_list``: the
    SPELL word list (a set, a path, or None for :func:`load_word_list`'s defaults); ``cache``:
    where parses are kept across runs (a :class:`~gecmetrics.core.cache.Cache`; None: the
    default folder's, ``$GECMETRICS_CACHE`` else the user cache folder, looked up on first use;
    ``Cache(enabled=False)``: none; a metric's annotator gets its run's cache).
    One process annotates; a run spreads chunks of sentences over worker processes
    (:mod:`gecmetrics.run`).
    """

    def __init__(self, model: str | SpacyModel | None = None, merge: str = "rules", lev: bool = False,
                 tokenise: bool = False, word_list: str | frozenset[str] | set[str] | None = None,
                 batch_size: int = DEFAULT_BATCH_SIZE, cache: Any = None):
        if merge not in STRATEGIES:
            raise InputError(f"unknown merging strategy {merge!r}: choose from {', '.join(STRATEGIES)}")
        self.spacy = model if isinstance(model, SpacyModel) else SpacyModel(model, batch_size)
        self.merge = merge
        self.lev = check_flag(lev, "lev")  # (bool("no") is True: a text was taken as yes)
        self.tokenise = check_flag(tokenise, "tokenise")
        if word_list is not None and not isinstance(word_list, (set, frozenset)):
            if not isinstance(word_list, (str, os.PathLike)):
                raise InputError(f"word_list must be a path, a set of words or None, got {type(word_list).__name__}")
            load_word_list(word_list)  # (a missing file is refused here, not at the first spelling edit)
        self._word_list = word_list
        self._classifier: Classifier | None = None
        self._parses: dict[tuple[str, bool], ParsedSentence] = {}
        self._cache = cache

    @property
    def cache(self) -> Any:
        """The persistent cache of parses: the one given, else the default folder's."""
        if self._cache is None:
            from ...context import run_context

            self._cache = run_context().cache
        return self._cache

    def __getstate__(self) -> dict:
        """For worker processes started with ``spawn``: settings only (each loads its own model)."""
        return {**self.__dict__, "_classifier": None, "_parses": {}, "_language": None}

    @property
    def language(self) -> "English":
        """This annotator's steps as the language ``en`` (:class:`English`)."""
        found = self.__dict__.get("_language")
        if found is None:
            found = self._language = English(self)
        return found

    @property
    def classifier(self) -> Classifier:
        if self._classifier is None:
            words = self._word_list
            if not isinstance(words, (set, frozenset)):
                words = load_word_list(words)
            self._classifier = Classifier(words)
        return self._classifier

    def versions(self) -> dict[str, str]:
        """What the numbers depend on: spaCy's version and the model's name and version."""
        return self.spacy.versions()

    def annotation_fields(self) -> list[tuple[str, str]]:
        """What a signature names of this annotator's edits, as ERRANT's signature names them
        (:func:`~gecmetrics.core.lang.base.annotation_fields`): ``spacy:V|model:M``, after its
        options that are not ERRANT's defaults and a word list of one's own, then ``cache:on``
        when its parses may come from the persistent cache."""
        return annotation_fields(self.language.signature_fields(), self.cache)

    def signature_fields(self) -> dict[str, str]:
        """Settings and versions for a signature, e.g. merge:rules|spacy:3.8.18|model:en_core_web_sm-3.8.0."""
        fields = {"merge": self.merge, "align": "lev" if self.lev else "linguistic",
                  "tok": "spacy" if self.tokenise else "given"}
        fields.update(self.versions())
        return fields

    # ------------------------------------------------------------------ parsing

    def parse(self, lines: Sequence[str], tokenise: bool | None = None) -> list[ParsedSentence]:
        """Parses of lines, each distinct line parsed once over this annotator's life (and not
        at all when the persistent cache holds it)."""
        tokenise = self.tokenise if tokenise is None else tokenise
        keys = [(self._parse_key(line, tokenise), tokenise) for line in lines]
        missing = list(dict.fromkeys(key for key in keys if key not in self._parses))
        if missing:
            parsed = parse_lines(self.spacy, [text for text, _ in missing], tokenise, self.cache)
            self._parses.update(zip(missing, parsed))
        return [self._parses[key] for key in keys]

    @staticmethod
    def _parse_key(line: str, tokenise: bool) -> str:
        return line.strip() if tokenise else " ".join(line.split())

    def forget_parses(self) -> None:
        """Drop the cached parses (they are kept so that later calls reuse them)."""
        self._parses.clear()

    # ------------------------------------------------------------------ edits

    def edits(self, orig: ParsedSentence, cor: ParsedSentence) -> list[AnnotatedEdit]:
        """Align, merge and classify: ERRANT's ``annotate`` of two parsed sentences. Sentences
        too long to align or merge within the bounds of :mod:`gecmetrics.core.lang.en.align` and
        :mod:`~gecmetrics.core.lang.en.merge` are one InputError that shows their beginnings."""
        language = self.language
        try:
            spans = language.merge(language.alignments(orig, cor)[0], orig, cor)
        except (AlignmentTooLarge, MergeTooLong) as err:
            raise LineRefused(f"source {_beginning(orig)} and correction {_beginning(cor)}: {err}") from None
        return [AnnotatedEdit(o_start, o_end, c_start, c_end, typed.type, typed.correction)
                for (_, o_start, o_end, c_start, c_end), typed in zip(spans, language.classify(spans, orig, cor))]

    def annotate(self, sources: Sequence[str], hypotheses_list: Sequence[Sequence[str]],
                 keep_empty: bool = False) -> list[Block]:
        """errant_parallel: one block per non-empty source line (every line with ``keep_empty``),
        with each hypothesis set's edits as annotator 0, 1, ...; a hypothesis equal to its
        source gets a noop line."""
        return self.annotate_sets(sources, [hypotheses_list], keep_empty)[0]

    def m2_text(self, sources: Sequence[str], hypotheses_list: Sequence[Sequence[str]]) -> str:
        """The M2 text errant_parallel writes: :meth:`annotate`'s blocks."""
        return format_m2(self.annotate(sources, hypotheses_list))

    def annotate_sets(self, sources: Sequence[str], sets: Sequence[Sequence[Sequence[str]]],
                      keep_empty: bool = False) -> list[list[Block]]:
        """:meth:`annotate` of several sets of hypotheses (e.g. each system, and the references)
        of the same sources, with each distinct line parsed once for all of them."""
        sources, sets = checked_sets(sources, sets)
        return self._annotate_all(sources, sets, keep_empty)

    def _annotate_all(self, sources: list[str], sets: list[list[list[str]]], keep_empty: bool) -> list[list[Block]]:
        """The blocks of every set: the edits of every changed (source, hypothesis) pair at once
        (:meth:`pair_edits`: each distinct pair once, stored ones read back), the sources parsed
        only for spaCy's tokens with ``tokenise``."""
        kept = [d for d, line in enumerate(sources) if keep_empty or line.strip()]
        changed = [[{d for d in kept if not self._same_text(sources[d], hyps[d])} for hyps in hypotheses_list]
                   for hypotheses_list in sets]
        if self.tokenise:
            self.parse([sources[d] for d in kept])
        pairs = list(dict.fromkeys((sources[d], hyps[d]) for hypotheses_list, per_set in zip(sets, changed)
                                   for hyps, per_hyp in zip(hypotheses_list, per_set) for d in sorted(per_hyp)))
        try:
            edits = dict(zip(pairs, self.pair_edits(pairs)))
        except LineRefused as err:  # the first place of the pair, for the caller to name its file and line
            pair = getattr(err, "pair", None)
            where = next(((d, s, h) for s, (hypotheses_list, per_set) in enumerate(zip(sets, changed))
                          for h, (hyps, per_hyp) in enumerate(zip(hypotheses_list, per_set)) for d in sorted(per_hyp)
                          if (sources[d], hyps[d]) == pair), None)
            if where is None:
                raise
            raise SentenceError(str(err), *where) from None
        return [[self._block(sources[d], [edits[sources[d], hyps[d]] if d in per_hyp else None
                                          for hyps, per_hyp in zip(hypotheses_list, per_set)]) for d in kept]
                for hypotheses_list, per_set in zip(sets, changed)]

    def _block(self, source: str, hypotheses: list[list[AnnotatedEdit] | None]) -> Block:
        """One sentence's block from each hypothesis's edits; ``None`` marks a hypothesis equal to
        the source (a noop)."""
        block = Block(" ".join(self.parse([source])[0].words) if self.tokenise else " ".join(source.split()))
        for k, edits in enumerate(hypotheses):
            if edits is None:
                block.edits.append(noop_edit(k))
            else:
                block.edits.extend(edit.to_m2(k) for edit in edits)
        return block

    def pair_edits(self, pairs: Sequence[tuple[str, str]], tokenise: bool | None = None) -> list[list[AnnotatedEdit]]:
        """ERRANT's edits (:meth:`edits`) of each (source, correction) pair of lines, each distinct
        pair once: those an earlier run stored are read from the persistent cache in one lookup
        (neither line is parsed), the lines of the others parsed in one batch, and their edits
        stored (:mod:`.editstore`)."""
        pairs = list(pairs) if isinstance(pairs, (list, tuple)) else pairs
        if not isinstance(pairs, list) or not all(isinstance(pair, (list, tuple)) and len(pair) == 2 and
                                                  all(isinstance(line, str) for line in pair) for pair in pairs):
            raise TypeError("pairs must be a list of (source, correction) pairs of str lines")
        tokenise = self.tokenise if tokenise is None else bool(tokenise)
        keys = [(self._parse_key(source, tokenise), self._parse_key(correction, tokenise))
                for source, correction in pairs]
        namespace = self.edits_namespace() if keys else None
        known = {} if namespace is None else stored_edits(self.cache, namespace, set(keys), tokenise)
        missing = list({key: pair for pair, key in zip(pairs, keys) if key not in known}.items())
        if missing:
            parsed = self.parse([source for _, (source, _) in missing] + [cor for _, (_, cor) in missing], tokenise)
            new = {}
            for (key, pair), orig, cor in zip(missing, parsed, parsed[len(missing):]):
                try:
                    new[key] = self.edits(orig, cor)
                except LineRefused as err:
                    err.pair = pair  # which lines: the caller knows where they stand
                    raise
            known.update(new)
            if namespace is not None:
                store_edits(self.cache, namespace, new, tokenise)
        return [known[key] for key in keys]

    def edits_namespace(self) -> str | None:
        """Where this annotator's edits are kept in its persistent cache (:mod:`.editstore`), or
        None: no cache, or a model not found on disk (its parses are not kept either)."""
        cache = self.cache
        if cache is None or not cache.enabled:
            return None
        if "_edits_namespace" not in self.__dict__:
            parses = model_namespace(self.spacy)
            self._edits_namespace = None if parses is None else \
                edits_namespace(parses, self.merge, self.lev, self.words_checksum() or SHIPPED_SHA256)
        return self._edits_namespace

    def words_checksum(self) -> str | None:
        """The SHA-256 of the SPELL word list's words, computed once; None for the list shipped
        with gecmetrics (its checksum is recorded: :data:`~.wordlist.SHIPPED_SHA256`)."""
        if "_words_checksum" not in self.__dict__:
            words = self._word_list
            if isinstance(words, (set, frozenset)):
                self._words_checksum = words_checksum(words)
            else:
                self._words_checksum = None if word_list_path(words) == SHIPPED_WORDS else \
                    words_checksum(self.classifier.words)
        return self._words_checksum

    def _same_text(self, source: str, hypothesis: str) -> bool:
        """ERRANT's test for a noop: the parsed source's text equals the stripped hypothesis."""
        source_text = source.strip() if self.tokenise else " ".join(source.split())
        return source_text == hypothesis.strip()

    def reannotate(self, blocks: Sequence[Block], mode: str = "auto", minimise: bool = True,
                   old_types: bool = False) -> list[Block]:
        """errant_m2: each annotator's edits re-extracted automatically (``auto``) or kept as
        spans and re-typed (``gold``; ``minimise`` trims equal tokens at the span ends,
        ``old_types`` keeps the types). Detection edits (Um, UNK) are kept in both modes."""
        from .reannotate import reannotate_blocks

        if mode not in REANNOTATION_MODES:
            raise InputError(f"reannotation mode must be 'auto' or 'gold', not {mode!r}")
        if not isinstance(blocks, (list, tuple)) or not all(isinstance(block, Block) for block in blocks):
            raise TypeError("blocks must be a list of gecmetrics.io.m2.Block")
        return reannotate_blocks(self, list(blocks), mode, minimise, old_types)

    def classify_tokens(self, orig: ParsedSentence, o_tokens: list[int], cor: ParsedSentence, c_tokens: list[int]
                        ) -> str:
        """The type of an edit given as consecutive token indices of each side (maybe empty)."""
        o_text = orig.span_text(o_tokens[0], o_tokens[-1] + 1) if o_tokens else ""
        c_text = cor.span_text(c_tokens[0], c_tokens[-1] + 1) if c_tokens else ""
        return self.classifier.classify_sides(Side(orig, list(o_tokens)), Side(cor, list(c_tokens)), o_text, c_text)


class English(EditLanguage):
    """ERRANT 3.0.2's English as an :class:`~gecmetrics.core.lang.base.EditLanguage`: the parse,
    alignment, merging and classification of an :class:`Annotator` (``annotator``, or one made
    from ``options``, its keywords), which is also its annotator (parses kept in the persistent
    cache, re-annotation of M2 files)."""

    code = "en"
    settings = ("spacy_model", "merge", "lev", "tokenise", "word_list")
    caches_parses = True
    reannotates = True

    def __init__(self, annotator: Annotator | None = None, **options: Any) -> None:
        self.errant = annotator if annotator is not None else Annotator(**options)

    @classmethod
    def from_settings(cls, code: str, spacy_model: str | None = None, merge: str = "rules", lev: bool = False,
                      tokenise: bool = False, word_list: str | None = None, context: Any = None) -> "English":
        """The settings of ``errant``: ERRANT's annotator on the pipeline of ``spacy_model`` kept in
        the run's resources, its parses in the run's cache (``context``: a
        :class:`~gecmetrics.core.context.RunContext` or a cache setting; None: the default one)."""
        from ...context import run_context

        context = run_context(context)
        return Annotator(shared_model(spacy_model, context.resources), merge, lev, tokenise, word_list,
                         cache=context.cache).language

    @classmethod
    def used_settings(cls, code: str, **settings: Any) -> dict[str, Any]:
        """The spaCy model loaded (``spacy_model``, else $GECMETRICS_SPACY_MODEL, else
        en_core_web_sm) and the word list of $GECMETRICS_ERRANT_WORDS when it is set (None: the
        shipped one)."""
        used = dict(settings)
        if "spacy_model" in used:
            used["spacy_model"] = model_name(used["spacy_model"])
        if used.get("word_list") is None and "word_list" in used and word_list_path() != SHIPPED_WORDS:
            used["word_list"] = str(word_list_path())
        return used

    def annotator(self) -> Annotator:
        return self.errant

    def prepare_source(self, text: str) -> str:
        """Stripped (spaCy's tokens, ``tokenise``), else its whitespace tokens joined by spaces."""
        return self.errant._parse_key(text, self.errant.tokenise)

    def prepare_target(self, text: str) -> str:
        """Stripped: ERRANT's noop test compares the source's text with the stripped correction."""
        return text.strip()

    def tokenise(self, texts: Sequence[str]) -> list[ParsedSentence]:
        return self.errant.parse(list(texts))

    def words(self, sentence: ParsedSentence) -> tuple[str, ...]:
        return sentence.words

    def alignments(self, orig: ParsedSentence, cor: ParsedSentence) -> list[list[AlignOp]]:
        return [align(orig, cor, self.errant.lev)]

    def merge(self, alignment: list[AlignOp], orig: ParsedSentence, cor: ParsedSentence) -> list[AlignOp]:
        return [("X", *span) for span in edit_spans(alignment, orig, cor, self.errant.merge)]

    def classify(self, edits: Sequence[AlignOp], orig: ParsedSentence, cor: ParsedSentence) -> list[TypedEdit]:
        classifier = self.errant.classifier
        return [TypedEdit(o_start, o_end, classifier.classify(orig, o_start, o_end, cor, c_start, c_end),
                          " ".join(cor.words[c_start:c_end]))
                for _, o_start, o_end, c_start, c_end in edits]

    def signature_fields(self) -> dict[str, str]:
        """The options that are not ERRANT's defaults, the SPELL word list's checksum when it is
        not the shipped one, spaCy's and the model's versions."""
        errant = self.errant
        fields = option_fields(errant.merge, errant.lev, errant.tokenise)
        checksum = errant.words_checksum()
        if checksum is not None:
            fields["words"] = checksum[:12]
        return {**fields, **errant.versions()}


def _beginning(sentence: ParsedSentence) -> str:
    """A sentence's first words and its length, to tell which one a message is about."""
    shown = " ".join(sentence.words[:6])
    return f"'{shown}{' ...' if len(sentence) > 6 else ''}' ({len(sentence):,} tokens)"


__all__ = ["Annotator", "AnnotatedEdit", "English", "noop_edit", "UNKNOWN", "DETECTION_TYPES"]
