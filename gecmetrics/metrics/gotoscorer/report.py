"""What ``gecmetric gotoscorer`` prints: the scores of the systems (a row per system, or per
system and sentence with --sentence; the weighted TP, FP, FN and TN first with -v), and the
difficulty of each error category as a table in the format asked for (the original's own text:
:func:`~.scorer.format_difficulty`)."""
from __future__ import annotations

from typing import Any, Sequence

from ...core.table import Table, more_digits, scaled, unit_header
from .scorer import Difficulty, GoToRun

SCORE_COLUMNS = (("P", "precision"), ("R", "recall"), ("F", "f"), ("F0.5", "f05"), ("Acc", "accuracy"))
COUNT_COLUMNS = (("TP", "tp"), ("FP", "fp"), ("FN", "fn"), ("TN", "tn"))
FRACTIONS = {key for _, key in SCORE_COLUMNS}


def scores_table(run: GoToRun, labels: Sequence[str], order: Sequence[int], metric: Any, digits: int,
                 scale: float, verbose: bool = False, sentence: bool = False) -> Table:
    """The systems' scores in ``order``, named by ``labels``: scores at ``digits`` decimals (x100
    for ``scale`` 100) and counts at two more there, both rounded from the binary value as the
    original's ``{:.4f}`` (the metric's ``rounds_to``); with ``sentence`` a row per system and
    sentence."""
    columns = (COUNT_COLUMNS if verbose else ()) + SCORE_COLUMNS
    count_digits = more_digits(digits, 2 if scale == 100 else 0)

    def cells(scores: Any) -> list[str]:
        return [scaled(getattr(scores, key), digits, scale, rounds_to=metric.rounds_to) if key in FRACTIONS
                else scaled(getattr(scores, key), count_digits, 1.0, rounds_to=metric.rounds_to) for _, key in columns]

    header = [unit_header(label, scale) if key in FRACTIONS else label for label, key in columns]
    if sentence:
        return Table(["system", "sentence", *header],
                     [[labels[s], str(d + 1), *cells(score)] for s in order for d, score in enumerate(run.sentence_scores(s))])
    return Table(["system", *header], [[labels[s], *cells(run.scores[s])] for s in order])


def difficulty_rows(rows: Sequence[Difficulty]) -> Table:
    """The category difficulty (``-cat``) as a table: category, mean, std, freq at 2 decimals."""
    return Table(["category", "mean", "std", "freq"],
                 [[row.category, f"{row.mean:.2f}", f"{row.std:.2f}", str(row.count)] for row in rows])
