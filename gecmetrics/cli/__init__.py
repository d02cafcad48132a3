"""The ``gecmetric`` command: a click group (:mod:`.app`); each subcommand lives in its own module
here (:mod:`.commands` lists them), and every registered metric without one gets a command made
from its settings (:mod:`.metric_command`).

The CLI is thin: it parses options, calls the library and prints. Bad input raised as
:class:`gecmetrics.errors.InputError` becomes one line on stderr and exit code 2. The options
every command shares are defined once (:mod:`.shared`), and so is every output format
(:mod:`gecmetrics.output.formats`).
"""
from __future__ import annotations

import os

# The matrix products here are small: a pool of BLAS threads only costs start-up time
# (about 0.07 s of CPU per run). Set before NumPy is first imported; a user's setting wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from .app import COMMAND_MODULES, GecGroup, main  # noqa: E402
from .process import output_failed, run_and_exit  # noqa: E402


def run() -> None:
    """The ``gecmetric`` console script (:func:`.process.run_and_exit` of :func:`main`)."""
    run_and_exit(main)

__all__ = ["COMMAND_MODULES", "GecGroup", "main", "output_failed", "run"]
