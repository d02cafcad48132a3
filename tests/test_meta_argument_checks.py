"""Argument checks of the raw-judgment meta-evaluation (meta_evaluate_judgments, JudgmentOptions,
expected_wins, HumanRanking.sample_matrix, rows_of_src_ids): a wrong argument, or an option that
would change nothing in the given combination, is one InputError naming it, never a KeyError or
TypeError from inside, nor taken without a word."""
from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

from gecmetrics.errors import InputError
from gecmetrics.io.judgments import parse_judgments, read_judgments
from gecmetrics.meta.evaluate import JudgmentOptions, meta_evaluate_judgments
from gecmetrics.meta.sentence import rows_of_src_ids
from gecmetrics.stats.rankings import DEFAULT_CONFIDENCE, expected_wins
from tests.conftest import one_line_error, run_cli

SYSTEMS = ["A", "B", "C", "D", "E"]
# (src-id, ranks of A..E): every pair decided somewhere, A best overall, E worst
RANKS = [(0, (1, 2, 3, 4, 5)), (1, (2, 1, 3, 5, 4)), (2, (1, 3, 2, 4, 5)), (3, (3, 2, 1, 4, 5)),
         (4, (1, 2, 4, 3, 5)), (5, (2, 3, 1, 5, 4)), (6, (1, 4, 2, 3, 5)), (7, (4, 1, 2, 3, 5))]


def toy_judgments():
    """Judgments of five systems A..E over eight items (src-ids 0..7)."""
    items = "".join(f'<ranking-item src-id="{src}" user="u">'
                    + "".join(f'<translation system="{s}" rank="{r}"/>' for s, r in zip(SYSTEMS, ranks))
                    + "</ranking-item>" for src, ranks in RANKS)
    return parse_judgments(f"<appraise><hit-group>{items}</hit-group></appraise>".encode(), "toy.xml")


SCORES = {"m": {"A": 5.0, "B": 4.0, "C": 3.5, "D": 2.0, "E": 1.0}}


def quietly(call):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return call()


# --------------------------------------------------------------------------- idle options


@pytest.mark.parametrize("options, said", [
    ({"unit": "item"}, "unit='item' does nothing here"),
    ({"confidence": 0.5}, "confidence does nothing here"),
    ({"seed": 5}, "seed does nothing here"),  # (the sibling refusal these follow)
    ({"bootstrap": 10, "resampling": ("sentences",), "src_ids": 0, "unit": "item"}, "unit='item' does nothing here"),
])
def test_options_that_would_do_nothing_without_a_bootstrap_are_refused(options, said) -> None:
    """unit is read only by a bootstrap of the judgments, confidence only by intervals and rank
    ranges: both were taken with bootstrap=0 while seed=5 was refused."""
    with pytest.raises(InputError, match=said):
        JudgmentOptions(**options)
    with pytest.raises(InputError, match=said):
        meta_evaluate_judgments(toy_judgments(), scores=SCORES, **options)


def test_the_same_options_are_taken_where_they_are_read() -> None:
    JudgmentOptions(bootstrap=10, unit="item", confidence=0.5, seed=3)
    JudgmentOptions(bootstrap=10, resampling=("judgments", "sentences"), src_ids=0, unit="item")
    JudgmentOptions(ew_procedure="bootstrap-mean", confidence=0.5, seed=3)  # (1000 resamples: rank ranges)
    JudgmentOptions(ranking="ts", confidence=0.5, seed=3)  # (10 runs: rank ranges)
    JudgmentOptions(confidence=DEFAULT_CONFIDENCE, unit="pair", seed=0)  # the defaults given: taken
    result = quietly(lambda: meta_evaluate_judgments(toy_judgments(), scores=SCORES, bootstrap=30, unit="item",
                                                     confidence=0.5))
    assert result.correlations[0].resampling == "judgments/item" and result.correlations[0].confidence == 0.5


