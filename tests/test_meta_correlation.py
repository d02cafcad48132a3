"""System-level correlations from raw judgments: Kendall, vectorized correlations, Williams'
test, bootstrap intervals (judgments and sentences), paired A/B tests, the GREEN poster."""
from __future__ import annotations

import math
import os
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gecmetrics.errors import InputError
from gecmetrics.meta.correlations import (
    correlation,
    correlation_rows,
    kendall,
    regularized_beta,
    student_t_sf,
    williams_test,
)
from gecmetrics.meta.resampling import additive_resampler, percentile_interval
from gecmetrics.meta.system_level import compare_metrics, correlate_with_judgments
from gecmetrics.io.judgments import parse_judgments, read_judgments
from gecmetrics.meta.sentence import rows_of_src_ids
from gecmetrics.meta.human_tables import load_human
from gecmetrics.core.resampling import Resample
from tests.conftest import read_tsv

scipy_stats = pytest.importorskip("scipy.stats")
scipy_special = pytest.importorskip("scipy.special")

DATA = Path(__file__).resolve().parent / "data"
GJG15_SUBMISSIONS_VARIABLE = "GECMETRICS_GJG15_SUBMISSIONS"
GJG15_SUBMISSIONS_DEFAULT = "/tmp/peers/meta-ge/data/original/official_submissions"


def gjg15(shared_data: Path):
    return read_judgments(shared_data / "human" / "judgments" / "gjg15.xml")


def poster_green_scores() -> dict[str, float]:
    """Corpus GREEN (word, beta 2) of the 13 GJG15 systems printed by the original GREEN."""
    return {row["system"]: float(row["green_word_b2"]) / 100 for row in read_tsv(DATA / "meta_green_gjg15.tsv")}


# --------------------------------------------------------------------------- correlations


values = st.lists(st.integers(min_value=-3, max_value=3), min_size=3, max_size=14)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_correlations_equal_scipy(data) -> None:
    x = data.draw(values)
    y = data.draw(st.lists(st.integers(min_value=-3, max_value=3), min_size=len(x), max_size=len(x)))
    if len(set(x)) == 1 or len(set(y)) == 1:
        with pytest.raises(InputError, match="constant"):
            kendall(x, y)
        return
    assert kendall(x, y) == pytest.approx(scipy_stats.kendalltau(x, y)[0], abs=1e-12)  # tau-b
    rows_x, rows_y = np.array([x, y], float), np.array([y, x], float)
    assert correlation_rows("spearman", rows_x, rows_y)[0] == pytest.approx(scipy_stats.spearmanr(x, y)[0], abs=1e-12)
    assert correlation_rows("pearson", rows_x, rows_y)[1] == pytest.approx(scipy_stats.pearsonr(y, x)[0], abs=1e-12)
    assert correlation_rows("kendall", rows_x, rows_y)[0] == pytest.approx(kendall(x, y), abs=1e-12)


@pytest.mark.parametrize("exponent", [-1074, -1000, 0, 900, 1021])
def test_correlations_at_the_ends_of_the_float_range(exponent: int) -> None:
    # the same correlation after scaling by a power of two: near 1e308 the mean's sum overflowed
    # (pearson nan, with a warning), near 5e-324 the deviations were lost
    x = [3.0, -1.0, 4.0, 1.0, 5.0]
    y = [2.0, 7.0, 1.0, 8.0, 2.0]
    scaled = [math.ldexp(value, exponent) for value in x]  # 5 * 2**1021 is 1.1e308
    with np.errstate(all="raise"):
        for name in ("pearson", "spearman", "kendall"):
            assert correlation(name, scaled, y) == correlation(name, x, y), name


def test_kendall_hand_computed_and_unknown_name() -> None:
    # pairs of (1,2,3,4) vs (1,3,2,4): 5 concordant, 1 discordant: tau = 4/6
    assert kendall([1, 2, 3, 4], [1, 3, 2, 4]) == pytest.approx(4 / 6, abs=1e-15)
    with pytest.raises(InputError, match="unknown correlation 'tau'"):
        correlation("tau", [1, 2, 3], [1, 2, 3])


@pytest.mark.parametrize("a, b, x", [(0.5, 0.5, 0.3), (5.0, 0.5, 0.9), (0.5, 30.0, 0.01), (100.0, 0.5, 0.995)])
def test_regularized_beta_and_t_tail_equal_scipy(a: float, b: float, x: float) -> None:
    assert regularized_beta(a, b, x) == pytest.approx(scipy_special.betainc(a, b, x), rel=1e-10, abs=1e-14)
    for t, df in ((0.3, 10), (2.5, 10), (-1.7, 4), (8.0, 1)):
        assert student_t_sf(t, df) == pytest.approx(scipy_stats.t.sf(t, df), rel=1e-10)


