"""Meta-evaluation: how well system-level metric scores agree with human rankings.

A metric is judged by the correlation, over a set of systems, between its corpus scores and
human scores of the same systems (Expected Wins, TrueSkill). This module holds the two
correlations (Pearson r, Spearman rho; NumPy only, no SciPy), the human tables shipped with the
package (GJG15 and SEEDA), a reader for user tables and for precomputed system scores, and
:func:`meta_evaluate`, which pairs them up and reports every (metric, human score) pair.
"""
from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Mapping, Sequence

import numpy as np

from ..io.text import decode_lines, read_lines
from ..errors import InputError

MIN_SYSTEMS = 3
"""Fewer systems than this give no meaningful correlation (with 2, r is always +-1)."""

SHIPPED_TABLES = ("gjg15", "seeda")
"""Human tables shipped in ``gecmetrics/data/human`` (their comment lines cite the source)."""

SUBSET_ALL = "all"

# SEEDA's system subsets, as described in the comment lines of seeda.tsv (Kobayashi et al.,
# TACL 2024): the standard 'base' set leaves out GPT-3.5, INPUT and REF-F.
_SEEDA_LEFT_OUT = {
    "base": ("GPT-3.5", "INPUT", "REF-F"),
    "+INPUT": ("GPT-3.5", "REF-F"),
    "+fluency": ("INPUT",),
    SUBSET_ALL: (),
}
_SUBSETS_LEFT_OUT = {"seeda": _SEEDA_LEFT_OUT}
_DEFAULT_SUBSET = {"seeda": "base"}
# Columns of a shipped table that hold a metric's published scores, not human judgments: usable
# with an explicit human_score (or as metric scores) but not among the default human columns.
_METRIC_COLUMNS = {"gjg15": ("m2_f05_gjg15",)}

SINGLE_METRIC_NAME = "metric"
"""Name given to the metric when :func:`meta_evaluate` receives one flat ``{system: score}``."""

_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


# --------------------------------------------------------------------------- correlations


def _as_vector(values: Sequence[float], name: str) -> np.ndarray:
    vector = np.asarray(values, dtype=np.float64)
    if vector.ndim != 1:
        raise InputError(f"{name} must be a flat sequence of numbers")
    if not np.all(np.isfinite(vector)):
        raise InputError(f"{name} contains a value that is not a finite number")
    return vector


def _check_pair(x: Sequence[float], y: Sequence[float]) -> tuple[np.ndarray, np.ndarray]:
    """Validate two paired score vectors: same length, at least 3, finite, not constant."""
    x_vec = _as_vector(x, "the first input")
    y_vec = _as_vector(y, "the second input")
    if len(x_vec) != len(y_vec):
        raise InputError(f"the two inputs have different lengths ({len(x_vec)} and {len(y_vec)})")
    if len(x_vec) < MIN_SYSTEMS:
        raise InputError(f"a correlation needs at least {MIN_SYSTEMS} systems, got {len(x_vec)}")
    for vector, name in ((x_vec, "first"), (y_vec, "second")):
        if np.all(vector == vector[0]):
            raise InputError(f"the {name} input is constant ({vector[0]:g} for all {len(vector)} systems): "
                             "its correlation is undefined")
    return x_vec, y_vec


def _pearson_unchecked(x: np.ndarray, y: np.ndarray) -> float:
    # r = cosine of the centred vectors. Each is scaled by its largest deviation (tiny or huge
    # scores must not under/overflow), then made unit length before the dot product, which
    # keeps r within rounding of +-1 for exact linear relations; the clip removes that rounding.
    x_dev = x - x.mean()
    y_dev = y - y.mean()
    x_dev /= np.abs(x_dev).max()
    y_dev /= np.abs(y_dev).max()
    r = float(np.dot(x_dev / np.linalg.norm(x_dev), y_dev / np.linalg.norm(y_dev)))
    return max(-1.0, min(1.0, r))


def pearson(x: Sequence[float], y: Sequence[float]) -> float:
    """Pearson's r of two paired score vectors (the linear agreement of the scores)."""
    x_vec, y_vec = _check_pair(x, y)
    return _pearson_unchecked(x_vec, y_vec)


