"""``gecmetric pt-m2`` and ``gecmetric pt-errant``: BERTScore-weighted edit metrics (needs the
optional extra ``pt``: torch and transformers, imported only when the model is loaded)."""
from __future__ import annotations

from typing import Any

import click

from ..core.table import ScoreFormat
from ..io.corpus import Corpus
from ..io.m2 import read_m2
from ..metrics.pt.report import score_table, sentence_rows, sentence_table
from ..metrics.pt.scorers import PTM2, PTErrant, PTM2Settings, PTSettings, merge_coders
from ..metrics.results import scores_signature
from ..run.engine import Scored, score_corpus
from ..io.text import check_stdin_once, shown_path
from . import main
from .common import corpus_files, echo_json, echo_json_results, echo_scores, echo_table, json_result, progress_unless
from .inputs import FILE, gold_m2_options
from .options import GreedyCommand, GreedyOption
from .setting_options import given_settings, settings_options
from .scoring import ScoringOptions, scoring_options
from .significance import check_paired_options, run_paired_tests
from .context import in_run

pt_options = scoring_options(mean=False)
"""The options both commands share (the model settings come from the settings)."""


@main.command("pt-m2", cls=GreedyCommand)
@gold_m2_options
@settings_options(PTM2Settings)
@pt_options
def pt_m2(gold_path: str, hypotheses: tuple[str, ...], **options: Any) -> None:
    """PT-M2 (Gong et al., 2022): the M2 scorer's edits, each weighted by how much it changes
    the BERTScore of the source against the annotator's reference (x100; --scale 1: fractions,
    as the authors' script prints them).

    \b
    gecmetric pt-m2 -s official-2014.combined.m2 -o AMU CAMB CUUI
    gecmetric pt-m2 -s GOLD.m2 -o SYSTEM --model ./my-bert --layer 9 --baseline none
    """
    out = _checked(ScoringOptions.take(options))
    metric = in_run(PTM2(**given_settings(PTM2Settings, options)))
    scored = out.run([metric], corpus_files(None, (), hypotheses, gold_path), metric.name)
    _print(metric, scored, list(hypotheses), out)


@main.command("pt-errant", cls=GreedyCommand)
@click.option("-hyp", "hypotheses", cls=GreedyOption, required=True, type=FILE,
              help="Hypothesis M2 file(s) (errant_parallel -orig INPUT -cor SYSTEM).")
@click.option("-ref", "references", cls=GreedyOption, required=True, type=FILE,
              help="Reference M2: one file with every coder (errant_parallel -orig INPUT -cor REF0 REF1), or "
                   "several, whose coders are then taken in file order.")
@settings_options(PTSettings)
@pt_options
def pt_errant(hypotheses: tuple[str, ...], references: tuple[str, ...], **options: Any) -> None:
    """PT-ERRANT: ERRANT's edits (span-based correction) of hypothesis M2 files against a
    reference M2, each weighted by BERTScore as in PT-M2 (x100; --scale 1: fractions).

    \b
    gecmetric pt-errant -hyp AMU.m2 CAMB.m2 -ref REF0_REF1.m2
    """
    out = _checked(ScoringOptions.take(options))
    metric = in_run(PTErrant(**given_settings(PTSettings, options)))
    names = [shown_path(path) for path in hypotheses]
    if len(references) == 1:  # read chunk by chunk by the engine
        scored = out.run([metric], corpus_files(None, (), hypotheses, references[0], m2_hypotheses=True), "pt-errant")
    else:  # the coders of several files merged in memory first
        check_stdin_once(*hypotheses, *references)
        reference = merge_coders([read_m2(path) for path in references], [shown_path(path) for path in references])
        corpus = Corpus(None, [], {}, reference, {"gold": shown_path(references[0])})
        for path, name in zip(hypotheses, names):
            corpus.add_hypothesis_blocks(name, read_m2(path))
        scored = score_corpus([metric], corpus, names, progress=progress_unless(out.format == "json", "pt-errant"),
                              jobs=out.jobs, dask=out.dask_address, chunk_lines=out.chunk_lines,
                              cache=metric.run_context)
    _print(metric, scored, names, out, list(hypotheses))  # (rows named as the files were given: "-" too)


def _checked(options: ScoringOptions) -> ScoringOptions:
    """Paired-test option conflicts, reported before the model is loaded."""
    if options.paired:
        check_paired_options(options.paired_bs, options.paired_ar, {"--sentence": options.sentence})
    return options


def _print(metric: Any, scored: Scored, names: list[str], out: ScoringOptions, labels: list[str] | None = None) -> None:
    """The scores of every hypothesis (or per sentence, or the paired tests), as asked; ``names``:
    the run's, ``labels``: the rows' (default: the names) as the command line gave the files."""
    statistics = [scored.statistics[name][0] for name in names]
    results = [scored.result(name, 0) for name in names] if not (out.paired or out.sentence) else []
    names = list(labels or names)
    as_json = out.format == "json"
    if out.paired:
        run_paired_tests([metric.resampler(0, 1)], names, statistics, out.paired_bs, out.paired_ar, out.seed or 0,
                         out.digits, as_json, out.show_signature, {"--sentence": out.sentence},
                         ScoreFormat.of(metric, out.scale))
        return
    if out.sentence:
        rows = sentence_rows(metric, names, statistics, out.scale if as_json else 1.0)
        if as_json:  # the one vocabulary, with each sentence's P, R, F and annotator as its own field
            echo_json([json_result(name, metric.sentence_scores_of(name, stats), metric, out.scale, "sentence",
                                   sentences=row["sentences"]) for name, stats, row in zip(names, statistics, rows)])
        else:
            echo_table(sentence_table(metric, rows, out.digits, out.scale), out.format or "tsv")
    else:
        if as_json:
            echo_json_results(((name, metric, result) for name, result in zip(names, results)), out.scale)
        else:
            echo_scores(score_table(metric, names, results, out.digits, out.scale), out.format or "tsv",
                        [result.signature for result in results])
    if out.show_signature:
        click.echo(scores_signature(metric.signature, out.sentence), err=True)
