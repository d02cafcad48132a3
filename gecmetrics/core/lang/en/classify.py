"""ERRANT 3.0.2's English error classifier: an edit's operation and type from its tokens.

Types are ``M:`` (missing), ``U:`` (unnecessary) or ``R:`` (replacement) followed by a
category: a part of speech (ADJ, ADV, CONJ, DET, NOUN, PART, PREP, PRON, PUNCT, VERB), one of
ADJ:FORM, CONTR, MORPH, NOUN:INFL, NOUN:NUM, NOUN:POSS, ORTH, OTHER, SPELL, VERB:FORM,
VERB:INFL, VERB:SVA, VERB:TENSE, WO; or ``UNK`` for an edit that changes nothing. The rules,
their order and their thresholds are ERRANT's; they read each token's text, lower case,
lemma, spaCy POS, Penn Treebank tag (mapped to a coarse POS by :data:`PTB_TO_POS`),
dependency label and head, a British English word list (for SPELL) and the Lancaster stemmer.
"""
from __future__ import annotations

from functools import lru_cache

from ....errors import InputError
from .parse import ParsedSentence
from .stem import lancaster_stem

# Penn Treebank tag -> coarse POS: the Universal Dependencies conversion table for English
# (universaldependencies.org/tagset-conversion/en-penn-uposf.html) as ERRANT 3.0.2 uses it
# (resources/en-ptb_map, MIT licence): ADP renamed PREP, PROPN folded into NOUN, CCONJ renamed
# CONJ, plus the spaCy tags ERRANT adds ('""', SP, _SP, BES, HVS, ADD, GW, NFP, XX).
PTB_TO_POS: dict[str, str] = {
    "#": "SYM", "$": "SYM", "''": "PUNCT", ",": "PUNCT", "-LRB-": "PUNCT", "-RRB-": "PUNCT", ".": "PUNCT",
    ":": "PUNCT", "AFX": "ADJ", "CC": "CONJ", "CD": "NUM", "DT": "DET", "EX": "PRON", "FW": "X", "HYPH": "PUNCT",
    "IN": "PREP", "JJ": "ADJ", "JJR": "ADJ", "JJS": "ADJ", "LS": "X", "MD": "VERB", "NIL": "X", "NN": "NOUN",
    "NNP": "NOUN", "NNPS": "NOUN", "NNS": "NOUN", "PDT": "DET", "POS": "PART", "PRP": "PRON", "PRP$": "DET",
    "RB": "ADV", "RBR": "ADV", "RBS": "ADV", "RP": "PART", "SYM": "SYM", "TO": "PART", "UH": "INTJ", "VB": "VERB",
    "VBD": "VERB", "VBG": "VERB", "VBN": "VERB", "VBP": "VERB", "VBZ": "VERB", "WDT": "DET", "WP": "PRON",
    "WP$": "DET", "WRB": "ADV", "``": "PUNCT",
    '""': "PUNCT", "SP": "SPACE", "_SP": "SPACE", "BES": "VERB", "HVS": "VERB", "ADD": "X", "GW": "X", "NFP": "X",
    "XX": "X",
}
OPEN_POS = frozenset({"ADJ", "ADV", "NOUN", "VERB"})
RARE_POS = frozenset({"INTJ", "NUM", "SYM", "X"})
CONTRACTIONS = frozenset({"'d", "'ll", "'m", "n't", "'re", "'s", "'ve"})
AUXILIARY_CONTRACTIONS = {"ca": "can", "sha": "shall", "wo": "will"}
DEP_TO_POS = {"acomp": "ADJ", "amod": "ADJ", "advmod": "ADV", "det": "DET", "prep": "PREP", "prt": "PART",
              "punct": "PUNCT"}
AUXILIARY_DEPS = frozenset({"aux", "auxpass"})
UNKNOWN = "UNK"


