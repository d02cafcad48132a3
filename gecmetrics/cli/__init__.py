"""The ``gecmetric`` command: a click group; each subcommand lives in its own module here.

The CLI is thin: it parses options, calls the library and prints. Bad input raised as
:class:`gecmetrics.errors.InputError` becomes one line on stderr and exit code 2.
"""
from __future__ import annotations

import sys

import click

from .. import __version__
from ..errors import InputError


class GecGroup(click.Group):
    """A click group that turns InputError (and broken pipes) into clean exits."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except InputError as err:
            click.echo(f"gecmetric: error: {err}", err=True)
            ctx.exit(2)
        except BrokenPipeError:
            sys.stderr.close()
            ctx.exit(0)


@click.group(cls=GecGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="gecmetric")
def main() -> None:
    """Score grammatical error correction systems: GLEU+, GREEN, M2 (MaxMatch and ERRANT),
    side-by-side comparison, significance tests and agreement with human rankings.

    Run `gecmetric COMMAND --help` for the options of each command.
    """


# Subcommands register themselves by being imported here (one line per module).
from . import gleu as _gleu  # noqa: E402,F401
from . import green as _green  # noqa: E402,F401
from . import m2 as _m2  # noqa: E402,F401
from . import meta as _meta  # noqa: E402,F401
