"""ChERRANT's para files (gecmetrics.io.para) and its data files (gecmetrics.core.lang.zh.data):
reading as ChERRANT does, errors with file and line, the folder lookup, checksums and the fetch
(with a fake download: the tests never download)."""
from __future__ import annotations

import hashlib
import http.client
import sys
import os
from pathlib import Path

import numpy as np
import pytest

from gecmetrics.core.lang.zh import data as zh_data
from gecmetrics.errors import InputError
from gecmetrics.io.para import ParaRecord, para_batches, parse_para, read_para

# --------------------------------------------------------------------------- para files


def test_para_lines_as_cherrant_reads_them() -> None:
    text = "\n\n1\t因为 在\t即使在\t即使，在\n2\t我\t我。\t\n"
    records = parse_para(text, "x.para")
    # the whole text is stripped: the leading blank lines and the last line's empty field go
    assert records == [ParaRecord("1", "因为 在", ("即使在", "即使，在"), 3), ParaRecord("2", "我", ("我。",), 4)]


def test_para_crlf_and_byte_order_mark() -> None:
    records = parse_para("\ufeff1\t甲\t乙\r\n2\t丙\t丁\r\n", "x")
    assert [r.targets for r in records] == [("乙",), ("丁",)]  # (read in text mode, as ChERRANT reads it)


def test_para_a_lone_cr_ends_a_line_as_in_python_text_mode() -> None:
    """ChERRANT reads para files in text mode, where a lone CR ends a line: two sentences joined by
    one were read as one record with three targets (its M2 written as one block, silently)."""
    records = parse_para("1\t甲\t乙\r2\t丙\t丁。\n3\t戊\t己\r", "x")
    assert [(r.source, r.targets, r.line) for r in records] == [("甲", ("乙",), 1), ("丙", ("丁。",), 2),
                                                                 ("戊", ("己",), 3)]
    with pytest.raises(InputError, match="^x:2: .*found 2 tab-separated fields"):
        parse_para("1\t甲\t乙\r\t丙\n", "x")  # (ChERRANT: an IndexError)


@pytest.mark.parametrize("text, line, message", [
    ("1\t甲\t乙\n2\t丙\n", 2, "found 2 tab-separated fields"),
    ("1\t甲\t乙\n2\n", 2, "found 1 tab-separated field"),
    ("1\t甲\t乙\n\n2\t丙\t丁\n", 2, "blank line between sentences"),
    ("1\t \t乙\n", 1, "the source is empty"),
    ("1\t甲\t乙\t \t丙\n", 1, "target 2 is empty"),
    ("1\t甲\t\t丙\n", 1, "target 1 is empty"),
])
def test_para_errors_name_file_and_line(text: str, line: int, message: str) -> None:
    with pytest.raises(InputError, match=f"^x.para:{line}: .*{message}"):
        parse_para(text, "x.para")