@lru_cache(maxsize=65536)
def levenshtein_similarity(a: str, b: str) -> float:
    """1 - Levenshtein distance / the longer length (1.0 for two empty strings)."""
    longest = max(len(a), len(b))
    if not longest:
        return 1.0
    previous = list(range(len(b) + 1))
    for x_index, x in enumerate(a, start=1):
        current = [x_index]
        for y_index, y in enumerate(b, start=1):
            current.append(min(previous[y_index] + 1, current[-1] + 1, previous[y_index - 1] + (x != y)))
        previous = current
    return 1.0 - previous[-1] / longest


class Side:
    """The tokens of one side of an edit: a sentence and token indices (possibly empty)."""

    __slots__ = ("sentence", "indices")

    def __init__(self, sentence: ParsedSentence, indices: list[int]):
        self.sentence = sentence
        self.indices = indices

    def __len__(self) -> int:
        return len(self.indices)

    def truncated(self) -> "Side":
        return Side(self.sentence, self.indices[:-1])

    def pos_list(self) -> list[str]:
        tags = self.sentence.tag
        try:
            return [PTB_TO_POS[tags[i]] for i in self.indices]
        except KeyError as err:
            raise InputError(f"the spaCy model gave tag {err.args[0]!r}, which is not a Penn Treebank tag ERRANT "
                             "knows: use an English model with PTB tags") from None

    def dep_list(self) -> list[str]:
        return [self.sentence.dep[i] for i in self.indices]

    def words(self) -> list[str]:
        return [self.sentence.words[i] for i in self.indices]

    def lowers(self) -> list[str]:
        return [self.sentence.lower[i] for i in self.indices]

    def first(self, field: str) -> str:
        return getattr(self.sentence, field)[self.indices[0]]

    def last(self, field: str) -> str:
        return getattr(self.sentence, field)[self.indices[-1]]


class Classifier:
    """Assigns ERRANT types; ``words`` is the word list behind SPELL (see :mod:`.wordlist`)."""

    def __init__(self, words: frozenset[str] | set[str]):
        if not isinstance(words, (set, frozenset)):
            raise TypeError("the word list must be a set of words")
        self.words = words

    def classify(self, orig: ParsedSentence, o_start: int, o_end: int, cor: ParsedSentence, c_start: int,
                 c_end: int) -> str:
        """The type of the edit replacing orig[o_start:o_end] by cor[c_start:c_end]."""
        o_text, c_text = orig.span_text(o_start, o_end), cor.span_text(c_start, c_end)
        return self.classify_sides(Side(orig, list(range(o_start, o_end))), Side(cor, list(range(c_start, c_end))),
                                   o_text, c_text)

    def classify_sides(self, o: Side, c: Side, o_text: str, c_text: str) -> str:
        """ERRANT's ``classify``: the texts stay those of the whole edit when a final case
        change is set aside ([Doctor -> The doctor] is classified as [-> The])."""
        if not o and not c:
            return UNKNOWN
        if not o:
            return "M:" + one_sided_type(c)
        if not c:
            return "U:" + one_sided_type(o)
        if o_text == c_text:
            return UNKNOWN
        if o.last("lower") == c.last("lower") and (len(o) > 1 or len(c) > 1):
            return self.classify_sides(o.truncated(), c.truncated(), o_text, c_text)
        return "R:" + self.two_sided_type(o, c)

    def two_sided_type(self, o: Side, c: Side) -> str:
        """The category of a replacement, from both sides."""
        if "".join(o.lowers()) == "".join(c.lowers()):
            return "ORTH"
        if sorted(o.lowers()) == sorted(c.lowers()):
            return "WO"
        if len(o) == len(c) == 1:
            found = self._one_to_one(o, c)
            if found is not None:
                return found
        return multi_token_type(o, c)

    def _one_to_one(self, o: Side, c: Side) -> str | None:
        """Rules for one token replaced by one token; None falls through to the general rules."""
        o_pos, c_pos = o.pos_list(), c.pos_list()
        found = special_one_to_one(o, c, o_pos, c_pos)
        if found is None and o.first("words").isalpha():
            found = self._spelling(o, c, o_pos, c_pos)
        if found is None:
            found = morphology_type(o, c, o_pos, c_pos)
        if found is None:
            found = general_one_to_one(o, c, o_pos, c_pos)
        if found is None:
            if not (o.first("words").isalpha() and c.first("words").isalpha()):
                return "OTHER"
            found = similarity_type(o, c, c_pos)
        return found

    def _spelling(self, o: Side, c: Side, o_pos: list[str], c_pos: list[str]) -> str | None:
        """Spelling and inflection: an original word outside the word list."""
        if o.first("words") in self.words or o.first("lower") in self.words:
            return None
        if o.first("lemma") == c.first("lemma"):
            if o_pos == c_pos and o_pos[0] in ("NOUN", "VERB"):
                return o_pos[0] + ":INFL"
            return "MORPH"
        similarity = levenshtein_similarity(o.first("lower"), c.first("lower"))
        if similarity > 0.55:
            return "SPELL"
        if similarity == 0.5 or round(similarity, 3) == 0.333:
            if len(o.first("words")) <= 4 and len(c.first("words")) <= 4:
                return "SPELL"
        return c_pos[0] if c_pos[0] not in RARE_POS else "OTHER"


