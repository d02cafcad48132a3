"""Reading text files as SPEC 1 says: one sentence per line, UTF-8.

Lines are split on ``\\n`` only (a lone ``\\r`` inside a line is a character), a ``\\r\\n``
terminator counts as ``\\n``, a final line without ``\\n`` counts, and a leading byte-order mark
is dropped. Nothing else is changed. Errors name the file and line.
"""
from __future__ import annotations

import os
import re
import stat
import sys
from typing import Any, BinaryIO, Callable, Iterable, Iterator, Mapping, Sequence

from ..core.checks import check_name_text
from ..core.lines import is_iterable, unordered
from ..errors import InputError, kind_of, plural, shown

STDIN = "-"


NUL_MESSAGE = "NUL byte (a binary file, or UTF-16 without a byte-order mark?): text files are UTF-8"
_UNICODE_MARKS = ((b"\xff\xfe\x00\x00", "UTF-32"), (b"\x00\x00\xfe\xff", "UTF-32"), (b"\xff\xfe", "UTF-16"),
                  (b"\xfe\xff", "UTF-16"))


def other_encoding(data: bytes, first_line: int = 1) -> InputError | None:
    """The error for a file that starts with a UTF-16 or UTF-32 byte-order mark (only at the
    start of the file: ``first_line`` 1), or None."""
    if first_line == 1:
        for mark, encoding in _UNICODE_MARKS:
            if data.startswith(mark):
                return InputError(f"{encoding} text (it starts with a {encoding} byte-order mark): text files are "
                                  f"UTF-8 (convert it, e.g. iconv -f {encoding} -t UTF-8)")
    return None


def check_no_nul(data: bytes, path: str, first_line: int = 1) -> None:
    """A NUL byte is an InputError naming the file and line: valid UTF-8, but never in text
    (a binary file; UTF-16 without its byte-order mark has one in every ASCII character, and
    would otherwise be read as text and scored). One search of the buffer, before decoding."""
    position = data.find(b"\0")
    if position >= 0:
        found = other_encoding(data, first_line)
        if found is not None:
            raise InputError(str(found), path, first_line)
        raise InputError(NUL_MESSAGE, path, data.count(b"\n", 0, position) + first_line)


def decode_utf8(data: bytes, path: str, first_line: int = 1) -> str:
    """``data`` decoded; a NUL byte or invalid UTF-8 (a UTF-16 or UTF-32 file said as such) is an
    InputError naming the file and line (``first_line``: the number of the first line of
    ``data`` in its file)."""
    check_no_nul(data, path, first_line)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        found = other_encoding(data, first_line)
        if found is not None:
            raise InputError(str(found), path, first_line) from None
        raise InputError(f"invalid UTF-8 (byte 0x{data[err.start]:02x})", path,
                         data.count(b"\n", 0, err.start) + first_line) from None


def decode_lines(data: bytes, path: str, first_line: int = 1, start_of_file: bool = True) -> list[str]:
    """Split raw bytes into lines as SPEC 1 says; invalid UTF-8 and NUL bytes name the file and
    line (``first_line``: the number of the first line of ``data`` in its file)."""
    return split_lines(decode_utf8(data, path, first_line), start_of_file)


def split_lines(text: str, start_of_file: bool = True) -> list[str]:
    """Lines of a decoded text: split on ``\n`` only, a ``\r\n`` terminator counts as
    ``\n``, a final line without ``\n`` counts, a leading byte-order mark is dropped."""
    if start_of_file and text.startswith("\ufeff"):
        text = text[1:]
    if not text:
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    if "\r" not in text:  # (the common case: no line to look at)
        return lines
    return [line[:-1] if line.endswith("\r") else line for line in lines]


EMPTY_PATH = "an empty file name ('') where a path belongs: give the file's path"
"""The error of a path given as '' (an empty shell variable, ``-o ""``): it named no file
(``: no such file``), or, as an output, was taken for the current folder."""


