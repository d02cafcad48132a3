"""SentM2 and SentERRANT (gecmetrics.m2.sentence_average): hand-made counts, bad input, and the
numbers of gec-metrics' definition (tests/data/sentence_average_gec_metrics.tsv) on CoNLL-2014:
SentM2 of AMU, CAMB, CUUI and SentERRANT on the official M2 files in CI; SentERRANT of AMU,
CAMB, CUUI where the ERRANT 3.0.2 M2 files of those systems are (not in CI)."""
from __future__ import annotations

import math
import os
from pathlib import Path

import numpy as np
import pytest

from gecmetrics.corpus import read_lines
from gecmetrics.errors import InputError
from gecmetrics.m2 import ErrantCompare, M2Scorer, read_m2
from gecmetrics.m2.sentence_average import sent_errant, sent_m2
from tests.conftest import read_tsv

DATA = Path(__file__).resolve().parent / "data"
ERRANT_M2 = Path(os.environ.get("GECMETRICS_ERRANT_M2", "/work/oracles/errant/conll14"))


def test_best_reference_per_sentence_then_the_mean():
    # sentence 1: annotator 0 -> TP 1 FP 1 FN 0 (P .5, R 1); annotator 1 -> TP 0 FP 2 FN 1 (F 0)
    # sentence 2: one annotator, nothing proposed, nothing missed: F 1
    counts = np.array([[[1, 2, 1], [0, 2, 1]], [[0, 0, 0], [0, 0, 0]]])
    mask = np.array([[True, True], [True, False]])
    result = sent_m2(counts, mask)
    f1 = 1.25 * 0.5 * 1 / (0.25 * 0.5 + 1)
    assert list(result.chosen) == [0, 0]
    assert result.sentence_f.tolist() == pytest.approx([f1, 1.0])
    assert result.score == pytest.approx((f1 + 1) / 2)
    assert (result.precision, result.recall) == (0.75, 1.0)


def test_ties_prefer_more_tp_then_fewer_fp_fn_then_the_first():
    # both F 0: TP 0 FP 1 FN 1 vs TP 0 FP 1 FN 2 -> the fewer FN; equal rows -> the first
    pair_counts = np.array([[[0, 1, 2], [0, 1, 1], [0, 1, 1]]])
    result = sent_errant(pair_counts, np.ones((1, 3), dtype=bool))
    assert list(result.chosen) == [1]
    # equal F, more TP wins: TP 1 FP 1 FN 0 (F .5556) vs TP 2 FP 2 FN 0 (F .5556)
    result = sent_errant(np.array([[[1, 1, 0], [2, 2, 0]]]), np.ones((1, 2), dtype=bool))
    assert list(result.chosen) == [1]


def test_masked_slots_are_never_chosen_and_beta_edges():
    counts = np.array([[[0, 3, 2], [5, 5, 5]]])
    result = sent_m2(counts, np.array([[True, False]]))
    assert list(result.chosen) == [0] and result.score == 0.0
    recall_only = sent_errant(np.array([[[1, 3, 1]]]), np.array([[True]]), beta=math.inf)
    assert recall_only.score == 0.5
    assert sent_errant(np.array([[[0, 0, 3]]]), np.array([[True]]), beta=0).score == 0.0


@pytest.mark.parametrize("beta", [float("nan"), -0.5, "1", None])
def test_bad_beta(beta):
    with pytest.raises(InputError, match="beta"):
        sent_m2(np.zeros((1, 1, 3)), np.ones((1, 1), dtype=bool), beta)


def test_bad_counts():
    with pytest.raises(InputError, match="shapes"):
        sent_errant(np.zeros((2, 3)), np.ones((2, 3), dtype=bool))
    with pytest.raises(InputError, match="sentence 2 has no annotator"):
        sent_errant(np.zeros((2, 1, 3)), np.array([[True], [False]]))
    with pytest.raises(InputError, match="cannot exceed"):
        sent_m2(np.array([[[2, 1, 3]]]), np.array([[True]]))
    with pytest.raises(InputError, match="negative"):
        sent_errant(np.array([[[-1, 0, 0]]]), np.array([[True]]))


def test_empty_corpus():
    assert sent_m2(np.zeros((0, 1, 3)), np.zeros((0, 1), dtype=bool)).score == 0.0


def _expected(kind: str) -> dict[tuple[str, str], float]:
    return {(row["hyp"], row["ref"]): float(row["mean_f"]) for row in read_tsv(DATA / "sentence_average_gec_metrics.tsv")
            if row["kind"] == kind}


def test_sent_m2_of_conll14_systems(conll14):
    expected = _expected("sentm2")
    gold = read_m2(str(conll14 / "official-2014.combined.m2"))
    assert {hyp for hyp, _ in expected} == {"AMU", "CAMB", "CUUI"}
    for (system, _), value in expected.items():
        result = M2Scorer().score(gold, read_lines(str(conll14 / system)))
        assert sent_m2(result.counts, result.annotator_mask).score == value


def test_sent_errant_on_the_official_m2_files(conll14):
    expected = _expected("m2edits")
    official = {(hyp, ref): value for (hyp, ref), value in expected.items() if hyp.startswith("official")}
    assert len(official) == 4
    for (hyp, ref), value in official.items():
        result = ErrantCompare().compare(read_m2(str(conll14 / hyp)), read_m2(str(conll14 / ref)))
        assert sent_errant(result.pair_counts, result.pair_available).score == value


def test_sent_errant_of_conll14_systems():
    """gec-metrics' ERRANT.score_sentence on the texts (it annotates them with ERRANT 3.0.2),
    against ours on the ERRANT 3.0.2 M2 files of the same texts."""
    if not (ERRANT_M2 / "REF0_REF1.m2").exists():
        pytest.skip(f"needs the ERRANT 3.0.2 M2 files of AMU, CAMB, CUUI and REF0+REF1 in {ERRANT_M2} "
                    "(GECMETRICS_ERRANT_M2; errant_parallel -orig INPUT -cor ...): not in CI")
    reference = read_m2(str(ERRANT_M2 / "REF0_REF1.m2"))
    for kind in ("text", "m2edits"):
        rows = {hyp: value for (hyp, ref), value in _expected(kind).items() if ref in ("REF0+REF1", "REF0_REF1.m2")}
        assert len(rows) == 3
        for hyp, value in rows.items():
            system = hyp.removesuffix(".m2")
            result = ErrantCompare().compare(read_m2(str(ERRANT_M2 / f"{system}.m2")), reference)
            assert sent_errant(result.pair_counts, result.pair_available).score == value
