"""The M2 branch: M2 reader/writer, references from M2, ERRANT-style edit comparison, MaxMatch."""
from __future__ import annotations

from .format import Block, Edit, format_m2, parse_m2, parse_m2_lines, read_m2, write_m2
from .errant import ErrantCompare, ErrantResult, choose_pairs, compare_m2_files, format_errant_report
from .references import M2References, apply_edits, m2_references, write_references
from .maxmatch import M2Result, M2Scorer

__all__ = ["Block", "Edit", "format_m2", "parse_m2", "parse_m2_lines", "read_m2", "write_m2",
           "ErrantCompare", "ErrantResult", "choose_pairs", "compare_m2_files", "format_errant_report",
           "M2References", "apply_edits", "m2_references", "write_references",
           "M2Result", "M2Scorer"]
