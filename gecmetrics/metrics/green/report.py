"""GREEN's verbose table (SPEC 3.4): per order the seven regions, TP/FP/FN, P, R, F and the
cumulative P, R, F."""
from __future__ import annotations

import math
from typing import Any, Iterator, Sequence

import numpy as np

from ...core.table import AS_THE_PACKAGES_PRINT as printed, Table, score_lines
from .green import REGIONS, alpha_of, beta_label, order_scores, true_false


def green_table(region_counts, beta: float, digits: int) -> Table:
    """The per-order GREEN table of region counts (N, 7): regions, TP FP FN, P R F and
    cumulative P R F (SPEC 3.4)."""
    scores = order_scores(region_counts, alpha_of(beta))
    tp, fp, fn = true_false(np.asarray(region_counts))
    rows = []
    for k, counts in enumerate(region_counts):
        rows.append([k + 1, *[int(x) for x in counts], int(tp[k]), int(fp[k]), int(fn[k])]
                    + [printed.percent(v[k], digits) for v in (scores.precision, scores.recall, scores.f,
                                                       scores.cumulative_precision, scores.cumulative_recall,
                                                       scores.cumulative_f)])
    header = ["", *REGIONS, "TP", "FP", "FN", "P", "R", f"F{float(beta)}", "cumP", "cumR", "cumF"]
    return Table(header, rows)


def signed_beta(beta: float, digits: int) -> str:
    """A beta rounded half up for the verbose line, ``-b -0`` as ``-0.00`` as the original prints
    it (:func:`round_half_up` writes every zero unsigned)."""
    text = printed.round_half_up(beta, digits)
    return "-" + text if beta == 0 and math.copysign(1.0, beta) < 0 else text


class GREENReport:
    """What ``gecmetric green`` prints: a header of betas, then one line per corrected file; the
    per-order tables with -v; sentence lines (a column per beta and file, beta-major) or tables.
    Scores x100 (``scale`` 1: fractions); the per-order tables are GREEN's, x100;
    ``line_verbose`` (-v -l): a line of each table's last cumulative P, R, F instead, after the
    alpha and beta, as the original prints it."""

    def __init__(self, scale: float = 100.0, line_verbose: bool = False) -> None:
        self.scale = scale
        self.line_verbose = line_verbose

    @staticmethod
    def header(metrics: Sequence[Any]) -> list[str]:
        return ["beta"] + [beta_label(b) for b in metrics[0].betas]

    def corpus_text(self, metrics: Sequence[Any], names: Sequence[str], results: Sequence[list], digits: int,
                    verbose: bool) -> str | list[str | Table]:
        metric = metrics[0]
        if not verbose:
            return score_lines(((name, per_metric[0].scores) for name, per_metric in zip(names, results)), digits,
                               self.header(metrics), self.scale)
        lines: list[str | Table] = []
        for name, per_metric in zip(names, results):
            for k, beta in enumerate(metric.betas):
                weight = alpha_of(beta)
                alpha, shown_beta = printed.round_half_up(weight, digits), signed_beta(beta, digits)
                if self.line_verbose:
                    scores = order_scores(per_metric[0].regions[k], weight)
                    lines.append("\t".join([alpha, shown_beta, *(printed.percent(v[-1], digits) for v in (
                        scores.cumulative_precision, scores.cumulative_recall, scores.cumulative_f))]))
                    continue
                lines.append(f"{name}\talpha={alpha}\tbeta={shown_beta}")
                lines.append(green_table(per_metric[0].regions[k], beta, digits))
        return lines

    def mean_text(self, metrics: Sequence[Any], names: Sequence[str], sentences: Sequence[list], digits: int) -> str:
        return score_lines(((name, per_metric[0].mean) for name, per_metric in zip(names, sentences)), digits,
                           self.header(metrics), self.scale)

    def sentence_lines(self, metric: Any, chunk: Any, names: Sequence[str], statistics: list, scores: list,
                       digits: int, verbose: bool) -> Iterator[str | Table]:
        if not verbose:
            for d in range(chunk.size):
                yield "\t".join(printed.scaled(s.scores[k, d], digits, self.scale) for k in range(len(metric.betas))
                                 for s in scores)
            return
        corpus = chunk.corpus()
        for d in range(corpus.size):
            number = chunk.offset + d + 1
            for h, name in enumerate(names):
                for k, beta in enumerate(metric.betas):
                    chosen = scores[h].chosen_references[k, d]
                    for r in range(len(corpus.references)):
                        yield f"S-{number}   \t{corpus.sources[d]}"
                        yield f"C-{number}-{h + 1} \t{corpus.hypotheses[name][d]}"
                        yield f"R-{number}-{r + 1}{'*' if r == chosen else ' '}\t{corpus.references[r][d]}"
                        yield green_table(metric.region_counts(statistics[h][d, r]), beta, digits)
