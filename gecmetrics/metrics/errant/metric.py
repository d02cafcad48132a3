"""The registered metric ``errant``: ERRANT F-beta of plain-text system outputs.

What a user otherwise gets from ``errant_parallel -orig SRC -cor HYP`` then ``errant_compare
-hyp HYP.m2 -ref REF.m2``, as one :class:`~gecmetrics.metrics.protocol.Metric`: ``prepare`` annotates
every hypothesis of the corpus (and, with ``annotate_refs``, the text references) with one
:class:`~gecmetrics.metrics.errant.Annotator`, so each distinct line is parsed once for all systems;
``statistics`` gives :class:`~gecmetrics.metrics.m2.compare.ErrantCompare`'s per-sentence candidate
counts, and the score, the annotator-pair choice, the paired-test resampler and the columns
are ErrantCompare's own (this class derives from it).

The numbers depend on spaCy's and the model's versions, so the signature names them:
``ERRANT|mode:cs|beta:0.5|spacy:3.8.18|model:en_core_web_sm-3.8.0|version:0.1.0``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Hashable, Sequence

import numpy as np

from ...io.corpus import Corpus

from ...io.text import check_lines
from ...errors import InputError
from ...core import fscore
from ..m2.compare import CategoryCounts, EditTable, ErrantCompare, ErrantResult, ErrantSettings, SentenceTrace
from ...io.m2 import Block
from ..protocol import M2, TEXT, bounded_int, choice, parse_bool, setting
from .annotator import Annotator
from ...core.lang.en.merge import STRATEGIES
from ...core.lang.en.parse import DEFAULT_BATCH_SIZE, DEFAULT_MODEL, SpacyModel
from ...core.lang.en.wordlist import SHIPPED_WORDS, load_word_list, word_list_path, words_checksum


def _text(name: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InputError(f"setting {name} must be a non-empty name or path, got {value!r}")
    return value.strip()


def _optional_text(name: str, value: Any) -> str | None:
    if value is None or (isinstance(value, str) and value.strip().lower() in ("", "none")):
        return None
    return _text(name, value)


_text.reads_paths = _optional_text.reads_paths = True  # type: ignore[attr-defined]  # '/' is no list separator here


MAX_PROCESSES = 1024
"""Upper bound of the annotation worker processes (each loads its own spaCy model, 300 MB)."""


@dataclass(frozen=True)
class ErrantTextSettings(ErrantSettings):
    """ERRANT compare's settings, plus how the texts are annotated."""

    merge: str = setting("rules", "merging strategy: rules, all-split, all-merge or all-equal", choice(*STRATEGIES))
    lev: bool = setting(False, "plain Levenshtein alignment instead of ERRANT's linguistic costs", parse_bool)
    tokenise: bool = setting(False, "spaCy tokenises the lines (else they are split on whitespace, as given)",
                             parse_bool, ("tok",))
    spacy_model: str = setting(DEFAULT_MODEL, "spaCy model name or path (ERRANT: en_core_web_sm)", _text, ("model",))
    annotate_refs: bool = setting(False, "annotate the text references (else the gold M2 is used as given)",
                                  parse_bool)
    word_list: str | None = setting(None, "SPELL word list file (default: $GECMETRICS_ERRANT_WORDS, else the "
                                          "shipped one)", _optional_text, ("words",))
    processes: int = setting(1, "annotation worker processes, 0 = one per core (numbers do not change; at "
                             "most 1024)",
                             bounded_int(0, MAX_PROCESSES, "gecmetrics.metrics.errant.metric.MAX_PROCESSES"),
                             ("p",))


_MODELS: dict[str, SpacyModel] = {}


def shared_model(name: str) -> SpacyModel:
    """One loaded pipeline per model name in a process, whatever the number of metrics using it."""
    if name not in _MODELS:
        _MODELS[name] = SpacyModel(name, DEFAULT_BATCH_SIZE)
    return _MODELS[name]


