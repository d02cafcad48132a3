"""The per-type counts of the M2 family's statistics (``core.edits.compare.TypeCounts``): flat
arrays that give back every candidate's ``{type: [TP, FP, FN]}``, join by chunks, and add the
chosen candidates' counts exactly as adding them sentence by sentence does (the order of the
types included: the macro average sums the types' scores in that order)."""
from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from gecmetrics.core.edits.compare import CategoryCounts, TypeCounts

TYPES = ["R:VERB", "M:DET", "U:PUNCT", "R:NOUN:NUM", "(none)", "UNK"]

candidate = st.dictionaries(st.sampled_from(TYPES), st.tuples(*[st.integers(0, 5)] * 3).map(list), max_size=4)
corpus = st.lists(st.lists(candidate, min_size=1, max_size=4), max_size=12)


def one_by_one(categories: dict[str, CategoryCounts], sentences: list, chosen: list[int]) -> None:
    """What the statistics did before the table: each chosen candidate's dict added in turn."""
    for candidates, k in zip(sentences, chosen):
        for error_type, (tp, fp, fn) in candidates[k].items():
            total = categories.setdefault(error_type, CategoryCounts())
            total.tp += tp
            total.fp += fp
            total.fn += fn


def as_lists(categories: dict[str, CategoryCounts]) -> list:
    return [(name, c.tp, c.fp, c.fn) for name, c in categories.items()]


@settings(max_examples=150, deadline=None)
@given(corpus, st.data(), st.integers(0, 12), st.integers(0, 12))
def test_the_table_gives_back_each_candidate_and_adds_the_chosen_in_order(sentences, data, cut_a, cut_b):
    chosen = [data.draw(st.integers(0, len(candidates) - 1)) for candidates in sentences]
    table = TypeCounts.of(sentences)
    assert len(table) == len(sentences)
    for d, candidates in enumerate(sentences):
        assert table.candidates(d) == len(candidates)
        for k, categories in enumerate(candidates):
            found = table.candidate(d, k)
            assert found == categories and list(found) == list(categories)  # types in their order
    expected: dict[str, CategoryCounts] = {"M:DET": CategoryCounts(1, 2, 3)}  # a type already there stays first
    one_by_one(expected, sentences, chosen)
    added = {"M:DET": CategoryCounts(1, 2, 3)}
    table.add_chosen(added, np.array(chosen))
    assert as_lists(added) == as_lists(expected)
    # chunks joined (type ids renumbered) are the whole
    first, second = sorted((min(cut_a, len(sentences)), min(cut_b, len(sentences))))
    parts = [TypeCounts.of(sentences[:first]), TypeCounts.of(sentences[first:second]), TypeCounts.of(sentences[second:])]
    joined = TypeCounts.joined(parts)
    assert [[joined.candidate(d, k) for k in range(joined.candidates(d))] for d in range(len(joined))] == sentences
    again: dict[str, CategoryCounts] = {}
    joined.add_chosen(again, chosen)
    whole: dict[str, CategoryCounts] = {}
    one_by_one(whole, sentences, chosen)
    assert as_lists(again) == as_lists(whole)
    copied = pickle.loads(pickle.dumps(joined))  # statistics travel from the worker processes
    assert [copied.candidate(d, 0) for d in range(len(copied))] == [c[0] for c in sentences]


def test_a_choice_outside_a_sentences_candidates_is_refused():
    table = TypeCounts.of([[{"R:VERB": [1, 0, 0]}], [{"M:DET": [0, 1, 0]}, {}]])
    for chosen in ([1, 0], [0, 2], [0, -1], [0]):
        with pytest.raises(ValueError, match="do not fit"):
            table.add_chosen({}, np.array(chosen))


def test_an_empty_corpus_adds_nothing():
    table = TypeCounts.joined([TypeCounts.of([]), TypeCounts.of([])])
    categories: dict[str, CategoryCounts] = {}
    table.add_chosen(categories, np.zeros(0, dtype=np.int64))
    assert len(table) == 0 and categories == {}
