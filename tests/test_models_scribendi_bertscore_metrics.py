"""The Scribendi Score and BERTScore as registered metrics (``scribendi``, ``bertscore``) with the
tiny seeded models (no download): the original code's numbers (tests/data/models_tiny_scribendi.tsv,
models_tiny_bertscore*.tsv) through the metric protocol, sentence and corpus level, read in
chunks (BERTScore's idf from the whole corpus's references); ``compare`` (table, JSON, paired
bootstrap, ``-p 2`` through the console script), paired tests through the API, meta-evaluation
against SEEDA's judgments, ``gecmetric report``; the persistent cache cold, warm, disabled, with a
new system and with changed weights or settings; settings, signatures and one-line errors."""
from __future__ import annotations

import json
import logging
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import (check_a_changed_identity, check_warm_run, gecmetric_script, one_line_error,
                            outputs_with_jobs, run_cli, write_files)
from tests.test_console_docs import environment
from tests.test_models_bertscore import CUSTOM_BASELINE, read_expected
from tests.test_models_scribendi import DATA, MISSING_EXTRA, _fingerprint_from_header, read_rows

from gecmetrics import compare, get_metric, paired_test
from gecmetrics.core.cache import Cache
from gecmetrics.errors import InputError, LineRefused
from gecmetrics.io.corpus import Corpus
from gecmetrics.io.text import read_lines
from gecmetrics.metrics.models.metric import BERTScore, BERTScoreSettings, Scribendi, ScribendiSettings, \
    release_scorers
from gecmetrics.metrics.registry import metrics_from_text
from gecmetrics.run.engine import score_corpus

ROOT = Path(__file__).resolve().parent.parent
SYSTEMS = ("AMU", "CAMB", "CUUI")
SHORT = 150
"""Sentences of the CoNLL-2014 files used where the oracle numbers are not compared (speed)."""
TOLERANCE = 5e-5
"""bert-score printed 6 decimals; its float32 sums and ours differ by ~1e-7."""
VERSIONS = re.compile(r"\|torch:[^|]+\|transformers:[^|]+")


# --------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def backend():
    torch = pytest.importorskip("torch", reason=MISSING_EXTRA)
    pytest.importorskip("transformers", reason=MISSING_EXTRA)
    threads = torch.get_num_threads()
    yield
    torch.set_num_threads(threads)
    release_scorers()


