"""BERTScore F between pairs of sentences, as PT-M2 computes it, with every distinct token
sequence encoded once and every distinct (candidate, reference) pair scored once.

BERTScore (Zhang et al., 2020) as in bert_score 0.3.11, the version PT-M2 ships, with PT-M2's
settings (no idf, rescaled with the English baseline): embeddings of the model's layer
``num_layers``, normalized; each candidate token is matched to its most similar reference token
(the [CLS] and [SEP] tokens of the other side included) and P is the mean of those
similarities over the candidate's tokens other than [CLS] and [SEP]; R the same from the
reference's side; F = 2PR / (P + R), 0 when undefined, then rescaled: (F - b) / (1 - b).
Arithmetic is float32, as in bert_score.

Sentences are keyed by their token ids, not their text: two texts that tokenize alike (a case
change under an uncased model) get the same embeddings and the same scores, so the weight of
such an edit is exactly 0, as the authors' code finds it.

Nothing is padded: sentences are encoded in batches of one length, pairs scored in batches of
one shape. On one torch thread (the ``threads`` setting's default) a sentence's numbers are then
the same bits whatever it is batched with, so a score does not depend on the chunking of the
corpus, the worker processes or the other systems scored in the same run. (On several threads
torch splits a product by its size, which may change the last bits.)
"""
from __future__ import annotations

import csv
import hashlib
import os
from typing import Any, Callable, Hashable, Iterable, Mapping, Sequence

import numpy as np

from ...errors import InputError
from ..checks import plain_number
from .loading import LoadedModel, import_backend

BASELINES = {
    "bert-base-uncased": [
        ("0.3231512", "0.32322776", "0.31853873"), ("0.32517454", "0.32522815", "0.32197207"),
        ("0.3708038", "0.37080705", "0.36834884"), ("0.36287847", "0.36286885", "0.36059204"),
        ("0.3786389", "0.37860426", "0.3767926"), ("0.4018232", "0.401791", "0.40032896"),
        ("0.38439456", "0.38434005", "0.38282546"), ("0.37114623", "0.3710986", "0.36949417"),
        ("0.37231025", "0.37226102", "0.37049443"), ("0.35375935", "0.3537393", "0.35219112"),
        ("0.38161838", "0.3816211", "0.37991408"), ("0.4421448", "0.4421776", "0.44040316"),
        ("0.40192786", "0.40191513", "0.40038353"),
    ],
}
"""BERTScore's English rescaling baselines (P, R, F per layer 0..12) of ``bert-base-uncased``,
from bert_score (MIT licence, github Tiiiger/bert_score, ``rescale_baseline/en/bert-base-uncased.tsv``,
the same file in the copy PT-M2 ships). Other models: give a baseline file in that format."""


def read_baseline_file(path: str, layer: int) -> np.ndarray:
    """The (P, R, F) row of ``layer`` in a bert_score baseline file (``LAYER,P,R,F`` rows): the
    row ``layer`` places after the header, blank and whitespace-only lines left out, as
    bert_score's ``pd.read_csv(path).iloc[layer]`` counts them."""
    try:
        with open(path, encoding="utf-8", newline="") as handle:
            reader = csv.reader(handle)
            rows = [(reader.line_num, row) for row in reader if row and (len(row) > 1 or row[0].strip())]
    except OSError as err:
        raise InputError(f"cannot read the baseline file: {err.strerror}", path) from None
    except (UnicodeDecodeError, csv.Error):
        raise InputError("not a bert_score baseline file (LAYER,P,R,F rows of numbers): not CSV text", path) from None
    if not rows or len(rows[0][1]) != 4:
        raise InputError("not a bert_score baseline file: its first line is not the header LAYER,P,R,F", path,
                         rows[0][0] if rows else 1)
    data = rows[1:]
    if not 0 <= layer < len(data):
        raise InputError(f"the baseline file has no row for layer {layer} ({len(data)} rows)", path)
    line, row = data[layer]
    try:  # (float() alone reads 0_1 as 1.0 and other scripts' digits: not numbers pandas reads)
        values = np.array([float(value) if plain_number(value) else "?" for value in row[1:]], dtype=np.float32)
    except ValueError:
        values = np.zeros(0)
    if values.shape != (3,) or not np.isfinite(values).all():
        raise InputError(f"malformed baseline row for layer {layer}: expected LAYER,P,R,F", path, line)
    if (values >= 1).any():  # (read as float32: 0.99999999 is 1)
        shown = ", ".join(f"{name} {text.strip()}" for name, text, value in zip("PRF", row[1:], values) if value >= 1)
        raise InputError(f"baseline row for layer {layer} has {shown}: a baseline must be below 1 (scores are "
                         "rescaled as (x - b) / (1 - b))", path, line)
    return values


