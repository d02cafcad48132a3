"""Paired significance tests: the sacrebleu procedure (checked against a plain re-statement of
it), the self-comparison and seed properties, the per-resample redoing of corpus-dependent
choices (GLEU+ sampling, ERRANT/MaxMatch running-F annotator choice), real CoNLL-2014
numbers and the CLI."""
from __future__ import annotations

import json
from pathlib import Path
import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from gecmetrics import GLEU, GLEU2015, GREEN, InputError, paired_test, read_lines
from gecmetrics.cli import main
from tests.conftest import one_line_error
from gecmetrics.metrics.m2.compare import ErrantCompare, choose_pairs, errant_scores
from gecmetrics.core.fscore import CandidateCounts, round_like_python
from gecmetrics.core.resampling import Resample
from gecmetrics.core.running_f import RunningFResampler, errant_candidates
from gecmetrics.stats.significance import (bootstrap_indices, p_value, paired_test_from_statistics,
                                           percentile_interval, randomization_masks)


def resampler_for(metric, references, beta=None):
    """The resampler of a metric's column (of ``beta`` for GREEN's betas)."""
    return metric.resampler(metric.column_index(beta), references)

WORDS = "the a cat dog sat on mat is was big small red".split()


def synthetic_corpus(seed: int, sentences: int = 60):
    """Random source, two references and three systems of differing quality."""
    rng = np.random.default_rng(seed)

    def sentence():
        return list(rng.choice(WORDS, size=rng.integers(3, 9)))

    def edit(tokens, rate):
        out = [w if rng.random() > rate else str(rng.choice(WORDS)) for w in tokens]
        return " ".join(out)

    sources = [sentence() for _ in range(sentences)]
    refs = [[edit(s, 0.3) for s in sources] for _ in range(2)]
    good = [r if rng.random() < 0.7 else edit(s, 0.2) for r, s in zip(refs[0], sources)]
    weak = [edit(s, 0.1) for s in sources]
    source_lines = [" ".join(s) for s in sources]
    return source_lines, refs, {"INPUT": source_lines, "good": good, "weak": weak}


# --------------------------------------------------------------------------- definitions


def test_p_value_counts_ties_unless_strict():
    statistics = np.array([0.0, 1.0, 2.0, 2.0, 3.0])
    assert p_value(statistics, 2.0) == pytest.approx(4 / 6)          # 2, 2, 3 reach it, +1
    assert p_value(statistics, 2.0, strict=True) == pytest.approx(2 / 6)  # sacrebleu: only 3
    assert p_value(np.zeros(999), 0.0) == 1.0
    assert p_value(np.zeros(999), 0.0, strict=True) == pytest.approx(1 / 1000)


def test_interval_is_sacrebleus_order_statistics():
    scores = np.random.default_rng(3).permutation(np.arange(80.0))
    mean, lower, upper = percentile_interval(scores)
    assert (mean, lower, upper) == (39.5, 2.0, 77.0)  # N // 40 = 2 from each end


def test_resample_counts_match_indices():
    indices = bootstrap_indices(7, 5, seed=1)
    assert np.array_equal(indices, np.random.default_rng(1).choice(7, size=(5, 7), replace=True))
    counts = Resample(indices).counts
    for row, drawn in zip(counts, indices):
        assert np.array_equal(row, np.bincount(drawn, minlength=7))


def sacrebleu_procedure(score_rows, baseline_rows, system_rows, samples, seed, method):
    """A plain loop restating sacrebleu's paired_bs / paired_ar (strict count, +1 smoothing)."""
    rng = np.random.default_rng(seed)
    observed = abs(score_rows(system_rows.sum(0)) - score_rows(baseline_rows.sum(0)))
    if method == "bs":
        indices = rng.choice(len(system_rows), size=(samples, len(system_rows)), replace=True)
        base = np.array([score_rows(baseline_rows[i].sum(0)) for i in indices])
        system = np.array([score_rows(system_rows[i].sum(0)) for i in indices])
        differences = np.abs(system - base)
        count = np.sum(differences - differences.mean() > observed)
    else:
        keep = rng.integers(2, size=(samples, len(system_rows)), dtype=bool)
        a = np.array([score_rows(np.where(k[:, None], baseline_rows, system_rows).sum(0)) for k in keep])
        b = np.array([score_rows(np.where(k[:, None], system_rows, baseline_rows).sum(0)) for k in keep])
        count = np.sum(np.abs(a - b) > observed)
    return (count + 1) / (samples + 1)


@pytest.mark.parametrize("method", ["bs", "ar"])
def test_vectorized_test_equals_the_sacrebleu_loop(method):
    sources, refs, systems = synthetic_corpus(5)
    metric = GREEN()
    encoded = metric.encode(sources, refs)
    stats = {name: metric.statistics(encoded, lines) for name, lines in systems.items()}
    rows = {name: s[np.arange(len(s)), metric.best_references(s, 2.0)] for name, s in stats.items()}
    score = lambda sums: float(metric.score_from_sums(sums, metric.column_index(2.0)))  # noqa: E731
    for strict in (True, False):
        result = paired_test_from_statistics(resampler_for(metric, 2), stats, method, samples=200, seed=11,
                                             strict=strict)
        for k, name in enumerate(["good", "weak"], start=1):
            expected = sacrebleu_procedure(score, rows["INPUT"], rows[name], 200, 11, method)
            if strict:
                assert result.systems[k].p_value == pytest.approx(expected, abs=1e-12)
            else:  # ties only add: never smaller than the strict count
                assert result.systems[k].p_value >= expected - 1e-12
    # the bootstrap interval is the order statistics of the very same resamples
    bs = paired_test_from_statistics(resampler_for(metric, 2), stats, "bs", samples=200, seed=11)
    indices = np.random.default_rng(11).choice(len(sources), size=(200, len(sources)), replace=True)
    boot = np.array([score(rows["good"][i].sum(0)) for i in indices])
    assert bs.systems[1].interval == pytest.approx(percentile_interval(boot)[1:], abs=1e-12)
    assert bs.systems[1].mean == pytest.approx(boot.mean(), abs=1e-12)