def average_ranks(values: Sequence[float]) -> np.ndarray:
    """Ranks 1..n of the values, tied values sharing the mean of their ranks (as in rankdata)."""
    vector = np.asarray(values, dtype=np.float64)
    order = np.argsort(vector, kind="mergesort")
    sorted_values = vector[order]
    starts_group = np.concatenate(([True], sorted_values[1:] != sorted_values[:-1]))
    group_of_position = np.cumsum(starts_group) - 1
    group_starts = np.flatnonzero(starts_group)
    group_ends = np.concatenate((group_starts[1:], [len(vector)]))  # exclusive
    mean_rank_of_group = (group_starts + 1 + group_ends) / 2.0  # mean of ranks start+1 .. end
    ranks = np.empty(len(vector), dtype=np.float64)
    ranks[order] = mean_rank_of_group[group_of_position]
    return ranks


def spearman(x: Sequence[float], y: Sequence[float]) -> float:
    """Spearman's rho: Pearson's r of the average ranks (agreement of the two orderings)."""
    x_vec, y_vec = _check_pair(x, y)
    return _pearson_unchecked(average_ranks(x_vec), average_ranks(y_vec))


# --------------------------------------------------------------------------- TSV reading


@dataclass(frozen=True)
class _TsvTable:
    header: list[str]
    rows: list[tuple[int, list[str]]]  # (line number, fields)


def _parse_tsv(lines: Sequence[str], path: str) -> _TsvTable:
    """Split a '#'-commented TSV with a header whose first column is ``system``."""
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
    return _TsvTable(header, rows)


def _parse_number(text: str) -> float | None:
    """A finite decimal number, or None (nan, inf and anything else are not scores)."""
    if not _NUMBER.fullmatch(text):
        return None
    value = float(text)
    return value if math.isfinite(value) else None


def _number_column(table: _TsvTable, column: str, path: str) -> dict[str, float]:
    """All values of one column as numbers; the first non-number is an error naming its line."""
    index = table.header.index(column)
    values = {}
    for number, fields in table.rows:
        value = _parse_number(fields[index])
        if value is None:
            raise InputError(f"column {column!r}: {fields[index]!r} is not a number", path, number)
        values[fields[0]] = value
    return values


# --------------------------------------------------------------------------- human tables


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
    subsets: dict[str, list[str]] = field(default_factory=dict)  # subset name -> systems in it
    default_subset: str = SUBSET_ALL
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

    def systems_of_subset(self, subset: str | None) -> list[str]:
        """The systems of a named subset (None: the table's default subset)."""
        subset = self.default_subset if subset is None else subset
        if subset not in self.subsets:
            raise InputError(f"unknown system subset {subset!r} for human table {self.name}; "
                             f"valid: {', '.join(self.subsets)}")
        return self.subsets[subset]


def _human_table_from_lines(lines: Sequence[str], path: str, name: str) -> HumanTable:
    table = _parse_tsv(lines, path)
    scores: dict[str, dict[str, float]] = {}
    other_columns: dict[str, tuple[int, str]] = {}
    for index, column in enumerate(table.header[1:], start=1):
        first_bad = next(((number, fields[index]) for number, fields in table.rows
                          if _parse_number(fields[index]) is None), None)
        if first_bad is None:
            scores[column] = _number_column(table, column, path)
        else:
            other_columns[column] = first_bad
    systems = [fields[0] for _, fields in table.rows]
    subsets = {SUBSET_ALL: list(systems)}
    default_subset = SUBSET_ALL
    if name in _SUBSETS_LEFT_OUT:
        subsets = {}
        for subset, left_out in _SUBSETS_LEFT_OUT[name].items():
            missing = [system for system in left_out if system not in systems]
            if missing:  # only if the shipped table were edited inconsistently
                raise InputError(f"subset {subset!r} refers to systems missing from the table: {missing}", path)
            subsets[subset] = [system for system in systems if system not in left_out]
        default_subset = _DEFAULT_SUBSET[name]
    comments = [line.lstrip()[1:].strip() for line in lines if line.lstrip().startswith("#")]
    metric_columns = [column for column in _METRIC_COLUMNS.get(name, ()) if column in scores]
    return HumanTable(name, path, systems, scores, other_columns, subsets, default_subset, comments, metric_columns)


