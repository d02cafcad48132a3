"""LLM-S and LLM-E as registered metrics (`llm-s`, `llm-e`) and the `gecmetric llm` command,
against loopback chat-completions servers and the tiny seeded GPT-2 of tests/_llm_support.py (no
network, no download): the judge's numbers through the protocol, chunking and worker processes,
compare (table, JSON, paired tests, -p 2 through the console script), meta-eval at system and
sentence level, unscored sentences counted and reported, the dry run sending nothing."""
from __future__ import annotations

import json
import re
import threading
from pathlib import Path

import numpy as np
import pytest

from tests._llm_support import ChatServer, completion_reply, hashed_answer, hashed_scores, targets_of
from tests.test_llm_local import tiny_gpt2  # noqa: F401 (the fixture: the tiny causal LM, torch on one thread)
from tests.conftest import SPACY_TEST_MODEL, gecmetric_script, one_line_error, outputs_with_jobs, run_cli, write_files
from tests.test_cli_shape import check_json_vocabulary

from gecmetrics import compare, get_metric, paired_test
from gecmetrics.core.cache import Cache
from gecmetrics.core.table import round_half_up
from gecmetrics.errors import InputError
from gecmetrics.io.corpus import Corpus
from gecmetrics.metrics.llm.backends import make_backend
from gecmetrics.metrics.llm.judge import Judge
from gecmetrics.metrics.llm.metric import LLMS, LLMJudgeWarning
from gecmetrics.metrics.registry import metrics_from_text
from gecmetrics.run.engine import score_corpus

SOURCES = ["This are a sentences .", "He go to school yesterday .", "She like apple .", "Nothing here .",
           "They was happy .", "I has two cat ."]
SYSTEMS = {
    "good": ["This is a sentence .", "He went to school yesterday .", "She likes apples .", "Nothing here .",
             "They were happy .", "I have two cats ."],
    "half": ["This is a sentences .", "He go to school yesterday .", "She likes apple .", "Nothing here .",
             "They were happy .", "I has two cat ."],
    "input": list(SOURCES),
    "odd": ["This are sentences .", "He goes to the school .", "She like an apple .", "Nothing is here .",
            "They was very happy .", "I had two cat ."],
    "bad": ["This .", "He go school .", "apple .", "here .", "They .", "two ."],
}


def escaped(url: str) -> str:
    """A URL in --metrics text (':' separates settings there, written %3A in a value)."""
    return url.replace(":", "%3A")


@pytest.fixture(autouse=True)
def answer_cache(tmp_path, monkeypatch) -> Path:
    """Every test (and the processes it starts) with a cache of its own."""
    folder = tmp_path / "answers"
    monkeypatch.setenv("GECMETRICS_CACHE", str(folder))
    return folder


@pytest.fixture
def files(tmp_path) -> dict[str, str]:
    paths = write_files(tmp_path, {"src": SOURCES, "ref": SOURCES, **SYSTEMS})
    (tmp_path / "human.tsv").write_text("system\thuman\ngood\t0.9\nhalf\t0.6\ninput\t0.3\nodd\t0.4\nbad\t0.1\n",
                                        encoding="utf-8")
    paths["human.tsv"] = str(tmp_path / "human.tsv")
    return paths


def http_metric(server: ChatServer, name: str = "llm-s", **settings):
    return get_metric(name, provider="openai-compatible", model="test-model", base_url=server.url, **settings)


def http_spec(server: ChatServer, name: str = "llm-s", extra: str = "") -> str:
    return f"{name}:provider=openai-compatible:model=test-model:base_url={escaped(server.url)}{extra}"


def expected_means(names: list[str], sources=SOURCES, systems=SYSTEMS) -> dict[str, float]:
    """The systems' mean scores from the judge itself (hashed answers of the server)."""
    judge = Judge(_NoBackend(), cache=Cache(enabled=False))
    plan = judge.plan(sources, [systems[n] for n in names])
    scores = plan.assemble([hashed_scores(p, n) for p, n in zip(plan.prompts, plan.sizes)])
    return {name: float(np.mean(scores[:, k])) for k, name in enumerate(names)}


class _NoBackend:
    """A backend for planning only (the judge never asks it)."""

    provider, model = "none", "none"

    def cache_namespace(self) -> str:
        return "llm/none/none"

    def cache_parts(self, cache=None) -> tuple[str, ...]:
        return ("none",)

    def generate(self, requests):
        raise AssertionError("the judge asked a backend for planning only")

    count_tokens = generate

    def close(self) -> None:
        pass


# ---------------------------------------------------------------------------- the protocol


def test_the_metric_gives_the_judges_scores():
    names = list(SYSTEMS)
    with ChatServer() as server:
        metric = http_metric(server)
        corpus = Corpus(SOURCES, [], dict(SYSTEMS))
        scored = score_corpus([metric], corpus)
        asked = server.requests
        means = expected_means(names)
        for name in names:
            result = scored.result(name, 0)
            assert result.score == means[name] and (result.scored, result.unscored) == (6, 0)
        assert len(set(means.values())) > 2
        assert metric.signature == (f"LLM-S|backend:openai-compatible|model:test-model|url:{server.url}"
                                    "|decoding:json_schema,temperature=none|criterion:none|grouping:all|cache:on"
                                    "|version:0.1.0")
        sentence = metric.sentence_matrix(scored.statistics["good"][0])[0]
        assert set(sentence) <= {1.0, 2.0, 3.0, 4.0, 5.0} and sentence.mean() == means["good"]
        # chunks of 2 sentences in 2 worker processes: the same numbers, all from the cache now
        chunked = score_corpus([metric], corpus, chunk_lines=2, jobs=2)
        assert server.requests == asked
        assert all(chunked.result(n, 0).to_dict() == scored.result(n, 0).to_dict() for n in names)
        # a hypothesis given as other lists with the same lines is found by its text
        again = metric.statistics(metric.prepare(corpus), list(SYSTEMS["odd"]))
        np.testing.assert_array_equal(again, scored.statistics["odd"][0])
        with pytest.raises(InputError, match="sentence 1 of the hypothesis is not one the judge scored"):
            metric.statistics(metric.prepare(corpus), ["x"] * len(SOURCES))


def test_chunks_ask_what_the_whole_corpus_asks(tmp_path):
    """Prompts are per sentence: chunks of 2 sentences in 2 processes send the same prompts."""
    with ChatServer() as server:
        score_corpus([http_metric(server)], Corpus(SOURCES, [], dict(SYSTEMS)), chunk_lines=2, jobs=2)
        chunked = sorted(body["messages"][-1]["content"] for body in server.bodies)
    with ChatServer() as server:
        score_corpus([http_metric(server)], Corpus(SOURCES, [], dict(SYSTEMS)), cache=tmp_path / "other")
        assert sorted(body["messages"][-1]["content"] for body in server.bodies) == chunked


