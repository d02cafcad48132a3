"""CLEME (Ye et al., EMNLP 2023) and CLEME2.0 (Ye et al., ACL 2025) on M2 input, as metrics of
the protocol (:mod:`gecmetrics.metrics.base`): settings, ``prepare`` (the reference M2 of the
corpus, read once), ``statistics`` (per-sentence chunk counts by length, additive over
sentences), ``corpus_sums`` (the reference choice and the length weights of the corpus, a pure
reducer the base class's ``score`` scores), ``resampler`` (paired tests) and sentence scores.

Reproduces THUKElab/CLEME (commit e90abea), ``main.py --metric cleme`` with its default weights
per level and assumption; CLEME2.0's scores with no weighting or with CLEME's length weighting
(its model-based similarity weighting needs bert-base-uncased and is not offered).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Hashable, Sequence

import numpy as np

from ...io.corpus import Corpus
from ...errors import InputError
from ...io.m2 import blocks_name
from ...kinds import M2
from ..base import Metric, checked_corpus
from ..results import CorpusSums, OneScore, SentenceScores, Signature, check_joined_parts, shown_score
from ..settings import Settings, choice, parse_beta, parse_bool, parse_floats, setting, setting_label, unless
from ...core.lang import DEFAULT_LANGUAGE, language_class, parse_lang
from ...core.table import number_label, scaled_number
from .chunking import SentenceChunks, character_blocks
from .scoring import (CORPUS_FACTORS, SENTENCE_FACTORS, AspectFactors, ChunkTotals, accuracy, aspects, category_counts,
                      choose_aspects_corpus, choose_aspects_sentences, choose_prf_corpus, choose_prf_sentences,
                      chosen_totals, prf, slot_table)
from .statistics import (ASSUMPTIONS, ChunkStatistics, PreparedReferences, check_statistics, chunk_statistics,
                         hypothesis_targets, prepare_references, sentence_partitions)
from .weighting import LengthWeighting, default_weighting

LEVELS = ("corpus", "sentence")
CLEME_LANGUAGES = ("en", "zh")
_DEFAULT_WORDS = ("", "none", "default")


# ----------------------------------------------------------------------------- settings


def parse_weighting(name: str, value: Any) -> LengthWeighting | None:
    """Other length-weight curves: a :class:`LengthWeighting`, or none (the official ones)."""
    if value is None or (isinstance(value, str) and value.strip().lower() in _DEFAULT_WORDS):
        return None
    if isinstance(value, LengthWeighting):
        return value
    raise InputError(f"setting {name} must be a gecmetrics.metrics.cleme.LengthWeighting or none, got {value!r}")


def parse_factors(name: str, value: Any) -> AspectFactors | None:
    """CLEME2.0's factors: four finite numbers hit/wrong/under/over, >= 0, adding up to 1 (text
    ``0.45/0.35/0.15/0.05``, a sequence or an :class:`AspectFactors`), or None / ``none`` /
    ``default`` (the official ones per level); an empty text is an error, not the default."""
    if isinstance(value, str) and not value.strip():
        raise InputError(f"setting {name} is empty: give 4 numbers hit/wrong/under/over (e.g. 0.45/0.35/0.15/0.05) "
                         "or 'default'")
    if value is None or (isinstance(value, str) and value.strip().lower() in _DEFAULT_WORDS):
        return None
    if isinstance(value, AspectFactors):
        return value
    if isinstance(value, str) and "," in value and "/" not in value:  # ('must be a number' named no cause)
        raise InputError(f"setting {name} takes 4 numbers hit/wrong/under/over separated by '/' (e.g. "
                         f"0.45/0.35/0.15/0.05), got {value!r}")
    numbers = parse_floats(name, value)
    if len(numbers) != 4:
        raise InputError(f"setting {name} needs 4 numbers hit/wrong/under/over, got {value!r}")
    try:
        return AspectFactors(*numbers)
    except InputError as err:
        raise InputError(f"setting {name}: {err}") from None


parse_factors.takes_several = True  # type: ignore[attr-defined]  # '/' separates its numbers (registry)


def parse_cleme_lang(name: str, value: Any) -> str:
    """CLEME's languages: en (M2 tokens as given) or zh (ChERRANT's character-level M2, as the
    official ``--lang zho``)."""
    code = parse_lang(name, value)
    if code not in CLEME_LANGUAGES:
        raise InputError(f"{setting_label(name)}: CLEME reads the M2's tokens as they are (en) or ChERRANT's "
                         f"character-level M2 (zh), as the official CLEME's eng and zho; for {code!r} M2 use en")
    return code


parse_cleme_lang.choices = ("en", "zh")  # type: ignore[attr-defined]


@dataclass(frozen=True)
class ChunkSettings(Settings):
    """What CLEME and CLEME2.0 share: the language, the assumption, the level and the chunk weights."""

    lang: str = setting("en", "CLEME: en (M2 tokens as given) or zh (ChERRANT's character-level M2: the first edit "
                        "set of each target, as the official --lang zho reads it)", parse_cleme_lang, ("language",),
                        signature="lang", flags=("--lang",), shown=unless(DEFAULT_LANGUAGE))

    assumption: str = setting("dependent", "CLEME: dependent (each reference alone) or independent (all at once)",
                              choice(*ASSUMPTIONS), signature="assumption")
    level: str = setting("corpus", "CLEME: corpus (running choice of a reference) or sentence (mean of sentences)",
                         choice(*LEVELS), signature="level")
    weighted: bool = setting(True, "CLEME: length-weighted chunks (the official curves) or chunk counts", parse_bool)
    weighting: LengthWeighting | None = setting(None, "CLEME: other length-weight curves (Python only)",
                                                parse_weighting)

    def check(self) -> None:
        if self.weighting is not None and not self.weighted:
            raise InputError("CLEME: a weighting was given with weighted=false")

    @property
    def length_weighting(self) -> LengthWeighting | None:
        """The weighting in force (None when unweighted)."""
        if not self.weighted:
            return None
        return self.weighting or default_weighting(self.level, self.assumption)

    def weights_field(self) -> str:
        """How chunks weigh, for signatures: none, length, or the custom curves."""
        if not self.weighted:
            return "none"
        if self.weighting is None:
            return "length"
        curves = self.weighting.to_dict()
        return "length," + ",".join(f"{k}=" + "/".join(map(number_label, v)) for k, v in curves.items())

    def to_dict(self) -> dict[str, Any]:
        data = super().to_dict()
        data["weighting"] = None if self.weighting is None else self.weighting.to_dict()
        return data


@dataclass(frozen=True)
class CLEMESettings(ChunkSettings):
    beta: float = setting(0.5, "F-beta weight (inf = recall)", parse_beta, ("b",), flags=("-b", "--beta"),
                         signature="beta")


@dataclass(frozen=True)
class CLEME2Settings(ChunkSettings):
    """CLEME's settings (without beta) plus the factors of the aggregate score (none: the official
    ones of the level, 0.45/0.35/0.15/0.05 corpus, 0.35/0.25/0.20/0.20 sentence)."""

    factors: AspectFactors | None = setting(None, "CLEME2: hit/wrong/under/over factors of the aggregate",
                                            parse_factors, flags=("--factors",))

    @property
    def aspect_factors(self) -> AspectFactors:
        if self.factors is not None:
            return self.factors
        return CORPUS_FACTORS if self.level == "corpus" else SENTENCE_FACTORS

    def to_dict(self) -> dict[str, Any]:
        data = super().to_dict()
        factors = self.factors
        data["factors"] = None if factors is None else [factors.hit, factors.wrong, factors.under, factors.over]
        return data


# ----------------------------------------------------------------------------- results


class ChunkResult(OneScore):
    """What CLEME's and CLEME2.0's results share: every number by name (``values``), rounded as
    the official code prints them, and ``to_dict`` (the fractions scaled, the counts not)."""

    names: tuple[str, ...] = ()
    fractions: tuple[str, ...] = ()
    shown: tuple[tuple[str, str], ...] = ()
    """What the one-line ``str`` shows in brackets after the score: (name, label) pairs."""

    @property
    def score(self) -> float:
        return float(getattr(self, self.headline_field))

    def headline(self) -> str:
        """``CLEME F0.5 = 40.12 (P 45.00, R 28.71)``, ``CLEME2 = 60.10 (HC 30.00, ...)``."""
        beta = self.settings.get("beta") if isinstance(self.settings, dict) else None
        title = f"{self.name} F{number_label(beta)}" if isinstance(beta, (int, float)) else self.name
        more = ", ".join(f"{label} {shown_score(float(getattr(self, key)), rounds_to=self.rounds_to)}"
                         for key, label in self.shown)
        return f"{title} = {shown_score(self.score, rounds_to=self.rounds_to)}" + (f" ({more})" if more else "")

    @property
    def values(self) -> dict[str, float]:
        """Every number, by name (scores, then counts)."""
        return {name: float(getattr(self, name)) for name in self.names}

    def rounded(self, digits: int = 4) -> dict[str, float]:
        """The numbers as CLEME prints them (Python's round)."""
        return {name: round(value, digits) for name, value in self.values.items()}

    def to_dict(self, scale: float = 1.0) -> dict[str, Any]:
        values = {k: (scaled_number(v, scale) if k in self.fractions else v) for k, v in self.values.items()}
        return {"metric": self.signature.name, "score": scaled_number(self.score, scale), **values,
                "sentences": self.sentences, "bias": self.bias, "settings": self.settings,  # type: ignore[attr-defined]
                "signature": str(self.signature)}


@dataclass(repr=False)
class CLEMEResult(ChunkResult):
    """CLEME's P, R, F-beta (the score) and accuracy with the chunk counts (or weight sums) behind
    them. At corpus level the scores come from the totals; at sentence level they are the means
    of the per-sentence rounded scores and the totals are those of the references chosen."""

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
    signature: Signature
    settings: dict = field(default_factory=dict)

    names = ("f", "precision", "recall", "accuracy", "tp", "fp", "fn", "tn")
    fractions = ("f", "precision", "recall", "accuracy")
    headline_field = "f"
    shown = (("precision", "P"), ("recall", "R"))


@dataclass(repr=False)
class CLEME2Result(ChunkResult):
    """CLEME2.0's hit-, wrong-, under- and over-correction rates and their aggregate (the score),
    with the chunk counts (or weight sums) behind them."""

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
    signature: Signature
    settings: dict = field(default_factory=dict)

    names = ("aggregate", "hit", "wrong", "under", "over", "tp", "fp", "fn", "tn", "fp_necessary", "fp_unnecessary")
    fractions = ("aggregate", "hit", "wrong", "under", "over")
    headline_field = "aggregate"
    shown = (("hit", "HC"), ("wrong", "WC"), ("under", "UC"), ("over", "OC"))


class ChunkSentenceScores(SentenceScores):
    """Per-sentence scores of CLEME or CLEME2.0: ``scores`` (F, or the aggregate), every value
    by name in ``values`` (arrays (D,)), the reference slot of each sentence, the signature."""

    def __init__(self, values: dict[str, np.ndarray], headline: str, chosen: np.ndarray, signature: Signature) -> None:
        self.values, self.headline, self.chosen, self.signature = values, headline, chosen, signature
        self.scores = values[headline]

    @classmethod
    def joined(cls, parts: Sequence["ChunkSentenceScores"]) -> "ChunkSentenceScores":
        """The sentence scores of consecutive chunks as one (of one run: check_joined_parts)."""
        parts = check_joined_parts(parts)
        return cls({name: np.concatenate([p.values[name] for p in parts]) for name in parts[0].values},
                   parts[0].headline, np.concatenate([p.chosen for p in parts]), parts[0].signature)

    def to_dict(self, scale: float = 1.0) -> dict[str, Any]:
        """The headline's sentence scores, then every value's by name (x``scale``)."""
        return {**super().to_dict(scale), **{name: scaled_number(np.asarray(values, dtype=np.float64), scale)
                                             for name, values in self.values.items()}}


# ----------------------------------------------------------------------------- metrics


class ChunkMetric(Metric):
    """What CLEME and CLEME2.0 share: hypothesis and reference M2, the references read once per
    corpus, the chunk partition of a hypothesis computed once for every setting."""

    hypothesis_kind = M2
    reference_kind = M2
    scale = 1.0
    rounds_to = 4  # CLEME's round(x, 4) and tabulate's ".4f": the binary value rounded, ties to even
    label = "CLEME"
    count_statistics = True  # chunks and lengths (negative counts scored a number)
    signature_order = ("assumption", "level", "weights", "lang")
    sentence_names: tuple[str, ...] = ()
    """The per-sentence values, in the order of :meth:`sentence_values`."""
    headline = ""
    """The one of them that is the score."""

    def choose(self, table: list) -> tuple[ChunkTotals, np.ndarray]:
        """The corpus level's running choice of a reference: (totals, slot per sentence)."""
        raise NotImplementedError

    def sentence_rows(self, table: list) -> tuple[np.ndarray, np.ndarray]:
        """The sentence level's choice: (slot per sentence, the values (D, len(sentence_names)))."""
        raise NotImplementedError

    def sentence_values(self, values: tuple[float, ...]) -> tuple[float, ...]:
        """The values of one sentence against one reference's counts."""
        raise NotImplementedError

    def sharing_key(self) -> Hashable:
        return ("cleme-references", self.settings.lang)

    @property
    def independent_sentences(self) -> bool:  # type: ignore[override]
        """A sentence's values depend on it alone only at sentence level (its own best reference)
        and unweighted: the corpus level's reference choice runs over the sentences before it,
        and the length weights' bias is the corpus's mean corrected chunk length."""
        return self.settings.level == "sentence" and not self.settings.weighted

    @property
    def m2_target_lines(self) -> bool:  # type: ignore[override]
        """Whether the language's M2 files have target lines (zh: ChERRANT's ``T`` lines)."""
        return language_class(self.settings.lang).m2_target_lines

    @property
    def token_delimiter(self) -> str:
        """How the chunk tables join tokens: a space, none for a character-level language (the
        official visualisation's for Chinese)."""
        return "" if language_class(self.settings.lang).character_level else " "

    def blocks(self, blocks: Sequence[Any], name: str) -> Sequence[Any]:
        """The M2 blocks as the language reads them: as they are (en), or for a character-level
        language (zh: ChERRANT's character M2) with each target's first edit set."""
        return character_blocks(blocks, name) if language_class(self.settings.lang).character_level else blocks

    def prepare(self, corpus: Corpus, group: Sequence[Any] = ()) -> PreparedReferences:
        """The corpus's reference M2 (``corpus.gold``), read once for every hypothesis."""
        corpus = checked_corpus(corpus, self.label, " whose gold M2 is the reference")
        if corpus.gold is None:
            raise InputError(f"{self.label} needs the reference M2 (the corpus's gold M2 blocks)")
        name = corpus.name("gold")
        return prepare_references(self.blocks(corpus.gold, name), name)

    def partitions(self, prepared: PreparedReferences, hypothesis: Sequence[Any], name: str | None = None
                   ) -> list[SentenceChunks]:
        """The chunk partition of every sentence (kept for the latest hypothesis: metrics of one
        group see each hypothesis in turn)."""
        self.check_prepared_kind(prepared, PreparedReferences)
        cached = prepared.latest
        if cached and cached[0] is hypothesis:
            return cached[1]
        name = blocks_name(hypothesis, name)
        partitions = sentence_partitions(prepared, hypothesis_targets(prepared, self.blocks(hypothesis, name), name))
        prepared.latest[:] = [hypothesis, partitions]
        return partitions

    def statistics(self, prepared: PreparedReferences, hypothesis: Sequence[Any], name: str | None = None
                   ) -> ChunkStatistics:
        """Chunk statistics rows of one hypothesis M2 (see :mod:`gecmetrics.metrics.cleme.statistics`)."""
        return chunk_statistics(self.partitions(prepared, hypothesis, name), self.settings.assumption,
                                prepared.max_references)

    def check_statistic_values(self, statistics: Any) -> Any:
        """As every metric's, and statistics of no sentence are refused as an empty array is."""
        if isinstance(statistics, ChunkStatistics) and not len(statistics):
            return super().check_statistic_values(np.asarray(statistics))
        return super().check_statistic_values(statistics)

    def alone_matrix(self, statistics: Any) -> np.ndarray:
        """Each sentence scored as a corpus of that sentence alone (rewards, edit attribution):
        at once, as the paired tests score their resamples (a one-row slice at a time cost 0.2 ms
        a sentence); where sentences are independent, their sentence scores."""
        if self.independent_sentences:
            return self.sentence_matrix(statistics)
        from .resampling import ChunkResampler, ChunkRows

        rows = ChunkRows(self.check_statistic_values(statistics))
        return ChunkResampler(self).alone_scores(rows)[None]

    def join_statistics(self, parts: Sequence[Any]) -> ChunkStatistics:
        """Consecutive chunks' statistics as one (:meth:`ChunkStatistics.joined`)."""
        return ChunkStatistics.joined([check_statistics(part) for part in parts])

    def slot_counts(self, statistics: ChunkStatistics) -> tuple[list, float | None]:
        """Per sentence the (TP, FP, FN, TN, FP necessary, FP unnecessary) of each reference slot,
        and the weighting bias (None unweighted)."""
        statistics = check_statistics(statistics)
        counts, bias = category_counts(statistics, self.settings.length_weighting)
        return slot_table(counts, statistics), bias

    def sentence_from_statistics(self, statistics: ChunkStatistics) -> ChunkSentenceScores:
        """Per sentence every score (CLEME: F, P, R, accuracy; CLEME2.0: HC, WC, UC, OC,
        aggregate): at sentence level the values whose means are the scores; at corpus level
        those of the reference the corpus choice kept."""
        statistics = self.check_statistic_values(statistics)
        table, _ = self.slot_counts(statistics)
        if self.settings.level == "sentence":
            chosen, rows = self.sentence_rows(table)
        else:
            chosen = self.choose(table)[1]
            rows = np.array([self.sentence_values(slots[k]) for slots, k in zip(table, chosen.tolist())],
                            dtype=np.float64).reshape(len(table), len(self.sentence_names))
        values = {name: rows[:, k] for k, name in enumerate(self.sentence_names)}
        return ChunkSentenceScores(values, self.headline, chosen, self.signature)

    def corpus_sums(self, statistics: ChunkStatistics, column: int = 0) -> CorpusSums:
        """Corpus level: the running choice of a reference, and the chosen counts' totals (TP,
        FP, FN, TN, FP necessary, FP unnecessary); sentence level: each sentence's best
        reference, and the sums of the sentences' values with their count. The length weights
        (and their bias) are the corpus's."""
        table, bias = self.slot_counts(statistics)
        if self.settings.level == "corpus":
            totals, chosen = self.choose(table)
            values = self.sentence_values(_counts(totals))
            total = np.array(_counts(totals), dtype=np.float64)
        else:
            chosen, per_sentence = self.sentence_rows(table)
            totals = chosen_totals(table, chosen)
            columns = [per_sentence[:, k] for k in range(len(self.sentence_names))]
            values = tuple(float(np.average(column)) if len(table) else 0.0 for column in columns)
            total = np.array([np.add.reduce(column) for column in columns] + [len(table)], dtype=np.float64)
        return CorpusSums(total, chosen, {"values": dict(zip(self.sentence_names, values)), "totals": totals,
                                          "bias": bias, "sentences": len(table)})

    def score_from_sums(self, sums: np.ndarray, column: int = 0) -> np.ndarray:
        """Corpus level, the score of summed chosen counts (TP, FP, FN, TN, FP necessary, FP
        unnecessary), shape (..., 6) -> (...); sentence level, the mean of the sentences' score
        from summed (values..., sentences) (0 without sentences). The reference choice and the
        length weights behind them are the corpus's: :meth:`corpus_sums` makes them."""
        sums = np.asarray(sums, dtype=np.float64)
        headline = self.sentence_names.index(self.headline)
        if self.settings.level == "sentence":
            return np.where(sums[..., -1] > 0, sums[..., headline] / np.maximum(sums[..., -1], 1), 0.0)
        return np.apply_along_axis(lambda row: self.sentence_values(tuple(row.tolist()))[headline], -1, sums)

    def details(self, statistics: ChunkStatistics, sums: list[CorpusSums]) -> dict[str, Any]:
        """Every number of the result but the score: the other values (P, R, accuracy; the
        rates), the chosen counts (or weight sums), the sentences, the choice and the bias."""
        part = sums[0]
        found = {**part.extra["values"], **vars(part.extra["totals"])}
        fields = {name: found[name] for name in self.result_class.names if name != self.headline}
        return {**fields, "sentences": part.extra["sentences"], "chosen": part.chosen, "bias": part.extra["bias"]}

    def resampler(self, column: int = 0, references: int = 1):
        """The reference choice and the length weights redone in every resample."""
        from .resampling import ChunkResampler

        self.check_resampler_arguments(column, references)
        return ChunkResampler(self)

    def signature_extra(self, references: int | None) -> list[tuple[str, str] | str]:
        """How chunks weigh (none, length, or the custom curves)."""
        return [*super().signature_extra(references), ("weights", self.settings.weights_field())]

    def label_tokens(self) -> list[str]:
        """The non-default settings in a column label."""
        s = self.settings
        flags = ((s.lang, s.lang != DEFAULT_LANGUAGE), ("indep", s.assumption == "independent"),
                 ("sent", s.level == "sentence"), ("unweighted", not s.weighted),
                 ("custom-weights", s.weighting is not None))
        return [token for token, on in flags if on]


class CLEME(ChunkMetric):
    """CLEME's P / R / F-beta over chunks (F0.5 by default)."""

    name = "cleme"
    settings_class = CLEMESettings
    result_class = CLEMEResult
    sentence_names = ("f", "precision", "recall", "accuracy")
    headline = "f"

    def choose(self, table: list) -> tuple[ChunkTotals, np.ndarray]:
        return choose_prf_corpus(table, self.settings.beta)

    def sentence_rows(self, table: list) -> tuple[np.ndarray, np.ndarray]:
        return choose_prf_sentences(table, self.settings.beta)

    def sentence_values(self, values: tuple[float, ...]) -> tuple[float, ...]:
        """Unrounded (F, P, R, accuracy) of one sentence's chosen counts."""
        precision, recall, f = prf(values[0], values[1], values[2], self.settings.beta)
        return f, precision, recall, accuracy(*values[:4])

    def column_names(self) -> list[str]:
        return [" ".join([f"F{number_label(self.settings.beta)}", *self.label_tokens()])]


class CLEME2(ChunkMetric):
    """CLEME2.0's disentangled scores: hit-correction (HC), wrong-correction (WC),
    under-correction (UC), over-correction (OC) and their weighted aggregate (the score)."""

    name = "cleme2"
    settings_class = CLEME2Settings
    label = "CLEME2"
    result_class = CLEME2Result
    sentence_names = ("hit", "wrong", "under", "over", "aggregate")
    headline = "aggregate"

    def choose(self, table: list) -> tuple[ChunkTotals, np.ndarray]:
        return choose_aspects_corpus(table, self.settings.aspect_factors)

    def sentence_rows(self, table: list) -> tuple[np.ndarray, np.ndarray]:
        return choose_aspects_sentences(table, self.settings.aspect_factors)

    def sentence_values(self, values: tuple[float, ...]) -> tuple[float, ...]:
        """(hit, wrong, under, over, aggregate) of one sentence's chosen counts."""
        return aspects(values[0], values[2], values[4], values[5], self.settings.aspect_factors)

    def signature_extra(self, references: int | None) -> list[tuple[str, str] | str]:
        """How chunks weigh, and the factors of the aggregate (the official ones of the level
        when none are given)."""
        f = self.settings.aspect_factors
        return [*super().signature_extra(references), ("factors", _factors_text(f))]

    def column_names(self) -> list[str]:
        f = self.settings.factors
        tokens = self.label_tokens() + ([] if f is None else [f"factors:{_factors_text(f)}"])
        return [" ".join(tokens)] if tokens else []


def _counts(totals: ChunkTotals) -> tuple[float, ...]:
    return totals.tp, totals.fp, totals.fn, totals.tn, totals.fp_necessary, totals.fp_unnecessary


def _factors_text(factors: Any) -> str:
    """CLEME2.0's four factors as signatures and labels write them: ``0.45/0.35/0.15/0.05``."""
    return "/".join(map(number_label, (factors.hit, factors.wrong, factors.under, factors.over)))
