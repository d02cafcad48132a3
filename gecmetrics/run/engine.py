"""The run engine: metrics, a corpus (files or Python lists) and an executor in; per-sentence
statistics and results out. Every command, :func:`~gecmetrics.compare`, paired tests and
meta-evaluation run through it; it never asks which metric it runs.

* :func:`score_files` reads files in chunks: with a :class:`~gecmetrics.run.executors.Executor`
  of several workers, each worker reads its own byte ranges (:mod:`gecmetrics.run.chunks`);
  files that cannot be split (standard input, pipes) or that hold bad input go through the
  serial reader (:mod:`gecmetrics.run.reading`), which names the file and line.
* :func:`score_corpus` does the same for a corpus in memory.
* :func:`scored_chunks` gives the statistics chunk by chunk, in order, for output that
  streams (sentence scores of a large corpus); :func:`map_chunks` maps any function over the
  chunks (``m2 annotate``).

In every chunk, metrics are grouped by :meth:`~gecmetrics.metrics.base.Metric.sharing_key`;
each group is prepared once (one encoding of the references for every n-gram metric of a unit,
one annotation for every ERRANT setting), then every hypothesis is given to every metric
(:func:`~gecmetrics.metrics.running.chunk_statistics`, the step
:meth:`~gecmetrics.metrics.base.Metric.corpus_score` runs on a whole corpus too). The
statistics are per sentence, so the numbers never depend on the chunking or the executor.
"""
from __future__ import annotations

import dataclasses
import numbers
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Mapping, Sequence

from ..core.aggregate import reducer_threads
from ..core.checks import check_progress
from ..core.stop import check as check_stop
from ..core.units import TextChecks
from ..errors import InputError, shown, warn_notes
from ..io.corpus import Corpus
from ..io.text import check_sequence
from ..metrics.base import Metric
from ..metrics.results import Result
from ..metrics.running import (check_observations, chunk_statistics, corpus_text_names, corpus_texts, python_corpus,
                               text_checks)
from .executors import Executor, SerialExecutor, check_jobs, make_executor
from .files import CorpusFiles, check_unchanged, count_sentences, file_states
from .reading import DEFAULT_CHUNK_LINES, CorpusChunks, chunk_size, worker_chunk_size

if TYPE_CHECKING:
    from ..core.context import CacheSetting

ProgressCallback = Callable[[int, int, str], None]
"""Called as ``progress(steps_done, steps_total, what_is_next)`` (total 0: unknown)."""

__all__ = ["DEFAULT_CHUNK_LINES", "ProgressCallback", "Scored", "ScoredChunk", "check_jobs", "check_metrics",
           "check_progress", "chunk_size", "corpus_for", "map_chunks", "score_corpus", "score_files", "scored_chunks"]


class Scored:
    """Per-sentence statistics of every hypothesis under every metric, and their results.

    ``statistics[name][k]`` is metric k's statistics of hypothesis ``name``; :meth:`result`
    reduces them (once, then kept, on ``jobs`` threads where a reducer can use them).
    ``references``: the number of reference sets; ``encoded_texts``: how many texts the
    counting core encoded; ``checks``: the whitespace and order observations of the texts
    (:meth:`warnings`).
    """

    def __init__(self, metrics: list[Metric], names: list[str], statistics: dict[str, list[Any]], references: int,
                 encoded_texts: int = 0, jobs: int = 1, checks: TextChecks | None = None) -> None:
        self.metrics, self.names, self.statistics = metrics, names, statistics
        self.references, self.encoded_texts, self.jobs = references, encoded_texts, jobs
        self.checks = checks
        self._results: dict[tuple[str, int], Result] = {}

    def result(self, name: str, k: int) -> Result:
        """The result of hypothesis ``name`` under metric ``k`` (its index in the run's metrics)."""
        if not isinstance(name, str) or name not in self.statistics:
            raise InputError(f"no hypothesis {name!r} was scored (scored: {', '.join(map(repr, self.names))})", "name")
        k = self._check_index(k)
        key = (name, k)
        if key not in self._results:
            with reducer_threads(self.jobs):
                self._results[key] = self.metrics[k].score_of(name, self.statistics[name][k], self.references)
        return self._results[key]

    def results(self) -> dict[str, list[Result]]:
        """Every result: hypothesis name -> one result per metric."""
        return {name: [self.result(name, k) for k in range(len(self.metrics))] for name in self.names}

    def _check_index(self, k: Any) -> int:
        """``k`` as a Python int (a NumPy integer too, as everywhere else: it was refused)."""
        if isinstance(k, bool) or not isinstance(k, numbers.Integral) or not 0 <= k < len(self.metrics):
            raise InputError(f"metric index must be an integer from 0 to {len(self.metrics) - 1}, got {shown(k)}",
                             "k")
        return int(k)

    def of_metric(self, k: int) -> dict[str, Any]:
        """Metric k's statistics of every hypothesis, in order."""
        k = self._check_index(k)
        return {name: self.statistics[name][k] for name in self.names}

    def warnings(self) -> list[str]:
        """Lines about the input worth a user's attention (whitespace in char mode, sentences
        shorter than the n-gram order) and the metrics' notes, as the command line prints them
        (``gecmetric: warning: ...``; :func:`~gecmetrics.errors.note_text`: a line's text)."""
        return self.checks.warnings() if self.checks is not None else []

    def issued(self) -> "Scored":
        """This run, its :meth:`warnings` issued as :class:`~gecmetrics.errors.InputNote`
        warnings: what a public function that scores through the engine and returns something
        else (``compare``, ``paired_test``, meta-evaluation) does with them."""
        warn_notes(self.warnings())
        return self


