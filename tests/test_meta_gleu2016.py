"""GLEU+ ``official-2016``: the 2016 gec-ranking code's brevity penalty, and what it reproduces
of "GLEU Without Tuning" Table 2 (Spearman against the Napoles et al. 2015 human ranking).

CI checks the numbers the 2016 code printed (tests/data/meta_gleu2016_conll14.tsv) on the three
outputs of ../shared/data/conll14; the other ten are checked where GJG15's copy of the CoNLL-2014
submissions is present."""
from __future__ import annotations

import math
from pathlib import Path

import pytest

from gecmetrics import GLEU, get_metric, read_lines
from gecmetrics.meta.correlations import spearman
from tests.test_meta_correlation import gjg15_submissions
from tests.conftest import read_tsv, run_cli

DATA = Path(__file__).resolve().parent / "data"
SHARED = ("AMU", "CAMB", "INPUT")


def printed_2016() -> dict[str, str]:
    return {row["system"]: row["gleu_official_2016"] for row in read_tsv(DATA / "meta_gleu2016_conll14.tsv")}


def table1() -> dict[str, list[str]]:
    """Table 1 of the paper: each column's systems, best first."""
    rows = read_tsv(DATA / "meta_gleu_without_tuning.tsv")
    return {column: [row[column] for row in rows] for column in ("human", "m2", "gleu0", "gleu_plus")}


def rho_against_human(scores: dict[str, float]) -> float:
    """Spearman of system scores against the human rank positions (Table 2's rho)."""
    human = table1()["human"]
    return spearman([scores[s] for s in human], [-position for position in range(len(human))])


def test_brevity_penalty_is_the_2016_codes() -> None:
    # S = R = "a b c d", H = "a b": every hypothesis n-gram matches, precisions 1 (n = 1);
    # official: BP = exp(min(0, 1 - 4/2)) = e^-1; 2016 code: exp(min(0, 1 - 2/4)) = 1
    official = GLEU(n=1).corpus_score(["a b c d"], [["a b c d"]], ["a b"])
    old = GLEU("official-2016", n=1).corpus_score(["a b c d"], [["a b c d"]], ["a b"])
    assert official.score == pytest.approx(math.exp(-1.0), abs=1e-15) and old.score == 1.0
    assert (old.hypothesis_length, old.reference_length, old.brevity_penalty) == (2.0, 4.0, 1.0)
    # a hypothesis longer than the reference: the 2016 code penalizes it, exp(1 - 6/4)
    longer = GLEU("official-2016", n=1).corpus_score(["a b c d"], [["a b c d"]], ["a b c d a b"])
    assert longer.brevity_penalty == pytest.approx(math.exp(-0.5), abs=1e-15)
    assert "variant:official-2016" in old.signature
    assert GLEU("official-2016").column_labels() == ["GLEU+ official-2016 f"]
    assert get_metric("gleu", variant="official-2016") == GLEU(variant="official-2016")


def test_sentence_scores_are_the_2016_formula_on_the_sentence() -> None:
    """An empty or short output scored 1.0 with the 2016 brevity term (which does not penalize a
    short hypothesis) and the gleu package's p_n = 1 for an order without n-grams, a rule that
    package never applied to the 2016 code; a sentence's score is now the 2016 formula on its
    statistics (0 when any is 0, as GLEU 2015's), equal to a one-sentence corpus's score."""
    from gecmetrics.rewards import reward_function

    source, reference = "She go to the school every day .", "She goes to school every day ."
    metric = GLEU("official-2016")
    outputs = ["", "She", "She goes to", "She goes to school every day .", "She goes to school every day",
               "She goes to school every single day .", source, "He goes to school every day ."]
    scores = metric.sentence_scores([source] * len(outputs), [[reference] * len(outputs)], outputs).scores
    assert list(scores[:3]) == [0.0, 0.0, 0.0] and scores[3] == 1.0
    for output, score in zip(outputs, scores):
        assert score == metric.corpus_score([source], [[reference]], [output]).score, output
    assert reward_function("gleu", variant="official-2016")(completions=["", "She"], source=[source] * 2,
                                                           references=[[reference]] * 2) == [0.0, 0.0]
    best = GLEU("official-2016", best_reference=True).sentence_scores([source], [[reference], ["She"]], ["She"])
    assert best.scores[0] == 0.0   # (both references' sentence scores are 0: not 1.0 for "She" alone)


def test_equal_to_the_2016_code_on_shared_outputs(conll14: Path) -> None:
    sources = read_lines(str(conll14 / "INPUT"))
    references = [read_lines(str(conll14 / "REF0")), read_lines(str(conll14 / "REF1"))]
    metric = GLEU("official-2016")
    prepared = metric.encode(sources, references)
    printed = printed_2016()
    for system in SHARED:
        score = metric.corpus_score(None, None, read_lines(str(conll14 / system)), prepared=prepared).score
        assert f"{score:.6f}" == printed[system], system


def test_cli_variant_official_2016(conll14: Path) -> None:
    code, out, _ = run_cli("gleu", "--variant", "official-2016", "-s", str(conll14 / "INPUT"), "-r",
                           str(conll14 / "REF0"), str(conll14 / "REF1"), "-o", str(conll14 / "AMU"), "-d", "4")
    assert code == 0 and out.split("\t")[1].strip() == "57.5329"


def test_equal_to_the_2016_code_on_all_13_systems(conll14: Path) -> None:
    folder = gjg15_submissions()
    sources = read_lines(str(conll14 / "INPUT"))
    references = [read_lines(str(conll14 / "REF0")), read_lines(str(conll14 / "REF1"))]
    metric = GLEU("official-2016")
    prepared = metric.encode(sources, references)
    for system, printed in printed_2016().items():
        path = conll14 / system if system in SHARED else folder / system
        assert f"{metric.corpus_score(None, None, read_lines(str(path)), prepared=prepared).score:.6f}" == printed


def test_table2_rho_from_rank_positions() -> None:
    """Table 2's rho is Spearman of Table 1's rank positions: 0.401, 0.555, 0.429 reproduce."""
    columns = table1()
    for column, published in (("gleu_plus", 0.401), ("gleu0", 0.555), ("m2", 0.429)):
        positions = {system: -k for k, system in enumerate(columns[column])}
        assert round(rho_against_human(positions), 3) == published, column


def test_table2_gleu_plus_rho_with_the_2016_code() -> None:
    """The 2016 code's scores rank PKU above UMC (57.3964 vs 57.3419), the paper's Table 1 the
    other way round: rho 0.4066 instead of 0.401; every other position is the paper's."""
    scores = {system: float(value) for system, value in printed_2016().items()}
    assert round(rho_against_human(scores), 4) == 0.4066
    ours = sorted(scores, key=lambda s: -scores[s])
    paper = table1()["gleu_plus"]
    assert [k for k, (a, b) in enumerate(zip(ours, paper)) if a != b] == [3, 4]
    assert (ours[3], ours[4], paper[3], paper[4]) == ("PKU", "UMC", "UMC", "PKU")
