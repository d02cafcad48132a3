"""What ERRANT's compare_m2 prints (verbose traces, the -cat table, the overall table), and the
one table of several systems that ``gecmetric errant`` prints by default."""
from __future__ import annotations

from typing import Sequence

from ...core.table import Table, scaled, unit_header
from ...errors import InputError
from ...core.edits.compare import MODE_TITLES, SentenceComparison, SentenceTrace, errant_scores, rounded_scores
from ..edit_comparison import EditComparisonMetric, ErrantResult, errant_type_groups


def _beta_label(beta: float) -> str:
    return "F" + str(beta)


def _type_groups(result: ErrantResult, level: int) -> dict:
    """The -cat groups the tables print (:func:`errant_type_groups`: an empty type at level 1 is
    an InputError, where compare_m2 stops with an IndexError)."""
    return errant_type_groups(result.categories, level)


def format_errant_report(result: ErrantResult, category_level: int | None = None, layout: str = "compare_m2") -> str:
    """The text ERRANT's compare_m2 prints (``layout`` "compare_m2_for_evaluation": ChERRANT's
    script's): verbose traces (when kept), the optional category table, then the overall
    TP/FP/FN/Prec/Rec/F table."""
    trace_lines = _TRACE_PRINTERS.get(layout)
    if trace_lines is None:
        raise InputError(f"unknown trace layout {layout!r}; choose one of: {', '.join(TRACE_LAYOUTS)}")
    lines: list[str] = []
    beta = result.beta
    for trace in result.traces:
        lines.extend(trace_lines(trace, beta))
    title = MODE_TITLES[result.mode]
    if result.settings.get("sentence_average"):
        title = title.rstrip() + ", Sentence Average "
    if category_level:
        lines.append("")
        lines.append("{:=^66}".format(title))
        lines.append(" ".join(["Category".ljust(14), "TP".ljust(8), "FP".ljust(8), "FN".ljust(8), "P".ljust(8),
                               "R".ljust(8), _beta_label(beta)]))
        grouped = _type_groups(result, category_level)
        for error_type in sorted(grouped):
            counts = grouped[error_type]
            p, r, f = counts.scores(beta)
            lines.append(" ".join([error_type.ljust(14), str(counts.tp).ljust(8), str(counts.fp).ljust(8),
                                   str(counts.fn).ljust(8), str(p).ljust(8), str(r).ljust(8), str(f)]))
    width = 52 if result.macro else 46  # errant PR #52's wider rule for its " (macro)" header
    lines.append("")
    lines.append("{:=^{width}}".format(title, width=width))
    lines.append("\t".join(["TP", "FP", "FN", "Prec", "Rec", _beta_label(beta) + (" (macro)" if result.macro else "")]))
    lines.append("\t".join(map(str, [result.tp, result.fp, result.fn, *result.overall(category_level)])))
    lines.append("{:=^{width}}".format("", width=width))
    lines.append("")
    return "\n".join(lines) + "\n"


_RULE = "{:-^40}".format("")


def _trace_lines(trace: SentenceTrace, beta: float) -> list[str]:
    lines = [_RULE, f"Original sentence {trace.index}: {trace.source}"]
    for pair in trace.pairs:
        lines.extend(_pair_lines(trace, pair, beta, typed=True))
    lines.append(_RULE)
    lines.append(f"^^ HYP {trace.chosen[0]}, REF {trace.chosen[1]} chosen for sentence {trace.index}")
    lines.append("Local results:")
    lines.extend(_right_aligned_table([["Category", "TP", "FP", "FN"]]
                                      + [[name, *counts] for name, counts in trace.categories.items()]))
    return lines


def _cherrant_trace_lines(trace: SentenceTrace, beta: float) -> list[str]:
    """ChERRANT's trace of a sentence: its S line (after the "S") above every pair, nothing for
    a sentence it does not compare (a reference of one NA edit, or --reference_num)."""
    if trace.skipped:
        return []
    lines = []
    heading = f"SENTENCE {trace.index}" + ("" if trace.bare_s_line else " " + trace.source)
    for pair in trace.pairs:
        lines.extend([_RULE, heading])
        lines.extend(_pair_lines(trace, pair, beta, typed=False))
    lines.append(_RULE)
    lines.append(f"^^ HYP {trace.chosen[0]}, REF {trace.chosen[1]} chosen for sentence {trace.index}")
    return lines


