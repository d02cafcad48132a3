"""How edit attribution runs: the workers of -p and Dask for every metric (a metric that reads
hypothesis M2, whose candidates are annotated, too)."""

from __future__ import annotations

import json
import pickle

import pytest

from gecmetrics.output.report import attribute_corpus, attribution_dicts, report_data, report_json
from gecmetrics.output.report import attribution as attribution_module
from tests.conftest import SPACY_TEST_MODEL, run_cli
from tests.test_report import small_corpus, small_files  # noqa: F401 (a fixture)


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


def test_the_report_makes_an_annotator_for_the_candidates_of_such_a_metric(small_files, spacy_model, tmp_path):
    """With the systems' M2 and a gold M2 the report annotated nothing, made no annotator, and
    refused `--attribute senterrant` after all its scoring ("needs an ERRANT annotator", which no
    option gives): it makes one for the candidates (--spacy-model), as `attribute` does."""
    f = small_files
    data = tmp_path / "d.json"
    code, out, err = run_cli("report", "-s", f["src"], "-r", f["ref0"], f["ref1"], "-o", f["A"], f["B"], "--hyp-m2",
                             f["A.m2"], f["B.m2"], "--m2", f["gold.m2"], "--json", str(data), "--samples", "40",
                             "--metrics", "gleu", "--attribute", "senterrant", "--spacy-model", SPACY_TEST_MODEL)
    assert code == 0 and out == "", err
    written = json.loads(data.read_text(encoding="utf-8"))
    [entry] = written["attribution"]
    assert entry["label"] == "SentERRANT F0.5" and entry["values"]["B"][0]
    assert written["corpus"]["system_edits"] == "given" and written["corpus"]["reference_edits"] == "gold M2"
    corpus = small_corpus()
    expected = attribute_corpus(corpus, "senterrant", spacy_model=SPACY_TEST_MODEL, methods=entry["methods"],
                                permutations=entry["permutations"], seed=entry["seed"], over_bound="sample")
    assert [[round(v, 4) for v in edit] for edit in entry["values"]["B"][0]] == \
        [[round(expected["B"][0][m].values[e], 4) for m in entry["methods"]] for e in range(2)]


@pytest.fixture
def executors(monkeypatch) -> list:
    """The (jobs, dask) of every executor the attribution makes for its parts."""
    made: list = []
    real = attribution_module.make_executor

    def recording(jobs, dask):
        made.append((jobs, dask))
        return real(jobs, dask)

    monkeypatch.setattr(attribution_module, "make_executor", recording)
    return made


@pytest.mark.parametrize("metric", ["senterrant", "cleme:weighted=false"])
def test_a_metric_that_reads_hypothesis_m2_is_attributed_by_the_workers_asked_for(spacy_model, executors, metric):
    """attribute_corpus refused jobs=2 with SentERRANT or CLEME (their candidates were annotated in
    the calling process only): the annotator now travels with each part, and the workers give
    the same attributions as one process."""
    corpus = small_corpus()
    options = {"spacy_model": SPACY_TEST_MODEL, "methods": ["add", "shapley"], "over_bound": "sample"}
    one = attribution_dicts(attribute_corpus(corpus, metric, **options))
    two = attribution_dicts(attribute_corpus(corpus, metric, jobs=2, chunk_lines=2, **options))
    assert two == one and len(one) > 10
    assert executors == [(1, None), (2, None)]


def test_the_reports_attribution_of_such_a_metric_runs_in_its_workers(spacy_model, executors):
    """report -p 2 --attribute senterrant attributed in one process, silently: it uses the two
    workers now, with the same page data."""
    corpus = small_corpus()
    one = report_data(corpus, samples=60, attribution=["senterrant"], spacy_model=SPACY_TEST_MODEL)
    two = report_data(corpus, samples=60, attribution=["senterrant"], spacy_model=SPACY_TEST_MODEL, jobs=2)
    assert json.loads(report_json(two)) == json.loads(report_json(one))
    assert executors == [(1, None), (2, None)]


def test_attribute_takes_workers_and_dask_for_such_a_metric(small_files, spacy_model):
    """`attribute -p 2 --metric senterrant` (and --dask) was one line of refusal: the same rows now."""
    f = small_files
    args = ["attribute", "-s", f["src"], "-r", f["ref0"], f["ref1"], "-o", f["A"], f["B"], "--hyp-m2", f["A.m2"],
            f["B.m2"], "--m2", f["gold.m2"], "--metric", "senterrant", "--method", "add,shapley",
            "--spacy-model", SPACY_TEST_MODEL]
    code, tsv, err = run_cli(*args)
    assert code == 0 and err == "" and len(tsv.splitlines()) > 5, err
    for more in (["-p", "2"], ["-p", "0", "--chunk-lines", "1"]):
        assert run_cli(*args, *more) == (0, tsv, ""), more
    code, out, err = run_cli(*args, "--dask", "local", "-p", "1")
    assert code == 0 and out == tsv, err
