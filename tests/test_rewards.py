"""gecmetrics.rewards: reward values equal ``metric.sentence_scores`` of the same (source,
references, completion) taken as a one-sentence corpus, for each metric family on CoNLL-2014
lines; a GRPOTrainer-style call with chat completions; pickling (and a process pool); threads;
the deterministic work budget's fallback on a pathological line; the length guard; MBR against a
brute-force reference; argument errors."""
from __future__ import annotations

import itertools
import math
import logging
import pickle
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import Sequence

import numpy as np
import pytest

from tests.conftest import SPACY_TEST_MODEL

from gecmetrics import get_metric, read_lines, read_m2
from gecmetrics.io.m2 import parse_m2 as read_m2_text
from gecmetrics.core.edits.blocks import format_m2
from gecmetrics.errors import InputError
from gecmetrics.metrics.base import Metric
from gecmetrics.metrics.settings import Settings, choice, positive_int, setting
from gecmetrics.rewards import RewardFunction, mbr_select, reward_function

ROWS = range(20, 28)
"""Eight CoNLL-2014 sentences: a GRPO step's prompts."""
SYSTEMS = ("AMU", "CAMB", "CUUI", "INPUT")


@pytest.fixture(scope="module")
def conll(conll14: Path) -> dict:
    read = {name: read_lines(str(conll14 / name)) for name in (*SYSTEMS, "REF0", "REF1")}
    gold = read_m2(str(conll14 / "official-2014.combined.m2"))
    return {"lines": read, "gold": gold}


def grpo_batch(conll: dict, m2: bool) -> dict:
    """The keyword columns GRPOTrainer passes: each prompt's columns repeated once per
    completion; completions from four systems, one a copy of another (scored once)."""
    lines = conll["lines"]
    completions, source, references = [], [], []
    for d in ROWS:
        for name in (*SYSTEMS, "AMU"):
            completions.append(lines[name][d])
            source.append(lines["INPUT"][d])
            references.append(format_m2([conll["gold"][d]]) if m2 else [lines["REF0"][d], lines["REF1"][d]])
    return {"prompts": [f"Correct: {s}" for s in source], "completions": completions, "source": source,
            "references": references}


def one_sentence(metric, source: str, references, completion: str, column: int = 0) -> float:
    """What sentence_scores gives for the triple alone."""
    if metric.reference_kind == "m2":
        scores = metric.sentence_scores(None, references, [completion]).scores
    elif metric.reference_kind == "none":
        scores = metric.sentence_scores([source], None, [completion]).scores
    else:
        scores = metric.sentence_scores([source], [[r] for r in references], [completion]).scores
    return float(np.asarray(scores).reshape(-1, 1)[column][0])


