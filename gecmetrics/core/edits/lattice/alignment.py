"""Minimum-cost alignments of a source and a hypothesis: the base edges of the lattice.

The lattice holds the edges of every minimum-cost alignment under two cost schemes
(substitution 1 and substitution 2; insertion and deletion 1), each edge with the number of
schemes that have it (the official lists an edge once per scheme). Two builders give the same
edges:

* :func:`min_cost_edges`, pure Python over a band of cells, returns a dict of edges: fastest on
  ordinary sentences, and what the exact search consumes (the optional C extension
  ``gecmetrics.core._align`` fills the same tables and finds the same edges in the same order,
  :func:`compiled_lattice_enabled`);
* :func:`min_cost_grid`, NumPy over a band of cells one line at a time, returns an
  :class:`~.grid.EdgeGrid`: for long sentences (a long hypothesis line, a long gold sentence),
  where a dict of edges and a table of every cell would be quadratic in memory.

Both fill the cost tables only in a band of diagonals around the main one, widened until the
cost found is within the band's bound (then no cell outside can be on a minimum-cost path; the
cost with substitution 2 bounds the other).
"""
from __future__ import annotations

import os
from heapq import heappop, heappush
from types import ModuleType
from typing import Sequence

import numpy as np

from ....errors import LineRefused
from ...backend import ENVIRONMENT_VARIABLE
from .grid import EdgeGrid

try:
    from ... import _align  # type: ignore[attr-defined]
except ImportError:  # installed without a C compiler
    _align: ModuleType | None = None  # type: ignore[no-redef]


def compiled_lattice_enabled() -> bool:
    """Whether :func:`min_cost_edges` runs in the C extension ``gecmetrics.core._align`` (the same
    tables and edges in the same order): built, and not disabled by ``GECMETRICS_NUMPY_CORE``
    (the Python reference then runs)."""
    return _align is not None and os.environ.get(ENVIRONMENT_VARIABLE, "") in ("", "0")


def _banded_costs(source: Sequence[str], hypothesis: Sequence[str],
                  slack: int) -> tuple[list[int], list[int]]:
    """Alignment costs of both schemes (substitution 1 and 2; insertion and deletion 1) in one
    pass, as flat tables indexed by vertex ``i * (m + 1) + j``, restricted to the cells whose
    lower bound |i - j| + |(n - i) - (m - j)| is at most |n - m| + 2 * slack (cells outside
    hold a value above any alignment cost)."""
    n, m = len(source), len(hypothesis)
    width = m + 1
    infinity = 4 * (n + m) + 1
    low_shift = min(0, n - m) - slack   # smallest i - j kept
    high_shift = max(0, n - m) + slack  # largest i - j kept
    size = (n + 1) * width
    costs1 = [infinity] * size
    costs2 = [infinity] * size
    for j in range(0, min(m, -low_shift) + 1):
        costs1[j] = costs2[j] = j
    for i in range(1, n + 1):
        token = source[i - 1]
        j_low = max(0, i - high_shift)
        j_high = min(m, i - low_shift)
        if j_low > j_high:
            continue
        row = i * width
        if j_low == 0:
            costs1[row] = costs2[row] = i
            j_low = 1
            left1 = left2 = i
        else:
            left1 = left2 = infinity
        for w in range(row + j_low, row + j_high + 1):
            up = w - width
            if token == hypothesis[w - row - 1]:
                best1 = costs1[up - 1]
                best2 = costs2[up - 1]
            else:
                best1 = costs1[up - 1] + 1
                best2 = costs2[up - 1] + 2
            other = costs1[up] + 1
            if other < best1:
                best1 = other
            if left1 + 1 < best1:
                best1 = left1 + 1
            other = costs2[up] + 1
            if other < best2:
                best2 = other
            if left2 + 1 < best2:
                best2 = left2 + 1
            costs1[w] = left1 = best1
            costs2[w] = left2 = best2
    return costs1, costs2


_COPIES = (0, 1, 1, 2)
"""Number of cost schemes in a scheme bit mask (bit 1: substitution 1, bit 2: substitution 2)."""


