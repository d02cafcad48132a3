"""CLEME and CLEME2.0 on M2 input: hand-made chunk partitions, each assumption and weighting
computed by hand, the statistics' additivity, bad input, and the official numbers (THUKElab/CLEME
at commit e90abea) on CoNLL-2014 M2 files (tests/data/cleme_official.tsv, in CI) and on the
CLEME repository's demo files (only where a CLEME checkout and its printed numbers are); paired-test
resamples of every setting scored as score() scores their rows."""
from __future__ import annotations

import json
import math
import os
from pathlib import Path

import numpy as np
import pytest

from gecmetrics.metrics.cleme import CLEME, CLEME2, AspectFactors, ClippedLogistic, LengthWeighting, partition
from gecmetrics.metrics.cleme.chunking import Target, TargetEdit, block_targets
from gecmetrics.metrics.cleme.scoring import CORPUS_FACTORS, SENTENCE_FACTORS, f_beta
from gecmetrics.metrics.cleme.resampling import ChunkRows
from gecmetrics.metrics.cleme.statistics import ChunkStatistics, histograms
from gecmetrics.run.m2_files import cleme_files
from gecmetrics.metrics.cleme.report import format_chunk_table, format_chunk_tables
from gecmetrics.io.corpus import Corpus
from gecmetrics.errors import InputError
from gecmetrics.io.m2 import parse_m2, read_m2
from tests.conftest import read_tsv

DATA = Path(__file__).resolve().parent / "data"
CHECKOUT = Path(os.environ.get("GECMETRICS_CLEME_CHECKOUT", "/tmp/peers/cleme-src"))
ORACLE = Path(os.environ.get("GECMETRICS_CLEME_ORACLE", "/work/oracles/cleme"))


def a_line(start, end, correction, annotator=0, edit_type="X"):
    return f"A {start} {end}|||{edit_type}|||{correction}|||REQUIRED|||-NONE-|||{annotator}"


def m2(*blocks):
    """M2 text from (source, [A lines]) pairs."""
    return "".join("S " + source + "\n" + "".join(line + "\n" for line in lines) + "\n" for source, lines in blocks)


def target(*edits):
    return Target(tuple(TargetEdit(start, end, tuple(text.split())) for start, end, text in edits), 0)


def prepared_for(metric, ref_blocks, name="ref.m2"):
    """The metric's prepared references of M2 blocks (the corpus's gold)."""
    return metric.prepare(Corpus(None, [], {}, list(ref_blocks), {"source": name, "gold": name}))


def statistics_of(metric, hyp_text, ref_text):
    return metric.statistics(prepared_for(metric, parse_m2(ref_text, "ref.m2")), parse_m2(hyp_text, "hyp.m2"))


def score(metric, hyp_text, ref_text):
    return metric.score(statistics_of(metric, hyp_text, ref_text))


def category_totals(metric, hyp_text, ref_text):
    """Unweighted chunk counts per slot: {slot: (TP, FP_ne, FP_un, FN, TN)}."""
    counts = histograms(statistics_of(metric, hyp_text, ref_text)).sum(axis=(0, -1))
    return {slot: tuple(int(x) for x in counts[slot]) for slot in range(counts.shape[0])}


# ---------------------------------------------------------------- chunk partition


def test_overlapping_and_touching_spans_merge_into_one_chunk():
    source = "a b c d e".split()
    hypothesis = target((1, 2, "B"))
    reference_0 = target((1, 2, "B"), (3, 3, "x"))
    reference_1 = target((2, 4, "C D"))
    chunks = partition(source, [hypothesis, reference_0, reference_1])
    assert chunks.spans == ((0, 1), (1, 4), (4, 5))
    assert chunks.corrected == (False, True, False)
    assert chunks.tokens[0] == (("a",), ("B", "c", "d"), ("e",))
    assert chunks.tokens[1] == (("a",), ("B", "c", "x", "d"), ("e",))
    assert chunks.tokens[2] == (("a",), ("b", "C", "D"), ("e",))
    assert chunks.marked == ((False, True, False),) * 3


def test_insertions_make_empty_chunks_at_both_ends():
    chunks = partition("a b c".split(), [target(), target((0, 0, "X"), (3, 3, "Y"))])
    assert chunks.spans == ((0, 0), (0, 3), (3, 3))
    assert chunks.tokens[0] == ((), ("a", "b", "c"), ())
    assert chunks.tokens[1] == (("X",), ("a", "b", "c"), ("Y",))
    assert chunks.marked[0] == (False, False, False)
    assert chunks.marked[1] == (True, False, True)


def test_a_target_without_edits_in_a_corrected_chunk_keeps_the_source_there():
    chunks = partition("a b c d".split(), [target(), target((1, 3, "z"))])
    assert chunks.spans == ((0, 1), (1, 3), (3, 4))
    assert chunks.tokens[0][1] == ("b", "c") and not chunks.marked[0][1]
    assert chunks.tokens[1][1] == ("z",) and chunks.marked[1][1]


def test_insertion_next_to_a_replacement_in_one_target():
    # an insertion at 2 then a replacement of token 2: one chunk, read left to right
    chunks = partition("a b c".split(), [target((2, 2, "x"), (2, 3, "C")), target()])
    assert chunks.spans == ((0, 2), (2, 3))
    assert chunks.tokens[0] == (("a", "b"), ("x", "C"))


def test_m2_reading_follows_cleme():
    text = m2(("a b c", [a_line(0, 1, "-NONE-"), a_line(2, 3, "x||y"), a_line(-1, -1, "-NONE-", 1, "noop")]))
    block = parse_m2(text, "f.m2")[0]
    first, second = block_targets(block, "f.m2")
    assert first.edits == (TargetEdit(0, 1, ()), TargetEdit(2, 3, ("x||y",)))  # '||' not split
    assert second.edits == () and second.length == 3


