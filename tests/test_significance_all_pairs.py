"""Significance across many systems: Holm and Benjamini-Hochberg against textbook examples,
every pair tested with the one-baseline test's draws, and the clusters."""
from __future__ import annotations

import numpy as np
import pytest

from gecmetrics.core.resampling import LinearResampler
from gecmetrics.errors import InputError
from gecmetrics.stats.multiple import (adjust_p_values, all_pairs_test, benjamini_hochberg, clusters_of, holm)
from gecmetrics.stats.significance import paired_test_from_statistics


def test_holm_textbook_example():
    # Holm (1979) as taught (e.g. Wikipedia's "Holm-Bonferroni method" example): four tests at
    # alpha 0.05; sorted 0.005, 0.01, 0.03, 0.04 against 0.05/4, 0.05/3, 0.05/2: the first two
    # are rejected, the third is not (0.03 > 0.025), so the procedure stops.
    p = [0.01, 0.04, 0.03, 0.005]
    adjusted = holm(p)
    # by hand: 4 * 0.005 = 0.02; 3 * 0.01 = 0.03; 2 * 0.03 = 0.06; max(0.06, 1 * 0.04) = 0.06
    assert adjusted == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert list(adjusted < 0.05) == [True, False, False, True]


def test_holm_caps_at_one_and_keeps_order_of_ties():
    assert holm([0.5, 0.5, 0.9]) == pytest.approx([1.0, 1.0, 1.0])
    assert holm([0.02, 0.02]) == pytest.approx([0.04, 0.04])
    assert holm([]).size == 0


def test_benjamini_hochberg_textbook_example():
    # Benjamini & Hochberg (1995), section 3.2's 15 p-values at q = 0.05: the largest k with
    # p_(k) <= k/15 * 0.05 is k = 4 (0.0095 <= 0.0133; 0.0201 > 0.0167 and no later one passes),
    # so the first four are rejected.
    p = [0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459, 0.3240, 0.4262, 0.5719, 0.6528,
         0.7590, 1.0000]
    adjusted = benjamini_hochberg(p)
    assert int(np.count_nonzero(adjusted <= 0.05)) == 4
    # by hand: the fourth is min over j >= 4 of 15 p_(j) / j: 15 * 0.0095 / 4 = 0.035625
    assert adjusted[3] == pytest.approx(0.035625)
    assert adjusted[0] == pytest.approx(0.0015)  # 15 * 0.0001 / 1, smaller than every later term


def test_benjamini_hochberg_equals_scipy():
    scipy_stats = pytest.importorskip("scipy.stats")
    if not hasattr(scipy_stats, "false_discovery_control"):
        pytest.skip("scipy < 1.11 has no false_discovery_control")
    rng = np.random.default_rng(3)
    for size in (1, 2, 7, 40):
        p = rng.uniform(size=size) ** 2
        assert benjamini_hochberg(p) == pytest.approx(scipy_stats.false_discovery_control(p, method="bh"))


def test_corrections_check_their_arguments():
    with pytest.raises(InputError, match="correction"):
        adjust_p_values([0.1], "bonferroni")
    with pytest.raises(InputError, match="from 0 to 1"):
        holm([0.1, 1.5])
    with pytest.raises(InputError, match="from 0 to 1"):
        benjamini_hochberg([float("nan")])
    assert adjust_p_values([0.2, 0.01], "none") == pytest.approx([0.2, 0.01])
    assert adjust_p_values([0.2, 0.01], "fdr") == pytest.approx(benjamini_hochberg([0.2, 0.01]))


# --------------------------------------------------------------------------- all pairs


def _accuracy_resampler() -> LinearResampler:
    """Rows (correct, total) per sentence; the score is sum(correct) / sum(total)."""
    return LinearResampler(lambda stats: stats, lambda sums: sums[..., 0] / sums[..., 1], "accuracy",
                           "accuracy|version:test")


def _systems(rates: dict[str, float], sentences: int = 300, seed: int = 0) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    totals = rng.integers(5, 15, size=sentences)
    return {name: np.stack([rng.binomial(totals, rate), totals], axis=1) for name, rate in rates.items()}


def test_pairs_with_the_baseline_have_the_one_baseline_test_p_values():
    systems = _systems({"base": 0.5, "a": 0.53, "b": 0.6, "c": 0.5})
    resampler = _accuracy_resampler()
    for method, samples in (("bs", 300), ("ar", 400)):
        single = paired_test_from_statistics(resampler, systems, method, samples, seed=7)
        every = all_pairs_test(resampler, systems, method, samples, seed=7, correction="none")
        assert len(every.pairs) == 6
        for system in single.systems[1:]:
            comparison = every.pair("base", system.name)
            assert comparison.p_value == system.p_value
            assert comparison.adjusted_p == system.p_value
        assert [s.score for s in every.systems] == [s.score for s in single.systems]
        assert [s.interval for s in every.systems] == [s.interval for s in single.systems]


