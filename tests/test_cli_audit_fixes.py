"""Flag combinations of gotoscorer, m2 refs and demo found by a CLI audit: each is refused in one
line naming its flags (exit 2) instead of being left unread, and gotoscorer's tables keep their
signature line in every format."""
from __future__ import annotations

import re

import pytest

from .conftest import SPACY_TEST_MODEL, one_line_error, run_cli, write_files

SOURCES = ["We discussing about its .", "I have been to park tomorrow .", "Fine ."]


def m2_text(sentences: list[tuple[str, list[tuple[int, int, str, str, int]]]]) -> str:
    """An M2 text from (source, [(start, end, type, correction, annotator)])."""
    return "".join(f"S {source}\n" + "".join(f"A {s} {e}|||{t}|||{c}|||REQUIRED|||-NONE-|||{a}\n"
                                             for s, e, t, c, a in edits) + "\n" for source, edits in sentences)


NOOP = (-1, -1, "noop", "-NONE-", 0)
REFERENCE = m2_text([
    (SOURCES[0], [(1, 1, "M:VERB", "have been", 0), (2, 3, "U:PREP", "", 0), (3, 4, "R:PRON", "it", 0)]),
    (SOURCES[1], [(1, 3, "R:VERB", "go", 0), (4, 4, "M:DET", "the", 0), (5, 6, "U:NOUN", "", 0)]),
    (SOURCES[2], [NOOP]),
])
# three systems, one file each (one system per file, annotator 0), as the audit's CUUI.m2 CAMB.m2 AMU.m2
SYSTEMS = {
    "a.m2": m2_text([(SOURCES[0], [(1, 1, "M:VERB", "have been", 0), (3, 4, "R:PRON", "it", 0)]),
                     (SOURCES[1], [(1, 3, "R:VERB", "go", 0), (4, 4, "M:DET", "the", 0)]), (SOURCES[2], [NOOP])]),
    "b.m2": m2_text([(SOURCES[0], [(1, 1, "M:VERB:TENSE", "are", 0), (2, 3, "U:PREP", "", 0)]),
                     (SOURCES[1], [(2, 3, "R:VERB", "went", 0), (4, 4, "M:DET", "the", 0)]), (SOURCES[2], [NOOP])]),
    "c.m2": m2_text([(SOURCES[0], [(1, 3, "R:OTHER", "talking", 0), (3, 4, "R:PRON", "it", 0)]),
                     (SOURCES[1], [(2, 2, "M:VERB:FORM", "to", 0), (5, 6, "R:NOUN", "past", 0)]),
                     (SOURCES[2], [(1, 2, "UNK", ".", 0)])]),
}


@pytest.fixture
def gotoscorer_args(tmp_path) -> list[str]:
    paths = write_files(tmp_path, {"refs.m2": REFERENCE, **SYSTEMS})
    return ["gotoscorer", "-ref", paths["refs.m2"], "-hyp", paths["a.m2"], paths["b.m2"], paths["c.m2"]]


def test_gotoscorer_cat_markdown_prints_the_signature_line_before_the_difficulty_table(gotoscorer_args):
    code, out, err = run_cli(*gotoscorer_args, "-cat", "1", "--markdown")
    assert code == 0, err
    scores, difficulty = out.split("\n\n| category | mean | std | freq |\n|:---|---:|---:|---:|\n")
    assert scores.splitlines()[-3:-1] == ["Signatures:", ""]
    assert re.fullmatch(r"\* `GoToScorer\|score:f05\|weights:systems\|a:1\|b:0\|c:0\|no_weight:no\|ref_id:0\|"
                        r"version:[^`|\n]+`", scores.splitlines()[-1])
    assert [row.split(" | ")[0].strip("| ") for row in difficulty.splitlines()] == ["U", "M", "R"]
    # the same signature line as without -cat, and as LaTeX's comment
    code, plain, err = run_cli(*gotoscorer_args, "--markdown")
    assert code == 0 and plain == scores + "\n", err
    code, latex, err = run_cli(*gotoscorer_args, "-cat", "1", "--latex")
    assert code == 0 and "\n% GoToScorer|score:f05|" in latex.split("\n\n")[0], err


@pytest.mark.parametrize("formats", [[], ["--markdown"], ["--tsv"], ["--json"]])
def test_gotoscorer_cat_with_sentence_is_refused(gotoscorer_args, formats):
    """--sentence printed its rows alone, -cat's difficulty table dropped without a word."""
    code, out, err = run_cli(*gotoscorer_args, "-cat", "1", "--sentence", *formats)
    assert (code, out, err) == (2, "", "gecmetric: error: -cat: adds the difficulty table: not with --sentence, "
                                       "rows of sentences\n")
    code, out, err = run_cli(*gotoscorer_args, "--sentence", *formats)
    assert code == 0 and out, err


