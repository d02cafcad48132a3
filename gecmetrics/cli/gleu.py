"""``gecmetric gleu``: GLEU+ and GLEU 2015 from files."""
from __future__ import annotations

import click

from ..errors import InputError
from ..metrics.gleu import VARIANTS, GLEU
from ..report import dumps, gleu_table, percent
from ..significance import resamplers_for
from . import main
from .common import check_order_option, corpus_options, echo_score_rows, load_corpus, output_options, unit_options
from .options import GreedyCommand, GreedyOption
from .significance import run_paired_tests, significance_options


def _corpus_statistics(metric: GLEU, sources, references, hypothesis):
    """Worker for -p: encode and count one hypothesis file in another process."""
    encoded = metric.encode(sources, references)
    return metric.statistics(encoded, hypothesis)


@main.command(cls=GreedyCommand)
@corpus_options()
@unit_options
@click.option("--variant", type=click.Choice(VARIANTS), default="official", show_default=True,
              help="official: gec-ranking's code; paper: Eq. 1 of 'GLEU Without Tuning' (no clamp); "
                   "gleu0: the original 2015 GLEU with merged references.")
@click.option("-l", "--lambda", "lambdas", cls=GreedyOption, type=float, metavar="FLOAT...",
              help="gleu0 only: weight(s) of the penalty for source n-grams not in the references [default: 0].")
@click.option("-i", "--iter", "iterations", type=int, default=500, show_default=True,
              help="Reference-sampling iterations of the corpus score (one when there is one reference).")
@click.option("-f", "--fix-seed", is_flag=True,
              help="Draw references exactly as gec-ranking (Python 2 random, seed j*101): reproduces its numbers.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the reference draws without -f, and of --paired-bs/--paired-ar.")
@click.option("-m", "--max", "best", is_flag=True,
              help="Best reference per sentence (highest sentence GLEU) instead of sampling.")
@click.option("--sentence", is_flag=True, help="One line per sentence, a column per hypothesis file.")
@click.option("--smooth", is_flag=True,
              help="With --sentence: gec-ranking's smoothed sentence scores with std and 95% interval over references.")