def test_holm_correction_of_the_pairs_and_the_clusters():
    systems = _systems({"low": 0.4, "mid": 0.55, "mid2": 0.555, "high": 0.7}, sentences=400)
    result = all_pairs_test(_accuracy_resampler(), systems, "bs", 500, seed=1, correction="holm")
    raw = [p.p_value for p in result.pairs]
    assert [p.adjusted_p for p in result.pairs] == pytest.approx(list(holm(raw)))
    assert result.clusters[0] == ["high"]
    assert set(result.clusters[1]) == {"mid", "mid2"}
    assert result.clusters[-1] == ["low"]
    assert result.cluster_of("mid2") == 2
    assert not result.pair("mid", "mid2").significant
    assert result.pair("high", "low").significant
    assert result.pair("low", "high").difference == pytest.approx(-result.pair("high", "low").difference)
    data = result.to_dict(scale=100)
    assert data["correction"] == "holm" and data["clusters"] == result.clusters
    assert {s["system"]: s["cluster"] for s in data["systems"]} == {"low": 3, "mid": 2, "mid2": 2, "high": 1}
    assert "correction:holm" in result.signature and "pairs:all" in result.signature


def test_too_few_resamples_for_any_pair_to_differ_are_said():
    """No raw p is below 1/(N+1), so no Holm-adjusted p of m pairs is below m/(N+1): with 4
    systems (6 pairs) and 100 resamples nothing can come out significant, however far apart the
    systems are, and a warning says so and how many resamples would do (120); Benjamini-Hochberg's
    floor is 1/(N+1) itself."""
    import warnings

    systems = _systems({"low": 0.2, "mid": 0.5, "high": 0.8, "top": 0.95}, sentences=200)
    resampler = _accuracy_resampler()
    with pytest.warns(UserWarning, match=r"no pair can differ significantly: with 100 resamples \(or trials\) no "
                                         r"p-value is below 1/101, so no Holm-adjusted p-value of the 6 pairs is below "
                                         r"0.05 \(at least 120 resamples\)"):
        floored = all_pairs_test(resampler, systems, "bs", 100, correction="holm")
    assert not any(p.significant for p in floored.pairs) and min(p.adjusted_p for p in floored.pairs) == 6 / 101
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert all(p.significant for p in all_pairs_test(resampler, systems, "bs", 120, correction="holm").pairs)
        all_pairs_test(resampler, systems, "ar", 100, correction="bh")
    with pytest.warns(UserWarning, match="no Benjamini-Hochberg-adjusted p-value of the 6 pairs.*at least 20 resamples"):
        all_pairs_test(resampler, systems, "ar", 19, correction="bh")


def test_tiny_levels_say_how_many_resamples_without_hanging():
    """The count is found in exact arithmetic: a float quotient near 1e30 cannot step by one (the
    search never ended) and 6 / 5e-324 overflows a float."""
    systems = _systems({"low": 0.2, "high": 0.8}, sentences=20)
    with pytest.warns(UserWarning, match=r"below 1e-30 \(at least 1.00e\+30 resamples\)"):
        all_pairs_test(_accuracy_resampler(), systems, "bs", 20, correction="holm", level=1e-30)
    with pytest.warns(UserWarning, match=r"below 4.94066e-324 \(at least 2.02e\+323 resamples\)"):
        all_pairs_test(_accuracy_resampler(), systems, "bs", 20, correction="none", level=5e-324)


def test_clusters_follow_the_leader_and_the_metric_direction():
    names = ["a", "b", "c", "d"]
    scores = [0.9, 0.8, 0.7, 0.6]
    # b and c do not differ from a; d differs from a (but not from c): d starts the next cluster
    different = {(0, 1): False, (0, 2): False, (0, 3): True, (1, 2): False, (1, 3): True, (2, 3): False}
    assert clusters_of(names, scores, different) == [["a", "b", "c"], ["d"]]
    # an error rate: lower is better, d leads
    assert clusters_of(names, scores, different, higher_is_better=False) == [["d", "c"], ["b", "a"]]
    assert clusters_of(names, scores, {k: False for k in different}) == [names]
    assert clusters_of(names, scores, {k: True for k in different}) == [[n] for n in names]


def test_all_pairs_checks_its_arguments():
    systems = _systems({"a": 0.5, "b": 0.6}, sentences=20)
    resampler = _accuracy_resampler()
    with pytest.raises(InputError, match="at least two systems"):
        all_pairs_test(resampler, {"a": systems["a"]})
    with pytest.raises(InputError, match="correction"):
        all_pairs_test(resampler, systems, correction="sidak")
    with pytest.raises(InputError, match="level"):
        all_pairs_test(resampler, systems, level=1.5)
    with pytest.raises(InputError, match="same number of sentences"):
        all_pairs_test(resampler, {"a": systems["a"], "b": systems["b"][:10]})


# --------------------------------------------------------------------------- compare and paired_test


def _write_corpus(tmp_path):
    from tests.test_significance import write_corpus

    return write_corpus(tmp_path)


