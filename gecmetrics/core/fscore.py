"""Edit counts to scores, written once for the M2 family: precision, recall and F-beta, and the
running-F choice of an annotator (or annotator pair) per sentence.

Both originals score a sentence against every annotator and keep, sentence by sentence in
corpus order, the one that maximizes the corpus F-score of the counts so far plus this
sentence's. They differ only in details, which are the parameters of a :class:`ChoiceRule`:

* ``ERRANT`` (``compare_m2``): counts are (TP, FP, FN); the F compared is the P/R form rounded
  to 4 decimals; ties: more TP, fewer FP, fewer FN, then the first pair tried.
* ``MAXMATCH`` (the NUS m2scorer): counts are (correct, proposed, gold); the F compared is
  ``(1 + b^2) c / (b^2 g + p)`` (1 when nothing is proposed, nothing is gold and nothing is
  correct); ties: more correct, fewer ``proposed + b^2 gold`` (cumulative), then the first.

The choice runs over N sequences at once (a corpus is N = 1, a paired bootstrap N resamples):
sequential over sentence positions, vectorized across sequences. The optional C extension
``gecmetrics.core._running`` walks the sequences of ERRANT's and the M2 scorer's rules with the
same double operations (:func:`compiled_running_enabled`): a paired bootstrap's resamples
(:mod:`.running_f`) and one corpus in its order (:meth:`RunningChoice.corpus`).
"""
from __future__ import annotations

import os
from types import ModuleType
from typing import Callable, Sequence

import math

import numpy as np

from ..errors import InputError
from .backend import ENVIRONMENT_VARIABLE

try:
    from . import _running as compiled  # type: ignore[attr-defined]
except ImportError:  # installed without a C compiler
    compiled: ModuleType | None = None  # type: ignore[no-redef]

COUNTS = 3
"""Counts per sentence and candidate: (TP, FP, FN) for ERRANT, (correct, proposed, gold) for MaxMatch."""


def f_beta(precision, recall, beta: float):
    """F-beta of precision and recall (numbers or arrays): ``(1 + b^2) P R / (b^2 P + R)``,
    0 where the denominator is 0; ``beta = inf`` gives R."""
    if np.isinf(beta):
        return recall
    beta2 = beta * beta
    with np.errstate(divide="ignore", invalid="ignore"):
        denominator = beta2 * np.asarray(precision, dtype=np.float64) + recall
        f = (1.0 + beta2) * np.asarray(precision, dtype=np.float64) * recall / np.where(denominator == 0, 1, denominator)
    f = np.where(denominator != 0, f, 0.0)
    return float(f) if f.ndim == 0 else f


def precision_recall_f(tp, fp, fn, beta: float):
    """P = TP / (TP + FP), 1 when FP = 0 (nothing wrong proposed); R = TP / (TP + FN), 1 when
    FN = 0 (nothing missed); F-beta of the two. Numbers or arrays."""
    tp, fp, fn = (np.asarray(x, dtype=np.float64) for x in (tp, fp, fn))
    with np.errstate(divide="ignore", invalid="ignore"):
        precision = np.where(fp != 0, tp / np.where(tp + fp == 0, 1, tp + fp), 1.0)
        recall = np.where(fn != 0, tp / np.where(tp + fn == 0, 1, tp + fn), 1.0)
    f = f_beta(precision, recall, beta)
    if precision.ndim == 0:
        return float(precision), float(recall), float(f)
    return precision, recall, f


def round_like_python(values: np.ndarray, digits: int) -> np.ndarray:
    """``round(x, digits)`` of Python for every element: NumPy's rounding goes through a scaled
    product and may fall on the other side of an exact half; those few entries are redone."""
    values = np.asarray(values, dtype=np.float64)
    rounded = np.round(values, digits)
    scaled = values * 10.0 ** digits
    near_half = np.abs(scaled - np.floor(scaled) - 0.5) < 1e-6
    if near_half.any():
        flat = rounded.reshape(-1)
        for position in np.flatnonzero(near_half.reshape(-1)):
            flat[position] = round(float(values.reshape(-1)[position]), digits)
    return rounded


class ScalarOps:
    """Arithmetic helpers for one sequence: Python numbers (fast for a single corpus)."""

    @staticmethod
    def where(condition, if_true, if_false):
        return if_true if condition else if_false

    @staticmethod
    def round4(value):
        return round(value, 4)


class ArrayOps:
    """The same helpers for N sequences at once: NumPy arrays (bootstrap resamples)."""

    where = staticmethod(np.where)

    @staticmethod
    def round4(value):
        return round_like_python(value, 4)


def _safe(ops, value):
    """The value, with 1 where it is 0 (a denominator whose result ``where`` discards)."""
    return ops.where(value == 0, 1, value)


