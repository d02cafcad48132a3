"""What the judge asks of a backend: answer chat requests, say what identifies its answers."""
from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from typing import Any, Iterator, Protocol, Sequence

from ....errors import InputError

SYSTEM_MESSAGE = "You are a helpful assistant."
"""The system message gec-metrics sends with OpenAI models (its local models get none)."""


class BackendError(InputError):
    """A backend that cannot work at all (no key, unknown model, unreachable server, a request
    the server rejects): one line for the user; the answers already received stay cached."""


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


class Backend(Protocol):
    """A model that answers :class:`ChatRequest` s (see ``http.py`` and ``local.py``)."""

    provider: str
    model: str

    def cache_namespace(self) -> str:
        """The cache namespace of its answers (``llm/<provider>/<model>``)."""

    def cache_parts(self) -> tuple[str, ...]:
        """Everything besides the prompt that changes an answer (server, model fingerprint,
        decoding settings): parts of the cache key."""

    def generate(self, requests: Sequence[ChatRequest]) -> Iterator[tuple[int, Completion]]:
        """(index into ``requests``, completion) for every request, in any order, as they end."""

    def count_tokens(self, request: ChatRequest) -> tuple[int, int, bool]:
        """(prompt tokens, answer tokens, exact?) of one request, for the dry run."""

    def close(self) -> None:
        """Release threads, connections or memory."""


def settings_text(settings: dict[str, Any]) -> str:
    """Decoding settings as one canonical string (sorted keys), for cache keys."""
    return json.dumps(settings, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def short_hash(text: str) -> str:
    """A short SHA-256 of a text (chat templates in cache keys)."""
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def estimate_tokens(text: str) -> int:
    """A rough token count for a model whose tokenizer is not at hand: 4 characters a token."""
    return math.ceil(len(text) / 4)
