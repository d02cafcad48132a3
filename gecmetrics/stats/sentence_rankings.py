"""System rankings from metric sentence scores (Goto et al., 2025; gec-metrics'
``MetricBase.rank_systems`` with ``aggregation='expected_wins'`` or ``'trueskill'``).

Every sentence is a match between every pair of systems: on sentence d, system i beats system
j when its sentence score is higher (``higher_is_better=False``: lower), and equal scores are a
draw. gec-metrics' ``make_pairwise_scores`` does exactly this with Python's ``>`` and ``<``.
The matches are then turned into system scores by

* ``ew`` (Expected Wins, Bojar et al., 2011, as gec-metrics' ``run_expected_wins``): for each
  system the mean over the other systems of wins / (wins + losses) against that system, draws
  not counted. A pair that only ever drew contributes 0 (as ``EW.py`` and
  :func:`gecmetrics.stats.rankings.expected_wins_of_counts` do; gec-metrics divides by zero);
* ``ts`` (TrueSkill, as gec-metrics' ``run_trueskill``): every system starts at mu 0, sigma 0.5;
  beta 0.25, tau 0, draw probability 0.25; the matches update the ratings one after another,
  sentence by sentence and, within a sentence, the pairs (i, j), i < j, in the order of the
  systems given (``itertools.combinations``). TrueSkill depends on that order: the same scores
  with the systems listed differently give (slightly) different ratings, as in gec-metrics,
  whose meta-evaluations list the systems in a fixed order (SEEDA's: code-point order of the
  names; GJG15's: its Table 3 order, AMU RAC CAMB ...). The score
  is the final mu.

Sentence scores are never averaged here: only their order within a sentence counts.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import numpy as np

from ..errors import InputError, plural
from ..core.checks import check_flag
from ..io.text import check_system_names
from .rankings import (
    TS_DRAW_PROBABILITY,
    TS_SIGMA,
    TS_TAU,
    _OneVersusOne,
    _trueskill_module,
    expected_wins_of_counts,
    warn_if_undecided,
)

SENTENCE_RANKING_METHODS = ("ew", "ts")
TS_MU = 0.0
TS_BETA = 0.25
"""gec-metrics' fixed beta (the human TrueSkill of TS.py scales beta with the comparisons)."""
MIN_SYSTEMS = 2


@dataclass
class SentenceScoreRanking:
    """Systems ranked by the pairwise outcomes of their sentence scores."""

    method: str  # "ew" or "ts"
    systems: list[str]  # best first (equal scores: code-point order of the names)
    scores: dict[str, float]
    order: list[str]  # the systems in the order given (TrueSkill's match order)
    sentences: int
    higher_is_better: bool = True
    sigmas: dict[str, float] = field(default_factory=dict)  # TrueSkill: final sigma
    wins: np.ndarray = field(default=None, repr=False)  # (S, S) in ``order``: sentences i beat j
    draws: np.ndarray = field(default=None, repr=False)  # (S, S) in ``order``: sentences i and j drew

    def rank_of(self, system: str) -> int:
        """1-based rank of ``system`` (position in ``systems``)."""
        return self.systems.index(system) + 1

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (full precision)."""
        return {
            "method": self.method, "sentences": self.sentences, "higher_is_better": self.higher_is_better,
            "order": list(self.order),
            "systems": [{"system": s, "rank": k + 1, "score": self.scores[s],
                         **({"sigma": self.sigmas[s]} if s in self.sigmas else {})}
                        for k, s in enumerate(self.systems)],
            "wins": None if self.wins is None else self.wins.tolist(),
            "draws": None if self.draws is None else self.draws.tolist(),
        }


# --------------------------------------------------------------------------- inputs


def score_matrix(sentence_scores: Mapping[str, Sequence[float]] | np.ndarray,
                 systems: Sequence[str] | None = None) -> tuple[list[str], np.ndarray]:
    """The systems and a (systems, sentences) float64 matrix of their sentence scores.

    ``sentence_scores`` is {system: scores} (systems in the mapping's order unless ``systems``
    gives the order) or a 2-D array with one row per system (then ``systems`` names the rows);
    ``systems`` is a sequence of names, never one string (``"ab"`` is not systems a and b)."""
    if systems is not None:
        systems = check_system_names(systems)
    if isinstance(sentence_scores, Mapping):
        order = list(sentence_scores) if systems is None else systems
        missing = [s for s in order if s not in sentence_scores]
        if missing:
            raise InputError(f"no sentence scores for: {', '.join(map(str, missing))}")
        rows = []
        for name in order:
            rows.append(_numbers(sentence_scores[name], f"the sentence scores of {name} are not numbers"))
        shapes = {row.shape for row in rows}
        if len(shapes) > 1 or any(row.ndim != 1 for row in rows):
            raise InputError(f"sentence scores must be flat lists of one length for every system, got shapes "
                             f"{sorted(shapes)}")
        matrix = np.stack(rows) if rows else np.zeros((0, 0))
    else:
        matrix = _numbers(sentence_scores, "sentence scores must be numbers")
        if matrix.ndim != 2:
            raise InputError(f"a score matrix has one row per system and one column per sentence, got shape "
                             f"{matrix.shape}")
        if systems is None:
            raise InputError("name the systems (one per row of the score matrix)")
        order = systems
        if len(order) != matrix.shape[0]:
            raise InputError(f"{plural(len(order), 'system name')} "
                             f"for a score matrix of {plural(matrix.shape[0], 'row')}")
    if any(not isinstance(s, str) or not s for s in order):
        raise InputError("system names must be non-empty strings")
    if len(order) < MIN_SYSTEMS:
        raise InputError(f"a ranking needs at least {MIN_SYSTEMS} systems, got {len(order)}")
    if matrix.shape[1] == 0:
        raise InputError("no sentence scores (zero sentences)")
    bad = np.argwhere(~np.isfinite(matrix))
    if bad.size:
        system, sentence = (int(x) for x in bad[0])
        raise InputError(f"the sentence score of {order[system]} on sentence {sentence + 1} is not a finite number "
                         f"({matrix[system, sentence]})")
    return order, matrix


def _numbers(values: Any, message: str) -> np.ndarray:
    """Scores as float64: integers or floats only (a text such as "0.5", a bool or None is the
    InputError ``message``, never converted)."""
    try:
        array = np.asarray(values)
    except (TypeError, ValueError):
        raise InputError(message) from None
    if array.dtype.kind not in "iuf":
        raise InputError(message)
    return array.astype(np.float64, copy=False)


def _oriented(scores: np.ndarray, higher_is_better: bool) -> np.ndarray:
    check_flag(higher_is_better, "higher_is_better")
    return scores if higher_is_better else -scores


# --------------------------------------------------------------------------- pairwise outcomes


def pairwise_outcomes(scores: np.ndarray, higher_is_better: bool = True) -> np.ndarray:
    """(sentences, S, S) int8: [d, i, j] = 1 if system i beat j on sentence d, -1 if it lost,
    0 for a draw (and on the diagonal); gec-metrics' ``make_pairwise_scores`` as an array."""
    scores = _oriented(np.asarray(scores, dtype=np.float64), higher_is_better)
    by_sentence = scores.T  # (D, S)
    left, right = by_sentence[:, :, None], by_sentence[:, None, :]
    return (left > right).astype(np.int8) - (left < right).astype(np.int8)


