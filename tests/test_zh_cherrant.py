"""ChERRANT's character level (gecmetrics.core.lang.zh): tokens, costs, tables, paths, merging,
types, and the M2 that ``parallel_to_m2.py -g char`` writes.

Reproduction data (made by the unmodified ChERRANT, see tests/data/make_cherrant_mucgec.py):
* tests/data/cherrant_pairs.para, hand-made pairs (insertions, deletions, word order, noop, NA,
  [缺失成分], traditional characters, whitespace, non-Chinese text, lengths more than 10 apart,
  homophones, several cheapest alignments), with ChERRANT's M2 for the default options
  (cherrant_pairs.m2), ``-s first`` (cherrant_pairs.first.m2) and ``--no_simplified``
  (cherrant_pairs.no_simplified.m2);
* tests/data/cherrant_mucgec_m2.tsv: the SHA-256 of every block of ChERRANT's M2 of the MuCGEC
  dev references and of the authors' example predictions (../shared/data/mucgec).
"""
from __future__ import annotations

import hashlib
import random
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from gecmetrics.core.lang.zh import align as zh_align
from gecmetrics.core.lang.zh.align import CostModel, cheapest_paths, python_table
from gecmetrics.core.lang.zh.annotate import CharAnnotator, PairAnnotation
from gecmetrics.core.lang.zh.classify import TypedEdit, classify
from gecmetrics.core.lang.zh.data import CherrantData
from gecmetrics.core.lang.zh.merge import is_rotation, merge, within_one_edit
from gecmetrics.core.lang.zh.text import PinyinTable, char_tokens, clean
from gecmetrics.errors import InputError
from tests._zh_support import DATA, mucgec_m2, records, require_zh_extra
from tests.conftest import unavailable


# --------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def cherrant_folder(shared_data: Path) -> Path:
    return shared_data / "cherrant"


@pytest.fixture(scope="module")
def annotator(cherrant_folder: Path) -> CharAnnotator:
    require_zh_extra()
    return CharAnnotator(cherrant_folder)


def _require_compiled() -> None:
    if zh_align.compiled is None:
        unavailable("the C extension gecmetrics.core._zhalign is not built in this installation")


class FixedPinyin(PinyinTable):
    """Readings given by the test (no pypinyin)."""

    def __init__(self, readings: dict[str, set[str]]):
        super().__init__()
        for token, found in readings.items():
            self[token] = frozenset(found)

    def __missing__(self, token: str) -> frozenset:
        found = self[token] = frozenset({token})
        return found


def toy_costs() -> CostModel:
    """A cost model over a hand-made thesaurus, confusion set and readings."""
    data = CherrantData({"大": "Ab01A01=", "巨": "Ab01C03=", "小": "Ab02B02=", "猫": "Bi05A01=", "人": "Aa03A01="},
                        {"己": frozenset({"已", "巳", ""}), "未": frozenset({"末"})})
    pinyin = FixedPinyin({"在": {"zai"}, "再": {"zai"}, "猫": {"mao"}, "狗": {"gou"}, "大": {"da", "dai"},
                          "小": {"xiao"}, "巨": {"ju"}, "人": {"ren"}, "己": {"ji"}, "已": {"yi"}, "未": {"wei"},
                          "末": {"mo"}})
    return CostModel(data, pinyin)


# --------------------------------------------------------------------------- text


def test_char_tokens_keep_the_missing_component_placeholder_whole() -> None:
    assert char_tokens("这个[缺失成分]很好") == ["这", "个", "[缺失成分]", "很", "好"]
    assert char_tokens("[缺失成分][缺失成分]") == ["[缺失成分]", "[缺失成分]"]
    assert char_tokens("[缺失成分") == list("[缺失成分")
    assert char_tokens("ab") == ["a", "b"]
    assert char_tokens("") == []


def test_clean_removes_every_whitespace_character() -> None:
    assert clean(" 我 喜欢\u3000猫\t。\r") == "我喜欢猫。"


# --------------------------------------------------------------------------- costs


