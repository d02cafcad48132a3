"""What identifies a model folder on disk by its contents, read here so that the metrics that
load models from folders (a local LLM judge) receive the fingerprint, never open a file."""
from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Callable

_FINGERPRINTS: dict[tuple, str] = {}
"""Fingerprints made in this process, by :func:`files_stamp`."""


def files_stamp(folder: str | os.PathLike[str], paths: list[Path]) -> tuple:
    """What tells, within a process, that files of a folder are unchanged: the folder, and each
    file's name (relative to it), inode, size, modification and change times (a file written
    again changes its change time, which no tool sets back)."""
    return (os.path.abspath(folder), *((str(path.relative_to(folder)), info.st_ino, info.st_size, info.st_mtime_ns,
                                        info.st_ctime_ns) for path, info in ((path, path.stat()) for path in paths)))


def folder_fingerprint(folder: str | os.PathLike[str], skip: Callable[[str], bool] | None = None) -> str:
    """SHA-256 over the files of a model folder (name, size and whole content), so that changed
    weights or tokenizer files change cache keys; files whose name ``skip`` accepts are left out.
    Every byte is read (a fine-tune that changes only the middle of a large weight file has
    another fingerprint: hashing the first and last MiB of files over 64 MiB gave the old model's
    cached answers); kept for the process while no file changes."""
    paths = [path for path in sorted(Path(folder).iterdir())
             if path.is_file() and not (skip is not None and skip(path.name))]
    stamp = files_stamp(folder, paths)
    if stamp not in _FINGERPRINTS:
        digest = hashlib.sha256()
        for path, (_, _, size, _, _) in zip(paths, stamp[1:]):
            digest.update(f"{path.name}\0{size}\0".encode())
            hash_file(digest, path)
        _FINGERPRINTS[stamp] = digest.hexdigest()
    return _FINGERPRINTS[stamp]


def hash_file(digest, path: str | os.PathLike[str]) -> None:
    """Add a file's content to ``digest``, 4 MiB at a time."""
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 22), b""):
            digest.update(chunk)
