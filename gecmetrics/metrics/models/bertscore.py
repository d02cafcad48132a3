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
one; with transformers 5 there is one tokenizer.

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
from typing import Sequence

import numpy as np

from ...errors import InputError
from ...core.models.bertscore import BASELINES, PRFScorer, read_baseline_file
from ...core.models.causal_lm import set_threads
from ...core.models.loading import LoadedModel, default_layers, import_backend, load_model

COMPONENTS = ("P", "R", "F")


def idf_table(reference_ids: Sequence[Sequence[int]]) -> tuple[dict[int, float], float]:
    """bert_score's ``get_idf_dict``: (token id -> log((M + 1) / (c + 1)), log(M + 1) for ids
    in no reference) over the M token sequences given."""
    count = Counter(token for ids in reference_ids for token in set(ids))
    total = len(reference_ids)
    return {token: math.log((total + 1) / (c + 1)) for token, c in count.items()}, math.log((total + 1) / 1)


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
    if not isinstance(baseline, str) or not baseline.strip():
        raise InputError(f"baseline must be none, auto or a baseline file, got {baseline!r}")
    if baseline == "none":
        return None
    if baseline in BASELINES and not os.path.exists(baseline):
        model, baseline = baseline, "auto"
    if baseline == "auto":
        if lang == "en" and model in BASELINES:
            rows = BASELINES[model]
            if not 0 <= layer < len(rows):
                raise InputError(f"no {model} baseline for layer {layer} (layers 0 to {len(rows) - 1})")
            return np.array([float(value) for value in rows[layer]], dtype=np.float32)
        found = package_baseline_file(lang, model)
        if found is None:
            raise InputError(f"no rescaling baseline known for model {model!r} and language {lang!r}: give a "
                             "bert_score baseline file (LAYER,P,R,F rows) or baseline=none")
        return read_baseline_file(found, layer)
    return read_baseline_file(baseline, layer)


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
    (``threads``: torch threads, 0 for torch's default).

    ``prepare(references)`` tokenizes the references (and, with idf, computes the weights from
    them, as bert_score does from the references it is given); ``score(hypotheses)`` then scores
    any number of systems against them: each distinct sequence is encoded once and each distinct
    (hypothesis, reference) pair scored once, across systems."""

    def __init__(self, model: str | LoadedModel = "bert-base-uncased", num_layers: int | None = None,
                 idf: bool = False, baseline: str = "none", lang: str = "en", device: str | None = None,
                 batch_size: int = 64, threads: int = 1) -> None:
        if not isinstance(idf, bool):
            raise InputError(f"idf must be true or false, got {idf!r}")
        if not isinstance(lang, str) or not lang.strip():
            raise InputError(f"lang must be a language code such as en, got {lang!r}")
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size < 1:
            raise InputError(f"batch_size must be an integer >= 1, got {batch_size!r}")
        if num_layers is not None and (not isinstance(num_layers, int) or isinstance(num_layers, bool)
                                       or num_layers < 0):
            raise InputError(f"num_layers must be an integer >= 0, got {num_layers!r}")
        torch, _ = import_backend()
        set_threads(torch, threads)
        if isinstance(model, LoadedModel):
            if num_layers is not None and num_layers != model.num_layers:
                raise InputError(f"the loaded model is cut after layer {model.num_layers}, not {num_layers}")
            self.loaded = model
            self.baseline = baseline_row(baseline, model.name, model.num_layers, lang)
        else:
            layer = default_layers(model) if num_layers is None else num_layers
            self.baseline = baseline_row(baseline, model, layer, lang)  # checked before loading the model
            self.loaded = load_model(model, layer, device)
        self.idf = idf
        self.batch_size = batch_size
        self.scorer: PRFScorer | None = None
        self.references: list[list[int]] = []

    def prepare(self, references: Sequence[Sequence[str]]) -> None:
        """Take the reference sets (each a list of texts, one per sentence)."""
        if not references:
            raise InputError("BERTScore needs at least one reference set")
        length = len(references[0])
        for number, reference in enumerate(references, 1):
            if len(reference) != length:
                raise InputError(f"reference set {number} has {len(reference)} sentences, the first has {length}")
            for index, text in enumerate(reference):
                if not isinstance(text, str):
                    raise InputError(f"reference set {number}: line {index + 1} is not a string")
        table, default = (None, 0.0)
        if self.idf:
            table, default = idf_table(self.loaded.encode([text for reference in references for text in reference]))
        self.scorer = PRFScorer(self.loaded, None, batch_size=self.batch_size, idf=table, idf_default=default)
        self.references = [self.scorer.sequences(list(reference), pin=True) for reference in references]

    def score(self, hypotheses: Sequence[str]) -> BertScoreResult:
        """Sentence P, R, F of one system against the prepared references."""
        if self.scorer is None:
            raise InputError("BertScorer.score: prepare(references) first")
        if len(hypotheses) != len(self.references[0]):
            raise InputError(f"{len(hypotheses)} hypotheses for {len(self.references[0])} reference sentences")
        for index, text in enumerate(hypotheses):
            if not isinstance(text, str):
                raise InputError(f"hypothesis: line {index + 1} is not a string ({type(text).__name__})")
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
