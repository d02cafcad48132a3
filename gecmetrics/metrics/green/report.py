"""GREEN's verbose table (SPEC 3.4): per order the seven regions, TP/FP/FN, P, R, F and the
cumulative P, R, F."""
from __future__ import annotations

import numpy as np

from ...core.table import percent, table
from .green import REGIONS, alpha_of, order_scores, true_false


def green_table(region_counts, beta: float, digits: int) -> str:
    """The per-order GREEN table of region counts (N, 7): regions, TP FP FN, P R F and
    cumulative P R F (SPEC 3.4)."""
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
