"""ERRANT-style comparison (SPEC 4.3): hand-built cases, and identical output to ERRANT 3.0.2's
compare_m2.py (run as a script file in its own virtualenv) for every flag combination."""
from __future__ import annotations

import itertools
import json
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from gecmetrics import __version__, get_metric
from gecmetrics.cli import main
from gecmetrics.errors import InputError
from gecmetrics.io.m2 import Block, Edit, format_m2, parse_m2, read_m2
from gecmetrics.metrics.m2 import ErrantCompare, choose_pairs
from gecmetrics.metrics.m2.errant_report import format_errant_report
from gecmetrics.metrics.m2.cherrant import CherrantCompare, compare_cherrant_blocks
from gecmetrics.metrics.m2.compare import errant_scores
from tests.conftest import one_line_error, peer_virtualenv, unavailable

ERRANT_VERSION = "3.0.2"


def a_line(start, end, correction, annotator=0, edit_type="X"):
    return f"A {start} {end}|||{edit_type}|||{correction}|||REQUIRED|||-NONE-|||{annotator}"


def m2(*blocks):
    """M2 text from (source, [A lines]) pairs."""
    return "".join("S " + source + "\n" + "".join(line + "\n" for line in lines) + "\n" for source, lines in blocks)


def category_report(title: str, category_rows: list[str], totals: str) -> str:
    """compare_m2's report with a -cat table: the category rows, then the totals row."""
    return ("\n" + "{:=^66}".format(f" {title} ") + "\n"
            "Category       TP       FP       FN       P        R        F0.5\n"
            + "".join(row + "\n" for row in category_rows)
            + "\n" + "{:=^46}".format(f" {title} ") + "\n"
            "TP\tFP\tFN\tPrec\tRec\tF0.5\n" + totals + "\n" + "=" * 46 + "\n\n")


# ---------------------------------------------------------------- hand-built cases


def test_scores_formula():
    assert errant_scores(0, 0, 0, 0.5) == (1.0, 1.0, 1.0)
    assert errant_scores(0, 3, 0, 0.5) == (0.0, 1.0, 0.0)
    p, r, f = errant_scores(2, 1, 3, 0.5)
    assert (p, r) == (2 / 3, 0.4)
    assert f == pytest.approx(1.25 * p * r / (0.25 * p + r))


def test_beta_zero_without_recall_is_zero_not_a_crash(tmp_path):
    """With beta = 0 and R = 0 ERRANT divides by zero; here F is 0, as when P = R = 0."""
    assert errant_scores(0, 0, 5, 0.0) == (1.0, 0.0, 0.0)
    assert errant_scores(1, 1, 1, 0.0)[2] == 0.5  # beta = 0 otherwise gives P
    hyp, ref = tmp_path / "hyp.m2", tmp_path / "ref.m2"
    hyp.write_text("S a b c\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n")
    ref.write_text("S a b c\nA 0 1|||R:X|||x|||REQUIRED|||-NONE-|||0\n\n")
    result = CliRunner().invoke(main, ["m2", "compare", "-hyp", str(hyp), "-ref", str(ref), "-b", "0"])
    assert result.exit_code == 0, result.output
    assert "0.0" in result.stdout


def test_compare_m2_files_reads_both_files(tmp_path):
    """The one call of ERRANT's compare_m2 on two files (gecmetrics.run.m2_files: io reads, the
    metric receives blocks): one TP, one FP, one FN by hand."""
    from gecmetrics.run.m2_files import compare_m2_files

    hyp, ref = tmp_path / "hyp.m2", tmp_path / "ref.m2"
    hyp.write_text(m2(("a b c", [a_line(0, 1, "x"), a_line(2, 3, "y")])), encoding="utf-8")
    ref.write_text(m2(("a b c", [a_line(0, 1, "x"), a_line(1, 2, "z")])), encoding="utf-8")
    result = compare_m2_files(str(hyp), str(ref), ErrantCompare(beta=1))
    assert (result.tp, result.fp, result.fn, result.f_score) == (1, 1, 1, 0.5)
    assert compare_m2_files(str(ref), str(ref)).f_score == 1.0
    with pytest.raises(InputError, match="missing.m2"):
        compare_m2_files(str(tmp_path / "missing.m2"), str(ref))


def test_basic_counts_and_modes():
    hyp = parse_m2(m2(("a b c d", [a_line(0, 1, "A", edit_type="R:X"), a_line(2, 2, "new", edit_type="M:Y"),
                                   a_line(3, 4, "-NONE-", edit_type="U:Z")])), "h")
    ref = parse_m2(m2(("a b c d", [a_line(0, 1, "A", edit_type="R:W"), a_line(2, 2, "old", edit_type="M:Y"),
                                   a_line(3, 4, "", edit_type="U:Z")])), "r")
    cs = ErrantCompare().compare(hyp, ref)
    # '-NONE-' and '' are different corrections for ERRANT
    assert (cs.tp, cs.fp, cs.fn) == (1, 2, 2)
    # a TP is typed with the reference type
    assert cs.categories["R:W"].tp == 1 and "R:X" not in cs.categories
    cse = ErrantCompare(mode="cse").compare(hyp, ref)
    assert (cse.tp, cse.fp, cse.fn) == (0, 3, 3)
    ds = ErrantCompare(mode="ds").compare(hyp, ref)
    assert (ds.tp, ds.fp, ds.fn) == (3, 0, 0)
    dt = ErrantCompare(mode="dt").compare(hyp, ref)
    assert (dt.tp, dt.fp, dt.fn) == (3, 0, 0)
    grouped1 = cs.grouped_categories(1)
    assert {k: (v.tp, v.fp, v.fn) for k, v in grouped1.items()} == {"R": (1, 0, 0), "M": (0, 1, 1), "U": (0, 1, 1)}