def _errant_keys(ops, totals, local, beta: float) -> tuple:
    """ERRANT: the cumulative F rounded to 4 decimals, then more TP, fewer FP, fewer FN."""
    tp, fp, fn = totals[0] + local[0], totals[1] + local[1], totals[2] + local[2]
    precision = ops.where(fp != 0, tp / _safe(ops, tp + fp), 1.0)
    recall = ops.where(fn != 0, tp / _safe(ops, tp + fn), 1.0)
    if beta == math.inf:
        f = recall
    else:
        denominator = beta * beta * precision + recall
        f = ops.where(denominator != 0, (1.0 + beta * beta) * precision * recall / _safe(ops, denominator), 0.0)
    return (ops.round4(f), local[0], -local[1], -local[2])


def _maxmatch_keys(ops, totals, local, beta: float) -> tuple:
    """The M2 scorer: (1 + b^2) c / (b^2 g + p) of the cumulative counts (1 when all are 0),
    then more correct, then fewer cumulative proposed + b^2 gold."""
    correct, proposed, gold = totals[0] + local[0], totals[1] + local[1], totals[2] + local[2]
    if beta == math.inf:  # F is the recall
        return (ops.where(gold != 0, correct / _safe(ops, gold), 1.0), correct, -gold)
    denominator = beta * beta * gold + proposed
    f = ops.where(denominator == 0, ops.where(correct == 0, 1.0, 0.0),
                  (1 + beta * beta) * correct / _safe(ops, denominator))
    return (f, correct, -(proposed + beta * beta * gold))


class ChoiceRule:
    """How one original scorer turns counts into scores and compares annotators: ``keys(ops,
    totals, local, beta)`` gives the comparison keys of a candidate, most significant first,
    from the counts so far and the candidate's own (Python numbers or arrays, see ``ops``)."""

    whole_counts = True
    """Whether its counts are whole numbers >= 0 (checked by :func:`candidate_counts`); PT-M2's
    are weighted."""

    def __init__(self, name: str, to_tp_fp_fn: Callable[[np.ndarray], tuple], keys: Callable[..., tuple]) -> None:
        self.name, self.to_tp_fp_fn, self.keys = name, to_tp_fp_fn, keys

    def scores(self, counts, beta: float):
        """P, R, F-beta of counts (..., 3), as the scorer reports them (unrounded)."""
        return precision_recall_f(*self.to_tp_fp_fn(np.asarray(counts)), beta)


ERRANT = ChoiceRule("errant", lambda c: (c[..., 0], c[..., 1], c[..., 2]), _errant_keys)
MAXMATCH = ChoiceRule("maxmatch", lambda c: (c[..., 0], c[..., 1] - c[..., 0], c[..., 2] - c[..., 0]), _maxmatch_keys)
RULES = {rule.name: rule for rule in (ERRANT, MAXMATCH)}
_NO_RANK = np.iinfo(np.int64).max
_RULE_CODES = {id(ERRANT): 0, id(MAXMATCH): 1}
"""The rules the C extension knows (others, such as PT-M2's, run in NumPy)."""


def compiled_running_enabled(choice: "RunningChoice | None" = None) -> bool:
    """Whether the running-F choice runs in the C extension: built, not disabled by
    ``GECMETRICS_NUMPY_CORE`` (the NumPy and Python reference then runs), and (given a
    ``choice``) one of the rules the extension knows."""
    return compiled is not None and os.environ.get(ENVIRONMENT_VARIABLE, "") in ("", "0") and \
        (choice is None or id(choice.rule) in _RULE_CODES)


class CandidateCounts:
    """The statistics of an M2-family scorer: per sentence and candidate (annotator, or
    annotator pair), ``counts[d, p]`` (3 numbers, see :data:`COUNTS`), ``available[d, p]``
    (whether candidate p exists in sentence d) and ``rank[d, p]`` (its position in the
    sentence's trial order: exact ties go to the lowest rank). Counts are integers, or float64
    weights (PT-M2 weighs each edit), kept as they are."""

    __slots__ = ("counts", "available", "rank")

    def __init__(self, counts: np.ndarray, available: np.ndarray, rank: np.ndarray) -> None:
        counts = np.asarray(counts)
        self.counts = counts.astype(np.float64 if np.issubdtype(counts.dtype, np.floating) else np.int64, copy=False)
        self.available = np.asarray(available, dtype=bool)
        self.rank = np.asarray(rank, dtype=np.int64)
        if self.counts.ndim != 3 or self.counts.shape[2] != COUNTS or self.available.shape != self.counts.shape[:2] \
                or self.rank.shape != self.counts.shape[:2]:
            raise ValueError("counts must be (D, P, 3) and available, rank (D, P)")
        if len(self.counts) and not self.available.any(axis=1).all():
            raise ValueError("every sentence needs at least one available candidate")

    def __len__(self) -> int:
        return self.counts.shape[0]

    def take(self, rows: np.ndarray) -> "CandidateCounts":
        return CandidateCounts(self.counts[rows], self.available[rows], self.rank[rows])


