"""GoToScorer as a registered metric (`gotoscorer`): the core's numbers through the protocol,
the same rows whatever the chunking, weight files, compare (table, JSON, paired tests, -p 2
through the console script), meta-eval at system and sentence level; on ../shared, the
original's printed numbers (tests/data/gotoscorer_oracle.txt) through `compare`."""
from __future__ import annotations

import json
import os
import random
import re
import shlex
import subprocess
from pathlib import Path

import numpy as np
import pytest

from gecmetrics import compare, get_metric, paired_test
from gecmetrics.errors import InputError
from gecmetrics.io.corpus import Corpus
from gecmetrics.io.m2 import parse_m2
from gecmetrics.io.m2_references import apply_edits
from gecmetrics.metrics.gotoscorer import (read_gold, read_system, read_weight_file, score_systems, scores_from_sums,
                                           sentence_scores)
from gecmetrics.metrics.gotoscorer.metric import GoToScorer
from gecmetrics.metrics.registry import metrics_from_text
from gecmetrics.run.engine import score_corpus
from tests.conftest import gecmetric_script, json_x100, one_line_error, run_cli, write_files

ROOT = Path(__file__).resolve().parent.parent
WORDS = "the a cat dog sat on mat is are was were he she they go goes went to school".split()
TYPES = ["R:VERB", "M:DET", "U:DET", "R:NOUN:NUM", "R:OTHER"]


# ---------------------------------------------------------------------------- a seeded corpus


def random_edits(rng: random.Random, length: int, annotator: int, gold: list[tuple] | None = None) -> list[tuple]:
    """Non-overlapping edits (start, end, correction, type) of one annotator; with ``gold``, some
    of the gold's are copied (a system that corrects part of the errors)."""
    edits: list[tuple] = []
    if gold is not None:
        edits = [edit for edit in gold if rng.random() < 0.5]
    position = 0
    while position <= length and rng.random() < 0.6:
        start = rng.randint(position, min(length, position + 3))
        end = min(length, start + rng.choice([0, 1, 1, 2]))
        if any(not (end <= s or start >= e) or (start == end == s) for s, e, _, _ in edits):
            position = end + 1
            continue
        correction = " ".join(rng.choice(WORDS) for _ in range(rng.choice([0, 1, 1, 2]) if end > start else 1))
        edits.append((start, end, correction, rng.choice(TYPES)))
        position = end + 1
    return sorted(edits, key=lambda e: (e[0], e[1]))


def m2_block(source: str, edits_by_annotator: list[list[tuple]]) -> str:
    lines = [f"S {source}"]
    for annotator, edits in enumerate(edits_by_annotator):
        if not edits:
            lines.append(f"A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||{annotator}")
        for start, end, correction, kind in edits:
            lines.append(f"A {start} {end}|||{kind}|||{correction}|||REQUIRED|||-NONE-|||{annotator}")
    return "\n".join(lines) + "\n\n"


def seeded_corpus(sentences: int = 23, systems: int = 4, seed: int = 7) -> dict:
    """Sources, a gold M2 with two annotators, and systems (M2 of annotator 0, and their text)."""
    rng = random.Random(seed)
    sources = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 9))) for _ in range(sentences)]
    gold = [[random_edits(rng, len(s.split()), 0), random_edits(rng, len(s.split()), 1)] for s in sources]
    names = [f"sys{k}" for k in range(systems)] + ["input"]
    edits = {name: [([] if name == "input" else random_edits(rng, len(s.split()), 0, g[0])) for s, g in
                    zip(sources, gold)] for name in names}
    text = {name: [" ".join(apply_edits(s.split(), [_edit(e) for e in sentence_edits]))
                   for s, sentence_edits in zip(sources, edits[name])] for name in names}
    return {"sources": sources, "gold": "".join(m2_block(s, g) for s, g in zip(sources, gold)),
            "m2": {name: "".join(m2_block(s, [e]) for s, e in zip(sources, edits[name])) for name in names},
            "text": text, "names": names}


def _edit(edit: tuple):
    from gecmetrics.io.m2 import Edit

    start, end, correction, kind = edit
    return Edit(start, end, kind, correction)


@pytest.fixture(scope="module")
def corpus() -> dict:
    return seeded_corpus()


@pytest.fixture
def files(tmp_path, corpus) -> dict[str, str]:
    contents: dict = {"src": corpus["sources"], "ref": corpus["sources"], "gold.m2": corpus["gold"]}
    for name in corpus["names"]:
        contents[name] = corpus["text"][name]
        contents[f"{name}.m2"] = corpus["m2"][name]
    paths = write_files(tmp_path, contents)
    ranks = {name: k + 1 for k, name in enumerate(["sys0", "sys1", "sys2", "sys3", "input"])}
    paths["human.tsv"] = str(tmp_path / "human.tsv")
    (tmp_path / "human.tsv").write_text("system\thuman\n" + "".join(f"{n}\t{1 / r}\n" for n, r in ranks.items()),
                                        encoding="utf-8")
    return paths


def blocks(corpus: dict) -> tuple[list, dict[str, list]]:
    gold = parse_m2(corpus["gold"], "gold.m2")
    return gold, {name: parse_m2(corpus["m2"][name], f"{name}.m2") for name in corpus["names"]}


