"""Per-type P/R/F of the M2 scorer (nusnlp/m2scorer issue 12) and its macro average, against
numbers computed by hand (docs/m2.md defines the types of TP, FP and FN)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from gecmetrics.cli import main
from gecmetrics.core.edits.lattice import GoldEdit, SystemEdit, match_in_order
from gecmetrics.core.edits.maxmatch import NO_TYPE, overlaps, typed_counts
from gecmetrics.errors import InputError
from gecmetrics.io.m2 import read_m2
from gecmetrics.metrics.m2 import M2Scorer
from tests.conftest import check_level_json

DATA = Path(__file__).parent / "data" / "macro"
LINES = ["This is a dog .", "He went home .", "I like dog ."]


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_overlap_rule():
    assert overlaps(1, 3, 2, 4) and not overlaps(1, 2, 2, 3)  # share a token / touch only
    assert overlaps(3, 3, 3, 5) and overlaps(3, 3, 1, 3) and overlaps(3, 3, 2, 5)  # insertion at start, end, inside
    assert not overlaps(3, 3, 4, 5) and overlaps(3, 3, 3, 3) and not overlaps(3, 3, 4, 4)
    assert overlaps(2, 5, 3, 3) and not overlaps(2, 5, 6, 6)


def test_typed_counts_of_one_sentence():
    gold = [GoldEdit(1, 2, "b", ("the",)), GoldEdit(3, 3, "", ("on",)), GoldEdit(6, 7, "g", ("G",))]
    types = ["ArtOrDet", "Prep", "Nn"]
    system = [SystemEdit(1, 2, "b", "the"),    # matches ArtOrDet: TP
              SystemEdit(2, 4, "c d", "c X d"),  # wrong, spans the Prep insertion at 3: FP Prep
              SystemEdit(9, 10, "j", "J")]     # wrong, overlaps no gold edit: FP (none)
    counts = typed_counts(system, gold, types)
    # Prep and Nn are not matched: FN of their types
    assert counts == {"ArtOrDet": [1, 0, 0], "Prep": [0, 1, 1], NO_TYPE: [0, 1, 0], "Nn": [0, 0, 1]}
    assert sum(c[0] for c in counts.values()) == len(match_in_order(system, gold))
    # a wrong edit over two gold edits of different types is an FP of each
    both = typed_counts([SystemEdit(1, 4, "b c d", "x")], gold, types)
    assert both == {"ArtOrDet": [0, 1, 1], "Prep": [0, 1, 1], "Nn": [0, 0, 1]}
    # a duplicated gold line: the scorer counts the system edit twice, as two TPs of its type
    duplicated = typed_counts([SystemEdit(1, 2, "b", "the")], gold[:1] * 2, ["ArtOrDet", "ArtOrDet"])
    assert duplicated == {"ArtOrDet": [2, 0, 0]}


def test_corpus_by_hand():
    """three.ref.m2 with LINES. Sentence 1 keeps annotator 1 (its F is higher): 'are -> is'
    matches R:VERB:SVA (TP); 'a cat . -> a dog .' (2-5) overlaps none of annotator 1's edits: FP
    '(none)'. Sentence 2: 'He go home -> He went home' (0-3) matches nothing and overlaps
    R:VERB:SVA (1-2) and, ending at 3, the M:PUNCT insertion at 3: an FP of each; the '.'
    insertion matches M:PUNCT (TP); R:VERB:SVA is missed (FN). Sentence 3: R:NOUN:NUM missed.
    Types: R:VERB:SVA (1, 1, 1): P .5, R .5, F .5; (none) (0, 1, 0): 0, 1, 0; M:PUNCT
    (1, 1, 0): .5, 1, 1.25 * .5 / 1.125 = .5556; R:NOUN:NUM (0, 0, 1): 1, 0, 0. Macro:
    P = 2 / 4 = .5, R = 2.5 / 4 = .625, F = 1.0556 / 4 = .2639; micro (the scorer's): .5, .5, .5."""
    gold = read_m2(str(DATA / "three.ref.m2"))
    result = M2Scorer(per_type=True).corpus_score(None, gold, LINES)
    assert {k: (v.tp, v.fp, v.fn) for k, v in result.categories.items()} == {
        "R:VERB:SVA": (1, 1, 1), NO_TYPE: (0, 1, 0), "M:PUNCT": (1, 1, 0), "R:NOUN:NUM": (0, 0, 1)}
    assert (result.precision, result.recall, result.f) == (0.5, 0.5, 0.5) and not result.macro
    macro = M2Scorer(average="macro").corpus_score(None, gold, LINES)
    assert macro.precision == pytest.approx(0.5) and macro.recall == pytest.approx(0.625)
    assert macro.f == pytest.approx((0.5 + 0 + 0.625 / 1.125 + 0) / 4)
    assert macro.totals == result.totals == (2, 4, 4)  # the scorer's correct, proposed, gold
    # -cat 1: '(none)' stays whole; M (1, 1, 0), R (1, 1, 2): P .5, R 1/3, F .5 * 1.25 / (.125 + 1/3)
    assert {k: (v.tp, v.fp, v.fn) for k, v in macro.grouped_categories(1).items()} == {
        "R": (1, 1, 2), NO_TYPE: (0, 1, 0), "M": (1, 1, 0)}
    r_f = 1.25 * 0.5 * (1 / 3) / (0.125 + 1 / 3)
    assert macro.overall(1) == pytest.approx(((0.5 + 0 + 0.5) / 3, (1 / 3 + 1 + 1) / 3, (r_f + 0 + 0.625 / 1.125) / 3))
    # the micro scores are unchanged by keeping the types
    assert M2Scorer().corpus_score(None, gold, LINES).f == result.f


def test_m2_score_cli_per_type_and_macro(tmp_path, monkeypatch):
    gold = str(DATA / "three.ref.m2")
    runner = CliRunner()
    monkeypatch.chdir(tmp_path)
    if True:  # the system file, "hyp" in the current folder, names the rows
        Path("hyp").write_text("\n".join(LINES) + "\n", encoding="utf-8")
        Path("src").write_text("".join(block.source + "\n" for block in read_m2(gold)), encoding="utf-8")
        table = runner.invoke(main, ["m2", "score", "-s", gold, "-o", "hyp", "-cat", "3", "--scale", "1"])
        assert table.exit_code == 0, table.output
        rows = [line.split("\t") for line in table.output.splitlines()]
        assert rows[0] == ["system", "category", "TP", "FP", "FN", "precision (fraction)",
                           "recall (fraction)", "f0.5 (fraction)"]
        assert rows[1:] == [["hyp", "(none)", "0", "1", "0", "0.0000", "1.0000", "0.0000"],
                            ["hyp", "M:PUNCT", "1", "1", "0", "0.5000", "1.0000", "0.5556"],
                            ["hyp", "R:NOUN:NUM", "0", "0", "1", "1.0000", "0.0000", "0.0000"],
                            ["hyp", "R:VERB:SVA", "1", "1", "1", "0.5000", "0.5000", "0.5000"],
                            ["hyp", "total", "2", "2", "2", "0.5000", "0.5000", "0.5000"]]
        macro = runner.invoke(main, ["m2", "score", "-s", gold, "-o", "hyp", "-cat", "3", "--macro", "--scale", "1"])
        assert macro.output.splitlines()[-1].split("\t") == ["hyp", "total", "2", "2", "2", "0.5000", "0.6250",
                                                              "0.2639"]
        plain = runner.invoke(main, ["m2", "score", "-s", gold, "-o", "hyp", "--macro", "--scale", "1"])
        assert plain.output.splitlines()[-1].split("\t") == ["hyp", "0.5000", "0.6250", "0.2639"]
        data = json.loads(runner.invoke(main, ["m2", "score", "-s", gold, "-o", "hyp", "-cat", "1", "--json"]).output)
        assert data[0]["categories"] == {"(none)": [0, 1, 0], "M": [1, 1, 0], "R": [1, 1, 2]}  # the level's groups
        for level in (None, 1, 2, 3):  # JSON as the table at the -cat level (it gave the full types' macro F)
            for macro in ([], ["--macro"]):
                check_level_json("m2", "score", "-s", gold, "-o", "hyp", *macro, "--scale", "1", level=level)
        at_1 = check_level_json("m2", "score", "-s", gold, "-o", "hyp", "--macro", "--scale", "1", level=1)
        r_f = 1.25 * 0.5 * (1 / 3) / (0.125 + 1 / 3)  # test_corpus_by_hand's -cat 1
        assert at_1["f"] == pytest.approx((r_f + 0 + 0.625 / 1.125) / 3) and "|average:macro|cat:1|" in at_1["signature"]
        compared = runner.invoke(main, ["compare", "-s", "src", "-r", "hyp", "-o", "hyp", "--m2", gold, "--metrics",
                                        "m2,m2:average=macro", "--scale", "1", "-d", "4", "--json"])
        assert compared.exit_code == 0, compared.output
        assert json.loads(compared.output)["rows"][0]["scores"] == {"M2 F0.5": 0.5,
                                                                     "M2 F0.5 macro": pytest.approx(0.26388888)}
        # a -cat level of the macro average as a compare column: m2 score --macro -cat 1's number and signature
        compared = runner.invoke(main, ["compare", "-s", "src", "-r", "hyp", "-o", "hyp", "--m2", gold, "--metrics",
                                        "m2:average=macro:cat=1", "--scale", "1", "--json"])
        assert compared.exit_code == 0, compared.output
        column = json.loads(compared.output)["columns"][0]
        assert column["label"] == "M2 F0.5 macro cat:1" and column["signature"] == at_1["signature"]
        assert json.loads(compared.output)["rows"][0]["scores"] == {"M2 F0.5 macro cat:1": at_1["f"]}
        refused = runner.invoke(main, ["compare", "-s", "src", "-r", "hyp", "-o", "hyp", "--m2", gold, "--metrics",
                                       "m2:cat=1"])
        assert refused.exit_code == 2 and "give average=macro with it" in refused.output, refused.output
        for args, message in [(["--macro", "--paired-bs"], "not with a paired test"),
                              (["-cat", "2", "--sentence"], "-cat"), (["--macro", "--sentence-average"], "choose one")]:
            out = runner.invoke(main, ["m2", "score", "-s", gold, "-o", "hyp", "hyp", *args])
            assert out.exit_code == 2 and message in out.output, out.output
    metric = M2Scorer(average="macro")
    assert not metric.has_sentence_scores and metric.column_names() == ["F0.5 macro"]
    with pytest.raises(InputError, match="no paired test"):
        metric.resampler(0, 1)


def test_m2_score_warns_of_cat_1_and_2_groups_of_types_not_errants(tmp_path, monkeypatch):
    """m2 score -cat 1/2 on a gold typed with NUCLE's types grouped 'ArtOrDet' as 'A' and
    'tOrDet' without a word (m2 compare and errant warn); its untyped false positives,
    '(none)', are not such a type."""
    monkeypatch.chdir(tmp_path)
    Path("hyp").write_text("\n".join(LINES) + "\n", encoding="utf-8")
    runner = CliRunner()
    errant_typed = runner.invoke(main, ["m2", "score", "-s", str(DATA / "three.ref.m2"), "-o", "hyp", "-cat", "2"])
    assert errant_typed.exit_code == 0 and errant_typed.stderr == "", errant_typed.stderr
    nucle = Path("nucle.m2")
    nucle.write_text((DATA / "three.ref.m2").read_text(encoding="utf-8").replace("R:VERB:SVA", "SVA")
                     .replace("M:PUNCT", "Mec"), encoding="utf-8")
    for level in ("1", "2"):
        run = runner.invoke(main, ["m2", "score", "-s", str(nucle), "-o", "hyp", "-cat", level])
        assert run.exit_code == 0 and run.stderr.count("\n") == 1 and \
            f"warning: -cat {level} groups ERRANT's types" in run.stderr and "'SVA', 'Mec'" in run.stderr, run.stderr
    assert runner.invoke(main, ["m2", "score", "-s", str(nucle), "-o", "hyp", "-cat", "3"]).stderr == ""
