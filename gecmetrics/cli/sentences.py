"""What --sentence prints: sentence scores chunk by chunk as the run engine counts them (held
back until the input is read whole), in a family's own layout (gec-ranking's and GREEN's
sentence lines, the m2scorer's per-sentence table), or every metric's of a run (JSON in the one
vocabulary, or ``compare --sentence``'s table)."""
from __future__ import annotations

from contextlib import contextmanager
from typing import IO, Any, Iterable, Iterator

import click

from ..output.formats import render_parts
from ..run.files import CorpusFiles, check_line_counts
from .common import echo_json_results, echo_table, progress_unless, streamed_chunks


HELD_IN_MEMORY = 8 << 20
"""Bytes of sentence lines held in memory before they go to a temporary file (then copied out)."""


def stream_sentences(command: str, metric: Any, files: CorpusFiles, report: Any, o: Any) -> None:
    """The family's sentence lines chunk by chunk as they are counted, held back until the whole
    input is read (:func:`echo_held`). JSON: gathered, then printed."""
    names, as_json = files.hypothesis_names, o.format == "json"
    if not as_json:
        check_line_counts(files)  # (the cheap refusal first)
    chunks = streamed_chunks([metric], files, jobs=o.jobs, chunk_lines=o.chunk_lines, dask_address=o.dask_address,
                             progress=progress_unless(as_json, command))
    if not as_json:
        echo_held(render_parts(line, "text") + "\n" for chunk in chunks
                  for line in _family_lines(metric, chunk, names, report, o))
        return
    # a sentence scored alone is scored in its chunk, and the chunks' scores kept (not their
    # statistics: GREEN of two systems at 10^6 lines 1.54 GB -> 419 MB); otherwise scored once
    # joined: a sentence's score may read the sentences before it (the M2 scorer's running totals)
    alone = metric.independent_sentences
    gathered: dict[str, list] = {path: [] for path in names}
    for chunk in chunks:
        for path in names:
            statistics = chunk.statistics[path][0]
            gathered[path].append(metric.sentence_scores_of(path, statistics) if alone else statistics)
    echo_json_results(((path, metric, type(parts[0]).joined(parts) if alone else
                        metric.sentence_scores_of(path, metric.join_statistics(parts)))
                       for path, parts in gathered.items()), o.scale, "sentence")


def _family_lines(metric: Any, chunk: Any, names: list[str], report: Any, o: Any) -> Any:
    statistics = [chunk.statistics[path][0] for path in names]
    scores = [metric.sentence_scores_of(path, s) for path, s in zip(names, statistics)]
    return report.sentence_lines(metric, chunk, names, statistics, scores, o.digits, o.verbose)


def echo_held(pieces: Iterable[str]) -> None:
    """Text pieces printed once the last is made, held back until then (:func:`held_back`): a
    line count, a byte or an M2 block found wrong near the end of the input prints nothing (the
    rows before it looked like the whole output), only its error."""
    with held_back(pieces) as held:
        while block := held.read(1 << 16):
            click.echo(block, nl=False)


@contextmanager
def held_back(pieces: Iterable[str]) -> Iterator[IO[str]]:
    """Every piece written to a temporary file (in memory up to :data:`HELD_IN_MEMORY`), given
    back rewound once the last is made: the output of a command that writes nothing before its
    input is wholly read."""
    with held_file() as held:
        for piece in pieces:  # (writelines moves to the file only once every piece is in memory)
            held.write(piece)
        held.seek(0)
        yield held


@contextmanager
def held_file() -> Iterator[IO[str]]:
    """A temporary text file, in memory up to :data:`HELD_IN_MEMORY`: for output held back until
    the input is wholly read (written piece by piece: ``writelines`` moves to the disk only once
    every piece is in memory)."""
    import tempfile  # (here: with shutil, bz2 and lzma, about 2 ms of every command's start otherwise)

    with tempfile.SpooledTemporaryFile(HELD_IN_MEMORY, "w+", encoding="utf-8", errors="surrogateescape") as held:
        yield held


def streamed_sentences(command: str, metrics: list[Any], files: CorpusFiles, report: Any, own_format: str | None,
                       o: Any) -> bool:
    """--sentence printed chunk by chunk where it can be (True): a family's own lines or JSON
    (``report``, whose text is a table in ``own_format``), or the TSV table of metrics whose
    sentences are scored alone; else (False) the run is scored whole first."""
    if report is not None and o.format in (None, "json", own_format):
        stream_sentences(command, metrics[0], files, report, o)
    elif o.format == "tsv" and table_streams(metrics):
        stream_sentence_table(command, metrics, files, o)
    else:
        return False
    return True


def table_streams(metrics: list[Any]) -> bool:
    """Whether the TSV table of sentence scores is printed chunk by chunk: every metric scores
    each sentence alone."""
    return all(metric.independent_sentences for metric in metrics)


def stream_sentence_table(command: str, metrics: list[Any], files: CorpusFiles, o: Any) -> None:
    """``--sentence --tsv`` of metrics whose sentences are scored alone (``independent_sentences``):
    the rows of :func:`~gecmetrics.run.compare.sentence_comparison` chunk by chunk as they are
    counted, held back (:func:`echo_held`; the whole corpus's statistics and table were a gigabyte
    at 10^6 lines)."""
    from ..output.formats import escaped_cell
    from ..run.compare import sentence_table_columns, sentence_table_rows

    names = files.hypothesis_names
    check_line_counts(files)
    columns, formats, header = sentence_table_columns(metrics, names, len(files.references), o.scale)
    chunks = streamed_chunks(metrics, files, jobs=o.jobs, chunk_lines=o.chunk_lines, dask_address=o.dask_address,
                             progress=progress_unless(False, command))

    def lines() -> Iterator[str]:
        yield "\t".join(escaped_cell(cell) for cell in header) + "\n"
        first = 1
        for chunk in chunks:
            rows = sentence_table_rows(metrics, names, chunk.statistics, columns, formats, o.digits, first)
            yield from ("\t".join(escaped_cell(cell) for cell in row) + "\n" for row in rows)
            first += len(rows)

    echo_held(lines())


def echo_sentence_scores(scored: Any, scale: float, digits: int, fmt: str | None) -> None:
    """Every system's sentence scores under every metric of a run: JSON in the one vocabulary
    (an object per system and metric), or a row per sentence and a column per system and metric
    column (``compare --sentence``'s table; TSV unless a format is asked for)."""
    if fmt == "json":
        echo_json_results(((name, metric, metric.sentence_scores_of(name, statistics)) for name in scored.names
                           for metric, statistics in zip(scored.metrics, scored.statistics[name])), scale, "sentence")
        return
    from ..run.compare import sentence_comparison  # here: a corpus score never reads it (start-up)

    echo_table(sentence_comparison(scored, scale, digits), fmt or "tsv")
