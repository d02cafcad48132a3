"""The data behind the HTML report: one dict (JSON-ready) assembled from one engine run.

Nothing here computes a metric, nor names one: scores, ranks, intervals and p-values come
from the run (:func:`~gecmetrics.run.engine.score_corpus`) and the paired tests
(:func:`~gecmetrics.stats.multiple.all_pairs_test`, one per score column); edits marked TP / FP / FN
and the per-type counts from the metric that marks edits
(:meth:`~gecmetrics.metrics.base.Metric.edit_marks`: ERRANT's comparison); difficulty from the
metric that weighs gold edits (:meth:`~gecmetrics.metrics.base.Metric.gold_edit_weights`:
GoToScorer's); both, and the default metrics, from the registry's one default list
(:data:`gecmetrics.metrics.registry.DEFAULT_METRICS`); attribution from
:mod:`gecmetrics.stats.attribution`; correlations from
:func:`~gecmetrics.meta.system_level.meta_evaluate`. The page (:mod:`.html`) only shows this dict.

System outputs are not stored as text: each is its source with its ERRANT edits applied (the
page applies them to show them inline). Sentence-level numbers are rounded to 6 decimals (not
where that makes a tie the page would round otherwise than the commands: :func:`_round`).
"""
from __future__ import annotations

import dataclasses
import functools
import math
import os
from typing import Any, Sequence

import numpy as np

from ...core import fscore
from ...core.backend import release_freed_memory
from ...errors import InputError, kind_of
from ...io.corpus import Corpus, read_corpus
from ...io.text import check_sequence
from ...kinds import M2
from ...metrics.base import Metric
from ...metrics.capabilities import GoldEditWeights
from ...metrics.registry import REPORT, default_metric_texts, default_metrics, needs_gold_m2, resolve_metrics
from ...run.compare import check_columns, comparison_table
from ...run.engine import ProgressCallback, Scored, run_context_of, score_corpus
from ...run.executors import make_executor
from ...stats.attribution import (DEFAULT_MAX_EXACT_EDITS, METHODS, check_attribution_options, method_name,
                                 refuse_idle_options)
from ...core.checks import check_count, check_seed
from ...core.lines import LONE_SURROGATE
from ...core.table import scale_factor
from ...stats.multiple import AllPairsResult, all_pairs_from_draws, check_all_pairs, check_correction
from ...stats.significance import (SIGNIFICANCE_LEVEL, Drawn, PairedTestResult,
                                   check_samples, drawn_columns, paired_signature, paired_test_from_draws,
                                   untestable)
from ...version import __version__
from .attribution import (attribution_parts, column_attribution_signature, edit_annotator, hypothesis_edits,
                          systems_without_edits)

FORMAT = "gecmetrics-report"
FORMAT_VERSION = 1
DEFAULT_TITLE = "GEC evaluation report"
DEFAULT_METRICS = default_metric_texts()
"""The default metrics of ``compare`` (:data:`gecmetrics.metrics.registry.DEFAULT_METRICS`); the
report's defaults add M2 F0.5 with a gold M2, GoToScorer F0.5 and ERRANT F0.5."""
DEFAULT_SAMPLES = 1000
"""Paired bootstrap resamples behind the summary's intervals and p-values."""
DEFAULT_PERMUTATIONS = 20
"""Sampled Shapley's permutations in the report (the page shows every sentence)."""
OVER_BOUND = "sample"
"""Exact Shapley above ``max_exact_edits``: sampled Shapley in its place (the page says which sentences)."""
CATEGORY_LEVELS = (1, 2, 3)
DIGITS = 6
"""Decimals of the sentence-level numbers in the data (the page's size); the page prints 4 at most."""


def _round(value: Any) -> Any:
    """A sentence-level number to :data:`DIGITS` decimals, unless that makes a tie at the
    decimals the page prints where the value was none (0.1234499999 -> 0.12345): the page would
    then round it otherwise than the commands do (12.35 for their 12.34); such a value is kept
    whole."""
    value = float(value)
    if not math.isfinite(value):
        return None
    rounded = round(value, DIGITS)
    if rounded != value and _made_tie(rounded):
        return value
    return rounded


def _made_tie(rounded: float) -> bool:
    """Whether a number of :data:`DIGITS` decimals is a tie at fewer than that: its last
    non-zero decimal, before the last place, a 5."""
    scaled = rounded * 10 ** (DIGITS - 1)
    if abs(scaled - round(scaled)) > 1e-6:  # a non-zero last decimal: no tie the page prints
        return False
    decimals = f"{abs(rounded):.{DIGITS}f}".split(".")[1].rstrip("0")
    return decimals.endswith("5")


def _rounded(values: Any) -> list:
    return [_round(v) for v in np.asarray(values, dtype=np.float64).ravel()]


