"""Batched inference of BERT-family models for the model-based metrics (SOME, IMPARA): loading a
model by hub name or folder on a device and in a dtype, encoding each distinct text once, building
BERT inputs with the original tokenizers' truncation, and running length-sorted batches.

Why encode here rather than call the tokenizer on each input: a source sentence is shared by
every system and a hypothesis often by several, so its WordPiece ids are computed once and the
inputs (``[CLS] a [SEP]`` or ``[CLS] a [SEP] b [SEP]``) are assembled from them; and the
truncation of a pair is then ours, the rule of transformers' Python tokenizers with which the
original metrics were run (:func:`truncate_pair`), whatever the installed transformers does.

torch and transformers are optional (``pip install 'gecmetrics[models]'``): imported on first
use, their absence is one line of :class:`~gecmetrics.errors.InputError`, as is every failure to
load a model or tokenizer.

Model outputs can go through the persistent cache (:func:`cached_values`): a value is stored
under the model's weights fingerprint, dtype and computing path (direct or transformers) and
the exact model input (token ids and token types, so the tokenizer and the truncation are in
the key), so a later run, another system or another metric with the same model and input
reads it instead of running the model.

Models (:class:`ModelOnUse`) and tokenizers (:class:`Encoder`) are loaded on first use: what
those keys and the signatures need of them (a model's fingerprint, config digest, dtype,
computing path and pooling; a tokenizer's special token ids and the namespace of its ids) is
stored in the cache by the run that loads them and read back by the next
(:mod:`~gecmetrics.core.models.identity`), so a run whose every output and token id is stored
(a warm run) imports neither torch nor transformers.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Hashable, Sequence

import numpy as np

from ..cache import Cache, cache_key
from ..checks import check_count
from ...errors import InputError, plural
from .runtime import check_device, check_dtype
from .runtime import import_torch_transformers
from .runtime import import_transformers
from .identity import OnUse, recorded, request_key, strings, tokenizer_request_key
from .loading import (check_vocabulary, config_digest, first_line, load_checked, model_source,
                      python_bert_tokenizer_class, quiet_loading)
from .tiny import weights_fingerprint


def check_max_length(value: Any) -> int:
    """The maximum input length in tokens: room for [CLS] a [SEP] b [SEP] at least."""
    value = check_count(value, "max_length")
    if value < 4:
        raise InputError(f"max_length must be at least 4 (the special tokens and one token per text), got {value}")
    return value


def resolve_device(torch: Any, device: str | None) -> Any:
    """``cpu``, ``cuda`` (or ``cuda:N``) or ``mps``; None: CUDA when available, else the CPU."""
    device = check_device(device)
    if device is None:
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    kind = device.split(":")[0]
    available = {"cpu": True, "cuda": torch.cuda.is_available(),
                 "mps": bool(getattr(getattr(torch.backends, "mps", None), "is_available", lambda: False)())}
    if not available[kind]:
        raise InputError(f"device {device!r} is not available in this installation of torch")
    if kind == "cuda" and ":" in device and int(device.split(":")[1]) >= torch.cuda.device_count():
        # torch.device accepts any index: the model would load, then fail to move (a traceback)
        raise InputError(f"device {device!r}: torch sees {torch.cuda.device_count()} CUDA device(s), "
                         f"cuda:0 to cuda:{torch.cuda.device_count() - 1}")
    try:
        return torch.device(device)
    except (RuntimeError, ValueError) as err:
        raise InputError(f"cannot use device {device!r}: {first_line(err)}") from None


def resolve_dtype(torch: Any, dtype: str) -> Any:
    """The torch dtype the model computes in: float32 (default), float16 or bfloat16."""
    return getattr(torch, check_dtype(dtype))


def load_tokenizer(transformers: Any, name: str, python_bert: bool = False) -> Any:
    """A BERT-style tokenizer (one with [CLS], [SEP] and [PAD]) by hub name or folder: the one
    ``AutoTokenizer`` loads, or with ``python_bert`` transformers' Python ``BertTokenizer``
    (:func:`python_bert_tokenizer_class`), as an original that names that class loads it."""
    import os

    source = model_source(name)
    if python_bert and os.path.isdir(source) and not os.path.isfile(os.path.join(source, "vocab.txt")):
        raise InputError("no usable tokenizer: the folder has no vocab.txt, so it is not a BERT WordPiece tokenizer "
                         "(what this metric's original loads, BertTokenizer)", source)
    loader = python_bert_tokenizer_class(transformers) if python_bert else transformers.AutoTokenizer
    try:
        with quiet_loading(transformers):
            tokenizer = loader.from_pretrained(source)
    except Exception as err:  # transformers raises OSError, ValueError, TypeError ... by case
        raise InputError(f"no usable tokenizer: {first_line(err)}", source) from None
    for token in ("cls_token_id", "sep_token_id", "pad_token_id"):
        if getattr(tokenizer, token, None) is None:
            raise InputError(f"the tokenizer has no {token[:-9].upper()} token, which BERT inputs need", source)
    return check_vocabulary(tokenizer, source)


@dataclass
class LoadedModel:
    """A model in evaluation mode on its device and dtype, called as ``model.states(ids, mask,
    types)`` (last layer) or ``model.regress(ids, mask, types)`` (a regressor's output), with what
    names it in a signature: the name given and the fingerprint of its weights (as stored, in
    float32), whether it is computed directly (``direct_bert``) or by transformers, and
    ``pooling``: how its classifier pools the states when its config has that choice
    (ModernBERT's ``classifier_pooling``; "" for models without one, such as BERT's [CLS] pooler)."""

    name: str
    model: Any
    device: Any
    dtype: Any
    fingerprint: str
    direct: bool
    pooling: str = ""
    config: str = ""
    """:func:`~gecmetrics.core.models.loading.config_digest` of its config.json ("" unknown)."""


REGRESSOR = "a one-output sequence classifier (a regressor such as SOME's and IMPARA's BertForSequenceClassification)"
POOLINGS = ("cls", "mean")
"""The pooling choices of a sequence classifier that has one (``classifier_pooling``)."""


class TransformersBert:
    """A transformers model called like :class:`~gecmetrics.core.models.direct_bert.MaskedBert`;
    token types are passed only to a model that takes them (ModernBERT, for one, has none)."""

    def __init__(self, model: Any) -> None:
        import inspect

        self.model = model
        self.takes_types = "token_type_ids" in inspect.signature(model.forward).parameters

    def _call(self, ids: Any, mask: Any, types: Any) -> Any:
        extra = {"token_type_ids": types} if self.takes_types else {}
        return self.model(input_ids=ids, attention_mask=mask, **extra)[0]  # a tuple with return_dict false

    def states(self, ids: Any, mask: Any, types: Any) -> Any:
        return self._call(ids, mask, types)

    def regress(self, ids: Any, mask: Any, types: Any) -> Any:
        return self._call(ids, mask, types)[:, 0]


def _files(source: str) -> tuple[str, str | None] | None:
    """(config.json, single weight file or None) of a folder, or of a hub model in the local
    cache (downloaded if needed and allowed); None when they cannot be had (transformers then
    loads the model, or says why not)."""
    import os

    from .encoder import weight_file

    if os.path.isdir(source):
        return os.path.join(source, "config.json"), weight_file(source)
    from .loading import _cached_weights

    _, transformers = import_torch_transformers()
    try:
        return transformers.utils.cached_file(source, "config.json"), _cached_weights(transformers, source)
    except Exception:  # not cached and no network, or no such model: transformers says which
        return None


def load_model(name: str, kind: str, device: str | None = None, dtype: str = "float32",
               pooling: str | None = None) -> LoadedModel:
    """A one-output regressor (``kind="regressor"``: what ``AutoModelForSequenceClassification``
    loads, with one label) or a plain encoder (``kind="encoder"``: what ``AutoModel`` loads), by
    hub name or folder, in evaluation mode on ``device`` in ``dtype``. ``pooling`` (``cls`` or
    ``mean``; None: as the model's config says) sets how a regressor whose classifier has the
    choice pools (ModernBERT's ``classifier_pooling``); a model without the choice refuses it. A
    plain BERT in one weight file is computed directly from its weights (``direct_bert``),
    anything else by transformers."""
    from .direct_bert import load_direct

    if pooling is not None and (pooling not in POOLINGS or kind != "regressor"):
        raise InputError(f"pooling must be one of {', '.join(POOLINGS)} (a regressor's), got {pooling!r}")
    torch, _ = import_torch_transformers()
    chosen_device, chosen_dtype = resolve_device(torch, device), resolve_dtype(torch, dtype)
    source = model_source(name)
    files = _files(source) if pooling is None else None  # BERT's classifier has no pooling choice
    try:
        loaded = load_direct(torch, *files, kind == "regressor") if files else None
    except Exception as err:  # corrupt or incomplete weights
        raise InputError(f"cannot load the model: {first_line(err)}", source) from None
    if loaded is not None:
        model, state = loaded
        fingerprint = weights_fingerprint({key: value.float().numpy() for key, value in state.items()})
        del state
        try:
            model = model.to(chosen_device, chosen_dtype)
        except (RuntimeError, AssertionError) as err:
            raise InputError(f"cannot use device {device!r}: {first_line(err)}") from None
        return LoadedModel(name, model, chosen_device, chosen_dtype, fingerprint, True, config=config_digest(source))
    return _load_with_transformers(name, source, kind, device, chosen_device, chosen_dtype, pooling)


def _load_with_transformers(name: str, source: str, kind: str, device: str | None, chosen_device: Any,
                            chosen_dtype: Any, pooling: str | None = None) -> LoadedModel:
    _, transformers = import_torch_transformers()
    if pooling is not None:
        try:
            with quiet_loading(transformers):
                config = transformers.AutoConfig.from_pretrained(source)
        except Exception as err:  # no or a corrupt config.json
            raise InputError(f"cannot load the model: {first_line(err)}", source) from None
        _check_pooling_choice(config, pooling, source)
    if kind == "regressor":
        model = load_checked(transformers.AutoModelForSequenceClassification, source, REGRESSOR,
                             **({} if pooling is None else {"classifier_pooling": pooling}))
        if getattr(model.config, "num_labels", None) != 1:
            raise InputError(f"not {REGRESSOR}: it has {model.config.num_labels} outputs", source)
    else:
        model = load_checked(transformers.AutoModel, source, "an encoder (what AutoModel loads)", unused=("pooler.",))
    fingerprint = weights_fingerprint({key: value.detach().float().cpu().numpy()
                                       for key, value in model.named_parameters()})
    try:
        model = model.to(device=chosen_device, dtype=chosen_dtype)
    except (RuntimeError, AssertionError) as err:
        raise InputError(f"cannot use device {device!r}: {first_line(err)}") from None
    model.eval()
    chosen = getattr(model.config, "classifier_pooling", "") if kind == "regressor" else ""
    return LoadedModel(name, TransformersBert(model), chosen_device, chosen_dtype, fingerprint, False,
                       chosen if isinstance(chosen, str) else "", config_digest(source))


def _check_pooling_choice(config: Any, pooling: str, source: str) -> None:
    """A pooling setting needs a classifier with that choice (``classifier_pooling``)."""
    if not hasattr(config, "classifier_pooling"):
        kind = getattr(config, "model_type", "") or type(config).__name__
        raise InputError(f"pooling={pooling}: this {kind} model's classifier has no pooling choice (BERT's reads "
                         "[CLS] through its pooler); leave pooling unset, or use a model with classifier_pooling "
                         "(ModernBERT)", source)


MODEL_IDENTITIES = "models/bert-model-identity/1"
"""The persistent cache's namespace of :class:`ModelOnUse` records."""


def _is_model_record(record: dict) -> bool:
    return (set(record) == {"fingerprint", "config", "dtype", "direct", "pooling"}
            and strings(record, "fingerprint", "config", "dtype", "pooling") and isinstance(record["direct"], bool))


class ModelOnUse(OnUse):
    """A model of :func:`load_model` (``name``, ``kind``, ``device``, ``dtype``, ``pooling``),
    loaded on first use of :attr:`model` or :attr:`device` (:class:`~.identity.OnUse`: on the
    torch threads of ``owner``). What names it in cache keys and signatures, the fields of a
    :class:`LoadedModel` (:attr:`fingerprint`, :attr:`config`, :attr:`dtype` as ``float32`` ...,
    :attr:`direct`, :attr:`pooling`), is read back from ``owner.cache`` where a load stored it,
    so a run that finds every output stored never loads the model."""

    identities = MODEL_IDENTITIES
    valid = staticmethod(_is_model_record)

    def __init__(self, name: str, kind: str, device: str | None = None, dtype: str = "float32",
                 pooling: str | None = None, owner: Any = None) -> None:
        if pooling is not None and (pooling not in POOLINGS or kind != "regressor"):
            raise InputError(f"pooling must be one of {', '.join(POOLINGS)} (a regressor's), got {pooling!r}")
        self.kind, self._pooling = kind, pooling
        self._device, self._dtype = check_device(device), check_dtype(dtype)
        self.source = model_source(name)
        settings = [kind, f"dtype-{dtype}", f"pooling-{pooling or 'config'}"]
        super().__init__(name, lambda: request_key(self.source, self._device, settings), owner)

    def _load_now(self) -> LoadedModel:
        return load_model(self.source, self.kind, self._device, self._dtype, self._pooling)

    def _record_of(self, loaded: LoadedModel) -> dict:
        return {"fingerprint": loaded.fingerprint, "config": loaded.config, "direct": loaded.direct,
                "dtype": str(loaded.dtype).removeprefix("torch."), "pooling": loaded.pooling}

    fingerprint = recorded("fingerprint")
    config = recorded("config")
    dtype = recorded("dtype")
    direct = recorded("direct")
    pooling = recorded("pooling")

    @property
    def model(self) -> Any:
        return self.load().model

    @property
    def device(self) -> Any:
        return self.load().device


def truncate_pair(first: int, second: int, budget: int) -> tuple[int, int]:
    """How many tokens of each text a pair keeps when it has room for ``budget``: the
    ``longest_first`` rule of transformers' Python tokenizers (3.x removes one token at a time
    from the longer text, from the second on a tie; 4.x computes the same in closed form)."""
    excess = first + second - budget
    if excess <= 0:
        return first, second
    if first > second:
        cut = min(excess, first - second)
        first, excess = first - cut, excess - cut
    elif second > first:
        cut = min(excess, second - first)
        second, excess = second - cut, excess - cut
    return first - excess // 2, second - (excess - excess // 2)


TOKENIZER_IDENTITIES = "models/bert-tokenizer-identity/1"
"""The persistent cache's namespace of :class:`Encoder` records."""

FRAMING_SAMPLE = ("It is a test .", "And another one .")


def _is_tokenizer_record(record: dict) -> bool:
    return (set(record) == {"cls", "sep", "pad", "namespace"}
            and all(isinstance(record[name], int) and not isinstance(record[name], bool)
                    for name in ("cls", "sep", "pad"))
            and (record["namespace"] is None or isinstance(record["namespace"], str)))


class Encoder(OnUse):
    """WordPiece ids of each distinct text (computed once), and BERT inputs built from them.

    The tokenizer ``name`` (hub name or folder; with ``python_bert`` transformers' Python
    ``BertTokenizer``, :func:`load_tokenizer`) is loaded on first use (:attr:`tokenizer`), and
    must frame a text as ``[CLS] text [SEP]`` (and a pair as ``[CLS] a [SEP] b [SEP]`` with
    ``pairs``). Its special token ids and the namespace of its ids in the persistent cache are
    read back from ``owner.cache`` where a load stored them (:class:`~.identity.OnUse`), so texts
    whose ids are all stored need no tokenizer."""

    identities = TOKENIZER_IDENTITIES
    valid = staticmethod(_is_tokenizer_record)
    sets_threads = False

    def __init__(self, name: str, max_length: int, python_bert: bool = False, pairs: bool = False,
                 owner: Any = None) -> None:
        self.max_length, self.python_bert, self.pairs = max_length, python_bert, pairs
        self.source = model_source(name)
        self.pieces: dict[str, tuple[int, ...]] = {}
        settings = ["python-bert" if python_bert else "auto", "pairs" if pairs else "single"]
        super().__init__(name, lambda: tokenizer_request_key(self.source, settings), owner)

    @property
    def tokenizer(self) -> Any:
        return self.load()

    def _load_now(self) -> Any:
        tokenizer = load_tokenizer(import_transformers(), self.source, self.python_bert)
        self._check_framing(tokenizer)
        return tokenizer

    def _record_of(self, tokenizer: Any) -> dict:
        from .token_ids import loaded_token_namespace

        return {"cls": int(tokenizer.cls_token_id), "sep": int(tokenizer.sep_token_id),
                "pad": int(tokenizer.pad_token_id),
                "namespace": loaded_token_namespace("pieces", tokenizer, "no-special-tokens")}

    cls_id = recorded("cls")
    sep_id = recorded("sep")
    pad_id = recorded("pad")
    namespace = recorded("namespace")
    """Where the ids are stored in the persistent cache (None: not stored)."""

    def _check_framing(self, tokenizer: Any) -> None:
        """The inputs built here (``[CLS] a [SEP]``, and ``[CLS] a [SEP] b [SEP]`` with ``pairs``)
        must be what the tokenizer itself makes of a text (of a pair): true of BERT's and
        ModernBERT's tokenizers; a tokenizer that frames texts otherwise (RoBERTa's pairs are
        ``<s> a </s></s> b </s>``) is one line, not inputs its model never saw."""
        cls_id, sep_id = tokenizer.cls_token_id, tokenizer.sep_token_id
        pieces = [tuple(ids) for ids in tokenizer(list(FRAMING_SAMPLE), add_special_tokens=False)["input_ids"]]
        single = tuple(tokenizer(list(FRAMING_SAMPLE[:1]), add_special_tokens=True)["input_ids"][0])
        framed = single == (cls_id, *pieces[0], sep_id)
        if framed and self.pairs:
            pair = tuple(tokenizer([FRAMING_SAMPLE[0]], [FRAMING_SAMPLE[1]], add_special_tokens=True)["input_ids"][0])
            framed = pair == (cls_id, *pieces[0], sep_id, *pieces[1], sep_id)
        if not framed:
            frames = "[CLS] text [SEP]" + (" and [CLS] a [SEP] b [SEP]" if self.pairs else "")
            raise InputError(f"this tokenizer does not frame texts as {frames}, which the model metrics' inputs are "
                             "built as", self.name)

    def prepare(self, texts: Sequence[str], cache: Cache | None = None) -> None:
        """Tokenize the texts not seen yet, in one call; with ``cache`` (a persistent
        :class:`~gecmetrics.core.cache.Cache`), the ids of texts tokenized by an earlier run are
        read from it and the new ones stored (:mod:`~gecmetrics.core.models.token_ids`)."""
        from .token_ids import cached_token_ids

        missing = list(dict.fromkeys(text for text in texts if text not in self.pieces))
        if missing:
            self.pieces.update(zip(missing, cached_token_ids(cache, self.namespace, missing, self._tokenize)[0]))

    def _tokenize(self, texts: list[str]) -> list[list[int]]:
        from .wordpiece import fast_token_ids

        fast = fast_token_ids(self.tokenizer)  # the Python BERT tokenizer's ids of ASCII texts, word by word
        if fast is not None:
            return fast(texts)
        return self.tokenizer(texts, add_special_tokens=False, verbose=False)["input_ids"]

    def ids(self, text: str) -> tuple[int, ...]:
        """The WordPiece ids of a text (tokenized now if :meth:`prepare` has not seen it)."""
        if text not in self.pieces:
            self.prepare([text])
        return self.pieces[text]

    def single(self, text: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """``[CLS] text [SEP]`` truncated to ``max_length``: (ids, token types)."""
        record = self.record()
        ids = (record["cls"], *self.ids(text)[:self.max_length - 2], record["sep"])
        return ids, (0,) * len(ids)

    def cuts_single(self, text: str) -> bool:
        """Whether :meth:`single` truncates the text (more than ``max_length - 2`` tokens)."""
        return len(self.ids(text)) > self.max_length - 2

    def cuts_pair(self, first: str, second: str) -> bool:
        """Whether :meth:`pair` truncates the pair (more than ``max_length - 3`` tokens together)."""
        return len(self.ids(first)) + len(self.ids(second)) > self.max_length - 3

    def pair(self, first: str, second: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """``[CLS] first [SEP] second [SEP]`` truncated (longest first) to ``max_length``."""
        a, b = self.ids(first), self.ids(second)
        keep_a, keep_b = truncate_pair(len(a), len(b), self.max_length - 3)
        record = self.record()
        head = (record["cls"], *a[:keep_a], record["sep"])
        tail = (*b[:keep_b], record["sep"])
        return head + tail, (0,) * len(head) + (1,) * len(tail)


def run_batches(inputs: dict[Hashable, tuple[tuple[int, ...], tuple[int, ...]]], batch_size: int,
                forward: Callable[[Any, Any, Any], Any], loaded: LoadedModel,
                pad_id: int) -> dict[Hashable, np.ndarray]:
    """``forward(ids, attention_mask, token_types)`` on every input, in batches of
    ``batch_size`` sorted by length (longest first, padded to the longest of the batch);
    returns key -> that input's row of the output, as float32 NumPy."""
    import torch

    keys = sorted(inputs, key=lambda key: -len(inputs[key][0]))
    results: dict[Hashable, np.ndarray] = {}
    with torch.inference_mode():
        for start in range(0, len(keys), batch_size):
            chunk = keys[start:start + batch_size]
            width = len(inputs[chunk[0]][0])
            ids = np.full((len(chunk), width), pad_id, dtype=np.int64)
            types = np.zeros((len(chunk), width), dtype=np.int64)
            mask = np.zeros((len(chunk), width), dtype=np.int64)
            for row, key in enumerate(chunk):
                token_ids, token_types = inputs[key]
                ids[row, :len(token_ids)] = token_ids
                types[row, :len(token_ids)] = token_types
                mask[row, :len(token_ids)] = 1
            tensors = [torch.from_numpy(array).to(loaded.device) for array in (ids, mask, types)]
            try:
                values = forward(*tensors).float().cpu().numpy()
            except (IndexError, RuntimeError) as err:  # was a traceback (IndexError: index out of range)
                raise InputError(f"the model cannot read these inputs ({first_line(err)}): token ids beyond its "
                                 "vocabulary (a tokenizer of another model, or models that do not share one) or "
                                 f"inputs of {width} tokens, longer than its positions (--max-length)",
                                 loaded.name) from None
            results.update(zip(chunk, values))
    return results


def regression_forward(loaded: LoadedModel) -> Callable[[Any, Any, Any], Any]:
    """The one output of a regressor (batch,), given ids, mask and token types."""
    return loaded.model.regress


def mean_pooling_forward(loaded: LoadedModel) -> Callable[[Any, Any, Any], Any]:
    """The mean of the last layer's states over the real (unpadded) tokens, [CLS] and [SEP]
    included (batch, hidden)."""
    def forward(ids: Any, mask: Any, types: Any) -> Any:
        states = loaded.model.states(ids, mask, types).float()
        weights = mask.unsqueeze(-1).to(states.dtype)
        return (states * weights).sum(dim=1) / weights.sum(dim=1)
    return forward


REGRESSION_NAMESPACE = "models/bert-regression/1"
"""Cached outputs of one-output BERT regressors (SOME's heads, IMPARA's quality estimator) on
one input: a float64 value per (model, input)."""


def model_identity(loaded: LoadedModel | ModelOnUse) -> tuple[str, ...]:
    """What besides the input decides a model's output, for cache keys: the full weights
    fingerprint, the config's digest (the same weights under another config compute other
    numbers), the dtype and the computing path (``direct`` or ``transformers``; they agree to
    ~1e-5, not to the bit), and the classifier's pooling where it has a choice. The device is
    left out: it changes only float rounding."""
    identity = (loaded.fingerprint, f"config:{loaded.config}", str(loaded.dtype).removeprefix("torch."),
                "direct" if loaded.direct else "transformers")
    return identity + ((f"pooling:{loaded.pooling}",) if loaded.pooling else ())


def input_parts(ids: Sequence[int], types: Sequence[int]) -> tuple[bytes, bytes]:
    """One model input (token ids and token types) as bytes for a cache key."""
    return np.asarray(ids, dtype="<i4").tobytes(), np.asarray(types, dtype="u1").tobytes()


def input_key(loaded: LoadedModel | ModelOnUse, *inputs: tuple[Sequence[int], Sequence[int]]) -> bytes:
    """The cache key of a model's output on one input (or on several, e.g. a pair's two
    sentences): the model's identity and the exact token ids and types."""
    return input_keys(loaded, {None: inputs})[None]


def input_keys(loaded: LoadedModel | ModelOnUse,
               inputs: dict[Hashable, Sequence[tuple[Sequence[int], Sequence[int]]]]) -> dict[Hashable, bytes]:
    """:func:`input_key` of each item's inputs (the model's identity read once)."""
    identity = model_identity(loaded)
    return {item: cache_key(*identity, *(part for ids, types in parts for part in input_parts(ids, types)))
            for item, parts in inputs.items()}


def cached_values(cache: Cache | None, namespace: str, keys: dict[Hashable, bytes],
                  compute: Callable[[list[Hashable]], dict[Hashable, float]]) -> tuple[dict[Hashable, float], int]:
    """The float value of every item of ``keys`` (item -> cache key): read from ``cache``
    where stored, the rest from ``compute(items)`` (which must return a value for each) and
    stored. Returns (item -> value, the number of items computed). ``cache`` None or disabled:
    everything is computed. Values are stored as float64 bytes, so a stored value reads back
    bit for bit."""
    items = list(keys)
    found: dict[Hashable, float] = {}
    if cache is not None and cache.enabled and items:
        stored = cache.get_many(namespace, list(dict.fromkeys(keys.values())))
        for item in items:
            value = stored.get(keys[item])
            if value is not None and len(value) == 8:
                found[item] = float(np.frombuffer(value, dtype="<f8")[0])
    missing = [item for item in items if item not in found]
    if missing:
        computed = compute(missing)
        found.update((item, float(computed[item])) for item in missing)
        if cache is not None and cache.enabled:
            cache.put_many(namespace, {keys[item]: np.float64(found[item]).astype("<f8").tobytes()
                                       for item in missing})
    return found, len(missing)


def check_cache(cache: Any) -> Cache | None:
    """A :class:`~gecmetrics.core.cache.Cache` or None (no persistent cache)."""
    if cache is not None and not isinstance(cache, Cache):
        raise InputError(f"cache must be a gecmetrics.core.cache.Cache or None, got {type(cache).__name__}")
    return cache


def check_texts(name: str, texts: Any) -> list[str]:
    """A sequence of strings (one per sentence), or one line saying what is wrong."""
    if isinstance(texts, (str, bytes)) or not isinstance(texts, Sequence):
        raise InputError(f"{name} must be a sequence of sentences (strings), got {type(texts).__name__}")
    for index, text in enumerate(texts):
        if not isinstance(text, str):
            raise InputError(f"{name}[{index}] must be a string, got {type(text).__name__}")
    return list(texts)


def check_parallel(sources: Any, hypotheses: Any, name: str = "hypotheses") -> tuple[list[str], list[str]]:
    """Sources and hypotheses (``name``: what messages call them), one per sentence each, the same
    number of them."""
    sources, hypotheses = check_texts("sources", sources), check_texts(name, hypotheses)
    if len(sources) != len(hypotheses):
        counted = plural(len(hypotheses), 'hypothesis', 'hypotheses')
        raise InputError(f"{counted if name == 'hypotheses' else f'{name}: {counted}'} for "
                         f"{plural(len(sources), 'source')}: one per source is needed")
    return sources, hypotheses


def corpus_mean(scores: np.ndarray) -> float:
    """The corpus score of SOME and IMPARA: the mean of the sentence scores (none: an error)."""
    if len(scores) == 0:
        raise InputError("no sentences to score")
    return float(np.sum(scores) / len(scores))