def load_human(name_or_path: str) -> HumanTable:
    """A shipped human table (``gjg15``, ``seeda``) by name, or a user TSV file by path.

    The file format is the shipped one: '#' comment lines, a header ``system<TAB>column...``,
    one row per system; numeric columns are the human scores.
    """
    if name_or_path in SHIPPED_TABLES:
        resource = resources.files("gecmetrics") / "data" / "human" / f"{name_or_path}.tsv"
        label = f"{name_or_path} (shipped table)"
        return _human_table_from_lines(decode_lines(resource.read_bytes(), label), label, name_or_path)
    looks_like_path = os.sep in name_or_path or "/" in name_or_path or "." in name_or_path
    if not os.path.exists(name_or_path) and not looks_like_path:
        raise InputError(f"unknown human table {name_or_path!r}; valid names: {', '.join(SHIPPED_TABLES)}, "
                         "or the path of a TSV file")
    return _human_table_from_lines(read_lines(name_or_path), name_or_path, name_or_path)


# --------------------------------------------------------------------------- system scores


def read_system_scores(path: str) -> dict[str, dict[str, float]]:
    """Read precomputed system scores: header ``system<TAB>metric1<TAB>...``, one row per system;
    or, without a header, two columns ``system<TAB>score`` (the metric is then named after the
    file). Returns metric -> system -> score. Every value must be a number ('#' lines are
    comments)."""
    label = path if path != "-" else "<stdin>"
    lines = read_lines(path)
    if _headerless(lines):
        metric = os.path.splitext(os.path.basename(path))[0] if path != "-" else SINGLE_METRIC_NAME
        lines = [f"system\t{metric}"] + list(lines)
    table = _parse_tsv(lines, label)
    return {column: _number_column(table, column, label) for column in table.header[1:]}


def _headerless(lines: Sequence[str]) -> bool:
    """Whether the first non-comment line is already a ``system<TAB>number`` row."""
    for line in lines:
        if line.strip() and not line.lstrip().startswith("#"):
            fields = [value.strip() for value in line.split("\t")]
            return len(fields) == 2 and fields[0] != "system" and _parse_number(fields[1]) is not None
    return False


# --------------------------------------------------------------------------- meta-evaluation


@dataclass(frozen=True)
class Correlation:
    """Agreement of one metric with one human score column over ``systems``."""

    metric: str
    human_score: str
    pearson: float
    spearman: float
    n_systems: int
    systems: list[str]


