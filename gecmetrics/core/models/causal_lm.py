"""A causal language model (GPT-2 and the like) loaded through transformers, and the perplexity
of sentences under it as the Scribendi Score's original code computes it, each distinct sentence
once.

Perplexity of a text (gotutiyan/scribendi_score, ``ScribendiScore.ppl``): the tokenizer's BOS
token is prepended to the text as a string (``bos_token + text``) and the result tokenized as is
(no other special tokens); the model predicts every token after the first; the perplexity is
``exp`` of the mean cross entropy of those predictions, in float32. A text with no token after
BOS (the empty text) has 0/0 = NaN, as in the original.

How the work is done: texts are tokenized once each (a text seen before is not tokenized or
scored again), grouped by token count and run in batches of one length (no padding, so a text's
numbers do not depend on what it is batched with), longest first; ``batch_size`` bounds the
sentences of a batch and ``token_budget`` its tokens. The original pads batches of 32 in input
order; with right padding and a causal mask this changes nothing but float rounding.

Perplexities can go through the persistent cache (:class:`Perplexities` ``cache``): a value is
stored under the model's weights fingerprint, dtype and computing path (the GPT-2 computed from
its weights, or transformers) and the exact token ids (BOS included, so the tokenizer is in the
key), in the namespace :data:`PERPLEXITY_NAMESPACE`; a later run or another system reads it
instead of running the model. The token ids of each text are stored too
(:mod:`~gecmetrics.core.models.token_ids`), and a :class:`CausalLMOnUse` loads the model only
when a text must be tokenized or scored (its identity is read back from the cache where a load
stored it), so a run whose every perplexity is stored imports neither torch nor transformers.
"""
from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

import numpy as np

from ..checks import check_count
from ...errors import InputError, LineRefused
from .identity import OnUse, recorded, request_key, strings
from .runtime import check_device, check_dtype, import_torch_transformers, set_threads
from .loading import (check_vocabulary, config_digest, first_line, load_checked, model_source, quiet_loading,
                      to_device)


class TextTooLong(LineRefused):
    """A text longer than the model's positions (``text``): the metric names the file and line
    that hold it (:meth:`located`); a reward gives it the fallback."""

    def __init__(self, message: str, text: str) -> None:
        super().__init__(message)
        self.message, self.text = message, text

    def located(self, places: Iterable[tuple[str, int, str]]) -> InputError:
        """The error at the first (file, line, text) of ``places`` whose text is this one."""
        for path, line, text in places:
            if text == self.text:
                return LineRefused(self.message, path, line)
        return self


@dataclass
class CausalLM:
    """A loaded tokenizer and causal LM on ``device`` in ``dtype``, with what identifies it:
    ``fingerprint``, the SHA-256 weights fingerprint (:func:`weights_fingerprint_of`; empty
    when unknown, which keeps its values out of the persistent cache)."""

    name: str
    tokenizer: Any
    model: Any
    device: Any
    dtype: str
    bos_token: str
    max_positions: int | None
    torch: Any
    fingerprint: str = ""
    config: str = ""
    """:func:`~gecmetrics.core.models.loading.config_digest` of its config.json ("" unknown)."""

    @property
    def direct(self) -> bool:
        """Whether the GPT-2 is computed from its weights (:mod:`~gecmetrics.core.models.gpt2`)
        rather than by transformers (they agree to float32 rounding, not to the bit)."""
        return bool(getattr(self.model, "direct", False))

    @functools.cached_property
    def token_namespace(self) -> str | None:
        """Where the token ids of :meth:`token_ids` are stored in the persistent cache (None:
        the tokenizer's files are unknown, they are not)."""
        from .token_ids import loaded_token_namespace

        return loaded_token_namespace("bos-prefixed", self.tokenizer, "defaults")

    @property
    def loaded(self) -> "CausalLM":
        return self

    def token_ids(self, texts: Sequence[str]) -> list[list[int]]:
        """Ids of ``bos_token + text`` for each text, tokenized as the original does (the
        tokenizer's defaults, one call for all texts; ``verbose=False``: a text longer than the
        model is one line of InputError when scored, without transformers' warning before it)."""
        if not texts:
            return []
        return [list(ids) for ids in self.tokenizer([self.bos_token + text for text in texts],
                                                    verbose=False)["input_ids"]]