def open_input(path: str) -> BinaryIO:
    """A file opened for reading bytes; a missing file, a directory or an unreadable file is an
    InputError naming it."""
    if path == "":
        raise InputError(EMPTY_PATH)
    try:
        handle = open(path, "rb")
    except IsADirectoryError:
        raise InputError("is a directory, not a file", path) from None
    except FileNotFoundError:
        raise InputError("no such file", path) from None
    except OSError as err:
        raise InputError(f"cannot read: {err.strerror}", path) from None
    check_not_standard_output(handle, path)
    return handle


def check_not_standard_output(handle: BinaryIO, path: str) -> None:
    """An input that is also where standard output goes (``gecmetric ... >> AMU`` with AMU an
    input: the shell opened it for the output) is closed and refused before anything is read or
    written: the output would land in what is read (``>`` had already emptied it)."""
    try:
        output = os.fstat(1)
        read = os.fstat(handle.fileno())
    except (OSError, ValueError):  # (stdout closed; a handle without a descriptor)
        return
    if stat.S_ISREG(output.st_mode) and (output.st_dev, output.st_ino) == (read.st_dev, read.st_ino):
        handle.close()
        raise InputError("is also the standard output (the command's output redirected into it with > or >>): it "
                         "would be written into what is read; redirect the output to another file", path)


def standard_input() -> BinaryIO:
    """Standard input (``-``) as bytes; a process started without one (``<&-``: Python's
    ``sys.stdin`` is None) is an InputError, not an AttributeError."""
    if sys.stdin is None:
        raise InputError("standard input ('-') is closed: nothing to read")
    return sys.stdin.buffer


_ASCII_INTEGER = re.compile(r"[+-]?[0-9]+")
_ASCII_DIGITS = re.compile(r"[0-9]+")


def ascii_integer(text: str, signed: bool = True) -> int | None:
    """The integer ``text`` writes in ASCII digits (a sign unless ``signed`` is False, and
    surrounding whitespace allowed), or None. Python's ``int()`` also reads ``1_0``, ``\u0663``
    and fullwidth digits, which the tools that write these files (and GJG15's Perl) do not, and
    raises on ``\u00b2``, which ``str.isdigit()`` passes."""
    text = text.strip()
    if not (_ASCII_INTEGER if signed else _ASCII_DIGITS).fullmatch(text):
        return None
    try:
        return int(text)
    except ValueError:  # more digits than Python converts (sys.get_int_max_str_digits)
        return None


def check_path(path: Any, what: str = "file") -> str:
    """A path given to a reader: a string or os.PathLike (as a string); anything else (None, a
    list of lines) is an InputError saying what was expected."""
    if isinstance(path, os.PathLike):
        path = os.fspath(path)
    if not isinstance(path, str):
        raise InputError(f"the {what} must be given as a path (a string or os.PathLike), got {type(path).__name__}")
    if path == "":
        raise InputError(EMPTY_PATH)
    if "\0" in path:  # (open() raised ValueError: embedded null byte)
        raise InputError(f"the {what} path holds a NUL character, which no file name can: {path!r}")
    return path


def check_sequence(values: Any, name: str, items: str, ordered: bool = True) -> list[Any]:
    """Several values given as a sequence (paths, system names, annotator ids): one string
    (whose characters would be read as the values), one path or anything not iterable is an
    InputError naming the argument (``name``) and what it holds (``items``), never split; so
    is a set where the order counts (``ordered``: not for names that only select)."""
    if isinstance(values, (str, bytes, os.PathLike)) or not is_iterable(values):
        raise InputError(f"{name} must be a sequence of {items}, got {shown(values)}")
    problem = unordered(values) if ordered else unordered(values, sets=False)  # a mapping: its keys, never
    if problem is not None:
        raise InputError(f"{name} must be a sequence of {items}, got {problem}")
    return list(values)


def first_repeated(values: Iterable[Any]) -> Any:
    """The first value given a second time (None when each is given once)."""
    seen: set = set()
    for value in values:
        if value in seen:
            return value
        seen.add(value)
    return None


