"""Pairwise analysis (gec-metrics' ``MetaEvalBase.pairwise_analysis`` and its heat map): how
often a metric's sentence scores order two outputs as the human did, for each pair of human ranks.

Every pair of systems that an annotator ranked differently in an item is one comparison, with
its two human ranks (``better_rank`` < ``worse_rank``, 1 = best, as written in the judgments).
The metric's verdict and its ties follow :mod:`gecmetrics.meta.sentence` (``tie_rule``; the
default ``seeda`` is gec-metrics' own: of the pair (i, j), i before j in the system order, a
metric tie counts as "j better"). A cell's accuracy is agreements / comparisons of that rank
pair. Summed over the cells, the counts are :func:`gecmetrics.meta.sentence.sentence_agreement`'s.

The heat map (``plot_pairwise``, optional ``plot`` extra) has the better rank on the rows and the
worse rank on the columns (gec-metrics' "Rank A" and "Rank B").
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import numpy as np

from ..errors import InputError
from ..io.judgments import Judgments
from .sentence import pair_verdicts


@dataclass(frozen=True)
class RankPairCell:
    """The comparisons of one pair of human ranks."""

    better_rank: int
    worse_rank: int
    pairs: int  # comparisons counted (the denominator)
    agreements: int
    metric_ties: int  # comparisons whose two outputs the metric scored equal

    @property
    def disagreements(self) -> int:
        return self.pairs - self.agreements

    @property
    def accuracy(self) -> float:
        return self.agreements / self.pairs

    def to_dict(self) -> dict[str, Any]:
        return {"better_rank": self.better_rank, "worse_rank": self.worse_rank, "pairs": self.pairs,
                "agreements": self.agreements, "disagreements": self.disagreements,
                "metric_ties": self.metric_ties, "accuracy": self.accuracy}


@dataclass
class PairwiseAnalysis:
    """Agreement of one metric with the human pairwise preferences, per human rank pair."""

    metric: str
    judgments: str
    systems: list[str]
    tie_rule: str
    higher_is_better: bool
    cells: list[RankPairCell]  # by (better_rank, worse_rank)

    def cell(self, better_rank: int, worse_rank: int) -> RankPairCell | None:
        """The cell of a rank pair, or None when no comparison has it."""
        return next((c for c in self.cells if (c.better_rank, c.worse_rank) == (better_rank, worse_rank)), None)

    def by_accuracy(self) -> list[RankPairCell]:
        """The cells from the lowest accuracy up (gec-metrics' order; equal accuracies by ranks)."""
        return sorted(self.cells, key=lambda c: (c.accuracy, c.better_rank, c.worse_rank))

    @property
    def pairs(self) -> int:
        return sum(c.pairs for c in self.cells)

    @property
    def agreements(self) -> int:
        return sum(c.agreements for c in self.cells)

    def heatmap(self) -> tuple[list[int], list[int], np.ndarray]:
        """(better ranks, worse ranks, accuracy matrix): rows are better ranks, columns worse
        ranks, NaN where no comparison has that pair."""
        rows = sorted({c.better_rank for c in self.cells})
        columns = sorted({c.worse_rank for c in self.cells})
        matrix = np.full((len(rows), len(columns)), np.nan)
        for c in self.cells:
            matrix[rows.index(c.better_rank), columns.index(c.worse_rank)] = c.accuracy
        return rows, columns, matrix

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (the heat map's matrix with None for empty cells)."""
        rows, columns, matrix = self.heatmap()
        return {"metric": self.metric, "judgments": self.judgments, "systems": list(self.systems),
                "tie_rule": self.tie_rule, "higher_is_better": self.higher_is_better, "pairs": self.pairs,
                "agreements": self.agreements, "cells": [c.to_dict() for c in self.cells],
                "heatmap": {"better_ranks": rows, "worse_ranks": columns,
                            "accuracy": [[None if np.isnan(v) else float(v) for v in line] for line in matrix]}}


def pairwise_analysis(sentence_scores: Mapping[str, Sequence[float]], judgments: Judgments,
                      item_rows: Sequence[int], systems: Sequence[str] | None = None, *,
                      higher_is_better: bool = True, tie_rule: str = "seeda",
                      metric: str = "metric") -> PairwiseAnalysis:
    """Agreement of ``sentence_scores`` ({system: (D,) scores}) with the human preferences of
    ``judgments`` per pair of human ranks; ``item_rows[i]`` is the score row of item i's
    sentence; ``systems`` (default: all judged, code-point order) are kept and ordered as in
    :func:`gecmetrics.meta.sentence.sentence_agreement`, whose verdicts these are."""
    verdicts = pair_verdicts(sentence_scores, judgments, item_rows, systems, higher_is_better=higher_is_better,
                             tie_rule=tie_rule)
    key = verdicts.better_rank * (int(verdicts.worse_rank.max()) + 1) + verdicts.worse_rank
    cells = []
    for value in np.unique(key):
        where = key == value
        pairs = int((verdicts.counted & where).sum())
        if pairs == 0:
            continue
        cells.append(RankPairCell(int(verdicts.better_rank[where][0]), int(verdicts.worse_rank[where][0]), pairs,
                                  int((verdicts.agree & verdicts.counted & where).sum()),
                                  int((verdicts.tied & where).sum())))
    if not cells:
        raise InputError("the metric tied every pair the humans ranked differently (tie rule 'ignore')",
                         judgments.source)
    return PairwiseAnalysis(metric, judgments.source, verdicts.systems, tie_rule, higher_is_better, cells)


def pairwise_table(analysis: PairwiseAnalysis) -> tuple[list[str], list[list[Any]]]:
    """Header and rows of the analysis as a table, one row per rank pair (by ranks)."""
    header = ["better rank", "worse rank", "pairs", "agree", "disagree", "metric ties", "accuracy"]
    return header, [[c.better_rank, c.worse_rank, c.pairs, c.agreements, c.disagreements, c.metric_ties, c.accuracy]
                    for c in analysis.cells]
