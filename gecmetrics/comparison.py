"""Many systems scored with many metrics in one call, sharing one counting pass.

``compare(sources, references, {"AMU": [...], "CAMB": [...]}, metrics=[GLEU(fix_seed=True),
GREEN(beta=[0.5, 1, 2])])`` returns a :class:`ComparisonTable`: a row per system, a column per
metric setting (GREEN gives one column per beta), the per-metric result objects and their
signatures. The n-gram metrics that share a unit setting share one
:class:`~gecmetrics.ngrams.EncodedCorpus`: the source, each reference and each system output
are counted once, whatever the number of metrics. M2 (MaxMatch) scores come from gold M2
blocks whose sources must be the same sentences as ``sources``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from .corpus import Corpus
from .errors import InputError
from .metrics.gleu import GLEU
from .metrics.green import GREEN
from .ngrams import EncodedCorpus
from .registry import column_labels, is_m2, metrics_from_text
from .report import dumps, percent, table as pretty_table

DEFAULT_METRICS = ("gleu", "green:beta=0.5/1/2")
"""GLEU+ as gec-ranking (-f) and word GREEN for beta 0.5, 1 and 2; M2 F0.5 is added when
gold M2 blocks are given."""

SYSTEM_COLUMN = "system"
ProgressCallback = Callable[[int, int, str], None]
"""Called as ``progress(steps_done, steps_total, what_is_next)``."""


@dataclass(frozen=True)
class Column:
    """One score column: its compact label, the metric it comes from and that metric's part
    (the beta index for GREEN, 0 otherwise), and the full signature of this one setting."""

    label: str
    metric_index: int
    part: int
    signature: str


@dataclass
class ComparisonRow:
    """One system's scores (fractions, one per column, in column order)."""

    system: str
    scores: list[float]


