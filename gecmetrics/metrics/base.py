"""The metric protocol, the base class of every scorer: what every scorer is, so that generic
code never asks which one it holds.

A metric is a :class:`Metric` subclass with

* a **settings dataclass** (a :class:`Settings` subclass) declaring each setting once: its
  default, how a value is read (from Python or from text such as ``green:beta=0.5/2``), its
  check, its help line and its signature key with how the signature shows it;
* three methods the author writes (a template method: the base class derives the rest):
  ``prepare(corpus)``, what every hypothesis shares (encoded source and references, gold edits,
  a loaded model ...); ``statistics(prepared, hypothesis)``, a per-sentence array (first axis =
  sentences) whose rows add up over sentences; ``score_from_sums(sums, column)``, the score (a
  fraction) of summed rows, vectorised over leading axes;
* what the result shows beside its scores: :meth:`Metric.details` and/or a ``result_class``
  (a :class:`~gecmetrics.metrics.results.Result` made by its ``from_scores``);
* how its columns and signature are named: a ``label`` (the signature's name),
  :meth:`Metric.column_names` (the words after it in each column header), the settings declared
  with ``signature=`` and :meth:`Metric.signature_extra` for fields that are not settings (the
  reference count, the tokenisation, a model's identity), in ``signature_order`` when the
  published order is not the declared one;
* optional: ``rows(statistics, column)``, a per-sentence choice made before summing (the best
  reference of each sentence), redone in every resample of a paired test; ``corpus_sums``, for a
  choice that depends on the corpus (sampled references, the running-F annotator choice);
* declared capabilities: ``higher_is_better``, ``has_sentence_scores``, the input kinds
  (``hypothesis_kind``: text or M2; ``reference_kind``: text, M2 or none), ``scale``; and what
  generic code (the report, edit attribution, rewards, meta-evaluation) may ask of it:
  ``independent_sentences``, ``candidate_refusal``, ``placeless_refusal``, ``observations_refuse``,
  ``shared_by_systems``, ``marks_edits`` (:meth:`Metric.edit_marks`) and ``weighs_gold_edits``
  (:meth:`Metric.gold_edit_weights`), so that no generic module names a metric.

Derived by the base class: ``score(statistics) -> Result`` (written once, here: every column's
:meth:`Metric.corpus_sums`, scored, with the signature, the settings and the details), the one
call shape ``corpus_score(sources, references, hypothesis) -> Result`` and
``sentence_scores(...) -> SentenceScores`` (the run engine's per-chunk step on the whole
corpus), sentence scores, the paired-test resampler, the signature, the settings dict and the
column labels and signatures. Statistics of consecutive chunks join by
:meth:`Metric.join_statistics` (zeros appended at the end of every other axis, then
concatenated), so a layout whose width depends on the data keeps a zero where a chunk has
nothing.

Settings and their parsers live in :mod:`gecmetrics.metrics.settings`; results and signatures
(``GREEN|beta:2|n:4|unit:word|refs:2|version:0.1.0``) in :mod:`gecmetrics.metrics.results`.
"""
from __future__ import annotations

import dataclasses
import inspect
import numbers
from contextlib import contextmanager
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Hashable, Iterable, Iterator, Mapping, Sequence

from ..core.checks import check_count
from ..errors import InputError, kind_of, shown, warn_notes
from ..kinds import M2, NONE, TEXT  # noqa: F401 (M2, NONE: re-exported for metric authors)
from .plugin_guard import guarded_hook, is_plugin, plugin_errors
from .results import (Column, CorpusSums, Result, ScoreResult, SentenceScores, Signature, as_field, checked_part,
                      checked_references, compact)
from .settings import Settings, signature_value

if TYPE_CHECKING:
    from .capabilities import EditMarks, GoldEditWeights


# ----------------------------------------------------------------------------- metrics


