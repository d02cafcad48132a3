"""The Lancaster (Paice/Husk) stemmer, as ERRANT's classifier uses it for derivational MORPH.

Paice, Chris D. "Another Stemmer." ACM SIGIR Forum 24.3 (1990): 56-61. The rule table below is
the standard Lancaster table (the one NLTK's ``LancasterStemmer`` uses by default, which ERRANT
3.0.2 bundles), written out as (word ending, only when the word is intact, letters removed,
letters appended, stop after this rule). The procedure follows that implementation's details:
the word is lower-cased; the rules tried are those keyed by the last letter of the word's
leading alphabetic run; the first rule whose ending matches and whose result is acceptable
applies; stemming repeats until a rule says stop or none applies.
"""
from __future__ import annotations

from functools import lru_cache

_VOWELS = "aeiouy"

# (ending, intact only, remove, append, stop)
RULES: tuple[tuple[str, bool, int, str, bool], ...] = (
    ("ia", True, 2, "", True), ("a", True, 1, "", True), ("bb", False, 1, "", True),
    ("ytic", False, 3, "s", True), ("ic", False, 2, "", False), ("nc", False, 1, "t", False),
    ("dd", False, 1, "", True), ("ied", False, 3, "y", False), ("ceed", False, 2, "ss", True),
    ("eed", False, 1, "", True), ("ed", False, 2, "", False), ("hood", False, 4, "", False),
    ("e", False, 1, "", False), ("lief", False, 1, "v", True), ("if", False, 2, "", False),
    ("ing", False, 3, "", False), ("iag", False, 3, "y", True), ("ag", False, 2, "", False),
    ("gg", False, 1, "", True), ("th", True, 2, "", True), ("guish", False, 5, "ct", True),
    ("ish", False, 3, "", False), ("i", True, 1, "", True), ("i", False, 1, "y", False),
    ("ij", False, 1, "d", True), ("fuj", False, 1, "s", True), ("uj", False, 1, "d", True),
    ("oj", False, 1, "d", True), ("hej", False, 1, "r", True), ("verj", False, 1, "t", True),
    ("misj", False, 2, "t", True), ("nj", False, 1, "d", True), ("j", False, 1, "s", True),
    ("ifiabl", False, 6, "", True), ("iabl", False, 4, "y", True), ("abl", False, 3, "", False),
    ("ibl", False, 3, "", True), ("bil", False, 2, "l", False), ("cl", False, 1, "", True),
    ("iful", False, 4, "y", True), ("ful", False, 3, "", False), ("ul", False, 2, "", True),
    ("ial", False, 3, "", False), ("ual", False, 3, "", False), ("al", False, 2, "", False),
    ("ll", False, 1, "", True), ("ium", False, 3, "", True), ("um", True, 2, "", True),
    ("ism", False, 3, "", False), ("mm", False, 1, "", True), ("sion", False, 4, "j", False),
    ("xion", False, 4, "ct", True), ("ion", False, 3, "", False), ("ian", False, 3, "", False),
    ("an", False, 2, "", False), ("een", False, 0, "", True), ("en", False, 2, "", False),
    ("nn", False, 1, "", True), ("ship", False, 4, "", False), ("pp", False, 1, "", True),
    ("er", False, 2, "", False), ("ear", False, 0, "", True), ("ar", False, 2, "", True),
    ("or", False, 2, "", False), ("ur", False, 2, "", False), ("rr", False, 1, "", True),
    ("tr", False, 1, "", False), ("ier", False, 3, "y", False), ("ies", False, 3, "y", False),
    ("sis", False, 2, "", True), ("is", False, 2, "", False), ("ness", False, 4, "", False),
    ("ss", False, 0, "", True), ("ous", False, 3, "", False), ("us", True, 2, "", True),
    ("s", True, 1, "", False), ("s", False, 0, "", True), ("plicat", False, 4, "y", True),
    ("at", False, 2, "", False), ("ment", False, 4, "", False), ("ent", False, 3, "", False),
    ("ant", False, 3, "", False), ("ript", False, 2, "b", True), ("orpt", False, 2, "b", True),
    ("duct", False, 1, "", True), ("sumpt", False, 2, "", True), ("cept", False, 2, "iv", True),
    ("olut", False, 2, "v", True), ("sist", False, 0, "", True), ("ist", False, 3, "", False),
    ("tt", False, 1, "", True), ("iqu", False, 3, "", True), ("ogu", False, 1, "", True),
    ("siv", False, 3, "j", False), ("eiv", False, 0, "", True), ("iv", False, 2, "", False),
    ("bly", False, 1, "", False), ("ily", False, 3, "y", False), ("ply", False, 0, "", True),
    ("ly", False, 2, "", False), ("ogy", False, 1, "", True), ("phy", False, 1, "", True),
    ("omy", False, 1, "", True), ("opy", False, 1, "", True), ("ity", False, 3, "", False),
    ("ety", False, 3, "", False), ("lty", False, 2, "", True), ("istry", False, 5, "", True),
    ("ary", False, 3, "", False), ("ory", False, 3, "", False), ("ify", False, 3, "", True),
    ("ncy", False, 2, "t", False), ("acy", False, 3, "", False), ("iz", False, 2, "", False),
    ("yz", False, 1, "s", True),
)


def _rules_by_last_letter() -> dict[str, list[tuple[str, bool, int, str, bool]]]:
    table: dict[str, list] = {}
    for rule in RULES:
        table.setdefault(rule[0][-1], []).append(rule)
    return table


_BY_LETTER = _rules_by_last_letter()


def _acceptable(word: str, remove: int) -> bool:
    """A stem must keep 2 letters after an initial vowel, else 3 with a vowel in the first three."""
    if word[0] in _VOWELS:
        return len(word) - remove >= 2
    return len(word) - remove >= 3 and (word[1] in _VOWELS or word[2] in _VOWELS)


def _last_letter(word: str) -> int:
    """Index of the last letter of the word's leading alphabetic run (-1 if none)."""
    index = -1
    for position, character in enumerate(word):
        if not character.isalpha():
            break
        index = position
    return index


@lru_cache(maxsize=65536)
def lancaster_stem(word: str) -> str:
    """The Lancaster stem of a word (lower-cased first)."""
    word = word.lower()
    intact = word
    while True:
        last = _last_letter(word)
        if last < 0 or word[last] not in _BY_LETTER:
            return word
        for ending, intact_only, remove, append, stop in _BY_LETTER[word[last]]:
            if not word.endswith(ending):
                continue
            if intact_only and word != intact:
                continue
            if not _acceptable(word, remove):
                continue
            word = word[:len(word) - remove] + append
            if stop:
                return word
            break
        else:
            return word
