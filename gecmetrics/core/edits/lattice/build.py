"""Building a lattice: its base edges, then either every transitive arc (exact search) or none
(compact search, for sentences whose arcs would be too many), or pieces of two long texts."""
from __future__ import annotations

from typing import Sequence

from .alignment import MAX_GRID_CELLS, AlignmentTooLarge, min_cost_edges, min_cost_grid
from .grid import EdgeGrid, grid_from_copies, grid_to_copies
from .lattices import CompactLattice, EditLattice, ExactLattice, SearchCache, SplitLattice
from .split import SPLIT_FROM, cut_points
from .transitive import ArcBudgetExceeded, transitive_arcs

DEFAULT_ARC_BUDGET = 60_000
"""Transitive arcs enumerated exactly before switching to the compact search (the largest
CoNLL-2014 sentence, deleted whole, needs 26,105)."""

PYTHON_ALIGNMENT_CELLS = 60_000
"""Alignment cells ((n + 1) * (m + 1)) up to which the pure-Python aligner is used (faster on
ordinary sentences). Longer pairs use it too while its band stays within this many cells and
its tables (which span every cell) within PYTHON_TABLE_CELLS; the others are aligned with
NumPy, one line at a time."""

MAX_OPEN_STATES = 5_000_000
"""Open-edit states the compact search keeps per grid line, (unchanged tokens an edit may hold +
1) x line width, about 50 bytes each: 250 MB. The default max_unchanged_words (2) reaches it
with a 1.6-million-token line only; a large one (1000) is cut to the sentence's length first
(no edit can hold more), so it matters only for two long texts."""

PYTHON_TABLE_CELLS = 1_000_000
"""Largest (n + 1) * (m + 1) the pure-Python aligner's tables may span."""


def build_lattice(source: Sequence[str], hypothesis: Sequence[str], max_unchanged_words: int = 2,
                  arc_budget: int = DEFAULT_ARC_BUDGET, max_cells: int = MAX_GRID_CELLS) -> EditLattice:
    """The lattice of one (source, hypothesis) pair: union of the minimum-cost alignments of
    both cost schemes, then the transitive arcs in the official's discovery order
    (:class:`ExactLattice`), or base edges only when the arcs would exceed ``arc_budget``
    (:class:`CompactLattice`); two long, similar texts are cut into pieces
    at runs of tokens both share (:class:`SplitLattice`, see ``split``). Raises
    :class:`~.alignment.AlignmentTooLarge` when aligning would need more than ``max_cells``
    cells (two long and very different texts)."""
    source, hypothesis = list(source), list(hypothesis)
    n, m = len(source), len(hypothesis)
    # an arc holds at most min(n, m) unchanged tokens (each is a source token and a hypothesis
    # token): a larger bound allows nothing more, and would only widen the compact search
    max_unchanged_words = min(max_unchanged_words, n, m)
    aligned = _python_alignment(source, hypothesis)
    if aligned is None:
        if min(n, m) >= SPLIT_FROM:
            cuts = cut_points(source, hypothesis, max_unchanged_words)
            if cuts:
                return _split(source, hypothesis, max_unchanged_words, arc_budget, max_cells, cuts)
        grid = min_cost_grid(source, hypothesis, max_cells)
        # a long pair with more base edges than the arc budget would exceed it (each base edge
        # starts arcs); building the exact tables to find out would cost seconds
        if grid.edge_count() > arc_budget:
            return _compact(source, hypothesis, max_unchanged_words, grid)
        aligned = grid_to_copies(grid)
    copies, vertices = aligned
    # a wide lattice (diverging lines) is searched exactly while its arcs stay within the budget:
    # the compact search can choose another of the paths of equal cost, whose gold matches the
    # official counts on the path it takes (567 base edges of a 13-token line, 12,255 arcs: F0.5
    # 0.3571 for the m2scorer's 0.7143)
    try:
        arcs = transitive_arcs(source, hypothesis, copies, vertices, max_unchanged_words, arc_budget)
    except ArcBudgetExceeded:
        return _compact(source, hypothesis, max_unchanged_words, grid_from_copies(source, hypothesis, copies, vertices))
    return ExactLattice(source, hypothesis, max_unchanged_words, m + 1, vertices, copies, arcs.arcs_into,
                        arcs.arc_count, SearchCache(arcs.step_scale))


def _python_alignment(source: list[str], hypothesis: list[str]) -> tuple[dict[tuple[int, int], int], list[int]] | None:
    """The base edges from the pure-Python aligner when the pair is short, or long but similar
    (None: align with NumPy). Two texts of very different lengths (a garbage line) fill most of
    the table even in the narrowest band: NumPy is faster there from a few thousand cells."""
    n, m = len(source), len(hypothesis)
    cells = (n + 1) * (m + 1)
    narrowest_band = (min(n, m) + 1) * (abs(n - m) + 5)
    if cells > 4096 and 2 * narrowest_band > cells:
        return None
    if cells <= PYTHON_ALIGNMENT_CELLS:
        return min_cost_edges(source, hypothesis)
    if cells <= PYTHON_TABLE_CELLS:
        return min_cost_edges(source, hypothesis, PYTHON_ALIGNMENT_CELLS)
    return None


def _compact(source: list[str], hypothesis: list[str], max_unchanged_words: int, grid: EdgeGrid) -> CompactLattice:
    states = (max_unchanged_words + 1) * grid.width
    if states > MAX_OPEN_STATES:
        raise AlignmentTooLarge(f"a {len(hypothesis):,}-token hypothesis against a {len(source):,}-token sentence with "
                                f"max_unchanged_words={max_unchanged_words:,} needs {states:,} open-edit states per "
                                f"line, more than the bound of {MAX_OPEN_STATES:,} "
                                "(gecmetrics.core.edits.lattice.build.MAX_OPEN_STATES, about 250 MB)")
    return CompactLattice(source, hypothesis, max_unchanged_words, len(hypothesis) + 1, grid)


def _split(source: list[str], hypothesis: list[str], max_unchanged_words: int, arc_budget: int, max_cells: int,
           cuts: list[tuple[int, int]]) -> SplitLattice:
    """The lattices of the pieces between cut points."""
    points = [(0, 0), *cuts, (len(source), len(hypothesis))]
    pieces = [(i0, j0, build_lattice(source[i0:i1], hypothesis[j0:j1], max_unchanged_words, arc_budget, max_cells))
              for (i0, j0), (i1, j1) in zip(points, points[1:])]
    return SplitLattice(source, hypothesis, max_unchanged_words, len(hypothesis) + 1, pieces)
