"""``gecmetric gleu``: GLEU+ and GLEU 2015 from files."""
from __future__ import annotations

import click

from ..errors import InputError
from ..metrics.gleu.gleu import DEFAULT_ITERATIONS, VARIANTS, GLEU
from ..metrics.gleu.gleu2015 import GLEU2015
from ..core.aggregate import reducer_threads
from ..run.engine import check_jobs
from ..core.table import percent
from ..metrics.gleu.report import gleu_table
from ..stats.significance import resamplers_for
from . import main
from .common import (check_order_option, corpus_options, echo_json, echo_sentence_chunks, echo_score_rows,
                     output_options, progress_unless, scale_options, scored_files, streamed_chunks, corpus_files, unit_options)
from .options import GreedyCommand, GreedyOption
from .significance import check_paired_options, run_paired_tests, significance_options


def _metrics(variant, order, unit, normalize_space, iterations, fix_seed, seed, best, smooth, lambdas) -> list:
    """One metric (GLEU+), or one GLEU 2015 per lambda."""
    if lambdas and variant != "gleu0":
        raise InputError(f"--lambda applies to --variant gleu0 only, not {variant}")
    if fix_seed and seed is not None:
        raise InputError("-f (gec-ranking's draws, the default) and --seed N (NumPy draws) contradict each other; "
                         "give one")
    if variant == "gleu0":
        return [GLEU2015(n=order, unit=unit, normalize_space=normalize_space, smooth=smooth, lambda_=lam)
                for lam in (lambdas or [0.0])]
    return [GLEU(variant, order, unit, iterations=iterations, seed=seed, best_reference=best, smooth=smooth,
                 normalize_space=normalize_space)]


@main.command(cls=GreedyCommand)
@corpus_options()
@unit_options
@click.option("--variant", type=click.Choice(VARIANTS), default="official", show_default=True,
              help="official: gec-ranking's code; official-2016: its May 2016 brevity penalty exp(min(0, "
                   "1 - Hlen/Rlen)); paper: Eq. 1 of 'GLEU Without Tuning' (no clamp); "
                   "gleu0: the original 2015 GLEU with merged references.")
@click.option("-l", "--lambda", "lambdas", cls=GreedyOption, type=float, metavar="FLOAT...",
              help="gleu0 only: weight(s) of the penalty for source n-grams not in the references [default: 0].")
@click.option("-i", "--iter", "iterations", type=int, default=DEFAULT_ITERATIONS, show_default=True,
              help="Reference-sampling iterations of the corpus score (one when there is one reference).")
@click.option("-f", "--fix-seed", is_flag=True,
              help="Draw references exactly as gec-ranking (Python 2 random, seed j*101): the default, accepted "
                   "for the gleu package's command line.")
@click.option("--seed", type=int, default=None,
              help="Draw references from NumPy's generator with this seed instead of gec-ranking's draws "
                   "(not with -f); also the seed of --paired-bs/--paired-ar [default: 0].")
@click.option("-m", "--max", "best", is_flag=True,
              help="Best reference per sentence (highest sentence GLEU) instead of sampling.")
@click.option("--sentence", is_flag=True, help="One line per sentence, a column per hypothesis file.")
@click.option("--smooth", is_flag=True,
              help="With --sentence: gec-ranking's smoothed sentence scores with std and 95% interval over references.")
@click.option("--mean", is_flag=True, help="Mean of the sentence scores (mean over references, or max with -m).")
@scale_options
@output_options
@significance_options(add_seed=False)
def gleu(source, references, hypotheses, order, unit, normalize_space, variant, lambdas, iterations,
         fix_seed, seed, best, sentence, smooth, mean, jobs, chunk_lines, dask_address, digits, verbose, as_json,
         show_signature, paired_bs, paired_ar):
    """GLEU+ of each hypothesis file: `path<TAB>score` (x100).

    \b
    gecmetric gleu -s INPUT -r REF0 REF1 -o AMU CAMB -d 4
    prints gec-ranking's numbers (AMU 58.3256): references are drawn as its code draws them
    (-f, the gleu package's flag for it, is accepted). --seed N draws them from NumPy instead.
    """
    check_order_option(order)
    if iterations < 1:
        raise InputError(f"-i must be >= 1, got {iterations}")
    if smooth and not sentence:
        raise InputError("--smooth goes with --sentence")
    if sentence and mean:
        raise InputError("choose one of --sentence and --mean")
    metrics = _metrics(variant, order, unit, normalize_space, iterations, fix_seed, seed, best, smooth, lambdas)
    if paired_bs or paired_ar:
        check_paired_options(paired_bs, paired_ar, {"--sentence": sentence, "--mean": mean})
    progress = progress_unless(as_json, "gleu")
    if sentence:
        chunks = streamed_chunks(metrics[:1], corpus_files(source, references, hypotheses), jobs=jobs,
                                 chunk_lines=chunk_lines, dask_address=dask_address, progress=progress)
        _print_sentences(metrics[0], chunks, hypotheses, digits, verbose, as_json)
        n_refs = len(references)
    else:
        scored = scored_files(metrics[:1], source, references, hypotheses, jobs=jobs, chunk_lines=chunk_lines,
                              dask_address=dask_address, progress=progress)
        statistics = [scored.statistics[path][0] for path in hypotheses]
        n_refs = scored.references
    if paired_bs or paired_ar:
        run_paired_tests(resamplers_for(metrics, n_refs), hypotheses, statistics, paired_bs, paired_ar,
                         0 if seed is None else seed, digits, as_json, show_signature or verbose)
        return
    if mean:
        _print_means(metrics, hypotheses, statistics, digits, as_json)
    elif not sentence:
        with reducer_threads(check_jobs(jobs)):  # -p N also shares out the sampled sums
            _print_corpus(metrics, hypotheses, statistics, digits, verbose, as_json)
    if show_signature or verbose:
        for metric in metrics:
            click.echo(metric.signature(n_refs), err=True)


