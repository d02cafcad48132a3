"""gecmetrics: exact, fast scorers for grammatical error correction.

>>> from gecmetrics import get_metric
>>> get_metric("gleu").corpus_score(sources, references, hypothesis).score

Every registered metric has the same two calls: ``corpus_score(sources, references,
hypothesis) -> Result`` and ``sentence_scores(...) -> SentenceScores``.

Everything that needs NumPy is imported on first use, so that a command pays only for
what it runs (and ``gecmetric --version`` for nothing).
"""
from __future__ import annotations

from ._lazy import lazy_names

from .version import __version__

from .errors import InputError, InputNote

# (the console script imports this package first: what it holds is loaded before the command
# takes over Ctrl-C, see gecmetrics.cli.run)
_LAZY = {
    "Corpus": "io.corpus", "read_corpus": "io.corpus", "read_lines": "io.text",
    "Metric": "metrics.base", "Settings": "metrics.settings", "Signature": "metrics.results",
    "Result": "metrics.results", "SentenceScores": "metrics.results", "Column": "metrics.results",
    "setting": "metrics.settings",
    "EncodedCorpus": "core.ngrams",
    "GLEU": "metrics.gleu.gleu", "GLEUResult": "metrics.gleu.gleu", "GLEUSentenceScores": "metrics.gleu.gleu",
    "GLEU2015": "metrics.gleu.gleu2015",
    "GREEN": "metrics.green.green", "GREENResult": "metrics.green.green",
    "GREENSentenceScores": "metrics.green.green",
    "score_corpus": "run.engine", "score_files": "run.engine", "CorpusFiles": "run.files", "Scored": "run.engine",
    "compare": "output.tables", "ComparisonTable": "output.tables",
    "get_metric": "metrics.registry", "list_metrics": "metrics.registry", "register_metric": "metrics.registry",
    "unregister_metric": "metrics.registry",
    "register_language": "core.lang", "unregister_language": "core.lang", "EditLanguage": "core.lang.base",
    "paired_test": "run.compare", "PairedTestResult": "stats.significance",
    "paired_test_from_statistics": "stats.significance",
    "AllPairsResult": "stats.multiple", "all_pairs_test": "stats.multiple",
    "meta_evaluate": "meta.system_level", "MetaEvalResult": "meta.system_level",
    "SystemCorrelation": "meta.system_level", "correlate_with_judgments": "meta.system_level",
    "compare_metrics": "meta.system_level", "CorrelationComparison": "meta.system_level",
    "load_human": "meta.human_tables", "HumanTable": "meta.human_tables",
    "read_system_scores": "meta.score_files",
    "pearson": "meta.correlations", "spearman": "meta.correlations", "kendall": "meta.correlations",
    "williams_test": "meta.correlations",
    "read_judgments": "io.judgments", "Judgments": "io.judgments",
    "human_ranking": "stats.rankings", "expected_wins": "stats.rankings", "trueskill_scores": "stats.rankings",
    "HumanRanking": "stats.rankings",
    "rank_by_sentence_scores": "stats.sentence_rankings",
    "meta_evaluate_judgments": "meta.evaluate", "JudgmentOptions": "meta.evaluate",
    "JudgmentMetaEvaluation": "meta.evaluate",
    "sentence_agreement": "meta.sentence", "SentenceAgreement": "meta.sentence",
    "pairwise_analysis": "meta.pairwise", "PairwiseAnalysis": "meta.pairwise",
    "window_analysis": "meta.windows", "WindowAnalysis": "meta.windows",
    "plot_meta_evaluation": "output.plots",
    "read_m2": "io.m2", "write_m2": "io.m2", "m2_references": "io.m2_references",
    "M2Scorer": "metrics.m2.maxmatch", "M2Result": "metrics.m2.maxmatch",
    "ErrantCompare": "metrics.m2.compare", "ErrantResult": "metrics.edit_comparison",
    "CLEME": "metrics.cleme", "CLEME2": "metrics.cleme", "CLEMEResult": "metrics.cleme",
    "CLEME2Result": "metrics.cleme",
    "SOME": "metrics.models.metric", "IMPARA": "metrics.models.metric", "Scribendi": "metrics.models.metric",
    "BERTScore": "metrics.models.metric", "BERTScoreResult": "metrics.models.metric",
}

__all__ = ["__version__", "InputError", "InputNote", *_LAZY]


__getattr__, __dir__ = lazy_names(__name__, _LAZY)
