"""What a sweep of the public Python API (2026-12-04) found: names that collide as text (a
system left out without a word), texts that are no Unicode (spaCy's own error, a reward call
ended), yes/no arguments given as text, an impossible set of correlations given a p-value,
nan statistics tested, a generator of systems used up, True/False taken as rows."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from gecmetrics import (Corpus, InputError, compare, get_metric, m2_references, meta_evaluate, paired_test_from_statistics,
                        read_judgments, read_m2, sentence_agreement, williams_test)
from gecmetrics.io.m2 import parse_m2

SOURCES = ["She go to school .", "I has a apple ."]
REFERENCES = [["She goes to school .", "I have an apple ."]]
FIXED = ["She goes to school .", "I have a apple ."]
SCORES = {"AMU": 0.35, "RAC": 0.27, "CAMB": 0.37, "CUUI": 0.36, "POST": 0.31, "UFC": 0.08}


def test_names_that_are_one_text_are_refused():
    """{1: A, "1": B}: both became system '1' and A was left out (compare, paired tests, meta-eval);
    a system's name is a string (a key 1 or None was made the system '1' or 'None')."""
    with pytest.raises(InputError, match=r"^systems must map each system's name to .* \(a key 1\)"):
        compare(SOURCES, REFERENCES, {1: FIXED, "1": SOURCES}, "gleu")
    with pytest.raises(InputError, match="^metric scores: the names 1 and '1'"):
        meta_evaluate({1: SCORES, "1": {k: -v for k, v in SCORES.items()}})
    with pytest.raises(InputError, match=r"^systems must map each system's name to .* \(a key 1\)"):
        compare(SOURCES, REFERENCES, {1: FIXED, 2: SOURCES}, "gleu")


def test_a_lone_surrogate_is_no_text_and_a_completion_with_one_falls_back():
    from gecmetrics.rewards import reward_function

    with pytest.raises(InputError, match=r"^hypothesis:2: holds a lone surrogate \('\\ud800'\)"):
        Corpus(SOURCES, REFERENCES, {"hypothesis": ["She goes to school .", "I have \ud800 apple ."]})
    reward = reward_function("gleu")
    values = reward(completions=["She goes \ud800 school .", "She goes to school ."], source=SOURCES[:1] * 2,
                    references=[REFERENCES[0][:1]] * 2)
    assert values == [0.0, 1.0] and reward.stats.fallbacks == 1
    with pytest.raises(InputError, match="lone surrogate"):  # the data's own texts: the caller's to fix
        reward(completions=["She goes to school ."], source=["She go \udc00 school ."], references=[["x"]])


def test_yes_no_arguments_and_counts_are_checked(tmp_path: Path):
    gold = parse_m2("S a b\nA 0 1|||X|||c|||REQUIRED|||-NONE-|||0\nA 0 1|||X|||d|||REQUIRED|||-NONE-|||1\n\n"
                    "S e f\nA 0 1|||X|||g|||REQUIRED|||-NONE-|||0\n", "g")
    assert m2_references(gold).references == [["c b", "g f"], ["d b", "g f"]]
    with pytest.raises(InputError, match="absent_as_unchanged must be True or False, got 'false'"):
        m2_references(gold, absent_as_unchanged="false")  # (read as true: REF1's second line became 'e f')
    for bad in ("3", float("nan"), True, 0):
        with pytest.raises(InputError, match="max_references must be"):
            m2_references(gold, max_references=bad)
    path = tmp_path / "t.m2"
    path.write_text("S a b\nT0-A0 c b\nA 0 1|||X|||c|||REQUIRED|||-NONE-|||0\n", encoding="utf-8")
    with pytest.raises(InputError, match="target_lines must be True or False"):
        read_m2(str(path), target_lines="false")
    assert len(read_m2(str(path), target_lines=True)) == 1


def test_williams_refuses_correlations_that_cannot_hold_together():
    with pytest.raises(InputError, match="cannot hold together .the determinant of their correlation matrix is -0.203"):
        williams_test(0.8, 0.75, 0.0, 1000)  # (t = 3.58, p = 0.00018 before)
    with pytest.raises(InputError, match="cannot hold together"):
        williams_test(0.9, -0.8, 0.7, 12)  # (was called 'exactly collinear')
    assert 0 < williams_test(0.9, 0.8, 0.7, 12).p_value < 1


