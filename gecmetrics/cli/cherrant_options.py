"""The options and helpers of ``gecmetric cherrant``'s commands: parallel_to_m2.py's options
(the annotator), compare_m2_for_evaluation.py's own options, and reading, writing and reporting."""
from __future__ import annotations

from typing import Callable

import click

from ..errors import InputError
from ..metrics.errant.metric import WORD_LEVEL_MESSAGE
from .common import echo_json
from .errant_options import chosen_mode
from .options import given_settings


def annotator_options(func: Callable) -> Callable:
    """parallel_to_m2.py's options that change the M2: -g, -s, --no-simplified; and the data folder."""
    func = click.option("--cherrant-data", "data_folder", metavar="DIR",
                        help="Folder of ChERRANT's data files (default: $GECMETRICS_CHERRANT_DATA, else the user "
                             "data folder filled by `gecmetric data fetch cherrant`).")(func)
    func = click.option("--no-simplified", "no_simplified", is_flag=True,
                        help="Do not convert targets to simplified characters (OpenCC t2s).")(func)
    func = click.option("-s", "--strategy", type=click.Choice(["all", "first"]), default="all", show_default=True,
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
    func = click.option("--reference_num", "--reference-num", "reference_num", type=int,
                        help="Only score sentences with exactly N reference annotators.")(func)
    func = click.option("--max_answer_num", "--max-answer-num", "max_answer_num", type=int,
                        help="Only the edits of annotators 0..K-1 (K = 1, 2 or 3).")(func)
    func = click.option("--end", type=int, help="With --start: score the sentences [start:end] only.")(func)
    func = click.option("--start", type=int, help="With --end: score the sentences [start:end] only.")(func)
    return func


def write(path: str, text: str) -> None:
    from ..io.atomic import atomic_output

    with atomic_output(path) as handle:
        handle.write(text)


def read(para_path: str) -> list:
    from ..io.para import read_para

    return read_para(para_path)


def m2_text(annotator, para_path: str, records: list) -> str:
    parts = []
    for record in records:
        try:
            parts.append(annotator.block(record.source, record.targets))
        except InputError as err:  # e.g. a pair too long to align: the file and its line
            raise InputError(str(err), para_path, record.line or None) from None
    return "".join(parts)


def comparer(verbose: bool, max_answer_num: int | None, reference_num: int | None, options: dict):
    from ..metrics.m2.cherrant import CherrantCompare
    from ..metrics.m2.compare import ErrantSettings

    return CherrantCompare(mode=chosen_mode(options), **given_settings(ErrantSettings, options),
                           max_answer_num=max_answer_num, reference_num=reference_num, verbose=verbose)


def report(result, category_level: int | None, as_json: bool) -> None:
    from ..metrics.m2.errant_report import format_errant_report

    if as_json:
        echo_json(result.to_dict())
    else:
        click.echo(format_errant_report(result, category_level), nl=False)
