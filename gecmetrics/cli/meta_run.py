"""How ``gecmetric meta-eval`` runs (cli/meta.py declares it): the corpus of the -o files,
the human-table mode, and the report (notes and warnings on stderr, figures, tables or JSON)."""
from __future__ import annotations

import os
from typing import Any

import click

from ..errors import InputError
from .common import check_references, echo_json, progress_unless


def metrics_and_corpus(metric_texts: tuple[str, ...], source: str | None, references: tuple[str, ...],
                       system_files: tuple[str, ...], gold_m2: str | None,
                       hypothesis_m2: tuple[str, ...] = ()) -> tuple[list[Any], Any]:
    """The metrics of --metrics (default: compare's), checked against -r, and the corpus of
    -s/-r/-o (and --hyp-m2), each system named by its file name."""
    from ..metrics.registry import metrics_from_text
    from ..run.compare import DEFAULT_METRICS

    if source is None or not system_files:
        raise InputError("give --scores FILE.tsv, or -s SRC -o SYSTEM_FILE... (and -r REF... for metrics with "
                         "references) to score systems here")
    from .context import in_run

    metrics = [in_run(m) for m in metrics_from_text(list(metric_texts) if metric_texts else list(DEFAULT_METRICS))]
    check_references(metrics, references)
    return metrics, named_corpus(source, references, system_files, gold_m2, hypothesis_m2)


def named_corpus(source: str | None, references: tuple[str, ...], system_files: tuple[str, ...],
                 gold_m2: str | None, hypothesis_m2: tuple[str, ...] = ()) -> Any:
    """The corpus of -s/-r/-o (and --hyp-m2), each system named by its file name."""
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


def report(result: Any, digits: int, fmt: str, table: str | None, plot_path: str | None) -> None:
    """Notes and warnings on stderr, the figures, then the tables (or JSON) on stdout."""
    from ..meta.report import result_sections, select_sections
    from ..output.formats import render_sections

    sections, note = select_sections(result_sections(result, digits), table, fmt) if fmt != "json" else ([], None)
    for line in [f"note: {n}" for n in result.notes] + [f"warning: {w}" for w in result.warnings]:
        click.echo(f"gecmetric: {line}", err=True)
    if plot_path is not None:
        from ..output.plots import plot_meta_evaluation

        for path in plot_meta_evaluation(result, plot_path):
            click.echo(f"gecmetric: wrote {path}", err=True)
    if fmt == "json":
        return echo_json(result.to_dict())
    if note:
        click.echo(f"gecmetric: note: {note}", err=True)
    click.echo(render_sections(sections, fmt))


def with_table(human: str, human_scores: tuple[str, ...], systems: str | None, scores: Any, corpus: Any,
               metrics: Any, ranking: str | None, jobs: int) -> Any:
    """``--human``: correlate with the columns of a human table."""
    from ..meta.system_level import meta_evaluate

    common = {"human": human, "human_score": list(human_scores) or None, "systems": systems,
              "sentence_ranking": ranking}
    if scores is not None:
        return meta_evaluate(scores, **common)
    return meta_evaluate(metrics=metrics, corpus=corpus, jobs=jobs, progress=progress_unless(False, "meta-eval"),
                         **common)
