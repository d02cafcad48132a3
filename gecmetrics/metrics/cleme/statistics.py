"""Per-sentence chunk statistics of CLEME: counts of TP / FP / FN / TN chunks by length.

Row d of the array is sentence d; along its second axis are the reference slots (the references
of the sentence under the dependent assumption, one slot under the independent one); the last
axis holds, per slot,

* column 0: 1 if the slot is a reference of this sentence (0 for padding),
* columns 1, 2: sum and number of the lengths of the reference chunks that the sentence's
  references correct (the whole sentence's, in slot 0 only): they give the weighting bias,
* then, length after length (0..W-1), the number of hypothesis chunks of that length in each
  category of :data:`CATEGORIES`: column ``3 + 5 L + category``.

Every column adds up over sentences, and the length weighting (whose bias is a corpus mean) is
applied by the reducers, so the rows are exact whatever the weights. W is the longest chunk + 1.
**Joining** rows of several blocks of sentences (chunks of a corpus) is the protocol's rule,
:func:`gecmetrics.metrics.base.Metric.join_statistics`: zeros appended at the end of the slot axis (absent
references) and of the last axis (longer lengths, which a block without such chunks counts 0 times).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from ...core.edits.blocks import the_reference
from ...errors import InputError, plural
from ...io.m2 import Block
from .chunking import SentenceChunks, Target, hypothesis_target, partition, reference_targets

CATEGORIES = ("tp", "fp_necessary", "fp_unnecessary", "fn", "tn")
TP, FP_NECESSARY, FP_UNNECESSARY, FN, TN = range(5)
PRESENT, BIAS_SUM, BIAS_COUNT = 0, 1, 2
HEADER_COLUMNS = 3
ASSUMPTIONS = ("dependent", "independent")


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


def chunk_statistics(partitions: Sequence[SentenceChunks], assumption: str, slots: int) -> np.ndarray:
    """The statistics rows (see the module docstring) of these partitions."""
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
    width = (max(lengths) + 1) if lengths else 1
    histogram_size = len(CATEGORIES) * width
    flat = ((np.asarray(rows, dtype=np.int64) * n_slots + np.asarray(slot_ids, dtype=np.int64)) * histogram_size
            + np.asarray(lengths, dtype=np.int64) * len(CATEGORIES) + np.asarray(categories, dtype=np.int64))
    counts = np.bincount(flat, minlength=len(partitions) * n_slots * histogram_size)
    histograms = counts.reshape(len(partitions), n_slots, histogram_size)
    return np.concatenate([header, histograms], axis=2)


def histogram_width(statistics: np.ndarray) -> int:
    """W: the number of chunk lengths (0..W-1) the rows count."""
    return (statistics.shape[-1] - HEADER_COLUMNS) // len(CATEGORIES)


def histograms(statistics: np.ndarray) -> np.ndarray:
    """The count histograms as an array (..., category, length)."""
    by_length = statistics[..., HEADER_COLUMNS:].reshape(*statistics.shape[:-1], histogram_width(statistics),
                                                         len(CATEGORIES))
    return np.swapaxes(by_length, -1, -2)


def check_statistics(statistics: Any) -> np.ndarray:
    """CLEME statistics: an integer array (sentences, slots, 3 + 5 W)."""
    if not isinstance(statistics, np.ndarray) or statistics.ndim != 3 \
            or statistics.shape[2] < HEADER_COLUMNS + 5 or (statistics.shape[2] - HEADER_COLUMNS) % 5:
        raise InputError("CLEME statistics must be the (sentences, slots, 3 + 5 W) array of statistics()")
    return statistics
