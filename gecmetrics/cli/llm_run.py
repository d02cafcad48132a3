"""What ``gecmetric llm`` runs and prints: the judged corpus (through the run engine) or the dry run's estimate."""
from __future__ import annotations

import functools

import click

from .common import echo_json, echo_scores, json_result, progress_unless
from .sentences import echo_sentence_scores


def judge_and_print(metric, files, run: tuple, fmt: str, digits: int, scale: float, sentence: bool) -> None:
    """Judge ``files`` and print the systems' means (a table with the signature under it, as every
    scoring command prints one) or, ``--sentence``, compare's table of sentence scores, or either
    in the one JSON vocabulary; then the judge's report on stderr."""
    from ..metrics.llm.report import means_table, unscored_note
    from ..run.engine import Scored

    judged = _judged(metric, files, *run, fmt == "json")
    if fmt == "json":  # an object per system: its mean or sentence scores (null: none), its counts, the run's report
        echo_json([json_result(name, metric.sentence_scores_of(name, judged.statistics[name]) if sentence else result,
                               metric, scale, "sentence" if sentence else "corpus", scored=result.scored,
                               unscored=result.unscored, report=judged.report.counts())
                   for name, result in judged.results.items()])
    elif sentence:  # 1-5 scores print as they are (check_scale refused --scale 1)
        echo_sentence_scores(Scored([metric], list(judged.results), {n: [s] for n, s in judged.statistics.items()}, 0),
                             scale, digits, fmt)
    else:
        echo_scores(means_table(metric, judged.results, digits), fmt, [metric.signature(None)])
    click.echo(judged.report.summary(), err=True)
    note = unscored_note(sum(r.unscored for r in judged.results.values()), sentence, metric.settings.grouping)
    if note:
        click.echo(note, err=True)


def _judged(metric, files, jobs: int, chunk_lines: int | None, dask_address: str | None, as_json: bool):
    """Every chunk judged through the run engine (:func:`~gecmetrics.run.engine.map_chunks`), joined."""
    from ..metrics.llm.metric import JudgedCorpus, judge_part
    from ..run.engine import map_chunks

    chunks = map_chunks(functools.partial(judge_part, metric), files, jobs=jobs, dask=dask_address,
                        chunk_lines=chunk_lines or metric.chunk_lines, progress=progress_unless(as_json, "llm"))
    return JudgedCorpus.joined([judged for _, _, judged in chunks])


def dry_run(metric, files, prices, fmt: str, digits: int) -> None:
    """The estimate of the whole corpus: JSON (the cost as it is), or lines (the cost to -d decimals)."""
    from ..io.corpus import read_corpus
    estimate = metric.dry_run(read_corpus(files.source, [], list(files.hypotheses)), prices)
    if fmt == "json":
        echo_json(vars(estimate))
    else:
        click.echo(estimate.summary(digits))
