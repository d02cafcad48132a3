"""The metric protocol: what every scorer is, so that generic code never asks which one it holds.

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

:class:`Signature` is a string with fields: ``GREEN|beta:2|n:4|unit:word|refs:2|version:0.1.0``.
"""
from __future__ import annotations

import dataclasses
import math
import re
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Hashable, Iterable, NamedTuple, Sequence

from ..version import __version__
from ..errors import InputError
from ..core.checks import check_finite_non_negative, check_seed

from ..kinds import M2, NONE, TEXT  # noqa: F401 (M2, NONE: re-exported for metric authors)

_META = "gecmetrics"


# ----------------------------------------------------------------------------- signatures


class Signature(str):
    """A one-line description of everything that changes a number, e.g.
    ``GLEU+|variant:official|n:4|unit:word|refs:2|iter:500|sampling:py2-compatible|version:0.1.0``.

    It is the string itself (print it, compare it) and keeps its parts: ``name``, ``fields``
    (``(key, value)`` pairs) and ``version``, which is always last. A metric's signature is
    also callable: ``metric.signature(references=2)`` completes it with the reference count.
    """

    name: str
    fields: tuple[tuple[str, str], ...]
    version: str

    def __new__(cls, name: str, fields: Iterable[tuple[str, str] | str] = (), version: str = __version__,
                complete: Callable[[int | None], "Signature"] | None = None) -> "Signature":
        parts = tuple(_field(item) for item in fields)
        text = "|".join([name] + [f"{k}:{v}" if v != "" else k for k, v in parts] + [f"version:{version}"])
        self = super().__new__(cls, text)
        self.name, self.fields, self.version = name, parts, version
        self._complete = complete
        return self

    def format(self) -> str:
        """The one-line text."""
        return str(self)

    def with_fields(self, *more: tuple[str, str] | str) -> "Signature":
        """This signature with more fields before the version (e.g. a paired test's settings)."""
        return Signature(self.name, self.fields + tuple(_field(item) for item in more), self.version)

    def __call__(self, references: int | None = None) -> "Signature":
        """The signature for ``references`` reference sets (the metric's own, when it has one)."""
        if self._complete is None:
            return self
        return self._complete(references)

    def __reduce__(self):
        return (Signature, (self.name, self.fields, self.version))


def _field(item: tuple[str, str] | str) -> tuple[str, str]:
    if isinstance(item, str):
        return (item, "")
    key, value = item
    return (str(key), str(value))


# ----------------------------------------------------------------------------- settings


class SettingInfo:
    """How one setting is read and described: its parser (Python values and text both), its
    help line, the aliases a user may type (``iter`` for ``iterations``), its key in the
    metric's signature (None: not in it) and its command-line flags (``("-i", "--iter")``;
    empty: ``--name``)."""

    __slots__ = ("help", "parse", "aliases", "signature", "flags")

    def __init__(self, help: str, parse: Callable[[str, Any], Any], aliases: tuple[str, ...] = (),
                 signature: str | None = None, flags: tuple[str, ...] = ()) -> None:
        self.help, self.parse, self.aliases = help, parse, tuple(aliases)
        self.signature, self.flags = signature, tuple(flags)


def setting(default: Any, help: str, parse: Callable[[str, Any], Any], aliases: tuple[str, ...] = (), *,
            signature: str | None = None, flags: tuple[str, ...] = ()) -> Any:
    """A settings dataclass field: ``n: int = setting(4, "maximum n-gram order", positive_int,
    signature="n")``. ``signature``: the field's key in the metric's signature (the default
    signature lists these fields in declaration order); ``flags``: its command-line flags."""
    return field(default=default, metadata={_META: SettingInfo(help, parse, aliases, signature, flags)})


