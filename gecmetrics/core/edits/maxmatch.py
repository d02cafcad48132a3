"""The edits MaxMatch (the NUS M2 scorer) chooses: per annotator, the system's edit sequence is
the best path of the edit lattice (:mod:`.lattice`) against that annotator's gold edits, and the
correct ones are those matching a gold edit in order. The M2 scorer
(:class:`gecmetrics.metrics.m2.maxmatch.M2Scorer`) counts them; PT-M2 weighs them.
"""
from __future__ import annotations

from .blocks import Block, Edit
from .lattice import (DEFAULT_ARC_BUDGET, GoldEdit, SystemEdit, best_edit_sequence, build_lattice, match_in_order,
                      matched_gold)

NO_TYPE = "(none)"
"""The type of a wrong system edit that overlaps no gold edit of the chosen annotator."""


def gold_edit(edit: Edit, tokens: list[str]) -> GoldEdit:
    """An edit line as the official reads it: its span's tokens and its alternative corrections
    (``||``-separated, each stripped; ``-NONE-`` is the empty correction)."""
    return GoldEdit(edit.start, edit.end, " ".join(tokens[edit.start:edit.end]),
                    tuple(text.strip() for text in edit.alternatives))


_PY2_DICT_MIN_SIZE = 8
_SIZE_T = (1 << 64) - 1


def _py2_dict_slot(table: list[int | None], key: int) -> int:
    """The free slot CPython 2.7's dict probing gives an int key (hash(n) = n, but -1 -> -2;
    open addressing i = 5i + perturb + 1, perturb = the hash as size_t, shifted right by 5)."""
    mask = len(table) - 1
    hashed = -2 if key == -1 else key
    index = perturb = hashed & _SIZE_T
    while table[index & mask] is not None:
        index = (5 * index + perturb + 1) & _SIZE_T
        perturb >>= 5
    return index & mask


def py2_dict_order(keys: list[int]) -> list[int]:
    """The iteration order of a CPython 2.7 dict into which the int ``keys`` were inserted in
    this order (no deletion): slot order of an 8-slot table, grown to the smallest power of 2
    above 4 * used when 3 * filled >= 2 * slots, old entries reinserted in slot order."""
    table: list[int | None] = [None] * _PY2_DICT_MIN_SIZE
    used = 0
    for key in keys:
        if key in table:
            continue
        table[_py2_dict_slot(table, key)] = key
        used += 1
        if 3 * used >= 2 * len(table):
            size = _PY2_DICT_MIN_SIZE
            while size <= 4 * used:
                size <<= 1
            old, table = table, [None] * size
            for kept in old:
                if kept is not None:
                    table[_py2_dict_slot(table, kept)] = kept
    return [key for key in table if key is not None]


def official_annotator_order(block: Block) -> list[int]:
    """The order in which the official (Python 2) tries a block's annotators, which decides its
    ties: ids inserted in order of first appearance into a dict, that dict's items copied into
    a second dict, whose order is iterated. For ids 0..7 with at most 5 annotators this is the
    ascending order; otherwise not (ids 5 and 10 are tried as 10, 5 whatever the file order; 0
    and 8, or 1 and 9, in the file's order). A block without edit lines has annotator 0."""
    first_seen = list(dict.fromkeys(edit.annotator for edit in block.edits)) or [0]
    return py2_dict_order(py2_dict_order(first_seen))


def gold_edits_by_annotator(block: Block) -> dict[int, list[GoldEdit]]:
    """Gold edits of each annotator of a block (annotators in the official's order,
    :func:`official_annotator_order`), as the official reads them. An annotator with only a
    ``noop`` line has no edits; a block without edit lines has annotator 0 with no edits."""
    tokens = block.tokens
    annotators: dict[int, list[GoldEdit]] = {annotator: [] for annotator in official_annotator_order(block)}
    for edit in block.edits:
        if not edit.is_noop:
            annotators[edit.annotator].append(gold_edit(edit, tokens))
    return annotators


def equal_ignoring_whitespace_casing(a: str, b: str) -> bool:
    """True when two texts differ only in spaces and letter case."""
    return a.replace(" ", "").lower() == b.replace(" ", "").lower()


def system_edits(source: str, hypothesis: str, gold: dict[int, list[GoldEdit]], max_unchanged_words: int = 2,
                 ignore_whitespace_casing: bool = False, arc_budget: int = DEFAULT_ARC_BUDGET
                 ) -> list[tuple[list[SystemEdit], list[SystemEdit]]]:
    """Per annotator of ``gold`` (in its order): the system edits chosen against its gold edits
    and the correct ones (``ignore_whitespace_casing``: system edits changing only spaces or
    case dropped; ``max_unchanged_words``: the most unchanged tokens one edit may hold)."""
    source_tokens, hypothesis_tokens = source.split(), hypothesis.split()
    if source_tokens == hypothesis_tokens:
        # the only minimum-cost alignment is the diagonal: no edit, whatever the gold
        return [([], []) for _ in gold]
    lattice = build_lattice(source_tokens, hypothesis_tokens, max_unchanged_words, arc_budget)
    result = []
    for edits in gold.values():
        system = best_edit_sequence(lattice, edits)
        if ignore_whitespace_casing:
            system = [e for e in system if not equal_ignoring_whitespace_casing(e.original, e.correction)]
        result.append((system, match_in_order(system, edits)))
    return result


def gold_types_by_annotator(block: Block) -> dict[int, list[str]]:
    """The error types of :func:`gold_edits_by_annotator`'s edits, in the same order."""
    annotators: dict[int, list[str]] = {annotator: [] for annotator in official_annotator_order(block)}
    for edit in block.edits:
        if not edit.is_noop:
            annotators[edit.annotator].append(edit.type)
    return annotators


def overlaps(start: int, end: int, other_start: int, other_end: int) -> bool:
    """Two source spans overlap: they share a token, or one is an insertion at an offset the
    other starts at, ends at or spans (two insertions: at the same offset)."""
    if start == end or other_start == other_end:
        point, (low, high) = (start, (other_start, other_end)) if start == end else (other_start, (start, end))
        return low <= point <= high
    return start < other_end and other_start < end


def typed_counts(system: list[SystemEdit], gold: list[GoldEdit], types: list[str]) -> dict[str, list[int]]:
    """Per error type, [TP, FP, FN] of one sentence against one annotator (its gold edits and
    their ``types``), the M2 scorer's matching kept: a system edit matched to gold edits
    (:func:`~.lattice.matched_gold`: in order; a duplicated gold line twice) is a TP of each
    one's type; a gold edit matched by none is an FN of its type; a system edit matched to none
    is an FP of each distinct type of the gold edits it overlaps (:func:`overlaps`), or of
    :data:`NO_TYPE` when it overlaps none. Types in order of first appearance."""
    counts: dict[str, list[int]] = {}
    matched = matched_gold(system, gold)
    hit = set()
    for edit, found in zip(system, matched):
        for index in found:
            counts.setdefault(types[index], [0, 0, 0])[0] += 1
            hit.add(index)
        if not found:
            near = [types[k] for k, g in enumerate(gold) if overlaps(edit.start, edit.end, g.start, g.end)]
            for error_type in dict.fromkeys(near) if near else [NO_TYPE]:
                counts.setdefault(error_type, [0, 0, 0])[1] += 1
    for index, error_type in enumerate(types):
        if index not in hit:
            counts.setdefault(error_type, [0, 0, 0])[2] += 1
    return counts