class ErrantPrepared:
    """What every hypothesis shares: the annotator (spaCy pipeline, parse cache), the sources,
    the reference blocks, and the blocks of the hypotheses annotated up front."""

    def __init__(self, annotator: Annotator, sources: list[str], reference_blocks: list[Block],
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
        key = ErrantCompare.sharing_key(comparer)  # the comparison settings the tables depend on
        if key not in self._tables:
            self._tables[key] = [comparer.edit_tables(block) for block in self.reference_blocks]
        return self._tables[key]


class ErrantText(ErrantCompare):
    """ERRANT F-beta of plain-text outputs: annotated as errant_parallel, compared as compare_m2."""

    name = "errant"
    settings_class = ErrantTextSettings
    hypothesis_kind = TEXT

    @property
    def reference_kind(self) -> str:  # type: ignore[override]
        """Gold M2 blocks, or text references with ``annotate_refs``."""
        return TEXT if self.settings.annotate_refs else M2

    def sharing_key(self) -> Hashable:
        s = self.settings
        return ("errant-text", s.merge, s.lev, s.tokenise, s.spacy_model, s.annotate_refs, s.word_list)

    def annotator(self) -> Annotator:
        s = self.settings
        return Annotator(shared_model(s.spacy_model), s.merge, s.lev, s.tokenise, s.word_list, s.processes)

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
        blocks = annotator.annotate_sets(corpus.sources, sets, keep_empty=True)
        references = blocks.pop() if self.settings.annotate_refs else list(corpus.gold)
        return ErrantPrepared(annotator, list(corpus.sources), references, list(zip(hypotheses, blocks)))

    def statistics(self, prepared: ErrantPrepared, hypothesis: Sequence[str],
                   name: str = "hypothesis") -> np.ndarray:
        """Per sentence and annotator pair: (TP, FP, FN, ...) as ErrantCompare's, shape (D, P, 5)."""
        if not isinstance(prepared, ErrantPrepared):
            raise TypeError(f"expected {type(self).__name__}.prepare()'s result, got {type(prepared).__name__}")
        return super().statistics(prepared.reference_tables(self), prepared.blocks(hypothesis), name)

    def compare_text(self, prepared: ErrantPrepared, hypothesis: Sequence[str],
                     name: str = "hypothesis") -> ErrantResult:
        """The full comparison (categories, and traces with ``verbose``) of one hypothesis."""
        return self.compare(prepared.blocks(hypothesis), prepared.reference_blocks, name)

    def running(self, name: str = "hypothesis") -> "RunningComparison":
        """:meth:`compare_text` of one hypothesis over a corpus prepared chunk by chunk."""
        return RunningComparison(self, name)

    def versions(self) -> dict[str, str]:
        """spaCy's version and the model's (loads the model)."""
        return shared_model(self.settings.spacy_model).versions()

    def signature_fields(self, references: int | None) -> tuple[str, list]:
        name, fields = super().signature_fields(references)
        s = self.settings
        fields += [("merge", s.merge)] if s.merge != "rules" else []
        fields += [flag for flag, on in (("lev", s.lev), ("tok", s.tokenise)) if on]
        fields += [("refs", "annotated")] if s.annotate_refs else []
        path = word_list_path(s.word_list)
        if path != SHIPPED_WORDS:
            fields.append(("words", words_checksum(load_word_list(path))[:12]))
        return name, fields + list(self.versions().items())

    def settings_dict(self) -> dict:
        s = self.settings
        return {**super().settings_dict(), "merge": s.merge, "lev": s.lev, "tokenise": s.tokenise,
                "spacy_model": s.spacy_model, "annotate_refs": s.annotate_refs, "word_list": s.word_list,
                **self.versions()}


class RunningComparison:
    """ERRANT's full comparison of one hypothesis (counts, categories, traces) over consecutive
    chunks of a corpus: each chunk's pair choice starts from the counts chosen before it (the
    running-F choice looks only backwards), so the result equals the whole corpus's while only
    the per-sentence rows (and the traces, with ``verbose``) are kept."""

    def __init__(self, metric: ErrantText, name: str = "hypothesis") -> None:
        self.metric, self.name = metric, name
        self.parts: list[np.ndarray] = []
        self.totals = np.zeros(3, dtype=np.int64)
        self.sentences = 0
        self.categories: dict[str, CategoryCounts] = {}
        self.traces: list[SentenceTrace] = []

    def add(self, prepared: ErrantPrepared, hypothesis: Sequence[str]) -> None:
        """Compare the hypothesis lines of the chunk ``prepared`` was made from."""
        metric = self.metric
        blocks = prepared.blocks(hypothesis)
        sentences = metric._sentences(prepared.reference_tables(metric), blocks, self.name)
        rows = metric._rows(sentences)
        chosen, totals = metric.choice().corpus(fscore.candidate_counts(rows), self.totals)
        metric.add_details(self.categories, self.traces, blocks, sentences, chosen, self.totals, self.sentences)
        self.parts.append(rows)
        self.totals, self.sentences = totals, self.sentences + len(rows)

    def statistics(self) -> np.ndarray:
        """The per-sentence rows of every chunk so far, joined (the metric's statistics)."""
        if not self.parts:
            raise InputError("the corpus has no sentences (an empty file scores nothing)")
        return self.metric.join_statistics(self.parts)

    def result(self) -> ErrantResult:
        """The corpus result with the categories (and traces) gathered chunk by chunk."""
        result = self.metric.score(self.statistics())
        result.categories, result.traces = self.categories, self.traces
        return result
