"""Gold arcs of a compact lattice: the arcs that would match one annotator's gold edits.

An arc u -> w exists when a path of base edges joins u and w with at most
``max_unchanged_words`` unchanged tokens; it matches a gold edit when it covers the same source
span and its hypothesis tokens spell one of the accepted corrections. Without materialising
arcs, the candidates are found from the gold side:

* a gold edit that replaces or deletes source tokens [s, e): each vertex (s, j0) of the
  lattice whose hypothesis tokens from j0 spell a correction (k tokens) gives a candidate arc
  to (e, j0 + k), kept when a path joins them (a small search inside their box, done for all
  candidates of the same box shape at once);
* gold insertions at one source position go through the official's walk over the insertion
  arcs there (sorted, copies repeated), alternately from both ends, which lets one gold
  insertion match one arc only. The arcs of a position are all pairs of vertices of a run of
  insertion edges: quadratic in the run's length, so the walk is replayed on arc *positions*
  in that order, jumping over the arcs that match nothing (:class:`_InsertionWalk`).
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from .edits import GoldEdit
from .grid import EdgeGrid, edges_into
from .lattices import CompactLattice

_NO_PATH = 1 << 30


@dataclass
class GoldArcs:
    """Gold arcs of a compact lattice in grid coordinates (line, position), one per row."""

    source_line: np.ndarray
    source_position: np.ndarray
    target_line: np.ndarray
    target_position: np.ndarray
    changing: np.ndarray
    """False for a gold edit that changes nothing (a gold 'correction' equal to the source)."""
    _crossing: dict[int, np.ndarray] = field(default_factory=dict, repr=False)
    _inside: dict[int, np.ndarray] = field(default_factory=dict, repr=False)
    _sources: dict[int, np.ndarray] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        inside = self.source_line == self.target_line
        order = np.lexsort((self.source_position, self.target_position, self.target_line))
        self._crossing = _group(order[~inside[order]], self.target_line)
        self._inside = _group(order[inside[order]], self.target_line)
        crossing = np.flatnonzero(~inside)
        self._sources = _group(crossing[np.argsort(self.source_line[crossing], kind="stable")], self.source_line)

    def crossing_into(self, line: int) -> np.ndarray:
        """Arcs ending in ``line`` that start in an earlier line."""
        return self._crossing.get(line, _NONE)

    def inside(self, line: int) -> np.ndarray:
        """Arcs starting and ending in ``line``, by target then source position."""
        return self._inside.get(line, _NONE)

    def sources_in_line(self, line: int) -> np.ndarray:
        """Arcs starting in ``line`` that end in a later line."""
        return self._sources.get(line, _NONE)

    def source_cells(self, arcs: np.ndarray, width: int) -> np.ndarray:
        """Cell numbers (line * width + position) of the arcs' sources."""
        return self.source_line[arcs] * width + self.source_position[arcs]


def _group(arcs: np.ndarray, line_of: np.ndarray) -> dict[int, np.ndarray]:
    """Arcs (in the given order) grouped by ``line_of[arc]``, keeping the order in each group."""
    if len(arcs) == 0:
        return {}
    lines = line_of[arcs]
    cuts = np.flatnonzero(np.diff(lines)) + 1
    return {int(part_lines[0]): part for part, part_lines in zip(np.split(arcs, cuts), np.split(lines, cuts))}


_NONE = np.zeros(0, dtype=np.int64)


