"""Sentence scores printed chunk by chunk as the run engine counts them, in a family's own
layout (gec-ranking's and GREEN's sentence lines, the m2scorer's per-sentence table)."""
from __future__ import annotations

from typing import Any

import click

from ..output.formats import render_parts
from ..run.files import CorpusFiles
from .common import echo_json_results, progress_unless, streamed_chunks


def stream_sentences(command: str, metric: Any, files: CorpusFiles, report: Any, o: Any) -> None:
    """The family's sentence lines chunk by chunk as they are counted (JSON: gathered, then printed)."""
    names, as_json = files.hypothesis_names, o.format == "json"
    chunks = streamed_chunks([metric], files, jobs=o.jobs, chunk_lines=o.chunk_lines, dask_address=o.dask_address,
                             progress=progress_unless(as_json, command))
    gathered: dict[str, list] = {path: [] for path in names}
    for chunk in chunks:
        statistics = [chunk.statistics[path][0] for path in names]
        scores = [metric.sentence_from_statistics(s) for s in statistics]
        if as_json:
            for path, s in zip(names, scores):
                gathered[path].append(s)
            continue
        for line in report.sentence_lines(metric, chunk, names, statistics, scores, o.digits, o.verbose):
            click.echo(render_parts(line, "text"))
    if as_json:
        echo_json_results(((path, metric, type(parts[0]).joined(parts)) for path, parts in gathered.items()), o.scale,
                          "sentence")
