"""GREEN (SPEC 3): hand-computed regions and scores, the corner cases kept from the original,
reference choice, the shared core with GLEU+ `paper`, and property tests against a slow
pure-Python re-implementation of SPEC 3 written here from the formulas."""
from __future__ import annotations

import math
import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from gecmetrics.errors import InputError
from gecmetrics.metrics import GLEU, GREEN
from gecmetrics.metrics.green.green import REGIONS, order_scores

INF = float("inf")


def corpus_regions(sources, references, hypothesis, n, beta=2.0):
    """Corpus region counts (N, 7) of GREEN(n, beta): the public result's ``regions``."""
    return GREEN(n=n, beta=beta).corpus_score(sources, references, hypothesis).regions[0].tolist()


def score(sources, references, hypothesis, n=4, beta=2.0) -> float:
    return GREEN(n=n, beta=beta).corpus_score(sources, references, hypothesis).score


def f_beta(precision: float, recall: float, beta: float) -> float:
    alpha = 0.0 if math.isinf(beta) else 1 / (beta ** 2 + 1)
    return 1 / (alpha / precision + (1 - alpha) / recall)


# ----------------------------------------------------------------------------- the seven regions


def test_regions_by_hand_aab_abb_abc():
    # S = "a a b", R = "a b b", C = "a b c", N = 2; columns tk td ti od oi ud ui.
    # Order 1 (s, r, c):
    #   a (2, 1, 1): tk = min = 1; td = 2 - max(1, 1) = 1; the rest 0
    #   b (1, 2, 1): tk = 1; ui = 2 - max(1, 1) = 1;      the rest 0
    #   c (0, 0, 1): oi = 1 - max(0, 0) = 1
    #   -> tk 2, td 1, ti 0, od 0, oi 1, ud 0, ui 1: TP 3, FP 1, FN 1, P1 = R1 = 3/4
    # Order 2: S {aa, ab}, R {ab, bb}, C {ab, bc}
    #   aa (1, 0, 0): td 1;  ab (1, 1, 1): tk 1;  bb (0, 1, 0): ui 1;  bc (0, 0, 1): oi 1
    #   -> tk 1, td 1, ti 0, od 0, oi 1, ud 0, ui 1: TP 2, FP 1, FN 1, P2 = R2 = 2/3
    # cumP = cumR = sqrt(3/4 * 2/3) = sqrt(1/2), so F = sqrt(1/2) for every beta.
    metric = GREEN(n=2, beta=[0.5, 2.0])
    encoded = metric.encode(["a a b"], [["a b b"]])
    statistics = metric.statistics(encoded, ["a b c"])
    assert statistics.shape == (1, 1, 14)
    assert metric.region_counts(statistics)[0, 0].tolist() == [[2, 1, 0, 0, 1, 0, 1], [1, 1, 0, 0, 1, 0, 1]]
    result = metric.corpus_score(None, None, ["a b c"], encoded)
    assert result.regions.tolist() == [[[2, 1, 0, 0, 1, 0, 1], [1, 1, 0, 0, 1, 0, 1]]] * 2
    orders = result.orders(1)
    assert orders.precision.tolist() == pytest.approx([3 / 4, 2 / 3], rel=1e-15)
    assert orders.recall.tolist() == pytest.approx([3 / 4, 2 / 3], rel=1e-15)
    assert orders.f.tolist() == pytest.approx([3 / 4, 2 / 3], rel=1e-15)
    assert orders.cumulative_precision.tolist() == pytest.approx([3 / 4, math.sqrt(0.5)], rel=1e-15)
    assert result.scores.tolist() == pytest.approx([math.sqrt(0.5)] * 2, rel=1e-15)


def test_every_region_once():
    # S = "a b d d", R = "a x b b", C = "a x d e", N = 2.
    # Order 1 (s, r, c):
    #   a (1, 1, 1): tk 1
    #   b (1, 2, 0): od = min(1, 2) - 0 = 1; ui = 2 - max(1, 0) = 1
    #   d (2, 0, 1): td = 2 - max(0, 1) = 1; ud = min(2, 1) - 0 = 1
    #   x (0, 1, 1): ti = min(1, 1) - 0 = 1
    #   e (0, 0, 1): oi = 1
    #   -> each region exactly once: TP 3, FP 2, FN 2
    # Order 2: S {ab, bd, dd}, R {ax, xb, bb}, C {ax, xd, de}
    #   ab, bd, dd (1, 0, 0): td 3;  ax (0, 1, 1): ti 1;  xb, bb (0, 1, 0): ui 2;  xd, de (0, 0, 1): oi 2
    #   -> tk 0, td 3, ti 1, od 0, oi 2, ud 0, ui 2: TP 4, FP 2, FN 2
    # P1 = R1 = 3/5, P2 = R2 = 2/3: F = sqrt(3/5 * 2/3) = sqrt(2/5) for every beta.
    regions = corpus_regions(["a b d d"], [["a x b b"]], ["a x d e"], n=2)
    assert regions == [[1, 1, 1, 1, 1, 1, 1], [0, 3, 1, 0, 2, 0, 2]]
    for beta in (0.0, 0.5, 1.0, 2.0, INF):
        assert score(["a b d d"], [["a x b b"]], ["a x d e"], n=2, beta=beta) == pytest.approx(math.sqrt(0.4), rel=1e-15)


