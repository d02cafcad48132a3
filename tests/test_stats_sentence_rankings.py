"""System rankings from sentence scores (gecmetrics.stats.sentence_rankings): equal to gec-metrics'
rank_systems (expected_wins, trueskill) on recorded inputs, pairwise outcomes, order, checks."""
from __future__ import annotations

import itertools
import json
import sys
import zlib
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from gecmetrics.errors import InputError
from gecmetrics.stats.sentence_rankings import (
    expected_wins_of_scores,
    pairwise_counts,
    pairwise_outcomes,
    rank_by_sentence_scores,
    score_matrix,
    trueskill_of_scores,
)
from tests.conftest import read_tsv

pytest.importorskip("trueskill")

DATA = Path(__file__).resolve().parent / "data"
SEEDA_SYSTEMS = ["BART", "BERT-fuse", "GECToR-BERT", "GECToR-ens", "GPT-3.5", "INPUT", "LM-Critic", "PIE", "REF-F",
                 "REF-M", "Riken-Tohoku", "T5", "TemplateGEC", "TransGEC", "UEDIN-MS"]


def recorded_cases() -> dict[str, dict]:
    """The cases of tests/data/sentence_rankings_gec_metrics.tsv: systems in gec-metrics' order,
    their sentence scores (recorded, or the crc formula of the header) and its EW and TS."""
    cases: dict[str, dict] = defaultdict(lambda: {"systems": [], "scores": {}, "ew": {}, "ts": {}})
    for row in read_tsv(DATA / "sentence_rankings_gec_metrics.tsv"):
        case, system = cases[row["case"]], row["system"]
        case["systems"].append(system)
        if row["scores"]:
            case["scores"][system] = [float(x) for x in row["scores"].split(" ")]
        else:
            case["scores"][system] = [(zlib.crc32(f"{system}|{k}".encode()) % 7) / 7 for k in range(391)]
        case["ew"][system] = float(row["ew"])
        case["ts"][system] = float(row["ts"])
    return dict(cases)


CASES = recorded_cases()


def test_recorded_cases_are_all_there():
    assert set(CASES) == {"ties5x50", "cont5x50", "ties13x40", "seeda-all-crc7", "seeda-base-crc7"}
    assert CASES["seeda-all-crc7"]["systems"] == SEEDA_SYSTEMS
    assert all(len(v) == 50 for v in CASES["ties5x50"]["scores"].values())


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("method", ["ew", "ts"])
def test_equals_gec_metrics(name, method):
    case = CASES[name]
    ranking = rank_by_sentence_scores(case["scores"], method, case["systems"])
    for system in case["systems"]:
        assert ranking.scores[system] == pytest.approx(case[method][system], abs=1e-12, rel=0), system
    assert ranking.order == case["systems"]
    assert ranking.systems == sorted(case["systems"], key=lambda s: (-case[method][s], s))


def test_trueskill_depends_on_the_order_and_expected_wins_does_not():
    """gec-metrics feeds the pairs in the order of its systems: listed the other way round, the
    same scores give other ratings (so the recorded values would not be met)."""
    case = CASES["ties5x50"]
    backwards = case["systems"][::-1]
    ts = rank_by_sentence_scores(case["scores"], "ts", backwards)
    assert max(abs(ts.scores[s] - case["ts"][s]) for s in backwards) > 1e-6
    ew = rank_by_sentence_scores(case["scores"], "ew", backwards)
    assert all(ew.scores[s] == pytest.approx(case["ew"][s], abs=1e-12) for s in backwards)


