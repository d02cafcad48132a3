"""What every n-gram metric has: settings, statistics from the shared core, a signature."""
from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Sequence

import numpy as np

from .. import __version__
from ..errors import InputError
from ..corpus import Corpus
from ..ngrams import EncodedCorpus
from ..units import check_unit


def check_order(n: int) -> int:
    if not isinstance(n, (int, np.integer)) or isinstance(n, bool) or n < 1:
        raise InputError(f"n-gram order must be an integer >= 1, got {n!r}")
    return int(n)


class NgramMetric(ABC):
    """A metric computed from (sigma, rho, eta) n-gram counts of the shared core.

    Subclasses turn the triples of one hypothesis into a statistics array of shape (D, R, K)
    (:meth:`statistics`) and reduce such arrays to scores.
    """

    name: str = ""

    def __init__(self, n: int = 4, unit: str = "word", normalize_space: bool = False) -> None:
        self.n = check_order(n)
        self.unit = check_unit(unit)
        self.normalize_space = bool(normalize_space)

    @property
    def encoding(self) -> tuple[str, bool]:
        """Metrics with the same encoding can share one :class:`EncodedCorpus`."""
        return (self.unit, self.normalize_space and self.unit == "char")

    def encode(self, sources: Sequence[str], references: Sequence[Sequence[str]]) -> EncodedCorpus:
        """Encode a source and its references (validated as a :class:`Corpus`)."""
        corpus = Corpus(sources, references)
        unit, normalize = self.encoding
        return EncodedCorpus(corpus.sources, corpus.references, self.n, unit, normalize)

    def _encoded(self, sources, references, encoded: EncodedCorpus | None) -> EncodedCorpus:
        if encoded is None:
            return self.encode(sources, references)
        if encoded.max_order < self.n or (encoded.encoder.unit, encoded.encoder.normalize_space) != self.encoding:
            raise ValueError("the encoded corpus does not fit this metric's unit or order")
        return encoded

    def _check_hypothesis(self, hypothesis: Sequence[str], encoded: EncodedCorpus) -> None:
        if len(hypothesis) != encoded.size:
            raise InputError(f"the hypothesis has {len(hypothesis)} sentences but the source has {encoded.size}")

    @abstractmethod
    def statistics(self, encoded: EncodedCorpus, hypothesis: Sequence[str]) -> np.ndarray:
        """Per-sentence, per-reference integer statistics, shape (D, R, K)."""

    def _signature_parts(self) -> list[str]:
        parts = [f"n:{self.n}", f"unit:{self.unit}"]
        if self.encoding[1]:  # normalize_space counts for char units only
            parts.append("space:normalized")
        return parts

    @staticmethod
    def _join_signature(parts: list[str]) -> str:
        return "|".join(parts + [f"version:{__version__}"])