def test_substitution_costs_follow_cherrant_formula() -> None:
    costs = toy_costs()
    ids = {t: costs.token_id(t) for t in ["大", "巨", "小", "猫", "狗", "在", "再", "，", "！", "。", "a", "己", "已", "人"]}
    cost = lambda a, b: costs.substitution_cost(ids[a], ids[b])  # noqa: E731
    # same Cilin class (only the first four characters of the code count), no shared reading
    assert cost("大", "巨") == 0 / 6.0 + 0.5 + 0.25
    # Cilin codes agree on the first two levels only: 2 * (3 - 2)
    assert cost("大", "小") == 2 / 6.0 + 0.5 + 0.25
    # agree on no level: 2 * 3
    assert cost("大", "猫") == 6 / 6.0 + 0.5 + 0.25
    # first level only
    assert cost("大", "人") == 4 / 6.0 + 0.5 + 0.25
    # no Cilin code: 4; a shared reading makes the character cost 0
    assert cost("在", "再") == 4 / 6.0 + 0.0 + 0.25
    assert cost("猫", "狗") == 4 / 6.0 + 0.5 + 0.25
    # confusion set, in either direction
    assert cost("己", "已") == 4 / 6.0 + 0.0 + 0.25
    assert cost("已", "己") == 4 / 6.0 + 0.0 + 0.25
    # punctuation: both 0, one of them 0.499; non-Chinese characters cost 0.5
    assert cost("，", "！") == 4 / 6.0 + 0.5 + 0.0
    # ChERRANT's punctuation string has the halfwidth U+FF61 but not the ideographic full stop
    # U+3002 '。': kept as it is
    assert cost("，", "。") == 4 / 6.0 + 0.5 + 0.499
    assert cost("，", "猫") == 4 / 6.0 + 0.5 + 0.499
    assert cost("a", "猫") == 4 / 6.0 + 0.5 + 0.25


def _brute_paths(src: list[str], tgt: list[str], costs: CostModel) -> list[list[tuple]]:
    return list(cheapest_paths(python_table(costs.encode(src), costs.encode(tgt), costs)))


def test_paths_match_insert_delete_and_transpose() -> None:
    costs = toy_costs()
    assert _brute_paths(list("我猫"), list("我大猫"), costs) == [[("M", 0, 1, 0, 1), ("I", 1, 1, 1, 2),
                                                                ("M", 1, 2, 2, 3)]]
    assert _brute_paths(list("我大猫"), list("我猫"), costs) == [[("M", 0, 1, 0, 1), ("D", 1, 2, 1, 1),
                                                                ("M", 2, 3, 1, 2)]]
    # two characters swapped: a transposition of 2 costs 1, less than anything else
    assert _brute_paths(list("猫狗"), list("狗猫"), costs) == [[("T2", 0, 2, 0, 2)]]
    # ab -> c: substituting b (after deleting a) ties with deleting b (after substituting a);
    # the substitution is followed first
    assert _brute_paths(list("ab"), list("c"), costs) == [[("D", 0, 1, 0, 0), ("S", 1, 2, 0, 1)],
                                                          [("S", 0, 1, 0, 1), ("D", 1, 2, 1, 1)]]


def test_lengths_far_apart_follow_only_the_first_operation() -> None:
    costs = toy_costs()
    assert len(_brute_paths(list("ab"), list("c" + "d" * 3), costs)) > 1
    assert len(_brute_paths(list("ab"), list("c" + "d" * 11), costs)) > 1  # 10 apart: all paths
    assert len(_brute_paths(list("ab"), list("c" + "d" * 12), costs)) == 1


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(list("大巨小猫狗在再己已，。a[")), max_size=14),
       st.lists(st.sampled_from(list("大巨小猫狗在再己已，。a[")), max_size=14))
def test_compiled_table_equals_the_reference(src: list[str], tgt: list[str]) -> None:
    _require_compiled()
    costs = toy_costs()
    a, b = costs.encode(src), costs.encode(tgt)
    reference = python_table(a, b, costs)
    compiled = zh_align.compiled_table(a, b, costs)
    assert list(compiled.operations) == list(reference.operations)
    assert list(compiled.transposition) == list(reference.transposition)


def test_compiled_table_equals_the_reference_on_long_random_sentences() -> None:
    _require_compiled()
    costs = toy_costs()
    rng = random.Random(7)
    alphabet = list("大巨小猫狗在再己已人，。ab")
    for _ in range(30):
        src = [rng.choice(alphabet) for _ in range(rng.randint(20, 60))]
        tgt = list(src)
        for _ in range(rng.randint(1, 8)):  # a few edits, swaps among them
            k = rng.randrange(len(tgt))
            if rng.random() < 0.4 and k + 3 < len(tgt):
                tgt[k:k + 3] = tgt[k:k + 3][::-1]
            else:
                tgt[k] = rng.choice(alphabet)
        a, b = costs.encode(src), costs.encode(tgt)
        reference, compiled = python_table(a, b, costs), zh_align.compiled_table(a, b, costs)
        assert bytes(compiled.operations) == bytes(reference.operations)
        assert list(compiled.transposition) == list(reference.transposition)


# --------------------------------------------------------------------------- merging and types


def _levenshtein(a: str, b: str) -> int:
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        previous, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (x != y))
    return row[-1]


