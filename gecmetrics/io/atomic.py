"""Output files that are complete or absent: written to a temporary file in the same folder and
renamed over the target only when everything was written, never over one of the run's inputs.

What is at the output path decides how it is written:

* nothing, or a regular file: a temporary file beside it, renamed over it at the end;
* a symbolic link (to a regular file, or dangling): the link is followed to the real file,
  which is written as above, beside itself, so that the link stays a link and its target gets
  the new content;
* a device, a FIFO or a socket (``/dev/null``, a pipe, also through a link): written through,
  in place, as the shell's ``>`` does; there is nothing to replace, and such a target cannot be
  complete-or-absent;
* a name of one of the process's descriptors (``/dev/stdout``, ``/dev/fd/N``,
  ``/proc/self/fd/N``, or a link to one): written through that descriptor, whatever it is (a
  file the shell redirected the output to gets the output at its place in it, as with ``>``).
"""
from __future__ import annotations

import errno
import hashlib
import os
import re
import socket
import stat
import sys
import tempfile
from contextlib import contextmanager
from typing import IO, Any, Iterable, Iterator

from ..core.backend import new_file_mode
from ..core.stop import check as check_stop
from ..errors import InputError
from .text import EMPTY_PATH, STDIN


def check_outputs(outputs: Iterable[tuple[str, str | os.PathLike | None]],
                  inputs: Iterable[str | os.PathLike | None]) -> None:
    """Refuse (InputError naming the flag and the file) an output that is one of the inputs, or
    the same file as another output: writing it would destroy what is read, or keep only one of
    the two; and, before the work, an output that is a folder or whose folder cannot be written.
    ``outputs`` are (flag, path) pairs; None is skipped and ``-`` refused (these outputs are
    files: standard output is ``/dev/stdout``). Files are compared by resolved path (symbolic
    links followed) and by device and inode (hard links); an output that is a device or a FIFO
    is written through and destroys nothing, so it is not compared. An input that is a folder (a
    model's) takes no output inside it."""
    read: set = set()
    folders: list[str] = []
    for path in inputs:
        if path is not None:
            read.update(_identities(os.fspath(path))[0] if os.fspath(path) != STDIN else _standard_input())
            if os.fspath(path) != STDIN and os.path.isdir(path):
                folders.append(os.path.join(os.path.realpath(path), ""))
    written: dict = {}
    for flag, output in outputs:
        if output is None:
            continue
        output = os.fspath(output)
        if output == "":
            raise InputError(f"{flag}: {EMPTY_PATH}")
        if output == STDIN:
            raise InputError(f"{flag} writes a file: give its name (standard output is /dev/stdout)", output)
        if output.endswith(("/", os.sep)):  # (a file named as the folder was written, its '/' dropped)
            raise InputError(f"{flag} writes a file: this names a folder (it ends in '/'); give a file name", output)
        _check_descriptor_open(output, flag)
        identities, special = _identities(output)
        if special:
            continue
        if _descriptor(output) is None:  # (a descriptor's file is written through it)
            try:
                _check_writable(output)
            except InputError as err:  # (which of the command's outputs: --html, --json ...)
                raise InputError(f"{err.message} ({flag})", err.path, err.line) from None
        if read.intersection(identities):
            raise InputError(f"the output ({flag}) is also an input: choose another file", output)
        inside = next((folder for folder in folders if identities[0].startswith(folder)), None)
        if inside is not None:
            raise InputError(f"the output ({flag}) is inside the folder {inside.rstrip(os.sep)}, which the run reads "
                             "(a model's, or a data folder): choose another place", output)
        for identity in identities:
            if identity in written:
                raise InputError(f"{written[identity]} and {flag} name the same file: choose two files", output)
        written.update(dict.fromkeys(identities, flag))


def _check_writable(output: str) -> None:
    """Before the work: an output that is a folder (or a link loop), a write-protected file, or
    whose existing folder cannot be written, is refused now, not after the run (a folder still
    to be made is the writer's to make)."""
    target, _ = output_target(output)
    folder = os.path.dirname(target) or "."
    if os.path.isdir(folder) and not os.access(folder, os.W_OK | os.X_OK):
        raise InputError(f"cannot write the output: its folder {folder} cannot be written", output)
    if os.path.isfile(target) and not os.access(target, os.W_OK):  # (a rename replaced it without a word)
        raise InputError("cannot write the output: the file is write-protected (as the shell's > would say)", output)
    if _another_users_in_sticky_folder(target, folder):  # (the rename would fail after all the work)
        raise InputError("cannot replace the output: it is another user's file in a folder only its owner may replace "
                         "files in (a sticky folder such as /tmp); remove it or choose another name", output)


