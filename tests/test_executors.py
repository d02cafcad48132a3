"""The worker-process executor: a run stopped early or interrupted ends its workers without a
traceback from the pool's own threads, and the executor serves the next map."""
from __future__ import annotations

import threading
import time
from concurrent.futures import ProcessPoolExecutor

import pytest

from gecmetrics.run.executors import ProcessExecutor


def _slow(value: int) -> int:
    time.sleep(0.3)
    return value


def _thread_errors(monkeypatch) -> list:
    errors: list = []
    monkeypatch.setattr(threading, "excepthook", lambda args: errors.append(args.exc_type.__name__))
    return errors


def _tasks_then_an_error():
    yield from range(3)  # fewer than the map submits ahead: none waited for
    raise ValueError("a chunk the reader refused")


def test_a_stopped_run_raises_in_no_thread_of_the_pool(monkeypatch):
    """Python 3.10/3.11's pool thread fails at a cancelled task when it finds its workers ended
    (InvalidStateError, printed as 'Exception in thread ...' after a Ctrl-C with -p 2): here the
    map's tasks wait behind others that fill the workers and their queue, as after a Ctrl-C, and
    the pool's shutdown comes late enough for its thread to see the ended workers first."""
    errors = _thread_errors(monkeypatch)
    shutdown = ProcessPoolExecutor.shutdown

    def late_shutdown(pool, *args, **kwargs):
        time.sleep(0.5)
        return shutdown(pool, *args, **kwargs)

    monkeypatch.setattr(ProcessPoolExecutor, "shutdown", late_shutdown)
    for _ in range(2):
        executor = ProcessExecutor(2)
        pool = executor._started()
        others = [pool.submit(_slow, k) for k in range(5)]  # two running, three queued
        manager = pool._executor_manager_thread
        with pytest.raises(ValueError, match="refused"), executor:
            for _ in executor.map(_slow, _tasks_then_an_error()):
                pass
        manager.join(10)
        assert not manager.is_alive() and all(future.done() for future in others)
    assert errors == []


def test_a_map_stopped_early_leaves_an_executor_that_maps_again(monkeypatch):
    errors = _thread_errors(monkeypatch)
    with ProcessExecutor(2) as executor:
        results = executor.map(_slow, range(20))
        assert next(results) == 0
        results.close()  # what a consumer's error does
        assert list(executor.map(abs, [-1, -2, 3])) == [1, 2, 3]
    assert errors == []


FORK_WARNING = "This process (pid=12) is multi-threaded, use of fork() may lead to deadlocks in the child."
FORK_CHECK = f"""
import threading, warnings
from gecmetrics.run.executors import _forking_quietly

def warned():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with _forking_quietly():
            warnings.warn({FORK_WARNING!r}, DeprecationWarning)
            warnings.warn("another deprecation", DeprecationWarning)
    return [str(warning.message) for warning in caught]

print(warned())
release = threading.Event()
other = threading.Thread(target=release.wait)
other.start()
print(warned())
release.set()
"""


def test_the_fork_warning_is_left_out_only_while_no_other_python_thread_runs():
    """Python 3.12+ warns at every fork once NumPy's OpenBLAS has started its threads (C threads,
    ready for a fork): noise at every -p N run under -W default or pytest; another Python thread
    is a real risk, and then the warning shows. (A fresh process: a test's may hold threads.)"""
    import subprocess
    import sys

    result = subprocess.run([sys.executable, "-c", FORK_CHECK], capture_output=True, text=True, timeout=60)
    assert result.stdout.splitlines() == [str(["another deprecation"]), str([FORK_WARNING, "another deprecation"])], \
        result.stderr
