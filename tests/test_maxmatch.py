"""MaxMatch (M2) scorer: hand-made cases checked against the official scorer, the lattice against
brute force, the CoNLL-2014 numbers of expected/m2.tsv, and the CLI."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from gecmetrics.cli import main
from gecmetrics.io.text import read_lines
from gecmetrics.errors import InputError
from gecmetrics.metrics.m2 import M2Result, M2Scorer
from gecmetrics.io.m2 import parse_m2, read_m2
from gecmetrics.core.edits.lattice import GoldEdit, best_edit_sequence, build_lattice
from gecmetrics.metrics.m2.maxmatch import choose_annotators
from tests.conftest import read_tsv

# (gold M2 text, tokenized hypothesis lines)
CASES = {
    "insertion": ("S He went school .\nA 2 2|||Prep|||to|||REQUIRED|||-NONE-|||0\n", "He went to school ."),
    "deletion": ("S He is go home .\nA 1 2|||Vform|||-NONE-|||REQUIRED|||-NONE-|||0\n", "He go home ."),
    "replacement": ("S She like apples .\nA 1 2|||SVA|||likes|||REQUIRED|||-NONE-|||0\n", "She likes apples ."),
    "multi_token_gold": ("S in the other hand , we\nA 0 2|||Prep|||on the|||REQUIRED|||-NONE-|||0\n",
                         "on the other hand , we"),
    "two_unchanged_inside": ("S a b c d e\nA 0 4|||X|||x b c y|||REQUIRED|||-NONE-|||0\n", "x b c y e"),
    "three_unchanged_inside": ("S a b c d e f\nA 0 5|||X|||x b c d y|||REQUIRED|||-NONE-|||0\n", "x b c d y f"),
    "identical": ("S She like apples .\nA 1 2|||SVA|||likes|||REQUIRED|||-NONE-|||0\n", "She like apples ."),
    "empty_hypothesis": ("S This is fine .\nA 1 2|||Vt|||was|||REQUIRED|||-NONE-|||0\n", ""),
    "alternatives": ("S She like apples .\nA 1 2|||SVA|||liked||likes|||REQUIRED|||-NONE-|||0\n",
                     "She likes apples ."),
    "noop_annotator": ("S She like apples .\nA 1 2|||SVA|||likes|||REQUIRED|||-NONE-|||0\n"
                       "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1\n", "She like apples ."),
    "insertion_at_start": ("S went home .\nA 0 0|||Wci|||Yesterday he|||REQUIRED|||-NONE-|||0\n",
                           "Yesterday he went home ."),
    "unmatched_change": ("S a b c d e f g\n", "a b c X e f g"),
    "running_f_choice": (
        "S a b c d\nA 0 1|||X|||x|||REQUIRED|||-NONE-|||0\nA 2 3|||X|||y|||REQUIRED|||-NONE-|||1\n"
        "A 3 4|||X|||z|||REQUIRED|||-NONE-|||1\n\n"
        "S p q r s\nA 1 2|||X|||Q|||REQUIRED|||-NONE-|||0\nA 1 2|||X|||Q|||REQUIRED|||-NONE-|||1\n"
        "A 3 4|||X|||S|||REQUIRED|||-NONE-|||1\n",
        "x b y d\np Q r S"),
    "repeated_insertions": ("S I saw cat .\nA 2 2|||ArtOrDet|||the|||REQUIRED|||-NONE-|||0\n", "I saw the the cat ."),
    # a wide lattice (567 base edges for 12 + 15 tokens) whose 12,255 arcs fit the budget: the
    # compact search, once used for every lattice that wide, took a path of the same cost with
    # one gold match (F0.5 0.3571); found by a differential fuzz against the m2scorer
    "wide_lattice_within_budget": ("S a b a a a a a a a a a b\nA 0 0|||R:X|||y x|||REQUIRED|||-NONE-|||0\n"
                                   "A 0 2|||R:X|||x x|||REQUIRED|||-NONE-|||0\n", "y x x x x x x x x x x x x y x"),
}

# Produced by the official scorer (github nusnlp/m2scorer, current code) under Python 2.7.18:
#   $(pyenv root)/versions/2.7.18/bin/python scripts/m2scorer.py -v CASE.txt CASE.m2
# with CASE.m2 / CASE.txt the texts above (plus a final newline); values are the printed
# "CORRECT/PROPOSED/GOLD EDITS" counts and "Precision/Recall/F_0.5" lines.
OFFICIAL = {
    "insertion": ((1, 1, 1), (1.0000, 1.0000, 1.0000)),
    "deletion": ((1, 1, 1), (1.0000, 1.0000, 1.0000)),
    "replacement": ((1, 1, 1), (1.0000, 1.0000, 1.0000)),
    "multi_token_gold": ((1, 1, 1), (1.0000, 1.0000, 1.0000)),
    "two_unchanged_inside": ((1, 1, 1), (1.0000, 1.0000, 1.0000)),
    "three_unchanged_inside": ((0, 2, 1), (0.0000, 0.0000, 0.0000)),
    "identical": ((0, 0, 1), (1.0000, 0.0000, 0.0000)),
    "empty_hypothesis": ((0, 1, 1), (0.0000, 0.0000, 0.0000)),
    "alternatives": ((1, 1, 1), (1.0000, 1.0000, 1.0000)),
    "noop_annotator": ((0, 0, 0), (1.0000, 1.0000, 1.0000)),
    "insertion_at_start": ((1, 1, 1), (1.0000, 1.0000, 1.0000)),
    "unmatched_change": ((0, 1, 0), (0.0000, 1.0000, 0.0000)),
    "running_f_choice": ((3, 4, 3), (0.7500, 1.0000, 0.7895)),
    "repeated_insertions": ((1, 2, 1), (0.5000, 1.0000, 0.5556)),
    "wide_lattice_within_budget": ((2, 3, 2), (0.6667, 1.0000, 0.7143)),
}

# Edit sequences (unshrunk) returned by the official's levenshtein.py functions called from
# Python 2.7.18 (levenshtein_matrix with both cost schemes, edit_graph, merge_graph,
# transitive_arcs, set_weights, best_edit_seq_bf) on (source, hypothesis, gold).
OFFICIAL_EDITS = [
    ("x a y", "x b y", [], [(0, 3, "x a y", "x b y")]),
    ("x a y z", "x b y z", [], [(1, 4, "a y z", "b y z")]),
    ("p q x a y z w", "p q x b y z w", [], [(2, 5, "x a y", "x b y")]),
    ("a b c d e f g", "a b c X e f g", [], [(2, 5, "c d e", "c X e")]),
    ("x a y", "x b y", [(1, 2, ("b",))], [(1, 2, "a", "b")]),
    ("in the other hand , we", "on the other hand , we", [(0, 2, ("on the",))], [(0, 2, "in the", "on the")]),
    ("This is fine .", "", [(1, 2, ("was",))], [(0, 4, "This is fine .", "")]),
    ("I saw cat .", "I saw the the cat .", [(2, 2, ("the",))], [(2, 2, "", "the"), (2, 4, "cat .", "the cat .")]),
    ("x y", "x the y", [(1, 1, ("the",))], [(1, 1, "", "the")]),
]


def _gold(source: str, edits) -> list[GoldEdit]:
    tokens = source.split()
    return [GoldEdit(start, end, " ".join(tokens[start:end]), corrections) for start, end, corrections in edits]


@pytest.mark.parametrize("name", sorted(CASES))
def test_hand_made_cases_match_official(name: str) -> None:
    m2_text, hypothesis = CASES[name]
    blocks = parse_m2(m2_text, name)
    result = M2Scorer().score(blocks, hypothesis.split("\n"))
    (correct, proposed, gold), prf = OFFICIAL[name]
    assert (result.correct, result.proposed, result.gold) == (correct, proposed, gold)
    assert [round(x, 4) for x in (result.precision, result.recall, result.f)] == list(prf)


@pytest.mark.parametrize("source, hypothesis, gold, expected", OFFICIAL_EDITS)
def test_edit_sequences_match_official(source, hypothesis, gold, expected) -> None:
    lattice = build_lattice(source.split(), hypothesis.split())
    edits = best_edit_sequence(lattice, _gold(source, gold))
    assert [e.as_tuple() for e in edits] == expected


def test_compact_search_agrees_on_simple_cases() -> None:
    """The search used for divergent sentences (no arcs materialized) finds the same gold
    matches; it may place unmatched edits differently (ties), so only counts are compared."""
    for source, hypothesis, gold, expected in OFFICIAL_EDITS:
        lattice = build_lattice(source.split(), hypothesis.split(), arc_budget=0)
        assert lattice.arcs_into is None
        golds = _gold(source, gold)
        found = [e.as_tuple() for e in best_edit_sequence(lattice, golds) if any(g.matches(e) for g in golds)]
        wanted = [e for e in expected if any(g.start == e[0] and g.end == e[1] and e[3] in g.corrections
                                             for g in golds)]
        assert found == wanted


def test_running_f_choice_depends_on_order_and_is_recomputable() -> None:
    m2_text, hypothesis = CASES["running_f_choice"]
    result = M2Scorer().score(parse_m2(m2_text, "x"), hypothesis.split("\n"))
    assert isinstance(result, M2Result)
    assert result.counts.shape == (2, 2, 3)
    assert result.annotator_mask.all()
    # sentence 1: annotator 0 -> (1, 2, 1), annotator 1 -> (1, 2, 2); sentence 2: (1, 2, 1) vs (2, 2, 2)
    assert result.counts.tolist() == [[[1, 2, 1], [1, 2, 2]], [[1, 2, 1], [2, 2, 2]]]
    assert result.chosen.tolist() == [0, 1]
    again = choose_annotators(result.counts, result.annotator_mask, 0.5)
    assert again.tolist() == result.chosen.tolist()
    # reversed order: the choice is redone from counts only
    assert choose_annotators(result.counts[::-1], result.annotator_mask[::-1], 0.5).tolist() == [1, 0]


def test_signature_and_line_count_error() -> None:
    scorer = M2Scorer()
    assert scorer.signature == "M2|beta:0.5|max-unchanged:2|version:0.1.0"
    blocks = parse_m2(CASES["running_f_choice"][0], "gold.m2")
    with pytest.raises(InputError, match=r"sys\.txt.*1 line .*2 blocks"):
        scorer.score(blocks, ["x b y d"], name="sys.txt")


def _all_alignments(n: int, m: int):
    """Every monotone path (0,0) -> (n,m) with diagonal, down and right steps."""
    if n == 0 and m == 0:
        yield []
        return
    if n > 0 and m > 0:
        for rest in _all_alignments(n - 1, m - 1):
            yield rest + [((n - 1, m - 1), (n, m))]
    if n > 0:
        for rest in _all_alignments(n - 1, m):
            yield rest + [((n - 1, m), (n, m))]
    if m > 0:
        for rest in _all_alignments(n, m - 1):
            yield rest + [((n, m - 1), (n, m))]


def _brute_force_lattice(source: list[str], hypothesis: list[str]) -> dict[tuple[int, int], int]:
    width = len(hypothesis) + 1
    copies: dict[tuple[int, int], int] = {}
    paths = list(_all_alignments(len(source), len(hypothesis)))
    for substitution in (1, 2):
        def cost(path):
            total = 0
            for (i0, j0), (i1, j1) in path:
                if i1 > i0 and j1 > j0:
                    total += 0 if source[i0] == hypothesis[j0] else substitution
                else:
                    total += 1
            return total
        costs = [cost(p) for p in paths]
        best = min(costs)
        edges = {(a[0] * width + a[1], b[0] * width + b[1]) for p, c in zip(paths, costs) if c == best for a, b in p}
        for edge in edges:
            copies[edge] = copies.get(edge, 0) + 1
    return copies


tokens = st.lists(st.sampled_from(["a", "b", "c"]), max_size=4)


@settings(max_examples=150, deadline=None)
@given(tokens, tokens)
def test_lattice_is_the_union_of_all_minimum_cost_alignments(source, hypothesis) -> None:
    lattice = build_lattice(source, hypothesis)
    expected = _brute_force_lattice(source, hypothesis)
    assert lattice.base_copies == expected


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(["a", "b", "c", "d"]), min_size=1, max_size=7),
       st.lists(st.sampled_from(["a", "b", "c", "x"]), max_size=7),
       st.lists(st.tuples(st.integers(0, 7), st.integers(0, 2), st.sampled_from(["", "x", "a b", "c"])), max_size=3),
       st.integers(0, 3))
def test_scores_are_fractions_and_identical_output_proposes_nothing(source, hypothesis, raw_gold, max_unchanged):
    gold_lines = []
    for start, length, correction in raw_gold:
        start = min(start, len(source))
        end = min(len(source), start + length)
        gold_lines.append(f"A {start} {end}|||X|||{correction or '-NONE-'}|||REQUIRED|||-NONE-|||0")
    # An exactly duplicated gold edit counts twice (the official matchSeq's quirk, SPEC 4.4, see
    # test_a_duplicated_gold_edit_counts_twice_as_in_the_official): only then may P exceed 1.
    gold_lines = list(dict.fromkeys(gold_lines))
    text = "S " + " ".join(source) + "\n" + "\n".join(gold_lines) + "\n"
    blocks = parse_m2(text, "gold")
    scorer = M2Scorer(max_unchanged_words=max_unchanged)
    result = scorer.score(blocks, [" ".join(hypothesis)])
    assert 0.0 <= result.precision <= 1.0 and 0.0 <= result.recall <= 1.0 and 0.0 <= result.f <= 1.0
    assert result.correct <= result.proposed and result.correct <= result.gold
    same = scorer.score(blocks, [" ".join(source)])
    assert same.proposed == 0 and same.correct == 0
    # every proposed edit changes the span it covers or is a real re-alignment of equal text
    lattice = build_lattice(source, hypothesis, max_unchanged)
    golds = [GoldEdit(s, e, " ".join(source[s:e]), (c,)) for s, e, c in
             ((min(a, len(source)), min(len(source), min(a, len(source)) + b), c) for a, b, c in raw_gold)]
    for edit in best_edit_sequence(lattice, golds):
        assert edit.original == " ".join(source[edit.start:edit.end])


def test_reproduces_conll14_official_scores(conll14, expected) -> None:
    blocks = read_m2(str(conll14 / "official-2014.combined.m2"))
    rows = [row for row in read_tsv(expected / "m2.tsv") if row["dataset"] == "conll14"]
    assert {row["hypothesis"] for row in rows} >= {"AMU", "CAMB", "CUUI", "INPUT"}
    scorer = M2Scorer()
    for row in rows:
        result = scorer.score(blocks, read_lines(str(conll14 / row["hypothesis"])))
        got = [f"{x:.4f}" for x in (result.precision, result.recall, result.f)]
        assert got == [row["precision"], row["recall"], row["f0.5"]], row["hypothesis"]


def test_cli_prints_tsv_and_rejects_misaligned_files(tmp_path) -> None:
    m2_text, hypothesis = CASES["running_f_choice"]
    gold = tmp_path / "gold.m2"
    gold.write_text(m2_text + "\n")
    good = tmp_path / "good.txt"
    good.write_text(hypothesis + "\n")
    short = tmp_path / "short.txt"
    short.write_text("x b y d\n")
    runner = CliRunner()
    out = runner.invoke(main, ["m2", "score", "-s", str(gold), "-o", str(good), str(good), "--scale", "1"])
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert lines[0] == "system\tprecision (fraction)\trecall (fraction)\tf0.5 (fraction)"
    assert lines[1] == f"{good}\t0.7500\t1.0000\t0.7895"
    assert len(lines) == 3
    out = runner.invoke(main, ["m2", "score", "-s", str(gold), "-o", str(good), "-d", "2", "--sentence", "--scale", "1"])
    assert out.output.splitlines()[1:] == [f"{good}\t1\t0.50\t1.00\t0.56", f"{good}\t2\t1.00\t1.00\t1.00"]
    out = runner.invoke(main, ["m2", "score", "-s", str(gold), "-o", str(good), "--sentence"])  # x100
    assert out.output.splitlines()[1:] == [f"{good}\t1\t50.00\t100.00\t55.56", f"{good}\t2\t100.00\t100.00\t100.00"]
    out = runner.invoke(main, ["m2", "score", "-s", str(gold), "-o", str(good), "-v"])
    assert ">> Chosen Annotator for line 2 : 1" in out.output and "CORRECT EDITS  : 3" in out.output
    proc = subprocess.run([sys.executable, "-c", "from gecmetrics.cli import main; main()", "m2", "score",
                           "-s", str(gold), "-o", str(short)], capture_output=True, text=True)
    assert proc.returncode == 2
    # the message names both files (issue 12: it used to say only "the M2 file")
    assert proc.stderr.strip() == f"gecmetric: error: {short}: has 1 line but the M2 file {gold} has 2 blocks"
    out = runner.invoke(main, ["m2", "score", "-s", str(gold), "-o", str(short)])
    assert out.exit_code == 2
    assert f"{short}: has 1 line but the M2 file {gold} has 2 blocks" in out.output


class _ListedArc:
    """An arc copy in the official's arc list: equal to every copy of the same arc."""

    def __init__(self, key: tuple[int, int], position: int) -> None:
        self.key, self.position = key, position

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _ListedArc) and other.key == self.key


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.booleans()), min_size=1, max_size=25), st.integers(1, 3))
def test_no_change_removal_replays_removing_from_the_iterated_list(copies, first_position) -> None:
    """The official removes no-change arcs from the list it iterates (list.remove drops an
    arc's first copy, and the element after each removal is never examined); the replay must
    leave the same copies. Arcs 0-4, each copy listed in order; the boolean makes the arc a
    no-change arc (its last copy decides, as the final state of an arc does)."""
    from gecmetrics.core.edits.lattice import _remove_no_change_arcs
    no_change_arc = {key: flag for key, flag in copies}
    listed = [_ListedArc((key, 9), first_position + index) for index, (key, _) in enumerate(copies)]
    # the official: iterate and remove in place
    official = list(listed)
    for entry in official:
        if no_change_arc[entry.key[0]]:
            official.remove(entry)
    expected = {}
    for entry in official:
        expected.setdefault(entry.key, []).append(entry.position)
    # the replay, on arcs [length, unchanged, positions, weight] (no change: unchanged == length)
    arcs_into: dict[int, dict[int, list]] = {9: {}}
    for entry in listed:
        key = entry.key[0]
        arc = arcs_into[9].setdefault(key, [2, 2 if no_change_arc[key] else 0, [], 0])
        arc[2].append(entry.position)
    no_change = [(entry.position, entry.key[0], 9, arcs_into[9][entry.key[0]])
                 for entry in listed if no_change_arc[entry.key[0]]]
    removed = _remove_no_change_arcs(arcs_into, no_change)
    assert removed == len(listed) - len(official)
    assert {(key, 9): arc[2] for key, arc in arcs_into[9].items()} == expected


