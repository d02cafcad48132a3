"""``gecmetric m2``: commands on M2 annotation files (references, ERRANT-style comparison).

The MaxMatch scorer adds its ``score`` subcommand to this group from ``m2_score.py``.
"""
from __future__ import annotations

from typing import Any

import click

from ..errors import InputError, plural
from ..metrics.m2.compare import ErrantCompare, ErrantSettings
from ..metrics.results import scores_signature

from ..io.m2_references import MAX_REFERENCE_FILES, m2_references, other_references, write_references
from ..io.text import check_stdin_once
from . import main
from .app import SharedOptionsGroup
from .common import check_verbose_format, corpus_files, progress_unless, score
from .errant_options import (check_corpus_figures, check_report_numbers, chosen_mode, comparison_options,
                             comparison_report, report_signature, warn_if_swapped, warn_nothing_compared,
                             warn_type_groups)
from .inputs import FILE
from .numbers import INT
from .options import GreedyCommand
from .setting_options import given_settings
from .sentences import echo_sentence_scores
from .shared import (chosen_digits, chosen_format, digits_option, format_options, run_options,
                     scale_option, signature_option)


@main.group("m2", cls=SharedOptionsGroup)
def m2() -> None:
    """Work with M2 annotation files: build references, compare edits, score."""


@m2.command("refs")
@click.argument("gold", nargs=-1, required=True, type=click.Path(dir_okay=False, allow_dash=True))
@click.option("-a", "--annotator", "annotators", type=INT, multiple=True,
              help="Keep only this annotator (repeatable). With several files, annotators are numbered "
                   "0, 1, ... over the files in order.")
@click.option("-o", "--output-dir", "output_dir", type=click.Path(file_okay=False),
              help="Write DIR/INPUT and DIR/REF<annotator> (DIR is made if missing); give -o or --prefix.")
@click.option("--prefix", metavar="P", help="Write P.src and P.ref<annotator> instead of -o's files.")
@click.option("--many-files", is_flag=True, help="Write more than 100 reference files (one per annotator).")
@click.option("--absent-as-unchanged", is_flag=True,
              help="Read a block with no line for annotator k>0 as 'no edits'. Default: 'same edits as "
                   "annotator 0', as the CoNLL-2014 combined file means it (gives the standard REF1).")
def refs(gold: tuple[str, ...], annotators: tuple[int, ...], output_dir: str | None, prefix: str | None,
         absent_as_unchanged: bool, many_files: bool) -> None:
    """Write the source and one reference file per annotator from GOLD M2 file(s).

    Several single-annotator files given together give one reference each, in order
    (official-2014.0.m2 official-2014.1.m2 -> REF0 REF1).
    """
    if (output_dir is None) == (prefix is None):
        raise click.UsageError("give exactly one of -o DIR or --prefix P")
    check_stdin_once(*gold)  # (the second '-' read nothing: "has no sentences")
    result = m2_references(list(gold), annotators=list(annotators) or None, absent_as_unchanged=absent_as_unchanged,
                           max_references=None if many_files else MAX_REFERENCE_FILES)
    written = write_references(result, output_dir, prefix, many_files)  # first: it may refuse the outputs
    for label, filled, changed, (name, own) in zip(result.labels, result.filled_blocks, result.filled_changed,
                                                   result.origins):
        if filled:  # (with several files a label is a position: "annotator 0" is the file's own)
            which = f"annotator {label}" if len(gold) == 1 else f"reference {label} (annotator {own} of {name})"
            zero = "annotator 0" if len(gold) == 1 else f"{name}'s annotator 0"
            reading = "read as unchanged (--absent-as-unchanged)" if absent_as_unchanged else f"filled from {zero}"
            have = "has" if filled == 1 else "have"
            click.echo(f"gecmetric: m2 refs: {which}: {plural(filled, 'block')} {have} no line for it, {reading}; "
                       f"{zero} changed {changed} of them", err=True)
    others = other_references(written, output_dir, prefix)
    if others:
        click.echo(f"gecmetric: warning: m2 refs: {plural(len(others), 'other reference file')} beside those written "
                   f"({', '.join(others[:3])}{' ...' if len(others) > 3 else ''}), from another gold or run: a glob "
                   f"of the references would read {'it' if len(others) == 1 else 'them'} too; remove "
                   f"{'it' if len(others) == 1 else 'them'} or write to an empty folder", err=True)
    for path in written:
        click.echo(path)


@m2.command("compare", cls=GreedyCommand)
@click.option("-hyp", "hyp", required=True, type=FILE, help="Hypothesis M2 file (e.g. errant_parallel -orig SRC -cor SYS).")
@click.option("-ref", "ref", required=True, type=FILE, help="Reference M2 file (the same sentences, in the same order).")
@comparison_options
@click.option("-v", "--verbose", is_flag=True, help="Print ERRANT's per-sentence trace.")
@click.option("--sentence", is_flag=True, help="A score per sentence (a row each), instead of compare_m2's report.")
@digits_option(None)
@scale_option
@format_options
@run_options
@signature_option
def compare(hyp: str, ref: str, category_level: int | None, verbose: bool, sentence: bool, digits: int | None,
            scale: float, jobs: int, chunk_lines: int | None, dask_address: str | None, show_signature: bool,
            **options: Any) -> None:
    """Compare the edits of a hypothesis M2 with a reference M2, as ERRANT's compare_m2 (3.0.2)
    does, with the same options, numbers and report (its text and fractions as ERRANT prints
    them); --tsv, --markdown ... print the table of `gecmetric errant` instead (x100; --scale 1:
    fractions)."""
    fmt, digits = chosen_format(None), chosen_digits(digits, scale)
    check_verbose_format(verbose)
    if verbose and sentence:  # (the sentence table printed alone, the trace dropped without a word)
        raise InputError("prints ERRANT's trace of the corpus comparison: not with --sentence", "-v")
    check_corpus_figures(category_level, options, sentence=sentence)
    if fmt is None and not sentence:
        check_report_numbers()
    comparer = ErrantCompare(mode=chosen_mode(options), **given_settings(ErrantSettings, options), verbose=verbose)
    scored = score([comparer], corpus_files(None, (), (hyp,), ref, m2_hypotheses=True), jobs=jobs,
                   chunk_lines=chunk_lines, dask_address=dask_address, progress=progress_unless(fmt == "json", "m2"))
    result = scored.result(scored.names[0], 0)
    warn_if_swapped(hyp, ref)  # once the files have been read without error
    if sentence:
        echo_sentence_scores(scored, scale, digits, fmt)
    else:
        comparison_report(scored.names[0], comparer, result, category_level, digits, scale)
    if not sentence and fmt != "json":  # once the groups are printed (a type they cannot take is an error)
        warn_type_groups(comparer, [result], category_level)
    warn_nothing_compared([hyp], [result])
    if show_signature:
        click.echo(str(scores_signature(report_signature(result, category_level), sentence)), err=True)
