"""GoToScorer's weight files (github gotutiyan/GTS ``-gen_w_file`` / ``-w_file``): the number of
systems N on the first line, then one line per sentence with, for each gold chunk of the
sentence, how many of the N systems got it right.

Reading and writing them is here, so that the metric receives the table: its ``weights``
setting (:func:`weights_setting`) holds a :class:`WeightFile`, the path with the table and the
SHA-256 of the bytes read (the signature names the file by its contents).
"""
from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import InputError, plural
from .text import STDIN, ascii_integer, check_not_standard_output, check_path, read_whole

SYSTEMS = "systems"
"""``weights=systems``: the levels come from the corpus's own hypotheses, no file."""

MAX_WEIGHT_SYSTEMS = 1_000_000
"""Most systems a weight file may name on its first line: the weights of the levels 0..N take
8 bytes each (a first line of 1,000,000,000 asked for 7.5 GiB, one past 2**63 was an
OverflowError)."""


@dataclass(frozen=True)
class WeightTable:
    """Per gold chunk, how many of N systems got it right: the content of a GTS weight file."""

    n_systems: int
    correct: np.ndarray
    """Counts of all gold chunks, sentence after sentence, chunk order."""
    offsets: np.ndarray
    """First chunk of each sentence (D + 1)."""
    name: str = "weights"

    def format(self) -> str:
        """The original's weight file: N, then one line of counts per sentence."""
        lines = [str(self.n_systems)]
        values = self.correct.tolist()
        bounds = self.offsets.tolist()
        lines.extend(" ".join(map(str, values[bounds[k]:bounds[k + 1]])) for k in range(len(bounds) - 1))
        return "\n".join(lines) + "\n"

    def write(self, path: str) -> None:
        """Write :meth:`format` to ``path`` (the original's ``-gen_w_file``); a failed write is
        the OSError naming ``path`` (the command's one line and exit 1, as for its other outputs)."""
        from .atomic import atomic_output

        with atomic_output(path) as handle:
            handle.write(self.format())

    def check_sentences(self, sentences: int) -> None:
        """Refuse a whole corpus of ``sentences`` sentences unless the table has a line for each,
        and no more (the one message of the command, the metric and edit attribution)."""
        if len(self.offsets) - 1 != sentences:
            raise InputError(f"has {plural(len(self.offsets) - 1, 'sentence line')} "
                             f"but the corpus has {plural(sentences, 'sentence')}",
                             self.name)

    def select(self, rows: Any) -> "WeightTable":
        """The lines of sentences ``rows`` (0-based, any order, a sentence as often as given: a
        chunk of a corpus, or edit attribution's candidates, several of one sentence)."""
        rows = np.asarray(rows, dtype=np.int64).reshape(-1)
        sentences = len(self.offsets) - 1
        if len(rows) and int(rows.max()) >= sentences:
            raise InputError(f"has {plural(sentences, 'sentence line')} but the corpus has more sentences "
                             f"(at least {int(rows.max()) + 1})", self.name)
        counts = self.offsets[rows + 1] - self.offsets[rows]
        offsets = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        index = np.repeat(self.offsets[rows] - offsets[:-1], counts) + np.arange(offsets[-1], dtype=np.int64)
        return WeightTable(self.n_systems, self.correct[index], offsets, self.name)