LM_IDENTITIES = "models/causal-lm-identity/1"
"""The persistent cache's namespace of :class:`CausalLMOnUse` records."""


def _is_lm_record(record: dict) -> bool:
    positions = record.get("positions")
    return (set(record) == {"fingerprint", "config", "dtype", "direct", "positions", "tokens"}
            and strings(record, "fingerprint", "config", "dtype") and isinstance(record["direct"], bool)
            and (positions is None or (isinstance(positions, int) and not isinstance(positions, bool)))
            and (record["tokens"] is None or isinstance(record["tokens"], str)))


class CausalLMOnUse(OnUse):
    """:func:`load_causal_lm` (``name``, ``device``, ``dtype``) on first use of :attr:`loaded`
    (a text to tokenize or score; :class:`~.identity.OnUse`: on the torch threads of ``owner``).
    What keys its cached values and signs it (:attr:`fingerprint`, :attr:`config`,
    :attr:`dtype`, :attr:`direct`, :attr:`max_positions`, :attr:`token_namespace`: a
    :class:`CausalLM`'s) is read back from ``owner.cache`` where a load stored it, so a run that
    finds every token id and perplexity stored never loads the model."""

    identities = LM_IDENTITIES
    valid = staticmethod(_is_lm_record)

    def __init__(self, name: str, device: str | None = None, dtype: str = "float32", owner: Any = None) -> None:
        self.source = model_source(name)
        self._device, self._dtype = check_device(device), check_dtype(dtype)
        super().__init__(name, lambda: request_key(self.source, self._device, ["causal-lm", f"dtype-{self._dtype}"]),
                         owner)

    @property
    def loaded(self) -> CausalLM:
        return self.load()

    def _load_now(self) -> CausalLM:
        return load_causal_lm(self.source, self._device, self._dtype, threads=0)

    def _record_of(self, lm: CausalLM) -> dict:
        return {"fingerprint": lm.fingerprint, "config": lm.config, "dtype": lm.dtype, "direct": lm.direct,
                "positions": lm.max_positions, "tokens": lm.token_namespace}

    fingerprint = recorded("fingerprint")
    config = recorded("config")
    dtype = recorded("dtype")
    direct = recorded("direct")
    max_positions = recorded("positions")
    token_namespace = recorded("tokens")

    def token_ids(self, texts: Sequence[str]) -> list[list[int]]:
        """:meth:`CausalLM.token_ids` (loads the model)."""
        return self.loaded.token_ids(texts) if texts else []


def load_causal_lm(name: str, device: str | None = None, dtype: str = "float32", threads: int = 1) -> CausalLM:
    """Load a causal LM and its tokenizer by hub name or local folder, in evaluation mode, on
    ``device`` (default: CUDA when available, else CPU), weights in ``dtype``, computing on
    ``threads`` torch threads (0: torch's default)."""
    torch, transformers = import_torch_transformers()
    source = model_source(name)
    device = check_device(device)
    if device is not None:  # before the model loads, said of the device (a run may load it while signing)
        from .inference import resolve_device

        try:
            resolve_device(torch, device)
        except InputError as err:
            raise InputError(str(err).replace(f"device {device!r}", repr(device), 1), "device") from None
    check_dtype(dtype)
    set_threads(torch, threads)

    torch_dtype = getattr(torch, dtype)
    major = int(transformers.__version__.split(".")[0])
    options = {"dtype": torch_dtype} if major >= 5 else {"torch_dtype": torch_dtype}
    with quiet_loading(transformers):
        model = _direct_gpt2(torch, transformers, source, torch_dtype)
        if model is None:
            model = load_checked(transformers.AutoModelForCausalLM, source,
                                 "a causal language model (such as GPT2LMHeadModel)", **options)
        try:
            tokenizer = transformers.AutoTokenizer.from_pretrained(source)
        except Exception as err:
            raise InputError(f"no usable tokenizer for this model: {first_line(err)}", source) from None
    check_vocabulary(tokenizer, source)
    bos = getattr(tokenizer, "bos_token", None)
    if not isinstance(bos, str) or not bos:
        raise InputError("the model's tokenizer has no BOS token, which the perplexity needs", source)
    model, chosen = to_device(torch, model, device)
    model.eval()
    config = model.config if isinstance(model.config, dict) else model.config.to_dict()
    positions = config.get("n_positions") or config.get("max_position_embeddings")
    fingerprint = weights_fingerprint_of(torch, transformers, model, source, getattr(model, "direct", False))
    return CausalLM(name, tokenizer, model, chosen, dtype, bos, int(positions) if positions else None, torch,
                    fingerprint, config_digest(source))