@dataclass
class ScoredChunk:
    """One chunk's statistics (``statistics[name][k]``), where it lies (``offset``, ``size``)
    and how to read its texts again (:meth:`corpus`)."""

    offset: int
    size: int
    statistics: dict[str, list[Any]]
    texts_encoded: int
    references: int
    source: Any

    def corpus(self) -> Corpus:
        """The chunk's texts (read again from the files when a worker read them)."""
        return self.source if isinstance(self.source, Corpus) else self.source.read()


def check_metrics(metrics: Sequence[Any]) -> list[Metric]:
    """Metrics must implement the protocol."""
    if isinstance(metrics, Metric):
        metrics = [metrics]
    metrics = list(metrics)
    if not metrics:
        raise InputError("no metric given")
    for metric in metrics:
        if not isinstance(metric, Metric):
            raise InputError(f"not a metric: {metric!r} (metrics are gecmetrics.Metric objects or registered names)")
    return metrics


def run_context_of(metrics: Sequence[Metric], cache: CacheSetting = None) -> Any:
    """The one context of a run: made from ``cache`` when it is given, else the context the
    metrics were bound to (:meth:`~gecmetrics.metrics.base.Metric.with_context`: the command
    line binds its metrics to the command's), else the default one (``$GECMETRICS_CACHE``, else
    the user cache folder)."""
    from ..core.context import run_context  # the cache's module only when a run starts

    if cache is not None:
        return run_context(cache)
    bound = list({id(c): c for m in metrics if (c := m.bound_context) is not None}.values())
    if len(bound) > 1:
        raise InputError("the metrics of one run are bound to different caches (with_context): give the run's "
                         "cache= instead")
    return bound[0] if bound else run_context()


# ----------------------------------------------------------------------------- one chunk


@dataclass
class _Task:
    """What a worker needs for one chunk: the metrics, the chunk (byte ranges to read, or a
    Corpus), the hypotheses to score and the text checks to make."""

    metrics: list[Metric]
    source: Any
    names: list[str]
    check_settings: list[tuple[str, bool, int, bool]]
    shown: list[str]


@dataclass
class _Outcome:
    statistics: dict[str, list[Any]]
    texts_encoded: int
    size: int
    references: int
    checks: TextChecks
    observations: dict[int, Any]
    """Each metric's observation of the chunk (k -> value: :meth:`Metric.observation`)."""


def _check_chunk(chunk: Corpus, metrics: list[Metric], names: list[str]) -> None:
    """The chunk holds every named hypothesis in the kind each metric reads."""
    for name in names:
        if name not in chunk.hypotheses:
            raise InputError(f"no hypothesis named {name!r}")
        for metric in metrics:
            chunk.hypothesis(name, metric.hypothesis_kind, metric.display_name)


