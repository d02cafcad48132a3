"""The LLM judge over the OpenAI-compatible HTTP backend against loopback servers: gec-metrics'
request bodies, the cache (a re-run sends nothing; a killed run resumes), the request budget,
bad answers retried then counted, transient errors retried with backoff, fatal errors in one
line, the rate limiter, the dry run and the provider strings. No torch needed."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from tests._llm_support import ChatServer, completion_reply, hashed_answer, hashed_scores, targets_of
from tests.test_llm_prompts import recorded

from gecmetrics.core.cache import Cache  # the real module, or the stand-in _llm_support installed
from gecmetrics.errors import InputError
from gecmetrics.metrics.llm.answers import response_format
from gecmetrics.metrics.llm.backends import BackendError, make_backend, parse_spec
from gecmetrics.metrics.llm.backends.http import OpenAICompatibleBackend, RateLimiter
from gecmetrics.metrics.llm.judge import Judge

ROOT = Path(__file__).resolve().parent.parent

SOURCES = ["This are a sentences .", "He go to school yesterday .", "She like apple .", "Nothing here ."]
SYSTEMS = [
    ["This is a sentence .", "He goes to school yesterday .", "She likes apples .", "Nothing here ."],
    ["This are a sentence .", "He went to school yesterday .", "She likes apple .", "Nothing here ."],
    ["This is a sentence .", "He go to the school yesterday .", "She liked apples .", "Nothing here !"],
    ["A", "B", "C", "D"], ["E", "F", "G", "H"], ["I", "J", "K", "L"],
]
"""Six systems: sentences 1 and 2 have six distinct hypotheses, so two prompts each under 'all' (six in all)."""


def first(k: int, systems: int = len(SYSTEMS)) -> tuple[list[str], list[list[str]]]:
    """The first ``k`` sentences of the first ``systems`` systems."""
    return SOURCES[:k], [system[:k] for system in SYSTEMS[:systems]]


def backend(server: ChatServer, **options) -> OpenAICompatibleBackend:
    options.setdefault("concurrency", 3)
    options.setdefault("sleep", lambda seconds: None)
    return OpenAICompatibleBackend("test-model", server.url, **options)


def expected_scores(judge: Judge) -> np.ndarray:
    plan = judge.plan(SOURCES, SYSTEMS)
    return plan.assemble([hashed_scores(p, n) for p, n in zip(plan.prompts, plan.sizes)])


def test_scores_and_cache(tmp_path):
    cache = Cache(tmp_path)
    with ChatServer() as server:
        seen = []
        judge = Judge(backend(server), cache=cache, progress=lambda done, total: seen.append((done, total)))
        first = judge.score(SOURCES, SYSTEMS)
        n_prompts = len(first.plan.prompts)
        assert seen == [(k, n_prompts) for k in range(1, n_prompts + 1)]
        assert n_prompts == 6 and server.requests == n_prompts
        np.testing.assert_array_equal(first.scores, expected_scores(judge))
        assert not np.isnan(first.scores).any()
        assert first.report.complete and first.report.answered == n_prompts and first.report.cached == 0
        assert first.report.prompt_tokens == 10 * n_prompts  # the server's usage, summed
        # a second run, even through a new backend object, sends nothing
        again = Judge(backend(server), cache=Cache(tmp_path)).score(SOURCES, SYSTEMS)
        assert server.requests == n_prompts
        assert again.report.cached == n_prompts and again.report.requested == 0
        np.testing.assert_array_equal(again.scores, first.scores)
        np.testing.assert_allclose(again.system_scores(), np.nanmean(first.scores, axis=0))
        # another decoding setting is another key
        Judge(backend(server, temperature=0.0), cache=cache).score(SOURCES, SYSTEMS)
        assert server.requests == 2 * n_prompts
        # a disabled cache stores nothing
        off = Judge(backend(server), cache=Cache(enabled=False))
        off.score(SOURCES, SYSTEMS)
        off.score(SOURCES, SYSTEMS)
        assert server.requests == 4 * n_prompts


@pytest.mark.parametrize("row", [r for r in recorded() if r["criterion"] in (None, "impact")],
                         ids=lambda r: f"{r['case']}-{r['kind']}-{r['criterion']}")
def test_request_bodies_equal_gec_metrics(tmp_path, row):
    """With the defaults and gec-metrics' model name, each request body is the one its OpenAI
    client sent (model, stream, messages, response_format, seed), in the same order."""
    from tests.test_llm_prompts import recorded_edits

    kind = {"S": "llm-s", "E": "llm-e"}[row["kind"]]
    edits = recorded_edits(row) if kind == "llm-e" else None
    with ChatServer() as server:
        http = OpenAICompatibleBackend("gpt-4o-mini-2024-07-18", server.url, concurrency=1)
        judge = Judge(http, variant=kind, criterion=row["criterion"], grouping="gec-metrics", cache=Cache(tmp_path))
        judge.score(row["sources"], row["hypotheses"], edits)
        assert server.bodies == [r["body"] for r in row["requests"]]
        assert all("Authorization" not in h for h in server.headers)


def test_api_key_from_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("TEST_LLM_KEY", "sk-test")
    with ChatServer() as server:
        Judge(backend(server, api_key_env="TEST_LLM_KEY"), cache=Cache(tmp_path)).score(*first(1))
        assert server.headers[0]["Authorization"] == "Bearer sk-test"
    monkeypatch.delenv("TEST_LLM_KEY")
    with pytest.raises(BackendError, match="TEST_LLM_KEY"):
        OpenAICompatibleBackend("m", "http://127.0.0.1:9/v1", api_key_env="TEST_LLM_KEY", key_required=True)


def test_structured_output_modes(tmp_path):
    with ChatServer() as server:
        Judge(backend(server, structured="json_object", seed=None, max_tokens=50, temperature=0.0),
              cache=Cache(tmp_path)).score(*first(1, 2))
        body = server.bodies[-1]
        assert body["response_format"] == {"type": "json_object"}
        assert "seed" not in body and body["max_tokens"] == 50 and body["temperature"] == 0.0
        Judge(backend(server, structured="none", system_message=None), cache=Cache(tmp_path)).score(*first(1, 2))
        body = server.bodies[-1]
        assert "response_format" not in body and [m["role"] for m in body["messages"]] == ["user"]


def test_budget_stops_cleanly_and_resumes(tmp_path):
    with ChatServer() as server:
        judge = Judge(backend(server), cache=Cache(tmp_path), max_requests=2)
        dry = judge.dry_run(SOURCES, SYSTEMS, prices=(0.15, 0.6))
        assert (dry.prompts, dry.cached, dry.to_request, dry.over_budget) == (6, 0, 2, 4)
        assert "4 more prompts are beyond the request budget" in dry.summary()
        first = judge.score(SOURCES, SYSTEMS)
        assert server.requests == 2
        report = first.report
        assert report.budget_reached and not report.complete and len(report.not_sent) == 4
        assert "budget reached: 4 prompts not sent" in report.summary()
        saved = json.loads(json.dumps(report.to_dict()))
        assert saved["complete"] is False and saved["requested"] == 2 and len(saved["not_sent"]) == 4
        assert np.isnan(first.scores).any() and not np.isnan(first.scores).all()
        second = judge.score(SOURCES, SYSTEMS)  # the budget is per run: two more
        assert server.requests == 4 and second.report.cached == 2 and len(second.report.not_sent) == 2
        third = Judge(backend(server), cache=Cache(tmp_path)).score(SOURCES, SYSTEMS)
        assert server.requests == 6 and third.report.complete and not third.report.budget_reached
        np.testing.assert_array_equal(third.scores, expected_scores(judge))
        assert Judge(backend(server), cache=Cache(tmp_path), max_requests=0).score(SOURCES, SYSTEMS).report.complete


def test_bad_answers_retried_then_counted(tmp_path):
    """Each prompt gets a bad answer first (of a kind chosen by the prompt); most then answer
    well, one stays out of range for good: it is counted, its scores are NaN, nothing raises."""
    judge_plan = Judge(backend(ChatServer()), cache=Cache(enabled=False)).plan(SOURCES, SYSTEMS)
    stubborn = judge_plan.prompts[2]
    kinds = ["not json", '{"target_score1": 9}', '{"target_score1": 1}', "", '```json\n{"x": 1}\n```']

    def respond(body, attempt):
        prompt = body["messages"][-1]["content"]
        k = judge_plan.prompts.index(prompt)
        if prompt == stubborn:
            return completion_reply(json.dumps({f"target_score{i + 1}": 6 for i in range(targets_of(body))}))
        if attempt == 0:
            return completion_reply(kinds[k % len(kinds)])
        if attempt == 1 and k == 0:
            return completion_reply(None)  # e.g. a refusal: no content
        return completion_reply(hashed_answer(body))

    with ChatServer(respond) as server:
        result = Judge(backend(server), cache=Cache(tmp_path), answer_retries=2).score(SOURCES, SYSTEMS)
        report = result.report
        assert server.requests == 6 + 6 + 1 + 1  # all twice, prompt 0 and the stubborn one a third time
        assert report.requested == server.requests
        assert report.retried == 6 + 2
        assert sum(report.bad_answers.values()) == 6 + 2 + 1
        assert report.bad_answers["out-of-range"] >= 3 and report.bad_answers["empty"] >= 2
        assert report.bad_answers["not-json"] >= 1 and report.bad_answers["missing"] >= 1
        assert list(report.failed) == [2] and report.failed[2][0] == "out-of-range"
        assert "1 prompts without an answer (out-of-range: 1; the first: target 1: 6 is outside 1..5)" in report.summary()
        k = 2
        assert np.isnan(result.scores[result.plan.prompt_of == k]).all()
        assert not np.isnan(result.scores[result.plan.prompt_of != k]).any()
        assert result.answers[k] is None
        # the failed prompt is not cached: a re-run asks only for it
        again = Judge(backend(server), cache=Cache(tmp_path), answer_retries=0).score(SOURCES, SYSTEMS)
        assert again.report.cached == 5 and again.report.requested == 1 and again.report.failed[2][0] == "out-of-range"


def test_transient_errors_retried_with_backoff(tmp_path):
    waits: list[float] = []

    def respond(body, attempt):
        if attempt == 0:
            return 429, {"error": {"message": "slow down"}}, {"Retry-After": "7"}
        if attempt == 1:
            return 503, "busy", {}
        return completion_reply(hashed_answer(body))

    with ChatServer(respond) as server:
        http = backend(server, sleep=waits.append, backoff=0.5, max_backoff=30.0)
        result = Judge(http, cache=Cache(tmp_path)).score(*first(2))
        n = len(result.plan.prompts)
        assert result.report.complete and result.report.requested == n and server.requests == 3 * n
        assert http.stats["http_429"] == n and http.stats["http_503"] == n and http.stats["retries"] == 2 * n
        assert sorted(waits)[-n:] == [7.0] * n  # Retry-After honoured
        assert all(0.5 * 0.5 <= w <= 0.5 * 2 for w in waits if w != 7.0)  # backoff * 2**1 with jitter

    with ChatServer(lambda body, attempt: (500, "down", {})) as server:
        http = backend(server, max_retries=2)
        result = Judge(http, cache=Cache(tmp_path / "b")).score(*first(1, 2))
        assert server.requests == 3 and result.report.failed[0] == ("request-failed", "HTTP 500 after 3 attempts")
        assert np.isnan(result.scores).all()


def test_backoff_grows_exponentially():
    http = OpenAICompatibleBackend("m", "http://127.0.0.1:9/v1", backoff=1.0, max_backoff=10.0)
    for attempt, cap in enumerate([1, 2, 4, 8, 10, 10]):
        assert cap * 0.5 <= http.delay(attempt, None) <= cap
    assert http.delay(3, 2.5) == 2.5


@pytest.mark.parametrize("status, message", [(401, "TEST_KEY"), (404, "model name"),
                                             (400, "structured=json_object or none")])
def test_fatal_errors_are_one_line(tmp_path, status, message):
    text = "response_format json_schema is not supported" if status == 400 else "no"
    with ChatServer(lambda body, attempt: (status, text, {})) as server:
        http = backend(server, api_key_env="TEST_KEY")
        with pytest.raises(BackendError, match=message) as caught:
            Judge(http, cache=Cache(tmp_path)).score(SOURCES, SYSTEMS)
        assert isinstance(caught.value, InputError) and "\n" not in str(caught.value)


def test_other_client_errors_fail_the_prompt_only(tmp_path):
    def respond(body, attempt):
        if "She like" in body["messages"][-1]["content"]:
            return 400, "maximum context length exceeded", {}
        return completion_reply(hashed_answer(body))

    with ChatServer(respond) as server:
        result = Judge(backend(server), cache=Cache(tmp_path)).score(SOURCES, SYSTEMS)
        failed = result.report.failed
        assert len(failed) == 2 and all(reason == "request-failed" for reason, _ in failed.values())
        assert np.isnan(result.scores[2]).all() and not np.isnan(result.scores[[0, 1, 3]]).any()


def test_unreachable_server(tmp_path):
    with ChatServer() as server:
        url = server.url
    http = OpenAICompatibleBackend("m", url, max_retries=1, sleep=lambda s: None)
    with pytest.raises(BackendError, match="cannot reach"):
        Judge(http, cache=Cache(tmp_path)).score(SOURCES, SYSTEMS)


def test_rate_limiter_spacing():
    now = [100.0]
    slept: list[float] = []

    def sleep(seconds):
        slept.append(seconds)

    limiter = RateLimiter(120, clock=lambda: now[0], sleep=sleep)  # one every 0.5 s
    assert [limiter.acquire() for _ in range(4)] == [0.0, 0.5, 1.0, 1.5]
    now[0] += 10.0  # idle: no debt carried over
    assert limiter.acquire() == 0.0
    assert slept == [0.5, 1.0, 1.5]
    assert RateLimiter(None).acquire() == 0.0
    with pytest.raises(BackendError):
        RateLimiter(0)


def test_dry_run(tmp_path):
    with ChatServer() as server:
        judge = Judge(backend(server), cache=Cache(tmp_path))
        dry = judge.dry_run(SOURCES, SYSTEMS, prices=(0.15, 0.60))
        assert server.requests == 0
        assert (dry.prompts, dry.cached, dry.to_request) == (6, 0, 6) and not dry.exact
        plan = judge.plan(SOURCES, SYSTEMS)
        chars = sum(len(p) for p in plan.prompts)
        assert chars / 4 < dry.prompt_tokens < chars / 4 + 6 * 30
        assert dry.cost == pytest.approx((dry.prompt_tokens * 0.15 + dry.completion_tokens * 0.60) / 1e6)
        assert "estimated cost" in dry.summary() and "~" in dry.summary()
        judge.score(*first(2))
        later = judge.dry_run(SOURCES, SYSTEMS)
        assert later.cached == 3 and later.to_request == 3 and later.cost is None
        with pytest.raises(InputError):
            judge.dry_run(SOURCES, SYSTEMS, prices=(1.0,))


def test_judge_checks_settings():
    http = OpenAICompatibleBackend("m", "http://127.0.0.1:9/v1")
    with pytest.raises(InputError, match="max_requests"):
        Judge(http, cache=Cache(enabled=False), max_requests=-1)
    with pytest.raises(InputError, match="answer_retries"):
        Judge(http, cache=Cache(enabled=False), answer_retries=1.5)
    with pytest.raises(InputError, match="criterion"):
        Judge(http, cache=Cache(enabled=False), criterion="impact")
    with pytest.raises(InputError, match="grouping"):
        Judge(http, cache=Cache(enabled=False), grouping="random")
    for bad in (None, "gpt-4o", object()):  # None was taken, to fail at the first prompt
        with pytest.raises(InputError, match="backend must be an LLM backend .* without cache_namespace"):
            Judge(bad, cache=Cache(enabled=False))
    with pytest.raises(InputError, match="progress must be a function"):
        Judge(http, cache=Cache(enabled=False), progress=True)
    for bad in ({"structured": "xml"}, {"concurrency": 0}, {"base_url": "localhost:8000"}):
        with pytest.raises(BackendError):
            OpenAICompatibleBackend("m", **{"base_url": "http://127.0.0.1:9/v1", **bad})


def test_provider_strings(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-x")
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    openai = make_backend("openai")
    assert (openai.model, openai.base_url, openai.seed) == ("gpt-4o-mini-2024-07-18", "https://api.openai.com/v1", 777)
    ollama = make_backend("ollama:llama3.1:8b", concurrency=2)
    assert (ollama.model, ollama.base_url, ollama.concurrency) == ("llama3.1:8b", "http://localhost:11434/v1", 2)
    assert make_backend("llama.cpp:m").base_url == "http://localhost:8080/v1"
    assert make_backend("vllm:Qwen/Qwen2.5-7B-Instruct", base_url="http://gpu:9000/v1/").base_url == "http://gpu:9000/v1"
    custom = make_backend("openai-compatible:m", base_url="http://h/v1", api_key_env="MY_KEY")
    assert custom.api_key_env == "MY_KEY" and custom.cache_namespace() == "llm/openai-compatible/m"
    with pytest.raises(BackendError, match="GEMINI_API_KEY"):
        make_backend("gemini:gemini-2.0-flash")
    monkeypatch.setenv("GEMINI_API_KEY", "g")
    assert make_backend("gemini:gemini-2.0-flash").seed is None  # gec-metrics sends no seed to Gemini
    assert parse_spec("HF:/models/x") == ("hf", "/models/x")
    for spec, message in [("claude:x", "unknown LLM provider"), ("openai-compatible:m", "base_url"),
                          ("vllm", "give the model"), ("transformers", "model folder"), ("", "provider:model")]:
        with pytest.raises(BackendError, match=message):
            make_backend(spec)
    with pytest.raises(BackendError, match="unknown option"):
        make_backend("vllm:m", devise="cpu")


def test_response_format_is_gec_metrics():
    body = recorded()[0]["requests"][0]["body"]
    assert body["response_format"] == response_format(3)


KILLED_RUN = """
import sys
sys.path.insert(0, {root!r})
import tests._llm_support
from gecmetrics.core.cache import Cache
from gecmetrics.metrics.llm.backends.http import OpenAICompatibleBackend
from gecmetrics.metrics.llm.judge import Judge
from tests.test_llm_judge import SOURCES, SYSTEMS
judge = Judge(OpenAICompatibleBackend("test-model", {url!r}, concurrency=1), cache=Cache({cache!r}))
judge.score(SOURCES, SYSTEMS)
print("finished")
"""


def test_killed_run_resumes_from_the_cache(tmp_path):
    """A run killed (SIGKILL) while waiting for its 4th answer: the 3 answers it had are in the
    cache, and the next run asks only for the other 3 prompts."""
    if not hasattr(signal, "SIGKILL"):
        pytest.skip("needs SIGKILL")
    folder = str(tmp_path / "cache")
    with ChatServer(hold_after=3) as server:
        code = KILLED_RUN.format(root=str(ROOT), url=server.url, cache=folder)
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        child = subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE)
        judge = Judge(OpenAICompatibleBackend("test-model", server.url, concurrency=1), cache=Cache(folder))
        keys = judge.keys(judge.plan(SOURCES, SYSTEMS))
        namespace = judge.backend.cache_namespace()
        deadline = time.monotonic() + 120
        while server.requests < 4 or len(Cache(folder).get_many(namespace, keys)) < 3:
            assert child.poll() is None, child.communicate()
            assert time.monotonic() < deadline, "the child run never reached its 4th request"
            time.sleep(0.05)
        child.send_signal(signal.SIGKILL)
        out, _ = child.communicate()
        assert child.returncode == -signal.SIGKILL and b"finished" not in out
        assert len(Cache(folder).get_many(namespace, keys)) == 3
        server.hold_after = None
        server.release()
        before = server.requests
        result = judge.score(SOURCES, SYSTEMS)
        assert result.report.cached == 3 and result.report.requested == 3
        assert server.requests - before == 3 and result.report.complete
        np.testing.assert_array_equal(result.scores, expected_scores(judge))
