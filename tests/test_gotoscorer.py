"""GoToScorer: chunks, judging, weights and scores on hand-made M2, against a plain step-by-step
reading of the original's rules (github gotutiyan/GTS), and bad weight files."""
from __future__ import annotations

import json
import math
import statistics
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gecmetrics import get_metric
from gecmetrics.errors import InputError
from gecmetrics.io.m2 import parse_m2
from gecmetrics.metrics.gotoscorer import (WeightTable, format_difficulty, judge, level_weights, parse_weight_file,
                                           read_gold, read_system, read_systems, read_weight_file, score_systems,
                                           scores_from_sums, system_annotators)
from gecmetrics.metrics.gotoscorer.chunking import EditArrays, Vocabulary, build_chunks

from .conftest import run_cli, write_files

# --------------------------------------------------------------------------- plain readings of the rules


def plain_chunks(tokens: list[str], edits: list[tuple[int, int, str]]) -> list[tuple[int, int, str, bool]]:
    """(start, end, text, is edit), step by step as GTS's chunker.py describes it."""
    basic: list[tuple[int, int, str, bool]] = []
    previous = 0
    for start, end, text in edits:
        basic += [(i, i + 1, tokens[i], False) for i in range(previous, start)]
        basic.append((start, end, text, True))
        previous = end
    basic += [(i, i + 1, tokens[i], False) for i in range(previous, len(tokens))]
    chunks: list[tuple[int, int, str, bool]] = []
    for k, chunk in enumerate(basic):
        if chunk[0] != chunk[1] and not (k > 0 and basic[k - 1][0] == basic[k - 1][1]):
            chunks.append((chunk[0], chunk[0], "", False))
        chunks.append(chunk)
    if basic[-1][0] != basic[-1][1]:
        chunks.append((len(tokens), len(tokens), "", False))
    return chunks


def plain_judge(gold: tuple[int, int, str, bool], system: list[tuple[int, int, str, bool]]) -> tuple[bool, bool]:
    """(correct, tried): walk the system's chunks in order as GTS's alignmenter.py does."""
    result = None
    g_start, g_end, g_text, g_edit = gold
    for start, end, text, edit in system:
        if (start, end) == (g_start, g_end):
            if text == g_text:
                return True, edit
            judged = "not-equal"
        elif g_start == g_end:
            judged = "pass"
        elif g_start <= start < g_end or start <= g_start < end:
            judged = "not-equal"
        else:
            judged = "pass"
        if judged == "not-equal":
            result = (False, edit) if result is None else (False, result[1] or edit)
    return result if result is not None else (not g_edit, False)


def plain_scores(gold_chunks, systems_chunks, no_weight=False):
    """Weighted TP/FP/FN/TN/total per system, float sums in the original's order."""
    n = len(systems_chunks)
    judged = [[[plain_judge(g, sys_chunks[d]) for g in gold_chunks[d]] for d in range(len(gold_chunks))]
              for sys_chunks in systems_chunks]
    totals = []
    for s in range(n):
        tp = fp = fn = tn = total = 0.0
        for d, sentence in enumerate(gold_chunks):
            for i, g in enumerate(sentence):
                right = sum(judged[t][d][i][0] for t in range(n))
                w = 1.0 if no_weight else 1 - right / n
                correct, tried = judged[s][d][i]
                total += w
                if tried:
                    if correct:
                        tp += w
                    else:
                        fp += w
                        if g[3]:
                            fn += w
                elif correct:
                    tn += w
                else:
                    fn += w
        totals.append((tp, fp, fn, tn, total))
    return totals


def m2_text(sentences: list[tuple[str, list[tuple[int, int, str, str, int]]]]) -> str:
    """An M2 text from (source, [(start, end, type, correction, annotator)])."""
    parts = []
    for source, edits in sentences:
        parts.append(f"S {source}\n")
        parts += [f"A {s} {e}|||{t}|||{c}|||REQUIRED|||-NONE-|||{a}\n" for s, e, t, c, a in edits]
        parts.append("\n")
    return "".join(parts)


# --------------------------------------------------------------------------- a hand-made example

SOURCES = ["We discussing about its .", "I have been to park tomorrow .", "Fine ."]
REFERENCE = m2_text([
    (SOURCES[0], [(1, 1, "M:VERB", "have been", 0), (2, 3, "U:PREP", "", 0), (3, 4, "R:PRON", "it", 0)]),
    (SOURCES[1], [(1, 3, "R:VERB", "go", 0), (4, 4, "M:DET", "the", 0), (5, 6, "U:NOUN", "", 0)]),
    (SOURCES[2], [(-1, -1, "noop", "-NONE-", 0)]),
])
SYSTEMS = m2_text([
    (SOURCES[0], [(1, 1, "M:VERB", "have been", 0), (3, 4, "R:PRON", "it", 0),
                  (0, 0, "M:PUNCT", '"', 1), (1, 1, "M:VERB:TENSE", "are", 1), (2, 3, "U:PREP", "", 1),
                  (3, 4, "R:PRON", "it", 1), (5, 5, "M:PUNCT", '"', 1),
                  (1, 3, "R:OTHER", "talking", 2), (3, 4, "R:PRON", "it", 2)]),
    (SOURCES[1], [(1, 3, "R:VERB", "go", 0), (4, 4, "M:DET", "the", 0),
                  (2, 3, "R:VERB", "went", 1), (4, 4, "M:DET", "the", 1),
                  (2, 2, "M:VERB:FORM", "to", 2), (4, 4, "M:DET", "the", 2), (5, 6, "R:NOUN", "past", 2)]),
    (SOURCES[2], [(-1, -1, "noop", "-NONE-", 0), (-1, -1, "noop", "-NONE-", 1), (1, 2, "UNK", ".", 2)]),
])


def example():
    gold = read_gold(parse_m2(REFERENCE, "ref.m2"), 0, "ref.m2")
    systems = read_systems(parse_m2(SYSTEMS, "hyp.m2"), gold, "hyp.m2")
    return gold, systems


