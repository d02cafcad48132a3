"""How edit attribution runs: the workers of -p and Dask for every metric (a metric that reads
hypothesis M2, whose candidates are annotated, too)."""

from __future__ import annotations

import pickle

from tests.conftest import SPACY_TEST_MODEL


# ---------------------------------------------------------------- workers for every metric


def test_an_annotator_travels_by_its_settings_and_finds_the_processs_model(fresh_resources):
    """A worker got a spaCy model of its own with every part it attributed (an annotator pickles
    as its settings): it finds its process's one model of that name now, loaded there once."""
    from gecmetrics.core.lang.en.parse import SpacyModel, shared_model
    from gecmetrics.core.lang.generic.parse import AnyLanguageModel
    from gecmetrics.metrics.errant import Annotator

    annotator = Annotator(SPACY_TEST_MODEL, merge="all-split")
    first, second = pickle.loads(pickle.dumps(annotator)), pickle.loads(pickle.dumps(annotator))
    assert first.spacy is second.spacy is shared_model(SPACY_TEST_MODEL)
    assert first.spacy is not annotator.spacy and first.merge == "all-split" and first.spacy.model == SPACY_TEST_MODEL
    odd = pickle.loads(pickle.dumps(SpacyModel(SPACY_TEST_MODEL, 7)))  # another batch size: its own shared one
    assert odd.batch_size == 7 and odd is not first.spacy and odd is pickle.loads(pickle.dumps(odd))
    other = pickle.loads(pickle.dumps(AnyLanguageModel("de_core_news_sm", "de")))  # a subclass: as it was
    assert type(other) is AnyLanguageModel and other.code == "de" and other.model == "de_core_news_sm"
