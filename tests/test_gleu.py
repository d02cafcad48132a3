"""GLEU+ on hand-computed cases (SPEC 2), and the reference draws of gec-ranking."""
from __future__ import annotations

import math
import random

import numpy as np
import pytest

from gecmetrics import GLEU, GLEU2015, InputError
from gecmetrics.core.aggregate import python2_draws, sum_selected


def stats_row(metric: GLEU, source: str, references: list[str], hypothesis: str) -> np.ndarray:
    encoded = metric.encode([source], [[r] for r in references])
    return metric.statistics(encoded, [hypothesis])[0]


def parts(metric: GLEU, row: np.ndarray) -> dict:
    n = metric.n
    return {"hlen": int(row[0]), "rlen": int(row[1]), "match": list(row[2:2 + n]),
            "penalty": list(row[2 + n:2 + 2 * n]), "numerator": list(row[2 + 2 * n:2 + 3 * n]),
            "denominator": list(row[2 + 3 * n:2 + 4 * n])}


def test_spec_example_official_and_paper_penalties():
    """(sigma, rho, eta) = (2, 1, 3): official penalty 0 (the n-gram is in the reference),
    paper penalty max(0, min(2, 3) - min(1, 3)) = 1."""
    official = parts(GLEU(n=1), stats_row(GLEU(n=1), "a a", ["a"], "a a a")[0])
    paper = parts(GLEU("paper", n=1), stats_row(GLEU("paper", n=1), "a a", ["a"], "a a a")[0])
    assert official == {"hlen": 3, "rlen": 1, "match": [1], "penalty": [0], "numerator": [1], "denominator": [3]}
    assert paper["penalty"] == [1] and paper["numerator"] == [0]


def test_penalty_for_unchanged_source_ngram():
    # S = a b c, R = a x c, H = a b c: b should have changed; match a, c = 2; penalty b = 1.
    metric = GLEU(n=1)
    p = parts(metric, stats_row(metric, "a b c", ["a x c"], "a b c")[0])
    assert p["match"] == [2] and p["penalty"] == [1] and p["numerator"] == [1] and p["denominator"] == [3]
    result = metric.corpus_score(["a b c"], [["a x c"]], ["a b c"])
    assert result.score == pytest.approx(1 / 3, abs=1e-15)


def test_official_clamps_per_sentence_paper_does_not():
    # S = a a b, R = a, H = b b: official penalty min(1, 2) = 1 > match 0 -> clamped to 0;
    # paper: penalty max(0, min(1,2) - 0) = 1 for b; numerator -1 stays negative.
    official = GLEU(n=1)
    paper = GLEU("paper", n=1)
    assert parts(official, stats_row(official, "a a b", ["a"], "b b")[0])["numerator"] == [0]
    assert parts(paper, stats_row(paper, "a a b", ["a"], "b b")[0])["numerator"] == [-1]
    # a negative corpus numerator gives 0 for the paper variant
    assert paper.corpus_score(["a a b"], [["a"]], ["b b"]).score == 0.0


def test_sentence_with_brevity_penalty():
    # H = the cat sat, R = the cat sat down: p1 = p2 = 1, BP = exp(1 - 4/3)
    metric = GLEU(n=2)
    scores = metric.sentence_scores(["the cat sat"], [["the cat sat down"]], ["the cat sat"])
    assert scores.scores[0] == pytest.approx(math.exp(1 - 4 / 3), rel=1e-15)
    corpus = metric.corpus_score(["the cat sat"], [["the cat sat down"]], ["the cat sat"])
    assert corpus.score == pytest.approx(math.exp(1 - 4 / 3), rel=1e-15)
    assert corpus.iterations == 1  # one reference: nothing to sample


def test_empty_hypothesis_and_empty_reference():
    metric = GLEU()
    # empty hypothesis, non-empty reference: sentence score 0 (BP term -inf); corpus 0 (Hlen = 0)
    assert metric.sentence_scores(["a b"], [["a b"]], [""]).scores[0] == 0.0
    assert metric.corpus_score(["a b"], [["a b"]], [""]).score == 0.0
    # empty hypothesis and empty reference: sentence score 1 (gleu package conventions), corpus 0
    assert metric.sentence_scores(["a b"], [[""]], [""]).scores[0] == 1.0
    assert metric.corpus_score(["a b"], [[""]], [""]).score == 0.0