def test_williams_test_formula() -> None:
    # Graham & Baldwin (2014) eq. for n = 13, r12 = 0.8, r13 = 0.6, r23 = 0.7
    r12, r13, r23, n = 0.8, 0.6, 0.7, 13
    det = 1 - r12 ** 2 - r13 ** 2 - r23 ** 2 + 2 * r12 * r13 * r23
    t = (r12 - r13) * math.sqrt((n - 1) * (1 + r23)) / math.sqrt(2 * (n - 1) / (n - 3) * det
                                                                   + ((r12 + r13) / 2) ** 2 * (1 - r23) ** 3)
    result = williams_test(r12, r13, r23, n)
    assert result.t == pytest.approx(t, abs=1e-12)
    assert result.p_value == pytest.approx(scipy_stats.t.sf(t, n - 3), rel=1e-10)
    assert williams_test(r13, r12, r23, n).p_value == pytest.approx(1 - result.p_value, rel=1e-10)
    with pytest.raises(InputError, match="more than 3"):
        williams_test(0.5, 0.4, 0.3, 3)
    # n = 10.5 was a p-value; "10" and a correlation given as text were TypeErrors
    for args, message in (((0.5, 0.4, 0.3, 10.5), "integer"), ((0.5, 0.4, 0.3, "10"), "integer"),
                          ((0.5, 0.4, 0.3, True), "integer"), (("0.5", 0.4, 0.3, 10), "correlation")):
        with pytest.raises(InputError, match=message):
            williams_test(*args)
    assert williams_test(r12, r13, r23, np.int64(13)).t == result.t


def test_percentile_interval_counts_undefined() -> None:
    (low, high), undefined = percentile_interval(np.array([np.nan, *range(40)], float), 0.95)
    assert (low, high, undefined) == (1.0, 38.0, 1)  # k = floor(40 * 0.025) = 1: sorted[1], sorted[38]


# --------------------------------------------------------------------------- GJG15 and the GREEN poster


def test_green_poster_correlation_from_raw_judgments(shared_data: Path) -> None:
    """The GREEN poster: wordGREEN (beta 2) against GJG15's Expected Wins of the 13 systems
    (INPUT included) computed from the raw judgments: Pearson 0.741, Spearman 0.698."""
    result = correlate_with_judgments({"GREEN": poster_green_scores()}, gjg15(shared_data), resampling=None)[0]
    assert len(result.systems) == 13
    assert round(result.values["pearson"], 3) == 0.741 and round(result.values["spearman"], 3) == 0.698
    # with the 3-decimal table shipped with the package the Pearson r is 0.742, not the poster's
    table = load_human("gjg15").scores["expected_wins"]
    green = poster_green_scores()
    assert round(correlation("pearson", [green[s] for s in table], list(table.values())), 3) == 0.742


def gjg15_submissions() -> Path:
    folder = Path(os.environ.get(GJG15_SUBMISSIONS_VARIABLE, GJG15_SUBMISSIONS_DEFAULT))
    if not (folder / "IPN").is_file():
        pytest.skip(f"the 13 CoNLL-2014 submissions judged by GJG15 (github grammatical/evaluation "
                    f"data/original/official_submissions) are not at {folder}; set {GJG15_SUBMISSIONS_VARIABLE}")
    return folder


def test_green_poster_end_to_end_from_the_system_outputs(shared_data: Path) -> None:
    """Scores the 13 submissions with our GREEN (equal to the original's printed scores) and
    correlates them with the Expected Wins of the raw judgments."""
    from gecmetrics import GREEN, read_lines

    folder = gjg15_submissions()
    conll = shared_data / "conll14"
    sources = read_lines(str(conll / "INPUT"))
    references = [read_lines(str(conll / "REF0")), read_lines(str(conll / "REF1"))]
    metric = GREEN(beta=2.0)
    encoded = metric.encode(sources, references)
    ours = {s: metric.corpus_score(sources, references, read_lines(str(folder / s)), prepared=encoded).score
            for s in poster_green_scores()}
    for system, printed in poster_green_scores().items():
        assert f"{ours[system] * 100:.6f}" == f"{printed * 100:.6f}", system
    result = correlate_with_judgments({"GREEN": ours}, gjg15(shared_data), resampling=None)[0]
    assert (round(result.values["pearson"], 3), round(result.values["spearman"], 3)) == (0.741, 0.698)


