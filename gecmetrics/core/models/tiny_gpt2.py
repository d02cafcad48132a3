"""A tiny GPT-2 (causal language model) built from fixed seeded weights: the same model on every
machine, with nothing downloaded, for checking LM-based metrics (Scribendi, LLM judges) against
their original code.

The model is a ``GPT2LMHeadModel`` (``model_type`` gpt2, so that code loading ``gpt2`` by name or
``AutoModelForCausalLM`` / ``AutoTokenizer`` load it offline from the folder) with, by default,
2 layers, hidden size 64, 4 heads and 1024 positions. Its tokenizer is GPT-2's byte-level BPE
(every text tokenizes, nothing is unknown) with a 2048-token vocabulary trained on the CoNLL-2014
test set text, shipped in ``gecmetrics/data/models/gpt2-conll14`` (built once by
``tests/data/build_gpt2_vocabulary.py``; its README says how). ``<|endoftext|>`` (id 0) is the
BOS, EOS and unknown token, as in GPT-2.

Weights do not come from ``transformers``' initializers (which may change between versions) but
from NumPy's frozen ``RandomState`` stream, seeded per parameter name, and are written straight
to ``model.safetensors`` with a hand-written ``config.json``: the folder's bytes do not depend on
the installed ``transformers``. The language-model head is tied to the token embeddings (as in
GPT-2), so it is not stored.
"""
from __future__ import annotations

import json
import os
import shutil
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ..checks import check_count
from ...errors import InputError
from .tiny import seeded_normal, weights_fingerprint, write_weights

SEED = 2021
"""The default seed (the year of the Scribendi Score paper, Islam and Magnani 2021)."""

END_OF_TEXT = "<|endoftext|>"
VOCABULARY = Path(__file__).resolve().parent.parent.parent / "data" / "models" / "gpt2-conll14"
"""The shipped tokenizer files (``vocab.json``, ``merges.txt``)."""

INSTALL_HINT = "pip install 'gecmetrics[models]'"


@dataclass(frozen=True)
class CausalLMShape:
    """The sizes of a tiny GPT-2: layers, hidden size, attention heads, positions."""

    layers: int = 2
    hidden: int = 64
    heads: int = 4
    positions: int = 1024

    def check(self) -> None:
        for name, value in asdict(self).items():
            check_count(value, f"tiny causal LM: {name}")
        if self.hidden % self.heads:
            raise InputError(f"tiny causal LM: hidden size {self.hidden} is not a multiple of heads {self.heads}")


