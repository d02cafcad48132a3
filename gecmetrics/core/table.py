"""The output layer: ROUND_HALF_UP rounding, and every table and JSON document the commands
print. A :class:`Table` (header, rows, notes) renders as a text table (prettytable), TSV,
Markdown or LaTeX (:data:`FORMATS`); JSON comes from results' ``to_dict()``."""
from __future__ import annotations

import json
import math
from decimal import ROUND_HALF_UP, Decimal, localcontext
from typing import Any, Iterable, Sequence

from ..errors import InputError

import numpy as np
from prettytable import PrettyTable


def round_half_up(value: float, digits: int) -> str:
    """``value`` rounded half up to ``digits`` decimals, from its shortest repr (as the
    gleu and GREEN packages print)."""
    value = float(value)
    if math.isnan(value) or math.isinf(value):
        return str(value)
    if isinstance(digits, bool) or not isinstance(digits, int) or digits < 0:
        raise InputError(f"digits must be an integer >= 0, got {digits!r}")
    quantum = Decimal(1).scaleb(-digits) if digits > 0 else Decimal(1)
    with localcontext() as context:  # enough precision for any number of digits asked for
        context.prec = max(28, digits + 400)
        text = str(Decimal(repr(value)).quantize(quantum, rounding=ROUND_HALF_UP))
    return text[1:] if text.startswith("-") and not text.strip("-0.") else text  # no "-0.00"


MAX_DIGITS = 20
"""The most decimals any command prints (beyond, float digits are noise)."""


def percent(value: float, digits: int) -> str:
    """A fraction printed x100."""
    return round_half_up(100 * float(value), digits)


def scaled(value: float, digits: int, scale: float = 100.0) -> str:
    """A fraction printed x100 (``scale`` 100) or as it is (1: the M2 family), rounded half up."""
    return percent(value, digits) if scale == 100 else round_half_up(scale * float(value), digits)


def unit_header(label: str, scale: float) -> str:
    """A score column's header that says how its fractions are printed: ``F0.5 (x100)`` or
    ``F0.5 (fraction)``."""
    return f"{label} ({'x100' if scale == 100 else 'fraction' if scale == 1 else f'x{scale:g}'})"


def table(header: Sequence[str], rows: Sequence[Sequence[Any]], align: dict[str, str] | None = None) -> str:
    """A text table (prettytable); ``align``: column -> 'l', 'c' or 'r'."""
    out = PrettyTable([str(h) for h in header])
    for row in rows:
        out.add_row(list(row))
    for column, side in (align or {}).items():
        out.align[column] = side
    return out.get_string()


def score_lines(rows: Iterable[tuple[str, Sequence[float]]], digits: int, header: list[str] | None = None) -> str:
    """``path<TAB>score...`` lines (x100, rounded half up), after an optional header line."""
    lines = ["\t".join(header)] if header is not None else []
    lines += ["\t".join([path] + [percent(score, digits) for score in scores]) for path, scores in rows]
    return "\n".join(lines)


FORMATS = ("text", "tsv", "markdown", "latex")


class Table:
    """A table of printed cells with optional notes below it (e.g. signatures): one model for
    every format. ``left``: columns aligned left (the rest: right in Markdown/LaTeX);
    ``text_align``: column -> 'l'/'c'/'r' in the text table (default: centred)."""

    def __init__(self, header: list[str], rows: list[list[str]], notes: Sequence[str] = (),
                 left: tuple[int, ...] = (0,), text_align: dict[str, str] | None = None) -> None:
        self.header, self.rows, self.notes = list(header), [list(row) for row in rows], list(notes)
        self.left, self.text_align = tuple(left), text_align

    def render(self, fmt: str = "text", notes: bool = True) -> str:
        """The table as ``text``, ``tsv`` (no notes), ``markdown`` or ``latex``."""
        if fmt == "tsv":
            return "\n".join("\t".join(row) for row in [self.header] + self.rows)
        if fmt == "markdown":
            return self._markdown(notes)
        if fmt == "latex":
            return self._latex(notes)
        text = table(self.header, self.rows, self.text_align)
        return "\n".join([text] + (self.notes if notes else []))

    def _markdown(self, notes: bool) -> str:
        cell = lambda text: str(text).replace("|", "\\|")  # noqa: E731
        lines = ["| " + " | ".join(cell(h) for h in self.header) + " |",
                 "|" + "|".join(":---" if k in self.left else "---:" for k in range(len(self.header))) + "|"]
        lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in self.rows]
        if notes and self.notes:
            lines += ["", "Signatures:", ""] + [f"* {note}" for note in self.notes]
        return "\n".join(lines)

    def _latex(self, notes: bool) -> str:
        spec = "".join("l" if k in self.left else "r" for k in range(len(self.header)))
        lines = [f"\\begin{{tabular}}{{{spec}}}", "\\toprule",
                 " & ".join(latex_escape(h) for h in self.header) + " \\\\", "\\midrule"]
        lines += [" & ".join(latex_escape(c) for c in row) + " \\\\" for row in self.rows]
        lines += ["\\bottomrule", "\\end{tabular}"]
        if notes and self.notes:
            lines += ["% " + note for note in self.notes]
        return "\n".join(lines)


_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
                  "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}


def latex_escape(text: Any) -> str:
    """Text with LaTeX's special characters escaped (``±`` becomes ``$\\pm$``)."""
    out = "".join(_LATEX_SPECIAL.get(c, c) for c in str(text))
    return out.replace("±", "$\\pm$")


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


PAIRED_TEST_TITLES = {"bs": "Paired bootstrap resampling", "ar": "Paired approximate randomization"}


def paired_test_text(result: Any, digits: int = 2, scale: float | None = 100.0, fmt: str = "text") -> str:
    """A paired test (:class:`~gecmetrics.stats.significance.PairedTestResult`): a title line, then a
    table (system, score, 95% interval, mean +- half-width, p-value), then the legend. ``scale``:
    100 for fractions printed x100, 1 for fractions as they are, None for scores that are not
    fractions (printed as they are)."""
    fraction, scale = scale is not None, 1.0 if scale is None else scale
    if result.method == "bs":
        how = f"{result.samples} resamples"
    else:
        how = f"{result.samples} trials, intervals from {result.confidence_samples} bootstrap resamples"
    title = (f"{PAIRED_TEST_TITLES[result.method]} ({how}, seed {result.seed}): {result.metric}, "
             f"baseline {result.baseline.name}")
    rows = []
    for system in result.systems:
        low, high = system.interval
        p_text = "baseline" if system.p_value is None else \
            f"{system.p_value:.4f}" + (" *" if system.significant else "")
        rows.append([system.name, scaled(system.score, digits, scale),
                     f"[{scaled(low, digits, scale)}, {scaled(high, digits, scale)}]",
                     f"{scaled(system.mean, digits, scale)} ± {scaled(system.half_width, digits, scale)}", p_text])
    body = Table(["system", unit_header("score", scale) if fraction else "score", "95% CI", "mean ± CI/2", "p-value"], rows).render(fmt)
    return "\n".join([title, body, "* p < 0.05 against the baseline"])
