"""An OpenAI-compatible chat-completions client on the standard library alone.

It sends what gec-metrics' OpenAI classes send (system message "You are a helpful assistant.",
the prompt as the user message, the answer's JSON schema as ``response_format``, ``seed`` 777)
to ``<base_url>/chat/completions`` of OpenAI or of any server speaking the same protocol (vLLM,
llama.cpp's server, Ollama, Gemini's OpenAI endpoint). Requests run on ``concurrency`` threads
under a requests-per-minute limit; 408/409/429/5xx replies, timeouts and dropped connections are
retried with exponential backoff (``Retry-After`` honoured up to ``max_retry_after``); a request
still failing is returned as an error, and replies that make every request fail (a bad key, an
unknown model, an unsupported ``response_format``, an unreachable server, a redirect, a server
asking to wait longer than ``max_retry_after``) stop the run with a :class:`~.base.BackendError`.

The key goes in the ``Authorization`` header to ``base_url`` only: redirects are never followed
(a POST is not re-sent, the key never reaches another origin), the key is cut out of every
message (a server may echo the header), and a key sent over plain http to a host other than this
machine is warned about once. Each attempt has one deadline (``timeout``) for connecting,
sending and the whole reply, however slowly the server trickles it; an interrupt (Ctrl-C,
SIGTERM) ends the waits and the requests in flight at once.
"""
from __future__ import annotations

import datetime
import email.utils
import errno
import http.client
import io
import ipaddress
import json
import math
import os
import random
import re
import socket
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import warnings
from collections import Counter
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import Any, Callable, Iterator, Sequence

from ....errors import kind_of, plural, shown
from ..answers import compact_answer, response_format
from .base import (KEY_VARIABLE, SYSTEM_MESSAGE, BackendError, ChatRequest, Completion, check_base_url,
                   estimate_tokens, settings_text, token_count)

STRUCTURED = ("json_schema", "json_object", "none")
"""``json_schema``: the answer schema as structured output (gec-metrics' request);
``json_object``: any JSON object; ``none``: no ``response_format`` (the prompt alone asks)."""
TRANSIENT_STATUS = {408, 409, 429, 500, 502, 503, 504}
FATAL_STATUS = {401, 403, 404}
REDIRECT_STATUS = {301, 302, 303, 307, 308}
MAX_RETRY_AFTER = 120.0
"""Seconds of ``Retry-After`` honoured by default; a server asking for longer stops the run."""
MAX_REPLY_BYTES = 64 << 20
"""A reply larger than this is refused (an answer is a few hundred bytes)."""


class PlainHTTPKeyWarning(UserWarning):
    """An API key is sent over plain http to a host other than this machine: anyone on the way
    can read it."""


class _Stopped(BackendError):
    """The run was stopped (:meth:`OpenAICompatibleBackend.abort`, or an interrupt while
    threads were waiting): waits and requests in flight end at once."""

    def __init__(self) -> None:
        super().__init__("stopped: the requests in flight were ended (the answers received so far are cached)")


