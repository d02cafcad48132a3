"""IMPARA (Maeda, Kaneko and Okazaki, COLING 2022, "IMPARA: Impact-Based Metric for GEC Using
Parallel Data"), computed as the implementation gec-metrics and SEEDA use does (github
gotutiyan/IMPARA, ``impara.py`` and ``modeling.py``, commit 1c5aa97d; the paper's authors
released no code).

Per sentence, a similarity estimator (``bert-base-cased`` as a plain encoder) embeds the source
and the hypothesis as the mean of its last layer's states over their tokens ([CLS] and [SEP]
included, padding excluded), and a quality estimator (a one-output BERT regressor,
``gotutiyan/IMPARA-QE``) rates the hypothesis alone:

    IMPARA = sigmoid(QE(hyp))   if cos(SE(src), SE(hyp)) > threshold (strictly; default 0.9)
             0                  otherwise

The corpus score (``--level corpus``) is the mean of the sentence scores. Both models read the
ids of ONE tokenizer, the quality estimator's (``AutoTokenizer.from_pretrained(restore_dir)``),
at most 128 tokens, no token types. impara.py parses ``--batch_size`` (256) and ``--max_len``
(128) but passes neither on: it scores in batches of 32 and at most 128 tokens; this module's
``max_length`` (128) is the length used. gec-metrics departs from the original in two places:
it zeroes a score when the similarity is *below* the threshold (so a similarity equal to it
keeps its score) and tokenizes the similarity model's inputs with that model's own tokenizer;
the original is followed here.

Departures from impara.py that do not change a score beyond float32 rounding: each distinct
sentence is embedded once (the sources once for all systems), each distinct hypothesis rated
once, and only when its similarity passes the threshold (otherwise its score is 0 whatever the
rating); batches are sorted by length and padded to their longest input (impara.py pads to 128);
the cosine and sigmoid are computed in float64 from the float32 model outputs (impara.py's
float32 cosine, compared with the threshold rounded to float32, can fall on the other side of a
threshold within about 1e-7 of it: that sentence then scores its rating on one side and 0 on
the other; equal sentences get float32 cosines of 0.99999988 to 1.0000001 there, so thresholds
from about 0.9999998 gate them by rounding in impara.py, never here); any device
(impara.py calls ``.cuda()``). impara.py reads its files with ``read().rstrip().split('\\n')``,
so it drops empty lines at the end of a file (a system that outputs nothing, like CoNLL-2014's
NULL, then fails there); here every sentence is scored, an empty one as ``[CLS] [SEP]``.

IMPARA-GED (Findings of ACL 2025, ``naist-nlp/IMPARA-GED``; gec-metrics runs it as
``IMPARA(model_qe=..., threshold=-999.0, pooling='mean')``) is ``threshold=None`` (no gate: the
similarity model is not even loaded) with a ModernBERT quality estimator whose classifier pools
the mean of its states (``pooling='mean'``: ModernBERT's ``classifier_pooling``). Any quality
estimator transformers loads as a one-output sequence classifier is accepted.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from ...core.cache import Cache
from ...core.checks import check_count
from ...core.models.runtime import check_installed
from ...core.table import number_label
from ...core.models.inference import (REGRESSION_NAMESPACE, Encoder, ModelOnUse, cached_values, check_cache,
                                      check_max_length, check_parallel, check_texts,
                                      corpus_mean, input_keys, mean_pooling_forward, regression_forward, run_batches)
from ...errors import InputError

DEFAULT_THRESHOLD = 0.9
SIMILARITY_NAMESPACE = "models/impara-similarity/1"
"""Cached source-hypothesis similarities: a float64 cosine per (similarity model, pair of inputs)."""
COSINE_EPSILON = 1e-8
"""torch.nn.CosineSimilarity's default eps: the product of the norms is at least this."""


def check_threshold(value: object, label: str = "the IMPARA threshold", given: object = None) -> float | None:
    """The similarity threshold: a finite number below 1 (a cosine similarity is at most 1;
    impara.py's float32 cosine of equal sentences rounds to either side of 1, so its scores at 1
    or more count rounding), or None: no similarity gate (IMPARA-GED). The metric's ``threshold``
    setting is checked here too (``label``: how the message names it, ``given``: the value as
    given, when it was text)."""
    if value is None:
        return None
    shown = value if given is None else given
    if isinstance(value, bool) or not isinstance(value, (int, float, np.floating)) or not np.isfinite(value):
        raise InputError(f"{label} must be a finite number or None (no gate), got {shown!r}")
    if value >= 1:
        raise InputError(f"{label} must be below 1 (a cosine similarity is at most 1: only the original's float32 "
                         f"rounding passes some sentences there), got {shown!r}")
    return float(value)


