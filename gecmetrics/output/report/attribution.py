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
  candidates), where the candidates are scored: in a worker, the annotator travels with its
  part as its settings and its spaCy model's name, the model loaded once per worker process
  (:class:`~gecmetrics.core.lang.en.parse.SpacyModel` pickles so). A metric that cannot score
  a candidate sentence on its own (``candidate_refusal``: GoToScorer with ``weights=systems``,
  whose chunk weights come from the systems scored together) is refused;
* each candidate keeps its sentence's place in the whole corpus (``Corpus.rows``), for a metric
  that reads data of each sentence by its place (GoToScorer's weight file, a line per sentence).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterator, Mapping, Sequence

import numpy as np

from ...errors import InputError, LineRefused, kind_of, plural
from ...io.corpus import Corpus
from ...io.m2 import Block
from ...kinds import M2
from ...metrics.base import Metric
from ...metrics.registry import needs_gold_m2
from ...run.engine import ProgressCallback, check_progress, score_corpus
from ...run.executors import check_dask_address, check_jobs, make_executor
from ...run.reading import worker_chunk_size
from ...core.table import ScoreFormat, Table, scaled, scaled_number
from ...stats.attribution import (DEFAULT_MAX_EXACT_EDITS, DEFAULT_PERMUTATIONS, METHODS, TSV_COLUMNS, Attribution,
                                  attribute_corpus_methods, attribution_rows, attribution_signature,
                                  check_attribution_options, distinct_attributions,
                                  refuse_idle_options)
from ..formats import render

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
    """Each sentence's score alone (shape (D,)): each sentence scored as a corpus of one
    sentence (:meth:`~gecmetrics.metrics.base.Metric.alone_matrix`; the metric's sentence
    scores where they do not depend on the other sentences)."""
    metric.require_sentence_scores()
    return np.asarray(metric.alone_matrix(statistics), dtype=np.float64)[column]


def check_attribution_metric(metric: Metric, corpus: Corpus | None = None) -> None:
    """An InputError for a metric whose sentence scores cannot score a candidate sentence, or
    that refuses the size of ``corpus`` when that is a whole corpus (not some sentences of one,
    ``rows`` or ``offset``): no whole corpus is scored here, so the metric is asked
    (:meth:`~gecmetrics.metrics.base.Metric.check_corpus_size`: GoToScorer's weight file); and
    what would stop the metric whatever the input (:meth:`~gecmetrics.metrics.base.Metric.check_ready`:
    an LLM judge's API key)."""
    metric.require_sentence_scores()
    metric.check_ready()
    if metric.candidate_refusal:
        name = metric.label or type(metric).__name__
        raise InputError(f"{name} cannot attribute edits: {metric.candidate_refusal}; choose another metric")
    if corpus is not None and corpus.rows is None and corpus.offset == 0:
        metric.check_corpus_size(corpus.size)


def candidate_scorer(metric: Metric, corpus: Corpus, column: int = 0, annotator: Any = None
                     ) -> Callable[[list, list], np.ndarray]:
    """``score(rows, texts)``: the sentence score of each text as a hypothesis of corpus
    sentence ``rows[k]`` (0-based), by ``metric``'s column ``column``. ``annotator`` (an ERRANT
    :class:`~gecmetrics.metrics.errant.Annotator`) is needed when the metric reads hypothesis M2."""
    check_attribution_metric(metric)
    if metric.hypothesis_kind == M2 and annotator is None:
        raise InputError(f"metric {metric.display_name} reads hypothesis M2: attributing its edits needs an ERRANT "
                         "annotator for the candidate sentences")
    sources, references, places = corpus.sources, corpus.references, corpus.sentence_rows()
    names = dict(corpus.names)  # the files, for FILE:LINE messages (an LLM judge's source line)
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
                      {CANDIDATES: kept_texts}, None if gold is None else [gold[r] for r in kept_rows], names,
                      rows=[places[r] for r in kept_rows])  # each candidate at its sentence's place
        if metric.hypothesis_kind == M2:
            part.add_hypothesis_m2(CANDIDATES, annotator.annotate(part.sources, [kept_texts], keep_empty=True))
        statistics = score_corpus([metric], part).statistics[CANDIDATES][0]
        try:
            values = independent_sentence_scores(metric, statistics, column)
        except LineRefused as err:  # which sentence: the message named none
            raise LineRefused(f"{_refused_sentence(metric, statistics, column, part.sentence_rows())}{err}") from None
        return values[np.asarray(order, dtype=np.int64)]

    return score


