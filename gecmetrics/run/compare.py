"""Many systems scored with many metrics in one call, sharing one counting pass.

``compare(sources, references, {"AMU": [...], "CAMB": [...]}, metrics=[GLEU(fix_seed=True),
GREEN(beta=[0.5, 1, 2])])`` returns a :class:`Comparison` (``gecmetrics.compare`` returns the same as a
:class:`gecmetrics.output.tables.ComparisonTable`, which prints itself): a row per system, a
column per metric setting (GREEN gives one column per beta), the per-metric result objects and their
signatures. The n-gram metrics that share a unit setting share one
:class:`~gecmetrics.core.ngrams.EncodedCorpus`: the source, each reference and each system output
are counted once, whatever the number of metrics. M2 (MaxMatch) scores come from gold M2
blocks whose sources must be the same sentences as ``sources``.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from ..io.corpus import Corpus
from ..errors import InputError, kind_of
from ..io.text import ascii_integer
from ..core.checks import check_count, check_flag, check_seed
from ..stats.multiple import AllPairsResult, all_pairs_test, check_correction
from ..stats.significance import (SIGNIFICANCE_LEVEL, PairedTestResult, check_samples,
                                  paired_test_from_statistics)
from .engine import ProgressCallback, Scored, check_metrics, corpus_for, score_corpus
from ..metrics.running import named_systems
from ..metrics import registry
from ..metrics.registry import COMPARE, needs_gold_m2, resolve_metrics
from ..core.table import ScoreFormat, Table, check_scale, scale_factor, scaled_number, score_value
from ..metrics.results import scores_signature

DEFAULT_METRICS = registry.default_metric_texts(COMPARE)
"""The registry texts of the default metrics (:data:`gecmetrics.metrics.registry.DEFAULT_METRICS`:
GLEU+ as gec-ranking (-f) and word GREEN for beta 0.5, 1 and 2); M2 F0.5 is added when gold M2
blocks are given."""

SYSTEM_COLUMN = "system"


@dataclass(frozen=True)
class Column:
    """One score column: its compact label, the metric it comes from and that metric's part
    (the beta index for GREEN, 0 otherwise), and the full signature of this one setting."""

    label: str
    metric_index: int
    part: int
    signature: str
    ranking: str | None = None
    """For a column of rankings from sentence scores: ``ew`` (Expected Wins) or ``ts``
    (TrueSkill mu) of the metric's column ``part``; None for a metric's own scores."""


RANKINGS = ("ew", "ts")


@dataclass
class ComparisonRow:
    """One system's scores (fractions, one per column, in column order)."""

    system: str
    scores: list[float]