def test_gold_chunks_by_hand():
    gold, _ = example()
    text = {v: k for k, v in gold.vocabulary.items()}
    chunks = [(s, e, text[t], m) for s, e, t, m in gold.chunks.of_row(0)]
    assert chunks == [(0, 0, "", False), (0, 1, "We", False), (1, 1, "have been", True),
                      (1, 2, "discussing", False), (2, 2, "", False), (2, 3, "", True), (3, 3, "", False),
                      (3, 4, "it", True), (4, 4, "", False), (4, 5, ".", False), (5, 5, "", False)]
    # the third sentence has only a noop line: tokens and slots
    assert [(s, e, m) for s, e, _, m in gold.chunks.of_row(2)] == [(0, 0, False), (0, 1, False), (1, 1, False),
                                                                  (1, 2, False), (2, 2, False)]
    assert gold.types == ("M:VERB", "U:PREP", "R:PRON", "R:VERB", "M:DET", "U:NOUN")


def test_scores_weights_and_difficulty_by_hand():
    gold, systems = example()
    run = score_systems(gold, systems)
    # sentence 1: chunks (0,0) | We | have been* | discussing | (2,2) | U:PREP* | (3,3) | it* | (4,4) | . | (5,5)
    # system 0 gets everything but U:PREP right (it leaves "about": FN);
    # system 1 inserts '"' at 0 and 5 (FP on the two slots), "are" at 1 (FP+FN on have been), rest right;
    # system 2 replaces 1-3 by "talking": not equal to "discussing" (FP) nor to U:PREP (FP+FN) nor to
    #   the slot (2, 2), which it skips ("pass": right), and "have been" is missed (FN).
    first = [int(v) for v in run.weights.format().splitlines()[1].split()]
    assert first == [2, 3, 1, 2, 3, 1, 3, 3, 3, 3, 2]
    assert run.weights.n_systems == 3
    expected = plain_scores(*plain_example())
    for got, want in zip(run.scores, expected):
        assert (got.tp, got.fp, got.fn, got.tn, got.total) == pytest.approx(want, abs=1e-12)
    # difficulty: U:NOUN (nobody deletes "tomorrow") is the hardest, R:PRON and M:DET the easiest
    rows = run.difficulty(3)
    assert [(r.category, round(r.mean, 4), r.count) for r in rows] == [
        ("U:NOUN", 1.0, 1), ("M:VERB", 0.6667, 1), ("U:PREP", 0.6667, 1), ("R:VERB", 0.6667, 1),
        ("R:PRON", 0.0, 1), ("M:DET", 0.0, 1)]
    assert [r.category for r in run.difficulty(1)] == ["U", "M", "R"]
    assert format_difficulty(rows).splitlines()[2] == "U:NOUN    \t1.00\t0.00\t1"


def plain_example():
    tokens = [s.split(" ") for s in SOURCES]
    gold_edits = [[(1, 1, "have been"), (2, 3, ""), (3, 4, "it")], [(1, 3, "go"), (4, 4, "the"), (5, 6, "")], []]
    system_edits = [
        [[(1, 1, "have been"), (3, 4, "it")], [(1, 3, "go"), (4, 4, "the")], []],
        [[(0, 0, '"'), (1, 1, "are"), (2, 3, ""), (3, 4, "it"), (5, 5, '"')], [(2, 3, "went"), (4, 4, "the")], []],
        [[(1, 3, "talking"), (3, 4, "it")], [(2, 2, "to"), (4, 4, "the"), (5, 6, "past")], []],  # UNK skipped
    ]
    gold = [plain_chunks(t, e) for t, e in zip(tokens, gold_edits)]
    systems = [[plain_chunks(t, e) for t, e in zip(tokens, edits)] for edits in system_edits]
    return gold, systems


def test_no_weight_and_parameters():
    gold, systems = example()
    run = score_systems(gold, systems, no_weight=True)
    for got, want in zip(run.scores, plain_scores(*plain_example(), no_weight=True)):
        assert (got.tp, got.fp, got.fn, got.tn, got.total) == pytest.approx(want)
    assert list(level_weights(4, 1, 0.5, 1)) == pytest.approx([1 - (n + 0.5) / 5 for n in range(5)])


def test_scores_follow_from_summed_rows():
    gold, systems = example()
    run = score_systems(gold, systems)
    for stats, score in zip(run.statistics, run.scores):
        assert stats.shape == (3, 5, 4) and stats.dtype == np.int64
        again = scores_from_sums(stats.sum(axis=0), run.level_weights)
        assert again == score
        # ALL counts every gold chunk once, whatever the system
        assert stats[:, 4, :].sum() == len(gold.chunks)


def test_each_distinct_sentence_version_is_judged_once():
    gold, systems = example()
    twice = [systems[0], systems[1], replace(systems[0], name="again"), systems[2]]
    judgments = judge(gold, twice)
    distinct = {(k, edits) for system in twice for k, edits in enumerate(system.edits)}
    assert len(judgments.row_sentence) == len(distinct) < 4 * len(gold)
    assert (judgments.row_of[0] == judgments.row_of[2]).all()
    run = score_systems(gold, twice)
    assert run.scores[0] == run.scores[2]


def test_reference_annotator_by_id():
    two = m2_text([(SOURCES[0], [(1, 1, "M:VERB", "have been", 0), (3, 4, "R:PRON", "it", 1)]),
                   (SOURCES[1], [(1, 3, "R:VERB", "go", 1)])])
    alone = m2_text([(SOURCES[0], [(3, 4, "R:PRON", "it", 0)]), (SOURCES[1], [(1, 3, "R:VERB", "go", 0)])])
    by_id = read_gold(parse_m2(two, "two"), 1, "two")
    single = read_gold(parse_m2(alone, "alone"), 0, "alone")
    for field in ("start", "end", "modified", "offsets"):
        assert getattr(by_id.chunks, field).tolist() == getattr(single.chunks, field).tolist()
    assert by_id.types == single.types == ("R:PRON", "R:VERB")