def test_detection_tokens_splits_spans_and_insertions_touch_the_right_token():
    hyp = parse_m2(m2(("a b c d", [a_line(0, 3, "x")])), "h")
    ref = parse_m2(m2(("a b c d", [a_line(1, 1, "y"), a_line(2, 3, "z")])), "r")
    dt = ErrantCompare(mode="dt").compare(hyp, ref)
    # hyp tokens (0,1) (1,2) (2,3); ref: insertion at 1 -> (1,2), (2,3)
    assert (dt.tp, dt.fp, dt.fn) == (2, 1, 0)


def test_noop_edits_are_neither_fp_nor_fn():
    noop = a_line(-1, -1, "-NONE-", edit_type="noop")
    hyp = parse_m2(m2(("a b", [noop]), ("c d", [noop])), "h")
    ref = parse_m2(m2(("a b", [a_line(0, 1, "x")]), ("c d", [noop])), "r")
    result = ErrantCompare().compare(hyp, ref)
    assert (result.tp, result.fp, result.fn) == (0, 0, 1)
    assert result.rounded() == (1.0, 0.0, 0.0)


def test_several_edits_at_one_span_count_each():
    hyp = parse_m2(m2(("a b", [a_line(1, 1, "x", edit_type="T1")])), "h")
    ref = parse_m2(m2(("a b", [a_line(1, 1, "x", edit_type="T1"), a_line(1, 1, "x", edit_type="T2")])), "r")
    result = ErrantCompare().compare(hyp, ref)
    assert (result.tp, result.fp, result.fn) == (2, 0, 0)
    assert {k: v.tp for k, v in result.categories.items()} == {"T1": 1, "T2": 1}
    reverse = ErrantCompare().compare(ref, hyp)
    # two hypothesis edits with one key: the key matches, one reference edit -> one TP
    assert (reverse.tp, reverse.fp, reverse.fn) == (1, 0, 0)


def test_empty_blocks():
    hyp = parse_m2(m2(("a", []), ("b", [])), "h")
    ref = parse_m2(m2(("a", []), ("b", [])), "r")
    result = ErrantCompare().compare(hyp, ref)
    assert (result.tp, result.fp, result.fn) == (0, 0, 0) and result.rounded() == (1.0, 1.0, 1.0)
    assert result.pair_counts.shape == (2, 1, 3)


def test_mismatched_block_counts_are_an_error():
    with pytest.raises(InputError, match="has 1 sentence but the reference r has 2$"):
        ErrantCompare().compare(parse_m2(m2(("a", [])), "h"), parse_m2(m2(("a", []), ("b", [])), "r"), "h", "r")
    # without names: "but the reference has 1", not "but the reference reference has 1"
    with pytest.raises(InputError, match="^hypothesis: has 2 sentences but the reference has 1$"):
        ErrantCompare().compare(parse_m2(m2(("a", []), ("b", [])), "h"), parse_m2(m2(("a", [])), "r"))
    with pytest.raises(InputError, match="^hypothesis: has 2 sentences but the reference has 1$"):
        compare_cherrant_blocks(parse_m2(m2(("a", []), ("b", [])), "h"), parse_m2(m2(("a", [])), "r"))


def test_annotator_choice_maximizes_running_f_then_tp():
    # sentence 0: ann 0 gives (1 TP, 0 FP, 1 FN), ann 1 gives (0, 1, 0)
    # sentence 1: ann 0 needs 2 edits that the hypothesis lacks; ann 1 has none: (0 TP, 1 FP, 0 FN)
    hyp = parse_m2(m2(("a b", [a_line(0, 1, "x")]), ("c d", [a_line(0, 1, "y")])), "h")
    ref = parse_m2(m2(
        ("a b", [a_line(0, 1, "x", 0), a_line(1, 2, "z", 0), a_line(1, 1, "w", 1)]),
        ("c d", [a_line(0, 1, "p", 0), a_line(1, 2, "q", 0), a_line(-1, -1, "-NONE-", 1, "noop")]),
    ), "r")
    result = ErrantCompare().compare(hyp, ref)
    assert result.pairs == [(0, 0), (0, 1)]
    assert result.pair_counts.tolist() == [[[1, 0, 1], [0, 1, 1]], [[0, 1, 2], [0, 1, 0]]]
    assert result.chosen_pair.tolist() == [0, 1]
    assert (result.tp, result.fp, result.fn) == (1, 1, 1)
    assert result.sentence_counts.tolist() == [[1, 0, 1], [0, 1, 0]]
    assert result.pair_available.all()
    # higher running F first (here the running totals make pair 1 better despite fewer TP)
    counts = np.array([[[1, 3, 0], [0, 0, 0]]])
    assert choose_pairs(counts, [[0, 1]], 0.5, start=(5, 0, 0)).tolist() == [1]
    # ties in F: more TP (both F = 0.5556), then fewer FP, then fewer FN, then the first tried
    counts = np.array([[[1, 1, 0], [2, 2, 0]]])
    assert choose_pairs(counts, [[0, 1]], 0.5).tolist() == [1]
    counts = np.array([[[0, 1, 1], [0, 0, 2]]])
    assert choose_pairs(counts, [[0, 1]], 0.5).tolist() == [1]  # F 0 both, TP 0 both, fewer FP
    counts = np.array([[[0, 2, 0], [0, 1, 0]]])
    assert choose_pairs(counts, [[0, 1]], 0.5).tolist() == [1]  # F 0 both, TP 0 both, fewer FP
    counts = np.array([[[0, 1, 2], [0, 1, 1]]])
    assert choose_pairs(counts, [[0, 1]], 0.5).tolist() == [1]  # then fewer FN
    counts = np.array([[[0, 1, 1], [0, 1, 1]]])
    assert choose_pairs(counts, [[1, 0]], 0.5).tolist() == [1]  # exact tie: first tried


