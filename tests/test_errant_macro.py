"""Macro-averaged P, R, F over ERRANT's error types (errant pull request #52, ``--f_average
macro``) for ``m2 compare``, ``errant`` and the ``compare`` columns: against numbers computed by
hand on small M2 files (tests/data/macro/), and the PR's own compare_m2.py on CoNLL-2014 AMU
(the numbers recorded in tests/data/macro/conll14_amu_pr52.txt)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from gecmetrics.cli import main
from gecmetrics.core.edits.compare import _rounded_scalar, macro_scores, rounded_scores
from gecmetrics.errors import InputError
from gecmetrics.io.m2 import read_m2
from gecmetrics.metrics.m2 import ErrantCompare
from tests.conftest import RECORDED_BEFORE_PYTHON_312, SPACY_TEST_MODEL, check_level_json, run_cli

DATA = Path(__file__).parent / "data" / "macro"


def blocks(name: str):
    return read_m2(str(DATA / name))


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def overall_line(text: str) -> list[str]:
    """The numbers line of compare_m2's overall table (the line after the TP/FP/FN header)."""
    lines = text.splitlines()
    return lines[[k for k, line in enumerate(lines) if line.startswith("TP\tFP\tFN")][-1] + 1].split("\t")


# ------------------------------------------------------------------ the definition


def test_macro_of_categories_by_hand():
    # three types: (1, 0, 0) -> P 1, R 1, F 1; (0, 1, 0) -> P 0, R 1, F 0; (1, 0, 1) -> P 1, R 0.5,
    # F0.5 = 1.25 * 0.5 / (0.25 + 0.5) = 0.8333; means: P 2/3, R 2.5/3, F 1.8333/3
    assert macro_scores([(1, 0, 0), (0, 1, 0), (1, 0, 1)], 0.5) == (0.6667, 0.8333, 0.6111)
    # two groups whose means fall on a half: (1 + 0.3333) / 2 = 0.66665, which Python rounds to
    # 0.6666 (the binary value lies below the half), as the PR's compare_m2.py prints it
    assert macro_scores([(1, 0, 0), (1, 2, 2)], 0.5) == (0.6666, 0.6666, 0.6666)
    # no category at all: compare_m2's scores of zero counts (the PR divides by zero there)
    assert macro_scores([], 0.5) == (1.0, 1.0, 1.0)


def test_scalar_scores_are_the_array_scores():
    for beta in (0.5, 1.0, 2.0, 0.0, float("inf")):
        for tp in range(4):
            for fp in range(4):
                for fn in range(4):
                    assert _rounded_scalar(tp, fp, fn, beta) == rounded_scores(tp, fp, fn, beta)


# ------------------------------------------------------------------ small M2 files, by hand


def test_three_sentences_by_hand():
    """three.hyp.m2 against three.ref.m2: sentence 1 keeps annotator 1 (macro 0.5 > 0.3333 with
    annotator 0); the chosen pairs give R:VERB:SVA (1, 0, 1), R:NOUN (0, 1, 0), M:PUNCT (1, 0, 0),
    R:VERB:TENSE (0, 1, 0), R:NOUN:NUM (0, 0, 1): P = (1 + 0 + 1 + 0 + 1) / 5 = 0.6,
    R = (0.5 + 1 + 1 + 1 + 0) / 5 = 0.7, F = (0.8333 + 0 + 1 + 0 + 0) / 5 = 0.3667; the summed
    counts stay TP 2, FP 2, FN 2 (micro: P = R = F = 0.5)."""
    result = ErrantCompare(average="macro").compare(blocks("three.hyp.m2"), blocks("three.ref.m2"))
    assert (result.tp, result.fp, result.fn) == (2, 2, 2)
    assert result.rounded() == (0.6, 0.7, 0.3667)
    assert result.macro and result.overall() == (0.6, 0.7, 0.3667)
    # -cat 1: M (1, 0, 0) -> 1, 1, 1; R (1, 2, 2) -> 0.3333 each: means 0.66665 -> 0.6666
    assert result.overall(1) == (0.6666, 0.6666, 0.6666)
    # -cat 2 keeps the five groups (VERB:SVA, NOUN, PUNCT, VERB:TENSE, NOUN:NUM)
    assert result.overall(2) == (0.6, 0.7, 0.3667)
    micro = ErrantCompare().compare(blocks("three.hyp.m2"), blocks("three.ref.m2"))
    assert micro.rounded() == (0.5, 0.5, 0.5) and not micro.macro and micro.overall(1) == (0.5, 0.5, 0.5)


