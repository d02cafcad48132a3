"""CLEME's length weighting of chunks (Ye et al., EMNLP 2023, section 3.3).

A chunk of length L (the longer of its source and its hypothesis token counts) weighs
``alpha / (1 + (alpha - 1) * exp(b - L))`` when it is a TP, FN or TN, and
``alpha / (1 + (alpha - 1) * exp(L - b))`` when it is a FP (longer false corrections count
less), clipped to [min, max]. The bias b is the mean length (the longer of source and reference
token counts) of the reference chunks that the references correct, over the whole corpus.

The defaults are those THUKElab/CLEME (commit e90abea) runs with: alpha 2, clipped to
[0.75, 1.25] for TP, FP and FN chunks; TN chunks weigh 1 (alpha 2, min = max = 1).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ...errors import InputError


@dataclass(frozen=True)
class ClippedLogistic:
    """One chunk category's weight curve: scale alpha, clipped to [minimum, maximum]."""

    alpha: float = 2.0
    minimum: float = 0.75
    maximum: float = 1.25

    def __post_init__(self) -> None:
        for name in ("alpha", "minimum", "maximum"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise InputError(f"length weight {name} must be a finite number, not {value!r}")
        if self.alpha <= 0:
            raise InputError(f"length weight alpha must be positive, not {self.alpha}")
        if self.minimum <= 0:
            # a weight of 0 or below drops or subtracts chunks: F0.5 212.65 with P 296.02, or a false 100
            raise InputError(f"length weight minimum must be positive (weights scale chunk counts), not {self.minimum}")
        if self.minimum > self.maximum:
            raise InputError(f"length weight minimum {self.minimum} is above its maximum {self.maximum}")

    def weights(self, lengths: np.ndarray, bias: float, reverse: bool) -> np.ndarray:
        """Weight of each chunk length (CLEME's formula, evaluated in its order of operations).
        The exponential overflows past an exponent of about 709.8 (a chunk some 710 tokens
        longer than the bias: NumPy's warning reached the command line): inf there, whose weight
        is the formula's limit (0, or -0 for alpha below 1, then clipped), so the overflow is
        expected, not reported; with alpha 1 the curve is flat (alpha / (1 + 0)), where 0 x inf
        made nan."""
        exponent = lengths - bias if reverse else bias - lengths
        with np.errstate(over="ignore"):
            grown = np.exp(exponent)
            scaled = (self.alpha - 1) * grown if self.alpha != 1 else np.zeros_like(grown)
        raw = self.alpha * (1 / (1 + scaled))
        return np.clip(raw, self.minimum, self.maximum)


@dataclass(frozen=True)
class LengthWeighting:
    """The weight curves of TP, FP, FN and TN chunks."""

    tp: ClippedLogistic = ClippedLogistic()
    fp: ClippedLogistic = ClippedLogistic()
    fn: ClippedLogistic = ClippedLogistic()
    tn: ClippedLogistic = ClippedLogistic(2.0, 1.0, 1.0)

    def category_weights(self, max_length: int, bias: float) -> np.ndarray:
        """Weights of lengths 0..max_length per chunk category, rows in the order of
        :data:`gecmetrics.metrics.cleme.statistics.CATEGORIES` (TP, FP necessary, FP unnecessary, FN, TN)."""
        lengths = np.arange(max_length + 1, dtype=np.float64)
        fp = self.fp.weights(lengths, bias, reverse=True)
        return np.stack([self.tp.weights(lengths, bias, reverse=False), fp, fp,
                         self.fn.weights(lengths, bias, reverse=False),
                         self.tn.weights(lengths, bias, reverse=False)])

    def to_dict(self) -> dict:
        return {name: [curve.alpha, curve.minimum, curve.maximum]
                for name, curve in (("tp", self.tp), ("fp", self.fp), ("fn", self.fn), ("tn", self.tn))}


DEFAULT_WEIGHTING = LengthWeighting()
"""The weighting the official code runs with, at both levels and under both assumptions."""


def default_weighting(level: str, assumption: str) -> LengthWeighting:
    """The official default weighting. main.py declares other curves for sentence level (alpha 10,
    TP clipped to [1, 10] or [2.5, 10], FP to [0.25, 1], FN to [1, 1]), but its LengthWeigher
    drops its constructor's arguments (``__init__`` calls ``super().__init__()`` without them),
    so every level and assumption runs with the class defaults; those are reproduced here."""
    return DEFAULT_WEIGHTING
