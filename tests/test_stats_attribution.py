"""Edit attribution (gecmetrics.stats.attribution): gec-metrics' attributors on recorded examples,
what the parts add up to (property tests), work done once, argument checks and the TSV/dict output."""
from __future__ import annotations

import itertools
import json
import math
import zlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gecmetrics.errors import InputError
from gecmetrics.io.m2 import Edit as M2Edit
from gecmetrics.stats.attribution import (
    ADD,
    DEFAULT_MAX_EXACT_EDITS,
    LEAVE_ONE_OUT,
    MAX_EXACT_EDITS_LIMIT,
    METHODS,
    SAMPLED_SHAPLEY,
    SHAPLEY,
    TSV_COLUMNS,
    Attribution,
    EditSpan,
    as_edit,
    attribute,
    attribute_corpus,
    attribute_corpus_methods,
    attribution_rows,
    attribution_tsv,
    attribution_signature,
    check_attribution_options,
    distinct_attributions,
    idle_options,
    method_name,
    refuse_idle_options,
)

DATA = Path(__file__).resolve().parent / "data"
GEC_METRICS = json.loads((DATA / "attribution_gec_metrics.json").read_text(encoding="utf-8"))["examples"]


def crc_score(sentences):
    """The driver's test metric (see the data file's header)."""
    return [(zlib.crc32(s.encode("utf-8")) % 1000) / 1000 for s in sentences]


def salted(salt: int):
    """A pseudo-random sentence score (every edit interacts with every other)."""
    return lambda sentences: [(zlib.crc32(f"{salt}|{s}".encode()) % 10007) / 10007 - 0.5 for s in sentences]


# ---------------------------------------------------------------- gec-metrics' attributors


@pytest.mark.parametrize("example", GEC_METRICS, ids=lambda e: f"{e['metric']}-{e['source'][:20]}")
def test_equals_gec_metrics_attributors(example):
    """Exact Shapley equals gec-metrics' AttributorShapley, and add / leave-one-out with
    normalize=True its AttributorAdd / AttributorSub, on the recorded examples; every candidate
    sentence we build is one gec-metrics built (gecommon.apply_edits)."""
    table = example["candidates"]
    built = set()

    def lookup(sentences):
        built.update(sentences)
        return [table[s] for s in sentences]  # KeyError: a candidate gec-metrics never built

    edits = [tuple(edit) for edit in example["edits"]]
    shapley = attribute(example["source"], edits, lookup, SHAPLEY)
    assert built == set(table)  # the same 2^n candidate sentences
    assert shapley.hypothesis == example["hypothesis"]
    assert shapley.values == pytest.approx(example["shapley"], abs=1e-12, rel=0)
    assert shapley.empty_score == example["src_score"]
    assert shapley.delta == pytest.approx(example["sent_score"], abs=1e-15)
    add = attribute(example["source"], edits, lookup, ADD, normalize=True)
    assert add.values == pytest.approx(example["add"], abs=1e-12, rel=0)
    loo = attribute(example["source"], edits, lookup, LEAVE_ONE_OUT, normalize=True)
    assert loo.values == pytest.approx(example["sub"], abs=1e-12, rel=0)
    if example["metric"] == "crc":
        assert crc_score(list(table)) == list(table.values())


def test_gec_metrics_documentation_example_by_the_formula():
    """The documentation's example with the crc metric computed here, not looked up."""
    example = next(e for e in GEC_METRICS if e["metric"] == "crc" and e["source"].startswith("Further more"))
    result = attribute(example["source"], [tuple(e) for e in example["edits"]], crc_score)
    assert len(result.values) == 6
    assert result.values == pytest.approx(example["shapley"], abs=1e-12, rel=0)
    assert result.scored == 64


def test_recorded_examples_could_fail():
    """A wrong order of the edits (values attached to the wrong edit) is caught."""
    example = next(e for e in GEC_METRICS if e["metric"] == "green" and len(e["edits"]) == 6)
    table = example["candidates"]
    edits = [tuple(e) for e in example["edits"]]
    result = attribute(example["source"], edits[::-1], lambda ss: [table[s] for s in ss])
    assert list(result.values) != pytest.approx(example["shapley"], abs=1e-6)
    assert list(result.values)[::-1] == pytest.approx(example["shapley"], abs=1e-12)


