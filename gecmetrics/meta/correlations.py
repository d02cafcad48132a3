"""The correlation coefficients of meta-evaluation, NumPy only (no SciPy at run time).

* Pearson's r: the cosine of the centred vectors (each scaled by its largest deviation first,
  so that tiny or huge scores neither underflow nor overflow).
* Spearman's rho: Pearson's r of the average ranks (tied values share the mean of their ranks,
  as ``scipy.stats.rankdata`` does by default).
* Kendall's tau-b: ``(C - D) / sqrt((n0 - ties_x)(n0 - ties_y))``, the default of
  ``scipy.stats.kendalltau``.
* Williams' test of two dependent correlations sharing the human variable (Williams 1959;
  Graham & Baldwin 2014), with the Student t tail it needs.

Each coefficient is written once, for rows: :func:`correlation_rows` computes one coefficient
for every row pair of two (B, n) matrices (bootstrap resamples), nan where it is undefined;
:func:`pearson`, :func:`spearman`, :func:`kendall` and :func:`correlation` are the same code on
one checked pair of vectors, with an :class:`~gecmetrics.errors.InputError` where it is undefined.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

import numpy as np

from ..core.checks import check_count, check_score
from ..errors import InputError
from ..core.lines import unordered

CORRELATIONS = ("pearson", "spearman", "kendall")
MIN_SYSTEMS = 3
"""Fewer systems than this give no meaningful correlation (with 2, r is always +-1)."""
FEW_SYSTEMS = 5
"""A correlation over fewer systems than this is reported with a warning: one system moves it a lot."""


# --------------------------------------------------------------------------- rows (B, n)


def average_rank_rows(x: np.ndarray) -> np.ndarray:
    """Ranks 1..n of the values of each row (..., n), tied values sharing the mean of their ranks."""
    x = np.asarray(x, dtype=np.float64)
    n = x.shape[-1]
    order = np.argsort(x, axis=-1, kind="mergesort")
    ordered = np.take_along_axis(x, order, axis=-1)
    positions = np.broadcast_to(np.arange(n), x.shape)
    different = ordered[..., 1:] != ordered[..., :-1]
    starts_group = np.concatenate((np.ones(x.shape[:-1] + (1,), bool), different), axis=-1)
    ends_group = np.concatenate((different, np.ones(x.shape[:-1] + (1,), bool)), axis=-1)
    first = np.maximum.accumulate(np.where(starts_group, positions, 0), axis=-1)
    last = np.flip(np.minimum.accumulate(np.flip(np.where(ends_group, positions, n - 1), -1), axis=-1), -1)
    ranks = np.empty_like(ordered)
    np.put_along_axis(ranks, order, (first + last) / 2.0 + 1.0, axis=-1)
    return ranks


def _pearson_rows(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        unit = []
        for rows in (x, y):
            # scaled by a power of two first (exact; the correlation is the same): scores near
            # 1e308 overflowed the mean's sum to inf, and the correlation was nan
            exponent = np.frexp(np.abs(rows).max(axis=-1, keepdims=True))[1]
            rows = np.ldexp(rows, -exponent)
            deviation = rows - rows.mean(axis=-1, keepdims=True)
            deviation = deviation / np.abs(deviation).max(axis=-1, keepdims=True)
            unit.append(deviation / np.linalg.norm(deviation, axis=-1, keepdims=True))
        return np.clip((unit[0] * unit[1]).sum(axis=-1), -1.0, 1.0)


def _kendall_rows(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    first, second = np.triu_indices(x.shape[-1], 1)
    with np.errstate(over="ignore"):  # 1e308 - (-1e308) is inf: its sign is the comparison's
        sx = np.sign(x[..., first] - x[..., second])
        sy = np.sign(y[..., first] - y[..., second])
    with np.errstate(invalid="ignore", divide="ignore"):
        return (sx * sy).sum(axis=-1) / np.sqrt(np.abs(sx).sum(axis=-1) * np.abs(sy).sum(axis=-1))


def correlation_rows(name: str, x: Any, y: Any) -> np.ndarray:
    """One correlation (``pearson``, ``spearman`` or ``kendall``) of every row pair of two
    (B, n) arrays (either may be one row, broadcast) -> (B,), nan where undefined."""
    _check_name(name)
    x, y = np.broadcast_arrays(np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64))
    if name == "pearson":
        return _pearson_rows(x, y)
    if name == "spearman":
        return _pearson_rows(average_rank_rows(x), average_rank_rows(y))
    return _kendall_rows(x, y)


def _check_name(name: str) -> None:
    if name not in CORRELATIONS:
        raise InputError(f"unknown correlation {name!r}; choose one of: {', '.join(CORRELATIONS)}")


# --------------------------------------------------------------------------- one pair, checked


def _as_vector(values: Sequence[float], name: str) -> np.ndarray:
    """The scores as float64, each checked as meta-evaluation checks a score
    (:func:`~gecmetrics.core.checks.check_score`: a numeric text or a bool is refused, never
    converted)."""
    if isinstance(values, np.ndarray):
        values = values.tolist()
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise InputError(f"{name} must be a flat sequence of numbers")
    problem = unordered(values)  # a set would pair the scores of other systems
    if problem is not None:
        raise InputError(f"{name} must be a flat sequence of numbers, got {problem}")
    items = list(values)
    if any(isinstance(item, Iterable) and not isinstance(item, str) for item in items):
        raise InputError(f"{name} must be a flat sequence of numbers")
    return np.array([check_score(item, f"{name}, item {k + 1}") for k, item in enumerate(items)], dtype=np.float64)


def checked_pair(x: Sequence[float], y: Sequence[float]) -> tuple[np.ndarray, np.ndarray]:
    """Two paired score vectors, checked: numbers (not texts or bools), finite, same length, at
    least 3, neither constant."""
    x_vec = _as_vector(x, "the first input")
    y_vec = _as_vector(y, "the second input")
    if len(x_vec) != len(y_vec):
        raise InputError(f"the two inputs have different lengths ({len(x_vec)} and {len(y_vec)})")
    if len(x_vec) < MIN_SYSTEMS:
        raise InputError(f"a correlation needs at least {MIN_SYSTEMS} systems, got {len(x_vec)}")
    for vector, name in ((x_vec, "first"), (y_vec, "second")):
        if np.all(vector == vector[0]):
            raise InputError(f"the {name} input is constant ({vector[0]:g} for all {len(vector)} systems): "
                             "its correlation is undefined")
    return x_vec, y_vec


def correlation(name: str, x: Sequence[float], y: Sequence[float]) -> float:
    """Pearson, Spearman or Kendall (tau-b) of two paired vectors (checked: see :func:`checked_pair`)."""
    _check_name(name)
    x_vec, y_vec = checked_pair(x, y)
    return float(correlation_rows(name, x_vec[None, :], y_vec[None, :])[0])


def pearson(x: Sequence[float], y: Sequence[float]) -> float:
    """Pearson's r of two paired score vectors (the linear agreement of the scores)."""
    return correlation("pearson", x, y)