# ---------------------------------------------------------------- assumptions, by hand

TWO_REFERENCES = m2(("a b c d e", [a_line(1, 2, "B", 0), a_line(4, 5, "E", 0), a_line(1, 2, "X", 1)]))


def test_dependent_counts_each_reference_alone():
    hyp = m2(("a b c d e", [a_line(1, 2, "B"), a_line(2, 3, "C")]))
    # chunks: [0,1] [1,3] (the hypothesis's touching edits merge) [3,4] [4,5]
    # ref 0: [1,3] = "B c" vs hyp "B C": FP necessary; [4,5]: missed E: FN; [0,1] [3,4]: TN
    # ref 1: [1,3] = "X c": FP necessary; [0,1] [3,4] [4,5]: TN
    counts = category_totals(CLEME(assumption="dependent", weighted=False), hyp, TWO_REFERENCES)
    assert counts == {0: (0, 1, 0, 1, 2), 1: (0, 1, 0, 0, 3)}


def test_independent_counts_all_references_at_once():
    independent = CLEME(assumption="independent", weighted=False)
    hyp = m2(("a b c d e", [a_line(0, 1, "Z"), a_line(1, 2, "X")]))
    # chunks: [0,2] (touching) [2,4] [4,5]. [0,2]: hyp "Z X" matches no reference ("a B", "a X"):
    # FP, necessary since a reference corrects it. [4,5]: only ref 0 corrects it: not all: TN.
    assert category_totals(independent, hyp, TWO_REFERENCES) == {0: (0, 1, 0, 0, 2)}
    # "X" is reference 1's correction: TP, although reference 0 says "B"
    hyp = m2(("a b c d e", [a_line(1, 2, "X")]))
    assert category_totals(independent, hyp, TWO_REFERENCES) == {0: (1, 0, 0, 0, 3)}
    # a chunk every reference corrects and the hypothesis leaves is a FN; one only some do, a TN
    assert category_totals(independent, m2(("a b c d e", [])), TWO_REFERENCES) == {0: (0, 0, 0, 1, 3)}


def test_unnecessary_fp_and_an_edit_that_changes_nothing():
    ref = m2(("a b c", [a_line(0, 1, "A")]))
    hyp = m2(("a b c", [a_line(2, 3, "C")]))
    assert category_totals(CLEME(weighted=False), hyp, ref) == {0: (0, 0, 1, 1, 1)}
    # CLEME compares texts: a hypothesis "edit" that rewrites a token as itself matches the
    # unchanged reference chunk and is a TP
    hyp = m2(("a b c", [a_line(2, 3, "c")]))
    assert category_totals(CLEME(weighted=False), hyp, ref) == {0: (1, 0, 0, 1, 1)}


def test_corpus_choice_is_the_running_f():
    # sentence 1: ref 0 gives TP 1, ref 1 (corrects "a" otherwise) FP 1 -> ref 0
    # sentence 2 (the hypothesis corrects "c" needlessly): ref 0 gives FP 1 + FN 1 + TN 1, ref 1
    # (no edit) FP 1 + TN 2. With the totals of sentence 1 (TP 1, TN 1): ref 0 -> P 0.5, R 0.5,
    # F 0.5; ref 1 -> P 0.5, R 1, F 0.5556 -> ref 1
    ref = m2(("a b", [a_line(0, 1, "A", 0), a_line(0, 1, "Q", 1)]),
             ("c d e", [a_line(2, 3, "E", 0), a_line(-1, -1, "-NONE-", 1, "noop")]))
    hyp = m2(("a b", [a_line(0, 1, "A")]), ("c d e", [a_line(0, 1, "K")]))
    result = score(CLEME(weighted=False), hyp, ref)
    assert list(result.chosen) == [0, 1]
    assert (result.tp, result.fp, result.fn, result.tn) == (1.0, 1.0, 0.0, 3.0)
    assert (result.precision, result.recall) == (0.5, 1.0)
    assert result.f == pytest.approx(1.25 * 0.5 / (0.125 + 1))
    assert result.accuracy == 0.8
    # sentence level, sentence 2 alone: ref 0: F 0, P 0, R 0, accuracy 0.3333; ref 1: F 0, P 0,
    # R 1 (nothing missed), accuracy 0.6667 -> ref 1; means of the rounded scores
    sentence = score(CLEME(level="sentence", weighted=False), hyp, ref)
    assert list(sentence.chosen) == [0, 1]
    assert (sentence.f, sentence.precision, sentence.recall) == (0.5, 0.5, 1.0)
    assert sentence.accuracy == (1 + 0.6667) / 2


def test_length_weights_by_hand():
    ref = m2(("a b c", [a_line(0, 0, "X"), a_line(3, 3, "Y")]))
    result = score(CLEME(), m2(("a b c", [])), ref)
    # reference chunks "X" and "Y" have length 1: bias 1. The two FN chunks are the hypothesis's
    # empty chunks (length 0): 2 / (1 + e) = 0.538, clipped to 0.75. The TN weighs 1.
    assert result.bias == 1.0
    assert result.fn == pytest.approx(1.5) and result.tn == 1.0 and result.tp == 0.0
    assert result.recall == 0.0 and result.f == 0.0 and result.accuracy == pytest.approx(1 / 2.5)


