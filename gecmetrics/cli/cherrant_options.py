"""The options and helpers of ``gecmetric cherrant``'s commands: parallel_to_m2.py's options
(the annotator), compare_m2_for_evaluation.py's own options, the comparer, the report's options
and the M2 outputs (the runs are cherrant_run's)."""
from __future__ import annotations

from typing import Any, Callable

import click

from ..errors import InputError
from ..metrics.errant.metric import WORD_LEVEL_MESSAGE
from .numbers import INT
from .shared import digits_option, format_options, run_options, scale_option, signature_option
from .errant_options import chosen_mode
from .setting_options import given_settings


def annotator_options(func: Callable) -> Callable:
    """parallel_to_m2.py's options that change the M2: -g, -s, --no-simplified; and the data folder."""
    func = click.option("--cherrant-data", "data_folder", metavar="DIR",
                        help="Folder of ChERRANT's data files (default: $GECMETRICS_CHERRANT_DATA, else the user "
                             "data folder filled by `gecmetric data fetch cherrant`).")(func)
    func = click.option("--no-simplified", "--no_simplified", "no_simplified", is_flag=True,
                        help="Do not convert targets to simplified characters (OpenCC t2s).")(func)
    func = click.option("-s", "--strategy", "--multi_cheapest_strategy", "strategy", type=click.Choice(["all", "first"]),
                        default="all", show_default=True,
                        help="Every cheapest alignment (all) or only the first.")(func)
    func = click.option("-g", "--granularity", type=click.Choice(["char", "word"]), default="char",
                        show_default=True, help="Character level (word level needs LTP: not available).")(func)
    return func


def make_annotator(granularity: str, strategy: str, no_simplified: bool, data_folder: str | None):
    if granularity != "char":
        raise InputError(WORD_LEVEL_MESSAGE)
    from ..core.lang.zh.annotate import CharAnnotator

    annotator = CharAnnotator(data_folder, strategy=strategy, simplified=not no_simplified)
    if not annotator.data.matches_published:
        click.echo(f"gecmetric: warning: the data files in {annotator.data.folder} differ from ChERRANT's published "
                   "ones (see `gecmetric data check cherrant`): edits may differ from ChERRANT's", err=True)
    return annotator


def cherrant_options(func: Callable) -> Callable:
    """compare_m2_for_evaluation.py's own options, beside ERRANT's."""
    func = click.option("--reference_num", "--reference-num", "reference_num", type=INT,
                        help="Only score sentences with exactly N reference annotators.")(func)
    func = click.option("--max_answer_num", "--max-answer-num", "max_answer_num", type=INT,
                        help="Only the edits of annotators 0..K-1 (K = 1, 2 or 3).")(func)
    func = click.option("--end", type=INT, help="With --start: score the sentences [start:end] only.")(func)
    func = click.option("--start", type=INT, help="With --end: score the sentences [start:end] only.")(func)
    return func


def write_held(outputs_held: list[tuple[str | None, Any]]) -> None:
    """Each (path, held file) with a path: the files replace their targets together, or none does."""
    import shutil

    from ..io.atomic import output_group

    with output_group() as outputs:
        for path, held in outputs_held:
            if path:
                held.seek(0)
                with outputs.output(path) as handle:
                    shutil.copyfileobj(held, handle)


def make_comparer(verbose: bool, max_answer_num: int | None, reference_num: int | None, options: dict):
    from ..metrics.edit_comparison import CherrantSettings
    from ..metrics.m2.cherrant import CherrantCompare
    from ..metrics.m2.compare import ErrantSettings

    infos = CherrantSettings.infos()  # read by the settings' parsers, their flags named in messages
    counts = {name: infos[name].parse(f"--{name}", value)
              for name, value in (("max_answer_num", max_answer_num), ("reference_num", reference_num))}
    return CherrantCompare(mode=chosen_mode(options), **given_settings(ErrantSettings, options), **counts,
                           verbose=verbose)


def report_options(func: Callable) -> Callable:
    """The output (ChERRANT's own report, or with --tsv, --json ... the table of `gecmetric
    errant`), --signature and the run (-p, --chunk-lines, --dask, --quiet)."""
    return signature_option(digits_option(None)(scale_option(format_options(run_options(func)))))
