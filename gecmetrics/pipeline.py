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


def score_corpus(metrics: Sequence[Metric], corpus: Corpus, names: Sequence[str] | None = None,
                 progress: ProgressCallback | None = None, jobs: int = 1) -> Scored:
    """Statistics of every hypothesis of ``corpus`` (or of ``names``) under every metric;
    ``jobs`` > 1 scores the hypotheses in that many processes."""
    metrics = check_metrics(metrics)
    names = list(corpus.hypotheses) if names is None else list(names)
    for name in names:
        if name not in corpus.hypotheses:
            raise InputError(f"no hypothesis named {name!r}")
        for metric in metrics:
            _check_kind(metric, name, corpus.hypotheses[name])
    if jobs > 1 and len(names) > 1:
        return _in_processes(metrics, corpus, names, jobs)
    groups = sharing_groups(metrics)
    total = len(groups) * (1 + len(names))
    done = 0

    def step(what: str) -> None:
        nonlocal done
        if progress is not None:
            progress(done, total, what)
        done += 1

    prepared: dict[Hashable, Any] = {}
    for key, indices in groups.items():
        first = metrics[indices[0]]
        step(f"preparing {first.name or type(first).__name__}")
        prepared[key] = first.prepare(corpus, [metrics[k] for k in indices[1:]])
    statistics: dict[str, list[Any]] = {name: [None] * len(metrics) for name in names}
    for name in names:
        for key, indices in groups.items():
            step(name)
            for k in indices:
                statistics[name][k] = metrics[k].statistics(prepared[key], corpus.hypotheses[name])
    if progress is not None:
        progress(total, total, "done")
    return Scored(metrics, names, statistics, len(corpus.references), _encoded_texts(prepared.values()))


def _one_hypothesis(task: tuple[list[Metric], Corpus, str]) -> Scored:
    metrics, corpus, name = task
    return score_corpus(metrics, corpus, [name])


def _in_processes(metrics: list[Metric], corpus: Corpus, names: list[str], jobs: int) -> Scored:
    """Each hypothesis in a worker process (each worker prepares its own groups)."""
    from concurrent.futures import ProcessPoolExecutor

    tasks = [(metrics, corpus.with_hypotheses({name: corpus.hypotheses[name]}), name) for name in names]
    with ProcessPoolExecutor(min(jobs, len(names))) as pool:
        parts = list(pool.map(_one_hypothesis, tasks))
    statistics = {name: part.statistics[name] for name, part in zip(names, parts)}
    return Scored(metrics, names, statistics, len(corpus.references), sum(p.encoded_texts for p in parts))


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