def parse_weight_file(text: str, name: str) -> WeightTable:
    """Read the original's weight file format; any malformed line is an InputError with its number."""
    lines = text.rstrip().split("\n")
    first = lines[0].strip()
    if not first.isascii() or not first.isdigit() or int(first) < 1:
        raise InputError(f"first line must be the number of systems (a positive integer), got {first[:40]!r}",
                         name, 1)
    n_systems = int(first)
    if n_systems > MAX_WEIGHT_SYSTEMS:
        raise InputError(f"{n_systems:,} systems on the first line: at most {MAX_WEIGHT_SYSTEMS:,} "
                         "(gecmetrics.io.gts_weights.MAX_WEIGHT_SYSTEMS)", name, 1)
    values: list[int] = []
    offsets = [0]
    for number, line in enumerate(lines[1:], start=2):
        fields = line.split()
        if not fields:
            raise InputError("empty line: expected the counts of one sentence's chunks", name, number)
        counts = [ascii_integer(field) for field in fields]
        if None in counts:
            bad = fields[counts.index(None)]
            raise InputError(f"not an integer count: {bad[:40]!r}", name, number)
        if min(counts) < 0 or max(counts) > n_systems:
            bad = next(c for c in counts if c < 0 or c > n_systems)
            raise InputError(f"count {bad} is outside 0..{n_systems} (the number of systems on line 1)", name,
                             number)
        values.extend(counts)
        offsets.append(len(values))
    if len(offsets) == 1:
        raise InputError("has no sentence line after the number of systems", name)
    return WeightTable(n_systems, np.asarray(values, dtype=np.int64), np.asarray(offsets, dtype=np.int64), name)


def _read(path: str) -> tuple[WeightTable, str]:
    """The table of a weight file and the SHA-256 of its bytes (one read)."""
    check_path(path)  # not ''
    if path == STDIN:  # (a worker process reads the file again)
        raise InputError("a weight file is read by its path: standard input ('-') cannot be read again", "-w_file")
    try:
        with open(path, "rb") as handle:
            check_not_standard_output(handle, path)
            data = read_whole(handle, path)
    except OSError as err:
        raise InputError(f"cannot read the weight file: {err.strerror}", path) from None
    try:
        text = data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")  # as text mode reads it
        text = text.removeprefix("\ufeff")  # (a byte-order mark is dropped, as from every text input: SPEC 1)
    except UnicodeDecodeError:
        raise InputError("the weight file is not UTF-8 text", path) from None
    if not text.strip():
        raise InputError("the weight file is empty", path)
    return parse_weight_file(text, path), hashlib.sha256(data).hexdigest()


def read_weight_file(path: str) -> WeightTable:
    """A weight file written by the original's ``-gen_w_file`` (or :meth:`WeightTable.write`)."""
    return _read(path)[0]


class WeightFile(str):
    """A weight file's path (what settings and JSON show), with the ``table`` it held when read
    and the SHA-256 ``digest`` of its bytes; equal to another only with the same contents."""

    table: WeightTable
    digest: str

    def __new__(cls, path: str, table: WeightTable, digest: str) -> "WeightFile":
        made = super().__new__(cls, path)
        made.table, made.digest = table, digest
        return made

    @classmethod
    def read(cls, path: str) -> "WeightFile":
        return cls(path, *_read(path))

    def __eq__(self, other: object) -> bool:
        return str.__eq__(self, other) is True and getattr(other, "digest", None) == self.digest

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash((str(self), self.digest))

    def __reduce__(self) -> tuple:
        return (WeightFile, (str(self), self.table, self.digest))


def weights_setting(name: str, value: Any) -> str:
    """The ``weights`` setting: ``systems`` (the corpus's hypotheses), or a weight file's path,
    read here (a :class:`WeightFile`: the metric receives the table)."""
    label = name if name.startswith("-") else f"setting {name}"
    if isinstance(value, WeightFile):
        return value
    if value is None or (isinstance(value, str) and value.strip().lower() == SYSTEMS):
        return SYSTEMS
    if isinstance(value, str) and not value.strip():  # (weights=$W with W unset read as 'systems')
        raise InputError(f"{label} is empty: give 'systems' or a weight file")
    if not isinstance(value, (str, os.PathLike)):
        raise InputError(f"{label} must be 'systems' or a weight file, got {value!r}")
    path = os.fspath(value).strip()
    if not os.path.isfile(path):
        raise InputError(f"{label}: no weight file {path!r} (or 'systems': weights from the hypotheses)")
    return WeightFile.read(path)


weights_setting.reads_paths = True  # type: ignore[attr-defined]  # '/' is part of a path (registry)
