"""What a metric returns: :class:`Signature` (a one-line string of everything that changes a
number), :class:`Result` and the base class's :class:`ScoreResult`, :class:`SentenceScores`,
:class:`Column` (one score column of a table), and :class:`CorpusSums` (one column's reduction
of a corpus, on its way to a result)."""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import zip_longest
from typing import Any, Callable, ClassVar, Iterable, Mapping, NamedTuple, Sequence

from ..version import __version__
from ..core.checks import check_count, check_flag
from ..core.lines import unordered
from ..core.table import ScoreFormat, number_label, scaled_number
from ..errors import InputError, kind_of, plural, shown


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
        if not isinstance(name, str) or not isinstance(version, str):
            raise InputError(f"a signature's name and version are strings, got {kind_of(name)} and {kind_of(version)}")
        if isinstance(fields, (str, bytes)) or not hasattr(fields, "__iter__") or unordered(fields) is not None:
            raise InputError(f"a signature's fields are a sequence of (key, value) pairs or keys, got "
                             f"{unordered(fields) or kind_of(fields)}")
        for what, text in (("name", name), ("version", version)):
            if "|" in text or not text.strip() or _line_break(text):
                raise InputError(f"a signature's {what} is one line of text without '|' (it separates the fields), "
                                 f"got {text!r}")
        parts = tuple(as_field(item) for item in fields)
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
        return Signature(self.name, self.fields + tuple(as_field(item) for item in more), self.version)

    def __call__(self, references: int | None = None) -> "Signature":
        """The signature for ``references`` reference sets (the metric's own, when it has one)."""
        references = checked_references(references)
        if self._complete is None:
            return self
        return self._complete(references)

    def __reduce__(self):
        return (Signature, (self.name, self.fields, self.version))


def as_field(item: tuple[str, str] | str) -> tuple[str, str]:
    """A field as a (key, value) pair (a key alone: value ""); a key holding '|' (or, in a pair,
    ':') is refused: the text could not be read back into its fields."""
    if isinstance(item, str):
        pair, separators = (item, ""), "|"
    elif isinstance(item, (bytes, Mapping)) or not isinstance(item, Sequence) or len(item) != 2:
        raise InputError(f"a signature field is a key or a (key, value) pair, got {shown(item)}")
    else:
        pair, separators = (str(item[0]), str(item[1])), "|:"
    if any(mark in pair[0] for mark in separators) or not pair[0] or pair[0] == "version" or _line_break(pair[0]):
        raise InputError(f"a signature field's key is a word without {' or '.join(map(repr, separators))}, not "
                         f"'version' (always the last field), on one line, got {pair[0]!r}")
    if "|" in pair[1] or _line_break(pair[1]):  # ("a", "1|c:2") read as the fields a:1 and c:2
        raise InputError(f"a signature field's value is one line without '|' (it separates the fields), got "
                         f"{shown(pair[1])}")
    return pair


def _line_break(text: str) -> bool:
    return len(text.splitlines()) > 1 or text.endswith(("\n", "\r"))


def checked_references(references: Any) -> int | None:
    """The number of reference sets a signature names: an integer >= 0, or None (not named); a
    negative number, a float, a bool or a text is an InputError (``refs:-1`` was signed). The one
    check of :meth:`Signature.__call__` and of a metric's column signatures."""
    if references is None:
        return None
    return check_count(references, "references (the number of reference sets)", 0)


def checked_part(part: Any, columns: int) -> int:
    """The index of one of a metric's ``columns`` (``column_signature``'s ``part``): an integer
    from 0 to columns - 1 (an IndexError came from inside, and -1 signed the last column)."""
    return check_count(part, "part (the index of one of the metric's columns)", 0, columns - 1)


# ----------------------------------------------------------------------------- results


class Column(NamedTuple):
    """One score column of a metric in a table: its compact label, the metric's part it shows
    (e.g. the beta index of GREEN), and the signature of that part alone."""

    label: str
    part: int
    signature: Signature


