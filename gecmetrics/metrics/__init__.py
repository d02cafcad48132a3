"""The metric families, one folder each, on one protocol (:mod:`.base`, with :mod:`.settings`
and :mod:`.results`), known by name through :mod:`.registry`. Classes are imported on first use."""
from __future__ import annotations

from .._lazy import lazy_names

_LAZY = {"GLEU": "gleu.gleu", "GLEUResult": "gleu.gleu", "GLEUSentenceScores": "gleu.gleu",
         "GLEU2015": "gleu.gleu2015", "GREEN": "green.green", "GREENResult": "green.green",
         "GREENSentenceScores": "green.green"}
__all__ = list(_LAZY)


__getattr__, __dir__ = lazy_names(__name__, _LAZY)