def test_length_weights_follow_the_logistic_curve():
    curve = ClippedLogistic(2.0, 1e-9, 10.0)  # the curve itself: clipped nowhere at these lengths
    lengths = np.array([0.0, 1.0, 2.0, 5.0])
    assert curve.weights(lengths, 2.0, reverse=False) == pytest.approx(2 / (1 + np.exp(2 - lengths)))
    assert curve.weights(lengths, 2.0, reverse=True) == pytest.approx(2 / (1 + np.exp(lengths - 2)))
    assert ClippedLogistic().weights(np.array([0.0, 9.0]), 2.0, reverse=False).tolist() == [0.75, 1.25]
    # a weight of 0 or below would drop or subtract chunks (P 296.02 and F0.5 212.65 with FP weights in [-1, -0.5])
    for minimum in (0.0, -1.0):
        with pytest.raises(InputError, match="length weight minimum must be positive"):
            ClippedLogistic(2.0, minimum, 1.0)


def test_length_weights_of_very_long_chunks_warn_of_nothing_and_keep_their_values(tmp_path):
    """exp(L - b) overflows for a chunk about 710 tokens past the bias: NumPy's RuntimeWarning
    reached the command line ("gecmetric: warning: overflow encountered in exp"). The weights are
    the formula's, bit for bit (its limit, clipped, where it overflows)."""
    import warnings

    from tests.conftest import run_cli

    def formula(curve, lengths, bias, reverse):  # CLEME's, as it was written, its warnings silenced
        exponent = lengths - bias if reverse else bias - lengths
        with np.errstate(over="ignore"):
            raw = curve.alpha * (1 / (1 + (curve.alpha - 1) * np.exp(exponent)))
        return np.clip(raw, curve.minimum, curve.maximum)

    lengths = np.arange(2000, dtype=np.float64)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for curve in (ClippedLogistic(), ClippedLogistic(2.0, 1e-300, 10.0), ClippedLogistic(0.5, 0.1, 5.0),
                      ClippedLogistic(1e10, 1e-9, 1e20), ClippedLogistic(2.0, 1.0, 1.0)):
            for bias, reverse in ((1.5, True), (1.5, False), (1200.25, False), (0.0, True)):
                weights = curve.weights(lengths, bias, reverse)
                assert weights.tobytes() == formula(curve, lengths, bias, reverse).tobytes()
        # alpha 1 is a flat curve: 0 x exp(L - b) made nan where the exponential overflowed
        assert ClippedLogistic(1.0, 0.5, 2.0).weights(lengths, 1.5, True).tolist() == [1.0] * len(lengths)
    path = tmp_path / "long.m2"
    path.write_text(m2((" ".join(f"w{i % 50}" for i in range(800)), [a_line(3, 4, "x", edit_type="Nn")])))
    code, out, err = run_cli("cleme", "-hyp", str(path), "-ref", str(path))
    assert (code, err) == (0, "") and out.splitlines()[1].split("\t")[1:4] == ["100.00", "100.00", "100.00"]


def test_weighted_fp_tp_and_custom_weighting():
    ref = m2(("a b c d e f", [a_line(0, 2, "X Y Z")]))  # bias 3
    hyp = m2(("a b c d e f", [a_line(0, 2, "X Y Z"), a_line(5, 6, "F")]))
    result = score(CLEME(), hyp, ref)
    tp = float(np.clip(2 / (1 + np.exp(0.0)), 0.75, 1.25))   # length 3 = bias: weight 1
    fp = float(np.clip(2 / (1 + np.exp(1 - 3.0)), 0.75, 1.25))  # short FP weighs more: 1.25
    assert result.tp == pytest.approx(tp) and result.fp == pytest.approx(fp)
    flat = LengthWeighting(tp=ClippedLogistic(2, 1, 1), fp=ClippedLogistic(2, 1, 1), fn=ClippedLogistic(2, 1, 1))
    unweighted = score(CLEME(weighted=False), hyp, ref)
    custom = score(CLEME(weighting=flat), hyp, ref)
    assert custom.rounded() == unweighted.rounded()
    assert CLEME(weighting=flat).signature == ("CLEME|assumption:dependent|level:corpus|weights:length,tp=2/1/1,"
                                               "fp=2/1/1,fn=2/1/1,tn=2/1/1|beta:0.5|version:0.1.0")
    assert CLEME(weighting=flat).column_labels() == ["CLEME F0.5 custom-weights"]
    with pytest.raises(InputError, match="weighting was given with weighted=false"):
        CLEME(weighted=False, weighting=flat)


def test_weighted_fp_is_summed_over_all_fp_chunks_at_once():
    # The hypothesis's four FP chunks (lengths 2, 2, 2, 1; bias 1.5, so non-dyadic weights) are
    # the same against both references; reference 1 marks the first (necessary FP), reference 0
    # none. Both give F 0 (no TP): the tie-break on FP must see equal FP weight sums, as CLEME
    # sums all FP chunks in one go, and go on to FN (reference 1 has none). Summing the necessary
    # and the unnecessary FP weights apart made reference 1's FP one ulp larger and kept
    # reference 0. The numbers are those printed by THUKElab/CLEME at commit e90abea:
    #   python main.py --ref ref.m2 --hyp hyp.m2 --metric cleme --level corpus --assumption dependent
    #   prf_corpus_weighted  F 0.0000  P 0.0000  R 1.0000  ACC 0.5875  TP 0.0000  FP 3.5102  FN 0.0000  TN 5.0000
    #   (EditScorerResult fp=3.510162675192581)
    source = "a b c d e f g h i j k l"
    ref = m2((source, [a_line(11, 12, "X", 0), a_line(1, 2, "-NONE-", 1)]))
    hyp = m2((source, [a_line(0, 1, "-NONE-"), a_line(4, 5, "Y Z"), a_line(6, 8, "-NONE-"), a_line(9, 10, "-NONE-")]))
    result = score(CLEME(), hyp, ref)
    assert list(result.chosen) == [1]
    assert result.rounded() == {"f": 0.0, "precision": 0.0, "recall": 1.0, "accuracy": 0.5875, "tp": 0.0,
                                "fp": 3.5102, "fn": 0.0, "tn": 5.0}
    assert result.fp == 3.510162675192581
    assert score(CLEME2(), hyp, ref).fp == 3.510162675192581


