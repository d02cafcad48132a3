"""ERRANT's token alignment of an original and a corrected sentence.

A Damerau-Levenshtein alignment in which matching tokens (same text) cost 0, insertions and
deletions 1, a substitution costs 0 when only the case differs and otherwise
lemma (0 / 0.499) + part of speech (0 / 0.25 between open classes / 0.5) + character cost
(normalised Indel distance of the texts), and a transposition of k+1 tokens whose lower-cased
texts are the same multiset costs k. With ``lev`` a substitution costs 1 and there are no
transpositions. Ties are broken transposition, substitution, insertion, deletion, and the
cheapest path is read back from the bottom right corner, exactly as ERRANT 3.0.2 does; so the
same costs give the same edits.

The matrices are filled by the optional C extension ``gecmetrics.core._align`` when it is built
(and ``GECMETRICS_PYTHON_ALIGN`` is not set), else by :func:`python_alignment`, the
reference, which the tests compare with it.
"""
from __future__ import annotations

import os
import threading
from array import array
from functools import lru_cache
from types import ModuleType

from ....errors import LineRefused
from .parse import ParsedSentence

try:
    from ... import _align as compiled
except ImportError:  # installed without a C compiler
    compiled: ModuleType | None = None  # type: ignore[no-redef]

ENVIRONMENT_VARIABLE = "GECMETRICS_PYTHON_ALIGN"
OPEN_POS = frozenset({"ADJ", "ADV", "NOUN", "VERB"})
LEMMA_COST = 0.499
MATCH, SUBSTITUTE, INSERT, DELETE = "M", "S", "I", "D"
_CODES = {0: MATCH, 1: SUBSTITUTE, 2: INSERT, 3: DELETE}
_TRANSPOSE_BASE = 10

AlignOp = tuple  # (operation, o_start, o_end, c_start, c_end); operation M, S, I, D or T<k>


def compiled_alignment_enabled() -> bool:
    """Whether alignments use the C extension: built, and not disabled by the environment."""
    return compiled is not None and os.environ.get(ENVIRONMENT_VARIABLE, "") in ("", "0")


MAX_ALIGNMENT_CELLS = 25_000_000
"""Upper bound of the alignment table, (original tokens + 1) x (corrected tokens + 1) cells, 12
bytes each (about 300 MB): e.g. two 5,000-token texts, or a 14-token source and a 1.6
million-token line. ERRANT fills the same table as Python lists (about 100 bytes a cell)."""


class AlignmentTooLarge(LineRefused):
    """Two sentences whose alignment table would exceed :data:`MAX_ALIGNMENT_CELLS`."""


def check_alignment_size(orig_tokens: int, cor_tokens: int) -> None:
    """An :class:`AlignmentTooLarge` error when two sentences of these lengths cannot be aligned
    within :data:`MAX_ALIGNMENT_CELLS` (checked before anything is allocated)."""
    cells = (orig_tokens + 1) * (cor_tokens + 1)
    if cells > MAX_ALIGNMENT_CELLS:
        raise AlignmentTooLarge(f"cannot align a {orig_tokens:,}-token sentence with a {cor_tokens:,}-token one: "
                                f"{cells:,} table cells, more than the bound of {MAX_ALIGNMENT_CELLS:,} "
                                "(gecmetrics.core.lang.en.align.MAX_ALIGNMENT_CELLS, about 300 MB)")


def align(orig: ParsedSentence, cor: ParsedSentence, lev: bool = False, use_compiled: bool | None = None
          ) -> list[AlignOp]:
    """The cheapest alignment as (operation, o_start, o_end, c_start, c_end), left to right;
    an :class:`AlignmentTooLarge` error above :data:`MAX_ALIGNMENT_CELLS`."""
    check_alignment_size(len(orig), len(cor))
    if use_compiled is None:
        use_compiled = compiled_alignment_enabled()
    if use_compiled:
        if compiled is None:
            raise RuntimeError("the C extension gecmetrics.core._align is not built in this installation")
        operations = _compiled_operations(orig, cor, lev)
    else:
        operations = python_operations(orig, cor, lev)
    return _spans(operations)


def _compiled_operations(orig: ParsedSentence, cor: ParsedSentence, lev: bool) -> list[str]:
    codes = array("i")
    codes.frombytes(compiled.align(_features(orig), _features(cor), list(orig.words), list(cor.words), lev))
    return [_CODES[code] if code < _TRANSPOSE_BASE else f"T{code - _TRANSPOSE_BASE}" for code in codes]


_IDS_LOCK = threading.Lock()


class _Ids(dict):
    """Ids of strings in order of first sight: ``ids[text]`` adds an unseen text (under a lock:
    two threads adding two texts at once must not give both the same id)."""

    def __missing__(self, text: str) -> int:
        with _IDS_LOCK:
            found = dict.get(self, text)
            if found is None:
                found = self[text] = self._new_id(text)
            return found

    def _new_id(self, text: str) -> int:
        return len(self)


class _PosCodes(_Ids):
    """The POS feature: 2 * id + 1 for an open class, 2 * id else."""

    def _new_id(self, pos: str) -> int:
        return 2 * len(self) + (pos in OPEN_POS)


# Ids of texts, lower cases, lemmas and POS (one table each), shared by every sentence of the process,
# so that a sentence's features are made once, whatever it is aligned with.
_IDS: tuple[_Ids, ...] = (_Ids(), _Ids(), _Ids(), _PosCodes())