def _run_task(task: _Task) -> _Outcome | None:
    """A worker's whole job for one chunk: read it (byte ranges), check it, count it. None when
    a byte range holds bad input (the serial reader then says how)."""
    from .chunks import FileChunk, Misread

    try:
        corpus = task.source.read() if isinstance(task.source, FileChunk) else task.source
        _check_chunk(corpus, task.metrics, task.names)
    except (InputError, Misread):
        if isinstance(task.source, FileChunk):
            return None
        raise
    observations: dict[int, Any] = {}
    statistics, texts = chunk_statistics(task.metrics, corpus, task.names, observations)
    checks = TextChecks(task.check_settings)
    checks.observe(list(zip(task.shown, _texts_of(corpus, task))))
    return _Outcome(statistics, texts, corpus.size, len(corpus.references), checks, observations)


def _texts_of(corpus: Corpus, task: _Task) -> list[Sequence[str]]:
    """The chunk's text files in the order of ``task.shown`` (source, references, text hypotheses)."""
    return corpus_texts(corpus)[-len(task.shown):] if task.shown else []


def _merge_checks(checks: TextChecks, chunk: TextChecks) -> None:
    for key, count in chunk.counts.items():
        checks.counts[key] = checks.counts.get(key, 0) + count
    for key, size in chunk.longest.items():
        checks.longest[key] = max(checks.longest.get(key, 0), size)


# ----------------------------------------------------------------------------- runs


class _Run:
    """One run's bookkeeping: the executor, the progress, the text checks."""

    def __init__(self, metrics: Sequence[Any], names: Sequence[str], executor: Executor | None, jobs: int,
                 dask: str | None, progress: ProgressCallback | None, cache: CacheSetting = None) -> None:
        metrics = check_metrics(metrics)
        check_progress(progress)
        self.context = run_context_of(metrics, cache)
        # the metrics run bound to the run's context: prepare hands its cache to the producers,
        # signatures say cache:on from it, and workers get it with every task (pickled as its folder)
        self.metrics = [metric.with_context(self.context) for metric in metrics]
        self.names = list(names)
        if executor is not None and not isinstance(executor, Executor):
            raise InputError(f"executor must be None or an Executor (gecmetrics.run.executors: ProcessExecutor(2), "
                             f"...), got {type(executor).__name__}")
        self.own_executor = executor is None
        self.executor = executor if executor is not None else make_executor(jobs, dask)
        self.progress = progress
        self.checks = text_checks(self.metrics)
        self.done = 0
        preferred = [m.chunk_lines for m in self.metrics if getattr(m, "chunk_lines", None)]
        self.chunk_lines = min(preferred) if preferred else None
        """The metrics' preferred chunk size, used when the run is not given one."""

    def tick(self, lines: int, total: int) -> None:
        self.done += lines * len(self.names)
        if self.progress is not None:
            self.progress(self.done, total * len(self.names), self.names[-1] if self.names else "")

    def finish(self) -> None:
        if self.progress is not None:
            self.progress(self.done, self.done, "done")
        if self.own_executor:
            self.executor.close()

    def task(self, source: Any, shown: list[str]) -> _Task:
        return _Task(self.metrics, source, self.names, self.checks.settings, shown)


def _mapped(executor: Executor, function: Callable[[Any], Any], sources: Iterable[Any],
            make_task: Callable[[Any], Any]) -> Iterator[tuple[Any, Any]]:
    """(source, ``function(make_task(source))``) of every chunk source, in order, computed by
    ``executor`` (the sources are kept here: only the results come back from the workers)."""
    pending: deque = deque()

    def tasks() -> Iterator[Any]:
        for source in sources:
            pending.append(source)
            yield make_task(source)

    for result in executor.map(function, tasks()):
        check_stop()  # (a stop whose exception a library swallowed: spaCy's import of torch)
        yield pending.popleft(), result


def _chunk_results(executor: Executor, function: Callable[[Any], Any], files: CorpusFiles,
                   chunk_lines: int | None, make_task: Callable[[Any], Any]) -> Iterator[tuple[Any, Any]]:
    """(chunk source, result) of every chunk of the files, in order (:func:`_read_chunks`); a
    file written to or replaced while its chunks were read is an InputError once they are."""
    states = file_states(files)
    yield from _read_chunks(executor, function, files, chunk_lines, make_task)
    check_unchanged(states)