def test_weighting_needs_a_reference_correction():
    ref = m2(("a b", [a_line(-1, -1, "-NONE-", 0, "noop")]))
    hyp = m2(("a b", [a_line(0, 1, "A")]))
    assert score(CLEME(weighted=False), hyp, ref).precision == 0.0
    with pytest.raises(InputError, match="unweighted"):
        score(CLEME(), hyp, ref)


def test_cleme2_aspects_by_hand():
    # chunks needing a correction: TP 1 ([0,1]), FP necessary 1 ([2,3]), FN 1 ([4,5]); one
    # unnecessary FP ([6,7]); TN [1,2] [3,4] [5,6]
    ref = m2(("a b c d e f g", [a_line(0, 1, "A"), a_line(2, 3, "C"), a_line(4, 5, "E")]))
    hyp = m2(("a b c d e f g", [a_line(0, 1, "A"), a_line(2, 3, "K"), a_line(6, 7, "G")]))
    result = score(CLEME2(weighted=False), hyp, ref)
    assert (result.hit, result.wrong, result.under) == pytest.approx((1 / 3, 1 / 3, 1 / 3))
    assert result.over == pytest.approx(1 / 3)
    expected = 0.45 / 3 + 0.35 * 2 / 3 + 0.15 * 2 / 3 + 0.05 * 2 / 3
    assert result.aggregate == pytest.approx(expected) and result.score == result.aggregate
    sentence = score(CLEME2(level="sentence", weighted=False), hyp, ref)
    assert sentence.aggregate == pytest.approx(0.35 / 3 + 0.25 * 2 / 3 + 0.20 * 2 / 3 + 0.20 * 2 / 3)
    with pytest.raises(InputError, match="add up to 1"):
        AspectFactors(0.5, 0.5, 0.5, 0.5)


def test_f_beta_edges():
    assert f_beta(0.5, 0.25, math.inf) == 0.25
    assert f_beta(1.0, 0.0, 0.0) == 0.0  # CLEME would divide by zero here
    assert f_beta(0.0, 0.0, 0.5) == 0.0


# ---------------------------------------------------------------- statistics rows


def _random_edits(rng, n, annotator):
    """Edit lines of one annotator on a sentence of n tokens: in order, not overlapping."""
    lines, position = [], 0
    while position < n and rng.random() < 0.7:
        start = int(rng.integers(position, n + 1))
        end = min(n, start + int(rng.integers(0, 3)))
        lines.append(a_line(start, end, " ".join(rng.choice(["x", "y", "-NONE-"], int(rng.integers(1, 3)))),
                            annotator))
        position = end + 1 if end == start else end
    return lines or [a_line(-1, -1, "-NONE-", annotator, "noop")]


def _random_corpus(rng, sentences):
    """(hypothesis M2, reference M2 with two annotators) of random sentences and edits."""
    hyp, ref = [], []
    for _ in range(sentences):
        n = int(rng.integers(1, 8))
        source = " ".join(f"w{k}" for k in range(n))
        hyp.append((source, _random_edits(rng, n, 0)))
        ref.append((source, _random_edits(rng, n, 0) + _random_edits(rng, n, 1)))
    return m2(*hyp), m2(*ref)


def _random_hypothesis(rng, ref_text):
    """Another hypothesis M2 of the sentences of a reference M2."""
    return m2(*((block.source, _random_edits(rng, len(block.tokens), 0)) for block in parse_m2(ref_text, "r")))


@pytest.mark.parametrize("assumption", ["dependent", "independent"])
def test_rows_add_up_and_blocks_join(assumption):
    hyp_text, ref_text = _random_corpus(np.random.default_rng(7), 60)
    hyp, ref = parse_m2(hyp_text, "hyp"), parse_m2(ref_text, "ref")
    for metric in (CLEME(assumption=assumption), CLEME2(assumption=assumption, level="sentence")):
        whole = metric.statistics(prepared_for(metric, ref), hyp)
        parts = [metric.statistics(prepared_for(metric, ref[a:b]), hyp[a:b]) for a, b in ((0, 17), (17, 40), (40, 60))]
        assert len({part.shape for part in parts}) > 1  # chunks of different widths
        joined = metric.join_statistics(parts)
        assert joined.shape == whole.shape and (np.asarray(joined) == np.asarray(whole)).all()
        assert metric.score(joined).to_dict() == metric.score(whole).to_dict()
        assert len(metric.sentence_from_statistics(whole).scores) == 60


def _dense_alike(dense):
    """The rows whose present slots' histograms are all slot 0's, read off the dense layout."""
    counts, present = dense[:, :, 3:], dense[:, :, 0] != 0
    return ((counts == counts[:, :1]).all(axis=2) | ~present).all(axis=1)