def one_sided_type(side: Side) -> str:
    """The category of a missing or unnecessary edit, from its one side."""
    sentence = side.sentence
    if len(side) == 1:
        token = side.indices[0]
        if sentence.tag[token] == "POS":
            return "NOUN:POSS"
        if sentence.lower[token] in CONTRACTIONS:
            return "CONTR"
        if sentence.lower[token] == "to" and sentence.pos[token] == "PART" and sentence.dep[token] != "prep":
            return "VERB:FORM"
    pos_list, dep_list = side.pos_list(), side.dep_list()
    if set(dep_list) <= AUXILIARY_DEPS:
        return "VERB:TENSE"
    if len(set(pos_list)) == 1 and pos_list[0] not in RARE_POS:
        return pos_list[0]
    if len(set(dep_list)) == 1 and dep_list[0] in DEP_TO_POS:
        return DEP_TO_POS[dep_list[0]]
    if set(pos_list) == {"PART", "VERB"}:
        return "VERB"
    return "OTHER"


def special_one_to_one(o: Side, c: Side, o_pos: list[str], c_pos: list[str]) -> str | None:
    """Possessive suffixes, contractions and was/were."""
    if o.first("tag") == "POS" or c.first("tag") == "POS":
        return "NOUN:POSS"
    o_lower, c_lower = o.first("lower"), c.first("lower")
    if (o_lower in CONTRACTIONS or c_lower in CONTRACTIONS) and o_pos == c_pos:
        return "CONTR"
    if (o_lower in AUXILIARY_CONTRACTIONS and c_lower == AUXILIARY_CONTRACTIONS[o_lower]) or \
            (c_lower in AUXILIARY_CONTRACTIONS and o_lower == AUXILIARY_CONTRACTIONS[c_lower]):
        return "CONTR"
    if o_lower in AUXILIARY_CONTRACTIONS or c_lower in AUXILIARY_CONTRACTIONS:
        return "VERB:TENSE"
    if {o_lower, c_lower} == {"was", "were"}:
        return "VERB:SVA"
    return None


def morphology_type(o: Side, c: Side, o_pos: list[str], c_pos: list[str]) -> str | None:
    """Inflection (same lemma) and derivation (same Lancaster stem) of open-class words."""
    both_open = o_pos[0] in OPEN_POS and c_pos[0] in OPEN_POS
    if o.first("lemma") == c.first("lemma") and both_open:
        return _same_lemma_type(o, c, o_pos, c_pos)
    if both_open and lancaster_stem(o.first("words")) == lancaster_stem(c.first("words")):
        return "MORPH"
    return None


