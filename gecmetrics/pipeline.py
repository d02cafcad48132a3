"""From a corpus and metrics to per-sentence statistics and results: the one place where the
protocol's steps are wired together (commands, :func:`~gecmetrics.compare`, paired tests,
meta-evaluation and ``demo`` all call :func:`score_corpus`).

Metrics are grouped by :meth:`~gecmetrics.metric.Metric.sharing_key`; each group is prepared
once (e.g. one encoding of the source and references for every n-gram metric with the same
unit), then every hypothesis is given to every metric of every group before the next
hypothesis (the counting core keeps only the latest hypothesis's tables).
"""
from __future__ import annotations

from typing import Any, Callable, Hashable, Mapping, Sequence

from .corpus import Corpus
from .errors import InputError
from .metric import M2, TEXT, Metric, Result

ProgressCallback = Callable[[int, int, str], None]
"""Called as ``progress(steps_done, steps_total, what_is_next)``."""


class Scored:
    """Per-sentence statistics of every hypothesis under every metric, and their results.

    ``statistics[name][k]`` is metric k's statistics of hypothesis ``name``; :meth:`result`
    reduces them (once, then kept). ``references``: the number of reference sets;
    ``encoded_texts``: how many texts the counting core encoded.
    """

    def __init__(self, metrics: list[Metric], names: list[str], statistics: dict[str, list[Any]], references: int,
                 encoded_texts: int = 0) -> None:
        self.metrics, self.names, self.statistics = metrics, names, statistics
        self.references, self.encoded_texts = references, encoded_texts
        self._results: dict[tuple[str, int], Result] = {}

    def result(self, name: str, k: int) -> Result:
        key = (name, k)
        if key not in self._results:
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


def _check_kind(metric: Metric, name: str, hypothesis: Sequence[Any]) -> None:
    is_text = not hypothesis or isinstance(hypothesis[0], str)
    if is_text != (metric.hypothesis_kind == TEXT):
        wanted = "lines of text" if metric.hypothesis_kind == TEXT else "M2 blocks"
        raise InputError(f"metric {metric.name or type(metric).__name__} reads hypotheses as {wanted}", name)


DEFAULT_CHUNK_LINES = 20_000
"""Sentences counted together: the pipeline keeps only the per-sentence statistics of finished
chunks, so memory stays near what one chunk needs, whatever the corpus size."""


def chunk_spans(size: int, chunk_lines: int | None = None, jobs: int = 1) -> list[tuple[int, int]]:
    """The (start, end) sentence ranges of the chunks: at most ``chunk_lines`` each, and at
    least ``jobs`` of them when there are enough sentences (so every worker has one)."""
    if chunk_lines is not None and (isinstance(chunk_lines, bool) or not isinstance(chunk_lines, int)
                                    or chunk_lines < 1):
        raise InputError(f"the chunk size must be an integer >= 1, got {chunk_lines!r}")
    step = chunk_lines or DEFAULT_CHUNK_LINES
    if jobs > 1:
        step = min(step, max(1, -(-size // jobs)))
    return [(start, min(start + step, size)) for start in range(0, size, step)]


def score_corpus(metrics: Sequence[Metric], corpus: Corpus, names: Sequence[str] | None = None,
                 progress: ProgressCallback | None = None, jobs: int = 1, chunk_lines: int | None = None) -> Scored:
    """Statistics of every hypothesis of ``corpus`` (or of ``names``) under every metric.

    The corpus is counted in chunks of sentences (``chunk_lines``; the statistics are
    per-sentence, so the result does not depend on the chunking), in ``jobs`` processes when
    ``jobs`` > 1. ``progress(lines_done, lines_total, what)`` hears of every finished chunk."""
    metrics = check_metrics(metrics)
    names = list(corpus.hypotheses) if names is None else list(names)
    for name in names:
        if name not in corpus.hypotheses:
            raise InputError(f"no hypothesis named {name!r}")
        for metric in metrics:
            _check_kind(metric, name, corpus.hypotheses[name])
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise InputError(f"the number of processes must be an integer >= 1, got {jobs!r}")
    spans = chunk_spans(corpus.size, chunk_lines, jobs)
    tasks = [(metrics, corpus.slice(start, end), names) for start, end in spans]
    report = _Progress(progress, corpus.size * len(names))
    if jobs > 1 and len(tasks) > 1:
        parts = _in_processes(tasks, jobs, report)
    else:
        parts = []
        for task in tasks:
            parts.append(_score_chunk(task))
            report.add(task[1].size * len(names), names[-1] if names else "")
    report.finish()
    statistics = {name: [metric.join_statistics([part[0][name][k] for part in parts])
                         for k, metric in enumerate(metrics)] for name in names}
    return Scored(metrics, names, statistics, len(corpus.references), sum(part[1] for part in parts))


class _Progress:
    """Lines done so far, passed on to a progress callback."""

    def __init__(self, callback: ProgressCallback | None, total: int) -> None:
        self.callback, self.total, self.done = callback, total, 0

    def add(self, lines: int, what: str) -> None:
        self.done += lines
        if self.callback is not None and self.done < self.total:
            self.callback(self.done, self.total, what)

    def finish(self) -> None:
        if self.callback is not None:
            self.callback(self.total, self.total, "done")


def _score_chunk(task: tuple[list[Metric], Corpus, list[str]]) -> tuple[dict[str, list[Any]], int]:
    """One chunk: each group of metrics prepared once, then every hypothesis and metric."""
    metrics, corpus, names = task
    groups = sharing_groups(metrics)
    prepared = {key: metrics[indices[0]].prepare(corpus, [metrics[k] for k in indices[1:]])
                for key, indices in groups.items()}
    statistics: dict[str, list[Any]] = {name: [None] * len(metrics) for name in names}
    for name in names:
        for key, indices in groups.items():
            for k in indices:
                statistics[name][k] = metrics[k].statistics(prepared[key], corpus.hypotheses[name])
    return statistics, _encoded_texts(prepared.values())


def _in_processes(tasks: list, jobs: int, report: _Progress) -> list:
    """The chunks in ``jobs`` worker processes, in order; a worker that dies is an error."""
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    try:
        with ProcessPoolExecutor(min(jobs, len(tasks))) as pool:
            futures = [pool.submit(_score_chunk, task) for task in tasks]
            parts = []
            for task, future in zip(tasks, futures):
                parts.append(future.result())
                report.add(task[1].size * len(task[2]), "")
            return parts
    except BrokenProcessPool:
        raise InputError("a worker process died (out of memory?); run with fewer processes (-p) or smaller "
                         "chunks") from None


def _encoded_texts(prepared: Any) -> int:
    from .ngrams import EncodedCorpus

    return sum(p.encoder.calls for p in prepared if isinstance(p, EncodedCorpus))


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