# --------------------------------------------------------------------------- properties


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), method=st.sampled_from(["bs", "ar"]))
def test_system_against_itself_has_p_one(seed, method):
    sources, refs, systems = synthetic_corpus(seed, sentences=25)
    twin = {"good": systems["good"], "again": list(systems["good"])}
    result = paired_test(GREEN(), sources, refs, twin, method, samples=100, seed=seed)
    assert result.systems[1].p_value == 1.0
    assert result.systems[1].score == result.systems[0].score
    assert not result.systems[1].significant
    strict = paired_test(GREEN(), sources, refs, twin, method, samples=100, seed=seed, strict=True)
    assert strict.systems[1].p_value == pytest.approx(1 / 101)  # sacrebleu's strict count


@pytest.mark.parametrize("method, flag", [("bs", "--paired-bs"), ("ar", "--paired-ar")])
def test_a_test_of_one_sentence_is_refused(method, flag, tmp_path):
    """On one sentence every bootstrap resample is that sentence: the bootstrap gave p = 1/(N+1)
    ("significant", the table's star) for a test with no power, and the strict randomization
    the same. The library, compare, --all-pairs and a metric's command refuse it, naming the
    flag; two sentences are tested."""
    from gecmetrics.stats.multiple import all_pairs_test
    from gecmetrics.run.engine import corpus_for, score_corpus

    sources, refs, systems = ["he go to school ."], [["he goes to school ."]], {"A": ["he goes to school ."],
                                                                               "B": ["he go to school ."]}
    refused = "needs at least 2 sentences, the corpus has 1: every bootstrap resample is that sentence"
    for strict in (False, True):
        with pytest.raises(InputError, match=refused):
            paired_test(GLEU(), sources, refs, systems, method, samples=100, strict=strict)
    with pytest.raises(InputError, match=refused):
        paired_test(GLEU(), sources, refs, systems, method, samples=100, all_pairs=True)
    scored = score_corpus([GLEU()], corpus_for([GLEU()], sources, refs, systems))
    resampler = scored.metrics[0].resampler(0, 1)
    with pytest.raises(InputError, match=refused):
        paired_test_from_statistics(resampler, scored.of_metric(0), method, 100)
    with pytest.raises(InputError, match=refused):
        all_pairs_test(resampler, scored.of_metric(0), method, 100)
    paths = {}
    for name, lines in [("S", sources), ("R", refs[0]), *systems.items()]:
        (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths[name] = str(tmp_path / name)
    base = ["-s", paths["S"], "-r", paths["R"], "-o", paths["A"], paths["B"]]
    for command in (["compare", "--metrics", "gleu"], ["compare", "--metrics", "gleu", "--all-pairs"], ["gleu"]):
        error = one_line_error(*command, *base, flag, "1000")
        assert f"a paired test ({flag}) needs at least 2 sentences, the corpus has 1" in error, error
    two = paired_test(GLEU(), sources * 2, [refs[0] * 2], {n: lines * 2 for n, lines in systems.items()}, method,
                      samples=100)
    assert two.systems[1].p_value is not None


@pytest.mark.parametrize("method", ["bs", "ar"])
def test_identical_systems_have_p_one_under_every_resampler(conll14, method):
    """Two systems whose every sentence is the same (every difference 0) get p = 1, never a
    small p, whatever the resampler: the fixed rows (GREEN, GLEU+ -m), GLEU+'s sampled
    references, and the running-F choices redone in every resample (M2, ERRANT), in the test
    against the baseline and in every pair of --all-pairs."""
    from gecmetrics.io.m2 import read_m2
    from gecmetrics.metrics.m2 import M2Scorer

    sentences = 60
    sources = read_lines(str(conll14 / "INPUT"))[:sentences]
    references = [read_lines(str(conll14 / name))[:sentences] for name in ("REF0", "REF1")]
    amu, camb = (read_lines(str(conll14 / name))[:sentences] for name in ("AMU", "CAMB"))
    gold = read_m2(str(conll14 / "official-2014.combined.m2"))[:sentences]
    twins = {"AMU": amu, "AMU again": list(amu), "CAMB": camb}
    cases = [(GREEN(), sources, references), (GLEU(best_reference=True), sources, references),
             (GLEU(), sources, references), (M2Scorer(), None, gold), (ErrantCompare(), None, gold)]
    for metric, source, refs in cases:
        systems = twins
        if isinstance(metric, ErrantCompare):  # hypothesis M2: each annotator's edits as a system
            first, second = (read_m2(str(conll14 / f"official-2014.{k}.m2"))[:sentences] for k in (0, 1))
            systems = {"AMU": first, "AMU again": list(first), "CAMB": second}
        result = paired_test(metric, source, refs, systems, method, samples=200, seed=5)
        assert result.systems[1].p_value == 1.0, metric
        every = paired_test(metric, source, refs, systems, method, samples=200, seed=5, all_pairs=True)
        assert every.pair("AMU", "AMU again").p_value == 1.0 and not every.pair("AMU", "AMU again").significant


def test_same_seed_same_result_and_seed_in_signature():
    sources, refs, systems = synthetic_corpus(8)
    first = paired_test(GREEN(), sources, refs, systems, "bs", samples=300, seed=4)
    again = paired_test(GREEN(), sources, refs, systems, "bs", samples=300, seed=4)
    other = paired_test(GREEN(), sources, refs, systems, "bs", samples=300, seed=5)
    assert first == again
    assert [s.interval for s in first.systems] != [s.interval for s in other.systems]
    assert "|test:paired-bs|bs:300|seed:4|" in first.signature
    assert first.signature.startswith("GREEN|beta:2|n:4|unit:word|refs:2|")


def test_metric_scores_and_list_of_systems():
    sources, refs, systems = synthetic_corpus(9)
    result = paired_test(GLEU(best_reference=True), sources, refs, list(systems.values()), "ar", samples=50)
    assert [s.name for s in result.systems] == ["system 0", "system 1", "system 2"]
    for s, lines in zip(result.systems, systems.values()):
        assert s.score == GLEU(best_reference=True).corpus_score(sources, refs, lines).score
    assert result.baseline.p_value is None and result.confidence_samples == 1000


def test_confidence_samples_are_the_randomization_tests_and_a_bootstrap_refuses_them():
    """paired_test(method="bs", confidence_samples=5000) drew its intervals from its own 1000
    resamples and said 1000, without a word: the argument is the bootstrap behind a randomization
    test's intervals. A paired bootstrap now refuses it; the randomization test takes it."""
    from gecmetrics.stats.multiple import all_pairs_test

    sources, refs, systems = synthetic_corpus(3)
    metric = GLEU(best_reference=True)
    for call in (lambda: paired_test(metric, sources, refs, systems, "bs", 50, confidence_samples=200),
                 lambda: paired_test(metric, sources, refs, systems, "bs", 50, confidence_samples=200, all_pairs=True),
                 lambda: all_pairs_test(metric.resampler(0, len(refs)), {n: metric.corpus_statistics(sources, refs, s)
                                                                         for n, s in systems.items()},
                                        "bs", 50, confidence_samples=200)):
        with pytest.raises(InputError, match="confidence_samples is the bootstrap behind a randomization"):
            call()
    bootstrap = paired_test(metric, sources, refs, systems, "bs", 50)
    assert bootstrap.confidence_samples == 50 and "|bs:50|" in bootstrap.signature
    randomized = paired_test(metric, sources, refs, systems, "ar", 50, confidence_samples=200)
    assert randomized.confidence_samples == 200 and "|ar:50|bs:200|" in randomized.signature
    assert paired_test(metric, sources, refs, systems, "ar", 50).confidence_samples == 1000
    # the intervals of 'ar' with 200 resamples are the bootstrap's with 200 (the same seed)
    assert [s.interval for s in randomized.systems] == [
        s.interval for s in paired_test(metric, sources, refs, systems, "bs", 200).systems]


def test_bad_arguments_are_input_errors():
    sources, refs, systems = synthetic_corpus(1, sentences=5)
    with pytest.raises(InputError, match="unknown paired test"):
        paired_test(GREEN(), sources, refs, systems, "tt")
    with pytest.raises(InputError, match=">= 1"):
        paired_test(GREEN(), sources, refs, systems, "bs", samples=0)
    with pytest.raises(InputError, match="5"):
        paired_test(GREEN(), sources, refs, {"a": systems["good"], "b": systems["good"][:3]})


def test_too_few_resamples_for_an_interval_are_said():
    """A 95% interval from 1 to 39 resamples is a warning (the report drew '67.15 [67.63, 67.63]'
    without a word); 40 and more, and the trials of randomization, are not."""
    import warnings

    sources, refs, systems = synthetic_corpus(1, sentences=5)
    with pytest.warns(UserWarning, match="the 95% intervals come from only 39 bootstrap resample"):
        paired_test(GREEN(), sources, refs, systems, "bs", samples=39)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        paired_test(GREEN(), sources, refs, systems, "bs", samples=40)
        paired_test(GREEN(), sources, refs, systems, "ar", samples=20)
    # fewer than 20 resamples or trials: no p-value can be below 0.05 (--paired-ar 1 printed p = 0.5
    # for every system without a word)
    for method, samples in (("ar", 19), ("ar", 1), ("bs", 19)):
        with pytest.warns(UserWarning, match=r"no pair can differ significantly: with .* no p-value is below "
                                             rf"1/{samples + 1}, so no raw p-value of the 2 pairs is below 0.05 "
                                             r"\(at least 20 resamples\)"):
            paired_test(GREEN(), sources, refs, systems, method, samples=samples)


# --------------------------------------------------------------------------- per-resample choices


@pytest.mark.parametrize("fix_seed, references", [(True, 2), (False, 2), (True, 3)])
def test_sampled_gleu_resample_is_the_metric_on_the_resampled_corpus(fix_seed, references):
    sources, refs, systems = synthetic_corpus(2, sentences=40)
    refs = refs + [systems["weak"]] * (references - 2)  # (three: the draws are no longer 0 or 1)
    # one rule for the draws: gec-ranking's (the default), or NumPy's when a seed is given
    metric = GLEU(iterations=30) if fix_seed else GLEU(iterations=30, seed=3)
    encoded = metric.encode(sources, refs)
    stats = {name: metric.statistics(encoded, lines) for name, lines in systems.items()}
    resampler = resampler_for(metric, references)
    prepared = {name: resampler.prepare(s) for name, s in stats.items()}
    indices = bootstrap_indices(40, 6, seed=0)
    got = resampler.bootstrap_scores(prepared["good"], Resample(indices))
    for i, rows in enumerate(indices):
        assert got[i] == pytest.approx(metric.score(stats["good"][rows]).score, abs=1e-12)
    assert resampler.score(prepared["good"]) == pytest.approx(metric.score(stats["good"]).score)
    keep = randomization_masks(40, 5, seed=1)
    a, b = resampler.swapped_scores(prepared["INPUT"], prepared["good"], keep)
    for t, mask in enumerate(keep):
        mixed_a = np.where(mask[:, None, None], stats["INPUT"], stats["good"])
        mixed_b = np.where(mask[:, None, None], stats["good"], stats["INPUT"])
        assert a[t] == pytest.approx(metric.score(mixed_a).score, abs=1e-12)
        assert b[t] == pytest.approx(metric.score(mixed_b).score, abs=1e-12)


@pytest.mark.parametrize("make", [lambda: GREEN(beta=2.0), lambda: GLEU(iterations=30)])
def test_prepared_rows_are_narrow_only_where_every_value_survives(make):
    """A paired test at scale keeps its prepared rows from one chunk of resamples to the next:
    as float32 where that holds every value (counts, as GREEN's and GLEU+'s), else as float64
    (0.1, 2**24 + 1), and its scores are those of the float64 rows, to the last bit."""
    from gecmetrics.core.resampling import LinearResampler, compact_rows

    metric = make()
    sources, refs, systems = synthetic_corpus(2, sentences=30)
    encoded = metric.encode(sources, refs)
    stats = {name: metric.statistics(encoded, lines) for name, lines in systems.items()}
    resampler = resampler_for(metric, 2)
    narrow = {name: resampler.prepare(s) for name, s in stats.items()}
    wide = {name: rows.astype(np.float64) for name, rows in narrow.items()}
    assert {rows.dtype for rows in narrow.values()} == {np.dtype(np.float32)}
    resample, keep = Resample(bootstrap_indices(30, 8, seed=0)), randomization_masks(30, 6, seed=1)
    for got, rows in ((narrow, wide), (wide, narrow)):
        assert resampler.score(got["good"]) == resampler.score(rows["good"])
        assert np.array_equal(resampler.bootstrap_scores(got["good"], resample),
                              resampler.bootstrap_scores(rows["good"], resample))
        for a, b in zip(resampler.swapped_scores(got["INPUT"], got["good"], keep),
                        resampler.swapped_scores(rows["INPUT"], rows["good"], keep)):
            assert np.array_equal(a, b)
    for values in ([[0.1, 1.0], [2.0, 3.0]], [[2.0 ** 24 + 1, 1.0], [1.0, 1.0]]):
        assert compact_rows(np.array(values)).dtype == np.float64
    mean = LinearResampler(lambda rows: rows, lambda sums: sums[..., 0] / sums[..., 1], "mean", "mean")
    rows = np.array([[2.0 ** 24 + 1, 3.0], [0.1, 1.0], [5.0, 2.0]])
    assert mean.score(mean.prepare(rows)) == (2.0 ** 24 + 1 + 0.1 + 5.0) / 6.0


def test_columns_drawn_together_get_what_each_draws_alone(monkeypatch):
    """drawn_columns (the report's columns sharing each chunk of resamples) gives every column
    what drawn gives it alone, with chunks small enough that several are drawn."""
    from gecmetrics.stats import significance
    from gecmetrics.stats.significance import drawn, drawn_columns

    sources, refs, systems = synthetic_corpus(2, sentences=30)
    columns = []
    for metric in (GLEU(iterations=20), GREEN(beta=[0.5, 2])):
        stats = {name: metric.corpus_statistics(sources, refs, systems[name]) for name in ("INPUT", "good")}
        columns += [(metric.resampler(part, 2), stats) for part in range(len(metric.column_labels()))]
    monkeypatch.setattr(significance, "BOOTSTRAP_CHUNK_BYTES", 16 * 30 * 7)  # 7 resamples a chunk
    together = drawn_columns(columns, "bs", 40, 5, 40)
    assert len(together) == 3
    for (resampler, stats), shared in zip(columns, together):
        alone = drawn(resampler, stats, "bs", 40, 5, 40)
        assert shared.scores == alone.scores and shared.interval_samples == alone.interval_samples == 40
        assert all(np.array_equal(a, b) for a, b in zip(shared.bootstrap, alone.bootstrap))
    with pytest.raises(InputError, match="same number of sentences"):
        drawn_columns([columns[0], (columns[1][0], {n: s[:20] for n, s in columns[1][1].items()})], "bs", 10, 0, 10)


def test_sampled_gleu_paired_tests_do_not_depend_on_their_blocks(monkeypatch):
    """GLEU+'s bootstrap and randomization sum their sentences a block at a time (one product per
    block) and score their resamples and trials a step at a time: the scores are the same, bit
    for bit, whatever the blocks and steps, and those of each resample or swapped corpus scored
    as a corpus, with two references (the draws as indicators) and with three."""
    from gecmetrics.metrics.gleu import resampler as gleu_resampler

    for references in (2, 3):
        sources, refs, systems = synthetic_corpus(2, sentences=40)
        refs = refs + [systems["weak"]] * (references - 2)  # (three: the draws are no longer 0 or 1)
        metric = GLEU(iterations=30)
        encoded = metric.encode(sources, refs)
        stats = {name: metric.statistics(encoded, systems[name]) for name in ("good", "INPUT")}
        prepared = {name: resampler_for(metric, references).prepare(rows) for name, rows in stats.items()}
        indices, keep = bootstrap_indices(40, 50, seed=4), randomization_masks(40, 30, seed=5)

        def scores():
            resampler = resampler_for(metric, references)
            return (resampler.bootstrap_scores(prepared["good"], Resample(indices)),
                    *resampler.swapped_scores(prepared["INPUT"], prepared["good"], keep))
        whole = scores()
        for i, rows in enumerate(indices):
            assert whole[0][i] == pytest.approx(metric.score(stats["good"][rows]).score, abs=1e-12)
        for t, mask in enumerate(keep):
            mixed = np.where(mask[:, None, None], stats["INPUT"], stats["good"])
            assert whole[1][t] == pytest.approx(metric.score(mixed).score, abs=1e-12)
        for budget in (1, 30 * 4 * 7, 30 * 4 * 29):  # one sentence a block, some, then others (the last shorter)
            monkeypatch.setattr(gleu_resampler, "BLOCK_BYTES", budget)
            monkeypatch.setattr(gleu_resampler, "STEP_BYTES", budget * 8)  # and some resamples or trials a step
            assert all(np.array_equal(a, b) for a, b in zip(scores(), whole))
            monkeypatch.undo()


@pytest.mark.parametrize("metric", [GLEU(best_reference=True), GLEU2015(lambda_=0.5), GREEN(beta=[0.5, 2])])
def test_fixed_choice_resample_is_the_metric_on_the_resampled_corpus(metric):
    sources, refs, systems = synthetic_corpus(4, sentences=30)
    encoded = metric.encode(sources, refs)
    stats = metric.statistics(encoded, systems["good"])
    indices = bootstrap_indices(30, 4, seed=2)
    for k, beta in enumerate(getattr(metric, "betas", [None])):
        resampler = resampler_for(metric, 2, beta)
        got = resampler.bootstrap_scores(resampler.prepare(stats), Resample(indices))
        for i, rows in enumerate(indices):
            expected = metric.score(stats[rows])
            expected = expected.scores[k] if beta is not None else expected.score
            assert got[i] == pytest.approx(expected, abs=1e-12)


def random_candidates(rng, sentences=40, candidates=3):
    counts = rng.integers(0, 4, size=(sentences, candidates, 3))
    available = rng.random((sentences, candidates)) < 0.8
    available[np.arange(sentences), rng.integers(0, candidates, sentences)] = True
    rank = np.argsort(rng.random((sentences, candidates)), axis=1)
    return CandidateCounts(counts, available, rank)


def errant_reference_score(data: CandidateCounts, rows, beta=0.5):
    """ERRANT's own sequential choice (gecmetrics.metrics.m2.compare.choose_pairs) on reordered rows."""
    order = [[int(p) for p in np.argsort(data.rank[d]) if data.available[d, p]] for d in rows]
    chosen = choose_pairs(data.counts[rows], order, beta)
    tp, fp, fn = data.counts[rows][np.arange(len(rows)), chosen].sum(axis=0)
    return errant_scores(int(tp), int(fp), int(fn), beta)[2]


def maxmatch_reference_score(data: CandidateCounts, rows, beta=0.5):
    """The M2 scorer's loop as its source reads: first candidate in order, then strictly better."""
    correct = proposed = gold = 0.0
    for d in rows:
        best = None
        for p in np.argsort(data.rank[d]):
            if not data.available[d, p]:
                continue
            c, e, g = (correct + data.counts[d, p, 0], proposed + data.counts[d, p, 1], gold + data.counts[d, p, 2])
            denominator = beta * beta * g + e
            f = (1 + beta * beta) * c / denominator if denominator else (1.0 if c == 0 else 0.0)
            if best is None or f > best[0] or (f == best[0] and c > best[1]) or \
                    (f == best[0] and c == best[1] and best[2] + beta * beta * best[3] > e + beta * beta * g):
                best = (f, c, e, g, p)
        correct, proposed, gold = best[1], best[2], best[3]
    p_ = correct / proposed if proposed else 1.0
    r_ = correct / gold if gold else 1.0
    return (1 + beta * beta) * p_ * r_ / (beta * beta * p_ + r_) if beta * beta * p_ + r_ else 0.0


@pytest.mark.parametrize("rule, reference", [("errant", errant_reference_score), ("maxmatch", maxmatch_reference_score)])
def test_running_f_choice_is_redone_in_resample_order(rule, reference):
    rng = np.random.default_rng(7)
    data = random_candidates(rng)
    resampler = RunningFResampler(rule, 0.5)
    assert resampler.score(data) == pytest.approx(reference(data, np.arange(40)), abs=1e-12)
    indices = bootstrap_indices(40, 8, seed=3)
    got = resampler.bootstrap_scores(data, Resample(indices))
    for i, rows in enumerate(indices):
        assert got[i] == pytest.approx(reference(data, rows), abs=1e-12)
    # randomization: pseudo-system A takes the baseline's rows where the mask says so
    other = random_candidates(rng)
    keep = randomization_masks(40, 4, seed=2)
    a, b = resampler.swapped_scores(data, other, keep)
    for t, mask in enumerate(keep):
        mixed = CandidateCounts(np.where(mask[:, None, None], data.counts, other.counts),
                                np.where(mask[:, None], data.available, other.available),
                                np.where(mask[:, None], data.rank, other.rank))
        assert a[t] == pytest.approx(reference(mixed, np.arange(40)), abs=1e-12)


def test_errant_results_become_aligned_candidates(conll14):
    from gecmetrics.io.m2 import read_m2

    reference = read_m2(str(conll14 / "official-2014.combined.m2"))[:400]
    hypotheses = {name: read_m2(str(conll14 / f"official-2014.{name}.m2"))[:400] for name in ("0", "1")}
    comparer = ErrantCompare()
    results = [comparer.compare(blocks, reference) for blocks in hypotheses.values()]
    candidates = errant_candidates(results)
    resampler = RunningFResampler("errant", 0.5)
    for result, data in zip(results, candidates):
        assert resampler.score(data) == result.f_score
        pairs = sorted({pair for r in results for pair in r.pairs})
        assert [pairs[k] for k in resampler.chosen_candidates(data)] == [result.pairs[k] for k in result.chosen_pair]
    test = paired_test(comparer, None, reference, hypotheses, "bs", samples=100)
    assert [s.score for s in test.systems] == [r.f_score for r in results]
    assert test.signature.startswith("ERRANT|mode:cs|beta:0.5|test:paired-bs|bs:100|seed:0|")


def test_maxmatch_choice_agrees_with_the_m2_scorers_own(conll14):
    from gecmetrics.io.m2 import read_m2
    from gecmetrics.metrics.m2.maxmatch import M2Scorer, choose_annotators

    rng = np.random.default_rng(12)
    data = random_candidates(rng, candidates=2)
    data.rank[:] = np.arange(2)  # the M2 scorer tries annotators in order
    resampler = RunningFResampler("maxmatch", 0.5)
    for rows in bootstrap_indices(40, 5, seed=4):
        chosen = choose_annotators(data.counts[rows], data.available[rows], 0.5)
        totals = data.counts[rows][np.arange(40), chosen].sum(axis=0)
        assert resampler.bootstrap_scores(data, Resample(rows[None]))[0] == resampler.final_score(totals)
    # real gold and outputs (the first 150 CoNLL-2014 sentences): the observed F is the scorer's
    gold = read_m2(str(conll14 / "official-2014.combined.m2"))[:150]
    systems = {name: read_lines(str(conll14 / name))[:150] for name in ("INPUT", "AMU")}
    result = paired_test(M2Scorer(), None, gold, systems, "bs", samples=200)
    expected = [M2Scorer().score(gold, lines) for lines in systems.values()]
    assert [s.score for s in result.systems] == [r.f for r in expected]
    assert result.signature.startswith("M2|beta:0.5|max-unchanged:2|test:paired-bs|bs:200|seed:0|")


def test_rounding_agrees_with_python_round_on_halves():
    values = np.array([0.12345, 0.00005, 2.67225, 0.5, 1 / 3, 0.10005, 0.99995] + list(np.arange(0, 1, 0.00005)))
    assert list(round_like_python(values, 4)) == [round(float(v), 4) for v in values]


# --------------------------------------------------------------------------- real data


@pytest.fixture(scope="module")
def conll_systems(conll14):
    sources = read_lines(str(conll14 / "INPUT"))
    references = [read_lines(str(conll14 / "REF0")), read_lines(str(conll14 / "REF1"))]
    systems = {name: read_lines(str(conll14 / name)) for name in ("INPUT", "AMU", "CAMB")}
    return sources, references, systems


@pytest.mark.parametrize("method", ["bs", "ar"])
def test_amu_beats_input_on_green(conll_systems, method):
    sources, references, systems = conll_systems
    result = paired_test(GREEN(), sources, references, systems, method)
    baseline, amu = result.systems[0], result.systems[1]
    assert amu.name == "AMU" and round(100 * amu.score, 2) == 79.25 and round(100 * baseline.score, 2) == 76.93
    assert amu.p_value < 0.01 and amu.significant
    for system in result.systems:
        assert system.interval[0] <= system.score <= system.interval[1]


def test_gleu_best_reference_interval_contains_the_score(conll_systems):
    sources, references, systems = conll_systems
    result = paired_test(GLEU(best_reference=True), sources, references,
                         {"AMU": systems["AMU"], "AMU again": systems["AMU"], "CAMB": systems["CAMB"]}, "bs")
    assert result.systems[1].p_value == 1.0
    assert all(s.interval[0] <= s.score <= s.interval[1] for s in result.systems)
    # AMU and CAMB are within a few tenths under GLEU+ -m: no significant difference
    assert result.systems[2].p_value > 0.05


# --------------------------------------------------------------------------- CLI


def write_corpus(tmp_path, seed=6):
    sources, refs, systems = synthetic_corpus(seed, sentences=50)
    paths = {}
    for name, lines in [("src", sources), ("ref0", refs[0]), ("ref1", refs[1]), *systems.items()]:
        (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths[name] = str(tmp_path / name)
    return paths


def run_cli(args):
    return CliRunner().invoke(main, args)


def test_green_cli_table_and_optional_counts(tmp_path):
    paths = write_corpus(tmp_path)
    base = ["green", "-s", paths["src"], "-r", paths["ref0"], paths["ref1"], "-c", paths["INPUT"], paths["good"],
            paths["INPUT"]]
    result = run_cli(base + ["--paired-bs", "--json"])
    assert result.exit_code == 0, result.output
    import json
    data = json.loads(result.output)[0]
    assert data["samples"] == 1000 and data["method"] == "bs" and data["baseline"] == paths["INPUT"]
    names = [s["system"] for s in data["systems"]]  # `system`, as everywhere (it said `hypothesis`)
    assert names == [paths["INPUT"], paths["good"], paths["INPUT"] + " (2)"]
    assert data["systems"][2]["p_value"] == 1.0 and data["systems"][1]["significant"]
    library = paired_test(GREEN(), *[read_lines(paths[n]) for n in ("src",)], [read_lines(paths["ref0"]), read_lines(paths["ref1"])],
                          {"a": read_lines(paths["INPUT"]), "b": read_lines(paths["good"])}, "bs")
    assert data["systems"][1]["p_value"] == library.systems[1].p_value
    assert data["systems"][1]["interval"] == pytest.approx([100 * x for x in library.systems[1].interval])

    table = run_cli(base + ["--paired-ar", "300", "--seed", "2", "-b", "0.5", "2"])
    assert table.exit_code == 0, table.output
    assert table.output.count("Paired approximate randomization (300 trials") == 2
    rows = [line for line in table.output.splitlines() if paths["good"] in line and "|" in line]
    assert len(rows) == 2 and all(row.rstrip(" |").endswith("*") for row in rows)
    again = run_cli(base + ["--seed", "2", "-b", "0.5", "2", "--paired-ar", "300"])
    assert again.output == table.output  # same seed, same numbers; the count parsed before another option


def test_paired_cli_errors_are_one_line(tmp_path):
    paths = write_corpus(tmp_path)
    base = ["-s", paths["src"], "-r", paths["ref0"], paths["ref1"], "-o", paths["INPUT"], paths["good"]]
    both = run_cli(["gleu", *base, "--paired-bs", "--paired-ar"])
    assert both.exit_code == 2 and "choose one of --paired-bs and --paired-ar" in both.output
    sentence = run_cli(["gleu", *base, "-m", "--sentence", "--paired-bs", "10"])
    assert sentence.exit_code == 2 and "--sentence does not go with" in sentence.output
    single = run_cli(["compare", "-s", paths["src"], "-r", paths["ref0"], "-o", paths["good"], "--paired-bs", "20",
                      "--all-pairs"])
    assert single.exit_code == 2 and "at least two hypothesis files" in single.output
    zero = run_cli(["gleu", *base, "--paired-bs", "0"])
    assert zero.exit_code == 2


def test_one_hypothesis_file_is_its_score_and_interval_as_in_python(tmp_path):
    """The command refused a paired test of one file ('needs at least two hypothesis files') where
    ``paired_test`` in Python gives the baseline's score and bootstrap interval: both give it."""
    paths = write_corpus(tmp_path)
    single = run_cli(["green", "-s", paths["src"], "-r", paths["ref0"], paths["ref1"], "-o", paths["good"],
                      "--paired-bs", "50", "--json"])
    assert single.exit_code == 0, single.output
    [printed] = json.loads(single.stdout)
    lines = {name: read_lines(paths[name]) for name in ("src", "ref0", "ref1", "good")}
    result = paired_test("green", lines["src"], [lines["ref0"], lines["ref1"]], {paths["good"]: lines["good"]},
                         samples=50)
    assert printed == result.to_dict(100.0) and len(result.systems) == 1 and result.systems[0].p_value is None
    interval = result.systems[0].interval
    assert interval[0] <= result.systems[0].score <= interval[1]


def test_the_tsv_of_several_tests_names_each_rows_metric(tmp_path):
    """The TSV of a paired test per GREEN beta (or per compare column) printed the tables alone:
    nothing said which table was which beta or metric. Each row now starts with its metric."""
    paths = write_corpus(tmp_path)
    base = ["-s", paths["src"], "-r", paths["ref0"], paths["ref1"], "-o", paths["INPUT"], paths["good"]]
    tables = {}
    for name, args in (("green", ["green", *base, "-b", "0.5", "2", "--paired-bs", "30"]),
                       ("pairs", ["compare", *base, "--metrics", "gleu,green", "--paired-bs", "30", "--all-pairs"])):
        tsv, as_json = run_cli([*args, "--tsv"]), run_cli([*args, "--json"])
        assert tsv.exit_code == 0 and as_json.exit_code == 0, (tsv.output, as_json.output)
        tables[name] = [[line.split("\t") for line in block.splitlines()] for block in tsv.stdout.strip().split("\n\n")]
        metrics = [test["metric"] for test in json.loads(as_json.stdout)]
        per_table = 1 if name == "green" else 2
        assert len(tables[name]) == per_table * len(metrics) == per_table * 2
        shown = metrics if name == "green" else ["GLEU+ f", "GREEN b2"]  # compare: its columns' labels
        for k, table in enumerate(tables[name]):
            assert table[0][0] == "metric" and {row[0] for row in table[1:]} == {shown[k // per_table]}, table
    assert tables["green"][0][0][1:] == ["system", "score (x100)", "95% CI", "mean ± CI/2", "p-value"]


def test_compares_tests_are_named_by_its_columns_and_bad_options_refused_before_scoring(tmp_path):
    """Two settings of one metric (gleu and gleu-max, green and green-char) printed tables named
    alike ('GLEU+' twice, 'GREEN beta=2' twice); --sort with a test was refused after the scoring
    (6 s of ERRANT annotation at CoNLL-2014's size)."""
    paths = write_corpus(tmp_path)
    base = ["compare", "-s", paths["src"], "-r", paths["ref0"], paths["ref1"], "-o", paths["INPUT"], paths["good"],
            "--metrics", "gleu,gleu-max,green,green-char", "--paired-bs", "30"]
    tsv = run_cli([*base, "--tsv"])
    assert tsv.exit_code == 0, tsv.output
    assert [block.splitlines()[1].split("\t")[0] for block in tsv.stdout.strip().split("\n\n")] == \
        ["GLEU+ f", "GLEU+ max", "GREEN b2", "GREEN-char b2"]
    text = run_cli(base)
    assert [line.rsplit(": ", 1)[1] for line in text.stdout.splitlines() if line.startswith("Paired bootstrap")] == \
        [f"{label}, baseline {paths['INPUT']}" for label in ("GLEU+ f", "GLEU+ max", "GREEN b2", "GREEN-char b2")]
    import gecmetrics.cli.compare as command

    def scored_anyway(*args, **kwargs):
        raise AssertionError("scored before the options were checked")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(command.ScoringOptions, "run", scored_anyway)
        refused = run_cli([*base, "--sort", "1"])
    assert refused.exit_code == 2 and "--sort does not go with --paired-bs/--paired-ar" in refused.stderr


def test_gleu_cli_seed_is_the_run_seed(tmp_path):
    paths = write_corpus(tmp_path)
    base = ["gleu", "-s", paths["src"], "-r", paths["ref0"], paths["ref1"], "-o", paths["INPUT"], paths["good"],
            "-i", "20", "--paired-bs", "100", "--json"]
    import json
    first = json.loads(run_cli(base + ["--seed", "1"]).output)[0]
    second = json.loads(run_cli(base + ["--seed", "2"]).output)[0]
    assert first["signature"].endswith("iter:20|sampling:seed-1|test:paired-bs|bs:100|seed:1|version:0.1.0")
    assert first["systems"][1]["interval"] != second["systems"][1]["interval"]
    metric = GLEU(iterations=20, seed=1)
    sources, refs = read_lines(paths["src"]), [read_lines(paths["ref0"]), read_lines(paths["ref1"])]
    expected = paired_test(metric, sources, refs, {"a": read_lines(paths["INPUT"]), "b": read_lines(paths["good"])},
                           "bs", samples=100, seed=1)
    assert first["systems"][1]["p_value"] == expected.systems[1].p_value
    assert first["systems"][1]["score"] == pytest.approx(100 * expected.systems[1].score)


def test_gleu_cli_seed_with_gec_rankings_draws_or_gleu0_seeds_the_test_as_compare_does(tmp_path):
    """-f --seed N (gec-ranking's draws) and gleu0's --seed (no draws) with a paired test seed the
    test alone: compare's --seed N, the same bytes (both were refused: a GLEU+ test of
    gec-ranking's draws could only be seeded 0 from its own command)."""
    import json

    paths = write_corpus(tmp_path)
    base = ["-s", paths["src"], "-r", paths["ref0"], paths["ref1"], "-o", paths["INPUT"], paths["good"], paths["weak"],
            "--paired-bs", "100", "--seed", "7", "--json"]
    for command, spec in ((["gleu", "-f"], "gleu"), (["gleu0"], "gleu0"), (["gleu", "--variant", "gleu0"], "gleu0")):
        own = run_cli([*command, *base])
        assert own.exit_code == 0, own.output
        assert own.output == run_cli(["compare", *base, "--metrics", spec]).output, command
        assert json.loads(own.output)[0]["seed"] == 7
    assert "sampling:py2-compatible|test:paired-bs|bs:100|seed:7" in json.loads(run_cli(["gleu", "-f", *base]).output)[0][
        "signature"]
    for command in (["gleu", "-f"], ["gleu0"]):  # without a paired test nothing is drawn from the seed
        refused = run_cli([*command, *base[:-5], "--seed", "7"])
        assert refused.exit_code == 2 and "with a paired test" in refused.output, refused.output


def test_m2_score_cli_paired_test(conll14, tmp_path):
    from gecmetrics.metrics.m2.maxmatch import M2Scorer
    from gecmetrics.io.m2 import read_m2

    text = (conll14 / "official-2014.combined.m2").read_text(encoding="utf-8")
    gold_text = "\n\n".join(text.strip().split("\n\n")[:120]) + "\n"
    (tmp_path / "gold.m2").write_text(gold_text, encoding="utf-8")
    for name in ("INPUT", "AMU"):
        (tmp_path / name).write_text("\n".join(read_lines(str(conll14 / name))[:120]) + "\n", encoding="utf-8")
    paths = [str(tmp_path / n) for n in ("AMU", "AMU", "INPUT")]
    result = run_cli(["m2", "score", "-s", str(tmp_path / "gold.m2"), "-o", *paths, "--paired-bs", "200", "--scale",
                      "1"])
    if result.exit_code == 2 and "no such option" in result.output:
        pytest.skip("m2 score has no paired test options")
    assert result.exit_code == 0, result.output
    amu = M2Scorer().score(read_m2(str(tmp_path / "gold.m2")), read_lines(paths[0]))
    rows = [line for line in result.output.splitlines() if line.startswith("|") and str(tmp_path) in line]
    assert f"{amu.f:.4f}" in [cell.strip() for cell in rows[0].split("|")] and "baseline" in rows[0]
    assert "score (fraction)" in result.output  # fractions with --scale 1, and the header says so
    x100 = run_cli(["m2", "score", "-s", str(tmp_path / "gold.m2"), "-o", *paths, "--paired-bs", "200"]).output
    assert "score (x100)" in x100 and f"{100 * amu.f:.2f}" in x100  # x100 by default, as every command
    assert rows[1].rstrip(" |").endswith("1.0000") and rows[2].rstrip(" |").endswith("*"), result.output


def test_compare_cli_paired_test_equals_the_metric_commands(tmp_path):
    paths = write_corpus(tmp_path)
    base = ["-s", paths["src"], "-r", paths["ref0"], paths["ref1"], "-o", paths["INPUT"], paths["good"], paths["weak"]]
    compared = run_cli(["compare", *base, "--metrics", "green:beta=0.5/2,gleu-max", "--paired-ar", "200", "--json"])
    if compared.exit_code == 2 and "no such option" in compared.output:
        pytest.skip("compare has no paired test options")
    assert compared.exit_code == 0, compared.output
    import json
    tables = json.loads(compared.output)
    green = json.loads(run_cli(["green", *base, "-b", "0.5", "2", "--paired-ar", "200", "--json"]).output)
    gleu = json.loads(run_cli(["gleu", *base, "-m", "--paired-ar", "200", "--json"]).output)
    assert [t["metric"] for t in tables] == ["GREEN beta=0.5", "GREEN beta=2", "GLEU+"]
    assert tables == green + gleu


@pytest.mark.parametrize("sentences, samples, chunk_bytes", [(1312, 300, 16 * 1312 * 7), (5, 13, 48), (1, 4, 1),
                                                              (100, 7, 10 ** 9)])
def test_bootstrap_chunks_are_the_rows_of_the_whole_draw(sentences, samples, chunk_bytes):
    from gecmetrics.stats.significance import bootstrap_chunks

    whole = bootstrap_indices(sentences, samples, 11)
    chunks = list(bootstrap_chunks(sentences, samples, 11, chunk_bytes))
    assert [start for start, _ in chunks] == list(np.cumsum([0] + [r.samples for _, r in chunks[:-1]]))
    assert np.array_equal(np.concatenate([r.indices for _, r in chunks]), whole)


def test_paired_test_in_chunks_is_the_paired_test_at_once(conll14, conll_systems, monkeypatch):
    """A large corpus is resampled a chunk at a time: the same intervals and p-values (n-gram
    counts, the running-F choice, and float rows summed by a matrix product)."""
    from gecmetrics.core.resampling import LinearResampler
    from gecmetrics.io.m2 import read_m2
    from gecmetrics.metrics.m2.maxmatch import M2Scorer
    from gecmetrics.stats import significance

    sources, references, systems = conll_systems
    gold = read_m2(str(conll14 / "official-2014.combined.m2"))
    rows = np.random.default_rng(3).random((len(sources), 3)) * 7
    weighted = LinearResampler(lambda statistics: statistics, lambda sums: sums[..., 0] / sums[..., 1:].sum(axis=-1),
                               "weighted", "weighted")

    def tests():
        return [paired_test(GREEN(), sources, references, systems, "bs", samples=120),
                paired_test(GLEU(), sources, references, systems, "bs", samples=120),
                paired_test(M2Scorer(), None, gold, systems, "bs", samples=120),
                paired_test_from_statistics(weighted, {"a": rows, "b": rows[::-1] * 1.1}, "bs", 120)]

    whole = tests()
    monkeypatch.setattr(significance, "BOOTSTRAP_CHUNK_BYTES", 16 * len(sources) * 17)
    assert len(list(significance.bootstrap_chunks(len(sources), 120, 0))) == 8
    assert [r.systems for r in tests()] == [r.systems for r in whole]


def test_a_file_named_like_a_repeated_files_second_name_keeps_its_row(tmp_path):
    """`green -c AMU AMU 'AMU (2)' --paired-bs` printed two rows: the second AMU was named 'AMU
    (2)', the file of that name replaced it, and a system left the table silently."""
    from gecmetrics.cli.significance import unique_names

    assert unique_names(["A", "A", "A (2)"]) == ["A", "A (3)", "A (2)"]
    assert unique_names(["A (2)", "A", "A", "A"]) == ["A (2)", "A", "A (3)", "A (4)"]
    paths = write_corpus(tmp_path)
    other = tmp_path / f"{Path(paths['good']).name} (2)"
    other.write_text(Path(paths["INPUT"]).read_text())
    done = run_cli(["green", "-s", paths["src"], "-r", paths["ref0"], paths["ref1"], "-c", paths["good"], paths["good"],
                    str(other), "--paired-bs", "30", "--tsv"])
    assert done.exit_code == 0, done.output
    assert [line.split("\t")[1] for line in done.stdout.splitlines()[1:]] == \
        [paths["good"], f"{paths['good']} (3)", str(other)]


def test_latex_of_paired_tests_keeps_its_prose_in_comments(tmp_path):
    """The title, legend and clusters around the tables were raw text in the LaTeX output: a
    system named A_M%U&.100 broke the document (_ outside math mode, % cutting the line)."""
    paths = write_corpus(tmp_path)
    odd = tmp_path / "A_M%U&.100"
    odd.write_text(Path(paths["good"]).read_text())
    base = ["-s", paths["src"], "-r", paths["ref0"], paths["ref1"], "-o", paths["INPUT"], str(odd), "--paired-bs", "30",
            "--latex"]
    for args in (["compare", *base], ["compare", *base, "--all-pairs"], ["gleu", *base]):
        done = run_cli(args)
        assert done.exit_code == 0, done.output
        lines = done.stdout.strip().splitlines()
        prose = [line for line in lines if line and not line.startswith(("\\", "%")) and " & " not in line]
        assert prose == [], prose
        assert any(line.startswith("% Paired bootstrap resampling") for line in lines)
        assert all("A_M%U&.100" not in line or line.startswith("% ") for line in lines)


def test_gleus_sampled_resampler_refuses_statistics_that_are_no_counts():
    """GLEU+'s default resampler (gec-ranking's draws) tested negated counts as if they were
    GLEU+'s (p = 0.0196, a 'significant' result); GLEU max and GREEN refused them."""
    sources, refs = ["a b c d", "e f g h"], [["a b c d", "e f g x"], ["a b x d", "e f g h"]]
    metric = GLEU(iterations=5)
    a, b = metric.corpus_statistics(sources, refs, sources), metric.corpus_statistics(sources, refs, ["a b c", "e f"])
    for given in (-b, b[:0], b.astype(np.float64) + 0.5):
        with pytest.raises(InputError, match="statistics are counts, and some are not whole numbers >= 0|hold no sentence"):
            paired_test_from_statistics(metric.resampler(0, 2), {"a": a, "b": given}, samples=20)