def test_paired_test_all_pairs_equals_the_statistics_test(tmp_path):
    from gecmetrics import GREEN, paired_test, read_lines
    from gecmetrics.run.engine import score_corpus, corpus_for

    paths = _write_corpus(tmp_path)
    sources = read_lines(paths["src"])
    references = [read_lines(paths["ref0"]), read_lines(paths["ref1"])]
    systems = {name: read_lines(paths[name]) for name in ("INPUT", "good", "weak")}
    result = paired_test(GREEN(), sources, references, systems, "ar", samples=300, seed=3, all_pairs=True,
                         correction="bh")
    metric = GREEN()
    scored = score_corpus([metric], corpus_for([metric], sources, references, systems))
    expected = all_pairs_test(metric.resampler(0, 2), scored.of_metric(0), "ar", 300, seed=3, correction="bh")
    assert result.to_dict() == expected.to_dict()
    single = paired_test(GREEN(), sources, references, systems, "ar", samples=300, seed=3)
    for system in single.systems[1:]:
        assert result.pair("INPUT", system.name).p_value == system.p_value
    raw = [p.p_value for p in result.pairs]
    assert [p.adjusted_p for p in result.pairs] == pytest.approx(list(benjamini_hochberg(raw)))
    with pytest.raises(InputError, match="correction"):
        paired_test(GREEN(), sources, references, systems, all_pairs=True, correction="sidak")
    with pytest.raises(InputError, match="at least two systems"):
        paired_test(GREEN(), sources, references, {"INPUT": systems["INPUT"]}, all_pairs=True)


def test_compare_cli_all_pairs(tmp_path):
    import json

    from click.testing import CliRunner

    from gecmetrics import GLEU, GREEN, paired_test, read_lines
    from gecmetrics.cli import main

    paths = _write_corpus(tmp_path)
    base = ["compare", "-s", paths["src"], "-r", paths["ref0"], paths["ref1"], "-o", paths["INPUT"], paths["good"],
            paths["weak"], "--metrics", "green:beta=0.5/2,gleu-max", "--paired-bs", "200", "--seed", "4",
            "--all-pairs"]
    runner = CliRunner()
    result = runner.invoke(main, base + ["--json"])
    assert result.exit_code == 0, result.output
    tables = json.loads(result.output)
    assert [t["metric"] for t in tables] == ["GREEN beta=0.5", "GREEN beta=2", "GLEU+"]
    assert all(t["correction"] == "holm" for t in tables)
    sources = read_lines(paths["src"])
    references = [read_lines(paths["ref0"]), read_lines(paths["ref1"])]
    systems = {paths[name]: read_lines(paths[name]) for name in ("INPUT", "good", "weak")}
    for table, (metric, column) in zip(tables, [(GREEN(beta=[0.5, 2]), 0), (GREEN(beta=[0.5, 2]), 1),
                                                (GLEU(best_reference=True), 0)]):
        expected = paired_test(metric, sources, references, systems, "bs", 200, seed=4, column=column,
                               all_pairs=True)
        assert table == expected.to_dict(scale=100)
    # the text: per column a title, the systems with their clusters, the pairs, the clusters line
    text = runner.invoke(main, base + ["--correction", "none"])
    assert text.exit_code == 0, text.output
    assert text.output.count("all pairs, no correction: ") == 3
    assert text.output.count("clusters: {") == 3
    first = tables[0]
    line = "clusters: " + " > ".join("{" + ", ".join(members) + "}" for members in first["clusters"])
    assert line in text.output
    tsv = runner.invoke(main, base + ["--tsv"])
    assert tsv.exit_code == 0, tsv.output
    assert tsv.output.splitlines()[0].split("\t") == ["metric", "system", "score (x100)", "95% CI", "mean ± CI/2",
                                                      "cluster"]
    assert "metric\tsystem\tother\tdifference (x100)\tp-value\tadjusted p" in tsv.output


def test_compare_cli_all_pairs_errors_are_one_line(tmp_path):
    from click.testing import CliRunner

    from gecmetrics.cli import main

    paths = _write_corpus(tmp_path)
    base = ["compare", "-s", paths["src"], "-r", paths["ref0"], paths["ref1"], "-o", paths["INPUT"], paths["good"],
            "--metrics", "green"]
    runner = CliRunner()
    alone = runner.invoke(main, base + ["--all-pairs"])
    assert alone.exit_code == 2 and "needs --paired-bs or --paired-ar" in alone.output
    correction = runner.invoke(main, base + ["--paired-bs", "10", "--correction", "bh"])
    assert correction.exit_code == 2 and "give --all-pairs with it" in correction.output
    wrong = runner.invoke(main, base + ["--paired-bs", "10", "--all-pairs", "--correction", "sidak"])
    assert wrong.exit_code == 2
    one = runner.invoke(main, ["compare", "-s", paths["src"], "-r", paths["ref0"], "-o", paths["good"],
                               "--metrics", "green", "--paired-bs", "10", "--all-pairs"])
    assert one.exit_code == 2 and "at least two" in one.output
