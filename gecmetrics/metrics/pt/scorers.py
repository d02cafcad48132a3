"""PT-M2 (MaxMatch edits) and PT-ERRANT (ERRANT edits) as metrics of the protocol
(:class:`gecmetrics.metrics.base.Metric`, registered as ``pt-m2`` and ``pt-errant``).

Both follow the authors' code (github pygongnlp/PT-M2, ``evaluate.py`` with ``--scorer
bertscore``): ``level="sentence"`` is its ``sentm2`` / ``senterrant`` (the mean of sentence
F-scores, the configuration the authors recommend), ``level="corpus"`` its ``m2`` / ``errant``.

Where things live, so that a corpus can be scored in chunks and in worker processes:

* the loaded model (:class:`PTEngine`) is kept once per process and model setting
  (:func:`engine_for`), never pickled: a worker loads its own;
* ``prepare`` reads the gold edits of a chunk, builds each annotator's reference and scores the
  source against it; the prepared object also holds the chunk's cache (token ids, reference
  embeddings, pair scores), shared by every system and every PT metric with the same model,
  and dropped with the chunk (and when pickled: it is rebuilt on use);
* ``statistics`` weighs each edit of one system: each distinct edited sentence is encoded once;
* every pair score (an edited sentence or source against a reference) is also kept in the
  persistent cache (:mod:`gecmetrics.core.cache`, the run's): a later run, or another system
  with the same edit, reads it back instead of encoding both sentences; the signature then
  ends with ``cache:on`` (the numbers are the same bits without the cache).
"""
from __future__ import annotations

import contextlib
import dataclasses
import os
import threading
from dataclasses import dataclass, field
from typing import Any, ClassVar, Hashable, Sequence

import numpy as np

from ...io.corpus import Corpus

from ...core.lines import check_lines
from ...core.table import number_label
from ...errors import InputError, plural
from ..results import CorpusSums
from ..running_f import RunningFMetric, SentenceCounts
from ...io.m2 import Block, Edit, blocks_name, check_blocks
from ...core.edits.lattice import GoldEdit
from ...core.edits.maxmatch import gold_edit, system_edits
from ...kinds import M2
from ..base import Metric, truncation_note
from ...core.models.identity import LoadedOnUse, Records, request_key, strings
from ..settings import (Settings, batch_size_setting, choice, device_setting, non_negative_int, parse_beta, setting,
                        setting_label, threads_setting)
from .weighting import (LEVELS, PT_RULE, PTResult, apply_edits_in_order, check_statistics, edit_weights,
                        pack_rows, pt_scores, reduce_statistics, sentence_choice, statistics_row)

DEFAULT_MODEL = "bert-base-uncased"
MODEL_VARIABLE = "GECMETRICS_PT_MODEL"
"""Names the PT encoder once for all runs (a model name or folder), where --model is not given."""


# ----------------------------------------------------------------------------- settings


def parse_path(name: str, value: Any) -> str:
    """A model name or a path: non-empty text (slashes are part of it)."""
    if not isinstance(value, str) or not value.strip():
        raise InputError(f"{setting_label(name)} must be a model name or a folder, got {value!r}")
    return value.strip()


parse_path.reads_slashes = True  # type: ignore[attr-defined]  # the registry's text syntax keeps 'a/b' whole


def parse_pt_model(name: str, value: Any) -> str:
    """The encoder: ``value`` when given, else $GECMETRICS_PT_MODEL, else bert-base-uncased."""
    if value is None:
        variable = os.environ.get(MODEL_VARIABLE, "").strip()
        if not variable:
            return DEFAULT_MODEL
        name, value = f"${MODEL_VARIABLE}", variable
    return parse_path(name, value)


parse_pt_model.reads_slashes = True  # type: ignore[attr-defined]


def optional_layer(name: str, value: Any) -> int | None:
    """A layer number >= 0, or None (``auto``): the model's BERTScore default."""
    if value is None or (isinstance(value, str) and value.strip().lower() in ("", "auto", "none")):
        return None
    return non_negative_int(name, value)


def parse_pt_lang(name: str, value: Any) -> str:
    """PT-M2 and PT-ERRANT read M2 tokens as given and weigh each edit with a BERT model: the
    language is the model's (``--model``); ``en`` (the default) is the one value."""
    from ...core.lang import DEFAULT_LANGUAGE, parse_lang

    code = parse_lang(name, value)
    if code != DEFAULT_LANGUAGE:
        raise InputError(f"{setting_label(name)} {code}: PT-M2 and PT-ERRANT have no language rules of their own (the "
                         "M2 tokens are read as given, joined by spaces, and the BERTScore weights are the model's): "
                         "give a model of that language with --model instead")
    return code