# ---------------------------------------------------------------- what the parts add up to

@st.composite
def hypotheses(draw, max_edits: int = 7):
    """A source and non-overlapping edits (replacements, insertions, deletions) of it."""
    length = draw(st.integers(0, 10))
    tokens = [f"w{draw(st.integers(0, 5))}" for _ in range(length)]
    edits, position = [], 0
    for _ in range(draw(st.integers(0, max_edits))):
        start = draw(st.integers(position, length))
        end = draw(st.integers(start, min(length, start + 2)))
        correction = draw(st.lists(st.sampled_from(["a", "b", "w1", "the"]), max_size=2))
        if start == end and not correction:
            correction = ["x"]
        edits.append((start, end, " ".join(correction), "R:X"))
        position = end  # the next edit may start where this one ends (insertions may share a point)
    return tokens, draw(st.permutations(edits))


@settings(max_examples=150, deadline=None)
@given(hypotheses(), st.integers(0, 2 ** 31))
def test_shapley_parts_sum_to_the_difference(hypothesis, salt):
    tokens, edits = hypothesis
    result = attribute(tokens, edits, salted(salt), SHAPLEY)
    assert len(result.values) == len(edits)
    assert math.fsum(result.values) == pytest.approx(result.full_score - result.empty_score, abs=1e-9)


@settings(max_examples=150, deadline=None)
@given(hypotheses(), st.integers(0, 2 ** 31), st.integers(1, 60), st.integers(0, 1000))
def test_sampled_shapley_parts_sum_to_the_difference(hypothesis, salt, permutations, seed):
    """Each permutation's marginal contributions telescope to v(all) - v(none), so their mean does."""
    tokens, edits = hypothesis
    result = attribute(tokens, edits, salted(salt), SAMPLED_SHAPLEY, permutations=permutations, seed=seed)
    assert math.fsum(result.values) == pytest.approx(result.delta, abs=1e-9)
    assert result.permutations == (math.factorial(len(edits)) if result.exhaustive else permutations)


@settings(max_examples=100, deadline=None)
@given(hypotheses(max_edits=5), st.integers(0, 2 ** 31))
def test_sampled_shapley_with_every_permutation_is_exact(hypothesis, salt):
    tokens, edits = hypothesis
    exact = attribute(tokens, edits, salted(salt), SHAPLEY)
    sampled = attribute(tokens, edits, salted(salt), SAMPLED_SHAPLEY, permutations=math.factorial(len(edits)))
    assert sampled.exhaustive
    assert sampled.values == pytest.approx(exact.values, abs=1e-12)


@settings(max_examples=100, deadline=None)
@given(hypotheses(), st.integers(0, 2 ** 31))
def test_normalized_add_and_leave_one_out_sum_unless_the_parts_sum_to_zero(hypothesis, salt):
    tokens, edits = hypothesis
    for method in (ADD, LEAVE_ONE_OUT):
        raw = attribute(tokens, edits, salted(salt), method)
        scaled = attribute(tokens, edits, salted(salt), method, normalize=True)
        assert scaled.normalized and not raw.normalized
        if abs(math.fsum(raw.values)) <= 1e-12 * math.fsum(abs(v) for v in raw.values):  # 0 up to rounding
            assert all(v == 0 for v in scaled.values)
        else:
            assert math.fsum(scaled.values) == pytest.approx(scaled.delta, abs=1e-9)


@settings(max_examples=100, deadline=None)
@given(hypotheses(), st.dictionaries(st.sampled_from(["a", "b", "w1", "the", "x", "w0", "w2"]),
                                      st.integers(-5, 5)))
def test_additive_metric_every_method_agrees(hypothesis, weights):
    """For a metric that is a sum over tokens, each edit's worth does not depend on the others:
    add = leave-one-out = Shapley = sampled Shapley, and all sum to the difference."""
    tokens, edits = hypothesis

    def additive(sentences):
        return [float(sum(weights.get(t, 0) for t in s.split())) for s in sentences]

    results = {m: attribute(tokens, edits, additive, m, permutations=7) for m in METHODS}
    for method in METHODS:
        assert results[method].values == pytest.approx(results[SHAPLEY].values, abs=1e-9)
    assert math.fsum(results[ADD].values) == pytest.approx(results[ADD].delta, abs=1e-9)