def test_gotoscorer_cat_with_json_or_tsv_is_still_refused_as_before(gotoscorer_args):
    for fmt in ("--json", "--tsv"):
        code, out, err = run_cli(*gotoscorer_args, "-cat", "2", fmt)
        assert (code, out, err) == (2, "", "gecmetric: error: -cat: adds the difficulty table: not with --json or "
                                           "--tsv, streams of one table\n")


def test_m2_refs_refuses_standard_input_given_twice(tmp_path):
    """The second '-' read nothing: 'has no sentences (an empty M2 file scores nothing)'."""
    out_dir = tmp_path / "r6"
    for gold in (["-", "-"], ["-", "-", "-"]):
        code, out, err = run_cli("m2", "refs", *gold, "-o", str(out_dir), input=REFERENCE)
        assert (code, out, err) == (2, "", "gecmetric: error: standard input ('-') can be read only once\n")
        assert not out_dir.exists()
    prefix = str(tmp_path / "p")
    code, out, err = run_cli("m2", "refs", "-", "-", "--prefix", prefix, input=REFERENCE)
    assert (code, out, err) == (2, "", "gecmetric: error: standard input ('-') can be read only once\n")
    # standard input once, alone or beside a file, is read
    code, out, err = run_cli("m2", "refs", "-", "-o", str(out_dir), input=REFERENCE)
    assert code == 0 and out.split() == [str(out_dir / "INPUT"), str(out_dir / "REF0")], err
    gold = write_files(tmp_path, {"gold.m2": REFERENCE})["gold.m2"]
    code, out, err = run_cli("m2", "refs", gold, "-", "-o", str(tmp_path / "two"), input=REFERENCE)
    assert code == 0 and len(out.split()) == 3, err


@pytest.mark.parametrize("flags, named", [(["--path", "--json"], "--json"), (["--json", "--path"], "--json"),
                                          (["--path", "--tsv"], "--tsv"), (["--path", "--markdown"], "--markdown"),
                                          (["--path", "--latex"], "--latex"),
                                          (["--path", "--format", "text"], "--format text")])
def test_demo_path_refuses_an_output_format(flags, named):
    """--path printed the bare folder, exit 0, the format flag left unread."""
    code, out, err = run_cli("demo", *flags)
    assert (code, out, err) == (2, "", f"gecmetric: error: --path: prints only the folder of the sample files: not "
                                       f"with {named}\n")


def test_demo_path_alone_prints_the_folder():
    from gecmetrics.cli.demo import sample_folder

    assert run_cli("demo", "--path") == (0, sample_folder() + "\n", "")


def test_m2_refs_refuses_one_m2_file_given_twice(tmp_path):
    """It wrote REF0 and REF1 the same, which the scoring commands then took as two references."""
    gold = write_files(tmp_path, {"gold.m2": REFERENCE})["gold.m2"]
    for second in (gold, str(tmp_path / "." / "gold.m2")):
        out_dir = tmp_path / "twice"
        code, out, err = run_cli("m2", "refs", gold, second, "-o", str(out_dir))
        assert code == 2 and out == "" and "given twice" in err and "as an M2 input" in err, err
        assert err.count("\n") == 1 and not out_dir.exists()


def test_errant_compare_report_refuses_every_format_json_too(tmp_path):
    """--errant-compare --json printed the ordinary JSON and dropped the report without a word."""
    files = write_files(tmp_path, {"src": "\n".join(SOURCES) + "\n", "gold.m2": REFERENCE,
                                   "hyp": "\n".join(SOURCES) + "\n"})
    for flags in (["--json"], ["--format", "json"], ["--tsv"]):
        code, out, err = run_cli("errant", "-s", files["src"], "-r", files["gold.m2"], "-o", files["hyp"],
                                 "--errant-compare", *flags)
        assert (code, out) == (2, "") and "--errant-compare prints errant_compare's own report" in err, err


def test_settings_messages_name_the_flags_too(tmp_path):
    """Messages of settings checks said only the Python names (average=macro, weighted=false)."""
    gold = write_files(tmp_path, {"gold.m2": REFERENCE, "hyp": "\n".join(SOURCES) + "\n"})
    code, out, err = run_cli("sentm2", "-s", gold["gold.m2"], "-o", gold["hyp"], "--macro")
    assert code == 2 and "--macro" in err and "--sentence-average" in err, err


