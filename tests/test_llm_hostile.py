"""Hostile inputs to the LLM judges (a sweep, 2026-12-05): a huge target number in an answer, lone
surrogates in a reply or a Python caller's texts, LLM-E edits of the wrong shape or with a line
break, a criterion that is no text, a URL with credentials given as the model, a rate whose wait
overflows, and a backend of the caller's that gives what is no (index, Completion), returns no
iterable from generate(), answers a request twice or counts tokens with what is no count."""
from __future__ import annotations

import json
import sqlite3

import pytest

from tests._llm_support import ChatServer, completion_reply, hashed_answer
from tests.conftest import one_line_error, write_files

from gecmetrics.core.cache import Cache
from gecmetrics.errors import InputError
from gecmetrics.metrics.llm.answers import BadAnswer, parse_answer
from gecmetrics.metrics.llm.backends import make_backend
from gecmetrics.metrics.llm.backends.base import BackendError, Completion
from gecmetrics.metrics.llm.judge import Judge

SOURCES = ["He go home .", "She like apple ."]
SYSTEMS = [["He goes home .", "She likes apples ."], ["He went home .", "She like apples ."]]


@pytest.fixture(autouse=True)
def answer_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("GECMETRICS_CACHE", str(tmp_path / "answers"))


def test_an_answer_with_a_huge_target_number_is_a_bad_answer_not_a_traceback():
    """int() of a key's 5,000 digits raised ValueError (Python's digit limit) out of the judge."""
    with pytest.raises(BadAnswer, match="a score for target 1111") as bad:
        parse_answer(json.dumps({"target_score" + "1" * 5000: 3}), 1)
    assert bad.value.reason == "extra"
    assert parse_answer('{"target_score01": 3}', 1) == [3]
    with ChatServer(lambda body, attempt: completion_reply(json.dumps({"target_score" + "1" * 5000: 3}))) as server:
        backend = make_backend("openai-compatible:m", base_url=server.url, max_retries=0)
        result = Judge(backend, cache=Cache(enabled=False), answer_retries=0).score(SOURCES, SYSTEMS)
    assert result.report.bad_answers == {"extra": 2} and len(result.report.failed) == 2


def test_an_answer_with_a_huge_integer_score_is_a_bad_answer_not_a_traceback():
    """math.isfinite of an integer past float's range raised OverflowError out of the judge (a
    401-digit score is valid JSON, and the answer schema's "integer" allows it); keys are read in
    ASCII digits only, whole (a fullwidth or Arabic-Indic digit, or a trailing newline, was read
    as a target number). Found by a differential check against gec-metrics' answer reading."""
    with pytest.raises(BadAnswer, match=r"target 1: 1\.00e\+400 is outside 1\.\.5") as bad:
        parse_answer('{"target_score1": 1' + "0" * 400 + ', "target_score2": 3}', 2)
    assert bad.value.reason == "out-of-range"
    for key in ("target_score\uff11", "target_score\u0661", "target_score1\n", "target\u0967_score"):
        with pytest.raises(BadAnswer, match=r"no score for targets \[1\]"):
            parse_answer(json.dumps({key: 4, "target_score2": 3}), 2)
    assert parse_answer('{"target_score1": 4.0, "target2_score": 3}', 2) == [4, 3]
    huge = '{"target_score1": 1' + "0" * 400 + ', "target_score2": 3}'  # (two systems: two targets a prompt)
    with ChatServer(lambda body, attempt: completion_reply(huge)) as server:
        backend = make_backend("openai-compatible:m", base_url=server.url, max_retries=0)
        result = Judge(backend, cache=Cache(enabled=False), answer_retries=0).score(SOURCES, SYSTEMS)
    assert result.report.bad_answers == {"out-of-range": 2} and len(result.report.failed) == 2


def test_an_answer_holding_a_lone_surrogate_is_cached(tmp_path):
    """A reply's "\\ud800" escape decodes to a lone surrogate: storing the answer raised
    UnicodeEncodeError (a traceback of `gecmetric llm`)."""
    def respond(body, attempt):
        answer = json.loads(hashed_answer(body))
        answer["note"] = "\ud800"
        return 200, '{"choices": [{"message": {"content": ' + json.dumps(json.dumps(answer, ensure_ascii=False)) \
            + '}}]}', {}

    with ChatServer(respond) as server:
        backend = make_backend("openai-compatible:m", base_url=server.url, max_retries=0)
        first = Judge(backend, cache=Cache(tmp_path / "c")).score(SOURCES, SYSTEMS)
        again = Judge(backend, cache=Cache(tmp_path / "c")).score(SOURCES, SYSTEMS)
    assert first.report.complete and again.report.cached == 2 and (first.scores == again.scores).all()


