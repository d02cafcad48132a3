"""The compiled running-F choice of the paired tests (gecmetrics/core/_running.c) against its NumPy
reference (RunningChoice.run position by position): the same totals, hence the same bootstrap and
randomization scores, on random candidates (integer counts and PT-M2's float weights, ERRANT's
and the M2 scorer's rules, several betas) and on real CoNLL-2014 statistics; and its rounding of
ERRANT's F is Python's round(f, 4) on exact halves and their neighbours. The corpus choice in its
own order (RunningChoice.corpus: the scores, the sentence scores and the report's chosen
references) is the same in C as in its Python loop: chosen candidates and totals."""
from __future__ import annotations

import math

import numpy as np
import pytest

from gecmetrics.core import running_f
from gecmetrics.core.fscore import CandidateCounts, candidate_counts
from gecmetrics.core.resampling import Resample
from gecmetrics.core.running_f import RunningFResampler
from gecmetrics.stats.significance import bootstrap_indices, randomization_masks

from tests.conftest import unavailable


@pytest.fixture
def compiled():
    if running_f.compiled is None:
        unavailable("the C extension gecmetrics.core._running is not built in this installation")
    return running_f.compiled


def numpy_and_compiled(monkeypatch, call):
    """call() with the NumPy reference, then with the C extension."""
    monkeypatch.setenv("GECMETRICS_NUMPY_CORE", "1")
    assert not running_f.compiled_running_enabled()
    reference = call()
    monkeypatch.setenv("GECMETRICS_NUMPY_CORE", "")
    assert running_f.compiled_running_enabled()
    return reference, call()


def assert_same_scores(monkeypatch, resampler, data, other, resample, keep):
    (boot_a, swap_a), (boot_b, swap_b) = numpy_and_compiled(
        monkeypatch, lambda: (resampler.bootstrap_scores(data, resample), resampler.swapped_scores(data, other, keep)))
    assert boot_a.dtype == boot_b.dtype == np.float64
    assert np.array_equal(boot_a, boot_b)
    assert np.array_equal(swap_a[0], swap_b[0]) and np.array_equal(swap_a[1], swap_b[1])


def random_candidates(rng, sentences, candidates, weights=False):
    counts = rng.integers(0, 5, size=(sentences, candidates, 3))
    if weights:  # PT-M2: float64 weights, summed in order
        counts = counts * rng.random((sentences, candidates, 3))
    available = rng.random((sentences, candidates)) < 0.7
    available[np.arange(sentences), rng.integers(0, candidates, sentences)] = True
    rank = np.argsort(rng.random((sentences, candidates)), axis=1)
    if candidates > 2:  # equal ranks: the lower index is tried first
        rank[:, 1] = rank[:, 2]
    return CandidateCounts(counts, available, rank)


@pytest.mark.parametrize("rule", ["errant", "maxmatch"])
@pytest.mark.parametrize("beta", [0.5, 1.0, 2.0, 0.0, 0.3, math.inf])
def test_compiled_choice_equals_numpy_on_random_candidates(compiled, monkeypatch, rule, beta):
    rng = np.random.default_rng(int(beta * 10) if beta != math.inf else 99)
    for trial in range(12):
        sentences, candidates = int(rng.integers(1, 50)), int(rng.integers(1, 5))
        data = random_candidates(rng, sentences, candidates, weights=trial % 3 == 0)
        other = random_candidates(rng, sentences, int(rng.integers(1, 5)))
        assert_same_scores(monkeypatch, RunningFResampler(rule, beta), data, other,
                           Resample(bootstrap_indices(sentences, 25, trial)), randomization_masks(sentences, 15, trial))


def m2_candidates(rng, sentences, candidates, weights=False):
    """Candidates whose counts are the M2 scorer's (0 <= correct <= proposed, gold), many of them
    dominated by another (as many correct, no more proposed or gold), with equal ranks too: the
    rows the compiled choice packs without the dominated ones."""
    gold = rng.integers(0, 4, size=(sentences, candidates))
    proposed = rng.integers(0, 4, size=(sentences, 1)) + rng.integers(0, 2, size=(sentences, candidates))
    correct = np.minimum(rng.integers(0, 4, size=(sentences, candidates)), np.minimum(gold, proposed))
    counts = np.stack([correct, proposed, gold], axis=2).astype(np.float64)
    if weights:  # (PT-M2's: float counts, in the same order)
        counts *= 1 + rng.random((sentences, candidates, 1))
    available = rng.random((sentences, candidates)) < 0.8
    available[np.arange(sentences), rng.integers(0, candidates, sentences)] = True
    rank = rng.integers(0, 2, size=(sentences, candidates))  # many equal: the lower index first
    return CandidateCounts(counts, available, rank)


