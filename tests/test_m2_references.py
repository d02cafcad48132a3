"""References from M2 (SPEC 4.2): edit application, the CoNLL-2014 combined-file gaps, CLI."""
from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

from gecmetrics.cli import main
from gecmetrics.errors import InputError
from gecmetrics.io.m2 import Edit, parse_m2
from gecmetrics.io.m2_references import apply_edits, m2_references


def edit(start, end, correction, annotator=0, edit_type="X"):
    return Edit(start, end, edit_type, correction, "REQUIRED", "-NONE-", annotator)


def test_apply_edits_shifts_offsets_left_to_right():
    tokens = "a b c d e".split()
    edits = [edit(0, 0, "x y"), edit(1, 2, "-NONE-"), edit(2, 4, "z"), edit(4, 5, ""), edit(5, 5, "end")]
    assert apply_edits(tokens, edits) == ["x", "y", "a", "z", "end"]
    # file order does not matter: edits are applied from left to right
    assert apply_edits(tokens, list(reversed(edits))) == ["x", "y", "a", "z", "end"]


def test_apply_edits_ignores_noop_and_uses_first_alternative():
    tokens = "a b".split()
    edits = [edit(-1, -1, "-NONE-", edit_type="noop"), edit(0, 1, "p||q r"), edit(1, 2, "s", edit_type="noop")]
    assert apply_edits(tokens, edits) == ["p", "b"]


def test_overlapping_edits_are_an_error():
    with pytest.raises(InputError, match="overlap"):
        apply_edits("a b c".split(), [edit(0, 2, "x"), edit(1, 2, "y")], "f.m2", 7)


COMBINED = """S a b c
A 0 1|||X|||A|||REQUIRED|||-NONE-|||0
A 2 3|||X|||C|||REQUIRED|||-NONE-|||1

S d e
A 1 2|||X|||E|||REQUIRED|||-NONE-|||0

S f g
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0
A 0 0|||X|||new|||REQUIRED|||-NONE-|||1

S h

S i j
A 0 1|||X|||I|||REQUIRED|||-NONE-|||0
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1
"""


def test_absent_annotator_filled_from_annotator_0():
    result = m2_references([parse_m2(COMBINED, "c.m2")])
    assert result.labels == [0, 1]
    assert result.sources == ["a b c", "d e", "f g", "h", "i j"]
    assert result.references[0] == ["A b c", "d E", "f g", "h", "I j"]
    # block 2 and 4 have no line for annotator 1: same edits as annotator 0
    assert result.references[1] == ["a b C", "d E", "new f g", "h", "i j"]
    assert result.filled_blocks == [0, 2] and result.filled_changed == [0, 1]


def test_absent_as_unchanged():
    result = m2_references([parse_m2(COMBINED, "c.m2")], absent_as_unchanged=True)
    assert result.references[1] == ["a b C", "d e", "new f g", "h", "i j"]
    assert result.filled_blocks == [0, 2] and result.filled_changed == [0, 1]


def test_annotator_selection_and_order():
    result = m2_references([parse_m2(COMBINED, "c.m2")], annotators=[1, 0])
    assert result.labels == [1, 0]
    assert result.reference(0)[0] == "A b c" and result.references[0][0] == "a b C"
    with pytest.raises(InputError, match="no annotator 2"):
        m2_references([parse_m2(COMBINED, "c.m2")], annotators=[2])


@pytest.mark.parametrize("annotators, message", [
    ("0", "annotators must be a sequence of annotator ids \\(integers\\), got '0'"),  # said "no annotator 0"
    (["0"], "an annotator id \\(annotators\\) must be an integer, got '0'"),  # said "... (available: 0, 1)"
    ([1.0], "an annotator id \\(annotators\\) must be an integer, got 1.0"),
    ([True], "an annotator id \\(annotators\\) must be an integer, got True"),
    ([-1], "must be an integer >= 0, got -1"),
    (1, "annotators must be a sequence of annotator ids"),  # a raw TypeError
])
def test_annotator_ids_are_a_sequence_of_integers(annotators, message):
    with pytest.raises(InputError, match=message):
        m2_references([parse_m2(COMBINED, "c.m2")], annotators=annotators)
    assert m2_references([parse_m2(COMBINED, "c.m2")], annotators=(np.int64(1),)).labels == [1]


@pytest.mark.parametrize("inputs", [None, 5])
def test_inputs_that_are_no_m2_are_input_errors(inputs):
    # None was a bare "TypeError: object of type 'NoneType' has no len()"
    with pytest.raises(InputError, match=f"the M2 input must be a sequence of M2 paths or block lists .*got {inputs}"):
        m2_references(inputs)


