"""From a corpus and metrics to per-sentence statistics and results: the one place where the
protocol's steps are wired together (commands, :func:`~gecmetrics.compare`, paired tests,
meta-evaluation and ``demo`` all call :func:`score_corpus`).

Metrics are grouped by :meth:`~gecmetrics.metrics.protocol.Metric.sharing_key`; each group is prepared
once (e.g. one encoding of the source and references for every n-gram metric with the same
unit), then every hypothesis is given to every metric of every group before the next
hypothesis (the counting core keeps only the latest hypothesis's tables).
"""
from __future__ import annotations

import os
from typing import Any, Callable, Hashable, Iterable, Iterator, Mapping, Sequence

from ..core.aggregate import reducer_threads
from ..io.corpus import Corpus
from ..core.checks import check_count
from ..errors import InputError
from ..metrics.protocol import M2, Metric, Result, compact

ProgressCallback = Callable[[int, int, str], None]
"""Called as ``progress(steps_done, steps_total, what_is_next)``."""


class Scored:
    """Per-sentence statistics of every hypothesis under every metric, and their results.

    ``statistics[name][k]`` is metric k's statistics of hypothesis ``name``; :meth:`result`
    reduces them (once, then kept, on ``jobs`` threads where a reducer can use them).
    ``references``: the number of reference sets; ``encoded_texts``: how many texts the
    counting core encoded.
    """

    def __init__(self, metrics: list[Metric], names: list[str], statistics: dict[str, list[Any]], references: int,
                 encoded_texts: int = 0, jobs: int = 1) -> None:
        self.metrics, self.names, self.statistics = metrics, names, statistics
        self.references, self.encoded_texts, self.jobs = references, encoded_texts, jobs
        self._results: dict[tuple[str, int], Result] = {}

    def result(self, name: str, k: int) -> Result:
        key = (name, k)
        if key not in self._results:
            with reducer_threads(self.jobs):
                self._results[key] = self.metrics[k].score(self.statistics[name][k])
        return self._results[key]

    def results(self) -> dict[str, list[Result]]:
        """Every result: hypothesis name -> one result per metric."""
        return {name: [self.result(name, k) for k in range(len(self.metrics))] for name in self.names}

    def of_metric(self, k: int) -> dict[str, Any]:
        """Metric k's statistics of every hypothesis, in order."""
        return {name: self.statistics[name][k] for name in self.names}


def sharing_groups(metrics: Sequence[Metric]) -> dict[Hashable, list[int]]:
    """Indices of the metrics that share one prepared object, by sharing key (in order)."""
    groups: dict[Hashable, list[int]] = {}
    for k, metric in enumerate(metrics):
        groups.setdefault(metric.sharing_key(), []).append(k)
    return groups


def check_metrics(metrics: Sequence[Any]) -> list[Metric]:
    """Metrics must implement the protocol."""
    metrics = list(metrics)
    if not metrics:
        raise InputError("no metric given")
    for metric in metrics:
        if not isinstance(metric, Metric):
            raise InputError(f"not a metric: {metric!r} (metrics are gecmetrics.Metric objects or registered names)")
    return metrics


def _hypothesis(corpus: Corpus, metric: Metric, name: str) -> Sequence[Any]:
    """Hypothesis ``name`` in the kind the metric reads (text lines or M2 blocks)."""
    return corpus.hypothesis(name, metric.hypothesis_kind, metric.display_name)


DEFAULT_CHUNK_LINES = 2_000
"""Sentences counted together: the pipeline keeps only the per-sentence statistics of finished
chunks, so memory stays near what one chunk needs, whatever the corpus size."""
MAX_CHUNK_LINES = 10_000_000
"""Upper bound of --chunk-lines: more sentences than any corpus (a chunk is held in memory)."""