def pairwise_counts(scores: np.ndarray, higher_is_better: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """(wins, draws), each (S, S): sentences on which i beat j, and on which they drew (the
    diagonal of draws is 0)."""
    scores = _oriented(np.asarray(scores, dtype=np.float64), higher_is_better)
    n = scores.shape[0]
    wins = np.zeros((n, n), dtype=np.int64)
    draws = np.zeros((n, n), dtype=np.int64)
    for i, j in itertools.combinations(range(n), 2):
        wins[i, j] = int(np.count_nonzero(scores[i] > scores[j]))
        wins[j, i] = int(np.count_nonzero(scores[i] < scores[j]))
        draws[i, j] = draws[j, i] = scores.shape[1] - wins[i, j] - wins[j, i]
    return wins, draws


# --------------------------------------------------------------------------- ratings


def expected_wins_of_scores(scores: np.ndarray, higher_is_better: bool = True) -> np.ndarray:
    """Expected Wins of each system (row of ``scores``) from its sentence-level wins."""
    wins, _ = pairwise_counts(scores, higher_is_better)
    return expected_wins_of_counts(wins)


def trueskill_of_scores(scores: np.ndarray, higher_is_better: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """TrueSkill (mu, sigma) of each system after every sentence's matches, in gec-metrics'
    order (sentence by sentence, pairs i < j in row order) and settings (see the module doc)."""
    trueskill = _trueskill_module()
    scores = _oriented(np.asarray(scores, dtype=np.float64), higher_is_better)
    n = scores.shape[0]
    env = trueskill.TrueSkill(mu=TS_MU, sigma=TS_SIGMA, beta=TS_BETA, tau=TS_TAU, draw_probability=TS_DRAW_PROBABILITY)
    updater = _OneVersusOne(env, trueskill.calc_draw_margin(TS_DRAW_PROBABILITY, 2, env))
    update = updater.update
    mu = [TS_MU] * n
    var = [TS_SIGMA ** 2] * n
    pairs = list(itertools.combinations(range(n), 2))
    first = np.array([i for i, _ in pairs])
    second = np.array([j for _, j in pairs])
    left, right = scores[first], scores[second]
    outcomes = ((left > right).astype(np.int64) - (left < right)).T.tolist()  # (D, pairs): 1, 0, -1
    for row in outcomes:
        for (i, j), outcome in zip(pairs, row):
            mu[i], var[i], mu[j], var[j] = update(mu[i], var[i], mu[j], var[j], outcome)
    return np.array(mu), np.sqrt(np.array(var))


def rank_by_sentence_scores(sentence_scores: Mapping[str, Sequence[float]] | np.ndarray, method: str = "ew",
                            systems: Sequence[str] | None = None, *,
                            higher_is_better: bool = True) -> SentenceScoreRanking:
    """Rank systems by the pairwise outcomes of their sentence scores: ``method`` ``ew``
    (Expected Wins) or ``ts`` (TrueSkill, whose result depends on the order of ``systems``:
    see the module doc). ``sentence_scores``: {system: scores} or a (systems, sentences) matrix."""
    if method not in SENTENCE_RANKING_METHODS:
        raise InputError(f"unknown ranking method {method!r}; choose one of: {', '.join(SENTENCE_RANKING_METHODS)}")
    order, matrix = score_matrix(sentence_scores, systems)
    wins, draws = pairwise_counts(matrix, higher_is_better)
    sigmas: dict[str, float] = {}
    if method == "ew":
        warn_if_undecided(wins, "sentence score")
        values = expected_wins_of_counts(wins)
    else:
        values, sigma = trueskill_of_scores(matrix, higher_is_better)
        sigmas = {name: float(s) for name, s in zip(order, sigma)}
    ranked = sorted(range(len(order)), key=lambda k: (-values[k], order[k]))
    return SentenceScoreRanking(method, [order[k] for k in ranked], {order[k]: float(values[k]) for k in ranked},
                                order, int(matrix.shape[1]), higher_is_better,
                                {order[k]: sigmas[order[k]] for k in ranked} if sigmas else {}, wins, draws)