def test_unavailable_annotator_is_not_chosen():
    hyp = parse_m2(m2(("a b", [a_line(0, 1, "x")]), ("c", [])), "h")
    ref = parse_m2(m2(("a b", [a_line(1, 2, "x", 0), a_line(0, 1, "x", 1)]), ("c", [a_line(0, 1, "x", 0)])), "r")
    result = ErrantCompare().compare(hyp, ref)
    assert result.pair_available.tolist() == [[True, True], [True, False]]
    assert result.chosen_pair.tolist() == [1, 0]
    assert result.candidate_order == [[0, 1], [0]]


def test_filters_single_multi_unk_and_filt(tmp_path):
    hyp = parse_m2(m2(("a b c", [a_line(0, 2, "x", edit_type="R:A"), a_line(2, 3, "y", edit_type="UNK"),
                                 a_line(0, 0, "p q", edit_type="M:B"), a_line(1, 2, "z", edit_type="R:C")])), "h")
    ref = hyp
    counts = {}
    for name, comparer in {
        "cs": ErrantCompare(), "ds": ErrantCompare(mode="ds"), "single": ErrantCompare(single=True),
        "multi": ErrantCompare(multi=True), "filt": ErrantCompare(filter_types=["R:C", "M:B"]),
    }.items():
        r = comparer.compare(hyp, ref)
        counts[name] = r.tp
    # UNK is dropped in correction modes, kept in detection
    assert counts == {"cs": 3, "ds": 4, "single": 1, "multi": 2, "filt": 1}
    # together they keep no edit: compare_m2 scores every system 1.0 then, an empty output too
    for refused in (lambda: ErrantCompare(single=True, multi=True),
                    lambda: get_metric("senterrant", single=True, multi=True),
                    lambda: CherrantCompare(single=True, multi=True)):
        with pytest.raises(InputError, match=r"single \(-single\) and multi \(-multi\) together keep no edit"):
            refused()
    (tmp_path / "h.m2").write_text(format_m2(hyp), encoding="utf-8")
    assert "together keep no edit" in one_line_error("m2", "compare", "-hyp", str(tmp_path / "h.m2"), "-ref",
                                                     str(tmp_path / "h.m2"), "-single", "-multi")


def test_digits_beyond_errants_four_decimals_print_the_unrounded_scores(tmp_path):
    """-d 6 printed ERRANT's 4-decimal rounding followed by zeros (17.350000 for F 0.173454),
    and with the sentence average it would have been the micro P, R, F of the summed counts."""
    ref = m2(*[("a b", [a_line(0, 1, "x")])] * 160)
    hyp = m2(*[("a b", [a_line(0, 1, "x" if k < 23 else "y")]) for k in range(160)])
    (tmp_path / "ref.m2").write_text(ref, encoding="utf-8")
    (tmp_path / "hyp.m2").write_text(hyp, encoding="utf-8")

    def row(*args: str) -> list[str]:
        result = CliRunner().invoke(main, ["m2", "compare", "-hyp", str(tmp_path / "hyp.m2"), "-ref",
                                           str(tmp_path / "ref.m2"), "--tsv", *args])
        assert result.exit_code == 0, result.output
        return result.output.splitlines()[1].split("\t")[1:]

    assert row() == ["23", "137", "137", "14.37", "14.37", "14.37"]  # ERRANT's round(0.14375, 4): 0.1437
    assert row("-d", "6") == ["23", "137", "137", "14.375000", "14.375000", "14.375000"]
    assert row("-d", "6", "--scale", "1") == ["23", "137", "137", "0.143750", "0.143750", "0.143750"]
    ref = m2(("a b c d", [a_line(0, 1, "x")]), ("a b c d", [a_line(0, 1, "x"), a_line(1, 2, "y"), a_line(2, 3, "z")]))
    hyp = m2(("a b c d", [a_line(0, 1, "x")]), ("a b c d", [a_line(0, 1, "x")]))
    (tmp_path / "ref.m2").write_text(ref, encoding="utf-8")
    (tmp_path / "hyp.m2").write_text(hyp, encoding="utf-8")
    assert row("-d", "6") == ["2", "0", "2", "100.000000", "50.000000", "83.333333"]  # micro: R 2/4
    assert row("--sentence-average", "-d", "6")[3:5] == ["100.000000", "66.666667"]  # the mean of R 1 and 1/3


