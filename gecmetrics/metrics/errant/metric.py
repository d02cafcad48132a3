"""The registered metric ``errant``: ERRANT F-beta of plain-text system outputs.

What a user otherwise gets from ``errant_parallel -orig SRC -cor HYP`` then ``errant_compare
-hyp HYP.m2 -ref REF.m2``, as one :class:`~gecmetrics.metrics.base.Metric`: ``prepare`` annotates
every hypothesis of the corpus (and, with ``annotate_refs``, the text references) with one
:class:`~gecmetrics.metrics.errant.Annotator`, so each distinct line is parsed once for all systems;
``statistics`` gives ERRANT's ``compare_m2`` per-sentence candidate counts, and the score, the
annotator-pair choice, the paired-test resampler and the columns are those of the edit-comparison
base (:class:`~gecmetrics.metrics.edit_comparison.EditComparisonMetric`, which ``errant-m2``
derives from too).

The numbers depend on spaCy's and the model's versions, so the signature names them:
``ERRANT|mode:cs|beta:0.5|spacy:3.8.18|model:en_core_web_sm-3.8.0|version:0.1.0``; ``cache:on``
before the version says that parses were read from (and stored in) the persistent cache (the
numbers are the same without it).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Hashable, Sequence

from ...core.edits.compare import EditComparison, EditTable, ErrantStatistics
from ...core.lang import (DEFAULT_LANGUAGE, fallback_language, known_languages, language_annotator, language_class,
                          make_language, parse_lang)
from ...core.lang.base import SentenceError, annotation_fields
from ...core.lang.en.merge import STRATEGIES
from ...core.lang.en.parse import DEFAULT_MODEL, MODEL_VARIABLE, shared_model  # noqa: F401 (shared_model: re-exported)
from ...core.lang.zh.language import WORD_LEVEL_MESSAGE  # noqa: F401 (re-exported)
from ...errors import InputError, LineRefused, plural
from ...io.corpus import Corpus
from ...io.m2 import FIELD_SEPARATOR, Block
from ...core.lines import check_lines
from ...io.text import EMPTY_PATH
from ...kinds import M2, TEXT
from ..base import checked_corpus
from ..edit_comparison import CherrantSettings, EditComparisonMetric, ErrantResult, comparison_from
from ..settings import choice, flag, flag_as, parse_bool, setting, setting_label, unless


def _text(name: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InputError(f"{setting_label(name)} must be a non-empty name or path, got {value!r}")
    return value.strip()


def _optional_text(name: str, value: Any) -> str | None:
    if value is None or (isinstance(value, str) and value.strip().lower() in ("", "none")):
        return None
    return _text(name, value)


def _optional_path(name: str, value: Any) -> str | None:
    """A file or folder, or None (not given, or ``none``: the default); an empty text (an unset
    shell variable, ``--word-list ""``) is refused as every path flag refuses it, not taken for
    the default."""
    if isinstance(value, str) and not value.strip():
        raise InputError(f"{setting_label(name)}: {EMPTY_PATH}, or none for the default")
    return _optional_text(name, value)


_text.reads_paths = _optional_text.reads_paths = _optional_path.reads_paths = True  # type: ignore[attr-defined]
# ('/' is no list separator in them)


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
                        signature="lang", flags=("--lang",), shown=unless(DEFAULT_LANGUAGE))
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
                                    _optional_path, ("words",), flags=("--word-list",))
    cherrant_data: str | None = setting(None, "zh: folder of ChERRANT's data files (default: "
                                        "$GECMETRICS_CHERRANT_DATA, else the folder `gecmetric data fetch cherrant` "
                                        "fills)", _optional_path, ("data",), flags=("--cherrant-data",))
    no_simplified: bool = setting(False, "zh: do not convert targets to simplified characters (OpenCC t2s)",
                                  parse_bool, flags=("--no-simplified",))
    alignments: str = setting("all", "zh: edits of every cheapest alignment (all, ChERRANT's -s all) or of the first",
                              choice("all", "first"), flags=("--alignments",))
    granularity: str = setting("char", "zh: char (ChERRANT -g char) or word (needs LTP: not available)",
                               choice("char", "word"), flags=("-g", "--granularity"))
    segmenter: str | None = setting(None, "zh: word segmenter of the word level (ltp: not available)", _segmenter,
                                    flags=("--segmenter",))

    def check(self) -> None:
        """Every language setting given (not its default) must be one the language reads, or a
        field of its comparison rules (ChERRANT's ``max_answer_num``); then the language's own
        checks (zh refuses the word level)."""
        super().check()
        language = language_class(self.lang)
        accepted = set(language.settings) | _fields(language.comparison)
        defaults = {f.name: f.default for f in dataclasses.fields(self)}
        for name in LANGUAGE_SETTINGS:
            if name not in accepted and getattr(self, name) != defaults[name]:
                raise InputError(f"{_flag(name)} is not a setting of --lang {self.lang}{_owners(name)}")
        language.check_settings(**self.annotation())

    def language(self) -> type:
        """The language of ``lang`` (:func:`gecmetrics.core.lang.language_class`)."""
        return language_class(self.lang)

    def annotation(self) -> dict[str, Any]:
        """The settings the language reads: the keywords of
        :func:`~gecmetrics.core.lang.language_annotator`."""
        return {name: getattr(self, name) for name in language_class(self.lang).settings}


ANNOTATION_SETTINGS = ("lang", "merge", "lev", "tokenise", "spacy_model", "annotate_refs", "word_list", "cherrant_data",
                       "no_simplified", "alignments", "granularity", "segmenter")
"""The settings of how texts are annotated (the rest are compare_m2's)."""
LANGUAGE_SETTINGS = ("merge", "lev", "tokenise", "spacy_model", "word_list", "cherrant_data", "no_simplified",
                     "alignments", "granularity", "segmenter", "max_answer_num", "reference_num")
"""The settings some languages read and others do not (annotation, and ChERRANT's comparison)."""


def _fields(comparison: type) -> set[str]:
    return {f.name for f in dataclasses.fields(comparison)}


def _flag(name: str) -> str:
    flags = ErrantTextSettings.infos()[name].flags
    return flags[0] if flags else name


def _owners(name: str) -> str:
    """Which languages read a setting, for a message: `` (it goes with --lang zh)``."""
    owners = [f"--lang {code}" for code, language in sorted(known_languages().items())
              if name in language.settings or name in _fields(language.comparison)]
    if name in fallback_language().settings:
        owners.append("a language of the generic annotator")
    return f" (it goes with {' or '.join(owners)})" if owners else ""


def read_back(blocks: list[Block]) -> list[Block]:
    """The blocks as compare_m2 reads them back from the M2 file errant_parallel writes: it splits
    each edit line on ``|||``, so a correction ending in ``|`` (a token ``|``, ``a|``) or holding
    ``|||`` is read short (``x |`` is written ``x ||||REQUIRED`` and read ``x `` with one token).
    Only edits with a ``|`` in their correction change."""
    if not any("|" in edit.correction for block in blocks for edit in block.edits):
        return blocks
    out = []
    for block in blocks:
        if any("|" in edit.correction for edit in block.edits):
            edits = [dataclasses.replace(edit, correction=edit.to_line()[2:].split(FIELD_SEPARATOR)[2])
                     if "|" in edit.correction else edit for edit in block.edits]
            block = Block(block.source, edits, block.line)
        out.append(block)
    return out


def _check_gold_tokens(corpus: Corpus, annotated: Sequence[Block], tokenise: bool) -> None:
    """The gold M2's sentences must be the tokens the hypotheses were annotated in (``tokenise``:
    spaCy's, as ``errant_parallel -tok`` writes them; else the line's words): the edits' spans
    count those tokens. The corpus takes a gold whose tokens join to the line's characters
    either way; a gold of the other kind compared spans of different tokens, a wrong number."""
    for k, (gold, block) in enumerate(zip(corpus.gold, annotated)):
        if gold.source.split() != block.source.split():
            how = ("spaCy's tokens of the source, as errant_parallel -tok writes them" if tokenise else
                   "the source's words as given (with -tok: spaCy's tokens)")
            raise InputError(f"the source of sentence {corpus.offset + k + 1} is not {how}: "
                             f"{gold.source[:60]!r} for {block.source[:60]!r}", corpus.name("gold"), gold.line or None)


class ErrantPrepared:
    """What every hypothesis shares: the annotator (spaCy pipeline, parse cache), the sources,
    the reference blocks, and the blocks of the hypotheses annotated up front. With
    ``read_back`` (ERRANT's comparison), annotated edits are compared as compare_m2 would read
    them from errant_parallel's M2 file (:func:`read_back`)."""

    def __init__(self, annotator: Any, sources: list[str], reference_blocks: list[Block],
                 annotated: Sequence[tuple[Sequence[str], list[Block]]] = (), read_back: bool = False,
                 gold_name: str = "the gold M2") -> None:
        self.annotator, self.sources, self.reference_blocks = annotator, sources, reference_blocks
        self.read_back, self.gold_name = read_back, gold_name
        self._annotated = {id(lines): (lines, self._read(blocks)) for lines, blocks in annotated}
        self._tables: dict[Hashable, list[dict[int, EditTable]]] = {}

    def _read(self, blocks: list[Block]) -> list[Block]:
        return read_back(blocks) if self.read_back else blocks

    def blocks(self, hypothesis: Sequence[str]) -> list[Block]:
        """The hypothesis's blocks, one per sentence (empty source lines included)."""
        found = self._annotated.get(id(hypothesis))
        if found is not None and found[0] is hypothesis:
            return found[1]
        lines = check_lines(hypothesis, "the hypothesis")
        if len(lines) != len(self.sources):
            raise InputError(f"the hypothesis has {plural(len(lines), 'sentence')} "
                             f"but the source has {len(self.sources)}")
        return self._read(self.annotator.annotate(self.sources, [lines], keep_empty=True))

    def reference_tables(self, comparison: EditComparison) -> list[dict[int, EditTable]]:
        """The reference's edit tables under one comparison's rules (made once per setting the
        tables depend on)."""
        key = comparison.sharing_key()
        if key not in self._tables:
            self._tables[key] = [comparison.edit_tables(block) for block in self.reference_blocks]
        return self._tables[key]


class ErrantText(EditComparisonMetric):
    """ERRANT F-beta of plain-text outputs: annotated as errant_parallel, compared as compare_m2;
    in another language (``lang``), annotated by that language's annotator
    (:func:`~gecmetrics.core.lang.language_annotator`), and for zh compared by
    ChERRANT's rules (:class:`~gecmetrics.core.edits.cherrant.CherrantComparison`)."""

    name = "errant"
    settings_class = ErrantTextSettings
    hypothesis_kind = TEXT
    chunk_lines = 250  # parsing is slow: progress moves every few seconds, -p N workers share the lines

    @property
    def reference_kind(self) -> str:  # type: ignore[override]
        """Gold M2 blocks, or text references with ``annotate_refs``."""
        return TEXT if self.settings.annotate_refs else M2

    @property
    def m2_target_lines(self) -> bool:  # type: ignore[override]
        """Whether the language's M2 has target lines (zh: ChERRANT's ``T`` lines)."""
        return self.settings.language().m2_target_lines

    @property
    def label(self) -> str:  # type: ignore[override]
        """The tool of the language's comparison rules (``ERRANT``, ``ChERRANT``)."""
        return self.settings.language().comparison.label

    def make_comparison(self) -> EditComparison:
        """The comparison rules of the language (ChERRANT's for zh) with this metric's settings."""
        return comparison_from(self.settings, self.settings.language().comparison)

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
        corpus = checked_corpus(corpus, self.display_name)
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
                where = corpus.source_file()
            elif err.set_index < len(hypotheses):
                where = next(name for name in names if corpus.hypotheses[name] is hypotheses[err.set_index])
            else:
                where = corpus.name(f"reference {err.hypothesis}")
            raise LineRefused(str(err), where, corpus.offset + err.sentence + 1) from None
        if not self.settings.annotate_refs and blocks:
            _check_gold_tokens(corpus, blocks[0], self.settings.tokenise)
        # text references are annotated as the hypotheses are, so read back as they are; gold M2 was read
        read = self.settings.language().comparison.reads_back_m2
        references = (read_back(blocks.pop()) if read else blocks.pop()) if self.settings.annotate_refs \
            else list(corpus.gold)
        return ErrantPrepared(annotator, list(corpus.sources), references, list(zip(hypotheses, blocks)), read,
                              corpus.name("gold"))

    def statistics(self, prepared: ErrantPrepared, hypothesis: Sequence[str],
                   name: str = "hypothesis") -> ErrantStatistics:
        """Per sentence and annotator pair: ErrantCompare's statistics of the annotated lines."""
        self.check_prepared_kind(prepared, ErrantPrepared)
        return super().statistics(prepared.reference_tables(self.comparison()), prepared.blocks(hypothesis), name)

    def gold_tables(self, prepared: ErrantPrepared) -> tuple[Sequence[Any], str, bool] | None:
        """The gold M2's tables, its name and True: the hypotheses are typed by the language's
        annotator (None with ``annotate_refs``: the references are annotated here too)."""
        self.check_prepared_kind(prepared, ErrantPrepared)
        if self.settings.annotate_refs:
            return None
        return prepared.reference_tables(self.comparison()), prepared.gold_name, True

    def compare_text(self, prepared: ErrantPrepared, hypothesis: Sequence[str],
                     name: str = "hypothesis") -> ErrantResult:
        """The full comparison (categories, and traces with ``verbose``) of one hypothesis."""
        return self.score(self.statistics(prepared, hypothesis, name))

    def versions(self) -> dict[str, str]:
        """What the edits depend on beyond the settings signed here: the language's signature
        fields (en: a SPELL word list of one's own, spaCy's and the model's versions; zh: the
        data files, pypinyin's and OpenCC's versions)."""
        return _language_fields(self.settings)

    def signature_extra(self, references: int | None) -> list[tuple[str, str] | str]:
        """What the edits depend on beside the settings: the language's signature fields
        (:meth:`versions`: English's SPELL word list by its checksum when not the shipped one,
        spaCy's and the model's versions; the data and libraries of another language), and
        ``cache:on`` when the language's parses may come from the cache. (Annotated references
        are signed ``refs:annotated``, not counted.)"""
        cache = self.run_context.cache if self.settings.language().caches_parses else None
        return annotation_fields(self.versions(), cache)

    def settings_dict(self) -> dict:
        s = self.settings
        common = {"merge": s.merge, "lev": s.lev, "tokenise": s.tokenise, "spacy_model": s.spacy_model,
                  "annotate_refs": s.annotate_refs, "word_list": s.word_list, "lang": s.lang}
        language = s.language()
        own = [name for name in LANGUAGE_SETTINGS if name not in common
               and (name in language.settings or name in _fields(language.comparison))]
        given = {**common, **{name: getattr(s, name) for name in own}}
        return {**super().settings_dict(), **language.used_settings(s.lang, **given), **self.versions()}


def _language_fields(settings: ErrantTextSettings) -> dict[str, str]:
    """The language's signature fields but those the metric signs itself (merge, lev, tok);
    once per process and settings as used (a model or data of an environment variable named:
    the memo follows it; a bounded memo of values, no cache: versions only)."""
    used = settings.language().used_settings(settings.lang, **settings.annotation())
    return dict(_fields_of(settings.lang, tuple(sorted(used.items()))))


@lru_cache(maxsize=64)
def _fields_of(lang: str, annotation: tuple) -> tuple[tuple[str, str], ...]:
    fields = make_language(lang, **dict(annotation), context=False).signature_fields()
    return tuple((k, v) for k, v in fields.items() if k not in ("merge", "lev", "tok"))  # signed above


@dataclass(frozen=True)
class AnnotationJob:
    """``m2 annotate`` of one chunk (picklable, for the run engine's workers): M2 blocks of the
    chunk's hypotheses against its sources (errant_parallel; in another language, that language's
    annotator), or of its gold blocks re-annotated (``reannotate``: 'auto' or 'gold', as
    errant_m2; languages that re-annotate only). For a language whose tool's M2 has target lines
    the result is that M2 text: for zh what ChERRANT's ``parallel_to_m2.py -g char`` writes (its
    ``T`` lines included), byte for byte."""

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
        if self.reannotate is not None and not settings.language().reannotates:
            raise InputError(f"--from-m2 (errant_m2) re-annotates with ERRANT's English rules: not with --lang "
                             f"{settings.lang}")

    def settings(self) -> ErrantTextSettings:
        return ErrantTextSettings(**{name: getattr(self, name) for name in ANNOTATION_SETTINGS if name != "annotate_refs"})

    def annotator(self) -> Any:
        return language_annotator(self.settings().lang, **self.settings().annotation(), context=self.cache)

    def files_read(self) -> list[str]:
        """What annotating reads beside the texts, which no output may replace: English's SPELL
        word list, ChERRANT's data files (where the settings, the environment or the defaults
        put them)."""
        lang = self.settings().lang
        if lang == "en":
            from ...core.lang.en.modelid import model_folder
            from ...core.lang.en.parse import model_name
            from ...core.lang.en.wordlist import word_list_path

            folder = model_folder(model_name(self.spacy_model))  # (read, never written into: named or a folder)
            return [str(word_list_path(self.word_list)), *([str(folder)] if folder is not None else [])]
        if lang == "zh":
            from ...core.lang.zh.data import char_level_paths

            return [str(path) for path in char_level_paths(self.cherrant_data)]
        return []

    def __call__(self, corpus: Corpus) -> list[Block] | str:
        annotator = self.annotator()
        if self.reannotate is not None:
            return annotator.reannotate(corpus.gold, self.reannotate, self.minimise, self.old_types)
        hypotheses = [corpus.hypotheses[name] for name in self.hypotheses]
        try:
            if self.settings().language().m2_target_lines:  # its tool's M2 has lines the blocks do not keep
                return annotator.m2_text(corpus.sources, hypotheses)
            blocks = annotator.annotate(corpus.sources, hypotheses)
        except SentenceError as err:  # name the file and line of the sentence
            where = corpus.source_file() if err.set_index is None else \
                self.hypotheses[err.hypothesis]
            raise LineRefused(str(err), where, corpus.offset + err.sentence + 1) from None
        lines = [d for d, line in enumerate(corpus.sources) if line.strip()]  # a blank source line has no block
        for k, block in enumerate(blocks):  # errant_parallel writes such an edit as 7 fields no reader splits back
            for edit in block.edits:
                if FIELD_SEPARATOR in edit.correction:
                    raise LineRefused(f"the correction {edit.correction!r} holds {FIELD_SEPARATOR!r}, the M2 field "
                                      f"separator: its edit line could not be read back",
                                      self.hypotheses[edit.annotator], corpus.offset + lines[k] + 1)
        return blocks
