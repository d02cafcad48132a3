"""SOME and IMPARA as registered metrics (``some``, ``impara``) with the tiny seeded models (no
download): the original code's numbers (tests/data/models_tiny_*.tsv) through the metric
protocol, sentence and corpus level; ``compare`` without references (table, JSON, paired
bootstrap, ``-p 2`` through the console script); paired tests through the API; meta-evaluation
at system and sentence level against SEEDA's judgments; the persistent cache cold, warm, disabled
and with a new system (only its new inputs are computed); settings, signatures and errors."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import (check_a_changed_identity, check_warm_run, gecmetric_script, one_line_error,
                            outputs_with_jobs, run_cli, write_files)
from tests.test_models_some_impara import SYSTEMS, assert_equal_at_4_decimals, backend, oracle  # noqa: F401 (backend: a fixture)

from gecmetrics import compare, get_metric, paired_test
from gecmetrics.core.cache import Cache
from gecmetrics.errors import InputError
from gecmetrics.io.corpus import Corpus
from gecmetrics.io.text import read_lines
from gecmetrics.metrics.models.metric import IMPARA, SOME, IMPARASettings, SOMESettings
from gecmetrics.metrics.registry import metrics_from_text
from gecmetrics.run.engine import score_corpus

SHORT = 150
"""Sentences of the CoNLL-2014 files used where the oracle numbers are not compared (speed)."""


# --------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def models(backend, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The tiny SOME folder (grammer, fluency, meaning) and IMPARA folder (qe, se)."""
    from gecmetrics.core.models.tiny_bert_heads import build_impara_models, build_some_models

    folder = tmp_path_factory.mktemp("tiny-models")
    build_some_models(folder / "some")
    build_impara_models(folder / "impara")
    return {"some": folder / "some", "impara": folder / "impara"}


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch) -> Path:
    """Every test (and the processes it starts) with a cache of its own."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("GECMETRICS_CACHE", str(folder))
    return folder


def some_metric(models: dict[str, Path], **settings) -> SOME:
    return get_metric("some", model=str(models["some"]), tokenizer=str(models["some"] / "grammer"),
                      **{"device": "cpu", "threads": 1, **settings})


def impara_metric(models: dict[str, Path], **settings) -> IMPARA:
    return get_metric("impara", model=str(models["impara"] / "qe"), se_model=str(models["impara"] / "se"),
                      **{"device": "cpu", "threads": 1, **settings})


def some_spec(models: dict[str, Path], extra: str = "") -> str:
    return f"some:model={models['some']}:tokenizer={models['some'] / 'grammer'}:device=cpu:threads=1{extra}"


def impara_spec(models: dict[str, Path], extra: str = "") -> str:
    return f"impara:model={models['impara'] / 'qe'}:se_model={models['impara'] / 'se'}:device=cpu:threads=1{extra}"


@pytest.fixture(scope="module")
def conll(conll14: Path) -> dict:
    return {"source": read_lines(str(conll14 / "INPUT")),
            "systems": {name: read_lines(str(conll14 / name)) for name in (*SYSTEMS, "INPUT", "NULL")}}


def short_corpus(conll: dict, names=SYSTEMS, size: int = SHORT) -> Corpus:
    return Corpus(conll["source"][:size], [], {n: conll["systems"][n][:size] for n in names})


# --------------------------------------------------------------------------- against the originals


def test_the_metrics_give_the_originals_numbers(models, conll):
    """score_corpus in chunks of 500 sentences: SOME with its default weights and 0.2/0.3/0.5,
    IMPARA with thresholds 0.9 and 0.995, equal to some.py / impara.py (sentence and corpus)."""
    _, some_sentences, some_corpus = oracle("models_tiny_some.tsv")
    _, impara_sentences, impara_corpus = oracle("models_tiny_impara.tsv")
    metrics = [some_metric(models), some_metric(models, weights="0.2/0.3/0.5"), impara_metric(models),
               impara_metric(models, threshold=0.995)]
    columns = ["default", "g0.2-f0.3-m0.5", "t0.9", "t0.995"]
    expected = [(some_sentences, some_corpus)] * 2 + [(impara_sentences, impara_corpus)] * 2
    corpus = Corpus(conll["source"], [], {n: conll["systems"][n] for n in SYSTEMS})
    scored = score_corpus(metrics, corpus, chunk_lines=500)
    checked = 0
    for k, (metric, setting, (sentences, corpus_scores)) in enumerate(zip(metrics, columns, expected)):
        for name in SYSTEMS:
            column = f"{setting}/{name}"
            if column not in sentences:
                continue
            statistics = scored.statistics[name][k]
            assert_equal_at_4_decimals(column, metric.sentence_matrix(statistics)[0], sentences[column])
            result = scored.result(name, k)
            assert f"{result.score:.4f}" == f"{corpus_scores[column]:.4f}", column
            assert abs(result.score - corpus_scores[column]) < 1e-6, column
            if metric.label == "IMPARA":  # the gate zeroed the sentences the original scored 0
                assert result.gated == sum(value == 0.0 for value in sentences[column]), column
            checked += 1
    assert checked == 10
    # the two SOME settings and the two IMPARA thresholds each share one loaded scorer and one prepare
    assert metrics[0].sharing_key() == metrics[1].sharing_key() and metrics[0].scorer() is metrics[1].scorer()
    assert metrics[2].sharing_key() == metrics[3].sharing_key()
    assert scored.result("CAMB", 3).gated > 500


def test_each_distinct_input_is_scored_once(models, monkeypatch):
    """One prepare per chunk scores all systems together: SOME runs each head once on the
    distinct hypotheses (pairs), IMPARA embeds each distinct sentence once; a second run
    reads everything from the persistent cache."""
    from gecmetrics.metrics.models import impara, some

    sources = ["A cat sat .", "He go home .", "A cat sat ."]
    systems = {"one": ["A cat sat .", "He goes home .", "A cat sat ."],
               "two": ["A cat sat .", "He went home .", "A cat sat ."],
               "three": ["A cat sat .", "He goes home .", "The cat sat ."]}
    sizes: list[int] = []
    for module in (some, impara):
        original = module.run_batches

        def counted(inputs, *args, original=original):
            sizes.append(len(inputs))
            return original(inputs, *args)

        monkeypatch.setattr(module, "run_batches", counted)
    metrics = [some_metric(models), impara_metric(models)]
    scored = score_corpus(metrics, Corpus(sources, [], systems))
    # SOME: grammar and fluency on 4 distinct hypotheses, meaning on 4 distinct pairs; IMPARA: 5 sentences
    # embedded, then the quality of the distinct hypotheses that pass the threshold
    assert sizes[:3] == [4, 4, 4] and sizes[3] == 5 and 1 <= sizes[4] <= 4
    assert scored.encoded_texts == 12 + 5 + sizes[4]
    again = score_corpus(metrics, Corpus(sources, [], systems))
    assert len(sizes) == 5 and again.encoded_texts == 0
    for name in systems:
        assert [r.to_dict() for r in again.results()[name]] == [r.to_dict() for r in scored.results()[name]]


def test_a_hypothesis_given_by_text_is_scored_as_the_corpus_scores_it(models, conll):
    corpus = short_corpus(conll, size=40)
    for metric in (some_metric(models), impara_metric(models, threshold=0.99)):
        prepared = metric.prepare(corpus)
        by_identity = metric.statistics(prepared, corpus.hypothesis("CAMB"))
        np.testing.assert_array_equal(metric.statistics(prepared, list(corpus.hypotheses["CAMB"])), by_identity)
        other = metric.statistics(prepared, corpus.sources)  # not a system of the corpus: scored on demand
        assert other.shape == by_identity.shape
        with pytest.raises(InputError, match="hypotheses for 40 sources"):
            metric.statistics(prepared, ["x"] * 3)


# --------------------------------------------------------------------------- the cache


def test_cache_cold_warm_disabled_and_a_new_system(models, conll, tmp_path):
    """The same numbers with the cache cold, warm and disabled; a warm cache computes nothing,
    and a system added later computes only its inputs that no earlier system had."""
    metrics = [some_metric(models), impara_metric(models, threshold=0.99)]
    two = short_corpus(conll, ("AMU", "CAMB"))
    three = short_corpus(conll, ("AMU", "CAMB", "CUUI"))

    def run(corpus: Corpus, cache: Cache) -> tuple[dict, int]:
        scored = score_corpus(metrics, corpus, cache=cache)
        return {name: [r.to_dict() for r in results] for name, results in scored.results().items()}, \
            scored.encoded_texts

    def signatures(scored: dict) -> set[str]:
        return {row.pop("signature") for rows in scored.values() for row in rows}

    cache = Cache(tmp_path / "store")
    cold, computed_cold = run(three, cache)
    warm, computed_warm = run(three, cache)
    disabled, computed_disabled = run(three, Cache(enabled=False))
    on, off = signatures(cold) | signatures(warm), signatures(disabled)
    assert all(s.endswith("|cache:on|version:0.1.0") for s in on) and not any("cache:" in s for s in off)
    assert {s.replace("|cache:on", "") for s in on} == off
    assert cold == warm == disabled
    assert computed_warm == 0 and computed_cold == computed_disabled > 0
    assert {"models/bert-regression/1", "models/impara-similarity/1"} <= set(cache.info().namespaces)
    # and the ids of every distinct text under each metric's tokenizer (SOME's Python BERT one, IMPARA's)
    texts = {t for lines in (three.sources, *three.hypotheses.values()) for t in lines}
    tokens = {n: i.entries for n, i in cache.info().namespaces.items() if n.startswith("models/token-ids/")}
    assert len(tokens) == 2 and set(tokens.values()) == {len(texts)}
    # a new system after two cached ones: SOME rates its new hypotheses (grammar, fluency) and pairs
    # (meaning); IMPARA its new pairs' similarity (embedding their sentences) and new hypotheses' quality
    growing = Cache(tmp_path / "growing")
    run(two, growing)
    added, computed_added = run(three, growing)
    source = three.sources
    old_pairs = {(s, h) for n in ("AMU", "CAMB") for s, h in zip(source, three.hypotheses[n])}
    new_pairs = {(s, h) for s, h in zip(source, three.hypotheses["CUUI"])} - old_pairs
    new_hypotheses = {h for _, h in new_pairs} - {h for _, h in old_pairs}
    assert new_pairs and computed_added >= 2 * len(new_hypotheses) + len(new_pairs)
    assert computed_added < computed_cold / 3
    for name in three.hypotheses:
        for ours, theirs in zip(added[name], cold[name]):
            assert ours["score"] == pytest.approx(theirs["score"], abs=1e-7)


def test_two_threads_with_two_caches_share_the_models_and_not_the_caches(models, conll, tmp_path, fresh_resources):
    """The scorer (its loaded models) is one per process; each thread's run gives it its own
    cache: each cache ends up with what its run alone would have stored, nothing of the other's."""
    import threading

    corpora = {"a": short_corpus(conll, ("AMU",), size=20), "b": short_corpus(conll, ("CUUI",), size=20)}
    corpora["b"].sources = [f"{line} ." for line in corpora["b"].sources]  # no pair in common with a
    results, errors, barrier = {}, [], threading.Barrier(2)

    def run(name: str) -> None:
        try:
            barrier.wait()
            results[name] = score_corpus([some_metric(models)], corpora[name], chunk_lines=5,
                                         cache=tmp_path / name).results()
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=run, args=(name,)) for name in corpora]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors
    assert len([key for key in fresh_resources.keys() if key[0] == "model-scorer"]) == 1
    for name, corpus in corpora.items():
        alone = score_corpus([some_metric(models)], corpus, chunk_lines=5, cache=tmp_path / f"{name}-alone").results()
        assert Cache(tmp_path / name).info().entries == Cache(tmp_path / f"{name}-alone").info().entries > 0
        assert [r.to_dict() for rs in results[name].values() for r in rs] == \
            [r.to_dict() for rs in alone.values() for r in rs]


