"""PT-M2 and PT-ERRANT pair scores in the persistent cache: the same bits with the cache cold,
warm, disabled, with damaged values or a truncated file; a warm run encodes and tokenizes
nothing; another baseline reads the stored raw F back; another model, layer, library version or
thread count is another key, and another tokenizer file or library version another key of the
token ids; worker processes fill one cache; the signature says cache:on; the authors'
CoNLL-2014 numbers, warm."""
from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests._pt_support import GOLD, HYPOTHESIS, TINY_SETTINGS, expected_rows, require_backend, tiny_model  # noqa: F401
from tests._pt_support import tiny_options
from tests.conftest import cache_keys, probe_model_imports as _probe, run_cli

require_backend()

from gecmetrics.core.cache import FILE_NAME, Cache, CacheWarning  # noqa: E402
from gecmetrics.core.models.bertscore import pair_namespace, token_namespace  # noqa: E402
from gecmetrics.io.m2 import parse_m2, read_m2  # noqa: E402
from gecmetrics.io.text import read_lines  # noqa: E402
from gecmetrics.metrics.pt import PTErrant, PTM2, engine_for, PTSettings  # noqa: E402
from tests.test_pt_cli import OTHER, REFERENCE_M2, SOURCES  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SYSTEMS = {"sys": HYPOTHESIS, "other": OTHER, "copy": SOURCES}


def scored(model: Path, cache: Cache, **settings) -> tuple[dict, int, int]:
    """Statistics bytes and scores of every PT metric, level and system; pairs encoded and read
    back from the cache."""
    out, encoded, stored, _ = scored_and_tokenized(model, cache, **settings)
    return out, encoded, stored


def scored_and_tokenized(model: Path, cache: Cache, **settings) -> tuple[dict, int, int, int]:
    """:func:`scored`'s, and the number of texts the tokenizer was run on."""
    out, encoded, stored, tokenized = {}, 0, 0, 0
    for level in ("sentence", "corpus"):
        jobs = [(PTM2, parse_m2(GOLD, "gold"), SYSTEMS),
                (PTErrant, parse_m2(REFERENCE_M2["refs.m2"], "refs"),
                 {name: parse_m2(REFERENCE_M2[name], name) for name in ("hyp.m2", "copy.m2")})]
        for kind, gold, systems in jobs:
            metric = kind(model=str(model), level=level, **{**TINY_SETTINGS, **settings}).with_context(cache)
            prepared = metric.prepare(gold)
            for name, hypothesis in systems.items():
                statistics = metric.statistics(prepared, hypothesis)
                out[(kind.name, level, name)] = (statistics.tobytes(), metric.score(statistics).score)
            encoded, stored = encoded + prepared.pairs.encoded_count, stored + prepared.pairs.stored_count
            tokenized += prepared.pairs.tokenized_count
    return out, encoded, stored, tokenized


def test_cold_warm_disabled_and_damaged_values_give_the_same_bits(tiny_model, tmp_path):
    off, encoded_off, _ = scored(tiny_model, Cache(enabled=False))
    cold, encoded_cold, stored_cold = scored(tiny_model, Cache(tmp_path))
    warm, encoded_warm, stored_warm = scored(tiny_model, Cache(tmp_path))
    assert off == cold == warm
    # cold: the corpus level reads back the sentence level's pairs (the same pairs) instead of encoding
    assert 0 < encoded_cold < encoded_off and stored_cold > 0
    assert encoded_warm == 0 and stored_warm > stored_cold
    cache = Cache(tmp_path)
    (namespace,) = [name for name in cache.info().namespaces if name.startswith("pt/bertscore-f/")]
    damaged = dict.fromkeys(list(dict(cache.iter_many(namespace, cache_keys(cache, namespace))))[:5], b"GMA\x01junk")
    cache.put_many(namespace, damaged)
    again, encoded, _ = scored(tiny_model, Cache(tmp_path))
    assert again == off and encoded > 0