def find_gold_arcs(lattice: CompactLattice, gold: Sequence[GoldEdit]) -> GoldArcs:
    """The gold arcs of one annotator's gold edits."""
    grid = lattice.grid
    hypothesis_ids, vocabulary = lattice.hypothesis_ids
    found: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
    insertions: dict[int, list[GoldEdit]] = {}
    boxes: dict[tuple[int, int], list[tuple[np.ndarray, np.ndarray, bool]]] = {}
    for edit in gold:
        if edit.original != " ".join(lattice.source[edit.start:edit.end]):
            continue  # no arc has this original text
        if edit.start == edit.end:
            insertions.setdefault(edit.start, []).append(edit)
            continue
        for tokens in edit.token_corrections():
            starts = _spelling_vertices(grid, edit.start, tokens, hypothesis_ids, vocabulary)
            changing = tokens != lattice.source[edit.start:edit.end]
            if len(starts) and (changing or len(tokens) == edit.end - edit.start == 1):
                boxes.setdefault((edit.end - edit.start, len(tokens)), []).append(
                    (np.full(len(starts), edit.start), starts, changing))
    for (span, length), groups in boxes.items():
        found.append(_box_arcs(grid, lattice.max_unchanged_words, span, length, groups))
    for row, edits in insertions.items():
        found.append(_insertion_arcs(grid, row, edits, lattice.hypothesis, hypothesis_ids, vocabulary))
    return _to_grid(grid, found)


def _spelling_vertices(grid: EdgeGrid, row: int, tokens: list[str], hypothesis_ids: np.ndarray,
                       vocabulary: dict[str, int]) -> np.ndarray:
    """Hypothesis positions j0 such that (row, j0) is a vertex and the hypothesis tokens from
    j0 spell ``tokens``."""
    if any(token not in vocabulary for token in tokens):
        return _NONE
    columns = _row_vertices(grid, row)
    columns = columns[columns + len(tokens) <= grid.hypothesis_length]
    for offset, token in enumerate(tokens):
        columns = columns[hypothesis_ids[columns + offset] == vocabulary[token]]
    return columns


def _row_vertices(grid: EdgeGrid, row: int) -> np.ndarray:
    """Hypothesis positions j of the vertices (row, j), ascending."""
    if grid.transposed:  # source position `row` is one column of the grid: one cell per line
        lines = np.arange(grid.lines)
        positions = row - lines - grid.low
        inside = (positions >= 0) & (positions < grid.width)
        lines, positions = lines[inside], positions[inside]
        return lines[grid.vertex[lines, positions]]
    positions = np.flatnonzero(grid.vertex[row])
    return row + grid.low + positions


def _box_arcs(grid: EdgeGrid, limit: int, span: int, length: int,
              groups: list[tuple[np.ndarray, np.ndarray, bool]]):
    """Candidate arcs (s, j0) -> (s + span, j0 + length) kept when they are a base edge or a
    path inside their box has at most ``limit`` unchanged tokens (fewest unchanged tokens, box cell by box cell, for all
    candidates at once)."""
    rows = np.concatenate([group[0] for group in groups])
    columns = np.concatenate([group[1] for group in groups])
    changing = np.concatenate([np.full(len(group[0]), group[2]) for group in groups])
    fewest: dict[tuple[int, int], np.ndarray] = {(0, 0): np.zeros(len(rows), dtype=np.int64)}
    for di in range(span + 1):
        for dj in range(length + 1):
            if di or dj:
                fewest[(di, dj)] = _fewest_unchanged(grid, rows + di, columns + dj, fewest, di, dj)
    kept = fewest[(span, length)] <= limit
    if span == length == 1:  # a base edge is an arc whatever it holds
        kept |= edges_into(grid, rows + 1, columns + 1)[0] > 0
    return rows[kept], columns[kept], rows[kept] + span, columns[kept] + length, changing[kept]


def _fewest_unchanged(grid: EdgeGrid, rows: np.ndarray, columns: np.ndarray,
                      fewest: dict[tuple[int, int], np.ndarray], di: int, dj: int) -> np.ndarray:
    """Fewest unchanged tokens on a path from the box's corner to box cell (di, dj)."""
    diagonal, deletion, insertion, same = edges_into(grid, rows, columns)
    best = np.full(len(rows), _NO_PATH, dtype=np.int64)
    if di and dj:
        best = np.minimum(best, np.where(diagonal > 0, fewest[(di - 1, dj - 1)] + same, _NO_PATH))
    if di:
        best = np.minimum(best, np.where(deletion > 0, fewest[(di - 1, dj)], _NO_PATH))
    if dj:
        best = np.minimum(best, np.where(insertion > 0, fewest[(di, dj - 1)], _NO_PATH))
    return best