@dataclass
class Comparison:
    """Scores of several systems under several metric settings (the data; the output layer's
    :class:`gecmetrics.output.tables.ComparisonTable` adds text, TSV, Markdown, LaTeX and JSON).

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
    scale: float = 100.0
    """Scores that are fractions are printed times this (100: x100, 1: as fractions)."""

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
        if isinstance(name, bool) or not isinstance(name, (str, int)):  # (True was column 1)
            raise InputError(f"a column is named by its label or its 1-based number, got {kind_of(name)}")
        number = name if isinstance(name, int) else ascii_integer(name, signed=False)
        if number is not None:
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

    def higher_is_better(self, k: int) -> bool:
        """Whether a higher score is better in column k (its metric's direction; rankings from
        sentence scores are oriented already)."""
        column = self.column(k)
        if column.ranking is not None:
            return True
        return bool(getattr(self.metrics[column.metric_index], "higher_is_better", True))

    def factor(self, k: int) -> float:
        """What column k's scores are multiplied by when printed: ``scale`` (100: x100) for
        scores that are fractions (Expected Wins included), 1 for the others (an LLM judge's
        1-5, TrueSkill's mu)."""
        return scale_factor(self.is_fraction(k), self.scale)

    def column(self, k: int) -> Any:
        """Score column k (0-based, as :meth:`column_index` gives): anything else is an InputError,
        not an IndexError or the last column for -1."""
        check_count(k, "the column index", 0, len(self.columns) - 1)
        return self.columns[k]

    def is_fraction(self, k: int) -> bool:
        """Whether column k holds fractions (scaled when printed; Expected Wins included) rather
        than scores printed as they are (an LLM judge's 1-5, TrueSkill's mu)."""
        column = self.column(k)
        if column.ranking is not None:
            return column.ranking == "ew"
        return bool(getattr(self.metrics[column.metric_index], "fraction", True))

    def ranks(self, column: str | int) -> list[int]:
        """Rank of each row (1 = best score: the highest, or the lowest for a metric whose lower
        scores are better) in one column; equal scores share the best rank ("1224" ranking)."""
        k = self.column_index(column)
        sign = 1 if self.higher_is_better(k) else -1
        values = [sign * row.scores[k] for row in self.rows]
        return [1 + sum(other > value for other in values) for value in values]

    def sorted_by(self, column: str | int, descending: bool | None = None) -> "Comparison":
        """A copy with rows sorted by a column: scores best first (for the metric's direction),
        system names A-Z (stable)."""
        k = self.column_index(column)
        if descending is not None:
            check_flag(descending, "descending")
        if k < 0:
            rows = sorted(self.rows, key=lambda row: row.system, reverse=bool(descending))
        else:
            best_first = self.higher_is_better(k) if descending is None else descending
            rows = sorted(self.rows, key=lambda row: row.scores[k], reverse=best_first)
        return dataclasses.replace(self, rows=rows)

    # ------------------------------------------------------------------ output
    def header(self, ranks: bool = False) -> list[str]:
        header = [SYSTEM_COLUMN]
        for k, label in enumerate(self.labels):
            header.append(self.score_format(k).header(label))
            if ranks:
                header.append(f"{label} #")
        return header

    def rounds_to(self, k: int) -> int | None:
        """The decimals to which the original tool of column k's metric rounds its scores
        (:attr:`gecmetrics.metrics.base.Metric.rounds_to`; None for rankings)."""
        column = self.column(k)
        return None if column.ranking is not None else getattr(self.metrics[column.metric_index], "rounds_to", None)

    def score_format(self, k: int) -> ScoreFormat:
        """How column k's scores print (:class:`~gecmetrics.core.table.ScoreFormat`): times
        :meth:`factor`, at the precision of :meth:`rounds_to` as the metric's tool rounds them."""
        return ScoreFormat(self.factor(k), self.is_fraction(k), self.rounds_to(k))

    def cells(self, digits: int = 2, ranks: bool = False) -> list[list[str]]:
        """The printed rows: system name, then each score (x100 for fractions with the default
        scale) rounded half up, or as the metric's original tool rounds it at its own precision
        (and its rank)."""
        all_ranks = [self.ranks(k + 1) for k in range(len(self.columns))] if check_flag(ranks, "ranks") else []
        formats = [self.score_format(k) for k in range(len(self.columns))]
        out = []
        for i, row in enumerate(self.rows):
            line = [row.system]
            for k, value in enumerate(row.scores):
                line.append(formats[k].cell(value, digits))
                if ranks:
                    line.append(str(all_ranks[k][i]))
            out.append(line)
        return out

    def signature_pairs(self) -> list[tuple[str, str]]:
        """Per metric: the labels of its columns (comma-separated) and its full signature; then
        each ranking column (``--ranking``) with its own (``ranking:ew|ts`` in it)."""
        pairs = []
        for k, signature in enumerate(self.signatures):
            pairs.append((", ".join(c.label for c in self.columns if c.metric_index == k and c.ranking is None),
                          signature))
            pairs.extend((c.label, c.signature) for c in self.columns if c.metric_index == k and c.ranking)
        return pairs

    def signature_lines(self) -> list[str]:
        """One line per metric: ``labels: signature``."""
        return [f"{labels}: {signature}" for labels, signature in self.signature_pairs()]

    def as_table(self, digits: int = 2, ranks: bool = False, markdown: bool = False) -> Table:
        """The table model the output layer renders (notes: the signatures; data: :meth:`to_dict`)."""
        notes = ([f"{labels}: `{signature}`" for labels, signature in self.signature_pairs()] if markdown
                 else self.signature_lines())
        return Table(self.header(ranks), self.cells(digits, ranks), notes, data=self.to_dict(ranks=True))

    def to_dict(self, ranks: bool = True) -> dict:
        """Everything as JSON-ready values: columns with signatures, rows with scores x100
        (:func:`~gecmetrics.core.table.scaled_number`, as ``--json`` prints them) and ranks,
        per-metric settings."""
        all_ranks = [self.ranks(k + 1) for k in range(len(self.columns))] if check_flag(ranks, "ranks") else []
        rows = []
        for i, row in enumerate(self.rows):
            scores = {c.label: scaled_number(value, self.factor(k))
                      for k, (c, value) in enumerate(zip(self.columns, row.scores))}
            entry: dict[str, Any] = {"system": row.system, "scores": scores}
            if ranks:
                entry["ranks"] = {c.label: all_ranks[k][i] for k, c in enumerate(self.columns)}
            rows.append(entry)
        return {"columns": [{"label": c.label, "metric": c.metric_index, "signature": c.signature}
                            for c in self.columns],
                "rows": rows,
                "metrics": [{"signature": s, "settings": settings}
                            for s, settings in zip(self.signatures, self.settings)]}


def _squash(text: str) -> str:
    return "".join(str(text).split()).lower()


# ---------------------------------------------------------------------------- computing


def default_metrics(with_m2: bool) -> list[Any]:
    """GLEU+ as gec-ranking and GREEN for beta 0.5/1/2, plus M2 F0.5 with gold M2."""
    return registry.default_metrics(COMPARE, with_m2)


def metric_columns(metrics: Sequence[Any], references: int) -> tuple[list[Column], list[str]]:
    """Every metric's columns (labels numbered when two settings share one) and signatures;
    a setting given twice is an error."""
    columns: list[Column] = []
    signatures: list[str] = []
    seen: dict[str, int] = {}
    for k, metric in enumerate(metrics):
        signature = metric.signature(references)
        if signature in signatures:
            raise InputError(f"a metric with the same settings is given twice (its columns would repeat): {signature}")
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
            progress: ProgressCallback | None = None, scale: float = 100.0,
            ranking: str | None = None, cache: Any = None) -> Comparison:
    """Score every system with every metric; each group of metrics prepared once.

    ``metrics`` are metric objects (``GLEU(...)``, ``GREEN(...)``, ``M2Scorer(...)``, any
    registered metric) or registry texts (``"gleu"``, ``"green:beta=0.5/1/2"``); default:
    GLEU+ as gec-ranking and GREEN for beta 0.5/1/2, plus M2 F0.5 when ``m2_blocks`` (gold M2
    blocks of the same sentences) are given. ``hypothesis_m2``: system name -> its M2 blocks,
    for metrics that read hypothesis edits (``cleme``, ``cleme2``). ``cache``: the run's
    persistent cache (None: ``$GECMETRICS_CACHE``, else the user cache folder; False: none; a
    folder or a ``Cache``), as in :func:`~gecmetrics.run.engine.score_files`. ``scale``: fractions
    printed x100 (100) or as they are (1; refused where no score is a fraction, as ``--scale 1``).
    What ``gecmetric compare`` prints about the input is issued as
    :class:`~gecmetrics.errors.InputNote` warnings.
    """
    if hypothesis_m2 is not None and not isinstance(hypothesis_m2, Mapping):
        raise InputError(f"hypothesis_m2 must map each system's name to its M2 blocks, got "
                         f"{type(hypothesis_m2).__name__}")
    if isinstance(m2_blocks, (str, bytes)):
        raise InputError("m2_blocks must be the gold M2 blocks (gecmetrics.read_m2(PATH)), not a "
                         f"{type(m2_blocks).__name__}")
    corpus = Corpus(sources, references, named_systems(systems), m2_blocks, hypothesis_m2=dict(hypothesis_m2 or {}))
    if not corpus.hypotheses:
        raise InputError("at least one system is needed")
    resolved = check_metrics(default_metrics(m2_blocks is not None) if metrics is None else resolve_metrics(metrics))
    resolved = with_gold_metric(resolved, m2_blocks is not None)
    return compare_corpus(corpus, resolved, progress, scale=scale, ranking=ranking, cache=cache)