@pytest.mark.parametrize("assumption", ["dependent", "independent"])
def test_statistics_are_the_dense_rows_held_by_their_cells(assumption):
    hyp_text, ref_text = _random_corpus(np.random.default_rng(11), 80)
    metric = CLEME(assumption=assumption)
    statistics = metric.statistics(prepared_for(metric, parse_m2(ref_text, "r")), parse_m2(hyp_text, "h"))
    dense = np.asarray(statistics)
    assert dense.shape == statistics.shape and len(statistics) == 80
    again = ChunkStatistics.of_dense(dense)   # a dense array (what statistics() made before) is read as the same
    for name in ("header", "starts", "cells", "lengths", "counts"):
        assert (getattr(again, name) == getattr(statistics, name)).all(), name
    rows = np.array([5, 0, 79, 5, 33])
    assert (np.asarray(statistics[rows]) == dense[rows]).all() and (np.asarray(statistics[10:20]) == dense[10:20]).all()
    assert metric.score(dense).to_dict() == metric.score(statistics).to_dict()
    with pytest.raises(InputError, match="hold no sentence"):   # as an empty array is
        metric.score(statistics[0:0])
    # the rows whose references count alike, also where a slot is absent or slot 0 is (hand-made rows)
    rng = np.random.default_rng(2)
    made = np.zeros((300, 3, 3 + 5 * 4), dtype=np.int64)
    made[:, :, 3:] = rng.integers(0, 2, size=(300, 3, 20)) * rng.integers(0, 2, size=(300, 1, 20))
    made[:, :, 0] = rng.integers(0, 2, size=(300, 3))
    copied = rng.random(300) < 0.3   # rows whose slots all count as slot 0 does
    made[copied, 1:, 3:] = made[copied, :1, 3:]
    for table in (dense, made):
        assert (ChunkRows(table).alike == _dense_alike(table)).all()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_each_sentence_alone_is_scored_at_once_as_a_slice_at_a_time(seed):
    """alone_matrix (rewards, edit attribution: each sentence a corpus of its own) scores every
    sentence at once; the same bits as scoring each one-row slice, for every setting, and the
    same refusal for a sentence whose references correct nothing (weighted)."""
    from gecmetrics.errors import LineRefused
    from gecmetrics.metrics.base import Metric

    rng = np.random.default_rng(seed)
    hyp_text, ref_text = _random_corpus(rng, 50)
    custom = LengthWeighting(tp=ClippedLogistic(3.0, 0.5, 2.0), tn=ClippedLogistic(1.5, 0.8, 1.2))
    for cls in (CLEME, CLEME2):
        for options in ({}, {"weighted": False}, {"level": "sentence"}, {"assumption": "independent"},
                        {"weighting": custom}, {"level": "sentence", "assumption": "independent"}):
            metric = cls(**options, **({"beta": 2.0} if cls is CLEME and options == {} else {}))
            statistics = metric.statistics(prepared_for(metric, parse_m2(ref_text, "r")), parse_m2(hyp_text, "h"))
            if metric.independent_sentences:
                continue
            corrected = np.flatnonzero(statistics.header[:, :, 2].sum(axis=1) > 0)
            rows = statistics[corrected] if metric.settings.weighted else statistics
            expected = Metric.alone_matrix(metric, rows)   # (one-row slices scored one by one)
            with pytest.MonkeyPatch.context() as patched:
                patched.setattr(type(metric), "sentence_matrix", lambda *args: pytest.fail("scored a slice at a time"))
                assert np.array_equal(metric.alone_matrix(rows), expected), (cls, options)
            if metric.settings.weighted and len(corrected) < len(statistics):
                with pytest.raises(LineRefused) as alone:
                    metric.alone_matrix(statistics)
                with pytest.raises(LineRefused) as sliced:
                    Metric.alone_matrix(metric, statistics)
                assert str(alone.value) == str(sliced.value)


def test_a_long_chunk_does_not_widen_every_row():
    """One 1,000-token edit made every sentence's row 5 x 1,001 counts per slot (a 10,000-line
    corpus went from 122 MB to 1 GB): the rows hold their chunks only."""
    long_edit = " ".join(["x"] * 1000)
    hyp_text = m2(("a b c", [a_line(0, 1, long_edit, 0)]), *(("a b c", [a_line(1, 2, "d", 0)]),) * 199)
    ref_text = m2(*(("a b c", [a_line(1, 2, "d", 0)]),) * 200)
    metric = CLEME()
    statistics = metric.statistics(prepared_for(metric, parse_m2(ref_text, "r")), parse_m2(hyp_text, "h"))
    assert statistics.shape[2] > 5 * 1000
    held = statistics.header.nbytes + sum(getattr(statistics, name).nbytes for name in ("starts", "cells", "lengths",
                                                                                         "counts"))
    assert held < 20_000   # (the dense rows: 200 x 5,008 x 8 bytes = 8 MB)
    assert metric.score(statistics).to_dict() == metric.score(np.asarray(statistics)).to_dict()


def test_sentence_scores_average_to_the_sentence_level():
    hyp_text, ref_text = _random_corpus(np.random.default_rng(3), 40)
    for metric in (CLEME(level="sentence"), CLEME2(level="sentence", assumption="independent")):
        statistics = metric.statistics(prepared_for(metric, parse_m2(ref_text, "r")), parse_m2(hyp_text, "h"))
        sentences = metric.sentence_from_statistics(statistics)
        result = metric.score(statistics)
        for name, values in sentences.values.items():
            assert getattr(result, name) == float(np.average(values))
        assert result.score == float(np.average(sentences.scores))


