"""What a metric returns: :class:`Signature` (a one-line string of everything that changes a
number), :class:`Result` and the base class's :class:`ScoreResult`, :class:`SentenceScores`,
and :class:`Column` (one score column of a table)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, NamedTuple, Sequence

from ..version import __version__


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
