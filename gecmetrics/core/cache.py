"""One persistent, content-addressed cache: a SQLite file of (namespace, key) -> bytes.

Everything costly that depends only on its inputs (spaCy parses, BERT embeddings, model sentence
scores, LLM answers) is stored here once and reused by every later run, every process and every
metric. The rules that keep it safe:

* a key is a content address (:func:`cache_key`): SHA-256 over everything that changes the value;
  a namespace names the producer and its version (``"llm/openai-compatible/MODEL"``), so a value
  is never trusted across versions;
* values are bytes (callers serialise: :func:`pack_json`, :func:`pack_arrays`, never pickle) and
  carry a CRC-32 over namespace, key and value: a value that fails it is a miss;
* the file records its format and version; a damaged, truncated or foreign file is moved aside with
  ONE warning and a fresh one is started; an unusable folder means no cache, with one warning;
  nothing here ever raises on a bad cache file;
* several processes on one machine may read and write at once (WAL mode, short transactions,
  busy timeout, retries on ``database is locked``); nothing loads the whole table.

``docs/cache.md`` says what is cached, where, and how to inspect, clear and prune it. Which
cache a run uses is the run's choice (:func:`gecmetrics.core.context.run_context`, handed to the
metrics by the run engine): nothing here is process-wide, and the environment is only read.
"""
from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import random
import re
import sqlite3
import struct
import threading
import time
import warnings
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from ..errors import InputError, kind_of, one_line, plural, shown
from .checks import check_flag
from .lines import is_iterable
from .cache_folder import (CACHE_FILE_SUFFIXES, ENV_VAR, FILE_NAME, SCHEMA_VERSION, cache_files,
                           resolve_cache_folder)

try:  # POSIX: a lock file serialises opening, checking and rebuilding the cache file
    import fcntl
except ImportError:  # pragma: no cover - Windows: best effort without it
    fcntl = None  # type: ignore[assignment]

__all__ = [
    "Cache", "CacheInfo", "CacheWarning", "NamespaceInfo", "cache_key", "resolve_cache_folder", "parse_size",
    "parse_age", "format_size", "pack_json", "unpack_json", "pack_arrays", "unpack_arrays", "pack_array",
    "unpack_array", "ENV_VAR", "FILE_NAME", "SCHEMA_VERSION", "cache_files",
]

FORMAT_NAME = "gecmetrics-cache"
APPLICATION_ID = 0x47454343  # "GECC" in the SQLite header (PRAGMA application_id)

BUSY_TIMEOUT = 10.0        # seconds SQLite itself waits for a lock within one statement
RETRY_FOR = 60.0           # seconds one operation retries 'database is locked' before giving up
LOCK_WAIT = 60.0           # seconds to wait for the lock file while another process opens
TOUCH_AFTER = 3600         # an entry's last-use time is rewritten at most once an hour
MAX_CHUNK_KEYS = 2000      # keys per statement / rows per write transaction
MAX_CHUNK_BYTES = 16 << 20  # value bytes per write transaction and (about) per read chunk
PAGE_SIZE = 8192           # rows of ~1 KB fill 8 KB pages better than 4 KB ones (less slack)
ROW_OVERHEAD = 24          # bytes of a row besides key (stored twice: table and index) and value
_SQLITE_MAGIC = b"SQLite format 3\x00"
# SQLite before 3.32 allows 999 bound parameters per statement, later versions 32766
_MAX_VARIABLES = 32766 if sqlite3.sqlite_version_info >= (3, 32, 0) else 999
_KEYS_PER_SELECT = min(MAX_CHUNK_KEYS, _MAX_VARIABLES - 1)
_FIRST_CHUNK_KEYS = 256

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS meta(name TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS namespaces(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)",
    # `used`, `crc` and `flags` come before `value`, so scans of them never read a value's
    # overflow pages; crc: CRC-32 of namespace id, key and the value as given; flags: 1 = zlib
    "CREATE TABLE IF NOT EXISTS entries(id INTEGER PRIMARY KEY, ns INTEGER NOT NULL, key BLOB NOT NULL, "
    "used INTEGER NOT NULL, crc INTEGER NOT NULL, flags INTEGER NOT NULL, value BLOB NOT NULL)",
    "CREATE UNIQUE INDEX IF NOT EXISTS entries_key ON entries(ns, key)",
)

# Connections left by a parent process after fork: closing them in the child could disturb the
# parent's locks and WAL, so they are kept (unused) for the life of the child.
_ABANDONED: list[sqlite3.Connection] = []

_LIVE: dict[int, tuple[int, sqlite3.Connection]] = {}
"""The connections opened and not closed: id -> (the process that opened it, the connection)."""


def close_opened() -> None:
    """Close every connection this process opened and did not close: the console script ends
    with ``os._exit``, which skips SQLite's close (and a cache dropped with its run context may
    keep its connection until a garbage collection that never comes), so the write-ahead log was
    never folded into the database (a copy of the folder without its ``-shm``, or a read-only
    one, then read as empty)."""
    for pid, conn in list(_LIVE.values()):
        if pid == os.getpid():
            _closed(conn)


def _closed(conn: sqlite3.Connection) -> None:
    with contextlib.suppress(sqlite3.Error):
        conn.close()
    _LIVE.pop(id(conn), None)


class CacheWarning(UserWarning):
    """The cache could not be used as asked (damaged file moved aside, unwritable folder, ...)."""


# ---------------------------------------------------------------------------------------------
# keys and values

def cache_key(*parts: str | bytes | int) -> bytes:
    """A content address: SHA-256 (32 bytes) over the length-prefixed, typed parts.

    Pass everything that changes the value: the text (or text pair), the producing component and
    its version or fingerprint, the settings. Each part is tagged by type and prefixed by its
    length, so ``("ab", "c")``, ``("a", "bc")`` and ``(b"ab", "c")`` are three different keys.
    """
    digest = hashlib.sha256(b"gecmetrics-cache-key\x00")
    for part in parts:
        if isinstance(part, str):
            tag, data = b"s", part.encode("utf-8", "surrogatepass")
        elif isinstance(part, (bytes, bytearray, memoryview)):
            tag, data = b"b", bytes(part)
        elif isinstance(part, int) and not isinstance(part, bool):
            tag, data = b"i", str(part).encode("ascii")
        else:
            raise InputError(f"cache_key parts are str, bytes or int, not {type(part).__name__}")
        digest.update(tag + struct.pack("<Q", len(data)) + data)
    return digest.digest()


def pack_json(value: Any) -> bytes:
    """JSON (UTF-8) bytes of ``value``: lists, dicts, str, finite numbers, booleans, None; anything
    else is an InputError saying what cannot be stored (a set; nan or inf, which ``json.dumps``
    wrote as ``NaN``, no JSON; a value holding itself, or nested deeper than the interpreter's
    recursion limit). A string holding a lone surrogate (e.g. from a JSON reply) is kept as its
    ``\\u`` escape, which :func:`unpack_json` reads back as the same string."""
    try:
        return _json_text(value, False).encode("utf-8")
    except UnicodeEncodeError:  # no UTF-8 for a lone surrogate: JSON's escapes hold it
        return _json_text(value, True).encode("ascii")