def cosine(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """Row-wise cosine similarity in float64, as torch's CosineSimilarity (dim 1, eps 1e-8)."""
    a, b = np.asarray(first, dtype=np.float64), np.asarray(second, dtype=np.float64)
    norms = np.maximum(np.linalg.norm(a, axis=-1) * np.linalg.norm(b, axis=-1), COSINE_EPSILON)
    return np.einsum("ij,ij->i", a, b) / norms


def sigmoid(values: np.ndarray) -> np.ndarray:
    """The logistic function in float64."""
    return 1.0 / (1.0 + np.exp(-np.asarray(values, dtype=np.float64)))


def passes(similarity: np.ndarray, threshold: float | None) -> np.ndarray:
    """Where the similarity exceeds the threshold (strictly); everywhere when there is no gate."""
    similarity = np.asarray(similarity, dtype=np.float64)
    return np.ones(similarity.shape, dtype=bool) if threshold is None else similarity > threshold


def gate(similarity: np.ndarray, quality: np.ndarray, threshold: float | None) -> np.ndarray:
    """IMPARA's sentence score: the quality where the similarity exceeds the threshold, else 0
    (``threshold`` None: the quality)."""
    return np.where(passes(similarity, threshold), np.asarray(quality, dtype=np.float64), 0.0)


def gated_scores(similarity: np.ndarray, logits: np.ndarray, threshold: float | None) -> np.ndarray:
    """IMPARA's sentence scores from the similarities and the quality logits (NaN where not
    computed, which must be only where the similarity does not exceed ``threshold``; with no
    gate, ``threshold`` None, every logit is needed and the similarities are not read)."""
    similarity = np.asarray(similarity, dtype=np.float64)
    passing = passes(similarity, threshold)
    logits = np.asarray(logits, dtype=np.float64)
    if np.isnan(logits[passing]).any():
        raise InputError(f"IMPARA: the quality of some hypotheses {'' if threshold is None else 'above the threshold '}"
                         "was not computed")
    return gate(similarity, sigmoid(np.where(passing, logits, 0.0)), threshold)


class IMPARAScorer:
    """IMPARA with its two models loaded once; embeddings are remembered per distinct sentence
    and ratings per distinct hypothesis, so scoring several systems computes each once.

    ``qe_model``: hub name or folder of the quality estimator (one-output BERT regressor);
    ``se_model``: of the similarity encoder (``bert-base-cased`` as in impara.py);
    ``tokenizer``: of the tokenizer of both (default: the quality estimator's, as impara.py);
    ``threshold`` 0.9 (None: no similarity gate, and no similarity model loaded: IMPARA-GED);
    ``pooling``: how the quality estimator's classifier pools, for a model with the choice
    (ModernBERT's ``classifier_pooling``: ``cls`` or ``mean``; None: as its config says);
    ``batch_size`` 32 (what impara.py uses); ``device`` cpu, cuda[:N] or mps (default: CUDA when
    available); ``dtype`` float32, float16 or bfloat16; ``cache``: a persistent
    :class:`~gecmetrics.core.cache.Cache` for the similarity of each (source, hypothesis) pair,
    the quality of each hypothesis and the token ids (None: none). The models and the tokenizer
    are loaded here, or with ``lazy`` on first use (as :class:`~.some.SOMEScorer`'s: a run whose
    every value is stored loads nothing); ``threads`` as there.
    """

    def __init__(self, qe_model: str, se_model: str = "bert-base-cased", *, tokenizer: str | None = None,
                 threshold: float | None = DEFAULT_THRESHOLD, pooling: str | None = None, max_length: int = 128,
                 batch_size: int = 32, device: str | None = None, dtype: str = "float32",
                 cache: Cache | None = None, lazy: bool = False) -> None:
        check_installed()
        self.threshold = check_threshold(threshold)
        self.max_length = check_max_length(max_length)
        self.batch_size = check_count(batch_size, "batch_size")
        self.cache = check_cache(cache)
        self.threads = 0
        self.qe = ModelOnUse(qe_model, "regressor", device, dtype, pooling, owner=self)
        self.se = None if self.threshold is None else ModelOnUse(se_model, "encoder", device, dtype, owner=self)
        self.tokenizer_name = qe_model if tokenizer is None else tokenizer
        self.encoder = Encoder(self.tokenizer_name, self.max_length, owner=self)
        if not lazy:
            self.load()
        self._embeddings: dict[str, np.ndarray] = {}
        self._similarity: dict[tuple[str, str], float] = {}
        self._quality: dict[str, float] = {}
        self.computed = 0
        """How many model inputs this scorer has run (values read from the cache not counted)."""

    def load(self) -> None:
        """Load the models and the tokenizer now (else on first use)."""
        for model in (self.qe, self.se):
            if model is not None:
                model.load()
        self.encoder.load()

    def forget(self) -> None:
        """Drop the embeddings, similarities, ratings and WordPiece ids remembered so far (the
        persistent cache keeps its own)."""
        self._embeddings.clear()
        self._similarity.clear()
        self._quality.clear()
        self.encoder.pieces.clear()

    @property
    def fingerprints(self) -> dict[str, str]:
        """Model -> weights fingerprint (SHA-256 over names, shapes and float32 values); no
        ``se`` without a similarity gate."""
        return {"qe": self.qe.fingerprint, **({"se": self.se.fingerprint} if self.se is not None else {})}

    def signature_items(self) -> dict[str, str]:
        """What identifies the numbers, for a signature: both models and their weights
        fingerprints (first 12 hex digits), the tokenizer and its files' digest (first 12 hex
        digits), the threshold (``none``: no gate, and then no similarity model), the quality
        estimator's pooling where it has the choice, the maximum length and the dtype (batch size
        and device change nothing beyond float rounding)."""
        from ...core.models.loading import tokenizer_files

        se = {"se_model": self.se.name, "se_weights": self.se.fingerprint[:12]} if self.se is not None \
            else {"se_model": "none"}
        return {"qe_model": self.qe.name, "qe_weights": self.qe.fingerprint[:12], **se,
                **({"pooling": self.qe.pooling} if self.qe.pooling else {}), "tokenizer": self.tokenizer_name,
                "tokenizer_files": tokenizer_files(self.encoder.source),
                "threshold": "none" if self.threshold is None else number_label(self.threshold),
                "max_length": str(self.max_length), "dtype": str(self.qe.dtype).removeprefix("torch.")}

    def _embed(self, texts: list[str]) -> None:
        missing = [text for text in dict.fromkeys(texts) if text not in self._embeddings]
        if missing:
            inputs = {text: self.encoder.single(text) for text in missing}
            self._embeddings.update(run_batches(inputs, self.batch_size, mean_pooling_forward(self.se), self.se,
                                                self.encoder.pad_id))
            self.computed += len(missing)

    def _rate(self, texts: list[str]) -> None:
        missing = [text for text in dict.fromkeys(texts) if text not in self._quality]
        if missing:
            inputs = {text: self.encoder.single(text) for text in missing}

            def compute(chosen: list[str]) -> dict[str, float]:
                outputs = run_batches({text: inputs[text] for text in chosen}, self.batch_size,
                                      regression_forward(self.qe), self.qe, self.encoder.pad_id)
                return {text: float(value) for text, value in outputs.items()}

            values, computed = cached_values(self.cache, REGRESSION_NAMESPACE,
                                             input_keys(self.qe, {text: (inputs[text],) for text in missing}), compute)
            self._quality.update(values)
            self.computed += computed

    def _pair_similarities(self, pairs: list[tuple[str, str]]) -> None:
        """The similarity of the pairs not known yet: from the cache, else from the embeddings of
        their sentences (each distinct sentence embedded once)."""
        missing = [pair for pair in dict.fromkeys(pairs) if pair not in self._similarity]
        if not missing:
            return

        def compute(chosen: list[tuple[str, str]]) -> dict[tuple[str, str], float]:
            self._embed([text for pair in chosen for text in pair])
            a = np.stack([self._embeddings[source] for source, _ in chosen])
            b = np.stack([self._embeddings[hypothesis] for _, hypothesis in chosen])
            return dict(zip(chosen, cosine(a, b).tolist()))

        keys = input_keys(self.se, {pair: (self.encoder.single(pair[0]), self.encoder.single(pair[1]))
                                    for pair in missing})
        values, _ = cached_values(self.cache, SIMILARITY_NAMESPACE, keys, compute)
        self._similarity.update(values)

    def similarities(self, sources: Sequence[str], hypotheses: Sequence[str]) -> np.ndarray:
        """The cosine similarity of each source and hypothesis embedding."""
        if self.se is None:
            raise InputError("IMPARA: this scorer has no similarity model (threshold None: no similarity gate)")
        return self._similarities([check_parallel(sources, hypotheses)])[0]

    def _similarities(self, checked: list[tuple[list[str], list[str]]]) -> list[np.ndarray]:
        if self.se is None:  # no gate: no similarity is read
            return [np.full(len(hypotheses), np.nan) for _, hypotheses in checked]
        pairs = [pair for source_list, hypotheses in checked for pair in zip(source_list, hypotheses)]
        self.encoder.prepare(list(dict.fromkeys(text for pair in pairs for text in pair)), self.cache)
        self._pair_similarities(pairs)
        return [np.array([self._similarity[pair] for pair in zip(source_list, hypotheses)], dtype=np.float64)
                for source_list, hypotheses in checked]

    def systems_truncated(self, sources: Sequence[str], systems: Sequence[Sequence[str]]) -> int:
        """How many (system, sentence) inputs were truncated to ``max_length`` tokens, as
        impara.py truncates them: the hypothesis too long, or, with a similarity gate, the
        source it is compared with (the ids of :meth:`systems_parts`' texts)."""
        encoder, gated = self.encoder, self.se is not None
        return sum(encoder.cuts_single(hypothesis) or (gated and encoder.cuts_single(source))
                   for hypotheses in systems for source, hypothesis in zip(sources, hypotheses))

    def qualities(self, hypotheses: Sequence[str]) -> np.ndarray:
        """sigmoid(QE(hypothesis)) of each hypothesis, gated or not."""
        hypotheses = check_texts("hypotheses", hypotheses)
        self.encoder.prepare(list(dict.fromkeys(hypotheses)), self.cache)
        self._rate(hypotheses)
        return sigmoid(np.array([self._quality[text] for text in hypotheses], dtype=np.float64))

    def sentence_scores(self, sources: Sequence[str], hypotheses: Sequence[str]) -> np.ndarray:
        """IMPARA of each sentence (float64)."""
        return self.systems_sentence_scores(sources, [hypotheses])[0]

    def systems_sentence_scores(self, sources: Sequence[str], systems: Sequence[Sequence[str]],
                                threshold: float | None = None) -> list[np.ndarray]:
        """:meth:`sentence_scores` of several systems on the same sources; the quality
        estimator runs only on the hypotheses that pass the similarity threshold (``threshold``:
        other than the scorer's, for this call; a scorer without a gate has none)."""
        threshold = self._threshold(threshold)
        return [gated_scores(similarity, logits, threshold)
                for similarity, logits in self.systems_parts(sources, systems, threshold)]

    def _threshold(self, threshold: float | None) -> float | None:
        """The threshold of a call: the scorer's, or another one (a scorer with a similarity model)."""
        if threshold is None or self.se is None:
            return self.threshold
        return check_threshold(threshold)

    def systems_parts(self, sources: Sequence[str], systems: Sequence[Sequence[str]],
                      threshold: float | None = None) -> list[tuple[np.ndarray, np.ndarray]]:
        """Per system, the similarity of each sentence and the quality estimator's output (its
        logit) where the similarity exceeds ``threshold`` (default: the scorer's), NaN elsewhere:
        what :func:`gated_scores` turns into IMPARA under that threshold or any higher one. With
        no gate, the similarities are NaN and every hypothesis is rated."""
        threshold = self._threshold(threshold)
        checked = [check_parallel(sources, hypotheses) for hypotheses in systems]
        similarities = self._similarities(checked)
        passing = [passes(similarity, threshold) for similarity in similarities]
        self._rate([text for (_, hypotheses), mask in zip(checked, passing)
                    for text, kept in zip(hypotheses, mask) if kept])
        return [(similarity, np.array([self._quality[text] if kept else np.nan for text, kept in zip(hypotheses, mask)],
                                      dtype=np.float64))
                for (_, hypotheses), similarity, mask in zip(checked, similarities, passing)]

    def corpus_score(self, sources: Sequence[str], hypotheses: Sequence[str]) -> float:
        """impara.py ``--level corpus``: the mean of the sentence scores."""
        return corpus_mean(self.sentence_scores(sources, hypotheses))
