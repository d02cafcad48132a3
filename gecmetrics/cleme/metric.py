"""CLEME (Ye et al., EMNLP 2023) and CLEME2.0 (Ye et al., ACL 2025) on M2 input, in the shape of
the metric protocol: settings, ``prepare`` (the references, read once), ``statistics`` (per
sentence chunk counts by length, additive over sentences), ``score`` (a pure reducer) and
``sentence_scores``.

Reproduces THUKElab/CLEME (commit e90abea), ``main.py --metric cleme`` with its default weights
per level and assumption; CLEME2.0's scores with no weighting or with CLEME's length weighting
(its model-based similarity weighting needs bert-base-uncased and is not offered).
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Sequence

import numpy as np

from .. import __version__
from ..errors import InputError
from ..m2.format import Block, read_m2
from .scoring import (CORPUS_FACTORS, SENTENCE_FACTORS, AspectFactors, ChunkTotals, accuracy, aspects, category_counts,
                      check_beta, choose_aspects_corpus, choose_aspects_sentences, choose_prf_corpus,
                      choose_prf_sentences, chosen_totals, prf, slot_table)
from .chunking import SentenceChunks
from .statistics import (ASSUMPTIONS, PreparedReferences, chunk_statistics, hypothesis_targets, prepare_references,
                         sentence_partitions)
from .weighting import LengthWeighting, default_weighting

LEVELS = ("corpus", "sentence")


@dataclass(frozen=True)
class CLEMESettings:
    """What a CLEME score depends on. ``weighting`` None means the official default of the level
    and assumption (see :mod:`gecmetrics.cleme.weighting`); ``weighted`` False counts chunks."""

    assumption: str = "dependent"
    level: str = "corpus"
    weighted: bool = True
    beta: float = 0.5
    weighting: LengthWeighting | None = None

    def __post_init__(self) -> None:
        if self.assumption not in ASSUMPTIONS:
            raise InputError(f"unknown CLEME assumption {self.assumption!r} (choose dependent or independent)")
        if self.level not in LEVELS:
            raise InputError(f"unknown CLEME level {self.level!r} (choose corpus or sentence)")
        if not isinstance(self.weighted, bool):
            raise InputError(f"weighted must be True or False, not {self.weighted!r}")
        if self.weighting is not None and not isinstance(self.weighting, LengthWeighting):
            raise InputError(f"weighting must be a LengthWeighting, not {type(self.weighting).__name__}")
        object.__setattr__(self, "beta", check_beta(self.beta))

    @property
    def length_weighting(self) -> LengthWeighting | None:
        """The weighting in force (None when unweighted)."""
        if not self.weighted:
            return None
        return self.weighting or default_weighting(self.level, self.assumption)

    def _common_fields(self) -> list[str]:
        weights = "none" if not self.weighted else ("length-default" if self.weighting is None else "length-custom")
        return [f"assumption:{self.assumption}", f"level:{self.level}", f"weights:{weights}"]

    def signature_fields(self) -> list[str]:
        """The settings' part of the signature."""
        return [*self._common_fields(), f"beta:{self.beta:g}"]


@dataclass
class CLEMEResult:
    """CLEME's P, R, F-beta and accuracy with the chunk counts (or weight sums) behind them.

    At corpus level the scores come from the totals; at sentence level they are the means of
    the per-sentence rounded scores and the totals are those of the references chosen."""

    score: float
    precision: float
    recall: float
    f: float
    accuracy: float
    tp: float
    fp: float
    fn: float
    tn: float
    sentences: int
    chosen: np.ndarray
    bias: float | None
    settings: CLEMESettings
    signature: str

    @property
    def scores(self) -> dict[str, float]:
        return {"f": self.f, "precision": self.precision, "recall": self.recall, "accuracy": self.accuracy,
                "tp": self.tp, "fp": self.fp, "fn": self.fn, "tn": self.tn}

    def rounded(self, digits: int = 4) -> dict[str, float]:
        """The scores as CLEME prints them (Python's round)."""
        return {name: round(value, digits) for name, value in self.scores.items()}

    def to_dict(self) -> dict:
        return {"metric": "CLEME", "score": self.score, **self.scores, "sentences": self.sentences,
                "bias": self.bias, "settings": _settings_dict(self.settings), "signature": self.signature}