_BEARER = re.compile(r"Bearer\s+[^\s\"',;]+", re.IGNORECASE)
_BASIC = re.compile(r"\bBasic\s+(?=[A-Za-z0-9+/]*(?:[0-9+/=]|[a-z][A-Z]))[A-Za-z0-9+/]{8,}={0,2}")
"""HTTP Basic credentials (``Proxy-Authorization: Basic base64(user:password)``) a proxy may echo:
base64 with a digit, ``+``, ``/``, ``=`` or a capital after a small letter (not "Basic grammar")."""
_JSON_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|.)", re.DOTALL)
_SIMPLE_ESCAPES = {"b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


def json_unescaped(text: str) -> str:
    """``text`` with every JSON string escape decoded wherever it stands (``sk-L\\u0045AK`` as
    ``sk-LEAK``): what a decoded answer's values can hold, whatever mix of escapes its writer used."""
    def decoded(match: re.Match) -> str:
        escape = match.group(1)
        return chr(int(escape[1:], 16)) if len(escape) == 5 and escape[0] == "u" else _SIMPLE_ESCAPES.get(escape, escape)

    return _JSON_ESCAPE.sub(decoded, text) if "\\" in text else text


def _written_forms(key: str) -> list[str]:
    """The key as a text may hold it: as it is, as JSON writers escape it (``/`` as ``\\/``, the
    non-ASCII or every character as ``\\uXXXX``), as ``repr()`` quotes it and as a URL or a form
    percent-encodes it (a server echoing a request's query or body), longest first."""
    escaped = json.dumps(key)[1:-1]
    forms = {key, escaped, escaped.replace("/", "\\/"), json.dumps(key, ensure_ascii=True)[1:-1].replace("/", "\\/"),
             "".join(f"\\u{ord(c):04x}" for c in key),
             # as repr() writes it in a quoted reply, a str's or bytes' (a key with both quotes: \\')
             repr(key)[1:-1], repr(key.encode())[2:-1], repr(key + "'\"")[1:-4], repr((key + "'\"").encode())[2:-4]}
    return sorted(forms | _percent_forms(key), key=len, reverse=True)


def _percent_forms(key: str) -> set[str]:
    """The key percent-encoded as URLs and forms write it (``quote`` with and without ``/`` kept,
    ``quote_plus``), with upper- and lower-case hex digits: only the forms that differ from it."""
    encoded = {urllib.parse.quote(key, safe=""), urllib.parse.quote(key), urllib.parse.quote_plus(key)}
    lower = {re.sub(r"%[0-9A-F]{2}", lambda m: m.group().lower(), form) for form in encoded}
    return (encoded | lower) - {key}


_FAILED = object()
"""The key of the mapping :meth:`OpenAICompatibleBackend._post` returns for a failed exchange (its
message, redacted): no decoded JSON reply can hold it, so a reply's own fields are never taken for
one (a reply ``{"_error": "...key..."}`` was kept as the failure's message, unredacted)."""

_HEADER_SAFE = re.compile(r"[\x21-\x7e]+")
"""What an API key may hold to go in an HTTP header as it is: printable ASCII without spaces."""


def _checked_key(key: str | None, variable: str) -> str | None:
    """The key of ``$variable`` without surrounding whitespace (a line end read from a file or a
    CRLF .env); one holding another character an HTTP header cannot carry (a control character,
    a space, non-ASCII) is refused without being shown (http.client raised it, with the key, in a
    traceback)."""
    if key is None:
        return None
    key = key.strip()
    if key and not _HEADER_SAFE.fullmatch(key):
        raise BackendError(f"the API key in ${variable} holds a character an HTTP header cannot carry (a space, a "
                           "control character or a non-ASCII letter): check how it was set (the key is not shown)")
    return key or None


def environment_key(variable: str | None, required: bool = False) -> str | None:
    """The key in ``$variable`` (:func:`_checked_key`; None without a variable or a key), a
    BackendError when ``required`` and there is none: what a backend reads when it starts, and
    what :func:`~gecmetrics.metrics.llm.backends.check_key` asks before any work."""
    if variable and not KEY_VARIABLE.fullmatch(str(variable)):  # (the key itself given there was repeated)
        raise BackendError("api_key_env names the environment variable that holds the key (letters, digits and _, "
                           "not starting with a digit), got another text (not shown: it may be the key)")
    key = _checked_key(os.environ.get(variable), variable) if variable else None
    if required and not key:
        raise BackendError(f"no API key: set the environment variable {variable}")
    return key


class RateLimiter:
    """At most ``per_minute`` request starts a minute, spread evenly (one every 60/per_minute
    seconds), shared by all threads; ``clock`` and ``sleep`` are injectable for tests."""

    def __init__(self, per_minute: float | None, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep):
        if per_minute is not None and not per_minute > 0:
            raise BackendError(f"requests_per_minute must be positive, not {per_minute!r}")
        if per_minute is not None and not 60.0 / per_minute <= threading.TIMEOUT_MAX:  # (an OverflowError in a wait)
            raise BackendError(f"requests_per_minute {per_minute!r} waits {60.0 / per_minute:g} s between requests, "
                               f"longer than a wait can last here ({threading.TIMEOUT_MAX:g} s)")
        self.interval = 0.0 if per_minute is None else 60.0 / per_minute
        self.clock, self.sleep = clock, sleep
        self._next = -float("inf")
        self._lock = threading.Lock()

    def acquire(self, sleep: Callable[[float], None] | None = None) -> float:
        """Wait for the next free slot (with ``sleep``, else the limiter's); the seconds waited."""
        if not self.interval:
            return 0.0
        with self._lock:
            now = self.clock()
            slot = max(now, self._next)
            self._next = slot + self.interval
        delay = slot - now
        if delay > 0:
            (sleep or self.sleep)(delay)
        return delay


class _Transient(Exception):
    def __init__(self, what: str, retry_after: float | None = None, unreachable: bool = False,
                 timed_out: bool = False):
        super().__init__(what)
        self.retry_after = retry_after
        self.unreachable = unreachable
        self.timed_out = timed_out


def _retry_after(value: str | None, now: Callable[[], float] = time.time) -> float | None:
    """Seconds of a ``Retry-After`` header: a number (``inf`` stays inf), or an HTTP date (RFC
    9110: the seconds from now until then, 0 for a date past); None without one or for one that
    is neither (the backoff then applies)."""
    if value is None:
        return None
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError, OverflowError):
            return None
        if when.tzinfo is None:  # (an HTTP date is GMT; a date without a zone is taken so)
            when = when.replace(tzinfo=datetime.timezone.utc)
        seconds = when.timestamp() - now()
    return None if math.isnan(seconds) else max(0.0, seconds)