def test_negative_beta_is_a_usage_error(tmp_path):
    """A negative beta would be squared into a positive one: refuse it (m2 score and compare)."""
    from click.testing import CliRunner

    from gecmetrics.cli import main

    gold = tmp_path / "gold.m2"
    gold.write_text("S a b\nA 0 1|||R|||c|||REQUIRED|||-NONE-|||0\n\n")
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("c b\n")
    for args in (["m2", "score", "-s", str(gold), "-o", str(hyp), "-b", "-1"],
                 ["m2", "compare", "-hyp", str(gold), "-ref", str(gold), "-b", "-1"]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 2 and result.stdout == "" and len(result.stderr.strip().splitlines()) == 1


def test_a_duplicated_gold_edit_counts_twice_as_in_the_official() -> None:
    """The official matchSeq does not stop at the first gold edit a system edit matches (SPEC
    4.4): with the same gold line twice, one correct system edit is two correct edits."""
    gold = parse_m2("S a b c\nA 1 2|||R:X|||x|||REQUIRED|||-NONE-|||0\nA 1 2|||R:X|||x|||REQUIRED|||-NONE-|||0\n",
                    "dup.m2")
    result = M2Scorer().score(gold, ["a x c"])
    assert (result.correct, result.proposed, result.gold) == (2, 1, 2)


def test_m2scorer_positional_form_underscore_flags_and_scale(tmp_path) -> None:
    """`m2 score SYSTEM GOLD` as the m2scorer takes them, its underscore flags, --scale 1 and 100 (the default)."""
    from tests.conftest import one_line_error, run_cli

    m2_text, hypothesis = CASES["running_f_choice"]
    gold, good = tmp_path / "gold.m2", tmp_path / "good.txt"
    gold.write_text(m2_text + "\n")
    good.write_text(hypothesis + "\n")
    code, out, err = run_cli("m2", "score", str(good), str(gold), "--scale", "1")
    assert code == 0 and out.splitlines()[1] == f"{good}\t0.7500\t1.0000\t0.7895", err
    code, out, err = run_cli("m2", "score", "--max_unchanged_words", "2", "--beta", "0.5", str(good), str(gold),
                             "--scale", "1")
    assert code == 0 and out.splitlines()[1] == f"{good}\t0.7500\t1.0000\t0.7895", err
    assert run_cli("m2", "score", "--ignore_whitespace_casing", str(good), str(gold)) == \
        run_cli("m2", "score", "--ignore-whitespace-casing", str(good), str(gold))
    code, out, err = run_cli("m2", "score", "--gold", str(gold), "-o", str(good))
    assert out.splitlines() == ["system\tprecision (x100)\trecall (x100)\tf0.5 (x100)", f"{good}\t75.00\t100.00\t78.95"]
    assert "SYSTEM GOLD" in one_line_error("m2", "score", str(good))
    assert "not both" in one_line_error("m2", "score", str(good), str(gold), "-s", str(gold))
    assert "missing input" in one_line_error("m2", "score")


def test_a_byte_order_mark_is_dropped_where_the_m2scorer_keeps_it_in_the_first_word(tmp_path) -> None:
    """SPEC 1 (docs/m2.md): a UTF-8 BOM at the start of the hypothesis or gold file is dropped. The
    m2scorer keeps it: `python2 scripts/m2scorer.py HYP GOLD` (nusnlp/m2scorer) printed Precision
    0.5000, Recall 1.0000, F_0.5 0.5556 for this hypothesis (its edit a -> <BOM>a is an FP), and
    P = R = F = 1.0000 without the mark; on the gold with a mark it stops on `assert sentence != []`."""
    from tests.conftest import run_cli

    gold, hypothesis = tmp_path / "gold.m2", tmp_path / "hyp.txt"
    gold.write_bytes("\ufeffS a b c\nA 1 2|||R:X|||x|||REQUIRED|||-NONE-|||0\n\n".encode())
    hypothesis.write_bytes("\ufeffa x c\n".encode())
    code, out, err = run_cli("m2", "score", str(hypothesis), str(gold), "--scale", "1")
    assert (code, out.splitlines()[1]) == (0, f"{hypothesis}\t1.0000\t1.0000\t1.0000"), err


TIE_GOLD = "".join(f"S a b c d e f g h\n{edit}\n\n" for edit in
                   ["A 0 1|||Vt|||x|||REQUIRED|||-NONE-|||0"] * 4 + ["A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0"] * 3)
TIE_HYPOTHESIS = "x b c d e f g h\n" + "a B c d e f g h\n" * 6


def test_a_score_exactly_half_way_at_4_decimals_is_printed_as_the_m2scorer_prints_it(tmp_path) -> None:
    """Correct 1, proposed 7, gold 4: F0.5 is 5/32 = 0.15625 exactly in binary, which the
    m2scorer's "%.4f" rounds to even: `python2 scripts/m2scorer.py HYP GOLD` (nusnlp/m2scorer)
    printed Precision 0.1429, Recall 0.2500, F_0.5 0.1562 (half up from the decimal form: 0.1563).
    Every table printing M2 at 4 fraction decimals (m2 score at its defaults, x100 or --scale 1,
    -cat's total, compare's M2 column) prints 0.1562; more decimals print the value itself."""
    from tests.conftest import run_cli

    gold, hypothesis, source = tmp_path / "gold.m2", tmp_path / "hyp.txt", tmp_path / "src.txt"
    gold.write_text(TIE_GOLD)
    hypothesis.write_text(TIE_HYPOTHESIS)
    source.write_text("a b c d e f g h\n" * 7)
    result = M2Scorer().score(parse_m2(TIE_GOLD, "gold"), TIE_HYPOTHESIS.splitlines())
    assert (result.correct, result.proposed, result.gold, result.f) == (1, 7, 4, 0.15625)

    def last_row(*args: str) -> list[str]:
        code, out, err = run_cli(*args)
        assert code == 0, err
        return out.splitlines()[-1].split("\t")[1:]
    assert last_row("m2", "score", str(hypothesis), str(gold), "--scale", "1") == ["0.1429", "0.2500", "0.1562"]
    assert last_row("m2", "score", str(hypothesis), str(gold)) == ["14.29", "25.00", "15.62"]
    assert last_row("m2", "score", str(hypothesis), str(gold), "-d", "4") == ["14.2857", "25.0000", "15.6250"]
    assert last_row("m2", "score", str(hypothesis), str(gold), "-d", "1") == ["14.3", "25.0", "15.6"]
    assert last_row("m2", "score", str(hypothesis), str(gold), "--scale", "1", "-cat", "1")[-3:] == \
        ["0.1429", "0.2500", "0.1562"]
    assert last_row("compare", "-s", str(source), "-o", str(hypothesis), "--m2", str(gold), "--metrics", "m2",
                    "--tsv", "--scale", "1") == ["0.1562"]
    assert last_row("compare", "-s", str(source), "-o", str(hypothesis), "--m2", str(gold), "--metrics", "m2",
                    "--tsv") == ["15.62"]


TIE_WORDS = [f"w{k}" for k in range(40)]
TIE_SENTENCE = " ".join("x" if k == 0 else "y" if k in (10, 14, 18, 22, 26, 30) else word
                        for k, word in enumerate(TIE_WORDS))  # 1 correct edit, 6 others 3 words apart
TIE_SENTENCE_GOLD = ("S " + " ".join(TIE_WORDS) + "\n"
                     + "".join(f"A {k} {k + 1}|||Vt|||x|||REQUIRED|||-NONE-|||0\n" for k in (0, 2, 4, 6)) + "\n"
                     + "S the cat sat\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n")


def test_a_score_half_way_at_4_decimals_prints_alike_in_every_table_of_it(tmp_path) -> None:
    """The first sentence has correct 1, proposed 7, gold 4 (F0.5 = 5/32 = 0.15625 exactly), the
    second no edit, so the corpus's F0.5 is 5/32 too: the m2scorer prints 0.1562 (see above).
    Every table printing that score at 4 fraction decimals prints 0.1562: the corpus table, the
    sentence's row of --sentence (m2 score's and compare's), and a paired test's score and the
    lower end of its interval (a resampled corpus of the first sentence alone, F0.5 = 5/32 again);
    the bootstrap mean and half-width, no scores of the metric, round half up. More decimals: the
    value's own."""
    from tests.conftest import run_cli

    gold, source = tmp_path / "gold.m2", tmp_path / "src.txt"
    gold.write_text(TIE_SENTENCE_GOLD)
    source.write_text(" ".join(TIE_WORDS) + "\nthe cat sat\n")
    systems = [tmp_path / "A", tmp_path / "B"]
    for path in systems:
        path.write_text(TIE_SENTENCE + "\nthe cat sat\n")
    a, b = map(str, systems)

    def rows(*args: str) -> list[list[str]]:
        code, out, err = run_cli(*args)
        assert code == 0, err
        return [line.split("\t") for line in out.splitlines()]
    assert rows("m2", "score", a, str(gold))[1][1:] == ["14.29", "25.00", "15.62"]
    assert rows("m2", "score", a, str(gold), "--sentence")[1] == [a, "1", "14.29", "25.00", "15.62"]
    assert rows("m2", "score", a, str(gold), "--sentence", "--scale", "1")[1] == [a, "1", "0.1429", "0.2500", "0.1562"]
    assert rows("m2", "score", a, str(gold), "--sentence", "-d", "3")[1] == [a, "1", "14.286", "25.000", "15.625"]
    compare = ["compare", "-s", str(source), "-o", a, b, "--m2", str(gold), "--metrics", "m2"]
    assert rows(*compare, "--sentence", "--tsv")[1] == ["1", "15.62", "15.62"]
    assert rows(*compare, "--sentence", "--tsv", "--scale", "1")[1] == ["1", "0.1562", "0.1562"]
    paired = rows("m2", "score", "-s", str(gold), "-o", a, b, "--paired-bs", "100", "--tsv")
    assert [row[2:4] for row in paired[1:]] == [["15.62", "[15.62, 100.00]"]] * 2  # (row[0]: the metric)
    assert paired[1][4].endswith(" ± 42.19")  # the half-width, 27/64 = 0.421875 exactly: no score, half up
    paired = rows(*compare, "--paired-ar", "100", "--all-pairs", "--tsv", "--scale", "1")
    assert [row[2:4] for row in paired[1:3]] == [["0.1562", "[0.1562, 1.0000]"]] * 2
    paired = rows("m2", "score", "-s", str(gold), "-o", a, b, "--paired-bs", "100", "--tsv", "-d", "3")
    assert paired[1][2:4] == ["15.625", "[15.625, 100.000]"]
    edits = tmp_path / "A.m2"  # the system's edits as M2: attribute annotates nothing
    edits.write_text("S " + " ".join(TIE_WORDS) + "\n" + "".join(
        f"A {k} {k + 1}|||Vt|||{'x' if k == 0 else 'y'}|||REQUIRED|||-NONE-|||0\n" for k in (0, 10, 14, 18, 22, 26, 30))
        + "\nS the cat sat\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n")
    attributed = rows("attribute", "-s", str(source), "-r", a, "-o", a, "--hyp-m2", str(edits), "--m2", str(gold),
                      "--metric", "m2", "--method", "add")
    assert attributed[0][-3:] == ["attribution (x100)", "full_score (x100)", "empty_score (x100)"]
    assert attributed[1][-3:] == ["62.50", "15.62", "0.00"]  # the sentence's score with every edit: 5/32


def test_a_results_one_line_prints_its_scores_as_the_tables_do(tmp_path) -> None:
    """57 of 160 gold edits corrected, nothing else proposed: recall 57/160, whose binary value
    lies above 0.35625: the m2scorer prints 0.3563, every table 35.63, and str(result) printed
    35.62 ("%.2f" of 100 x recall, a product rounded to 35.625 exactly, then to even). The one
    line prints what the tables print (ScoreFormat): at a metric's rounds_to as its tool rounds,
    other fractions half up (5/32: 15.63, as compare prints GLEU's and GREEN's)."""
    from gecmetrics.metrics.results import ScoreResult, Signature
    from tests.conftest import run_cli

    gold_text = "S a b c\nA 0 1|||Vt|||x|||REQUIRED|||-NONE-|||0\n\n" * 160
    lines = ["x b c"] * 57 + ["a b c"] * 103
    result = M2Scorer().score(parse_m2(gold_text, "gold"), lines)
    assert (result.recall, round(result.recall, 4)) == (57 / 160, 0.3563) and f"{100 * result.recall:.2f}" == "35.62"
    assert str(result).startswith("M2 F0.5 = 73.45 (P 100.00, R 35.63) | M2|")
    gold, hypothesis = tmp_path / "gold.m2", tmp_path / "hyp.txt"
    gold.write_text(gold_text)
    hypothesis.write_text("\n".join(lines) + "\n")
    code, out, err = run_cli("m2", "score", str(hypothesis), str(gold))
    assert code == 0 and out.splitlines()[1].split("\t")[1:] == ["100.00", "35.63", "73.45"], err
    assert str(ScoreResult.from_scores([0.15625], Signature("X"), {}, {})).startswith("X = 15.63 |")


def test_annotators_are_tried_in_the_official_python2_dict_order() -> None:
    """The official keeps the first annotator on a full tie (same running F, same correct, same
    proposed + beta^2 gold) in the order its Python 2 dicts iterate, which is not the id order for
    ids >= 8. Here annotator 10 (one gold edit, two proposed) and 5 (five gold edits, one proposed)
    tie at F0.5 = 0.5556; the official tries 10 first and keeps it:
    `python2 scripts/m2scorer.py HYP GOLD` (nusnlp/m2scorer) printed Precision 0.5000, Recall
    1.0000, F_0.5 0.5556 (ids 1 for 5 and 0 for 10, tried in the order 0, 1, print the same)."""
    from gecmetrics.core.edits.maxmatch import py2_dict_order
    gold = ("S a b c d e f g h\nA 1 4|||X|||B c D|||REQUIRED|||-NONE-|||5\n"
            "A 0 1|||X|||w|||REQUIRED|||-NONE-|||5\nA 5 6|||X|||x|||REQUIRED|||-NONE-|||5\n"
            "A 6 7|||X|||y|||REQUIRED|||-NONE-|||5\nA 7 8|||X|||z|||REQUIRED|||-NONE-|||5\n"
            "A 1 2|||X|||B|||REQUIRED|||-NONE-|||10\n")
    result = M2Scorer().score(parse_m2(gold, "gold"), ["a B c D e f g h"])
    assert (result.correct, result.proposed, result.gold) == (1, 2, 1)
    assert (round(result.precision, 4), round(result.recall, 4), round(result.f, 4)) == (0.5, 1.0, 0.5556)
    # insertion order -> order of the second dict the official iterates, as Python 2.7.18 printed
    # them (`d = {}` filled in that order, its iteritems() copied into `e`, `e.keys()`)
    for keys, expected in [([5, 10], [10, 5]), ([8, 0], [8, 0]), ([9, 1], [9, 1]), ([3, 11, 19, 0], [19, 3, 11, 0]),
                           (list(range(9)), list(range(9))), ([100, 7, 33], [33, 100, 7])]:
        assert py2_dict_order(py2_dict_order(keys)) == expected


def test_python2_whitespace_and_lowercase_as_the_official() -> None:
    """The official runs under Python 2.7, whose unicode (Unicode 5.2) splits and strips on U+180E
    and lowercases without Python 3's full mappings. `python2 scripts/m2scorer.py -v HYP GOLD`
    (nusnlp/m2scorer) printed CORRECT 3, PROPOSED 4, GOLD 3 for the first file (a hypothesis
    token "x<U+180E>y" is two tokens; a source "a<U+180E>b" is two; a correction "x<U+180E>" is
    stripped to "x"), and with --ignore_whitespace_casing CORRECT 0, PROPOSED 0, GOLD 2 for the
    second (I WITH DOT ABOVE -> i, and capital sigma -> small sigma at the end of a word, are
    case-only edits in Python 2; Python 3's lower() gives i + combining dot, and final sigma)."""
    mvs = "\u180e"
    gold = (f"S a b c\nA 1 2|||X|||x|||REQUIRED|||-NONE-|||0\n\nS a{mvs}b c\nA 1 2|||X|||x|||REQUIRED|||-NONE-|||0\n\n"
            f"S a b c\nA 1 2|||X|||x{mvs}|||REQUIRED|||-NONE-|||0\n")
    result = M2Scorer().score(parse_m2(gold, "gold"), [f"a x{mvs}y c", "a x c", "a x c"])
    assert (result.correct, result.proposed, result.gold) == (3, 4, 3)
    gold = ("S a \u0130 c\nA 0 1|||X|||z|||REQUIRED|||-NONE-|||0\n\n"
            "S x \u0391\u03a3 y\nA 0 1|||X|||z|||REQUIRED|||-NONE-|||0\n")
    result = M2Scorer(ignore_whitespace_casing=True).score(parse_m2(gold, "gold"), ["a i c", "x \u03b1\u03c3 y"])
    assert (result.correct, result.proposed, result.gold) == (0, 0, 2)


def test_bellman_ford_keeps_a_relaxation_made_before_its_source_was_final() -> None:
    """Annotator 2's paths through (5, 4) and (7, 6) both end at the float -428.99800000000005.
    The official's Bellman-Ford reaches it first through (5, 4) in its first pass, with (3, 4)
    still at 4.001 (final: 4.0009999999999994, one pass later; both give -433.999 at (5, 4)),
    so it keeps the deletion (3, 5), which a duplicated gold line counts twice. Replaying only
    final distances put that relaxation in the second pass and kept (5, 7) instead (correct 1,
    so annotator 1 won). `python2 scripts/m2scorer.py --max_unchanged_words 3 HYP GOLD`
    (nusnlp/m2scorer) printed Precision 0.6667, Recall 0.3333, F_0.5 0.5556."""
    gold = ("S b b c a c b c a c\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n"
            "A 9 9|||R:NOUN|||z|||REQUIRED|||-NONE-|||0\nA 4 5|||M:DET|||b|||REQUIRED|||-NONE-|||0\n"
            "A 5 6|||Nn|||a|||REQUIRED|||-NONE-|||0\nA 9 9|||M:DET|||a|||REQUIRED|||-NONE-|||0\n"
            "A 5 6|||ArtOrDet|||-NONE-||c|||REQUIRED|||-NONE-|||0\nA 8 9|||M:DET|||-NONE-|||REQUIRED|||-NONE-|||1\n"
            "A 9 9|||M:DET|||z|||REQUIRED|||-NONE-|||1\nA 1 4|||ArtOrDet|||||a|||REQUIRED|||-NONE-|||1\n"
            "A 0 0|||M:DET|||z|||REQUIRED|||-NONE-|||1\nA 0 0|||M:DET|||a|||REQUIRED|||-NONE-|||1\n"
            "A 7 8|||M:DET|||b a|||REQUIRED|||-NONE-|||1\nA 0 0|||M:DET|||b|||REQUIRED|||-NONE-|||2\n"
            "A 5 7|||Nn||||||REQUIRED|||-NONE-|||2\nA 2 3|||R:NOUN|||a|||REQUIRED|||-NONE-|||2\n"
            "A 9 9|||ArtOrDet|||a||a|||REQUIRED|||-NONE-|||2\nA 3 5|||R:NOUN||||||REQUIRED|||-NONE-|||2\n"
            "A 3 5|||R:NOUN||||||REQUIRED|||-NONE-|||2\n")
    result = M2Scorer(max_unchanged_words=3).score(parse_m2(gold, "gold"), ["z a b c : c a c z"])
    assert (result.correct, result.proposed, result.gold) == (2, 3, 6)
    assert (round(result.precision, 4), round(result.recall, 4), round(result.f, 4)) == (0.6667, 0.3333, 0.5556)


def test_verbose_report_is_the_m2scorers_byte_for_byte() -> None:
    """``m2 score -v`` prints the m2scorer's -v report as it prints it (tests/data/m2scorer_verbose.out,
    made by the m2scorer): every annotator tried, matchSeq's !/&/* lines, edits as Python 2's
    reprs (u'...', '' for a joined nothing or -NONE-), system edits shrunk, numbers as Python 2's
    str() (0.333333333333, 1.0); then the table. Before, the per-sentence P/R/F were at -d
    decimals (0.3333) and only the chosen annotator was shown, in lines of its own."""
    data = Path(__file__).parent / "data"
    expected = [line for line in (data / "m2scorer_verbose.out").read_text(encoding="utf-8").splitlines()
                if not line.startswith("##")]
    system = str(data / "m2scorer_verbose.txt")
    out = CliRunner().invoke(main, ["m2", "score", "-v", system, str(data / "m2scorer_verbose.m2")])
    assert out.exit_code == 0, out.output
    lines = out.stdout.splitlines()
    assert lines[:-2] == expected
    assert lines[-2:] == ["system\tprecision (x100)\trecall (x100)\tf0.5 (x100)", f"{system}\t63.64\t100.00\t68.63"]
    assert out.stderr.startswith("M2|beta:0.5|max-unchanged:2|version:")  # as every scoring command's -v
    # several systems: each report after a '== FILE' line, as errant's
    out = CliRunner().invoke(main, ["m2", "score", "-v", "-s", str(data / "m2scorer_verbose.m2"), "-o", system, system])
    lines = out.stdout.splitlines()
    assert lines[0] == f"== {system}" and lines[1:1 + len(expected)] == expected
    assert lines[1 + len(expected)] == f"== {system}"
    # the trace is the corpus score's: with sentence scores or a paired test -v was dropped silently
    gold = str(data / "m2scorer_verbose.m2")
    for more in (["--sentence"], ["--paired-bs"]):
        out = CliRunner().invoke(main, ["m2", "score", "-v", "-s", gold, "-o", system, system, *more])
        assert (out.exit_code, out.stderr) == (2, "gecmetric: error: -v: prints the m2scorer's trace of the corpus "
                                                  "score: not with --sentence or a paired test\n"), more


def test_choose_annotators_and_pairs_check_arguments():
    """choose_annotators and choose_pairs (docs/m2.md) refuse bad arguments with one InputError:
    a nan beta made the running choice loop forever, a negative pair index was read from the end."""
    import numpy as np
    from gecmetrics.errors import InputError
    from gecmetrics.metrics.m2 import choose_pairs
    counts = np.array([[[1, 0, 0], [0, 5, 5]], [[0, 1, 1], [2, 0, 0]]])
    mask = np.ones((2, 2), dtype=bool)
    assert choose_annotators(counts, mask, 0.5).tolist() == [0, 0]
    assert choose_pairs(counts, [[0, 1], [0, 1]], 0.5).tolist() == [0, 1]
    for order in ([[0, -1], [0, 1]], [[0, 1]], [[0, 5], [0, 1]], [[], [0]], None):
        with pytest.raises(InputError, match="candidate_order"):
            choose_pairs(counts, order, 0.5)
    for beta in (float("nan"), -1, "0.5", None):
        with pytest.raises(InputError, match="beta"):
            choose_annotators(counts, mask, beta)
        with pytest.raises(InputError, match="beta"):
            choose_pairs(counts, [[0, 1], [0, 1]], beta)
    for bad_counts in (None, "abc", np.zeros((2, 2)), counts * np.nan, -counts):
        with pytest.raises(InputError, match="counts"):
            choose_annotators(bad_counts, mask, 0.5)
    for bad_mask in (mask[:1], np.zeros((2, 2), dtype=bool), np.array([[1, 2], [0, 1]])):
        with pytest.raises(InputError):
            choose_annotators(counts, bad_mask, 0.5)