def test_the_choice_follows_the_macro_f():
    """choice.*.m2: sentence 1 gives R:DET (1, 0, 0) and R:PREP (0, 0, 1). In sentence 2 the
    system changes nothing; annotator 0 has one R:NOUN edit, annotator 1 two R:PREP edits.
    Micro F prefers annotator 0 (one FN: F 0.7143 against 0.625); the macro F prefers annotator 1:
    with annotator 0 the types are DET (F 1), PREP (F 0), NOUN (F 0): 0.3333; with annotator 1,
    DET (F 1) and PREP (0, 0, 3) (F 0): 0.5. So P = (1 + 1) / 2 = 1, R = (1 + 0) / 2 = 0.5,
    F = 0.5, counts TP 1, FP 0, FN 3 (a macro average of the micro choice would give F 0.3333).
    Sentence 3's UNK edit counts only in detection (-ds, -dt): a third type UNK (0, 0, 1) with
    P 1, R 0, F 0: P 1, R 0.3333, F 0.3333."""
    hyp, ref = blocks("choice.hyp.m2"), blocks("choice.ref.m2")
    macro = ErrantCompare(average="macro").compare(hyp, ref)
    assert (macro.tp, macro.fp, macro.fn) == (1, 0, 3) and macro.rounded() == (1.0, 0.5, 0.5)
    assert macro.chosen_pair[1] != ErrantCompare().compare(hyp, ref).chosen_pair[1]
    micro = ErrantCompare().compare(hyp, ref)
    assert (micro.tp, micro.fp, micro.fn) == (1, 0, 2)
    assert macro_scores([(c.tp, c.fp, c.fn) for c in micro.categories.values()], 0.5)[2] == 0.3333
    for mode in ("ds", "dt"):
        detected = ErrantCompare(mode=mode, average="macro").compare(hyp, ref)
        assert set(detected.categories) == {"R:DET", "R:PREP", "UNK"}
        assert (detected.tp, detected.fp, detected.fn) == (1, 0, 4)
        assert detected.rounded() == (1.0, 0.3333, 0.3333)


def test_noop_never_counts_and_empty_corpus_is_compare_m2s_zero_counts(tmp_path):
    noop = "S a b\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n"
    (tmp_path / "n.m2").write_text(noop * 2, encoding="utf-8")
    result = ErrantCompare(average="macro").compare(read_m2(str(tmp_path / "n.m2")), read_m2(str(tmp_path / "n.m2")))
    assert result.categories == {} and result.rounded() == (1.0, 1.0, 1.0)


# ------------------------------------------------------------------ commands and settings


def test_m2_compare_prints_the_prs_report():
    hyp, ref = str(DATA / "three.hyp.m2"), str(DATA / "three.ref.m2")
    for flags in (["--macro"], ["--f_average", "macro"], ["--f-average", "macro"]):
        out = run("m2", "compare", "-hyp", hyp, "-ref", ref, *flags)
        assert out.exit_code == 0, out.output
        assert "TP\tFP\tFN\tPrec\tRec\tF0.5 (macro)" in out.output
        assert overall_line(out.output) == ["2", "2", "2", "0.6", "0.7", "0.3667"]
        assert re.search(r"^={14} Span-Based Correction ={15}$", out.output, re.M)  # the PR's 52-wide rule
        assert "=" * 52 + "\n" in out.output
    cat1 = run("m2", "compare", "-hyp", hyp, "-ref", ref, "--macro", "-cat", "1")
    assert overall_line(cat1.output) == ["2", "2", "2", "0.6666", "0.6666", "0.6666"]
    plain = run("m2", "compare", "-hyp", hyp, "-ref", ref)
    assert overall_line(plain.output) == ["2", "2", "2", "0.5", "0.5", "0.5"] and "(macro)" not in plain.output
    table = run("m2", "compare", "-hyp", hyp, "-ref", ref, "--macro", "-cat", "1", "--tsv", "--scale", "1")
    assert table.output.splitlines()[-1].split("\t")[-5:] == ["2", "2", "0.6666", "0.6666", "0.6666"]
    [data] = json.loads(run("m2", "compare", "-hyp", hyp, "-ref", ref, "--macro", "--json", "--scale", "1").output)
    # JSON at full precision: the PR's means of the types' 4-decimal P, R, F (F: (0.8333 + 1) / 5),
    # before it rounds them (not the means of the types' unrounded figures, (0.8333... + 1) / 5)
    assert (data["precision"], data["recall"]) == pytest.approx((0.6, 0.7), abs=1e-15)
    assert data["scores"] == [data["f"]] and data["f"] == (0.8333 + 1) / 5
    assert data["f"] != 0.3667
    assert data["settings"]["average"] == "macro" and "|average:macro|" in data["signature"]