@dataclass
class CLEME2Result:
    """CLEME2.0's hit-, wrong-, under- and over-correction rates and their aggregate (the score),
    with the chunk counts (or weight sums) behind them."""

    score: float
    hit: float
    wrong: float
    under: float
    over: float
    aggregate: float
    tp: float
    fp: float
    fn: float
    tn: float
    fp_necessary: float
    fp_unnecessary: float
    sentences: int
    chosen: np.ndarray
    bias: float | None
    settings: CLEME2Settings
    signature: str

    @property
    def scores(self) -> dict[str, float]:
        return {"aggregate": self.aggregate, "hit": self.hit, "wrong": self.wrong, "under": self.under,
                "over": self.over, "tp": self.tp, "fp": self.fp, "fn": self.fn, "tn": self.tn,
                "fp_necessary": self.fp_necessary, "fp_unnecessary": self.fp_unnecessary}

    def rounded(self, digits: int = 4) -> dict[str, float]:
        return {name: round(value, digits) for name, value in self.scores.items()}

    def to_dict(self) -> dict:
        return {"metric": "CLEME2", "score": self.score, **self.scores, "sentences": self.sentences,
                "bias": self.bias, "settings": _settings_dict(self.settings), "signature": self.signature}


def _settings_dict(settings) -> dict:
    data = asdict(settings)
    weighting = settings.length_weighting
    data["weighting"] = None if weighting is None else weighting.to_dict()
    if "factors" in data:
        data["factors"] = asdict(settings.aspect_factors)
    return data


class _ChunkMetric:
    """What CLEME and CLEME2.0 share: references read once, chunk statistics per hypothesis."""

    name = "CLEME"

    def __init__(self, settings=None, **options) -> None:
        if settings is not None and options:
            raise InputError("give either a settings object or keyword options, not both")
        self.settings = settings if settings is not None else self.settings_class(**options)
        if not isinstance(self.settings, self.settings_class):
            raise InputError(f"settings must be {self.settings_class.__name__}, not {type(self.settings).__name__}")

    @property
    def signature(self) -> str:
        return "|".join([self.name, *self.settings.signature_fields(), f"version:{__version__}"])

    def prepare(self, references: Sequence[Block], name: str = "reference") -> PreparedReferences:
        """Read the reference M2 blocks once (shared by every hypothesis)."""
        return prepare_references(_check_blocks(references, name), name)

    def statistics(self, prepared: PreparedReferences, hypothesis: Sequence[Block], name: str = "hypothesis"
                   ) -> np.ndarray:
        """Chunk statistics rows of one hypothesis M2 (see :mod:`gecmetrics.cleme.statistics`)."""
        return chunk_statistics(self.partitions(prepared, hypothesis, name), self.settings.assumption,
                                prepared.max_references)

    def partitions(self, prepared: PreparedReferences, hypothesis: Sequence[Block], name: str = "hypothesis"
                   ) -> list[SentenceChunks]:
        """The chunk partition of every sentence (for the verbose chunk tables)."""
        if not isinstance(prepared, PreparedReferences):
            raise InputError(f"prepared must come from prepare(), not {type(prepared).__name__}")
        return sentence_partitions(prepared, hypothesis_targets(prepared, _check_blocks(hypothesis, name), name))

    def _table(self, statistics: np.ndarray):
        statistics = _check_statistics(statistics)
        counts, bias = category_counts(statistics, self.settings.length_weighting)
        return slot_table(counts, statistics), bias


@dataclass(frozen=True)
class CLEME2Settings(CLEMESettings):
    """CLEME's settings plus the factors of the aggregate score (None: the official default of
    the level, 0.45/0.35/0.15/0.05 corpus, 0.35/0.25/0.20/0.20 sentence). Beta is not used."""

    factors: AspectFactors | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.factors is not None and not isinstance(self.factors, AspectFactors):
            raise InputError(f"factors must be AspectFactors, not {type(self.factors).__name__}")

    @property
    def aspect_factors(self) -> AspectFactors:
        if self.factors is not None:
            return self.factors
        return CORPUS_FACTORS if self.level == "corpus" else SENTENCE_FACTORS

    def signature_fields(self) -> list[str]:
        factors = self.aspect_factors
        return [*self._common_fields(), f"factors:{factors.hit:g}/{factors.wrong:g}/{factors.under:g}/{factors.over:g}"]


