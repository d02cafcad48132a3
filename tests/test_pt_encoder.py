"""The BERT encoder computed from its weights (gecmetrics.core.models.encoder) against transformers'
BertModel on the same weights; which models it takes and which go through transformers."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests._pt_support import require_backend, tiny_model  # noqa: F401

require_backend()

import torch  # noqa: E402

from gecmetrics.errors import InputError  # noqa: E402
from gecmetrics.core.models.encoder import DirectBert, supports  # noqa: E402
from gecmetrics.core.models.loading import load_model  # noqa: E402


def transformers_bert(folder: Path, layers: int):
    """transformers' BertModel cut after ``layers`` layers, as the fallback path loads it."""
    from transformers import AutoModel

    model = AutoModel.from_pretrained(str(folder))
    model.encoder.layer = torch.nn.ModuleList(list(model.encoder.layer)[:layers])
    return model.eval()


def outputs(model, lengths=(1, 2, 7, 40, 300), batch: int = 3) -> list:
    generator = torch.Generator().manual_seed(5)
    with torch.inference_mode():
        return [model(torch.randint(0, 660, (batch, length), generator=generator))[0] for length in lengths]


@pytest.mark.parametrize("layers", [0, 1, 9, 12])
def test_direct_encoder_equals_transformers_bert(tiny_model: Path, layers: int) -> None:
    loaded = load_model(str(tiny_model), num_layers=layers, device="cpu")
    assert isinstance(loaded.model, DirectBert) and len(loaded.model.layers) == layers
    for ours, theirs in zip(outputs(loaded.model), outputs(transformers_bert(tiny_model, layers))):
        assert ours.shape == theirs.shape
        assert torch.allclose(ours, theirs, rtol=0, atol=1e-5), (ours - theirs).abs().max()


def test_pretraining_checkpoint_names_and_bin_weights_load_alike(tiny_model: Path, tmp_path: Path) -> None:
    """A ``bert.`` prefix, LayerNorm ``gamma``/``beta`` and a pytorch_model.bin (as in
    bert-base-uncased's hub files) give the same model."""
    from safetensors.torch import load_file

    folder = tmp_path / "old-names"
    shutil.copytree(tiny_model, folder)
    (folder / "model.safetensors").unlink()
    state = {"bert." + name.replace("LayerNorm.weight", "LayerNorm.gamma").replace("LayerNorm.bias", "LayerNorm.beta"):
             tensor for name, tensor in load_file(tiny_model / "model.safetensors").items()}
    state["cls.predictions.bias"] = torch.zeros(660)
    torch.save(state, folder / "pytorch_model.bin")
    renamed = load_model(str(folder), num_layers=9, device="cpu").model
    original = load_model(str(tiny_model), num_layers=9, device="cpu").model
    assert isinstance(renamed, DirectBert)
    assert all(torch.equal(a, b) for a, b in zip(outputs(renamed), outputs(original)))


@pytest.mark.parametrize("change", [{"hidden_act": "relu"}, {"position_embedding_type": "relative_key"},
                                    {"model_type": "roberta"}, {"is_decoder": True}])
def test_other_configurations_are_not_taken(change: dict) -> None:
    config = {"model_type": "bert", "hidden_act": "gelu", "hidden_size": 64, "num_attention_heads": 4,
              "num_hidden_layers": 12}
    assert supports(config)
    assert not supports({**config, **change})


def test_an_unsupported_bert_goes_through_transformers(tiny_model: Path, tmp_path: Path) -> None:
    folder = tmp_path / "relu"
    shutil.copytree(tiny_model, folder)
    config = json.loads((folder / "config.json").read_text())
    (folder / "config.json").write_text(json.dumps({**config, "hidden_act": "relu"}))
    loaded = load_model(str(folder), num_layers=3, device="cpu")
    assert not isinstance(loaded.model, DirectBert) and len(loaded.model.encoder.layer) == 3


def test_missing_weights_are_one_line(tiny_model: Path, tmp_path: Path) -> None:
    from safetensors.torch import load_file, save_file

    folder = tmp_path / "incomplete"
    shutil.copytree(tiny_model, folder)
    state = load_file(folder / "model.safetensors")
    del state["encoder.layer.4.output.dense.bias"]
    save_file(state, folder / "model.safetensors")
    with pytest.raises(InputError, match="cannot load the model: .*encoder.layer.4.output.dense.bias") as error:
        load_model(str(folder), num_layers=9)
    assert "\n" not in str(error.value)
    assert isinstance(load_model(str(folder), num_layers=4).model, DirectBert)  # layer 4 is not used
