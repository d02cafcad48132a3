"""ChERRANT's character alignment: a Damerau-Levenshtein table with linguistic substitution
costs, and every cheapest path through it.

Costs (ChERRANT ``modules/alignment.py`` at character level): a match costs 0, an insertion or a
deletion 1, a transposition of k+1 tokens that are the same multiset k (looked for only along a
diagonal whose steps are not free, as ChERRANT's loop does), and a substitution of token a by b

    semantic / 6.0 + character + punctuation

(added in that order, in binary floating point, so that ties fall as they do in ChERRANT) with

* semantic: 4 when a or b has no Cilin code, 0 when their codes agree on the three levels
  (first letter, second letter, the two digits), else 2 * (3 - number of agreeing levels);
* character: 0.5 unless both are made of CJK Unified Ideographs U+4E00..U+9FFF only; then 0 when
  they share a toneless pinyin reading or one is in the other's confusion set, else 0.5;
* punctuation: 0 when both are punctuation, 0.25 when neither is, 0.499 otherwise
  ("is punctuation" is Python's substring test on ChERRANT's string of punctuation).

Each cell keeps every operation reaching its minimum, in the order transposition, substitution,
insertion, deletion (a match is the only operation of a matching cell). The paths are read back
from the bottom right corner depth first, operations in that order; when the lengths differ by
more than 10 only the first operation of every cell is followed (ChERRANT's "first" strategy).

The table is filled by the optional C extension ``gecmetrics.core._zhalign`` when it is built (and
``GECMETRICS_PYTHON_ALIGN`` is not set), else by :func:`python_table`, the reference. The C fill
finds ChERRANT's transpositions through links between cells of a diagonal whose windows may be
the same multiset (see ``_zhalign.c``), so two long unrelated lines take time in proportion to
the table, not to the table times the line (ChERRANT's loop, and the reference, are cubic there).

Bounds (docs/design.md, "Limits"): a table of more than :data:`MAX_ALIGNMENT_CELLS` cells is
refused with an :class:`AlignmentTooLarge` error; the paths are followed, in ChERRANT's order,
while their operations add up to at most :data:`MAX_ALIGNMENT_STEPS`. The cheapest paths of
two unrelated lines can be exponentially many (ChERRANT enumerates them all: minutes for 160
characters); past the budget the paths found so far are kept, so the M2 lists the first of
ChERRANT's edit sets, in its order, always starting with its first; an
:class:`AlignmentBudgetWarning` says so. No real corpus comes near it: on MuCGEC's dev set the
most any pair needs is 6,784 operations (32 paths), and the same M2 as ChERRANT results
wherever the paths stay within the budget.
"""
from __future__ import annotations

import os
import string
import warnings
from array import array
from dataclasses import dataclass
from types import ModuleType
from typing import Iterator, Sequence

from ....errors import LineRefused
from .data import CherrantData
from .text import PinyinTable

try:
    from ... import _zhalign as compiled  # type: ignore[attr-defined]
except ImportError:  # installed without a C compiler
    compiled: ModuleType | None = None  # type: ignore[no-redef]

ENVIRONMENT_VARIABLE = "GECMETRICS_PYTHON_ALIGN"

MAX_ALIGNMENT_CELLS = 26_000_000
"""Cells of the alignment table, (source characters + 1) x (target characters + 1), above which a
pair is refused: about 22 bytes a cell in the C fill (570 MB), two 5,000-character lines."""

MAX_ALIGNMENT_STEPS = 1_000_000
"""Operations of the cheapest paths followed for one pair (their lengths added up), in ChERRANT's
order; the paths beyond are not followed (see the module docstring). About 2 s of merging."""


MAX_PYTHON_STEPS = 20_000_000
"""Bound of the steps of :func:`python_table`'s transposition search for one sentence pair (about
10 s of Python): two long unrelated lines (cubic there) are refused, not aligned for hours."""


