"""Tab-separated tables of system scores, as meta-evaluation reads them: human tables (shipped
or a user's) and precomputed metric scores.

The format: lines starting with ``#`` are comments, the first other line is the header, whose
first column is ``system``, then one row per system. A value is a score when it is a finite
decimal number (``0.5``, ``-1``, ``.25``, ``6e-1``); ``nan``, ``2-3`` or ``0,45`` are not.
"""
from __future__ import annotations

import math
import os
import re
import stat
from dataclasses import dataclass
from typing import Sequence

from ..errors import InputError
from ..io.text import read_lines, shown_path

SINGLE_METRIC_NAME = "metric"
"""Name given to the metric of one flat ``{system: score}`` mapping or headerless score file read
from standard input."""

_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?", re.ASCII)  # (else \d: any script's digits)


@dataclass(frozen=True)
class SystemRows:
    """A parsed table: its header and its rows (line number, fields)."""

    header: list[str]
    rows: list[tuple[int, list[str]]]

    @property
    def systems(self) -> list[str]:
        return [fields[0] for _, fields in self.rows]


def parse_system_rows(lines: Sequence[str], path: str) -> SystemRows:
    """Split a '#'-commented TSV with a header whose first column is ``system``; every error
    names the file and line."""
    header: list[str] | None = None
    rows: list[tuple[int, list[str]]] = []
    seen_systems: dict[str, int] = {}
    for number, line in enumerate(lines, start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = [value.strip() for value in line.split("\t")]
        if header is None:
            if fields[0] != "system":
                raise InputError(f"the header must start with a 'system' column, found {fields[0]!r}", path, number)
            if len(fields) < 2:
                raise InputError("the header has no score column after 'system'", path, number)
            duplicates = sorted({name for name in fields if fields.count(name) > 1})
            if duplicates or "" in fields:
                raise InputError(f"empty or repeated column names in the header: {duplicates or ['']}", path, number)
            header = fields
            continue
        if len(fields) != len(header):
            raise InputError(f"has {len(fields)} tab-separated fields but the header has {len(header)}", path, number)
        system = fields[0]
        if not system:
            raise InputError("empty system name", path, number)
        if system in seen_systems:
            raise InputError(f"system {system!r} appears twice (first on line {seen_systems[system]})", path, number)
        seen_systems[system] = number
        rows.append((number, fields))
    if header is None:
        raise InputError("no header line (expected 'system<TAB>score column...')", path)
    if not rows:
        raise InputError("no system rows after the header", path)
    return SystemRows(header, rows)


def parse_number(text: str) -> float | None:
    """A finite decimal number, or None (nan, inf and anything else are not scores)."""
    if not _NUMBER.fullmatch(text):
        return None
    value = float(text)
    return value if math.isfinite(value) else None


def first_non_number(table: SystemRows, column: str) -> tuple[int, str] | None:
    """(line, value) of the first value of ``column`` that is not a number, or None."""
    index = table.header.index(column)
    return next(((number, fields[index]) for number, fields in table.rows if parse_number(fields[index]) is None),
                None)


def number_column(table: SystemRows, column: str, path: str) -> dict[str, float]:
    """All values of one column as numbers; the first non-number is an error naming its line."""
    bad = first_non_number(table, column)
    if bad is not None:
        raise InputError(f"column {column!r}: {bad[1]!r} is not a number", path, bad[0])
    index = table.header.index(column)
    return {fields[0]: float(fields[index]) for _, fields in table.rows}


def read_system_scores(path: str) -> dict[str, dict[str, float]]:
    """Read precomputed system scores: header ``system<TAB>metric1<TAB>...``, one row per system;
    or, without a header, two columns ``system<TAB>score`` (the metric is then named after the
    file). Returns metric -> system -> score. Every value must be a number ('#' lines are
    comments; ``-`` reads standard input)."""
    label = shown_path(path)
    lines = read_lines(path)
    if _headerless(lines):
        lines = [f"system\t{_file_metric_name(path)}"] + list(lines)
    table = parse_system_rows(lines, label)
    return {column: number_column(table, column, label) for column in table.header[1:]}


def _file_metric_name(path: str) -> str:
    """The metric of a headerless scores file: its name without the extension; ``metric`` for
    standard input and for a pipe (``--scores <(...)`` is /dev/fd/63: it was named '63')."""
    try:
        regular = path != "-" and stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        regular = False
    return os.path.splitext(os.path.basename(path))[0] if regular else SINGLE_METRIC_NAME


def _headerless(lines: Sequence[str]) -> bool:
    """Whether the first non-comment line is already a ``system<TAB>number`` row."""
    for line in lines:
        if line.strip() and not line.lstrip().startswith("#"):
            fields = [value.strip() for value in line.split("\t")]
            return len(fields) == 2 and fields[0] != "system" and parse_number(fields[1]) is not None
    return False