def test_single_annotator_file_with_other_id_is_not_filled():
    blocks = parse_m2("S a b\nA 0 1|||X|||z|||REQUIRED|||-NONE-|||3\n\nS c\n", "one.m2")
    result = m2_references([blocks])
    assert result.labels == [3] and result.references == [["z b", "c"]] and result.filled_blocks == [0]


def test_several_files_are_numbered_in_order_and_must_agree():
    first = parse_m2("S a b\nA 0 1|||X|||p|||REQUIRED|||-NONE-|||0\n", "0.m2")
    second = parse_m2("S a b\nA 1 2|||X|||q|||REQUIRED|||-NONE-|||0\n", "1.m2")
    result = m2_references([first, second])
    assert result.labels == [0, 1] and result.references == [["p b"], ["a q"]]
    with pytest.raises(InputError, match="source sentence differs"):
        m2_references([first, parse_m2("S a c\n", "x.m2")])
    with pytest.raises(InputError, match="has 2 sentences"):
        m2_references([first, parse_m2("S a b\n\nS c\n", "x.m2")])


def _lines(path):
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def test_conll14_combined_reproduces_ref0_ref1(conll14):
    result = m2_references(str(conll14 / "official-2014.combined.m2"))
    assert [line.rstrip() for line in result.sources] == [line.rstrip() for line in _lines(conll14 / "INPUT")]
    assert result.references[0] == _lines(conll14 / "REF0")
    assert result.references[1] == _lines(conll14 / "REF1")
    assert result.filled_blocks == [0, 224] and result.filled_changed == [0, 88]


def test_conll14_single_files_reproduce_ref0_ref1(conll14):
    result = m2_references([str(conll14 / "official-2014.0.m2"), str(conll14 / "official-2014.1.m2")])
    assert result.labels == [0, 1]
    assert result.references[0] == _lines(conll14 / "REF0")
    assert result.references[1] == _lines(conll14 / "REF1")
    assert result.filled_blocks == [0, 0]


def test_conll14_absent_as_unchanged_differs_on_88_lines(conll14):
    result = m2_references(str(conll14 / "official-2014.combined.m2"), absent_as_unchanged=True)
    ref1 = _lines(conll14 / "REF1")
    assert sum(a != b for a, b in zip(result.references[1], ref1)) == 88
    assert result.references[0] == _lines(conll14 / "REF0")


def test_cli_refs_output_dir(conll14, tmp_path):
    out = tmp_path / "refs"
    run = CliRunner().invoke(main, ["m2", "refs", str(conll14 / "official-2014.combined.m2"), "-o", str(out)])
    assert run.exit_code == 0, run.output
    assert "224 blocks" in run.stderr and "88" in run.stderr
    assert (out / "REF1").read_bytes() == (conll14 / "REF1").read_bytes()
    assert (out / "REF0").read_bytes() == (conll14 / "REF0").read_bytes()
    assert (out / "INPUT").read_bytes() == (conll14 / "INPUT").read_bytes()


def test_cli_refs_prefix_annotator_and_absent(tmp_path):
    gold = tmp_path / "gold.m2"
    gold.write_text(COMBINED, encoding="utf-8")
    prefix = str(tmp_path / "p")
    run = CliRunner().invoke(main, ["m2", "refs", str(gold), "--prefix", prefix, "-a", "1", "--absent-as-unchanged"])
    assert run.exit_code == 0, run.output
    assert run.stdout.split() == [prefix + ".src", prefix + ".ref1"]
    assert (tmp_path / "p.ref1").read_text() == "a b C\nd e\nnew f g\nh\ni j\n"
    assert "2 blocks" in run.stderr and "unchanged" in run.stderr


def test_cli_refs_warns_of_other_reference_files_a_glob_would_take(tmp_path, monkeypatch):
    """Reference files of an earlier run (another gold, other -a) beside the ones written are
    named in a warning (out/REF* would read them as references of this gold), never removed;
    a folder or prefix holding only this run's files gets no warning."""
    gold = tmp_path / "gold.m2"
    gold.write_text(COMBINED, encoding="utf-8")
    out = tmp_path / "out"
    run = CliRunner().invoke(main, ["m2", "refs", str(gold), "-o", str(out)])
    assert run.exit_code == 0 and "warning" not in run.stderr
    (out / "REF2").write_text("old\n")
    (out / "notes.txt").write_text("mine\n")
    run = CliRunner().invoke(main, ["m2", "refs", str(gold), "-o", str(out)])
    assert run.exit_code == 0 and run.stdout.split() == [str(out / name) for name in ("INPUT", "REF0", "REF1")]
    assert f"warning: m2 refs: 1 other reference file beside those written ({out / 'REF2'})" in run.stderr
    assert "notes.txt" not in run.stderr and (out / "REF2").read_text() == "old\n"
    monkeypatch.chdir(out)
    for name in ("p.ref0", "p.ref1", "p.src"):
        (out / name).write_text("x\n")
    run = CliRunner().invoke(main, ["m2", "refs", str(gold), "--prefix", "p", "-a", "1"])  # p.ref0: another -a
    assert run.exit_code == 0 and "1 other reference file beside those written (p.ref0)" in run.stderr


