"""``gecmetric m2 score``: MaxMatch (M2) scores of tokenized system outputs against gold M2."""
from __future__ import annotations

from typing import Any

import click

from ..errors import InputError
from ..io.corpus import read_m2_corpus
from ..metrics.m2.maxmatch import M2Scorer, M2Settings
from ..metrics.m2.report import M2Report, verbose_text
from ..output.formats import render
from ..run.engine import score_corpus
from .common import corpus_files, progress_unless
from .inputs import gold_m2_options
from .m2 import m2
from .options import GreedyCommand, given_settings, settings_options
from .scoring import ScoringOptions, run_scoring, scoring_options
from .context import in_run


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
@settings_options(M2Settings)
@scoring_options(mean=False, verbose="Per sentence: source, hypothesis, chosen annotator, edits, running P/R/F "
                                     "(the m2scorer's -v report, fractions as it prints them).")
def score(gold_path: str | None, hypotheses: tuple[str, ...], files: tuple[str, ...], **options: Any) -> None:
    """MaxMatch (M2) precision, recall and F-beta of system outputs, as the official NUS
    m2scorer computes them (x100; --scale 1: fractions, as the m2scorer prints them).

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
        results, fraction_digits = [], scoring.digits + (2 if scoring.scale == 100 else 0)
        for path in hypotheses:
            result = scored.result(path, 0)
            result.details = scorer.sentence_details(corpus.gold, corpus.hypotheses[path], result.chosen)
            click.echo(f"== {path}\n{verbose_text(result, fraction_digits)}")  # the m2scorer's fractions
            results.append([result])
        table = M2Report(scoring.scale).corpus_text([scorer], list(hypotheses), results, scoring.digits, True)
        click.echo(render(table, scoring.format or "tsv"))
        return
    run_scoring("m2 score", [scorer], corpus_files(None, (), hypotheses, gold_path), M2Report(scoring.scale), scoring)
