"""``gecmetric m2 score``: MaxMatch (M2) scores of tokenized system outputs against gold M2."""
from __future__ import annotations

from typing import Any, Callable

import click

from ..errors import InputError
from ..io.corpus import read_m2_corpus
from ..metrics.m2.maxmatch import M2Scorer, M2Settings
from ..metrics.m2.report import M2Report, verbose_text
from ..run.engine import score_corpus
from .common import corpus_files, digits_option, fraction_scale_option, progress_unless
from .m2 import m2
from .context import in_run
from .options import GreedyCommand, GreedyOption, given_settings, settings_options
from .scoring import ScoringOptions, run_scoring, scoring_options


def gold_m2_options(func: Callable | None = None, *, required: bool = True) -> Callable:
    """``-s GOLD.m2`` and ``-o SYSTEM...``: the inputs of every command scored on a gold M2
    (``required=False``: the command also takes them as positional arguments)."""
    def decorate(func: Callable) -> Callable:
        func = click.option("-o", "--hypothesis", "hypotheses", cls=GreedyOption, required=required,
                            type=click.Path(dir_okay=False, allow_dash=True),
                            help="Tokenized system output(s), one line per M2 block: -o A.txt B.txt.")(func)
        return click.option("-s", "--gold", "gold_path", required=required,
                            type=click.Path(dir_okay=False, allow_dash=True),
                            help="Gold M2 file (source sentences and annotators' edits).")(func)
    return decorate(func) if func is not None else decorate


def positional_inputs(files: tuple[str, ...], gold_path: str | None, hypotheses: tuple[str, ...]
                      ) -> tuple[str, tuple[str, ...]]:
    """The gold M2 and the system files, from -s/-o or from the m2scorer's ``SYSTEM GOLD`` form."""
    if files:
        if gold_path is not None or hypotheses:
            raise InputError("give the files either as SYSTEM GOLD (as the m2scorer takes them) or with -s/-o, "
                             "not both")
        if len(files) != 2:
            raise InputError(f"positional form: SYSTEM GOLD (two files, as the m2scorer takes them), got "
                             f"{len(files)}; several systems: -s GOLD -o A B ...")
        return files[1], (files[0],)
    if gold_path is None or not hypotheses:
        raise InputError("missing input: -s GOLD.m2 -o SYSTEM... (or SYSTEM GOLD, as the m2scorer takes them)")
    return gold_path, hypotheses


@m2.command("score", cls=GreedyCommand)
@gold_m2_options(required=False)
@click.argument("files", nargs=-1, type=click.Path(dir_okay=False, allow_dash=True))
@fraction_scale_option
@settings_options(M2Settings)
@scoring_options(mean=False, digits=digits_option(4, "Decimals (rounded half up)."),
                 verbose="Per sentence: source, hypothesis, chosen annotator, edits, running P/R/F.")
def score(gold_path: str | None, hypotheses: tuple[str, ...], files: tuple[str, ...], **options: Any) -> None:
    """MaxMatch (M2) precision, recall and F-beta of system outputs, as the official NUS
    m2scorer computes them (fractions, not x100).

    \b
    gecmetric m2 score -s official-2014.combined.m2 -o AMU CAMB
    gecmetric m2 score AMU official-2014.combined.m2      (the m2scorer's SYSTEM GOLD)
    """
    gold_path, hypotheses = positional_inputs(files, gold_path, hypotheses)
    scoring = ScoringOptions.take(options)
    scorer = in_run(M2Scorer(**given_settings(M2Settings, options)))
    if scoring.verbose and not scoring.paired and not scoring.sentence:  # edits from the whole corpus
        corpus = read_m2_corpus(gold_path, hypotheses)
        scored = score_corpus([scorer], corpus, list(hypotheses), progress=progress_unless(False, "m2 score"),
                              jobs=scoring.jobs, chunk_lines=scoring.chunk_lines, cache=scorer.run_context)
        results = []
        for path in hypotheses:
            result = scored.result(path, 0)
            result.details = scorer.sentence_details(corpus.gold, corpus.hypotheses[path], result.chosen)
            click.echo(f"== {path}\n{verbose_text(result, scoring.digits)}")
            results.append([result])
        click.echo(M2Report(scoring.scale).corpus_text([scorer], list(hypotheses), results, scoring.digits, True))
        return
    run_scoring("m2 score", [scorer], corpus_files(None, (), hypotheses, gold_path), M2Report(scoring.scale), scoring)