def _refused_sentence(metric: Metric, statistics: Any, column: int, places: Sequence[int]) -> str:
    """``sentence N: `` of the first candidate whose score alone the metric refuses (statistics
    whose rows a slice selects, one per candidate: an array, CLEME's), else ``""``."""
    for k in range(len(statistics)):
        try:
            independent_sentence_scores(metric, statistics[k:k + 1], column)
        except LineRefused:
            return f"sentence {places[k] + 1}: "
        except TypeError:  # (statistics of a kind a slice does not select)
            return ""
    return ""


ATTRIBUTION_ROWS = 10_000
"""Sentences attributed at a time by :func:`attribution_parts` (their candidates scored in one
engine run): at 10^5 sentences a system's candidates all at once held about 1 GB."""


@dataclass(frozen=True)
class _Part:
    """One part of one system's attribution: what a worker needs (sentences ``first`` ..
    ``first + corpus.size - 1`` of the whole, without the systems' texts)."""

    name: str
    first: int
    corpus: Corpus
    edits: list
    metric: Metric
    column: int
    options: dict
    annotator: Any
    read: Callable[[list], Any] | None


def _attributed_part(part: _Part) -> Any:
    """The attributions of one part's sentences, numbered from the corpus's start (rows given to
    the scorer, seeds and messages), so that they are those of the whole corpus at once; what
    ``part.read`` makes of them when it is given."""
    scorer = candidate_scorer(part.metric, part.corpus, part.column, part.annotator)
    first = part.first

    def score(rows: list, texts: list) -> np.ndarray:
        return scorer([row - first for row in rows], texts)

    try:
        results = attribute_corpus_methods(part.corpus.sources, part.edits, score, first_row=first, **part.options)
    except InputError as err:
        raise InputError(f"{part.name}: {err}") from None
    return results if part.read is None else part.read(results)


def attribution_parts(corpus: Corpus, metric: Metric, edits: Mapping[str, Sequence[Sequence[Any]]], *,
                      column: int = 0, methods: Sequence[str] = METHODS,
                      max_exact_edits: int = DEFAULT_MAX_EXACT_EDITS, permutations: int = DEFAULT_PERMUTATIONS,
                      seed: int = 0, normalize: bool = False, over_bound: str = "sample", annotator: Any = None,
                      jobs: int = 1, read: Callable[[list], Any] | None = None, chunk_lines: int | None = None,
                      dask: str | None = None, progress: ProgressCallback | None = None
                      ) -> Iterator[tuple[str, int, Any]]:
    """:func:`attribute_systems` a part at a time, in order: (system, the part's first
    sentence, per sentence of the part {method: Attribution}, or what ``read`` (a module-level
    function, run where the part is attributed) makes of that list: a worker then sends back
    only what the caller keeps). A part is ``chunk_lines`` sentences of one system (default
    :data:`ATTRIBUTION_ROWS`); with ``jobs`` other than 1 (0: one per core) worker processes,
    or the workers of the Dask cluster at ``dask`` (``local``: a local one of ``jobs``
    processes; the parts travel with their texts), attribute the parts, cut equal so that the
    workers finish together (:func:`~gecmetrics.run.reading.worker_chunk_size`; a
    ``chunk_lines`` given is kept, lowered only to give every worker two); a metric that reads
    hypothesis M2 has its candidates annotated by ``annotator`` where they are scored (it
    travels with the parts, its spaCy model by name). A part's results are those of the whole
    corpus at once (rows, seeds and messages count from the corpus's start, and a candidate's
    score does not depend on the others scored beside it). ``progress(done, total, system)``
    hears of every part as it is yielded (sentences of all the systems), then ``(done, done,
    "done")``, as the engine's runs call it."""
    if not isinstance(metric, Metric):
        raise InputError(f"not a metric: {metric!r}")
    column = metric.column_index(column)
    names = list(edits)
    if not names:
        raise InputError("no system to attribute")
    size = corpus.size
    for name in names:
        if len(edits[name]) != size:
            raise InputError(f"{name}: {plural(len(edits[name]), 'list of edits', 'lists of edits')} "
                             f"for {plural(size, 'sentence')}")
    check_attribution_metric(metric, corpus)  # the refusals, before any work
    candidate_scorer(metric, corpus, column, annotator)
    check_attribution_options(methods, max_exact_edits, permutations, seed, normalize, over_bound)
    check_progress(progress)
    jobs = _checked_workers(jobs, dask)
    rows = worker_chunk_size(size, jobs, ATTRIBUTION_ROWS if chunk_lines is None else chunk_lines,
                             even=chunk_lines is None)
    options = {"methods": methods, "max_exact_edits": max_exact_edits, "permutations": permutations, "seed": seed,
               "normalize": normalize, "over_bound": over_bound}
    annotator = annotator if metric.hypothesis_kind == M2 else None  # (sent only where it annotates)
    gold = needs_gold_m2(metric)
    spans = [(name, first) for name in names for first in range(0, size, rows)]
    # made as the executor asks for them (at most two per worker ahead)
    parts = (_Part(name, first, corpus.slice(first, min(first + rows, size), hypotheses=False, gold=gold),
                   list(edits[name][first:first + rows]), metric, column, options, annotator, read)
             for name, first in spans)
    # (the arguments are checked above, before the first part)
    return _attributed_in_order(spans, parts, jobs, dask, _PartsDone(progress, rows, size, len(names)))