@dataclass
class ComparisonTable:
    """Scores of several systems under several metric settings.

    ``rows`` hold fractions in column order; ``results[system][k]`` is the result object of
    ``metrics[k]`` (GLEUResult, GREENResult or M2Result, each with its signature).
    """

    columns: list[Column]
    rows: list[ComparisonRow]
    metrics: list[Any]
    results: dict[str, list[Any]]
    signatures: list[str]
    """One per metric, in metric order."""
    encoded_texts: int = 0
    """How many texts the counting core encoded (1 + R + H per unit setting at most)."""
    settings: list[dict] = field(default_factory=list)

    # ------------------------------------------------------------------ access
    @property
    def labels(self) -> list[str]:
        return [column.label for column in self.columns]

    @property
    def systems(self) -> list[str]:
        return [row.system for row in self.rows]

    def column_index(self, name: str | int) -> int:
        """The index of a score column named by its label (case and spaces ignored) or by its
        1-based number; ``-1`` for the system column."""
        if isinstance(name, int) or (isinstance(name, str) and name.strip().isdigit()):
            number = int(name)
            if 1 <= number <= len(self.columns):
                return number - 1
        else:
            wanted = _squash(name)
            if wanted == SYSTEM_COLUMN:
                return -1
            for k, column in enumerate(self.columns):
                if _squash(column.label) == wanted:
                    return k
        raise InputError(f"unknown column {name!r}; valid columns: {SYSTEM_COLUMN}, "
                         + ", ".join(repr(label) for label in self.labels) + f" (or 1..{len(self.columns)})")

    def score(self, system: str, column: str | int) -> float:
        """One score (a fraction)."""
        k = self.column_index(column)
        for row in self.rows:
            if row.system == system:
                return row.scores[k]
        raise InputError(f"unknown system {system!r}; systems: {', '.join(self.systems)}")

    def ranks(self, column: str | int) -> list[int]:
        """Rank of each row (1 = highest score) in one column; equal scores share the best
        rank ("1224" ranking)."""
        k = self.column_index(column)
        values = [row.scores[k] for row in self.rows]
        return [1 + sum(other > value for other in values) for value in values]

    def sorted_by(self, column: str | int, descending: bool | None = None) -> "ComparisonTable":
        """A copy with rows sorted by a column: scores best first, system names A-Z (stable)."""
        k = self.column_index(column)
        if k < 0:
            rows = sorted(self.rows, key=lambda row: row.system, reverse=bool(descending))
        else:
            rows = sorted(self.rows, key=lambda row: row.scores[k], reverse=descending is not False)
        return ComparisonTable(self.columns, rows, self.metrics, self.results, self.signatures, self.encoded_texts,
                               self.settings)

    # ------------------------------------------------------------------ output
    def header(self, ranks: bool = False) -> list[str]:
        header = [SYSTEM_COLUMN]
        for label in self.labels:
            header.append(label)
            if ranks:
                header.append(f"{label} #")
        return header

    def cells(self, digits: int = 2, ranks: bool = False) -> list[list[str]]:
        """The printed rows: system name, then each score x100 rounded half up (and its rank)."""
        all_ranks = [self.ranks(k + 1) for k in range(len(self.columns))] if ranks else []
        out = []
        for i, row in enumerate(self.rows):
            line = [row.system]
            for k, value in enumerate(row.scores):
                line.append(percent(value, digits))
                if ranks:
                    line.append(str(all_ranks[k][i]))
            out.append(line)
        return out

    def signature_pairs(self) -> list[tuple[str, str]]:
        """Per metric: the labels of its columns (comma-separated) and its full signature."""
        return [(", ".join(c.label for c in self.columns if c.metric_index == k), signature)
                for k, signature in enumerate(self.signatures)]

    def signature_lines(self) -> list[str]:
        """One line per metric: ``labels: signature``."""
        return [f"{labels}: {signature}" for labels, signature in self.signature_pairs()]

    def to_text(self, digits: int = 2, ranks: bool = False) -> str:
        """A prettytable followed by the signatures."""
        return pretty_table(self.header(ranks), self.cells(digits, ranks)) + "\n" + "\n".join(self.signature_lines())

    def to_tsv(self, digits: int = 2, ranks: bool = False) -> str:
        """Tab-separated: a header line, then a line per system (no footer)."""
        lines = ["\t".join(self.header(ranks))] + ["\t".join(cells) for cells in self.cells(digits, ranks)]
        return "\n".join(lines)

    def to_markdown(self, digits: int = 2, ranks: bool = False) -> str:
        """A Markdown table (scores right-aligned) followed by the signatures as a list."""
        header = self.header(ranks)
        lines = ["| " + " | ".join(_markdown_cell(h) for h in header) + " |",
                 "|" + "|".join([":---"] + ["---:"] * (len(header) - 1)) + "|"]
        lines += ["| " + " | ".join(_markdown_cell(c) for c in cells) + " |" for cells in self.cells(digits, ranks)]
        lines += ["", "Signatures:", ""] + [f"* {labels}: `{signature}`" for labels, signature in self.signature_pairs()]
        return "\n".join(lines)

    def to_dict(self, ranks: bool = True) -> dict:
        """Everything as JSON-ready values: columns with signatures, rows with scores x100
        (full precision, as ``--json`` prints them) and ranks, per-metric settings."""
        all_ranks = [self.ranks(k + 1) for k in range(len(self.columns))] if ranks else []
        rows = []
        for i, row in enumerate(self.rows):
            entry: dict[str, Any] = {"system": row.system,
                                     "scores": {c.label: 100 * v for c, v in zip(self.columns, row.scores)}}
            if ranks:
                entry["ranks"] = {c.label: all_ranks[k][i] for k, c in enumerate(self.columns)}
            rows.append(entry)
        return {"columns": [{"label": c.label, "metric": c.metric_index, "signature": c.signature}
                            for c in self.columns],
                "rows": rows,
                "metrics": [{"signature": s, "settings": settings}
                            for s, settings in zip(self.signatures, self.settings)]}

    def to_json(self, ranks: bool = True) -> str:
        return dumps(self.to_dict(ranks))


def _squash(text: str) -> str:
    return "".join(str(text).split()).lower()


def _markdown_cell(text: str) -> str:
    return str(text).replace("|", "\\|")


# ---------------------------------------------------------------------------- computing


def _resolve_metrics(metrics: Sequence[Any] | str | None, with_m2: bool) -> list[Any]:
    if metrics is None:
        resolved = metrics_from_text(list(DEFAULT_METRICS) + (["m2"] if with_m2 else []))
    elif isinstance(metrics, str):
        resolved = metrics_from_text(metrics)
    else:
        resolved = []
        for metric in metrics:
            resolved.extend(metrics_from_text(metric) if isinstance(metric, str) else [metric])
    if not resolved:
        raise InputError("no metric given")
    for metric in resolved:
        column_labels(metric)  # rejects objects that are not GLEU, GREEN or M2
    return resolved


def check_m2_sources(blocks: Sequence[Any], sources: Sequence[str], m2_name: str = "the M2 file",
                     source_name: str = "the source") -> None:
    """The gold M2 must annotate the same sentences as the source: same count, same tokens."""
    if len(blocks) != len(sources):
        raise InputError(f"has {len(blocks)} sentences but {source_name} has {len(sources)} lines", m2_name)
    for i, (block, source) in enumerate(zip(blocks, sources)):
        if block.source.split() != source.split():
            raise InputError(f"the source of sentence {i + 1} differs from line {i + 1} of {source_name}",
                             m2_name, block.line or None)