def test_zero_divisions_give_zero():
    score = scores_from_sums(np.zeros((5, 2), dtype=np.int64), np.array([1.0, 0.0]))
    assert (score.precision, score.recall, score.f, score.f05, score.accuracy) == (0, 0, 0, 0, 0)


# --------------------------------------------------------------------------- properties against the plain rules

TOKENS = ["a", "b", "c", "a", "."]


@st.composite
def sentence_edits(draw, n_tokens: int, ordered: bool):
    edits = []
    count = draw(st.integers(0, 4))
    position = 0
    for _ in range(count):
        if ordered:
            if position > n_tokens:
                break
            start = draw(st.integers(position, n_tokens))
            end = draw(st.integers(start, min(n_tokens, start + 2)))
            position = end + draw(st.integers(0, 1)) if end > start else end
        else:
            start = draw(st.integers(0, n_tokens))
            end = draw(st.integers(start, n_tokens))
        text = draw(st.sampled_from(["", "a", "b", "x y", "."]))
        edits.append((start, end, text))
    return edits


@st.composite
def corpora(draw, ordered: bool):
    n_sentences = draw(st.integers(1, 4))
    lengths = [draw(st.integers(1, 5)) for _ in range(n_sentences)]
    tokens = [[draw(st.sampled_from(TOKENS)) for _ in range(n)] for n in lengths]
    gold = [draw(sentence_edits(n, ordered)) for n in lengths]
    n_systems = draw(st.integers(1, 4))
    systems = [[draw(st.one_of(st.just(gold[d]), sentence_edits(n, ordered))) for d, n in enumerate(lengths)]
               for _ in range(n_systems)]
    return tokens, gold, systems


def to_m2(tokens, per_sentence_edits_by_annotator):
    sentences = []
    for d, toks in enumerate(tokens):
        lines = []
        for annotator, edits in enumerate(per_sentence_edits_by_annotator):
            if not edits[d]:
                lines.append((-1, -1, "noop", "-NONE-", annotator))
            lines += [(s, e, "R:OTHER", c, annotator) for s, e, c in edits[d]]
        sentences.append((" ".join(toks), lines))
    return m2_text(sentences)


@settings(max_examples=150, deadline=None)
@given(corpora(ordered=True))
def test_chunks_equal_the_plain_rules(corpus):
    tokens, gold_edits, _ = corpus
    vocabulary = Vocabulary()
    flat = [vocabulary.ids(t) for t in tokens]
    offsets = np.cumsum([0] + [len(t) for t in tokens])
    edits = EditArrays.from_lists([[(s, e, vocabulary.id(c)) for s, e, c in sentence] for sentence in gold_edits])
    chunks = build_chunks(np.array([len(t) for t in tokens]), offsets, np.array(sum(flat, []), dtype=np.int64), edits)
    text = {v: k for k, v in vocabulary.items()}
    for d, t in enumerate(tokens):
        got = [(s, e, text[i], m) for s, e, i, m in chunks.of_row(d)]
        assert got == plain_chunks(t, gold_edits[d])


@settings(max_examples=150, deadline=None)
@given(st.booleans().flatmap(corpora))
def test_chunks_and_scores_equal_the_plain_rules_on_any_edits(corpus):
    """Also with overlapping, repeated and backward edits (which ERRANT never writes)."""
    tokens, gold_edits, system_edits = corpus
    gold = read_gold(parse_m2(to_m2(tokens, [gold_edits]), "ref"), 0, "ref")
    text = {v: k for k, v in gold.vocabulary.items()}
    for d, t in enumerate(tokens):
        assert [(s, e, text[i], m) for s, e, i, m in gold.chunks.of_row(d)] == plain_chunks(t, gold_edits[d])
    systems = read_systems(parse_m2(to_m2(tokens, system_edits), "hyp"), gold, "hyp")
    run = score_systems(gold, systems)
    plain_gold = [plain_chunks(t, e) for t, e in zip(tokens, gold_edits)]
    plain_systems = [[plain_chunks(t, e) for t, e in zip(tokens, edits)] for edits in system_edits]
    for got, want in zip(run.scores, plain_scores(plain_gold, plain_systems)):
        assert (got.tp, got.fp, got.fn, got.tn, got.total) == pytest.approx(want, abs=1e-9)
    # the weight file: per gold chunk, how many systems got it right
    expected = [sum(plain_judge(g, sys_chunks[d])[0] for sys_chunks in plain_systems)
                for d in range(len(tokens)) for g in plain_gold[d]]
    assert run.weights.correct.tolist() == expected


@settings(max_examples=60, deadline=None)
@given(corpora(ordered=True))
def test_systems_scored_alone_with_the_weights_of_all(corpus):
    """-w_file: one system scored with the weights of all equals its row in the joint run."""
    tokens, gold_edits, system_edits = corpus
    gold = read_gold(parse_m2(to_m2(tokens, [gold_edits]), "ref"), 0, "ref")
    blocks = parse_m2(to_m2(tokens, system_edits), "hyp")
    joint = score_systems(gold, read_systems(blocks, gold, "hyp"))
    table = parse_weight_file(joint.weights.format(), "w.txt")
    for k in range(len(system_edits)):
        alone = score_systems(gold, [read_system(blocks, gold, k)], table)
        assert alone.scores[0] == pytest.approx(joint.scores[k])


def test_exact_means_keep_ties_in_first_seen_order():
    gold, systems = example()
    run = score_systems(gold, systems)
    per_type: dict[str, list[float]] = {}
    weights = run.level_weights[run.weights.correct]
    for chunk in np.flatnonzero(gold.chunks.modified):
        per_type.setdefault(gold.types[gold.chunks.edit[chunk]], []).append(float(weights[chunk]))
    expected = sorted(((name, statistics.mean(values)) for name, values in per_type.items()), key=lambda r: r[1],
                      reverse=True)
    assert [(r.category, r.mean) for r in run.difficulty(3)] == expected


# --------------------------------------------------------------------------- inputs