def test_interacting_edits_add_and_leave_one_out_do_not_sum():
    """Two edits that only help together: add gives 0 + 0, leave-one-out 1 + 1, Shapley 1/2 + 1/2
    of the difference 1."""
    def both(sentences):
        return [1.0 if s == "A B" else 0.0 for s in sentences]

    edits = [(0, 1, "A"), (1, 2, "B")]
    assert attribute("a b", edits, both, ADD).values == (0.0, 0.0)
    assert attribute("a b", edits, both, LEAVE_ONE_OUT).values == (1.0, 1.0)
    assert attribute("a b", edits, both, SHAPLEY).values == (0.5, 0.5)
    assert attribute("a b", edits, both, ADD, normalize=True).values == (0.0, 0.0)  # parts sum to 0
    assert attribute("a b", edits, both, LEAVE_ONE_OUT, normalize=True).values == (0.5, 0.5)


def test_normalized_parts_that_sum_to_zero_but_for_rounding_are_zero():
    """0.8, 0.4 and 0.3 less 0.5 sum to 5.6e-17 in floats: the difference 0.5 was divided by it,
    attributions of 2.7e15, -9e14 and -1.8e15 to a sentence score in [0, 1]."""
    scores = {"a b c": 0.5, "x b c": 0.8, "a y c": 0.4, "a b z": 0.3, "x y z": 1.0}
    result = attribute("a b c", [(0, 1, "x"), (1, 2, "y"), (2, 3, "z")], lambda ss: [scores[s] for s in ss], ADD,
                       normalize=True)
    assert result.values == (0.0, 0.0, 0.0)


def test_shapley_by_the_definition_and_a_dummy_edit():
    """Three edits, the Shapley formula written out; an edit the metric ignores gets 0."""
    scores = {"a b c": 0.0, "A b c": 1.0, "a B c": 2.0, "a b C": 0.0, "A B c": 5.0, "A b C": 1.0, "a B C": 2.0,
              "A B C": 5.0}
    result = attribute("a b c", [(0, 1, "A"), (1, 2, "B"), (2, 3, "C")], lambda ss: [scores[s] for s in ss])
    # edit A: |E|=0: 1/3 (1 - 0); |E|=1: 1/6 (5 - 2) + 1/6 (1 - 0); |E|=2: 1/3 (5 - 2)
    # edit B: |E|=0: 1/3 (2 - 0); |E|=1: 1/6 (5 - 1) + 1/6 (2 - 0); |E|=2: 1/3 (5 - 1)
    assert result.values == pytest.approx((1 / 3 + 3 / 6 + 1 / 6 + 3 / 3, 2 / 3 + 4 / 6 + 2 / 6 + 4 / 3, 0.0))
    assert result.values[2] == 0.0


# ---------------------------------------------------------------- building and scoring once


def test_candidates_are_built_in_source_order_whatever_the_edit_order():
    seen = []

    def record(sentences):
        seen.extend(sentences)
        return [0.0] * len(sentences)

    edits = [(3, 3, "x y"), (0, 1, ""), (1, 1, "i"), (1, 2, "B")]
    result = attribute("a b c", edits, record, SHAPLEY)
    assert result.hypothesis == "i B c x y"
    assert "i b c" in seen and "a i B c" in seen and "b c" in seen
    assert len(seen) == len(set(seen)) == 16


def test_each_distinct_sentence_scored_once_in_one_call():
    calls = []

    def score(rows, texts):
        calls.append(list(zip(rows, texts)))
        return [float(len(t)) for t in texts]

    sources = ["a b c", "a b c", "x y"]
    edits = [[(0, 1, "A"), (2, 3, "C")], [(0, 1, "A"), (2, 3, "C")], [(1, 2, "")]]
    results = attribute_corpus_methods(sources, edits, score, METHODS, permutations=5)
    assert len(calls) == 1
    pairs = calls[0]
    assert len(pairs) == len(set(pairs))  # every (row, text) once, over all four methods
    assert {text for row, text in pairs if row == 0} == {"a b c", "A b c", "a b C", "A b C"}
    assert len(pairs) == 4 + 4 + 2  # rows 0 and 1 are scored separately (a row may have its own references)
    assert [r[SHAPLEY].values for r in results[:2]] == [results[0][SHAPLEY].values] * 2
    assert results[2][ADD].values == (float(len("x")) - float(len("x y")),)


