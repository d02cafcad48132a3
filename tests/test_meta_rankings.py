"""Human rankings from raw judgments: Expected Wins (plain and GJG15's bootstrap mean), TrueSkill
(TS.py's procedure), rank ranges and clusters."""
from __future__ import annotations

import math
import random
import warnings
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import numpy as np
import pytest

from gecmetrics.errors import InputError
from gecmetrics.io.judgments import parse_judgments, read_judgments
from gecmetrics.stats.rankings import (
    RankRange,
    clusters_of,
    expected_wins,
    expected_wins_of_counts,
    human_ranking,
    rank_ranges,
    trueskill_scores,
)
from tests.conftest import read_tsv, run_cli

DATA = Path(__file__).resolve().parent / "data"
SEEDA_SYSTEMS = ["BART", "BERT-fuse", "GECToR-BERT", "GECToR-ens", "GPT-3.5", "INPUT", "LM-Critic", "PIE", "REF-F",
                 "REF-M", "Riken-Tohoku", "T5", "TemplateGEC", "TransGEC", "UEDIN-MS"]
# ../shared/data/human/judgments/README.md: GJG15's Expected Wins at 4 decimals (their EW script).
GJG15_EW = {"AMU": "0.6284", "RAC": "0.5660", "CAMB": "0.5607", "CUUI": "0.5497", "POST": "0.5390", "UFC": "0.5135",
            "PKU": "0.5064", "UMC": "0.4945", "IITB": "0.4851", "SJTU": "0.4634", "INPUT": "0.4564",
            "NTHU": "0.4371", "IPN": "0.2999"}


def fixed(value: float, digits: int) -> str:
    return str(Decimal(repr(value)).quantize(Decimal(1).scaleb(-digits), ROUND_HALF_UP))


def judgments_file(shared_data: Path, name: str):
    return read_judgments(shared_data / "human" / "judgments" / f"{name}.xml")


def published(shared_data: Path, name: str) -> dict[str, float]:
    values = (shared_data / "human" / "judgments" / f"seeda_{name}.txt").read_text().split()
    return dict(zip(SEEDA_SYSTEMS, map(float, values)))


def spread() -> dict[tuple[str, str], dict[str, float]]:
    return {(row["judgments"], row["system"]): {k: float(v) for k, v in row.items() if k not in ("judgments", "system")}
            for row in read_tsv(DATA / "meta_seeda_spread.tsv")}


# --------------------------------------------------------------------------- Expected Wins


def test_expected_wins_hand_computed() -> None:
    # A beat B 3 times and lost once; A beat C once; B and C never decided (contributes 0).
    wins = np.array([[0, 3, 1], [1, 0, 0], [0, 0, 0]])
    assert expected_wins_of_counts(wins).tolist() == pytest.approx([(0.75 + 1.0) / 2, 0.25 / 2, 0.0])


def test_gjg15_expected_wins_at_four_decimals(shared_data: Path) -> None:
    ranking = expected_wins(judgments_file(shared_data, "gjg15"), resamples=0)
    assert {s: fixed(v, 4) for s, v in ranking.scores.items()} == GJG15_EW
    assert ranking.systems == list(GJG15_EW)  # best first, the paper's order


@pytest.mark.parametrize("name", ["gjg15", "seeda_sent", "seeda_edit"])
def test_plain_expected_wins_equal_ew_pl(shared_data: Path, name: str) -> None:
    printed = {row["system"]: row["ew"] for row in read_tsv(DATA / "meta_ewpl.tsv") if row["file"] == name}
    ranking = expected_wins(judgments_file(shared_data, name), resamples=0)
    assert {s: fixed(v, 4) for s, v in ranking.scores.items()} == printed
    assert ranking.systems == list(printed)