def test_nan_statistics_are_not_tested():
    metric = get_metric("green")
    prepared = metric.prepare(Corpus(SOURCES, REFERENCES))
    base, system = metric.statistics(prepared, SOURCES), metric.statistics(prepared, FIXED)
    with pytest.raises(InputError, match="statistics of 'sys' hold values that are not finite"):
        paired_test_from_statistics(metric.resampler(), {"base": base, "sys": np.full(system.shape, np.nan)},
                                    samples=50)
    result = paired_test_from_statistics(metric.resampler(), {"base": base, "sys": system}, samples=50)
    assert result.systems[1].score > 0


def test_meta_evaluation_reads_a_generator_of_systems_once_and_checks_jobs():
    subset = ["AMU", "RAC", "CAMB", "CUUI"]
    expected = meta_evaluate(SCORES, systems=subset).correlations
    assert meta_evaluate(SCORES, systems=(s for s in subset)).correlations == expected  # (was 'got 0 systems')
    with pytest.raises(InputError, match="number of processes"):
        meta_evaluate(SCORES, jobs=-5)


def test_item_rows_are_integers_not_flags(tmp_path: Path):
    path = tmp_path / "j.xml"
    path.write_text(
        '<set>\n<ranking-item src-id="0" user="u1"><translation system="A" rank="1"/><translation system="B" rank="2"/>'
        '<translation system="C" rank="3"/></ranking-item>\n<ranking-item src-id="1" user="u1"><translation system="A" '
        'rank="2"/><translation system="B" rank="1"/><translation system="C" rank="3"/></ranking-item>\n</set>\n',
        encoding="utf-8")
    judgments = read_judgments(str(path))
    scores = {"A": [0.9, 0.5], "B": [0.5, 0.9], "C": [0.1, 0.1]}
    assert sentence_agreement(scores, judgments, [0, 1]).accuracy == 1.0
    with pytest.raises(InputError, match="got True/False, which are no rows"):
        sentence_agreement(scores, judgments, [False, True])
    with pytest.raises(InputError, match="got float64 values"):
        sentence_agreement(scores, judgments, [0.0, 1.0])


def test_flags_and_numbers_given_as_other_types():
    """all_pairs="no" ran the all-pairs test (a text is true); NumPy's True passed as beta or
    lambda 1 (float() reads it); an infinite sentence score ranked as a number (nan was refused)."""
    from gecmetrics import paired_test, rank_by_sentence_scores

    systems = {"A": ["a b", "c e"], "B": ["a b", "c d"]}
    with pytest.raises(InputError, match="all_pairs must be True or False, got 'no'"):
        paired_test("gleu", ["a b", "c d"], [["a b", "c d"]], systems, samples=20, all_pairs="no")
    assert type(paired_test("gleu", ["a b", "c d"], [["a b", "c d"]], systems, samples=20,
                            all_pairs=True)).__name__ == "AllPairsResult"
    with pytest.raises(InputError, match=r"beta \(-b/--beta\) must be a number, got np.True_"):
        get_metric("green", beta=np.True_)
    with pytest.raises(InputError, match="lambda_ .* must be a finite number >= 0, got np.True_"):
        get_metric("gleu0", lambda_=np.True_)
    assert get_metric("green", beta=np.float64(0.5)).beta == (0.5,)
    with pytest.raises(InputError, match=r"score of A on sentence 2 is not a finite number \(inf\)"):
        rank_by_sentence_scores({"A": [0.1, float("inf")], "B": [0.2, 0.3]})


def test_an_unknown_resampling_option_is_named(tmp_path: Path):
    """samples=10 (for resamples) was a TypeError naming the internal Resampling class."""
    from gecmetrics import correlate_with_judgments

    path = tmp_path / "j.xml"
    path.write_text('<set>\n<ranking-item src-id="0" user="u1"><translation system="A" rank="1"/><translation '
                    'system="B" rank="2"/><translation system="C" rank="3"/><translation system="D" rank="4"/>'
                    '</ranking-item>\n</set>\n', encoding="utf-8")
    scores = {"m": {"A": 0.4, "B": 0.3, "C": 0.2, "D": 0.1}}
    with pytest.raises(InputError, match="unknown resampling option 'samples'; valid: resamples, seed, unit"):
        correlate_with_judgments(scores, read_judgments(str(path)), samples=10)
    assert correlate_with_judgments(scores, read_judgments(str(path)), resamples=10)[0].values["pearson"] == 1.0


