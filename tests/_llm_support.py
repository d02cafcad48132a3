"""Shared by the LLM judge tests: a loopback chat-completions server, and a tiny seeded GPT-2
with a tokenizer built here (no download)."""
from __future__ import annotations

import hashlib
import json
import threading
import zlib
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Callable

# --------------------------------------------------------------------------------------------
# a loopback chat-completions server


def hashed_scores(prompt: str, n: int) -> list[int]:
    """Scores that depend only on the prompt: 1 + sha256(prompt)[k] % 5."""
    digest = hashlib.sha256(prompt.encode()).digest()
    return [1 + digest[k] % 5 for k in range(n)]


def targets_of(body: dict) -> int:
    """How many targets a request's answer scores (from its schema, else from the prompt)."""
    schema = (body.get("response_format") or {}).get("json_schema")
    if schema:
        return len(schema["schema"]["properties"])
    prompt = body["messages"][-1]["content"]
    return len(prompt.split("# targets\n", 1)[1].split("\n\n# output format", 1)[0].split("\n"))


def hashed_answer(body: dict) -> str:
    n = targets_of(body)
    return json.dumps({f"target_score{k + 1}": s for k, s in enumerate(hashed_scores(body["messages"][-1]["content"], n))})


Reply = tuple[int, Any, dict]
"""(status, JSON-able payload or a str body, extra headers)."""


def completion_reply(content: str | None, model: str = "test") -> Reply:
    return 200, {"id": "chatcmpl-test", "object": "chat.completion", "created": 0, "model": model,
                 "choices": [{"index": 0, "finish_reason": "stop",
                              "message": {"role": "assistant", "content": content}}],
                 "usage": {"prompt_tokens": 10, "completion_tokens": 3, "total_tokens": 13}}, {}


class LoopbackServer:
    """An HTTP server on 127.0.0.1 in a thread, for tests: requests go to ``handler``."""

    def __init__(self, handler: type) -> None:
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.02,), daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


class ChatServer(LoopbackServer):
    """A chat-completions server on 127.0.0.1 for tests. ``respond(body, attempt)`` gives the
    reply (``attempt``: how many times this prompt was asked before); by default hashed scores.
    Records every request body; ``hold_after=k`` makes request k+1 onwards wait for
    ``release()``."""

    def __init__(self, respond: Callable[[dict, int], Reply] | None = None, hold_after: int | None = None):
        self.respond = respond or (lambda body, attempt: completion_reply(hashed_answer(body), body.get("model", "")))
        self.bodies: list[dict] = []
        self.headers: list[dict] = []
        self.asked: Counter = Counter()
        self.hold_after = hold_after
        self.gate = threading.Event()
        self.lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            disable_nagle_algorithm = True  # headers and body leave at once (no delayed-ACK stalls)

            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with server.lock:
                    server.bodies.append(body)
                    server.headers.append(dict(self.headers))
                    prompt = body["messages"][-1]["content"]
                    attempt = server.asked[prompt]
                    server.asked[prompt] += 1
                    held = server.hold_after is not None and len(server.bodies) > server.hold_after
                if held:
                    server.gate.wait(60)
                status, payload, headers = server.respond(body, attempt)
                data = payload.encode() if isinstance(payload, str) else json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    for name, value in headers.items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        super().__init__(Handler)

    @property
    def requests(self) -> int:
        with self.lock:
            return len(self.bodies)

    def release(self) -> None:
        self.gate.set()

    def __exit__(self, *exc: Any) -> None:
        self.release()
        super().__exit__(*exc)


# --------------------------------------------------------------------------------------------
# a tiny seeded GPT-2 and its tokenizer (needs torch and transformers)

MISSING_EXTRA = "local LLM tests need torch and transformers (pip install 'gecmetrics[pt]')"
TINY_SEED = 2024


