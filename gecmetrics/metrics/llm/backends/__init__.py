"""Backends of the LLM judges, chosen by a ``provider:model`` string or explicit options.

========================  =================================================  ====================
provider                  where                                              key (env variable)
========================  =================================================  ====================
``openai``                https://api.openai.com/v1                          OPENAI_API_KEY
``gemini``                Gemini's OpenAI endpoint (no ``seed``, as gec-      GEMINI_API_KEY
                          metrics)
``vllm``                  http://localhost:8000/v1                           VLLM_API_KEY if set
``llamacpp``              http://localhost:8080/v1 (llama.cpp's server)      LLAMA_API_KEY if set
``ollama``                http://localhost:11434/v1                          OLLAMA_API_KEY if set
``openai-compatible``     ``base_url=`` required                             ``api_key_env=`` if given
``transformers`` (``hf``)  a local folder or a cached hub name (in-process)   none
========================  =================================================  ====================

The key goes to the provider's URL or to the ``base_url`` given, nowhere else: redirects are not
followed (docs/llm.md, "What is sent where"). Only the first colon splits provider from model
(``ollama:llama3.1:8b``); a bare ``openai``
uses gec-metrics' default model. Options override the provider's defaults (``base_url``,
``api_key_env``, ``concurrency``, ``requests_per_minute``, ``device``, ``dtype`` ...).
"""
from __future__ import annotations

import inspect
import re
from dataclasses import dataclass
from typing import Any

from .base import Backend, BackendError, ChatRequest, Completion

__all__ = ["Backend", "BackendError", "ChatRequest", "Completion", "PROVIDERS", "check_key", "make_backend",
           "parse_spec"]


@dataclass(frozen=True)
class Provider:
    """Defaults of one provider name."""

    base_url: str | None
    api_key_env: str | None
    key_required: bool = False
    default_model: str | None = None
    seed: bool = True


PROVIDERS: dict[str, Provider] = {
    "openai": Provider("https://api.openai.com/v1", "OPENAI_API_KEY", True, "gpt-4o-mini-2024-07-18"),
    "gemini": Provider("https://generativelanguage.googleapis.com/v1beta/openai", "GEMINI_API_KEY", True, seed=False),
    "vllm": Provider("http://localhost:8000/v1", "VLLM_API_KEY"),
    "llamacpp": Provider("http://localhost:8080/v1", "LLAMA_API_KEY"),
    "ollama": Provider("http://localhost:11434/v1", "OLLAMA_API_KEY"),
    "openai-compatible": Provider(None, None),  # (a key goes to another server only when its variable is named)
}
LOCAL = ("transformers", "hf", "local")
ALIASES = {"llama.cpp": "llamacpp", "http": "openai-compatible"}


_CREDENTIALS = re.compile(r"//[^/@\s]*@")
_QUERY = re.compile(r"[?#].*")


def _shown(spec: str) -> str:
    """``spec`` as a message repeats it: a URL's credentials (``//user:key@``) and query left out
    (a URL given as the model, ``http://user:key@host/v1``: "http" is a provider name)."""
    return _QUERY.sub("?[query]", _CREDENTIALS.sub("//[credentials]@", spec))


def parse_spec(spec: str) -> tuple[str, str | None]:
    """(provider, model or None) of ``provider:model``."""
    if not isinstance(spec, str) or not spec.strip():
        raise BackendError("the LLM backend is given as provider:model, e.g. openai:gpt-4o-mini")
    provider, _, model = spec.strip().partition(":")
    provider = ALIASES.get(provider.lower(), provider.lower())
    if provider not in PROVIDERS and provider not in LOCAL:
        raise BackendError(f"unknown LLM provider {provider!r} in {_shown(spec)!r} "
                           f"(one of {', '.join([*PROVIDERS, *LOCAL])})")
    if _CREDENTIALS.search(model):  # it would be shown in messages and the signature, sent as the model name
        raise BackendError(f"{_shown(spec)}: the model is a name, not a URL with credentials (user:password@): "
                           "give the server as base_url (--base-url) and the key in the environment variable the "
                           "provider reads")
    return provider, model or None


def _accepts(cls: type, options: dict[str, Any], spec: str) -> None:
    known = set(inspect.signature(cls.__init__).parameters) - {"self", "model"}
    unknown = sorted(set(options) - known)
    if unknown:
        raise BackendError(f"{_shown(spec)}: unknown option(s) {', '.join(unknown)} (known: {', '.join(sorted(known))})")


def make_backend(spec: str, **options: Any) -> Backend:
    """The backend of ``provider:model`` with ``options`` over the provider's defaults."""
    provider, model = parse_spec(spec)
    if provider in LOCAL:
        from .local import TransformersBackend

        if model is None:
            raise BackendError(f"{_shown(spec)}: give the model folder or name, e.g. transformers:/models/llama")
        _accepts(TransformersBackend, options, spec)
        return TransformersBackend(model, **options)
    from .http import OpenAICompatibleBackend

    defaults = PROVIDERS[provider]
    model = model or defaults.default_model
    if model is None:
        raise BackendError(f"{_shown(spec)}: give the model, e.g. {provider}:MODEL")
    _accepts(OpenAICompatibleBackend, options, spec)
    settings = _http_settings(provider, options)
    if settings["base_url"] is None:
        raise BackendError(f"{_shown(spec)}: give the server's base_url, e.g. http://localhost:8000/v1")
    return OpenAICompatibleBackend(model, **settings)


def _http_settings(provider: str, options: dict[str, Any]) -> dict[str, Any]:
    """The HTTP backend's options: ``options`` over the provider's defaults."""
    defaults = PROVIDERS[provider]
    settings: dict[str, Any] = {"base_url": defaults.base_url, "api_key_env": defaults.api_key_env,
                                "key_required": defaults.key_required}
    if not defaults.seed:
        settings["seed"] = None
    settings.update(options)
    return settings


def check_key(spec: str, **options: Any) -> None:
    """A BackendError where the backend :func:`make_backend` would make of ``provider:model`` and
    ``options`` would refuse to start for want of its API key (a hosted provider's, ``key_required``,
    and its environment variable unset), checked as the backend checks it, before any work: nothing
    is loaded or sent. The backend starts before the cache is read, so answers all cached need no
    key only where the provider needs none (a local server or model)."""
    provider, _ = parse_spec(spec)
    if provider in LOCAL:
        return
    from .http import environment_key

    settings = _http_settings(provider, options)
    environment_key(settings["api_key_env"], settings["key_required"])