@click.option("--mean", is_flag=True, help="Mean of the sentence scores (mean over references, or max with -m).")
@click.option("-p", "--processes", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Processes for counting several hypothesis files in parallel.")
@output_options
@significance_options(add_seed=False)
def gleu(source, references, hypotheses, order, unit, normalize_space, variant, lambdas, iterations,
         fix_seed, seed, best, sentence, smooth, mean, processes, digits, verbose, as_json, show_signature,
         paired_bs, paired_ar):
    """GLEU+ of each hypothesis file: `path<TAB>score` (x100).

    \b
    gecmetric gleu -s INPUT -r REF0 REF1 -o AMU CAMB -f -d 4
    prints gec-ranking's numbers (AMU 58.3256). Without -f the draws come from --seed.
    """
    check_order_option(order)
    if iterations < 1:
        raise InputError(f"-i must be >= 1, got {iterations}")
    if lambdas and variant != "gleu0":
        raise InputError(f"--lambda applies to --variant gleu0 only, not {variant}")
    if smooth and not sentence:
        raise InputError("--smooth goes with --sentence")
    if sentence and mean:
        raise InputError("choose one of --sentence and --mean")
    metrics = [GLEU(variant, order, unit, iterations=iterations, fix_seed=fix_seed, seed=seed, best_reference=best,
                    smooth=smooth, lambda_=lam, normalize_space=normalize_space)
               for lam in (lambdas or [None])]
    corpus = load_corpus(source, references, hypotheses, unit, normalize_space)
    n_refs = len(corpus.references)
    if processes > 1 and len(hypotheses) > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(processes) as pool:
            futures = [pool.submit(_corpus_statistics, metrics[0], corpus.sources, corpus.references,
                                   corpus.hypotheses[path]) for path in hypotheses]
            statistics = [f.result() for f in futures]
    else:
        encoded = metrics[0].encode(corpus.sources, corpus.references)
        statistics = [metrics[0].statistics(encoded, corpus.hypotheses[path]) for path in hypotheses]

    if paired_bs or paired_ar:
        run_paired_tests(resamplers_for(metrics, n_refs), hypotheses, statistics, paired_bs, paired_ar, seed, digits,
                         as_json, show_signature or verbose, {"--sentence": sentence, "--mean": mean})
        return
    if sentence:
        _print_sentences(metrics[0], corpus, hypotheses, statistics, n_refs, digits, verbose, as_json)
    elif mean:
        _print_means(metrics, hypotheses, statistics, n_refs, digits, as_json)
    else:
        _print_corpus(metrics, hypotheses, statistics, n_refs, digits, verbose, as_json)
    if show_signature or verbose:
        for metric in metrics:
            click.echo(metric.signature(n_refs), err=True)


def _print_corpus(metrics, hypotheses, statistics, n_refs, digits, verbose, as_json):
    results = [[m.corpus_from_statistics(stats, n_refs) for m in metrics] for stats in statistics]
    if as_json:
        click.echo(dumps([{"hypothesis": path, **_result_json(res)} for path, per_metric in zip(hypotheses, results)
                          for res in per_metric]))
        return
    several = len(metrics) > 1
    if not verbose:
        echo_score_rows(((path, [res.score for res in per_metric]) for path, per_metric in zip(hypotheses, results)),
                        digits, _lambda_header(metrics))
        return
    for path, per_metric in zip(hypotheses, results):
        for metric, res in zip(metrics, per_metric):
            click.echo(path + (f"\tlambda={metric.lambda_:g}" if several else ""))
            click.echo(gleu_table(res, digits))
            if res.iterations > 1:
                low, high = res.interval
                click.echo(f"mean {percent(res.score, digits)}  std {percent(res.std, digits)}  "
                           f"95% interval ({percent(low, digits)}, {percent(high, digits)})  "
                           f"over {res.iterations} iterations (counts above are means)")


def _lambda_header(metrics) -> list[str] | None:
    """The header line of several gleu0 lambdas (one column each); none for one metric."""
    return ["lambda"] + [f"{m.lambda_:g}" for m in metrics] if len(metrics) > 1 else None


def _result_json(result) -> dict:
    return {"score": 100 * result.score, "std": 100 * result.std, "iterations": result.iterations,
            "interval": None if result.interval is None else [100 * x for x in result.interval],
            "orders": {"match": result.match, "penalty": result.penalty, "numerator": result.numerator,
                       "denominator": result.denominator, "precision": result.precision},
            "hypothesis_length": result.hypothesis_length, "reference_length": result.reference_length,
            "brevity_penalty": result.brevity_penalty, "settings": result.settings, "signature": result.signature}


def _print_means(metrics, hypotheses, statistics, n_refs, digits, as_json):
    rows = []
    for path, stats in zip(hypotheses, statistics):
        rows.append((path, [m.sentence_from_statistics(stats, n_refs).mean for m in metrics]))
    if as_json:
        click.echo(dumps([{"hypothesis": path, "score": 100 * s, "signature": m.signature(n_refs) + "|mode:mean"}
                          for path, scores in rows for m, s in zip(metrics, scores)]))
        return
    echo_score_rows(rows, digits, _lambda_header(metrics))


def _print_sentences(metric, corpus, hypotheses, statistics, n_refs, digits, verbose, as_json):
    scores = [metric.sentence_from_statistics(stats, n_refs) for stats in statistics]
    if as_json:
        click.echo(dumps([{"hypothesis": path, "scores": 100 * s.scores,
                           **({"std": 100 * s.std} if s.std is not None else {}), "signature": s.signature}
                          for path, s in zip(hypotheses, scores)]))
        return
    if verbose:
        for d in range(corpus.size):
            for h, path in enumerate(hypotheses):
                chosen = scores[h].chosen_references[d]
                for r in range(n_refs):
                    click.echo(f"S-{d + 1}   \t{corpus.sources[d]}")
                    click.echo(f"H-{d + 1}-{h + 1} \t{corpus.hypotheses[path][d]}")
                    click.echo(f"R-{d + 1}-{r + 1}{'*' if r == chosen else ' '}\t{corpus.references[r][d]}")
                    click.echo(gleu_table(metric.sentence_result(statistics[h], d, r), digits))
        return
    for d in range(corpus.size):
        cells = []
        for s in scores:
            cells.append(percent(s.scores[d], digits))
            if s.std is not None:
                low, high = s.interval[d]
                cells += [percent(s.std[d], digits), f"({percent(low, digits)},{percent(high, digits)})"]
        click.echo("\t".join(cells))