def test_systems_are_annotators_up_to_the_first_missing():
    blocks = parse_m2(m2_text([("a b", [(0, 1, "R:X", "c", 0), (0, 1, "R:X", "d", 1), (-1, -1, "noop", "-NONE-", 2)])]),
                      "hyp")
    assert system_annotators(blocks) == [0, 1, 2]


def test_a_line_of_an_annotator_past_the_systems_is_refused_not_left_out():
    """Ids 0, 1, 3: the original reads systems 0 and 1 and leaves annotator 3's lines out, which
    changed every number without a word (a mistyped id); the line is named, the file refused."""
    gold, _ = example()
    text = SYSTEMS.replace("|||2\n", "|||3\n")
    message = (r"hyp.m2:9: annotator 3 beyond the file's 2 systems \(annotators 0 and 1\): GoToScorer reads the "
               r"systems as annotators 0, 1, ... up to the first id without a line, and the original would leave "
               r"this line out")
    with pytest.raises(InputError, match=message):
        read_systems(parse_m2(text, "hyp.m2"), gold, "hyp.m2")
    with pytest.raises(InputError, match=message):
        system_annotators(parse_m2(text, "hyp.m2"), "hyp.m2")
    with pytest.raises(InputError, match=r"hyp.m2:4: annotator 1 beyond the file's 1 system \(annotator 0\)"):
        read_systems(parse_m2(SYSTEMS, "hyp.m2"), gold, "hyp.m2", n_systems=1)  # (the whole file's count, in a chunk)


def test_reference_without_the_annotator_is_an_error():
    blocks = parse_m2(REFERENCE, "ref.m2")
    with pytest.raises(InputError, match="ref.m2: has no edit line of annotator 2"):
        read_gold(blocks, 2, "ref.m2")


def test_system_on_other_sentences_is_an_error():
    gold, _ = example()
    other = parse_m2(m2_text([(SOURCES[0], []), ("Other .", []), (SOURCES[2], [])]), "hyp.m2")
    with pytest.raises(InputError, match=r"hyp.m2:3: sentence 2 differs"):
        read_system(other, gold, 0, "hyp.m2")
    with pytest.raises(InputError, match="has 1 sentence but the reference ref.m2 has 3"):
        read_system(other[:1], gold, 0, "hyp.m2")


def test_systems_read_in_one_pass_from_a_stream():
    from gecmetrics.io.text import split_lines
    from gecmetrics.io.m2 import iter_m2_blocks

    gold, systems = example()
    streamed = read_systems(iter_m2_blocks(split_lines(SYSTEMS), "hyp.m2"), gold, "hyp.m2", ["a", "b", "c"])
    assert [s.edits for s in streamed] == [s.edits for s in systems] and streamed[2].name == "c"
    longer = SYSTEMS + "S extra .\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n"
    with pytest.raises(InputError, match="hyp.m2:26: has more sentences than the reference ref.m2"):
        read_systems(iter_m2_blocks(split_lines(longer), "hyp.m2"), gold, "hyp.m2")
    with pytest.raises(InputError, match="has 3 systems but 2 names"):
        read_systems(parse_m2(SYSTEMS, "hyp.m2"), gold, "hyp.m2", ["a", "b"])


@pytest.mark.parametrize("text, message", [
    ("", "the weight file is empty"),
    ("x\n1 1\n", r"w.txt:1: first line must be the number of systems"),
    ("0\n1 1\n", r"w.txt:1: first line must be the number of systems"),
    ("3\n", "has no sentence line"),
    ("3\n1 2 x\n", r"w.txt:2: not an integer count: 'x'"),
    ("3\n1 2\n\n1\n", r"w.txt:3: empty line"),
    ("3\n1 4\n", r"w.txt:2: count 4 is outside 0..3"),
    ("3\n1 -1\n", r"w.txt:2: count -1 is outside 0..3"),
])
def test_bad_weight_files(tmp_path, text, message):
    path = tmp_path / "w.txt"
    path.write_text(text)
    with pytest.raises(InputError, match=message):
        read_weight_file(str(path))


def test_a_weight_file_with_a_byte_order_mark_reads_as_without(tmp_path):
    """A UTF-8 byte-order mark is dropped, as from every text input (SPEC 1): the first line
    '\ufeff3' was refused as no number of systems."""
    path = tmp_path / "w.txt"
    path.write_bytes("\ufeff3\r\n1 2\r\n".encode("utf-8"))
    table = read_weight_file(str(path))
    path.write_bytes(b"3\n1 2\n")
    plain = read_weight_file(str(path))
    assert table.n_systems == plain.n_systems == 3 and table.correct.tolist() == plain.correct.tolist() == [1, 2]


def test_weight_file_that_does_not_fit_the_reference(tmp_path):
    gold, systems = example()
    good = score_systems(gold, systems).weights.format().splitlines()
    for lines, message in [(good[:-1], "has 2 sentence lines but the reference ref.m2 has 3 sentences"),
                           (good[:2] + [good[2] + " 3"] + good[3:], r"w.txt:3: has 14 counts for sentence 2")]:
        path = tmp_path / "w.txt"
        path.write_text("\n".join(lines) + "\n")
        with pytest.raises(InputError, match=message):
            score_systems(gold, systems, read_weight_file(str(path)))
    with pytest.raises(InputError, match="cannot read the weight file"):
        read_weight_file(str(tmp_path / "missing.txt"))


def test_weight_file_round_trip(tmp_path):
    gold, systems = example()
    run = score_systems(gold, systems)
    path = tmp_path / "w.txt"
    run.weights.write(str(path))
    table = read_weight_file(str(path))
    assert table.n_systems == 3 and table.correct.tolist() == run.weights.correct.tolist()
    again = score_systems(gold, systems, table)
    assert again.scores == run.scores


def test_weight_table_made_in_code_is_checked_too():
    gold, systems = example()
    table = score_systems(gold, systems).weights
    bad = WeightTable(2, table.correct, table.offsets, "made in code")
    with pytest.raises(InputError, match="made in code: has counts outside 0..2"):
        score_systems(gold, systems, bad)


