"""What the cache trusts (issue 33): a folder and files only its user can write (made 0700 and
0600), a value of the wrong SQLite type repaired rather than turning the cache off, a warm cache on
a read-only file system still read, and namespaces given by a user checked in one line."""
from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
import subprocess
from pathlib import Path

import pytest

from gecmetrics.core.cache import FILE_NAME, Cache, CacheWarning, cache_key
from gecmetrics.errors import InputError
from tests.conftest import gecmetric_script, one_line_error
from tests.test_cache import NS, cache_warnings, fill, keys_of, value_of

ROOT = os.geteuid() == 0


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return tmp_path / "cache"


@pytest.fixture
def usual_umask():
    previous = os.umask(0o022)
    yield
    os.umask(previous)


def _mode(path: Path | str) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


# ----------------------------------------------------------------------------- wrong types

@pytest.mark.parametrize("column, value", [("value", "'a text, not bytes'"), ("used", "'yesterday'"),
                                           ("crc", "'abc'"), ("flags", "'zlib'"),
                                           ("used", "1.5"), ("value", "42")])
def test_a_value_of_the_wrong_type_is_a_miss_and_repaired(folder: Path, column: str, value: str) -> None:
    cache = Cache(folder)
    fill(cache, range(5))
    cache.close()
    with sqlite3.connect(folder / FILE_NAME) as conn:
        conn.execute(f"UPDATE entries SET {column} = {value} WHERE key = ?", (cache_key("sentence", 2),))
    with pytest.warns(CacheWarning, match="wrong type") as record:
        cache = Cache(folder)
        got = cache.get_many(NS, keys_of(range(5)))
    assert len(cache_warnings(record)) == 1 and cache.enabled
    assert got == {key: value_of(i) for i, key in enumerate(keys_of(range(5))) if i != 2}
    fill(cache, [2])  # the producer stores it again
    cache.close()
    with sqlite3.connect(folder / FILE_NAME) as conn:
        assert conn.execute("SELECT COUNT(*) FROM entries").fetchone()[0] == 5
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error", CacheWarning)  # repaired: no warning on the next run
        assert Cache(folder).get_many(NS, keys_of(range(5))) == {
            key: value_of(i) for i, key in enumerate(keys_of(range(5)))}


UNDECODABLE = "CAST(X'fffe0a41' AS TEXT)"
"""Text that is not UTF-8 (with a newline in it): sqlite3's own decoding raises on it."""


@pytest.mark.parametrize("column", ["value", "used", "crc", "flags"])
def test_undecodable_text_in_a_row_is_a_miss_repaired_with_one_clean_line(folder: Path, column: str) -> None:
    """Such a row turned the whole cache off on every run (sqlite3 failed the read of the chunk)
    and its bytes were printed in the warning; it is one damaged row like any other."""
    fill(Cache(folder), range(10))
    with sqlite3.connect(folder / FILE_NAME) as conn:
        conn.execute(f"UPDATE entries SET {column} = {UNDECODABLE} WHERE id % 3 = 0")
        damaged = conn.execute("SELECT COUNT(*) FROM entries WHERE id % 3 = 0").fetchone()[0]
    messages: list[str] = []
    cache = Cache(folder, on_warning=messages.append)
    assert len(cache.get_many(NS, keys_of(range(10)))) == 10 - damaged and cache.enabled
    assert len(messages) == 1 and damaged > 1 and f"{damaged} cached values in" in messages[0] and "removed" in messages[0]
    assert messages[0].isprintable() and "\ufffd" not in messages[0], messages[0]
    fill(cache, range(10))  # the producer stores them again
    messages = []
    assert len(Cache(folder, on_warning=messages.append).get_many(NS, keys_of(range(10)))) == 10 and not messages


def test_undecodable_text_in_a_key_or_a_name_never_stops_a_read(folder: Path) -> None:
    """A key stored as text is never the key asked for (a blob): a miss; an undecodable
    namespace name or format record is read, not a failure of the whole cache."""
    fill(Cache(folder), range(4))
    with sqlite3.connect(folder / FILE_NAME) as conn:
        conn.execute(f"UPDATE entries SET key = {UNDECODABLE} WHERE key = ?", (cache_key("sentence", 1),))
        conn.execute(f"INSERT INTO namespaces(name) VALUES ({UNDECODABLE})")
        conn.execute("INSERT INTO entries(ns, key, used, crc, flags, value) "
                     "SELECT id, X'00', 5, 0, 0, X'00' FROM namespaces WHERE name != ?", (NS,))
    messages: list[str] = []
    cache = Cache(folder, on_warning=messages.append)
    assert len(cache.get_many(NS, keys_of(range(4)))) == 3 and cache.enabled and not messages
    shown = str(cache.info())
    assert all(line.isprintable() for line in shown.splitlines())
    assert "'\\udcff\\udcfe\\nA'" in shown and len(shown.splitlines()) == 4
    fill(cache, [1])
    assert len(cache.get_many(NS, keys_of(range(4)))) == 4
    cache.close()
    with sqlite3.connect(folder / FILE_NAME) as conn:
        conn.execute(f"UPDATE meta SET value = {UNDECODABLE} WHERE name = 'version'")
    cache = Cache(folder, on_warning=messages.append)
    assert cache.get_many(NS, keys_of(range(4))) == {} and cache.enabled  # moved aside, a fresh one
    assert len(messages) == 1 and "of another cache version" in messages[0] and messages[0].isprintable()


