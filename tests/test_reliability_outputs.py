"""No lost file (issue 33): every command refuses an output that is one of its inputs (by resolved
path and by inode), and the atomic writer never replaces a device, a FIFO or a symbolic link: it
writes through special files and follows links to the real file, written beside itself."""
from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from gecmetrics.errors import InputError
from tests.conftest import SPACY_TEST_MODEL, gecmetric_script, one_line_error, run_cli

GOLD = ("S a b c\nA 0 1|||R:X|||x|||REQUIRED|||-NONE-|||0\nA 2 3|||R:X|||y|||REQUIRED|||-NONE-|||1\n\n"
        "S d e f\nA 2 3|||R:X|||g|||REQUIRED|||-NONE-|||0\n")
PARA = "1\t我喜欢你\t我爱你\n"
TIMEOUT = 60


@pytest.fixture
def here(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "gold.m2").write_text(GOLD, encoding="utf-8")
    (tmp_path / "hyp.para").write_text(PARA, encoding="utf-8")
    (tmp_path / "ref.para").write_text(PARA, encoding="utf-8")
    return tmp_path


def _unchanged(path: Path, text: str) -> None:
    assert path.is_file() and not path.is_symlink() and path.read_text(encoding="utf-8") == text


# ----------------------------------------------------------------------------- output is input

def test_a_file_read_as_standard_input_is_not_an_output(here: Path) -> None:
    """``m2 refs - --prefix p < p.src``: the '-' was skipped by the check, and the atomic rename
    replaced the file being read (exit 0). Standard input's file is compared now (a pipe is no
    file to destroy)."""
    (here / "p.src").write_text(GOLD, encoding="utf-8")
    for args, given, text in ((["m2", "refs", "-", "--prefix", "p"], "p.src", GOLD),
                              (["cherrant", "m2", "-f", "-", "-o", "hyp.para"], "hyp.para", PARA)):
        with open(here / given, "rb") as stdin:
            result = subprocess.run([gecmetric_script(), *args], cwd=here, stdin=stdin, capture_output=True,
                                    text=True, timeout=TIMEOUT)
        assert result.returncode == 2 and len(result.stderr.splitlines()) == 1, result.stderr
        assert "is also an input" in result.stderr and given in result.stderr, result.stderr
        _unchanged(here / given, text)
    result = subprocess.run([gecmetric_script(), "m2", "refs", "-", "--prefix", "q"], cwd=here, input=GOLD,
                            capture_output=True, text=True, timeout=TIMEOUT)
    assert result.returncode == 0 and (here / "q.src").read_text(encoding="utf-8") == "a b c\nd e f\n", result.stderr


@pytest.mark.parametrize("mode", ["ab", "wb"])
def test_an_input_the_standard_output_is_redirected_into_is_refused(here: Path, mode: str) -> None:
    """``gecmetric ... >> AMU`` with AMU an input appended the output to it (exit 2, 'AMU has 5795
    lines'), as ``>`` had emptied it: an input that is standard output's file is refused before
    anything is read or written, whichever reader opens it (text, M2, judgments, weights, para)."""
    for name, text in (("src", "a b\n"), ("hyp", "a c\n"), ("w.tsv", "")):
        (here / name).write_text(text, encoding="utf-8")
    for args, victim in ((["gleu", "-s", "src", "-r", "src", "-o", "hyp"], "hyp"),
                         (["m2", "compare", "-hyp", "gold.m2", "-ref", "gold.m2"], "gold.m2"),
                         (["cherrant", "compare", "-hyp", "gold.m2", "-ref", "gold.m2"], "gold.m2"),
                         (["gotoscorer", "-ref", "gold.m2", "-hyp", "gold.m2", "-w_file", "w.tsv"], "w.tsv")):
        before = (here / victim).read_bytes()
        with open(here / victim, mode) as output:
            done = subprocess.run([gecmetric_script(), *args], stdout=output, stderr=subprocess.PIPE, text=True,
                                  timeout=TIMEOUT)
        assert done.returncode == 2, (args, done.stderr)
        assert done.stderr == (f"gecmetric: error: {victim}: is also the standard output (the command's output "
                               "redirected into it with > or >>): it would be written into what is read; redirect "
                               "the output to another file\n"), (args, done.stderr)
        assert (here / victim).read_bytes() == (before if mode == "ab" else b"")
        (here / victim).write_bytes(before)
    done = subprocess.run([gecmetric_script(), *["gleu", "-s", "src", "-r", "src", "-o", "hyp"]], capture_output=True,
                          text=True, timeout=TIMEOUT)
    assert done.returncode == 0, done.stderr


def test_a_named_pipe_whose_reader_left_is_a_failed_write(here: Path) -> None:
    """``-o FIFO`` (or ``-o >(gzip > x.gz)``) whose reader died exited 0 with the output cut, as a
    closed standard output (``| head``) rightly does: a file asked for by name is not complete."""
    os.mkfifo(here / "fifo")
    (here / "big.m2").write_text((GOLD.split("\n\n")[0] + "\n\n") * 20000, encoding="utf-8")  # (a weight file of 280 KB:
    # more than a pipe holds, so its writer meets the closed end whenever the reader closes)
    reader = subprocess.Popen([sys.executable, "-c", "open('fifo', 'rb').close()"], cwd=here)
    done = subprocess.run([gecmetric_script(), "gotoscorer", "-ref", "big.m2", "-hyp", "big.m2", "-gen_w_file",
                           "fifo"], capture_output=True, text=True, timeout=TIMEOUT, cwd=here)
    reader.wait(TIMEOUT)
    assert done.returncode == 1, done.stderr
    assert done.stderr.splitlines()[-1] == ("gecmetric: error: fifo: cannot write the output: its reader closed the "
                                            "pipe before the end"), done.stderr


def test_an_output_naming_a_standard_stream_closed_at_start_is_refused(here: Path) -> None:
    """``-o /dev/stdout >&-``: /dev/null holds descriptor 1 and the output went there, exit 0.
    Refused before the work, as writing to the closed standard output is."""
    done = subprocess.run([gecmetric_script(), "gotoscorer", "-ref", "gold.m2", "-hyp", "gold.m2", "-gen_w_file",
                           "/dev/stdout"], stderr=subprocess.PIPE, text=True, timeout=TIMEOUT, cwd=here,
                          preexec_fn=lambda: os.close(1))
    assert done.returncode == 2 and done.stderr == (
        "gecmetric: error: /dev/stdout: cannot write the output (-gen_w_file): standard output is closed (the command "
        "was started without it)\n"), done.stderr


