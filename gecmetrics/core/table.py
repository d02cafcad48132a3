"""What every printed number and table is made of: ROUND_HALF_UP rounding, the scale rule
(fractions x100 unless ``--scale 1``), how a metric's scores print (:class:`ScoreFormat`: the
scale rule and its original tool's rounding, in every table of them), the p-value format, and
:class:`Table`, the one table
model (header, rows of printed cells, notes, JSON data). Rendering a table (text, TSV, Markdown,
LaTeX, JSON, any registered format) is the output layer's: :mod:`gecmetrics.output.formats`."""
from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, localcontext
from numbers import Real
from typing import Any, Iterable, Sequence

from ..errors import InputError, shown
from .checks import check_count


_CONTROLS = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def escaped_cell(text: Any, backslash: bool = True) -> str:
    """A table cell on one line of its row: tab, newline and carriage return written ``\\t``,
    ``\\n``, ``\\r`` (a file name holding one split a TSV row or a text table's); ``backslash``:
    a backslash doubled too, so that the escapes read back unambiguously (TSV, Markdown)."""
    text = str(text)
    if backslash:
        text = text.replace("\\", "\\\\")
    for control, written in _CONTROLS.items():
        text = text.replace(control, written)
    return text


def number_label(value: float) -> str:
    """A number as labels and signatures write it: ``%g`` (``0.5``, ``2``, ``1e-07``, ``inf``)
    when that reads back as the same float, else the shortest text that does (``0.80000001``,
    not ``0.8``): two settings that can give different scores never share a label."""
    text = f"{value:g}"
    return text if float(text) == value else repr(float(value))


def round_half_up(value: float, digits: int, exponent: bool = False) -> str:
    """``value`` rounded half up to ``digits`` decimals, from its shortest repr (as the
    gleu and GREEN packages round), in fixed point; ``exponent``: as those packages print it,
    ``str()`` of a Decimal (``0E-7`` for 0 past 6 decimals)."""
    digits = check_count(digits, "digits", 0, MAX_DIGITS, "gecmetrics.core.table.MAX_DIGITS")
    value = float(value)
    if math.isnan(value) or math.isinf(value):
        return str(value)
    quantum = Decimal(1).scaleb(-digits) if digits > 0 else Decimal(1)
    with localcontext() as context:  # enough precision for any number of digits asked for
        context.prec = digits + 400
        # fixed point: str() of a Decimal writes 0 and tiny numbers in exponent form past 6 decimals
        rounded = Decimal(repr(value)).quantize(quantum, rounding=ROUND_HALF_UP)
        text = str(rounded) if exponent else format(rounded, "f")
    return _no_negative_zero(text)


def _no_negative_zero(text: str) -> str:
    """``-0.00`` (a tiny negative number rounded) written ``0.00``."""
    return text[1:] if text.startswith("-") and not text.strip("-0.") else text


PYTHON2_STR_DIGITS = 12
"""Significant digits of Python 2's ``str(float)`` (and of ``print x``): PyFloat_STR_PRECISION."""


def python2_str(value: float) -> str:
    """``str(value)`` as Python 2.7 writes a float, which ``print`` in a Python 2 tool uses (the
    m2scorer's -v report): 12 significant digits, ``'%.12g'``, but an exponent from 12 digits
    before the point on (``1.23456789012e+11``, where ``'%.12g'`` writes all 12) and ``.0`` after
    a whole number written without one (``1.0``, ``0.0``, ``-0.0``); ``nan``, ``inf``, ``-inf``."""
    value = float(value)
    text = f"{value:.{PYTHON2_STR_DIGITS}g}"
    if not math.isfinite(value) or "e" in text:
        return text
    if len(text.lstrip("-").split(".")[0]) == PYTHON2_STR_DIGITS:  # 12 digits before the point: exponent
        mantissa, exponent = f"{value:.{PYTHON2_STR_DIGITS - 1}e}".split("e")
        return f"{mantissa.rstrip('0').rstrip('.')}e{exponent}"
    return text if "." in text else f"{text}.0"


