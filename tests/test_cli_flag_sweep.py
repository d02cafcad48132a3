"""What a sweep of the commands' flags (2026-12-04) found: flags dropped without a word, a
report that found its output folder missing only after all its work, messages that did not
name their flag, and GoToScorer weights below 0 that put P/R/F outside 0-100 silently."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import one_line_error, run_cli

REFERENCE = ("S a b c d\nA 1 2|||R:NOUN|||x|||REQUIRED|||-NONE-|||0\nA 3 4|||R:VERB|||y|||REQUIRED|||-NONE-|||0\n\n")
SYSTEM_1 = "S a b c d\nA 1 2|||R:NOUN|||x|||REQUIRED|||-NONE-|||0\n\n"
SYSTEM_2 = "S a b c d\nA 0 1|||R:DET|||z|||REQUIRED|||-NONE-|||0\n\n"


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    texts = {"ref.m2": REFERENCE, "s1.m2": SYSTEM_1, "s2.m2": SYSTEM_2, "src": "a b c d\n", "h1": "a x c d\n",
             "h2": "z b c d\n"}
    for name, text in texts.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return {name: str(tmp_path / name) for name in texts}


def test_report_refuses_a_missing_folder_before_the_work(files, tmp_path):
    """The page's folder was found missing once everything was scored (minutes at 10^5 lines),
    after the run's own warnings: now the one line, first, naming the flag."""
    base = ["report", "-s", files["src"], "-r", files["h1"], "-o", files["h1"], "--samples", "20"]
    err = one_line_error(*base, "--html", str(tmp_path / "no" / "page.html"))
    assert err.startswith("gecmetric: error: --html: ") and err.rstrip().endswith("the folder does not exist"), err
    err = one_line_error(*base, "--json", str(tmp_path / "no" / "data.json"))
    assert err.startswith("gecmetric: error: --json: "), err


def test_report_attribute_none_refuses_the_attributions_options(files, tmp_path):
    base = ["report", "-s", files["src"], "-r", files["h1"], "-o", files["h1"], "--html", str(tmp_path / "p.html"),
            "--attribute", "none"]
    for flags in (["--methods", "shapley"], ["--permutations", "5"], ["--max-exact-edits", "3"]):
        err = one_line_error(*base, *flags)
        assert f"{flags[0]} sets the edit attribution, which --attribute none leaves out" in err, err
    assert not (tmp_path / "p.html").exists()


def test_m2_compare_verbose_is_not_dropped_by_sentence(files):
    """-v with --sentence printed the sentence table alone, the trace dropped without a word (as
    m2 score refuses it)."""
    err = one_line_error("m2", "compare", "-hyp", files["s1.m2"], "-ref", files["ref.m2"], "-v", "--sentence")
    assert err.startswith("gecmetric: error: -v: prints ERRANT's trace of the corpus comparison: not with --sentence")
    code, out, err = run_cli("m2", "compare", "-hyp", files["s1.m2"], "-ref", files["ref.m2"], "--sentence")
    assert code == 0 and out.startswith("sentence\t"), err


def test_gotoscorer_weights_below_zero_are_said(files):
    """-a 0.4 on two systems weighs a chunk one system got right -0.1: the original's numbers
    (F0.5 500.00, kept digit for digit), now with one warning line, from the command and from
    compare alike; the default weights and -no_weight say nothing."""
    hyps = [files["s1.m2"], files["s2.m2"]]
    code, out, err = run_cli("gotoscorer", "-ref", files["ref.m2"], "-hyp", *hyps, "-a", "0.4")
    assert code == 0 and "500.00" in out, (out, err)
    warning = ("gecmetric: warning: GoToScorer: weight parameters a = 0.4, b = 0, c = 0 give the chunks that 1 of 2 "
               "systems got right the weight -0.1: with a weight below 0")
    assert err.startswith(warning) and len(err.splitlines()) == 1, err
    code, out, err = run_cli("compare", "-s", files["src"], "-o", files["h1"], files["h2"], "--m2", files["ref.m2"],
                             "--hyp-m2", *hyps, "--metrics", "gotoscorer:a=0.4")
    assert code == 0 and "500.00" in out and err.startswith(warning), (out, err)
    for flags in ([], ["-no_weight"], ["-a", "1", "-b", "0.5", "-c", "1"]):  # (-no_weight -a: refused, changes nothing)
        code, out, err = run_cli("gotoscorer", "-ref", files["ref.m2"], "-hyp", *hyps, *flags)
        assert code == 0 and err == "", (flags, err)


