"""``gecmetric compare``: one table of many systems under many metric settings."""
from __future__ import annotations

import click

from ..core.table import ScoreFormat
from ..errors import InputError
from ..io.text import check_distinct
from ..metrics.registry import metrics_from_text
from ..metrics.results import scores_signature
from ..run.compare import (DEFAULT_METRICS, check_columns, comparison_table, metric_columns, sentence_comparison,
                           with_gold_metric)
from ..stats.significance import column_tests
from . import main
from .common import check_references, check_scale, corpus_files, echo_table
from .inputs import corpus_options, hypothesis_m2_option
from .metric_list import print_metric_list
from .options import GreedyCommand, GreedyOption
from .scoring import ScoringOptions, scoring_options
from .sentences import stream_sentence_table, table_streams
from .all_pairs import run_all_pairs_list
from .significance import check_paired_options, run_paired_test_list
from .context import in_run


@main.command(cls=GreedyCommand)
@corpus_options(references_required=False)
@click.option("--metrics", "metric_texts", cls=GreedyOption, metavar="SPEC...",
              help="Metric settings: NAME[:KEY=VALUE...], comma-separated or several after the flag, e.g. "
                   "'gleu,green:beta=0.5/1/2,green-char'. '/' separates several values (GREEN betas). "
                   f"[default: {','.join(DEFAULT_METRICS)} (+ m2 with --m2)]")
@click.option("--m2", "gold_m2", metavar="GOLD.m2",
              help="Gold M2 annotation of the same sentences as -s: adds the MaxMatch M2 F0.5 column.")
@hypothesis_m2_option("M2 files of the hypotheses, one per -o file in the same order (e.g. errant_parallel output): "
                      "for the metrics that read hypothesis edits ({metrics}).")
@click.option("--list-metrics", is_flag=True, expose_value=False, is_eager=True, callback=print_metric_list,
              help="List the metric names, their defaults and settings (with --json: as JSON), and exit.")
@click.option("--sort", "sort_column", metavar="COLUMN",
              help="Sort rows by a column: its label (case and spaces ignored), its number (1 = first score "
                   "column) or 'system'. Scores sort best first.")
@click.option("--ranks", is_flag=True, help="Add a rank column (1 = best; ties share a rank) after each score.")
@click.option("--ranking", type=click.Choice(["ew", "ts"]),
              help="After each column of a metric with sentence scores, the systems' Expected Wins (ew) or TrueSkill "
                   "mu (ts) from the pairwise wins of their sentence scores (Goto et al. 2025).")
@click.option("--all-pairs", "all_pairs", is_flag=True,
              help="With --paired-bs/--paired-ar: test every pair of systems (not only against the first), "
                   "correct the p-values for the number of pairs (--correction) and print the clusters of "
                   "systems that cannot be told apart.")
@click.option("--correction", type=click.Choice(["holm", "bh", "none"]), default=None,
              help="The multiple-comparison correction of --all-pairs: holm (family-wise error, the default), "
                   "bh (Benjamini-Hochberg, false discovery rate) or none.")
@scoring_options(mean=False, verbose="Print the signatures on stderr (as --signature).",
                 helps={"json": "Print JSON: columns (label, metric, signature), rows (system, scores, ranks) and "
                                "metrics (signature, settings); with --sentence an object per system and metric, "
                                "with a paired test a list of its results per column."})
def compare(source, references, hypotheses, metric_texts, gold_m2, hypothesis_m2, sort_column, ranks, ranking,
            all_pairs, correction, **options):
    """Score many systems with many metrics: a row per system, a column per metric setting
    (--sentence: a row per sentence, a column per system and metric setting, as TSV).

    \b
    gecmetric compare -s INPUT -r REF0 REF1 -o AMU CAMB CUUI --m2 official-2014.combined.m2
    gecmetric compare -s INPUT -r REF0 REF1 -o AMU CAMB --metrics gleu,gleu-max,green-char:beta=0.5/2

    The source, each reference and each system output are counted once for all metrics.
    `--list-metrics` shows the names and settings.
    """
    options["show_signature"] |= options.pop("verbose")  # -v is --signature here: no trace, so any format goes
    out = ScoringOptions.take(options)
    fmt = out.format or "text"
    metrics = [in_run(metric) for metric in with_gold_metric(
        metrics_from_text(list(metric_texts) if metric_texts else list(DEFAULT_METRICS)), gold_m2 is not None)]
    check_references(metrics, references)
    check_scale(metrics, out.scale, fractions_beside=ranking == "ew")  # Expected Wins are fractions
    check_columns(metrics, len(references))  # (after: signing loads a model metric's model)
    if out.sentence and (sort_column is not None or ranks or ranking or out.paired):
        raise InputError("--sentence prints sentence scores: no --sort, --ranks, --ranking or paired test with it")
    if all_pairs and not out.paired:
        raise InputError("--all-pairs tests every pair of systems: it needs --paired-bs or --paired-ar")
    if correction is not None and not all_pairs:
        raise InputError("--correction is the correction of --all-pairs: give --all-pairs with it")
    check_distinct(hypotheses, "in -o: its rows (and a paired test of it against itself) could not be told apart")
    conflicts = {"--sort": sort_column is not None, "--ranks": ranks, "--ranking": ranking is not None}
    if out.paired:  # before any scoring (it was said after the annotation)
        check_paired_options(out.paired_bs, out.paired_ar, conflicts)
    files = corpus_files(source, references, hypotheses, gold_m2, hypothesis_m2)
    if out.sentence and (out.format or "tsv") == "tsv" and table_streams(metrics):  # as a metric's command does
        stream_sentence_table("compare", metrics, files, out)
        columns = metric_columns(metrics, len(references))[0]
    elif out.sentence:
        scored = out.run(metrics, files, "compare")
        echo_table(sentence_comparison(scored, out.scale, out.digits), out.format or "tsv")
        columns = metric_columns(scored.metrics, scored.references)[0]
    elif out.paired:
        _paired_tests(out.run(metrics, files, "compare"), list(hypotheses), out, all_pairs, correction, conflicts)
        return
    else:
        comparison = comparison_table(out.run(metrics, files, "compare"), out.scale, ranking)
        if sort_column is not None:
            comparison = comparison.sorted_by(sort_column)
        echo_table(comparison.as_table(out.digits, ranks, markdown=fmt == "markdown"), fmt)
        columns = comparison.columns
    if out.show_signature:  # of what was printed: sentence scores say so, as a metric's command does
        for column in columns:
            click.echo(f"{column.label}\t{scores_signature(column.signature, sentence=out.sentence)}", err=True)


def _paired_tests(scored, hypotheses: list[str], out: ScoringOptions, all_pairs: bool, correction: str | None,
                  conflicts: dict[str, bool]) -> None:
    """Each column's paired test (--all-pairs: of every pair), named by the column's label."""
    formats = [ScoreFormat.of(metric, out.scale) for metric in scored.metrics for _ in metric.column_labels()]
    labels = [column.label for column in metric_columns(scored.metrics, scored.references)[0]]
    as_json = (out.format or "text") == "json"
    if all_pairs:
        directions = [bool(metric.higher_is_better) for metric in scored.metrics for _ in metric.column_labels()]
        run_all_pairs_list(column_tests(scored), hypotheses, out.paired_bs, out.paired_ar, out.seed or 0,
                           correction or "holm", out.digits, as_json, out.show_signature, conflicts, formats,
                           directions, labels)
    else:
        run_paired_test_list(column_tests(scored), hypotheses, out.paired_bs, out.paired_ar, out.seed or 0,
                             out.digits, as_json, out.show_signature, conflicts, formats, labels)