def with_gold_metric(metrics: list[Any], gold: bool) -> list[Any]:
    """The metrics, with M2 F0.5 added when gold M2 is given and no metric reads it (as
    ``gecmetric compare --m2`` does); a metric that needs gold M2 without it is an error."""
    if gold and not any(needs_gold_m2(m) for m in metrics):
        return metrics + registry.gold_metrics(COMPARE)
    if not gold and any(needs_gold_m2(m) for m in metrics):
        metric = next(m for m in metrics if needs_gold_m2(m))
        instead = ""
        if hasattr(getattr(metric, "settings", None), "annotate_refs"):  # it can annotate text references itself
            instead = (f", or {metric.name}:annotate_refs=true to annotate the text references (-r) with ERRANT "
                       "instead")
        raise InputError(f"the {metric.display_name} metric needs the gold annotation: --m2 GOLD.m2 (Python: "
                         f"m2_blocks=, gold M2 blocks of the same sentences){instead}")
    return metrics


def compare_corpus(corpus: Corpus, metrics: Sequence[Any], progress: ProgressCallback | None = None,
                   jobs: int = 1, scale: float = 100.0, ranking: str | None = None, cache: Any = None
                   ) -> Comparison:
    """:func:`compare` of a checked :class:`Corpus`."""
    check_scale(metrics, scale, fractions_beside=ranking == "ew")  # before any work (signing loads a model)
    check_columns(metrics, len(corpus.references))
    scored = score_corpus(metrics, corpus, progress=progress, jobs=jobs, cache=cache).issued()
    return comparison_table(scored, scale, ranking)