def _print_corpus(metrics, hypotheses, statistics, digits, verbose, as_json):
    results = [[m.score(stats) for m in metrics] for stats in statistics]
    if as_json:
        echo_json([{"hypothesis": path, **res.to_dict(scale=100)} for path, per_metric in zip(hypotheses, results)
                   for res in per_metric])
        return
    if not verbose:
        echo_score_rows(((path, [res.score for res in per_metric]) for path, per_metric in zip(hypotheses, results)),
                        digits, _lambda_header(metrics))
        return
    for path, per_metric in zip(hypotheses, results):
        for metric, res in zip(metrics, per_metric):
            click.echo(path + (f"\tlambda={metric.lambda_:g}" if len(metrics) > 1 else ""))
            click.echo(gleu_table(res, digits))
            if res.iterations > 1:
                low, high = res.interval
                click.echo(f"mean {percent(res.score, digits)}  std {percent(res.std, digits)}  "
                           f"95% interval ({percent(low, digits)}, {percent(high, digits)})  "
                           f"over {res.iterations} iterations (counts above are means)")


def _lambda_header(metrics) -> list[str] | None:
    """The header line of several gleu0 lambdas (one column each); none for one metric."""
    return ["lambda"] + [f"{m.lambda_:g}" for m in metrics] if len(metrics) > 1 else None


def _print_means(metrics, hypotheses, statistics, digits, as_json):
    sentences = [[m.sentence_from_statistics(stats) for m in metrics] for stats in statistics]
    if as_json:
        echo_json([{"hypothesis": path, **s.mean_dict(scale=100)} for path, per_metric in zip(hypotheses, sentences)
                   for s in per_metric])
        return
    echo_score_rows(((path, [s.mean for s in per_metric]) for path, per_metric in zip(hypotheses, sentences)),
                    digits, _lambda_header(metrics))


def _print_sentences(metric, chunks, hypotheses, digits, verbose, as_json):
    """Sentence scores chunk by chunk as they are counted (JSON: gathered, then printed)."""
    def print_chunk(chunk, stats, scores):
        if verbose:
            _print_sentence_tables(metric, chunk, hypotheses, stats, scores, digits)
        else:
            _print_sentence_rows(chunk.size, scores, digits)
    echo_sentence_chunks(metric, chunks, hypotheses, as_json, print_chunk)


def _print_sentence_rows(size, scores, digits):
    for d in range(size):
        cells = []
        for s in scores:
            cells.append(percent(s.scores[d], digits))
            if s.std is not None:
                low, high = s.interval[d]
                cells += [percent(s.std[d], digits), f"({percent(low, digits)},{percent(high, digits)})"]
        click.echo("\t".join(cells))


def _print_sentence_tables(metric, scored, hypotheses, statistics, scores, digits):
    """SPEC 2.6: per sentence, hypothesis and reference, the S/H/R lines and the table."""
    chunk = scored.corpus()
    for d in range(chunk.size):
        number = chunk.offset + d + 1
        for h, path in enumerate(hypotheses):
            chosen = scores[h].chosen_references[d]
            for r in range(len(chunk.references)):
                click.echo(f"S-{number}   \t{chunk.sources[d]}")
                click.echo(f"H-{number}-{h + 1} \t{chunk.hypotheses[path][d]}")
                click.echo(f"R-{number}-{r + 1}{'*' if r == chosen else ' '}\t{chunk.references[r][d]}")
                click.echo(gleu_table(metric.sentence_result(statistics[h], d, r), digits))