@dataclass(frozen=True)
class MetaEvalResult:
    """All (metric, human score) correlations, with the table and subset used and notes
    about systems left out (the CLI prints the notes on stderr)."""

    human_table: str
    subset: str
    correlations: list[Correlation]
    notes: list[str]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (full precision)."""
        return {
            "human_table": self.human_table,
            "subset": self.subset,
            "correlations": [
                {"metric": c.metric, "human_score": c.human_score, "pearson": c.pearson,
                 "spearman": c.spearman, "n": c.n_systems, "systems": list(c.systems)}
                for c in self.correlations
            ],
            "notes": list(self.notes),
        }


def _normalize_metric_scores(metric_scores: Mapping[str, Any]) -> dict[str, dict[str, float]]:
    """Accept ``{system: score}`` (one metric) or ``{metric: {system: score}}``."""
    if not metric_scores:
        raise InputError("no metric scores given")
    values = list(metric_scores.values())
    if all(isinstance(value, Mapping) for value in values):
        nested = {str(metric): dict(scores) for metric, scores in metric_scores.items()}
    elif not any(isinstance(value, Mapping) for value in values):
        nested = {SINGLE_METRIC_NAME: dict(metric_scores)}
    else:
        raise InputError("metric scores mix {system: score} and {metric: {system: score}} entries")
    for metric, scores in nested.items():
        if not scores:
            raise InputError(f"metric {metric!r} has no system scores")
        for system, score in scores.items():
            if isinstance(score, bool) or not isinstance(score, (int, float, np.integer, np.floating)) \
                    or not math.isfinite(score):
                raise InputError(f"metric {metric!r}, system {system!r}: {score!r} is not a finite number")
    return nested


def _human_columns(table: HumanTable, human_score: str | Sequence[str] | None) -> list[str]:
    requested = [human_score] if isinstance(human_score, str) else list(human_score or ())
    if not requested:
        if not table.human_columns:
            column, (line, value) = next(iter(table.other_columns.items()))
            raise InputError(f"no human score column: every column has a non-number, e.g. column {column!r}: "
                             f"{value!r} is not a number", table.source, line)
        return table.human_columns
    for column in requested:
        if column in table.other_columns:
            line, value = table.other_columns[column]
            raise InputError(f"column {column!r}: {value!r} is not a number", table.source, line)
        if column not in table.scores:
            raise InputError(f"human table {table.name} has no score column {column!r}; "
                             f"valid: {', '.join(table.score_columns)}")
    return requested


def meta_evaluate(
    metric_scores: Mapping[str, float] | Mapping[str, Mapping[str, float]],
    human: str | HumanTable = "gjg15",
    human_score: str | Sequence[str] | None = None,
    systems: str | None = None,
) -> MetaEvalResult:
    """Correlate system-level metric scores with human scores.

    ``metric_scores``: ``{system: score}`` for one metric or ``{metric: {system: score}}``.
    ``human``: a shipped table name, a TSV path or a loaded :class:`HumanTable`.
    ``human_score``: column(s) to use (default: every human score column; a published metric
    column such as GJG15's ``m2_f05_gjg15`` only when named).
    ``systems``: system subset of the table (SEEDA: base, +INPUT, +fluency, all; default: the
    table's own default, ``base`` for SEEDA and all rows otherwise).
    A system with metric scores but no human row is an error; human rows without metric scores,
    and systems outside the subset, are left out with a note.
    """
    table = human if isinstance(human, HumanTable) else load_human(human)
    nested = _normalize_metric_scores(metric_scores)
    columns = _human_columns(table, human_score)
    subset = table.default_subset if systems is None else systems
    subset_systems = table.systems_of_subset(subset)

    unknown = sorted({system for scores in nested.values() for system in scores if system not in table.systems})
    if unknown:
        raise InputError(f"systems with metric scores but no row in human table {table.name}: {', '.join(unknown)}; "
                         f"it has: {', '.join(table.systems)}")

    notes = _left_out_notes(table, nested, subset, subset_systems, human_score)
    correlations: list[Correlation] = []
    for metric, scores in nested.items():
        correlations += _metric_correlations(table, metric, scores, columns, subset, subset_systems)
    return MetaEvalResult(table.name, subset, correlations, notes)


def _left_out_notes(table: HumanTable, nested: dict[str, dict[str, float]], subset: str,
                    subset_systems: list[str], human_score: Any) -> list[str]:
    """What the correlations leave out, for the user: unused columns, systems outside the
    subset, human rows without scores."""
    notes: list[str] = []
    if not human_score and table.other_columns and table.name not in SHIPPED_TABLES:
        skipped = [f"{column} (line {line}: {value!r})" for column, (line, value) in table.other_columns.items()]
        notes.append(f"{table.source}: columns with a non-number, not used as human scores: {', '.join(skipped)}")
    outside_subset = [s for s in table.systems
                      if s not in subset_systems and any(s in scores for scores in nested.values())]
    if outside_subset:
        notes.append(f"left out (not in system subset {subset!r} of {table.name}): {', '.join(outside_subset)}")
    metrics_by_rows_left_out: dict[tuple[str, ...], list[str]] = {}
    for metric, scores in nested.items():
        without_scores = tuple(system for system in subset_systems if system not in scores)
        if without_scores:
            metrics_by_rows_left_out.setdefault(without_scores, []).append(metric)
    for without_scores, metrics in metrics_by_rows_left_out.items():
        notes.append(f"{table.name} rows without scores for metric {', '.join(map(repr, metrics))}, left out: "
                     f"{', '.join(without_scores)}")
    return notes


def _metric_correlations(table: HumanTable, metric: str, scores: dict[str, float], columns: list[str],
                         subset: str, subset_systems: list[str]) -> list[Correlation]:
    """One metric against every human column, over the subset's systems it scores."""
    used = [system for system in subset_systems if system in scores]
    if len(used) < MIN_SYSTEMS:
        raise InputError(f"metric {metric!r}: a correlation needs at least {MIN_SYSTEMS} systems, "
                         f"got {len(used)} in subset {subset!r} of {table.name}")
    metric_vector = [scores[system] for system in used]
    if len(set(metric_vector)) == 1:
        raise InputError(f"metric {metric!r} gives the same score ({metric_vector[0]:g}) to all "
                         f"{len(used)} systems: its correlation is undefined")
    correlations = []
    for column in columns:
        human_vector = [table.scores[column][system] for system in used]
        if len(set(human_vector)) == 1:
            raise InputError(f"human column {column!r} of {table.name} is the same ({human_vector[0]:g}) "
                             f"for all {len(used)} systems: its correlation is undefined")
        correlations.append(Correlation(metric, column, pearson(metric_vector, human_vector),
                                        spearman(metric_vector, human_vector), len(used), used))
    return correlations