class Result:
    """What every metric's result has: ``score`` (headline number, a fraction), ``scores`` (one
    per column), ``signature``, ``settings`` (a dict) and :meth:`to_dict` (JSON-ready).

    ``str(result)`` is one line, as sacrebleu prints its scores: the headline (fractions x100, two
    decimals, as the tables print them: :func:`shown_score`) and the signature,
    ``ERRANT F0.5 = 32.11 (P 40.12, R 17.60) | ERRANT|mode:cs|...``;
    ``repr`` shows arrays and long lists by their shapes. The metric base class makes a result by
    :meth:`from_scores`."""

    score: float
    scores: Any
    signature: Signature
    settings: dict
    headline_field: ClassVar[str] = "score"
    """The field :meth:`from_scores` fills with the first column's score (``f``: the M2 family)."""
    fraction: ClassVar[bool] = True
    """Whether the scores are fractions (shown x100); an instance may say otherwise."""
    rounds_to: ClassVar[int | None] = None
    """The decimals to which the metric's tool rounds its scores (its
    :attr:`~gecmetrics.metrics.base.Metric.rounds_to`, which :meth:`Metric.score` gives the
    result it makes): the one line shows them as the tables do."""

    @classmethod
    def from_scores(cls, scores: Sequence[float], signature: Signature, settings: dict, details: dict,
                    names: Sequence[str] = (), fraction: bool = True) -> "Result":
        """The result of a metric's column ``scores`` (its :meth:`~gecmetrics.metrics.base.Metric.score`
        makes every result this way): the fields named in ``details`` from it, the headline field
        from the first score, ``scores`` from all of them, and ``signature`` and ``settings``
        (``names``: the columns' names, ``fraction``: whether the scores are fractions, for
        result types that keep them)."""
        import dataclasses

        given = set(details)
        values = dict(details)
        fields = {f.name for f in dataclasses.fields(cls)} if dataclasses.is_dataclass(cls) else set()
        for key, value in ((cls.headline_field, scores[0]), ("scores", list(scores)), ("signature", signature),
                           ("settings", settings), ("names", list(names)), ("fraction", fraction)):
            if key in fields and key not in given:
                values[key] = value
        return cls(**values)

    def to_dict(self, scale: float = 1.0) -> dict[str, Any]:
        return {"score": scaled_number(self.score, scale), "scores": scaled_number(list(self.scores), scale),
                "signature": str(self.signature), "settings": dict(self.settings)}

    @property
    def name(self) -> str:
        """The metric's name in the signature (``ERRANT``, ``GLEU+``)."""
        return getattr(self.signature, "name", "") or str(self.signature).split("|", 1)[0] or type(self).__name__

    def headline(self) -> str:
        """The scores as one line shows them: ``NAME = 58.33``, or each column by its name."""
        names = list(getattr(self, "names", None) or [])
        scores = [float(s) for s in self.scores]
        if len(scores) == 1:
            title = " ".join([self.name, *names[:1]])
            return f"{title} = {shown_score(scores[0], self.fraction, self.rounds_to)}"
        names = names if len(names) == len(scores) else [str(k) for k in range(len(scores))]
        return self.name + " " + ", ".join(f"{name} = {shown_score(value, self.fraction, self.rounds_to)}"
                                           for name, value in zip(names, scores))

    def __str__(self) -> str:
        return f"{self.headline()} | {self.signature}"

    def __repr__(self) -> str:
        return short_repr(self)


class OneScore(Result):
    """A result with one score column."""

    @property
    def scores(self) -> list[float]:
        return [float(self.score)]


class PRFResult(OneScore):
    """A result whose score is its F (field ``f``), shown with its P and R (fields ``precision``,
    ``recall``): ``M2 F0.5 = 40.12 (P 45.00, R 28.71)``."""

    headline_field = "f"

    @property
    def score(self) -> float:
        return self.f  # type: ignore[attr-defined]

    def f_beta(self) -> Any:
        """The beta of the F shown in the headline (the settings' ``beta``; None: just F)."""
        return self.settings.get("beta") if isinstance(self.settings, dict) else None  # type: ignore[attr-defined]

    def headline(self) -> str:
        beta = self.f_beta()
        title = f"{self.name} F{number_label(beta)}" if isinstance(beta, (int, float)) else f"{self.name} F"
        values = (self.f, self.precision, self.recall)  # type: ignore[attr-defined]
        f, p, r = (shown_score(x, rounds_to=self.rounds_to) for x in values)
        return f"{title} = {f} (P {p}, R {r})"


@dataclass(repr=False)
class ScoreResult(Result):
    """The result the base class derives: one score per column (``score`` is the first), its
    signature and settings, and the metric's :meth:`Metric.details` (readable as attributes);
    ``names``: the columns' names (as the one-line ``str`` shows them), ``fraction``: whether
    the scores are fractions (shown x100) or on a scale of their own (an LLM judge's 1-5)."""

    scores: list[float]
    signature: Signature
    settings: dict = field(default_factory=dict)
    details: dict = field(default_factory=dict)
    names: list = field(default_factory=list)
    fraction: bool = True

    @classmethod
    def from_scores(cls, scores: Sequence[float], signature: Signature, settings: dict, details: dict,
                    names: Sequence[str] = (), fraction: bool = True) -> "ScoreResult":
        return cls(list(scores), signature, settings, dict(details), list(names), fraction)

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


SENTENCES_EACH = ("sentences", "each")
"""The field a signature of sentence scores adds (``GLEU+|...|sentences:each|version:...``; not
``mode``, a key of ERRANT's own signature)."""
SENTENCES_MEAN = ("sentences", "mean")
"""The field a signature of the mean of sentence scores adds."""


