"""gecmetrics: exact, fast scorers for grammatical error correction.

>>> from gecmetrics import GLEU, GREEN
>>> GLEU(fix_seed=True).corpus_score(sources, references, hypothesis).score

The n-gram metrics are imported with the package; the rest (M2, compare, significance,
meta-evaluation) on first use, so that a command pays only for what it runs.
"""
from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

from .errors import InputError
from .corpus import Corpus, read_corpus, read_lines
from .ngrams import EncodedCorpus
from .metrics import GLEU, GREEN, GLEUResult, GLEUSentenceScores, GREENResult, GREENSentenceScores

_LAZY = {
    "compare": "compare", "ComparisonTable": "compare",
    "get_metric": "registry", "list_metrics": "registry",
    "paired_test": "significance",
    "meta_evaluate": "meta_eval", "load_human": "meta_eval", "pearson": "meta_eval", "spearman": "meta_eval",
    "read_m2": "m2", "write_m2": "m2", "m2_references": "m2", "M2Scorer": "m2", "M2Result": "m2",
    "ErrantCompare": "m2", "ErrantResult": "m2",
}

__all__ = [
    "__version__", "InputError", "Corpus", "read_corpus", "read_lines", "EncodedCorpus",
    "GLEU", "GLEUResult", "GLEUSentenceScores", "GREEN", "GREENResult", "GREENSentenceScores",
    *_LAZY,
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'gecmetrics' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