def test_texts_with_a_lone_surrogate_are_refused_before_any_request():
    with ChatServer() as server:
        judge = Judge(make_backend("openai-compatible:m", base_url=server.url), cache=Cache(enabled=False))
        with pytest.raises(InputError, match=r"source 1 holds a lone surrogate"):
            judge.score(["He go \ud800 ."], [["He goes ."]])
        with pytest.raises(InputError, match=r"system 0: hypothesis 1 holds a lone surrogate"):
            judge.score(["He go ."], [["He goes \udfff ."]])
        assert server.requests == 0


@pytest.mark.parametrize("edits, message", [
    (5, "edits must be a sequence of systems"),
    ([1, 2], "edits of system 0 must be a sequence"),
    ([[None, None], [[], []]], "a hypothesis' edits are a list of"),
    ([[[(0, 1, "goes\nhome")], []], [[], []]], "its correction holds a line break"),
])
def test_llm_e_edits_of_the_wrong_shape_or_with_a_line_break_are_refused(edits, message):
    judge = Judge(make_backend("openai-compatible:m", base_url="http://127.0.0.1:9/v1"), variant="llm-e",
                  cache=Cache(enabled=False))
    with pytest.raises(InputError, match=message):
        judge.plan(SOURCES, SYSTEMS, edits)


@pytest.mark.parametrize("criterion", [["fluency"], {}])
def test_a_criterion_that_is_no_text_is_refused(criterion):
    with pytest.raises(InputError, match="unknown criterion"):
        Judge(make_backend("openai-compatible:m", base_url="http://127.0.0.1:9/v1"), criterion=criterion,
              cache=Cache(enabled=False))


@pytest.mark.parametrize("model", ["http://user:SECRET@127.0.0.1:9/v1", "openai-compatible:https://u:SECRET@h/v1",
                                   "https://user:SECRET@host/v1", "https://host/v1?key=SECRET"])
def test_a_url_with_credentials_given_as_the_model_is_never_shown(tmp_path, model):
    paths = write_files(tmp_path, {"src": SOURCES, "a": SYSTEMS[0]})
    err = one_line_error("llm", "-s", paths["src"], "-o", paths["a"], "--model", model)
    assert "SECRET" not in err, err
    err = one_line_error("llm", "-s", paths["src"], "-o", paths["a"], "--model", model, "--base-url",
                         "http://127.0.0.1:9/v1", "--dry-run")
    assert "SECRET" not in err, err
    with pytest.raises(InputError) as refused:
        make_backend(model, base_url="http://127.0.0.1:9/v1")
    assert "SECRET" not in str(refused.value)


def test_a_url_with_credentials_as_the_model_is_refused_with_the_provider_given_apart():
    """get_metric("llm-s", provider=..., model="https://user:SECRET@h/v1") was taken: the password
    went into repr(), the signature, a pickled metric and a reward's name (TRL logs under it)."""
    from gecmetrics import get_metric
    from gecmetrics.rewards import reward_function

    for make in (lambda: get_metric("llm-s", provider="openai-compatible", model="https://user:SECRET@h/v1"),
                 lambda: reward_function("llm-s", provider="vllm", model="http://u:SECRET@h:8000/v1")):
        with pytest.raises(InputError) as refused:
            make()
        assert "SECRET" not in str(refused.value) and "[credentials]" in str(refused.value)
    # the default model (a provider:model text) was sent as the bare model name of the provider given
    assert get_metric("llm-s", provider="openai").settings.model == "gpt-4o-mini-2024-07-18"
    with pytest.raises(InputError, match="give the model of provider vllm"):
        get_metric("llm-s", provider="vllm")


def test_the_key_given_as_api_key_env_is_not_repeated(monkeypatch):
    """make_backend("openai:m", api_key_env=KEY) said "set the environment variable sk-...";
    openai-compatible took it and sent no key."""
    for spec, options in (("openai:gpt-4o", {}), ("openai-compatible:m", {"base_url": "http://127.0.0.1:9/v1"})):
        with pytest.raises(InputError) as refused:
            make_backend(spec, api_key_env="sk-SECRET-0123456789", **options)
        assert "SECRET" not in str(refused.value) and "api_key_env names the environment variable" in str(refused.value)


def test_a_rate_whose_wait_overflows_is_one_line(tmp_path):
    """--rpm 1e-300: the second request's wait raised OverflowError in a thread (a traceback)."""
    paths = write_files(tmp_path, {"src": SOURCES, "a": SYSTEMS[0]})
    with ChatServer() as server:
        err = one_line_error("llm", "-s", paths["src"], "-o", paths["a"], "--model", "openai-compatible:m",
                             "--base-url", server.url, "--rpm", "1e-300", "--concurrency", "1")
        assert "requests_per_minute" in err and server.requests == 0


