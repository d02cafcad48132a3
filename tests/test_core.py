"""The shared counting core and input reading (SPEC 1)."""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gecmetrics import InputError
from gecmetrics.corpus import decode_lines, read_corpus
from gecmetrics.ngrams import EncodedCorpus
from gecmetrics.units import split_units, whitespace_warnings

sentence = st.lists(st.sampled_from(["a", "b", "c", "d"]), max_size=9).map(" ".join)


def ngram_counter(line: str, n: int, unit: str = "word") -> Counter:
    units = split_units(line, unit)
    return Counter(tuple(units[i:i + n]) for i in range(len(units) - n + 1))


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_triples_equal_counters(data):
    """Exact counting: for every sentence, order and n-gram, (sigma, rho, eta) as Counter says."""
    size = data.draw(st.integers(1, 4))
    sources = data.draw(st.lists(sentence, min_size=size, max_size=size))
    references = data.draw(st.lists(sentence, min_size=size, max_size=size))
    hypothesis = data.draw(st.lists(sentence, min_size=size, max_size=size))
    unit = data.draw(st.sampled_from(["word", "char"]))
    encoded = EncodedCorpus(sources, [references], 4, unit)
    hyp = encoded.hypothesis(hypothesis)
    for order in range(1, 5):
        triples = encoded.triples(hyp, 0, order)
        got = Counter()
        for d, s, r, h in zip(triples.sentence, triples.sigma, triples.rho, triples.eta):
            if s + r + h > 0:  # rows of n-grams found only in other references are (0, 0, 0)
                got[int(d)] += 1
        for d in range(size):
            counts = [ngram_counter(x[d], order, unit) for x in (sources, references, hypothesis)]
            grams = set().union(*counts)
            assert got[d] == len(grams)
            rows = (triples.sentence == d) & (triples.sigma + triples.rho + triples.eta > 0)
            expected = sorted((counts[0][g], counts[1][g], counts[2][g]) for g in grams)
            observed = sorted(zip(triples.sigma[rows].tolist(), triples.rho[rows].tolist(), triples.eta[rows].tolist()))
            assert observed == expected


def test_distinct_ngrams_never_share_ids():
    # "a b" and "b a" and the same words across sentences and texts
    encoded = EncodedCorpus(["a b", "b a"], [["b a", "a b"]], 2)
    hyp = encoded.hypothesis(["a b c", "c b a"])
    t = encoded.triples(hyp, 0, 2)
    # sentence 0: (a b) in S and H, (b a) in R, (b c) in H; sentence 1: (b a) in S and H,
    # (a b) in R, (c b) in H
    assert sorted(zip(t.sentence.tolist(), t.sigma.tolist(), t.rho.tolist(), t.eta.tolist())) == [
        (0, 0, 0, 1), (0, 0, 1, 0), (0, 1, 0, 1), (1, 0, 0, 1), (1, 0, 1, 0), (1, 1, 0, 1)]


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
    with pytest.raises(InputError, match="has 1 lines but the source .* has 2"):
        read_corpus(str(tmp_path / "src"), [str(tmp_path / "ref")])
    with pytest.raises(InputError, match="no such file"):
        read_corpus(str(tmp_path / "missing"), [str(tmp_path / "ref")])


def test_units_and_warnings():
    assert split_units("a\u00a0b  c") == ["a", "b", "c"]
    assert split_units(" ab ", "char") == [" ", "a", "b", " "]
    assert split_units(" a  b ", "char", normalize_space=True) == ["a", " ", "b"]
    assert whitespace_warnings(["a\u00a0b", "x"], "f", "word")[0].startswith("warning: f: 1 line(s)")
    assert whitespace_warnings(["ab ", "a  b", "ok"], "f", "char")[0].startswith("warning: f: 2 line(s)")
    assert whitespace_warnings(["ab "], "f", "char", normalize_space=True) == []
    assert whitespace_warnings(["a b"], "f", "word") == []


def test_ids_are_exact_for_many_distinct_ngrams():
    rng = np.random.default_rng(1)
    words = [" ".join(f"w{x}" for x in rng.integers(0, 3000, size=30)) for _ in range(300)]
    encoded = EncodedCorpus(words, [words], 4)
    hyp = encoded.hypothesis(words)
    for order in range(1, 5):
        t = encoded.triples(hyp, 0, order)
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
