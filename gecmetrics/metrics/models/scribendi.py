"""The Scribendi Score (Islam and Magnani, EMNLP 2021) as its reference implementation computes
it (github gotutiyan/scribendi_score, ``scribendi.py``, the code behind the published
reproductions), every distinct sentence and (source, hypothesis) pair scored once.

Per sentence (source ``s``, hypothesis ``h``):

* ``s == h`` (the texts as given; the original reads lines with ``rstrip()``): 0, not scored;
* else, with ``ppl`` the causal LM perplexity (:mod:`gecmetrics.core.models.causal_lm`):
  ``ppl(s) <= ppl(h)`` -> -1 (a NaN perplexity, of an empty text, compares false);
* else +1 if ``max(token_sort_ratio(s, h), levenshtein_ratio(s, h)) >= threshold`` (0.8), else -1.

The corpus score is the sum over sentences (an integer; higher is better).

Perplexities are computed without padding, in batches of one length (the original pads batches
of 32 in file order), so they equal the original's up to float32 rounding (a few 1e-6
relative): a sentence whose two perplexities are that close could be decided the other way.
None is on CoNLL-2014 with the tiny GPT-2 (the smallest gap between log perplexities of a
changed pair is 5.8e-5; the tests compare every sentence).

The two ratios, exactly as the original gets them:

* ``token_sort_ratio``: fuzzywuzzy 0.18.0's ``fuzz.token_sort_ratio(s, h) / 100``. fuzzywuzzy
  removes the characters U+0080..U+00FF (``force_ascii``), replaces every non-word character
  (regex ``\\W``, Unicode) by a space, lower-cases, strips, splits on whitespace, sorts the
  tokens and joins them with one space; two equal results score 100, an empty one 0, else
  ``int(round(100 * r))`` with ``r`` the ratio of Python's ``difflib.SequenceMatcher(None, a, b)``
  (2 * matched characters / total length, with difflib's junk heuristic). That is the matcher
  fuzzywuzzy falls back on without python-Levenshtein, which the original's requirements.txt
  does not install. gec-metrics installs python-Levenshtein, whose ratio is instead
  ``1 - indel distance / total length``: ``token_sort="levenshtein"`` computes that one.
* ``levenshtein_ratio``: the original's own ``levenshtein_distance_ratio``: ``1 - d / (len(s) +
  len(h))`` over characters, with ``d`` the edit distance with insertions and deletions 1 and
  substitutions 2, i.e. ``len(s) + len(h) - 2 * LCS(s, h)``; computed here with a bit-parallel
  LCS instead of the original's quadratic Python table (the same integer, so the same float).

Nothing of fuzzywuzzy, python-Levenshtein or rapidfuzz is used; difflib is Python's own.
"""
from __future__ import annotations

import difflib
import math
import re
from typing import Mapping, Sequence

import numpy as np

from ...errors import InputError

THRESHOLD = 0.8
"""The original's default threshold on max(token sort ratio, Levenshtein ratio)."""
TOKEN_SORT_MATCHERS = ("difflib", "levenshtein")
"""``difflib``: the original's (fuzzywuzzy without python-Levenshtein); ``levenshtein``: gec-metrics'
(fuzzywuzzy with python-Levenshtein installed)."""

_NON_WORD = re.compile(r"(?ui)\W")
_LATIN1 = {code: None for code in range(128, 256)}


def fuzzy_process(text: str) -> str:
    """fuzzywuzzy's ``full_process(text, force_ascii=True)``: U+0080..U+00FF removed, non-word
    characters made spaces, lower case, stripped."""
    return _NON_WORD.sub(" ", text.translate(_LATIN1)).lower().strip()


def sorted_tokens(text: str) -> str:
    """fuzzywuzzy's ``_process_and_sort``: the processed text's tokens, sorted, joined by spaces."""
    return " ".join(sorted(fuzzy_process(text).split())).strip()


def lcs_length(a: str, b: str) -> int:
    """Length of a longest common subsequence of two strings (bit-parallel, Hyyro 2004: one
    big-integer step per character of ``b``)."""
    if not a or not b:
        return 0
    masks: dict[str, int] = {}
    for position, char in enumerate(a):
        masks[char] = masks.get(char, 0) | (1 << position)
    full = (1 << len(a)) - 1
    row = full
    for char in b:
        matched = row & masks.get(char, 0)
        row = ((row + matched) | (row - matched)) & full
    return len(a) - bin(row).count("1")


def indel_distance(a: str, b: str) -> int:
    """Edit distance with insertions and deletions only (a substitution costs 2)."""
    return len(a) + len(b) - 2 * lcs_length(a, b)


def levenshtein_ratio(source: str, hypothesis: str) -> float:
    """The original's ``levenshtein_distance_ratio``: ``1 - indel distance / (len + len)``
    (ZeroDivisionError for two empty texts, which the original never compares)."""
    return 1 - indel_distance(source, hypothesis) / (len(source) + len(hypothesis))


def _difflib_ratio(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, a, b).ratio()