def checked_choice_arguments(counts, available, beta, what: str) -> tuple[np.ndarray, np.ndarray, float]:
    """The arguments of a public running-F choice (``choose_pairs``, ``choose_annotators``)
    checked: counts (D, P, 3) of finite numbers >= 0, ``available`` (D, P) with a candidate in
    every sentence, beta a number >= 0 or inf (nan made the choice loop forever); an InputError
    naming ``what`` otherwise."""
    from .checks import check_beta_number

    if isinstance(counts, (str, bytes)) or counts is None:
        raise InputError(f"{what}: counts must be an array (D, P, 3) of numbers, got {type(counts).__name__}")
    try:
        array = np.asarray(counts)
    except (TypeError, ValueError) as error:
        raise InputError(f"{what}: counts must be an array (D, P, 3) of numbers ({error})") from None
    if array.dtype.kind not in "iuf" or array.ndim != 3 or array.shape[2] != COUNTS:
        raise InputError(f"{what}: counts must be an array (D, P, 3) of numbers, got shape {array.shape} "
                         f"of {array.dtype}")
    if (array.dtype.kind == "f" and not np.isfinite(array).all()) or (array < 0).any():
        raise InputError(f"{what}: counts must be finite numbers >= 0")
    mask = np.asarray(available)
    if mask.dtype.kind not in "biu" or mask.shape != array.shape[:2] or \
            (mask.dtype.kind != "b" and not np.isin(mask, (0, 1)).all()):
        raise InputError(f"{what}: the available candidates must be a boolean array of shape {array.shape[:2]} "
                         f"(D, P), got shape {mask.shape} of {mask.dtype}")
    mask = mask.astype(bool)
    if len(mask) and not mask.any(axis=1).all():
        raise InputError(f"{what}: sentence {int(np.argmin(mask.any(axis=1))) + 1} has no available candidate")
    return array, mask, check_beta_number(beta, f"{what}: beta")