def check_columns(metrics: Sequence[Any], references: int) -> None:
    """A metric setting given twice is an error, found before any counting."""
    metric_columns(metrics, references)


def comparison_table(scored: Scored, scale: float = 100.0, ranking: str | None = None,
                     mean: bool = False) -> Comparison:
    """The table of a run (:func:`~gecmetrics.run.engine.score_corpus` or
    :func:`~gecmetrics.run.engine.score_files`); ``ranking`` (``ew`` or ``ts``): after each
    column of a metric with sentence scores, the systems' Expected Wins or TrueSkill mu from
    the pairwise wins of their sentence scores (Goto et al. 2025, gec-metrics' settings);
    ``mean``: the means of the sentence scores instead of the corpus scores (--mean)."""
    metrics = scored.metrics
    scale = check_scale(metrics, scale, fractions_beside=ranking == "ew")
    columns, signatures = metric_columns(metrics, scored.references)
    if mean:
        results = {name: [m.sentence_scores_of(name, s) for m, s in zip(metrics, scored.statistics[name])]
                   for name in scored.names}
        means = {name: [result.mean_dict()["scores"] for result in per] for name, per in results.items()}
        values = {name: [float(means[name][c.metric_index][c.part]) for c in columns] for name in scored.names}
        signatures = [scores_signature(signature, mean=True) for signature in signatures]
    else:
        results = scored.results()
        values = {name: [float(results[name][c.metric_index].scores[c.part]) for c in columns]
                  for name in scored.names}
    if ranking is not None:
        columns, values = _with_rankings(scored, columns, values, ranking)
    rows = [ComparisonRow(name, values[name]) for name in scored.names]
    settings = [metric.settings_dict() for metric in metrics]
    return Comparison(columns, rows, list(metrics), results, signatures, scored.encoded_texts, settings, scale)


def _sentence_matrix(metric: Any, name: str, statistics: Any) -> Any:
    """A hypothesis's sentence scores (columns, D), a refusal naming its file."""
    with metric.naming(name):
        return metric.sentence_matrix(statistics)


