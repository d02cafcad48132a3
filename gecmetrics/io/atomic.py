"""Output files that are complete or absent: written to a temporary file in the same folder and
renamed over the target only when everything was written, never over one of the run's inputs."""
from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from typing import IO, Any, Iterator, Sequence

from ..errors import InputError
from .text import STDIN


def check_not_input(output: str, inputs: Sequence[str | None], flag: str = "-o") -> None:
    """An output path must not be one of the inputs (writing it would destroy what is read)."""
    if output in (None, STDIN):
        return
    for path in inputs:
        if path is None or path == STDIN:
            continue
        if os.path.abspath(path) == os.path.abspath(output) or _same_file(path, output):
            raise InputError(f"the output ({flag}) is also an input: choose another file", output)


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


@contextmanager
def atomic_output(path: str, encoding: str = "utf-8", binary: bool = False) -> Iterator[IO[Any]]:
    """A text (or ``binary``) handle whose content replaces ``path`` when the block ends
    normally; on an error or an interrupt the temporary file is removed and ``path`` is left
    as it was. A folder that cannot be written is one InputError naming the path."""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise InputError("is a directory, not a file", path)
    try:
        descriptor, temporary = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".part", dir=folder)
    except FileNotFoundError:
        raise InputError("cannot write the output: no such folder", path) from None
    except OSError as err:
        raise InputError(f"cannot write the output: {err.strerror or err}", path) from None
    try:
        with (os.fdopen(descriptor, "wb") if binary else
              os.fdopen(descriptor, "w", encoding=encoding, newline="")) as handle:
            yield handle
        _keep_mode(path, temporary)
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def _keep_mode(path: str, temporary: str) -> None:
    """The new file gets the old one's permissions (or the usual ones of a new file)."""
    try:
        mode = os.stat(path).st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    os.chmod(temporary, mode)