def chunk_spans(size: int, chunk_lines: int | None = None, jobs: int = 1) -> list[tuple[int, int]]:
    """The (start, end) sentence ranges of the chunks: at most ``chunk_lines`` each, and at
    least ``jobs`` of them when there are enough sentences (so every worker has one)."""
    step = chunk_size(chunk_lines)
    if jobs > 1:
        step = min(step, max(1, -(-size // jobs)))
    return [(start, min(start + step, size)) for start in range(0, size, step)]


def score_corpus(metrics: Sequence[Metric], corpus: Corpus, names: Sequence[str] | None = None,
                 progress: ProgressCallback | None = None, jobs: int = 1, chunk_lines: int | None = None) -> Scored:
    """Statistics of every hypothesis of ``corpus`` (or of ``names``) under every metric.

    The corpus is counted in chunks of sentences (``chunk_lines``; the statistics are
    per-sentence, so the result does not depend on the chunking), in ``jobs`` processes when
    ``jobs`` > 1. ``progress(lines_done, lines_total, what)`` hears of every finished chunk."""
    names = list(corpus.hypotheses) if names is None else list(names)
    jobs = check_jobs(jobs)
    chunks = (corpus.slice(start, end) for start, end in chunk_spans(corpus.size, chunk_lines, jobs))
    return score_chunks(metrics, chunks, names, progress, jobs, total=corpus.size,
                        references=len(corpus.references))


def score_chunks(metrics: Sequence[Metric], chunks: Iterable[Corpus], names: Sequence[str],
                 progress: ProgressCallback | None = None, jobs: int = 1, total: int = 0,
                 references: int | None = None) -> Scored:
    """:func:`score_corpus` of a corpus given as consecutive chunks (e.g. read from files by
    :class:`~gecmetrics.run.reading.CorpusChunks`): the statistics of each chunk are computed
    (in ``jobs`` processes, a few chunks ahead at most) and joined in order."""
    metrics, names = check_metrics(metrics), list(names)
    parts, seen_references = [], [references]
    for _, statistics, texts in chunk_statistics(metrics, chunks, names, progress, jobs, total, seen_references):
        parts.append((statistics, texts))
    return joined(metrics, names, parts, seen_references[0] or 0, check_jobs(jobs))


def joined(metrics: list[Metric], names: list[str], parts: Sequence[tuple[dict[str, list[Any]], int]],
           references: int, jobs: int = 1) -> Scored:
    """The statistics of consecutive chunks (each: by hypothesis name and metric, and the
    texts encoded) joined into one :class:`Scored` run."""
    if not parts:
        raise InputError("the corpus has no sentences (an empty file scores nothing)")
    statistics = {name: [metric.join_statistics([part[0][name][k] for part in parts])
                         for k, metric in enumerate(metrics)] for name in names}
    return Scored(metrics, names, statistics, references, sum(part[1] for part in parts), jobs)


def chunk_statistics(metrics: Sequence[Metric], chunks: Iterable[Corpus], names: Sequence[str],
                     progress: ProgressCallback | None = None, jobs: int = 1, total: int = 0,
                     seen_references: list[int | None] | None = None) -> Iterator[tuple[Corpus, dict[str, list[Any]], int]]:
    """Per chunk, in order: (the chunk, its statistics by hypothesis name and metric, the texts
    the counting core encoded). For output that streams (sentence scores of huge corpora)."""
    metrics, names = check_metrics(metrics), list(names)
    report = _Progress(progress, total * len(names))
    checked = _checked(chunks, metrics, names, seen_references if seen_references is not None else [None])
    for chunk, (statistics, texts) in _chunk_statistics(metrics, checked, names, check_jobs(jobs)):
        yield chunk, statistics, texts
        report.add(chunk.size * len(names), names[-1] if names else "")
    report.finish()


def check_jobs(jobs: int) -> int:
    """Worker processes: an integer >= 1, or 0 for one per core."""
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 0:
        raise InputError(f"the number of processes must be an integer >= 0 (0: one per core), got {jobs!r}")
    return jobs or (os.cpu_count() or 1)


def chunk_size(chunk_lines: int | None) -> int:
    """Sentences per chunk: ``chunk_lines`` checked, or the default."""
    if chunk_lines is None:
        return DEFAULT_CHUNK_LINES
    return check_count(chunk_lines, "the chunk size (--chunk-lines N)", 1, MAX_CHUNK_LINES,
                       "gecmetrics.run.engine.MAX_CHUNK_LINES")


def _checked(chunks: Iterable[Corpus], metrics: list[Metric], names: list[str],
             seen_references: list[int | None]) -> Iterator[Corpus]:
    """The chunks, each checked to hold every named hypothesis in the metrics' kind."""
    for chunk in chunks:
        for name in names:
            if name not in chunk.hypotheses:
                raise InputError(f"no hypothesis named {name!r}")
            for metric in metrics:
                _hypothesis(chunk, metric, name)
        seen_references[0] = len(chunk.references)
        yield chunk


def _chunk_statistics(metrics: list[Metric], chunks: Iterator[Corpus], names: list[str],
                      jobs: int) -> Iterator[tuple[Corpus, tuple[dict[str, list[Any]], int]]]:
    """(chunk, its statistics) in order: here, or in worker processes with at most two chunks
    per worker read ahead (memory stays bounded whatever the corpus size)."""
    if jobs == 1:
        for chunk in chunks:
            yield chunk, score_chunk((metrics, chunk, names))
        return
    for (_, chunk, _), result in in_pool(score_chunk, ((metrics, chunk, names) for chunk in chunks), jobs):
        yield chunk, result


def in_pool(function: Callable[[Any], Any], tasks: Iterable[Any], jobs: int) -> Iterator[tuple[Any, Any]]:
    """(task, ``function(task)``) in the tasks' order, computed in ``jobs`` worker processes with
    at most two tasks per worker submitted ahead (memory stays bounded whatever the corpus size).
    A worker that dies is one InputError."""
    from collections import deque
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    pending: deque = deque()
    try:
        with ProcessPoolExecutor(jobs) as pool:
            for task in tasks:
                pending.append((task, pool.submit(function, task)))
                while len(pending) > 2 * jobs or (pending and pending[0][1].done()):
                    task_done, future = pending.popleft()
                    yield task_done, future.result()
            while pending:
                task_done, future = pending.popleft()
                yield task_done, future.result()
    except BrokenProcessPool:
        raise InputError("a worker process died (out of memory?); run with fewer processes (-p) or smaller "
                         "chunks (--chunk-lines)") from None


class _Progress:
    """Lines done so far, passed on to a progress callback (``total`` 0: unknown)."""

    def __init__(self, callback: ProgressCallback | None, total: int) -> None:
        self.callback, self.total, self.done = callback, total, 0

    def add(self, lines: int, what: str) -> None:
        self.done += lines
        if self.callback is not None and (not self.total or self.done < self.total):
            self.callback(self.done, self.total, what)

    def finish(self) -> None:
        if self.callback is not None:
            self.callback(self.done, self.done, "done")


def score_chunk(task: tuple[list[Metric], Corpus, list[str]]) -> tuple[dict[str, list[Any]], int]:
    """One chunk (metrics, corpus, hypothesis names): each group of metrics prepared once,
    then every hypothesis and metric; returns the statistics and the texts encoded."""
    metrics, corpus, names = task
    groups = sharing_groups(metrics)
    prepared = {key: metrics[indices[0]].prepare(corpus, [metrics[k] for k in indices[1:]])
                for key, indices in groups.items()}
    statistics: dict[str, list[Any]] = {name: [None] * len(metrics) for name in names}
    for name in names:
        for key, indices in groups.items():
            for k in indices:
                # compacted per chunk: a large corpus's chunks wait for the join in 32 bits
                rows = metrics[k].statistics(prepared[key], _hypothesis(corpus, metrics[k], name))
                statistics[name][k] = compact(rows)
    return statistics, sum(metrics[indices[0]].texts_encoded(prepared[key]) for key, indices in groups.items())


def corpus_for(metrics: Sequence[Metric], sources: Sequence[str] | None, references: Any,
               hypotheses: Mapping[str, Sequence[Any]]) -> Corpus:
    """A corpus from plain Python values for metrics of one reference kind: ``references`` are
    reference sets (text metrics) or gold M2 blocks (the M2 family; ``sources`` may then be
    None: they are the blocks' sources)."""
    kinds = {metric.reference_kind for metric in metrics}
    if kinds == {M2}:
        return Corpus(None if sources is None else list(sources), [], dict(hypotheses), list(references))
    if M2 in kinds:
        raise InputError("metrics with text references and metrics with M2 references need a Corpus holding both")
    return Corpus(sources, references, dict(hypotheses))