# ---------------------------------------------------------------------------- the protocol


def test_an_edit_of_another_annotator_is_refused_at_its_line(corpus):
    """A hypothesis M2 of one system with a line of annotator 5 (a mistyped id) is refused naming
    that line, as ``gecmetric gotoscorer`` refuses it, whether scored alone or among systems."""
    gold, systems = blocks(corpus)
    text = corpus["m2"]["sys0"]
    lines = text.splitlines()
    at = next(k for k in range(1, len(lines)) if lines[k].startswith("A ") and lines[k - 1].startswith("A "))
    lines[at] = lines[at][:-1] + "5"
    wrong = parse_m2("\n".join(lines) + "\n", "wrong.m2")
    message = f":{at + 1}: has edits of annotator 5: a hypothesis M2 holds one system"
    metric = get_metric("gotoscorer")
    with pytest.raises(InputError, match="^hypothesis" + message):
        metric.corpus_score(None, gold, wrong)
    with pytest.raises(InputError, match="^wrong.m2" + message):
        metric.corpus_score(None, gold, wrong, systems={"wrong.m2": wrong, "sys1": systems["sys1"]})


def test_the_metric_gives_the_cores_numbers(corpus):
    gold, systems = blocks(corpus)
    core_gold = read_gold(gold)
    run = score_systems(core_gold, [read_system(systems[n], core_gold, 0, n) for n in corpus["names"]])
    metric = get_metric("gotoscorer", score="f05/p/r/f/acc")
    scored = score_corpus([metric], Corpus(None, [], systems, gold))
    for k, name in enumerate(corpus["names"]):
        result = scored.result(name, 0)
        # the metric weighs summed rows (count x weight per level), exactly as scores_from_sums;
        # the command and score_systems add the weights chunk after chunk as the original does,
        # which may differ in the last bits of a double
        core = scores_from_sums(run.statistics[k].sum(axis=0), run.level_weights)
        assert result.scores == [core.f05, core.precision, core.recall, core.f, core.accuracy]  # exactly
        assert (result.tp, result.fp, result.fn, result.tn, result.systems) == (core.tp, core.fp, core.fn, core.tn, 5)
        ordered = run.scores[k]
        assert (ordered.f05, ordered.accuracy, ordered.tp) == pytest.approx((core.f05, core.accuracy, core.tp),
                                                                            rel=1e-12)
        np.testing.assert_array_equal(scored.statistics[name][0], run.statistics[k])
        sentences = metric.sentence_matrix(scored.statistics[name][0])
        expected = sentence_scores(run.statistics[k], run.level_weights)
        assert sentences[0].tolist() == [s.f05 for s in expected] and sentences[4].tolist() == [s.accuracy
                                                                                                 for s in expected]
    assert len({scored.result(n, 0).score for n in corpus["names"]}) > 2  # the data tell systems apart


@pytest.mark.parametrize("settings", [{}, {"no_weight": True}, {"a": 1, "b": 0.5, "c": 1}, {"ref_id": 1}])
def test_chunks_of_sentences_give_the_whole_corpus_rows(corpus, settings):
    """Levels depend on each sentence alone: chunks of 7 sentences (and one worker per chunk)
    give the rows, scores and sentence scores of the corpus at once."""
    gold, systems = blocks(corpus)
    metric = GoToScorer(**settings)
    whole = score_corpus([metric], Corpus(None, [], systems, gold))
    for chunked in (score_corpus([metric], Corpus(None, [], systems, gold), chunk_lines=7),
                    score_corpus([metric], Corpus(None, [], systems, gold), chunk_lines=7, jobs=2)):
        for name in corpus["names"]:
            np.testing.assert_array_equal(chunked.statistics[name][0], whole.statistics[name][0])
            assert chunked.result(name, 0).to_dict() == whole.result(name, 0).to_dict()
    core_gold = read_gold(gold, settings.get("ref_id", 0))
    run = score_systems(core_gold, [read_system(systems[n], core_gold, 0, n) for n in corpus["names"]],
                        a=settings.get("a", 1), b=settings.get("b", 0), c=settings.get("c", 0),
                        no_weight=settings.get("no_weight", False))
    weights = None if settings.get("no_weight") else run.level_weights
    assert [whole.result(n, 0).score for n in corpus["names"]] == [
        scores_from_sums(stats.sum(axis=0), weights).f05 for stats in run.statistics]  # count x weight, as the metric
    assert [whole.result(n, 0).score for n in corpus["names"]] == pytest.approx([s.f05 for s in run.scores], rel=1e-12)


