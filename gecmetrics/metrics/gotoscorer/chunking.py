"""GoToScorer's chunks (Gotou et al., COLING 2020; github gotutiyan/GTS ``scripts/chunker.py``).

A sentence of n source tokens (its ``S`` line split on single spaces, as the original does) is
cut into chunks from one annotator's edits, taken in file order, skipping the types ``noop``,
``UNK`` and ``Um``:

1. *basic chunks*: for each edit, the source tokens from the end of the previous edit (0 for the
   first) up to the edit's start, one chunk per token, then the edit itself; after the last edit,
   the tokens from its end to n (these gaps are empty when edits overlap or go backwards: the
   original's rule, kept as it is);
2. *insertion slots*: an empty chunk (p, p) with text '' before every basic chunk that is not an
   insertion and does not follow an insertion, and one at (n, n) unless the last basic chunk is an
   insertion.

A chunk has a span [start, end) of the source, a text (the edit's correction field as written,
or the token, or '' for a slot) and a flag saying whether it is an edit. Every sentence (or
*row*: a system's version of a sentence) is built at once, with NumPy, from flat edit arrays.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ...errors import InputError
from ...io.m2 import Block, Edit

SKIPPED_TYPES = frozenset({"noop", "UNK", "Um"})
"""Edit types the original never turns into chunks."""

EMPTY_TEXT = 0
"""Text id of the empty string (insertion slots) in every :class:`Vocabulary`."""


class Vocabulary(dict):
    """Text -> dense id, shared by the gold chunks and the systems' chunks of one run."""

    def __init__(self) -> None:
        super().__init__({"": EMPTY_TEXT})

    def id(self, text: str) -> int:
        found = self.get(text)
        if found is None:
            found = self[text] = len(self)
        return found

    def ids(self, texts: Sequence[str]) -> list[int]:
        get = self.get
        out = [get(text, -1) for text in texts]
        if -1 in out:
            out = [self.id(text) for text in texts]
        return out


def source_tokens(source: str) -> list[str]:
    """The original's tokens of an ``S`` line: split on single spaces (an empty line is one
    empty token)."""
    return source.split(" ")


def chunk_edits(edits: Sequence[Edit]) -> list[Edit]:
    """The edits that become chunks, in file order: every type but noop/UNK/Um, and no -1 -1
    span (the original would put a chunk at -1; only noop lines have that span in practice)."""
    return [edit for edit in edits if edit.type not in SKIPPED_TYPES and not edit.is_noop]


