"""The edit lattice of the MaxMatch (M2) scorer and its best path (SPEC 4.4).

Vertices are alignment points ``(i, j)``: ``i`` source tokens and ``j`` hypothesis tokens
consumed, numbered ``i * (m + 1) + j`` so that numeric order is the lexicographic order of
``(i, j)``, a topological order of the lattice (every arc goes to a larger vertex).

The lattice holds the edges of every minimum-cost alignment under two cost schemes
(substitution 1 and substitution 2; insertion and deletion 1), then "transitive" arcs: a path
extended edge by edge while it holds at most ``max_unchanged_words`` unchanged tokens becomes
one arc (one multi-token edit). Arcs are weighted per annotator (a gold edit: a large negative
weight; any other changing arc: its length plus 0.001 per copy) and the best edit sequence is
the shortest path.

The modules, by role:

* :mod:`.alignment` — the base edges (minimum-cost alignments), in pure Python for ordinary
  sentences and with NumPy over a band of cells (:mod:`.grid`) for long ones;
* :mod:`.transitive` — the transitive arcs as the official's closure discovers them;
* :mod:`.exact` — the official's Bellman-Ford result in one topological pass (ties included);
* :mod:`.compact` and :mod:`.gold_arcs` — an optimal path without materialising transitive
  arcs, linear in alignment cells, for sentences whose arcs would be too many;
* :mod:`.split` — two long, similar texts cut into pieces at runs of tokens both share;
* :mod:`.build` — which of these a sentence pair gets (:class:`LatticeMode`).
"""
from __future__ import annotations

from typing import Sequence

from .alignment import MAX_GRID_CELLS, AlignmentTooLarge
from .build import DEFAULT_ARC_BUDGET, build_lattice
from .compact import compact_path
from .edits import EPSILON, GoldEdit, SystemEdit, match_in_order, matched_gold
from .exact import exact_best_path
from .gold_arcs import find_gold_arcs
from .grid import grid_from_copies
from .lattices import CompactLattice, EditLattice, ExactLattice, LatticeMode, SplitLattice
from .split import search_pieces
from .transitive import remove_no_change_arcs as _remove_no_change_arcs  # noqa: F401 (tests replay it)


def best_edit_sequence(lattice: EditLattice, gold: Sequence[GoldEdit]) -> list[SystemEdit]:
    """The system's edits chosen against one annotator's gold edits (left to right): the
    official's own path for an exact lattice, an optimal path for a compact one, the pieces'
    paths for a split one."""
    if isinstance(lattice, ExactLattice):
        return exact_best_path(lattice, gold)
    if isinstance(lattice, CompactLattice):
        return compact_best_path(lattice, gold)
    if isinstance(lattice, SplitLattice):
        return search_pieces(lattice.pieces, len(lattice.source), gold, best_edit_sequence)
    raise TypeError(f"expected an ExactLattice or a CompactLattice, got {type(lattice).__name__}")


def compact_best_path(lattice: EditLattice, gold: Sequence[GoldEdit]) -> list[SystemEdit]:
    """The best edit sequence found by the compact search (also on an exact lattice, whose base
    edges it then takes): an optimal path, ties broken our way (see :mod:`.compact`)."""
    if isinstance(lattice, ExactLattice):
        grid = grid_from_copies(lattice.source, lattice.hypothesis, lattice.base_copies, lattice.vertices)
        lattice = CompactLattice(lattice.source, lattice.hypothesis, lattice.max_unchanged_words, lattice.width, grid)
    if not isinstance(lattice, CompactLattice):
        raise TypeError(f"expected an edit lattice, got {type(lattice).__name__}")
    return compact_path(lattice, find_gold_arcs(lattice, gold))


__all__ = ["AlignmentTooLarge", "CompactLattice", "DEFAULT_ARC_BUDGET", "EPSILON", "EditLattice", "ExactLattice",
           "GoldEdit", "LatticeMode", "MAX_GRID_CELLS", "SplitLattice", "SystemEdit",
           "best_edit_sequence", "build_lattice", "compact_best_path", "match_in_order", "matched_gold"]
