"""The options every command shares, each defined once here: the run (``-p``, ``--chunk-lines``,
``--dask``, ``--quiet``), the persistent cache (``--cache DIR`` / ``--no-cache``, before or
after the command name), the output format (``--json``, ``--tsv``, ``--markdown``, ``--latex``,
``--format NAME``), the scale rule (``--scale``), ``-d`` and ``--signature``."""
from __future__ import annotations

from typing import Any, Callable, Mapping

import click

from ..core.table import MAX_DIGITS
from ..errors import InputError
from ..run.reading import DEFAULT_CHUNK_LINES
from .numbers import IntRange
from .progress import quiet_option

FORMAT_FLAGS = ("json", "tsv", "markdown", "latex")
"""The formats a command also takes as a flag of its own (``--tsv``); any other: ``--format NAME``."""
SENTENCE_HELP = ("A score per sentence: a row per sentence, a column per system (and score); cleme, gotoscorer "
                 "and m2 score (text, --tsv) print a row per system and sentence with all their scores; gleu "
                 "and green print their tool's lines (no header) unless a format is asked for.")
FORMAT_HELP = {"json": "Print JSON (per system and metric: system, scores, labels, signature, then counts, settings).",
               "tsv": "Print tab-separated values (a header, then a line per row).",
               "markdown": "Print a Markdown table and the signatures.",
               "latex": "Print a LaTeX tabular (booktabs rules), signatures as comments."}


def digits_option(default: int | None = 2, help: str | None = None) -> Callable:
    """``-d/--digits``, capped at :data:`MAX_DIGITS` in every command (``default`` None: 2 for
    scores x100, 4 with ``--scale 1``, see :func:`chosen_digits`)."""
    shown = "2, or 4 with --scale 1" if default is None else str(default)
    return click.option("-d", "--digits", type=IntRange(0, MAX_DIGITS), default=default,
                        help=(help or "Decimals of printed scores (rounded half up).") + f"  [default: {shown}]")


def chosen_digits(digits: int | None, scale: float) -> int:
    """The decimals asked for, else as many significant ones at either scale (2 x100, 4 as fractions)."""
    return digits if digits is not None else 2 if scale == 100 else 4


def scale_option(func: Callable) -> Callable:
    """``--scale 100|1``: scores that are fractions printed x100 (the default, in every command
    and the HTML report) or as fractions; scores that are not fractions (an LLM judge's 1-5) as they are."""
    return click.option("--scale", type=click.Choice(["100", "1"]), default="100", show_default=True,
                        callback=lambda ctx, param, value: float(value),
                        help="Scores that are fractions (P, R, F, GLEU+ ...) printed x100 or as fractions (0..1; "
                             "1 is refused where no score is one); the header says which.")(func)


def signature_option(func: Callable) -> Callable:
    return click.option("--signature", "show_signature", is_flag=True,
                        help="Print the signature (everything that determines the number) on stderr.")(func)


RUN_HELP = {"dask": "Count the chunks on a Dask cluster: a scheduler address (tcp://host:8786), or 'local' for a "
                    "local cluster of -p workers (needs gecmetrics[dask]; files must be readable by the workers).",
            "chunk-lines": f"Sentences read and counted together (memory stays near one chunk's needs; results do "
                           f"not depend on it)  [default: {DEFAULT_CHUNK_LINES}, or the metric's own: 250 for ERRANT, "
                           f"PT and model metrics, 50 for LLM judges]"}


def run_options(func: Callable | None = None, *, helps: Mapping[str, str] | None = None) -> Callable:
    """``-p/--jobs``, ``--chunk-lines``, ``--dask`` and ``--quiet``: worker processes, sentences
    counted together, a Dask cluster instead of local processes, and no progress bar (``helps``:
    a command's own help of ``dask`` or ``chunk-lines``, e.g. ``attribute``'s parts)."""
    def decorate(func: Callable) -> Callable:
        shown = {**RUN_HELP, **(helps or {})}
        func = click.option("--dask", "dask_address", metavar="ADDRESS", help=shown["dask"])(quiet_option(func))
        return jobs_option(click.option("--chunk-lines", type=IntRange(min=1), default=None, metavar="N",
                                        help=shown["chunk-lines"])(func))
    return decorate if func is None else decorate(func)