def _insertion_arcs(grid: EdgeGrid, row: int, edits: list[GoldEdit], hypothesis: list[str],
                    hypothesis_ids: np.ndarray, vocabulary: dict[str, int]):
    """The insertion arcs at source position ``row`` that the official's walk weighs as gold."""
    walk = _InsertionWalk(grid, row)
    for edit in edits:
        walk.add_gold(edit, hypothesis_ids, vocabulary)
    pairs = walk.run()
    first = np.array([pair[0] for pair in pairs], dtype=np.int64)
    last = np.array([pair[1] for pair in pairs], dtype=np.int64)
    rows = np.full(len(pairs), row, dtype=np.int64)
    return rows, first, rows, last, np.ones(len(pairs), dtype=bool)


def _row_insertions(grid: EdgeGrid, row: int) -> tuple[np.ndarray, np.ndarray]:
    """Insertion edges (row, j) -> (row, j + 1) of the lattice: the j, ascending, and copies."""
    if grid.transposed:  # insertion edges are down edges of the grid, one per line
        lines = np.arange(1, grid.lines)
        positions = row - lines - grid.low
        inside = (positions >= 0) & (positions < grid.width)
        lines, positions = lines[inside], positions[inside]
        copies = grid.down[lines, positions]
        present = copies > 0
        return lines[present] - 1, copies[present].astype(np.int64)
    copies = grid.right[row]
    positions = np.flatnonzero(copies)
    return row + grid.low + positions - 1, copies[positions].astype(np.int64)


