"""ERRANT's ``compare_m2`` of a hypothesis M2 with a reference M2 (SPEC 4.3), named ``errant-m2``
(the command ``gecmetric m2 compare``; not a registered name) and registered as ``senterrant``
with ``sentence_average``, the name messages then call it by.

The rules are :mod:`gecmetrics.core.edits.compare`'s, the metric base (settings, running-F
choice, result) :mod:`gecmetrics.metrics.edit_comparison`'s; their names stay importable from here.
"""
from __future__ import annotations

from ...core.edits.compare import (MODE_TITLES, MODES, UNKNOWN_TYPE, CategoryCounts, EditTable,  # noqa: F401
                                   ErrantStatistics, SentenceTrace, choose_pairs, compare_tables, errant_scores,
                                   pair_code, pair_of, parse_filter_types, rounded_scores)
from ..edit_comparison import EditComparisonMetric, ErrantResult, ErrantSettings  # noqa: F401


class ErrantCompare(EditComparisonMetric):
    """ERRANT ``compare_m2`` as a library object.

    mode: 'cs' (span correction, default), 'cse' (+ error type), 'ds' (span detection),
    'dt' (token detection). single / multi keep only single-token / multi-token edits;
    filter_types drops those error types; verbose keeps the per-sentence traces.
    Hypotheses are M2 blocks; the corpus's gold blocks are the reference.
    """

    name = "errant-m2"

