"""``gecmetric m2``: commands on M2 annotation files (references, ERRANT-style comparison).

The MaxMatch scorer adds its ``score`` subcommand to this group from ``m2_score.py``.
"""
from __future__ import annotations

import click

from ..metrics.m2.compare import ErrantCompare, ErrantSettings, compare_m2_files, format_errant_report, parse_filter_types
from ..io.m2_references import m2_references, write_references
from . import main
from .common import echo_json


@main.group("m2")
def m2() -> None:
    """Work with M2 annotation files: build references, compare edits, score."""


@m2.command("refs")
@click.argument("gold", nargs=-1, required=True, type=click.Path(dir_okay=False, allow_dash=True))
@click.option("-a", "--annotator", "annotators", type=int, multiple=True,
              help="Keep only this annotator (repeatable). With several files, annotators are numbered "
                   "0, 1, ... over the files in order.")
@click.option("-o", "--output-dir", "output_dir", type=click.Path(file_okay=False),
              help="Write DIR/INPUT and DIR/REF<annotator>.")
@click.option("--prefix", help="Write P.src and P.ref<annotator> instead.")
@click.option("--many-files", is_flag=True, help="Write more than 100 reference files (one per annotator).")
@click.option("--absent-as-unchanged", is_flag=True,
              help="Read a block with no line for annotator k>0 as 'no edits' instead of "
                   "'same edits as annotator 0' (the CoNLL-2014 combined-file convention).")
def refs(gold: tuple[str, ...], annotators: tuple[int, ...], output_dir: str | None, prefix: str | None,
         absent_as_unchanged: bool, many_files: bool) -> None:
    """Write the source and one reference file per annotator from GOLD M2 file(s).

    Several single-annotator files given together give one reference each, in order
    (official-2014.0.m2 official-2014.1.m2 -> REF0 REF1).
    """
    if (output_dir is None) == (prefix is None):
        raise click.UsageError("give exactly one of -o DIR or --prefix P")
    result = m2_references(list(gold), annotators=list(annotators) or None, absent_as_unchanged=absent_as_unchanged)
    for label, filled, changed in zip(result.labels, result.filled_blocks, result.filled_changed):
        if filled:
            reading = ("read as unchanged (--absent-as-unchanged)" if absent_as_unchanged
                       else "filled from annotator 0")
            click.echo(f"gecmetric: m2 refs: annotator {label}: {filled} blocks have no line for it, {reading}; "
                       f"annotator 0 changed {changed} of them", err=True)
    for path in write_references(result, output_dir, prefix, many_files):
        click.echo(path)


@m2.command("compare", context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
@click.option("-hyp", "hyp", required=True, type=click.Path(dir_okay=False, allow_dash=True),
              help="A hypothesis M2 file.")
@click.option("-ref", "ref", required=True, type=click.Path(dir_okay=False, allow_dash=True),
              help="A reference M2 file.")
@click.option("-b", "--beta", type=float, default=ErrantSettings.beta, show_default=True,
              help="Beta of the F-score (>= 0; inf gives recall).")
@click.option("-v", "--verbose", is_flag=True, help="Print ERRANT's per-sentence trace.")
@click.option("-dt", "detection_tokens", is_flag=True, help="Evaluate detection in terms of tokens.")
@click.option("-ds", "detection_spans", is_flag=True, help="Evaluate detection in terms of spans.")
@click.option("-cs", "correction_spans", is_flag=True, help="Evaluate correction in terms of spans (default).")
@click.option("-cse", "correction_types", is_flag=True,
              help="Evaluate correction in terms of spans and error types.")
@click.option("-single", is_flag=True, help="Only evaluate single token edits; i.e. 0:1, 1:0 or 1:1.")
@click.option("-multi", is_flag=True, help="Only evaluate multi token edits; i.e. 2+:n or n:2+.")
@click.option("-filt", "filter_types", multiple=True, metavar="TYPE...",
              help="Do not evaluate these error types (several may follow, as in ERRANT).")
@click.option("-cat", "category_level", type=click.IntRange(1, 3),
              help="Category scores. 1: first character of the type (ERRANT operation tier, e.g. R); "
                   "2: type without its first two characters (e.g. NOUN); 3: the types as they are. "
                   "1 and 2 assume ERRANT types.")
@click.option("--sentence-average", is_flag=True,
              help="SentERRANT: the mean of the sentence P/R/F, each sentence against its best annotator.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON (with its signature).")
@click.pass_context
def compare(ctx: click.Context, hyp: str, ref: str, beta: float, verbose: bool, detection_tokens: bool,
            detection_spans: bool, correction_spans: bool, correction_types: bool, single: bool, multi: bool,
            filter_types: tuple[str, ...], category_level: int | None, sentence_average: bool, as_json: bool) -> None:
    """Compare the edits of a hypothesis M2 with a reference M2, as ERRANT's compare_m2 (3.0.2)
    does, with the same options, numbers and output."""
    extra = list(ctx.args)
    if extra and (not filter_types or any(arg.startswith("-") for arg in extra)):
        raise click.UsageError(f"unexpected argument {extra[0]!r}")
    modes = [name for name, given in (("dt", detection_tokens), ("ds", detection_spans), ("cs", correction_spans),
                                      ("cse", correction_types)) if given]
    if len(modes) > 1:
        raise click.UsageError(f"-{modes[0]} and -{modes[1]} are mutually exclusive")
    comparer = ErrantCompare(beta=beta, mode=modes[0] if modes else "cs", single=single, multi=multi,
                             filter_types=parse_filter_types([*filter_types, *extra]), sentence_average=sentence_average,
                             verbose=verbose and not as_json)
    result = compare_m2_files(hyp, ref, comparer)
    if as_json:
        echo_json(result.to_dict())
    else:
        click.echo(format_errant_report(result, category_level), nl=False)
