"""A BERT encoder computed straight from its weights: the forward pass of transformers'
``BertModel`` as BERTScore calls it (absolute positions, token type 0, no padding mask,
post-layer-norm blocks, exact GELU), written with torch functions.

Why: importing transformers' modelling code costs 3-4 s of CPU at every start (it pulls in
torch's compiler and distributed packages), about as much as PT-M2 spends on a system's edits
with a small model; and one fused query/key/value product per layer with no module machinery
makes each batch cheaper. The numbers equal ``BertModel``'s to float32 rounding. Only a
config.json whose every field is in :data:`FIELDS` with an accepted value is computed here
(tests/test_models_direct_fields.py varies each field against transformers' model on the same
weights); anything else (other architectures, relative positions, other activations, fields
of a newer transformers, sharded weights) is loaded through transformers (``loading.py``,
``inference.py``).
"""
from __future__ import annotations

import json
import os
from typing import Any

from . import fields
from .fields import ANY, empty, equal_to, integer, leftovers, names_starting, number, optional, positive_number

WEIGHT_NAMES = ("model.safetensors", "pytorch_model.bin")
"""Single-file weights this encoder reads (sharded checkpoints go through transformers)."""

_LAYER_PARTS = ("attention.self.query.weight", "attention.self.query.bias", "attention.self.key.weight",
                "attention.self.key.bias", "attention.self.value.weight", "attention.self.value.bias",
                "attention.output.dense.weight", "attention.output.dense.bias",
                "attention.output.LayerNorm.weight", "attention.output.LayerNorm.bias",
                "intermediate.dense.weight", "intermediate.dense.bias", "output.dense.weight", "output.dense.bias",
                "output.LayerNorm.weight", "output.LayerNorm.bias")
_EMBEDDING_PARTS = ("word_embeddings.weight", "position_embeddings.weight", "token_type_embeddings.weight",
                    "LayerNorm.weight", "LayerNorm.bias")


def read_config(path: str) -> dict:
    """A model's config.json as a dict ({} when unreadable: transformers then reports it)."""
    try:
        with open(path, encoding="utf-8") as handle:
            config = json.load(handle)
    except (OSError, ValueError):
        return {}
    return config if isinstance(config, dict) else {}


FIELDS = {"model_type": equal_to("bert"), "architectures": names_starting("Bert"),
          "hidden_size": integer(1), "num_attention_heads": integer(1), "num_hidden_layers": integer(0),
          "intermediate_size": integer(1), "vocab_size": integer(1), "max_position_embeddings": integer(1),
          "type_vocab_size": integer(1), "hidden_act": equal_to("gelu"), "layer_norm_eps": positive_number,
          "position_embedding_type": optional(equal_to("absolute")), "is_decoder": equal_to(False),
          "add_cross_attention": equal_to(False), "is_encoder_decoder": equal_to(False), "pruned_heads": empty,
          "dtype": optional(equal_to("float32")), "torch_dtype": optional(equal_to("float32")),
          "pad_token_id": optional(integer(0)), "chunk_size_feed_forward": equal_to(0), "num_labels": integer(1),
          "hidden_dropout_prob": number, "attention_probs_dropout_prob": number,
          "classifier_dropout": optional(number), "tie_word_embeddings": ANY, "directionality": ANY,
          "pooler_fc_size": ANY, "pooler_num_attention_heads": ANY, "pooler_num_fc_layers": ANY,
          "pooler_size_per_head": ANY, "pooler_type": ANY, **leftovers()}
"""The config fields (and values) of a BERT computed here: every one varied against transformers'
``BertModel`` / ``BertForSequenceClassification`` in tests/test_models_direct_fields.py. The
weights' shapes come from the weight file; ``hidden_act`` gelu is the exact (erf) GELU; the
dropout, initialiser, label-name and generation fields change nothing in evaluation
(``chunk_size_feed_forward`` does: transformers refuses lengths it does not divide)."""
REQUIRED = ("model_type", "hidden_size", "num_attention_heads", "num_hidden_layers")
SIZES = {"hidden_size": ("embeddings.word_embeddings.weight", 1, 768),
         "vocab_size": ("embeddings.word_embeddings.weight", 0, 30522),
         "max_position_embeddings": ("embeddings.position_embeddings.weight", 0, 512),
         "type_vocab_size": ("embeddings.token_type_embeddings.weight", 0, 2),
         "intermediate_size": ("encoder.layer.0.intermediate.dense.weight", 0, 3072)}