def test_a_changed_model_is_not_read_from_the_cache(models, conll, tmp_path):
    """Values are keyed by the weights fingerprint: other weights under the same folder name
    are computed, not read."""
    from gecmetrics.core.models.tiny_bert_heads import build_some_models
    from gecmetrics.metrics.models.metric import release_scorers

    corpus = short_corpus(conll, ("AMU",), size=30)
    first = tmp_path / "models" / "some"
    build_some_models(first, seed=1)
    metric = get_metric("some", model=str(first), tokenizer=str(first / "grammer"), device="cpu")
    before = score_corpus([metric], corpus, cache=tmp_path / "store")
    first_result = before.result("AMU", 0)
    release_scorers()
    build_some_models(first, seed=2)  # the same folder, other weights
    after = score_corpus([metric], corpus, cache=tmp_path / "store")
    assert after.encoded_texts == before.encoded_texts > 0
    assert after.result("AMU", 0).score != first_result.score
    assert str(after.result("AMU", 0).signature) != str(first_result.signature)
    release_scorers()


def test_a_changed_config_is_signed_and_not_read_from_the_cache(models, conll, tmp_path):
    """The same weights under a config.json naming fewer layers compute other numbers: the
    signature names the config's digest beside the weights fingerprint, and the cache keys by it."""
    import json
    import shutil

    from gecmetrics.metrics.models.metric import release_scorers

    corpus = short_corpus(conll, ("AMU",), size=30)
    folder = tmp_path / "models" / "some"
    shutil.copytree(models["some"], folder)
    metric = get_metric("some", model=str(folder), tokenizer=str(folder / "grammer"), device="cpu")
    before = score_corpus([metric], corpus, cache=tmp_path / "store")
    ours = str(before.result("AMU", 0).signature)
    release_scorers()
    for head in ("grammer", "fluency", "meaning"):
        config = json.loads((folder / head / "config.json").read_text())
        assert config["num_hidden_layers"] > 1
        config["num_hidden_layers"] = 1
        (folder / head / "config.json").write_text(json.dumps(config))
    after = score_corpus([metric], corpus, cache=tmp_path / "store")
    assert after.encoded_texts == before.encoded_texts > 0
    assert after.result("AMU", 0).score != before.result("AMU", 0).score
    theirs = str(after.result("AMU", 0).signature)
    assert ours.split("/config-")[0] == theirs.split("/config-")[0] and ours != theirs
    release_scorers()