def test_unscored_sentences_are_counted_and_reported():
    """A prompt whose answers stay bad after the retries: its sentences are counted as unscored,
    the mean is over the scored ones, a warning says so, sentence scores are NaN (which
    sentence-level meta-evaluation refuses)."""
    def respond(body, attempt):
        if "He go to school yesterday" in body["messages"][-1]["content"]:
            return completion_reply("not json at all")
        return completion_reply(hashed_answer(body))

    with ChatServer(respond) as server:
        metric = http_metric(server, answer_retries=1)
        with pytest.warns(LLMJudgeWarning, match=r"LLM-S: .*1 prompts without an answer \(not-json: 1; the first: not JSON: .not json at all.\)"):
            scored = score_corpus([metric], Corpus(SOURCES, [], dict(SYSTEMS)))
        means = expected_means(list(SYSTEMS))
        result = scored.result("good", 0)
        assert (result.scored, result.unscored) == (5, 1)
        sentence = metric.sentence_matrix(scored.statistics["good"][0])[0]
        assert np.isnan(sentence[1]) and np.nanmean(sentence) == result.score != means["good"]
    with ChatServer() as server:  # the budget: prompts not sent are unscored sentences too
        metric = http_metric(server, max_requests=2)
        with pytest.warns(LLMJudgeWarning, match="request budget reached"):
            scored = score_corpus([metric], Corpus(SOURCES, [], dict(SYSTEMS)), chunk_lines=3)
        assert server.requests == 2  # one budget for the run, across its chunks
        assert sum(scored.result(n, 0).scored for n in SYSTEMS) == 2 * len(SYSTEMS)


def test_a_hypothesis_with_no_scored_sentence_has_no_score_not_nan(files):
    """Every answer bad: compare printed a table of nan with exit 0, llm --json "score": "nan" and
    report ranked the systems and gave a p-value from no data (a sweep, 2026-12-02)."""
    with ChatServer(lambda body, attempt: completion_reply("not json at all")) as server:
        metric = http_metric(server, answer_retries=0)
        with pytest.warns(LLMJudgeWarning):
            scored = score_corpus([metric], Corpus(SOURCES, [], dict(SYSTEMS)))
        with pytest.raises(InputError, match=r"^good: LLM-S: none of its 6 sentences has a score from the judge"):
            scored.result("good", 0)
        shown = str(metric.sentence_from_statistics(scored.statistics["good"][0]))  # was "..., mean nan | ..."
        assert shown.startswith("LLM-S sentence scores: 6 sentences (6 without a score), no mean: no sentence has a "
                                "score | LLM-S|") and "nan" not in shown, shown
        for args in (["compare", "-s", files["src"], "-o", files["good"], "--metrics",
                      http_spec(server, extra=":answer_retries=0")],
                     llm_args(files, server, "--answer-retries", "0", "--json")):
            code, out, err = run_cli(*args)
            assert code == 2 and "nan" not in out.lower(), (args, out)
            last = err.strip().splitlines()[-1]
            assert last.startswith(f"gecmetric: error: {files['good']}: LLM-S: none of its"), err


def test_gec_metrics_grouping_leaves_hypotheses_beyond_five_unscored():
    from gecmetrics.metrics.llm.prompts import build_plan

    systems = {**SYSTEMS, "sixth": [s + " !" for s in SOURCES]}
    plan = build_plan(SOURCES, list(systems.values()), grouping="gec-metrics")
    assert (plan.prompt_of < 0).sum() > 0
    with ChatServer() as server:
        scored = score_corpus([http_metric(server, grouping="gec-metrics")], Corpus(SOURCES, [], systems))
        for k, name in enumerate(systems):
            assert scored.result(name, 0).unscored == (plan.prompt_of[:, k] < 0).sum()
        assert scored.metrics[0].column_labels() == ["LLM-S gec-metrics-groups"]


def test_settings():
    metric = metrics_from_text("llm-s:provider=ollama:model=llama3.1%3A8b:criterion=fluency")[0]
    assert (metric.settings.provider, metric.settings.model) == ("ollama", "llama3.1:8b")
    assert get_metric("llm-s", model="ollama:llama3.1:8b") == LLMS(provider="ollama", model="llama3.1:8b")
    assert get_metric("llm-s").settings.model == "gpt-4o-mini-2024-07-18"
    # a local model's device is checked as the model metrics' is (a typo was an error only when
    # the model was loaded, after the prompts were made): cuda:N in metric text as cuda%3AN
    local = "llm-s:model=transformers%3A/models/tiny"
    assert metrics_from_text(local + ":device=cuda%3A1")[0].settings.device == "cuda:1"
    assert metrics_from_text(local + ":device=auto")[0].settings.device is None
    with pytest.raises(InputError,
                       match=r"setting device \(--device\) must be cpu, cuda, cuda:N, mps or auto, got 'tpu'"):
        metrics_from_text(local + ":device=tpu")
    # the command's message names the flag, as every model metric's does
    assert "(--device) must be cpu, cuda, cuda:N, mps or auto, got 'tpu'" in one_line_error(
        "llm", "-s", __file__, "-o", __file__, "--model", "transformers:/models/tiny", "--device", "tpu")
    assert metric.column_labels() == ["LLM-S fluency"]
    assert ("backend:ollama|model:llama3.1:8b|decoding:json_schema,temperature=none|criterion:fluency"
            in metric.signature)
    with pytest.raises(InputError, match="setting dtype is for local models, not provider openai"):
        get_metric("llm-s", dtype="float16")
    with pytest.raises(InputError, match="setting base_url is for HTTP servers"):
        get_metric("llm-s", model="transformers:/tmp/x", base_url="http://x")
    with pytest.raises(InputError, match="criterion: 'impact' is not one of llm-s's"):
        get_metric("llm-s", criterion="impact")
    with pytest.raises(InputError, match="unknown LLM provider 'gpt-4o'"):
        get_metric("llm-e", model="gpt-4o")
    code, out, err = run_cli("compare", "--list-metrics")
    assert "llm-s: LLM-S" in out and "llm-e: LLM-E" in out
    from gecmetrics.metrics.llm import metric as module
    from gecmetrics.metrics.llm.backends import http, local

    assert module.STRUCTURED == http.STRUCTURED and module.DTYPES == local.DTYPES


def test_library_compare_checks_the_scale_as_the_command_does():
    """`gecmetrics.compare(..., scale=1)` with only metrics that are not fractions was accepted
    (and changed nothing) where `--scale 1` is refused; a scale that is neither 100 nor 1 (7, the
    text "1") was taken too. Now one check, the CLI's and the library's, before any request."""
    from gecmetrics.run.compare import sentence_comparison

    with ChatServer() as server:
        with pytest.raises(InputError, match=r"^scale: 1 would change nothing: the scores of llm-s are not fractions "
                                             r"and print as they are \(digits sets their decimals\)$"):
            compare(SOURCES, [], SYSTEMS, [http_metric(server)], scale=1)
        for bad in (7, "1", True, float("nan")):
            with pytest.raises(InputError, match=r"^scale: must be 100 \(fractions x100\) or 1"):
                compare(SOURCES, [], SYSTEMS, [http_metric(server)], scale=bad)
        assert server.requests == 0
        table = compare(SOURCES, [], SYSTEMS, [http_metric(server)], scale=1, ranking="ew")  # EW is a fraction
        assert table.header() == ["system", "LLM-S", "LLM-S EW (fraction)"]
        assert compare(SOURCES, [SOURCES], SYSTEMS, [http_metric(server), "gleu"], scale=1).header() == [
            "system", "LLM-S", "GLEU+ f (fraction)"]
        scored = score_corpus([http_metric(server)], Corpus(SOURCES, [], dict(SYSTEMS)))
        with pytest.raises(InputError, match="^scale: 1 would change nothing"):
            sentence_comparison(scored, scale=1)


