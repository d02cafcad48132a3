"""The shared counting core and input reading (SPEC 1)."""
from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from gecmetrics import InputError
from gecmetrics.io.corpus import read_corpus
from gecmetrics.io.text import decode_lines
from gecmetrics.core.ngrams import EncodedCorpus
from gecmetrics.core.units import split_units, whitespace_warnings
from gecmetrics.metrics.gleu.gleu import GLEU
from gecmetrics.metrics.gleu.gleu2015 import GLEU2015
from gecmetrics.metrics.green.green import GREEN

sentence = st.lists(st.sampled_from(["a", "b", "c", "d"]), max_size=9).map(" ".join)


def ngram_counter(line: str, n: int, unit: str = "word") -> Counter:
    units = split_units(line, unit)
    return Counter(tuple(units[i:i + n]) for i in range(len(units) - n + 1))


def rows_by_sentence(triples) -> dict[int, list[tuple[int, int, int]]]:
    rows: dict[int, list[tuple[int, int, int]]] = {}
    for d, s, r, h in zip(triples.sentence.tolist(), triples.sigma.tolist(), triples.rho.tolist(), triples.eta.tolist()):
        rows.setdefault(d, []).append((s, r, h))
    return {d: sorted(v) for d, v in rows.items()}


def assert_triples_as_counted(encoded: EncodedCorpus, sources: list[str], references: list[list[str]],
                              hypothesis: list[str], unit: str) -> None:
    """The hypothesis's n-grams with their (sigma, rho, eta), and the source and reference
    n-grams with (sigma, rho, 0), for every sentence and order, as Counter says."""
    hyp = encoded.hypothesis(hypothesis)
    for order in range(1, 5):
        for r in (0, 1, None):
            on_hypothesis = rows_by_sentence(encoded.hypothesis_triples(hyp, r, order))
            on_references = rows_by_sentence(encoded.reference_triples(r, order))
            for d in range(len(sources)):
                source, hyp_counts = (ngram_counter(x[d], order, unit) for x in (sources, hypothesis))
                per_reference = [ngram_counter(ref[d], order, unit) for ref in references]
                rho = per_reference[r] if r is not None else Counter(
                    {g: max(c[g] for c in per_reference) for c in per_reference for g in c})
                assert on_hypothesis.get(d, []) == sorted((source[g], rho[g], hyp_counts[g]) for g in hyp_counts)
                grams = set(source).union(*per_reference)
                assert on_references.get(d, []) == sorted((source[g], rho[g], 0) for g in grams)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_triples_equal_counters(core, data):
    """Exact counting: the hypothesis's n-grams with their (sigma, rho, eta), and the source and
    reference n-grams with (sigma, rho, 0), for every sentence and order, as Counter says
    (with the C loops and with the NumPy loops)."""
    size = data.draw(st.integers(1, 4))
    sources = data.draw(st.lists(sentence, min_size=size, max_size=size))
    references = [data.draw(st.lists(sentence, min_size=size, max_size=size)) for _ in range(2)]
    hypothesis = data.draw(st.lists(sentence, min_size=size, max_size=size))
    unit = data.draw(st.sampled_from(["word", "char"]))
    encoded = EncodedCorpus(sources, references, 4, unit, compiled=core)
    assert_triples_as_counted(encoded, sources, references, hypothesis, unit)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_sentences_repeating_their_source_and_references(core, data, monkeypatch):
    """Sentences that repeat another's source and references (an attribution's candidates of
    one sentence, in any order) have their source and reference n-grams merged once per group:
    the triples are still each sentence's, as Counter says, and every n-gram metric's
    statistics are those of the corpus encoded sentence by sentence."""
    distinct = data.draw(st.integers(1, 3))
    rows = [tuple(data.draw(sentence) for _ in range(3)) for _ in range(distinct)]
    size = data.draw(st.integers(max(4, 2 * distinct), 12))
    picked = [rows[data.draw(st.integers(0, distinct - 1))] for _ in range(size)]
    sources, references = [r[0] for r in picked], [[r[1] for r in picked], [r[2] for r in picked]]
    hypothesis = data.draw(st.lists(sentence, min_size=size, max_size=size))
    unit = data.draw(st.sampled_from(["word", "char"]))
    encoded = EncodedCorpus(sources, references, 4, unit, compiled=core)
    assert encoded._groups is not None and encoded._groups.size == len(set(picked))
    assert_triples_as_counted(encoded, sources, references, hypothesis, unit)
    metrics = [GLEU(), GLEU(variant="paper"), GLEU2015(), GREEN(unit=unit, beta=[0.5, 2])]
    grouped = [m.statistics(m.encode(sources, references), hypothesis) for m in metrics]
    with monkeypatch.context() as patched:  # (undone before hypothesis's next example)
        patched.setattr("gecmetrics.core.ngrams._RowGroups.SAVING", -1.0)  # every sentence its own row
        assert EncodedCorpus(sources, references, 4, unit, compiled=core)._groups is None
        for m, stats in zip(metrics, grouped):
            assert np.array_equal(stats, m.statistics(m.encode(sources, references), hypothesis)), m