MAX_DIGITS = 20
"""The most decimals any command prints (beyond, float digits are noise)."""


def more_digits(digits: int, extra: int) -> int:
    """``digits`` + ``extra`` decimals, at most :data:`MAX_DIGITS`: a column printed with more
    decimals than the ones ``-d`` sets (counts beside x100 fractions), so that every ``-d`` the
    option takes is printed (``-d 20`` asked for 22 and was refused)."""
    return min(digits + extra, MAX_DIGITS)


def percent(value: float, digits: int, exponent: bool = False) -> str:
    """A fraction printed x100."""
    return round_half_up(100 * float(value), digits, exponent)


def scaled(value: float, digits: int, scale: float = 100.0, exponent: bool = False,
           rounds_to: int | None = None) -> str:
    """A fraction printed x100 (``scale`` 100) or as it is (1: the M2 family), rounded half up.
    ``rounds_to``: the decimals (of the fraction) to which the original tool rounds the binary
    value, ties to even, as Python's ``round()`` and ``"%.4f"`` do (ERRANT's compare_m2, the
    m2scorer: 4); printed at just that precision (x100: 2 decimals; a count: ``scale`` 1), the
    value is rounded so first, which gives the original's digits where half up from the shortest
    repr would not (0.66665, a binary value below the half: 0.6666, not 0.6667; 0.15625, an exact
    tie: 0.1562); at any other precision the value itself is rounded, not the original's figure
    again."""
    shift = 2 if scale == 100 else 0
    if rounds_to is not None and scale in SCALES and digits + shift == rounds_to:
        value = float(value)
        if not exponent and math.isfinite(value):  # every digit of the binary value, as "%.4f" prints it
            return _exactly_rounded(value, digits, shift)  # (its shortest repr has 17: a value past 10^15 has more)
        value = round(value, rounds_to)
    return percent(value, digits, exponent) if scale == 100 else round_half_up(scale * float(value), digits, exponent)


def _exactly_rounded(value: float, digits: int, shift: int) -> str:
    """The binary ``value`` times 10^``shift``, rounded to ``digits`` decimals, ties to even (no
    ``-0.00``)."""
    with localcontext() as context:
        context.prec = 1000  # a double's exact decimal value has at most 767 significant digits
        text = format(Decimal(value).scaleb(shift), f".{digits}f")
    return _no_negative_zero(text)


SCALED_DIGITS = 15
"""Significant digits of a number scaled for JSON and TSV (DBL_DIG: all a double carries faithfully)."""


def scaled_number(value: Any, scale: float = 100.0) -> Any:
    """A fraction times ``scale`` as JSON and TSV give it, the one rule of every such number:
    with a ``scale`` other than 1, to :data:`SCALED_DIGITS` significant digits (the product's own
    rounding error is gone: 0.07 x100 is 7.0, not ``100 * 0.07`` = 7.000000000000001); with 1
    exactly as computed. NaN stays NaN. An array or a list: the list of its numbers so (nested
    as it is)."""
    if isinstance(scale, bool) or not isinstance(scale, Real) or not 0 < scale < 1e300:  # (nan fails too)
        raise InputError(f"must be a finite number above 0 (100: fractions x100, 1: as they are), got {shown(scale)}",
                         "scale")
    if hasattr(value, "tolist") or isinstance(value, (list, tuple)):  # multiplied at once, then written
        import numpy as np

        numbers = np.asarray(value, dtype=np.float64)
        if scale == 1:
            return numbers.tolist()
        written = [float(f"{x:.{SCALED_DIGITS}g}") for x in (scale * numbers).ravel().tolist()]
        return np.array(written, dtype=np.float64).reshape(numbers.shape).tolist()
    value = float(value)
    return value if scale == 1 else float(f"{scale * value:.{SCALED_DIGITS}g}")


