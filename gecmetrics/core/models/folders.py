"""What identifies a model folder on disk by its contents, read here so that the metrics that
load models from folders (a local LLM judge) receive the fingerprint, never open a file."""
from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Callable

WHOLE_FILE = 64 << 20
"""Files up to this size are hashed whole; of larger ones the first and last :data:`EDGE` bytes."""
EDGE = 1 << 20


def folder_fingerprint(folder: str | os.PathLike[str], skip: Callable[[str], bool] | None = None) -> str:
    """SHA-256 over the files of a model folder (name, size and content; of files over 64 MiB
    the first and last MiB), so that changed weights or tokenizer files change cache keys;
    files whose name ``skip`` accepts are left out."""
    digest = hashlib.sha256()
    for path in sorted(Path(folder).iterdir()):
        if not path.is_file() or (skip is not None and skip(path.name)):
            continue
        size = path.stat().st_size
        digest.update(f"{path.name}\0{size}\0".encode())
        with open(path, "rb") as handle:
            if size <= WHOLE_FILE:
                digest.update(handle.read())
            else:
                digest.update(handle.read(EDGE))
                handle.seek(size - EDGE)
                digest.update(handle.read(EDGE))
    return digest.hexdigest()
