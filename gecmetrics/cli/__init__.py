"""The ``gecmetric`` command: a click group (:mod:`.app`); each subcommand lives in its own module
here (:mod:`.commands` lists them), and every registered metric without one gets a command made
from its settings (:mod:`.metric_command`).

The CLI is thin: it parses options, calls the library and prints. Bad input raised as
:class:`gecmetrics.errors.InputError` becomes one line on stderr and exit code 2. The options
every command shares are defined once (:mod:`.shared`), and so is every output format
(:mod:`gecmetrics.output.formats`).
"""
from __future__ import annotations

from .app import COMMAND_MODULES, GecGroup, main
from .process import output_failed, run_and_exit


def run() -> None:
    """The ``gecmetric`` console script (:func:`.process.run_and_exit` of :func:`main`)."""
    run_and_exit(main)


__all__ = ["COMMAND_MODULES", "GecGroup", "main", "output_failed", "run"]