def test_region_names_order():
    assert REGIONS == ("tk", "td", "ti", "od", "oi", "ud", "ui")


def test_regions_summed_over_sentences():
    # Corpus regions are sums of the sentence regions (one reference: no choice involved).
    sources, references, hypothesis = ["a a b", "a b d d"], [["a b b", "a x b b"]], ["a b c", "a x d e"]
    assert corpus_regions(sources, references, hypothesis, n=2) == [[3, 2, 1, 1, 2, 1, 2], [1, 4, 1, 0, 3, 0, 3]]


# ----------------------------------------------------------------------------- scores and betas


def test_betas_weight_precision_and_recall():
    # S = "a b", R = "a b c", C = "a b", N = 1: a, b (1, 1, 1) tk; c (0, 1, 0) ui.
    # TP 2, FP 0, FN 1: P = 1, R = 2/3; F_beta = 1 / (alpha + (1 - alpha) * 3/2).
    args = (["a b"], [["a b c"]], ["a b"])
    assert corpus_regions(*args, n=1) == [[2, 0, 0, 0, 0, 0, 1]]
    assert score(*args, n=1, beta=1.0) == pytest.approx(0.8, rel=1e-15)
    assert score(*args, n=1, beta=2.0) == pytest.approx(1 / 1.4, rel=1e-15)
    assert score(*args, n=1, beta=0.5) == pytest.approx(1 / 1.1, rel=1e-15)
    assert score(*args, n=1, beta=INF) == pytest.approx(2 / 3, rel=1e-15)  # F = R
    assert score(*args, n=1, beta=0.0) == 1.0  # F = P


def test_beta_inf_is_cumulative_recall_and_beta_zero_cumulative_precision():
    # The sentence of test_betas_..., N = 2: order 2: ab (1, 1, 1) tk, bc (0, 1, 0) ui:
    # P2 = 1, R2 = 1/2. cumR = sqrt(2/3 * 1/2) = sqrt(1/3); cumP = 1.
    args = (["a b"], [["a b c"]], ["a b"])
    assert score(*args, n=2, beta=INF) == pytest.approx(math.sqrt(1 / 3), rel=1e-15)
    assert score(*args, n=2, beta=0.0) == 1.0
    # C = "a c": order 1: a tk, b (1, 1, 0) od, c (0, 1, 1) ti: P1 = R1 = 2/3;
    # order 2: ab (1, 1, 0) od, bc (0, 1, 0) ui, ac (0, 0, 1) oi: TP 0, so P2 = R2 = 0 and F = 0
    # for every beta, beta = 0 and inf included.
    for beta in (0.0, INF, 2.0):
        assert score(["a b"], [["a b c"]], ["a c"], n=2, beta=beta) == 0.0
    assert score(["a b"], [["a b c"]], ["a c"], n=1, beta=0.0) == pytest.approx(2 / 3, rel=1e-15)


def test_beta_zero_is_zero_when_recall_is_zero():
    # S = "a", R = "a", C = "": a (1, 1, 0) is od: TP 0, FP 1, FN 0: P = 0, R = 0 (TP + FN == 0).
    result = GREEN(n=1, beta=[0.0, INF]).corpus_score(["a"], [["a"]], [""])
    assert result.regions[0].tolist() == [[0, 0, 0, 1, 0, 0, 0]]
    assert result.scores.tolist() == [0.0, 0.0]


def test_precision_one_and_recall_zero_conventions():
    # S = "", R = "x", C = "", N = 2: order 1: x (0, 1, 0) ui: TP 0, FP 0, FN 1 -> P1 = 1 (TP + FP == 0), R1 = 0.
    # Order 2: nothing at all: P2 = 1, R2 = 0 (TP + FN == 0).
    result = GREEN(n=2, beta=2.0).corpus_score([""], [["x"]], [""])
    orders = result.orders()
    assert orders.precision.tolist() == [1.0, 1.0]
    assert orders.recall.tolist() == [0.0, 0.0]
    assert orders.cumulative_precision.tolist() == [1.0, 1.0]
    assert orders.cumulative_recall.tolist() == [0.0, 0.0]
    assert result.score == 0.0
    # S = "a", R = "a", C = "b a", N = 2: order 1: a (1, 1, 1) tk, b (0, 0, 1) oi: P1 = 1/2, R1 = 1;
    # order 2: "b a" (0, 0, 1) oi: TP 0, FP 1, FN 0 -> P2 = 0, R2 = 0 (TP + FN == 0).
    result = GREEN(n=2, beta=2.0).corpus_score(["a"], [["a"]], ["b a"])
    assert result.regions[0].tolist() == [[1, 0, 0, 0, 1, 0, 0], [0, 0, 0, 0, 1, 0, 0]]
    orders = result.orders()
    assert orders.precision.tolist() == [0.5, 0.0]
    assert orders.recall.tolist() == [1.0, 0.0]
    assert orders.cumulative_f.tolist()[1] == 0.0
    # The same conventions through order_scores on raw counts: TP = FP = FN = 0 gives P 1, R 0.
    orders = order_scores(np.zeros((1, 7), dtype=np.int64), alpha=0.2)
    assert (orders.precision.tolist(), orders.recall.tolist(), orders.f.tolist()) == ([1.0], [0.0], [0.0])