parse_pt_lang.choices = ("en",)  # type: ignore[attr-defined]


@dataclass(frozen=True)
class PTSettings(Settings):
    """What a PT metric computes with. ``batch_size``, ``device`` and ``threads`` change speed
    and memory, not the number: they are left out of the signature."""

    model: str = setting(None, "Hugging Face model name (read from its cache once downloaded) or a local model folder "
                         f"(default: ${MODEL_VARIABLE}, else {DEFAULT_MODEL})", parse_pt_model, flags=("--model",))
    num_layers: int | None = setting(None, "layer whose output BERTScore uses (auto: the model's BERTScore default, 9 "
                                     "for bert-base-uncased)", optional_layer, ("layer",), flags=("--layer",))
    baseline: str = setting("auto", "rescaling baseline: the model's own (auto), none, a model name or a bert_score "
                            "baseline file (P/R/F do not depend on it: it scales every edit weight by one factor)",
                            parse_path, flags=("--baseline",))
    level: str = setting("sentence", "sentence: mean of sentence F (the authors' recommended PT-M2); corpus: F of "
                         "summed weights", choice(*LEVELS), flags=("--level",), signature="level")
    beta: float = setting(0.5, "F-beta weight (>= 0; inf gives recall)", parse_beta, ("b",), flags=("-b", "--beta"),
                          signature="beta")
    batch_size: int = batch_size_setting(64)
    device: str | None = device_setting()
    lang: str = setting("en", "the M2's language: en only (the language is the model's, --model)", parse_pt_lang,
                        ("language",), flags=("--lang",))
    threads: int = threads_setting(1)

    @property
    def engine_key(self) -> tuple:
        """The settings that decide the embeddings and pair scores (one engine each)."""
        return (self.model, self.num_layers, self.baseline, self.device)


@dataclass(frozen=True)
class PTM2Settings(PTSettings):
    max_unchanged_words: int = setting(2, "most unchanged tokens one system edit may hold (the M2 scorer's setting)",
                                       non_negative_int, ("max_unchanged",), flags=("--max-unchanged-words",),
                                       signature="max-unchanged")


# ----------------------------------------------------------------------------- the model, once per process