@pytest.mark.parametrize("level", [None, 1, 2, 3])
@pytest.mark.parametrize("macro", [[], ["--macro"]])
def test_m2_compare_json_is_the_reports_level(level, macro):
    """--json gives the numbers, the categories and the signature the report prints at the -cat
    level (it gave the full types' macro F: 0.3667 beside the text's 0.6666 at -cat 1)."""
    hyp, ref = str(DATA / "three.hyp.m2"), str(DATA / "three.ref.m2")
    data = check_level_json("m2", "compare", "-hyp", hyp, "-ref", ref, *macro, "--scale", "1", level=level)
    if macro and level == 1:
        assert data["f"] == (1 + 0.3333) / 2 and set(data["categories"]) == {"M", "R"}
        code, out, err = run_cli("m2", "compare", "-hyp", hyp, "-ref", ref, *macro, "-cat", "1", "--signature")
        assert err.strip() == data["signature"] == "ERRANT|mode:cs|beta:0.5|average:macro|cat:1|version:0.1.0"


def macro_totals(*flags: str) -> list[str]:
    """P, R, F of the total row of ``m2 compare --macro --tsv`` on three.*.m2."""
    out = run("m2", "compare", "-hyp", str(DATA / "three.hyp.m2"), "-ref", str(DATA / "three.ref.m2"), "--macro",
              "--tsv", *flags)
    assert out.exit_code == 0, out.output
    return out.output.splitlines()[-1].split("\t")[-3:]


def test_more_digits_print_the_mean_the_pr_rounds():
    """The PR averages each type's 4-decimal P, R, F and rounds the mean to 4 decimals. At the
    default -d the table prints that rounding (-cat 1: the mean (1 + 0.3333) / 2 = 0.66665 lies
    below the half in binary, 0.6666, as the PR prints it); at a larger -d the digits of the mean
    itself (it printed 0.666600 and 0.366700, the rounding padded with zeros); --json holds the
    mean, so the table at any -d and the JSON show one number."""
    assert macro_totals("--scale", "1") == ["0.6000", "0.7000", "0.3667"]
    assert macro_totals("--scale", "1", "-d", "6") == ["0.600000", "0.700000", "0.366660"]
    assert macro_totals("--scale", "1", "-cat", "1") == ["0.6666"] * 3
    assert macro_totals("--scale", "1", "-cat", "1", "-d", "6") == ["0.666650"] * 3
    assert macro_totals("-cat", "1") == ["66.66"] * 3  # x100 at 2 decimals: the PR's 4
    assert macro_totals("-cat", "1", "-d", "4") == ["66.6650"] * 3
    hyp, ref = str(DATA / "three.hyp.m2"), str(DATA / "three.ref.m2")
    for cat, f in (([], (0.8333 + 1) / 5), (["-cat", "1"], (1 + 0.3333) / 2)):
        [data] = json.loads(run("m2", "compare", "-hyp", hyp, "-ref", ref, "--macro", "--json", "--scale", "1",
                                *cat).output)
        assert data["f"] == data["scores"][0] == f
        assert [float(x) for x in macro_totals("--scale", "1", "-d", "17", *cat)] == \
            [data["precision"], data["recall"], data["f"]]


def test_fewer_digits_round_the_score_not_errants_rounding(tmp_path):
    """Fewer digits than ERRANT's 4 decimals round the score itself: P = 6/11 = 0.545454...
    prints 0.545 at -d 3 (it printed 0.546, ERRANT's 0.5455 rounded again)."""
    source = "S " + " ".join("abcdefghijk")
    for name, edits in (("hyp", 11), ("ref", 6)):
        lines = [source] + [f"A {i} {i + 1}|||R:NOUN|||X|||REQUIRED|||-NONE-|||0" for i in range(edits)]
        (tmp_path / f"{name}.m2").write_text("\n".join(lines) + "\n\n", encoding="utf-8")

    def precision(*flags: str) -> str:
        out = run("m2", "compare", "-hyp", str(tmp_path / "hyp.m2"), "-ref", str(tmp_path / "ref.m2"), "--tsv", *flags)
        assert out.exit_code == 0, out.output
        return out.output.splitlines()[-1].split("\t")[4]
    assert (precision("--scale", "1"), precision("--scale", "1", "-d", "3"), precision("-d", "1")) == \
        ("0.5455", "0.545", "54.5")


