"""``gecmetric meta-eval``: correlate system scores with a human ranking (Pearson, Spearman)."""
from __future__ import annotations

import os

import click

from ..errors import InputError
from ..meta.human import SHIPPED_TABLES, MetaEvalResult, meta_evaluate, read_system_scores
from ..core.table import Table, round_half_up
from . import main
from .common import check_references, digits_option, echo_json, jobs_option, output_format
from .meta_judgments import given_judgment_options, judgment_options, run_with_judgments
from .options import GreedyCommand, GreedyOption


def _system_scores_from_options(scores_path: str | None, source: str | None, references: tuple[str, ...],
                                system_files: tuple[str, ...], metric_texts: tuple[str, ...],
                                gold_m2: str | None, hypothesis_m2: tuple[str, ...] = (), jobs: int = 1
                                ) -> dict[str, dict[str, float]]:
    """The metric -> system -> score mapping to correlate, from the command's options."""
    scoring = source is not None or references or system_files
    if scores_path is not None and scoring:
        raise InputError("give either --scores FILE.tsv or -s/-r/-o system files, not both")
    # Mode 1: scores computed beforehand, read from --scores FILE.tsv.
    if scores_path is not None:
        return read_system_scores(scores_path)
    # Mode 2: score the system files here, each system named by its file name.
    if not scoring:
        raise InputError("give --scores FILE.tsv, or -s SRC -r REF... -o SYSTEM_FILE... to score systems here")
    from ..run.compare import DEFAULT_METRICS, compare_corpus
    from ..metrics.registry import metrics_from_text
    from .common import StderrProgress

    metrics = metrics_from_text(list(metric_texts) if metric_texts else list(DEFAULT_METRICS))
    check_references(metrics, references)
    corpus = _named_corpus(source, references, system_files, gold_m2, hypothesis_m2)
    table = compare_corpus(corpus, metrics, StderrProgress("meta-eval"), jobs=jobs)
    return {column.label: {name: table.score(name, column.label) for name in corpus.hypotheses}
            for column in table.columns}


def _named_corpus(source: str | None, references: tuple[str, ...], system_files: tuple[str, ...],
                  gold_m2: str | None, hypothesis_m2: tuple[str, ...] = ()):
    """The corpus of -s/-r/-o (and --hyp-m2), each system named by its file name."""
    if source is None or not system_files:
        raise InputError("scoring systems needs -s SRC, -o SYSTEM_FILE... and (but for reference-free metrics) "
                         "-r REF...")
    names = [os.path.basename(path) for path in system_files]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise InputError(f"systems are named by file name and these repeat: {', '.join(repeated)}")
    from ..io.corpus import read_corpus

    corpus = read_corpus(source, references, system_files, gold_m2, hypothesis_m2)
    corpus.hypotheses = {name: corpus.hypotheses[path] for name, path in zip(names, system_files)}
    corpus.hypothesis_m2 = {name: corpus.hypothesis_m2[path] for name, path in zip(names, system_files)
                            if path in corpus.hypothesis_m2}
    return corpus


def _with_judgments(ctx: click.Context, options: dict, scores_path: str | None, corpus_files: tuple,
                    metric_texts: tuple[str, ...], digits: int, fmt: str) -> None:
    """``--judgments FILE.xml``: the raw-judgment meta-evaluation (cli/meta_judgments.py)."""
    for name in ("human", "human_scores"):
        if ctx.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT:
            raise InputError("--human and --human-score are for score tables; with --judgments the human "
                             "scores come from the judgments")
    source, references, system_files, gold_m2, hypothesis_m2 = corpus_files
    if scores_path is not None and (source is not None or references or system_files):
        raise InputError("give either --scores FILE.tsv or -s/-r/-o system files, not both")
    scores = read_system_scores(scores_path) if scores_path is not None else None
    corpus = None if scores is not None else _named_corpus(source, references, system_files, gold_m2, hypothesis_m2)
    run_with_judgments(options, corpus, metric_texts, scores, digits, fmt)


def _print_result(result: MetaEvalResult, digits: int, fmt: str) -> None:
    if fmt == "json":
        echo_json(result.to_dict())
        return
    header = ["metric", "human", "pearson", "spearman", "n"]
    rows = [[c.metric, c.human_score, round_half_up(c.pearson, digits), round_half_up(c.spearman, digits),
             str(c.n_systems)] for c in result.correlations]
    table = Table(header, rows, left=(0, 1), text_align={"metric": "l", "human": "l", "pearson": "r",
                                                          "spearman": "r", "n": "r"})
    click.echo(table.render(fmt))


@main.command("meta-eval", cls=GreedyCommand)
@click.option("--human", "human", default="gjg15", show_default=True, metavar="NAME|FILE.tsv",
              help=f"Human table: shipped {' or '.join(SHIPPED_TABLES)}, or a TSV file "
                   "('#' comments, header 'system<TAB>column...', numeric columns are human scores).")