def _optimal_edges(costs1: list[int], costs2: list[int], source: Sequence[str],
                   hypothesis: Sequence[str]) -> tuple[dict[tuple[int, int], int], list[int]]:
    """The edges (u, w) of every minimum-cost alignment of both cost tables, with the number
    of schemes that have each, and the sorted vertices they touch.

    One walk back from the last cell for both schemes: a vertex carries the bit mask of the
    schemes it is optimal for, and is expanded once, after all larger vertices (a max-heap),
    so its mask is complete by then (the schemes' alignments mostly coincide).

    The step to each predecessor (diagonal, up, left) is written out in full three times on
    purpose: this loop runs for every cell of every changed sentence, and a function call per
    edge would add to the hot path of the M2 benchmark (>= 30x the official scorer).
    """
    width = len(hypothesis) + 1
    end = len(costs1) - 1
    masks = {end: 3}
    heap = [-end]
    copies: dict[tuple[int, int], int] = {}
    while heap:
        w = -heappop(heap)
        mask = masks[w]
        here1 = costs1[w] if mask & 1 else -1
        here2 = costs2[w] if mask & 2 else -1
        i = w // width
        j = w - i * width
        if i:
            u = w - width
            if j:
                d = u - 1
                if source[i - 1] == hypothesis[j - 1]:
                    bits = (costs1[d] == here1) | ((costs2[d] == here2) << 1)
                else:
                    bits = (costs1[d] + 1 == here1) | ((costs2[d] + 2 == here2) << 1)
                if bits:
                    copies[(d, w)] = _COPIES[bits]
                    old = masks.get(d)
                    if old is None:
                        masks[d] = bits
                        heappush(heap, -d)
                    elif old | bits != old:
                        masks[d] = old | bits
            bits = (costs1[u] + 1 == here1) | ((costs2[u] + 1 == here2) << 1)
            if bits:
                copies[(u, w)] = _COPIES[bits]
                old = masks.get(u)
                if old is None:
                    masks[u] = bits
                    heappush(heap, -u)
                elif old | bits != old:
                    masks[u] = old | bits
        if j:
            u = w - 1
            bits = (costs1[u] + 1 == here1) | ((costs2[u] + 1 == here2) << 1)
            if bits:
                copies[(u, w)] = _COPIES[bits]
                old = masks.get(u)
                if old is None:
                    masks[u] = bits
                    heappush(heap, -u)
                elif old | bits != old:
                    masks[u] = old | bits
    return copies, sorted(masks)


