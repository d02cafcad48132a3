"""The forward passes written from weights (core/models/encoder.py and direct_bert.py for BERT,
gpt2.py for GPT-2) against transformers' own models on the same weights, one config field at a
time: every field of their allow-lists (``encoder.FIELDS``, ``gpt2.FIELDS``) is varied here, and
with each variation the direct pass must still be chosen and give transformers' numbers; a value
outside the allow-list must send the model through transformers. A field added to an
allow-list without a variation here fails ``test_every_allowed_field_is_varied``."""
from __future__ import annotations

import json
import zlib
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="needs torch and transformers")
transformers = pytest.importorskip("transformers", reason="needs torch and transformers")

from gecmetrics.core.models import encoder, gpt2  # noqa: E402
from gecmetrics.core.models.fields import GENERATION_LEFTOVERS  # noqa: E402

BERT = {"architectures": ["BertForSequenceClassification"], "model_type": "bert", "vocab_size": 97,
        "hidden_size": 32, "num_hidden_layers": 2, "num_attention_heads": 4, "intermediate_size": 40,
        "hidden_act": "gelu", "max_position_embeddings": 40, "type_vocab_size": 2, "layer_norm_eps": 1e-12,
        "id2label": {"0": "LABEL_0"}, "label2id": {"LABEL_0": 0}}
GPT2 = {"architectures": ["GPT2LMHeadModel"], "model_type": "gpt2", "vocab_size": 97, "n_embd": 32, "n_head": 4,
        "n_layer": 2, "n_positions": 40, "activation_function": "gelu_new", "layer_norm_epsilon": 1e-5}

LEFTOVERS = {"_num_labels": 1, "bad_words_ids": [[5]], "decoder_start_token_id": 2, "do_sample": True,
             "early_stopping": True, "length_penalty": 2.0, "max_length": 7, "min_length": 3,
             "no_repeat_ngram_size": 2, "num_beams": 4, "num_return_sequences": 2, "repetition_penalty": 1.5,
             "temperature": 0.7, "top_k": 5, "top_p": 0.5, "task_specific_params": {"x": {"max_length": 3}},
             "prefix": "x", "finetuning_task": "sst-2", "xla_device": False, "use_bfloat16": True, "torchscript": True,
             "output_attentions": False, "output_hidden_states": True, "return_dict": True, "output_past": True,
             "gradient_checkpointing": True, "transformers_version": "3.0.2", "_name_or_path": "elsewhere",
             "tokenizer_class": "BertTokenizer", "initializer_range": 0.5, "use_cache": False, "bos_token_id": 2,
             "eos_token_id": 3, "sep_token_id": 3, "problem_type": "regression",
             "id2label": {"0": "quality"}, "label2id": {"quality": 0}, "eos_token_ids": [3],
             "tie_encoder_decoder": True, "diversity_penalty": 0.5, "num_beam_groups": 2, "forced_bos_token_id": 2,
             "forced_eos_token_id": 3, "remove_invalid_values": True, "return_dict_in_generate": True,
             "output_scores": True, "encoder_no_repeat_ngram_size": 2, "typical_p": 0.9,
             "exponential_decay_length_penalty": None, "suppress_tokens": [4], "begin_suppress_tokens": [5],
             "cross_attention_hidden_size": 16, "tf_legacy_loss": True}
"""Every field of ``fields.GENERATION_LEFTOVERS`` at once, with a value other than the default."""

BERT_VARIATIONS = [
    {"hidden_size": 48}, {"num_attention_heads": 2}, {"num_attention_heads": 8}, {"num_hidden_layers": 0},
    {"num_hidden_layers": 3}, {"intermediate_size": 20}, {"vocab_size": 120}, {"max_position_embeddings": 64},
    {"type_vocab_size": 1}, {"type_vocab_size": 3}, {"layer_norm_eps": 1e-5}, {"layer_norm_eps": 0.5},
    {"hidden_act": "gelu"}, {"position_embedding_type": "absolute"}, {"position_embedding_type": None},
    {"is_decoder": False}, {"add_cross_attention": False}, {"is_encoder_decoder": False}, {"pruned_heads": {}},
    {"dtype": "float32"}, {"dtype": None}, {"torch_dtype": "float32"}, {"pad_token_id": 5}, {"pad_token_id": None},
    {"chunk_size_feed_forward": 0}, {"num_labels": 1}, {"hidden_dropout_prob": 0.5},
    {"attention_probs_dropout_prob": 0.5}, {"classifier_dropout": 0.3}, {"classifier_dropout": None},
    {"tie_word_embeddings": False}, {"model_type": "bert"}, {"architectures": ["BertForSequenceClassification", "BertModel"]},
    {"directionality": "bidi", "pooler_fc_size": 768, "pooler_num_attention_heads": 12, "pooler_num_fc_layers": 3,
     "pooler_size_per_head": 128, "pooler_type": "first_token_transform"},
    LEFTOVERS,
]
BERT_REFUSED = [{"model_type": "roberta"}, {"hidden_act": "relu"}, {"hidden_act": "gelu_new"},
                {"position_embedding_type": "relative_key"}, {"is_decoder": True}, {"add_cross_attention": True},
                {"pruned_heads": {"0": [1]}}, {"dtype": "float16"}, {"layer_norm_eps": 0}, {"hidden_size": 30},
                {"num_hidden_layers": True}, {"architectures": ["RobertaModel"]}, {"rope_theta": 10000.0},
                {"attn_implementation": "eager"}, {"chunk_size_feed_forward": 2},
                {"output_attentions": True}, {"return_dict": False}]