def _checked_workers(jobs: int, dask: str | None) -> int:
    """``jobs`` checked (the number of worker processes, 0: one per core), and the Dask address."""
    if dask is not None:
        check_dask_address(dask)
    return check_jobs(jobs)


@dataclass
class _PartsDone:
    """The progress of :func:`attribution_parts`: the sentences of every system attributed so far."""

    progress: ProgressCallback | None
    rows: int
    size: int
    systems: int
    done: int = 0

    def part(self, name: str, first: int) -> None:
        self.done += min(self.rows, self.size - first)
        if self.progress is not None:
            self.progress(self.done, self.size * self.systems, name)

    def finish(self) -> None:
        if self.progress is not None:
            self.progress(self.done, self.done, "done")


def _attributed_in_order(spans: list[tuple[str, int]], parts: Iterator[_Part], jobs: int, dask: str | None,
                         done: _PartsDone) -> Iterator[tuple[str, int, Any]]:
    with make_executor(jobs, dask) as executor:
        for (name, first), result in zip(spans, executor.map(_attributed_part, parts)):
            done.part(name, first)
            yield name, first, result
    done.finish()


def attribute_systems(corpus: Corpus, metric: Metric, edits: Mapping[str, Sequence[Sequence[Any]]], *,
                      column: int = 0, methods: Sequence[str] = METHODS,
                      max_exact_edits: int = DEFAULT_MAX_EXACT_EDITS, permutations: int = DEFAULT_PERMUTATIONS,
                      seed: int = 0, normalize: bool = False, over_bound: str = "sample", annotator: Any = None,
                      jobs: int = 1, chunk_lines: int | None = None, dask: str | None = None,
                      progress: ProgressCallback | None = None) -> dict[str, list[dict[str, Attribution | None]]]:
    """Every edit of every system (``edits``: system -> per sentence its edits, e.g.
    :func:`hypothesis_edits` of its M2) attributed by every method, under one column of a
    metric with sentence scores; each part of :data:`ATTRIBUTION_ROWS` sentences of a system
    scores all its candidates in one engine run (each distinct sentence once; what a part holds
    in candidates stays bounded), by ``jobs`` worker processes or a Dask cluster (``dask``;
    parts of ``chunk_lines`` sentences: :func:`attribution_parts`, which calls ``progress``), and
    sampled Shapley is seeded by (seed, sentence number).
    Returns system -> per sentence {method: Attribution (None: skipped above the bound)}."""
    results: dict[str, list[dict[str, Attribution | None]]] = {}
    for name, _, part in attribution_parts(corpus, metric, edits, column=column, methods=methods,
                                           max_exact_edits=max_exact_edits, permutations=permutations, seed=seed,
                                           normalize=normalize, over_bound=over_bound, annotator=annotator,
                                           jobs=jobs, chunk_lines=chunk_lines, dask=dask, progress=progress):
        results.setdefault(name, []).extend(part)
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
    import inspect

    from ...metrics.registry import resolve_metrics

    if not isinstance(corpus, Corpus):  # (an AttributeError on .hypotheses)
        raise InputError(f"attribute_corpus needs a Corpus (read_report_corpus, or gecmetrics.Corpus), got "
                         f"{type(corpus).__name__}")
    known = [name for name in inspect.signature(attribute_systems).parameters
             if name not in ("corpus", "metric", "edits", "column", "annotator")]
    unknown = [name for name in options if name not in known]
    if unknown:  # (a TypeError from attribute_systems, after the systems' annotation)
        raise InputError(f"attribute_corpus has no option {unknown[0]!r}; its options: column, spacy_model, "
                         f"annotator, cache, {', '.join(known)}")
    check_attribution_options(options.get("methods", METHODS))  # (methods=None: a TypeError in the next line)
    refuse_idle_options(options.get("methods", METHODS), options, options.get("over_bound", "sample"))
    metrics = resolve_metrics([metric] if isinstance(metric, (str, Metric)) else metric)
    if len(metrics) != 1:
        raise InputError(f"attribution takes one metric, got {len(metrics)}")
    metric = metrics[0] if cache is None else metrics[0].with_context(cache)
    check_attribution_metric(metric, corpus)
    _checked_workers(options.get("jobs", 1), options.get("dask"))  # (before the systems are annotated)
    check_progress(options.get("progress"))
    names = list(corpus.hypotheses)
    if not names:
        raise InputError("no system output to attribute")
    missing = [name for name in names if name not in corpus.hypothesis_m2]
    annotator = attribution_annotator(corpus, metric, spacy_model, annotator)
    blocks = dict(corpus.hypothesis_m2)
    if missing:
        annotated = annotator.annotate_sets(corpus.sources, [[corpus.hypotheses[name]] for name in missing],
                                            keep_empty=True)
        blocks.update(zip(missing, annotated))
    edits = {name: hypothesis_edits(blocks[name]) for name in names}
    return attribute_systems(corpus, metric, edits, column=column, annotator=annotator, **options)


