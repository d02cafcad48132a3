"""Constrained decoding of the answer: a small grammar over the tokenizer's vocabulary.

The answer for n targets is fixed up to its digits: ``{"target_score1": D, ..., "target_scoreN":
D}`` with D in 1..5 and, like outlines' default JSON grammar, an optional single space after
``{``, around ``:`` and ``,`` and before ``}``. :class:`ScoreGrammar` is that language as a
deterministic automaton over characters (a state is the index of the next element; no two
optional spaces are adjacent, so one character never has two ways on). :class:`TokenTable`
gives, for a state, the tokens whose whole text the automaton accepts from there and the state
each one leads to; greedy decoding picks the most likely of them, so every finished answer is
valid and no answer takes more tokens than the longest answer has characters.
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

GRAMMAR_VERSION = "scores-1-5/optional-space/1"
"""Part of the local backend's cache key: what this grammar accepts."""

_SPACE, _DIGIT = object(), object()


class ScoreGrammar:
    """The answers with ``n`` targets and scores ``low``..``high`` (single digits)."""

    def __init__(self, n: int, low: int = 1, high: int = 5):
        if not 1 <= low <= high <= 9:
            raise ValueError("scores must be single digits")
        self.n = n
        self.digits = frozenset(str(d) for d in range(low, high + 1))
        items: list[Any] = ["{", _SPACE]
        for k in range(1, n + 1):
            if k > 1:
                items += [_SPACE, ",", _SPACE]
            items += list(f'"target_score{k}"') + [_SPACE, ":", _SPACE, _DIGIT]
        items += [_SPACE, "}"]
        self.items = items
        self.start = 0
        self.final = len(items)

    def step(self, state: int, char: str) -> int:
        """The state after ``char`` (-1: not allowed)."""
        while state < self.final:
            item = self.items[state]
            if item is _SPACE:
                if char == " ":
                    return state + 1
                state += 1  # skip the optional space
                continue
            if item is _DIGIT:
                return state + 1 if char in self.digits else -1
            return state + 1 if char == item else -1
        return -1

    def walk(self, state: int, text: str) -> int:
        """The state after all of ``text`` (-1: not allowed)."""
        for char in text:
            state = self.step(state, char)
            if state < 0:
                return -1
        return state

    def first_chars(self, state: int) -> set[str]:
        """The characters allowed next."""
        out: set[str] = set()
        while state < self.final:
            item = self.items[state]
            if item is _SPACE:
                out.add(" ")
                state += 1
                continue
            out |= self.digits if item is _DIGIT else {item}
            break
        return out

    def is_final(self, state: int) -> bool:
        return state == self.final

    @property
    def max_length(self) -> int:
        """The most characters (so tokens) an answer can take."""
        return len(self.items)


def token_strings(tokenizer: Any) -> list[str | None]:
    """The text each token id adds when it follows other text (None for special tokens).

    Decoding a token alone loses what tokenizers strip at the start of a text (SentencePiece's
    leading space), so each token is decoded after an anchor token and the anchor's text is
    cut off; byte pieces of a multi-byte character decode to U+FFFD and match nothing.
    """
    size = len(tokenizer)
    special = set(getattr(tokenizer, "all_special_ids", []) or [])
    anchor_ids = tokenizer.encode("a", add_special_tokens=False)
    anchor = anchor_ids[-1] if anchor_ids else None
    ids = list(range(size))
    if anchor is not None:
        head = tokenizer.decode([anchor], clean_up_tokenization_spaces=False)
        pairs = tokenizer.batch_decode([[anchor, i] for i in ids], clean_up_tokenization_spaces=False)
    else:
        head, pairs = "", tokenizer.batch_decode([[i] for i in ids], clean_up_tokenization_spaces=False)
    out: list[str | None] = []
    for i, text in zip(ids, pairs):
        if i in special:
            out.append(None)
        elif text.startswith(head):
            out.append(text[len(head):])
        else:
            out.append(tokenizer.decode([i], clean_up_tokenization_spaces=False))
    return out


class TokenTable:
    """The tokens allowed in each grammar state, computed once per (grammar, state)."""

    def __init__(self, strings: Sequence[str | None]):
        self.strings = list(strings)
        by_first: dict[str, list[int]] = {}
        for i, text in enumerate(self.strings):
            if text:
                by_first.setdefault(text[0], []).append(i)
        self._by_first = by_first
        self._allowed: dict[tuple[int, frozenset, int], tuple[np.ndarray, np.ndarray]] = {}

    def allowed(self, grammar: ScoreGrammar, state: int) -> tuple[np.ndarray, np.ndarray]:
        """(token ids, next states) of the tokens ``grammar`` accepts whole from ``state``."""
        key = (grammar.n, grammar.digits, state)
        found = self._allowed.get(key)
        if found is None:
            ids, nxt = [], []
            for char in sorted(grammar.first_chars(state)):
                for i in self._by_first.get(char, ()):
                    after = grammar.walk(state, self.strings[i])  # type: ignore[arg-type]
                    if after >= 0:
                        ids.append(i)
                        nxt.append(after)
            found = self._allowed[key] = (np.asarray(ids, dtype=np.int64), np.asarray(nxt, dtype=np.int64))
        return found
