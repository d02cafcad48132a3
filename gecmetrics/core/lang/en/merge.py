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
from itertools import combinations, groupby

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
        processed = run if kind == "T" else _process(run, orig, cor)
        spans.extend(op[1:] for op in processed)
    return spans


def is_punctuation(sentence: ParsedSentence, index: int) -> bool:
    """ERRANT's test: POS PUNCT, or a text that is a substring of string.punctuation."""
    return sentence.pos[index] == "PUNCT" or sentence.words[index] in string.punctuation


def _process(run: list[AlignOp], orig: ParsedSentence, cor: ParsedSentence) -> list[AlignOp]:
    """ERRANT's rules on a run of adjacent S, D and I operations: split or merge it."""
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
