"""Annotation in worker processes: the sentences are cut into consecutive chunks, each chunk is
annotated by one worker with the whole pipeline (parse, align, merge, classify), and the blocks
come back in order. A sentence's source and its hypotheses are in the same chunk, so each
distinct line is still parsed once per chunk, and only small M2 blocks cross between processes.

With the ``fork`` start method (Linux) the workers inherit the loaded spaCy pipeline and the
word list; elsewhere each worker loads them (``spawn``).
"""
from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from typing import TYPE_CHECKING, Any, Sequence

if TYPE_CHECKING:
    from .annotator import Annotator

CHUNKS_PER_PROCESS = 4
"""More chunks than workers, so that a worker given long sentences does not hold up the rest."""
MIN_CHUNK = 64
"""Fewer lines than this per chunk would cost more in start-up than parsing them saves."""

_WORKER: "Annotator | None" = None


def cpu_count() -> int:
    """Cores this process may use (``processes=0`` means all of them)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def chunk_bounds(size: int, processes: int) -> list[tuple[int, int]]:
    """Consecutive [start, end) ranges covering ``size`` sentences, for ``processes`` workers."""
    chunks = max(1, min(processes * CHUNKS_PER_PROCESS, size // MIN_CHUNK))
    step = -(-size // chunks)
    return [(start, min(size, start + step)) for start in range(0, size, step)]


def _start(annotator: "Annotator") -> None:
    global _WORKER
    _WORKER = annotator


def _call(method: str, args: tuple) -> Any:
    assert _WORKER is not None
    return getattr(_WORKER, method)(*args)


def run_chunks(annotator: "Annotator", method: str, tasks: Sequence[tuple]) -> list[Any]:
    """``getattr(annotator, method)(*task)`` for every task, in ``annotator.processes`` worker
    processes; results in task order."""
    if "fork" in multiprocessing.get_all_start_methods():
        annotator.spacy.nlp  # load the pipeline and the word list once, before forking
        annotator.classifier
        context = multiprocessing.get_context("fork")
    else:
        context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=min(annotator.processes, len(tasks)), mp_context=context,
                             initializer=_start, initargs=(annotator,)) as pool:
        return list(pool.map(_call, [method] * len(tasks), tasks))


def concatenated(parts: list[list[list[Any]]]) -> list[list[Any]]:
    """Per-chunk lists of per-set lists -> one list per set, chunks in order."""
    return [[item for part in parts for item in part[k]] for k in range(len(parts[0]))] if parts else []


__all__ = ["CHUNKS_PER_PROCESS", "MIN_CHUNK", "chunk_bounds", "concatenated", "cpu_count", "run_chunks"]