@pytest.mark.parametrize("beta", [0.5, 1.0, 2.0, 0.0, 0.3, 1e-9, math.inf])
def test_compiled_m2_choice_without_dominated_candidates_equals_numpy(compiled, monkeypatch, beta):
    """The compiled M2 choice leaves out of each row the candidates an earlier one dominates: the
    totals, hence the scores, are still those of the NumPy reference trying every candidate, for
    any beta (0, a tiny one, inf), equal ranks and float counts."""
    rng = np.random.default_rng(17)
    for trial in range(12):
        sentences, candidates = int(rng.integers(1, 60)), int(rng.integers(2, 6))
        data, other = (m2_candidates(rng, sentences, candidates, weights=trial % 4 == 3) for _ in range(2))
        assert_same_scores(monkeypatch, RunningFResampler("maxmatch", beta), data, other,
                           Resample(bootstrap_indices(sentences, 25, trial)), randomization_masks(sentences, 15, trial))


def test_compiled_choice_equals_numpy_on_conll14(compiled, monkeypatch, conll14):
    from gecmetrics.io.m2 import read_m2
    from gecmetrics.io.text import read_lines
    from gecmetrics.metrics.m2.compare import ErrantCompare
    from gecmetrics.metrics.m2.maxmatch import M2Scorer

    gold = read_m2(str(conll14 / "official-2014.combined.m2"))
    maxmatch = [candidate_counts(M2Scorer().corpus_statistics(None, gold, read_lines(str(conll14 / name))))
                for name in ("AMU", "INPUT")]
    errant = [candidate_counts(ErrantCompare().corpus_statistics(None, gold, read_m2(str(conll14 / name))))
              for name in ("official-2014.0.m2", "official-2014.1.m2")]
    size = len(gold)
    resample, keep = Resample(bootstrap_indices(size, 60, 1)), randomization_masks(size, 30, 2)
    for rule, (data, other) in (("maxmatch", maxmatch), ("errant", errant)):
        for beta in (0.5, 1.0):
            assert_same_scores(monkeypatch, RunningFResampler(rule, beta), data, other, resample, keep)


def assert_same_corpus_choice(monkeypatch, choice, data, start=(0, 0, 0)):
    (chosen_a, totals_a), (chosen_b, totals_b) = numpy_and_compiled(monkeypatch, lambda: choice.corpus(data, start))
    assert np.array_equal(chosen_a, chosen_b) and chosen_b.dtype == np.int64
    assert np.array_equal(totals_a, totals_b) and totals_a.dtype == totals_b.dtype


@pytest.mark.parametrize("rule", ["errant", "maxmatch"])
@pytest.mark.parametrize("beta", [0.5, 1.0, 2.0, 0.0, 0.3, math.inf])
def test_compiled_corpus_choice_equals_python_on_random_candidates(compiled, monkeypatch, rule, beta):
    rng = np.random.default_rng(7 + (int(beta * 10) if beta != math.inf else 99))
    choice = RunningFResampler(rule, beta).choice
    for trial in range(30):
        sentences, candidates = int(rng.integers(1, 80)), int(rng.integers(1, 6))
        data = random_candidates(rng, sentences, candidates, weights=trial % 3 == 0)
        if trial % 4 == 1:  # every candidate in index order (the Python loop's own fast path)
            data = CandidateCounts(data.counts, data.available, np.broadcast_to(np.arange(candidates), data.rank.shape))
        start = tuple(int(x) for x in rng.integers(0, 20, 3)) if trial % 2 else (0, 0, 0)
        assert_same_corpus_choice(monkeypatch, choice, data, start)


def test_compiled_corpus_choice_equals_python_on_conll14(compiled, monkeypatch, conll14):
    from gecmetrics.io.m2 import read_m2
    from gecmetrics.io.text import read_lines
    from gecmetrics.metrics.m2.compare import ErrantCompare
    from gecmetrics.metrics.m2.maxmatch import M2Scorer

    gold = read_m2(str(conll14 / "official-2014.combined.m2"))
    for metric, hypothesis in ((M2Scorer(), read_lines(str(conll14 / "AMU"))),
                               (ErrantCompare(), read_m2(str(conll14 / "official-2014.0.m2")))):
        data = candidate_counts(metric.corpus_statistics(None, gold, hypothesis))
        for beta in (0.5, 1.0):
            assert_same_corpus_choice(monkeypatch, RunningFResampler(metric.rule.name, beta).choice, data)
            assert_same_corpus_choice(monkeypatch, RunningFResampler(metric.rule.name, beta).choice, data.take(
                np.arange(100, len(data))), (37, 12, 80))