def test_nucle_types_give_odd_groups_at_cat_1_and_2():
    hyp = parse_m2(m2(("a b", [a_line(0, 1, "x", edit_type="ArtOrDet"), a_line(1, 2, "y", edit_type="Nn")])), "h")
    result = ErrantCompare().compare(hyp, hyp)
    assert set(result.grouped_categories(1)) == {"A", "N"}
    assert set(result.grouped_categories(2)) == {"tOrDet", ""}
    assert set(result.grouped_categories(3)) == {"ArtOrDet", "Nn"}


def test_cat_2_group_named_unk_is_replaced_by_unk_as_errant_does():
    # compare_m2 keeps UNK whole by *assigning* its counts to the group UNK, while the other types
    # add to theirs; at level 2 R:UNK and M:UNK fall into that same group, so what R:UNK put there
    # before UNK came is dropped and M:UNK, after it, is added (found by differential fuzzing).
    hyp = m2(("a b c", [a_line(0, 1, "x", edit_type="R:UNK"), a_line(1, 2, "b", edit_type="UNK")]))
    ref = m2(("a b c", [a_line(0, 1, "x", edit_type="R:UNK"), a_line(1, 2, "b", edit_type="UNK"),
                        a_line(2, 3, "y", edit_type="M:UNK")]))
    result = ErrantCompare(mode="ds").compare(parse_m2(hyp, "h"), parse_m2(ref, "r"))
    # `errant_compare -hyp hyp.m2 -ref ref.m2 -ds -cat 2` of errant 3.0.2 prints this table
    assert format_errant_report(result, category_level=2) == category_report(
        "Span-Based Detection", ["UNK            1        0        1        1.0      0.5      0.8333"],
        "2\t0\t1\t1.0\t0.6667\t0.9091")
    # level 1 and 3 keep the types apart (and so sum nothing into UNK)
    assert {k: (c.tp, c.fp, c.fn) for k, c in result.grouped_categories(1).items()} == {
        "R": (1, 0, 0), "UNK": (1, 0, 0), "M": (0, 0, 1)}
    # UNK first: the later R:UNK adds to it
    first = m2(("a b c", [a_line(1, 2, "b", edit_type="UNK"), a_line(0, 1, "x", edit_type="R:UNK")]))
    result = ErrantCompare(mode="ds").compare(parse_m2(first, "h"), parse_m2(first, "r"))
    assert {k: (c.tp, c.fp, c.fn) for k, c in result.grouped_categories(2).items()} == {"UNK": (2, 0, 0)}


def test_signature_and_json():
    comparer = ErrantCompare(beta=1, mode="cse", single=True, filter_types=["R:SPELL"])
    assert comparer.signature == f"ERRANT|mode:cse|beta:1|single|filt:R:SPELL|version:{__version__}"
    assert ErrantCompare().signature == f"ERRANT|mode:cs|beta:0.5|version:{__version__}"
    blocks = parse_m2(m2(("a b", [a_line(0, 1, "x")])), "h")
    data = json.loads(ErrantCompare().compare(blocks, blocks).to_json())
    assert data["tp"] == 1 and data["f"] == 1.0 and data["signature"].startswith("ERRANT|mode:cs")


def test_report_layout():
    hyp = parse_m2(m2(("a b", [a_line(0, 1, "x", edit_type="R:NOUN"), a_line(1, 2, "y", edit_type="R:VERB")])), "h")
    ref = parse_m2(m2(("a b", [a_line(0, 1, "x", edit_type="R:NOUN")])), "r")
    text = format_errant_report(ErrantCompare().compare(hyp, ref), category_level=2)
    assert text == category_report("Span-Based Correction",
                                   ["NOUN           1        0        0        1.0      1.0      1.0",
                                    "VERB           0        1        0        0.0      1.0      0.0"],
                                   "1\t1\t0\t0.5\t1.0\t0.5556")


