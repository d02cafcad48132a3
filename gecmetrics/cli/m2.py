"""``gecmetric m2``: commands on M2 annotation files (references, ERRANT-style comparison).

The MaxMatch scorer adds its ``score`` subcommand to this group from ``m2_score.py``.
"""
from __future__ import annotations

import click

from ..m2.references import m2_references, write_references
from . import main


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
@click.option("--absent-as-unchanged", is_flag=True,
              help="Read a block with no line for annotator k>0 as 'no edits' instead of "
                   "'same edits as annotator 0' (the CoNLL-2014 combined-file convention).")
def refs(gold: tuple[str, ...], annotators: tuple[int, ...], output_dir: str | None, prefix: str | None,
         absent_as_unchanged: bool) -> None:
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
    for path in write_references(result, output_dir, prefix):
        click.echo(path)
