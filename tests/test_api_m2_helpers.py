"""The M2 helpers of gecmetrics.io.m2, gecmetrics.io.m2_references and the M2 scorer's type
means check their arguments: a text where a list of lines belongs, None, a number, a path that
names no file, a negative annotator id gave a TypeError, AttributeError or ValueError from deep
inside (or, for a missing file, an empty answer and for a negative id a file named ``REF-1``);
each is one InputError naming the argument or the file, and the right calls answer as before."""
from __future__ import annotations

import math
from pathlib import Path

import pytest

from gecmetrics.errors import InputError
from gecmetrics.io.m2 import annotator_ids, file_annotator_ids, iter_m2_blocks, parse_m2, parse_m2_lines
from gecmetrics.io.m2_references import file_annotators, reference_paths
from gecmetrics.metrics.m2.maxmatch import type_means

M2_LINES = ["S a b c", "A 0 1|||R:X|||x|||REQUIRED|||-NONE-|||0", "A 2 3|||R:X|||y|||REQUIRED|||-NONE-|||1", "",
            "S d e", "A 0 1|||R:X|||f|||REQUIRED|||-NONE-|||0"]


@pytest.fixture
def m2_file(tmp_path: Path) -> Path:
    path = tmp_path / "gold.m2"
    path.write_text("\n".join(M2_LINES) + "\n", encoding="utf-8")
    return path


def test_the_helpers_answer_right_calls_as_before(m2_file: Path) -> None:
    blocks = parse_m2_lines(M2_LINES, "gold.m2")
    assert [block.source for block in blocks] == ["a b c", "d e"] and len(blocks[0].edits) == 2
    assert [block.line for block in iter_m2_blocks(iter(M2_LINES), "gold.m2", first_line=11)] == [11, 15]
    assert annotator_ids(str(m2_file)) == annotator_ids(m2_file, max_lines=3) == {0, 1}
    assert annotator_ids(str(m2_file), max_lines=2) == {0}
    assert file_annotator_ids(m2_file) == {0, 1} and file_annotator_ids("-") is None
    assert file_annotators(blocks) == [0, 1] and file_annotators([]) == [0]
    assert reference_paths([0, 1], "out") == ("out/INPUT", ["out/REF0", "out/REF1"])
    assert reference_paths((0, 2), prefix=Path("x")) == ("x.src", ["x.ref0", "x.ref2"])
    assert type_means([(1, 1, 0), (0, 0, 2)], 1.0) == pytest.approx((0.75, 0.5, 1 / 3))
    assert type_means([], 0.5) == (1.0, 1.0, 1.0)


@pytest.mark.parametrize("lines, said", [
    ("S a b c\n", "a str"), (None, "None"), (3, "an int"), ({"S a": 1}, "a dict .its keys would be read"),
])
def test_m2_lines_of_the_wrong_kind(lines: object, said: str) -> None:
    for call in (lambda: parse_m2_lines(lines, "g.m2"), lambda: iter_m2_blocks(lines, "g.m2")):
        with pytest.raises(InputError, match=f"^g.m2: lines must be the lines of an M2 file .a list of strings., "
                                             f"got {said}"):
            call()  # (iter_m2_blocks: at the call, not at the first block)


def test_m2_line_arguments_name_what_is_wrong() -> None:
    with pytest.raises(InputError, match="^g.m2:2: expected M2 lines of text, got an int"):
        parse_m2_lines(["S a b", 7], "g.m2")
    with pytest.raises(InputError, match="^g.m2:2: expected M2 lines of text, got None"):
        list(iter_m2_blocks(iter(["S a b", None]), "g.m2"))
    with pytest.raises(InputError, match="M2 file's name must be given as a path .* got NoneType"):
        parse_m2_lines(M2_LINES, None)
    with pytest.raises(InputError, match="M2 file's name must be given as a path"):
        parse_m2("S a\n", 5)
    for first, said in ((0, "must be an integer >= 1, got 0"), (-3, "must be an integer >= 1, got -3"), ("2", "must be an integer, got '2'"),
                        (True, "must be an integer, got True")):
        with pytest.raises(InputError, match=f"^first_line .the number of the first line. {said}"):
            iter_m2_blocks(M2_LINES, "g.m2", first_line=first)
    with pytest.raises(InputError, match="^target_lines must be True or False, got 'no'"):
        parse_m2_lines(M2_LINES, "g.m2", target_lines="no")