def test_cherrant_m2_refuses_its_input_as_output(here: Path) -> None:
    os.link(here / "hyp.para", here / "hard.para")
    os.symlink("hyp.para", here / "link.para")
    for output in ("hyp.para", "./hyp.para", str(here / "hyp.para"), "hard.para", "link.para"):
        err = one_line_error("cherrant", "m2", "-f", "hyp.para", "-o", output)
        assert "the output (-o) is also an input" in err and output in err, err
    _unchanged(here / "hyp.para", PARA)
    assert (here / "link.para").is_symlink()


def test_cherrant_score_refuses_an_input_or_one_file_twice(here: Path) -> None:
    for extra, message in ((["--hyp-m2", "hyp.para"], "(--hyp-m2) is also an input"),
                           (["--ref-m2", "hyp.para"], "(--ref-m2) is also an input"),
                           (["--hyp-m2", "ref.para"], "(--hyp-m2) is also an input"),
                           (["--hyp-m2", "out.m2", "--ref-m2", "out.m2"], "--hyp-m2 and --ref-m2 name the same file")):
        err = one_line_error("cherrant", "score", "-hyp", "hyp.para", "-ref", "ref.para", *extra)
        assert message in err, (extra, err)
    _unchanged(here / "hyp.para", PARA)
    _unchanged(here / "ref.para", PARA)
    assert not (here / "out.m2").exists()


@pytest.mark.parametrize("name, args", [("INPUT", ["-o", "."]), ("REF0", ["-o", "."]), ("REF1", ["-o", "."]),
                                        ("p.src", ["--prefix", "p"]), ("p.ref1", ["--prefix", "p"])])
def test_m2_refs_refuses_an_input_named_as_an_output(here: Path, name: str, args: list[str]) -> None:
    (here / name).write_text(GOLD, encoding="utf-8")
    err = one_line_error("m2", "refs", name, *args)
    assert "is also an input" in err and name in err, err
    _unchanged(here / name, GOLD)
    assert sorted(p.name for p in here.iterdir()) == sorted(["gold.m2", "hyp.para", "ref.para", name])


def test_m2_refs_refuses_an_input_linked_into_the_output_folder(here: Path) -> None:
    (here / "out").mkdir()
    os.link(here / "gold.m2", here / "out" / "REF1")
    err = one_line_error("m2", "refs", "gold.m2", "-o", "out")
    assert "is also an input" in err and "REF1" in err, err
    _unchanged(here / "gold.m2", GOLD)
    assert sorted(p.name for p in (here / "out").iterdir()) == ["REF1"]
    code, out, err = run_cli("m2", "refs", "gold.m2", "-o", "fresh")
    assert code == 0 and (here / "fresh" / "REF1").read_text(encoding="utf-8") == "a b y\nd e g\n", err


def test_report_refuses_one_file_for_html_and_json(here: Path) -> None:
    (here / "src").write_text("a b c\n", encoding="utf-8")
    err = one_line_error("report", "-s", "src", "-r", "src", "-o", "src", "--html", "x", "--json", "./x")
    assert "--html and --json name the same file" in err, err
    assert not (here / "x").exists()


def test_files_read_beside_the_arguments_are_inputs_too(here: Path, monkeypatch) -> None:
    """A sweep (2026-12-02) overwrote each of these with exit 0: the word list of m2 annotate
    (--word-list or $GECMETRICS_ERRANT_WORDS), ChERRANT's data files, report's --human table and
    the run's cache database; "-" was a file named "-" for report, and both its outputs wrote it."""
    (here / "src").write_text("a b c\n", encoding="utf-8")
    (here / "words.txt").write_text("hello\nworld\n", encoding="utf-8")
    (here / "human.tsv").write_text("system\thuman\nsrc\t0.5\n", encoding="utf-8")
    data = here / "data"
    data.mkdir()
    (data / "cilin.txt").write_text("kept\n", encoding="utf-8")
    assert "(-o) is also an input" in one_line_error("m2", "annotate", "-orig", "src", "-cor", "src", "--word-list",
                                                     "words.txt", "-o", "words.txt")
    monkeypatch.setenv("GECMETRICS_ERRANT_WORDS", str(here / "words.txt"))
    assert "(-o) is also an input" in one_line_error("m2", "annotate", "-orig", "src", "-cor", "src", "-o",
                                                     "./words.txt")
    assert "(-o) is also an input" in one_line_error("cherrant", "m2", "-f", "hyp.para", "-o", "data/cilin.txt",
                                                     "--cherrant-data", "data")
    assert "(--json) is also an input" in one_line_error("report", "-s", "src", "-r", "src", "-o", "src", "--human",
                                                         "human.tsv", "--json", "human.tsv")
    database = here / "cache" / "cache-v1.sqlite3"
    for args in (["--cache", "cache", "m2", "annotate", "-orig", "src", "-cor", "src", "-o", str(database)],
                 ["--cache", "cache", "report", "-s", "src", "-r", "src", "-o", "src", "--html", str(database)]):
        assert "is also an input" in one_line_error(*args), args
    assert "--html writes a file: give its name (standard output is /dev/stdout)" in \
        one_line_error("report", "-s", "src", "-r", "src", "-o", "src", "--html", "-", "--json", "-")
    _unchanged(here / "words.txt", "hello\nworld\n")
    _unchanged(here / "human.tsv", "system\thuman\nsrc\t0.5\n")
    _unchanged(data / "cilin.txt", "kept\n")
    assert not (here / "-").exists() and not database.exists()


def test_an_output_linked_to_the_cache_is_refused_and_any_other_looks_no_cache_up(here: Path, monkeypatch) -> None:
    """The cache's database given as an output under another name (a symbolic or a hard link,
    the cache from $GECMETRICS_CACHE) is refused as the file itself is; an output that cannot
    be a cache file needs no cache folder: the command does not import platformdirs (a tenth of
    gotoscorer's start-up) nor the cache's store for its check."""
    from gecmetrics.core.cache import Cache

    cache = Cache(here / "cache")
    cache.put_many("n", {b"k": b"v"})
    cache.close()
    database = here / "cache" / "cache-v1.sqlite3"
    before = database.read_bytes()
    os.symlink(database, here / "page.html")
    os.link(database, here / "copy.html")
    monkeypatch.setenv("GECMETRICS_CACHE", str(here / "cache"))
    (here / "src").write_text("a b c\nd e f\n", encoding="utf-8")
    for name in ("page.html", "copy.html"):
        err = one_line_error("gotoscorer", "-ref", "gold.m2", "-hyp", "gold.m2", "-gen_w_file", name)
        assert "(-gen_w_file) is also an input" in err, err
        err = one_line_error("report", "-s", "src", "-r", "src", "-o", "src", "--html", name)
        assert "(--html) is also an input" in err, err
    assert database.read_bytes() == before
    probe = ("import sys; from gecmetrics.cli import main\n"
             "try: main(['gotoscorer', '-ref', 'gold.m2', '-hyp', 'gold.m2', '-gen_w_file', 'w.txt'])\n"
             "except SystemExit as end: assert end.code == 0, end\n"
             "print(sorted(m for m in ('platformdirs', 'gecmetrics.core.cache', 'sqlite3') if m in sys.modules))")
    monkeypatch.delenv("GECMETRICS_CACHE")
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=TIMEOUT)
    assert run.returncode == 0 and run.stdout.splitlines()[-1] == "[]", (run.stdout, run.stderr)
    assert (here / "w.txt").read_text(encoding="utf-8").splitlines()[0] == "2"  # two systems: annotators 0 and 1