def test_no_edits_scores_the_source_once():
    calls = []

    def score(sentences):
        calls.append(sentences)
        return [0.25]

    result = attribute("a b", [], score, SAMPLED_SHAPLEY)
    assert calls == [["a b"]]
    assert result.values == () and result.full_score == result.empty_score == 0.25 and result.delta == 0


def test_sampled_shapley_is_seeded_per_sentence():
    edits = [(k, k + 1, "X") for k in range(8)]
    source = " ".join(f"t{k}" for k in range(8))
    first = attribute(source, edits, salted(3), SAMPLED_SHAPLEY, permutations=20, seed=5)
    again = attribute(source, edits, salted(3), SAMPLED_SHAPLEY, permutations=20, seed=5)
    other = attribute(source, edits, salted(3), SAMPLED_SHAPLEY, permutations=20, seed=6)
    assert first.values == again.values and first.values != other.values
    assert not first.exhaustive and first.permutations == 20 and first.seed == 5
    # the draws are seeded by (seed, sentence number): the other sentences of a batch do not matter
    alone = attribute_corpus([source], [edits], lambda rows, texts: salted(3)(texts), SAMPLED_SHAPLEY,
                             permutations=20, seed=5)
    assert alone[0].values == first.values
    batches = [attribute_corpus([other, source], [other_edits, edits], lambda rows, texts: salted(3)(texts),
                                SAMPLED_SHAPLEY, permutations=20, seed=5)[1].values
               for other, other_edits in (("q", [(0, 1, "Q")]), ("r s t u v w", [(k, k + 1, "Z") for k in range(6)]))]
    assert batches[0] == batches[1]


def test_exact_shapley_bound():
    edits = [(k, k + 1, "X") for k in range(DEFAULT_MAX_EXACT_EDITS + 1)]
    source = " ".join("t" for _ in edits)
    with pytest.raises(InputError) as error:
        attribute(source, edits, salted(1), SHAPLEY)
    message = str(error.value)
    assert f"max_exact_edits={DEFAULT_MAX_EXACT_EDITS}" in message and "sampled-shapley" in message
    assert "2^11 = 2,048" in message
    assert len(attribute(source, edits, salted(1), SHAPLEY, max_exact_edits=11).values) == 11
    sampled, skipped = (attribute_corpus([source], [edits], lambda r, t: salted(1)(t), SHAPLEY, over_bound=rule,
                                         permutations=10)[0] for rule in ("sample", "skip"))
    assert sampled.method == SAMPLED_SHAPLEY and sampled.permutations == 10 and skipped is None
    with pytest.raises(InputError, match="sentence 2: exact Shapley over 11 edits"):
        attribute_corpus(["a", source], [[], edits], lambda r, t: salted(1)(t))


