"""A model metric's signature names its tokenizer's files: two tokenizer folders of one name whose
files differ (``do_lower_case`` in tokenizer_config.json) gave other numbers under the same
signature (SOME and IMPARA signed ``tokenizer:grammer`` by the folder's name; BERTScore, PT-M2 and
the Scribendi Score signed the weights and config.json only), and ``compare`` refused the two as
"a metric with the same settings is given twice". The signature now carries the first 12 hex
digits of the digest the tokenizer's token ids are cached under; the weights fingerprint, which
the cache keys hold, is unchanged."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import run_cli, write_files
from tests.test_models_metrics import backend, models, own_cache  # noqa: F401 (fixtures: the tiny models, a cache per test)

from gecmetrics.core.models.token_ids import tokenizer_digest
from gecmetrics.metrics.registry import get_metric

pytest.importorskip("torch", reason="the model metrics need torch and transformers")
pytest.importorskip("transformers", reason="the model metrics need torch and transformers")

SOURCE = ["This are a Short sentence .", "The Quick brown fox jump over the lazy dog ."]
SYSTEM = ["This is a Short sentence .", "The Quick brown fox jumps over the lazy dog ."]


def two_folders(folder: Path, tmp_path: Path, name: str) -> tuple[Path, Path]:
    """Copies of ``folder`` under one name in two places, the second lower-casing its texts."""
    first, second = tmp_path / "a" / name, tmp_path / "b" / name
    shutil.copytree(folder, first)
    shutil.copytree(folder, second)
    path = second / "tokenizer_config.json"
    config = json.loads(path.read_text(encoding="utf-8"))
    config["do_lower_case"] = not config.get("do_lower_case", False)
    path.write_text(json.dumps(config), encoding="utf-8")
    return first, second


def test_some_and_impara_sign_the_tokenizer_s_files(models, tmp_path):
    first, second = two_folders(models["some"] / "grammer", tmp_path, "grammer")
    digests = [tokenizer_digest(str(folder)).partition(":")[2][:12] for folder in (first, second)]
    assert digests[0] != digests[1]
    some = [get_metric("some", model=str(models["some"]), tokenizer=str(folder), device="cpu", threads=1)
            for folder in (first, second)]
    for metric, digest in zip(some, digests):
        assert f"|tokenizer:grammer@{digest}|" in metric.signature
    scores = [metric.corpus_score(SOURCE, None, SYSTEM).score for metric in some]
    assert scores[0] != scores[1]  # other numbers: other signatures
    impara = [get_metric("impara", model=str(models["impara"] / "qe"), se_model=str(models["impara"] / "se"),
                         tokenizer=str(folder), device="cpu", threads=1) for folder in (first, second)]
    for metric, digest in zip(impara, digests):
        assert f"|tokenizer:grammer@{digest}|" in metric.signature
    paths = write_files(tmp_path, {"src": SOURCE, "sys": SYSTEM})
    specs = ",".join(f"some:model={models['some']}:tokenizer={folder}:device=cpu:threads=1"
                     for folder in (first, second))
    code, out, err = run_cli("compare", "-s", paths["src"], "-o", paths["sys"], "--metrics", specs)
    assert code == 0 and "given twice" not in err, err
    assert f"tokenizer:grammer@{digests[0]}|" in out and f"tokenizer:grammer@{digests[1]}|" in out, out
    items = [metric.scorer().signature_items() for metric in some]
    assert [item["tokenizer_files"] for item in items] == digests


def test_bertscore_and_pt_m2_sign_the_tokenizer_s_files_and_keep_their_cache_keys(models, tmp_path):
    first, second = two_folders(models["impara"] / "se", tmp_path, "encoder")
    digests = [tokenizer_digest(str(folder)).partition(":")[2][:12] for folder in (first, second)]
    metrics = [get_metric("bertscore", model=str(folder), layer=2, device="cpu") for folder in (first, second)]
    references, hypothesis = [SOURCE], SYSTEM
    scores = [metric.corpus_score(None, references, hypothesis).scores for metric in metrics]
    assert scores[0] != scores[1]
    signatures = [str(metric.signature(1)) for metric in metrics]
    for signature, digest in zip(signatures, digests):
        assert f"|tokenizer:encoder@{digest}|layer:2|" in signature
    assert signatures[0] != signatures[1]
    # the weights fingerprint and config digest (what the cached similarities are keyed by) are the model's
    assert signatures[0].split("|")[1] == signatures[1].split("|")[1]
    assert metrics[0].scorer().identity() == metrics[1].scorer().identity()
    pt = [get_metric("pt-m2", model=str(folder), num_layers=2, baseline="none", device="cpu")
          for folder in (first, second)]
    for metric, digest in zip(pt, digests):
        assert f"|tokenizer:encoder@{digest}|layer:2|" in str(metric.signature)


def test_the_scribendi_score_signs_its_tokenizer_s_files(tmp_path):
    from gecmetrics.core.models.tiny_gpt2 import build_tiny_gpt2

    build_tiny_gpt2(tmp_path / "gpt2")
    first, second = two_folders(tmp_path / "gpt2", tmp_path, "lm")
    signatures = [str(get_metric("scribendi", model=str(folder), device="cpu").signature)
                  for folder in (first, second)]
    for signature, folder in zip(signatures, (first, second)):
        assert f"|tokenizer:lm@{tokenizer_digest(str(folder)).partition(':')[2][:12]}|" in signature
    assert signatures[0] != signatures[1]
