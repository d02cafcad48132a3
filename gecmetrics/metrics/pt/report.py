"""What ``gecmetric pt-m2`` and ``pt-errant`` print: the authors' table of P/R/F per system,
and per sentence P/R/F with the annotator kept (fractions, as the metric's scores print:
:class:`~gecmetrics.core.table.ScoreFormat`)."""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from ...core.fscore import CANDIDATE
from ...core.table import ScoreFormat, Table, number_label, scaled_number


def _header(metric: Any, scale: float) -> list[str]:
    return [ScoreFormat.of(metric, scale).header(name) for name in ("precision", "recall", f"f{number_label(metric.beta)}")]


def score_table(metric: Any, names: Sequence[str], results: Sequence[Any], digits: int, scale: float = 1.0) -> Table:
    printed = ScoreFormat.of(metric, scale)
    rows = [[name, *(printed.cell(x, digits) for x in (r.precision, r.recall, r.f))] for name, r in zip(names, results)]
    return Table(["system", *_header(metric, scale)], rows)


def sentence_rows(metric: Any, names: Sequence[str], statistics: Sequence[Any], scale: float = 1.0
                  ) -> list[dict[str, Any]]:
    """Per system, its sentences' P, R, F (x``scale``) and the annotator kept."""
    out = []
    for name, stats in zip(names, statistics):
        scores = metric.sentence_from_statistics(stats)
        chosen = stats[np.arange(len(stats)), scores.chosen, CANDIDATE].astype(int)
        out.append({"system": name, "sentences": [
            {"precision": scaled_number(p, scale), "recall": scaled_number(r, scale), "f": scaled_number(f, scale),
             "annotator": int(a)}
            for p, r, f, a in zip(scores.precision.tolist(), scores.recall.tolist(), scores.scores.tolist(), chosen)]})
    return out


def sentence_table(metric: Any, rows: list[dict[str, Any]], digits: int, scale: float = 1.0) -> Table:
    printed = ScoreFormat.of(metric, scale)
    cells = [[system["system"], str(d), *(printed.cell(s[k], digits) for k in ("precision", "recall", "f")),
              str(s["annotator"])] for system in rows for d, s in enumerate(system["sentences"], start=1)]
    return Table(["system", "sentence", *_header(metric, scale), "annotator"], cells)