@pytest.mark.parametrize("unit", ["word", "char"])
def test_an_encoded_corpus_pickles(core, unit):
    """An EncodedCorpus pickles (and copies) with the C loops as with the NumPy ones: its encoder
    counts its lines again where it is unpickled, and every metric scores the same with it,
    hypotheses with words it has not seen included, its rows grouped or not."""
    import copy
    import pickle

    sources = ["the cat sat", "a dog", "the cat sat", "the cat sat", "an owl"]
    references = [["the cat sits", "a dog", "the cat sits", "the cat sits", "an owl ."],
                  ["a cat sat", "dogs", "a cat sat", "a cat sat", "owls"]]
    hypotheses = [["the cat sits", "a dog", "a cat", "the cat sat", "an owl ."], ["zebras", "", "a b", "c", "the owl"]]
    for rows in (slice(None), slice(0, 2)):  # grouped (three sentences repeat their row), and not
        src, refs = sources[rows], [r[rows] for r in references]
        for metric in (GLEU(unit=unit), GLEU2015(unit=unit), GREEN(unit=unit, beta=[0.5, 2])):
            encoded = metric.encode(src, refs)
            assert encoded.encoder.compiled == core
            wanted = [metric.statistics(encoded, h[rows]) for h in hypotheses]
            for again in (pickle.loads(pickle.dumps(encoded)), copy.deepcopy(encoded)):
                assert (again._groups is None) == (encoded._groups is None)
                got = [metric.statistics(again, h[rows]) for h in hypotheses]
                assert all(np.array_equal(a, b) for a, b in zip(got, wanted)), metric