def test_paired_tests():
    named = {"input": SYSTEMS["input"], "good": SYSTEMS["good"], "bad": SYSTEMS["bad"]}
    with ChatServer() as server:
        means = expected_means(list(named), systems=named)
        for method in ("bs", "ar"):
            result = paired_test(http_metric(server), SOURCES, [], named, method, samples=200)
            assert [s.score for s in result.systems] == [means[n] for n in named]
            assert all(s.interval[0] <= s.score <= s.interval[1] for s in result.systems)
            assert result.signature.startswith("LLM-S|backend:openai-compatible")


# ---------------------------------------------------------------------------- compare and meta-eval


def test_compare_table_json_and_paired_bootstrap(files):
    names = list(SYSTEMS)
    with ChatServer() as server:
        args = ["compare", "-s", files["src"], "-r", files["ref"], "-o", *(files[n] for n in names), "--metrics",
                f"{http_spec(server)},gleu"]
        code, out, err = run_cli(*args, "--json")
        assert code == 0, err
        data = json.loads(out)
        assert [c["label"] for c in data["columns"]] == ["LLM-S", "GLEU+ f"]
        python = compare(SOURCES, [SOURCES], {files[n]: SYSTEMS[n] for n in names}, [http_metric(server), "gleu"])
        assert data["rows"] == python.to_dict()["rows"]
        means = expected_means(names)
        assert [python.score(files[n], "LLM-S") for n in names] == [means[n] for n in names]
        code, table, err = run_cli(*args, "--tsv")
        assert code == 0 and table.splitlines()[0].split("\t")[:2] == ["system", "LLM-S"], err
        code, paired, err = run_cli(*args, "--paired-bs", "100")
        assert code == 0 and "LLM-S" in paired, err
        assert server.requests == len(set(b["messages"][-1]["content"] for b in server.bodies))  # each once


def test_console_script_in_two_processes(files, tmp_path):
    """`-p 2` through the console script prints what `-p 1` prints, each run with its own cache
    (so the workers really ask the server)."""
    with ChatServer() as server:
        command = [gecmetric_script(), "compare", "-s", files["src"], "-r", files["ref"], "-o",
                   *(files[n] for n in SYSTEMS), "--metrics", http_spec(server), "--json", "--chunk-lines", "2"]
        outputs = outputs_with_jobs(command, tmp_path, timeout=300)
        assert outputs[0] == outputs[1]
        prompts = len(set(b["messages"][-1]["content"] for b in server.bodies))
        assert server.requests == 2 * prompts


def judgments_xml(ranks: dict[str, list[int]]) -> str:
    items = []
    for sentence in range(len(next(iter(ranks.values())))):
        translations = "".join(f'<translation system="{s}" rank="{r[sentence]}"/>' for s, r in ranks.items())
        items.append(f'<ranking-item src-id="{sentence}" user="u">{translations}</ranking-item>')
    return "<results>\n" + "\n".join(items) + "\n</results>\n"


def test_meta_evaluation_system_and_sentence_level(files, tmp_path):
    names = list(SYSTEMS)
    with ChatServer() as server:
        scoring = ["-s", files["src"], "-r", files["ref"], "-o", *(files[n] for n in names), "--metrics",
                   http_spec(server)]
        code, out, err = run_cli("meta-eval", "--human", files["human.tsv"], *scoring, "--json")
        assert code == 0, err
        correlation = json.loads(out)["correlations"][0]
        assert correlation["metric"] == "LLM-S" and correlation["n"] == 5
        metric = http_metric(server)
        scored = score_corpus([metric], Corpus(SOURCES, [], dict(SYSTEMS)))
        sentence = {n: metric.sentence_matrix(scored.statistics[n][0])[0] for n in names}
        rng = np.random.default_rng(5)  # humans who mostly agree with the judge
        ranks: dict[str, list[int]] = {n: [] for n in names}
        for d in range(len(SOURCES)):
            noisy = {n: sentence[n][d] + rng.normal(0, 0.3) for n in names}
            for position, n in enumerate(sorted(names, key=lambda n: -noisy[n])):
                ranks[n].append(position + 1)
        (tmp_path / "judged.xml").write_text(judgments_xml(ranks), encoding="utf-8")
        judged = ["meta-eval", "--judgments", str(tmp_path / "judged.xml"), *scoring, "--json"]
        code, out, err = run_cli(*judged)
        assert code == 0, err
        assert json.loads(out)["scores"]["LLM-S"] == {n: scored.result(n, 0).score for n in names}
        judged.insert(-1, "--src-ids")  # sentence level: which judged sentence each corpus line is
        judged.insert(-1, "0")
        code, out, err = run_cli(*judged, "--level", "sentence")
        assert code == 0, err
        agreement = json.loads(out)["sentence"][0]
        assert agreement["metric"] == "LLM-S" and agreement["pairs"] > 20 and agreement["accuracy"] > 0.6
        code, out, err = run_cli(*judged[:-1], "--bootstrap", "20", "--resample", "sentences", "--json")
        assert code == 0 and json.loads(out)["correlations"][0]["resampling"] == "sentences", err


# ---------------------------------------------------------------------------- gecmetric llm


def llm_args(files: dict[str, str], server: ChatServer, *more: str) -> list[str]:
    return ["llm", "-s", files["src"], "-o", *(files[n] for n in SYSTEMS), "--model", "openai-compatible:test-model",
            "--base-url", server.url, *more]


def test_llm_command(files):
    with ChatServer() as server:
        code, out, err = run_cli(*llm_args(files, server))
        assert code == 0, err
        lines = [line.split("\t") for line in out.splitlines()]
        assert lines[0] == ["system", "LLM-S", "scored", "unscored"]
        means = expected_means(list(SYSTEMS))
        assert [(row[0], float(row[1]), row[2:]) for row in lines[1:]] == [
            (files[n], round(means[n], 4), ["6", "0"]) for n in SYSTEMS]
        prompts = server.requests
        assert f"{prompts} prompts: 0 from the cache, {prompts} requests sent" in err
        code, out, err = run_cli(*llm_args(files, server, "--json"))
        assert code == 0 and server.requests == prompts, err  # all from the cache
        data = json.loads(out)
        check_json_vocabulary(data, [files[n] for n in SYSTEMS])
        assert [item["scores"] for item in data] == [[means[n]] for n in SYSTEMS]
        assert all(item["report"]["cached"] == prompts and (item["scored"], item["unscored"]) == (6, 0)
                   for item in data)
        assert data[0]["signature"].startswith("LLM-S|backend:openai-compatible|model:test-model|url:")