def test_corpus_level_sentence_scores_use_the_corpus_choice():
    hyp_text, ref_text = _random_corpus(np.random.default_rng(5), 30)
    metric = CLEME(weighted=False)
    statistics = metric.statistics(prepared_for(metric, parse_m2(ref_text, "r")), parse_m2(hyp_text, "h"))
    sentences = metric.sentence_from_statistics(statistics)
    assert (sentences.chosen == metric.score(statistics).chosen).all()
    counts = histograms(statistics).sum(axis=-1)[np.arange(30), sentences.chosen]   # (D, category)
    tp, fp, fn = counts[:, 0], counts[:, 1] + counts[:, 2], counts[:, 3]
    with np.errstate(invalid="ignore", divide="ignore"):
        precision = np.where(tp + fp > 0, tp / (tp + fp), 1.0)
        recall = np.where(tp + fn > 0, tp / (tp + fn), 1.0)
    assert sentences.values["precision"] == pytest.approx(precision)
    assert sentences.values["recall"] == pytest.approx(recall)


# ---------------------------------------------------------------- paired tests

ALL_SETTINGS = [(cls, assumption, level, weighted) for cls in (CLEME, CLEME2) for assumption in ("dependent", "independent")
                for level in ("corpus", "sentence") for weighted in (True, False)]


@pytest.mark.parametrize("cls, assumption, level, weighted", ALL_SETTINGS)
def test_resamples_score_as_their_rows_do(cls, assumption, level, weighted):
    """A bootstrap resample and a randomized pseudo-system are scored exactly as score() scores
    their rows: the bias, the weights and the reference choices redone on them."""
    from gecmetrics.stats.significance import bootstrap_indices, randomization_masks
    from gecmetrics.core.resampling import Resample

    rng = np.random.default_rng(11)
    hyp_text, ref_text = _random_corpus(rng, 40)
    metric = cls(assumption=assumption, level=level, weighted=weighted)
    prepared = prepared_for(metric, parse_m2(ref_text, "ref"))
    base = metric.statistics(prepared, parse_m2(hyp_text, "hyp"))
    system = metric.statistics(prepared, parse_m2(_random_hypothesis(rng, ref_text), "other"))
    resampler = metric.resampler()
    rows = {name: resampler.prepare(stats) for name, stats in (("base", base), ("system", system))}
    assert resampler.score(rows["base"]) == metric.score(base).score
    indices = bootstrap_indices(40, 12, 5)
    expected = [metric.score(base[chosen]).score for chosen in indices]
    assert resampler.bootstrap_scores(rows["base"], Resample(indices)).tolist() == expected
    keep = randomization_masks(40, 8, 5)
    pool = metric.join_statistics([base, system])
    own, other = np.arange(40), np.arange(40) + 40
    scores_a, scores_b = resampler.swapped_scores(rows["base"], rows["system"], keep)
    assert scores_a.tolist() == [metric.score(pool[np.where(k, own, other)]).score for k in keep]
    assert scores_b.tolist() == [metric.score(pool[np.where(k, other, own)]).score for k in keep]


def test_paired_test_of_a_system_with_itself():
    from gecmetrics import paired_test

    hyp_text, ref_text = _random_corpus(np.random.default_rng(2), 30)
    hyp, ref = parse_m2(hyp_text, "h"), parse_m2(ref_text, "r")
    for method in ("bs", "ar"):
        result = paired_test(CLEME(), None, ref, {"a": hyp, "b": hyp}, method, samples=30)
        assert result.systems[1].p_value == 1.0 and result.systems[0].score == result.systems[1].score
        assert result.metric == "CLEME" and "|test:paired-" in result.signature


def test_join_statistics_pads_every_layout():
    from gecmetrics.metrics.m2 import M2Scorer
    from gecmetrics.core.fscore import candidates_from_lists

    parts = [candidates_from_lists([[(1, 0, 0, 0)]]), candidates_from_lists([[(0, 1, 0, 0), (1, 1, 1, 1)]])]
    joined = M2Scorer().join_statistics(parts)
    assert joined.shape == (2, 2, 5) and (joined[0, 1] == 0).all() and (joined[1] == parts[1][0]).all()


def test_chunked_scoring_gives_the_whole_corpus_numbers():
    """The pipeline counts a corpus in chunks and joins their rows (different slot counts and
    chunk lengths per chunk): every setting scores as on the whole corpus."""
    from gecmetrics.run.engine import score_corpus

    hyp_text, ref_text = _random_corpus(np.random.default_rng(21), 50)
    corpus = Corpus(None, [], {"h": parse_m2(hyp_text, "h")}, parse_m2(ref_text, "r"))
    metrics = [cls(assumption=a, level=l, weighted=w) for cls, a, l, w in ALL_SETTINGS]
    whole = score_corpus(metrics, corpus, chunk_lines=1000)
    chunked = score_corpus(metrics, corpus, chunk_lines=7)
    for k in range(len(metrics)):
        assert chunked.result("h", k).values == whole.result("h", k).values


# ---------------------------------------------------------------- chunk tables


def test_chunk_table_layout():
    chunks = partition("a bb c".split(), [target((1, 2, "B")), target((1, 2, "B")), target()])
    assert format_chunk_table(chunks) == "\n".join([
        "╒════════════╤═══════════╤═════════════╤═══════════╕",
        "│ sentence   │ chunk-0   │ chunk-1 *   │ chunk-2   │",
        "╞════════════╪═══════════╪═════════════╪═══════════╡",
        "│ source     │ a         │ bb          │ c         │",
        "├────────────┼───────────┼─────────────┼───────────┤",
        "│ target-0   │ a         │ B           │ c         │",
        "├────────────┼───────────┼─────────────┼───────────┤",
        "│ target-1   │ a         │ B           │ c         │",
        "├────────────┼───────────┼─────────────┼───────────┤",
        "│ target-2   │ a         │ bb          │ c         │",
        "╘════════════╧═══════════╧═════════════╧═══════════╛"])
    assert format_chunk_tables([chunks]) == "\n" + format_chunk_table(chunks) + "\n\n"