def test_statistics_of_another_metric_or_reference_count_are_refused():
    """A resampler summed whatever rows it was given: GLEU+'s resampler for one reference read
    two-reference statistics as one wide row (0.7061 for a corpus scoring 0.6585), GREEN's 28
    columns under GLEU+'s resampler scored the baseline 0 and an interval past 1, and GREEN's
    resampler signed refs:1 over two references."""
    references = [REFERENCES[0], ["She went to school .", "I have an apple ."]]
    for name in ("gleu", "gleu0", "green"):
        metric = get_metric(name)
        statistics = {"a": metric.corpus_statistics(SOURCES, references, SOURCES),
                      "b": metric.corpus_statistics(SOURCES, references, FIXED)}
        result = paired_test_from_statistics(metric.resampler(references=2), statistics)
        assert [s.score for s in result.systems] == [metric.corpus_score(SOURCES, references, lines).score
                                                      for lines in (SOURCES, FIXED)]
        for count in (1, 3):
            with pytest.raises(InputError, match=rf"^a: {name}: statistics of shape \(2, 2, \d+\) do not fit the "
                                                 rf"resampler, which reads \(sentences, {count}, \d+\)"):
                paired_test_from_statistics(metric.resampler(references=count), statistics)
    green = {"a": get_metric("green").corpus_statistics(SOURCES, references, SOURCES)}
    with pytest.raises(InputError, match=r"statistics of shape \(2, 2, 28\) do not fit the resampler, which reads "
                                         r"\(sentences, 2, 18\)"):
        paired_test_from_statistics(get_metric("gleu").resampler(references=2), green)


def test_unregister_forgets_only_registered_names():
    """unregister_metric("gleu") removed GLEU+ from the process without a word, and a name never
    registered (a typo in a clean-up) passed silently."""
    from gecmetrics import register_metric, unregister_metric
    from gecmetrics.core.lang import unregister_language
    from gecmetrics.metrics.gleu.gleu import GLEU

    with pytest.raises(InputError, match="^name: 'gleu' is a built-in metric"):
        unregister_metric("gleu")
    for name in ("no-such-metric", 3):
        with pytest.raises(InputError, match="^name: "):
            unregister_metric(name)
    register_metric("gleu", GLEU, {"best_reference": True}, replace=True)
    try:
        assert get_metric("gleu").settings.best_reference
    finally:
        unregister_metric("gleu")
    assert not get_metric("gleu").settings.best_reference
    register_metric("gleu-sweep", GLEU, {"best_reference": True})
    unregister_metric("gleu-sweep")
    with pytest.raises(InputError, match="unknown metric"):
        get_metric("gleu-sweep")
    with pytest.raises(InputError, match="^code: no language is registered"):
        unregister_language("en")


def test_a_reference_list_holding_a_non_text_names_it():
    """["a b", 3] was reported as 'got list', as if the list itself were wrong."""
    from gecmetrics.rewards import reward_function

    reward = reward_function("gleu")
    for references, said in (([["a b", 3]], "got int at index 1 of the list"), ([[]], "got an empty list"),
                             ([3], "got int$")):
        with pytest.raises(InputError, match=f"^references: references 0: expected a reference text .*{said}"):
            reward(completions=["a b"], source=["a c"], references=references)
    from gecmetrics.rewards import mbr_select

    with pytest.raises(InputError, match=r"^candidates: candidates 1: expected a non-empty list of texts, got "
                                         r"NoneType at index 0 of the list$"):
        mbr_select([["a b", "a c"], [None, "a"]], "gleu", sources=["a b", "a"])


GOLD_TWO = "A 0 1|||R:X|||x|||REQUIRED|||-NONE-|||0\nA 2 3|||R:X|||y|||REQUIRED|||-NONE-|||0"