def _same_lemma_type(o: Side, c: Side, o_pos: list[str], c_pos: list[str]) -> str:
    o_tag, c_tag = o.first("tag"), c.first("tag")
    if o_pos == c_pos:
        if o_pos[0] == "ADJ":
            return "ADJ:FORM"
        if o_pos[0] == "NOUN":
            return "NOUN:NUM"
        if o_pos[0] == "VERB":
            found = _verb_form(o, c, o_tag, c_tag)
            if found is not None:
                return found
    if set(o.dep_list() + c.dep_list()) <= {"acomp", "amod"}:
        return "ADJ:FORM"
    if o_pos[0] == "ADJ" and c_tag == "NNS":
        return "NOUN:NUM"
    if c_tag in ("VBG", "VBN"):
        return "VERB:FORM"
    if c_tag == "VBD":
        return "VERB:TENSE"
    if c_tag == "VBZ":
        return "VERB:SVA"
    return "MORPH"


def _verb_form(o: Side, c: Side, o_tag: str, c_tag: str) -> str | None:
    """Verbs with the same lemma: form, tense or agreement, by ERRANT's ordered rules."""
    if preceded_by_auxiliary(o, c):
        return "VERB:FORM"
    if o_tag in ("VBG", "VBN") or c_tag in ("VBG", "VBN"):
        return "VERB:FORM"
    if o_tag == "VBD" or c_tag == "VBD":
        return "VERB:TENSE"
    if o_tag == "VBZ" or c_tag == "VBZ":
        return "VERB:SVA"
    if o.first("dep").startswith("aux") and c.first("dep").startswith("aux"):
        return "VERB:TENSE"
    return None


def preceded_by_auxiliary(o: Side, c: Side) -> bool:
    """Both tokens follow an auxiliary: for auxiliaries, neither is its head's first
    auxiliary; for main verbs, both have an aux/auxpass child."""
    orig, cor = o.sentence, c.sentence
    o_token, c_token = o.indices[0], c.indices[0]
    if orig.dep[o_token].startswith("aux") and cor.dep[c_token].startswith("aux"):
        for o_child in orig.children(orig.head[o_token]):
            if orig.dep[o_child].startswith("aux"):
                if orig.words[o_child] != orig.words[o_token]:
                    for c_child in cor.children(cor.head[c_token]):
                        if cor.dep[c_child].startswith("aux"):
                            if cor.words[c_child] != cor.words[c_token]:
                                return True
                            break
                break
        return False
    o_deps = {orig.dep[child] for child in orig.children(o_token)}
    c_deps = {cor.dep[child] for child in cor.children(c_token)}
    return not o_deps.isdisjoint(AUXILIARY_DEPS) and not c_deps.isdisjoint(AUXILIARY_DEPS)


def general_one_to_one(o: Side, c: Side, o_pos: list[str], c_pos: list[str]) -> str | None:
    """Auxiliaries, same POS, dependency labels and a few word pairs."""
    o_dep, c_dep = o.dep_list(), c.dep_list()
    if o_dep[0].startswith("aux") and c_dep[0].startswith("aux"):
        return "VERB:TENSE"
    if o_pos == c_pos and o_pos[0] not in RARE_POS:
        return o_pos[0]
    if o_dep == c_dep and o_dep[0] in DEP_TO_POS:
        return DEP_TO_POS[o_dep[0]]
    pos_pair, dep_pair = set(o_pos + c_pos), set(o_dep + c_dep)
    if pos_pair == {"PART", "PREP"} or dep_pair == {"prt", "prep"}:
        return "PART"
    if pos_pair == {"DET", "PRON"}:
        if c_dep[0] in ("nsubj", "nsubjpass", "dobj", "pobj"):
            return "PRON"
        if c_dep[0] == "poss":
            return "DET"
    if pos_pair == {"NUM", "DET"}:
        return "DET"
    lowers = {o.first("lower"), c.first("lower")}
    if lowers == {"other", "another"}:
        return "DET"
    if o.first("lower") == "your" and c.first("lower") == "yours":
        return "PRON"
    if lowers == {"no", "not"}:
        return "OTHER"
    return None


