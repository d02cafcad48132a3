"""PT-M2 (MaxMatch edits) and PT-ERRANT (ERRANT edits): the scorers, shaped as the metric
protocol wants them — ``prepare`` (gold edits, references, their embeddings), ``statistics``
(per-sentence, per-annotator weighted rows) and ``score`` (choice of annotators and reduction).

Both follow the authors' code (github pygongnlp/PT-M2, ``evaluate.py`` with ``--scorer
bertscore``): ``level="sentence"`` is its ``sentm2`` / ``senterrant`` (the mean of sentence
F-scores, the configuration the authors recommend), ``level="corpus"`` its ``m2`` / ``errant``.
One :class:`PTEngine` (model, tokenizer, cached sequences and pair scores) can serve several
scorers and every system of a run: each distinct sentence is encoded once.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Mapping, Sequence

import numpy as np

from .. import __version__
from ..errors import InputError
from ..m2.format import Block, read_m2
from ..m2.lattice import GoldEdit
from ..m2.maxmatch import M2Scorer
from .weighting import (LEVELS, PTScore, apply_edits_in_order, edit_weights, reduce_statistics,
                        statistics_row)


@dataclass(frozen=True)
class PTSettings:
    """What changes a PT-M2 / PT-ERRANT number. ``model``: hub name or local folder;
    ``num_layers``: BERTScore layer (default: the model's BERTScore default); ``baseline``:
    ``auto`` (the model's English rescaling baseline), ``none``, a model name or a bert_score
    baseline file; ``level``: ``sentence`` (authors' recommendation) or ``corpus``."""

    model: str = "bert-base-uncased"
    num_layers: int | None = None
    baseline: str = "auto"
    level: str = "sentence"
    beta: float = 0.5
    max_unchanged_words: int = 2
    device: str | None = None
    batch_size: int = 64

    def __post_init__(self) -> None:
        if not isinstance(self.model, str) or not self.model.strip():
            raise InputError(f"model must be a model name or folder, got {self.model!r}")
        for name in ("num_layers", "max_unchanged_words", "batch_size"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
                raise InputError(f"{name} must be a non-negative integer, got {value!r}")
        if self.batch_size < 1:
            raise InputError(f"batch_size must be at least 1, got {self.batch_size}")
        if self.level not in LEVELS:
            raise InputError(f"level must be one of {', '.join(LEVELS)}, got {self.level!r}")
        if isinstance(self.beta, bool) or not isinstance(self.beta, (int, float)) or not self.beta >= 0:
            raise InputError(f"beta must be a number >= 0, got {self.beta!r}")
        if not isinstance(self.baseline, str) or not self.baseline:
            raise InputError(f"baseline must be auto, none, a model name or a file, got {self.baseline!r}")

    @property
    def engine_key(self) -> tuple:
        """Settings that decide the embeddings and pair scores (shared engine when equal)."""
        return (self.model, self.num_layers, self.baseline, self.device)


class PTEngine:
    """The loaded model with its caches: one per (model, layer, baseline, device)."""

    def __init__(self, settings: PTSettings) -> None:
        from .bertscore import PairScorer, baseline_values
        from .model import load_model

        self.loaded = load_model(settings.model, settings.num_layers, settings.device)
        baseline = baseline_values(settings.baseline, settings.model, self.loaded.num_layers)
        self.scorer = PairScorer(self.loaded, baseline, batch_size=settings.batch_size)
        self.key = settings.engine_key

    def signature_fields(self) -> list[str]:
        loaded = self.loaded
        return [f"model:{loaded.name}", f"rev:{loaded.revision}", f"layer:{loaded.num_layers}",
                f"torch:{loaded.torch_version.split('+')[0]}", f"transformers:{loaded.transformers_version}"]


@dataclass
class PreparedCorpus:
    """What every hypothesis shares: sources, per sentence the annotators' gold edit keys (in
    first-appearance order) and reference texts, and the F of each source against them."""

    sources: list[str]
    gold: list[dict[int, list]]
    reference_numbers: list[list[int]]
    source_f: list[list[float]]
    extra: list = field(default_factory=list)
    """Scorer-specific per-sentence data (PT-M2: GoldEdit lists for the lattice)."""


class _PTScorer:
    """Shared machinery of PT-M2 and PT-ERRANT."""

    metric_name = "PT"

    def __init__(self, settings: PTSettings | None = None, engine: PTEngine | None = None, **kwargs) -> None:
        self.settings = settings if settings is not None else PTSettings(**kwargs)
        if settings is not None and kwargs:
            raise TypeError("give either a PTSettings or keyword settings, not both")
        if engine is not None and engine.key != self.settings.engine_key:
            raise InputError("the engine given was loaded with other model settings")
        self._engine = engine

    @property
    def engine(self) -> PTEngine:
        """The model and caches, loaded on first use."""
        if self._engine is None:
            self._engine = PTEngine(self.settings)
        return self._engine

    @property
    def signature(self) -> str:
        fields = [self.metric_name, f"level:{self.settings.level}", f"beta:{self.settings.beta:g}"]
        fields += self.engine.signature_fields() + [f"baseline:{self.settings.baseline}", f"version:{__version__}"]
        return "|".join(fields)

    def _finish_prepare(self, sources: list[str], gold: list[dict[int, list]], references: list[list[str]],
                        extra: list) -> PreparedCorpus:
        scorer = self.engine.scorer
        source_numbers = scorer.sequences(sources, pin=True)
        reference_numbers = [scorer.sequences(texts, pin=True) for texts in references]
        flat_sources = [s for s, refs in zip(source_numbers, reference_numbers) for _ in refs]
        flat_references = [r for refs in reference_numbers for r in refs]
        flat_f = iter(scorer.f_scores(flat_sources, flat_references))
        source_f = [[next(flat_f) for _ in refs] for refs in reference_numbers]
        return PreparedCorpus(sources, gold, reference_numbers, source_f, extra)

    def _rows(self, prepared: PreparedCorpus, per_sentence: list[list[tuple[list, list, list]]]) -> np.ndarray:
        """Statistics (D, A, 4) from, per sentence and annotator, (system keys, correct keys,
        gold keys); every edited sentence is scored against every reference of its sentence."""
        scorer = self.engine.scorer
        keys_per_sentence = [list(dict.fromkeys(k for system, _, gold in entries for k in (*system, *gold)))
                             for entries in per_sentence]
        texts, references = [], []
        for d, keys in enumerate(keys_per_sentence):
            tokens = prepared.sources[d].split()
            for key in keys:
                text = apply_edits_in_order(tokens, [(key[0], key[1], _replacement(key[-1]))])
                for reference in prepared.reference_numbers[d]:
                    texts.append(text)
                    references.append(reference)
        candidates = scorer.sequences(texts)
        values = iter(scorer.f_scores(candidates, references))
        slots = max((len(entries) for entries in per_sentence), default=1)
        array = np.zeros((len(per_sentence), slots, 4), dtype=np.float64)
        level_sentence = self.settings.level == "sentence"
        for d, (keys, entries) in enumerate(zip(keys_per_sentence, per_sentence)):
            edited = {key: [next(values) for _ in prepared.reference_numbers[d]] for key in keys}
            for slot, (system, correct, gold) in enumerate(entries):
                slot_keys = list(dict.fromkeys((*system, *gold)))
                weights = edit_weights(slot_keys, [edited[key][slot] for key in slot_keys],
                                       prepared.source_f[d][slot], level_sentence)
                array[d, slot] = statistics_row(weights, correct, system, gold)
        return array

    def score(self, statistics: np.ndarray) -> PTScore:
        """The corpus result of (possibly resampled) statistics rows."""
        result = reduce_statistics(statistics, self.settings.beta, self.settings.level)
        result.signature = self.signature
        result.settings = {"metric": self.metric_name, **{k: getattr(self.settings, k) for k in
                                                          ("model", "num_layers", "baseline", "level", "beta")}}
        return result


def _blocks(m2: str | os.PathLike[str] | Sequence[Block]) -> list[Block]:
    if isinstance(m2, (str, os.PathLike)):
        return read_m2(os.fspath(m2))
    blocks = list(m2)
    if not all(isinstance(block, Block) for block in blocks):
        raise TypeError("expected an M2 path or a sequence of gecmetrics.m2.Block")
    return blocks


def _annotators_in_order(block: Block) -> list[int]:
    """Annotator ids in order of first appearance (the authors' dict order); [0] if none."""
    return list(dict.fromkeys(edit.annotator for edit in block.edits)) or [0]


class PTM2(_PTScorer):
    """PT-M2: MaxMatch edits (system edits from the M2 edit lattice against each annotator's
    gold edits, as the NUS scorer chooses them), weighted by BERTScore."""

    metric_name = "PT-M2"

    def prepare(self, gold_m2: str | os.PathLike[str] | Sequence[Block]) -> PreparedCorpus:
        """Read the gold M2; build each annotator's reference (its edits, first correction
        of each) and score the source against it."""
        blocks = _blocks(gold_m2)
        if not blocks:
            raise InputError("the gold M2 has no sentence")
        sources, gold, references, lattice_gold = [], [], [], []
        for block in blocks:
            tokens = block.tokens
            per_annotator: dict[int, list[GoldEdit]] = {a: [] for a in _annotators_in_order(block)}
            for edit in block.edits:
                if not edit.is_noop:
                    corrections = tuple(text.strip() for text in edit.alternatives)
                    per_annotator[edit.annotator].append(
                        GoldEdit(edit.start, edit.end, " ".join(tokens[edit.start:edit.end]), corrections))
            sources.append(" ".join(tokens))
            lattice_gold.append(per_annotator)
            gold.append({a: [(g.start, g.end, g.original, g.corrections[0]) for g in edits]
                         for a, edits in per_annotator.items()})
            references.append([apply_edits_in_order(tokens, [(s, e, c) for s, e, _, c in keys])
                               for keys in gold[-1].values()])
        return self._finish_prepare(sources, gold, references, lattice_gold)

    def statistics(self, prepared: PreparedCorpus, hypothesis: Sequence[str]) -> np.ndarray:
        """Weighted (correct, proposed, gold, present) per sentence and annotator, shape (D, A, 4)."""
        lines = _check_lines(hypothesis, len(prepared.sources))
        lattice = M2Scorer(beta=self.settings.beta, max_unchanged_words=self.settings.max_unchanged_words)
        per_sentence = []
        for source, line, lattice_gold in zip(prepared.sources, lines, prepared.extra):
            chosen = lattice.sentence_edits(source, line, lattice_gold)
            entries = []
            for (system, _), gold_edits in zip(chosen, lattice_gold.values()):
                ascending = [edit.as_tuple() for edit in system]
                correct = match_all_in_order(ascending, gold_edits)
                gold_keys = [(g.start, g.end, g.original, g.corrections[0]) for g in gold_edits]
                entries.append((ascending[::-1], correct, gold_keys))
            per_sentence.append(entries)
        return self._rows(prepared, per_sentence)


def match_all_in_order(system: Sequence[tuple], gold: Sequence[GoldEdit]) -> list[tuple]:
    """System edits (left to right) matching gold edits, scanning the gold list forward from
    after the last match and, as the authors' ``matchSeq``, counting every gold edit matched."""
    correct = []
    next_index = 0
    for edit in system:
        for index in range(next_index, len(gold)):
            g = gold[index]
            if edit[0] == g.start and edit[1] == g.end and edit[2] == g.original and edit[3] in g.corrections:
                correct.append(edit)
                next_index = index + 1
    return correct


def _check_lines(hypothesis: Sequence[str], count: int) -> list[str]:
    if isinstance(hypothesis, str) or not all(isinstance(line, str) for line in hypothesis):
        raise TypeError("the hypothesis must be a sequence of strings (one per sentence)")
    lines = [line.strip() for line in hypothesis]
    if len(lines) != count:
        raise InputError(f"the hypothesis has {len(lines)} lines but the gold M2 has {count} sentences")
    return lines


class PTErrant(_PTScorer):
    """PT-ERRANT: ERRANT edits read from a hypothesis M2 and a reference M2 (as ``errant_parallel``
    writes them), compared on (start, end, correction), weighted by BERTScore."""

    metric_name = "PT-ERRANT"

    def prepare(self, reference_m2: str | os.PathLike[str] | Sequence[Block]) -> PreparedCorpus:
        """Read the reference M2: per coder its edit keys and reference text."""
        blocks = _blocks(reference_m2)
        if not blocks:
            raise InputError("the reference M2 has no sentence")
        gold = [errant_keys_by_coder(block) for block in blocks]
        sources = [" ".join(block.tokens) for block in blocks]
        references = [[apply_edits_in_order(block.tokens, [(s, e, _replacement(c)) for s, e, c in keys])
                       for keys in coders.values()] for block, coders in zip(blocks, gold)]
        return self._finish_prepare(sources, gold, references, [])

    def statistics(self, prepared: PreparedCorpus,
                   hypothesis_m2: str | os.PathLike[str] | Sequence[Block]) -> np.ndarray:
        """Weighted (correct, proposed, gold, present) per sentence and coder, shape (D, A, 4)."""
        blocks = _blocks(hypothesis_m2)
        if len(blocks) != len(prepared.sources):
            raise InputError(f"the hypothesis M2 has {len(blocks)} sentences but the reference M2 has "
                             f"{len(prepared.sources)}")
        per_sentence = []
        for d, block in enumerate(blocks):
            if " ".join(block.tokens) != prepared.sources[d]:
                raise InputError(f"sentence {d + 1}: the hypothesis M2's source differs from the reference M2's",
                                 "hypothesis M2", block.line or None)
            system = [key for keys in errant_keys_by_coder(block).values() for key in keys]
            per_sentence.append([(system, match_keys_in_order(system, keys), keys)
                                 for keys in prepared.gold[d].values()])
        return self._rows(prepared, per_sentence)


def _replacement(correction: str) -> str:
    return "" if correction == "-NONE-" else correction


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
    authors' ``matchSeq`` of their ERRANT variant)."""
    correct = []
    next_index = 0
    for key in system:
        for index in range(next_index, len(gold)):
            if gold[index] == key:
                correct.append(key)
                next_index = index + 1
    return correct


def pt_m2_systems(gold_m2: str | os.PathLike[str] | Sequence[Block], systems: Mapping[str, Sequence[str]],
                  settings: PTSettings | None = None, engine: PTEngine | None = None) -> dict[str, PTScore]:
    """PT-M2 of several system outputs (name -> tokenized lines) against one gold M2, the
    gold side prepared once and every sentence encoded once over all systems."""
    scorer = PTM2(settings, engine)
    prepared = scorer.prepare(gold_m2)
    return {name: scorer.score(scorer.statistics(prepared, lines)) for name, lines in systems.items()}


def pt_errant_systems(reference_m2: str | os.PathLike[str] | Sequence[Block],
                      systems: Mapping[str, str | os.PathLike[str] | Sequence[Block]],
                      settings: PTSettings | None = None, engine: PTEngine | None = None) -> dict[str, PTScore]:
    """PT-ERRANT of several hypothesis M2 files (name -> path or blocks) against one reference M2."""
    scorer = PTErrant(settings, engine)
    prepared = scorer.prepare(reference_m2)
    return {name: scorer.score(scorer.statistics(prepared, m2)) for name, m2 in systems.items()}
