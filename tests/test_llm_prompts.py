"""LLM-S / LLM-E prompts, grouping, answer schema and pairwise tables against gec-metrics' own
(recorded in tests/data/llm_gec_metrics_prompts.jsonl by tests/data/record_llm_prompts.py)."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from gecmetrics.errors import InputError
from gecmetrics.metrics.llm.answers import BadAnswer, compact_answer, parse_answer, response_format
from gecmetrics.metrics.llm.prompts import (CRITERIA, TEMPLATES, build_plan, by_frequency, edits_from_blocks,
                                            format_edits, group_hypotheses, instruction_template, pairwise_tables)

DATA = Path(__file__).resolve().parent / "data" / "llm_gec_metrics_prompts.jsonl"
VARIANT = {"S": "llm-s", "E": "llm-e"}


def recorded() -> list[dict]:
    rows = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines()
            if line and not line.startswith("#")]
    assert len(rows) == 21
    return rows


def row_id(row: dict) -> str:
    return f"{row['case']}-{row['kind']}-{row['criterion']}"


def recorded_edits(row: dict) -> list[list[list[tuple[int, int, str]]]]:
    """The edits gec-metrics' ERRANT found, in our input shape (systems x sentences)."""
    out = []
    for system in row["hypotheses"]:
        out.append([[(e[0], e[1], e[3]) for e in row["edits"][f"{i}\t{hyp}"]] for i, hyp in enumerate(system)])
    return out


def plan_of(row: dict, grouping: str = "gec-metrics"):
    kind = VARIANT[row["kind"]]
    edits = recorded_edits(row) if kind == "llm-e" else None
    return build_plan(row["sources"], row["hypotheses"], kind, row["criterion"], edits, grouping)


def oracle_scores(prompt: str, n: int) -> list[int]:
    """What the recording server answered (target_scoreK = 1 + sha256(prompt)[K-1] % 5)."""
    digest = hashlib.sha256(prompt.encode()).digest()
    return [1 + digest[i] % 5 for i in range(n)]


@pytest.mark.parametrize("row", recorded(), ids=row_id)
def test_prompts_equal_gec_metrics(row):
    plan = plan_of(row)
    sent = [r["body"]["messages"][1]["content"] for r in row["requests"]]
    assert plan.prompts == sent  # byte for byte, each distinct prompt once, in gec-metrics' order
    for k, request in enumerate(row["requests"]):
        body = request["body"]
        assert body["messages"][0] == {"role": "system", "content": "You are a helpful assistant."}
        assert body["response_format"] == response_format(plan.sizes[k])


@pytest.mark.parametrize("row", [r for r in recorded() if r["kind"] == "E"], ids=row_id)
def test_edit_originals_are_whitespace_tokens(row):
    """gec-metrics' o_str is the source's whitespace tokens [o_start, o_end) joined by spaces."""
    for key, edits in row["edits"].items():
        i = int(key.split("\t")[0])
        tokens = row["sources"][i].split()
        for start, end, original, _ in edits:
            assert " ".join(tokens[start:end]) == original


@pytest.mark.parametrize("row", recorded(), ids=row_id)
def test_pairwise_tables_equal_gec_metrics(row):
    plan = plan_of(row)
    answers = [oracle_scores(p, n) for p, n in zip(plan.prompts, plan.sizes)]
    tables = pairwise_tables(plan, plan.assemble(answers))
    expected = np.array([[[np.nan if v is None else v for v in r] for r in t] for t in row["pairwise"]], dtype=float)
    np.testing.assert_array_equal(tables, expected)


@pytest.mark.parametrize("row", recorded(), ids=row_id)
def test_grouping_all_scores_every_hypothesis(row):
    ours = plan_of(row, "all")
    theirs = plan_of(row)
    assert (ours.prompt_of >= 0).all()
    for i, source in enumerate(row["sources"]):
        first = ours.prompts[ours.prompts_of_sentence[i][0]]
        assert first == theirs.prompts[theirs.prompts_of_sentence[i][0]]
        shown = [h for k in ours.prompts_of_sentence[i] for h in ours.targets[k]]
        assert sorted(shown) == sorted({system[i] for system in row["hypotheses"]})
        assert all(1 <= len(ours.targets[k]) <= 5 for k in ours.prompts_of_sentence[i])
    if row["case"] == "many":
        assert (theirs.prompt_of < 0).any()
        assert max(len(p) for p in ours.prompts_of_sentence) == 2


@pytest.mark.parametrize("row", [r for r in recorded() if r["kind"] == "E" and r["criterion"] is None],
                         ids=row_id)
def test_our_annotator_gives_gec_metrics_edits_and_prompts(row, spacy_model):
    """From plain text to LLM-E prompts with our ERRANT: the edits gec-metrics' ERRANT found and
    its prompts, byte for byte."""
    from gecmetrics.metrics.errant import Annotator

    annotator = Annotator(spacy_model)
    blocks = annotator.annotate(row["sources"], row["hypotheses"], keep_empty=True)
    edits = edits_from_blocks(blocks, len(row["hypotheses"]))
    assert edits == recorded_edits(row)
    plan = build_plan(row["sources"], row["hypotheses"], "llm-e", None, edits, "gec-metrics")
    assert plan.prompts == [r["body"]["messages"][1]["content"] for r in row["requests"]]