class PTEngine:
    """A PT metric's model and rescaling baseline, with what identifies them: the signature's
    fields and the persistent cache's namespaces of its token ids and pair scores
    (:meth:`identity`).

    The model is loaded on first use (:attr:`loaded`). With a persistent cache, the identity a
    load found is stored there under what decides it (:meth:`request_key`: the model folder's
    weights and other files, the layer, the installed torch, transformers and tokenizers, the
    CPU, the torch threads), so a later run on the same model reads it back instead of loading:
    a run whose every token id and pair score is stored (a warm run) never starts torch (about
    2.5 s of CPU and 300 MB: torch, transformers, the tokenizer and the weights). Where the
    identity cannot be known without torch (no thread count, a device torch must choose, a hub
    name not on disk), the model is loaded first, as before."""

    def __init__(self, settings: PTSettings) -> None:
        from ...core.models.bertscore import baseline_label, baseline_values
        from ...core.models.loading import DEFAULT_LAYERS, default_layers

        self.key = settings.engine_key
        self.settings = settings
        self._source: str | None = None
        if settings.num_layers is None and settings.model not in DEFAULT_LAYERS:
            self.source()  # a model that is not there says so before its missing layer does
        self.num_layers = default_layers(settings.model) if settings.num_layers is None else settings.num_layers
        self.baseline = baseline_values(settings.baseline, settings.model, self.num_layers)
        self.baseline_name = baseline_label(settings.baseline, settings.model)
        self._loaded: Any = None
        self._lock = threading.RLock()
        self._identities = Records(IDENTITIES, _is_identity, self.request_key, settings.model,
                                   lambda identity: bool(identity["pairs"] and identity["tokens"]), self._lock)
        """Per torch threads, the identity found by a load or read back from a cache."""

    @property
    def is_loaded(self) -> bool:
        return self._loaded is not None

    @property
    def loaded(self) -> Any:
        """The tokenizer and encoder (:class:`~gecmetrics.core.models.loading.LoadedModel`), loaded
        on first use; an identity read back from the cache is checked against it."""
        with self._lock:
            if self._loaded is None:
                self._loaded = self._load()
                self._identities.check_loaded(lambda threads: self._identity_of(self._loaded, threads))
            return self._loaded

    def using(self, threads: int) -> Any:
        """The loaded model, torch set to ``threads`` threads (0: left as it is) to compute with it."""
        from ...core.models.runtime import use_threads

        loaded = self.loaded
        use_threads(threads)
        return loaded

    def _load(self) -> Any:
        from ...core.models.loading import load_model

        source = self.source()  # (outside: its errors already say where the encoder is chosen)
        with _encoder_errors():
            return load_model(self.settings.model, self.num_layers, self.settings.device, source)

    def source(self) -> str:
        """Where the model is read from (:func:`~gecmetrics.core.models.loading.model_source`:
        a folder, a hub model's cached snapshot, or a hub name after one look at the hub),
        asked once."""
        from ...core.models.loading import model_source

        if self._source is None:
            with _encoder_errors():
                self._source = model_source(self.settings.model)
        return self._source

    def request_key(self, threads: int) -> str | None:
        """What decides this model's identity, known without loading it (the folder's weights and
        its other files, or the hub commit of a cached snapshot; the layer, the CPU and
        ``threads`` torch threads, the installed torch, transformers and tokenizers, Python's
        Unicode tables: a copy of the folder elsewhere has the same identity); None when only a
        load can tell (no thread count, a device torch must choose, not a folder on disk, a
        folder without weights)."""
        if threads <= 0:
            return None
        return request_key(self.source(), self.settings.device, [f"layer-{self.num_layers}", "cpu",
                                                                f"threads-{threads}"])

    def identity(self, threads: int, cache: Any = None) -> dict:
        """The model's identity at ``threads`` torch threads: ``pairs`` and ``tokens``, the
        namespaces of its pair scores and token ids in the persistent cache (None: not stored),
        ``max_length``, the tokens a text is cut to, and ``signature``, its signature fields but
        the model's name and the baseline. Read back from ``cache`` when a load stored it there
        (the model is then not loaded), else found by loading the model (and stored for the next
        run)."""
        return self._identities.get(threads, cache, self.is_loaded, lambda: self._identity_of(self.loaded, threads))

    def _identity_of(self, loaded: Any, threads: int) -> dict:
        from ...core.models.bertscore import pair_namespace, token_namespace

        return {"pairs": pair_namespace(loaded, threads), "tokens": token_namespace(loaded),
                "max_length": loaded.max_length,
                "signature": [["rev", loaded.revision], ["layer", str(loaded.num_layers)],
                              ["torch", loaded.torch_version.split("+")[0]],
                              ["transformers", loaded.transformers_version],
                              ["encoder", "direct" if loaded.direct else "transformers"]]}

    def pair_scorer(self, batch_size: int, cache: Any = None, threads: int = 0) -> Any:
        """A new cache of token ids, embeddings and pair scores on this model, backed by the
        persistent cache ``cache`` (a run's; None: none) for the token ids and pair scores; the
        model is loaded when it first has a text to tokenize or a pair to score (on ``threads``
        torch threads; 0: torch's default), unless ``threads`` is 0 or the identity is not stored."""
        from ...core.models.bertscore import PairScorer
        from ...core.models.loading import torch_threads

        if cache is None or not cache.enabled:
            return PairScorer(self.using(threads), self.baseline, batch_size=batch_size, cache=cache)
        identity = self.identity(torch_threads(threads), cache)
        model = self.using(threads) if self._loaded is not None else LoadedOnUse(lambda: self.using(threads))
        return PairScorer(model, self.baseline, batch_size=batch_size, cache=cache, namespace=identity["pairs"],
                          id_namespace=identity["tokens"], max_length=identity["max_length"])

    def signature_fields(self, threads: int = 0, cache: Any = None) -> list[tuple[str, str]]:
        """The model's identity for a signature (read back from ``cache`` like :meth:`identity`)."""
        from ...core.models.loading import shown_model, signed_tokenizer, torch_threads

        fields = [(key, value) for key, value in self.identity(torch_threads(threads), cache)["signature"]]
        tokenizer = ("tokenizer", signed_tokenizer(self.settings.model, self.source()))
        return [("model", shown_model(self.settings.model)), fields[0], tokenizer, fields[1],
                ("baseline", self.baseline_name), *fields[2:]]


