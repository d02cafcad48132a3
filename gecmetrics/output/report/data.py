"""The data behind the HTML report: one dict (JSON-ready) assembled from one engine run.

Nothing here computes a metric: scores, ranks, intervals and p-values come from the run
(:func:`~gecmetrics.run.engine.score_corpus`) and the paired tests
(:func:`~gecmetrics.stats.significance.paired_test_from_statistics`); edits marked TP / FP / FN
and the per-type counts from ERRANT's comparison
(:meth:`~gecmetrics.metrics.m2.compare.ErrantCompare.marked_edits`, ``grouped_categories``);
difficulty from GoToScorer (:meth:`~gecmetrics.metrics.gotoscorer.metric.GoToScorer.difficulty`);
attribution from :mod:`gecmetrics.stats.attribution`; correlations from
:func:`~gecmetrics.meta.system_level.meta_evaluate`. The page (:mod:`.html`) only shows this dict.

System outputs are not stored as text: each is its source with its ERRANT edits applied (the
page applies them to show them inline). Sentence-level numbers are rounded to 6 decimals.
"""
from __future__ import annotations

import math
import os
from typing import Any, Sequence

import numpy as np

from ...errors import InputError
from ...io.corpus import Corpus, read_corpus
from ...metrics.m2.compare import ErrantCompare, errant_scores, pair_of
from ...metrics.base import Metric
from ...metrics.registry import needs_gold_m2, resolve_metrics
from ...run.compare import check_columns, comparison_table
from ...run.engine import ProgressCallback, Scored, run_context_of, score_corpus
from ...run.executors import make_executor
from ...stats.attribution import DEFAULT_MAX_EXACT_EDITS, METHODS, method_name
from ...stats.significance import PairedTestResult, paired_test_from_statistics
from ...version import __version__
from .attribution import attribute_systems, hypothesis_edits

FORMAT = "gecmetrics-report"
FORMAT_VERSION = 1
DEFAULT_METRICS = ("gleu", "green:beta=0.5/1/2")
"""With the report's own columns: M2 F0.5 with a gold M2, GoToScorer F0.5 and ERRANT F0.5."""
DEFAULT_SAMPLES = 1000
"""Paired bootstrap resamples behind the summary's intervals and p-values."""
DEFAULT_PERMUTATIONS = 20
"""Sampled Shapley's permutations in the report (the page shows every sentence)."""
CATEGORY_LEVELS = (1, 2, 3)
DIGITS = 6


def _round(value: Any) -> Any:
    value = float(value)
    return None if not math.isfinite(value) else round(value, DIGITS)


def _rounded(values: Any) -> list:
    return [_round(v) for v in np.asarray(values, dtype=np.float64).ravel()]


def system_names(paths: Sequence[str]) -> list[str]:
    """Short names of system files: their base names, or the paths where two share one."""
    bases = [os.path.basename(os.path.normpath(path)) or path for path in paths]
    return bases if len(set(bases)) == len(bases) and len(set(paths)) == len(paths) else list(paths)


def read_report_corpus(source: str, references: Sequence[str], hypotheses: Sequence[str], gold: str | None = None,
                       hypothesis_m2: Sequence[str] = ()) -> Corpus:
    """The files of a report, checked once, the systems named by :func:`system_names`."""
    if len(set(hypotheses)) != len(hypotheses):
        raise InputError("a system file is given twice")
    corpus = read_corpus(source, references, hypotheses, gold, hypothesis_m2)
    names = dict(zip(hypotheses, system_names(list(hypotheses))))
    return Corpus(corpus.sources, corpus.references, {names[p]: corpus.hypotheses[p] for p in hypotheses},
                  corpus.gold, corpus.names, hypothesis_m2={names[p]: m2 for p, m2 in corpus.hypothesis_m2.items()})


# ----------------------------------------------------------------------------- preparing