def scores_signature(signature: "Signature", sentence: bool = False, mean: bool = False) -> "Signature":
    """The signature of what a command printed: sentence scores (``sentences:each``), their mean
    (``sentences:mean``) or corpus scores (as it is), as --json says it and --signature prints it."""
    return signature.with_fields(SENTENCES_EACH if sentence else SENTENCES_MEAN) if sentence or mean else signature


class SentenceScores:
    """Per-sentence scores of one hypothesis (fractions): shape (D,) for one column, (columns, D)
    for several (a family may keep the axis for one: GREEN's are (betas, D) whatever the number
    of betas, as its corpus scores are per beta; ``len()`` is D either way), with the metric's
    signature (``fraction``: False for scores on a scale of their own). Every metric's sentence
    scores are one (a family's may carry more per sentence).
    ``signature`` is the metric's, as its corpus score has it; what cites these scores says which
    numbers: :meth:`to_dict` ``sentences:each``, :meth:`mean_dict` and ``str()`` (the mean)
    ``sentences:mean``, as the command's ``--sentence`` / ``--mean`` signatures."""

    scores: Any
    signature: Signature
    fraction: bool = True

    def __init__(self, scores: Any, signature: Signature, fraction: bool = True) -> None:
        import numpy as np

        try:
            array = np.asarray(scores)
            ndim = np.asarray(scores, dtype=np.float64).ndim if array.dtype.kind in "iufO" else None
        except (TypeError, ValueError):  # (bools were read as 0 and 1, texts as their numbers)
            ndim = None
        if ndim not in (1, 2) or not isinstance(signature, str) or \
                any(isinstance(value, (bool, np.bool_, str)) for value in np.ravel(array) if array.dtype.kind == "O"):
            raise InputError("sentence scores are numbers, shape (D,) or (columns, D), with the metric's signature; "
                             f"got {kind_of(scores)} and {kind_of(signature)}")
        self.scores, self.signature = scores, signature
        check_flag(fraction, "fraction")
        if not fraction:
            self.fraction = False

    @classmethod
    def joined(cls, parts: Sequence["SentenceScores"]) -> "SentenceScores":
        """The scores of consecutive chunks of sentences as one: sentence scores of one metric's
        run (one signature, one number of columns, one ``fraction``), in order."""
        import numpy as np

        parts = check_joined_parts(parts)
        return cls(np.concatenate([np.asarray(p.scores) for p in parts], axis=-1), parts[0].signature,
                   parts[0].fraction)

    def to_dict(self, scale: float = 1.0) -> dict[str, Any]:
        import numpy as np

        return {"scores": scaled_number(np.asarray(self.scores, dtype=np.float64), scale),
                "signature": str(Signature.with_fields(self.signature, SENTENCES_EACH))}

    def mean_dict(self, scale: float = 1.0) -> dict[str, Any]:
        """The mean of each column's sentence scores (x``scale``; zeros without a sentence); a
        sentence without a score (NaN: an LLM judge's unanswered prompt) is left out, as
        :meth:`__str__` leaves it out, and a column where no sentence has one is None. The
        signature says ``sentences:mean``."""
        import numpy as np

        scores = np.asarray(self.scores, dtype=np.float64)
        rows = scores if scores.ndim == 2 else scores.reshape(1, -1) if scores.ndim == 1 else scores.reshape(1, 1)
        scored = ~np.isnan(rows)
        counts = scored.sum(axis=1)
        means = np.where(scored, rows, 0.0).sum(axis=1) / np.maximum(counts, 1)
        written = scaled_number(means, scale)
        if rows.shape[1]:
            written = [value if count else None for value, count in zip(written, counts)]
        return {"scores": written, "signature": str(Signature.with_fields(self.signature, SENTENCES_MEAN))}

    def __len__(self) -> int:
        import numpy as np

        return int(np.shape(self.scores)[-1])

    def __str__(self) -> str:
        """One line: the number of sentences and the mean of each column's sentence scores (NaN,
        a sentence without a score, left out and counted; ``no mean`` where no sentence has one,
        never ``nan``), then the signature."""
        import numpy as np

        scores = np.asarray(self.scores, dtype=np.float64)
        rows = scores.reshape(-1, scores.shape[-1]) if scores.size else np.zeros((1, 0))
        missing = int(np.isnan(rows[0]).sum())
        if np.isfinite(rows).any():
            mean = "mean " + " / ".join(shown_score(float(np.nanmean(row)), self.fraction) if np.isfinite(row).any()
                                        else "none" for row in rows)
        else:
            mean = "no mean: no sentence has a score"
        name = getattr(self.signature, "name", "") or str(self.signature).split("|", 1)[0]
        unscored = f" ({missing} without a score)" if missing else ""
        signature = Signature.with_fields(self.signature, SENTENCES_MEAN)  # (a mean: not the corpus score's)
        return f"{name} sentence scores: {plural(rows.shape[1], 'sentence')}{unscored}, {mean} | {signature}"

    def __repr__(self) -> str:
        return short_repr(self)