def _features(sentence: ParsedSentence) -> bytes:
    """Four int32 per token: ids of text, lower case and lemma, and the POS code
    2 * id + (1 for an open class); kept on the sentence."""
    if not sentence._features:
        values = array("i", bytes(16 * len(sentence)))
        for column, (ids, texts) in enumerate(zip(_IDS, (sentence.words, sentence.lower, sentence.lemma,
                                                          sentence.pos))):
            values[column::4] = array("i", map(ids.__getitem__, texts))
        sentence._features.append(values.tobytes())
    return sentence._features[0]


def _spans(operations: list[str]) -> list[AlignOp]:
    """Token spans of each operation, from left to right."""
    spans, i, j = [], 0, 0
    for operation in operations:
        if operation in (MATCH, SUBSTITUTE):
            spans.append((operation, i, i + 1, j, j + 1))
            i, j = i + 1, j + 1
        elif operation == DELETE:
            spans.append((operation, i, i + 1, j, j))
            i += 1
        elif operation == INSERT:
            spans.append((operation, i, i, j, j + 1))
            j += 1
        else:
            size = int(operation[1:])
            spans.append((operation, i, i + size, j, j + size))
            i, j = i + size, j + size
    return spans


@lru_cache(maxsize=65536)
def character_cost(a: str, b: str) -> float:
    """Normalised Indel distance of two strings (code points): 1 - 2 LCS / (|a| + |b|)."""
    total = len(a) + len(b)
    if not total:
        return 0.0
    return (total - 2 * lcs_length(a, b)) / total


def lcs_length(a: str, b: str) -> int:
    """Length of the longest common subsequence of two strings."""
    row = [0] * (len(b) + 1)
    for x in a:
        diagonal = 0
        for y_index, y in enumerate(b):
            above = row[y_index + 1]
            if x == y:
                row[y_index + 1] = diagonal + 1
            elif row[y_index] > above:
                row[y_index + 1] = row[y_index]
            diagonal = above
    return row[-1]


def substitution_cost(orig: ParsedSentence, i: int, cor: ParsedSentence, j: int) -> float:
    """ERRANT's linguistic substitution cost of orig token i by cor token j (0 <= cost < 2)."""
    if orig.lower[i] == cor.lower[j]:
        return 0
    lemma_cost = 0 if orig.lemma[i] == cor.lemma[j] else LEMMA_COST
    o_pos, c_pos = orig.pos[i], cor.pos[j]
    if o_pos == c_pos:
        pos_cost = 0
    elif o_pos in OPEN_POS and c_pos in OPEN_POS:
        pos_cost = 0.25
    else:
        pos_cost = 0.5
    return lemma_cost + pos_cost + character_cost(orig.words[i], cor.words[j])


def python_operations(orig: ParsedSentence, cor: ParsedSentence, lev: bool = False) -> list[str]:
    """The reference implementation: fill the cost and operation matrices, read the path back."""
    cost, ops = _python_matrices(orig, cor, lev)
    i, j = len(orig), len(cor)
    operations = []
    while i + j:
        operation = ops[i][j]
        operations.append(operation)
        if operation in (MATCH, SUBSTITUTE):
            i, j = i - 1, j - 1
        elif operation == DELETE:
            i -= 1
        elif operation == INSERT:
            j -= 1
        else:
            size = int(operation[1:])
            i, j = i - size, j - size
    operations.reverse()
    return operations


def _python_matrices(orig: ParsedSentence, cor: ParsedSentence, lev: bool) -> tuple[list, list]:
    n, m = len(orig), len(cor)
    cost = [[0.0] * (m + 1) for _ in range(n + 1)]
    ops = [["O"] * (m + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        cost[i][0], ops[i][0] = cost[i - 1][0] + 1, DELETE
    for j in range(1, m + 1):
        cost[0][j], ops[0][j] = cost[0][j - 1] + 1, INSERT
    for i in range(n):
        for j in range(m):
            if orig.words[i] == cor.words[j]:
                cost[i + 1][j + 1], ops[i + 1][j + 1] = cost[i][j], MATCH
            else:
                cost[i + 1][j + 1], ops[i + 1][j + 1] = _python_cell(cost, orig, i, cor, j, lev)
    return cost, ops


def _python_cell(cost: list, orig: ParsedSentence, i: int, cor: ParsedSentence, j: int, lev: bool
                 ) -> tuple[float, str]:
    """The cheapest operation ending at cell (i + 1, j + 1) of a non-matching pair."""
    delete = cost[i][j + 1] + 1
    insert = cost[i + 1][j] + 1
    transpose = float("inf")
    k = 1
    if lev:
        substitute = cost[i][j] + 1
    else:
        substitute = cost[i][j] + substitution_cost(orig, i, cor, j)
        while i - k >= 0 and j - k >= 0 and cost[i - k + 1][j - k + 1] != cost[i - k][j - k]:
            if sorted(orig.lower[i - k:i + 1]) == sorted(cor.lower[j - k:j + 1]):
                transpose = cost[i - k][j - k] + k
                break
            k += 1
    best, operation = transpose, f"T{k + 1}"
    for value, name in ((substitute, SUBSTITUTE), (insert, INSERT), (delete, DELETE)):
        if value < best:
            best, operation = value, name
    return best, operation