def test_gjg15_table5_m2_against_raw_expected_wins(shared_data: Path) -> None:
    """GJG15 Table 5 correlated M2 with the 3-decimal EW (0.627 / 0.692, checked in
    test_meta_eval.py); the 4-decimal EW from the raw judgments give the same Spearman."""
    m2 = dict(load_human("gjg15").scores["m2_f05_gjg15"])
    result = correlate_with_judgments({"M2": m2}, gjg15(shared_data), resampling=None)[0]
    assert result.values["spearman"] == pytest.approx(9 / 13, abs=1e-12)
    assert round(result.values["pearson"], 2) == 0.63


# --------------------------------------------------------------------------- bootstrap


def test_judgment_bootstrap_intervals(shared_data: Path) -> None:
    judgments = gjg15(shared_data)
    scores = {"GREEN": poster_green_scores(), "M2": dict(load_human("gjg15").scores["m2_f05_gjg15"])}
    pair = correlate_with_judgments(scores, judgments, resamples=300, seed=1)
    again = correlate_with_judgments(scores, judgments, resamples=300, seed=1)
    item = correlate_with_judgments(scores, judgments, unit="item", resamples=300, seed=1)
    assert [r.intervals for r in pair] == [r.intervals for r in again]
    for result in pair + item:
        assert result.resamples == 300 and result.undefined == {"pearson": 0, "spearman": 0, "kendall": 0}
        for name, (low, high) in result.intervals.items():
            assert low <= result.values[name] <= high, (result.metric, name)
    # resampling whole items (dependent comparisons together) gives wider intervals
    width = lambda r: r.intervals["pearson"][1] - r.intervals["pearson"][0]  # noqa: E731
    assert width(item[0]) > width(pair[0])
    assert pair[0].to_dict()["resampling"] == "judgments/pair" and item[0].resampling == "judgments/item"


