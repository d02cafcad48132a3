"""What a metric returns checks what it is given (an audit of the public API): a signature
field's key on one line, the reference count of every metric's column signatures, and the parts
that ``SentenceScores.joined`` joins; one InputError naming the argument, never an
AttributeError or NumPy's ValueError from inside, never a silently wrong signature."""
from __future__ import annotations

import numpy as np
import pytest

import gecmetrics as G
from gecmetrics.errors import InputError
from gecmetrics.metrics.registry import get_metric, resolve_metrics
from gecmetrics.metrics.results import SentenceScores, Signature

S = ["She go to school .", "I has a apple ."]
R = [["She goes to school .", "I have an apple ."], ["She went to school .", "I have an apple ."]]
H = ["She goes to school .", "I have a apple ."]


# ----------------------------------------------------------------------------- signature keys


@pytest.mark.parametrize("make", [
    lambda: Signature("X", ["a\nb"]),
    lambda: Signature("X", [("a\nb", "1")]),
    lambda: Signature("X", [("a\rb", "1")]),
    lambda: Signature("X", ["a\u2028b"]),
    lambda: Signature("X", ["ab\n"]),
    lambda: G.GLEU().signature.with_fields("a\nb"),
    lambda: G.GLEU().signature.with_fields(("a\nb", "1")),
])
def test_a_signature_field_key_with_a_line_break_is_refused(make) -> None:
    """Names and values were refused a line break, keys were not: ``X|a\\nb|version:...`` was a
    signature of two lines."""
    with pytest.raises(InputError, match=r"key is a word without '\|'.*on one line, got 'a"):
        make()


def test_signature_keys_on_one_line_still_work() -> None:
    assert Signature("X", ["a b", ("c", "1")]) == "X|a b|c:1|version:" + Signature("X").version
    assert G.GLEU().signature.with_fields("paired", ("samples", "1000")).endswith(
        "|paired|samples:1000|version:" + Signature("X").version)


# ----------------------------------------------------------------------------- column signatures


BAD_REFERENCES = [(-1, "an integer >= 0, got -1"), ("x", "an integer, got 'x'"), (1.5, "an integer, got 1.5"),
                  (True, "an integer, got True"), ("2", "an integer, got '2'")]


@pytest.mark.parametrize("name", ["green", "green-char", "gotoscorer", "gleu", "gleu0", "m2", "cleme", "llm-s"])
@pytest.mark.parametrize("references, message", BAD_REFERENCES)
def test_every_metrics_columns_check_the_reference_count(name, references, message) -> None:
    """GREEN signed ``refs:-1``, ``refs:x``, ``refs:1.5`` and GoToScorer took anything: the
    columns of a metric with a column setting did not go through the signature's check."""
    metric = get_metric(name)
    with pytest.raises(InputError, match=f"references \\(the number of reference sets\\) must be {message}"):
        metric.columns(references)
    with pytest.raises(InputError, match="references \\(the number of reference sets\\)"):
        metric.signature(references)  # the one check both share


@pytest.mark.parametrize("name", ["green", "gotoscorer"])
def test_column_signature_checks_its_arguments(name) -> None:
    metric = get_metric(name)
    with pytest.raises(InputError, match="references"):
        metric.column_signature(0, -1)
    for part in (-1, metric.column_count, "0", 0.0, True):
        with pytest.raises(InputError, match="part \\(the index of one of the metric's columns\\)"):
            metric.column_signature(part, 2)


def test_column_signatures_of_good_arguments_are_unchanged() -> None:
    green = G.GREEN(beta=[0.5, 2])
    assert [str(c.signature) for c in green.columns(2)] == [
        str(Signature("GREEN", [("beta", "0.5"), ("n", "4"), ("unit", "word"), ("refs", "2")])),
        str(Signature("GREEN", [("beta", "2"), ("n", "4"), ("unit", "word"), ("refs", "2")]))]
    assert green.columns(np.int64(2)) == green.columns(2)
    assert "refs" not in green.columns()[0].signature and "refs:0" in green.columns(0)[1].signature
    assert green.column_signature(np.int64(1), None) == green.columns()[1].signature
    goto = get_metric("gotoscorer", score="f05/p")
    assert goto.columns(3)[1].signature.startswith("GoToScorer|score:p|")
    assert goto.columns(3) == goto.columns()  # (its signature names no reference count)


def test_checked_references() -> None:
    from gecmetrics.metrics.results import checked_references

    assert checked_references(None) is None
    assert checked_references(0) == 0 and checked_references(np.int32(3)) == 3
    with pytest.raises(InputError, match="references"):
        checked_references(-2)


# ----------------------------------------------------------------------------- joined sentence scores


@pytest.fixture(scope="module")
def gleu_scores():
    return G.GLEU().sentence_scores(S, R, H)


def test_joined_refuses_parts_of_another_metric_or_setting(gleu_scores) -> None:
    """GLEU n=3's scores were joined under n=4's signature; GREEN's (two dimensions) raised
    NumPy's ValueError."""
    with pytest.raises(InputError, match=r"parts\[1\] has another signature than parts\[0\] \('n:3' where parts\[0\] "
                                         r"has 'n:4'\)"):
        SentenceScores.joined([gleu_scores, G.GLEU(n=3).sentence_scores(S, R, H)])
    with pytest.raises(InputError, match=r"parts\[1\] has another signature .*'GREEN' where parts\[0\] has 'GLEU\+'"):
        SentenceScores.joined([gleu_scores, G.GREEN().sentence_scores(S, R, H)])
    with pytest.raises(InputError, match=r"parts\[2\] has another signature .*'refs:1' where parts\[0\] has 'refs:2'"):
        SentenceScores.joined([gleu_scores, gleu_scores, G.GLEU().sentence_scores(S, R[:1], H)])


