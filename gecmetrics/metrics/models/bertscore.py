"""BERTScore (Zhang et al., ICLR 2020) of hypotheses against references, as the ``bert-score``
package (0.3.13, github Tiiiger/bert_score) computes it, with every distinct token sequence
encoded once and every distinct (hypothesis, reference) pair scored once.

For a hypothesis ``h`` and a reference ``r`` (texts stripped, tokenized with the special tokens,
embeddings of layer ``num_layers`` normalized): each token of ``h`` is matched to its most
similar token of ``r`` ([CLS] and [SEP] included as matches) and P is the weighted mean of these
similarities over ``h``'s tokens; R the same from ``r``'s side; F = 2PR / (P + R), 0 when that is
NaN. Token weights are 1 without idf ([CLS] and [SEP] 0); with idf, ``log((M + 1) / (c + 1))``
where M is the number of reference sentences (all reference sets flattened, duplicates counted)
and c the number of them holding the token (ids in none: ``log(M + 1)``; [CLS] and [SEP] are in
every one, so 0), computed from the references of the corpus scored, as ``bert_score.score``
does. An empty side ([CLS] [SEP] only) makes P and R 0 (F 0).

Several references: P, R and F are each the maximum over the references (each may come from a
different reference), then rescaled: ``(x - b) / (1 - b)`` with the baseline ``b`` = (P, R, F)
of the layer. The corpus score is the mean of the sentence scores.

Baselines follow bert_score's convention: a file ``rescale_baseline/LANG/MODEL.tsv`` of
``LAYER,P,R,F`` rows, the row of the layer's position. ``baseline="auto"`` takes the table built
into gecmetrics for English ``bert-base-uncased`` (``gecmetrics.core.models.bertscore.BASELINES``), else
the file of an installed bert_score package (found, not imported); a path names a file;
``none`` does not rescale (bert_score's default).

Differences from the package that change no number at 4 decimals: sentences are encoded in
batches of one length without padding (bert_score pads batches of 64 sentences sorted by word
count), pairs scored in batches of one shape. One that could: bert_score zeroes the
similarities with padding positions before taking the maximum, so a token whose similarities
with every real token of the other side are negative gets 0 there when that side was padded
in its batch of 64 pairs (contextual embeddings are not that far apart in practice; the tests
check the tiny model on CoNLL-2014). The command line ``bert-score`` uses the fast tokenizer
by default (its ``--use_fast_tokenizer`` flag turns it OFF) and the Python ``score`` the slow
one; BERT's WordPiece is read here with the slow one (transformers' Python ``BertTokenizer``,
:func:`gecmetrics.core.models.loading.as_bert_score_loads_it`), which drops the characters
Python's Unicode tables class as unassigned where the Rust one gives ``[UNK]``.

gec-metrics (gotutiyan/gec-metrics ``BertScore``) wraps ``bert_score.BERTScorer`` and gives
the same sentence values (checked on CoNLL-2014 with the tiny BERT); it departs from the
package's ``score`` in its defaults (rescaled, English, the slow tokenizer, F) and in idf: a
``BERTScorer`` takes its idf weights from the ``idf_sents`` it was built with, not from the
references scored (so gec-metrics' ``idf=True`` needs its ``idf_sents`` setting, else the
scorer's assertion fails); here, as in
``bert_score.score`` and the command, idf comes from the references.
"""
from __future__ import annotations

import importlib.util
import math
import os
from collections import Counter
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from ...core.checks import check_count
from ...errors import InputError, plural
from ...core.models.bertscore import BASELINES, PairScorer, PRFScorer, baseline_file_label, read_baseline_file
from ...core.models.identity import LoadedOnUse, OnUse, request_key, strings
from ...core.models.runtime import check_installed, import_torch_transformers, set_threads
from ...core.models.loading import LoadedModel, config_digest, default_layers, load_model

COMPONENTS = ("P", "R", "F")