def sentence_table_columns(metrics: Sequence[Any], names: Sequence[str], references: int,
                           scale: float) -> tuple[list[Any], list[ScoreFormat], list[str]]:
    """The columns of :func:`sentence_comparison` (each metric's, with its score format) and its
    header (``sentence``, then a column per system x metric column); metrics without sentence
    scores are an error naming them."""
    for metric in metrics:
        metric.require_sentence_scores()
    scale = check_scale(metrics, scale)
    columns, _ = metric_columns(metrics, references)
    formats = [ScoreFormat.of(metrics[c.metric_index], scale) for c in columns]
    return columns, formats, ["sentence", *(f"{name} {printed.header(column.label)}" for name in names
                                            for column, printed in zip(columns, formats))]


def sentence_table_rows(metrics: Sequence[Any], names: Sequence[str], statistics: dict[str, list[Any]],
                        columns: list[Any], formats: list[ScoreFormat], digits: int, first: int = 1) -> list[list[str]]:
    """The rows of :func:`sentence_comparison` for ``statistics`` (by system, a metric's each; of
    consecutive sentences, the first numbered ``first``)."""
    return _sentence_rows(_column_scores(metrics, names, statistics, columns, formats), digits, first)


def _column_scores(metrics: Sequence[Any], names: Sequence[str], statistics: dict[str, list[Any]],
                   columns: list[Any], formats: list[ScoreFormat]) -> list[tuple[str, Any, ScoreFormat, Any]]:
    """Per table column, in the header's order: (system, metric column, format, sentence scores)."""
    matrices = {name: [_sentence_matrix(metric, name, statistics[name][k]) for k, metric in enumerate(metrics)]
                for name in names}
    return [(name, column, printed, matrices[name][column.metric_index][column.part]) for name in names
            for column, printed in zip(columns, formats)]


def _sentence_rows(values: list[tuple[str, Any, ScoreFormat, Any]], digits: int, first: int = 1) -> list[list[str]]:
    """A row per sentence (its number, from ``first``, then each column's printed score)."""
    sentences = len(values[0][3]) if values else 0
    return [[str(first + d), *(printed.cell(scores[d], digits) for _, _, printed, scores in values)]
            for d in range(sentences)]


def sentence_comparison(scored: Scored, scale: float = 100.0, digits: int = 2) -> Table:
    """Sentence scores of every system under every metric: a row per sentence, a column per
    system x metric column (``AMU GLEU+ f (x100)``), fractions x``scale``, printed as the corpus
    table prints each metric's scores (:class:`~gecmetrics.core.table.ScoreFormat`: ERRANT's at
    4 fraction decimals as compare_m2 rounds them); its JSON data: per system and column, the
    scores and the signature. A sentence without a score (an LLM judge's
    unanswered prompt) is an empty cell, ``null`` in JSON. Metrics without sentence scores are an
    error naming them."""
    columns, formats, header = sentence_table_columns(scored.metrics, scored.names, scored.references, scale)
    values = _column_scores(scored.metrics, scored.names, scored.statistics, columns, formats)
    data = [{"system": name, "metric": column.label,
             "signature": str(scores_signature(column.signature, sentence=True)),  # as the metric's command
             "scores": [score_value(x, printed.factor) for x in scores]} for name, column, printed, scores in values]
    return Table(header, _sentence_rows(values, digits), data=data)


