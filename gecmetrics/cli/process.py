"""The ``gecmetric`` console script's process: signals, the exit code of a failed write, the
exit without interpreter teardown, and Python warnings as one line each."""
from __future__ import annotations

import errno
import gc
import io
import os
import sys
from typing import Any, Callable

from ..core import stop
from . import signals


def output_failed(err: OSError) -> int:
    """The exit code of a failed write to stdout: a closed pipe (``| head``) ends quietly with
    0, as the reader has what it wanted; any other failure (a full disk) is one line and 1,
    naming the output file when the error does (:func:`gecmetrics.io.atomic.atomic_output`). A
    pipe named as an output file (``-o >(gzip > x.gz)``, a FIFO) that its reader closed is such
    a failure: the file asked for is cut."""
    from ..io.atomic import writes_standard_output

    named = isinstance(err.filename, str) and not writes_standard_output(err.filename)
    if (isinstance(err, BrokenPipeError) or err.errno == errno.EPIPE) and not named:
        try:
            sys.stderr.close()
        except OSError:
            pass
        return 0
    try:
        where = f"{err.filename}: " if named else ""  # a file the command wrote
        why = "its reader closed the pipe before the end" if named and err.errno == errno.EPIPE else err.strerror
        # (without a file's name, what failed is the command's printing)
        what = "the output" if named or "standard output" in str(why) else "to standard output"
        print(f"gecmetric: error: {where}cannot write {what}: {why or err}", file=sys.stderr)
    except OSError:
        pass
    return 1


class _ClosedOutput(io.TextIOBase):
    """Standard output of a process started without one (``gecmetric ... >&-``; Python then
    has ``sys.stdout = None``, and click would drop what the command prints without a word): a
    write fails as a write to a closed descriptor does, so a command that prints ends with one
    line and exit 1 (:func:`output_failed`); a command that only writes files runs as usual."""

    closed_at_start = True
    """(:func:`gecmetrics.io.atomic.check_outputs` refuses ``-o /dev/stdout`` then: /dev/null holds
    descriptor 1, where the output would be lost.)"""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")


def _hold_closed_descriptors() -> None:
    """A process started with descriptor 0, 1 or 2 closed (``<&-``, ``>&-``, ``2>&-``) would
    give that number to the next file it opens (an input, an output's temporary file), where a
    write to "standard error" by a library or a worker process would land: /dev/null holds it
    instead. What Python made of the closed stream at start-up stays (``sys.stdout`` None
    becomes :class:`_ClosedOutput`; ``sys.stderr`` None: messages are lost, exit codes kept)."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)  # the lowest free number: fd itself
            if null != fd:
                os.dup2(null, fd)
                os.close(null)


def run_and_exit(main: Callable[..., Any]) -> None:
    """The ``gecmetric`` console script: ``main`` (:func:`gecmetrics.cli.main`), then an immediate exit.

    The cyclic garbage collector waits until the command's modules are imported
    (:func:`settle_start_up`).
    Once the command has finished and its output is flushed, the process exits without tearing
    down the interpreter (freeing every array and object one by one, which the system does
    anyway): about 15 ms of a 0.25 s scoring run. Python callers (and tests) use ``main``.
    """
    signals.MAIN_PROCESS[0] = os.getpid()
    gc.disable()  # (until the command's modules are imported: settle_start_up)
    _hold_closed_descriptors()
    if sys.stdout is None:
        sys.stdout = _ClosedOutput()
    signals.install()
    try:
        main(prog_name="gecmetric")  # also when started as `python -c ...`: completion reads _GECMETRIC_COMPLETE
        code = 0
    except SystemExit as ended:
        code = ended.code
    except BaseException:  # what a stop's exception became where it landed (a RuntimeError, ...)
        code = signals.stopped_code()
        if code is None:
            raise
    signals.install(signals.end_now)  # (the command is done: a stop from here on ends the process at once)
    code = stop.exit_code() or code  # (a stop whose exception was lost ends the process as the stop does)
    if code is not None and not isinstance(code, int):
        print(code, file=sys.stderr)
        code = 1
    try:
        sys.stdout.flush()
    except OSError as err:
        code = output_failed(err) or code
    except ValueError:  # stdout closed after a broken pipe: the output is as complete as it can be
        pass
    try:
        if sys.stderr is not None:  # None: started without one (2>&-); the exit code still tells
            sys.stderr.flush()
    except (OSError, ValueError):
        pass
    _close_caches()
    os._exit(code or 0)


def settle_start_up() -> None:
    """In the console script's process, once the command's modules are imported: the objects
    they made (functions, classes, tables: they live as long as the process) are frozen out of
    the cyclic garbage collector's passes, and the collector, off since the process started,
    runs again for the command's own work. Its 50-odd passes over the import's young objects
    were about 10 ms of a 0.21 s GREEN run. A Python caller's process (tests, a notebook calling
    ``main``) is left alone."""
    if signals.MAIN_PROCESS[0] == os.getpid() and not gc.isenabled():
        gc.freeze()
        gc.enable()


def _close_caches() -> None:
    """The caches' SQLite connections closed (their write-ahead logs folded in), where one was opened."""
    cache = sys.modules.get("gecmetrics.core.cache")
    if cache is not None:
        cache.close_opened()


def one_line_warning(message, category, filename, lineno, file=None, line=None) -> None:
    """A Python warning raised during a command (a cache or LLM judge warning, a library's) as
    one ``gecmetric: warning:`` line on stderr, not Python's two lines of file and code; an
    :class:`~gecmetrics.errors.InputNote` as its ``line``, the command line's own line."""
    from ..errors import InputNote

    if issubclass(category, InputNote):
        sys.stderr.write(" ".join(getattr(message, "line", str(message)).split()) + "\n")
    else:
        sys.stderr.write(f"gecmetric: warning: {' '.join(str(message).split())}\n")