def idf_table(reference_ids: Sequence[Sequence[int]]) -> tuple[dict[int, float], float]:
    """bert_score's ``get_idf_dict``: (token id -> log((M + 1) / (c + 1)), log(M + 1) for ids
    in no reference) over the M token sequences given."""
    count = Counter(token for ids in reference_ids for token in set(ids))
    total = len(reference_ids)
    return {token: math.log((total + 1) / (c + 1)) for token, c in count.items()}, math.log((total + 1) / 1)


BUILT_IN_BASELINES = {("en", model): rows for model, rows in BASELINES.items()}
"""The built-in tables by (bert_score's baseline language, model): bert_score's English ones."""


def package_baseline_file(lang: str, model: str) -> str | None:
    """The baseline file an installed bert_score package has for (lang, model), or None."""
    try:
        spec = importlib.util.find_spec("bert_score")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        path = os.path.join(folder, "rescale_baseline", lang, f"{model}.tsv")
        if os.path.isfile(path):
            return path
    return None


def baseline_row(baseline: str, model: str, layer: int, lang: str = "en") -> np.ndarray | None:
    """The float32 (P, R, F) baseline of ``layer``: ``none`` -> None; ``auto`` -> the built-in
    English table of the model, else the installed bert_score's file; a model name with a
    built-in table (``bert-base-uncased``) -> that table (a stand-in model keeps the
    original's baseline); else a file path."""
    return resolve_baseline(baseline, model, layer, lang)[0]


def resolve_baseline(baseline: str, model: str, layer: int, lang: str = "en") -> tuple[np.ndarray | None, str]:
    """:func:`baseline_row` and how a signature names it: ``none``, the model whose built-in
    table is used, or ``file:`` and the SHA-256 (12 hex digits) of the file read."""
    if not isinstance(baseline, str) or not baseline.strip():
        raise InputError(f"baseline must be none, auto or a baseline file, got {baseline!r}")
    if baseline == "none":
        return None, "none"
    if baseline in BASELINES and not os.path.exists(baseline):
        model, baseline = baseline, "auto"
    if baseline == "auto":
        rows = BUILT_IN_BASELINES.get((lang, model))
        if rows is not None:
            if not 0 <= layer < len(rows):
                raise InputError(f"no {model} baseline for layer {layer} (layers 0 to {len(rows) - 1})")
            return np.array([float(value) for value in rows[layer]], dtype=np.float32), model
        found = package_baseline_file(lang, model)
        if found is None:
            raise InputError(f"no rescaling baseline known for model {model!r} and language {lang!r}: give a "
                             "bert_score baseline file (LAYER,P,R,F rows) or baseline=none "
                             "(command line: --baseline none)")
        baseline = found
    return read_baseline_file(baseline, layer), baseline_file_label(baseline)


def check_reference_texts(references: Sequence[Sequence[str]], empty: str) -> list[list[str]]:
    """The reference sets, checked as the metrics check them
    (:func:`~gecmetrics.core.lines.check_reference_sets`: a list of lists of lines; a flat list of
    strings is one set given without its outer list), at least one (else ``empty``), all of one
    length."""
    from ...core.lines import check_reference_sets

    references = check_reference_sets(references)
    if not references:
        raise InputError(empty)
    size = len(references[0])
    for number, reference in enumerate(references, 1):
        if len(reference) != size:
            raise InputError(f"reference set {number} has {plural(len(reference), 'sentence')}, "
                             f"the first has {size}")
    return references


@dataclass
class BertScoreResult:
    """Sentence scores (sentences, 3: P, R, F; float32, rescaled if a baseline was given) and
    the corpus scores (their means)."""

    sentences: np.ndarray

    @property
    def corpus(self) -> dict[str, float]:
        return {name: float(np.mean(self.sentences[:, index], dtype=np.float64))
                for index, name in enumerate(COMPONENTS)}


