"""ChERRANT's merging of an alignment path into span edits, at character level
(``modules/merger.py`` with granularity "char" and no ``-m``).

1. Runs of the path are grouped: matches together, transpositions together, and the rest
   (substitutions, insertions, deletions) together. Each transposition stays an edit; a run of
   matches becomes one match; a run of the rest becomes one edit, except that a single operation
   stays as it is and a run made only of deletions and insertions is not merged. A merged run
   is a deletion (only deletions), an insertion (only insertions), else a substitution.
2. Word-order patterns become transpositions: substitution-match-substitution when the outer
   texts cross (equal when one of the four texts is one character long, else within one edit
   of each other), and deletion-match-insertion (or insertion-match-deletion, the middle a match
   or a transposition) when the moved texts are not punctuation, their lengths differ by at most
   one and they are equal (one character) or within one edit or rotations of each other.
   Matches are dropped.
3. Edits whose two sides spell the same text are dropped, and a substitution whose target starts
   or ends with source tokens is trimmed to the rest (becoming an insertion or a deletion when
   one side is then empty).
"""
from __future__ import annotations

import string
from itertools import groupby
from typing import Sequence

from .align import AlignOp

# ChERRANT's punctuation for merging: string.punctuation, then its (shorter) Chinese string.
MERGE_PUNCTUATION = string.punctuation + ("！？｡＂＃＄％＆＇（）＊＋，－／：；＜＝＞＠［＼］＾＿｀｛｜｝～｟｠｢｣､、〃》「」『』"
                                          "【】〔〕〖〗〘〙〚〛〜〝〞〟–—‘'‛“”„‟…‧.")


def within_one_edit(a: str, b: str) -> bool:
    """Whether the Levenshtein distance of a and b is at most 1."""
    la, lb = len(a), len(b)
    if la < lb:
        a, b, la, lb = b, a, lb, la
    if la - lb > 1:
        return False
    prefix = 0
    while prefix < lb and a[prefix] == b[prefix]:
        prefix += 1
    if la == lb:
        return a[prefix + 1:] == b[prefix + 1:]
    return a[prefix + 1:] == b[prefix:]


def is_rotation(a: str, b: str) -> bool:
    """ChERRANT's _check_revolve: b occurs in a + a."""
    return b in a + a


def _merged(seq: Sequence[AlignOp], tag: str) -> list[AlignOp]:
    return [(tag, seq[0][1], seq[-1][2], seq[0][3], seq[-1][4])] if seq else list(seq)


def _process_run(seq: list[AlignOp]) -> list[AlignOp]:
    if len(seq) <= 1:
        return seq
    kinds = {op[0] for op in seq}
    if kinds == {"D"} or kinds == {"I"}:
        return _merged(seq, kinds.pop())
    if kinds == {"D", "I"}:
        return seq
    if kinds == {"S"}:
        return _merged(seq, "S")
    if kinds == {"M"}:
        return _merged(seq, "M")
    return _merged(seq, "S")


def _run_key(op: AlignOp):
    first = op[0][0]
    return first if first in ("M", "T") else False


def _joined(tokens: Sequence[str], start: int, end: int) -> str:
    return "".join(tokens[start:end])


