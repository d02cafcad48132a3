"""Text, TSV and JSON rendering of the meta-evaluation results (for the CLI)."""
from __future__ import annotations

import json

import pytest

from gecmetrics.meta.system_level import compare_metrics, correlate_with_judgments
from gecmetrics.io.judgments import parse_judgments
from gecmetrics.stats.rankings import expected_wins
from gecmetrics.meta.sentence import sentence_agreement
from gecmetrics.meta.report import (
    Section,
    as_dicts,
    comparison_table,
    correlation_table,
    ranking_table,
    sentence_table,
    window_table,
)
from gecmetrics.errors import InputError
from gecmetrics.output.formats import render, render_sections
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
    text = render(ranking_table(ranking), "text")
    assert [cell.strip() for cell in text.splitlines()[1].split("|")[1:5]] == ["system", "EW", "range", "cluster"]
    tsv = render(ranking_table(ranking, digits=3), "tsv").splitlines()
    assert tsv[0] == "system\tEW\trange\tcluster"  # one header row, not a '#' comment
    assert tsv[1].split("\t")[0:2] == ["A", f"{ranking.scores['A']:.3f}"]
    plain = render(ranking_table(expected_wins(judgments, resamples=0)), "tsv").splitlines()
    assert plain[0] == "system\tEW"  # no resamples: no empty range and cluster columns
    assert json.loads(json.dumps(as_dicts(ranking)))["systems"][0]["system"] == "A"
    with_scores = render(ranking_table(ranking, 4, {"m": {"A": 0.5, "B": 0.25}}, {"m": 100.0}, 1), "tsv")
    assert with_scores.splitlines()[1].split("\t")[-1] == "50.0" and with_scores.splitlines()[3].endswith("\t")
    latex = render(ranking_table(ranking), "latex")
    assert latex.startswith("\\begin{tabular}{lrrr}")


def test_correlation_comparison_sentence_window_tables(judgments) -> None:
    scores = {"m": {"A": 0.9, "B": 0.7, "C": 0.5, "D": 0.1}, "n": {"A": 0.2, "B": 0.9, "C": 0.4, "D": 0.3}}
    results = correlate_with_judgments(scores, judgments, resamples=50, seed=0)
    tsv = render(correlation_table(results), "tsv").splitlines()
    assert tsv[0].split("\t") == ["metric", "human", "n", "resampling", "pearson", "pearson CI", "spearman",
                                  "spearman CI", "kendall", "kendall CI"]
    assert tsv[1].startswith("m\tEW\t4\tjudgments/pair\t") and tsv[1].split("\t")[5].startswith("[")
    point = render(correlation_table(correlate_with_judgments(scores, judgments, resampling=None)), "tsv")
    assert point.splitlines()[0] == "metric\thuman\tn\tpearson\tspearman\tkendall"
    assert len(as_dicts(results)) == 2
    comparison = compare_metrics("m", "n", scores, judgments, resamples=50, seed=0)
    rows = render(comparison_table([comparison]), "tsv").splitlines()
    assert rows[0].split("\t") == ["A", "B", "n", "resampling", "pearson A-B", "pearson CI", "pearson p",
                                    "spearman A-B", "spearman CI", "spearman p", "kendall A-B", "kendall CI",
                                    "kendall p", "Williams t", "Williams p"]
    assert rows[1].split("\t")[:4] == ["m", "n", "4", "judgments/pair"] and len(rows) == 2
    williams_only = compare_metrics("m", "n", scores, judgments, resampling=None)
    rows = render(comparison_table([williams_only]), "tsv").splitlines()
    assert williams_only.intervals == {} and rows[0].split("\t") == [
        "A", "B", "n", "pearson A-B", "spearman A-B", "kendall A-B", "Williams t", "Williams p"]
    assert all(cell for row in rows for cell in row.split("\t"))  # no empty cell
    sentences = {s: [5.0 - r for r in ranks] for s, ranks in RANKS.items()}
    agreement = sentence_agreement(sentences, judgments, [0, 1, 2, 3], metric="oracle")
    assert render(sentence_table([agreement]), "tsv").splitlines()[1] == "oracle\t24\t1.000\t1.000\t0"
    windows = window_analysis(scores["m"], {"A": 4, "B": 3, "C": 2, "D": 1}, 3, metric="m")
    assert render(window_table(windows), "tsv").splitlines()[1:] == ["m\t1-3\t1.000\t1.000", "m\t2-4\t0.982\t1.000"]


def test_sections_in_every_format() -> None:
    from gecmetrics.core.table import Table

    sections = [Section("first", Table(["a", "b"], [["1", "2"]])), Section("second", Table(["c"], [["3"]]))]
    assert render_sections(sections[:1], "tsv") == "a\tb\n1\t2"  # one table, its header row first
    with pytest.raises(InputError, match="one table, got 2"):
        render_sections(sections, "tsv")
    assert render_sections(sections, "latex").startswith("% first\n\\begin{tabular}")
    assert render_sections(sections, "markdown").startswith("**first**\n\n| a | b |")
    assert render_sections(sections, "text").splitlines()[0] == "first"
    # a title or note naming a file whose name holds a newline stays on its line: the rest of a
    # LaTeX comment (\\end{document}) was live, a Markdown heading split in two
    named = [Section("of nl\n\\end{document}.xml", Table(["a"], [["1"]], notes=["from x\ny"]))]
    latex = render_sections(named, "latex").splitlines()
    assert latex[0] == "% of nl\\n\\end{document}.xml" and latex[-1] == "% from x\\ny"
    assert render_sections(named, "markdown").splitlines()[0] == "**of nl\\n\\\\end{document}.xml**"
    assert render_sections(named, "text").splitlines()[0] == "of nl\\n\\end{document}.xml"
