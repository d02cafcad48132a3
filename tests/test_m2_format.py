"""M2 reader/writer: parsing, tolerance of blank lines, line-exact errors, round trip."""
from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gecmetrics.errors import InputError
from gecmetrics.io.m2 import Block, Edit, format_m2, parse_m2, read_m2, write_m2

SAMPLE = """S The cat sat on mat .
A 4 4|||ArtOrDet|||the|||REQUIRED|||-NONE-|||0
A 1 2|||Nn|||dogs||cats|||REQUIRED|||-NONE-|||1
A 5 6|||Mec||||||REQUIRED|||-NONE-|||1

S Nothing to do here .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S No lines at all .
"""


def test_parse_sample_fields_and_lines():
    blocks = parse_m2(SAMPLE, "sample.m2")
    assert [b.line for b in blocks] == [1, 6, 9]
    first = blocks[0]
    assert first.source == "The cat sat on mat ."
    assert first.tokens == ["The", "cat", "sat", "on", "mat", "."]
    assert first.annotators() == [0, 1]
    assert first.edits[0] == Edit(4, 4, "ArtOrDet", "the", "REQUIRED", "-NONE-", 0)
    # the correction field is kept raw: alternatives and the empty deletion
    assert first.edits[1].correction == "dogs||cats"
    assert first.edits[1].alternatives == ["dogs", "cats"]
    assert first.edits[2].correction == ""
    assert [e.is_noop for e in first.edits] == [False, False, False]
    assert blocks[1].edits[0].is_noop and blocks[1].annotators() == [0]
    assert blocks[2].edits == [] and blocks[2].annotators() == []


def test_noop_by_type_or_by_span():
    assert Edit(-1, -1, "Mec", "x", "REQUIRED", "-NONE-", 0).is_noop
    assert Edit(0, 1, "noop", "x", "REQUIRED", "-NONE-", 0).is_noop
    assert not Edit(0, 0, "Mec", "-NONE-", "REQUIRED", "-NONE-", 0).is_noop
    assert Edit(0, 1, "Mec", "-NONE-").alternatives == [""]


def test_blank_line_tolerance_crlf_bom_and_missing_final_blank():
    text = "\ufeff\n\nS a b\r\nA 0 1|||X|||c|||REQUIRED|||-NONE-|||0\r\n\r\n\r\n   \nS d\nA 1 1|||Y|||e|||REQUIRED|||-NONE-|||2"
    blocks = parse_m2(text, "x.m2")
    assert [b.source for b in blocks] == ["a b", "d"]
    assert [b.line for b in blocks] == [3, 8]
    assert blocks[1].edits[0].annotator == 2 and blocks[1].edits[0].start == 1


def test_empty_source_and_empty_file():
    assert parse_m2("", "e.m2") == []
    blocks = parse_m2("S\nA 0 0|||X|||hello|||REQUIRED|||-NONE-|||0\n", "e.m2")
    assert blocks[0].source == "" and blocks[0].tokens == [] and blocks[0].edits[0].correction == "hello"


