"""``gecmetric cleme``: CLEME and CLEME2.0 of hypothesis M2 files against a reference M2 file."""
from __future__ import annotations

import sys
from typing import Any

import click

from ..core.table import ScoreFormat, more_digits
from ..errors import InputError, LineRefused
from ..io.corpus import Corpus, read_m2_hypotheses
from ..metrics.cleme.metric import CLEME, CLEME2, LEVELS, ChunkMetric, ChunkSettings
from ..metrics.cleme.report import format_chunk_tables, score_table, sentence_table
from ..metrics.cleme.statistics import ASSUMPTIONS
from ..metrics.results import scores_signature
from ..run.engine import score_corpus
from ..io.text import shown_path
from ..stats.significance import resamplers_for
from . import main
from .common import corpus_files, echo_json_results, echo_scores, echo_table, progress_unless
from .inputs import m2_hypothesis_options
from .options import GreedyCommand
from .setting_options import given_settings, settings_options
from .scoring import ScoringOptions, scoring_options
from .significance import run_paired_tests
from .context import in_run
from .sentences import echo_sentence_scores


def build_metric(assumption: str, level: str, unweighted: bool, beta: str | float | None, cleme2: bool,
                 factors: str | None, lang: str | None = None, metric_name: str | None = None) -> ChunkMetric:
    """CLEME or CLEME2.0 with the command's settings (beta is CLEME's, factors CLEME2.0's; the
    version by --cleme2 or main.py's --metric, which must agree)."""
    if metric_name in ("errant", "gleu"):  # main.py's other metrics are other commands here
        other = "`gecmetric m2 compare -hyp HYP.m2 -ref REF.m2`" if metric_name == "errant" else "`gecmetric gleu`"
        raise InputError(f"{metric_name} is not CLEME: here it is {other}", "--metric")
    if metric_name == "cleme" and cleme2:
        raise InputError("--metric cleme and --cleme2 ask for different versions: give one")
    cleme2 = cleme2 or metric_name == "cleme2"
    common = {"assumption": assumption, "level": level, "weighted": not unweighted,
              **given_settings(ChunkSettings, {"lang": lang})}
    if cleme2:
        if beta is not None:
            raise InputError("-b/--beta is CLEME's F-beta; CLEME2.0 (--cleme2) has no beta (see --factors)")
        return CLEME2(**common, factors=factors)
    if factors is not None:
        raise InputError("--factors are CLEME2.0's: give --cleme2 too")
    return CLEME(**common, beta=0.5 if beta is None else beta)


@main.command(cls=GreedyCommand)
@m2_hypothesis_options
@settings_options(ChunkSettings, ["lang"])
@click.option("--assumption", type=click.Choice(ASSUMPTIONS), default="dependent", show_default=True,
              help="dependent: each reference alone (the best one per sentence); independent: all references "
                   "at once (a correction is right if any reference has it).")
@click.option("--level", type=click.Choice(LEVELS), default="corpus", show_default=True,
              help="corpus: scores of the totals (references chosen by the running F); sentence: mean of the "
                   "sentence scores.")
@click.option("--unweighted", is_flag=True,
              help="Count every chunk as 1 instead of weighting it by its length (the official length-weight "
                   "curves).")
@click.option("-b", "--beta", metavar="FLOAT", default=None, help="Beta of CLEME's F-score (>= 0; inf gives recall) "
                                                             "[default: 0.5].")
@click.option("--cleme2", is_flag=True,
              help="CLEME2.0: hit-, wrong-, under- and over-correction rates and their aggregate (the score).")
@click.option("--metric", "metric_name", type=click.Choice(["cleme", "cleme2", "errant", "gleu"]),
              help="CLEME's main.py --metric: cleme or cleme2 (as --cleme2); its errant and gleu are "
                   "`gecmetric m2 compare` and `gecmetric gleu`.")
@click.option("--factors", metavar="H/W/U/O",
              help="CLEME2.0's factors of the aggregate [default: 0.45/0.35/0.15/0.05 at corpus level, "
                   "0.35/0.25/0.20/0.20 at sentence level].")
@scoring_options(mean=False, verbose="Print each sentence's chunk table (the layout of CLEME's visualize.py) "
                                     "before the scores.")