def _annotated(corpus: Corpus, spacy_model: str | None, annotator: Any, context: Any
               ) -> tuple[Corpus, dict[str, Any], Any]:
    """The corpus with every system's ERRANT edits (given, or annotated in the run's
    ``context``) and a reference M2 (the gold, or the references annotated); what was
    annotated, and the annotator."""
    systems = list(corpus.hypotheses)
    missing = [name for name in systems if name not in corpus.hypothesis_m2]
    info: dict[str, Any] = {"hypotheses": "annotated" if missing else "given",
                            "references": "gold M2" if corpus.gold is not None else "annotated"}
    if (missing or corpus.gold is None) and annotator is None:
        from ...metrics.errant import Annotator
        from ...metrics.errant.metric import shared_model

        annotator = Annotator(shared_model(spacy_model, context.resources), cache=context.cache)
    sets = [[corpus.hypotheses[name]] for name in missing]
    if corpus.gold is None:
        sets.append(list(corpus.references))
    blocks = annotator.annotate_sets(corpus.sources, sets, keep_empty=True) if sets else []
    gold = blocks.pop() if corpus.gold is None else corpus.gold
    m2 = dict(corpus.hypothesis_m2)
    m2.update(zip(missing, blocks))
    if annotator is not None and sets:
        info["annotator"] = {"merge": annotator.merge, **annotator.versions()}
    return Corpus(corpus.sources, corpus.references, dict(corpus.hypotheses), gold, corpus.names,
                  hypothesis_m2={name: m2[name] for name in systems}), info, annotator


def report_metrics(metrics: Sequence[Any] | str | None, gold_given: bool) -> tuple[list[Metric], int]:
    """The metrics of a report and the index of its ERRANT comparison: ``metrics`` (default
    GLEU+ and GREEN b0.5/1/2, with M2 F0.5 when a gold M2 is given, and GoToScorer F0.5), then
    ERRANT's span correction F0.5 unless one is among them."""
    if metrics is None:
        texts = list(DEFAULT_METRICS) + (["m2"] if gold_given else []) + ["gotoscorer"]
        resolved = resolve_metrics(texts)
    else:
        resolved = resolve_metrics(metrics)
    comparer = ErrantCompare()
    for k, metric in enumerate(resolved):
        if metric == comparer:
            return resolved, k
    return resolved + [comparer], len(resolved)


# ----------------------------------------------------------------------------- summary


def _paired(task: tuple) -> PairedTestResult:
    """One column's paired bootstrap (a task for a worker: the resampler is made there)."""
    metric, part, references, statistics, samples, seed = task
    return paired_test_from_statistics(metric.resampler(part, references), statistics, "bs", samples, seed)


def _ranks(values: Sequence[float], higher_is_better: bool) -> list[int]:
    oriented = [v if higher_is_better else -v for v in values]
    return [1 + sum(other > value for other in oriented) for value in oriented]


def summary(scored: Scored, baseline: str, samples: int, seed: int, jobs: int = 1) -> tuple[list[dict], dict]:
    """Per score column: its label, metric, scale, signature, every system's score and rank,
    95% bootstrap interval and p-value against ``baseline`` (paired bootstrap)."""
    table = comparison_table(scored)
    names = scored.names
    order = [baseline] + [name for name in names if name != baseline]
    tasks = [(metric, part, scored.references, {name: scored.statistics[name][k] for name in order}, samples, seed)
             for k, metric in enumerate(scored.metrics) for part in range(len(metric.column_labels()))]
    with make_executor(jobs) as executor:
        tests = list(executor.map(_paired, tasks))
    columns = []
    for k, (column, test) in enumerate(zip(table.columns, tests)):
        metric = scored.metrics[column.metric_index]
        by_name = {system.name: system for system in test.systems}
        scores = [float(row.scores[k]) for row in table.rows]
        columns.append({
            "label": column.label, "metric": column.metric_index, "part": column.part,
            "signature": str(column.signature), "scale": float(metric.scale),
            "higher_is_better": bool(metric.higher_is_better), "sentence_scores": bool(metric.has_sentence_scores),
            "scores": scores, "ranks": _ranks(scores, metric.higher_is_better),
            "intervals": [[by_name[name].interval[0], by_name[name].interval[1]] for name in names],
            "p_values": [by_name[name].p_value for name in names],
            "significant": [by_name[name].significant for name in names],
            "test_signature": str(test.signature)})
    test_info = {"method": "paired bootstrap", "samples": samples, "seed": seed, "baseline": baseline,
                 "level": 0.05}
    return columns, test_info


# ----------------------------------------------------------------------------- edits and types


def _edit_row(edit: Any, mark: str | None) -> list:
    return [edit.start, edit.end, edit.replacement, edit.type, mark]