def test_keys_too_wide_to_pack_still_join_exactly():
    from gecmetrics.metrics.gotoscorer.judging import _pair_keys

    big = np.array([2**40, 5, 2**40], dtype=np.int64)
    left, right = _pair_keys([big, np.array([1, 2, 3]), big], [np.array([5, 2**40]), np.array([2, 3]),
                                                              np.array([5, 2**40])])
    assert left.tolist()[1] == right.tolist()[0] and left.tolist()[2] == right.tolist()[1]
    assert len(set(left.tolist())) == 3


def test_arguments_are_checked():
    gold, systems = example()
    with pytest.raises(InputError, match="expected the gold chunks of read_gold"):
        score_systems("ref.m2", systems)
    with pytest.raises(InputError, match="no system to score"):
        score_systems(gold, [])
    with pytest.raises(InputError, match="weights must be a WeightTable"):
        score_systems(gold, systems, "w.txt")
    with pytest.raises(InputError, match="ref_id must be a non-negative integer"):
        read_gold(parse_m2(REFERENCE, "ref.m2"), -1)
    with pytest.raises(InputError, match="expected a list of M2 blocks"):
        read_gold(REFERENCE)


def test_bad_weight_parameters():
    with pytest.raises(InputError, match="N \\+ c is 0"):
        level_weights(3, 1, 0, -3)
    with pytest.raises(InputError, match="must be a finite number"):
        level_weights(3, math.nan)
    # finite parameters whose weights overflow the weighted counts (printed nan with exit 0)
    for a, b, c in ((1e308, 0, 0), (1, 1e308, 0), (1, -1e308, 0), (1, 1e300, -2.9999999999)):
        with pytest.raises(InputError, match="MAX_LEVEL_WEIGHT"):
            level_weights(3, a, b, c)
    assert level_weights(3, 1e100).tolist()[0] == 1e100


def test_weights_too_large_for_the_counts_are_one_line(tmp_path):
    paths = write_files(tmp_path, {"ref.m2": REFERENCE, "hyp.m2": SYSTEMS})
    for flag in ("-a", "-b"):
        code, out, err = run_cli("gotoscorer", "-ref", paths["ref.m2"], "-hyp", paths["hyp.m2"], flag, "1e308")
        assert code == 2 and out == "" and len(err.splitlines()) == 1 and "MAX_LEVEL_WEIGHT" in err, (flag, out, err)


# --------------------------------------------------------------------------- the command


def test_a_hypothesis_file_given_twice_is_refused(tmp_path):
    """The weights count the systems: the same file twice was read as one system, silently."""
    paths = write_files(tmp_path, {"ref.m2": REFERENCE, "hyp.m2": SYSTEMS})
    code, out, err = run_cli("gotoscorer", "-ref", paths["ref.m2"], "-hyp", paths["hyp.m2"], paths["hyp.m2"])
    assert code == 2 and out == "" and err == f"gecmetric: error: {paths['hyp.m2']}: given twice in -hyp: the " \
        "weights count the systems, so each file is given once\n"


def test_a_system_file_with_an_annotator_past_its_systems_is_refused(tmp_path):
    """One line naming the file and the edit line, read whole, chunk by chunk or from standard
    input (whose systems each chunk finds): not a run without that line's edit."""
    paths = write_files(tmp_path, {"ref.m2": REFERENCE, "hyp.m2": SYSTEMS.replace("|||2\n", "|||5\n"),
                                   "other.m2": SYSTEMS})
    for extra in ((), ("--chunk-lines", "1", "-p", "2")):
        code, out, err = run_cli("gotoscorer", "-ref", paths["ref.m2"], "-hyp", paths["other.m2"], paths["hyp.m2"],
                                 *extra)
        assert (code, out) == (2, "") and err == f"gecmetric: error: {paths['hyp.m2']}:9: annotator 5 beyond the " \
            "file's 2 systems (annotators 0 and 1): GoToScorer reads the systems as annotators 0, 1, ... up to " \
            "the first id without a line, and the original would leave this line out\n"
    code, out, err = run_cli("gotoscorer", "-ref", paths["ref.m2"], "-hyp", "-", input=open(paths["hyp.m2"]).read())
    assert (code, out) == (2, "") and err.startswith("gecmetric: error: <stdin>:9: annotator 5 beyond") \
        and err.count("\n") == 1


def test_weight_flags_that_change_nothing_with_no_weight_are_refused(tmp_path):
    """-no_weight weighs every chunk 1: -a, -b, -c and a weight file's levels were taken and left
    unread. They still weigh the -cat table (as the original's), and -gen_w_file still writes."""
    paths = write_files(tmp_path, {"ref.m2": REFERENCE, "hyp.m2": SYSTEMS})
    weights = str(tmp_path / "w.txt")
    base = ["gotoscorer", "-ref", paths["ref.m2"], "-hyp", paths["hyp.m2"], "-no_weight"]
    assert run_cli(*base, "-gen_w_file", weights)[0] == 0 and open(weights).read().startswith("3\n")
    why = "not apply to -no_weight (every chunk weighs 1: the weights a - (n + b) / (N + c) and a weight file's " \
          "levels change only the -cat table)\n"
    for flags, named in ((["-a", "2"], "-a does "), (["-a", "1"], "-a does "), (["-b", "0.5", "-c", "1"], "-b, -c do "),
                         (["-w_file", weights], "-w_file does ")):
        code, out, err = run_cli(*base, *flags)
        assert (code, out, err) == (2, "", "gecmetric: error: " + named + why), flags
    tables = {a: run_cli(*base, "-a", a, "-cat", "3") for a in ("1", "2")}
    assert all(code == 0 for code, _, _ in tables.values()) and tables["1"][1] != tables["2"][1]
    assert run_cli(*base, "-w_file", weights, "-cat", "3")[1] == tables["1"][1]


