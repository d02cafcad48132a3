"""Formatting scores: ROUND_HALF_UP rounding, per-order tables (prettytable), JSON."""
from __future__ import annotations

import json
import math
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Sequence

import numpy as np
from prettytable import PrettyTable


def round_half_up(value: float, digits: int) -> str:
    """``value`` rounded half up to ``digits`` decimals, from its shortest repr (as the
    gleu and GREEN packages print)."""
    value = float(value)
    if math.isnan(value) or math.isinf(value):
        return str(value)
    quantum = Decimal(1).scaleb(-digits) if digits > 0 else Decimal(1)
    text = str(Decimal(repr(value)).quantize(quantum, rounding=ROUND_HALF_UP))
    return text[1:] if text.startswith("-") and not text.strip("-0.") else text  # no "-0.00"


def percent(value: float, digits: int) -> str:
    """A fraction printed x100."""
    return round_half_up(100 * float(value), digits)


def table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    out = PrettyTable([str(h) for h in header])
    for row in rows:
        out.add_row(list(row))
    return out.get_string()


def green_table(region_counts, beta: float, digits: int) -> str:
    """The per-order GREEN table of region counts (N, 7): regions, TP FP FN, P R F and
    cumulative P R F (SPEC 3.4)."""
    from .metrics.green import REGIONS, alpha_of, order_scores, true_false

    scores = order_scores(region_counts, alpha_of(beta))
    tp, fp, fn = true_false(np.asarray(region_counts))
    rows = []
    for k, counts in enumerate(region_counts):
        rows.append([k + 1, *[int(x) for x in counts], int(tp[k]), int(fp[k]), int(fn[k])]
                    + [percent(v[k], digits) for v in (scores.precision, scores.recall, scores.f,
                                                       scores.cumulative_precision, scores.cumulative_recall,
                                                       scores.cumulative_f)])
    header = ["", *REGIONS, "TP", "FP", "FN", "P", "R", f"F{float(beta)}", "cumP", "cumR", "cumF"]
    return table(header, rows)


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


def to_jsonable(value: Any) -> Any:
    """NumPy arrays and scalars, dataclasses and tuples turned into JSON values."""
    if isinstance(value, np.ndarray):
        return to_jsonable(value.tolist())
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (np.floating, float)) and not isinstance(value, bool):
        value = float(value)
        return value if math.isfinite(value) else str(value)
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v) for v in value]
    return value


def dumps(value: Any) -> str:
    return json.dumps(to_jsonable(value), indent=2, ensure_ascii=False)
