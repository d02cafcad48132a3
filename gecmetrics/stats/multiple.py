"""Significance across many systems: every pair tested, the p-values corrected for the number
of tests, and the clusters of systems that cannot be told apart.

A paired test of each system against one baseline (:mod:`.significance`) answers one question
per system. Ranking S systems asks S(S-1)/2 questions at once, and at the 5% level some of
them come out "significant" by chance alone; the correction keeps that in check:

* **Holm** (1979; the default, as in geclens): the family-wise error rate, without Bonferroni's
  loss of power. The m p-values sorted ascending, p_(k) is adjusted to
  ``max over j <= k of min(1, (m - j + 1) p_(j))``.
* **Benjamini-Hochberg** (1995, ``bh``): the false discovery rate, more permissive: p_(k) is
  adjusted to ``min over j >= k of min(1, m p_(j) / j)``.
* ``none``: the raw p-values.

Every pair uses the same draws as the one-baseline test (one bootstrap resample set, or one set
of swap masks, from the seed), so the pair (baseline, system) gets exactly the p-value that
:func:`~gecmetrics.stats.significance.paired_test_from_statistics` gives it.

**Clusters.** The systems sorted best first (by the metric's direction), a cluster is a run of
systems none of which differs significantly (after the correction) from the cluster's first,
best system; the next cluster starts at the first system that does. Systems in one cluster
cannot be told apart from its leader at the chosen level; each cluster's leader is
significantly better than every system of the later clusters that it was tested against.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import numpy as np

from ..core.checks import check_flag, check_fraction, check_seed
from ..core.resampling import Resampler
from ..core.table import number_label, scaled_number
from ..errors import InputError
from .significance import (SIGNIFICANCE_LEVEL, SystemSignificance, check_samples,
                           Drawn, drawn, paired_signature, percentile_interval, p_value, warn_if_few_resamples,
                           warn_if_no_pair_can_differ)

CORRECTIONS = ("holm", "bh", "none")
"""Multiple-comparison corrections: Holm (family-wise error), Benjamini-Hochberg (false
discovery rate), none (raw p-values)."""
MAX_SYSTEMS = 1000
"""Upper bound of the systems of an all-pairs test (499,500 pairs)."""


# --------------------------------------------------------------------------- corrections


def _checked_p_values(p_values: Sequence[float]) -> np.ndarray:
    values = np.asarray(p_values, dtype=np.float64)
    if values.ndim != 1:
        raise InputError(f"p-values must be a flat sequence, got an array of shape {values.shape}")
    if values.size and (not np.all(np.isfinite(values)) or values.min() < 0 or values.max() > 1):
        raise InputError("p-values must be numbers from 0 to 1")
    return values


def holm(p_values: Sequence[float]) -> np.ndarray:
    """Holm's step-down adjusted p-values, in the order given."""
    values = _checked_p_values(p_values)
    m = len(values)
    order = np.argsort(values, kind="stable")
    steps = np.minimum(1.0, (m - np.arange(m)) * values[order])
    adjusted = np.empty(m)
    adjusted[order] = np.maximum.accumulate(steps) if m else steps
    return adjusted


def benjamini_hochberg(p_values: Sequence[float]) -> np.ndarray:
    """Benjamini-Hochberg's step-up adjusted p-values (q-values), in the order given."""
    values = _checked_p_values(p_values)
    m = len(values)
    order = np.argsort(values, kind="stable")
    steps = np.minimum(1.0, values[order] * m / np.arange(1, m + 1))
    adjusted = np.empty(m)
    adjusted[order] = np.minimum.accumulate(steps[::-1])[::-1] if m else steps
    return adjusted


def adjust_p_values(p_values: Sequence[float], correction: str = "holm") -> np.ndarray:
    """The p-values adjusted by ``correction`` (one of :data:`CORRECTIONS`)."""
    correction = check_correction(correction)
    if correction == "holm":
        return holm(p_values)
    if correction == "bh":
        return benjamini_hochberg(p_values)
    return _checked_p_values(p_values).copy()


def check_correction(correction: Any) -> str:
    """One of :data:`CORRECTIONS` (``benjamini-hochberg`` and ``fdr`` name ``bh``)."""
    text = str(correction).strip().lower() if isinstance(correction, str) else None
    text = {"benjamini-hochberg": "bh", "fdr": "bh", "bonferroni-holm": "holm"}.get(text, text)
    if text not in CORRECTIONS:
        raise InputError(f"unknown multiple-comparison correction {correction!r}; choose one of: "
                         f"{', '.join(CORRECTIONS)}")
    return text