def _loopback(host: str | None) -> bool:
    """Whether ``host`` is this machine (localhost, 127.0.0.0/8, ::1)."""
    if not host:
        return False
    if host.lower() == "localhost" or host.lower().endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _json_integer(text: str) -> int | float:
    """An integer of a reply's JSON; one of more digits than Python converts (4,300) is a float
    (inf), not an error that would fail the whole reply (a 5,000-digit usage count did)."""
    return int(text) if len(text) <= 1000 else float(text)


class _Run:
    """The requests of one :meth:`OpenAICompatibleBackend.generate` call: one stop signal and
    the sockets open now, so that an interrupt ends every wait and every request at once."""

    def __init__(self) -> None:
        self.stop = threading.Event()
        self.sockets: set = set()
        self.lock = threading.Lock()

    def pause(self, seconds: float) -> None:
        """Wait ``seconds``, or less when the run stops (then :class:`_Stopped`)."""
        if self.stop.wait(min(seconds, threading.TIMEOUT_MAX)):  # (longer: an OverflowError)
            raise _Stopped()

    def abort(self) -> None:
        self.stop.set()
        with self.lock:
            sockets = list(self.sockets)
        for watched in sockets:
            watched.abort()


class _Attempt:
    """One HTTP exchange of a run: its deadline, and the sockets it opened."""

    def __init__(self, run: _Run, seconds: float):
        self.run, self.deadline = run, time.monotonic() + seconds
        self.sockets: list[_Watched] = []

    def remaining(self) -> float:
        if self.run.stop.is_set():
            raise _Stopped()
        remaining = self.deadline - time.monotonic()
        if remaining <= 0:
            raise socket.timeout("the request's deadline passed")
        return remaining

    def watch(self, sock: socket.socket) -> _Watched:
        watched = _Watched(sock, self)
        self.sockets.append(watched)
        with self.run.lock:
            self.run.sockets.add(watched)
        if self.run.stop.is_set():  # stopped while connecting
            watched.abort()
        return watched

    def done(self) -> None:
        with self.run.lock:
            self.run.sockets.difference_update(self.sockets)


