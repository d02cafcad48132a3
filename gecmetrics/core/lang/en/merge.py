"""Turning an alignment into edits: ERRANT 3.0.2's merging strategies.

* ``all-split``: every non-match operation is an edit;
* ``all-merge``: each run of adjacent non-match operations is one edit;
* ``all-equal``: each run of adjacent operations of the same kind (S, D, I or the same
  transposition size) is one edit;
* ``rules`` (the default): transpositions stay single edits, and each run of S/D/I operations
  is split or merged by ERRANT's linguistic rules (possessive suffixes, case changes after
  punctuation, whitespace and hyphen changes, same part of speech, auxiliary/infinitive/phrasal
  verbs, adjacent substitutions, dissimilar boundary substitutions, final determiners, content
  words), in ERRANT's order, over the sub-spans of the run from the widest.

An edit span is (o_start, o_end, c_start, c_end): tokens [o_start, o_end) of the original
replaced by tokens [c_start, c_end) of the correction.
"""
from __future__ import annotations

import re
import string
from bisect import bisect_left, bisect_right
from itertools import chain, combinations, groupby
from typing import Iterable, Optional

from ....errors import LineRefused
from .align import MATCH, AlignOp, character_cost
from .parse import ParsedSentence

STRATEGIES = ("rules", "all-split", "all-merge", "all-equal")
# parts of speech that make a run a content-word edit (ERRANT's merger counts AUX here)
CONTENT_POS = frozenset({"ADJ", "AUX", "ADV", "NOUN", "VERB"})
VERB_PARTS = frozenset({"AUX", "PART", "VERB"})
_APOSTROPHE_OR_HYPHEN = re.compile("['-]")

Span = tuple  # (o_start, o_end, c_start, c_end)


def edit_spans(alignment: list[AlignOp], orig: ParsedSentence, cor: ParsedSentence, strategy: str = "rules"
               ) -> list[Span]:
    """The edit spans of an alignment under one merging strategy, left to right."""
    if strategy == "rules":
        return _rule_spans(alignment, orig, cor)
    if strategy == "all-split":
        return [op[1:] for op in alignment if op[0] != MATCH]
    if strategy == "all-merge":
        return [_merged(list(run))[0][1:] for matched, run in groupby(alignment, lambda op: op[0] == MATCH)
                if not matched]
    if strategy == "all-equal":
        return [_merged(list(run))[0][1:] for kind, run in groupby(alignment, lambda op: op[0]) if kind != MATCH]
    raise ValueError(f"unknown merging strategy {strategy!r}: choose from {', '.join(STRATEGIES)}")


def _merged(run: list[AlignOp]) -> list[AlignOp]:
    """A run of operations as one span-covering operation (an empty run stays empty)."""
    if not run:
        return run
    return [("X", run[0][1], run[-1][2], run[0][3], run[-1][4])]


def _rule_spans(alignment: list[AlignOp], orig: ParsedSentence, cor: ParsedSentence) -> list[Span]:
    spans = []
    for kind, run in groupby(alignment, lambda op: op[0][0] if op[0][0] in ("M", "T") else ""):
        run = list(run)
        if kind == "M":
            continue
        processed = run if kind == "T" else _RunMerger(run, orig, cor).spans()
        spans.extend(op[1:] for op in processed)
    return spans


def is_punctuation(sentence: ParsedSentence, index: int) -> bool:
    """ERRANT's test: POS PUNCT, or a text that is a substring of string.punctuation."""
    return sentence.pos[index] == "PUNCT" or sentence.words[index] in string.punctuation


