"""Cached model outputs are keyed by the model's config as well as its weights: the same weights
under another config (a changed ``layer_norm_eps``) compute other numbers, so they must not be
read from the cache values made with the first config; fields that only name the file
(``_name_or_path``, ``transformers_version``) do not change the key."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from gecmetrics.core.models.loading import config_digest

pytestmark = pytest.mark.models


def _edited(folder: Path, to: Path, **changes) -> Path:
    """A copy of a model folder with its config.json changed."""
    shutil.copytree(folder, to)
    config = json.loads((to / "config.json").read_text())
    config.update(changes)
    (to / "config.json").write_text(json.dumps(config, indent=1))
    return to


def test_config_digest_reads_what_the_model_computes_not_its_name(tmp_path):
    folder = tmp_path / "m"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps({"hidden_size": 8, "layer_norm_eps": 1e-12,
                                                    "_name_or_path": "a", "transformers_version": "4.0"}))
    same = tmp_path / "same"
    same.mkdir()
    (same / "config.json").write_text(json.dumps({"transformers_version": "5.9", "layer_norm_eps": 1e-12,
                                                  "hidden_size": 8, "_name_or_path": "b"}))
    other = tmp_path / "other"
    other.mkdir()
    (other / "config.json").write_text(json.dumps({"hidden_size": 8, "layer_norm_eps": 1e-5}))
    assert len(config_digest(str(folder))) == 16
    assert config_digest(str(folder)) == config_digest(str(same)) != config_digest(str(other))
    (other / "config.json").write_text("[1, 2]")
    assert config_digest(str(other)) == ""  # not a config: values keyed by the weights alone
    assert config_digest(str(tmp_path / "missing")) == ""


def test_regressor_and_causal_lm_keys_follow_the_config(tmp_path):
    pytest.importorskip("torch", reason="the model metrics need torch and transformers")
    pytest.importorskip("transformers", reason="the model metrics need torch and transformers")
    from gecmetrics.core.models.causal_lm import Perplexities, load_causal_lm
    from gecmetrics.core.models.inference import input_key, load_model
    from gecmetrics.core.models.tiny_bert_heads import build_some_models
    from gecmetrics.core.models.tiny_gpt2 import build_tiny_gpt2

    build_some_models(tmp_path / "some")
    head = tmp_path / "some" / "grammer"
    renamed = _edited(head, tmp_path / "renamed", _name_or_path="elsewhere")
    changed = _edited(head, tmp_path / "eps", layer_norm_eps=1e-3)
    loaded = {path.name: load_model(str(path), "regressor", "cpu") for path in (head, renamed, changed)}
    assert loaded["grammer"].fingerprint == loaded["eps"].fingerprint  # the same weights
    keys = {name: input_key(model, ([101, 7, 102], [0, 0, 0])) for name, model in loaded.items()}
    assert keys["grammer"] == keys["renamed"] != keys["eps"]

    build_tiny_gpt2(tmp_path / "gpt2")
    lms = {name: load_causal_lm(str(path), "cpu") for name, path in
           (("gpt2", tmp_path / "gpt2"), ("eps", _edited(tmp_path / "gpt2", tmp_path / "gpt2-eps",
                                                        layer_norm_epsilon=1e-3)))}
    identities = {name: Perplexities(lm).identity() for name, lm in lms.items()}
    assert identities["gpt2"][0] == identities["eps"][0] and identities["gpt2"] != identities["eps"]