def test_gotoscorer_weights_that_count_no_correct_chunk_are_said(files):
    """One system without a weight file: every chunk it gets right weighs 1 - 1/1 = 0, so P, R
    and F were 0 whatever the system, without a word; now one warning line (the numbers stay the
    original's). Two systems with the defaults say nothing."""
    code, out, err = run_cli("gotoscorer", "-ref", files["ref.m2"], "-hyp", files["s1.m2"])
    assert code == 0 and out.splitlines()[1].split("\t")[1:4] == ["0.00", "0.00", "0.00"], out
    assert err.startswith("gecmetric: warning: GoToScorer: weight parameters a = 1, b = 0, c = 0 on 1 system give "
                          "every chunk a system got right the weight 0") and len(err.splitlines()) == 1, err
    code, out, err = run_cli("gotoscorer", "-ref", files["ref.m2"], "-hyp", files["s1.m2"], "-no_weight")
    assert code == 0 and err == "", err
    code, out, err = run_cli("gotoscorer", "-ref", files["ref.m2"], "-hyp", files["s1.m2"], "-c", "1")
    assert code == 0 and err == "", err  # 1 - 1/2: a correct chunk counts


def test_messages_name_their_flags(files, tmp_path):
    """cleme's -b, attribute's --seed and --column said 'setting beta', 'seed', 'beta'."""
    for value, why in (("-1", "must be a number >= 0 or inf"), ("nan", "must be a number, not nan")):
        err = one_line_error("cleme", "-hyp", files["s1.m2"], "-ref", files["ref.m2"], "-b", value)
        assert f"setting beta (-b/--beta) {why}" in err, err
    (tmp_path / "s").write_text("a b\n", encoding="utf-8")
    (tmp_path / "h").write_text("a c\n", encoding="utf-8")
    base = ["attribute", "-s", str(tmp_path / "s"), "-r", str(tmp_path / "s"), "-o", str(tmp_path / "h")]
    err = one_line_error(*base, "--metric", "green", "--column", "nan")
    assert err.startswith("gecmetric: error: --column: metric green has no column 'nan': not an index"), err
    err = one_line_error(*base, "--metric", "gleu", "--seed", "-1")
    assert "'--seed'" in err, err


def test_m2_annotate_refuses_a_correction_holding_the_field_separator(spacy_model, tmp_path):
    """errant_parallel writes the edit of a correction '|||' as a 7-field line that no M2 reader
    splits back (compare_m2 reads it as an empty correction, ours refuses the file): the line is
    refused where it is read, before an output is written."""
    from tests.conftest import SPACY_TEST_MODEL

    source, hypothesis, out = tmp_path / "src.txt", tmp_path / "hyp.txt", tmp_path / "hyp.m2"
    source.write_text("He go home .\nThis is a test .\n")
    hypothesis.write_text("He goes home .\nThis is a ||| test .\n")
    err = one_line_error("m2", "annotate", "--spacy-model", SPACY_TEST_MODEL, "-orig", str(source),
                         "-cor", str(hypothesis), "-out", str(out))
    assert f"{hypothesis}:2:" in err and "'|||'" in err
    assert not out.exists()
    hypothesis.write_text("He goes home .\nThis is a | test .\n")  # '|' alone is written as errant_parallel does
    code, _, err = run_cli("m2", "annotate", "--spacy-model", SPACY_TEST_MODEL, "-orig", str(source),
                           "-cor", str(hypothesis), "-out", str(out))
    assert code == 0, err
    assert out.read_text().endswith("S This is a test .\nA 3 3|||M:NOUN|||||||REQUIRED|||-NONE-|||0\n\n")


