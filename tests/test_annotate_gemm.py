"""The exact matrix product for spaCy's networks (gecmetrics/_gemm.c, annotate/fastgemm.py):
the documented rounding order, the same bits as the installed BLIS where it runs its generic
kernel, and the same parses as spaCy's own products."""
from __future__ import annotations

import numpy as np
import pytest

from gecmetrics.annotate import SpacyModel
from gecmetrics.annotate import fastgemm
from gecmetrics.corpus import read_lines
from tests.conftest import SPACY_TEST_MODEL as MODEL

needs_extension = pytest.mark.skipif(fastgemm.compiled is None, reason="gecmetrics._gemm was not built")


def blocked_reference(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a @ b in float32 as BLIS's generic kernel rounds it: per block of 256 k, a sum from zero
    of single products (each operation rounded), the blocks' sums added to C in order."""
    result = None
    for start in range(0, a.shape[1], 256):
        block = np.zeros((a.shape[0], b.shape[1]), dtype=np.float32)
        for k in range(start, min(a.shape[1], start + 256)):
            block = block + a[:, k, None] * b[None, k, :]
        result = block if result is None else result + block
    return result


@needs_extension
@pytest.mark.parametrize("rows,inner,columns", [(1, 1, 1), (3, 5, 17), (9, 256, 16), (6, 257, 33), (21, 530, 40)])
@pytest.mark.parametrize("transposed", [False, True])
def test_product_rounds_as_the_blocked_sum(rows, inner, columns, transposed):
    generator = np.random.default_rng(rows * 1000 + inner)
    a = generator.standard_normal((rows, inner), dtype=np.float32)
    b = generator.standard_normal((inner, columns), dtype=np.float32)
    given = np.ascontiguousarray(b.T) if transposed else b
    ours = fastgemm.product(a, given, transposed)
    assert np.array_equal(ours, blocked_reference(a, b))
    # and not merely close to a product: a plain float64 one differs in some bits
    if inner > 256:
        assert not np.array_equal(ours, (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32))


@needs_extension
def test_product_rejects_wrong_arrays():
    a = np.zeros((2, 3), dtype=np.float32)
    with pytest.raises(ValueError):
        fastgemm.compiled.gemm(a, np.zeros((4, 2), dtype=np.float32), np.zeros((2, 2), dtype=np.float32), False)
    with pytest.raises(ValueError):
        fastgemm.compiled.gemm(a.astype(np.float64), np.zeros((3, 2), dtype=np.float32),
                               np.zeros((2, 2), dtype=np.float32), False)


@needs_extension
def test_product_equals_blis_where_blis_runs_the_generic_kernel(spacy_model):
    from thinc.api import NumpyOps

    generator = np.random.default_rng(7)
    a = generator.standard_normal((50, 288), dtype=np.float32)
    b = generator.standard_normal((96, 288), dtype=np.float32)
    blis = NumpyOps(use_blis=True).gemm(a, b, trans2=True)
    if not np.array_equal(blis, blocked_reference(a, np.ascontiguousarray(b.T))):
        assert not fastgemm.matches_installed_blis()
        pytest.skip("the installed BLIS does not run its generic kernel on this CPU (spaCy keeps its own gemm)")
    assert fastgemm.matches_installed_blis()
    assert np.array_equal(fastgemm.product(a, b, True), blis)


def test_environment_variable_and_a_mismatch_keep_spacys_gemm(monkeypatch):
    monkeypatch.setenv(fastgemm.DISABLE_VARIABLE, "1")
    assert not fastgemm.enabled()
    monkeypatch.delenv(fastgemm.DISABLE_VARIABLE)
    monkeypatch.setattr(fastgemm, "matches_installed_blis", lambda: False)
    assert not fastgemm.enabled()
    assert fastgemm.install(object()) is False


def test_exact_gemm_gives_spacys_parses_and_tensors(spacy_model, conll14, monkeypatch):
    """Lines of CoNLL-2014 parsed with the exact product and with BLIS: the same ParsedSentence
    and the same tok2vec output bits."""
    if not spacy_model.exact_gemm:
        pytest.skip("the exact product is not in use here (not built, or BLIS is not running its generic kernel)")
    monkeypatch.setenv(fastgemm.DISABLE_VARIABLE, "1")
    plain = SpacyModel(MODEL)
    assert plain.nlp is not None and not plain.exact_gemm
    texts = [" ".join(line.split()) for name in ("INPUT", "AMU") for line in read_lines(str(conll14 / name))[:120]]
    texts = [text for text in texts if text]
    assert spacy_model.parse(texts) == plain.parse(texts)
    from spacy.tokens import Doc

    ours = list(spacy_model.nlp.pipe(Doc(spacy_model.nlp.vocab, words=t.split()) for t in texts[:60]))
    theirs = list(plain.nlp.pipe(Doc(plain.nlp.vocab, words=t.split()) for t in texts[:60]))
    assert all(np.array_equal(x.tensor, y.tensor) for x, y in zip(ours, theirs))
    # the products really went through the C kernel
    assert type(spacy_model.nlp.get_pipe("tok2vec").model.ops).__name__ == "ExactGemmOps"


def test_parses_equal_an_unmodified_spacy_pipeline(spacy_model, conll14):
    """Exact products, lemma index sets and rule reuse together: every field ERRANT reads is what
    a freshly loaded, untouched spaCy pipeline gives (including lemmas of nouns and verbs, which
    go through the rule lemmatizer's index)."""
    import spacy
    from spacy.tokens import Doc

    from gecmetrics.annotate.parse import ParsedSentence
    from gecmetrics.annotate.rulecache import index_lists_as_sets

    texts = [" ".join(line.split()) for name in ("CAMB", "REF0") for line in read_lines(str(conll14 / name))[:150]]
    texts = [text for text in texts if text]
    nlp = spacy.load(MODEL, exclude=["ner"])
    index = nlp.get_pipe("lemmatizer").lookups.get_table("lemma_index")
    assert all(isinstance(words, list) for words in index.values())  # untouched
    expected = [ParsedSentence(tuple(t.text for t in doc), tuple(t.lower_ for t in doc), tuple(t.lemma_ for t in doc),
                               tuple(t.pos_ for t in doc), tuple(t.tag_ for t in doc), tuple(t.dep_ for t in doc),
                               tuple(t.head.i for t in doc), tuple(bool(t.whitespace_) for t in doc))
                for doc in nlp.pipe(Doc(nlp.vocab, words=text.split()) for text in texts)]
    assert spacy_model.parse(texts) == expected
    assert index_lists_as_sets(nlp) and all(isinstance(words, frozenset) for words in index.values())