def _json_text(value: Any, ensure_ascii: bool) -> str:
    """``json.dumps`` of a value :func:`pack_json` stores, or the InputError saying why it cannot."""
    try:
        return json.dumps(value, ensure_ascii=ensure_ascii, separators=(",", ":"), allow_nan=False,
                          default=_not_json)
    except RecursionError:
        raise InputError("pack_json: the value is nested too deeply for JSON") from None
    except TypeError as exc:  # a key of another type: "keys must be str, int, float, bool or None, not tuple"
        raise InputError(f"pack_json cannot store the value as JSON: {exc}") from None
    except InputError:  # (a value of another type: _not_json)
        raise
    except ValueError as exc:
        problem = "nan, inf or -inf (JSON has no such number)" if "Out of range float" in str(exc) else \
            "a value that holds itself (a circular reference)" if "ircular" in str(exc) else f"the value ({exc})"
        raise InputError(f"pack_json cannot store {problem} in a cache value") from None


def _not_json(value: Any) -> Any:
    """``json.dumps``'s ``default``: a value of a type JSON does not hold is refused by its type."""
    raise InputError(f"pack_json cannot store {kind_of(value)} in a cache value: it stores lists, dicts, str, "
                     "finite numbers, booleans and None")


def unpack_json(data: bytes) -> Any:
    """The value :func:`pack_json` stored; ValueError if ``data`` is not such bytes."""
    _check_value_bytes(data, "unpack_json")
    try:
        return json.loads(bytes(data).decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"not a JSON cache value: {exc}") from None
    except RecursionError:
        raise ValueError("not a JSON cache value: nested too deeply") from None


def _check_value_bytes(data: Any, what: str) -> None:
    """A cache value given to a reader is bytes (or a bytearray or memoryview): None (a miss
    passed on) or text was a TypeError, an int n read as n zero bytes."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise InputError(f"{what} reads a cache value (bytes), not {type(data).__name__}")


_ARRAYS_MAGIC = b"GMA\x01"
_ARRAY_KINDS = "biufc"  # bool, signed, unsigned, float, complex: plain bytes, nothing to execute


def pack_arrays(arrays: Sequence[Any]) -> bytes:
    """One value holding NumPy arrays of numbers or booleans (dtype, byte order and shape kept).

    The layout is a short header per array (dtype text, shape) followed by its C-order bytes; no
    pickle, so reading a cache value can never run code.
    """
    import numpy as np

    if isinstance(arrays, (str, bytes, bytearray, memoryview, Mapping)) or not hasattr(arrays, "__len__") \
            or not is_iterable(arrays):
        raise InputError(f"pack_arrays takes a list of arrays, not {type(arrays).__name__}")
    out = [_ARRAYS_MAGIC, struct.pack("<I", len(arrays))]
    for array in arrays:
        array = np.asarray(array)
        if array.dtype.kind not in _ARRAY_KINDS:
            raise InputError(f"pack_arrays stores numbers and booleans, not dtype {array.dtype}")
        dtype = array.dtype.str.encode("ascii")
        out.append(struct.pack("<B", len(dtype)) + dtype + struct.pack("<B", array.ndim))
        out.append(struct.pack(f"<{array.ndim}Q", *array.shape))
        out.append(np.ascontiguousarray(array).tobytes())
    return b"".join(out)


def unpack_arrays(data: bytes, copy: bool = False) -> list[Any]:
    """The arrays :func:`pack_arrays` stored; ValueError if ``data`` is not such bytes.

    Without ``copy`` the arrays are read-only views of ``data`` (no copying of large embeddings).
    """
    import numpy as np

    _check_value_bytes(data, "unpack_arrays")
    check_flag(copy, "copy")
    view = memoryview(bytes(data) if not isinstance(data, bytes) else data)
    try:
        if view[:4] != _ARRAYS_MAGIC:
            raise ValueError("wrong magic")
        (count,) = struct.unpack_from("<I", view, 4)
        offset, arrays = 8, []
        for _ in range(count):
            (length,) = struct.unpack_from("<B", view, offset)
            dtype = np.dtype(bytes(view[offset + 1:offset + 1 + length]).decode("ascii"))
            if dtype.kind not in _ARRAY_KINDS:
                raise ValueError(f"dtype {dtype}")
            offset += 1 + length
            (ndim,) = struct.unpack_from("<B", view, offset)
            shape = struct.unpack_from(f"<{ndim}Q", view, offset + 1)
            offset += 1 + 8 * ndim
            size = dtype.itemsize
            for dim in shape:
                size *= dim
            if offset + size > len(view):
                raise ValueError("truncated")
            array = np.frombuffer(view, dtype=dtype, count=size // dtype.itemsize, offset=offset).reshape(shape)
            arrays.append(array.copy() if copy else array)
            offset += size
        if offset != len(view):
            raise ValueError("trailing bytes")
    except (struct.error, TypeError, UnicodeDecodeError, ValueError) as exc:
        raise ValueError(f"not an arrays cache value: {exc}") from None
    return arrays


def pack_array(array: Any) -> bytes:
    """One NumPy array as a cache value (see :func:`pack_arrays`)."""
    return pack_arrays([array])


def unpack_array(data: bytes, copy: bool = False) -> Any:
    """The one array :func:`pack_array` stored; ValueError otherwise."""
    arrays = unpack_arrays(data, copy=copy)
    if len(arrays) != 1:
        raise ValueError(f"not a single-array cache value ({len(arrays)} arrays)")
    return arrays[0]


# ---------------------------------------------------------------------------------------------
# sizes, ages, locations

_SIZE_UNITS = {
    "": 1, "b": 1,
    "k": 10**3, "kb": 10**3, "m": 10**6, "mb": 10**6, "g": 10**9, "gb": 10**9, "t": 10**12, "tb": 10**12,
    "kib": 2**10, "mib": 2**20, "gib": 2**30, "tib": 2**40,
}
_AGE_UNITS = {"s": 1, "m": 60, "min": 60, "h": 3600, "d": 86400, "w": 7 * 86400}
_NUMBER = r"\s*([0-9]+(?:\.[0-9]*)?|\.[0-9]+)\s*([A-Za-z]*)\s*"  # ASCII digits (\d: any script's)


def parse_size(text: str | int, what: str = "size") -> int:
    """Bytes from ``"2GB"``, ``"500MB"``, ``"1.5GiB"``, ``"800k"`` or a plain number of bytes.

    KB/MB/GB/TB (and K/M/G/T) are powers of 1000, KiB/MiB/GiB/TiB powers of 1024; case does not
    matter. Bad text raises InputError naming ``what``.
    """
    if isinstance(text, int) and not isinstance(text, bool):
        if text < 0:
            raise InputError(f"{what}: {text} is negative")
        return text
    match = re.fullmatch(_NUMBER, text) if isinstance(text, str) else None
    unit = match.group(2).lower() if match else None
    if match is None or unit not in _SIZE_UNITS:
        raise InputError(f"{what}: {text!r} is not a size (e.g. 500MB, 2GB, 1.5GiB or a number of bytes)")
    size = float(match.group(1)) * _SIZE_UNITS[unit]
    if size == float("inf"):  # 400 digits: no int of inf
        raise InputError(f"{what}: {shown(text)} is not a finite size")
    return int(size)


def parse_age(text: str | float | timedelta, what: str = "age") -> float:
    """Seconds from ``"30d"``, ``"12h"``, ``"90m"``, ``"45s"``, ``"2w"`` (a number and a unit),
    a :class:`datetime.timedelta` or a number of seconds. Bad text raises InputError."""
    if isinstance(text, timedelta):
        seconds = text.total_seconds()
    elif isinstance(text, (int, float)) and not isinstance(text, bool):
        try:
            seconds = float(text)
        except OverflowError:  # an int past float's range (10**400)
            seconds = float("inf")
    else:
        match = re.fullmatch(_NUMBER, text) if isinstance(text, str) else None
        unit = match.group(2).lower() if match else None
        if match is None or unit not in _AGE_UNITS:
            raise InputError(f"{what}: {text!r} is not an age (a number and a unit: s, m, h, d or w, e.g. 30d, 12h)")
        seconds = float(match.group(1)) * _AGE_UNITS[unit]
    if seconds != seconds or seconds in (float("inf"), float("-inf")):
        raise InputError(f"{what}: {shown(text)} is not a finite age")
    if seconds < 0:
        raise InputError(f"{what}: {text!r} is negative")
    return seconds


def format_size(size: int) -> str:
    """``1234567`` -> ``"1.2 MB"`` (powers of 1000, as :func:`parse_size` reads them)."""
    if isinstance(size, bool) or not isinstance(size, int) or not 0 <= size < 10**300:  # (past float: Overflow)
        raise InputError(f"format_size takes a number of bytes (an int, 0 or more), got {shown(size)}")
    value = float(size)
    for unit in ("B", "KB", "MB", "GB", "TB"):
        if value < 1000 or unit == "TB":
            return f"{int(value)} B" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1000
    raise AssertionError  # pragma: no cover


# ---------------------------------------------------------------------------------------------
# the store

@dataclass(frozen=True)
class NamespaceInfo:
    """Entries of one namespace: how many, bytes stored (keys and values, compressed as stored),
    last use (Unix time)."""

    entries: int
    stored_bytes: int
    last_used: float | None


@dataclass(frozen=True)
class CacheInfo:
    """What ``gecmetric cache info`` prints: where the cache is, its size, what is in it."""

    path: str | None
    enabled: bool
    size_bytes: int
    entries: int
    last_used: float | None
    namespaces: dict[str, NamespaceInfo] = field(default_factory=dict)
    reason: str | None = None  # why the cache is not in use, when it is not

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready fields."""
        return {
            "path": self.path, "enabled": self.enabled, "size_bytes": self.size_bytes,
            "entries": self.entries, "last_used": _iso(self.last_used), "reason": self.reason,
            "namespaces": {name: {"entries": ns.entries, "stored_bytes": ns.stored_bytes,
                                  "last_used": _iso(ns.last_used)} for name, ns in self.namespaces.items()},
        }

    def __str__(self) -> str:
        if not self.enabled:
            return f"cache: off ({one_line(self.reason)})" if self.reason else "cache: off"
        lines = [f"cache: {shown_name(self.path)}",  # (a path holding a newline broke the line)
                 f"size on disk: {format_size(self.size_bytes)}, {plural(self.entries, 'entry', 'entries')}, "
                 f"last used {_iso(self.last_used) or 'never'}"]
        for name, ns in sorted(self.namespaces.items()):
            lines.append(f"  {name}: {plural(ns.entries, 'entry', 'entries')}, {format_size(ns.stored_bytes)}, "
                         f"last used {_iso(ns.last_used) or 'unknown'}")
        return "\n".join(lines)


