"""``gecmetric m2 score``: MaxMatch (M2) scores of tokenized system outputs against gold M2."""
from __future__ import annotations

from typing import Any

import click

from ..errors import InputError
from ..io.corpus import read_m2_corpus
from ..metrics.m2.maxmatch import M2Scorer, M2Settings
from ..metrics.m2.report import M2Report, verbose_text
from ..metrics.type_average import level_signature
from ..output.formats import render
from ..run.engine import score_corpus
from .common import corpus_files, progress_unless
from .inputs import gold_m2_options
from .m2 import m2
from .numbers import IntRange
from .options import GreedyCommand
from .setting_options import given_settings, settings_options
from .scoring import ScoringOptions, run_scoring, scoring_options
from .context import in_run
from .errant_options import check_corpus_figures


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
@click.option("-cat", "category_level", type=IntRange(1, 3),
              help="A row per error type of the gold M2, at ERRANT's levels: 1: the type's first character, 2: "
                   "the type without its first two, 3: the full type (1 and 2 suit ERRANT types such as R:NOUN, "
                   "not NUCLE's; docs/m2.md).")
@click.option("--macro", is_flag=True,
              help="P, R, F: the mean over the gold M2's error types (of the -cat level; full types without -cat) "
                   "of their P, R, F.")
@scoring_options(mean=False, verbose="The m2scorer's -v report as it prints it (per sentence and annotator: "
                                     "edits, running counts and P/R/F; the annotator kept), then the table.")
def score(gold_path: str | None, hypotheses: tuple[str, ...], files: tuple[str, ...], category_level: int | None,
          macro: bool, **options: Any) -> None:
    """MaxMatch (M2) precision, recall and F-beta of system outputs, as the official NUS
    m2scorer computes them (x100; --scale 1: fractions, as the m2scorer prints them).

    \b
    gecmetric m2 score -s official-2014.combined.m2 -o AMU CAMB
    gecmetric m2 score AMU official-2014.combined.m2      # the m2scorer's SYSTEM GOLD
    """
    gold_path, hypotheses = positional_inputs(files, gold_path, hypotheses)
    scoring = ScoringOptions.take(options)
    check_corpus_figures(category_level, {"macro": macro, "sentence_average": options.get("sentence_average")},
                         sentence=scoring.sentence, mean=scoring.mean,
                         paired=scoring.paired)
    scorer = in_run(M2Scorer(**given_settings(M2Settings, options), per_type=category_level is not None,
                             **({"average": "macro"} if macro else {})))
    if scoring.verbose and (scoring.paired or scoring.sentence):  # the trace is the corpus score's choice
        raise InputError("prints the m2scorer's trace of the corpus score: not with --sentence or a paired test", "-v")
    if scoring.verbose:  # edits from the whole corpus
        corpus = read_m2_corpus(gold_path, hypotheses)
        scored = score_corpus([scorer], corpus, list(hypotheses), progress=progress_unless(False, "m2 score"),
                              jobs=scoring.jobs, chunk_lines=scoring.chunk_lines, cache=scorer.run_context)
        results = []
        for path in hypotheses:  # the m2scorer's report of each system (after a '== FILE' line if several)
            result = scored.result(path, 0)
            result.details = scorer.sentence_details(corpus.gold, corpus.hypotheses[path], result.chosen)
            click.echo(f"== {path}\n" * (len(hypotheses) > 1) + verbose_text(result))
            results.append([result])
        table = M2Report(scoring.scale, category_level).corpus_text([scorer], list(hypotheses), results, scoring.digits, True)
        click.echo(render(table, scoring.format or "tsv"))
        click.echo(level_signature(results[0][0].signature, scorer.macro, category_level), err=True)  # as --signature
        return
    run_scoring("m2 score", [scorer], corpus_files(None, (), hypotheses, gold_path),
                M2Report(scoring.scale, category_level), scoring)
