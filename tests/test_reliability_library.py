"""Issue 23's cases that the library answers (for the Python API and every command alike): each
bad value, file or option ends with exit 2 and one line on stderr naming the file (and line) or
the flag through the installed console script, and with one InputError through the API; the
inputs are intact afterwards. The long-line cases give a result instead, in bounded time and
memory (their numbers: benchmarks/errant_long_lines.py and benchmarks/m2_long_lines.py)."""
from __future__ import annotations

import math
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from gecmetrics.errors import InputError
from tests.conftest import SPACY_TEST_MODEL, run_gecmetric, one_line_error
from tests.test_meta_cli import REFERENCES as META_REFERENCES, SOURCES as META_SOURCES, SYSTEMS as META_SYSTEMS, toy_xml

TIMEOUT = 120  # seconds: a case that runs longer is a hang

GOLD = ("S a b c d e\nA 0 1|||R:X|||x|||REQUIRED|||-NONE-|||0\n\n"
        "S f g h i j\nA 4 5|||R:X|||k|||REQUIRED|||-NONE-|||0\n")
REVERSED = ("S f g h i j\nA 4 5|||R:X|||k|||REQUIRED|||-NONE-|||0\n\n"
            "S a b c d e\nA 0 1|||R:X|||x|||REQUIRED|||-NONE-|||0\n")
SOURCE = "a b c d e\nf g h i j\n"
META_ARGS = ["meta-eval", "--judgments", "toy.xml", "-s", "msrc", "-r", "mref0", "mref1", "-o", *META_SYSTEMS]
TOY_XML = toy_xml()


def _annotators(edit_id: str) -> str:
    return GOLD.replace("|||0\n\nS f", f"|||{edit_id}\n\nS f", 1)


def _many_annotators(count: int) -> str:
    return "S a b c\n" + "".join(f"A 0 1|||R:X|||x{k}|||REQUIRED|||-NONE-|||{k}\n" for k in range(count))


FILES: dict[str, str | bytes] = {
    "src": SOURCE, "ref0": "x b c d e\nf g h i k\n", "ref1": "a b c d e\nf g h i k\n",
    "hyp": "x b c d e\nf g h i j\n", "hyp2": "a b c d e\nf g h i k\n",
    "nul": b"a b c d e\n\x00\x00\n", "utf16": SOURCE.encode("utf-16-le"),
    "gold.m2": GOLD, "reversed.m2": REVERSED, "nul.m2": GOLD.replace("f g", "f\x00g").encode(),
    "ann32.m2": _annotators("4294967296"), "ann64.m2": _annotators("9223372036854775808"),
    "overlap.m2": GOLD.replace("A 0 1|||R:X|||x|||REQUIRED|||-NONE-|||0\n",
                               "A 0 2|||R:X|||x|||REQUIRED|||-NONE-|||0\nA 1 3|||R:X|||y|||REQUIRED|||-NONE-|||0\n"),
    "nul.para": b"1\ta\x00b\tab\n", "many.m2": _many_annotators(3000),
    "toy.xml": TOY_XML, "nul.xml": TOY_XML.encode().replace(b'user="u"', b'user="\x00"', 1),
    "bigattr.xml": TOY_XML.replace('user="u"', 'user="' + "x" * 5_000_000 + '"', 1),
    "longname.xml": TOY_XML.replace('system="good"', 'system="' + "g" * 300 + '"'),
    "bigsrc.xml": TOY_XML.replace('src-id="0"', 'src-id="1000000000000000000000000000000"', 1),
    "bigrank.xml": TOY_XML.replace('rank="1"', 'rank="10000000000000000000000"', 1),
    "msrc": "\n".join(META_SOURCES) + "\n", "mref0": "\n".join(META_REFERENCES[0]) + "\n",
    "mref1": "\n".join(META_REFERENCES[1]) + "\n",
    **{name: "\n".join(lines) + "\n" for name, lines in META_SYSTEMS.items()},
    "dup_ids": "0\n0\n2\n3\n4\n5\n", "missing_ids": "0\n1\n2\n3\n4\n9\n", "huge_ids": "0\n1\n2\n3\n4\n99999999999999999999\n",
}


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("library")
    for name, content in FILES.items():
        (folder / name).write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return folder


