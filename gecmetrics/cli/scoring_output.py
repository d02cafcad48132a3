"""What a scoring run prints (:func:`~gecmetrics.cli.scoring.run_scoring`'s outputs): the
signatures, the corpus results, compare's table of the corpus scores or of the sentence scores'
means, the family's mean text or the JSON, and the paired tests."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

import click

from ..core.aggregate import reducer_threads
from ..core.table import ScoreFormat
from ..run.executors import check_jobs
from .common import echo_json_results, echo_table
from .significance import run_paired_tests

if TYPE_CHECKING:
    from .scoring import ScoringOptions


def scores_signature_of(metric: Any, references: int, report: Any) -> Any:
    """A metric's signature as ``report`` shows it (a macro average at a -cat level names it)."""
    if not getattr(metric, "macro", False):
        return metric.signature(references)
    from ..metrics.type_average import level_signature  # here: GREEN's start-up imports no M2 code
    return level_signature(metric.signature(references), True, getattr(report, "category_level", None))


def corpus_results(metrics: Sequence[Any], scored: Any, names: Sequence[str], jobs: int) -> list[list[Any]]:
    with reducer_threads(check_jobs(jobs)):  # -p N also shares out a reduction that can use threads
        return [[m.score_of(n, s, scored.references) for m, s in zip(metrics, scored.statistics[n])] for n in names]


def echo_score_table(scored: Any, o: ScoringOptions, mean: bool = False) -> None:
    """compare's table of the corpus scores, or of the sentence scores' means, in the format asked for."""
    from ..run.compare import comparison_table  # here: its imports cost a family's report 5% (GREEN word)

    echo_table(comparison_table(scored, o.scale, mean=mean).as_table(o.digits, markdown=o.format == "markdown"),
               o.format or "text")


def echo_means(metrics: Sequence[Any], scored: Any, names: Sequence[str], report: Any, o: ScoringOptions) -> None:
    """--mean: the family's text, the JSON, or the table asked for (--tsv ... printed the family's text)."""
    if o.format not in (None, "json"):
        return echo_score_table(scored, o, mean=True)
    sentences = [[m.sentence_scores_of(n, s) for m, s in zip(metrics, scored.statistics[n])] for n in names]
    if report is not None and o.format is None:
        return click.echo(report.mean_text(metrics, names, sentences, o.digits))
    echo_json_results(((n, m, s) for n, per in zip(names, sentences) for m, s in zip(metrics, per)), o.scale, "mean")


def echo_paired_tests(metrics: Sequence[Any], scored: Any, names: Sequence[str], o: ScoringOptions) -> None:
    from ..stats.significance import resamplers_for

    run_paired_tests(resamplers_for(metrics, scored.references), names, [scored.statistics[n][0] for n in names],
                     o.paired_bs, o.paired_ar, o.seed or 0, o.digits, o.format == "json",
                     o.show_signature or o.verbose, printed=ScoreFormat.of(metrics[0], o.scale))