def test_an_s_line_is_split_into_words_as_errant_and_the_m2_scorer_split_it(tmp_path):
    """ERRANT numbers an S line's tokens by str.split() (Doc(vocab, text.split())), the M2 scorer
    by source.split() on Unicode text: NBSP and U+2028 separate words, and the written lines join
    the words with single spaces (one line per block: U+2028 ends no line)."""
    gold = tmp_path / "gold.m2"
    gold.write_text("S a\u00a0b c\u2028d e\nA 1 2|||R:X|||B|||REQUIRED|||-NONE-|||0\n\n", encoding="utf-8")
    result = m2_references([parse_m2(gold.read_text(encoding="utf-8"), "gold.m2")])
    assert result.sources == ["a b c d e"] and result.references == [["a B c d e"]]
    run = CliRunner().invoke(main, ["m2", "refs", str(gold), "-o", str(tmp_path / "refs")])
    assert run.exit_code == 0, run.output
    assert (tmp_path / "refs" / "INPUT").read_bytes() == b"a b c d e\n"
    assert (tmp_path / "refs" / "REF0").read_bytes() == b"a B c d e\n"


def test_cli_refs_errors(tmp_path, monkeypatch):
    bad = tmp_path / "bad.m2"
    bad.write_text("S a\nA 0 2|||X|||y|||REQUIRED|||-NONE-|||0\n")
    run = CliRunner().invoke(main, ["m2", "refs", str(bad), "-o", str(tmp_path)])
    assert run.exit_code == 2
    assert f"{bad}:2:" in run.stderr and "Traceback" not in run.output
    run = CliRunner().invoke(main, ["m2", "refs", str(bad)])
    assert run.exit_code == 2 and "-o DIR or --prefix" in run.stderr
    gold = tmp_path / "gold.m2"
    gold.write_text(COMBINED, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    for prefix in ("", f"{tmp_path}/"):  # wrote the hidden files .src, .ref0, ...
        run = CliRunner().invoke(main, ["m2", "refs", str(gold), "--prefix", prefix])
        assert run.exit_code == 2 and f"{prefix!r} has no name before them; for a folder, use -o DIR" in run.stderr
    assert not list(tmp_path.glob(".*"))


def test_cli_refs_makes_the_output_folder_and_removes_it_when_a_write_fails(tmp_path, monkeypatch):
    gold = tmp_path / "gold.m2"
    gold.write_text(COMBINED, encoding="utf-8")
    run = CliRunner().invoke(main, ["m2", "refs", str(gold), "-o", str(tmp_path / "new" / "refs")])
    assert run.exit_code == 0, run.output
    assert sorted(path.name for path in (tmp_path / "new" / "refs").iterdir()) == ["INPUT", "REF0", "REF1"]
    import gecmetrics.io.m2_references as module

    real = module.output_group

    class Failing:  # the second file's write fails: no file is left, and no folder made for them
        def __enter__(self):
            self.context = real()
            self.group = self.context.__enter__()
            self.count = 0
            return self

        def output(self, path):
            self.count += 1
            if self.count == 2:
                raise OSError(28, "No space left on device", path)
            return self.group.output(path)

        def __exit__(self, *exc):
            return self.context.__exit__(*exc)

    monkeypatch.setattr(module, "output_group", Failing)
    run = CliRunner().invoke(main, ["m2", "refs", str(gold), "-o", str(tmp_path / "other" / "refs")])
    assert run.exit_code == 1 and "No space left on device" in run.stderr, run.output
    assert not (tmp_path / "other").exists()


def test_write_references_checks_its_arguments(tmp_path):
    """write_references (docs/m2.md) refuses a result that is not an M2References, a directory or
    prefix that is not a path and a many_files that is not a bool with one InputError (they were
    AttributeError, TypeError, or a silent 'yes')."""
    from gecmetrics.errors import InputError
    from gecmetrics.io.m2 import parse_m2
    from gecmetrics.io.m2_references import m2_references, write_references
    result = m2_references([parse_m2("S a b\nA 0 1|||R|||c|||REQUIRED|||-NONE-|||0\n", "g.m2")])
    for kwargs in ({"directory": 5}, {"prefix": 5}, {"directory": str(tmp_path / "b").encode()},
                   {"directory": str(tmp_path / "c"), "many_files": "no"}):
        with pytest.raises(InputError):
            write_references(result, **kwargs)
    with pytest.raises(InputError, match="M2References"):
        write_references(None, directory=str(tmp_path / "d"))
    assert not (tmp_path / "c").exists()
    assert write_references(result, directory=str(tmp_path / "e"))[0].endswith("INPUT")