def test_a_chunk_whose_prompts_all_fail_leaves_the_others_scored(files):
    """Each chunk of `gecmetric llm` was scored on its own: a chunk whose prompts all failed
    stopped the run ('none of its 1 sentences has a score'), though the others had answers. The
    chunks are now scored once joined: the first sentence's prompt fails (HTTP 400), the rest
    count, and the command says so."""
    def respond(body, attempt):
        if SOURCES[0] in body["messages"][-1]["content"]:
            return 400, "no", {}
        return completion_reply(hashed_answer(body))

    with ChatServer(respond) as server:
        code, out, err = run_cli(*llm_args(files, server, "--chunk-lines", "1", "--no-cache"))
    assert code == 0, err
    rows = [line.split("\t") for line in out.splitlines()[1:]]
    assert [row[2:] for row in rows] == [["5", "1"]] * len(SYSTEMS)
    assert "1 prompts without an answer (request-failed: 1; the first: HTTP 400: no)" in err


def test_llm_command_heads_its_column_as_compare_does(files):
    """`llm --criterion fluency` headed its table `LLM-S` where `compare` heads the same metric and
    settings `LLM-S fluency`: one label for one metric and settings (its JSON's "metric" too)."""
    with ChatServer() as server:
        for more, label in ((["--criterion", "fluency"], "LLM-S fluency"),
                            (["--grouping", "gec-metrics"], "LLM-S gec-metrics-groups"), ([], "LLM-S")):
            code, out, err = run_cli(*llm_args(files, server, *more))
            assert code == 0 and out.splitlines()[0] == f"system\t{label}\tscored\tunscored", (more, out, err)
            code, out, err = run_cli(*llm_args(files, server, *more, "--json"))
            assert code == 0 and json.loads(out)[0]["labels"] == [label], err
            extra = "".join(f":{key.lstrip('-')}={value}" for key, value in zip(more[::2], more[1::2]))
            code, out, err = run_cli("compare", "-s", files["src"], "-o", files["good"], "--metrics",
                                     http_spec(server, extra=extra), "--json")
            assert code == 0 and [c["label"] for c in json.loads(out)["columns"]] == [label], err


def test_llm_command_takes_every_scoring_command_s_options(files):
    """`gecmetric --help` promises --scale and --signature of every scoring command; `llm` took
    neither, nor --sentence. Now: --signature prints the signature on stderr (the JSON's, after
    the report); a Markdown, LaTeX or text table carries it below, as every command's (Markdown
    listed it without the backticks the others give it); --scale 1 cannot mean anything for 1-5
    scores and is refused in one line before any request, as for every metric that is not a
    fraction (`compare --metrics llm-s`), while the default is taken; --sentence prints what
    `compare --sentence` prints; -d rounds half up as elsewhere."""
    names = list(SYSTEMS)
    with ChatServer() as server:
        code, out, err = run_cli(*llm_args(files, server, "--json", "--signature"))
        assert code == 0, err
        signature = json.loads(out)[0]["signature"]
        assert err.strip().splitlines()[-1] == signature and "requests sent" in err.strip().splitlines()[-3]
        for fmt, cited in (("--markdown", f"\n* `{signature}`\n"), ("--latex", f"\n% {signature}\n"),
                           ("--format", f"+\n{signature}\n")):
            code, out, err = run_cli(*llm_args(files, server, fmt, *(["text"] if fmt == "--format" else [])))
            assert code == 0 and cited in out, (fmt, out, err)
        default = run_cli(*llm_args(files, server))
        assert default[0] == 0 and run_cli(*llm_args(files, server, "--scale", "100"))[:2] == default[:2]
        asked = server.requests
        message = "--scale: 1 would change nothing: the scores of llm-s are not fractions and print as they are"
        assert message in one_line_error(*llm_args(files, server, "--scale", "1"))
        assert message in one_line_error("compare", "-s", files["src"], "-o", files["good"], "--metrics",
                                         http_spec(server), "--scale", "1")
        assert server.requests == asked
        code, out, err = run_cli("compare", "-s", files["src"], "-o", *(files[n] for n in names), "--metrics",
                                 http_spec(server), "--scale", "1", "--ranking", "ew", "--tsv")
        assert code == 0 and out.split("\n")[0] == "system\tLLM-S\tLLM-S EW (fraction)", (out, err)
        means = expected_means(names)
        code, out, err = run_cli(*llm_args(files, server, "-d", "2"))
        assert code == 0 and [line.split("\t")[1] for line in out.splitlines()[1:]] == [
            round_half_up(means[n], 2) for n in names]
        code, out, err = run_cli(*llm_args(files, server, "--sentence", "-d", "4"))
        assert code == 0, err
        code, same, err = run_cli("compare", "-s", files["src"], "-o", *(files[n] for n in names), "--metrics",
                                  http_spec(server), "--sentence", "-d", "4")
        assert same == out and out.splitlines()[0] == "sentence\t" + "\t".join(f"{files[n]} LLM-S" for n in names)
        rows = [[float(cell) for cell in line.split("\t")[1:]] for line in out.splitlines()[1:]]
        assert len(rows) == len(SOURCES) and np.allclose(np.mean(rows, axis=0), [means[n] for n in names])
        assert server.requests == asked
        assert "not with --sentence" in one_line_error(*llm_args(files, server, "--sentence", "--dry-run"))


def unanswered_sentence_2(body, attempt):
    """A server that never gives a good answer to the prompt of sentence 2 (SOURCES[1])."""
    if "He go to school yesterday" in body["messages"][-1]["content"]:
        return completion_reply("not json at all")
    return completion_reply(hashed_answer(body))


def test_a_sentence_without_a_score_is_an_empty_cell_and_null_not_nan(files):
    """`llm --sentence` and `compare --metrics llm-s --sentence` printed `nan` for a sentence the
    judge gave no score (a cell in every table format, the string "nan" in JSON). Now an empty
    cell and null; the stderr line still counts the pairs without a score."""
    names = list(SYSTEMS)
    with ChatServer(unanswered_sentence_2) as server:
        runs = {fmt: run_cli(*llm_args(files, server, "--answer-retries", "0", "--sentence", *fmt.split()))
                for fmt in ("--tsv", "--json", "--markdown", "--latex", "--format text")}
        compared = run_cli("compare", "-s", files["src"], "-o", *(files[n] for n in names), "--metrics",
                           http_spec(server, extra=":answer_retries=0"), "--sentence", "-d", "4")
    for fmt, (code, out, err) in [*runs.items(), ("compare", compared)]:
        assert code == 0 and "nan" not in out.lower(), (fmt, out, err)
    code, out, err = runs["--tsv"]
    assert compared[1] == out
    rows = [line.split("\t") for line in out.splitlines()[1:]]
    assert rows[1] == ["2"] + [""] * len(names) and all(cell for row in rows[:1] + rows[2:] for cell in row)
    assert f"gecmetric llm: {len(names)} (sentence, system) pairs have no score; their cells are empty" in err
    data = json.loads(runs["--json"][1])
    check_json_vocabulary(data, [files[n] for n in names], "sentence", len(SOURCES))
    assert [entry["scores"][0][1] for entry in data] == [None] * len(names)
    assert all(isinstance(x, float) for entry in data for k, x in enumerate(entry["scores"][0]) if k != 1)
    assert [(entry["scored"], entry["unscored"], entry["report"]["failed"]) for entry in data] == [(5, 1, 1)] * len(names)
    assert "| 2 |  |" in runs["--markdown"][1] and "\n2 &  & " in runs["--latex"][1]