GPT2_VARIATIONS = [
    {"n_embd": 48}, {"n_head": 2}, {"n_head": 8}, {"n_layer": 0}, {"n_layer": 3}, {"n_positions": 48},
    {"n_ctx": 10}, {"n_inner": None}, {"n_inner": 40}, {"vocab_size": 120}, {"activation_function": "gelu_new"},
    {"layer_norm_epsilon": 1e-3}, {"layer_norm_epsilon": 0.5}, {"scale_attn_weights": True},
    {"scale_attn_by_inverse_layer_idx": False}, {"reorder_and_upcast_attn": False}, {"add_cross_attention": False},
    {"tie_word_embeddings": True}, {"resid_pdrop": 0.5, "embd_pdrop": 0.5, "attn_pdrop": 0.5},
    {"summary_first_dropout": 0.5, "summary_activation": "tanh", "summary_proj_to_labels": False,
     "summary_type": "mean", "summary_use_proj": False},
    {"pad_token_id": 5}, {"pad_token_id": None}, {"dtype": "float16"}, {"dtype": "bfloat16"}, {"dtype": None},
    {"torch_dtype": "float16"}, {"architectures": ["GPT2LMHeadModel"]}, {"model_type": "gpt2"},
    {**LEFTOVERS, "tokenizer_class": "GPT2Tokenizer"},
]
GPT2_REFUSED = [{"model_type": "llama"}, {"activation_function": "relu"}, {"scale_attn_weights": False},
                {"scale_attn_by_inverse_layer_idx": True}, {"reorder_and_upcast_attn": True},
                {"tie_word_embeddings": False}, {"model_type": "bert"}, {"architectures": ["GPT2DoubleHeadsModel"]}, {"n_head": 5},
                {"rope_theta": 10000.0}, {"layer_norm_epsilon": -1.0},
                {"return_dict": False}, {"output_attentions": True}]


def seeded(name: str, shape: tuple[int, ...]) -> np.ndarray:
    """A parameter's seeded value: norms' gains near 1, small biases, N(0, 0.15^2) matrices (N(0, 1)
    embeddings), so that every weight, bias and gain shows in the outputs."""
    stream = np.random.RandomState(zlib.crc32(name.encode()) % 2**32)
    values = stream.standard_normal(size=shape)
    if "LayerNorm.weight" in name or ".ln_" in name and name.endswith(".weight"):
        values = 1 + 0.1 * values
    elif name.endswith(".bias"):
        values = 0.05 * values
    else:
        values = values * (1.0 if "embeddings" in name or name.endswith(("wte.weight", "wpe.weight")) else 0.15)
    return values.astype(np.float32)


def write_model(folder: Path, config: dict, model_class: str) -> Path:
    """A folder with ``config`` as its config.json (written as given, after transformers saved its
    own) and seeded weights for ``model_class`` built from that config."""
    folder.mkdir(parents=True)
    (folder / "config.json").write_text(json.dumps(config))
    model = getattr(transformers, model_class)(transformers.AutoConfig.from_pretrained(str(folder)))
    with torch.no_grad():
        for name, parameter in model.named_parameters():
            parameter.copy_(torch.from_numpy(seeded(name, tuple(parameter.shape))))
    model.save_pretrained(str(folder))
    (folder / "config.json").write_text(json.dumps(config))
    return folder