def test_distinct_ngrams_never_share_ids():
    # "a b" and "b a" and the same words across sentences and texts
    encoded = EncodedCorpus(["a b", "b a"], [["b a", "a b"]], 2)
    hyp = encoded.hypothesis(["a b c", "c b a"])
    # sentence 0: (a b) in S and H, (b c) in H only; sentence 1: (c b) in H only, (b a) in S and H
    assert rows_by_sentence(encoded.hypothesis_triples(hyp, 0, 2)) == {0: [(0, 0, 1), (1, 0, 1)],
                                                                       1: [(0, 0, 1), (1, 0, 1)]}
    # sentence 0: (a b) in S, (b a) in R; sentence 1: (b a) in S, (a b) in R
    assert rows_by_sentence(encoded.reference_triples(0, 2)) == {0: [(0, 1, 0), (1, 0, 0)], 1: [(0, 1, 0), (1, 0, 0)]}


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_unchanged_sentences_take_the_sources_rows(core, data):
    """A sentence left as its source line takes the row of the source scored as a hypothesis
    (computed once, for the sentences that need it): every n-gram metric's statistics of
    hypotheses in turn (lines from the source, from other hypotheses, new ones) are those of
    each hypothesis's whole text."""
    size = data.draw(st.integers(1, 5))
    sources = data.draw(st.lists(sentence, min_size=size, max_size=size))
    references = [data.draw(st.lists(sentence, min_size=size, max_size=size)) for _ in range(2)]
    unit = data.draw(st.sampled_from(["word", "char"]))
    metrics = [GREEN(unit=unit), GLEU(unit=unit), GLEU(variant="paper", n=2, unit=unit), GLEU2015(unit=unit)]
    encoded = EncodedCorpus(sources, references, 4, unit, compiled=core)
    earlier = [sources]
    for _ in range(data.draw(st.integers(1, 4))):
        hypothesis = [data.draw(st.sampled_from([line[d] for line in earlier]) | sentence) for d in range(size)]
        whole = encoded.encoder.encode(hypothesis)
        for metric in metrics:
            assert np.array_equal(metric.statistics(encoded, hypothesis), metric.text_statistics(encoded, whole))
        earlier.append(hypothesis)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_hypotheses_counted_with_the_source_score_as_counted_later(core, data, monkeypatch):
    """A corpus given its hypotheses beforehand (``hypotheses=``: their lines counted with the
    source and references in one pass, the line tables made at their size) scores every
    hypothesis, given or not, as the corpus that counts each hypothesis when it comes; the texts
    encoded are counted the same, and the line tables hold the same rows."""
    size = data.draw(st.integers(1, 5))
    sources = data.draw(st.lists(sentence, min_size=size, max_size=size))
    references = [data.draw(st.lists(sentence, min_size=size, max_size=size)) for _ in range(2)]
    hypotheses = [data.draw(st.lists(sentence, min_size=size, max_size=size)) for _ in range(3)]
    given_before = hypotheses[:data.draw(st.integers(0, 3))]
    unit = data.draw(st.sampled_from(["word", "char"]))
    metrics = [GREEN(unit=unit, beta=[0.5, 2]), GLEU(unit=unit), GLEU2015(unit=unit)]
    later = EncodedCorpus(sources, references, 4, unit, compiled=core)
    with monkeypatch.context() as patched:  # (lines counted in calls of a few characters, or all in one)
        patched.setattr("gecmetrics.core.ngrams.LEARN_CHARACTERS", data.draw(st.sampled_from([1, 7, 1 << 21])))
        before = EncodedCorpus(sources, references, 4, unit, compiled=core, hypotheses=given_before)
    for hypothesis in hypotheses:
        for metric in metrics:
            assert np.array_equal(metric.statistics(before, hypothesis), metric.statistics(later, hypothesis))
    assert before.encoder.calls == later.encoder.calls
    assert set(before.encoder._line_index) == set(later.encoder._line_index)
    lines = sorted(later.encoder._line_index)
    for k in range(4):
        tables = [e.encoder.gather(e.encoder.line_ids(lines)).tables[k] for e in (before, later)]
        # (n-gram ids follow the order lines were counted in: each sentence's counts, in any order)
        assert [sorted(zip((t.keys >> 32).tolist(), t.counts.tolist())) for t in tables] \
            == [sorted(zip((tables[1].keys >> 32).tolist(), tables[1].counts.tolist()))] * 2


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_the_compiled_merges_are_the_gathered_tables(data, monkeypatch):
    """The C merge of the sides' lines from the line tables (``merge_sides``) gives the keys,
    source counts, each reference's counts (kept whole or as places) and row edges that
    gathering each side's table, merging their keys and looking each side up gives, with the
    rows as sentences or as groups of sentences repeating their source and references; and a
    hypothesis's n-grams placed on those keys by the C merge (``place_rows``, all sentences or
    some) are what its gathered table looked up gives."""
    from gecmetrics.core import backend, ngrams

    if backend.compiled is None:
        pytest.skip("the C extension is not built")
    rows = [tuple(data.draw(sentence) for _ in range(4)) for _ in range(data.draw(st.integers(1, 4)))]
    picked = [rows[data.draw(st.integers(0, len(rows) - 1))] for _ in range(data.draw(st.integers(1, 9)))]
    sources, references = [r[0] for r in picked], [[r[k] for r in picked] for k in (1, 2, 3)]
    unit = data.draw(st.sampled_from(["word", "char"]))
    with monkeypatch.context() as patched:
        patched.setattr(ngrams, "DENSE_REFERENCE_CELLS", data.draw(st.sampled_from([0, 1 << 24])))
        merged = EncodedCorpus(sources, references, 4, unit, compiled=True)
        gathered = EncodedCorpus(sources, references, 4, unit, compiled=True)
        gathered.encoder.compiled = False  # (its sides gathered and merged by NumPy; no new line comes)
        for order in range(1, 5):
            (keys, sigma, counts, edges), (keys2, sigma2, counts2, edges2) = (
                e._reference_side(order) for e in (merged, gathered))
            assert [keys.tolist(), sigma.tolist(), edges.tolist()] == [keys2.tolist(), sigma2.tolist(), edges2.tolist()]
            assert (counts.dense is None) == (counts2.dense is None)
            assert all(np.array_equal(counts[r], counts2[r]) for r in range(3))
            assert np.array_equal(counts.largest(), counts2.largest())
        # a hypothesis's n-grams placed on those keys by the C merge, as its gathered table says
        hypothesis = [data.draw(sentence | st.sampled_from([sources[d]])) for d in range(len(sources))]
        lines = merged.encoder.line_ids(hypothesis)
        for chosen in (None, np.array([data.draw(st.booleans()) for _ in hypothesis])):
            lazy, gathered_text = merged.encoder.text(lines, chosen), merged.encoder.gather(lines, chosen)
            for order in range(1, 5):
                placed, looked_up = (merged._hypothesis_side(text, order) for text in (lazy, gathered_text))
                assert all(np.array_equal(getattr(placed, f), getattr(looked_up, f))
                           for f in ("shared", "position", "place", "sentence", "sigma", "eta", "edges"))