def _contents(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in folder.iterdir() if path.is_file()}


def _run(folder: Path, args: list[str]) -> subprocess.CompletedProcess:
    return run_gecmetric(args, cwd=folder, capture_output=True, text=True, timeout=TIMEOUT)


N = ["-s", "src", "-r", "ref0", "ref1"]
GLEU0 = ["gleu", "--variant", "gleu0", *N, "-o", "hyp"]
# (arguments, what the one line must name: a file ("file:line" with a line) or a flag)
BAD = [
    # 3: lambda finite and >= 0
    *[([*GLEU0, "-l", value], "-l/--lambda") for value in ("inf", "-inf", "1e309", "1e300", "-1e300", "-1", "nan")],
    (["compare", *N, "-o", "hyp", "--metrics", "gleu0:lambda_=inf"], "lambda_"),
    # 4: NUL bytes (and UTF-16 without its byte-order mark)
    (["gleu", *N, "-o", "nul"], "nul:2"), (["gleu", *N, "-o", "utf16"], "utf16:1"),
    (["green", *N, "-c", "utf16"], "utf16:1"), (["m2", "score", "-s", "nul.m2", "-o", "hyp"], "nul.m2:4"),
    (["m2", "annotate", "-orig", "src", "-cor", "nul"], "nul:2"), (["cherrant", "m2", "-f", "nul.para", "-o", "p.m2"], "nul.para:1"),
    (["rank", "--judgments", "nul.xml"], "nul.xml:2"),
    # 5: hypothesis and reference M2 of the same sentences
    (["m2", "compare", "-hyp", "reversed.m2", "-ref", "gold.m2"], "reversed.m2:1"),
    (["cherrant", "compare", "-hyp", "reversed.m2", "-ref", "gold.m2"], "reversed.m2:1"),
    (["cleme", "-ref", "gold.m2", "-hyp", "reversed.m2"], "reversed.m2:1"),
    (["gotoscorer", "-ref", "gold.m2", "-hyp", "reversed.m2"], "reversed.m2:1"),
    # 6 and 10: --src-ids unique, judged, bounded
    ([*META_ARGS, "--level", "sentence", "--src-ids", "dup_ids"], "dup_ids:2"),
    ([*META_ARGS, "--level", "sentence", "--src-ids", "missing_ids"], "missing_ids:6"),
    ([*META_ARGS, "--level", "sentence", "--src-ids", "huge_ids"], "huge_ids:6"),
    ([*META_ARGS, "--level", "sentence", "--src-ids", "99999999999999999999"], "--src-ids"),
    # 7: CLEME2.0's factors
    (["cleme", "--cleme2", "--factors", "-1/2/0/0", "-ref", "gold.m2", "-hyp", "gold.m2"], "--factors"),
    (["cleme", "--cleme2", "--factors", "", "-ref", "gold.m2", "-hyp", "gold.m2"], "--factors"),
    # 8: negative seeds
    (["gleu", *N, "-o", "hyp", "--seed", "-1"], "--seed"),
    (["gleu", *N, "-o", "hyp", "hyp2", "--paired-bs", "--seed", "-1"], "--seed"),
    (["green", *N, "-c", "hyp", "hyp2", "--paired-bs", "--seed", "-1"], "--seed"),
    (["compare", *N, "-o", "hyp", "--metrics", "gleu:seed=-1"], "--seed"),
    (["rank", "--judgments", "toy.xml", "--seed", "-1"], "--seed"),
    ([*META_ARGS, "--bootstrap", "10", "--seed", "-1"], "--seed"),
    # 9: counts with an upper bound
    (["gleu", *N, "-o", "hyp", "-n", "2147483648"], "-n"), (["green", *N, "-c", "hyp", "-n", "33"], "-n"),
    (["gleu", *N, "-o", "hyp", "-i", "100000000"], "-i/--iter"),
    (["gleu", *N, "-o", "hyp", "hyp2", "--paired-bs", "2147483648"], "--paired-bs"),
    (["green", *N, "-c", "hyp", "hyp2", "--paired-ar", "1000001"], "--paired-ar"),
    (["rank", "--judgments", "toy.xml", "--bootstrap", "2147483648"], "--bootstrap"),
    (["rank", "--judgments", "toy.xml", "--ranking", "ts", "--bootstrap", "100000"], "--bootstrap"),
    ([*META_ARGS, "--bootstrap", "2147483648"], "--bootstrap"),
    (["gleu", *N, "-o", "hyp", "--chunk-lines", "99999999999999999999"], "--chunk-lines"),
    # 10: huge annotator ids and src-ids
    *[([*command, name], f"{name}:2") for name in ("ann32.m2", "ann64.m2")
      for command in (["m2", "score", "-o", "hyp", "-s"], ["compare", *N, "-o", "hyp", "--m2"])],
    (["m2", "compare", "-hyp", "ann32.m2", "-ref", "gold.m2"], "ann32.m2:2"),
    (["m2", "compare", "-hyp", "gold.m2", "-ref", "ann64.m2"], "ann64.m2:2"),
    (["rank", "--judgments", "bigsrc.xml"], "bigsrc.xml:2"), (["rank", "--judgments", "bigrank.xml"], "bigrank.xml:2"),
    # 17: the file, not "hypothesis"
    (["cleme", "-ref", "gold.m2", "-hyp", "gold.m2", "overlap.m2"], "overlap.m2:3"),
    # 18: names and attribute values of judgments
    (["rank", "--judgments", "bigattr.xml"], "bigattr.xml:2"), (["rank", "--judgments", "longname.xml"], "longname.xml:2"),
    # 19: more than 100 reference files need --many-files
    (["m2", "refs", "many.m2", "-o", "refs_out"], "--many-files"),
]


