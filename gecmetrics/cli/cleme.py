"""``gecmetric cleme``: CLEME and CLEME2.0 of hypothesis M2 files against a reference M2 file."""
from __future__ import annotations

import sys
from typing import Any

import click

from ..errors import InputError
from ..io.corpus import Corpus, read_m2_hypotheses
from ..metrics.cleme.metric import CLEME, CLEME2, LEVELS, ChunkMetric, ChunkSettings
from ..metrics.cleme.report import format_chunk_tables, score_table, sentence_table
from ..metrics.cleme.statistics import ASSUMPTIONS
from ..run.engine import score_corpus
from ..run.files import shown
from ..stats.significance import resamplers_for
from . import main
from .common import digits_option, echo_json, fraction_scale_option, progress_unless, scale_options, scored_files
from .context import in_run
from .options import GreedyCommand, GreedyOption, given_settings, settings_options
from .significance import run_paired_tests, significance_options


def build_metric(assumption: str, level: str, unweighted: bool, beta: float | None, cleme2: bool,
                 factors: str | None, lang: str | None = None) -> ChunkMetric:
    """CLEME or CLEME2.0 with the command's settings (beta is CLEME's, factors CLEME2.0's)."""
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
@click.option("-hyp", "hypotheses", cls=GreedyOption, required=True,
              help="Hypothesis M2 file(s), one annotator each (e.g. errant_parallel output); the first is the "
                   "baseline of a paired test.")
@click.option("-ref", "reference", required=True, metavar="FILE",
              help="Reference M2 file, one or more annotators.")
@settings_options(ChunkSettings, ["lang"])
@click.option("--assumption", type=click.Choice(ASSUMPTIONS), default="dependent", show_default=True,
              help="dependent: each reference alone (the best one per sentence); independent: all references "
                   "at once (a correction is right if any reference has it).")
@click.option("--level", type=click.Choice(LEVELS), default="corpus", show_default=True,
              help="corpus: scores of the totals (references chosen by the running F); sentence: mean of the "
                   "sentence scores.")
@click.option("--unweighted", is_flag=True,
              help="Count chunks instead of weighting them by length (the official curves).")
@click.option("-b", "--beta", type=float, default=None, help="Beta of CLEME's F-score (>= 0; inf gives recall) "
                                                             "[default: 0.5].")
@click.option("--cleme2", is_flag=True,
              help="CLEME2.0: hit-, wrong-, under- and over-correction rates and their aggregate (the score).")
@click.option("--factors", metavar="H/W/U/O",
              help="CLEME2.0's factors of the aggregate [default: 0.45/0.35/0.15/0.05 at corpus level, "
                   "0.35/0.25/0.20/0.20 at sentence level].")
@click.option("--sentence", is_flag=True, help="Per-sentence scores: a line per hypothesis file and sentence.")
@click.option("-v", "--verbose", is_flag=True,
              help="Print each sentence's chunk table (the layout of CLEME's visualize.py) before the scores.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON: scores, counts, bias, settings, signature.")
@click.option("--signature", "show_signature", is_flag=True, help="Print the signature on stderr.")
@digits_option(4, "Decimals (rounded half up).")
@fraction_scale_option
@scale_options
@significance_options()
def cleme(hypotheses: tuple[str, ...], reference: str, lang: str | None, assumption: str, level: str, unweighted: bool,
          beta: float | None, cleme2: bool, factors: str | None, sentence: bool, verbose: bool, as_json: bool,
          show_signature: bool, digits: int, scale: float, jobs: int, chunk_lines: int | None, dask_address: str | None,
          paired_bs: int | None, paired_ar: int | None, seed: int) -> None:
    """CLEME (F-beta over chunks) or CLEME2.0 (--cleme2) of hypothesis M2 files against a
    reference M2 file, as THUKElab/CLEME computes them (fractions, not x100).

    \b
    gecmetric cleme -hyp AMU.m2 CAMB.m2 -ref conll14.m2
    gecmetric cleme -hyp AMU.m2 -ref conll14.m2 --assumption independent --level sentence --unweighted
    gecmetric cleme -hyp AMU.m2 CAMB.m2 -ref conll14.m2 --cleme2 --paired-bs

    The files are read in chunks of sentences (-p/--chunk-lines); the length weights and the
    corpus choice of references need every sentence, so --sentence prints after the last chunk.
    """
    if verbose and as_json:
        raise InputError("-v (chunk tables) does not go with --json")
    metric = in_run(build_metric(assumption, level, unweighted, beta, cleme2, factors, lang))
    paths = [shown(path) for path in hypotheses]
    scored, whole = _scored(metric, reference, hypotheses, verbose, jobs, chunk_lines, dask_address,
                            progress_unless(as_json, "cleme"))
    if paired_bs or paired_ar:
        run_paired_tests(resamplers_for([metric], 1), paths, [scored.statistics[p][0] for p in paths], paired_bs,
                         paired_ar, seed, digits, as_json, show_signature,
                         {"--sentence": sentence, "-v": verbose}, scale=scale)
        return
    if verbose:  # each sentence's chunk table, file by file
        prepared = metric.prepare(whole)
        for path in paths:
            if len(paths) > 1:
                click.echo(f"== {path}")
            sys.stdout.write(format_chunk_tables(metric.partitions(prepared, whole.hypotheses[path], path),
                                                 metric.token_delimiter))
    results = [(path, scored.result(path, 0)) for path in paths]
    if as_json:
        echo_json([{"hypothesis": path, **result.to_dict()} for path, result in results])
    elif sentence:
        click.echo(sentence_table(metric, [(path, scored.statistics[path][0]) for path in paths], digits, scale))
    else:
        click.echo(score_table(metric, results, digits, scale))
    if show_signature:
        click.echo(metric.signature, err=True)


def _scored(metric: ChunkMetric, reference: str, hypotheses: tuple[str, ...], whole: bool, jobs: int,
            chunk_lines: int | None, dask_address: str | None, progress) -> tuple[Any, Corpus | None]:
    """(the statistics of every hypothesis file, the whole corpus or None): the files are read
    chunk by chunk, or whole when ``whole`` (-v draws the chunk tables from the whole corpus)."""
    if whole:
        corpus = read_m2_hypotheses(reference, hypotheses, metric.m2_target_lines)
        return score_corpus([metric], corpus, list(corpus.hypotheses), progress=progress, jobs=jobs,
                            chunk_lines=chunk_lines, cache=metric.run_context), corpus
    return scored_files([metric], None, (), hypotheses, reference, jobs=jobs, chunk_lines=chunk_lines,
                        dask_address=dask_address, progress=progress, m2_hypotheses=True), None