@dataclass(frozen=True)
class Settings:
    """Base of every metric's settings: a frozen dataclass whose fields are declared with
    :func:`setting`. Values are parsed and checked when the object is made (from Python values
    or from text); :meth:`check` adds rules between fields."""

    def __post_init__(self) -> None:
        for item in dataclasses.fields(self):
            info = item.metadata.get(_META)
            if info is not None:
                shown = f"{item.name} ({'/'.join(info.flags)})" if info.flags else item.name  # messages name the flags
                object.__setattr__(self, item.name, info.parse(shown, getattr(self, item.name)))
        self.check()

    def check(self) -> None:
        """Rules between fields (override); raise InputError."""

    @classmethod
    def infos(cls) -> dict[str, SettingInfo]:
        """The settings a user can give, in declaration order."""
        return {f.name: f.metadata[_META] for f in dataclasses.fields(cls) if _META in f.metadata}

    @classmethod
    def canonical_name(cls, key: str) -> str | None:
        """The setting a keyword or alias names (``iter`` -> ``iterations``), or None."""
        key = key.replace("-", "_")
        for name, info in cls.infos().items():
            if key == name or key in info.aliases:
                return name
        return None

    def to_dict(self) -> dict[str, Any]:
        return {f.name: _plain(getattr(self, f.name)) for f in dataclasses.fields(self)}

    def signature_fields(self) -> list[tuple[str, str]]:
        """(key, value) of the settings declared with a signature key, in declaration order."""
        return [(info.signature, signature_value(getattr(self, name)))
                for name, info in self.infos().items() if info.signature]

    def replace(self, **changes: Any) -> "Settings":
        return dataclasses.replace(self, **changes)


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def signature_value(value: Any) -> str:
    """A setting as a signature shows it: numbers as ``%g``, booleans as yes/no, several values
    joined by ``,``, None as ``none``."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, (list, tuple)):
        return ",".join(signature_value(item) for item in value)
    return "none" if value is None else str(value)


# ----------------------------------------------------------------------------- parsers


def setting_label(name: str) -> str:
    """How a message names a setting: a command-line flag as it is, else ``setting NAME``."""
    return name if name.startswith("-") else f"setting {name}"


def _not_bool(name: str, value: Any, what: str) -> None:
    if isinstance(value, bool):
        raise InputError(f"{setting_label(name)} must be {what}, got {value!r}")


def parse_int(name: str, value: Any, minimum: int | None = None, maximum: int | None = None,
              bound: str = "") -> int:
    """An integer from an int, an integral float or text; ``minimum`` and ``maximum`` when given
    (``bound``: the name of the maximum's constant, for the message)."""
    _not_bool(name, value, "an integer")
    number = None
    try:
        if isinstance(value, str):
            number = int(value.strip())
        elif isinstance(value, float):
            number = int(value) if value.is_integer() else None
        else:
            number = int(value) if hasattr(value, "__index__") else None
    except (TypeError, ValueError):
        number = None
    if number is None:
        raise InputError(f"{setting_label(name)} must be an integer, got {value!r}")
    if minimum is not None and number < minimum:
        raise InputError(f"{setting_label(name)} must be an integer >= {minimum}, got {value!r}")
    if maximum is not None and number > maximum:
        raise InputError(f"{setting_label(name)} must be at most {maximum:,}" + (f" ({bound})" if bound else "")
                         + f", got {number:,}")
    return number


def bounded_int(minimum: int, maximum: int, bound: str = "") -> Callable[[str, Any], int]:
    """A parser of integers from ``minimum`` to ``maximum`` (``bound``: the maximum's constant)."""
    def parse(name: str, value: Any) -> int:
        return parse_int(name, value, minimum, maximum, bound)
    return parse


def parse_seed(name: str, value: Any) -> int:
    """A seed of NumPy's generators: an integer from 0 to 2**64 - 1 (a negative one is one
    InputError here, not a ValueError inside NumPy)."""
    number = parse_int(name, value)
    return check_seed(number, setting_label(name))


def optional_seed(name: str, value: Any) -> int | None:
    """A seed, or None (unset)."""
    if value is None or (isinstance(value, str) and value.strip().lower() in ("", "none")):
        return None
    return parse_seed(name, value)


def parse_finite_non_negative(name: str, value: Any) -> float:
    """A finite number >= 0 (a weight: nan, inf and negative numbers are rejected)."""
    return check_finite_non_negative(value, setting_label(name))


def positive_int(name: str, value: Any) -> int:
    return parse_int(name, value, 1)


def non_negative_int(name: str, value: Any) -> int:
    return parse_int(name, value, 0)


def optional_int(name: str, value: Any) -> int | None:
    if value is None or (isinstance(value, str) and value.strip().lower() in ("", "none")):
        return None
    return parse_int(name, value)


def parse_float(name: str, value: Any) -> float:
    """A finite or infinite number (not nan) from a number or text."""
    _not_bool(name, value, "a number")
    try:
        number = float(value.strip() if isinstance(value, str) else value)
    except (TypeError, ValueError):
        raise InputError(f"{setting_label(name)} must be a number, got {value!r}") from None
    if math.isnan(number):
        raise InputError(f"{setting_label(name)} must be a number, not nan")
    return number


def parse_beta(name: str, value: Any) -> float:
    """The one rule for beta in every metric: a number >= 0; inf means recall; nan and
    negative numbers are rejected."""
    number = parse_float(name, value)
    if number < 0:
        raise InputError(f"{setting_label(name)} must be a number >= 0 or inf, got {value!r}")
    return number


def parse_betas(name: str, value: Any) -> tuple[float, ...]:
    """One or more betas: a number, a sequence, or text separated by '/' (``0.5/1/2``)."""
    items = _items(name, value)
    return tuple(parse_beta(name, item) for item in items)


def parse_floats(name: str, value: Any) -> tuple[float, ...]:
    return tuple(parse_float(name, item) for item in _items(name, value))


def _items(name: str, value: Any) -> Sequence[Any]:
    if isinstance(value, str):
        items: Sequence[Any] = value.split("/")
    elif isinstance(value, (list, tuple)) or (hasattr(value, "tolist") and getattr(value, "ndim", 0) == 1):
        items = list(value)
    else:
        items = [value]
    if not items or any(isinstance(item, str) and not item.strip() for item in items):
        raise InputError(f"{setting_label(name)} needs one or more numbers separated by '/', got {value!r}")
    return items


_TRUE = ("true", "yes", "1", "on")
_FALSE = ("false", "no", "0", "off")


_DEVICE = re.compile(r"(cpu|cuda(:[0-9]+)?|mps)")


def parse_device(name: str, value: Any) -> str | None:
    """``cpu``, ``cuda``, ``cuda:N`` or ``mps``; None (``auto``): CUDA when torch sees one."""
    if value is None or (isinstance(value, str) and value.strip().lower() in ("", "auto")):
        return None
    if not isinstance(value, str) or not _DEVICE.fullmatch(value.strip().lower()):
        raise InputError(f"{setting_label(name)} must be cpu, cuda, cuda:N, mps or auto, got {value!r}")
    return value.strip().lower()


def parse_bool(name: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise InputError(f"{setting_label(name)} must be true or false, got {value!r}")


def optional_bool(name: str, value: Any) -> bool | None:
    return None if value is None else parse_bool(name, value)


def choice(*choices: str) -> Callable[[str, Any], str]:
    """A parser accepting one of ``choices``."""
    def parse(name: str, value: Any) -> str:
        if value not in choices:
            raise InputError(f"{setting_label(name)} must be one of: {', '.join(choices)}; got {value!r}")
        return str(value)
    parse.choices = choices  # type: ignore[attr-defined]  # shown in command-line help
    return parse


def parse_strings(name: str, value: Any) -> tuple[str, ...]:
    """Several words: a sequence, or text separated by '/' or spaces."""
    if isinstance(value, str):
        return tuple(item for part in value.split("/") for item in part.split())
    if isinstance(value, (list, tuple)) and all(isinstance(item, str) for item in value):
        return tuple(value)
    raise InputError(f"{setting_label(name)} must be a list of words, got {value!r}")


# ----------------------------------------------------------------------------- results


class Column(NamedTuple):
    """One score column of a metric in a table: its compact label, the metric's part it shows
    (e.g. the beta index of GREEN), and the signature of that part alone."""

    label: str
    part: int
    signature: Signature


class Result:
    """What every metric's result has: ``score`` (headline number, a fraction), ``scores`` (one
    per column), ``signature``, ``settings`` (a dict) and :meth:`to_dict` (JSON-ready)."""

    score: float
    scores: Any
    signature: Signature
    settings: dict

    def to_dict(self, scale: float = 1.0) -> dict[str, Any]:
        return {"score": scale * float(self.score), "scores": [scale * float(s) for s in self.scores],
                "signature": str(self.signature), "settings": dict(self.settings)}


class OneScore(Result):
    """A result with one score column."""

    @property
    def scores(self) -> list[float]:
        return [float(self.score)]


@dataclass
class ScoreResult(Result):
    """The result the base class derives: one score per column (``score`` is the first), its
    signature and settings, and the metric's :meth:`Metric.details` (readable as attributes)."""

    scores: list[float]
    signature: Signature
    settings: dict = field(default_factory=dict)
    details: dict = field(default_factory=dict)

    @property
    def score(self) -> float:
        return float(self.scores[0])

    def __getattr__(self, name: str) -> Any:
        details = self.__dict__.get("details") or {}
        if name in details:
            return details[name]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def to_dict(self, scale: float = 1.0) -> dict[str, Any]:
        return {**super().to_dict(scale), **{key: _json_value(value) for key, value in self.details.items()}}


@dataclass
class SentenceScores:
    """Per-sentence scores of one hypothesis (fractions): shape (D,) for one column, (columns, D)
    for several, with the metric's signature."""

    scores: Any
    signature: Signature

    @classmethod
    def joined(cls, parts: Sequence["SentenceScores"]) -> "SentenceScores":
        """The scores of consecutive chunks of sentences as one."""
        import numpy as np

        return cls(np.concatenate([np.asarray(p.scores) for p in parts], axis=-1), parts[0].signature)

    def to_dict(self, scale: float = 1.0) -> dict[str, Any]:
        import numpy as np

        return {"scores": (scale * np.asarray(self.scores, dtype=np.float64)).tolist(),
                "signature": str(Signature.with_fields(self.signature, ("mode", "sentence")))}


def _json_value(value: Any) -> Any:
    tolist = getattr(value, "tolist", None)
    return tolist() if callable(tolist) else value


def compact(statistics: Any) -> Any:
    """Integer statistics stored in 32 bits when every value fits (per-sentence counts do):
    half the memory of a large corpus's rows; every reducer widens them as it sums. Anything
    else (float weights, a metric's own statistics object) is returned as it is."""
    import numpy as np

    if getattr(statistics, "dtype", None) == np.int64 and statistics.size and \
            -(2 ** 31) <= int(statistics.min()) and int(statistics.max()) < 2 ** 31:
        return statistics.astype(np.int32)
    return statistics


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
