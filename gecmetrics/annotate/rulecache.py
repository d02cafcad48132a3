"""Reuse spaCy's attribute ruler and lemmatizer outputs per token instead of per sentence.

In spaCy's English pipelines the last two components, ``attribute_ruler`` (coarse POS and
morphology from the tag, word and dependency, plus a few two-word patterns such as "gon na")
and ``lemmatizer`` (rules over word, POS and morphology), work token by token and cost about a
third of a parse. What they give one token is a function of that token's text, tag and
dependency label and of which multi-token patterns match with their target on it, because
every token-level pattern reads only those and the lemmatizer reads the result. So a token
whose key (text, tag, dep, matched multi-token patterns) was seen before gets the same POS,
tag, dependency and lemma as then; a sentence with any unseen key runs both components
(spaCy's own code) and fills the table. The results are those of the full pipeline, exactly;
a pipeline or pattern this reasoning does not cover (other components after them, matcher
operators, other attributes) is not cached at all (:meth:`RuleCache.for_pipeline` is None).
"""
from __future__ import annotations

import re
from typing import Any

CACHED_PIPES = ("attribute_ruler", "lemmatizer")
# token attributes a cached pattern may test, and the predicates it may use on them
_ATTRIBUTES = {"TAG", "LOWER", "DEP", "IS_SPACE", "ORTH", "TEXT"}
_PREDICATES = {"IN", "NOT_IN", "REGEX"}


def _spec_supported(spec: Any) -> bool:
    if not isinstance(spec, dict):
        return False
    for attribute, value in spec.items():
        if attribute not in _ATTRIBUTES:
            return False
        if isinstance(value, dict) and (len(value) != 1 or not set(value) <= _PREDICATES):
            return False
        if not isinstance(value, (dict, str, bool)):
            return False
    return True


def _satisfies(spec: dict, values: dict[str, Any]) -> bool:
    """Whether a token with these attribute values satisfies one token spec of a pattern."""
    for attribute, wanted in spec.items():
        value = values[attribute]
        if isinstance(wanted, dict):
            (predicate, argument), = wanted.items()
            if predicate == "IN" and value not in argument:
                return False
            if predicate == "NOT_IN" and value in argument:
                return False
            if predicate == "REGEX" and not re.search(argument, value):
                return False
        elif value != wanted:
            return False
    return True


def index_lists_as_sets(nlp: Any) -> bool:
    """Make the rule lemmatizer's word index (a list per POS, e.g. 57,528 nouns) frozensets.

    spaCy's ``Lemmatizer.rule_lemmatize`` only asks ``form in index`` of it (and whether it is
    empty), so the lemmas cannot change; a set answers without scanning the list (about a
    second of CPU over CoNLL-2014's tokens). Done only for that method in rule mode; True when done."""
    if "lemmatizer" not in nlp.pipe_names:
        return False
    from spacy.pipeline import Lemmatizer

    lemmatizer = nlp.get_pipe("lemmatizer")
    if not isinstance(lemmatizer, Lemmatizer) or getattr(lemmatizer, "mode", None) != "rule" or \
            type(lemmatizer).rule_lemmatize is not Lemmatizer.rule_lemmatize:
        return False
    if "lemma_index" not in lemmatizer.lookups.tables:
        return False
    table = lemmatizer.lookups.get_table("lemma_index")
    for key, words in list(table.items()):
        if isinstance(words, list) and all(isinstance(word, str) for word in words):
            table[key] = frozenset(words)
    return True