def test_a_weight_file_fixes_the_weights(corpus, tmp_path):
    """weights=FILE (-w_file): a file made from all systems gives their scores to any subset,
    here scored in chunks; the signature names the file by its contents."""
    gold, systems = blocks(corpus)
    code, out, err = run_cli("gotoscorer", "-ref", str(write_files(tmp_path, {"g.m2": corpus["gold"]})["g.m2"]),
                             "-hyp", *write_files(tmp_path, {f"{n}.m2": corpus["m2"][n] for n in corpus["names"]})
                             .values(), "--make-weights", str(tmp_path / "w.txt"), "--json", "--scale", "1")
    assert code == 0, err
    from_command = json.loads(out)
    metric = get_metric("gotoscorer", weights=str(tmp_path / "w.txt"))
    assert re.fullmatch(r"GoToScorer\|score:f05\|weights:file-[0-9a-f]{12}\|a:1\|b:0\|c:0\|no_weight:no\|ref_id:0"
                        r"\|version:.*", metric.signature)
    alone = score_corpus([metric], Corpus(None, [], {"sys2": systems["sys2"]}, gold), chunk_lines=5)
    assert alone.result("sys2", 0).score == from_command[2]["f05"]
    assert alone.result("sys2", 0).systems == 5
    with_all = score_corpus([get_metric("gotoscorer")], Corpus(None, [], systems, gold))
    assert with_all.result("sys2", 0).score == from_command[2]["f05"]
    text = read_weight_file(str(tmp_path / "w.txt")).format().splitlines()
    (tmp_path / "short.txt").write_text("\n".join(text[:-1]) + "\n", encoding="utf-8")
    (tmp_path / "long.txt").write_text("\n".join(text + text[-1:]) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match="long.txt: has 24 sentence lines but the corpus has 23 sentences"):
        score_corpus([get_metric("gotoscorer", weights=str(tmp_path / "long.txt"))],
                     Corpus(None, [], systems, gold), chunk_lines=5).result("sys0", 0)
    with pytest.raises(InputError, match=r"short.txt: has 22 sentence lines but the corpus has more"):
        score_corpus([get_metric("gotoscorer", weights=str(tmp_path / "short.txt"))],
                     Corpus(None, [], systems, gold), chunk_lines=5)
    with pytest.raises(InputError, match=r"w.txt:\d+: has \d+ counts for sentence \d+ but the reference"):
        score_corpus([get_metric("gotoscorer", weights=str(tmp_path / "w.txt"), ref_id=1)],
                     Corpus(None, [], systems, gold))
    with pytest.raises(InputError, match="no weight file"):
        get_metric("gotoscorer", weights=str(tmp_path / "missing.txt"))


def test_sentences_given_their_places_read_their_lines_of_the_weight_file(corpus, tmp_path):
    """A corpus of some sentences of the whole, out of order and repeated (edit attribution's
    candidates: ``Corpus(rows=...)``), read each sentence's own line of the weight file, in chunks
    too: each sentence's row is that of the whole corpus. Bad places are refused by name."""
    gold, systems = blocks(corpus)
    (tmp_path / "w.txt").write_text(score_systems(read_gold(gold), [read_system(systems[n], read_gold(gold), 0, n)
                                                                    for n in corpus["names"]]).weights.format())
    metric = get_metric("gotoscorer", weights=str(tmp_path / "w.txt"), score="acc")
    whole = score_corpus([metric], Corpus(None, [], {"sys1": systems["sys1"]}, gold)).statistics["sys1"][0]
    rows = [17, 3, 3, 22, 0, 9, 3]
    picked = Corpus(None, [], {"sys1": [systems["sys1"][r] for r in rows]}, [gold[r] for r in rows], rows=rows)
    for chunk_lines in (None, 3):
        placed = score_corpus([metric], picked, chunk_lines=chunk_lines).statistics["sys1"][0]
        np.testing.assert_array_equal(placed, whole[rows])
    assert metric.sentence_matrix(placed).tolist() == metric.sentence_matrix(whole[rows]).tolist()
    for places, message in [([17, 4, 3, 22, 0, 9, 3], r"w.txt:6: has 19 counts for sentence 5 but the reference "
                                                       r"gold.m2 makes 7 chunks of it"),
                            ([17, 3, 3, 23, 0, 9, 3], r"w.txt: has 23 sentence lines but the corpus has more "
                                                      r"sentences \(at least 24\)")]:
        moved = Corpus(None, [], {"sys1": [systems["sys1"][r] for r in rows]}, [gold[r] for r in rows],
                       {"gold": "gold.m2"}, rows=places)
        with pytest.raises(InputError, match=message):
            score_corpus([metric], moved)
    for bad, message in [([1, 2], "rows: has 2 sentence numbers for 7 sentences"),
                         ([0, 1, 2, 3, 4, 5, -1], "rows: sentence numbers must be integers >= 0, got -1"),
                         ("0123456", "rows: rows must be a list of sentence numbers, got str")]:
        with pytest.raises(InputError, match=message):
            Corpus(None, [], {}, [gold[r] for r in rows], rows=bad)