@pytest.mark.parametrize("text, line, fragment", [
    ("A 0 1|||X|||y|||REQUIRED|||-NONE-|||0\n", 1, "no 'S' line"),
    ("S a b\nA 0 1|||X|||y|||REQUIRED|||0\n", 2, "found 5"),
    ("S a b\nA 0 1|||X|||y|||REQUIRED|||-NONE-|||0|||extra\n", 2, "found 7"),
    ("S a b\nA 0 x|||X|||y|||REQUIRED|||-NONE-|||0\n", 2, "two integer"),
    ("S a b\nA 0|||X|||y|||REQUIRED|||-NONE-|||0\n", 2, "two integer"),
    ("S a b\nA 1.0 2|||X|||y|||REQUIRED|||-NONE-|||0\n", 2, "two integer"),
    ("S a b\nA 0 3|||X|||y|||REQUIRED|||-NONE-|||0\n", 2, "beyond the sentence (2 tokens)"),
    ("S a b\nA 2 1|||X|||y|||REQUIRED|||-NONE-|||0\n", 2, "starts after it ends"),
    ("S a b\nA -1 0|||X|||y|||REQUIRED|||-NONE-|||0\n", 2, "negative"),
    ("S a b\nA -2 -2|||noop|||y|||REQUIRED|||-NONE-|||0\n", 2, "negative"),
    ("S a b\nA 0 1|||X|||y|||REQUIRED|||-NONE-|||one\n", 2, "annotator id 'one'"),
    ("S a b\nA 0 1|||X|||y|||REQUIRED|||-NONE-|||-1\n", 2, "annotator id '-1'"),
    ("S a b\n\nS c\nB 0 1\n", 4, "not an M2 line"),
    ("S a b\nS c d\n", 2, "inside a block"),
    ("S a b\nA\n", 2, "found 1"),
])
def test_errors_name_file_and_line(text, line, fragment):
    with pytest.raises(InputError) as info:
        parse_m2(text, "bad.m2")
    assert info.value.path == "bad.m2"
    assert info.value.line == line
    assert fragment in str(info.value)
    assert str(info.value).startswith(f"bad.m2:{line}: ")


def test_noop_span_and_end_of_sentence_insertion_are_valid():
    blocks = parse_m2("S a b\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\nA 2 2|||X|||.|||REQUIRED|||-NONE-|||1\n", "ok")
    assert [(e.start, e.end) for e in blocks[0].edits] == [(-1, -1), (2, 2)]


def test_read_m2_reports_path_and_line(tmp_path):
    path = tmp_path / "gold.m2"
    path.write_text("S a b\nA 0 1|||X|||y|||REQUIRED|||-NONE-|||0\n\nS c\nA 0 5|||X|||y|||REQUIRED|||-NONE-|||0\n")
    with pytest.raises(InputError) as info:
        read_m2(str(path))
    assert info.value.path == str(path) and info.value.line == 5
    with pytest.raises(InputError, match="no such file"):
        read_m2(str(tmp_path / "missing.m2"))


def test_write_m2_layout():
    blocks = parse_m2(SAMPLE, "sample.m2")
    handle = io.StringIO()
    write_m2(blocks, handle)
    assert handle.getvalue() == SAMPLE + "\n"
    assert format_m2(blocks) == SAMPLE + "\n"
    # a path for the handle, or text for the blocks, was an AttributeError
    for wrong_blocks, wrong_handle, message in ((blocks, "out.m2", "open text file"), (SAMPLE, handle, "M2 blocks"),
                                                (None, handle, "M2 blocks"), (["S a b"], handle, "M2 blocks")):
        with pytest.raises(InputError, match=message):
            write_m2(wrong_blocks, wrong_handle)
    empty = io.StringIO()
    write_m2([], empty)
    assert empty.getvalue() == ""


tokens = st.lists(st.sampled_from(["a", "b", "the", ".", "é"]), max_size=6)


@st.composite
def blocks_strategy(draw):
    blocks = []
    for _ in range(draw(st.integers(0, 4))):
        words = draw(tokens)
        edits = []
        for _ in range(draw(st.integers(0, 3))):
            if draw(st.booleans()):
                start, end = -1, -1
            else:
                start = draw(st.integers(0, len(words)))
                end = draw(st.integers(start, len(words)))
            correction = draw(st.sampled_from(["-NONE-", "", "x", "x y", "p||q"]))
            edits.append(Edit(start, end, draw(st.sampled_from(["noop", "Mec", "R:NOUN"])), correction,
                              "REQUIRED", "-NONE-", draw(st.integers(0, 3))))
        blocks.append(Block(" ".join(words), edits))
    return blocks


@settings(max_examples=60, deadline=None)
@given(blocks_strategy())
def test_round_trip(blocks):
    parsed = parse_m2(format_m2(blocks), "rt")
    assert [(b.source, b.edits) for b in parsed] == [(b.source, b.edits) for b in blocks]