def _blocks(*edits: str) -> list:
    return parse_m2("".join(f"S a b c d\n{edit}\n\n" for edit in edits), "x")


def test_score_corpus_names_are_the_systems_gotoscorer_weighs():
    """score_corpus(names=[A, B]) weighed GoToScorer's chunks by every hypothesis of the corpus,
    C left out included (A 0.714 where compare and corpus_score over A and B give 0.833)."""
    from gecmetrics import score_corpus

    first, second = GOLD_TWO.splitlines()
    gold, a, b, c = _blocks(GOLD_TWO, GOLD_TWO), _blocks(first, first), _blocks(second, second), _blocks(first, first)
    scored = score_corpus(["gotoscorer"], Corpus(None, [], {"A": a, "B": b, "C": c}, gold=gold), names=["A", "B"],
                          cache=False)
    expected = get_metric("gotoscorer").corpus_score(None, gold, a, systems={"A": a, "B": b}).score
    assert scored.result("A", 0).score == expected == pytest.approx(5 / 6)


def test_a_weight_file_longer_than_the_corpus_is_refused_for_sentence_scores_too(tmp_path: Path):
    """sentence_scores and corpus_statistics of a corpus shorter than GoToScorer's weight file read
    the file's first lines (sentence 1 scored 0.833 alone, 1.0 in the whole); corpus_score refused it."""
    from tests.conftest import run_cli

    first, second = GOLD_TWO.splitlines()
    gold, hypothesis = _blocks(GOLD_TWO, GOLD_TWO), _blocks(first, second)
    for name, text in (("gold.m2", f"S a b c d\n{GOLD_TWO}\n\n" * 2), ("a.m2", f"S a b c d\n{first}\n\n" * 2),
                       ("b.m2", f"S a b c d\n{first}\n\nS a b c d\n{second}\n\n")):
        (tmp_path / name).write_text(text, encoding="utf-8")
    weights = tmp_path / "w.txt"
    code, _, err = run_cli("gotoscorer", "-ref", str(tmp_path / "gold.m2"), "-hyp", str(tmp_path / "a.m2"),
                           str(tmp_path / "b.m2"), "-gen_w_file", str(weights))
    assert code == 0, err
    metric = get_metric("gotoscorer", weights=str(weights))
    for call in (metric.sentence_scores, metric.corpus_statistics, metric.corpus_score):
        with pytest.raises(InputError, match="w.txt: has 2 sentence lines but the corpus has 1 sentence"):
            call(None, gold[1:], hypothesis[1:])
    placed = Corpus(None, [], {"h": hypothesis[1:]}, gold[1:], rows=[1])  # its place in the whole: line 1
    from gecmetrics import score_corpus

    statistics = score_corpus([metric], placed).statistics["h"][0]
    whole = score_corpus([metric], Corpus(None, [], {"h": hypothesis}, gold)).statistics["h"][0]
    np.testing.assert_array_equal(statistics, whole[1:])


def test_second_sweep_arguments_are_checked(tmp_path: Path):
    """What the second API sweep (2026-12-04) found: flags given as text, offsets and reference
    counts unchecked, unknown keyword options reaching a function the caller never named, values
    given twice taken once, a binary handle, a metric named by its entry."""
    import io

    from gecmetrics import GREEN, list_metrics, register_language, register_metric, write_m2

    class MyGreen(GREEN):
        pass

    with pytest.raises(InputError, match="replace must be True or False, got 'no'"):
        register_metric("green", MyGreen, replace="no")
    assert type(get_metric("green")) is GREEN
    for offset in (-1, "1", True, None):
        with pytest.raises(InputError, match="^offset "):
            Corpus(SOURCES, REFERENCES, {"h": FIXED}, offset=offset)
    for references in (True, -1, "2", None):
        with pytest.raises(InputError, match="^references "):
            get_metric("gleu").resampler(0, references)
    with pytest.raises(InputError, match="beta 2 given twice"):
        GREEN(beta=[2, 2])
    for name in (list_metrics()[0], ["gleu"]):
        with pytest.raises(InputError, match="^name: a metric is named by a string"):
            get_metric(name)
    with pytest.raises(InputError, match="EditLanguage subclass"):
        register_language("xx", object)
    with pytest.raises(InputError, match="write_m2 writes to an open text file"):
        write_m2(parse_m2("S a b\n\n", "x"), io.BytesIO())


