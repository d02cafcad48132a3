"""What ``gecmetric m2 score`` prints, as the NUS m2scorer does: a table of P/R/F per system,
per-sentence P/R/F (with the annotator the corpus choice keeps), and with -v per sentence its
edits and the running counts."""
from __future__ import annotations

from typing import Any, Iterator, Sequence

from ...core.table import Table, round_half_up, scaled, unit_header
from .maxmatch import M2Result, precision_recall_f


def _edits_text(edits) -> str:
    return repr([e.as_tuple() for e in edits])


def _gold_text(edits) -> str:
    return repr([(g.start, g.end, g.original, list(g.corrections)) for g in edits])


def _verbose_lines(result: M2Result, digits: int) -> list[str]:
    """Per sentence: source, hypothesis, chosen annotator, its edits and the running P/R/F."""
    lines = []
    total = [0, 0, 0]
    for index, detail in enumerate(result.details, start=1):
        slot = detail.chosen
        system, gold, correct = detail.system_edits[slot], detail.gold_edits[slot], detail.correct_edits[slot]
        total = [total[0] + len(correct), total[1] + len(system), total[2] + len(gold)]
        p, r, f = precision_recall_f(float(total[0]), float(total[1]), float(total[2]), result.beta)
        lines += [
            f"SENTENCE      : {index}",
            f"SOURCE        : {detail.source}",
            f"HYPOTHESIS    : {detail.hypothesis}",
            f"ANNOTATOR     : {detail.annotators[slot]} (of {', '.join(map(str, detail.annotators))})",
            f"SYSTEM EDITS  : {_edits_text(system)}",
            f"GOLD EDITS    : {_gold_text(gold)}",
            f"CORRECT EDITS : {_edits_text(correct)}",
            f"# correct     : {total[0]}",
            f"# proposed    : {total[1]}",
            f"# gold        : {total[2]}",
            f"precision     : {round_half_up(p, digits)}",
            f"recall        : {round_half_up(r, digits)}",
            f"f_{result.beta:g}         : {round_half_up(f, digits)}",
            "-------------------------------------------",
        ]
    return lines


def verbose_text(result: M2Result, digits: int) -> str:
    """The m2scorer's -v report of one system (the result's ``details`` filled)."""
    return "\n".join([*_verbose_lines(result, digits), f"CORRECT EDITS  : {result.correct}",
                      f"PROPOSED EDITS : {result.proposed}", f"GOLD EDITS     : {result.gold}",
                      f"SIGNATURE      : {result.signature}"])


class M2Report:
    """The m2scorer's table (system, precision, recall, F-beta as fractions), and per-sentence
    lines chunk by chunk (the annotator choice of a sentence depends on the counts before it:
    the report keeps them between chunks)."""

    table_format = "tsv"  # the m2scorer's lines: tab-separated

    def __init__(self, scale: float = 1.0, category_level: int | None = None) -> None:
        self.totals: dict[str, tuple[int, int, int]] = {}
        self.scale = scale
        self.category_level = category_level
        """-cat: the corpus table has a row per system and error type group (then its total)."""

    def header(self, beta: float) -> list[str]:
        return [unit_header(name, self.scale) for name in ("precision", "recall", f"f{beta:g}")]

    def corpus_text(self, metrics: Sequence[Any], names: Sequence[str], results: Sequence[list], digits: int,
                    verbose: bool) -> Table:
        rounds_to = metrics[0].rounds_to  # at 4 fraction decimals the m2scorer's figures
        if self.category_level is not None:
            return type_table(names, [r[0] for r in results], self.category_level, self.scale, digits, rounds_to)
        rows = [[name, *(scaled(x, digits, self.scale, rounds_to=rounds_to) for x in (r[0].precision, r[0].recall,
                                                                                        r[0].f))]
                for name, r in zip(names, results)]
        return Table(["system", *self.header(metrics[0].settings.beta)], rows)

    def sentence_lines(self, metric: Any, chunk: Any, names: Sequence[str], statistics: list, scores: list,
                       digits: int, verbose: bool) -> Iterator[str]:
        if chunk.offset == 0:
            yield "\t".join(["system", "sentence", *self.header(metric.settings.beta)])
        scores = [metric.sentence_from_statistics(s, self.totals.get(name, (0, 0, 0)))
                  for name, s in zip(names, statistics)]
        for d in range(chunk.size):
            for name, s in zip(names, scores):
                yield f"{name}\t{chunk.offset + d + 1}\t" + "\t".join(
                    scaled(x, digits, self.scale) for x in (s.precision[d], s.recall[d], s.scores[d]))
        self.totals.update((name, tuple(int(x) for x in s.totals)) for name, s in zip(names, scores))


def type_table(names: Sequence[str], results: Sequence[M2Result], level: int, scale: float = 1.0,
               digits: int = 4, rounds_to: int | None = None) -> Table:
    """A row per system and error type group of the -cat ``level`` (the gold M2's types, see
    docs/m2.md): TP, FP, FN and their P, R, F; then the system's total: correct, proposed -
    correct, gold - correct and its P, R, F (the macro average at this level with --macro);
    ``rounds_to``: the metric's (:func:`gecmetrics.core.table.scaled`)."""
    beta = results[0].beta if results else 0.5
    header = ["system", "category", "TP", "FP", "FN",
              *(unit_header(name, scale) for name in ("precision", "recall", f"f{beta:g}"))]
    rows = []
    for name, result in zip(names, results):
        for error_type, c in sorted(result.grouped_categories(level).items()):
            scores = precision_recall_f(c.tp, c.tp + c.fp, c.tp + c.fn, beta)
            rows.append([name, error_type, str(c.tp), str(c.fp), str(c.fn),
                         *(scaled(x, digits, scale, rounds_to=rounds_to) for x in scores)])
        counts = (result.correct, result.proposed - result.correct, result.gold - result.correct)
        rows.append([name, "total", *map(str, counts),
                     *(scaled(x, digits, scale, rounds_to=rounds_to) for x in result.overall(level))])
    notes = ["P, R, F of total: macro averages over the groups above" if any(r.macro for r in results) else ""]
    return Table(header, rows, notes=[n for n in notes if n], left=(0, 1))