@pytest.mark.parametrize("options, said", [
    ({"ranking": "ts"}, "the human ranking \\(ranking='ts'\\) is system-level"),
    ({"ew_procedure": "bootstrap-mean"}, "the Expected Wins procedure is system-level"),
])
def test_the_human_ranking_is_refused_at_the_sentence_level(options, said) -> None:
    """The sentence level computes no human ranking: ranking='ts' (and its seed) were taken."""
    with pytest.raises(InputError, match=said):
        JudgmentOptions(level="sentence", src_ids=0, **options)
    with pytest.raises(InputError, match="the human ranking"):
        JudgmentOptions(level="sentence", src_ids=0, ranking="ts", seed=5)
    JudgmentOptions(level="sentence", src_ids=0)


def test_expected_wins_without_resamples_refuses_a_seed_and_a_confidence_level() -> None:
    judgments = toy_judgments()
    with pytest.raises(InputError, match="^confidence does nothing here: nothing is resampled with resamples=0"):
        expected_wins(judgments, resamples=0, confidence=0.5)
    with pytest.raises(InputError, match="^seed does nothing here: nothing is resampled with resamples=0"):
        expected_wins(judgments, resamples=0, seed=7)
    with pytest.raises(InputError, match="the confidence level must be a number between 0 and 1"):
        expected_wins(judgments, resamples=0, confidence="x")  # (was never looked at)
    with pytest.raises(InputError, match="resamples \\(--bootstrap N\\) must be an integer, got 0.0"):
        expected_wins(judgments, resamples=0.0)
    plain = expected_wins(judgments, resamples=0, seed=0, confidence=DEFAULT_CONFIDENCE)
    assert plain.resamples == 0 and not plain.ranges
    resampled = quietly(lambda: expected_wins(judgments, resamples=50, seed=7, confidence=0.5))
    assert resampled.resamples == 50 and resampled.seed == 7 and resampled.ranges


def test_progress_callbacks_are_checked_whether_or_not_anything_is_scored() -> None:
    judgments = toy_judgments()
    with pytest.raises(InputError, match="^progress must be a function .* or None, got int"):
        meta_evaluate_judgments(judgments, scores=SCORES, progress=5)
    with pytest.raises(InputError, match="^ranking_progress must be a function .* or None, got str"):
        meta_evaluate_judgments(judgments, scores=SCORES, ranking_progress="bar")
    assert meta_evaluate_judgments(judgments, scores=SCORES, progress=lambda *a: None).correlations


# --------------------------------------------------------------------------- rows and samples


def test_rows_of_src_ids_refuses_a_negative_first_line_and_an_idle_one() -> None:
    judgments = toy_judgments()
    with pytest.raises(InputError, match="^first_line: the src-id of the first corpus line .* 0 or more, got -1"):
        rows_of_src_ids(judgments, first_line=-1)  # (every item was moved one row down)
    with pytest.raises(InputError, match="^first_line=0 does nothing with corpus_lines"):
        rows_of_src_ids(judgments, list(range(8)), first_line=0)
    with pytest.raises(InputError, match="^corpus_lines must be a sequence .* got a set"):
        rows_of_src_ids(judgments, set(range(8)))
    assert rows_of_src_ids(judgments, first_line=0).tolist() == list(range(8))
    assert rows_of_src_ids(judgments, [7, 6, 5, 4, 3, 2, 1, 0]).tolist() == list(range(7, -1, -1))


def test_rows_of_src_ids_refuses_a_src_id_below_the_first_line() -> None:
    """first_line=1 (SEEDA's) over src-ids from 0 (GJG15's) gave item 0 row -1, refused later as
    "ranking item src-id=0 maps to row -1, outside the N scored sentences"; now refused here,
    naming the item's line, its src-id and first_line."""
    judgments = toy_judgments()
    for first in (1, 3, 8):  # (the first item's src-id is 0)
        with pytest.raises(InputError, match=f"^toy.xml:1: src-id 0 is below first_line={first}, the src-id of "
                                             r"the first corpus line \(--src-ids\), so it names no corpus line"):
            rows_of_src_ids(judgments, first_line=first)
    shifted = parse_judgments(b"<r><ranking-item src-id='5'><translation system='A' rank='1'/>"
                              b"<translation system='B' rank='2'/></ranking-item></r>", "j.xml")
    assert rows_of_src_ids(shifted, first_line=5).tolist() == [0]
    with pytest.raises(InputError, match="^j.xml:1: src-id 5 is below first_line=6"):
        rows_of_src_ids(shifted, first_line=6)


