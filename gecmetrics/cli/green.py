"""``gecmetric green``: GREEN from files."""
from __future__ import annotations

import click

from ..errors import InputError
from ..metrics.green.green import GREEN, GREENSettings, alpha_of, beta_label
from ..core.table import percent, round_half_up
from ..metrics.green.report import green_table
from ..stats.significance import resamplers_for
from . import main
from .common import (check_order_option, corpus_options, echo_json, echo_sentence_chunks, echo_score_rows,
                     output_options, progress_unless, scale_options, scored_files, streamed_chunks, corpus_files, unit_options)
from .options import GreedyCommand, GreedyOption
from .significance import check_paired_options, run_paired_tests, significance_options


@main.command(cls=GreedyCommand)
@corpus_options(("-c", "-o", "--hypothesis", "--corrected"))
@unit_options
@click.option("-b", "--beta", "betas", cls=GreedyOption, metavar="BETA...",
              help="F-beta weight(s) of recall; 'inf' gives recall. One column each.  [default: 2.0]")
@click.option("--sentence", is_flag=True, help="One line per sentence: a column per beta and file (beta-major).")
@click.option("--mean", is_flag=True, help="Mean of the sentence scores instead of the corpus score.")
@scale_options
@output_options
@significance_options()
def green(source, references, hypotheses, order, unit, normalize_space, betas, sentence, mean, jobs, chunk_lines,
          dask_address, digits, verbose, as_json, show_signature, paired_bs, paired_ar, seed):
    """GREEN of each corrected file: a header of betas, then `path<TAB>score...` (x100).

    \b
    gecmetric green -s INPUT -r REF0 REF1 -c AMU CAMB -b 0.5 1 2
    The best reference is chosen per sentence and per beta (SPEC 3.3).
    """
    check_order_option(order)
    if sentence and mean:
        raise InputError("choose one of --sentence and --mean")
    metric = GREEN(order, list(betas) if betas else GREENSettings.beta, unit, normalize_space)
    if paired_bs or paired_ar:
        check_paired_options(paired_bs, paired_ar, {"--sentence": sentence, "--mean": mean})
    progress = progress_unless(as_json, "green")
    if sentence:
        chunks = streamed_chunks([metric], corpus_files(source, references, hypotheses), jobs=jobs,
                                 chunk_lines=chunk_lines, dask_address=dask_address, progress=progress)
        _print_sentences(metric, chunks, hypotheses, digits, verbose, as_json)
        if show_signature or verbose:
            click.echo(metric.signature(len(references)), err=True)
        return
    scored = scored_files([metric], source, references, hypotheses, jobs=jobs, chunk_lines=chunk_lines,
                          dask_address=dask_address, progress=progress)
    statistics = [scored.statistics[path][0] for path in hypotheses]
    if paired_bs or paired_ar:
        run_paired_tests(resamplers_for([metric], scored.references), hypotheses, statistics, paired_bs, paired_ar,
                         seed, digits, as_json, show_signature or verbose)
        return
    if mean:
        sentences = [metric.sentence_from_statistics(stats) for stats in statistics]
        if as_json:
            echo_json([{"hypothesis": path, **s.mean_dict(scale=100)} for path, s in zip(hypotheses, sentences)])
        else:
            echo_score_rows(((path, s.mean) for path, s in zip(hypotheses, sentences)), digits,
                            ["beta"] + [beta_label(b) for b in metric.betas])
    else:
        _print_corpus(metric, hypotheses, statistics, digits, verbose, as_json)
    if show_signature or verbose:
        click.echo(metric.signature(scored.references), err=True)


def _print_corpus(metric, hypotheses, statistics, digits, verbose, as_json):
    results = [metric.score(stats) for stats in statistics]
    if as_json:
        echo_json([{"hypothesis": path, **res.to_dict(scale=100)} for path, res in zip(hypotheses, results)])
    elif verbose:
        for path, res in zip(hypotheses, results):
            for k, beta in enumerate(metric.betas):
                click.echo(f"{path}\talpha={round_half_up(alpha_of(beta), digits)}\t"
                           f"beta={round_half_up(beta, digits)}")
                click.echo(green_table(res.regions[k], beta, digits))
    else:
        echo_score_rows(((path, res.scores) for path, res in zip(hypotheses, results)), digits,
                        ["beta"] + [beta_label(b) for b in metric.betas])


def _print_sentences(metric, chunks, hypotheses, digits, verbose, as_json):
    """Sentence scores chunk by chunk as they are counted (JSON: gathered, then printed)."""
    def print_chunk(chunk, stats, scores):
        if verbose:
            _print_sentence_tables(metric, chunk, hypotheses, stats, scores, digits)
            return
        for d in range(chunk.size):
            click.echo("\t".join(percent(s.scores[k, d], digits) for k in range(len(metric.betas)) for s in scores))
    echo_sentence_chunks(metric, chunks, hypotheses, as_json, print_chunk)


def _print_sentence_tables(metric, scored, hypotheses, statistics, scores, digits):
    chunk = scored.corpus()
    for d in range(chunk.size):
        number = chunk.offset + d + 1
        for h, path in enumerate(hypotheses):
            for k, beta in enumerate(metric.betas):
                chosen = scores[h].chosen_references[k, d]
                for r in range(len(chunk.references)):
                    click.echo(f"S-{number}   \t{chunk.sources[d]}")
                    click.echo(f"C-{number}-{h + 1} \t{chunk.hypotheses[path][d]}")
                    click.echo(f"R-{number}-{r + 1}{'*' if r == chosen else ' '}\t{chunk.references[r][d]}")
                    click.echo(green_table(metric.region_counts(statistics[h][d, r]), beta, digits))