def _signatures(metric: Any, n_refs: int) -> tuple[str, list[str]]:
    """The metric's signature and one per column (GREEN: the signature of each beta alone)."""
    if isinstance(metric, GREEN):
        per_beta = [metric.signature(n_refs, [beta]) for beta in metric.betas]
        return metric.signature(n_refs), per_beta
    if isinstance(metric, GLEU):
        return metric.signature(n_refs), [metric.signature(n_refs)]
    return metric.signature, [metric.signature]


def _score_of(result: Any, part: int) -> float:
    if hasattr(result, "scores") and hasattr(result, "betas"):
        return float(result.scores[part])
    if hasattr(result, "f") and not hasattr(result, "score"):
        return float(result.f)
    return float(result.score)


def compare(sources: Sequence[str], references: Sequence[Sequence[str]], systems: Mapping[str, Sequence[str]],
            metrics: Sequence[Any] | str | None = None, *, m2_blocks: Sequence[Any] | None = None,
            progress: ProgressCallback | None = None) -> ComparisonTable:
    """Score every system with every metric; one counting pass per unit setting.

    ``metrics`` are metric objects (``GLEU(...)``, ``GREEN(...)``, ``M2Scorer(...)``) or
    registry texts (``"gleu"``, ``"green:beta=0.5/1/2"``); default: GLEU+ as gec-ranking and
    GREEN for beta 0.5/1/2, plus M2 F0.5 when ``m2_blocks`` (gold M2 blocks of the same
    sentences) are given.
    """
    corpus = Corpus(sources, references, dict(systems))
    if not corpus.hypotheses:
        raise InputError("at least one system is needed")
    resolved = _resolve_metrics(metrics, m2_blocks is not None)
    if any(is_m2(m) for m in resolved) and m2_blocks is None:
        raise InputError("the m2 metric needs gold M2 annotations (--m2 GOLD.m2)")
    if m2_blocks is not None:
        check_m2_sources(m2_blocks, corpus.sources)
    n_refs = len(corpus.references)

    columns: list[Column] = []
    signatures = []
    seen: dict[str, int] = {}
    for k, metric in enumerate(resolved):
        signature, column_signatures = _signatures(metric, n_refs)
        if signature in signatures:
            raise InputError(f"the metric setting {signature} is given twice")
        signatures.append(signature)
        for part, (label, column_signature) in enumerate(zip(column_labels(metric), column_signatures)):
            if label in seen:  # two settings with the same compact label: number them
                seen[label] += 1
                label = f"{label} ({seen[label]})"
            else:
                seen[label] = 1
            columns.append(Column(label, k, part, column_signature))

    # one encoded corpus per unit setting, deep enough for every metric using it
    groups: dict[tuple[str, bool], list[int]] = {}
    for k, metric in enumerate(resolved):
        if not is_m2(metric):
            groups.setdefault(metric.encoding, []).append(k)
    names = list(corpus.hypotheses)
    total = len(groups) * (1 + len(names)) + sum(len(names) for m in resolved if is_m2(m))
    done = 0

    def step(what: str) -> None:
        nonlocal done
        if progress is not None:
            progress(done, total, what)
        done += 1

    results: dict[str, list[Any]] = {name: [None] * len(resolved) for name in names}
    encoded_texts = 0
    for (unit, normalize_space), indices in groups.items():
        step(f"counting the source and references ({unit})")
        encoded = EncodedCorpus(corpus.sources, corpus.references, max(resolved[k].n for k in indices),
                                unit, normalize_space)
        for name in names:
            step(f"{name} ({unit})")
            for k in indices:
                results[name][k] = resolved[k].corpus_score(corpus.sources, corpus.references,
                                                            corpus.hypotheses[name], encoded)
        encoded_texts += encoded.encoder.calls
    for k, metric in enumerate(resolved):
        if is_m2(metric):
            for name in names:
                step(f"{name} (M2)")
                results[name][k] = metric.score(m2_blocks, corpus.hypotheses[name], name)
    if progress is not None:
        progress(total, total, "done")

    rows = [ComparisonRow(name, [_score_of(results[name][c.metric_index], c.part) for c in columns])
            for name in names]
    settings = [metric.settings() for metric in resolved]
    return ComparisonTable(columns, rows, resolved, results, signatures, encoded_texts, settings)