def test_short_sentences_score_zero_even_when_correct():
    # SPEC 3.2: fewer than N units in S, R and C: no 4-grams, R4 = 0 (TP + FN == 0), F = 0.
    assert score(["a b c"], [["a b d"]], ["a b d"], n=4) == 0.0
    assert score(["a b c"], [["a b d"]], ["a b d"], n=3) == 1.0
    # One unit longer in the reference is enough for a 4-gram (under insert): still 0.
    assert score(["a b c"], [["a b d e"]], ["a b d"], n=4) == 0.0
    # In char mode the characters count: "a b d" has 5 units, so N = 4 works.
    assert GREEN(n=4, unit="char").corpus_score(["a b c"], [["a b d"]], ["a b d"]).score == 1.0
    # A short sentence does not spoil the corpus: its (zero) counts simply add up.
    assert score(["a b c", "x y z w"], [["a b d", "x y z w v"]], ["a b d", "x y z w v"], n=4) == 1.0


def test_identical_correction_and_reference_score_one():
    # Every n-gram of C == R is tk or ti, every other source n-gram td: all TP.
    for beta in (0.0, 0.5, 1.0, 2.0, INF):
        assert score(["x y z w v"], [["a b c d e"]], ["a b c d e"], beta=beta) == 1.0
        assert score(["a b c d e"], [["a b c d e"]], ["a b c d e"], beta=beta) == 1.0


def test_empty_correction():
    # S = "a b", R = "a", C = "", N = 1: a (1, 1, 0) od; b (1, 0, 0) td.
    # TP 1, FP 1, FN 0: P = 1/2, R = 1; F2 = 1 / (0.2 / 0.5 + 0.8) = 1 / 1.2.
    assert corpus_regions(["a b"], [["a"]], [""], n=1) == [[0, 1, 0, 1, 0, 0, 0]]
    assert score(["a b"], [["a"]], [""], n=1) == pytest.approx(1 / 1.2, rel=1e-15)
    # Deleting everything when the reference keeps everything: TP 0.
    assert score(["a b c d"], [["a b c d"]], [""]) == 0.0


def test_empty_source():
    # S = "", R = "a b", C = "a c", N = 1: a (0, 1, 1) ti; b (0, 1, 0) ui; c (0, 0, 1) oi.
    # TP 1, FP 1, FN 1: P = R = 1/2 = F.
    assert corpus_regions([""], [["a b"]], ["a c"], n=1) == [[0, 0, 1, 0, 1, 0, 1]]
    assert score([""], [["a b"]], ["a c"], n=1) == 0.5


def test_all_empty_and_empty_corpus():
    assert score([""], [[""]], [""]) == 0.0
    with pytest.raises(InputError, match="no sentences"):  # issue 12: nothing to score is an error
        GREEN(beta=[1.0, 2.0]).corpus_score([], [[]], [])
    with pytest.raises(InputError, match="no sentences"):
        GREEN().sentence_scores([], [[]], [])


def test_f_is_weighted_harmonic_mean_of_cumulative_p_and_r():
    # S = "b a c", R = "a c", C = "c", N = 2 (worked out in test_betas_choose_references_separately):
    # P1 = 2/3, R1 = 1; P2 = 1/2, R2 = 1: cumP = sqrt(1/3), cumR = 1.
    for beta in (0.5, 1.0, 2.0, 3.0):
        expected = f_beta(math.sqrt(1 / 3), 1.0, beta)
        assert score(["b a c"], [["a c"]], ["c"], n=2, beta=beta) == pytest.approx(expected, rel=1e-14)


# ----------------------------------------------------------------------------- reference choice


