"""Text, TSV and JSON rendering of the meta-evaluation results (for the CLI)."""
from __future__ import annotations

import json

import pytest

from gecmetrics.meta.correlation import compare_metrics, correlate_with_judgments
from gecmetrics.meta.judgments import parse_judgments
from gecmetrics.meta.rankings import expected_wins
from gecmetrics.meta.sentence import sentence_agreement
from gecmetrics.meta.tables import (
    as_json,
    comparison_table,
    correlation_table,
    ranking_table,
    sentence_table,
    window_table,
)
from gecmetrics.meta.windows import window_analysis

RANKS = {"A": (1, 1, 2, 1), "B": (2, 3, 1, 2), "C": (3, 2, 3, 4), "D": (4, 4, 4, 3)}


@pytest.fixture(scope="module")
def judgments():
    items = []
    for sentence in range(4):
        translations = "".join(f"<translation system='{s}' rank='{r[sentence]}'/>" for s, r in RANKS.items())
        items.append(f"<ranking-item src-id='{sentence}' user='u'>{translations}</ranking-item>")
    return parse_judgments(("<r>" + "".join(items) + "</r>").encode(), "toy.xml")


def test_ranking_table_text_and_tsv(judgments) -> None:
    ranking = expected_wins(judgments, resamples=50, seed=0)
    text = ranking_table(ranking)
    assert text.splitlines()[1].split("|")[1:5] == [" # ", " system ", "     EW ", " range "]
    tsv = ranking_table(ranking, digits=3, as_tsv=True).splitlines()
    assert tsv[0] == "#\tsystem\tEW\trange"
    assert tsv[1].split("\t")[1:3] == ["A", f"{ranking.scores['A']:.3f}"]
    assert json.loads(as_json(ranking))["systems"][0]["system"] == "A"


def test_correlation_comparison_sentence_window_tables(judgments) -> None:
    scores = {"m": {"A": 0.9, "B": 0.7, "C": 0.5, "D": 0.1}, "n": {"A": 0.2, "B": 0.9, "C": 0.4, "D": 0.3}}
    results = correlate_with_judgments(scores, judgments, resamples=50, seed=0)
    tsv = correlation_table(results, as_tsv=True).splitlines()
    assert tsv[0].split("\t") == ["metric", "n", "pearson", "pearson CI", "spearman", "spearman CI", "kendall",
                                  "kendall CI"]
    assert tsv[1].startswith("m\t4\t") and tsv[1].split("\t")[3].startswith("[")
    assert len(json.loads(as_json(results))) == 2
    comparison = comparison_table(compare_metrics("m", "n", scores, judgments, resamples=50, seed=0), as_tsv=True)
    assert comparison.splitlines()[1].split("\t")[0] == "pearson" and len(comparison.splitlines()) == 4
    sentences = {s: [5.0 - r for r in ranks] for s, ranks in RANKS.items()}
    agreement = sentence_agreement(sentences, judgments, [0, 1, 2, 3], metric="oracle")
    assert sentence_table([agreement], as_tsv=True).splitlines()[1] == "oracle\t24\t1.000\t1.000\t0"
    windows = window_analysis(scores["m"], {"A": 4, "B": 3, "C": 2, "D": 1}, 3)
    assert window_table(windows, as_tsv=True).splitlines()[1:] == ["1-3\t1.000\t1.000", "2-4\t0.982\t1.000"]
