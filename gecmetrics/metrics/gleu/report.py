"""GLEU's verbose table (SPEC 2.6): per order match, penalty, numerator, denominator, p, BP and
the per-order GLEU, then the total."""
from __future__ import annotations

from typing import Any, Iterator, Sequence

import numpy as np

from ...core.table import AS_THE_PACKAGES_PRINT as printed, Table, number_label, score_lines


def gleu_table(result, digits: int) -> Table:
    """The per-order GLEU table: n, match, penal, numer, denom, p, bp, gleu (SPEC 2.6)."""
    def count(x) -> Any:
        x = float(x)
        return int(x) if x.is_integer() else printed.round_half_up(x, digits)

    bp = printed.percent(result.brevity_penalty, digits)
    rows = []
    precision = result.precision
    order_scores = result.order_scores
    for k in range(len(result.match)):
        rows.append([k + 1, count(result.match[k]), count(result.penalty[k]), count(result.numerator[k]),
                     count(result.denominator[k]), printed.percent(precision[k], digits), bp,
                     printed.percent(order_scores[k], digits)])
    with np.errstate(divide="ignore"):
        mean_precision = float(np.exp(np.log(precision).mean())) if len(precision) else 0.0
    rows.append(["total", count(np.sum(result.match)), count(np.sum(result.penalty)),
                 count(np.sum(result.numerator)), count(np.sum(result.denominator)),
                 printed.percent(mean_precision, digits), bp, printed.percent(result.score, digits)])
    return Table(["", "match", "penal", "numer", "denom", "p", "bp", "gleu"], rows)


class GLEUReport:
    """What ``gecmetric gleu`` prints: one line per hypothesis file (a column per lambda of the
    2015 GLEU), the per-order tables with -v, and sentence lines or tables (SPEC 2.5, 2.6).
    Scores x100 (``scale`` 1: fractions); the per-order tables are gec-ranking's, x100."""

    def __init__(self, scale: float = 100.0) -> None:
        self.scale = scale

    @staticmethod
    def header(metrics: Sequence[Any]) -> list[str] | None:
        """The header line of several gleu0 lambdas (one column each); none for one metric."""
        return ["lambda"] + [number_label(m.lambda_) for m in metrics] if len(metrics) > 1 else None

    def corpus_text(self, metrics: Sequence[Any], names: Sequence[str], results: Sequence[list], digits: int,
                    verbose: bool) -> str | list[str | Table]:
        if not verbose:
            return score_lines(((name, [r.score for r in per_metric]) for name, per_metric in zip(names, results)),
                               digits, self.header(metrics), self.scale)
        lines: list[str | Table] = []
        for name, per_metric in zip(names, results):
            for metric, result in zip(metrics, per_metric):
                lines.append(name + (f"\tlambda={number_label(metric.lambda_)}" if len(metrics) > 1 else ""))
                lines.append(gleu_table(result, digits))
                if result.iterations > 1:  # (our line, not the package's: x100 unless --scale 1, as the scores)
                    mean, std, low, high = (printed.scaled(x, digits, self.scale)
                                            for x in (result.score, result.std, *result.interval))
                    lines.append(f"mean {mean}  std {std}  95% interval ({low}, {high})  "
                                 f"over {result.iterations} iterations (counts above are means)")
        return lines

    def mean_text(self, metrics: Sequence[Any], names: Sequence[str], sentences: Sequence[list], digits: int) -> str:
        return score_lines(((name, [s.mean for s in per_metric]) for name, per_metric in zip(names, sentences)),
                           digits, self.header(metrics), self.scale)

    def sentence_lines(self, metric: Any, chunk: Any, names: Sequence[str], statistics: list, scores: list,
                       digits: int, verbose: bool) -> Iterator[str | Table]:
        """One chunk's sentence lines (a column per file), or with -v per sentence, file and
        reference the S/H/R lines and the table (``*`` marks the reference chosen)."""
        if not verbose:
            for d in range(chunk.size):
                cells = []
                for s in scores:
                    cells.append(printed.scaled(s.scores[d], digits, self.scale))
                    if s.std is not None:
                        low, high = (printed.scaled(x, digits, self.scale) for x in s.interval[d])
                        cells += [printed.scaled(s.std[d], digits, self.scale), f"({low},{high})"]
                yield "\t".join(cells)
            return
        corpus = chunk.corpus()
        # the gleu package's sentence tables show the penalty before the clamp to the match
        unclamped = getattr(metric, "unclamped_penalties", None)
        penalties = [unclamped(corpus.sources, corpus.references, corpus.hypotheses[name]) if unclamped else None
                     for name in names]
        merged = getattr(metric, "merges_references", False)  # GLEU 2015: one table of all references
        for d in range(corpus.size):
            number = chunk.offset + d + 1
            for h, name in enumerate(names):
                chosen = scores[h].chosen_references[d]
                for r in range(len(corpus.references)):
                    if r == 0 or not merged:
                        yield f"S-{number}   \t{corpus.sources[d]}"
                        yield f"H-{number}-{h + 1} \t{corpus.hypotheses[name][d]}"
                    yield f"R-{number}-{r + 1}{'*' if r == chosen and not merged else ' '}\t{corpus.references[r][d]}"
                    if merged and r < len(corpus.references) - 1:
                        continue
                    penalty = None if penalties[h] is None else penalties[h][d, r]
                    yield gleu_table(metric.sentence_result(statistics[h], d, r, penalty), digits)
