"""Bootstrap resamples of a meta-evaluation: the human and metric scores of every resample,
from which correlations get percentile intervals and paired tests their p-values.

* Judgments: the metric scores stay fixed and the human side is recomputed on each resample of
  the comparisons (``pair``, GJG15's EW bootstrap) or of whole ranking items (``item``); a
  ranking made with resamples (EW) or runs (TrueSkill) gives its own.
* Sentences: each resample of the test sentences is rescored by every metric (its paired-test
  resampler) and the human judgments of each sentence are weighted by how often it was drawn.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Any, Callable, Mapping

import numpy as np

from ..core.checks import check_count, check_keywords, check_seed
from ..core.resampling import Resample
from ..errors import InputError, kind_of
from ..io.judgments import Judgments
from ..stats.rankings import (DEFAULT_RESAMPLES, MAX_RESAMPLES, HumanRanking, expected_wins_of_counts,
                              pair_resample_wins, resample_blocks)
from ..stats.significance import bootstrap_indices, check_draws
from .metric_scores import SentenceResampler
from .sentence import check_item_rows

RESAMPLINGS = ("judgments", "sentences")
RESAMPLING_UNITS = ("pair", "item")


def additive_resampler(rows: np.ndarray, reducer: Callable[[np.ndarray], np.ndarray]) -> SentenceResampler:
    """A :data:`~gecmetrics.meta.metric_scores.SentenceResampler` for a metric whose corpus
    score is ``reducer(sum of rows)``: ``rows`` (D, K) per-sentence statistics, ``reducer``
    (B, K) -> (B,)."""
    rows = np.asarray(rows, dtype=np.float64)
    if rows.ndim != 2:
        raise InputError(f"per-sentence statistics must be a (sentences, K) array, got shape {rows.shape}")

    def resampled(resample: Resample) -> np.ndarray:
        return np.asarray(reducer(resample.counts @ rows), dtype=np.float64)

    return resampled


@dataclass(frozen=True)
class Resampling:
    """How to resample for intervals and paired tests: ``kind`` judgments (``unit`` pair or
    item) or sentences (``resamplers``: metric -> system -> :data:`SentenceResampler`;
    ``item_rows``: the corpus row of every ranking item; ``sentences``: the corpus size). What
    a kind never reads is refused: a ``unit`` other than pair with sentences, ``resamplers``,
    ``item_rows`` or ``sentences`` with judgments."""

    kind: str = "judgments"
    resamples: int = DEFAULT_RESAMPLES
    seed: int = 0
    unit: str = "pair"
    resamplers: Mapping[str, Mapping[str, SentenceResampler]] | None = None
    item_rows: Any = None
    sentences: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in RESAMPLINGS:
            raise InputError(f"unknown resampling {self.kind!r}; choose one of: {', '.join(RESAMPLINGS)}")
        if self.unit not in RESAMPLING_UNITS:
            raise InputError(f"unknown resampling unit {self.unit!r}; choose one of: {', '.join(RESAMPLING_UNITS)}")
        if self.kind == "sentences" and self.unit != "pair":  # an idle option: refused, not ignored
            raise InputError(f"unit={self.unit!r} does nothing with resampling 'sentences': it chooses what a "
                             "bootstrap of the judgments resamples (resampling 'judgments')")
        check_count(self.resamples, "the number of bootstrap resamples (--bootstrap N)", 1, MAX_RESAMPLES,
                    "gecmetrics.stats.rankings.MAX_RESAMPLES")
        check_seed(self.seed, "the seed of the bootstrap resamples (--seed)")
        if self.kind == "sentences" and (self.resamplers is None or self.item_rows is None or not self.sentences):
            raise InputError("resampling sentences needs resamplers, item_rows and the number of sentences")
        given = [name for name in ("resamplers", "item_rows", "sentences") if getattr(self, name) is not None]
        if self.kind == "judgments" and given:  # idle options: refused, not ignored
            raise InputError(f"{', '.join(given)} do nothing with resampling 'judgments': resampling 'sentences' "
                             "reads them (the corpus sentences drawn for the metrics)")
        if self.sentences is not None:  # (True was 1, -1 NumPy's ValueError)
            check_count(self.sentences, "sentences (the number of corpus sentences)", 1)
        if self.resamplers is not None:
            _check_resamplers(self.resamplers)


def _check_resamplers(resamplers: Any) -> None:
    """metric -> system -> a callable of a Resample (resamplers=5 was an AttributeError, {"m": 5}
    a TypeError, deep in the resampling)."""
    if not isinstance(resamplers, Mapping):
        raise InputError(f"resamplers must map each metric to its systems' sentence resamplers, got "
                         f"{kind_of(resamplers)}", "resamplers")
    for metric, systems in resamplers.items():
        if not isinstance(systems, Mapping) or not all(callable(f) for f in systems.values()):
            raise InputError(f"resamplers[{metric!r}] must map each system to a sentence resampler (a callable "
                             f"of a Resample), got {kind_of(systems)}", "resamplers")


def as_resampling(resampling: Resampling | str | None, options: dict[str, Any]) -> Resampling | None:
    """A :class:`Resampling` from itself, or from its kind and its options as keywords."""
    if resampling is None or isinstance(resampling, Resampling):
        if options:
            raise InputError(f"resampling options without a resampling kind: {', '.join(options)}")
        return resampling
    check_keywords(options, [f.name for f in fields(Resampling) if f.name != "kind"], "resampling")
    return Resampling(resampling, **options)


MAX_ITEM_CELLS = 50_000_000
"""Most cells of the (items, S * S) matrix that resampling ranking items builds (400 MB;
GJG15: 2,319 items x 13^2 systems = 391,911)."""


def _item_cells(judgments: Judgments) -> np.ndarray:
    """Per ranking item, its win counts as a flat (items, S * S) matrix."""
    size = len(judgments.items) * len(judgments.systems) ** 2
    if size > MAX_ITEM_CELLS:
        raise InputError(f"resampling ranking items needs a matrix of {len(judgments.items):,} items x "
                         f"{len(judgments.systems)}^2 system pairs, more than {MAX_ITEM_CELLS:,} cells "
                         "(gecmetrics.meta.resampling.MAX_ITEM_CELLS); resample comparisons (unit pair) instead",
                         judgments.source)
    pairwise = judgments.pairwise()
    n = len(judgments.systems)
    decided = ~pairwise.tie
    keys = pairwise.item[decided] * (n * n) + pairwise.better[decided] * n + pairwise.worse[decided]
    counts = np.bincount(keys, minlength=len(judgments.items) * n * n)
    return counts.reshape(len(judgments.items), n * n).astype(np.float64)


def judgment_resamples(judgments: Judgments, unit: str, resamples: int, seed: int) -> np.ndarray:
    """Expected Wins of every judged system in ``resamples`` resamples of the judgments, drawn
    by comparison (``pair``, GJG15's bootstrap) or by ranking item (``item``): (B, S)."""
    n = len(judgments.systems)
    check_count(resamples, "the number of bootstrap resamples (--bootstrap N)", 1, MAX_RESAMPLES,
                "gecmetrics.stats.rankings.MAX_RESAMPLES")
    seed = check_seed(seed, "the seed of the bootstrap resamples (--seed)")
    if unit == "pair":
        return pair_resample_wins(judgments.pairwise(), resamples, seed)
    if unit == "item":
        cells = _item_cells(judgments)
        rng = np.random.default_rng(seed)
        uniform = np.full(len(cells), 1.0 / len(cells))
        return np.concatenate([_item_wins(rng.multinomial(len(cells), uniform, size=rows), cells, n)
                               for _, rows in resample_blocks(resamples, max(len(cells), n * n))])
    raise InputError(f"unknown resampling unit {unit!r}; choose one of: {', '.join(RESAMPLING_UNITS)}")


def human_on_sentence_resamples(judgments: Judgments, item_rows: np.ndarray, resample: Resample) -> np.ndarray:
    """Expected Wins (B, S) when each ranking item counts as often as its sentence (its row
    ``item_rows[i]`` of the scored corpus) was drawn by each resample."""
    rows = check_item_rows(judgments, item_rows, resample.size)
    cells, n = _item_cells(judgments), len(judgments.systems)
    return np.concatenate([_item_wins(resample.counts[start:start + size, rows], cells, n)
                           for start, size in resample_blocks(resample.samples, n * n)])


def _item_wins(weights: np.ndarray, cells: np.ndarray, n: int) -> np.ndarray:
    """Expected Wins (B, S) of the items weighted by ``weights`` (B, items): integer sums in
    float64, exact in any order."""
    return expected_wins_of_counts((weights @ cells).reshape(len(weights), n, n))


@dataclass
class Resampled:
    """Human (B, S) and per-metric (B, S) scores of every resample, for the chosen systems
    (a metric's scores are one row (1, S) when they stay fixed)."""

    label: str
    human: np.ndarray
    metrics: dict[str, np.ndarray]


def _judgment_side(judgments: Judgments, systems: list[str], how: Resampling,
                   ranking: HumanRanking | None) -> tuple[str, np.ndarray]:
    """The human scores of every judgment resample: the ranking's own resamples (EW) or runs
    (TrueSkill) when it has them, else Expected Wins of fresh resamples."""
    stored = ranking.sample_matrix(systems) if ranking is not None and how.unit == "pair" else None
    if stored is not None:
        return ("judgments/trueskill-runs" if ranking.method == "ts" else "judgments/pair"), stored
    if ranking is not None and ranking.method == "ts":
        raise InputError("TrueSkill intervals come from its runs: rank with two or more runs "
                         "(resampling by item is for Expected Wins)")
    columns = [judgments.systems.index(s) for s in systems]
    return f"judgments/{how.unit}", judgment_resamples(judgments, how.unit, how.resamples, how.seed)[:, columns]


def resample(table: Mapping[str, Mapping[str, float]], judgments: Judgments, systems: list[str], how: Resampling,
             ranking: HumanRanking | None) -> Resampled:
    """The human and metric scores (``table``: metric -> system -> oriented score) of the
    resamples ``how`` describes."""
    if how.kind == "judgments":
        label, human = _judgment_side(judgments, systems, how, ranking)
        fixed = {m: np.array([scores[s] for s in systems])[None, :] for m, scores in table.items()}
        return Resampled(label, human, fixed)
    if ranking is not None and ranking.method != "ew":
        raise InputError("resampling sentences needs Expected Wins (--ranking ew): TrueSkill would be rerun "
                         "on every resample")
    check_draws(how.resamples, int(how.sentences))
    drawn = Resample(bootstrap_indices(int(how.sentences), how.resamples, how.seed))
    columns = [judgments.systems.index(s) for s in systems]
    human = human_on_sentence_resamples(judgments, how.item_rows, drawn)[:, columns]
    metrics = {}
    for metric in table:
        per_system = how.resamplers.get(metric, {})
        missing = [s for s in systems if s not in per_system]
        if missing:
            raise InputError(f"metric {metric!r} has no sentence resampler for: {', '.join(missing)}")
        metrics[metric] = np.stack([np.asarray(per_system[s](drawn), float) for s in systems], axis=1)
    return Resampled("sentences", human, metrics)


def percentile_interval(values: np.ndarray, confidence: float) -> tuple[tuple[float, float], int]:
    """The central ``confidence`` percentile interval of the defined values (sorted[k] and
    sorted[B - k - 1], k = floor(B (1 - confidence) / 2)), and how many were undefined (nan)."""
    defined = np.sort(values[~np.isnan(values)])
    undefined = int(values.size - defined.size)
    if defined.size == 0:
        return (math.nan, math.nan), undefined
    k = int(math.floor(defined.size * (1.0 - confidence) / 2.0 + 1e-9))
    return (float(defined[k]), float(defined[defined.size - k - 1])), undefined