def expected_values(metric, conll: dict, batch: dict) -> list[float]:
    values = []
    for k, completion in enumerate(batch["completions"]):
        d = ROWS[k // (len(SYSTEMS) + 1)]
        references = [conll["gold"][d]] if metric.reference_kind == "m2" else batch["references"][k]
        values.append(one_sentence(metric, batch["source"][k], references, completion))
    return values


@pytest.mark.parametrize("name", ["gleu", "gleu-max", "green", "green-char", "m2", "sentm2"])
def test_values_equal_sentence_scores(conll, name):
    f = reward_function(name)
    batch = grpo_batch(conll, f.metric.reference_kind == "m2")
    values = f(**batch)
    assert values == expected_values(get_metric(name), conll, batch)
    assert len(set(values)) > 2  # the systems differ: the comparison is not vacuous
    distinct = len(set(zip(batch["source"], batch["completions"])))  # systems agree on some lines
    assert f.stats.completions == 40 and f.stats.scored == distinct and f.stats.reused == 40 - distinct
    assert f(**batch) == values and f.stats.scored == distinct and f.stats.reused == 80 - distinct  # the LRU


def test_errant_values_equal_sentence_scores(conll, spacy_model):
    f = reward_function("errant", spacy_model=SPACY_TEST_MODEL)
    batch = grpo_batch(conll, m2=True)
    values = f(**batch)
    assert values == expected_values(get_metric("errant", spacy_model=SPACY_TEST_MODEL), conll, batch)
    assert len(set(values)) > 2


@pytest.mark.parametrize("name, settings", [("senterrant", {}), ("cleme", {}), ("cleme", {"level": "sentence"}),
                                            ("cleme", {"weighted": False, "level": "sentence"}),
                                            ("gotoscorer", {"no_weight": True})])
def test_hypothesis_m2_metrics_annotate_the_completions(conll, spacy_model, name, settings):
    """Metrics that read hypothesis M2: each completion annotated by ERRANT's annotator (made
    with the ``annotation`` settings), then its sentence score as for the blocks."""
    from gecmetrics.core.lang import language_annotator

    f = reward_function(name, annotation={"spacy_model": SPACY_TEST_MODEL}, **settings)
    batch = grpo_batch(conll, m2=True)
    values = f(**batch)
    annotator = language_annotator("en", spacy_model=SPACY_TEST_MODEL)
    metric = get_metric(name, **settings)
    expected, refused = [], set()
    for k, completion in enumerate(batch["completions"]):
        gold = conll["gold"][ROWS[k // 5]]
        block = annotator.annotate([gold.source], [[completion]], keep_empty=True)[0]
        try:
            expected.append(float(np.asarray(metric.sentence_scores(None, [gold], [block]).scores).ravel()[0]))
        except InputError:  # CLEME's length weights need a reference correction in the (one-sentence) corpus
            expected.append(0.0)
            refused.add((gold.source, completion))
    assert values == expected and len(set(values)) > 2
    assert f.stats.fallbacks == len(refused) and bool(refused) == (name == "cleme" and settings.get("weighted", True))
    assert pickle.loads(pickle.dumps(f))(**batch) == values


def test_gotoscorer_refuses_a_row_without_the_reference_annotator(conll, spacy_model):
    """GoToScorer refuses a gold with edit lines but none of annotator ``ref_id``: a completion of
    such a row (one-sentence corpus, as ``sentence_scores`` refuses it) gets the fallback and is
    counted; one batch of rows with and without that annotator used to give every row 0.0."""
    from gecmetrics.core.lang import language_annotator

    gold = conll["gold"]
    lacking = next(d for d in range(100) if gold[d].annotators() == [0]
                   and any(not edit.is_noop for edit in gold[d].edits))
    having = next(d for d in range(100) if 1 in gold[d].annotators() and any(
        edit.annotator == 1 and not edit.is_noop for edit in gold[d].edits))
    lines = conll["lines"]
    rows = [lacking, lacking, having, having]
    completions = [lines["REF0"][lacking], lines["INPUT"][lacking], lines["REF1"][having], lines["INPUT"][having]]
    metric = get_metric("gotoscorer", no_weight=True, ref_id=1)
    annotator = language_annotator("en", spacy_model=SPACY_TEST_MODEL)
    blocks = [annotator.annotate([gold[d].source], [[text]], keep_empty=True)[0] for d, text in zip(rows, completions)]
    with pytest.raises(InputError, match="no edit line of annotator 1"):
        metric.sentence_scores(None, [gold[lacking]], [blocks[0]])
    expected = [float(np.asarray(metric.sentence_scores(None, [gold[having]], [block]).scores).ravel()[0])
                for block in blocks[2:]]
    assert expected == [1.0, 0.0]
    f = reward_function("gotoscorer", no_weight=True, ref_id=1, fallback=-1.0,
                        annotation={"spacy_model": SPACY_TEST_MODEL})
    assert f(completions=completions, references=[format_m2([gold[d]]) for d in rows]) == [-1.0, -1.0, *expected]
    assert f.stats.fallbacks == 2 and f.stats.reasons == {"refused by the metric": 2}
    nowhere = reward_function("gotoscorer", no_weight=True, ref_id=5, fallback=-1.0,
                              annotation={"spacy_model": SPACY_TEST_MODEL})
    assert nowhere(completions=completions[2:], references=[format_m2([gold[having]])] * 2) == [-1.0, -1.0]


def test_m2_running_f_is_each_line_as_its_own_corpus(conll):
    """The M2 scorer's annotator choice runs over the corpus: a reward scores each completion as
    a one-sentence corpus; blocks and M2 text give the same values."""
    f = reward_function("m2")
    batch = grpo_batch(conll, m2=True)
    as_blocks = dict(batch, references=[conll["gold"][ROWS[k // 5]] for k in range(len(batch["completions"]))])
    assert f(**as_blocks) == reward_function("m2")(**batch)


def test_trl_call_with_chat_completions(conll):
    """GRPOTrainer (conversational dataset): prompts and completions are message lists, the
    dataset's columns arrive as keyword lists, plus keywords a reward ignores."""
    batch = grpo_batch(conll, m2=False)
    chat = {
        "prompts": [[{"role": "system", "content": "Correct the sentence."}, {"role": "user", "content": p}]
                    for p in batch["prompts"]],
        "completions": [[{"role": "assistant", "content": c}] for c in batch["completions"]],
        "src": batch["source"], "refs": batch["references"],
        "completion_ids": [[1, 2, 3]] * len(batch["completions"]), "trainer_state": object(),
    }
    f = reward_function("gleu", source_column="src", references_column="refs")
    assert f(**chat) == reward_function("gleu")(**batch)
    parts = [[{"role": "assistant", "content": [{"type": "text", "text": c}]}] for c in batch["completions"]]
    assert f(**dict(chat, completions=parts)) == reward_function("gleu")(**batch)
    assert f.__name__ == "gecmetrics_gleu"


def test_an_assistant_message_without_content_is_the_empty_text():
    """TRL with transformers 5 parses each output into a message: one cut off in its reasoning is
    ``{"role": "assistant", "thinking": ...}`` and an empty one ``{"role": "assistant"}``, with
    no content. Those raised and ended the training step; they are the empty completion."""
    f = reward_function("gleu")
    columns = {"source": ["He go home ."] * 4, "references": [["He goes home ."]] * 4}
    empty = f(completions=[""] * 4, **columns)
    odd = [[{"role": "assistant", "thinking": "agreement ..."}], [{"role": "assistant"}],
           [{"role": "assistant", "content": None, "tool_calls": []}], {"role": "assistant"}]
    assert f(completions=odd, **columns) == empty
    with pytest.raises(InputError, match="not text"):
        f(completions=[[{"role": "assistant", "content": 3}]], **{k: v[:1] for k, v in columns.items()})
    # a dict that is no chat message (a pipeline's output) is refused, not scored as an empty output
    for other in ([{"generated_text": "He goes home ."}], {"text": "He goes home ."}, [{}]):
        with pytest.raises(InputError, match="neither 'role' nor 'content'"):
            f(completions=[other], **{k: v[:1] for k, v in columns.items()})
    assert f(completions=[[{"content": "He goes home ."}]], **{k: v[:1] for k, v in columns.items()}) == [1.0]


def test_a_completion_whose_edit_no_m2_line_holds_gets_the_fallback(spacy_model):
    """A completion token ``|`` (or ``a||``, ``|||``) gives an edit whose correction no M2 line
    can hold: the metrics that read completions as M2 edits refused the whole call (a training
    step ended); that line now gets the fallback, counted as refused, and the others their values."""
    gold = "S He go home .\nA 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\n"
    for name, settings in (("senterrant", {}), ("cleme", {"weighted": False})):
        f = reward_function(name, annotation={"spacy_model": SPACY_TEST_MODEL}, fallback=-1.0, **settings)
        values = f(completions=["He goes home .", "He goes home |", "He goes |||"], references=[gold] * 3)
        assert values == [1.0, -1.0, -1.0], name
        assert f.stats.reasons == {"refused by the metric": 2}, name


def test_a_gold_sentence_cleme_refuses_gives_its_row_the_fallback():
    """CLEME refuses a gold block whose edits overlap or whose source is empty (the other M2
    metrics score them): the reward raised for the whole call; now that row's completions get
    the fallback and the other rows their values. The command line still says it in one line."""
    good = "S He go home .\nA 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\n"
    overlapping = "S He go .\nA 0 1|||R:X|||She|||REQUIRED|||-NONE-|||0\nA 0 2|||R:X|||They went|||REQUIRED|||-NONE-|||0\n"
    for name, settings in (("cleme", {"weighted": False}), ("cleme2", {})):
        f = reward_function(name, annotation={"spacy_model": SPACY_TEST_MODEL}, fallback=-1.0, **settings)
        values = f(completions=["He goes home .", "He goes .", "x"], references=[good, overlapping, "S \n"])
        assert values == [1.0, -1.0, -1.0], name
        assert f.stats.reasons == {"refused by the metric": 2}, name


def test_gotoscorer_reads_a_gold_sentence_with_other_whitespace_as_the_completion_s():
    """GoToScorer compared the gold's S line with the completion's annotated source as strings:
    a gold sentence with U+2028, a vertical tab or only spaces between its tokens (the same
    tokens for every M2 reader) refused every completion, naming the completion."""
    for source in ("a\u2028b c", "a\x0bb c", "a  b\tc"):
        f = reward_function("gotoscorer", no_weight=True, annotation={"spacy_model": SPACY_TEST_MODEL})
        gold = f"S {source}\nA 0 1|||R:X|||z|||REQUIRED|||-NONE-|||0\n"
        assert f(completions=["z b c", "a b c"], references=[gold] * 2) == [1.0, 0.0], source
        assert f.stats.fallbacks == 0


def test_a_lone_surrogate_in_gold_m2_is_refused():
    """A gold M2 reference with a lone surrogate in its S line failed deep in spaCy
    (UnicodeEncodeError), and in an A line's correction was scored silently (0.0)."""
    for gold in ("S He \ud800 home .\n", "S He go home .\nA 1 2|||R:VERB:SVA|||go\udc80es|||REQUIRED|||-NONE-|||0\n"):
        with pytest.raises(InputError, match="lone surrogate"):
            reward_function("m2")(completions=["He goes home ."], references=[gold])
        blocks = read_m2_text(gold.encode("utf-8", "surrogatepass").decode("utf-8", "surrogatepass"), "gold")
        rebuilt = [type(blocks[0])(blocks[0].source, list(blocks[0].edits))]  # (built in code: checked)
        with pytest.raises(InputError, match="lone surrogate"):
            reward_function("m2")(completions=["He goes home ."], references=rebuilt)


def test_pickled_and_in_a_process_pool(conll):
    batch = grpo_batch(conll, m2=True)
    f = reward_function("m2")
    values = f(**batch)
    copy = pickle.loads(pickle.dumps(f))
    assert isinstance(copy, RewardFunction) and copy.stats.calls == 0
    assert copy(**batch) == values
    with get_context("spawn").Pool(1) as pool:
        assert pool.apply(f, (), batch) == values


def test_in_dask_worker_processes(conll):
    """Dask's process scheduler pickles the function (cloudpickle) into its workers."""
    dask = pytest.importorskip("dask")
    batch = grpo_batch(conll, m2=False)
    f = reward_function("gleu")
    expected = f(**batch)
    halves = [{key: value[:20] for key, value in batch.items()}, {key: value[20:] for key, value in batch.items()}]
    results = dask.compute(*[dask.delayed(f)(**half) for half in halves], scheduler="processes", num_workers=2)
    assert results[0] + results[1] == expected


def test_threads_share_one_function(conll):
    batch = grpo_batch(conll, m2=False)
    expected = reward_function("green")(**batch)
    f = reward_function("green", memo_size=0)
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda _: f(**batch), range(8)))
    assert results == [expected] * 8
    assert f.stats.calls == 8 and f.stats.scored == 8 * len(set(zip(batch["source"], batch["completions"])))


def given_lines(monkeypatch) -> list[int]:
    """The hypothesis lines each chunk_statistics call of a reward is given (a count per call)."""
    from gecmetrics.run import rewards

    calls, real = [], rewards.chunk_statistics

    def counted(metrics, corpus, names, observations=None):
        calls.append(sum(len(corpus.hypotheses[name]) for name in names))
        return real(metrics, corpus, names, observations)

    monkeypatch.setattr(rewards, "chunk_statistics", counted)
    return calls


def annotated_texts(monkeypatch) -> list[str]:
    """The completions a reward's annotator is given, in order."""
    texts, real = [], RewardFunction._edit_annotator

    def counting(self):
        annotator = real(self)
        annotate = annotator.annotate

        def counted(originals, systems, **settings):
            texts.extend(text for system in systems for text in system)
            return annotate(originals, systems, **settings)

        annotator.annotate = counted
        return annotator

    monkeypatch.setattr(RewardFunction, "_edit_annotator", counting)
    return texts


def uneven_batch(conll: dict, m2: bool, widths: Sequence[int]) -> dict:
    """A call whose rows (the first CoNLL-2014 sentences with four distinct texts among the
    references and the systems) have ``widths`` distinct completions each, taken from those."""
    lines = conll["lines"]
    distinct = (list(dict.fromkeys(lines[name][d] for name in ("REF0", "REF1", *SYSTEMS)))
                for d in range(len(lines["INPUT"])))
    chosen = [(d, texts) for d, texts in enumerate(distinct) if len(texts) >= 4][:len(widths)]
    completions, source, references, rows = [], [], [], []
    for (d, texts), width in zip(chosen, widths):
        for text in texts[:width]:
            completions.append(text)
            source.append(lines["INPUT"][d])
            references.append(format_m2([conll["gold"][d]]) if m2 else [lines["REF0"][d], lines["REF1"][d]])
            rows.append(d)
    return {"completions": completions, "source": source, "references": references, "rows": rows}


@pytest.mark.parametrize("name", ["green", "senterrant"])
def test_each_completion_is_given_to_the_metric_once(conll, monkeypatch, request, name):
    """The rows of a call with fewer completions than its widest row were padded with their
    first completion, which the metric scored (a model ran on it, the annotator parsed it) and
    nothing read: 20 lines for the 14 completions here. Now rows of one width are scored
    together: the metric and the annotator are given each completion once, and its value is
    the one it has alone; a call whose rows are as wide is still one chunk_statistics call."""
    m2 = name == "senterrant"
    settings = {"annotation": {"spacy_model": SPACY_TEST_MODEL}} if m2 else {}
    if m2:
        request.getfixturevalue("spacy_model")
    calls, annotated = given_lines(monkeypatch), annotated_texts(monkeypatch)
    batch = uneven_batch(conll, m2, (4, 1, 3, 4, 2))
    rows = batch.pop("rows")
    f = reward_function(name, **settings)
    values = f(**batch)
    assert sum(calls) == len(batch["completions"]) == 14 and len(calls) == 4  # one call per width
    assert sorted(annotated) == (sorted(batch["completions"]) if m2 else [])
    metric = get_metric(name)
    if m2:
        from gecmetrics.core.lang import language_annotator

        annotator = language_annotator("en", spacy_model=SPACY_TEST_MODEL)
        blocks = [annotator.annotate([conll["gold"][d].source], [[c]], keep_empty=True)[0]
                  for d, c in zip(rows, batch["completions"])]
        alone = [float(np.asarray(metric.sentence_scores(None, [conll["gold"][d]], [b]).scores).ravel()[0])
                 for d, b in zip(rows, blocks)]
    else:
        alone = [one_sentence(metric, s, r, c) for s, r, c in zip(batch["source"], batch["references"],
                                                                  batch["completions"])]
    assert values == alone and len(set(values)) > 2
    calls.clear()
    annotated.clear()
    even = uneven_batch(conll, m2, (3, 3, 3))
    even.pop("rows")
    even_values = reward_function(name, **settings)(**even)
    assert calls == [9] and len(annotated) == (9 if m2 else 0)
    assert even_values == f(**even)  # f: from its memo where it has them, then the rest by width


def test_budget_fallback_on_a_pathological_line(conll, caplog):
    """A 5,000-token garbage completion gets the fallback without being scored (max_tokens); the
    other lines keep their values; counted and logged once per warn_every."""
    batch = grpo_batch(conll, m2=True)
    rng = np.random.default_rng(0)
    garbage = " ".join(rng.choice(["the", "a", ",", "of", "xq", "."], size=5000))
    bad = dict(batch, completions=[garbage if k % 5 == 1 else c for k, c in enumerate(batch["completions"])])
    f = reward_function("m2", fallback=-0.5, warn_every=3)
    clean = reward_function("m2")(**batch)
    with caplog.at_level(logging.WARNING, logger="gecmetrics.rewards"):
        values = f(**bad)
    assert [v for k, v in enumerate(values) if k % 5 == 1] == [-0.5] * 8
    assert [v for k, v in enumerate(values) if k % 5 != 1] == [v for k, v in enumerate(clean) if k % 5 != 1]
    assert f.fallbacks == 8 and f.stats.reasons == {"max_tokens": 8}
    assert len(caplog.records) == 3  # fallbacks 1, 4, 7
    by_cells = reward_function("m2", max_tokens=None, max_cells=10_000)  # (source + 1) x 5,001 cells
    cells = by_cells(**bad)
    assert by_cells.stats.reasons == {"max_cells": 8} and [v for k, v in enumerate(cells) if k % 5 == 1] == [0.0] * 8
    assert [v for k, v in enumerate(cells) if k % 5 != 1] == [v for k, v in enumerate(clean) if k % 5 != 1]


def test_a_metric_work_bound_gives_the_fallback_for_that_line_only(conll, monkeypatch):
    """The MaxMatch lattice's own bound raises on a line: that line alone falls back."""
    from gecmetrics.core.edits.lattice import build

    batch = grpo_batch(conll, m2=True)
    long = " ".join(["xq"] * 300)
    bad = dict(batch, completions=[long if k == 7 else c for k, c in enumerate(batch["completions"])])
    monkeypatch.setattr(build, "MAX_OPEN_STATES", 600)
    f = reward_function("m2", max_tokens=None, max_cells=None)
    values = f(**bad)
    assert values[7] == 0.0 and f.stats.reasons == {"refused by the metric": 1}
    monkeypatch.undo()
    clean = reward_function("m2")(**batch)
    assert [v for k, v in enumerate(values) if k != 7] == [v for k, v in enumerate(clean) if k != 7]


def test_length_guard():
    f = reward_function("gleu", max_length_ratio=2)
    source, reference = "He go home .", "He goes home ."
    values = f(completions=["He goes home .", "He goes home . " * 3], source=[source] * 2,
               references=[[reference]] * 2)
    assert values == [1.0, -1.0] and f.stats.length_penalties == 1


def brute_force_mbr(candidates, source, metric):
    n = len(candidates)
    means = []
    for i in range(n):
        others = [one_sentence(metric, source, [candidates[j]], candidates[i]) for j in range(n) if j != i]
        means.append(math.fsum(others) / len(others))
    return max(range(n), key=lambda i: (means[i], -i)), means


@pytest.mark.parametrize("name", ["gleu", "green"])
def test_mbr_against_brute_force(conll, name):
    lines = conll["lines"]
    sources = [lines["INPUT"][d] for d in ROWS]
    candidates = [[lines[s][d] for s in (*SYSTEMS, "REF0", "REF1")] for d in ROWS]
    chosen = mbr_select(candidates, name, sources)
    metric = get_metric(name)
    for k, (texts, source) in enumerate(zip(candidates, sources)):
        best, means = brute_force_mbr(texts, source, metric)
        assert chosen.choices[k] == best and chosen.selected[k] == texts[best]
        np.testing.assert_array_equal(chosen.expected[k], means)
        assert np.isnan(np.diag(chosen.utilities[k])).all()


def test_mbr_with_edit_f_against_brute_force(conll, spacy_model):
    """MBR with ERRANT's F0.5 as the utility: the candidates annotated as text references."""
    lines = conll["lines"]
    settings = {"annotate_refs": True, "spacy_model": SPACY_TEST_MODEL}
    sources = [lines["INPUT"][d] for d in ROWS[:4]]
    candidates = [[lines[s][d] for s in ("AMU", "CAMB", "CUUI", "REF0", "REF1")] for d in ROWS[:4]]
    chosen = mbr_select(candidates, "errant", sources, **settings)
    metric = get_metric("errant", **settings)
    for k, (texts, source) in enumerate(zip(candidates, sources)):
        best, means = brute_force_mbr(texts, source, metric)
        assert chosen.choices[k] == best
        np.testing.assert_array_equal(chosen.expected[k], means)
    assert len({tuple(e.round(6)) for e in chosen.expected}) > 1


def test_mbr_ties_choose_the_first():
    chosen = mbr_select([["a b c", "a b c", "x y z"]], "gleu", ["a b c"])
    assert chosen.choices == [0]
    same = mbr_select([["p q", "p q"]], "gleu", ["p q"])
    assert same.choices == [0]


def test_mbr_ties_of_copies_choose_the_first_whatever_the_summing_order():
    """A copy of a candidate has the same utilities as it, in another order: np.mean summed them
    in that order and the last copy won by a rounding (0.4528218144616809 > ...085)."""
    candidates = ["is home", "the a to is home", "goes is goes is home is", "is home"]
    chosen = mbr_select([candidates], "gleu", ["is goes he a home"])
    assert chosen.choices == [0]
    assert chosen.expected[0][0] == chosen.expected[0][3]


def test_memo_size_and_warn_every_are_counts_not_bounds():
    """memo_size=None and warn_every=None were taken, and their messages said None was "no bound":
    None gave no memo at all, and a warning at every fallback."""
    for option in ("memo_size", "warn_every"):
        with pytest.raises(InputError, match=f"^{option}.* must be an integer, got None"):
            reward_function("gleu", **{option: None})
        with pytest.raises(InputError) as error:
            reward_function("gleu", **{option: -1})
        assert "no bound" not in str(error.value)
    assert reward_function("gleu", memo_size=0).memo_size == 0


def test_argument_errors():
    with pytest.raises(InputError, match="systems scored together"):
        reward_function("gotoscorer")
    assert reward_function("gotoscorer", no_weight=True)


def test_gotoscorer_with_a_weight_file_is_no_reward(tmp_path):
    """A weight file fixes GoToScorer's weights for edit attribution, which keeps each candidate's
    sentence; a completion has no line of the file: refused (it would read line 1's levels)."""
    (tmp_path / "w.txt").write_text("2\n0 1 2\n", encoding="utf-8")
    for settings in ({}, {"no_weight": True}):
        with pytest.raises(InputError, match="metric: metric gotoscorer cannot score a sentence on its own: its "
                                             "chunk levels are read from the weight file's line of each corpus "
                                             "sentence"):
            reward_function("gotoscorer", weights=str(tmp_path / "w.txt"), **settings)
    with pytest.raises(InputError, match="colour is not a setting of language en"):
        reward_function("cleme", annotation={"colour": 1})
    with pytest.raises(InputError, match="unknown metric"):
        reward_function("nope")
    with pytest.raises(InputError, match="settings beta"):
        reward_function(get_metric("green"), beta=1)
    f = reward_function("gleu")
    with pytest.raises(InputError, match="column 'references' is missing"):
        f(completions=["a"], source=["a"])
    with pytest.raises(InputError, match=r"'references' is missing \(.*the columns given: source\)$"):
        f(completions=["a"], source=["a"], references=None)  # None is not a column given
    with pytest.raises(InputError, match="has 2 values for 1 completions"):
        f(completions=["a"], source=["a", "b"], references=[["a"]])
    with pytest.raises(InputError, match="no assistant message"):
        f(completions=[[{"role": "user", "content": "a"}]], source=["a"], references=[["a"]])
    with pytest.raises(InputError, match="completion 0 is an int"):
        f(completions=[3], source=["a"], references=[["a"]])
    with pytest.raises(InputError, match="fallback must be a finite number"):
        reward_function("gleu", fallback=float("nan"))
    for option in ("fallback", "length_penalty", "max_length_ratio"):  # an OverflowError
        with pytest.raises(InputError, match=f"{option} must be a finite number"):
            reward_function("gleu", **{"max_length_ratio": 2, option: 10**400})
    assert reward_function("gleu", fallback=np.float32(-0.5)).fallback == -0.5
    with pytest.raises(InputError, match="language is given by its code .a string such as 'en'., got 3"):
        reward_function("cleme", weighted=False, edit_language=3)  # a TypeError
    with pytest.raises(InputError, match="metric must be a registered name or a Metric, got NoneType"):
        RewardFunction(None)  # an AttributeError
    assert RewardFunction("gleu")(completions=["a b"], source=["a b"], references=[["a b"]]) == [1.0]
    with pytest.raises(InputError, match="name must be a non-empty string"):
        reward_function("gleu", name=3)
    with pytest.raises(InputError, match="a text part's text is None,"):  # scored as the word "None"
        f(completions=[[{"role": "assistant", "content": [{"type": "text", "text": None}]}]], source=["None"],
          references=[["None"]])
    with pytest.raises(InputError, match="max_tokens"):
        reward_function("gleu", max_tokens=-1)
    with pytest.raises(InputError, match="M2 block of one sentence"):
        reward_function("m2")(completions=["a"], references=["S a\n\nS b\n"])
    with pytest.raises(InputError, match="text references"):
        mbr_select([["a", "b"]], "m2")
    # a None source was scored as "" (GLEU+ against no source), an int or a generator of sources a TypeError
    with pytest.raises(InputError, match="source 0 is None: gleu reads the source sentence"):
        f(completions=["a"], source=[None], references=[["a"]])
    with pytest.raises(InputError, match="sources 0: expected a source line, got NoneType"):
        mbr_select([["a", "b"]], "gleu", [None])
    for sources in (5, iter(["a"])):
        with pytest.raises(InputError, match="sources must be a list of 1 line"):
            mbr_select([["a", "b"]], "gleu", sources)


def test_an_option_the_metric_never_reads_is_refused():
    """Options that had no effect were taken silently: gleu's annotator settings (it reads
    completions as text, no annotator is made), a length_penalty without the length guard, a
    references column of a reference-free metric, a source column of a metric whose source is
    its gold M2 block, mbr_select's column names (it makes the columns itself). Each is one
    InputError naming the option; where the option is read, it is honoured."""
    cases = [("gleu", {"edit_language": "de"}, "edit_language"),
             ("gleu", {"annotation": {"spacy_model": SPACY_TEST_MODEL}}, "annotation"),
             ("green", {"length_penalty": -3.0}, "length_penalty"),
             ("scribendi", {"references_column": "refs"}, "references_column"),
             ("some", {"references_column": "refs"}, "references_column"),
             ("m2", {"source_column": "src"}, "source_column")]
    for name, options, option in cases:
        for make in (reward_function, RewardFunction):
            with pytest.raises(InputError, match=f"^{option}: {option} has no effect here"):
                make(name, **options)
    for option in ("source_column", "references_column"):
        with pytest.raises(InputError, match=f"^{option}: .*mbr_select passes the candidates"):
            mbr_select([["a b", "a c"]], "gleu", ["a b"], **{option: "x"})
    with pytest.raises(InputError, match="^memo_size: .*lives for one call"):  # an LRU nothing reads again
        mbr_select([["a b", "a c"]], "gleu", ["a b"], memo_size=10)
    with pytest.raises(InputError, match="^name: .*no trainer logs it"):  # (accepted: nothing returns the reward)
        mbr_select([["a b", "a c"]], "gleu", ["a b"], name="zz")
    guarded = reward_function("gleu", max_length_ratio=2, length_penalty=-3.0)
    assert guarded(completions=["He goes home . " * 3], source=["He go home ."], references=[["He goes home ."]]) \
        == [-3.0]
    assert reward_function("scribendi", source_column="src").source_column == "src"
    assert reward_function("m2", references_column="gold")(completions=["a b"], gold=["S a b\n"]) == [1.0]
    # an M2 row's source is its block's sentence: a source column is not read at all (its value
    # was checked: "source 0 is an int")
    assert reward_function("m2")(completions=["a b"], source=[3], references=["S a b\n"]) == [1.0]
    assert reward_function("gleu", column=0).column == 0  # one column: column 0 is that column


def test_reward_names_tell_metrics_apart():
    """TRL logs each reward under its __name__: green and green-char were both gecmetrics_green.
    A name given is the reward's name; a metric object's is the registered name its settings
    answer to; different registered names never give one reward name, plugin names included."""
    from gecmetrics import GREEN, register_metric, unregister_metric
    from gecmetrics.metrics.registry import list_metrics
    from gecmetrics.run.rewards import reward_name

    assert reward_function("green").__name__ == "gecmetrics_green"
    assert reward_function("green-char").__name__ == "gecmetrics_green_char"
    assert reward_function(GREEN(unit="char")).__name__ == "gecmetrics_green_char"
    assert reward_function(GREEN(beta=2)).__name__ == reward_function("green", beta=2).__name__ == "gecmetrics_green"
    assert reward_function(get_metric("gleu-max")).__name__ == "gecmetrics_gleu_max"
    assert reward_function("gleu", best_reference=True).__name__ == "gecmetrics_gleu-best_reference_yes"  # given
    assert reward_function("sentm2").__name__ == "gecmetrics_sentm2" != reward_function("m2").__name__
    names = [info.name for info in list_metrics()]
    assert len({reward_name(get_metric(name), name) for name in names}) == len(names)
    plugins = ["toy-a", "toy_a", "toy.a", "toy+a", "toy--a", "toy-5fa"]
    for name in plugins:
        register_metric(name, FirstReferenceMatch)
    try:
        made = [reward_function(name).__name__ for name in plugins]
        assert made[0] == "gecmetrics_toy_a" and len(set(made)) == len(plugins)
        assert reward_function(FirstReferenceMatch()).__name__ == "gecmetrics_toy_a"  # the first registered
    finally:
        for name in plugins:
            unregister_metric(name)
    assert reward_function(FirstReferenceMatch()).__name__ == "gecmetrics_tests.test_rewards.FirstReferenceMatch"
    assert reward_function("green", name="green_b2").__name__ == "green_b2"
    with pytest.raises(InputError, match="name must be a non-empty string"):
        reward_function("green", name="")


def test_reward_names_tell_settings_apart():
    """Two rewards of one registered metric with different settings had one __name__ (TRL would
    log them as one column): the settings that differ from the name's are in it now, readable,
    in declaration order; the same settings give the same name, the defaults the plain one."""
    from gecmetrics import GREEN

    errant = [reward_function("errant", beta=b).__name__ for b in (0.5, 1, 1.0, 2)]
    assert errant == ["gecmetrics_errant", "gecmetrics_errant-beta_1", "gecmetrics_errant-beta_1",
                      "gecmetrics_errant-beta_2"]
    assert reward_function("gleu", iterations=100, n=3).__name__ == "gecmetrics_gleu-n_3-iterations_100"
    assert reward_function("gleu", n=3).__name__ != reward_function("gleu", n=2).__name__
    assert reward_function("green", beta=[0.5, 2]).__name__ == "gecmetrics_green-beta_0.5_2"
    # a column other than the first: its values differ, and so must its name (both columns had one)
    columns = [reward_function("green", beta=[0.5, 2], column=c).__name__ for c in (0, 1, "GREEN b2", 2.0)]
    assert columns == ["gecmetrics_green-beta_0.5_2"] + ["gecmetrics_green-beta_0.5_2-column_1"] * 3
    assert RewardFunction(GREEN(beta=[0.5, 2]), column=1).__name__ == "gecmetrics_green-beta_0.5_2-column_1"
    assert reward_function("green", beta=0.5000001).__name__ == "gecmetrics_green-beta_0.5000001"  # not %g's 0.5
    assert reward_function(get_metric("m2", beta=1)).__name__ == reward_function("m2", beta=1).__name__

    assert reward_function(GREEN(unit="char", beta=1)).__name__ == "gecmetrics_green_char-beta_1"
    assert reward_function("bertscore", batch_size=4).__name__ == "gecmetrics_bertscore"  # runs, same values
    # characters a logger may refuse become '_', and a hash of the exact settings keeps them apart
    dashed, underscored = (reward_function("bertscore", model=m).__name__ for m in ("my-model", "my_model"))
    assert underscored == "gecmetrics_bertscore-model_my_model" and dashed.startswith(underscored + "-")
    assert dashed == reward_function("bertscore", model="my-model").__name__


RUN_ONLY = {"device": "cuda", "batch_size": 3, "threads": 2, "concurrency": 2, "requests_per_minute": 30,
            "max_retry_after": 5, "api_key_env": "OTHER_SERVER_KEY", "timeout": 30, "max_retries": 1}
"""The built-in metrics' run-only settings (as the hand-kept list in rewards.py had them, and the
LLM judges' key variable, timeout and retries since), each with a value other than its default."""


def test_built_in_run_only_settings_stay_out_of_reward_names():
    """Run-only settings are declared on each metric's settings (setting(..., run_only=True)),
    no longer a list in rewards.py: every built-in metric declares exactly those of its settings
    the list named, and giving them other values leaves its reward's name as it was."""
    from gecmetrics.metrics.registry import list_metrics
    from gecmetrics.run.rewards import reward_name

    declaring = set()
    for info in list_metrics():
        settings = info.cls.settings_class
        assert settings.run_only_names() == set(settings.infos()) & set(RUN_ONLY), info.name
        for key in settings.run_only_names():
            # an LLM judge's device and batch size are for a local model (its default is a server's)
            local = info.name.startswith("llm") and key in ("device", "batch_size")
            given = {"model": "transformers:/models/llama"} if local else {}
            plain = reward_name(get_metric(info.name, **given), info.name)
            assert reward_name(get_metric(info.name, **given, **{key: RUN_ONLY[key]}), info.name) == plain
            declaring.add(info.name)
    assert {"some", "impara", "scribendi", "bertscore", "pt-m2", "pt-errant", "llm-s", "llm-e"} <= declaring


def test_a_long_source_or_reference_is_within_the_budget():
    """The budget counted the completion and its alignment with the source only: a reference of
    thousands of tokens was scored whatever its length. Every text of a line counts now: a source
    or a reference over max_tokens, or a source x reference alignment over max_cells, gives every
    completion of that row the fallback, under reasons of their own; a completion's alignment with
    a reference counts as its alignment with the source does."""
    from gecmetrics.run.rewards import ROW_CELLS, ROW_TOKENS

    source, reference = "He go home .", "He goes home ."
    words = lambda n: " ".join(["word"] * n)  # noqa: E731
    f = reward_function("gleu", fallback=-0.5)
    values = f(completions=[reference, reference, reference, "He went home ."],
               source=[source, words(1200), source, source],
               references=[[reference, words(1200)], [reference], [reference], [reference]])
    assert values[:2] == [-0.5, -0.5] and values[2] == 1.0 and 0 <= values[3] < 1
    assert f.stats.reasons == {ROW_TOKENS: 2} and f.stats.scored == 2
    cells = reward_function("gleu", fallback=-0.5)  # 401 x 701 cells
    assert cells(completions=["word"], source=[words(400)], references=[[words(700)]]) == [-0.5]
    assert cells.stats.reasons == {ROW_CELLS: 1}
    aligned = reward_function("gleu", fallback=-0.5, max_cells=10_000)  # 61 x 201 cells > 10,000 > 41 x 201
    scored = aligned(completions=[words(60), words(40)], source=[words(10)] * 2, references=[[words(200)]] * 2)
    assert scored[0] == -0.5 and scored[1] >= 0
    assert aligned.stats.reasons == {"max_cells": 1}
    m2 = reward_function("m2", fallback=-0.5)  # a gold correction of 1,200 tokens; two annotators' 600 each
    edit = "A 0 1|||R:X|||{}|||REQUIRED|||-NONE-|||{}\n"
    long_edit = "S a b\n" + edit.format(words(1200), 0)
    two = "S a b\n" + edit.format(words(600), 0) + edit.format(words(600), 1)
    assert m2(completions=["a b", "a b"], references=[long_edit, two]) == [-0.5, 0.0]
    assert m2.stats.reasons == {ROW_TOKENS: 1}
    chosen = mbr_select([[reference, words(1200), "He went home ."]], "gleu", [source], fallback=-0.5)
    utilities = chosen.utilities[0]
    assert utilities[0, 1] == utilities[2, 1] == utilities[1, 0] == -0.5
    assert min(utilities[0, 2], utilities[2, 0]) >= 0


def test_a_row_s_references_count_together_in_the_budget():
    """The row budget took each reference alone: a row of 1,000 references of 1,000 tokens (each
    within max_tokens, each aligned with a short source within max_cells) was scored. The source's
    alignments with all its references count together now, as one long reference's would."""
    from gecmetrics.run.rewards import ROW_CELLS

    words = lambda n: " ".join(["word"] * n)  # noqa: E731
    f = reward_function("gleu", fallback=-0.5, max_cells=10_000)  # 11 x 101 cells a reference
    values = f(completions=[words(1), words(1)], source=[words(10)] * 2,  # (a completion's alignments: 2 x 920)
               references=[[words(100)] * 9, [words(100)] * 10])  # 9,999 and 11,110 cells
    assert values[0] >= 0 and values[1] == -0.5
    assert f.stats.reasons == {ROW_CELLS: 1} and f.stats.scored == 1
    many = reward_function("gleu", fallback=-0.5)  # the default budget
    assert many(completions=["He goes home ."], source=["He go home ."], references=[[words(1000)] * 1000]) == [-0.5]
    assert many.stats.reasons == {ROW_CELLS: 1} and many.stats.scored == 0


def test_a_completion_s_alignments_with_the_source_and_every_reference_count_together():
    """A completion's max_cells check took its alignment with the row's longest text alone: a
    completion aligned with a source and three references, each within the budget alone, was
    scored whatever their number. Its alignments with all of them count together now, the work
    the metrics that align it do."""
    words = lambda n: " ".join(["word"] * n)  # noqa: E731
    f = reward_function("gleu", fallback=-0.5, max_cells=10_000)  # the row: 3 x 11 x 51 cells
    values = f(completions=[words(60), words(40)], source=[words(10)] * 2, references=[[words(50)] * 3] * 2)
    assert values[0] == -0.5 and values[1] >= 0  # 61 x (11 + 3 x 51) = 10,004 cells; 41 x 164 = 6,724
    assert f.stats.reasons == {"max_cells": 1} and f.stats.scored == 1
    one = reward_function("gleu", fallback=-0.5, max_cells=10_000)  # one reference: 61 x (11 + 51) cells
    assert one(completions=[words(60)], source=[words(10)], references=[[words(50)]])[0] >= 0
    assert one.stats.fallbacks == 0


class CountedText(str):
    """A text that counts the calls of its split()."""
    splits = 0

    def split(self, *args, **kwargs):
        CountedText.splits += 1
        return super().split(*args, **kwargs)


def test_the_length_guard_splits_a_row_s_references_once(monkeypatch):
    """The length guard split a row's references again for each of its completions: once a row
    now, for the guard and the budget; the guard's decisions are test_length_guard's."""
    f = reward_function("gleu", max_length_ratio=2)
    completions = ["He goes home .", "He goes home . " * 3, "He went home .", "He goes home"] * 4
    batch = {"completions": completions, "source": ["He go home ."] * 16,
             "references": [[CountedText("He goes home .")] for _ in range(16)]}  # one row, as TRL repeats it
    first = f(**batch)
    assert first[1] == -1.0 and f.stats.length_penalties == 4
    monkeypatch.setattr(CountedText, "splits", 0)
    assert f(**batch) == first  # the values from the memo: nothing scored, the guard judged again
    assert CountedText.splits == 1


def test_a_completion_is_split_once_in_a_call():
    """The completion was split by the length guard for each of its copies and again by the
    budget: once a call now, however many rows or copies have it."""
    f = reward_function("gleu", max_length_ratio=2, memo_size=0)
    completion = CountedText("He goes home .")
    batch = {"completions": [completion] * 4, "source": ["He go home ."] * 2 + ["He goes home ."] * 2,
             "references": [["He goes home ."]] * 4}
    CountedText.splits = 0
    assert f(**batch) == [1.0] * 4 and f.stats.scored == 2
    assert CountedText.splits == 1


def test_line_breaks_are_spaces():
    f = reward_function("gleu")
    assert f(completions=["He goes\nhome ."], source=["He go home ."], references=[["He goes home ."]]) == [1.0]


def test_a_text_is_one_line_wherever_it_is_read():
    """Line breaks are spaces in completions, references and sources alike, a closing one
    dropped: an MBR candidate is the same text as hypothesis and as reference (two copies of
    "He goes home .\n" scored 0.931 with each other, not 1). Only \n and \r are line breaks:
    U+2028 stays, as a line of a file holds it, with or without a closing newline."""
    candidates = ["He goes home .\n", "He goes home .\n", "He went home ."]
    utilities = mbr_select([candidates], "gleu", ["He go home ."], unit="char").utilities[0]
    assert utilities[0, 1] == utilities[1, 0] == 1.0
    assert mbr_select([["a b\nc d", "a b\r\nc d"]], "gleu", ["a b c d"], unit="char").utilities[0][0, 1] == 1.0
    f = reward_function("green-char")
    assert f(completions=["He goes home ."], source=["He go\nhome ."], references=[["He goes\r\nhome .\n"]]) == \
        f(completions=["He goes home ."], source=["He go home ."], references=[["He goes home ."]]) == [1.0]
    kept = f(completions=["He goes\u2028home ."], source=["He go home ."], references=[["He goes home ."]])
    assert kept[0] < 1.0
    assert f(completions=["He goes\u2028home .\n"], source=["He go home ."], references=[["He goes home ."]]) == kept


def test_hand_made_blocks_are_checked_as_the_reader_checks_a_file():
    """A Block built in code whose fields are of the wrong kind, or whose edit lies outside the
    sentence, is refused as the M2 reader refuses such a line (a TypeError or AttributeError
    from inside the reward, or a silent 0.0 in the reward and in sentence_scores)."""
    from gecmetrics.core.edits.blocks import Block, Edit

    f = reward_function("m2")
    for block, message in [(Block(["a", "b"], []), "source is its tokenized text, got list"),
                           (Block("a b", None), "edits are a list of Edit, got NoneType"),
                           (Block("a b", ["A 0 1|||X|||y|||REQUIRED|||-NONE-|||0"]), "edits are Edit objects, got str"),
                           (Block("a b", [Edit(1, 3, "R:X", "y")]), "edit span 1 3 goes beyond the sentence .2 tokens."),
                           (Block("a b", [Edit(2, 1, "R:X", "y")]), "starts after it ends"),
                           (Block("a b", [Edit(0, 1, "R:X", "y", annotator=-4)]), "annotator -4 is negative"),
                           (Block("a b", [Edit(0, "1", "R:X", "y")]), "start, end and annotator are integers")]:
        with pytest.raises(InputError, match=message):
            f(completions=["a b"], references=[block])
        with pytest.raises(InputError, match=message):
            get_metric("m2").sentence_scores(None, [block], ["a b"])
    fake = type("B", (), {"edits": [], "source": "a b"})()  # errant scored it 1.0
    with pytest.raises(InputError, match="give the M2 text of the sentence .or its Block., got B"):
        reward_function("errant")(completions=["a b"], references=[fake])
    read = read_m2_text("S a b\nA 0 1|||R:X|||y|||REQUIRED|||-NONE-|||0\n", "gold")[0]
    assert f(completions=["y b"], references=[read]) == f(completions=["y b"], references=[Block("a b", read.edits)])


@pytest.mark.models
def test_a_tiny_model_metric(tmp_path):
    """A reference-free model metric (IMPARA on tiny seeded models): the reward is the
    sentence score of the triple, batched over distinct completions: equal to float32 rounding
    (a batch's padding changes the last bits of a forward pass, as in the metric's own corpus
    calls)."""
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from gecmetrics.core.models.tiny_bert_heads import build_impara_models

    build_impara_models(tmp_path / "impara")
    settings = {"model": str(tmp_path / "impara" / "qe"), "se_model": str(tmp_path / "impara" / "se"),
                "device": "cpu", "threads": 1, "threshold": 0.5}
    f = reward_function("impara", **settings)
    sources = ["He go home .", "A cat sat on mat ."]
    completions = ["He goes home .", "He went home .", "He go home .", "A cat sat on the mat .", "A cat sat on mat ."]
    rows = [0, 0, 0, 1, 1]
    values = f(completions=completions, source=[sources[r] for r in rows])
    metric = get_metric("impara", **settings)
    alone = [one_sentence(metric, sources[r], None, c) for r, c in zip(rows, completions)]
    np.testing.assert_allclose(values, alone, rtol=0, atol=1e-6)
    assert len(set(values)) > 1


@pytest.mark.models
def test_pt_m2_with_the_tiny_bert(tmp_path):
    """PT-M2 (MaxMatch edits weighted by BERTScore, gold M2 references) on the tiny BERT: the
    reward is the one-sentence corpus's sentence score, the completions of a row batched."""
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from tests._pt_support import GOLD, HYPOTHESIS, TINY_SETTINGS
    from gecmetrics.core.models.tiny import build_tiny_bert
    from gecmetrics.io.m2 import parse_m2

    build_tiny_bert(tmp_path)
    settings = {"model": str(tmp_path), "device": "cpu", **TINY_SETTINGS}
    blocks = parse_m2(GOLD, "gold")
    completions, references, rows = [], [], []
    for d, block in enumerate(blocks):
        for text in (HYPOTHESIS[d], block.source, HYPOTHESIS[(d + 1) % len(blocks)]):
            completions.append(text)
            references.append(format_m2([block]))
            rows.append(d)
    f = reward_function("pt-m2", **settings)
    values = f(completions=completions, references=references)
    metric = get_metric("pt-m2", **settings)
    alone = [float(np.asarray(metric.sentence_scores(None, [blocks[d]], [c]).scores).ravel()[0])
             for d, c in zip(rows, completions)]
    np.testing.assert_allclose(values, alone, rtol=0, atol=1e-6)
    assert len(set(values)) > 1


class FirstReferenceMatch(Metric):
    """A plugin's metric: 1 where the hypothesis is the first reference."""

    def prepare(self, corpus, group=()):
        return corpus.references[0]

    def statistics(self, prepared, hypothesis):
        return np.array([[float(h == r), 1.0] for h, r in zip(hypothesis, prepared)])

    def score_from_sums(self, sums, column=0):
        return sums[..., 0] / sums[..., 1]


def test_a_plugin_metric():
    """A metric registered by a plugin is a reward like the built-in ones."""
    from gecmetrics import register_metric, unregister_metric

    register_metric("toy-match", FirstReferenceMatch)
    try:
        f = reward_function("toy-match")
        assert f(completions=["a b", "a c", "a b"], source=["a x"] * 3, references=[["a b", "a c"]] * 3) == [1.0, 0.0, 1.0]
        assert f.stats.scored == 2
    finally:
        unregister_metric("toy-match")


class EmptyIsUndefined(FirstReferenceMatch):
    """A plugin's metric whose sentence score of an empty hypothesis is 0/0."""

    def statistics(self, prepared, hypothesis):
        return np.array([[float(h == r), float(bool(h))] for h, r in zip(hypothesis, prepared)])

    def score_from_sums(self, sums, column=0):
        with np.errstate(invalid="ignore", divide="ignore"):
            return sums[..., 0] / sums[..., 1]


def test_a_plugins_score_that_is_no_finite_number_gets_the_fallback():
    # a nan reached the trainer as a reward (and mbr_select's utilities)
    f = reward_function(EmptyIsUndefined(), fallback=-1.0)
    assert f(completions=["a b", "", "a c"], source=["a x"] * 3, references=[["a b"]] * 3) == [1.0, -1.0, 0.0]
    assert f.stats.reasons == {"not a finite score": 1} and f.fallbacks == 1


@dataclass(frozen=True)
class WorkersSettings(Settings):
    window: int = setting(3, "sentences per window (changes the values)", positive_int)
    workers: int = setting(1, "threads of the scorer (speed only)", positive_int, run_only=True)


@dataclass(frozen=True)
class UndeclaredSettings(Settings):
    window: int = setting(3, "sentences per window (changes the values)", positive_int)
    device: str = setting("cpu", "where it runs (not declared run-only: it changes the values)", choice("cpu", "gpu"))


class WorkersMatch(FirstReferenceMatch):
    settings_class = WorkersSettings


class UndeclaredMatch(FirstReferenceMatch):
    settings_class = UndeclaredSettings


def test_a_plugins_run_only_settings_are_what_it_declares():
    """A plugin's run-only setting (a workers count) was part of its rewards' names, unless it had
    one of the built-in metrics' names; and a plugin setting named like one of them (device) was
    left out even where it changes the values, so two rewards with different values shared a name.
    What the plugin's settings declare decides now."""
    from gecmetrics import register_metric, unregister_metric

    register_metric("toy-workers", WorkersMatch)
    register_metric("toy-undeclared", UndeclaredMatch)
    try:
        assert reward_function("toy-workers", workers=8).__name__ == "gecmetrics_toy_workers"
        assert reward_function("toy-workers", workers=8, window=5).__name__ == "gecmetrics_toy_workers-window_5"
        assert reward_function(WorkersMatch(workers=4)).__name__ == "gecmetrics_toy_workers"
        assert reward_function("toy-undeclared", device="gpu").__name__ == "gecmetrics_toy_undeclared-device_gpu"
        assert reward_function("toy-undeclared", device="gpu", window=5).__name__ \
            == "gecmetrics_toy_undeclared-window_5-device_gpu"
    finally:
        unregister_metric("toy-workers")
        unregister_metric("toy-undeclared")


class SourceRefusal(FirstReferenceMatch):
    """A plugin's metric whose whole-run check refuses a source 'x', not declaring that its
    observations refuse (observations_refuse)."""

    def observation(self, prepared):
        return self.sources

    def prepare(self, corpus, group=()):
        self.sources = list(corpus.sources)
        return super().prepare(corpus, group)

    def check_observations(self, observations):
        if any("x" in sources for sources in observations):
            raise InputError("the source 'x' is refused")


def test_a_refusing_plugin_that_does_not_declare_it_refuses_its_lines_alone():
    """Rows of a metric that does not declare observations_refuse are scored together; when the
    batch is refused, each line is scored alone, and only the refused ones fall back."""
    f = reward_function(SourceRefusal(), fallback=-1.0)
    assert f(completions=["a b", "x", "a c"], source=["a", "x", "a"], references=[["a b"], ["x"], ["a b"]]) == \
        [1.0, -1.0, 0.0]
    assert f.stats.reasons == {"refused by the metric": 1} and f.stats.scored == 3


def test_the_persistent_cache_through_the_run_context(conll, spacy_model, tmp_path):
    """cache= binds the metric to a run context (as corpus_score's cache=): ERRANT's parses go
    to that folder, the values are those without a cache, and a pickled function uses it too."""
    batch = grpo_batch(conll, m2=True)
    folder = tmp_path / "cache"
    cached = reward_function("errant", spacy_model=SPACY_TEST_MODEL, cache=str(folder))
    values = cached(**batch)
    assert values == reward_function("errant", spacy_model=SPACY_TEST_MODEL, cache=False)(**batch)
    assert folder.is_dir() and any(folder.iterdir())
    assert pickle.loads(pickle.dumps(cached))(**batch) == values
    with pytest.raises(InputError, match="cache must be"):
        reward_function("gleu", cache=3)


def test_a_row_of_many_references_keeps_memory_linear(tmp_path: Path):
    """Each reference's n-gram counts were kept over the keys of every reference, so memory grew
    with the square of a row's references: 2,000 references of 50 words took 3.8 GB, 62,500 of 3
    words went past 24 GB (the out-of-memory killer). Under a 1.5 GB cap now, gleu and green."""
    import subprocess
    import sys

    script = ("import random, resource, sys\n"
              "resource.setrlimit(resource.RLIMIT_AS, (3 << 29, 3 << 29))\n"
              "from gecmetrics.rewards import reward_function\n"
              "rnd = random.Random(0)\n"
              "words = [f'w{k}' for k in range(5000)]\n"
              "refs = [' '.join(rnd.choice(words) for _ in range(50)) for _ in range(2000)]\n"
              "for name in ('gleu', 'green'):\n"
              "    print(reward_function(name)(completions=[refs[0]], source=[''], references=[refs]))\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-2000:]
    assert len(result.stdout.split("\n")) == 3


@pytest.mark.parametrize("name", ["gleu", "green", "gleu0"])
def test_reference_counts_kept_or_made_when_asked_give_the_same_scores(conll, monkeypatch, name):
    """Past ``DENSE_REFERENCE_CELLS`` each reference's counts are made from its own keys' places
    when asked for: every corpus and sentence score the same as the counts kept whole."""
    from gecmetrics.core import ngrams

    lines = conll["lines"]
    metric = get_metric(name)
    references = [lines["REF0"], lines["REF1"]]

    def scores() -> list:
        kept = [list(metric.corpus_score(lines["INPUT"], references, lines[system]).scores) for system in SYSTEMS]
        sentences = [np.asarray(metric.sentence_scores(lines["INPUT"], references, lines[system]).scores).tolist()
                     for system in SYSTEMS]
        return [kept, sentences]

    dense = scores()
    monkeypatch.setattr(ngrams, "DENSE_REFERENCE_CELLS", 0)
    assert scores() == dense


def test_a_lone_surrogate_in_a_column_names_the_callers_row():
    """A lone surrogate in ``source[3]`` was said as 'the source:1' and one in
    ``references[2][1]`` as 'reference 1:1': places in the call's batch of distinct rows."""
    f = reward_function("gleu")
    with pytest.raises(InputError, match=r"source 3: holds a lone surrogate"):
        f(completions=["a", "b", "c", "d"], source=["x", "x", "x", "y \ud800"], references=[["r"]] * 4)
    with pytest.raises(InputError, match=r"references 2, reference 1: holds a lone surrogate"):
        f(completions=["a", "b", "c"], source=["x", "y", "z"], references=[["r"], ["r"], ["r", "s \ud800"]])


def test_a_column_that_is_none_of_the_metrics_says_column():
    """``column=5`` of GREEN (one column, beta 2) was said as 'beta 5 is not one of this
    metric's (2)', naming a setting the caller never gave."""
    with pytest.raises(InputError, match=r"metric green has no column 5: not an index \(0..0\), a label \(GREEN b2\)"):
        reward_function("green", column=5)


def test_m2_text_given_as_a_text_reference_is_refused():
    """The M2 text of a sentence given where a reference text is read had its line breaks made
    spaces and was scored as one odd sentence (0.0 for the correct completion); MBR's candidates,
    a model's texts, are never refused so."""
    block = "S He go home .\nA 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\n"
    for name in ("gleu", "green"):
        with pytest.raises(InputError, match="references 0 is the M2 text of a sentence"):
            reward_function(name)(completions=["He goes home ."], source=["He go home ."], references=[block])
    chosen = mbr_select([["He goes home .", block]], "gleu", sources=["He go home ."])
    assert chosen is not None


class CrashingOnBoom(FirstReferenceMatch):
    """A plugin's metric with a bug: its statistics raise on the completion 'boom'."""

    def statistics(self, prepared, hypothesis):
        if "boom" in hypothesis:
            raise RuntimeError("a bug in the plugin")
        return super().statistics(prepared, hypothesis)


def test_a_call_that_raises_leaves_the_stats_as_they_were():
    """``stats.calls``, ``completions`` and the rest counted a call that raised while scoring
    (a plugin's bug) as if it had returned rewards; such a call now counts for nothing."""
    f = reward_function(CrashingOnBoom())
    assert f(completions=["a b", "c"], source=["a", "c"], references=[["a b"], ["d"]]) == [1.0, 0.0]
    kept = dict(vars(f.stats), reasons=dict(f.stats.reasons))
    with pytest.raises(InputError, match="failed in statistics: RuntimeError: a bug in the plugin"):
        f(completions=["a b", "boom", "e"], source=["a", "c", "e"], references=[["a b"], ["d"], ["e"]])
    assert dict(vars(f.stats), reasons=dict(f.stats.reasons)) == kept and f.stats.calls == 1
    assert f(completions=["e"], source=["e"], references=[["e"]]) == [1.0] and f.stats.calls == 2


def test_numpy_columns_and_candidates_are_the_lists_they_hold():
    """A NumPy array of completions, of a column or of MBR candidates was refused ('must be a
    list, got ndarray') where the metrics take one; it is now read as its list."""
    import numpy as np

    f = reward_function("gleu")
    completions, sources = ["He goes home .", "He go home ."], ["He go home ."] * 2
    references = [["He goes home ."]] * 2
    assert f(completions=np.array(completions), source=np.array(sources), references=references) == \
        f(completions=completions, source=sources, references=references)
    candidates = [["a b c d e", "a b c d f", "a b c d e"], ["x y z w v", "x y z w", "x y z w v"]]
    listed = mbr_select(candidates, "gleu", sources=["a b c d e", "x y z w v"])
    arrays = mbr_select(np.array(candidates, dtype=object), "gleu", sources=np.array(["a b c d e", "x y z w v"]))
    assert (arrays.choices, arrays.selected) == (listed.choices, listed.selected)
    inner = mbr_select([np.array(texts) for texts in candidates], "gleu", sources=["a b c d e", "x y z w v"])
    assert (inner.choices, inner.selected) == (listed.choices, listed.selected)
    assert f(completions=completions, source=sources, references=[np.array(r) for r in references]) == \
        f(completions=completions, source=sources, references=references)
    with pytest.raises(InputError, match="completions must be a list, got int"):
        f(completions=3, source=sources[:1], references=references[:1])


def test_a_metric_without_sentence_scores_is_refused_with_its_reason():
    """The refusal named the attribute has_sentence_scores; it says the metric's reason."""
    with pytest.raises(InputError, match=r"errant has no sentence scores \(average=macro: the macro average over"):
        reward_function("errant", average="macro")
