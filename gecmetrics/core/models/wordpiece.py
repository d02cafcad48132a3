"""The token ids transformers' Python ``BertTokenizer`` gives an ASCII text, computed here: each
distinct word once.

Why: BERTScore, PT-M2 and SOME read texts with the Python BERT tokenizer (for its Unicode
handling, see :func:`~.loading.python_bert_tokenizer_class`), which sends every character of a
text through several Python functions and every word through a substring search: about 0.45 ms
a CoNLL-2014 line (3.46 s for the 7,872 lines of INPUT, AMU, CAMB, CUUI, REF0 and REF1; 0.19 s
here, the same ids), about a tenth of a cold BERTScore run with a small model. A corpus repeats
its words (and the systems repeat their sources), so looking each distinct word up once does
most of the work once.

What: on a text whose characters are all ASCII and which holds none of the tokenizer's added
tokens ([CLS], [SEP] ... in any case), BERT's basic tokenization is: drop the control characters
but tab, newline and carriage return, which become spaces; lower-case (an uncased tokenizer);
split on spaces and around every printable ASCII character that is not a letter or a digit
(BERT's punctuation: ``_is_punctuation`` counts all of them); NFC normalization and accent
stripping change nothing in ASCII, and no ASCII character is a CJK one. Each word then gets
the greedy longest-match-first WordPiece pieces of the vocabulary (``[UNK]`` for a word with no
split or longer than ``max_input_chars_per_word``). Every other text is given to the tokenizer
itself.

When: only for the Python ``BertTokenizer`` (``BertTokenizerLegacy`` in transformers 5) with
basic tokenization and punctuation splitting on, special tokens not split, right-side
truncation and its ``tokenize`` and ``prepare_for_tokenization`` not overridden; and only after
both give the same ids on probe texts that hold every ASCII character (:func:`fast_token_ids`).
Anything else uses the tokenizer, as before.
"""
from __future__ import annotations

import re
import threading
import weakref
from typing import Any, Callable, Sequence

_CONTROL = {**{code: None for code in [*range(0, 9), 11, 12, *range(14, 32), 127]}, 9: " ", 10: " ", 13: " "}
"""ASCII characters the basic tokenizer drops (its ``_is_control``: category C but tab, newline
and carriage return, which ``_is_whitespace`` turns into spaces)."""

_WORDS = re.compile(r"[0-9A-Za-z]+|[!-/:-@\[-`{-~]")
"""A run of letters and digits, or one punctuation character (ASCII 33-47, 58-64, 91-96,
123-126): the pieces the basic tokenizer splits cleaned ASCII text into (spaces are dropped)."""

MAX_ADDED_TOKENS = 64
"""More added tokens than this: every text goes to the tokenizer (the check of a text for them
would cost more than it saves)."""

PROBES = ("Hello , World ! It 's a TEST of the tokenizer ... don't stop-me now",
          "".join(chr(code) for code in range(128)),
          " ".join(chr(code) * 2 for code in range(32, 127)),
          "a\tb\nc\rd\x0be\x0cf\x00g\x7fh\x1fi  j",
          "x" * 150 + " " + "ab" * 60 + " qzxjqzxj 123456789 e.g. U.S.A. $5,000 (50%) #1 @home ~/path [x] {y}",
          "", "   ", "\t\n")
"""Texts both ways must agree on before this module is used for a tokenizer (plus a few made
of its own vocabulary: see :func:`_vocabulary_probes`)."""


_MADE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()


def fast_token_ids(tokenizer: Any) -> Callable[[Sequence[str]], list[list[int]]] | None:
    """A function giving the ids ``tokenizer(texts, add_special_tokens=False)["input_ids"]``
    gives, computing those of ASCII texts here; None when ``tokenizer`` is not one this module
    can stand in for (see the module docstring). Made (and checked) once per tokenizer object."""
    with _LOCK:
        try:
            found = _MADE.get(tokenizer, False)
        except TypeError:  # not weakly referable: made each time
            found = False
        if found is False:
            pieces = _WordPieces.for_tokenizer(tokenizer)
            found = pieces.ids_of if pieces is not None else None
            try:
                _MADE[tokenizer] = found
            except TypeError:
                pass
        return found