def test_a_wrong_name_count_is_refused_before_the_one_system_warning(tmp_path):
    """-name x,y for a file of one system printed the warning of scoring one system (weights 0),
    then the error: the files tell the system count before anything is scored."""
    one = "\n\n".join("\n".join(line for line in block.splitlines() if not line.startswith("A ")
                                  or line.endswith("|||0")) for block in SYSTEMS.strip().split("\n\n")) + "\n"
    paths = write_files(tmp_path, {"ref.m2": REFERENCE, "hyp.m2": one})
    assert run_cli("gotoscorer", "-ref", paths["ref.m2"], "-hyp", paths["hyp.m2"], "-name", "x")[0] == 0
    code, out, err = run_cli("gotoscorer", "-ref", paths["ref.m2"], "-hyp", paths["hyp.m2"], "-name", "x,y")
    assert (code, out, err) == (2, "", "gecmetric: error: -name gives 2 names for 1 system\n")


def test_command(tmp_path):
    paths = write_files(tmp_path, {"ref.m2": REFERENCE, "hyp.m2": SYSTEMS})
    weights = str(tmp_path / "w.txt")
    code, out, err = run_cli("gotoscorer", "-ref", paths["ref.m2"], "-hyp", paths["hyp.m2"], "-name", "x,y,z", "-v",
                             "-cat", "3", "-gen_w_file", weights)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "system\tTP\tFP\tFN\tTN\tP (x100)\tR (x100)\tF (x100)\tF0.5 (x100)\tAcc (x100)"
    assert lines[1].split("\t")[0] == "x" and lines[4] == "----- Category Difficulty -----"
    assert open(weights).read().splitlines()[0] == "3"
    # in a format asked for, the difficulty is a second table in it (--tsv appended the text table,
    # --json left it out: both refused, as one table a stream)
    difficulty = lines[6:]
    code, out, err = run_cli("gotoscorer", "-ref", paths["ref.m2"], "-hyp", paths["hyp.m2"], "-cat", "3", "--markdown")
    assert code == 0, err
    tables = out.split("\n\n| category | mean | std | freq |\n|:---|---:|---:|---:|\n")
    assert len(tables) == 2 and "* `GoToScorer|" in tables[0]
    assert [row.strip("| ").split(" | ") for row in tables[1].splitlines()] == [
        [field.strip() for field in line.split("\t")] for line in difficulty]
    for fmt in ("--json", "--tsv"):
        code, out, err = run_cli("gotoscorer", "-ref", paths["ref.m2"], "-hyp", paths["hyp.m2"], "-cat", "3", fmt)
        assert code == 2 and out == "" and "-cat: adds the difficulty table: not with --json or --tsv" in err
    code, out, err = run_cli("gotoscorer", "-ref", paths["ref.m2"], "-hyp", paths["hyp.m2"], "-w_file", weights)
    assert code == 0, err
    # its JSON carries the settings, as every command's does (it had none)
    code, out, err = run_cli("gotoscorer", "-ref", paths["ref.m2"], "-hyp", paths["hyp.m2"], "-a", "2", "--json")
    assert code == 0 and all(row["settings"] == get_metric("gotoscorer", a=2).settings_dict()
                             for row in json.loads(out)), (out, err)
    code, out, err = run_cli("gotoscorer", "-ref", paths["ref.m2"], "-hyp", paths["hyp.m2"], "-name", "x,y,z", "-sort")
    f05 = [float(line.split("\t")[4]) for line in out.splitlines()[1:]]
    assert code == 0 and f05 == sorted(f05, reverse=True) and out.splitlines()[1].startswith("x\t")
    code, out, err = run_cli("gotoscorer", "-ref", paths["ref.m2"], "-hyp", paths["hyp.m2"], "-name", "x,y")
    assert code == 2 and "-name gives 2 names for 3 systems" in err
    (tmp_path / "bad.txt").write_text("3\n1 2 3\n")
    code, out, err = run_cli("gotoscorer", "-ref", paths["ref.m2"], "-hyp", paths["hyp.m2"], "-w_file",
                             str(tmp_path / "bad.txt"))
    assert code == 2 and "bad.txt: has 1 sentence line but the reference" in err


# the original adds the weights up chunk after chunk (GTS update_scores); with weights that
# cancel (here -a 0.5: 0.5 - n/5) TP + FP is a tiny non-zero double whose value depends on that
# order, and so does precision. Found by differential fuzzing against GTS 5d120c3.
NEGATIVE_REFERENCE = """S problems .
A 2 2|||U:PREP|||problems|||REQUIRED|||-NONE-|||0
A 2 2|||Vt|||.|||REQUIRED|||-NONE-|||0

S risk carrier should not be
A 1 4|||M:VERB:TENSE||||||REQUIRED|||-NONE-|||0

S identity can not be verified on the social media sites .
A 11 11|||M:PUNCT|||a|||REQUIRED|||-NONE-|||0
A 11 11|||M:OTHER|||is|||REQUIRED|||-NONE-|||0
"""
NEGATIVE_SYSTEMS = """S problems .
A 2 2|||Vt|||.|||REQUIRED|||-NONE-|||0
A 0 1|||M:PUNCT|||in|||REQUIRED|||-NONE-|||1
A 2 2|||U:PREP|||problems|||REQUIRED|||-NONE-|||2
A 0 1|||Vt||||||REQUIRED|||-NONE-|||3
A 2 2|||R:VERB:SVA|||problems|||REQUIRED|||-NONE-|||3

S risk carrier should not be
A 2 4|||Vt|||should|||REQUIRED|||-NONE-|||3

S identity can not be verified on the social media sites .
A 9 11|||R:SPELL|||in|||REQUIRED|||-NONE-|||0
A 11 11|||M:PUNCT|||a|||REQUIRED|||-NONE-|||2
A 11 11|||M:OTHER|||is|||REQUIRED|||-NONE-|||2
A 1 4|||R:PREP|||can not be|||REQUIRED|||-NONE-|||3
A 9 10|||R:VERB:SVA|||and|||REQUIRED|||-NONE-|||3
A 11 11|||M:PUNCT|||to|||REQUIRED|||-NONE-|||3
A 11 11|||M:PUNCT|||a|||REQUIRED|||-NONE-|||4
A 11 11|||M:OTHER|||is|||REQUIRED|||-NONE-|||4
"""


