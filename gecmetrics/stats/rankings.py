"""Human system rankings from pairwise comparisons: Expected Wins, TrueSkill, rank clusters.

* Expected Wins (Bojar et al., 2013, as GJG15 use it): for each system the mean, over the other
  systems, of wins / (wins + losses) against that system; ties are not counted. ``plain`` is
  this number from all comparisons (GJG15's ``EW.pl``, which prints it at 4 decimals).
  ``bootstrap-mean`` is what GJG15's Makefile writes to ``EW.ranking.txt``: the mean of EW over
  R bootstrap resamples of the comparisons (``wmt-trueskill/EW.py``, R = 1000, then
  ``eval/cluster.py``); SEEDA's published EW files are that procedure's output.
* TrueSkill (Sakaguchi et al., 2014; ``wmt-trueskill/TS.py -n 2 -d 0``): see :func:`trueskill_scores`.
* Rank clusters (``eval/cluster.py -by-rank -i 0.95``): each system's rank in every resample
  (or run); its range is the central 95% of those ranks, and a cluster ends after a system whose
  worst rank is better than the best rank of every system below it.
"""
from __future__ import annotations

import inspect
import math
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np

from ..core.resampling import resamples_needed
from ..core.checks import check_count, check_fraction, check_keywords, check_progress, check_seed
from ..errors import InputError, plural
from ..io.judgments import Judgments, Pairwise
from ..io.text import check_sequence, check_system_names

EW_METHODS = ("plain", "bootstrap-mean")
RANKING_METHODS = ("ew", "ts")
DEFAULT_RESAMPLES = 1000
MAX_RESAMPLES = 100_000
"""Upper bound of the bootstrap resamples of Expected Wins (--bootstrap N): 100 times GJG15's
1,000. Each holds a win-count matrix (S x S cells: 16 systems, 2 KB), so at most a few hundred
MB; 2147483648 asked for terabytes."""
MAX_TS_RUNS = 10_000
"""Upper bound of the TrueSkill runs (--bootstrap N with --ranking ts): 10 times GJG15's
Makefile's 1,000; each run replays every comparison in Python (about a second on GJG15's)."""
DEFAULT_CONFIDENCE = 0.95
MIN_RANKED_SYSTEMS = 3


@dataclass(frozen=True)
class RankRange:
    """The central ``confidence`` share of a system's ranks over resamples, e.g. 2-4."""

    best: int
    worst: int

    def __str__(self) -> str:
        return str(self.best) if self.best == self.worst else f"{self.best}-{self.worst}"


