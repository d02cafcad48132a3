"""``gecmetric m2 annotate``: ERRANT M2 annotation of plain-text corrections (errant_parallel)
or of an M2 file's edits (errant_m2 -auto / -gold), with ERRANT 3.0.2's behaviour."""
from __future__ import annotations

import dataclasses
from typing import Any, Callable, Iterable

import click

from ..errors import InputError, plural
from ..io.atomic import atomic_output
from ..io.m2 import format_m2
from ..run.files import CorpusFiles, check_line_counts
from .common import progress_unless
from .shared import run_options
from .m2 import m2
from .options import GreedyCommand, GreedyOption
from .setting_options import given_settings, settings_options
from .context import check_command_outputs, run_context


def annotation_options(func: Callable) -> Callable:
    """-merge, -lev, -tok, --spacy-model, --word-list: how texts are annotated; -p,
    --chunk-lines, --dask and --quiet (the options of every command): who annotates each chunk."""
    from ..metrics.errant.metric import ANNOTATION_SETTINGS, ErrantTextSettings

    names = [name for name in ANNOTATION_SETTINGS if name != "annotate_refs"]
    return settings_options(ErrantTextSettings, names)(run_options(func))


@m2.command("annotate", cls=GreedyCommand)
@click.option("-orig", "source", metavar="SRC", type=click.Path(dir_okay=False, allow_dash=True),
              help="The original (source) text, one sentence per line.")
@click.option("-cor", "corrections", cls=GreedyOption, type=click.Path(dir_okay=False, allow_dash=True),
              help="Corrected text file(s), aligned with -orig; several give annotators 0, 1, ...")
@click.option("--from-m2", "from_m2", metavar="GOLD.m2", type=click.Path(dir_okay=False, allow_dash=True),
              help="Re-annotate the edits of an M2 file instead (errant_m2): with --auto or --gold.")
@click.option("--auto", "-auto", "auto", is_flag=True, help="--from-m2: extract the edits again automatically.")
@click.option("--gold", "-gold", "gold", is_flag=True, help="--from-m2: keep the edit spans, classify them again.")
@click.option("--no-min", "-no_min", "no_min", is_flag=True, help="--gold: do not trim equal tokens at span ends.")
@click.option("--old-cats", "-old_cats", "old_cats", is_flag=True, help="--gold: keep the edits' types.")
@click.option("-o", "-out", "--output", "output", metavar="OUT.m2",
              help="Write the M2 here (default: standard output).")
@click.argument("m2_file", required=False, metavar="[M2_FILE]", type=click.Path(dir_okay=False, allow_dash=True))
@annotation_options
def annotate(source: str | None, corrections: tuple[str, ...], from_m2: str | None, auto: bool, gold: bool,
             no_min: bool, old_cats: bool, output: str | None, m2_file: str | None, jobs: int,
             chunk_lines: int | None, dask_address: str | None, **settings: Any) -> None:
    """ERRANT M2 edits, as ERRANT 3.0.2 writes them, without ERRANT.

    \b
    gecmetric m2 annotate -orig INPUT -cor AMU -o AMU.m2                             # errant_parallel
    gecmetric m2 annotate -orig INPUT -cor REF0 REF1 -o refs.m2                      # two annotators
    gecmetric m2 annotate --from-m2 official-2014.combined.m2 --auto -o auto.m2      # errant_m2 -auto
    gecmetric m2 annotate -auto official-2014.combined.m2 -out auto.m2               # errant_m2's own order

    Each distinct line of a chunk (--chunk-lines) is parsed once (the source once for all -cor
    files); the M2 is written chunk by chunk (to standard output once all is annotated), so
    memory stays near one chunk's needs. M2_FILE is
    --from-m2's file, given as errant_m2 takes it. Needs
    spaCy (pip install 'gecmetrics[errant]') and an English model (--spacy-model).
    """
    from ..metrics.errant.metric import AnnotationJob, ErrantTextSettings
    from ..run.engine import map_chunks

    job = AnnotationJob(**given_settings(ErrantTextSettings, settings), cache=run_context())
    tokenise = job.tokenise
    if m2_file is not None:  # errant_m2's positional M2 file
        if from_m2 is not None:
            raise InputError(f"two M2 files to re-annotate ({m2_file} and --from-m2 {from_m2}): give one")
        from_m2 = m2_file
    if from_m2 is not None:
        job, files = _reannotation(job, from_m2, source, corrections, auto, gold, no_min, old_cats, tokenise)
    else:
        files = _annotation(source, corrections, auto or gold or no_min or old_cats)
        check_line_counts(files)  # before any chunk is written to standard output
        job = dataclasses.replace(job, hypotheses=tuple(corrections))
    if output not in (None, "-"):
        check_command_outputs([("-o", output)], [*files.paths, *job.files_read()])
    chunks = map_chunks(job, files, jobs=jobs, dask=dask_address, chunk_lines=chunk_lines,
                        progress=progress_unless(False, "m2 annotate"))
    counts = [0, 0]  # sentences, blocks (errant_parallel writes no block for a blank source line)

    def texts() -> Iterable[str]:
        for _, size, blocks in chunks:
            counts[0] += size
            counts[1] += size if isinstance(blocks, str) or job.reannotate else len(blocks)
            yield blocks if isinstance(blocks, str) else format_m2(blocks)

    write_output(texts(), output)
    if counts[1] < counts[0]:
        click.echo(f"gecmetric: warning: {files.source}: {plural(counts[0] - counts[1], 'blank line')} of "
                   f"{counts[0]} {'has' if counts[0] - counts[1] == 1 else 'have'} no block, as errant_parallel "
                   f"writes none: the M2 has {plural(counts[1], 'block')}", err=True)


def write_output(texts: Iterable[str], output: str | None) -> None:
    """M2 texts (one per chunk) to standard output without -o (or with -o -), held back until
    the last chunk is made (a fault in a later chunk printed the earlier blocks, which looked
    like the whole M2), else to a file that appears only when complete (an error or an interrupt
    leaves no partial file, and the old one, if any, as it was)."""
    if output in (None, "-"):
        from .sentences import echo_held

        echo_held(texts)
        return
    with atomic_output(output) as handle:
        for text in texts:
            handle.write(text)


def _annotation(source: str | None, corrections: tuple[str, ...], m2_options: bool) -> CorpusFiles:
    if source is None or not corrections:
        raise InputError("give -orig SRC -cor HYP... (or --from-m2 GOLD.m2 with --auto or --gold)")
    if m2_options:
        raise InputError("--auto, --gold, --no-min and --old-cats go with an M2 file to re-annotate (M2_FILE, --from-m2)")
    return CorpusFiles(source, (), tuple(corrections))


def _reannotation(job, path: str, source: str | None, corrections: tuple[str, ...], auto: bool, gold: bool,
                  no_min: bool, old_cats: bool, tokenise: bool) -> tuple[Any, CorpusFiles]:
    if source is not None or corrections:
        raise InputError("an M2 file to re-annotate (M2_FILE, --from-m2) does not go with -orig/-cor")
    if auto == gold:
        raise InputError("--auto and --gold do not go together: give one" if auto else
                         "re-annotating an M2 file (M2_FILE, --from-m2) needs one of --auto and --gold")
    if tokenise:
        raise InputError("-tok does not go with an M2 file to re-annotate (M2 sources are tokenised already)")
    if auto and (no_min or old_cats):
        raise InputError("--no-min and --old-cats go with --gold")
    job = dataclasses.replace(job, reannotate="auto" if auto else "gold", minimise=not no_min, old_types=old_cats)
    return job, CorpusFiles(None, gold=path)