def test_bad_input_is_one_line_naming_the_file_or_flag(folder: Path) -> None:
    before = _contents(folder)
    with ThreadPoolExecutor(2) as pool:
        done = list(pool.map(lambda case: _run(folder, case[0]), BAD))
    for (args, named), result in zip(BAD, done):
        where = " ".join(args)[:200]
        assert result.returncode == 2, (where, result.stdout[:300], result.stderr[-2000:])
        assert result.stdout == "", where
        assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith("gecmetric: error: "), \
            (where, result.stderr[-2000:])
        assert named in result.stderr, (where, named, result.stderr)
        if ":" in named and named.split(":")[1].isdigit():
            assert result.stderr.startswith(f"gecmetric: error: {named}: "), (where, result.stderr)
    assert _contents(folder) == before
    assert not (folder / "refs_out").exists() and not (folder / "p.m2").exists()


def test_many_reference_files_are_written_when_asked(folder: Path, tmp_path: Path) -> None:
    result = _run(folder, ["m2", "refs", "many.m2", "-o", str(tmp_path / "refs"), "--many-files"])
    assert result.returncode == 0, result.stderr
    assert len(list((tmp_path / "refs").iterdir())) == 3001


def test_the_largest_values_still_work(folder: Path) -> None:
    """The bounds refuse what no real use reaches, not what it does."""
    for args in (["gleu", *N, "-o", "hyp", "-n", "32"], ["gleu", *N, "-o", "hyp", "--seed", "0", "-i", "100000"],
                 ["gleu", *N, "-o", "hyp", "--seed", str(2**64 - 1)],
                 [*GLEU0, "-l", "0", "-l", "1e100"], ["cleme", "--cleme2", "--factors", "1/0/0/0", "-ref", "gold.m2",
                                                      "-hyp", "gold.m2"],
                 ["m2", "compare", "-hyp", "gold.m2", "-ref", "gold.m2"],
                 [*META_ARGS, "--level", "sentence", "--src-ids", "0"]):
        result = _run(folder, args)
        assert result.returncode == 0, (args, result.stderr)
        assert "nan" not in result.stdout and "Traceback" not in result.stderr


def test_a_long_line_with_many_unchanged_words_is_scored(folder: Path, tmp_path: Path) -> None:
    """m2 score --max-unchanged-words 1000 with a 100,000-token line: the bound is cut to the
    sentence's length (no edit can hold more unchanged words), so the search stays small (it
    asked for 4.7 GB, an ArrayMemoryError on a smaller machine)."""
    (tmp_path / "gold.m2").write_text("S what is genetic risk ?\nA 0 1|||R:X|||x|||REQUIRED|||-NONE-|||0\n\n",
                                      encoding="utf-8")
    rng = np.random.default_rng(1)
    words = np.array("the cat sat on a mat .".split())
    (tmp_path / "long").write_text(" ".join(words[rng.integers(0, len(words), 100_000)]) + "\n", encoding="utf-8")
    result = _run(tmp_path, ["m2", "score", "-s", "gold.m2", "-o", "long", "--max-unchanged-words", "1000"])
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[1] == "long\t0.00\t0.00\t0.00"  # x100, 2 decimals (the one scale rule)