def test_a_negative_count_after_paired_bs_is_named_as_such(tmp_path):
    """click read '--paired-bs -1' as the flag alone and '-1' as an option: "No such option '-1'"."""
    files = write_files(tmp_path, {"src": "\n".join(SOURCES) + "\n", "hyp": "\n".join(SOURCES) + "\n"})
    for flag, count in (("--paired-bs", "-1"), ("--paired-ar", "-0.5")):
        code, out, err = run_cli("gleu", "-s", files["src"], "-r", files["hyp"], "-o", files["hyp"], files["src"],
                                 flag, count)
        assert (code, out) == (2, "") and err.startswith(f"gecmetric: error: {count} is no option, and no count of "
                                                         "--paired-bs or --paired-ar"), err


def test_outputs_may_not_replace_a_file_a_metric_setting_names(tmp_path):
    """report --html and meta-eval --plot replaced the word list of errant:word_list=FILE (a file
    the run reads: its hash is in the signature) without a word."""
    files = write_files(tmp_path, {"src": "\n".join(SOURCES) + "\n", "hyp": "\n".join(SOURCES) + "\n",
                                   "words.svg": "foo\nbar\n"})
    words = files["words.svg"]
    for command in (["report", "-s", files["src"], "-r", files["hyp"], "-o", files["hyp"], files["src"], "--metrics",
                     f"gleu,errant:word_list={words}", "--html", words],
                    ["report", "-s", files["src"], "-r", files["hyp"], "-o", files["hyp"], files["src"], "--attribute",
                     f"errant:word_list={words}", "--json", words],
                    ["meta-eval", "-s", files["src"], "-r", files["hyp"], "-o", files["hyp"], files["src"], "--metrics",
                     f"errant:word_list={words}", "--human", "gjg15", "--plot", words]):
        code, out, err = run_cli(*command)
        assert code == 2 and "is also an input" in err, (command, err)
        assert open(words, encoding="utf-8").read() == "foo\nbar\n"


def test_m2_refs_names_the_file_of_a_filled_annotator_among_several(tmp_path):
    """With several files a reference's number is a position over all of them, and "filled from
    annotator 0" named the first file's annotator where the block was filled from its own file's."""
    two = m2_text([(SOURCES[0], [(1, 1, "M:VERB", "have been", 0), (2, 3, "U:PREP", "", 1)]),
                   (SOURCES[1], [(1, 3, "R:VERB", "go", 0)]), (SOURCES[2], [NOOP])])
    files = write_files(tmp_path, {"one.m2": REFERENCE, "two.m2": two})
    code, out, err = run_cli("m2", "refs", files["one.m2"], files["two.m2"], "-o", str(tmp_path / "refs"))
    assert code == 0 and len(out.split()) == 4, err
    name = files["two.m2"]
    assert err == (f"gecmetric: m2 refs: reference 2 (annotator 1 of {name}): 2 blocks have no line for it, filled "
                   f"from {name}'s annotator 0; {name}'s annotator 0 changed 1 of them\n")
    code, out, err = run_cli("m2", "refs", files["two.m2"], "-o", str(tmp_path / "alone"))  # one file: as before
    assert err == ("gecmetric: m2 refs: annotator 1: 2 blocks have no line for it, filled from annotator 0; "
                   "annotator 0 changed 1 of them\n")


# A new user's walk (2026-12-07): a misspelt command got no suggestion where a misspelt m2
# subcommand did (the group loads its commands lazily: click compared the name with those loaded,
# none), and `-help`, as the original tools' single-dash flags invite, said "No such option '-e'"
# (click read it as -h -e -l -p).
@pytest.mark.parametrize("typed, suggested", [("compar", "'compare'"), ("greem", "'green'"), ("erant", "'errant'")])
def test_a_misspelt_command_gets_the_close_names(typed: str, suggested: str) -> None:
    err = one_line_error(typed)
    assert f"No such command '{typed}'. Did you mean " in err and suggested in err, err
    assert "Did you mean" not in one_line_error("xyzzy")


@pytest.mark.parametrize("command", [["gleu"], ["m2", "score"], ["errant"]])
def test_help_with_one_dash_says_how_to_ask_for_help(command: list[str]) -> None:
    err = one_line_error(*command, "-help")
    assert "-help is no option: --help (or -h) prints a command's help" in err and "'-e'" not in err, err