def _with_rankings(scored: Scored, columns: list[Column], values: dict[str, list[float]],
                   ranking: str) -> tuple[list[Column], dict[str, list[float]]]:
    """Each column of a metric with sentence scores followed by its ranking column."""
    from ..stats.sentence_rankings import rank_by_sentence_scores

    if ranking not in RANKINGS:
        raise InputError(f"the ranking from sentence scores is ew (Expected Wins) or ts (TrueSkill), not {ranking!r}")
    out_columns: list[Column] = []
    out_values: dict[str, list[float]] = {name: [] for name in scored.names}
    matrices: dict[int, dict[str, Any]] = {}
    for k, column in enumerate(columns):
        out_columns.append(column)
        for name in scored.names:
            out_values[name].append(values[name][k])
        metric = scored.metrics[column.metric_index]
        if not metric.has_sentence_scores:
            continue
        if column.metric_index not in matrices:
            for name in scored.names:  # a sentence without a score (an LLM judge's) is refused saying why
                refused = metric.unscored_refusal(scored.statistics[name][column.metric_index],
                                                  f"a ranking from sentence scores (--ranking {ranking})")
                if refused:
                    raise InputError(refused, name)
            matrices[column.metric_index] = {name: _sentence_matrix(metric, name,
                                                                    scored.statistics[name][column.metric_index])
                                             for name in scored.names}
        scores = {name: matrix[column.part] for name, matrix in matrices[column.metric_index].items()}
        ranked = rank_by_sentence_scores(scores, ranking, list(scored.names), higher_is_better=metric.higher_is_better)
        signature = f"{column.signature}|ranking:{ranking}" if "|version:" not in column.signature else \
            column.signature.replace("|version:", f"|ranking:{ranking}|version:", 1)
        out_columns.append(Column(f"{column.label} {ranking.upper()}", column.metric_index, column.part, signature,
                                  ranking))
        for name in scored.names:
            out_values[name].append(float(ranked.scores[name]))
    return out_columns, out_values


def paired_test(metric, sources: Sequence[str] | None, references: Sequence[Any], systems, method: str = "bs",
                samples: int | None = None, seed: int = 0, confidence_samples: int | None = None,
                column: int | str | float | None = None, strict: bool = False, cache: Any = None, *,
                all_pairs: bool = False, correction: str = "holm",
                level: float = SIGNIFICANCE_LEVEL) -> PairedTestResult | AllPairsResult:
    """Paired bootstrap (``method='bs'``) or approximate randomization (``'ar'``) of every
    system against the first one; with ``all_pairs=True``, of every pair of systems, the
    p-values adjusted by ``correction`` (``holm``, ``bh`` or ``none``) and the clusters of
    systems that cannot be told apart at ``level`` (an
    :class:`~gecmetrics.stats.multiple.AllPairsResult`). The baseline alone is its score and its
    bootstrap interval, with no test.

    >>> paired_test(GREEN(), sources, [ref0, ref1], {"INPUT": src, "AMU": amu}).systems[1].p_value

    ``metric``: a metric object or one registry text (``"gleu-max"``), as in :func:`compare`.
    ``systems``: name -> hypothesis (a dict, first = baseline) or a list of them.
    ``references``: reference sets for metrics with text references; the gold M2 blocks for
    the M2 family (``sources`` may then be None). ``column``: the score column tested, by index,
    label or (for GREEN) beta (:meth:`Metric.column_index`); the first by default. ``cache``:
    as in :func:`compare`. ``confidence_samples``: the bootstrap behind ``'ar'``'s intervals
    (default 1000); ``'bs'`` draws them from its own resamples and refuses it.
    """
    check_samples(method, samples, confidence_samples)  # before any scoring
    check_seed(seed, "the seed of the paired test")
    check_flag(all_pairs, "all_pairs")  # ("no" ran the all-pairs test, as any non-empty text is true)
    resolved = check_metrics(resolve_metrics([metric]))
    if len(resolved) != 1:
        raise InputError(f"a paired test takes one metric, got {len(resolved)}")
    metric = resolved[0]
    if all_pairs:
        check_correction(correction)
    elif correction != "holm" or level != SIGNIFICANCE_LEVEL:
        raise InputError("correction and level are for all_pairs=True (each system against the first has no "
                         "correction and no clusters)")
    named = named_systems(systems)
    if not named:
        raise InputError("a paired test needs at least one system (the baseline)")
    if all_pairs and len(named) < 2:
        raise InputError("an all-pairs test needs at least two systems")
    corpus = corpus_for([metric], sources, references, named)
    scored = score_corpus([metric], corpus, cache=cache).issued()
    metric = scored.metrics[0]  # the metric as the run ran it (its signature says how)
    resampler = metric.resampler(metric.column_index(column), scored.references)
    if all_pairs:
        return all_pairs_test(resampler, scored.of_metric(0), method, samples, seed, correction, level,
                              confidence_samples, strict, bool(metric.higher_is_better))
    return paired_test_from_statistics(resampler, scored.of_metric(0), method, samples, seed, confidence_samples,
                                       strict)