def min_cost_edges(source: Sequence[str], hypothesis: Sequence[str], max_band_cells: int | None = None
                   ) -> tuple[dict[tuple[int, int], int], list[int]] | None:
    """Edges (u, w) of all minimum-cost alignments under both cost schemes, with the number of
    schemes that have each (1 or 2), and the sorted vertices they touch; None when the band
    would need more than ``max_band_cells`` cells (then the NumPy aligner is faster).

    The cost tables are filled in a band around the diagonal, widened until the cost found is
    within the band's bound (then no cell outside can be on a minimum-cost path; the cost
    with substitution 2 bounds the other): cost O((n + m) * distance) for similar sentences
    instead of O(n * m).
    """
    if compiled_lattice_enabled():
        source_ids, hypothesis_ids = _token_ids(source, hypothesis)
        found = _align.lattice_edges(source_ids, hypothesis_ids, -1 if max_band_cells is None else max_band_cells)
        if found is None:
            return None
        edges = np.frombuffer(found[0], dtype=np.int64).reshape(-1, 3).tolist()
        return {(u, w): schemes for u, w, schemes in edges}, np.frombuffer(found[1], dtype=np.int64).tolist()
    n, m = len(source), len(hypothesis)
    slack = 2
    while True:
        if max_band_cells is not None and (n + 1) * (abs(n - m) + 2 * slack + 1) > max_band_cells:
            return None
        costs1, costs2 = _banded_costs(source, hypothesis, slack)
        bound = costs2[-1] - abs(n - m)
        if bound <= 2 * slack or slack >= n + m:
            break
        slack = max(slack + 1, (bound + 1) // 2)
    return _optimal_edges(costs1, costs2, source, hypothesis)



MAX_GRID_CELLS = 10_000_000
"""Alignment cells (a band of them) one sentence pair may use: about 12 bytes each while the
lattice is built. A 100,000-token hypothesis line against a 40-token sentence needs 4.1
million; only two long and very different texts need more."""

_UNREACHED = 1 << 30
"""Cost of a cell outside the band (above any alignment cost of a pair within the cell budget)."""


class AlignmentTooLarge(LineRefused):
    """A source and hypothesis too long and too different to align within the cell budget."""


def min_cost_grid(source: Sequence[str], hypothesis: Sequence[str], max_cells: int = MAX_GRID_CELLS) -> EdgeGrid:
    """The base edges of all minimum-cost alignments under both cost schemes as arrays
    (:class:`~.grid.EdgeGrid`), filling the cost tables one line at a time in a band widened as
    :func:`min_cost_edges` widens it. Raises :class:`AlignmentTooLarge` past ``max_cells``."""
    transposed = len(source) > len(hypothesis)
    short, long = (hypothesis, source) if transposed else (source, hypothesis)
    short_ids, long_ids = _token_ids(short, long)
    slack = 2
    while True:
        low, high = max(-len(short), -slack), min(len(long), len(long) - len(short) + slack)
        cells = (len(short) + 1) * (high - low + 1)
        if cells > max_cells:
            raise AlignmentTooLarge(
                f"a sentence of {len(source)} tokens and its hypothesis line of {len(hypothesis)} tokens are too long "
                f"and too different to align ({cells:,} alignment cells, more than {max_cells:,})")
        forward = _forward_costs(short_ids, long_ids, low, high)
        bound = int(forward[1, -1, len(long) - len(short) - low]) - (len(long) - len(short))
        if bound <= 2 * slack or slack >= len(short) + len(long):
            break
        slack = max(slack + 1, (bound + 1) // 2)
    grid = _edges_from_costs(forward, short_ids, long_ids, low)
    grid.source_length, grid.hypothesis_length, grid.transposed = len(source), len(hypothesis), transposed
    return grid


def _token_ids(short: Sequence[str], long: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """Both token sequences as integer ids (equal tokens, equal ids)."""
    vocabulary: dict[str, int] = {}
    short_ids = np.array([vocabulary.setdefault(token, len(vocabulary)) for token in short], dtype=np.int64)
    long_ids = np.array([vocabulary.setdefault(token, len(vocabulary)) for token in long], dtype=np.int64)
    return short_ids, long_ids


class _LongTokens:
    """The longer sequence's ids padded with -1 (equal to no id) so that the tokens under a
    line's band are one slice: ``at(first)`` holds the tokens at ``first + p`` for each position."""

    def __init__(self, long_ids: np.ndarray, width: int, lines: int) -> None:
        self.pad = width + lines + 1
        self.ids = np.full(len(long_ids) + 2 * self.pad, -1, dtype=np.int64)
        self.ids[self.pad:self.pad + len(long_ids)] = long_ids
        self.width = width

    def at(self, first: int) -> np.ndarray:
        return self.ids[self.pad + first:self.pad + first + self.width]


def _forward_costs(short_ids: np.ndarray, long_ids: np.ndarray, low: int, high: int) -> np.ndarray:
    """Costs from the first cell, int32 (scheme, line, position): scheme 0 substitutes for 1,
    scheme 1 for 2. A line's cells depend on the line above (diagonal, down) and on their left
    neighbour (right): ``F[p] = min(candidate[p], F[p - 1] + 1)``, a running minimum of
    ``candidate - p``."""
    lines, width, long_length = len(short_ids) + 1, high - low + 1, len(long_ids)
    positions = np.arange(width, dtype=np.int32)
    tokens = _LongTokens(long_ids, width, lines)
    costs = np.empty((2, lines, width), dtype=np.int32)
    columns = low + positions
    costs[:, 0] = np.where((columns >= 0) & (columns <= long_length), columns, _UNREACHED)
    for line in range(1, lines):
        columns = line + low + positions
        outside = (columns < 0) | (columns > long_length)
        equal = tokens.at(line + low - 1) == short_ids[line - 1]
        for scheme, substitution in ((0, 1), (1, 2)):
            above = costs[scheme, line - 1]
            candidate = above + np.where(equal, 0, substitution).astype(np.int32)
            np.minimum(candidate[:-1], above[1:] + 1, out=candidate[:-1])
            candidate[outside] = _UNREACHED
            row = np.minimum.accumulate(candidate - positions) + positions
            row[outside] = _UNREACHED
            np.minimum(row, _UNREACHED, out=row)
            costs[scheme, line] = row
    return costs


def _edges_from_costs(forward: np.ndarray, short_ids: np.ndarray, long_ids: np.ndarray, low: int) -> EdgeGrid:
    """The grid of optimal edges: an edge u -> w is on a minimum-cost alignment of a scheme
    when cost(start, u) + its cost + cost(w, end) is the optimum. Costs to the last cell are
    computed line by line upwards, and each line's edges as soon as both sides are known."""
    _, lines, width = forward.shape
    long_length = len(long_ids)
    positions = np.arange(width, dtype=np.int64)
    tokens = _LongTokens(long_ids, width, lines)
    shape = (lines, width)
    grid = EdgeGrid(0, 0, False, low, np.zeros(shape, np.uint8), np.zeros(shape, np.uint8),
                    np.zeros(shape, np.uint8), np.zeros(shape, bool), np.zeros(shape, bool))
    end = long_length - (lines - 1) - low
    optimum = forward[:, -1, end].astype(np.int64)[:, None]
    columns = lines - 1 + low + positions
    below = np.where((columns >= 0) & (columns <= long_length), long_length - columns, _UNREACHED)
    below = np.stack([below, below]).astype(np.int64)
    _mark_right_edges(grid, forward, below, optimum, lines - 1)
    for line in range(lines - 2, -1, -1):
        equal = tokens.at(line + low) == short_ids[line]
        substitution = np.stack([np.where(equal, 0, 1), np.where(equal, 0, 2)])
        here = forward[:, line].astype(np.int64)
        grid.diagonal[line + 1] = np.count_nonzero(here + substitution + below == optimum, axis=0)
        grid.same[line + 1] = equal
        grid.down[line + 1, :-1] = np.count_nonzero(here[:, 1:] + 1 + below[:, :-1] == optimum, axis=0)
        candidate = below + substitution
        np.minimum(candidate[:, 1:], below[:, :-1] + 1, out=candidate[:, 1:])
        columns = line + low + positions
        candidate[:, (columns < 0) | (columns > long_length)] = _UNREACHED
        below = np.minimum.accumulate((candidate + positions)[:, ::-1], axis=1)[:, ::-1] - positions
        np.minimum(below, _UNREACHED, out=below)
        _mark_right_edges(grid, forward, below, optimum, line)
    grid.same &= grid.diagonal > 0
    _mark_vertices(grid, end)
    return grid


def _mark_right_edges(grid: EdgeGrid, forward: np.ndarray, below: np.ndarray, optimum: np.ndarray,
                      line: int) -> None:
    """Edges (line, p - 1) -> (line, p) on a minimum-cost alignment, given the line's costs to the end."""
    here = forward[:, line].astype(np.int64)
    grid.right[line, 1:] = np.count_nonzero(here[:, :-1] + 1 + below[:, 1:] == optimum, axis=0)


def _mark_vertices(grid: EdgeGrid, end: int) -> None:
    """A cell is a vertex when an edge enters or leaves it; the last cell always is."""
    vertex = (grid.diagonal > 0) | (grid.down > 0) | (grid.right > 0)
    vertex[:-1] |= grid.diagonal[1:] > 0
    vertex[:-1, 1:] |= grid.down[1:, :-1] > 0
    vertex[:, :-1] |= grid.right[:, 1:] > 0
    vertex[-1, end] = True
    grid.vertex = vertex
