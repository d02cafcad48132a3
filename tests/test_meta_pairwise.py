"""Pairwise analysis per human rank pair (gecmetrics.meta.pairwise): equal to gec-metrics'
MetaEvalBase.pairwise_analysis on SEEDA's judgments, consistent with sentence_agreement, heat map."""
from __future__ import annotations

import json
import zlib
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest

from gecmetrics.errors import InputError
from gecmetrics.io.judgments import parse_judgments, read_judgments
from gecmetrics.meta.pairwise import PairwiseAnalysis, pairwise_analysis, pairwise_table
from gecmetrics.output.plots import plot_pairwise
from gecmetrics.meta.sentence import TIE_RULES, rows_of_src_ids, sentence_agreement
from tests.conftest import read_tsv

DATA = Path(__file__).resolve().parent / "data"
SEEDA_SYSTEMS = ["BART", "BERT-fuse", "GECToR-BERT", "GECToR-ens", "GPT-3.5", "INPUT", "LM-Critic", "PIE", "REF-F",
                 "REF-M", "Riken-Tohoku", "T5", "TemplateGEC", "TransGEC", "UEDIN-MS"]
SUBSETS = {"all": SEEDA_SYSTEMS, "base": [s for s in SEEDA_SYSTEMS if s not in ("INPUT", "REF-F", "GPT-3.5")]}


def crc_scores(systems, levels, sentences=391):
    """The lookup metric of the data file's header."""
    return {s: [(zlib.crc32(f"{s}|{k}".encode()) % levels) / levels for k in range(sentences)] for s in systems}


def seeda(shared_data: Path, aspect: str):
    judgments = read_judgments(shared_data / "human" / "judgments" / f"seeda_{aspect}.xml")
    # gec-metrics' sentence k: the k-th distinct src-id in increasing order
    return judgments, rows_of_src_ids(judgments, sorted(set(judgments.src_ids.tolist())))


def recorded() -> dict[tuple[str, str, int], dict[tuple[int, int], float]]:
    table: dict = defaultdict(dict)
    for row in read_tsv(DATA / "pairwise_analysis_gec_metrics.tsv"):
        key = (row["judgments"], row["systems"], int(row["levels"]))
        table[key][(int(row["better_rank"]), int(row["worse_rank"]))] = float(row["accuracy"])
    return dict(table)


@pytest.mark.parametrize("aspect", ["edit", "sent"])
@pytest.mark.parametrize("subset", ["all", "base"])
@pytest.mark.parametrize("levels", [7, 2])
def test_equals_gec_metrics(shared_data, aspect, subset, levels):
    judgments, rows = seeda(shared_data, aspect)
    systems = SUBSETS[subset]
    scores = crc_scores(systems, levels)
    analysis = pairwise_analysis(scores, judgments, rows, systems)
    expected = recorded()[(aspect, subset, levels)]
    assert {(c.better_rank, c.worse_rank): c.accuracy for c in analysis.cells} == expected
    # gec-metrics returns the cells from the lowest accuracy up
    by_accuracy = [c.accuracy for c in analysis.by_accuracy()]
    assert by_accuracy == sorted(expected.values())


def test_the_recorded_numbers_could_fail(shared_data):
    """Another system order changes the tie verdicts (levels 2: many metric ties)."""
    judgments, rows = seeda(shared_data, "sent")
    systems = SUBSETS["all"]
    analysis = pairwise_analysis(crc_scores(systems, 2), judgments, rows, systems[::-1])
    expected = recorded()[("sent", "all", 2)]
    assert {(c.better_rank, c.worse_rank): c.accuracy for c in analysis.cells} != expected


@pytest.mark.parametrize("tie_rule", TIE_RULES)
def test_cells_add_up_to_sentence_agreement(shared_data, tie_rule):
    judgments, rows = seeda(shared_data, "edit")
    systems = SUBSETS["base"]
    scores = crc_scores(systems, 3)
    analysis = pairwise_analysis(scores, judgments, rows, systems, tie_rule=tie_rule)
    overall = sentence_agreement(scores, judgments, rows, systems, tie_rule=tie_rule)
    assert (analysis.pairs, analysis.agreements) == (overall.pairs, overall.agreements)
    assert sum(c.metric_ties for c in analysis.cells) == overall.metric_ties


ITEMS = (b"<r>"
         b"<ranking-item src-id='1'><translation system='A' rank='1'/><translation system='B' rank='2'/>"
         b"<translation system='C D' rank='3'/></ranking-item>"
         b"<ranking-item src-id='2'><translation system='C' rank='1'/><translation system='A' rank='3'/>"
         b"<translation system='B' rank='3'/></ranking-item>"
         b"</r>")