@given(st.text("abc", max_size=6), st.text("abc", max_size=6))
def test_within_one_edit_is_levenshtein_at_most_one(a: str, b: str) -> None:
    assert within_one_edit(a, b) == (_levenshtein(a, b) <= 1)


def test_rotation() -> None:
    assert is_rotation("abc", "cab") and not is_rotation("abc", "acb")


def test_crossing_substitutions_around_a_match_become_a_transposition() -> None:
    src, tgt = list("冬对外"), list("外对冬")
    path = [("S", 0, 1, 0, 1), ("M", 1, 2, 1, 2), ("S", 2, 3, 2, 3)]
    assert merge(path, src, tgt) == [("T3", 0, 3, 0, 3)]
    assert merge(path, list("冬对外"), list("人对冬")) == [("S", 0, 1, 0, 1), ("S", 2, 3, 2, 3)]


def test_deletion_match_insertion_of_the_same_text_becomes_a_transposition() -> None:
    src, tgt = list("旅去地"), list("去地旅")
    path = [("D", 0, 1, 0, 0), ("M", 1, 2, 0, 1), ("M", 2, 3, 1, 2), ("I", 3, 3, 2, 3)]
    assert merge(path, src, tgt) == [("T3", 0, 3, 0, 3)]
    # punctuation moved is not word order
    src, tgt = list("，去地"), list("去地，")
    assert merge([("D", 0, 1, 0, 0), ("M", 1, 3, 0, 2), ("I", 3, 3, 2, 3)], src, tgt) == \
        [("D", 0, 1, 0, 0), ("I", 3, 3, 2, 3)]


def test_runs_are_merged_except_deletions_with_insertions() -> None:
    src, tgt = list("abcd"), list("xyd")
    assert merge([("S", 0, 1, 0, 1), ("S", 1, 2, 1, 2), ("D", 2, 3, 2, 2), ("M", 3, 4, 2, 3)], src, tgt) == \
        [("S", 0, 3, 0, 2)]
    assert merge([("D", 0, 1, 0, 0), ("D", 1, 2, 0, 0), ("M", 2, 3, 0, 1)], list("abc"), list("c")) == \
        [("D", 0, 2, 0, 0)]
    assert merge([("D", 0, 1, 0, 0), ("I", 1, 1, 0, 1), ("M", 1, 2, 1, 2)], list("ab"), list("xb")) == \
        [("D", 0, 1, 0, 0), ("I", 1, 1, 0, 1)]


def test_substitution_trimmed_to_what_changes() -> None:
    # S a -> xa: the target ends with the source token, what is left is an insertion of x
    assert merge([("S", 0, 1, 0, 1), ("I", 1, 1, 1, 2)], ["a"], ["x", "a"]) == [("I", 0, 0, 0, 1)]
    # S ab -> a: the target starts with a source token: a deletion of b
    assert merge([("S", 0, 1, 0, 1), ("D", 1, 2, 1, 1)], ["a", "b"], ["a"]) == [("D", 1, 2, 1, 1)]


def test_types_by_operation() -> None:
    edits = [("T3", 0, 3, 0, 3), ("D", 3, 4, 3, 3), ("I", 4, 4, 3, 5), ("S", 4, 5, 5, 6)]
    tgt = list("外对冬xy是")
    assert classify(edits, tgt) == [TypedEdit(0, 3, "W", "外 对 冬"), TypedEdit(3, 4, "R", "-NONE-"),
                                    TypedEdit(4, 4, "M", "x y"), TypedEdit(4, 5, "S", "是")]


def test_m2_lines_of_each_kind() -> None:
    assert PairAnnotation("noop", ("a",)).m2_lines(2) == \
        "T2 没有错误\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||2\n"
    assert PairAnnotation("NA", ("a",)).m2_lines(0) == \
        "T0 无法标注\nA -1 -1|||NA|||-NONE-|||REQUIRED|||-NONE-|||0\n"
    two = PairAnnotation("edits", ("x", "a"), ((TypedEdit(0, 0, "M", "x"),), (TypedEdit(0, 1, "S", "x a"),)))
    assert two.m2_lines(1) == ("T1-A0 x a\nA 0 0|||M|||x|||REQUIRED|||-NONE-|||1\n"
                               "T1-A1 x a\nA 0 1|||S|||x a|||REQUIRED|||-NONE-|||1\n")


def test_annotator_checks_its_options(cherrant_folder: Path) -> None:
    with pytest.raises(InputError, match="strategy"):
        CharAnnotator(cherrant_folder, strategy="best")