def _direct_gpt2(torch: Any, transformers: Any, source: str, dtype: Any) -> Any:
    """The model as a :class:`~gecmetrics.core.models.gpt2.DirectGPT2` when it is a plain GPT-2
    with one weight file (in the folder, or in the hub cache), else None (transformers loads it)."""
    from .encoder import WEIGHT_NAMES, read_config
    from .gpt2 import DirectGPT2, read_weights, supports

    if os.path.isdir(source):
        config_path = os.path.join(source, "config.json")
        weights = next((os.path.join(source, n) for n in WEIGHT_NAMES if os.path.isfile(os.path.join(source, n))), None)
    else:
        try:
            config_path = transformers.utils.cached_file(source, "config.json")
            weights = None
            for name in WEIGHT_NAMES:
                try:
                    weights = transformers.utils.cached_file(source, name)
                except Exception:  # not in this repository
                    continue
                if weights:
                    break
        except Exception:  # not cached and no network, or no such model: transformers says which
            return None
    config = read_config(config_path)
    if weights is None or not supports(config):
        return None
    try:
        return DirectGPT2(torch, config, read_weights(torch, weights), dtype)
    except Exception as err:  # corrupt or incomplete weights
        raise InputError(f"cannot load the model: {first_line(err)}", source) from None


def weights_fingerprint_of(torch: Any, transformers: Any, model: Any, source: str, direct: bool) -> str:
    """The SHA-256 weights fingerprint of a loaded model (``source``: its folder or hub name),
    as the model metrics sign and key their cached values with
    (:func:`gecmetrics.core.models.tiny.weights_fingerprint`): for a model computed from its
    weights (``direct``: the GPT-2 here, the BERT encoder of ``encoder.py``), over the tensors
    of its weight file as stored (the file is read again: such a model keeps its tensors renamed,
    fused or transposed); for one transformers loaded, over its parameters; "" when neither
    can be had."""
    from .encoder import WEIGHT_NAMES, read_tensors
    from .tiny import weights_fingerprint

    if not direct:
        return weights_fingerprint({name: value.detach().float().cpu().numpy()
                                    for name, value in model.named_parameters()})
    path = None
    for file_name in WEIGHT_NAMES:
        if os.path.isdir(source):
            candidate = os.path.join(source, file_name)
            path = candidate if os.path.isfile(candidate) else None
        else:
            try:
                path = transformers.utils.cached_file(source, file_name)
            except Exception:  # not this file in the repository, or not cached
                path = None
        if path:
            break
    if not path:
        return ""
    return weights_fingerprint({name: value.float().numpy() for name, value in read_tensors(torch, path).items()})


PERPLEXITY_NAMESPACE = "models/causal-lm-perplexity/1"
"""Cached perplexities of texts under a causal LM: a float64 value per (model, token ids)."""