def test_cells_by_hand():
    """Item 1: A1 B2 C3 D3 (C = D: no comparison); item 2: C1 A3 B3 (A = B: none)."""
    judgments = parse_judgments(ITEMS, "two.xml")
    scores = {"A": [0.9, 0.5], "B": [0.5, 0.1], "C": [0.5, 0.5], "D": [0.7, 0.0]}
    analysis = pairwise_analysis(scores, judgments, [0, 1], metric="toy")
    cells = {(c.better_rank, c.worse_rank): (c.pairs, c.agreements, c.metric_ties) for c in analysis.cells}
    # (1,2): A > B agrees. (1,3): A > C and A > D agree; item 2: A = C, a tie, counts as "C better" (A comes
    # first in code-point order), which agrees, and C > B agrees. (2,3): B = C counts as "C better",
    # disagrees; B < D disagrees.
    assert cells == {(1, 2): (1, 1, 0), (1, 3): (4, 4, 1), (2, 3): (2, 0, 1)}
    assert analysis.cell(1, 3).accuracy == 1.0 and analysis.cell(2, 3).accuracy == 0.0 and analysis.cell(3, 4) is None
    ignored = pairwise_analysis(scores, judgments, [0, 1], tie_rule="ignore")
    assert ignored.cell(2, 3).pairs == 1 and ignored.cell(1, 3).pairs == 3
    disagree = pairwise_analysis(scores, judgments, [0, 1], tie_rule="disagree")
    assert disagree.cell(1, 3).agreements == 3
    rows, columns, matrix = analysis.heatmap()
    assert rows == [1, 2] and columns == [2, 3]
    assert matrix[0].tolist() == [1.0, 1.0] and np.isnan(matrix[1, 0]) and matrix[1, 1] == 0.0
    data = json.loads(json.dumps(analysis.to_dict()))
    assert data["heatmap"]["accuracy"][1] == [None, 0.0] and data["pairs"] == 7 and data["metric"] == "toy"
    header, table = pairwise_table(analysis)
    assert header[0] == "better rank" and table[1][:6] == [1, 3, 4, 4, 0, 1]


def test_lower_is_better():
    judgments = parse_judgments(ITEMS, "two.xml")
    scores = {"A": [0.9, 0.5], "B": [0.5, 0.1], "C": [0.5, 0.5], "D": [0.7, 0.0]}
    flipped = pairwise_analysis({k: [-x for x in v] for k, v in scores.items()}, judgments, [0, 1],
                                higher_is_better=False)
    plain = pairwise_analysis(scores, judgments, [0, 1])
    ties_first = [c for c in flipped.cells]
    assert [(c.pairs, c.metric_ties) for c in ties_first] == [(c.pairs, c.metric_ties) for c in plain.cells]
    # lower is better: a tie counts as "the first system better"
    assert flipped.cell(2, 3).agreements == 1 and flipped.cell(1, 3).agreements == 3


@pytest.mark.parametrize("call, message", [
    (lambda j: pairwise_analysis({"A": [0, 0], "B": [0, 0], "C": [0, 0], "D": [0, 0]}, j, [0, 1], tie_rule="x"),
     "unknown tie rule"),
    (lambda j: pairwise_analysis({"A": [0, 0], "B": [0, 0], "C": [0, 0]}, j, [0, 1]), "no sentence scores for: D"),
    (lambda j: pairwise_analysis({"A": [0, 0], "B": [0, 0], "C": [0, 0], "D": [0, 0], "E": [0, 0]}, j, [0, 1]),
     "no human judgments: E"),
    (lambda j: pairwise_analysis({"A": [0, 0], "B": [0, 0], "C": [0, 0], "D": [0, 0]}, j, [0, 2]), "outside"),
    (lambda j: pairwise_analysis({"A": [0, 0], "B": [0, 0], "C": [0, np.inf], "D": [0, 0]}, j, [0, 1]), "finite"),
    (lambda j: pairwise_analysis({"A": [0, 0], "B": [0, 0]}, j, [0, 1], ["A", "A"]), "listed twice"),
    (lambda j: pairwise_analysis({"A": [0, 0], "B": [0, 0]}, "judgments.xml", [0, 1]), "expected Judgments"),
    (lambda j: pairwise_analysis({"A": [0, 0], "B": [0, 0], "C": [0, 0], "D": [0, 0]}, j, [0, 1], tie_rule="ignore"),
     "tied every pair"),
])
def test_argument_checks(call, message):
    with pytest.raises(InputError, match=message):
        call(parse_judgments(ITEMS, "two.xml"))


def test_plot(tmp_path):
    pytest.importorskip("matplotlib")
    judgments = parse_judgments(ITEMS, "two.xml")
    analysis = pairwise_analysis({"A": [0.9, 0.5], "B": [0.5, 0.1], "C": [0.5, 0.5], "D": [0.7, 0.0]}, judgments,
                                 [0, 1])
    path = plot_pairwise(analysis, tmp_path / "pairwise.png")
    assert Path(path).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(InputError, match=r"\.png, \.pdf or \.svg"):
        plot_pairwise(analysis, tmp_path / "pairwise.jpg")
    two = plot_pairwise([analysis, analysis], tmp_path / "pairwise.svg")  # one panel per metric
    assert b"<svg" in Path(two).read_bytes()[:400]
    with pytest.raises(InputError, match="PairwiseAnalysis"):
        plot_pairwise("x", tmp_path / "p.png")
    assert isinstance(analysis, PairwiseAnalysis)
