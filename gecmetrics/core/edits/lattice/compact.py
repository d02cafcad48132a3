"""Compact search: an optimal path without materialising transitive arcs.

Used for sentences whose lattice would hold too many arcs (a hypothesis far from its source, a
long hypothesis line, a long gold sentence). A transitive arc is a path of base edges holding at
most ``max_unchanged_words`` unchanged tokens and something changed; it weighs its length plus
0.001. So the search walks base edges with a small state per cell:

* *closed*: no arc open (the path may continue with a base edge or start an arc);
* *open (u, a)*: inside an arc that holds ``u`` unchanged tokens so far, ``a`` when all its
  tokens so far are unchanged (such an arc may not end: it would change nothing).

Weights are exact integers in thousandths: a base edge 1000 (+ its copies when it is a changing
edge used alone), an arc 1000 per edge + 1, a gold arc :func:`gold_weight` (below any path's
positive part, so the path maximises gold matches first, then minimises its length and its
number of edits, as the official's weights do).

The cells are processed one grid *line* at a time (:mod:`.grid`), each line with a fixed number
of NumPy operations, so the cost is linear in cells with a small constant and no Python loop
per cell. Within a line, states flow left to right along ``right`` edges; staying in an open
arc costs exactly 1000 per edge, so every such flow is a running minimum of ``value - 1000 *
position`` over a run of consecutive ``right`` edges (:func:`running_min`). Gold arcs within
one line (in-line gold arcs: gold insertions when lines run along the hypothesis, gold
deletions when they run along the source) are applied in target order with a point query each.

Where it may differ from the official's path: ties between equal-cost paths are broken by a
fixed preference (diagonal, then down, then right edge; a closed state before open ones;
nearer the start of a run of right edges), not by the official's arc list order; and two of
the official's weights are not modelled: an arc its closure shortens is listed (and weighs
0.001) once more per shortening, and its insertion walk adds 0.001 to the arcs it skips. Nor
is the closure's choice: it keeps the first shortest path of each vertex pair, so an equally
short path with fewer unchanged tokens (which this search allows) may have no arc there; and
the official's float sums can break a tie that these integer weights see. Apart from these
the path costs what the official's does in its own weights, and the counts are the same unless
a gold edit that changes nothing ties with a real one (tests/test_lattice.py checks this; on
random adversarial pairs 0.4% of counts differ overall, on the long and garbage lines of
tests/data none).
"""
from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

import numpy as np

from .edits import SystemEdit
from .gold_arcs import GoldArcs
from .grid import EdgeGrid
from .lattices import CompactLattice

STEP = 1000
"""Weight of a base edge, in thousandths."""
INFINITE = np.int64(1 << 62)
"""Value of an unreachable state (``>= REACHABLE`` means unreachable)."""
REACHABLE = np.int64(1 << 61)
CELL = np.int32
"""Arc starts are cell numbers line * width + position, below 2**31 (the aligner's cell budget)."""


def gold_weight(grid: EdgeGrid) -> int:
    """Weight of a gold arc: more negative than any path's positive part can differ (each base
    edge weighs at most 1002 and each arc adds at most 1), so gold matches come first."""
    return -(1003 * (grid.source_length + grid.hypothesis_length) + 1003)


@dataclass
class _States:
    """Values and arc starts (cell numbers) of the states of the cells of one line.

    ``closed*`` have shape (width,); ``free*`` and ``held*`` (open arcs, ``a`` false and true)
    have shape (limit + 1, width), row u for u unchanged tokens (``held[0]`` is never reached).
    Rows from ``live`` on are unreachable everywhere (they are skipped). Once the line is final,
    ``best`` is the cheaper of free and held per row and ``any_open`` the cheapest row.
    """

    closed: np.ndarray
    closed_start: np.ndarray
    closed_changing: np.ndarray
    free: np.ndarray
    free_start: np.ndarray
    held: np.ndarray
    held_start: np.ndarray
    live: int = 0
    best: np.ndarray | None = None
    best_start: np.ndarray | None = None
    any_open: np.ndarray | None = None
    any_open_start: np.ndarray | None = None

    @classmethod
    def unreached(cls, rows: int, width: int) -> "_States":
        return cls(np.full(width, INFINITE), np.full(width, -1, dtype=CELL), np.zeros(width, dtype=bool),
                   np.full((rows, width), INFINITE), np.full((rows, width), -1, dtype=CELL),
                   np.full((rows, width), INFINITE), np.full((rows, width), -1, dtype=CELL))

    def finish(self) -> None:
        """The per-row best open arc and the best open arc of each cell (for the next line)."""
        live = self.live
        self.best, self.best_start = _pick_pair(self.free[:live], self.free_start[:live], self.held[:live],
                                                self.held_start[:live])
        self.any_open, self.any_open_start = _pick_first_row(self.best, self.best_start)