def test_second_sweep_judgment_arguments_are_checked(shared_data: Path):
    from gecmetrics import human_ranking, load_human, meta_evaluate_judgments, read_judgments, trueskill_scores

    judgments = read_judgments(str(shared_data / "human" / "judgments" / "gjg15.xml"))
    m2 = load_human("gjg15").scores["m2_f05_gjg15"]
    for call, message in [(lambda: trueskill_scores(judgments, runs=1, progress=3), "progress must be a function"),
                          (lambda: human_ranking(judgments, "ew", runs=1), "unknown ranking 'ew' option 'runs'"),
                          (lambda: meta_evaluate_judgments(judgments, scores={"m": m2}, bootstap=5),
                           "unknown meta_evaluate_judgments option 'bootstap'"),
                          (lambda: meta_evaluate_judgments(judgments, scores={"m": m2}, compare="no"),
                           "compare must be True or False"),
                          (lambda: meta_evaluate_judgments(judgments, scores={"m": m2}, bootstrap=5,
                                                           resampling=("judgments", "judgments")), "given twice"),
                          (lambda: meta_evaluate({"m": m2}, human_score=["trueskill", "trueskill"]), "given twice")]:
        with pytest.raises(InputError, match=message):
            call()


def test_a_huge_integer_a_number_line_and_a_settings_text_are_one_line_each():
    """GREEN(beta=10**5000) and GREEN(unit=10**5000) were ValueErrors (the repr of an integer of
    more than 4,300 digits) in their own messages; a number among a text metric's hypothesis
    lines was called 'expected M2 blocks'; get_metric('green:beta=2') said 'unknown metric'."""
    from gecmetrics import GREEN

    big = 10**5000
    for settings, message in (({"beta": big}, "must be a number a float can hold, got 1.00e.5000"),
                              ({"unit": big}, "must be one of: word, char; got 1.00e.5000"),
                              ({"normalize_space": big}, "must be True or False, got 1.00e.5000")):
        with pytest.raises(InputError, match=message):
            GREEN(**settings)
    for hypothesis, message in (([5, "b"], "^x:1: expected lines of text, got int at line 1$"),
                                (["a", None], "^x:2: expected lines of text, got NoneType at line 2$")):
        with pytest.raises(InputError, match=message):
            compare(["a", "b"], [["a", "b"]], {"x": hypothesis}, "gleu")
    with pytest.raises(InputError, match=r"get_metric takes a name and settings as keywords \(get_metric\('green', "):
        get_metric("green:beta=2")
    with pytest.raises(InputError, match="unknown metric 'nope:x=1'"):
        get_metric("nope:x=1")
    assert get_metric("green", beta=2).settings.beta == (2.0,)


def test_systems_are_named_one_way_for_a_corpus_score_and_for_compare():
    """A one-hypothesis call's ``systems`` went through a copy of compare's naming that called a
    list's systems 'system 1', 'system 2' (compare: 'system 0', 'system 1') and made {1: A,
    "1": B} one system without a word (A left out of the preparation the systems share)."""
    metric = get_metric("gleu")
    with pytest.raises(InputError, match=r"^systems must map each system's name to .* \(a key 1\)"):
        metric.corpus_score(SOURCES, REFERENCES, FIXED, systems={1: FIXED, "1": SOURCES})
    with pytest.raises(InputError, match="^system 1: has 1 line but the source has 2"):
        metric.corpus_score(SOURCES, REFERENCES, FIXED, systems=[FIXED, SOURCES[:1]])
    with pytest.raises(InputError, match="^system 1: has 1 line but the source has 2"):
        compare(SOURCES, REFERENCES, [FIXED, SOURCES[:1]], "gleu")
    for systems in ("x", {"a b"}, 5):
        with pytest.raises(InputError, match="^systems must be a mapping of names to hypotheses"):
            metric.corpus_score(SOURCES, REFERENCES, FIXED, systems=systems)
    assert metric.corpus_score(SOURCES, REFERENCES, FIXED, systems=[SOURCES, FIXED]).score == \
        metric.corpus_score(SOURCES, REFERENCES, FIXED).score


