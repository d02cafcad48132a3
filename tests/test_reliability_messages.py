"""Tracebacks and unclear messages of issue 33, each now one line (exit 2) naming the file, line
or flag: a beta too large for an F-score, UTF-16 files with their byte-order mark, ERRANT without
gold M2 in compare, a spaCy model with damaged weights, a word list that is one huge line."""
from __future__ import annotations

import gzip
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gecmetrics.errors import InputError
from tests.conftest import SPACY_TEST_MODEL, one_line_error, run_cli

GOLD = "S a b c\nA 0 1|||R:X|||x|||REQUIRED|||-NONE-|||0\n"


@pytest.fixture
def here(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "src").write_text("a b c\n", encoding="utf-8")
    (tmp_path / "hyp").write_text("x b c\n", encoding="utf-8")
    (tmp_path / "gold.m2").write_text(GOLD, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("args", [
    ["green", "-s", "src", "-r", "hyp", "-c", "hyp", "src", "-b", "1e308"],
    ["green", "-s", "src", "-r", "hyp", "-c", "hyp", "-b", "0.5", "1e200"],
    ["m2", "score", "-s", "gold.m2", "-o", "hyp", "-b", "1e308"],   # printed nan
    ["m2", "compare", "-hyp", "gold.m2", "-ref", "gold.m2", "-b", "1e155"],
    ["cleme", "-ref", "gold.m2", "-hyp", "gold.m2", "--beta", "1e308"],
    ["compare", "-s", "src", "-r", "hyp", "-o", "hyp", "--metrics", "green:beta=1e308"],
])
def test_a_beta_too_large_for_an_f_score_is_one_line(here: Path, args: list[str]) -> None:
    err = one_line_error(*args)
    assert "must be 0, from 1e-100 to 1e+100 (gecmetrics.core.checks.MIN_BETA, MAX_BETA), or inf for recall" in err, err


@pytest.mark.parametrize("beta", ["1e-320", "1e-400", "1e-101"])
@pytest.mark.parametrize("command", [["m2", "score", "-s", "gold.m2", "-o", "hyp"],
                                     ["green", "-s", "src", "-r", "hyp", "-c", "hyp"]])
def test_a_beta_too_small_for_an_f_score_is_one_line(here: Path, command: list[str], beta: str) -> None:
    # its square is 0 (or not a normal double): the M2 score's label was f9.99989e-321; a text that
    # reads as 0 (1e-400) was beta 0
    err = one_line_error(*command, "-b", beta)
    assert f"must be 0, from 1e-100 to 1e+100 (gecmetrics.core.checks.MIN_BETA, MAX_BETA), or inf for recall, " \
           f"got {beta}" in err, err
    code, out, err = run_cli(*command, "-b", "1e-100")
    assert code == 0, err


def test_the_largest_beta_still_scores(here: Path) -> None:
    code, out, err = run_cli("m2", "score", "-s", "gold.m2", "-o", "hyp", "-b", "1e100")
    assert code == 0 and out.splitlines()[1] == "hyp\t100.00\t100.00\t100.00", (out, err)
    code, out, err = run_cli("green", "-s", "src", "-r", "hyp", "-c", "hyp", "src", "-b", "1e100", "inf", "-n", "2")
    rows = [line.split("\t") for line in out.splitlines()[1:]]
    assert code == 0 and rows[0] == ["hyp", "100.00", "100.00"], out  # the reference itself
    assert rows[1][1] == rows[1][2] and float(rows[1][1]) < 100, out  # 1e100 weighs as inf (recall) does


@pytest.mark.parametrize("encoding, mark", [("utf-16", "UTF-16"), ("utf-16-be", None), ("utf-32", "UTF-32")])
@pytest.mark.parametrize("text", ["a b c\n", "中文 句子\n"])
def test_utf16_with_its_byte_order_mark_is_named_for_what_it_is(here: Path, encoding: str, mark: str | None,
                                                                text: str) -> None:
    data = text.encode(encoding)
    if mark is None:  # big-endian with its mark written by hand
        data, mark = b"\xfe\xff" + data, "UTF-16"
    (here / "wide").write_bytes(data)
    (here / "wide.para").write_bytes(("1\t" + text.strip() + "\t" + text.strip() + "\n").encode("utf-8"))
    (here / "wide16.para").write_bytes(b"\xff\xfe" + ("1\t中文\t中\n").encode("utf-16-le"))
    for args, name in ((["gleu", "-s", "wide", "-r", "hyp", "-o", "hyp"], "wide"),
                       (["m2", "score", "-s", "wide", "-o", "hyp"], "wide"),
                       (["cherrant", "m2", "-f", "wide16.para", "-o", "out.m2"], "wide16.para")):
        err = one_line_error(*args)
        expected = mark if name == "wide" else "UTF-16"
        assert err.startswith(f"gecmetric: error: {name}:1: {expected} text (it starts with a {expected} "
                              f"byte-order mark): text files are UTF-8"), (args, err)
        assert "without a byte-order mark" not in err


def test_utf16_without_a_mark_is_still_the_nul_message(here: Path) -> None:
    (here / "bare").write_bytes("a b c\n".encode("utf-16-le"))
    err = one_line_error("gleu", "-s", "bare", "-r", "hyp", "-o", "hyp")
    assert "bare:1: NUL byte (a binary file, or UTF-16 without a byte-order mark?)" in err


def test_errant_in_compare_without_gold_m2_names_annotate_refs(here: Path) -> None:
    err = one_line_error("compare", "-s", "src", "-r", "hyp", "-o", "hyp", "--metrics", "gleu,errant")
    assert "needs the gold annotation: --m2 GOLD.m2" in err and "errant:annotate_refs=true" in err, err
    err = one_line_error("compare", "-s", "src", "-r", "hyp", "-o", "hyp", "--metrics", "m2")
    assert "annotate_refs" not in err  # M2 has no such setting


def test_a_spacy_model_with_damaged_weights_is_one_line(here: Path, spacy_model) -> None:
    import importlib.util

    package = Path(importlib.util.find_spec(SPACY_TEST_MODEL).origin).parent
    folder = next(path for path in package.iterdir() if path.is_dir() and (path / "config.cfg").is_file())
    damaged = here / "damaged-model"
    shutil.copytree(folder, damaged)
    weights = damaged / "parser" / "model"
    weights.write_bytes(weights.read_bytes()[:1000])  # cut short: msgpack cannot read it
    err = one_line_error("errant", "-s", "src", "-r", "hyp", "--annotate-refs", "-o", "hyp", "--spacy-model",
                         str(damaged))
    assert f"spaCy model '{damaged}' cannot be loaded (ValueError: " in err and "reinstall it" in err, err


READ_BOUNDED = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (700 << 20, 700 << 20))
sys.path.insert(0, {root!r})
from gecmetrics.core.lang.en.wordlist import read_word_file
from gecmetrics.errors import InputError
try:
    read_word_file({path!r})