@pytest.fixture(scope="module")
def models(backend, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The tiny GPT-2 and the tiny BERT, the latter in a folder named ``bert-base-uncased`` (as
    the oracle ran it: bert_score's name conventions give layer 9 and that model's baseline)."""
    from gecmetrics.core.models.tiny import build_tiny_bert
    from gecmetrics.core.models.tiny_gpt2 import build_tiny_gpt2

    folder = tmp_path_factory.mktemp("tiny-models")
    build_tiny_gpt2(folder / "gpt2")
    build_tiny_bert(folder / "bert" / "bert-base-uncased")
    return {"gpt2": folder / "gpt2", "bert": folder / "bert" / "bert-base-uncased"}


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch) -> Path:
    """Every test (and the processes it starts) with a cache of its own."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("GECMETRICS_CACHE", str(folder))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    return folder


def scribendi_metric(models: dict[str, Path], **settings) -> Scribendi:
    return get_metric("scribendi", model=str(models["gpt2"]), **{"device": "cpu", **settings})


def bertscore_metric(models: dict[str, Path], **settings) -> BERTScore:
    return get_metric("bertscore", model=str(models["bert"]), **{"layer": 9, "baseline": "bert-base-uncased",
                                                                  "device": "cpu", **settings})


def scribendi_spec(models: dict[str, Path], extra: str = "") -> str:
    return f"scribendi:model={models['gpt2']}:device=cpu{extra}"


def bertscore_spec(models: dict[str, Path], extra: str = "") -> str:
    return f"bertscore:model={models['bert']}:layer=9:baseline=bert-base-uncased:device=cpu{extra}"


@pytest.fixture(scope="module")
def conll(conll14: Path) -> dict:
    names = (*SYSTEMS, "INPUT", "NULL", "REF0", "REF1")
    return {"source": read_lines(str(conll14 / "INPUT")),
            "texts": {name: read_lines(str(conll14 / name)) for name in names}}


def short_corpus(conll: dict, names=SYSTEMS, size: int = SHORT, references=("REF0", "REF1")) -> Corpus:
    return Corpus(conll["source"][:size], [conll["texts"][r][:size] for r in references],
                  {n: conll["texts"][n][:size] for n in names})


def results_of(scored) -> dict:
    return {name: [r.to_dict() for r in results] for name, results in scored.results().items()}


def signatures_of(results: dict) -> set[str]:
    """The signatures of results_of's rows, taken out of them (they differ by cache:on only)."""
    return {row.pop("signature") for rows in results.values() for row in rows}


# --------------------------------------------------------------------------- against the originals


def test_scribendi_gives_the_originals_numbers(models, conll):
    """score_corpus in chunks of 500 sentences: every sentence value and corpus sum equal
    scribendi.py's; with gec-metrics' token sort ratio (python-Levenshtein's) the same sums, as
    the data file's second reading found."""
    facts, rows = read_rows(DATA / "models_tiny_scribendi.tsv")
    names = (*SYSTEMS, "INPUT", "NULL")
    metrics = [scribendi_metric(models), scribendi_metric(models, token_sort="levenshtein")]
    corpus = Corpus(conll["source"], [], {n: conll["texts"][n] for n in names})
    scored = score_corpus(metrics, corpus, chunk_lines=500)
    for name in names:
        expected = np.zeros(len(conll["source"]))
        for row in rows:
            if row["system"] == name:
                expected[int(row["line"]) - 1] = int(row["score"])
        for k in (0, 1):
            assert scored.result(name, k).score == int(facts[f"corpus {name}"]), (name, k)
            assert metrics[k].sentence_matrix(scored.statistics[name][k])[0].tolist() == expected.tolist(), (name, k)
        result = scored.result(name, 0)
        assert (result.improved, result.worsened) == (int((expected > 0).sum()), int((expected < 0).sum()))
    assert metrics[0].sharing_key() == metrics[1].sharing_key() and metrics[0].scorer() is metrics[1].scorer()
    assert (scored.result("NULL", 0).improved, scored.result("NULL", 0).worsened) == (1, 1311)  # a lone quote mark
    assert str(scored.result("AMU", 0).signature).startswith(
        f"Scribendi|model:gpt2@{_fingerprint_from_header()[:12]}/config-9b7e2f4d|tokenizer:gpt2@47a18b335d5a|threshold:0.8|token_sort:difflib|dtype:float32|torch:")


BERT_CONFIGURATIONS = {
    # the data file's configurations: metric settings (the model is "bert-base-uncased" read from the
    # working folder, as the command was run; C names the folder's path), reference files
    "A": ({"baseline": "auto"}, ("REF0", "REF1")),
    "B": ({"baseline": "auto", "idf": True}, ("REF0", "REF1")),
    "C": ({"layer": 4, "baseline": str(CUSTOM_BASELINE), "idf": True, "model": None}, ("REF0",)),
    "D": ({"layer": 6}, ("REF0", "REF1")),
    "F": ({"layer": 1, "idf": True}, ("REF0", "REF1")),
}


def test_bertscore_gives_the_bert_score_packages_numbers(models, conll, monkeypatch):
    """The five configurations of the data file through score_corpus in chunks of 500 sentences
    (idf from the whole corpus's references, as bert_score): every sentence's P, R, F and the
    corpus means within 5e-5 of what the bert-score command printed; NULL's rescaled zeros."""
    facts, rows = read_expected()
    monkeypatch.chdir(models["bert"].parent)
    release_scorers()
    names = (*SYSTEMS, "NULL")
    checked = 0
    for references in (("REF0", "REF1"), ("REF0",)):
        configurations = [name for name, (_, refs) in BERT_CONFIGURATIONS.items() if refs == references]
        metrics = []
        for name in configurations:
            settings = dict(BERT_CONFIGURATIONS[name][0])
            model = str(models["bert"]) if settings.pop("model", "") is None else "bert-base-uncased"
            metrics.append(get_metric("bertscore", model=model, device="cpu", **settings))
        corpus = Corpus(conll["source"], [conll["texts"][r] for r in references],
                        {n: conll["texts"][n] for n in names})
        scored = score_corpus(metrics, corpus, chunk_lines=500)
        for k, configuration in enumerate(configurations):
            for system in SYSTEMS:
                expected = np.array([[float(row[f"{configuration}_{part}"]) for part in "PRF"]
                                     for row in rows if row["system"] == system])
                ours = metrics[k].sentence_matrix(scored.statistics[system][k]).T
                assert ours.shape == expected.shape == (1312, 3)
                assert np.abs(ours - expected).max() < TOLERANCE, (configuration, system)
                result = scored.result(system, k)
                corpus_scores = [float(v) for v in facts[f"corpus {configuration} {system}"].split()]
                assert np.abs(np.array(result.scores) - corpus_scores).max() < TOLERANCE, (configuration, system)
                assert result.score == result.f == result.scores[2]
                checked += 1
            if f"corpus {configuration} NULL" in facts:
                corpus_scores = [float(v) for v in facts[f"corpus {configuration} NULL"].split()]
                assert np.abs(np.array(scored.result("NULL", k).scores) - corpus_scores).max() < 5e-6
        if references == ("REF0", "REF1"):  # A and B share the model and one prepare; the layers differ
            assert metrics[0].sharing_key() == metrics[1].sharing_key() != metrics[2].sharing_key()
            assert metrics[0].signature(2).startswith("BERTScore|model:bert-base-uncased@a6fa31ceec89/config-ee67e7f1|"
                                                      "tokenizer:bert-base-uncased@86fa10a939b5|layer:9|idf:no|baseline:bert-base-uncased|dtype:float32|refs:2|")
        else:
            assert metrics[0].signature(1).startswith("BERTScore|model:bert-base-uncased@a6fa31ceec89/config-ee67e7f1|"
                                                      "tokenizer:bert-base-uncased@86fa10a939b5|layer:4|idf:yes|baseline:file:")
    assert checked == 15
    release_scorers()


def test_bertscore_idf_does_not_depend_on_the_chunks(models, conll):
    """idf weights come from the references of the whole corpus however it is cut: the same
    rows, bit for bit, in one chunk and in chunks of 7 sentences."""
    corpus = short_corpus(conll, ("AMU", "NULL"), size=60)
    metric = bertscore_metric(models, idf=True)
    whole = score_corpus([metric], corpus)
    cut = score_corpus([metric], corpus, chunk_lines=7)
    for name in ("AMU", "NULL"):
        assert np.array_equal(np.asarray(whole.statistics[name][0]), np.asarray(cut.statistics[name][0]))
        assert whole.result(name, 0).to_dict() == cut.result(name, 0).to_dict()
    # idf computed from one chunk's references alone would give other numbers
    first = score_corpus([metric], Corpus(corpus.sources[:7], [r[:7] for r in corpus.references],
                                          {"AMU": corpus.hypotheses["AMU"][:7]}))
    assert not np.array_equal(np.asarray(first.statistics["AMU"][0]), np.asarray(cut.statistics["AMU"][0])[:7])


def test_a_hypothesis_given_by_text_is_scored_as_the_corpus_scores_it(models, conll):
    corpus = short_corpus(conll, size=40)
    for metric in (scribendi_metric(models), bertscore_metric(models, idf=True)):
        prepared = metric.prepare(corpus)
        by_identity = np.asarray(metric.statistics(prepared, corpus.hypothesis("CAMB")))
        np.testing.assert_array_equal(np.asarray(metric.statistics(prepared, list(corpus.hypotheses["CAMB"]))),
                                      by_identity)
        other = np.asarray(metric.statistics(prepared, corpus.hypotheses["AMU"][::-1]))  # scored on demand
        assert other.shape == by_identity.shape
        with pytest.raises(InputError, match="hypotheses for 40"):
            metric.statistics(prepared, ["x"] * 3)


# --------------------------------------------------------------------------- the cache


@pytest.mark.parametrize("which", ["scribendi", "bertscore"])
def test_cache_cold_warm_disabled_and_a_new_system(models, conll, tmp_path, which):
    """The same numbers with the cache cold, warm and disabled; a warm cache computes nothing
    (whatever the settings applied after the model: threshold, idf, baseline), and a system added
    later computes only what no earlier system had."""
    if which == "scribendi":
        metrics = [scribendi_metric(models), scribendi_metric(models, threshold=0.9)]
        namespace = "models/causal-lm-perplexity/1"
    else:
        metrics = [bertscore_metric(models), bertscore_metric(models, idf=True, baseline="none")]
        namespace = "models/bertscore-matches/1"
    two = short_corpus(conll, ("AMU", "CAMB"))
    three = short_corpus(conll, ("AMU", "CAMB", "CUUI"))

    def run(corpus: Corpus, cache: Cache, chosen=metrics) -> tuple[dict, int]:
        scored = score_corpus(chosen, corpus, cache=cache)
        return results_of(scored), scored.encoded_texts

    try:
        cache = Cache(tmp_path / "store")
        cold, computed_cold = run(three, cache)
        warm, computed_warm = run(three, cache)
        disabled, computed_disabled = run(three, Cache(enabled=False))
        on, off = signatures_of(cold) | signatures_of(warm), signatures_of(disabled)
        assert all("|cache:on|version:" in s for s in on) and not any("cache:" in s for s in off)
        assert {s.replace("|cache:on", "") for s in on} == off
        assert cold == warm == disabled
        assert computed_warm == 0 and computed_cold == computed_disabled > 0
        assert namespace in cache.info().namespaces
        if which == "bertscore":  # and the token ids of every distinct text (a warm run tokenizes nothing)
            texts = {t for lines in (*three.references, *three.hypotheses.values()) for t in lines}
            (tokens,) = [n for n in cache.info().namespaces if n.startswith("models/token-ids/")]
            assert cache.info().namespaces[tokens].entries == len(texts)
        if which == "scribendi":  # every distinct text of a changed pair, once
            texts = {t for n in ("AMU", "CAMB", "CUUI") for s, h in zip(three.sources, three.hypotheses[n])
                     if s.rstrip() != h.rstrip() for t in (s.rstrip(), h.rstrip())}
            assert computed_cold == len(texts)
        assert run(three, cache, [metrics[0].__class__(**{**metrics[0].settings.to_dict(),
                                                          "batch_size": 5})])[1] == 0
        # a new system after two cached ones
        growing = Cache(tmp_path / "growing")
        run(two, growing)
        added, computed_added = run(three, growing)
        assert 0 < computed_added < computed_cold / 2
        if which == "scribendi":
            old = {t for n in ("AMU", "CAMB") for s, h in zip(two.sources, two.hypotheses[n])
                   if s.rstrip() != h.rstrip() for t in (s.rstrip(), h.rstrip())}
            assert computed_added == len(texts - old)
        else:  # the new pairs' hypotheses and their references, nothing else
            old = {(h, r) for n in ("AMU", "CAMB") for k in (0, 1)
                   for h, r in zip(two.hypotheses[n], two.references[k])}
            new = {(h, r) for k in (0, 1) for h, r in zip(three.hypotheses["CUUI"], three.references[k])} - old
            assert computed_added <= len({h for h, _ in new} | {r for _, r in new})
        for name in three.hypotheses:
            for ours, theirs in zip(added[name], cold[name]):
                assert ours["scores"] == pytest.approx(theirs["scores"], abs=1e-7)
    finally:
        release_scorers()


def test_changed_weights_or_settings_are_not_read_from_the_cache(models, conll, tmp_path):
    """Values are keyed by the weights fingerprint, the dtype and (BERTScore) the layer: other
    weights under the same folder name, another dtype or layer are computed, not read."""
    from gecmetrics.core.models.tiny import build_tiny_bert
    from gecmetrics.core.models.tiny_gpt2 import build_tiny_gpt2

    corpus = short_corpus(conll, ("AMU",), size=40)  # the default cache: the test's own (own_cache)
    folder = tmp_path / "models"
    build_tiny_gpt2(folder / "lm", seed=1)
    build_tiny_bert(folder / "bert", seed=1)
    try:
        metrics = [get_metric("scribendi", model=str(folder / "lm"), device="cpu"),
                   get_metric("bertscore", model=str(folder / "bert"), layer=3, device="cpu")]
        before = [score_corpus([m], corpus) for m in metrics]
        assert all(run.encoded_texts > 0 for run in before)
        assert [score_corpus([m], corpus).encoded_texts for m in metrics] == [0, 0]
        first = [run.result("AMU", 0) for run in before]  # signed now, with the models loaded now
        release_scorers()
        build_tiny_gpt2(folder / "lm", seed=2)  # the same folders, other weights
        build_tiny_bert(folder / "bert", seed=2)
        after = [score_corpus([m], corpus) for m in metrics]
        for old, new, result in zip(before, after, first):
            assert new.encoded_texts == old.encoded_texts
            assert str(new.result("AMU", 0).signature) != str(result.signature)
        assert after[1].result("AMU", 0).scores != first[1].scores
        for changed in (get_metric("scribendi", model=str(folder / "lm"), device="cpu", dtype="bfloat16"),
                        get_metric("bertscore", model=str(folder / "bert"), layer=2, device="cpu"),
                        get_metric("bertscore", model=str(folder / "bert"), layer=3, device="cpu",
                                   dtype="bfloat16")):
            assert score_corpus([changed], corpus).encoded_texts > 0, changed
    finally:
        release_scorers()


# --------------------------------------------------------------------------- compare, paired tests, -p 2


def test_a_warm_bertscore_run_reads_the_models_identity_back_and_starts_no_torch(models, files, tmp_path):
    """The first run loads the encoder and stores its identity (weights fingerprint, config,
    computing path, special tokens, token-id namespace); a second run on the same files reads
    every token id, pair similarity and the identity back, prints the same bytes and never imports
    torch or transformers, also with -p 2 (its main process signs, its workers score); a run with
    a system the cache has not seen loads the model and prints what a run without the cache prints."""
    common = ["compare", "-s", files["INPUT.src"], "-r", files["REF0"], files["REF1"], "--metrics",
              bertscore_spec(models, ":idf"), "--json", "-o"]
    check_warm_run(common, tmp_path / "store", [files["AMU"], files["CAMB"]], files["CUUI"])
    assert "models/bertscore-identity/1" in Cache(tmp_path / "store").info().namespaces


def test_a_stored_bertscore_identity_the_model_does_not_have_is_one_line_and_stored_anew(models, conll, tmp_path):
    """Should the loaded encoder differ from the identity read back (token ids or similarities
    read under another model's keys), the run stops with one line, the identity is stored anew and
    the next run gives the numbers; a damaged record is no record (the model is loaded)."""
    check_a_changed_identity(lambda: bertscore_metric(models), short_corpus(conll, ("AMU",)),
                             short_corpus(conll, ("CAMB",)), tmp_path / "store", "models/bertscore-identity/1", "sep")


def test_a_warm_scribendi_run_reads_the_models_identity_back_and_starts_no_torch(models, files, tmp_path):
    """The first run loads the causal LM and stores its identity (weights fingerprint, config,
    dtype, computing path, positions, token-id namespace) and each text's token ids; a second run
    on the same files reads them and every perplexity back, prints the same bytes and never
    imports torch or transformers, also with -p 2; a run with a system the cache has not seen
    loads the model and prints what a run without the cache prints (a text's perplexity does not
    depend on its batch: batches are of one length, unpadded)."""
    common = ["compare", "-s", files["INPUT.src"], "--metrics", scribendi_spec(models), "--json", "-o"]
    check_warm_run(common, tmp_path / "store", [files["AMU"], files["CAMB"]], files["CUUI"])
    namespaces = Cache(tmp_path / "store").info().namespaces
    assert namespaces["models/causal-lm-identity/1"].entries == 1
    assert any(name.startswith("models/token-ids/1/bos-prefixed/") for name in namespaces)


def test_a_stored_causal_lm_identity_the_model_does_not_have_is_one_line_and_stored_anew(models, conll, tmp_path):
    """As BERTScore's: a loaded LM that differs from the identity read back stops the run with
    one line and is stored anew; a damaged record is no record."""
    check_a_changed_identity(lambda: scribendi_metric(models), short_corpus(conll, ("AMU",), size=40),
                             short_corpus(conll, ("CAMB",), size=40), tmp_path / "store",
                             "models/causal-lm-identity/1", "positions")


@pytest.fixture
def files(conll, tmp_path) -> dict[str, str]:
    return write_files(tmp_path, {"INPUT.src": conll["source"][:SHORT],
                                  **{n: conll["texts"][n][:SHORT] for n in (*SYSTEMS, "NULL", "REF0", "REF1")}})


def test_compare_table_and_json(models, files):
    names = [*SYSTEMS, "NULL"]
    hypotheses = [files[n] for n in names]
    spec = f"{scribendi_spec(models)},{scribendi_spec(models, ':threshold=0.95')}"
    args = ["compare", "-s", files["INPUT.src"], "-o", *hypotheses, "--metrics", spec]
    code, out, err = run_cli(*args, "--json")  # reference-free: no -r
    assert code == 0, err
    data = json.loads(out)
    assert [c["label"] for c in data["columns"]] == ["Scribendi", "Scribendi t0.95"]
    python = compare(read_lines(files["INPUT.src"]), [], {files[n]: read_lines(files[n]) for n in names},
                     [scribendi_metric(models), scribendi_metric(models, threshold=0.95)])
    assert data["rows"] == python.to_dict()["rows"]
    code, table, err = run_cli(*args)
    assert code == 0, err
    for name in names:  # a sum, printed as it is (not x100)
        row = next(line for line in table.splitlines() if f" {files[name]} " in line)
        assert f"{python.score(files[name], 'Scribendi'):.2f}" in row
    _, rows = read_rows(DATA / "models_tiny_scribendi.tsv")  # the original's values of these lines
    for name in names:
        assert python.score(files[name], "Scribendi") == sum(int(row["score"]) for row in rows
                                                             if row["system"] == name and int(row["line"]) <= SHORT)
    # with BERTScore, which reads references: P, R and F columns, fractions (x100 in the table)
    both = ["compare", "-s", files["INPUT.src"], "-r", files["REF0"], files["REF1"], "-o", *hypotheses, "--metrics",
            f"{scribendi_spec(models)},{bertscore_spec(models, ':idf')}"]
    code, out, err = run_cli(*both, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert [c["label"] for c in data["columns"]] == ["Scribendi", "BERTScore idf rescaled P", "BERTScore idf rescaled R",
                                                     "BERTScore idf rescaled F"]
    references = [read_lines(files["REF0"]), read_lines(files["REF1"])]
    python = compare(read_lines(files["INPUT.src"]), references, {files[n]: read_lines(files[n]) for n in names},
                     [scribendi_metric(models), bertscore_metric(models, idf=True)])
    assert data["rows"] == python.to_dict()["rows"]
    code, table, err = run_cli(*both)
    assert code == 0 and "BERTScore idf rescaled F (x100)" in table, err
    row = next(line for line in table.splitlines() if f" {files['AMU']} " in line)
    assert f"{100 * python.score(files['AMU'], 'BERTScore idf rescaled F'):.2f}" in row
    code, paired, err = run_cli(*both, "--paired-bs", "100")
    assert code == 0 and "Scribendi" in paired and "BERTScore idf rescaled F" in paired, err
    code, paired, err = run_cli(*both, "--paired-ar", "100", "--json")
    assert code == 0, err
    tests = json.loads(paired)
    assert [test["metric"] for test in tests] == ["Scribendi", "BERTScore idf rescaled P", "BERTScore idf rescaled R",
                                                  "BERTScore idf rescaled F"]
    assert [s["score"] for s in tests[0]["systems"]] == [python.score(files[n], "Scribendi") for n in names]
    # BERTScore needs references; the message names it
    assert "the metric bertscore needs reference texts: -r REF" in one_line_error(*both[:3], *both[6:])


def test_paired_tests_through_the_api(models, conll):
    corpus = short_corpus(conll, ("INPUT", *SYSTEMS))
    named = dict(corpus.hypotheses)
    for metric in (scribendi_metric(models), bertscore_metric(models, idf=True)):
        scored = score_corpus([metric], corpus)
        column = metric.column_index(None)
        totals = {n: scored.result(n, 0).score for n in named}
        for method in ("bs", "ar"):
            result = paired_test(metric, corpus.sources, corpus.references, named, method, samples=200)
            assert [s.score for s in result.systems] == pytest.approx([totals[n] for n in named], abs=1e-12)
            assert all(s.interval[0] <= s.score <= s.interval[1] for s in result.systems)
            assert all(0.0 <= s.p_value <= 1.0 for s in result.systems[1:])
            assert result.signature.startswith(metric.label + "|")
        assert column == (2 if metric.label == "BERTScore" else 0)
    assert get_metric("bertscore").column_index("BERTScore P") == 0


def test_console_script_in_two_processes(models, files, tmp_path):
    """-p 2 prints what -p 1 prints (JSON, full precision; BERTScore with idf, whose document
    frequencies are joined from the workers' chunks), each run with its own cache so that the
    workers compute. The chunks are the same in both runs (30 sentences)."""
    command = [gecmetric_script(), "compare", "-s", files["INPUT.src"], "-r", files["REF0"], files["REF1"], "-o",
               *(files[n] for n in (*SYSTEMS, "NULL")), "--metrics",
               f"{scribendi_spec(models)},{bertscore_spec(models, ':idf')}", "--json", "--chunk-lines", "30"]
    outputs = [json.loads(out) for out in outputs_with_jobs(command, tmp_path, {"HF_HUB_OFFLINE": "1"})]
    assert outputs[0] == outputs[1]
    assert Cache(tmp_path / "cache-2").info().entries == Cache(tmp_path / "cache-1").info().entries > 0


# --------------------------------------------------------------------------- meta-evaluation, report


@pytest.fixture(scope="module")
def seeda(shared_data, tmp_path_factory) -> dict:
    """SEEDA's subset with CoNLL-2014's references cut to its lines."""
    folder = shared_data / "seeda_subset"
    names = sorted(p.name for p in folder.iterdir() if p.name not in ("LINES", "README.md"))
    lines = [int(n) for n in read_lines(str(folder / "LINES"))]
    cut = tmp_path_factory.mktemp("seeda-references")
    references = []
    for name in ("REF0", "REF1"):
        full = read_lines(str(shared_data / "conll14" / name))
        (cut / name).write_text("".join(full[n - 1] + "\n" for n in lines), encoding="utf-8")
        references.append(str(cut / name))
    return {"folder": folder, "names": names, "source": read_lines(str(folder / "INPUT")),
            "texts": {name: read_lines(str(folder / name)) for name in names}, "lines": lines,
            "references": references, "judgments": shared_data / "human" / "judgments" / "seeda_sent.xml"}


def test_meta_evaluation_against_seeda(models, seeda):
    """System level (SEEDA's human table and the raw judgments) and sentence level through the
    API; the command: Scribendi without -r, both metrics with the cut references."""
    from gecmetrics import meta_evaluate, meta_evaluate_judgments

    metrics = [scribendi_metric(models), bertscore_metric(models)]
    corpus = Corpus(seeda["source"], [read_lines(r) for r in seeda["references"]], dict(seeda["texts"]))
    scored = score_corpus(metrics, corpus)
    system = meta_evaluate({"Scribendi": {n: scored.result(n, 0).score for n in seeda["names"]},
                            "BERTScore F": {n: scored.result(n, 1).score for n in seeda["names"]}}, "seeda")
    assert all(c.n_systems == 12 and -1 <= c.pearson <= 1 for c in system.correlations)
    judged = meta_evaluate_judgments(seeda["judgments"], scored=scored)
    assert [c.metric for c in judged.correlations] == ["Scribendi", "BERTScore rescaled P", "BERTScore rescaled R",
                                                       "BERTScore rescaled F"]
    assert judged.scores["Scribendi"] == {n: scored.result(n, 0).score for n in seeda["names"]}
    sentence = meta_evaluate_judgments(seeda["judgments"], scored=scored, src_ids=seeda["lines"], level="sentence")
    assert [s.metric for s in sentence.sentence][:2] == ["Scribendi", "BERTScore rescaled P"]
    assert all(s.pairs > 5000 and 0.0 <= s.accuracy <= 1.0 for s in sentence.sentence)
    args = ["meta-eval", "--judgments", str(seeda["judgments"]), "-s", str(seeda["folder"] / "INPUT"), "-o",
            *(str(seeda["folder"] / n) for n in seeda["names"]), "--json"]
    code, out, err = run_cli(*args, "--metrics", scribendi_spec(models), "--level", "sentence", "--src-ids",
                             str(seeda["folder"] / "LINES"))
    assert code == 0, err
    assert json.loads(out)["sentence"][0]["accuracy"] == sentence.sentence[0].accuracy
    code, out, err = run_cli(*args, "-r", *seeda["references"], "--metrics", bertscore_spec(models))
    assert code == 0, err
    correlations = json.loads(out)["correlations"]
    assert [c["metric"] for c in correlations] == ["BERTScore rescaled P", "BERTScore rescaled R",
                                                   "BERTScore rescaled F"]
    assert correlations[2]["pearson"] == pytest.approx(judged.correlations[3].pearson, abs=1e-12)


def test_report_with_the_model_metrics(models, files, tmp_path):
    """gecmetric report runs both metrics through the protocol (summary with intervals and
    paired tests, the Scribendi sentence values attributed to edits)."""
    pytest.importorskip("spacy", reason="the report's ERRANT annotation needs spaCy")
    from tests.conftest import SPACY_TEST_MODEL

    (tmp_path / "short").mkdir()
    paths = write_files(tmp_path / "short", {n: read_lines(files[n])[:25] for n in ("INPUT.src", "REF0", "REF1", "AMU",
                                                                                    "CAMB")})
    out = tmp_path / "data.json"
    code, _, err = run_cli("report", "-s", paths["INPUT.src"], "-r", paths["REF0"], paths["REF1"], "-o",
                           paths["AMU"], paths["CAMB"], "--json", str(out), "--samples", "50",
                           "--spacy-model", SPACY_TEST_MODEL, "--metrics",
                           f"{scribendi_spec(models)},{bertscore_spec(models)}", "--attribute", scribendi_spec(models))
    if code != 0 and "spaCy" in err:
        pytest.skip(err)
    assert code == 0, err
    text = out.read_text(encoding="utf-8")
    for label in ("Scribendi", "BERTScore rescaled F"):
        assert label in text


# --------------------------------------------------------------------------- settings and errors


def test_settings_flags_and_signatures(models):
    scribendi, bert = ScribendiSettings.infos(), BERTScoreSettings.infos()
    assert [scribendi[n].flags for n in ("model", "threshold", "token_sort", "dtype", "batch_size", "device",
                                         "threads")] == [
        ("--model",), ("--threshold",), ("--token-sort",), ("--dtype",), ("--batch-size",), ("--device",),
        ("--threads",)]
    assert [bert[n].flags for n in ("model", "num_layers", "idf", "baseline", "dtype", "batch_size", "device",
                                    "threads")] == [
        ("--model",), ("--layer",), ("--idf",), ("--baseline",), ("--dtype",), ("--batch-size",), ("--device",),
        ("--threads",)]
    for infos in (scribendi, bert):  # what changes only speed is not signed
        assert all(infos[n].signature is None for n in ("device", "batch_size", "threads"))
        assert infos["dtype"].signature == "dtype"
    metric = scribendi_metric(models, threshold="0.9", token_sort="levenshtein", batch_size=7)
    assert metric.column_labels() == ["Scribendi t0.9 levenshtein"] and metric.fraction is False
    assert VERSIONS.sub("", str(metric.signature)) == (
        "Scribendi|model:gpt2@bf3562203989/config-9b7e2f4d|tokenizer:gpt2@47a18b335d5a|threshold:0.9|token_sort:levenshtein|dtype:float32|cache:on|"
        "version:0.1.0")  # this module's tests each have a cache of their own
    torch = sys.modules["torch"]
    assert f"|torch:{torch.__version__.split('+')[0]}|" in metric.signature
    assert scribendi_metric(models, batch_size=3, threads=2, device="auto").signature == \
        scribendi_metric(models).signature
    bert_metric = bertscore_metric(models, idf="yes", batch_size=3)
    assert VERSIONS.sub("", str(bert_metric.signature(2))) == (
        "BERTScore|model:bert-base-uncased@a6fa31ceec89/config-ee67e7f1|tokenizer:bert-base-uncased@86fa10a939b5|layer:9|"
        "idf:yes|baseline:bert-base-uncased|dtype:float32|refs:2|cache:on|version:0.1.0")
    assert bert_metric.column_labels() == ["BERTScore idf rescaled P", "BERTScore idf rescaled R",
                                           "BERTScore idf rescaled F"]
    assert bertscore_metric(models, layer=4, baseline="none").column_labels()[2] == "BERTScore L4 F"
    assert metrics_from_text(bertscore_spec(models, ":idf"))[0] == bertscore_metric(models, idf=True)
    assert metrics_from_text("scribendi:t=0.7:matcher=levenshtein")[0].settings.threshold == 0.7
    code, out, err = run_cli("compare", "--list-metrics")
    assert code == 0 and "scribendi: Scribendi" in out and "bertscore: BERTScore" in out and "token_sort" in out


@pytest.mark.parametrize("name, settings", [
    ("scribendi", {"threshold": "nan"}), ("scribendi", {"threshold": "high"}), ("scribendi", {"token_sort": "fuzzy"}),
    ("scribendi", {"dtype": "float64"}), ("scribendi", {"batch_size": 0}), ("scribendi", {"model": ""}),
    ("scribendi", {"device": "tpu"}), ("bertscore", {"layer": -1}), ("bertscore", {"layer": "x"}),
    ("bertscore", {"idf": "maybe"}), ("bertscore", {"baseline": ""}), ("bertscore", {"threads": -1}),
    ("bertscore", {"model": 3})])
def test_bad_settings_are_input_errors(name, settings):
    with pytest.raises(InputError):
        get_metric(name, **settings)


def test_bad_input_is_one_line_naming_the_flag_or_file(models, files, tmp_path):
    base = ["compare", "-s", files["INPUT.src"], "-o", files["AMU"], "--metrics"]
    refs = ["-r", files["REF0"]]
    (tmp_path / "empty").mkdir()
    cases = [
        ([*base, scribendi_spec(models, ":threshold=x")], "threshold"),
        ([*base, scribendi_spec(models, ":token_sort=rapidfuzz")], "token_sort"),
        ([*base, "scribendi:model=" + str(tmp_path / "missing")], "no such model folder"),
        ([*base, "scribendi:model=" + str(tmp_path / "empty")], "no config.json"),
        ([*base, scribendi_spec(models, ":color=red")], "has no setting 'color'"),
        ([*base[:3], *refs, *base[3:], f"bertscore:model={models['bert']}:layer=13"],
         "num_layers (--layer) must be between 0 and 12"),
        ([*base[:3], *refs, *base[3:], f"bertscore:model={models['bert']}"], "no default layer"),
        ([*base[:3], *refs, *base[3:], f"bertscore:model={models['bert']}:layer=9:baseline={tmp_path / 'none.tsv'}"],
         "cannot read the baseline file"),
        ([*base[:3], *refs, *base[3:], f"bertscore:model={models['bert']}:layer=9:baseline=auto"],
         "no rescaling baseline known"),
        ([*base, bertscore_spec(models)], "needs reference texts: -r REF"),
    ]
    for args, message in cases:
        assert message in one_line_error(*args), args
    short = tmp_path / "short.txt"
    short.write_text("one line\n", encoding="utf-8")
    error = one_line_error("compare", "-s", files["INPUT.src"], "-o", str(short), "--metrics", scribendi_spec(models))
    assert str(short) in error


def test_bertscore_idf_weights_summing_to_zero_are_one_line_not_nan(models, tmp_path):
    """With idf, a side whose every token is in every reference sentence has weights summing to 0:
    ``bert-score -r REF -c HYP --idf`` prints ``nan`` for P or R (one reference sentence: R; three
    references all holding "." and one of them only "."); here one line and exit 2, whatever the
    output (table, --sentence, JSON, a paired test)."""
    paths = write_files(tmp_path, {"one.src": ["He go home ."], "one.ref": ["He goes home ."],
                                   "one.hyp": ["He went home ."], "three.src": ["a .", "b .", "c ."],
                                   "three.ref": ["It is .", ".", "So it goes ."], "three.hyp": ["It is .", "!", "So ."]})
    for corpus in ("one", "three"):
        base = ["bertscore", "-s", paths[f"{corpus}.src"], "-r", paths[f"{corpus}.ref"], "-o", paths[f"{corpus}.hyp"],
                "--model", str(models["bert"]), "--layer", "9", "--device", "cpu", "--idf", "--no-cache"]
        for extra in ([], ["--sentence"], ["--json"], ["-o", paths[f"{corpus}.src"], "--paired-bs", "10"]):
            # file and line (--sentence named no file; the line none was named): a sentence refused
            # before a paired test of one sentence is, and before any number is printed
            # the reference's tokens weigh 0 (one reference sentence; "." of three: in every reference): its recall
            line = 1 if corpus == "one" else 2
            error = one_line_error(*base, *extra)
            assert f"{paths[f'{corpus}.ref']}:{line}: BERTScore: the reference sentence's recall is 0/0" in error, \
                (corpus, extra, error)
        code, out, err = run_cli(*base[:-2], "--no-cache")  # without idf: numbers
        assert code == 0 and "nan" not in out.lower(), (out, err)


def test_bertscore_a_text_of_special_token_strings_is_0_0_without_idf_too(models, tmp_path):
    """The text "[CLS]" is read by the tokenizer as the token [CLS], whose weight is 0 with idf or
    without: bert_score prints nan for its P; the one-line refusal said it was idf's doing, with
    idf off (found by a differential fuzz against bert-score 0.3.13)."""
    paths = write_files(tmp_path, {"s": ["a .", "b ."], "r": ["the risk .", "the risk ."], "h": ["[CLS]", "the risk ."]})
    error = one_line_error("bertscore", "-s", paths["s"], "-r", paths["r"], "-o", paths["h"], "--model",
                           str(models["bert"]), "--layer", "9", "--device", "cpu", "--no-cache")
    assert "0/0" in error and "as [CLS] and [SEP] do" in error and not error.startswith("gecmetric: error: BERTScore with")


def test_bertscore_a_reference_whose_tokens_weigh_0_is_named_by_its_file_and_line(models, tmp_path):
    """A reference line the tokenizer reads as [SEP] alone has no token of weight: its recall is
    0/0. The refusal named the hypothesis's file and line (nothing wrong there); now the
    reference's, from the command (in chunks too) and from Python (the reference set's name)."""
    paths = write_files(tmp_path, {"s": ["a .", "b .", "c ."], "r0": ["a .", "b .", "c ."],
                                   "r1": ["a .", "[SEP]", "c ."], "h": ["a .", "the risk .", "c ."]})
    for extra in ([], ["-p", "2", "--chunk-lines", "1"]):
        error = one_line_error("bertscore", "-s", paths["s"], "-r", paths["r0"], paths["r1"], "-o", paths["h"],
                               "--model", str(models["bert"]), "--layer", "9", "--device", "cpu", "--no-cache", *extra)
        assert error.startswith(f"gecmetric: error: {paths['r1']}:2: BERTScore: the reference sentence's recall is "
                                "0/0"), error
    metric = bertscore_metric(models, baseline="none")
    with pytest.raises(LineRefused, match="^reference 1:2: BERTScore: the reference sentence's recall is 0/0"):
        metric.corpus_score(None, [["a .", "b .", "c ."], ["a .", "[SEP]", "c ."]], ["a .", "the risk .", "c ."])
    with pytest.raises(InputError, match="^hypothesis:2: BERTScore: a sentence's precision or recall is 0/0"):
        metric.corpus_score(None, [["a .", "[SEP]", "c ."]], ["a .", "[CLS]", "c ."])  # both: the hypothesis's P


def test_a_bertscore_reward_gives_a_0_0_completion_the_fallback(models, caplog):
    """A completion the tokenizer reads as [SEP] alone has no token of weight: its P is 0/0. The
    reward raised for the whole call (a GRPO step ended); now that completion gets the fallback
    value and the others their scores. Scored as a corpus, the sentence is refused by its line."""
    from gecmetrics.rewards import reward_function

    f = reward_function("bertscore", model=str(models["bert"]), layer=9, device="cpu", fallback=-1.0, cache=False)
    with caplog.at_level(logging.WARNING, logger="gecmetrics.rewards"):
        values = f(completions=["He goes home .", "[SEP]", ""], references=[["He goes home ."]] * 3)
    assert values[1] == -1.0 and values[0] > 0.9 and values[2] == 0.0  # (an empty text: bert_score's 0)
    assert f.stats.reasons == {"refused by the metric": 1} and "0/0" in caplog.text
    metric = bertscore_metric(models, baseline="none")
    statistics = metric.corpus_statistics(None, [["a .", "b .", "c ."]], ["a .", "[SEP]", "[CLS] [SEP]"])
    with pytest.raises(LineRefused, match="^line 2: BERTScore: a sentence's precision or recall is 0/0") as refused:
        metric.score(statistics)
    assert refused.value.line == 2 and refused.value.path is None
    with pytest.raises(InputError, match="^hypothesis:2: BERTScore: a sentence's"):  # (the call names its argument)
        metric.corpus_score(None, [["a .", "b .", "c ."]], ["a .", "[SEP]", "[CLS] [SEP]"])


def test_missing_torch_is_one_line_naming_the_extra(models, files):
    """Without torch and transformers: one line, exit 2, naming pip install 'gecmetrics[models]'."""
    block = ("import sys\n"
             "class Block:\n"
             "    def find_spec(self, name, path=None, target=None):\n"
             "        if name.split('.')[0] in ('torch', 'transformers'):\n"
             "            raise ImportError(f'No module named {name!r}')\n"
             "sys.meta_path.insert(0, Block())\n"
             "from gecmetrics.cli import main\n"
             "main(sys.argv[1:])\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for spec, refs in ((scribendi_spec(models), []), (bertscore_spec(models), ["-r", files["REF0"]])):
        done = subprocess.run([sys.executable, "-c", block, "compare", "-s", files["INPUT.src"], *refs, "-o",
                               files["AMU"], "--metrics", spec], capture_output=True, text=True, env=env, timeout=120)
        assert done.returncode == 2 and done.stdout == "", done
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr
        assert "pip install 'gecmetrics[models]'" in done.stderr


# --------------------------------------------------------------------------- the docs' console examples


CONSOLE = re.compile(r"```console\n(.*?)```", re.S)


def console_examples(page: str) -> list[tuple[str, list[str]]]:
    """(command, the lines it prints) of a page's console blocks, in order."""
    examples: list[tuple[str, list[str]]] = []
    for block in CONSOLE.findall((ROOT / page).read_text(encoding="utf-8")):
        for line in block.splitlines():
            if line.startswith("$ "):
                examples.append((line[2:], []))
            elif examples:
                examples[-1][1].append(line)
    return examples


@pytest.mark.parametrize("page", ["docs/scribendi.md", "docs/bertscore.md"])
def test_the_docs_python_examples_run(backend, page, tmp_path):
    """The page's Python blocks run, in order, in the folder its console blocks make (a copy of
    the sample corpus, the tiny models built as the page says). Only the console commands that
    make that folder run here: what the ``gecmetric`` commands print is compared with the page by
    test_console_docs."""
    setup = [command for command, _ in console_examples(page) if not command.startswith("gecmetric ")]
    assert setup, page
    # this checkout's gecmetric and python first on PATH, as scripts (a link to a virtualenv's
    # python starts the base interpreter, without the venv's packages)
    env = environment(tmp_path, "")
    done = subprocess.run(["bash", "-c", "set -e\n" + "\n".join(setup)], capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=900)
    assert done.returncode == 0, done.stderr
    python = re.findall(r"```python\n(.*?)```", (ROOT / page).read_text(encoding="utf-8"), flags=re.S)
    assert python, page
    done = subprocess.run([sys.executable, "-c", "\n".join(python)], capture_output=True, text=True, env=env,
                          cwd=tmp_path / "sample", timeout=600)
    assert done.returncode == 0, done.stderr
