"""``gecmetric cherrant``: ChERRANT (Chinese, character level) without torch or LTP.

``m2`` is ``parallel_to_m2.py -g char``, ``compare`` is ``compare_m2_for_evaluation.py``, and
``score`` does both for a system and its references in one run (each distinct sentence pair
aligned once). The data files come from --cherrant-data, $GECMETRICS_CHERRANT_DATA or the user
data folder (``gecmetric data fetch cherrant``).
"""
from __future__ import annotations

from typing import Any, Callable

import click

from ..errors import InputError
from . import main
from .common import echo_json, warn_if_swapped
from .errant_options import chosen_mode, comparison_options
from .options import given_settings
from .options import GreedyCommand

WORD_LEVEL_MESSAGE = ("-g word needs LTP's word segmenter and part-of-speech tagger (ltp 4.x and its model), "
                      "which gecmetrics does not run; only the character level (-g char) is available")


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


def _write(path: str, text: str) -> None:
    from ..io.atomic import atomic_output

    with atomic_output(path) as handle:
        handle.write(text)


def _read(para_path: str) -> list:
    from ..io.para import read_para

    return read_para(para_path)


def _m2_text(annotator, para_path: str, records: list) -> str:
    try:
        return annotator.to_m2((record.source, record.targets) for record in records)
    except InputError as err:
        raise InputError(str(err), para_path) from None


@main.group("cherrant")
def cherrant() -> None:
    """ChERRANT for Chinese at character level: M2 from parallel text, and its scorer."""


@cherrant.command("m2")
@click.option("-f", "--file", "para", required=True, metavar="PARA",
              help="Parallel file: id<TAB>source<TAB>target1[<TAB>target2...] per line.")
@click.option("-o", "--output", required=True, metavar="M2", help="Where to write the M2.")
@annotator_options
def m2(para: str, output: str, granularity: str, strategy: str, no_simplified: bool, data_folder: str | None) -> None:
    """Character-level M2 of a parallel file, byte for byte what ChERRANT's
    ``parallel_to_m2.py -f PARA -o M2 -g char`` writes."""
    records = _read(para)
    annotator = make_annotator(granularity, strategy, no_simplified, data_folder)
    _write(output, _m2_text(annotator, para, records))


def _comparer(verbose: bool, max_answer_num: int | None, reference_num: int | None, options: dict):
    from ..metrics.m2.cherrant import CherrantCompare
    from ..metrics.m2.compare import ErrantSettings

    return CherrantCompare(mode=chosen_mode(options), **given_settings(ErrantSettings, options),
                           max_answer_num=max_answer_num, reference_num=reference_num, verbose=verbose)


def _report(result, category_level: int | None, as_json: bool) -> None:
    from ..metrics.m2.errant_report import format_errant_report

    if as_json:
        echo_json(result.to_dict())
    else:
        click.echo(format_errant_report(result, category_level), nl=False)


@cherrant.command("compare", cls=GreedyCommand)
@click.option("-hyp", required=True, metavar="M2", help="The hypothesis M2 (ChERRANT's format).")
@click.option("-ref", required=True, metavar="M2", help="The reference M2 (ChERRANT's format).")
@comparison_options
@click.option("-v", "--verbose", is_flag=True, help="Print ERRANT's per-sentence trace.")
@cherrant_options
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def compare(hyp: str, ref: str, category_level: int | None, verbose: bool, start: int | None, end: int | None,
            max_answer_num: int | None, reference_num: int | None, as_json: bool, **options: Any) -> None:
    """P/R/F of a hypothesis M2 against a reference M2, as ChERRANT's
    ``compare_m2_for_evaluation.py`` prints them (-v prints ERRANT's trace layout)."""
    from ..metrics.m2.cherrant import compare_cherrant_files

    comparer = _comparer(verbose and not as_json, max_answer_num, reference_num, options)
    result = compare_cherrant_files(hyp, ref, comparer, start, end)
    warn_if_swapped(hyp, ref)  # once the files have been read without error
    _report(result, category_level, as_json)


@cherrant.command("score", cls=GreedyCommand)
@click.option("-hyp", required=True, metavar="PARA", help="The system's parallel file (id, source, output).")
@click.option("-ref", required=True, metavar="PARA", help="The references' parallel file (id, source, references).")
@click.option("--hyp-m2", metavar="M2", help="Also write the hypothesis M2 here.")
@click.option("--ref-m2", metavar="M2", help="Also write the reference M2 here.")
@annotator_options
@comparison_options
@click.option("-v", "--verbose", is_flag=True, help="Print ERRANT's per-sentence trace.")
@cherrant_options
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def score(hyp: str, ref: str, hyp_m2: str | None, ref_m2: str | None, granularity: str, strategy: str,
          no_simplified: bool, data_folder: str | None, category_level: int | None, verbose: bool, start: int | None,
          end: int | None, max_answer_num: int | None, reference_num: int | None, as_json: bool,
          **options: Any) -> None:
    """parallel_to_m2.py on both files, then compare_m2_for_evaluation.py, in one run: the same
    numbers, with each distinct (source, target) pair aligned once for both files."""
    from ..metrics.m2.cherrant import compare_cherrant_blocks
    from ..io.m2 import parse_m2

    comparer = _comparer(verbose and not as_json, max_answer_num, reference_num, options)
    records = {path: _read(path) for path in (hyp, ref)}
    annotator = make_annotator(granularity, strategy, no_simplified, data_folder)
    texts = {}
    for path, out in ((hyp, hyp_m2), (ref, ref_m2)):
        texts[path] = _m2_text(annotator, path, records[path])
        if out:
            _write(out, texts[path])
    blocks = {path: parse_m2(text, path, target_lines=True) for path, text in texts.items()}
    _report(compare_cherrant_blocks(blocks[hyp], blocks[ref], comparer, start, end, hyp, ref), category_level,
            as_json)