# ---------------------------------------------------------------------------- the Python API


def test_lambda_seeds_and_counts_through_the_api() -> None:
    from gecmetrics.metrics.gleu.gleu import GLEU
    from gecmetrics.metrics.gleu.gleu2015 import GLEU2015
    from gecmetrics.metrics.green.green import GREEN

    for value in (math.inf, -math.inf, math.nan, -1, "1e309", -1e300, 1e300):
        with pytest.raises(InputError, match="lambda_"):
            GLEU2015(lambda_=value)
    assert GLEU2015(lambda_=1e100).lambda_ == 1e100  # MAX_LAMBDA
    for bad in ({"seed": -1}, {"seed": 2**64}, {"seed": "x"}, {"n": 2**31}, {"n": 33}, {"iterations": 10**8}):
        with pytest.raises(InputError, match="must be|setting"):
            GLEU(**bad)
    with pytest.raises(InputError, match="-n"):
        GREEN(n=1000)
    assert GLEU(seed=2**64 - 1, n=32, iterations=100_000).seed == 2**64 - 1


def test_count_settings_refuse_booleans_floats_and_zero_alike() -> None:
    """The library's integer counts go through one check (``core.checks.check_count``): a bool,
    a float or a number below the bound is one InputError naming the setting (SpacyModel and
    group_hypotheses took True as 1, and other modules had their own wordings)."""
    from gecmetrics.core.lang.en.parse import SpacyModel
    from gecmetrics.core.models.inference import check_max_length
    from gecmetrics.core.models.tiny_gpt2 import CausalLMShape
    from gecmetrics.metrics.llm.prompts import group_hypotheses
    from gecmetrics.stats.attribution import attribute_corpus_methods

    cases = [(lambda v: SpacyModel(batch_size=v), "batch size"),
             (lambda v: group_hypotheses(["a"], max_targets=v), "max_targets"),
             (lambda v: check_max_length(v), "max_length"),
             (lambda v: CausalLMShape(layers=v).check(), "tiny causal LM: layers"),
             (lambda v: attribute_corpus_methods(["a"], [[]], lambda rows, texts: [0.0] * len(texts),
                                                 permutations=v), "permutations")]
    for make, name in cases:
        for value in (True, 1.0, 0, -3, "2"):
            with pytest.raises(InputError, match=f"^{name} must be an integer"):
                make(value)
    assert SpacyModel(batch_size=np.int64(3)).batch_size == 3
    with pytest.raises(InputError, match="max_exact_edits must be at most 20 \\(MAX_EXACT_EDITS_LIMIT\\), got 21"):
        attribute_corpus_methods(["a"], [[]], lambda rows, texts: [0.0] * len(texts), max_exact_edits=21)


def test_paired_tests_check_their_seed_and_sizes_before_drawing() -> None:
    from gecmetrics.metrics.gleu.gleu import GLEU
    from gecmetrics.run.compare import paired_test
    from gecmetrics.stats import significance

    sources, references = ["a b c d e", "f g h i j"], [["x b c d e", "f g h i k"]]
    systems = {"base": sources, "other": references[0]}
    for options, message in (({"seed": -1}, "seed"), ({"samples": 2**31}, "MAX_PAIRED_SAMPLES"),
                             ({"samples": 0}, ">= 1"), ({"method": "ar", "samples": 10**7}, "--paired-ar"),
                             ({"method": "ar", "confidence_samples": 10**7}, "interval")):
        with pytest.raises(InputError, match=message):
            paired_test(GLEU(best_reference=True), sources, references, systems, **options)
    resampler = GLEU(best_reference=True).resampler(0, 1)
    rows = {"base": np.ones((300, 1, 18), dtype=np.int64), "other": np.ones((300, 1, 18), dtype=np.int64)}
    with pytest.raises(InputError, match="MAX_RESAMPLED_SENTENCES"):
        significance.paired_test_from_statistics(resampler, rows, "bs", 1_000_000)
    assert paired_test(GLEU(best_reference=True), sources, references, systems, samples=10).systems[1].p_value is not None
    # the metric as compare takes it: an object or one registered name; anything else was an AttributeError
    for metric, message in ((None, "not a metric: None"), (5, "not a metric: 5"), ("bleu", "unknown metric"),
                            ("gleu,green", "one metric")):
        with pytest.raises(InputError, match=message):
            paired_test(metric, sources, references, systems, samples=10)
    assert paired_test("gleu-max", sources, references, systems, samples=10).metric == "GLEU+"


