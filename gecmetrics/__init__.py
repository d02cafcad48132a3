"""gecmetrics: exact, fast scorers for grammatical error correction.

>>> from gecmetrics import GLEU, GREEN
>>> GLEU(fix_seed=True).corpus_score(sources, references, hypothesis).score

Everything that needs NumPy is imported on first use, so that a command pays only for
what it runs (and ``gecmetric --version`` for nothing).
"""
from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

from .errors import InputError
from .corpus import Corpus, read_corpus, read_lines
_LAZY = {
    "EncodedCorpus": "ngrams",
    "GLEU": "metrics", "GLEUResult": "metrics", "GLEUSentenceScores": "metrics",
    "GREEN": "metrics", "GREENResult": "metrics", "GREENSentenceScores": "metrics",
    "compare": "comparison", "ComparisonTable": "comparison",
    "get_metric": "registry", "list_metrics": "registry",
    "paired_test": "significance",
    "meta_evaluate": "meta_eval", "load_human": "meta_eval", "pearson": "meta_eval", "spearman": "meta_eval",
    "read_m2": "m2", "write_m2": "m2", "m2_references": "m2", "M2Scorer": "m2", "M2Result": "m2",
    "ErrantCompare": "m2", "ErrantResult": "m2",
}

__all__ = ["__version__", "InputError", "Corpus", "read_corpus", "read_lines", *_LAZY]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'gecmetrics' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