def test_json_help_says_what_the_command_prints(tmp_path):
    """compare, demo, rank and meta-eval print one JSON object, not the scoring commands' object
    per system and metric that the shared --json help described: each says its own keys."""
    import json

    from tests.conftest import SHARED_DATA

    scores, human = tmp_path / "scores.tsv", tmp_path / "human.tsv"
    scores.write_text("system\tm\nA\t1\nB\t2\nC\t3\nD\t4\nE\t5\n", encoding="utf-8")
    human.write_text("system\th\nA\t1\nB\t3\nC\t2\nD\t4\nE\t5\n", encoding="utf-8")
    runs = {"demo": ["demo"], "meta-eval": ["meta-eval", "--scores", str(scores), "--human", str(human)]}
    judgments = SHARED_DATA / "human" / "judgments" / "gjg15.xml"
    if judgments.is_file():
        runs["rank"] = ["rank", "--judgments", str(judgments), "--bootstrap", "10"]
    named = {"demo": ("columns", "rows", "metrics"), "rank": ("systems", "clusters"),
             "meta-eval": ("correlations", "systems", "scores", "notes", "warnings", "signatures")}
    for command, args in runs.items():
        code, out, err = run_cli(*args, "--json")
        assert code == 0, err
        printed = json.loads(out)
        code, shown, _ = run_cli(command, "--help")
        help_text = " ".join(shown.split())
        assert "per system and metric: system, scores, labels" not in help_text, command
        for key in named[command]:
            assert key in printed and key in help_text.split("--json", 1)[1].split("--tsv", 1)[0], (command, key)
    code, shown, _ = run_cli("compare", "--help")
    assert "columns (label, metric, signature), rows (system, scores, ranks)" in " ".join(shown.split())


def test_gleu0_lambda_has_a_bound(files):
    """-l 1e308 overflowed lambda x count to inf: NumPy's warning on stderr beside a score."""
    from gecmetrics import InputError, get_metric

    args = ["gleu0", "-s", files["src"], "-r", files["h2"], "-o", files["h1"]]
    err = one_line_error(*args, "-l", "1e308")
    assert "-l/--lambda must be at most 1e+100" in err
    code, out, err = run_cli(*args, "-l", "1e100")
    assert code == 0 and err == "", err
    with pytest.raises(InputError, match="MAX_LAMBDA"):
        get_metric("gleu0", lambda_=1e101)


def test_per_type_figures_are_not_sentence_scores(files):
    """m2 compare -cat 2 --sentence printed the sentence table without a word about -cat, and
    --macro --sentence (m2 compare, errant) ended in a message about the metric's attributes."""
    base = ["m2", "compare", "-hyp", files["s1.m2"], "-ref", files["ref.m2"], "--sentence"]
    for extra in (["-cat", "2"], ["--macro"], ["--f_average", "macro"]):
        assert "-cat and --macro print corpus figures per error type: not with --sentence" in \
            one_line_error(*base, *extra)
    code, out, err = run_cli(*base)
    assert code == 0, err


def test_streamed_sentence_scores_check_line_counts_before_the_first_line(tmp_path):
    """--sentence printed every chunk before the short file's end, then the error: a table cut
    short on stdout beside exit code 2. The counts are now compared before the first chunk."""
    lines = [f"w{k} x{k} y{k} ." for k in range(30)]
    (tmp_path / "src").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "short").write_text("\n".join(lines[:29]) + "\n", encoding="utf-8")
    gold = "".join(f"S {line}\nA 0 1|||R:X|||z|||REQUIRED|||-NONE-|||0\n\n" for line in lines)
    (tmp_path / "gold.m2").write_text(gold, encoding="utf-8")
    err = one_line_error("gleu", "-s", str(tmp_path / "src"), "-r", str(tmp_path / "src"), "-o", str(tmp_path / "short"),
                         "--sentence", "--chunk-lines", "5")
    assert f"{tmp_path / 'short'}: has 29 lines but the source {tmp_path / 'src'} has 30" in err
    err = one_line_error("m2", "score", "-s", str(tmp_path / "gold.m2"), "-o", str(tmp_path / "short"), "--sentence",
                         "--chunk-lines", "5")
    assert f"{tmp_path / 'short'}: has 29 lines but the M2 file {tmp_path / 'gold.m2'} has 30 blocks" in err
    (tmp_path / "bom.m2").write_bytes(b"\xef\xbb\xbf" + gold.encode())  # the reader drops the mark: 30 blocks
    code, out, err = run_cli("m2", "score", "-s", str(tmp_path / "bom.m2"), "-o", str(tmp_path / "src"), "--sentence",
                             "--chunk-lines", "5")
    assert code == 0 and len(out.splitlines()) == 31, err