def compared_edits(scored: Scored, k: int, corpus: Corpus) -> dict[str, Any]:
    """Per system and sentence, its edits marked TP / FP (None: not compared) against the
    reference annotator ERRANT chose, that annotator and the indices of the reference's edits
    it matched and missed; the per-type counts and scores at each ``-cat`` level."""
    comparer: ErrantCompare = scored.metrics[k]
    gold = corpus.gold
    edits, chosen, matched, missed, categories = {}, {}, {}, {}, {}
    for name in scored.names:
        result = scored.result(name, k)
        blocks = corpus.hypothesis_m2[name]
        rows, refs, hits, misses = [], [], [], []
        for d, (block, ref_block) in enumerate(zip(blocks, gold)):
            code = result.candidates[d, result.chosen[d]] if result.candidates.size else 0
            hyp_id, ref_id = pair_of(int(code))
            hyp_marks, ref_marks = comparer.marked_edits(block, ref_block, (hyp_id, ref_id))
            rows.append([_edit_row(edit, mark) for edit, mark in hyp_marks if not edit.is_noop])
            positions = {id(edit): p for p, edit in enumerate(e for e in ref_block.edits if not e.is_noop)}
            refs.append(ref_id)
            hits.append([positions[id(edit)] for edit, mark in ref_marks if mark == "TP"])
            misses.append([positions[id(edit)] for edit, mark in ref_marks if mark == "FN"])
        edits[name], chosen[name], matched[name], missed[name] = rows, refs, hits, misses
        beta = comparer.settings.beta
        categories[name] = {}
        for level in CATEGORY_LEVELS:
            grouped = result.grouped_categories(level)
            categories[name][str(level)] = {
                error_type: [counts.tp, counts.fp, counts.fn,
                             *[float(x) for x in errant_scores(counts.tp, counts.fp, counts.fn, beta)]]
                for error_type, counts in sorted(grouped.items())}
    return {"edits": edits, "reference": chosen, "matched": matched, "missed": missed, "categories": categories,
            "beta": comparer.settings.beta, "label": comparer.column_labels()[0],
            "signature": str(comparer.signature(len(corpus.references)))}


def gold_edits(corpus: Corpus, difficulty: Any | None, ref_id: int = 0) -> list[list[list]]:
    """Per sentence, the reference M2's edits (noop lines left out): start, end, correction,
    type, annotator and the GoToScorer weight of annotator ``ref_id``'s edits (else None)."""
    from ...metrics.gotoscorer.chunking import chunk_edits

    weights = iter(difficulty.edit.tolist()) if difficulty is not None else None
    out = []
    for block in corpus.gold:
        weighted = {}
        if weights is not None:
            weighted = {id(edit): next(weights) for edit in chunk_edits(block.edits_of(ref_id))}
        out.append([[edit.start, edit.end, edit.replacement, edit.type, edit.annotator,
                     _round(weighted[id(edit)]) if id(edit) in weighted else None]
                    for edit in block.edits if not edit.is_noop])
    return out


def type_difficulty(corpus: Corpus, difficulty: Any | None, ref_id: int = 0) -> dict[str, dict[str, list]]:
    """Per ``-cat`` level and error type of annotator ``ref_id``'s gold edits: the mean and
    standard deviation of their GoToScorer weights and their number (the original's table)."""
    from ...metrics.gotoscorer.chunking import chunk_edits
    from ...metrics.gotoscorer.scorer import category_of

    if difficulty is None:
        return {}
    types = [edit.type for block in corpus.gold for edit in chunk_edits(block.edits_of(ref_id))]
    out: dict[str, dict[str, list]] = {}
    for level in CATEGORY_LEVELS:
        groups: dict[str, list[float]] = {}
        for error_type, weight in zip(types, difficulty.edit.tolist()):
            groups.setdefault(category_of(error_type, level), []).append(weight)
        out[str(level)] = {name: [_round(np.mean(values)), _round(np.std(values, ddof=1) if len(values) > 1 else 0.0),
                                  len(values)] for name, values in sorted(groups.items())}
    return out


# ----------------------------------------------------------------------------- the whole report


