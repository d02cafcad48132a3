"""The persistent cache (gecmetrics.core.cache): keys, value packing, cold/warm/disabled use,
damaged and foreign files, several processes writing at once, pruning, unusable folders."""
from __future__ import annotations

import multiprocessing
import os
import pickle
import random
import sqlite3
import threading
import time
import warnings
from datetime import timedelta
from pathlib import Path

import numpy as np
import pytest

from gecmetrics.core import cache as cache_module
from gecmetrics.core.cache import (
    FILE_NAME, Cache, CacheWarning, cache_key, format_size, pack_array, pack_arrays,
    pack_json, parse_age, parse_size, resolve_cache_folder, unpack_array,
    unpack_arrays, unpack_json,
)
from gecmetrics.errors import InputError
from tests.conftest import run_cli

NS = "test/producer/1"


def value_of(i: int, size: int = 40) -> bytes:
    """A value that depends on its key's number, so a wrong answer is seen."""
    seed = f"value {i} ".encode()
    return (seed * (size // len(seed) + 1))[:size]


def keys_of(numbers) -> list[bytes]:
    return [cache_key("sentence", i) for i in numbers]


def fill(cache: Cache, numbers, size: int = 40, namespace: str = NS) -> None:
    cache.put_many(namespace, {cache_key("sentence", i): value_of(i, size) for i in numbers})


def cache_warnings(record) -> list[str]:
    return [str(w.message) for w in record if issubclass(w.category, CacheWarning)]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return tmp_path / "cache"


# ---------------------------------------------------------------------------------------------
# keys and values

def test_cache_key_is_a_length_prefixed_typed_digest():
    assert len(cache_key("a")) == 32
    assert cache_key("ab", "c") == cache_key("ab", "c")
    distinct = {cache_key("ab", "c"), cache_key("a", "bc"), cache_key(b"ab", "c"), cache_key("abc"),
                cache_key("1"), cache_key(1), cache_key(), cache_key("")}
    assert len(distinct) == 8
    with pytest.raises(InputError):
        cache_key(1.5)
    with pytest.raises(InputError):
        cache_key(True)


def test_json_values_round_trip_and_garbage_is_a_value_error():
    value = {"answer": "Ünïcode ✓", "scores": [1, 2.5, None], "ok": True}
    assert unpack_json(pack_json(value)) == value
    with pytest.raises(ValueError):
        unpack_json(b"\xff\xfe not json")
    # a lone surrogate (JSON replies can hold one) has no UTF-8: kept as its escape, read back the same
    assert unpack_json(pack_json({"a": "\ud800 é"})) == {"a": "\ud800 é"}
    nested: list = []
    for _ in range(100_000):
        nested = [nested]
    with pytest.raises(ValueError, match="nested too deeply"):  # not a RecursionError from deep in json
        pack_json(nested)
    with pytest.raises(ValueError, match="nested too deeply"):
        unpack_json(b"[" * 100_000 + b"]" * 100_000)


def test_arrays_round_trip_with_dtype_byte_order_and_shape():
    arrays = [np.arange(12, dtype="<f4").reshape(3, 4), np.array([True, False]), np.zeros((0, 3)),
              np.arange(5, dtype=">i8"), np.array(3.5), np.arange(6, dtype=np.complex64).reshape(2, 3)[:, ::2]]
    back = unpack_arrays(pack_arrays(arrays))
    assert len(back) == len(arrays)
    for original, restored in zip(arrays, back):
        assert restored.dtype == original.dtype and restored.shape == original.shape
        np.testing.assert_array_equal(restored, original)
    assert not back[0].flags.writeable
    assert unpack_arrays(pack_arrays(arrays), copy=True)[0].flags.writeable
    single = unpack_array(pack_array(np.array([[1, 2]], dtype=np.uint16)))
    np.testing.assert_array_equal(single, [[1, 2]])


def test_arrays_refuse_objects_and_bad_bytes():
    with pytest.raises(InputError):
        pack_arrays([np.array(["text"], dtype=object)])
    data = pack_arrays([np.arange(10.0)])
    for bad in (b"", b"nonsense", data[:-1], data + b"x", data.replace(b"<f8", b"|O8")):
        with pytest.raises(ValueError):
            unpack_arrays(bad)
    with pytest.raises(ValueError):
        unpack_array(pack_arrays([np.arange(2), np.arange(3)]))


def test_the_value_helpers_check_their_arguments():
    """unpack_json(None) (a miss passed on), unpack_json("text"), unpack_arrays(None) and
    pack_arrays(None) or of a number raised TypeError; unpack_arrays(3) read three zero bytes, and
    copy="no" copied: each is now one InputError naming the function or the argument."""
    for call in (lambda: unpack_json(None), lambda: unpack_json("[1]"), lambda: unpack_arrays(None),
                 lambda: unpack_arrays(3), lambda: unpack_array(None), lambda: pack_arrays(None),
                 lambda: pack_arrays(3), lambda: pack_arrays(array for array in [np.arange(2)]),
                 lambda: unpack_arrays(pack_arrays([np.arange(2)]), copy="no")):
        with pytest.raises(InputError):
            call()
    assert unpack_json(bytearray(b"[1]")) == [1] and unpack_json(memoryview(b"[2]")) == [2]
    np.testing.assert_array_equal(unpack_arrays(pack_arrays(np.arange(6).reshape(2, 3)))[1], [3, 4, 5])


# ---------------------------------------------------------------------------------------------
# cold, warm, disabled

def test_cold_then_warm_in_a_new_instance(folder: Path):
    with warnings.catch_warnings():
        warnings.simplefilter("error", CacheWarning)
        cold = Cache(folder)
        assert cold.get_many(NS, keys_of(range(10))) == {}
        fill(cold, range(5000))  # more than one chunk of keys and of rows
        cold.close()
        warm = Cache(folder)
        asked = keys_of(range(-10, 5010)) + keys_of(range(3))  # misses and duplicates
        got = warm.get_many(NS, asked)
        assert len(got) == 5000
        assert all(got[key] == value_of(i) for i, key in zip(range(5000), keys_of(range(5000))))
        assert warm.get_many("other/namespace", keys_of(range(10))) == {}
        assert (folder / FILE_NAME).is_file()
        if os.name == "posix":
            assert folder.stat().st_mode & 0o077 == 0  # only the owner reads the texts kept here


def test_large_values_are_read_in_smaller_chunks(folder: Path, monkeypatch):
    monkeypatch.setattr(cache_module, "MAX_CHUNK_BYTES", 200_000)
    cache = Cache(folder)
    fill(cache, range(300), size=20_000)
    sizes = []
    original = cache._read_chunk
    monkeypatch.setattr(cache, "_read_chunk", lambda ns, keys, stale: sizes.append(len(keys)) or original(ns, keys, stale))
    got = dict(cache.iter_many(NS, keys_of(range(300))))
    assert len(got) == 300 and got[cache_key("sentence", 7)] == value_of(7, 20_000)
    assert max(sizes[1:]) <= 16  # after the first chunk: about MAX_CHUNK_BYTES per chunk


def test_overwrite_and_bytes_like_values(folder: Path):
    cache = Cache(folder)
    key = cache_key("x")
    cache.put_many(NS, {key: bytearray(b"first")})
    cache.put_many(NS, [(memoryview(key), memoryview(b"second"))])
    assert cache.get_many(NS, [key]) == {key: b"second"}
    with pytest.raises(InputError):
        cache.put_many(NS, {key: "text is not bytes"})
    with pytest.raises(InputError):
        cache.get_many(NS, ["text key"])
    with pytest.raises(ValueError):
        cache.get_many("", [key])


def test_compressible_values_are_stored_compressed(folder: Path):
    cache = Cache(folder)
    text = {cache_key("text", i): value_of(i, 5000) for i in range(20)}
    noise = random.Random(3)
    binary = {cache_key("noise", i): noise.randbytes(5000) for i in range(20)}
    cache.put_many("text/1", text)
    cache.put_many("noise/1", binary)
    cache.put_many("plain/1", text, compress=False)
    info = cache.info().namespaces
    assert info["text/1"].stored_bytes < 20 * 5000 / 10
    assert info["noise/1"].stored_bytes == info["plain/1"].stored_bytes == 20 * (32 + 5000)
    fresh = Cache(folder)
    assert fresh.get_many("text/1", list(text)) == text == fresh.get_many("plain/1", list(text))
    assert fresh.get_many("noise/1", list(binary)) == binary


def test_disabled_cache_stores_and_returns_nothing(folder: Path):
    cache = Cache(folder, enabled=False)
    fill(cache, range(10))
    assert cache.get_many(NS, keys_of(range(10))) == {}
    assert not cache.enabled and not folder.exists()
    info = cache.info()
    assert not info.enabled and info.entries == 0 and "off" in str(info)
    assert cache.clear() == 0 and cache.prune(max_size="1GB") == 0


def test_location_from_argument_environment_and_platformdirs(folder: Path, monkeypatch, tmp_path: Path):
    import platformdirs

    monkeypatch.setenv("GECMETRICS_CACHE", str(tmp_path / "from-env"))
    assert resolve_cache_folder() == tmp_path / "from-env"
    assert resolve_cache_folder(folder) == folder  # --cache DIR wins over the variable
    for off in ("off", "OFF", "0", "none", "disabled"):
        monkeypatch.setenv("GECMETRICS_CACHE", off)
        assert resolve_cache_folder() is None
        assert not Cache().enabled
    monkeypatch.setenv("GECMETRICS_CACHE", "")  # empty counts as unset
    assert resolve_cache_folder() == Path(platformdirs.user_cache_dir("gecmetrics", appauthor=False))
    with pytest.raises(InputError):
        resolve_cache_folder("  ")


def test_pickled_cache_reopens_the_same_file(folder: Path):
    cache = Cache(folder)
    fill(cache, range(3))
    copy = pickle.loads(pickle.dumps(cache))
    assert copy.path == cache.path
    assert len(copy.get_many(NS, keys_of(range(3)))) == 3
    assert not pickle.loads(pickle.dumps(Cache(folder, enabled=False))).enabled


def test_a_pickled_cache_names_its_folder_absolute(tmp_path: Path, monkeypatch):
    """A cache of a relative folder (--cache DIR) sent to a worker that runs elsewhere (a Dask
    worker; an attribution part carries its annotator's cache) named another folder there."""
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path)
    sent = pickle.dumps(Cache("relative"))
    monkeypatch.chdir(tmp_path / "elsewhere")
    assert pickle.loads(sent).folder == tmp_path / "relative"


# ---------------------------------------------------------------------------------------------
# damaged, truncated and foreign files

def test_random_bytes_file_is_moved_aside_with_one_warning(folder: Path):
    folder.mkdir()
    (folder / FILE_NAME).write_bytes(random.Random(1).randbytes(50_000))
    with pytest.warns(CacheWarning) as record:
        cache = Cache(folder)
        assert cache.get_many(NS, keys_of(range(5))) == {}
        fill(cache, range(5))
        assert len(cache.get_many(NS, keys_of(range(5)))) == 5
        cache.info()
    messages = cache_warnings(record)
    assert len(messages) == 1 and "not an SQLite file" in messages[0]
    assert (folder / (FILE_NAME + ".bad")).is_file() and cache.enabled


def test_truncated_file_is_detected_and_rebuilt(folder: Path):
    cache = Cache(folder)
    fill(cache, range(3000), size=200)
    cache.close()
    path = folder / FILE_NAME
    assert not Path(str(path) + "-wal").exists() or os.path.getsize(str(path) + "-wal") == 0
    with open(path, "r+b") as handle:
        handle.truncate(os.path.getsize(path) // 2)
    with pytest.warns(CacheWarning) as record:
        cache = Cache(folder)
        got = cache.get_many(NS, keys_of(range(3000)))
    assert got == {}  # nothing from the truncated file is trusted
    messages = cache_warnings(record)
    assert len(messages) == 1 and "damaged" in messages[0]
    fill(cache, range(10))
    assert len(Cache(folder).get_many(NS, keys_of(range(10)))) == 10


def test_short_file_is_not_trusted(folder: Path):
    folder.mkdir()
    (folder / FILE_NAME).write_bytes(b"SQLite format 3\x00 but cut")
    with pytest.warns(CacheWarning):
        assert Cache(folder).get_many(NS, keys_of(range(3))) == {}


@pytest.mark.parametrize("change, expected", [
    ("UPDATE meta SET value = '2' WHERE name = 'version'", "another cache version"),
    ("UPDATE meta SET value = 'someone-else' WHERE name = 'format'", "foreign"),
    ("DROP TABLE meta", "foreign"),
])
def test_foreign_version_or_format_is_rebuilt(folder: Path, change: str, expected: str):
    cache = Cache(folder)
    fill(cache, range(20))
    cache.close()
    with sqlite3.connect(folder / FILE_NAME) as conn:
        conn.execute(change)
    with pytest.warns(CacheWarning) as record:
        cache = Cache(folder)
        assert cache.get_many(NS, keys_of(range(20))) == {}
        fill(cache, range(3))
        assert len(cache.get_many(NS, keys_of(range(3)))) == 3
    messages = cache_warnings(record)
    assert len(messages) == 1 and expected in messages[0]


def test_other_application_database_is_not_used(folder: Path):
    folder.mkdir()
    with sqlite3.connect(folder / FILE_NAME) as conn:
        conn.execute("CREATE TABLE photos(id INTEGER PRIMARY KEY, data BLOB)")
    with pytest.warns(CacheWarning, match="foreign"):
        cache = Cache(folder)
        fill(cache, range(3))
    assert len(cache.get_many(NS, keys_of(range(3)))) == 3


def test_value_with_wrong_checksum_is_a_miss(folder: Path):
    cache = Cache(folder)
    fill(cache, range(10))
    cache.close()
    with sqlite3.connect(folder / FILE_NAME) as conn:
        conn.execute("UPDATE entries SET value = ? WHERE key = ?", (b"tampered", cache_key("sentence", 3)))
        conn.execute("UPDATE entries SET crc = crc + 1 WHERE key = ?", (cache_key("sentence", 4),))
    with pytest.warns(CacheWarning, match="checksum") as record:
        got = Cache(folder).get_many(NS, keys_of(range(10)))
    assert len(cache_warnings(record)) == 1
    assert sorted(got) == sorted(keys_of([0, 1, 2, 5, 6, 7, 8, 9]))
    assert all(got[key] == value_of(i) for i, key in enumerate(keys_of(range(10))) if key in got)


def test_damaged_pages_never_give_wrong_values_or_tracebacks(folder: Path):
    cache = Cache(folder)
    fill(cache, range(2000), size=300)
    cache.close()
    path = folder / FILE_NAME
    size = os.path.getsize(path)
    noise = random.Random(7)
    with open(path, "r+b") as handle:
        for _ in range(6):
            handle.seek(noise.randrange(4096, size - 4096))
            handle.write(noise.randbytes(3000))
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        cache = Cache(folder)
        got = cache.get_many(NS, keys_of(range(2000)))
        fill(cache, range(2000, 2010))
        cache.info()
    assert len(cache_warnings(record)) <= 1
    expected = {key: value_of(i, 300) for i, key in enumerate(keys_of(range(2000)))}
    assert all(expected[key] == value for key, value in got.items())


def test_damage_found_while_in_use_rebuilds_once(folder: Path):
    cache = Cache(folder)
    fill(cache, range(3000), size=200)
    cache.close()
    cache = Cache(folder)
    assert len(cache.get_many(NS, keys_of(range(1)))) == 1  # open; few pages read so far
    with open(folder / FILE_NAME, "r+b") as handle:  # damaged under a live connection
        handle.seek(8192)
        handle.write(b"\x00" * 200_000)
    with pytest.warns(CacheWarning) as record:
        got = cache.get_many(NS, keys_of(range(3000)))
        fill(cache, range(5))
        again = cache.get_many(NS, keys_of(range(5)))
    assert all(value == value_of(i, 200) for i, value in
               ((i, got[key]) for i, key in enumerate(keys_of(range(3000))) if key in got))
    assert len(cache_warnings(record)) == 1
    assert len(again) == 5


def test_file_rebuilt_by_another_process_is_followed(folder: Path):
    first = Cache(folder)
    fill(first, range(10))
    path = folder / FILE_NAME
    for suffix in ("", "-wal", "-shm"):  # what another process's rebuild does
        if Path(str(path) + suffix).exists():
            os.replace(str(path) + suffix, str(path) + ".bad" + suffix)
    second = Cache(folder)
    fill(second, range(10, 20))
    fill(first, range(20, 30))  # lands in the new file, not in the one moved aside
    assert len(second.get_many(NS, keys_of(range(30)))) == 20
    assert len(first.get_many(NS, keys_of(range(30)))) == 20


def test_warning_callback_instead_of_python_warnings(tmp_path: Path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    messages: list[str] = []
    with warnings.catch_warnings():
        warnings.simplefilter("error", CacheWarning)
        cache = Cache(blocker / "cache", on_warning=messages.append)
        fill(cache, range(3))
        assert cache.get_many(NS, keys_of(range(3))) == {}
    assert len(messages) == 1 and "cannot create cache folder" in messages[0]


# ---------------------------------------------------------------------------------------------
# unusable folders

def test_folder_under_a_file_degrades_to_no_cache(tmp_path: Path):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    with pytest.warns(CacheWarning) as record:
        cache = Cache(blocker / "cache")
        fill(cache, range(3))
        assert cache.get_many(NS, keys_of(range(3))) == {}
        assert not cache.info().enabled
        assert cache.clear() == 0
    assert len(cache_warnings(record)) == 1 and not cache.enabled and cache.reason


def test_cache_file_that_is_a_folder_degrades_to_no_cache(folder: Path):
    (folder / FILE_NAME).mkdir(parents=True)
    with pytest.warns(CacheWarning) as record:
        cache = Cache(folder)
        fill(cache, range(3))
        assert cache.get_many(NS, keys_of(range(3))) == {}
    assert len(cache_warnings(record)) == 1 and not cache.enabled


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root writes anywhere")
def test_read_only_folder_degrades_to_no_cache(folder: Path):
    folder.mkdir()
    folder.chmod(0o555)
    try:
        with pytest.warns(CacheWarning) as record:
            cache = Cache(folder)
            fill(cache, range(3))
            assert cache.get_many(NS, keys_of(range(3))) == {}
        assert len(cache_warnings(record)) == 1
    finally:
        folder.chmod(0o755)


def test_read_only_file_is_read_and_not_written(folder: Path, monkeypatch):
    """As root a chmod does not stop writes, so the write itself is made to fail: one warning,
    the stored values still read (issue 33: a warm read-only cache is used), nothing stored."""
    cache = Cache(folder)
    fill(cache, range(3))
    cache.close()
    real_connect = sqlite3.connect

    def read_only(path, *args, **kwargs):
        return real_connect(f"file:{path}?mode=ro", *args, uri=True, **kwargs)

    monkeypatch.setattr(cache_module.sqlite3, "connect", read_only)
    with pytest.warns(CacheWarning) as record:
        cache = Cache(folder)
        fill(cache, range(3, 6))
        got = cache.get_many(NS, keys_of(range(6)))
        assert cache.clear() == 0 and cache.prune(older_than=0) == 0
    assert len(cache_warnings(record)) == 1 and "cannot be written" in cache_warnings(record)[0]
    assert cache.enabled and cache.read_only
    assert got == {key: value_of(i) for i, key in enumerate(keys_of(range(3)))}


class _FullDisk(sqlite3.Connection):
    """A connection whose deletes fail as on a full disk (in WAL mode a DELETE writes pages)."""

    def execute(self, sql, *args):
        if sql.lstrip().upper().startswith("DELETE"):
            raise sqlite3.OperationalError("database or disk is full")
        return super().execute(sql, *args)


@pytest.mark.parametrize("command", [["clear"], ["clear", "--namespace", NS], ["prune", "--max-size", "1"]])
def test_a_cache_command_stopped_by_a_full_disk_says_so(folder: Path, monkeypatch, command):
    """`cache clear` on a full disk printed "removed 0 entries; 0 B on disk" and exit 0 while
    every entry and byte was still there: now one error naming the problem and what to do, exit 1,
    nothing on stdout, and the cache as it was."""
    fill(Cache(folder), range(5))
    real_connect = sqlite3.connect
    monkeypatch.setattr(cache_module.sqlite3, "connect",
                        lambda *args, **kwargs: real_connect(*args, factory=_FullDisk, **kwargs))
    code, out, err = run_cli("--cache", str(folder), "cache", *command)
    assert (code, out) == (1, ""), (code, out, err)
    assert f"error: cache {command[0]}: " in err and "disk is full" in err
    assert f"deleting {folder / FILE_NAME} and its -wal and -shm files frees it all" in err
    monkeypatch.setattr(cache_module.sqlite3, "connect", real_connect)
    assert Cache(folder).info().entries == 5


def test_a_stopped_cache_command_never_says_to_delete_a_folder_of_other_files(tmp_path: Path, monkeypatch):
    """The error of a `cache clear` stopped by a full disk said "deleting the folder DIR frees it
    all", also when DIR is the user's home (`GECMETRICS_CACHE=~`), the current folder (`--cache .`)
    or any folder of other files: only the cache's own files are to be deleted."""
    (tmp_path / "thesis.tex").write_text("years of work\n", encoding="utf-8")
    fill(Cache(tmp_path), range(5))
    real_connect = sqlite3.connect
    monkeypatch.setattr(cache_module.sqlite3, "connect",
                        lambda *args, **kwargs: real_connect(*args, factory=_FullDisk, **kwargs))
    monkeypatch.setenv("GECMETRICS_CACHE", str(tmp_path))
    code, out, err = run_cli("cache", "clear")
    assert code == 1 and "disk is full" in err
    assert "deleting the folder" not in err and f"deleting {tmp_path / FILE_NAME} and its -wal and -shm files" in err


def _holding_the_write_lock(folder: Path):
    """Another process's connection inside a write transaction (one stopped with Ctrl-Z there)."""
    holder = sqlite3.connect(str(folder / FILE_NAME), isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    return holder


def test_a_file_kept_locked_stops_the_runs_stores_once(tmp_path: Path, monkeypatch):
    """Every batch retried for RETRY_FOR: a run met a file another process kept locked with a
    wait of 60 s per batch (a cold ERRANT run of 2 chunks took 245 s, found by an audit of
    concurrent use); after the first it stores nothing more and goes on reading."""
    fill(Cache(tmp_path), range(3))
    monkeypatch.setattr(cache_module, "RETRY_FOR", 0.2)
    monkeypatch.setattr(cache_module, "BUSY_TIMEOUT", 0.05)
    holder = _holding_the_write_lock(tmp_path)
    cache = Cache(tmp_path)
    writes = []
    real_write = Cache._write_chunk
    monkeypatch.setattr(Cache, "_write_chunk", lambda self, *args: (writes.append(1), real_write(self, *args))[1])
    with pytest.warns(CacheWarning, match="stayed locked for 0 s .*any others of this run, are not stored"):
        fill(cache, range(10, 13))
    assert cache.stayed_locked and writes
    writes.clear()
    fill(cache, range(20, 23))
    assert writes == [] and len(cache.get_many(NS, [cache_key("sentence", i) for i in range(3)])) == 3
    holder.execute("ROLLBACK")


@pytest.mark.parametrize("command", [["clear"], ["prune", "--max-size", "1"]])
def test_cache_maintenance_on_a_file_kept_locked_is_an_error(tmp_path: Path, monkeypatch, command):
    """cache clear printed 'removed 0 entries', exit 0, with every entry still there."""
    fill(Cache(tmp_path), range(5))
    monkeypatch.setattr(cache_module, "RETRY_FOR", 0.2)
    monkeypatch.setattr(cache_module, "BUSY_TIMEOUT", 0.05)
    monkeypatch.setenv("GECMETRICS_CACHE", str(tmp_path))
    holder = _holding_the_write_lock(tmp_path)
    code, out, err = run_cli("cache", *command)
    holder.execute("ROLLBACK")
    assert code == 1 and out == "" and "another process kept the cache locked" in err, (code, out, err)
    assert len(Cache(tmp_path).get_many(NS, [cache_key("sentence", i) for i in range(5)])) == 5


# ---------------------------------------------------------------------------------------------
# several writers

def _writer(folder: str, start: int, stop: int, step: int, result) -> None:
    cache = Cache(folder)
    written = 0
    numbers = list(range(start, stop))
    for begin in range(0, len(numbers), step):
        part = numbers[begin:begin + step]
        cache.put_many(NS, {cache_key("sentence", i): value_of(i) for i in part})
        written += len(part)
        # read back while the other process writes
        got = cache.get_many(NS, keys_of(part[:50]))
        if any(got.get(key) != value_of(i) for i, key in zip(part[:50], keys_of(part[:50]))):
            result.put("wrong value read back")
            return
    result.put(written)


def test_two_processes_writing_at_once(folder: Path):
    context = multiprocessing.get_context("spawn")
    result = context.Queue()
    # overlapping ranges: the same keys written by both, in different batch sizes
    workers = [context.Process(target=_writer, args=(str(folder), 0, 12_000, 700, result)),
               context.Process(target=_writer, args=(str(folder), 6_000, 18_000, 1_300, result))]
    for worker in workers:
        worker.start()
    outcomes = [result.get(timeout=120) for _ in workers]
    for worker in workers:
        worker.join(timeout=60)
        assert worker.exitcode == 0
    assert outcomes == [12_000, 12_000]
    got = Cache(folder).get_many(NS, keys_of(range(18_000)))
    assert len(got) == 18_000
    assert all(got[key] == value_of(i) for i, key in enumerate(keys_of(range(18_000))))


def _open_damaged(folder: str, start: int, barrier, result) -> None:
    messages: list[str] = []
    check = cache_module._header_problem

    def slow_check(path):  # widen the window in which both processes see the damaged file
        problem = check(path)
        if problem:
            time.sleep(0.3)
        return problem

    cache_module._header_problem = slow_check
    barrier.wait()
    cache = Cache(folder, on_warning=messages.append)
    cache.put_many(NS, {cache_key("sentence", i): value_of(i) for i in range(start, start + 500)})
    result.put(len(messages))


def test_two_processes_finding_one_damaged_file_rebuild_it_once(folder: Path):
    folder.mkdir()
    (folder / FILE_NAME).write_bytes(random.Random(2).randbytes(20_000))
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    barrier, result = context.Barrier(2), context.Queue()
    workers = [context.Process(target=_open_damaged, args=(str(folder), start, barrier, result)) for start in (0, 500)]
    for worker in workers:
        worker.start()
    warned = sorted(result.get(timeout=60) for _ in workers)
    for worker in workers:
        worker.join(timeout=60)
    assert warned == [0, 1]  # one process moved the file aside; the other found the new one
    got = Cache(folder).get_many(NS, keys_of(range(1000)))
    assert len(got) == 1000


def test_forked_child_reopens_the_parents_cache(folder: Path):
    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("no fork on this platform")
    cache = Cache(folder)
    fill(cache, range(100))
    context = multiprocessing.get_context("fork")
    child = context.Process(target=fill, args=(cache, range(100, 200)))
    child.start()
    child.join(timeout=60)
    assert child.exitcode == 0
    assert len(cache.get_many(NS, keys_of(range(200)))) == 200


def test_threads_share_one_cache(folder: Path):
    cache = Cache(folder)
    errors: list[BaseException] = []

    def work(offset: int) -> None:
        try:
            for start in range(offset, offset + 2000, 250):
                fill(cache, range(start, start + 250))
                got = cache.get_many(NS, keys_of(range(start, start + 250)))
                assert len(got) == 250
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n * 2000,)) for n in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert len(cache.get_many(NS, keys_of(range(6000)))) == 6000


# ---------------------------------------------------------------------------------------------
# maintenance

def test_info_and_clear_by_namespace(folder: Path):
    cache = Cache(folder)
    empty = cache.info()
    assert empty.enabled and empty.entries == 0 and cache.clear() == 0 and cache.prune(older_than="1d") == 0
    assert not folder.exists()  # looking creates nothing
    fill(cache, range(30), namespace="a/1")
    fill(cache, range(20), size=100, namespace="b/1")
    info = cache.info()
    assert info.enabled and info.entries == 50 and info.size_bytes > 0 and info.last_used is not None
    assert info.namespaces["a/1"].entries == 30 and info.namespaces["b/1"].entries == 20
    assert info.namespaces["b/1"].stored_bytes == 20 * (32 + 100)
    assert "a/1: 30 entries" in str(info) and info.to_dict()["namespaces"]["b/1"]["entries"] == 20
    assert cache.clear("a/1") == 30
    assert cache.get_many("a/1", keys_of(range(30))) == {}
    assert len(cache.get_many("b/1", keys_of(range(20)))) == 20
    assert cache.clear() == 20 and cache.info().entries == 0
    fill(cache, range(5), namespace="a/1")  # a cleared namespace is used again
    assert len(cache.get_many("a/1", keys_of(range(5)))) == 5
    # a namespace's start up to a '/' clears every namespace under it, as `cache clear --namespace`
    fill(cache, range(3), namespace="a/2")
    fill(cache, range(4), namespace="ab/1")
    assert cache.clear("a") == 8 and cache.clear("a/") == 0
    assert set(cache.info().namespaces) == {"ab/1"} and cache.clear("nothing") == 0


def test_prune_by_age_and_reads_refresh_last_use(folder: Path, monkeypatch):
    clock = [1_000_000_000]
    monkeypatch.setattr(cache_module, "_now", lambda: clock[0])
    cache = Cache(folder)
    fill(cache, range(0, 100))
    clock[0] += 10 * 86400
    fill(cache, range(100, 200))
    clock[0] += 86400
    cache.get_many(NS, keys_of(range(0, 10)))  # used again: kept
    clock[0] += 86400
    assert cache.prune(older_than="5d") == 90
    left = cache.get_many(NS, keys_of(range(200)))
    assert sorted(left) == sorted(keys_of(list(range(10)) + list(range(100, 200))))  # and read now
    assert cache.prune(older_than=timedelta(hours=12)) == 0
    clock[0] += 86400
    assert cache.prune(older_than=timedelta(hours=12)) == 110
    assert cache.info().entries == 0


def test_prune_by_size_removes_least_recently_used_first(folder: Path, monkeypatch):
    clock = [1_000_000_000]
    monkeypatch.setattr(cache_module, "_now", lambda: clock[0])
    cache = Cache(folder)
    for batch in range(4):
        cache.put_many(NS, {cache_key("sentence", i): value_of(i, 1000) for i in range(batch * 500, batch * 500 + 500)},
                       compress=False)
        clock[0] += 7200
    cache.get_many(NS, keys_of(range(0, 100)))  # the oldest batch's first 100 used last
    assert cache.prune(max_size="1TB") == 0  # folds the write-ahead log into the file
    full = cache.info().size_bytes
    assert full > 2000 * 1000
    limit = full // 2
    removed = cache.prune(max_size=limit)
    after = cache.info()
    assert 0 < removed < 2000 and after.entries == 2000 - removed
    assert after.size_bytes <= limit
    kept = cache.get_many(NS, keys_of(range(2000)))
    assert all(key in kept for key in keys_of(range(0, 100)))        # recently read
    assert all(key in kept for key in keys_of(range(1500, 2000)))    # newest batch
    assert all(key not in kept for key in keys_of(range(100, 500)))  # oldest, unread
    assert all(kept[key] == value_of(i, 1000) for i, key in enumerate(keys_of(range(2000))) if key in kept)
    assert cache.prune(max_size="0") == after.entries
    assert cache.info().entries == 0


def test_prune_by_size_keeps_what_fits_after_a_large_old_part(folder: Path, monkeypatch):
    """A cache of many old entries and a few recent ones that fit the limit: the recent ones
    stay. The removal was the excess scaled up by 2%, which past the whole file when the limit
    is small beside it (every entry went), and a file left above the limit by part-empty index
    pages lost more recent entries in the next round instead of being compacted."""
    clock = [1_000_000_000]
    monkeypatch.setattr(cache_module, "_now", lambda: clock[0])
    cache = Cache(folder)
    for start in range(0, 20_000, 5_000):
        cache.put_many(NS, {cache_key("sentence", i): value_of(i, 600) for i in range(start, start + 5_000)},
                       compress=False)
    clock[0] += 86400
    recent = range(100_000, 101_000)  # about 0.7 MB of rows
    cache.put_many(NS, {cache_key("sentence", i): value_of(i, 600) for i in recent}, compress=False)
    assert cache.prune(max_size="1TB") == 0 and cache.info().size_bytes > 10 * 2**20
    removed = cache.prune(max_size=1_000_000)
    assert cache.info().size_bytes <= 1_000_000
    kept = cache.get_many(NS, keys_of(recent))
    assert len(kept) == len(recent) and all(kept[key] == value_of(i, 600) for i, key in zip(recent, keys_of(recent)))
    assert 19_000 <= removed < 20_000  # and some old entries fill the rest


def test_prune_needs_a_limit():
    with pytest.raises(InputError):
        Cache(enabled=False).prune()


@pytest.mark.parametrize("text, expected", [
    ("2GB", 2 * 10**9), ("500MB", 500 * 10**6), ("1.5GiB", int(1.5 * 2**30)), ("800k", 800_000),
    ("  10 kb ", 10_000), ("123", 123), ("7B", 7), (4096, 4096), ("0", 0), (".5TB", 500 * 10**9),
])
def test_parse_size(text, expected):
    assert parse_size(text) == expected


@pytest.mark.parametrize("text", ["", "GB", "2XB", "-1GB", "2 G B", "1e3", "two gigabytes", -5, None, 1.5])
def test_bad_sizes(text):
    with pytest.raises(InputError, match="max size"):
        parse_size(text, "max size")


@pytest.mark.parametrize("text, expected", [
    ("30d", 30 * 86400), ("12h", 12 * 3600), ("90m", 5400), ("90min", 5400), ("45s", 45), ("2w", 14 * 86400),
    ("1.5h", 5400), (" 3 D ", 3 * 86400), (timedelta(minutes=2), 120), (60, 60.0),
])
def test_parse_age(text, expected):
    assert parse_age(text) == expected


@pytest.mark.parametrize("text", ["", "30", "d", "30y", "-3d", "3 days", "1h30m", None, -1])
def test_bad_ages(text):
    with pytest.raises(InputError, match="older than"):
        parse_age(text, "older than")


def test_format_size():
    assert format_size(0) == "0 B" and format_size(999) == "999 B"
    assert format_size(1_500) == "1.5 KB" and format_size(2 * 10**9) == "2.0 GB"