class BertScorer:
    """BERTScore of hypotheses against one or more reference sets with one loaded model
    (``threads``: torch threads, 0 for torch's default; ``dtype``: float32, float16 or
    bfloat16 weights).

    ``prepare(references)`` tokenizes the references (and, with idf, computes the weights from
    them, as bert_score does from the references it is given); ``score(hypotheses)`` then scores
    any number of systems against them: each distinct sequence is encoded once and each distinct
    (hypothesis, reference) pair scored once, across systems."""

    def __init__(self, model: str | LoadedModel = "bert-base-uncased", num_layers: int | None = None,
                 idf: bool = False, baseline: str = "none", lang: str = "en", device: str | None = None,
                 batch_size: int = 64, threads: int = 1, dtype: str = "float32") -> None:
        if not isinstance(idf, bool):
            raise InputError(f"idf must be true or false, got {idf!r}")
        if not isinstance(lang, str) or not lang.strip():
            raise InputError(f"lang must be a language code such as en, got {lang!r}")
        batch_size = check_count(batch_size, "batch_size")
        num_layers = None if num_layers is None else check_count(num_layers, "num_layers", 0)
        torch, _ = import_torch_transformers()
        set_threads(torch, threads)
        if isinstance(model, LoadedModel):
            if num_layers is not None and num_layers != model.num_layers:
                raise InputError(f"the loaded model is cut after layer {model.num_layers}, not {num_layers}")
            self.loaded = model
            self.baseline = baseline_row(baseline, model.name, model.num_layers, lang)
        else:
            layer = default_layers(model) if num_layers is None else num_layers
            self.baseline = baseline_row(baseline, model, layer, lang)  # checked before loading the model
            self.loaded = load_encoder(model, layer, device, dtype)
        self.idf = idf
        self.batch_size = batch_size
        self.scorer: PRFScorer | None = None
        self.references: list[list[int]] = []

    def prepare(self, references: Sequence[Sequence[str]]) -> None:
        """Take the reference sets (each a list of texts, one per sentence)."""
        references = check_reference_texts(references, "BERTScore needs at least one reference set")
        table, default = (None, 0.0)
        if self.idf:
            table, default = idf_table(self.loaded.encode([text for reference in references for text in reference]))
        self.scorer = PRFScorer(self.loaded, None, batch_size=self.batch_size, idf=table, idf_default=default)
        self.references = [self.scorer.sequences(list(reference), pin=True) for reference in references]

    def score(self, hypotheses: Sequence[str]) -> BertScoreResult:
        """Sentence P, R, F of one system against the prepared references."""
        if self.scorer is None:
            raise InputError("BertScorer.score: prepare(references) first")
        from ...core.models.inference import check_texts

        hypotheses = check_texts("hypotheses", hypotheses)  # (a string is no sequence of sentences)
        if len(hypotheses) != len(self.references[0]):
            raise InputError(f"{plural(len(hypotheses), 'hypothesis', 'hypotheses')} for "
                             f"{plural(len(self.references[0]), 'reference sentence')}")
        candidates = self.scorer.sequences(list(hypotheses))
        # every (hypothesis, reference) pair in one call: a hypothesis is encoded once for all
        # the reference sets (the scorer drops a hypothesis's embeddings once its pairs are done)
        raw = self.scorer.prf_scores(candidates * len(self.references),
                                     [number for reference in self.references for number in reference])
        raw = raw.reshape(len(self.references), len(candidates), 3)
        best = raw[0]
        for other in raw[1:]:
            best = np.maximum(best, other)  # NaN propagates, as torch.max
        if self.baseline is not None:
            best = (best - self.baseline) / (np.float32(1.0) - self.baseline)
        return BertScoreResult(best.astype(np.float32))


def bertscore(hypotheses: Sequence[str], references: Sequence[Sequence[str]], **options) -> BertScoreResult:
    """BERTScore of one system (``references``: reference sets, each one text per sentence);
    ``options`` as :class:`BertScorer`'s."""
    scorer = BertScorer(**options)
    scorer.prepare(references)
    return scorer.score(hypotheses)