@contextlib.contextmanager
def _encoder_errors():
    """A model that cannot be loaded is one line that says where the PT encoder is chosen."""
    try:
        yield
    except InputError as err:
        if err.path is None:  # not about the model itself (torch missing, a layer, a device)
            raise
        raise InputError(f"{str(err).removeprefix(f'{err.path}: ')} (the PT encoder: --model NAME|FOLDER, "
                         f"or ${MODEL_VARIABLE} for every run)", err.path) from None


IDENTITIES = "pt/model-identity/1"
"""The persistent cache's namespace of the identities :meth:`PTEngine.identity` stores
(:mod:`gecmetrics.core.models.identity`)."""


def _is_identity(identity: dict) -> bool:
    """Whether a stored record is one of :meth:`PTEngine.identity`'s."""
    return (set(identity) == {"pairs", "tokens", "max_length", "signature"} and strings(identity, "pairs", "tokens")
            and isinstance(identity["max_length"], int) and not isinstance(identity["max_length"], bool)
            and isinstance(identity["signature"], list)
            and all(isinstance(field, list) and len(field) == 2 and all(isinstance(part, str) for part in field)
                    for field in identity["signature"]))


ENGINES = "pt-engine"
"""The kind of the PT encoders in a :class:`~gecmetrics.core.context.Resources` store."""


def engine_for(settings: PTSettings, resources: Any = None) -> PTEngine:
    """The model of these settings, once per process (every chunk, system and PT metric with the
    same model shares it; kept in ``resources``, a run's store, else the process's), not loaded
    until it is used (:class:`PTEngine`)."""
    from ...core.context import loaded

    engine = loaded((ENGINES, *settings.engine_key), lambda: PTEngine(settings), resources)
    if engine.is_loaded:
        from ...core.models.runtime import use_threads

        use_threads(settings.threads)
    return engine


def release_models() -> None:
    """Forget the loaded models of this process (they are freed once nothing else holds them)."""
    from ...core.context import process_resources

    process_resources().drop(ENGINES)


# ----------------------------------------------------------------------------- prepared corpus


@dataclass
class PreparedCorpus:
    """What every system shares in a chunk: per sentence the source, each annotator's gold edit
    keys (first-appearance order) and reference text, the F of the source against each
    reference; and the chunk's cache (``pairs``, rebuilt on use after pickling) over the run's
    persistent cache (``cache``). ``cut``: the sentences of which a text the model read (the
    source, a reference, the source with one edit of a system scored so far or of the gold) was
    cut to its maximum length (``max_length`` tokens); ``gold_name``: the gold M2's file, which
    the note names."""

    engine_key: tuple
    sources: list[str]
    gold: list[dict[int, list]]
    references: list[list[str]]
    source_f: list[list[float]] = field(default_factory=list)
    extra: list = field(default_factory=list)
    """Scorer-specific per-sentence data (PT-M2: GoldEdit lists for the lattice)."""
    pairs: Any = field(default=None, repr=False, compare=False)
    cache: Any = field(default=None, repr=False, compare=False)
    cut: set[int] = field(default_factory=set, repr=False, compare=False)
    gold_name: str = "the gold M2"
    max_length: int = 0

    def __getstate__(self) -> dict:
        return {**self.__dict__, "pairs": None}


def _replacement(correction: str) -> str:
    return "" if correction == "-NONE-" else correction


def _annotators_in_order(block: Block) -> list[int]:
    """Annotator ids in order of first appearance (the authors' dict order); [0] if none."""
    return list(dict.fromkeys(edit.annotator for edit in block.edits)) or [0]


def _gold_name(corpus: Corpus | Sequence[Block]) -> str:
    """The gold M2's file name (blocks given directly: a description)."""
    return corpus.name("gold") if isinstance(corpus, Corpus) else "the gold M2"


def _gold_blocks(corpus: Corpus | Sequence[Block], what: str) -> list[Block]:
    """The gold blocks of a corpus (or blocks given directly)."""
    if isinstance(corpus, Corpus):
        if corpus.gold is None:
            raise InputError(f"{what} needs gold M2 annotations of the same sentences")
        return check_blocks(corpus.gold, corpus.name("gold"))
    return check_blocks(corpus, "the gold M2")


# ----------------------------------------------------------------------------- the metrics


