"""GLEU's verbose table (SPEC 2.6): per order match, penalty, numerator, denominator, p, BP and
the per-order GLEU, then the total."""
from __future__ import annotations

from typing import Any

import numpy as np

from ...core.table import percent, round_half_up, table


def gleu_table(result, digits: int) -> str:
    """The per-order GLEU table: n, match, penal, numer, denom, p, bp, gleu (SPEC 2.6)."""
    def count(x) -> Any:
        x = float(x)
        return int(x) if x.is_integer() else round_half_up(x, digits)

    bp = percent(result.brevity_penalty, digits)
    rows = []
    precision = result.precision
    order_scores = result.order_scores
    for k in range(len(result.match)):
        rows.append([k + 1, count(result.match[k]), count(result.penalty[k]), count(result.numerator[k]),
                     count(result.denominator[k]), percent(precision[k], digits), bp,
                     percent(order_scores[k], digits)])
    with np.errstate(divide="ignore"):
        mean_precision = float(np.exp(np.log(precision).mean())) if len(precision) else 0.0
    rows.append(["total", count(np.sum(result.match)), count(np.sum(result.penalty)),
                 count(np.sum(result.numerator)), count(np.sum(result.denominator)),
                 percent(mean_precision, digits), bp, percent(result.score, digits)])
    return table(["", "match", "penal", "numer", "denom", "p", "bp", "gleu"], rows)