except InputError as err:
    print(err)
"""


def test_a_word_list_of_one_huge_line_is_refused_in_bounded_memory(tmp_path: Path) -> None:
    """300 MB of one line in a small .gz: read whole, it took 1.27 GB; here the reading process
    may use 700 MB of address space in all."""
    path = tmp_path / "words.txt.gz"
    with gzip.open(path, "wb", compresslevel=1) as handle:
        chunk = b"a" * (1 << 20)
        for _ in range(300):
            handle.write(chunk)
    assert path.stat().st_size < 2 << 20
    root = str(Path(__file__).resolve().parent.parent)
    done = subprocess.run([sys.executable, "-c", READ_BOUNDED.format(root=root, path=str(path))],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "MemoryError" not in done.stderr, done.stderr[-500:]
    assert done.stdout.startswith(f"{path}:1: a line longer than 1,000 characters: not a word list"), done.stdout


def test_word_lists_read_as_before(tmp_path: Path) -> None:
    from gecmetrics.core.lang.en.wordlist import MAX_WORDS, read_word_file

    for text in ("a\r\nb\rc\n\n d \n", "x", "x\n", "x\t\n \n"):
        path = tmp_path / "w.txt"
        path.write_bytes(text.encode("utf-8"))
        lines = path.read_text(encoding="utf-8").split("\n")  # ERRANT's reading: the whole text, newlines translated
        if lines and lines[-1] == "":
            lines.pop()
        assert read_word_file(path) == frozenset(map(str.strip, lines)), text
    (tmp_path / "many.txt").write_text("w\n" * 3, encoding="utf-8")
    import gecmetrics.core.lang.en.wordlist as wordlist

    original = wordlist.MAX_WORDS
    try:
        wordlist.MAX_WORDS = 2
        with pytest.raises(InputError, match=r"many.txt:3: more than 2 lines"):
            read_word_file(tmp_path / "many.txt")
    finally:
        wordlist.MAX_WORDS = original
    assert MAX_WORDS == original


def test_a_word_list_without_words_or_of_sentences_is_refused(tmp_path: Path) -> None:
    """An empty file, or a text given as the word list, made every word a SPELL error without a
    word (F0.5 33.33 -> 14.29 on 20 CoNLL-2014 lines)."""
    from gecmetrics.core.lang.en.wordlist import load_word_list, read_word_file

    for text in ("", "\n\n\n", " \n\t\n"):
        (tmp_path / "none.txt").write_text(text, encoding="utf-8")
        with pytest.raises(InputError, match=r"none.txt: holds no words: not a word list"):
            read_word_file(tmp_path / "none.txt")
    (tmp_path / "text.txt").write_text("cat\ndog\nKeeping the Secret of Genetic Testing\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"text.txt:3: a line of several words \('Keeping the Secret"):
        load_word_list(tmp_path / "text.txt")
    long = "w\n" * 40_000 + "two words\n"  # found past the first block read
    (tmp_path / "late.txt").write_text(long, encoding="utf-8")
    with pytest.raises(InputError, match=r"late.txt:40001: a line of several words"):
        read_word_file(tmp_path / "late.txt")


def test_a_count_agrees_with_its_noun() -> None:
    from gecmetrics.errors import plural

    assert [plural(n, "line") for n in (0, 1, 2)] == ["0 lines", "1 line", "2 lines"]
    assert plural(1, "list of edits", "lists of edits") == "1 list of edits"
    assert plural(3, "list of edits", "lists of edits") == "3 lists of edits"


@pytest.mark.parametrize("args, expected", [
    (["gleu", "-s", "src2", "-r", "src2", "-o", "hyp"], "hyp: has 1 line but the source src2 has 2"),
    (["green", "-s", "src2", "-r", "src2", "-c", "hyp"], "hyp: has 1 line but the source src2 has 2"),
    (["m2", "score", "-s", "gold2.m2", "-o", "hyp"], "hyp: has 1 line but the M2 file gold2.m2 has 2 blocks"),
    (["m2", "compare", "-hyp", "gold.m2", "-ref", "gold2.m2"], "gold.m2:1: has 1 sentence but"),
    (["cleme", "-hyp", "gold.m2", "-ref", "gold2.m2"], "gold.m2:1: has 1 sentence but"),
    (["gotoscorer", "-ref", "gold2.m2", "-hyp", "gold.m2"], "has 1 sentence but"),
])
def test_a_count_mismatch_of_one_says_one_line_or_sentence(here: Path, args: list[str], expected: str) -> None:
    """A one-line file against a two-line one: "has 1 line", not "has 1 lines"."""
    (here / "src2").write_text("a b c\nd e f\n", encoding="utf-8")
    (here / "gold2.m2").write_text(GOLD + "\nS d e f\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n",
                                   encoding="utf-8")
    err = one_line_error(*args)
    assert expected in err and not any(f"1 {noun}s" in err for noun in ("line", "sentence", "block")), err


def test_no_message_counts_without_its_plural_rule() -> None:
    """Every "has {count} lines/sentences/blocks" in the package's messages goes through
    ``errors.plural`` (a count that can be 1 printed "has 1 lines")."""
    import re

    package = Path(__file__).resolve().parents[1] / "gecmetrics"
    bare = re.compile(r"has \{[^{}]*\} (lines|sentences|blocks|sentence lines|systems)\b")
    found = [f"{path.relative_to(package)}:{number}" for path in sorted(package.rglob("*.py"))
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
             if bare.search(line)]
    assert not found, found


def test_a_value_of_the_wrong_type_is_named_with_its_article() -> None:
    """"completion 0 is an int", "... is None" (it read "is a int", "is a NoneType"); "an ndarray",
    as the docstring says (it read "a ndarray")."""
    import numpy as np

    from gecmetrics.errors import kind_of
    from gecmetrics.rewards import reward_function

    assert [kind_of(v) for v in (3, None, [], b"", 1.5, {}, np.zeros(2), np.float64(1))] == [
        "an int", "None", "a list", "a bytes", "a float", "a dict", "an ndarray", "a float64"]
    reward = reward_function("gleu")
    for completion, said in ((3, "completion 0 is an int: give"), (None, "completion 0 is None: give"),
                             ({"role": "assistant", "content": 4}, "content is an int, not text")):
        with pytest.raises(InputError, match=said):
            reward(completions=[completion], source=["a"], references=[["a"]])


def test_counts_that_can_be_one_read_in_the_singular() -> None:
    """"at most 1 word", "1 sentence" in a one-sentence result's summary (they read "at most 1
    words", "1 sentences")."""
    from gecmetrics import get_metric
    from gecmetrics.core.units import order_warning

    assert "(at most 1 word)" in order_warning(4, 1, "word")
    assert "(at most 1 character)" in order_warning(4, 1, "char")
    assert "(at most 2 words)" in order_warning(4, 2, "word")
    scores = get_metric("gleu").sentence_scores(["a b c"], [["a b c"]], ["a b c"])
    assert str(scores).startswith("GLEU+ sentence scores: 1 sentence, mean ")