class PTMetric(RunningFMetric):
    """What PT-M2 and PT-ERRANT share: the model, the prepared references, weighted rows, the
    authors' annotator choice (:data:`~gecmetrics.metrics.pt.weighting.PT_RULE`) and the reducers."""

    settings_class = PTSettings
    positional = ("model",)
    rule = PT_RULE
    label: ClassVar[str] = "PT"
    result_class = PTResult
    chunk_lines = 250  # BERT encodings are slow: progress moves, -p N workers share the lines

    @property
    def engine(self) -> PTEngine:
        """The loaded model (once per process)."""
        return engine_for(self.settings, self.run_context.resources)

    def sharing_key(self) -> Hashable:
        return (self.label, self.settings.engine_key)

    def _checked(self, prepared: Any) -> PreparedCorpus:
        """The prepared corpus, if it is one for this model."""
        self.check_prepared_kind(prepared, PreparedCorpus)
        if prepared.engine_key != self.settings.engine_key:
            raise InputError(f"this corpus was prepared for {self.label} with other model settings")
        return prepared

    def _pairs(self, prepared: PreparedCorpus) -> Any:
        """The chunk's cache: made on first use, with the references pinned."""
        prepared = self._checked(prepared)
        if prepared.pairs is None:
            prepared.pairs = self.engine.pair_scorer(self.settings.batch_size, prepared.cache, self.settings.threads)
            prepared.pairs.sequences([r for refs in prepared.references for r in refs], pin=True)
        prepared.pairs.batch_size = self.settings.batch_size
        return prepared.pairs

    def _finish_prepare(self, sources: list[str], gold: list[dict[int, list]], references: list[list[str]],
                        extra: list, gold_name: str) -> PreparedCorpus:
        """Score every source against each of its references (the weights' starting point)."""
        prepared = PreparedCorpus(self.settings.engine_key, sources, gold, references, [], extra,
                                  cache=self.run_context.cache, gold_name=gold_name)
        pairs = self._pairs(prepared)
        flat_sources = [s for s, refs in zip(sources, references) for _ in refs]
        flat_f = iter(pairs.f_scores(pairs.sequences(flat_sources),
                                     pairs.sequences([r for refs in references for r in refs])))
        prepared.source_f = [[next(flat_f) for _ in refs] for refs in references]
        prepared.max_length = pairs.limit
        prepared.cut.update(d for d, (source, refs) in enumerate(zip(sources, references))
                            if pairs.cut_count([source, *refs]))
        return prepared

    def observation(self, prepared: Any) -> tuple[dict[str, int], int] | None:
        """({the gold M2: its sentences with a text cut to the model's maximum length}, that
        length), or None when none was: bert_score cuts them there, saying nothing."""
        if not isinstance(prepared, PreparedCorpus) or not prepared.cut:
            return None
        return {prepared.gold_name: len(prepared.cut)}, prepared.max_length

    def notes(self, observations: Sequence[Any]) -> list[str]:
        """One line saying how many sentences of the gold M2 had a text cut to the maximum length."""
        return truncation_note(self.label, "bert_score", observations)

    def _edited_f(self, prepared: PreparedCorpus, slot_keys: list[list[list]]) -> list[list[list[float]]]:
        """F of every (source with one edit applied, the slot's reference), per sentence, slot
        and key; every distinct edited sentence is encoded once."""
        pairs = self._pairs(prepared)
        texts, references = [], []
        for d, slots in enumerate(slot_keys):
            tokens = prepared.sources[d].split()
            for slot, keys in enumerate(slots):
                for key in keys:
                    texts.append(apply_edits_in_order(tokens, [(key[0], key[1], _replacement(key[-1]))]))
                    references.append(prepared.references[d][slot])
        values = iter(pairs.f_scores(pairs.sequences(texts), pairs.sequences(references)))
        edited = iter(texts)
        prepared.cut.update(d for d, slots in enumerate(slot_keys)
                            if pairs.cut_count([next(edited) for keys in slots for _ in keys]))
        return [[[next(values) for _ in keys] for keys in slots] for slots in slot_keys]

    def _rows(self, prepared: PreparedCorpus, per_sentence: list[list[tuple[list, list, list]]]) -> np.ndarray:
        """Statistics (D, A, 5) from, per sentence and annotator slot, (system keys, correct
        keys, gold keys): each key's weight against the slot's reference, summed."""
        slot_keys = [[list(dict.fromkeys((*system, *gold))) for system, _, gold in entries] for entries in per_sentence]
        edited = self._edited_f(prepared, slot_keys)
        sentence_level = self.settings.level == "sentence"
        rows = []
        for d, entries in enumerate(per_sentence):
            row = []
            for slot, ((system, correct, gold), annotator) in enumerate(zip(entries, prepared.gold[d])):
                weights = edit_weights(slot_keys[d][slot], edited[d][slot], prepared.source_f[d][slot], sentence_level)
                row.append((*statistics_row(weights, correct, system, gold), annotator))
            rows.append(row)
        return pack_rows(rows)

    # ------------------------------------------------------------------ reducers
    def corpus_sums(self, statistics: Any, column: int = 0) -> CorpusSums:
        """The authors' reduction (:func:`~.weighting.reduce_statistics`): corpus level, the
        chosen annotators' weighted totals (added in sentence order); sentence level, the sum
        of the sentences' F (in sentence order) and their count."""
        reduced = reduce_statistics(statistics, self.settings.beta, self.settings.level)
        total = np.array(reduced.totals) if self.settings.level == "corpus" else \
            np.array([sum(reduced.sentence_f.tolist()), len(reduced.sentence_f)], dtype=np.float64)
        return CorpusSums(total, reduced.chosen, {"reduced": reduced})

    def details(self, statistics: Any, sums: list[CorpusSums]) -> dict[str, Any]:
        """P and R (means of the sentences' at sentence level), the weighted totals of the
        chosen annotators, the annotator chosen per sentence and each sentence's F."""
        reduced = sums[0].extra["reduced"]
        return {"precision": reduced.precision, "recall": reduced.recall, "totals": reduced.totals,
                "level": reduced.level, "beta": reduced.beta, "chosen": reduced.chosen,
                "sentence_f": reduced.sentence_f}

    def sentence_from_statistics(self, statistics: Any) -> SentenceCounts:
        """Per-sentence P/R/F with the annotator kept for that sentence (the corpus choice at
        corpus level, the sentence's own at sentence level)."""
        statistics = self.check_statistic_values(statistics)
        result = reduce_statistics(statistics, self.settings.beta, self.settings.level)
        data = check_statistics(statistics)
        kept = data.counts[np.arange(len(data)), result.chosen]
        precision, recall, f = pt_scores(kept, self.settings.beta)
        return SentenceCounts(f, precision, recall, kept, result.chosen, self.signature, np.array(result.totals))

    # each one-sentence corpus through the authors' reducer (its choice is not the M2 family's)
    alone_matrix = Metric.alone_matrix

    def resampler(self, column: int = 0, references: int = 1) -> Any:
        """Corpus level: the running choice redone in every resample (the M2 family's
        resampler with the authors' rule). Sentence level: each sentence's choice does not
        depend on the others, so a resample's score is the mean of its sentences' F."""
        self.check_resampler_arguments(column, references)
        if self.settings.level == "corpus":
            from ...core.running_f import RunningFResampler

            return RunningFResampler(self.rule, self.settings.beta, self.column_labels()[0], self.signature)
        return Metric.resampler(self, column, references)  # the rows of each sentence's own choice

    def rows(self, statistics: Any, column: int = 0) -> np.ndarray:
        """Sentence level, (D, 2): each sentence's F and a 1 (summed: the F total and the
        sentence count); corpus level: the weighted counts of each sentence's candidates."""
        data = check_statistics(statistics)
        if self.settings.level == "corpus":
            return super().rows(data.counts)
        kept = data.counts[np.arange(len(data)), sentence_choice(data, self.settings.beta)]
        return np.column_stack([pt_scores(kept, self.settings.beta)[2], np.ones(len(data))])

    def score_from_sums(self, sums: np.ndarray, column: int = 0) -> np.ndarray:
        """Sentence level: the mean F of summed (F, 1) rows; corpus level: F of summed counts."""
        if self.settings.level == "corpus":
            return pt_scores(sums, self.settings.beta)[2]
        return sums[..., 0] / sums[..., 1]

    # ------------------------------------------------------------------ names
    def settings_dict(self) -> dict[str, Any]:
        return {"metric": self.label, **self.settings.to_dict()}

    def signature_extra(self, references: int | None) -> list[tuple[str, str] | str]:
        """The encoder's identity (model, revision, layer, baseline, library versions) and
        ``cache:on`` when pair scores may come from the persistent cache."""
        return [*self.engine.signature_fields(self.settings.threads, self.run_context.cache),
                *self.run_context.signature_fields()]

    def column_names(self) -> list[str]:
        s = self.settings
        tokens = [f"F{number_label(s.beta)}"] + (["corpus"] if s.level == "corpus" else [])
        if s.model != DEFAULT_MODEL:
            tokens.append(os.path.basename(os.path.normpath(s.model)))
        if s.num_layers is not None:
            tokens.append(f"L{s.num_layers}")
        return [" ".join(tokens + self._edit_tokens())]

    def _edit_tokens(self) -> list[str]:
        """Column-label words of the edit extraction's non-default settings."""
        return []