def test_exact_shapley_sampled_in_its_place_beside_sampled_shapley_is_one_run():
    """--over-bound sample with shapley and sampled-shapley both asked for gave two identical
    sets of sampled-shapley rows for a sentence above the bound: one run now, under both keys,
    saying whose place it took; below the bound each method is its own."""
    edits = [(k, k + 1, "X") for k in range(3)]
    source = "t t t"
    small = [(0, 1, "X")]
    results = attribute_corpus_methods([source, "u v"], [edits, small], lambda r, t: salted(4)(t),
                                       [SHAPLEY, ADD, SAMPLED_SHAPLEY], max_exact_edits=2, over_bound="sample",
                                       permutations=5)
    above, below = results
    assert above[SHAPLEY] is above[SAMPLED_SHAPLEY] and above[SHAPLEY].in_place_of == SHAPLEY
    assert above[SHAPLEY].method == SAMPLED_SHAPLEY and above[ADD].in_place_of is None
    assert [a.method for a in distinct_attributions(above)] == [SAMPLED_SHAPLEY, ADD]
    assert [r["method"] for r in attribution_rows(distinct_attributions(above))] == [SAMPLED_SHAPLEY] * 3 + [ADD] * 3
    assert {r["in_place_of"] for r in attribution_rows(above[SHAPLEY])} == {SHAPLEY}
    assert [a.method for a in distinct_attributions(below)] == [SHAPLEY, ADD, SAMPLED_SHAPLEY]
    assert below[SAMPLED_SHAPLEY].in_place_of is None and below[SHAPLEY].in_place_of is None
    # the same values as sampled Shapley asked for alone, and in exact Shapley's place alone
    alone = attribute_corpus([source], [edits], lambda r, t: salted(4)(t), SAMPLED_SHAPLEY, permutations=5)[0]
    instead = attribute_corpus([source], [edits], lambda r, t: salted(4)(t), SHAPLEY, max_exact_edits=2,
                               over_bound="sample", permutations=5)[0]
    assert above[SHAPLEY].values == alone.values == instead.values and instead.in_place_of == SHAPLEY
    assert above[SHAPLEY].to_dict()["in_place_of"] == SHAPLEY and alone.to_dict()["in_place_of"] is None
    skipped = attribute_corpus_methods([source], [edits], lambda r, t: salted(4)(t), [SHAPLEY, SAMPLED_SHAPLEY],
                                       max_exact_edits=2, over_bound="skip", permutations=5)[0]
    assert skipped[SHAPLEY] is None and skipped[SAMPLED_SHAPLEY].in_place_of is None
    assert distinct_attributions(skipped) == [skipped[SAMPLED_SHAPLEY]]


def test_attribution_signature_names_the_settings_that_change_a_number():
    from gecmetrics.metrics.results import Signature

    metric = Signature("GLEU+", [("n", "4")], version="9")
    assert attribution_signature(metric, ["shapley"]) == "GLEU+|n:4|attribution:shapley|max-exact:10|over-bound:error|" \
                                                         "version:9"
    assert attribution_signature(metric, ["shapley", "add"], 3, 20, 7, True, "sample") == \
        "GLEU+|n:4|attribution:shapley,add|max-exact:3|over-bound:sample|perms:20|seed:7|normalized|version:9"
    assert attribution_signature(metric, ["loo"], 3, 20, 7) == "GLEU+|n:4|attribution:leave-one-out|version:9"
    assert attribution_signature(metric, ["sampled-shapley"], permutations=5) == \
        "GLEU+|n:4|attribution:sampled-shapley|perms:5|seed:0|version:9"
    with pytest.raises(InputError, match="unknown attribution method"):
        attribution_signature(metric, ["nope"])


def test_attribution_signature_names_the_annotator_of_the_candidates_as_errant_does():
    """The annotator that gave the candidates their edits is named by its fields after the
    metric's, as ERRANT's signature names them (the numbers depend on its model)."""
    from gecmetrics.metrics.results import Signature

    class Annotator:
        def annotation_fields(self) -> list:
            return [("spacy", "3.8.18"), ("model", "en_core_web_sm-3.8.0")]

    metric = Signature("SentERRANT", [("mode", "cs")], version="9")
    assert attribution_signature(metric, ["add"], annotator=Annotator()) == \
        "SentERRANT|mode:cs|spacy:3.8.18|model:en_core_web_sm-3.8.0|attribution:add|version:9"
    assert attribution_signature(metric, ["add"]) == "SentERRANT|mode:cs|attribution:add|version:9"


# ---------------------------------------------------------------- arguments


def test_edit_forms():
    m2 = M2Edit(1, 2, "R:VERB", "-NONE-")
    assert as_edit(m2) == EditSpan(1, 2, (), "R:VERB")
    assert as_edit(M2Edit(0, 0, "M:DET", "the||a")) == EditSpan(0, 0, ("the",), "M:DET")
    assert as_edit((0, 1, ["x", "y"])) == EditSpan(0, 1, ("x", "y"), "")
    assert as_edit(EditSpan(0, 1, ("x",), "T")) == EditSpan(0, 1, ("x",), "T")

    class Errant:
        o_start, o_end, c_str, type = 2, 3, "went", "R:VERB:TENSE"

    assert as_edit(Errant()) == EditSpan(2, 3, ("went",), "R:VERB:TENSE")
    with pytest.raises(InputError, match="no-op"):
        as_edit(M2Edit(-1, -1, "noop", "-NONE-"))