def test_annotator_ids_of_a_path_that_is_no_file_or_no_path(tmp_path: Path, m2_file: Path) -> None:
    missing = tmp_path / "missing.m2"
    for function in (annotator_ids, file_annotator_ids):  # a missing file gave set() and None
        with pytest.raises(InputError, match=f"^{missing}: no such file$"):
            function(str(missing))
        with pytest.raises(InputError, match=f"^{tmp_path}: is a directory, not a file$"):
            function(tmp_path)
        for wrong, kind in ((None, "NoneType"), (3, "int"), ([str(m2_file)], "list")):
            with pytest.raises(InputError, match=f"^the M2 file must be given as a path .* got {kind}$"):
                function(wrong)
    for lines in (0, -1, 2.5, "10"):  # (-1 read no line: set() without a word)
        with pytest.raises(InputError, match="^max_lines must be an integer"):
            annotator_ids(m2_file, max_lines=lines)


def test_file_annotators_takes_m2_blocks() -> None:
    blocks = parse_m2_lines(M2_LINES, "g.m2")
    for wrong, said in ((None, "got None"), ("S a b", "got 'S a b'"), (blocks[0], "got Block")):
        with pytest.raises(InputError, match=f"^blocks must be a sequence of M2 blocks .* {said}"):
            file_annotators(wrong)
    with pytest.raises(InputError, match="^blocks: expected M2 blocks .* got int at sentence 2"):
        file_annotators([blocks[0], 1])


def test_reference_paths_takes_annotator_ids_and_paths() -> None:
    for labels, said in ((None, "labels must be a sequence of annotator ids .integers., got None"),
                         ("01", "labels must be a sequence of annotator ids .integers., got '01'"),
                         ([-1], r"an annotator id \(labels\) must be an integer >= 0, got -1"),
                         ([0, "1"], r"an annotator id \(labels\) must be an integer, got '1'"),
                         ([1, 1], r"annotator 1 is asked for twice \(labels\)")):
        with pytest.raises(InputError, match=f"^{said}"):
            reference_paths(labels, "out")
    with pytest.raises(InputError, match="^the output folder must be given as a path .* got int"):
        reference_paths([0], 3)
    with pytest.raises(InputError, match="^the prefix must be given as a path .* got list"):
        reference_paths([0], prefix=["p"])
    with pytest.raises(InputError, match="'' has no name before them"):  # (its own message, as before)
        reference_paths([0], prefix="")


def test_type_means_takes_counts_and_a_beta() -> None:
    for rows, said in ((None, "rows must be a sequence of .TP, FP, FN. counts per type, got None"),
                       ("abc", "rows must be a sequence of .* got 'abc'"),
                       ([(1, 2)], r"rows\[0\] must be three counts \(TP, FP, FN\), got 2 values"),
                       ([(1, 2, 3), 5], r"rows\[1\] must be a sequence of three counts"),
                       ([(1, 2, -3)], r"rows\[0\]: a count must be an integer >= 0, got -3"),
                       ([(1, 2.5, 3)], r"rows\[0\]: a count must be an integer, got 2.5")):
        with pytest.raises(InputError, match=f"^{said}"):
            type_means(rows, 0.5)
    for beta, said in ((math.nan, "got nan"), (-1, "got -1.0"), ("0.5", "got str"), (None, "got NoneType"),
                       (True, "got bool")):  # (nan gave a nan F, -1 a number, text a NumPy TypeError)
        with pytest.raises(InputError, match=f"^beta must be a number >= 0 or inf, {said}"):
            type_means([(1, 2, 3)], beta)
    assert type_means([(1, 2, 3)], math.inf)[2] == type_means([(1, 2, 3)], 1.0)[1]  # inf: the recall
