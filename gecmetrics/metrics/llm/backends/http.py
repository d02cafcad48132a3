"""An OpenAI-compatible chat-completions client on the standard library alone.

It sends what gec-metrics' OpenAI classes send (system message "You are a helpful assistant.",
the prompt as the user message, the answer's JSON schema as ``response_format``, ``seed`` 777)
to ``<base_url>/chat/completions`` of OpenAI or of any server speaking the same protocol (vLLM,
llama.cpp's server, Ollama, Gemini's OpenAI endpoint). Requests run on ``concurrency`` threads
under a requests-per-minute limit; 408/409/429/5xx replies, timeouts and dropped connections are
retried with exponential backoff (``Retry-After`` honoured); a request still failing is returned
as an error, and replies that make every request fail (a bad key, an unknown model, an
unsupported ``response_format``, an unreachable server) stop the run with a
:class:`~.base.BackendError`.
"""
from __future__ import annotations

import http.client
import json
import os
import random
import socket
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import Any, Callable, Iterator, Sequence

from ..answers import compact_answer, response_format
from .base import SYSTEM_MESSAGE, BackendError, ChatRequest, Completion, estimate_tokens, settings_text

STRUCTURED = ("json_schema", "json_object", "none")
"""``json_schema``: the answer schema as structured output (gec-metrics' request);
``json_object``: any JSON object; ``none``: no ``response_format`` (the prompt alone asks)."""
TRANSIENT_STATUS = {408, 409, 429, 500, 502, 503, 504}
FATAL_STATUS = {401, 403, 404}


class RateLimiter:
    """At most ``per_minute`` request starts a minute, spread evenly (one every 60/per_minute
    seconds), shared by all threads; ``clock`` and ``sleep`` are injectable for tests."""

    def __init__(self, per_minute: float | None, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep):
        if per_minute is not None and not per_minute > 0:
            raise BackendError(f"requests_per_minute must be positive, not {per_minute!r}")
        self.interval = 0.0 if per_minute is None else 60.0 / per_minute
        self.clock, self.sleep = clock, sleep
        self._next = -float("inf")
        self._lock = threading.Lock()

    def acquire(self) -> float:
        """Wait for the next free slot; the seconds waited."""
        if not self.interval:
            return 0.0
        with self._lock:
            now = self.clock()
            slot = max(now, self._next)
            self._next = slot + self.interval
        delay = slot - now
        if delay > 0:
            self.sleep(delay)
        return delay


class _Transient(Exception):
    def __init__(self, what: str, retry_after: float | None = None, unreachable: bool = False):
        super().__init__(what)
        self.retry_after = retry_after
        self.unreachable = unreachable


def _retry_after(value: str | None) -> float | None:
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None