def test_macro_refusals_are_one_line():
    hyp, ref = str(DATA / "three.hyp.m2"), str(DATA / "three.ref.m2")
    for args, message in [(["--macro", "-v"], "per-sentence trace"),
                          (["--macro", "--f_average", "micro"], "contradict"),
                          (["--f_average", "mean"], "micro, macro"),
                          (["--macro", "--sentence-average"], "choose one")]:
        out = run("m2", "compare", "-hyp", hyp, "-ref", ref, *args)
        assert out.exit_code == 2 and message in out.output and "Traceback" not in out.output, out.output
    metric = ErrantCompare(average="macro")
    assert not metric.has_sentence_scores
    with pytest.raises(InputError, match="no paired test"):
        metric.resampler(0, 1)
    assert metric.column_names() == ["F0.5 macro"]
    assert ErrantCompare().signature(1) != metric.signature(1) and "average" not in ErrantCompare().signature(1)


def test_compare_column_and_errant_on_text(spacy_model, tmp_path):  # noqa: ARG001 (skips without the model)
    """``errant:average=macro`` as a compare column and ``gecmetric errant --macro``: the
    systems annotated on text (the tiny corpus annotates as three.hyp.m2)."""
    (tmp_path / "src").write_text("This are a cat .\nHe go home\nI like dog .\n", encoding="utf-8")
    (tmp_path / "hyp").write_text("This is a dog .\nHe went home .\nI like dog .\n", encoding="utf-8")
    ref = str(DATA / "three.ref.m2")
    spec = f"errant:spacy_model={SPACY_TEST_MODEL}"
    out = run("compare", "-s", str(tmp_path / "src"), "-o", str(tmp_path / "hyp"), "--m2", ref, "--metrics",
              f"{spec},{spec}:average=macro", "--scale", "1", "-d", "4", "--json")
    assert out.exit_code == 0, out.output
    scores = json.loads(out.output)["rows"][0]["scores"]
    assert scores == {"ERRANT F0.5": 0.5, "ERRANT F0.5 macro": (0.8333 + 1) / 5}  # as --json holds it
    errant = run("errant", "-s", str(tmp_path / "src"), "-r", ref, "-o", str(tmp_path / "hyp"), "--spacy-model",
                 SPACY_TEST_MODEL, "--macro", "-cat", "1", "--scale", "1", "--tsv")
    assert errant.exit_code == 0, errant.output
    assert errant.output.splitlines()[-1].split("\t")[-3:] == ["0.6666", "0.6666", "0.6666"]
    for level in (None, 1, 2):
        data = check_level_json("errant", "-s", str(tmp_path / "src"), "-r", ref, "-o", str(tmp_path / "hyp"),
                                "--spacy-model", SPACY_TEST_MODEL, "--macro", "--scale", "1", level=level)
        assert data["f"] == {None: (0.8333 + 1) / 5, 1: (1 + 0.3333) / 2, 2: (0.8333 + 1) / 5}[level]


def test_compare_macro_column_at_a_cat_level(spacy_model, tmp_path):  # noqa: ARG001 (skips without the model)
    """``errant:average=macro:cat=N`` in compare is ``gecmetric errant --macro -cat N``'s figure:
    the same number in JSON, the same digits at every -d (the PR's 0.6666 at its 4 decimals,
    where half up would print 0.6667; the mean's own digits at more) and the same signature
    (compare printed the full types' macro F rounded to 4 decimals and had no -cat level)."""
    (tmp_path / "src").write_text("This are a cat .\nHe go home\nI like dog .\n", encoding="utf-8")
    (tmp_path / "hyp").write_text("This is a dog .\nHe went home .\nI like dog .\n", encoding="utf-8")
    src, hyp, ref = str(tmp_path / "src"), str(tmp_path / "hyp"), str(DATA / "three.ref.m2")
    spec = f"errant:spacy_model={SPACY_TEST_MODEL}:average=macro"

    def compared(*flags: str) -> str:
        out = run("compare", "-s", src, "-o", hyp, "--m2", ref, "--metrics", f"{spec}:cat=1", *flags)
        assert out.exit_code == 0, out.output
        return out.output

    def errant(*flags: str) -> str:
        out = run("errant", "-s", src, "-r", ref, "-o", hyp, "--spacy-model", SPACY_TEST_MODEL, "--macro", "-cat", "1",
                  *flags)
        assert out.exit_code == 0, out.output
        return out.output

    for flags, shown in ((["--scale", "1", "-d", "4"], "0.6666"), (["--scale", "1", "-d", "6"], "0.666650"),
                         ([], "66.66"), (["-d", "3"], "66.665")):
        assert compared("--tsv", *flags).splitlines()[1].split("\t")[1] == shown, flags
        assert errant("--tsv", *flags).splitlines()[-1].split("\t")[-1] == shown, flags
    [data] = json.loads(errant("--json", "--scale", "1"))
    assert json.loads(compared("--json", "--scale", "1"))["rows"][0]["scores"] == {"ERRANT F0.5 macro cat:1": data["f"]}
    assert data["f"] == (1 + 0.3333) / 2
    signature = compared("--signature", "--tsv").splitlines()[-1].split("\t")[-1]
    assert signature == data["signature"] and "|average:macro|cat:1|" in signature
    for level in ("", ":cat=3"):  # the full types, as without a level (so the same signature)
        full = run("compare", "-s", src, "-o", hyp, "--m2", ref, "--metrics", spec + level, "--tsv", "--signature")
        assert full.exit_code == 0 and full.output.splitlines()[1].split("\t")[1] == "36.67", full.output
        assert "|cat:" not in full.stderr
    for bad, message in (("errant:cat=1", "give average=macro with it"),
                         ("errant:average=macro:cat=4", "must be 1, 2 or 3")):
        out = run("compare", "-s", src, "-o", hyp, "--m2", ref, "--metrics", bad)
        assert out.exit_code == 2 and message in out.output and len(out.output.splitlines()) == 1, out.output