class CLEME(_ChunkMetric):
    """CLEME's P / R / F-beta over chunks (F0.5 by default)."""

    name = "CLEME"
    settings_class = CLEMESettings

    def score(self, statistics: np.ndarray) -> CLEMEResult:
        """Corpus or sentence level scores (as the settings say) from statistics rows."""
        table, bias = self._table(statistics)
        beta = self.settings.beta
        if self.settings.level == "corpus":
            totals, chosen = choose_prf_corpus(table, beta)
            precision, recall, f = prf(totals.tp, totals.fp, totals.fn, beta)
            acc = accuracy(totals.tp, totals.fp, totals.fn, totals.tn)
        else:
            chosen, per_sentence = choose_prf_sentences(table, beta)
            totals = chosen_totals(table, chosen)
            f, precision, recall, acc = (float(np.average(per_sentence[:, k])) if len(table) else 0.0
                                         for k in range(4))
        return CLEMEResult(f, precision, recall, f, acc, totals.tp, totals.fp, totals.fn, totals.tn, len(table), chosen,
                           bias, self.settings, self.signature)

    def sentence_scores(self, statistics: np.ndarray) -> np.ndarray:
        """Per sentence (F, P, R, accuracy) against its best reference, rounded as CLEME does:
        an array (D, 4) whose column means are the sentence-level scores."""
        table, _ = self._table(statistics)
        return choose_prf_sentences(table, self.settings.beta)[1]


class CLEME2(_ChunkMetric):
    """CLEME2.0's disentangled scores: hit-correction (HC), wrong-correction (WC),
    under-correction (UC), over-correction (OC) and their weighted aggregate."""

    name = "CLEME2"
    settings_class = CLEME2Settings

    def score(self, statistics: np.ndarray) -> CLEME2Result:
        """Corpus or sentence level scores (as the settings say) from statistics rows."""
        table, bias = self._table(statistics)
        factors = self.settings.aspect_factors
        if self.settings.level == "corpus":
            totals, chosen = choose_aspects_corpus(table, factors)
            values = aspects(totals.tp, totals.fn, totals.fp_necessary, totals.fp_unnecessary, factors)
        else:
            chosen, per_sentence = choose_aspects_sentences(table, factors)
            totals = chosen_totals(table, chosen)
            values = tuple(float(np.average(per_sentence[:, k])) if len(table) else 0.0 for k in range(5))
        hit, wrong, under, over, aggregate = values
        return CLEME2Result(aggregate, hit, wrong, under, over, aggregate, totals.tp, totals.fp, totals.fn, totals.tn,
                            totals.fp_necessary, totals.fp_unnecessary, len(table), chosen, bias, self.settings,
                            self.signature)

    def sentence_scores(self, statistics: np.ndarray) -> np.ndarray:
        """Per sentence (hit, wrong, under, over, aggregate) against its best reference: (D, 5)."""
        table, _ = self._table(statistics)
        return choose_aspects_sentences(table, self.settings.aspect_factors)[1]


def _check_blocks(blocks: Sequence[Block], name: str) -> list[Block]:
    if isinstance(blocks, (str, bytes)) or not all(isinstance(block, Block) for block in blocks):
        raise InputError("expected a sequence of M2 blocks (gecmetrics.m2.Block); read files with read_m2", name)
    return list(blocks)


def _check_statistics(statistics: np.ndarray) -> np.ndarray:
    if not isinstance(statistics, np.ndarray) or statistics.ndim != 3 or statistics.shape[2] < 8:
        raise InputError("CLEME statistics must be the (sentences, slots, columns) array of statistics()")
    return statistics


def cleme_files(hypothesis_path: str, reference_path: str, metric: CLEME | CLEME2 | None = None
                ) -> CLEMEResult | CLEME2Result:
    """Score one hypothesis M2 file against a reference M2 file (a convenience for scripts)."""
    metric = metric or CLEME()
    prepared = metric.prepare(read_m2(reference_path), reference_path)
    return metric.score(metric.statistics(prepared, read_m2(hypothesis_path), hypothesis_path))


def result_json(result: CLEMEResult | CLEME2Result) -> str:
    """One JSON object of a result."""
    return json.dumps(result.to_dict(), ensure_ascii=False, indent=1)


__all__ = ["CLEME", "CLEME2", "CLEMESettings", "CLEME2Settings", "CLEMEResult", "CLEME2Result", "ChunkTotals",
           "cleme_files", "result_json"]