@pytest.mark.parametrize("parts, message", [
    ("ab", "parts must be a sequence of sentence scores \\(SentenceScores\\) of consecutive chunks, got 'ab'"),
    (None, "parts must be a sequence of sentence scores"),
    (3, "parts must be a sequence of sentence scores"),
    ([], "parts must hold at least one SentenceScores"),
    ((), "parts must hold at least one SentenceScores"),
    ([[0.5, 1.0]], "parts\\[0\\] must be sentence scores \\(SentenceScores\\), got a list"),
    ({"a": 1}, "parts must be a sequence of sentence scores.*got a dict"),
])
def test_joined_refuses_what_is_no_list_of_sentence_scores(parts, message) -> None:
    """``joined("ab")`` raised AttributeError, ``joined([])`` NumPy's ValueError."""
    with pytest.raises(InputError, match=message):
        SentenceScores.joined(parts)


def test_joined_refuses_another_scale_or_another_number_of_columns(gleu_scores) -> None:
    signature = Signature("X")
    with pytest.raises(InputError, match=r"parts\[1\] has fraction=False and parts\[0\] fraction=True"):
        SentenceScores.joined([SentenceScores([0.5], signature), SentenceScores([3.0], signature, fraction=False)])
    with pytest.raises(InputError, match=r"parts\[1\] holds scores of shape \(2, 1\) and parts\[0\] of shape \(3, 2\)"):
        SentenceScores.joined([SentenceScores(np.zeros((3, 2)), signature), SentenceScores(np.zeros((2, 1)), signature)])
    with pytest.raises(InputError, match=r"parts\[1\] holds scores of shape \(1, 2\)"):
        SentenceScores.joined([SentenceScores([0.5], signature), SentenceScores([[0.5, 1.0]], signature)])


def test_joined_parts_of_one_run_still_join(gleu_scores) -> None:
    """Chunks of one run (one signature: the run's reference count) join as before, from any
    sequence or iterator, in order; parts that are a family's own sentence scores too."""
    first = SentenceScores([0.25, 0.5], gleu_scores.signature)
    whole = SentenceScores.joined([first, gleu_scores])
    assert list(whole.scores) == [0.25, 0.5, *gleu_scores.scores] and whole.signature == gleu_scores.signature
    assert list(SentenceScores.joined(iter([gleu_scores, first])).scores) == [*gleu_scores.scores, 0.25, 0.5]
    assert len(SentenceScores.joined((gleu_scores,))) == 2
    two = SentenceScores.joined([SentenceScores(np.ones((2, 1)), Signature("X"), fraction=False),
                                 SentenceScores(np.zeros((2, 3)), Signature("X"), fraction=False)])
    assert np.shape(two.scores) == (2, 4) and two.fraction is False


def test_chunks_of_one_engine_run_have_one_signature() -> None:
    """Sentence scores of the chunks of one run (the engine at one line a chunk) join: no field
    of their signature differs between chunks, so joining them whole equals scoring the corpus."""
    from gecmetrics.run.engine import corpus_for, scored_chunks

    for name in ("gleu", "gleu0", "green"):
        metric = get_metric(name)
        corpus = corpus_for([metric], S, R, {"h": H})
        parts = [SentenceScores(np.asarray(scores.scores), scores.signature, scores.fraction)
                 for scores in (metric.sentence_from_statistics(chunk.statistics["h"][0])
                                for chunk in scored_chunks([metric], corpus, chunk_lines=1))]
        assert len(parts) == 2
        joined = SentenceScores.joined(parts)
        assert np.allclose(joined.scores, metric.sentence_scores(S, R, H).scores)
        assert joined.signature == metric.sentence_scores(S, R, H).signature


@pytest.mark.parametrize("name, other", [("gleu", "gleu:n=3"), ("green", "green:beta=1"), ("m2", "m2:beta=1"),
                                         ("cleme", "cleme:beta=1")])
def test_each_metrics_own_joined_refuses_another_settings_parts(name, other) -> None:
    """GLEUSentenceScores.joined([n4, n3]) kept the first part's signature: the families' own
    joined (GLEU+, GREEN, the M2 family, CLEME) check their parts as SentenceScores.joined does."""
    from gecmetrics.io.m2 import parse_m2

    gold = parse_m2("S She go to school .\nA 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\n\n"
                    "S I has a apple .\nA 1 2|||R:VERB:SVA|||have|||REQUIRED|||-NONE-|||0\n", "gold.m2")
    edits = parse_m2("S She go to school .\nA 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\n\n"
                     "S I has a apple .\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n", "hyp.m2")
    given = {"gleu": (S, R, H), "green": (S, R, H), "m2": (None, gold, H), "cleme": (None, gold, edits)}[name]
    [first], [second] = (resolve_metrics([text]) for text in (name, other))
    one, two = first.sentence_scores(*given), second.sentence_scores(*given)
    assert type(one).joined([one, one]).signature == one.signature
    with pytest.raises(InputError, match=r"^parts\[1\] has another signature than parts\[0\]"):
        type(one).joined([one, two])