def test_a_report_output_that_cannot_be_written_leaves_the_other_as_it_was(here: Path) -> None:
    """The page's path was checked only after the JSON was written over the old one."""
    (here / "src").write_text("a b c\n", encoding="utf-8")
    (here / "old.json").write_text("OLD\n", encoding="utf-8")
    (here / "folder").mkdir()
    err = one_line_error("report", "-s", "src", "-r", "src", "-o", "src", "--html", "folder", "--json", "old.json")
    assert "folder: is a directory, not a file" in err, err
    _unchanged(here / "old.json", "OLD\n")


def test_cherrant_score_writes_no_m2_for_files_it_refuses(here: Path, shared_data: Path) -> None:
    (here / "two.para").write_text(PARA + "2\t我喜欢你\t我爱你\n", encoding="utf-8")
    data = shared_data / "cherrant"
    err = one_line_error("cherrant", "score", "-hyp", "two.para", "-ref", "ref.para", "--hyp-m2", "h.m2",
                         "--ref-m2", "r.m2", "--cherrant-data", str(data))
    assert "has 2 sentences but the reference ref.para has 1" in err, err
    assert not (here / "h.m2").exists() and not (here / "r.m2").exists()


def test_gotoscorer_refuses_its_reference_as_the_weight_file(here: Path) -> None:
    err = one_line_error("gotoscorer", "-ref", "gold.m2", "-hyp", "gold.m2", "-gen_w_file", "gold.m2")
    assert "the output (-gen_w_file) is also an input" in err, err
    _unchanged(here / "gold.m2", GOLD)


def test_outputs_compared_by_inode_and_path(tmp_path: Path) -> None:
    from gecmetrics.io.atomic import check_outputs

    source = tmp_path / "in.txt"
    source.write_text("x\n")
    (tmp_path / "sub").mkdir()
    os.symlink(tmp_path / "sub", tmp_path / "alias")
    (tmp_path / "sub" / "f").write_text("y\n")
    os.link(source, tmp_path / "hard.txt")
    for output in (source, tmp_path / "hard.txt", tmp_path / "sub" / ".." / "in.txt"):
        with pytest.raises(InputError, match="also an input"):
            check_outputs([("-o", output)], [str(source)])
    with pytest.raises(InputError, match="also an input"):
        check_outputs([("-o", tmp_path / "alias" / "f")], [tmp_path / "sub" / "f"])
    with pytest.raises(InputError, match="-a and -b name the same file"):
        check_outputs([("-a", tmp_path / "new"), ("-b", tmp_path / "alias" / ".." / "new")], [])
    check_outputs([("-o", tmp_path / "new"), ("-x", None)], [str(source), None, "-"])
    # "-" is not standard output for these file outputs: a file named "-" was written (twice, by two flags)
    with pytest.raises(InputError, match=r"-y writes a file: give its name \(standard output is /dev/stdout\)"):
        check_outputs([("-y", "-")], [])
    # a folder, or a folder that cannot be written, is refused before the work
    with pytest.raises(InputError, match="is a directory, not a file"):
        check_outputs([("-o", tmp_path / "sub")], [])
    # a device (or FIFO) is written through and loses nothing: reading and writing the terminal is fine
    check_outputs([("-o", "/dev/null")], ["/dev/null"])


# ----------------------------------------------------------------------------- the atomic writer

def test_a_link_to_a_file_stays_a_link_and_its_target_gets_the_content(tmp_path: Path) -> None:
    from gecmetrics.io.atomic import atomic_output

    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "out.m2"
    target.write_text("old\n")
    os.chmod(target, 0o640)
    link = tmp_path / "link.m2"
    os.symlink(target, link)
    chain = tmp_path / "chain.m2"
    os.symlink(link, chain)
    with atomic_output(str(chain)) as handle:
        handle.write("new\n")
    assert link.is_symlink() and chain.is_symlink() and os.readlink(chain) == str(link)
    assert target.read_text() == "new\n" and stat.S_IMODE(os.stat(target).st_mode) == 0o640
    assert sorted(p.name for p in (tmp_path / "real").iterdir()) == ["out.m2"]  # no temporary file left
    dangling = tmp_path / "dangling"
    os.symlink(tmp_path / "real" / "made", dangling)
    with atomic_output(str(dangling)) as handle:
        handle.write("made\n")
    assert dangling.is_symlink() and (tmp_path / "real" / "made").read_text() == "made\n"
    with pytest.raises(RuntimeError):
        with atomic_output(str(link)) as handle:
            handle.write("partial")
            raise RuntimeError("interrupted")
    assert target.read_text() == "new\n" and link.is_symlink()


def test_a_link_to_a_device_is_written_through(tmp_path: Path) -> None:
    from gecmetrics.io.atomic import atomic_output

    link = tmp_path / "null"
    os.symlink("/dev/null", link)
    with atomic_output(str(link)) as handle:
        handle.write("nothing\n")
    assert link.is_symlink() and os.readlink(link) == "/dev/null"
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["null"]


def test_a_fifo_is_written_through(tmp_path: Path) -> None:
    from gecmetrics.io.atomic import atomic_output

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_text()), daemon=True)
    reader.start()
    with atomic_output(str(fifo)) as handle:
        handle.write("through the pipe\n")
    reader.join(TIMEOUT)
    assert received == ["through the pipe\n"] and stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo"]


def test_an_m2_input_that_is_a_fifo_is_read_once(tmp_path: Path) -> None:
    """A look at an M2 file's first lines (whether it holds edits of swapped annotators, or is
    plain text) read a FIFO given as ``-hyp`` or ``-ref`` and took what it held: the run then
    waited for another writer forever (``<(cat ref.m2)`` was read as 0 sentences)."""
    (tmp_path / "gold.m2").write_text(GOLD, encoding="utf-8")
    expected = run_cli("m2", "compare", "-hyp", str(tmp_path / "gold.m2"), "-ref", str(tmp_path / "gold.m2"))
    assert expected[0] == 0, expected
    for side in ("-hyp", "-ref"):
        fifo = tmp_path / f"fifo{side}"
        os.mkfifo(fifo)
        writer = threading.Thread(target=lambda: fifo.write_text(GOLD, encoding="utf-8"), daemon=True)
        writer.start()
        other = "-ref" if side == "-hyp" else "-hyp"
        result = subprocess.run([gecmetric_script(), "m2", "compare", side, str(fifo), other, str(tmp_path / "gold.m2")],
                                capture_output=True, text=True, timeout=TIMEOUT)
        writer.join(TIMEOUT)
        assert (result.returncode, result.stdout) == (0, expected[1]), (side, result.stderr)


