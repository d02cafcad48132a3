"""One call that scores an M2 file against a reference M2 file, as the originals' scripts do
(CLEME's), through the engine: the files are read by :mod:`gecmetrics.io` in the run, the
metric receives their blocks (no metric opens a file).

The functions here are named after their metric and score with it by default, like a metric's
own command: they are the run layer's only module that names metrics
(``tests/test_generic_modules.py`` lists it with the metrics' commands).
"""
from __future__ import annotations

from typing import Any

from ..errors import InputError
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
    return score_files([metric], files).result(files.hypothesis_names[0], 0)


def cleme_files(hypothesis_path: str, reference_path: str, metric: Any = None) -> Result:
    """CLEME (or ``metric``, e.g. a CLEME2) of one hypothesis M2 file against a reference M2
    file: a :class:`~gecmetrics.metrics.cleme.CLEMEResult` (``CLEME2Result``)."""
    from ..metrics.cleme import CLEME

    return score_m2_files(CLEME() if metric is None else metric, hypothesis_path, reference_path)
