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

The official scorer materializes every arc, then runs a Bellman-Ford search (cubic); the path
it returns among equal-cost paths depends on the order in which it relaxes arcs, and its
float sums depend on its large negative weight (the number of arcs). This module reproduces
that result exactly, with a cost linear in arcs: arcs are built in the order the official
discovers them, distances by one pass in topological order (the same float recurrence), and
the predecessor the official keeps by computing, for each vertex, the relaxation step at which
its final distance is first reached. When a sentence would need more than ``arc_budget`` arcs
(a hypothesis far from its source), :func:`best_edit_sequence` switches to a compact search
that never materializes arcs (see :func:`compact_best_path`).
"""
from __future__ import annotations

from bisect import bisect_left
from heapq import heappop, heappush
from dataclasses import dataclass, field
from typing import Sequence

EPSILON = 0.001
"""Weight the official scorer adds to a changing arc that matches no gold edit (per copy)."""

DEFAULT_ARC_BUDGET = 60_000
"""Transitive arcs enumerated exactly before switching to the compact search (the largest
CoNLL-2014 sentence, deleted whole, needs 26,105)."""

WIDE_LATTICE = 20
"""Base edges per token above which the compact search is used at once (CoNLL-2014: at most 5.6)."""

# Edit kinds of lattice edges and arcs.
NOOP, SUB, DEL, INS = 0, 1, 2, 3


@dataclass(frozen=True)
class SystemEdit:
    """One edit of the system: source span [start, end), original and corrected text."""

    start: int
    end: int
    original: str
    correction: str

    def as_tuple(self) -> tuple[int, int, str, str]:
        return (self.start, self.end, self.original, self.correction)


@dataclass(frozen=True)
class GoldEdit:
    """One gold edit of one annotator: span, original text and the accepted corrections."""

    start: int
    end: int
    original: str
    corrections: tuple[str, ...]

    def matches(self, edit: SystemEdit) -> bool:
        return (edit.start == self.start and edit.end == self.end and edit.original == self.original
                and edit.correction in self.corrections)


# An arc of the lattice (base edge of length 1 or transitive arc) is a list, the cheapest
# mutable record in the hot loops: [length, unchanged tokens, positions of its copies in the
# official's arc list (1-based, ascending), default weight]. It changes nothing when all its
# tokens are unchanged (unchanged == length).
LENGTH, UNCHANGED, POSITIONS, WEIGHT = 0, 1, 2, 3
Arc = list


class ArcBudgetExceeded(Exception):
    """Raised internally when the exact enumeration would build too many arcs."""


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


def _min_cost_edges(source: Sequence[str], hypothesis: Sequence[str]) -> tuple[dict[tuple[int, int], int], list[int]]:
    """Edges (u, w) of all minimum-cost alignments under both cost schemes, with the number of
    schemes that have each (1 or 2), and the sorted vertices they touch.

    The cost tables are filled in a band around the diagonal, widened until the cost found is
    within the band's bound (then no cell outside can be on a minimum-cost path; the cost
    with substitution 2 bounds the other): cost O((n + m) * distance) for similar sentences
    instead of O(n * m).
    """
    n, m = len(source), len(hypothesis)
    slack = 2
    while True:
        costs1, costs2 = _banded_costs(source, hypothesis, slack)
        bound = costs2[-1] - abs(n - m)
        if bound <= 2 * slack or slack >= n + m:
            break
        slack = max(slack + 1, (bound + 1) // 2)
    return _optimal_edges(costs1, costs2, source, hypothesis)


@dataclass
class EditLattice:
    """The lattice of one (source, hypothesis) pair, independent of the gold edits."""

    source: list[str]
    hypothesis: list[str]
    max_unchanged_words: int
    width: int
    vertices: list[int]
    base_copies: dict[tuple[int, int], int]
    arcs_into: dict[int, dict[int, Arc]] | None
    """Per target vertex, its arcs by source vertex (None in compact mode)."""
    arc_count: int
    """Number of arcs in the official's list (copies counted): its large negative weight."""
    cache: _SearchCache | None = None
    """Best-path results shared by the annotators (None in compact mode)."""

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