def test_tie_on_full_order_broken_by_lower_orders_from_high_to_low():
    # S = "c c", C = "c b", N = 3 (beta 2, alpha 0.2). Order 3 has no TP for either reference,
    # so F(1..3) = 0 for both: the tie is broken by F(1..2) first, then F(1..1).
    # Reference A = "c b b b":
    #   order 1: c (2, 1, 1) tk 1 td 1; b (0, 3, 1) ti 1 ui 2: TP 3, FP 0, FN 2: P1 = 1, R1 = 3/5
    #     F(1..1) = 1 / (0.2 + 0.8 * 5/3) = 0.6522
    #   order 2: cc (1, 0, 0) td; cb (0, 1, 1) ti; bb (0, 2, 0) ui 2: P2 = 1, R2 = 1/2
    #     F(1..2) = 1 / (0.2 + 0.8 / sqrt(3/10)) = 0.6022
    # Reference B = "":
    #   order 1: c (2, 0, 1) td 1 ud 1; b (0, 0, 1) oi 1: P1 = R1 = 1/2, F(1..1) = 0.5
    #   order 2: cc (1, 0, 0) td; cb (0, 0, 1) oi: P2 = 1/2, R2 = 1
    #     F(1..2) = 1 / (0.2 / (1/2) + 0.8 / sqrt(1/2)) = 0.6530
    # [0, 0.6022, 0.6522] < [0, 0.6530, 0.5]: B wins although it loses on F(1..1) and comes second.
    sources, hypothesis = ["c c"], ["c b"]
    metric = GREEN(n=3, beta=2.0)
    encoded = metric.encode(sources, [["c b b b"], [""]])
    statistics = metric.statistics(encoded, hypothesis)
    f = metric.sentence_f(statistics, 2.0)[0]
    assert f[:, 2].tolist() == [0.0, 0.0]
    assert f[0, :2].tolist() == pytest.approx([1 / (0.2 + 0.8 * 5 / 3), 1 / (0.2 + 0.8 / math.sqrt(0.3))], rel=1e-14)
    assert f[1, :2].tolist() == pytest.approx([0.5, 1 / (0.4 + 0.8 / math.sqrt(0.5))], rel=1e-14)
    assert metric.corpus_score(None, None, hypothesis, encoded).chosen_references.tolist() == [[1]]
    assert metric.sentence_scores(None, None, hypothesis, encoded).chosen_references.tolist() == [[1]]
    # Swapped, A is second and loses again.
    assert metric.corpus_score(sources, [[""], ["c b b b"]], hypothesis).chosen_references.tolist() == [[0]]
    # The choice decides the corpus regions (those of B).
    assert metric.corpus_score(None, None, hypothesis, encoded).regions[0].tolist() == [
        [0, 1, 0, 0, 1, 1, 0], [0, 1, 0, 0, 1, 0, 0], [0, 0, 0, 0, 0, 0, 0]]


def test_full_tie_goes_to_first_reference():
    # S = "a b c", C = "a b"; "a b p q" and "a b q p" give the same counts in every region
    # (order 1: a, b tk, c td, p, q ui; order 2: ab tk, bc td, bp/bq and pq/qp ui), F > 0:
    # the first wins, whichever it is.
    metric = GREEN(n=2, beta=[1.0, 2.0])
    for references in ([["a b p q"], ["a b q p"]], [["a b q p"], ["a b p q"]]):
        result = metric.corpus_score(["a b c"], references, ["a b"])
        assert result.chosen_references.tolist() == [[0], [0]]
        assert result.regions[0].tolist() == [[2, 1, 0, 0, 0, 0, 2], [1, 1, 0, 0, 0, 0, 2]]
    # Identical references, three of them.
    result = metric.corpus_score(["a b c"], [["a c"], ["a c"], ["a c"]], ["a b"])
    assert result.chosen_references.tolist() == [[0], [0]]
    # The better reference wins wherever it is.
    for position in range(3):
        references = [["x y"], ["x y"], ["x y"]]
        references[position] = ["a b"]
        result = metric.corpus_score(["a b c"], references, ["a b"])
        assert result.chosen_references.tolist() == [[position], [position]]


def test_betas_choose_references_separately():
    # S = "b a c", C = "c", N = 2, references A = "c c" and B = "a c".
    # A: order 1: b, a (1, 0, 0) td 2; c (1, 2, 1) tk 1 ui 1: P1 = 1, R1 = 3/4
    #    order 2: ba, ac (1, 0, 0) td 2; cc (0, 1, 0) ui 1: P2 = 1, R2 = 2/3 -> cumP 1, cumR sqrt(1/2)
    # B: order 1: b (1, 0, 0) td; a (1, 1, 0) od; c (1, 1, 1) tk: P1 = 2/3, R1 = 1
    #    order 2: ba (1, 0, 0) td; ac (1, 1, 0) od: P2 = 1/2, R2 = 1 -> cumP sqrt(1/3), cumR 1
    # F0.5: A 0.9235 > B 0.6307;  F2: A 0.7511 < B 0.8723.
    a_scores = [f_beta(1.0, math.sqrt(0.5), b) for b in (0.5, 2.0)]
    b_scores = [f_beta(math.sqrt(1 / 3), 1.0, b) for b in (0.5, 2.0)]
    sources, references, hypothesis = ["b a c"], [["c c"], ["a c"]], ["c"]
    result = GREEN(n=2, beta=[0.5, 2.0]).corpus_score(sources, references, hypothesis)
    assert result.chosen_references.tolist() == [[0], [1]]
    assert result.scores.tolist() == pytest.approx([a_scores[0], b_scores[1]], rel=1e-14)
    assert result.regions[0].tolist() == [[1, 2, 0, 0, 0, 0, 1], [0, 2, 0, 0, 0, 0, 1]]
    assert result.regions[1].tolist() == [[1, 1, 0, 1, 0, 0, 0], [0, 1, 0, 1, 0, 0, 0]]
    # Asking for several betas at once gives what each beta gives alone.
    for k, beta in enumerate((0.5, 2.0)):
        alone = GREEN(n=2, beta=beta).corpus_score(sources, references, hypothesis)
        assert alone.scores[0] == result.scores[k]
        assert alone.chosen_references.tolist() == [result.chosen_references[k].tolist()]
    sentences = GREEN(n=2, beta=[0.5, 2.0]).sentence_scores(sources, references, hypothesis)
    assert sentences.chosen_references.tolist() == [[0], [1]]
    assert sentences.scores[:, 0].tolist() == pytest.approx([a_scores[0], b_scores[1]], rel=1e-14)


