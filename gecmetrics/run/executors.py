"""Where the chunks of a run are computed: here, in worker processes, or on a Dask cluster.

An :class:`Executor` maps a function over tasks and gives the results in the tasks' order,
with a bounded number of tasks submitted ahead (memory stays bounded whatever the corpus size).
The engine (:mod:`gecmetrics.run.engine`) never asks which executor it holds. Use one as a
context manager: leaving it stops its workers, also when the run fails or is interrupted.

* :class:`SerialExecutor`: in this process, one task after the other;
* :class:`ProcessExecutor`: ``jobs`` worker processes on this machine (``-p N``);
* :class:`DaskExecutor`: the workers of a Dask cluster (``--dask ADDRESS``, or ``local`` for a
  local cluster of ``jobs`` processes; the optional extra ``gecmetrics[dask]``); the workers
  read their chunks from a file system they share with this process.
"""
from __future__ import annotations


import contextlib
import os
import re
import sys
import time
from abc import ABC, abstractmethod
from collections import deque
from typing import Any, Callable, Iterable, Iterator

from ..errors import InputError, shown

MAX_JOBS = 512
"""The most worker processes a run starts."""
STOP_SECONDS = 1.5
"""How long stopped workers get to exit before they are killed."""
CANCEL_SAFE = sys.version_info >= (3, 12)
"""Whether the worker processes' futures may be cancelled: on Python 3.10 and 3.11 the pool's
manager thread, finding its workers ended, sets an exception on every task it still holds and
fails with a traceback (``InvalidStateError: CANCELLED``) at one that was cancelled (fixed in
3.12); there a map stopped early ends the workers instead, which ends their tasks as well."""
DASK_HINT = "the Dask executor needs the dask extra: pip install 'gecmetrics[dask]'"
DASK_SCHEMES = ("tcp", "tls", "ucx", "ws", "wss", "inproc")
_ADDRESS = re.compile(r"^(?P<scheme>[a-z]+)://(?P<host>\[[0-9a-fA-F:]+\]|[^:/\s]+):(?P<port>\d{1,5})/?$")


def check_jobs(jobs: int) -> int:
    """Worker processes: an integer from 1 to :data:`MAX_JOBS`, or 0 for one per core."""
    if isinstance(jobs, bool) or not isinstance(jobs, int) or not 0 <= jobs <= MAX_JOBS:
        raise InputError(f"the number of processes (-p) must be an integer from 0 (one per core) to {MAX_JOBS}, "
                         f"got {shown(jobs)}")
    return jobs or (os.cpu_count() or 1)


def check_dask_address(address: str) -> str:
    """``local``, or a scheduler address ``SCHEME://HOST:PORT`` (tcp, tls, ucx, ws, wss, inproc)."""
    if address == "local":
        return address
    match = _ADDRESS.match(address.strip()) if isinstance(address, str) else None
    if match is None or match["scheme"] not in DASK_SCHEMES or not 0 < int(match["port"]) < 65536:
        shown_address = re.sub(r"//[^/@\s]*@", "//[credentials]@", address) if isinstance(address, str) else address
        raise InputError(f"--dask takes 'local' or a scheduler address SCHEME://HOST:PORT (scheme one of "
                         f"{', '.join(DASK_SCHEMES)}), got {shown_address!r}")
    return address.strip()


class Executor(ABC):
    """Maps a function over tasks, results in the tasks' order (see the module docstring)."""

    jobs: int = 1
    """How many tasks run at once (for the engine's chunk sizes)."""

    @abstractmethod
    def map(self, function: Callable[[Any], Any], tasks: Iterable[Any]) -> Iterator[Any]:
        """``function(task)`` for every task, in order. Stopping the iteration early (or an
        error) cancels what is pending."""

    def close(self) -> None:
        """Stop the workers (idempotent)."""

    def __enter__(self) -> "Executor":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class SerialExecutor(Executor):
    """Every task in this process, one after the other."""

    def map(self, function: Callable[[Any], Any], tasks: Iterable[Any]) -> Iterator[Any]:
        for task in tasks:
            yield function(task)