def test_streamed_sentence_scores_check_the_text_before_the_first_line(tmp_path):
    """A byte that is no UTF-8 (or a NUL) in line 23 of a file: --sentence printed the chunks
    before it, then the error. The count before the first chunk now reads the bytes as the
    reader does, with the reader's error; a multi-byte character split by the count's 1 MB
    pieces is no error."""
    lines = [f"w{k} x{k} y{k} ." for k in range(30)]
    (tmp_path / "src").write_text("\n".join(lines) + "\n", encoding="utf-8")
    gold = "".join(f"S {line}\nA 0 1|||R:X|||z|||REQUIRED|||-NONE-|||0\n\n" for line in lines)
    (tmp_path / "gold.m2").write_text(gold, encoding="utf-8")
    for bad, shown in ((b"\xff", "invalid UTF-8 (byte 0xff)"), (b"\0", "NUL")):
        data = "\n".join(lines).encode() + b"\n"
        (tmp_path / "bad").write_bytes(data.replace(b"w22 ", b"w22" + bad + b" "))
        err = one_line_error("gleu", "-s", str(tmp_path / "src"), "-r", str(tmp_path / "src"), "-o",
                             str(tmp_path / "bad"), "--sentence", "--chunk-lines", "5")
        assert f"{tmp_path / 'bad'}:23: " in err and shown in err, err
        err = one_line_error("m2", "score", "-s", str(tmp_path / "gold.m2"), "-o", str(tmp_path / "bad"),
                             "--sentence", "--chunk-lines", "5")
        assert f"{tmp_path / 'bad'}:23: " in err and shown in err, err
    (tmp_path / "bad.m2").write_bytes(gold.encode().replace(b"S w22", b"S w22\xff"))
    err = one_line_error("m2", "score", "-s", str(tmp_path / "bad.m2"), "-o", str(tmp_path / "src"),
                         "--sentence", "--chunk-lines", "5")
    assert f"{tmp_path / 'bad.m2'}:67: invalid UTF-8" in err, err
    # 1 MB pieces: a two-byte character across the first piece's end, and a last line without a newline
    long_lines = ["é" * 700_000, "a b", "c"]
    for name in ("x", "y"):
        (tmp_path / name).write_text("\n".join(long_lines), encoding="utf-8")
    code, out, err = run_cli("gleu", "-s", str(tmp_path / "x"), "-r", str(tmp_path / "x"), "-o", str(tmp_path / "y"),
                             "--sentence", "-n", "1")
    assert code == 0 and len(out.splitlines()) == 3, err


def test_signature_says_sentence_scores_and_their_mean(files):
    """--signature printed the corpus score's signature beside sentence scores or their mean,
    while --json said sentences:each / sentences:mean."""
    text = ["-s", files["src"], "-r", files["h2"], "-o", files["h1"]]
    for args, field in [(["gleu", *text, "--mean"], "sentences:mean"), (["gleu", *text, "--sentence"], "sentences:each"),
                        (["green", "-s", files["src"], "-r", files["h2"], "-c", files["h1"], "--sentence"],
                         "sentences:each"),
                        (["m2", "score", "-s", files["ref.m2"], "-o", files["h1"], "--sentence"], "sentences:each"),
                        (["m2", "compare", "-hyp", files["s1.m2"], "-ref", files["ref.m2"], "--sentence"],
                         "sentences:each"),
                        (["cleme", "-ref", files["ref.m2"], "-hyp", files["s1.m2"], "--sentence"], "sentences:each"),
                        # compare's sentence scores said the corpus signature (2026-12-04, a check of one shape)
                        (["compare", *text, "--metrics", "gleu", "--sentence"], "sentences:each")]:
        code, _, err = run_cli(*args, "--signature")
        assert code == 0 and f"|{field}|" in err.strip().splitlines()[-1], (args, err)
    for args in (["gleu", *text], ["compare", *text, "--metrics", "gleu"]):
        code, _, err = run_cli(*args, "--signature")
        assert code == 0 and "sentences:" not in err
    import json

    own = json.loads(run_cli("gleu", *text, "--sentence", "--json")[1])
    compared = json.loads(run_cli("compare", *text, "--metrics", "gleu", "--sentence", "--json")[1])
    assert compared[0]["signature"] == own[0]["signature"] and "|sentences:each|" in own[0]["signature"]


