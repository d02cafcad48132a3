"""The LLM HTTP backend under a hostile or broken server (issue 33), against loopback servers in
threads: no redirect followed and the key never sent elsewhere nor printed, one warning for a
key over plain http, one deadline per request however slowly a reply trickles, a capped
Retry-After, waits that an interrupt ends at once with nothing half cached, and replies that are
not what they should be (not an object, odd token counts, duplicate keys) never a traceback."""
from __future__ import annotations

import base64
import contextlib
import json
import os
import signal
import sqlite3
import subprocess
import threading
import time
import urllib.parse
import warnings
import zlib
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import numpy as np
import pytest

from tests._llm_support import ChatServer, LoopbackServer, completion_reply, hashed_answer
from tests.conftest import gecmetric_script

from gecmetrics.core.cache import Cache
from gecmetrics.errors import InputError
from gecmetrics.metrics.llm.answers import BadAnswer, parse_answer
from gecmetrics.metrics.llm.backends import BackendError
from gecmetrics.metrics.llm.backends.http import OpenAICompatibleBackend, json_unescaped
from gecmetrics.metrics.llm.judge import Judge

KEY = "sk-test-0123456789abcdef"
SOURCES = ["He go home .", "She like apple ."]
SYSTEMS = [["He goes home .", "She likes apples ."], ["He went home .", "She like apples ."]]
GUARD = 60  # seconds: a run still going after this is a hang


@pytest.fixture
def key(monkeypatch):
    monkeypatch.setenv("TEST_LLM_KEY", KEY)
    return "TEST_LLM_KEY"


class Recorder(LoopbackServer):
    """A loopback server answering every method with ``respond(handler)``; records what came."""

    def __init__(self, respond):
        self.seen: list[tuple[str, str, dict]] = []
        recorder = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _any(self):
                length = int(self.headers.get("Content-Length") or 0)
                if length:
                    self.rfile.read(length)
                recorder.seen.append((self.command, self.path, dict(self.headers)))
                try:
                    respond(self)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            do_GET = do_POST = do_PUT = _any

        super().__init__(Handler)


def _send(handler, status: int, body: bytes = b"", headers: dict | None = None) -> None:
    handler.send_response(status)
    for name, value in (headers or {}).items():
        handler.send_header(name, value)
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)


def _judge(url: str, tmp_path: Path, **options) -> Judge:
    options.setdefault("sleep", lambda seconds: None)
    return Judge(OpenAICompatibleBackend("m", url, **options), cache=Cache(tmp_path / "cache"))


def _in_time(work, guard: float = GUARD):
    """``work()``'s result, or a failure when it is still running after ``guard`` seconds."""
    outcome: list = []

    def run():
        try:
            outcome.append(("value", work()))
        except BaseException as error:  # noqa: BLE001 - handed to the test
            outcome.append(("error", error))

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(guard)
    assert not thread.is_alive(), f"still running after {guard} s: a hang"
    kind, value = outcome[0]
    if kind == "error":
        raise value
    return value


# ----------------------------------------------------------------------------- the key

@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_a_redirect_is_not_followed_and_the_key_goes_nowhere_else(tmp_path, key, status):
    with Recorder(lambda h: _send(h, 200, b"{}")) as elsewhere:
        location = elsewhere.url + "/chat/completions"
        with Recorder(lambda h: _send(h, status, b"moved", {"Location": location})) as server:
            with pytest.raises(BackendError, match=f"HTTP {status}: the server redirects to .*give the final URL") \
                    as caught:
                _judge(server.url, tmp_path, api_key_env=key).score(SOURCES, SYSTEMS)
            assert [method for method, _, _ in server.seen] == ["POST"] * len(server.seen) and server.seen
    assert elsewhere.seen == [] and KEY not in str(caught.value)


def test_a_key_echoed_by_the_server_is_never_printed(tmp_path, key):
    def echo(handler):
        text = f"invalid key {handler.headers['Authorization']} (you sent {KEY[:-1]}{KEY[-1]})"
        _send(handler, 401, json.dumps({"error": {"message": text}}).encode())

    with Recorder(echo) as server:
        with pytest.raises(BackendError) as caught:
            _judge(server.url, tmp_path, api_key_env=key).score(SOURCES, SYSTEMS)
    message = str(caught.value)
    assert KEY not in message and "Bearer [key]" in message and "HTTP 401" in message and "TEST_LLM_KEY" in message
    assert server.seen[0][2]["Authorization"] == f"Bearer {KEY}"  # it was sent, to the server given

    def failing(handler):  # a 400 for one prompt: its message lands in the report
        _send(handler, 400, f"bad request from Bearer {KEY}".encode())

    with Recorder(failing) as server:
        result = _judge(server.url, tmp_path / "b", api_key_env=key, max_retries=0).score(SOURCES, SYSTEMS)
    assert result.report.failed and all(KEY not in message for _, message in result.report.failed.values())


SLASHED = "sk-test/SECRET1234567890abcdefXYZ"
ONE_ESCAPE = SLASHED.replace("e", "\\u0065", 1)  # as a JSON string writes it with one character escaped
BASIC = base64.b64encode(b"proxyuser:hunter2pw").decode()