class _InsertionWalk:
    """The official's two-pointer walk over the insertion arcs of one source position.

    The arcs (j0, j1) (hypothesis tokens j0..j1 inserted) are all pairs of a run of insertion
    edges, sorted, an arc of one edge listed once per copy; arc number ``position`` is found
    from the arcs starting at each j0 (``first_position``). The walk looks at the arc at its
    left end, then (no match) at its right end, and so on; a match narrows the gold edits
    left and moves that end past the arcs that cannot follow. Runs of non-matching arcs are
    jumped over: each side's next matching arc is found from the gold edits' matching arcs.
    """

    def __init__(self, grid: EdgeGrid, row: int) -> None:
        self.starts, self.copies = _row_insertions(grid, row)
        starts = self.starts
        gap = np.ones(len(starts), dtype=bool)
        gap[1:] = starts[1:] != starts[:-1] + 1
        next_gap = np.append(np.flatnonzero(gap)[1:], len(starts))
        run_of = np.cumsum(gap) - 1
        self.run_end = starts[next_gap[run_of] - 1] + 1  # last vertex of each start's run
        sizes = (self.run_end - starts) + (self.copies - 1)
        self.first_position = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        self.total = int(self.first_position[-1])
        self.gold_positions: list[list[int]] = []
        self.gold_sets: list[set[int]] = []

    def add_gold(self, edit: GoldEdit, hypothesis_ids: np.ndarray, vocabulary: dict[str, int]) -> None:
        """Record the arc positions a gold insertion matches (in the walk's order of golds)."""
        positions: list[np.ndarray] = []
        for tokens in edit.token_corrections():
            if not tokens or any(token not in vocabulary for token in tokens):
                continue
            index = np.flatnonzero(self.run_end - self.starts >= len(tokens))
            for offset, token in enumerate(tokens):
                index = index[hypothesis_ids[self.starts[index] + offset] == vocabulary[token]]
            base = self.first_position[index]
            if len(tokens) == 1:  # an insertion edge, listed once per copy
                positions.append(base)
                positions.append((base + 1)[self.copies[index] > 1])
            else:
                positions.append(base + self.copies[index] - 1 + len(tokens) - 1)
        merged = np.unique(np.concatenate(positions)) if positions else _NONE
        self.gold_positions.append(merged.tolist())
        self.gold_sets.append(set(self.gold_positions[-1]))

    def arc(self, position: int) -> tuple[int, int]:
        """The arc (j0, j1) at a position of the sorted list."""
        index = int(np.searchsorted(self.first_position, position, side="right")) - 1
        offset = position - int(self.first_position[index])
        j0 = int(self.starts[index])
        return j0, j0 + 1 + max(0, offset - (int(self.copies[index]) - 1))

    def run(self) -> list[tuple[int, int]]:
        """Replay the walk; the arcs weighed as gold."""
        matched: list[tuple[int, int]] = []
        state = _WalkState(0, self.total - 1, 0, 0, len(self.gold_sets) - 1)
        while state.left <= state.right and state.gold_left <= state.gold_right:
            next_left, next_right = self._next_matches(state)
            if next_left is None:
                break
            self._jump(state, next_left, next_right)
            self._step(state, matched)
        return matched

    def _next_matches(self, state: "_WalkState") -> tuple[int | None, int]:
        """Positions of the next matching arc from the left end and from the right end."""
        lowest, highest = None, -1
        for gold in range(state.gold_left, state.gold_right + 1):
            positions = self.gold_positions[gold]
            at = bisect_left(positions, state.left)
            if at < len(positions) and positions[at] <= state.right:
                lowest = positions[at] if lowest is None else min(lowest, positions[at])
                highest = max(highest, positions[bisect_right(positions, state.right) - 1])
        return lowest, highest

    @staticmethod
    def _jump(state: "_WalkState", next_left: int, next_right: int) -> None:
        """Skip pairs of non-matching visits (one at each end) before the next match."""
        pairs = min(next_left - state.left, state.right - next_right, (state.right - state.left) // 2)
        if pairs > 0:
            at_left = state.current == state.left
            state.left += pairs
            state.right -= pairs
            state.current = state.left if at_left else state.right

    def _step(self, state: "_WalkState", matched: list[tuple[int, int]]) -> None:
        """One visit of the walk, exactly as the official makes it."""
        at_left = state.current == state.left
        golds = (range(state.gold_left, state.gold_right + 1) if at_left
                 else range(state.gold_right, state.gold_left - 1, -1))
        gold = next((g for g in golds if state.current in self.gold_sets[g]), None)
        if gold is None:
            if at_left:
                state.left += 1
                state.current = state.right
            else:
                state.right -= 1
                state.current = state.left
            return
        j0, j1 = self.arc(state.current)
        matched.append((j0, j1))
        if at_left:
            state.gold_left = gold + 1
            state.left = self._first_arc_from(j1)
            state.current = state.left
        else:
            state.gold_right = gold - 1
            state.right = self._last_arc_into(j0)
            state.current = state.right

    def _first_arc_from(self, j: int) -> int:
        """Position of the first arc starting at j (past the end when none does)."""
        index = int(np.searchsorted(self.starts, j))
        if index < len(self.starts) and self.starts[index] == j:
            return int(self.first_position[index])
        return self.total

    def _last_arc_into(self, j: int) -> int:
        """Position of the last arc ending at j (-1 when none does): the last copy of (j - 1, j)."""
        index = int(np.searchsorted(self.starts, j - 1))
        if index < len(self.starts) and self.starts[index] == j - 1:
            return int(self.first_position[index] + self.copies[index] - 1)
        return -1


@dataclass
class _WalkState:
    left: int
    right: int
    current: int
    gold_left: int
    gold_right: int


def _to_grid(grid: EdgeGrid, found: list) -> GoldArcs:
    """Arcs given as original (i0, j0, i1, j1, changing) arrays, in grid coordinates."""
    if not found:
        return GoldArcs(_NONE, _NONE, _NONE, _NONE, np.zeros(0, dtype=bool))
    i0, j0, i1, j1, changing = (np.concatenate([part[k] for part in found]) for k in range(5))
    if grid.transposed:
        i0, j0, i1, j1 = j0, i0, j1, i1
    return GoldArcs(i0, j0 - i0 - grid.low, i1, j1 - i1 - grid.low, changing.astype(bool))