def test_the_standard_output_through_proc_self_fd_gets_the_m2(tmp_path: Path) -> None:
    """``-o /proc/self/fd/1`` (or a link to it) writes to the pipe the command's stdout is."""
    (tmp_path / "gold.m2").write_text(GOLD, encoding="utf-8")
    os.symlink("/proc/self/fd/1", tmp_path / "p.src")
    result = subprocess.run([gecmetric_script(), "m2", "refs", "gold.m2", "--prefix", "p", "-a", "0"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=TIMEOUT)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("a b c\nd e f\np.src\n"), result.stdout
    assert (tmp_path / "p.src").is_symlink()


def _through_stdout(tmp_path: Path, args: list[str]) -> str:
    """The file the standard output is, after HEADER, the command and TRAILER were written to it."""
    log = tmp_path / "log.txt"
    with open(log, "w", encoding="utf-8") as out:
        out.write("HEADER\n")
        out.flush()
        result = subprocess.run([gecmetric_script(), *args], cwd=tmp_path, stdout=out, stderr=subprocess.PIPE,
                                text=True, timeout=TIMEOUT)
        out.write("TRAILER\n")
    assert result.returncode == 0, result.stderr
    return log.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", ["/dev/stdout", "/proc/self/fd/1", "/dev/fd/1"])
def test_a_name_of_the_standard_output_writes_through_it_when_it_is_a_file(tmp_path: Path, name: str) -> None:
    """With the standard output redirected to a file, ``/dev/stdout`` named the file itself: it
    was replaced by the output alone (``>> log`` lost the log, ``{ echo head; cmd; } > f`` the
    head). Written through the descriptor, as the shell's ``>`` writes, at its place in the file;
    a link to such a name too."""
    (tmp_path / "gold.m2").write_text(GOLD, encoding="utf-8")
    os.symlink(name, tmp_path / "p.src")
    text = _through_stdout(tmp_path, ["m2", "refs", "gold.m2", "--prefix", "p", "-a", "0"])
    assert text.startswith("HEADER\na b c\nd e f\n") and text.endswith("TRAILER\n"), text
    (tmp_path / "p.src").unlink()
    text = _through_stdout(tmp_path, ["gotoscorer", "-ref", "gold.m2", "-hyp", "gold.m2", "-gen_w_file", name])
    assert text.startswith("HEADER\n2\n") and text.endswith("TRAILER\n") and "\nsystem\t" in text, text


def test_a_device_node_is_never_replaced(tmp_path: Path) -> None:
    """As root the old writer replaced /dev/full with a file; a node made here stands for it."""
    if os.geteuid() != 0:
        pytest.skip("making a device node needs root")
    node = tmp_path / "full"
    try:
        os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 7))  # /dev/full
    except OSError as err:
        pytest.skip(f"cannot make a device node here: {err}")
    (tmp_path / "gold.m2").write_text(GOLD, encoding="utf-8")
    result = subprocess.run([gecmetric_script(), "gotoscorer", "-ref", "gold.m2", "-hyp", "gold.m2",
                             "-gen_w_file", str(node)], cwd=tmp_path, capture_output=True, text=True, timeout=TIMEOUT)
    assert stat.S_ISCHR(os.lstat(node).st_mode)
    assert result.returncode != 0 and len(result.stderr.splitlines()) == 1, result.stderr
    assert "No space left on device" in result.stderr and "Traceback" not in result.stderr


def test_an_unwritable_folder_is_named_for_what_it_is(tmp_path: Path) -> None:
    from gecmetrics.io.atomic import atomic_output

    with pytest.raises(InputError, match="cannot create a file in its folder /proc") as caught:
        with atomic_output("/proc/version") as handle:
            handle.write("x")
    assert "no such folder" not in str(caught.value) and "/proc/version" in str(caught.value)
    with pytest.raises(InputError, match="no such folder"):
        with atomic_output(str(tmp_path / "missing" / "out")):
            pass
    with pytest.raises(InputError, match="is a directory"):
        with atomic_output(str(tmp_path)):
            pass
    os.symlink("loop", tmp_path / "loop")
    with pytest.raises(InputError, match="symbolic links"):
        with atomic_output(str(tmp_path / "loop")):
            pass


# ----------------------------------------------------------------------------- m2 refs limits

def _many_ids(ids: int, blocks: int) -> str:
    return "".join(f"S a b c\nA 0 1|||R:X|||x|||REQUIRED|||-NONE-|||{k % ids}\n\n" for k in range(max(ids, blocks)))


def test_m2_refs_checks_the_reference_bound_before_building_them(tmp_path: Path, monkeypatch) -> None:
    from gecmetrics.io import m2_references as module
    from gecmetrics.io.m2 import parse_m2

    blocks = parse_m2(_many_ids(150, 150), "many.m2")

    def built(*args, **kwargs):
        raise AssertionError("a reference was built before the bound was checked")

    monkeypatch.setattr(module, "_annotator_reference", built)
    with pytest.raises(InputError, match="150 annotators would make 150 reference files"):
        module.m2_references(blocks, max_references=module.MAX_REFERENCE_FILES)