def test_seeda_plain_definition_is_off_by_a_thousandth_in_seven_of_thirty(shared_data: Path) -> None:
    """SEEDA's EW files are a bootstrap mean (below); the plain statistic matches 23 of the 30
    printed values and is within 0.001 of all."""
    exact = 0
    for kind in ("sent", "edit"):
        scores = expected_wins(judgments_file(shared_data, f"seeda_{kind}"), resamples=0).scores
        for system, value in published(shared_data, f"EW_{kind}").items():
            assert abs(scores[system] - value) <= 0.001 + 1e-12
            exact += fixed(scores[system], 3) == f"{value:.3f}"
    assert exact == 23


@pytest.mark.parametrize("kind", ["sent", "edit"])
def test_seeda_expected_wins_are_the_makefile_bootstrap_mean(shared_data: Path, kind: str) -> None:
    """GJG15's Makefile (which SEEDA ran on its XML): EW.py on 1000 bootstrap resamples of the
    comparisons, then the mean (cluster.py). Ours, seeded, is within the run-to-run spread of
    that procedure (measured by running the original, tests/data/meta_seeda_spread.tsv) of all
    15 printed values: the difference of two 1000-resample means, plus the printed rounding."""
    ranking = expected_wins(judgments_file(shared_data, f"seeda_{kind}"), "bootstrap-mean", resamples=1000, seed=0)
    measured = spread()
    for system, value in published(shared_data, f"EW_{kind}").items():
        run_sd = measured[(kind, system)]["ew_run_sd"]
        tolerance = 0.0005 + 3 * math.sqrt(2) * run_sd / math.sqrt(1000)
        assert abs(ranking.scores[system] - value) <= tolerance, (system, ranking.scores[system], value)
        original_mean = measured[(kind, system)]["ew_makefile_mean"]
        assert abs(ranking.scores[system] - original_mean) <= 3 * math.sqrt(2) * run_sd / math.sqrt(1000)


def test_bootstrap_is_seeded_and_ranges_contain_the_rank(shared_data: Path) -> None:
    judgments = judgments_file(shared_data, "seeda_edit")
    first = expected_wins(judgments, "bootstrap-mean", resamples=200, seed=3)
    again = expected_wins(judgments, "bootstrap-mean", resamples=200, seed=3)
    assert first.scores == again.scores and first.ranges == again.ranges
    for position, system in enumerate(first.systems, start=1):
        assert first.ranges[system].best <= position <= first.ranges[system].worst
    assert sum(len(c) for c in first.clusters) == 15 and first.clusters[-1] == ["INPUT"]


def test_resamples_made_in_blocks_are_those_made_at_once(shared_data: Path, monkeypatch) -> None:
    """The (R, S, S) win counts of a judgment bootstrap are made a block of resamples at a time
    (100 systems x 10^5 resamples would be 8 GB at once): by comparison, by ranking item and by
    sentence, blocks of 7, 1 and all resamples give the same Expected Wins to the last bit."""
    from gecmetrics.core.resampling import Resample
    from gecmetrics.meta import resampling
    from gecmetrics.stats import rankings

    judgments = judgments_file(shared_data, "seeda_edit")
    item_rows = np.array([item.src_id - 1 for item in judgments.items])
    size = int(item_rows.max()) + 1
    sentences = Resample(np.random.default_rng(2).integers(0, size, size=(23, size)))

    def made() -> list[np.ndarray]:
        return [resampling.judgment_resamples(judgments, "pair", 23, 5),
                resampling.judgment_resamples(judgments, "item", 23, 5),
                resampling.human_on_sentence_resamples(judgments, item_rows, sentences)]

    whole = made()
    assert [part.shape for part in whole] == [(23, 15)] * 3
    for cells in (7 * 16 * 16, 1):  # blocks of 7 resamples (15 systems: 226 cells a row), of one
        monkeypatch.setattr(rankings, "RESAMPLE_CELLS", cells)
        assert all(np.array_equal(a, b) for a, b in zip(made(), whole))
    monkeypatch.setattr(resampling, "MAX_ITEM_CELLS", len(judgments.items) * 15 ** 2 - 1)
    with pytest.raises(InputError, match="resample comparisons \\(unit pair\\) instead"):
        resampling.judgment_resamples(judgments, "item", 23, 5)


