"""Edit attribution of system outputs under a registered metric: the bridge between
:mod:`gecmetrics.stats.attribution` (which takes any scoring function) and the run engine.

Each candidate sentence (the source with a subset of a system's edits applied) is scored as a
hypothesis of its own source by the metric's sentence scores, in one engine run for every
candidate of every system (each distinct (sentence, text) once). What a metric offers decides
the cases that need care (its capabilities, :class:`~gecmetrics.metrics.base.Metric`):

* a sentence score that depends on the sentences before it (``independent_sentences`` False:
  the M2 family's running-F choice of an annotator) is taken for each candidate as a corpus of
  that one sentence, so a candidate's score never depends on the others scored beside it;
* a metric that reads hypothesis M2 (``hypothesis_kind``: SentERRANT, CLEME) gets each
  candidate's edits from the ERRANT annotator given (as gec-metrics re-annotates its
  candidates). A metric that cannot score a candidate sentence on its own
  (``candidate_refusal``: GoToScorer, whose chunk weights come from the systems scored
  together) is refused.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

import numpy as np

from ...errors import InputError
from ...io.corpus import Corpus
from ...io.m2 import Block
from ...kinds import M2
from ...metrics.base import Metric
from ...metrics.registry import needs_gold_m2
from ...run.engine import score_corpus
from ...stats.attribution import (DEFAULT_MAX_EXACT_EDITS, DEFAULT_PERMUTATIONS, METHODS, TSV_COLUMNS, Attribution,
                                  attribute_corpus_methods, attribution_rows)

CANDIDATES = "candidates"
"""The name of the candidate hypothesis in the corpora scored here."""


def edit_annotator(spacy_model: str | None, context: Any) -> Any:
    """The ERRANT annotator that gives system outputs (and candidate sentences) their edits,
    with ``spacy_model`` (None: $GECMETRICS_SPACY_MODEL, else en_core_web_sm), its model from
    the run ``context``'s resources and its parses in the context's cache: the one place the
    report and attribution make it."""
    from ...core.lang.en.annotator import Annotator
    from ...core.lang.en.parse import shared_model

    return Annotator(shared_model(spacy_model, context.resources), cache=context.cache)


def hypothesis_edits(blocks: Sequence[Block], annotator: int = 0) -> list[list[Any]]:
    """Per sentence, the edits of one annotator of M2 blocks (noop lines left out): what a
    system changed, in file order."""
    return [[edit for edit in block.edits_of(annotator) if not edit.is_noop] for block in blocks]


def independent_sentence_scores(metric: Metric, statistics: Any, column: int = 0) -> np.ndarray:
    """Each sentence's score alone (shape (D,)): the metric's sentence scores, or for a metric
    whose sentence score depends on the other sentences (``independent_sentences`` False: the
    running-F annotator choice), each sentence scored as a corpus of one sentence."""
    metric.require_sentence_scores()
    if not metric.independent_sentences:
        rows = np.asarray(statistics)
        return np.array([metric.sentence_matrix(rows[k:k + 1])[column, 0] for k in range(len(rows))],
                        dtype=np.float64)
    return np.asarray(metric.sentence_matrix(statistics), dtype=np.float64)[column]


def check_attribution_metric(metric: Metric) -> None:
    """An InputError for a metric whose sentence scores cannot score a candidate sentence."""
    metric.require_sentence_scores()
    if metric.candidate_refusal:
        name = metric.label or type(metric).__name__
        raise InputError(f"{name} cannot attribute edits: {metric.candidate_refusal}; choose another metric")


def candidate_scorer(metric: Metric, corpus: Corpus, column: int = 0, annotator: Any = None,
                     jobs: int = 1) -> Callable[[list, list], np.ndarray]:
    """``score(rows, texts)``: the sentence score of each text as a hypothesis of corpus
    sentence ``rows[k]`` (0-based), by ``metric``'s column ``column``. ``annotator`` (an ERRANT
    :class:`~gecmetrics.metrics.errant.Annotator`) is needed when the metric reads hypothesis M2."""
    check_attribution_metric(metric)
    if metric.hypothesis_kind == M2 and annotator is None:
        raise InputError(f"metric {metric.display_name} reads hypothesis M2: attributing its edits needs an ERRANT "
                         "annotator for the candidate sentences")
    sources, references = corpus.sources, corpus.references
    # the gold M2 only for a metric that reads it (each candidate's block would be checked again)
    gold = corpus.gold if needs_gold_m2(metric) else None

    def score(rows: list, texts: list) -> np.ndarray:
        if not texts:
            return np.zeros(0)
        unique: dict[tuple[int, str], int] = {}
        order = [unique.setdefault((int(row), text), len(unique)) for row, text in zip(rows, texts)]
        kept_rows = [row for row, _ in unique]
        kept_texts = [text for _, text in unique]
        part = Corpus([sources[r] for r in kept_rows], [[ref[r] for r in kept_rows] for ref in references],
                      {CANDIDATES: kept_texts}, None if gold is None else [gold[r] for r in kept_rows])
        if metric.hypothesis_kind == M2:
            part.add_hypothesis_m2(CANDIDATES, annotator.annotate(part.sources, [kept_texts], keep_empty=True))
        scored = score_corpus([metric], part, jobs=jobs)
        values = independent_sentence_scores(metric, scored.statistics[CANDIDATES][0], column)
        return values[np.asarray(order, dtype=np.int64)]

    return score


ATTRIBUTION_ROWS = 10_000
"""Sentences attributed at a time by :func:`attribute_systems` (their candidates scored in one
engine run): at 10^5 sentences a system's candidates all at once held about 1 GB."""


