"""SentM2 and SentERRANT: the running-F metrics' sentence-averaged F-beta (the ``sentence_average``
setting of :class:`~gecmetrics.metrics.m2.maxmatch.M2Scorer` and
:class:`~gecmetrics.metrics.m2.compare.ErrantCompare`; registry names ``sentm2`` and ``senterrant``).

The SEEDA meta-evaluation (Kobayashi et al., 2024) and gec-metrics (github gotutiyan/gec-metrics,
``ERRANT.score_sentence`` averaged by ``MetricBaseForReferenceBased.score_corpus``) score a
system by the mean over sentences of its sentence F-beta, each sentence against its best
candidate (annotator, or annotator pair): the highest (F, TP, -FP, -FN), the first on ties. A
sentence's P is 1 when it has no FP, R is 1 when it has no FN, F is 0 when P + R is 0 (the
rules of :func:`gecmetrics.core.fscore.precision_recall_f`). gec-metrics has no M2 scorer;
SentM2 applies the same rule to the M2 scorer's counts.

The statistics are those of the corpus scores (per-sentence candidate counts); only the reducer
differs, and the choice depends on the sentence alone, so a paired test resamples the sentence
F values (:class:`SentenceMeanResampler`).
"""
from __future__ import annotations

import numpy as np

from .resampling import LinearResampler
from .fscore import CandidateCounts, ChoiceRule, candidate_counts, precision_recall_f


def best_candidates(data: CandidateCounts, rule: ChoiceRule, beta: float
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per sentence the candidate with the highest (F, TP, -FP, -FN) of the sentence alone (the
    lowest rank on ties): (chosen, its P, its R, its F), each of shape (D,)."""
    tp, fp, fn = (np.asarray(x, dtype=np.float64) for x in rule.to_tp_fp_fn(data.counts))
    precision, recall, f = (np.asarray(x, dtype=np.float64).reshape(tp.shape)
                            for x in precision_recall_f(tp, fp, fn, beta))
    best = data.available.copy()
    for key in (f, tp, -fp, -fn):
        values = np.where(best, key, -np.inf)
        best &= values == values.max(axis=1, keepdims=True, initial=-np.inf)
    chosen = np.where(best, data.rank, np.iinfo(np.int64).max).argmin(axis=1) if len(data) else \
        np.zeros(0, dtype=np.int64)
    rows = np.arange(len(data))
    return chosen, precision[rows, chosen], recall[rows, chosen], f[rows, chosen]


def ordered_mean(values: np.ndarray) -> float:
    """The mean as gec-metrics takes it, ``sum(scores) / len(scores)``: added in order (same
    bits); 0 for no sentence."""
    return sum(np.asarray(values, dtype=np.float64).tolist()) / len(values) if len(values) else 0.0


class SentenceMeanResampler(LinearResampler):
    """Paired tests of a sentence average: the rows are (sentence F, 1), a resample's score is
    their sum's ratio; the corpus score is the mean added in order, as reported."""

    def __init__(self, rule: ChoiceRule, beta: float, label: str, signature: str) -> None:
        self.rule, self.beta = rule, beta
        super().__init__(self.sentence_rows, lambda sums: sums[..., 0] / np.maximum(sums[..., 1], 1), label,
                         signature)

    def sentence_rows(self, statistics: np.ndarray) -> np.ndarray:
        f = best_candidates(candidate_counts(statistics), self.rule, self.beta)[3]
        return np.stack([f, np.ones_like(f)], axis=1)

    def score(self, prepared: np.ndarray) -> float:
        return ordered_mean(prepared[:, 0])