@pytest.mark.parametrize("reply", ["answer_echo", "answer_around_json", "long_401", "escaped_401", "long_not_json",
                                   "long_list", "underscore_error", "underscore_error_object", "one_escape_target",
                                   "one_escape_note", "one_escape_key_twice", "proxy_basic"])
def test_a_key_in_any_reply_reaches_no_message_cache_or_result(tmp_path, monkeypatch, reply):
    """Five ways a key echoed by a server or a model got out (a sweep, 2026-12-02): the content of
    a 200 answer (kept in the cache, quoted in the bad-answer message), a 401 body cut to 300
    characters before the key was looked for, a 401 body whose JSON writes ``/`` as ``\\/``,
    and a reply that is not JSON (or not an object) cut to 80 characters before the same."""
    monkeypatch.setenv("TEST_LLM_KEY", SLASHED)
    escaped = json.dumps({"error": {"message": f"Incorrect API key provided: {SLASHED}"}}).replace("/", "\\/")
    bodies = {"answer_echo": (200, json.dumps(completion_reply(f"I got {SLASHED}")[1]).encode()),
              "answer_around_json": (200, json.dumps(completion_reply(
                  f"Sure ({SLASHED}):\n```json\n" + json.dumps({"target_score1": 4, "target_score2": 3})
                  + "\n```")[1]).encode()),
              "long_401": (401, ("x" * 285 + SLASHED).encode()),
              "escaped_401": (401, escaped.encode()),
              "long_not_json": (200, ("y" * 60 + SLASHED).encode()),
              "long_list": (200, json.dumps(["z" * 60 + SLASHED]).encode()),
              # a reply's own "_error" field was taken for the backend's failure message, unredacted
              "underscore_error": (200, json.dumps({"_error": f"server-side error, key={SLASHED}"}).encode()),
              "underscore_error_object": (200, json.dumps({"_error": {"key": SLASHED}}).encode()),
              # one character JSON-escaped (a sweep, 2026-12-06): not found in the raw text, then quoted
              # decoded by the answer's check, or kept as it came in a good answer's other field
              "one_escape_target": (200, json.dumps(completion_reply(
                  '{"target_score1": "%s", "target_score2": 3}' % ONE_ESCAPE)[1]).encode()),
              "one_escape_note": (200, json.dumps(completion_reply(
                  '{"target_score1": 4, "target_score2": 3, "note": "%s"}' % ONE_ESCAPE)[1]).encode()),
              "one_escape_key_twice": (200, json.dumps(completion_reply(
                  '{"%s": 1, "%s": 2}' % (ONE_ESCAPE, ONE_ESCAPE))[1]).encode()),
              "proxy_basic": (407, f"echo: Proxy-Authorization: Basic {BASIC}".encode())}
    status, body = bodies[reply]
    with Recorder(lambda handler: _send(handler, status, body)) as server:
        try:
            backend = OpenAICompatibleBackend("m", server.url, api_key_env="TEST_LLM_KEY", max_retries=0,
                                              sleep=lambda seconds: None)
            result = Judge(backend, cache=Cache(tmp_path / "cache"), answer_retries=0).score(SOURCES, SYSTEMS)
            shown = repr(result) + json.dumps(result.report.failed, default=str) + str(result.report)
        except BackendError as error:
            shown = str(error)
    assert server.seen[0][2]["Authorization"] == f"Bearer {SLASHED}"
    stored = ""
    for database in (tmp_path / "cache").rglob("*.sqlite3"):
        with contextlib.closing(sqlite3.connect(database)) as connection:
            for value, in connection.execute("select value from entries"):
                with contextlib.suppress(zlib.error):  # values are stored zlib-compressed
                    value = zlib.decompress(value)
                stored += bytes(value).decode("utf-8", "replace")
    assert stored or reply not in ("answer_around_json",)  # the accepted answer was stored, without the key
    for text in (shown, stored):
        assert SLASHED[:12] not in text and SLASHED[:12].replace("/", "\\/") not in text, text[:300]
        # (a stored answer is JSON in JSON: its escapes are escaped once more)
        assert SLASHED[:12] not in json_unescaped(json_unescaped(text)) and BASIC not in text, text[:300]


def test_a_key_with_a_line_end_is_sent_without_it_and_one_no_header_can_carry_is_refused_unseen(tmp_path, monkeypatch):
    """A key read from a file or a CRLF .env ends in '\\r' or '\\n': http.client refused the header
    in a traceback that printed the key. Its surrounding whitespace is dropped; a space, a control
    character or a non-ASCII letter inside it is one BackendError that does not show it."""
    monkeypatch.setenv("TEST_LLM_KEY", KEY + "\r\n")
    with ChatServer() as server:
        result = _judge(server.url, tmp_path, api_key_env="TEST_LLM_KEY").score(SOURCES, SYSTEMS)
    assert not result.report.failed and server.headers[0]["Authorization"] == f"Bearer {KEY}"
    for bad in (KEY[:5] + "\r" + KEY[5:], KEY[:5] + " " + KEY[5:], KEY + "\u20ac"):
        monkeypatch.setenv("TEST_LLM_KEY", bad)
        with pytest.raises(BackendError, match=r"the API key in \$TEST_LLM_KEY holds a character an HTTP header") \
                as caught:
            OpenAICompatibleBackend("m", "http://127.0.0.1:9/v1", api_key_env="TEST_LLM_KEY")
        assert KEY[5:] not in str(caught.value)