def test_verbose_shows_the_first_edit_line_of_an_empty_sentence_written_s_alone(tmp_path):
    # compare_m2 -v prints block[2:] up to the next "\nA" as the sentence: after "S" alone (an
    # empty sentence, as errant_m2 and format_m2 write it) that is the first edit line, after
    # "S " nothing (found by differential fuzzing)
    hyp, ref = tmp_path / "hyp.m2", tmp_path / "ref.m2"
    insertion = "A 0 0|||M:DET|||The|||REQUIRED|||-NONE-|||0"
    hyp.write_text(f"S\n{insertion}\n\nS \n{insertion}\n\n", encoding="utf-8")
    ref.write_text(f"S\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\nS \n{insertion}\n\n", encoding="utf-8")
    rule = "-" * 40
    # `errant_compare -hyp hyp.m2 -ref ref.m2 -v` of errant 3.0.2 prints this
    assert run_ours(["-hyp", str(hyp), "-ref", str(ref), "-v"]) == "\n".join([
        rule, f"Original sentence 0: {insertion}", rule,
        "SENTENCE 0 - HYP 0 - REF 0",
        "HYPOTHESIS EDITS : [(0, 0, 'The', 'M:DET')]",
        "REFERENCE EDITS  : []",
        "Local TP/FP/FN   : 0 1 0", "Local P/R/F0.5  : 0.0 1.0 0.0",
        "Global TP/FP/FN  : 0 1 0", "Global P/R/F0.5  : 0.0 1.0 0.0", rule,
        "^^ HYP 0, REF 0 chosen for sentence 0", "Local results:",
        "   Category   TP   FP   FN", "      M:DET    0    1    0",
        rule, "Original sentence 1: ", rule,
        "SENTENCE 1 - HYP 0 - REF 0",
        "HYPOTHESIS EDITS : [(0, 0, 'The', 'M:DET')]",
        "REFERENCE EDITS  : [(0, 0, 'The', 'M:DET')]",
        "Local TP/FP/FN   : 1 0 0", "Local P/R/F0.5  : 1.0 1.0 1.0",
        "Global TP/FP/FN  : 1 1 0", "Global P/R/F0.5  : 0.5 1.0 0.5556", rule,
        "^^ HYP 0, REF 0 chosen for sentence 1", "Local results:",
        "   Category   TP   FP   FN", "      M:DET    1    0    0",
        "", "{:=^46}".format(" Span-Based Correction "),
        "TP\tFP\tFN\tPrec\tRec\tF0.5", "1\t1\t0\t0.5\t1.0\t0.5556", "=" * 46, "", ""])
    # the blocks themselves are unchanged: the same source, equal to blocks built in code
    assert read_m2(str(hyp))[0] == Block("", [Edit(0, 0, "M:DET", "The")], 1)


def test_cli_errors_and_greedy_filt(tmp_path):
    hyp = tmp_path / "h.m2"
    hyp.write_text(m2(("a b", [a_line(0, 1, "x", edit_type="R:A"), a_line(1, 2, "y", edit_type="M:B")])))
    ref = tmp_path / "r.m2"
    ref.write_text(m2(("a b", [a_line(0, 1, "x", edit_type="R:A")])))
    runner = CliRunner()
    run = runner.invoke(main, ["m2", "compare", "-hyp", str(hyp), "-ref", str(ref), "-filt", "R:A", "M:B"])
    assert run.exit_code == 0 and "0\t0\t0\t1.0\t1.0\t1.0" in run.stdout
    # compare_m2's numbers are kept, but the 1.0 of nothing compared is said once (it was silent)
    assert run.stderr == ("gecmetric: warning: -filt R:A M:B left no edit to compare (of the hypothesis or the "
                          "reference): P = R = F = 1 is compare_m2's score of nothing compared\n")
    for more, warned in ((["-filt", "R:A", "M:B", "--json"], 1), (["-filt", "R:A", "M:B", "--sentence"], 1),
                         (["-filt", "R:A"], 0), ([], 0)):  # every format; a type left: no warning
        run = runner.invoke(main, ["m2", "compare", "-hyp", str(hyp), "-ref", str(ref), *more])
        assert run.exit_code == 0 and run.stderr.count("left no edit") == warned, (more, run.stderr)
    run = runner.invoke(main, ["m2", "compare", "-hyp", str(hyp), "-ref", str(ref), "-dt", "-ds"])
    assert run.exit_code == 2 and "mutually exclusive" in run.stderr
    run = runner.invoke(main, ["m2", "compare", "-hyp", str(hyp), "-ref", str(ref), "stray"])
    assert run.exit_code == 2
    two = tmp_path / "two.m2"
    two.write_text(m2(("a b", []), ("c", [])))
    run = runner.invoke(main, ["m2", "compare", "-hyp", str(hyp), "-ref", str(two)])
    assert run.exit_code == 2 and "has 1 sentence " in run.stderr and "Traceback" not in run.output


def test_a_filtered_type_not_of_errants_form_is_warned_about(tmp_path):
    # compare_m2 -filt NOUN leaves out only edits typed exactly NOUN: none of ERRANT's (R:NOUN):
    # the numbers are compare_m2's, said once to filter nothing ERRANT typed (it was silent)
    hyp = tmp_path / "h.m2"
    hyp.write_text(m2(("a b", [a_line(0, 1, "x", edit_type="R:NOUN")])))
    run = CliRunner().invoke(main, ["m2", "compare", "-hyp", str(hyp), "-ref", str(hyp), "-filt", "NOUN", "R:VERB",
                                    "x"])
    assert run.exit_code == 0 and "1\t0\t0\t1.0\t1.0\t1.0" in run.stdout
    assert run.stderr == ("gecmetric: warning: -filt/filter_types: 'NOUN', 'x' are not ERRANT's form of an error type "
                          "(operation:category, as R:NOUN, M:DET, U:PUNCT; or UNK): only edits typed exactly so are "
                          "left out\n")
    for types in (["R:NOUN:NUM", "UNK", "U:PUNCT"], []):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            ErrantCompare(filter_types=types)
    with pytest.warns(UserWarning, match="'Mec' is not ERRANT's form"):
        ErrantCompare(filter_types="Mec")
    with warnings.catch_warnings():  # ChERRANT's types (S, M, R, W) have no such form
        warnings.simplefilter("error")
        CherrantCompare(filter_types="S")