# --------------------------------------------------------------------------- ranges and clusters


def test_rank_ranges_drop_the_tails_as_cluster_py() -> None:
    # 40 samples, confidence 0.9: alpha = ceil((40 - 36) / 2) = 2 ranks dropped at each end.
    rng = np.random.default_rng(0)
    samples = np.column_stack([np.full(40, 3.0), np.full(40, 2.0) + rng.normal(0, 0.01, 40), np.full(40, 1.0)])
    samples[:2, 2] = 5.0  # C is first in 2 samples only: dropped
    samples[2:5, 1] = 4.0  # B is first in 3 samples: kept
    ranges = rank_ranges(samples, ["A", "B", "C"], confidence=0.9)
    assert ranges == {"A": RankRange(1, 2), "B": RankRange(1, 2), "C": RankRange(3, 3)}
    assert clusters_of(["A", "B", "C"], ranges) == [["A", "B"], ["C"]]
    assert str(RankRange(2, 4)) == "2-4" and str(RankRange(3, 3)) == "3"


def test_equal_scores_rank_the_later_name_first() -> None:
    ranges = rank_ranges(np.array([[1.0, 1.0, 0.0]]), ["A", "B", "C"])
    assert ranges["B"] == RankRange(1, 1) and ranges["A"] == RankRange(2, 2)


def test_tied_expected_wins_are_listed_in_the_order_their_ranks_give() -> None:
    """All-tie judgments: the listing put A, B, C (earlier name first) while the rank ranges,
    whose tie-break is wmt-trueskill's (the later name first), gave them 3, 2, 1. The listing
    follows the ranks now, the ranks unchanged; without resamples (no ranks) it stays by name."""
    items = "".join(f"<ranking-item src-id='{k}'>" + "".join(f"<translation system='{s}' rank='1'/>" for s in "ABC")
                    + "</ranking-item>" for k in range(4))
    judgments = parse_judgments(f"<r>{items}</r>".encode())
    with pytest.warns(UserWarning, match=r"systems of equal scores \(A, B, C\) are ranked by name .* are no "
                                         "difference between them"):
        ranked = expected_wins(judgments, "plain", resamples=40, seed=0)
    assert ranked.systems == ["C", "B", "A"]
    assert [str(ranked.ranges[s]) for s in ranked.systems] == ["1", "2", "3"]
    assert ranked.clusters == [["C"], ["B"], ["A"]]
    assert expected_wins(judgments, "plain", resamples=0).systems == ["A", "B", "C"]
    assert expected_wins(judgments, "bootstrap-mean", resamples=20, seed=0).systems == ["C", "B", "A"]


def test_ranges_from_few_resamples_are_warned_about_by_the_library() -> None:
    # expected_wins(resamples=1) drew zero-width ranges without a word (the command alone said it)
    items = "".join(f"<ranking-item src-id='{k}'><translation system='A' rank='1'/><translation system='B' rank='2'/>"
                    f"<translation system='C' rank='3'/></ranking-item>" for k in range(3))
    judgments = parse_judgments(f"<r>{items}</r>".encode())
    for resamples, confidence, needed in ((1, 0.95, 40), (39, 0.95, 40), (150, 0.99, 200)):
        with pytest.warns(UserWarning, match=f"only {resamples} resamples? \\(at least {needed} for a "
                                             f"{100 * confidence:g}% range"):
            expected_wins(judgments, resamples=resamples, confidence=confidence)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        expected_wins(judgments, resamples=40)
        expected_wins(judgments, resamples=0)


# --------------------------------------------------------------------------- bad input


