"""The pipeline's chunks on a Dask cluster (the optional extra ``gecmetrics[dask]``).

The files are indexed once here (one checking pass, and the byte offset where every chunk
starts); a ``dask.bag`` of the chunk descriptors is mapped to the same per-chunk function the
local pipeline runs (each worker reads its own chunk from a file system it shares with this
process), and the per-sentence statistics come back to be joined in order. The numbers are the
local pipeline's: statistics are per sentence, so nothing depends on where a chunk was counted.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator, Sequence

from ..io.corpus import Corpus
from ..errors import InputError
from ..metrics.protocol import Metric
from .engine import Scored, check_metrics, joined, score_chunk
from .reading import ChunkSpec, index_chunks

INSTALL_HINT = "the Dask path needs the dask extra: pip install 'gecmetrics[dask]'"


def dask_bag() -> Any:
    """``dask.bag``, or one line saying what to install."""
    try:
        import dask.bag
    except ImportError:
        raise InputError(INSTALL_HINT) from None
    return dask.bag


@contextmanager
def connect(address: str, workers: int = 0) -> Iterator[Any]:
    """A ``distributed.Client`` (a context: closed, with its local cluster, on leaving): to the
    scheduler at ``address`` (``tcp://host:8786``), or to a new local cluster of ``workers``
    processes for ``address == "local"``."""
    dask_bag()
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise InputError(INSTALL_HINT) from None
    if address == "local":
        with LocalCluster(n_workers=workers or None, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, Client(cluster) as client:
            yield client
        return
    try:
        client = Client(address, timeout="10s")
    except OSError as err:
        raise InputError(f"cannot reach the Dask scheduler at {address}: {err}") from None
    with client:
        yield client


def _spec_statistics(spec: ChunkSpec, metrics: list[Metric], names: list[str]) -> tuple[dict[str, list[Any]], int]:
    return score_chunk((metrics, spec.read(), names))


def score_files_on_dask(metrics: Sequence[Metric], source: str | None, references: Sequence[str],
                        hypotheses: Sequence[str], gold: str | None = None, chunk_lines: int | None = None,
                        client: Any = None, checked: Iterator[Corpus] | None = None,
                        hypothesis_m2: Sequence[str] = ()) -> Scored:
    """:func:`~gecmetrics.run.engine.score_chunks` of files, every chunk counted by a Dask
    worker: on ``client`` (a ``distributed.Client``), else one after the other in this process
    (Dask's synchronous scheduler: a test of the path, not a speed-up). ``hypothesis_m2``: one
    M2 file per hypothesis file, for metrics that read hypothesis edits."""
    metrics, names = check_metrics(metrics), list(hypotheses)
    bag = dask_bag()
    specs = index_chunks(source, references, hypotheses, gold, chunk_lines, checked, hypothesis_m2)
    tasks = bag.from_sequence(specs, npartitions=len(specs)).map(_spec_statistics, metrics, names)
    parts = client.compute(tasks).result() if client is not None else tasks.compute(scheduler="synchronous")
    return joined(metrics, names, parts, len(references))