def test_empty_error_type_at_cat_1_is_an_error_line(tmp_path):
    # `errant_compare -hyp hyp.m2 -ref ref.m2 -cat 1` of errant 3.0.2 stops with an IndexError
    # (processCategories takes the first character of the type ''); -cat 2 prints it as a group ''
    # (found by differential fuzzing)
    hyp, ref = tmp_path / "hyp.m2", tmp_path / "ref.m2"
    hyp.write_text(m2(("a b c", [a_line(0, 1, "y", edit_type="")])))
    ref.write_text(m2(("a b c", [a_line(0, 1, "x", edit_type="R:NOUN")])))
    runner = CliRunner()
    for extra in ([], ["--tsv"]):
        run = runner.invoke(main, ["m2", "compare", "-hyp", str(hyp), "-ref", str(ref), "-cat", "1", *extra])
        assert run.exit_code == 2 and run.stdout == "" and run.stderr.count("\n") == 1
        assert "empty error type" in run.stderr and "Traceback" not in run.output
    # `errant_compare -hyp hyp.m2 -ref ref.m2 -cat 2` of errant 3.0.2 prints this table
    assert run_ours(["-hyp", str(hyp), "-ref", str(ref), "-cat", "2"]) == category_report(
        "Span-Based Correction", ["               0        1        0        0.0      1.0      0.0",
                                  "NOUN           0        0        1        1.0      0.0      0.0"],
        "0\t1\t1\t0.0\t0.0\t0.0")


def test_swapped_hypothesis_and_reference_are_warned(tmp_path):
    """A "hypothesis" with several annotators against a one-annotator "reference" is most likely
    the gold and the system the wrong way round: scored, with one warning line on stderr."""
    gold = tmp_path / "gold.m2"
    gold.write_text(m2(("a b", [a_line(0, 1, "x", 0), a_line(1, 2, "y", 1)])))
    system = tmp_path / "sys.m2"
    system.write_text(m2(("a b", [a_line(0, 1, "x", 0)])))
    runner = CliRunner()
    right = runner.invoke(main, ["m2", "compare", "-hyp", str(system), "-ref", str(gold)])
    assert right.exit_code == 0 and right.stderr == ""
    swapped = runner.invoke(main, ["m2", "compare", "-hyp", str(gold), "-ref", str(system)])
    assert swapped.exit_code == 0 and swapped.stderr.count("\n") == 1
    assert f"-hyp {gold} has 2 annotators and -ref {system} one: are they swapped?" in swapped.stderr


def test_a_cat_3_table_of_two_type_schemes_is_warned_about(tmp_path):
    """A NUCLE-typed gold against an ERRANT-typed system with a false positive: compare_m2 counts
    the true positives and missed edits under NUCLE's types and the false positive under ERRANT's,
    so no row of -cat 3's table is one type's (ArtOrDet's P is 1.0 whatever the system did wrong):
    the table is compare_m2's, with one warning; no warning when every counted type is of one
    scheme (no false positive, NUCLE's types on both sides, ERRANT's on both sides)."""
    gold = tmp_path / "gold.m2"
    gold.write_text(m2(("a b c", [a_line(0, 1, "x", edit_type="ArtOrDet"), a_line(2, 3, "z", edit_type="Vt")]),
                       ("d e", [a_line(0, 1, "y", edit_type="Nn")])))
    system = tmp_path / "sys.m2"
    system.write_text(m2(("a b c", [a_line(0, 1, "x", edit_type="R:DET"), a_line(1, 2, "w", edit_type="R:NOUN")]),
                         ("d e", [a_line(0, 1, "y", edit_type="R:NOUN")])))
    runner = CliRunner()

    def run(hyp, ref, *flags):
        result = runner.invoke(main, ["m2", "compare", "-hyp", str(hyp), "-ref", str(ref), "-cat", "3", *flags])
        assert result.exit_code == 0, result.output
        return result.stdout, result.stderr

    out, err = run(system, gold)
    assert "ArtOrDet       1        0        0        1.0" in out and "R:NOUN         0        1        0" in out
    assert err.count("\n") == 1 and err.startswith(
        "gecmetric: warning: -cat 3's table holds error types of two schemes ('ArtOrDet', 'Vt', 'Nn' ... are not "
        "ERRANT's, others are): true positives and missed edits are counted under the reference's types, false "
        "positives under the system's (compare_m2's rule), so no row is one error type's P, R, F; re-annotate"), err
    assert run(system, gold, "--json")[1] == ""  # no table printed
    assert run(gold, gold)[1] == "" and run(system, system)[1] == ""
    exact = tmp_path / "exact.m2"
    exact.write_text(m2(("a b c", [a_line(0, 1, "x", edit_type="R:DET")]), ("d e", [a_line(0, 1, "y", edit_type="R:NOUN")])))
    assert run(exact, gold)[1] == ""  # true positives and missed edits only: all under NUCLE's types