def test_rankings_and_meta_evaluation_check_seeds_resamples_and_src_ids(tmp_path: Path) -> None:
    from gecmetrics.io.judgments import parse_judgments
    from gecmetrics.meta.resampling import Resampling, judgment_resamples
    from gecmetrics.meta.evaluate import JudgmentOptions, item_rows
    from gecmetrics.meta.sentence import rows_of_src_ids
    from gecmetrics.stats.rankings import expected_wins, trueskill_scores

    judgments = parse_judgments(TOY_XML.encode(), "toy.xml")
    for call, message in ((lambda: expected_wins(judgments, seed=-1), "--seed"),
                          (lambda: expected_wins(judgments, resamples=2**31), "MAX_RESAMPLES"),
                          (lambda: expected_wins(judgments, "bootstrap-mean", resamples=0), ">= 1"),
                          (lambda: trueskill_scores(judgments, runs=10**5), "MAX_TS_RUNS"),
                          (lambda: judgment_resamples(judgments, "pair", 10, -1), "--seed"),
                          (lambda: Resampling(resamples=2**31), "MAX_RESAMPLES"),
                          (lambda: JudgmentOptions(seed=-1), "--seed"),
                          (lambda: JudgmentOptions(bootstrap=2**31), "--bootstrap"),
                          (lambda: item_rows(judgments, 10**20), "MAX_SRC_ID"),
                          (lambda: item_rows(judgments, [0, 0, 2, 3, 4, 5]), "corpus line 2: src-id 0 is given twice"),
                          (lambda: item_rows(judgments, [0, 1, 2, 3, 4, 9]), "src-id 9 is not the src-id of any ranking item"),
                          (lambda: item_rows(judgments, [0, 1, 2, 3, 4, -5]), ">= 0"),
                          (lambda: rows_of_src_ids(judgments, [0, 0, 1, 2, 3, 4, 5]), "given twice")):
        with pytest.raises(InputError, match=message):
            call()
    assert expected_wins(judgments, seed=2**64 - 1, resamples=10).resamples == 10
    assert item_rows(judgments, [5, 4, 3, 2, 1, 0]).tolist() == [5, 4, 3, 2, 1, 0]
    (tmp_path / "ids").write_text("0\n1\n1\n", encoding="utf-8")
    with pytest.raises(InputError, match="given twice") as caught:
        item_rows(judgments, str(tmp_path / "ids"))
    assert caught.value.path == str(tmp_path / "ids") and caught.value.line == 3


def test_judgments_bound_their_names_values_and_numbers() -> None:
    from gecmetrics.io.judgments import MAX_ATTRIBUTE_CHARS, parse_judgments, read_judgments

    for text, message in ((TOY_XML.replace('user="u"', 'user="' + "x" * (MAX_ATTRIBUTE_CHARS + 1) + '"'),
                           "MAX_ATTRIBUTE_CHARS"),
                          (TOY_XML.replace('system="bad"', 'system="' + "b" * 257 + '"'), "MAX_NAME_CHARS"),
                          (TOY_XML.replace("<results>", "<" + "r" * 257 + ">").replace("</results>", "</" + "r" * 257 + ">"),
                           "MAX_NAME_CHARS"),
                          (TOY_XML.replace('src-id="3"', 'src-id="2147483648"'), "MAX_SRC_ID"),
                          (TOY_XML.replace('rank="4"', 'rank="1000001"', 1), "MAX_RANK")):
        with pytest.raises(InputError, match=message) as caught:
            parse_judgments(text.encode(), "j.xml")
        assert caught.value.path == "j.xml" and caught.value.line is not None
    with pytest.raises(InputError, match="NUL byte") as caught:
        parse_judgments(TOY_XML.encode().replace(b"</results>", b"\x00</results>"), "j.xml")
    assert caught.value.line == 8
    utf16 = parse_judgments(TOY_XML.encode("utf-16"), "j16.xml")  # UTF-16 with its byte-order mark is XML
    assert len(utf16.items) == 6
    for path in (None, 3, ["j.xml"]):
        with pytest.raises(InputError, match="path"):
            read_judgments(path)  # type: ignore[arg-type]


