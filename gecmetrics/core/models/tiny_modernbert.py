"""A tiny seeded ModernBERT regressor standing in for IMPARA-GED's quality estimator: the same
model on every machine, built in a second with no download, for checking IMPARA-GED against
gec-metrics' code.

IMPARA-GED (Findings of ACL 2025; hub ``naist-nlp/IMPARA-GED``) is IMPARA whose quality
estimator is a ``ModernBertForSequenceClassification`` fine-tuned from ModernBERT-large with one
output and mean pooling, run without the similarity gate. The stand-in here is a
``ModernBertForSequenceClassification`` of ``LAYERS`` layers (the first with global attention,
the others with a sliding window of ``LOCAL_WINDOW`` tokens, so that both kinds of layer and
rotary positions of both bases are used on CoNLL-2014 sentences), hidden size 64, one output,
with the cased WordPiece vocabulary of :mod:`~gecmetrics.core.models.tiny_bert_heads`.

Its config.json is written by hand with the fields ModernBERT checkpoints were saved with by
transformers 4.48-4.5x (``global_attn_every_n_layers``, ``local_attention``,
``global_rope_theta`` ...), which transformers 5 still reads; weights come from NumPy's frozen
``RandomState`` stream seeded per parameter name (norm gains 1, biases 0, embeddings N(0, 1),
other matrices N(0, 0.15^2)) and are written straight to ``model.safetensors``: the folder does
not depend on the installed transformers.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from ...errors import InputError
from .tiny import seeded_normal, weights_fingerprint, write_tokenizer
from .tiny_bert_heads import cased_vocabulary

SEED = 2025
"""The default seed (the year of the IMPARA-GED paper)."""

LAYERS = 3
LOCAL_WINDOW = 8
POOLINGS = ("mean", "cls")


def modernbert_config(vocabulary_size: int, pooling: str = "mean") -> dict:
    """config.json of the tiny ModernBERT regressor (``classifier_pooling`` ``pooling``), in the
    fields transformers 4.48+ saves ModernBERT with. [PAD] [UNK] [CLS] [SEP] [MASK] are ids 0-4."""
    if pooling not in POOLINGS:
        raise InputError(f"the tiny ModernBERT's pooling must be one of {', '.join(POOLINGS)}, got {pooling!r}")
    return {"architectures": ["ModernBertForSequenceClassification"], "model_type": "modernbert",
            "vocab_size": vocabulary_size, "hidden_size": 64, "intermediate_size": 96, "num_hidden_layers": LAYERS,
            "num_attention_heads": 4, "hidden_activation": "gelu", "max_position_embeddings": 512,
            "initializer_range": 0.02, "initializer_cutoff_factor": 2.0, "norm_eps": 1e-05, "norm_bias": False,
            "pad_token_id": 0, "bos_token_id": 2, "eos_token_id": 3, "cls_token_id": 2, "sep_token_id": 3,
            "global_rope_theta": 160000.0, "local_rope_theta": 10000.0, "global_attn_every_n_layers": 3,
            "local_attention": LOCAL_WINDOW, "attention_bias": False, "attention_dropout": 0.0,
            "embedding_dropout": 0.0, "mlp_bias": False, "mlp_dropout": 0.0, "decoder_bias": True,
            "classifier_pooling": pooling, "classifier_dropout": 0.0, "classifier_bias": False,
            "classifier_activation": "gelu", "deterministic_flash_attn": False, "sparse_prediction": False,
            "sparse_pred_ignore_index": -100, "reference_compile": False, "id2label": {"0": "LABEL_0"},
            "label2id": {"LABEL_0": 0}, "problem_type": "regression"}


def parameter_value(name: str, shape: tuple[int, ...], seed: int) -> Any:
    """One parameter: norm gains 1, biases 0, token embeddings N(0, 1), other matrices
    N(0, 0.15^2), from ``RandomState(seed + crc32(name))``."""
    import numpy as np

    if name.endswith("norm.weight"):
        return np.ones(shape, dtype=np.float32)
    if name.endswith(".bias"):
        return np.zeros(shape, dtype=np.float32)
    return seeded_normal(name, shape, seed, 1.0 if "embeddings" in name else 0.15)


def build_tiny_modernbert(folder: str | os.PathLike[str], pooling: str = "mean", seed: int = SEED) -> str:
    """Write the tiny ModernBERT regressor (config, weights, tokenizer files) to ``folder`` and
    return its weights fingerprint. Needs torch and a transformers that has ModernBERT (4.48+)
    to learn the parameters' names and shapes."""
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise InputError(f"the seed must be a non-negative integer, got {seed!r}")
    try:
        import transformers
        from safetensors.numpy import save_file
    except ImportError as err:
        raise InputError(f"the tiny ModernBERT needs torch and transformers ({err}): "
                         "pip install 'gecmetrics[models]'") from None
    if not hasattr(transformers, "ModernBertConfig"):
        raise InputError(f"transformers {transformers.__version__} has no ModernBERT (4.48 or later is needed)")
    vocabulary = cased_vocabulary()
    config = modernbert_config(len(vocabulary), pooling)
    target = Path(folder)
    target.mkdir(parents=True, exist_ok=True)
    (target / "config.json").write_text(json.dumps(config, indent=1) + "\n", encoding="utf-8")
    model = transformers.ModernBertForSequenceClassification(transformers.AutoConfig.from_pretrained(str(target)))
    state = {name: parameter_value(name, tuple(parameter.shape), seed) for name, parameter in model.named_parameters()}
    save_file(state, str(target / "model.safetensors"), metadata={"format": "pt"})
    write_tokenizer(target, vocabulary, lower_case=False)
    write_fast_tokenizer(target)
    return weights_fingerprint(state)


def write_fast_tokenizer(folder: Path) -> None:
    """tokenizer.json for the folder's cased WordPiece vocabulary (``[CLS] text [SEP]``), as
    ModernBERT checkpoints ship theirs: transformers 5 builds a ModernBERT's tokenizer only from
    such a file."""
    from tokenizers.implementations import BertWordPieceTokenizer

    tokenizer = BertWordPieceTokenizer(str(folder / "vocab.txt"), lowercase=False, strip_accents=False,
                                       clean_text=True, handle_chinese_chars=True)
    tokenizer.save(str(folder / "tokenizer.json"))
