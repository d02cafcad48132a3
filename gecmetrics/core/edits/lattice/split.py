"""Two long, similar texts (a paragraph or a document scored as one sentence): cut at runs of
tokens both share, each piece a sentence of its own.

A band of alignment cells around the main diagonal is exact, but its width is the edit
distance, so two 200,000-token texts with a thousand differences need hundreds of millions of
cells; and a long narrow lattice is searched one short line at a time. Instead, the pair is cut
in the middle of runs of at least :func:`anchor_run` identical tokens (found by walking both
texts, resynchronising after each difference at the nearest shared k-gram), and every piece is
aligned and searched as a sentence (exact or compact). No arc can cross such a cut: it would
hold more than ``max_unchanged_words`` unchanged tokens. The result is the unsplit one whenever
every minimum-cost alignment keeps those runs aligned token for token (which a repeated run
within reach of the resynchronisation could break); the official scorer cannot finish pairs
this long.
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import Callable, Sequence

import numpy as np

from .edits import GoldEdit, SystemEdit

SPLIT_FROM = 2_000
"""Tokens both texts must have for the pair to be cut (shorter pairs are aligned whole)."""

PIECE_TOKENS = 200
"""Pieces are joined while they stay within this many tokens on either side."""

KGRAM = 4
"""Tokens of the shared k-grams the walk resynchronises on."""

FURTHEST_RESYNC = 4_096
"""Tokens ahead on either side past which the walk gives up (the rest is one piece)."""


def anchor_run(max_unchanged_words: int) -> int:
    """Identical tokens a run needs to be cut in its middle (no arc can cross it)."""
    return max(12, 2 * max_unchanged_words + 3)


def cut_points(source: Sequence[str], hypothesis: Sequence[str], max_unchanged_words: int) -> list[tuple[int, int]]:
    """Alignment points (i, j) to cut the pair at, increasing in both, pieces within
    PIECE_TOKENS tokens where the texts allow."""
    vocabulary: dict[str, int] = {}
    source_ids = [vocabulary.setdefault(token, len(vocabulary)) for token in source]
    hypothesis_ids = [vocabulary.setdefault(token, len(vocabulary)) for token in hypothesis]
    candidates = _shared_runs(source_ids, hypothesis_ids, anchor_run(max_unchanged_words))
    cuts: list[tuple[int, int]] = []
    previous, pending = (0, 0), None
    for point in candidates:
        if max(point[0] - previous[0], point[1] - previous[1]) > PIECE_TOKENS and pending is not None:
            cuts.append(pending)
            previous = pending
        pending = point
    if pending is not None and max(len(source) - previous[0], len(hypothesis) - previous[1]) > PIECE_TOKENS:
        cuts.append(pending)
    return cuts


def _shared_runs(source: list[int], hypothesis: list[int], min_run: int) -> list[tuple[int, int]]:
    """The middles of the runs of at least ``min_run`` equal tokens met walking both texts."""
    i = j = 0
    middles = []
    source_keys, hypothesis_keys = _kgram_keys(source), _kgram_keys(hypothesis)
    while i < len(source) and j < len(hypothesis):
        start = i
        while i < len(source) and j < len(hypothesis) and source[i] == hypothesis[j]:
            i += 1
            j += 1
        if i - start >= min_run:
            middles.append(((start + i) // 2, j - (i - start) + (i - start) // 2))
        found = _resynchronise(source, hypothesis, source_keys, hypothesis_keys, i, j)
        if found is None:
            break
        i, j = found
    return middles


def _kgram_keys(ids: list[int]) -> list[int]:
    """A hash of the KGRAM tokens from each position (equal k-grams, equal keys)."""
    array = np.asarray(ids, dtype=np.uint64)
    count = max(0, len(ids) - KGRAM + 1)
    keys = np.zeros(count, dtype=np.uint64)
    for offset in range(KGRAM):
        keys = keys * np.uint64(1_000_003) + array[offset:offset + count]
    return keys.tolist()


def _resynchronise(source: list[int], hypothesis: list[int], source_keys: list[int], hypothesis_keys: list[int],
                   i: int, j: int) -> tuple[int, int] | None:
    """The nearest (i', j') >= (i, j) (least i' - i + j' - j) where both texts share a k-gram,
    looked for within a window doubled up to FURTHEST_RESYNC tokens."""
    window = 64
    while window <= FURTHEST_RESYNC:
        starts: dict[int, list[int]] = {}
        for position in range(j, min(j + window, len(hypothesis_keys))):
            starts.setdefault(hypothesis_keys[position], []).append(position)
        best = None
        for position in range(i, min(i + window, len(source_keys))):
            for other in starts.get(source_keys[position], ()):
                if source[position:position + KGRAM] == hypothesis[other:other + KGRAM]:
                    distance = position - i + other - j
                    if best is None or distance < best[0]:
                        best = (distance, position, other)
                    break
        if best is not None:
            return best[1], best[2]
        window *= 2
    return None


def search_pieces(pieces: list[tuple[int, int, object]], length: int, gold: Sequence[GoldEdit],
                  search: Callable[[object, list[GoldEdit]], list[SystemEdit]]) -> list[SystemEdit]:
    """Each piece (source offset, hypothesis offset, lattice) searched with the gold edits
    inside it (in their order, shifted), its edits shifted back. A gold edit across a cut
    matches nothing (no arc crosses a cut); a gold insertion at a cut belongs to the piece
    before it."""
    by_start = sorted(range(len(gold)), key=lambda index: gold[index].start)
    starts = [gold[index].start for index in by_start]
    edits: list[SystemEdit] = []
    ends = [offset for offset, _, _ in pieces[1:]] + [length]
    for (offset, _, lattice), end in zip(pieces, ends):
        chosen = sorted(by_start[bisect_left(starts, offset):bisect_right(starts, end)])
        inside = [GoldEdit(edit.start - offset, edit.end - offset, edit.original, edit.corrections)
                  for edit in (gold[index] for index in chosen)
                  if edit.end <= end and not (edit.start == edit.end == offset > 0)]
        for edit in search(lattice, inside):
            edits.append(SystemEdit(edit.start + offset, edit.end + offset, edit.original, edit.correction))
    return edits