def spearman(x: Sequence[float], y: Sequence[float]) -> float:
    """Spearman's rho: Pearson's r of the average ranks (agreement of the two orderings)."""
    return correlation("spearman", x, y)


def kendall(x: Sequence[float], y: Sequence[float]) -> float:
    """Kendall's tau-b of two paired score vectors (ties in either reduce the denominator)."""
    return correlation("kendall", x, y)


def average_ranks(values: Sequence[float]) -> np.ndarray:
    """Ranks 1..n of the values, tied values sharing the mean of their ranks (as in rankdata)."""
    return average_rank_rows(np.asarray(values, dtype=np.float64))


# --------------------------------------------------------------------------- Williams' test


def _continued_fraction(a: float, b: float, x: float) -> float:
    """Lentz's continued fraction of the incomplete beta function (converges for x < (a+1)/(a+b+2))."""
    tiny, c, d = 1e-300, 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    result = d
    for m in range(1, 500):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            result *= c * d
        if abs(c * d - 1.0) < 1e-15:
            break
    return result


def regularized_beta(a: float, b: float, x: float) -> float:
    """I_x(a, b), the regularized incomplete beta function."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _continued_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _continued_fraction(b, a, 1.0 - x) / b


def student_t_sf(t: float, df: float) -> float:
    """P(T > t) for Student's t with ``df`` degrees of freedom."""
    tail = 0.5 * regularized_beta(df / 2.0, 0.5, df / (df + t * t))
    return tail if t >= 0 else 1.0 - tail


@dataclass(frozen=True)
class WilliamsTest:
    """Williams' t for r(human, A) > r(human, B) given r(A, B), df = n - 3; one-sided p."""

    r_human_a: float
    r_human_b: float
    r_a_b: float
    n: int
    t: float
    p_value: float

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def williams_test(r_human_a: float, r_human_b: float, r_a_b: float, n: int) -> WilliamsTest:
    """Williams' test of whether metric A correlates with the human scores better than metric
    B, both correlated over the same n systems (the test WMT metrics tasks use)."""
    n = check_count(n, "the number of systems of Williams' test (n)", minimum=0, maximum=2**53,
                    bound="the largest integer a float holds exactly")  # (10**400 was an OverflowError)
    if n <= 3:
        raise InputError(f"Williams' test needs more than 3 systems, got {n}")
    for value in (r_human_a, r_human_b, r_a_b):
        if not -1.0 <= check_score(value, "a correlation of Williams' test") <= 1.0:
            raise InputError(f"a correlation must be a number within [-1, 1], got {value!r}")
    determinant = 1 - r_human_a ** 2 - r_human_b ** 2 - r_a_b ** 2 + 2 * r_human_a * r_human_b * r_a_b
    if determinant < -1e-12:  # (a p-value was printed for three correlations no data can give; 0 within rounding: collinear)
        raise InputError(f"Williams' test: correlations {r_human_a:g}, {r_human_b:g} and {r_a_b:g} cannot hold together "
                         f"(the determinant of their correlation matrix is {determinant:.3g}, below 0): give the "
                         "correlations of the same systems")
    denominator = (2 * (n - 1) / (n - 3) * determinant
                   + ((r_human_a + r_human_b) / 2) ** 2 * (1 - r_a_b) ** 3)
    if denominator <= 0:
        raise InputError("Williams' test is undefined here (the three scores are exactly collinear)")
    t = (r_human_a - r_human_b) * math.sqrt((n - 1) * (1 + r_a_b)) / math.sqrt(denominator)
    return WilliamsTest(r_human_a, r_human_b, r_a_b, n, t, student_t_sf(t, n - 3))