def test_a_base_url_with_a_space_is_refused_before_any_request():
    """It was accepted, and every prompt was retried as 'connection lost' for about 25 s."""
    for url in ("http://127.0.0.1:9/v1 x", "http://127.0.0.1:9/v\t1", "http://127.0.0.1:9/v1\n"):
        with pytest.raises(BackendError, match="base_url holds a space or a control character"):
            OpenAICompatibleBackend("m", url)


@pytest.mark.parametrize("spec, message, secret, shown", [
    ("llm-s:base_url=http%3A//u%3Ask-SECRET-99@h%3A1/v1::", "empty setting", "SECRET-99", "[credentials]@h"),
    ("llm-s:base_url=http%3A//u%3Ask-SECRET-99@h/v1:base_url=x", "given twice", "SECRET-99", "[credentials]@h"),
    ("llm-s:base_url=https://u:sk-SECRET-99@h/v1:", "empty setting", "SECRET-99", "[credentials]@h"),
    # a URL's query or fragment, to the end of its setting
    ("llm-s:base_url=http%3A//h/v1?key=SECRETPW:base_url=x", "given twice", "SECRETPW", "?[query]"),
    ("llm-s:model=x:base_url=https%3A//h/v1?api-key=SECRETPW::", "empty setting", "SECRETPW", "?[query]"),
    ("llm-s:base_url=https://h/v1#SECRETPW:", "empty setting", "SECRETPW", "#[query]"),
])
def test_a_metric_spec_repeated_by_a_message_leaves_url_secrets_out(spec, message, secret, shown):
    from gecmetrics.metrics.registry import parse_metric_spec

    with pytest.raises(InputError, match=message) as caught:
        parse_metric_spec(spec)
    assert secret not in str(caught.value) and shown in str(caught.value)


def test_a_key_over_plain_http_to_another_host_is_warned_once(key):
    from gecmetrics.metrics.llm.backends.http import PlainHTTPKeyWarning

    backend = OpenAICompatibleBackend("m", "http://gpu-box.invalid:8000/v1", api_key_env=key, max_retries=0,
                                      concurrency=2)
    with pytest.warns(PlainHTTPKeyWarning, match=r"TEST_LLM_KEY is sent over plain http to gpu-box.invalid") as record:
        with pytest.raises(BackendError, match="cannot reach"):
            _in_time(lambda: Judge(backend, cache=Cache(enabled=False)).score(SOURCES, SYSTEMS))
        with pytest.raises(BackendError, match="cannot reach"):
            _in_time(lambda: Judge(backend, cache=Cache(enabled=False)).score(SOURCES, SYSTEMS))
    assert len([w for w in record if issubclass(w.category, PlainHTTPKeyWarning)]) == 1
    keyed = {"api_key_env": key}
    for url, options in (("http://127.0.0.1:9/v1", keyed), ("http://localhost:9/v1", keyed),
                         ("http://[::1]:9/v1", keyed), ("http://gpu-box.invalid:9/v1", {})):
        quiet = OpenAICompatibleBackend("m", url, max_retries=0, **options)
        with warnings.catch_warnings(), contextlib.suppress(BackendError):
            warnings.simplefilter("error", PlainHTTPKeyWarning)
            _in_time(lambda: Judge(quiet, cache=Cache(enabled=False)).score(SOURCES[:1], [SYSTEMS[0][:1]]))


