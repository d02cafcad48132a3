"""The metric protocol, the base class of every scorer: what every scorer is, so that generic
code never asks which one it holds.

A metric is a :class:`Metric` subclass with

* a **settings dataclass** (a :class:`Settings` subclass) declaring each setting once: its
  default, how a value is read (from Python or from text such as ``green:beta=0.5/2``), its
  check, its help line and the signature fields;
* three methods the author writes (a template method: the base class derives the rest):
  ``prepare(corpus)``, what every hypothesis shares (encoded source and references, gold edits,
  a loaded model ...); ``statistics(prepared, hypothesis)``, a per-sentence array (first axis =
  sentences) whose rows add up over sentences; ``score_from_sums(sums, column)``, the score (a
  fraction) of summed rows, vectorised over leading axes;
* optional: ``rows(statistics, column)``, a per-sentence choice made before summing (the best
  reference of each sentence), redone in every resample of a paired test;
* declared capabilities: ``higher_is_better``, ``has_sentence_scores``, the input kinds
  (``hypothesis_kind``: text or M2; ``reference_kind``: text, M2 or none), ``scale``.

Derived by the base class: ``score(statistics) -> Result`` (``score``, ``scores`` one per
column, ``signature``, ``settings``, ``to_dict()``), sentence scores, the paired-test resampler,
the signature (from the settings declared with a signature key), the settings dict and the
column labels. A family whose corpus choices depend on the corpus (sampled references, the
running-F annotator choice) overrides :meth:`Metric.corpus_sums` or :meth:`Metric.resampler`;
one with a richer result overrides :meth:`Metric.result`. Statistics of consecutive chunks join
by :meth:`Metric.join_statistics` (zeros appended at the end of every other axis, then
concatenated), so a layout whose width depends on the data keeps a zero where a chunk has
nothing.

Settings and their parsers live in :mod:`gecmetrics.metrics.settings`; results and signatures
(``GREEN|beta:2|n:4|unit:word|refs:2|version:0.1.0``) in :mod:`gecmetrics.metrics.results`.
"""
from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from typing import Any, ClassVar, Hashable, Sequence

from ..errors import InputError
from ..kinds import M2, NONE, TEXT  # noqa: F401 (M2, NONE: re-exported for metric authors)
from .results import Column, Result, ScoreResult, SentenceScores, Signature, compact
from .settings import Settings, signature_value


# ----------------------------------------------------------------------------- metrics