def test_settings_columns_and_errors(corpus):
    metric = metrics_from_text("gotoscorer:score=f05/p/R/accuracy:no_weight")[0]
    assert metric.column_labels() == ["GoToScorer F0.5 unweighted", "GoToScorer P unweighted",
                                      "GoToScorer R unweighted", "GoToScorer Acc unweighted"]
    assert metric.columns()[1].signature.startswith("GoToScorer|score:p|weights:systems|")
    assert metric.column_index("acc") == 3 and metric.column_index("GoToScorer R unweighted") == 2
    assert json.dumps(metric.settings_dict())
    with pytest.raises(InputError, match="'x' is not one of f05, f, p, r, acc"):
        get_metric("gotoscorer", score="f05/x")
    with pytest.raises(InputError, match="has no column 'nope'"):
        metric.column_index("nope")
    gold, systems = blocks(corpus)
    two = parse_m2(corpus["m2"]["sys0"].replace("|||0\n", "|||1\n", 1) + "", "two.m2")
    with pytest.raises(InputError, match="two:2: has edits of annotator 1: a hypothesis M2 holds one system"):
        score_corpus([metric], Corpus(None, [], {"two": two}, gold))
    with pytest.raises(InputError, match="setting weights is empty: give 'systems' or a weight file"):
        get_metric("gotoscorer", weights=" ")  # (weights=$W with W unset was read as 'systems')
    with pytest.raises(InputError, match="needs the reference M2"):
        metric.prepare(Corpus(corpus["sources"], [], {"sys0": systems["sys0"]}))
    code, out, err = run_cli("compare", "--list-metrics")
    assert "gotoscorer: GoToScorer F0.5" in out and "no_weight: GoToScorer" in out


def test_paired_tests_resample_the_rows(corpus):
    gold, systems = blocks(corpus)
    named = {"input": systems["input"], "sys0": systems["sys0"], "sys1": systems["sys1"]}
    for method in ("bs", "ar"):
        result = paired_test(get_metric("gotoscorer"), None, gold, named, method, samples=200)
        whole = score_corpus([get_metric("gotoscorer")], Corpus(None, [], named, gold))
        assert [s.score for s in result.systems] == [whole.result(n, 0).score for n in named]
        assert result.signature.startswith("GoToScorer|score:f05|weights:systems")
        assert all(s.interval[0] <= s.score <= s.interval[1] for s in result.systems)
    recall = paired_test(get_metric("gotoscorer", score="f05/r"), None, gold, named, "bs", samples=50, column="r")
    assert recall.systems[1].score == score_corpus([get_metric("gotoscorer", score="r")],
                                                   Corpus(None, [], named, gold)).result("sys0", 0).score


# ---------------------------------------------------------------------------- commands


def compare_args(files: dict[str, str], names: list[str]) -> list[str]:
    return ["compare", "-s", files["src"], "-r", files["ref"], "-o", *(files[n] for n in names), "--hyp-m2",
            *(files[f"{n}.m2"] for n in names), "--m2", files["gold.m2"]]


