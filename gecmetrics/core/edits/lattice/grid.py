"""The base edges of a lattice as arrays over a band of alignment cells (for long sentences).

A sentence pair with many alignment cells (a long hypothesis line, a long gold sentence) keeps
its base edges in NumPy arrays instead of a dict of edges. The arrays are laid out so that a
search can process one *line* of cells at a time with long vectors:

* lines run along the longer of the two token sequences: line ``r`` holds the cells with ``r``
  tokens of the shorter sequence consumed (``transposed`` is True when that is the hypothesis);
* a line keeps only the cells of a band of diagonals: position ``p`` of line ``r`` is the cell
  with ``r + low + p`` tokens of the longer sequence consumed.

An edge into cell ``(r, p)`` comes from ``(r - 1, p)`` (``diagonal``: one token of each),
``(r - 1, p + 1)`` (``down``: one token of the shorter sequence) or ``(r, p - 1)`` (``right``:
one token of the longer sequence); each array holds the number of cost schemes whose
minimum-cost alignments use that edge (0: no edge, 1 or 2 copies). ``same`` says whether the
diagonal edge into a cell aligns two equal tokens (an unchanged token).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

DIAGONAL, DOWN, RIGHT = 0, 1, 2
"""The three edge directions of a grid, in the order a search relaxes them."""


@dataclass
class EdgeGrid:
    """Base edges of one (source, hypothesis) pair over a band of cells, line by line."""

    source_length: int
    hypothesis_length: int
    transposed: bool
    """True when lines run along the source (the hypothesis is the shorter sequence)."""
    low: int
    """Diagonal offset of position 0: cell (r, p) has consumed r + low + p tokens of the longer sequence."""
    diagonal: np.ndarray
    """uint8 (lines, width): copies of the edge (r - 1, p) -> (r, p)."""
    down: np.ndarray
    """uint8 (lines, width): copies of the edge (r - 1, p + 1) -> (r, p)."""
    right: np.ndarray
    """uint8 (lines, width): copies of the edge (r, p - 1) -> (r, p)."""
    same: np.ndarray
    """bool (lines, width): the diagonal edge into the cell aligns equal tokens."""
    vertex: np.ndarray
    """bool (lines, width): the cell is a vertex (touched by an edge, or the last cell)."""

    @property
    def lines(self) -> int:
        return self.diagonal.shape[0]

    @property
    def width(self) -> int:
        return self.diagonal.shape[1]

    @property
    def long_length(self) -> int:
        """Number of tokens of the sequence the lines run along."""
        return self.source_length if self.transposed else self.hypothesis_length

    def edge_count(self) -> int:
        """Number of distinct base edges."""
        return int(np.count_nonzero(self.diagonal) + np.count_nonzero(self.down) + np.count_nonzero(self.right))

    def cell(self, i: int, j: int) -> tuple[int, int]:
        """(line, position) of the alignment point with i source and j hypothesis tokens consumed
        (the position may fall outside the band: check it against ``width``)."""
        r, c = (j, i) if self.transposed else (i, j)
        return r, c - r - self.low

    def point(self, line: int, position: int) -> tuple[int, int]:
        """(i, j) of a cell: source and hypothesis tokens consumed."""
        c = line + self.low + position
        return (c, line) if self.transposed else (line, c)

    def is_vertex(self, i: int, j: int) -> bool:
        line, position = self.cell(i, j)
        return 0 <= line < self.lines and 0 <= position < self.width and bool(self.vertex[line, position])

    def end_position(self) -> int:
        """Position of the last cell (all tokens consumed) in the last line."""
        return self.long_length - (self.lines - 1) - self.low


def grid_to_copies(grid: EdgeGrid) -> tuple[dict[tuple[int, int], int], list[int]]:
    """The base edges as the exact search wants them: {(u, w): copies} over vertex numbers
    ``i * (m + 1) + j`` of the original orientation, and the sorted vertices."""
    width = grid.hypothesis_length + 1
    copies: dict[tuple[int, int], int] = {}
    for kind, array in ((DIAGONAL, grid.diagonal), (DOWN, grid.down), (RIGHT, grid.right)):
        lines, positions = np.nonzero(array)
        for line, position, count in zip(lines.tolist(), positions.tolist(), array[lines, positions].tolist()):
            i1, j1 = grid.point(line, position)
            i0, j0 = grid.point(*_edge_source(kind, line, position))
            copies[(i0 * width + j0, i1 * width + j1)] = count
    lines, positions = np.nonzero(grid.vertex)
    vertices = sorted(i * width + j for i, j in (grid.point(r, p) for r, p in zip(lines.tolist(), positions.tolist())))
    return copies, vertices


def _edge_source(kind: int, line: int, position: int) -> tuple[int, int]:
    """The cell an edge of this direction into (line, position) comes from."""
    if kind == DIAGONAL:
        return line - 1, position
    if kind == DOWN:
        return line - 1, position + 1
    return line, position - 1


def grid_from_copies(source: list[str], hypothesis: list[str], copies: dict[tuple[int, int], int],
                     vertices: list[int]) -> EdgeGrid:
    """The arrays of base edges given as {(u, w): copies} (a short sentence whose search must
    be compact): lines along the longer sequence, band just wide enough for the vertices."""
    n, m = len(source), len(hypothesis)
    transposed = n > m
    width_original = m + 1
    i, j = np.divmod(np.array(vertices, dtype=np.int64), width_original)
    offsets = (i - j) if transposed else (j - i)
    low = int(offsets.min())
    shape = (min(n, m) + 1, int(offsets.max()) - low + 1)
    grid = EdgeGrid(n, m, transposed, low, np.zeros(shape, np.uint8), np.zeros(shape, np.uint8),
                    np.zeros(shape, np.uint8), np.zeros(shape, bool), np.zeros(shape, bool))
    grid.vertex[_cells(grid, i, j)] = True
    if not copies:
        return grid
    edges = np.array(list(copies), dtype=np.int64)
    counts = np.array(list(copies.values()), dtype=np.uint8)
    (i0, j0), (i1, j1) = np.divmod(edges[:, 0], width_original), np.divmod(edges[:, 1], width_original)
    diagonal = (i1 > i0) & (j1 > j0)
    down = ~diagonal & ((i1 > i0) != transposed)  # a step along the shorter sequence only
    right = ~diagonal & ~down
    for kind, array in ((diagonal, grid.diagonal), (down, grid.down), (right, grid.right)):
        array[_cells(grid, i1[kind], j1[kind])] = counts[kind]
    if diagonal.any():
        tokens = {token: k for k, token in enumerate(dict.fromkeys(source + hypothesis))}
        source_ids = np.array([tokens[t] for t in source], dtype=np.int64)
        hypothesis_ids = np.array([tokens[t] for t in hypothesis], dtype=np.int64)
        equal = source_ids[i0[diagonal]] == hypothesis_ids[j0[diagonal]]
        grid.same[_cells(grid, i1[diagonal], j1[diagonal])] = equal
    return grid


def _cells(grid: EdgeGrid, i: np.ndarray, j: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(lines, positions) of alignment points given as arrays of (i, j)."""
    lines, columns = (j, i) if grid.transposed else (i, j)
    return lines, columns - lines - grid.low


def edges_into(grid: EdgeGrid, rows: np.ndarray, columns: np.ndarray) -> tuple[np.ndarray, ...]:
    """For alignment points (i, j) = (rows, columns) of the original orientation: copies of the
    diagonal, deletion ((i - 1, j) ->) and insertion ((i, j - 1) ->) edges into each, and
    whether the diagonal one is unchanged (0 for points outside the band)."""
    lines, columns_long = (columns, rows) if grid.transposed else (rows, columns)
    positions = columns_long - lines - grid.low
    inside = (lines >= 0) & (lines < grid.lines) & (positions >= 0) & (positions < grid.width)
    lines, positions = np.where(inside, lines, 0), np.where(inside, positions, 0)

    def read(array: np.ndarray) -> np.ndarray:
        return np.where(inside, array[lines, positions], 0).astype(np.int64)

    down, right = read(grid.down), read(grid.right)
    deletion, insertion = (right, down) if grid.transposed else (down, right)
    return read(grid.diagonal), deletion, insertion, read(grid.same)