def _check_shown_name(path: Any) -> None:
    """A path the page can show: its name as UTF-8 text (InputError naming it otherwise)."""
    if isinstance(path, str) and LONE_SURROGATE.search(path):
        raise InputError("the file's name is not UTF-8 text (a byte the page and the JSON cannot show): rename it",
                         path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace"))


def system_names(paths: Sequence[str]) -> list[str]:
    """Short names of system files: their base names, or the paths where two share one."""
    bases = [os.path.basename(os.path.normpath(path)) or path for path in paths]
    return bases if len(set(bases)) == len(bases) and len(set(paths)) == len(paths) else list(paths)


def read_report_corpus(source: str, references: Sequence[str], hypotheses: Sequence[str], gold: str | None = None,
                       hypothesis_m2: Sequence[str] = ()) -> Corpus:
    """The files of a report, checked once, the systems named by :func:`system_names`. A file
    name that is not UTF-8 text (a byte Python holds as a lone surrogate) is refused before
    anything is read: the page and the JSON show the names (it was refused after the scoring,
    naming no file)."""
    for path in (source, *references, *hypotheses, gold, *hypothesis_m2):
        _check_shown_name(path)
    corpus = read_corpus(source, references, hypotheses, gold, hypothesis_m2)
    names = dict(zip(hypotheses, system_names(list(hypotheses))))
    return Corpus(corpus.sources, corpus.references, {names[p]: corpus.hypotheses[p] for p in hypotheses},
                  corpus.gold, corpus.names, hypothesis_m2={names[p]: m2 for p, m2 in corpus.hypothesis_m2.items()})


# ----------------------------------------------------------------------------- preparing


def _annotated(corpus: Corpus, spacy_model: str | None, annotator: Any, context: Any,
               attributed: Sequence[tuple[Metric, int]] = ()) -> tuple[Corpus, dict[str, Any], Any]:
    """The corpus with every system's ERRANT edits (given, or annotated in the run's
    ``context``) and a reference M2 (the gold, or the references annotated); what was
    annotated (the annotator's settings and versions, and what it annotated: ``systems``,
    ``references``, the ``candidates`` of an ``attributed`` metric that reads hypothesis M2), and
    the annotator (made where any of them needs it)."""
    systems = list(corpus.hypotheses)
    missing = systems_without_edits(corpus)
    info: dict[str, Any] = {"hypotheses": "annotated" if missing else "given",
                            "references": "gold M2" if corpus.gold is not None else "annotated"}
    candidates = any(metric.hypothesis_kind == M2 for metric, _ in attributed)
    annotated = [what for what, done in (("systems", missing), ("references", corpus.gold is None),
                                         ("candidates", candidates)) if done]
    if annotated and annotator is None:
        annotator = edit_annotator(spacy_model, context)
    sets = [[corpus.hypotheses[name]] for name in missing]
    if corpus.gold is None:
        sets.append(list(corpus.references))
    if annotated:
        info["annotator"] = {"merge": annotator.merge, **annotator.versions(), "annotated": annotated}
    if not sets and list(corpus.hypothesis_m2) == systems and corpus.offset == 0 and corpus.rows is None:
        return corpus, info, annotator  # every M2 given: the corpus as it is (checked once); else a whole corpus
    blocks = annotator.annotate_sets(corpus.sources, sets, keep_empty=True) if sets else []
    gold = blocks.pop() if corpus.gold is None else corpus.gold
    m2 = dict(corpus.hypothesis_m2)
    m2.update(zip(missing, blocks))
    return Corpus(corpus.sources, corpus.references, dict(corpus.hypotheses), gold, corpus.names,
                  hypothesis_m2={name: m2[name] for name in systems}), info, annotator


def default_columns(defaults: list[Metric], systems: int, used: bool = True) -> tuple[list[Metric], list[str]]:
    """The report's default metrics that are its columns for that many ``systems``, and a note
    for each left out (none when not ``used``: metrics were given): a metric that weighs the gold
    edits by the systems' outputs (GoToScorer) gives one system's every chunk the weight 0, a
    column of 0.00 whatever the system, so a report of one system leaves it out (its difficulty
    views stay)."""
    if systems > 1 or not used:
        return defaults, []
    return [metric for metric in defaults if not metric.weighs_gold_edits], [
        f"gecmetric: note: {metric.label} is left out of the report of one system: its weights come from the "
        "systems' outputs, and one system's give every chunk it gets right the weight 0, so it would score 0 "
        f"whatever the system (name {metric.name} in --metrics to have it anyway)"
        for metric in defaults if metric.weighs_gold_edits]


def report_metrics(metrics: Sequence[Any] | str | None, defaults: list[Metric],
                   systems: int = 2) -> tuple[list[Metric], int, list[str]]:
    """The metrics of a report, the index of the one that marks its edits, and the notes of the
    defaults left out: ``metrics`` (default: the report's ``defaults`` that are columns for that
    many ``systems``, :func:`default_columns`), then the default metric that marks edits
    (ERRANT's span correction F0.5) unless one equal to it is among them; each asked, before any
    work, whether it can score at all (:meth:`~gecmetrics.metrics.base.Metric.check_ready`: an
    LLM judge's API key)."""
    columns, left_out = default_columns(defaults, systems, metrics is None)
    resolved = columns if metrics is None else resolve_metrics(metrics)
    for metric in resolved:
        metric.check_ready()
    marker = offering(defaults, "marks_edits")
    for k, metric in enumerate(resolved):
        if metric == marker:
            return resolved, k, left_out
    return resolved + [marker], len(resolved), left_out


def offering(metrics: Sequence[Metric], capability: str) -> Metric:
    """The first of ``metrics`` that offers ``capability`` (a boolean capability attribute of
    :class:`~gecmetrics.metrics.base.Metric`)."""
    for metric in metrics:
        if getattr(metric, capability):
            return metric
    raise InputError(f"no default metric of the report offers {capability}")


# ----------------------------------------------------------------------------- summary


def _paired(task: tuple) -> list[tuple[PairedTestResult, AllPairsResult | None]]:
    """Some columns' paired bootstraps against the baseline (the first system) and, with two
    systems or more, of every pair with the multiple-comparison correction (a task for a
    worker: the resamplers are made there). The columns share each chunk of draws (the same
    draws as each column alone); the all-pairs test shares the baseline test's draws, so each
    (baseline, system) pair has the baseline test's p-value."""
    columns, references, samples, seed, correction = task
    resamplers = [metric.resampler(part, references) for metric, part, _ in columns]
    names = list(columns[0][2])
    samples, correction, seed = (check_all_pairs(names, "bs", samples, seed, correction, SIGNIFICANCE_LEVEL)
                                 if len(names) >= 2 else
                                 (check_samples("bs", samples), correction,
                                  check_seed(seed, "the seed of the paired test (--seed)")))
    draws = drawn_columns([(resampler, statistics) for resampler, (_, _, statistics) in zip(resamplers, columns)],
                          "bs", samples, seed)
    return [_column_tests(resampler, metric, names, column_draws, samples, seed, correction)
            for resampler, (metric, _, _), column_draws in zip(resamplers, columns, draws)]


def _column_tests(resampler: Any, metric: Metric, names: list[str], draws: Drawn, samples: int, seed: int,
                  correction: str) -> tuple[PairedTestResult, AllPairsResult | None]:
    """One column's test against the baseline and, with two systems or more, of every pair."""
    if len(names) < 2:
        return paired_test_from_draws(resampler, names, draws, "bs", samples, seed), None
    every = all_pairs_from_draws(resampler, names, draws, "bs", samples, seed, correction,
                                 higher_is_better=bool(metric.higher_is_better))
    first = every.systems[0].name
    against = every.against(first)  # (one pass over the pairs, not one per system)
    systems = [dataclasses.replace(system, p_value=None if k == 0 else against[system.name].p_value)
               for k, system in enumerate(every.systems)]
    signature = paired_signature(resampler.signature, "bs", every.samples, every.confidence_samples, seed)
    single = PairedTestResult("bs", every.samples, every.confidence_samples, every.seed, every.metric, systems,
                              signature, settings={**every.settings, "baseline": first})
    return single, every


def _all_pairs_data(test: AllPairsResult | None) -> dict[str, Any]:
    """A column's pairs (fractions as the metric gives them) and clusters, for the page."""
    if test is None:
        return {"pairs": [], "clusters": [], "pairs_signature": None}
    return {"pairs": [[p.first, p.second, p.difference, p.p_value, p.adjusted_p, p.significant] for p in test.pairs],
            "clusters": [list(members) for members in test.clusters], "pairs_signature": str(test.signature)}


def _ranks(values: Sequence[float], higher_is_better: bool) -> list[int]:
    oriented = [v if higher_is_better else -v for v in values]
    return [1 + sum(other > value for other in oriented) for value in oriented]


def summary(scored: Scored, baseline: str, samples: int, seed: int, jobs: int = 1,
            correction: str = "holm", *, sentences: int) -> tuple[list[dict], dict]:
    """Per score column: its label, metric, scale, signature, every system's score and rank,
    95% bootstrap interval and p-value against ``baseline`` (paired bootstrap), and every pair
    of systems tested with the ``correction`` (holm, bh, none) and the clusters of systems that
    cannot be told apart. A system is marked significantly better or worse than the baseline
    by the pair's *corrected* p-value, the one the clusters read (its raw p-value is shown
    beside it). A corpus of fewer than :data:`~gecmetrics.stats.significance.MIN_TEST_SENTENCES`
    ``sentences`` has no test (no interval, p-value or cluster: the page says why)."""
    table = comparison_table(scored)
    names = scored.names
    skipped = untestable(sentences)
    tests: list = [(None, None)] * sum(len(metric.column_labels()) for metric in scored.metrics)
    if skipped is None:
        order = [baseline] + [name for name in names if name != baseline]
        columns = [(metric, part, {name: scored.statistics[name][k] for name in order})
                   for k, metric in enumerate(scored.metrics) for part in range(len(metric.column_labels()))]
        with make_executor(jobs) as executor:
            # one task per worker, each drawing its resamples once for all its columns
            workers = max(1, min(executor.jobs, len(columns)))
            grouped = list(executor.map(_paired, [(columns[g::workers], scored.references, samples, seed, correction)
                                                  for g in range(workers)]))
        for g, results in enumerate(grouped):
            tests[g::workers] = results
    else:
        import warnings

        warnings.warn(f"the report shows no paired test: {skipped}")
    columns = []
    for k, (column, (test, pairs)) in enumerate(zip(table.columns, tests)):
        metric = scored.metrics[column.metric_index]
        scores = [float(row.scores[k]) for row in table.rows]
        columns.append({
            "label": column.label, "metric": column.metric_index, "part": column.part,
            "signature": str(column.signature), "scale": scale_factor(metric), "rounds_to": metric.rounds_to,
            "higher_is_better": bool(metric.higher_is_better), "sentence_scores": bool(metric.has_sentence_scores),
            "scores": scores, "ranks": _ranks(scores, metric.higher_is_better),
            **_baseline_test_data(test, pairs, names, baseline), **_all_pairs_data(pairs)})
    test_info = {"method": "paired bootstrap", "samples": samples, "seed": seed, "baseline": baseline,
                 "level": SIGNIFICANCE_LEVEL, "correction": correction, "skipped": skipped}
    return columns, test_info


def _baseline_test_data(test: PairedTestResult | None, pairs: AllPairsResult | None, names: Sequence[str],
                        baseline: str) -> dict[str, Any]:
    """A column's intervals, raw and corrected p-values against the baseline and whether each
    system differs from it significantly after the correction (None and False without a test)."""
    if test is None:
        return {"intervals": [None] * len(names), "p_values": [None] * len(names),
                "adjusted_p_values": [None] * len(names), "significant": [False] * len(names),
                "test_signature": None}
    by_name = {system.name: system for system in test.systems}
    against = pairs.against(baseline) if pairs is not None else {}
    return {"intervals": [[by_name[name].interval[0], by_name[name].interval[1]] for name in names],
            "p_values": [by_name[name].p_value for name in names],
            "adjusted_p_values": [against[name].adjusted_p if name in against else None for name in names],
            "significant": [name in against and against[name].significant for name in names],
            "test_signature": str(test.signature)}


# ----------------------------------------------------------------------------- edits and types


def _edit_row(edit: Any, mark: str | None) -> list:
    return [edit.start, edit.end, edit.replacement, edit.type, mark]


def compared_edits(scored: Scored, k: int, corpus: Corpus) -> dict[str, Any]:
    """Per system and sentence, its edits marked TP / FP (None: not compared) by metric ``k``
    (one that marks edits) against the reference annotator its choice kept, that annotator and
    the indices of the reference's edits it matched and missed; the per-type counts and scores
    at each ``-cat`` level, with the metric's ``rounds_to`` (as the page prints those scores)."""
    metric = scored.metrics[k]
    edits, chosen, matched, missed, categories, macro = {}, {}, {}, {}, {}, {}
    beta, type_note = None, None
    for name in scored.names:
        result = scored.result(name, k)
        marks = metric.edit_marks(result, corpus.hypothesis_m2[name], corpus.gold, CATEGORY_LEVELS)
        if hasattr(result, "macro_scores"):  # errant PR #52's macro P, R, F of the same pairs, per level
            macro[name] = {str(level): list(result.macro_scores(level)) for level in CATEGORY_LEVELS}
        edits[name] = [[_edit_row(edit, mark) for edit, mark in sentence.edits] for sentence in marks.sentences]
        chosen[name] = [sentence.reference for sentence in marks.sentences]
        matched[name] = [sentence.matched for sentence in marks.sentences]
        missed[name] = [sentence.missed for sentence in marks.sentences]
        categories[name] = {str(level): {error_type: list(row) for error_type, row in marks.categories[level].items()}
                            for level in CATEGORY_LEVELS}
        beta, type_note = marks.beta, type_note or marks.type_note
    return {"edits": edits, "reference": chosen, "matched": matched, "missed": missed, "categories": categories,
            "macro": macro, "beta": beta, "label": metric.column_labels()[0], "rounds_to": metric.rounds_to,
            "signature": str(metric.signature(len(corpus.references))), "type_note": type_note}


def type_note_warnings(compared: dict[str, Any]) -> list[str]:
    """The warning line of :func:`compared_edits`'s ``type_note`` (types of two schemes in the
    error types' tables and heat map), or none."""
    if compared["type_note"] is None:
        return []
    return [f"gecmetric: warning: {compared['label']}: the error types' tables and heat map hold {compared['type_note']}; "
            "give --m2 a gold with ERRANT's types (gecmetric m2 annotate --from-m2 FILE --auto), or leave --m2 out"]


def _keep_type_counts(metrics: Sequence[Metric]) -> None:
    """The run's copies of the metrics that can keep per-type counts (a ``per_type`` attribute,
    the M2 scorer's) keep them, for :func:`typed_columns`."""
    for metric in metrics:
        if getattr(metric, "per_type", None) is False:
            metric.per_type = True


def typed_columns(scored: Scored, references: int) -> list[dict[str, Any]]:
    """Per metric whose results keep per-type counts of the gold M2's types (a ``per_type``
    metric: the M2 scorer), per system and ``-cat`` level: type -> TP, FP, FN, P, R, F (the
    scorer's P/R/F of the type's counts), and the macro P, R, F over the level's types; the
    metric's ``rounds_to`` (as the page prints those scores)."""
    out = []
    for k, metric in enumerate(scored.metrics):
        if not getattr(metric, "per_type", False):
            continue
        categories, macro = {}, {}
        for name in scored.names:
            result = scored.result(name, k)
            categories[name] = {str(level): {t: [c.tp, c.fp, c.fn, *(float(x) for x in fscore.precision_recall_f(
                c.tp, c.fp, c.fn, result.beta))] for t, c in sorted(result.grouped_categories(level).items())}
                for level in CATEGORY_LEVELS}
            macro[name] = {str(level): [float(x) for x in result.macro_scores(level)] for level in CATEGORY_LEVELS}
        out.append({"label": metric.column_labels()[0], "signature": str(metric.signature(references)),
                    "rounds_to": metric.rounds_to, "categories": categories, "macro": macro})
    return out


def gold_edits(corpus: Corpus, weights: GoldEditWeights | None) -> list[list[list]]:
    """Per sentence, the reference M2's edits (noop lines left out): start, end, correction,
    type, annotator and the weight the metric that weighs gold edits gave it (else None)."""
    out = []
    for d, block in enumerate(corpus.gold):
        weighed = weights.edits[d] if weights is not None else [None] * len(block.edits)
        out.append([[edit.start, edit.end, edit.replacement, edit.type, edit.annotator,
                     None if weight is None else _round(weight)]
                    for edit, weight in zip(block.edits, weighed) if not edit.is_noop])
    return out


def type_difficulty(weights: GoldEditWeights | None) -> dict[str, dict[str, list]]:
    """Per ``-cat`` level and error type group of the weighed gold edits: the mean and standard
    deviation of their weights and their number (GoToScorer's table)."""
    if weights is None:
        return {}
    return {str(level): {name: [_round(mean), _round(std), count]
                         for name, (mean, std, count) in weights.categories[level].items()}
            for level in CATEGORY_LEVELS}


# ----------------------------------------------------------------------------- the whole report


def report_data(corpus: Corpus, metrics: Sequence[Any] | str | None = None, *, baseline: str | None = None,
                samples: int = DEFAULT_SAMPLES, seed: int = 0, attribution: Sequence[Any] | str | None = None,
                methods: Sequence[str] = METHODS, max_exact_edits: int = DEFAULT_MAX_EXACT_EDITS,
                permutations: int = DEFAULT_PERMUTATIONS, human: Any = None, human_score: Any = None,
                spacy_model: str | None = None, annotator: Any = None, jobs: int = 1, title: str | None = None,
                progress: ProgressCallback | None = None, cache: Any = None,
                correction: str = "holm") -> dict[str, Any]:
    """Everything the report shows, as one JSON-ready dict.

    ``corpus``: the source, text references and the system outputs (text), optionally the gold
    M2 (else the references annotated with ERRANT are the reference edits) and the systems'
    M2 (else annotated with ERRANT: ``spacy_model``, or an ``annotator``). ``metrics``: metric
    objects or registry texts (default: the registry's report defaults, GLEU+, GREEN b0.5/1/2,
    M2 with a gold M2, GoToScorer); ERRANT F0.5 is always added (its comparison marks the edits).
    ``baseline``: the system the paired bootstrap (``samples``, ``seed``) tests the others
    against (default: the first); every pair of systems is also tested with the same draws,
    the p-values adjusted by ``correction`` (``holm``, ``bh`` or ``none``), and the clusters of
    systems that cannot be told apart given per column. ``attribution``: the metrics whose sentence scores are
    attributed to the edits (default: the first metric with text hypotheses and sentence
    scores; ``"none"``: no attribution), by ``methods`` (exact Shapley up to ``max_exact_edits``
    edits, sampled above; ``permutations``). ``human``: a human table (``gjg15``, ``seeda``, a
    TSV path) for the meta-evaluation figures. ``progress(done, total, what)``: as the scoring
    counts its chunks, then as each attribution its parts (each run ends with ``"done"``).
    ``cache``: the persistent cache of the report's runs (as
    :func:`~gecmetrics.run.engine.score_files` takes it).
    ``warnings``: what ``compare`` prints of the input (``Scored.warnings``) and :func:`type_note_warnings`.
    """
    baseline = _check_report(corpus, baseline, samples, title)
    correction = check_correction(correction)
    methods = _method_names(methods)
    defaults = default_metrics(REPORT, corpus.gold is not None)  # (a column each, but GoToScorer of one system)
    resolved, marker, left_out = report_metrics(metrics, defaults, len(corpus.hypotheses))
    check_columns(resolved, len(corpus.references))
    context = run_context_of(resolved, cache)  # one cache for every run of the report
    resolved = [metric.with_context(context) for metric in resolved]
    attributed = [(metric.with_context(context), column)
                  for metric, column in _attribution_metrics(attribution, resolved)]
    _check_attribution_settings(bool(attributed), methods, max_exact_edits, permutations, seed)
    _keep_type_counts(resolved)
    human = _checked_human(human, human_score, list(corpus.hypotheses))
    # spacy_model None: $GECMETRICS_SPACY_MODEL, else en_core_web_sm
    corpus, annotation, annotator = _annotated(corpus, spacy_model, annotator, context, attributed)
    resolved = [_naming_annotator(metric, annotation, annotator) for metric in resolved]
    scored, columns, test = _scored_and_tested(resolved, corpus, baseline, samples, seed, jobs, correction, progress,
                                               context)
    compared = compared_edits(scored, marker, corpus)
    data = {"format": FORMAT, "format_version": FORMAT_VERSION, "gecmetrics": __version__,
            "title": title or DEFAULT_TITLE, "corpus": _corpus_data(corpus, annotation),
            "warnings": scored.warnings() + left_out + type_note_warnings(compared),
            "systems": list(corpus.hypotheses), "baseline": baseline, "test": test, "columns": columns,
            **_scored_data(corpus, resolved, scored, columns, marker, defaults, compared, annotation, annotator)}
    # the attribution's candidates: the statistics (hundreds of MB at 10^5 sentences) and the freed memory go first
    del scored
    release_freed_memory()
    data["attribution"] = [_attribution(corpus, metric, column, methods, max_exact_edits, permutations, seed, annotator,
                                        annotation["hypotheses"] == "annotated", jobs, progress)
                           for metric, column in attributed]
    data["meta"] = _meta(columns, list(corpus.hypotheses), human, human_score) if human is not None else None
    return data


def _check_attribution_settings(attributing: bool, methods: list[str], max_exact_edits: int, permutations: int,
                                seed: int) -> None:
    """The attribution's settings, before any work (a method listed twice was refused after the
    scoring and its bootstraps): one set away from its default that changes nothing, because
    there is no attribution or no method reads it, is refused, as the command refuses its flag."""
    changed = {name: value for name, value, default in (("max_exact_edits", max_exact_edits, DEFAULT_MAX_EXACT_EDITS),
                                                          ("permutations", permutations, DEFAULT_PERMUTATIONS))
               if value != default}
    if not attributing:
        if methods != list(METHODS):
            changed = {"methods": methods, **changed}
        if changed:
            name, value = next(iter(changed.items()))
            raise InputError(f"{name}={value!r} sets the edit attribution, and this report attributes nothing "
                             "(attribution 'none', or no metric with sentence scores of text)")
        return
    check_attribution_options(methods, max_exact_edits, permutations, seed, False, OVER_BOUND)
    refuse_idle_options(methods, changed, OVER_BOUND)


def _scored_and_tested(metrics: list[Metric], corpus: Corpus, baseline: str, samples: int, seed: int, jobs: int,
                       correction: str, progress: ProgressCallback | None, context: Any
                       ) -> tuple[Scored, list[dict], dict]:
    """The metrics' statistics of the corpus, and the summary columns with their paired tests
    (:func:`summary`), the freed memory handed back after each: the statistics' temporaries
    before the bootstraps' arrays, and those before the per-sentence data (small objects, which
    cannot reuse it)."""
    scored = score_corpus(metrics, corpus, jobs=jobs, progress=progress, cache=context)
    release_freed_memory()
    columns, test = summary(scored, baseline, samples, seed, jobs, correction, sentences=corpus.size)
    release_freed_memory()
    return scored, columns, test


def _scored_data(corpus: Corpus, metrics: list[Metric], scored: Scored, columns: list[dict], marker: int,
                 defaults: list[Metric], compared: dict[str, Any], annotation: dict[str, Any],
                 annotator: Any) -> dict[str, Any]:
    """The parts of the report read from the scored statistics: the metrics, ERRANT's edit
    comparison (``compared``: :func:`compared_edits`), the error types, the gold edits'
    difficulty and the sentence browser's data."""
    # the difficulty sits beside the marking metric's per-type counts: its types grouped alike
    weigher = _naming_annotator(offering(defaults, "weighs_gold_edits"), annotation, annotator)
    weights = weigher.gold_edit_weights(corpus, CATEGORY_LEVELS, scored.metrics[marker].type_group)
    return {
        "metrics": [{"name": m.display_name, "signature": str(m.signature(len(corpus.references))),
                     "settings": m.settings_dict()} for m in metrics],
        "errant": {key: compared[key] for key in ("label", "signature", "rounds_to", "beta", "categories", "macro")},
        "types": typed_columns(scored, len(corpus.references)),
        "difficulty": {"types": type_difficulty(weights),
                       "signature": weights.signature if weights is not None else None},
        "sentences": _sentence_data(corpus, scored, columns, compared, weights),
    }


def _naming_annotator(metric: Metric, annotation: dict[str, Any], annotator: Any) -> Metric:
    """``metric``, whose signature names the report's ERRANT annotator where it made edits the
    metric reads (the systems' M2 for a metric of hypothesis edits, the references' for one of
    reference edits): another spaCy model, other edits, other numbers."""
    reads = ((annotation["hypotheses"] == "annotated" and metric.hypothesis_kind == M2)
             or (annotation["references"] == "annotated" and metric.reference_kind == M2))
    return metric.with_edits_made_by(annotator.annotation_fields()) if reads else metric


def _method_names(methods: str | Sequence[str]) -> list[str]:
    """The attribution methods asked for (one name, or a sequence of them), checked."""
    given = [methods] if isinstance(methods, str) else check_sequence(methods, "methods", "attribution methods")
    return [method_name(m) for m in given]


def _check_report(corpus: Corpus, baseline: str | None, samples: int, title: str | None = None) -> str:
    """The report's corpus, numbers and title checked before any work; the baseline (default:
    the first system)."""
    if title is not None and not isinstance(title, str):  # (a list printed as "['x']")
        raise InputError(f"title must be a text or None, got {kind_of(title)}")
    if title is not None and not title.strip():  # was the default title, silently
        raise InputError(f"the title is empty; leave it out for the default, '{DEFAULT_TITLE}'")
    if title is not None and (lone := LONE_SURROGATE.search(title)):  # the page could not be encoded, after the work
        raise InputError(f"the title holds a lone surrogate ({lone.group()!r}), "
                         f"which is no Unicode text: the page cannot hold it")
    if not isinstance(corpus, Corpus):
        raise InputError(f"report_data needs a Corpus, got {type(corpus).__name__}")
    systems = list(corpus.hypotheses)
    if not systems:
        raise InputError("a report needs at least one system output")
    if not corpus.references:
        raise InputError("a report needs the text references (-r)")
    for name in systems:
        lines = corpus.hypotheses[name]
        if lines and not isinstance(lines[0], str):
            raise InputError(f"system {name}: a report reads system outputs as text (with --hyp-m2 for their edits)")
    baseline = systems[0] if baseline is None else baseline
    if baseline not in systems:
        raise InputError(f"unknown baseline {baseline!r}; systems: {', '.join(systems)}")
    check_count(samples, "the number of bootstrap resamples")
    return baseline


def _corpus_data(corpus: Corpus, annotation: dict[str, Any]) -> dict[str, Any]:
    """The corpus's size, files and where its edits came from."""
    return {"sentences": corpus.size, "references": len(corpus.references),
            "files": {role: _file_name(corpus.names[role]) for role in sorted(corpus.names)},
            "reference_edits": annotation["references"], "system_edits": annotation["hypotheses"],
            "annotator": annotation.get("annotator")}


def _sentence_data(corpus: Corpus, scored: Scored, columns: list[dict], compared: dict[str, Any],
                   weights: GoldEditWeights | None) -> dict[str, Any]:
    """The sentence browser's data: texts, gold and system edits, sentence scores, difficulty."""
    sentence_scores, spread = _sentence_scores(scored, columns)
    return {
        "source": list(corpus.sources), "references": [list(ref) for ref in corpus.references],
        "gold": gold_edits(corpus, weights),
        "edits": compared["edits"], "reference": compared["reference"], "matched": compared["matched"],
        "missed": compared["missed"], "scores": sentence_scores, "spread": spread,
        "difficulty": _rounded(weights.sentence) if weights is not None else None}


def _file_name(shown: str) -> str:
    """A file's name as the corpus shows it in messages, without the role ("the source X")."""
    return shown[len("the source "):] if shown.startswith("the source ") else shown


def _attribution_metrics(attribution: Sequence[Any] | str | None, metrics: list[Metric]) -> list[tuple[Metric, int]]:
    """(metric, column) pairs to attribute: the first text metric with sentence scores by default."""
    from ...kinds import TEXT
    from .attribution import check_attribution_metric

    if isinstance(attribution, str) and attribution.strip().lower() == "none":
        return []
    if attribution is None:
        for metric in metrics:
            if metric.has_sentence_scores and metric.hypothesis_kind == TEXT and not needs_gold_m2(metric):
                return [(metric, 0)]
        return []
    chosen, signatures = [], []
    for metric in resolve_metrics(attribution):
        check_attribution_metric(metric)
        labels = metric.column_labels()
        if len(labels) > 1:  # it would attribute the first column alone, under the metric's name
            raise InputError(f"the report attributes one score column per metric; {metric.display_name} has "
                             f"{len(labels)} ({', '.join(labels)}): give it one setting (e.g. green:beta=1)")
        signature = str(metric.signature(None))
        if signature in signatures:
            raise InputError(f"the attributed metric {signature} is given twice")
        signatures.append(signature)
        chosen.append((metric, 0))
    return chosen


def _sentence_scores(scored: Scored, columns: list[dict]) -> tuple[dict, dict]:
    """Per column (its index, as text) with sentence scores: every system's sentence scores,
    and per sentence the spread between the systems (highest minus lowest)."""
    scores, spread = {}, {}
    matrices: dict[tuple[str, int], np.ndarray] = {}
    for c, column in enumerate(columns):
        metric = scored.metrics[column["metric"]]
        if not metric.has_sentence_scores:
            continue
        rows = []
        for name in scored.names:
            key = (name, column["metric"])
            if key not in matrices:
                matrices[key] = np.asarray(metric.sentence_matrix(scored.statistics[name][column["metric"]]),
                                           dtype=np.float64)
            rows.append(matrices[key][column["part"]])
        stacked = np.stack(rows)
        scores[str(c)] = {name: _rounded(row) for name, row in zip(scored.names, stacked)}
        spread[str(c)] = _rounded(stacked.max(axis=0) - stacked.min(axis=0))
    return scores, spread


def _attribution_rows(methods: list[str], results: list) -> list[tuple[list[list[float]], float, float, bool]]:
    """What the report keeps of a part's attributions (made where the part is attributed): per
    sentence the values of each edit by each method, the output's and the source's scores, and
    whether exact Shapley fell back to sampled Shapley."""
    kept = []
    for sentence in results:
        parts = [sentence[m] for m in methods]
        head = parts[0]
        kept.append(([[part.values[e] for part in parts] for e in range(len(head.values))], head.full_score,
                     head.empty_score, "shapley" in sentence and sentence["shapley"].method != "shapley"))
    return kept


def _attribution(corpus: Corpus, metric: Metric, column: int, methods: list[str], max_exact_edits: int,
                 permutations: int, seed: int, annotator: Any, systems_annotated: bool, jobs: int = 1,
                 progress: ProgressCallback | None = None) -> dict[str, Any]:
    """One metric's attribution of every system's edits, per sentence and edit, every method;
    and per system and error type the number of edits and their mean value by each method
    (the parts of the systems attributed by ``jobs`` workers, read here in order; ``progress``
    hears of each, as of the scoring's chunks)."""
    systems = list(corpus.hypotheses)
    edits = {name: hypothesis_edits(corpus.hypothesis_m2[name]) for name in systems}
    values = {name: [] for name in systems}
    full = {name: [] for name in systems}
    sampled = {name: [] for name in systems}
    empty = []  # the source's sentence scores: the same for every system, kept from the first
    types = {name: {} for name in systems}
    # a part's Attribution objects stay where they are made (hundreds of MB per system at 10^5
    # sentences): _attribution_rows is what comes back
    for name, first, results in attribution_parts(corpus, metric, edits, column=column, methods=methods,
                                                  max_exact_edits=max_exact_edits, permutations=permutations,
                                                  seed=seed, over_bound=OVER_BOUND, annotator=annotator, jobs=jobs,
                                                  read=functools.partial(_attribution_rows, methods),
                                                  progress=progress):
        for d, (rows, total, empty_score, fallback) in enumerate(results, start=first):
            values[name].append([[_round(value) for value in row] for row in rows])
            full[name].append(_round(total))
            if name == systems[0]:
                empty.append(_round(empty_score))
            if fallback:
                sampled[name].append(d)
            for row, edit in zip(rows, edits[name][d]):
                entry = types[name].setdefault(edit.type, [0] + [0.0] * len(methods))
                entry[0] += 1
                for m, value in enumerate(row):
                    entry[1 + m] += value
    by_type = {name: {t: [entry[0], *[_round(total / entry[0]) for total in entry[1:]]]
                      for t, entry in sorted(types[name].items())} for name in systems}
    # the signature of these numbers: the column's, then the attribution's settings (what
    # `gecmetric attribute --signature` prints for the same settings and the same rows)
    signature = column_attribution_signature(metric, column, len(corpus.references), annotator, systems_annotated,
                                             methods=methods, max_exact_edits=max_exact_edits,
                                             permutations=permutations, seed=seed, over_bound=OVER_BOUND)
    return {"metric": metric.display_name, "label": metric.column_labels()[column], "column": column,
            "signature": str(signature), "scale": scale_factor(metric), "rounds_to": metric.rounds_to,
            "methods": methods,
            "max_exact_edits": max_exact_edits, "permutations": permutations, "seed": seed,
            "values": values, "full": full, "empty": empty, "sampled_shapley": sampled, "by_type": by_type}


def _human_table(human: Any) -> Any:
    """A human table by name, path or object (read before any work: a bad name fails at once)."""
    from ...meta.human_tables import HumanTable, load_human

    _check_shown_name(human)
    return human if isinstance(human, HumanTable) else load_human(human)


def _checked_human(human: Any, human_score: Any, systems: list[str]) -> Any:
    """The human table (None without one), refused before any work when it has no score, not the
    column asked for, or scores too few of the systems for a correlation (the page was written,
    with the error inside it, exit 0)."""
    from ...meta.correlations import MIN_SYSTEMS

    if human is None:
        if human_score is not None:
            raise InputError("a human score column (human_score, --human-score) needs a human table (human, --human)")
        return None
    table = _human_table(human)
    table.columns(human_score)
    judged = [name for name in systems if name in table.systems]
    if len(judged) < MIN_SYSTEMS:
        raise InputError(f"the human table {table.name} scores {len(judged)} of the systems "
                         f"({', '.join(judged) or 'none'}); correlations need at least {MIN_SYSTEMS} (its systems: "
                         f"{', '.join(table.systems)})")
    for column in table.columns(human_score):  # (refused after the scoring and its bootstraps)
        if len({table.scores[column][name] for name in judged}) == 1:
            raise InputError(f"no correlation with the human table {table.name} can be computed: human column "
                             f"{column!r} of {table.source} is the same ({table.scores[column][judged[0]]:g}) for all "
                             f"{len(judged)} systems: its correlation is undefined")
    return table


def _meta(columns: list[dict], systems: list[str], human: Any, human_score: Any) -> dict[str, Any]:
    """System-level correlations of every score column with the human scores (of the systems
    the human table has), and the points of the scatter figures; a column without one is a note,
    and no correlation at all an InputError, as meta-eval refuses it (the human scores, or every
    column's scores, the same for all the systems)."""
    from ...meta.system_level import meta_evaluate
    from ...meta.systems import EXPLICIT_HINT

    table = human  # a table checked before any work (_checked_human)
    judged = [name for name in systems if name in table.systems]
    correlations, notes, used, refused = [], [], judged, {}
    for column in columns:
        scores = {name: column["scores"][systems.index(name)] for name in judged}
        oriented = scores if column["higher_is_better"] else {name: -value for name, value in scores.items()}
        try:
            result = meta_evaluate({column["label"]: oriented}, table, human_score)
        except InputError as err:  # e.g. a column with the same score for every system
            notes.append(f"{column['label']}: {err}")
            refused[str(err)] = None  # (each reason once, in order)
            continue
        used = list(getattr(result, "systems", None) or result.correlations[0].systems) if result.correlations \
            else used
        for note in result.notes:
            note = note.replace(f" ({EXPLICIT_HINT})", "")  # meta-eval's flag: the report takes its systems from -o
            if note not in notes:
                notes.append(note)
        correlations += [{"metric": column["label"], "human": c.human_score, "pearson": c.pearson,
                          "spearman": c.spearman, "n": c.n_systems} for c in result.correlations]
    if not correlations:  # (the page drew its figures against no human score, at NaN, exit 0)
        raise InputError(f"no correlation with the human table {table.name} can be computed: {'; '.join(refused)}")
    humans = sorted({c["human"] for c in correlations})
    return {"table": table.name, "source": table.source, "systems": used,
            "left_out": [name for name in systems if name not in used],
            "human": {column: {name: table.scores[column][name] for name in used if name in table.scores[column]}
                      for column in humans},
            "correlations": correlations, "notes": notes}