class RuleCache:
    """Per-token table of the attribute ruler's and lemmatizer's outputs for one pipeline."""

    def __init__(self, nlp: Any, multi_patterns: list[tuple[int, list[dict], int]]):
        self.nlp = nlp
        self.ruler = nlp.get_pipe("attribute_ruler")
        self.lemmatizer = nlp.get_pipe("lemmatizer")
        self.multi_patterns = multi_patterns
        self.table: dict[tuple, tuple] = {}
        self._masks: dict[tuple, int] = {}
        self._first_bits = 0
        for number, (_, specs, _) in enumerate(multi_patterns):
            self._first_bits |= 1 << self._bit(number, 0)

    @classmethod
    def for_pipeline(cls, nlp: Any) -> "RuleCache | None":
        """A cache when the pipeline ends with the attribute ruler and the lemmatizer and every
        pattern is plain (supported attributes and predicates, no operators); else None."""
        if tuple(nlp.pipe_names[-2:]) != CACHED_PIPES:
            return None
        from spacy.pipeline import Lemmatizer

        if not isinstance(nlp.get_pipe("lemmatizer"), Lemmatizer):
            return None
        multi = []
        for number, entry in enumerate(nlp.get_pipe("attribute_ruler").patterns):
            for pattern in entry["patterns"]:
                if not pattern or not all(_spec_supported(spec) for spec in pattern):
                    return None
                if len(pattern) > 8:
                    return None
                if len(pattern) > 1:
                    index = entry.get("index", 0)
                    multi.append((number, pattern, index if index >= 0 else len(pattern) + index))
        return cls(nlp, multi)

    def _bit(self, pattern_number: int, position: int) -> int:
        return pattern_number * 8 + position

    def _mask(self, orth: int, tag: int, dep: int, strings: Any) -> int:
        """Bits (pattern, position) of the multi-token pattern specs this token satisfies."""
        key = (orth, tag, dep)
        mask = self._masks.get(key)
        if mask is None:
            text = strings(orth)
            values = {"TAG": strings(tag), "LOWER": text.lower(), "DEP": strings(dep), "IS_SPACE": text.isspace(),
                      "ORTH": text, "TEXT": text}
            mask = 0
            for number, (_, specs, _) in enumerate(self.multi_patterns):
                for position, spec in enumerate(specs):
                    if _satisfies(spec, values):
                        mask |= 1 << self._bit(number, position)
            self._masks[key] = mask
        return mask

    def _multi_targets(self, masks: list[int]) -> dict[int, tuple[int, ...]]:
        """Token index -> the multi-token pattern entries that match with their target there."""
        targets: dict[int, list[int]] = {}
        n = len(masks)
        for start, mask in enumerate(masks):
            if not mask & self._first_bits:
                continue
            for number, (entry, specs, index) in enumerate(self.multi_patterns):
                if start + len(specs) <= n and all(masks[start + k] >> self._bit(number, k) & 1
                                                   for k in range(len(specs))):
                    targets.setdefault(start + index, []).append(entry)
        return {index: tuple(sorted(set(entries))) for index, entries in targets.items()}

    def _keys(self, doc: Any, strings: Any, columns: tuple[list[int], ...] | None = None) -> list[tuple]:
        """Each token's key: (text, tag, dependency, multi-token pattern entries targeting it);
        ``columns``: the Doc's ORTH, TAG and DEP columns when the caller has them already."""
        if columns is None:
            from spacy.attrs import DEP, ORTH, TAG

            columns = doc.to_array([ORTH, TAG, DEP]).T.tolist()
        triples = list(zip(*columns))
        if not self.multi_patterns:
            return [triple + ((),) for triple in triples]
        known = self._masks.get
        masks = [known(triple) for triple in triples]
        if None in masks:
            masks = [self._mask(orth, tag, dep, strings) for orth, tag, dep in triples]
        first_bits = self._first_bits
        if not any(mask & first_bits for mask in masks):
            return [triple + ((),) for triple in triples]
        targets = self._multi_targets(masks)
        return [triple + (targets.get(i, ()),) for i, triple in enumerate(triples)]

    def _run(self, doc: Any, keys: list[tuple]) -> list[tuple]:
        """Run the two components on a Doc and record each token's key and result."""
        from spacy.attrs import DEP, LEMMA, POS, TAG

        doc = self.lemmatizer(self.ruler(doc))
        results = [tuple(values) for values in doc.to_array([POS, TAG, DEP, LEMMA]).tolist()]
        self.table.update(zip(keys, results))
        return results

    def _run_isolated(self, keys: list[tuple], strings: Any) -> None:
        """Fill the table for tokens no multi-token pattern targets: a Doc of just those tokens
        (their results depend on nothing else); its own keys are recorded as they come out."""
        from spacy.tokens import Doc

        words = [strings(key[0]) for key in keys]
        doc = Doc(self.nlp.vocab, words=words, tags=[strings(key[1]) for key in keys],
                  deps=[strings(key[2]) for key in keys], heads=list(range(len(keys))))
        self._run(doc, self._keys(doc, strings))

    def finish(self, doc: Any, strings: Any, columns: tuple[list[int], ...] | None = None
               ) -> list[tuple[int, int, int, int]]:
        """(POS id, tag, dependency, lemma) hashes per token, as the two components would set
        them: from the table, else by running them on the unseen tokens alone, or on the Doc
        when a multi-token pattern targets an unseen token. ``columns``: as for :meth:`_keys`."""
        keys = self._keys(doc, strings, columns)
        table = self.table
        found = [table.get(key) for key in keys]
        if None not in found:
            return found
        unseen = list(dict.fromkeys(key for key, value in zip(keys, found) if value is None))
        if not any(key[3] or strings(key[0]).isspace() for key in unseen):
            self._run_isolated(unseen, strings)
            found = [table.get(key) for key in keys]
            if None not in found:
                return found
        return self._run(doc, keys)
