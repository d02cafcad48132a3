"""Per-sentence chunk tables, laid out as CLEME's visualisation (``visualize.py``, which prints
one tabulate "fancy_grid" table per sentence): a row for the source and one per target
(target-0 is the hypothesis, then the references), a column per chunk, and a star on the
chunks where the texts differ.

Cells are shown as they are; tabulate would reformat a column whose every cell reads as a
number (e.g. ``3.5`` as ``3.500``), which this layout does not do.
"""
from __future__ import annotations

from typing import Any, Iterable, Sequence

from ...core.table import ScoreFormat, Table, number_label, scaled, unit_header

from .chunking import SentenceChunks


def _table_columns(chunks: SentenceChunks, delimiter: str) -> list[list[str]]:
    """Header and cells of each column: 'sentence' then one column per chunk."""
    n_targets = len(chunks.tokens)
    columns = [["sentence", "source", *(f"target-{index}" for index in range(n_targets))]]
    for index, (start, end) in enumerate(chunks.spans):
        cells = [delimiter.join(chunks.source[start:end])]
        cells.extend(delimiter.join(tokens[index]) for tokens in chunks.tokens)
        header = f"chunk-{index} *" if len(set(cells)) > 1 else f"chunk-{index}"
        columns.append([header, *cells])
    return columns


def _rule(widths: Sequence[int], left: str, fill: str, middle: str, right: str) -> str:
    return left + middle.join(fill * (width + 2) for width in widths) + right


def _row(cells: Sequence[str], widths: Sequence[int]) -> str:
    return "│" + "│".join(f" {cell.ljust(width)} " for cell, width in zip(cells, widths)) + "│"


def format_chunk_table(chunks: SentenceChunks, delimiter: str = " ") -> str:
    """One sentence's chunk table (without surrounding blank lines)."""
    columns = _table_columns(chunks, delimiter)
    # tabulate pads every header by 2 before sizing a column
    widths = [max(len(column[0]) + 2, *(len(cell) for cell in column[1:])) for column in columns]
    rows = list(zip(*columns))
    lines = [_rule(widths, "╒", "═", "╤", "╕"), _row(rows[0], widths), _rule(widths, "╞", "═", "╪", "╡")]
    for number, row in enumerate(rows[1:]):
        if number:
            lines.append(_rule(widths, "├", "─", "┼", "┤"))
        lines.append(_row(row, widths))
    lines.append(_rule(widths, "╘", "═", "╧", "╛"))
    return "\n".join(lines)


def format_chunk_tables(partitions: Iterable[SentenceChunks], delimiter: str = " ") -> str:
    """The tables of several sentences, each preceded by a blank line and followed by two line
    breaks, as CLEME writes them."""
    return "".join("\n" + format_chunk_table(chunks, delimiter) + "\n\n" for chunks in partitions)


CLEME_COLUMNS = (("F", "f"), ("P", "precision"), ("R", "recall"), ("Acc", "accuracy"), ("TP", "tp"), ("FP", "fp"),
                 ("FN", "fn"), ("TN", "tn"))
CLEME2_COLUMNS = (("aggregate", "aggregate"), ("HC", "hit"), ("WC", "wrong"), ("UC", "under"), ("OC", "over"),
                  ("TP", "tp"), ("FP", "fp"), ("FN", "fn"), ("TN", "tn"))


def score_table(metric: Any, results: Sequence[tuple[str, Any]], digits: int, scale: float = 1.0,
                count_digits: int | None = None) -> Table:
    """One line per hypothesis file: CLEME's F, P, R, accuracy and counts, or CLEME2.0's
    aggregate, rates and counts (the fractions as they are or with ``scale`` 100 x100, rounded
    half up, or at 4 decimals as CLEME rounds them; the header says which; the counts,
    length-weighted sums, to ``count_digits``)."""
    count_digits = digits if count_digits is None else count_digits
    columns = CLEME2_COLUMNS if metric.name == "cleme2" else CLEME_COLUMNS
    fractions = results[0][1].fractions if results else ()
    labels = [f"F{number_label(metric.settings.beta)}" if name == "f" else label for label, name in columns]
    labels = [unit_header(label, scale) if name in fractions else label for label, (_, name) in zip(labels, columns)]
    rounds_to = metric.rounds_to  # at 4 decimals (of the fractions, and the counts) CLEME's figures
    rows = [[path, *(scaled(result.values[name], digits, scale, rounds_to=rounds_to) if name in fractions
                     else scaled(result.values[name], count_digits, 1.0, rounds_to=rounds_to) for _, name in columns)]
            for path, result in results]
    return Table(["system", *labels], rows)


def sentence_table(metric: Any, statistics: Sequence[tuple[str, Any]], digits: int, scale: float = 1.0) -> Table:
    """A line per hypothesis file and sentence: its scores (fractions) against the reference
    chosen, as :func:`score_table` prints the corpus's (at 4 decimals as CLEME rounds them). (JSON:
    the sentence scores' own, ``ChunkSentenceScores.to_dict``.)"""
    printed = ScoreFormat.of(metric, scale)
    header: list[str] = []
    rows = []
    for path, stats in statistics:
        scores = metric.sentence_from_statistics(stats)
        header = [printed.header(name) for name in scores.values]
        for d in range(len(scores.scores)):
            rows.append([path, str(d + 1), *(printed.cell(values[d], digits) for values in scores.values.values())])
    return Table(["system", "sentence", *header], rows)