# ----------------------------------------------------------------------------- the rules, fast
#
# ERRANT's ``process_seq`` tries every sub-range (start, end) of a run, widest first and, among
# equally wide ones, leftmost first, applies the first rule that holds on the first range where
# one does, and recurses on the parts left and right of it. It lists all O(L^2) ranges and joins
# the tokens of each (O(L)): cubic time and quadratic memory in the length L of a run (43 s for
# a 1,000-token line against a 14-token source; a MemoryError at 100,000). _RunMerger finds the
# same range without trying them all. Each rule's condition is either fixed by the range's end
# (possessive suffix, case change after punctuation: for each end the range from the window's
# start is the widest) or the window's start (first-token case), or has a structure that gives
# the widest range for each start or end directly: equal texts once lower-cased without
# apostrophes and hyphens (as many characters on each side, within their common prefix), one
# part of speech or only verb parts (a set that only grows with the range: a sliding window).
# Then the part windows inherit what was learnt (no rule that ignores the window's bounds holds
# before the range found), so that they mostly try a few narrow ranges. The range found is
# decided by the rules in ERRANT's order (_decision): the edits are ERRANT's.
# _reference_process (ERRANT's loop) is what the tests compare it with.

_OP, _OPS, _MERGE, _PROCESS = range(4)
MAX_MERGE_WORK = 5_000_000
"""Upper bound of the merge's steps (ranges and operations looked at) on one sentence pair,
about 12 s: above it, one :class:`MergeTooLong` (a LineRefused, an InputError) instead of minutes. Real text
needs a few per edited token; a 100,000-token garbage line against a 14-token source about
300,000; a 100,000-operation random run (two unrelated 66,000-token texts) about 720,000."""


class MergeTooLong(LineRefused):
    """The merge of one sentence pair would take more than :data:`MAX_MERGE_WORK` steps."""