def _read_chunks(executor: Executor, function: Callable[[Any], Any], files: CorpusFiles,
                 chunk_lines: int | None, make_task: Callable[[Any], Any]) -> Iterator[tuple[Any, Any]]:
    """(chunk source, result) of every chunk of the files, in order: byte ranges read by the
    workers where the files allow it (a result of None: the range holds bad input); the serial
    reader for the rest, and from the first chunk a worker found bad on (it reports the error
    exactly as always, or goes on where the index misread a line)."""
    chunks = None
    if not isinstance(executor, SerialExecutor):  # byte ranges are for workers to read
        from .chunks import index_files

        chunks = index_files(files, chunk_lines)
    done = 0
    if chunks:
        for chunk, result in _mapped(executor, function, chunks, make_task):
            if result is None:
                break
            done += 1
            yield chunk, result
        else:
            return
    serial = (corpus for k, corpus in enumerate(CorpusChunks(files, chunk_lines)) if k >= done)
    yield from _mapped(executor, function, serial, make_task)


def _file_outcomes(run: _Run, files: CorpusFiles, chunk_lines: int | None) -> Iterator[tuple[Any, _Outcome]]:
    """(chunk source, outcome) of every chunk of the files, in order (see :func:`_chunk_results`),
    read as the run's metrics read them (:func:`_read_as`)."""
    files = _read_as(run, files)
    chunk_lines = _parallel_chunk_lines(files, run.executor, run.chunk_lines if chunk_lines is None else chunk_lines,
                                        even=chunk_lines is None)
    shown = files.shown_texts
    total = _sentences_of(files, run.progress)
    for source, outcome in _chunk_results(run.executor, _run_task, files, chunk_lines,
                                          lambda source: run.task(source, shown)):
        run.tick(outcome.size, total)
        yield source, outcome


def _parallel_chunk_lines(files: CorpusFiles, executor: Executor, chunk_lines: int | None,
                          even: bool = True) -> int | None:
    """Chunks for every worker to get some (``chunk_lines`` in one process); ``even``: unless the
    caller gave the size (:func:`~.reading.worker_chunk_size`)."""
    if executor.jobs <= 1:
        return chunk_lines
    from .chunks import parallel_chunk_lines

    return parallel_chunk_lines(files, executor.jobs, chunk_lines, even)


def _sentences_of(files: CorpusFiles, progress: ProgressCallback | None) -> int:
    """The corpus's sentences, for a progress display that shows them (0: not counted)."""
    if progress is None or not getattr(progress, "enabled", True):
        return 0
    return count_sentences(files) or 0


def _corpus_outcomes(run: _Run, corpus: Corpus, chunk_lines: int | None) -> Iterator[tuple[Any, _Outcome]]:
    """(chunk, outcome) of a corpus in memory, in chunks of sentences."""
    step = worker_chunk_size(corpus.size, run.executor.jobs, run.chunk_lines if chunk_lines is None else chunk_lines,
                             even=chunk_lines is None)
    chunks = (corpus.slice(start, min(start + step, corpus.size)) for start in range(0, corpus.size, step))
    # the texts named as the warnings name them: without names no chunk would be observed, and the
    # order warning said "at most 0 words" of every corpus in memory
    shown = corpus_text_names(corpus)
    yield from _chunk_outcomes(run, chunks, corpus.size, lambda chunk: shown)


def _chunk_outcomes(run: _Run, chunks: Iterable[Corpus], total: int,
                    shown: Callable[[Corpus], list[str]] = corpus_text_names) -> Iterator[tuple[Any, _Outcome]]:
    """(chunk, outcome) of chunks in memory, in order (``total``: the corpus's sentences, 0 when
    not known before the last chunk)."""
    for chunk, outcome in _mapped(run.executor, _run_task, chunks, lambda source: run.task(source, shown(source))):
        run.tick(outcome.size, total)
        yield chunk, outcome


def _joined(run: _Run, outcomes: Iterable[tuple[Any, _Outcome]], references: int | None = None) -> Scored:
    """The statistics of consecutive chunks joined into one :class:`Scored` run."""
    parts, seen_references = [], references
    for _, outcome in outcomes:
        parts.append(outcome)
        _merge_checks(run.checks, outcome.checks)
        seen_references = outcome.references
    if not parts:
        raise InputError("the corpus has no sentences (an empty file scores nothing)")
    run.checks.notes += check_observations(run.metrics, [part.observations for part in parts])
    statistics = {name: [metric.join_statistics([part.statistics[name][k] for part in parts])
                         for k, metric in enumerate(run.metrics)] for name in run.names}
    return Scored(run.metrics, run.names, statistics, seen_references or 0, sum(p.texts_encoded for p in parts),
                  run.executor.jobs, run.checks)


