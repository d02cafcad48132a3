"""A GPT-2 language model computed straight from its weights: the forward pass of transformers'
``GPT2LMHeadModel`` (learned absolute positions, pre-layer-norm blocks, causal attention,
``gelu_new``, LM head tied to the token embeddings), written with torch functions.

Why: importing transformers' modelling code costs about 1.5 s of CPU at every start, more than
the Scribendi Score spends on a CoNLL-2014 system with a small model; and fused products with no
module machinery make each batch cheaper. The numbers equal ``GPT2LMHeadModel``'s to float32
rounding. Only a config.json whose every field is in :data:`FIELDS` with an accepted value is
computed here (tests/test_models_direct_fields.py varies each field against transformers' model
on the same weights); anything else (other architectures such as Llama, scaled or upcast
attention variants, other activations, untied heads, fields of a newer transformers, sharded
weights) is loaded through transformers (``causal_lm.py``).
"""
from __future__ import annotations

import math
from typing import Any

from . import fields
from .fields import ANY, equal_to, integer, leftovers, number, optional, positive_number

_LAYER_PARTS = ("ln_1.weight", "ln_1.bias", "attn.c_attn.weight", "attn.c_attn.bias", "attn.c_proj.weight",
                "attn.c_proj.bias", "ln_2.weight", "ln_2.bias", "mlp.c_fc.weight", "mlp.c_fc.bias",
                "mlp.c_proj.weight", "mlp.c_proj.bias")


FIELDS = {"model_type": equal_to("gpt2"), "architectures": equal_to(["GPT2LMHeadModel"]),
          "n_embd": integer(1), "n_head": integer(1), "n_layer": integer(0), "n_positions": integer(1),
          "n_ctx": integer(1), "n_inner": optional(integer(1)), "vocab_size": integer(1),
          "activation_function": equal_to("gelu_new"), "layer_norm_epsilon": positive_number,
          "scale_attn_weights": equal_to(True), "scale_attn_by_inverse_layer_idx": equal_to(False),
          "reorder_and_upcast_attn": equal_to(False), "add_cross_attention": equal_to(False),
          "tie_word_embeddings": equal_to(True), "resid_pdrop": number, "embd_pdrop": number, "attn_pdrop": number,
          "summary_first_dropout": number, "summary_activation": ANY, "summary_proj_to_labels": ANY,
          "summary_type": ANY, "summary_use_proj": ANY, "pad_token_id": optional(integer(0)),
          "dtype": optional(equal_to("float32", "float16", "bfloat16")),
          "torch_dtype": optional(equal_to("float32", "float16", "bfloat16")), **leftovers()}
"""The config fields (and values) of a GPT-2 computed here: every one varied against
transformers' ``GPT2LMHeadModel`` in tests/test_models_direct_fields.py. ``dtype`` is the stored
weights' type (the model runs in the dtype asked for, as transformers loads it then); the
dropout, summary-head, initialiser and generation fields change nothing in evaluation."""
REQUIRED = ("model_type", "n_embd", "n_head", "n_layer")


def refusal(config: dict) -> str | None:
    """Why a config is not the plain GPT-2 computed here (None: it is)."""
    return fields.config_refusal(config, FIELDS, REQUIRED, ("n_embd", "n_head"))


def supports(config: dict) -> bool:
    """Whether a config describes the plain GPT-2 computed here: every field in :data:`FIELDS`
    with a value it accepts."""
    return refusal(config) is None


def check_against_config(config: dict, state: dict) -> None:
    """Weights (named as ``GPT2Model``'s) of the sizes and layers ``config`` describes, as
    transformers would load them; else :class:`~.fields.ConfigMismatch`."""
    from .tiny_gpt2 import CausalLMShape, parameter_shapes

    hidden = config["n_embd"]
    sizes = {"n_embd": ("wte.weight", 1, hidden), "vocab_size": ("wte.weight", 0, 50257),
             "n_positions": ("wpe.weight", 0, 1024), "n_inner": ("h.0.mlp.c_fc.weight", 1, 4 * hidden)}
    vocabulary, positions, inner = (sizes[size][2] if config.get(size) is None else config[size]
                                    for size in ("vocab_size", "n_positions", "n_inner"))
    shape = CausalLMShape(config["n_layer"], hidden, config["n_head"], positions)
    expected = {name.removeprefix("transformer."): dims
                for name, dims in parameter_shapes(vocabulary, shape, inner).items()}
    fields.check_weights(config, state, expected, sizes, ("n_layer", "h."))


