"""The ``gecmetric`` console script's signal handlers: SIGINT, SIGTERM and SIGHUP stop the run
through its ``finally`` blocks, the stop recorded first (:mod:`gecmetrics.core.stop`)."""
from __future__ import annotations

import os
import signal
import sys
from typing import Any, Callable

from ..core import stop


def install(handler: Callable[[int, Any], None] | None = None) -> None:
    """``handler`` (default: stop the run) for SIGTERM, SIGHUP and SIGINT (an interrupt the
    parent ignores stays ignored: a background job of a shell script)."""
    ours = (signal.default_int_handler, _stop)
    for name in ("SIGTERM", "SIGHUP", "SIGINT"):
        if hasattr(signal, name) and (name != "SIGINT" or signal.getsignal(signal.SIGINT) in ours):
            signal.signal(getattr(signal, name), handler or _stop)
    sys.unraisablehook = quiet_stop_exceptions


def end_now(signum: int, _frame: object) -> None:
    """A stop once the command has finished (its output flushed next, the caches closed): the
    process ends at once with the stop's code (an exception there had nothing left to unwind and
    was a traceback); every file the command wrote is already whole."""
    if stop.request(signum):
        say_stopped()
    os._exit(stop.exit_code() or 128 + signum)


def _stop(signum: int, _frame: object) -> None:
    """SIGTERM, SIGHUP or SIGINT: stop as an interrupt does, so that every ``finally`` runs
    (worker processes are ended, an unfinished output file is removed) before the process exits;
    the stop is recorded first (:mod:`gecmetrics.core.stop`: the run raises it again where the
    exception was lost, and the process ends with its code whatever became of it). A signal
    that comes while the first one's stop is still unwinding (within ``REPEAT_SECONDS``) is
    left to it: raised again there, it landed in the ``except`` that takes the first."""
    first = stop.request(signum)
    if not first and (stop.seconds_since() or 0.0) < REPEAT_SECONDS:
        return
    if signum == signal.SIGINT:  # (said where the run ends: "gecmetric: aborted", as for Python's own)
        raise KeyboardInterrupt
    if first and os.getpid() == MAIN_PROCESS[0]:  # (a worker says nothing)
        say_stopped()
    raise SystemExit(128 + signum)


def stopped_code() -> int | None:
    """The exit code of a stop whose exception became another (an error a library made of it,
    a RuntimeError), an interrupt's line said (a SIGTERM's handler said its own); None: no stop."""
    if stop.requested() == signal.SIGINT:
        say_stopped()
    return stop.exit_code()


def say_stopped() -> None:
    """The line of the stop asked for: ``gecmetric: aborted`` (an interrupt), ``gecmetric:
    stopped by SIGTERM``."""
    from .progress import clear_line

    clear_line()  # (a SIGTERM's line was written onto the end of the progress bar)
    signum = stop.requested()
    try:
        print("gecmetric: aborted" if signum in (None, signal.SIGINT) else
              f"gecmetric: stopped by {signal.Signals(signum).name}", file=sys.stderr)
    except (OSError, ValueError):
        pass


REPEAT_SECONDS = 1.0
"""A second signal within this time of the first is part of the same stop (a double Ctrl-C); one
later finds the stop's exception lost, and raises it again."""


def quiet_stop_exceptions(unraisable: Any) -> None:
    """``sys.unraisablehook`` of the console script: the exception of a stop raised where Python
    drops exceptions (a gc callback, a ``__del__``) is not printed as 'Exception ignored in ...':
    the stop is recorded and the run raises it again (:mod:`gecmetrics.core.stop`)."""
    if stop.requested() is not None and isinstance(unraisable.exc_value, (KeyboardInterrupt, SystemExit)):
        return
    sys.__unraisablehook__(unraisable)


MAIN_PROCESS = [0]
"""The console script's process id (set by :func:`.process.run_and_exit`): a forked worker says nothing."""
