"""What the commands share beyond their options (:mod:`.shared`): the run of the files through
the engine, printing (tables in the chosen format, JSON, warnings) and checks of the inputs."""
from __future__ import annotations

from typing import Any, Iterable, Iterator, Sequence

import click

from ..core import table
from ..core.table import Table
from ..errors import InputError
from ..output.formats import dumps, render, render_parts
from ..run.engine import score_files, scored_chunks
from ..run.executors import make_executor
from ..run.files import CorpusFiles
from .progress import StderrProgress, progress_unless  # noqa: F401 (commands take them here)
from .context import run_context
from .shared import FORMAT_FLAGS, chosen_format


def echo_json(value: Any) -> None:
    """A JSON document on stdout (the output layer's encoding)."""
    click.echo(dumps(value))


def echo_table(table: Table, fmt: str = "text", notes: bool = True) -> None:
    """A table on stdout, in the chosen format."""
    click.echo(render(table, fmt, notes))


def echo_scores(table: Table, fmt: str, signatures: Iterable[Any]) -> None:
    """A table of scores with the signatures of what made them below it, as ``compare``'s tables carry them, in
    the formats that show notes (text; Markdown: a list; LaTeX: comments); TSV and JSON show none."""
    shown = list(dict.fromkeys(str(signature) for signature in signatures))
    table.notes = [*table.notes, *(f"`{s}`" if fmt == "markdown" else s for s in shown)]
    echo_table(table, fmt)


def echo_report(parts: Any, fmt: str | None, own_format: str | None, signatures: Iterable[Any]) -> None:
    """A family's report (text and tables: ``Metric`` reports' ``corpus_text``) in its own form,
    or, in a format asked for, its table with the signatures under it (:func:`echo_scores`)."""
    if fmt not in (None, own_format) and isinstance(parts, Table):
        echo_scores(parts, fmt, signatures)
    else:
        click.echo(render_parts(parts, fmt or own_format or "text"))


def check_verbose_format(verbose: bool) -> None:
    """-v prints the original tool's trace as text: no format with it (``--json`` printed both, ``--tsv`` no trace)."""
    if verbose:
        refuse_format("prints the original tool's trace as text", "-v")


def refuse_format(what: str, option: str) -> None:
    """The InputError of a format asked for (``--tsv``, ``--format NAME``) with an ``option`` that ``what``."""
    fmt = chosen_format(None)
    if fmt is not None:
        raise InputError(f"{what}: not with {f'--{fmt}' if fmt in FORMAT_FLAGS else f'--format {fmt}'}", option)


def json_result(system: str, result: Any, metric: Any, scale: float, mode: str = "corpus", level: int | None = None,
                **own: Any) -> dict[str, Any]:
    """One (system, metric) in the one JSON vocabulary of every scoring command: ``system``; ``scores``, one per
    column in column order (a number; ``mode`` ``"sentence"``: the sentences' scores, null for one without),
    fractions x``scale`` (:func:`~gecmetrics.core.table.scaled_number`: to 15 significant digits unless 1);
    ``labels`` (``compare``'s column heads); ``signature``; the result's own fields, ``own``.
    ``result``: a metric's result, its sentence scores (``"sentence"``: ``to_dict``; ``"mean"``: ``mean_dict``)
    or a dict of those fields; ``level``: the -cat level of a result that groups error types (``to_dict(scale,
    level)``: what its report prints at that level)."""
    import numpy as np

    factor = table.scale_factor(metric, scale)
    data = dict(result) if isinstance(result, dict) else \
        result.mean_dict(factor) if mode == "mean" else \
        result.to_dict(factor) if level is None else result.to_dict(factor, level)
    scores = data.pop("scores", None)
    if scores is None:  # a result whose own fields name its scores (f, score): its columns' scores
        scores = table.scaled_number(result.scores, factor)
    labels = metric.column_labels()
    values = np.asarray(scores, dtype=np.float64)
    shaped = values.reshape(len(labels), -1) if mode == "sentence" else values.reshape(len(labels))
    listed = shaped.astype(object)  # NaN, a score missing (never the string "nan" of dumps): null
    listed[np.isnan(shaped)] = None
    signature = data.pop("signature", None)
    return {"system": system, "scores": listed.tolist(), "labels": labels,
            "signature": str(signature if signature is not None else result.signature), **data, **own}