class _RunMerger:
    """ERRANT's merging rules on one run of adjacent S, D and I operations (see above).

    Sub-runs are windows [lo, hi) of the run, processed from an explicit stack (a long run
    would exceed Python's recursion limit); every table is made once per run, in linear time.
    Boundary k (0..n) is where operation k starts: original token ``ob[k]``, corrected token
    ``cb[k]``; range (start, end) covers boundaries start..end + 1."""

    def __init__(self, run: list[AlignOp], orig: ParsedSentence, cor: ParsedSentence) -> None:
        self.run, self.orig, self.cor = run, orig, cor
        self.kinds = kinds = [op[0] for op in run]
        n = len(run)
        self.work = 0
        # prefix counts of S, D and I operations
        self.s_count, self.d_count, self.i_count = ([0] * (n + 1) for _ in range(3))
        for k, kind in enumerate(kinds):
            self.s_count[k + 1] = self.s_count[k] + (kind == "S")
            self.d_count[k + 1] = self.d_count[k] + (kind == "D")
            self.i_count[k + 1] = self.i_count[k] + (kind == "I")
        if not self.s_count[n]:
            return  # no substitution: no range for a rule to try, _process decides from the counts alone
        # prefix counts of operations with a content word
        self.content = [0] * (n + 1)
        for k, op in enumerate(run):
            has_content = not {*orig.pos[op[1]:op[2]], *cor.pos[op[3]:op[4]]}.isdisjoint(CONTENT_POS)
            self.content[k + 1] = self.content[k] + has_content
        # first S at or after k (n: none), last S at or before k (-1: none)
        self.first_s = [n] * (n + 1)
        for k in range(n - 1, -1, -1):
            self.first_s[k] = k if kinds[k] == "S" else self.first_s[k + 1]
        self.last_s, previous = [-1] * n, -1
        for k in range(n):
            previous = self.last_s[k] = k if kinds[k] == "S" else previous
        self.ob = [op[1] for op in run] + [run[-1][2]]
        self.cb = [op[3] for op in run] + [run[-1][4]]
        self.gap = [o - c for o, c in zip(self.ob, self.cb)]  # len(o) - len(c) of (s, e) is gap[e+1] - gap[s]
        self.next_gap = [n + 1] * (n + 1)  # the next boundary whose gap differs
        for k in range(n - 1, -1, -1):
            self.next_gap[k] = k + 1 if self.gap[k + 1] != self.gap[k] else self.next_gap[k + 1]
        # the lower-cased texts without apostrophes and hyphens, concatenated, with the character
        # offset of every boundary on each side; boundaries by the difference of their offsets
        o_texts = [_APOSTROPHE_OR_HYPHEN.sub("", text) for text in orig.lower[self.ob[0]:self.ob[n]]]
        c_texts = [_APOSTROPHE_OR_HYPHEN.sub("", text) for text in cor.lower[self.cb[0]:self.cb[n]]]
        self.o_text, self.c_text = "".join(o_texts), "".join(c_texts)
        self.o_offset, self.c_offset = [0] * (n + 1), [0] * (n + 1)
        for k, op in enumerate(run):
            self.o_offset[k + 1] = self.o_offset[k] + (len(o_texts[op[1] - self.ob[0]]) if op[2] > op[1] else 0)
            self.c_offset[k + 1] = self.c_offset[k] + (len(c_texts[op[3] - self.cb[0]]) if op[4] > op[3] else 0)
        self.by_difference: dict[int, list[int]] = {}
        for k in range(n + 1):
            self.by_difference.setdefault(self.o_offset[k] - self.c_offset[k], []).append(k)
        # the ends (operations) where the rules tied to a range's last tokens can apply
        ends = [k for k, op in enumerate(run) if op[2] > 0 and op[4] > 0]
        self.possessive_ends = [k for k in ends if orig.tag[run[k][2] - 1] == "POS" or cor.tag[run[k][4] - 1] == "POS"]
        self.case_ends = [k for k in ends if orig.lower[run[k][2] - 1] == cor.lower[run[k][4] - 1]]
        self.case_punct_ends = ([k for k in self.case_ends if run[k][2] > 1 and is_punctuation(orig, run[k][2] - 2)],
                                [k for k in self.case_ends if run[k][4] > 1 and is_punctuation(cor, run[k][4] - 2)])

    # ------------------------------------------------------------------ driving

    def spans(self) -> list[AlignOp]:
        """The run's operations after the rules (ERRANT's ``process_seq`` of the run)."""
        run, out = self.run, []
        stack: list[tuple] = [(_PROCESS, 0, len(run), None)]
        while stack:
            item = stack.pop()
            kind = item[0]
            if kind == _OP:
                out.append(run[item[1]])
            elif kind == _OPS:
                out.extend(run[item[1]:item[2]])
            elif kind == _MERGE:
                out.extend(_merged(run[item[1]:item[2]]))
            else:
                stack.extend(reversed(self._process(*item[1:])))
        return out

    def _process(self, lo: int, hi: int, known: Known = None) -> list[tuple]:
        """What ERRANT's ``process_seq`` does with window [lo, hi): pieces to emit or process.

        ``known``, learnt by the windows this one is part of: the rules that do not depend on
        the window's bounds apply to no range before it in ERRANT's order (see
        :func:`_before`); there only the rules tied to the window's first or last operation
        are tried."""
        size = hi - lo
        if size <= 1:
            return [(_OPS, lo, hi)]
        if self.s_count[hi] == self.s_count[lo]:  # no range to try: all D or all I merge, else as it is
            one_kind = self.d_count[hi] - self.d_count[lo] == size or self.i_count[hi] - self.i_count[lo] == size
            return [(_MERGE, lo, hi) if one_kind else (_OPS, lo, hi)]
        self._count(1)
        decided = self._decision(lo, hi - 1, lo, hi, known)  # the widest range is tried first
        if decided is not None:
            return _with_known(decided, known)
        found: tuple[int, int] | None = _GAVE_UP
        if known is not None and known[0] <= ENUMERATED_WIDTH:
            # only narrow ranges remain to try (one by one, a few), and the case rule of a first
            # token on wider ones
            found = self._first_token_case(lo, hi)
            if found is None or found[1] - found[0] <= known[0]:
                found = self._first_in_order(lo, hi, known, known[0], ENUMERATION_LIMIT)
        if found is _GAVE_UP:
            found = self._widest_firing(lo, hi)
            if found is None or found[1] - found[0] < 2:  # the two-operation ranges, where the split rules apply too
                found = self._first_in_order(lo, hi, _later(known, (2, hi)), 1)
        if found is None:  # no rule applies to any range: merged if the widest holds a content word
            return [(_MERGE, lo, hi) if self.content[hi] > self.content[lo] else (_OPS, lo, hi)]
        decided = self._decision(found[0], found[1], lo, hi, known)
        if decided is None:  # pragma: no cover - the search and the rules disagree
            raise AssertionError(f"merge search found range {found} where no rule applies")
        return _with_known(decided, _later(known, (found[1] - found[0], found[0])))

    def _count(self, steps: int) -> None:
        self.work += steps
        if self.work > MAX_MERGE_WORK:
            raise MergeTooLong(f"ERRANT's merging rules would need more than {MAX_MERGE_WORK:,} steps on this "
                               f"sentence pair (a run of {len(self.run):,} edited tokens, far beyond what ERRANT "
                               "itself can merge); the bound is gecmetrics.core.lang.en.merge.MAX_MERGE_WORK")

    # ------------------------------------------------------------------ the search

    def _first_in_order(self, lo: int, hi: int, known: Known, widest: int, limit: int | None = None
                        ) -> tuple[int, int] | None:
        """The first range of width ``widest`` or less, in ERRANT's order, where a rule applies
        (tried one by one; where ``known`` says that only the rules of the window's bounds can
        apply, only the ranges at its bounds are tried); :data:`_GAVE_UP` after ``limit`` tries."""
        kinds, s_count = self.kinds, self.s_count
        tries = 0
        for width in range(min(widest, hi - lo - 2), 0, -1):
            starts: Iterable[int] = range(lo, hi - width)
            if known is not None and width == known[0] and known[1] > lo + 1:
                starts = chain([lo], [hi - 2] if width == 1 and lo < hi - 2 < known[1] else [],
                               range(known[1], hi - width))
            for start in starts:
                end = start + width
                if kinds[start] == "S" or kinds[end] == "S" or s_count[end + 1] > s_count[start]:
                    tries += 1
                    if limit is not None and tries > limit:
                        return _GAVE_UP
                    self._count(1)
                    if self._decision(start, end, lo, hi, known) is not None:
                        return (start, end)
        return None

    def _widest_firing(self, lo: int, hi: int) -> tuple[int, int] | None:
        """The first range (start, end) of window [lo, hi) in ERRANT's order (widest first, then
        leftmost) where a rule other than the two-operation split rules applies, or None; the
        widest range itself is known not to."""
        best = self._end_rules(lo, hi)
        best = self._equal_texts(lo, hi, best)
        return self._same_pos(lo, hi, best)

    def _end_rules(self, lo: int, hi: int) -> tuple[int, int] | None:
        """Possessive suffix at the end, case change after punctuation or of a first token:
        fixed by the range's end (given enough tokens), or only at the window's start, so for
        each end the range from ``lo`` is the widest; the widest end where one applies."""
        first = max(lo + 1, self.first_s[lo])
        ob, cb = self.ob, self.cb
        ends = [_last_within(self.possessive_ends, first, hi - 2),
                # more than one token on a side: the token before the last is in the range
                _last_within(self.case_punct_ends[0], max(first, bisect_left(ob, ob[lo] + 2) - 1), hi - 2),
                _last_within(self.case_punct_ends[1], max(first, bisect_left(cb, cb[lo] + 2) - 1), hi - 2)]
        case = self._first_token_case(lo, hi)
        if case is not None:
            ends.append(case[1])
        found = [end for end in ends if end is not None]
        return (lo, max(found)) if found else None

    def _first_token_case(self, lo: int, hi: int) -> tuple[int, int] | None:
        """The case rule of a first token on ranges from ``lo`` ([Cat -> The big cat]): the last
        tokens equal but for case, one side a single token and the other's first token
        capitalised; the widest such end before ``hi - 1``."""
        run, orig, cor = self.run, self.orig, self.cor
        first = max(lo + 1, self.first_s[lo])
        best = None
        for capitalised, boundaries in ((cor.words[run[lo][3]][0].isupper(), self.ob),
                                        (orig.words[run[lo][1]][0].isupper(), self.cb)):
            if not capitalised:
                continue
            # the ends whose range from lo has one token on this side
            low = bisect_right(boundaries, boundaries[lo]) - 1
            high = bisect_right(boundaries, boundaries[lo] + 1) - 2
            end = _last_within(self.case_ends, max(first, low), min(high, hi - 2))
            if end is not None and (best is None or end > best[1]):
                best = (lo, end)
        return best

    def _equal_texts(self, lo: int, hi: int, best: tuple[int, int] | None) -> tuple[int, int] | None:
        """Ranges whose two sides are the same text once lower-cased without apostrophes and
        hyphens: for each start, the widest end with as many characters on each side (the same
        offset difference at both boundaries) within their common prefix."""
        o_text, c_text, o_offset, c_offset = self.o_text, self.c_text, self.o_offset, self.c_offset
        for start in range(lo, hi - 1):
            widest = hi - 1 - start
            if best is not None and (widest < best[1] - best[0] or (widest == best[1] - best[0] and start > best[0])):
                break
            if self.first_s[start] >= hi:
                break
            self._count(1)
            lowest = max(start + 2, self.first_s[start] + 1)  # the boundary after the range's end
            boundaries = self.by_difference[o_offset[start] - c_offset[start]]
            index = bisect_right(boundaries, hi) - 1
            if index < 0 or boundaries[index] < lowest:
                continue
            limit = _common_prefix(o_text, o_offset[start], c_text, c_offset[start],
                                   min(o_offset[hi] - o_offset[start], c_offset[hi] - c_offset[start]))
            # the widest boundary with at most `limit` characters since the start (offsets only grow)
            widest_boundary = min(hi, bisect_right(o_offset, o_offset[start] + limit) - 1)
            index = bisect_right(boundaries, widest_boundary, 0, index + 1) - 1
            if index >= 0 and boundaries[index] >= lowest:
                candidate = (start, boundaries[index] - 1)
                if _better(candidate, best):
                    best = candidate
        return best

    def _same_pos(self, lo: int, hi: int, best: tuple[int, int] | None) -> tuple[int, int] | None:
        """Ranges with sides of different lengths whose parts of speech are one, or all verb
        parts: such sets only grow with the range, so for each end the starts that qualify are
        those from a point on (a sliding window); the first of them with a different length
        difference is the widest. Only ends that can beat ``best`` are looked at."""
        run, orig, cor, gap, next_gap = self.run, self.orig, self.cor, self.gap, self.next_gap
        counts: dict[str, int] = {}
        other = 0  # distinct parts of speech that are not verb parts

        def change(k: int, step: int) -> None:
            nonlocal other
            self._count(1)
            _, o_start, o_end, c_start, c_end = run[k]
            for pos in (*orig.pos[o_start:o_end], *cor.pos[c_start:c_end]):
                before = counts.get(pos, 0)
                counts[pos] = before + step
                if before == 0 and pos not in VERB_PARTS:
                    other += 1
                elif before + step == 0:
                    del counts[pos]
                    if pos not in VERB_PARTS:
                        other -= 1

        def qualifies() -> bool:
            return len(counts) == 1 or other == 0

        first_end = lo + 1 if best is None else max(lo + 1, lo + best[1] - best[0])
        if first_end >= hi:
            return best
        # the window of the first end: from it leftwards while the parts of speech qualify
        change(first_end, 1)
        start = first_end
        if not qualifies():
            change(first_end, -1)
            start = first_end + 1
        else:
            while start > lo:
                change(start - 1, 1)
                if not qualifies():
                    change(start - 1, -1)
                    break
                start -= 1
        for end in range(first_end, hi):
            if end > first_end:
                change(end, 1)
                while start <= end and not qualifies():
                    change(start, -1)
                    start += 1
            upper = min(end - 1, self.last_s[end])
            if start > upper:
                continue
            first = start if gap[start] != gap[end + 1] else next_gap[start]
            if first <= upper and _better((first, end), best):
                best = (first, end)
        return best

    # ------------------------------------------------------------------ the rules

    def _decision(self, start: int, end: int, lo: int, hi: int, known: Known = None) -> list[tuple] | None:
        """ERRANT's rules, in its order, on range (start, end) of window [lo, hi): the pieces
        of the result when one applies, else None. Where ``known`` (see :meth:`_process`) says
        that the rules not tied to the window's bounds do not apply, only those are tried."""
        run, kinds, orig, cor = self.run, self.kinds, self.orig, self.cor
        if self.s_count[end + 1] == self.s_count[start]:
            return None
        bounds_only = _before(start, end, known)
        o_start, o_stop, c_start, c_stop = run[start][1], run[end][2], run[start][3], run[end][4]
        o_last, c_last = o_stop - 1, c_stop - 1
        o_size, c_size = o_stop - o_start, c_stop - c_start
        if start == lo and (orig.tag[o_start] == "POS" or cor.tag[c_start] == "POS"):
            return [(_OP, lo), (_PROCESS, lo + 1, hi)]
        if not bounds_only and (orig.tag[o_last] == "POS" or cor.tag[c_last] == "POS"):
            return [(_PROCESS, lo, end - 1), (_MERGE, end - 1, end + 1), (_PROCESS, end + 1, hi)]
        if orig.lower[o_last] == cor.lower[c_last]:
            if start == lo and ((o_size == 1 and cor.words[c_start][0].isupper())
                                or (c_size == 1 and orig.words[o_start][0].isupper())):
                return [(_MERGE, start, end + 1), (_PROCESS, end + 1, hi)]
            if not bounds_only and ((o_size > 1 and is_punctuation(orig, o_last - 1))
                                    or (c_size > 1 and is_punctuation(cor, c_last - 1))):
                return [(_PROCESS, lo, end - 1), (_MERGE, end - 1, end + 1), (_PROCESS, end + 1, hi)]
        last_rule = end - start < 2 and end == hi - 1 and ((kinds[end] in ("D", "S") and orig.pos[o_last] == "DET")
                                                           or (kinds[end] in ("I", "S") and cor.pos[c_last] == "DET"))
        if bounds_only:
            return [(_PROCESS, lo, hi - 1), (_OP, hi - 1)] if last_rule else None
        merge_range = [(_PROCESS, lo, start), (_MERGE, start, end + 1), (_PROCESS, end + 1, hi)]
        o_from, o_to = self.o_offset[start], self.o_offset[end + 1]
        c_from, c_to = self.c_offset[start], self.c_offset[end + 1]
        if o_to - o_from == c_to - c_from and self.o_text[o_from:o_to] == self.c_text[c_from:c_to]:
            return merge_range
        if o_size != c_size and self._one_pos_or_verb_parts(o_start, o_stop, c_start, c_stop):
            return merge_range
        if end - start < 2:
            split = [(_PROCESS, lo, start + 1), (_PROCESS, start + 1, hi)]
            if o_size == c_size == 2:
                return split
            if (kinds[start] == "S" and _similarity(orig, o_start, cor, c_start) > 0.75) or \
                    (kinds[end] == "S" and _similarity(orig, o_last, cor, c_last) > 0.75):
                return split
            if last_rule:
                return [(_PROCESS, lo, hi - 1), (_OP, hi - 1)]
        return None

    def _one_pos_or_verb_parts(self, o_start: int, o_stop: int, c_start: int, c_stop: int) -> bool:
        """Whether the parts of speech of the tokens are one, or all verb parts (stops at the
        first token that settles it)."""
        seen: set[str] = set()
        other = False
        for tags, first, stop in ((self.orig.pos, o_start, o_stop), (self.cor.pos, c_start, c_stop)):
            for index in range(first, stop):
                pos = tags[index]
                if pos not in seen:
                    seen.add(pos)
                    other = other or pos not in VERB_PARTS
                    if other and len(seen) > 1:
                        return False
        return True


