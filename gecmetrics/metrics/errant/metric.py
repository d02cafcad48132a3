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


from ...io.corpus import Corpus

from ...io.text import check_lines
from ...errors import InputError
from ..m2.compare import EditTable, ErrantCompare, ErrantResult, ErrantSettings, ErrantStatistics
from ...io.m2 import Block
from ..protocol import M2, TEXT, choice, parse_bool, setting, setting_label
from .annotator import Annotator
from ...core.lang.en.merge import STRATEGIES
from ...core.lang.en.parse import DEFAULT_BATCH_SIZE, DEFAULT_MODEL, MODEL_VARIABLE, SpacyModel, model_name
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



@dataclass(frozen=True)
class ErrantTextSettings(ErrantSettings):
    """ERRANT compare's settings, plus how the texts are annotated."""

    merge: str = setting("rules", "how adjacent aligned tokens are merged into edits", choice(*STRATEGIES),
                         flags=("-merge",))
    lev: bool = setting(False, "align with plain Levenshtein costs instead of ERRANT's linguistic ones", parse_bool,
                        flags=("-lev",))
    tokenise: bool = setting(False, "tokenise the text with spaCy (else split on whitespace, as given)",
                             parse_bool, ("tok",), flags=("-tok",))
    spacy_model: str | None = setting(None, f"spaCy model name or path (default: ${MODEL_VARIABLE}, else "
                                             f"{DEFAULT_MODEL}, the model ERRANT loads)", _optional_text, ("model",),
                                      flags=("--spacy-model",))
    annotate_refs: bool = setting(False, "-r names text references: annotate them as annotators 0, 1, ... (else -r "
                                  "is a gold M2 file, used as given)", parse_bool, flags=("--annotate-refs",))
    word_list: str | None = setting(None, "SPELL word list, one word per line (default: $GECMETRICS_ERRANT_WORDS, "
                                          "else the SCOWL en_GB-large list shipped with gecmetrics, as ERRANT's)",
                                    _optional_text, ("words",), flags=("--word-list",))


ANNOTATION_SETTINGS = ("merge", "lev", "tokenise", "spacy_model", "annotate_refs", "word_list")
"""The settings of how texts are annotated (the rest are compare_m2's)."""

_MODELS: dict[str, SpacyModel] = {}


def shared_model(name: str | None) -> SpacyModel:
    """One loaded pipeline per model name in a process, whatever the number of metrics using it
    (None: the default model, :func:`~gecmetrics.core.lang.en.parse.model_name`)."""
    name = model_name(name)
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
    chunk_lines = 250  # parsing is slow: progress moves every few seconds, -p N workers share the lines

    @property
    def reference_kind(self) -> str:  # type: ignore[override]
        """Gold M2 blocks, or text references with ``annotate_refs``."""
        return TEXT if self.settings.annotate_refs else M2

    def sharing_key(self) -> Hashable:
        s = self.settings
        return ("errant-text", s.merge, s.lev, s.tokenise, s.spacy_model, s.annotate_refs, s.word_list)

    def annotator(self) -> Annotator:
        s = self.settings
        return Annotator(shared_model(s.spacy_model), s.merge, s.lev, s.tokenise, s.word_list)

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


@dataclass(frozen=True)
class AnnotationJob:
    """``m2 annotate`` of one chunk (picklable, for the run engine's workers): ERRANT M2 blocks
    of the chunk's hypotheses against its sources (errant_parallel), or of its gold blocks
    re-annotated (``reannotate``: 'auto' or 'gold', as errant_m2)."""

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

    def annotator(self) -> Annotator:
        return Annotator(shared_model(self.spacy_model), self.merge, self.lev, self.tokenise, self.word_list)

    def __call__(self, corpus: Corpus) -> list[Block]:
        annotator = self.annotator()
        if self.reannotate is not None:
            return annotator.reannotate(corpus.gold, self.reannotate, self.minimise, self.old_types)
        return annotator.annotate(corpus.sources, [corpus.hypotheses[name] for name in self.hypotheses])
