"""Cases a sweep (2026-12-02, after the other reliability batteries) found outside them: an
unordered collection given where the order counts, a GoToScorer weight file naming more
systems than memory holds, a judgments XML declaring an encoding expat cannot read, cache
sizes and ages past float's range, Williams' test with n past it, and a failed write that did
not say which output failed. Each is one InputError (exit 2), or for the write one line
naming the file and exit 1, as the other failed writes."""
from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

import gecmetrics as G
from gecmetrics.errors import InputError
from tests.conftest import SPACY_TEST_MODEL, one_line_error, run_cli
from tests.test_meta_cli import toy_xml

SOURCES = ["a b c d", "He go home ."]
REFERENCES = [["a x c d", "He goes home ."]]
HYPOTHESIS = ["a x c d", "He goes home ."]
GOLD = "S a b c\nA 0 1|||R:X|||x|||REQUIRED|||-NONE-|||0\n\nS d e f\nA 2 3|||R:X|||g|||REQUIRED|||-NONE-|||0\n"


@pytest.fixture
def here(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    for name, text in (("src", "a b c\nd e f\n"), ("ref", "x b c\nd e g\n"), ("hyp", "x b c\nd e f\n"),
                       ("gold.m2", GOLD), ("toy.xml", toy_xml())):
        (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "other.m2").write_text(GOLD.replace("|||x|||", "|||y|||").replace("|||g|||", "|||-NONE-|||"),
                                       encoding="utf-8")
    return tmp_path


# ----------------------------------------------------------------------------- order

def test_a_set_or_a_mapping_where_the_order_counts_is_refused(here: Path) -> None:
    """A set of lines was scored in the order of its hashes (against other sentences, and for
    strings in another order in each process); a dict as its keys; a set of reference paths
    drew GLEU+'s references in another order; a set of scores was paired with other systems."""
    gleu = G.get_metric("gleu")
    cases = [
        (lambda: gleu.corpus_score(SOURCES, REFERENCES, set(HYPOTHESIS)), "hypothesis", "set"),
        (lambda: gleu.sentence_scores(frozenset(SOURCES), REFERENCES, HYPOTHESIS), "the source", "frozenset"),
        (lambda: gleu.corpus_score(SOURCES, REFERENCES, dict.fromkeys(HYPOTHESIS)), "hypothesis", "dict"),
        (lambda: gleu.corpus_score(SOURCES, {tuple(REFERENCES[0])}, HYPOTHESIS), "references", "set"),
        (lambda: gleu.corpus_score(SOURCES, [set(REFERENCES[0])], HYPOTHESIS), "reference 0", "set"),
        (lambda: G.compare(SOURCES, REFERENCES, [set(HYPOTHESIS)], ["gleu"]), "system 0", "set"),
        (lambda: G.Corpus(SOURCES, REFERENCES, {"A": set(HYPOTHESIS)}), "A", "set"),
        (lambda: G.read_corpus("src", {"ref", "hyp"}, ["hyp"]), "references must be a sequence of file paths", "set"),
        (lambda: G.pearson({1.0, 2.0, 3.0}, [1.0, 2.0, 3.0]), "the first input", "set"),
        (lambda: G.kendall([1.0, 2.0, 3.0], {"a": 1.0, "b": 2.0, "c": 3.0}), "the second input", "dict"),
    ]
    for call, name, kind in cases:
        with pytest.raises(InputError, match=f"{name}.*got a {kind} \\((it has no order|its keys would be read): "
                                             "give a list\\)"):
            call()
    # where the order only selects, a set stays a set of names; dict views and iterators are sequences
    corpus = G.Corpus(SOURCES, REFERENCES, {"A": HYPOTHESIS, "B": SOURCES})
    assert list(G.score_corpus(["gleu"], corpus, names={"B"}).results()) == ["B"]
    assert len(G.read_judgments("toy.xml", excluded_users={"admin"}).items) == 6
    assert gleu.corpus_score(SOURCES, REFERENCES, {"a": HYPOTHESIS[0], "b": HYPOTHESIS[1]}.values()).score == \
        gleu.corpus_score(SOURCES, REFERENCES, HYPOTHESIS).score == 1.0


# ----------------------------------------------------------------------------- files

def test_a_weight_file_of_too_many_systems_is_one_line(here: Path) -> None:
    """The first line 1,000,000,000 asked for 7.5 GiB of level weights; one past 2**63 was an
    OverflowError traceback."""
    for first in ("1000000000", "99999999999999999999"):
        (here / "w.txt").write_text(f"{first}\n2 1 2 2 2 2 2\n2 2 2 2 2 1 2\n", encoding="utf-8")
        err = one_line_error("gotoscorer", "-ref", "gold.m2", "-hyp", "gold.m2", "other.m2", "-w_file", "w.txt")
        assert err.startswith("gecmetric: error: w.txt:1: ") and "MAX_WEIGHT_SYSTEMS" in err, err
    from gecmetrics.io.gts_weights import MAX_WEIGHT_SYSTEMS

    (here / "w.txt").write_text(f"{MAX_WEIGHT_SYSTEMS}\n2 1 2 2 2 2 2\n2 2 2 2 2 1 2\n", encoding="utf-8")
    code, out, err = run_cli("gotoscorer", "-ref", "gold.m2", "-hyp", "gold.m2", "other.m2", "-w_file", "w.txt")
    assert code == 0 and out.splitlines()[1].startswith("gold.m2\t"), err


@pytest.mark.parametrize("encoding", ["bogus", "shift_jis", "rot13", "idna", "utf-32"])
def test_a_judgments_file_in_an_encoding_expat_cannot_read_is_one_line(here: Path, encoding: str) -> None:
    """LookupError, ValueError or UnicodeError tracebacks from expat's unknown-encoding handler."""
    (here / "enc.xml").write_text(f'<?xml version="1.0" encoding="{encoding}"?>\n' + toy_xml(), encoding="utf-8")
    err = one_line_error("rank", "--judgments", "enc.xml")
    assert err.startswith("gecmetric: error: enc.xml:1: cannot read the XML in its declared encoding"), err
    with pytest.raises(InputError, match="declared encoding"):
        G.read_judgments("enc.xml")


def test_a_declared_single_byte_encoding_is_still_read(here: Path) -> None:
    (here / "latin.xml").write_bytes(b'<?xml version="1.0" encoding="ISO-8859-1"?>\n'
                                     + toy_xml().replace('user="u"', 'user="\xe9"').encode("latin-1"))
    judgments = G.read_judgments("latin.xml")
    assert len(judgments.items) == 6 and judgments.items[0].user == "\xe9"


# ----------------------------------------------------------------------------- numbers

def test_cache_sizes_and_ages_past_float_range(here: Path) -> None:
    from gecmetrics.core.cache import Cache, parse_age, parse_size

    err = one_line_error("--cache", str(here / "cache"), "cache", "prune", "--max-size", "9" * 400)
    assert "--max-size: '999" in err and "is not a finite size" in err and len(err) < 200, err
    for call, message in ((lambda: parse_size("9" * 400 + "GB"), "not a finite size"),
                          (lambda: parse_age(10**400), "not a finite age"),
                          (lambda: Cache(here / "cache").prune(older_than=10**400), "not a finite age")):
        with pytest.raises(InputError, match=message):
            call()
    assert parse_size("9" * 300) == int(float("9" * 300)) and parse_age(10**300) == float(10**300)


def test_numbers_are_read_in_ascii_digits_only() -> None:
    """Python's float() and int() read other scripts' digits and "1_0": `cache prune --max-size
    \u0661MB` pruned to 1 MB, a setting "\u0661" was 1. The library's parsers take ASCII only."""
    from gecmetrics.core.cache import parse_age, parse_size
    from gecmetrics.metrics.settings import parse_float, parse_int

    for call in (lambda: parse_size("\u0661MB"), lambda: parse_age("\u0661d"), lambda: parse_size("1_000"),
                 lambda: parse_int("n", "\u0661"), lambda: parse_int("n", "1_0"), lambda: parse_float("beta", "\u0662"),
                 lambda: parse_float("beta", "0.\uff15"), lambda: G.get_metric("gleu", n="\u0661")):
        with pytest.raises(InputError):
            call()
    assert (parse_size(" 2MB "), parse_age("1.5d"), parse_int("n", " 4 "), parse_float("beta", "-0.5e1")) == (
        2_000_000, 129_600.0, 4, -5.0)
    from gecmetrics.cli.attribute import _column  # --column: a number is the column's index, else its label

    assert [_column(text) for text in ("2", "\u0660", "\u00b2", "GLEU+ f", "-1")] == [
        2, "\u0660", "\u00b2", "GLEU+ f", "-1"]
    from gecmetrics.cli.meta_judgments import parse_src_ids  # --src-ids: a signed integer, else a path

    assert [parse_src_ids(text) for text in (" -3 ", "+4", "\u0663", "1" * 21)] == [-3, 4, "\u0663", "1" * 21]


def test_williams_test_with_n_past_float_range() -> None:
    with pytest.raises(InputError, match="number of systems of Williams' test \\(n\\) must be at most"):
        G.williams_test(0.5, 0.4, 0.3, 10**400)
    assert G.williams_test(0.5, 0.4, 0.3, 2**53).n == 2**53


# ----------------------------------------------------------------------------- writes

def test_a_failed_write_names_the_output(here: Path, spacy_model) -> None:
    """'cannot write the output: No space left on device' did not say which output (report
    writes two; m2 annotate's -o may be a device). Standard output stays unnamed."""
    code, out, err = run_cli("report", "-s", "src", "-r", "ref", "-o", "hyp", "--metrics", "gleu", "--html",
                             "/dev/full", "--spacy-model", SPACY_TEST_MODEL, "--quiet")
    assert code == 1 and err.splitlines()[-1] == \
        "gecmetric: error: /dev/full: cannot write the output: No space left on device", err
    assert err.count("gecmetric: error:") == 1
    code, out, err = run_cli("m2", "annotate", "-orig", "src", "-cor", "hyp", "-o", "/dev/full", "--spacy-model",
                             SPACY_TEST_MODEL)
    assert code == 1 and err.strip() == "gecmetric: error: /dev/full: cannot write the output: No space left on device"


def test_every_failed_file_write_is_the_same_line_and_exit_code(tmp_path: Path, monkeypatch) -> None:
    """gotoscorer -gen_w_file and m2 refs said 'cannot write the weight file' / 'cannot write'
    with exit 2 (bad input's), the other commands 'cannot write the output' with exit 1."""
    monkeypatch.chdir(tmp_path)
    gold = "S a b c\nA 0 1|||R:X|||x|||REQUIRED|||-NONE-|||0\n\nS d e\nA 1 2|||R:X|||y|||REQUIRED|||-NONE-|||0\n"
    Path("gold.m2").write_text(gold, encoding="utf-8")
    os.symlink("/dev/full", "full.src")  # a device: written through, and full
    for args, shown in ((["gotoscorer", "-ref", "gold.m2", "-hyp", "gold.m2", "-gen_w_file", "/dev/full"], "/dev/full"),
                        (["m2", "refs", "gold.m2", "--prefix", "full"], "full.src")):
        code, out, err = run_cli(*args)
        assert code == 1 and err.strip().splitlines()[-1] == \
            f"gecmetric: error: {shown}: cannot write the output: No space left on device", err
    assert not Path("full.ref0").exists()  # the group's files come together or not at all


def test_the_atomic_writer_names_its_file_and_leaves_nothing(tmp_path: Path) -> None:
    from gecmetrics.io.atomic import atomic_output

    target = tmp_path / "out.m2"
    target.write_text("old\n", encoding="utf-8")
    with pytest.raises(OSError) as caught:
        with atomic_output(str(target)) as handle:
            handle.write("partial")
            raise OSError(errno.ENOSPC, "No space left on device")
    assert caught.value.filename == str(target) and caught.value.errno == errno.ENOSPC
    assert target.read_text(encoding="utf-8") == "old\n" and sorted(p.name for p in tmp_path.iterdir()) == ["out.m2"]
    with pytest.raises(FileNotFoundError) as caught:  # an error naming its own file keeps it
        with atomic_output(str(target)):
            open(tmp_path / "missing", encoding="utf-8")
    assert caught.value.filename == str(tmp_path / "missing")


# ----------------------------------------------------------------------------- empty names

@pytest.mark.parametrize("args, flag", [
    (["gleu", "-s", "", "-r", "ref", "-o", "hyp"], None),
    (["gleu", "-s", "src", "-r", "ref", "-o", ""], None),
    (["m2", "score", "-s", "", "-o", "hyp"], None),
    (["cleme", "-ref", "", "-hyp", "gold.m2"], None),
    (["rank", "--judgments", ""], None),
    (["meta-eval", "--scores", ""], None),
    (["compare", "-s", "src", "-r", "ref", "-o", "hyp", "--m2", ""], None),
    (["gotoscorer", "-ref", "gold.m2", "-hyp", "gold.m2", "-w_file", ""], None),       # was ignored: own weights
    (["gotoscorer", "-ref", "gold.m2", "-hyp", "gold.m2", "-gen_w_file", ""], "-gen_w_file"),  # was ignored
    (["report", "-s", "src", "-r", "ref", "-o", "hyp", "--html", ""], "--html"),
    (["m2", "refs", "gold.m2", "-o", ""], None),
    (["errant", "-s", "src", "-r", "gold.m2", "-o", "hyp", "--word-list", ""], "--word-list"),  # was: the shipped list
    (["compare", "-s", "src", "-r", "gold.m2", "-o", "hyp", "--metrics", "errant:word_list="], None),
    (["cherrant", "m2", "-f", "src", "-o", "out.m2", "--cherrant-data", ""], "--cherrant-data"),  # was: the folder .
])
def test_an_empty_file_name_is_one_line(here: Path, args: list[str], flag: str | None) -> None:
    """'' (an empty shell variable) named no file (': no such file'), was taken for "not given"
    by gotoscorer, and as an output for the current folder: the file was written beside it (in
    its parent folder) and the rename over the folder failed, exit 1 naming the temporary file."""
    before = sorted(p.name for p in here.parent.iterdir())
    err = one_line_error(*args)
    assert "an empty f" in err and "('')" in err and not err.startswith("gecmetric: error: : "), err
    if flag is not None:
        assert err.startswith(f"gecmetric: error: {flag}: "), err
    assert sorted(p.name for p in here.parent.iterdir()) == before


def test_an_empty_path_through_the_api(tmp_path: Path) -> None:
    from gecmetrics.io.atomic import atomic_output
    from gecmetrics.io.para import read_para

    for call in (lambda: G.read_lines(""), lambda: G.read_m2(""), lambda: read_para(""),
                 lambda: G.read_judgments(""), lambda: G.read_corpus("", [str(tmp_path)], [])):
        with pytest.raises(InputError, match=r"an empty file name \(''\)"):
            call()
    with pytest.raises(InputError, match=r"cannot write the output: an empty file name"):
        with atomic_output(""):
            pass


def test_one_device_check_for_the_models_and_the_metric_settings():
    """The models' device check is the settings' too: the same devices, and a setting's message
    names the setting (and its flag); ``auto`` is a setting's word, the models' is None."""
    from gecmetrics.core.models.runtime import check_device
    from gecmetrics.metrics.settings import parse_device

    for given, read in (("CPU", "cpu"), (" cuda:1 ", "cuda:1"), ("mps", "mps"), (None, None)):
        assert check_device(given) == parse_device("device", given) == read
    assert parse_device("device", "auto") is None and parse_device("device", " ") is None
    for bad in ("tpu", "cuda:x", 3, "auto"):
        with pytest.raises(InputError, match=f"^device must be cpu, cuda, cuda:N or mps, got {bad!r}$"):
            check_device(bad)
    with pytest.raises(InputError, match="^setting device must be cpu, cuda, cuda:N, mps or auto, got 'tpu'$"):
        parse_device("device", "tpu")
    with pytest.raises(InputError, match="^--device must be"):
        parse_device("--device", "cuda:")


def test_a_cuda_index_torch_does_not_see_is_refused_before_the_model_loads():
    """torch.device("cuda:7") is made whatever the machine has: the model loaded, then failed to move."""
    from types import SimpleNamespace

    from gecmetrics.core.models.inference import resolve_device

    cuda = SimpleNamespace(is_available=lambda: True, device_count=lambda: 2)
    torch = SimpleNamespace(cuda=cuda, backends=SimpleNamespace(), device=lambda name: ("device", name))
    assert resolve_device(torch, "cuda:1") == ("device", "cuda:1") and resolve_device(torch, "cuda") == ("device", "cuda")
    with pytest.raises(InputError, match=r"^device 'cuda:7': torch sees 2 CUDA device\(s\), cuda:0 to cuda:1$"):
        resolve_device(torch, "cuda:7")


# ----------------------------------------------------------------------------- numbers as typed

@pytest.mark.parametrize("args, said", [
    (["gleu", "--variant", "gleu0", "-l", "\u0664"], "-l/--lambda must be a number, got '\u0664'"),  # was 4
    (["gleu", "-s", "src", "--seed", ""], "--seed must be an integer, got ''"),  # was "no seed", exit 0
    (["compare", "--metrics", "gleu:seed= "], "seed (--seed) must be an integer, got ''"),
])
def test_numbers_are_read_as_typed(here: Path, args: list[str], said: str) -> None:
    """A lambda in Arabic-Indic digits was read as 4 (its parser skipped the ASCII rule of the
    other number flags) and an empty --seed (an unset shell variable) as no seed; only the word
    ``none`` leaves an optional number unset."""
    if "-s" not in args:
        args = [args[0], "-s", "src", *args[1:]]
    err = one_line_error(*args, "-r", "ref", "-o", "hyp")
    assert said in err, err
    assert G.get_metric("gleu", seed="none").settings.seed is None
    from gecmetrics.core.checks import check_finite_non_negative

    with pytest.raises(InputError, match="must be a number"):
        check_finite_non_negative("\u0664", "the price")