@pytest.mark.parametrize("edits, message", [
    ([(0, 2, "x"), (1, 3, "y")], "overlap"),
    ([(0, 1, "x"), (0, 1, "y")], "overlap"),
    ([(0, 4, "x")], "outside the source's 3 tokens"),
    ([(2, 1, "x")], "after end"),
    ([(0, 1)], "expected"),
    ([(0.5, 1, "x")], "integers"),
    ([(0, 1, 5)], "correction"),
    ([(0, 1, ["a b"])], "correction"),
    ([(0, 1, "x", 3)], "type"),
    ("0 1 x", "list"),
    ([object()], "not an edit"),
])
def test_bad_edits(edits, message):
    with pytest.raises(InputError, match=message):
        attribute("a b c", edits, salted(0))


def test_insertions_at_one_point_keep_the_given_order():
    result = attribute("a b", [(1, 1, "y"), (1, 1, "x"), (1, 2, "B")], salted(0), ADD)
    assert result.hypothesis == "a y x B"


@pytest.mark.parametrize("options, message", [
    ({"method": "banzhaf"}, "unknown attribution method"),
    ({"max_exact_edits": -1}, "max_exact_edits"),
    ({"max_exact_edits": MAX_EXACT_EDITS_LIMIT + 1}, "max_exact_edits"),
    ({"max_exact_edits": True}, "max_exact_edits"),
    ({"permutations": 0}, "permutations"),
    ({"permutations": 10**400}, r"permutations must be at most 10,000 \(gecmetrics.stats.attribution.MAX_PERMUTATIONS\), "
                                r"got 1.00e\+400"),  # (all 12! orders of 12 edits: hours)
    ({"seed": -1}, "seed"),
    ({"normalize": 1}, "normalize"),
    ({"over_bound": "skip"}, "over_bound"),
])
def test_bad_options(options, message):
    with pytest.raises(InputError, match=message):
        attribute("a b", [(0, 1, "x")], salted(0), **options)


def test_options_are_checked_before_any_sentence():
    """check_attribution_options raises what attribute_corpus_methods would, reading no sentence
    (the report checks them once before its workers start)."""
    check_attribution_options(["add", "shapley"], 3, 5, 1, True, "sample")
    for options, message in [({"methods": ["banzhaf"]}, "unknown attribution method"),
                             ({"methods": ["add", "add"]}, "listed twice"), ({"permutations": 0}, "permutations"),
                             ({"over_bound": "maybe"}, "over_bound")]:
        with pytest.raises(InputError, match=message):
            check_attribution_options(**options)
        with pytest.raises(InputError, match=message):
            attribute_corpus_methods(["a b"], [[(0, 1, "x")]], lambda rows, texts: [0.0] * len(texts), **options)


def test_which_options_each_method_reads():
    """idle_options: what attribute_corpus (of the report) and the CLI refuse when given; a
    single-method call such as attribute(..., m, permutations=7) over every m takes them all."""
    assert idle_options([ADD, SHAPLEY], ["max_exact_edits", "normalize", "seed", "first_row"]) == ["seed"]
    assert idle_options("shapley", ["seed", "permutations"], over_bound="sample") == []
    assert idle_options("shapley", ["seed", "permutations", "over_bound"]) == ["seed", "permutations"]
    assert idle_options(["loo", SAMPLED_SHAPLEY], ["normalize", "over_bound", "max_exact_edits"]) == \
        ["over_bound", "max_exact_edits"]
    with pytest.raises(InputError, match="^seed=3 does nothing with method\\(s\\) add, leave-one-out "):
        refuse_idle_options(["add", "loo"], {"seed": 3, "normalize": True})


