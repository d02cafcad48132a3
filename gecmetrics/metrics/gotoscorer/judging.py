"""How a system fares on each gold chunk (GTS ``scripts/alignmenter.py`` and ``ChunkInfo.compare``).

For a gold chunk g and one system's chunks of the same sentence, the original walks the system's
chunks in order: one with g's span and text is *equal* (stop: the system got g right, and it
*tried* to change it if that chunk is an edit); one with g's span and another text, or, when g is
not an insertion slot, one that starts inside g or inside which g starts, is *not equal* (the
system tried to change g if any of those is an edit); when no chunk is either, the system left g
alone, right if and only if g is not a gold edit. In sets rather than steps, for g = [s, e):

* correct  = some system chunk has span (s, e) and g's text;
* tried    = if correct: whether the first such chunk is an edit; else whether any *overlapping*
  chunk is, where overlapping means span (s, s) when g is a slot (s == e), and otherwise
  s <= start < e or start < s < end;
* neither equal nor overlapping: correct = not a gold edit, tried = False.

Those are computed here for every (system row, gold chunk) pair at once: equality by a sorted
join on packed (position, length, text) keys, overlaps by cumulative counts over positions of the
chunks starting before a boundary and of those strictly containing it. A row is one distinct version
of a sentence (its chunk-making edits), so a sentence that several systems leave unchanged, or
correct alike, is judged once.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .chunking import Chunks, EditArrays, build_chunks

TP, FP, FN, TN, ALL = range(5)
OUTCOMES = ("tp", "fp", "fn", "tn", "all")


def _pack(columns: list[np.ndarray]) -> list[np.ndarray] | np.ndarray:
    """One int64 key per row of non-negative integer columns (exact: mixed radix), or the columns
    themselves when the product of their ranges does not fit in 63 bits."""
    key = np.zeros(len(columns[0]), dtype=np.int64)
    capacity = 1
    for column in columns:
        radix = int(column.max()) + 1 if len(column) else 1
        capacity *= radix
        if capacity >= 2**62:
            return columns
        key = key * radix + column
    return key


def _pair_keys(left: list[np.ndarray], right: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Packed keys of two row sets in one radix system (so equal rows get equal keys)."""
    both = _pack([np.concatenate([a, b]) for a, b in zip(left, right)])
    if isinstance(both, list):  # too wide to pack: dense ids of the distinct rows instead
        table = np.stack(both, axis=1)
        _, ids = np.unique(table, axis=0, return_inverse=True)
        both = ids.reshape(-1).astype(np.int64)
    return both[:len(left[0])], both[len(left[0]):]


@dataclass(frozen=True)
class RowJudgments:
    """Per (row, gold chunk of the row's sentence) pair, in row order: the gold chunk's index,
    whether the row got it right and whether it tried to change it."""

    gold: np.ndarray
    correct: np.ndarray
    tried: np.ndarray
    offsets: np.ndarray
    """First pair of each row (R + 1)."""