class RunningChoice:
    """The running-F choice of one rule and beta, over N sequences of sentence rows at once."""

    def __init__(self, rule: ChoiceRule | str, beta: float) -> None:
        self.rule = RULES[rule] if isinstance(rule, str) else rule
        self.beta = float(beta)

    def choose(self, totals: np.ndarray, local: np.ndarray, available: np.ndarray, rank: np.ndarray) -> np.ndarray:
        """Index of the chosen candidate per sequence: lexicographic max of the rule's keys,
        then the lowest rank. Shapes: totals (N, 3), local (N, P, 3), available/rank (N, P)."""
        best = available.copy()
        cumulative = [totals[:, None, k].astype(np.float64) for k in range(COUNTS)]
        with np.errstate(divide="ignore", invalid="ignore"):
            keys = self.rule.keys(ArrayOps, cumulative, [local[..., k].astype(np.float64) for k in range(COUNTS)],
                                  self.beta)
        for key in keys:
            values = np.where(best, key, -np.inf)
            best &= values == values.max(axis=1, keepdims=True)
        return np.where(best, rank, _NO_RANK).argmin(axis=1)

    def run(self, sequences: int, length: int, at: Callable[[int], tuple[np.ndarray, np.ndarray, np.ndarray]],
            chosen: np.ndarray | None = None, start: Sequence[int] = (0, 0, 0)) -> np.ndarray:
        """Totals (N, 3) after choosing at every position; ``at(i)`` gives (counts (N, P, 3),
        available (N, P), rank (N, P)) of position i; ``chosen`` (N, length) receives choices;
        ``start``: counts before the first position."""
        totals = np.tile(np.asarray(start, dtype=np.float64), (sequences, 1))  # exact for integer counts too
        rows = np.arange(sequences)
        for position in range(length):
            local, available, rank = at(position)
            picked = self.choose(totals, local, available, rank)
            if chosen is not None:
                chosen[:, position] = picked
            totals += local[rows, picked]
        return totals

    def corpus(self, data: CandidateCounts, start: Sequence[int] = (0, 0, 0)) -> tuple[np.ndarray, np.ndarray]:
        """The choice over one corpus in its own order: (chosen candidate per sentence, totals).
        The same rule as :meth:`choose`, on Python numbers (one sequence: no array overhead), or
        in the C extension (:func:`compiled_running_enabled`: the same double operations)."""
        if compiled_running_enabled(self) and len(data):
            return self._compiled_corpus(data, start)
        totals = [float(x) for x in start]
        chosen = np.zeros(len(data), dtype=np.int64)
        rule, beta = self.rule.keys, self.beta
        in_order = bool((data.rank == np.arange(data.rank.shape[1])).all()) if len(data) else True
        for d, (row, present, ranks) in enumerate(zip(data.counts.astype(np.float64).tolist(),
                                                      data.available.tolist(), data.rank.tolist())):
            order = range(len(row)) if in_order else sorted(range(len(row)), key=ranks.__getitem__)
            best_key, best = None, -1
            for p in order:
                if present[p]:
                    key = rule(ScalarOps, totals, row[p], beta)
                    if best_key is None or key > best_key:
                        best_key, best = key, p
            chosen[d] = best
            picked = row[best]
            totals = [totals[0] + picked[0], totals[1] + picked[1], totals[2] + picked[2]]
        return chosen, np.array(totals, dtype=data.counts.dtype)

    def _compiled_corpus(self, data: CandidateCounts, start: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
        chosen, totals = compiled.corpus(
            _RULE_CODES[id(self.rule)], self.beta, np.ascontiguousarray(data.counts, dtype=np.float64),
            np.ascontiguousarray(data.available, dtype=np.uint8), np.ascontiguousarray(data.rank, dtype=np.int64),
            data.counts.shape[0], data.counts.shape[1], tuple(float(x) for x in start))
        return (np.frombuffer(chosen, dtype=np.int64).copy(),
                np.frombuffer(totals, dtype=np.float64).astype(data.counts.dtype))

    def alone(self, data: CandidateCounts) -> np.ndarray:
        """The candidate chosen for each sentence as a corpus of one sentence: the choice of
        :meth:`choose` from counts of zero, for every sentence at once."""
        return self.choose(np.zeros((len(data), COUNTS)), data.counts, data.available, data.rank)

    def final_score(self, totals: np.ndarray) -> np.ndarray:
        """F of totals (..., 3) as the scorer reports it (unrounded)."""
        return self.rule.scores(totals, self.beta)[2]


# ----------------------------------------------------------------------------- statistics rows

STATISTICS_WIDTH = COUNTS + 2
"""M2-family statistics: shape (D, P, 5) per hypothesis, for each sentence and candidate (in the
sentence's trial order): the 3 counts, whether the candidate exists (0/1), and its id (the
annotator id, or an encoded annotator pair). Absent candidates are rows of zeros, so chunks
with different numbers of candidates concatenate by padding."""
AVAILABLE, CANDIDATE = COUNTS, COUNTS + 1


def candidate_counts(statistics, whole: bool = True) -> CandidateCounts:
    """The statistics as :class:`CandidateCounts` (trial order = column order); a
    CandidateCounts passes through. Their counts must be whole numbers >= 0 unless ``whole`` is
    False (PT's weighted counts)."""
    if isinstance(statistics, CandidateCounts):
        return statistics
    stats = np.asarray(statistics)
    if stats.ndim != 3 or stats.shape[2] != STATISTICS_WIDTH:
        raise InputError(f"M2-family statistics must have shape (D, P, {STATISTICS_WIDTH}), got {stats.shape}",
                         "statistics")
    counts = stats[..., :COUNTS]
    if whole and not whole_counts(counts):  # (a paired test scored negated counts as F 0.909)
        raise InputError("M2-family statistics hold counts that are not whole numbers >= 0")
    rank = np.broadcast_to(np.arange(stats.shape[1]), stats.shape[:2])
    return CandidateCounts(counts, stats[..., AVAILABLE] != 0, rank)


def whole_counts(counts: np.ndarray) -> bool:
    """Whether an array holds counts: finite whole numbers >= 0 (an empty one does); the one test
    of :func:`candidate_counts` and of :meth:`~gecmetrics.metrics.base.Metric.score`."""
    if not counts.size:
        return True
    if counts.dtype.kind in "ui":
        return bool(counts.min() >= 0)
    if counts.dtype.kind != "f":
        return False
    with np.errstate(invalid="ignore"):
        return bool(np.isfinite(counts).all() and counts.min() >= 0 and (counts == np.floor(counts)).all())


def candidates_from_lists(rows: list[list[tuple[int, int, int, int]]]) -> np.ndarray:
    """Statistics from per-sentence lists of (count, count, count, candidate id), padded."""
    width = max((len(row) for row in rows), default=1) or 1
    absent = (0,) * STATISTICS_WIDTH
    padded = [[(a, b, c, 1, identifier) for a, b, c, identifier in row] + [absent] * (width - len(row))
              for row in rows]
    return np.array(padded, dtype=np.int64).reshape(len(rows), width, STATISTICS_WIDTH)