def echo_json_results(results: Iterable[tuple[str, Any, Any]], scale: float, mode: str = "corpus",
                      level: int | None = None) -> None:
    """Every (system, metric, result) in the one JSON vocabulary (:func:`json_result`): a list."""
    echo_json([json_result(system, result, metric, scale, mode, level) for system, metric, result in results])


def check_scale(metrics: Sequence[Any], scale: float, fractions_beside: bool = False) -> None:
    """``--scale`` checked by the library's rule (:func:`gecmetrics.core.table.check_scale`), before any work."""
    table.check_scale(metrics, scale, fractions_beside, "--scale")


def echo_warnings(lines: Iterable[str]) -> None:
    for line in lines:
        click.echo(line, err=True)


def check_references(metrics: Sequence[Any], references: Sequence[str]) -> None:
    """Without -r, every metric must be reference-free (or read the gold M2 of --m2)."""
    from ..kinds import TEXT

    if not references:
        needing = list(dict.fromkeys(m.display_name for m in metrics if m.reference_kind == TEXT))
        if needing:
            which = f"metric {needing[0]} needs" if len(needing) == 1 else f"metrics {', '.join(needing)} need"
            raise InputError(f"the {which} reference texts: -r REF... (only reference-free metrics run without)")


def corpus_files(source: str | None, references: Sequence[str] = (), hypotheses: Sequence[str] = (),
                 gold: str | None = None, hypothesis_m2: Sequence[str] = (), m2_hypotheses: bool = False) -> CorpusFiles:
    """The files of a command's run."""
    return CorpusFiles(source, tuple(references), tuple(hypotheses), gold, tuple(hypothesis_m2), m2_hypotheses)


def scored_files(metrics: Sequence[Any], source: str | None, references: Sequence[str], hypotheses: Sequence[str],
                 gold: str | None = None, *, jobs: int = 1, chunk_lines: int | None = None,
                 dask_address: str | None = None, progress: Any = None, hypothesis_m2: Sequence[str] = (),
                 m2_hypotheses: bool = False) -> Any:
    """Every metric's statistics of every hypothesis file, counted by the run engine (``jobs``
    worker processes or a Dask cluster), then the input warnings on stderr."""
    files = corpus_files(source, references, hypotheses, gold, hypothesis_m2, m2_hypotheses)
    return score(metrics, files, jobs=jobs, chunk_lines=chunk_lines, dask_address=dask_address, progress=progress)


def score(metrics: Sequence[Any], files: CorpusFiles, *, jobs: int = 1, chunk_lines: int | None = None,
          dask_address: str | None = None, progress: Any = None) -> Any:
    """:func:`~gecmetrics.run.engine.score_files`, then the input warnings on stderr."""
    scored = score_files(metrics, files, jobs=jobs, dask=dask_address, chunk_lines=chunk_lines, progress=progress,
                         cache=run_context())
    echo_warnings(scored.warnings())
    return scored


def streamed_chunks(metrics: Sequence[Any], files: CorpusFiles, *, jobs: int = 1, chunk_lines: int | None = None,
                    dask_address: str | None = None, progress: Any = None) -> Iterator[Any]:
    """The engine's statistics chunk by chunk (sentence output that streams), then the input
    warnings on stderr."""
    checks: list = []
    with make_executor(jobs, dask_address) as executor:
        yield from scored_chunks(metrics, files, executor=executor, chunk_lines=chunk_lines, progress=progress,
                                 checks=checks, cache=run_context())
    echo_warnings(checks[0].warnings() if checks else [])