@pytest.mark.parametrize("rule", ["errant", "maxmatch"])
@pytest.mark.parametrize("beta", [0.5, 1.0, 0.0, math.inf])
def test_the_choice_of_each_sentence_alone_is_its_one_sentence_corpus_choice(monkeypatch, rule, beta):
    """RunningChoice.alone (every sentence at once, from counts of zero: rewards, attribution)
    chooses what the corpus choice of that sentence alone chooses, in C and in Python, ties
    and ranks included."""
    rng = np.random.default_rng(11 + (int(beta * 10) if beta != math.inf else 99))
    choice = RunningFResampler(rule, beta).choice
    for trial in range(20):
        data = random_candidates(rng, int(rng.integers(1, 60)), int(rng.integers(1, 6)), weights=trial % 3 == 0)
        alone = choice.alone(data)
        for setting in ("1", ""):
            monkeypatch.setenv("GECMETRICS_NUMPY_CORE", setting)
            one_by_one = [int(choice.corpus(data.take(np.array([d])))[0][0]) for d in range(len(data))]
            assert alone.tolist() == one_by_one
    assert choice.alone(data.take(np.zeros(0, dtype=np.int64))).shape == (0,)


def test_alone_matrix_of_the_m2_family_equals_each_sentence_scored_alone(conll14):
    """Metric.alone_matrix: the M2 family's at once equals the generic one-row-at-a-time
    scoring (each sentence's sentence_matrix as a corpus of one sentence), on CoNLL-2014 with
    a system that changes nothing and one that deletes everything (all-zero ties)."""
    from gecmetrics.io.m2 import read_m2
    from gecmetrics.io.text import read_lines
    from gecmetrics.metrics.base import Metric
    from gecmetrics.metrics.m2.compare import ErrantCompare
    from gecmetrics.metrics.m2.maxmatch import M2Scorer

    gold = read_m2(str(conll14 / "official-2014.combined.m2"))
    cases = [(M2Scorer(beta=beta), read_lines(str(conll14 / name))) for beta in (0.5, math.inf)
             for name in ("AMU", "INPUT", "NULL")]
    cases += [(ErrantCompare(beta=beta), read_m2(str(conll14 / "official-2014.0.m2"))) for beta in (0.5, 2.0)]
    differs = []
    for metric, hypothesis in cases:
        statistics = metric.corpus_statistics(None, gold, hypothesis)
        alone = metric.alone_matrix(statistics)
        assert alone.shape == (1, len(gold))
        assert np.array_equal(alone, Metric.alone_matrix(metric, statistics))
        differs.append(not np.array_equal(alone, metric.sentence_matrix(statistics)))
    assert any(differs)  # the corpus choice keeps another candidate somewhere: not the same scores


def test_compiled_rounding_is_pythons_round(compiled):
    values = [0.0, 1.0, 0.03125, 0.00005, 0.00015, 0.99995, 0.12345, -0.03125, 7.5e-05, 2.5, 9.99995]
    for k in range(0, 10001, 7):
        half = (k + 0.5) / 1e4
        values += [half, math.nextafter(half, 0), math.nextafter(half, 2)]
    values += [j / 20000 for j in range(0, 20001, 625)]  # halves that are exact in binary
    values += list(np.random.default_rng(0).random(2000))
    for value in values:
        assert compiled.ten_thousandths(value) / 10000.0 == round(value, 4), value


def test_compiled_run_refuses_bad_rows(compiled):
    data = CandidateCounts(np.ones((3, 2, 3), np.int64), np.ones((3, 2), bool), np.zeros((3, 2), np.int64))
    table = running_f._CompiledData(data)
    with pytest.raises(ValueError):
        table.totals(RunningFResampler("maxmatch").choice, np.array([[0, 3, 1]], dtype=np.int64))
    with pytest.raises(ValueError):
        compiled.run(1, 0.5, table.counts, np.zeros(6, np.uint8), table.rank, 3, 2, np.zeros((1, 3), np.int64), 1, 3, 0)
    with pytest.raises(ValueError):  # a sentence without any candidate
        compiled.corpus(1, 0.5, table.counts, np.zeros(6, np.uint8), table.rank, 3, 2, (0.0, 0.0, 0.0))
    with pytest.raises(ValueError):  # buffers of the wrong size
        compiled.corpus(1, 0.5, table.counts, table.available, table.rank, 4, 2, (0.0, 0.0, 0.0))