def build_lattice(source: Sequence[str], hypothesis: Sequence[str], max_unchanged_words: int = 2,
                  arc_budget: int = DEFAULT_ARC_BUDGET) -> EditLattice:
    """Build the lattice: union of the minimum-cost alignments of both cost schemes, then the
    transitive arcs in the official's discovery order (compact mode over ``arc_budget``)."""
    source, hypothesis = list(source), list(hypothesis)
    width = len(hypothesis) + 1
    copies, vertices = _min_cost_edges(source, hypothesis)
    lattice = EditLattice(source, hypothesis, max_unchanged_words, width, vertices, copies, None, 0)
    if len(copies) > WIDE_LATTICE * (len(source) + len(hypothesis) + 1):
        return lattice  # a wide lattice (diverging lines): its arcs would exceed any budget
    try:
        lattice.arcs_into, lattice.arc_count, step_scale = _transitive_arcs(lattice, arc_budget)
        lattice.cache = _SearchCache(step_scale)
    except ArcBudgetExceeded:
        lattice.arcs_into = None
        lattice.arc_count = 0
    return lattice


def _transitive_arcs(lattice: EditLattice, arc_budget: int) -> tuple[dict[int, dict[int, Arc]], int, int]:
    """All arcs, as the official's closure builds them, with the number of arcs in its list and
    a number above every list position.

    Its closure loops over an intermediate vertex k (in order), then over sources and targets;
    since every path from k only visits larger vertices, the arcs out of k are then still its
    base edges, so each new arc is an arc into k extended by one base edge of k, kept when it
    is shorter than the arc already there and holds at most ``max_unchanged_words`` unchanged
    tokens. Arcs are recorded with their positions in the official's arc list (base edges
    sorted, then transitive arcs in discovery order, a copy each time one is shortened), and
    the official's removal of transitive no-change arcs is replayed, including the element it
    skips after each removal (a list modified while iterated), which survives.
    """
    limit = lattice.max_unchanged_words
    source, hypothesis, width = lattice.source, lattice.hypothesis, lattice.width
    diagonal = width + 1
    copies = lattice.base_copies
    successors: dict[int, list[int]] = {}
    arcs_into: dict[int, dict[int, Arc]] = {v: {} for v in lattice.vertices}
    position = 1
    one_copy = _changing_weight(1, 1)
    for edge in sorted(copies):
        u, w = edge
        if w - u == diagonal and source[u // width] == hypothesis[u % width]:
            arc = [1, 1, [position], 1]
            if copies[edge] == 2:
                arc[2].append(position + 1)
                position += 2
            else:
                position += 1
        elif copies[edge] == 2:
            arc = [1, 0, [position, position + 1], _changing_weight(1, 2)]
            position += 2
        else:
            arc = [1, 0, [position], one_copy]
            position += 1
        arcs_into[w][u] = arc
        out = successors.get(u)
        if out is None:
            successors[u] = [w]
        else:
            out.append(w)
    first_transitive = position
    no_change: list[tuple[int, int, int, Arc]] = []
    """Writes of transitive arcs that left them changing nothing: (position, vi, vj, arc)."""
    for k in lattice.vertices:
        out = successors.get(k)
        if out is None:
            continue
        into_k = arcs_into[k]
        if not into_k:
            continue
        if len(out) == 1:
            vj = out[0]
            into_vj = arcs_into[vj]
            second_unchanged = into_vj[k][1]
            every = ((vj, into_vj, second_unchanged),)
            changing = every if second_unchanged == 0 else ()
        else:
            every, changing = [], []
            for vj in out:
                into_vj = arcs_into[vj]
                target = (vj, into_vj, into_vj[k][1])
                every.append(target)
                if target[2] == 0:
                    changing.append(target)
        for vi in sorted(into_k):
            first = into_k[vi]
            first_unchanged = first[1]
            if first_unchanged < limit:
                targets = every
            elif first_unchanged == limit:
                targets = changing  # an unchanged second token would exceed the limit
            else:
                continue
            length = first[0] + 1
            for vj, into_vj, second_unchanged in targets:
                existing = into_vj.get(vi)
                unchanged = first_unchanged + second_unchanged
                if existing is None:
                    if unchanged == length:
                        arc = into_vj[vi] = [length, unchanged, [position], length]
                        no_change.append((position, vi, vj, arc))
                    else:
                        into_vj[vi] = [length, unchanged, [position], length + EPSILON]
                elif existing[0] > length:
                    existing[0] = length
                    existing[1] = unchanged
                    existing[2].append(position)
                    if unchanged == length:
                        existing[3] = length
                        no_change.append((position, vi, vj, existing))
                    else:
                        existing[3] = _changing_weight(length, len(existing[2]))
                else:
                    continue
                position += 1
        if position - first_transitive > arc_budget:
            raise ArcBudgetExceeded
    removed = _remove_no_change_arcs(arcs_into, no_change)
    return arcs_into, position - 1 - removed, position


def _remove_no_change_arcs(arcs_into: dict[int, dict[int, Arc]], no_change: list[tuple[int, int, int, Arc]]) -> int:
    """Replay the official's removal of transitive no-change arcs; returns the copies removed.

    In list order, each copy of an arc that finally changes nothing is removed, except one
    right after a removed element (the official removes from the list it iterates). Usually
    every such arc has one copy, written as a no-change arc, so ``no_change`` (in position
    order) lists them all; otherwise all copies of those arcs are gathered and sorted.
    """
    removals = []
    for entry in no_change:
        arc = entry[3]
        if arc[1] == arc[0]:
            if len(arc[2]) != 1:
                break
            removals.append(entry)
    else:
        removed = 0
        last_removed = -2
        for copy_position, vi, vj, arc in removals:
            if copy_position == last_removed + 1:
                continue  # the element after a removed one is never examined
            last_removed = copy_position
            removed += 1
            del arcs_into[vj][vi]
        return removed
    removals = []
    seen: set[int] = set()
    for _, vi, vj, arc in no_change:
        if arc[1] == arc[0] and id(arc) not in seen:
            seen.add(id(arc))
            for copy_position in arc[2]:
                removals.append((copy_position, vi, vj, arc))
    removals.sort(key=_first_item)
    removed = 0
    last_removed = -2
    removed_copies: dict[int, int] = {}
    for copy_position, vi, vj, arc in removals:
        if copy_position == last_removed + 1:
            continue
        last_removed = copy_position
        removed += 1
        removed_copies[id(arc)] = removed_copies.get(id(arc), 0) + 1
    for copy_position, vi, vj, arc in removals:
        count = removed_copies.pop(id(arc), 0)
        if count:
            del arc[2][:count]  # list.remove drops the first copy
            if not arc[2]:
                del arcs_into[vj][vi]
    return removed


def _first_item(item: tuple) -> int:
    return item[0]


def _changing_weight(length: int, copies: int) -> float:
    """A changing arc matching no gold edit: its length plus EPSILON once per copy in the list
    (summed one by one in floating point, as the official does)."""
    weight: float = length
    for _ in range(copies):
        weight += EPSILON
    return weight


@dataclass
class _SearchCache:
    """Best-path results of one lattice, shared by its annotators.

    A relaxation step (pass, list position) is one integer ``pass * step_scale + position``,
    so comparing steps is comparing integers. The search with default weights (no gold edit
    matched) is kept: an annotator whose gold edits change no weight gets its path, and the
    others restart it from the first vertex they affect.
    """

    step_scale: int
    default_search: tuple[dict[int, float], dict[int, int], dict[int, int]] | None = None
    paths: dict[tuple[GoldEdit, ...], list[SystemEdit]] = field(default_factory=dict)
    """Edit sequences found so far, by gold edit list (annotators often agree)."""


def _span_arcs(lattice: EditLattice, start: int, end: int) -> list[tuple[int, int]]:
    """The arcs (v, w) covering source tokens [start, end), in vertex order."""
    assert lattice.arcs_into is not None
    width = lattice.width
    vertices = lattice.vertices
    low, high = start * width, (start + 1) * width
    keys = []
    first = bisect_left(vertices, end * width)
    last = bisect_left(vertices, (end + 1) * width)
    for w in vertices[first:last]:
        for v in lattice.arcs_into[w]:
            if low <= v < high:
                keys.append((v, w))
    keys.sort()
    return keys


def _gold_weights(lattice: EditLattice, gold: Sequence[GoldEdit]) -> dict[int, dict[int, float]]:
    """The arc weights one annotator's gold edits change, by target then source vertex.

    Gold-matching arcs weigh minus the number of arcs. Several insertions at one source
    position are matched by the official's two-pointer walk over the insertion arcs there
    (sorted), which keeps one gold insertion from matching arcs at several hypothesis
    positions; it is replayed here, with its side effects (EPSILON added to the arcs it skips,
    whose weight restarts from their length). Weights equal to the default are left out.
    """
    arcs_into = lattice.arcs_into
    assert arcs_into is not None
    large = -lattice.arc_count
    width, hypothesis = lattice.width, lattice.hypothesis
    gold_by_span: dict[tuple[int, int], list[GoldEdit]] = {}
    for edit in gold:
        gold_by_span.setdefault((edit.start, edit.end), []).append(edit)
    changed: dict[tuple[int, int], float] = {}
    for (start, end), candidates in gold_by_span.items():
        keys = _span_arcs(lattice, start, end)
        if not keys:
            continue
        if start == end:
            _weigh_insertions(lattice, keys, candidates, large, changed)
            continue
        # what GoldEdit.matches compares, for arcs that all cover [start, end)
        original = " ".join(lattice.source[start:end])
        accepted = [candidate.corrections for candidate in candidates if candidate.original == original]
        if not accepted:
            continue
        for key in keys:
            first = key[0] % width
            correction = " ".join(hypothesis[first:first + (key[1] - key[0]) - (end - start) * width])
            for corrections in accepted:
                if correction in corrections:
                    changed[key] = large
                    break
    by_target: dict[int, dict[int, float]] = {}
    for (v, w), weight in changed.items():
        if weight != arcs_into[w][v][WEIGHT]:
            by_target.setdefault(w, {})[v] = weight
    return by_target


def _weigh_insertions(lattice: EditLattice, keys: list[tuple[int, int]], gold: list[GoldEdit], large: int,
                      weights: dict[tuple[int, int], float]) -> None:
    """Replay the official's two-pointer matching of insertion arcs at one source position."""
    assert lattice.arcs_into is not None
    items: list[tuple[int, int]] = []
    for key in keys:
        arc = lattice.arcs_into[key[1]][key[0]]
        items.extend([key] * len(arc[POSITIONS]))
        weights[key] = arc[LENGTH]
    _insertion_walk(lattice, items, gold, large, weights)


def _insertion_walk(lattice: EditLattice, items: list[tuple[int, int]], gold: list[GoldEdit], large: int,
                    weights: dict[tuple[int, int], float]) -> set[tuple[int, int]]:
    """The official's walk over the (sorted, copies repeated) insertion arcs of one position,
    alternately from both ends: a gold match narrows the gold edits left to match and makes
    the walk continue from the matched arc's end, adding EPSILON to the arcs it skips.
    Returns the arcs weighted as gold."""
    edits = {key: lattice.edit_of(*key) for key in set(items)}
    matched_keys: set[tuple[int, int]] = set()
    left, right = 0, len(items) - 1
    current = left
    gold_left, gold_right = 0, len(gold) - 1
    while left <= right:
        key = items[current]
        edit = edits[key]
        order = range(gold_left, gold_right + 1) if current == left else range(gold_right, gold_left - 1, -1)
        matched = False
        for index in order:
            if gold[index].matches(edit):
                matched = True
                weights[key] = large
                matched_keys.add(key)
                if current == left:
                    gold_left = index + 1
                else:
                    gold_right = index - 1
                break
        if not matched:
            weights[key] += EPSILON
            if current == left:
                left += 1
                current = right
            else:
                right -= 1
                current = left
        elif current == left:
            left += 1
            while left < len(items) and items[left][0] != key[1]:
                weights[items[left]] += EPSILON
                left += 1
            current = left
        else:
            right -= 1
            while right >= 0 and items[right][1] != key[0]:
                weights[items[right]] += EPSILON
                right -= 1
            current = right
    return matched_keys


def _relax(lattice: EditLattice, step_scale: int, vertices: list[int], changed: dict[int, dict[int, float]],
           distance: dict[int, float], reached: dict[int, int], predecessor: dict[int, int]) -> None:
    """Distances, relaxation steps and predecessors of ``vertices`` (in topological order),
    given those of the vertices before them, as the official's Bellman-Ford ends with them.

    Distances: the same float recurrence ``d(w) = min fl(d(v) + weight)`` (its final distances
    satisfy it). Among equal-distance predecessors the official keeps the one whose relaxation
    first reached the final value: an arc is relaxed with its source's final distance in the
    pass where the source got it if the arc comes later in the list, else in the next pass.
    """
    arcs_into = lattice.arcs_into
    assert arcs_into is not None
    scale = step_scale
    infinity = float("inf")
    for w in vertices:
        into = arcs_into[w]
        if not into:
            continue
        weights = changed.get(w)
        best = infinity
        best_step = 0
        chosen = -1
        for v, arc in into.items():
            if weights is None:
                value = distance[v] + arc[3]
            else:
                value = distance[v] + weights.get(v, arc[3])
            if value > best:
                continue
            source_step = reached[v]
            source_position = source_step % scale
            positions = arc[2]
            # the earliest relaxation: the first copy after the source's in this pass, else
            # the first copy in the next pass (positions ascend)
            step = positions[0]
            if step > source_position:
                step += source_step - source_position
            elif positions[-1] > source_position:
                for step in positions:
                    if step > source_position:
                        break
                step += source_step - source_position
            else:
                step += source_step - source_position + scale
            if value < best:
                best = value
                best_step = step
                chosen = v
            elif step < best_step:
                best_step = step
                chosen = v
        distance[w] = best
        reached[w] = best_step
        predecessor[w] = chosen


def _path_edits(lattice: EditLattice, predecessor: dict[int, int]) -> list[SystemEdit]:
    """The changing arcs of the path ending at the last vertex, as edits (left to right)."""
    assert lattice.arcs_into is not None
    edits = []
    w = lattice.vertices[-1]
    while w in predecessor:
        v = predecessor[w]
        arc = lattice.arcs_into[w][v]
        if arc[UNCHANGED] != arc[LENGTH]:
            edits.append(lattice.edit_of(v, w))
        w = v
    edits.reverse()
    return edits


def best_edit_sequence(lattice: EditLattice, gold: Sequence[GoldEdit]) -> list[SystemEdit]:
    """The system's edits chosen against one annotator's gold edits (left to right): the path
    the official's Bellman-Ford search returns, found in one pass in topological order."""
    cache = lattice.cache
    if lattice.arcs_into is None or cache is None:
        return compact_best_path(lattice, gold)
    key = tuple(gold)
    known = cache.paths.get(key)
    if known is not None:
        return list(known)
    vertices = lattice.vertices
    if cache.default_search is None:
        start = vertices[0]
        search = ({start: 0}, {start: cache.step_scale}, {})  # start: pass 1, before position 1
        _relax(lattice, cache.step_scale, vertices[1:], {}, *search)
        cache.default_search = search
    changed = _gold_weights(lattice, gold)
    if changed:
        first = bisect_left(vertices, min(changed))
        distance, reached, predecessor = (dict(table) for table in cache.default_search)
        _relax(lattice, cache.step_scale, vertices[first:], changed, distance, reached, predecessor)
    else:
        predecessor = cache.default_search[2]
    edits = _path_edits(lattice, predecessor)
    cache.paths[key] = edits
    return list(edits)


_GOLD_UNITS = -(10 ** 12)
"""Weight of a gold arc in the compact search, in thousandths (dominates any path length)."""


def _gold_arcs(lattice: EditLattice, gold: Sequence[GoldEdit],
               successors: dict[int, list[int]]) -> dict[int, list[int]]:
    """Gold-matching arcs (by target: sources) that exist in the lattice: a path between the
    two vertices with at most ``max_unchanged_words`` unchanged tokens."""
    width = lattice.width
    vertex_set = set(lattice.vertices)
    hypothesis = lattice.hypothesis
    limit = lattice.max_unchanged_words
    arcs: dict[int, list[int]] = {}
    insertion_gold: dict[int, list[GoldEdit]] = {}
    for edit in gold:
        if edit.start == edit.end:
            insertion_gold.setdefault(edit.start, []).append(edit)
    for row, edits in insertion_gold.items():
        # insertion arcs at this source position: runs of insertion edges in that row
        items: list[tuple[int, int]] = []
        row_vertices = [v for v in lattice.vertices if v // width == row]
        for v in row_vertices:
            w = v
            while (w, w + 1) in lattice.base_copies:
                w += 1
                items.extend([(v, w)] * (lattice.base_copies[(v, w)] if w == v + 1 else 1))
        weights = {key: 0.0 for key in items}
        for v, w in _insertion_walk(lattice, items, edits, -1, weights):
            arcs.setdefault(w, []).append(v)
    for edit in gold:
        if edit.start == edit.end:
            continue
        for correction in set(edit.corrections):
            tokens = correction.split()
            if " ".join(tokens) != correction:
                continue
            for j0 in range(len(hypothesis) - len(tokens) + 1):
                if hypothesis[j0:j0 + len(tokens)] != tokens:
                    continue
                v = edit.start * width + j0
                w = edit.end * width + j0 + len(tokens)
                if v not in vertex_set or w not in vertex_set:
                    continue
                # fewest unchanged tokens on a path v -> w, searching only inside the box
                best = {v: 0}
                for u in sorted(x for x in vertex_set if v <= x <= w and x % width >= j0
                                and x % width <= w % width):
                    if u not in best:
                        continue
                    for x in successors.get(u, ()):
                        if x > w or x % width > w % width:
                            continue
                        count = best[u] + (1 if lattice.edge_kind(u, x) == NOOP else 0)
                        if count <= limit and count < best.get(x, limit + 1):
                            best[x] = count
                if w in best and w != v:
                    arcs.setdefault(w, []).append(v)
    return arcs


def compact_best_path(lattice: EditLattice, gold: Sequence[GoldEdit]) -> list[SystemEdit]:
    """Best edit sequence without materializing transitive arcs (for divergent sentences).

    A transitive arc is a base path holding at most ``max_unchanged_words`` unchanged tokens,
    weighing its length plus 0.001; so the search walks base edges with a small state (inside
    an arc or not, unchanged tokens so far, whether all were unchanged) in topological order:
    cost linear in base edges. Weights are exact integers (thousandths); ties are broken
    towards the smaller predecessor. This equals the official's choice except where it breaks
    exact ties by float rounding or arc order (it cannot run on such sentences anyway).
    """
    limit = lattice.max_unchanged_words
    successors: dict[int, list[int]] = {}
    for (u, w) in sorted(lattice.base_copies):
        successors.setdefault(u, []).append(w)
    steps = {u: [(w, lattice.edge_kind(u, w) == NOOP, lattice.base_copies[(u, w)]) for w in ws]
             for u, ws in successors.items()}
    gold_into = _gold_arcs(lattice, gold, successors)
    closed: dict[int, tuple[int, int, bool]] = {lattice.vertices[0]: (0, -1, False)}
    """vertex -> (cost, start of the arc ending here, whether that arc changes something)"""
    opened: dict[tuple[int, int, bool], tuple[int, int]] = {}
    """(vertex, unchanged so far, all unchanged so far) -> (cost, start of the open arc)"""
    open_states = [(u, a) for u in range(limit + 1) for a in (False, True)]
    for v in lattice.vertices:
        for source in gold_into.get(v, ()):
            if source in closed:
                cost = closed[source][0] + _GOLD_UNITS
                if v not in closed or cost < closed[v][0]:
                    closed[v] = (cost, source, True)
        here = closed.get(v)
        current = [(u, a, opened[(v, u, a)]) for u, a in open_states if (v, u, a) in opened]
        for w, noop, copies in steps.get(v, ()):
            if here is not None:
                cost = here[0] + (1000 if noop else 1000 + copies)
                old = closed.get(w)
                if old is None or cost < old[0]:
                    closed[w] = (cost, v, not noop)
                key = (w, int(noop), noop)
                cost = here[0] + 1000
                old_open = opened.get(key)
                if old_open is None or cost < old_open[0]:
                    opened[key] = (cost, v)
            for unchanged, all_unchanged, (cost, start) in current:
                count = unchanged + noop
                if count > limit:
                    continue
                still_unchanged = all_unchanged and noop
                key = (w, count, still_unchanged)
                old_open = opened.get(key)
                if old_open is None or cost + 1000 < old_open[0]:
                    opened[key] = (cost + 1000, start)
                if not still_unchanged:
                    old = closed.get(w)
                    if old is None or cost + 1001 < old[0]:
                        closed[w] = (cost + 1001, start, True)
    edits = []
    w = lattice.vertices[-1]
    while w in closed and closed[w][1] >= 0:
        _, start, changing = closed[w]
        if changing:
            edits.append(lattice.edit_of(start, w))
        w = start
    edits.reverse()
    return edits


