"""Per-sentence chunk statistics of CLEME: counts of TP / FP / FN / TN chunks by length.

The statistics of D sentences are a :class:`ChunkStatistics`: a row per sentence, and in each
row the reference slots (the references of the sentence under the dependent assumption, one
slot under the independent one). Per slot,

* a header (``header``, dense: (D, slots, 3)): column 0, 1 if the slot is a reference of this
  sentence (0 for padding); columns 1, 2, sum and number of the lengths of the reference chunks
  that the sentence's references correct (the whole sentence's, in slot 0 only): they give the
  weighting bias;
* the number of hypothesis chunks of each length (0..W-1) in each category of
  :data:`CATEGORIES`, held sparsely: only the (slot, category, length) cells a sentence has
  chunks in, row after row, each row's cells in (slot, category, length) order. As a dense
  array (``numpy.asarray``) the row is ``3 + 5 W`` columns per slot, the count of length L and
  category c in column ``3 + 5 L + c``; a dense array of that layout is read as statistics too
  (:func:`check_statistics`).

Every count adds up over sentences, and the length weighting (whose bias is a corpus mean) is
applied by the reducers, so the rows are exact whatever the weights. W is the longest chunk + 1.
A sentence has about as many cells as chunks, where the dense row has 5 W per slot: W follows
the corpus's longest chunk (an unchanged stretch of a long sentence, or one long edit), so held
densely CoNLL-2014's rows took 1.8 KB a sentence and one 1,000-token edit took 10,000 sentences
from 122 MB to 1 GB. **Joining** rows of several blocks of sentences (chunks of a corpus)
appends them; slots missing in a block are absent references.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from ...core.edits.blocks import the_reference
from ...core.offsets import joined_offsets, ranges_index
from ...errors import InputError, plural
from ...io.m2 import Block
from .chunking import SentenceChunks, Target, hypothesis_target, partition, reference_targets

CATEGORIES = ("tp", "fp_necessary", "fp_unnecessary", "fn", "tn")
TP, FP_NECESSARY, FP_UNNECESSARY, FN, TN = range(5)
PRESENT, BIAS_SUM, BIAS_COUNT = 0, 1, 2
HEADER_COLUMNS = 3
ASSUMPTIONS = ("dependent", "independent")


class ChunkStatistics:
    """The statistics of D sentences (see the module docstring): ``header`` (D, slots, 3);
    the cells, row ``d``'s at ``starts[d]`` to ``starts[d + 1]``: ``cells`` (slot x 5 +
    category), ``lengths`` and ``counts`` (all non-zero); ``width`` W, the number of lengths
    (kept by :meth:`take`, the largest of the parts by :meth:`joined`, as the dense layout's
    columns are)."""

    def __init__(self, header: np.ndarray, starts: np.ndarray, cells: np.ndarray, lengths: np.ndarray,
                 counts: np.ndarray, width: int) -> None:
        self.header, self.starts, self.cells, self.lengths, self.counts = header, starts, cells, lengths, counts
        self.width = int(width)

    def __len__(self) -> int:
        return len(self.header)

    @property
    def slots(self) -> int:
        return self.header.shape[1]

    @property
    def shape(self) -> tuple[int, int, int]:
        """The dense layout's shape (D, slots, 3 + 5 W)."""
        return len(self), self.slots, HEADER_COLUMNS + len(CATEGORIES) * self.width

    @property
    def rows(self) -> np.ndarray:
        """The row of every cell."""
        return np.repeat(np.arange(len(self), dtype=np.int64), np.diff(self.starts))

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        dense = np.zeros(self.shape, dtype=np.int64)
        dense[:, :, :HEADER_COLUMNS] = self.header
        slot, category = np.divmod(self.cells.astype(np.int64), len(CATEGORIES))
        dense[self.rows, slot, HEADER_COLUMNS + self.lengths.astype(np.int64) * len(CATEGORIES) + category] = self.counts
        return dense if dtype is None else dense.astype(dtype)

    @classmethod
    def of_cells(cls, header: np.ndarray, rows: np.ndarray, slots: np.ndarray, categories: np.ndarray,
                 lengths: np.ndarray, width: int | None = None) -> "ChunkStatistics":
        """The statistics of chunks given one by one (row, slot, category, length: any order)."""
        n_rows, n_slots = header.shape[:2]
        width = int(lengths.max()) + 1 if width is None and len(lengths) else width or 1
        keys = ((rows.astype(np.int64) * n_slots + slots) * len(CATEGORIES) + categories) * width + lengths
        keys, counts = np.unique(keys, return_counts=True)
        cell_keys, lengths = np.divmod(keys, width)
        starts = np.searchsorted(cell_keys // (n_slots * len(CATEGORIES)), np.arange(n_rows + 1))
        return cls(header, starts.astype(np.int64), (cell_keys % (n_slots * len(CATEGORIES))).astype(np.int32),
                   lengths.astype(np.int32), counts.astype(np.int32), width)

    @classmethod
    def of_dense(cls, statistics: np.ndarray) -> "ChunkStatistics":
        """The statistics a dense array (D, slots, 3 + 5 W) holds."""
        by_length = statistics[:, :, HEADER_COLUMNS:].reshape(*statistics.shape[:2], -1, len(CATEGORIES))
        rows, slots, lengths, categories = np.nonzero(by_length)
        header = np.ascontiguousarray(statistics[:, :, :HEADER_COLUMNS], dtype=np.int64)
        counts = by_length[rows, slots, lengths, categories]
        order = np.lexsort((lengths, categories, slots, rows))
        starts = np.searchsorted(rows[order], np.arange(len(statistics) + 1))
        return cls(header, starts.astype(np.int64), (slots * len(CATEGORIES) + categories)[order].astype(np.int32),
                   lengths[order].astype(np.int32), counts[order].astype(np.int64), by_length.shape[2])

    def __getitem__(self, rows: Any) -> "ChunkStatistics":
        """Rows as NumPy selects them by a slice, indices or a mask (a statistics object; an
        integer alone is refused, as it would select no sentence axis)."""
        if isinstance(rows, (int, np.integer)):
            raise TypeError("select CLEME statistics rows by a slice, indices or a mask, not one integer")
        return self.take(np.arange(len(self))[rows])

    def take(self, rows: np.ndarray) -> "ChunkStatistics":
        """Rows ``rows`` (indices, in that order), with this width."""
        rows = np.asarray(rows, dtype=np.int64)
        sizes = self.starts[rows + 1] - self.starts[rows]
        where = ranges_index(self.starts[rows], sizes)
        starts = np.concatenate([np.zeros(1, np.int64), np.cumsum(sizes)])
        return ChunkStatistics(self.header[rows], starts, self.cells[where], self.lengths[where], self.counts[where],
                               self.width)

    @classmethod
    def joined(cls, parts: Sequence["ChunkStatistics"]) -> "ChunkStatistics":
        """Consecutive rows as one: the slots of the part with the most (others' absent)."""
        slots = max(part.slots for part in parts)
        headers = [np.pad(part.header, [(0, 0), (0, slots - part.slots), (0, 0)]) for part in parts]
        return cls(np.concatenate(headers), joined_offsets([part.starts for part in parts]),
                   *(np.concatenate([getattr(part, name) for part in parts]) for name in ("cells", "lengths", "counts")),
                   max(part.width for part in parts))



@dataclass(frozen=True)
class PreparedReferences:
    """The references of a corpus, read once and shared by every hypothesis."""

    name: str
    sources: list[str]
    source_tokens: list[tuple[str, ...]]
    references: list[list[Target]]
    lines: list[int]
    latest: list[Any] = field(default_factory=list, compare=False, repr=False)
    """[hypothesis, its partitions]: the latest hypothesis's chunks, shared by the metrics of a group."""

    @property
    def max_references(self) -> int:
        return max((len(refs) for refs in self.references), default=1)


def prepare_references(blocks: Sequence[Block], name: str = "reference") -> PreparedReferences:
    """Read the references of every block (CLEME's reading; errors name ``name`` and the line)."""
    if isinstance(blocks, (str, bytes)) or not all(isinstance(block, Block) for block in blocks):
        raise InputError("expected a sequence of M2 blocks (gecmetrics.io.m2.Block); read files with read_m2", name)
    references = [reference_targets(block, name) for block in blocks]
    return PreparedReferences(name, [block.source for block in blocks], [tuple(block.tokens) for block in blocks],
                              references, [block.line for block in blocks])


def hypothesis_targets(prepared: PreparedReferences, blocks: Sequence[Block], name: str) -> list[Target]:
    """The hypothesis target of each sentence, checked against the references' sentences (the
    :class:`~gecmetrics.io.corpus.Corpus` checks them too, naming the files)."""
    if isinstance(blocks, (str, bytes)) or not all(isinstance(block, Block) for block in blocks):
        raise InputError("expected a sequence of M2 blocks (gecmetrics.io.m2.Block); read files with read_m2", name)
    if len(blocks) != len(prepared.sources):
        raise InputError(f"has {plural(len(blocks), 'sentence')} but {the_reference(prepared.name)} has "
                         f"{len(prepared.sources)}", name)
    targets = []
    for block, source, line in zip(blocks, prepared.source_tokens, prepared.lines):
        if tuple(block.tokens) != source:
            where = f" (line {line} of {prepared.name})" if line else ""
            raise InputError(f"source differs from the reference's{where}: {block.source[:60]!r} vs "
                             f"{' '.join(source)[:60]!r}", name, block.line or None)
        targets.append(hypothesis_target(block, name))
    return targets


def sentence_partitions(prepared: PreparedReferences, hypotheses: Sequence[Target]) -> list[SentenceChunks]:
    """The chunk partition of every sentence (hypothesis first, then its references)."""
    return [partition(source, [hypothesis, *references])
            for source, hypothesis, references in zip(prepared.source_tokens, hypotheses, prepared.references)]


def _reference_bias(chunks: SentenceChunks) -> tuple[int, int]:
    """Sum and count of the lengths of the chunks that the references correct."""
    total = count = 0
    spans = chunks.spans
    for tokens, marked in zip(chunks.tokens[1:], chunks.marked[1:]):
        for (start, end), chunk_tokens, is_marked in zip(spans, tokens, marked):
            if is_marked:
                total += max(end - start, len(chunk_tokens))
                count += 1
    return total, count


def _dependent_events(chunks: SentenceChunks, events: list) -> None:
    """(slot, category, length) of every hypothesis chunk against each reference alone."""
    hypothesis, hypothesis_marked = chunks.tokens[0], chunks.marked[0]
    lengths = [max(end - start, len(tokens)) for (start, end), tokens in zip(chunks.spans, hypothesis)]
    for slot, (reference, reference_marked) in enumerate(zip(chunks.tokens[1:], chunks.marked[1:])):
        for index, tokens in enumerate(hypothesis):
            if hypothesis_marked[index]:
                if tokens == reference[index]:
                    category = TP
                else:
                    category = FP_NECESSARY if reference_marked[index] else FP_UNNECESSARY
            else:
                category = FN if tokens != reference[index] else TN
            events.append((slot, category, lengths[index]))


def _independent_events(chunks: SentenceChunks, events: list) -> None:
    """(0, category, length) of every hypothesis chunk against all references at once: a
    correction is right if any reference has it; a missed chunk is a FN only if every
    reference corrects it."""
    hypothesis, hypothesis_marked = chunks.tokens[0], chunks.marked[0]
    references, references_marked = chunks.tokens[1:], chunks.marked[1:]
    for index, ((start, end), tokens) in enumerate(zip(chunks.spans, hypothesis)):
        if hypothesis_marked[index]:
            if any(tokens == reference[index] for reference in references):
                category = TP
            elif any(marked[index] for marked in references_marked):
                category = FP_NECESSARY
            else:
                category = FP_UNNECESSARY
        else:
            category = FN if all(marked[index] for marked in references_marked) else TN
        events.append((0, category, max(end - start, len(tokens))))


def chunk_statistics(partitions: Sequence[SentenceChunks], assumption: str, slots: int) -> ChunkStatistics:
    """The statistics (see the module docstring) of these partitions."""
    if assumption not in ASSUMPTIONS:
        raise InputError(f"unknown CLEME assumption {assumption!r} (choose dependent or independent)")
    n_slots = slots if assumption == "dependent" else 1
    classify = _dependent_events if assumption == "dependent" else _independent_events
    rows, slot_ids, categories, lengths = [], [], [], []
    header = np.zeros((len(partitions), n_slots, HEADER_COLUMNS), dtype=np.int64)
    for row, chunks in enumerate(partitions):
        events: list[tuple[int, int, int]] = []
        classify(chunks, events)
        for slot, category, length in events:
            rows.append(row)
            slot_ids.append(slot)
            categories.append(category)
            lengths.append(length)
        n_references = len(chunks.tokens) - 1
        header[row, :min(n_references, n_slots), PRESENT] = 1
        header[row, 0, BIAS_SUM:BIAS_COUNT + 1] = _reference_bias(chunks)
    return ChunkStatistics.of_cells(header, *(np.asarray(values, dtype=np.int64)
                                              for values in (rows, slot_ids, categories, lengths)))


def histogram_width(statistics: ChunkStatistics) -> int:
    """W: the number of chunk lengths (0..W-1) the rows count."""
    return statistics.width


def histograms(statistics: ChunkStatistics | np.ndarray) -> np.ndarray:
    """The count histograms as a dense array (..., category, length)."""
    dense = np.asarray(statistics)
    by_length = dense[..., HEADER_COLUMNS:].reshape(*dense.shape[:-1], -1, len(CATEGORIES))
    return np.swapaxes(by_length, -1, -2)


def check_statistics(statistics: Any) -> ChunkStatistics:
    """CLEME statistics: a :class:`ChunkStatistics`, or the dense integer array (sentences,
    slots, 3 + 5 W) read as one."""
    if isinstance(statistics, ChunkStatistics):
        return statistics
    if not isinstance(statistics, np.ndarray) or statistics.ndim != 3 \
            or statistics.shape[2] < HEADER_COLUMNS + 5 or (statistics.shape[2] - HEADER_COLUMNS) % 5:
        raise InputError("CLEME statistics must be what statistics() returns, or its dense array (sentences, slots, "
                         "3 + 5 W)")
    return ChunkStatistics.of_dense(statistics)