def test_token_ids_are_read_back_and_damaged_ones_made_again(tiny_model, tmp_path):
    """transformers' Python BERT tokenizer costs about 0.7 ms a sentence, most of a warm run
    without the stored ids: a warm run tokenizes nothing, a damaged value is tokenized again
    (and overwritten), and the bits never change."""
    off, _, _, tokenized_off = scored_and_tokenized(tiny_model, Cache(enabled=False))
    cold, _, _, tokenized_cold = scored_and_tokenized(tiny_model, Cache(tmp_path))
    warm, encoded_warm, _, tokenized_warm = scored_and_tokenized(tiny_model, Cache(tmp_path))
    assert off == cold == warm and encoded_warm == 0
    # one metric's prepare() tokenizes its own texts; the cold run's later ones read the earlier ones'
    assert 0 < tokenized_cold < tokenized_off and tokenized_warm == 0
    cache = Cache(tmp_path)
    (namespace,) = [name for name in cache.info().namespaces if name.startswith("models/token-ids/")]
    keys = cache_keys(cache, namespace)
    junk = [b"", b"\x03\x01\x02\x03", b"\x02\x01", b"\x04\x01\x02\x03\x04\x05"]
    cache.put_many(namespace, dict(zip(keys, junk)))
    again, _, _, tokenized = scored_and_tokenized(tiny_model, Cache(tmp_path))
    assert again == off and tokenized == len(junk)
    assert scored_and_tokenized(tiny_model, Cache(tmp_path))[3] == 0  # the damaged ones were overwritten


def test_the_token_ids_key_holds_the_tokenizer_files_and_libraries(tiny_model, tmp_path, monkeypatch):
    import importlib.metadata
    import shutil

    loaded = engine_for(PTSettings(model=str(tiny_model), **TINY_SETTINGS)).loaded
    namespace = token_namespace(loaded)
    assert namespace is not None and namespace.startswith("models/token-ids/")
    for change in ({"max_length": 128}, {"prefix_space": True}):
        assert token_namespace(dataclasses.replace(loaded, **change)) != namespace
    real_version = importlib.metadata.version
    for package in ("transformers", "tokenizers"):
        with monkeypatch.context() as patch:
            patch.setattr(importlib.metadata, "version", lambda name: "9.9.9" if name == package else real_version(name))
            assert token_namespace(loaded) != namespace
    assert token_namespace(dataclasses.replace(loaded, tokenizer_digest="")) is None  # not stored at all
    # a copy of the folder: the same files, the same ids (whatever the weights' path); another
    # vocabulary file: another key
    for name in ("copy", "changed"):
        shutil.copytree(tiny_model, tmp_path / name)
    with open(tmp_path / "changed" / "vocab.txt", "a", encoding="utf-8") as handle:
        handle.write("newword\n")
    copy, changed = (engine_for(PTSettings(model=str(tmp_path / name), **TINY_SETTINGS)).loaded
                     for name in ("copy", "changed"))
    assert token_namespace(copy) == namespace and token_namespace(changed) != namespace