class PTM2(PTMetric):
    """PT-M2: MaxMatch edits (per annotator, the edit-lattice path the NUS scorer chooses
    against that annotator's gold edits), weighted by BERTScore. Hypotheses: tokenized lines."""

    name = "pt-m2"
    settings_class = PTM2Settings
    label = "PT-M2"

    def prepare(self, corpus: Corpus | Sequence[Block], group: Sequence[Any] = ()) -> PreparedCorpus:
        """From the gold M2 (a corpus's, or blocks): each annotator's gold edits and reference
        (its edits, first correction of each), and the source's F against it."""
        sources, gold, references, lattice_gold = [], [], [], []
        for block in _gold_blocks(corpus, self.label):
            tokens = block.tokens
            per_annotator: dict[int, list[GoldEdit]] = {a: [] for a in _annotators_in_order(block)}
            for edit in block.edits:
                if not edit.is_noop:
                    per_annotator[edit.annotator].append(gold_edit(edit, tokens))
            sources.append(" ".join(tokens))
            lattice_gold.append(per_annotator)
            gold.append({a: [(g.start, g.end, g.original, g.corrections[0]) for g in edits]
                         for a, edits in per_annotator.items()})
            references.append([apply_edits_in_order(tokens, [(s, e, c) for s, e, _, c in keys])
                               for keys in gold[-1].values()])
        return self._finish_prepare(sources, gold, references, lattice_gold, _gold_name(corpus))

    def statistics(self, prepared: PreparedCorpus, hypothesis: Sequence[str], name: str = "hypothesis") -> np.ndarray:
        """Weighted (correct, proposed, gold) per sentence and annotator, shape (D, A, 5)."""
        prepared, lines = self._checked(prepared), check_lines(hypothesis, name)
        if len(lines) != len(prepared.sources):
            raise InputError(f"has {plural(len(lines), 'line')} "
                             f"but the gold M2 has {plural(len(prepared.sources), 'sentence')}", name)
        per_sentence = []
        for source, line, lattice_gold in zip(prepared.sources, lines, prepared.extra):
            entries = []
            chosen = system_edits(source, line.strip(), lattice_gold, self.settings.max_unchanged_words)
            for (system, _), gold_edits in zip(chosen, lattice_gold.values()):
                ascending = [edit.as_tuple() for edit in system]
                gold_keys = [(g.start, g.end, g.original, g.corrections[0]) for g in gold_edits]
                entries.append((ascending[::-1], match_all_in_order(ascending, gold_edits), gold_keys))
            per_sentence.append(entries)
        return self._rows(prepared, per_sentence)

    def _edit_tokens(self) -> list[str]:
        return [f"mu{self.settings.max_unchanged_words}"] if self.settings.max_unchanged_words != 2 else []