@pytest.mark.parametrize("returned, message", [
    ([0.0], "returned 1 value"),
    ([[0.0, 1.0]] * 3, "returned 6 values"),
    ([0.0, float("nan")], "returned nan"),
    (["a", "b", "c"], "one number per sentence"),
    (None, "one number per sentence: got object values"),  # (None was read as one nan)
])
def test_bad_score_functions(returned, message):
    with pytest.raises(InputError, match=message):
        attribute("a b", [(0, 1, "x")], lambda sentences: returned, ADD)
    with pytest.raises(InputError, match="score must be a function"):
        attribute("a b", [], 3)


def test_an_unknown_option_is_named_by_the_function_called():
    """attribute(..., foo=1) was a TypeError naming attribute_corpus_methods, which the caller never called."""
    with pytest.raises(InputError, match=r"^attribute has no option 'foo'; its options: max_exact_edits, permutations, "
                                         r"seed, normalize$"):
        attribute("a b", [(0, 1, "x")], salted(0), foo=1)
    with pytest.raises(InputError, match=r"^attribute_corpus has no option 'bar'; its options: .*, first_row$"):
        attribute_corpus(["a b"], [[(0, 1, "x")]], lambda rows, texts: [0.0] * len(texts), bar=1)


def test_corpus_argument_checks():
    with pytest.raises(InputError, match="2 sources but 1 list of edits"):
        attribute_corpus(["a", "b"], [[]], lambda r, t: [0.0] * len(t))
    with pytest.raises(InputError, match="listed twice"):
        attribute_corpus_methods(["a"], [[]], lambda r, t: [0.0] * len(t), (SHAPLEY, "shapley"))
    with pytest.raises(InputError, match="no attribution method"):
        attribute_corpus_methods(["a"], [[]], lambda r, t: [0.0] * len(t), ())
    with pytest.raises(InputError, match="source tokens"):
        attribute(["a b"], [], salted(0))
    assert method_name("LOO") == LEAVE_ONE_OUT and method_name("sub") == LEAVE_ONE_OUT
    assert method_name("shapley_sampling") == SAMPLED_SHAPLEY


# ---------------------------------------------------------------- output


def test_tsv_and_dict_output():
    results = attribute_corpus(["a b c d", "e"], [[(0, 1, "A\\B", "R:X"), (2, 2, "ins", "M:Y")], []],
                               lambda rows, texts: [float(len(t)) / 3 for t in texts], ADD)
    text = attribution_tsv(results + [None], first_sentence=10)
    lines = text.splitlines()
    assert lines[0].split("\t") == list(TSV_COLUMNS)
    assert len(lines) == 3  # one line per edit; no line for a sentence without edits or a skipped one
    cells = dict(zip(TSV_COLUMNS, lines[1].split("\t")))
    assert cells["sentence"] == "10" and cells["edit"] == "1" and cells["original"] == "a"
    assert cells["correction"] == "A\\\\B" and cells["type"] == "R:X" and cells["method"] == "add"
    assert float(cells["attribution"]) == results[0].values[0]
    second = dict(zip(TSV_COLUMNS, lines[2].split("\t")))
    assert second["original"] == "" and second["correction"] == "ins"
    assert float(second["full_score"]) == results[0].full_score
    rows = attribution_rows(results[0])
    assert [r["edit"] for r in rows] == [1, 2]
    data = json.loads(json.dumps(results[0].to_dict()))
    assert data["edits"][1]["attribution"] == results[0].values[1]
    assert data["delta"] == results[0].delta and data["method"] == "add"
    assert isinstance(results[0], Attribution) and results[0].residual == pytest.approx(
        results[0].delta - sum(results[0].values))
    with pytest.raises(InputError, match="Attribution"):
        attribution_tsv(["x"])


def test_all_methods_share_one_call_and_agree_with_single_calls():
    tokens = "t0 t1 t2 t3".split()
    edits = [(0, 1, "A"), (1, 1, "i"), (2, 4, "")]
    together = attribute_corpus_methods([tokens], [edits], lambda r, t: salted(9)(t), METHODS, permutations=4)[0]
    for method in METHODS:
        alone = attribute(tokens, edits, salted(9), method, permutations=4)
        assert together[method] == alone
    assert together[SHAPLEY].scored == 8 and together[ADD].scored == 5
    assert list(itertools.chain(*(a.values for a in together.values())))