def test_readers_refuse_nul_bytes_and_non_paths(tmp_path: Path) -> None:
    from gecmetrics.io.m2 import parse_m2, read_m2
    from gecmetrics.io.para import parse_para, read_para
    from gecmetrics.io.text import decode_lines, read_lines

    with pytest.raises(InputError, match="NUL byte") as caught:
        decode_lines(b"a\nb\nc\x00\n", "f.txt", first_line=10)
    assert (caught.value.path, caught.value.line) == ("f.txt", 12)
    with pytest.raises(InputError, match="UTF-16"):
        decode_lines("a b c\n".encode("utf-16-le"), "u.txt")
    with pytest.raises(InputError, match="NUL byte") as caught:
        parse_para("1\ta\tb\n2\tc\x00\td\n", "p.para")
    assert caught.value.line == 2
    (tmp_path / "p.para").write_bytes(b"1\ta\tb\n2\tc\x00\td\n")
    with pytest.raises(InputError, match="NUL byte"):
        read_para(tmp_path / "p.para")
    for reader in (read_m2, read_lines, read_para):
        for path in (None, 7, ["S a b"]):
            with pytest.raises(InputError, match="path"):
                reader(path)  # type: ignore[arg-type]
    for annotator in ("4294967296", "9223372036854775808"):
        with pytest.raises(InputError, match="MAX_ANNOTATOR_ID") as caught:
            parse_m2(_annotators(annotator), "a.m2")
        assert caught.value.line == 2
    assert parse_m2(_annotators(str(2**31 - 1)), "a.m2")[0].edits[0].annotator == 2**31 - 1


def test_read_corpus_takes_lists_of_paths_not_one_string(tmp_path: Path, monkeypatch) -> None:
    """A path given where a list of paths is expected was read a character at a time: 'ref0'
    as the files r, e, f, 0 (and scored, when such files existed)."""
    from gecmetrics import read_corpus

    monkeypatch.chdir(tmp_path)
    for name in ("src", "ref0", "r", "e", "f", "0"):
        (tmp_path / name).write_text("a b c\n", encoding="utf-8")
    for arguments, name in ((("src", "ref0"), "references"), (("src", ["ref0"], "ref0"), "hypotheses"),
                            (("src", ["ref0"], ["ref0"], None, "ref0"), "hypothesis_m2"),
                            (("src", None), "references"), (("src", ["ref0"], [None]), "path")):
        with pytest.raises(InputError, match=name):
            read_corpus(*arguments)
    assert read_corpus("src", ["ref0"], [tmp_path / "r"]).references == [["a b c"]]
    # a whole text given as the references: one line of readable length, not the text again
    with pytest.raises(InputError) as caught:
        read_corpus("src", "a b c\n" * 10_000, ["ref0"])
    assert len(str(caught.value)) < 160 and str(caught.value).endswith("...")
    from gecmetrics.core.checks import check_count

    with pytest.raises(InputError, match=r"got \[0, 1, 2.*\.\.\.$"):
        check_count(list(range(100_000)), "n")