# --------------------------------------------------------------------------- results


@dataclass
class PairComparison:
    """One pair of systems: the score difference (``first`` minus ``second``), the raw and the
    corrected p-value, and whether the difference is significant after the correction."""

    first: str
    second: str
    difference: float
    p_value: float
    adjusted_p: float
    significant: bool


@dataclass
class AllPairsResult:
    """Every pair of systems tested under one metric column, corrected, with the clusters."""

    method: str
    samples: int
    confidence_samples: int
    seed: int
    correction: str
    level: float
    metric: str
    systems: list[SystemSignificance]
    """Each system's score, bootstrap mean and 95% interval (p_value None), in input order."""
    pairs: list[PairComparison]
    """Every pair (i < j in input order)."""
    clusters: list[list[str]]
    """Systems that cannot be told apart, best cluster first (see the module docstring)."""
    signature: str
    higher_is_better: bool = True
    strict: bool = False
    settings: dict = field(default_factory=dict)

    def against(self, name: str) -> dict[str, PairComparison]:
        """Every other system -> :meth:`pair` ``(name, other)``, in one pass over the pairs."""
        self.cluster_of(name)  # (an unknown system is refused, as pair and cluster_of refuse it)
        found = {}
        for c in self.pairs:
            if c.first == name:
                found[c.second] = c
            elif c.second == name:
                found[c.first] = PairComparison(name, c.first, -c.difference, c.p_value, c.adjusted_p, c.significant)
        return found

    def pair(self, first: str, second: str) -> PairComparison:
        """The comparison of two systems (in either order: the difference is ``first - second``)."""
        for comparison in self.pairs:
            if (comparison.first, comparison.second) == (first, second):
                return comparison
            if (comparison.first, comparison.second) == (second, first):
                return PairComparison(first, second, -comparison.difference, comparison.p_value,
                                      comparison.adjusted_p, comparison.significant)
        raise InputError(f"no pair {first!r}, {second!r}; systems: {', '.join(s.name for s in self.systems)}")

    def cluster_of(self, name: str) -> int:
        """The 1-based number of the cluster holding a system (1: the best)."""
        for k, members in enumerate(self.clusters):
            if name in members:
                return k + 1
        raise InputError(f"unknown system {name!r}; systems: {', '.join(s.name for s in self.systems)}")

    def to_dict(self, scale: float = 1.0) -> dict[str, Any]:
        """JSON-ready values; scores, intervals and differences multiplied by ``scale``."""
        return {"metric": self.metric, "method": self.method, "samples": self.samples,
                "confidence_samples": self.confidence_samples, "seed": self.seed, "correction": self.correction,
                "level": self.level,
                "systems": [{"system": s.name, "score": scaled_number(s.score, scale),
                             "mean": scaled_number(s.mean, scale),
                             "interval": scaled_number(list(s.interval), scale),
                             "cluster": self.cluster_of(s.name)} for s in self.systems],
                "pairs": [{"system": p.first, "other": p.second, "difference": scaled_number(p.difference, scale),
                           "p_value": p.p_value, "adjusted_p": p.adjusted_p, "significant": p.significant}
                          for p in self.pairs],
                "clusters": [list(members) for members in self.clusters], "signature": str(self.signature)}


# --------------------------------------------------------------------------- the test


def pair_p_values(resampler: Resampler, prepared: Sequence[Any], scores: Sequence[float], bootstrap: Sequence[Any],
                  method: str, masks: np.ndarray | None, strict: bool) -> dict[tuple[int, int], float]:
    """The raw p-value of every pair (i < j), from the shared bootstrap scores (``bs``) or the
    shared swap masks (``ar``): the statistic of :func:`paired_test_from_statistics`."""
    values = {}
    for i in range(len(prepared)):
        for j in range(i + 1, len(prepared)):
            observed = abs(scores[j] - scores[i])
            if method == "bs":
                differences = np.abs(bootstrap[j] - bootstrap[i])
                values[(i, j)] = p_value(differences - differences.mean(), observed, strict)
            else:
                scores_a, scores_b = resampler.swapped_scores(prepared[i], prepared[j], masks)
                values[(i, j)] = p_value(np.abs(scores_a - scores_b), observed, strict)
    return values