def test_conll14_files(conll14):
    combined = read_m2(str(conll14 / "official-2014.combined.m2"))
    single = read_m2(str(conll14 / "official-2014.1.m2"))
    assert len(combined) == len(single) == 1312
    assert sum(len(b.edits) for b in combined) == 5873
    assert sum(e.is_noop for b in combined for e in b.edits) == 275
    assert sum(len(b.edits) for b in single) == 3317
    assert {a for b in combined for a in b.annotators()} == {0, 1}
    # the S lines are the INPUT file
    assert [b.source for b in combined] == (conll14 / "INPUT").read_text(encoding="utf-8").splitlines()


@settings(max_examples=300, deadline=None)
@given(span=st.sampled_from(["0 1", "-1 -1", "3 3", "2 1", "-1 0", "0 9", "007 8", "-0 1", " 0 1", "0  1", "0 1 ",
                             "0\t1", "a b", "1", "١ 2", "+1 2"]),
       annotator=st.sampled_from(["0", "1", "63", "64", "01", " 1", "1 ", "-1", "x", "２", "2147483647", "2147483648"]),
       correction=st.sampled_from(["", "-NONE-", "a||b", "x y", "|"]),
       n_tokens=st.integers(0, 8))
def test_the_common_line_reads_as_every_check_reads_it(span, annotator, correction, n_tokens):
    """The edit line's fast path (io.m2._parse_edit_line) gives the Edit, or the refusal, of the
    line read with every check (_checked_edit_line), for any span and annotator field."""
    from gecmetrics.io.m2 import _checked_edit_line, _parse_edit_line

    body = f"{span}|||R:X|||{correction}|||REQUIRED|||-NONE-|||{annotator}"

    def outcome(read):
        try:
            edit = read()
            return edit, edit.annotator_text, edit.edit_set
        except InputError as error:
            return str(error)
    fast = outcome(lambda: _parse_edit_line(body, n_tokens, "f.m2", 3, {}))
    checked = outcome(lambda: _checked_edit_line(body.split("|||"), n_tokens, "f.m2", 3))
    assert fast == checked


@pytest.mark.parametrize("edit_line, said", [
    ("A 0 " + "9" * 5000 + "|||R:X|||x|||REQUIRED|||-NONE-|||0", "an offset of more than 18 digits is beyond any sentence"),
    ("A " + "9" * 19 + " 1|||R:X|||x|||REQUIRED|||-NONE-|||0", "an offset of more than 18 digits is beyond any sentence"),
    ("A 0 1|||R:X|||x|||REQUIRED|||-NONE-|||" + "9" * 5000, "is more than 2,147,483,647"),
])
def test_numbers_too_long_for_int_are_one_line_naming_the_line(edit_line: str, said: str) -> None:
    # int() of more than 4,300 digits is a ValueError: it was a traceback
    with pytest.raises(InputError, match=said) as caught:
        parse_m2(f"S a b c\n{edit_line}\n", "g.m2")
    assert "g.m2:2:" in str(caught.value) and len(str(caught.value)) < 300