class AlignmentTooSlow(LineRefused):
    """A sentence pair whose alignment the pure-Python table (no C extension) cannot fill within
    :data:`MAX_PYTHON_STEPS`: the pair is refused, as one over its size bound is."""


class AlignmentTooLarge(LineRefused):
    """Two sentences whose alignment table would exceed :data:`MAX_ALIGNMENT_CELLS`."""


class AlignmentBudgetWarning(UserWarning):
    """A pair had more cheapest paths than :data:`MAX_ALIGNMENT_STEPS` allows: only the first
    ones were followed."""

# ChERRANT's punctuation for the alignment cost: its Chinese string, then string.punctuation.
ALIGNMENT_PUNCTUATION = ("！？｡＂＃＄％＆＇（）＊＋，－／：；＜＝＞＠［＼］＾＿｀｛｜｝～｟｠｢｣､、〃》「」『』【】〔〕〖〗〘〙"
                         "〚〛〜〝〞〟〰〾〿–—‘'‛“”„‟…‧﹏" + string.punctuation)

# Operations of a cell, as bits; a path follows them in this order.
TRANSPOSE, SUBSTITUTE, INSERT, DELETE, MATCH = 1, 2, 4, 8, 16
_ORDER = (TRANSPOSE, SUBSTITUTE, INSERT, DELETE)
FIRST_ONLY_LENGTH_DIFFERENCE = 10
"""Above this difference of lengths, only the first operation of each cell is followed."""

AlignOp = tuple  # (operation, source start, source end, target start, target end); "M" "S" "I" "D" "T<k>"


def compiled_alignment_enabled() -> bool:
    """Whether tables are filled by the C extension: built, and not disabled by the environment."""
    return compiled is not None and os.environ.get(ENVIRONMENT_VARIABLE, "") in ("", "0")


def is_all_chinese(token: str) -> bool:
    """ChERRANT's check_all_chinese: every character in U+4E00..U+9FFF (True for '')."""
    return all("\u4e00" <= ch <= "\u9fff" for ch in token)


@dataclass
class TokenFeatures:
    """What the substitution cost needs of one distinct token."""

    semantic: tuple | None
    punctuation: bool
    chinese: bool
    readings: frozenset
    confusable: frozenset