def _pair_lines(trace: SentenceTrace, pair: SentenceComparison, beta: float, typed: bool) -> list[str]:
    """One compared pair: its edits (ERRANT 3 adds each one's type, ChERRANT does not) and the
    local and running counts and scores."""
    tp, fp, fn = pair.counts
    local_p, local_r, local_f = rounded_scores(tp, fp, fn, beta)
    global_p, global_r, global_f = rounded_scores(*pair.global_counts, beta)
    hyp_edits, ref_edits = ((pair.hyp_edits, pair.ref_edits) if typed else
                            ([edit[:-1] for edit in pair.hyp_edits], [edit[:-1] for edit in pair.ref_edits]))
    return [
        _RULE,
        f"SENTENCE {trace.index} - HYP {pair.hyp_annotator} - REF {pair.ref_annotator}",
        f"HYPOTHESIS EDITS : {hyp_edits!r}",
        f"REFERENCE EDITS  : {ref_edits!r}",
        f"Local TP/FP/FN   : {tp} {fp} {fn}",
        f"Local P/R/F{beta}  : {local_p} {local_r} {local_f}",
        "Global TP/FP/FN  : " + " ".join(map(str, pair.global_counts)),
        f"Global P/R/F{beta}  : {global_p} {global_r} {global_f}",
    ]


_TRACE_PRINTERS = {"compare_m2": _trace_lines, "compare_m2_for_evaluation": _cherrant_trace_lines}
TRACE_LAYOUTS = tuple(_TRACE_PRINTERS)
"""How -v traces are printed, named after the script that prints them: ERRANT 3.0.2's
compare_m2, or ChERRANT's compare_m2_for_evaluation.py (ERRANT 2's layout: the sentence line
before every pair, edits without their types, no local type table, nothing for a sentence it
skips)."""


def _right_aligned_table(rows: list[list]) -> list[str]:
    """Columns right-aligned to their widest cell plus 3 spaces (ERRANT's local table)."""
    widths = [max(len(str(row[i])) for row in rows) + 3 for i in range(len(rows[0]))]
    return ["".join(str(cell).rjust(width) for cell, width in zip(row, widths)) for row in rows]


def errant_table(names: Sequence[str], results: Sequence[ErrantResult], category_level: int | None = None,
                 scale: float = 100.0, digits: int | None = None) -> Table:
    """One row per system (TP, FP, FN and ERRANT's P, R, F, x100 with 2 decimals, or with
    ``scale`` 1 as fractions with 4: every cell of a column the same width); with
    ``category_level`` one row per system and error type (ERRANT's -cat grouping), then the
    system's totals (category ``total``). At those default ``digits`` the figures compare_m2
    prints (rounded to 4 decimals as it rounds them); at any other, the figures' own digits
    (:meth:`ErrantResult.exact`; with the macro average, errant PR #52's mean of the types'
    4-decimal figures, not zeros after its rounding)."""
    beta = results[0].beta if results else 0.5
    digits = (2 if scale == 100 else 4) if digits is None else digits

    def row(counts: tuple[int, int, int], scores: Sequence[float]) -> list[str]:
        return [*(str(n) for n in counts),
                *(scaled(x, digits, scale, rounds_to=EditComparisonMetric.rounds_to) for x in scores)]
    header = ["system", "TP", "FP", "FN", *(unit_header(name, scale) for name in ("P", "R", _beta_label(beta)))]
    if category_level is None:
        rows = [[name, *row((r.tp, r.fp, r.fn), r.exact())] for name, r in zip(names, results)]
        return Table(header, rows, text_align={"system": "l"}, notes=_macro_note(results))
    rows = []
    for name, result in zip(names, results):
        grouped = _type_groups(result, category_level)
        for error_type in sorted(grouped):
            counts = grouped[error_type]
            rows.append([name, error_type, *row((counts.tp, counts.fp, counts.fn),
                                                errant_scores(counts.tp, counts.fp, counts.fn, beta))])
        rows.append([name, "total", *row((result.tp, result.fp, result.fn), result.exact(category_level))])
    return Table(header[:1] + ["category"] + header[1:], rows, left=(0, 1), text_align={"system": "l", "category": "l"},
                 notes=_macro_note(results))


def _macro_note(results: Sequence[ErrantResult]) -> list[str]:
    """Under a table of macro averages: what P, R, F are (TP, FP, FN stay the summed counts)."""
    if not any(result.macro for result in results):
        return []
    return ["P, R, F: macro averages over the error types (of the -cat level; full types without -cat) that have a "
            "TP, FP or FN (errant PR #52); TP, FP, FN: the sums"]