def match_all_in_order(system: Sequence[tuple], gold: Sequence[GoldEdit]) -> list[tuple]:
    """System edits (left to right) matching gold edits, scanning the gold list forward from
    after the last match. The authors' ``matchSeq`` has no ``break``: one system edit matching
    several gold edits (alternatives written as separate lines) counts once per match, where
    the NUS scorer (:func:`gecmetrics.core.edits.lattice.match_in_order`) counts it once."""
    correct = []
    next_index = 0
    for edit in system:
        for index in range(next_index, len(gold)):
            g = gold[index]
            if edit[0] == g.start and edit[1] == g.end and edit[2] == g.original and edit[3] in g.corrections:
                correct.append(edit)
                next_index = index + 1
    return correct


class PTErrant(PTMetric):
    """PT-ERRANT: ERRANT edits read from hypothesis M2 files and a reference M2 (as
    ``errant_parallel`` writes them), compared on (start, end, correction), weighted by
    BERTScore. Hypotheses: M2 blocks; the corpus's gold blocks are the reference M2."""

    name = "pt-errant"
    hypothesis_kind = M2
    label = "PT-ERRANT"

    def prepare(self, corpus: Corpus | Sequence[Block], group: Sequence[Any] = ()) -> PreparedCorpus:
        """From the reference M2 (a corpus's gold, or blocks): per coder its edit keys and
        reference text, and the source's F against it."""
        blocks = _gold_blocks(corpus, self.label)
        gold = [errant_keys_by_coder(block) for block in blocks]
        references = [[apply_edits_in_order(block.tokens, [(s, e, _replacement(c)) for s, e, c in keys])
                       for keys in coders.values()] for block, coders in zip(blocks, gold)]
        return self._finish_prepare([" ".join(block.tokens) for block in blocks], gold, references, [],
                                    _gold_name(corpus))

    def statistics(self, prepared: PreparedCorpus, hypothesis: Sequence[Block], name: str | None = None
                   ) -> np.ndarray:
        """Weighted (correct, proposed, gold) per sentence and coder, shape (D, A, 5)."""
        name = blocks_name(hypothesis, name, "hypothesis M2")
        prepared, blocks = self._checked(prepared), check_blocks(hypothesis, name)
        if len(blocks) != len(prepared.sources):
            raise InputError(f"has {plural(len(blocks), 'sentence')} "
                             f"but the reference M2 has {len(prepared.sources)}", name)
        per_sentence = []
        for d, block in enumerate(blocks):
            if " ".join(block.tokens) != prepared.sources[d]:
                raise InputError(f"the source of sentence {d + 1} differs from the reference M2's", name,
                                 block.line or None)
            system = [key for keys in errant_keys_by_coder(block).values() for key in keys]
            per_sentence.append([(system, match_keys_in_order(system, keys), keys)
                                 for keys in prepared.gold[d].values()])
        return self._rows(prepared, per_sentence)