def score_files(metrics: Sequence[Any], files: CorpusFiles, *, executor: Executor | None = None, jobs: int = 1,
                dask: str | None = None, chunk_lines: int | None = None,
                progress: ProgressCallback | None = None, cache: CacheSetting = None) -> Scored:
    """Every metric's statistics of every hypothesis of ``files``, counted chunk by chunk by
    ``executor`` (default: made from ``jobs`` worker processes, 0 = one per core, or a Dask
    cluster at ``dask``; closed at the end), joined in order. ``cache``: the run's persistent
    cache (:func:`~gecmetrics.core.context.run_context`: False for none, a folder, a ``Cache`` or
    a ``RunContext``; None: the one the metrics are bound to, else ``$GECMETRICS_CACHE`` or the
    user cache folder, see :func:`run_context_of`); every worker uses the same folder.

    >>> scored = score_files(["gleu", "green"], CorpusFiles("INPUT", ("REF0", "REF1"), ("AMU", "CAMB")), jobs=2)
    >>> scored.result("AMU", 0).score
    """
    from ..metrics.registry import resolve_metrics

    if not isinstance(files, CorpusFiles):
        raise InputError(f"score_files needs a CorpusFiles (the paths of a corpus), got {type(files).__name__}; "
                         "a corpus in memory is score_corpus's")
    run = _Run(resolve_metrics(metrics), files.hypothesis_names, executor, jobs, dask, progress, cache)
    try:
        return _joined(run, _file_outcomes(run, files, chunk_lines), len(files.references))
    finally:
        run.finish()


def _read_as(run: _Run, files: CorpusFiles) -> CorpusFiles:
    """The files as the run's metrics read them: M2 with ChERRANT's target lines where a metric
    reads ChERRANT's M2 (``m2_target_lines``)."""
    if not files.target_lines and any(getattr(metric, "m2_target_lines", False) for metric in run.metrics):
        return dataclasses.replace(files, target_lines=True)
    return files


def score_corpus(metrics: Sequence[Any], corpus: Corpus, names: Sequence[str] | None = None, *,
                 executor: Executor | None = None, jobs: int = 1, dask: str | None = None,
                 chunk_lines: int | None = None, progress: ProgressCallback | None = None,
                 cache: CacheSetting = None) -> Scored:
    """Statistics of every hypothesis of a corpus in memory (or of ``names``) under every
    metric, counted in chunks of sentences (``chunk_lines``) by ``executor`` (or ``jobs``
    worker processes, or a Dask cluster at ``dask``, as :func:`score_files`); ``cache`` as in
    :func:`score_files`."""
    from ..metrics.registry import resolve_metrics

    if not isinstance(corpus, Corpus):
        raise InputError(f"score_corpus needs a Corpus, got {type(corpus).__name__}")
    names = _hypothesis_names(names, corpus)
    if names != list(corpus.hypotheses):  # a metric that reads the systems together (GoToScorer's weights) sees these
        corpus = corpus.keeping(names)
    run = _Run(resolve_metrics(metrics), names, executor, jobs, dask, progress, cache)
    try:
        return _joined(run, _corpus_outcomes(run, corpus, chunk_lines), len(corpus.references))
    finally:
        run.finish()


def score_chunks(metrics: Sequence[Any], chunks: Iterable[Corpus], names: Sequence[str], *,
                 executor: Executor | None = None, jobs: int = 1, dask: str | None = None,
                 progress: ProgressCallback | None = None, cache: CacheSetting = None) -> Scored:
    """Statistics of a corpus made chunk by chunk as it is read (each chunk a :class:`Corpus`
    holding the hypotheses ``names``, its ``offset`` the sentences before it), for a corpus
    that is never whole in memory: ``cherrant score`` annotates its para files a batch of lines
    at a time. Chunks are taken as the workers need them; an error the chunks raise (after the
    last one: files of different lengths) ends the run. As :func:`score_corpus` otherwise."""
    from ..metrics.registry import resolve_metrics

    run = _Run(resolve_metrics(metrics), check_sequence(names, "names", "hypothesis names"), executor, jobs, dask,
               progress, cache)
    try:
        return _joined(run, _chunk_outcomes(run, _checked_chunks(chunks), 0))
    finally:
        run.finish()


def _checked_chunks(chunks: Iterable[Any]) -> Iterator[Corpus]:
    for chunk in chunks:
        if not isinstance(chunk, Corpus):
            raise InputError(f"score_chunks needs chunks that are each a Corpus, got {type(chunk).__name__}")
        yield chunk