def test_a_gold_typed_otherwise_than_errant_is_warned_once_when_types_are_read(tmp_path, recwarn):
    """NUCLE's types (the CoNLL-2014 gold) against ERRANT's: -cse matches nothing (F = 0, as
    compare_m2 gives, kept) with one warning naming the gold; -filt and the macro average warn
    too, -cs does not, nor NUCLE's types on both sides; -cat 1 and 2 group such types into
    nothing meaningful (warned), -cat 3 does not; ChERRANT's own types are never foreign."""
    gold = tmp_path / "gold.m2"
    gold.write_text(m2(("a b c", [a_line(0, 1, "x", edit_type="ArtOrDet"), a_line(2, 3, "z", edit_type="Vt")]),
                       ("d e", [a_line(0, 1, "y", edit_type="Nn")])))
    system = tmp_path / "sys.m2"
    system.write_text(m2(("a b c", [a_line(0, 1, "x", edit_type="R:DET")]), ("d e", [a_line(0, 1, "y", edit_type="R:NOUN")])))
    runner = CliRunner()

    def run(*flags):
        result = runner.invoke(main, ["m2", "compare", "-hyp", str(system), "-ref", str(gold), *flags])
        assert result.exit_code == 0, result.output
        return result.stdout, result.stderr

    out, err = run("-cse")
    assert "0\t2\t3\t0.0\t0.0\t0.0" in out  # compare_m2's number
    assert err.count("\n") == 1 and err.startswith(f"gecmetric: warning: {gold}: its edit types are not ERRANT's "
                                                     "('ArtOrDet', 'Vt', 'Nn' ...), and -cse reads types")
    assert run("-filt", "R:DET")[1].count("its edit types are not ERRANT's") == 1
    assert "and --f_average macro reads types" in run("--macro")[1]
    assert run()[1] == "" and run("-cat", "3")[1] == ""
    for level in (1, 2):
        err = run("-cat", str(level))[1]
        assert err.count("\n") == 1 and f"-cat {level} groups ERRANT's types by their operation" in err
        assert "'ArtOrDet', 'Vt', 'Nn' ... are not ERRANT's" in err
    errant_typed = tmp_path / "errant.m2"
    errant_typed.write_text(system.read_text().replace("S a b c\n", "S a b c\nA 2 3|||U:NOUN|||z|||REQUIRED|||-NONE-|||0\n"))
    checked = runner.invoke(main, ["m2", "compare", "-hyp", str(system), "-ref", str(errant_typed), "-cse", "-cat", "2"])
    assert checked.exit_code == 0 and checked.stderr == ""
    alike = runner.invoke(main, ["m2", "compare", "-hyp", str(gold), "-ref", str(gold), "-cse", "--macro"])
    assert alike.exit_code == 0 and alike.stderr == ""  # NUCLE's types on both sides compare as meant
    # the library: one Python warning per run, whatever the number of systems
    from gecmetrics.metrics.edit_comparison import ForeignTypesWarning
    from gecmetrics.run.engine import score_files
    from gecmetrics.run.files import CorpusFiles

    recwarn.clear()
    score_files([ErrantCompare(mode="cse")], CorpusFiles(None, (), (str(system), str(errant_typed)), str(gold), (),
                                                         True))
    assert [w.category for w in recwarn.list] == [ForeignTypesWarning]
    recwarn.clear()
    CherrantCompare(mode="cse").compare(read_m2(str(system)), read_m2(str(gold)))
    score_files([CherrantCompare(mode="cse")], CorpusFiles(None, (), (str(system),), str(gold), (), True))
    assert not recwarn.list


# ---------------------------------------------------------------- against ERRANT 3.0.2

DRIVER = """
import contextlib, io, json, runpy, sys
script, jobs_path = sys.argv[1], sys.argv[2]
jobs = json.load(open(jobs_path))
outputs = []
for argv in jobs:
    sys.argv = [script] + argv
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        runpy.run_path(script, run_name="__main__")
    outputs.append(buffer.getvalue())
json.dump(outputs, open(jobs_path + ".out", "w"))
"""


def _find_compare_script(python: Path) -> Path | None:
    if not python.exists():
        return None
    found = subprocess.run([str(python), "-c", "import importlib.util as u; s = u.find_spec('errant'); "
                            "print(s.submodule_search_locations[0] if s else '')"],
                           capture_output=True, text=True)
    if found.returncode != 0 or not found.stdout.strip():
        return None
    script = Path(found.stdout.strip()) / "commands" / "compare_m2.py"
    return script if script.exists() else None


@pytest.fixture(scope="session")
def errant_peer() -> tuple[Path, Path]:
    """(python, compare_m2.py) of ERRANT 3.0.2 in its own virtualenv (installed --no-deps: the
    script file needs no spaCy)."""
    check = f"import importlib.metadata as m; assert m.version('errant') == '{ERRANT_VERSION}'"
    # its own name: test_annotate_peer's ERRANT (with spaCy) is another virtualenv
    python = peer_virtualenv("errant-script", f"errant=={ERRANT_VERSION}", check, no_deps=True)
    script = _find_compare_script(python)
    if script is None:
        unavailable("errant installed but compare_m2.py not found")
    return python, script


def run_errant(peer: tuple[Path, Path], jobs: list[list[str]], work: Path) -> list[str]:
    """Run ERRANT's compare_m2.py as a script file for several argument lists in one process."""
    python, script = peer
    driver = work / "errant_driver.py"
    driver.write_text(DRIVER)
    jobs_file = work / "jobs.json"
    jobs_file.write_text(json.dumps(jobs))
    subprocess.run([str(python), str(driver), str(script), str(jobs_file)], check=True, cwd=work)
    return json.loads((work / "jobs.json.out").read_text())


def run_ours(args: list[str]) -> str:
    run = CliRunner().invoke(main, ["m2", "compare", *args])
    assert run.exit_code == 0, run.output
    return run.stdout