def test_a_growing_array_takes_its_first_values_and_copies_on_growth():
    """The line tables' array keeps the first values it is given as they are (read-only bytes
    from the C loops included), and grows into a new array of its own afterwards."""
    from gecmetrics.core.ngrams import _GrowingArray

    first = np.frombuffer(np.arange(3, dtype=np.int64).tobytes(), np.int64)
    grown = _GrowingArray()
    grown.extend(first)
    grown.extend(np.array([], np.int64))  # (nothing to write into the read-only array)
    assert grown.values.tolist() == [0, 1, 2]
    grown.extend(np.array([7, 8], np.int64))
    assert grown.values.tolist() == [0, 1, 2, 7, 8] and first.tolist() == [0, 1, 2]
    grown.extend(np.array([9], np.int64))
    assert grown.values.tolist() == [0, 1, 2, 7, 8, 9]


def test_hypotheses_are_counted_once():
    encoded = EncodedCorpus(["a b"], [["a c"]], 2)
    first = encoded.hypothesis(["a b"])
    assert encoded.hypothesis(["a b"]) is first
    assert encoded.encoder.calls == 3


def test_decode_lines():
    assert decode_lines(b"a\nb\n", "f") == ["a", "b"]
    assert decode_lines(b"a\nb", "f") == ["a", "b"]          # final line without newline counts
    assert decode_lines(b"a\r\nb\r\n", "f") == ["a", "b"]    # CRLF
    assert decode_lines(b"a\rb\n", "f") == ["a\rb"]          # a lone CR is a character
    assert decode_lines(b"\xef\xbb\xbfa\n", "f") == ["a"]     # BOM dropped
    assert decode_lines(b"\n\n", "f") == ["", ""]            # empty lines are sentences
    assert decode_lines(b"", "f") == []
    with pytest.raises(InputError, match=r"^f:3: invalid UTF-8"):
        decode_lines(b"a\nb\n\xff\n", "f")


def test_read_corpus_errors(tmp_path):
    (tmp_path / "src").write_text("a\nb\n")
    (tmp_path / "ref").write_text("a\n")
    with pytest.raises(InputError, match="has 1 line but the source .* has 2"):
        read_corpus(str(tmp_path / "src"), [str(tmp_path / "ref")])
    with pytest.raises(InputError, match="no such file"):
        read_corpus(str(tmp_path / "missing"), [str(tmp_path / "ref")])


def test_units_and_warnings():
    assert split_units("a\u00a0b  c") == ["a", "b", "c"]
    assert split_units(" ab ", "char") == [" ", "a", "b", " "]
    assert split_units(" a  b ", "char", normalize_space=True) == ["a", " ", "b"]
    assert whitespace_warnings(["a\u00a0b", "x"], "f", "word")[0].startswith("gecmetric: warning: f: 1 line contains whitespace")
    assert whitespace_warnings(["ab ", "a  b", "ok"], "f", "char")[0].startswith("gecmetric: warning: f: 2 lines have whitespace other than")
    assert whitespace_warnings(["ab "], "f", "char", normalize_space=True) == []
    assert whitespace_warnings(["a b"], "f", "word") == []