def test_sentences_without_a_score_are_refused_by_paired_tests_and_fall_back_in_rewards(files):
    """A paired test over sentences some of which the judge gave no score compared each system's
    mean over its own scored sentences (different sentences for different systems; a bootstrap
    resample that drew none of them gave a nan interval); a reward gave such a completion nan.
    Now the test is refused in one line naming the system, how many sentences lack a score and
    how to give them one; a reward gives the line its fallback value."""
    from gecmetrics.rewards import reward_function

    named = {"input": SYSTEMS["input"], "good": SYSTEMS["good"], "bad": SYSTEMS["bad"]}
    message = ("LLM-S: 1 of its 6 sentences has no score from the judge, and a paired test compares the systems on "
               "every sentence: run again (unanswered prompts are asked again, the others come from the cache)")
    with ChatServer(unanswered_sentence_2) as server:
        for method, all_pairs in (("bs", False), ("ar", False), ("bs", True)):
            with pytest.warns(LLMJudgeWarning), pytest.raises(InputError) as refused:
                paired_test(http_metric(server, answer_retries=0), SOURCES, [], named, method, samples=50,
                            all_pairs=all_pairs)
            assert str(refused.value) == f"input: {message}"
        for test in (["--paired-bs", "50"], ["--paired-ar", "50"], ["--paired-bs", "50", "--all-pairs"]):
            code, out, err = run_cli("compare", "-s", files["src"], "-o", *(files[n] for n in named), "--metrics",
                                     http_spec(server, extra=":answer_retries=0:grouping=gec-metrics"), *test)
            grouped = message.replace("LLM-S:", "LLM-S gec-metrics-groups:")
            assert code == 2 and out == "" and err.strip().splitlines()[-1] == (
                f"gecmetric: error: {files['input']}: {grouped}, with grouping all (gec-metrics' scores 5 hypotheses "
                "a source)"), (test, err)
        reward = reward_function("llm-s", provider="openai-compatible", model="test-model", base_url=server.url,
                                 answer_retries=0)
        with pytest.warns(LLMJudgeWarning):
            values = reward(completions=[SYSTEMS["good"][1], SYSTEMS["good"][0]], source=SOURCES[1::-1])
        assert values[0] == reward.fallback and 1 <= values[1] <= 5 and reward.stats.fallbacks == 1
        for ranking in ("ew", "ts"):  # said "the sentence score of input on sentence 2 is not a number"
            code, out, err = run_cli("compare", "-s", files["src"], "-o", *(files[n] for n in named), "--metrics",
                                     http_spec(server, extra=":answer_retries=0"), "--ranking", ranking)
            assert code == 2 and out == "" and err.strip().splitlines()[-1] == (
                f"gecmetric: error: {files['input']}: " + message.replace(
                    "a paired test", f"a ranking from sentence scores (--ranking {ranking})")), (ranking, err)
    with ChatServer() as server:  # every sentence scored: the test runs
        assert paired_test(http_metric(server), SOURCES, [], named, "bs", samples=50).systems[1].p_value is not None


def test_a_reward_without_a_cache_keeps_the_answers_of_a_batch_with_an_unanswered_prompt():
    """With cache=False, one unanswered prompt refused the batch and each line was judged again
    alone: every prompt asked twice, and with a request budget the answers were gone (max_requests=2
    over four completions gave [0, 0, 0, 0] where the judge had answered two)."""
    from gecmetrics.rewards import reward_function

    completions, sources = [SYSTEMS["good"][1], SYSTEMS["good"][0], SYSTEMS["good"][2]], [SOURCES[1], SOURCES[0],
                                                                                         SOURCES[2]]
    with ChatServer(unanswered_sentence_2) as server:
        reward = reward_function("llm-s", provider="openai-compatible", model="test-model", base_url=server.url,
                                 answer_retries=0, cache=False)
        with pytest.warns(LLMJudgeWarning):
            values = reward(completions=completions, source=sources)
        assert values[0] == reward.fallback and all(1 <= value <= 5 for value in values[1:])
        assert reward.stats.reasons == {"refused by the metric": 1}
        assert server.requests == 3 and set(server.asked.values()) == {1}  # each prompt asked once
    with ChatServer() as server:
        budget = reward_function("llm-s", provider="openai-compatible", model="test-model", base_url=server.url,
                                 answer_retries=0, cache=False, max_requests=2)
        with pytest.warns(LLMJudgeWarning):
            values = budget(completions=completions, source=sources)
        assert server.requests == 2 and sum(1 <= value <= 5 for value in values) == 2
        assert budget.stats.reasons == {"refused by the metric": 1}


@pytest.mark.parametrize("separator", ["\u2028", "\x0b", "\x85"])
def test_a_reward_gives_a_completion_no_prompt_can_hold_the_fallback(separator):
    """A completion holding a line separator other than a line break (a model can emit U+2028)
    cannot be one line of a prompt: the judge refused it for the whole call (an InputError, a
    GRPO step ended); now that completion gets the fallback and the others their scores. A
    source holding one stays the dataset's error."""
    from gecmetrics.rewards import reward_function

    with ChatServer() as server:
        reward = reward_function("llm-s", provider="openai-compatible", model="test-model", base_url=server.url,
                                 cache=False, fallback=-1.0)
        values = reward(completions=[SYSTEMS["good"][0], f"a{separator}b"], source=[SOURCES[0]] * 2)
        assert 1 <= values[0] <= 5 and values[1] == -1.0 and reward.stats.reasons == {"refused by the metric": 1}
        with pytest.raises(InputError, match="holds a line break"):
            reward(completions=[SYSTEMS["good"][0]], source=[f"a{separator}b"])


def test_sentences_without_a_score_are_refused_by_sentence_level_meta_evaluation(files, tmp_path):
    """meta-eval at sentence level (and --metric-ranking ew) over sentences the judge gave no
    score said only "... is not a number"; now the judge's refusal: how many sentences lack a
    score and how to give them one."""
    names = list(SYSTEMS)
    (tmp_path / "judged.xml").write_text(judgments_xml({n: [k + 1] * len(SOURCES) for k, n in enumerate(names)}),
                                         encoding="utf-8")
    message = ("LLM-S: 1 of its 6 sentences has no score from the judge, and {use} compares the systems on every "
               "sentence: run again (unanswered prompts are asked again, the others come from the cache)")
    with ChatServer(unanswered_sentence_2) as server:
        scoring = ["meta-eval", "--judgments", str(tmp_path / "judged.xml"), "-s", files["src"], "-r", files["ref"],
                   "-o", *(files[n] for n in names), "--metrics", http_spec(server, extra=":answer_retries=0")]
        for more, use in ((["--level", "sentence", "--src-ids", "0"], "sentence-level meta-evaluation"),
                          (["--metric-ranking", "ew"], "a ranking from sentence scores (ew)")):
            code, out, err = run_cli(*scoring, *more)
            assert code == 2 and out == "" and err.strip().splitlines()[-1] == (
                f"gecmetric: error: {names[0]}: " + message.format(use=use)), (more, err)