_LATEST_TIME = 253402300799
"""The last second a date shows (9999-12-31 23:59:59 UTC): a stored time past it is damage."""


def shown_name(name: Any) -> str:
    """A namespace name or the cache's path as ``info`` shows it: as it is when it is printable
    text (every name this module writes), else escaped, so that a damaged row (bytes, undecodable
    text) or a path holding a newline prints as one line."""
    if isinstance(name, str) and name.isprintable():
        return name
    return ascii(name)


def _text(data: bytes) -> str:
    """SQLite text as Python reads it here: UTF-8, with undecodable bytes kept as lone surrogates
    (sqlite3's own decoding raises on them, and a damaged row must be a miss, not a failed read)."""
    return data.decode("utf-8", "surrogateescape")


def _iso(stamp: float | None) -> str | None:
    if stamp is None:
        return None
    return datetime.fromtimestamp(stamp, timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def _now() -> int:
    """Unix time in whole seconds (a function, so that tests can move the clock)."""
    return int(time.time())


def _error_kind(exc: BaseException) -> str:
    """busy, corrupt, moved, readonly or other, from an sqlite3 error."""
    name = getattr(exc, "sqlite_errorname", None) or ""
    text = str(exc).lower()
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "locked" in text or "busy" in text:
        return "busy"
    if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")) or "malformed" in text or "not a database" in text:
        return "corrupt"
    if name == "SQLITE_READONLY_DBMOVED":
        return "moved"
    if name.startswith("SQLITE_READONLY") or "readonly" in text:
        return "readonly"
    return "other"


MAX_NAMESPACE_CHARS = 1000


def check_namespace(namespace: str) -> str:
    """A producer's namespace: 1 to :data:`MAX_NAMESPACE_CHARS` printable characters."""
    if not isinstance(namespace, str):
        raise InputError(f"a cache namespace is a str, not {type(namespace).__name__}")
    if not namespace or len(namespace) > MAX_NAMESPACE_CHARS or not namespace.isprintable():
        shown = repr(namespace) if len(namespace) <= 60 else f"{namespace[:40]!r}... ({len(namespace):,} characters)"
        raise InputError(f"cache namespace {shown} is not a namespace: 1 to {MAX_NAMESPACE_CHARS} printable "
                         "characters (the names `gecmetric cache info` prints)")
    return namespace


def _as_bytes(value: Any, what: str) -> bytes:
    if isinstance(value, bytes):
        return value
    if isinstance(value, (bytearray, memoryview)):
        return bytes(value)
    raise InputError(f"cache {what}s are bytes, not {type(value).__name__}")


def _checksum(ns_id: int, key: bytes, value: bytes) -> int:
    return zlib.crc32(value, zlib.crc32(key, ns_id & 0xFFFFFFFF))


_ZLIB = 1  # entries.flags: the value is stored zlib-compressed


def _checked_value(ns_id: int, key: bytes, used: Any, crc: Any, flags: Any, value: Any) -> bytes | None:
    """The value of a row as given to put_many, or None when the row is damaged: a column of the
    wrong SQLite type (another writer, a hand edit), a value that does not decompress, or a
    failed checksum."""
    if not (isinstance(value, bytes) and isinstance(key, bytes) and all(
            isinstance(number, int) for number in (used, crc, flags))):
        return None
    if flags & _ZLIB:
        try:
            value = zlib.decompress(value)
        except zlib.error:
            return None
    return value if _checksum(ns_id, key, value) == crc else None
COMPRESS_FROM = 128  # bytes: shorter values are stored as they are


def _stored(value: bytes) -> tuple[bytes, int]:
    """(bytes to store, flags): zlib level 1 (fast) when it saves at least a tenth.

    An attempt costs tens of microseconds even on 1 KB, so it is made only when the first 256
    bytes use at most 112 distinct byte values: text and JSON use a few dozen (UTF-8 Chinese
    about 45), random bytes about 160 and float32 embeddings about 140 (zlib saves them < 10%).
    """
    if len(value) >= COMPRESS_FROM and len(set(value[:256])) <= 112:
        packed = zlib.compress(value, 1)
        if len(packed) <= len(value) * 0.9:
            return packed, _ZLIB
    return value, 0


class Cache:
    """One SQLite file of (namespace, key) -> bytes values, shared by processes on one machine.

    ``folder`` is the cache folder (``--cache DIR``); None means ``$GECMETRICS_CACHE`` or the user
    cache folder. ``enabled=False`` (``--no-cache``) gives a cache that stores and returns nothing.
    Problems (damaged file, unwritable folder) are reported once, through ``on_warning(message)``
    if given (the CLI prints it) or else as a :class:`CacheWarning`; they never raise. The file is
    opened on first use, once per process (a forked child reopens it), and instances pickle as
    their folder, so worker processes can be handed one.
    """

    def __init__(self, folder: str | os.PathLike[str] | None = None, enabled: bool = True,
                 on_warning: Callable[[str], None] | None = None):
        check_flag(enabled, "enabled")  # "no" would be taken as true: a cache turned off would stay on
        if on_warning is not None and not callable(on_warning):
            raise InputError(f"on_warning must be a function of the message (e.g. print) or None, got "
                             f"{type(on_warning).__name__}")
        self._on_warning = on_warning
        self._warned = False
        self._lock = threading.RLock()
        self._conn: sqlite3.Connection | None = None
        self._pid = 0
        self._identity: tuple[int, int] | None = None
        self._ns_ids: dict[str, int] = {}
        self._damaged_values = 0
        self.folder: Path | None = None
        self.path: Path | None = None
        self._reason: str | None = None
        self._read_only = False
        self.stayed_locked = False
        """Whether an operation gave up on a file another process kept locked (see :meth:`_run`)."""
        if not enabled:
            self._reason = "disabled (--no-cache)"
            return
        self.folder = resolve_cache_folder(folder)
        if self.folder is None:
            self._reason = f"disabled (${ENV_VAR}={os.environ.get(ENV_VAR, '')})"
            return
        self.path = self.folder / FILE_NAME

    # -- state ----------------------------------------------------------------------------------
    @property
    def enabled(self) -> bool:
        """False when disabled by the caller or the environment, or after a problem made the cache
        unusable. (The file is opened lazily: a folder is only found unusable on first use.)"""
        return self._reason is None

    @property
    def reason(self) -> str | None:
        """Why the cache is not in use, or None."""
        return self._reason

    @property
    def read_only(self) -> bool:
        """True once the file was found read-only (a read-only file system or folder, a file that
        cannot be written): stored values are still read, new ones are not stored."""
        return self._read_only

    def __repr__(self) -> str:
        return f"Cache({str(self.path) if self.path else None!r}, enabled={self.enabled})"

    def __getstate__(self) -> dict[str, Any]:
        # absolute, as a RunContext sends its own: a worker started elsewhere (a Dask worker, an
        # attribution part's annotator) finds the same folder
        folder = None if self.folder is None else Path(os.path.abspath(self.folder))
        return {"folder": folder, "enabled": folder is not None}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["folder"], enabled=state["enabled"] and state["folder"] is not None)

    def __enter__(self) -> Cache:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        """Close this process's connection (reopened on next use)."""
        with self._lock:
            conn, self._conn = self._conn, None
            self._ns_ids = {}
            if conn is not None and self._pid != os.getpid():
                _ABANDONED.append(conn)  # the parent's, inherited by fork: never close it here
            elif conn is not None:
                _closed(conn)

    # -- public operations ----------------------------------------------------------------------
    def get_many(self, namespace: str, keys: Iterable[bytes]) -> dict[bytes, bytes]:
        """The stored values of those ``keys`` that are in the cache (misses are absent)."""
        return dict(self.iter_many(namespace, keys))

    def iter_many(self, namespace: str, keys: Iterable[bytes]) -> Iterator[tuple[bytes, bytes]]:
        """(key, value) for the stored ``keys``, read in chunks of a few thousand keys (fewer when
        values are large), so that only one chunk of values is held here at a time."""
        check_namespace(namespace)
        if isinstance(keys, (str, bytes, bytearray)) or not is_iterable(keys):  # (one key: its bytes were keys)
            raise InputError(f"cache keys are given as a list (of bytes), not {type(keys).__name__}")
        if not self.enabled:
            for key in keys:  # still check the arguments
                _as_bytes(key, "key")
            return
        chunk_size = _FIRST_CHUNK_KEYS  # grows to _KEYS_PER_SELECT when values are small
        chunk: dict[bytes, None] = {}
        stale: list[bytes] = []
        for key in keys:
            chunk[_as_bytes(key, "key")] = None
            if len(chunk) >= chunk_size:
                found, chunk_size = self._read_chunk(namespace, list(chunk), stale)
                yield from found
                chunk = {}
                if len(stale) >= 50_000:
                    self._touch(namespace, stale)
                    stale = []
        if chunk:
            found, _ = self._read_chunk(namespace, list(chunk), stale)
            yield from found
        if stale:
            self._touch(namespace, stale)
        if self._damaged_values:
            count, self._damaged_values = self._damaged_values, 0
            self._warn(f"{plural(count, 'cached value')} in {self.path} {'was' if count == 1 else 'were'} damaged (a "
                       f"failed checksum or a wrong type) and {'was' if count == 1 else 'were'} ignored" + ("" if self._read_only else " and removed"))

    def put_many(self, namespace: str, items: Mapping[bytes, bytes] | Iterable[tuple[bytes, bytes]],
                 compress: bool = True) -> None:
        """Store values (existing keys are overwritten), in short transactions of a few thousand.

        Values of 128 bytes or more that look like text are stored zlib-compressed when that
        saves a tenth or more (text, JSON: usually half or more); ``compress=False`` skips even
        the look. Readers get the bytes back as given either way.
        """
        check_namespace(namespace)
        check_flag(compress, "compress")  # "no" was taken as true
        if isinstance(items, (str, bytes, bytearray, memoryview)) or not isinstance(items, Iterable):
            raise InputError("cache items are a mapping of keys to values or (key, value) pairs, not "
                            f"{type(items).__name__}")
        pairs = items.items() if isinstance(items, Mapping) else items
        chunk: list[tuple[bytes, bytes]] = []
        size = 0
        for pair in pairs:
            if not isinstance(pair, (tuple, list)) or len(pair) != 2:
                raise InputError(f"cache items are (key, value) pairs, got {type(pair).__name__}"
                                + (f" of {len(pair)}" if isinstance(pair, (tuple, list)) else ""))
            key, value = _as_bytes(pair[0], "key"), _as_bytes(pair[1], "value")
            if not self.enabled or self._read_only:
                continue
            chunk.append((key, value))
            size += len(key) + len(value)
            if len(chunk) >= MAX_CHUNK_KEYS or size >= MAX_CHUNK_BYTES:
                self._write_chunk(namespace, chunk, compress)
                chunk, size = [], 0
        if chunk and self.enabled and not self._read_only:
            self._write_chunk(namespace, chunk, compress)

    def info(self) -> CacheInfo:
        """Path, size on disk, entries per namespace and last use."""
        def op(conn: sqlite3.Connection) -> CacheInfo:
            namespaces = {}
            # a last-use time that is not an integer a date can show (text, a float, a hand edit
            # far out of range) is damage: it counts as no use rather than stopping `info`
            rows = conn.execute(
                "SELECT n.name, COUNT(*), SUM(length(e.key) + length(e.value)), "
                f"MAX(CASE WHEN typeof(e.used) = 'integer' AND e.used BETWEEN 0 AND {_LATEST_TIME} THEN e.used END) "
                "FROM entries e JOIN namespaces n ON n.id = e.ns GROUP BY e.ns").fetchall()
            for name, count, size, used in rows:
                namespaces[shown_name(name)] = NamespaceInfo(count, size or 0, used)
            last = max((ns.last_used for ns in namespaces.values() if ns.last_used is not None), default=None)
            return CacheInfo(str(self.path), True, self._disk_size(), sum(ns.entries for ns in namespaces.values()),
                             last, namespaces)

        with self._lock:
            if self.enabled and not self._in_use():
                return CacheInfo(str(self.path), True, 0, 0, None, {})  # looking creates nothing
            result = self._run(op, None)
            if result is None:
                return CacheInfo(str(self.path) if self.path else None, False, 0, 0, None, {}, self._reason)
            return result

    def clear(self, namespace: str | None = None) -> int:
        """Remove every entry (and any damaged copy moved aside), or those of one namespace and
        of the namespaces it starts up to a '/' (``spacy-parse``: every spaCy parse, as
        ``cache clear --namespace`` takes it); returns how many entries were removed (0 when
        none matched)."""
        if namespace is not None:
            check_namespace(namespace)
            prefix = namespace.rstrip("/") + "/"
            with self._lock:
                matched = [name for name in self.info().namespaces if name == namespace or name.startswith(prefix)]
                return sum(self._clear_one(name) for name in matched)
        return self._clear_one(None)

    def _clear_one(self, namespace: str | None) -> int:
        with self._lock:
            if not self._in_use() or not self._writable():
                return 0
            if namespace is None:
                removed = self._run(lambda conn: self._write(conn, lambda: conn.execute("DELETE FROM entries").rowcount), 0)
                if self.path is not None:
                    for suffix in ("", "-wal", "-shm"):
                        with contextlib.suppress(OSError):
                            os.unlink(str(self.path) + ".bad" + suffix)
            else:
                ns_id = self._run(lambda conn: self._namespace_id(conn, namespace, create=False), None)
                removed = 0
                while ns_id is not None:
                    count = self._run(lambda conn: self._write(conn, lambda: conn.execute(
                        "DELETE FROM entries WHERE id IN (SELECT id FROM entries WHERE ns = ? LIMIT ?)",
                        (ns_id, MAX_CHUNK_KEYS * 5)).rowcount), 0)
                    removed += count
                    if not count:
                        break
            if removed:
                self._shrink()
            return removed

    def prune(self, max_size: int | str | None = None, older_than: float | str | timedelta | None = None) -> int:
        """Remove entries not used for longer than ``older_than`` (``"30d"``, ``"12h"``, seconds),
        then the least recently used ones until the file holds at most ``max_size`` (``"2GB"``,
        ``"500MB"``, bytes); returns how many entries were removed. Last use is recorded to the
        hour; entries used at the same time go oldest-written first."""
        if max_size is None and older_than is None:
            raise InputError("cache prune: give a maximum size, a maximum age or both")
        size_limit = None if max_size is None else parse_size(max_size, "max size")
        age = None if older_than is None else parse_age(older_than, "older than")
        removed = 0
        with self._lock:
            if not self._in_use() or not self._writable():
                return 0
            # a row whose last-use time is not an integer is a miss when read, one past any date
            # (a hand edit) would never age: damage either way, with no age to compare, and the
            # eviction below orders by the time
            removed += self._delete_where(f"typeof(used) != 'integer' OR used NOT BETWEEN 0 AND {_LATEST_TIME}",
                                          ())
            if age is not None:
                cutoff = _now() - age
                removed += self._delete_where("used < ?", (cutoff,))
            if size_limit is not None:
                removed += self._prune_to(size_limit)
            if removed:
                self._shrink()
        return removed

    def _in_use(self) -> bool:
        """Whether there is a cache file to look at (info, clear and prune create none)."""
        return self.enabled and (self._conn is not None or os.path.exists(str(self.path)))

    def _writable(self) -> bool:
        """Whether entries may be removed: the file is open for writing (opened here if needed).
        A read-only cache says so once (a warning) and removes nothing."""
        self._run(lambda conn: None, None)
        if self._read_only:
            self._warn(f"cache {self.path} is read-only: nothing was removed")
        return self.enabled and not self._read_only

    # -- reading and writing --------------------------------------------------------------------
    def _read_chunk(self, namespace: str, keys: list[bytes], stale: list[bytes]) -> tuple[list[tuple[bytes, bytes]], int]:
        def op(conn: sqlite3.Connection) -> list[tuple[bytes, bytes]]:
            ns_id = self._namespace_id(conn, namespace, create=False)
            if ns_id is None:
                return []
            marks = ",".join("?" * len(keys))
            rows = conn.execute(f"SELECT key, used, crc, flags, value FROM entries WHERE ns = ? AND key IN ({marks})",
                                (ns_id, *keys)).fetchall()
            found = []
            damaged = []
            old = _now() - TOUCH_AFTER
            for key, used, crc, flags, value in rows:
                value = _checked_value(ns_id, key, used, crc, flags, value)
                if value is None:
                    damaged.append(key)
                    continue
                found.append((key, value))
                if used < old:
                    stale.append(key)
            if damaged:
                self._damaged_values += len(damaged)
                self._remove_damaged(conn, ns_id, damaged)
            return found

        with self._lock:
            found = self._run(op, [])
        # fewer keys per chunk when values are large, so a chunk stays near MAX_CHUNK_BYTES
        total = sum(len(value) for _, value in found)
        average = total / len(found) if found else 0
        next_size = _KEYS_PER_SELECT if average == 0 else max(16, min(_KEYS_PER_SELECT, int(MAX_CHUNK_BYTES / average)))
        return found, next_size

    def _remove_damaged(self, conn: sqlite3.Connection, ns_id: int, keys: list[bytes]) -> None:
        """Delete entries that failed their checks (repair: the producer stores them again);
        best effort, skipped when the file is busy or read-only (they stay misses)."""
        if self._read_only:
            return
        marks = ",".join("?" * len(keys))
        with contextlib.suppress(sqlite3.Error):
            self._write(conn, lambda: conn.execute(f"DELETE FROM entries WHERE ns = ? AND key IN ({marks})",
                                                   (ns_id, *keys)))

    def _write_chunk(self, namespace: str, chunk: list[tuple[bytes, bytes]], compress: bool) -> None:
        stored = [_stored(value) if compress else (value, 0) for _, value in chunk]  # before locking

        def op(conn: sqlite3.Connection) -> None:
            ns_id = self._namespace_id(conn, namespace, create=True)
            now = _now()
            rows = [(ns_id, key, now, _checksum(ns_id, key, value), flags, data)
                    for (key, value), (data, flags) in zip(chunk, stored)]
            self._write(conn, lambda: conn.executemany(
                "INSERT OR REPLACE INTO entries(ns, key, used, crc, flags, value) VALUES (?, ?, ?, ?, ?, ?)", rows))

        with self._lock:
            self._run(op, None, busy_message="these values, and any others of this run, are not stored (what it "
                                             "holds is still read)")
            if self.stayed_locked:  # (a process stopped with the lock held: each chunk would wait again)
                self._read_only = True

    def _touch(self, namespace: str, keys: list[bytes]) -> None:
        """Record the last use of entries (best effort: skipped quietly when the file is busy or
        read-only)."""
        if self._read_only:
            return

        def op(conn: sqlite3.Connection) -> None:
            ns_id = self._namespace_id(conn, namespace, create=False)
            if ns_id is None:
                return
            now = _now()
            for start in range(0, len(keys), _KEYS_PER_SELECT):
                part = keys[start:start + _KEYS_PER_SELECT]
                marks = ",".join("?" * len(part))
                self._write(conn, lambda: conn.execute(
                    f"UPDATE entries SET used = ? WHERE ns = ? AND key IN ({marks})", (now, ns_id, *part)))

        with self._lock:
            self._run(op, None, retry_for=2.0, busy_message=None)

    @staticmethod
    def _write(conn: sqlite3.Connection, body: Callable[[], Any]) -> Any:
        """Run ``body`` in one short write transaction (BEGIN IMMEDIATE: the write lock is taken at
        once, so a reader never has to upgrade and fail half-way)."""
        conn.execute("BEGIN IMMEDIATE")
        try:
            result = body()
            conn.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
            raise
        return result

    def _namespace_id(self, conn: sqlite3.Connection, namespace: str, create: bool) -> int | None:
        ns_id = self._ns_ids.get(namespace)
        if ns_id is None:
            if create:  # namespace rows are never deleted, so an id once seen stays valid
                conn.execute("INSERT OR IGNORE INTO namespaces(name) VALUES (?)", (namespace,))
            row = conn.execute("SELECT id FROM namespaces WHERE name = ?", (namespace,)).fetchone()
            if row is None:
                return None
            ns_id = self._ns_ids[namespace] = row[0]
        return ns_id

    # -- maintenance ----------------------------------------------------------------------------
    def _delete_where(self, condition: str, params: tuple[Any, ...]) -> int:
        """Delete rows matching ``condition`` in id ranges, one short transaction per range."""
        bounds = self._run(lambda conn: conn.execute("SELECT MIN(id), MAX(id) FROM entries").fetchone(), None)
        if not bounds or bounds[0] is None:
            return 0
        removed, step = 0, MAX_CHUNK_KEYS * 10
        for low in range(bounds[0], bounds[1] + 1, step):
            removed += self._run(lambda conn: self._write(conn, lambda: conn.execute(
                f"DELETE FROM entries WHERE id BETWEEN ? AND ? AND ({condition})",
                (low, low + step - 1, *params)).rowcount), 0)
        return removed

    def _prune_to(self, size_limit: int) -> int:
        """Remove the least recently used entries until the file holds at most ``size_limit``
        bytes. Each round keeps what the limit holds at the file's bytes per estimated byte, less
        a margin (rows do not free whole pages), then measures again; a file still above the limit
        with room in its pages (deleted rows leave index pages part-empty) is rebuilt once before
        more entries go."""
        removed, rebuilt = 0, False
        for _ in range(8):
            self._shrink()
            size = self._run(lambda conn: self._file_bytes(conn), 0)
            if size <= size_limit:
                break
            if removed and not rebuilt:
                rebuilt = True
                self._compact()
                continue
            count = self._evict(size_limit, size)
            removed += count
            if not count:
                break
        return removed

    def _compact(self) -> None:
        """Rewrite the file with its pages full (``VACUUM``)."""
        self._run(lambda conn: conn.execute("VACUUM").fetchall(), None, retry_for=5.0, busy_message=None)

    def _evict(self, size_limit: int, file_bytes: int) -> int:
        """Delete the least recently used entries until the estimated size of the rest is what
        ``size_limit`` bytes of this file hold (scaled by the file's estimated bytes per real
        byte), less a margin of 2% and 16 pages."""
        def plan(conn: sqlite3.Connection) -> tuple[int, int] | None:
            estimate = f"2 * length(key) + length(value) + {ROW_OVERHEAD}"
            # only whole-second times are ordered (prune removed the others just before; one
            # written since by hand is skipped rather than handed back to SQLite as a parameter)
            integer = "WHERE typeof(used) = 'integer'"
            total = conn.execute(f"SELECT SUM({estimate}) FROM entries {integer}").fetchone()[0] or 0
            if not total:
                return None
            keep = max(0.0, (size_limit * 0.98 - 16 * 4096) * total / max(file_bytes, 1))
            to_free = max(total - keep, 1)
            freed = 0
            # the oldest last-use times first, whole groups of one time while they fit ...
            groups = f"SELECT used, SUM({estimate}) FROM entries {integer} GROUP BY used ORDER BY used"
            for used, size in conn.execute(groups):
                if freed + size < to_free:
                    freed += size
                    continue
                # ... then, within the group that crosses the line, the oldest-written rows
                for row_id, row_size in conn.execute(f"SELECT id, {estimate} FROM entries WHERE used = ? ORDER BY id",
                                                     (used,)):
                    freed += row_size
                    if freed >= to_free:
                        return used, row_id
            return None

        with self._lock:
            cut = self._run(plan, None)
        if cut is None:
            return self._delete_where("1", ())
        used, row_id = cut
        return self._delete_where("used < ? OR (used = ? AND id <= ?)", (used, used, row_id))

    @staticmethod
    def _file_bytes(conn: sqlite3.Connection) -> int:
        """The size of the database file once the write-ahead log is folded in (free pages
        included: :meth:`_shrink` gives them back first)."""
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
        return pages * page_size

    def _shrink(self) -> None:
        """Give freed pages back to the file system and fold the write-ahead log into the file."""
        def op(conn: sqlite3.Connection) -> None:
            # executescript steps the statement to its end; execute() would free only one page
            conn.executescript("PRAGMA incremental_vacuum;")
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()

        self._run(op, None, retry_for=5.0, busy_message=None)

    def _disk_size(self) -> int:
        total = 0
        for suffix in ("", "-wal"):
            with contextlib.suppress(OSError):
                total += os.path.getsize(str(self.path) + suffix)
        return total

    # -- opening, errors, rebuilding ------------------------------------------------------------
    def _run(self, op: Callable[[sqlite3.Connection], Any], default: Any, retry_for: float | None = None,
             busy_message: str | None = "continuing without it for this call") -> Any:
        """``op(connection)``, retrying while the file is locked by another process (``retry_for``
        seconds, RETRY_FOR by default), rebuilding a damaged file once, and turning every other
        problem into a warning and no cache."""
        retry_for = RETRY_FOR if retry_for is None else retry_for
        start = time.monotonic()
        delay = 0.005
        rebuilt = False
        reopened = 0
        while True:
            try:
                conn = self._connection()
                if conn is None:
                    return default
                return op(conn)
            except sqlite3.Error as exc:
                kind = _error_kind(exc)
                if self._conn is not None and kind != "busy" and reopened < 3 and self._file_replaced():
                    reopened += 1
                    self._drop_connection()  # another process rebuilt the file: use the new one
                    continue
                if kind == "busy":
                    if time.monotonic() - start < retry_for:
                        time.sleep(delay * (1 + random.random()))
                        delay = min(delay * 2, 0.5)
                        continue
                    if busy_message:
                        self.stayed_locked = True
                        self._warn(f"cache {self.path} stayed locked for {retry_for:.0f} s ({exc}); {busy_message}")
                    return default
                if kind == "corrupt" and not rebuilt:
                    rebuilt = True
                    self._rebuild(f"damaged ({exc})")
                    continue
                if kind == "readonly" and self._conn is not None:
                    self._read_only = True  # reads go on from the open file; nothing more is stored
                    self._warn(f"cache {self.path} cannot be written ({exc}): cached values are used, new ones "
                               "are not stored")
                    return default
                self._disable(f"cannot use cache {self.path}: {exc}")
                return default
            except OSError as exc:
                self._disable(f"cannot use cache folder {self.folder}: {exc.strerror or exc}")
                return default

    def _connection(self) -> sqlite3.Connection | None:
        if self._reason is not None:
            return None
        if self._conn is not None and self._pid != os.getpid():
            _ABANDONED.append(self._conn)  # a forked child: never touch the parent's connection
            self._conn = None
            self._ns_ids = {}
        elif self._conn is not None and self._file_replaced():
            self._drop_connection()  # another process moved a damaged file aside: use the new one
        if self._conn is None:
            self._open()
        return self._conn

    def _drop_connection(self) -> None:
        conn, self._conn = self._conn, None
        self._ns_ids = {}
        if conn is not None:
            _closed(conn)

    def _open(self) -> None:
        assert self.folder is not None and self.path is not None
        try:
            # only its owner may read a folder made here: it holds the texts being scored
            self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as exc:
            self._disable(f"cannot create cache folder {self.folder}: {exc.strerror or exc}")
            return
        problem = _untrusted(self.folder, self.path)
        if problem is not None:
            self._disable(problem)
            return
        if not _can_write(self.folder, Path(str(self.path) + ".lock")):
            self._open_read_only()
            return
        with self._folder_lock():
            for attempt in range(2):
                problem = _header_problem(self.path)
                if problem is None:
                    _create_private(self.path)
                    conn = sqlite3.connect(str(self.path), timeout=BUSY_TIMEOUT, isolation_level=None,
                                           check_same_thread=False)
                    conn.text_factory = _text
                    try:
                        problem = _prepare(conn)
                    except sqlite3.Error as exc:
                        conn.close()
                        if _error_kind(exc) != "corrupt":
                            raise
                        problem = f"damaged ({exc})"
                    if problem is None:
                        self._use(conn)
                        return
                    conn.close()
                if attempt:
                    self._disable(f"cache {self.path} is still unusable after rebuilding it: {problem}")
                    return
                self._move_aside(problem)

    def _use(self, conn: sqlite3.Connection) -> None:
        stat = os.stat(self.path)  # type: ignore[arg-type]
        self._conn, self._pid, self._identity = conn, os.getpid(), (stat.st_dev, stat.st_ino)
        self._ns_ids = {}
        _LIVE[id(conn)] = (os.getpid(), conn)

    def _open_read_only(self) -> None:
        """A folder that cannot be written (a read-only file system, a folder without write
        permission): the file there is read, nothing is stored, damage is a miss (nothing can be
        moved aside); one warning says so."""
        assert self.path is not None
        if not self.path.is_file():
            self._disable(f"cache folder {self.folder} cannot be written and holds no cache yet")
            return
        problem = _header_problem(self.path)
        conn = None
        if problem is None:
            # immutable: no -shm file is needed (none can be made here); nobody can write the
            # file either, as the folder is read-only (or trusted: see _untrusted)
            for options in ("mode=ro", "mode=ro&immutable=1"):
                try:
                    conn = sqlite3.connect(f"{self.path.absolute().as_uri()}?{options}", uri=True,
                                           timeout=BUSY_TIMEOUT, isolation_level=None, check_same_thread=False)
                    conn.text_factory = _text
                    problem = _format_problem(conn)
                    break
                except sqlite3.Error as exc:
                    if conn is not None:
                        conn.close()
                    conn, problem = None, f"unreadable ({exc})"
        if problem is not None:
            if conn is not None:
                conn.close()
            self._disable(f"cache {self.path} is {problem} and its folder cannot be written")
            return
        self._read_only = True
        self._use(conn)  # type: ignore[arg-type]
        self._warn(f"cache folder {self.folder} cannot be written: cached values are used, new ones are not stored")

    def _rebuild(self, problem: str) -> None:
        """Move a damaged file aside (unless another process already did) so the next use starts
        a fresh one."""
        identity = self._identity
        self._drop_connection()
        with self._folder_lock():
            if not self._file_replaced(identity):
                self._move_aside(problem)

    def _move_aside(self, problem: str) -> None:
        assert self.path is not None
        bad = str(self.path) + ".bad"
        for suffix in ("", "-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(bad + suffix)
        for suffix in ("", "-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                os.replace(str(self.path) + suffix, bad + suffix)
        self._warn(f"cache {self.path} is {problem}: it is not used; moved it to {bad} and started an empty cache")

    def _file_replaced(self, identity: tuple[int, int] | None = None) -> bool:
        identity = identity or self._identity
        try:
            stat = os.stat(self.path)  # type: ignore[arg-type]
        except OSError:
            return True
        return identity is not None and (stat.st_dev, stat.st_ino) != identity

    @contextlib.contextmanager
    def _folder_lock(self) -> Iterator[None]:
        """An exclusive lock file beside the cache while it is opened, checked or rebuilt."""
        if fcntl is None:  # pragma: no cover
            yield
            return
        fd = os.open(str(self.path) + ".lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            deadline = time.monotonic() + LOCK_WAIT
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        raise OSError(f"another process held {self.path}.lock for {LOCK_WAIT:.0f} s") from None
                    time.sleep(0.01)
            yield
        finally:
            os.close(fd)

    def _disable(self, reason: str) -> None:
        self._reason = reason
        if self._conn is not None and self._pid == os.getpid():
            self._drop_connection()
        self._conn = None
        self._warn(reason + "; continuing without a cache")

    def _warn(self, message: str) -> None:
        if self._warned:
            return
        self._warned = True
        message = one_line(message)
        if self._on_warning is not None:
            self._on_warning(message)
        else:
            warnings.warn(message, CacheWarning, stacklevel=4)


def _header_problem(path: Path) -> str | None:
    """Why the file at ``path`` is not an SQLite file (checked before SQLite opens it), or None."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(100)
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        return None  # SQLite reports it; not ours to move
    if head and (len(head) < 100 or not head.startswith(_SQLITE_MAGIC)):
        return "not an SQLite file (damaged or foreign)"
    return None


def _prepare(conn: sqlite3.Connection) -> str | None:
    """Create the schema in an empty file, or check the format record of an existing one; returns
    why the file is not a cache of this version, or None."""
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if not tables:
        conn.execute(f"PRAGMA page_size = {PAGE_SIZE}")  # both must precede the first table
        conn.execute("PRAGMA auto_vacuum = INCREMENTAL")
        conn.execute("PRAGMA journal_mode = WAL").fetchall()
        conn.execute("BEGIN IMMEDIATE")
        try:
            for statement in _SCHEMA:
                conn.execute(statement)
            conn.executemany("INSERT OR IGNORE INTO meta(name, value) VALUES (?, ?)",
                             [("format", FORMAT_NAME), ("version", str(SCHEMA_VERSION)), ("created", str(_now()))])
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            conn.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
            raise
    else:
        problem = _format_problem(conn, tables)
        if problem is not None:
            return problem
        if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            conn.execute("PRAGMA journal_mode = WAL").fetchall()
    conn.execute("PRAGMA synchronous = NORMAL")  # with WAL: never corrupt, at worst the last commits lost
    conn.execute("PRAGMA journal_size_limit = 67108864")
    return None


def _format_problem(conn: sqlite3.Connection, tables: set | None = None) -> str | None:
    """Why an existing file is not a cache of this format and version, or None (reads only)."""
    if tables is None:
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if not tables:
        return "empty"
    if "meta" not in tables:
        return "not a gecmetrics cache (foreign SQLite file)"
    meta = dict(conn.execute("SELECT name, value FROM meta").fetchall())
    if meta.get("format") != FORMAT_NAME:
        return "not a gecmetrics cache (foreign SQLite file)"
    if meta.get("version") != str(SCHEMA_VERSION):
        return f"of another cache version ({meta.get('version')!r}, this gecmetrics reads {SCHEMA_VERSION})"
    if not {"namespaces", "entries"} <= tables:
        return "incomplete (tables missing)"
    if conn.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
        return "not a gecmetrics cache (wrong application id)"
    return None


def _trusted_owner(uid: int) -> bool:
    return uid in (os.geteuid(), 0)


def _untrusted(folder: Path, path: Path) -> str | None:
    """Why the cache in ``folder`` could have been written by someone else (then it is not
    used), or None. Only its user (or root) may be able to write the folder, unless it is the
    user's own with the sticky bit (others may add files there, never replace or change the
    user's); the cache's files must be the user's (or root's) and writable by their owner only:
    a file others can write is refused even when it is the user's, as a chmod now would not undo
    what was written before. The user's own files that others can only read are made private
    (0600) on the way: they hold the texts scored (not through a symbolic link, whose target may
    be any file of theirs)."""
    if not hasattr(os, "geteuid"):  # pragma: no cover - Windows: the folder's ACL decides
        return None
    import stat

    try:
        found = os.stat(folder)
    except OSError as exc:
        return f"cannot use cache folder {folder}: {exc.strerror or exc}"
    others_write = bool(found.st_mode & (stat.S_IWGRP | stat.S_IWOTH)) or not _trusted_owner(found.st_uid)
    if others_write and not (found.st_uid == os.geteuid() and found.st_mode & stat.S_ISVTX):
        return (f"cache folder {folder} can be written by other users (mode {stat.S_IMODE(found.st_mode):o}, "
                f"owner uid {found.st_uid}): its entries cannot be trusted; use a folder of your own "
                f"(chmod go-w {folder}, or --cache DIR)")
    for suffix in CACHE_FILE_SUFFIXES:
        name = str(path) + suffix
        try:
            link = stat.S_ISLNK(os.lstat(name).st_mode)
            if link and others_write:
                return f"cache file {name} is a symbolic link in a folder others can write: it is not used"
            owned = os.stat(name)  # a link of the user's own is followed, as SQLite follows it
        except FileNotFoundError:
            continue
        except OSError as exc:
            return f"cannot use cache {name}: {exc.strerror or exc}"
        if not stat.S_ISREG(owned.st_mode):  # (a folder of that name was made 0600 below: no longer enterable)
            return f"cache file {name} is not a file (a folder?): remove it or use another folder (--cache DIR)"
        if not _trusted_owner(owned.st_uid):
            return (f"cache file {name} belongs to another user (uid {owned.st_uid}): its entries cannot be "
                    "trusted; remove it or use another folder (--cache DIR)")
        if owned.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
            return (f"cache file {name} can be written by other users (mode {stat.S_IMODE(owned.st_mode):o}): "
                    "its entries cannot be trusted; remove it or use another folder (--cache DIR)")
        if owned.st_mode & 0o077 and owned.st_uid == os.geteuid() and not link:  # (a link's target may be
            with contextlib.suppress(OSError):                                      # no cache file: left as it is)
                os.chmod(name, 0o600)
    return None


_CANNOT_MAKE = frozenset({errno.EACCES, errno.EPERM, errno.EROFS, errno.ENOENT})
"""Errors of making a file in an existing folder that mean the folder cannot be written."""


def _can_write(folder: Path, lock: Path) -> bool:
    """Whether files can be made in ``folder`` (not a read-only file system or folder): its
    ``lock`` file is made there (or opened) to know. Permission bits alone can say yes where
    nothing can be made (root in /proc or /sys: ENOENT), which would read as a missing folder."""
    if hasattr(os, "statvfs") and hasattr(os, "ST_RDONLY"):
        with contextlib.suppress(OSError):
            if os.statvfs(folder).f_flag & os.ST_RDONLY:
                return False
    if not os.access(folder, os.W_OK | os.X_OK):
        return False
    try:
        os.close(os.open(lock, os.O_RDWR | os.O_CREAT, 0o600))
    except OSError as exc:
        return exc.errno not in _CANNOT_MAKE  # another error (a full disk) is reported when opening
    return True


def _create_private(path: Path) -> None:
    """Create the database file readable and writable by its owner only (SQLite then gives its
    -wal and -shm files the same mode), unless it exists."""
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