def attribute_systems(corpus: Corpus, metric: Metric, edits: Mapping[str, Sequence[Sequence[Any]]], *,
                      column: int = 0, methods: Sequence[str] = METHODS,
                      max_exact_edits: int = DEFAULT_MAX_EXACT_EDITS, permutations: int = DEFAULT_PERMUTATIONS,
                      seed: int = 0, normalize: bool = False, over_bound: str = "sample", annotator: Any = None,
                      jobs: int = 1) -> dict[str, list[dict[str, Attribution | None]]]:
    """Every edit of every system (``edits``: system -> per sentence its edits, e.g.
    :func:`hypothesis_edits` of its M2) attributed by every method, under one column of a
    metric with sentence scores; one engine run per system scores all its candidates (each
    distinct sentence once) :data:`ATTRIBUTION_ROWS` sentences at a time (what a part holds
    in candidates stays bounded; a candidate's score and a sentence's seed do not depend on the
    part), and sampled Shapley is seeded by (seed, sentence number).
    Returns system -> per sentence {method: Attribution (None: skipped above the bound)}."""
    if not isinstance(metric, Metric):
        raise InputError(f"not a metric: {metric!r}")
    column = metric.column_index(column)
    names = list(edits)
    if not names:
        raise InputError("no system to attribute")
    size = corpus.size
    for name in names:
        if len(edits[name]) != size:
            raise InputError(f"{name}: {len(edits[name])} lists of edits for {size} sentences")
    scorer = candidate_scorer(metric, corpus, column, annotator, jobs)
    results = {}
    for name in names:  # scoring runs per system: its sentences and seeds do not depend on the others
        results[name] = []
        for first in range(0, size, ATTRIBUTION_ROWS):
            last = min(first + ATTRIBUTION_ROWS, size)
            try:
                results[name] += attribute_corpus_methods(
                    corpus.sources[first:last], edits[name][first:last], scorer, methods,
                    max_exact_edits=max_exact_edits, permutations=permutations, seed=seed, normalize=normalize,
                    over_bound=over_bound, first_row=first)
            except InputError as err:
                raise InputError(f"{name}: {err}") from None
    return results


def attribute_corpus(corpus: Corpus, metric: Any, *, column: Any = 0, spacy_model: str | None = None,
                     annotator: Any = None, cache: Any = None,
                     **options: Any) -> dict[str, list[dict[str, Attribution | None]]]:
    """:func:`attribute_systems` of every text hypothesis of ``corpus`` under ``metric`` (an
    object or a registry text): a system's edits are its M2 in ``corpus.hypothesis_m2``, else
    ERRANT's annotation of its text (``spacy_model``, or ``annotator``), which also annotates
    the candidates of a metric that reads hypothesis M2. ``cache``: the persistent cache of the
    runs (as :func:`~gecmetrics.run.engine.score_files` takes it). ``options``: as
    attribute_systems."""
    from ...metrics.registry import resolve_metrics

    metrics = resolve_metrics([metric] if isinstance(metric, (str, Metric)) else metric)
    if len(metrics) != 1:
        raise InputError(f"attribution takes one metric, got {len(metrics)}")
    metric = metrics[0] if cache is None else metrics[0].with_context(cache)
    check_attribution_metric(metric)
    names = list(corpus.hypotheses)
    if not names:
        raise InputError("no system output to attribute")
    missing = [name for name in names if name not in corpus.hypothesis_m2]
    if (missing or metric.hypothesis_kind == M2) and annotator is None:
        annotator = edit_annotator(spacy_model, metric.run_context)
    blocks = dict(corpus.hypothesis_m2)
    if missing:
        annotated = annotator.annotate_sets(corpus.sources, [[corpus.hypotheses[name]] for name in missing],
                                            keep_empty=True)
        blocks.update(zip(missing, annotated))
    edits = {name: hypothesis_edits(blocks[name]) for name in names}
    return attribute_systems(corpus, metric, edits, column=column, annotator=annotator, **options)


def attribution_tsv_of_systems(results: Mapping[str, Sequence[Mapping[str, Attribution | None]]]) -> str:
    """TSV of :func:`attribute_systems`' results: a header line (``system`` then the columns
    of :data:`~gecmetrics.stats.attribution.TSV_COLUMNS`), then one line per system, sentence
    (1-based), method and edit; floats at full precision, tabs and newlines in text escaped."""
    lines = ["\t".join(("system",) + TSV_COLUMNS)]
    for row in attribution_dicts(results):
        lines.append("\t".join(repr(row[key]) if isinstance(row[key], float) else _cell(str(row[key]))
                               for key in ("system",) + TSV_COLUMNS))
    return "\n".join(lines) + "\n"


def attribution_dicts(results: Mapping[str, Sequence[Mapping[str, Attribution | None]]]) -> list[dict[str, Any]]:
    """The same rows as dicts (``system`` first), for JSON."""
    out = []
    for name, sentences in results.items():
        for number, sentence in enumerate(sentences, start=1):
            for attribution in sentence.values():
                if attribution is not None:
                    out.extend({"system": name, **row} for row in attribution_rows(attribution, number))
    return out


def _cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")