def test_token_functions_refuse_a_string_for_tokens():
    """apply_edits("a b", []) and CLEME's partition("a b", []) read a string's characters as the
    tokens (['a', ' ', 'b']) without a word."""
    from gecmetrics.io.m2_references import apply_edits
    from gecmetrics.metrics.cleme.chunking import partition

    with pytest.raises(InputError, match=r"apply_edits takes the source's tokens \(a list: line.split\(\)\), not a str"):
        apply_edits("a b", [])
    with pytest.raises(InputError, match=r"partition takes the source's tokens .*, not a str"):
        partition("a b", [])
    assert apply_edits(["a", "b"], []) == ["a", "b"]
    assert partition(["a", "b"], []).source == ("a", "b")


def test_a_system_name_is_a_string_in_a_mapping_of_systems():
    """A key 1 or None became the system '1' or 'None' without a word (compare, a one-hypothesis
    call's systems, paired tests); a list of systems is still named 'system 0', ..."""
    from gecmetrics import paired_test

    for call in (lambda: compare(SOURCES, REFERENCES, {None: FIXED, "B": SOURCES}, "gleu"),
                 lambda: get_metric("gleu").corpus_score(SOURCES, REFERENCES, FIXED, systems={None: FIXED}),
                 lambda: paired_test("gleu", SOURCES, REFERENCES, {"A": SOURCES, None: FIXED}, samples=20)):
        with pytest.raises(InputError, match=r"^systems must map each system's name to its hypothesis .* "
                                             r"\(a key None\)$"):
            call()
    assert [row.system for row in compare(SOURCES, REFERENCES, [FIXED, SOURCES], "gleu").rows] == \
        ["system 0", "system 1"]


@pytest.mark.parametrize("metric", ["m2", "sentm2", "errant", "senterrant", "cleme", "pt-m2", "pt-errant"])
def test_a_beta_of_minus_zero_is_beta_zero(metric: str):
    """-b -0 (or beta=-0.0) labelled the F-score 'F-0' and signed 'beta:-0' where -b 0 says F0
    (GREEN's -0 keeps its sign: the original prints it, tests/test_cli_green.py)."""
    import math

    for given in (-0.0, "-0", "-0.0"):
        scorer = get_metric(metric, beta=given)
        assert math.copysign(1.0, scorer.settings.beta) == 1.0
        assert scorer.column_labels() == get_metric(metric, beta=0).column_labels()


def test_m2_score_with_beta_minus_zero_prints_f0(tmp_path: Path, monkeypatch):
    from tests.conftest import run_cli

    monkeypatch.chdir(tmp_path)
    (tmp_path / "gold.m2").write_text("S a b c\nA 0 1|||R:X|||x|||REQUIRED|||-NONE-|||0\n", encoding="utf-8")
    (tmp_path / "hyp").write_text("x b c\n", encoding="utf-8")
    printed = {beta: run_cli("m2", "score", "-b", beta, "hyp", "gold.m2") for beta in ("-0", "0", "-0.0")}
    assert printed["0"][0] == 0 and "f0 (x100)" in printed["0"][1]
    assert printed["-0"] == printed["0"] == printed["-0.0"]  # (the header said 'f-0 (x100)')
    assert get_metric("m2", beta=-0.0).signature(1) == get_metric("m2", beta=0).signature(1)  # (was beta:-0)


def test_a_corpus_names_its_hypotheses_by_strings():
    """Corpus(hypotheses={1: ...}) made the system '1' (and hypothesis_m2={0: ...} looked for a
    system '0'): the corpus, like compare, takes string names only."""
    from gecmetrics.io.corpus import Corpus

    with pytest.raises(InputError, match=r"^hypotheses must map each system's name to .* \(a key 1\)$"):
        Corpus(SOURCES, REFERENCES, {1: FIXED})
    with pytest.raises(InputError, match=r"^hypothesis_m2 must map each system's name to .* \(a key 0\)$"):
        Corpus(SOURCES, REFERENCES, {"A": FIXED}, hypothesis_m2={0: []})
    assert list(Corpus(SOURCES, REFERENCES, {"A": FIXED}).hypotheses) == ["A"]