def clusters_of(names: Sequence[str], scores: Sequence[float], different: Mapping[tuple[int, int], bool],
                higher_is_better: bool = True) -> list[list[str]]:
    """Clusters of systems that cannot be told apart (see the module docstring): ``different``
    says, for each pair of indices (i < j), whether the two differ significantly."""
    sign = 1.0 if higher_is_better else -1.0
    order = sorted(range(len(names)), key=lambda k: -sign * scores[k])  # stable: ties keep input order
    clusters: list[list[int]] = []
    for k in order:
        if clusters and not different[tuple(sorted((clusters[-1][0], k)))]:
            clusters[-1].append(k)
        else:
            clusters.append([k])
    return [[names[k] for k in members] for members in clusters]


def all_pairs_test(resampler: Resampler, statistics: Mapping[str, Any], method: str = "bs",
                   samples: int | None = None, seed: int = 0, correction: str = "holm",
                   level: float = SIGNIFICANCE_LEVEL, confidence_samples: int | None = None,
                   strict: bool = False, higher_is_better: bool = True) -> AllPairsResult:
    """Paired test of every pair of systems (name -> the metric's per-sentence statistics) with
    a multiple-comparison correction, and the clusters of systems that cannot be told apart."""
    samples, correction, seed = check_all_pairs(list(statistics), method, samples, seed, correction, level,
                                                confidence_samples)
    check_flag(strict, "strict")
    check_flag(higher_is_better, "higher_is_better")  # "no" was taken as true: the clusters in the wrong order
    draws = drawn(resampler, statistics, method, samples, seed, confidence_samples)
    return all_pairs_from_draws(resampler, list(statistics), draws, method, samples, seed, correction, level, strict,
                                higher_is_better)


def check_all_pairs(names: Sequence[str], method: str, samples: int | None, seed: int, correction: str, level: float,
                    confidence_samples: int | None = None) -> tuple[int, str, int]:
    """The settings of an all-pairs test checked before anything is drawn: (samples,
    correction, seed)."""
    samples = check_samples(method, samples, confidence_samples)
    correction = check_correction(correction)
    seed = check_seed(seed, "the seed of the paired test (--seed)")
    check_fraction(level, "the significance level")
    if len(names) < 2:
        raise InputError("an all-pairs test needs at least two systems")
    if len(names) > MAX_SYSTEMS:
        raise InputError(f"an all-pairs test takes at most {MAX_SYSTEMS:,} systems "
                         f"(gecmetrics.stats.multiple.MAX_SYSTEMS), got {len(names):,}")
    return samples, correction, seed


def all_pairs_from_draws(resampler: Resampler, names: Sequence[str], draws: Drawn, method: str, samples: int,
                         seed: int, correction: str, level: float = SIGNIFICANCE_LEVEL, strict: bool = False,
                         higher_is_better: bool = True) -> AllPairsResult:
    """:func:`all_pairs_test` from the systems' draws (:func:`~.significance.drawn` or one
    column of :func:`~.significance.drawn_columns`), its settings checked (:func:`check_all_pairs`)."""
    names = list(names)
    prepared, scores, bootstrap, masks, interval_samples = draws
    raw = pair_p_values(resampler, prepared, scores, bootstrap, method, masks, strict)
    keys = list(raw)
    adjusted = dict(zip(keys, adjust_p_values([raw[key] for key in keys], correction)))
    pairs = [PairComparison(names[i], names[j], scores[i] - scores[j], raw[(i, j)], float(adjusted[(i, j)]),
                            bool(adjusted[(i, j)] < level)) for i, j in keys]
    systems = []
    warn_if_few_resamples(interval_samples)
    warn_if_no_pair_can_differ(len(keys), samples, correction, level)
    for k, name in enumerate(names):
        mean, lower, upper = percentile_interval(bootstrap[k])
        systems.append(SystemSignificance(name, scores[k], mean, (lower, upper)))
    clusters = clusters_of(names, scores, {key: adjusted[key] < level for key in keys}, higher_is_better)
    signature = paired_signature(resampler.signature, method, samples, interval_samples, seed, strict)
    signature = signature.with_fields(("pairs", "all"), ("correction", correction), ("sig-level", number_label(level)))
    settings = {"method": method, "samples": samples, "confidence_samples": interval_samples, "seed": seed,
                "strict": strict, "correction": correction, "level": level}
    return AllPairsResult(method, samples, interval_samples, seed, correction, level, resampler.label, systems, pairs,
                          clusters, signature, higher_is_better, strict, settings)