def jobs_option(func: Callable) -> Callable:
    """``-p/--jobs``: worker processes (0: one per core)."""
    return click.option("-p", "--jobs", "jobs", type=IntRange(0, 512), default=1, show_default=True,
                        help="Worker processes counting chunks in parallel (0: one per core); same numbers "
                             "for any value.")(func)


# ----------------------------------------------------------------------------- output formats


def format_options(func: Callable | None = None, *, helps: Mapping[str, str] | None = None) -> Callable:
    """``--json``, ``--tsv``, ``--markdown``, ``--latex`` and ``--format NAME`` (any registered
    format, :mod:`gecmetrics.output.formats`); read the choice with :func:`chosen_format`
    (``helps``: flag -> its help where a command prints something other than scores)."""
    def decorate(func: Callable) -> Callable:
        func = click.option("--format", "format_name", metavar="NAME", expose_value=False, callback=_remember_format,
                            help="Print in this output format: text, tsv, markdown, latex, json or any registered "
                                 "one.")(func)
        shown = {**FORMAT_HELP, **(helps or {})}
        for fmt in reversed(FORMAT_FLAGS):
            func = click.option(f"--{fmt}", f"as_{fmt}", is_flag=True, expose_value=False, help=shown[fmt],
                                callback=lambda ctx, param, value, fmt=fmt: _remember_format(ctx, param, fmt if value
                                                                                              else None))(func)
        return func
    return decorate if func is None else decorate(func)


def _remember_format(ctx: click.Context, _param: click.Parameter, value: str | None) -> None:
    if value is None or ctx.resilient_parsing:
        return
    from ..output.formats import check_format

    ctx.meta.setdefault("gecmetrics.formats", []).append(check_format(value))


def chosen_format(default: str = "text") -> str:
    """The one format the command line asked for (``default`` when none); two is an error."""
    context = click.get_current_context(silent=True)
    chosen = list(dict.fromkeys(context.meta.get("gecmetrics.formats", []))) if context is not None else []
    if len(chosen) > 1:
        raise InputError(f"choose one output format, got {' and '.join(chosen)}")
    return chosen[0] if chosen else default


# ----------------------------------------------------------------------------- the cache


def cache_params() -> list[click.Parameter]:
    """``--cache DIR`` and ``--no-cache`` as parameters: the group and every command get the same
    two (:class:`gecmetrics.cli.app.SharedOptionsGroup`), so they go before or after the command name."""
    return [click.Option(["--cache", "cache_folder"], metavar="DIR", expose_value=False, callback=_remember_cache,
                         multiple=True,  # click kept the last of two: A before the command, B too, ran with B
                         help="Folder of the persistent cache of parses, model outputs and LLM answers [default: "
                              "$GECMETRICS_CACHE, else the user cache folder]."),
            click.Option(["--no-cache"], is_flag=True, expose_value=False, callback=_remember_cache,
                         help="Neither read nor store cached parses, model outputs and answers.")]


def _remember_cache(ctx: click.Context, param: click.Parameter, value: Any) -> None:
    """Record ``--cache DIR`` / ``--no-cache`` once for the whole command line (wherever given)
    and make it the run's cache; contradicting choices are an error (``value``: the folders of
    ``--cache``, each in turn; True for ``--no-cache``)."""
    if ctx.resilient_parsing or not value:
        return
    from .context import remember_cache

    root = ctx.find_root()
    for folder in value if param.name == "cache_folder" else (None,):
        if folder is not None and not folder.strip():  # named here: the library's message cannot name the flag
            raise click.UsageError("--cache: empty folder name (give a folder, or --no-cache for none)")
        choice = ("folder", folder) if folder is not None else ("off", None)
        earlier = root.meta.get("gecmetrics.cache_choice")
        if earlier is not None and earlier != choice:
            raise click.UsageError("--cache and --no-cache do not go together" if {earlier[0], choice[0]} ==
                                   {"folder", "off"} else "--cache is given twice with different folders")
        root.meta["gecmetrics.cache_choice"] = choice
        remember_cache(choice[1], choice[0] == "off")  # the command's run context is made from it, when needed
