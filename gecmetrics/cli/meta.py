"""``gecmetric meta-eval``: correlate metric scores of systems with human scores, from a human
table (``--human``) or from raw judgments (``--judgments``, cli/meta_judgments.py)."""
from __future__ import annotations

import click

from ..errors import InputError
from ..meta.human_tables import SHIPPED_TABLES
from ..meta.report import TABLES
from . import main
from .shared import chosen_format, digits_option, format_options, jobs_option
from .given import given_flag
from .progress import quiet_option
from .meta_judgments import given_judgment_options, judgment_options, run_with_judgments
from .inputs import hypothesis_m2_option
from .meta_run import metrics_and_corpus, report, with_table
from .options import GreedyCommand, GreedyOption

SENTENCE_RANKINGS = {"corpus": None, "ew": "ew", "ts": "ts"}


@main.command("meta-eval", cls=GreedyCommand)
@click.option("--human", "human", default="gjg15", show_default=True, metavar="NAME|FILE.tsv",
              help=f"Human table: shipped {' or '.join(SHIPPED_TABLES)}, or a TSV file "
                   "('#' comments, header 'system<TAB>column...', numeric columns are human scores).")
@click.option("--human-score", "human_scores", cls=GreedyOption, metavar="COLUMN...",
              help="Human score column(s) to correlate with (default: all human score columns).")
@click.option("--systems", "systems", default=None, metavar="SUBSET",
              help="Systems to correlate: base, +INPUT, +fluency, all (default: base where SEEDA's fluency outputs "
                   "are among them, else all), or NAME,NAME,... (each must have scores).")
@click.option("--scores", "scores_path", type=click.Path(dir_okay=False, allow_dash=True), metavar="FILE.tsv",
              help="System scores: header 'system<TAB>metric1<TAB>metric2...', one row per system "
                   "(or, without a header, 'system<TAB>score' rows: the metric is named after the file).")
@click.option("-s", "--source", default=None, metavar="FILE", help="Source sentences (to score system files here).")
@click.option("-r", "--reference", "references", cls=GreedyOption, help="Reference files (to score system files here).")
@click.option("-o", "--hypothesis", "system_files", cls=GreedyOption,
              help="System output files, each named by its file name (e.g. AMU): a system with human scores.")
@click.option("--metrics", "metric_texts", cls=GreedyOption, metavar="SPEC...",
              help="Metrics to score with, as in `gecmetric compare` [default: gleu,green:beta=0.5/1/2].")
@click.option("--m2", "gold_m2", default=None, metavar="GOLD.m2",
              help="Gold M2 file, read by an M2 metric named in --metrics (m2, sentm2 ...; unlike compare, it adds "
                   "no m2 column by itself).")
@hypothesis_m2_option("M2 files of the system files, one per -o file in the same order: for the metrics that read "
                      "hypothesis edits ({metrics}).")
@click.option("--metric-ranking", default="corpus", show_default=True, metavar="corpus|ew|ts",
              help="What stands for a metric at the system level: its corpus scores, or its ranking of the systems "
                   "by pairwise wins of their sentence scores (Expected Wins or TrueSkill, gec-metrics' settings).")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False), metavar="FILE.png|pdf|svg",
              help="Write figures (pip install 'gecmetrics[plot]'): the scatter of metric against human scores; "
                   "with --window the windows at FILE and the scatter at FILE-scatter; with --pairwise the heat map.")
@click.option("--table", "table", default=None, metavar="NAME",
              help="Print only this table: correlations, ranking, comparisons, windows, sentence, pairwise "
                   "(--tsv prints one: correlations or sentence unless named).")
@digits_option(3, "Decimals of the correlations (rounded half up); with --judgments the human scores get one more, "
                  "metric scores (x100) one fewer.")
@format_options(helps={"json": "Print JSON: every table at full precision in one object (correlations, the "
                              "systems and their scores, notes, warnings, signatures)."})