class _Scripted:
    provider, model = "scripted", "scripted"

    def __init__(self, generate):
        self.generate = generate

    def cache_namespace(self):
        return "llm/scripted/scripted"

    def cache_parts(self, cache=None):
        return ("scripted",)

    def count_tokens(self, request):
        return 1, 1, True

    def close(self):
        pass


@pytest.mark.parametrize("generate", [
    lambda requests: iter([(99, Completion(content='{"target_score1": 1}'))]),
    lambda requests: iter(["x"]),
    lambda requests: ((i, "an answer") for i in range(len(requests))),
])
def test_a_backend_giving_what_is_no_completion_is_one_line(generate):
    with pytest.raises(InputError, match=r"generate\(\) must give \(index of a request, Completion\)"):
        Judge(_Scripted(generate), cache=Cache(enabled=False)).score(SOURCES, SYSTEMS)


def test_a_backend_leaving_requests_unanswered_makes_the_report_incomplete():
    """A backend that gave no completion for a request: the report said complete."""
    result = Judge(_Scripted(lambda requests: iter([])), cache=Cache(enabled=False)).score(SOURCES, SYSTEMS)
    assert not result.report.complete and len(result.report.failed) == 2
    odd = Judge(_Scripted(lambda requests: ((i, Completion(content=5, prompt_tokens=float("nan")))
                                            for i in range(len(requests)))), cache=Cache(enabled=False),
                answer_retries=0).score(SOURCES, SYSTEMS)
    assert odd.report.bad_answers == {"not-json": 2} and odd.report.prompt_tokens == 0


def _answers(requests):
    return ((i, Completion(content=_good_answer(r))) for i, r in enumerate(requests))


def _good_answer(request):
    return json.dumps({f"target_score{t + 1}": 3 for t in range(request.n_targets)})


@pytest.mark.parametrize("generate, given", [
    (lambda requests: None, "None"),
    (lambda requests: 5, "5"),
    (lambda requests: iter([(0, Completion(content=_good_answer(requests[0])))] * 2), "request 0 a second"),
    (lambda requests: iter([(-1, Completion(content="{}"))]), "(-1, Completion"),
    (lambda requests: iter([(True, Completion(content="{}"))]), "(True, Completion"),
    (lambda requests: iter([(0, None)]), "(0, None)"),
])
def test_a_backend_whose_generate_returns_junk_is_one_backend_error(generate, given):
    """generate() returning None was a TypeError traceback ('NoneType' object is not iterable); a
    request answered twice was counted twice in the report."""
    with pytest.raises(BackendError, match=r"backend _Scripted: generate\(\)") as caught:
        Judge(_Scripted(generate), cache=Cache(enabled=False)).score(SOURCES, SYSTEMS)
    assert given in str(caught.value) and "\n" not in str(caught.value)


def test_a_completion_without_holds_key_is_refused_before_it_is_stored():
    """An object with a completion's other fields but no holds_key was an AttributeError traceback
    when its good answer was stored."""
    class Reply:
        def __init__(self, content):
            self.content, self.error, self.prompt_tokens, self.completion_tokens = content, None, 1, 1

    generate = lambda requests: ((i, Reply(_good_answer(r))) for i, r in enumerate(requests))  # noqa: E731
    with pytest.raises(BackendError, match=r"generate\(\) must give \(index of a request, Completion\)"):
        Judge(_Scripted(generate), cache=Cache(enabled=False)).score(SOURCES, SYSTEMS)


@pytest.mark.parametrize("error", [object(), 5, b"failed"])
def test_a_completion_whose_error_is_no_text_is_refused(error):
    """A completion's error of another type than a text went into the report's failures as it
    was (and from there into --json)."""
    def generate(requests):
        return ((i, Completion(content=_good_answer(r), error=error)) for i, r in enumerate(requests))
    with pytest.raises(BackendError, match=r"generate\(\) must give \(index of a request, Completion\)") as caught:
        Judge(_Scripted(generate), cache=Cache(enabled=False)).score(SOURCES, SYSTEMS)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("counts", [None, (3, 4), ("3", "4", True), (-1, 4, True), (float("nan"), 4, True),
                                    (3.0, 4, True), (True, 4, True), (3, 4, "yes"), (3, 10**16, False), "abc", 7])
