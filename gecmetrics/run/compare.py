"""Many systems scored with many metrics in one call, sharing one counting pass.

``compare(sources, references, {"AMU": [...], "CAMB": [...]}, metrics=[GLEU(fix_seed=True),
GREEN(beta=[0.5, 1, 2])])`` returns a :class:`ComparisonTable`: a row per system, a column per
metric setting (GREEN gives one column per beta), the per-metric result objects and their
signatures. The n-gram metrics that share a unit setting share one
:class:`~gecmetrics.core.ngrams.EncodedCorpus`: the source, each reference and each system output
are counted once, whatever the number of metrics. M2 (MaxMatch) scores come from gold M2
blocks whose sources must be the same sentences as ``sources``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from ..io.corpus import Corpus
from ..errors import InputError
from ..core.checks import check_seed
from ..stats.significance import (DEFAULT_CONFIDENCE_SAMPLES, PairedTestResult, check_samples,
                                  paired_test_from_statistics)
from .engine import ProgressCallback, Scored, check_metrics, corpus_for, score_corpus
from ..metrics.registry import needs_gold_m2, resolve_metrics
from ..core.table import Table, dumps, percent

DEFAULT_METRICS = ("gleu", "green:beta=0.5/1/2")
"""GLEU+ as gec-ranking (-f) and word GREEN for beta 0.5, 1 and 2; M2 F0.5 is added when
gold M2 blocks are given."""

SYSTEM_COLUMN = "system"


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

    def as_table(self, digits: int = 2, ranks: bool = False, markdown: bool = False) -> Table:
        """The table model the output layer renders (notes: the signatures)."""
        notes = ([f"{labels}: `{signature}`" for labels, signature in self.signature_pairs()] if markdown
                 else self.signature_lines())
        return Table(self.header(ranks), self.cells(digits, ranks), notes)

    def render(self, fmt: str = "text", digits: int = 2, ranks: bool = False) -> str:
        """The table as text (with signatures), TSV (no footer), Markdown or LaTeX."""
        return self.as_table(digits, ranks, markdown=fmt == "markdown").render(fmt)

    def to_text(self, digits: int = 2, ranks: bool = False) -> str:
        """A prettytable followed by the signatures."""
        return self.render("text", digits, ranks)

    def to_tsv(self, digits: int = 2, ranks: bool = False) -> str:
        """Tab-separated: a header line, then a line per system (no footer)."""
        return self.render("tsv", digits, ranks)

    def to_markdown(self, digits: int = 2, ranks: bool = False) -> str:
        """A Markdown table (scores right-aligned) followed by the signatures as a list."""
        return self.render("markdown", digits, ranks)

    def to_latex(self, digits: int = 2, ranks: bool = False) -> str:
        """A LaTeX tabular (booktabs rules), the signatures as comments."""
        return self.render("latex", digits, ranks)

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


# ---------------------------------------------------------------------------- computing


def default_metrics(with_m2: bool) -> list[Any]:
    """GLEU+ as gec-ranking and GREEN for beta 0.5/1/2, plus M2 F0.5 with gold M2."""
    return resolve_metrics(list(DEFAULT_METRICS) + (["m2"] if with_m2 else []))


def metric_columns(metrics: Sequence[Any], references: int) -> tuple[list[Column], list[str]]:
    """Every metric's columns (labels numbered when two settings share one) and signatures;
    a setting given twice is an error."""
    columns: list[Column] = []
    signatures: list[str] = []
    seen: dict[str, int] = {}
    for k, metric in enumerate(metrics):
        signature = metric.signature(references)
        if signature in signatures:
            raise InputError(f"the metric setting {signature} is given twice")
        signatures.append(signature)
        for column in metric.columns(references):
            label = column.label
            if label in seen:  # two settings with the same compact label: number them
                seen[label] += 1
                label = f"{label} ({seen[label]})"
            else:
                seen[label] = 1
            columns.append(Column(label, k, column.part, column.signature))
    return columns, signatures


def compare(sources: Sequence[str], references: Sequence[Sequence[str]], systems: Mapping[str, Sequence[str]],
            metrics: Sequence[Any] | str | None = None, *, m2_blocks: Sequence[Any] | None = None,
            hypothesis_m2: Mapping[str, Sequence[Any]] | None = None,
            progress: ProgressCallback | None = None) -> ComparisonTable:
    """Score every system with every metric; each group of metrics prepared once.

    ``metrics`` are metric objects (``GLEU(...)``, ``GREEN(...)``, ``M2Scorer(...)``, any
    registered metric) or registry texts (``"gleu"``, ``"green:beta=0.5/1/2"``); default:
    GLEU+ as gec-ranking and GREEN for beta 0.5/1/2, plus M2 F0.5 when ``m2_blocks`` (gold M2
    blocks of the same sentences) are given. ``hypothesis_m2``: system name -> its M2 blocks,
    for metrics that read hypothesis edits (``cleme``, ``cleme2``).
    """
    corpus = Corpus(sources, references, _named_systems(systems), m2_blocks, hypothesis_m2=dict(hypothesis_m2 or {}))
    if not corpus.hypotheses:
        raise InputError("at least one system is needed")
    resolved = check_metrics(default_metrics(m2_blocks is not None) if metrics is None else resolve_metrics(metrics))
    if m2_blocks is None and any(needs_gold_m2(m) for m in resolved):
        raise InputError("the m2 metric needs gold M2 annotations of the same sentences")
    return compare_corpus(corpus, resolved, progress)


def compare_corpus(corpus: Corpus, metrics: Sequence[Any], progress: ProgressCallback | None = None,
                   jobs: int = 1) -> ComparisonTable:
    """:func:`compare` of a checked :class:`Corpus`."""
    check_columns(metrics, len(corpus.references))
    return comparison_table(score_corpus(metrics, corpus, progress=progress, jobs=jobs))


def check_columns(metrics: Sequence[Any], references: int) -> None:
    """A metric setting given twice is an error, found before any counting."""
    metric_columns(metrics, references)


def comparison_table(scored: Scored) -> ComparisonTable:
    """The table of a pipeline run (:func:`~gecmetrics.run.engine.score_corpus` or
    :func:`~gecmetrics.run.engine.score_chunks`)."""
    metrics = scored.metrics
    columns, signatures = metric_columns(metrics, scored.references)
    results = scored.results()
    rows = [ComparisonRow(name, [float(results[name][c.metric_index].scores[c.part]) for c in columns])
            for name in scored.names]
    settings = [metric.settings_dict() for metric in metrics]
    return ComparisonTable(columns, rows, list(metrics), results, signatures, scored.encoded_texts, settings)


def _named_systems(systems) -> dict[str, Any]:
    """Systems by name: a mapping as it is, a list of hypotheses named ``system 0``, ``system
    1`` ... (a single hypothesis, a list of strings, is then an error naming ``system 0``)."""
    if isinstance(systems, Mapping):
        return dict(systems)
    if isinstance(systems, (str, bytes)) or not hasattr(systems, "__iter__"):
        raise InputError(f"systems must be a mapping of names to hypotheses ({{'AMU': lines}}) or a list of "
                         f"hypotheses, got {type(systems).__name__}")
    return {f"system {k}": lines for k, lines in enumerate(systems)}


def paired_test(metric, sources: Sequence[str] | None, references: Sequence[Any], systems, method: str = "bs",
                samples: int | None = None, seed: int = 0, confidence_samples: int = DEFAULT_CONFIDENCE_SAMPLES,
                column: int | str | float | None = None, strict: bool = False) -> PairedTestResult:
    """Paired bootstrap (``method='bs'``) or approximate randomization (``'ar'``) of every
    system against the first one.

    >>> paired_test(GREEN(), sources, [ref0, ref1], {"INPUT": src, "AMU": amu}).systems[1].p_value

    ``systems``: name -> hypothesis (a dict, first = baseline) or a list of them.
    ``references``: reference sets for metrics with text references; the gold M2 blocks for
    the M2 family (``sources`` may then be None). ``column``: the score column tested, by index,
    label or (for GREEN) beta (:meth:`Metric.column_index`); the first by default.
    """
    check_samples(method, samples, confidence_samples)  # before any scoring
    check_seed(seed, "the seed of the paired test")
    named = _named_systems(systems)
    if not named:
        raise InputError("a paired test needs at least one system (the baseline)")
    corpus = corpus_for([metric], sources, references, named)
    scored = score_corpus([metric], corpus)
    resampler = metric.resampler(metric.column_index(column), scored.references)
    return paired_test_from_statistics(resampler, scored.of_metric(0), method, samples, seed, confidence_samples,
                                       strict)