def vocabulary() -> dict[str, int]:
    """The shipped vocabulary (token -> id)."""
    try:
        return json.loads((VOCABULARY / "vocab.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise InputError(f"cannot read the tiny GPT-2 vocabulary: {err}", str(VOCABULARY / "vocab.json")) from None


def gpt2_config(vocabulary_size: int, shape: CausalLMShape = CausalLMShape(), end_of_text: int = 0) -> dict:
    """config.json of the tiny GPT-2: GPT-2's settings (gelu_new, layer norm eps 1e-5, tied
    embeddings) at the given sizes, readable by transformers 4 and 5."""
    return {"architectures": ["GPT2LMHeadModel"], "model_type": "gpt2", "vocab_size": vocabulary_size,
            "n_positions": shape.positions, "n_ctx": shape.positions, "n_embd": shape.hidden,
            "n_layer": shape.layers, "n_head": shape.heads, "n_inner": None, "activation_function": "gelu_new",
            "resid_pdrop": 0.1, "embd_pdrop": 0.1, "attn_pdrop": 0.1, "layer_norm_epsilon": 1e-05,
            "initializer_range": 0.02, "scale_attn_weights": True, "scale_attn_by_inverse_layer_idx": False,
            "reorder_and_upcast_attn": False, "bos_token_id": end_of_text, "eos_token_id": end_of_text,
            "tie_word_embeddings": True, "use_cache": True}


def parameter_shapes(vocabulary_size: int, shape: CausalLMShape = CausalLMShape(),
                     inner: int | None = None) -> dict[str, tuple[int, ...]]:
    """The parameters of ``GPT2LMHeadModel`` (names as it saves them, Conv1D weights as
    (in, out)), the LM head left out (tied to ``transformer.wte.weight``); ``inner``: the
    feed-forward width (None: 4 times the hidden size, GPT-2's ``n_inner`` default)."""
    hidden = shape.hidden
    inner = 4 * hidden if inner is None else inner
    shapes: dict[str, tuple[int, ...]] = {"transformer.wte.weight": (vocabulary_size, hidden),
                                          "transformer.wpe.weight": (shape.positions, hidden)}
    for index in range(shape.layers):
        prefix = f"transformer.h.{index}."
        shapes.update({prefix + "ln_1.weight": (hidden,), prefix + "ln_1.bias": (hidden,),
                       prefix + "attn.c_attn.weight": (hidden, 3 * hidden), prefix + "attn.c_attn.bias": (3 * hidden,),
                       prefix + "attn.c_proj.weight": (hidden, hidden), prefix + "attn.c_proj.bias": (hidden,),
                       prefix + "ln_2.weight": (hidden,), prefix + "ln_2.bias": (hidden,),
                       prefix + "mlp.c_fc.weight": (hidden, inner), prefix + "mlp.c_fc.bias": (inner,),
                       prefix + "mlp.c_proj.weight": (inner, hidden), prefix + "mlp.c_proj.bias": (hidden,)})
    shapes.update({"transformer.ln_f.weight": (hidden,), "transformer.ln_f.bias": (hidden,)})
    return shapes


def parameter_values(name: str, shape: tuple[int, ...], seed: int):
    """The value of one parameter: layer-norm gains 1, biases 0, token embeddings N(0, 0.3^2)
    (the tied head's logits then spread by a few nats), position embeddings N(0, 0.1^2), other
    matrices N(0, 0.15^2); drawn from ``RandomState(seed + crc32(name))``, frozen across NumPy
    versions, so adding or removing another parameter changes nothing here."""
    import numpy as np

    if ".ln_" in name and name.endswith(".weight"):
        return np.ones(shape, dtype=np.float32)
    if name.endswith(".bias"):
        return np.zeros(shape, dtype=np.float32)
    return seeded_normal(name, shape, seed, 0.3 if name.endswith("wte.weight") else
                         0.1 if name.endswith("wpe.weight") else 0.15)


def tiny_state(seed: int = SEED, shape: CausalLMShape = CausalLMShape()) -> dict:
    """The weights (name -> float32 array) of the tiny GPT-2."""
    shape.check()
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise InputError(f"tiny causal LM: the seed must be an integer >= 0, got {seed!r}")
    return {name: parameter_values(name, dims, seed)
            for name, dims in parameter_shapes(len(vocabulary()), shape).items()}


def build_tiny_causal_lm(folder: str | os.PathLike[str], seed: int = SEED,
                         shape: CausalLMShape = CausalLMShape()) -> str:
    """Write a tiny GPT-2 of the given sizes and seed (config, weights, tokenizer files) to
    ``folder`` and return the fingerprint of its weights. Needs numpy and safetensors (which
    transformers installs); loading it needs torch and transformers."""
    vocab = vocabulary()
    end_of_text = vocab.get(END_OF_TEXT)
    if end_of_text is None:
        raise InputError(f"the tiny GPT-2 vocabulary has no {END_OF_TEXT}", str(VOCABULARY / "vocab.json"))
    state = tiny_state(seed, shape)
    target = Path(folder)
    target.mkdir(parents=True, exist_ok=True)
    write_weights(target, state)
    _write_json(target / "config.json", gpt2_config(len(vocab), shape, end_of_text))
    for name in ("vocab.json", "merges.txt"):
        shutil.copyfile(VOCABULARY / name, target / name)
    special = {"bos_token": END_OF_TEXT, "eos_token": END_OF_TEXT, "unk_token": END_OF_TEXT}
    _write_json(target / "tokenizer_config.json", {"tokenizer_class": "GPT2Tokenizer", "model_max_length": shape.positions,
                                                   "add_prefix_space": False, "add_bos_token": False,
                                                   "errors": "replace", **special})
    _write_json(target / "special_tokens_map.json", special)
    return weights_fingerprint(state)


def build_tiny_gpt2(folder: str | os.PathLike[str], seed: int = SEED) -> str:
    """The default tiny GPT-2 (2 layers, hidden size 64, 4 heads, 1024 positions) in ``folder``;
    returns its weights fingerprint."""
    return build_tiny_causal_lm(folder, seed)


def _write_json(path: Path, value: Any) -> None:
    path.write_text(json.dumps(value, indent=1) + "\n", encoding="utf-8")


def folder_fingerprint(folder: str | os.PathLike[str]) -> str:
    """The weights fingerprint of a saved causal LM folder, read back through transformers
    (``AutoModelForCausalLM``; the tied LM head is not counted twice)."""
    try:
        import transformers
    except ImportError as err:
        raise InputError(f"reading a model needs torch and transformers ({err}): {INSTALL_HINT}") from None
    try:
        model = transformers.AutoModelForCausalLM.from_pretrained(str(folder))
    except (OSError, ValueError) as err:
        raise InputError(f"cannot read the model: {str(err).splitlines()[0]}", str(folder)) from None
    return weights_fingerprint({name: p.detach().cpu().float().numpy() for name, p in model.named_parameters()})
