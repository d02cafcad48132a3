"""Transitive arcs as the official scorer's closure builds them (for the exact search).

A path of base edges holding at most ``max_unchanged_words`` unchanged tokens becomes one arc
(one multi-token edit). The arcs are recorded with everything the exact search needs to return
the official's path: their positions in the official's arc list (base edges sorted, then
transitive arcs in discovery order, one more copy each time an arc is shortened), and the
official's removal of arcs that change nothing, replayed with its quirk.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from .alignment import _align, compiled_lattice_enabled
from .edits import EPSILON

Arc = list
"""An arc of the lattice (base edge or transitive arc) is a list, the cheapest mutable record in
the hot loops of the closure and of the exact search, which index it directly (``arc[1]``
...). Everywhere else the fields are read through the names below. An arc changes nothing
when all its tokens are unchanged (``arc[UNCHANGED] == arc[LENGTH]``)."""
LENGTH, UNCHANGED, POSITIONS, WEIGHT = 0, 1, 2, 3
"""Fields of an arc: number of base edges; unchanged tokens among them; its copies' positions
in the official's arc list (1-based, ascending); its weight when it matches no gold edit."""


class ArcBudgetExceeded(Exception):
    """Raised internally when the exact enumeration would build too many arcs."""


@dataclass
class TransitiveArcs:
    """Every arc of a lattice, by target then source vertex, and the official's list size."""

    arcs_into: dict[int, dict[int, Arc]]
    arc_count: int
    """Number of arcs in the official's list (copies counted): its large negative weight."""
    step_scale: int
    """A number above every list position (a relaxation step is pass * step_scale + position)."""


def changing_weight(length: int, copies: int) -> float:
    """A changing arc matching no gold edit: its length plus EPSILON once per copy in the list
    (summed one by one in floating point, as the official does)."""
    weight: float = length
    for _ in range(copies):
        weight += EPSILON
    return weight


def transitive_arcs(source: Sequence[str], hypothesis: Sequence[str], base_copies: dict[tuple[int, int], int],
                    vertices: list[int], max_unchanged_words: int, arc_budget: int) -> TransitiveArcs:
    """All arcs, as the official's closure builds them; raises :class:`ArcBudgetExceeded` when
    more than ``arc_budget`` transitive arcs would be written."""
    if compiled_lattice_enabled():  # the same loops in C (gecmetrics/core/_align.c base_arcs, closure)
        vertices = _listed(vertices)
        arcs_into, successors, first_transitive = _align.base_arcs(
            _listed(source), _listed(hypothesis), base_copies, vertices, changing_weight(1, 1), changing_weight(1, 2))
        closed = _align.closure(arcs_into, successors, vertices, max_unchanged_words, first_transitive, arc_budget,
                                EPSILON)
        if closed is None:
            raise ArcBudgetExceeded
        position, no_change = closed
    else:
        arcs_into, successors, first_transitive = _base_arcs(source, hypothesis, base_copies, vertices)
        position, no_change = _closure(arcs_into, successors, vertices, max_unchanged_words, first_transitive,
                                       arc_budget)
    removed = remove_no_change_arcs(arcs_into, no_change)
    return TransitiveArcs(arcs_into, position - 1 - removed, position)


def _listed(items: Sequence) -> list:
    """A list as the C extension takes it (the same object when it is one already)."""
    return items if isinstance(items, list) else list(items)


def _base_arcs(source: Sequence[str], hypothesis: Sequence[str], base_copies: dict[tuple[int, int], int],
               vertices: list[int]) -> tuple[dict[int, dict[int, Arc]], dict[int, list[int]], int]:
    """The base edges as arcs of length 1, at their positions in the official's list (sorted
    edges, an edge of both cost schemes listed twice), with each vertex's successors and the
    first position left for transitive arcs. (The reference of the C extension's
    ``base_arcs``.)"""
    width = len(hypothesis) + 1
    diagonal = width + 1
    successors: dict[int, list[int]] = {}
    arcs_into: dict[int, dict[int, Arc]] = {v: {} for v in vertices}
    position = 1
    one_copy = changing_weight(1, 1)
    for edge in sorted(base_copies):
        u, w = edge
        copies = base_copies[edge]
        unchanged = 1 if w - u == diagonal and source[u // width] == hypothesis[u % width] else 0
        weight = 1 if unchanged else (one_copy if copies == 1 else changing_weight(1, 2))
        arcs_into[w][u] = [1, unchanged, list(range(position, position + copies)), weight]
        position += copies
        successors.setdefault(u, []).append(w)
    return arcs_into, successors, position


def _closure(arcs_into: dict[int, dict[int, Arc]], successors: dict[int, list[int]], vertices: list[int],
             limit: int, first_transitive: int, arc_budget: int) -> tuple[int, list[tuple[int, int, int, Arc]]]:
    """The official's closure; returns the next free list position and the writes that left an
    arc changing nothing (position, vi, vj, arc). (The reference of the C extension's
    ``closure``, which :func:`transitive_arcs` runs where it is built.)

    Its closure loops over an intermediate vertex k (in order), then over sources and targets;
    since every path from k only visits larger vertices, the arcs out of k are then still its
    base edges, so each new arc is an arc into k extended by one base edge of k, kept when it
    is shorter than the arc already there and holds at most ``limit`` unchanged tokens.

    Hot loop (every vertex of every changed sentence): arcs are indexed directly, [0] length,
    [1] unchanged, [2] positions, [3] weight (see :data:`Arc`).
    """
    position = first_transitive
    no_change: list[tuple[int, int, int, Arc]] = []
    for k in vertices:
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
                        existing[3] = changing_weight(length, len(existing[2]))
                else:
                    continue
                position += 1
        if position - first_transitive > arc_budget:
            raise ArcBudgetExceeded
    return position, no_change


def remove_no_change_arcs(arcs_into: dict[int, dict[int, Arc]], no_change: list[tuple[int, int, int, Arc]]) -> int:
    """Replay the official's removal of transitive no-change arcs; returns the copies removed.

    In list order, each copy of an arc that finally changes nothing is removed, except one
    right after a removed element (the official removes from the list it iterates). Usually
    every such arc has one copy, written as a no-change arc, so ``no_change`` (in position
    order) lists them all; otherwise all copies of those arcs are gathered and sorted.
    """
    removals = []
    for entry in no_change:
        arc = entry[3]
        if arc[UNCHANGED] == arc[LENGTH]:
            if len(arc[POSITIONS]) != 1:
                return _remove_copies(arcs_into, no_change)
            removals.append(entry)
    removed = 0
    last_removed = -2
    for copy_position, vi, vj, _ in removals:
        if copy_position == last_removed + 1:
            continue  # the element after a removed one is never examined
        last_removed = copy_position
        removed += 1
        del arcs_into[vj][vi]
    return removed


def _remove_copies(arcs_into: dict[int, dict[int, Arc]], no_change: list[tuple[int, int, int, Arc]]) -> int:
    """The general case of :func:`remove_no_change_arcs`: arcs with several copies in the list."""
    removals = []
    seen: set[int] = set()
    for _, vi, vj, arc in no_change:
        if arc[UNCHANGED] == arc[LENGTH] and id(arc) not in seen:
            seen.add(id(arc))
            for copy_position in arc[POSITIONS]:
                removals.append((copy_position, vi, vj, arc))
    removals.sort(key=lambda removal: removal[0])
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
            del arc[POSITIONS][:count]  # list.remove drops the first copy
            if not arc[POSITIONS]:
                del arcs_into[vj][vi]
    return removed