class _Watched:
    """A connected socket whose every operation must end before the attempt's deadline and is
    refused once the run stops; :meth:`abort` (from another thread) ends a blocked one."""

    def __init__(self, sock: socket.socket, attempt: _Attempt):
        self._sock, self._attempt = sock, attempt
        self._io_refs, self._closed = 0, False

    def _arm(self) -> None:
        self._sock.settimeout(self._attempt.remaining())

    def recv_into(self, buffer: Any, *args: Any) -> int:
        self._arm()
        return self._sock.recv_into(buffer, *args)

    def recv(self, *args: Any) -> bytes:
        self._arm()
        return self._sock.recv(*args)

    def sendall(self, data: Any, *args: Any) -> None:
        self._arm()
        return self._sock.sendall(data, *args)

    def makefile(self, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        """A buffered reader whose reads go through :meth:`recv_into` (http.client reads the
        reply with it); the socket stays open while one is (as ``socket.makefile``'s do)."""
        self._io_refs += 1
        return io.BufferedReader(socket.SocketIO(self, "rb"))  # type: ignore[arg-type]

    def _decref_socketios(self) -> None:
        self._io_refs -= 1
        if self._closed and self._io_refs <= 0:
            self._sock.close()

    def close(self) -> None:
        self._closed = True
        if self._io_refs <= 0:
            self._sock.close()

    def abort(self) -> None:
        try:
            self._sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)


def _connection_class(base: type, attempt: _Attempt) -> type:
    class Connection(base):  # type: ignore[misc, valid-type]
        def connect(self) -> None:
            self.timeout = attempt.remaining()
            super().connect()
            self.sock = attempt.watch(self.sock)

    return Connection


class _HTTPHandler(urllib.request.HTTPHandler):
    def __init__(self, attempt: _Attempt):
        super().__init__()
        self.attempt = attempt

    def http_open(self, req: urllib.request.Request) -> Any:
        return self.do_open(_connection_class(http.client.HTTPConnection, self.attempt), req)


class _HTTPSHandler(urllib.request.HTTPSHandler):
    def __init__(self, attempt: _Attempt):
        super().__init__()
        self.attempt = attempt

    def https_open(self, req: urllib.request.Request) -> Any:
        return self.do_open(_connection_class(http.client.HTTPSConnection, self.attempt), req,
                            context=self._context)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """Redirects are not followed: urllib would re-send a POST as a GET, and the key with it."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def _number(value: Any) -> bool:
    """A finite int or float (not a bool)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and -1e300 < value < 1e300  # (nan: no)


def _check_request_options(seed: Any, temperature: Any, top_p: Any, extra_body: Any, api_key_env: Any,
                           requests_per_minute: Any) -> None:
    """What goes into every request body and the rate, checked before any request: NaN is no
    JSON a server reads (the body held ``"temperature": NaN``), a list is no body's fields."""
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise BackendError(f"seed must be an integer or None, not {seed!r}")
    for name, value in (("temperature", temperature), ("top_p", top_p)):
        if value is not None and not (_number(value) and value >= 0):
            raise BackendError(f"{name} must be a finite number >= 0 or None, not {value!r}")
    if extra_body is not None and (not isinstance(extra_body, dict) or not all(isinstance(k, str) for k in extra_body)):
        raise BackendError(f"extra_body must be a dict of request fields (names as strings), not {extra_body!r}")
    try:  # (a set or bytes failed at the first request with a TypeError; NaN went as "NaN", no JSON)
        json.dumps(extra_body, allow_nan=False)
    except (TypeError, ValueError, RecursionError) as error:
        raise BackendError(f"extra_body must hold JSON values only (str, finite numbers, bool, None, lists, "
                           f"dicts with str keys): {error}") from None
    if api_key_env is not None and (not isinstance(api_key_env, str) or not api_key_env):
        raise BackendError(f"api_key_env must be the name of an environment variable, not {kind_of(api_key_env)}")
    if requests_per_minute is not None and not _number(requests_per_minute):
        raise BackendError(f"requests_per_minute must be a positive number or None, not {requests_per_minute!r}")


def _lasting_tls_failure(reason: object) -> bool:
    """Whether a connection's TLS failure will fail every request alike: a certificate not
    trusted, or https spoken to a port that speaks plain http (``WRONG_VERSION_NUMBER``)."""
    import ssl

    return isinstance(reason, ssl.SSLCertVerificationError) or \
        (isinstance(reason, ssl.SSLError) and getattr(reason, "reason", None) == "WRONG_VERSION_NUMBER")


def _tls_hint(reason: object) -> str:
    import ssl

    if isinstance(reason, ssl.SSLCertVerificationError):
        return (" (the server's certificate is not trusted here: a self-signed one needs its CA in $SSL_CERT_FILE; "
                "a server on this machine may be given as http://)")
    return " (the port speaks plain http: give the base URL as http://)"


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+")