@dataclass(frozen=True)
class ScoreFormat:
    """How one metric's scores are printed, the one rule of every table that prints them (corpus
    and sentence scores, a paired test's scores and interval ends, an attribution's scores): times
    ``factor`` (the scale rule, :func:`scale_factor`: the scale for a fraction, 1 for another
    score), rounded half up, or at the precision to which the metric's original tool rounds as it
    rounds (``rounds_to``, :func:`scaled`: 0.15625 is 0.1562 there). :meth:`of` reads it from a
    metric; the default: fractions x100, no tool's rounding."""

    factor: float = 100.0
    fraction: bool = True
    rounds_to: int | None = None

    @classmethod
    def of(cls, metric: Any, scale: float = 100.0) -> "ScoreFormat":
        """The format of ``metric``'s scores at ``scale`` (its ``fraction`` and ``rounds_to``)."""
        fraction = bool(getattr(metric, "fraction", True))
        return cls(scale_factor(fraction, scale), fraction, getattr(metric, "rounds_to", None))

    def cell(self, value: float, digits: int) -> str:
        """A score of the metric as a table cell, or an empty cell where there is none (NaN: a
        sentence an LLM judge gave no score), never ``nan``."""
        return "" if math.isnan(float(value)) else scaled(value, digits, self.factor, rounds_to=self.rounds_to)

    def derived(self, value: float, digits: int) -> str:
        """A number on the scale of the metric's scores that is none of its scores (the mean of
        bootstrap scores, half an interval's width, a difference of two scores): scaled, rounded
        half up (no tool prints it to round it as it does)."""
        return scaled(value, digits, self.factor)

    def signed(self, value: float, digits: int) -> str:
        """A difference of scores (an edit's attribution) as a table people read prints it:
        :meth:`derived` with ``+`` before a printed number that has no ``-`` (``+0.00`` too, a
        tiny negative difference included: :func:`round_half_up` writes no ``-0.00``), as the
        HTML report's page signs it (report.js's ``signed``). TSV and JSON keep plain numbers."""
        text = self.derived(value, digits)
        return "+" + text if text[:1].isdigit() else text

    def header(self, label: str) -> str:
        """A column header that says how its scores are printed (``F0.5 (x100)``; not a fraction: the label)."""
        return unit_header(label, self.factor) if self.fraction else label


def score_value(value: float, scale: float = 100.0) -> float | None:
    """A score as JSON holds it: times ``scale`` (:func:`scaled_number`), or None (``null``) where there is none."""
    return None if math.isnan(float(value)) else scaled_number(value, scale)


class _AsThePackagesPrint:
    """:func:`round_half_up`, :func:`percent` and :func:`scaled` as the gleu and GREEN packages
    print numbers, str() of a Decimal (``0E-7`` for 0 past 6 decimals): what their commands'
    own text repeats, digit for digit."""

    @staticmethod
    def round_half_up(value: float, digits: int) -> str:
        return round_half_up(value, digits, exponent=True)

    @staticmethod
    def percent(value: float, digits: int) -> str:
        return percent(value, digits, exponent=True)

    @staticmethod
    def scaled(value: float, digits: int, scale: float = 100.0) -> str:
        return scaled(value, digits, scale, exponent=True)


AS_THE_PACKAGES_PRINT = _AsThePackagesPrint()


SCALES = (100, 1)
"""What fractions are printed times: 100 (x100, the default) or 1 (as they are)."""


def scale_factor(fraction: Any, scale: float = 100.0) -> float:
    """The scale rule's factor, what a number is printed times: ``scale`` (100: x100, 1: as it is)
    for a fraction, 1 for a score that is not one (an LLM judge's 1-5, TrueSkill's mu).
    ``fraction``: whether it is one (a bool), or a metric (its ``fraction``, True unless it says)."""
    is_fraction = fraction if isinstance(fraction, bool) else getattr(fraction, "fraction", True)
    return float(scale) if is_fraction else 1.0