class CostModel:
    """ChERRANT's character-level substitution costs over its data files; per-token features are
    computed once per distinct token, and tokens get small integer ids (for the C loops)."""

    def __init__(self, data: CherrantData, pinyin: PinyinTable | None = None):
        self.data = data
        self.pinyin = pinyin if pinyin is not None else PinyinTable()
        self.ids: dict[str, int] = {}
        self.tokens: list[str] = []
        self.features: list[TokenFeatures] = []
        self._compiled: list[tuple[bytes, bytes, bytes]] = []
        self._level_ids: dict[tuple[int, str], int] = {}
        self._syllable_ids: dict[str, int] = {}

    def token_id(self, token: str) -> int:
        found = self.ids.get(token)
        if found is None:
            found = self.ids[token] = len(self.tokens)
            self.tokens.append(token)
            code = self.data.semantic_codes.get(token)
            chinese = is_all_chinese(token)
            self.features.append(TokenFeatures(
                (code[0], code[1], code[2:4]) if code is not None else None,
                token in ALIGNMENT_PUNCTUATION,
                chinese,
                self.pinyin[token] if chinese else frozenset(),
                self.data.confusion.get(token, frozenset())))
        return found

    def encode(self, tokens: Sequence[str]) -> list[int]:
        """Token ids of a token sequence (new tokens get the next ids)."""
        ids = self.ids
        return [ids[token] if token in ids else self.token_id(token) for token in tokens]

    def substitution_cost(self, a: int, b: int) -> float:
        """The cost of substituting token id ``b`` for token id ``a`` (different tokens)."""
        fa, fb = self.features[a], self.features[b]
        if fa.semantic is None or fb.semantic is None:
            semantic = 4
        elif fa.semantic == fb.semantic:
            semantic = 0
        else:
            semantic = 2 * (3 - sum(x == y for x, y in zip(fa.semantic, fb.semantic)))
        if fa.punctuation and fb.punctuation:
            punctuation = 0.0
        elif not fa.punctuation and not fb.punctuation:
            punctuation = 0.25
        else:
            punctuation = 0.499
        return semantic / 6.0 + self._character_cost(a, b) + punctuation

    def _character_cost(self, a: int, b: int) -> float:
        fa, fb = self.features[a], self.features[b]
        if not (fa.chinese and fb.chinese):
            return 0.5
        ta, tb = self.tokens[a], self.tokens[b]
        if len(ta) > len(tb):
            ta, tb = tb, ta
        if ta == tb:
            return 0
        shared = bool(fa.readings & fb.readings)
        count = 0
        for x in ta:
            for y in tb:
                if x == y or shared or (y in self.data.confusion and x in self.data.confusion[y]) or \
                        (x in self.data.confusion and y in self.data.confusion[x]):
                    count += 1
                    break
        return (len(ta) - count) / (len(ta) * 2)

    def compiled_features(self, token_id: int) -> tuple[bytes, bytes, bytes]:
        """One token's features for the C loops: an int64 row (Cilin levels as ids, -1 without
        a code; is punctuation; is one Chinese character; code point or -1), its readings as
        sorted int64 ids, and the code points of the one-character entries of its confusion
        set, sorted int64 (the only entries a character can equal)."""
        if token_id < len(self._compiled):
            return self._compiled[token_id]
        for t in range(len(self._compiled), token_id + 1):
            token, f = self.tokens[t], self.features[t]
            levels = tuple(self._level_ids.setdefault((level, text), len(self._level_ids))
                           for level, text in enumerate(f.semantic)) if f.semantic is not None else (-1, -1, -1)
            single = len(token) == 1
            row = array("q", (*levels, int(f.punctuation), int(f.chinese), ord(token) if single else -1)).tobytes()
            readings = array("q", sorted(self._syllable_ids.setdefault(r, len(self._syllable_ids))
                                         for r in f.readings)).tobytes()
            confusable = array("q", sorted(ord(e) for e in f.confusable if len(e) == 1)).tobytes()
            self._compiled.append((row, readings, confusable))
        return self._compiled[token_id]

    def compiled_safe(self, token_id: int) -> bool:
        """Whether the C loops compute this token's costs exactly as the reference: a Chinese
        token must be one character (always so for character tokens)."""
        return not self.features[token_id].chinese or len(self.tokens[token_id]) == 1


@dataclass
class AlignmentTable:
    """The filled table: cumulative costs, the operations of every cell (bits) and the
    transposition length of cells with one."""

    rows: int
    columns: int
    operations: Sequence[int]
    transposition: Sequence[int]

    def cell(self, i: int, j: int) -> int:
        return self.operations[i * self.columns + j]


def python_table(src: Sequence[int], tgt: Sequence[int], costs: CostModel,
                 max_steps: int | None = None) -> AlignmentTable:
    """Fill ChERRANT's cost and operation table (the reference implementation). Its search for a
    transposition walks back along each cell's diagonal, which on long unrelated lines makes the
    fill cubic (hours for two lines of 5,000 characters): past ``max_steps`` steps of those walks
    (default :data:`MAX_PYTHON_STEPS`) the pair is refused (:class:`AlignmentTooSlow`)."""
    budget = MAX_PYTHON_STEPS if max_steps is None else max_steps
    walked = 0
    n, m = len(src), len(tgt)
    width = m + 1
    cost, ops, trans_len = _bordered(n, m)
    substitution = costs.substitution_cost
    pair_costs: dict[tuple[int, int], float] = {}
    for i in range(n):
        a = src[i]
        if walked > budget:
            raise _too_slow(n, m, budget, i)
        for j in range(m):
            here = (i + 1) * width + j + 1
            diagonal = here - width - 1
            b = tgt[j]
            if a == b:
                cost[here] = cost[diagonal]
                ops[here] = MATCH
                continue
            delete = cost[diagonal + 1] + 1
            insert = cost[here - 1] + 1
            pair = pair_costs.get((a, b))
            if pair is None:
                pair = pair_costs[(a, b)] = substitution(a, b)
            substitute = cost[diagonal] + pair
            transpose, k = _transposition(src, tgt, cost, width, i, j)
            walked += k
            best = min(transpose, substitute, insert, delete)
            cost[here] = best
            found = 0
            if transpose == best:
                found |= TRANSPOSE
                trans_len[here] = k + 1
            if substitute == best:
                found |= SUBSTITUTE
            if insert == best:
                found |= INSERT
            if delete == best:
                found |= DELETE
            ops[here] = found
    return AlignmentTable(n + 1, width, ops, trans_len)


