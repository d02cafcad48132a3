"""GREEN (Koyama et al. 2024): an n-gram F-score over source, reference and correction.

Each n-gram's counts (s, r, c) split into seven regions (SPEC 3.1); TP, FP and FN per order
are sums of regions; the score is the F-beta of cumulative geometric-mean precision and
recall over orders 1..N, with the best reference chosen per sentence and per beta.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from ...core.aggregate import best_reference, by_sentence_blocks, select
from ...core.backend import compiled
from ...core.checks import check_count
from ..results import CorpusSums, Result, SentenceScores, Signature, check_joined_parts, shown_score
from ..settings import parse_betas, setting
from ...core.ngrams import EncodedCorpus, EncodedText
from ...core.table import number_label, scaled_number
from ..ngram import NgramMetric, NgramSettings

REGIONS = ("tk", "td", "ti", "od", "oi", "ud", "ui")
"""true keep/delete/insert, over delete/insert, under delete/insert."""


def regions(sigma: np.ndarray, rho: np.ndarray, eta: np.ndarray) -> np.ndarray:
    """The seven region counts of each n-gram, shape (..., 7) (SPEC 3.1)."""
    s, r, c = sigma, rho, eta
    zero = np.zeros_like(s)
    return np.stack([
        np.minimum(np.minimum(s, r), c),                   # tk
        np.maximum(zero, s - np.maximum(r, c)),            # td
        np.maximum(zero, np.minimum(r, c) - s),            # ti
        np.maximum(zero, np.minimum(s, r) - c),            # od
        np.maximum(zero, c - np.maximum(s, r)),            # oi
        np.maximum(zero, np.minimum(s, c) - r),            # ud
        np.maximum(zero, r - np.maximum(s, c)),            # ui
    ], axis=-1)


def sentence_regions(encoded: EncodedCorpus, hypothesis: EncodedText, reference: int, order: int) -> np.ndarray:
    """Region counts of one hypothesis against one reference, summed per sentence: (D, 7).

    TK and TI are 0 for an n-gram the hypothesis lacks, TD and OD are max(0, s - r) and
    min(s, r) there: so they are sums over the hypothesis's n-grams plus (for TD, OD) sums
    over the source and reference n-grams that every hypothesis shares. The other three
    follow from the n-gram counts of each side, since per n-gram TK+TD+OD+UD = s,
    TK+TI+OD+UI = r and TK+TI+OI+UD = c.
    """
    tk, ti, td_changed = hypothesis_region_sums(encoded, hypothesis, reference, order)
    td = encoded.reference_sums(reference, order, "green:td", lambda s, r: np.maximum(s - r, 0)) + td_changed
    od = encoded.reference_sums(reference, order, "green:od", np.minimum) - tk
    ud = encoded.source.ngram_counts(order) - tk - td - od
    ui = encoded.references[reference].ngram_counts(order) - tk - ti - od
    oi = hypothesis.ngram_counts(order) - tk - ti - ud
    return np.stack([tk, td, ti, od, oi, ud, ui], axis=1)


def hypothesis_region_sums(encoded: EncodedCorpus, hypothesis: EncodedText, reference: int,
                           order: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per sentence, over the hypothesis's n-grams: TK, TI and what the hypothesis changes of
    TD. Where the hypothesis has an n-gram, TD = max(0, s - max(r, c)) instead of max(0, s - r):
    the difference is min(s, r) - min(s, max(r, c)); OD = max(0, min(s, r) - c) instead of
    min(s, r): the difference is -min(min(s, r), c), which is -TK. In one compiled loop where the
    C extension is in use (``region_sums``), else in NumPy (the reference the tests hold it to)."""
    if encoded.encoder.compiled:
        sums = compiled.region_sums(*encoded.hypothesis_places(hypothesis, order, reference))
        tk, ti, td = np.frombuffer(sums, np.int64).reshape(-1, 3).T
        return tk, ti, td
    t = encoded.hypothesis_triples(hypothesis, reference, order)
    s, r, c = t.sigma, t.rho, t.eta
    shared = np.minimum(s, r)  # OD of an n-gram the hypothesis lacks
    return (t.per_sentence(np.minimum(shared, c)), t.per_sentence(np.maximum(np.minimum(r, c) - s, 0)),
            t.per_sentence(shared - np.minimum(s, np.maximum(r, c))))