# ------------------------------------------------------------------ the PR's script on CoNLL-2014


def recorded_pr_numbers() -> list[tuple[str, list[str], list[str]]]:
    """(reference, flags, printed TP FP FN P R F) of tests/data/macro/conll14_amu_pr52.txt."""
    rows = []
    for line in (DATA / "conll14_amu_pr52.txt").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            reference, flags, *numbers = line.split("\t")
            rows.append((reference, [] if flags == "none" else flags.split(), numbers))
    return rows


@RECORDED_BEFORE_PYTHON_312
def test_equals_the_prs_compare_m2_on_conll14_amu(conll14, spacy_model, warm_parses, tmp_path):  # noqa: ARG001
    """AMU annotated as errant_parallel does, against the gold M2 as distributed (NUCLE types)
    and re-annotated with --auto (ERRANT types): every recorded run of the PR's script (the
    parses from the test run's store of CoNLL-2014 parses)."""
    amu, auto = tmp_path / "AMU.m2", tmp_path / "gold.auto.m2"
    gold = conll14 / "official-2014.combined.m2"
    for args in (["-orig", str(conll14 / "INPUT"), "-cor", str(conll14 / "AMU"), "-o", str(amu)],
                 ["--from-m2", str(gold), "--auto", "-o", str(auto)]):
        made = run("--cache", str(warm_parses.folder), "m2", "annotate", *args, "--spacy-model", SPACY_TEST_MODEL)
        assert made.exit_code == 0, made.output
    references = {"gold.auto": str(auto), "nucle": str(gold)}
    rows = recorded_pr_numbers()
    assert len(rows) == 8
    for reference, flags, numbers in rows:
        out = run("m2", "compare", "-hyp", str(amu), "-ref", references[reference], "--macro", *flags)
        assert out.exit_code == 0, out.output
        assert overall_line(out.output) == numbers, (reference, flags)


def test_errant_warns_when_the_filters_leave_nothing_to_compare(spacy_model, tmp_path):  # noqa: ARG001
    """`errant -filt` naming every edit type present printed P = R = F = 1.0 (compare_m2's score
    of nothing compared) without a word: the numbers stay, a warning says nothing was compared."""
    (tmp_path / "src").write_text("This are a cat .\nHe go home\nI like dog .\n", encoding="utf-8")
    (tmp_path / "hyp").write_text("This is a dog .\nHe went home .\nI like dog .\n", encoding="utf-8")
    args = ["errant", "-s", str(tmp_path / "src"), "-r", str(DATA / "three.ref.m2"), "-o", str(tmp_path / "hyp"),
            "--spacy-model", SPACY_TEST_MODEL, "--scale", "1"]
    first = run(*args, "-cat", "3", "--json")
    assert first.exit_code == 0 and "left no edit" not in first.stderr, first.output
    types = sorted(json.loads(first.stdout)[0]["categories"])
    assert len(types) > 1
    filtered = run(*args, "--json", "-filt", *types)
    assert filtered.exit_code == 0, filtered.output
    numbers = json.loads(filtered.stdout)[0]
    assert [numbers[key] for key in ("tp", "fp", "fn", "precision", "recall", "f")] == [0, 0, 0, 1.0, 1.0, 1.0]
    assert filtered.stderr == (f"gecmetric: warning: -filt {' '.join(types)} left no edit to compare (of the "
                               "hypothesis or the reference): P = R = F = 1 is compare_m2's score of nothing "
                               "compared\n")