def test_sentence_shorter_than_n():
    # 2 tokens, n = 4: orders 3 and 4 have no n-grams: p = 1 at sentence level, corpus 0.
    metric = GLEU()
    assert metric.sentence_scores(["a b"], [["a b"]], ["a b"]).scores[0] == 1.0
    assert metric.corpus_score(["a b"], [["a b"]], ["a b"]).score == 0.0


def test_one_reference_one_iteration_equals_best():
    sources = ["a b c d e", "f g h i j"]
    refs = [["a b x d e", "f g h i k"]]
    hyps = ["a b x d e", "f g h i j"]
    sampled = GLEU(fix_seed=True).corpus_score(sources, refs, hyps)
    best = GLEU(best_reference=True).corpus_score(sources, refs, hyps)
    assert sampled.iterations == 1 and sampled.std == 0.0
    assert sampled.score == best.score > 0


def test_best_reference_ties_go_to_lower_orders_then_first():
    metric = GLEU(n=2, best_reference=True)
    # same sentence GLEU? identical references tie on everything -> first reference
    stats = metric.statistics(metric.encode(["a b c"], [["a b d"], ["a b d"]]), ["a b c"])
    assert metric.best_references(stats)[0] == 0
    # the second reference is strictly better -> chosen
    stats = metric.statistics(metric.encode(["a b c"], [["x y z"], ["a b c"]]), ["a b c"])
    assert metric.best_references(stats)[0] == 1


def test_gleu0_hand_computed():
    # S = a b, refs a c / a d, H = a b, n = 1: merged ref a c d; reference-only c, d; source-only b.
    # numerator = 0 + max(0, 1 - lambda * 1), denominator = 0 + 2, lengths 2 and 2.
    sources, refs, hyps = ["a b"], [["a c"], ["a d"]], ["a b"]
    assert GLEU2015(n=1).corpus_score(sources, refs, hyps).score == pytest.approx(0.5)
    assert GLEU2015(n=1, lambda_=0.5).corpus_score(sources, refs, hyps).score == pytest.approx(0.25)
    assert GLEU2015(n=1, lambda_=1).corpus_score(sources, refs, hyps).score == 0.0
    # H = a c makes a reference-only change: numerator 1 + max(0, 2 - 0) = 3, denominator 1 + 2 = 3
    assert GLEU2015(n=1).corpus_score(sources, refs, ["a c"]).score == 1.0
    # H = a c c: reference-only min(2, 1) = 1; merged matches a + c = 2; denominator 1 + 3; lengths
    # closest reference 2 vs 3 tokens: BP term min(0, 1 - 3/2) = -0.5
    assert GLEU2015(n=1).corpus_score(sources, refs, ["a c c"]).score == pytest.approx(0.75 * math.exp(-0.5))


def test_gleu0_sentence_scores_are_original_gleus_debug_lines():
    """GLEU 2015 has no gleu-package sentence score: its sentence scores are original_gleu's
    --debug lines, its corpus formula on one sentence, 0 when any statistic is 0 (an order
    without n-grams, an empty hypothesis). We printed 1 for the last two lines (p_n = 1).
    Oracle: gec-ranking scripts/original_gleu under Python 2.7,
    `compute_gleu -s S -r R0 R1 -o H -l 0.5 -d` printed 0.759836, 0.000000, 0.000000."""
    sources = ["a b c d e", "a b", "x y z w"]
    references = [["a b c d f", "a c", "x y z w"], ["a b c d e f", "a b", "x y w"]]
    hypothesis = ["a b c d e g", "a c", ""]
    metric = GLEU2015(lambda_=0.5)
    scores = metric.sentence_scores(sources, references, hypothesis)
    assert [f"{x:.6f}" for x in scores.scores] == ["0.759836", "0.000000", "0.000000"]
    stats = metric.statistics(metric.encode(sources, references), hypothesis)
    # the verbose table of each sentence gives the same score as --sentence
    assert [metric.sentence_result(stats, d, 0).score for d in range(3)] == scores.scores.tolist()