def compact_path(lattice: CompactLattice, gold_arcs: GoldArcs) -> list[SystemEdit]:
    """The edits of an optimal path of a compact lattice given its gold arcs (left to right)."""
    grid = lattice.grid
    summary = lattice.search_cache.get("lines")
    if summary is None:
        summary = lattice.search_cache["lines"] = _LineSummary(grid)
    search = _LineSearch(grid, lattice.max_unchanged_words, gold_arcs, summary)
    for line in range(grid.lines):
        search.process(line)
    return search.edits(lattice)


class _LineSearch:
    """The forward pass, one line at a time; keeps each cell's closed-state arc start."""

    def __init__(self, grid: EdgeGrid, limit: int, gold_arcs: GoldArcs, summary: "_LineSummary") -> None:
        self.grid = grid
        self.summary = summary
        self.limit = limit
        self.gold = gold_arcs
        self.gold_value = gold_weight(grid)
        self.width = grid.width
        self.positions = np.arange(self.width, dtype=np.int64)
        self.cell_positions = np.arange(self.width, dtype=CELL)
        self.ramp = STEP * self.positions
        self.closed_start = np.full((grid.lines, self.width), -1, dtype=CELL)
        self.closed_changing = np.zeros((grid.lines, self.width), dtype=bool)
        self.source_values = np.full(len(gold_arcs.source_line), INFINITE, dtype=np.int64)
        self.previous: _States | None = None

    def process(self, line: int) -> None:
        """Final states of one line, from the line above and along the line."""
        if self.previous is None:
            intro = _States.unreached(self.limit + 1, self.width)
            intro.closed[-self.grid.low] = 0  # the first cell
        else:
            intro = self._from_line_above(line, self.previous)
        self._add_gold_from_lines_above(line, intro)
        states = self._along_line(line, intro)
        states.finish()
        self.closed_start[line] = states.closed_start
        self.closed_changing[line] = states.closed_changing
        sources = self.gold.sources_in_line(line)
        self.source_values[sources] = states.closed[self.gold.source_position[sources]]
        self.previous = states

    def edits(self, lattice: CompactLattice) -> list[SystemEdit]:
        """The changing arcs of the path to the last cell, from the closed-state arc starts."""
        grid = self.grid
        width_original = len(lattice.hypothesis) + 1
        cell = (grid.lines - 1) * self.width + grid.end_position()
        starts, changing = self.closed_start.ravel(), self.closed_changing.ravel()
        found = []
        while starts[cell] >= 0:
            start = int(starts[cell])
            if changing[cell]:
                i0, j0 = grid.point(*divmod(start, self.width))
                i1, j1 = grid.point(*divmod(cell, self.width))
                found.append(lattice.edit_of(i0 * width_original + j0, i1 * width_original + j1))
            cell = start
        found.reverse()
        return found

    def _from_line_above(self, line: int, above: _States) -> _States:
        """States entering each cell of ``line`` by a diagonal or down edge."""
        grid = self.grid
        edges = _LineEdges(grid, line, self.summary)
        cells = CELL((line - 1) * self.width) + self.cell_positions
        states = _States.unreached(self.limit + 1, self.width)
        self._closed_from_above(states, above, edges, cells)
        self._open_from_above(states, above, edges, cells)
        states.live = edges.live_rows(above.live, self.limit)
        return states

    def _closed_from_above(self, states: _States, above: _States, edges: "_LineEdges", cells: np.ndarray) -> None:
        """Closed state: a base edge from a closed cell, or the end of an open arc (diagonal
        edge before down edge, closed source before open ones)."""
        target = _Target(states.closed, states.closed_start, states.closed_changing)
        if edges.any_diagonal:
            cost = np.where(edges.same, STEP, STEP + edges.diagonal.astype(np.int64))
            target.offer(edges.diagonal > 0, above.closed + cost, cells, ~edges.same)
        if above.live and edges.any_substitution:
            target.offer(edges.substitution, above.any_open + STEP + 1, above.any_open_start, True)
        unchanged_rows = min(above.live, self.limit)  # an arc may take one more unchanged token
        if unchanged_rows and edges.any_same:
            free, free_start = _pick_first_row(above.free[:unchanged_rows], above.free_start[:unchanged_rows])
            target.offer(edges.same, free + STEP + 1, free_start, True)
        if edges.any_down:  # the down edge into p comes from p + 1 above
            target = target.before_last()
            down = edges.down[:-1]
            target.offer(down > 0, above.closed[1:] + STEP + down.astype(np.int64), cells[1:], True)
            if above.live:
                target.offer(down > 0, above.any_open[1:] + STEP + 1, above.any_open_start[1:], True)

    def _open_from_above(self, states: _States, above: _States, edges: "_LineEdges", cells: np.ndarray) -> None:
        """Open states: an arc starts at the cell above, or one open above goes on."""
        free, held, live = _Target(states.free, states.free_start), _Target(states.held, states.held_start), above.live
        if edges.any_substitution:
            free.offer_rows(0, edges.substitution, (above.closed + STEP)[None], cells[None])
            if live:
                free.offer_rows(0, edges.substitution, above.best + STEP, above.best_start)
        unchanged_rows = min(live, self.limit)
        if edges.any_same and self.limit:
            if unchanged_rows:
                free.offer_rows(1, edges.same, above.free[:unchanged_rows] + STEP, above.free_start[:unchanged_rows])
            held.offer_rows(1, edges.same, (above.closed + STEP)[None], cells[None])
            if unchanged_rows > 1:
                held.offer_rows(2, edges.same, above.held[1:unchanged_rows] + STEP, above.held_start[1:unchanged_rows])
        if edges.any_down:  # the down edge into p comes from p + 1 above
            free, down = free.before_last(), edges.down[:-1] > 0
            free.offer_rows(0, down, (above.closed[1:] + STEP)[None], cells[None, 1:])
            if live:
                free.offer_rows(0, down, above.best[:, 1:] + STEP, above.best_start[:, 1:])

    def _add_gold_from_lines_above(self, line: int, intro: _States) -> None:
        """Gold arcs into this line from lines above (their sources' closed values are final):
        per target cell the cheapest (the first listed at equal cost), if cheaper than what entered."""
        arcs = self.gold.crossing_into(line)
        if len(arcs) == 0:
            return
        values = self.source_values[arcs] + self.gold_value
        targets = self.gold.target_position[arcs]
        order = np.lexsort((np.arange(len(arcs)), values, targets))
        first = order[np.flatnonzero(np.diff(targets[order], prepend=-1))]
        arcs, values, targets = arcs[first], values[first], targets[first]
        better = (values < intro.closed[targets]) & (self.source_values[arcs] < REACHABLE)
        arcs, targets = arcs[better], targets[better]
        intro.closed[targets] = values[better]
        intro.closed_start[targets] = self.gold.source_cells(arcs, self.width)
        intro.closed_changing[targets] = self.gold.changing[arcs]

    def _along_line(self, line: int, intro: _States) -> _States:
        """Final states of a line: what entered from above, carried along runs of right edges."""
        if not self.summary.any_right[line]:
            return intro
        right = self.grid.right[line]
        runs = _Runs(right > 0, int(self.summary.runs[line]))
        cells = CELL(line * self.width) + self.cell_positions
        live = intro.live
        opened, opened_start = _pick_pair(intro.free[:live], intro.free_start[:live], intro.held[:live],
                                          intro.held_start[:live])
        any_open, any_open_start = _pick_first_row(opened, opened_start)
        inline = self.gold.inside(line)
        if len(inline):
            self._apply_inline_gold(intro, any_open, right, runs, cells, inline)
        self._closed_along(intro, any_open, any_open_start, right, runs, cells)
        if live > 1:  # u >= 1: an open arc goes on along right edges (free before held at equal cost)
            _carry(intro.free[1:live], intro.free_start[1:live], opened[1:] - self.ramp, opened_start[1:], runs,
                   self.ramp)
        # u = 0: an open arc goes on, or a new one starts at a closed cell
        first, first_start = _pick_pair(intro.free[0], intro.free_start[0], intro.closed, cells)
        _carry(intro.free[:1], intro.free_start[:1], (first - self.ramp)[None], first_start[None], runs, self.ramp)
        intro.live = max(live, 1)
        return intro

    def _open_equivalents(self, any_open: np.ndarray, any_open_start: np.ndarray, closed: np.ndarray,
                          runs: "_Runs", cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per position q, the cheapest open arc present at q (an open arc entering q, or an arc
        started at the closed cell q - 1 by the right edge into q), minus 1000 q, and its start."""
        from_left = np.where(runs.connected, _shift_right(closed) + STEP, INFINITE)
        best, best_start = _pick_pair(any_open, any_open_start, from_left, cells - 1)
        return best - self.ramp, best_start

    def _closed_along(self, intro: _States, any_open: np.ndarray, any_open_start: np.ndarray, right: np.ndarray,
                      runs: "_Runs", cells: np.ndarray) -> None:
        """Closed state along the line (in place): what entered, a right edge from the cell
        before (its entering closed state), or the end of an open arc carried along the run."""
        one_step = intro.closed[:-1] + STEP + right[1:].astype(np.int64)
        equivalents, equivalent_start = self._open_equivalents(any_open, any_open_start, intro.closed, runs, cells)
        carried, carried_start = running_min(equivalents[None], equivalent_start[None], runs)
        ends = carried[0, :-1] + self.ramp[1:] + 1
        target = _Target(intro.closed[1:], intro.closed_start[1:], intro.closed_changing[1:])
        connected = runs.connected[1:]
        target.offer(connected, one_step, cells[:-1], True)
        target.offer(connected, ends, carried_start[0, :-1], True)

    def _apply_inline_gold(self, intro: _States, any_open: np.ndarray, right: np.ndarray, runs: "_Runs",
                           cells: np.ndarray, inline: np.ndarray) -> None:
        """Gold arcs inside the line, in target order: each takes the closed value of its source
        (which earlier in-line gold arcs may have lowered) and may lower its target's entering
        closed value, which later positions of the run then see."""
        equivalents, _ = self._open_equivalents(any_open, cells, intro.closed, runs, cells)
        carried = running_min(equivalents[None], cells[None], runs)[0][0]
        updates: dict[int, tuple[list[int], list[int]]] = {}  # run -> positions, running minima
        closed = intro.closed
        for arc in inline.tolist():
            source, target = int(self.gold.source_position[arc]), int(self.gold.target_position[arc])
            value = _closed_at(source, closed, right, runs, carried, updates)
            if value >= REACHABLE or value + self.gold_value >= closed[target]:
                continue
            closed[target] = value + self.gold_value
            intro.closed_start[target] = cells[source]
            intro.closed_changing[target] = self.gold.changing[arc]
            if target + 1 < self.width and runs.connected[target + 1]:
                positions, minima = updates.setdefault(int(runs.index[target]), ([], []))
                equivalent = int(closed[target]) + STEP - STEP * (target + 1)
                positions.append(target + 1)
                minima.append(min(minima[-1], equivalent) if minima else equivalent)


def _closed_at(position: int, closed: np.ndarray, right: np.ndarray, runs: "_Runs", carried: np.ndarray,
               updates: dict[int, tuple[list[int], list[int]]]) -> int:
    """The final closed value at one position, as :meth:`_LineSearch._closed_along` will give
    it, with the in-line gold arcs applied so far (``updates``: their open equivalents)."""
    value = int(closed[position])
    if not runs.connected[position]:
        return value
    value = min(value, int(closed[position - 1]) + STEP + int(right[position]))
    open_value = int(carried[position - 1])
    positions, minima = updates.get(int(runs.index[position]), ((), ()))
    count = bisect_right(positions, position - 1)
    if count:
        open_value = min(open_value, minima[count - 1])
    if open_value < REACHABLE:
        value = min(value, open_value + STEP * position + 1)
    return value


class _LineSummary:
    """Which kinds of edge enter each line, and its number of runs of right edges (shared by
    the annotators' searches of one lattice)."""

    def __init__(self, grid: EdgeGrid) -> None:
        diagonal = grid.diagonal > 0
        self.any_diagonal = diagonal.any(axis=1).tolist()
        self.any_same = grid.same.any(axis=1).tolist()
        self.any_substitution = (diagonal & ~grid.same).any(axis=1).tolist()
        self.any_down = (grid.down > 0).any(axis=1).tolist()
        connected = grid.right > 0
        self.any_right = connected.any(axis=1).tolist()
        self.runs = (~connected).sum(axis=1).tolist()


class _LineEdges:
    """The edges entering one line from the line above, with which kinds occur at all."""

    def __init__(self, grid: EdgeGrid, line: int, summary: _LineSummary) -> None:
        self.diagonal, self.same, self.down = grid.diagonal[line], grid.same[line], grid.down[line]
        self.any_diagonal = summary.any_diagonal[line]
        self.any_same = summary.any_same[line]
        self.any_substitution = summary.any_substitution[line]
        self.any_down = summary.any_down[line]
        self.substitution = (self.diagonal > 0) & ~self.same if self.any_substitution else None

    def live_rows(self, live_above: int, limit: int) -> int:
        """Rows of open states that may be reached in this line (an upper bound): rows go on
        along changed edges, move one row down along unchanged ones, and new arcs start in
        row 0 (changed edge) or row 1 (unchanged edge)."""
        changed = self.any_substitution or self.any_down
        rows = max(live_above, 1) if changed else 0
        if self.any_same and limit:
            rows = max(rows, min(live_above, limit) + 1, 2)
        return min(rows, limit + 1)


class _Runs:
    """Runs of consecutive right edges of a line: ``connected[p]`` when the edge into p exists."""

    def __init__(self, connected: np.ndarray, count: int) -> None:
        self.connected = connected
        self.count = count
        self._index: np.ndarray | None = None

    @property
    def starts(self) -> np.ndarray:
        return ~self.connected

    @property
    def index(self) -> np.ndarray:
        """The run of each position (0, 1, ...)."""
        if self._index is None:
            self._index = np.cumsum(self.starts) - 1
        return self._index


class _Target:
    """A state being computed: offers replace it where strictly cheaper (earlier offers win ties)."""

    def __init__(self, values: np.ndarray, starts: np.ndarray, changing: np.ndarray | None = None) -> None:
        self.values, self.starts, self.changing = values, starts, changing

    def offer(self, allowed: np.ndarray, values: np.ndarray, starts: np.ndarray | int,
              changing: np.ndarray | bool | None = None) -> None:
        better = allowed & (values < self.values)  # an unreachable offer stays >= REACHABLE
        np.copyto(self.values, values, where=better)
        np.copyto(self.starts, starts, where=better)
        if self.changing is not None:
            np.copyto(self.changing, changing, where=better)

    def before_last(self) -> "_Target":
        """The same state without its last position (for offers shifted by one position)."""
        changing = None if self.changing is None else self.changing[..., :-1]
        return _Target(self.values[..., :-1], self.starts[..., :-1], changing)

    def offer_rows(self, first: int, allowed: np.ndarray, values: np.ndarray, starts: np.ndarray) -> None:
        """Offer rows ``first`` .. ``first + len(values) - 1``."""
        rows = slice(first, first + len(values))
        _Target(self.values[rows], self.starts[rows]).offer(allowed, values, starts)


def running_min(values: np.ndarray, starts: np.ndarray, runs: _Runs) -> tuple[np.ndarray, np.ndarray]:
    """Per row and position p, the minimum of ``values`` over p's run up to p, and the start
    stored with it (the first position holding the minimum wins ties).

    One ``minimum.accumulate`` per call: each run's values are lowered by a multiple of the
    value span larger than all earlier runs' values, so the running minimum restarts at each
    run; when that could overflow (huge spans and many runs) each run is scanned separately.
    """
    if runs.count == 1:
        minima, winner = _running_min_of(values, 0)
        return minima, _gather(starts, winner)
    reachable = values < REACHABLE
    low = values.min(where=reachable, initial=INFINITE)
    if low >= REACHABLE:
        return np.full(values.shape, INFINITE), starts.copy()
    span = values.max(where=reachable, initial=low) - low + 2
    if float(span) * runs.count >= 2.0 ** 62:
        minima, winner = _running_min_by_run(values, runs)
        return minima, _gather(starts, winner)
    offsets = runs.index * span + low
    minima, winner = _running_min_of(np.where(reachable, values - offsets, span - 1 - runs.index * span), 0)
    minima = minima + offsets
    minima[minima >= span - 1 + low] = INFINITE
    return minima, _gather(starts, winner)


def _gather(starts: np.ndarray, winner: np.ndarray) -> np.ndarray:
    """``starts[row, winner[row, p]]`` for every row and position."""
    if len(starts) == 1:
        return starts[0][winner[0]][None]
    return np.take_along_axis(starts, winner, axis=1)


def _running_min_of(values: np.ndarray, first: int) -> tuple[np.ndarray, np.ndarray]:
    """Running minimum along each row and the position (from ``first``) where it was first reached."""
    minima = np.minimum.accumulate(values, axis=1)
    improves = np.empty(values.shape, dtype=bool)
    improves[:, 0] = True
    np.less(values[:, 1:], minima[:, :-1], out=improves[:, 1:])
    positions = np.arange(first, first + values.shape[1])
    return minima, np.maximum.accumulate(np.where(improves, positions, first), axis=1)


def _running_min_by_run(values: np.ndarray, runs: _Runs) -> tuple[np.ndarray, np.ndarray]:
    """:func:`running_min` one run at a time (when one pass could overflow)."""
    minima = np.empty_like(values)
    winner = np.empty(values.shape, dtype=np.int64)
    bounds = np.flatnonzero(runs.starts).tolist() + [values.shape[1]]
    for first, stop in zip(bounds, bounds[1:]):
        minima[:, first:stop], winner[:, first:stop] = _running_min_of(values[:, first:stop], first)
    return minima, winner


def _carry(values: np.ndarray, starts: np.ndarray, normalized: np.ndarray, normalized_start: np.ndarray,
           runs: _Runs, ramp: np.ndarray) -> None:
    """Lower open states (rows) with arcs carried along right edges: the value at q minus
    1000 q (``normalized``) reaches p > q in the same run at that plus 1000 p."""
    carried, carried_start = running_min(normalized, normalized_start, runs)
    arriving = carried[:, :-1] + ramp[1:]
    _Target(values[:, 1:], starts[:, 1:]).offer(runs.connected[1:], arriving, carried_start[:, :-1])


def _pick_pair(first: np.ndarray, first_start: np.ndarray, second: np.ndarray,
               second_start: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Elementwise the cheaper of two candidates (the first at equal cost)."""
    better = second < first
    return np.where(better, second, first), np.where(better, second_start, first_start)


def _pick_first_row(values: np.ndarray, starts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per column, the cheapest row (the first at equal cost); unreachable when there is no row."""
    if len(values) == 0:
        return np.full(values.shape[1], INFINITE), np.full(values.shape[1], -1, dtype=CELL)
    if len(values) == 1:
        return values[0], starts[0]
    best, best_start = values[0].copy(), starts[0].copy()
    for row in range(1, len(values)):
        better = values[row] < best
        np.copyto(best, values[row], where=better)
        np.copyto(best_start, starts[row], where=better)
    return best, best_start


def _shift_right(values: np.ndarray) -> np.ndarray:
    """``values[p - 1]`` at p (the cell before a right edge), unreachable at position 0."""
    shifted = np.empty_like(values)
    shifted[..., 1:] = values[..., :-1]
    shifted[..., 0] = INFINITE
    return shifted