WHITESPACE_ALPHABET = [" ", "\t", "\n", "\r", "\x0b", "\x0c", "\x1c", "\x1f", "\xa0", "\x85", "\u2028", "\u3000", "a",
                       "b", "\u00e9"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.text(alphabet=WHITESPACE_ALPHABET, max_size=6), max_size=6))
@example([" a", "b"])
@example(["a", "b "])
@example(["a", "", "b"])
@example(["a  b"])
@example(["a \u3000b"])
@example(["\u00e9", "a\x1cb"])
@example(["a b", "\u00e9\xa0b"])
@example(["\u00e9 b", "a"])
def test_whitespace_count_of_a_chunk_is_the_count_of_its_lines(lines):
    """The joined-chunk shortcut counts the lines that the per-line rules count, in every case:
    empty lines, a line that is one space, whitespace at the joins, non-ASCII lines."""
    from gecmetrics.core.units import _has_other_whitespace, _has_stray_space, whitespace_count

    assert whitespace_count(lines, "word") == sum(map(_has_other_whitespace, lines))
    assert whitespace_count(lines, "char") == sum(map(_has_stray_space, lines))
    assert whitespace_count(lines, "char", normalize_space=True) == 0


def test_ids_are_exact_for_many_distinct_ngrams():
    rng = np.random.default_rng(1)
    words = [" ".join(f"w{x}" for x in rng.integers(0, 3000, size=30)) for _ in range(300)]
    encoded = EncodedCorpus(words, [words], 4)
    hyp = encoded.hypothesis(words)
    for order in range(1, 5):
        t = encoded.hypothesis_triples(hyp, 0, order)
        assert np.array_equal(t.sigma, t.eta) and np.array_equal(t.rho, t.eta)
        assert int(t.eta.sum()) == sum(max(0, 30 - order + 1) for _ in words)


def test_lazy_public_names_are_the_documented_objects():
    """Every public name resolves to its object, also after the submodules were imported
    (a submodule named like a function would shadow it)."""
    import gecmetrics
    import gecmetrics.cli.compare  # noqa: F401
    import gecmetrics.cli.meta  # noqa: F401

    for name in gecmetrics.__all__:
        value = getattr(gecmetrics, name)
        assert not isinstance(value, type(gecmetrics)), name
    assert callable(gecmetrics.compare) and callable(gecmetrics.paired_test)


def test_hypotheses_in_turn_use_their_own_rows():
    """Only the latest hypothesis is cached: scoring many different hypotheses in turn on one
    encoding (old ones freed, their memory reused) gives what a fresh encoding gives."""
    from gecmetrics import GLEU, GREEN

    sources = ["a b c d", "b c d e f", "a a b"]
    references = [["a b c e", "b c d f", "a b"], ["a c d", "b c d e f", "a a b b"]]
    hypotheses = [[" ".join(s.split()[k:] + s.split()[:k]) for s in sources] for k in range(12)]
    shared = EncodedCorpus(sources, references, 4)
    for metric in (GLEU(n=4), GREEN(n=4)):
        for hypothesis in hypotheses + hypotheses[::-1]:
            fresh = metric.statistics(EncodedCorpus(sources, references, 4), hypothesis)
            np.testing.assert_array_equal(metric.statistics(shared, hypothesis), fresh)


@settings(max_examples=300, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e30, max_value=1e30), st.integers(0, 20))
def test_printed_numbers_are_fixed_point_at_any_digits(value, digits):
    """Every command prints numbers through round_half_up: fixed point whatever the digits (at -d 7
    a zero printed '0E-7', 1e-9 at -d 12 '1.000E-9'), no '-0', the value half up."""
    from decimal import ROUND_HALF_UP, Decimal, localcontext

    from gecmetrics.core.table import round_half_up

    text = round_half_up(value, digits)
    assert "E" not in text and "e" not in text and not (text.startswith("-") and not text.strip("-0."))
    assert len(text.partition(".")[2]) == digits
    with localcontext() as context:
        context.prec = 100
        exact = Decimal(repr(value)).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)
        assert Decimal(text) == exact
    assert round_half_up(0, 7) == "0.0000000" and round_half_up(1e-9, 12) == "0.000000001000"