def cleme(hypotheses: tuple[str, ...], gold_path: str, lang: str | None, assumption: str, level: str,
          unweighted: bool, beta: str | None, cleme2: bool, metric_name: str | None, factors: str | None,
          **options: Any) -> None:
    """CLEME (F-beta over chunks) or CLEME2.0 (--cleme2) of hypothesis M2 files against a
    reference M2 file, as THUKElab/CLEME computes them (x100; --scale 1: fractions, as CLEME
    prints them; the counts with as many decimals as fractions get).

    \b
    gecmetric cleme -hyp AMU.m2 CAMB.m2 -ref official-2014.combined.m2
    gecmetric cleme -hyp AMU.m2 -ref official-2014.combined.m2 --assumption independent --level sentence --unweighted
    gecmetric cleme -hyp AMU.m2 CAMB.m2 -ref official-2014.combined.m2 --cleme2 --paired-bs
    gecmetric cleme --ref official-2014.combined.m2 --hyp AMU.m2 --metric cleme --level corpus --assumption dependent

    A system's M2 (AMU.m2) is what `gecmetric m2 annotate -orig INPUT -cor AMU -o AMU.m2` writes.
    The files are read in chunks (-p/--chunk-lines); the length weights and the corpus choice of
    references need every sentence, so --sentence prints after the last chunk.
    """
    out = ScoringOptions.take(options)
    fmt = out.format
    if out.verbose and fmt == "json":
        raise InputError("-v (chunk tables) does not go with --json")
    metric = in_run(build_metric(assumption, level, unweighted, beta, cleme2, factors, lang, metric_name))
    paths = [shown_path(path) for path in hypotheses]  # the run's names (messages: '<stdin>'), the rows' as given ('-')
    scored, whole = _scored(metric, gold_path, hypotheses, out)
    if out.paired:
        run_paired_tests(resamplers_for([metric], 1), list(hypotheses), [scored.statistics[p][0] for p in paths],
                         out.paired_bs,
                         out.paired_ar, out.seed or 0, out.digits, fmt == "json", out.show_signature,
                         {"--sentence": out.sentence, "-v": out.verbose}, ScoreFormat.of(metric, out.scale))
        return
    try:  # the scores before anything is printed: one that fails leaves no table behind
        results = [(path, scored.result(path, 0)) for path in paths]
    except LineRefused as err:  # length weights without a reference correction: the reference's fault
        if err.path is not None:
            raise
        raise InputError(str(err), shown_path(gold_path)) from None
    if whole is not None:  # each sentence's chunk table, file by file
        prepared = metric.prepare(whole)
        for path in paths:
            if len(paths) > 1:
                click.echo(f"== {path}")
            sys.stdout.write(format_chunk_tables(metric.partitions(prepared, whole.hypotheses[path], path),
                                                 metric.token_delimiter))
    _print(metric, scored, results, list(hypotheses), out)


def _print(metric: ChunkMetric, scored: Any, results: list[tuple[str, Any]], labels: list[str],
           out: ScoringOptions) -> None:
    """The scores (``results``: by the run's names) in rows named ``labels``, as the files were given."""
    shown = [(label, result) for label, (_, result) in zip(labels, results)]
    if out.format == "json":
        if out.sentence:
            echo_sentence_scores(scored, out.scale, out.digits, "json")
        else:
            echo_json_results(((label, metric, result) for label, result in shown), out.scale)
    elif out.sentence:
        echo_table(sentence_table(metric, [(label, scored.statistics[path][0]) for label, (path, _) in
                                           zip(labels, results)], out.digits, out.scale), out.format or "tsv")
    else:
        count_digits = more_digits(out.digits, 2 if out.scale == 100 else 0)
        echo_scores(score_table(metric, shown, out.digits, out.scale, count_digits), out.format or "tsv",
                    [result.signature for _, result in results])
    if out.show_signature:
        click.echo(scores_signature(metric.signature, out.sentence), err=True)


def _scored(metric: ChunkMetric, reference: str, hypotheses: tuple[str, ...], out: ScoringOptions
            ) -> tuple[Any, Corpus | None]:
    """(the statistics of every hypothesis file, the whole corpus or None): the files are read
    chunk by chunk, or whole with -v (the chunk tables are drawn from the whole corpus)."""
    if out.verbose:
        corpus = read_m2_hypotheses(reference, hypotheses, metric.m2_target_lines)
        return score_corpus([metric], corpus, list(corpus.hypotheses), progress=progress_unless(False, "cleme"),
                            jobs=out.jobs, dask=out.dask_address, chunk_lines=out.chunk_lines,
                            cache=metric.run_context), corpus
    return out.run([metric], corpus_files(None, (), hypotheses, reference, m2_hypotheses=True), "cleme"), None