def test_para_file_errors(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        read_para(tmp_path / "missing.para")
    with pytest.raises(InputError, match="is a directory"):
        read_para(tmp_path)
    bad = tmp_path / "bad.para"
    bad.write_bytes("1\t甲\t乙\n2\t".encode() + b"\xff\t\xe4\n")
    with pytest.raises(InputError, match=r"bad.para:2: invalid UTF-8"):
        read_para(bad)
    empty = tmp_path / "empty.para"
    empty.write_text(" \n\n", encoding="utf-8")
    with pytest.raises(InputError, match="no sentences"):
        read_para(empty)
    good = tmp_path / "good.para"
    good.write_text("7\t甲\t乙\t丙", encoding="utf-8")
    assert read_para(good) == [ParaRecord("7", "甲", ("乙", "丙"), 1)]
    with pytest.raises(InputError, match="expected the text"):
        parse_para(b"1\t2\t3", "x")  # type: ignore[arg-type]


def _streamed(path: Path, batch: int) -> list[ParaRecord] | str:
    try:
        return [record for records in para_batches(path, batch) for record in records]
    except InputError as err:
        return str(err)


def _whole(path: Path) -> list[ParaRecord] | str:
    try:
        return read_para(path)
    except InputError as err:
        return str(err)


def test_para_read_a_batch_at_a_time_is_read_as_whole(tmp_path: Path) -> None:
    """para_batches (cherrant m2: a file of any size in a batch's memory) gives read_para's
    records, or its error, on random files of tabs, line ends (CR LF, lone CR), whitespace
    (Unicode's too), byte-order marks, NUL bytes and invalid UTF-8."""
    pieces = ["1", "甲", "乙 丙", "\t", "\t", "\n", "\n", "\r", "\r\n", " ", "\u2028", "\x85", "\ufeff"]
    rng = np.random.default_rng(5)
    path = tmp_path / "x.para"
    for trial in range(1500):
        data = "".join(rng.choice(pieces, int(rng.integers(0, 40)))).encode()
        if trial % 3:   # mostly well-formed lines, with a fault now and then
            lines = ["\t".join(rng.choice(["1", "甲", "乙 丙", " ", "", "\u2028"], int(rng.integers(3, 5)),
                                           p=[0.3, 0.3, 0.3, 0.04, 0.03, 0.03]))
                     for _ in range(int(rng.integers(1, 8)))]
            breaks = rng.choice(["\n", "\r\n", "\r", "\n\t\n", "\n\n"], p=[0.4, 0.2, 0.2, 0.1, 0.1])
            data = (rng.choice(["", "\ufeff", "\n \n", " \t"]) + breaks.join(lines)
                    + rng.choice(["", "\n", " \n\n", "\t", "\r"])).encode()
        if trial % 17 == 0:
            at = int(rng.integers(0, len(data) + 1))
            data = data[:at] + rng.choice([b"\0", b"\xff", b"\xff\xfe"]) + data[at:]
        path.write_bytes(data)
        whole = _whole(path)
        for batch in (1, 3, 1000):
            streamed = _streamed(path, batch)
            if isinstance(whole, list) or not (b"\0" in data or b"\xff" in data):
                assert streamed == whole, (data, batch)
            else:   # a NUL byte or invalid UTF-8: found where the reading gets to it
                assert isinstance(streamed, str), (data, batch)
    with pytest.raises(InputError, match="batch must be"):
        next(para_batches(path, 0))


# --------------------------------------------------------------------------- data files


def test_cilin_and_confusion_are_read_as_cherrant_reads_them() -> None:
    assert zh_data.parse_cilin("Aa01A01= 人 士\nAa01A02= 人 人类\n") == {"人": "Aa01A02=", "士": "Aa01A01=",
                                                                    "人类": "Aa01A02="}
    confusion = zh_data.parse_confusion("一 倚 社 \n丁 争\n一 三\n")
    assert confusion == {"一": frozenset({"三"}), "丁": frozenset({"争"})}


def test_locate_data_prefers_the_argument_then_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                                ) -> None:
    given, configured = tmp_path / "given", tmp_path / "configured"
    for folder in (given, configured):
        folder.mkdir()
        for name in zh_data.CHAR_LEVEL_FILES:
            (folder / name).write_text("x", encoding="utf-8")
    monkeypatch.setenv(zh_data.ENVIRONMENT_VARIABLE, str(configured))
    assert zh_data.locate_data(given) == given
    assert zh_data.locate_data() == configured
    monkeypatch.setenv(zh_data.ENVIRONMENT_VARIABLE, str(tmp_path / "nowhere"))
    with pytest.raises(InputError, match=r"GECMETRICS_CHERRANT_DATA.*data fetch cherrant"):
        zh_data.locate_data()
    with pytest.raises(InputError, match="must be a path"):
        zh_data.locate_data(3)  # type: ignore[arg-type]