# ----------------------------------------------------------------------------- the registered metric's material
#
# The metric ``bertscore`` (gecmetrics.metrics.models.metric.BERTScore) scores a corpus read in
# chunks. With idf, a token's weight depends on every reference of the corpus (bert_score takes
# it from the references it is given), so a chunk cannot finish its sentences' P, R and F: it
# keeps, per (sentence, reference) pair, the best similarity of each token of either side
# (which depends on the model only) and the document frequencies of its references; joined
# chunks add their frequencies up, and P, R and F are computed from the whole corpus's, so the
# numbers never depend on the chunking. The same material, without idf, gives bert_score's P,
# R and F too, so both modes take one path, and what the persistent cache keeps per pair (the
# token similarities) does not depend on idf or the baseline.

MATCHES_NAMESPACE = "models/bertscore-matches/1"
"""Cached token similarities of (candidate, reference) pairs: per pair, the float32 best
similarity of each candidate token, then of each reference token, keyed by the model's identity
(weights fingerprint, dtype, computing path, layer) and both sides' token ids."""


class TokenMatches(PairScorer):
    """For (candidate, reference) pairs of token sequences: the highest cosine similarity of
    each candidate token to the reference's tokens, and of each reference token to the
    candidate's ([CLS] and [SEP] included on both sides, as bert_score matches them), float32.
    Encoding and memory as :class:`~gecmetrics.core.models.bertscore.PairScorer`'s (each
    distinct sequence encoded once, batches of one length without padding)."""

    def _pair_values(self, pairs: list[tuple[int, int]], torch: Any) -> list:
        """(candidate token similarities, reference token similarities) of pairs of one shape."""
        candidates = torch.stack([self.embeddings[c][0] for c, _ in pairs])
        references = torch.stack([self.embeddings[r][0] for _, r in pairs])
        similarity = torch.bmm(candidates, references.transpose(1, 2))
        best_candidate = similarity.max(dim=2)[0].float().cpu().numpy()
        best_reference = similarity.max(dim=1)[0].float().cpu().numpy()
        return [(best_candidate[k].copy(), best_reference[k].copy()) for k in range(len(pairs))]