@dataclass
class HumanRanking:
    """Human scores of systems, best first, with rank ranges and clusters when resampled."""

    method: str  # "ew" or "ts"
    procedure: str  # "plain", "bootstrap-mean" or "trueskill"
    systems: list[str]  # best first
    scores: dict[str, float]
    ranges: dict[str, RankRange] = field(default_factory=dict)
    clusters: list[list[str]] = field(default_factory=list)
    spread: dict[str, float] = field(default_factory=dict)  # std of the score over resamples/runs
    resamples: int = 0
    seed: int | None = None
    source: str = ""
    comparisons: int = 0
    samples: dict[str, np.ndarray] = field(default_factory=dict, repr=False)
    """Each system's score in every resample (EW) or run (TS), shape (R,): the human side of
    a judgment bootstrap of correlations (not in ``to_dict``)."""

    def sample_matrix(self, systems: Sequence[str]) -> np.ndarray | None:
        """The samples of ``systems`` (a sequence of ranked systems' names, each once: the
        matrix's columns in that order) as an (R, S) matrix, or None without resamples."""
        names = check_system_names(check_sequence(systems, "systems", "system names"))
        if not names:
            raise InputError("systems: no system named; give the systems whose samples are the matrix's columns",
                             "systems")
        unknown = [name for name in names if name not in self.scores]
        if unknown:
            raise InputError(f"systems: {unknown[0]!r} is not a system of this ranking; it ranks: "
                             f"{', '.join(self.systems)}")
        if not self.samples:
            return None
        return np.stack([self.samples[s] for s in names], axis=1)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (full precision)."""
        return {
            "method": self.method, "procedure": self.procedure, "source": self.source,
            "comparisons": self.comparisons, "resamples": self.resamples, "seed": self.seed,
            "systems": [{"system": s, "score": self.scores[s],
                         "range": str(self.ranges[s]) if s in self.ranges else None,
                         "spread": self.spread.get(s)} for s in self.systems],
            "clusters": [list(c) for c in self.clusters],
        }


# --------------------------------------------------------------------------- Expected Wins


def warn_if_undecided(wins: np.ndarray, what: str) -> None:
    """The warning for win counts (S, S) in which no pair of systems was ever decided (every
    comparison of ``what`` a tie): every Expected Wins score is then 0, EW.py's number, which
    looks like a ranking of systems that all lost."""
    if wins.shape[-1] > 1 and not np.any(wins):
        warnings.warn(f"no {what} tells any two systems apart (all ties): every Expected Wins score is 0, as EW.py "
                      "gives it, and their order (by name) says nothing")


def expected_wins_of_counts(wins: np.ndarray) -> np.ndarray:
    """Expected Wins of win-count matrices (..., S, S) -> (..., S): a pair never decided
    contributes 0 and still counts among the S - 1 opponents (as ``EW.py`` does)."""
    wins = np.asarray(wins, dtype=np.float64)
    n = wins.shape[-1]
    decided = wins + np.swapaxes(wins, -1, -2)
    with np.errstate(invalid="ignore", divide="ignore"):
        share = np.where(decided > 0, wins / np.where(decided > 0, decided, 1.0), 0.0)
    return share.sum(axis=-1) / (n - 1)


RESAMPLE_CELLS = 1 << 22
"""Win-count cells of resamples made at a time (32 MB as int64): resamples come in blocks of rows,
the same draws as all at once (NumPy's generator draws the rows of one call in turn)."""


def resample_blocks(resamples: int, width: int) -> list[tuple[int, int]]:
    """(first row, rows) of the blocks of ``resamples`` rows of ``width`` cells each, RESAMPLE_CELLS at a time."""
    rows = max(1, RESAMPLE_CELLS // max(1, width))
    return [(start, min(rows, resamples - start)) for start in range(0, resamples, rows)]


def pair_resample_wins(pairwise: Pairwise, resamples: int, seed: int) -> np.ndarray:
    """Expected Wins of every system in ``resamples`` bootstrap resamples of the comparisons, (R, S).

    Drawing P comparisons with replacement is a multinomial draw over the comparisons' cells
    (each decided (winner, loser) pair, plus one cell for all ties), so no P-long array is built;
    the (R, S, S) win counts are made a block of resamples at a time (100 systems and 10^5
    resamples would be 8 GB at once)."""
    n = len(pairwise.systems)
    cell_counts = np.bincount(pairwise.cells(), minlength=n * n + 1).astype(np.float64)
    probabilities = cell_counts / cell_counts.sum()
    rng = np.random.default_rng(seed)
    blocks = [expected_wins_of_counts(rng.multinomial(pairwise.size, probabilities, size=rows)[:, : n * n]
                                      .reshape(rows, n, n)) for _, rows in resample_blocks(resamples, n * n + 1)]
    return np.concatenate(blocks) if blocks else np.zeros((0, n))


def _check_resamples(resamples: int, confidence: float, maximum: int = MAX_RESAMPLES,
                     bound: str = "gecmetrics.stats.rankings.MAX_RESAMPLES",
                     what: str = "the number of bootstrap resamples (--bootstrap N)", minimum: int = 1) -> int:
    number = check_count(resamples, what, minimum, maximum, bound)
    check_fraction(confidence, "the confidence level")
    return number


def _refuse_idle_draw_options(seed: int, confidence: float) -> None:
    """Without resamples (plain Expected Wins, ``resamples=0``) nothing is drawn and no rank
    range is made: a seed or a confidence level other than the default would change nothing (the
    defaults are taken, as ``gecmetric rank`` and ``meta_evaluate_judgments`` pass them)."""
    idle = [name for name, changed in (("seed", seed != 0), ("confidence", confidence != DEFAULT_CONFIDENCE))
            if changed]
    if idle:
        raise InputError(f"{idle[0]} does nothing here: nothing is resampled with resamples=0 and procedure='plain' "
                         "(give resamples=N for rank ranges)")


def ranked_judgments(judgments: Judgments) -> Judgments:
    """The judgments of the systems a ranking places (:meth:`Judgments.compared`), with a
    warning naming those it leaves out (ranked alone in every item)."""
    compared = judgments.compared()
    if compared is not judgments:  # (the items are looked at again only when some system is left out)
        warnings.warn(judgments.uncompared_note())
    return compared


def _check_systems(judgments: Judgments) -> None:
    if len(judgments.systems) < MIN_RANKED_SYSTEMS:
        ranked = f": {', '.join(judgments.systems)}" if judgments.systems else ""
        raise InputError(f"a ranking needs at least {MIN_RANKED_SYSTEMS} systems compared with each other, the "
                         f"judgments rank {len(judgments.systems)}{ranked}", judgments.source)


def expected_wins(judgments: Judgments, procedure: str = "plain", resamples: int = DEFAULT_RESAMPLES,
                  seed: int = 0, confidence: float = DEFAULT_CONFIDENCE) -> HumanRanking:
    """Expected Wins of every system some comparison involves (:meth:`Judgments.compared`;
    ``procedure``: ``plain`` or ``bootstrap-mean``, see the module doc), with rank ranges and
    clusters from ``resamples`` bootstrap resamples of the comparisons (``resamples=0``: none,
    plain only; then ``seed`` and ``confidence``, which would change nothing, must stay at their
    defaults: another value is an InputError)."""
    if procedure not in EW_METHODS:
        raise InputError(f"unknown Expected Wins procedure {procedure!r}; choose one of: {', '.join(EW_METHODS)}")
    if not isinstance(judgments, Judgments):
        raise InputError(f"expected Judgments, got {type(judgments).__name__}")
    judgments = ranked_judgments(judgments)
    _check_systems(judgments)
    seed = check_seed(seed, "the seed of the bootstrap resamples (--seed)")
    resamples = _check_resamples(resamples, confidence, minimum=0 if procedure == "plain" else 1)
    if resamples == 0:
        _refuse_idle_draw_options(seed, confidence)
    pairwise = judgments.pairwise()
    counts = pairwise.win_counts()
    warn_if_undecided(counts, "judgment")
    plain = expected_wins_of_counts(counts)
    ranking = HumanRanking("ew", procedure, [], {}, seed=seed, source=judgments.source,
                           comparisons=pairwise.size)
    if resamples == 0:  # (plain: bootstrap-mean needs resamples)
        return _finish(ranking, list(judgments.systems), plain, None)
    boot = pair_resample_wins(pairwise, resamples, seed)
    scores = plain if procedure == "plain" else sample_means(boot)
    ranking.resamples = resamples
    return _finish(ranking, list(judgments.systems), scores, boot, confidence)


def sample_means(samples: np.ndarray) -> np.ndarray:
    """Each system's mean over the resamples or runs (R, S) -> (S,), summed as ``cluster.py``'s
    ``np.mean`` of the system's own list (pairwise summation): ``samples.mean(axis=0)`` adds
    the rows one after another, which can differ in the last bit and so in the printed digit
    (0.3975 against cluster.py's 0.39749999999999996, printed 0.398 against 0.397)."""
    samples = np.asarray(samples, dtype=np.float64)
    return np.array([np.mean(samples[:, k]) for k in range(samples.shape[1])])


def _warn_if_few_samples(samples: int, confidence: float) -> None:
    """Ranges from so few resamples (or runs) that none lies beyond a range's ends: with
    ``--bootstrap 1`` UFC was ranked 6th with the range "7", without a word (said by the library,
    so by ``expected_wins(resamples=1)`` too)."""
    needed = resamples_needed(confidence)
    if samples < needed:
        warnings.warn(f"the rank ranges come from only {plural(samples, 'resample')} (at least {needed} for a "
                      f"{100 * confidence:g}% range; GJG15 drew 1000): a system's own rank need not be in its range")


def _warn_of_ties(systems: Sequence[str], scores: np.ndarray) -> None:
    """Systems of equal scores get ranks, ranges and clusters of their own from their names (as
    ``cluster.py`` sorts them, the later name first): judgments of all ties gave six systems the
    ranges 1, 2, ..., 6 and six clusters, without a word."""
    groups: dict[float, list[str]] = {}
    for name, score in zip(systems, scores):
        groups.setdefault(float(score), []).append(name)
    tied = [names for names in groups.values() if len(names) > 1]
    if tied:
        shown = "; ".join(", ".join(names) for names in tied[:3]) + ("; ..." if len(tied) > 3 else "")
        warnings.warn(f"systems of equal scores ({shown}) are ranked by name (the later name first, as cluster.py "
                      "sorts), not by the judgments: their different ranges and clusters are no difference between "
                      "them")


def _finish(ranking: HumanRanking, systems: list[str], scores: np.ndarray, samples: np.ndarray | None,
            confidence: float = DEFAULT_CONFIDENCE) -> HumanRanking:
    """Fill in the order, scores and (with samples (R, S)) spread, ranges and clusters. A mean
    over samples (bootstrap-mean, TrueSkill) is listed as ``cluster.py`` prints it: by (mean,
    spread, name), all descending, so equal means put the wider spread, then the later name first.
    Plain scores are listed best first, equal ones by name; with rank ranges (samples), whose
    ranks put the later of equal names first (:func:`ranks_per_sample`), equal ones the later
    name first, as the ranges rank them (an all-tie A, B, C is listed C, B, A: ranks 1, 2, 3)."""
    if samples is not None:
        _warn_if_few_samples(len(samples), confidence)
        _warn_of_ties(systems, scores)
    order = sorted(range(len(systems)), key=lambda k: (-scores[k], systems[k]))
    if samples is not None and ranking.procedure == "plain":
        order = sorted(range(len(systems)), key=lambda k: (scores[k], systems[k]), reverse=True)
    elif samples is not None:
        spread = [float(np.std(samples[:, k])) for k in range(len(systems))]
        order = sorted(range(len(systems)), key=lambda k: (scores[k], spread[k], systems[k]), reverse=True)
    ranking.systems = [systems[k] for k in order]
    ranking.scores = {systems[k]: float(scores[k]) for k in order}
    if samples is not None:
        ranking.samples = {systems[k]: samples[:, k] for k in order}
        ranking.spread = {systems[k]: float(samples[:, k].std()) for k in order}
        ranges = rank_ranges(samples, systems, confidence)
        ranking.ranges = ranges
        ranking.clusters = clusters_of(ranking.systems, ranges)
    return ranking


def ranks_per_sample(samples: np.ndarray, systems: Sequence[str]) -> np.ndarray:
    """Each system's rank (1 = best) in each sample (R, S) -> (R, S); equal scores are ordered
    by name, later names first, as ``cluster.py`` sorts (score, name) in reverse."""
    samples = np.asarray(samples, dtype=np.float64)
    name_order = np.argsort(np.argsort(np.array(systems, dtype=object)))  # code-point rank of each name
    # lexsort: last key is primary; descending score, then descending name
    order = np.stack([np.lexsort((-name_order, -row)) for row in samples])
    ranks = np.empty_like(order)
    rows = np.arange(samples.shape[0])[:, None]
    ranks[rows, order] = np.arange(1, samples.shape[1] + 1)[None, :]
    return ranks


def rank_ranges(samples: np.ndarray, systems: Sequence[str],
                confidence: float = DEFAULT_CONFIDENCE) -> dict[str, RankRange]:
    """``cluster.py -by-rank``: drop ceil((R - R * confidence) / 2) ranks at each end of each
    system's sorted ranks; the range is the min and max of the rest."""
    ranks = np.sort(ranks_per_sample(samples, systems), axis=0)
    count = ranks.shape[0]
    alpha = int(math.ceil((count - count * 1.0 * confidence) / 2.0))
    kept = ranks[alpha:count - alpha] if alpha > 0 and count - 2 * alpha > 0 else ranks
    return {name: RankRange(int(kept[0, k]), int(kept[-1, k])) for k, name in enumerate(systems)}


def clusters_of(ordered: Sequence[str], ranges: dict[str, RankRange]) -> list[list[str]]:
    """Split systems (best first) where a system's worst rank is better than the best rank of
    every system after it (``cluster.py``'s ``check_boundary``)."""
    clusters: list[list[str]] = [[]]
    for position, system in enumerate(ordered):
        clusters[-1].append(system)
        after = ordered[position + 1:]
        if after and all(ranges[system].worst < ranges[other].best for other in after):
            clusters.append([])
    return clusters


# --------------------------------------------------------------------------- TrueSkill

TS_SIGMA = 0.5
TS_TAU = 0.0
TS_DRAW_PROBABILITY = 0.25
TS_BETA_DIVISOR = 40.0
DEFAULT_TS_RUNS = 10


def _trueskill_module():
    try:
        import trueskill
    except ImportError:
        raise InputError("TrueSkill needs the trueskill package: pip install 'gecmetrics[trueskill]'") from None
    return trueskill


@dataclass(frozen=True)
class _PairObservations:
    """For every pair of systems a < b: the outcomes of its comparisons (+1: a better, 0: tie,
    -1: b better), in the order of the comparisons."""

    outcomes: dict[tuple[int, int], list[int]]


def _pair_observations(pairwise: Pairwise) -> _PairObservations:
    low = np.minimum(pairwise.better, pairwise.worse)
    high = np.maximum(pairwise.better, pairwise.worse)
    outcome = np.where(pairwise.tie, 0, np.where(pairwise.better == low, 1, -1))
    n = len(pairwise.systems)
    key = low * n + high
    order = np.argsort(key, kind="stable")
    keys, starts = np.unique(key[order], return_index=True)
    groups = np.split(outcome[order], starts[1:])
    return _PairObservations({(int(k) // n, int(k) % n): g.tolist() for k, g in zip(keys, groups)})


class _OneVersusOne:
    """One TrueSkill update of two players, as ``trueskill``'s factor graph computes it for two
    teams of one (the v/w functions, Gaussian and draw margin are the package's own)."""

    def __init__(self, env, draw_margin: float) -> None:
        self.env = env
        self.two_beta_squared = 2.0 * env.beta ** 2
        self.draw_margin = draw_margin

    def update(self, mu_a: float, var_a: float, mu_b: float, var_b: float, outcome: int):
        """New (mu_a, var_a, mu_b, var_b) after a comparison (+1 a won, 0 tie, -1 b won)."""
        c = math.sqrt(self.two_beta_squared + var_a + var_b)
        margin = self.draw_margin / c
        if outcome == 0:
            diff = (mu_a - mu_b) / c
            v, w = self.env.v_draw(diff, margin), self.env.w_draw(diff, margin)
            sign = 1.0
        else:
            sign = 1.0 if outcome > 0 else -1.0
            diff = sign * (mu_a - mu_b) / c
            v, w = self.env.v_win(diff, margin), self.env.w_win(diff, margin)
        mu_a += sign * var_a / c * v
        mu_b -= sign * var_b / c * v
        var_a *= 1.0 - var_a / (c * c) * w
        var_b *= 1.0 - var_b / (c * c) * w
        return mu_a, var_a, mu_b, var_b


def _trueskill_run(observations: _PairObservations, systems: Sequence[str], plays: int,
                   updater: _OneVersusOne, rng: np.random.Generator) -> np.ndarray:
    """One run of ``TS.py -n 2``: ``plays`` times, the system with the largest sigma (ties: the
    later name) meets an opponent drawn with weight exp(-|mu difference|), and one of the pair's
    comparisons drawn at random updates both ratings. Returns the final mu of each system."""
    n = len(systems)
    mu = [0.0] * n
    var = [TS_SIGMA ** 2] * n
    tie_break = {k: r for r, k in enumerate(sorted(range(n), key=lambda k: systems[k]))}
    exp = math.exp
    pick_opponent = rng.random(plays).tolist()
    pick_observation = rng.random(plays).tolist()
    for play in range(plays):
        a = max(range(n), key=lambda k: (var[k], tie_break[k]))
        others = [k for k in range(n) if k != a]
        cumulative = []
        total = 0.0
        for k in others:
            total += exp(-abs(mu[a] - mu[k]))
            cumulative.append(total)
        threshold = pick_opponent[play] * total
        b = next((k for k, c in zip(others, cumulative) if threshold < c), others[-1])
        low, high = (a, b) if a < b else (b, a)
        outcomes = observations.outcomes.get((low, high))
        if outcomes is None:
            raise InputError(f"TrueSkill: systems {systems[low]} and {systems[high]} are never compared")
        outcome = outcomes[int(pick_observation[play] * len(outcomes))]
        mu[low], var[low], mu[high], var[high] = updater.update(mu[low], var[low], mu[high], var[high], outcome)
    return np.array(mu)


def _check_all_pairs_compared(observations: _PairObservations, judgments: Judgments) -> None:
    """Every play may draw any pair of systems, so a pair never compared is an error before the
    runs (it was one in the middle of a run, without the file, at a play the seed picked)."""
    n = len(judgments.systems)
    never = [(a, b) for a in range(n) for b in range(a + 1, n) if (a, b) not in observations.outcomes]
    if never:
        shown = "; ".join(f"{judgments.systems[a]} and {judgments.systems[b]}" for a, b in never[:3])
        raise InputError(f"TrueSkill needs every pair of systems compared at least once; never compared: "
                         f"{shown}{'; ...' if len(never) > 3 else ''} ({plural(len(never), 'pair')})", judgments.source)


def trueskill_scores(judgments: Judgments, runs: int = DEFAULT_TS_RUNS, seed: int = 0,
                     confidence: float = DEFAULT_CONFIDENCE,
                     progress: Callable[[int, int, str], None] | None = None) -> HumanRanking:
    """TrueSkill as GJG15's Makefile runs ``wmt-trueskill/TS.py -n 2 -d 0`` (parameters of
    Sakaguchi et al. 2014: mu 0, sigma 0.5, tau 0, draw probability 0.25, beta = sigma * plays /
    40, plays = comparisons + 1): the score is the mean mu over ``runs`` seeded runs (the
    Makefile makes 1000), ranges and clusters come from the runs' rankings (``cluster.py``); the
    systems are those some comparison involves (:meth:`Judgments.compared`).
    ``progress(runs_done, runs, what)`` hears of every run."""
    if not isinstance(judgments, Judgments):
        raise InputError(f"expected Judgments, got {type(judgments).__name__}")
    judgments = ranked_judgments(judgments)
    _check_systems(judgments)
    _check_resamples(runs, confidence, MAX_TS_RUNS, "gecmetrics.stats.rankings.MAX_TS_RUNS",
                     "the number of TrueSkill runs (--bootstrap N)")
    seed = check_seed(seed, "the seed of the TrueSkill runs (--seed)")
    check_progress(progress)
    trueskill = _trueskill_module()
    pairwise = judgments.pairwise()
    plays = pairwise.size + 1
    env = trueskill.TrueSkill(mu=0.0, sigma=TS_SIGMA, beta=TS_SIGMA * plays / TS_BETA_DIVISOR, tau=TS_TAU,
                              draw_probability=TS_DRAW_PROBABILITY)
    updater = _OneVersusOne(env, trueskill.calc_draw_margin(TS_DRAW_PROBABILITY, 2, env))
    observations = _pair_observations(pairwise)
    _check_all_pairs_compared(observations, judgments)
    rows = []
    for run in range(runs):
        rows.append(_trueskill_run(observations, judgments.systems, plays, updater, np.random.default_rng([seed, run])))
        if progress is not None:
            progress(run + 1, runs, "TrueSkill")
    if progress is not None:
        progress(runs, runs, "done")
    samples = np.stack(rows)
    ranking = HumanRanking("ts", "trueskill", [], {}, resamples=runs, seed=seed, source=judgments.source,
                           comparisons=pairwise.size)
    return _finish(ranking, list(judgments.systems), sample_means(samples), samples, confidence)


def human_ranking(judgments: Judgments, method: str = "ew", **options: Any) -> HumanRanking:
    """The human ranking by ``method``: ``ew`` (Expected Wins) or ``ts`` (TrueSkill)."""
    if method in ("ew", "ts"):
        ranking = expected_wins if method == "ew" else trueskill_scores
        check_keywords(options, list(inspect.signature(ranking).parameters)[1:], f"ranking {method!r}")
        return ranking(judgments, **options)
    raise InputError(f"unknown ranking method {method!r}; choose one of: {', '.join(RANKING_METHODS)}")
