"""The base of the running-F metrics (M2, ERRANT, ChERRANT, PT): a metric base beside
:mod:`.ngram`, not a family. Their statistics are per-sentence counts of every candidate
annotator (or annotator pair), and the corpus result keeps, sentence by sentence, the candidate
that maximizes the running corpus F (:mod:`gecmetrics.core.fscore`). A paired test redoes that
choice inside every resample (:class:`gecmetrics.core.running_f.RunningFResampler`)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Sequence

import numpy as np

from ..core import fscore
from ..core.table import scaled_number
from ..kinds import M2
from .base import Metric
from .results import CorpusSums, PRFResult, SentenceScores, Signature, check_joined_parts


@dataclass(repr=False)
class CountsResult(PRFResult):
    """The result of an M2-family metric: P, R, F-beta of the chosen candidates' totals, and the
    per-sentence candidates (``counts`` (D, P, 3), ``available``, ``chosen``, ``candidates``:
    the names :class:`~gecmetrics.metrics.m2.maxmatch.M2Result` and ERRANT's result share)."""

    precision: float
    recall: float
    f: float
    totals: tuple[int, int, int]
    counts: np.ndarray
    available: np.ndarray
    chosen: np.ndarray
    candidates: np.ndarray
    signature: Signature
    settings: dict = field(default_factory=dict)

    def to_dict(self, scale: float = 1.0) -> dict[str, Any]:
        return {"precision": scaled_number(self.precision, scale), "recall": scaled_number(self.recall, scale),
                "f": scaled_number(self.f, scale),
                "counts": list(self.totals), "signature": str(self.signature), "settings": self.settings}


class RunningFMetric(Metric):
    """Base of the M2 family: gold M2 references, scores printed as fractions, statistics of
    shape (D, P, 5) (:data:`fscore.STATISTICS_WIDTH`) reduced by the running-F choice."""

    reference_kind = M2
    scale = 1.0
    rule: ClassVar[fscore.ChoiceRule]
    label: ClassVar[str] = ""
    result_class: ClassVar[type] = CountsResult

    def choice(self) -> fscore.RunningChoice:
        return fscore.RunningChoice(self.rule, self.settings.beta)

    @property
    def sentence_average(self) -> bool:
        """SentM2 / SentERRANT (the ``sentence_average`` setting): the mean of the sentence F,
        each sentence against its own best candidate, instead of the corpus F."""
        return bool(getattr(self.settings, "sentence_average", False))

    @property
    def independent_sentences(self) -> bool:  # type: ignore[override]
        """Only the sentence average scores a sentence alone (against its own best candidate);
        the running-F choice of a sentence depends on the counts of the sentences before it."""
        return self.sentence_average

    def signature_name(self) -> str:
        """The label, ``Sent`` before it for the sentence average (``SentM2``, ``SentERRANT``)."""
        return ("Sent" if self.sentence_average else "") + self.label

    def corpus_sums(self, statistics: Any, column: int = 0) -> CorpusSums:
        """The running-F choice over the sentences in order and the chosen counts' totals; with
        the sentence average, each sentence's best candidate and the sums (added in sentence
        order, as gec-metrics adds them) of their F, P and R, with the sentence count."""
        data = fscore.candidate_counts(statistics)
        if self.sentence_average:
            from ..core.sentence_average import best_candidates

            chosen, precision, recall, f = best_candidates(data, self.rule, self.settings.beta)
            total = np.array([sum(values.tolist()) for values in (f, precision, recall)] + [len(data)],
                             dtype=np.float64)
            return CorpusSums(total, chosen, {"data": data})
        chosen, totals = self.choice().corpus(data)
        return CorpusSums(totals, chosen, {"data": data})

    def score_from_sums(self, sums: np.ndarray, column: int = 0) -> np.ndarray:
        """F-beta of summed counts (..., 3), as the scorer reports it (unrounded); with the
        sentence average, the mean F of summed (F, P, R, sentences) (0 without sentences)."""
        if self.sentence_average:
            sums = np.asarray(sums, dtype=np.float64)
            return np.where(sums[..., 3] > 0, sums[..., 0] / np.maximum(sums[..., 3], 1), 0.0)
        return self.rule.scores(sums, self.settings.beta)[2]

    def details(self, statistics: Any, sums: list[CorpusSums]) -> dict[str, Any]:
        """P and R (the means over sentences with the sentence average), the chosen
        candidates' totals, and per sentence every candidate's counts, which exist, which was
        chosen and their ids (the names :class:`CountsResult` has)."""
        part = sums[0]
        data, chosen = part.extra["data"], part.chosen
        ids = np.asarray(statistics)[..., fscore.CANDIDATE] if not isinstance(statistics, fscore.CandidateCounts) \
            else data.rank
        if self.sentence_average:
            totals = data.counts[np.arange(len(data)), chosen].sum(axis=0)
            count = part.total[3]
            precision, recall = (float(part.total[k] / count) if count else 0.0 for k in (1, 2))
        else:
            totals = part.total
            precision, recall, _ = self.rule.scores(totals, self.settings.beta)
        return {"precision": precision, "recall": recall, "totals": tuple(int(x) for x in totals),
                "counts": data.counts, "available": data.available, "chosen": chosen, "candidates": ids}

    def resampler(self, column: int = 0, references: int = 1):
        self.check_resampler_arguments(column, references)
        if self.sentence_average:
            from ..core.sentence_average import SentenceMeanResampler

            return SentenceMeanResampler(self.rule, self.settings.beta, self.signature_name(), self.signature)
        from ..core.running_f import RunningFResampler

        return RunningFResampler(self.rule.name, self.settings.beta, self.label, self.signature)

    def sentence_from_statistics(self, statistics: Any, start: Sequence[int] = (0, 0, 0)) -> "SentenceCounts":
        """Per-sentence P/R/F with the candidate the corpus choice kept for that sentence
        (``start``: the counts of the sentences before these, for a corpus read in chunks: the
        choice of a sentence depends only on the sentences before it); with the sentence
        average, each sentence's own best candidate."""
        statistics = self.check_statistic_values(statistics)
        data = fscore.candidate_counts(statistics)
        if self.sentence_average:
            from ..core.sentence_average import best_candidates

            chosen = best_candidates(data, self.rule, self.settings.beta)[0]
            totals = np.asarray(start, dtype=np.int64) + data.counts[np.arange(len(data)), chosen].sum(axis=0)
        else:
            chosen, totals = self.choice().corpus(data, start)
        rows = data.counts[np.arange(len(data)), chosen]
        precision, recall, f = self.rule.scores(rows, self.settings.beta)
        return SentenceCounts(np.atleast_1d(f), np.atleast_1d(precision), np.atleast_1d(recall), rows, chosen,
                              self.signature, totals)

    def alone_matrix(self, statistics: Any) -> np.ndarray:
        """Each sentence as a corpus of one sentence, all at once: its candidate chosen from
        counts of zero (the running choice's first step), then that candidate's F."""
        if self.independent_sentences:
            return super().alone_matrix(statistics)
        self.require_sentence_scores()
        data = fscore.candidate_counts(statistics)
        rows = data.counts[np.arange(len(data)), self.choice().alone(data)]
        return np.asarray(self.rule.scores(rows, self.settings.beta)[2], dtype=np.float64).reshape(1, -1)


class SentenceCounts(SentenceScores):
    """Sentence scores of an M2-family metric: F (``scores``), P and R per sentence, the counts
    of the chosen candidate and which candidate it was."""

    def __init__(self, scores: np.ndarray, precision: np.ndarray, recall: np.ndarray, counts: np.ndarray,
                 chosen: np.ndarray, signature: str, totals: np.ndarray) -> None:
        self.scores, self.precision, self.recall = scores, precision, recall
        self.counts, self.chosen, self.signature = counts, chosen, signature
        self.totals = totals
        """The running counts after these sentences (``start`` of the next chunk)."""

    @classmethod
    def joined(cls, parts: Sequence["SentenceCounts"]) -> "SentenceCounts":
        """The sentence scores of consecutive chunks as one (the totals: the last chunk's; of one
        run: check_joined_parts)."""
        parts = check_joined_parts(parts)
        return cls(*(np.concatenate([getattr(p, name) for p in parts])
                     for name in ("scores", "precision", "recall", "counts", "chosen")),
                   parts[0].signature, parts[-1].totals)
