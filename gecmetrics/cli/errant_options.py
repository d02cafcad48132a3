"""compare_m2's options, shared by ``errant``, ``m2 compare`` and ``cherrant compare``: a
module that registers no command, so importing it never half-loads a command group."""
from __future__ import annotations

from typing import Any, Callable, Sequence

import click

from ..errors import InputError
from ..metrics.m2.compare import ErrantSettings
from ..metrics.type_average import level_signature
from .common import echo_json_results, echo_scores, echo_warnings
from .numbers import IntRange
from .setting_options import settings_options
from .given import given_flag
from .shared import chosen_digits, chosen_format

MODE_FLAGS = (("dt", "detection_tokens"), ("ds", "detection_spans"), ("cs", "correction_spans"),
              ("cse", "correction_types"))
MODE_HELP = {"dt": "detection in terms of tokens", "ds": "detection in terms of spans",
             "cs": "correction in terms of spans (default)", "cse": "correction in terms of spans and types"}


def comparison_options(func: Callable) -> Callable:
    """compare_m2's options: -b, -dt/-ds/-cs/-cse, -single, -multi, -filt, -cat (and
    --sentence-average)."""
    func = click.option("-cat", "category_level", type=IntRange(1, 3),
                        help="A row per error type, at level 1: the type's first character (ERRANT's M, R, U; "
                             "ChERRANT's M, R, S, W); 2: the type without its first two characters (ERRANT's "
                             "NOUN of R:NOUN); 3: the full type.")(func)
    func = settings_options(ErrantSettings)(func)
    func = click.option("--macro", "macro", is_flag=True,
                        help="P, R, F macro-averaged over the error types (of the -cat level; full types without "
                             "-cat), as --f_average macro.")(func)
    for flag, name in reversed(MODE_FLAGS):
        func = click.option(f"-{flag}", name, is_flag=True, help=f"Evaluate {MODE_HELP[flag]}.")(func)
    return func


def check_corpus_figures(category_level: int | None, options: dict[str, Any], *, sentence: bool = False,
                         mean: bool = False, paired: bool = False) -> None:
    """-cat and the macro average (--macro, or --f_average macro in ``options``) are figures of
    the corpus's per-type counts: refused with --sentence, --mean or a paired test (before, m2
    compare dropped -cat from its sentence table without a word, and --macro --sentence ended
    in a message about the metric's attributes); -cat is refused with the sentence average too (its
    type rows were corpus figures and its total row the mean beside the summed counts)."""
    macro = options.get("macro") or options.get("average") == "macro"
    if (category_level is not None or macro) and (sentence or mean or paired):
        given = next(flag for flag, on in (("--sentence", sentence), ("--mean", mean), ("a paired test", paired)) if on)
        raise InputError(f"-cat and --macro print corpus figures per error type: not with {given}")
    if category_level is not None and options.get("sentence_average"):  # its total row mixed the two
        raise InputError("-cat prints corpus figures per error type and --sentence-average a mean over sentences: "
                         "a total row would put the mean beside the summed counts; give one of them")


def check_report_numbers() -> None:
    """compare_m2's own report prints its fractions as ERRANT does: -d and --scale, which set a
    table's numbers, are refused with it (they were ignored)."""
    given = [flag for flag, name in (("-d", "digits"), ("--scale", "scale")) if given_flag(name)]
    if given:
        raise InputError(f"{given[0]} sets the numbers of a table (--tsv, --markdown, --json ...): compare_m2's report "
                         "prints its fractions as ERRANT does")


def warn_type_groups(metric: Any, results: Sequence[Any], category_level: int | None) -> None:
    """One line on stderr when -cat 1 or 2 groups types that are not ERRANT's
    (:func:`~gecmetrics.metrics.edit_comparison.foreign_groups`)."""
    from ..metrics.edit_comparison import foreign_groups

    note = foreign_groups(metric.comparison(), results, category_level)
    if note is not None:
        click.echo(f"gecmetric: warning: {note}", err=True)


def warn_nothing_compared(names: Sequence[str], results: Sequence[Any], tool: str = "compare_m2") -> None:
    """One line on stderr when -filt (or -single/-multi) leaves a system no edit to compare
    (neither its own nor the reference's): its numbers stay the ``tool``'s (P = R = F = 1 of
    nothing compared), said to compare nothing."""
    empty = [name for name, result in zip(names, results)
             if result.tp == result.fp == result.fn == 0 and _edit_filters(result.settings)]
    if empty:
        flags = " ".join(_edit_filters(results[0].settings))
        whose = "" if len(names) == 1 else f" of {', '.join(empty)}"
        echo_warnings([f"gecmetric: warning: {flags} left no edit{whose} to compare (of the hypothesis or the "
                       f"reference): P = R = F = 1 is {tool}'s score of nothing compared"])


def _edit_filters(settings: dict[str, Any]) -> list[str]:
    """The edit filters of a comparison's settings, as flags."""
    return ([f"-filt {' '.join(settings['filter_types'])}"] if settings.get("filter_types") else []) + \
        [f"-{name}" for name in ("single", "multi") if settings.get(name)]


def chosen_mode(flags: dict[str, Any]) -> str:
    """The one evaluation mode given by -dt/-ds/-cs/-cse (cs by default); the flags are taken out
    (and --macro becomes the ``average`` setting --f_average gives)."""
    if flags.pop("macro", False):
        if flags.get("average") not in (None, "macro"):
            raise click.UsageError(f"--macro and --f_average {flags['average']} contradict each other")
        flags["average"] = "macro"
    modes = [flag for flag, name in MODE_FLAGS if flags.pop(name, False)]
    if len(modes) > 1:
        raise click.UsageError(f"-{modes[0]} and -{modes[1]} are mutually exclusive")
    return modes[0] if modes else "cs"


def comparison_report(name: str, comparer: Any, result: Any, category_level: int | None, digits: int | None,
                      scale: float) -> None:
    """What ``m2 compare`` and ``cherrant compare|score`` print: the tool's report as it prints it
    (text and fractions), or in a format asked for the table of `gecmetric errant` (x100 unless
    --scale 1) with the signature, or the one JSON vocabulary (a list of one system)."""
    from ..metrics.m2.errant_report import errant_table, format_errant_report

    fmt = chosen_format(None)
    if fmt == "json":
        echo_json_results([(name, comparer, result)], scale, level=category_level)
    elif fmt is None:
        click.echo(format_errant_report(result, category_level, comparer.comparison().trace_layout), nl=False)
    else:
        echo_scores(errant_table([name], [result], category_level, scale, chosen_digits(digits, scale)), fmt,
                    [report_signature(result, category_level)])


def report_signature(result: Any, category_level: int | None) -> Any:
    """The signature of a comparison's report at its -cat level (``cat:LEVEL`` with the macro
    average, whose figures that level's groups make): what --signature and the tables print."""
    return level_signature(result.signature, result.macro, category_level)


def warn_if_swapped(hyp: str, ref: str) -> None:
    """A warning when the hypothesis M2 has several annotators and the reference one: the files
    are most likely given the wrong way round (the numbers would be computed, silently wrong)."""
    from ..io.m2 import annotator_ids

    hyp_ids, ref_ids = annotator_ids(hyp), annotator_ids(ref)
    if len(hyp_ids) > 1 and len(ref_ids) == 1:
        echo_warnings([f"gecmetric: warning: -hyp {hyp} has {len(hyp_ids)} annotators and -ref {ref} one: are they "
                       "swapped? (-hyp is the system's M2, -ref the gold)"])