def test_truncated_file_is_detected_and_the_bits_stay(tiny_model, tmp_path):
    off, _, _ = scored(tiny_model, Cache(enabled=False))
    cache = Cache(tmp_path)
    _, encoded_cold, _ = scored(tiny_model, cache)
    cache.close()
    path = tmp_path / FILE_NAME
    with open(path, "r+b") as handle:
        handle.truncate(os.path.getsize(path) // 2)
    with pytest.warns(CacheWarning) as record:
        again, encoded, stored = scored(tiny_model, Cache(tmp_path))
    assert again == off and encoded == encoded_cold  # nothing from the truncated file was used
    assert len([w for w in record if issubclass(w.category, CacheWarning)]) == 1


def test_model_layer_baseline_versions_and_threads_are_in_the_key(tiny_model, tmp_path):
    from gecmetrics.core.models.tiny import build_tiny_bert

    _, encoded_cold, _ = scored(tiny_model, Cache(tmp_path))
    # the raw F is stored, the baseline rescales it on the way out: another baseline reads every
    # pair back and gives the bits of an uncached run with that baseline
    uncached = scored(tiny_model, Cache(enabled=False), baseline="none")[0]
    other_baseline, encoded, stored = scored(tiny_model, Cache(tmp_path), baseline="none")
    assert other_baseline == uncached and encoded == 0 and stored > 0
    assert other_baseline != scored(tiny_model, Cache(enabled=False))[0]
    # the layer is part of the namespace: nothing is read back
    assert scored(tiny_model, Cache(tmp_path), num_layers=8)[1] == encoded_cold
    assert scored(tiny_model, Cache(tmp_path))[1] == 0
    loaded = engine_for(PTSettings(model=str(tiny_model), **TINY_SETTINGS)).loaded
    namespace = pair_namespace(loaded, 1)
    assert pair_namespace(loaded, 2) != namespace
    for change in ({"torch_version": "9.9.9"}, {"transformers_version": "9.9.9"}, {"revision": "sha256:000000000000"}):
        assert pair_namespace(dataclasses.replace(loaded, **change), 1) != namespace
    assert pair_namespace(dataclasses.replace(loaded, revision="unknown"), 1) is None  # not stored at all
    build_tiny_bert(tmp_path / "other", seed=7)
    other = engine_for(PTSettings(model=str(tmp_path / "other"), **TINY_SETTINGS)).loaded
    assert pair_namespace(other, 1) != namespace


def test_workers_fill_one_cache_and_the_signature_says_so(tiny_model, tmp_path):
    (tmp_path / "gold.m2").write_text(GOLD, encoding="utf-8")
    paths = []
    for name, lines in SYSTEMS.items():
        (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(str(tmp_path / name))
    args = ["pt-m2", "-s", str(tmp_path / "gold.m2"), "-o", *paths, *tiny_options(tiny_model), "--json"]
    environment = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
                   "OMP_NUM_THREADS": "1"}
    command = [sys.executable, "-c", "from gecmetrics.cli import run; run()", "--cache", str(tmp_path / "cache"),
               *args, "-p", "2", "--chunk-lines", "1"]
    run = subprocess.run(command, capture_output=True, text=True, env=environment, timeout=600)
    assert run.returncode == 0 and run.stderr == "", run.stderr
    entries = Cache(tmp_path / "cache").info().entries
    assert entries > 0
    # read back in this process (a second run of the console script and its two workers would
    # start torch three more times): nothing new is stored
    code, warm, _ = run_cli("--cache", str(tmp_path / "cache"), *args)
    assert code == 0 and Cache(tmp_path / "cache").info().entries == entries
    code, alone, _ = run_cli("--no-cache", *args)
    assert code == 0
    rows = [json.loads(run.stdout), json.loads(warm), json.loads(alone)]
    signatures = [[row.pop("signature") for row in result] for result in rows]
    assert rows[0] == rows[1] == rows[2]
    assert all("|cache:on|" in s for s in signatures[0] + signatures[1])
    assert not any("cache:" in s for s in signatures[2])


def test_the_authors_numbers_warm(conll14: Path, tiny_model, warm_pt_pairs, tmp_path):
    """AMU at sentence level (the authors' recommended PT-M2): on its first 150 sentences, cold
    then warm on a cache of its own and warm on conftest's ``warm_pt_pairs`` (computed cold, in
    the batches of the whole corpus), the same bits each time and nothing encoded when warm; on
    the whole corpus, warm from ``warm_pt_pairs``, the number the authors' code printed.
    (Scoring all 1312 sentences cold once more would cost about 20 s of CPU.)"""
    from tests.conftest import cache_copy

    (row,) = [r for r in expected_rows()[1] if (r["metric"], r["level"], r["system"]) == ("PT-M2", "sentence", "AMU")]
    gold, hypothesis = read_m2(str(conll14 / "official-2014.combined.m2")), read_lines(str(conll14 / "AMU"))

    def run(cache: Cache, size: int | None) -> tuple[bytes, float, int]:
        metric = PTM2(model=str(tiny_model), level="sentence", **TINY_SETTINGS).with_context(cache)
        prepared = metric.prepare(gold[:size])
        statistics = metric.statistics(prepared, hypothesis[:size])
        return statistics.tobytes(), metric.score(statistics).score, prepared.pairs.encoded_count

    stored = cache_copy(warm_pt_pairs.path, tmp_path / "stored")
    (bits_cold, cold, encoded_cold), (bits_warm, warm, encoded_warm), (bits_stored, from_stored, encoded_stored) = \
        [run(cache, 150) for cache in (Cache(tmp_path / "own"), Cache(tmp_path / "own"), stored)]
    assert bits_cold == bits_warm == bits_stored and cold == warm == from_stored
    assert encoded_cold > 0 and encoded_warm == encoded_stored == 0
    _, whole, encoded = run(stored, None)
    assert encoded == 0
    assert f"{whole:.4f}" == row["rounded"] and abs(whole - float(row["score"])) < 2e-5


def test_a_warm_run_reads_the_models_identity_back_and_starts_no_torch(tiny_model, tmp_path):
    """The first run loads the model and stores its identity (the namespaces of its token ids and
    pair scores, its signature fields) beside them; a second run on the same files finds every
    token id, pair score and the identity stored, prints the same bits and signature, and never
    imports torch or transformers; a third run with a system the cache has not seen loads the
    model (checking the stored identity against it) and prints what a run without the cache
    prints."""
    (tmp_path / "gold.m2").write_text(GOLD, encoding="utf-8")
    for name, lines in SYSTEMS.items():
        (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "new").write_text("This is sentence .\nHe go to the school .\nNothing .\nPeople is happy .\n",
                                  encoding="utf-8")
    common = ["pt-m2", "-s", str(tmp_path / "gold.m2"), *tiny_options(tiny_model), "--json"]
    cache = ["--cache", str(tmp_path / "cache")]
    systems = [str(tmp_path / name) for name in SYSTEMS]
    code, cold, err = run_cli(*cache, *common, "-o", *systems)  # here: the model is loaded once per process
    assert code == 0, err
    namespaces = Cache(tmp_path / "cache").info().namespaces
    assert [name for name in namespaces if name.startswith("pt/model-identity/")]
    warm = _probe([*cache, *common, "-o", *systems])
    assert warm.returncode == 0, warm.stderr
    assert warm.stderr.splitlines()[-1] == "modules: False False"
    assert warm.stdout == cold and "|cache:on|" in cold and "|rev:sha256:" in cold
    with_new = _probe([*cache, *common, "-o", *systems, str(tmp_path / "new")])
    code, alone, err = run_cli("--no-cache", *common, "-o", *systems, str(tmp_path / "new"))
    assert with_new.returncode == code == 0, (with_new.stderr, err)
    assert with_new.stderr.splitlines()[-1] == "modules: True True"
    rows = [json.loads(with_new.stdout), json.loads(alone)]
    signatures = [[row.pop("signature") for row in result] for result in rows]
    assert rows[0] == rows[1]
    assert [s.replace("|cache:on", "") for s in signatures[0]] == signatures[1]


def test_a_stored_identity_that_the_model_does_not_have_is_one_line_and_stored_anew(tiny_model, tmp_path):
    """What decides a model's identity is in its key; should a loaded model still differ from
    the identity read back (a pair or token id read under another model's namespaces), the run
    stops with one line, the identity is stored anew and the next run gives the numbers."""
    cache = Cache(tmp_path / "cache")
    reference = scored(tiny_model, Cache(enabled=False))[0]
    assert scored(tiny_model, cache)[0] == reference
    (namespace,) = [name for name in cache.info().namespaces if name.startswith("pt/model-identity/")]
    (key,) = cache_keys(cache, namespace)
    stored = json.loads(cache.get_many(namespace, [key])[key])
    cache.put_many(namespace, {key: json.dumps({**stored, "pairs": stored["pairs"] + "-other"}).encode()})
    from gecmetrics.core.context import Resources, RunContext
    from gecmetrics.errors import InputError

    metric = PTM2(model=str(tiny_model), **TINY_SETTINGS).with_context(RunContext(cache, Resources()))
    with pytest.raises(InputError, match="stored in the cache differs from the loaded model's"):
        metric.statistics(metric.prepare(parse_m2(GOLD, "gold")), HYPOTHESIS)
    fresh = PTM2(model=str(tiny_model), **TINY_SETTINGS).with_context(RunContext(cache, Resources()))
    prepared = fresh.prepare(parse_m2(GOLD, "gold"))
    statistics = fresh.statistics(prepared, HYPOTHESIS)
    assert (statistics.tobytes(), fresh.score(statistics).score) == reference[("pt-m2", "sentence", "sys")]
    assert prepared.pairs.encoded_count == 0  # the first run's pairs, read under the identity stored anew
    # damaged values are not identities: the model is loaded, the identity stored again
    cache.put_many(namespace, {key: b"{not json"})
    again = PTM2(model=str(tiny_model), **TINY_SETTINGS).with_context(RunContext(cache, Resources()))
    assert again.statistics(again.prepare(parse_m2(GOLD, "gold")), HYPOTHESIS).tobytes() == statistics.tobytes()
    assert again.engine.is_loaded and json.loads(cache.get_many(namespace, [key])[key]) == stored


def test_the_identity_is_read_back_only_where_its_key_is_known_without_torch(tiny_model, tmp_path, monkeypatch):
    """The key holds the weights and every other file of the folder, the layer, the thread count
    and the installed torch, transformers and tokenizers; without a thread count (threads 0), on
    a device other than the CPU, or where a GPU may be there (a device file of one on Linux,
    another system), there is no key and the model is loaded first."""
    import shutil
    from importlib import metadata

    from gecmetrics.core.models import loading
    from gecmetrics.metrics.pt.scorers import PTEngine

    def key(folder: Path = tiny_model, **settings) -> str | None:
        return PTEngine(PTSettings(model=str(folder), **{**TINY_SETTINGS, **settings})).request_key(
            settings.get("threads", 1))

    base = key()
    assert base is not None and key(num_layers=8) != base and key(threads=2) != base
    assert key(threads=0) is None and key(device="cuda") is None
    assert key(device="cpu") == base
    for name in ("weights", "vocabulary"):
        shutil.copytree(tiny_model, tmp_path / name)
    with open(tmp_path / "vocabulary" / "vocab.txt", "a", encoding="utf-8") as handle:
        handle.write("newword\n")
    (weights,) = [path for path in (tmp_path / "weights").iterdir() if path.name in loading.WEIGHT_FILES]
    data = bytearray(weights.read_bytes())
    data[-1] ^= 1
    weights.write_bytes(bytes(data))
    assert len({base, key(tmp_path / "weights"), key(tmp_path / "vocabulary")}) == 3
    real_version = metadata.version
    for package in ("torch", "transformers", "tokenizers"):
        with monkeypatch.context() as patch:
            patch.setattr(metadata, "version", lambda name: "9.9.9" if name == package else real_version(name))
            assert key() != base
    monkeypatch.setattr(loading.sys, "platform", "linux")
    monkeypatch.setattr(loading.os.path, "exists", lambda path: path == "/dev/nvidiactl")
    assert not loading.cpu_without_torch(None) and loading.cpu_without_torch("cpu") and key() is None
    monkeypatch.setattr(loading.os.path, "exists", lambda path: False)
    assert loading.cpu_without_torch(None) and not loading.cpu_without_torch("cuda:1")
    monkeypatch.setattr(loading.sys, "platform", "darwin")
    assert loading.cpu_without_torch(None)
    monkeypatch.setattr(loading.sys, "platform", "win32")
    assert not loading.cpu_without_torch(None) and loading.cpu_without_torch("cpu")


@pytest.mark.parametrize("cache_on", [False, True])
def test_the_model_computes_on_the_settings_threads_from_its_first_use(tiny_model, tmp_path, cache_on):
    """The model is loaded where it is first needed (the cache off: by the chunk's first pair
    scorer; on: by the first text to tokenize); torch is set to the setting's threads before it
    computes anything, as when the model was loaded with the engine."""
    import torch

    from gecmetrics.core.context import Resources, RunContext

    before = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        cache = Cache(tmp_path) if cache_on else Cache(enabled=False)
        metric = PTM2(model=str(tiny_model), **TINY_SETTINGS).with_context(RunContext(cache, Resources()))
        prepared = metric.prepare(parse_m2(GOLD, "gold"))
        assert prepared.pairs.encoded_count > 0 and torch.get_num_threads() == 1
    finally:
        torch.set_num_threads(before)