def test_corpus_sums_regions_of_chosen_references_not_best_corpus():
    # Sentence 1 prefers reference 0, sentence 2 reference 1: the corpus mixes them.
    sources = ["a b", "c d"]
    references = [["a b", "x y"], ["z w", "c d"]]
    hypothesis = ["a b", "c d"]
    result = GREEN(n=2).corpus_score(sources, references, hypothesis)
    assert result.chosen_references.tolist() == [[0, 1]]
    assert result.score == 1.0


# ----------------------------------------------------------------------------- API details


def test_sentence_scores_and_mean():
    sources = ["a a b", "a b d d", "c c"]
    references = [["a b b", "a x b b", "c b b b"]]
    hypothesis = ["a b c", "a x d e", "c b"]
    sentences = GREEN(n=2, beta=[1.0, 2.0]).sentence_scores(sources, references, hypothesis)
    assert sentences.scores.shape == (2, 3)
    for d in range(3):
        alone = score([sources[d]], [[references[0][d]]], [hypothesis[d]], n=2, beta=2.0)
        assert sentences.scores[1, d] == alone
    assert sentences.scores[0, :2].tolist() == pytest.approx([math.sqrt(0.5), math.sqrt(0.4)], rel=1e-15)
    assert sentences.mean.tolist() == pytest.approx(sentences.scores.mean(axis=1).tolist(), rel=1e-15)


def test_char_unit_counts_characters_and_spaces():
    # "ab" vs "a b": in char mode the space is a unit; in word mode the two differ entirely.
    word = GREEN(n=1).corpus_score(["ab"], [["a b"]], ["a b"]).regions[0].tolist()
    char = GREEN(n=1, unit="char").corpus_score(["ab"], [["a b"]], ["a b"]).regions[0].tolist()
    assert word == [[0, 1, 2, 0, 0, 0, 0]]  # ab td; a, b ti
    assert char == [[2, 0, 1, 0, 0, 0, 0]]  # a, b tk; " " ti
    # Trailing spaces count unless normalized.
    plain = GREEN(n=1, unit="char").corpus_score(["ab"], [["ab"]], ["ab "])
    normalized = GREEN(n=1, unit="char", normalize_space=True).corpus_score(["ab"], [["ab"]], ["ab "])
    assert plain.regions[0].tolist() == [[2, 0, 0, 0, 1, 0, 0]]
    assert normalized.score == 1.0 and plain.score < 1.0


@pytest.mark.parametrize("beta", [-1, -0.5, "x", None, float("nan"), "-inf"])
def test_bad_beta(beta):
    with pytest.raises(InputError, match="beta"):
        GREEN(beta=beta)


def test_bad_settings():
    with pytest.raises(InputError):
        GREEN(n=0)
    with pytest.raises(InputError):
        GREEN(beta=[])
    with pytest.raises(InputError):
        GREEN(unit="byte")
    with pytest.raises(InputError, match="has 2 lines but the source has 3"):
        GREEN().corpus_score(["a", "b", "c"], [["a", "b", "c"]], ["a", "b"])
    with pytest.raises(InputError):
        GREEN().corpus_score(["a", "b"], [["a"]], ["a", "b"])


def test_beta_strings_and_signature():
    metric = GREEN(beta=["0.5", "inf", 2])
    assert metric.betas == [0.5, INF, 2.0]
    assert metric.signature(2) == "GREEN|beta:0.5,inf,2|n:4|unit:word|refs:2|version:0.1.0"
    assert "space:normalized" in GREEN(unit="char", normalize_space=True).signature(1)
    # beta = inf: F = cumulative recall. S = C = "a b c d", R = "a b c e", N = 2:
    # order 1: a, b, c tk, d (1, 0, 1) ud, e (0, 1, 0) ui: R1 = 3/5 (P1 = 1);
    # order 2: ab, bc tk, cd ud, ce ui: R2 = 1/2. F = sqrt(3/10), and a huge beta tends to it.
    args = (["a b c d"], [["a b c e"]], ["a b c d"])
    assert score(*args, n=2, beta=INF) == pytest.approx(math.sqrt(0.3), rel=1e-15)
    assert score(*args, n=2, beta=1e6) == pytest.approx(math.sqrt(0.3), rel=1e-11)