def test_m2_refs_with_thousands_of_annotators_refuses_at_once(tmp_path: Path) -> None:
    (tmp_path / "many.m2").write_text(_many_ids(5000, 5000), encoding="utf-8")
    result = subprocess.run([gecmetric_script(), "m2", "refs", "many.m2", "-o", "out"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=TIMEOUT)
    assert result.returncode == 2 and "5,000 annotators would make 5,000 reference files" in result.stderr
    assert len(result.stderr.splitlines()) == 1 and not (tmp_path / "out").exists()


def test_names_and_repeats_that_made_rows_unreadable(here: Path) -> None:
    """A sweep (2026-12-02): a file name with a tab or newline split a TSV, text or Markdown row;
    compare -o AMU AMU printed two rows no one could tell apart; m2 refs -a 0 -a 0 blamed
    -o/--prefix; attribute --over-bound skip left sentences out without a word."""
    (here / "src").write_text("a b c\nd e f\n", encoding="utf-8")
    (here / "ref").write_text("a b c\nd e g\n", encoding="utf-8")
    odd = "tab\tname"
    (here / odd).write_text("a b c\nd e f\n", encoding="utf-8")
    code, out, err = run_cli("compare", "-s", "src", "-r", "ref", "-o", odd, "--metrics", "gleu", "--tsv")
    assert code == 0 and out.splitlines()[1].split("\t")[0] == "tab\\tname", out
    code, out, err = run_cli("gleu", "-s", "src", "-r", "ref", "-o", odd)
    assert code == 0 and out.splitlines()[0].split("\t")[0] == "tab\\tname", out
    assert "src: given twice in -o" in one_line_error("compare", "-s", "src", "-r", "ref", "-o", "src", "src")
    assert "annotator 0 is asked for twice (-a/--annotator" in one_line_error("m2", "refs", "gold.m2", "-a", "0", "-a",
                                                                                "0", "-o", "refs")
    assert not (here / "refs").exists()


def test_attribute_says_how_many_sentences_it_left_out(here: Path) -> None:
    (here / "src").write_text("a b c d\na b c d\n", encoding="utf-8")
    (here / "hyp").write_text("x y c d\nx b c d\n", encoding="utf-8")
    (here / "hyp.m2").write_text("S a b c d\nA 0 1|||R:X|||x|||REQUIRED|||-NONE-|||0\n"
                                 "A 1 2|||R:X|||y|||REQUIRED|||-NONE-|||0\n\n"
                                 "S a b c d\nA 0 1|||R:X|||x|||REQUIRED|||-NONE-|||0\n", encoding="utf-8")
    code, out, err = run_cli("attribute", "-s", "src", "-r", "hyp", "-o", "hyp", "--hyp-m2", "hyp.m2", "--metric",
                             "gleu", "--max-exact-edits", "1", "--over-bound", "skip")
    assert code == 0 and [line.split("\t")[1] for line in out.splitlines()[1:]] == ["2"], out
    assert err.strip() == "gecmetric: warning: 1 sentence with more than 1 edits left out (--over-bound skip): no rows " \
                          "for it", err


def test_attribute_prints_every_format_it_offers(here: Path) -> None:
    """--help listed --markdown, --latex and --format, which the command then refused; it now
    prints each of them (and every registered format)."""
    (here / "src").write_text("a b c d\n", encoding="utf-8")
    (here / "hyp").write_text("x y c d\n", encoding="utf-8")
    (here / "hyp.m2").write_text("S a b c d\nA 0 1|||R:X|||x|||REQUIRED|||-NONE-|||0\n"
                                 "A 1 2|||R:X|||y|||REQUIRED|||-NONE-|||0\n", encoding="utf-8")
    code, out, err = run_cli("attribute", "--help")
    assert code == 0 and all(flag in out for flag in ("--json", "--tsv", "--markdown", "--latex", "--format")), err
    from gecmetrics.output.formats import format_names

    for name in format_names():
        code, out, err = run_cli("attribute", "-s", "src", "-r", "hyp", "-o", "hyp", "--hyp-m2", "hyp.m2", "--metric",
                                 "gleu", "--format", name)
        assert code == 0 and "R:X" in out and err == "", (name, err)

# ----------------------------------------------------------------------------- several outputs: all or none

def _full_disk_link(path: Path) -> None:
    """``path`` a link to /dev/full: a device, written through, whose write fails (ENOSPC) after
    the command's earlier outputs were written."""
    os.symlink("/dev/full", path)


def _one_failed_write(args: list[str], named: str) -> None:
    code, out, err = run_cli(*args)
    assert code != 0 and len(err.strip().splitlines()) == 1 and named in err and "space" in err.lower(), (code, err)


def test_m2_refs_writes_every_file_or_none(here: Path) -> None:
    """INPUT and REF0 were left new (and INPUT's old text lost) when REF1's write failed."""
    out = here / "out"
    out.mkdir()
    (out / "INPUT").write_text("OLD\n", encoding="utf-8")
    _full_disk_link(out / "REF1")
    _one_failed_write(["m2", "refs", "gold.m2", "-o", "out"], "REF1")
    _unchanged(out / "INPUT", "OLD\n")
    assert sorted(p.name for p in out.iterdir()) == ["INPUT", "REF1"]


def test_cherrant_score_writes_both_m2_files_or_neither(here: Path, shared_data: Path) -> None:
    _full_disk_link(here / "r.m2")
    _one_failed_write(["cherrant", "score", "-hyp", "hyp.para", "-ref", "ref.para", "--hyp-m2", "h.m2",
                       "--ref-m2", "r.m2", "--cherrant-data", str(shared_data / "cherrant")], "r.m2")
    assert not (here / "h.m2").exists() and not list(here.glob(".*.part"))


def test_a_report_page_that_fails_to_write_leaves_no_new_json(here: Path, spacy_model, monkeypatch) -> None:
    monkeypatch.setenv("GECMETRICS_SPACY_MODEL", SPACY_TEST_MODEL)  # (the report's ERRANT column)
    (here / "src").write_text("a b c\nd e f\n", encoding="utf-8")
    _full_disk_link(here / "page.html")
    _one_failed_write(["report", "-s", "src", "-r", "src", "-o", "src", "--html", "page.html", "--json", "r.json"],
                      "page.html")
    assert not (here / "r.json").exists() and not list(here.glob(".*.part"))


def test_an_output_group_replaces_its_targets_together(tmp_path: Path) -> None:
    from gecmetrics.io.atomic import output_group

    first, second = tmp_path / "first", tmp_path / "second"
    first.write_text("old\n", encoding="utf-8")
    with pytest.raises(RuntimeError):
        with output_group() as group:
            with group.output(str(first)) as handle:
                handle.write("new\n")
            with group.output(str(second)) as handle:
                raise RuntimeError("the second file's content could not be made")
    _unchanged(first, "old\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["first"]
    with output_group() as group:
        for path in (first, second):
            with group.output(str(path)) as handle:
                handle.write("new\n")
        assert first.read_text(encoding="utf-8") == "old\n"  # nothing replaced before the group ends
    assert first.read_text(encoding="utf-8") == second.read_text(encoding="utf-8") == "new\n"


def _write_new(paths: list[Path]) -> None:
    """'new' written to each of ``paths`` through one output group."""
    from gecmetrics.io.atomic import output_group

    with output_group() as group:
        for path in paths:
            with group.output(str(path)) as handle:
                handle.write("new\n")


@pytest.mark.parametrize("failing", [1, 2])
def test_a_rename_that_fails_puts_back_the_targets_already_replaced(tmp_path: Path, monkeypatch, failing) -> None:
    """The renames ran one after another: the third failing (EBUSY on a mount point, a sticky
    folder's file of another user) left the first two new and the third old, exit 2."""
    import errno

    from gecmetrics.io import atomic

    paths = [tmp_path / name for name in ("a", "b", "c")]
    for path in paths[:2]:
        path.write_text("old\n", encoding="utf-8")  # c is new: put back means removed
    real, calls = os.replace, []

    def replace(source, target):
        calls.append(target)
        if str(target) == str(paths[failing]) and str(source).endswith(".part"):
            raise OSError(errno.EBUSY, "Device or resource busy")
        return real(source, target)

    monkeypatch.setattr(atomic.os, "replace", replace)
    with pytest.raises(OSError, match="busy"):
        _write_new(paths)
    for path in paths[:2]:
        _unchanged(path, "old\n")
    assert not paths[2].exists() and sorted(p.name for p in tmp_path.iterdir()) == ["a", "b"]
    monkeypatch.setattr(atomic.os, "replace", real)
    _write_new(paths)
    assert [p.read_text(encoding="utf-8") for p in paths] == ["new\n"] * 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a", "b", "c"]  # no file kept aside is left


@pytest.mark.parametrize("where", ["after a rename", "after a link", "while the links go"])
def test_a_signal_between_a_step_and_its_record_is_undone(tmp_path: Path, monkeypatch, where) -> None:
    """A SIGTERM landing after os.replace returned and before the rename was recorded left that
    file new and its old copy deleted while the others were put back (m2 refs: REF0 new, INPUT
    and REF1 old); one after os.link left a '.NAME.xxxx.old' file, as did one during the final
    removal of those links."""
    from gecmetrics.io import atomic

    paths = [tmp_path / name for name in ("a", "b", "c")]
    for path in paths:
        path.write_text("old\n", encoding="utf-8")
    real_replace, real_link, real_unlink = os.replace, os.link, os.unlink

    def replace(source, target):
        real_replace(source, target)
        if where == "after a rename" and str(target) == str(paths[1]) and str(source).endswith(".part"):
            raise KeyboardInterrupt

    def link(source, target):
        real_link(source, target)
        if where == "after a link" and str(source) == str(paths[2]):
            raise KeyboardInterrupt

    removed = []

    def unlink(path):
        real_unlink(path)
        removed.append(path)
        if where == "while the links go" and len(removed) == 1 and str(path).endswith(".old"):
            raise KeyboardInterrupt

    monkeypatch.setattr(atomic.os, "replace", replace)
    monkeypatch.setattr(atomic.os, "link", link)
    monkeypatch.setattr(atomic.os, "unlink", unlink)
    with pytest.raises(KeyboardInterrupt):
        _write_new(paths)
    contents = [path.read_text(encoding="utf-8") for path in paths]
    assert contents == (["new\n"] * 3 if where == "while the links go" else ["old\n"] * 3), contents
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a", "b", "c"]  # no temporary or kept-aside file


def test_without_hard_links_a_failed_group_keeps_the_new_file_not_none(tmp_path: Path, monkeypatch) -> None:
    """On a file system without hard links (vfat, some network or FUSE ones) the old file could
    not be kept aside, and the rollback of a group whose later rename failed (or a signal) then
    unlinked the target: neither the old content nor the new was left. The new file stays."""
    import errno

    from gecmetrics.io import atomic

    paths = [tmp_path / name for name in ("a", "b")]
    for path in paths:
        path.write_text("old\n", encoding="utf-8")
    real_replace = os.replace

    def no_link(source, target):
        raise OSError(errno.EPERM, "Operation not permitted")

    def replace(source, target):
        if str(target) == str(paths[1]) and str(source).endswith(".part"):
            raise OSError(errno.EIO, "Input/output error")
        return real_replace(source, target)

    monkeypatch.setattr(atomic.os, "link", no_link)
    monkeypatch.setattr(atomic.os, "replace", replace)
    with pytest.raises(OSError, match="Input/output error"):
        _write_new(paths)
    assert [p.read_text(encoding="utf-8") for p in paths] == ["new\n", "old\n"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a", "b"]


def test_outputs_are_synced_before_they_replace_their_targets(tmp_path: Path, monkeypatch) -> None:
    """Nothing was fsynced: after a crash of the machine a renamed output could name an empty
    or cut file. The temporary file is synced before its rename, the folder after."""
    from gecmetrics.io import atomic

    synced, real_fsync, real_replace = [], os.fsync, os.replace
    monkeypatch.setattr(atomic.os, "fsync", lambda fd: (synced.append(os.fstat(fd).st_mode), real_fsync(fd)))
    monkeypatch.setattr(atomic.os, "replace", lambda a, b: (synced.append("rename"), real_replace(a, b)))
    with atomic.atomic_output(str(tmp_path / "out.txt")) as handle:
        handle.write("whole\n")
    assert [stat.S_ISREG(x) if x != "rename" else x for x in synced] == [True, "rename", False]
    assert (tmp_path / "out.txt").read_text(encoding="utf-8") == "whole\n"


def test_a_killed_commits_old_file_goes_with_the_next_write(tmp_path: Path) -> None:
    """A group's commit keeps each old file under a second name until its renames are done; a
    writer killed then (SIGKILL) left '.NAME.xxxx.old' for good, holding the old file's space.
    Those of this host's dead processes go with the next write; a live one's stays."""
    from gecmetrics.io import atomic

    target = tmp_path / "out.m2"
    target.write_text("old\n", encoding="utf-8")
    script = ("import os, signal, sys\n"
              "from gecmetrics.io import atomic\n"
              "real = os.replace\n"
              "def replace(a, b):\n"
              "    os.kill(os.getpid(), signal.SIGKILL)\n"
              "atomic.os.replace = replace\n"
              "with atomic.atomic_output(sys.argv[1]) as handle:\n"
              "    handle.write('new')\n")
    killed = subprocess.run([sys.executable, "-c", script, str(target)], cwd=Path(__file__).parent.parent)
    assert killed.returncode == -9 and len(list(tmp_path.glob(".out.m2.*.old"))) == 1
    live = tmp_path / f".out.m2.{os.getppid()}@{atomic._HOST}.abcdefgh.old"
    live.write_text("x", encoding="utf-8")
    with atomic.atomic_output(str(target)) as handle:
        handle.write("whole\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([live.name, "out.m2"])


def test_a_write_protected_output_is_refused_before_the_work(tmp_path: Path, monkeypatch) -> None:
    """A rename replaced a file of mode 0444 without a word (the shell's > refuses it)."""
    from gecmetrics.io import atomic

    target = tmp_path / "out.m2"
    target.write_text("kept\n", encoding="utf-8")
    target.chmod(0o444)
    real = os.access
    monkeypatch.setattr(atomic.os, "access", lambda path, mode: real(path, mode) and not (
        os.fspath(path) == str(target) and mode & os.W_OK))  # (root may write any file: as another user)
    with pytest.raises(InputError, match="write-protected"):
        atomic.check_outputs([("-o", str(target))], [])
    _unchanged(target, "kept\n")


def test_a_folder_named_through_dot_dot_makes_only_what_it_removes(tmp_path: Path) -> None:
    """m2 refs -o base/na/../nb (and data fetch --to) made 'na' too, which a failed run left: the
    folders to remove were counted on the normalized path, and made on the literal one."""
    from gecmetrics.core.lang.zh.data import fetch_data
    from gecmetrics.io.m2_references import _make_folder, _remove_folders

    made = _make_folder(str(tmp_path / "na" / ".." / "nb"))
    assert made == [str(tmp_path / "nb")] and sorted(p.name for p in tmp_path.iterdir()) == ["nb"]
    _remove_folders(made)

    def failing(url, timeout):
        raise OSError("no network here")

    with pytest.raises(Exception):
        fetch_data(tmp_path / "da" / ".." / "db", download=failing)
    assert list(tmp_path.iterdir()) == []


def test_an_output_ending_in_a_slash_names_a_folder(tmp_path: Path) -> None:
    """m2 annotate -o ed/out/ (no such folder) wrote a file named ed/out."""
    from gecmetrics.io.atomic import check_outputs

    with pytest.raises(InputError, match="names a folder"):
        check_outputs([("-o", str(tmp_path / "ed" / "out") + "/")], [])
    source = tmp_path / "src"
    source.write_text("A b .\n", encoding="utf-8")
    err = one_line_error("report", "-s", str(source), "-r", str(source), "-o", str(source), "--metrics", "gleu",
                         "--html", str(tmp_path / "page") + "/")
    assert "names a folder" in err and not (tmp_path / "page").exists()


def test_a_killed_writers_temporary_file_goes_with_the_next_write(tmp_path: Path) -> None:
    """A writer killed without its cleanup (SIGKILL, the out-of-memory killer) left its
    ``.OUT.xxxx.part`` beside the output for good (hidden, as large as the output). The next
    write of that output removes those of this host whose process is gone; a live process's
    (a run writing the same file now), another host's and unmarked ones stay."""
    from gecmetrics.io import atomic

    target = tmp_path / "out.m2"
    script = ("import os, signal, sys\n"
              "from gecmetrics.io.atomic import atomic_output\n"
              "with atomic_output(sys.argv[1]) as handle:\n"
              "    handle.write('half')\n"
              "    handle.flush()\n"
              "    os.kill(os.getpid(), signal.SIGKILL)\n")
    killed = subprocess.run([sys.executable, "-c", script, str(target)], cwd=Path(__file__).parent.parent)
    assert killed.returncode == -9
    stale = list(tmp_path.glob(".out.m2.*.part"))
    assert len(stale) == 1 and not target.exists()
    live = tmp_path / f".out.m2.{os.getppid()}@{atomic._HOST}.abcdefgh.part"
    elsewhere = tmp_path / f".out.m2.{stale[0].name.split('.')[3].split('@')[0]}@00000000.abcdefgh.part"
    unmarked, other = tmp_path / ".out.m2.abcdefgh.part", tmp_path / f".other.m2.999999999@{atomic._HOST}.x.part"
    for path in (live, elsewhere, unmarked, other):
        path.write_text("x", encoding="utf-8")
    with atomic.atomic_output(str(target)) as handle:
        assert not stale[0].exists()
        handle.write("whole\n")
    assert target.read_text(encoding="utf-8") == "whole\n"
    assert all(path.exists() for path in (live, elsewhere, unmarked))
    assert sorted(p.name for p in tmp_path.glob(".*.part")) == sorted(p.name for p in (live, elsewhere, unmarked, other))


def _capped(limit: int):
    """A child's address space capped at ``limit`` bytes: a reading that held a whole file fails
    there, not in the machine's out-of-memory killer."""
    import resource

    return lambda: resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


@pytest.mark.parametrize("args", [["gleu", "-s", "z", "-r", "z", "-o", "z"], ["gleu", "-s", "t", "-r", "t", "-o", "/dev/zero"],
                                  ["m2", "compare", "-hyp", "z", "-ref", "g.m2"], ["m2", "score", "-s", "z", "-o", "t"],
                                  ["gleu", "-s", "t", "-r", "t", "-o", "z", "-p", "2"]])
def test_a_file_of_nul_bytes_without_a_line_break_is_refused_at_its_first_piece(tmp_path: Path, args) -> None:
    """A gigabyte of NUL bytes without a line break (``truncate -s 1G``) was read whole as one
    line before its NUL byte was seen (9 s, 2.2 GB), and ``/dev/zero`` until the out-of-memory
    killer came (23.7 GB): the first megabyte now says it."""
    with open(tmp_path / "z", "wb") as handle:
        handle.truncate(2 << 30)  # (sparse: no disk)
    (tmp_path / "t").write_text("a b\n", encoding="utf-8")
    (tmp_path / "g.m2").write_text("S a b\n\n", encoding="utf-8")
    result = subprocess.run([gecmetric_script(), "--no-cache", *args], cwd=tmp_path, capture_output=True, text=True,
                            timeout=TIMEOUT, preexec_fn=_capped(1 << 30))
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
    assert ":1: NUL byte" in result.stderr and ("/dev/zero" in result.stderr or "z:1" in result.stderr), result.stderr


@pytest.mark.parametrize("args", [["rank", "--judgments", "z"], ["rank", "--judgments", "/dev/zero"],
                                  ["gotoscorer", "-ref", "g.m2", "-hyp", "g.m2", "-w_file", "z"]])
def test_judgments_and_weight_files_of_nul_bytes_are_refused_at_their_first_piece(tmp_path: Path, args) -> None:
    """Judgments, para and weight files were read whole before their NUL byte was looked for:
    ``rank --judgments /dev/zero`` ended in 'out of memory' under a 2 GB cap (and the
    out-of-memory killer without one)."""
    with open(tmp_path / "z", "wb") as handle:
        handle.truncate(2 << 30)  # (sparse: no disk)
    (tmp_path / "g.m2").write_text("S a b\n\n", encoding="utf-8")
    result = subprocess.run([gecmetric_script(), "--no-cache", *args], cwd=tmp_path, capture_output=True, text=True,
                            timeout=TIMEOUT, preexec_fn=_capped(1 << 30))
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
    assert ":1: NUL byte" in result.stderr, result.stderr
    code = "from gecmetrics.io.para import read_para\ntry: read_para('z')\nexcept Exception as err: print(repr(err))"
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True,
                            timeout=TIMEOUT, preexec_fn=_capped(1 << 30))
    assert "InputError" in result.stdout and "z:1: NUL byte" in result.stdout, (result.stdout, result.stderr)


@pytest.mark.parametrize("encoding, mark", [("utf-32-le", b"\xff\xfe\0\0"), ("utf-32-be", b"\0\0\xfe\xff"),
                                            ("utf-16-le", b"\xff\xfe"), ("utf-16-be", b"\xfe\xff")])
def test_a_whole_file_read_names_its_byte_order_mark(tmp_path: Path, encoding: str, mark: bytes) -> None:
    """Read a piece at a time up to a NUL, a UTF-32 file must still be told from UTF-16 by its
    whole byte-order mark (FF FE 00 00 holds a NUL at its third byte)."""
    from gecmetrics.io.text import read_lines

    path = tmp_path / "t"
    path.write_bytes(mark + "He go home .\n".encode(encoding))
    name = encoding[:6].upper()
    with pytest.raises(InputError, match=f"{name} text .it starts with a {name} byte-order mark"):
        read_lines(str(path))


@pytest.mark.parametrize("name", ["a" * 251 + ".m2", "é" * 126 + ".m2"])
def test_an_output_name_of_255_bytes_is_written(tmp_path: Path, name: str) -> None:
    """The temporary file's name adds the writer's marks to the output's: a name the shell's
    ``>`` writes (up to 255 bytes) was refused as 'File name too long', blaming its folder."""
    from gecmetrics.io.atomic import atomic_output

    target = tmp_path / name
    assert len(os.fsencode(name)) in (254, 255)
    with atomic_output(str(target)) as handle:
        handle.write("x\n")
    assert target.read_text(encoding="utf-8") == "x\n" and sorted(os.listdir(tmp_path)) == [name]


@pytest.mark.parametrize("args", [["gleu", "-s", "missing", "-r", "missing", "-o", "missing"], ["gleu", "--bogus"]])
def test_an_unwritable_stderr_keeps_the_exit_code_of_bad_input(tmp_path: Path, args) -> None:
    """``2>/dev/full``: the error line is lost, its exit code 2 is kept (a failed echo of the
    line made it 1, as if writing the output had failed)."""
    with open("/dev/full", "w") as full:
        result = subprocess.run([gecmetric_script(), *args], cwd=tmp_path, stdout=subprocess.PIPE, stderr=full,
                                timeout=TIMEOUT)
    assert result.returncode == 2


def test_an_output_inside_a_model_folder_the_run_reads_is_refused(tmp_path: Path) -> None:
    """``--spacy-model DIR -o DIR/meta.json`` replaced the model's meta.json with M2 (exit 0): a
    folder the run reads is an input, and no output goes inside it (before any work)."""
    model = tmp_path / "model"
    model.mkdir()
    (model / "meta.json").write_text("{}", encoding="utf-8")
    (tmp_path / "s").write_text("a b\n", encoding="utf-8")
    for args, flag in ((["m2", "annotate", "-orig", "s", "-cor", "s", "--spacy-model", "model", "-o", "model/meta.json"],
                        "-o"),
                       (["report", "-s", "s", "-r", "s", "-o", "s", "--spacy-model", "model", "--html", "model/p.html"],
                        "--html")):
        result = subprocess.run([gecmetric_script(), "--no-cache", *args], cwd=tmp_path, capture_output=True, text=True,
                                timeout=TIMEOUT)
        assert result.returncode == 2 and f"the output ({flag}) is inside the folder" in result.stderr, result.stderr
    assert (model / "meta.json").read_text(encoding="utf-8") == "{}" and sorted(os.listdir(model)) == ["meta.json"]


def test_folders_and_shipped_files_read_by_name_take_no_output(tmp_path: Path, monkeypatch) -> None:
    """Files the run reads without being given their path were not inputs: an output could
    replace ChERRANT's ``char_meta.txt`` (``data check`` then failed), the meta.json of the spaCy
    model loaded by name (the next run could not load it) or the shipped human table ``--human
    gjg15`` reads. The ChERRANT data folder and the model's folder take no output; the shipped
    table is an input."""
    from gecmetrics.cli.context import check_command_outputs, model_folders
    from gecmetrics.meta.human_tables import human_table_file

    data = tmp_path / "cherrant"
    data.mkdir()
    (data / "char_meta.txt").write_text("x\n", encoding="utf-8")
    (tmp_path / "p.para").write_text(PARA, encoding="utf-8")
    result = subprocess.run([gecmetric_script(), "cherrant", "m2", "-f", "p.para", "-o", str(data / "char_meta.txt"),
                             "--cherrant-data", str(data)], cwd=tmp_path, capture_output=True, text=True,
                            timeout=TIMEOUT)
    assert result.returncode == 2 and "the output (-o) is inside the folder" in result.stderr, result.stderr
    assert (data / "char_meta.txt").read_text(encoding="utf-8") == "x\n"
    model = tmp_path / "model"
    model.mkdir()
    (model / "meta.json").write_text("{}", encoding="utf-8")
    monkeypatch.setenv("GECMETRICS_SPACY_MODEL", str(model))  # (the model a run loads when none is given)
    assert model_folders(None) == [str(model)] and model_folders("no_such_model_name") == []
    with pytest.raises(InputError, match=r"is inside the folder .*model, which the run reads"):
        check_command_outputs([("-o", str(model / "meta.json"))], model_folders(None))
    shipped = human_table_file("gjg15")
    assert shipped is not None and Path(shipped).is_file() and human_table_file("my.tsv") == "my.tsv"
    with pytest.raises(InputError, match=r"the output \(--json\) is also an input"):
        check_command_outputs([("--json", shipped)], [human_table_file("gjg15")])


def test_another_users_file_in_a_sticky_folder_is_refused_before_the_work(tmp_path: Path, monkeypatch) -> None:
    """In a sticky folder (/tmp) a file of another user that this user may write (mode 666) cannot
    be replaced by a rename: the command did all its work, then failed ('Operation not
    permitted') and left a '.NAME.xxxx.old' it could not remove. Refused before the work."""
    from gecmetrics.io import atomic

    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        pytest.skip("making another user's file needs root")
    sticky = tmp_path / "sticky"
    sticky.mkdir()
    sticky.chmod(0o1777)
    (sticky / "other.m2").write_text("theirs\n", encoding="utf-8")
    (sticky / "other.m2").chmod(0o666)
    os.chown(sticky / "other.m2", 1001, 1001)
    monkeypatch.setattr(atomic.os, "geteuid", lambda: 1000)  # (this process as a third user)
    with pytest.raises(InputError, match="it is another user's file in a folder only its owner may replace files in"):
        atomic.check_outputs([("-o", str(sticky / "other.m2"))], [])
    atomic.check_outputs([("-o", str(sticky / "mine.m2"))], [])  # a new name is this user's to make
    os.chown(sticky / "other.m2", 1000, 1000)
    atomic.check_outputs([("-o", str(sticky / "other.m2"))], [])  # this user's own file