def test_bad_input_is_one_line() -> None:
    two = parse_judgments(b"<r><ranking-item src-id='1'><translation system='A' rank='1'/>"
                          b"<translation system='B' rank='2'/></ranking-item></r>", "two.xml")
    with pytest.raises(InputError, match="at least 3 systems") as caught:
        expected_wins(two)
    assert caught.value.path == "two.xml"
    with pytest.raises(InputError, match="unknown ranking method 'elo'"):
        human_ranking(two, "elo")
    with pytest.raises(InputError, match="unknown Expected Wins procedure"):
        expected_wins(two, "mean")
    three = parse_judgments(b"<r><ranking-item src-id='1'><translation system='A' rank='1'/>"
                            b"<translation system='B C' rank='2'/></ranking-item></r>", "three.xml")
    with pytest.raises(InputError, match="resamples"):
        expected_wins(three, resamples=-1)
    with pytest.raises(InputError, match="confidence"):
        expected_wins(three, confidence=1.5)


def test_rank_refuses_zero_trueskill_runs(tmp_path: Path) -> None:
    """``--ranking ts --bootstrap 0`` ran the default 10 runs and said so in its title."""
    (tmp_path / "j.xml").write_bytes(b"<r><ranking-item src-id='1'><translation system='A' rank='1'/>"
                                     b"<translation system='B' rank='2'/><translation system='C' rank='3'/>"
                                     b"</ranking-item></r>")
    code, out, err = run_cli("rank", "--judgments", str(tmp_path / "j.xml"), "--ranking", "ts", "--bootstrap", "0")
    assert (code, out) == (2, "") and err == "gecmetric: error: --bootstrap: TrueSkill (--ranking ts) needs at least 1 run, got 0\n"


def test_a_system_in_no_comparison_is_left_out_of_the_ranking(tmp_path: Path) -> None:
    """A system ranked alone in each of its items is in no comparison GJG15's print_pairs.pl
    writes, so EW.py, EW.pl and TS.py never see it. It was ranked here with Expected Wins 0 and
    counted among every system's S - 1 opponents: B C D and E scored 3/4, 2/4, 1/4, 0 where EW.py
    prints 1, 2/3, 1/3, 0 (found by a differential fuzz against EW.py). It is left out, with a
    warning naming it, by `rank`, `meta-eval` and the library."""
    from gecmetrics.meta.evaluate import meta_evaluate_judgments
    from gecmetrics.meta.system_level import correlate_with_judgments
    from gecmetrics.stats.rankings import expected_wins

    path = tmp_path / "single.xml"
    path.write_bytes(b"<r><ranking-item src-id='1'><translation system='A' rank='1'/></ranking-item>\n"
                     b"<ranking-item src-id='1'><translation system='B' rank='1'/><translation system='C' rank='2'/>"
                     b"<translation system='D' rank='3'/><translation system='E' rank='4'/></ranking-item></r>")
    note = ("single.xml: A is never compared with another system (ranked alone in every item): no human score, "
            "left out of the ranking (GJG15's EW.py, EW.pl and TS.py never see such a system)")
    judgments = parse_judgments(path.read_bytes(), str(path))
    assert judgments.uncompared_note() == note and judgments.compared().systems == ("B", "C", "D", "E")
    with pytest.warns(UserWarning, match="A is never compared"):
        ranking = expected_wins(judgments, resamples=0)
    assert ranking.scores == pytest.approx({"B": 1.0, "C": 2 / 3, "D": 1 / 3, "E": 0.0}, abs=1e-15)
    code, out, err = run_cli("rank", "--judgments", str(path), "--bootstrap", "0")
    assert code == 0 and "|   C    | 0.6667 |" in out and "A " not in out and err == f"gecmetric: warning: {note}\n"
    scores = {"m": {"A": 0.9, "B": 0.8, "C": 0.1, "D": 0.2, "E": 0.0}}
    result = meta_evaluate_judgments(str(path), scores=scores)
    assert note in result.warnings and result.systems == ["B", "C", "D", "E"]
    del scores["m"]["A"]  # (a score of A is one the judgments cannot rank: an error naming it)
    with pytest.warns(UserWarning, match="A is never compared"):
        correlations = correlate_with_judgments(scores, judgments, resampling=None)
    assert correlations[0].systems == ["B", "C", "D", "E"]
    assert meta_evaluate_judgments(str(path), scores=scores, systems="B,C,D").warnings == [
        "the correlations rest on 3 systems only: with fewer than 5, one system moves them a lot"]