def _another_users_in_sticky_folder(target: str, folder: str) -> bool:
    """Whether ``target`` is a file this (non-root) user may write but not replace: another
    user's, in a sticky folder (mode +t, /tmp) that is not this user's either."""
    user = getattr(os, "geteuid", lambda: 0)()
    try:
        here, there = os.stat(folder), os.stat(target)
    except OSError:
        return False
    return bool(user != 0 and here.st_mode & stat.S_ISVTX and there.st_uid != user and here.st_uid != user)


def _standard_input() -> list:
    """The (device, inode) of a regular file redirected to standard input (``-`` read from
    ``< FILE``: an output naming FILE would replace what is being read), else none."""
    try:
        found = os.fstat(0)
    except (OSError, ValueError):  # closed
        return []
    return [(found.st_dev, found.st_ino)] if stat.S_ISREG(found.st_mode) else []


def _identities(path: str) -> tuple[list, bool]:
    """What names a file: its resolved path and, when it exists, its (device, inode); and
    whether it is a device, a FIFO or a socket (links followed)."""
    identities: list = [os.path.realpath(path)]
    try:
        found = os.stat(path)
    except (OSError, ValueError):
        return identities, False
    identities.append((found.st_dev, found.st_ino))
    return identities, not stat.S_ISREG(found.st_mode) and not stat.S_ISDIR(found.st_mode)


def output_target(path: str) -> tuple[str, bool]:
    """Where an output given as ``path`` is written: (the real path, written through in place).
    A folder, an unresolvable link (a loop) or a folder that does not exist is an InputError."""
    if path == "":  # (realpath("") is the current folder: the file was written beside it, then failed)
        raise InputError(f"cannot write the output: {EMPTY_PATH}")
    if _descriptor(path) is not None:
        return path, True
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None  # nothing there, or a dangling link: the file is made where the link points
    except OSError as err:
        raise InputError(f"cannot write the output: {err.strerror or err}", path) from None
    if mode is not None and stat.S_ISDIR(mode):
        raise InputError("is a directory, not a file", path)
    if mode is not None and not stat.S_ISREG(mode):
        return path, True
    return os.path.realpath(path), False


@contextmanager
def atomic_output(path: str, encoding: str = "utf-8", binary: bool = False) -> Iterator[IO[Any]]:
    """A text (or ``binary``) handle whose content replaces ``path`` when the block ends
    normally; on an error or an interrupt the temporary file is removed and ``path`` is left
    as it was. A link is followed (the real file is replaced, the link kept), and a device or
    FIFO written through (see the module docstring). A folder that cannot be written is one
    InputError naming the path."""
    with output_group() as group:
        with group.output(path, encoding, binary) as handle:
            yield handle


class OutputGroup:
    """Outputs that are complete or absent together (:func:`output_group`): each is written to
    its own temporary file, closed when its block ends, and every one is renamed over its target
    only when the group ends without an error; otherwise none is replaced and the temporary
    files are removed. (Devices and FIFOs are written through at once, as always.)"""

    def __init__(self) -> None:
        self._written: list[tuple[str, str, str]] = []  # (temporary, target, path as given)

    @contextmanager
    def output(self, path: str, encoding: str = "utf-8", binary: bool = False) -> Iterator[IO[Any]]:
        """A handle on ``path``'s temporary file (text, or ``binary``)."""
        target, in_place = output_target(path)
        if in_place:
            with _opened_in_place(path, encoding, binary) as handle:
                yield handle
            return
        folder = os.path.dirname(target)
        _remove_stale_parts(target)
        try:
            descriptor, temporary = tempfile.mkstemp(prefix=f"{_part_name(target)}{os.getpid()}@{_HOST}.",
                                                     suffix=".part", dir=folder)
        except OSError as err:
            if not os.path.isdir(folder):
                raise InputError("cannot write the output: no such folder", path) from None
            raise InputError(f"cannot write the output: cannot create a file in its folder {folder} "
                             f"({err.strerror or err})", path) from None
        self._written.append((temporary, target, path))
        try:
            with (os.fdopen(descriptor, "wb") if binary else
                  os.fdopen(descriptor, "w", encoding=encoding, newline="")) as handle:
                yield handle
                handle.flush()
                _synced(handle.fileno())  # (on the disk before the rename makes it the output)
        except BaseException as err:
            raise _named(err, path)

    def _commit(self) -> None:
        """Each temporary file renamed over its target, the old target kept aside by a hard link
        until every rename is done: a rename that fails (or a signal) puts back the targets
        already replaced, so the group stays whole or absent (not some files new, others old).
        Each step is recorded before it is taken, so a signal between a step and its record
        (a rename done, a link made) is undone as well; whether a rename was done is read from
        its temporary file, gone once renamed."""
        check_stop()  # (no output replaced once a stop was asked for, whatever became of its exception)
        steps: list[list] = []  # [target, its old file's link or None, temporary, whether it had an old file]
        try:
            for temporary, target, path in self._written:
                try:
                    _keep_mode(target, temporary)
                    step = [target, None, temporary, os.path.lexists(target)]
                    steps.append(step)
                    _link_aside(target, step)
                    os.replace(temporary, target)
                except OSError as err:  # (named by the output, not by its temporary file)
                    raise OSError(err.errno, err.strerror, path) from None
        except BaseException:
            for target, aside, temporary, existed in reversed(steps):
                try:
                    if os.path.lexists(temporary):
                        _remove(aside)
                    elif aside is not None:  # renamed: the old file back
                        os.replace(aside, target)
                    elif not existed:  # (none before: none again)
                        os.unlink(target)
                    # else the old file could not be kept aside (no hard links here): the new one stays
                except OSError:
                    pass
            raise
        try:
            for step in steps:
                _remove(step[1])
        except BaseException:  # (a signal while the links go: the rest go too, then it stops the run)
            for step in steps:
                _remove(step[1])
            raise
        for folder in {os.path.dirname(target) for _, target, _ in self._written}:
            _synced_folder(folder)  # (the renames on the disk: best effort)

    def _discard(self) -> None:
        for temporary, _, _ in self._written:
            _remove(temporary)