def _hypothesis_names(names: Any, corpus: Corpus) -> list[str]:
    """The corpus's hypotheses named by ``names`` (None: all of them), each one of them."""
    if names is None:
        return list(corpus.hypotheses)
    given = check_sequence(names, "names", "hypothesis names", ordered=False)
    for name in given:
        if not isinstance(name, str) or name not in corpus.hypotheses:
            raise InputError(f"the corpus has no hypothesis {name!r} (it has "
                             f"{', '.join(map(repr, corpus.hypotheses)) or 'none'})", "names")
    return given  # (a name given twice is scored twice: m2 score -v -o A A prints A's trace twice)


def scored_chunks(metrics: Sequence[Any], inputs: CorpusFiles | Corpus, *, executor: Executor | None = None,
                  jobs: int = 1, chunk_lines: int | None = None, progress: ProgressCallback | None = None,
                  checks: list | None = None, cache: CacheSetting = None) -> Iterator[ScoredChunk]:
    """The statistics chunk by chunk, in order, as they are counted (for output that streams:
    sentence scores of a corpus of any size). ``checks``: a list that receives the run's
    :class:`TextChecks` once the last chunk is done; ``cache`` as in :func:`score_files`."""
    from ..metrics.registry import resolve_metrics

    names = inputs.hypothesis_names if isinstance(inputs, CorpusFiles) else list(inputs.hypotheses)
    run = _Run(resolve_metrics(metrics), names, executor, jobs, None, progress, cache)
    try:
        outcomes = _file_outcomes(run, inputs, chunk_lines) if isinstance(inputs, CorpusFiles) else \
            _corpus_outcomes(run, inputs, chunk_lines)
        offset, observed = 0, []
        for source, outcome in outcomes:
            _merge_checks(run.checks, outcome.checks)
            observed.append(outcome.observations)
            yield ScoredChunk(offset, outcome.size, outcome.statistics, outcome.texts_encoded, outcome.references,
                              source)
            offset += outcome.size
        if offset == 0:
            raise InputError("the corpus has no sentences (an empty file scores nothing)")
        run.checks.notes += check_observations(run.metrics, observed)
        if checks is not None:
            checks.append(run.checks)
    finally:
        run.finish()


def _map_task(task: tuple[Callable[[Corpus], Any], Any]) -> tuple[int, int, Any] | None:
    """One chunk of :func:`map_chunks`: read (None when a byte range holds bad input), then
    the function."""
    from .chunks import FileChunk, Misread

    function, source = task
    try:
        corpus = source.read() if isinstance(source, FileChunk) else source
    except (InputError, Misread):
        if isinstance(source, FileChunk):
            return None
        raise
    return corpus.offset, corpus.size, function(corpus)


def map_chunks(function: Callable[[Corpus], Any], files: CorpusFiles, *, executor: Executor | None = None,
               jobs: int = 1, dask: str | None = None, chunk_lines: int | None = None,
               progress: ProgressCallback | None = None) -> Iterator[tuple[int, int, Any]]:
    """``function(chunk)`` for every chunk of the files, in order, as (offset, size, result):
    any per-chunk job (``m2 annotate``). ``function`` must be picklable (a module-level
    function or a ``functools.partial`` of one) for worker processes. Bad input is reported
    by the serial reader, as in :func:`score_files`."""
    own = executor is None
    executor = executor if executor is not None else make_executor(jobs, dask)
    chunk_lines = _parallel_chunk_lines(files, executor, chunk_lines, even=chunk_lines is None)
    total = _sentences_of(files, progress)
    done = 0
    try:
        for _, (offset, size, result) in _chunk_results(executor, _map_task, files, chunk_lines,
                                                        lambda source: (function, source)):
            done += size
            if progress is not None:
                progress(done, total, "")
            yield offset, size, result
        if progress is not None:
            progress(done, done, "done")
    finally:
        if own:
            executor.close()


def corpus_for(metrics: Sequence[Metric], sources: Sequence[str] | None, references: Any,
               hypotheses: Mapping[str, Sequence[Any]]) -> Corpus:
    """A corpus from plain Python values for metrics of one reference kind (reference sets,
    gold M2 blocks or None; see :func:`~gecmetrics.metrics.running.python_corpus`)."""
    return python_corpus(metrics, sources, references, hypotheses)