def merge_coders(files: Sequence[Sequence[Block]], names: Sequence[str]) -> list[Block]:
    """One reference M2 from several of the same sentences (e.g. ``errant_parallel`` run once
    per reference): the coders of each file follow those of the files before it, renumbered
    in order (a block without edits counts as its file's first coder with none)."""
    first = check_blocks(files[0], names[0])
    if len(files) == 1:
        return first
    offsets, merged = [], []
    for blocks, name in zip(files, names):
        blocks = check_blocks(blocks, name)
        if len(blocks) != len(first) or any(b.tokens != f.tokens for b, f in zip(blocks, first)):
            raise InputError(f"does not annotate the sentences of {names[0]} (count or tokens differ)", name)
        coders = sorted({edit.annotator for block in blocks for edit in block.edits}) or [0]
        offsets.append((sum(len(c) for _, c in offsets), coders))
    for d, block in enumerate(first):
        edits = []
        for blocks, (offset, coders) in zip(files, offsets):
            number = {coder: offset + k for k, coder in enumerate(coders)}
            edits += [dataclasses.replace(e, annotator=number[e.annotator], annotator_text="") for e in blocks[d].edits] or \
                [Edit(-1, -1, "noop", "-NONE-", annotator=offset)]
        merged.append(Block(block.source, edits, block.line))
    return merged


def errant_keys_by_coder(block: Block) -> dict[int, list[tuple[int, int, str]]]:
    """Per coder (first-appearance order; coder 0 for a block without edits) its distinct
    (start, end, correction) keys in file order, without noop and UNK edits (ERRANT's
    span-based correction, as the authors' ``errant_load_annotation`` reads an M2)."""
    coders: dict[int, list[tuple[int, int, str]]] = {a: [] for a in _annotators_in_order(block)}
    for edit in block.edits:
        key = (edit.start, edit.end, edit.correction)
        if edit.is_noop or edit.type == "UNK" or key in coders[edit.annotator]:
            continue
        coders[edit.annotator].append(key)
    return coders


def match_keys_in_order(system: Sequence[tuple], gold: Sequence[tuple]) -> list[tuple]:
    """System keys found in the gold keys, scanning forward from after the last match (the
    authors' ``matchSeq`` of their ERRANT variant; no ``break`` either, see
    :func:`match_all_in_order`, though distinct keys can match only once)."""
    correct = []
    next_index = 0
    for key in system:
        for index in range(next_index, len(gold)):
            if gold[index] == key:
                correct.append(key)
                next_index = index + 1
    return correct