@contextmanager
def output_group() -> Iterator[OutputGroup]:
    """Several outputs written one after another that replace their targets together, when the
    block ends normally (:class:`OutputGroup`): a failed or interrupted write, of the last file as
    of the first, leaves every target as it was, so no command leaves some of its files new and
    others old or missing, which would look like a complete result."""
    group = OutputGroup()
    try:
        yield group
        group._commit()
    except BaseException:
        group._discard()  # (those already renamed are gone from this list's places: unlink fails quietly)
        raise


def _named(err: BaseException, path: str) -> BaseException:
    """A write (or flush) that failed without a file name (a full disk): the same error naming
    the output, so that the one line the command prints says which of its outputs failed."""
    if isinstance(err, OSError) and err.filename is None and err.errno is not None:
        named = OSError(err.errno, err.strerror, path)  # (the subclass of the errno, as the original)
        named.__traceback__ = err.__traceback__
        return named
    return err


@contextmanager
def _opened_in_place(path: str, encoding: str, binary: bool) -> Iterator[IO[Any]]:
    """A device, FIFO or socket opened for writing (no truncation, no rename); a name of one of
    this process's descriptors written through that descriptor, whatever is behind it."""
    text = {} if binary else {"encoding": encoding, "newline": ""}
    descriptor = _descriptor(path)
    _check_descriptor_open(path, None)
    try:
        if descriptor is None:
            handle = open(path, "ab" if binary else "a", **text)
        else:
            for stream in (sys.stdout, sys.stderr):  # (what the run printed before comes first)
                if stream is not None:
                    stream.flush()
            handle = os.fdopen(os.dup(descriptor), "wb" if binary else "w", **text)
    except OSError as err:
        raise InputError(f"cannot write the output: {err.strerror or err}", path) from None
    try:
        with handle:
            yield handle
    except OSError as err:
        raise _named(err, path)


_DESCRIPTOR_NAME = re.compile(r"/dev/(?:fd/([0-9]+)|(stdout)|(stderr))|/proc/(?:self|thread-self|([0-9]+))/fd/([0-9]+)",
                              re.ASCII)


def writes_standard_output(path: str) -> bool:
    """Whether an output named ``path`` is written through this process's standard output."""
    return _descriptor(path) == 1


_STANDARD = {0: "input", 1: "output", 2: "error"}


def _check_descriptor_open(path: str, flag: str | None) -> None:
    """An output naming standard input, output or error when the process started without it
    (``-o /dev/stdout >&-``: /dev/null holds the descriptor, and the output would be lost there
    with exit 0) is an InputError."""
    descriptor = _descriptor(path)
    if descriptor not in _STANDARD:
        return
    stream = (sys.stdin, sys.stdout, sys.stderr)[descriptor]
    if stream is None or getattr(stream, "closed_at_start", False):
        raise InputError(f"cannot write the output{f' ({flag})' if flag else ''}: standard {_STANDARD[descriptor]} is "
                         "closed (the command was started without it)", path)


