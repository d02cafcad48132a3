"""``gecmetric cherrant``: ChERRANT (Chinese, character level) without torch or LTP.

``m2`` is ``parallel_to_m2.py -g char``, ``compare`` is ``compare_m2_for_evaluation.py``, and
``score`` does both for a system and its references in one run (each distinct sentence pair
aligned once). The data files come from --cherrant-data, $GECMETRICS_CHERRANT_DATA or the user
data folder (``gecmetric data fetch cherrant``).
"""
from __future__ import annotations

from typing import Any, Callable

import click

from . import main
from ..core.lang.zh.data import char_level_paths
from .app import SharedOptionsGroup
from .cherrant_options import (annotator_options, cherrant_options, make_annotator, make_comparer, report_options,
                               write_held)
from .cherrant_run import compared, compared_pairs, pair_chunk
from .common import check_verbose_format
from .context import check_command_outputs
from .errant_options import (comparison_options, comparison_report, report_signature, warn_if_swapped,
                             warn_nothing_compared)
from .numbers import INT
from .options import GreedyCommand


@main.group("cherrant", cls=SharedOptionsGroup)
def cherrant() -> None:
    """ChERRANT for Chinese at character level: M2 from parallel text, and its scorer."""


def idle_options(func: Callable) -> Callable:
    """parallel_to_m2.py's options that change no output at character level (-b, -d, -w: its
    tokenizer's batches, GPU and workers; -m: parsed, used nowhere): taken, so that its command
    lines run, and left alone."""
    for names, kind, what in ((("-b", "--batch_size"), INT, "batch size"), (("-d", "--device"), INT, "GPU id"),
                              (("-w", "--worker_num"), INT, "number of workers")):
        func = click.option(*names, "idle_" + names[1][2:], type=kind, expose_value=False,
                            help=f"parallel_to_m2.py's {what}: taken and left alone (no output changes).")(func)
    return click.option("-m", "--merge", "idle_merge", is_flag=True, expose_value=False,
                        help="parallel_to_m2.py's -m: taken and left alone (it uses it nowhere).")(func)


@cherrant.command("m2")
@click.option("-f", "--file", "para", required=True, metavar="PARA",
              help="Parallel file: id<TAB>source<TAB>target1[<TAB>target2...] per line.")
@click.option("-o", "--output", required=True, metavar="M2", help="Where to write the M2.")
@annotator_options
@idle_options
def m2(para: str, output: str, granularity: str, strategy: str, no_simplified: bool, data_folder: str | None) -> None:
    """Character-level M2 of a parallel file, byte for byte what ChERRANT's
    ``parallel_to_m2.py -f PARA -o M2 -g char`` writes (annotated a batch of lines at a time and
    held in a temporary file past 8 MB: a file of any size; the M2 is written once whole, so a
    fault anywhere writes nothing, to a pipe either)."""
    from itertools import chain

    from ..io.para import para_batches
    from ..io.para_m2 import m2_text
    from .sentences import held_back

    check_command_outputs([("-o", output)], [para, *char_level_paths(data_folder)])  # the data files too
    batches = para_batches(para)
    first = next(batches)  # (a file that cannot be read fails before the data files are loaded)
    annotator = make_annotator(granularity, strategy, no_simplified, data_folder)
    with held_back(m2_text(annotator, para, records) for records in chain([first], batches)) as held:
        write_held([(output, held)])


@cherrant.command("compare", cls=GreedyCommand)
@click.option("-hyp", required=True, metavar="M2", help="The hypothesis M2 (ChERRANT's format).")
@click.option("-ref", required=True, metavar="M2", help="The reference M2 (ChERRANT's format).")
@comparison_options
@click.option("-v", "--verbose", is_flag=True, help="Print the per-sentence trace, as ChERRANT prints it.")
@cherrant_options
@report_options
def compare(hyp: str, ref: str, category_level: int | None, verbose: bool, start: int | None, end: int | None,
            max_answer_num: int | None, reference_num: int | None, digits: int | None, scale: float,
            **options: Any) -> None:
    """P/R/F of a hypothesis M2 against a reference M2, as ChERRANT's
    ``compare_m2_for_evaluation.py`` prints them (its report and fractions; -v: its trace
    layout; --tsv, --json ...: the table of `gecmetric errant`, x100 unless --scale 1)."""
    run, show_signature = _run_options(options), options.pop("show_signature")
    check_verbose_format(verbose)
    comparer = make_comparer(verbose, max_answer_num, reference_num, options)
    result = compared(comparer, hyp, ref, start, end, run)
    warn_if_swapped(hyp, ref)  # once the files have been read without error
    comparison_report(hyp, comparer, result, category_level, digits, scale)
    warn_nothing_compared([hyp], [result], "compare_m2_for_evaluation.py")
    if show_signature:
        click.echo(str(report_signature(result, category_level)), err=True)


@cherrant.command("score", cls=GreedyCommand)
@click.option("-hyp", required=True, metavar="PARA", help="The system's parallel file (id, source, output).")
@click.option("-ref", required=True, metavar="PARA", help="The references' parallel file (id, source, references).")
@click.option("--hyp-m2", metavar="M2", help="Also write the hypothesis M2 here.")
@click.option("--ref-m2", metavar="M2", help="Also write the reference M2 here.")
@annotator_options
@comparison_options
@click.option("-v", "--verbose", is_flag=True, help="Print the per-sentence trace, as ChERRANT prints it.")
@cherrant_options
@report_options
def score(hyp: str, ref: str, hyp_m2: str | None, ref_m2: str | None, granularity: str, strategy: str,
          no_simplified: bool, data_folder: str | None, category_level: int | None, verbose: bool, start: int | None,
          end: int | None, max_answer_num: int | None, reference_num: int | None, digits: int | None,
          scale: float, **options: Any) -> None:
    """parallel_to_m2.py on both files, then compare_m2_for_evaluation.py, in one run: the same
    numbers, with each distinct (source, target) pair aligned once for both files; the files are
    annotated and compared a chunk of lines at a time (a file of any size; -p N: chunks compared
    by N workers), and --hyp-m2/--ref-m2 are written once all is compared without error."""
    from ..io.para_m2 import M2Pairs
    from .sentences import held_file

    check_command_outputs([("--hyp-m2", hyp_m2), ("--ref-m2", ref_m2)], [hyp, ref, *char_level_paths(data_folder)])
    run, show_signature = _run_options(options), options.pop("show_signature")
    check_verbose_format(verbose)
    comparer = make_comparer(verbose, max_answer_num, reference_num, options)
    with held_file() as hyp_held, held_file() as ref_held:
        pairs = M2Pairs(hyp, ref, lambda: make_annotator(granularity, strategy, no_simplified, data_folder),
                        start=start, end=end, held=(hyp_held if hyp_m2 else None, ref_held if ref_m2 else None),
                        chunk=pair_chunk(run))
        result = compared_pairs(comparer, pairs, run)
        write_held([(hyp_m2, hyp_held), (ref_m2, ref_held)])
    # the M2 were made here: the signature says how, as `errant --lang zh` does for the same numbers
    result.signature = result.signature.with_fields(("lang", "zh"), *pairs.annotator.language.signature_fields().items())
    comparison_report(hyp, comparer, result, category_level, digits, scale)
    warn_nothing_compared([hyp], [result], "compare_m2_for_evaluation.py")
    if show_signature:
        click.echo(str(report_signature(result, category_level)), err=True)


def _run_options(options: dict[str, Any]) -> dict[str, Any]:
    return {name: options.pop(name) for name in ("jobs", "chunk_lines", "dask_address")}