def test_trueskill_equals_the_trueskill_package_match_by_match():
    """The closed-form one-versus-one update reused from stats.rankings against trueskill.rate."""
    import trueskill

    rng = np.random.default_rng(7)
    scores = np.round(rng.normal(size=(4, 12)), 0)
    env = trueskill.TrueSkill(mu=0.0, sigma=0.5, beta=0.25, tau=0.0, draw_probability=0.25)
    players = [env.create_rating() for _ in range(4)]
    for d in range(scores.shape[1]):
        for i, j in itertools.combinations(range(4), 2):
            a, b = scores[i, d], scores[j, d]
            ranks = (0, 1) if a > b else (1, 0) if a < b else (0, 0)
            (players[i],), (players[j],) = env.rate([(players[i],), (players[j],)], ranks=ranks)
    mu, sigma = trueskill_of_scores(scores)
    assert mu == pytest.approx([p.mu for p in players], abs=1e-12)
    assert sigma == pytest.approx([p.sigma for p in players], abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(hnp.arrays(np.float64, st.tuples(st.integers(2, 5), st.integers(1, 8)),
                  elements=st.sampled_from([0.0, 0.25, 0.5, 1.0, -1.0, np.inf])))
def test_pairwise_outcomes_as_gec_metrics_defines_them(scores):
    """[d][i][j] = 1 if score i > score j, -1 if <, else 0 (make_pairwise_scores)."""
    outcomes = pairwise_outcomes(scores)
    systems, sentences = scores.shape
    for d in range(sentences):
        for i, j in itertools.product(range(systems), repeat=2):
            expected = 1 if scores[i, d] > scores[j, d] else -1 if scores[i, d] < scores[j, d] else 0
            assert outcomes[d, i, j] == expected
    wins, draws = pairwise_counts(scores)
    assert np.array_equal(wins, (outcomes == 1).sum(axis=0))
    off_diagonal = ~np.eye(systems, dtype=bool)
    assert np.array_equal(draws[off_diagonal], (outcomes == 0).sum(axis=0)[off_diagonal])
    assert np.all((wins + wins.T + draws)[off_diagonal] == sentences)
    assert np.array_equal(pairwise_outcomes(-scores, higher_is_better=False), outcomes)


def test_expected_wins_by_hand():
    """Sentence 1: A > B > C; sentence 2: C > A = B; sentence 3: B > A > C.
    A: vs B 1 win 1 loss (1 draw) -> 1/2, vs C 2 of 3 -> 2/3; EW(A) = (1/2 + 2/3) / 2."""
    scores = {"A": [3, 1, 2], "B": [2, 1, 3], "C": [1, 2, 1]}
    ranking = rank_by_sentence_scores(scores, "ew")
    assert ranking.scores == pytest.approx({"A": (1 / 2 + 2 / 3) / 2, "B": (1 / 2 + 2 / 3) / 2,
                                            "C": (1 / 3 + 1 / 3) / 2})
    assert ranking.systems == ["A", "B", "C"] and ranking.rank_of("C") == 3
    assert ranking.wins.tolist() == [[0, 1, 2], [1, 0, 2], [1, 1, 0]]
    assert ranking.draws[0, 1] == 1
    lower = rank_by_sentence_scores({k: [-v for v in s] for k, s in scores.items()}, "ew", higher_is_better=False)
    assert lower.scores == ranking.scores


def test_a_pair_that_always_draws_counts_zero():
    """gec-metrics divides by zero here; EW.py's rule (and stats.rankings') gives the pair 0."""
    scores = np.array([[1.0, 2.0], [1.0, 2.0], [0.0, 0.0]])
    assert expected_wins_of_scores(scores).tolist() == [0.5, 0.5, 0.0]


def test_input_forms_and_output():
    matrix = np.array([[0.1, 0.2], [0.3, 0.1], [0.2, 0.2]])
    from_matrix = rank_by_sentence_scores(matrix, "ts", ["x", "y", "z"])
    from_mapping = rank_by_sentence_scores({"x": [0.1, 0.2], "y": [0.3, 0.1], "z": [0.2, 0.2]}, "ts")
    assert from_matrix.scores == from_mapping.scores and from_matrix.sigmas == from_mapping.sigmas
    assert all(0 < s < 0.5 for s in from_matrix.sigmas.values())
    data = json.loads(json.dumps(from_matrix.to_dict()))
    assert [s["system"] for s in data["systems"]] == from_matrix.systems
    assert data["order"] == ["x", "y", "z"] and data["sentences"] == 2 and "sigma" in data["systems"][0]
    names, values = score_matrix({"b": [1, 2], "a": [3, 4]}, ["a", "b"])
    assert names == ["a", "b"] and values.tolist() == [[3.0, 4.0], [1.0, 2.0]]


@pytest.mark.parametrize("call, message", [
    (lambda: rank_by_sentence_scores({"a": [1.0], "b": [2.0]}, "elo"), "unknown ranking method"),
    (lambda: rank_by_sentence_scores({"a": [1.0]}, "ew"), "at least 2 systems"),
    (lambda: rank_by_sentence_scores({"a": [1.0], "b": [2.0, 3.0]}, "ew"), "one length"),
    (lambda: rank_by_sentence_scores({"a": [1.0], "b": [float("nan")]}, "ew"), "b on sentence 1 is not a finite number"),
    (lambda: rank_by_sentence_scores({"a": [], "b": []}, "ew"), "zero sentences"),
    (lambda: rank_by_sentence_scores({"a": [1.0], "b": [2.0]}, "ew", ["a", "c"]), "no sentence scores for: c"),
    (lambda: rank_by_sentence_scores({"a": [1.0], "b": [2.0]}, "ew", ["a", "a"]), "listed twice"),
    (lambda: rank_by_sentence_scores({"a": ["x"], "b": [2.0]}, "ew"), "not numbers"),
    # a text that reads as a number is still a text, and a bool not a score: they were converted
    (lambda: rank_by_sentence_scores({"a": ["0.1"], "b": [0.2]}, "ew"), "the sentence scores of a are not numbers"),
    (lambda: rank_by_sentence_scores({"a": [True], "b": [0.2]}, "ew"), "the sentence scores of a are not numbers"),
    (lambda: rank_by_sentence_scores(np.array([["1", "2"], ["3", "4"]]), "ew", ["a", "b"]), "must be numbers"),
    (lambda: rank_by_sentence_scores(np.zeros((2, 3)), "ew"), "name the systems"),
    (lambda: rank_by_sentence_scores(np.zeros((2, 3)), "ew", ["a"]), "1 system name for"),
    (lambda: rank_by_sentence_scores(np.zeros(3), "ew", ["a"]), "one row per system"),
    (lambda: rank_by_sentence_scores({"a": [1.0], "b": [2.0]}, "ew", higher_is_better=1), "higher_is_better"),
    # one string is not a list of names: "ab" was read as the systems a and b, and ranked them
    (lambda: rank_by_sentence_scores({"a": [1.0], "b": [2.0]}, "ew", "ab"),
     "systems must be a sequence of system names, got 'ab'"),
    (lambda: rank_by_sentence_scores(np.zeros((2, 3)), "ew", "ab"), "systems must be a sequence of system names"),
    (lambda: rank_by_sentence_scores({"a": [1.0], "b": [2.0]}, "ew", 2), "systems must be a sequence of system names"),
])
def test_argument_checks(call, message):
    with pytest.raises(InputError, match=message):
        call()


def test_trueskill_without_the_package(monkeypatch):
    monkeypatch.setitem(sys.modules, "trueskill", None)
    with pytest.raises(InputError, match="gecmetrics\\[trueskill\\]"):
        rank_by_sentence_scores({"a": [1.0], "b": [2.0]}, "ts")
    assert rank_by_sentence_scores({"a": [1.0], "b": [2.0]}, "ew").systems == ["b", "a"]


def test_all_ties_are_said_to_rank_nothing():
    """Sentence scores that never tell two systems apart gave every system EW 0 and an order by
    name without a word (compare --ranking ew on equal outputs); a warning says so."""
    import warnings

    with pytest.warns(UserWarning, match=r"no sentence score tells any two systems apart \(all ties\)"):
        ranking = rank_by_sentence_scores({"a": [0.5, 0.2], "b": [0.5, 0.2], "c": [0.5, 0.2]}, "ew")
    assert set(ranking.scores.values()) == {0.0}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rank_by_sentence_scores({"a": [0.5, 0.2], "b": [0.5, 0.3]}, "ew")