@click.option("--human-score", "human_scores", cls=GreedyOption, metavar="COLUMN...",
              help="Human score column(s) to correlate with (default: all human score columns).")
@click.option("--systems", "systems", default=None, metavar="SUBSET",
              help="System subset of the human table: base, +INPUT, +fluency or all for SEEDA "
                   "(default base); all for other tables (default). With --judgments: the same subsets of the "
                   "judged systems (base where SEEDA's fluency outputs are judged, else all), or NAME,NAME,...")
@click.option("--scores", "scores_path", type=click.Path(dir_okay=False, allow_dash=True), metavar="FILE.tsv",
              help="System scores: header 'system<TAB>metric1<TAB>metric2...', one row per system.")
@click.option("-s", "--source", default=None, metavar="FILE", help="Source sentences (to score system files here).")
@click.option("-r", "--reference", "references", cls=GreedyOption, help="Reference files (to score system files here).")
@click.option("-o", "--hypothesis", "system_files", cls=GreedyOption,
              help="System output files, each named by its file name (e.g. AMU), which must be a row of the human table.")
@click.option("--metrics", "metric_texts", cls=GreedyOption, metavar="SPEC...",
              help="Metrics to score with, as in `gecmetric compare` [default: gleu,green:beta=0.5/1/2].")
@click.option("--m2", "gold_m2", default=None, metavar="GOLD.m2", help="Gold M2 file, for the m2 metric.")
@click.option("--hyp-m2", "hypothesis_m2", cls=GreedyOption, metavar="FILE.m2...",
              help="M2 files of the system files, one per -o file in the same order: for cleme and cleme2.")
@digits_option(3, "Decimals printed (rounded half up). With --judgments: of the correlations; human scores get "
                  "one more, metric scores (x100) one fewer.")
@click.option("--tsv", "as_tsv", is_flag=True, help="Print tab-separated values instead of a table.")
@click.option("--markdown", "as_markdown", is_flag=True, help="Print a Markdown table.")
@click.option("--latex", "as_latex", is_flag=True, help="Print a LaTeX tabular.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (full precision, systems used, notes).")
@jobs_option
@judgment_options
@click.pass_context
def meta_eval(ctx: click.Context, human: str, human_scores: tuple[str, ...], systems: str | None,
              scores_path: str | None, source: str | None, references: tuple[str, ...], system_files: tuple[str, ...],
              metric_texts: tuple[str, ...], gold_m2: str | None, hypothesis_m2: tuple[str, ...], digits: int,
              as_tsv: bool, as_markdown: bool, as_latex: bool, as_json: bool, jobs: int, **judgment) -> None:
    """Correlate system-level metric scores with human scores (Pearson r, Spearman rho).

    One row per metric and human score column. Scores come from --scores FILE.tsv, or are
    computed here from -s/-r/-o system files with --metrics (each system named by its file
    name). Systems must be rows of the human table; human rows without scores are left out
    (a note on stderr says which).

    \b
    gecmetric meta-eval --human gjg15 -s INPUT -r REF0 REF1 -o AMU CAMB CUUI INPUT ... --metrics gleu,green

    With --judgments FILE.xml the human scores come from raw judgments (Expected Wins or
    TrueSkill): Pearson, Spearman and Kendall with bootstrap intervals (--bootstrap N), paired
    tests (--compare), sentence level (--level sentence) and windows (--window K).

    \b
    gecmetric meta-eval --judgments judgments.xml -s INPUT -r REF0 REF1 -o AMU CAMB ... --bootstrap 1000
    """
    fmt = output_format({"tsv": as_tsv, "markdown": as_markdown, "latex": as_latex, "json": as_json},
                        "give at most one of --tsv and --json (or --markdown, --latex)")
    if hypothesis_m2 and scores_path is not None:
        raise InputError("--hyp-m2 gives the M2 of -o system files scored here; it does not go with --scores")
    if judgment["judgments_path"] is not None:
        return _with_judgments(ctx, {**judgment, "systems": systems, "jobs": jobs}, scores_path,
                               (source, references, system_files, gold_m2, hypothesis_m2), metric_texts, digits, fmt)
    if given_judgment_options(judgment):
        raise InputError(f"{given_judgment_options(judgment)[0]} needs --judgments FILE.xml")
    metric_scores = _system_scores_from_options(scores_path, source, references, system_files, metric_texts, gold_m2,
                                                hypothesis_m2, jobs)
    result = meta_evaluate(metric_scores, human=human, human_score=list(human_scores) or None, systems=systems)
    for note in result.notes:
        click.echo(f"gecmetric: note: {note}", err=True)
    _print_result(result, digits, fmt)