# --------------------------------------------------------------------------- compare, paired tests, -p 2


@pytest.fixture
def files(conll, tmp_path) -> dict[str, str]:
    return write_files(tmp_path, {"INPUT.src": conll["source"][:SHORT],
                                  **{n: conll["systems"][n][:SHORT] for n in (*SYSTEMS, "NULL")}})


def test_compare_without_references(models, files):
    names = [*SYSTEMS, "NULL"]
    args = ["compare", "-s", files["INPUT.src"], "-o", *(files[n] for n in names), "--metrics",
            f"{some_spec(models)},{impara_spec(models)},{impara_spec(models, ':threshold=0.99')}"]
    code, out, err = run_cli(*args, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert [c["label"] for c in data["columns"]] == ["SOME", "IMPARA", "IMPARA t0.99"]
    assert data["columns"][0]["signature"].startswith("SOME|grammar:grammer@16e4a2f1d0f3/config-f7268570|fluency:fluency@25496e96e2f6/config-f7268570")
    python = compare(read_lines(files["INPUT.src"]), [], {files[n]: read_lines(files[n]) for n in names},
                     [some_metric(models), impara_metric(models), impara_metric(models, threshold=0.99)])
    assert data["rows"] == python.to_dict()["rows"]
    code, table, err = run_cli(*args)
    assert code == 0, err
    assert [cell.strip() for cell in table.splitlines()[1].split("|")[1:5]] == ["system", "SOME (x100)",
                                                                               "IMPARA (x100)", "IMPARA t0.99 (x100)"]
    for name in names:
        row = next(line for line in table.splitlines() if f" {files[name]} " in line)
        assert f"{100 * python.score(files[name], 'SOME'):.2f}" in row
    code, paired, err = run_cli(*args, "--paired-bs", "100")
    assert code == 0 and "IMPARA t0.99" in paired and "SOME" in paired, err
    # a metric with references still needs them
    assert "the metric gleu needs reference texts: -r REF" in one_line_error(*args[:-1], f"{some_spec(models)},gleu")


def test_paired_tests_through_the_api(models, conll):
    corpus = short_corpus(conll, ("INPUT", *SYSTEMS))
    named = dict(corpus.hypotheses)
    for metric in (some_metric(models), impara_metric(models, threshold=0.99)):
        means = {n: float(metric.sentence_matrix(score_corpus([metric], corpus).statistics[n][0])[0].mean())
                 for n in named}
        for method in ("bs", "ar"):
            result = paired_test(metric, corpus.sources, [], named, method, samples=200)
            assert [s.score for s in result.systems] == pytest.approx([means[n] for n in named], abs=1e-12)
            assert all(s.interval[0] <= s.score <= s.interval[1] for s in result.systems)
            assert all(0.0 <= s.p_value <= 1.0 for s in result.systems[1:])
            assert result.signature.startswith(metric.label + "|")


def test_console_script_in_two_processes(models, files, tmp_path):
    """The console script with -p 2 prints what -p 1 prints in the test's process (JSON, full
    precision; one torch thread both ways), each run with its own cache so that the workers
    compute. (The chunks are the same in both runs -- 30 sentences, below the 38 that -p 2 would
    choose for 150 -- so the batches are too: the models' float32 sums depend on the batch's
    shape in the last bits.)"""
    arguments = ["compare", "-s", files["INPUT.src"], "-o", *(files[n] for n in SYSTEMS),
                 "--metrics", f"{some_spec(models)},{impara_spec(models)}", "--json", "--chunk-lines", "30"]
    code, serial, err = run_cli("--cache", str(tmp_path / "cache-1"), *arguments, "-p", "1")
    assert code == 0, err
    (parallel,) = outputs_with_jobs([gecmetric_script(), *arguments], tmp_path, {"HF_HUB_OFFLINE": "1"},
                                    jobs_list=("2",))
    outputs = [json.loads(serial), json.loads(parallel)]
    assert outputs[0] == outputs[1]
    assert Cache(tmp_path / "cache-2").info().entries == Cache(tmp_path / "cache-1").info().entries > 0


def test_a_warm_run_reads_the_models_identities_back_and_starts_no_torch(models, files, tmp_path):
    """The first run loads SOME's and IMPARA's models and tokenizers and stores their identities
    (a model's weights fingerprint, config, dtype, computing path and pooling; a tokenizer's
    special token ids and token-id namespace); a second run on the same files reads every token
    id, rating and similarity and those identities back, prints the same bytes and never imports
    torch or transformers, also with -p 2; a run with a system the cache has not seen loads the
    models and prints what a run without the cache prints (to float32 rounding: its batches are
    made of other inputs)."""
    common = ["compare", "-s", files["INPUT.src"], "--metrics", f"{some_spec(models)},{impara_spec(models)}",
              "--json", "-o"]
    check_warm_run(common, tmp_path / "store", [files["AMU"], files["CAMB"]], files["CUUI"], exact=False)
    namespaces = Cache(tmp_path / "store").info().namespaces
    assert namespaces["models/bert-model-identity/1"].entries == 5  # SOME's three heads, IMPARA's two
    assert namespaces["models/bert-tokenizer-identity/1"].entries == 2  # SOME's (pairs) and IMPARA's


@pytest.mark.parametrize("namespace, field", [("models/bert-model-identity/1", "config"),
                                              ("models/bert-tokenizer-identity/1", "sep")])
def test_a_stored_identity_the_model_does_not_have_is_one_line_and_stored_anew(models, conll, tmp_path, namespace,
                                                                               field):
    """Should a loaded model or tokenizer differ from the identity read back (values read under
    another model's keys, inputs built with other special tokens), the run stops with one line,
    the identity is stored anew and the next run gives the numbers; a damaged record is no record
    (the model is loaded)."""
    check_a_changed_identity(lambda: impara_metric(models), short_corpus(conll, ("AMU",), size=30),
                             short_corpus(conll, ("CAMB",), size=30), tmp_path / "store", namespace, field)


# --------------------------------------------------------------------------- meta-evaluation (SEEDA)


@pytest.fixture(scope="module")
def seeda(shared_data) -> dict:
    folder = shared_data / "seeda_subset"
    names = sorted(p.name for p in folder.iterdir() if p.name not in ("LINES", "README.md"))
    return {"folder": folder, "names": names, "source": read_lines(str(folder / "INPUT")),
            "texts": {name: read_lines(str(folder / name)) for name in names},
            "lines": [int(n) for n in read_lines(str(folder / "LINES"))],
            "judgments": shared_data / "human" / "judgments" / "seeda_sent.xml"}


def test_meta_evaluation_against_seeda(models, seeda):
    """System level (SEEDA's shipped human table and the raw judgments) and sentence level,
    through the API; the command without -r."""
    from gecmetrics import meta_evaluate, meta_evaluate_judgments

    metrics = [some_metric(models), impara_metric(models)]
    corpus = Corpus(seeda["source"], [], dict(seeda["texts"]))
    scored = score_corpus(metrics, corpus)
    system = meta_evaluate({m.label: {n: scored.result(n, k).score for n in seeda["names"]}
                            for k, m in enumerate(metrics)}, "seeda")
    assert {c.metric for c in system.correlations} == {"SOME", "IMPARA"}
    assert all(c.n_systems == 12 and -1 <= c.pearson <= 1 for c in system.correlations)
    judged = meta_evaluate_judgments(seeda["judgments"], scored=scored)
    assert [c.metric for c in judged.correlations] == ["SOME", "IMPARA"]
    assert judged.scores["SOME"] == {n: scored.result(n, 0).score for n in seeda["names"]} and len(judged.systems) == 12
    sentence = meta_evaluate_judgments(seeda["judgments"], scored=scored, src_ids=seeda["lines"], level="sentence")
    assert [s.metric for s in sentence.sentence] == ["SOME", "IMPARA"]
    assert all(s.pairs > 5000 and 0.2 < s.accuracy < 0.9 for s in sentence.sentence)
    args = ["meta-eval", "--judgments", str(seeda["judgments"]), "-s", str(seeda["folder"] / "INPUT"), "-o",
            *(str(seeda["folder"] / n) for n in seeda["names"]), "--metrics", some_spec(models),
            "--src-ids", str(seeda["folder"] / "LINES"), "--json"]
    code, out, err = run_cli(*args, "--level", "sentence")
    assert code == 0, err
    assert json.loads(out)["sentence"][0]["accuracy"] == sentence.sentence[0].accuracy
    print("SEEDA base, tiny models:", [(c.metric, c.pearson, c.spearman) for c in system.correlations],
          [(s.metric, s.accuracy) for s in sentence.sentence])


# --------------------------------------------------------------------------- settings and errors


def test_settings_flags_and_signatures(models):
    some_infos, impara_infos = SOMESettings.infos(), IMPARASettings.infos()
    assert [some_infos[n].flags for n in ("model", "grammar_model", "fluency_model", "meaning_model", "device",
                                          "batch_size", "dtype")] == [
        ("--model",), ("--grammar-model",), ("--fluency-model",), ("--meaning-model",), ("--device",),
        ("--batch-size",), ("--dtype",)]
    assert [impara_infos[n].flags for n in ("model", "device", "batch_size", "dtype")] == [
        ("--model",), ("--device",), ("--batch-size",), ("--dtype",)]
    for infos in (some_infos, impara_infos):  # what changes only speed is not signed
        assert all(infos[n].signature is None for n in ("device", "batch_size", "threads"))
        assert infos["dtype"].signature == "dtype"
    metric = some_metric(models, weights="0.2/0.3/0.5", batch_size=7)
    assert metric.settings.weights == (0.2, 0.3, 0.5) and metric.column_labels() == ["SOME w0.2/0.3/0.5"]
    import torch
    import transformers

    libraries = f"torch:{torch.__version__.split('+')[0]}|transformers:{transformers.__version__}"
    assert metric.signature == ("SOME|grammar:grammer@16e4a2f1d0f3/config-f7268570|fluency:fluency@25496e96e2f6/config-f7268570|"
                                "meaning:meaning@b14c78e0d948/config-f7268570|tokenizer:grammer@aeaf1031a488|weights:0.2,0.3,0.5|"
                                "max_len:128|"
                                f"dtype:float32|{libraries}|cache:on|version:0.1.0")  # each test here has a cache of its own
    assert some_metric(models, batch_size=3, threads=2, device="auto").signature == some_metric(models).signature
    assert impara_metric(models, threshold=0.95).signature == (
        "IMPARA|qe:qe@14880037238b/config-f7268570|se:se@84d52d4cd4c7/config-1f19158e|tokenizer:qe@aeaf1031a488|threshold:0.95|"
        "max_len:128|dtype:float32|"
        f"{libraries}|cache:on|version:0.1.0")
    heads = [str(models["some"] / h) for h in ("grammer", "fluency", "meaning")]
    by_head = get_metric("some", grammar_model=heads[0], fluency_model=heads[1], meaning_model=heads[2],
                         tokenizer=heads[0], device="cpu")
    assert by_head.signature == some_metric(models).signature
    assert metrics_from_text(some_spec(models, ":weights=0.2/0.3/0.5"))[0] == some_metric(models, weights=(0.2, 0.3,
                                                                                                           0.5))
    assert metrics_from_text("impara:t=0.8")[0].settings.threshold == 0.8
    code, out, err = run_cli("compare", "--list-metrics")
    assert code == 0 and "some: SOME" in out and "impara: IMPARA" in out and "grammar_model" in out


@pytest.mark.parametrize("name, settings", [
    ("some", {"weights": "0.5/0.5"}), ("some", {"weights": "1/2/nan"}), ("some", {"device": "tpu"}),
    ("impara", {"threshold": "nan"}), ("impara", {"threshold": "high"}), ("some", {"max_length": 3}),
    ("impara", {"batch_size": 0}), ("some", {"dtype": "float64"}), ("impara", {"model": ""}),
    ("impara", {"se_model": 3}), ("some", {"threads": -1})])
def test_bad_settings_are_input_errors(name, settings):
    with pytest.raises(InputError):
        get_metric(name, **settings)


def test_missing_models_are_one_line_errors(models, tmp_path, files):
    with pytest.raises(InputError, match="SOME needs its three models"):
        get_metric("some").signature
    with pytest.raises(InputError, match="is not a folder"):
        get_metric("some", model="org/some-models").signature
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="no 'grammer' folder"):
        get_metric("some", model=str(tmp_path / "empty")).signature
    with pytest.raises(InputError, match="no config.json"):
        get_metric("impara", model=str(tmp_path / "empty")).signature
    error = one_line_error("compare", "-s", files["INPUT.src"], "-o", files["AMU"], "--metrics", "some")
    assert "SOME needs its three models" in error