def _last_within(values: list[int], low: int, high: int) -> int | None:
    """The largest of sorted ``values`` in [low, high], or None."""
    index = bisect_right(values, high) - 1
    return values[index] if index >= 0 and values[index] >= low else None


def _better(candidate: tuple[int, int], best: tuple[int, int] | None) -> bool:
    """Whether range ``candidate`` comes before ``best`` in ERRANT's order (wider, or as wide
    and further left)."""
    if best is None:
        return True
    width, best_width = candidate[1] - candidate[0], best[1] - best[0]
    return width > best_width or (width == best_width and candidate[0] < best[0])


Known = Optional[tuple]
"""(width, start): the rules that do not depend on a window's bounds apply to no range before it
in ERRANT's order, i.e. no range wider than ``width`` nor of that width starting before ``start``
(None: nothing known)."""
ENUMERATED_WIDTH = 16
ENUMERATION_LIMIT = 256
"""A window whose remaining ranges are at most ENUMERATED_WIDTH wide tries them one by one, up to
ENUMERATION_LIMIT of them, before it searches (a rule often applies near its start)."""
_GAVE_UP = (-1, -1)


def _before(start: int, end: int, known: Known) -> bool:
    """Whether range (start, end) comes before ``known`` in ERRANT's order."""
    return known is not None and (end - start > known[0] or (end - start == known[0] and start < known[1]))