def baseline_values(baseline: str, model: str, layer: int) -> np.ndarray | None:
    """The float32 (P, R, F) baseline: ``auto`` = the model's own table, ``none`` = no
    rescaling, a known model name = its table, else a bert_score baseline file."""
    if baseline == "none":
        return None
    name = model if baseline == "auto" else baseline
    if name in BASELINES:
        rows = BASELINES[name]
        if not 0 <= layer < len(rows):
            raise InputError(f"no {name} baseline for layer {layer} (layers 0 to {len(rows) - 1})")
        return np.array([float(value) for value in rows[layer]], dtype=np.float32)
    if baseline != "auto" and (os.path.exists(baseline) or os.sep in baseline or baseline.endswith(".tsv")):
        return read_baseline_file(baseline, layer)  # a file (one that does not exist: its error)
    known = ", ".join(sorted(BASELINES))
    raise InputError(f"no rescaling baseline known for {name!r} (built in: {known}): give baseline=none "
                     "(command line: --baseline none), "
                     "a known model name or a bert_score baseline file")


def _size(vectors: Any) -> int:
    """Bytes of an embedding matrix (its token weights are small beside it)."""
    return int(vectors.numel()) * int(vectors.element_size())


def baseline_label(baseline: str, model: str) -> str:
    """What a signature says of the baseline: ``none``, the model whose built-in table is used,
    or ``file:`` and the SHA-256 (12 hex digits) of a baseline file."""
    if baseline == "none":
        return "none"
    name = model if baseline == "auto" else baseline
    if name in BASELINES:
        return name
    return baseline_file_label(baseline)


def baseline_file_label(path: str) -> str:
    """``file:`` and the SHA-256 (12 hex digits) of a baseline file's bytes."""
    try:
        with open(path, "rb") as handle:
            return "file:" + hashlib.sha256(handle.read()).hexdigest()[:12]
    except OSError as err:
        raise InputError(f"cannot read the baseline file: {err.strerror}", path) from None


PAIR_FORMAT = 2
"""Part of every stored pair score's namespace and key: bump when what a stored F means changes
(1: rescaled F keyed with the baseline; 2: raw F, rescaled when read)."""


def model_fingerprint(loaded: LoadedModel) -> str | None:
    """What identifies a loaded encoder's numbers besides the layer: its weights (a local
    folder's SHA-256, or the hub commit) and, for a folder, its config.json; None when unknown
    (such a model's scores are not stored)."""
    if loaded.revision == "unknown":
        return None
    source = os.path.expanduser(loaded.name)
    if not os.path.isdir(source):
        return loaded.revision
    try:
        with open(os.path.join(source, "config.json"), "rb") as handle:
            config = hashlib.sha256(handle.read()).hexdigest()[:12]
    except OSError:
        return None
    return f"{loaded.revision}/config-{config}"


def pair_namespace(loaded: LoadedModel, threads: int) -> str | None:
    """The persistent cache's namespace of rescaled F values of this encoder (None: not stored):
    its fingerprint, layer, implementation (the direct BERT or transformers' class: they agree
    to float32 rounding, not bit for bit), torch and transformers versions, device type and torch
    threads (on one thread a pair's bits do not depend on its batch)."""
    fingerprint = model_fingerprint(loaded)
    if fingerprint is None:
        return None
    device = getattr(loaded.device, "type", str(loaded.device))
    return (f"pt/bertscore-f/{PAIR_FORMAT}/{fingerprint}/layer-{loaded.num_layers}/{type(loaded.model).__name__}/"
            f"torch-{loaded.torch_version}/transformers-{loaded.transformers_version}/{device}/threads-{threads}")


