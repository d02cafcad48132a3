"""`gecmetric cherrant m2 | compare | score` and `gecmetric data check cherrant`: the outputs
ChERRANT's scripts write and print (recorded in tests/data), and one-line errors."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import check_level_json, command_environment, one_line_error, run_cli, run_gecmetric
from tests._zh_support import DATA, require_zh_extra

PAIRS = str(DATA / "cherrant_pairs.para")


@pytest.fixture
def data_folder(shared_data: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    require_zh_extra()
    folder = str(shared_data / "cherrant")
    monkeypatch.setenv("GECMETRICS_CHERRANT_DATA", folder)
    return folder


@pytest.mark.parametrize("options, expected", [([], "cherrant_pairs.m2"), (["-s", "first"], "cherrant_pairs.first.m2"),
                                               (["--no-simplified"], "cherrant_pairs.no_simplified.m2"),
                                               # parallel_to_m2.py's own spellings, and the options that
                                               # change nothing there at character level
                                               (["--multi_cheapest_strategy", "first", "-b", "64", "-d", "1",
                                                 "-w", "4", "-m"], "cherrant_pairs.first.m2"),
                                               (["--no_simplified", "--batch_size", "8", "--device", "0",
                                                 "--worker_num", "2", "--merge"], "cherrant_pairs.no_simplified.m2")])
def test_m2_writes_what_parallel_to_m2_writes(data_folder: str, tmp_path: Path, options: list[str],
                                              expected: str) -> None:
    out = tmp_path / "out.m2"
    code, stdout, stderr = run_cli("cherrant", "m2", "-f", PAIRS, "-o", str(out), "-g", "char", *options)
    assert code == 0, stderr
    assert out.read_text(encoding="utf-8") == (DATA / expected).read_text(encoding="utf-8")


def test_m2_is_written_a_batch_at_a_time_and_whole_or_not_at_all(data_folder: str, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """cherrant m2 reads and writes a batch of lines at a time (it held the file and its M2 whole:
    600 MB for 10^5 lines); the M2 is the same, and a fault in a later batch leaves no output."""
    from gecmetrics.io import para

    batch = para.PARA_BATCH   # (the commands run in a process of their own read this many lines at a time)
    monkeypatch.setattr(para, "PARA_BATCH", 2)
    monkeypatch.setattr(para, "read_para", lambda path: pytest.fail("the whole file read"))
    out = tmp_path / "out.m2"
    assert run_cli("cherrant", "m2", "-f", PAIRS, "-o", str(out))[0] == 0
    assert out.read_text(encoding="utf-8") == (DATA / "cherrant_pairs.m2").read_text(encoding="utf-8")
    lines = Path(PAIRS).read_text(encoding="utf-8").splitlines()
    bad = tmp_path / "bad.para"
    bad.write_text("\n".join([*lines, "9\t甲"]) + "\n", encoding="utf-8")
    fresh = tmp_path / "fresh.m2"
    error = one_line_error("cherrant", "m2", "-f", str(bad), "-o", str(fresh))
    assert error.strip().endswith(f"bad.para:{len(lines) + 1}: expected id<TAB>source<TAB>target[<TAB>target...], "
                                  "found 2 tab-separated fields"), error
    assert not fresh.exists() and [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
    # nor to a pipe (written through, not replaced): nothing before the fault of a later batch
    long = tmp_path / "long.para"
    long.write_text("\n".join([*(lines * (batch // len(lines) + 1)), "9\t甲"]) + "\n", encoding="utf-8")
    done = run_gecmetric(["cherrant", "m2", "-f", str(long), "-o", "/dev/stdout"],
                         command_environment(GECMETRICS_CHERRANT_DATA=data_folder), capture_output=True, text=True)
    assert done.returncode == 2 and done.stdout == "" and "long.para:" in done.stderr, done


def test_score_equals_m2_then_compare(data_folder: str, tmp_path: Path) -> None:
    hyp = tmp_path / "hyp.para"
    hyp.write_text("".join(f"{n}\t{line.split(chr(9))[1]}\t{line.split(chr(9))[-1]}\n" for n, line in
                           enumerate(Path(PAIRS).read_text(encoding="utf-8").splitlines())), encoding="utf-8")
    code, scored, stderr = run_cli("cherrant", "score", "-hyp", str(hyp), "-ref", PAIRS, "-cat", "3",
                                   "--hyp-m2", str(tmp_path / "h.m2"), "--ref-m2", str(tmp_path / "r.m2"),
                                   "--cherrant-data", data_folder)
    assert code == 0, stderr
    assert (tmp_path / "r.m2").read_text(encoding="utf-8") == (DATA / "cherrant_pairs.m2").read_text(encoding="utf-8")
    code, compared, stderr = run_cli("cherrant", "compare", "-hyp", str(tmp_path / "h.m2"), "-ref",
                                     str(tmp_path / "r.m2"), "-cat", "3")
    assert code == 0, stderr
    assert compared == scored
    assert "Span-Based Correction" in scored and "\nW " in scored


def test_compare_sentence_reads_chinese_m2_as_the_metrics_do(data_folder: str, tmp_path: Path) -> None:
    """compare --sentence of Chinese M2 metrics (ChERRANT's target lines) streams as it scores:
    the streamed table read the M2 files without their target lines (one error line)."""
    lines = Path(PAIRS).read_text(encoding="utf-8").splitlines()
    source, hyp_para = tmp_path / "src", tmp_path / "hyp.para"
    source.write_text("".join(line.split("\t")[1] + "\n" for line in lines), encoding="utf-8")
    hyp_para.write_text("".join(f"{n}\t{line.split(chr(9))[1]}\t{line.split(chr(9))[-1]}\n"
                                for n, line in enumerate(lines)), encoding="utf-8")
    hyp_text = tmp_path / "hyp"
    hyp_text.write_text("".join(line.split("\t")[-1] + "\n" for line in lines), encoding="utf-8")
    assert run_cli("cherrant", "m2", "-f", PAIRS, "-o", str(tmp_path / "r.m2"))[0] == 0
    assert run_cli("cherrant", "m2", "-f", str(hyp_para), "-o", str(tmp_path / "h.m2"))[0] == 0
    for metric in ("cleme:lang=zh:level=sentence:weighted=false", "errant:lang=zh:sentence_average=true"):
        code, out, err = run_cli("compare", "-s", str(source), "--m2", str(tmp_path / "r.m2"), "--hyp-m2",
                                 str(tmp_path / "h.m2"), "-o", str(hyp_text), "--metrics", metric, "--sentence",
                                 "--chunk-lines", "4")
        assert code == 0 and len(out.splitlines()) == len(lines) + 1, (metric, err)


def test_json_is_the_reports_level(data_folder: str, tmp_path: Path) -> None:
    """compare and score with --json give the numbers, categories and signature their report prints
    at the -cat level (they gave the full types' macro F and categories whatever the level)."""
    hyp = tmp_path / "hyp.para"
    hyp.write_text("".join(f"{n}\t{line.split(chr(9))[1]}\t{line.split(chr(9))[1]}\n" for n, line in
                           enumerate(Path(PAIRS).read_text(encoding="utf-8").splitlines())), encoding="utf-8")
    ref = tmp_path / "r.m2"
    assert run_cli("cherrant", "m2", "-f", PAIRS, "-o", str(ref))[0] == 0
    first = tmp_path / "first.m2"
    assert run_cli("cherrant", "m2", "-f", PAIRS, "-s", "first", "-o", str(first))[0] == 0
    for level in (1, 2, 3):
        data = check_level_json("cherrant", "compare", "-hyp", str(first), "-ref", str(ref), "--macro", "--scale", "1",
                                level=level)
        assert ("|cat:" in data["signature"]) == (level != 3)
        check_level_json("cherrant", "score", "-hyp", str(hyp), "-ref", PAIRS, "--macro", "--scale", "1",
                         "--cherrant-data", data_folder, level=level)


def test_compare_options_and_errors(data_folder: str, tmp_path: Path) -> None:
    ref = tmp_path / "r.m2"
    assert run_cli("cherrant", "m2", "-f", PAIRS, "-o", str(ref))[0] == 0
    code, out, _ = run_cli("cherrant", "compare", "-hyp", str(ref), "-ref", str(ref), "-dt", "-filt", "W", "M",
                           "--max_answer_num", "2", "--start", "0", "--end", "5")
    assert code == 0 and "Token-Based Detection" in out
    assert "max_answer_num" in one_line_error("cherrant", "compare", "-hyp", str(ref), "-ref", str(ref),
                                              "--max_answer_num", "4")
    assert "mutually exclusive" in run_cli("cherrant", "compare", "-hyp", str(ref), "-ref", str(ref), "-dt",
                                           "-ds")[2]
    # --signature as every scoring command takes it (refused before), and a table asked for cites it
    code, out, err = run_cli("cherrant", "compare", "-hyp", str(ref), "-ref", str(ref), "--signature")
    assert code == 0 and err.strip() == "ChERRANT|mode:cs|beta:0.5|version:0.1.0"
    code, out, _ = run_cli("cherrant", "compare", "-hyp", str(ref), "-ref", str(ref), "--latex")
    assert code == 0 and out.rstrip().endswith("% ChERRANT|mode:cs|beta:0.5|version:0.1.0")
    assert "-v: prints the original tool's trace as text: not with --json" in one_line_error(
        "cherrant", "compare", "-hyp", str(ref), "-ref", str(ref), "-v", "--json")


def test_filters_that_leave_nothing_or_name_no_chERRANT_type_are_warned_about(data_folder: str) -> None:
    """-filt S M R W left nothing to compare and printed P = R = F = 1.0 without a word, and -filt
    XYZ (no ChERRANT type) left nothing out without a word; m2 compare warns of both."""
    m2 = str(DATA / "cherrant_pairs.m2")
    for command in (["compare", "-hyp", m2, "-ref", m2], ["score", "-hyp", PAIRS, "-ref", PAIRS]):
        code, stdout, stderr = run_cli("cherrant", *command, "-filt", "S", "M", "R", "W", "NA")
        assert code == 0 and "0\t0\t0\t1.0\t1.0\t1.0" in stdout, stderr
        assert stderr.startswith("gecmetric: warning: -filt S M R W NA left no edit to compare") and \
            stderr.count("\n") == 1 and "compare_m2_for_evaluation.py's score" in stderr, stderr
        code, stdout, stderr = run_cli("cherrant", *command, "-filt", "XYZ", "R:NOUN", "W")
        assert code == 0 and stderr.count("\n") == 1 and \
            "'XYZ' is not ChERRANT's form of an error type" in stderr, stderr
    assert run_cli("cherrant", "compare", "-hyp", m2, "-ref", m2, "-filt", "R:NOUN", "S")[2] == ""


def test_compare_start_and_end_selecting_no_block_is_one_line_error(data_folder: str, tmp_path: Path) -> None:
    """ChERRANT prints zero counts with P = R = F = 1.0 for an empty selection
    (`compare_m2_for_evaluation.py -hyp R -ref R --start 3 --end 3`): a perfect score for nothing
    scored, so an error naming the flags here."""
    ref = tmp_path / "r.m2"
    assert run_cli("cherrant", "m2", "-f", PAIRS, "-o", str(ref))[0] == 0
    for start, end in (("3", "3"), ("2", "1"), ("50", "60")):
        message = one_line_error("cherrant", "compare", "-hyp", str(ref), "-ref", str(ref), "--start", start,
                                 "--end", end)
        assert f"r.m2: --start {start} --end {end} select none of its" in message
    assert run_cli("cherrant", "compare", "-hyp", str(ref), "-ref", str(ref), "--start", "0", "--end", "1")[0] == 0
    # no sentence with that many reference annotators: ChERRANT prints P = R = F = 1.0 for nothing scored
    assert "r.m2: --reference_num 9: no sentence has 9 reference annotators" in one_line_error(
        "cherrant", "compare", "-hyp", str(ref), "-ref", str(ref), "--reference-num", "9")
    assert run_cli("cherrant", "compare", "-hyp", str(ref), "-ref", str(ref), "--reference-num", "1")[0] == 0
    for flag, other in (("--start", "--end"), ("--end", "--start")):  # ChERRANT ignores one alone
        assert f"{flag} needs {other}" in one_line_error("cherrant", "compare", "-hyp", str(ref), "-ref", str(ref),
                                                         flag, "1")


def test_negative_and_invalid_integer_options_are_one_line_naming_the_flag(data_folder: str, tmp_path: Path) -> None:
    """`--start`/`--end` are ChERRANT's Python slice [start:end] of both files (its argparse
    takes any int): a negative one counts from the end, as there, and a selection of nothing is
    one line naming the flags. `--reference_num -1` and `--max_answer_num -1` said "setting
    reference_num ..." (the library's name); now the flag."""
    ref = tmp_path / "r.m2"
    assert run_cli("cherrant", "m2", "-f", PAIRS, "-o", str(ref))[0] == 0
    size = ref.read_text(encoding="utf-8").count("\nS ") + 1
    base = ["cherrant", "compare", "-hyp", str(ref), "-ref", str(ref), "-cs", "--json"]
    assert run_cli(*base, "--start", "-3", "--end", "-1")[1] == \
        run_cli(*base, "--start", str(size - 3), "--end", str(size - 1))[1]
    assert "r.m2: --start -1 --end 2 select none of its" in one_line_error(*base, "--start", "-1", "--end", "2")
    for command in (base, ["cherrant", "score", "-hyp", PAIRS, "-ref", PAIRS]):
        for flag, value, message in (("--reference_num", "-1", "--reference_num must be a positive integer, got -1"),
                                     ("--reference-num", "0", "--reference_num must be a positive integer, got 0"),
                                     ("--max_answer_num", "-1", "--max_answer_num must be 1, 2 or 3")):
            assert one_line_error(*command, flag, value).startswith(f"gecmetric: error: {message}"), (command, flag)


def test_score_annotates_and_compares_a_chunk_at_a_time(data_folder: str, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """cherrant score reads both para files a batch at a time and compares them chunk by chunk
    (it held both files, their M2 texts and blocks whole: 1.0 GB for 10^5 lines, 0.3 GB now): in
    chunks of 2 the same report, M2 and errors as in one chunk, errors past the first chunks
    naming the para files' lines and the sentence's number, and no M2 written on an error."""
    from gecmetrics.io import para

    lines = Path(PAIRS).read_text(encoding="utf-8").splitlines(keepends=True)
    ref, hyp = tmp_path / "ref.para", tmp_path / "hyp.para"
    ref.write_text("".join(lines * 3), encoding="utf-8")
    hyp.write_text("".join(f"{n}\t{line.split(chr(9))[1]}\t{line.rstrip().split(chr(9))[-1]}\n"
                           for n, line in enumerate(lines * 3)), encoding="utf-8")
    whole = {}
    for options in (["-cat", "3"], ["--start", "3", "--end", str(2 * len(lines) + 1), "-v"],
                    ["--start", "-5", "--end", "-1", "--json"], ["-p", "2", "--tsv"]):
        outputs = ["--hyp-m2", str(tmp_path / "h.m2"), "--ref-m2", str(tmp_path / "r.m2")]
        with monkeypatch.context() as patch:
            if whole:  # a run in chunks of 2 lines, none of them read whole
                patch.setattr(para, "PARA_BATCH", 2)
                patch.setattr(para, "read_para", lambda path: pytest.fail("the whole file read"))
            code, stdout, stderr = run_cli("cherrant", "score", "-hyp", str(hyp), "-ref", str(ref), *options,
                                           *outputs, *(["--chunk-lines", "2"] if whole else []))
        assert code == 0, stderr
        m2 = [(tmp_path / name).read_text(encoding="utf-8") for name in ("h.m2", "r.m2")]
        if not whole:
            whole = {"first": (stdout, m2)}
            assert m2[1] == (DATA / "cherrant_pairs.m2").read_text(encoding="utf-8") * 3
        elif options == ["-cat", "3"]:
            assert (stdout, m2) == whole["first"]
        whole[tuple(options)] = stdout
    for options in (["--start", "3", "--end", str(2 * len(lines) + 1), "-v"], ["--start", "-5", "--end", "-1", "--json"],
                    ["-p", "2", "--tsv"]):
        code, stdout, stderr = run_cli("cherrant", "score", "-hyp", str(hyp), "-ref", str(ref), *options)
        assert code == 0 and stdout == whole[tuple(options)], stderr
    monkeypatch.setattr(para, "PARA_BATCH", 2)
    short = tmp_path / "short.para"
    short.write_text("".join(lines * 2), encoding="utf-8")  # a multiple of the chunk: found after the last one
    assert f"hyp.para: has {3 * len(lines)} sentences but the reference {short} has {2 * len(lines)}" in \
        one_line_error("cherrant", "score", "-hyp", str(hyp), "-ref", str(short), "--chunk-lines", "2")
    gap = tmp_path / "gap.para"  # a line left out: its sources differ from the third on, its length is the fault
    gap.write_text("".join(lines[:2] + lines[3:]), encoding="utf-8")
    for options in ([], ["--chunk-lines", "1"]):
        assert f"gap.para: has {len(lines) - 1} sentences but the reference {PAIRS} has {len(lines)}" in \
            one_line_error("cherrant", "score", "-hyp", str(gap), "-ref", PAIRS, *options)
    fields = lines[3].split("\t")
    changed = tmp_path / "changed.para"
    changed.write_text("".join(lines * 2 + lines[:3] + ["\t".join([fields[0], "变" + fields[1], *fields[2:]])]
                               + lines[4:]), encoding="utf-8")
    number = 2 * len(lines) + 4
    error = one_line_error("cherrant", "score", "-hyp", str(changed), "-ref", str(ref), "--chunk-lines", "2",
                           "--hyp-m2", str(tmp_path / "none.m2"))
    assert f"changed.para:{number}: the source of sentence {number} differs from sentence {number} of " in error
    assert error.rstrip().endswith(f"ref.para (line {number})") and not (tmp_path / "none.m2").exists()
    error = one_line_error("cherrant", "score", "-hyp", str(changed), "-ref", str(ref), "--start", str(len(lines)),
                           "--end", str(3 * len(lines)))
    assert f"the source of sentence {number - len(lines)} differs from sentence {number - len(lines)} of " in error


def test_score_names_the_lines_of_the_para_files(data_folder: str, tmp_path: Path) -> None:
    """A hypothesis whose fourth source differs from the reference's: the error names line 4 of
    both .para files (it named the lines of the M2 texts made from them)."""
    lines = Path(PAIRS).read_text(encoding="utf-8").splitlines(keepends=True)[:6]
    fields = lines[3].split("\t")
    changed = lines[:3] + ["\t".join([fields[0], "变" + fields[1], *fields[2:]])] + lines[4:]
    (tmp_path / "ref.para").write_text("".join(lines), encoding="utf-8")
    (tmp_path / "hyp.para").write_text("".join(changed), encoding="utf-8")
    assert "hyp.para:4: the source of sentence 4 differs from sentence 4 of " in one_line_error(
        "cherrant", "score", "-hyp", str(tmp_path / "hyp.para"), "-ref", str(tmp_path / "ref.para"))
    assert one_line_error("cherrant", "score", "-hyp", str(tmp_path / "hyp.para"), "-ref",
                          str(tmp_path / "ref.para")).rstrip().endswith("ref.para (line 4)")


def test_word_level_and_bad_para_files_are_one_line_errors(tmp_path: Path) -> None:
    assert "LTP" in one_line_error("cherrant", "m2", "-f", PAIRS, "-o", str(tmp_path / "x.m2"), "-g", "word")
    bad, empty = tmp_path / "bad.para", tmp_path / "empty"  # (a data folder takes no output: one apart)
    bad.write_text("1\t甲\t乙\n2\t丙\n", encoding="utf-8")
    empty.mkdir()
    assert "bad.para:2:" in one_line_error("cherrant", "m2", "-f", str(bad), "-o", str(tmp_path / "x.m2"),
                                           "--cherrant-data", str(empty))
    assert "data fetch cherrant" in one_line_error("cherrant", "m2", "-f", PAIRS, "-o", str(tmp_path / "x.m2"),
                                                   "--cherrant-data", str(empty))


def test_data_check(data_folder: str, tmp_path: Path) -> None:
    code, out, _ = run_cli("data", "check", "cherrant")
    assert code == 0 and "cilin.txt: ok" in out
    code, out, _ = run_cli("data", "check", "cherrant", "--from", str(tmp_path))
    assert code == 1 and "cilin.txt: missing" in out  # a folder without the files: the report says so
    (tmp_path / "file").write_text("x")
    for folder, why in ((tmp_path / "nowhere", "no such folder"), (tmp_path / "file", "not a folder")):
        assert one_line_error("data", "check", "cherrant", "--from", str(folder)).strip() == \
            f"gecmetric: error: {folder}: --from: {why}"


def test_modified_data_files_are_warned_about(data_folder: str, tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    for name in ("cilin.txt", "confusion_dict.txt"):
        (folder / name).write_bytes((Path(data_folder) / name).read_bytes())
    with open(folder / "confusion_dict.txt", "a", encoding="utf-8") as handle:
        handle.write("甲 乙\n")
    code, _, stderr = run_cli("cherrant", "m2", "-f", PAIRS, "-o", str(tmp_path / "x.m2"), "--cherrant-data",
                              str(folder))
    assert code == 0 and "differ from ChERRANT's published" in stderr


def test_score_signature_says_how_the_m2_were_made(data_folder: str, tmp_path: Path) -> None:
    """score aligns the para files itself: its signature names the language, the data files, the
    strategy and the converters' versions, as `errant --lang zh` does for the same numbers (compare
    reads M2 made elsewhere and has none of them)."""
    import json

    for options, extra in (([], ""), (["-s", "first"], "|alignments:first")):
        code, out, stderr = run_cli("cherrant", "score", "-hyp", PAIRS, "-ref", PAIRS, "--json", *options)
        assert code == 0, stderr
        signature = json.loads(out)[0]["signature"]
        assert f"|lang:zh|data:published{extra}|pypinyin:" in signature, signature
    m2 = tmp_path / "r.m2"
    assert run_cli("cherrant", "m2", "-f", PAIRS, "-o", str(m2))[0] == 0
    code, out, stderr = run_cli("cherrant", "compare", "-hyp", str(m2), "-ref", str(m2), "--json")
    assert code == 0 and "lang:" not in json.loads(out)[0]["signature"], stderr


@pytest.mark.parametrize("pair, hypothesis", [("我[缺失成分]去\t我们去", "我们去"), ("好\t好的", "好的")])
def test_chERRANTs_m2_of_a_hypothesis_with_a_missing_component_token_or_one_character(data_folder, tmp_path, pair,
                                                                                     hypothesis):
    """`compare --hyp-m2` refused ChERRANT's own M2 of the hypothesis ("with its edits applied
    differs from line 1") when a sentence held the one token [缺失成分] or a one-character
    source: a block was taken for characters only when every token was one character long."""
    from gecmetrics.errors import InputError
    from gecmetrics.io.corpus import read_corpus
    from gecmetrics.io.m2 import read_m2

    source = pair.split("\t")[0]
    (tmp_path / "p.txt").write_text(f"1\t{pair}\n2\t你好\t你们好\n", encoding="utf-8")
    (tmp_path / "s").write_text(f"{source}\n你好\n", encoding="utf-8")
    (tmp_path / "h").write_text(f"{hypothesis}\n你们好\n", encoding="utf-8")
    code, _, stderr = run_cli("cherrant", "m2", "-f", str(tmp_path / "p.txt"), "-o", str(tmp_path / "h.m2"))
    assert code == 0, stderr
    blocks = read_m2(str(tmp_path / "h.m2"), target_lines=True)
    corpus = read_corpus(str(tmp_path / "s"), [], [str(tmp_path / "h")])
    corpus.add_hypothesis_m2(str(tmp_path / "h"), blocks, "h.m2")
    assert len(corpus.hypothesis_m2[str(tmp_path / "h")]) == 2
    # a word-level block is still checked
    (tmp_path / "wrong.m2").write_text("S He go .\nA 1 2|||R:VERB|||goes|||REQUIRED|||-NONE-|||0\n\n", encoding="utf-8")
    (tmp_path / "w").write_text("He go .\n", encoding="utf-8")
    (tmp_path / "wh").write_text("He goes home .\n", encoding="utf-8")
    with pytest.raises(InputError, match="with its edits applied differs from line 1"):
        read_corpus(str(tmp_path / "w"), [], [str(tmp_path / "wh")], hypothesis_m2=[str(tmp_path / "wrong.m2")])
