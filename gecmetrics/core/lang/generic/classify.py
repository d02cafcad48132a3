"""Operation-level types for any language (ERRANT's type layout, from universal POS only).

A type is the operation, ``M`` (nothing in the original), ``U`` (nothing in the correction) or
``R`` (both), then a class, decided in this order:

1. ``UNK``: the two sides spell the same tokens (an edit that changes nothing; never made by
   the alignment, only by edits given by hand);
2. ``ORTH`` (R): the same text once lower-cased and without spaces (case, spacing);
3. ``WO`` (R): the same lower-cased tokens in another order;
4. ``PUNCT``: every token is punctuation (universal POS PUNCT, or a text in ASCII punctuation);
5. with one token on each side (R) and the same lemma: ``<class>:FORM`` when both have the same
   class (another form of one word), ``MORPH`` when they differ;
6. the class of the tokens' universal POS when they all have the same one (both sides for R):
   ADJ, ADV, CONJ (CCONJ, SCONJ), DET, NOUN (NOUN, PROPN), PART, PREP (ADP), PRON, PUNCT, VERB
   (VERB, AUX), as ERRANT names them; any other POS, mixed classes, or no POS (a model without a
   tagger): ``OTHER``.
"""
from __future__ import annotations

import string
from typing import Sequence

from ..en.parse import ParsedSentence

UD_CLASSES = {"ADJ": "ADJ", "ADP": "PREP", "ADV": "ADV", "AUX": "VERB", "CCONJ": "CONJ", "CONJ": "CONJ",
              "SCONJ": "CONJ", "DET": "DET", "NOUN": "NOUN", "PROPN": "NOUN", "PART": "PART", "PRON": "PRON",
              "PUNCT": "PUNCT", "VERB": "VERB"}
OTHER, UNKNOWN = "OTHER", "UNK"


def token_class(sentence: ParsedSentence, index: int) -> str:
    """ERRANT's name of a token's universal POS (OTHER for others and for no POS)."""
    return UD_CLASSES.get(sentence.pos[index], OTHER)


def is_punctuation(sentence: ParsedSentence, index: int) -> bool:
    return sentence.pos[index] == "PUNCT" or sentence.words[index] in string.punctuation


def classify_edit(orig: ParsedSentence, o_tokens: Sequence[int], cor: ParsedSentence, c_tokens: Sequence[int]) -> str:
    """The type of the edit replacing orig tokens ``o_tokens`` by cor tokens ``c_tokens``."""
    o_tokens, c_tokens = list(o_tokens), list(c_tokens)
    o_words = [orig.words[i] for i in o_tokens]
    c_words = [cor.words[j] for j in c_tokens]
    if o_words == c_words:
        return UNKNOWN
    operation = "M" if not o_tokens else "U" if not c_tokens else "R"
    return f"{operation}:{_category(orig, o_tokens, cor, c_tokens)}"


def _category(orig: ParsedSentence, o_tokens: list[int], cor: ParsedSentence, c_tokens: list[int]) -> str:
    sides = [(orig, i) for i in o_tokens] + [(cor, j) for j in c_tokens]
    if o_tokens and c_tokens:
        o_lower = [orig.lower[i] for i in o_tokens]
        c_lower = [cor.lower[j] for j in c_tokens]
        if "".join(o_lower) == "".join(c_lower):
            return "ORTH"
        if len(o_lower) > 1 and sorted(o_lower) == sorted(c_lower):
            return "WO"
    if all(is_punctuation(sentence, index) for sentence, index in sides):
        return "PUNCT"
    classes = {token_class(sentence, index) for sentence, index in sides}
    if len(o_tokens) == len(c_tokens) == 1:
        i, j = o_tokens[0], c_tokens[0]
        if orig.lemma[i] and orig.lemma[i] == cor.lemma[j]:
            o_class, c_class = token_class(orig, i), token_class(cor, j)
            return f"{o_class}:FORM" if o_class == c_class and o_class != OTHER else "MORPH"
    if len(classes) == 1:
        return classes.pop()
    return OTHER