def test_weights_are_added_up_in_the_originals_order(tmp_path):
    paths = write_files(tmp_path, {"ref.m2": NEGATIVE_REFERENCE + "\n",
                                   "hyp.m2": NEGATIVE_SYSTEMS + "\n"})
    # python gotoscorer.py -ref ref.m2 -hyp hyp.m2 -v -a 0.5 (GTS 5d120c3) prints, for systems 0 and 3:
    # 0       :	  0.3000	 -0.3000	  0.8000	-14.0000	-5404319552844595.0000	0.2727	0.5455	1.3636	1.0301
    # 3       :	  0.1000	 -0.1000	  1.0000	-13.3000	-450359962737049.5000	0.0909	0.1818	0.4545	0.9925
    expected = {0: "0.3000 -0.3000 0.8000 -14.0000 -5404319552844595.0000 0.2727 0.5455 1.3636 1.0301",
                3: "0.1000 -0.1000 1.0000 -13.3000 -450359962737049.5000 0.0909 0.1818 0.4545 0.9925"}
    for chunk_lines in ("2000", "1"):
        code, out, err = run_cli("gotoscorer", "-ref", paths["ref.m2"], "-hyp", paths["hyp.m2"], "-v", "-a", "0.5",
                                 "--scale", "1", "--chunk-lines", chunk_lines)
        assert code == 0, err
        rows = out.splitlines()[1:]
        assert {k: " ".join(rows[k].split("\t")[1:]) for k in expected} == expected
    gold = read_gold(parse_m2(NEGATIVE_REFERENCE, "ref"))
    run = score_systems(gold, read_systems(parse_m2(NEGATIVE_SYSTEMS, "hyp"), gold), a=0.5)
    assert run.scores[3].precision == -450359962737049.5
    # count x weight per level (the metric's sums) cancels differently
    assert scores_from_sums(run.statistics[3].sum(axis=0), run.level_weights).precision != run.scores[3].precision


TIE_REFERENCE = m2_text([("a b c d e", [(1, 2, "R:NOUN", "y", 0), (3, 4, "R:NOUN", "y", 0), (4, 5, "R:NOUN", "x", 0)]),
                         ("a b c d e", [(0, 1, "R:NOUN", "x", 0), (2, 3, "R:NOUN", "y", 0)]),
                         ("a b c d e", [(-1, -1, "noop", "-NONE-", 0)])])
TIE_SYSTEMS = m2_text([
    ("a b c d e", [(2, 3, "R:NOUN", "x", 0), (3, 4, "R:NOUN", "y", 1), (4, 5, "R:NOUN", "y", 1), (1, 2, "R:NOUN", "y", 2),
                   (3, 4, "R:NOUN", "y", 2), (4, 5, "R:NOUN", "x", 2)]),
    ("a b c d e", [(0, 1, "R:NOUN", "x", 0), (-1, -1, "noop", "-NONE-", 1), (0, 1, "R:NOUN", "x", 2),
                   (2, 3, "R:NOUN", "y", 2)]),
    ("a b c d e", [(-1, -1, "noop", "-NONE-", 0), (2, 3, "R:NOUN", "x", 1), (3, 4, "R:NOUN", "x", 1),
                   (2, 3, "R:NOUN", "x", 2)])])


def test_a_score_half_way_between_two_decimals_is_printed_as_the_original_prints_it(tmp_path):
    """Default weights (thirds): system 1's F0.5 is 5/32 = 0.15625 exactly, and the original's
    running sums give 0.15624999999999997, printed 0.1562; count x weight gave 0.15625 (0.1563 half up)."""
    paths = write_files(tmp_path, {"ref.m2": TIE_REFERENCE, "hyp.m2": TIE_SYSTEMS})
    # python gotoscorer.py -ref ref.m2 -hyp hyp.m2 -v (GTS 5d120c3) prints for system 1:
    # 1       :	  0.3333	  1.6667	  2.3333	  0.3333	0.1667	0.1250	0.1429	0.1562	0.1667
    code, out, err = run_cli("gotoscorer", "-ref", paths["ref.m2"], "-hyp", paths["hyp.m2"], "-v", "--scale", "1")
    assert code == 0, err
    assert out.splitlines()[2].split("\t")[1:] == "0.3333 1.6667 2.3333 0.3333 0.1667 0.1250 0.1429 0.1562 0.1667".split()
    code, out, err = run_cli("gotoscorer", "-ref", paths["ref.m2"], "-hyp", paths["hyp.m2"])
    assert code == 0 and out.splitlines()[2].split("\t")[4] == "15.62"


EXACT_TIE_SOURCE = " ".join("abcdefghijklmnop")
EXACT_TIE_REFERENCE = m2_text([(EXACT_TIE_SOURCE, [(k, k + 1, "R:NOUN", "x", 0) for k in (0, 2, 4, 6)])])
EXACT_TIE_SYSTEM = m2_text([(EXACT_TIE_SOURCE, [(0, 1, "R:NOUN", "x", 0)]
                             + [(k, k + 1, "R:NOUN", "y", 0) for k in range(8, 14)])])