def test_hypothesis_and_reference_m2_must_be_the_same_sentences() -> None:
    from gecmetrics import compare
    from gecmetrics.io.m2 import parse_m2
    from gecmetrics.metrics.cleme.metric import CLEME
    from gecmetrics.metrics.m2.cherrant import CherrantCompare
    from gecmetrics.metrics.m2.compare import ErrantCompare

    gold, reversed_ = parse_m2(GOLD, "gold.m2"), parse_m2(REVERSED, "reversed.m2")
    for comparer in (ErrantCompare(), CherrantCompare()):
        with pytest.raises(InputError, match="the same sentences in the same order") as caught:
            comparer.compare(reversed_, gold, "reversed.m2", "gold.m2")
        assert (caught.value.path, caught.value.line) == ("reversed.m2", 1)
        assert comparer.compare(gold, gold, "gold.m2", "gold.m2").score == 1.0
        # the same tokens with other spaces between them are the same sentence
        spaced = parse_m2(GOLD.replace("S a b c d e", "S a  b c\td e "), "spaced.m2")
        assert comparer.compare(spaced, gold, "spaced.m2", "gold.m2").score == 1.0
    sources = SOURCE.split("\n")[:2]
    for metric in ("senterrant", CLEME()):
        with pytest.raises(InputError, match="differs") as caught:
            compare(sources, [], {"mine.m2": reversed_}, [metric], m2_blocks=gold)
        assert caught.value.path == "mine.m2" and caught.value.line == 1


def test_metric_messages_name_the_hypothesis_not_a_placeholder() -> None:
    from gecmetrics import compare
    from gecmetrics.io.m2 import parse_m2

    gold = parse_m2(GOLD, "gold.m2")
    overlapping = parse_m2(FILES["overlap.m2"], "overlap.m2")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="not overlapping") as caught:
        compare(None, [], {"gold.m2": gold, "overlap.m2": overlapping}, ["cleme"], m2_blocks=gold)
    assert (caught.value.path, caught.value.line) == ("overlap.m2", 3)


def test_compare_names_the_systems_of_a_list() -> None:
    from gecmetrics import compare

    sources, references = ["a b c", "d e f", "g h i"], [["a b c", "d e f", "g h x"]]
    hypothesis = ["a b c", "d e f", "g h x"]
    table = compare(sources, references, [hypothesis], ["gleu"])
    assert [row.system for row in table.rows] == ["system 0"]
    with pytest.raises(InputError, match="system 0: expected a list of lines"):
        compare(sources, references, hypothesis, ["gleu"])
    with pytest.raises(InputError, match="system 0: has 2 lines"):
        compare(sources, references, [hypothesis[:2]], ["gleu"])
    with pytest.raises(InputError, match="mapping of names"):
        compare(sources, references, "a b c", ["gleu"])


def test_cleme2_factors_are_weights() -> None:
    from gecmetrics.metrics.cleme.metric import CLEME2

    for factors in ("-1/2/0/0", "", "  ", "0/0/0/0", "inf/0/0/0", (0.5, 0.5, 0.5, -0.5)):
        with pytest.raises(InputError, match="factors"):
            CLEME2(factors=factors)
    assert CLEME2(factors="1/0/0/0").factors.hit == 1.0 and CLEME2(factors="default").factors is None


def test_reference_files_are_bounded_unless_asked(tmp_path: Path) -> None:
    from gecmetrics.io.m2 import parse_m2
    from gecmetrics.io.m2_references import m2_references, write_references

    result = m2_references(parse_m2(_many_annotators(101), "many.m2"))
    with pytest.raises(InputError, match="many_files=True"):
        write_references(result, str(tmp_path / "refs"))
    assert not (tmp_path / "refs").exists()
    assert len(write_references(result, str(tmp_path / "refs"), many_files=True)) == 102
    assert len(write_references(m2_references(parse_m2(_many_annotators(100), "m.m2")), prefix=str(tmp_path / "p"))) == 101


def test_chunk_size_is_bounded() -> None:
    from gecmetrics.run.reading import MAX_CHUNK_LINES, chunk_size

    for value in (0, 10**20, MAX_CHUNK_LINES + 1, 2.0, True):
        with pytest.raises(InputError, match="chunk"):
            chunk_size(value)
    assert chunk_size(MAX_CHUNK_LINES) == MAX_CHUNK_LINES


def test_compact_search_states_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    from gecmetrics.core.edits.lattice import AlignmentTooLarge, CompactLattice, build, build_lattice

    source, hypothesis = "a b c d".split(), ("x y " * 300).split()
    lattice = build_lattice(source, hypothesis, max_unchanged_words=1000)
    assert isinstance(lattice, CompactLattice) and lattice.max_unchanged_words == len(source)
    monkeypatch.setattr(build, "MAX_OPEN_STATES", 100)
    with pytest.raises(AlignmentTooLarge, match="MAX_OPEN_STATES"):
        build_lattice(source, hypothesis, max_unchanged_words=1000)