def _altered_hypothesis(blocks: list[Block]) -> list[Block]:
    """A hypothesis derived from gold edits: some removed, some corrections altered, some
    retyped (also to UNK), '-NONE-' turned into '' here and there, and noop lines added."""
    altered = []
    counter = itertools.count()
    for number, block in enumerate(blocks):
        edits = []
        for edit in block.edits:
            k = next(counter)
            if k % 3 == 0:
                continue
            correction, edit_type = edit.correction, edit.type
            if k % 5 == 0:
                correction = correction + " x"
            if k % 4 == 0:
                edit_type = "UNK" if k % 8 == 0 else "Wci"
            if k % 7 == 0 and correction == "-NONE-":
                correction = ""
            edits.append(Edit(edit.start, edit.end, edit_type, correction, edit.required, edit.comment, edit.annotator))
        if number % 10 == 0:
            edits.insert(0, Edit(-1, -1, "noop", "-NONE-", "REQUIRED", "-NONE-", 0))
        altered.append(Block(block.source, edits, block.line))
    return altered


@pytest.fixture(scope="module")
def m2_files(conll14, tmp_path_factory) -> dict[str, Path]:
    """The shared gold files (first 400 sentences, for speed) and hypotheses built from them."""
    work = tmp_path_factory.mktemp("errant")
    files = {}
    size = 400
    for name in ("official-2014.0.m2", "official-2014.1.m2", "official-2014.combined.m2"):
        path = work / name
        path.write_text(format_m2(read_m2(str(conll14 / name))[:size]), encoding="utf-8")
        files[name] = path
    altered = work / "altered.m2"
    altered.write_text(format_m2(_altered_hypothesis(read_m2(str(files["official-2014.1.m2"])))), encoding="utf-8")
    files["altered"] = altered
    return files


MODES = [[], ["-dt"], ["-ds"], ["-cs"], ["-cse"]]
SELECTIONS = [[], ["-single"], ["-multi"], ["-filt", "ArtOrDet", "Prep"]]
CATEGORIES = [[], ["-cat", "1"], ["-cat", "2"], ["-cat", "3"]]
BETAS = [[], ["-b", "1"], ["-b", "2"]]


def _jobs(files: dict[str, Path]) -> list[list[str]]:
    jobs = []
    # every flag combination: altered hypothesis against the two-annotator gold
    hyp, ref = str(files["altered"]), str(files["official-2014.combined.m2"])
    for k, (mode, selection, category) in enumerate(itertools.product(MODES, SELECTIONS, CATEGORIES)):
        jobs.append(["-hyp", hyp, "-ref", ref, *mode, *selection, *category, *BETAS[k % 3]])
    # verbose, per mode
    for mode in MODES:
        jobs.append(["-hyp", hyp, "-ref", ref, "-v", *mode])
    # annotator 1 against annotator 0; a multi-annotator hypothesis; the altered one against one annotator
    pairs = [("official-2014.1.m2", "official-2014.0.m2"), ("official-2014.combined.m2", "official-2014.combined.m2"),
             ("altered", "official-2014.0.m2")]
    for (hyp_name, ref_name), mode in itertools.product(pairs, MODES):
        jobs.append(["-hyp", str(files[hyp_name]), "-ref", str(files[ref_name]), *mode, "-cat", "3"])
    jobs.append(["-hyp", str(files["official-2014.combined.m2"]), "-ref", str(files["official-2014.1.m2"]), "-v", "-single"])
    return jobs


def test_identical_to_errant_for_every_flag_combination(errant_peer, m2_files, tmp_path):
    jobs = _jobs(m2_files)
    expected = run_errant(errant_peer, jobs, tmp_path)
    mismatches = [" ".join(job) for job, want in zip(jobs, expected) if run_ours(job) != want]
    assert not mismatches, f"{len(mismatches)} of {len(jobs)} differ, first: {mismatches[0]}"
    # the comparison is not trivial: the numbers vary over the flags
    assert len({want.strip().splitlines()[-2] for want in expected}) > 20


def test_full_conll14_annotator_1_against_0(errant_peer, conll14, tmp_path):
    hyp, ref = str(conll14 / "official-2014.1.m2"), str(conll14 / "official-2014.combined.m2")
    jobs = [["-hyp", hyp, "-ref", ref], ["-hyp", hyp, "-ref", str(conll14 / "official-2014.0.m2"), "-cat", "3"]]
    expected = run_errant(errant_peer, jobs, tmp_path)
    for job, want in zip(jobs, expected):
        assert run_ours(job) == want


def test_cli_subprocess(conll14):
    hyp, ref = str(conll14 / "official-2014.1.m2"), str(conll14 / "official-2014.0.m2")
    run = subprocess.run([sys.executable, "-c", "from gecmetrics.cli import main; main()", "m2", "compare",
                          "-hyp", hyp, "-ref", ref], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    numbers = run.stdout.strip().splitlines()[-2].split("\t")
    result = ErrantCompare().compare(read_m2(hyp), read_m2(ref))
    assert numbers == [str(result.tp), str(result.fp), str(result.fn), *map(str, result.rounded())]
    assert result.pair_counts.shape == (1312, 1, 3)
    assert int(result.sentence_counts[:, 0].sum()) == result.tp