def judge_rows(gold: Chunks, lengths: np.ndarray, token_offsets: np.ndarray, token_ids: np.ndarray,
               row_sentence: np.ndarray, edits: EditArrays) -> RowJudgments:
    """Judge R system rows: row r is a version of sentence ``row_sentence[r]`` with the edits of
    ``edits`` whose row is r; ``gold`` holds the gold chunks of every sentence (one row each)."""
    row_sentence = np.asarray(row_sentence, dtype=np.int64)
    n_rows = len(row_sentence)
    row_lengths = lengths[row_sentence]
    system = build_chunks(row_lengths, token_offsets[row_sentence], token_ids, edits)

    # the gold chunks of each row's sentence, row after row
    gold_counts = np.diff(gold.offsets)[row_sentence]
    pair_offsets = np.zeros(n_rows + 1, dtype=np.int64)
    np.cumsum(gold_counts, out=pair_offsets[1:])
    pair_row = np.repeat(np.arange(n_rows, dtype=np.int64), gold_counts)
    pair_gold = np.arange(int(pair_offsets[-1]), dtype=np.int64) - pair_offsets[pair_row] + \
        gold.offsets[row_sentence][pair_row]

    # one coordinate axis for all rows: row r owns positions base[r] .. base[r] + n_r (+1 spare)
    base = np.zeros(n_rows, dtype=np.int64)
    np.cumsum(row_lengths[:-1] + 2, out=base[1:])
    axis = _Axis(int(base[-1] + row_lengths[-1] + 2) if n_rows else 1, base[system.row] + system.start,
                 system.end - system.start)
    g_start = base[pair_row] + gold.start[pair_gold]
    g_length = gold.end[pair_gold] - gold.start[pair_gold]

    equal, equal_tried = _equal_chunks(g_start, g_length, gold.text[pair_gold], axis, system)
    any_overlap = axis.overlapping(np.ones(len(axis.start), dtype=bool), g_start, g_length)
    edit_overlap = axis.overlapping(system.modified, g_start, g_length)
    gold_edit = gold.modified[pair_gold]
    correct = np.where(equal, True, np.where(any_overlap, False, ~gold_edit))
    tried = np.where(equal, equal_tried, edit_overlap)
    return RowJudgments(pair_gold, correct, tried, pair_offsets)


@dataclass(frozen=True)
class _Axis:
    """The system chunks of every row on one coordinate axis of ``positions`` positions: each
    chunk's start there and its length."""

    positions: int
    start: np.ndarray
    length: np.ndarray

    def overlapping(self, chosen: np.ndarray, g_start: np.ndarray, g_length: np.ndarray) -> np.ndarray:
        """Per gold chunk [g_start, g_start + g_length): whether a ``chosen`` system chunk
        overlaps it (a slot at its position when it is a slot; else one starting inside it or
        strictly containing its start), by counts over positions: chunks starting before a
        position, chunks strictly containing it, slots at it."""
        n, start, length = self.positions, self.start, self.length
        before = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(np.bincount(start[chosen], minlength=n), out=before[1:])
        starting_inside = before[g_start + g_length] - before[g_start]
        long = chosen & (length >= 2)
        delta = np.bincount(start[long] + 1, minlength=n) - np.bincount(start[long] + length[long], minlength=n)
        containing = np.cumsum(delta)[g_start]
        slots_here = np.bincount(start[chosen & (length == 0)], minlength=n)[g_start]
        return np.where(g_length == 0, slots_here, starting_inside + containing) > 0


def _equal_chunks(g_start: np.ndarray, g_length: np.ndarray, g_text: np.ndarray, axis: _Axis,
                  system: Chunks) -> tuple[np.ndarray, np.ndarray]:
    """Per gold chunk: whether a system chunk has its span and text, and whether the first such
    chunk is an edit (the system tried to change it)."""
    g_key, c_key = _pair_keys([g_start, g_length, g_text], [axis.start, axis.length, system.text])
    order = np.argsort(c_key, kind="stable")
    sorted_keys = c_key[order]
    found = np.searchsorted(sorted_keys, g_key)
    inside = found < len(sorted_keys)
    equal = np.zeros(len(g_key), dtype=bool)
    equal[inside] = sorted_keys[found[inside]] == g_key[inside]
    equal_tried = np.zeros(len(g_key), dtype=bool)
    equal_tried[equal] = system.modified[order[found[equal]]]
    return equal, equal_tried


def outcome_flags(correct: np.ndarray, tried: np.ndarray, gold_edit: np.ndarray) -> np.ndarray:
    """(pairs, 4) booleans TP, FP, FN, TN (GTS ``update_scores``): a wrong change of a gold edit
    is both a false positive and a false negative."""
    flags = np.empty((len(correct), 4), dtype=bool)
    flags[:, TP] = tried & correct
    flags[:, FP] = tried & ~correct
    flags[:, FN] = ~correct & (~tried | gold_edit)
    flags[:, TN] = ~tried & correct
    return flags
