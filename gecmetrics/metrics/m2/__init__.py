"""The M2 family: ERRANT-style edit comparison of M2 files, the MaxMatch (M2) scorer and their
sentence averages, all reducing per-annotator counts by the running-F choice.

Names are imported on first use, so that a module of this package does not pull in the others.
"""
from __future__ import annotations

from ..._lazy import lazy_names

_LAZY = {
    "ErrantCompare": "compare", "ErrantResult": "compare", "choose_pairs": "compare",
    "format_errant_report": "errant_report",
    "M2Result": "maxmatch", "M2Scorer": "maxmatch",
}

__all__ = list(_LAZY)


__getattr__, __dir__ = lazy_names(__name__, _LAZY)