# str(x) of Python 2.7.18 for each x (run there: python2.7 -c "print str(x)")
PYTHON2_STR = [
    (1.0, "1.0"), (0.0, "0.0"), (-0.0, "-0.0"), (2.0, "2.0"), (100.0, "100.0"), (99999999999.0, "99999999999.0"),
    (100000000000.0, "1e+11"), (123456789012.0, "1.23456789012e+11"), (-123456789012.0, "-1.23456789012e+11"),
    (999999999999.0, "9.99999999999e+11"), (999999999999.5, "1e+12"), (99999999999.99, "1e+11"),
    (12345678901.5, "12345678901.5"), (1e15, "1e+15"), (1e16, "1e+16"), (0.1, "0.1"), (1 / 3, "0.333333333333"),
    (2 / 3, "0.666666666667"), (9 / 22, "0.409090909091"), (0.15625, "0.15625"), (1e-05, "1e-05"),
    (0.0001, "0.0001"), (0.000099999999999999, "0.0001"), (1 / 30000, "3.33333333333e-05"),
    (0.00012345678901234, "0.000123456789012"), (5e-324, "4.94065645841e-324"), (1.5e-07, "1.5e-07"),
    (1.7976931348623157e308, "1.79769313486e+308"), (math.inf, "inf"), (-math.inf, "-inf"), (math.nan, "nan")]


@pytest.mark.parametrize("value, written", PYTHON2_STR)
def test_python2_str_writes_floats_as_python2(value, written):
    """What a Python 2 tool prints of a float (the m2scorer's -v report): 12 significant digits,
    '.0' after a whole number, an exponent from 12 digits before the point on (where '%.12g'
    writes them all), tiny and huge values in exponent form."""
    from gecmetrics.core.table import python2_str

    assert python2_str(value) == written


def test_score_lines_print_as_the_packages_print():
    """``path<TAB>score`` lines (gleu, green): x100 or as fractions, rounded half up, in the form
    the gleu and GREEN packages print (a zero past 6 decimals ``0E-7``), a path's tab escaped."""
    import inspect

    from gecmetrics.core.table import score_lines

    assert score_lines([("a\tb", [0.0, 0.123456785])], 7, ["path", "x"]) == "path\tx\na\\tb\t0E-7\t12.3456785"
    assert score_lines([("a", [0.5])], 4, scale=1) == "a\t0.5000"
    assert list(inspect.signature(score_lines).parameters) == ["rows", "digits", "header", "scale"]


def test_scaled_numbers_carry_no_binary_noise_and_fractions_stay_exact():
    """A fraction x100 for JSON and TSV is the 15-significant-digit value, not the product's last
    bits (100 * 0.07 is 7.000000000000001); --scale 1 keeps the fraction exactly; NaN stays NaN;
    arrays keep their shape; the scale rule's factor: fractions x scale, others x1."""
    import math

    from gecmetrics.core.table import scale_factor, scaled_number, score_value

    assert 100 * 0.07 != 7 and scaled_number(0.07) == 7.0 and scaled_number(7 / 25, 100) == 28.0
    assert scaled_number(11 / 20) == 55.0 and score_value(7 / 25) == 28.0 and score_value(float("nan")) is None
    assert scaled_number(1 / 3) == 33.3333333333333 and scaled_number(2 / 3, 1) == 2 / 3
    assert math.isnan(scaled_number(float("nan"))) and scaled_number(float("inf")) == float("inf")
    assert scaled_number(np.array([[0.07, 0.5], [7 / 25, 0.0]])) == [[7.0, 50.0], [28.0, 0.0]]
    assert scaled_number(np.array([0.07, 7 / 25]), 1) == [0.07, 7 / 25]
    assert all(type(x) is float for x in scaled_number(np.float32([0.5, 0.25])))

    class Judge:
        fraction = False

    assert scale_factor(True, 1) == 1.0 and scale_factor(True) == 100.0 and scale_factor(False, 100) == 1.0
    assert scale_factor(Judge(), 100) == 1.0 and scale_factor(GLEU(), 100) == 100.0


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.floats(min_value=-1e20, max_value=1e20, allow_nan=False),
                 st.integers(0, 10 ** 6).map(lambda k: k / 10 ** 6), st.sampled_from([0.15625, 0.66665, 0.00015,
                                                                                      600479950316068.125])))