def similarity_type(o: Side, c: Side, c_pos: list[str]) -> str | None:
    """String similarity by word length (two alphabetic words); None falls through."""
    o_word, c_word = o.first("words"), c.first("words")
    o_lower, c_lower = o.first("lower"), c.first("lower")
    similarity = levenshtein_similarity(o_lower, c_lower)
    o_length, c_length = len(o_word), len(c_word)
    c_category = c_pos[0] if c_pos[0] not in RARE_POS else None
    if o_length == 1 and c_length == 2 and similarity == 0.5:
        return "SPELL"
    if o_length == 2 and 2 <= c_length <= 3 and similarity >= 0.5:
        return "SPELL"
    if o_length == 3:
        if (o_lower, c_lower) in (("the", "that"), ("all", "everything")):
            return "PRON"
        if 2 <= c_length <= 4 and similarity >= 0.5:
            return "SPELL"
    if o_length == 4:
        return _four_letters(o_lower, c_lower, c_length, similarity, c_category)
    if o_length == 5:
        return _five_letters(o_lower, c_lower, c_length, similarity, c_category)
    if o_length > 5 and c_length > 5:
        return _long_words(o_word, c_word, o_lower, c_lower, similarity, c_category)
    return None


def _four_letters(o_lower: str, c_lower: str, c_length: int, similarity: float, c_category: str | None
                  ) -> str | None:
    if {o_lower, c_lower} == {"that", "what"}:
        return "PRON"
    if {o_lower, c_lower} == {"good", "well"} and c_category:
        return c_category
    if (c_length == 3 and similarity > 0.5) or (c_length == 4 and similarity >= 0.5) or \
            (c_length == 5 and similarity == 0.8):
        return "SPELL"
    if c_length > 5 and similarity > 0.5 and c_category:
        return c_category
    return None


def _five_letters(o_lower: str, c_lower: str, c_length: int, similarity: float, c_category: str | None
                  ) -> str | None:
    if {o_lower, c_lower} == {"after", "later"} and c_category:
        return c_category
    if (c_length == 4 and similarity == 0.8) or (c_length == 5 and similarity >= 0.6):
        return "SPELL"
    if c_length > 5 and c_category:
        return c_category
    return None


def _long_words(o_word: str, c_word: str, o_lower: str, c_lower: str, similarity: float,
                c_category: str | None) -> str | None:
    if (o_lower, c_lower) == ("therefor", "therefore") or {o_lower, c_lower} == {"though", "thought"}:
        return "SPELL"
    if (o_word.startswith(c_word) or c_word.startswith(o_word)) and similarity >= 0.66:
        return "MORPH"
    if similarity > 0.8:
        return "SPELL"
    if similarity < 0.55 and c_category:
        return c_category
    return None


def multi_token_type(o: Side, c: Side) -> str:
    """The category of a replacement with several tokens on a side (or a fall-through)."""
    o_pos, c_pos = o.pos_list(), c.pos_list()
    o_dep, c_dep = o.dep_list(), c.dep_list()
    if set(o_dep + c_dep) <= AUXILIARY_DEPS:
        return "VERB:TENSE"
    same_last_lemma = o.last("lemma") == c.last("lemma")
    if len(set(o_pos + c_pos)) == 1:
        if o_pos[0] == "VERB" and same_last_lemma:
            return "VERB:TENSE"
        if o_pos[0] not in RARE_POS:
            return o_pos[0]
    if len(set(o_dep + c_dep)) == 1 and o_dep[0] in DEP_TO_POS:
        return DEP_TO_POS[o_dep[0]]
    if set(o_pos + c_pos) == {"PART", "VERB"}:
        return "VERB:FORM" if same_last_lemma else "VERB"
    if (o_pos == ["NOUN", "PART"] or c_pos == ["NOUN", "PART"]) and o.first("lemma") == c.first("lemma"):
        return "NOUN:POSS"
    if (o.first("lower") in ("most", "more") or c.first("lower") in ("most", "more")) and same_last_lemma and \
            len(o) <= 2 and len(c) <= 2:
        return "ADJ:FORM"
    return "OTHER"