def report_data(corpus: Corpus, metrics: Sequence[Any] | str | None = None, *, baseline: str | None = None,
                samples: int = DEFAULT_SAMPLES, seed: int = 0, attribution: Sequence[Any] | str | None = None,
                methods: Sequence[str] = METHODS, max_exact_edits: int = DEFAULT_MAX_EXACT_EDITS,
                permutations: int = DEFAULT_PERMUTATIONS, human: Any = None, human_score: Any = None,
                spacy_model: str | None = None, annotator: Any = None, jobs: int = 1, title: str | None = None,
                progress: ProgressCallback | None = None, cache: Any = None) -> dict[str, Any]:
    """Everything the report shows, as one JSON-ready dict.

    ``corpus``: the source, text references and the system outputs (text), optionally the gold
    M2 (else the references annotated with ERRANT are the reference edits) and the systems'
    M2 (else annotated with ERRANT: ``spacy_model``, or an ``annotator``). ``metrics``: metric
    objects or registry texts (default :data:`DEFAULT_METRICS`, M2 with a gold M2, GoToScorer);
    ERRANT F0.5 is always added (its comparison marks the edits). ``baseline``: the system the
    paired bootstrap (``samples``, ``seed``) tests the others against (default: the first).
    ``attribution``: the metrics whose sentence scores are attributed to the edits (default: the
    first metric with text hypotheses and sentence scores; ``"none"``: no attribution), by
    ``methods`` (exact Shapley up to ``max_exact_edits`` edits, sampled above; ``permutations``).
    ``human``: a human table (``gjg15``, ``seeda``, a TSV path) for the meta-evaluation figures.
    ``cache``: the persistent cache of the report's runs (as
    :func:`~gecmetrics.run.engine.score_files` takes it).
    """
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
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
        raise InputError(f"the number of bootstrap resamples must be an integer >= 1, got {samples!r}")
    methods = [method_name(m) for m in ([methods] if isinstance(methods, str) else methods)]
    gold_given = corpus.gold is not None
    resolved, errant_index = report_metrics(metrics, gold_given)
    check_columns(resolved, len(corpus.references))
    context = run_context_of(resolved, cache)  # one cache for every run of the report
    resolved = [metric.with_context(context) for metric in resolved]
    attributed = [(metric.with_context(context), column)
                  for metric, column in _attribution_metrics(attribution, resolved)]
    human = _human_table(human) if human is not None else None
    # spacy_model None: $GECMETRICS_SPACY_MODEL, else en_core_web_sm
    corpus, annotation, annotator = _annotated(corpus, spacy_model, annotator, context)

    scored = score_corpus(resolved, corpus, jobs=jobs, progress=progress, cache=context)
    columns, test = summary(scored, baseline, samples, seed, jobs)
    compared = compared_edits(scored, errant_index, corpus)
    difficulty = _difficulty(corpus)
    sentence_scores, spread = _sentence_scores(scored, columns)

    data: dict[str, Any] = {
        "format": FORMAT, "format_version": FORMAT_VERSION, "gecmetrics": __version__,
        "title": title or "GEC evaluation report",
        "corpus": {"sentences": corpus.size, "references": len(corpus.references),
                   "files": {role: _file_name(corpus.names[role]) for role in sorted(corpus.names)},
                   "reference_edits": annotation["references"], "system_edits": annotation["hypotheses"],
                   "annotator": annotation.get("annotator")},
        "systems": systems, "baseline": baseline, "test": test, "columns": columns,
        "metrics": [{"name": m.display_name, "signature": str(m.signature(len(corpus.references))),
                     "settings": m.settings_dict()} for m in resolved],
        "errant": {key: compared[key] for key in ("label", "signature", "beta", "categories")},
        "difficulty": {"types": type_difficulty(corpus, difficulty),
                       "signature": "GoToScorer|ref_id:0|weights:systems" if difficulty is not None else None},
        "sentences": {
            "source": list(corpus.sources), "references": [list(ref) for ref in corpus.references],
            "gold": gold_edits(corpus, difficulty),
            "edits": compared["edits"], "reference": compared["reference"], "matched": compared["matched"],
            "missed": compared["missed"], "scores": sentence_scores, "spread": spread,
            "difficulty": _rounded(difficulty.sentence) if difficulty is not None else None},
        "attribution": [_attribution(corpus, metric, column, methods, max_exact_edits, permutations, seed, annotator)
                        for metric, column in attributed],
        "meta": _meta(columns, systems, human, human_score) if human is not None else None,
    }
    return data


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
    chosen = []
    for metric in resolve_metrics(attribution):
        check_attribution_metric(metric)
        chosen.append((metric, 0))
    return chosen


