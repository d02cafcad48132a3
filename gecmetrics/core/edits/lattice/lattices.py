"""The two kinds of edit lattice: with every transitive arc (exact search) or base edges only
(compact search). Vertices are alignment points ``(i, j)`` (``i`` source and ``j`` hypothesis
tokens consumed), numbered ``i * (m + 1) + j``: numeric order is a topological order."""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import ClassVar
from functools import cached_property

import numpy as np

from .edits import GoldEdit, SystemEdit
from .grid import EdgeGrid, grid_to_copies
from .transitive import Arc

NOOP, SUB, DEL, INS = 0, 1, 2, 3
"""Edit kinds of base edges."""


class LatticeMode(enum.Enum):
    """How a lattice is searched."""

    EXACT = "exact"
    """Every transitive arc is built: the official's own path, ties included."""
    COMPACT = "compact"
    """Base edges only (a long or diverging sentence): an optimal path, ties broken our way."""
    SPLIT = "split"
    """Two long, similar texts cut at runs both share: each piece exact or compact."""


@dataclass
class EditLattice:
    """What both kinds of lattice share: the sentence pair and the vertex numbering."""

    source: list[str]
    hypothesis: list[str]
    max_unchanged_words: int
    width: int
    """m + 1: vertex (i, j) is numbered i * width + j."""

    mode: ClassVar[LatticeMode]
    """How this kind of lattice is searched (set by each kind)."""

    def coordinates(self, vertex: int) -> tuple[int, int]:
        return divmod(vertex, self.width)

    def edge_kind(self, u: int, w: int) -> int:
        """Kind of the base edge u -> w (by geometry)."""
        (i0, j0), (i1, j1) = self.coordinates(u), self.coordinates(w)
        if i1 == i0:
            return INS
        if j1 == j0:
            return DEL
        return NOOP if self.source[i0] == self.hypothesis[j0] else SUB

    def edit_of(self, u: int, w: int) -> SystemEdit:
        """The edit an arc u -> w stands for: source span and both texts."""
        (i0, j0), (i1, j1) = self.coordinates(u), self.coordinates(w)
        return SystemEdit(i0, i1, " ".join(self.source[i0:i1]), " ".join(self.hypothesis[j0:j1]))


@dataclass
class SearchCache:
    """Best-path results of one exact lattice, shared by its annotators.

    A relaxation step (pass, list position) is one integer ``pass * step_scale + position``,
    so comparing steps is comparing integers. The search with default weights (no gold edit
    matched) is kept: an annotator whose gold edits change no weight gets its path, and the
    others restart it from the first vertex they affect.
    """

    step_scale: int
    default_search: tuple[dict[int, float], dict[int, list[tuple[int, float]]], dict[int, int]] | None = None
    """Distances, value histories ((step, value) of each decrease) and predecessors."""
    paths: dict[tuple[GoldEdit, ...], list[SystemEdit]] = field(default_factory=dict)
    """Edit sequences found so far, by gold edit list (annotators often agree)."""


@dataclass
class ExactLattice(EditLattice):
    """A lattice with every arc the official builds, in its list order (see ``transitive``)."""

    vertices: list[int]
    base_copies: dict[tuple[int, int], int]
    """Base edges (u, w) with the number of cost schemes that have them (1 or 2)."""
    arcs_into: dict[int, dict[int, Arc]]
    """Per target vertex, its arcs by source vertex."""
    arc_count: int
    """Number of arcs in the official's list (copies counted): its large negative weight."""
    cache: SearchCache

    mode = LatticeMode.EXACT


@dataclass
class CompactLattice(EditLattice):
    """A lattice kept as base edges in arrays; transitive arcs are never materialised."""

    grid: EdgeGrid
    search_cache: dict = field(default_factory=dict, repr=False, compare=False)
    """What every annotator's search of this lattice shares (filled by the compact search)."""

    mode = LatticeMode.COMPACT
    arcs_into = None
    """No transitive arcs (kept for callers that tested ``arcs_into is None``)."""

    @cached_property
    def hypothesis_ids(self) -> tuple[np.ndarray, dict[str, int]]:
        """The hypothesis tokens as integer ids, and the id of each token (shared by annotators)."""
        vocabulary: dict[str, int] = {}
        ids = np.array([vocabulary.setdefault(token, len(vocabulary)) for token in self.hypothesis], dtype=np.int64)
        return ids, vocabulary

    @property
    def base_copies(self) -> dict[tuple[int, int], int]:
        """The base edges as a dict (u, w) -> copies (built on demand; for tests and tools)."""
        return grid_to_copies(self.grid)[0]

    @property
    def vertices(self) -> list[int]:
        """The sorted vertex numbers (built on demand)."""
        return grid_to_copies(self.grid)[1]


@dataclass
class SplitLattice(EditLattice):
    """Two long, similar texts cut in the middle of runs of tokens both share (see ``split``)."""

    pieces: list[tuple[int, int, EditLattice]]
    """(source offset, hypothesis offset, lattice of the piece), left to right."""

    mode = LatticeMode.SPLIT
    arcs_into = None
