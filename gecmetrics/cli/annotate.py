"""``gecmetric m2 annotate``: ERRANT M2 annotation of plain-text corrections (errant_parallel)
or of an M2 file's edits (errant_m2 -auto / -gold), with ERRANT 3.0.2's behaviour."""
from __future__ import annotations

import os
from typing import Callable, Iterable, Iterator

import click

from ..core.lang.en.merge import STRATEGIES
from ..core.lang.en.parse import DEFAULT_MODEL
from ..errors import InputError
from ..io.m2 import format_m2
from .common import chunk_lines_option, jobs_option
from .m2 import m2
from .options import GreedyCommand, GreedyOption


def annotation_options(func: Callable) -> Callable:
    """-merge, -lev, -tok, --spacy-model, --word-list: how texts are annotated; -p and
    --chunk-lines (the options of every command): worker processes annotating each chunk."""
    func = jobs_option(chunk_lines_option(func))
    func = click.option("--word-list", metavar="FILE",
                        help="SPELL word list, one word per line (default: $GECMETRICS_ERRANT_WORDS, else the "
                             "SCOWL en_GB-large list shipped with gecmetrics, as ERRANT's).")(func)
    func = click.option("--spacy-model", default=DEFAULT_MODEL, show_default=True, metavar="NAME_OR_PATH",
                        help="spaCy model (an installed package name or a path). The numbers depend on the spaCy "
                             "and model versions: the signature names them.")(func)
    func = click.option("-tok", "tokenise", is_flag=True,
                        help="Tokenise the text with spaCy (else split on whitespace, as given).")(func)
    func = click.option("-lev", is_flag=True, help="Align with plain Levenshtein costs instead of ERRANT's "
                                                   "linguistic ones.")(func)
    func = click.option("-merge", "merge", type=click.Choice(STRATEGIES), default="rules", show_default=True,
                        help="How adjacent aligned tokens are merged into edits.")(func)
    return func


def make_annotator(spacy_model: str, merge: str, lev: bool, tokenise: bool, jobs: int, word_list: str | None):
    """The annotator the options describe (spaCy is loaded on first use)."""
    from ..metrics.errant import Annotator

    return Annotator(spacy_model, merge=merge, lev=lev, tokenise=tokenise, word_list=word_list, processes=jobs)


def write_output(texts: Iterable[str], output: str | None) -> None:
    """M2 texts (one per chunk, written as they come) to a file, or to standard output without
    -o (or with -o -). A file left unfinished by an input error is removed."""
    if output in (None, "-"):
        for text in texts:
            click.echo(text, nl=False)
        return
    try:
        with open(output, "w", encoding="utf-8") as handle:
            try:
                for text in texts:
                    handle.write(text)
            except InputError:
                handle.close()
                os.remove(output)
                raise
    except OSError as err:
        raise InputError(f"cannot write: {err.strerror}", output) from None


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
@annotation_options
def annotate(source: str | None, corrections: tuple[str, ...], from_m2: str | None, auto: bool, gold: bool,
             no_min: bool, old_cats: bool, output: str | None, merge: str, lev: bool, tokenise: bool,
             spacy_model: str, jobs: int, chunk_lines: int | None, word_list: str | None) -> None:
    """ERRANT M2 edits, as ERRANT 3.0.2 writes them, without ERRANT.

    \b
    gecmetric m2 annotate -orig INPUT -cor AMU -o AMU.m2              (errant_parallel)
    gecmetric m2 annotate -orig INPUT -cor REF0 REF1 -o refs.m2       (two annotators)
    gecmetric m2 annotate --from-m2 official.m2 --auto -o auto.m2     (errant_m2 -auto)

    Each distinct line of a chunk (--chunk-lines) is parsed once (the source once for all -cor
    files); the M2 is written chunk by chunk, so memory stays near one chunk's needs. Needs
    spaCy (pip install 'gecmetrics[errant]') and an English model (--spacy-model).
    """
    annotator = make_annotator(spacy_model, merge, lev, tokenise, jobs, word_list)
    if from_m2 is not None:
        chunks = _reannotated(annotator, from_m2, source, corrections, auto, gold, no_min, old_cats, tokenise,
                              chunk_lines)
    else:
        chunks = _annotated(annotator, source, corrections, auto or gold or no_min or old_cats, chunk_lines)
    write_output((format_m2(blocks) for blocks in chunks), output)


def _annotated(annotator, source: str | None, corrections: tuple[str, ...], m2_options: bool,
               chunk_lines: int | None) -> Iterator[list]:
    from ..run.reading import CorpusChunks

    if source is None or not corrections:
        raise InputError("give -orig SRC -cor HYP... (or --from-m2 GOLD.m2 with --auto or --gold)")
    if m2_options:
        raise InputError("--auto, --gold, --no-min and --old-cats go with --from-m2")
    chunks = CorpusChunks(source, (), corrections, None, chunk_lines)  # options checked before any output
    return (annotator.annotate(chunk.sources, [chunk.hypotheses[path] for path in corrections]) for chunk in chunks)


def _reannotated(annotator, path: str, source: str | None, corrections: tuple[str, ...], auto: bool, gold: bool,
                 no_min: bool, old_cats: bool, tokenise: bool, chunk_lines: int | None) -> Iterator[list]:
    from ..run.reading import CorpusChunks

    if source is not None or corrections:
        raise InputError("--from-m2 does not go with -orig/-cor")
    if auto == gold:
        raise InputError("--from-m2 needs one of --auto and --gold")
    if tokenise:
        raise InputError("-tok does not go with --from-m2 (M2 sources are tokenised already)")
    if auto and (no_min or old_cats):
        raise InputError("--no-min and --old-cats go with --gold")
    chunks = CorpusChunks(None, (), (), path, chunk_lines)
    return (annotator.reannotate(chunk.gold, "auto" if auto else "gold", minimise=not no_min, old_types=old_cats)
            for chunk in chunks)