@pytest.mark.parametrize("systems, said", [
    (["zz"], "^systems: 'zz' is not a system of this ranking; it ranks: A, "),
    ("ABC", "^systems must be a sequence of system names, got 'ABC'"),
    (None, "^systems must be a sequence of system names, got None"),
    ({"A", "B"}, "^systems must be a sequence of system names, got a set"),
    (["A", "A"], "^systems: the system 'A' is listed twice"),
    ([1], "^systems: system names are strings"),
])
def test_sample_matrix_checks_its_systems(systems, said) -> None:
    """KeyError 'zz', KeyError 'A' (a string read character by character), TypeError for None."""
    ranking = quietly(lambda: expected_wins(toy_judgments(), resamples=40))
    with pytest.raises(InputError, match=said):
        ranking.sample_matrix(systems)
    with pytest.raises(InputError, match=said):  # (checked with no samples too)
        expected_wins(toy_judgments(), resamples=0).sample_matrix(systems)


def test_sample_matrix_columns_follow_the_systems_given() -> None:
    ranking = quietly(lambda: expected_wins(toy_judgments(), resamples=40))
    matrix = ranking.sample_matrix(("C", "A"))
    assert matrix.shape == (40, 2)
    assert np.array_equal(matrix[:, 0], ranking.samples["C"]) and np.array_equal(matrix[:, 1], ranking.samples["A"])
    assert expected_wins(toy_judgments(), resamples=0).sample_matrix(["A"]) is None


# --------------------------------------------------------------------------- GJG15 and the commands


def test_the_audit_calls_on_gjg15(shared_data: Path) -> None:
    judgments = read_judgments(str(shared_data / "human/judgments/gjg15.xml"))
    scores = {"m": {s: i / 10 for i, s in enumerate(judgments.systems)}}
    for options in ({"unit": "item"}, {"confidence": 0.5}, {"progress": 5}):
        with pytest.raises(InputError):
            meta_evaluate_judgments(judgments, scores=scores, bootstrap=0, **options)
    for options in ({"confidence": 0.5}, {"seed": 7}):
        with pytest.raises(InputError, match="does nothing here"):
            expected_wins(judgments, resamples=0, **options)
    with pytest.raises(InputError, match="first_line"):
        rows_of_src_ids(judgments, first_line=-1)
    ranking = quietly(lambda: expected_wins(judgments, resamples=10))
    for systems in (["zz"], "AMU", None):
        with pytest.raises(InputError, match="^systems"):
            ranking.sample_matrix(systems)
    assert ranking.sample_matrix(["AMU", "CAMB"]).shape == (10, 2)
    assert meta_evaluate_judgments(judgments, scores=scores).correlations[0].resamples == 0


def test_the_commands_default_runs_still_pass_their_defaults(tmp_path: Path) -> None:
    """``rank`` passes seed=0 with --bootstrap 0, ``meta-eval`` every JudgmentOptions field: the
    defaults are taken, a --seed given where nothing is drawn is still refused."""
    xml = tmp_path / "toy.xml"
    items = "".join(f'<ranking-item src-id="{src}" user="u">'
                    + "".join(f'<translation system="{s}" rank="{r}"/>' for s, r in zip(SYSTEMS, ranks))
                    + "</ranking-item>" for src, ranks in RANKS)
    xml.write_text(f"<appraise><hit-group>{items}</hit-group></appraise>", encoding="utf-8")
    scores = tmp_path / "scores.tsv"
    scores.write_text("system\tm\n" + "".join(f"{s}\t{v}\n" for s, v in SCORES["m"].items()))
    for args in (["rank", "--judgments", str(xml), "--bootstrap", "0", "--tsv"],
                 ["rank", "--judgments", str(xml), "--bootstrap", "50", "--tsv"],
                 ["meta-eval", "--judgments", str(xml), "--scores", str(scores), "--tsv"],
                 ["meta-eval", "--judgments", str(xml), "--scores", str(scores), "--bootstrap", "50", "--tsv"]):
        code, out, err = run_cli(*args)
        assert code == 0 and out, (args, err)
    assert "--seed does nothing here" in one_line_error("rank", "--judgments", str(xml), "--bootstrap", "0",
                                                        "--seed", "3")
