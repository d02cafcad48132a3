"""``gecmetric m2 annotate``: ERRANT M2 annotation of plain-text corrections (errant_parallel)
or of an M2 file's edits (errant_m2 -auto / -gold), with ERRANT 3.0.2's behaviour."""
from __future__ import annotations

from typing import Callable

import click

from ..annotate.merge import STRATEGIES
from ..annotate.parse import DEFAULT_MODEL
from ..errors import InputError
from ..m2.format import format_m2
from .m2 import m2
from .options import GreedyCommand, GreedyOption


def annotation_options(func: Callable) -> Callable:
    """-merge, -lev, -tok, --spacy-model, -p and --word-list: how texts are annotated."""
    func = click.option("--word-list", metavar="FILE",
                        help="SPELL word list, one word per line (default: $GECMETRICS_ERRANT_WORDS, else the "
                             "SCOWL en_GB-large list shipped with gecmetrics, as ERRANT's).")(func)
    func = click.option("-p", "--processes", type=click.IntRange(0), default=1, show_default=True,
                        help="Worker processes for annotation (0: one per core). The numbers do not change.")(func)
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


def make_annotator(spacy_model: str, merge: str, lev: bool, tokenise: bool, processes: int, word_list: str | None):
    """The annotator the options describe (spaCy is loaded on first use)."""
    from ..annotate import Annotator

    return Annotator(spacy_model, merge=merge, lev=lev, tokenise=tokenise, word_list=word_list, processes=processes)


def write_output(text: str, output: str | None) -> None:
    """The M2 text to a file, or to standard output without -o (or with -o -)."""
    if output in (None, "-"):
        click.echo(text, nl=False)
        return
    try:
        with open(output, "w", encoding="utf-8") as handle:
            handle.write(text)
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
             spacy_model: str, processes: int, word_list: str | None) -> None:
    """ERRANT M2 edits, as ERRANT 3.0.2 writes them, without ERRANT.

    \b
    gecmetric m2 annotate -orig INPUT -cor AMU -o AMU.m2              (errant_parallel)
    gecmetric m2 annotate -orig INPUT -cor REF0 REF1 -o refs.m2       (two annotators)
    gecmetric m2 annotate --from-m2 official.m2 --auto -o auto.m2     (errant_m2 -auto)

    Each distinct line is parsed once (the source once for all -cor files). Needs spaCy
    (pip install 'gecmetrics[errant]') and an English model (--spacy-model).
    """
    annotator = make_annotator(spacy_model, merge, lev, tokenise, processes, word_list)
    if from_m2 is not None:
        blocks = _reannotated(annotator, from_m2, source, corrections, auto, gold, no_min, old_cats, tokenise)
    else:
        blocks = _annotated(annotator, source, corrections, auto or gold or no_min or old_cats)
    write_output(format_m2(blocks), output)


def _annotated(annotator, source: str | None, corrections: tuple[str, ...], m2_options: bool) -> list:
    from ..corpus import read_corpus

    if source is None or not corrections:
        raise InputError("give -orig SRC -cor HYP... (or --from-m2 GOLD.m2 with --auto or --gold)")
    if m2_options:
        raise InputError("--auto, --gold, --no-min and --old-cats go with --from-m2")
    corpus = read_corpus(source, (), corrections)
    return annotator.annotate(corpus.sources, [corpus.hypotheses[path] for path in corrections])


def _reannotated(annotator, path: str, source: str | None, corrections: tuple[str, ...], auto: bool, gold: bool,
                 no_min: bool, old_cats: bool, tokenise: bool) -> list:
    from ..m2.format import read_m2

    if source is not None or corrections:
        raise InputError("--from-m2 does not go with -orig/-cor")
    if auto == gold:
        raise InputError("--from-m2 needs one of --auto and --gold")
    if tokenise:
        raise InputError("-tok does not go with --from-m2 (M2 sources are tokenised already)")
    if auto and (no_min or old_cats):
        raise InputError("--no-min and --old-cats go with --gold")
    return annotator.reannotate(read_m2(path), "auto" if auto else "gold", minimise=not no_min, old_types=old_cats)

