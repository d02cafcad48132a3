"""Public functions check their arguments: a value that could be read two ways, an iterator, a
string where a list belongs, a setting the metric cannot use, statistics that give NaN: one
InputError naming the argument, or the same number as the plain form, never a silently
different number (cases found by a sweep of the Python API)."""
from __future__ import annotations

import re

import numpy as np
import pytest

import gecmetrics as G
from gecmetrics.errors import InputError, LineRefused
from gecmetrics.metrics.registry import resolve_metrics
from gecmetrics.rewards import mbr_select, reward_function

S, R = "He go home .", ["He goes home ."]
SOURCES = ["a b c d e f", "He go home ."]
REFERENCES = [["a b x d e f g h", "He goes home ."]]
HYPOTHESIS = ["a b d e", "He goes home ."]


def test_a_green_column_is_an_index_a_label_or_a_beta_and_never_a_guess() -> None:
    metric = G.GREEN(beta=[1, 2, 3])
    assert metric.column_index(None) == 0
    assert metric.column_index("GREEN b2") == 1
    assert metric.column_index(1.0) == 0 and metric.column_index(2.0) == 1  # a float is a beta
    assert metric.column_index(3) == metric.column_index(np.int64(3)) == 2  # no index 3: beta 3
    assert metric.column_index(0) == 0
    for ambiguous in (1, np.int64(1), 2, np.int32(2)):  # index 1 is b2, beta 1 is index 0 ...
        with pytest.raises(InputError, match="ambiguous.*'GREEN b"):
            metric.column_index(ambiguous)
    for flag in (True, np.bool_(False)):
        with pytest.raises(InputError, match="an index, a label or a value, not"):
            metric.column_index(flag)
    with pytest.raises(InputError, match="has no column 5: not an index"):
        metric.column_index(5)
    # the documented reward: beta 2 of [0.5, 2] (no index 2), and the same column as its label
    assert reward_function("green", beta=[0.5, 2], column=2).column == 1
    assert G.GREEN(beta=[0.5, 2]).column_index(1) == 1  # index 1 and beta 2: no other reading
    with pytest.raises(InputError, match="ambiguous"):
        reward_function(metric, column=1)
    # a column setting of text values (GoToScorer's score): a number is an index or refused
    goto = G.get_metric("gotoscorer", score="f05/r")
    assert goto.column_index(1) == 1 and goto.column_index("r") == 1
    with pytest.raises(InputError, match=r"has no column 2.0: not an index \(0..1\), a label \(.*\) or a score of its"):
        goto.column_index(2.0)
    rows = dict(completions=["a b d e"], source=["a b c d e f"], references=[["a b x d e f g h"]])
    scores = metric.sentence_scores(rows["source"], [rows["references"][0]], rows["completions"]).scores
    for key, k in (("GREEN b1", 0), (1.0, 0), (2.0, 1), (3, 2)):
        assert reward_function(metric, column=key)(**rows) == [pytest.approx(float(np.ravel(scores[k])[0]))]