def test_column_labels_show_the_dtype_and_maximum_length(models):
    """``compare --metrics some:...,some:...:dtype=float16`` labelled its columns ``SOME`` and
    ``SOME (2)``: SOME's, IMPARA's and the Scribendi Score's labels now show a dtype other than
    float32 and a maximum length other than 128, as BERTScore's show the dtype."""
    from gecmetrics.run.compare import metric_columns

    assert some_metric(models).column_labels() == ["SOME"]
    assert some_metric(models, dtype="float16").column_labels() == ["SOME float16"]
    assert some_metric(models, max_length=64, weights="0.2/0.3/0.5").column_labels() == ["SOME w0.2/0.3/0.5 max_len64"]
    assert impara_metric(models, dtype="bfloat16", threshold=0.95).column_labels() == ["IMPARA t0.95 bfloat16"]
    assert impara_metric(models, max_length=256).column_labels() == ["IMPARA max_len256"]
    assert get_metric("scribendi", dtype="float16").column_labels() == ["Scribendi float16"]
    assert get_metric("bertscore", dtype="float16").column_labels()[2] == "BERTScore float16 F"
    columns, _ = metric_columns([some_metric(models), some_metric(models, dtype="float16")], 0)
    assert [column.label for column in columns] == ["SOME", "SOME float16"]
