"""SentM2 and SentERRANT: sentence-averaged F-beta of the M2 scorer and of ERRANT.

The SEEDA meta-evaluation (Kobayashi et al., 2024) and gec-metrics (github gotutiyan/gec-metrics,
``ERRANT.score_sentence`` and ``MetricBaseForReferenceBased.score_corpus``) score a system by the
mean over sentences of its sentence F-beta, each sentence against its best reference: the one
with the highest (F, TP, -FP, -FN), the first on ties. A sentence's P is 1 when it has no FP,
R is 1 when it has no FN, and F is 0 when P + R is 0.

Both work on counts the corpus scorers already keep per sentence and annotator:
``M2Result.counts`` (D, A, 3) = correct, proposed, gold with ``annotator_mask`` (SentM2), and
``ErrantResult.pair_counts`` (D, P, 3) = TP, FP, FN with ``pair_available`` (SentERRANT).
gec-metrics has no M2 scorer; SentM2 applies the same rule to the M2 scorer's counts.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..errors import InputError


@dataclass
class SentenceAverageResult:
    """Mean sentence P, R, F-beta (the score is the mean F) and the per-sentence values."""

    score: float
    precision: float
    recall: float
    f: float
    beta: float
    sentence_precision: np.ndarray
    sentence_recall: np.ndarray
    sentence_f: np.ndarray
    chosen: np.ndarray
    """The annotator (or annotator pair) slot chosen for each sentence."""
    metric: str = "SentM2"

    @property
    def scores(self) -> dict[str, float]:
        return {"f": self.f, "precision": self.precision, "recall": self.recall}

    def to_dict(self) -> dict:
        return {"metric": self.metric, "score": self.score, **self.scores, "beta": self.beta,
                "sentences": int(len(self.sentence_f))}


def _check_beta(beta: object) -> float:
    if isinstance(beta, bool) or not isinstance(beta, (int, float, np.integer, np.floating)):
        raise InputError(f"beta must be a number, not {beta!r}")
    value = float(beta)
    if math.isnan(value) or value < 0:
        raise InputError(f"beta must be a non-negative number (inf for recall), not {value}")
    return value


def _check_counts(counts: np.ndarray, available: np.ndarray, what: str) -> tuple[np.ndarray, np.ndarray]:
    counts = np.asarray(counts)
    available = np.asarray(available, dtype=bool)
    if counts.ndim != 3 or counts.shape[2] != 3 or available.shape != counts.shape[:2]:
        raise InputError(f"{what} must be an array (sentences, slots, 3) with a mask (sentences, slots); "
                         f"got shapes {counts.shape} and {available.shape}")
    if counts.shape[0] and not available.any(axis=1).all():
        row = int(np.flatnonzero(~available.any(axis=1))[0])
        raise InputError(f"sentence {row + 1} has no annotator to score against")
    if (counts < 0).any():
        raise InputError(f"{what} must not be negative")
    return counts.astype(np.float64), available


def sentence_prf(tp: np.ndarray, fp: np.ndarray, fn: np.ndarray, beta: float
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Element-wise P, R, F-beta with gec-metrics' conventions (see the module docstring);
    beta = inf gives R."""
    with np.errstate(divide="ignore", invalid="ignore"):
        precision = np.where(fp == 0, 1.0, tp / (tp + fp))
        recall = np.where(fn == 0, 1.0, tp / (tp + fn))
        if math.isinf(beta):
            return precision, recall, recall.copy()
        square = beta ** 2
        denominator = square * precision + recall
        f = np.where((precision + recall > 0) & (denominator > 0),
                     (1 + square) * precision * recall / np.where(denominator > 0, denominator, 1.0), 0.0)
    return precision, recall, f


def best_slots(tp: np.ndarray, fp: np.ndarray, fn: np.ndarray, f: np.ndarray, available: np.ndarray) -> np.ndarray:
    """Per sentence the available slot with the highest (F, TP, -FP, -FN), the first on ties."""
    candidates = available.copy()
    for key in (f, tp, -fp, -fn):
        masked = np.where(candidates, key, -np.inf)
        candidates &= masked == masked.max(axis=1, initial=-np.inf)[:, None]
    return candidates.argmax(axis=1).astype(np.int64) if tp.shape[0] else np.zeros(0, dtype=np.int64)


def sentence_average(tp: np.ndarray, fp: np.ndarray, fn: np.ndarray, available: np.ndarray, beta: float,
                     metric: str) -> SentenceAverageResult:
    """Mean over sentences of the F-beta (and P, R) against each sentence's best slot."""
    precision, recall, f = sentence_prf(tp, fp, fn, beta)
    chosen = best_slots(tp, fp, fn, f, available)
    rows = np.arange(tp.shape[0])
    sentence_p, sentence_r, sentence_f = precision[rows, chosen], recall[rows, chosen], f[rows, chosen]
    # added in order and divided, as gec-metrics does (sum(scores) / len(scores)): same bits
    mean = (lambda values: sum(values.tolist()) / len(values) if len(values) else 0.0)
    return SentenceAverageResult(mean(sentence_f), mean(sentence_p), mean(sentence_r), mean(sentence_f), beta,
                                 sentence_p, sentence_r, sentence_f, chosen, metric)


def sent_m2(counts: np.ndarray, annotator_mask: np.ndarray, beta: float = 0.5) -> SentenceAverageResult:
    """SentM2 from ``M2Result.counts`` (correct, proposed, gold) and ``M2Result.annotator_mask``."""
    counts, available = _check_counts(counts, annotator_mask, "M2 counts")
    correct, proposed, gold = counts[..., 0], counts[..., 1], counts[..., 2]
    if ((correct > proposed) | (correct > gold)).any():
        raise InputError("M2 counts: correct edits cannot exceed proposed or gold edits")
    return sentence_average(correct, proposed - correct, gold - correct, available, _check_beta(beta), "SentM2")


def sent_errant(pair_counts: np.ndarray, pair_available: np.ndarray, beta: float = 0.5) -> SentenceAverageResult:
    """SentERRANT from ``ErrantResult.pair_counts`` (TP, FP, FN) and ``ErrantResult.pair_available``."""
    counts, available = _check_counts(pair_counts, pair_available, "ERRANT pair counts")
    return sentence_average(counts[..., 0], counts[..., 1], counts[..., 2], available, _check_beta(beta),
                            "SentERRANT")