def _number(value: Any) -> float | None:
    """``value`` as a float, or None when it is not a number (a column setting's text value)."""
    try:
        return float(value)
    except (TypeError, ValueError, OverflowError):  # (10**400 is no column either)
        return None


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
    header: ClassVar[str] = ""
    """The first word of column headers when it is not the signature's name (``GLEU0``: the
    2015 GLEU, whose signature says ``GLEU``)."""
    result_class: ClassVar[type[Result]] = ScoreResult
    """The result type :meth:`score` makes (by its ``from_scores``, from :meth:`details`)."""
    signature_order: ClassVar[tuple[str, ...]] = ()
    """Signature keys in the order the signature shows them, where that is not the order of
    the settings' declaration followed by :meth:`signature_extra` (the others follow)."""
    reads_sources: ClassVar[bool] = True
    """False for a metric that never reads the source sentences (BERTScore): ``corpus_score``
    then takes None for them."""
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
    count_statistics: ClassVar[bool] = False
    """Whether its statistics arrays are counts (n-gram matches, edits): :meth:`score` and the
    paired tests then refuse values that are not finite whole numbers >= 0."""
    finite_statistics: ClassVar[bool] = False
    """Whether its statistics, not counts, are finite numbers all the same (a model metric's
    scores): :meth:`score` and the paired tests then refuse nan and inf (BERTScore's idf 0/0 and an
    LLM judge's unanswered prompt are nan, and said later)."""
    rounds_to: ClassVar[int | None] = None
    """The decimals (of a fraction) to which the original tool rounds the binary value of its
    scores, ties to even, as Python's ``round()`` and ``"%.4f"`` do (4: ERRANT's compare_m2, the
    m2scorer, GoToScorer, CLEME), or None: a table printing a score at just that precision prints
    the original's figure (:func:`gecmetrics.core.table.scaled`), at any other the score's own
    digits."""
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
    python2_words: ClassVar[bool] = False
    """Whether the original tool split words as Python 2's ``str.split`` (gec-ranking's GLEU): a
    word-mode run then warns about whitespace that Python 2 did not split on (SPEC 1)."""
    chunk_lines: ClassVar[int | None] = None
    """Sentences per chunk this metric prefers when a run is not told (None: the run's default):
    a slow metric (a parser, a model) takes small chunks, so that progress moves and workers
    share the work; results never depend on it."""

    # ------------------------------------------------------------------ capabilities generic code asks
    independent_sentences: ClassVar[bool] = True
    """Whether a sentence's score depends on that sentence alone. False where a choice runs
    over the corpus, such as the M2 family's running-F annotator choice (each sentence's choice
    knows the counts of the sentences before it): edit attribution then scores each candidate
    sentence as a corpus of one sentence."""
    candidate_refusal: ClassVar[str | None] = None
    """None when the metric can score a candidate sentence (a source with some of a system's
    edits) on its own, as edit attribution does; else why it cannot (the message says it)."""
    placeless_refusal: ClassVar[str | None] = None
    """None when the metric can score a sentence that is no sentence of a corpus (a reward's
    completion); else why it cannot: it reads data of each sentence of the whole corpus by its
    place (GoToScorer with a weight file, a line per sentence; ``Corpus.sentence_rows``, which
    edit attribution's candidates keep)."""
    observations_refuse: ClassVar[bool] = False
    """Whether :meth:`check_observations` may refuse a run (an InputError) by what its chunks saw
    together, where a part of the run would be refused alone and the whole is not (GoToScorer: a
    gold M2 with edit lines but none of annotator ``ref_id``). A reward, each of whose rows is a
    corpus of its own, then scores and checks each row alone; the rows of any other metric are
    scored together, and their observations read for notes only."""
    shared_by_systems: ClassVar[str | None] = None
    """None when a system's scores depend on its own output alone; else what of them the other
    systems of the same run decide (GoToScorer: its chunk weights): meta-evaluation then scores
    exactly the systems it correlates, and says so."""
    marks_edits: ClassVar[bool] = False
    """Whether :meth:`edit_marks` marks each edit of a system TP / FP / FN against a reference
    annotator (ERRANT's comparison: the edits the report shows)."""
    weighs_gold_edits: ClassVar[bool] = False
    """Whether :meth:`gold_edit_weights` weighs the reference's gold edits by how hard they are
    (GoToScorer's difficulty: the report's difficulty views)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A plugin class (defined outside gecmetrics) has each protocol method it writes
        guarded (:func:`guarded_hook`): its own error, wherever the engine calls it (a score,
        sentence scores, a paired test's resamples, a reward), is one InputError naming the plugin."""
        super().__init_subclass__(**kwargs)
        if is_plugin(cls):
            for name, value in list(vars(cls).items()):
                if not name.startswith("_") and callable(getattr(Metric, name, None)) and inspect.isfunction(value):
                    setattr(cls, name, guarded_hook(value, name))

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
        self.settings = self.checked_settings(given)

    @classmethod
    def checked_settings(cls, given: Mapping[str, Any]) -> Settings:
        """The settings of ``given`` (canonical names -> values); a name that is no setting is one
        InputError listing the valid ones (``register_metric`` checks a preset with it too)."""
        fields = {f.name for f in dataclasses.fields(cls.settings_class) if f.init}
        unknown = sorted(set(given) - fields)
        if unknown:
            raise InputError(f"{cls.__name__} has no setting {unknown[0]!r}; valid settings: "
                             f"{', '.join(cls.settings_class.infos())}")
        return cls.settings_class(**given)

    def __getattr__(self, name: str) -> Any:
        settings = self.__dict__.get("settings")
        if settings is not None and hasattr(settings, name):
            return getattr(settings, name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    @property
    def display_name(self) -> str:
        """The name messages and the report call this metric by: the registered name its
        settings answer to (``GREEN(unit="char")``: ``green-char``; ``M2Scorer(sentence_average=
        True)``: ``sentm2``), else its class's :attr:`name`, else its class's name."""
        from .names import registered_name

        return registered_name(self, plugins=False) or self.name or type(self).__name__

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

    def for_call(self, cache: Any = None) -> "Metric":
        """This metric bound for one call (preparing, counting and signing in one context):
        to ``cache`` when given, else to its own context (:meth:`with_context`'s, else the default
        one, looked up now)."""
        if cache is None and self.bound_context is not None:
            return self
        return self.with_context(self.run_context if cache is None else cache)

    def with_context(self, context: Any) -> "Metric":
        """A copy of this metric (same settings, same state) that runs in ``context``: a
        :class:`~gecmetrics.core.context.RunContext`, or a cache setting (a folder, a ``Cache``,
        True for the default folder, False for none). The metric itself is left as it is."""
        from ..core.context import run_context

        return self._copy_with("_context", run_context(context))

    def _copy_with(self, key: str, value: Any) -> "Metric":
        """A copy of this metric (same settings, same state) with one more attribute set."""
        bound = object.__new__(type(self))
        bound.__dict__.update(self.__dict__)
        bound.__dict__[key] = value
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
        """The words after :meth:`column_title` in each column's header, one entry per column
        (``b0.5``, ``b2`` for GREEN's betas; ``F0.5 cse`` for one column); [] for one column
        headed by the title alone."""
        return []

    # ------------------------------------------------------------------ optional hooks
    def sharing_key(self) -> Hashable:
        """Metrics with equal keys share one prepared object (one :meth:`prepare` per group)."""
        return (type(self), self.settings)

    def corpus_sums(self, statistics: Any, column: int = 0) -> Any:
        """The summed rows the corpus score is computed from: one row sum (K,), or several
        (N, K) whose scores are averaged (sampled references). A reduction that chooses on the
        way (the annotator kept by the running F) returns a :class:`CorpusSums` with the
        choice, which :meth:`details` then shows without choosing again."""
        return self.rows(statistics, column).sum(axis=0)

    def column_sums(self, statistics: Any) -> list[Any]:
        """Every column's :meth:`corpus_sums` (a metric whose columns share work computes them
        together: GREEN's betas share each reference's precision and recall)."""
        return [self.corpus_sums(statistics, column) for column in range(self.column_count)]

    def details(self, statistics: Any, sums: list[CorpusSums]) -> dict[str, Any]:
        """What a result shows beside its scores (counts, per-order tables, the choices), from
        the statistics and each column's reduction (``sums[k].total``, ``.chosen``,
        ``.extra``); {} by default. The result class's ``from_scores`` reads it."""
        return {}

    def references_in(self, statistics: Any) -> int | None:
        """The number of reference sets the statistics were made with, for the signature
        (None: the signature does not name it)."""
        return None

    def texts_encoded(self, prepared: Any) -> int:
        """How many texts preparing and counting encoded (reported by ``compare -v``); 0 for
        metrics without a text encoder."""
        return 0

    def observation(self, prepared: Any) -> Any:
        """What preparing one chunk (and scoring its hypotheses with the prepared object) saw that
        only the whole run can judge (None: nothing), given to :meth:`check_observations` with
        every other chunk's once the run has them all."""
        return None

    def check_observations(self, observations: Sequence[Any]) -> None:
        """Refuse (:class:`InputError`) a run whose chunks' :meth:`observation`, in order, say
        that its input is wrong as a whole (GoToScorer: no line of the reference annotator in
        the whole gold M2, where a chunk alone may have none); nothing by default. A metric whose
        check may refuse declares :attr:`observations_refuse`."""

    def check_corpus_size(self, sentences: int) -> None:
        """Refuse (:class:`InputError`) a whole corpus of ``sentences`` sentences that data the
        metric reads by each sentence's place does not fit (GoToScorer's weight file: a line per
        sentence, no more); nothing by default. Its result checks the corpus it scored; edit
        attribution, which scores candidate sentences and never the whole corpus, asks first."""

    def check_ready(self) -> None:
        """Refuse (:class:`InputError`) what would stop the metric the first time it scores,
        whatever the input (an LLM judge's hosted API without its key); nothing by default. The
        report asks it of its metrics, and edit attribution of its metric, before any work: their
        scoring comes after minutes of other work."""

    def notes(self, observations: Sequence[Any]) -> list[str]:
        """Lines a run prints on stderr about what its chunks' :meth:`observation`, in order,
        say of the whole input that a user should know but that changes no number (SOME and
        IMPARA: how many inputs were cut to their maximum length, as the originals cut them);
        none by default."""
        return []

    def text_unit(self) -> tuple[str, bool] | None:
        """The (unit, normalize_space) the metric reads text with, for whitespace warnings
        (SPEC 1); None for metrics that do not count n-grams of raw text."""
        return None

    # ------------------------------------------------------------------ offered by some metrics
    def edit_marks(self, result: Result, hypothesis: Sequence[Any], gold: Sequence[Any],
                   levels: Sequence[int] = (1, 2, 3)) -> "EditMarks":
        """For a metric that :attr:`marks_edits`: one system's edits (``hypothesis``: its M2
        blocks) marked against the reference annotator its ``result`` kept in the ``gold`` M2
        blocks, and the counts and scores per error type at each category level of ``levels``."""
        raise InputError(f"metric {self.display_name} does not mark edits (marks_edits is False)")

    def type_group(self, error_type: str, level: int) -> str:
        """For a metric that :attr:`marks_edits`: the group of an error type at a category level,
        as its per-type counts (:meth:`edit_marks`) group the types."""
        raise InputError(f"metric {self.display_name} does not mark edits (marks_edits is False)")

    def gold_edit_weights(self, corpus: Any, levels: Sequence[int] = (1, 2, 3),
                          group: Callable[[str, int], str] | None = None) -> "GoldEditWeights | None":
        """For a metric that :attr:`weighs_gold_edits`: how hard each gold edit of ``corpus`` is
        (judged from its hypotheses), per sentence and per error type group at each category
        level of ``levels`` (``group(error_type, level)``: the group of a type, e.g. another
        metric's :meth:`type_group`; default: the metric's own); None when the gold has no edit
        to weigh."""
        raise InputError(f"metric {self.display_name} does not weigh gold edits (weighs_gold_edits is False)")

    # ------------------------------------------------------------------ derived: scores
    def score(self, statistics: Any) -> Result:
        """The corpus result of (possibly resampled or concatenated) statistics: every column's
        :meth:`corpus_sums` (:meth:`column_sums`) scored by :meth:`score_from_sums` (the mean,
        for several sums), made into a :attr:`result_class` with the signature, the settings
        and the :meth:`details`. Written once, here: a metric supplies the hooks."""
        import numpy as np

        self.check_statistic_values(statistics)
        sums = [total if isinstance(total, CorpusSums) else CorpusSums(total) for total in self.column_sums(statistics)]
        values = [float(np.mean(self.score_from_sums(part.total, column))) for column, part in enumerate(sums)]
        result = self.result_class.from_scores(values, self.signature(self.references_in(statistics)),
                                               self.settings_dict(), self.details(statistics, sums),
                                               self.column_names(), self.fraction)
        if self.rounds_to is not None:  # its one line prints the scores as the tables do
            result.rounds_to = self.rounds_to
        return result

    def check_statistic_values(self, statistics: Any) -> Any:
        """Statistics as :meth:`statistics` makes them, as far as :meth:`score` and the paired
        tests can tell (returned as they are): not None or a string; an array holds numbers (not bools or
        objects), counts (:attr:`count_statistics`) are finite whole numbers >= 0, and other
        values finite where :attr:`finite_statistics` says so. (nan GLEU+ statistics scored nan
        without a word, negative M2 counts a number, nan SOME statistics nan.)"""
        import numpy as np

        from ..core.fscore import whole_counts

        what = f"{self.display_name}: statistics"
        if statistics is None or isinstance(statistics, (str, bytes, numbers.Number)):
            raise InputError(f"{what} must be what statistics() returned, got {kind_of(statistics)}", "statistics")
        if isinstance(statistics, (list, tuple)):
            try:
                np.asarray(statistics, dtype=np.float64)
            except (TypeError, ValueError):
                raise InputError(f"{what} given as a list must be rows of numbers of one shape, as statistics() "
                                 "returns them", "statistics") from None
        if not isinstance(statistics, np.ndarray):
            return statistics  # (a metric's own kind: ERRANT's, CLEME's ...)
        if statistics.dtype.kind not in "iuf":
            raise InputError(f"{what} must be numbers, got an array of {statistics.dtype}", "statistics")
        if statistics.ndim == 0 or len(statistics) == 0:  # (M2 scored no sentence 1.0)
            raise InputError(f"{what} hold no sentence: a score needs the rows of at least one", "statistics")
        if self.count_statistics and whole_counts(statistics):
            return statistics
        if ((self.count_statistics or self.finite_statistics) and statistics.dtype.kind == "f"
                and not np.isfinite(statistics).all()):
            raise InputError(f"{what} hold values that are no finite numbers (nan or inf)", "statistics")
        if self.count_statistics:
            raise InputError(f"{what} are counts, and some are not whole numbers >= 0", "statistics")
        return statistics

    def check_prepared_kind(self, prepared: Any, kind: type | tuple[type, ...]) -> None:
        """``prepared`` must be what this metric's :meth:`prepare` returns (one InputError, not a
        traceback, for another metric's or a wrong value)."""
        if not isinstance(prepared, kind):
            raise InputError(f"{self.display_name}: prepared must be what its prepare() returned, got "
                             f"{type(prepared).__name__}", "prepared")

    def score_of(self, name: str, statistics: Any, references: int | None = None) -> Result:
        """:meth:`score` of the hypothesis ``name``: a refusal that names no file names it (an
        LLM judge's hypothesis without any scored sentence has no score); a score that is not a
        finite number is refused (a plugin's NaN printed ``nan``), and a plugin's own error is
        one line (:func:`~gecmetrics.metrics.plugin_guard.plugin_errors`). ``references``: the
        number of reference sets the run read, signed where :meth:`references_in` cannot tell it
        from the statistics, as the run's tables sign it (a plugin's result lacked their ``refs:N``)."""
        import math

        with self.naming(name):
            with plugin_errors(self, "score"):
                result = self.score(statistics)
                scores = [float(x) for x in result.scores]
                if references is not None and self.references_in(statistics) is None:
                    result.signature = self.signature(references)
        bad = next((x for x in scores if not math.isfinite(x)), None)
        if bad is not None:
            raise InputError(f"metric {self.display_name} gives a score of {bad} (not a finite number): its statistics "
                             "leave the score undefined", name)
        return result

    def sentence_scores_of(self, name: str, statistics: Any) -> Any:
        """:meth:`sentence_from_statistics` of the hypothesis ``name``: a refusal that names no file
        names it (BERTScore's 0/0 of ``--sentence`` named none)."""
        with self.naming(name):
            return self.sentence_from_statistics(statistics)

    @staticmethod
    @contextmanager
    def naming(name: str) -> Iterator[None]:
        """An InputError raised in the block that names no file is raised again naming ``name``
        (the hypothesis whose statistics were being scored), and the line it named."""
        try:
            yield
        except InputError as err:
            if err.path is not None:
                raise
            raise err.naming(name) from None

    def evaluate(self, prepared: Any, hypothesis: Sequence[Any]) -> Result:
        """The corpus result of one hypothesis on a prepared corpus (statistics, then score),
        with the notes of :meth:`corpus_score` given ``prepared``."""
        return self.score(self.prepared_statistics(prepared, hypothesis))

    def prepared_statistics(self, prepared: Any, hypothesis: Sequence[Any]) -> Any:
        """The statistics of one hypothesis on a prepared corpus, the whole-run check of what
        preparing and scoring it saw, and its :meth:`notes` issued as
        :class:`~gecmetrics.errors.InputNote` warnings (the texts were read by ``prepare``:
        they are not checked again)."""
        from .running import check_observations

        statistics = self.statistics(prepared, hypothesis)
        warn_notes(check_observations([self], [{0: self.observation(prepared)}]))
        return statistics

    def sentence_from_statistics(self, statistics: Any) -> Any:
        """Per-sentence scores: an object whose ``scores`` hold fractions, shape (D,) or
        (columns, D), with its ``signature``. By default each sentence's own rows scored."""
        import numpy as np

        self.require_sentence_scores()
        statistics = self.check_statistic_values(statistics)
        scores = np.stack([np.asarray(self.score_from_sums(self.rows(statistics, column), column), dtype=np.float64)
                           for column in range(self.column_count)])
        return SentenceScores(scores[0] if len(scores) == 1 else scores,
                              self.signature(self.references_in(statistics)), self.fraction)

    def sentence_matrix(self, statistics: Any) -> Any:
        """Per-sentence scores as an array of shape (columns, D)."""
        import numpy as np

        scores = np.asarray(self.sentence_from_statistics(statistics).scores, dtype=np.float64)
        return scores.reshape(-1, scores.shape[-1])

    def alone_matrix(self, statistics: Any) -> Any:
        """Per-sentence scores (columns, D) with each sentence scored as a corpus of one
        sentence: what a reward gives a completion and edit attribution a candidate sentence.
        Where sentences are independent (``independent_sentences``) that is
        :meth:`sentence_matrix`; otherwise each one-row slice of the statistics is scored on
        its own (the M2 family chooses every sentence's candidate at once instead)."""
        import numpy as np

        if self.independent_sentences:
            return self.sentence_matrix(statistics)
        rows = np.asarray(statistics)
        if not len(rows):
            return np.zeros((self.column_count, 0))
        return np.concatenate([self.sentence_matrix(rows[k:k + 1]) for k in range(len(rows))], axis=1)

    def unscored_refusal(self, statistics: Any, use: str) -> str | None:
        """Why ``use`` (a paired test, a ranking from sentence scores: what compares the systems
        on every sentence) cannot take ``statistics`` because some sentence has no score (an LLM
        judge's unanswered prompt): the message, naming how many and what to do; None when every
        sentence has one, as every sentence of a metric that always scores does (the default)."""
        return None

    no_sentence_scores_reason: ClassVar[str] = "it declares has_sentence_scores False"
    """Why a metric without sentence scores has none, as :meth:`require_sentence_scores` says it."""

    def require_sentence_scores(self) -> None:
        """An InputError saying why, for a metric without sentence scores."""
        if not self.has_sentence_scores:
            raise InputError(f"metric {self.display_name} has no sentence scores ({self.no_sentence_scores_reason}): "
                             "sentence scores (--sentence), sentence-level meta-evaluation, sentence rankings and "
                             "edit attribution need a score per sentence")

    def oriented(self, scores: Any) -> Any:
        """Scores turned so that higher is better (negated for a lower-is-better metric)."""
        return scores if self.higher_is_better else -scores

    # ------------------------------------------------------------------ derived: the one call shape
    def corpus_score(self, sources: Sequence[str] | None, references: Any, hypothesis: Sequence[Any],
                     prepared: Any = None, *,
                     systems: Mapping[str, Sequence[Any]] | Sequence[Sequence[Any]] | None = None,
                     cache: Any = None) -> Result:
        """The corpus result of one hypothesis, the number the engine and the command line give:

        >>> get_metric("errant").corpus_score(sources, gold_blocks, hypothesis).score

        ``sources``: the D source lines (None where the metric reads none: gold M2 metrics take
        the gold blocks' sentences; BERTScore). ``references`` by the metric's
        ``reference_kind``: TEXT, a list of reference sets, each a list of D lines (one set is
        ``[lines]``); M2, the gold M2 blocks (:func:`~gecmetrics.io.m2.read_m2`); NONE, None (or
        reference sets, checked and not read).
        ``hypothesis`` by its ``hypothesis_kind``: D lines of text, or D M2 blocks.
        ``systems``: the systems scored together (name -> lines or blocks, or a list; the
        hypothesis among them, or not: it is then prepared first), for metrics whose number
        depends on every system scored with it: GoToScorer's chunk weights (without them, the
        levels come from this hypothesis alone, N = 1; or use its ``weights=FILE`` setting),
        the LLM judges' prompts of up to five hypotheses of a source (in the systems' order).
        With the systems ``compare`` scores, in its order, the number is ``compare``'s.
        ``prepared``: reuse what :meth:`prepare` returned (then ``sources`` and ``references``
        are not read). ``cache``: where parses, model outputs and LLM answers are kept across
        calls and runs: None for the metric's own (:meth:`with_context`), else the folder the
        command line uses by default (``$GECMETRICS_CACHE``, else the user cache folder); False
        for none; a folder or a :class:`~gecmetrics.core.cache.Cache`. Wrong or missing inputs
        raise :class:`InputError`; what the command line prints about the input and the
        metric's :meth:`notes` are issued as :class:`~gecmetrics.errors.InputNote` warnings."""
        from .running import HYPOTHESIS

        metric = self.for_call(cache)
        statistics = metric.corpus_statistics(sources, references, hypothesis, systems=systems, prepared=prepared)
        counted = len(references) if self.reference_kind == TEXT and isinstance(references, (list, tuple)) else None
        return metric.score_of(HYPOTHESIS, statistics, counted)

    def sentence_scores(self, sources: Sequence[str] | None, references: Any, hypothesis: Sequence[Any],
                        prepared: Any = None, *,
                        systems: Mapping[str, Sequence[Any]] | Sequence[Sequence[Any]] | None = None,
                        cache: Any = None) -> SentenceScores:
        """Per-sentence scores of one hypothesis (``scores``: one per sentence, or columns x
        sentences), with the same inputs as :meth:`corpus_score`: what ``gecmetric ...
        --sentence`` prints."""
        self.require_sentence_scores()
        metric = self.for_call(cache)
        return metric.sentence_from_statistics(metric.corpus_statistics(sources, references, hypothesis,
                                                                        systems=systems, prepared=prepared))

    def corpus_statistics(self, sources: Sequence[str] | None, references: Any, hypothesis: Sequence[Any],
                          prepared: Any = None, *,
                          systems: Mapping[str, Sequence[Any]] | Sequence[Sequence[Any]] | None = None,
                          cache: Any = None) -> Any:
        """The statistics of one hypothesis that :meth:`corpus_score` reduces, made by the run
        engine's own per-chunk step (:func:`~gecmetrics.metrics.running.chunk_statistics`) on
        the whole corpus (see :meth:`corpus_score` for the arguments)."""
        from .running import chunk_statistics, corpus_warnings, named_hypotheses, python_corpus

        metric = self.for_call(cache)
        if prepared is not None:
            return metric.prepared_statistics(prepared, hypothesis)
        name, hypotheses = named_hypotheses(hypothesis, systems)
        corpus = python_corpus([metric], sources, references, hypotheses)
        observed: dict[int, Any] = {}
        statistics, _ = chunk_statistics([metric], corpus, [name], observed)
        warn_notes(corpus_warnings([metric], corpus, observed))
        return metric.join_statistics([statistics[name][0]])

    # ------------------------------------------------------------------ derived: paired tests
    def resampler(self, column: int = 0, references: int = 1) -> Any:
        """The paired-test resampler of one score column: rows chosen per sentence, summed,
        scored (override when a choice depends on the corpus, checking the column first:
        :meth:`check_column_number`)."""
        import numpy as np

        from ..core.resampling import LinearResampler

        self.check_resampler_arguments(column, references)
        def rows(statistics: Any) -> Any:  # (checked as statistics() made them: BERTScore's name the reference)
            checked = np.asarray(self.check_statistic_values(statistics))
            return self.rows(self.check_statistics(checked, references), column)

        return LinearResampler(rows,
                               lambda sums: self.score_from_sums(sums, column),
                               self.paired_label(column), self.column_signature(column, references))

    def check_statistics(self, statistics: Any, references: int) -> Any:
        """The statistics a paired test's resampler was given for one system, when they can be
        this metric's, made with ``references`` reference sets (one InputError otherwise: the
        statistics of another metric, or of another number of references, would be summed and
        scored as if they were). Nothing is checked by default."""
        return statistics

    def check_resampler_arguments(self, column: Any, references: Any) -> int:
        """:meth:`check_column_number`, and ``references`` (the number of reference sets the
        statistics were made with) an integer >= 0: what every :meth:`resampler` checks first."""
        check_count(references, "references (the number of reference sets of the statistics)", 0)
        return self.check_column_number(column)

    def check_column_number(self, column: Any) -> int:
        """A score column's index, from 0 to :attr:`column_count` - 1 (one InputError otherwise)."""
        if isinstance(column, bool) or not isinstance(column, numbers.Integral) or not 0 <= column < self.column_count:
            raise InputError(f"{self.display_name}: column must be an index from 0 to {self.column_count - 1} "
                             f"(column_index() finds it by label or value), got {column!r}", "column")
        return int(column)

    def paired_label(self, column: int = 0) -> str:
        """How a paired test's table names the column (default: its column label)."""
        return self.column_labels()[column]

    # ------------------------------------------------------------------ derived: description
    @property
    def column_count(self) -> int:
        return len(self.column_labels())

    def column_title(self) -> str:
        """The first word of every column header: :attr:`header`, else the signature's name."""
        return self.header or self.signature_name()

    def column_labels(self) -> list[str]:
        """Compact headers of the metric's score columns (one per part, e.g. per beta): the
        title and each column's name (``GREEN b0.5``, ``ERRANT F0.5 cse``)."""
        title = self.column_title()
        names = self.column_names()
        return [f"{title} {name}" if name else title for name in names] if names else [title]

    def column_index(self, key: int | str | float | None) -> int:
        """The column named by ``key``: its index, its label, or (for metrics with a
        :attr:`column_setting`) one of that setting's values; None: the first column."""
        labels = self.column_labels()
        if key is None:
            return 0
        if isinstance(key, str) and key in labels:
            return labels.index(key)
        if isinstance(key, bool) or getattr(getattr(key, "dtype", None), "kind", "") == "b":
            raise InputError(f"metric {self.display_name}: column must be an index, a label or a value, not {key!r}")
        index = int(key) if isinstance(key, numbers.Integral) and 0 <= key < len(labels) else None
        if self.column_setting is None:
            if index is not None:
                return index
        else:
            values = [_number(v) for v in self._column_values()]  # None: a value that is not a number
            wanted = _number(key)
            by_value = values.index(wanted) if wanted is not None and wanted in values else None
            if index is not None and by_value is not None and index != by_value:
                # 1 is both the column at index 1 and the column of the setting's value 1: a
                # guess either way could silently score with the other column
                raise InputError(f"metric {self.display_name}: column {key} is ambiguous: the column at index "
                                 f"{index} or {self.column_setting} {key}; give its label ({labels[index]!r} or "
                                 f"{labels[by_value]!r})")
            if index is not None:
                return index
            if by_value is not None:
                return by_value
            raise InputError(f"metric {self.display_name} has no column {shown(key)}: not an index (0..{len(labels) - 1}), "
                             f"a label ({', '.join(labels)}) or a {self.column_setting} of its columns "
                             f"({', '.join(signature_value(v) for v in self._column_values())})")
        raise InputError(f"metric {self.display_name} has no column {shown(key)}; columns: {', '.join(labels)} "
                         f"(or 0..{len(labels) - 1})")

    def _column_values(self) -> list[Any]:
        """The values of the :attr:`column_setting`, one per column."""
        values = getattr(self.settings, self.column_setting)
        return list(values) if isinstance(values, (list, tuple)) else [values]

    def signature_name(self) -> str:
        """The signature's name: the :attr:`label`, else the class's name."""
        return self.label or type(self).__name__

    def signature_extra(self, references: int | None) -> list[tuple[str, str] | str]:
        """Signature fields that are not settings (after the declared ones, unless
        :attr:`signature_order` places them): by default the number of reference texts, when
        known, of a metric with text references; a family adds its tokenisation, its model's
        identity, the library versions its numbers depend on."""
        return [("refs", str(references))] if references is not None and self.reference_kind == TEXT else []

    def signature_fields(self, references: int | None) -> tuple[str, list[tuple[str, str]]]:
        """The signature's name and fields (without the version): the settings declared with a
        signature key, as each is shown, then :meth:`signature_extra`, in
        :attr:`signature_order` where one is given."""
        if references is not None:
            check_count(references, "references (the number of reference sets)", 0)
        fields = [*self.settings.signature_fields(), *(as_field(item) for item in self.signature_extra(references))]
        order = self.signature_order
        if order:
            fields.sort(key=lambda item: order.index(item[0]) if item[0] in order else len(order))
        return self.signature_name(), fields + list(self.edits_made_by)

    @property
    def edits_made_by(self) -> tuple[tuple[str, str], ...]:
        """The fields of the annotation that made the edits this metric reads, as
        :meth:`with_edits_made_by` gave them (none by default)."""
        return self.__dict__.get("_edits_made_by", ())

    def with_edits_made_by(self, fields: Iterable[tuple[str, str] | str]) -> "Metric":
        """A copy (same settings, state and context) whose signature names, after its own
        fields, the annotation that made the M2 edits it reads, where its caller made them (the
        report's ERRANT annotator, ``annotation_fields()``: ``spacy:V|model:M``): another model,
        other edits, other numbers, as ERRANT's signature names its annotator from text."""
        return self._copy_with("_edits_made_by", tuple(as_field(item) for item in fields))

    def column_signature(self, part: int, references: int | None) -> Signature:
        """The signature of one column alone: for a metric whose columns are the values of a
        signed :attr:`column_setting` (GREEN's betas), that setting shows the column's value. Both
        arguments checked (GREEN's ``columns(-1)`` was signed ``refs:-1``)."""
        part, references = checked_part(part, self.column_count), checked_references(references)
        key = self.settings_class.infos()[self.column_setting].signature if self.column_setting else None
        if key is None:
            return self.signature(references)
        name, fields = self.signature_fields(references)
        value = signature_value(self._column_values()[part])
        return Signature(name, [(k, value if k == key else v) for k, v in fields])

    @property
    def signature(self) -> Signature:
        """The signature of these settings; call it with the number of reference sets
        (``metric.signature(2)``) to complete it where the metric's signature names them."""
        name, fields = self.signature_fields(None)
        return Signature(name, fields, complete=self._signature_for)

    def _signature_for(self, references: int | None) -> Signature:
        name, fields = self.signature_fields(references)
        return Signature(name, fields, complete=self._signature_for)

    def files_read(self) -> list[str]:
        """The files this metric's settings name that a run reads (a word list, a weight file, a
        baseline table, a model's folder), which no output of the run may replace (or be written
        into): by default every setting whose value names an existing file or folder."""
        import dataclasses
        import os

        if not dataclasses.is_dataclass(self.settings):  # (a plugin's settings of its own kind)
            return []
        values = [getattr(self.settings, field.name) for field in dataclasses.fields(self.settings)]
        return [value for value in values if isinstance(value, str) and value and os.path.exists(value)]

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


def checked_corpus(corpus: Any, label: str, reads: str = "", method: str = "prepare") -> Any:
    """``corpus`` if it is a :class:`~gecmetrics.io.corpus.Corpus`, what every metric's
    :meth:`Metric.prepare` takes; anything else is one InputError naming the metric (``reads``:
    what of the corpus it reads, e.g. " whose gold M2 is the reference")."""
    from ..io.corpus import Corpus

    if not isinstance(corpus, Corpus):
        raise InputError(f"{label}: {method}() takes a Corpus{reads}, got {type(corpus).__name__}")
    return corpus


def truncation_note(label: str, original: str, observations: Sequence[Any]) -> list[str]:
    """The line that says, of chunks' ``(file -> sentences cut, maximum length)`` observations
    (None: nothing cut; every chunk names the files in one order), how many sentences of each
    file were longer than the maximum and cut to it, as ``original`` cuts them; none when no
    chunk cut any."""
    seen = [observed for observed in observations if observed is not None]
    counts: dict[str, int] = {}
    for cut, _ in seen:
        for name, count in cut.items():
            counts[name] = counts.get(name, 0) + count
    if not any(counts.values()):
        return []
    length = seen[0][1]  # the model's, in every chunk
    files = ", ".join(f"{count:,} of {name}" for name, count in counts.items() if count)
    return [f"gecmetric: note: {label}: sentences longer than {length} tokens were truncated to {length}, as "
            f"{original} does: {files}"]
