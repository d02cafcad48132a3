"""Tiny seeded cased BERT models that stand in for the models SOME and IMPARA load: the same
models on every machine, built in a second with no download, for checking our scores against
the original code (written as :mod:`gecmetrics.core.models.tiny` writes its BERT: NumPy and
safetensors, no torch).

* SOME (github kokeman/SOME) loads three ``BertForSequenceClassification`` regressors (one
  output) fine-tuned from ``bert-base-cased`` -- grammaticality, fluency, meaning, in folders the
  authors call ``grammer``, ``fluency`` and ``meaning`` -- and the ``bert-base-cased`` tokenizer.
* IMPARA (github gotutiyan/IMPARA) loads a ``BertForSequenceClassification`` quality estimator
  (one output; its tokenizer is the one of both models) and ``bert-base-cased`` as an
  ``AutoModel`` for the source/hypothesis similarity.

Every model here is a BERT of ``LAYERS`` layers, hidden size 64, with the cased WordPiece
vocabulary of ``gecmetrics/data/models/conll14_cased_vocab.txt`` (derived from the CoNLL-2014
text by ``tests/data/build_conll14_vocab.py``; ``do_lower_case`` false, as ``bert-base-cased``).
The weights come from NumPy's frozen ``RandomState`` stream seeded per parameter name (the
recipe of :mod:`gecmetrics.core.models.tiny`, imported from there: ``parameter_values``,
``weights_fingerprint``), with the model's name in the seed so that the models differ. The
output bias of SOME's regressors is ``SOME_OUTPUT_BIAS`` (the middle of SOME's 1-4 rating
scale) and IMPARA's 0 (its score is the sigmoid of the output), so that the tiny models' scores
fall in the range the real ones use.
"""
from __future__ import annotations

import os
from importlib import resources
from pathlib import Path
from typing import Any

from ...errors import InputError
from .encoder import bert_parameter_shapes
from .tiny import parameter_values, save_seeded

SEED = 2020
"""The default seed (the year of the SOME paper)."""

LAYERS = 4
SOME_HEADS = ("grammer", "fluency", "meaning")
"""SOME's three models, named as the folders of the authors' ``gfm-models`` (sic)."""

IMPARA_MODELS = ("qe", "se")
"""IMPARA's quality estimator (a regressor) and similarity encoder (a plain BERT)."""

SOME_OUTPUT_BIAS = 2.5
VOCABULARY_FILE = "conll14_cased_vocab.txt"


def cased_vocabulary() -> list[str]:
    """The shipped cased WordPiece vocabulary, in id order ([PAD] [UNK] [CLS] [SEP] [MASK] first)."""
    text = resources.files("gecmetrics").joinpath("data", "models", VOCABULARY_FILE).read_text(encoding="utf-8")
    return text.splitlines()


def tiny_config(vocabulary_size: int, regression: bool) -> dict:
    """The BERT configuration: ``LAYERS`` layers, hidden size 64, 4 heads, 512 positions; a
    regressor has one label (``problem_type`` regression, as a fine-tuned SOME/IMPARA head)."""
    config = {"architectures": ["BertForSequenceClassification" if regression else "BertModel"],
              "model_type": "bert", "vocab_size": vocabulary_size, "hidden_size": 64,
              "num_hidden_layers": LAYERS, "num_attention_heads": 4, "intermediate_size": 128,
              "hidden_act": "gelu", "hidden_dropout_prob": 0.1, "attention_probs_dropout_prob": 0.1,
              "max_position_embeddings": 512, "type_vocab_size": 2, "initializer_range": 0.02,
              "layer_norm_eps": 1e-12, "pad_token_id": 0, "position_embedding_type": "absolute"}
    if regression:
        config.update({"num_labels": 1, "problem_type": "regression"})
    return config


def _value(name: str, shape: tuple[int, ...], seed: int, stream: str, output_bias: float) -> Any:
    """A parameter's value: :func:`gecmetrics.core.models.tiny.parameter_values` under ``STREAM/NAME``,
    except the regression output's bias (``output_bias``)."""
    values = parameter_values(f"{stream}/{name}", shape, seed)
    if name == "classifier.bias":
        values[...] = output_bias
    return values


def build_tiny_model(folder: str | os.PathLike[str], stream: str, regression: bool, seed: int = SEED,
                     output_bias: float = 0.0) -> str:
    """Write one tiny cased BERT (a one-output regressor whose output bias is ``output_bias``,
    or a plain encoder) with its tokenizer files to ``folder``; return its weights fingerprint.
    ``stream`` names the model in the seeds (two streams give two different models)."""
    if not isinstance(stream, str) or not stream:
        raise InputError(f"the stream of a tiny model must be a non-empty name, got {stream!r}")
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise InputError(f"the seed must be a non-negative integer, got {seed!r}")
    vocabulary = cased_vocabulary()
    config = tiny_config(len(vocabulary), regression)
    # transformers' parameter names: BertForSequenceClassification holds a BertModel as ``bert``
    shapes = bert_parameter_shapes(config, "bert." if regression else "")
    if regression:
        shapes.update({"classifier.weight": (1, config["hidden_size"]), "classifier.bias": (1,)})
    state = {name: _value(name, shape, seed, stream, float(output_bias)) for name, shape in shapes.items()}
    return save_seeded(Path(folder), config, state, vocabulary, lower_case=False)


def build_some_models(folder: str | os.PathLike[str], seed: int = SEED) -> dict[str, str]:
    """SOME's three tiny regressors in ``folder/grammer``, ``folder/fluency`` and
    ``folder/meaning`` (each with the cased tokenizer, which also stands in for
    ``bert-base-cased``); returns head -> weights fingerprint."""
    return {head: build_tiny_model(Path(folder) / head, f"some-{head}", True, seed, SOME_OUTPUT_BIAS)
            for head in SOME_HEADS}


def build_impara_models(folder: str | os.PathLike[str], seed: int = SEED) -> dict[str, str]:
    """IMPARA's tiny quality estimator in ``folder/qe`` (a regressor) and similarity encoder
    in ``folder/se`` (a plain BERT standing in for ``bert-base-cased``), each with the cased
    tokenizer; returns name -> weights fingerprint."""
    return {"qe": build_tiny_model(Path(folder) / "qe", "impara-qe", True, seed),
            "se": build_tiny_model(Path(folder) / "se", "impara-se", False, seed)}
