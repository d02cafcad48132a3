"""The ``gecmetric`` command: a click group; each subcommand lives in its own module here.

The CLI is thin: it parses options, calls the library and prints. Bad input raised as
:class:`gecmetrics.errors.InputError` becomes one line on stderr and exit code 2.
"""
from __future__ import annotations

import errno
import importlib
import os
import signal
import sys

import click

from ..version import __version__
from ..core.backend import core_name, keep_freed_memory
from ..errors import InputError


# Each subcommand lives in its own module and registers itself on `main` when imported.
# Modules are imported only when their command is used (or listed), so that
# `gecmetric gleu` does not pay for importing the M2 code, and the other way round.
COMMAND_MODULES: dict[str, tuple[str, ...]] = {
    "cache": ("cache",),
    "cherrant": ("cherrant",),
    "cleme": ("cleme",),
    "compare": ("compare",),
    "data": ("data",),
    "gleu": ("gleu",),
    "green": ("green",),
    "gotoscorer": ("gotoscorer",),
    "llm": ("llm",),
    "m2": ("m2", "m2_score", "annotate"),
    "errant": ("errant",),
    "meta-eval": ("meta",),
    "pt-m2": ("pt",),
    "pt-errant": ("pt",),
    "rank": ("rank",),
    "demo": ("demo",),
    "report": ("report",),
    "attribute": ("attribute",),
}


class GecGroup(click.Group):
    """The top-level group: lazy subcommands; InputError (and broken pipes) become clean exits."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(COMMAND_MODULES))

    def get_command(self, ctx: click.Context, name: str):
        # every module of the name, even when the command is known already: a module that
        # imports another's group (e.g. m2's) must not leave that group half-filled
        if name in COMMAND_MODULES:
            for module in COMMAND_MODULES[name]:
                try:
                    importlib.import_module(f"{__name__}.{module}")
                except ModuleNotFoundError as err:
                    if err.name != f"{__name__}.{module}":
                        raise
        return super().get_command(ctx, name)

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        """Usage errors in one line (plus a pointer to --help) instead of click's usage block."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.ClickException as err:
            hint = f" (see '{err.ctx.command_path} --help')" if getattr(err, "ctx", None) else ""
            click.echo(f"gecmetric: error: {err.format_message()}{hint}", err=True)
            sys.exit(err.exit_code)
        except click.Abort:
            click.echo("gecmetric: aborted", err=True)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except InputError as err:
            click.echo(f"gecmetric: error: {err}", err=True)
            ctx.exit(2)
        except OSError as err:  # writing the output failed
            ctx.exit(output_failed(err))


@click.group(cls=GecGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="gecmetric",
                      message=f"%(prog)s %(version)s (counting core: {core_name()})")
@click.option("--cache", "cache_folder", metavar="DIR",
              help="Folder of the persistent cache of parses and encodings [default: $GECMETRICS_CACHE, else "
                   "the user cache folder].")
@click.option("--no-cache", is_flag=True, help="Neither read nor store cached parses and encodings.")
def main(cache_folder: str | None = None, no_cache: bool = False) -> None:
    """Score grammatical error correction systems: GLEU+, GREEN, M2 (MaxMatch and ERRANT),
    side-by-side comparison, significance tests and agreement with human rankings.

    Run `gecmetric COMMAND --help` for the options of each command. `--version` also names
    the counting core in use: the C extension, or NumPy (same numbers, slower; set
    GECMETRICS_NUMPY_CORE=1 to choose it). `--cache DIR` / `--no-cache` (before the command)
    choose the persistent cache of spaCy parses and model encodings (see docs/cache.md).
    """
    keep_freed_memory()  # one command per process: reuse freed memory rather than re-fault it
    from .context import remember_cache

    remember_cache(cache_folder, no_cache)  # the command's run context is made from it, when needed


def output_failed(err: OSError) -> int:
    """The exit code of a failed write to stdout: a closed pipe (``| head``) ends quietly with
    0, as the reader has what it wanted; any other failure (a full disk) is one line and 1."""
    if isinstance(err, BrokenPipeError) or err.errno == errno.EPIPE:
        try:
            sys.stderr.close()
        except OSError:
            pass
        return 0
    try:
        print(f"gecmetric: error: cannot write the output: {err.strerror or err}", file=sys.stderr)
    except OSError:
        pass
    return 1


def _stop(signum: int, _frame: object) -> None:
    """SIGTERM or SIGHUP: stop as an interrupt does, so that every ``finally`` runs (worker
    processes are ended, an unfinished output file is removed) before the process exits."""
    if os.getpid() == _MAIN_PROCESS[0]:  # a worker the run ends on its way out says nothing
        try:
            print(f"gecmetric: stopped by {signal.Signals(signum).name}", file=sys.stderr)
        except (OSError, ValueError):
            pass
    raise SystemExit(128 + signum)


_MAIN_PROCESS = [0]


def run() -> None:
    """The ``gecmetric`` console script: :func:`main`, then an immediate exit.

    Once the command has finished and its output is flushed, the process exits without tearing
    down the interpreter (freeing every array and object one by one, which the system does
    anyway): about 15 ms of a 0.25 s scoring run. Python callers (and tests) use ``main``.
    """
    _MAIN_PROCESS[0] = os.getpid()
    # The matrix products here are small: a pool of BLAS threads only costs start-up time (about
    # 0.07 s of CPU per run). Set for this process only (the command's, before NumPy is first
    # imported), never for a program that imports gecmetrics; a user's setting wins.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), _stop)
    try:
        main()
        code = 0
    except SystemExit as stop:
        code = stop.code
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
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    os._exit(code or 0)