# ----------------------------------------------------------------------------- shared core with GLEU+ paper


SHARED_CORE_CORPUS = (
    ["This are a test sentence .", "He go to school every days .", "I like the the cats", "", "a b a b a b"],
    [["This is a test sentence .", "He goes to school every day .", "I like the cats", "Hello .", "a b a b"],
     ["This is a test .", "He went to the school every day .", "I like cats", "", "b a b a b a b"]],
    ["This is a test sentence .", "He go to school every day", "I the like the cats the", "Hi", "a a b b a b"],
)


def check_paper_gleu_from_regions(sources, references, hypothesis, n):
    """GLEU+ paper per order from GREEN's regions (derivation in test_paper_gleu_equals_regions):
    match = TK + TI, penalty = UD, numerator = TK + TI - UD, denominator = TK + TI + OI + UD."""
    gleu = GLEU(variant="paper", n=n)
    green = GREEN(n=n)
    encoded = gleu.encode(sources, references)
    gleu_stats = gleu.statistics(encoded, hypothesis)
    green_regions = green.region_counts(green.statistics(encoded, hypothesis))
    tk, td, ti, od, oi, ud, ui = np.moveaxis(green_regions, -1, 0)  # each (D, R, N)
    _, _, match, penalty, numerator, denominator = gleu.split_statistics(gleu_stats)
    np.testing.assert_array_equal(match, tk + ti)
    np.testing.assert_array_equal(penalty, ud)
    np.testing.assert_array_equal(numerator, tk + ti - ud)
    np.testing.assert_array_equal(denominator, tk + ti + oi + ud)
    # And with one reference (no sampling) the corpus p_n of GLEU+ paper is the region ratio.
    for r in range(len(references)):
        one = [references[r]]
        result = GLEU(variant="paper", n=n).corpus_score(sources, one, hypothesis)
        regions = GREEN(n=n).corpus_score(sources, one, hypothesis).regions[0]
        tk, td, ti, od, oi, ud, ui = regions.T
        np.testing.assert_array_equal(result.numerator, tk + ti - ud)
        np.testing.assert_array_equal(result.denominator, tk + ti + oi + ud)
    return gleu_stats, green_regions


def test_paper_gleu_equals_regions():
    # Per n-gram with counts (s, r, c), SPEC 2.1 paper: match = min(r, c),
    # penalty = max(0, min(s, c) - min(r, c)), denominator = c.
    # * TK + TI = min(s, r, c) + max(0, min(r, c) - s) = min(r, c): if s >= min(r, c) it is
    #   min(r, c) + 0, else s + (min(r, c) - s).
    # * UD = max(0, min(s, c) - r) equals the penalty: if r <= c, min(r, c) = r; if c < r, both
    #   are 0 since min(s, c) <= c < r.
    # * TK + TI + OI + UD = c, by the six orderings of (s, r, c):
    #   s<=r<=c: s + (r-s) + (c-r) + 0;  s<=c<=r: s + (c-s) + 0 + 0;  r<=s<=c: r + 0 + (c-s) + (s-r);
    #   r<=c<=s: r + 0 + 0 + (c-r);      c<=s<=r: c + 0 + 0 + 0;      c<=r<=s: c + 0 + 0 + 0.
    # (OD and TD are not hypothesis n-grams: OD is kept source the system removed, TD the source
    # both removed.) So numerator = TK + TI - UD, p_n = (TK + TI - UD) / (TK + TI + OI + UD).
    gleu_stats, regions = check_paper_gleu_from_regions(*SHARED_CORE_CORPUS, n=4)
    # A case with a non-zero penalty and a negative numerator (paper has no clamp):
    assert (gleu_stats[..., 2 + 4:2 + 8] > 0).any()
    sources, references, hypothesis = ["a a"], [["b b"]], ["a a"]
    gleu_stats, regions = check_paper_gleu_from_regions(sources, references, hypothesis, n=1)
    assert regions[0, 0].tolist() == [[0, 0, 0, 0, 0, 2, 2]]  # a (2, 0, 2) ud 2; b (0, 2, 0) ui 2
    assert GLEU(variant="paper", n=1).statistics(GLEU(variant="paper", n=1).encode(sources, references),
                                                  hypothesis)[0, 0].tolist() == [2, 2, 0, 2, -2, 2]


def test_paper_penalty_example_from_gleu_readme():
    # (sigma, rho, eta) = (2, 1, 3) for one unigram: paper penalty 1 (= UD = min(2, 3) - 1).
    regions = corpus_regions(["a a"], [["a"]], ["a a a"], n=1)
    assert regions == [[1, 0, 0, 0, 1, 1, 0]]  # tk 1, oi 3 - 2 = 1, ud min(2, 3) - 1 = 1
    check_paper_gleu_from_regions(["a a"], [["a"]], ["a a a"], n=1)