class OpenAICompatibleBackend:
    """Chat completions over HTTP (see the module text). The key is read from the environment
    variable ``api_key_env`` (never stored, never in cache keys); ``key_required`` makes its
    absence an error (hosted APIs), else no ``Authorization`` header is sent (local servers).
    ``temperature``, ``top_p``, ``max_tokens`` are sent only when given (gec-metrics sends none);
    ``extra_body`` adds fields to every request. Sleeping and randomness are injectable."""

    provider = "openai-compatible"

    def __init__(self, model: str, base_url: str, *, api_key_env: str | None = None, key_required: bool = False,
                 structured: str = "json_schema", seed: int | None = 777, temperature: float | None = None,
                 top_p: float | None = None, max_tokens: int | None = None,
                 system_message: str | None = SYSTEM_MESSAGE, extra_body: dict[str, Any] | None = None,
                 concurrency: int = 4, requests_per_minute: float | None = None, max_retries: int = 5,
                 backoff: float = 1.0, max_backoff: float = 60.0, timeout: float = 120.0,
                 sleep: Callable[[float], None] = time.sleep, rng: random.Random | None = None):
        if not isinstance(model, str) or not model:
            raise BackendError("the model name is missing")
        if not isinstance(base_url, str) or not base_url.startswith(("http://", "https://")):
            raise BackendError(f"base_url must be an http(s) URL, not {base_url!r}")
        if structured not in STRUCTURED:
            raise BackendError(f"structured must be one of {', '.join(STRUCTURED)}, not {structured!r}")
        for name, value, low in (("concurrency", concurrency, 1), ("max_retries", max_retries, 0)):
            if not isinstance(value, int) or isinstance(value, bool) or value < low:
                raise BackendError(f"{name} must be an integer >= {low}, not {value!r}")
        if max_tokens is not None and (not isinstance(max_tokens, int) or max_tokens < 1):
            raise BackendError(f"max_tokens must be a positive integer, not {max_tokens!r}")
        if not timeout > 0 or backoff < 0 or max_backoff < 0:
            raise BackendError("timeout must be positive, backoff and max_backoff not negative")
        self.model = model
        self.base_url = base_url.rstrip("/")
        self.api_key_env = api_key_env
        self._key = os.environ.get(api_key_env) if api_key_env else None
        if key_required and not self._key:
            raise BackendError(f"no API key: set the environment variable {api_key_env}")
        self.structured, self.seed, self.temperature, self.top_p = structured, seed, temperature, top_p
        self.max_tokens, self.system_message = max_tokens, system_message
        self.extra_body = dict(extra_body or {})
        self.concurrency, self.max_retries = concurrency, max_retries
        self.backoff, self.max_backoff, self.timeout = backoff, max_backoff, timeout
        self.limiter = RateLimiter(requests_per_minute, sleep=sleep)
        self.sleep = sleep
        self.rng = rng or random.Random()
        self.stats: Counter = Counter()
        self._lock = threading.Lock()

    # identity ---------------------------------------------------------------------------------
    def settings(self) -> dict[str, Any]:
        """The request settings that change answers."""
        return {"structured": self.structured, "seed": self.seed, "temperature": self.temperature,
                "top_p": self.top_p, "max_tokens": self.max_tokens, "system": self.system_message,
                "extra_body": self.extra_body}

    def cache_namespace(self) -> str:
        return f"llm/{self.provider}/{self.model}"

    def cache_parts(self) -> tuple[str, ...]:
        return (self.provider, self.base_url, self.model, settings_text(self.settings()))

    # requests ---------------------------------------------------------------------------------
    def request_body(self, request: ChatRequest) -> dict[str, Any]:
        """The JSON body of one request (with the defaults, gec-metrics' body)."""
        messages = [] if self.system_message is None else [{"role": "system", "content": self.system_message}]
        messages.append({"role": "user", "content": request.prompt})
        body: dict[str, Any] = {"model": self.model, "stream": False, "messages": messages}
        if self.structured == "json_schema":
            body["response_format"] = response_format(request.n_targets)
        elif self.structured == "json_object":
            body["response_format"] = {"type": "json_object"}
        for name in ("seed", "temperature", "top_p", "max_tokens"):
            if getattr(self, name) is not None:
                body[name] = getattr(self, name)
        body.update(self.extra_body)
        return body

    def count_tokens(self, request: ChatRequest) -> tuple[int, int, bool]:
        """Estimated (prompt, answer) tokens: 4 characters a token plus 4 a message."""
        prompt = estimate_tokens(request.prompt) + 4
        if self.system_message is not None:
            prompt += estimate_tokens(self.system_message) + 4
        return prompt, estimate_tokens(compact_answer([5] * request.n_targets)), False

    def _count(self, what: str) -> None:
        with self._lock:
            self.stats[what] += 1

    def _post(self, body: dict[str, Any]) -> dict[str, Any]:
        """One HTTP exchange: the decoded reply, :class:`_Transient` or :class:`BackendError`."""
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self._key:
            headers["Authorization"] = f"Bearer {self._key}"
        url = f"{self.base_url}/chat/completions"
        data = json.dumps(body, ensure_ascii=False).encode()
        self.limiter.acquire()
        self._count("http_requests")
        try:
            with urllib.request.urlopen(urllib.request.Request(url, data, headers, method="POST"),
                                        timeout=self.timeout) as reply:
                raw = reply.read()
        except urllib.error.HTTPError as error:
            text = error.read().decode("utf-8", "replace")[:300]
            self._count(f"http_{error.code}")
            if error.code in TRANSIENT_STATUS:
                raise _Transient(f"HTTP {error.code}", _retry_after(error.headers.get("Retry-After"))) from None
            if error.code in FATAL_STATUS or "response_format" in text or "json_schema" in text:
                hint = ""
                if error.code in (401, 403):
                    hint = f" (check the key in ${self.api_key_env})" if self.api_key_env else " (the server wants a key: api_key_env)"
                elif error.code == 404:
                    hint = f" (check the model name {self.model!r} and base_url {self.base_url})"
                elif self.structured != "none":
                    hint = " (the server may not support this response_format: try structured=json_object or none)"
                raise BackendError(f"{url}: HTTP {error.code}: {text.strip()}{hint}") from None
            return {"_error": f"HTTP {error.code}: {text.strip()}"}
        except (socket.timeout, TimeoutError):
            self._count("timeouts")
            raise _Transient("timeout") from None
        except urllib.error.URLError as error:
            self._count("connection_errors")
            unreachable = isinstance(error.reason, (ConnectionRefusedError, socket.gaierror))
            raise _Transient(f"cannot connect: {error.reason}", unreachable=unreachable) from None
        except (ConnectionError, http.client.HTTPException) as error:
            self._count("connection_errors")
            raise _Transient(f"connection lost: {error}") from None
        try:
            return json.loads(raw)
        except ValueError:
            return {"_error": f"reply is not JSON: {raw[:80]!r}"}

    def delay(self, attempt: int, retry_after: float | None) -> float:
        """Seconds before retry ``attempt`` (0-based): ``Retry-After`` if given (at most ten
        minutes), else ``backoff * 2**attempt`` with jitter (50-100%), at most ``max_backoff``."""
        if retry_after is not None:
            return min(retry_after, 600.0)
        return min(self.max_backoff, self.backoff * 2 ** attempt) * (0.5 + 0.5 * self.rng.random())

    def complete(self, request: ChatRequest) -> Completion:
        """One request with its retries."""
        body = self.request_body(request)
        for attempt in range(self.max_retries + 1):
            try:
                reply = self._post(body)
            except _Transient as failure:
                if attempt == self.max_retries:
                    if failure.unreachable:
                        raise BackendError(f"cannot reach {self.base_url}: {failure} "
                                           f"(is the server running?)") from None
                    return Completion(error=f"{failure} after {attempt + 1} attempts")
                self._count("retries")
                self.sleep(self.delay(attempt, failure.retry_after))
                continue
            if "_error" in reply:
                return Completion(error=reply["_error"])
            usage = reply.get("usage") or {}
            content = None
            try:
                content = reply["choices"][0]["message"]["content"]
            except (KeyError, IndexError, TypeError):
                pass
            return Completion(content=content if isinstance(content, str) else None,
                              prompt_tokens=int(usage.get("prompt_tokens") or 0),
                              completion_tokens=int(usage.get("completion_tokens") or 0))
        raise AssertionError("unreachable")

    def generate(self, requests: Sequence[ChatRequest]) -> Iterator[tuple[int, Completion]]:
        """Completions as they end, ``concurrency`` requests at a time (at most that many in
        flight, so a stopped run leaves little unfinished)."""
        if self.concurrency == 1 or len(requests) <= 1:
            for i, request in enumerate(requests):
                yield i, self.complete(request)
            return
        executor = ThreadPoolExecutor(max_workers=self.concurrency, thread_name_prefix="llm-http")
        running: dict[Future, int] = {}
        todo = iter(enumerate(requests))
        try:
            while True:
                for i, request in todo:
                    running[executor.submit(self.complete, request)] = i
                    if len(running) >= self.concurrency:
                        break
                if not running:
                    return
                finished, _ = wait(list(running), return_when=FIRST_COMPLETED)
                for future in finished:
                    i = running.pop(future)
                    yield i, future.result()
        finally:
            executor.shutdown(wait=True, cancel_futures=True)

    def close(self) -> None:
        """Nothing to release (a connection per request)."""