class ProcessExecutor(Executor):
    """``jobs`` worker processes on this machine, started on first use and kept for the whole
    run (so that what a worker loads once, a spaCy model or a BERT, serves every chunk)."""

    def __init__(self, jobs: int = 0) -> None:
        self.jobs = check_jobs(jobs)
        self._pool: Any = None

    def _started(self) -> Any:
        if self._pool is None:
            from concurrent.futures import ProcessPoolExecutor

            pool = ProcessPoolExecutor(self.jobs, initializer=_worker_signals)
            with _forking_quietly():
                pool.submit(int)  # the workers start now (forked: all of them, at the first task)
            self._pool = pool
        return self._pool

    def map(self, function: Callable[[Any], Any], tasks: Iterable[Any]) -> Iterator[Any]:
        from concurrent.futures.process import BrokenProcessPool

        pool = self._started()
        pending: deque = deque()
        try:
            for task in tasks:
                pending.append(pool.submit(function, task))
                while len(pending) > 2 * self.jobs or (pending and pending[0].done()):
                    yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()
        except BrokenProcessPool:
            raise InputError("a worker process died (out of memory?); run with fewer processes (-p) or smaller "
                             "chunks (--chunk-lines)") from None
        finally:
            if pending and not CANCEL_SAFE:
                self.close()  # the workers end with what they hold; the next map starts others
            else:
                for future in pending:
                    future.cancel()

    def close(self) -> None:
        """Stop the pool; workers still busy (after an error or an interrupt) are ended now,
        so that no process outlives the run."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        processes = list((getattr(pool, "_processes", None) or {}).values())  # the pool's own handles
        for process in processes:  # before the queues close under them (no traceback from a worker)
            if process.is_alive():
                process.terminate()
        pool.shutdown(wait=False, cancel_futures=CANCEL_SAFE)
        deadline = time.monotonic() + STOP_SECONDS
        for process in processes:
            process.join(timeout=max(0.0, deadline - time.monotonic()))
        for process in processes:  # busy in compiled code past the deadline: ended for good
            if process.is_alive():
                process.kill()
                process.join(timeout=1)


@contextlib.contextmanager
def _forking_quietly() -> Iterator[None]:
    """Python 3.12+ warns (DeprecationWarning) at a fork of a process running other threads, as
    every process is once NumPy's OpenBLAS has started its own: the warning is left out when
    this process runs no other Python thread (a thread of C code such as OpenBLAS's or OpenMP's
    prepares for a fork, pthread_atfork), and shown when it does (one might hold a lock the
    worker then needs)."""
    import threading
    import warnings

    with warnings.catch_warnings():
        if threading.active_count() == 1:
            warnings.filterwarnings("ignore", r"This process \(pid=\d+\) is multi-threaded, use of fork\(\)",
                                    DeprecationWarning)
        yield


def _worker_signals() -> None:
    """A worker leaves interrupts to the run (an interrupt at a terminal reaches the whole
    process group; the run then ends its workers), ends at once when the run stops it, and ends
    within a second of a run that died without ending it (:func:`_end_with_parent`)."""
    import os
    import signal
    import threading

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    threading.Thread(target=_end_with_parent, args=(os.getppid(),), name="gecmetrics-parent", daemon=True).start()


PARENT_CHECK_SECONDS = 0.5
"""How often a worker looks whether its run is still there."""


def _end_with_parent(parent: int) -> None:
    """End the worker once the process that started it is gone (SIGKILL, the OOM killer: no
    ``finally`` of the run ended its workers, which lived on, waiting on their task queue with
    the cache's files open). A worker's parent never changes while the run lives."""
    import os
    import time

    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(1)


class DaskExecutor(Executor):
    """The workers of a Dask cluster: ``address`` of a scheduler, or ``local`` for a local
    cluster of ``jobs`` processes (one thread each)."""

    def __init__(self, address: str, jobs: int = 0) -> None:
        self.address = check_dask_address(address)
        self.jobs = check_jobs(jobs)
        self._cluster: Any = None
        self._client: Any = None

    def _connected(self) -> Any:
        if self._client is None:
            try:
                from distributed import Client, LocalCluster
            except ImportError:
                raise InputError(DASK_HINT) from None
            if self.address == "local":
                import logging  # here only: a run without Dask never loads it

                # any free dashboard port (none is ever taken twice); the workers' own log only at
                # CRITICAL: a task's error reaches this process as its exception, and a loaded
                # machine must not print a heartbeat traceback into a command's output at shutdown
                self._cluster = LocalCluster(n_workers=self.jobs, threads_per_worker=1, processes=True,
                                             dashboard_address=":0", silence_logs=logging.CRITICAL)
                self._client = Client(self._cluster)
            else:
                try:
                    self._client = Client(self.address, timeout="10s")
                except (OSError, TimeoutError, ValueError) as err:
                    raise InputError(f"cannot reach the Dask scheduler at {self.address}: {err}") from None
            workers = len(self._client.scheduler_info().get("workers", {})) or 1
            self.jobs = workers if self.address != "local" else self.jobs
        return self._client

    def map(self, function: Callable[[Any], Any], tasks: Iterable[Any]) -> Iterator[Any]:
        client = self._connected()
        pending: deque = deque()
        try:
            for task in tasks:
                pending.append(client.submit(function, task, pure=False))
                while len(pending) > 2 * self.jobs:
                    yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()
        finally:
            for future in pending:
                future.cancel()

    def close(self) -> None:
        import logging

        client, cluster, self._client, self._cluster = self._client, self._cluster, None, None
        quiet = logging.getLogger("distributed")
        level, quiet.level = quiet.level, logging.CRITICAL  # the shutdown's closed-stream messages
        try:
            if client is not None:
                client.close()
            if cluster is not None:
                cluster.close()
        finally:
            quiet.setLevel(level)


def make_executor(jobs: int = 1, dask: str | None = None) -> Executor:
    """The executor of ``-p JOBS`` and ``--dask ADDRESS``: Dask when an address is given, else
    worker processes when ``jobs`` is not 1 (0: one per core), else this process."""
    if dask is not None:
        return DaskExecutor(dask, jobs)
    return SerialExecutor() if check_jobs(jobs) == 1 else ProcessExecutor(jobs)