@dataclass
class BertScoreMatches:
    """One system's token material over ``size`` sentences and ``references`` reference sets.

    Each side (``hyp_*``: the hypothesis's tokens, ``ref_*``: the reference's) is three flat
    arrays, one entry per token of each (sentence d, reference k) pair: ``index`` = d * K + k
    (int64), ``token`` (the token id, int64) and ``similarity`` (its best match on the other
    side, float32). ``df_tokens``/``df_counts``: how many reference sentences hold each token
    (a token may be listed more than once: counts add up), over ``documents`` reference
    sentences (all sets flattened, as bert_score's idf). ``cls_id``/``sep_id``: the tokens whose
    weight is always 0."""

    size: int
    references: int
    hyp_index: np.ndarray
    hyp_token: np.ndarray
    hyp_similarity: np.ndarray
    ref_index: np.ndarray
    ref_token: np.ndarray
    ref_similarity: np.ndarray
    df_tokens: np.ndarray
    df_counts: np.ndarray
    documents: int
    cls_id: int
    sep_id: int

    @classmethod
    def joined(cls, parts: Sequence["BertScoreMatches"]) -> "BertScoreMatches":
        """Consecutive chunks of sentences as one (their document frequencies added up)."""
        if not parts:
            raise InputError("BERTScore: no statistics to join")
        first = parts[0]
        for part in parts[1:]:
            if part.references != first.references or (part.cls_id, part.sep_id) != (first.cls_id, first.sep_id):
                raise InputError("BERTScore: chunks scored with other references or another model cannot be joined")
        if len(parts) == 1:
            return first
        offsets = np.cumsum([0] + [part.size * part.references for part in parts[:-1]])

        def shifted(name: str) -> np.ndarray:
            return np.concatenate([getattr(part, name) + offset for part, offset in zip(parts, offsets)])

        def stacked(name: str) -> np.ndarray:
            return np.concatenate([getattr(part, name) for part in parts])

        return cls(sum(part.size for part in parts), first.references, shifted("hyp_index"), stacked("hyp_token"),
                   stacked("hyp_similarity"), shifted("ref_index"), stacked("ref_token"), stacked("ref_similarity"),
                   stacked("df_tokens"), stacked("df_counts"), sum(part.documents for part in parts),
                   first.cls_id, first.sep_id)

    def token_weights(self, idf: bool) -> np.ndarray:
        """Weight per token id (float64): bert_score's idf ``log((M + 1) / (c + 1))`` from the
        document frequencies, or 1 without idf; [CLS] and [SEP] 0 either way."""
        vocabulary = 1 + max([self.cls_id, self.sep_id]
                             + [int(array.max()) for array in (self.hyp_token, self.ref_token, self.df_tokens)
                                if len(array)])
        if idf:
            counts = np.bincount(self.df_tokens, weights=self.df_counts.astype(np.float64), minlength=vocabulary)
            weights = np.log((self.documents + 1) / (counts + 1))
        else:
            weights = np.ones(vocabulary, dtype=np.float64)
        weights[[self.cls_id, self.sep_id]] = 0.0
        return weights

    def pair_prf(self, idf: bool) -> np.ndarray:
        """Raw P, R, F of every (sentence, reference) pair, shape (size, references, 3),
        float64: weighted means of the token similarities; F = 2PR / (P + R), 0 where NaN; an
        empty side ([CLS] [SEP] only) makes P and R 0, as bert_score's ``greedy_cos_idf``; a
        side whose weights sum to 0 leaves P or R NaN, as there."""
        pairs = self.size * self.references
        weights = self.token_weights(idf)

        def side(index: np.ndarray, token: np.ndarray, similarity: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            weight = weights[token]
            total = np.bincount(index, weights=weight * similarity.astype(np.float64), minlength=pairs)
            mass = np.bincount(index, weights=weight, minlength=pairs)
            with np.errstate(divide="ignore", invalid="ignore"):
                return total / mass, np.bincount(index, minlength=pairs)

        precision, hyp_length = side(self.hyp_index, self.hyp_token, self.hyp_similarity)
        recall, ref_length = side(self.ref_index, self.ref_token, self.ref_similarity)
        with np.errstate(divide="ignore", invalid="ignore"):
            f = 2 * precision * recall / (precision + recall)
        f[np.isnan(f)] = 0.0
        empty = (hyp_length == 2) | (ref_length == 2)
        precision[empty] = 0.0
        recall[empty] = 0.0
        return np.stack([precision, recall, f], axis=-1).reshape(self.size, self.references, 3)


def sentence_prf(matches: BertScoreMatches, idf: bool, baseline: np.ndarray | None) -> np.ndarray:
    """Sentence P, R, F (size, 3), float64: each the maximum over the references (NaN
    propagates, as torch.max), then rescaled ``(x - b) / (1 - b)`` with ``baseline`` when given."""
    best = matches.pair_prf(idf).max(axis=1)
    if baseline is not None:
        b = np.asarray(baseline, dtype=np.float64)
        best = (best - b) / (1.0 - b)
    return best


class BertScoreStatistics:
    """The statistics of the metric ``bertscore`` for one system: its token material
    (:class:`BertScoreMatches`) with the metric's idf and baseline. As an array (``np.asarray``)
    it is the per-sentence rows (P, R, F, 1), computed from the document frequencies it holds
    (the whole corpus's once chunks are joined), whose sums over sentences give the corpus
    means."""

    def __init__(self, matches: BertScoreMatches, idf: bool, baseline: np.ndarray | None,
                 reference_names: Sequence[str] = ()) -> None:
        self.matches, self.idf, self.baseline = matches, idf, baseline
        self.reference_names = tuple(reference_names)
        """The reference sets' names, for a refusal that names a reference's line (() unknown)."""
        self._rows: np.ndarray | None = None

    def __len__(self) -> int:
        return self.matches.size

    def rows(self) -> np.ndarray:
        """(size, 4) float64: P, R, F, 1 per sentence (computed once)."""
        if self._rows is None:
            prf = sentence_prf(self.matches, self.idf, self.baseline)
            self._rows = np.column_stack([prf, np.ones(len(prf))])
        return self._rows

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        rows = self.rows()
        return rows.astype(dtype) if dtype is not None else rows.copy() if copy else rows

    def __getstate__(self) -> dict[str, Any]:  # the rows are remade where needed, not sent
        return {**self.__dict__, "_rows": None}

    @classmethod
    def joined(cls, parts: Sequence["BertScoreStatistics"]) -> "BertScoreStatistics":
        """Consecutive chunks' statistics as one (their token material joined)."""
        first = parts[0]
        return cls(BertScoreMatches.joined([part.matches for part in parts]), first.idf, first.baseline,
                   first.reference_names)


def document_frequencies(reference_ids: Sequence[Sequence[int]]) -> tuple[np.ndarray, np.ndarray]:
    """(token ids, how many of the sequences hold each): bert_score's ``get_idf_dict`` counts."""
    count = Counter(token for ids in reference_ids for token in set(ids))
    tokens = np.fromiter(count.keys(), dtype=np.int64, count=len(count))
    return tokens, np.fromiter(count.values(), dtype=np.int64, count=len(count))


def load_encoder(model: str, num_layers: int | None = None, device: str | None = None,
                 dtype: str = "float32") -> LoadedModel:
    """The encoder of :func:`~gecmetrics.core.models.loading.load_model` with its weights made
    ``dtype``."""
    from ...core.models.runtime import check_dtype

    check_dtype(dtype)
    loaded = load_model(model, num_layers, device)
    if dtype != "float32":
        loaded.model = loaded.model.to(device=loaded.device, dtype=getattr(import_torch_transformers()[0], dtype))
    return loaded


IDENTITIES = "models/bertscore-identity/1"
"""The persistent cache's namespace of the records :meth:`BertScoreModel.record` stores
(:mod:`gecmetrics.core.models.identity`)."""


def _is_record(record: dict) -> bool:
    """Whether a stored record is one of :meth:`BertScoreModel.record`'s."""
    return (set(record) == {"fingerprint", "config", "direct", "cls", "sep", "tokens", "max_length"}
            and strings(record, "fingerprint", "config") and isinstance(record["direct"], bool)
            and all(isinstance(record[name], int) and not isinstance(record[name], bool)
                    for name in ("cls", "sep", "max_length"))
            and (record["tokens"] is None or isinstance(record["tokens"], str)))


class BertScoreEncoder(OnUse):
    """The encoder of a :class:`BertScoreModel` (``owner``: its model, layer, device, dtype,
    cache and threads), loaded on first use; its record (weights fingerprint, config digest,
    computing path, special token ids, token-id namespace) is read back from the owner's cache
    where a load stored it, under what decides it (:func:`~gecmetrics.core.models.identity.request_key`)."""

    identities = IDENTITIES
    valid = staticmethod(_is_record)

    def __init__(self, owner: "BertScoreModel") -> None:
        settings = [f"layer-{owner.num_layers}", "cpu", f"dtype-{owner.dtype}"]
        super().__init__(owner.model, lambda: request_key(owner.source, owner.device, settings), owner)

    def _load_now(self) -> LoadedModel:
        owner = self.owner
        return load_encoder(owner.model, owner.num_layers, owner.device, owner.dtype)

    def _record_of(self, loaded: LoadedModel) -> dict:
        from ...core.models.bertscore import token_namespace
        from ...core.models.causal_lm import weights_fingerprint_of
        from ...core.models.encoder import DirectBert

        source = self.owner.source
        direct = isinstance(loaded.model, DirectBert)
        return {"fingerprint": weights_fingerprint_of(*import_torch_transformers(), loaded.model, source, direct),
                "config": config_digest(source), "direct": direct, "cls": loaded.cls_id, "sep": loaded.sep_id,
                "tokens": token_namespace(loaded), "max_length": loaded.max_length}


class BertScoreModel:
    """An encoder (cut after its BERTScore layer) and the token similarities of the pairs it was
    asked for, each distinct pair computed once and, with ``cache`` (a persistent
    :class:`~gecmetrics.core.cache.Cache`), read from or stored there. What the metric keeps once
    per process; ``forget()`` drops the pairs and embeddings of a chunk.

    The model is loaded on first use (:attr:`loaded`, :class:`BertScoreEncoder`). What the cache
    keys and the signature need of it (:meth:`record`) is stored in the cache by the run that
    loads it and read back by the next: a run whose token ids and pair similarities are all
    stored (a warm run) never imports torch."""

    def __init__(self, model: str = "bert-base-uncased", num_layers: int | None = None, device: str | None = None,
                 dtype: str = "float32", batch_size: int = 64, threads: int = 0) -> None:
        from ...core.models.runtime import check_dtype
        from ...core.models.loading import model_source

        check_installed()  # the models extra's message, before anything else
        batch_size = check_count(batch_size, "batch_size")
        self.model = model
        self.dtype = check_dtype(dtype)
        self.device = device
        self.threads = threads
        """torch threads set when the model is used (0: left as they are); the metric sets them per chunk."""
        self.source = model_source(model)
        self.num_layers = default_layers(model) if num_layers is None else num_layers
        self.batch_size = batch_size
        self.cache = None
        self.computed = 0
        """Sequences encoded so far (pairs read from the cache need none)."""
        self._encoder = BertScoreEncoder(self)
        self.forget()

    @property
    def name(self) -> str:
        """The model as it was given (a hub name or a folder)."""
        return self.model

    @property
    def is_loaded(self) -> bool:
        return self._encoder.is_loaded

    @property
    def loaded(self) -> LoadedModel:
        """The tokenizer and encoder, loaded on first use (on :attr:`threads` torch threads); a
        record read back from the cache is checked against it."""
        return self._encoder.load()

    def record(self) -> dict:
        """What identifies the model: ``fingerprint`` (its weights' SHA-256, "" unknown), ``config``
        (its config.json's digest), ``direct`` (computed straight from its weights), ``cls`` and
        ``sep`` (its special token ids), ``tokens`` (the namespace of its token ids in the
        persistent cache; None: not stored) and ``max_length`` (the tokens a text is cut to). Read
        back from :attr:`cache` where a load stored it (the model is then not loaded), else found
        by loading the model (and stored for the next run)."""
        return self._encoder.record()

    @property
    def fingerprint(self) -> str:
        """The weights' SHA-256 fingerprint ("" unknown: nothing is cached)."""
        return self.record()["fingerprint"]

    def forget(self) -> None:
        """Drop the token ids, embeddings and pair similarities kept so far (the persistent
        cache keeps its own): a model kept for a whole corpus read in chunks stays small."""
        self._pairs: TokenMatches | None = None

    @property
    def pairs(self) -> TokenMatches:
        """The chunk's token ids, embeddings and pair similarities (made on first use, on the
        model loaded when it first has a text to tokenize or a pair to score)."""
        if self._pairs is None:
            record = self.record()
            model = self.loaded if self.is_loaded else LoadedOnUse(lambda: self.loaded)
            self._pairs = TokenMatches(model, None, batch_size=self.batch_size, id_namespace=record["tokens"],
                                       max_length=record["max_length"])
        return self._pairs

    @property
    def max_length(self) -> int:
        """The most tokens of a text the model reads (bert_score's: the tokenizer's
        ``model_max_length``); longer texts are cut to it."""
        return self.record()["max_length"]

    def cut_count(self, texts: Sequence[str]) -> int:
        """How many of ``texts`` (of the last :meth:`systems_matches`) were cut to :attr:`max_length`."""
        return self.pairs.cut_count(texts)

    def identity(self) -> tuple[str, ...]:
        """What besides the token ids decides a pair's similarities, for cache keys: the full
        weights fingerprint, the config's digest, the dtype, the computing path and the layer (the device is left
        out: it changes only float rounding)."""
        record = self.record()
        return (record["fingerprint"], f"config:{record['config']}", self.dtype,
                "direct" if record["direct"] else "transformers", f"layer-{self.num_layers}")

    def _similarities(self, pairs: list[tuple[int, int]]) -> dict[tuple[int, int], tuple[np.ndarray, np.ndarray]]:
        """The token similarities of distinct pairs of sequence numbers (cache, then model)."""
        from ...core.cache import cache_key

        scorer = self.pairs
        scorer.batch_size = self.batch_size
        found: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}
        use_cache = self.cache is not None and self.cache.enabled and bool(self.fingerprint)
        keys: dict[tuple[int, int], bytes] = {}
        if use_cache and pairs:
            identity = self.identity()
            for pair in pairs:
                keys[pair] = cache_key(*identity, np.asarray(scorer.token_ids[pair[0]], dtype="<i4").tobytes(),
                                       np.asarray(scorer.token_ids[pair[1]], dtype="<i4").tobytes())
            stored = self.cache.get_many(MATCHES_NAMESPACE, list(dict.fromkeys(keys.values())))
            for pair in pairs:
                value = stored.get(keys[pair])
                lengths = (len(scorer.token_ids[pair[0]]), len(scorer.token_ids[pair[1]]))
                if value is not None and len(value) == 4 * sum(lengths):
                    array = np.frombuffer(value, dtype="<f4").astype(np.float32)
                    found[pair] = (array[:lengths[0]], array[lengths[0]:])
        missing = [pair for pair in pairs if pair not in found]
        if missing:
            before = scorer.encoded_count
            values = scorer.f_scores([c for c, _ in missing], [r for _, r in missing])
            self.computed += scorer.encoded_count - before
            found.update(zip(missing, values))
            if use_cache:
                self.cache.put_many(MATCHES_NAMESPACE, {
                    keys[pair]: np.concatenate([found[pair][0], found[pair][1]]).astype("<f4").tobytes()
                    for pair in missing})
        return found

    def systems_matches(self, references: Sequence[Sequence[str]],
                        systems: Sequence[Sequence[str]]) -> list[BertScoreMatches]:
        """The token material of every system against the reference sets (each distinct
        sequence encoded once and each distinct pair scored once, for all systems)."""
        references = check_reference_texts(references, "BERTScore needs reference texts (at least one reference set)")
        size = len(references[0])
        for hypotheses in systems:
            if len(hypotheses) != size:
                raise InputError(f"{plural(len(hypotheses), 'hypothesis', 'hypotheses')} for "
                                 f"{plural(size, 'reference sentence')}")
        scorer = self.pairs
        scorer.token_cache = self.cache  # the token ids, as the similarities, through the run's cache
        reference_numbers = [scorer.sequences(list(reference), pin=True) for reference in references]
        system_numbers = [scorer.sequences(list(hypotheses)) for hypotheses in systems]
        pairs = list(dict.fromkeys((h, r[d]) for numbers in system_numbers for d, h in enumerate(numbers)
                                   for r in reference_numbers))
        similarities = self._similarities(pairs)
        df_tokens, df_counts = document_frequencies([scorer.token_ids[n] for numbers in reference_numbers
                                                     for n in numbers])
        count = len(references)
        token_arrays = [np.asarray(ids, dtype=np.int64) for ids in scorer.token_ids]
        record = self.record()
        results = []
        for numbers in system_numbers:
            ordered = [(h, reference[d]) for d, h in enumerate(numbers) for reference in reference_numbers]
            best = [similarities[pair] for pair in ordered]  # (sentence, reference) pairs in index order
            results.append(BertScoreMatches(
                size, count,
                *_side([h for h, _ in ordered], [b[0] for b in best], token_arrays),
                *_side([r for _, r in ordered], [b[1] for b in best], token_arrays),
                df_tokens, df_counts, size * count, record["cls"], record["sep"]))
        return results


def _side(numbers: list[int], similarities: list[np.ndarray],
          token_arrays: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One side's flat (index, token, similarity) arrays of pairs given in index order."""
    if not numbers:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
    lengths = np.fromiter((len(values) for values in similarities), dtype=np.int64, count=len(similarities))
    index = np.repeat(np.arange(len(numbers), dtype=np.int64), lengths)
    tokens = np.concatenate([token_arrays[number] for number in numbers])
    return index, tokens, np.concatenate(similarities).astype(np.float32)
