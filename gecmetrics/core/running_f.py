"""The paired-test resampler of the running-F metrics (M2, ERRANT, ChERRANT, PT at corpus level):
the running-F annotator choice redone in every resample.

Each resample's choice is sequential over its sentence positions. The optional C extension
``gecmetrics.core._running`` walks every resample on its own with the same double operations (one
pass, no array per position); without it (or with ``GECMETRICS_NUMPY_CORE=1``)
:meth:`~gecmetrics.core.fscore.RunningChoice.run` goes position by position, vectorised across
resamples. Both give the same totals, hence the same scores."""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from .fscore import _RULE_CODES, CandidateCounts, RunningChoice, candidate_counts, compiled  # noqa: F401
from .fscore import compiled_running_enabled
from .resampling import Resample, Resampler, chunk_rows


class _CompiledData:
    """CandidateCounts laid out for the C extension: float64 counts, byte flags, int64 ranks."""

    def __init__(self, data: CandidateCounts) -> None:
        self.counts = np.ascontiguousarray(data.counts, dtype=np.float64)
        self.available = np.ascontiguousarray(data.available, dtype=np.uint8)
        self.rank = np.ascontiguousarray(data.rank, dtype=np.int64)
        self.rows, self.candidates = data.counts.shape[:2]

    def totals(self, choice: RunningChoice, rows: np.ndarray, mask: int = 0) -> np.ndarray:
        """Totals (N, 3) of the choice over sequences of rows (N, L): row numbers, or with
        ``mask`` +1 / -1 a keep-the-first-half mask (see _running.c)."""
        sequences, length = rows.shape
        out = compiled.run(_RULE_CODES[id(choice.rule)], choice.beta, self.counts, self.available, self.rank,
                           self.rows, self.candidates, rows, sequences, length, mask)
        return np.frombuffer(out, dtype=np.float64).reshape(sequences, 3)


class RunningFResampler(Resampler):
    """M2-family scorers: per sentence, the candidate maximizing the running corpus F (counts
    of the sentences before it in the resampled order plus its own), then the F of the totals
    (:mod:`gecmetrics.core.fscore`: ``rule`` 'errant' or 'maxmatch' with its own tie-breaks)."""
    def __init__(self, rule: str, beta: float = 0.5, label: str = "", signature: str = "") -> None:
        self.choice = RunningChoice(rule, beta)
        self.rule = self.choice.rule.name
        self.beta = self.choice.beta
        self.label = label or ("ERRANT" if self.rule == "errant" else "M2")
        self.signature = signature

    def prepare(self, statistics: Any) -> CandidateCounts:
        return candidate_counts(statistics, whole=self.choice.rule.whole_counts)

    def size(self, prepared: CandidateCounts) -> int:
        return len(prepared)

    def final_score(self, totals: np.ndarray) -> np.ndarray:
        """Corpus F of totals (..., 3) as the scorer reports it (unrounded)."""
        return self.choice.final_score(totals)

    def chosen_candidates(self, prepared: CandidateCounts) -> np.ndarray:
        """The candidate chosen for each sentence of the corpus in its own order, shape (D,)."""
        return self.choice.corpus(prepared)[0]

    def score(self, prepared: CandidateCounts) -> float:
        return float(self.final_score(self.choice.corpus(prepared)[1]))

    def bootstrap_scores(self, prepared: CandidateCounts, resample: Resample) -> np.ndarray:
        indices = resample.indices
        if compiled_running_enabled(self.choice) and len(prepared):
            data = _CompiledData(prepared)
            totals = np.empty((resample.samples, 3))
            step = chunk_rows(resample.size * 8, resample.samples)
            for start in range(0, resample.samples, step):
                rows = np.ascontiguousarray(indices[start:start + step], dtype=np.int64)
                totals[start:start + step] = data.totals(self.choice, rows)
            return self.final_score(totals)

        def at(position: int):
            rows = indices[:, position]
            return prepared.counts[rows], prepared.available[rows], prepared.rank[rows]

        return self.final_score(self.choice.run(resample.samples, resample.size, at))

    def swapped_scores(self, baseline: CandidateCounts, system: CandidateCounts,
                       keep_baseline: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        width = max(baseline.counts.shape[1], system.counts.shape[1])
        baseline, system = _widened(baseline, width), _widened(system, width)
        if compiled_running_enabled(self.choice) and len(baseline):
            both = _CompiledData(CandidateCounts(np.concatenate([baseline.counts, system.counts]),
                                                 np.concatenate([baseline.available, system.available]),
                                                 np.concatenate([baseline.rank, system.rank])))
            keep = np.ascontiguousarray(keep_baseline).view(np.uint8) if keep_baseline.dtype == bool \
                else np.ascontiguousarray(keep_baseline != 0).view(np.uint8)
            return (self.final_score(both.totals(self.choice, keep, 1)),
                    self.final_score(both.totals(self.choice, keep, -1)))

        def side(keep: np.ndarray):
            def at(position: int):
                take = keep[:, position]
                return (np.where(take[:, None, None], baseline.counts[position], system.counts[position]),
                        np.where(take[:, None], baseline.available[position], system.available[position]),
                        np.where(take[:, None], baseline.rank[position], system.rank[position]))
            return at

        trials, sentences = keep_baseline.shape
        scores_a = self.final_score(self.choice.run(trials, sentences, side(keep_baseline)))
        scores_b = self.final_score(self.choice.run(trials, sentences, side(~keep_baseline)))
        return scores_a, scores_b


def _widened(data: CandidateCounts, width: int) -> CandidateCounts:
    """The same candidates with absent ones appended up to ``width`` columns."""
    extra = width - data.counts.shape[1]
    if extra <= 0:
        return data
    d = len(data)
    return CandidateCounts(np.concatenate([data.counts, np.zeros((d, extra, 3), np.int64)], axis=1),
                           np.concatenate([data.available, np.zeros((d, extra), bool)], axis=1),
                           np.concatenate([data.rank, np.full((d, extra), np.iinfo(np.int64).max // 2)], axis=1))


def errant_candidates(results: Sequence[Any]) -> list[CandidateCounts]:
    """CandidateCounts of several ErrantResult objects over one common list of annotator pairs
    (columns in sorted pair order, ranks in each sentence's trial order)."""
    pairs = sorted({pair for result in results for pair in result.pairs})
    position = {pair: k for k, pair in enumerate(pairs)}
    out = []
    for result in results:
        sentences = len(result.counts)
        counts = np.zeros((sentences, len(pairs), 3), dtype=np.int64)
        available = np.zeros((sentences, len(pairs)), dtype=bool)
        rank = np.full((sentences, len(pairs)), len(pairs), dtype=np.int64)
        columns = np.array([position[pair] for pair in result.pairs], dtype=np.int64)
        counts[:, columns] = result.pair_counts
        available[:, columns] = result.pair_available
        for d, order in enumerate(result.candidate_order):
            rank[d, columns[order]] = np.arange(len(order))
        out.append(CandidateCounts(counts, available, rank))
    return out