@dataclass(frozen=True)
class SentenceTokens:
    """The source tokens of a corpus: token count and the text ids of every sentence's tokens."""

    lengths: np.ndarray
    """Tokens per sentence (int64, D)."""
    offsets: np.ndarray
    """First token of each sentence in ``ids`` (int64, D + 1)."""
    ids: np.ndarray
    """Text ids of all tokens, sentence after sentence (int64)."""
    sources: tuple[str, ...]

    @classmethod
    def from_blocks(cls, blocks: Sequence[Block], vocabulary: Vocabulary) -> "SentenceTokens":
        ids: list[int] = []
        lengths = np.empty(len(blocks), dtype=np.int64)
        for k, block in enumerate(blocks):
            tokens = source_tokens(block.source)
            lengths[k] = len(tokens)
            ids.extend(vocabulary.ids(tokens))
        offsets = np.zeros(len(blocks) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        return cls(lengths, offsets, np.asarray(ids, dtype=np.int64), tuple(block.source for block in blocks))

    def __len__(self) -> int:
        return len(self.lengths)


@dataclass(frozen=True)
class EditArrays:
    """Chunk-making edits of many rows as flat arrays, grouped by row (ascending), file order
    within a row."""

    row: np.ndarray
    start: np.ndarray
    end: np.ndarray
    text: np.ndarray

    @classmethod
    def from_lists(cls, per_row: Sequence[Sequence[tuple[int, int, int]]]) -> "EditArrays":
        """From (start, end, text id) triples per row."""
        counts = np.fromiter((len(edits) for edits in per_row), dtype=np.int64, count=len(per_row))
        flat = [triple for edits in per_row for triple in edits]
        table = np.asarray(flat, dtype=np.int64).reshape(-1, 3)
        return cls(np.repeat(np.arange(len(per_row), dtype=np.int64), counts), table[:, 0].copy(),
                   table[:, 1].copy(), table[:, 2].copy())

    def __len__(self) -> int:
        return len(self.row)


@dataclass(frozen=True)
class Chunks:
    """The chunks of many rows, row after row, each row in the original's order."""

    row: np.ndarray
    start: np.ndarray
    end: np.ndarray
    text: np.ndarray
    """Text id (see :class:`Vocabulary`)."""
    modified: np.ndarray
    """True for an edit chunk."""
    edit: np.ndarray
    """Index of the chunk's edit in the :class:`EditArrays` it was built from, -1 if none."""
    offsets: np.ndarray
    """First chunk of each row (R + 1)."""

    def __len__(self) -> int:
        return len(self.row)

    def of_row(self, r: int) -> list[tuple[int, int, int, bool]]:
        """(start, end, text id, modified) of one row's chunks (for tests and display)."""
        lo, hi = self.offsets[r], self.offsets[r + 1]
        return [(int(s), int(e), int(t), bool(m)) for s, e, t, m in
                zip(self.start[lo:hi], self.end[lo:hi], self.text[lo:hi], self.modified[lo:hi])]


def build_chunks(lengths: np.ndarray, token_offsets: np.ndarray, token_ids: np.ndarray, edits: EditArrays) -> Chunks:
    """The chunks of R rows: row r has ``lengths[r]`` source tokens whose text ids start at
    ``token_ids[token_offsets[r]]``, and the edits of ``edits`` with ``row == r``."""
    lengths = np.asarray(lengths, dtype=np.int64)
    token_offsets = np.asarray(token_offsets, dtype=np.int64)
    if len(lengths) and int(lengths.min()) < 1:
        raise InputError("a sentence has no tokens (the original splits an empty line into one empty token)")
    basic = _basic_chunks(_Groups.of(lengths, edits), token_offsets, token_ids, edits)
    return _with_slots(basic, lengths)


@dataclass(frozen=True)
class _Groups:
    """Step 1: the basic chunks in groups, each edit's (the gap tokens since the previous edit
    of its row, then the edit), then each row's final gap: per group its row, first token
    position, number of gap tokens and edit (-1 for a final gap)."""

    row: np.ndarray
    start: np.ndarray
    tokens: np.ndarray
    edit: np.ndarray

    @classmethod
    def of(cls, lengths: np.ndarray, edits: EditArrays) -> "_Groups":
        n_rows, n_edits = len(lengths), len(edits)
        per_row = np.bincount(edits.row, minlength=n_rows).astype(np.int64)
        edits_before = np.zeros(n_rows + 1, dtype=np.int64)
        np.cumsum(per_row, out=edits_before[1:])
        # the previous edit's end in the same row (0 before the first edit of a row)
        first = np.zeros(n_edits, dtype=bool)
        first[edits_before[:-1][per_row > 0]] = True
        previous_end = np.zeros(n_edits, dtype=np.int64)
        if n_edits:
            previous_end[1:] = edits.end[:-1]
            previous_end[first] = 0
        last_end = np.zeros(n_rows, dtype=np.int64)
        has_edits = per_row > 0
        last_end[has_edits] = edits.end[edits_before[1:][has_edits] - 1]

        n_groups = n_edits + n_rows
        edit_group = np.arange(n_edits, dtype=np.int64) + edits.row
        final_group = edits_before[1:] + np.arange(n_rows, dtype=np.int64)
        row, start, tokens = (np.empty(n_groups, dtype=np.int64) for _ in range(3))
        tokens[edit_group] = np.maximum(0, edits.start - previous_end)
        tokens[final_group] = np.maximum(0, lengths - last_end)
        start[edit_group], start[final_group] = previous_end, last_end
        row[edit_group], row[final_group] = edits.row, np.arange(n_rows, dtype=np.int64)
        edit = np.full(n_groups, -1, dtype=np.int64)
        edit[edit_group] = np.arange(n_edits, dtype=np.int64)
        return cls(row, start, tokens, edit)


@dataclass(frozen=True)
class _Basic:
    """Step 2: the basic chunks of every row, in order: row, span, text id and edit (-1: a token)."""

    row: np.ndarray
    start: np.ndarray
    end: np.ndarray
    text: np.ndarray
    edit: np.ndarray


def _basic_chunks(groups: _Groups, token_offsets: np.ndarray, token_ids: np.ndarray, edits: EditArrays) -> _Basic:
    """The groups unrolled: a chunk per gap token, then the group's edit."""
    group_size = groups.tokens + (groups.edit >= 0)
    basic_group = np.repeat(np.arange(len(group_size), dtype=np.int64), group_size)
    group_first = np.cumsum(group_size) - group_size
    within = np.arange(len(basic_group), dtype=np.int64) - group_first[basic_group]
    is_token = within < groups.tokens[basic_group]
    row = groups.row[basic_group]
    position = groups.start[basic_group] + within
    edit_of = np.where(is_token, -1, groups.edit[basic_group])
    safe_edit = np.maximum(edit_of, 0)
    if len(edits):
        start = np.where(is_token, position, edits.start[safe_edit])
        end = np.where(is_token, position + 1, edits.end[safe_edit])
        token_index = np.where(is_token, token_offsets[row] + position, 0)
        text = np.where(is_token, token_ids[token_index], edits.text[safe_edit])
    else:
        start, end = position, position + 1
        text = token_ids[token_offsets[row] + position]
    return _Basic(row, start, end, text, edit_of)


def _with_slots(basic: _Basic, lengths: np.ndarray) -> Chunks:
    """Step 3: the insertion slots put in: before every basic chunk that is not an insertion and
    does not follow one, and at the end of a row whose last chunk is not an insertion."""
    n_rows, n_basic = len(lengths), len(basic.row)
    insertion = basic.start == basic.end
    first_of_row = np.ones(n_basic, dtype=bool)
    first_of_row[1:] = basic.row[1:] != basic.row[:-1]
    last_of_row = np.ones(n_basic, dtype=bool)
    last_of_row[:-1] = first_of_row[1:]
    after_insertion = np.zeros(n_basic, dtype=bool)
    after_insertion[1:] = insertion[:-1]
    after_insertion &= ~first_of_row
    slot_before = ~insertion & ~after_insertion
    slot_after = last_of_row & ~insertion
    size = 1 + slot_before + slot_after
    at = np.cumsum(size) - size
    total = int(size.sum())

    out_row, out_start, out_end = (np.empty(total, dtype=np.int64) for _ in range(3))
    out_text = np.full(total, EMPTY_TEXT, dtype=np.int64)
    out_modified = np.zeros(total, dtype=bool)
    out_edit = np.full(total, -1, dtype=np.int64)
    here = at + slot_before
    out_row[here], out_start[here], out_end[here] = basic.row, basic.start, basic.end
    out_text[here], out_modified[here], out_edit[here] = basic.text, basic.edit >= 0, basic.edit
    before, slot_start = at[slot_before], basic.start[slot_before]
    out_row[before], out_start[before], out_end[before] = basic.row[slot_before], slot_start, slot_start
    after = here[slot_after] + 1
    final_position = lengths[basic.row[slot_after]]
    out_row[after], out_start[after], out_end[after] = basic.row[slot_after], final_position, final_position
    offsets = np.zeros(n_rows + 1, dtype=np.int64)
    np.cumsum(np.bincount(out_row, minlength=n_rows), out=offsets[1:])
    return Chunks(out_row, out_start, out_end, out_text, out_modified, out_edit, offsets)