# --------------------------------------------------------------------------- TrueSkill


def test_one_versus_one_update_equals_the_trueskill_factor_graph() -> None:
    trueskill = pytest.importorskip("trueskill")
    from gecmetrics.stats.rankings import _OneVersusOne

    rnd = random.Random(7)
    for beta in (0.1, 4.0, 419.3):
        env = trueskill.TrueSkill(mu=0.0, sigma=0.5, beta=beta, tau=0.0, draw_probability=0.25)
        update = _OneVersusOne(env, trueskill.calc_draw_margin(0.25, 2, env))
        for _ in range(300):
            mu_a, mu_b = rnd.uniform(-1, 1), rnd.uniform(-1, 1)
            sigma_a, sigma_b = rnd.uniform(0.05, 0.5), rnd.uniform(0.05, 0.5)
            outcome = rnd.choice([1, 0, -1])
            ranks = {1: [1, 2], 0: [1, 1], -1: [2, 1]}[outcome]
            teams = [(env.create_rating(mu_a, sigma_a),), (env.create_rating(mu_b, sigma_b),)]
            (a,), (b,) = env.rate(teams, ranks=ranks)
            got = update.update(mu_a, sigma_a ** 2, mu_b, sigma_b ** 2, outcome)
            assert got[0] == pytest.approx(a.mu, abs=1e-12) and got[2] == pytest.approx(b.mu, abs=1e-12)
            assert math.sqrt(got[1]) == pytest.approx(a.sigma, abs=1e-12)
            assert math.sqrt(got[3]) == pytest.approx(b.sigma, abs=1e-12)


@pytest.mark.parametrize("kind", ["sent", "edit"])
def test_seeda_trueskill_within_the_spread_of_ts_py(shared_data: Path, kind: str) -> None:
    """Two seeded runs of TS.py's procedure against SEEDA's printed TrueSkill and against the
    mean of 10 runs of the original TS.py: within 3 standard deviations of the difference,
    the per-run standard deviation measured on those original runs."""
    pytest.importorskip("trueskill")
    runs = 2
    ranking = trueskill_scores(judgments_file(shared_data, f"seeda_{kind}"), runs=runs, seed=0)
    measured = spread()
    for system, value in published(shared_data, f"TS_{kind}").items():
        row = measured[(kind, system)]
        sd = row["ts_run_sd"]
        assert abs(ranking.scores[system] - value) <= 0.0005 + 3 * sd * math.sqrt(1 / runs + 1), system
        assert abs(ranking.scores[system] - row["ts_mean"]) <= 3 * sd * math.sqrt(1 / runs + 1 / row["ts_runs"]), system
    assert ranking.systems[-1] == "INPUT" and set(ranking.systems[:2]) == {"GPT-3.5", "REF-F"}


def test_trueskill_is_seeded_and_needs_the_package(monkeypatch) -> None:
    three = parse_judgments(b"<r><ranking-item src-id='1'><translation system='A' rank='1'/>"
                            b"<translation system='B' rank='2'/><translation system='C' rank='3'/>"
                            b"</ranking-item></r>", "three.xml")
    if pytest.importorskip("trueskill"):
        first, again = trueskill_scores(three, runs=3, seed=5), trueskill_scores(three, runs=3, seed=5)
        assert first.scores == again.scores and first.systems == ["A", "B", "C"]
        heard: list[tuple[int, int, str]] = []  # a progress callback hears of every run, then "done"
        watched = trueskill_scores(three, runs=3, seed=5, progress=lambda *call: heard.append(call))
        assert watched.scores == first.scores
        assert heard == [(1, 3, "TrueSkill"), (2, 3, "TrueSkill"), (3, 3, "TrueSkill"), (3, 3, "done")]
    import builtins

    real_import = builtins.__import__

    def no_trueskill(name, *args, **kwargs):
        if name == "trueskill":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_trueskill)
    with pytest.raises(InputError, match=r"pip install 'gecmetrics\[trueskill\]'"):
        trueskill_scores(three, runs=1)


