"""Meta-evaluation: how well metric scores agree with human judgments of the same outputs.

The human side is a table of system scores (:mod:`.human_tables`: the shipped GJG15 and SEEDA,
or a user's TSV) or raw judgments (Appraise ranking XML, :mod:`gecmetrics.io.judgments`, ranked
by :mod:`gecmetrics.stats.rankings`); the metric side is precomputed scores or any registered
metrics scored on the system outputs (:mod:`.metric_scores`). Modules:

* ``correlations``: Pearson, Spearman, Kendall (one implementation, for rows and pairs), Williams' test
* ``score_files``: the TSV format of human tables and score files; ``read_system_scores``
* ``human_tables``: ``HumanTable``, ``load_human``
* ``metric_scores``: the metric side (scores, orientation, sentence scores, rankings from them)
* ``systems``: which systems are correlated (subsets, systems without outputs, too few systems)
* ``system_level``: ``meta_evaluate`` (human tables), ``correlate_with_judgments``, ``compare_metrics``
* ``resampling``: bootstrap resamples of judgments or sentences, percentile intervals
* ``evaluate``: ``meta_evaluate_judgments``, everything against raw judgments in one call
* ``sentence``, ``pairwise``, ``windows``: SEEDA's sentence level, gec-metrics' pairwise
  analysis, SEEDA's window analysis
* ``report``: the results as tables (figures: :mod:`gecmetrics.output.plots`)
"""