def test_a_backend_whose_count_tokens_returns_junk_is_one_backend_error(counts):
    """count_tokens() giving None, a 2-tuple or strings was a TypeError or ValueError traceback in
    the dry run; a nan or negative count gave a nan or negative estimate."""
    backend = _Scripted(_answers)
    backend.count_tokens = lambda request: counts
    with pytest.raises(BackendError, match=r"backend _Scripted: count_tokens\(\) must return \(prompt tokens") as caught:
        Judge(backend, cache=Cache(enabled=False)).dry_run(SOURCES, SYSTEMS)
    assert "\n" not in str(caught.value)


def test_good_counts_of_a_backend_are_added_in_the_dry_run():
    backend = _Scripted(_answers)
    backend.count_tokens = lambda request: (10, 2, True)
    dry = Judge(backend, cache=Cache(enabled=False)).dry_run(SOURCES, SYSTEMS)
    assert (dry.to_request, dry.prompt_tokens, dry.completion_tokens, dry.exact) == (2, 20, 4, True)


def test_the_cache_keeps_token_counts_as_the_report_counts_them(tmp_path):
    """A backend's nan or negative count was cached as given (NaN in the stored JSON) while the
    report counted it as 0."""
    generate = lambda requests: ((i, Completion(content=_good_answer(r), prompt_tokens=float("nan"),  # noqa: E731
                                                completion_tokens=-3 if i else 7)) for i, r in enumerate(requests))
    result = Judge(_Scripted(generate), cache=Cache(tmp_path / "cache")).score(SOURCES, SYSTEMS)
    assert result.report.complete and (result.report.prompt_tokens, result.report.completion_tokens) == (0, 7)
    stored = [json.loads(value) for (value,) in sqlite3.connect(str(tmp_path / "cache" / "cache-v1.sqlite3"))
              .execute("SELECT value FROM entries")]
    assert sorted((v["prompt_tokens"], v["completion_tokens"]) for v in stored) == [(0, 0), (0, 7)]


def test_the_documented_prompt_helpers_check_their_arguments():
    """pairwise_tables, PromptPlan.assemble, format_edits, edits_from_blocks, fill_template and
    parse_answer (docs/llm.md) raised AttributeError, TypeError or ValueError on arguments of
    the wrong kind."""
    import numpy as np

    from gecmetrics.metrics.llm.prompts import (build_plan, edits_from_blocks, fill_template, format_edits,
                                                pairwise_tables)

    plan = build_plan(["a b", "c d"], [["a b", "c x"], ["a y", "c d"]])
    cases = [(lambda: pairwise_tables(None, np.zeros((2, 2))), "plan must be a PromptPlan"),
             (lambda: pairwise_tables(plan, "ab"), "scores must be numbers"),
             (lambda: plan.assemble(None), "answers must be a sequence"),
             (lambda: plan.assemble(["ab"] * len(plan.prompts)), "the answer of prompt 0 must be a sequence"),
             (lambda: plan.assemble([["x"] * len(t) for t in plan.targets]), "must be numbers"),
             (lambda: format_edits(5, []), "the source must be a text, got an int"),
             (lambda: format_edits("a b", None), "edits must be a sequence"),
             (lambda: edits_from_blocks(None, 2), "blocks must be a sequence of M2 blocks"),
             (lambda: edits_from_blocks([], "2"), "must be an integer"),
             (lambda: edits_from_blocks([1], 2), "expected M2 blocks .* got an int at sentence 1"),
             (lambda: fill_template(None, "a", ["b"]), "the template must be a text"),
             (lambda: fill_template("x", "a", "bc"), "targets must be a sequence of texts"),
             (lambda: parse_answer("{}", None), r"n \(the number of targets\) must be an integer >= 1")]
    for call, message in cases:
        with pytest.raises(InputError, match=message):
            call()
    assert pairwise_tables(plan, [[1, 2], [3, 4]]).shape == (2, 2, 2)
    assert plan.assemble([[3] * len(t) for t in plan.targets]).tolist() == [[3.0, 3.0], [3.0, 3.0]]
    assert fill_template("[SOURCE]: [CORRECTION]", "a", ["b", "c"]) == "a: b\nc"


def test_credentials_in_a_bytes_base_url_or_a_dask_address_are_not_repeated():
    from gecmetrics import get_metric
    from gecmetrics.run.executors import check_dask_address

    with pytest.raises(InputError) as refused:
        get_metric("llm-s", provider="openai-compatible", model="m", base_url=b"https://user:SECRET@h/v1")
    assert "SECRET" not in str(refused.value) and "got a bytes" in str(refused.value)
    with pytest.raises(InputError) as refused:
        check_dask_address("tcp://user:SECRET@host")
    assert "SECRET" not in str(refused.value) and "tcp://[credentials]@host" in str(refused.value)
