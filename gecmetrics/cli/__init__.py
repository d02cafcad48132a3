"""The ``gecmetric`` command: a click group (:mod:`.app`); each subcommand lives in its own module
here (:mod:`.commands` lists them), and every registered metric without one gets a command made
from its settings (:mod:`.metric_command`).

The CLI is thin: it parses options, calls the library and prints. Bad input raised as
:class:`gecmetrics.errors.InputError` becomes one line on stderr and exit code 2. The options
every command shares are defined once (:mod:`.shared`), and so is every output format
(:mod:`gecmetrics.output.formats`).

Importing this package loads nothing else (its names are imported on first use): the console
script imports it before :func:`run` can take over Ctrl-C, and what it would import then (click
and the command modules, tens of milliseconds) would be where an early interrupt lands.
"""
from __future__ import annotations

import sys
TYPE_CHECKING = False  # (annotations only: see gecmetrics._lazy)
if TYPE_CHECKING:
    from typing import Any

from .._lazy import lazy_names

_LAZY = {"COMMAND_MODULES": "app", "GecGroup": "app", "main": "app",
         "output_failed": "process", "run_and_exit": "process"}


def run() -> None:
    """The ``gecmetric`` console script (:func:`.process.run_and_exit` of :func:`main`). An
    interrupt while the command's modules are still being imported (before the run's own
    handlers are in place) ends the process as an interrupt of the run does: one line,
    ``gecmetric: aborted``, and exit code 130, not a traceback of the import (nor a line
    "Exception ignored" and the command run anyway, where the interrupt came during a callback
    of the import machinery, which drops it). The run's handlers replace the hook."""
    lost: list[BaseException] = []  # an interrupt Python dropped (raised in a callback of the import machinery)

    def keep_interrupts(unraisable: Any) -> None:
        if isinstance(unraisable.exc_value, KeyboardInterrupt):
            lost.append(unraisable.exc_value)
        else:
            sys.__unraisablehook__(unraisable)

    sys.unraisablehook = keep_interrupts
    try:
        from .app import main
        from .process import run_and_exit
        if lost:
            raise lost[0]
    except KeyboardInterrupt:
        try:
            if sys.stderr is not None:  # (None: started without one, 2>&-)
                print("gecmetric: aborted", file=sys.stderr)
        except (OSError, ValueError):
            pass
        sys.exit(130)
    run_and_exit(main)


__all__ = ["COMMAND_MODULES", "GecGroup", "main", "output_failed", "run"]

__getattr__, __dir__ = lazy_names(__name__, _LAZY)
