"""``gecmetric pt-m2`` and ``gecmetric pt-errant``: BERTScore-weighted edit metrics (needs the
optional extra ``pt``: torch and transformers, imported only when the model is loaded)."""
from __future__ import annotations

from typing import Any, Callable

import click

from ..io.corpus import Corpus
from ..io.m2 import read_m2
from ..metrics.pt.report import score_table, sentence_rows, sentence_table
from ..metrics.pt.scorers import PTM2, PTErrant, PTM2Settings, PTSettings, merge_coders
from ..run.engine import Scored, score_corpus
from ..run.files import shown
from . import main
from .common import digits_option, echo_json, fraction_scale_option, progress_unless, scale_options, scored_files
from .m2_score import gold_m2_options
from .context import in_run
from .options import GreedyCommand, GreedyOption, given_settings, settings_options
from .scoring import ScoringOptions
from .significance import check_paired_options, run_paired_tests, significance_options


def pt_options(func: Callable) -> Callable:
    """The output options both commands share (the model settings come from the settings)."""
    func = click.option("--sentence", is_flag=True, help="Per-sentence P/R/F, with the annotator kept for each "
                                                         "sentence.")(func)
    func = click.option("--json", "as_json", is_flag=True, help="Print JSON: scores, weights, settings, signature.")(func)
    func = click.option("--signature", "show_signature", is_flag=True,
                        help="Print the signature (model, revision, library versions ...) on stderr.")(func)
    func = fraction_scale_option(func)
    return significance_options()(digits_option(4, "Decimals (rounded half up).")(scale_options(func)))


@main.command("pt-m2", cls=GreedyCommand)
@gold_m2_options
@settings_options(PTM2Settings)
@pt_options
def pt_m2(gold_path: str, hypotheses: tuple[str, ...], **options: Any) -> None:
    """PT-M2 (Gong et al., 2022): the M2 scorer's edits, each weighted by how much it changes
    the BERTScore of the source against the annotator's reference (fractions, not x100).

    \b
    gecmetric pt-m2 -s official-2014.combined.m2 -o AMU CAMB CUUI
    gecmetric pt-m2 -s GOLD.m2 -o SYSTEM --model ./my-bert --layer 9 --baseline none
    """
    out = _checked(ScoringOptions.take(options))
    metric = in_run(PTM2(**given_settings(PTM2Settings, options)))
    scored = scored_files([metric], None, (), hypotheses, gold_path, jobs=out.jobs, chunk_lines=out.chunk_lines,
                          dask_address=out.dask_address, progress=progress_unless(out.as_json, metric.name))
    _print(metric, scored, list(hypotheses), out)


@main.command("pt-errant", cls=GreedyCommand)
@click.option("-hyp", "hypotheses", cls=GreedyOption, required=True, type=click.Path(dir_okay=False, allow_dash=True),
              help="Hypothesis M2 file(s) (errant_parallel -orig INPUT -cor SYSTEM).")
@click.option("-ref", "references", cls=GreedyOption, required=True, type=click.Path(dir_okay=False, allow_dash=True),
              help="Reference M2: one file with every coder (errant_parallel -orig INPUT -cor REF0 REF1), or "
                   "several, whose coders are then taken in file order.")
@settings_options(PTSettings)
@pt_options
def pt_errant(hypotheses: tuple[str, ...], references: tuple[str, ...], **options: Any) -> None:
    """PT-ERRANT: ERRANT's edits (span-based correction) of hypothesis M2 files against a
    reference M2, each weighted by BERTScore as in PT-M2 (fractions, not x100).

    \b
    gecmetric pt-errant -hyp AMU.m2 CAMB.m2 -ref REF0_REF1.m2
    """
    out = _checked(ScoringOptions.take(options))
    metric = in_run(PTErrant(**given_settings(PTSettings, options)))
    progress = progress_unless(out.as_json, "pt-errant")
    names = [shown(path) for path in hypotheses]
    if len(references) == 1:  # read chunk by chunk by the engine
        scored = scored_files([metric], None, (), hypotheses, references[0], jobs=out.jobs, chunk_lines=out.chunk_lines,
                              dask_address=out.dask_address, progress=progress, m2_hypotheses=True)
    else:  # the coders of several files merged in memory first
        if [*hypotheses, *references].count("-") > 1:
            raise click.UsageError("standard input ('-') can be read only once")
        reference = merge_coders([read_m2(path) for path in references], [shown(path) for path in references])
        corpus = Corpus(None, [], {}, reference, {"gold": shown(references[0])})
        for path, name in zip(hypotheses, names):
            corpus.check_blocks(blocks := read_m2(path), name)
            corpus.hypotheses[name] = blocks
        scored = score_corpus([metric], corpus, names, progress=progress, jobs=out.jobs, chunk_lines=out.chunk_lines,
                              cache=metric.run_context)
    _print(metric, scored, names, out)


def _checked(options: ScoringOptions) -> ScoringOptions:
    """Paired-test option conflicts, reported before the model is loaded."""
    if options.paired:
        check_paired_options(options.paired_bs, options.paired_ar, {"--sentence": options.sentence})
    return options


def _print(metric: Any, scored: Scored, names: list[str], out: ScoringOptions) -> None:
    """The scores of every hypothesis (or per sentence, or the paired tests), as asked."""
    statistics = [scored.statistics[name][0] for name in names]
    if out.paired:
        run_paired_tests([metric.resampler(0, 1)], names, statistics, out.paired_bs, out.paired_ar, out.seed or 0,
                         out.digits, out.as_json, out.show_signature, {"--sentence": out.sentence}, scale=out.scale)
        return
    if out.sentence:
        rows = sentence_rows(metric, names, statistics)
        echo_json(rows) if out.as_json else click.echo(sentence_table(metric, rows, out.digits, out.scale))
    else:
        results = [scored.result(name, 0) for name in names]
        if out.as_json:
            echo_json([{"hypothesis": name, **result.to_dict()} for name, result in zip(names, results)])
        else:
            click.echo(score_table(metric, names, results, out.digits, out.scale))
    if out.show_signature:
        click.echo(metric.signature, err=True)
