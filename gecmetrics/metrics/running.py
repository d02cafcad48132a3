"""Metrics run on a corpus in memory: the one step every run makes per chunk (each group of
metrics prepared once, then the statistics of every hypothesis: :func:`chunk_statistics`, which
the run engine calls in every worker and :meth:`~gecmetrics.metrics.base.Metric.corpus_score`
calls on the whole corpus), and the corpus of plain Python values a metric is called with
(:func:`python_corpus`: sources, references by the metrics' reference kind, hypotheses by
their hypothesis kind, each checked with one :class:`InputError` saying what was expected)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Hashable, Iterable, Iterator, Mapping, Sequence

from ..core.lines import unordered
from ..errors import InputError, LineRefused, kind_of, plural
from ..io.corpus import Corpus
from ..io.text import check_named
from ..kinds import M2, NONE, TEXT
from .plugin_guard import is_plugin, plugin_errors
from .results import compact

if TYPE_CHECKING:
    from ..core.units import TextChecks
    from .base import Metric

HYPOTHESIS = "hypothesis"
"""The name of the one hypothesis of :meth:`~gecmetrics.metrics.base.Metric.corpus_score` (messages say it)."""


def sharing_groups(metrics: Sequence["Metric"]) -> dict[Hashable, list[int]]:
    """Indices of the metrics that share one prepared object, by sharing key (in order)."""
    groups: dict[Hashable, list[int]] = {}
    for k, metric in enumerate(metrics):
        groups.setdefault(metric.sharing_key(), []).append(k)
    return groups


def checked_statistics(metric: "Metric", rows: Any, sentences: int, name: str) -> Any:
    """A metric's statistics of one hypothesis on a chunk of ``sentences`` sentences, checked
    before they are joined and reduced: an array must hold numbers, a row per sentence, none
    infinite (a plugin's statistics a row short gave a silently wrong score, an infinite count a
    0.00, an array of objects a NumPy traceback), and so must a plugin's list (a ragged one was a
    NumPy traceback, one a row short scored without a word). A metric's own statistics object
    (ERRANT's, ...) is its own class's business."""
    import numbers

    import numpy as np

    problem = None
    if isinstance(rows, (list, tuple)) and is_plugin(type(metric)):  # (a list is checked as the array it makes)
        try:
            problem = _table_problem(np.asarray(rows, dtype=np.float64), sentences, "a list",
                                     f"a list of {plural(len(rows), 'row')}")
        except (TypeError, ValueError):
            problem = "a list that makes no table of numbers (rows of different lengths, or values that are no numbers)"
    elif isinstance(rows, np.ndarray):
        problem = f"an array of {rows.dtype}, not of numbers" if rows.dtype.kind not in "biuf" else \
            _table_problem(rows, sentences, "an array", f"an array of shape {rows.shape}")
    elif rows is None or isinstance(rows, (str, bytes, numbers.Number)):
        problem = kind_of(rows)
    if problem:
        raise InputError(f"metric {metric.display_name}: its statistics of {name} are {problem}; a metric's "
                         "statistics are per-sentence numbers (Metric.statistics)")
    return rows


def _table_problem(array: Any, sentences: int, kind: str, counted: str) -> str | None:
    """What is wrong with a table of numbers as statistics of ``sentences`` sentences (None:
    nothing): not a row per sentence (``counted``: how many it has, said), or infinite values."""
    import numpy as np

    if array.ndim == 0 or array.shape[0] != sentences:
        return f"{counted} for {plural(sentences, 'sentence')} (a row per sentence)"
    if array.dtype.kind == "f" and np.isinf(array).any():
        return f"{kind} with infinite values"
    return None


def chunk_statistics(metrics: Sequence["Metric"], corpus: Corpus, names: Sequence[str],
                     observations: dict[int, Any] | None = None) -> tuple[dict[str, list[Any]], int]:
    """Each group of metrics prepared once on ``corpus`` (a chunk, or a whole corpus), then every
    named hypothesis under every metric: ``statistics[name][k]`` (compacted: a large corpus's
    chunks wait for the join in 32 bits) and the number of texts the preparing and counting
    encoded. ``observations``: a mapping that receives each metric's
    :meth:`~gecmetrics.metrics.base.Metric.observation` of the chunk (k -> observation, once
    every hypothesis is scored), for the run's :func:`check_observations`."""
    groups = sharing_groups(metrics)
    prepared = {}
    for key, indices in groups.items():
        with plugin_errors(metrics[indices[0]], "prepare"):
            prepared[key] = metrics[indices[0]].prepare(corpus, [metrics[k] for k in indices[1:]])
    statistics: dict[str, list[Any]] = {name: [None] * len(metrics) for name in names}
    for name in names:
        for key, indices in groups.items():
            for k in indices:
                try:
                    with plugin_errors(metrics[k], "statistics"):
                        rows = metrics[k].statistics(prepared[key], corpus.hypothesis(name, metrics[k].hypothesis_kind))
                    checked_statistics(metrics[k], rows, corpus.size, name)
                except LineRefused as err:
                    sentence = getattr(err, "sentence", None)
                    if err.path is not None or sentence is None:
                        raise
                    # a refusal that says which sentence of the chunk: the hypothesis's file and line
                    raise LineRefused(str(err), name, corpus.offset + sentence + 1) from None
                statistics[name][k] = compact(rows)
    if observations is not None:  # after the statistics: what scoring the hypotheses saw too (PT-M2's cut texts)
        observations.update({k: metrics[k].observation(prepared[key]) for key, indices in groups.items()
                             for k in indices})
    return statistics, sum(metrics[indices[0]].texts_encoded(prepared[key]) for key, indices in groups.items())


def check_observations(metrics: Sequence["Metric"], chunks: Sequence[dict[int, Any]]) -> list[str]:
    """Every metric's whole-run check of what its chunks observed (``chunks``: each chunk's
    observations, in order, as :func:`chunk_statistics` fills them), then the lines its
    :meth:`~gecmetrics.metrics.base.Metric.notes` say of them, each once."""
    observed = [[chunk.get(k) for chunk in chunks] for k in range(len(metrics))]
    for metric, seen in zip(metrics, observed):
        metric.check_observations(seen)
    return list(dict.fromkeys(line for metric, seen in zip(metrics, observed) for line in metric.notes(seen)))


def text_checks(metrics: Sequence["Metric"]) -> "TextChecks":
    """The whitespace and order checks of the metrics' text units (fed chunk by chunk)."""
    from ..core.units import TextChecks

    return TextChecks([(*unit, m.settings.n, m.python2_words) for m in metrics if (unit := m.text_unit()) is not None])


def text_hypotheses(corpus: Corpus) -> list[str]:
    """The names of a corpus's hypotheses given as text (not as M2 blocks)."""
    return [name for name, lines in corpus.hypotheses.items() if not lines or isinstance(lines[0], str)]


def corpus_text_names(corpus: Corpus) -> list[str]:
    """The names of a corpus's texts in its warnings, in the order of :func:`corpus_texts`: the
    source and the references as its messages name them, the text hypotheses by their names."""
    return [corpus.name("source"), *(corpus.name(f"reference {k}") for k in range(len(corpus.references))),
            *text_hypotheses(corpus)]


def corpus_texts(corpus: Corpus) -> list[Sequence[str]]:
    """A corpus's texts that the checks read: the source, the references, the text hypotheses."""
    return [corpus.sources, *corpus.references, *(corpus.hypotheses[name] for name in text_hypotheses(corpus))]


def corpus_warnings(metrics: Sequence["Metric"], corpus: Corpus, observations: dict[int, Any]) -> list[str]:
    """What a command line run of ``metrics`` on ``corpus``, one whole chunk whose
    :func:`chunk_statistics` filled ``observations``, prints on stderr about it: the text checks
    of its texts, then the metrics' notes (after their whole-run checks, which may refuse it);
    the engine's :meth:`~gecmetrics.run.engine.Scored.warnings` of the same corpus."""
    checks = text_checks(metrics)
    checks.observe(list(zip(corpus_text_names(corpus), corpus_texts(corpus))))
    checks.notes += check_observations(metrics, [observations])
    return checks.warnings()


def named_systems(systems: Any) -> dict[Any, Any]:
    """Systems by name: a mapping as it is, a list (or another ordered iterable) of hypotheses
    named ``system 0``, ``system 1``, ... (a paired test's baseline first). What compare,
    paired tests and a one-hypothesis call's ``systems`` take. A mapping's keys are the names:
    one that is no string (``1``, None) is an InputError, not a system named ``'1'``."""
    if isinstance(systems, Mapping):
        return dict(check_named(systems, "systems", "its hypothesis (a list of lines)"))
    if isinstance(systems, (str, bytes)) or not hasattr(systems, "__iter__") or unordered(systems) is not None:
        raise InputError(f"systems must be a mapping of names to hypotheses ({{'AMU': lines}}) or a list of "
                         f"hypotheses, got {kind_of(systems)}")
    return {f"system {k}": lines for k, lines in enumerate(systems)}


def named_hypotheses(hypothesis: Sequence[Any], systems: Mapping[str, Sequence[Any]] | Sequence[Sequence[Any]] | None
                     ) -> tuple[str, dict[str, Sequence[Any]]]:
    """The hypotheses a one-hypothesis call prepares, and the name of the scored one: the
    ``systems`` in their order (:func:`named_systems`), the hypothesis being the one of them it
    is (the same object, else the same lines), or first, before them, under the name
    :data:`HYPOTHESIS`."""
    if systems is None:
        return HYPOTHESIS, {HYPOTHESIS: hypothesis}
    named = named_systems(systems)
    for name, lines in named.items():
        if lines is hypothesis:
            return name, named
    if _is_sequence(hypothesis):
        for name, lines in named.items():
            if _is_sequence(lines) and list(lines) == list(hypothesis):
                return name, named
    if HYPOTHESIS in named:
        raise InputError(f"the name {HYPOTHESIS!r} is the scored hypothesis's: give the other systems other names",
                         "systems")
    return HYPOTHESIS, {HYPOTHESIS: hypothesis, **named}


def _is_sequence(value: Any) -> bool:
    """A list-like value (not text)."""
    return isinstance(value, Sequence) and not isinstance(value, (str, bytes))


def python_corpus(metrics: Sequence["Metric"], sources: Sequence[str] | None, references: Any,
                  hypotheses: Mapping[str, Sequence[Any]]) -> Corpus:
    """A corpus of plain Python values for metrics of one reference kind:

    * ``references``: TEXT, a list of reference sets, each a list of D lines; M2, the gold M2
      blocks (``sources`` may then be None: they are the blocks' sentences); NONE (a
      reference-free metric), None (reference sets are accepted, checked and not read: a
      corpus's references that other metrics read);
    * ``sources``: the D source lines; None where no metric reads them (the M2 family, and a
      metric whose ``reads_sources`` is False, e.g. BERTScore);
    * ``hypotheses``: name -> its lines of text, or its M2 blocks for a metric that reads edits.
    """
    metrics = list(metrics)
    shown = ", ".join(metric.display_name for metric in metrics)
    kinds = {metric.reference_kind for metric in metrics}
    if len(kinds) > 1:
        raise InputError("metrics with text references, gold M2 references or none need a Corpus holding them all; "
                         f"score them one by one ({shown})")
    kind = kinds.pop() if kinds else TEXT
    # an iterator (a generator of lines) is read once, here: checking it would use it up
    hypotheses = {name: list(lines) if isinstance(lines, Iterator) else lines for name, lines in hypotheses.items()}
    for name, hypothesis in hypotheses.items():
        _check_hypothesis_kind(metrics, name, hypothesis)
    if kind == M2:
        return Corpus(sources, [], dict(hypotheses), _gold_blocks(references, shown))  # (Corpus checks the lines)
    if kind == NONE:
        references = [] if references is None else references  # a corpus's references, read by no metric here
    elif references is None:
        raise InputError(f"metric {shown} needs reference texts: a list of reference sets, each a list of the D "
                         "lines (one reference set is written [lines])", "references")
    if sources is None:
        if any(getattr(metric, "reads_sources", True) for metric in metrics):
            raise InputError(f"metric {shown} needs the source sentences (a list of lines)", "sources")
        sources, counted = _stand_in_sources(references, hypotheses)
        return Corpus(sources, references, dict(hypotheses), names={"source": counted})  # (lengths compared with it)
    return Corpus(sources, references, dict(hypotheses))


def _empty(value: Any) -> bool:
    try:
        return len(value) == 0
    except TypeError:
        return False


def _gold_blocks(references: Any, shown: str) -> list[Any]:
    """Gold M2 blocks, or an InputError saying what was expected."""
    wanted = f"metric {shown} reads gold M2 references: give the gold M2 blocks (e.g. gecmetrics.read_m2(PATH))"
    if references is None or _empty(references):
        raise InputError(f"{wanted}, got nothing", "references")
    if isinstance(references, (str, bytes)) or not isinstance(references, Iterable):
        raise InputError(f"{wanted}, got {kind_of(references)}", "references")
    blocks = list(references)
    if not all(hasattr(block, "edits") and hasattr(block, "source") for block in blocks):
        first = next(block for block in blocks if not (hasattr(block, "edits") and hasattr(block, "source")))
        raise InputError(f"{wanted}, got a list holding {kind_of(first)}", "references")
    return blocks


def _check_hypothesis_kind(metrics: Sequence["Metric"], name: str, hypothesis: Any) -> None:
    """Text lines for a metric that reads text, M2 blocks for one that reads edits."""
    if isinstance(hypothesis, (str, bytes)) or hypothesis is None or not isinstance(hypothesis, Iterable):
        return  # the corpus says what was expected
    items = list(hypothesis)
    if not items:
        return
    is_text = isinstance(items[0], str)
    for metric in metrics:
        if metric.hypothesis_kind == M2 and is_text:
            raise InputError(f"metric {metric.display_name} reads the hypothesis as M2 edits (its hypothesis_kind): "
                             "give its M2 blocks (e.g. gecmetrics.read_m2 of errant_parallel's output), not lines of "
                             "text", name)
        if metric.hypothesis_kind != M2 and not is_text:
            raise InputError(f"metric {metric.display_name} reads the hypothesis as lines of text, got "
                             f"{type(items[0]).__name__}", name)


def _stand_in_sources(references: Any, hypotheses: Mapping[str, Sequence[Any]]) -> tuple[list[str], str]:
    """Sources for metrics that read none (the corpus's sentence count comes from them), and
    what they count the lines of, for messages (``the hypothesis``, ``reference 0``)."""
    named = [*(("the hypothesis" if name == "hypothesis" else f"the hypothesis {name}", lines)
               for name, lines in hypotheses.items()),
             *((f"reference {k}", lines) for k, lines in enumerate(references or []))]
    for name, lines in named:
        if not isinstance(lines, (str, bytes)):
            lines = list(lines)
            if all(isinstance(line, str) for line in lines):
                return [""] * len(lines), name
    return [], "the source"
