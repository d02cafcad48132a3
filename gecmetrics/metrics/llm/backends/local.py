"""A local ``transformers`` causal LM answering with constrained greedy decoding.

Like gec-metrics' Hugging Face classes, the prompt is the user message of the tokenizer's chat
template (``add_generation_prompt`` off and no system message by default, as gec-metrics calls
it), or the bare prompt when the tokenizer has no template. The answer is decoded greedily
under :class:`~.grammar.ScoreGrammar` (so it is always a valid 1-5 score per target), several
prompts at a time: left-padded batches of similar lengths, with a key-value cache and position
ids that ignore the padding (a prompt gets the same answer in any batch).

torch and transformers are optional (``pip install 'gecmetrics[pt]'``) and imported on first use.
The cache keys of the answers name the tokenizer's chat template (by its digest); for a model
folder, what the tokenizer says of it is kept in the persistent cache under the digest of the
folder's files (:class:`JudgeTokenizer`, :data:`TOKENIZER_IDENTITIES`),
so a run whose answers are all stored loads neither the tokenizer nor the model, and imports
neither torch nor transformers.
"""
from __future__ import annotations

import inspect
import os
from typing import Any, Iterator, Sequence

from ....core.models.folders import folder_fingerprint
from ....core.models.identity import OnUse, tokenizer_request_key
from ....core.models.inference import resolve_device
from ....core.models.runtime import check_device
from ....core.models.loading import check_vocabulary, load_checked, model_source
from ....errors import InputError
from ..answers import compact_answer
from .base import BackendError, ChatRequest, Completion, settings_text, short_hash
from .grammar import GRAMMAR_VERSION, ScoreGrammar, TokenTable, token_strings

INSTALL_HINT = "pip install 'gecmetrics[pt]'"
DTYPES = ("auto", "float32", "float16", "bfloat16")
TOKENIZER_IDENTITIES = "llm/transformers-tokenizer-identity/1"
"""The persistent cache's namespace of a local judge's tokenizer records: whether the tokenizer
has a chat template, and its digest."""


def _is_tokenizer_record(record: dict) -> bool:
    return (set(record) == {"has_template", "template"} and isinstance(record["has_template"], bool)
            and isinstance(record["template"], str))


def _import() -> tuple[Any, Any]:
    try:
        import torch
        import transformers
    except ImportError as err:
        raise BackendError(f"local models need torch and transformers ({err}): {INSTALL_HINT}") from None
    return torch, transformers


class JudgeTokenizer(OnUse):
    """A local judge's tokenizer, loaded on first use (:class:`~gecmetrics.core.models.identity.OnUse`);
    its record, whether it has a chat template and the template's digest, is kept under the
    digest of the model folder's files (none for a hub name: it is loaded to know)."""

    identities = TOKENIZER_IDENTITIES
    valid = staticmethod(_is_tokenizer_record)
    sets_threads = False

    def __init__(self, model: str, folder: str | None, trust_remote_code: bool) -> None:
        self.folder, self.trust_remote_code = folder, trust_remote_code
        settings = ["llm-judge", f"trust_remote_code-{trust_remote_code}"]
        super().__init__(model, lambda: None if folder is None else tokenizer_request_key(folder, settings))

    def _load_now(self) -> Any:
        _, transformers = _import()
        try:
            tokenizer = transformers.AutoTokenizer.from_pretrained(self.folder or self.name,
                                                                   trust_remote_code=self.trust_remote_code)
        except Exception as err:  # OSError, ValueError ... by case
            raise BackendError(f"{self.name}: no usable tokenizer: {str(err).strip().splitlines()[0]}") from None
        # a folder without vocabulary files gives one that knows only the special tokens: every prompt
        # encoded as nothing (torch then failed to reshape an empty batch)
        return check_vocabulary(tokenizer, self.folder or self.name)

    def _record_of(self, tokenizer: Any) -> dict:
        template = getattr(tokenizer, "chat_template", None)
        return {"has_template": bool(template), "template": short_hash(template) if isinstance(template, str) else ""}