words = st.sampled_from(["a", "b", "c"])
sentences = st.lists(words, min_size=0, max_size=7).map(" ".join)


@st.composite
def corpora(draw, max_sentences=4, max_references=3):
    size = draw(st.integers(1, max_sentences))
    n_refs = draw(st.integers(1, max_references))
    sources = draw(st.lists(sentences, min_size=size, max_size=size))
    references = [draw(st.lists(sentences, min_size=size, max_size=size)) for _ in range(n_refs)]
    hypothesis = draw(st.lists(sentences, min_size=size, max_size=size))
    return sources, references, hypothesis


@settings(max_examples=80, deadline=None)
@given(corpora(), st.integers(1, 4))
def test_paper_gleu_equals_regions_property(corpus, n):
    check_paper_gleu_from_regions(*corpus, n=n)


# ----------------------------------------------------------------------------- property tests


def reference_regions(source: str, reference: str, correction: str, n: int, unit: str = "word") -> list[list[int]]:
    """SPEC 3.1 with Counters: region counts per order 1..n of one sentence."""
    def grams(line, order):
        units = line.split() if unit == "word" else list(line)
        return Counter(tuple(units[i:i + order]) for i in range(len(units) - order + 1))

    out = []
    for order in range(1, n + 1):
        s_counts, r_counts, c_counts = grams(source, order), grams(reference, order), grams(correction, order)
        totals = [0] * 7
        for g in set(s_counts) | set(r_counts) | set(c_counts):
            s, r, c = s_counts[g], r_counts[g], c_counts[g]
            for k, value in enumerate((min(s, r, c), max(0, s - max(r, c)), max(0, min(r, c) - s),
                                       max(0, min(s, r) - c), max(0, c - max(s, r)), max(0, min(s, c) - r),
                                       max(0, r - max(s, c)))):
                totals[k] += value
        out.append(totals)
    return out


def reference_cumulative_f(region_counts: list[list[int]], beta: float) -> list[float]:
    """SPEC 3.2: [F(1..1), ..., F(1..N)], with the original's NumPy operations: the geometric means
    are np.exp of the cumulative sums of np.log over an (N, 2) array of (P, R), as GREEN's
    n_accum_to_gmeanf computes them. Two references can tie exactly (P 1/2, R 1/7 and P 1/3,
    R 1/6 both give F1 = 2/9), and then the last bit of NumPy's exp and log decides which one
    the original keeps (math.exp and math.log can round the other way)."""
    alpha = 0.0 if math.isinf(beta) else 1 / (beta ** 2 + 1)
    rows = []
    for tk, td, ti, od, oi, ud, ui in region_counts:
        tp, fp, fn = tk + td + ti, od + oi, ud + ui
        rows.append((tp / (tp + fp) if tp + fp else 1.0, tp / (tp + fn) if tp + fn else 0.0))
    with np.errstate(divide="ignore"):
        logs = np.log(np.array(rows, dtype=float))
    means = np.exp(logs.cumsum(axis=0) / np.arange(1, len(rows) + 1)[:, np.newaxis])
    return [0.0 if p == 0 or r == 0 else float(1 / (alpha / p + (1 - alpha) / r)) for p, r in means.tolist()]


def reference_green(sources, references, hypothesis, n, beta, unit="word"):
    """SPEC 3.3: (corpus score, sentence scores, chosen references)."""
    total = [[0] * 7 for _ in range(n)]
    sentence_scores, chosen = [], []
    for d, (source, correction) in enumerate(zip(sources, hypothesis)):
        best, best_key, best_regions = 0, None, None
        for r, reference in enumerate(references):
            regions = reference_regions(source, reference[d], correction, n, unit)
            key = reference_cumulative_f(regions, beta)[::-1]
            if best_key is None or key > best_key:
                best, best_key, best_regions = r, key, regions
        chosen.append(best)
        sentence_scores.append(best_key[0])
        total = [[a + b for a, b in zip(x, y)] for x, y in zip(total, best_regions)]
    return reference_cumulative_f(total, beta)[-1], sentence_scores, chosen, total


BETAS = [0.0, 0.5, 1.0, 2.0, INF]


def assert_same_as_reference(sources, references, hypothesis, n, unit="word"):
    metric = GREEN(n=n, beta=BETAS, unit=unit)
    corpus = metric.corpus_score(sources, references, hypothesis)
    sentences = metric.sentence_scores(sources, references, hypothesis)
    for k, beta in enumerate(BETAS):
        expected_score, expected_sentences, expected_chosen, expected_regions = reference_green(
            sources, references, hypothesis, n, beta, unit)
        assert corpus.chosen_references[k].tolist() == expected_chosen, beta
        assert sentences.chosen_references[k].tolist() == expected_chosen, beta
        assert corpus.regions[k].tolist() == expected_regions
        assert math.isclose(corpus.scores[k], expected_score, rel_tol=1e-12, abs_tol=0.0), beta
        for got, want in zip(sentences.scores[k].tolist(), expected_sentences):
            assert math.isclose(got, want, rel_tol=1e-12, abs_tol=0.0), beta