def _descriptor(path: str) -> int | None:
    """The descriptor of this process that ``path`` names (``/dev/stdout``, ``/dev/fd/N``,
    ``/proc/self/fd/N``, or a link to one of those), or None. Such a name opened again is the
    file behind the descriptor, not the descriptor: ``-o /dev/stdout >> log`` replaced ``log`` by
    the output alone (the shell's ``>`` writes through the descriptor, at its place in the file)."""
    for _ in range(40):  # (a link to such a name: followed one step at a time, as realpath would go past it)
        match = _DESCRIPTOR_NAME.fullmatch(os.path.normpath(path)) if path.startswith("/") else None
        if match is not None or not os.path.islink(path):
            break
        try:
            path = os.path.join(os.path.dirname(os.path.abspath(path)), os.readlink(path))
        except OSError:
            return None
    if match is None:
        return None
    fd, stdout, stderr, pid, proc_fd = match.groups()
    if pid is not None and int(pid) != os.getpid():
        return None
    return 1 if stdout else 2 if stderr else int(fd if fd is not None else proc_fd)


def _link_aside(target: str, step: list) -> None:
    """A second name for ``target``'s file beside it, in ``step[1]`` (written there before the
    link is made: an interruption leaves no link unrecorded), named as the writer's temporary
    files are (its process and host: a killed writer's is removed by the next write); None when
    there is no file, or the file system has no hard links (that target is then replaced without
    a way back, and a failed group leaves its new file rather than none)."""
    if not os.path.exists(target):
        return
    folder = os.path.dirname(target)
    for _ in range(100):
        step[1] = os.path.join(folder, f"{_part_name(target)}{os.getpid()}@{_HOST}.{os.urandom(4).hex()}.old")
        try:
            os.link(target, step[1])
            return
        except FileExistsError:
            step[1] = None
            continue
        except OSError:
            step[1] = None
            return
    step[1] = None


_HOST = hashlib.sha1(socket.gethostname().encode("utf-8", "surrogatepass")).hexdigest()[:8]
"""The host's mark in a temporary file's name, after the writing process's id (8 hex digits of
the host name's SHA-1): a later run tells a dead writer's file from a live one's."""


PART_NAME_BYTES = 200
"""Bytes of an output's name kept in its temporary file's name (``.NAME.PID@HOST.xxxxxxxx.part``
adds up to 33): a name of up to 255 bytes, which the shell's ``>`` writes, is written too."""


def _part_name(target: str) -> str:
    """The start of ``target``'s temporary files' names: ``.``, its name (cut to
    :data:`PART_NAME_BYTES` bytes), ``.``."""
    name = os.path.basename(target)
    while len(os.fsencode(name)) > PART_NAME_BYTES:
        name = name[:-1]
    return f".{name}."


def _remove_stale_parts(target: str) -> None:
    """Remove the temporary files of ``target`` left by a writer that died without its cleanup
    (SIGKILL, the out-of-memory killer), and the old file's second name a group's commit keeps
    until its renames are done (``.old``): those marked with this host and a process that no
    longer exists. Another host's (a shared folder), a live process's (a run writing the same
    file now) and unmarked ones stay. Best effort: a folder that cannot be listed is left."""
    folder, start = os.path.dirname(target), _part_name(target)
    pattern = re.compile(re.escape(start) + r"([0-9]+)@([0-9a-f]{8})\.[^/]*\.(?:part|old)", re.ASCII)
    try:
        entries = [entry for entry in os.listdir(folder or ".") if entry.startswith(start)]
    except OSError:
        return
    for entry in entries:
        match = pattern.fullmatch(entry)
        if match and match.group(2) == _HOST and not _process_exists(int(match.group(1))):
            _remove(os.path.join(folder, entry))


def _process_exists(pid: int) -> bool:
    """Whether a process ``pid`` exists here (another user's counts; ids past the system's range
    do not)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except (OverflowError, OSError):
        return False
    return True


def _synced(descriptor: int) -> None:
    """The file's data on the disk (a rename made after a crash of the machine would otherwise
    name an empty or cut file); a file system that cannot sync (a pipe, some network ones) is left."""
    try:
        os.fsync(descriptor)
    except OSError as err:
        if err.errno not in (errno.EINVAL, errno.ENOTSUP, errno.EROFS, errno.EBADF):
            raise


def _synced_folder(folder: str) -> None:
    """The folder's entries (the renames) on the disk, where the system can sync a folder."""
    try:
        descriptor = os.open(folder or ".", os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


def _remove(path: str | None) -> None:
    if path is not None:
        try:
            os.unlink(path)
        except OSError:
            pass


def _keep_mode(path: str, temporary: str) -> None:
    """The new file gets the old one's permissions (or the usual ones of a new file)."""
    try:
        mode = os.stat(path).st_mode & 0o777
    except OSError:
        mode = new_file_mode()
    os.chmod(temporary, mode)