def check_system_names(values: Any, name: str = "systems") -> list[str]:
    """System names given as a sequence (:func:`check_sequence`), each once: a name listed twice
    would be correlated, windowed or ranked twice (an InputError naming it). A set is taken in
    code-point order (as the functions order all systems by default): its own order changes from
    one process to the next, and ties in a ranking or a window keep the order given."""
    names = check_sequence(values, name, "system names", ordered=False)
    for item in names:  # a number or None matched no system and failed deep inside, compared with names
        if not isinstance(item, str):
            raise InputError(f"{name}: system names are strings, got {kind_of(item)}"
                             + ("" if item is None else f" ({shown(item)})"))
        check_name_text(item, name)
    if unordered(values) is not None:
        names = sorted(names)
    repeated = first_repeated(names)
    if repeated is not None:
        raise InputError(f"{name}: the system {repeated!r} is listed twice")
    return names


def check_named(values: Any, name: str, what: str) -> Mapping[str, Any]:
    """A mapping from system names (strings) to ``what``: anything else, or a key that is not a
    string (which matched no system and failed later, sorted or joined with the names), is an
    InputError ``{name} must map each system's name to {what}``."""
    if not isinstance(values, Mapping) or not all(isinstance(key, str) for key in values):
        odd = next((f" (a key {shown(key)})" for key in values if not isinstance(key, str)), "") \
            if isinstance(values, Mapping) else f", got {kind_of(values)}"
        raise InputError(f"{name} must map each system's name to {what}{odd}")
    for key in values:
        check_name_text(key, name)
    return values


REPEATED_REFERENCE = ("as a reference: each copy would count as one more reference, and the scores would change "
                      "(give each reference file once)")
"""Why a reference file given twice is refused (:func:`check_distinct`): GLEU+ would sample it
twice as often, an annotator would be counted twice."""


def check_distinct(paths: Sequence[Any], why: str) -> None:
    """Each file once: the first one given again, by the same name or another (``./REF0``, a
    symbolic or hard link: the same file), is an InputError naming it, ``why`` saying what a
    repeated file would do (``given twice {why}``)."""
    seen: dict[Any, Any] = {}
    for path in paths:
        identity = _file_identity(path)
        if identity in seen:
            other = seen[identity]
            also = "" if other == path else f" (the same file as {shown_path(other)})"
            raise InputError(f"given twice{also} {why}", shown_path(path))
        seen[identity] = path


def _file_identity(path: Any) -> Any:
    """A file's device and inode when it can be looked up (else its name, as given)."""
    if path == STDIN or not isinstance(path, (str, os.PathLike)):
        return path
    try:
        found = os.stat(path)
    except (OSError, ValueError):
        return path
    return ("file", found.st_dev, found.st_ino)


def check_paths(paths: Any, name: str) -> list[Any]:
    """Paths given as a sequence (:func:`check_sequence`); each path as :func:`check_path`."""
    paths = check_sequence(paths, name, "file paths")
    for path in paths:
        check_path(path)
    return paths


def read_lines(path: str) -> list[str]:
    """Read a text file (or standard input for ``-``) into a list of lines."""
    path = check_path(path)
    if path == STDIN:
        return decode_lines(read_whole(standard_input(), "<stdin>"), "<stdin>")
    with open_input(path) as handle:
        try:
            data = read_whole(handle, path)
        except OSError as err:
            raise InputError(f"cannot read: {err.strerror}", path) from None
    return decode_lines(data, path)


PIECE_BYTES = 1 << 20
"""Bytes read at a time by :func:`read_to_nul`, :func:`file_lines` and the run's line reader
(:class:`gecmetrics.run.reading.LineReader`), each piece searched for a NUL
byte before the next is read: a binary file (``/dev/zero``, a gigabyte without a line break) is
refused at its first piece, not once it is in memory whole (the out-of-memory killer, first)."""