def _bordered(n: int, m: int) -> tuple[list[float], list[int], list[int]]:
    """The cost, operation and transposition-length lists of an (n + 1) x (m + 1) table, its first
    row insertions and its first column deletions."""
    width = m + 1
    cost = [0.0] * ((n + 1) * width)
    ops = [0] * ((n + 1) * width)
    for i in range(1, n + 1):
        cost[i * width] = cost[(i - 1) * width] + 1
        ops[i * width] = DELETE
    for j in range(1, m + 1):
        cost[j] = cost[j - 1] + 1
        ops[j] = INSERT
    return cost, ops, [0] * ((n + 1) * width)


def _transposition(src: Sequence[int], tgt: Sequence[int], cost: list[float], width: int, i: int, j: int
                   ) -> tuple[float, int]:
    """ChERRANT's transposition search for cell (i + 1, j + 1): back along its diagonal while the
    costs change, until the windows ending there are the same multiset; (its cost or infinity,
    the steps walked)."""
    k = 1
    balance = {src[i]: 1, tgt[j]: -1}
    unbalanced = 2
    while i - k >= 0 and j - k >= 0 and cost[(i - k + 1) * width + j - k + 1] != cost[(i - k) * width + j - k]:
        for token, step in ((src[i - k], 1), (tgt[j - k], -1)):
            before = balance.get(token, 0)
            after = balance[token] = before + step
            unbalanced += (after != 0) - (before != 0)
        if unbalanced == 0:
            return cost[(i - k) * width + j - k] + k, k
        k += 1
    return float("inf"), k


def _too_slow(n: int, m: int, budget: int, row: int) -> AlignmentTooSlow:
    return AlignmentTooSlow(f"cannot align a {n:,}-character sentence with a {m:,}-character one without the C "
                            f"extension: ChERRANT's transposition search took more than {budget:,} steps by row "
                            f"{row:,} (gecmetrics.core.lang.zh.align.MAX_PYTHON_STEPS; long unrelated lines make it "
                            "cubic); gecmetrics installed with a C compiler (gecmetrics.core._zhalign) aligns them "
                            "in time proportional to the table")


def table(src: Sequence[int], tgt: Sequence[int], costs: CostModel, use_compiled: bool | None = None
          ) -> AlignmentTable:
    """The filled table, by the C extension or the reference (see the module docstring); an
    :class:`AlignmentTooLarge` error above :data:`MAX_ALIGNMENT_CELLS` cells."""
    cells = (len(src) + 1) * (len(tgt) + 1)
    if cells > MAX_ALIGNMENT_CELLS:
        raise AlignmentTooLarge(f"cannot align a {len(src):,}-character sentence with a {len(tgt):,}-character one: "
                                f"{cells:,} table cells, more than the bound of {MAX_ALIGNMENT_CELLS:,} "
                                "(gecmetrics.core.lang.zh.align.MAX_ALIGNMENT_CELLS, about 570 MB)")
    if use_compiled is None:
        use_compiled = compiled_alignment_enabled()
    if not use_compiled:
        return python_table(src, tgt, costs)
    if compiled is None:
        raise RuntimeError("the C extension gecmetrics.core._zhalign is not built in this installation")
    return compiled_table(src, tgt, costs)


