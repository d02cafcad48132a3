"""gecmetrics: exact, fast scorers for grammatical error correction.

>>> from gecmetrics import GLEU, GREEN
>>> GLEU().corpus_score(sources, references, hypothesis).score

Everything that needs NumPy is imported on first use, so that a command pays only for
what it runs (and ``gecmetric --version`` for nothing).
"""
from __future__ import annotations

from ._lazy import lazy_names

__version__ = "0.1.0"

from .errors import InputError
from .corpus import Corpus, read_corpus, read_lines
_LAZY = {
    "Metric": "metric", "Settings": "metric", "Signature": "metric", "Result": "metric", "Column": "metric",
    "setting": "metric",
    "EncodedCorpus": "ngrams",
    "GLEU": "metrics", "GLEUResult": "metrics", "GLEUSentenceScores": "metrics", "GLEU2015": "metrics",
    "GREEN": "metrics", "GREENResult": "metrics", "GREENSentenceScores": "metrics",
    "score_corpus": "pipeline", "Scored": "pipeline",
    "compare": "comparison", "ComparisonTable": "comparison",
    "get_metric": "registry", "list_metrics": "registry", "register_metric": "registry",
    "unregister_metric": "registry",
    "paired_test": "significance", "PairedTestResult": "significance", "paired_test_from_statistics": "significance",
    "meta_evaluate": "meta_eval", "load_human": "meta_eval", "pearson": "meta_eval", "spearman": "meta_eval",
    "MetaEvalResult": "meta_eval", "HumanTable": "meta_eval",
    "read_judgments": "meta.judgments", "Judgments": "meta.judgments",
    "human_ranking": "meta.rankings", "expected_wins": "meta.rankings", "trueskill_scores": "meta.rankings",
    "HumanRanking": "meta.rankings",
    "meta_evaluate_judgments": "meta.evaluate", "JudgmentOptions": "meta.evaluate",
    "JudgmentMetaEvaluation": "meta.evaluate",
    "correlate_with_judgments": "meta.correlation", "compare_metrics": "meta.correlation",
    "williams_test": "meta.correlation", "kendall": "meta.correlation", "SystemCorrelation": "meta.correlation",
    "CorrelationComparison": "meta.correlation",
    "sentence_agreement": "meta.sentence", "SentenceAgreement": "meta.sentence",
    "window_analysis": "meta.windows", "WindowAnalysis": "meta.windows",
    "plot_meta_evaluation": "meta.plot",
    "read_m2": "m2", "write_m2": "m2", "m2_references": "m2", "M2Scorer": "m2", "M2Result": "m2",
    "ErrantCompare": "m2", "ErrantResult": "m2",
}

__all__ = ["__version__", "InputError", "Corpus", "read_corpus", "read_lines", *_LAZY]


__getattr__, __dir__ = lazy_names(__name__, _LAZY)