def test_llm_command_reports_unscored_sentences_and_budget(files, tmp_path):
    with ChatServer() as server:
        code, out, err = run_cli(*llm_args(files, server, "--max-requests", "2", "--cache", str(tmp_path / "c")))
        assert code == 0 and server.requests == 2, err
        assert "request budget reached" in err and "pairs have no score" in err
        unscored = sum(int(line.split("\t")[3]) for line in out.splitlines()[1:])
        assert unscored > 0
        code, out, err = run_cli(*llm_args(files, server, "--cache", str(tmp_path / "c")))  # continues
        assert code == 0 and "2 from the cache" in err and "no score" not in err, err


def test_dry_run_sends_nothing(files):
    with ChatServer() as server:
        code, out, err = run_cli(*llm_args(files, server, "--dry-run", "--price-in", "0.15", "--price-out", "0.6"))
        assert code == 0, err
        assert server.requests == 0
        prompts = len(Judge(_NoBackend(), cache=Cache(enabled=False)).plan(SOURCES, list(SYSTEMS.values())).prompts)
        assert out.splitlines()[0] == f"{prompts} prompts: 0 in the cache, {prompts} to request"
        assert "estimated cost:" in out
        code, out, err = run_cli(*llm_args(files, server, "--dry-run", "--json"))
        assert code == 0 and json.loads(out)["to_request"] == prompts and server.requests == 0, err
        run_cli(*llm_args(files, server))
        code, out, err = run_cli(*llm_args(files, server, "--dry-run"))
        assert out.splitlines()[0] == f"{prompts} prompts: {prompts} in the cache, 0 to request"


def test_dry_run_takes_digits_and_refuses_the_run_engine_s_options(files):
    """`llm --dry-run` ignored -d, -p, --chunk-lines and --dask. Now -d gives the cost's decimals
    (rounded half up; 4 by default, as before) and the run engine's options, which cannot change
    an estimate made of the whole corpus in one process, are refused in one line, nothing sent."""
    prices = ["--price-in", "150", "--price-out", "600"]
    with ChatServer() as server:
        code, out, err = run_cli(*llm_args(files, server, "--dry-run", *prices, "--json"))
        assert code == 0, err
        cost = json.loads(out)["cost"]
        for digits in ("0", "2", "4", None):
            code, out, err = run_cli(*llm_args(files, server, "--dry-run", *prices,
                                               *(["-d", digits] if digits else [])))
            shown = round_half_up(cost, int(digits or 4))
            assert code == 0 and f"estimated cost: {shown} (at the given" in out, (digits, out, err)
        assert round_half_up(cost, 2) != round_half_up(cost, 4).rstrip("0")  # the digits show
        for more in (["-p", "2"], ["-p", "0"], ["--chunk-lines", "3"], ["--dask", "local"],
                     ["-p", "2", "--dask", "local"]):
            err = one_line_error(*llm_args(files, server, "--dry-run", *more))
            assert err.startswith("gecmetric: error: --dry-run: estimates the prompts of the whole corpus in this "
                                  "process (they do not depend on the chunking), sends nothing, counts no retries and "
                                  f"runs no model: not with {more[0]}")
        assert run_cli(*llm_args(files, server, "--dry-run", "-p", "1", "--quiet"))[0] == 0
        for more in (["--concurrency", "2"], ["--rpm", "30"], ["--answer-retries", "0"], ["--max-retry-after", "1"],
                     ["-p", "2", "--concurrency", "2", "--rpm", "30"]):  # the last four were taken and ignored
            err = one_line_error(*llm_args(files, server, "--dry-run", *more))
            assert err.endswith(f"counts no retries and runs no model: not with {' or '.join(more[::2])}\n"), err
        assert server.requests == 0


def test_dry_run_needs_no_api_key(files, monkeypatch):
    """A hosted API's dry run estimates without a key (and sends nothing: there is no server);
    the run itself asks for the key in one line."""
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    base = ["llm", "-s", files["src"], "-o", *(files[n] for n in SYSTEMS), "--model", "openai:gpt-4o-mini-2024-07-18"]
    code, out, err = run_cli(*base, "--dry-run", "--price-in", "0.15", "--price-out", "0.6")
    assert code == 0 and "to request" in out and "estimated cost" in out, err
    assert "no API key: set the environment variable OPENAI_API_KEY" in one_line_error(*base)


def test_the_report_asks_for_a_hosted_judge_s_key_before_any_work(spacy_model, files, monkeypatch):
    """`report --attribute llm-s` without the key of a hosted API annotated, scored every metric
    and ran the bootstraps before the attribution's first prompt asked for the key ("AMU: no API
    key"); now the report checks it first, as the backend checks it when it starts: one line, exit
    2, nothing done (no progress). A provider that needs no key (a local server) is not refused."""
    from gecmetrics.output.report import read_report_corpus, report_data

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    corpus = read_report_corpus(files["src"], [files["ref"]], [files["good"], files["bad"]])
    refusal = "LLM-S: no API key: set the environment variable OPENAI_API_KEY"
    for chosen in ({"attribution": ["llm-s"]}, {"metrics": ["gleu", "llm-s"], "attribution": "none"}):
        progress = []
        with pytest.raises(InputError) as refused:
            report_data(corpus, spacy_model=SPACY_TEST_MODEL, samples=10, progress=lambda *a: progress.append(a),
                        **chosen)
        assert str(refused.value) == refusal and progress == [], chosen
    base = ["report", "-s", files["src"], "-r", files["ref"], "-o", files["good"], files["bad"], "--spacy-model",
            SPACY_TEST_MODEL, "--samples", "10", "--json", str(Path(files["src"]).parent / "data.json")]
    for more in (["--attribute", "llm-s"], ["--attribute", "gleu", "--metrics", "gleu", "llm-s:model=openai"]):
        assert one_line_error(*base, *more) == f"gecmetric: error: {refusal}\n", more
    with ChatServer() as server:  # openai-compatible: the key is sent when set, not required
        code, out, err = run_cli(*base, "--attribute", http_spec(server), "--methods", "add")
        assert code == 0 and server.requests > 0, err


def test_llm_command_errors(files):
    with ChatServer() as server:
        assert "give both --price-in and --price-out" in one_line_error(*llm_args(files, server, "--dry-run",
                                                                                 "--price-in", "1"))
        assert "go with --dry-run" in one_line_error(*llm_args(files, server, "--price-in", "1", "--price-out", "1"))
        assert "criterion: 'impact' is not one of llm-s's" in one_line_error(*llm_args(files, server, "--criterion",
                                                                                      "impact"))
        assert "setting dtype is for local models" in one_line_error(*llm_args(files, server, "--dtype", "float16"))
        assert "--spacy-model is for --variant e" in one_line_error(*llm_args(files, server, "--spacy-model", "x"))
        for price in ("nan", "inf"):  # printed "estimated cost: nan"
            err = one_line_error(*llm_args(files, server, "--dry-run", "--price-in", price, "--price-out", "1"))
            assert "--price-in" in err and "finite number" in err, err
        err = one_line_error(*llm_args(files, server, "--dry-run", "--price-in", "1e308", "--price-out", "1e308"))
        assert "cost beyond any number" in err, err  # printed "estimated cost: inf"
        assert server.requests == 0
    short = str(Path(files["src"]).parent / "short")
    Path(short).write_text("one line\n", encoding="utf-8")
    with ChatServer() as server:
        err = one_line_error("llm", "-s", files["src"], "-o", short, "--model", "openai-compatible:m", "--base-url",
                             server.url)
        assert "short" in err and server.requests == 0