def _later(first: Known, second: Known) -> Known:
    """The one of two pieces of knowledge that covers more (the later in ERRANT's order)."""
    if first is None or second is None:
        return second if first is None else first
    return first if (-first[0], first[1]) >= (-second[0], second[1]) else second


def _with_known(pieces: list[tuple], known: Known) -> list[tuple]:
    """The pieces with what their window learnt for the windows to process (see _process)."""
    return [(_PROCESS, piece[1], piece[2], known) if piece[0] == _PROCESS else piece for piece in pieces]


def _common_prefix(x: str, x_start: int, y: str, y_start: int, limit: int) -> int:
    """Length of the common prefix of x[x_start:] and y[y_start:], at most ``limit``
    (compared in doubling slices: a few C comparisons however long)."""
    if limit <= 0 or x[x_start] != y[y_start]:
        return 0
    known, size = 1, 1
    while known < limit:
        size = min(2 * known, limit)
        if x[x_start + known:x_start + size] != y[y_start + known:y_start + size]:
            break
        known = size
    else:
        return known
    high = size  # known <= prefix < high
    while high - known > 1:
        middle = (known + high) // 2
        if x[x_start + known:x_start + middle] == y[y_start + known:y_start + middle]:
            known = middle
        else:
            high = middle
    return known


