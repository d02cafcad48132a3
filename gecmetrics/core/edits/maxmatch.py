"""The edits MaxMatch (the NUS M2 scorer) chooses: per annotator, the system's edit sequence is
the best path of the edit lattice (:mod:`.lattice`) against that annotator's gold edits, and the
correct ones are those matching a gold edit in order. The M2 scorer
(:class:`gecmetrics.metrics.m2.maxmatch.M2Scorer`) counts them; PT-M2 weighs them.
"""
from __future__ import annotations

from .blocks import NO_TYPE, Block, Edit
from .lattice import (DEFAULT_ARC_BUDGET, GoldEdit, SystemEdit, best_edit_sequence, build_lattice, match_in_order,
                      matched_gold)


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


PYTHON2_ONLY_WHITESPACE = "\u180e"
"""Whitespace to Python 2.7's unicode (Unicode 5.2: U+180E MONGOLIAN VOWEL SEPARATOR was a space
then) but not to Python 3's ``str.split``/``strip``; the official splits and strips with the former."""


def python2_spaces(text: str) -> str:
    """``text`` with Python 2-only whitespace made a space, so that Python 3's ``split()`` gives
    the tokens the official's ``split()`` gives (and ``strip()`` strips what it strips)."""
    return text.replace(PYTHON2_ONLY_WHITESPACE, " ") if PYTHON2_ONLY_WHITESPACE in text else text


def python2_strip(text: str) -> str:
    """Python 2.7's ``unicode.strip()``: Python 3's, plus the Python 2-only whitespace."""
    while True:
        stripped = text.strip().strip(PYTHON2_ONLY_WHITESPACE)
        if stripped == text:
            return text
        text = stripped


def gold_lines_by_annotator(block: Block) -> dict[int, list[Edit]]:
    """The M2 lines of :func:`gold_edits_by_annotator`'s edits, in the same order (their types,
    their correction fields as written)."""
    annotators: dict[int, list[Edit]] = {annotator: [] for annotator in official_annotator_order(block)}
    for edit in block.edits:
        if not edit.is_noop:
            annotators[edit.annotator].append(edit)
    return annotators


def gold_edits_by_annotator(block: Block) -> dict[int, list[GoldEdit]]:
    """Gold edits of each annotator of a block (annotators in the official's order,
    :func:`official_annotator_order`), as the official (Python 2) reads them: source tokens and
    corrections split and stripped on Python 2's whitespace. An annotator with only a ``noop``
    line has no edits; a block without edit lines has annotator 0 with no edits."""
    tokens = python2_spaces(block.source).split()
    return {annotator: [GoldEdit(edit.start, edit.end, " ".join(tokens[edit.start:edit.end]),
                                 tuple(python2_strip(text) for text in edit.alternatives)) for edit in lines]
            for annotator, lines in gold_lines_by_annotator(block).items()}


# Code points whose lowercase mapping came after Unicode 5.2, the database of Python 2.7: there
# unicode.lower() leaves them unchanged (ranges, inclusive)
_LOWERCASE_SINCE_UNICODE_5_2 = (
    (0x37F, 0x37F), (0x526, 0x526), (0x528, 0x528), (0x52A, 0x52A), (0x52C, 0x52C), (0x52E, 0x52E),
    (0x10C7, 0x10C7), (0x10CD, 0x10CD), (0x13A0, 0x13F5), (0x1C90, 0x1CBA), (0x1CBD, 0x1CBF), (0x2C2F, 0x2C2F),
    (0x2CF2, 0x2CF2), (0xA660, 0xA660), (0xA698, 0xA698), (0xA69A, 0xA69A), (0xA78D, 0xA78D), (0xA790, 0xA790),
    (0xA792, 0xA792), (0xA796, 0xA796), (0xA798, 0xA798), (0xA79A, 0xA79A), (0xA79C, 0xA79C), (0xA79E, 0xA79E),
    (0xA7A0, 0xA7A0), (0xA7A2, 0xA7A2), (0xA7A4, 0xA7A4), (0xA7A6, 0xA7A6), (0xA7A8, 0xA7A8), (0xA7AA, 0xA7AE),
    (0xA7B0, 0xA7B4), (0xA7B6, 0xA7B6), (0xA7B8, 0xA7B8), (0xA7BA, 0xA7BA), (0xA7BC, 0xA7BC), (0xA7BE, 0xA7BE),
    (0xA7C0, 0xA7C0), (0xA7C2, 0xA7C2), (0xA7C4, 0xA7C7), (0xA7C9, 0xA7C9), (0xA7D0, 0xA7D0), (0xA7D6, 0xA7D6),
    (0xA7D8, 0xA7D8), (0xA7F5, 0xA7F5), (0x104B0, 0x104D3), (0x10570, 0x1057A), (0x1057C, 0x1058A),
    (0x1058C, 0x10592), (0x10594, 0x10595), (0x10C80, 0x10CB2), (0x118A0, 0x118BF), (0x16E40, 0x16E5F),
    (0x1E900, 0x1E921))


def _python2_lower_char(ch: str) -> str:
    if ch == "\u0130":  # simple mapping: I WITH DOT ABOVE -> i (Python 3: i + COMBINING DOT ABOVE)
        return "i"
    code = ord(ch)
    if any(low <= code <= high for low, high in _LOWERCASE_SINCE_UNICODE_5_2):
        return ch
    return ch.lower()


def python2_lower(text: str) -> str:
    """Python 2.7's ``unicode.lower()``: character by character (no final-sigma rule: Greek
    capital sigma is always small sigma), the simple mapping (U+0130 is ``i``), and no mapping
    for letters given a lowercase after Unicode 5.2 (Cherokee, Georgian Mtavruli, ...)."""
    if text.isascii():
        return text.lower()
    return "".join(_python2_lower_char(ch) for ch in text)


def equal_ignoring_whitespace_casing(a: str, b: str) -> bool:
    """True when two texts differ only in spaces (U+0020) and letter case, as the official
    (Python 2) compares them (:func:`python2_lower`)."""
    return python2_lower(a.replace(" ", "")) == python2_lower(b.replace(" ", ""))


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
    return {annotator: [edit.type for edit in lines] for annotator, lines in gold_lines_by_annotator(block).items()}


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
