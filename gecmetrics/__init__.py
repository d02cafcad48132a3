"""gecmetrics: exact, fast scorers for grammatical error correction.

>>> from gecmetrics import GLEU, GREEN
>>> GLEU(fix_seed=True).corpus_score(sources, [references], hypothesis).score
"""
from __future__ import annotations

__version__ = "0.1.0"

from .errors import InputError
from .corpus import Corpus, read_corpus, read_lines
from .ngrams import EncodedCorpus
from .metrics import GLEU, GREEN, GLEUResult, GLEUSentenceScores, GREENResult, GREENSentenceScores
from .significance import paired_test

__all__ = [
    "__version__", "InputError", "Corpus", "read_corpus", "read_lines", "EncodedCorpus",
    "GLEU", "GLEUResult", "GLEUSentenceScores", "GREEN", "GREENResult", "GREENSentenceScores",
]
from .compare import ComparisonTable, compare
from .registry import get_metric, list_metrics

__all__ += ["compare", "ComparisonTable", "get_metric", "list_metrics"]