MEAN_BOUNDARY_XML = (  # three items ranking A-E: bootstrap-mean with 40 resamples, seed 12, puts D on 0.5625
    b"<r>" + b"".join(
        b'<ranking-item src-id="%d" user="u">' % k
        + b"".join(b'<translation system="%s" rank="%d"/>' % (s.encode(), r) for s, r in zip("ABCDE", ranks))
        + b"</ranking-item>"
        for k, ranks in enumerate([(2, 2, 3, 3, 3), (2, 1, 2, 1, 2), (2, 2, 3, 2, 3)])) + b"</r>")


def test_bootstrap_mean_sums_and_orders_each_system_as_cluster_py(tmp_path) -> None:
    """The Makefile's EW.ranking.txt is eval/cluster.py's `round(np.mean(v), 3)` of each system's
    list of resample scores v (pairwise summation). samples.mean(axis=0) adds the rows one by one
    and gave D 0.5624999999999999 where cluster.py's np.mean of the same 40 values is 0.5625, which
    it prints as 0.563 (Python 2.7.18: round(0.5625, 3) == 0.563); we printed 0.562."""
    ranking = expected_wins(parse_judgments(MEAN_BOUNDARY_XML), "bootstrap-mean", resamples=40, seed=12)
    for system in "ABCDE":
        assert ranking.scores[system] == np.mean([float(v) for v in ranking.samples[system]])
    assert ranking.scores["D"] == 0.5625
    path = tmp_path / "boundary.xml"
    path.write_bytes(MEAN_BOUNDARY_XML)
    code, out, err = run_cli("rank", "--judgments", str(path), "--ew-procedure", "bootstrap-mean", "--bootstrap",
                             "40", "--seed", "12", "-d", "3", "--tsv")
    assert code == 0, err
    rows = [line.split("\t") for line in out.splitlines()[1:]]
    assert {row[0]: row[1] for row in rows}["D"] == "0.563"
    # cluster.py sorts (mean, std, name) descending: E and C tie at 0.0 with spread 0, so E comes
    # first, and it printed "B D A ++++ E ++++ C" (ranges E 4, C 5) for these 40 resamples; we
    # listed C before E and put both in one cluster
    assert [(row[0], row[2], row[3]) for row in rows] == [("B", "1-3", "1"), ("D", "1-3", "1"), ("A", "1-3", "1"),
                                                          ("E", "4", "2"), ("C", "5", "3")]


def test_trueskill_refuses_a_pair_never_compared_before_the_runs_naming_the_file() -> None:
    """A pair never compared failed in the middle of a run, at a play the seed picked, with a
    message that named no file."""
    pytest.importorskip("trueskill")
    items = [("A", "C"), ("B", "C"), ("D", "A"), ("B", "D"), ("C", "D")]
    text = "<r>\n" + "".join(f"<ranking-item src-id='{k}'><translation system='{a}' rank='1'/>"
                             f"<translation system='{b}' rank='2'/></ranking-item>\n"
                             for k, (a, b) in enumerate(items)) + "</r>\n"
    judgments = parse_judgments(text.encode(), "sparse.xml")
    for seed in (0, 1, 2):
        with pytest.raises(InputError, match=r"^sparse.xml: TrueSkill needs every pair .*never compared: A and B "
                                             r"\(1 pair\)$"):
            trueskill_scores(judgments, runs=2, seed=seed)