# ----------------------------------------------------------------------------- the rules, as ERRANT loops


def _reference_process(run: list[AlignOp], orig: ParsedSentence, cor: ParsedSentence) -> list[AlignOp]:
    """ERRANT's rules on a run of adjacent S, D and I operations, trying every range in its
    order (cubic: the reference the tests compare :class:`_RunMerger` with)."""
    if len(run) <= 1:
        return run
    kinds = [op[0] for op in run]
    if set(kinds) in ({"D"}, {"I"}):
        return _merged(run)
    content = False
    ranges = sorted(combinations(range(len(run)), 2), key=lambda r: r[1] - r[0], reverse=True)
    for start, end in ranges:
        if "S" not in kinds[start:end + 1]:
            continue
        o_range = range(run[start][1], run[end][2])
        c_range = range(run[start][3], run[end][4])
        decided = _first_rule(run, kinds, start, end, o_range, c_range, orig, cor)
        if decided is not None:
            return decided
        pos_set = {orig.pos[i] for i in o_range} | {cor.pos[j] for j in c_range}
        if not pos_set.isdisjoint(CONTENT_POS):
            content = True
    return _merged(run) if content else run


def _first_rule(run, kinds, start, end, o_range, c_range, orig, cor):
    """The result of the first of ERRANT's rules that applies to run[start..end], or None."""
    _process = _reference_process
    o_last, c_last = o_range[-1], c_range[-1]
    if start == 0 and (orig.tag[o_range[0]] == "POS" or cor.tag[c_range[0]] == "POS"):
        return [run[0]] + _process(run[1:], orig, cor)
    if orig.tag[o_last] == "POS" or cor.tag[c_last] == "POS":
        return _process(run[:end - 1], orig, cor) + _merged(run[end - 1:end + 1]) + _process(run[end + 1:], orig, cor)
    if orig.lower[o_last] == cor.lower[c_last]:
        if start == 0 and ((len(o_range) == 1 and cor.words[c_range[0]][0].isupper())
                           or (len(c_range) == 1 and orig.words[o_range[0]][0].isupper())):
            return _merged(run[start:end + 1]) + _process(run[end + 1:], orig, cor)
        if (len(o_range) > 1 and is_punctuation(orig, o_range[-2])) or \
                (len(c_range) > 1 and is_punctuation(cor, c_range[-2])):
            return _process(run[:end - 1], orig, cor) + _merged(run[end - 1:end + 1]) + \
                _process(run[end + 1:], orig, cor)
    o_joined = _APOSTROPHE_OR_HYPHEN.sub("", "".join(orig.lower[i] for i in o_range))
    c_joined = _APOSTROPHE_OR_HYPHEN.sub("", "".join(cor.lower[j] for j in c_range))
    if o_joined == c_joined:
        return _process(run[:start], orig, cor) + _merged(run[start:end + 1]) + _process(run[end + 1:], orig, cor)
    pos_set = {orig.pos[i] for i in o_range} | {cor.pos[j] for j in c_range}
    if len(o_range) != len(c_range) and (len(pos_set) == 1 or pos_set <= VERB_PARTS):
        return _process(run[:start], orig, cor) + _merged(run[start:end + 1]) + _process(run[end + 1:], orig, cor)
    if end - start < 2:
        return _split_rule(run, kinds, start, end, o_range, c_range, orig, cor)
    return None


def _split_rule(run, kinds, start, end, o_range, c_range, orig, cor):
    """ERRANT's split rules, tried on the smallest sub-runs (two operations)."""
    _process = _reference_process
    if len(o_range) == len(c_range) == 2:
        return _process(run[:start + 1], orig, cor) + _process(run[start + 1:], orig, cor)
    if (kinds[start] == "S" and _similarity(orig, o_range[0], cor, c_range[0]) > 0.75) or \
            (kinds[end] == "S" and _similarity(orig, o_range[-1], cor, c_range[-1]) > 0.75):
        return _process(run[:start + 1], orig, cor) + _process(run[start + 1:], orig, cor)
    if end == len(run) - 1 and ((kinds[-1] in ("D", "S") and orig.pos[o_range[-1]] == "DET")
                                or (kinds[-1] in ("I", "S") and cor.pos[c_range[-1]] == "DET")):
        return _process(run[:-1], orig, cor) + [run[-1]]
    return None


def _similarity(orig: ParsedSentence, i: int, cor: ParsedSentence, j: int) -> float:
    """1 - normalised Indel distance of two tokens' texts (ERRANT's merger ``char_cost``)."""
    return 1 - character_cost(orig.words[i], cor.words[j])
