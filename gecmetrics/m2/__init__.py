"""The M2 branch: M2 reader/writer, references from M2, ERRANT-style edit comparison, MaxMatch.

Names are imported on first use, so that a module of this package (such as the F-score rules
of :mod:`gecmetrics.m2.fscore`, which the significance tests use) does not pull in the others.
"""
from __future__ import annotations

from .._lazy import lazy_names

_LAZY = {
    "Block": "format", "Edit": "format", "format_m2": "format", "parse_m2": "format", "parse_m2_lines": "format",
    "read_m2": "format", "write_m2": "format",
    "ErrantCompare": "errant", "ErrantResult": "errant", "choose_pairs": "errant", "compare_m2_files": "errant",
    "format_errant_report": "errant",
    "M2References": "references", "apply_edits": "references", "m2_references": "references",
    "write_references": "references",
    "M2Result": "maxmatch", "M2Scorer": "maxmatch",
}

__all__ = list(_LAZY)


__getattr__, __dir__ = lazy_names(__name__, _LAZY)
