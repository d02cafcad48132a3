"""BERT models computed straight from their weight file, with padding masks and token types: the
encoder of SOME's and IMPARA's models, and the pooler and one-output classifier of their
regressors (``BertForSequenceClassification``: ``classifier(tanh(pooler(h[CLS])))``).

Why: importing transformers' modelling code and building its modules costs about 1.6 s of CPU
at every start with transformers 5, and its module stack about 10 ms per batch on top of the
arithmetic, which for a batched metric over a few thousand distinct sentences is often more than
the arithmetic itself. The layers are those of :class:`gecmetrics.core.models.encoder.DirectBert` (fused
query/key/value product, post-layer-norm blocks, exact GELU), extended here with the attention
mask of padded batches; the numbers equal transformers' ``BertModel`` /
``BertForSequenceClassification`` to float32 rounding (a test compares them). Other
architectures and sharded weights go through transformers (``inference.load_model``).
"""
from __future__ import annotations

from typing import Any

from .encoder import DirectBert, bert_block, bert_named, read_config, read_tensors, supports, weight_file
from .fields import ConfigMismatch, shown_shape

HEAD_PARTS = ("pooler.dense.weight", "pooler.dense.bias", "classifier.weight", "classifier.bias")


class MaskedBert(DirectBert):
    """All layers of a BERT encoder, called on padded batches (ids, attention mask, token types);
    with ``regressor`` true, also its pooler and one-output classifier."""

    def __init__(self, torch: Any, config: dict, state: dict, regressor: bool) -> None:
        super().__init__(torch, config, state, int(config["num_hidden_layers"]))
        self.head = []
        if regressor:
            missing = [part for part in HEAD_PARTS if part not in state]
            if missing:
                raise KeyError(f"the weights have no {missing[0]}")
            self.head = [state[part].float().contiguous() for part in HEAD_PARTS]
            shape = tuple(self.head[2].shape)
            if shape[:1] != (1,):
                raise ValueError(f"the classifier has {shape[0] if shape else 0} outputs, 1 is needed")
            if shape != (1, config["hidden_size"]):
                raise ConfigMismatch(f"classifier.weight is {shown_shape(shape)} in the weights, "
                                     f"1x{config['hidden_size']} by config.json")

    def to(self, device: Any, dtype: Any = None) -> "MaskedBert":
        convert = (lambda t: t.to(device=device, dtype=dtype)) if dtype is not None else (lambda t: t.to(device))
        self.embeddings = [convert(t) for t in self.embeddings]
        self.layers = [[convert(t) for t in layer] for layer in self.layers]
        self.head = [convert(t) for t in self.head]
        return self

    def states(self, ids: Any, mask: Any, types: Any) -> Any:
        """The last layer's states (batch, length, hidden); padded positions are computed but
        never attended to."""
        functional = self.torch.nn.functional
        batch, length = ids.shape
        words, positions, type_table, norm_weight, norm_bias = self.embeddings
        hidden = functional.embedding(ids, words) + functional.embedding(types, type_table) + positions[:length]
        hidden = functional.layer_norm(hidden, hidden.shape[-1:], norm_weight, norm_bias, self.eps)
        # padded keys get the lowest finite score (as transformers' eager attention), so a row's
        # softmax ignores them
        blocked = self.torch.finfo(hidden.dtype).min
        bias = (1.0 - mask[:, None, None, :].to(hidden.dtype)) * blocked
        for layer in self.layers:
            hidden = self._masked_layer(functional, hidden, layer, batch, length, bias)
        return hidden

    def regress(self, ids: Any, mask: Any, types: Any) -> Any:
        """The classifier's one output per input (batch,)."""
        pooler_weight, pooler_bias, classifier_weight, classifier_bias = self.head
        first = self.states(ids, mask, types)[:, 0]
        pooled = self.torch.tanh(self.torch.nn.functional.linear(first, pooler_weight, pooler_bias))
        return self.torch.nn.functional.linear(pooled, classifier_weight, classifier_bias)[:, 0]

    def _masked_layer(self, functional: Any, hidden: Any, layer: list, batch: int, length: int, bias: Any) -> Any:
        """One post-layer-norm block; attention written out (scores, softmax, weighted sum): with
        the small head sizes of these models, faster on a CPU than scaled_dot_product_attention."""
        torch = self.torch

        def attend(query: Any, key: Any, value: Any) -> Any:
            scores = torch.matmul(query, key.transpose(-1, -2)) * (query.shape[-1] ** -0.5) + bias
            return torch.matmul(scores.softmax(dim=-1), value)
        return bert_block(functional, hidden, layer, batch, length, self.heads, self.eps, attend)


def load_direct(torch: Any, config_path: str, weights_path: str | None, regressor: bool) -> tuple[Any, dict] | None:
    """(MaskedBert, the weight file's tensors as stored) when the files describe a plain BERT
    this module computes (a regressor: with one output), else None (transformers loads it)."""
    config = read_config(config_path)
    if weights_path is None or not supports(config) or config.get("type_vocab_size", 2) < 1:
        return None
    if regressor:
        labels = config.get("num_labels", len(config.get("id2label") or {}) or 2)
        if labels != 1 or "BertForSequenceClassification" not in (config.get("architectures") or []):
            return None
    raw = read_tensors(torch, weights_path)  # read (and checked finite) once: named as BERT's, kept as stored
    return MaskedBert(torch, config, bert_named(raw), regressor), raw


__all__ = ["MaskedBert", "load_direct", "weight_file"]
