"""What the judge asks of a backend: answer chat requests, say what identifies its answers."""
from __future__ import annotations

import hashlib
import json
import math
import re
import urllib.parse
from dataclasses import dataclass
from typing import Any, Iterator, Protocol, Sequence

from ....errors import InputError, shown

SYSTEM_MESSAGE = "You are a helpful assistant."
"""The system message gec-metrics sends with OpenAI models (its local models get none)."""
KEY_VARIABLE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
"""What ``api_key_env`` may be: the name of an environment variable (a key given there instead is
refused without being shown)."""


class BackendError(InputError):
    """A backend that cannot work at all (no key, unknown model, unreachable server, a request
    the server rejects): one line for the user; the answers already received stay cached."""


def check_base_url(url: object) -> str:
    """``url`` as the root of an OpenAI-compatible API (``/chat/completions`` is appended), without
    its trailing ``/``. Credentials (``user:password@``) and a query string or fragment are refused:
    they would not reach the server as meant, and the URL is printed in errors and signatures, so a
    key written there would be shown. The message never repeats those parts."""
    if not isinstance(url, str) or not url.lower().startswith(("http://", "https://")):
        # (a URL given as bytes is shown as little: b'http://user:key@host' repeated the key)
        hidden = isinstance(url, (str, bytes, bytearray)) and any(mark in str(url) for mark in "@?#")  # it may hold a key
        raise BackendError("base_url must be an http(s) URL" + (" (a str)" if isinstance(url, (bytes, bytearray)) else "")
                           + ("" if hidden else f", not {shown(url)}"))
    if any(c.isspace() or not c.isprintable() for c in url):  # sent as it is, it fails at every prompt
        raise BackendError("base_url holds a space or a control character (a URL has none: percent-encode it)")
    try:
        parts = urllib.parse.urlsplit(url)
        parts.port  # noqa: B018 (raises on a port that is not a number)
    except ValueError:
        raise BackendError("base_url is not a valid URL (check its host and port)") from None
    where = f"{parts.scheme}://{parts.netloc.rpartition('@')[2]}"
    if "@" in parts.netloc:
        raise BackendError(f"base_url {where}...: credentials (user:password@) do not belong in the URL; "
                           "put the key in the environment variable the provider reads (api_key_env)")
    if parts.query or parts.fragment or url.rstrip("/").endswith(("?", "#")):
        raise BackendError(f"base_url {where}{parts.path}: no query string or fragment ('?...', '#...'): "
                           "the request path /chat/completions is appended to it")
    if not parts.hostname:
        raise BackendError(f"base_url {url!r} has no host")
    return (parts.scheme + url[url.index(":"):]).rstrip("/")  # HTTPS://... as https://...


@dataclass(frozen=True)
class ChatRequest:
    """One prompt: the user message and how many targets its answer scores."""

    prompt: str
    n_targets: int


@dataclass
class Completion:
    """A backend's reply to one request: the answer text, or ``error`` (the request failed
    after the backend's own retries), and the tokens it used when known."""

    content: str | None = None
    error: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    holds_key: bool = False
    """Whether the content repeats the API key: it is scored as given, but never kept or shown
    (the cache keeps its scores in the canonical form, a message does not quote it)."""


class Backend(Protocol):
    """A model that answers :class:`ChatRequest` s (see ``http.py`` and ``local.py``)."""

    provider: str
    model: str

    def cache_namespace(self) -> str:
        """The cache namespace of its answers (``llm/<provider>/<model>``)."""

    def cache_parts(self, cache: Any = None) -> tuple[str, ...]:
        """Everything besides the prompt that changes an answer (server, model fingerprint,
        decoding settings): parts of the cache key. ``cache``: the run's persistent cache, where
        a backend may keep what it needs to know them without loading its model (a local one's
        tokenizer record)."""

    def generate(self, requests: Sequence[ChatRequest]) -> Iterator[tuple[int, Completion]]:
        """(index into ``requests``, completion) for every request, in any order, as they end."""

    def count_tokens(self, request: ChatRequest) -> tuple[int, int, bool]:
        """(prompt tokens, answer tokens, exact?) of one request, for the dry run."""

    def close(self) -> None:
        """Release threads, connections or memory."""


BACKEND_METHODS = ("cache_namespace", "cache_parts", "generate", "count_tokens", "close")


def check_backend(backend: Any) -> Any:
    """A :class:`Backend`: an object with its methods (capabilities, not a class: any object
    that has them will do); else an InputError naming what is missing."""
    missing = [name for name in BACKEND_METHODS if not callable(getattr(backend, name, None))]
    if missing:
        raise InputError(f"backend must be an LLM backend (OpenAICompatibleBackend, TransformersBackend or an "
                         f"object with {', '.join(BACKEND_METHODS)}), got {type(backend).__name__} without "
                         f"{', '.join(missing)}")
    return backend


MAX_TOKEN_COUNT = 10**15
"""The largest token count (a reply's ``usage``, a backend's completion) taken as one (larger: an odd count, 0)."""


def token_count(value: Any) -> int:
    """A token count a server or a backend gave: a non-negative integer up to MAX_TOKEN_COUNT,
    else 0 (odd accounting never stops a run whose answer is good)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_TOKEN_COUNT:
        return 0
    return value


def settings_text(settings: dict[str, Any]) -> str:
    """Decoding settings as one canonical string (sorted keys), for cache keys."""
    return json.dumps(settings, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def short_hash(text: str) -> str:
    """A short SHA-256 of a text (chat templates in cache keys)."""
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def estimate_tokens(text: str) -> int:
    """A rough token count for a model whose tokenizer is not at hand: 4 characters a token."""
    return math.ceil(len(text) / 4)