class _WordPieces:
    """The ids of ASCII texts for one Python BERT tokenizer (its vocabulary, case and added
    tokens read once), and a memo of the pieces of each word seen."""

    def __init__(self, tokenizer: Any) -> None:
        self.tokenizer = tokenizer
        wordpiece = tokenizer.wordpiece_tokenizer
        self.vocab: dict[str, int] = dict(wordpiece.vocab)
        self.unk = str(wordpiece.unk_token)
        self.longest = int(wordpiece.max_input_chars_per_word)
        self.lower = bool(tokenizer.basic_tokenizer.do_lower_case)
        added = getattr(tokenizer, "_added_tokens_encoder", None)
        self.added: dict[str, int] = dict(added) if isinstance(added, dict) else {}
        special = [str(token) for token in getattr(tokenizer, "all_special_tokens", ()) or ()]
        self.added_lower = sorted({token.lower() for token in [*self.added, *special] if token})
        self.unk_id = self.added.get(self.unk, self.vocab.get(self.unk))
        self.memo: dict[str, tuple[int, ...]] = {}

    @classmethod
    def for_tokenizer(cls, tokenizer: Any) -> _WordPieces | None:
        if not _eligible(tokenizer):
            return None
        try:
            made = cls(tokenizer)
        except (AttributeError, TypeError, ValueError):
            return None
        if made.unk_id is None or len(made.added) > MAX_ADDED_TOKENS:
            return None
        probes = [*PROBES, *_vocabulary_probes(made.vocab)]
        try:
            expected = [list(ids) for ids in tokenizer(probes, add_special_tokens=False, verbose=False)["input_ids"]]
        except Exception:  # a tokenizer that cannot be called so: it is used as it is elsewhere too
            return None
        return made if made.ids_of(probes) == expected else None

    def ids_of(self, texts: Sequence[str]) -> list[list[int]]:
        results: list[list[int] | None] = []
        others: list[int] = []
        for index, text in enumerate(texts):
            if text.isascii() and not self._holds_added(text):
                results.append(self._ascii_ids(text))
            else:
                results.append(None)
                others.append(index)
        if others:
            given = self.tokenizer([texts[index] for index in others], add_special_tokens=False,
                                   verbose=False)["input_ids"]
            for index, ids in zip(others, given):
                results[index] = list(ids)
        return results  # type: ignore[return-value]

    def _holds_added(self, text: str) -> bool:
        if not self.added_lower:
            return False
        lowered = text.lower()
        return any(token in lowered for token in self.added_lower)

    def _ascii_ids(self, text: str) -> list[int]:
        cleaned = text.translate(_CONTROL)
        if self.lower:
            cleaned = cleaned.lower()
        ids: list[int] = []
        memo = self.memo
        for word in _WORDS.findall(cleaned):
            found = memo.get(word)
            if found is None:
                found = memo[word] = self._word_ids(word)
            ids.extend(found)
        return ids

    def _word_ids(self, word: str) -> tuple[int, ...]:
        """Greedy longest-match-first WordPiece of one word (``##`` before a piece not at its
        start), as ids; ``[UNK]`` when a part has no piece or the word is too long."""
        if len(word) > self.longest:
            return (self.unk_id,)  # type: ignore[return-value]
        vocab, added = self.vocab, self.added
        pieces: list[int] = []
        start = 0
        while start < len(word):
            end = len(word)
            while end > start:
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                if piece in vocab:
                    pieces.append(added.get(piece, vocab[piece]))
                    break
                end -= 1
            else:
                return (self.unk_id,)  # type: ignore[return-value]
            start = end
        return tuple(pieces)


def _vocabulary_probes(vocab: dict[str, int]) -> list[str]:
    """Probe texts made of the vocabulary's own pieces: whole words, continuation pieces glued
    to them, mixed case, so that the probes reach the vocabulary lookups and not only [UNK]."""
    words = [token for token in list(vocab)[:4000] if token.isascii() and token.isalnum()][:40]
    suffixes = [token[2:] for token in list(vocab)[:8000] if token.startswith("##") and token[2:].isalnum()][:20]
    glued = [word + suffix for word, suffix in zip(words, suffixes)]
    return [" ".join(words), " ".join(glued), " ".join(word.upper() for word in words[:20]),
            ",".join(word.capitalize() for word in words[20:])]


def _eligible(tokenizer: Any) -> bool:
    """The Python BERT tokenizer with the settings this module computes (see the module
    docstring)."""
    kind = type(tokenizer)
    if kind.__name__ not in ("BertTokenizer", "BertTokenizerLegacy") or not kind.__module__.startswith(
            "transformers.models.bert.tokenization_bert"):
        return False
    basic = getattr(tokenizer, "basic_tokenizer", None)
    wordpiece = getattr(tokenizer, "wordpiece_tokenizer", None)
    if basic is None or wordpiece is None or not getattr(tokenizer, "do_basic_tokenize", False):
        return False
    if not getattr(basic, "do_split_on_punc", True) or getattr(tokenizer, "split_special_tokens", False):
        return False
    if getattr(tokenizer, "truncation_side", "right") != "right":
        return False
    never_split = set(getattr(basic, "never_split", ()) or ())
    if never_split - set(getattr(tokenizer, "all_special_tokens", ()) or ()):
        return False  # words kept whole that are not special tokens: not handled here
    for name in ("tokenize", "_tokenize", "prepare_for_tokenization"):
        method = getattr(kind, name, None)
        owner = next((base for base in kind.__mro__ if name in vars(base)), None)
        if method is None or owner is None or not owner.__module__.startswith("transformers."):
            return False
    return True


def with_special_tokens(ids: list[int], cls_id: int, sep_id: int, max_length: int | None) -> tuple[int, ...]:
    """``[CLS] ids [SEP]`` truncated on the right to ``max_length`` tokens in all, as the
    tokenizer's ``add_special_tokens=True, truncation=True, max_length=...`` makes a single text."""
    if max_length is not None and len(ids) > max_length - 2:
        ids = ids[:max(max_length - 2, 0)]
    return (cls_id, *ids, sep_id)
