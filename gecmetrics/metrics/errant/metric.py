"""The registered metric ``errant``: ERRANT F-beta of plain-text system outputs.

What a user otherwise gets from ``errant_parallel -orig SRC -cor HYP`` then ``errant_compare
-hyp HYP.m2 -ref REF.m2``, as one :class:`~gecmetrics.metrics.base.Metric`: ``prepare`` annotates
every hypothesis of the corpus (and, with ``annotate_refs``, the text references) with one
:class:`~gecmetrics.metrics.errant.Annotator`, so each distinct line is parsed once for all systems;
``statistics`` gives :class:`~gecmetrics.metrics.m2.compare.ErrantCompare`'s per-sentence candidate
counts, and the score, the annotator-pair choice, the paired-test resampler and the columns
are ErrantCompare's own (this class derives from it).

The numbers depend on spaCy's and the model's versions, so the signature names them:
``ERRANT|mode:cs|beta:0.5|spacy:3.8.18|model:en_core_web_sm-3.8.0|version:0.1.0``; ``cache:on``
before the version says that parses were read from (and stored in) the persistent cache (the
numbers are the same without it).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Hashable, Sequence


from ...io.corpus import Corpus

from ...io.text import check_lines
from ...errors import InputError
from ..m2.cherrant import CherrantCompare, CherrantSettings
from ..m2.compare import EditTable, ErrantCompare, ErrantResult, ErrantStatistics
from ...io.m2 import Block
from ...kinds import M2, TEXT
from ..settings import choice, flag, flag_as, parse_bool, setting, setting_label, unless

from .languages import SentenceError, language_annotator, shared_model  # noqa: F401 (shared_model: re-exported)
from ...core.lang import DEFAULT_LANGUAGE, ENGLISH, language_kind, parse_lang
from ...core.lang.en.merge import STRATEGIES
from ...core.lang.en.parse import DEFAULT_MODEL, MODEL_VARIABLE
from ...core.lang.en.wordlist import SHIPPED_WORDS, load_word_list, word_list_path, words_checksum


def _text(name: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InputError(f"{setting_label(name)} must be a non-empty name or path, got {value!r}")
    return value.strip()


def _optional_text(name: str, value: Any) -> str | None:
    if value is None or (isinstance(value, str) and value.strip().lower() in ("", "none")):
        return None
    return _text(name, value)


_text.reads_paths = _optional_text.reads_paths = True  # type: ignore[attr-defined]  # '/' is no list separator here


WORD_LEVEL_MESSAGE = ("ChERRANT's word level (-g word / --segmenter ltp) is not available: it needs LTP 4.x (pip install "
                      "ltp) and its segmentation and POS model (e.g. LTP/small, a download), with ChERRANT's word-level "
                      "costs and spelling classifier, which gecmetrics does not run; use the character level (-g char, "
                      "the default)")


def _segmenter(name: str, value: Any) -> str | None:
    if value is None or (isinstance(value, str) and value.strip().lower() in ("", "none")):
        return None
    return choice("ltp")(name, value.strip().lower() if isinstance(value, str) else value)


_segmenter.choices = ("ltp",)  # type: ignore[attr-defined]


@dataclass(frozen=True)
class ErrantTextSettings(CherrantSettings):
    """ERRANT compare's settings (ChERRANT's too, for zh), plus how the texts are annotated."""

    lang: str = setting(DEFAULT_LANGUAGE, "language of the texts: en (ERRANT's English rules), zh (ChERRANT's character "
                        "level and comparison rules), or the code of another language with a spaCy model (ERRANT's "
                        "language-independent part, see docs/languages.md)", parse_lang, ("language",),
                        signature="lang", flags=("--lang",), shown=unless(ENGLISH))
    merge: str = setting("rules", "how adjacent aligned tokens are merged into edits", choice(*STRATEGIES),
                         flags=("-merge",), signature="merge", shown=unless("rules"))
    lev: bool = setting(False, "align with plain Levenshtein costs instead of ERRANT's linguistic ones", parse_bool,
                        flags=("-lev",), signature="lev", shown=flag)
    tokenise: bool = setting(False, "tokenise the text with spaCy (else split on whitespace, as given)",
                             parse_bool, ("tok",), flags=("-tok",), signature="tok", shown=flag)
    spacy_model: str | None = setting(None, f"spaCy model name or path (default: ${MODEL_VARIABLE}, else "
                                             f"{DEFAULT_MODEL}, the model ERRANT loads; for another --lang, "
                                             "LANG_core_news_sm)", _optional_text, ("model",),
                                      flags=("--spacy-model",))
    annotate_refs: bool = setting(False, "-r names text references: annotate them as annotators 0, 1, ... (else -r "
                                  "is a gold M2 file, used as given)", parse_bool, flags=("--annotate-refs",),
                                  signature="refs", shown=flag_as("annotated"))
    word_list: str | None = setting(None, "SPELL word list, one word per line (default: $GECMETRICS_ERRANT_WORDS, "
                                          "else the SCOWL en_GB-large list shipped with gecmetrics, as ERRANT's)",
                                    _optional_text, ("words",), flags=("--word-list",))
    cherrant_data: str | None = setting(None, "zh: folder of ChERRANT's data files (default: "
                                        "$GECMETRICS_CHERRANT_DATA, else the folder `gecmetric data fetch cherrant` "
                                        "fills)", _optional_text, ("data",), flags=("--cherrant-data",))
    no_simplified: bool = setting(False, "zh: do not convert targets to simplified characters (OpenCC t2s)",
                                  parse_bool, flags=("--no-simplified",))
    alignments: str = setting("all", "zh: edits of every cheapest alignment (all, ChERRANT's -s all) or of the first",
                              choice("all", "first"), flags=("--alignments",))
    granularity: str = setting("char", "zh: char (ChERRANT -g char) or word (needs LTP: not available)",
                               choice("char", "word"), flags=("-g", "--granularity"))
    segmenter: str | None = setting(None, "zh: word segmenter of the word level (ltp: not available)", _segmenter,
                                    flags=("--segmenter",))

    def check(self) -> None:
        super().check()
        kind = language_kind(self.lang)
        if kind == "cherrant":
            if self.granularity == "word" or self.segmenter is not None:
                raise InputError(WORD_LEVEL_MESSAGE)
            english = [(flag, on) for flag, on in (("-merge", self.merge != "rules"), ("-lev", self.lev),
                                                   ("-tok", self.tokenise), ("--spacy-model", self.spacy_model),
                                                   ("--word-list", self.word_list))]
            given = [flag for flag, on in english if on]
            if given:
                raise InputError(f"{given[0]} is not a setting of --lang zh (ChERRANT's character level has its own "
                                 "tokens, costs and merging)")
            return
        chinese = [flag for flag, on in (("--cherrant-data", self.cherrant_data), ("--no-simplified", self.no_simplified),
                                         ("--alignments", self.alignments != "all"),
                                         ("-g/--granularity", self.granularity != "char"),
                                         ("--segmenter", self.segmenter), ("max_answer_num", self.max_answer_num),
                                         ("reference_num", self.reference_num)) if on]
        if chinese:
            raise InputError(f"{chinese[0]} goes with --lang zh (ChERRANT), not --lang {self.lang}")
        if kind == "generic" and self.word_list is not None:
            raise InputError(f"--word-list is ERRANT's English SPELL list: not a setting of --lang {self.lang}")

    def annotation(self) -> dict[str, Any]:
        """The keywords of :func:`~gecmetrics.metrics.errant.languages.language_annotator`."""
        return {"spacy_model": self.spacy_model, "merge": self.merge, "lev": self.lev, "tokenise": self.tokenise,
                "word_list": self.word_list, "cherrant_data": self.cherrant_data,
                "simplified": not self.no_simplified, "alignments": self.alignments}


ANNOTATION_SETTINGS = ("lang", "merge", "lev", "tokenise", "spacy_model", "annotate_refs", "word_list", "cherrant_data",
                       "no_simplified", "alignments", "granularity", "segmenter")
"""The settings of how texts are annotated (the rest are compare_m2's)."""
CHERRANT_ONLY = ("cherrant_data", "no_simplified", "alignments", "granularity", "segmenter")

class ErrantPrepared:
    """What every hypothesis shares: the annotator (spaCy pipeline, parse cache), the sources,
    the reference blocks, and the blocks of the hypotheses annotated up front."""

    def __init__(self, annotator: Any, sources: list[str], reference_blocks: list[Block],
                 annotated: Sequence[tuple[Sequence[str], list[Block]]] = ()) -> None:
        self.annotator, self.sources, self.reference_blocks = annotator, sources, reference_blocks
        self._annotated = {id(lines): (lines, blocks) for lines, blocks in annotated}
        self._tables: dict[Hashable, list[dict[int, EditTable]]] = {}

    def blocks(self, hypothesis: Sequence[str]) -> list[Block]:
        """The hypothesis's blocks, one per sentence (empty source lines included)."""
        found = self._annotated.get(id(hypothesis))
        if found is not None and found[0] is hypothesis:
            return found[1]
        lines = check_lines(hypothesis, "the hypothesis")
        if len(lines) != len(self.sources):
            raise InputError(f"the hypothesis has {len(lines)} sentences but the source has {len(self.sources)}")
        return self.annotator.annotate(self.sources, [lines], keep_empty=True)

    def reference_tables(self, comparer: ErrantCompare) -> list[dict[int, EditTable]]:
        """The reference's edit tables for one comparison setting (made once per setting)."""
        rules = comparer.comparison_rules() if isinstance(comparer, ErrantText) else comparer
        # the comparison settings the tables depend on (ERRANT's own key for ErrantText itself)
        key = ErrantCompare.sharing_key(rules) if rules is comparer else rules.sharing_key()
        if key not in self._tables:
            self._tables[key] = [rules.edit_tables(block) for block in self.reference_blocks]
        return self._tables[key]


class ErrantText(ErrantCompare):
    """ERRANT F-beta of plain-text outputs: annotated as errant_parallel, compared as compare_m2;
    in another language (``lang``), annotated by that language's annotator
    (:func:`~gecmetrics.metrics.errant.languages.language_annotator`), and for zh compared by
    ChERRANT's rules (:class:`~gecmetrics.metrics.m2.cherrant.CherrantCompare`)."""

    name = "errant"
    settings_class = ErrantTextSettings
    hypothesis_kind = TEXT
    chunk_lines = 250  # parsing is slow: progress moves every few seconds, -p N workers share the lines

    def __init__(self, *args: Any, verbose: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, verbose=verbose, **kwargs)
        self._rules: ErrantCompare | None = None

    @property
    def reference_kind(self) -> str:  # type: ignore[override]
        """Gold M2 blocks, or text references with ``annotate_refs``."""
        return TEXT if self.settings.annotate_refs else M2

    @property
    def m2_target_lines(self) -> bool:  # type: ignore[override]
        """zh reads ChERRANT's M2 (its ``T`` lines)."""
        return language_kind(self.settings.lang) == "cherrant"

    @property
    def label(self) -> str:  # type: ignore[override]
        return "ChERRANT" if self.m2_target_lines else "ERRANT"

    def comparison_rules(self) -> ErrantCompare:
        """The comparison of the language: ERRANT's (this metric itself), or for zh a
        :class:`CherrantCompare` with this metric's comparison settings."""
        if not self.m2_target_lines:
            return self
        if self._rules is None:
            s = self.settings
            self._rules = CherrantCompare(mode=s.mode, beta=s.beta, single=s.single, multi=s.multi,
                                          filter_types=s.filter_types, sentence_average=s.sentence_average,
                                          max_answer_num=s.max_answer_num, reference_num=s.reference_num,
                                          verbose=self.verbose)
        return self._rules

    def edit_tables(self, block: Block) -> dict[int, EditTable]:
        rules = self.comparison_rules()
        return super().edit_tables(block) if rules is self else rules.edit_tables(block)

    def _sentences(self, reference: list[dict[int, EditTable]], hyp_blocks: Sequence[Block], name: str,
                   ref_name: str = "the reference") -> list:
        rules = self.comparison_rules()
        if rules is self:
            return super()._sentences(reference, hyp_blocks, name, ref_name)
        return rules._sentences(reference, hyp_blocks, name, ref_name)

    def sharing_key(self) -> Hashable:
        s = self.settings
        return ("errant-text", s.lang, s.merge, s.lev, s.tokenise, s.spacy_model, s.annotate_refs, s.word_list,
                s.cherrant_data, s.no_simplified, s.alignments)

    def annotator(self) -> Any:
        """The annotator of the language (ERRANT's for en), in this metric's run context (its
        cache keeps the parses)."""
        return language_annotator(self.settings.lang, **self.settings.annotation(), context=self.run_context)

    def prepare(self, corpus: Corpus, group: Sequence[Any] = ()) -> ErrantPrepared:
        """Annotate every text hypothesis of the corpus (and the references with
        ``annotate_refs``) in one pass; the reference blocks are the gold M2 otherwise."""
        annotator = self.annotator()
        hypotheses = [lines for lines in corpus.hypotheses.values() if lines and isinstance(lines[0], str)]
        sets = [[lines] for lines in hypotheses]
        if self.settings.annotate_refs:
            if not corpus.references:
                raise InputError("annotate_refs needs text references")
            sets.append(list(corpus.references))
        elif corpus.gold is None:
            raise InputError("ERRANT needs reference M2 annotations (or text references with annotate_refs)")
        try:
            blocks = annotator.annotate_sets(corpus.sources, sets, keep_empty=True)
        except SentenceError as err:  # name the file and line of the sentence
            names = list(corpus.hypotheses)
            if err.set_index is None:
                where = corpus.name("source").removeprefix("the source ")  # the file, if there is one
            elif err.set_index < len(hypotheses):
                where = next(name for name in names if corpus.hypotheses[name] is hypotheses[err.set_index])
            else:
                where = corpus.name(f"reference {err.hypothesis}")
            raise InputError(str(err), where, corpus.offset + err.sentence + 1) from None
        references = blocks.pop() if self.settings.annotate_refs else list(corpus.gold)
        return ErrantPrepared(annotator, list(corpus.sources), references, list(zip(hypotheses, blocks)))

    def statistics(self, prepared: ErrantPrepared, hypothesis: Sequence[str],
                   name: str = "hypothesis") -> ErrantStatistics:
        """Per sentence and annotator pair: ErrantCompare's statistics of the annotated lines."""
        if not isinstance(prepared, ErrantPrepared):
            raise TypeError(f"expected {type(self).__name__}.prepare()'s result, got {type(prepared).__name__}")
        return super().statistics(prepared.reference_tables(self), prepared.blocks(hypothesis), name)

    def compare_text(self, prepared: ErrantPrepared, hypothesis: Sequence[str],
                     name: str = "hypothesis") -> ErrantResult:
        """The full comparison (categories, and traces with ``verbose``) of one hypothesis."""
        return self.score(self.statistics(prepared, hypothesis, name))

    def versions(self) -> dict[str, str]:
        """What the edits depend on: spaCy's version and the model's (loads the model); for
        zh the data files and pypinyin's and OpenCC's versions."""
        if self.settings.lang == ENGLISH:
            return shared_model(self.settings.spacy_model, self.run_context.resources).versions()
        return _annotator_fields(self.settings)

    def signature_extra(self, references: int | None) -> list[tuple[str, str] | str]:
        """What the edits depend on beside the settings: English's SPELL word list (by its
        checksum, when not the shipped one), spaCy's and the model's versions (the data and
        libraries of another language), and ``cache:on`` when English parses may come from the
        cache. (Annotated references are signed ``refs:annotated``, not counted.)"""
        s = self.settings
        fields: list[tuple[str, str] | str] = []
        cached: list[tuple[str, str]] = []
        if s.lang == ENGLISH:  # other languages' tokenisations are not kept in the cache
            path = word_list_path(s.word_list)
            if path != SHIPPED_WORDS:
                fields.append(("words", words_checksum(load_word_list(path))[:12]))
            cached = self.run_context.signature_fields()
        return fields + list(self.versions().items()) + cached

    def settings_dict(self) -> dict:
        s = self.settings
        extra = {"lang": s.lang}
        if language_kind(s.lang) == "cherrant":
            extra.update({"cherrant_data": s.cherrant_data, "no_simplified": s.no_simplified,
                          "alignments": s.alignments, "max_answer_num": s.max_answer_num,
                          "reference_num": s.reference_num})
        return {**super().settings_dict(), "merge": s.merge, "lev": s.lev, "tokenise": s.tokenise,
                "spacy_model": s.spacy_model, "annotate_refs": s.annotate_refs, "word_list": s.word_list,
                **extra, **self.versions()}


def _annotator_fields(settings: ErrantTextSettings) -> dict[str, str]:
    """The signature fields of a non-English annotator (data and versions; once per process)."""
    return dict(_language_fields(settings.lang, tuple(sorted(settings.annotation().items()))))


@lru_cache(maxsize=64)
def _language_fields(lang: str, annotation: tuple) -> tuple[tuple[str, str], ...]:
    fields = language_annotator(lang, **dict(annotation), context=False).versions()  # no cache: versions only
    return tuple((k, v) for k, v in fields.items() if k not in ("merge", "lev", "tok"))  # signed above


@dataclass(frozen=True)
class AnnotationJob:
    """``m2 annotate`` of one chunk (picklable, for the run engine's workers): M2 blocks of the
    chunk's hypotheses against its sources (errant_parallel; in another language, that language's
    annotator), or of its gold blocks re-annotated (``reannotate``: 'auto' or 'gold', as
    errant_m2; English only). For zh the result is the M2 text ChERRANT's ``parallel_to_m2.py
    -g char`` writes (its ``T`` lines included), byte for byte."""

    spacy_model: str | None = None
    merge: str = "rules"
    lev: bool = False
    tokenise: bool = False
    word_list: str | None = None
    reannotate: str | None = None
    minimise: bool = True
    old_types: bool = False
    hypotheses: tuple[str, ...] = ()
    """The hypotheses annotated as annotators 0, 1, ... (names in the chunk; a name may repeat)."""
    lang: str = DEFAULT_LANGUAGE
    cherrant_data: str | None = None
    no_simplified: bool = False
    alignments: str = "all"
    granularity: str = "char"
    segmenter: str | None = None
    cache: Any = None
    """The run's cache (:func:`~gecmetrics.core.context.run_context`: None for the default folder,
    False for none, a folder, a ``Cache`` or a ``RunContext``): where ERRANT's parses are kept."""

    def __post_init__(self) -> None:
        settings = self.settings()  # checks the settings together
        if self.reannotate is not None and settings.lang != ENGLISH:
            raise InputError(f"--from-m2 (errant_m2) re-annotates with ERRANT's English rules: not with --lang "
                             f"{settings.lang}")

    def settings(self) -> ErrantTextSettings:
        return ErrantTextSettings(**{name: getattr(self, name) for name in ANNOTATION_SETTINGS if name != "annotate_refs"})

    def annotator(self) -> Any:
        return language_annotator(self.settings().lang, **self.settings().annotation(), context=self.cache)

    def __call__(self, corpus: Corpus) -> list[Block] | str:
        settings = self.settings()
        if language_kind(settings.lang) == "cherrant":
            from ...core.lang.zh.annotate import CharAnnotator

            annotator = CharAnnotator(settings.cherrant_data, settings.alignments, not settings.no_simplified)
            return annotator.to_m2((source, [corpus.hypotheses[name][d] for name in self.hypotheses])
                                   for d, source in enumerate(corpus.sources))
        annotator = self.annotator()
        if self.reannotate is not None:
            return annotator.reannotate(corpus.gold, self.reannotate, self.minimise, self.old_types)
        return annotator.annotate(corpus.sources, [corpus.hypotheses[name] for name in self.hypotheses])