# An M2 file where plain text is read said only that the line counts differ ("has 8497 lines but
# the source INPUT has 1312"); a text file where an M2 file is read, only "not an M2 line".
def test_an_m2_file_where_text_is_read_and_the_reverse_say_so(tmp_path) -> None:
    gold = REFERENCE + m2_text([(SOURCES[2], [])])  # (a block without an A line, as CoNLL-2014's)
    f = write_files(tmp_path, {"src": "\n".join(SOURCES) + "\n", "src2": "\n".join(SOURCES) + "\n", "gold.m2": gold,
                               "notes": "S first\nnot M2\n"})
    hint = "it reads as an M2 file ('S' and 'A' lines), where plain text is expected"
    for args in (["-s", f["src"], "-r", f["src"], "-o", f["gold.m2"]], ["-s", f["src"], "-r", f["gold.m2"], "-o", f["src"]],
                 ["-s", f["gold.m2"], "-r", f["src"], f["src2"], "-o", f["src"]]):
        err = one_line_error("gleu", *args)
        assert "gold.m2: has " in err and hint in err, err
    assert hint not in one_line_error("gleu", "-s", f["src"], "-r", f["src"], "-o", f["notes"])
    err = one_line_error("m2", "score", "-s", f["src"], "-o", f["src"])
    assert "not an M2 line" in err and "plain text where an M2 file is expected?" in err, err


# An output refused before the work named the file but not the option: `report --html adir`
# said "adir: is a directory, not a file" where `--html nodir/x.html` named --html.
def test_an_output_refused_before_the_work_names_its_option(tmp_path) -> None:
    f = write_files(tmp_path, {"src": "\n".join(SOURCES) + "\n"})
    (tmp_path / "adir").mkdir()
    for flag in ("--html", "--json"):
        err = one_line_error("report", "-s", f["src"], "-r", f["src"], "-o", f["src"], "--metrics", "gleu",
                             flag, str(tmp_path / "adir"))
        assert f"adir: is a directory, not a file ({flag})" in err, err


def test_a_named_pipe_of_the_wrong_length_is_not_opened_again(tmp_path) -> None:
    """The M2 hint of a line-count error opened the file again to look at it: a named pipe, read
    to its end, waited for another writer for good (the command hung). Only a regular file is."""
    import os
    import subprocess
    import threading

    from .conftest import command_environment, gecmetric_script

    f = write_files(tmp_path, {"src": "\n".join(SOURCES) + "\n"})
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)

    def write() -> None:
        with open(pipe, "w", encoding="utf-8") as handle:
            handle.write("one line\n")

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    done = subprocess.run([gecmetric_script(), "gleu", "-s", f["src"], "-r", f["src"], "-o", str(pipe)],
                          capture_output=True, text=True, timeout=60, env=command_environment())
    assert done.returncode == 2 and "pipe: has 1 line but the source" in done.stderr, done.stderr


# A second walk (2026-12-07): `attribute --metric cleme` on a sentence without a reference
# correction was told to give --unweighted, which attribute has not; m2 without a gold named no flag.
def test_messages_name_the_flags_the_command_has(tmp_path) -> None:
    from gecmetrics import get_metric
    from gecmetrics.errors import InputError

    cleme = get_metric("cleme")
    blocks = [f"S {SOURCES[2]}\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n"]
    from gecmetrics.io.m2 import parse_m2

    gold = parse_m2("".join(blocks), "gold")
    with pytest.raises(InputError, match=r"cleme's --unweighted, or cleme:weighted=false in --metric/--metrics"):
        cleme.corpus_score(None, gold, gold)
    f = write_files(tmp_path, {"src": "\n".join(SOURCES) + "\n", "hyp": "\n".join(SOURCES[::-1]) + "\n"})
    err = one_line_error("attribute", "-s", f["src"], "-r", f["src"], "-o", f["hyp"], "--metric", "m2",
                         "--spacy-model", SPACY_TEST_MODEL)
    assert "needs gold M2 annotations of the same sentences (--m2 GOLD.m2" in err, err


def test_cleme2_factors_with_commas_say_how_they_are_written() -> None:
    """--factors 0.5,0.5,0,0 said 'must be a number, got ...'."""
    from gecmetrics import get_metric
    from gecmetrics.errors import InputError

    with pytest.raises(InputError, match=r"takes 4 numbers hit/wrong/under/over separated by '/' \(e\.g\. "):
        get_metric("cleme2", factors="0.5,0.5,0,0")
    assert get_metric("cleme2", factors="0.5/0.5/0/0").settings.factors is not None


def test_an_unknown_meta_eval_table_lists_what_each_mode_has(tmp_path) -> None:
    """'--table nope' offered ranking, comparisons ... which a human-table run does not have."""
    f = write_files(tmp_path, {"scores.tsv": "system\tm\nAMU\t1\nCAMB\t2\nCUUI\t3\n"})
    err = one_line_error("meta-eval", "--human", "gjg15", "--scores", f["scores.tsv"], "--table", "nope")
    assert "unknown --table 'nope'; choose one of: correlations, or with --judgments ranking, comparisons" in err, err