def test_criteria_placement():
    # LLM-E: the criterion sentence sits right above the blank line before "# context"
    for name, text in CRITERIA["llm-e"].items():
        template = instruction_template("llm-e", name)
        assert template == TEMPLATES["llm-e"].replace("\n\n# context", f"\n{text}\n\n# context")
        assert template != TEMPLATES["llm-e"]
    # LLM-S has no "# context": gec-metrics' criteria leave its prompt unchanged
    for name in CRITERIA["llm-s"]:
        assert instruction_template("llm-s", name) == TEMPLATES["llm-s"]
    with pytest.raises(InputError, match="unknown criterion"):
        instruction_template("llm-s", "impact")
    with pytest.raises(InputError, match="variant"):
        instruction_template("llm-x")


def test_grouping_order():
    hyps = ["b", "a", "c", "a", "d", "e", "f", "g", "c", "h"]
    assert by_frequency(hyps) == ["a", "c", "b", "d", "e", "f", "g", "h"]
    assert group_hypotheses(hyps, "gec-metrics") == [["a", "b", "c", "d", "e"]]
    assert group_hypotheses(hyps) == [["a", "b", "c", "d", "e"], ["f", "g", "h"]]
    assert group_hypotheses(hyps, max_targets=3) == [["a", "b", "c"], ["d", "e", "f"], ["g", "h"]]
    with pytest.raises(InputError):
        group_hypotheses(hyps, "random")
    with pytest.raises(InputError):
        group_hypotheses(hyps, max_targets=0)


def test_format_edits():
    source = "She like apple ."
    assert format_edits(source, []) == ""
    assert format_edits(source, [(1, 2, "likes"), (2, 2, "an"), (3, 4, "")]) == "like→likes →an .→"
    with pytest.raises(InputError, match="outside"):
        format_edits(source, [(3, 5, "x")])
    with pytest.raises(InputError, match="start, end, correction"):
        format_edits(source, [(1, 2)])
    with pytest.raises(InputError, match="start, end, correction"):
        format_edits(source, [("1", 2, "x")])


def test_plan_checks_input():
    with pytest.raises(InputError, match="system 1 has 1 sentence for 2"):
        build_plan(["a", "b"], [["a", "b"], ["a"]])
    with pytest.raises(InputError, match="non-empty"):
        build_plan(["a"], [])
    with pytest.raises(InputError, match="needs the edits"):
        build_plan(["a"], [["a"]], "llm-e")
    with pytest.raises(InputError, match="shape"):
        build_plan(["a"], [["a"]], "llm-e", edits=[[[]], [[]]])
    with pytest.raises(InputError, match="different edits"):
        build_plan(["a b"], [["a c"], ["a c"]], "llm-e", edits=[[[(1, 2, "c")]], [[(1, 1, "c")]]])
    for edits in ("garbage", 3, [[[(0, 1, "c")]]]):  # taken and never read
        with pytest.raises(InputError, match="llm-s reads no edits"):
            build_plan(["a b"], [["c b"]], "llm-s", edits=edits)
    from gecmetrics import get_metric

    with pytest.raises(InputError, match=r"dry_run\(\) takes a Corpus, got NoneType"):  # (it said prepare())
        get_metric("llm-s").dry_run(None)


def test_assemble():
    plan = build_plan(["x y", "x y"], [["x y", "x z"], ["x z", "x y"]])
    assert len(plan.prompts) == 1 and plan.prompts_of_sentence == [[0], [0]]  # same source, same targets
    assert plan.targets == [["x y", "x z"]]
    scores = plan.assemble([[2, 5]])
    np.testing.assert_array_equal(scores, [[2, 5], [5, 2]])
    np.testing.assert_array_equal(plan.assemble([None]), np.full((2, 2), np.nan))
    with pytest.raises(InputError):
        plan.assemble([[1]])


@pytest.mark.parametrize("content, scores", [
    ('{"target_score1": 3, "target_score2": 5}', [3, 5]),
    ('```json\n{\n"target1_score": 1,\n"target2_score": 4.0\n}\n```', [1, 4]),
    ('Here you go:\n```json\n{"target1_score": 2, "target2_score": 2, "note": "x"}\n```', [2, 2]),
])
def test_parse_answer(content, scores):
    assert parse_answer(content, 2) == scores


@pytest.mark.parametrize("content, reason", [
    (None, "empty"), ("  ", "empty"), ("five", "not-json"), ("[1, 2]", "not-object"),
    ('{"target_score1": 3}', "missing"), ('{"target_score1": 3, "target_score2": 3, "target_score3": 1}', "extra"),
    ('{"target_score1": 3, "target_score2": 6}', "out-of-range"), ('{"target_score1": 0, "target_score2": 1}', "out-of-range"),
    ('{"target_score1": "3", "target_score2": 1}', "not-integer"), ('{"target_score1": 2.5, "target_score2": 1}', "not-integer"),
    ('{"target_score1": true, "target_score2": 1}', "not-integer"), ('{"target_score1": NaN, "target_score2": 1}', "not-integer"),
])
def test_bad_answers(content, reason):
    with pytest.raises(BadAnswer) as caught:
        parse_answer(content, 2)
    assert caught.value.reason == reason


def test_compact_answer_round_trip():
    assert parse_answer(compact_answer([1, 5, 3]), 3) == [1, 5, 3]
