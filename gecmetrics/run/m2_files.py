"""One call that scores an M2 file against a reference M2 file, as the originals' scripts do
(ERRANT's ``compare_m2``, ChERRANT's ``compare_m2_for_evaluation``, CLEME's): the files are read
by :mod:`gecmetrics.io` here (CLEME's through the engine), the metric receives their blocks (no
metric opens a file).

The functions here are named after their metric and score with it by default, like a metric's
own command: they are the run layer's only module that names metrics
(``tests/test_generic_modules.py`` lists it with the metrics' commands).
"""
from __future__ import annotations

from typing import Any

from ..errors import InputError
from ..io.m2 import read_cherrant_m2, read_m2
from ..metrics.base import Metric
from ..metrics.results import Result
from .engine import score_files
from .files import CorpusFiles


def score_m2_files(metric: Metric, hypothesis_path: str, reference_path: str) -> Result:
    """The result of ``metric`` (one that reads hypothesis M2 against the gold M2) for one
    hypothesis M2 file against a reference M2 file."""
    if not isinstance(metric, Metric):
        raise InputError(f"not a metric: {metric!r}")
    files = CorpusFiles(gold=reference_path, hypotheses=(hypothesis_path,), m2_hypotheses=True)
    return score_files([metric], files).issued().result(files.hypothesis_names[0], 0)


def compare_m2_files(hyp_path: str, ref_path: str, comparer: Any = None) -> Result:
    """ERRANT's ``compare_m2`` of two M2 files (``comparer``: an
    :class:`~gecmetrics.metrics.m2.compare.ErrantCompare`, default settings if None): an
    ``ErrantResult`` with the categories (and the traces, with ``verbose``)."""
    from ..metrics.m2.compare import ErrantCompare

    comparer = ErrantCompare() if comparer is None else comparer
    return comparer.compare(read_m2(hyp_path), read_m2(ref_path), hyp_path, ref_path)


def compare_cherrant_files(hyp_path: str, ref_path: str, comparer: Any = None, start: int | None = None,
                           end: int | None = None) -> Result:
    """ChERRANT's ``compare_m2_for_evaluation`` of two of its M2 files (``comparer``: a
    :class:`~gecmetrics.metrics.m2.cherrant.CherrantCompare`, default settings if None);
    ``start`` and ``end`` (both or neither, as in ChERRANT) select the blocks [start:end] of both."""
    from ..metrics.m2.cherrant import CherrantCompare, compare_cherrant_blocks

    comparer = CherrantCompare() if comparer is None else comparer
    return compare_cherrant_blocks(read_cherrant_m2(hyp_path), read_cherrant_m2(ref_path), comparer, start, end,
                                   hyp_path, ref_path)


def cleme_files(hypothesis_path: str, reference_path: str, metric: Any = None) -> Result:
    """CLEME (or ``metric``, e.g. a CLEME2) of one hypothesis M2 file against a reference M2
    file: a :class:`~gecmetrics.metrics.cleme.CLEMEResult` (``CLEME2Result``)."""
    from ..metrics.cleme import CLEME

    return score_m2_files(CLEME() if metric is None else metric, hypothesis_path, reference_path)