def read_whole(handle: BinaryIO, path: str) -> bytes:
    """A file's bytes to its end, a piece at a time: a NUL byte is the InputError naming its line
    (the file read only to the piece that holds it: :func:`read_to_nul`, the last piece then)."""
    data = read_to_nul(handle)
    if b"\0" in data[-PIECE_BYTES:]:
        check_no_nul(data, path)
    return data


def read_to_nul(handle: BinaryIO, nul_allowed: Callable[[bytes], bool] | None = None) -> bytes:
    """A file's bytes to its end, a piece at a time (:data:`PIECE_BYTES`), or only to the end of
    the first piece that holds a NUL byte unless ``nul_allowed(the first piece)``: the caller
    refuses that NUL before decoding, naming its line (and, from the first piece, a UTF-16 or
    UTF-32 byte-order mark), and a binary file or ``/dev/zero`` is never held whole."""
    pieces: list[bytes] = []
    while piece := handle.read(PIECE_BYTES):
        pieces.append(piece)
        if b"\0" in piece and not (nul_allowed is not None and nul_allowed(pieces[0])):
            break
    return b"".join(pieces)


def file_lines(handle: BinaryIO, path: str, first_line: int = 1) -> Iterator[bytes]:
    """A file's lines as bytes (each with its line break), as iterating ``handle`` gives them,
    but a line is read a piece at a time (:data:`PIECE_BYTES`) and a piece holding a NUL byte is
    the InputError naming the line at once (iterating the handle held a line without a break
    whole in memory: 23 GB for ``/dev/zero``)."""
    number = first_line
    while line := handle.readline(PIECE_BYTES):
        if len(line) == PIECE_BYTES and not line.endswith(b"\n"):
            pieces = [line]
            while len(pieces[-1]) == PIECE_BYTES and not pieces[-1].endswith(b"\n"):
                if b"\0" in pieces[-1]:
                    raise InputError(NUL_MESSAGE, path, number)
                pieces.append(handle.readline(PIECE_BYTES))
            line = b"".join(pieces)
        yield line
        number += 1


def shown_path(path: str) -> str:
    """A path as messages show it (``<stdin>`` for ``-``)."""
    return "<stdin>" if path == STDIN else path


def check_stdin_once(*paths: str | None) -> None:
    """Standard input (``-``) among ``paths`` at most once: a second reader would find it empty
    ("has no sentences") or fight the first for its lines. None (a file not given) is skipped."""
    if sum(path == STDIN for path in paths) > 1:
        raise InputError("standard input ('-') can be read only once")


def blame_line_counts(counts: list[tuple[str, int]]) -> None:
    """All files (the source first) must have the source's line count; the odd one out is
    named: the source when all the others agree, else the first file that differs from it."""
    if len({count for _, count in counts}) <= 1:
        return
    (source_name, source), others = counts[0], counts[1:]
    if len({count for _, count in others}) == 1 and len(others) > 1:
        raise InputError(f"has {plural(source, 'line')} "
                         f"but the other {len(others)} files have {others[0][1]}{_m2_hint(source_name)}", source_name)
    for name, count in others:
        if count != source:
            raise InputError(f"has {plural(count, 'line')} but the source {source_name} has {source}{_m2_hint(name)}",
                             name)


def _m2_hint(name: str) -> str:
    """What a line-count error adds when the file named begins as an M2 file does (its first 100
    lines that are not blank 'S ' and 'A ' lines, an 'S ' line first) where plain text is read:
    most likely the wrong file, or a flag that takes text (``errant -r`` with ``--annotate-refs``)."""
    try:
        if not os.path.isfile(name):  # (a FIFO read to its end would wait for another writer)
            return ""
        with open(name, "rb") as handle:
            lines = [line for line in handle.read(PIECE_BYTES).split(b"\n")[:-1] if line.strip()][:100]
    except (OSError, ValueError):  # (<stdin>, a file gone since)
        return ""
    if lines and lines[0].startswith(b"S ") and all(line.startswith((b"S ", b"A ")) for line in lines):
        return ": it reads as an M2 file ('S' and 'A' lines), where plain text is expected (a sentence a line)"
    return ""