def token_namespace(loaded: LoadedModel) -> str | None:
    """The persistent cache's namespace of the token ids this model's tokenizer gives texts as
    :meth:`LoadedModel.encode` makes them (stripped, special tokens added, truncated to the
    model's maximum length; a prefix space for byte-level BPE), None when its files are unknown
    (:func:`~.token_ids.token_namespace`). The token counts of the texts it cut are stored beside
    them (:data:`CUTS`: ``cuts-noted``), so that a run reading the ids knows which were cut."""
    from .token_ids import token_namespace as namespace

    return namespace("special-tokens", loaded.tokenizer_digest, loaded.tokenizer, f"max-{loaded.max_length}",
                     "prefix-space" if loaded.prefix_space else "no-prefix-space", "cuts-noted")


CUTS = "cut-lengths"
"""Below a token namespace (:func:`token_namespace`): the token count before truncation of each
text the tokenizer cut to the maximum length (texts not cut have no entry)."""


FROM_THE_MODEL = object()
"""PairScorer's default ``id_namespace``: :func:`token_namespace` of its model."""


class PairScorer:
    """Rescaled BERTScore F of (candidate, reference) pairs of token sequences, cached.

    ``sequences(texts)`` maps texts to sequence numbers (one per distinct token-id sequence);
    ``f_scores(candidates, references)`` scores pairs of sequence numbers. Embeddings of
    ``pinned`` sequences (the references, compared with every system's edited sentences) stay
    in memory up to ``keep_bytes`` (the oldest beyond it are dropped, and encoded again if
    needed); the others are dropped once their pairs are scored (the scores stay).

    With ``cache`` (a :class:`~gecmetrics.core.cache.Cache`) and ``namespace``
    (:func:`pair_namespace`; ``id_namespace``: :func:`token_namespace`, given by a caller that
    knows both without reading ``loaded``, which is then first read when a text must be tokenized
    or a pair scored), every pair's raw F is also kept across runs, keyed by the token ids
    of both sides: pairs scored by an earlier run (any system, any process, any baseline) are
    read back in one lookup per call, and only the sequences of the other pairs are encoded. A
    stored value is the float32 raw F the computation gives, rescaled on the way out by the same
    float32 operations as a computed one, so the numbers are the same bits with and without the
    cache.

    The token ids of texts go through the persistent cache as well (``token_cache``, any
    :class:`~gecmetrics.core.cache.Cache`; the pair scores' is the default), in the namespace of
    the tokenizer (:func:`token_namespace`): transformers' Python BERT tokenizer, which
    BERTScore uses, takes about 0.7 ms a sentence, most of a warm run's time without it.

    Texts longer than the model's maximum length (``max_length``: the model's, given by a caller
    that knows it without reading ``loaded``) are cut to it, as bert_score cuts them; :attr:`cut`
    says which, from their ids as tokenized or read back (:meth:`cut_count`).
    """

    cacheable = True
    """Whether values can go to the persistent cache (one float32 F per pair)."""

    def __init__(self, loaded: LoadedModel, baseline: np.ndarray | None, batch_size: int = 64,
                 token_budget: int = 8192, chunk: int = 4096, keep_bytes: int = 2**30,
                 idf: Mapping[int, float] | None = None, idf_default: float = 0.0, cache: Any = None,
                 namespace: str | None = None, id_namespace: Any = FROM_THE_MODEL,
                 max_length: int | None = None) -> None:
        self.loaded = loaded
        self.idf = idf  # token id -> weight (ids not in it: idf_default); None: 1, and 0 for [CLS]/[SEP]
        self.idf_default = idf_default
        # the key holds both sides' token ids, not idf weights: cached only without them
        usable = self.cacheable and idf is None and namespace is not None
        self.cache = cache if usable and cache is not None and cache.enabled else None
        self.namespace = namespace
        self._new: dict[tuple[int, int], float] = {}  # raw F of the pairs computed since the last store
        self.stored_count = 0
        """Pairs read from the persistent cache."""
        self.chunk = chunk
        self.keep_bytes = keep_bytes
        self.kept_bytes = 0
        self.baseline = baseline
        self.batch_size = batch_size
        self.token_budget = token_budget
        self.token_cache = cache
        # None: a tokenizer of unknown files, not stored
        self.token_namespace = token_namespace(loaded) if id_namespace is FROM_THE_MODEL else id_namespace
        self.tokenized_count = 0
        """Texts tokenized by the model's tokenizer (those whose ids were stored need none)."""
        self.max_length = max_length
        self.cut: dict[str, int] = {}
        """Text -> its token count before truncation, for the texts cut to the maximum length."""
        self.text_to_sequence: dict[str, int] = {}
        self.ids_to_sequence: dict[tuple[int, ...], int] = {}
        self.token_ids: list[tuple[int, ...]] = []
        self.embeddings: dict[int, object] = {}
        self.pinned: set[int] = set()
        self.pair_f: dict[tuple[int, int], float] = {}
        self.encoded_count = 0

    def _token_ids(self, texts: list[str]) -> list[tuple[int, ...]]:
        """Token ids of distinct texts: stored ones read back, the others tokenized in one call
        (and stored)."""
        from ..cache import cache_key
        from .token_ids import TOKEN_IDS_FORMAT, cached_token_ids

        cuts: dict[str, int] = {}
        namespace = self._cuts_namespace()

        def tokenize(missing: list[str]) -> list[tuple[int, ...]]:
            ids = self.loaded.encode(missing, cuts)  # (the model is read on use)
            if cuts and namespace is not None:  # stored before the ids: no stored ids without their cut
                self.token_cache.put_many(namespace, {cache_key(TOKEN_IDS_FORMAT, text): str(length).encode("ascii")
                                                      for text, length in cuts.items()}, compress=False)
            return ids

        ids, tokenized = cached_token_ids(self.token_cache, self.token_namespace, texts, tokenize)
        self.tokenized_count += tokenized
        self.cut.update(cuts)
        if namespace is not None:
            self._stored_cuts(namespace, texts, ids, cuts)
        return ids

    def _cuts_namespace(self) -> str | None:
        """Where the token counts of the texts cut are stored (:data:`CUTS`), or None: not stored."""
        cache, namespace = self.token_cache, self.token_namespace
        return f"{namespace}/{CUTS}" if cache is not None and cache.enabled and namespace is not None else None

    def _stored_cuts(self, namespace: str, texts: list[str], ids: list[tuple[int, ...]], cuts: dict[str, int]) -> None:
        """The stored token counts of the texts read back whose ids fill the maximum length."""
        from ..cache import cache_key
        from .token_ids import TOKEN_IDS_FORMAT

        limit = self.limit
        full = {cache_key(TOKEN_IDS_FORMAT, text): text for text, value in zip(texts, ids)
                if len(value) >= limit and text not in cuts}
        for key, value in (self.token_cache.get_many(namespace, list(full)) if full else {}).items():
            if value.isdigit() and int(value) > limit:  # else not one: taken as not cut
                self.cut[full[key]] = int(value)

    @property
    def limit(self) -> int:
        """The most tokens of a text (the model's maximum length; read from the model when the
        caller did not give it)."""
        return self.loaded.max_length if self.max_length is None else self.max_length

    def cut_count(self, texts: Sequence[str]) -> int:
        """How many of ``texts`` (each seen by :meth:`sequences`) were cut to the maximum length."""
        return sum(text in self.cut for text in texts)

    def sequences(self, texts: Sequence[str], pin: bool = False) -> list[int]:
        """Sequence numbers of texts (tokenizing the new ones in one call, or reading their ids
        from the persistent cache)."""
        new = [text for text in dict.fromkeys(texts) if text not in self.text_to_sequence]
        for text, ids in zip(new, self._token_ids(new) if new else []):
            number = self.ids_to_sequence.get(ids)
            if number is None:
                number = len(self.token_ids)
                self.ids_to_sequence[ids] = number
                self.token_ids.append(ids)
            self.text_to_sequence[text] = number
        numbers = [self.text_to_sequence[text] for text in texts]
        if pin:
            self.pinned.update(numbers)
        return numbers

    def f_scores(self, candidates: Sequence[int], references: Sequence[int]) -> list[float]:
        """Rescaled F of each (candidate, reference) pair, computing the pairs not seen yet (nor
        stored) in groups of at most ``chunk`` newly encoded sequences (which bounds memory)."""
        pairs = list(zip(candidates, references))
        if self.cache is not None:
            self._read_stored([pair for pair in dict.fromkeys(pairs) if pair not in self.pair_f])
        try:
            self._compute_missing(pairs)
        finally:
            self._store_new()
        return [self.pair_f[pair] for pair in pairs]

    def _pair_key(self, pair: tuple[int, int]) -> bytes:
        from ..cache import cache_key

        ids = self.token_ids
        return cache_key(PAIR_FORMAT, np.asarray(ids[pair[0]], dtype="<i8").tobytes(),
                         np.asarray(ids[pair[1]], dtype="<i8").tobytes())

    def _read_stored(self, pairs: list[tuple[int, int]]) -> None:
        """The stored raw F of these pairs, rescaled, where the cache has them (a value that
        cannot be read is a miss, computed again and overwritten)."""
        from ..cache import unpack_array

        if not pairs:
            return
        keys = {self._pair_key(pair): pair for pair in pairs}
        found, raw = [], []
        for key, value in self.cache.iter_many(self.namespace, list(keys)):
            try:
                array = unpack_array(value)
            except ValueError:
                continue
            if array.dtype != np.float32 or array.shape != (1,):
                continue
            found.append(keys[key])
            raw.append(array[0])
        for pair, value in zip(found, self._rescaled(np.array(raw, dtype=np.float32))):
            self.pair_f[pair] = value
        self.stored_count += len(found)

    def _store_new(self) -> None:
        """Store the raw F values computed since the last call (float32, as computed)."""
        from ..cache import pack_array

        new, self._new = self._new, {}
        if self.cache is not None and new:
            self.cache.put_many(self.namespace, {self._pair_key(pair): pack_array(np.array([value], dtype=np.float32))
                                                 for pair, value in new.items()})

    def _compute_missing(self, pairs: list[tuple[int, int]]) -> None:
        group: list[tuple[int, int]] = []
        new: set[int] = set()
        for pair in dict.fromkeys(pairs):
            if pair in self.pair_f:
                continue
            needed = {number for number in pair if number not in self.embeddings} - new
            if group and len(new) + len(needed) > self.chunk:
                self._compute(group, new)
                group, new = [], set()
                needed = {number for number in pair if number not in self.embeddings}
            group.append(pair)
            new |= needed
        if group:
            self._compute(group, new)

    def _compute(self, pairs: list[tuple[int, int]], new: set[int]) -> None:
        """Encode the new sequences, score the pairs, drop the embeddings not pinned (and the
        oldest pinned ones beyond ``keep_bytes``)."""
        self._encode(new)
        self._score_pairs(pairs)
        for number in list(self.embeddings):
            if number not in self.pinned or self.kept_bytes > self.keep_bytes:
                self._drop(number)

    def _drop(self, number: int) -> None:
        vectors, _ = self.embeddings.pop(number)
        if number in self.pinned:
            self.kept_bytes -= _size(vectors)

    def _encode(self, numbers: set[int]) -> None:
        """Embed sequences in batches of one length each: without padding, a sentence's
        embeddings do not depend on the sentences batched with it (on one torch thread they are
        the same bits whatever the batch), so neither do the scores of a system depend on the
        chunks or on the other systems of the run. Keeps normalized vectors and token weights."""
        if not numbers:
            return
        torch, _ = import_backend()
        with torch.inference_mode():
            for length, group in _grouped(numbers, lambda n: len(self.token_ids[n])):
                size = max(1, min(self.batch_size, self.token_budget // max(length, 1)))
                for start in range(0, len(group), size):
                    self._encode_batch(group[start:start + size], torch)

    def _encode_batch(self, batch: list[int], torch: Any) -> None:
        loaded = self.loaded
        ids = torch.from_numpy(np.array([self.token_ids[n] for n in batch], dtype=np.int64))
        if self.idf is None:
            counted = ((ids != loaded.cls_id) & (ids != loaded.sep_id)).float()
        else:  # float64 idf values made float32, as bert_score's padded idf tensor
            counted = torch.tensor([[self.idf.get(token, self.idf_default) for token in self.token_ids[n]]
                                    for n in batch], dtype=torch.float32)
        weights = counted / counted.sum(dim=1, keepdim=True)  # BERTScore without idf: 1/n, [CLS]/[SEP] 0
        output = loaded.model(ids.to(loaded.device))[0].float()
        output = output / torch.norm(output, dim=-1).unsqueeze(-1)
        for row, number in enumerate(batch):
            vectors, token_weights = output[row], weights[row]
            if number in self.pinned:  # kept: a copy, so that the batch's memory is freed
                vectors, token_weights = vectors.clone(), token_weights.clone()
                self.kept_bytes += _size(vectors)
            self.embeddings[number] = (vectors, token_weights)
        self.encoded_count += len(batch)

    def _score_pairs(self, pairs: list[tuple[int, int]]) -> None:
        """Score pairs in batches of one (candidate length, reference length) each: no padding
        either, so a pair's F does not depend on the pairs scored with it."""
        torch, _ = import_backend()
        lengths = self.token_ids
        with torch.inference_mode():
            for (candidate, reference), group in _grouped(pairs, lambda p: (len(lengths[p[0]]), len(lengths[p[1]]))):
                size = max(1, SIMILARITY_CELLS // max(candidate * reference, 1))
                for start in range(0, len(group), size):
                    batch = group[start:start + size]
                    self.pair_f.update(zip(batch, self._pair_values(batch, torch)))

    def _pair_values(self, pairs: list[tuple[int, int]], torch: Any) -> list:
        """What is kept per pair: here the rescaled F (:class:`PRFScorer`: raw P, R, F); the
        raw F goes to the persistent cache."""
        raw = self._greedy(pairs, torch)[2]
        if self.cache is not None:
            self._new.update(zip(pairs, raw.tolist()))
        return self._rescaled(raw)

    def _greedy(self, pairs: list[tuple[int, int]], torch: Any) -> tuple[Any, Any, np.ndarray]:
        """Raw P, R (float32 tensors) and F (float32 array) of pairs of equal shapes: each token
        matched to its most similar token of the other side, similarities weighted by the token
        weights; F is 0 where 2PR / (P + R) is NaN."""
        candidates = torch.stack([self.embeddings[c][0] for c, _ in pairs])
        references = torch.stack([self.embeddings[r][0] for _, r in pairs])
        similarity = torch.bmm(candidates, references.transpose(1, 2))
        precision = (similarity.max(dim=2)[0].cpu() * torch.stack([self.embeddings[c][1] for c, _ in pairs])).sum(1)
        recall = (similarity.max(dim=1)[0].cpu() * torch.stack([self.embeddings[r][1] for _, r in pairs])).sum(1)
        f = 2 * precision * recall / (precision + recall)
        return precision, recall, f.masked_fill(torch.isnan(f), 0.0).numpy().astype(np.float32)

    def _rescaled(self, f: np.ndarray) -> list[float]:
        """Raw float32 F values rescaled by the baseline's F, in float32 (an empty side: 0/0,
        F is 0)."""
        if self.baseline is not None:
            f = (f - self.baseline[2]) / (np.float32(1.0) - self.baseline[2])
        return [float(value) for value in f.astype(np.float32)]  # float32 values, exact as floats


class PRFScorer(PairScorer):
    """Raw BERTScore precision, recall and F of (candidate, reference) pairs, as
    ``bert_score.utils.greedy_cos_idf`` returns them (the standalone BERTScore rescales and
    takes the best reference itself): a side of exactly two tokens ([CLS] [SEP], an empty
    text) sets P and R to 0 after F was computed (so F is 0 through 0/0); token weights that
    sum to 0 on a longer side leave a NaN P or R, as there. ``baseline`` is not used, nor the
    persistent cache."""

    cacheable = False

    def _pair_values(self, pairs: list[tuple[int, int]], torch: Any) -> list:
        precision, recall, f = self._greedy(pairs, torch)
        precision, recall = precision.numpy().astype(np.float32), recall.numpy().astype(np.float32)
        empty = np.array([len(self.token_ids[c]) == 2 or len(self.token_ids[r]) == 2 for c, r in pairs])
        precision[empty] = 0.0
        recall[empty] = 0.0
        return [(float(p), float(r), float(value)) for p, r, value in zip(precision, recall, f)]

    def prf_scores(self, candidates: Sequence[int], references: Sequence[int]) -> np.ndarray:
        """(pairs, 3) float32 array of raw P, R, F of each (candidate, reference) pair."""
        return np.array(self.f_scores(candidates, references), dtype=np.float32).reshape(-1, 3)


SIMILARITY_CELLS = 2**22
"""Most similarity values computed at once (16 MB of float32) when scoring pairs."""


def _grouped(items: Iterable[Any], key: Callable[[Any], Hashable]) -> list[tuple[Hashable, list]]:
    """Items grouped by a key (in key order; items in their order within a group)."""
    groups: dict[Hashable, list] = {}
    for item in items:
        groups.setdefault(key(item), []).append(item)
    return sorted(groups.items(), key=lambda entry: entry[0])