def require_backend() -> None:
    """Skip the calling test without torch and transformers."""
    import pytest

    pytest.importorskip("torch", reason=MISSING_EXTRA)
    pytest.importorskip("transformers", reason=MISSING_EXTRA)


def _tokenizer_corpus() -> list[str]:
    from gecmetrics.metrics.llm.answers import compact_answer
    from gecmetrics.metrics.llm.prompts import CRITERIA, TEMPLATES

    texts = list(TEMPLATES.values()) + [t for c in CRITERIA.values() for t in c.values()]
    texts += [compact_answer([k % 5 + 1 for k in range(n)]) for n in range(1, 6)]
    texts += ['{"target_score1": 3, "target_score2": 5}', "This is a sentence . He goes to school ."]
    return texts


def build_tiny_tokenizer(folder: Path, merges_wanted: int = 300) -> Any:
    """A byte-level BPE tokenizer: the 256 byte symbols, then left-to-right merges of the most
    frequent pre-tokens of the prompt templates (ties by text), so that words such as
    ``target`` and ``":`` are single tokens; every text is encodable."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    split = pre_tokenizers.ByteLevel(add_prefix_space=False)
    counts: Counter = Counter()
    for text in _tokenizer_corpus():
        counts.update(piece for piece, _ in split.pre_tokenize_str(text))
    vocab = {"<|endoftext|>": 0}
    for symbol in sorted(pre_tokenizers.ByteLevel.alphabet()):
        vocab[symbol] = len(vocab)
    merges: list[tuple[str, str]] = []
    for piece, _ in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
        left = piece[0]
        for char in piece[1:]:
            joined = left + char
            if joined not in vocab:
                if len(merges) >= merges_wanted:
                    break
                merges.append((left, char))
                vocab[joined] = len(vocab)
            left = joined
    model = Tokenizer(models.BPE(vocab=vocab, merges=merges))
    model.pre_tokenizer = split
    model.decoder = decoders.ByteLevel()
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=model, eos_token="<|endoftext|>",
                                        bos_token="<|endoftext|>", pad_token="<|endoftext|>")
    tokenizer.save_pretrained(str(folder))
    return tokenizer


def tiny_parameter(name: str, shape: tuple[int, ...], seed: int):
    """LayerNorm gains 1, biases 0, other weights N(0, 1) for embeddings and N(0, 0.2^2) else,
    from ``RandomState(seed + crc32(name))``."""
    import numpy as np

    if ".ln_" in name or name.startswith("transformer.ln_f"):
        return np.ones(shape, np.float32) if name.endswith("weight") else np.zeros(shape, np.float32)
    if name.endswith(".bias"):
        return np.zeros(shape, np.float32)
    scale = 1.0 if ("wte" in name or "wpe" in name) else 0.2
    stream = np.random.RandomState((seed + zlib.crc32(name.encode())) % 2**32)
    return (stream.standard_normal(size=shape) * scale).astype(np.float32)


def build_tiny_gpt2(folder: Path, seed: int = TINY_SEED) -> Path:
    """A 2-layer GPT-2 (hidden 32, 2048 positions) with seeded weights and the tiny tokenizer."""
    import torch
    import transformers
    from transformers import GPT2Config, GPT2LMHeadModel

    folder.mkdir(parents=True, exist_ok=True)
    tokenizer = build_tiny_tokenizer(folder)
    config = GPT2Config(vocab_size=len(tokenizer), n_positions=2048, n_embd=32, n_layer=2, n_head=2,
                        bos_token_id=0, eos_token_id=0, pad_token_id=0)
    model = GPT2LMHeadModel(config)
    with torch.no_grad():
        for name, parameter in model.named_parameters():
            parameter.copy_(torch.from_numpy(tiny_parameter(name, tuple(parameter.shape), seed)))
    model.eval()
    logging = transformers.utils.logging
    logging.disable_progress_bar()
    try:
        model.save_pretrained(str(folder))
    finally:
        logging.enable_progress_bar()
    return folder