def test_non_ascii_whitespace_splits_words():
    metric = GLEU(n=1)
    p = parts(metric, stats_row(metric, "a\u00a0b", ["a b"], "a\u00a0b")[0])
    assert p["hlen"] == 2 and p["match"] == [2]


def test_char_mode_counts_trailing_spaces():
    metric = GLEU(n=1, unit="char")
    p = parts(metric, stats_row(metric, "ab", ["ab"], "ab ")[0])
    assert p["hlen"] == 3 and p["match"] == [2]
    normalized = GLEU(n=1, unit="char", normalize_space=True)
    assert parts(normalized, stats_row(normalized, "ab", ["ab"], "ab ")[0])["hlen"] == 2


@pytest.mark.parametrize("kwargs", [{"variant": "bleu"}, {"n": 0}, {"iterations": 0},
                                    {"variant": "official", "lambda_": 0.1}, {"unit": "byte"}])
def test_bad_settings(kwargs):
    with pytest.raises(InputError):
        GLEU(**kwargs)


def test_smooth_is_for_sentence_scores_of_the_mean_over_references():
    """gleu:smooth gave the unsmoothed corpus number under a smooth label and signature, and -m
    with --smooth printed what --smooth prints (the mean over references, not the best)."""
    from gecmetrics import get_metric

    sources, references, hypothesis = ["a b c", "d e"], [["a b c", "d e f"], ["a x c", "d e"]], ["a b c", "d e"]
    with pytest.raises(InputError, match="best_reference .* not both"):
        GLEU(smooth=True, best_reference=True)
    for name in ("gleu", "gleu0"):
        smoothed = get_metric(name, smooth=True)
        assert smoothed.sentence_scores(sources, references, hypothesis).scores.shape == (2,)
        with pytest.raises(InputError, match="^smooth: .* smooth applies to sentence scores"):  # (it named 'hypothesis')
            smoothed.corpus_score(sources, references, hypothesis)


def test_misaligned_hypothesis_is_an_error():
    metric = GLEU()
    with pytest.raises(InputError):
        metric.corpus_score(["a", "b"], [["a", "b"]], ["a"])


@pytest.mark.parametrize("j", [0, 1, 2, 7, 100, 499])
def test_numpy_draws_equal_python_random(core, j):
    """RandomState([j*101]) gives Python's random.seed(j*101) stream (SPEC 2.3), and so do
    the draws of the C extension."""
    random.seed(j * 101)
    expected = [random.random() for _ in range(50)]
    assert np.random.RandomState([j * 101]).random_sample(50).tolist() == expected
    for n_refs in (2, 3, 4):
        random.seed(j * 101)
        indices = [int(random.random() * n_refs) for _ in range(50)]
        assert python2_draws(j + 1, 50, n_refs)[j].tolist() == indices


def test_seeding_trap_is_avoided():
    """A bare integer seeds NumPy another way: the stream differs (so we must not use it)."""
    random.seed(101)
    assert np.random.RandomState(101).random_sample(5).tolist() != [random.random() for _ in range(5)]


def test_sum_selected_is_a_gather():
    rng = np.random.default_rng(0)
    stats = rng.integers(0, 50, size=(30, 3, 6))
    draws = rng.integers(0, 3, size=(7, 30))
    expected = np.stack([stats[np.arange(30), d].sum(axis=0) for d in draws])
    assert np.array_equal(sum_selected(stats, draws), expected)


def test_seeded_sampling_is_deterministic_and_in_signature():
    sources = ["a b c d e"] * 5
    refs = [["a b x d e"] * 5, ["a b c d y"] * 5]
    hyps = ["a b x d e"] * 5
    first = GLEU(seed=3).corpus_score(sources, refs, hyps)
    again = GLEU(seed=3).corpus_score(sources, refs, hyps)
    assert first.score == again.score
    assert "sampling:seed-3" in first.signature and "refs:2" in first.signature
    assert "sampling:py2-compatible" in GLEU(fix_seed=True).corpus_score(sources, refs, hyps).signature