def read_weights(torch: Any, path: str) -> dict:
    """The tensors of a safetensors or PyTorch weight file, named as ``GPT2Model``'s (the
    ``transformer.`` prefix of ``GPT2LMHeadModel`` checkpoints dropped)."""
    from .encoder import read_tensors

    state = read_tensors(torch, path)
    return {name[len("transformer."):] if name.startswith("transformer.") else name: tensor
            for name, tensor in state.items()}


class DirectGPT2:
    """A GPT-2 LM: ``logits(ids)`` (batch, length) -> (batch, length, vocabulary)."""

    direct = True
    training = False

    def __init__(self, torch: Any, config: dict, state: dict, dtype: Any) -> None:
        def tensor(name: str, transpose: bool = False) -> Any:
            if name not in state:
                raise KeyError(f"the weights have no {name}")
            value = state[name].to(dtype)
            return (value.t() if transpose else value).contiguous()

        check_against_config(config, state)
        self.torch = torch
        self.config = config
        self.heads = config["n_head"]
        self.eps = float(config.get("layer_norm_epsilon", 1e-5))
        self.embeddings = [tensor("wte.weight"), tensor("wpe.weight")]
        self.layers = []
        for index in range(config["n_layer"]):
            parts = []
            for part in _LAYER_PARTS:  # Conv1D weights are (in, out): transposed for linear()
                parts.append(tensor(f"h.{index}.{part}", transpose=part.endswith("c_attn.weight")
                                    or part.endswith("c_proj.weight") or part.endswith("c_fc.weight")))
            self.layers.append(parts)
        self.final = [tensor("ln_f.weight"), tensor("ln_f.bias")]

    def to(self, device: Any) -> "DirectGPT2":
        self.embeddings = [t.to(device) for t in self.embeddings]
        self.layers = [[t.to(device) for t in layer] for layer in self.layers]
        self.final = [t.to(device) for t in self.final]
        return self

    def eval(self) -> "DirectGPT2":
        return self

    def parameters(self):
        yield from self.embeddings

    def logits(self, ids: Any) -> Any:
        functional = self.torch.nn.functional
        batch, length = ids.shape
        words, positions = self.embeddings
        hidden = functional.embedding(ids, words) + positions[:length]
        size = hidden.shape[-1]
        for (norm1_w, norm1_b, qkv_w, qkv_b, out_w, out_b, norm2_w, norm2_b, inner_w, inner_b, proj_w,
             proj_b) in self.layers:
            normed = functional.layer_norm(hidden, (size,), norm1_w, norm1_b, self.eps)
            qkv = functional.linear(normed, qkv_w, qkv_b).view(batch, length, 3, self.heads, size // self.heads)
            query, key, value = qkv.permute(2, 0, 3, 1, 4).unbind(0)
            context = functional.scaled_dot_product_attention(query, key, value, is_causal=True,
                                                              scale=1 / math.sqrt(size // self.heads))
            hidden = hidden + functional.linear(context.transpose(1, 2).reshape(batch, length, size), out_w, out_b)
            normed = functional.layer_norm(hidden, (size,), norm2_w, norm2_b, self.eps)
            inner = functional.gelu(functional.linear(normed, inner_w, inner_b), approximate="tanh")
            hidden = hidden + functional.linear(inner, proj_w, proj_b)
        hidden = functional.layer_norm(hidden, (size,), self.final[0], self.final[1], self.eps)
        return functional.linear(hidden, words)