def check_scale(metrics: Sequence[Any], scale: Any, fractions_beside: bool = False, argument: str = "scale") -> float:
    """The scale rule's check, before any work (``gecmetrics.compare`` and every command's
    ``--scale``): ``scale`` is 100 or 1, and 1 where no printed score is a fraction (an LLM
    judge's 1-5, Scribendi's sums; ``fractions_beside``: other columns are, compare's Expected
    Wins) is refused, as it would change nothing (those scores print as they are). ``argument``:
    how the message names it (``--scale`` on the command line)."""
    cli = argument.startswith("-")
    if isinstance(scale, bool) or not isinstance(scale, (int, float)) or scale not in SCALES:
        raise InputError(f"must be 100 (fractions x100) or 1 (fractions as they are), got {scale!r}", argument)
    if scale != 100 and not fractions_beside and not any(getattr(m, "fraction", True) for m in metrics):
        names = " and ".join(dict.fromkeys(m.display_name for m in metrics))
        raise InputError(f"{scale:g} would change nothing: the scores of {names} are not fractions and print as they "
                         f"are ({'-d' if cli else 'digits'} sets their decimals)", argument)
    return float(scale)


def unit_header(label: str, scale: float) -> str:
    """A score column's header that says how its fractions are printed: ``F0.5 (x100)`` or
    ``F0.5 (fraction)``."""
    return f"{label} ({'x100' if scale == 100 else 'fraction' if scale == 1 else f'x{scale:g}'})"


def score_lines(rows: Iterable[tuple[str, Sequence[float]]], digits: int, header: list[str] | None = None,
                scale: float = 100.0) -> str:
    """``path<TAB>score...`` lines (x100 or x``scale``, rounded half up), after an optional
    header line: the layout gec-ranking and GREEN print (a path's tab or newline escaped; their
    numbers as they print them, :data:`AS_THE_PACKAGES_PRINT`)."""
    lines = ["\t".join(header)] if header is not None else []
    lines += ["\t".join([escaped_cell(path)] + [AS_THE_PACKAGES_PRINT.scaled(score, digits, scale) for score in scores])
              for path, scores in rows]
    return "\n".join(lines)


class Table:
    """A table of printed cells with optional notes below it (e.g. signatures): the one model
    every command prints, rendered by the output layer (:func:`gecmetrics.output.formats.render`:
    text, TSV, Markdown, LaTeX, JSON and any registered format). ``left``: columns aligned left
    (the rest: right in Markdown/LaTeX); ``text_align``: column -> 'l'/'c'/'r' in the text table
    (default: centred); ``data``: what the JSON format prints (default: the header and rows)."""

    def __init__(self, header: list[str], rows: list[list[str]], notes: Sequence[str] = (),
                 left: tuple[int, ...] = (0,), text_align: dict[str, str] | None = None, data: Any = None) -> None:
        self.header, self.rows, self.notes = list(header), [list(row) for row in rows], list(notes)
        self.left, self.text_align, self.data = tuple(left), text_align, data


PAIRED_TEST_TITLES = {"bs": "Paired bootstrap resampling", "ar": "Paired approximate randomization"}
PAIRED_TEST_LEGEND = "* p < 0.05 against the baseline"


def p_value_text(p_value: float | None, significant: bool = False) -> str:
    """A p-value as every command and the HTML report print it: 4 decimals, `` *`` when
    significant (``0.0010 *``); ``baseline`` for the system the others are tested against."""
    if p_value is None:
        return "baseline"
    return f"{float(p_value):.4f}" + (" *" if significant else "")


def _test_settings(result: Any) -> str:
    """A paired test's method, resamples (trials) and seed, as its title names them."""
    if result.method == "bs":
        how = f"{result.samples} resamples"
    else:
        how = f"{result.samples} trials, intervals from {result.confidence_samples} bootstrap resamples"
    return f"{PAIRED_TEST_TITLES[result.method]} ({how}, seed {result.seed})"


def paired_test_title(result: Any) -> str:
    """The line above a paired test's table: method, resamples, seed, metric and baseline."""
    return f"{_test_settings(result)}: {result.metric}, baseline {result.baseline.name}"