@jobs_option
@quiet_option
@judgment_options
@click.pass_context
def meta_eval(ctx: click.Context, human: str, human_scores: tuple[str, ...], systems: str | None,
              scores_path: str | None, source: str | None, references: tuple[str, ...], system_files: tuple[str, ...],
              metric_texts: tuple[str, ...], gold_m2: str | None, hypothesis_m2: tuple[str, ...], metric_ranking: str,
              plot_path: str | None, table: str | None, digits: int, jobs: int, **judgment) -> None:
    """Correlate system-level metric scores with human scores (Pearson, Spearman, Kendall).

    Scores come from --scores FILE.tsv, or are computed here from -s/-r/-o system files with
    --metrics (each system named by its file name). Human scores come from a table (--human,
    one row per metric and human column) or from raw judgments (--judgments FILE.xml: Expected
    Wins or TrueSkill, bootstrap intervals, paired tests, sentence level, windows). Systems
    without scores are left out with a note on stderr; fewer than 5 systems give a warning.

    \b
    gecmetric meta-eval --human gjg15 -s INPUT -r REF0 REF1 -o AMU CAMB CUUI INPUT --metrics gleu green
    gecmetric meta-eval --judgments gjg15.xml -s INPUT -r REF0 REF1 -o AMU CAMB CUUI INPUT --bootstrap 1000

    -o takes every system output you have of those the table or judgments score (GJG15: 12
    systems and INPUT, 13); a correlation needs at least 3.
    """
    fmt = chosen_format("text")
    if fmt == "json":
        ctx.meta["gecmetrics.quiet"] = True  # no progress display with JSON
    if table is not None and fmt == "json":
        raise InputError("--table chooses a printed table: JSON holds them all")
    if table is not None and table not in TABLES:
        raise InputError(f"unknown --table {table!r}; choose one of: correlations, or with --judgments "
                         f"{', '.join(t for t in TABLES if t != 'correlations')}")
    if metric_ranking not in SENTENCE_RANKINGS:
        raise InputError(f"unknown --metric-ranking {metric_ranking!r}; choose one of: {', '.join(SENTENCE_RANKINGS)}")
    if scores_path is not None and (hypothesis_m2 or metric_texts or gold_m2 is not None or given_flag("jobs")):
        flag = "--hyp-m2" if hypothesis_m2 else "--metrics" if metric_texts else "--m2" if gold_m2 else "-p/--jobs"
        raise InputError(f"{flag} goes with -o system files scored here; it does not go with --scores")
    if scores_path is not None and (source is not None or references or system_files):
        raise InputError("give either --scores FILE.tsv or -s/-r/-o system files, not both")
    judged = judgment["judgments_path"] is not None
    if not judged and given_judgment_options(judgment):
        raise InputError(f"{given_judgment_options(judgment)[0]} needs --judgments FILE.xml")
    for name in ("human", "human_scores"):
        if judged and given_flag(name):
            raise InputError("--human and --human-score are for score tables; with --judgments the human "
                             "scores come from the judgments")
    if plot_path is not None:
        _check_figures(plot_path, judgment, [scores_path, source, *references, *system_files, gold_m2, *hypothesis_m2,
                                             judgment["judgments_path"], judgment.get("src_ids")], human, metric_texts)
    from ..meta.score_files import read_system_scores

    scores = read_system_scores(scores_path) if scores_path is not None else None
    metrics, corpus = (None, None) if scores is not None else metrics_and_corpus(
        metric_texts, source, references, system_files, gold_m2, hypothesis_m2)
    ranking = SENTENCE_RANKINGS[metric_ranking]
    if judged:
        values = {**judgment, "systems": systems, "jobs": jobs, "sentence_ranking": ranking, "plot_path": plot_path}
        result = run_with_judgments(ctx, values, corpus, metrics, scores)
    else:
        result = with_table(human, human_scores, systems, scores, corpus, metrics, ranking, jobs)
    report(result, digits, fmt, table, plot_path)


def _check_figures(plot_path: str, judgment: dict, read: list, human: str | None, metric_texts: tuple[str, ...]) -> None:
    """--plot (and the windows' scatter beside it): a figure format, and no input replaced (the
    files read, the human table, shipped or not, and the files the metrics' settings name)."""
    from .context import check_command_outputs, metric_files
    from ..meta.human_tables import human_table_file
    from ..output.plots import check_figure, windows_scatter_path

    check_figure(plot_path)
    figures = [("--plot", plot_path)]
    if judgment.get("window") is not None:  # the scatter goes beside the windows figure
        figures.append(("--plot (its scatter)", windows_scatter_path(plot_path)))
    check_command_outputs(figures, [*read, human_table_file(human), *metric_files(metric_texts)])