def server_text_line(text: str) -> str:
    """A server's text (an error page) as one line of a message: line ends and other control
    characters (a terminal's escape codes among them) as one space each run, the ends stripped
    (:func:`gecmetrics.errors.one_line` shows them escaped; a page is text to read here)."""
    return " ".join(_CONTROL.sub(" ", text).split())


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
                 max_retry_after: float = MAX_RETRY_AFTER, sleep: Callable[[float], None] | None = None,
                 rng: random.Random | None = None):
        if not isinstance(model, str) or not model:
            raise BackendError("the model name is missing")
        base_url = check_base_url(base_url)
        if structured not in STRUCTURED:
            raise BackendError(f"structured must be one of {', '.join(STRUCTURED)}, not {structured!r}")
        for name, value, low in (("concurrency", concurrency, 1), ("max_retries", max_retries, 0)):
            if not isinstance(value, int) or isinstance(value, bool) or value < low:
                raise BackendError(f"{name} must be an integer >= {low}, not {value!r}")
        if max_tokens is not None and (not isinstance(max_tokens, int) or isinstance(max_tokens, bool) or max_tokens < 1):
            raise BackendError(f"max_tokens must be a positive integer, not {max_tokens!r}")
        _check_request_options(seed, temperature, top_p, extra_body, api_key_env, requests_per_minute)
        if system_message is not None and not isinstance(system_message, str):
            raise BackendError(f"system_message must be a str or None, not {kind_of(system_message)}")
        for name, value in (("timeout", timeout), ("backoff", backoff), ("max_backoff", max_backoff),
                            ("max_retry_after", max_retry_after)):
            if not _number(value) or value < 0 or (name == "timeout" and value == 0):
                raise BackendError(f"{name} must be a finite number of seconds "
                                   f"({'above' if name == 'timeout' else 'at least'} 0), not {value!r}")
        if not isinstance(key_required, bool):
            raise BackendError(f"key_required must be True or False, not {shown(key_required)}")
        self.model = model
        self.base_url = base_url
        self.api_key_env, self.key_required = api_key_env, key_required
        self._lock = threading.Lock()
        self._keys: tuple[str, ...] = ()
        """Every key read so far (in memory only; replaced, never changed in place: threads read it)."""
        self._forms: list[str] = []
        """How a text may write any of them, longest first (a key inside another's form): what
        :meth:`redact` looks for."""
        self.current_key()  # a missing or unsendable key fails here, before any work
        # (as floats: temperature=0 and 0.0 are one request, and one cache key)
        temperature, top_p = (None if value is None else float(value) for value in (temperature, top_p))
        self.structured, self.seed, self.temperature, self.top_p = structured, seed, temperature, top_p
        self.max_tokens, self.system_message = max_tokens, system_message
        self.extra_body = dict(extra_body or {})
        self.concurrency, self.max_retries = concurrency, max_retries
        self.backoff, self.max_backoff, self.timeout = backoff, max_backoff, timeout
        self.max_retry_after = max_retry_after
        self.sleep = sleep  # None: waits that an interrupt ends at once
        self.limiter = RateLimiter(requests_per_minute, sleep=sleep or time.sleep)
        self.rng = rng or random.Random()
        self.replied = False
        """Whether the server sent any whole reply (a request whose attempts all time out before
        the first stops the run instead of waiting as long for every prompt)."""
        self.stats: Counter = Counter()
        self._runs: set[_Run] = set()
        self._warned_plain_http = False

    # identity ---------------------------------------------------------------------------------
    def settings(self) -> dict[str, Any]:
        """The request settings that change answers."""
        return {"structured": self.structured, "seed": self.seed, "temperature": self.temperature,
                "top_p": self.top_p, "max_tokens": self.max_tokens, "system": self.system_message,
                "extra_body": self.extra_body}

    def cache_namespace(self) -> str:
        return f"llm/{self.provider}/{self.model}"

    def cache_parts(self, cache: Any = None) -> tuple[str, ...]:
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

    def current_key(self) -> str | None:
        """The key in ``$api_key_env`` now (:func:`environment_key`), read for every request: a key
        rotated or unset in the process's environment is followed, never a copy of an old one."""
        key = environment_key(self.api_key_env, self.key_required)
        if key and key not in self._keys:
            with self._lock:
                self._keys = (*self._keys, key)
                self._forms = sorted(set(self._forms) | set(_written_forms(key)), key=len, reverse=True)
        return key

    def redact(self, text: str, keep: int | None = None) -> str:
        """``text`` without the key (a server may echo the Authorization header, or a model the
        prompt's surroundings), then its first ``keep`` characters: cut after the key is gone,
        never before (a cut key would be missed). The key is found as written, as JSON writes
        it (``\\/`` for ``/``, ``\\uXXXX`` escapes) and percent-encoded (see :func:`_written_forms`)."""
        for form in self._forms:
            text = text.replace(form, "[key]")
        text = _BASIC.sub("Basic [credentials]", _BEARER.sub("Bearer [key]", text))
        return text if keep is None else text[:keep]

    def holds_key(self, text: str) -> bool:
        """Whether ``text`` (an answer) repeats the key: as :meth:`redact` finds it, or once its
        JSON escapes are decoded, in any mix (the answer's check decodes them and its messages
        quote the values: ``sk-L\\u0045AK...`` was shown as the key)."""
        if any(form in text for form in self._forms):
            return True
        if self._keys and any(key in json_unescaped(text) for key in self._keys):
            return True
        return bool(_BEARER.search(text))

    def _warn_plain_http(self, url: str) -> None:
        """Warn once when the key leaves this machine over plain http: to the server, or to the
        http proxy that urllib sends the request through ($http_proxy, unless $no_proxy names the
        host), which reads the whole request, the Authorization header with it."""
        parts = urllib.parse.urlsplit(url)
        if parts.scheme != "http":
            return
        proxy = None if urllib.request.proxy_bypass(parts.hostname or "") else urllib.request.getproxies().get("http")
        proxy_host = urllib.parse.urlsplit(proxy if "//" in (proxy or "") else f"//{proxy}").hostname if proxy else None
        if _loopback(parts.hostname) and (proxy_host is None or _loopback(proxy_host)):
            return
        with self._lock:
            if self._warned_plain_http:
                return
            self._warned_plain_http = True
        where = f"${self.api_key_env}" if self.api_key_env else "the API key"
        to = f"through the http proxy {proxy_host} ($http_proxy)" if proxy_host and not _loopback(proxy_host) \
            else f"to {parts.hostname}"
        warnings.warn(f"the key in {where} is sent over plain http {to}: anyone on the way can read "
                      "it (use https, or a server on this machine)", PlainHTTPKeyWarning, stacklevel=2)

    def _wait(self, run: _Run) -> Callable[[float], None]:
        return self.sleep or run.pause

    def _post(self, body: dict[str, Any], run: _Run | None = None) -> dict[str, Any]:
        """One HTTP exchange: the decoded reply, :class:`_Transient` or :class:`BackendError`."""
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        url = f"{self.base_url}/chat/completions"
        key = self.current_key()
        if key:
            headers["Authorization"] = f"Bearer {key}"
            self._warn_plain_http(url)
        data = json.dumps(body, ensure_ascii=False).encode()
        run = run or _Run()
        self.limiter.acquire(self._wait(run))
        self._count("http_requests")
        attempt = _Attempt(run, self.timeout)
        opener = urllib.request.build_opener(_NoRedirect, _HTTPHandler(attempt), _HTTPSHandler(attempt))
        try:
            with opener.open(urllib.request.Request(url, data, headers, method="POST")) as reply:
                raw = reply.read(MAX_REPLY_BYTES + 1)
                short = reply.length if len(raw) <= MAX_REPLY_BYTES else None  # (bytes its Content-Length
                # promised that never came: read with a limit, http.client does not raise IncompleteRead)
            if short:
                self._count("connection_errors")
                raise _Transient(f"connection lost: the reply ended {short} bytes short of its Content-Length")
            self.replied = True
        except urllib.error.HTTPError as error:
            self.replied = True
            return self._http_error(url, error)
        except (socket.timeout, TimeoutError):
            self._count("timeouts")
            raise _Transient(f"no whole reply within the {self.timeout:g} s deadline", timed_out=True) from None
        except urllib.error.URLError as error:
            if isinstance(error.reason, (socket.timeout, TimeoutError)):
                self._count("timeouts")
                raise _Transient(f"no whole reply within the {self.timeout:g} s deadline", timed_out=True) from None
            self._count("connection_errors")
            if _lasting_tls_failure(error.reason):  # every request would fail alike: stop now
                raise BackendError(self.redact(f"cannot connect securely to {self.base_url}: {error.reason}")
                                   + _tls_hint(error.reason)) from None
            unreachable = isinstance(error.reason, (ConnectionRefusedError, socket.gaierror)) or \
                getattr(error.reason, "errno", None) in (errno.EHOSTUNREACH, errno.ENETUNREACH)
            raise _Transient(self.redact(f"cannot connect: {error.reason}"), unreachable=unreachable) from None
        except (ConnectionError, http.client.HTTPException, OSError) as error:
            if run.stop.is_set():
                raise _Stopped() from None
            self._count("connection_errors")
            raise _Transient(self.redact(f"connection lost: {error}")) from None
        except (ValueError, UnicodeError) as error:  # a header or URL http.client refuses: its message may hold the key
            raise BackendError(self.redact(f"the request could not be sent: {error}")) from None
        finally:
            attempt.done()
        if len(raw) > MAX_REPLY_BYTES:
            return {_FAILED: f"reply larger than {MAX_REPLY_BYTES >> 20} MB"}
        try:
            return json.loads(raw, parse_int=_json_integer)
        except (ValueError, RecursionError):  # (RecursionError: nesting deeper than Python's stack)
            return {_FAILED: f"reply is not JSON: {self.redact(repr(raw), 80)}"}

    def _http_error(self, url: str, error: urllib.error.HTTPError) -> dict[str, Any]:
        """The reply to a non-2xx status: :class:`_Transient` (retried), :class:`BackendError`
        (the run stops) or a failed request."""
        try:
            text = server_text_line(self.redact(error.read(4096).decode("utf-8", "replace")))[:300]
        except (OSError, http.client.HTTPException, _Stopped):
            text = ""
        finally:
            error.close()
        self._count(f"http_{error.code}")
        if error.code in TRANSIENT_STATUS:
            raise _Transient(f"HTTP {error.code}", _retry_after(error.headers.get("Retry-After")))
        if error.code in REDIRECT_STATUS or 300 <= error.code < 400:
            location = self.redact(str(error.headers.get("Location") or "elsewhere"))
            raise BackendError(f"{url}: HTTP {error.code}: the server redirects to {location}; requests are not "
                               "redirected (the key would go along): give the final URL as base_url")
        if error.code in FATAL_STATUS or "response_format" in text or "json_schema" in text:
            hint = ""
            if error.code in (401, 403):
                hint = f" (check the key in ${self.api_key_env})" if self.api_key_env else \
                    " (the server wants a key: api_key_env)"
            elif error.code == 404:
                hint = f" (check the model name {self.model!r} and base_url {self.base_url})"
            elif self.structured != "none":
                hint = " (the server may not support this response_format: try structured=json_object or none, --structured)"
            raise BackendError(f"{url}: HTTP {error.code}: {text}{hint}")
        return {_FAILED: f"HTTP {error.code}: {text}"}

    def delay(self, attempt: int, retry_after: float | None) -> float:
        """Seconds before retry ``attempt`` (0-based): ``Retry-After`` if given (at most
        ``max_retry_after``), else ``backoff * 2**attempt`` with jitter (50-100%), at most
        ``max_backoff``."""
        if retry_after is not None:
            return min(retry_after, self.max_retry_after)
        return min(self.max_backoff, self.backoff * 2 ** attempt) * (0.5 + 0.5 * self.rng.random())

    def complete(self, request: ChatRequest, run: _Run | None = None) -> Completion:
        """One request with its retries (``run``: the :meth:`generate` call it belongs to)."""
        body = self.request_body(request)
        run = run or _Run()
        for attempt in range(self.max_retries + 1):
            try:
                reply = self._post(body, run)
            except _Transient as failure:
                if attempt == self.max_retries:
                    if failure.unreachable:
                        raise BackendError(f"cannot reach {self.base_url}: {failure} "
                                           f"(is the server running?)") from None
                    if failure.timed_out and not self.replied:  # (each prompt would wait as long: 68 h
                        # for CoNLL-2014's 1,312 prompts at the defaults)
                        raise BackendError(f"{self.base_url} took the connections but sent no whole reply to any "
                                           f"request ({plural(attempt + 1, 'attempt')} of {self.timeout:g} s, the "
                                           "timeout): is the server stuck, or slower than the timeout? (--timeout, "
                                           "--max-retries)") from None
                    return Completion(error=f"{failure} after {plural(attempt + 1, 'attempt')}")
                if failure.retry_after is not None and failure.retry_after > self.max_retry_after:
                    raise BackendError(f"{self.base_url}: {failure}: the server asks to wait "
                                       f"{failure.retry_after:g} s (Retry-After), more than max_retry_after "
                                       f"({self.max_retry_after:g} s, --max-retry-after): try again later; the "
                                       "answers received so far are cached") from None
                self._count("retries")
                self._wait(run)(self.delay(attempt, failure.retry_after))
                continue
            return self._completion(reply)
        raise AssertionError("unreachable")

    def _completion(self, reply: Any) -> Completion:
        """The answer and token counts of a decoded 200 reply (anything but an object with
        ``choices`` is a failed request; odd ``usage`` counts are ignored)."""
        if not isinstance(reply, dict):
            return Completion(error=f"the reply is not a JSON object: {self.redact(json.dumps(reply), 80)}")
        if _FAILED in reply:  # our reading of a failed exchange (a reply's own "_error" field is none)
            return Completion(error=reply[_FAILED])
        usage = reply.get("usage")
        usage = usage if isinstance(usage, dict) else {}
        content = None
        try:
            content = reply["choices"][0]["message"]["content"]
        except (KeyError, IndexError, TypeError):
            pass
        # the answer is scored as given (a short key cut out of a good answer failed it); one
        # that repeats the key is flagged, so that it is never kept or shown
        content = content if isinstance(content, str) else None
        return Completion(content=content, holds_key=content is not None and self.holds_key(content),
                          prompt_tokens=token_count(usage.get("prompt_tokens")),
                          completion_tokens=token_count(usage.get("completion_tokens")))

    def generate(self, requests: Sequence[ChatRequest]) -> Iterator[tuple[int, Completion]]:
        """Completions as they end, ``concurrency`` requests at a time (at most that many in
        flight, so a stopped run leaves little unfinished)."""
        run = _Run()
        with self._lock:
            self._runs.add(run)
        try:
            if self.concurrency == 1 or len(requests) <= 1:
                for i, request in enumerate(requests):
                    yield i, self.complete(request, run)
                return
            yield from self._threaded(requests, run)
        finally:
            with self._lock:
                self._runs.discard(run)

    def _threaded(self, requests: Sequence[ChatRequest], run: _Run) -> Iterator[tuple[int, Completion]]:
        executor = ThreadPoolExecutor(max_workers=self.concurrency, thread_name_prefix="llm-http")
        running: dict[Future, int] = {}
        todo = iter(enumerate(requests))
        stopped = True
        try:
            while True:
                for i, request in todo:
                    running[executor.submit(self.complete, request, run)] = i
                    if len(running) >= self.concurrency:
                        break
                if not running:
                    stopped = False
                    return
                finished, _ = wait(list(running), return_when=FIRST_COMPLETED)
                for future in finished:
                    i = running.pop(future)
                    yield i, future.result()
        finally:
            if stopped:  # an interrupt, a fatal reply, or a caller that stopped reading
                run.abort()  # the threads' waits and requests end now; their answers are dropped
            executor.shutdown(wait=not stopped, cancel_futures=True)

    def abort(self) -> None:
        """End every wait and request in flight of this backend now (from another thread): the
        requests' completions are never returned, so nothing half done is cached."""
        with self._lock:
            runs = list(self._runs)
        for run in runs:
            run.abort()

    def close(self) -> None:
        """Nothing to release (a connection per request)."""