@settings(max_examples=120, deadline=None)
@given(corpora(), st.integers(1, 4))
@example((["", "a a b b b b b", ""], [["", "", ""], ["", "a a", ""]], ["", "a b b b b b b", ""]), 1)  # an exact tie
def test_same_as_pure_python_reference(corpus, n):
    assert_same_as_reference(*corpus, n=n)


char_sentences = st.text(alphabet="ab ", max_size=8)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(char_sentences, char_sentences, char_sentences, char_sentences), min_size=1, max_size=3),
       st.integers(1, 4))
def test_same_as_pure_python_reference_char(rows, n):
    sources = [row[0] for row in rows]
    references = [[row[1] for row in rows], [row[2] for row in rows]]
    hypothesis = [row[3] for row in rows]
    assert_same_as_reference(sources, references, hypothesis, n, unit="char")


def test_same_as_pure_python_reference_random_larger():
    # A larger corpus than hypothesis draws: 60 sentences, 3 references, repeated words.
    rng = random.Random(7)

    def sentence():
        return " ".join(rng.choice("abcd") for _ in range(rng.randint(0, 12)))

    sources = [sentence() for _ in range(60)]
    references = [[sentence() if rng.random() < 0.5 else s for s in sources] for _ in range(3)]
    hypothesis = [sentence() if rng.random() < 0.3 else s for s in sources]
    for n in (1, 2, 4):
        assert_same_as_reference(sources, references, hypothesis, n)


@settings(max_examples=80, deadline=None)
@given(corpora(), st.integers(1, 4))
def test_regions_add_up_to_ngram_counts(corpus, n):
    # From SPEC 3.1, for every n-gram (same case analysis as for the hypothesis count):
    #   TK + TD + OD + UD = s,   TK + TI + OD + UI = r,   TK + TI + OI + UD = c.
    # (e.g. s: s<=r<=c: s + 0 + 0 + 0; r<=s<=c: r + 0 + 0 + (s-r); c<=r<=s: c + (s-r) + (r-c) + 0.)
    sources, references, hypothesis = corpus
    metric = GREEN(n=n)
    encoded = metric.encode(sources, references)
    regions = metric.region_counts(metric.statistics(encoded, hypothesis))  # (D, R, N, 7)
    tk, td, ti, od, oi, ud, ui = np.moveaxis(regions, -1, 0)
    assert (regions >= 0).all()

    def ngram_counts(lines):  # (D, N)
        return np.array([[max(0, len(line.split()) - order + 1) for order in range(1, n + 1)] for line in lines])

    for r, reference in enumerate(references):
        np.testing.assert_array_equal(tk[:, r] + td[:, r] + od[:, r] + ud[:, r], ngram_counts(sources))
        np.testing.assert_array_equal(tk[:, r] + ti[:, r] + od[:, r] + ui[:, r], ngram_counts(reference))
        np.testing.assert_array_equal(tk[:, r] + ti[:, r] + oi[:, r] + ud[:, r], ngram_counts(hypothesis))


@settings(max_examples=80, deadline=None)
@given(corpora(), st.integers(1, 4))
def test_scores_between_zero_and_one(corpus, n):
    metric = GREEN(n=n, beta=BETAS)
    result = metric.corpus_score(*corpus)
    assert ((result.scores >= 0) & (result.scores <= 1)).all()
    sentences = metric.sentence_scores(*corpus).scores
    assert not np.isnan(sentences).any()
    assert ((sentences >= 0) & (sentences <= 1)).all()
    # A correction equal to its (only) reference scores 1 when every sentence is long enough.
    sources, references, hypothesis = corpus
    if all(len(line.split()) >= n for line in references[0]):
        assert metric.corpus_score(sources, [references[0]], references[0]).scores.tolist() == [1.0] * len(BETAS)


@settings(max_examples=50, deadline=None)
@given(corpora(max_sentences=6), st.integers(1, 4), st.randoms(use_true_random=False))
def test_sentence_order_does_not_matter(corpus, n, rng):
    sources, references, hypothesis = corpus
    order = list(range(len(sources)))
    rng.shuffle(order)
    metric = GREEN(n=n, beta=BETAS)
    before = metric.corpus_score(sources, references, hypothesis)
    after = metric.corpus_score([sources[i] for i in order], [[ref[i] for i in order] for ref in references],
                                [hypothesis[i] for i in order])
    assert after.scores.tolist() == before.scores.tolist()
    assert after.chosen_references.tolist() == before.chosen_references[:, order].tolist()
    means = metric.sentence_scores(sources, references, hypothesis).mean
    shuffled = metric.sentence_scores([sources[i] for i in order], [[ref[i] for i in order] for ref in references],
                                      [hypothesis[i] for i in order]).mean
    np.testing.assert_allclose(shuffled, means, rtol=1e-12)