def _difficulty(corpus: Corpus) -> Any | None:
    """GoToScorer's weights of the reference's gold edits (None when annotator 0 has no edit)."""
    from ...metrics.gotoscorer.metric import GoToScorer

    if not any(edit.annotator == 0 and not edit.is_noop for block in corpus.gold for edit in block.edits):
        return None
    return GoToScorer().difficulty(corpus)


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


def _attribution(corpus: Corpus, metric: Metric, column: int, methods: list[str], max_exact_edits: int,
                 permutations: int, seed: int, annotator: Any) -> dict[str, Any]:
    """One metric's attribution of every system's edits, per sentence and edit, every method;
    and per system and error type the number of edits and their mean value by each method
    (the candidates are scored in this process: a few seconds, less than starting workers)."""
    systems = list(corpus.hypotheses)
    edits = {name: hypothesis_edits(corpus.hypothesis_m2[name]) for name in systems}
    results = attribute_systems(corpus, metric, edits, column=column, methods=methods,
                                max_exact_edits=max_exact_edits, permutations=permutations, seed=seed,
                                over_bound="sample", annotator=annotator)
    values, full, sampled, by_type = {}, {}, {}, {}
    empty = None
    for name in systems:
        rows, totals, fallback, types = [], [], [], {}
        sentence_empty = []
        for d, sentence in enumerate(results[name]):
            parts = [sentence[m] for m in methods]
            first = parts[0]
            rows.append([[_round(part.values[e]) for part in parts] for e in range(len(first.values))])
            totals.append(_round(first.full_score))
            sentence_empty.append(_round(first.empty_score))
            if "shapley" in sentence and sentence["shapley"].method != "shapley":
                fallback.append(d)
            for e, edit in enumerate(edits[name][d]):
                entry = types.setdefault(edit.type, [0] + [0.0] * len(methods))
                entry[0] += 1
                for m, part in enumerate(parts):
                    entry[1 + m] += part.values[e]
        values[name], full[name], sampled[name] = rows, totals, fallback
        by_type[name] = {t: [entry[0], *[_round(total / entry[0]) for total in entry[1:]]]
                         for t, entry in sorted(types.items())}
        empty = empty or sentence_empty
    return {"metric": metric.display_name, "label": metric.column_labels()[column], "column": column,
            "signature": str(metric.column_signature(column, len(corpus.references))), "methods": methods,
            "max_exact_edits": max_exact_edits, "permutations": permutations, "seed": seed,
            "values": values, "full": full, "empty": empty, "sampled_shapley": sampled, "by_type": by_type}


def _human_table(human: Any) -> Any:
    """A human table by name, path or object (read before any work: a bad name fails at once)."""
    from ...meta.human_tables import HumanTable, load_human

    return human if isinstance(human, HumanTable) else load_human(human)


def _meta(columns: list[dict], systems: list[str], human: Any, human_score: Any) -> dict[str, Any]:
    """System-level correlations of every score column with the human scores (of the systems
    the human table has), and the points of the scatter figures."""
    from ...meta.system_level import meta_evaluate

    table = _human_table(human)
    judged = [name for name in systems if name in table.systems]
    if len(judged) < 2:
        raise InputError(f"the human table {table.name} scores {len(judged)} of the systems "
                         f"({', '.join(judged) or 'none'}); correlations need at least 2 (its systems: "
                         f"{', '.join(table.systems)})")
    correlations, notes, used = [], [], judged
    for column in columns:
        scores = {name: column["scores"][systems.index(name)] for name in judged}
        oriented = scores if column["higher_is_better"] else {name: -value for name, value in scores.items()}
        try:
            result = meta_evaluate({column["label"]: oriented}, table, human_score)
        except InputError as err:  # e.g. a column with the same score for every system
            notes.append(f"{column['label']}: {err}")
            continue
        used = list(getattr(result, "systems", None) or result.correlations[0].systems) if result.correlations \
            else used
        notes.extend(note for note in result.notes if note not in notes)
        correlations += [{"metric": column["label"], "human": c.human_score, "pearson": c.pearson,
                          "spearman": c.spearman, "n": c.n_systems} for c in result.correlations]
    humans = sorted({c["human"] for c in correlations})
    return {"table": table.name, "source": table.source, "systems": used,
            "left_out": [name for name in systems if name not in used],
            "human": {column: {name: table.scores[column][name] for name in used if name in table.scores[column]}
                      for column in humans},
            "correlations": correlations, "notes": notes}