# ---------------------------------------------------------------- bad input


def test_bad_input_names_file_and_line(tmp_path):
    ref = parse_m2(m2(("a b c", [a_line(0, 1, "A")]), ("d e", [])), "ref.m2")
    names = {"source": "ref.m2", "gold": "ref.m2"}
    with pytest.raises(InputError, match=r"hyp.m2:1: has 1 sentence but ref.m2 has 2 \(the last one starts here\)"):
        Corpus(None, [], {"hyp.m2": parse_m2(m2(("a b c", [])), "hyp.m2")}, ref, names)
    with pytest.raises(InputError, match=r"hyp.m2:5: has 3 sentences but ref.m2 has 2$"):
        Corpus(None, [], {"hyp.m2": parse_m2(m2(("a b c", []), ("d e", []), ("f", [])), "hyp.m2")}, ref, names)
    other = parse_m2(m2(("a b c", []), ("d f", [])), "hyp.m2")
    corpus = Corpus(None, [], {"hyp.m2": other}, ref, names)  # ERRANT would pair the blocks as they are
    with pytest.raises(InputError, match=r"hyp.m2:3: the source of sentence 2 differs from sentence 2 of ref.m2 "
                                         r"\(line 4\)"):
        corpus.check_blocks(other, "hyp.m2")
    prepared = prepared_for(CLEME(), ref)
    with pytest.raises(InputError, match=r"hyp.m2:3: source differs .*line 4 of ref.m2"):
        CLEME().statistics(prepared, parse_m2(m2(("a b c", []), ("d f", [])), "hyp.m2"), "hyp.m2")
    two_annotators = m2(("a b c", [a_line(0, 1, "A", 0), a_line(0, 1, "B", 1)]), ("d e", []))
    with pytest.raises(InputError, match="hyp.m2:1: a hypothesis must have one annotator"):
        CLEME().statistics(prepared, parse_m2(two_annotators, "hyp.m2"), "hyp.m2")
    bad_file = tmp_path / "bad.m2"
    bad_file.write_text("S a b\nA 0 1|||X|||y|||REQUIRED|||-NONE-\n\n", encoding="utf-8")
    with pytest.raises(InputError, match="bad.m2:2: malformed edit line"):
        cleme_files(str(bad_file), str(bad_file))


@pytest.mark.parametrize("lines, message", [
    ([a_line(1, 3, "x"), a_line(2, 3, "y")], "ref.m2:3: edit 2 3 starts before the end"),
    ([a_line(1, 2, "x"), a_line(0, 1, "y")], "ref.m2:3: edit 0 1 starts before the end"),
    ([a_line(0, 1, "x", 0), a_line(0, 1, "y", 2)], "ref.m2:3: annotator 2 where CLEME expects 0 or 1"),
    ([a_line(0, 1, "x", 1), a_line(0, 1, "y", 0)], "ref.m2:2: annotator 1 where CLEME expects"),
    ([a_line(0, 1, "-NONE-", 0, "noop")], "ref.m2:2: a 'noop' edit must have the span -1 -1"),
])
def test_references_cleme_would_misread(lines, message):
    with pytest.raises(InputError, match=message):
        prepared_for(CLEME(), parse_m2(m2(("a b c", lines)), "ref.m2"))


def test_empty_source_is_refused():
    with pytest.raises(InputError, match="ref.m2:1: empty source"):
        prepared_for(CLEME(), parse_m2("S \nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n", "ref.m2"))


@pytest.mark.parametrize("beta", [float("nan"), -1, "-0.5", None, True, "x"])
def test_beta_must_be_a_non_negative_number(beta):
    with pytest.raises(InputError, match="beta"):
        CLEME(beta=beta)


@pytest.mark.parametrize("option, value", [("assumption", "both"), ("level", "system"), ("weighted", "maybe"),
                                           ("weighting", "heavy"), ("weighting", 2.0)])
def test_settings_are_checked(option, value):
    with pytest.raises(InputError, match=f"setting {option}"):
        CLEME(**{option: value})


@pytest.mark.parametrize("value, message", [("0.5/0.5", "needs 4 numbers"), ("0.5/0.5/0.5/0.5", "add up to 1"),
                                            ("a/b/c/d", "must be a number"), ([0.25] * 3, "needs 4 numbers")])
def test_cleme2_factors_are_checked(value, message):
    with pytest.raises(InputError, match=message):
        CLEME2(factors=value)


def test_statistics_and_blocks_are_checked():
    with pytest.raises(InputError, match="statistics"):
        CLEME().score(np.zeros((3, 2)))
    with pytest.raises(InputError, match="statistics"):
        CLEME().score(np.zeros((3, 2, 9), dtype=np.int64))
    with pytest.raises(InputError, match="takes a Corpus"):
        CLEME().prepare("S a b\n")
    with pytest.raises(InputError, match="needs the reference M2"):
        CLEME().prepare(Corpus(["a b"], [["a b"]]))
    prepared = prepared_for(CLEME(), parse_m2(m2(("a b", [])), "r"))
    with pytest.raises(InputError, match="M2 blocks"):
        CLEME().statistics(prepared, ["a b"])
    with pytest.raises(InputError, match=r"prepared must be what its prepare\(\) returned"):
        CLEME().statistics([], parse_m2(m2(("a b", [])), "h"))