def check_joined_parts(parts: Any) -> list[SentenceScores]:
    """The parts :meth:`SentenceScores.joined` joins, as a list: one or more sentence scores with
    one signature (every chunk of one run has its metric's: the reference count it names is the
    run's), one ``fraction`` and one shape but for the sentences (the last axis). The scores of
    another metric or setting were joined under the first part's signature without a word."""
    import numpy as np
    from ..io.text import check_sequence

    parts = check_sequence(parts, "parts", "sentence scores (SentenceScores) of consecutive chunks")
    if not parts:
        raise InputError("parts must hold at least one SentenceScores (sentence scores of a chunk), got none")
    first = parts[0]
    for index, part in enumerate(parts):
        if not isinstance(part, SentenceScores):
            raise InputError(f"parts[{index}] must be sentence scores (SentenceScores), got {kind_of(part)}")
        if str(part.signature) != str(first.signature):
            ours, theirs = next((a, b) for a, b in zip_longest(str(first.signature).split("|"),
                                                                str(part.signature).split("|")) if a != b)
            raise InputError(f"parts[{index}] has another signature than parts[0] ({theirs!r} where parts[0] has "
                             f"{ours!r}): only sentence scores of one metric with one setting join")
        if part.fraction != first.fraction:
            raise InputError(f"parts[{index}] has fraction={part.fraction} and parts[0] fraction={first.fraction}: "
                             "scores on different scales do not join")
        if np.shape(part.scores)[:-1] != np.shape(first.scores)[:-1]:
            raise InputError(f"parts[{index}] holds scores of shape {np.shape(part.scores)} and parts[0] of shape "
                             f"{np.shape(first.scores)}: only the number of sentences (the last axis) may differ")
    return parts


def shown_score(value: float, fraction: bool = True, rounds_to: int | None = None) -> str:
    """A score as one line shows it: a fraction x100 with two decimals (``32.11``) as every table
    prints it (:class:`~gecmetrics.core.table.ScoreFormat`: half up, or as the metric's tool
    rounds, ``rounds_to``: M2's 0.35625 is 35.63, as the m2scorer's 0.3563), another score as it
    is (a whole number without decimals, else four)."""
    if value != value:  # NaN: no score
        return "nan"
    if fraction:
        return ScoreFormat(rounds_to=rounds_to).cell(value, 2)
    return str(int(value)) if float(value).is_integer() else f"{value:.4f}"


def short_repr(value: Any, depth: int = 0) -> str:
    """A repr that shows arrays by their shape and long lists and dicts by their length (a
    result of a large corpus prints in a few lines, not its thousands of values)."""
    import dataclasses

    if depth == 0 and (dataclasses.is_dataclass(value) or hasattr(value, "__dict__")) and not isinstance(value, type):
        items = [(f.name, getattr(value, f.name)) for f in dataclasses.fields(value)] \
            if dataclasses.is_dataclass(value) else list(vars(value).items())
        return f"{type(value).__name__}(" + ", ".join(f"{key}={short_repr(item, 1)}" for key, item in items
                                                        if not key.startswith("_")) + ")"
    shape = getattr(value, "shape", None)
    if shape is not None and hasattr(value, "dtype") and getattr(value, "ndim", 0) > 0:
        return f"array(shape={tuple(shape)}, dtype={value.dtype})"
    if isinstance(value, str):
        return repr(str(value))
    if isinstance(value, (list, tuple)):
        if len(value) > 8:
            return f"<{type(value).__name__} of {len(value)}>"
        inner = ", ".join(short_repr(item, depth + 1) for item in value)
        return f"[{inner}]" if isinstance(value, list) else f"({inner}{',' if len(value) == 1 else ''})"
    if isinstance(value, dict):
        if len(value) > 8:
            return f"<dict of {len(value)}>"
        return "{" + ", ".join(f"{key!r}: {short_repr(item, depth + 1)}" for key, item in value.items()) + "}"
    text = repr(value)
    return text if len(text) <= 200 else text[:200] + "..."


@dataclass
class CorpusSums:
    """One column's reduction of a corpus (what :meth:`~gecmetrics.metrics.base.Metric.corpus_sums`
    returns when it has more to say than the sums): ``total``, the summed rows the score is
    computed from ((K,), or (N, K) whose N scores are averaged: sampled references); ``chosen``,
    the reference or candidate kept for each sentence on the way (None: no choice); ``extra``,
    anything else the reduction found that the result shows (the metric's
    :meth:`~gecmetrics.metrics.base.Metric.details` reads it)."""

    total: Any
    chosen: Any = None
    extra: dict = field(default_factory=dict)


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
