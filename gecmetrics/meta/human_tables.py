"""Human score tables: the ones shipped with the package (GJG15 and SEEDA, in
``gecmetrics/data/human``, whose comment lines cite their source) and a user's own TSV file
(format: :mod:`gecmetrics.meta.score_files`)."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Sequence

from ..errors import InputError, shown
from ..io.text import check_sequence, decode_lines, first_repeated, read_lines
from .score_files import first_non_number, number_column, parse_system_rows
from .systems import SUBSETS, default_subset, subset_systems

SHIPPED_TABLES = ("gjg15", "seeda")
"""Human tables shipped in ``gecmetrics/data/human``."""

# Columns of a shipped table that hold a metric's published scores, not human judgments: usable
# with an explicit human_score (or as metric scores) but not among the default human columns.
_METRIC_COLUMNS = {"gjg15": ("m2_f05_gjg15",)}


@dataclass(frozen=True)
class HumanTable:
    """Human system scores: one row per system, one or more numeric score columns.

    Columns with any non-number (such as rank ranges ``2-4``) are not score columns; they are
    kept in ``other_columns`` with the first non-number, so asking for one names its line.
    """

    name: str
    source: str  # where it was read from: the file path, or "<name> (shipped table)"
    systems: list[str]
    scores: dict[str, dict[str, float]]  # score column -> system -> score
    other_columns: dict[str, tuple[int, str]] = field(default_factory=dict)  # column -> (line, value)
    comments: list[str] = field(default_factory=list)
    metric_columns: list[str] = field(default_factory=list)  # numeric, but published metric scores

    @property
    def score_columns(self) -> list[str]:
        """Every numeric column (human scores and published metric scores)."""
        return list(self.scores)

    @property
    def human_columns(self) -> list[str]:
        """The numeric columns that hold human scores: the default columns to correlate with."""
        return [column for column in self.scores if column not in self.metric_columns]

    @property
    def default_subset(self) -> str:
        """``base`` for a table with SEEDA's fluency outputs, ``all`` otherwise."""
        return default_subset(self.systems)

    @property
    def subsets(self) -> dict[str, list[str]]:
        """The systems of every named subset (see :mod:`gecmetrics.meta.systems`)."""
        return {name: subset_systems(self.systems, name) for name in SUBSETS}

    def systems_of_subset(self, subset: str | Sequence[str] | None) -> list[str]:
        """The systems of a named subset or list of names (None: the table's default subset)."""
        return subset_systems(self.systems, subset)

    def columns(self, human_score: str | Sequence[str] | None = None) -> list[str]:
        """The human score columns asked for (default: :attr:`human_columns`), checked."""
        if human_score is None or isinstance(human_score, str):
            requested = [] if human_score is None else [human_score]
        else:
            requested = check_sequence(human_score, "human_score", "human score column names", ordered=False)
            if not requested or not all(isinstance(column, str) for column in requested):
                raise InputError(f"human_score must be a column name, a sequence of them or None (every human "
                                 f"score column), got {shown(human_score)}")
        if not requested:
            if not self.human_columns:
                column, (line, value) = next(iter(self.other_columns.items()))
                raise InputError(f"no human score column: every column has a non-number, e.g. column {column!r}: "
                                 f"{value!r} is not a number", self.source, line)
            return self.human_columns
        for column in requested:
            if column in self.other_columns:
                line, value = self.other_columns[column]
                raise InputError(f"column {column!r}: {value!r} is not a number", self.source, line)
            if column not in self.scores:
                raise InputError(f"human table {self.name} has no score column {column!r}; "
                                 f"valid: {', '.join(self.score_columns)}")
        repeated = first_repeated(requested)
        if repeated is not None:  # (its correlations were given once, silently)
            raise InputError(f"human score column {repeated!r} given twice", "human_score")
        return requested


def _human_table_from_lines(lines: Sequence[str], path: str, name: str) -> HumanTable:
    table = parse_system_rows(lines, path)
    scores: dict[str, dict[str, float]] = {}
    other_columns: dict[str, tuple[int, str]] = {}
    for column in table.header[1:]:
        bad = first_non_number(table, column)
        if bad is None:
            scores[column] = number_column(table, column, path)
        else:
            other_columns[column] = bad
    comments = [line.lstrip()[1:].strip() for line in lines if line.lstrip().startswith("#")]
    metric_columns = [column for column in _METRIC_COLUMNS.get(name, ()) if column in scores]
    return HumanTable(name, path, table.systems, scores, other_columns, comments, metric_columns)


def human_table_file(name_or_path: Any) -> str | None:
    """The file a human table is read from: a shipped table's inside the package (an input no
    output may replace, ``--json .../gjg15.tsv``), else the path as given (None for None)."""
    if isinstance(name_or_path, str) and name_or_path in SHIPPED_TABLES:
        return str(_shipped(name_or_path))
    return None if name_or_path is None else os.fspath(name_or_path)


def _shipped(name: str) -> Any:
    """The package's resource of a shipped table (``gjg15``, ``seeda``)."""
    return resources.files("gecmetrics") / "data" / "human" / f"{name}.tsv"


def load_human(name_or_path: str) -> HumanTable:
    """A shipped human table (``gjg15``, ``seeda``) by name, or a user TSV file by path.

    The file format is the shipped one: '#' comment lines, a header ``system<TAB>column...``,
    one row per system; numeric columns are the human scores.
    """
    if not isinstance(name_or_path, (str, os.PathLike)):
        raise InputError(f"a human table is a shipped name or a path, got {type(name_or_path).__name__}")
    name_or_path = os.fspath(name_or_path)
    if name_or_path in SHIPPED_TABLES:
        resource = _shipped(name_or_path)
        label = f"{name_or_path} (shipped table)"
        return _human_table_from_lines(decode_lines(resource.read_bytes(), label), label, name_or_path)
    looks_like_path = os.sep in name_or_path or "/" in name_or_path or "." in name_or_path
    if not os.path.exists(name_or_path) and not looks_like_path:
        raise InputError(f"unknown human table {name_or_path!r}; valid names: {', '.join(SHIPPED_TABLES)}, "
                         "or the path of a TSV file")
    return _human_table_from_lines(read_lines(name_or_path), name_or_path, name_or_path)