def batch(vocabulary: int, type_vocabulary: int, lengths=(9, 3, 14, 1)):
    """Padded ids, attention mask and token types (a pair's second part typed 1 where there is a type 1)."""
    generator = torch.Generator().manual_seed(7)
    width = max(lengths)
    ids = torch.randint(0, vocabulary, (len(lengths), width), generator=generator)
    mask = torch.zeros(len(lengths), width, dtype=torch.long)
    types = torch.zeros(len(lengths), width, dtype=torch.long)
    for row, length in enumerate(lengths):
        mask[row, :length] = 1
        types[row, length // 2:length] = min(1, type_vocabulary - 1)
    return ids, mask, types


def label(variation: dict) -> str:
    return ",".join(f"{key}={value!r}"[:40] for key, value in variation.items()) if len(variation) < 4 \
        else f"{len(variation)} fields"


def test_every_allowed_field_is_varied() -> None:
    assert set().union(*BERT_VARIATIONS) == set(encoder.FIELDS)
    assert set().union(*GPT2_VARIATIONS) == set(gpt2.FIELDS)
    assert set(LEFTOVERS) == set(GENERATION_LEFTOVERS)


@pytest.mark.parametrize("variation", BERT_VARIATIONS, ids=label)
def test_direct_bert_equals_transformers_under_each_field(tmp_path: Path, variation: dict) -> None:
    """The encoder states and the regressor output of SOME's and IMPARA's direct BERT
    (``direct_bert.MaskedBert``: padding mask, token types) and PT-M2's (``encoder.DirectBert``,
    cut after each layer count) equal transformers' ``BertModel`` / ``BertForSequenceClassification``."""
    from gecmetrics.core.models.direct_bert import load_direct

    config = {**BERT, **variation}
    folder = write_model(tmp_path / "bert", config, "BertForSequenceClassification")
    assert encoder.refusal(config) is None
    loaded = load_direct(torch, str(folder / "config.json"), str(folder / "model.safetensors"),
                         regressor=config.get("num_labels", 1) == 1)
    assert loaded is not None
    direct = loaded[0]
    ids, mask, types = batch(config["vocab_size"], config["type_vocab_size"])
    theirs_regressor = transformers.AutoModelForSequenceClassification.from_pretrained(str(folder)).eval()
    theirs = theirs_regressor.bert  # the same weights as AutoModel loads them
    with torch.inference_mode():
        states = direct.states(ids, mask, types)
        expected = theirs(input_ids=ids, attention_mask=mask, token_type_ids=types)[0]
        real = mask.bool()
        assert torch.allclose(states[real], expected[real], rtol=0, atol=2e-5), (states[real] - expected[real]).abs().max()
        output = direct.regress(ids, mask, types)
        wanted = theirs_regressor(input_ids=ids, attention_mask=mask, token_type_ids=types)[0][:, 0]
        assert torch.allclose(output, wanted, rtol=0, atol=2e-5), (output - wanted).abs().max()
        plain, weights, every_layer = ids[:, :5], encoder.read_weights(torch, str(folder / "model.safetensors")), \
            list(theirs.encoder.layer)
        for layers in range(config["num_hidden_layers"] + 1):
            cut = encoder.DirectBert(torch, config, weights, layers)
            theirs.encoder.layer = torch.nn.ModuleList(every_layer[:layers])
            mine, reference = cut(plain)[0], theirs(input_ids=plain)[0]
            assert torch.allclose(mine, reference, rtol=0, atol=2e-5), (layers, (mine - reference).abs().max())


@pytest.mark.parametrize("variation", BERT_REFUSED, ids=label)
def test_a_bert_field_or_value_outside_the_list_goes_through_transformers(variation: dict) -> None:
    assert encoder.refusal({**BERT, **variation}) is not None


@pytest.mark.parametrize("variation", GPT2_VARIATIONS, ids=label)
def test_direct_gpt2_equals_transformers_under_each_field(tmp_path: Path, variation: dict) -> None:
    """The logits of ``gpt2.DirectGPT2`` (as the Scribendi Score loads it: the dtype asked for,
    float32) equal transformers' ``GPT2LMHeadModel`` loaded as ``causal_lm`` loads it."""
    config = {**GPT2, **variation}
    folder = write_model(tmp_path / "gpt2", config, "GPT2LMHeadModel")
    assert gpt2.refusal(config) is None
    direct = gpt2.DirectGPT2(torch, config, gpt2.read_weights(torch, str(folder / "model.safetensors")), torch.float32)
    theirs = transformers.AutoModelForCausalLM.from_pretrained(str(folder), dtype=torch.float32).eval()
    ids = batch(config["vocab_size"], 1, lengths=(11, 11, 11))[0]
    with torch.inference_mode():
        mine, reference = direct.logits(ids), theirs(input_ids=ids, use_cache=False)[0]
    assert torch.allclose(mine, reference, rtol=0, atol=5e-5), (mine - reference).abs().max()


@pytest.mark.parametrize("variation", GPT2_REFUSED, ids=label)
def test_a_gpt2_field_or_value_outside_the_list_goes_through_transformers(variation: dict) -> None:
    assert gpt2.refusal({**GPT2, **variation}) is not None


def test_loaders_route_a_refused_config_through_transformers_with_its_numbers(tmp_path: Path) -> None:
    """A real checkpoint's field the allow-list never saw (here ``rope_theta``, inert for BERT in
    transformers) makes the model metrics' loader use transformers: same numbers, other path."""
    from gecmetrics.core.models.inference import load_model

    direct_folder = write_model(tmp_path / "plain", BERT, "BertForSequenceClassification")
    other = tmp_path / "other"
    other.mkdir()
    for path in direct_folder.iterdir():
        (other / path.name).write_bytes(path.read_bytes())
    (other / "config.json").write_text(json.dumps({**BERT, "rope_theta": 10000.0}))
    ids, mask, types = batch(BERT["vocab_size"], 2)
    first, second = load_model(str(direct_folder), "regressor", "cpu"), load_model(str(other), "regressor", "cpu")
    assert first.direct and not second.direct
    with torch.inference_mode():
        assert torch.allclose(first.model.regress(ids, mask, types), second.model.regress(ids, mask, types),
                              rtol=0, atol=2e-5)
