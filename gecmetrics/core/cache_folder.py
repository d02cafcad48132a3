"""Where the persistent cache lives and the files it is made of, without opening it (the store
itself is :mod:`gecmetrics.core.cache`): a command that writes an output checks that it is none
of them, and importing the store (SQLite) or ``platformdirs`` (a tenth of a small command's
start-up) is left to the commands that look the folder up; so is ``pathlib`` (with
``urllib.parse`` and ``ipaddress``, about 2 ms of a command whose metrics never look it up)."""
from __future__ import annotations

import os
from typing import TYPE_CHECKING

from ..errors import InputError

if TYPE_CHECKING:
    from pathlib import Path

SCHEMA_VERSION = 1
# The version is in the file name too, so that an older and a newer gecmetrics sharing one user
# cache folder each keep their own file instead of rebuilding each other's.
FILE_NAME = f"cache-v{SCHEMA_VERSION}.sqlite3"
ENV_VAR = "GECMETRICS_CACHE"
OFF_VALUES = frozenset({"off", "0", "false", "no", "none", "disable", "disabled"})
CACHE_FILE_SUFFIXES = ("", "-wal", "-shm", ".lock")
"""The files of a cache beside the database (suffixes of its name)."""
CACHE_FILE_NAMES = frozenset(FILE_NAME + suffix for suffix in CACHE_FILE_SUFFIXES)


def resolve_cache_folder(folder: str | os.PathLike[str] | None = None, variable: str | None = None) -> Path | None:
    """The cache folder: ``folder`` (``--cache DIR``) if given, else ``$GECMETRICS_CACHE`` (or
    ``variable``, its value as read earlier), else the user cache folder (``platformdirs``, e.g.
    ``~/.cache/gecmetrics``). None when the variable says ``off`` (also 0, false, no, none,
    disable[d]); an empty variable counts as unset."""
    from pathlib import Path

    if folder is not None:
        if not isinstance(folder, (str, os.PathLike)):
            raise InputError(f"cache folder must be a path (a str or a Path), got {type(folder).__name__}")
        text = os.fspath(folder)
        if not str(text).strip():
            raise InputError("cache folder: empty name")
        _check_encodable(text)
        return Path(text).expanduser()
    if variable is not None and not isinstance(variable, str):
        raise InputError(f"variable must be the text of ${ENV_VAR} as read, or None, got {type(variable).__name__}")
    value = (os.environ.get(ENV_VAR, "") if variable is None else variable).strip()
    if value.lower() in OFF_VALUES:
        return None
    if value:
        return Path(value).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir("gecmetrics", appauthor=False))


def cache_files(folder: str | os.PathLike[str]) -> list[Path]:
    """The files a cache in ``folder`` is made of (the database, its journal, its lock), which
    no output of a run may replace."""
    from pathlib import Path

    return [Path(folder) / (FILE_NAME + suffix) for suffix in CACHE_FILE_SUFFIXES]


def may_be_a_cache_file(path: str | os.PathLike[str]) -> bool:
    """Whether writing ``path`` could replace a cache's file: it is (or links to) a file named as
    one, or a file with another hard link (which may be one); an output that is none of these
    needs no cache folder looked up."""
    target = os.path.realpath(path)
    if os.path.basename(target) in CACHE_FILE_NAMES:
        return True
    try:
        return os.stat(target).st_nlink > 1
    except OSError:  # (not there yet: named otherwise, so no cache file)
        return False


def _check_encodable(text: str | bytes) -> None:
    """A folder name the system can open: a NUL or a character the file system's encoding cannot
    write (a lone surrogate) was a ValueError or UnicodeEncodeError at the first write."""
    if (b"\0" if isinstance(text, bytes) else "\0") in text:
        raise InputError("cache folder: a path cannot hold a NUL character")
    try:
        os.fsencode(text)
    except UnicodeError:
        raise InputError(f"cache folder: {text!r} holds a character this system's paths cannot hold") from None