def test_a_corpus_keeps_one_string_per_sentence_and_per_correction(tmp_path):
    """Memory at scale (a report on 10^5 sentences): a corpus read with a gold and hypothesis M2
    keeps one string object per sentence (every M2 block whose sentence is the source line as it
    is holds the line's own string) and one per distinct correction of an M2 file; a block whose
    sentence differs from the line in spacing only (the same tokens) keeps its own."""
    from gecmetrics.io.corpus import read_corpus

    lines = ["The big dog barks .", "A  big cat sleeps ."]  # the second: two spaces, tokens as in the M2
    gold = ("S The big dog barks .\nA 1 2|||R:ADJ|||small old|||REQUIRED|||-NONE-|||0\n\n"
            "S A big cat sleeps .\nA 1 2|||R:ADJ|||small old|||REQUIRED|||-NONE-|||0\n"
            "A 3 4|||R:VERB|||is sleeping|||REQUIRED|||-NONE-|||1\n")
    hypothesis = ("S The big dog barks .\nA 1 2|||R:ADJ|||small old|||REQUIRED|||-NONE-|||0\n\n"
                  "S A big cat sleeps .\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n")
    files = {"src": "\n".join(lines) + "\n", "ref": "The small old dog barks .\nA big cat is sleeping .\n",
             "hyp": "The small old dog barks .\nA big cat sleeps .\n", "gold.m2": gold, "hyp.m2": hypothesis}
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    path = {name: str(tmp_path / name) for name in files}
    corpus = read_corpus(path["src"], [path["ref"]], [path["hyp"]], path["gold.m2"], [path["hyp.m2"]])
    blocks = corpus.hypothesis_m2[path["hyp"]]
    assert corpus.gold[0].source is corpus.sources[0] and blocks[0].source is corpus.sources[0]
    assert corpus.gold[1].source == blocks[1].source == "A big cat sleeps ." != corpus.sources[1]
    assert corpus.gold[0].edits[0].correction is corpus.gold[1].edits[0].correction == "small old"
    assert corpus.gold[1].edits[1].correction == "is sleeping"


def test_a_gold_m2_starting_with_a_byte_order_mark_is_no_text_file(tmp_path):
    """`gecmetric errant -r gold.m2` refused a gold M2 starting with a BOM as "plain text" (its
    look at the first line kept the mark), where every reader drops it (SPEC 1)."""
    from gecmetrics.io.m2 import looks_like_text

    m2 = "S He go .\nA 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\n\n"
    (tmp_path / "bom.m2").write_bytes(b"\xef\xbb\xbf" + m2.encode())
    (tmp_path / "text").write_text("He go .\n")
    assert not looks_like_text(str(tmp_path / "bom.m2")) and looks_like_text(str(tmp_path / "text"))


@pytest.mark.parametrize("source, span", [("He    go    home now .", "2 3"), ("Il vient \u00a0 ? Oui je viens .", "5 5"),
                                          ("a \t b c", "2 3"), ("a b   c d", "3 4")])
def test_a_span_after_a_run_of_spaces_in_the_s_line_is_refused(source, span):
    """errant_parallel -tok numbers spaCy's token of a run of spaces (or a tab, a no-break space):
    such an M2 read by the line's words put `goes` in place of `home` (`m2 refs`: `He go goes now
    .`), silently; only spans past the end were refused."""
    text = f"S {source}\nA {span}|||R:VERB|||x|||REQUIRED|||-NONE-|||0\n\n"
    with pytest.raises(InputError, match=r"^x.m2:2: the span .* ends after a whitespace token \(a run of spaces, a tab "
                                         r"or a no-break space standing alone\) of the 'S' line \(line 1\), after its "
                                         r"first \d words?: errant_parallel -tok"):
        parse_m2(text, "x.m2")


def test_spans_before_a_run_of_spaces_and_plain_lines_are_read():
    blocks = parse_m2("S a b   c\nA 0 1|||R:X|||z|||REQUIRED|||-NONE-|||0\nA 2 2|||M:X|||y|||REQUIRED|||-NONE-|||0\n"
                      "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1\n\nS  a b \nA 1 2|||R:X|||z|||REQUIRED|||-NONE-|||0\n\n"
                      "S\n\n", "x.m2")
    assert [len(block.edits) for block in blocks] == [3, 1, 0]
    # two spaces, a tab or a no-break space between words separate them as str.split does (ERRANT, the M2 scorer)
    blocks = parse_m2("S a  b\tc\u00a0d e\nA 4 5|||R:X|||z|||REQUIRED|||-NONE-|||0\n\n", "x.m2")
    assert blocks[0].tokens == ["a", "b", "c", "d", "e"] and len(blocks[0].edits) == 1