class TransformersBackend:
    """A causal LM from a local folder (or a name in the local Hugging Face cache).

    ``device``: ``cpu``, ``cuda``, ``cuda:1`` ..., ``mps`` or None (CUDA when torch sees one);
    ``dtype``: one of :data:`DTYPES`; ``batch_size`` prompts decoded together; ``chat_template``:
    None = use the tokenizer's if it has one; ``add_generation_prompt`` and ``system_message``
    are passed to the template.
    A model folder's tokenizer loads on first use (the dry run counts with it; a hub name's at
    once), the model when an answer is decoded.
    """

    provider = "transformers"

    def __init__(self, model: str, *, device: str = "cpu", dtype: str = "auto", batch_size: int = 8,
                 chat_template: bool | None = None, add_generation_prompt: bool = False,
                 system_message: str | None = None, trust_remote_code: bool = False):
        if not isinstance(model, str) or not model.strip():
            raise BackendError("the local model must be a folder or a model name")
        if dtype not in DTYPES:
            raise BackendError(f"dtype must be one of {', '.join(DTYPES)}, not {dtype!r}")
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size < 1:
            raise BackendError(f"batch_size must be a positive integer, not {batch_size!r}")
        self.model = model
        self.device, self.dtype, self.batch_size = check_device(device), dtype, batch_size
        self.add_generation_prompt, self.system_message = add_generation_prompt, system_message
        self.trust_remote_code = trust_remote_code
        self.folder = os.path.expanduser(model) if os.path.isdir(os.path.expanduser(model)) else None
        if self.folder is None:  # a path that is no folder, or a name neither cached nor on a reachable hub:
            try:  # one line now (transformers would retry the hub for about a minute)
                model_source(model)
            except InputError as err:
                raise BackendError(str(err)) from None
        self.chat_template = chat_template
        self._tokenizer = JudgeTokenizer(model, self.folder, trust_remote_code)
        self._model: Any = None
        self._table: TokenTable | None = None
        self._fingerprint: str | None = None
        self._grammars: dict[int, ScoreGrammar] = {}
        if self.folder is None:  # a hub name: no record can be kept of it, so its tokenizer is needed at once
            self._tokenizer.load()

    # tokenizer --------------------------------------------------------------------------------
    @property
    def tokenizer(self) -> Any:
        """The model's tokenizer, loaded now if it is not yet."""
        return self._tokenizer.load()

    def _template(self, cache: Any = None) -> tuple[bool, str | None]:
        """Whether the prompts go through the chat template, and its digest (None without):
        from the tokenizer's record, read back from ``cache`` when it holds one."""
        record = self._tokenizer.record(cache)
        if self.chat_template and not record["has_template"]:
            raise BackendError(f"{self.model}: the tokenizer has no chat template")
        use = record["has_template"] if self.chat_template is None else bool(self.chat_template)
        return use, (record["template"] or None) if use else None

    @property
    def use_template(self) -> bool:
        return self._template()[0]

    # identity ---------------------------------------------------------------------------------
    @property
    def name(self) -> str:
        """The model's name: a folder's base name, else the name given."""
        return os.path.basename(os.path.normpath(self.folder)) if self.folder else self.model

    def fingerprint(self) -> str:
        """What identifies the weights: the folder's files, or the hub revision loaded."""
        if self._fingerprint is None:
            if self.folder:
                self._fingerprint = folder_fingerprint(self.folder)
            else:
                revision = getattr(self._load().config, "_commit_hash", None)
                self._fingerprint = f"{self.model}@{revision}"
        return self._fingerprint

    def settings(self, cache: Any = None) -> dict[str, Any]:
        """The settings that change answers (the device does not, up to rounding)."""
        return {"decoding": "greedy", "grammar": GRAMMAR_VERSION, "dtype": self.dtype,
                "chat_template": self._template(cache)[1],
                "add_generation_prompt": self.add_generation_prompt, "system": self.system_message}

    def cache_namespace(self) -> str:
        return f"llm/{self.provider}/{self.name}"

    def cache_parts(self, cache: Any = None) -> tuple[str, ...]:
        return (self.provider, self.fingerprint(), settings_text(self.settings(cache)))

    # model ------------------------------------------------------------------------------------
    def _load(self) -> Any:
        if self._model is None:
            torch, transformers = _import()
            device = resolve_device(torch, self.device)  # (None: CUDA when torch sees one; one line if absent)
            # a checkpoint of another architecture (weights the LM needs are missing: transformers
            # would start them at random) is one line, as for the other model metrics
            model = load_checked(transformers.AutoModelForCausalLM, self.folder or self.model,
                                 "a causal language model (such as GPT2LMHeadModel)", dtype=self.dtype,
                                 trust_remote_code=self.trust_remote_code)
            try:
                model.to(device)
            except Exception as err:  # a device torch cannot use
                raise BackendError(f"{self.model}: cannot load the model: {str(err).strip().splitlines()[0]}") from None
            model.eval()
            self._model = model
        return self._model

    def model_input(self, prompt: str) -> str:
        """The text the model reads for one prompt."""
        if not self.use_template:
            return prompt
        messages = [] if self.system_message is None else [{"role": "system", "content": self.system_message}]
        messages.append({"role": "user", "content": prompt})
        return self.tokenizer.apply_chat_template(messages, tokenize=False,
                                                  add_generation_prompt=self.add_generation_prompt)

    def encode(self, prompt: str) -> list[int]:
        """Token ids of the model input (special tokens added only without a chat template,
        whose text already has them)."""
        return self.tokenizer(self.model_input(prompt), add_special_tokens=not self.use_template)["input_ids"]

    def count_tokens(self, request: ChatRequest) -> tuple[int, int, bool]:
        """Prompt tokens counted with the tokenizer; answer tokens of a compact answer."""
        answer = self.tokenizer(compact_answer([5] * request.n_targets), add_special_tokens=False)["input_ids"]
        return len(self.encode(request.prompt)), len(answer), True

    def grammar(self, n: int) -> ScoreGrammar:
        if n not in self._grammars:
            self._grammars[n] = ScoreGrammar(n)
        return self._grammars[n]

    def table(self) -> TokenTable:
        if self._table is None:
            self._table = TokenTable(token_strings(self.tokenizer))
        return self._table

    # decoding ---------------------------------------------------------------------------------
    def generate(self, requests: Sequence[ChatRequest]) -> Iterator[tuple[int, Completion]]:
        """Answers batch by batch (prompts sorted by length, longest first)."""
        encoded = [self.encode(r.prompt) for r in requests]
        positions = self._positions()
        fits = []
        for i, (ids, request) in enumerate(zip(encoded, requests)):
            needed = len(ids) + self.grammar(request.n_targets).max_length
            if positions is not None and needed > positions:  # (the model's position table would be read past its end)
                yield i, Completion(error=f"the prompt and its answer take {needed} tokens, more than the model's "
                                          f"{positions} positions", prompt_tokens=len(ids))
            else:
                fits.append(i)
        order = sorted(fits, key=lambda i: -len(encoded[i]))
        for start in range(0, len(order), self.batch_size):
            batch = order[start:start + self.batch_size]
            texts = self.decode_batch([encoded[i] for i in batch], [requests[i].n_targets for i in batch])
            for i, (text, used) in zip(batch, texts):
                yield i, Completion(content=text, prompt_tokens=len(encoded[i]), completion_tokens=used)

    def _positions(self) -> int | None:
        """How many tokens the model reads at most (its position table), None when its config does
        not say (a model with relative positions)."""
        config = self._load().config
        found = getattr(config, "n_positions", None) or getattr(config, "max_position_embeddings", None)
        return found if isinstance(found, int) and found > 0 else None

    def decode_batch(self, inputs: Sequence[Sequence[int]], sizes: Sequence[int]) -> list[tuple[str, int]]:
        """Constrained greedy answers (text, tokens) for token id lists of one batch."""
        torch, _ = _import()
        model = self._load()
        table = self.table()
        grammars = [self.grammar(n) for n in sizes]
        pad = self.tokenizer.pad_token_id
        if pad is None:
            pad = self.tokenizer.eos_token_id if self.tokenizer.eos_token_id is not None else 0
        width = max(len(ids) for ids in inputs)
        rows = len(inputs)
        device = model.device
        input_ids = torch.full((rows, width), pad, dtype=torch.long)
        mask = torch.zeros((rows, width), dtype=torch.long)
        for r, ids in enumerate(inputs):
            input_ids[r, width - len(ids):] = torch.tensor(list(ids), dtype=torch.long)
            mask[r, width - len(ids):] = 1
        input_ids, mask = input_ids.to(device), mask.to(device)
        positions = (mask.cumsum(-1) - 1).clamp(min=0)
        accepted = set(inspect.signature(model.forward).parameters)
        cache_name = "past_key_values" if "past_key_values" in accepted else "cache"  # transformers 5: cache
        first = {"logits_to_keep": 1} if "logits_to_keep" in accepted else {}
        states = [g.start for g in grammars]
        texts = [""] * rows
        used = [0] * rows
        active = [True] * rows
        with torch.inference_mode():
            out = model(input_ids=input_ids, attention_mask=mask, position_ids=positions, use_cache=True, **first)
            for _ in range(max(g.max_length for g in grammars)):
                logits = out.logits[:, -1, :].float().cpu().numpy()
                chosen = [pad] * rows
                for r in range(rows):
                    if not active[r]:
                        continue
                    ids, nxt = table.allowed(grammars[r], states[r])
                    if len(ids) == 0:  # the vocabulary cannot continue the answer
                        active[r] = False
                        continue
                    best = int(logits[r, ids].argmax())
                    chosen[r] = int(ids[best])
                    states[r] = int(nxt[best])
                    texts[r] += table.strings[chosen[r]]  # type: ignore[operator]
                    used[r] += 1
                    if grammars[r].is_final(states[r]):
                        active[r] = False
                if not any(active):
                    break
                step = torch.tensor(chosen, dtype=torch.long, device=device)[:, None]
                mask = torch.cat([mask, torch.ones((rows, 1), dtype=mask.dtype, device=device)], dim=1)
                positions = positions[:, -1:] + 1
                past = out.get("past_key_values", out.get("cache"))
                out = model(input_ids=step, attention_mask=mask, position_ids=positions, use_cache=True,
                            **{cache_name: past})
        return list(zip(texts, used))

    def close(self) -> None:
        """Drop the model (and free its memory)."""
        self._model = None