def systems_without_edits(corpus: Corpus) -> list[str]:
    """The systems of ``corpus`` given without M2 edits (ERRANT annotates them), in order."""
    return [name for name in corpus.hypotheses if name not in corpus.hypothesis_m2]


def attribution_annotator(corpus: Corpus, metric: Metric, spacy_model: str | None = None, annotator: Any = None) -> Any:
    """The ERRANT annotator an attribution of ``corpus``'s systems under ``metric`` needs: the
    ``annotator`` given, else one made (:func:`edit_annotator` with ``spacy_model``, in the
    metric's run context) where a system has no M2 edits or the metric reads hypothesis M2 (its
    candidates are annotated); None where nothing is annotated."""
    if annotator is not None and not callable(getattr(annotator, "annotate_sets", None)):
        raise InputError(f"must be an edit annotator (gecmetrics.core.lang's, as edit_annotator makes it), "
                         f"got {kind_of(annotator)}", "annotator")
    if annotator is None and (systems_without_edits(corpus) or metric.hypothesis_kind == M2):
        annotator = edit_annotator(spacy_model, metric.run_context)
    return annotator


def column_attribution_signature(metric: Metric, column: int, references: int, annotator: Any = None,
                                 systems_annotated: bool = False, **settings: Any) -> Any:
    """The signature of an attribution under ``metric``'s column ``column`` with ``references``
    reference sets (:func:`~gecmetrics.stats.attribution.attribution_signature`, ``settings``
    its): it names the ``annotator``'s spaCy model when, and only when, that annotator made edits
    the attribution reads (another model, other edits, other numbers): the systems' edits
    (``systems_annotated``: some system came without M2 edits) or the candidates' (a metric that
    reads hypothesis M2). What ``attribute --signature`` prints and the report's attribution
    shows for the same rows."""
    named = annotator if systems_annotated or metric.hypothesis_kind == M2 else None
    return attribution_signature(metric.column_signature(column, references), annotator=named, **settings)