def test_a_value_exactly_half_way_at_4_decimals_is_rounded_to_even_as_the_original_prints_it(tmp_path):
    """The original prints scores and counts with "{:.4f}": a double exactly half-way is rounded
    to even. One system, TP 1, FP 6, FN 3: F0.5 = 5/32 = 0.15625 exactly (-no_weight); with
    -a 0.03125 every chunk weighs 0.03125 - 0/1, TN = -22.28125. `python gotoscorer.py -ref
    ref.m2 -hyp hyp.m2 -v -no_weight` (GTS 5d120c3) printed
    0       :	  1.0000	  6.0000	  3.0000	 23.0000	0.1429	0.2500	0.1818	0.1562	0.7273
    and with -a 0.03125 instead of -no_weight
    0       :	 -0.9688	  0.1875	  0.0938	-22.2812	1.2400	1.1071	1.1698	1.2109	1.0122
    (half up from the decimal form: 0.1563, -22.2813). compare's GoToScorer column rounds alike."""
    paths = write_files(tmp_path, {"ref.m2": EXACT_TIE_REFERENCE, "hyp.m2": EXACT_TIE_SYSTEM,
                                   "src": EXACT_TIE_SOURCE + "\n", "hyp.txt": "x b c d e f g h y y y y y y o p\n"})
    for flags, expected in ((["-no_weight"], "1.0000 6.0000 3.0000 23.0000 0.1429 0.2500 0.1818 0.1562 0.7273"),
                            (["-a", "0.03125"], "-0.9688 0.1875 0.0938 -22.2812 1.2400 1.1071 1.1698 1.2109 1.0122")):
        code, out, err = run_cli("gotoscorer", "-ref", paths["ref.m2"], "-hyp", paths["hyp.m2"], "-v", "--scale", "1",
                                 *flags)
        assert code == 0 and out.splitlines()[1].split("\t")[1:] == expected.split(), err
    code, out, err = run_cli("gotoscorer", "-ref", paths["ref.m2"], "-hyp", paths["hyp.m2"], "-no_weight", "-d", "3")
    assert code == 0 and out.splitlines()[1].split("\t")[4] == "15.625", err  # more decimals: the value's own
    code, out, err = run_cli("compare", "-s", paths["src"], "-o", paths["hyp.txt"], "--hyp-m2", paths["hyp.m2"],
                             "--m2", paths["ref.m2"], "--metrics", "gotoscorer:no_weight=true", "--tsv")
    assert code == 0 and out.splitlines()[1].split("\t")[1:] == ["15.62"], (out, err)


def test_a_chunk_of_sentences_is_read_as_part_of_the_whole_files(tmp_path):
    """A chunk without a line of the reference annotator (a NUCLE M2 has none for a sentence
    without a correction) or of a system is still scored against the whole files' annotators."""
    paths = write_files(tmp_path, {
        "ref.m2": "S a b c\n\nS d e f\nA 1 2|||R:NOUN|||x|||REQUIRED|||-NONE-|||0\n\n",
        "hyp.m2": "S a b c\nA 0 1|||R:NOUN|||y|||REQUIRED|||-NONE-|||0\n\n"
                  "S d e f\nA 1 2|||R:NOUN|||x|||REQUIRED|||-NONE-|||0\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1\n\n"})
    # python gotoscorer.py -ref ref.m2 -hyp hyp.m2 -v -gen_w_file w.txt (GTS 5d120c3):
    # 0       :	  0.5000	  0.5000	  0.0000	  0.0000	0.5000	1.0000	0.6667	0.5556	0.5000
    # 1       :	  0.0000	  0.0000	  0.5000	  0.5000	0.0000	0.0000	0.0000	0.0000	0.5000
    # w.txt: "2\n2 1 2 2 2 2 2\n2 2 2 1 2 2 2\n"
    for chunk_lines in ("1", "2000"):
        weights = str(tmp_path / f"w{chunk_lines}.txt")
        code, out, err = run_cli("gotoscorer", "-ref", paths["ref.m2"], "-hyp", paths["hyp.m2"], "-v", "--scale", "1",
                                 "--chunk-lines", chunk_lines, "-gen_w_file", weights)
        assert code == 0, err
        assert [line.split("\t")[1:] for line in out.splitlines()[1:]] == [
            "0.5000 0.5000 0.0000 0.0000 0.5000 1.0000 0.6667 0.5556 0.5000".split(),
            "0.0000 0.0000 0.5000 0.5000 0.0000 0.0000 0.0000 0.0000 0.5000".split()]
        assert open(weights).read() == "2\n2 1 2 2 2 2 2\n2 2 2 1 2 2 2\n"
    # a reference without any line of -ref_id is still refused, whole file or chunk by chunk
    code, out, err = run_cli("gotoscorer", "-ref", paths["ref.m2"], "-hyp", paths["hyp.m2"], "-ref_id", "1",
                             "--chunk-lines", "1")
    assert code == 2 and out == "" and err.count("\n") == 1 and "has no edit line of annotator 1 (-ref_id)" in err


def test_the_originals_long_spellings(tmp_path):
    """gotoscorer.py's parser also takes --ref, --hyp, -sys_name/--sys_name, --ref_id, --w_file,
    --gen_w_file, --no_weight and --a/--b/--c: the same runs as the short names."""
    paths = write_files(tmp_path, {"ref.m2": REFERENCE, "hyp.m2": SYSTEMS})
    short = run_cli("gotoscorer", "-ref", paths["ref.m2"], "-hyp", paths["hyp.m2"], "-name", "A,B,C", "-ref_id", "0",
                    "-a", "1.5", "-b", "1", "-c", "2", "-gen_w_file", str(tmp_path / "w1"))
    long = run_cli("gotoscorer", "--ref", paths["ref.m2"], "--hyp", paths["hyp.m2"], "--sys_name", "A,B,C",
                   "--ref_id", "0", "--a", "1.5", "--b", "1", "--c", "2", "--gen_w_file", str(tmp_path / "w2"))
    assert short[0] == 0 and "A\t" in short[1] and long == short
    assert (tmp_path / "w1").read_text() == (tmp_path / "w2").read_text()
    assert run_cli("gotoscorer", "--ref", paths["ref.m2"], "--hyp", paths["hyp.m2"], "-sys_name", "A,B,C",
                   "--w_file", str(tmp_path / "w1")) == run_cli("gotoscorer", "-ref", paths["ref.m2"], "-hyp",
                                                                paths["hyp.m2"], "-name", "A,B,C", "-w_file",
                                                                str(tmp_path / "w1"))
    assert run_cli("gotoscorer", "--ref", paths["ref.m2"], "--hyp", paths["hyp.m2"], "--no_weight") == \
        run_cli("gotoscorer", "-ref", paths["ref.m2"], "-hyp", paths["hyp.m2"], "-no_weight")