def test_empty_references_are_dropped():
    # a reference deleting the whole sentence is dropped, as CLEME does
    ref = m2(("a b", [a_line(0, 1, "A", 0), a_line(0, 2, "-NONE-", 1)]))
    prepared = prepared_for(CLEME(), parse_m2(ref, "r"))
    assert len(prepared.references[0]) == 1
    only_empty = m2(("a b", [a_line(0, 2, "-NONE-", 0)]))
    assert len(prepared_for(CLEME(), parse_m2(only_empty, "r")).references[0]) == 1


# ---------------------------------------------------------------- the official numbers

OFFICIAL_FIELDS = {"cleme": {"F": "f", "P": "precision", "R": "recall", "Acc": "accuracy", "TP": "tp", "FP": "fp",
                             "FN": "fn", "TN": "tn"},
                   "cleme2": {"aggregate": "aggregate", "HC": "hit", "WC": "wrong", "UC": "under", "OC": "over",
                              "TP": "tp", "FP": "fp", "FN": "fn", "TN": "tn", "FP_NE": "fp_necessary",
                              "FP_UN": "fp_unnecessary"}}


def _metric_for(row: dict):
    options = {"assumption": row["assumption"], "level": row["level"], "weighted": row["weights"] == "length"}
    if row["metric"] == "cleme":
        return CLEME(**options)
    factors = CORPUS_FACTORS if row["factors"] == "corpus" else SENTENCE_FACTORS
    return CLEME2(**options, factors=factors)


def _check_rows(rows: list[dict], folder: Path) -> None:
    cache: dict = {}
    mismatches = []
    for row in rows:
        metric = _metric_for(row)
        key = (row["ref"], row["assumption"])
        if key not in cache:
            cache[key] = prepared_for(metric, read_m2(str(folder / row["ref"])), row["ref"])
        statistics_key = (row["hyp"], *key)
        if statistics_key not in cache:
            cache[statistics_key] = metric.statistics(cache[key], read_m2(str(folder / row["hyp"])), row["hyp"])
        ours = metric.score(cache[statistics_key]).rounded(4)
        for column, name in OFFICIAL_FIELDS[row["metric"]].items():
            if round(float(row[column]), 4) != ours[name]:
                mismatches.append((row["hyp"], row["ref"], row["metric"], row["assumption"], row["level"],
                                   row["weights"], column, row[column], ours[name]))
    assert not mismatches, mismatches[:10]


def test_official_numbers_on_conll14_m2(conll14):
    rows = read_tsv(DATA / "cleme_official.tsv")
    assert len(rows) == 96
    _check_rows(rows, conll14)


def _demo_rows() -> list[dict]:
    """The official numbers printed on the demo files (see tests/data/cleme_official.tsv's
    header for how they are made), from the JSON lines of the oracle run."""
    path = ORACLE / "demo_all.jsonl"
    folder = CHECKOUT / "demo" / "examples"
    if not path.exists() or not (folder / "conll14.errant").exists():
        pytest.skip(f"needs a THUKElab/CLEME checkout at {CHECKOUT} (GECMETRICS_CLEME_CHECKOUT) and its numbers in "
                    f"{path} (GECMETRICS_CLEME_ORACLE): not available in CI")
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("{"):
            continue
        run = json.loads(line)
        rows.extend(official_rows(run))
    return rows


def official_rows(run: dict) -> list[dict]:
    """The TSV rows of one oracle run (one hypothesis, reference, assumption, level, scorer)."""
    rows = []
    for key, values in run["scores"].items():
        scorer, level, weighting = key.split("_")
        if scorer == "prf" and level != run["level"]:
            continue  # the same numbers as the run at that level
        row = {"hyp": run["hyp"], "ref": run["ref"], "metric": "cleme" if scorer == "prf" else "cleme2",
               "assumption": run["assumption"], "level": level,
               "weights": "length" if weighting == "weighted" else "none",
               "factors": run["level"] if scorer == "heuo" else "-"}
        names = {"f": "F", "p": "P", "r": "R", "acc": "Acc", "com": "aggregate", "hit": "HC", "err": "WC",
                 "und": "UC", "ove": "OC", "tp": "TP", "fp": "FP", "fn": "FN", "tn": "TN", "fp_ne": "FP_NE",
                 "fp_un": "FP_UN"}
        row.update({names[name]: repr(value) for name, value in values.items() if name in names})
        rows.append(row)
    return rows


def test_official_numbers_on_the_cleme_demo_files():
    rows = _demo_rows()
    assert rows
    _check_rows(rows, CHECKOUT / "demo" / "examples")


def test_the_issue_numbers_for_amu():
    folder = CHECKOUT / "demo" / "examples"
    if not (folder / "conll14.errant").exists():
        pytest.skip(f"needs a THUKElab/CLEME checkout at {CHECKOUT} (GECMETRICS_CLEME_CHECKOUT): not in CI")
    result = cleme_files(str(folder / "conll14-AMU.errant"), str(folder / "conll14.errant"))
    assert result.rounded() == {"f": 0.2514, "precision": 0.2645, "recall": 0.2097, "accuracy": 0.7634,
                                "tp": 313.5092, "fp": 871.7957, "fn": 1181.7112, "tn": 6312.0}


def test_chunk_tables_equal_the_official_visualisation():
    official = ORACLE / "visualization_AMU.txt"
    folder = CHECKOUT / "demo" / "examples"
    if not official.exists() or not (folder / "conll14.errant").exists():
        pytest.skip(f"needs {official} printed by CLEME's visualize.py and a checkout at {CHECKOUT}: not in CI")
    metric = CLEME()
    partitions = metric.partitions(prepared_for(metric, read_m2(str(folder / "conll14.errant"))),
                                   read_m2(str(folder / "conll14-AMU.errant")))
    assert format_chunk_tables(partitions) == official.read_text(encoding="utf-8")