def compiled_table(src: Sequence[int], tgt: Sequence[int], costs: CostModel) -> AlignmentTable:
    """The same table as :func:`python_table`, filled by the C extension (which sees the
    sentences' distinct tokens renumbered from 0 and their features)."""
    local = dict.fromkeys((*src, *tgt))
    rows = []
    readings, confusion = [], []
    for number, token in enumerate(local):
        if not costs.compiled_safe(token):
            return python_table(src, tgt, costs)
        local[token] = number
        row, reading, confusable = costs.compiled_features(token)
        rows.append(row)
        readings.append(reading)
        confusion.append(confusable)
    ops, transpositions = compiled.fill(array("i", [local[t] for t in src]).tobytes(),
                                        array("i", [local[t] for t in tgt]).tobytes(),
                                        b"".join(rows), readings, confusion)
    lengths = array("i")
    lengths.frombytes(transpositions)
    return AlignmentTable(len(src) + 1, len(tgt) + 1, ops, lengths)


def cheapest_paths(tab: AlignmentTable, max_steps: int | None = None) -> Iterator[list[AlignOp]]:
    """The cheapest paths, left to right, in ChERRANT's depth-first order (only the first
    operation of each cell when the lengths differ by more than 10), while their operations add
    up to at most ``max_steps`` (default :data:`MAX_ALIGNMENT_STEPS`; the first path always):
    every path unless a pair has very many (then an :class:`AlignmentBudgetWarning`)."""
    budget = MAX_ALIGNMENT_STEPS if max_steps is None else max_steps
    steps = 0
    for number, path in enumerate(_all_cheapest_paths(tab)):
        steps += len(path)
        if steps > budget and number:
            warnings.warn(f"a sentence pair has more cheapest alignments than the budget of {budget:,} operations "
                          "(gecmetrics.core.lang.zh.align.MAX_ALIGNMENT_STEPS): only the first ones, in ChERRANT's "
                          "order, were followed, so its M2 lists the first of ChERRANT's edit sets",
                          AlignmentBudgetWarning, stacklevel=2)
            return
        yield path


def _all_cheapest_paths(tab: AlignmentTable) -> Iterator[list[AlignOp]]:
    """Every cheapest path, left to right, in ChERRANT's depth-first order (only the first
    operation of each cell when the lengths differ by more than 10)."""
    n, m = tab.rows - 1, tab.columns - 1
    first_only = abs(n - m) > FIRST_ONLY_LENGTH_DIFFERENCE
    width = tab.columns
    ops, trans_len = tab.operations, tab.transposition
    # Each stack entry: (i, j, path so far as a linked list ((op...), rest)) whose head is leftmost.
    stack: list[tuple[int, int, tuple | None]] = [(n, m, None)]
    while stack:
        i, j, path = stack.pop()
        if i + j == 0:
            out = []
            while path is not None:
                out.append(path[0])
                path = path[1]
            yield out
            continue
        here = i * width + j
        cell = ops[here]
        steps = []
        if cell & MATCH:
            steps.append((i - 1, j - 1, ("M", i - 1, i, j - 1, j)))
        else:
            for bit in _ORDER:
                if not cell & bit:
                    continue
                if bit == TRANSPOSE:
                    k = trans_len[here]
                    steps.append((i - k, j - k, (f"T{k}", i - k, i, j - k, j)))
                elif bit == SUBSTITUTE:
                    steps.append((i - 1, j - 1, ("S", i - 1, i, j - 1, j)))
                elif bit == INSERT:
                    steps.append((i, j - 1, ("I", i, i, j - 1, j)))
                else:
                    steps.append((i - 1, j, ("D", i - 1, i, j, j)))
                if first_only:
                    break
        for si, sj, op in reversed(steps):
            stack.append((si, sj, (op, path)))
