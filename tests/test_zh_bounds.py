"""ChERRANT's alignment on lines it never finishes (issue 33): the C table's linked transposition
search gives the reference's tables, the paths followed stop at a stated budget (a prefix of
ChERRANT's alternatives, always its first), two unrelated 5,000-character lines finish, a table
over its bound and an empty sentence are one line naming the file and line."""
from __future__ import annotations

import random
import subprocess
import warnings
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gecmetrics.core.lang.zh import align as zh_align
from gecmetrics.core.lang.zh.align import python_table
from tests._zh_support import require_zh_extra
from tests.conftest import gecmetric_script, one_line_error, unavailable
from tests.test_zh_cherrant import toy_costs

GUARD = 300  # seconds: ChERRANT's loops took more than 600 s on the 5,000-character pair


def _unrelated(length: int, seed: int = 0) -> tuple[str, str]:
    """Two random lines of CJK characters: very many cheapest alignments (10^14 at 250)."""
    rng = random.Random(seed)
    chars = [chr(code) for code in range(0x4E00, 0x4E00 + 3000)]
    return "".join(rng.choice(chars) for _ in range(length)), "".join(rng.choice(chars) for _ in range(length))


def _require_compiled() -> None:
    if zh_align.compiled is None:
        unavailable("the C extension gecmetrics.core._zhalign is not built in this installation")


def _same_tables(src: list[str], tgt: list[str]) -> None:
    costs = toy_costs()
    a, b = costs.encode(src), costs.encode(tgt)
    reference, compiled = python_table(a, b, costs), zh_align.compiled_table(a, b, costs)
    assert bytes(compiled.operations) == bytes(reference.operations)
    assert list(compiled.transposition) == list(reference.transposition)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(list("大小猫ab，")), max_size=24), st.lists(st.sampled_from(list("大小猫ab，")), max_size=24))
def test_linked_transposition_search_equals_the_reference(src: list[str], tgt: list[str]) -> None:
    """Few distinct tokens: many windows are the same multiset, at every distance."""
    _require_compiled()
    _same_tables(src, tgt)


def test_long_transpositions_and_swapped_blocks_equal_the_reference() -> None:
    _require_compiled()
    rng = random.Random(3)
    alphabet = list("大巨小猫狗在再己已人，。ab")
    for _ in range(40):
        block = [rng.choice(alphabet) for _ in range(rng.randint(2, 30))]
        other = [rng.choice(alphabet) for _ in range(rng.randint(2, 30))]
        shuffled = list(block)
        rng.shuffle(shuffled)
        for src, tgt in ((block + other, other + block), (block, shuffled), (block + other, shuffled + other),
                         (block * 3, list(reversed(block)) * 3)):
            _same_tables(src, tgt)


@pytest.fixture(scope="module")
def annotator(shared_data: Path):
    require_zh_extra()
    from gecmetrics.core.lang.zh.annotate import CharAnnotator

    return CharAnnotator(shared_data / "cherrant")


def test_the_paths_stop_at_the_budget_with_a_prefix_of_chercants_alternatives(annotator, monkeypatch) -> None:
    from gecmetrics.core.lang.zh.annotate import CharAnnotator

    source, target = "猫大大猫狗。。小猫", "大猫狗大。小小狗小小狗"  # ten distinct edit sets
    full = annotator.annotate(source, target).alternatives
    steps = [len(path) for path in zh_align.cheapest_paths(zh_align.table(
        annotator.costs.encode(list(source)), annotator.costs.encode(list(target)), annotator.costs))]
    assert len(full) == 10 and len(steps) > 10, (len(full), len(steps))
    for budget in (1, steps[0] + steps[1], sum(steps[:3])):
        monkeypatch.setattr(zh_align, "MAX_ALIGNMENT_STEPS", budget)
        bounded = CharAnnotator(annotator.data)
        with pytest.warns(zh_align.AlignmentBudgetWarning, match="MAX_ALIGNMENT_STEPS"):
            found = bounded.annotate(source, target).alternatives
        assert found and found == full[:len(found)] and len(found) < len(full)
    monkeypatch.setattr(zh_align, "MAX_ALIGNMENT_STEPS", sum(steps))
    with warnings.catch_warnings():
        warnings.simplefilter("error", zh_align.AlignmentBudgetWarning)
        assert CharAnnotator(annotator.data).annotate(source, target).alternatives == full


def test_two_unrelated_long_lines_finish(shared_data: Path, tmp_path: Path) -> None:
    require_zh_extra()
    lines = [_unrelated(250), _unrelated(5000)]
    para = tmp_path / "long.para"
    para.write_text("".join(f"{k}\t{a}\t{b}\n" for k, (a, b) in enumerate(lines, 1)), encoding="utf-8")
    result = subprocess.run([gecmetric_script(), "cherrant", "m2", "-f", str(para), "-o", str(tmp_path / "out.m2"),
                             "--cherrant-data", str(shared_data / "cherrant")],
                            capture_output=True, text=True, timeout=GUARD)
    if zh_align.compiled is None:  # (installed without a compiler: the 5,000-character pair is refused, not hours)
        assert result.returncode == 2 and "long.para:2: cannot align a 5,000-character sentence" in result.stderr \
            and "without the C extension" in result.stderr, result.stderr
        return
    assert result.returncode == 0, result.stderr
    assert result.stderr.startswith("gecmetric: warning: a sentence pair has more cheapest alignments than the budget")
    assert "MAX_ALIGNMENT_STEPS" in result.stderr and "Traceback" not in result.stderr
    blocks = (tmp_path / "out.m2").read_text(encoding="utf-8").split("\n\n")
    assert [block.split("\n", 1)[0] for block in blocks[:2]] == [f"S {' '.join(a)}" for a, _ in lines]
    assert all("T0-A0 " in block for block in blocks[:2])