def paired_test_table(result: Any, digits: int = 2, printed: ScoreFormat = ScoreFormat()) -> Table:
    """A paired test (:class:`~gecmetrics.stats.significance.PairedTestResult`) as a table:
    system, score, 95% interval, mean +- half-width, p-value. ``printed``: how the metric's
    scores print (:meth:`ScoreFormat.of` the metric tested; the score and the interval's ends are
    scores of the metric, of the corpus and of two resampled corpora, the mean and half-width are
    not: :func:`_interval_cells`)."""
    rows = [[*_interval_cells(system, digits, printed), p_value_text(system.p_value, system.significant)]
            for system in result.systems]
    header = ["system", printed.header("score"), "95% CI", "mean ± CI/2", "p-value"]
    return Table(header, rows)


def with_metric_column(table: Table, metric: str) -> Table:
    """``table`` with a first column ``metric`` naming the metric column it tests: the TSV of
    several tests (GREEN's betas, ``compare``'s columns) has no titles, so each row says which."""
    return Table(["metric", *table.header], [[metric, *row] for row in table.rows], table.notes,
                 left=(0, *(i + 1 for i in table.left)), data=table.data)


def _interval_cells(system: Any, digits: int, printed: ScoreFormat) -> list[str]:
    """A system's name, score, 95% interval and mean ± half-width, as the paired tests print them:
    the score and the interval's ends as the metric's scores print (:meth:`ScoreFormat.cell`),
    the mean and half-width rounded half up (:meth:`ScoreFormat.derived`)."""
    low, high = system.interval
    return [system.name, printed.cell(system.score, digits),
            f"[{printed.cell(low, digits)}, {printed.cell(high, digits)}]",
            f"{printed.derived(system.mean, digits)} ± {printed.derived(system.half_width, digits)}"]


CORRECTION_TITLES = {"holm": "Holm", "bh": "Benjamini-Hochberg", "none": "no"}


def all_pairs_title(result: Any) -> str:
    """The line above an all-pairs test's tables (:class:`~gecmetrics.stats.multiple.AllPairsResult`):
    method, resamples, seed, correction and metric."""
    return (f"{_test_settings(result)}, all pairs, {CORRECTION_TITLES[result.correction]} correction: "
            f"{result.metric}")


def all_pairs_legend(result: Any) -> str:
    """The line below an all-pairs test's tables: what the star and the clusters mean."""
    adjusted = "p" if result.correction == "none" else "adjusted p"
    return (f"* {adjusted} < {result.level:g}; a cluster: systems that do not differ significantly from "
            "its best")


def all_pairs_systems_table(result: Any, digits: int = 2, printed: ScoreFormat = ScoreFormat()) -> Table:
    """Each system of an all-pairs test: score, 95% interval, mean +- half-width and its
    cluster (1: the best); ``printed`` as in :func:`paired_test_table`."""
    rows = [[*_interval_cells(system, digits, printed), str(result.cluster_of(system.name))]
            for system in result.systems]
    header = ["system", printed.header("score"), "95% CI", "mean ± CI/2", "cluster"]
    return Table(header, rows)


def all_pairs_pairs_table(result: Any, digits: int = 2, printed: ScoreFormat = ScoreFormat()) -> Table:
    """Every pair of an all-pairs test: the score difference (first minus second, rounded half
    up: :meth:`ScoreFormat.derived`), the raw and the corrected p-value (`` *`` when significant
    after the correction)."""
    rows = [[pair.first, pair.second, printed.derived(pair.difference, digits), f"{pair.p_value:.4f}",
             p_value_text(pair.adjusted_p, pair.significant)] for pair in result.pairs]
    header = ["system", "other", printed.header("difference"), "p-value", "adjusted p"]
    return Table(header, rows, left=(0, 1))


def clusters_line(result: Any) -> str:
    """The clusters of an all-pairs test, best first: ``clusters: {CAMB, AMU} > {INPUT}``."""
    return "clusters: " + " > ".join("{" + ", ".join(members) + "}" for members in result.clusters)
