"""Metrics: reducers from the core's n-gram statistics to scores (imported on first use)."""
from __future__ import annotations

from .._lazy import lazy_names

_LAZY = {"GLEU": "gleu", "GLEUResult": "gleu", "GLEUSentenceScores": "gleu", "GLEU2015": "gleu2015",
         "GREEN": "green", "GREENResult": "green", "GREENSentenceScores": "green"}
__all__ = list(_LAZY)


__getattr__, __dir__ = lazy_names(__name__, _LAZY)