def _indel_ratio(a: str, b: str) -> float:
    return 1 - indel_distance(a, b) / (len(a) + len(b))


def token_sort_ratio(source: str, hypothesis: str, matcher: str = "difflib") -> float:
    """fuzzywuzzy 0.18.0's ``token_sort_ratio(source, hypothesis) / 100`` with its pure-Python
    matcher (``difflib``, the original's) or python-Levenshtein's (``levenshtein``)."""
    if matcher not in TOKEN_SORT_MATCHERS:
        raise InputError(f"token sort matcher must be one of {', '.join(TOKEN_SORT_MATCHERS)}, got {matcher!r}")
    a, b = sorted_tokens(source), sorted_tokens(hypothesis)
    if a == b:
        return 100 / 100
    if not a or not b:
        return 0 / 100
    ratio = _difflib_ratio(a, b) if matcher == "difflib" else _indel_ratio(a, b)
    return int(round(100 * ratio)) / 100


def check_threshold(threshold: float, label: str = "threshold", given: object = None) -> float:
    """The threshold on max(token sort ratio, Levenshtein ratio): a number from 0 to 1 (above 1 no
    sentence passes); the metric's ``threshold`` setting is checked here too (``label``: how the
    message names it, ``given``: the value as given, when it was text)."""
    shown = threshold if given is None else given
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float, np.floating)) \
            or not math.isfinite(threshold):
        raise InputError(f"{label} must be a finite number, got {shown!r}")
    if not 0 <= threshold <= 1:
        raise InputError(f"{label} must be from 0 to 1 (it is compared with ratios of 0 to 1), got {shown!r}")
    return float(threshold)


def sentence_value(source: str, hypothesis: str, source_ppl: float, hypothesis_ppl: float,
                   threshold: float = THRESHOLD, matcher: str = "difflib") -> int:
    """The Scribendi value (-1 or +1) of a changed sentence from the two perplexities."""
    if source_ppl <= hypothesis_ppl:
        return -1
    if token_sort_ratio(source, hypothesis, matcher) >= threshold:  # max(a, b) >= t: either one
        return 1
    return 1 if levenshtein_ratio(source, hypothesis) >= threshold else -1


class ScribendiScorer:
    """Scribendi values of systems' sentences against their sources, with one perplexity
    function (:class:`gecmetrics.core.models.causal_lm.Perplexities`, which scores each distinct
    text once) and one table of pair values: a (source, hypothesis) pair met in several systems
    or lines is decided once; unchanged lines are 0 without any work."""

    def __init__(self, perplexity, threshold: float = THRESHOLD, matcher: str = "difflib") -> None:
        if not callable(perplexity):
            raise InputError("perplexity must be callable (texts -> perplexities)")
        if matcher not in TOKEN_SORT_MATCHERS:
            raise InputError(f"token sort matcher must be one of {', '.join(TOKEN_SORT_MATCHERS)}, got {matcher!r}")
        self.perplexity = perplexity
        self.threshold = check_threshold(threshold)
        self.matcher = matcher
        self.pair_values: dict[tuple[str, str], int] = {}

    def sentence_scores(self, sources: Sequence[str], hypotheses: Sequence[str]) -> np.ndarray:
        """Per-sentence values (int64: -1, 0 or +1) of one system."""
        return self.systems(sources, {"hypotheses": hypotheses})["hypotheses"]

    def systems(self, sources: Sequence[str], systems: Mapping[str, Sequence[str]]) -> dict[str, np.ndarray]:
        """Per-sentence values of several systems over the same sources: the perplexities of
        all their new changed pairs' texts are computed in one pass. The texts are checked as
        SOME's and IMPARA's (:func:`~gecmetrics.core.models.inference.check_parallel`: a string
        is no sequence of sentences)."""
        from ...core.models.inference import check_parallel, check_texts

        if not isinstance(systems, Mapping):
            raise InputError(f"systems must be a mapping of names to hypotheses, got {type(systems).__name__}")
        sources = check_texts("sources", sources)
        systems = {name: check_parallel(sources, hypotheses, str(name))[1] for name, hypotheses in systems.items()}
        new = dict.fromkeys((s, h) for hypotheses in systems.values() for s, h in zip(sources, hypotheses)
                            if s != h and (s, h) not in self.pair_values)
        if new:
            texts = list(dict.fromkeys(text for pair in new for text in pair))
            ppl = dict(zip(texts, self.perplexity(texts)))
            for s, h in new:
                self.pair_values[(s, h)] = sentence_value(s, h, ppl[s], ppl[h], self.threshold, self.matcher)
        return {name: np.array([0 if s == h else self.pair_values[(s, h)] for s, h in zip(sources, hypotheses)],
                               dtype=np.int64)
                for name, hypotheses in systems.items()}


def corpus_score(values: np.ndarray | Sequence[int]) -> int:
    """The Scribendi Score of a system: the sum of its sentence values."""
    return int(np.asarray(values, dtype=np.int64).sum())