def test_a_tool_rounded_figure_has_every_digit_of_its_binary_value(value):
    """Where the original prints "{:.4f}" (the M2 family, GoToScorer), the figure at that
    precision is its every digit: GoToScorer's F near 6 x 10^14 (negative weights) printed
    600479950316068.1000 from the 17 digits of the shortest repr, the original ...068.1250."""
    from decimal import Decimal

    from gecmetrics.core.table import scaled

    expected = "{:.4f}".format(value)
    expected = expected[1:] if expected.startswith("-") and not expected.strip("-0.") else expected  # no -0.0000
    assert scaled(value, 4, 1, rounds_to=4) == expected
    assert scaled(value, 2, 100, rounds_to=4) == format(Decimal(expected).scaleb(2), ".2f")  # x100: the point moved


def test_whitespace_warnings_come_in_the_metrics_order_whatever_the_hash_seed():
    """``compare --metrics gleu,green-char`` printed its word and character whitespace warnings in
    an order that changed from run to run (a set of (unit, normalize_space) pairs: str hashes are
    seeded per process). The order is the metrics'."""
    import subprocess
    import sys

    script = ("from gecmetrics.core.units import TextChecks\n"
              "checks = TextChecks([('word', False, 4, True), ('char', False, 4, False), ('word', True, 2, True)])\n"
              "checks.observe([('f', ['a\\u00a0b ', ' c  d'])])\n"
              "print(checks.warnings())\n")
    seen = {subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                           env={**__import__("os").environ, "PYTHONHASHSEED": str(seed)}).stdout for seed in range(8)}
    assert len(seen) == 1, seen


def test_the_word_whitespace_warning_is_about_gec_ranking_alone():
    """GREEN word warned that gec-ranking (Python 2) would split a no-break space otherwise: the
    original GREEN is Python 3 (str.split), as ours; GLEU+ and the 2015 GLEU keep the warning."""
    from gecmetrics import get_metric
    from gecmetrics.metrics.running import text_checks

    lines = ["a\u00a0b c", "d e"]
    for names, warned in ((["green"], False), (["gleu"], True), (["gleu0"], True), (["green", "gleu"], True)):
        checks = text_checks([get_metric(name) for name in names])
        checks.observe([("hyp", lines)])
        assert any("Python 2 did not split on" in line for line in checks.warnings()) is warned, names
    checks = text_checks([get_metric("green", unit="char")])
    checks.observe([("hyp", ["a  b"])])
    assert any("whitespace other than single spaces" in line for line in checks.warnings())


def test_gec_rankings_draws_in_c_are_summed_in_short_calls_that_a_stop_ends(monkeypatch):
    """One C call summed all 500 iterations: Ctrl-C at 1.5 million lines waited up to 9 s for it.
    The calls now take STOP_DRAWS draws each, the same sums, and a stop asked for ends the loop."""
    import signal

    from gecmetrics.core import aggregate, stop
    from gecmetrics.core.backend import compiled_core_enabled

    if not compiled_core_enabled():
        pytest.skip("the C extension is not built")
    stats = np.random.default_rng(0).integers(0, 9, size=(5000, 2, 4)).astype(np.int64)
    monkeypatch.setattr(aggregate, "DRAW_BUDGET_BYTES", 0)  # the C path whatever the size
    whole = aggregate.python2_sampled_sums(stats, 12)
    monkeypatch.setattr(aggregate, "STOP_DRAWS", 5000 * 5)  # 5 iterations a call: 3 calls
    assert np.array_equal(aggregate.python2_sampled_sums(stats, 12), whole)
    assert np.array_equal(aggregate.sampled_sums(stats, aggregate.draw_blocks(12, 5000, 2)), whole)
    with aggregate.reducer_threads(2):
        assert np.array_equal(aggregate.python2_sampled_sums(stats, 12), whole)
    monkeypatch.setattr(stop, "_REQUESTED", [(signal.SIGTERM, 0.0)])
    with pytest.raises(SystemExit) as stopped:
        aggregate.python2_sampled_sums(stats, 12)
    assert stopped.value.code == 128 + signal.SIGTERM