@pytest.mark.parametrize("used", ["'abc'", "99999999999999", "-5", "1.5", UNDECODABLE])
def test_cache_info_shows_a_damaged_time_as_no_use(folder: Path, used: str) -> None:
    """`cache info` (text, JSON, and CacheInfo's str in Python) stopped with a traceback on a
    last-use time that is text or past what a date can show; prune removes such rows."""
    import json

    from tests.conftest import run_cli

    fill(Cache(folder), range(26))
    fill(Cache(folder), range(2), namespace="other/1")
    with sqlite3.connect(folder / FILE_NAME) as conn:
        conn.execute(f"UPDATE entries SET used = {used} WHERE id % 13 = 0")
        conn.execute(f"UPDATE entries SET used = {used} WHERE ns = (SELECT id FROM namespaces WHERE name = 'other/1')")
    info = Cache(folder).info()
    assert info.entries == 28 and info.namespaces["other/1"].last_used is None
    assert "other/1: 2 entries" in str(info) and "last used unknown" in str(info)
    assert json.loads(json.dumps(info.to_dict()))["namespaces"]["other/1"]["last_used"] is None
    code, out, err = run_cli("--cache", str(folder), "cache", "info")
    assert code == 0 and out.startswith(f"cache: {folder}") and err == "", err
    code, out, err = run_cli("--cache", str(folder), "cache", "info", "--json")
    assert code == 0 and json.loads(out)["entries"] == 28, err
    code, out, err = run_cli("--cache", str(folder), "cache", "prune", "--older-than", "30d")
    assert code == 0 and out.startswith("removed 4 entries"), (out, err)  # by age or as damage
    assert Cache(folder).info().entries == 24
    assert Cache(folder).prune(max_size=1) == 24


# ----------------------------------------------------------------------------- permissions

def test_folder_and_files_are_made_private(tmp_path: Path, usual_umask) -> None:
    folder = tmp_path / "new" / "cache"
    cache = Cache(folder)
    fill(cache, range(3))
    assert _mode(folder) == 0o700
    for suffix in ("", "-wal", "-shm", ".lock"):
        assert _mode(str(folder / FILE_NAME) + suffix) == 0o600, suffix
    cache.close()


def test_an_older_readable_file_is_made_private(folder: Path, usual_umask) -> None:
    fill(Cache(folder), range(3))
    os.chmod(folder / FILE_NAME, 0o644)
    assert len(Cache(folder).get_many(NS, keys_of(range(3)))) == 3
    assert _mode(folder / FILE_NAME) == 0o600


def test_a_file_the_cache_file_links_to_keeps_its_mode(tmp_path: Path, usual_umask) -> None:
    """The chmod to 0600 followed a symbolic link: a user file the cache's name pointed to (a
    text, not a database) lost its mode; it is left as it is (the link is moved aside, as any
    file that is no cache)."""
    folder = tmp_path / "cache"
    folder.mkdir(mode=0o700)
    victim = tmp_path / "notes.txt"
    victim.write_text("mine\n", encoding="utf-8")
    os.chmod(victim, 0o644)
    os.symlink(victim, folder / FILE_NAME)
    with pytest.warns(Warning):
        fill(Cache(folder), range(3))
    assert _mode(victim) == 0o644 and victim.read_text(encoding="utf-8") == "mine\n"


