"""``gecmetric compare``: one table of many systems under many metric settings."""
from __future__ import annotations

import click

from ..run.compare import DEFAULT_METRICS, check_columns, comparison_table, with_gold_metric
from ..metrics.registry import list_metrics, metrics_from_text, settings_help
from ..output.formats import render, dumps
from ..stats.significance import column_tests
from . import main
from .common import (check_references, corpus_options, output_format, output_options, progress_unless,
                     scale_options, scored_files)
from .options import GreedyCommand, GreedyOption
from .significance import run_paired_test_list, significance_options

def _print_metric_list(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    for info in list_metrics():
        click.echo(str(info))
    click.echo("\nsettings, written NAME:KEY=VALUE:KEY=VALUE (KEY or an alias in parentheses):")
    for line in settings_help().splitlines():
        click.echo("  " + line)
    ctx.exit(0)


@main.command(cls=GreedyCommand)
@corpus_options(references_required=False)
@click.option("--metrics", "metric_texts", cls=GreedyOption, metavar="SPEC...",
              help="Metric settings: NAME[:KEY=VALUE...], comma-separated or several after the flag, e.g. "
                   "'gleu,green:beta=0.5/1/2,green-char'. '/' separates several values (GREEN betas). "
                   f"[default: {','.join(DEFAULT_METRICS)} (+ m2 with --m2)]")
@click.option("--m2", "gold_m2", metavar="GOLD.m2",
              help="Gold M2 annotation of the same sentences as -s: adds the MaxMatch M2 F0.5 column.")
@click.option("--hyp-m2", "hypothesis_m2", cls=GreedyOption, metavar="FILE.m2...",
              help="M2 files of the hypotheses, one per -o file in the same order (e.g. errant_parallel output): "
                   "for metrics that read hypothesis edits (cleme, cleme2).")
@click.option("--list-metrics", is_flag=True, expose_value=False, is_eager=True, callback=_print_metric_list,
              help="List the metric names, their defaults and settings, and exit.")
@click.option("--tsv", "as_tsv", is_flag=True, help="Print tab-separated values (header + a line per system).")
@click.option("--markdown", "as_markdown", is_flag=True, help="Print a Markdown table and the signatures.")
@click.option("--latex", "as_latex", is_flag=True, help="Print a LaTeX tabular (booktabs rules), signatures as comments.")
@click.option("--sort", "sort_column", metavar="COLUMN",
              help="Sort rows by a column: its label (case and spaces ignored), its number (1 = first score "
                   "column) or 'system'. Scores sort best first.")
@click.option("--ranks", is_flag=True, help="Add a rank column (1 = best; ties share a rank) after each score.")
@click.option("--ranking", type=click.Choice(["ew", "ts"]),
              help="After each column of a metric with sentence scores, the systems' Expected Wins (ew) or TrueSkill "
                   "mu (ts) from the pairwise wins of their sentence scores (Goto et al. 2025).")
@click.option("--scale", type=click.Choice(["100", "1"]), default="100", show_default=True,
              help="Scores that are fractions printed x100 or as fractions (0..1).")
@scale_options
@output_options
@significance_options()
def compare(source, references, hypotheses, metric_texts, gold_m2, hypothesis_m2, as_tsv, as_markdown, as_latex,
            sort_column, ranks, ranking, scale, jobs, chunk_lines, dask_address, digits, verbose, as_json, show_signature, paired_bs,
            paired_ar, seed):
    """Score many systems with many metrics: a row per system, a column per metric setting.

    \b
    gecmetric compare -s INPUT -r REF0 REF1 -o AMU CAMB CUUI --m2 official-2014.combined.m2
    gecmetric compare -s INPUT -r REF0 REF1 -o AMU CAMB --metrics gleu,gleu-max,green-char:beta=0.5/2

    The source, each reference and each system output are counted once for all metrics.
    `--list-metrics` shows the names and settings.
    """
    progress, scale = progress_unless(as_json, "compare"), float(scale)
    fmt = output_format({"tsv": as_tsv, "markdown": as_markdown, "latex": as_latex, "json": as_json},
                        "choose one of --tsv, --markdown and --json (or --latex)")
    metrics = with_gold_metric(metrics_from_text(list(metric_texts) if metric_texts else list(DEFAULT_METRICS)),
                               gold_m2 is not None)
    check_references(metrics, references)
    check_columns(metrics, len(references))
    scored = scored_files(metrics, source, references, hypotheses, gold_m2, jobs=jobs, chunk_lines=chunk_lines,
                          dask_address=dask_address, progress=progress, hypothesis_m2=hypothesis_m2)
    if paired_bs or paired_ar:
        scales = [scale if getattr(metric, "fraction", True) else None for metric in scored.metrics
                  for _ in metric.column_labels()]
        run_paired_test_list(column_tests(scored), list(hypotheses), paired_bs, paired_ar, seed, digits, as_json,
                             show_signature or verbose, {"--sort": sort_column is not None, "--ranks": ranks,
                                                         "--tsv": as_tsv, "--markdown": as_markdown,
                                                         "--latex": as_latex}, scales)
        return
    table = comparison_table(scored, scale, ranking)
    if sort_column is not None:
        table = table.sorted_by(sort_column)
    if as_json:
        click.echo(dumps(table.to_dict(ranks=True)))
    else:
        click.echo(render(table.as_table(digits, ranks, markdown=fmt == "markdown"), fmt))
    if show_signature or verbose:
        for column in table.columns:
            click.echo(f"{column.label}\t{column.signature}", err=True)
