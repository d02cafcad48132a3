"""``gecmetric green``: GREEN from files."""
from __future__ import annotations

import click

from ..errors import InputError
from ..metrics.green import GREEN, REGIONS, alpha_of
from ..report import dumps, green_table, percent, round_half_up
from ..significance import resamplers_for
from . import main
from .common import check_order_option, corpus_options, echo_score_rows, load_corpus, output_options, unit_options
from .options import GreedyCommand, GreedyOption
from .significance import run_paired_tests, significance_options


def _beta_label(beta: float) -> str:
    return f"{beta:g}"


@main.command(cls=GreedyCommand)
@corpus_options(("-c", "-o", "--hypothesis", "--corrected"))
@unit_options
@click.option("-b", "--beta", "betas", cls=GreedyOption, metavar="BETA...",
              help="F-beta weight(s) of recall; 'inf' gives recall. One column each.  [default: 2.0]")
@click.option("--sentence", is_flag=True, help="One line per sentence: a column per beta and file (beta-major).")
@click.option("--mean", is_flag=True, help="Mean of the sentence scores instead of the corpus score.")
@output_options
@significance_options()
def green(source, references, hypotheses, order, unit, normalize_space, betas, sentence, mean, digits, verbose,
          as_json, show_signature, paired_bs, paired_ar, seed):
    """GREEN of each corrected file: a header of betas, then `path<TAB>score...` (x100).

    \b
    gecmetric green -s INPUT -r REF0 REF1 -c AMU CAMB -b 0.5 1 2
    The best reference is chosen per sentence and per beta (SPEC 3.3).
    """
    check_order_option(order)
    if sentence and mean:
        raise InputError("choose one of --sentence and --mean")
    metric = GREEN(order, list(betas) if betas else [2.0], unit, normalize_space)
    corpus = load_corpus(source, references, hypotheses, unit, normalize_space)
    encoded = metric.encode(corpus.sources, corpus.references)
    statistics = [metric.statistics(encoded, corpus.hypotheses[path]) for path in hypotheses]
    if paired_bs or paired_ar:
        run_paired_tests(resamplers_for([metric], len(references)), hypotheses, statistics, paired_bs, paired_ar,
                         seed, digits, as_json, show_signature or verbose, {"--sentence": sentence, "--mean": mean})
        return
    labels = [_beta_label(b) for b in metric.betas]
    if sentence:
        _print_sentences(metric, corpus, hypotheses, statistics, digits, verbose, as_json)
    elif mean:
        means = [metric.sentence_from_statistics(stats).mean for stats in statistics]
        if as_json:
            click.echo(dumps([{"hypothesis": path, "scores": dict(zip(labels, 100 * m)),
                               "signature": metric.signature(len(references)) + "|mode:mean"}
                              for path, m in zip(hypotheses, means)]))
        else:
            echo_score_rows(zip(hypotheses, means), digits, ["beta"] + labels)
    else:
        results = [metric.corpus_from_statistics(stats) for stats in statistics]
        if as_json:
            click.echo(dumps([_result_json(path, res, labels) for path, res in zip(hypotheses, results)]))
        elif verbose:
            for path, res in zip(hypotheses, results):
                for k, beta in enumerate(metric.betas):
                    click.echo(f"{path}\talpha={round_half_up(alpha_of(beta), digits)}\t"
                               f"beta={round_half_up(beta, digits)}")
                    click.echo(green_table(res.regions[k], beta, digits))
        else:
            echo_score_rows(((path, res.scores) for path, res in zip(hypotheses, results)), digits,
                            ["beta"] + labels)
    if show_signature or verbose:
        click.echo(metric.signature(len(references)), err=True)


def _result_json(path, result, labels) -> dict:
    return {"hypothesis": path, "scores": dict(zip(labels, 100 * result.scores)),
            "regions": {label: {name: result.regions[k][:, j] for j, name in enumerate(REGIONS)}
                        for k, label in enumerate(labels)},
            "settings": result.settings, "signature": result.signature}


def _print_sentences(metric, corpus, hypotheses, statistics, digits, verbose, as_json):
    scores = [metric.sentence_from_statistics(stats) for stats in statistics]
    if as_json:
        click.echo(dumps([{"hypothesis": path, "scores": {_beta_label(b): 100 * s.scores[k]
                                                          for k, b in enumerate(metric.betas)},
                           "signature": s.signature} for path, s in zip(hypotheses, scores)]))
        return
    if verbose:
        for d in range(corpus.size):
            for h, path in enumerate(hypotheses):
                for k, beta in enumerate(metric.betas):
                    chosen = scores[h].chosen_references[k, d]
                    for r in range(len(corpus.references)):
                        click.echo(f"S-{d + 1}   \t{corpus.sources[d]}")
                        click.echo(f"C-{d + 1}-{h + 1} \t{corpus.hypotheses[path][d]}")
                        click.echo(f"R-{d + 1}-{r + 1}{'*' if r == chosen else ' '}\t{corpus.references[r][d]}")
                        click.echo(green_table(metric.region_counts(statistics[h][d, r]), beta, digits))
        return
    for d in range(corpus.size):
        click.echo("\t".join(percent(s.scores[k, d], digits) for k in range(len(metric.betas)) for s in scores))