def test_configuration_errors_raise_while_a_refused_line_falls_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only a LineRefused (a work bound, a sentence the language cannot annotate) gives a line
    the fallback; any other InputError from the metric (a model or word list that cannot be
    loaded) raises at the call instead of giving every completion the fallback."""
    from gecmetrics.core.edits.lattice import AlignmentTooLarge
    from gecmetrics.core.lang.base import SentenceError
    from gecmetrics.core.lang.en.merge import MergeTooLong
    from gecmetrics.run import rewards

    assert all(issubclass(cls, LineRefused) for cls in (AlignmentTooLarge, SentenceError, MergeTooLong))
    batch = dict(completions=["He goes home .", "He go home ."], source=[S, S], references=[R, R])
    real = rewards.chunk_statistics

    def refusing(error):
        def statistics(metrics, corpus, names, observations=None):
            if any("go home" in line for name in names for line in corpus.hypotheses[name]):
                raise error
            return real(metrics, corpus, names, observations)
        return statistics

    monkeypatch.setattr(rewards, "chunk_statistics", refusing(LineRefused("too long for the bound")))
    f = reward_function("gleu", fallback=-0.5)
    assert f(**batch) == [1.0, -0.5] and f.stats.reasons == {"refused by the metric": 1}
    monkeypatch.setattr(rewards, "chunk_statistics", refusing(InputError("word list not found", "/nowhere")))
    with pytest.raises(InputError, match="word list not found"):
        reward_function("gleu")(**batch)


def test_an_iterator_of_hypothesis_lines_is_read_once() -> None:
    gleu = G.get_metric("gleu")
    assert gleu.corpus_score(SOURCES, REFERENCES, iter(HYPOTHESIS)).score == \
        gleu.corpus_score(SOURCES, REFERENCES, HYPOTHESIS).score > 0
    green = G.get_metric("green")
    assert np.array_equal(green.sentence_scores(SOURCES, REFERENCES, (h for h in HYPOTHESIS)).scores,
                          green.sentence_scores(SOURCES, REFERENCES, HYPOTHESIS).scores)
    tested = G.paired_test("green", SOURCES, REFERENCES, {"a": iter(SOURCES), "b": (h for h in HYPOTHESIS)},
                           samples=50)
    plain = G.paired_test("green", SOURCES, REFERENCES, {"a": SOURCES, "b": HYPOTHESIS}, samples=50)
    assert [(s.name, s.score, s.p_value) for s in tested.systems] == \
        [(s.name, s.score, s.p_value) for s in plain.systems]


def test_reward_bounds_are_positive_or_none() -> None:
    for name in ("max_tokens", "max_cells"):
        with pytest.raises(InputError, match=fr"{name} \(or None: no bound\) must be an integer >= 1, got 0"):
            reward_function("gleu", **{name: 0})
    with pytest.raises(InputError, match=r"warn_every must be an integer >= 1, got 0"):  # (a count: None refused)
        reward_function("gleu", warn_every=0)
    assert reward_function("gleu", max_tokens=None).max_tokens is None
    # a NumPy integer is a count, as everywhere else in the package (it was refused here alone)
    bounded = reward_function("gleu", max_tokens=np.int64(4), memo_size=np.int32(0))
    assert (bounded.max_tokens, bounded.memo_size) == (4, 0) and type(bounded.max_tokens) is int
    f = reward_function("gleu", max_tokens=4, memo_size=0)  # 0: nothing remembered
    assert f(completions=["w " * 5, "He goes home ."], source=[S, S], references=[R, R]) == [0.0, 1.0]
    assert f.stats.reasons == {"max_tokens": 1}


def test_mbr_without_sources_only_for_a_metric_that_reads_none() -> None:
    candidates = [["In the past , many people had gone to school .", "In the past , many people went to school .",
                   "In the past , many people had go to school ."]]
    with pytest.raises(InputError, match="gleu reads the source sentence: give sources"):
        mbr_select(candidates, "gleu")
    assert mbr_select(candidates, "gleu", ["In the past , many people had go to school ."]).choices == [1]


def test_names_and_users_given_as_one_string_are_refused_not_read_as_letters(tmp_path) -> None:
    corpus = G.Corpus(["a b", "c d"], [["a b", "c e"]], {"A": ["a b", "c d"], "B": ["a b", "c e"], "AB": ["x", "y"]})
    with pytest.raises(InputError, match="names must be a sequence of hypothesis names, got 'AB'"):
        G.score_corpus(["gleu"], corpus, names="AB")  # it scored A and B
    assert list(G.score_corpus(["gleu"], corpus, names=["AB"]).results()) == ["AB"]
    assert list(G.score_corpus(["gleu"], corpus, names=("B", "A")).results()) == ["B", "A"]
    with pytest.raises(InputError, match="the corpus has no hypothesis 'Q'"):
        G.score_corpus(["gleu"], corpus, names=["Q"])
    with pytest.raises(InputError, match="names must be a sequence"):
        G.score_corpus(["gleu"], corpus, names=5)
    from tests.test_meta_cli import toy_xml

    toy = tmp_path / "toy.xml"  # every item by user u
    text = toy_xml()
    toy.write_text(text, encoding="utf-8")
    items = len(G.read_judgments(toy, excluded_users=()).items)
    with pytest.raises(InputError, match=rf"every <ranking-item> \({items}\) is by an excluded user \('u'\)"):
        G.read_judgments(toy, excluded_users=["u"])
    item = text[text.index("<ranking-item"):text.index("</ranking-item>") + len("</ranking-item>")]
    path = tmp_path / "with_admin.xml"
    path.write_text(text.replace(item, item + "\n" + item.replace('user="u"', 'user="admin"'), 1), encoding="utf-8")
    with pytest.raises(InputError, match="excluded_users must be a sequence of user names, got 'admin'"):
        G.read_judgments(path, excluded_users="admin")  # it excluded the users a, d, m, i and n
    one = G.read_judgments(path, excluded_users=["admin"])
    assert len(one.items) == items and len(G.read_judgments(path, excluded_users=()).items) == items + 1
    with pytest.raises(InputError, match="excluded_users must be user names"):
        G.read_judgments(path, excluded_users=[1])


def test_scored_results_name_what_is_missing() -> None:
    corpus = G.Corpus(["a b", "c d"], [["a b", "c e"]], {"A": ["a b", "c d"]})
    scored = G.score_corpus(["gleu", "green"], corpus)
    assert scored.result("A", 1).score == G.get_metric("green").corpus_score(
        ["a b", "c d"], [["a b", "c e"]], ["a b", "c d"]).score
    with pytest.raises(InputError, match="no hypothesis 'nope' was scored"):
        scored.result("nope", 0)
    for k in (2, -1, True, 0.0):
        with pytest.raises(InputError, match="metric index must be an integer from 0 to 1"):
            scored.result("A", k)


def test_paired_statistics_that_give_nan_are_refused() -> None:
    gleu = G.GLEU()
    statistics = {name: gleu.corpus_statistics(SOURCES, REFERENCES, lines)
                  for name, lines in (("x", SOURCES), ("y", HYPOTHESIS))}
    assert len(G.paired_test_from_statistics(gleu.resampler(), statistics, samples=20).systems) == 2
    damaged = {name: values.astype(float) for name, values in statistics.items()}
    damaged["y"][0] = np.nan
    with pytest.raises(InputError, match="the statistics of 'y' hold values that are not finite"):
        G.paired_test_from_statistics(gleu.resampler(), damaged, samples=20)
    with pytest.raises(InputError, match="resampler must be"):
        G.paired_test_from_statistics(None, statistics)
    with pytest.raises(InputError, match="statistics must map"):
        G.paired_test_from_statistics(gleu.resampler(), list(statistics.values()))


def test_small_argument_checks(tmp_path) -> None:
    from gecmetrics.core.cache import Cache
    from gecmetrics.io.m2 import parse_m2

    corpus = G.Corpus(["a b"], [["a b"]], {"A": ["a b"]})
    cases = [
        (lambda: G.score_corpus(["gleu"], corpus, progress=5), "progress must be a function"),
        (lambda: G.score_corpus(None, corpus), "metrics must be a list of metrics"),
        (lambda: G.compare([S], [R], {"a": [S]}, hypothesis_m2=[[]]), "hypothesis_m2 must map"),
        (lambda: G.compare([S], [R], {"a": [S]}, ["m2"], m2_blocks="S a"), "m2_blocks must be the gold M2 blocks"),
        (lambda: G.register_metric("zz_preset", G.GLEU, preset="x"), "preset must be a dict"),
        (lambda: parse_m2(None, "x.m2"), "expected the text of an M2 file"),
        (lambda: Cache(5), "cache folder must be a path"),
        (lambda: Cache(tmp_path).prune(older_than=float("nan")), "not a finite age"),
        (lambda: Cache(tmp_path).prune(older_than=float("inf")), "not a finite age"),
    ]
    for call, message in cases:
        with pytest.raises(InputError, match=message):
            call()
    assert "zz_preset" not in {info.name for info in G.list_metrics()}
    assert resolve_metrics(G.GLEU()) == [G.GLEU()]


def test_a_hypothesis_file_given_twice_is_refused(tmp_path) -> None:
    """A corpus names its systems by path: the second file would silently replace the first."""
    for name, text in (("src", "a b\n"), ("ref", "a c\n"), ("hyp", "a c\n"), ("other", "a b\n")):
        (tmp_path / name).write_text(text, encoding="utf-8")
    src, ref, hyp, other = (str(tmp_path / name) for name in ("src", "ref", "hyp", "other"))
    assert list(G.read_corpus(src, [ref], [hyp, other]).hypotheses) == [hyp, other]
    with pytest.raises(InputError, match="given twice"):
        G.read_corpus(src, [ref], [hyp, other, hyp])


def test_prepared_from_another_metric_is_one_input_error():
    """A sweep (2026-12-02) got a ValueError (green-char with green's prepared), an AttributeError
    (m2 with an EncodedCorpus) and TypeErrors (gleu with MaxMatch's, or a string)."""
    from gecmetrics import get_metric
    from gecmetrics.io.corpus import Corpus
    from gecmetrics.io.m2 import parse_m2

    sources, references, hypothesis = ["a b c", "d e"], [["a b c", "d e f"]], ["a b c", "d e"]
    encoded = get_metric("green").prepare(Corpus(sources, references))
    gold = parse_m2("S a b c\nA 0 1|||R:X|||x|||REQUIRED|||-NONE-|||0\n\n"
                    "S d e\nA 2 2|||M:X|||f|||REQUIRED|||-NONE-|||0\n", "gold.m2")
    maxmatch = get_metric("m2").prepare(Corpus(None, gold=gold))
    for name, prepared in (("green-char", encoded), ("gleu", maxmatch), ("gleu", "x"), ("m2", encoded),
                           ("senterrant", encoded), ("cleme", encoded), ("gotoscorer", encoded)):
        with pytest.raises(InputError, match=r"^prepared: .*(prepared must be what its prepare\(\) returned|"
                                             r"encoded for another unit)"):
            get_metric(name).corpus_score(sources, references, hypothesis, prepared)


@pytest.mark.parametrize("name, settings, message", [
    ("impara", {"threshold": 2}, "must be below 1"),
    ("impara", {"threshold": 1.0}, "must be below 1"),
    ("scribendi", {"threshold": 1.5}, "must be from 0 to 1"),
    ("scribendi", {"threshold": -0.5}, "must be from 0 to 1"),
    ("some", {"weights": "0/0/0"}, "not all 0"),
    ("some", {"weights": "-1/1/1"}, "weights of 0 or more"),
    ("llm-s", {"temperature": -1}, "finite number of 0 or more"),
])
def test_model_settings_that_would_give_one_constant_score_are_refused(name, settings, message):
    """Settings under which every sentence scores the same (a gate nothing passes, weights of 0)
    or that a server refuses for every prompt (a sweep, 2026-12-02); gec-metrics' threshold=-999
    (no gate) stays accepted."""
    with pytest.raises(InputError, match=message):
        G.get_metric(name, **settings)
    assert G.get_metric("impara", threshold=-999.0).settings.threshold == -999.0


JUDGMENTS = ('<?xml version="1.0" encoding="UTF-8"?><appraise-results><error-correction-ranking-result id="x">'
             + "".join(f'<ranking-item src-id="{k}" user="u1">'
                       + "".join(f'<translation system="{s}" rank="{r}"/>' for s, r in zip("ABCD", ranks))
                       + "</ranking-item>"
                       for k, ranks in enumerate([(1, 1, 3, 2), (1, 2, 2, 3), (1, 1, 2, 3), (1, 2, 2, 2)]))
             + "</error-correction-ranking-result></appraise-results>")


def test_meta_evaluation_and_significance_arguments(tmp_path) -> None:
    """A sweep (2026-12-02): a system listed twice was correlated twice (0.9949 for 0.997), the
    text "no" ordered all-pairs clusters as if higher were better, malformed statistics gave NumPy
    errors or a number, an integer past float's range an OverflowError, and options that do
    nothing (correction without all_pairs, a seed with nothing drawn) were accepted."""
    from gecmetrics.meta.evaluate import JudgmentOptions
    from gecmetrics.meta.windows import window_analysis

    (tmp_path / "j.xml").write_text(JUDGMENTS, encoding="utf-8")
    judgments = G.read_judgments(str(tmp_path / "j.xml"))
    scores = {"m": {"A": .3, "B": .2, "C": .1, "D": 0.0}}
    five = {"A": .4, "B": .3, "C": .2, "D": .1, "E": 0.0}
    sources, reference = ["a b c", "d e f", "g h"], ["a b c", "d x f", "g h i"]
    gleu = G.GLEU()
    statistics = {name: gleu.corpus_statistics(sources, [reference], lines)
                  for name, lines in (("S", sources), ("R", reference))}
    cases = [
        (lambda: G.correlate_with_judgments(scores, judgments, systems=["A", "B", "B", "C"]), "'B' is listed twice"),
        (lambda: window_analysis(five, dict(five), 3, systems=["A", "B", "B", "C"]), "'B' is listed twice"),
        (lambda: G.all_pairs_test(gleu.resampler(), statistics, higher_is_better="no"), "higher_is_better must be"),
        (lambda: G.paired_test_from_statistics(gleu.resampler(), statistics, strict="yes"), "strict must be"),
        (lambda: G.paired_test_from_statistics(gleu.resampler(), {"S": "abc", "R": "def"}), "not a metric's"),
        (lambda: G.paired_test_from_statistics(gleu.resampler(), {k: v.astype(str) for k, v in statistics.items()}),
         "not a metric's per-sentence counts"),
        (lambda: G.paired_test_from_statistics(gleu.resampler(0, 3), statistics), "do not fit the resampler"),
        (lambda: gleu.resampler(5, 1), "column must be an index from 0 to 0"),
        (lambda: G.meta_evaluate({"m": {"AMU": 10 ** 400, "RAC": .4, "CAMB": .3}}, "gjg15",
                                 systems=["AMU", "RAC", "CAMB"]), "is not a finite number"),
        (lambda: G.paired_test("gleu", sources, [reference], {"S": sources, "R": reference}, correction="bh"),
         "correction and level are for all_pairs=True"),
        (lambda: JudgmentOptions(seed=3), "seed does nothing here"),
    ]
    for call, message in cases:
        with pytest.raises(InputError, match=message):
            call()
    assert JudgmentOptions(seed=3, bootstrap=10).seed == 3


def test_resamples_without_a_correlation_are_counted_in_a_note(tmp_path) -> None:
    """31% of the resamples (all Expected Wins equal in them) were left out of the intervals with
    only the JSON's "undefined" counts saying so."""
    (tmp_path / "j.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8"?><appraise-results><error-correction-ranking-result id="x">'
        '<ranking-item src-id="0" user="u1"><translation system="A" rank="1"/><translation system="B" rank="2"/>'
        '</ranking-item><ranking-item src-id="1" user="u1">'
        + "".join(f'<translation system="{s}" rank="1"/>' for s in "ABCD")
        + "</ranking-item></error-correction-ranking-result></appraise-results>", encoding="utf-8")
    result = G.meta_evaluate_judgments(str(tmp_path / "j.xml"), scores={"m": {"A": .3, "B": .2, "C": .1, "D": 0.0}},
                                       bootstrap=1000)
    left_out = result.correlations[0].undefined["pearson"]
    assert 0 < left_out < 1000
    assert any(note.startswith("m (judgments/pair): resamples with all scores equal have no correlation")
               and f"of 1000: pearson {left_out}," in note for note in result.notes), result.notes


def test_an_undefined_williams_test_names_the_metric_pair(tmp_path) -> None:
    """Two proportional metric columns: the error named neither the pair nor the comparison."""
    (tmp_path / "j.xml").write_text(JUDGMENTS, encoding="utf-8")
    judgments = G.read_judgments(str(tmp_path / "j.xml"))
    scores = {"m1": {"A": .4, "B": .3, "C": .2, "D": .1}, "m2": {"A": .8, "B": .6, "C": .4, "D": .2}}
    with pytest.raises(InputError, match=r"comparing 'm1' with 'm2' \(paired tests of metrics\): Williams' test"):
        G.compare_metrics("m1", "m2", scores, judgments)


@pytest.mark.parametrize("name", ["gleu", "gleu0", "green", "m2", "sentm2", "senterrant", "errant", "cleme",
                                  "gotoscorer"])
@pytest.mark.parametrize("value", [None, ([], []), ["a b"]])
def test_prepare_takes_a_corpus_and_says_so(name: str, value: object) -> None:
    """Every metric's prepare() refuses what is no Corpus in one line naming the metric (gleu,
    green, the M2 family and errant read an attribute of it and raised AttributeError)."""
    with pytest.raises(InputError, match=r"prepare\(\) takes a Corpus.*got " + type(value).__name__):
        G.get_metric(name).prepare(value)


def test_score_files_takes_corpus_files() -> None:
    with pytest.raises(InputError, match="score_files needs a CorpusFiles .*got tuple"):
        G.score_files([G.GLEU()], ("INPUT", ("REF0",), ("AMU",)))


@pytest.mark.parametrize("hypothesis", [5, 2.5, object()])
def test_a_hypothesis_that_is_no_list_is_named(hypothesis: object) -> None:
    with pytest.raises(InputError, match="hypothesis: expected a list of lines, got " + type(hypothesis).__name__):
        G.get_metric("gleu").corpus_score(["a b"], [["a b"]], hypothesis)


def test_write_m2_writes_only_what_read_m2_reads_back(tmp_path) -> None:
    """Blocks built in code are checked as the reader checks a file's: a field holding '|||' or a
    line break, a span outside the sentence, a source that is no text were written as M2 that
    read_m2 then refused (or raised AttributeError/TypeError while writing)."""
    import io

    from gecmetrics.core.edits.blocks import Block, Edit

    bad = {"edits are Edit objects": [Block("a b", [None])], "edits are a list of Edit": [Block("a b", None)],
           "type holds '|||'": [Block("a b c", [Edit(0, 1, "X|||Y", "d")])],
           "correction holds '|||' or ends with '|'": [Block("a b c", [Edit(0, 1, "R:X", "d|")])],
           "comment holds '|||'": [Block("a b", [Edit(0, 1, "R:X", "x", comment="c|||d")])],
           "correction holds a line break": [Block("a b", [Edit(0, 1, "R:X", "x\ny")])],
           "goes beyond the sentence": [Block("a b c", [Edit(0, 9, "X", "d")])],
           "source is one line of text": [Block("a\nb c", [])],
           "source is its tokenized text, got NoneType": [Block(None, [])]}
    for message, blocks in bad.items():
        handle = io.StringIO()
        with pytest.raises(InputError, match=r"blocks: sentence 1: .*" + re.escape(message)):
            G.write_m2(blocks, handle)
        assert handle.getvalue() == ""
    good = [Block("a b c", [Edit(0, 1, "R:X", "|x"), Edit(1, 2, "R:Y", "y||z", annotator=1)]), Block("", [])]
    path = tmp_path / "built.m2"
    with open(path, "w", encoding="utf-8") as handle:
        G.write_m2(good, handle)
    assert [(block.source, block.edits) for block in G.read_m2(str(path))] == [(b.source, b.edits) for b in good]


def test_read_blocks_changed_after_reading_are_checked_again() -> None:
    """Blocks from the reader are trusted as it checked them, but only while their edits are the
    ones it read of their source: an edit appended in place, new edits by dataclasses.replace or
    another source were trusted by their line number (M2 0.8333 and CLEME 0.75 silently,
    GoToScorer an IndexError)."""
    import dataclasses
    import pickle

    from gecmetrics.core.edits.blocks import Edit, check_built_blocks
    from gecmetrics.io.m2 import parse_m2

    text = "S a b c\nA 0 1|||R:X|||x|||REQUIRED|||-NONE-|||0\n"
    bad = Edit(2, 99, "R:X", "y")
    appended, hypothesis = parse_m2(text, "g.m2"), parse_m2(text, "h.m2")
    appended[0].edits.append(bad)
    replaced = [dataclasses.replace(parse_m2(text, "g.m2")[0], edits=[bad])]
    shorter = [dataclasses.replace(parse_m2(text, "g.m2")[0], source="")]
    set_in_place = parse_m2(text, "g.m2")
    set_in_place[0].edits[0] = bad
    for gold in (appended, replaced, shorter, set_in_place):
        for score in (lambda: G.get_metric("m2").corpus_score(None, gold, ["x b c"]),
                      lambda: G.ErrantCompare().corpus_score(None, gold, hypothesis),
                      lambda: G.get_metric("cleme").corpus_score(None, gold, hypothesis),
                      lambda: G.get_metric("gotoscorer", no_weight=True).corpus_score(None, gold, hypothesis)):
            with pytest.raises(InputError, match=r"sentence 1: edit span (2 99|0 1) goes beyond the sentence"):
                score()
    read = parse_m2(text, "g.m2")  # as read, and as a worker gets it: trusted, not checked again
    for blocks in (read, pickle.loads(pickle.dumps(read))):
        assert blocks[0].edits.trusted_for(blocks[0].source)
        assert G.get_metric("m2").corpus_score(None, blocks, ["x b c"]).score == 1.0
    assert not appended[0].edits.trusted_for(appended[0].source)
    check_built_blocks(parse_m2(text, "g.m2") + [dataclasses.replace(read[0], edits=list(read[0].edits))], "x")


def test_a_line_break_inside_a_line_is_refused() -> None:
    """A caller's line holding '\\n' (no line of a file can) was scored as one line: GREEN
    char 0.8678 for 0.9206, M2 with the break inside a token."""
    sources, references = ["She go to school .", "I has a apple ."], [["She goes to school .", "I have an apple ."]]
    hypothesis, broken = ["She goes to school .", "I have an apple ."], "She goes\nto school ."
    for metric, given in [("green-char", (["She go\nto school .", sources[1]], references, hypothesis)),
                          ("gleu", (sources, [[broken, references[0][1]]], hypothesis)),
                          ("gleu", (sources, references, [broken, hypothesis[1]])),
                          ("m2", (None, _two_blocks(), [broken, hypothesis[1]]))]:
        with pytest.raises(InputError, match=r":1: holds a line break \('\\n'\): a line of text has none"):
            G.get_metric(metric).corpus_score(*given)
    with pytest.raises(InputError, match=r"^the source:2: holds a line break"):
        G.Corpus(["a", "b\nc"], [["a", "b c"]], {"s": ["a", "b c"]})
    G.Corpus(["a", "b\rc"], [["a", "b c"]], {"s": ["a", "b c"]})  # (a lone CR is a character of a file's line)


def _two_blocks() -> list:
    from gecmetrics.io.m2 import parse_m2

    return parse_m2("S She go to school .\nA 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\n\n"
                    "S I has a apple .\nA 1 2|||R:VERB:SVA|||have|||REQUIRED|||-NONE-|||0\n", "gold.m2")


def test_mbr_gives_a_candidate_that_is_no_text_the_fallback_as_reference_too() -> None:
    """A lone surrogate in a candidate (a model's output) gets the fallback as the hypothesis and
    as the others' reference, as an over-budget candidate does (it raised an InputError calling the
    candidate "reference 0")."""
    chosen = mbr_select([["He goes \ud800 home .", "He goes home .", "He goes home ."]], "gleu", [S], fallback=-1.0)
    utilities = chosen.utilities[0]
    assert utilities[0, 1] == utilities[0, 2] == utilities[1, 0] == utilities[2, 0] == -1.0
    assert utilities[1, 2] == utilities[2, 1] == 1.0
    assert chosen.choices == [1]
    # on a tie of fallbacks (two candidates: each is the other's only reference) the text is
    # chosen, not the first; all of them no text: the first
    chosen = mbr_select([["He goes \ud800 home .", "He goes home ."], ["\ud800", "\udfff"]], "gleu", [S, S])
    assert chosen.expected[0].tolist() == [0.0, 0.0] and chosen.choices == [1, 0]
    f = reward_function("gleu")
    with pytest.raises(InputError, match="lone surrogate"):  # a dataset's reference with one stays an error
        f(completions=["He goes home ."], source=[S], references=[["He goes \ud800 home ."]])


def test_a_text_part_without_text_is_refused() -> None:
    f = reward_function("gleu")
    with pytest.raises(InputError, match="completion 0: a text part has no 'text'"):
        f(completions=[[{"role": "assistant", "content": [{"type": "text"}]}]], source=[S], references=[R])
    message = [{"role": "assistant", "content": [{"type": "text", "text": "He goes home ."}, {"type": "image"}]}]
    assert f(completions=[message], source=[S], references=[R]) == [1.0]


def test_the_cache_checks_its_options(tmp_path) -> None:
    from gecmetrics.core.cache import Cache, cache_key, format_size, resolve_cache_folder

    with pytest.raises(InputError, match="enabled must be True or False, got 'no'"):
        Cache(tmp_path, enabled="no")  # it was taken as true: a cache turned off stayed on
    assert not list(tmp_path.iterdir())
    with pytest.raises(InputError, match="on_warning must be a function"):
        Cache(tmp_path, on_warning=5)
    with pytest.raises(InputError, match="variable must be the text"):
        resolve_cache_folder(None, 5)
    # a ValueError (embedded null byte) or UnicodeEncodeError at the first write
    for folder, message in ((f"{tmp_path}/a\0b", "cannot hold a NUL"), ("\ud800", "paths cannot hold")):
        with pytest.raises(InputError, match=f"cache folder: .*{message}"):
            Cache(folder)
    for size in (float("nan"), -1, True, "5", 10**400):
        with pytest.raises(InputError, match="format_size takes a number of bytes"):
            format_size(size)
    assert format_size(1_234_567) == "1.2 MB" and format_size(999) == "999 B"
    cache, key = Cache(tmp_path), cache_key("a")
    for items, message in (([key], "pairs, got bytes"), (5, "not int"), ([(key, b"v", 1)], "got tuple of 3"),
                           ({key: "text"}, "values are bytes, not str")):
        with pytest.raises(InputError, match=message):
            cache.put_many("ns", items)
    with pytest.raises(InputError, match="a cache namespace is a str, not NoneType"):
        cache.get_many(None, [key])
    with pytest.raises(InputError, match="keys are bytes, not str"):
        cache.get_many("ns", ["k"])
    cache.put_many("ns", [(key, b"v")])
    assert cache.get_many("ns", [key]) == {key: b"v"}


def test_a_reference_file_given_twice_is_refused(tmp_path) -> None:
    """It counted as two references (GLEU+ 58.33 -> 56.54 on CoNLL-2014 AMU with REF1 twice)."""
    from gecmetrics.run.files import CorpusFiles

    for name, text in (("src", "a b\n"), ("r0", "a c\n"), ("r1", "a d\n"), ("hyp", "a c\n")):
        (tmp_path / name).write_text(text, encoding="utf-8")
    src, r0, r1, hyp = (str(tmp_path / name) for name in ("src", "r0", "r1", "hyp"))
    with pytest.raises(InputError, match=r"r1: given twice as a reference: each copy would count as one more"):
        CorpusFiles(src, (r0, r1, r1), (hyp,))
    with pytest.raises(InputError, match=r"r0: given twice as a reference"):
        G.read_corpus(src, [r0, r0], [hyp])
    assert G.read_corpus(src, [r0, r1], [hyp]).references == [["a c"], ["a d"]]


def test_metrics_given_as_a_set_are_refused():
    """score_corpus({"gleu0", "green"}, ...) put the metrics, so result(system, 0), in hash order:
    GREEN in one process, GLEU in another."""
    from gecmetrics import Corpus, InputError, score_corpus
    from gecmetrics.metrics.registry import resolve_metrics

    corpus = Corpus(["a b c"], [["a b d"]], {"A": ["a b d"]})
    for metrics in ({"gleu0", "green"}, frozenset({"gleu0"})):
        with pytest.raises(InputError, match="it has no order: give a list"):
            score_corpus(metrics, corpus)
    assert [m.label for m in resolve_metrics(("gleu0", "green"))] == [m.label for m in resolve_metrics(["gleu0",
                                                                                                           "green"])]


def test_corpus_scored_and_meta_evaluation_arguments_of_the_wrong_kind_are_input_errors(tmp_path) -> None:
    """Each of these raised a TypeError, ValueError or AttributeError from inside the library
    (Scored.of_metric(-1) returned the last metric's statistics)."""
    source = ["a b c", "d e"]
    corpus_calls = {
        "hypothesis_m2 .* mapping, got NoneType": dict(hypothesis_m2=None),
        "hypothesis_m2 .* mapping, got str": dict(hypothesis_m2="AB"),
        "names .* mapping, got NoneType": dict(names=None),
        "expected a list of M2 blocks .*got int": dict(gold=3),
    }
    for message, keywords in corpus_calls.items():
        with pytest.raises(InputError, match=message):
            G.Corpus(source, [], {"x": source}, **keywords)
    corpus = G.Corpus(source, [source], {"x": ["a b", "d e"]})
    with pytest.raises(InputError, match="executor must be None or an Executor"):
        G.score_corpus(["gleu0"], corpus, executor="x")
    scored = G.score_corpus(["gleu0", "green"], corpus)
    for k in (2, -1, True, "green"):
        with pytest.raises(InputError, match="metric index must be an integer from 0 to 1"):
            scored.of_metric(k)
    assert list(scored.of_metric(1)) == ["x"]
    scores = {"AMU": 0.5, "CAMB": 0.4, "CUUI": 0.45, "RAC": 0.3}
    with pytest.raises(InputError, match="systems must be a sequence of system names, got 3"):
        G.meta_evaluate(scores, systems=3)
    for human_score in (3, b"trueskill", {"trueskill": 1}, [], [3]):
        with pytest.raises(InputError, match="human_score must be"):
            G.meta_evaluate(scores, human_score=human_score)
    assert [c.human for c in G.meta_evaluate(scores, human_score=("trueskill",)).correlations][0] == "trueskill"
    with pytest.raises(InputError, match="draws a meta-evaluation result .* got NoneType"):
        G.plot_meta_evaluation(None, tmp_path / "x.png")


def test_systems_given_as_a_set_are_ordered_or_refused() -> None:
    """A set's order changes between processes: paired_test took its first system as the baseline;
    rankings and windows broke ties in that order. Names are now taken in code-point order, and a
    set of hypotheses (whose first one would be the baseline) is refused."""
    src, refs = ["a b c", "d e f"], [["a b d", "d e f"]]
    with pytest.raises(InputError, match="systems must be a mapping .* got a set"):
        G.paired_test("gleu0", src, refs, {("a b d", "d e f"), ("a b c", "d e")}, samples=50)
    ranking = G.rank_by_sentence_scores({"B": [1.0, 2.0], "A": [2.0, 1.0]}, systems={"B", "A"})
    assert ranking.systems == ["A", "B"]
    scores = {"D": 1.0, "C": 2.0, "B": 3.0, "A": 3.0}
    analysis = G.window_analysis(scores, {"D": 1.0, "C": 1.0, "B": 2.0, "A": 2.0}, 3, systems=set(scores))
    assert analysis.systems == G.window_analysis(scores, {"D": 1.0, "C": 1.0, "B": 2.0, "A": 2.0}, 3).systems


def test_a_beta_past_floats_range_and_a_malformed_signature_are_input_errors() -> None:
    """GREEN(beta=10**400) raised OverflowError from float(); Signature(None) a TypeError from str.join."""
    for make in (lambda: G.GREEN(beta=10**400), lambda: G.M2Scorer(beta=10**400),
                 lambda: G.get_metric("green", beta=[1, 10**400])):
        with pytest.raises(InputError, match=r"beta \(-b/--beta\) must be a number a float can hold"):
            make()
    for args in ((None,), ("a", 3), ("a", [3]), ("a", "nx"), ("a", [("a", "b", "c")])):
        with pytest.raises(InputError, match="signature"):
            G.Signature(*args)
    assert G.Signature("GLEU+", [("n", 4), "x"]) == "GLEU+|n:4|x|version:" + G.__version__
    for references in ("abc", float("nan"), -1, True, 2.0):  # it printed refs:abc, refs:nan ...
        with pytest.raises(InputError, match=r"references \(the number of reference sets\) must be an integer"):
            G.GLEU().signature(references)
    assert "|refs:2|" in G.GLEU().signature(np.int64(2)) and "refs:" not in G.GLEU().signature(None)


def test_corpus_files_of_the_wrong_kind_are_input_errors(tmp_path) -> None:
    """CorpusFiles(src, refs, None) raised TypeError; a mapping's keys or a set's hash order were read as the paths."""
    source = tmp_path / "src"
    source.write_text("a b\n", encoding="utf-8")
    for hypotheses in (None, 3, {"a": 1}, {"x", "y"}, "x", [3]):
        with pytest.raises(InputError, match="hypotheses must be a sequence of file paths"):
            G.CorpusFiles(str(source), (), hypotheses)
    assert G.CorpusFiles(str(source), [], [str(source)]).hypotheses == (str(source),)
    # paths as pathlib.Path, as read_lines, read_m2 and read_corpus take them (they were refused)
    files = G.CorpusFiles(source, [source], [source], gold=None)
    assert (files.source, files.references, files.hypotheses) == (str(source), (str(source),), (str(source),))
    source.write_text("a b c d e f\n", encoding="utf-8")
    assert G.score_files(["gleu"], files).result(str(source), 0).score == 1.0


def test_confidence_levels_options_and_metric_names_of_the_wrong_kind_are_input_errors(tmp_path) -> None:
    """expected_wins(confidence=None) and correlate_with_judgments(confidence="abc") raised TypeError
    from a comparison; meta_evaluate_judgments(options=3) an AttributeError; compare_metrics([], ...)
    "unhashable type"."""
    xml = tmp_path / "j.xml"
    rows = "".join(f'<ranking-item src-id="{k}" user="u" duration="1"><translation system="{s}" rank="{r}"/>'
                   f'<translation system="{t}" rank="{q}"/><translation system="{u}" rank="3"/></ranking-item>'
                   for k, (s, r, t, q, u) in enumerate([("A", 1, "B", 2, "C"), ("B", 1, "C", 2, "A"),
                                                        ("A", 1, "C", 2, "B")]))
    xml.write_text(f"<appraise><hit-group>{rows}</hit-group></appraise>", encoding="utf-8")
    judgments = G.read_judgments(str(xml))
    scores = {"m": {"A": 3.0, "B": 2.0, "C": 1.0}, "n": {"A": 1.0, "B": 2.0, "C": 3.0}}
    for confidence in (None, "abc", [], float("nan"), 1.0, True):
        with pytest.raises(InputError, match="the confidence level must be a number between 0 and 1"):
            G.expected_wins(judgments, confidence=confidence)
        with pytest.raises(InputError, match="the confidence level must be a number between 0 and 1"):
            G.correlate_with_judgments(scores, judgments, confidence=confidence)
    with pytest.raises(InputError, match="the significance level must be a number between 0 and 1"):
        G.paired_test("gleu0", ["a b"] * 2, [["a b"] * 2], {"A": ["a b"] * 2, "B": ["a c"] * 2, "C": ["a"] * 2},
                      samples=50, all_pairs=True, level="0.05")
    with pytest.raises(InputError, match="options must be JudgmentOptions"):
        G.meta_evaluate_judgments(judgments, scores=scores, options=3)
    with pytest.raises(InputError, match="no scores for metric"):
        G.compare_metrics([], "m", scores, judgments)
    assert G.expected_wins(judgments, confidence=np.float64(0.9)).systems


def test_a_plugin_setting_declared_wrongly_is_an_input_error_where_it_is_declared() -> None:
    """setting(4, None, 3) made a field whose help and parse failed later, when a metric was made or --help printed."""
    from gecmetrics.metrics.settings import positive_int

    for args, keywords, where in (((4, None, positive_int), {}, "help"), ((4, "order", 3), {}, "parse"),
                                  ((4, "order", positive_int), {"aliases": "n"}, "aliases"),
                                  ((4, "order", positive_int), {"flags": ("-n", 3)}, "flags"),
                                  ((4, "order", positive_int), {"signature": 1}, "signature")):
        with pytest.raises(InputError, match=f"^{where}: "):
            G.setting(*args, **keywords)
    assert G.setting(4, "order", positive_int, ("order",), signature="n", flags=("-n",)).default == 4


def test_system_names_and_score_mappings_of_the_wrong_kind(tmp_path) -> None:
    """A sweep (2026-12-04): system names given as numbers raised TypeError deep inside (sorted or
    joined with the judged names), a set of resampling kinds or None a TypeError, systems=3 was
    accepted and failed later, a ``scored`` that is no run an AttributeError, sentence scores
    given as text were read as system names, a mapping of names (excluded users, systems) as its
    keys, and M2 sources given as one text were read as characters ('has 2 sentences but the
    source has 5 lines')."""
    from gecmetrics.meta.evaluate import JudgmentOptions
    from gecmetrics.meta.human_tables import load_human
    from gecmetrics.meta.sentence import sentence_agreement
    from gecmetrics.meta.windows import window_analysis

    (tmp_path / "j.xml").write_text(JUDGMENTS, encoding="utf-8")
    (tmp_path / "gold.m2").write_text("S a b c\nA 0 1|||R:X|||x|||REQUIRED|||-NONE-|||0\n\n", encoding="utf-8")
    judgments = G.read_judgments(str(tmp_path / "j.xml"))
    scores = {"m": {"A": .3, "B": .2, "C": .1, "D": 0.0}}
    three = {"A": .3, "B": .2, "C": .1}
    cases = [
        (lambda: G.correlate_with_judgments(scores, judgments, systems=[1, 2, 3]), r"got an int \(1\)"),
        (lambda: sentence_agreement({"A": [1.0] * 4}, judgments, [0, 1, 2, 3], systems=["A", None]), "got None"),
        (lambda: sentence_agreement("ABCD", judgments, [0, 1, 2, 3]), "sentence_scores must map each system"),
        (lambda: window_analysis({1: .3, "B": .2, "C": .1}, three, 3), r"metric_scores .*\(a key 1\)"),
        (lambda: window_analysis(three, [.3, .2, .1], 3), "human_scores must map each system's name"),
        (lambda: JudgmentOptions(resampling=None), "resampling must be a sequence"),
        (lambda: JudgmentOptions(resampling={"judgments"}), "it has no order"),
        (lambda: JudgmentOptions(systems=3), "systems must be a sequence of system names, got 3"),
        (lambda: load_human("gjg15").systems_of_subset(["AMU", 3]), r"got an int \(3\)"),
        (lambda: G.read_judgments(str(tmp_path / "j.xml"), excluded_users={"u1": 1}), "its keys would be read"),
        (lambda: G.correlate_with_judgments(scores, judgments, systems={"A": 1, "B": 2, "C": 3}), "its keys would"),
        (lambda: G.meta_evaluate_judgments(str(tmp_path / "j.xml"), scored="run"), "scored must be a run"),
        (lambda: G.meta_evaluate(None, "gjg15", scored=[1]), "scored must be a run"),
        (lambda: G.get_metric("m2").corpus_score("a b c", G.read_m2(str(tmp_path / "gold.m2")), ["x b c"]),
         "a single str"),
        (lambda: G.get_metric("m2").corpus_score(0, G.read_m2(str(tmp_path / "gold.m2")), ["x b c"]),
         "expected a list of lines, got int"),
    ]
    for call, message in cases:
        with pytest.raises(InputError, match=message):
            call()
    assert JudgmentOptions(systems={"B", "A"}).systems == ("A", "B")


def test_comparison_corpus_and_encoder_arguments(tmp_path) -> None:
    """A sweep (2026-12-04): digits=10**18 was decimal.InvalidOperation, a list of formats
    "unhashable type", descending="no" sorted as True, a column index past the columns an
    IndexError (-1 the last column), True was column 1; Corpus.hypothesis("AMU") of a file read
    as /x/AMU a bare KeyError, keeping("AMU") kept 'A', 'M', 'U', slice(-5, 100) gave offset -5;
    plot_meta_evaluation(result, None) a TypeError; EncodedCorpus took max_order 0 (ValueError),
    10**400, a dict of sources, a unit it does not know and references of other lengths."""
    table = G.compare(["a b c", "d e f"], [["a b c", "d x f"]], {"A": ["a b c", "d e f"], "B": ["a b", "d x f"]},
                      ["green"])
    corpus = G.Corpus(["a b", "c d", "e f"], [["a b", "c d", "e f"]], {"/x/AMU": ["a b", "c d", "e f"]})
    cases = [
        (lambda: table.to_tsv(digits=10**18), r"digits must be at most 20 .*got 1.00e\+18"),
        (lambda: table.render(["tsv"]), "unknown output format"),
        (lambda: table.to_tsv(ranks="no"), "ranks must be True or False"),
        (lambda: table.sorted_by(1, descending="no"), "descending must be True or False"),
        (lambda: table.score_format(5), "the column index must be at most 0, got 5"),
        (lambda: table.rounds_to(-1), "the column index must be an integer >= 0"),
        (lambda: table.column_index(True), "got a bool"),
        (lambda: corpus.hypothesis("AMU"), "no hypothesis 'AMU' in the corpus; its hypotheses: /x/AMU"),
        (lambda: corpus.keeping("AMU"), "names must be a sequence of hypothesis names"),
        (lambda: corpus.slice(-5, 100), "start must be an integer >= 0"),
        (lambda: corpus.slice(1, 5), "end must be at most 3"),
        (lambda: corpus.with_hypotheses(None), "hypotheses must be a mapping"),
        (lambda: G.EncodedCorpus(["a b"], [["a b"]], 0), "max_order must be an integer >= 1"),
        (lambda: G.EncodedCorpus(["a b"], [["a b"]], 10**400), r"at most 32 .*got 1.00e\+400"),
        (lambda: G.EncodedCorpus({"a b": 1}, [["a b"]], 4), "its keys would be read"),
        (lambda: G.EncodedCorpus(["a b"], [["a b", "c"]], 4), "has 2 lines but the source has 1"),
        (lambda: G.EncodedCorpus(["a b"], [["a b"]], 4, "bogus"), "unit must be one of: word, char"),
    ]
    for call, message in cases:
        with pytest.raises(InputError, match=message):
            call()
    assert table.to_tsv(digits=3).splitlines()[1].startswith("A\t")
    assert corpus.slice(1, 3).offset == 1 and list(corpus.keeping(["/x/AMU"]).hypotheses) == ["/x/AMU"]
    from gecmetrics.output.plots import check_figure

    with pytest.raises(InputError, match="the figure must be given as a path"):
        check_figure(None)


def test_signatures_results_and_options_of_the_wrong_kind(tmp_path) -> None:
    """A sweep (2026-12-04): a signature's fields given as a set came in hash order, a '|' in a
    key made a text that reads back into other fields; sentence scores of None printed nan and
    'abc' raised ValueError from to_dict; to_dict(scale=None | '100' | 10**400) raised TypeError
    or OverflowError; meta-evaluation took jobs='abc', register_metric a set as its description,
    CorpusFiles target_lines='no' (true)."""
    from gecmetrics.metrics.registry import register_metric
    from gecmetrics.metrics.results import Signature

    (tmp_path / "j.xml").write_text(JUDGMENTS, encoding="utf-8")
    (tmp_path / "s").write_text("a b\n", encoding="utf-8")
    scores = G.SentenceScores([0.5, 0.25], Signature("X"))
    cases = [
        (lambda: Signature("X", {("a", "1"), ("b", "2")}), "it has no order"),
        (lambda: Signature("X|Y"), "name is one line of text without '|'"),
        (lambda: Signature("X", [("a|b", "1")]), "key is a word without '|' or ':'"),
        (lambda: Signature("X", ["a|b"]), "key is a word without '|', not 'version' .*, got 'a|b'"),
        # two signatures were one text: X|a:1|c:2 from ("a", "1|c:2") and from a:1, c:2
        (lambda: Signature("X", [("a", "1|c:2")]), "value is one line without '|'"),
        (lambda: Signature(""), "name is one line of text"),
        (lambda: Signature("X\nY"), "name is one line of text"),
        (lambda: Signature("X", version="1|2"), "version is one line of text"),
        (lambda: Signature("X", [("version", "2")]), "not 'version' \\(always the last field\\)"),
        (lambda: Signature("X", [("", "2")]), "key is a word"),
        (lambda: G.SentenceScores(None, Signature("X")), "sentence scores are numbers"),
        (lambda: G.SentenceScores("abc", Signature("X")), "got a str and a Signature"),
        (lambda: G.SentenceScores([True, False], Signature("X")), "sentence scores are numbers"),  # (mean 50)
        (lambda: G.SentenceScores(["0.5", "1"], Signature("X")), "sentence scores are numbers"),
        (lambda: G.SentenceScores([0.5], Signature("X"), fraction=1), "fraction must be True or False"),
        (lambda: scores.to_dict(scale=None), "scale: must be a finite number"),
        (lambda: scores.to_dict(scale="100"), "scale: must be a finite number"),
        (lambda: scores.to_dict(scale=10**400), "scale: must be a finite number"),
        (lambda: G.meta_evaluate_judgments(str(tmp_path / "j.xml"), scores={"m": {"A": .3, "B": .2, "C": .1}},
                                           jobs="abc"), r"number of processes \(-p\)"),
        (lambda: register_metric("mine", G.GLEU, description={"x"}), "description must be a string"),
        (lambda: G.CorpusFiles(str(tmp_path / "s"), [str(tmp_path / "s")], [str(tmp_path / "s")], target_lines="no"),
         "target_lines must be True or False"),
    ]
    for call, message in cases:
        with pytest.raises(InputError, match=message):
            call()
    assert scores.to_dict(scale=100)["scores"] == [50.0, 25.0]
    assert Signature("X", ["mode:cs", ("n", 4)]) == f"X|mode:cs|n:4|version:{G.__version__}"


def test_attribution_report_and_column_arguments(tmp_path) -> None:
    """A sweep (2026-12-05): a set of edits was applied in hash order (insertions at one point
    go in the order given), a score of 10**400 was an OverflowError and "1" or True were read
    as numbers; attribute(None, ...) and attribution_tsv(a, None) TypeErrors, first_sentence -1
    and True accepted; report_data(methods=None | metrics=[None]) TypeError / AttributeError, a
    list as title printed "['x']"; write_report(html=1) TypeError, the same file as page and
    JSON kept one of them; column_index(10**400) OverflowError."""
    from gecmetrics.output.report import report_data, write_report
    from gecmetrics.stats.attribution import attribute, attribute_corpus, attribution_tsv

    def lengths(texts):
        return [len(text) / 10 for text in texts]

    one = attribute("He go .", [(1, 2, "goes")], lengths)
    corpus = G.Corpus(["a b c", "d e f"], [["a b c", "d x f"]], {"A": ["a b c", "d e f"], "B": ["a b", "d x f"]})
    cases = [
        (lambda: attribute("He go home .", {(1, 1, "a"), (1, 1, "b")}, lengths), "it has no order"),
        (lambda: attribute_corpus({"a b", "c d"}, [[(0, 1, "x")], []], lambda r, t: [0.1] * len(t)), "no order"),
        (lambda: attribute("He go .", [(1, 2, "goes")], lambda t: [10**400] * len(t)), "one number per sentence"),
        (lambda: attribute("He go .", [(1, 2, "goes")], lambda t: ["1"] * len(t)), "got str32 values"),
        (lambda: attribute("He go .", [(1, 2, "goes")], lambda t: [True] * len(t)), "got bool values"),
        (lambda: attribute(None, [], lengths), "a source is a text or a list of tokens, got None"),
        (lambda: attribute_corpus(None, [], lambda r, t: [0.0] * len(t)), "sources and edits are lists"),
        (lambda: attribution_tsv(one, None), "first_sentence must be an integer"),
        (lambda: attribution_tsv(one, True), "first_sentence must be an integer"),
        (lambda: attribution_tsv(None), "expected an Attribution or a list of them"),
        (lambda: report_data(corpus, ["gleu"], methods=None, attribution="none", samples=10), "methods must be"),
        (lambda: report_data(corpus, [None], attribution="none", samples=10), "not a metric: None"),
        (lambda: report_data(corpus, ["gleu"], attribution="none", samples=10, title=["x"]), "title must be a text"),
        (lambda: write_report({}, html=1), "the html must be given as a path"),
        (lambda: write_report({}, html=str(tmp_path / "r.html"), json_path=str(tmp_path / "r.html")),
         "name the same file"),
        (lambda: G.get_metric("green", beta=[0.5, 2]).column_index(10**400), "or a beta of its columns"),
    ]
    for call, message in cases:
        with pytest.raises(InputError, match=message):
            call()
    assert attribution_tsv(one).splitlines()[1].startswith("1\tshapley\t1\t1\t2\tgo\tgoes")
    assert not list(tmp_path.iterdir())


def test_llm_options_and_huge_correlated_values() -> None:
    """A sweep (2026-12-05): requests_per_minute=10**400 and timeout=10**400 were OverflowErrors,
    requests_per_minute=inf was taken until a dry run refused it, temperature="" and base_url=""
    were "unset" (only the word none is); Kendall's tau on values near 1e308 leaked NumPy's
    overflow warning."""
    import warnings

    from gecmetrics.metrics.llm.backends import make_backend

    cases = [
        (lambda: make_backend("vllm:x", requests_per_minute=10**400), "requests_per_minute must be a positive"),
        (lambda: make_backend("vllm:x", timeout=10**400), "timeout must be a finite number"),
        (lambda: G.get_metric("llm-s", model="vllm:x", requests_per_minute=float("inf")), "finite positive"),
        (lambda: G.get_metric("llm-s", model="vllm:x", temperature=""), "temperature must be a number, got ''"),
        (lambda: G.get_metric("llm-s", model="vllm:x", base_url=""), "base_url must be a non-empty text"),
    ]
    for call, message in cases:
        with pytest.raises(InputError, match=message):
            call()
    assert G.get_metric("llm-s", model="vllm:x", temperature="none").settings.temperature is None
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert G.kendall([1e308, -1e308, 1e308, -1e308], [2, 1, 4, 3]) == pytest.approx(0.4082482904638631)


def test_score_tables_read_ascii_numbers_only() -> None:
    """A meta-eval scores or human TSV read '\u0665' (Arabic-Indic 5) and fullwidth '\uff11\uff10' as numbers
    (the pattern's \\d matched every script's digits); every other number reader refuses them."""
    from gecmetrics.meta.score_files import parse_number

    assert parse_number("\u0665") is None and parse_number("\uff11\uff10") is None
    assert parse_number("5") == 5.0 and parse_number("-1.5e2") == -150.0


@pytest.mark.parametrize("value", [1, 0, 1.0, [True], np.array([True]), None])
def test_a_yes_no_setting_is_a_bool_or_a_spec_text(value: object) -> None:
    # 1 and 0 were taken (str(value) read as a spec's text) while 1.0 was refused
    with pytest.raises(InputError, match=r"setting sentence_average \(--sentence-average\) must be True or False"):
        G.get_metric("m2", sentence_average=value)


def test_a_yes_no_setting_reads_spec_texts_and_numpy_bools() -> None:
    for value, expected in ((np.True_, True), (np.False_, False), ("yes", True), (" Off ", False), ("1", True)):
        assert G.get_metric("m2", sentence_average=value).settings.sentence_average is expected
    [spec] = resolve_metrics(["m2:sentence_average=true"])
    assert spec.settings.sentence_average is True


def test_an_integer_too_long_to_print_is_named_in_exponent_form() -> None:
    # repr() of an int of more than 4,300 digits is a ValueError: the messages of get_metric(n=),
    # score_corpus(jobs=) ... raised it instead of the InputError
    huge = 10**5000
    corpus = G.Corpus(["a b"], [["a b"]], {"A": ["a b"]})
    for call, said in [(lambda: G.get_metric("gleu", n=huge), "must be at most 32 .*, got 1.00e\\+5000"),
                       (lambda: G.get_metric("gleu", iterations=huge), "got 1.00e\\+5000"),
                       (lambda: G.score_corpus([G.get_metric("gleu")], corpus, jobs=huge), "got 1.00e\\+5000"),
                       (lambda: G.get_metric("gleu", n=[huge]), "got a list holding a number too long to show")]:
        with pytest.raises(InputError, match=said) as caught:
            call()
        assert len(str(caught.value)) < 200


def test_statistics_given_to_score_and_paired_tests_are_checked() -> None:
    """nan statistics scored nan (GLEU+) without a word, negated M2 counts a number (0.667, and
    0.909 in a paired test), counts plus 0.5 a number."""
    from gecmetrics.io.m2 import parse_m2
    from gecmetrics.stats.significance import paired_test_from_statistics

    sources = ["a b c", "d e", "f g"]
    gold = parse_m2("".join(f"S {s}\nA 0 1|||R:X|||x|||REQUIRED|||-NONE-|||0\n\n" for s in sources), "g")
    for name, corpus, references in (("gleu", G.Corpus(sources, [["x b c", "d y", "f y"]]), 1),
                                     ("green", G.Corpus(sources, [["x b c", "d y", "f y"]]), 1),
                                     ("m2", G.Corpus(sources, [], gold=gold), 0)):
        metric = G.get_metric(name)
        statistics = metric.statistics(metric.prepare(corpus), ["x b c", "d e", "f g"])
        assert 0 <= metric.score(statistics).score <= 1
        for bad, said in ((statistics * np.nan, "no finite numbers|not whole numbers"), (-statistics - 1, "not whole"),
                          (statistics + 0.5, "not whole"), (None, "got None"), (statistics.astype(bool), "numbers")):
            with pytest.raises(InputError, match=said):
                metric.score(bad)
            if bad is not None and bad.dtype != bool:
                with pytest.raises(InputError, match="not whole|not finite"):
                    paired_test_from_statistics(metric.resampler(0, references), {"A": statistics, "B": bad}, "bs",
                                                samples=50)


@pytest.mark.parametrize("name", ["gleu", "gleu0", "green", "m2", "sentm2", "pt-m2", "cleme", "gotoscorer"])
def test_statistics_given_to_sentence_scores_are_checked(name: str) -> None:
    """sentence_from_statistics (what --sentence and rewards read) took None, a string or a
    ragged list into NumPy: a TypeError ("'NoneType' object is not subscriptable"),
    AttributeError or inhomogeneous-shape ValueError; each family's own, not one line naming the
    argument. score() refused them already."""
    metric = G.get_metric(name)
    for bad, said in ((None, "got None"), ("abc", "got a str"), (b"abc", "got a bytes"),
                      ([[1, 2], [3]], "rows of numbers of one shape")):
        with pytest.raises(InputError, match=said) as caught:
            metric.sentence_from_statistics(bad)
        assert caught.value.path == "statistics"
        with pytest.raises(InputError):  # (M2's score of what is no array reads gold blocks: its older call)
            metric.score(bad)
    if name in ("gleu", "gleu0", "green", "m2", "sentm2"):  # an array of another shape names the shape wanted
        with pytest.raises(InputError, match="shape"):
            metric.sentence_from_statistics(np.zeros(3))


def test_choice_settings_refuse_arrays_and_built_blocks_refuse_huge_annotators() -> None:
    import dataclasses

    from gecmetrics.io.m2 import parse_m2

    # 'in' of an array was NumPy's "truth value of an array is ambiguous" ValueError
    for name, settings in (("green", {"unit": np.array([0.5, 2])}), ("gleu", {"variant": np.array([1, 2])})):
        with pytest.raises(InputError, match="must be one of"):
            G.get_metric(name, **settings)
    # an annotator id past 2**31 - 1 in blocks built in code (read_m2 refuses it in a file) was an
    # OverflowError deep in the M2 scorer
    block = parse_m2("S a b c\nA 0 1|||R:X|||x|||REQUIRED|||-NONE-|||0\n", "g")[0]
    for annotator, shown in ((2**31, "2147483648"), (10**400, "1.00e\\+400")):
        built = [dataclasses.replace(block, edits=(dataclasses.replace(block.edits[0], annotator=annotator),), line=0)]
        with pytest.raises(InputError, match=f"annotator {shown} is more than 2,147,483,647"):
            G.get_metric("m2").corpus_score(None, built, ["x b c"])


def test_sentence_resampling_checks_its_parts() -> None:
    from gecmetrics.io.judgments import parse_judgments
    from gecmetrics.meta.resampling import Resampling
    from gecmetrics.meta.sentence import check_item_rows

    good = {"kind": "sentences", "resamplers": {"m": {"A": lambda drawn: drawn}}, "item_rows": [0], "sentences": 6}
    # resamplers=5 was an AttributeError deep in the resampling, {"m": 5} a TypeError, sentences=-1
    # NumPy's ValueError, sentences=True one sentence
    for change, said in (({"resamplers": 5}, "resamplers must map each metric"),
                         ({"resamplers": {"m": 5}}, r"resamplers\['m'\] must map each system"),
                         ({"resamplers": {"m": {"A": 3}}}, r"resamplers\['m'\] must map each system"),
                         ({"sentences": -1}, "must be an integer >= 1, got -1"),
                         ({"sentences": True}, "must be an integer, got True"),
                         # an idle option: the unit of a bootstrap of the judgments was taken and ignored
                         ({"unit": "item"}, "unit='item' does nothing with resampling 'sentences': it chooses what a "
                                            "bootstrap of the judgments resamples")):
        with pytest.raises(InputError, match=said):
            Resampling(**{**good, **change})
    assert Resampling(**good).unit == "pair" and Resampling("judgments", unit="item").unit == "item"
    for name in ("resamplers", "item_rows", "sentences"):  # the sentences' parts, ignored by a judgments bootstrap
        with pytest.raises(InputError, match=f"^{name} do nothing with resampling 'judgments'"):
            Resampling("judgments", **{name: good[name]})
    judgments = parse_judgments(b"<r><ranking-item src-id='0'><translation system='A' rank='1'/>"
                                b"<translation system='B' rank='2'/></ranking-item></r>", "j.xml")
    with pytest.raises(InputError, match="item_rows needs one integer corpus row per ranking item, in the items' "
                                         "order, got a set"):
        check_item_rows(judgments, {0}, 1)
    assert check_item_rows(judgments, [0], 1).tolist() == [0]


def test_a_scored_runs_metric_index_may_be_a_numpy_integer() -> None:
    scored = G.score_corpus([G.get_metric("gleu")], G.Corpus(["a b c"], [["a b c"]], {"A": ["a b c"]}))
    assert scored.result("A", np.int64(0)) is scored.result("A", 0)  # (it was refused)
    for k in (1, True, 0.0, 10**5000):
        with pytest.raises(InputError, match="metric index must be an integer from 0 to 0"):
            scored.result("A", k)


def test_a_system_name_holding_a_lone_surrogate_is_refused() -> None:
    # it was taken, and the table or page of it could not be encoded
    from gecmetrics.io.text import check_named, check_system_names

    lines = ["a b", "c d"]
    for call in (lambda: G.Corpus(lines, [lines], {"A\ud800": lines}),
                 lambda: G.paired_test(G.get_metric("gleu"), lines, [lines], {"A": lines, "\udfff": lines}, "bs",
                                       samples=50),
                 lambda: check_system_names(["A", "B\ud800"]),
                 lambda: check_named({"\ud800": 1.0}, "scores", "a score")):
        with pytest.raises(InputError, match="holds a lone surrogate"):
            call()


def test_score_refuses_statistics_that_are_not_the_metrics_own() -> None:
    """Metric.score(statistics) scored another metric's statistics (GLEU+ of GREEN's: 0.0), no
    sentence (M2: 1.0), nan (GoToScorer: nan) and negative counts (CLEME: 0.3829), and raised
    AttributeError/IndexError for a list or an empty array."""
    from gecmetrics.io.m2 import parse_m2

    sources, references = ["She go to school .", "I has a apple ."], [["She goes to school .", "I have an apple ."]]
    hypothesis = ["She goes to school .", "I have a apple ."]
    gold = parse_m2("S She go to school .\nA 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\n\n"
                    "S I has a apple .\nA 1 2|||R:VERB:SVA|||have|||REQUIRED|||-NONE-|||0\n", "gold.m2")
    edits = parse_m2("S She go to school .\nA 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\n\n"
                     "S I has a apple .\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n", "hyp.m2")
    green = G.get_metric("green").corpus_statistics(sources, references, hypothesis)
    for name, statistics, message in [
            ("gleu", green, r"statistics must be its corpus_statistics, an array \(sentences, reference sets, 18\), "
                            r"got an array of shape \(2, 1, 28\)"),
            ("gleu", [], "got list"), ("green", green[:0], "hold no sentence"), ("gleu0", np.zeros(0), "no sentence"),
            ("m2", G.get_metric("m2").corpus_statistics(None, gold, hypothesis)[:0], "hold no sentence")]:
        with pytest.raises(InputError, match=message):
            G.get_metric(name).score(statistics)
    for name in ("gotoscorer", "cleme"):
        metric = G.get_metric(name, no_weight=True) if name == "gotoscorer" else G.get_metric(name)
        statistics = metric.corpus_statistics(None, gold, edits)
        assert 0 <= metric.score(statistics).score <= 1
        for bad in (np.nan, -5):
            changed = np.asarray(statistics).astype(float)  # (CLEME's as the dense array they read as)
            changed.flat[0] = bad
            with pytest.raises(InputError, match="no finite numbers|not whole numbers >= 0"):
                metric.score(changed)


def test_compare_refuses_a_scale_before_it_signs_a_model_metric(tmp_path) -> None:
    # signing the columns loads a model metric's model: a missing model was the error, not the scale
    missing = tmp_path / "no-model"
    with pytest.raises(InputError, match="^scale: 1 would change nothing: the scores of scribendi"):
        G.compare(["a b"], [], {"A": ["a b"]}, [f"scribendi:model={missing}"], scale=1)
    from click.testing import CliRunner

    from gecmetrics.cli import main

    source = tmp_path / "src"
    source.write_text("a b\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["compare", "-s", str(source), "-o", str(source), "--metrics",
                                       f"scribendi:model={missing}", "--scale", "1"])
    assert result.exit_code == 2 and "--scale: 1 would change nothing" in result.output


def test_result_and_scorer_arguments_found_by_the_api_sweep(tmp_path) -> None:
    """Arguments that were taken without a word (a negative scale flipped intervals; GoToScorer
    summed statistics of another shape; an empty resampling gave no correlation; an unknown
    system had no pairs) or raised an internal error (GREEN's orders(5) an IndexError, M2Scorer's
    arc_budget=nan a ValueError, write_m2 to a closed file an I/O error, sample_matrix([]) NumPy's)."""
    sources, reference = ["a b c", "d e f", "g h"], ["a b c", "d x f", "g h i"]
    green = G.GREEN().corpus_score(sources, [reference], ["a b c", "d e f", "g h i"])
    for bad in (1, -1, float("nan"), "x"):
        with pytest.raises(InputError, match="beta_index"):
            green.orders(bad)
    assert green.orders(0) is not None
    for scale in (0, -1, -100.0):
        with pytest.raises(InputError, match="above 0"):
            green.to_dict(scale=scale)
    for settings, said in (({"arc_budget": float("nan")}, "arc_budget"), ({"arc_budget": -5}, "arc_budget"),
                           ({"keep_details": "x"}, "keep_details"), ({"per_type": "no"}, "per_type")):
        with pytest.raises(InputError, match=said):
            G.M2Scorer(**settings)
    blocks = _two_blocks()
    handle = open(tmp_path / "out.m2", "w", encoding="utf-8")
    handle.close()
    with pytest.raises(InputError, match="closed"):
        G.write_m2(blocks, handle)
    with open(tmp_path / "out.m2", encoding="utf-8") as handle, pytest.raises(InputError, match="not open for writing"):
        G.write_m2(blocks, handle)
    corpus = G.Corpus(None, [], {"A": ["She goes to school .", "I have a apple ."]}, gold=blocks)
    with pytest.raises(InputError, match="kind must be"):
        corpus.hypothesis("A", "lines")
    with pytest.raises(InputError, match="has 3 lines but the gold M2 has 2"):
        G.get_metric("m2").corpus_score(None, blocks, ["a", "b", "c"])
    gotoscorer = G.get_metric("gotoscorer")
    for shape in ((2, 5), (2, 5, 1), (2, 4, 3), (1, 2, 5, 3)):
        with pytest.raises(InputError, match=r"statistics must be an array \(sentences, 5, N \+ 1\)"):
            gotoscorer.score(np.zeros(shape, dtype=np.int64))
    with pytest.raises(InputError, match="got an int"):
        gotoscorer.score(3)
    gleu = G.GLEU()
    statistics = {name: gleu.corpus_statistics(sources, [reference], lines)
                  for name, lines in (("S", sources), ("R", reference), ("T", ["a b", "d x f", "g h i"]))}
    pairs = G.all_pairs_test(gleu.resampler(), statistics, samples=20)
    assert set(pairs.against("S")) == {"R", "T"}
    with pytest.raises(InputError, match="unknown system 'ZZ'"):
        pairs.against("ZZ")
    for references in (-1, 1.5, float("nan")):  # (signed refs:-1)
        with pytest.raises(InputError, match="references"):
            gleu.signature_fields(references)
    assert str(gleu.signature(2)).startswith("GLEU+|") and "refs:2" in str(gleu.signature(2))


def test_judgment_arguments_found_by_the_api_sweep(tmp_path) -> None:
    from gecmetrics.meta.evaluate import JudgmentOptions

    with pytest.raises(InputError, match="resampling needs at least one kind"):
        JudgmentOptions(resampling=(), bootstrap=5)
    with pytest.raises(InputError, match="resampling 'sentences' needs a number of bootstrap resamples"):
        JudgmentOptions(resampling=("sentences",))
    xml = tmp_path / "j.xml"
    rows = "".join(f'<ranking-item src-id="{k}" user="u" duration="1"><translation system="{s}" rank="1"/>'
                   f'<translation system="{t}" rank="2"/></ranking-item>'
                   for k, (s, t) in enumerate([("A", "B"), ("B", "C"), ("A", "C")]))
    xml.write_text(f"<appraise><hit-group>{rows}</hit-group></appraise>", encoding="utf-8")
    ranking = G.expected_wins(G.read_judgments(str(xml)), resamples=20)
    assert ranking.sample_matrix(["A", "C"]).shape == (20, 2)
    with pytest.raises(InputError, match="no system named"):
        ranking.sample_matrix([])


def test_bertscore_with_idf_is_refused_where_a_sentence_is_scored_alone() -> None:
    """Its idf weights came from whatever rows shared the reward call: the same completion got
    0.99501974 in one batch and 0.99501892 in another (and the memo kept the first); one row
    alone raised the 0/0 InputError the fallback is for. No model is loaded to refuse it."""
    for call in (lambda: reward_function("bertscore", idf=True),
                 lambda: mbr_select([["a b", "a c"]], "bertscore", idf=True)):
        with pytest.raises(InputError, match="with idf its token weights come from the references of the whole"):
            call()
    assert G.get_metric("bertscore").candidate_refusal is None
    assert "leave idf off" in G.get_metric("bertscore", idf=True).placeless_refusal


def test_mean_of_sentence_scores_leaves_out_sentences_without_a_score() -> None:
    """mean_dict gave nan where an LLM judge left prompts unanswered (str() said "mean 1 (3
    without a score)"), and an empty SentenceScores raised NumPy's "cannot reshape"."""
    signature = G.Signature("X")
    assert G.SentenceScores([1.0, np.nan, np.nan, np.nan], signature).mean_dict()["scores"] == [1.0]
    assert G.SentenceScores([[0.5, 0.25], [np.nan, np.nan]], signature).mean_dict(100)["scores"] == [37.5, None]
    assert G.SentenceScores([], signature).mean_dict()["scores"] == [0.0]
    values = [0.1, 0.2, 0.7, 0.3]
    assert G.SentenceScores(values, signature).mean_dict()["scores"] == [float(np.mean(values))]


@pytest.mark.parametrize("name, width", [("scribendi", 1), ("impara", 3), ("bertscore", 4)])
def test_model_metric_statistics_are_checked_before_any_model(name: str, width: int) -> None:
    """Scribendi scored the list [1, 2] 3.0, SOME nan statistics nan, IMPARA's raised "cannot
    convert float NaN to integer", a wrong width an IndexError; no model is loaded to refuse them."""
    metric = G.get_metric(name)
    for bad in ([1, 2], np.zeros((3, width + 1)), np.zeros(3)):
        with pytest.raises(InputError, match=rf"rows \(sentences, {width}\) of numbers"):
            metric.score(bad)
    if name != "bertscore":  # (its nan is an idf 0/0, said in its own words)
        with pytest.raises(InputError, match="no finite numbers"):
            metric.score(np.full((3, width), np.nan))


def test_attribution_arguments_found_by_the_second_api_sweep() -> None:
    """methods=None was a TypeError, annotator=3 an AttributeError, source_span(5) an IndexError
    and source_span(-1) the last edit's."""
    from gecmetrics.output.report.attribution import attribute_corpus as attribute_systems_of
    from gecmetrics.stats.attribution import attribute, attribute_corpus, attribute_corpus_methods

    def lengths(texts):
        return [float(len(text)) for text in texts]

    edits = [(0, 1, "x")]
    for call, said in ((lambda: attribute_corpus(["a b"], [edits], lambda rows, texts: lengths(texts), method=None),
                        "an attribution method is a name"),
                       (lambda: attribute_corpus_methods(["a b"], [edits], lambda rows, texts: lengths(texts), None),
                        "methods: must be a method name or a list"),
                       (lambda: attribute_systems_of(G.Corpus(["a b"], [["x b"]], {"A": ["x b"]}), "gleu", methods=None),
                        "methods: must be a method name or a list"),
                       (lambda: attribute_systems_of(G.Corpus(["a b"], [["x b"]], {"A": ["x b"]}), "gleu", annotator=3),
                        "annotator: must be an edit annotator")):
        with pytest.raises(InputError, match=said):
            call()
    found = attribute("a b", edits, lengths, method="add", normalize=True)
    assert found.source_span(0) == "a"
    for bad in (1, -1, "x"):
        with pytest.raises(InputError, match="the edit number"):
            found.source_span(bad)


def test_reward_annotation_refusal_names_the_argument_once() -> None:
    with pytest.raises(InputError) as caught:
        reward_function("senterrant", annotation=3)
    assert str(caught.value) == "annotation: must be a dict of annotation settings, got int"


def test_messages_a_second_api_sweep_found_unclear() -> None:
    """A gold M2 reference given as a list of one M2 text was refused as a str (a list of one
    Block was taken); BERTScore without sources said "but the source has 3" of the hypothesis."""
    gold = "S a b c\nA 0 1|||R:X|||x|||REQUIRED|||-NONE-|||0\n"
    reward = reward_function("m2")
    assert reward(completions=["x b c"], references=[[gold]]) == reward(completions=["x b c"], references=[gold])
    with pytest.raises(InputError, match="reference 0: has 4 lines but the hypothesis has 3"):
        G.get_metric("bertscore").corpus_score(None, [["a"] * 4], ["a"] * 3)


def test_a_category_level_is_checked_whatever_the_average() -> None:
    """M2Result.overall(level) and ErrantResult.exact(level) took 0, 5, -1 and 'x' (ignored under
    the micro average), and the macro average read True and 2.0 as levels 1 and 2."""
    from gecmetrics.io.m2 import parse_m2

    gold = parse_m2("S a b c\nA 0 1|||R:NOUN|||x|||REQUIRED|||-NONE-|||0\n\n", "g")
    for settings in ({}, {"average": "macro"}):
        result = G.get_metric("m2", **settings).corpus_score(None, gold, ["x b c"])
        for level in (0, 5, -1, "x", True, 2.0):
            with pytest.raises(InputError, match="category level must be 1, 2 or 3"):
                result.overall(level)
        assert result.overall(np.int64(3)) == result.overall(3)
    compared = G.ErrantCompare().corpus_score(None, gold, gold)
    with pytest.raises(InputError, match="category level must be 1, 2 or 3"):
        compared.exact(4)


# A new user's walk (2026-12-07): hints that pointed the wrong way. A file's name given as the
# hypothesis was told to be wrapped in a list (which scores the one line "AMU"); reference paths
# likewise; references laid out sentence by sentence said only that a reference was short; a flat
# list of candidates in MBR was told the sources' count was wrong.
def test_the_hints_for_paths_transposed_references_and_flat_candidates(tmp_path) -> None:
    src, ref0, ref1, hyp = ["a b c", "d e f", "g h i"], ["a b d", "d e", "g h"], ["a c", "e f", "h i"], ["a b", "d", "g"]
    path = tmp_path / "AMU"
    path.write_text("\n".join(hyp) + "\n", encoding="utf-8")
    gleu = G.get_metric("gleu")
    with pytest.raises(InputError, match=re.escape("a file's name: its lines are gecmetrics.read_lines(path)")):
        gleu.corpus_score(src, [ref0], str(path))
    with pytest.raises(InputError, match=re.escape("(wrap it in a list: [str])")):
        gleu.corpus_score(src, [ref0], "no such file")
    for text in (b"AMU", "a\x00b", "\udcff"):  # (bytes, a NUL, a lone surrogate: no path, and no TypeError)
        with pytest.raises(InputError, match=re.escape(f"(wrap it in a list: [{type(text).__name__}])")):
            gleu.corpus_score(src, [ref0], text)
    with pytest.raises(InputError, match=re.escape("files' names: their lines are [gecmetrics.read_lines(path)")):
        gleu.corpus_score(src, [str(path), str(path)], hyp)
    rows = [list(pair) for pair in zip(ref0, ref1)]  # sentence by sentence
    for call in (lambda: gleu.corpus_score(src, rows, hyp), lambda: G.compare(src, rows, {"A": hyp}, ["gleu"])):
        with pytest.raises(InputError, match=r"reference 0: has 2 lines but the source has 3 \(there are 3 reference "
                                             r"sets, one per source line: .*\[list\(r\) for r in zip\(\*rows\)\]"):
            call()
    with pytest.raises(InputError, match=r"reference 0: has 2 lines but the source has 3$"):
        gleu.corpus_score(src, [ref0[:2], ref1], hyp)  # (two sets, not one per line: no layout hint)
    with pytest.raises(InputError, match="got a list of texts: one source's candidates are written"):
        mbr_select(["a b", "a c"], "gleu", ["a b"])