def test_default_folder_without_platformdirs(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(zh_data.ENVIRONMENT_VARIABLE, raising=False)
    monkeypatch.setitem(sys.modules, "platformdirs", None)  # import fails
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert zh_data.data_folder() == tmp_path / "gecmetrics" / "cherrant"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert zh_data.default_data_folder() == Path.home() / ".local" / "share" / "gecmetrics" / "cherrant"


def test_shared_copy_has_the_published_checksums(shared_data: Path) -> None:
    folder = shared_data / "cherrant"
    assert zh_data.verify_data(folder) == {}
    loaded = zh_data.load_data(folder)
    assert loaded.matches_published
    assert loaded.semantic_codes["全人类"] == "Aa01A02="  # a word of the first lines
    assert zh_data.load_data(folder) is loaded  # read once per process


def test_fetch_checks_every_file_and_never_writes_a_wrong_one(tmp_path: Path, shared_data: Path) -> None:
    source = shared_data / "cherrant"
    asked: list[str] = []

    def fake_download(url: str, timeout: float) -> bytes:
        asked.append(url)
        return (source / url.rsplit("/", 1)[1]).read_bytes()

    folder = zh_data.fetch_data(tmp_path / "cherrant", download=fake_download)
    assert sorted(p.name for p in folder.iterdir()) == sorted(zh_data.CHECKSUMS)
    umask = os.umask(0)
    os.umask(umask)
    # written as every output is (io.atomic): a new file has the usual permissions, not mkstemp's 0600
    assert {p.stat().st_mode & 0o777 for p in folder.iterdir()} == {0o666 & ~umask}
    assert zh_data.verify_data(folder) == {}
    assert all(url.startswith("https://") and zh_data.CHERRANT_COMMIT in url for url in asked)
    zh_data.fetch_data(folder, download=fake_download)  # all present and right: nothing asked
    assert len(asked) == len(zh_data.CHECKSUMS)
    # an edited copy is kept, never replaced without overwrite (force); a file in the way of the folder is named
    (folder / zh_data.CILIN).write_bytes(b"my edited cilin\n")
    with pytest.raises(InputError, match=r"cilin.txt differs from ChERRANT's published files .*: kept; --force"):
        zh_data.fetch_data(folder, download=fake_download)
    assert (folder / zh_data.CILIN).read_bytes() == b"my edited cilin\n" and len(asked) == len(zh_data.CHECKSUMS)
    zh_data.fetch_data(folder, overwrite=True, download=fake_download)
    assert zh_data.verify_data(folder) == {}
    (tmp_path / "afile").write_text("keep\n")
    for inside in ("", "sub"):  # (said 'File exists', 'Not a directory')
        with pytest.raises(InputError, match=r"afile.*: cannot make the data folder: \S*afile is a file, not a folder"):
            zh_data.fetch_data(tmp_path / "afile" / inside, download=fake_download)
    assert (tmp_path / "afile").read_text() == "keep\n"

    def corrupt(url: str, timeout: float) -> bytes:
        return b"not the file"

    other = tmp_path / "other"
    with pytest.raises(InputError, match="SHA-256"):
        zh_data.fetch_data(other, download=corrupt)
    assert not other.exists()  # nothing written, and the folder it made is gone

    def offline(url: str, timeout: float) -> bytes:
        raise OSError("network unreachable")

    with pytest.raises(InputError, match="cannot download"):
        zh_data.fetch_data(tmp_path / "third", download=offline)
    assert hashlib.sha256(b"").hexdigest() not in zh_data.CHECKSUMS.values()


@pytest.mark.parametrize("error", [
    http.client.IncompleteRead(b"abc", 100),  # the connection dropped mid-file
    http.client.BadStatusLine("\x00garbage\n"),  # a proxy's answer
    ValueError("unknown url type: 'x'"),
])
def test_a_broken_download_is_one_input_error(tmp_path: Path, error: Exception) -> None:
    """Only OSError was caught: a dropped connection (http.client's IncompleteRead, BadStatusLine)
    ended in a traceback, and the folder made for the files stayed behind, empty."""
    def broken(url: str, timeout: float) -> bytes:
        raise error

    with pytest.raises(InputError, match=r"^cannot download https://\S+: \S") as raised:
        zh_data.fetch_data(tmp_path / "new" / "cherrant", download=broken)
    assert str(raised.value).isprintable() and type(error).__name__ in str(raised.value)
    assert not (tmp_path / "new").exists()  # both folders it made are gone


def test_a_failed_fetch_keeps_a_folder_it_did_not_make_and_the_files_it_checked(
        tmp_path: Path, shared_data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = shared_data / "cherrant"
    monkeypatch.chdir(tmp_path)  # where an empty folder name fetched into

    def first_file_only(url: str, timeout: float) -> bytes:
        if not url.endswith(zh_data.CILIN):
            raise OSError("network unreachable")
        return (source / zh_data.CILIN).read_bytes()

    def offline(url: str, timeout: float) -> bytes:
        raise OSError("network unreachable")

    made = tmp_path / "made"
    with pytest.raises(InputError, match="cannot download .*: network unreachable"):
        zh_data.fetch_data(made, download=first_file_only)
    assert [p.name for p in made.iterdir()] == [zh_data.CILIN]  # a checked file is kept, with its folder
    existing = tmp_path / "existing"
    existing.mkdir()
    with pytest.raises(InputError, match="cannot download"):
        zh_data.fetch_data(existing, download=offline)
    assert existing.is_dir()
    with pytest.raises(InputError, match="empty name"):
        zh_data.fetch_data("", download=first_file_only)
    assert not (tmp_path / zh_data.CILIN).exists()


def test_data_commands_refuse_an_empty_folder_and_a_file_as_the_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                                       ) -> None:
    """`data fetch cherrant --to ''` fetched into the current folder; a file named by
    $GECMETRICS_CHERRANT_DATA made `data check` report every file missing."""
    from tests.conftest import one_line_error

    monkeypatch.chdir(tmp_path)
    assert one_line_error("data", "fetch", "cherrant", "--to", "") == "gecmetric: error: --to: empty folder name\n"
    assert one_line_error("data", "check", "cherrant", "--from", " ") == "gecmetric: error: --from: empty folder name\n"
    assert list(tmp_path.iterdir()) == []
    afile = tmp_path / "afile"
    afile.write_text("not a folder\n", encoding="utf-8")
    monkeypatch.setenv(zh_data.ENVIRONMENT_VARIABLE, str(afile))
    assert one_line_error("data", "check", "cherrant") == (
        f"gecmetric: error: {afile}: ${zh_data.ENVIRONMENT_VARIABLE}: not a folder\n")