@pytest.mark.parametrize("url, expected", [
    ("https://user:SECRET@127.0.0.1:9/v1", "credentials (user:password@) do not belong in the URL"),
    ("https://127.0.0.1:9/v1?key=SECRET", "no query string or fragment"),
    ("https://127.0.0.1:9/v1#SECRET", "no query string or fragment"),
    ("ftp://user:SECRET@127.0.0.1/v1", "base_url must be an http(s) URL"),
    ("https://127.0.0.1:SECRET/v1", "not a valid URL"),
])
def test_a_base_url_holding_a_key_is_refused_without_showing_it(files, url, expected):
    """The URL goes into errors and the signature (which papers print): a key written in it (as
    userinfo or a query parameter, where it would not even reach the server as meant) was shown
    in "cannot reach https://user:SECRET@...", and would be in the signature of a run."""
    for make in (lambda: get_metric("llm-s", model="openai-compatible:m", base_url=url),
                 lambda: make_backend("openai-compatible:m", base_url=url)):
        with pytest.raises(InputError, match=re.escape(expected)) as refused:
            make()
        assert "SECRET" not in str(refused.value)
    with ChatServer() as server:
        for args in (["--base-url", url], ["--base-url", url, "--dry-run"]):
            err = one_line_error("llm", "-s", files["src"], "-o", files["good"], "--model", "openai-compatible:m",
                                 *args)
            assert expected in err and "SECRET" not in err, err
        err = one_line_error("compare", "-s", files["src"], "-o", files["good"], "--metrics",
                             f"llm-s:provider=openai-compatible:model=m:base_url={escaped(url)}")
        assert expected in err and "SECRET" not in err, err
        assert server.requests == 0
    assert get_metric("llm-s", model="openai-compatible:m", base_url="http://127.0.0.1:9/v1/").settings.base_url \
        == "http://127.0.0.1:9/v1"


# ---------------------------------------------------------------------------- LLM-E (spaCy)


def test_llm_e_shows_our_errant_edits(spacy_model, files):
    from gecmetrics.metrics.errant import Annotator
    from gecmetrics.metrics.llm.prompts import build_plan, edits_from_blocks

    names = list(SYSTEMS)
    with ChatServer() as server:
        metric = http_metric(server, "llm-e", spacy_model=SPACY_TEST_MODEL, criterion="impact")
        scored = score_corpus([metric], Corpus(SOURCES, [], dict(SYSTEMS)), chunk_lines=4)
        blocks = Annotator(spacy_model).annotate(SOURCES, [SYSTEMS[n] for n in names], keep_empty=True)
        plan = build_plan(SOURCES, [SYSTEMS[n] for n in names], "llm-e", "impact",
                          edits_from_blocks(blocks, len(names)))
        assert sorted(b["messages"][-1]["content"] for b in server.bodies) == sorted(plan.prompts)
        assert any("was→were" in p for p in plan.prompts) and "focus on its impact" in plan.prompts[0]
        scores = plan.assemble([hashed_scores(p, n) for p, n in zip(plan.prompts, plan.sizes)])
        assert [scored.result(n, 0).score for n in names] == [float(np.mean(scores[:, k])) for k in range(len(names))]
        assert metric.signature.startswith("LLM-E|backend:openai-compatible") and "|spacy:" in metric.signature
        code, out, err = run_cli("compare", "-s", files["src"], "-r", files["ref"], "-o", *(files[n] for n in names),
                                 "--metrics", http_spec(server, "llm-e", f":spacy_model={SPACY_TEST_MODEL}"
                                                                          ":criterion=impact"), "--json")
        assert code == 0, err
        python = compare(SOURCES, [SOURCES], {files[n]: SYSTEMS[n] for n in names}, [metric])
        assert json.loads(out)["rows"] == python.to_dict()["rows"]
        assert [python.score(files[n], "LLM-E impact") for n in names] == [scored.result(n, 0).score for n in names]
        code, out, err = run_cli("llm", "-s", files["src"], "-o", *(files[n] for n in names), "--model",
                                 "openai-compatible:test-model", "--base-url", server.url, "--variant", "e",
                                 "--spacy-model", SPACY_TEST_MODEL, "--criterion", "impact", "--dry-run")
        assert code == 0 and out.startswith(f"{len(plan.prompts)} prompts: {len(plan.prompts)} in the cache"), err


# ---------------------------------------------------------------------------- the tiny local model


def test_local_model_and_a_server_of_it_give_the_same_scores(tiny_gpt2, files, tmp_path):
    """compare with the tiny GPT-2 in the process (transformers backend) and through a loopback
    server answering from the same model: the same scores, table and meta-eval."""
    from gecmetrics.metrics.llm.backends.local import TransformersBackend

    names = list(SYSTEMS)
    local_spec = f"llm-s:provider=transformers:model={tiny_gpt2}:batch_size=3"
    base = ["compare", "-s", files["src"], "-r", files["ref"], "-o", *(files[n] for n in names), "--json"]
    code, out, err = run_cli(*base, "--metrics", local_spec)
    assert code == 0, err
    local = json.loads(out)
    assert local["columns"][0]["signature"].startswith("LLM-S|backend:transformers|model:tiny-gpt2|weights:")
    assert "decoding:greedy-grammar,dtype=auto" in local["columns"][0]["signature"]
    model = TransformersBackend(str(tiny_gpt2))
    lock = threading.Lock()

    def respond(body, attempt):
        with lock:
            text, _ = model.decode_batch([model.encode(body["messages"][-1]["content"])], [targets_of(body)])[0]
        return completion_reply(text)

    with ChatServer(respond) as server:
        code, out, err = run_cli(*base, "--metrics", http_spec(server))
        assert code == 0, err
        served = json.loads(out)
        assert [r["scores"]["LLM-S"] for r in served["rows"]] == [r["scores"]["LLM-S"] for r in local["rows"]]
    assert len({r["scores"]["LLM-S"] for r in local["rows"]}) > 1
    code, out, err = run_cli("meta-eval", "--human", files["human.tsv"], "-s", files["src"], "-r", files["ref"],
                             "-o", *(files[n] for n in names), "--metrics", local_spec, "--json")
    assert code == 0 and json.loads(out)["correlations"][0]["n"] == 5, err
    code, out, err = run_cli("llm", "-s", files["src"], "-o", *(files[n] for n in names), "--model",
                             f"transformers:{tiny_gpt2}", "--dry-run")
    assert code == 0 and "0 to request" in out and "counted with the model tokenizer" in out, err
    # the dtype keys a local model's cached answers, so it changes the estimate and is taken; the
    # device and the batch size change nothing a dry run does (it only tokenizes): refused, not ignored
    code, out, err = run_cli("llm", "-s", files["src"], "-o", *(files[n] for n in names), "--model",
                             f"transformers:{tiny_gpt2}", "--dry-run", "--dtype", "float32")
    assert code == 0 and "0 to request" not in out, err
    for more in (["--device", "cpu"], ["--batch-size", "2"], ["--device", "cpu", "--batch-size", "2"]):
        err = one_line_error("llm", "-s", files["src"], "-o", *(files[n] for n in names), "--model",
                             f"transformers:{tiny_gpt2}", "--dry-run", "--dtype", "float32", *more)
        assert err.endswith(f"runs no model: not with {' or '.join(more[::2])}\n"), (more, err)