def test_the_pure_python_table_refuses_a_pair_past_its_steps(shared_data: Path, tmp_path: Path, monkeypatch) -> None:
    """Without the C extension (a pip install without a compiler) two unrelated lines of 250 and
    5,000 characters ran for hours: the reference's transposition search is cubic there. Past
    MAX_PYTHON_STEPS the pair is refused, naming the file and line; a corpus's pairs stay as the
    C extension aligns them (MuCGEC's dev set: the same M2 either way, 13 s)."""
    require_zh_extra()
    costs = toy_costs()
    related = costs.encode(list("我们今天去公园玩了很久。")), costs.encode(list("今天我们去公园玩了很久了。"))
    assert python_table(*related, costs, max_steps=10_000).operations == python_table(*related, costs).operations
    unrelated = [costs.encode(list(text)) for text in _unrelated(120)]
    with pytest.raises(zh_align.AlignmentTooSlow, match="took more than 1,000 steps by row"):
        python_table(*unrelated, costs, max_steps=1_000)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GECMETRICS_CHERRANT_DATA", str(shared_data / "cherrant"))
    monkeypatch.setenv(zh_align.ENVIRONMENT_VARIABLE, "1")  # the reference fills the tables, as without a compiler
    monkeypatch.setattr(zh_align, "MAX_PYTHON_STEPS", 10_000)
    a, b = _unrelated(120)
    (tmp_path / "p.para").write_text(f"1\t我喜欢你\t我爱你\n2\t{a}\t{b}\n", encoding="utf-8")
    err = one_line_error("cherrant", "m2", "-f", "p.para", "-o", "out.m2")
    assert err.startswith("gecmetric: error: p.para:2: cannot align a 120-character sentence with a 120-character "
                          "one without the C extension") and "MAX_PYTHON_STEPS" in err, err
    assert not (tmp_path / "out.m2").exists()


def test_a_table_over_its_bound_names_the_file_and_line(shared_data: Path, tmp_path: Path, monkeypatch) -> None:
    require_zh_extra()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GECMETRICS_CHERRANT_DATA", str(shared_data / "cherrant"))
    monkeypatch.setattr(zh_align, "MAX_ALIGNMENT_CELLS", 200)
    (tmp_path / "p.para").write_text("1\t我喜欢你\t我爱你\n2\t" + "我" * 30 + "\t" + "你" * 30 + "\n", encoding="utf-8")
    err = one_line_error("cherrant", "m2", "-f", "p.para", "-o", "out.m2")
    assert err.startswith("gecmetric: error: p.para:2: cannot align a 30-character sentence") and \
        "MAX_ALIGNMENT_CELLS" in err, err
    (tmp_path / "src").write_text("我喜欢你\n" + "我" * 30 + "\n", encoding="utf-8")
    (tmp_path / "hyp").write_text("我爱你\n" + "你" * 30 + "\n", encoding="utf-8")
    err = one_line_error("errant", "--lang", "zh", "-s", "src", "-r", "src", "--annotate-refs", "-o", "hyp")
    assert err.startswith("gecmetric: error: hyp:2: cannot align"), err
    assert not (tmp_path / "out.m2").exists()


@pytest.mark.parametrize("lines, named", [
    ({"src": "我喜欢你\n\n他去学校\n", "hyp": "我爱你\n他\n他去了学校\n", "ref": "我爱你\n他\n他去了学校\n"}, "src:2:"),
    ({"src": "我喜欢你\n他\n他去学校\n", "hyp": "我爱你\n他\n他去了学校\n", "ref": "我爱你\n他\n \n"}, "ref:3:"),
    ({"src": "我喜欢你\n他\n他去学校\n", "hyp": "我爱你\n\t\n他去了学校\n", "ref": "我爱你\n他\n他\n"}, "hyp:2:"),
])
def test_an_empty_sentence_under_lang_zh_names_its_file_and_line(shared_data: Path, tmp_path: Path, monkeypatch,
                                                                  lines: dict, named: str) -> None:
    require_zh_extra()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GECMETRICS_CHERRANT_DATA", str(shared_data / "cherrant"))
    for name, text in lines.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    for args in (["errant", "--lang", "zh", "-s", "src", "-r", "ref", "--annotate-refs", "-o", "hyp"],
                 ["errant", "--lang", "zh", "-s", "src", "-r", "ref", "--annotate-refs", "-o", "hyp", "--chunk-lines",
                  "1", "-p", "2"],
                 ["compare", "-s", "src", "-r", "ref", "-o", "hyp", "--metrics", "errant:lang=zh:annotate_refs=true"]):
        err = one_line_error(*args)
        assert err.startswith(f"gecmetric: error: {named} empty "), (args, err)