def test_compare_table_and_json(files, corpus):
    names = corpus["names"]
    args = compare_args(files, names) + ["--metrics", "gotoscorer:score=f05/acc,cleme,m2"]
    code, out, err = run_cli(*args, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert [c["label"] for c in data["columns"]][:2] == ["GoToScorer F0.5", "GoToScorer Acc"]
    assert data["columns"][1]["signature"].startswith("GoToScorer|score:acc|")
    gold, systems = blocks(corpus)
    own = score_corpus([get_metric("gotoscorer", score="f05/acc")], Corpus(None, [], systems, gold))
    rows = {row["system"]: row["scores"] for row in data["rows"]}
    for name in names:
        assert rows[files[name]]["GoToScorer F0.5"] == json_x100(own.result(name, 0).scores[0])
        assert rows[files[name]]["GoToScorer Acc"] == json_x100(own.result(name, 0).scores[1])
    code, table, err = run_cli(*args, "--tsv", "-d", "4")
    assert code == 0, err
    header = table.splitlines()[0].split("\t")
    assert header[:3] == ["system", "GoToScorer F0.5 (x100)", "GoToScorer Acc (x100)"]
    first = dict(zip(header, table.splitlines()[1].split("\t")))
    assert float(first["GoToScorer F0.5 (x100)"]) == pytest.approx(100 * own.result(names[0], 0).scores[0], abs=5e-5)
    code, paired, err = run_cli(*compare_args(files, names), "--metrics", "gotoscorer", "--paired-bs", "100")
    assert code == 0 and "GoToScorer" in paired, err
    python = compare(corpus["sources"], [corpus["sources"]], {n: corpus["text"][n] for n in names}, ["gotoscorer"],
                     m2_blocks=gold, hypothesis_m2=systems)
    assert [python.score(n, "GoToScorer F0.5") for n in names] == [own.result(n, 0).scores[0] for n in names]


def test_the_command_and_compare_sign_one_metric_and_settings_alike(files, corpus, tmp_path):
    """`gotoscorer --signature` signed `score:p,r,f,f05,acc` and `compare --metrics gotoscorer
    --signature` `score:f05`, for the same F0.5 of the same settings: the command signs the
    registered metric of its settings (headline F0.5, the other numbers beside it), as compare,
    its JSON and its Markdown table do, by default and with every setting changed."""
    names = corpus["names"]
    hypotheses = [files[f"{name}.m2"] for name in names]
    weights = str(tmp_path / "w.txt")
    assert run_cli("gotoscorer", "-ref", files["gold.m2"], "-hyp", *hypotheses, "-ref_id", "1", "--make-weights",
                   weights)[0] == 0
    changed = (["-ref_id", "1", "-a", "2", "-b", "0.5", "-c", "1", "-w_file", weights],
               f"gotoscorer:ref_id=1:a=2:b=0.5:c=1:weights={weights}")
    unweighted = (["-ref_id", "1", "-no_weight"], "gotoscorer:ref_id=1:no_weight=true")  # (-a ... with it: refused)
    for flags, spec in (([], "gotoscorer"), changed, unweighted):
        code, out, err = run_cli("gotoscorer", "-ref", files["gold.m2"], "-hyp", *hypotheses, *flags, "--signature",
                                 "--json")
        assert code == 0, err
        own, command = err.strip().splitlines()[-1], json.loads(out)
        code, out, err = run_cli(*compare_args(files, names), "--metrics", spec, "--signature", "--json")
        assert code == 0, err
        label, signed = err.strip().splitlines()[-1].split("\t")
        assert own == signed == metrics_from_text(spec)[0].signature(1) and "|score:f05|" in own, (own, signed)
        assert [item["signature"] for item in command] == [own] * len(names)
        assert [item["scores"][0] for item in command] == pytest.approx([row["scores"][label] for row in
                                                                         json.loads(out)["rows"]], rel=1e-12)
        code, table, err = run_cli("gotoscorer", "-ref", files["gold.m2"], "-hyp", *hypotheses, *flags, "--markdown")
        assert code == 0 and f"`{own}`" in table, err


def test_compare_errors(files, corpus):
    names = corpus["names"][:2]
    base = ["compare", "-s", files["src"], "-r", files["ref"], "-o", *(files[n] for n in names)]
    assert "reads hypotheses as M2 edits" in one_line_error(*base, "--m2", files["gold.m2"], "--metrics",
                                                            "gotoscorer")
    assert "needs the gold annotation: --m2" in one_line_error(*base, "--metrics", "gotoscorer")


def test_a_reference_annotator_the_gold_lacks_is_refused_not_scored_0(files, corpus):
    """``ref_id`` 5 in a gold M2 of annotators 0 and 1 scored 0.00 through the metric (the
    command refused it): every path refuses it now; an annotator only some chunks have is
    scored, those chunks' sentences without gold edits."""
    gold, systems = blocks(corpus)
    missing = get_metric("gotoscorer", ref_id=5, no_weight=True)
    message = "has no edit line of annotator 5 (ref_id): GoToScorer needs one reference"
    for call in (lambda: missing.corpus_score(None, gold, systems["sys0"]),
                 lambda: missing.sentence_scores(None, gold, systems["sys0"]),
                 lambda: missing.corpus_score(None, gold, systems["sys0"],
                                              missing.prepare(Corpus(None, [], systems, gold))),
                 lambda: score_corpus([missing], Corpus(None, [], systems, gold), chunk_lines=5)):
        with pytest.raises(InputError, match=re.escape(message)):
            call()
    names = corpus["names"][:2]
    error = one_line_error(*compare_args(files, names), "--metrics", "gotoscorer:ref_id=5", "--chunk-lines", "5")
    assert error.startswith(f"gecmetric: error: {files['gold.m2']}: {message}")
    # annotator 1 only in the last sentences' blocks: the chunks without it are scored (no gold edit there)
    late = [block if k >= 20 else parse_m2(m2_block(block.source, [[]]), "gold.m2")[0]
            for k, block in enumerate(gold)]
    chunked = score_corpus([get_metric("gotoscorer", ref_id=1, no_weight=True)], Corpus(None, [], systems, late),
                           chunk_lines=5)
    whole = get_metric("gotoscorer", ref_id=1, no_weight=True).corpus_score(None, late, systems["sys0"],
                                                                          systems=systems)
    assert chunked.result("sys0", 0).scores == whole.scores
    # a corpus without any edit line (one unannotated sentence scored alone) has no gold edit: scored, not refused
    bare = parse_m2(f"S {gold[0].source}\n", "gold.m2")
    assert get_metric("gotoscorer", no_weight=True).corpus_score(None, bare, systems["sys0"][:1]).scores is not None


def test_a_hypothesis_m2_with_a_second_annotator_is_refused_with_its_text(tmp_path):
    """The M2 of a text with annotator 1's edits beside annotator 0's: senterrant took annotator 1
    as an alternative output and attribute scored annotator 0's sentence, not the text (a sweep,
    2026-12-02); applying the edits was checked for one annotator only."""
    paths = write_files(tmp_path, {"S": ["he go to school ."], "R": ["he goes to school ."],
                                   "H": ["he goes to the school ."],
                                   "g.m2": "S he go to school .\nA 1 2|||R:VERB|||goes|||REQUIRED|||-NONE-|||0\n",
                                   "h.m2": ("S he go to school .\nA 1 2|||R:VERB|||goes|||REQUIRED|||-NONE-|||0\n"
                                            "A 3 3|||M:DET|||the|||REQUIRED|||-NONE-|||1\n")})
    message = "sentence 1 has edits of annotator 1: the M2 of a hypothesis text holds that text's edits"
    for args in (["compare", "-s", paths["S"], "-r", paths["R"], "-o", paths["H"], "--hyp-m2", paths["h.m2"],
                  "--m2", paths["g.m2"], "--metrics", "senterrant"],
                 ["attribute", "-s", paths["S"], "-r", paths["R"], "-o", paths["H"], "--hyp-m2", paths["h.m2"],
                  "--metric", "gleu-max"]):
        assert message in one_line_error(*args), args


def test_console_script_in_two_processes(files, corpus):
    """`-p 2` (one worker per chunk, each judging its own sentences) prints what -p 1 prints."""
    command = [gecmetric_script(), *compare_args(files, corpus["names"]), "--metrics",
               "gotoscorer:score=f05/p/r,gotoscorer:no_weight", "--json", "--chunk-lines", "5"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    one = subprocess.run(command + ["-p", "1"], capture_output=True, text=True, env=env, timeout=300)
    two = subprocess.run(command + ["-p", "2"], capture_output=True, text=True, env=env, timeout=300)
    assert one.returncode == 0 and two.returncode == 0, one.stderr + two.stderr
    assert one.stdout == two.stdout
    assert json.loads(one.stdout)["columns"][3]["label"] == "GoToScorer F0.5 unweighted"


def judgments_xml(ranks: dict[str, list[int]]) -> str:
    items = []
    for sentence in range(len(next(iter(ranks.values())))):
        translations = "".join(f'<translation system="{s}" rank="{r[sentence]}"/>' for s, r in ranks.items())
        items.append(f'<ranking-item src-id="{sentence}" user="u">{translations}</ranking-item>')
    return "<results>\n" + "\n".join(items) + "\n</results>\n"


def meta_scoring(files: dict[str, str], names: list[str]) -> list[str]:
    """meta-eval's arguments that score ``names`` with GoToScorer."""
    return ["-s", files["src"], "-r", files["ref"], "-o", *(files[n] for n in names), "--hyp-m2",
            *(files[f"{n}.m2"] for n in names), "--m2", files["gold.m2"], "--metrics", "gotoscorer"]


def write_judgments(corpus: dict, path: Path) -> str:
    """Judgments of every system of ``corpus`` by humans who mostly follow GoToScorer's sentence
    scores (weights from all of them), written to ``path``."""
    names = corpus["names"]
    gold, systems = blocks(corpus)
    own = score_corpus([get_metric("gotoscorer")], Corpus(None, [], systems, gold))
    sentence = {n: get_metric("gotoscorer").sentence_matrix(own.statistics[n][0])[0] for n in names}
    rng = np.random.default_rng(3)
    ranks = {n: [] for n in names}
    for d in range(len(corpus["sources"])):
        noisy = {n: sentence[n][d] + rng.normal(0, 0.2) for n in names}
        order = sorted(names, key=lambda n: -noisy[n])
        for position, n in enumerate(order):
            ranks[n].append(position + 1)
    path.write_text(judgments_xml(ranks), encoding="utf-8")
    return str(path)


def test_meta_evaluation_system_and_sentence_level(files, corpus, tmp_path):
    names = corpus["names"]
    scoring = meta_scoring(files, names)
    code, out, err = run_cli("meta-eval", "--human", files["human.tsv"], *scoring, "--json")
    assert code == 0, err
    correlation = json.loads(out)["correlations"][0]
    assert correlation["metric"] == "GoToScorer F0.5" and correlation["n"] == 5
    gold, systems = blocks(corpus)
    own = score_corpus([get_metric("gotoscorer")], Corpus(None, [], systems, gold))
    judged = ["meta-eval", "--judgments", write_judgments(corpus, tmp_path / "judged.xml"), *scoring, "--json"]
    lines = ["--src-ids", "0"]  # the sentence level and sentence resampling match judgments to corpus lines
    code, out, err = run_cli(*judged)
    assert code == 0, err
    data = json.loads(out)
    assert data["scores"]["GoToScorer F0.5"] == {n: own.result(n, 0).score for n in names}
    code, out, err = run_cli(*judged, *lines, "--level", "sentence")
    assert code == 0, err
    agreement = json.loads(out)["sentence"][0]
    assert agreement["metric"] == "GoToScorer F0.5" and agreement["pairs"] > 50 and agreement["accuracy"] > 0.6
    code, out, err = run_cli(*judged, *lines, "--bootstrap", "20", "--resample", "sentences")
    assert code == 0 and json.loads(out)["correlations"][0]["resampling"] == "sentences", err


def test_meta_evaluation_weighs_the_chunks_by_the_systems_it_correlates(files, corpus, tmp_path):
    """An output left out of the correlation (`input`, by --systems) weighs no chunk: the four
    systems correlated get the scores, the correlations and the sentence-level agreement of a run
    of their four outputs alone (gec-metrics, too, gives a metric only the systems it ranks), and a
    note says so. Weighed with `input` too, every score and the Pearson r would differ."""
    from gecmetrics import meta_evaluate

    names = corpus["names"]
    four = [n for n in names if n != "input"]
    gold, systems = blocks(corpus)
    alone = score_corpus([get_metric("gotoscorer")], Corpus(None, [], {n: systems[n] for n in four}, gold))
    together = score_corpus([get_metric("gotoscorer")], Corpus(None, [], systems, gold))
    expected = {n: alone.result(n, 0).score for n in four}
    assert all(together.result(n, 0).score != expected[n] for n in four)
    note = "GoToScorer: chunk weights from the 4 systems correlated, not from the outputs left out: input"
    judged = ["--judgments", write_judgments(corpus, tmp_path / "judged.xml")]
    sentence_level = ["--src-ids", "0", "--level", "sentence"]
    for mode in (["--human", files["human.tsv"]], judged, judged + sentence_level):
        code, out, err = run_cli("meta-eval", *mode, *meta_scoring(files, names), "--systems", ",".join(four),
                                 "--json")
        assert code == 0, err
        data = json.loads(out)
        assert data["scores"]["GoToScorer F0.5"] == expected and note in data["notes"]
        code, out, err = run_cli("meta-eval", *mode, *meta_scoring(files, four), "--json")
        assert code == 0, err
        four_alone = json.loads(out)
        assert note not in four_alone["notes"]
        for part in ("correlations", "sentence"):
            assert data.get(part) == four_alone.get(part), (mode, part)
    human = meta_evaluate(metrics=["gotoscorer"], corpus=Corpus(None, [], systems, gold), human=files["human.tsv"],
                          systems=four)
    weighed_with_input = meta_evaluate({n: together.result(n, 0).score for n in four}, human=files["human.tsv"])
    assert (round(human.correlations[0].pearson, 3), round(weighed_with_input.correlations[0].pearson, 3)) == (
        0.682, 0.571)
    scored_with_input = meta_evaluate(scored=together, human=files["human.tsv"], systems=four)
    assert scored_with_input.correlations[0].pearson == weighed_with_input.correlations[0].pearson
    assert ("GoToScorer: chunk weights from the 5 systems of the scored run, 1 of them not correlated: input (score "
            "the correlated systems alone to take them from those)") in scored_with_input.notes
    core_gold = read_gold(gold)
    score_systems(core_gold, [read_system(systems[n], core_gold, 0, n) for n in names]).weights.write(
        str(tmp_path / "w.txt"))
    for fixed in ({"no_weight": True}, {"weights": str(tmp_path / "w.txt")}):
        assert get_metric("gotoscorer", **fixed).shared_by_systems is None
        run = meta_evaluate(metrics=[get_metric("gotoscorer", **fixed)], corpus=Corpus(None, [], systems, gold),
                            human=files["human.tsv"], systems=four)
        assert not any("chunk weights" in n for n in run.notes)


def test_meta_evaluation_from_a_scores_file(files, corpus, tmp_path):
    """--scores: GoToScorer numbers written by `gecmetric compare --tsv` and read back."""
    code, out, err = run_cli(*compare_args(files, corpus["names"]), "--metrics", "gotoscorer", "--tsv", "-d", "6")
    assert code == 0, err
    lines = out.splitlines()
    scores = tmp_path / "scores.tsv"
    scores.write_text("\n".join(["system\tGoToScorer"] + [os.path.basename(line.split("\t")[0]) + "\t"
                                                           + line.split("\t")[1] for line in lines[1:]]) + "\n",
                      encoding="utf-8")
    code, out, err = run_cli("meta-eval", "--human", files["human.tsv"], "--scores", str(scores), "--tsv")
    assert code == 0, err
    assert out.splitlines()[1].startswith("GoToScorer\thuman\t")


# ---------------------------------------------------------------------------- ../shared: the original's numbers

ORACLE = Path(__file__).resolve().parent / "data" / "gotoscorer_oracle.txt"
CONLL_SYSTEMS = ["AMU", "CAMB", "CUUI", "INPUT", "NULL"]


def oracle_numbers(run: str) -> dict[str, list[str]]:
    """System -> the numbers the original printed in one run of the oracle file."""
    found, inside = {}, False
    for line in ORACLE.read_text(encoding="utf-8").splitlines():
        if line.startswith("## run "):
            inside = line == f"## run {run}"
        elif inside and re.match(r"^\S+\s*:\t", line):
            name, numbers = line.split(":\t", 1)
            found[name.strip()] = numbers.split("\t")
    return found


def oracle_command(run: str) -> list[str]:
    lines = ORACLE.read_text(encoding="utf-8").splitlines()
    return shlex.split(lines[lines.index(f"## run {run}") + 1][len("## command "):])


@pytest.fixture(scope="module")
def conll(shared_data, spacy_model, warm_parses) -> dict:
    """CoNLL-2014's source, its 5 system outputs with their ERRANT M2 and REF0's M2 (as the
    oracle's files, made with our ERRANT annotator)."""
    from gecmetrics.io.text import read_lines
    from gecmetrics.metrics.errant import Annotator

    annotator = Annotator(spacy_model, cache=warm_parses)
    folder = shared_data / "conll14"
    source = read_lines(str(folder / "INPUT"))
    texts = {name: read_lines(str(folder / name)) for name in CONLL_SYSTEMS}
    blocks = annotator.annotate(source, [texts[n] for n in CONLL_SYSTEMS])
    from dataclasses import replace

    edits = {name: [replace(b, edits=[replace(e, annotator=0) for e in b.edits if e.annotator == k]) for b in blocks]
             for k, name in enumerate(CONLL_SYSTEMS)}
    gold = annotator.annotate(source, [read_lines(str(folder / "REF0"))])
    return {"source": source, "texts": texts, "edits": edits, "gold": gold}


@pytest.mark.parametrize("run, systems, settings", [
    ("conll5", CONLL_SYSTEMS, {}),
    ("conll3-abc", CONLL_SYSTEMS[:3], {"a": 1, "b": 0.5, "c": 1}),
    ("conll3-noweight", CONLL_SYSTEMS[:3], {"no_weight": True}),
])
def test_the_originals_numbers_through_compare(conll, run, systems, settings):
    """Every score the original printed (4 decimals) for the CoNLL-2014 test set, from
    `compare` with chunks of 100 sentences."""
    printed = oracle_numbers(run)
    assert "-v" in oracle_command(run) and set(printed) == set(systems)
    text = ":".join(f"{k}={v}" for k, v in settings.items())
    metric = metrics_from_text("gotoscorer:score=p/r/f/f05/acc" + (":" + text if text else ""))[0]
    corpus = Corpus(conll["source"], [], {n: conll["texts"][n] for n in systems}, conll["gold"],
                    hypothesis_m2={n: conll["edits"][n] for n in systems})
    scored = score_corpus([metric], corpus, chunk_lines=100)
    for name in systems:
        result = scored.result(name, 0)
        ours = [f"{v:8.4f}" for v in (result.tp, result.fp, result.fn, result.tn)] + [f"{v:.4f}" for v in result.scores]
        assert ours == printed[name], name


@pytest.fixture(scope="module")
def seeda(shared_data, spacy_model, warm_parses) -> dict:
    from gecmetrics.io.text import read_lines
    from gecmetrics.metrics.errant import Annotator

    folder = shared_data / "seeda_subset"
    names = sorted(p.name for p in folder.iterdir() if p.name not in ("LINES", "README.md"))
    annotator = Annotator(spacy_model, cache=warm_parses)
    source = read_lines(str(folder / "INPUT"))
    lines = [int(n) - 1 for n in read_lines(str(folder / "LINES"))]
    ref0 = read_lines(str(shared_data / "conll14" / "REF0"))
    gold = annotator.annotate(source, [[ref0[n] for n in lines]])
    texts = {name: read_lines(str(folder / name)) for name in names}
    edits = {name: annotator.annotate(source, [texts[name]]) for name in names}
    return {"folder": folder, "names": names, "source": source, "gold": gold, "texts": texts, "edits": edits}


def test_seeda_numbers_and_meta_evaluation(seeda, shared_data, tmp_path):
    """The SEEDA subset (15 systems weigh the chunks): the original's numbers through the metric,
    then meta-eval against SEEDA's judgments at system and sentence level, over the 12 base
    systems, which alone weigh the chunks there: the original's numbers of those 12 (run seeda12)."""
    from gecmetrics.io.m2 import format_m2

    printed = oracle_numbers("seeda15")
    names = seeda["names"]
    assert set(printed) == set(names)
    corpus = Corpus(seeda["source"], [], dict(seeda["texts"]), seeda["gold"], hypothesis_m2=dict(seeda["edits"]))
    scored = score_corpus([get_metric("gotoscorer", score="p/r/f/f05/acc")], corpus, chunk_lines=50)
    for name in names:
        result = scored.result(name, 0)
        assert [f"{v:.4f}" for v in result.scores] == printed[name][4:], name
    paths = write_files(tmp_path, {"gold.m2": format_m2(seeda["gold"]),
                                   **{f"{n}.m2": format_m2(seeda["edits"][n]) for n in names}})
    judgments = shared_data / "human" / "judgments" / "seeda_sent.xml"
    args = ["meta-eval", "--judgments", str(judgments), "-s", str(seeda["folder"] / "INPUT"), "-r",
            str(seeda["folder"] / "INPUT"), "-o", *(str(seeda["folder"] / n) for n in names), "--hyp-m2",
            *(paths[f"{n}.m2"] for n in names), "--m2", paths["gold.m2"], "--metrics", "gotoscorer", "--json"]
    code, out, err = run_cli(*args)
    assert code == 0, err
    data = json.loads(out)
    correlation = data["correlations"][0]
    assert correlation["metric"] == "GoToScorer F0.5" and correlation["n"] == 12
    base = oracle_numbers("seeda12")  # TP FP FN TN P R F F0.5 Acc of the original on the 12 base systems
    assert {n: f"{v:.4f}" for n, v in data["scores"]["GoToScorer F0.5"].items()} == {n: v[7] for n, v in base.items()}
    assert ("GoToScorer: chunk weights from the 12 systems correlated, not from the outputs left out: GPT-3.5, INPUT, "
            "REF-F") in data["notes"]
    code, out, err = run_cli(*args, "--src-ids", str(seeda["folder"] / "LINES"), "--level", "sentence")
    assert code == 0, err
    agreement = json.loads(out)["sentence"][0]
    assert agreement["pairs"] > 5000 and 0.4 < agreement["accuracy"] < 0.9
    print("SEEDA-S base:", correlation, agreement)