"""The size fields of a BERT config: the weight (named as ``BertModel``'s) and axis that hold
each, and ``BertConfig``'s default when the field is not set."""


def refusal(config: dict) -> str | None:
    """Why a config is not the plain BERT encoder computed here (None: it is)."""
    return fields.config_refusal(config, FIELDS, REQUIRED, ("hidden_size", "num_attention_heads"))


def supports(config: dict) -> bool:
    """Whether a config describes the plain BERT encoder computed here: every field in
    :data:`FIELDS` with a value it accepts."""
    return refusal(config) is None


def bert_parameter_shapes(config: dict, prefix: str = "") -> dict[str, tuple[int, ...]]:
    """The parameters of transformers' ``BertModel`` (pooler included) for ``config``, name ->
    shape, each name after ``prefix`` (``bert.`` inside ``BertForSequenceClassification``)."""
    hidden, inner = config["hidden_size"], config["intermediate_size"]
    square, vector = (hidden, hidden), (hidden,)
    shapes = {"embeddings.word_embeddings.weight": (config["vocab_size"], hidden),
              "embeddings.position_embeddings.weight": (config["max_position_embeddings"], hidden),
              "embeddings.token_type_embeddings.weight": (config["type_vocab_size"], hidden),
              "embeddings.LayerNorm.weight": vector, "embeddings.LayerNorm.bias": vector}
    for layer in range(config["num_hidden_layers"]):
        block = f"encoder.layer.{layer}."
        for part in ("attention.self.query", "attention.self.key", "attention.self.value", "attention.output.dense"):
            shapes.update({f"{block}{part}.weight": square, f"{block}{part}.bias": vector})
        shapes.update({f"{block}intermediate.dense.weight": (inner, hidden),
                       f"{block}intermediate.dense.bias": (inner,),
                       f"{block}output.dense.weight": (hidden, inner), f"{block}output.dense.bias": vector})
        for norm in ("attention.output.LayerNorm", "output.LayerNorm"):
            shapes.update({f"{block}{norm}.weight": vector, f"{block}{norm}.bias": vector})
    shapes.update({"pooler.dense.weight": square, "pooler.dense.bias": vector})
    return {prefix + name: shape for name, shape in shapes.items()}


def check_against_config(config: dict, state: dict) -> None:
    """Weights (named as ``BertModel``'s) of the sizes and layers ``config`` describes, as
    transformers would load them; else :class:`~.fields.ConfigMismatch`."""
    sized = {**config, **{size: default for size, (_, _, default) in SIZES.items() if config.get(size) is None}}
    fields.check_weights(config, state, bert_parameter_shapes(sized), SIZES, ("num_hidden_layers", "encoder.layer."))


def read_tensors(torch: Any, path: str) -> dict:
    """The tensors of a safetensors or PyTorch weight file under their stored names, every one
    finite (:func:`check_finite_weights`)."""
    if path.endswith(".safetensors"):
        from safetensors.torch import load_file

        state = load_file(path)
    else:
        state = torch.load(path, map_location="cpu", weights_only=True)
    check_finite_weights(torch, state.items(), path)
    return state


def check_finite_weights(torch: Any, named: Any, source: str) -> None:
    """A model's weights (name, tensor) must be finite numbers: a damaged file's NaN turned every
    comparison false and gave numbers with exit 0 (PT-M2 100/100/100, Scribendi +11, IMPARA 0)."""
    from ...errors import InputError

    for name, tensor in named:
        if tensor.is_floating_point() and not bool(torch.isfinite(tensor).all()):
            raise InputError(f"the weights {name} hold NaN or infinite values: a damaged model file (every score "
                             "made with it would be wrong)", source)


def read_weights(torch: Any, path: str) -> dict:
    """The tensors of a safetensors or PyTorch weight file, named as ``BertModel``'s."""
    return bert_named(read_tensors(torch, path))