def _word_order(edits: list[AlignOp], src: Sequence[str], tgt: Sequence[str]) -> list[AlignOp]:
    """Step 2: transposition patterns, matches dropped."""
    out: list[AlignOp] = []
    i = 0
    count = len(edits)
    while i < count:
        e1 = edits[i][0][0]
        if i < count - 2:
            e2 = edits[i + 1][0][0]
            e3 = edits[i + 2][0][0]
            merge = False
            if e1 == "S" and e2 == "M" and e3 == "S":
                w1 = _joined(src, edits[i][1], edits[i][2])
                w2 = _joined(tgt, edits[i][3], edits[i][4])
                w3 = _joined(src, edits[i + 2][1], edits[i + 2][2])
                w4 = _joined(tgt, edits[i + 2][3], edits[i + 2][4])
                if min(len(w1), len(w2), len(w3), len(w4)) == 1:
                    merge = w1 == w4 and w2 == w3
                else:
                    merge = within_one_edit(w1, w4) and within_one_edit(w2, w3)
            elif (e1 == "D" and (e2 == "M" or e2.startswith("T")) and e3 == "I") or \
                    (e1 == "I" and (e2 == "M" or e2.startswith("T")) and e3 == "D"):
                if e1 == "D":
                    a = _joined(src, edits[i][1], edits[i][2])
                    b = _joined(tgt, edits[i + 2][3], edits[i + 2][4])
                else:
                    a = _joined(src, edits[i + 2][1], edits[i + 2][2])
                    b = _joined(tgt, edits[i][3], edits[i][4])
                if len(a) < len(b):
                    a, b = b, a
                if a not in MERGE_PUNCTUATION and b not in MERGE_PUNCTUATION and len(a) - len(b) <= 1:
                    if len(b) == 1:
                        merge = a == b
                    else:
                        merge = within_one_edit(a, b) or (len(a) == len(b) and is_rotation(a, b))
            else:
                if e1 != "M":
                    out.append(edits[i])
                i += 1
                continue
            if merge:
                out.extend(_merged(edits[i:i + 3], "T" + str(edits[i + 2][2] - edits[i][1])))
                i += 3
            else:
                out.append(edits[i])
                i += 1
        else:
            if e1 != "M":
                out.append(edits[i])
            i += 1
    return out


def _trimmed(edit: AlignOp, src: Sequence[str], tgt: Sequence[str]) -> AlignOp:
    """Step 3 for a substitution: trim source tokens found at the start / end of its target."""
    span2 = _joined(tgt, edit[3], edit[4])
    unchanged = True
    common = ""
    candidate_start = edit[1]
    for i in range(edit[1], edit[2]):
        if not span2.startswith(common + src[i]):
            break
        common += src[i]
        candidate_start = i + 1
    new_start_1, new_start_2 = edit[1], edit[3]
    if common:
        built = ""
        for i in range(edit[3], edit[4]):
            built += tgt[i]
            if built == common:
                new_start_1, new_start_2 = candidate_start, i + 1
                unchanged = False
                break
            if len(built) > len(common):
                break
    common = ""
    new_end_1, new_end_2 = edit[2], edit[4]
    candidate_end = edit[2]
    for i in reversed(range(new_start_1, edit[2])):
        if not span2.endswith(src[i] + common):
            break
        common = src[i] + common
        candidate_end = i
    if common:
        built = ""
        for i in reversed(range(new_start_2, edit[4])):
            built = tgt[i] + built
            if built == common:
                new_end_1, new_end_2 = candidate_end, i
                unchanged = False
                break
            if len(built) > len(common):
                break
    if unchanged:
        return edit
    if new_start_1 == new_end_1:
        return ("I", new_start_1, new_end_1, new_start_2, new_end_2)
    if new_start_2 == new_end_2:
        return ("D", new_start_1, new_end_1, new_start_2, new_end_2)
    return ("S", new_start_1, new_end_1, new_start_2, new_end_2)


def merge(path: Sequence[AlignOp], src: Sequence[str], tgt: Sequence[str]) -> list[AlignOp]:
    """The span edits of one alignment path (operation, source start, end, target start, end),
    operation 'S', 'I', 'D' or 'T<k>'."""
    edits: list[AlignOp] = []
    for key, run in groupby(path, _run_key):
        run = list(run)
        if key == "T":
            edits.extend(run)
        else:
            edits.extend(_process_run(run))
    out = []
    for edit in _word_order(edits, src, tgt):
        if _joined(src, edit[1], edit[2]) == _joined(tgt, edit[3], edit[4]):
            continue
        out.append(_trimmed(edit, src, tgt) if edit[0] == "S" else edit)
    return out