# ---------------------------------------------------------------------------- ../shared: SEEDA


def test_seeda_meta_evaluation_end_to_end(shared_data):
    """The SEEDA subset (391 sentences, 15 systems) against SEEDA's sentence judgments with a
    loopback judge: meta-evaluation scores only the 12 systems it correlates (INPUT, REF-F and
    GPT-3.5 are read and left out), so grouping 'all' asks their 588 prompts, each once (all 15
    make 721: docs/llm.md); every pair is scored, so system and sentence level both run."""
    folder = shared_data / "seeda_subset"
    names = sorted(p.name for p in folder.iterdir() if p.name not in ("LINES", "README.md"))
    judgments = shared_data / "human" / "judgments" / "seeda_sent.xml"
    with ChatServer() as server:
        args = ["meta-eval", "--judgments", str(judgments), "-s", str(folder / "INPUT"), "-r", str(folder / "INPUT"),
                "-o", *(str(folder / n) for n in names), "--metrics", http_spec(server), "--json"]
        code, out, err = run_cli(*args)
        assert code == 0, err
        assert server.requests == 588 == len({b["messages"][-1]["content"] for b in server.bodies})
        data = json.loads(out)
        assert data["correlations"][0]["n"] == 12
        code, out, err = run_cli(*args, "--level", "sentence", "--src-ids", str(folder / "LINES"))
        assert code == 0 and server.requests == 588, err
        assert json.loads(out)["sentence"][0]["pairs"] > 5000


def test_a_line_no_prompt_can_hold_is_refused_naming_its_file_and_line(tmp_path):
    """`gecmetric llm` said "system 0: hypothesis 2 holds a line break" of a file's line holding
    U+2028 or \\x0b (str.splitlines() splits there, the file reader does not): now FILE:LINE,
    the line counted in the whole file when the corpus is read in chunks."""
    lines = ["a b .", "c d .", "e f .", "g h ."]
    paths = write_files(tmp_path, {"src": lines, "hyp": [*lines[:3], "g\u2028h ."], "src2": ["a\x0bb .", *lines[1:]]})
    with ChatServer() as server:
        err = one_line_error("llm", "-s", paths["src"], "-o", paths["hyp"], "--model", "openai-compatible:test-model",
                             "--base-url", server.url, "--chunk-lines", "2")
        assert err.startswith(f"gecmetric: error: {paths['hyp']}:4: holds a line break ('\\u2028')"), err
        err = one_line_error("llm", "-s", paths["src2"], "-o", paths["src"], "--model", "openai-compatible:test-model",
                             "--dry-run")
        assert err.startswith(f"gecmetric: error: {paths['src2']}:1: holds a line break ('\\x0b')"), err


def test_a_source_line_no_prompt_can_hold_is_refused_naming_its_file_in_attribution(spacy_model, tmp_path):
    """Edit attribution under an LLM judge (`attribute`, `report --attribute`) said "AMU: the
    source:3: holds a line break" of the source file's line: its candidates' corpus had no file
    names. Now FILE:LINE, the line counted in the whole file whatever the parts."""
    lines = ["a b .", "c d .", "e f .", "g h ."]
    paths = write_files(tmp_path, {"src": [*lines[:2], "e\x0bf .", lines[3]], "hyp": ["a c .", *lines[1:]]})
    with ChatServer() as server:
        for more in ([], ["--chunk-lines", "2"], ["-p", "2", "--chunk-lines", "2"]):
            err = one_line_error("attribute", "-s", paths["src"], "-r", paths["hyp"], "-o", paths["hyp"], "--metric",
                                 http_spec(server), "--spacy-model", SPACY_TEST_MODEL, *more)
            assert err.startswith(f"gecmetric: error: hyp: {paths['src']}:3: holds a line break ('\\x0b')"), (more, err)


def test_an_openai_compatible_server_gets_a_key_only_from_the_variable_named(files, monkeypatch, tmp_path):
    """``openai-compatible`` sent ``$OPENAI_API_KEY``, when set, to whatever server --base-url
    named: an OpenAI key went to a third party nobody chose to give it to. It now sends no key
    unless ``api_key_env`` / ``--api-key-env`` names the variable; the name is checked (a key
    given there instead is refused without being shown) and is for HTTP servers only."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-openai-SECRET-0123456789")
    monkeypatch.setenv("OTHER_SERVER_KEY", "other-0123456789")
    with ChatServer() as server:
        code, _, err = run_cli(*llm_args(files, server, "--no-cache"))
        assert code == 0, err
        assert server.headers and all("Authorization" not in h for h in server.headers)
        sent = len(server.headers)
        code, _, err = run_cli(*llm_args(files, server, "--no-cache", "--api-key-env", "OTHER_SERVER_KEY"))
        assert code == 0, err
        assert {h.get("Authorization") for h in server.headers[sent:]} == {"Bearer other-0123456789"}
        sent = len(server.headers)
        scored = score_corpus([http_metric(server, api_key_env="OTHER_SERVER_KEY")],
                              Corpus(SOURCES, [], dict(SYSTEMS)), cache=Cache(enabled=False))
        assert scored.statistics and {h.get("Authorization") for h in server.headers[sent:]} \
            == {"Bearer other-0123456789"}
    err = one_line_error(*llm_args(files, server, "--api-key-env", "sk-openai-SECRET-0123456789"))
    assert "names the environment variable" in err and "SECRET" not in err
    with pytest.raises(InputError, match="is for HTTP servers, not provider transformers"):
        get_metric("llm-s", model="transformers:/models/x", api_key_env="OTHER_SERVER_KEY")
    assert "--api-key-env" in one_line_error(*llm_args(files, server, "--dry-run", "--api-key-env", "X"))


def test_the_request_deadline_and_retries_are_settings_and_flags(files):
    """A slow server could only be given the backend's fixed 120 s and 5 retries from Python's
    make_backend: ``timeout`` / ``max_retries`` are now the judge's settings (run-only, HTTP only)
    and ``--timeout`` / ``--max-retries`` the command's, reaching the requests."""
    import time

    with ChatServer(hold_after=0) as server:  # (every request waits for release(): no answer in time)
        started = time.monotonic()
        code, out, err = run_cli(*llm_args(files, server, "--no-cache", "--timeout", "0.2", "--max-retries", "0"))
        waited = time.monotonic() - started
        server.release()
    assert (code, out) == (2, "") and "(1 attempt of 0.2 s, the timeout)" in err and waited < 30, (waited, err)
    assert server.asked and all(count == 1 for count in server.asked.values()), server.asked  # (no retry)
    metric = http_metric(server, timeout=0.2, max_retries=1)
    assert (metric.settings.timeout, metric.settings.max_retries) == (0.2, 1)
    assert metric.signature(None) == http_metric(server).signature(None)  # (how it runs, not what it says)
    for bad in ({"timeout": 0}, {"timeout": "inf"}, {"max_retries": -1}):
        with pytest.raises(InputError):
            http_metric(server, **bad)
    with pytest.raises(InputError, match="is for HTTP servers, not provider transformers"):
        get_metric("llm-s", model="transformers:/models/x", timeout=5)
