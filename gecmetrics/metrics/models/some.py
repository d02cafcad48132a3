"""SOME (Yoshimura et al., COLING 2020, "SOME: Reference-less Sub-Metrics Optimized for Manual
Evaluations of Grammatical Error Correction"), computed as the authors' code does (github
kokeman/SOME, ``some.py``, commit 83fd6f05).

Three BERT regressors rate a hypothesis on 1-4 scales: grammaticality and fluency from the
hypothesis alone (``[CLS] hyp [SEP]``), meaning preservation from the pair (``[CLS] src [SEP]
hyp [SEP]``, token types 0 then 1). Each rating x is min-max normalised, (x - 1) / 3, with no
clipping (a rating outside 1-4 gives a value outside 0-1), and the sentence score is

    SOME = w_g * (g - 1)/3 + w_f * (f - 1)/3 + w_m * (m - 1)/3,  (w_g, w_f, w_m) = (0.55, 0.43, 0.02)

-- the defaults of ``some.py``'s ``--weight-g/-f/-m`` (its README gives no numbers; gec-metrics'
README shows 0.55 for fluency and 0.43 for grammar, but its code, like the original, gives 0.55
to grammar: the code that produced the published numbers is followed). The corpus score
(``--system``) is the mean of the sentence scores. Inputs are ``bert-base-cased`` WordPiece
(``BertTokenizer.from_pretrained('bert-base-cased')``, whatever the model folders hold: the
Python tokenizer, which NFC-normalizes, not the Rust one, see
:func:`gecmetrics.core.models.loading.python_bert_tokenizer_class`), at most
128 tokens, a pair truncated longest first (:func:`gecmetrics.core.models.inference.truncate_pair`).

Departures from ``some.py`` that do not change a score beyond float32 rounding: each distinct
hypothesis is rated for grammar and fluency once and each distinct (source, hypothesis) pair for
meaning once, across all the systems given; batches are sorted by length and padded to their
longest input (``some.py`` pads every input to 128 tokens); any device (``some.py`` requires
CUDA); the combination is computed in float64 from the float32 ratings (as ``some.py`` does
with NumPy 1.x; under NumPy 2 it would be float32).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from ...core.cache import Cache
from ...core.checks import check_count
from ...core.models.runtime import check_installed
from ...core.table import number_label
from ...core.models.inference import (REGRESSION_NAMESPACE, Encoder, ModelOnUse, cached_values, check_cache,
                                      check_max_length, check_parallel, corpus_mean,
                                      input_keys, regression_forward, run_batches)
from ...errors import InputError

HEADS = ("grammar", "fluency", "meaning")
RATING_MIN, RATING_MAX = 1.0, 4.0
"""The range of the human ratings the regressors were trained on (TMU-GFM), normalised to 0-1."""


@dataclass(frozen=True)
class SomeWeights:
    """The weights of the normalised grammar, fluency and meaning ratings (some.py's defaults,
    tuned by the authors for Kendall's tau on Grundkiewicz et al. 2015)."""

    grammar: float = 0.55
    fluency: float = 0.43
    meaning: float = 0.02

    def __post_init__(self) -> None:
        check_weights((self.grammar, self.fluency, self.meaning))


def check_weights(weights: Sequence[Any], label: str = "SomeWeights", given: Any = None) -> tuple[float, ...]:
    """Three finite numbers, grammar/fluency/meaning, 0 or more and not all 0 (all 0: every
    sentence would score 0); the metric's ``weights`` setting is checked here too (``label``: how
    the message names it, ``given``: the value as given, when it was text)."""
    shown = tuple(weights) if given is None else given
    if len(weights) != 3 or not all(not isinstance(value, bool) and isinstance(value, (int, float, np.floating))
                                    and np.isfinite(value) for value in weights):
        raise InputError(f"{label} needs three finite numbers, grammar/fluency/meaning (e.g. 0.55/0.43/0.02), "
                         f"got {shown!r}")
    if min(weights) < 0 or max(weights) == 0:
        raise InputError(f"{label} must be weights of 0 or more, not all 0, got {shown!r}")
    return tuple(float(value) for value in weights)


def normalize(ratings: np.ndarray) -> np.ndarray:
    """some.py's ``min_max_normalize``: (x - 1) / (4 - 1), in float64, not clipped."""
    return (np.asarray(ratings, dtype=np.float64) - RATING_MIN) / (RATING_MAX - RATING_MIN)


def combine(grammar: np.ndarray, fluency: np.ndarray, meaning: np.ndarray, weights: SomeWeights) -> np.ndarray:
    """The sentence scores from the three heads' raw ratings."""
    return (weights.grammar * normalize(grammar) + weights.fluency * normalize(fluency)
            + weights.meaning * normalize(meaning))


class SOMEScorer:
    """SOME with three regressors loaded once; ratings are remembered per distinct hypothesis
    (grammar, fluency) and per distinct (source, hypothesis) pair (meaning), so scoring several
    systems, or the same one again, computes each of them once.

    ``grammar_model``, ``fluency_model``, ``meaning_model``: hub names or folders of one-output
    ``BertForSequenceClassification`` models (the authors' ``gfm-models/grammer``, ``fluency``,
    ``meaning``); ``tokenizer``: the tokenizer's name or folder (``bert-base-cased`` as in
    some.py); ``batch_size`` 64 as some.py's default; ``device`` cpu, cuda[:N] or mps (default:
    CUDA when available); ``dtype`` float32, float16 or bfloat16; ``cache``: a persistent
    :class:`~gecmetrics.core.cache.Cache` for the ratings and token ids (None: none), so that a
    rating computed by any earlier run with the same model and input is read instead of computed.
    The models and the tokenizer are loaded here, or with ``lazy`` on first use: what the cache
    keys and the signature need of them is then read back from the cache where an earlier load
    stored it (:class:`~gecmetrics.core.models.inference.ModelOnUse`), so that a run whose every
    rating is stored loads nothing. ``threads``: torch threads set whenever a model is used (0,
    the default: left as they are; the metric sets its own).
    """

    def __init__(self, grammar_model: str, fluency_model: str, meaning_model: str, *,
                 tokenizer: str = "bert-base-cased", weights: SomeWeights | None = None, max_length: int = 128,
                 batch_size: int = 64, device: str | None = None, dtype: str = "float32",
                 cache: Cache | None = None, lazy: bool = False) -> None:
        check_installed()
        self.weights = SomeWeights() if weights is None else weights
        if not isinstance(self.weights, SomeWeights):
            raise InputError(f"weights must be a SomeWeights, got {type(self.weights).__name__}")
        self.max_length = check_max_length(max_length)
        self.batch_size = check_count(batch_size, "batch_size")
        self.cache = check_cache(cache)
        self.threads = 0
        self.models: dict[str, ModelOnUse] = {
            head: ModelOnUse(name, "regressor", device, dtype, owner=self)
            for head, name in zip(HEADS, (grammar_model, fluency_model, meaning_model))}
        self.tokenizer_name = tokenizer
        self.encoder = Encoder(tokenizer, self.max_length, python_bert=True, pairs=True, owner=self)
        if not lazy:
            self.load()
        self._ratings: dict[str, dict[Any, float]] = {head: {} for head in HEADS}
        self.computed = 0
        """How many model inputs this scorer has run (inputs read from the cache not counted)."""

    def load(self) -> None:
        """Load the models and the tokenizer now (else on first use)."""
        for model in self.models.values():
            model.load()
        self.encoder.load()

    def forget(self) -> None:
        """Drop the ratings and WordPiece ids remembered so far (the persistent cache keeps its
        own): a scorer kept for a whole corpus read in chunks stays small."""
        self._ratings = {head: {} for head in HEADS}
        self.encoder.pieces.clear()

    @property
    def fingerprints(self) -> dict[str, str]:
        """Head -> weights fingerprint (SHA-256 over names, shapes and float32 values)."""
        return {head: loaded.fingerprint for head, loaded in self.models.items()}

    def signature_items(self) -> dict[str, str]:
        """What identifies the numbers, for a signature: each head's model and weights
        fingerprint (first 12 hex digits), the tokenizer and its files' digest (first 12 hex
        digits), the weights, the maximum length and the dtype (batch size and device change
        nothing beyond float rounding)."""
        from ...core.models.loading import tokenizer_files

        items = {}
        for head, loaded in self.models.items():
            items[f"{head}_model"] = loaded.name
            items[f"{head}_weights"] = loaded.fingerprint[:12]
        items.update(tokenizer=self.tokenizer_name, tokenizer_files=tokenizer_files(self.encoder.source),
                     max_length=str(self.max_length),
                     weights=",".join(map(number_label, (self.weights.grammar, self.weights.fluency, self.weights.meaning))),
                     dtype=str(self.models["grammar"].dtype).removeprefix("torch."))
        return items

    def _rate(self, head: str, keys: list[Any]) -> None:
        """Run ``head`` on the keys not rated yet (a hypothesis, or a (source, hypothesis) pair)."""
        memo = self._ratings[head]
        missing = [key for key in dict.fromkeys(keys) if key not in memo]
        if not missing:
            return
        build = self.encoder.pair if head == "meaning" else self.encoder.single
        inputs = {key: build(*key) if head == "meaning" else build(key) for key in missing}
        loaded = self.models[head]

        def compute(chosen: list[Any]) -> dict[Any, float]:
            outputs = run_batches({key: inputs[key] for key in chosen}, self.batch_size, regression_forward(loaded),
                                  loaded, self.encoder.pad_id)
            return {key: float(value) for key, value in outputs.items()}

        values, computed = cached_values(self.cache, REGRESSION_NAMESPACE,
                                         input_keys(loaded, {key: (inputs[key],) for key in missing}), compute)
        memo.update(values)
        self.computed += computed

    def ratings(self, sources: Sequence[str], hypotheses: Sequence[str]) -> dict[str, np.ndarray]:
        """The raw rating of each head per sentence (float32 values as float64 arrays)."""
        return self.systems_ratings(sources, [hypotheses])[0]

    def systems_ratings(self, sources: Sequence[str], systems: Sequence[Sequence[str]]) -> list[dict[str, np.ndarray]]:
        """:meth:`ratings` of several systems on the same sources, each distinct input rated once."""
        checked = [check_parallel(sources, hypotheses) for hypotheses in systems]
        all_hypotheses = [text for _, hypotheses in checked for text in hypotheses]
        pairs = [pair for source_list, hypotheses in checked for pair in zip(source_list, hypotheses)]
        self.encoder.prepare(list(dict.fromkeys([*(source for source, _ in pairs), *all_hypotheses])), self.cache)
        self._rate("grammar", all_hypotheses)
        self._rate("fluency", all_hypotheses)
        self._rate("meaning", pairs)
        results = []
        for source_list, hypotheses in checked:
            results.append({
                "grammar": np.array([self._ratings["grammar"][text] for text in hypotheses], dtype=np.float64),
                "fluency": np.array([self._ratings["fluency"][text] for text in hypotheses], dtype=np.float64),
                "meaning": np.array([self._ratings["meaning"][pair] for pair in zip(source_list, hypotheses)],
                                    dtype=np.float64)})
        return results

    def systems_truncated(self, sources: Sequence[str], systems: Sequence[Sequence[str]]) -> int:
        """How many (system, sentence) inputs were truncated to ``max_length`` tokens, as
        some.py truncates them: the hypothesis alone (grammar, fluency) or the (source,
        hypothesis) pair (meaning) too long (the ids of :meth:`systems_ratings`' texts)."""
        encoder = self.encoder
        return sum(encoder.cuts_single(hypothesis) or encoder.cuts_pair(source, hypothesis)
                   for hypotheses in systems for source, hypothesis in zip(sources, hypotheses))

    def sentence_scores(self, sources: Sequence[str], hypotheses: Sequence[str]) -> np.ndarray:
        """SOME of each sentence (float64)."""
        return self.systems_sentence_scores(sources, [hypotheses])[0]

    def systems_sentence_scores(self, sources: Sequence[str], systems: Sequence[Sequence[str]],
                                weights: SomeWeights | None = None) -> list[np.ndarray]:
        """:meth:`sentence_scores` of several systems on the same sources (``weights``: other
        than the scorer's, for this call)."""
        weights = self.weights if weights is None else weights
        return [combine(r["grammar"], r["fluency"], r["meaning"], weights)
                for r in self.systems_ratings(sources, systems)]

    def corpus_score(self, sources: Sequence[str], hypotheses: Sequence[str]) -> float:
        """some.py ``--system``: the mean of the sentence scores."""
        return corpus_mean(self.sentence_scores(sources, hypotheses))