def test_a_block_checks_its_source_and_targets(annotator: CharAnnotator) -> None:
    """block(source, "我再也不去了。") made seven one-character targets (a str is a sequence), and
    [None] or None raised an AttributeError."""
    assert annotator.block("我再也不去。", ["我再也不去了。"]).count("|||REQUIRED|||") == 1
    for targets, said in (("我再也不去了。", "got a single str"), ([None], "expected lines of text"),
                          (None, "expected a list of lines"), (3, "expected a list of lines")):
        with pytest.raises(InputError, match=said):
            annotator.block("我再也不去。", targets)
    with pytest.raises(InputError, match="the source must be a text, got None"):
        annotator.block(None, ["我再也不去了。"])


# --------------------------------------------------------------------------- reproduction


@pytest.mark.parametrize("use_compiled", [True, False])
@pytest.mark.parametrize("options, expected", [({}, "cherrant_pairs.m2"),
                                               ({"strategy": "first"}, "cherrant_pairs.first.m2"),
                                               ({"simplified": False}, "cherrant_pairs.no_simplified.m2")])
def test_hand_made_pairs_equal_cherrant(cherrant_folder: Path, options: dict, expected: str,
                                        use_compiled: bool) -> None:
    require_zh_extra()
    if use_compiled:
        _require_compiled()
    annotator = CharAnnotator(cherrant_folder, use_compiled=use_compiled, **options)
    ours = annotator.to_m2(records(DATA / "cherrant_pairs.para"))
    assert ours == (DATA / expected).read_text(encoding="utf-8")


def _expected_hashes() -> dict[str, list[str]]:
    hashes: dict[str, list[str]] = {"hyp": [], "ref": [], "hyp-all": [], "ref-all": []}
    lines = (DATA / "cherrant_mucgec_m2.tsv").read_text(encoding="utf-8").splitlines()
    for line in lines[1:]:
        if line.startswith("#") or line.startswith("file\t"):
            continue
        name, block, digest = line.split("\t")
        hashes[name + "-all" if block == "all" else name].append(digest)
    return hashes


def _assert_blocks_equal(ours: str, expected: list[str], whole: str | None, label: str) -> None:
    blocks = ours.split("\n\n")
    assert blocks[-1] == "", f"{label}: the M2 text must end with a blank line"
    blocks.pop()
    for k, block in enumerate(blocks[:len(expected)]):
        digest = hashlib.sha256(block.encode("utf-8")).hexdigest()[:16]
        assert digest == expected[k], f"{label}: block {k} differs from ChERRANT's; ours is:\n{block}"
    assert len(blocks) == len(expected) if whole is not None else len(blocks) <= len(expected)
    if whole is not None:
        assert hashlib.sha256(ours.encode("utf-8")).hexdigest() == whole


@pytest.mark.parametrize("name", ["hyp", "ref"])
def test_mucgec_dev_m2_equals_cherrant_block_for_block(shared_data: Path, name: str) -> None:
    """Our M2 of each MuCGEC dev file (made once per process: the other ChERRANT tests read it)."""
    hashes = _expected_hashes()
    _assert_blocks_equal(mucgec_m2(shared_data, name), hashes[name], hashes[name + "-all"][0], name)


def test_mucgec_dev_pure_python_tables_on_a_slice(shared_data: Path, cherrant_folder: Path) -> None:
    require_zh_extra()
    annotator = CharAnnotator(cherrant_folder, use_compiled=False)
    lines = records(shared_data / "mucgec" / "MuCGEC_dev.txt")[:120]
    _assert_blocks_equal(annotator.to_m2(lines), _expected_hashes()["ref"][:120], None, "ref[:120]")


def test_each_distinct_pair_is_aligned_once(cherrant_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    require_zh_extra()
    annotator = CharAnnotator(cherrant_folder)
    calls = []
    real = zh_align.table
    monkeypatch.setattr(zh_align, "table", lambda *args: calls.append(1) or real(*args))
    text = annotator.to_m2([("我喜欢猫。", ("我很喜欢猫。", "我很喜欢猫。")), ("我喜欢猫。", ("我很喜欢猫。",))])
    assert len(calls) == 1
    assert text.count("A 1 1|||M|||很") == 3


def test_environment_variable_selects_the_python_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(zh_align.ENVIRONMENT_VARIABLE, "1")
    assert not zh_align.compiled_alignment_enabled()
    calls = []
    monkeypatch.setattr(zh_align, "python_table", lambda *args: calls.append(args) or "table")
    costs = toy_costs()
    assert zh_align.table(costs.encode(["猫"]), costs.encode(["狗"]), costs) == "table" and len(calls) == 1
    monkeypatch.setenv(zh_align.ENVIRONMENT_VARIABLE, "0")
    assert zh_align.compiled_alignment_enabled() == (zh_align.compiled is not None)