def true_false(region_counts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """TP = TK + TD + TI, FP = OD + OI, FN = UD + UI, over the last axis of region counts."""
    tp = region_counts[..., 0] + region_counts[..., 1] + region_counts[..., 2]
    fp = region_counts[..., 3] + region_counts[..., 4]
    fn = region_counts[..., 5] + region_counts[..., 6]
    return tp, fp, fn


def alpha_of(beta: float) -> float:
    """F = 1 / (alpha/P + (1-alpha)/R) with alpha = 1/(beta^2+1); beta = inf gives alpha 0."""
    return 0.0 if math.isinf(beta) else 1 / (beta ** 2 + 1)


def f_score(precision: np.ndarray, recall: np.ndarray, alpha: float) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        f = 1 / (alpha / precision + (1 - alpha) / recall)
    return np.where((precision == 0) | (recall == 0), 0.0, f)


@dataclass
class OrderScores:
    """Per-order precision, recall, F and their cumulative (orders 1..n) versions."""

    precision: np.ndarray
    recall: np.ndarray
    f: np.ndarray
    cumulative_precision: np.ndarray
    cumulative_recall: np.ndarray
    cumulative_f: np.ndarray


def precision_recall(region_counts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per-order P and R of region counts of shape (..., N, 7), and their cumulative
    (geometric mean over orders 1..k) versions: what does not depend on beta (SPEC 3.2)."""
    tp, fp, fn = true_false(np.asarray(region_counts, dtype=np.float64))
    with np.errstate(divide="ignore", invalid="ignore"):
        precision = np.where(tp + fp > 0, tp / (tp + fp), 1.0)
        recall = np.where(tp + fn > 0, tp / (tp + fn), 0.0)
        orders = np.arange(1, precision.shape[-1] + 1)
        cumulative_precision = np.exp(np.cumsum(np.log(precision), axis=-1) / orders)
        cumulative_recall = np.exp(np.cumsum(np.log(recall), axis=-1) / orders)
    return precision, recall, cumulative_precision, cumulative_recall


def order_scores(region_counts: np.ndarray, alpha: float) -> OrderScores:
    """Scores of region counts of shape (..., N, 7) (SPEC 3.2)."""
    precision, recall, cumulative_precision, cumulative_recall = precision_recall(region_counts)
    return OrderScores(precision, recall, f_score(precision, recall, alpha), cumulative_precision,
                       cumulative_recall, f_score(cumulative_precision, cumulative_recall, alpha))


@dataclass(repr=False)
class GREENResult(Result):
    """Corpus GREEN for each beta (scores are fractions)."""

    @property
    def score(self) -> float:
        """The score of the first beta."""
        return float(self.scores[0])

    betas: list[float]
    scores: np.ndarray
    """Shape (B,): F(1..N) for each beta."""
    regions: np.ndarray
    """Shape (B, N, 7): region counts per beta (references are chosen per beta)."""
    chosen_references: np.ndarray
    """Shape (B, D)."""
    signature: str
    settings: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.scores = np.asarray(self.scores, dtype=np.float64)

    def headline(self) -> str:
        """Each beta's score: ``GREEN b0.5 = 41.20, b2 = 38.77``."""
        return "GREEN " + ", ".join(f"b{beta_label(beta)} = {shown_score(float(score))}"
                                    for beta, score in zip(self.betas, self.scores))

    def orders(self, beta_index: int = 0) -> OrderScores:
        """The per-order scores of the beta at ``beta_index`` (0 to the number of betas - 1)."""
        index = check_count(beta_index, "beta_index (the place of a beta in "
                            f"{', '.join(beta_label(b) for b in self.betas)})", 0, len(self.betas) - 1)
        return order_scores(self.regions[index], alpha_of(self.betas[index]))

    def to_dict(self, scale: float = 1.0) -> dict[str, Any]:
        """The scores (x``scale``) and each column's region counts per order, in column order."""
        return {"scores": scaled_number(np.asarray(self.scores, dtype=np.float64), scale),
                "regions": [{name: self.regions[k][:, j] for j, name in enumerate(REGIONS)}
                            for k in range(len(self.betas))],
                "settings": self.settings, "signature": self.signature}


@dataclass(repr=False)
class GREENSentenceScores(SentenceScores):
    """Sentence GREEN with the best reference: ``scores`` has shape (B, D)."""

    betas: list[float]
    scores: np.ndarray
    chosen_references: np.ndarray
    signature: Signature

    @property
    def mean(self) -> np.ndarray:
        """Mean over sentences per beta, shape (B,)."""
        return self.scores.mean(axis=1) if self.scores.shape[1] else np.zeros(len(self.betas))

    @classmethod
    def joined(cls, parts: Sequence["GREENSentenceScores"]) -> "GREENSentenceScores":
        """The scores of consecutive chunks of sentences as one (of one run: check_joined_parts)."""
        parts = check_joined_parts(parts)
        return cls(parts[0].betas, np.concatenate([p.scores for p in parts], axis=1),
                   np.concatenate([p.chosen_references for p in parts], axis=1), parts[0].signature)


def beta_label(beta: float) -> str:
    """How a beta is written in headers and signatures: ``0.5``, ``2``, ``inf``."""
    return number_label(beta)


@dataclass(frozen=True)
class GREENSettings(NgramSettings):
    beta: tuple[float, ...] = setting((2.0,), "F-beta weight(s) of recall, one column each; 'inf' gives recall",
                                      parse_betas, ("b",), flags=("-b", "--beta"), signature="beta")


class GREEN(NgramMetric):
    """GREEN: ``GREEN(n=4, beta=2.0, unit="word")``; ``beta`` may be a list (one count pass,
    one score column per beta)."""

    name = "green"
    label = "GREEN"
    settings_class = GREENSettings
    column_setting = "beta"
    result_class = GREENResult
    positional = ("n", "beta", "unit", "normalize_space")

    @property
    def betas(self) -> list[float]:
        return list(self.settings.beta)

    @property
    def statistics_width(self) -> int:
        return self.settings.n * len(REGIONS)

    def text_statistics(self, encoded: EncodedCorpus, hyp: EncodedText) -> np.ndarray:
        """Region counts, shape (D, R, N * 7) (order-major: orders 1..N, each 7 regions)."""
        n_refs, n = len(encoded.references), self.settings.n
        stats = np.zeros((encoded.size, n_refs, n, len(REGIONS)), dtype=np.int64)
        for r in range(n_refs):
            for order in range(1, n + 1):
                stats[:, r, order - 1] = sentence_regions(encoded, hyp, r, order)
        return stats.reshape(encoded.size, n_refs, n * len(REGIONS))

    def region_counts(self, stats: np.ndarray) -> np.ndarray:
        """Statistics reshaped to (..., N, 7)."""
        return stats.reshape(*stats.shape[:-1], self.settings.n, len(REGIONS))

    def sentence_f(self, stats: np.ndarray, beta: float) -> np.ndarray:
        """Cumulative F(1..k) for k = 1..N of each row, shape (..., N)."""
        return order_scores(self.region_counts(stats), alpha_of(beta)).cumulative_f

    def best_references(self, stats: np.ndarray, beta: float) -> np.ndarray:
        """Per sentence, the reference maximizing [F(1..N), ..., F(1..1)]; ties: first."""
        return best_reference(self.sentence_f(stats, beta)[..., ::-1])

    def score_from_sums(self, sums: np.ndarray, column: int = 0) -> np.ndarray:
        """Corpus F(1..N) of summed statistics (..., N*7) -> (...), for the column's beta."""
        return self.sentence_f(sums, self.betas[column])[..., -1]

    def rows(self, stats: np.ndarray, column: int = 0) -> np.ndarray:
        """Per sentence, the best reference's row for the column's beta (SPEC 3.3)."""
        return select(stats, self.best_references(stats, self.betas[column]))

    def _sentence_fs(self, stats: np.ndarray) -> list[np.ndarray]:
        """:meth:`sentence_f` for every beta, with P and R computed once."""
        _, _, cumulative_precision, cumulative_recall = precision_recall(self.region_counts(stats))
        return [f_score(cumulative_precision, cumulative_recall, alpha_of(beta)) for beta in self.betas]

    def corpus_sums(self, stats: np.ndarray, column: int = 0) -> CorpusSums:
        """The column's beta's best reference per sentence (SPEC 3.3), and its rows summed."""
        beta = self.betas[column]
        chosen = by_sentence_blocks(lambda rows: self.best_references(rows, beta), stats)
        return CorpusSums(select(stats, chosen).sum(axis=0), chosen)

    def best_references_per_beta(self, stats: np.ndarray) -> np.ndarray:
        """The best reference of each sentence for each beta, shape (B, D) (SPEC 3.3), with P and
        R computed once for every beta."""
        return by_sentence_blocks(lambda rows: np.stack([best_reference(f[..., ::-1]) for f in self._sentence_fs(rows)]),
                                  stats, axis=1)

    def column_sums(self, stats: np.ndarray) -> list[CorpusSums]:
        """Every beta's :meth:`corpus_sums`, the references chosen in one pass."""
        return [CorpusSums(select(stats, chosen).sum(axis=0), chosen) for chosen in self.best_references_per_beta(stats)]

    def details(self, stats: np.ndarray, sums: list[CorpusSums]) -> dict[str, Any]:
        """The region counts of every beta's chosen references (B, N, 7), and the choices (B, D)."""
        return {"betas": self.betas, "regions": self.region_counts(np.stack([part.total for part in sums])),
                "chosen_references": np.stack([part.chosen for part in sums])}

    def sentence_from_statistics(self, stats: np.ndarray) -> GREENSentenceScores:
        stats = self.check_statistic_values(stats)
        fs = self._sentence_fs(stats)
        chosen = np.stack([best_reference(f[..., ::-1]) for f in fs])
        scores = np.stack([select(f, c)[:, -1] for f, c in zip(fs, chosen)])
        return GREENSentenceScores(self.betas, scores, chosen, self.signature(stats.shape[1]))

    def settings_dict(self) -> dict:
        return {"metric": "GREEN", **self.settings.to_dict(), "betas": self.betas}

    def column_names(self) -> list[str]:
        return [" ".join([f"b{beta_label(beta)}", *self.settings.label_tokens()]) for beta in self.betas]

    def paired_label(self, column: int = 0) -> str:
        return f"GREEN beta={beta_label(self.betas[column])}"