@pytest.mark.parametrize("args", [["gotoscorer", "-ref", "ref.m2", "-hyp", "ref.m2", "-v"],
                                  ["cleme", "-hyp", "hyp.m2", "-ref", "ref.m2"],
                                  ["cleme", "-hyp", "hyp.m2", "-ref", "ref.m2", "--cleme2", "--markdown"]])
def test_every_digits_the_option_takes_is_printed(tmp_path: Path, args) -> None:
    """``-d`` takes 0..20, but the count columns beside x100 fractions print 2 decimals more:
    ``-d 19`` and ``-d 20`` were refused ('digits must be at most 20 ... got 22', naming no -d)."""
    (tmp_path / "ref.m2").write_text("S a b c\nA 0 1|||R:X|||x|||REQUIRED|||-NONE-|||0\n"
                                     "A 0 1|||R:X|||x|||REQUIRED|||-NONE-|||1\n\n", encoding="utf-8")
    (tmp_path / "hyp.m2").write_text("S a b c\nA 0 1|||R:X|||x|||REQUIRED|||-NONE-|||0\n\n", encoding="utf-8")
    for digits in ("19", "20"):
        code, out, err = run_cli(*[str(tmp_path / a) if a.endswith(".m2") else a for a in args], "-d", digits,
                                 "--no-cache")
        assert code == 0 and "0" * 19 in out, (digits, err)
