"""``gecmetric meta-eval``: correlate system scores with a human ranking (Pearson, Spearman)."""
from __future__ import annotations

import json
from decimal import ROUND_HALF_UP, Decimal

import click
from prettytable import PrettyTable

from ..errors import InputError
from ..meta_eval import SHIPPED_TABLES, MetaEvalResult, meta_evaluate, read_system_scores
from . import main
from .options import GreedyCommand, GreedyOption


def _round_half_up(value: float, digits: int) -> str:
    """``value`` with ``digits`` decimals, halves rounded up (from its shortest decimal form)."""
    text = str(Decimal(repr(value)).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP))
    return text[1:] if text.startswith("-") and not text.strip("-0.") else text  # no "-0.000"


def _system_scores_from_options(scores_path: str | None) -> dict[str, dict[str, float]]:
    """The metric -> system -> score mapping to correlate, from the command's options."""
    # Mode 1: scores computed beforehand, read from --scores FILE.tsv.
    if scores_path is not None:
        return read_system_scores(scores_path)
    # Mode 2 (not implemented yet): score system outputs here with the library's metrics
    # (-s SRC -r REF... -o SYSTEM_FILE... --metrics ...), then correlate them like mode 1.
    raise InputError("give --scores FILE.tsv (header 'system<TAB>metric...', one row per system)")


def _print_result(result: MetaEvalResult, digits: int, as_tsv: bool, as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps(result.to_dict(), indent=2))
        return
    header = ["metric", "human", "pearson", "spearman", "n"]
    rows = [[c.metric, c.human_score, _round_half_up(c.pearson, digits), _round_half_up(c.spearman, digits),
             str(c.n_systems)] for c in result.correlations]
    if as_tsv:
        for row in [header] + rows:
            click.echo("\t".join(row))
        return
    table = PrettyTable(header)
    table.align = "r"
    table.align["metric"] = table.align["human"] = "l"
    table.add_rows(rows)
    click.echo(table.get_string())


@main.command("meta-eval", cls=GreedyCommand)
@click.option("--human", "human", default="gjg15", show_default=True, metavar="NAME|FILE.tsv",
              help=f"Human table: shipped {' or '.join(SHIPPED_TABLES)}, or a TSV file "
                   "('#' comments, header 'system<TAB>column...', numeric columns are human scores).")
@click.option("--human-score", "human_scores", cls=GreedyOption, metavar="COLUMN...",
              help="Human score column(s) to correlate with (default: all human score columns).")
@click.option("--systems", "systems", default=None, metavar="SUBSET",
              help="System subset of the human table: base, +INPUT, +fluency or all for SEEDA "
                   "(default base); all for other tables (default).")
@click.option("--scores", "scores_path", type=click.Path(dir_okay=False, allow_dash=True), metavar="FILE.tsv",
              help="System scores: header 'system<TAB>metric1<TAB>metric2...', one row per system.")
@click.option("-d", "--digits", type=int, default=3, show_default=True, help="Decimals printed (rounded half up).")
@click.option("--tsv", "as_tsv", is_flag=True, help="Print tab-separated values instead of a table.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (full precision, systems used, notes).")
def meta_eval(human: str, human_scores: tuple[str, ...], systems: str | None, scores_path: str | None,
              digits: int, as_tsv: bool, as_json: bool) -> None:
    """Correlate system-level metric scores with human scores (Pearson r, Spearman rho).

    One row per metric and human score column. Systems of the scores file must be rows of the
    human table; human rows without scores are left out (a note on stderr says which).
    """
    if as_tsv and as_json:
        raise InputError("give at most one of --tsv and --json")
    if digits < 0:
        raise InputError(f"--digits must be 0 or more, got {digits}")
    metric_scores = _system_scores_from_options(scores_path)
    result = meta_evaluate(metric_scores, human=human, human_score=list(human_scores) or None, systems=systems)
    for note in result.notes:
        click.echo(f"gecmetric: note: {note}", err=True)
    _print_result(result, digits, as_tsv, as_json)