@pytest.mark.parametrize("suffix, mode", [("", 0o666), ("", 0o620), ("", 0o602), (".lock", 0o666)])
def test_a_users_file_others_can_write_is_refused_not_made_private(folder: Path, suffix: str, mode: int) -> None:
    """docs/cache.md: a cache file others can write is refused. It was made 0600 and trusted,
    but whatever another user wrote before the chmod would then be read as ours."""
    fill(Cache(folder), range(3))
    name = str(folder / FILE_NAME) + suffix
    os.chmod(name, mode)
    messages: list[str] = []
    cache = Cache(folder, on_warning=messages.append)
    assert cache.get_many(NS, keys_of(range(3))) == {} and not cache.enabled
    assert len(messages) == 1 and f"cache file {name} can be written by other users (mode {mode:o})" in messages[0]
    assert _mode(name) == mode  # left as it is: the user decides (remove it, or chmod go-w)
    os.chmod(name, 0o600)
    assert len(Cache(folder).get_many(NS, keys_of(range(3)))) == 3


def test_a_folder_where_no_file_can_be_made_is_named_so() -> None:
    """/proc exists and its permission bits let root write, but no file can be made there (the
    lock file: ENOENT): the warning said "No such file or directory" of a folder that exists."""
    if not os.path.isdir("/proc") or os.path.exists(f"/proc/{FILE_NAME}"):
        pytest.skip("needs Linux's /proc")
    messages: list[str] = []
    cache = Cache("/proc", on_warning=messages.append)
    assert cache.get_many(NS, keys_of(range(3))) == {} and not cache.enabled
    assert len(messages) == 1 and "cache folder /proc cannot be written" in messages[0], messages
    assert "No such file" not in messages[0]


@pytest.mark.parametrize("mode", [0o777, 0o770, 0o757])
def test_a_folder_others_can_write_is_refused(folder: Path, mode: int) -> None:
    fill(Cache(folder), range(3))  # a well-formed entry someone else could have planted
    os.chmod(folder, mode)
    messages: list[str] = []
    cache = Cache(folder, on_warning=messages.append)
    assert cache.get_many(NS, keys_of(range(3))) == {}
    fill(cache, range(3, 6))
    assert not cache.enabled and len(messages) == 1
    assert "can be written by other users" in messages[0] and str(folder) in messages[0]


def test_the_users_own_sticky_folder_is_used(folder: Path) -> None:
    fill(Cache(folder), range(3))
    os.chmod(folder, 0o1777)
    messages: list[str] = []
    assert len(Cache(folder, on_warning=messages.append).get_many(NS, keys_of(range(3)))) == 3 and not messages


@pytest.mark.skipif(not ROOT, reason="giving a file to another user needs root")
def test_files_or_folders_of_another_user_are_refused(folder: Path) -> None:
    fill(Cache(folder), range(3))
    os.chmod(folder, 0o1777)
    os.chown(folder / FILE_NAME, 4321, 4321)  # planted by user 4321 in a sticky folder
    messages: list[str] = []
    cache = Cache(folder, on_warning=messages.append)
    assert cache.get_many(NS, keys_of(range(3))) == {} and not cache.enabled
    assert len(messages) == 1 and "belongs to another user (uid 4321)" in messages[0]
    os.chown(folder / FILE_NAME, 0, 0)
    os.chmod(folder, 0o755)
    os.chown(folder, 4321, 4321)  # a folder of another user: that user can write it
    messages = []
    assert Cache(folder, on_warning=messages.append).get_many(NS, keys_of(range(3))) == {}
    assert len(messages) == 1 and "owner uid 4321" in messages[0]


# ----------------------------------------------------------------------------- read-only use

@contextlib.contextmanager
def mounted_read_only(source: Path, mounted: Path):
    """``source`` seen at ``mounted`` through a read-only bind mount (root with mount rights only)."""
    if not ROOT:
        pytest.skip("a read-only mount needs root")
    mounted.mkdir()
    if subprocess.run(["mount", "--bind", str(source), str(mounted)], capture_output=True).returncode != 0:
        pytest.skip("cannot bind-mount here (no mount rights)")
    try:
        if subprocess.run(["mount", "-o", "remount,ro,bind", str(mounted)], capture_output=True).returncode != 0:
            pytest.skip("cannot remount read-only here")
        yield mounted
    finally:
        subprocess.run(["umount", "-l", str(mounted)], capture_output=True)  # lazy: a connection may be open


@pytest.fixture
def read_only_copy(tmp_path: Path):
    """A warm cache folder seen through a read-only bind mount."""
    cache = Cache(tmp_path / "cache")
    fill(cache, range(5))
    cache.close()
    with mounted_read_only(tmp_path / "cache", tmp_path / "ro") as mounted:
        yield mounted