def test_flags_that_would_change_nothing_are_refused(files, tmp_path):
    """From a CLI sweep (2026-12-04): each of these printed the same bytes with and without the
    flag, exit code 0."""
    from gecmetrics import InputError, get_metric

    text = ["-s", files["src"], "-r", files["h2"], "-o"]
    scores = tmp_path / "scores.tsv"
    scores.write_text("system\tm\nA\t1\nB\t2\nC\t3\nD\t4\nE\t5\n", encoding="utf-8")
    for args, said in [(["compare", *text, files["h1"], files["src"], "--metrics", "gleu", "--paired-bs", "10",
                         "--ranking", "ew"], "--ranking does not go with"),
                       (["m2", "compare", "-hyp", files["s1.m2"], "-ref", files["ref.m2"], "-d", "1"],
                        "-d sets the numbers of a table"),
                       (["m2", "compare", "-hyp", files["s1.m2"], "-ref", files["ref.m2"], "--scale", "1"],
                        "--scale sets the numbers of a table"),
                       (["meta-eval", "--scores", str(scores), "--human", "gjg15", "--metrics", "gleu"],
                        "--metrics goes with -o system files"),
                       (["m2", "score", "-s", files["ref.m2"], "-o", files["h1"], "--seed", "7"],
                        "--seed is the seed of a paired test's resampling"),
                       (["gleu", *text, files["h1"], "-m", "--seed", "5"], "-m/--max draws no reference")] + [
                       ([command, *text, files["h1"], "--normalize-space"], "it goes with unit char (-t char)")
                       for command in ("gleu", "gleu0", "green")] + [  # (2026-12-05: words are split already)
                       (["compare", *text, files["h1"], "--metrics", "green:normalize_space=true"], "goes with unit char")]:
        assert said in one_line_error(*args), args
    for command in (["gleu", "-t", "char"], ["gleu0", "-t", "char"], ["green", "-t", "char"], ["green-char"]):
        code, out, err = run_cli(*command, *text, files["h1"], "--normalize-space")
        assert code == 0, (command, err)
    with pytest.raises(InputError, match="normalize_space"):
        get_metric("green", normalize_space=True)
    code, out, err = run_cli("m2", "compare", "-hyp", files["s1.m2"], "-ref", files["ref.m2"], "-d", "1", "--tsv")
    assert code == 0 and out.count("\t") > 5, err
    with pytest.raises(InputError, match="best_reference"):
        get_metric("gleu-max", iterations=7)


def test_rank_reads_standard_input_and_says_when_its_ranges_are_rough(shared_data, files):
    """rank --judgments - said '-: No such file or directory' while every other input reads '-';
    --bootstrap 1 gave UFC, 6th, the range '7' without a word; -w_file - could not be read twice."""
    from click.testing import CliRunner

    from gecmetrics.cli import main

    xml = (shared_data / "human" / "judgments" / "gjg15.xml").read_bytes()
    result = CliRunner().invoke(main, ["rank", "--judgments", "-", "--bootstrap", "5"], input=xml)
    assert result.exit_code == 0 and "of <stdin>" in result.stdout, result.stderr
    assert result.stderr.startswith("gecmetric: warning: the rank ranges come from only 5 resamples")
    result = CliRunner().invoke(main, ["rank", "--judgments", "-", "--bootstrap", "40"], input=xml)
    assert result.exit_code == 0 and result.stderr == ""
    err = one_line_error("gotoscorer", "-ref", files["ref.m2"], "-hyp", files["s1.m2"], "-w_file", "-")
    assert "standard input ('-') cannot be read again" in err


def test_cache_clear_namespace_takes_a_producer_and_refuses_what_matches_nothing(tmp_path):
    """--namespace no-such-thing said 'removed 0 entries', exit 0; so did spacy-parse, the start of
    the names `cache info` prints."""
    from gecmetrics.core.cache import Cache

    with Cache(tmp_path / "c") as cache:
        cache.put_many("spacy-parse/1/model-a", {b"k1": b"v1", b"k2": b"v2"})
        cache.put_many("spacy-parse/1/model-b", {b"k3": b"v3"})
        cache.put_many("pt-pairs/1", {b"k4": b"v4"})
    err = one_line_error("--cache", str(tmp_path / "c"), "cache", "clear", "--namespace", "no-such-thing")
    assert "no entries of 'no-such-thing' in the cache (it holds pt-pairs, spacy-parse)" in err
    code, out, err = run_cli("--cache", str(tmp_path / "c"), "cache", "clear", "--namespace", "spacy-parse")
    assert code == 0 and out.startswith("removed 3 entries of spacy-parse"), err
    code, out, _ = run_cli("--cache", str(tmp_path / "c"), "cache", "info", "--json")
    assert code == 0 and list(__import__("json").loads(out)["namespaces"]) == ["pt-pairs/1"]