class Metric(ABC):
    """The protocol every scorer implements (see the module docstring).

    ``Metric(*args, **settings)``: positional arguments fill the fields named in
    ``positional`` in order, keywords any setting (or alias); unset ones take the defaults of
    ``settings_class``. Settings are readable as attributes (``metric.n``).
    """

    # ------------------------------------------------------------------ declared
    name: ClassVar[str] = ""
    """The registry name this class is known by (``get_metric(name)``)."""
    label: ClassVar[str] = ""
    """The name in signatures and column headers (default: the class name)."""
    settings_class: ClassVar[type[Settings]] = Settings
    positional: ClassVar[tuple[str, ...]] = ()
    hypothesis_kind: ClassVar[str] = TEXT
    """What a hypothesis is: ``TEXT`` lines or ``M2`` blocks."""
    reference_kind: ClassVar[str] = TEXT
    """What the corpus must hold: ``TEXT`` reference sets, ``M2`` gold blocks, or ``NONE``
    (a reference-free metric)."""
    scale: ClassVar[float] = 100.0
    """Scores are printed x100 (n-gram metrics) or as fractions (1: the M2 family)."""
    fraction: ClassVar[bool] = True
    """Whether scores are fractions (0..1), which a table may print x100; False for scores on
    another scale (an LLM judge's 1-5), always printed as they are."""
    higher_is_better: ClassVar[bool] = True
    """False for an error rate: rankings, sorting and meta-evaluation then read lower as better."""
    has_sentence_scores: ClassVar[bool] = True
    """Whether each sentence has a score of its own (sentence-level meta-evaluation, rankings from
    sentence scores, edit attribution need them)."""
    m2_target_lines: ClassVar[bool] = False
    """True for a metric that reads ChERRANT's M2 files, whose ``T<k>[-A<n>]`` lines the run's
    M2 reader then accepts (an instance may decide by its settings: a property)."""
    column_setting: ClassVar[str | None] = None
    """The setting whose values are the columns (GREEN's ``beta``), if the metric has several."""
    chunk_lines: ClassVar[int | None] = None
    """Sentences per chunk this metric prefers when a run is not told (None: the run's default):
    a slow metric (a parser, a model) takes small chunks, so that progress moves and workers
    share the work; results never depend on it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if len(args) > len(self.positional):
            raise TypeError(f"{type(self).__name__} takes at most {len(self.positional)} positional settings "
                            f"({', '.join(self.positional)}), got {len(args)}")
        given = dict(zip(self.positional, args))
        for key, value in kwargs.items():
            canonical = self.settings_class.canonical_name(key) or key
            if canonical in given:
                raise TypeError(f"setting {canonical!r} given twice")
            given[canonical] = value
        fields = {f.name for f in dataclasses.fields(self.settings_class) if f.init}
        unknown = sorted(set(given) - fields)
        if unknown:
            raise InputError(f"{type(self).__name__} has no setting {unknown[0]!r}; valid settings: "
                             f"{', '.join(self.settings_class.infos())}")
        self.settings = self.settings_class(**given)

    def __getattr__(self, name: str) -> Any:
        settings = self.__dict__.get("settings")
        if settings is not None and hasattr(settings, name):
            return getattr(settings, name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    @property
    def display_name(self) -> str:
        """The name messages call this metric by: its registry name, else its class's name."""
        return self.name or type(self).__name__

    def __repr__(self) -> str:
        fields = ", ".join(f"{f.name}={getattr(self.settings, f.name)!r}" for f in dataclasses.fields(self.settings))
        return f"{type(self).__name__}({fields})"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.settings == self.settings  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((type(self), self.settings))

    # ------------------------------------------------------------------ the run it runs in
    @property
    def run_context(self) -> Any:
        """The :class:`~gecmetrics.core.context.RunContext` this metric runs in: its run's (the
        engine runs copies bound to it, :meth:`with_context`), else the default one (the cache
        of ``$GECMETRICS_CACHE`` or the user cache folder). ``prepare`` hands
        ``self.run_context.cache`` to whatever stores values, and loads models through
        ``self.run_context.resources``; a signature says ``cache:on`` from it."""
        bound = self.bound_context
        if bound is not None:
            return bound
        from ..core.context import run_context as default

        return default()

    @property
    def bound_context(self) -> Any:
        """The run context given by :meth:`with_context`, or None (a run then gives its own)."""
        return self.__dict__.get("_context")

    def with_context(self, context: Any) -> "Metric":
        """A copy of this metric (same settings, same state) that runs in ``context``: a
        :class:`~gecmetrics.core.context.RunContext`, or a cache setting (a folder, a ``Cache``,
        True for the default folder, False for none). The metric itself is left as it is."""
        from ..core.context import run_context

        bound = object.__new__(type(self))
        bound.__dict__.update(self.__dict__)
        bound.__dict__["_context"] = run_context(context)
        return bound

    # ------------------------------------------------------------------ written by the author
    @abstractmethod
    def prepare(self, corpus: Any, group: Sequence["Metric"] = ()) -> Any:
        """What every hypothesis shares, for this metric and the others of its ``group``
        (metrics with the same sharing key): e.g. encoded source and references."""

    @abstractmethod
    def statistics(self, prepared: Any, hypothesis: Sequence[Any]) -> Any:
        """Per-sentence statistics of one hypothesis (first axis: sentences; rows add up)."""

    @abstractmethod
    def score_from_sums(self, sums: Any, column: int = 0) -> Any:
        """The score (a fraction) of summed rows (..., K) -> (...), for one column."""

    def rows(self, statistics: Any, column: int = 0) -> Any:
        """The per-sentence rows (D, K) whose sum is scored: the statistics as they are, or a
        choice per sentence (the best reference). Redone in every resample of a paired test."""
        import numpy as np

        statistics = np.asarray(statistics)
        return statistics.reshape(len(statistics), -1)

    def column_names(self) -> list[str]:
        """Names of the columns when there are several (``b0.5``, ``b2``); [] for one column."""
        return []

    # ------------------------------------------------------------------ optional hooks
    def sharing_key(self) -> Hashable:
        """Metrics with equal keys share one prepared object (one :meth:`prepare` per group)."""
        return (type(self), self.settings)

    def corpus_sums(self, statistics: Any, column: int = 0) -> Any:
        """The summed rows the corpus score is computed from: one row sum (K,), or several
        (N, K) whose scores are averaged (sampled references)."""
        return self.rows(statistics, column).sum(axis=0)

    def details(self, statistics: Any, sums: list[Any]) -> dict[str, Any]:
        """What a result shows beside its scores (counts, per-order tables), from the statistics
        and each column's summed rows; {} by default."""
        return {}

    def references_in(self, statistics: Any) -> int | None:
        """The number of reference sets the statistics were made with, for the signature
        (None: the signature does not name it)."""
        return None

    def texts_encoded(self, prepared: Any) -> int:
        """How many texts preparing and counting encoded (reported by ``compare -v``); 0 for
        metrics without a text encoder."""
        return 0

    def text_unit(self) -> tuple[str, bool] | None:
        """The (unit, normalize_space) the metric reads text with, for whitespace warnings
        (SPEC 1); None for metrics that do not count n-grams of raw text."""
        return None

    # ------------------------------------------------------------------ derived: scores
    def score(self, statistics: Any) -> Result:
        """The corpus result of (possibly resampled or concatenated) statistics: every column's
        score from :meth:`corpus_sums`, wrapped by :meth:`result`."""
        import numpy as np

        sums = [self.corpus_sums(statistics, column) for column in range(self.column_count)]
        values = [float(np.mean(self.score_from_sums(total, column))) for column, total in enumerate(sums)]
        return self.result(values, statistics, sums)

    def result(self, values: list[float], statistics: Any, sums: list[Any]) -> Result:
        """The result of the column scores ``values`` (and the summed rows behind them):
        scores, signature, settings and :meth:`details` (override for a richer result type)."""
        return ScoreResult(values, self.signature(self.references_in(statistics)), self.settings_dict(),
                           self.details(statistics, sums))

    def evaluate(self, prepared: Any, hypothesis: Sequence[Any]) -> Result:
        """The corpus result of one hypothesis on a prepared corpus (statistics, then score)."""
        return self.score(self.statistics(prepared, hypothesis))

    def sentence_from_statistics(self, statistics: Any) -> Any:
        """Per-sentence scores: an object whose ``scores`` hold fractions, shape (D,) or
        (columns, D), with its ``signature``. By default each sentence's own rows scored."""
        import numpy as np

        self.require_sentence_scores()
        scores = np.stack([np.asarray(self.score_from_sums(self.rows(statistics, column), column), dtype=np.float64)
                           for column in range(self.column_count)])
        return SentenceScores(scores[0] if len(scores) == 1 else scores,
                              self.signature(self.references_in(statistics)))

    def sentence_matrix(self, statistics: Any) -> Any:
        """Per-sentence scores as an array of shape (columns, D)."""
        import numpy as np

        scores = np.asarray(self.sentence_from_statistics(statistics).scores, dtype=np.float64)
        return scores.reshape(-1, scores.shape[-1])

    def require_sentence_scores(self) -> None:
        """An InputError saying why, for a metric without sentence scores."""
        if not self.has_sentence_scores:
            raise InputError(f"metric {self.display_name} has no sentence scores (has_sentence_scores is False): "
                             "sentence-level meta-evaluation, sentence rankings and attribution need a score per "
                             "sentence")

    def oriented(self, scores: Any) -> Any:
        """Scores turned so that higher is better (negated for a lower-is-better metric)."""
        return scores if self.higher_is_better else -scores

    # ------------------------------------------------------------------ derived: paired tests
    def resampler(self, column: int = 0, references: int = 1) -> Any:
        """The paired-test resampler of one score column: rows chosen per sentence, summed,
        scored (override when a choice depends on the corpus)."""
        from ..core.resampling import LinearResampler

        return LinearResampler(lambda statistics: self.rows(statistics, column),
                               lambda sums: self.score_from_sums(sums, column),
                               self.paired_label(column), self.column_signature(column, references))

    def paired_label(self, column: int = 0) -> str:
        """How a paired test's table names the column (default: its column label)."""
        return self.column_labels()[column]

    # ------------------------------------------------------------------ derived: description
    @property
    def column_count(self) -> int:
        return len(self.column_labels())

    def column_labels(self) -> list[str]:
        """Compact headers of the metric's score columns (one per part, e.g. per beta)."""
        label = self.label or type(self).__name__
        names = self.column_names()
        return [f"{label} {name}" for name in names] if names else [label]

    def column_index(self, key: int | str | float | None) -> int:
        """The column named by ``key``: its index, its label, or (for metrics with a
        :attr:`column_setting`) one of that setting's values; None: the first column."""
        labels = self.column_labels()
        if key is None:
            return 0
        if isinstance(key, int) and not isinstance(key, bool) and 0 <= key < len(labels):
            return key
        if isinstance(key, str) and key in labels:
            return labels.index(key)
        if self.column_setting is not None and not isinstance(key, bool):
            values = getattr(self.settings, self.column_setting)
            values = list(values) if isinstance(values, (list, tuple)) else [values]
            try:
                wanted = float(key)
            except (TypeError, ValueError):
                wanted = None
            if wanted is not None and wanted in [float(v) for v in values]:
                return [float(v) for v in values].index(wanted)
            raise InputError(f"{self.column_setting} {key!r} is not one of this metric's "
                             f"({', '.join(signature_value(v) for v in values)})")
        raise InputError(f"metric {self.display_name} has no column {key!r}; columns: {', '.join(labels)} "
                         f"(or 0..{len(labels) - 1})")

    def signature_fields(self, references: int | None) -> tuple[str, list[tuple[str, str] | str]]:
        """The signature's name and fields (without the version): the label, the settings
        declared with a signature key, and the number of reference texts when known."""
        refs = [("refs", str(references))] if references is not None and self.reference_kind == TEXT else []
        return self.label or type(self).__name__, [*self.settings.signature_fields(), *refs]

    def column_signature(self, part: int, references: int | None) -> Signature:
        """The signature of one column alone (override when columns differ, e.g. GREEN betas)."""
        return self.signature(references)

    @property
    def signature(self) -> Signature:
        """The signature of these settings; call it with the number of reference sets
        (``metric.signature(2)``) to complete it where the metric's signature names them."""
        name, fields = self.signature_fields(None)
        return Signature(name, fields, complete=self._signature_for)

    def _signature_for(self, references: int | None) -> Signature:
        name, fields = self.signature_fields(references)
        return Signature(name, fields, complete=self._signature_for)

    def settings_dict(self) -> dict[str, Any]:
        """The settings as JSON values, under the metric's signature name."""
        return {"metric": self.signature_fields(None)[0], **self.settings.to_dict()}

    def columns(self, references: int | None = None) -> list[Column]:
        """The metric's columns: labels with the signature of each part."""
        return [Column(label, part, self.column_signature(part, references))
                for part, label in enumerate(self.column_labels())]

    def join_statistics(self, parts: Sequence[Any]) -> Any:
        """The statistics of consecutive chunks of sentences as one (first axis: sentences).
        Arrays whose other axes differ between chunks (e.g. the number of annotators) are
        padded with zeros, which every metric's rows read as "absent"."""
        import numpy as np

        arrays = [np.asarray(part) for part in parts]
        shape = tuple(max(sizes) for sizes in zip(*(a.shape[1:] for a in arrays)))
        padded = [np.pad(a, [(0, 0)] + [(0, full - size) for full, size in zip(shape, a.shape[1:])])
                  if a.shape[1:] != shape else a for a in arrays]
        return compact(padded[0] if len(padded) == 1 else np.concatenate(padded, axis=0))