def test_a_warm_cache_on_a_read_only_file_system_is_read(read_only_copy: Path) -> None:
    assert sorted(p.name for p in read_only_copy.iterdir()) == [FILE_NAME, FILE_NAME + ".lock"]  # no -wal, -shm
    messages: list[str] = []
    cache = Cache(read_only_copy, on_warning=messages.append)
    assert cache.get_many(NS, keys_of(range(5))) == {key: value_of(i) for i, key in enumerate(keys_of(range(5)))}
    fill(cache, range(5, 8))
    assert cache.get_many(NS, keys_of(range(5, 8))) == {}
    info = cache.info()
    assert cache.enabled and cache.read_only and info.enabled and info.entries == 5
    assert cache.clear() == 0
    assert len(messages) == 1 and "cannot be written: cached values are used" in messages[0]


def test_cache_info_on_a_read_only_file_system(read_only_copy: Path) -> None:
    result = subprocess.run([gecmetric_script(), "--cache", str(read_only_copy), "cache", "info", "--json"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and '"entries": 5' in result.stdout, result.stderr
    assert len(result.stderr.splitlines()) == 1 and "cannot be written" in result.stderr


@pytest.mark.parametrize("command", [["clear"], ["prune", "--max-size", "1"]])
def test_clearing_a_read_only_cache_is_an_error_not_zero_removed(read_only_copy: Path, command: list) -> None:
    """``cache clear`` and ``cache prune`` on a cache that cannot be written said "removed 0
    entries", exit 0, with its five entries still there: a failure, exit 1, saying why."""
    result = subprocess.run([gecmetric_script(), "--cache", str(read_only_copy), "cache", *command],
                            capture_output=True, text=True, timeout=120)
    assert (result.returncode, result.stdout) == (1, ""), result
    assert result.stderr.splitlines()[-1] == (f"gecmetric: error: cache {command[0]}: the cache "
                                              f"{read_only_copy / FILE_NAME} cannot be written (read-only): nothing "
                                              "was removed"), result.stderr
    assert Cache(read_only_copy).info().entries == 5


def test_a_warm_errant_cache_on_a_read_only_file_system_spares_spacy(tmp_path: Path, spacy_model) -> None:
    """ERRANT's parses from a warm cache that cannot be written: the run does not even import
    spaCy (here it cannot: a stand-in package refuses), prints the same table, and says once
    that nothing new is stored."""
    from tests.conftest import SPACY_TEST_MODEL

    (tmp_path / "src").write_text("He go home .\nShe like apple .\n", encoding="utf-8")
    (tmp_path / "hyp").write_text("He goes home .\nShe likes apples .\n", encoding="utf-8")
    root = Path(__file__).resolve().parent.parent
    command = [gecmetric_script(), "--cache", "CACHE", "errant", "-s", "src", "-r", "hyp", "--annotate-refs", "-o",
               "hyp", "src", "--spacy-model", SPACY_TEST_MODEL]
    env = {**os.environ, "PYTHONPATH": str(root)}
    warm = subprocess.run([str(tmp_path / "cache") if a == "CACHE" else a for a in command], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert warm.returncode == 0 and warm.stderr == "", warm.stderr
    (tmp_path / "no-spacy" / "spacy").mkdir(parents=True)
    (tmp_path / "no-spacy" / "spacy" / "__init__.py").write_text("raise ImportError('spaCy is not to be imported')\n")
    with mounted_read_only(tmp_path / "cache", tmp_path / "ro") as mounted:
        env["PYTHONPATH"] = f"{tmp_path / 'no-spacy'}{os.pathsep}{root}"
        again = subprocess.run([str(mounted) if a == "CACHE" else a for a in command], cwd=tmp_path, env=env,
                               capture_output=True, text=True, timeout=300)
    assert again.returncode == 0 and again.stdout == warm.stdout, again.stderr
    assert again.stderr.count("\n") == 1 and "cannot be written: cached values are used" in again.stderr


@pytest.mark.skipif(ROOT, reason="root writes in any folder")
def test_a_read_only_folder_is_read(folder: Path) -> None:
    fill(Cache(folder), range(3))
    os.chmod(folder, 0o555)
    try:
        messages: list[str] = []
        cache = Cache(folder, on_warning=messages.append)
        assert len(cache.get_many(NS, keys_of(range(3)))) == 3 and cache.read_only and len(messages) == 1
    finally:
        os.chmod(folder, 0o755)


# ----------------------------------------------------------------------------- namespaces

@pytest.mark.parametrize("namespace", ["", "a\nb", "x" * 1001, "tab\there"])
def test_cache_clear_refuses_a_bad_namespace_in_one_line(tmp_path: Path, namespace: str) -> None:
    err = one_line_error("--cache", str(tmp_path / "c"), "cache", "clear", "--namespace", namespace)
    assert "is not a namespace: 1 to 1000 printable characters" in err and len(err) < 300, err
    with pytest.raises(InputError, match="not a namespace"):
        Cache(tmp_path / "c").clear(namespace)


# ----------------------------------------------------------------------------- spaCy fingerprints

def _spacy_folder(root: Path) -> Path:
    """A model folder as spaCy reads one: meta.json, config.cfg, a component folder (here a link
    to a folder elsewhere, as a user sharing weights between models makes one) with weights
    larger than SMALL_FILE."""
    from gecmetrics.core.lang.en.modelid import SMALL_FILE

    model = root / "model"
    model.mkdir()
    (model / "meta.json").write_text('{"lang": "en", "name": "test", "version": "1.0", "pipeline": ["parser"]}')
    (model / "config.cfg").write_text("[nlp]\nlang = \"en\"\n")
    for name in ("parser-a", "parser-b"):
        (root / name).mkdir()
        (root / name / "cfg").write_text("{}")
        (root / name / "model").write_bytes(name.encode() * (SMALL_FILE // 4))
        os.utime(root / name / "model", ns=(10**18, 10**18))  # same size and time in both
    os.symlink(root / "parser-a", model / "parser")
    return model


def test_spacy_fingerprint_follows_linked_component_folders(tmp_path: Path) -> None:
    from gecmetrics.core.lang.en import modelid

    model = _spacy_folder(tmp_path)
    first = modelid._identity(str(model))
    assert first is not None
    assert {p.relative_to(model).as_posix() for p in modelid._model_files(model)} == {
        "meta.json", "config.cfg", "parser/cfg", "parser/model"}
    weights = tmp_path / "parser-a" / "model"
    weights.write_bytes(b"retrained" + weights.read_bytes()[9:])  # retrained in place: same size
    retrained = modelid._identity(str(model))
    assert retrained is not None and retrained.fingerprint != first.fingerprint
    os.utime(weights, ns=(10**18, 10**18))
    (model / "parser").unlink()
    os.symlink(tmp_path / "parser-b", model / "parser")  # pointed at other weights of the same size and time
    other = modelid._identity(str(model))
    assert other is not None and other.fingerprint not in (first.fingerprint, retrained.fingerprint)
    os.symlink(model, model / "parser-b-loop")  # a link to an ancestor is walked once
    assert modelid._identity(str(model)) is not None


def test_cache_info_prints_a_path_holding_a_newline_escaped(tmp_path: Path, monkeypatch) -> None:
    """`cache info` printed the cache's path as it is: a newline in a folder's name broke its
    line (and a file in the way gave a two-line error); it is escaped, as a damaged namespace's name."""
    from tests.conftest import run_cli

    folder = tmp_path / "a\nb"
    fill(Cache(folder), range(3))
    code, out, err = run_cli("--cache", str(folder), "cache", "info")
    assert code == 0 and err == "", err
    lines = out.splitlines()
    assert lines[0] == f"cache: {ascii(str(folder / FILE_NAME))}" and "\\n" in lines[0]
    assert lines[1].startswith("size on disk: ") and len(lines) == 3  # (and the namespace's line)
    code, out, err = run_cli("--cache", str(tmp_path), "cache", "info")
    assert code == 0 and out.startswith(f"cache: {tmp_path / FILE_NAME}\n")  # a printable path as it is
    blocker = tmp_path / "c\nd"
    blocker.write_text("", encoding="utf-8")
    error = one_line_error("--cache", str(blocker / "sub"), "cache", "info")
    assert f"cannot use cache folder {ascii(str(blocker / 'sub'))}: {ascii(str(blocker))} is a file" in error
    monkeypatch.setenv("GECMETRICS_CACHE", "off\n")  # (why it is off: printed on one line too)
    assert run_cli("cache", "info") == (0, "cache: off (disabled ($GECMETRICS_CACHE=off ))\n", "")


def test_cache_commands_count_one_entry_as_one_entry(tmp_path: Path) -> None:
    """`cache info`, `clear` and `prune` printed "1 entries"."""
    from tests.conftest import run_cli

    fill(Cache(tmp_path), range(1))
    code, out, err = run_cli("--cache", str(tmp_path), "cache", "info")
    assert code == 0 and ", 1 entry, last used " in out.splitlines()[1] and ": 1 entry, " in out.splitlines()[2], out
    assert run_cli("--cache", str(tmp_path), "cache", "clear")[1].startswith("removed 1 entry; ")
    fill(Cache(tmp_path), range(2))
    assert run_cli("--cache", str(tmp_path), "cache", "prune", "--max-size", "0")[1].startswith("removed 2 entries; ")