def test_intervals_from_few_resamples_are_warned_about() -> None:
    # resamples=1 gave the interval (0.862, 0.862) around 0.955 without a word
    judgments, statistics, ratio = _toy()
    scores = {"m": {s: float(ratio(rows.sum(axis=0))) + k for k, (s, rows) in enumerate(statistics.items())}}
    for resamples, confidence, needed in ((1, 0.95, 40), (39, 0.95, 40), (100, 0.99, 200)):
        with pytest.warns(UserWarning, match=rf"the correlations' {100 * confidence:g}% intervals come from only "
                                             rf"{resamples} resamples? \(at least {needed}\)"):
            correlate_with_judgments(scores, judgments, resamples=resamples, confidence=confidence, seed=1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        correlate_with_judgments(scores, judgments, resamples=40, seed=1)


def _toy(tmp_sentences: int = 6):
    """4 systems x 6 sentences, one item per sentence ranking all 4 by a fixed order."""
    xml = ["<r>"]
    for sentence in range(tmp_sentences):
        xml.append(f"<ranking-item src-id='{sentence}' user='u'>")
        for rank, system in enumerate(["A", "B", "C", "D"], start=1):
            xml.append(f"<translation system='{system}' rank='{rank if sentence % 3 else 5 - rank}'/>")
        xml.append("</ranking-item>")
    judgments = parse_judgments(("".join(xml) + "</r>").encode(), "toy.xml")
    rows = np.arange(4 * tmp_sentences, dtype=float).reshape(tmp_sentences, 4) % 5 + 1
    statistics = {s: np.column_stack([rows[:, k], np.full(tmp_sentences, 5.0)]) for k, s in enumerate("ABCD")}
    ratio = lambda sums: sums[..., 0] / sums[..., 1]  # noqa: E731
    return judgments, statistics, ratio


def test_sentence_bootstrap_reweights_metric_and_judgments_together() -> None:
    judgments, statistics, ratio = _toy()
    scores = {"m": {s: float(ratio(rows.sum(axis=0))) for s, rows in statistics.items()},
              "n": {s: float(-ratio(rows.sum(axis=0)) + (s == "D")) for s, rows in statistics.items()}}
    resamplers = {"m": {s: additive_resampler(rows, ratio) for s, rows in statistics.items()},
                  "n": {s: (lambda idx, rows=rows: -additive_resampler(rows, ratio)(idx) + (rows is statistics["D"]))
                        for s, rows in statistics.items()}}
    item_rows = rows_of_src_ids(judgments, first_line=0)
    results = correlate_with_judgments(scores, judgments, resampling="sentences", resamplers=resamplers,
                                       item_rows=item_rows, sentences=6, resamples=200, seed=0)
    assert results[0].resampling == "sentences" and results[0].resamples == 200
    for result in results:
        for name, (low, high) in result.intervals.items():
            assert -1.0 <= low <= high <= 1.0
    # an identity resample (every sentence once) reproduces the point values
    identity = Resample(np.tile(np.arange(6), (1, 1)))
    assert resamplers["m"]["A"](identity)[0] == pytest.approx(scores["m"]["A"], abs=1e-15)
    comparison = compare_metrics("m", "n", scores, judgments, resampling="sentences", resamplers=resamplers,
                                 item_rows=item_rows, sentences=6, resamples=200, seed=0)
    assert 0.0 < comparison.p_values["pearson"] <= 1.0
    difference = results[0].values["pearson"] - results[1].values["pearson"]
    assert comparison.differences["pearson"] == pytest.approx(difference)
    with pytest.raises(InputError, match="no sentence resampler"):
        correlate_with_judgments(scores, judgments, resampling="sentences", resamplers={"m": resamplers["m"]},
                                 item_rows=item_rows, sentences=6, resamples=10)
    with pytest.raises(InputError, match="outside|no sentence") as caught:
        correlate_with_judgments(scores, judgments, resampling="sentences", resamplers=resamplers,
                                 item_rows=item_rows, sentences=3, resamples=10)
    assert caught.value.path == "toy.xml" and caught.value.line is not None


def test_paired_comparison_of_two_metrics(shared_data: Path) -> None:
    judgments = gjg15(shared_data)
    scores = {"GREEN": poster_green_scores(), "M2": dict(load_human("gjg15").scores["m2_f05_gjg15"])}
    comparison = compare_metrics("GREEN", "M2", scores, judgments, resamples=500, seed=0)
    assert comparison.differences["pearson"] > 0  # 0.741 vs 0.625
    low, high = comparison.intervals["pearson"]
    assert low <= comparison.differences["pearson"] <= high
    reverse = compare_metrics("M2", "GREEN", scores, judgments, resamples=500, seed=0)
    assert comparison.p_values["pearson"] < 0.5 < reverse.p_values["pearson"]
    assert comparison.williams.p_value == pytest.approx(1 - reverse.williams.p_value, rel=1e-9)
    assert set(comparison.to_dict()) >= {"differences", "intervals", "p_values", "williams"}
    with pytest.raises(InputError, match="two different metrics"):
        compare_metrics("GREEN", "GREEN", scores, judgments)
    with pytest.raises(InputError, match="no scores for metric 'BLEU'"):
        compare_metrics("GREEN", "BLEU", scores, judgments)


# --------------------------------------------------------------------------- bad input


def test_systems_must_match_both_ways(shared_data: Path) -> None:
    judgments = gjg15(shared_data)
    green = poster_green_scores()
    without_ipn = {s: v for s, v in green.items() if s != "IPN"}
    with pytest.raises(InputError, match="without a score from metric 'GREEN': IPN") as caught:
        correlate_with_judgments({"GREEN": without_ipn}, judgments)
    assert caught.value.path.endswith("gjg15.xml") and "\n" not in str(caught.value)
    with pytest.raises(InputError, match="do not rank have a score from metric 'GREEN': REF0"):
        correlate_with_judgments({"GREEN": {**green, "REF0": 0.9}}, judgments)
    with pytest.raises(InputError, match="at least 3 systems"):
        correlate_with_judgments({"GREEN": green}, judgments, systems=["AMU", "CAMB"])
    with pytest.raises(InputError, match="systems must be a sequence of system names, got 'AMU'"):
        correlate_with_judgments({"GREEN": green}, judgments, systems="AMU")  # was read as the systems A, M, U
    with pytest.raises(InputError, match="unknown resampling 'systems'"):
        correlate_with_judgments({"GREEN": green}, judgments, resampling="systems")
    with pytest.raises(InputError, match="unknown resampling unit"):
        correlate_with_judgments({"GREEN": green}, judgments, unit="annotator")
    with pytest.raises(InputError, match="not a finite number"):
        correlate_with_judgments({"GREEN": {**green, "AMU": float("nan")}}, judgments)
    subset = correlate_with_judgments({"GREEN": without_ipn}, judgments, systems=[s for s in green if s != "IPN"],
                                      resampling=None)[0]
    assert len(subset.systems) == 12
