"""A stop asked of the command by a signal, kept where the run can find it again.

The ``gecmetric`` console script's handlers (SIGINT, SIGTERM, SIGHUP) record the signal here
before they raise, because an exception raised at an arbitrary point can be turned into another
by the code it lands in: a C extension whose module initialisation runs Python code (pybind11's:
torch, which spaCy's thinc imports, and matplotlib) makes it an ImportError, which the importing
library may take for a missing package and go on from; a dataclass field's ``__set_name__``
wraps it in a RuntimeError. So the run checks the record between its chunks and before it
replaces an output file (:func:`check`), and the console script ends with the stop's exit code
whatever became of the exception. Nothing records a stop in a library user's process, where
:func:`check` does nothing.
"""
from __future__ import annotations

import signal
import time

_REQUESTED: list[tuple[int, float]] = []
"""The first stop asked for: its signal and when (time.monotonic())."""


def request(signum: int) -> bool:
    """Record a stop by ``signum``; True the first time (the one that says so on stderr)."""
    if _REQUESTED:
        return False
    _REQUESTED.append((signum, time.monotonic()))
    return True


def seconds_since() -> float | None:
    """How long ago the stop was asked for (None: it was not)."""
    return None if not _REQUESTED else time.monotonic() - _REQUESTED[0][1]


def requested() -> int | None:
    """The signal of the stop asked for, or None."""
    return _REQUESTED[0][0] if _REQUESTED else None


def exit_code() -> int | None:
    """128 + the signal of the stop asked for (130 for an interrupt), as a shell reports it; None
    when no stop was asked for."""
    return None if not _REQUESTED else 128 + _REQUESTED[0][0]


def check() -> None:
    """Raise the stop again where the exception raised for it was lost (a KeyboardInterrupt for
    an interrupt, else SystemExit with :func:`exit_code`)."""
    if _REQUESTED:
        if requested() == signal.SIGINT:
            raise KeyboardInterrupt
        raise SystemExit(exit_code())