def bert_named(state: dict) -> dict:
    """A weight file's tensors named as ``BertModel``'s (a ``bert.`` prefix of pre-training
    checkpoints dropped, old ``gamma``/``beta`` renamed): the same tensor objects."""
    named = {}
    for name, tensor in state.items():
        name = name[len("bert."):] if name.startswith("bert.") else name
        if "LayerNorm." in name:
            name = name.replace("LayerNorm.gamma", "LayerNorm.weight").replace("LayerNorm.beta", "LayerNorm.bias")
        named[name] = tensor
    return named


class DirectBert:
    """The first ``len(layers)`` layers of a BERT encoder; calling it on token ids (batch,
    length) returns a 1-tuple with the last layer's output (batch, length, hidden), float32."""

    training = False

    def __init__(self, torch: Any, config: dict, state: dict, num_layers: int) -> None:
        def tensor(name: str) -> Any:
            if name not in state:
                raise KeyError(f"the weights have no {name}")
            return state[name].float().contiguous()

        check_against_config(config, state)
        self.torch = torch
        self.config = config
        self.heads = config["num_attention_heads"]
        self.eps = float(config.get("layer_norm_eps", 1e-12))
        self.embeddings = [tensor("embeddings." + part) for part in _EMBEDDING_PARTS]
        self.layers = []
        for index in range(num_layers):
            parts = [tensor(f"encoder.layer.{index}.{part}") for part in _LAYER_PARTS]
            fused = [torch.cat(parts[0:6:2]), torch.cat(parts[1:6:2])]  # query, key, value in one product
            self.layers.append(fused + parts[6:])

    def to(self, device: Any, dtype: Any = None) -> "DirectBert":
        """The weights moved to ``device`` (and made ``dtype``, when given)."""
        self.embeddings = [t.to(device=device, dtype=dtype) for t in self.embeddings]
        self.layers = [[t.to(device=device, dtype=dtype) for t in layer] for layer in self.layers]
        return self

    def eval(self) -> "DirectBert":
        return self

    def __call__(self, ids: Any) -> tuple[Any]:
        functional = self.torch.nn.functional
        batch, length = ids.shape
        words, positions, types, norm_weight, norm_bias = self.embeddings
        hidden = functional.embedding(ids, words) + types[0]
        hidden = hidden + positions[:length]
        hidden = functional.layer_norm(hidden, hidden.shape[-1:], norm_weight, norm_bias, self.eps)
        for layer in self.layers:
            hidden = self._layer(functional, hidden, layer, batch, length)
        return (hidden,)

    def _layer(self, functional: Any, hidden: Any, layer: list, batch: int, length: int) -> Any:
        """One post-layer-norm block (sequences of one length: no mask)."""
        return bert_block(functional, hidden, layer, batch, length, self.heads, self.eps,
                          functional.scaled_dot_product_attention)


def bert_block(functional: Any, hidden: Any, layer: list, batch: int, length: int, heads: int, eps: float,
               attend: Any) -> Any:
    """One post-layer-norm BERT block: self-attention (``attend(query, key, value)`` -> context,
    shaped (batch, heads, length, head size)), then the feed-forward part; ``layer``: the block's
    weights in the order :func:`read_weights` lays them out."""
    (qkv_weight, qkv_bias, out_weight, out_bias, norm1_weight, norm1_bias, inner_weight, inner_bias,
     output_weight, output_bias, norm2_weight, norm2_bias) = layer
    size = hidden.shape[-1]
    qkv = functional.linear(hidden, qkv_weight, qkv_bias).view(batch, length, 3, heads, size // heads)
    query, key, value = qkv.permute(2, 0, 3, 1, 4).unbind(0)
    context = attend(query, key, value).transpose(1, 2).reshape(batch, length, size)
    attended = functional.layer_norm(functional.linear(context, out_weight, out_bias) + hidden, (size,),
                                     norm1_weight, norm1_bias, eps)
    inner = functional.gelu(functional.linear(attended, inner_weight, inner_bias))
    return functional.layer_norm(functional.linear(inner, output_weight, output_bias) + attended, (size,),
                                 norm2_weight, norm2_bias, eps)


def weight_file(folder: str) -> str | None:
    """The single weight file of a model folder, or None (none, or sharded)."""
    for name in WEIGHT_NAMES:
        path = os.path.join(folder, name)
        if os.path.isfile(path):
            return path
    return None