def test_a_key_through_a_plain_http_proxy_is_warned(key, monkeypatch):
    """With $http_proxy set, a request to a server on this machine went to the proxy, the key in
    its headers, without the warning a remote server gets (only the server's host was looked at)."""
    from gecmetrics.metrics.llm.backends.http import PlainHTTPKeyWarning

    for name in ("no_proxy", "NO_PROXY", "HTTP_PROXY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("http_proxy", "http://proxy.invalid:3128")
    backend = OpenAICompatibleBackend("m", "http://127.0.0.1:9/v1", api_key_env=key, max_retries=0)
    with pytest.warns(PlainHTTPKeyWarning, match=r"TEST_LLM_KEY is sent over plain http through the http proxy "
                                                 r"proxy.invalid \(\$http_proxy\)"):
        with pytest.raises(BackendError, match="cannot reach"):
            _in_time(lambda: Judge(backend, cache=Cache(enabled=False)).score(SOURCES[:1], [SYSTEMS[0][:1]]))
    monkeypatch.setenv("no_proxy", "127.0.0.1")  # the proxy is not used for this host: no warning
    quiet = OpenAICompatibleBackend("m", "http://127.0.0.1:9/v1", api_key_env=key, max_retries=0)
    with warnings.catch_warnings(), contextlib.suppress(BackendError):
        warnings.simplefilter("error", PlainHTTPKeyWarning)
        _in_time(lambda: Judge(quiet, cache=Cache(enabled=False)).score(SOURCES[:1], [SYSTEMS[0][:1]]))


# ----------------------------------------------------------------------------- deadlines

def _trickle(headers_too: bool):
    def respond(handler):
        handler.wfile.write(b"HTTP/1.1 200 OK\r\n")
        if headers_too:
            for _ in range(10_000):
                handler.wfile.write(b"X")
                handler.wfile.flush()
                time.sleep(0.2)
        handler.wfile.write(b"Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n")
        for _ in range(10_000):  # a byte every 0.2 s: each read is quick, the reply never ends
            handler.wfile.write(b" ")
            handler.wfile.flush()
            time.sleep(0.2)
    return respond


@pytest.mark.parametrize("headers_too", [False, True])
def test_a_trickling_reply_ends_at_the_deadline(tmp_path, headers_too):
    """Each attempt ends at the deadline; a server that never sent a whole reply stops the run
    once a request's attempts are spent (every prompt would wait as long)."""
    with Recorder(_trickle(headers_too)) as server:
        with pytest.raises(BackendError, match=r"took the connections but sent no whole reply to any request "
                                               r"\(2 attempts of 1.5 s, the timeout\)"):
            _in_time(lambda: _judge(server.url, tmp_path, timeout=1.5, max_retries=1, concurrency=2)
                     .score(SOURCES, SYSTEMS))


def test_a_server_that_takes_connections_and_never_answers_stops_the_run(tmp_path):
    """A server that accepts and never answers held each prompt (1 + max_retries) x timeout:
    748 s for one prompt at the defaults, 68 hours for CoNLL-2014 (found by an audit)."""
    with Recorder(lambda handler: time.sleep(30)) as server:
        started = time.monotonic()
        with pytest.raises(BackendError, match="took the connections but sent no whole reply to any request"):
            _in_time(lambda: _judge(server.url, tmp_path, timeout=0.5, max_retries=2).score(SOURCES, SYSTEMS))
        assert time.monotonic() - started < 20


def test_a_server_that_answered_before_fails_only_the_prompts_that_time_out(tmp_path):
    """Once a whole reply came, a request whose attempts all time out fails its prompt only (a
    slow moment of a working server is no reason to stop the run)."""
    calls = {"n": 0}

    def respond(handler):
        calls["n"] += 1
        if calls["n"] == 1:
            _send(handler, 500, b"busy")
        else:
            time.sleep(30)

    with Recorder(respond) as server:
        result = _in_time(lambda: _judge(server.url, tmp_path, timeout=0.5, max_retries=1, concurrency=1)
                          .score(SOURCES, SYSTEMS))
    assert result.report.failed and all("deadline" in message for _, message in result.report.failed.values())


@pytest.mark.parametrize("value", ["100000", "inf", "7200"])
def test_a_long_retry_after_stops_the_run_instead_of_waiting(tmp_path, value):
    with Recorder(lambda h: _send(h, 429, b"slow down", {"Retry-After": value})) as server:
        judge = Judge(OpenAICompatibleBackend("m", server.url), cache=Cache(tmp_path / "cache"))  # real waits
        with pytest.raises(BackendError, match=r"asks to wait .* s \(Retry-After\), more than max_retry_after "
                                               r"\(120 s, --max-retry-after\)"):
            _in_time(lambda: judge.score(SOURCES, SYSTEMS))


def test_retry_after_is_honoured_up_to_the_cap(tmp_path):
    waits: list[float] = []
    answers = {"n": 0}

    def respond(body, attempt):
        answers["n"] += 1
        if attempt == 0:
            return 503, "busy", {"Retry-After": "3"}
        return completion_reply(hashed_answer(body))

    with ChatServer(respond) as server:
        backend = OpenAICompatibleBackend("m", server.url, sleep=waits.append, max_retry_after=5)
        assert Judge(backend, cache=Cache(tmp_path)).score(SOURCES, SYSTEMS).report.complete
    assert waits and set(waits) == {3.0}
    with ChatServer(respond) as server:
        backend = OpenAICompatibleBackend("m", server.url, sleep=waits.append, max_retry_after=2)
        with pytest.raises(BackendError, match="more than max_retry_after"):
            Judge(backend, cache=Cache(tmp_path / "b")).score(SOURCES, SYSTEMS)
    for bad in (-1, float("inf"), float("nan"), "60"):
        with pytest.raises(BackendError, match="max_retry_after"):
            OpenAICompatibleBackend("m", "http://127.0.0.1:9/v1", max_retry_after=bad)


@pytest.mark.parametrize("how, concurrency", [(signal.SIGINT, 2), (signal.SIGTERM, 2), (signal.SIGINT, 1),
                                              (signal.SIGTERM, 1)])
def test_waits_end_at_an_interrupt_with_nothing_half_cached(tmp_path, how, concurrency):
    """A server that asks every request to wait 100 s (below the cap given): SIGINT or SIGTERM
    ends the command at once, with no answer stored."""
    (tmp_path / "src").write_text("\n".join(SOURCES) + "\n")
    (tmp_path / "hyp").write_text("\n".join(SYSTEMS[0]) + "\n")
    with ChatServer(lambda body, attempt: (429, "later", {"Retry-After": "100"})) as server:
        env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
        process = subprocess.Popen([gecmetric_script(), "--cache", str(tmp_path / "cache"), "llm", "-s", "src",
                                    "-o", "hyp", "--model", "vllm:m", "--base-url", server.url,
                                    "--max-retry-after", "300", "--concurrency", str(concurrency)],
                                   cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + GUARD
            while server.requests < min(concurrency, 2) and time.monotonic() < deadline:
                time.sleep(0.05)
            assert server.requests >= 1, "no request arrived"
            time.sleep(0.3)  # now waiting out Retry-After
            process.send_signal(how)
            out, err = process.communicate(timeout=20)  # far below the 100 s wait
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
    assert process.returncode == 128 + how and "Traceback" not in err, err  # 130 for SIGINT, 143 for SIGTERM
    assert err.strip() == ("gecmetric: aborted" if how == signal.SIGINT else "gecmetric: stopped by SIGTERM"), err
    assert Cache(tmp_path / "cache").info().entries == 0


# ----------------------------------------------------------------------------- odd replies

@pytest.mark.parametrize("payload", [[1, 2, 3], "hello", 42, None, True])
def test_a_reply_that_is_not_an_object_fails_the_prompt_in_one_line(tmp_path, payload):
    with ChatServer(lambda body, attempt: (200, json.dumps(payload), {})) as server:
        result = _judge(server.url, tmp_path).score(SOURCES, SYSTEMS)
    failed = result.report.failed
    assert len(failed) == len(result.plan.prompts) and np.isnan(result.scores).all()
    assert all(reason == "request-failed" and message.startswith("the reply is not a JSON object: ")
               and "\n" not in message for reason, message in failed.values())


@pytest.mark.parametrize("usage", [{"prompt_tokens": "abc", "completion_tokens": 3}, {"prompt_tokens": [1, 2]},
                                   {"prompt_tokens": 1e400}, {"prompt_tokens": -5, "completion_tokens": -1},
                                   {"prompt_tokens": True}, {"prompt_tokens": 2.5}, [1, 2], "many", None])
def test_odd_token_counts_do_not_stop_a_run_with_good_answers(tmp_path, usage):
    def respond(body, attempt):
        status, payload, headers = completion_reply(hashed_answer(body))
        payload["usage"] = usage
        return status, json.dumps(payload).replace("Infinity", "1e400"), headers

    with ChatServer(respond) as server:
        result = _judge(server.url, tmp_path).score(SOURCES, SYSTEMS)
    assert result.report.complete and not np.isnan(result.scores).any()
    expected_completion = 3 if isinstance(usage, dict) and usage.get("completion_tokens") == 3 else 0
    assert result.report.prompt_tokens == 0
    assert result.report.completion_tokens == expected_completion * len(result.plan.prompts)


def test_an_answer_with_a_key_twice_is_a_bad_answer():
    for text in ('{"target_score1": 5, "target_score1": 1}', '{"target_score1": 2, "x": 1, "x": 2}',
                 '```json\n{"target1_score": 3, "target1_score": 3}\n```'):
        with pytest.raises(BadAnswer, match="given twice") as caught:
            parse_answer(text, 1)
        assert caught.value.reason == "duplicate-key"
    assert parse_answer('{"target_score1": 4, "target1_score": 4}', 1) == [4]


def test_llm_e_uses_the_spacy_model_of_the_environment(monkeypatch):
    from gecmetrics.metrics.registry import get_metric

    monkeypatch.setenv("GECMETRICS_SPACY_MODEL", "no_such_spacy_model_here")
    metric = get_metric("llm-e", model="vllm:m")
    with pytest.raises(InputError, match="no_such_spacy_model_here"):
        metric.edits(["He go ."], [["He goes ."]])
    assert get_metric("llm-e", model="vllm:m", spacy_model="other").settings.spacy_model == "other"


# ---------------------------------------------------------------------------------------------
# a sweep's findings: replies that broke a run, a key that broke answers, messages without a why


def test_a_short_key_in_good_answers_neither_fails_them_nor_reaches_the_cache(tmp_path, monkeypatch):
    """A short key (a local server takes any; '5' in the sweep) was cut out of every answer before
    it was read: '{"target_score1": 5}' became '{"target_score1": [key]}', not JSON, and the means
    moved (1.67 for 2.50). The answer is now read as given; the cache keeps its scores in the
    canonical form, without the key. Here the answers name their targets 'target1_score' (the
    prompt's form) and the key is 'target1'."""
    import re

    monkeypatch.setenv("SHORT_KEY", "target1")

    def respond(body, attempt):
        return completion_reply(re.sub(r"target_score(\d+)", r"target\1_score", hashed_answer(body)))

    with ChatServer(respond) as server:
        plain = _judge(server.url, tmp_path / "plain").score(SOURCES, SYSTEMS)
        short = _judge(server.url, tmp_path / "short", api_key_env="SHORT_KEY").score(SOURCES, SYSTEMS)
        url = server.url
    assert plain.report.complete and short.report.complete
    assert np.array_equal(short.scores, plain.scores, equal_nan=True)
    warm = _judge(url, tmp_path / "short", api_key_env="SHORT_KEY").score(SOURCES, SYSTEMS)  # the server is gone
    assert warm.report.cached == len(warm.answers) and np.array_equal(warm.scores, plain.scores, equal_nan=True)
    stored = [value for (value,) in sqlite3.connect(str(tmp_path / "short" / "cache" / "cache-v1.sqlite3"))
              .execute("SELECT value FROM entries")]
    assert stored and not any(b"target1" in value for value in stored)  # (short values are stored as they are)


def test_a_key_written_by_repr_with_both_quotes_is_cut_from_messages(tmp_path, monkeypatch):
    """A reply that is not JSON is quoted with repr(), which writes a key holding both quotes with
    a backslash: no form the redaction looked for."""
    secret = "sk-a'b\"c123456"
    monkeypatch.setenv("QUOTED_KEY", secret)
    with ChatServer(lambda body, attempt: (200, "{not json " + secret, {})) as server:
        report = _judge(server.url, tmp_path, api_key_env="QUOTED_KEY", max_retries=0).score(SOURCES, SYSTEMS).report
    messages = json.dumps(report.to_dict())
    assert report.failed and "[key]" in messages and "c123456" not in messages


@pytest.mark.parametrize("encode", [lambda key: urllib.parse.quote(key, safe=""), urllib.parse.quote,
                                    urllib.parse.quote_plus, lambda key: urllib.parse.quote(key, safe="").lower()])
def test_a_key_echoed_percent_encoded_is_cut_from_messages(tmp_path, monkeypatch, encode):
    """A server echoing the request as a URL or a form writes it (``%2F`` for ``/``, ``%2B`` for
    ``+``): no form the redaction looked for, so its message showed the key."""
    secret = "sk-a/b+c=d0123456789"
    monkeypatch.setenv("ENCODED_KEY", secret)
    echoed = encode(secret)
    assert echoed != secret
    with ChatServer(lambda body, attempt: (200, "{not json ?key=" + echoed, {})) as server:
        report = _judge(server.url, tmp_path, api_key_env="ENCODED_KEY", max_retries=0).score(SOURCES, SYSTEMS).report
    messages = json.dumps(report.to_dict())
    assert report.failed and "[key]" in messages and "0123456789" not in messages


@pytest.mark.parametrize("reply", ["deep-reply", "deep-answer", "huge-usage"])
def test_replies_past_pythons_limits_fail_their_prompt_or_are_read(tmp_path, reply):
    """Nesting deeper than Python's stack in the reply or in its answer was a RecursionError
    traceback; a usage count of 5,000 digits (past int()'s limit) failed a good answer."""
    def respond(body, attempt):
        if reply == "deep-answer":
            return completion_reply("[" * 100_000 + "]" * 100_000)
        if reply == "huge-usage":
            status, payload, headers = completion_reply(hashed_answer(body))
            text = json.dumps(payload).replace('"prompt_tokens": 10', '"prompt_tokens": ' + "9" * 5000)
            return status, text, headers
        return 200, "[" * 100_000 + "]" * 100_000, {}

    with ChatServer(respond) as server:
        result = _in_time(lambda: _judge(server.url, tmp_path, max_retries=0).score(SOURCES, SYSTEMS))
    if reply == "huge-usage":
        assert result.report.complete and result.report.prompt_tokens == 0  # an odd count: not counted
    else:
        assert len(result.report.failed) == len(result.answers) and "not JSON" in json.dumps(result.report.to_dict())


def test_retry_after_as_an_http_date():
    """A date (RFC 9110) was ignored: a server asking to wait until 2099 was retried with the
    backoff instead of stopping the run."""
    from gecmetrics.metrics.llm.backends.http import _retry_after

    now = lambda: 1_000_000_000.0  # noqa: E731 (2001-09-09 01:46:40 UTC)
    assert _retry_after("Sun, 09 Sep 2001 01:47:10 GMT", now) == 30.0
    assert _retry_after("Sun, 09 Sep 2001 01:40:00 GMT", now) == 0.0  # past: at once
    assert _retry_after("Wed, 21 Oct 2099 07:28:00 GMT") > 2e9
    assert _retry_after("12") == 12.0 and _retry_after("soon") is None and _retry_after(None) is None


def test_no_route_to_the_host_is_a_server_that_cannot_be_reached(monkeypatch):
    """EHOSTUNREACH was retried for about 40 s, then every prompt failed without a word of why."""
    import errno
    import urllib.error
    import urllib.request

    def unreachable(*args, **kwargs):
        raise urllib.error.URLError(OSError(errno.EHOSTUNREACH, "No route to host"))

    monkeypatch.setattr(urllib.request.OpenerDirector, "open", unreachable)
    backend = OpenAICompatibleBackend("m", "http://192.0.2.77:8000/v1", max_retries=1, sleep=lambda s: None)
    with pytest.raises(BackendError, match=r"cannot reach http://192.0.2.77:8000/v1: .*No route to host"):
        Judge(backend, cache=Cache(enabled=False)).score(SOURCES, SYSTEMS)


def test_an_error_for_a_system_without_scores_says_why(tmp_path):
    """'the run's report says why', but the command stopped before printing the report."""
    from gecmetrics.metrics.llm.metric import JudgedCorpus, judge_part

    with ChatServer(lambda body, attempt: (500, "down", {})) as server:
        judge = _judge(server.url, tmp_path, max_retries=1)
        report = judge.score(SOURCES, SYSTEMS).report
    assert report.why() == "2 prompts without an answer (request-failed: 2; the first: HTTP 500 after 2 attempts)"
    assert "the first: HTTP 500 after 2 attempts" in report.summary()


def test_a_line_break_inside_a_sentence_is_refused():
    """The prompt lists one target a line: 'He goes .\\nShe goes .' made two lines, the answer's
    second score went to the next hypothesis. Generators are read once as sequences."""
    from gecmetrics.metrics.llm.prompts import build_plan

    for sources, hypotheses, where in ((["He go .\n"], [["He goes ."]], "source 1"),
                                       (["He go ."], [["He goes .\nShe goes ."], ["He went ."]], "system 0: hypothesis 1"),
                                       (["a", "b"], [["a", "b\u2028c"]], "system 0: hypothesis 2")):
        with pytest.raises(InputError, match=f"^{where} holds a line break"):
            build_plan(sources, hypotheses)
    assert build_plan(["a b", "c"], ((h for h in ["a", "c"]),)).sizes == [1, 1]


def test_request_options_and_the_cache_are_checked_before_any_request(tmp_path):
    """A list as extra_body, a number as api_key_env or a text as requests_per_minute ended in
    a TypeError; temperature NaN was sent ('"temperature": NaN', no JSON a server reads); a
    folder given as the judge's cache was an AttributeError at the first read."""
    for options, message in ((dict(extra_body=[1, 2]), "extra_body must be a dict"),
                             (dict(extra_body="abc"), "extra_body must be a dict"),
                             (dict(api_key_env=5), "api_key_env must be the name of an environment variable"),
                             (dict(requests_per_minute="10"), "requests_per_minute must be a positive number"),
                             (dict(temperature=float("nan")), "temperature must be a finite number"),
                             (dict(top_p="high"), "top_p must be a finite number"),
                             (dict(seed="x"), "seed must be an integer or None"),
                             (dict(seed=True), "seed must be an integer or None")):
        with pytest.raises(BackendError, match=message):
            OpenAICompatibleBackend("m", "http://127.0.0.1:9/v1", **options)
    backend = OpenAICompatibleBackend("m", "http://127.0.0.1:9/v1", temperature=0, top_p=0.5, seed=None,
                                      extra_body={"n": 1}, requests_per_minute=30)
    assert backend.extra_body == {"n": 1}
    with pytest.raises(InputError, match="cache must be a Cache"):
        Judge(backend, cache=str(tmp_path))


def test_the_console_script_folds_the_caches_write_ahead_log_in(tmp_path):
    """It ends with os._exit, which skipped SQLite's close: the answers stayed in the -wal file
    beside an 8 KB database, and a copy of the folder without its -shm (or a read-only one) was
    read as an empty cache."""
    (tmp_path / "src").write_text("\n".join(SOURCES) + "\n")
    (tmp_path / "hyp").write_text("\n".join(SYSTEMS[0]) + "\n")
    with ChatServer() as server:
        env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
        done = subprocess.run([gecmetric_script(), "--cache", str(tmp_path / "cache"), "llm", "-s", "src", "-o", "hyp",
                               "--model", "vllm:m", "--base-url", server.url], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=GUARD)
    assert done.returncode == 0 and server.requests > 0, done.stderr
    left = sorted(path.name for path in (tmp_path / "cache").iterdir())
    assert not any(name.endswith(("-wal", "-shm")) for name in left), left
    with contextlib.closing(sqlite3.connect(tmp_path / "cache" / "cache-v1.sqlite3")) as connection:
        assert connection.execute("select count(*) from entries").fetchone()[0] > 0


# ----------------------------------------------------------------------------- audit of 2026-12-07

def test_a_key_changed_or_unset_in_the_environment_is_followed_at_the_next_request(tmp_path, monkeypatch):
    """The backend read the key once: a key rotated (or unset) in the process's environment was
    still sent, as the docs say it is never kept."""
    monkeypatch.setenv("ROTATED_KEY", "key-AAAA0001")
    with ChatServer() as server:
        judge = _judge(server.url, tmp_path, api_key_env="ROTATED_KEY", concurrency=1)
        judge.score(SOURCES[:1], [SYSTEMS[0][:1]])
        monkeypatch.setenv("ROTATED_KEY", "key-BBBB0002")
        judge.score(SOURCES[1:], [SYSTEMS[0][1:]])
        monkeypatch.delenv("ROTATED_KEY")
        judge.score(SOURCES[:1], [SYSTEMS[1][:1]])
    assert [headers.get("Authorization") for headers in server.headers] == \
        ["Bearer key-AAAA0001", "Bearer key-BBBB0002", None]


def test_a_key_required_and_unset_after_the_start_stops_the_run_in_one_line(tmp_path, monkeypatch):
    monkeypatch.setenv("ROTATED_KEY", "key-AAAA0001")
    with ChatServer() as server:
        judge = _judge(server.url, tmp_path, api_key_env="ROTATED_KEY", key_required=True)
        monkeypatch.delenv("ROTATED_KEY")
        with pytest.raises(BackendError, match="no API key: set the environment variable ROTATED_KEY"):
            judge.score(SOURCES, SYSTEMS)
    assert server.requests == 0


def test_a_reply_cut_short_of_its_content_length_is_sent_again(tmp_path):
    """A reply whose connection closed before the bytes its Content-Length promised was read as
    "not JSON" and never asked again (a read with a limit does not raise IncompleteRead)."""
    answer = json.dumps(completion_reply(json.dumps({"target_score1": 4, "target_score2": 3}))[1]).encode()

    def respond(handler):
        if len(server.seen) <= 2:  # the first answer to each prompt is cut
            handler.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                                + f"Content-Length: {len(answer)}\r\nConnection: close\r\n\r\n".encode()
                                + answer[:len(answer) // 2])
            handler.close_connection = True
        else:
            _send(handler, 200, answer)

    with Recorder(respond) as server:
        result = _judge(server.url, tmp_path, concurrency=1).score(SOURCES, SYSTEMS)
    assert len(server.seen) == 4 and not result.report.failed
    assert sorted(map(sorted, result.scores.tolist())) == [[3, 4], [3, 4]]  # (the targets' order is the prompt's)


def test_https_to_a_plain_http_port_stops_the_run_at_the_first_request(tmp_path):
    """A TLS failure that every request would meet (https spoken to a plain http port, a
    certificate not trusted) was retried for every prompt: minutes per prompt, hours a corpus."""
    with Recorder(lambda h: _send(h, 200, b"{}")) as server:
        url = server.url.replace("http://", "https://")
        with pytest.raises(BackendError, match="cannot connect securely to https://127.*the port speaks plain http"):
            _in_time(lambda: _judge(url, tmp_path, max_retries=3).score(SOURCES, SYSTEMS))
    assert len(server.seen) == 0  # (the TLS greeting is no HTTP request the server could read)


def test_a_certificate_not_trusted_is_a_failure_that_lasts():
    import ssl

    from gecmetrics.metrics.llm.backends.http import _lasting_tls_failure

    assert _lasting_tls_failure(ssl.SSLCertVerificationError(1, "certificate verify failed"))
    assert not _lasting_tls_failure(ssl.SSLEOFError(8, "EOF occurred in violation of protocol"))
    assert not _lasting_tls_failure(ConnectionResetError())


def test_a_servers_error_text_is_one_line_without_control_characters(tmp_path, key):
    """A 401's HTML page printed eight lines with their CRs, and a server's escape codes reached
    the terminal (one cleared the screen)."""
    page = b"<html>\r\n<head><title>401</title></head>\r\n<body>\x1b[2J\x1b[31mall good\x1b[0m</body>\r\n</html>\r\n"
    with Recorder(lambda h: _send(h, 401, page)) as server:
        with pytest.raises(BackendError) as caught:
            _judge(server.url, tmp_path, api_key_env=key).score(SOURCES, SYSTEMS)
    message = str(caught.value)
    assert "HTTP 401: <html> <head><title>401</title></head> <body> [2J [31mall good [0m</body> </html>" in message
    assert not any(c in message for c in "\r\n\x1b")


def test_more_request_options_are_checked_before_any_request():
    """Each was taken and failed later (a TypeError traceback at the first request), or sent as no
    server reads it (NaN, max_tokens true), or repeated a URL's credentials given as bytes."""
    for options, message in ((dict(extra_body={"x": {1, 2}}), "extra_body must hold JSON values only"),
                             (dict(extra_body={"x": b"ab"}), "extra_body must hold JSON values only"),
                             (dict(extra_body={"x": float("nan")}), "extra_body must hold JSON values only"),
                             (dict(max_tokens=True), "max_tokens must be a positive integer"),
                             (dict(system_message=5), "system_message must be a str or None, not an int"),
                             (dict(key_required="no"), "key_required must be True or False, not 'no'")):
        with pytest.raises(BackendError, match=message):
            OpenAICompatibleBackend("m", "http://127.0.0.1:9/v1", **options)
    with pytest.raises(BackendError) as caught:
        OpenAICompatibleBackend("m", b"http://user:sk-SECRET99@host/v1")
    assert "SECRET99" not in str(caught.value) and "must be an http(s) URL (a str)" in str(caught.value)
    assert OpenAICompatibleBackend("m", "HTTPS://Example.org/v1/").base_url == "https://Example.org/v1"
    # the same request, the same cached answers
    assert OpenAICompatibleBackend("m", "http://127.0.0.1:9/v1", temperature=0).cache_parts() == \
        OpenAICompatibleBackend("m", "http://127.0.0.1:9/v1", temperature=0.0).cache_parts()


def test_the_llm_command_sends_structured_and_temperature(tmp_path):
    """Its message for a server without JSON schemas named structured=, which the command had no
    option for."""
    (tmp_path / "src").write_text("\n".join(SOURCES) + "\n")
    (tmp_path / "hyp").write_text("\n".join(SYSTEMS[0]) + "\n")
    with ChatServer() as server:
        done = subprocess.run([gecmetric_script(), "--cache", str(tmp_path / "cache"), "llm", "-s", "src", "-o", "hyp",
                               "--model", "openai-compatible:m", "--base-url", server.url, "--structured", "none",
                               "--temperature", "0.5"], cwd=tmp_path, capture_output=True, text=True, timeout=GUARD)
    assert done.returncode == 0, done.stderr
    assert server.bodies and all("response_format" not in body and body["temperature"] == 0.5 for body in server.bodies)