class Perplexities:
    """Perplexity of texts under a causal LM, each distinct text tokenized and scored once
    (kept for later calls), in length-sorted batches without padding.

    ``cache``: a persistent :class:`~gecmetrics.core.cache.Cache` (None: none): a perplexity
    computed by any earlier run with the same model, dtype and token ids is read instead of
    computed (values are stored as float64 bytes of the float32 result, so they read back bit
    for bit). ``scored_count`` counts the texts whose perplexity was asked for the first time;
    ``computed`` those the model ran on (cache hits not counted)."""

    def __init__(self, lm: CausalLM | CausalLMOnUse, batch_size: int = 32, token_budget: int = 16384,
                 cache: Any = None) -> None:
        from .inference import check_cache

        self.lm = lm
        self.threads = 0
        """torch threads set when a :class:`CausalLMOnUse` it owns is used (0: left as they are)."""
        self.batch_size = check_count(batch_size, "batch_size")
        self.token_budget = check_count(token_budget, "token_budget")
        self.cache = check_cache(cache)
        self.values: dict[str, float] = {}
        self.scored_count = 0
        self.computed = 0

    def forget(self) -> None:
        """Drop the perplexities kept so far (the persistent cache keeps its own): a scorer
        kept for a whole corpus read in chunks stays small."""
        self.values.clear()

    def identity(self) -> tuple[str, ...]:
        """What besides the token ids decides a perplexity, for cache keys: the full weights
        fingerprint, the config's digest, the dtype and the computing path. The device is left
        out (it changes only float rounding)."""
        return (self.lm.fingerprint, f"config:{self.lm.config}", self.lm.dtype,
                "direct" if self.lm.direct else "transformers")

    def __call__(self, texts: Iterable[str]) -> list[float]:
        """The perplexity of each text (a Python float holding the float32 value; NaN for a
        text with no token after BOS)."""
        texts = list(texts)
        for index, text in enumerate(texts):
            if not isinstance(text, str):
                raise InputError(f"perplexity: text {index + 1} is not a string ({type(text).__name__})")
        new = [text for text in dict.fromkeys(texts) if text not in self.values]
        if new:
            self._cached_score(new)
        return [self.values[text] for text in texts]

    def _cached_score(self, texts: list[str]) -> None:
        """Perplexities of new texts: from the persistent cache where it has them, the rest
        computed (and stored)."""
        from ..cache import cache_key
        from .inference import cached_values
        from .token_ids import cached_token_ids

        usable = self.cache is not None and self.cache.enabled
        ids = cached_token_ids(self.cache, self.lm.token_namespace if usable else None, texts, self.lm.token_ids)[0]
        self.scored_count += len(texts)
        if not usable or not self.lm.fingerprint:
            self._score(texts, ids)
            self.computed += len(texts)
            return

        identity = self.identity()
        rows = dict(zip(texts, ids))
        keys = {text: cache_key(*identity, np.asarray(row, dtype="<i4").tobytes()) for text, row in rows.items()}

        def compute(missing: list[str]) -> dict[str, float]:
            self._score(missing, [rows[text] for text in missing])
            return {text: self.values[text] for text in missing}

        values, computed = cached_values(self.cache, PERPLEXITY_NAMESPACE, keys, compute)
        self.values.update(values)
        self.computed += computed

    def _score(self, texts: list[str], ids: list[list[int]]) -> None:
        limit = self.lm.max_positions
        groups: dict[int, list[int]] = {}
        for index, row in enumerate(ids):
            if limit is not None and len(row) > limit:
                raise TextTooLong(f"a sentence has {len(row)} tokens with BOS, more than the model's {limit} "
                                  f"positions: {texts[index][:60]!r}", texts[index])
            groups.setdefault(len(row), []).append(index)
        lm = self.lm.loaded
        torch = lm.torch
        with torch.inference_mode():
            for length in sorted(groups, reverse=True):
                members = groups[length]
                size = max(1, min(self.batch_size, self.token_budget // length))
                for start in range(0, len(members), size):
                    batch = members[start:start + size]
                    values = self._batch([ids[i] for i in batch], length, lm)
                    for index, value in zip(batch, values):
                        self.values[texts[index]] = value

    def _batch(self, rows: list[list[int]], length: int, lm: CausalLM) -> list[float]:
        """exp(mean cross entropy of tokens 2..n) for rows of one length, in float32."""
        if length == 1:  # nothing to predict: 0/0, as the original's masked mean
            return [float("nan")] * len(rows)
        torch = lm.torch
        ids = torch.tensor(rows, dtype=torch.long, device=lm.device)
        model = lm.model
        if getattr(model, "direct", False):
            logits = model.logits(ids[:, :-1]).float()  # the last position predicts nothing used
        else:
            logits = model(input_ids=ids, use_cache=False).logits[:, :-1, :].float()
        targets = ids[:, 1:]
        loss = torch.nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1),
                                                 reduction="none").view(len(rows), length - 1)
        mean = loss.sum(dim=1) / (length - 1)
        return torch.exp(mean).cpu().tolist()
