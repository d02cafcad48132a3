"""Exact search: the path the official's Bellman-Ford search returns, in one topological pass.

The official materializes every arc, then runs a Bellman-Ford search (cubic); the path it
returns among equal-cost paths depends on the order in which it relaxes arcs, and its float
sums depend on its large negative weight (the number of arcs). This search reproduces that
result exactly, with a cost linear in arcs: distances by one pass in topological order (the
same float recurrence), and the predecessor the official keeps by replaying, for each vertex,
the relaxation steps at which its distance went down (its final distance may first be reached
through a source whose own distance was not final yet). The relaxation pass runs in the
optional C extension where it is built (``_align.relax``, the same loop on the same structures);
:func:`_relax` is the reference.
"""
from __future__ import annotations

from bisect import bisect_left
from typing import Any, Sequence

from .alignment import _align, compiled_lattice_enabled
from .edits import EPSILON, GoldEdit, SystemEdit
from .lattices import ExactLattice
from .transitive import LENGTH, POSITIONS, UNCHANGED, WEIGHT


def exact_best_path(lattice: ExactLattice, gold: Sequence[GoldEdit]) -> list[SystemEdit]:
    """The system's edits chosen against one annotator's gold edits (left to right): the path
    the official's Bellman-Ford search returns, found in one pass in topological order."""
    cache = lattice.cache
    key = tuple(gold)
    known = cache.paths.get(key)
    if known is not None:
        return list(known)
    vertices = lattice.vertices
    if cache.default_search is None:
        start = vertices[0]
        search = ({start: 0}, {start: [(cache.step_scale, 0)]}, {})  # start: 0 at pass 1, before position 1
        _relaxed(lattice, cache.step_scale, vertices[1:], {}, *search)
        cache.default_search = search
    changed = _gold_weights(lattice, gold)
    if changed:
        first = bisect_left(vertices, min(changed))
        distance, reached, predecessor = (dict(table) for table in cache.default_search)
        _relaxed(lattice, cache.step_scale, vertices[first:], changed, distance, reached, predecessor)
    else:
        predecessor = cache.default_search[2]
    edits = _path_edits(lattice, predecessor)
    cache.paths[key] = edits
    return list(edits)


def _span_arcs(lattice: ExactLattice, start: int, end: int) -> list[tuple[int, int]]:
    """The arcs (v, w) covering source tokens [start, end), in vertex order."""
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


def _gold_weights(lattice: ExactLattice, gold: Sequence[GoldEdit]) -> dict[int, dict[int, float]]:
    """The arc weights one annotator's gold edits change, by target then source vertex.

    Gold-matching arcs weigh minus the number of arcs. Several insertions at one source
    position are matched by the official's two-pointer walk over the insertion arcs there
    (sorted), which keeps one gold insertion from matching arcs at several hypothesis
    positions; it is replayed here, with its side effects (EPSILON added to the arcs it skips,
    whose weight restarts from their length). Weights equal to the default are left out.
    """
    arcs_into = lattice.arcs_into
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


def _weigh_insertions(lattice: ExactLattice, keys: list[tuple[int, int]], gold: list[GoldEdit], large: int,
                      weights: dict[tuple[int, int], float]) -> None:
    """Replay the official's two-pointer matching of insertion arcs at one source position."""
    items: list[tuple[int, int]] = []
    for key in keys:
        arc = lattice.arcs_into[key[1]][key[0]]
        items.extend([key] * len(arc[POSITIONS]))
        weights[key] = arc[LENGTH]
    _insertion_walk(lattice, items, gold, large, weights)


def _insertion_walk(lattice: ExactLattice, items: list[tuple[int, int]], gold: list[GoldEdit], large: int,
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


def _relaxed(lattice: ExactLattice, step_scale: int, vertices: list[int], changed: dict[int, dict[int, float]],
             distance: dict[int, float], reached: dict[int, Any], predecessor: dict[int, int]) -> None:
    """:func:`_relax`, by the C extension where it is built and enabled (the same distances,
    histories and predecessors; its values are floats where Python may keep an int sum)."""
    if compiled_lattice_enabled():
        _align.relax(lattice.arcs_into, step_scale, vertices, changed, distance, reached, predecessor)
    else:
        _relax(lattice, step_scale, vertices, changed, distance, reached, predecessor)


def _relax(lattice: ExactLattice, step_scale: int, vertices: list[int], changed: dict[int, dict[int, float]],
           distance: dict[int, float], reached: dict[int, Any], predecessor: dict[int, int]) -> None:
    """Distances, value histories and predecessors of ``vertices`` (in topological order),
    given those of the vertices before them, as the official's Bellman-Ford ends with them.

    The official relaxes every arc in list order, pass after pass; a vertex's distance goes
    down a few times before it is final. ``reached[v]`` is that history: the (step, value)
    pairs of every decrease, in order (the last value is the final distance). An arc (v, w)
    offers ``fl(value + weight)`` of each value v held, at the first relaxation after v got it
    (if v still holds it then); w's history is the offers that lower it, in step order, and its
    predecessor the source of the last one. Replaying the values, not only the final ones,
    matters: a source may reach w's final float sum while its own distance is not final yet
    (a sum near the large negative gold weight absorbs the last bits), and the official keeps
    that earlier relaxation. The final distances satisfy ``d(w) = min fl(d(v) + weight)``.
    """
    arcs_into = lattice.arcs_into
    scale = step_scale
    infinity = float("inf")
    for w in vertices:
        into = arcs_into[w]
        if not into:
            continue
        weights = changed.get(w)
        offers = []
        # hot loop: arc [2] positions (ascending), [3] weight; step: the arc's first copy after
        # the source's value in that pass, else its first copy in the next pass
        for v, arc in into.items():
            weight = arc[3] if weights is None else weights.get(v, arc[3])
            positions = arc[2]
            history = reached[v]
            last = len(history) - 1
            for k in range(last + 1):
                source_step, value = history[k]
                source_position = source_step % scale
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
                if k < last and step > history[k + 1][0]:
                    continue  # v had a lower value before this arc's next relaxation
                offers.append((step, value + weight, v))
        offers.sort()  # by step: no two offers share one (a step is one arc's relaxation)
        current = infinity
        kept = []
        chosen = -1
        for step, value, v in offers:
            if value < current:
                current = value
                kept.append((step, value))
                chosen = v
        distance[w] = current
        reached[w] = kept
        predecessor[w] = chosen


def _path_edits(lattice: ExactLattice, predecessor: dict[int, int]) -> list[SystemEdit]:
    """The changing arcs of the path ending at the last vertex, as edits (left to right)."""
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