def attribution_table(results: Mapping[str, Sequence[Mapping[str, Attribution | None]]],
                      printed: ScoreFormat | None = None, digits: int | None = None, signed: bool = False) -> Table:
    """:func:`attribute_systems`' results as one table: a row per system, sentence (1-based),
    method run and edit (``system`` then the columns of
    :data:`~gecmetrics.stats.attribution.TSV_COLUMNS`). ``printed``: how the metric's scores
    print (:meth:`ScoreFormat.of <gecmetrics.core.table.ScoreFormat.of>` the metric and the
    scale): the numbers times its factor, the headers saying how, the scores (``full_score``,
    ``empty_score``) rounded as its other tables print them, the attributions (differences of
    scores) half up, with ``signed`` (the tables people read: text, Markdown, LaTeX) a ``+``
    before a number that is not negative, as the HTML report's page prints them
    (:meth:`ScoreFormat.signed <gecmetrics.core.table.ScoreFormat.signed>`); None: the numbers as
    they are. ``digits``: decimals (None: full precision).
    Its JSON data is the same rows as dicts (:func:`attribution_dicts`) with the numbers scaled
    (:func:`~gecmetrics.core.table.scaled_number`), at full precision."""
    shown_as = ScoreFormat(1.0, fraction=False) if printed is None else printed
    numbers = ("attribution", "full_score", "empty_score")
    header = ["system", *(shown_as.header(key) if key in numbers else key for key in TSV_COLUMNS)]
    given = attribution_dicts(results)
    data = [{key: scaled_number(value, shown_as.factor) if key in numbers else value for key, value in row.items()}
            for row in given]

    def cell(key: str, value: Any, shown: Any) -> str:  # rounded from the number as computed, as every table
        if not isinstance(value, float):
            return str(value)
        if digits is None:
            return repr(shown)
        if key == "attribution":
            return shown_as.signed(value, digits) if signed else shown_as.derived(value, digits)
        return shown_as.cell(value, digits) if key in numbers else scaled(value, digits, 1.0)

    rows = [[cell(key, row[key], shown[key]) for key in ("system",) + TSV_COLUMNS] for row, shown in zip(given, data)]
    return Table(header, rows, left=(0, 2, 6, 7, 8), data=data)


def _checked_results(results: Any) -> Mapping[str, Sequence[Mapping[str, Attribution | None]]]:
    """``results`` as :func:`attribute_systems` returns them (system -> per sentence {method:
    Attribution or None}); anything else is one InputError (an AttributeError or TypeError inside)."""
    problem = None
    if not isinstance(results, Mapping):
        problem = type(results).__name__
    else:
        for name, sentences in results.items():
            if isinstance(sentences, (str, bytes)) or not isinstance(sentences, Sequence):
                problem = f"{type(sentences).__name__} for system {name!r}"
            elif any(not isinstance(sentence, Mapping) or any(value is not None and not isinstance(value, Attribution)
                                                              for value in sentence.values()) for sentence in sentences):
                problem = f"something other than {{method: Attribution or None}} per sentence for system {name!r}"
            if problem:
                break
    if problem is not None:
        raise InputError(f"expected the results of attribute_corpus or attribute_systems (system -> per sentence "
                         f"{{method: Attribution or None}}), got {problem}", "results")
    return results


def attribution_tsv_of_systems(results: Mapping[str, Sequence[Mapping[str, Attribution | None]]]) -> str:
    """TSV of :func:`attribute_systems`' results (:func:`attribution_table` as they are): a
    header line, then one line per system, sentence, method run and edit; floats at full
    precision, tabs and newlines in text escaped."""
    return render(attribution_table(results), "tsv") + "\n"


def attribution_dicts(results: Mapping[str, Sequence[Mapping[str, Attribution | None]]]) -> list[dict[str, Any]]:
    """The same rows as dicts (``system`` first, ``in_place_of`` last), for JSON: a row per
    method run (:func:`~gecmetrics.stats.attribution.distinct_attributions`: exact Shapley
    sampled in its place beside the sampled Shapley asked for is one run, its rows once)."""
    out = []
    for name, sentences in _checked_results(results).items():
        for number, sentence in enumerate(sentences, start=1):
            for attribution in distinct_attributions(sentence):
                out.extend({"system": name, **row} for row in attribution_rows(attribution, number))
    return out


def over_bound_notes(bound: int, skipped: int = 0, sampled: int = 0, *, label: str | None = None,
                     rule: str = "--over-bound sample", shown: str | None = None) -> list[str]:
    """The stderr lines of what the rows alone do not say (``attribute``'s and ``report``'s):
    ``skipped`` (system, sentence) pairs left out above ``bound`` edits (--over-bound skip), and
    ``sampled`` ones whose exact Shapley was sampled in its place (``rule``: what made it so;
    ``shown``: where it shows, default their sampled-shapley rows); ``label``: the metric, where
    several are attributed."""
    lead = f"{label}: " if label else ""
    notes = []
    if skipped:  # (only --over-bound skip leaves a sentence out: its rows would be missing unsaid)
        notes.append(f"gecmetric: warning: {lead}{plural(skipped, 'sentence')} with more than {bound} edits left out "
                     f"(--over-bound skip): no rows for {'them' if skipped != 1 else 'it'}")
    if sampled:
        where = shown or f"in {'their' if sampled != 1 else 'its'} sampled-shapley rows"
        notes.append(f"gecmetric: note: {lead}{plural(sampled, 'sentence')} with more than {bound} edits: "
                     f"sampled Shapley in exact Shapley's place ({rule}), {where}")
    return notes