# ---------------------------------------------------------------------------- ERRANT's long lines


def test_long_line_annotation_gives_errants_edits(spacy_model, monkeypatch: pytest.MonkeyPatch) -> None:
    """A 300-token garbage line against a 14-token sentence, parsed by spaCy: the merge gives the
    edits of ERRANT's own loop (which is cubic: 0.7 s here, minutes at 1,000 tokens), and a
    100,000-operation run merges within its work bound."""
    from gecmetrics.core.lang.en import merge
    from gecmetrics.metrics.errant import Annotator

    annotator = Annotator(spacy_model)
    rng = np.random.default_rng(14)
    words = np.array("the cat sat on a mat .".split())
    source = "Genetic risk refers more to your chance of inheriting a disorder or disease ."
    orig, cor = annotator.parse([source, " ".join(words[rng.integers(0, len(words), 300)])])
    fast = annotator.edits(orig, cor)

    class Reference:
        def __init__(self, run, orig, cor):
            self.arguments = (run, orig, cor)

        def spans(self):
            return merge._reference_process(*self.arguments)

    monkeypatch.setattr(merge, "_RunMerger", Reference)
    assert annotator.edits(orig, cor) == fast and len(fast) > 1


def test_too_long_to_align_or_merge_is_one_error(spacy_model, monkeypatch: pytest.MonkeyPatch) -> None:
    from gecmetrics.core.lang.en import align, merge
    from gecmetrics.metrics.errant import Annotator

    annotator = Annotator(spacy_model)
    orig, cor = annotator.parse(["one two three four", " ".join(["the cat"] * 50)])
    monkeypatch.setattr(align, "MAX_ALIGNMENT_CELLS", 100)
    with pytest.raises(InputError, match=r"'the cat the cat the cat \.\.\.' \(100 tokens\).*MAX_ALIGNMENT_CELLS"):
        annotator.edits(orig, cor)
    monkeypatch.setattr(align, "MAX_ALIGNMENT_CELLS", 10**6)
    monkeypatch.setattr(merge, "MAX_MERGE_WORK", 0)
    with pytest.raises(InputError, match="MAX_MERGE_WORK"):
        annotator.edits(orig, cor)



def test_a_line_too_long_to_align_names_its_file_and_line(spacy_model, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The bound's refusal of one sentence pair says where the hypothesis line is: ERRANT's
    alignment (m2 annotate, errant) and the MaxMatch lattice (m2 score), as ChERRANT's does."""
    from gecmetrics.core.edits.lattice import build
    from gecmetrics.core.lang.en import align

    long = " ".join(["xq"] * 300)
    (tmp_path / "src").write_text("five six\nseven eight\none two three four\n", encoding="utf-8")
    (tmp_path / "hyp").write_text(f"five six\nseven eight\n{long}\n", encoding="utf-8")
    (tmp_path / "gold.m2").write_text("S five six\nA 0 1|||R:X|||5|||REQUIRED|||-NONE-|||0\n\n"
                                      "S seven eight\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n"
                                      "S one two three four\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n",
                                      encoding="utf-8")
    src, hyp, gold = (str(tmp_path / name) for name in ("src", "hyp", "gold.m2"))
    spacy = ["--spacy-model", SPACY_TEST_MODEL]
    monkeypatch.setattr(align, "MAX_ALIGNMENT_CELLS", 100)
    for args in (["m2", "annotate", "-orig", src, "-cor", hyp, *spacy],
                 ["errant", "-s", src, "-r", gold, "-o", hyp, *spacy],
                 ["errant", "-s", src, "-r", src, "--annotate-refs", "-o", src, "-r", hyp, *spacy]):
        assert f"{hyp}:3: source 'one two three four' (4 tokens) and correction 'xq xq xq" in one_line_error(*args)
    monkeypatch.setattr(build, "MAX_OPEN_STATES", 10)
    assert f"{hyp}:3: a 300-token hypothesis against a 4-token sentence" in one_line_error(
        "m2", "score", "-s", gold, "-o", hyp)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__, "-q"]))