def test_gotoscorer_names_are_distinct_and_not_empty(files):
    """-name A,A, printed two rows named A (and A, one with no name), exit 0."""
    base = ["gotoscorer", "-ref", files["ref.m2"], "-hyp", files["s1.m2"], files["s2.m2"], "-name"]
    for names in ("A,A", "A,", " ,B"):
        assert "-name gives each system a name of its own" in one_line_error(*base, names)
    code, out, err = run_cli(*base, "A,B")
    assert code == 0 and out.splitlines()[1].startswith("A\t"), err


def test_attribute_refuses_options_its_methods_do_not_read(files, request):
    """--method add with --permutations 5 --seed 3 --over-bound skip --max-exact-edits 0 printed
    the bytes of --method add alone."""
    from tests.conftest import SPACY_TEST_MODEL

    base = ["attribute", "-s", files["src"], "-r", files["h2"], "-o", files["h1"], "--metric", "gleu", "--spacy-model",
            SPACY_TEST_MODEL]
    for method, extra in [("add", ["--permutations", "5"]), ("add", ["--seed", "3"]), ("add", ["--over-bound", "skip"]),
                          ("add", ["--max-exact-edits", "0"]), ("shapley", ["--normalize"]),
                          ("shapley", ["--permutations", "5"])]:
        err = one_line_error(*base, "--method", method, *extra)
        assert f"{extra[0]} does nothing with --method {method}" in err, err
    request.getfixturevalue("spacy_model")  # (the edits are ERRANT's: skipped without its model)
    for method, extra in [("add", ["--normalize"]), ("shapley", ["--over-bound", "sample", "--seed", "4"]),
                          ("sampled-shapley", ["--permutations", "5", "--seed", "1"])]:
        code, out, err = run_cli(*base, "--method", method, *extra)
        assert code == 0, err


@pytest.mark.parametrize("ours, theirs", [
    # GREEN's parser (green -h): its long names of -s, -r, -c, -d and -t
    (["green", "-s", "{src}", "-r", "{h1}", "{h2}", "-c", "{h1}", "{h2}", "-t", "char", "-d", "4", "-b", "2"],
     ["green", "--src", "{src}", "--refs", "{h1}", "{h2}", "--hyps", "{h1}", "{h2}", "--tokenization=char",
      "--digit", "4", "-b", "2"]),
    (["green", "-s", "{src}", "-r", "{h1}", "-o", "{h2}"],
     ["green", "--source", "{src}", "--references", "{h1}", "--corrected-sentences", "{h2}"]),
    # the gleu package's parser (gleu -h)
    (["gleu", "-s", "{src}", "-r", "{h1}", "{h2}", "-o", "{h2}", "-f", "-d", "3", "-p", "1", "-t", "word"],
     ["gleu", "--src", "{src}", "--ref", "{h1}", "{h2}", "--outputs", "{h2}", "--fix", "--digit=3", "--proc", "1",
      "--token", "word"]),
])
def test_the_originals_long_spellings_read_as_ours(files, ours, theirs):
    """GREEN's and the gleu package's own long option names (``--refs``, ``--hyps``, ``--digit``
    ...) were refused as unknown options; they are read as ours, and --help lists them."""
    expected = run_cli(*(arg.format(**files) for arg in ours))
    assert expected[0] == 0 and run_cli(*(arg.format(**files) for arg in theirs)) == expected, expected
    assert "--digit (--digits)" in run_cli(ours[0], "--help")[1]
    if "-d" in ours:
        assert "--digits: is given twice" in one_line_error(*(arg.format(**files) for arg in ours), "--digit", "2")


def test_a_value_spelled_as_an_original_flag_stays_a_value(files, tmp_path, monkeypatch):
    """The value of an option that takes one is not respelled: ``-s --ref`` reads the file
    ``--ref`` (as click reads it; it read ``--reference``, no such file)."""
    (tmp_path / "--ref").write_text("a b c d\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    expected = run_cli("gleu", "-s", files["src"], "-r", files["h1"], "-o", files["h2"])
    assert expected[0] == 0 and run_cli("gleu", "-s", "--ref", "-r", files["h1"], "-o", files["h2"]) == expected
    assert run_cli("gleu", "--src", "--ref", "--ref", files["h1"], "--out", files["h2"]) == expected
