"""The ``gecmetric`` group: its commands found lazily (a module of this package each, a command
made for every other registered metric, :mod:`.metric_command`), the options every command
shares added once (``--cache``/``--no-cache``), and bad input as one line with exit code 2."""
from __future__ import annotations

import difflib
import importlib
import signal
import sys
import warnings

import click

from ..core import stop
from ..core.backend import core_name, keep_freed_memory
from ..errors import InputError, InputNote
from ..version import __version__
from .commands import COMMAND_MODULES, METRIC_COMMANDS
from .options import GreedyCommand
from .failures import command_failed, say_error, usage_error_line
from .process import one_line_warning, output_failed, settle_start_up
from .signals import stopped_code
from .shared import cache_params


class SharedOptionsGroup(click.Group):
    """A group whose commands (and subgroups' commands) all take the shared options
    (:func:`~.shared.cache_params`), so that they go before or after a command's name; its
    commands are :class:`~.options.GreedyCommand` s unless they say otherwise, so that a flag of
    one value given twice is refused in every command (``rank``, ``cache prune`` kept the last:
    ``--older-than 300d --older-than 1s`` emptied the cache)."""

    command_class = GreedyCommand

    def get_command(self, ctx: click.Context, name: str):
        return with_shared_options(super().get_command(ctx, name))


def with_shared_options(command: click.Command | None) -> click.Command | None:
    """The command with ``--cache``/``--no-cache`` added (once), its subgroups too."""
    if command is None:
        return None
    if isinstance(command, click.Group) and not isinstance(command, SharedOptionsGroup):
        for sub in command.commands.values():
            with_shared_options(sub)
    names = {param.name for param in command.params}
    command.params.extend(param for param in cache_params() if param.name not in names)
    return command


class GecGroup(SharedOptionsGroup):
    """The top-level group: lazy subcommands; InputError (and broken pipes) become clean exits."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        from .metric_command import metric_command_names

        return sorted(set(super().list_commands(ctx)) | set(COMMAND_MODULES) | set(metric_command_names()))

    def get_command(self, ctx: click.Context, name: str):
        # every module of the name, even when the command is known already: a module that
        # imports another's group (e.g. m2's) must not leave that group half-filled
        for module in COMMAND_MODULES.get(name, ()):
            try:
                importlib.import_module(f"{__package__}.{module}")
            except ModuleNotFoundError as err:
                if err.name != f"{__package__}.{module}":
                    raise
        command = click.Group.get_command(self, ctx, name)
        if command is None and name not in COMMAND_MODULES:
            from .metric_command import metric_command

            command = metric_command(name)
            if command is not None:
                self.add_command(command, name)
        return with_shared_options(command)

    def resolve_command(self, ctx: click.Context, args: list[str]):
        """click suggests a name only among the commands already loaded (``m2 scor``: 'score'), and
        this group loads them lazily: ``gecmetric compar`` is compared with every command's name."""
        try:
            return super().resolve_command(ctx, args)
        except click.UsageError:
            name = str(args[0]) if args else ""
            close = difflib.get_close_matches(name, self.list_commands(ctx), n=3, cutoff=0.6)
            if not close or name.startswith("-"):
                raise
            raise click.UsageError(f"No such command {name!r}. Did you mean {' or '.join(map(repr, close))}?",
                                   ctx) from None

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        """Usage errors in one line (plus a pointer to --help) instead of click's usage block."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except _NO_ARGS_IS_HELP as err:  # a group without its command (gecmetric cache): its help, as click < 8.2
            click.echo(err.ctx.get_help())
            sys.exit(0)
        except click.ClickException as err:
            say_error(usage_error_line(err, [str(a) for a in (args or sys.argv[1:])]))
            sys.exit(err.exit_code)
        except click.Abort:  # Ctrl-C: 128 + SIGINT, as the shell and our SIGTERM/SIGHUP stops report it
            if stop.requested() in (None, signal.SIGINT):  # (a SIGTERM's handler said so already)
                click.echo("gecmetric: aborted", err=True)
            sys.exit(stop.exit_code() or 128 + signal.SIGINT)
        except OSError as err:  # printing --help or a usage error failed (a command's own: invoke)
            sys.exit(output_failed(err))
        sys.exit(code if isinstance(code, int) else 0)

    def invoke(self, ctx: click.Context):
        try:
            with warnings.catch_warnings():
                warnings.showwarning = one_line_warning
                # an input note is one of the command's own lines, as those it prints itself (compare's):
                # printed whatever the Python warnings filter says of warnings
                warnings.filterwarnings("always", category=InputNote)
                return super().invoke(ctx)
        except (InputError, Warning, OSError, MemoryError) as err:
            ctx.exit(stopped_code() or command_failed(err))  # (a stop's: torch's import, 'plots need matplotlib')


_NO_ARGS_IS_HELP = getattr(click.exceptions, "NoArgsIsHelpError", ())
"""click >= 8.2 raises it for a group given no command (older versions print the help themselves)."""


@click.group(cls=GecGroup, context_settings={"help_option_names": ["-h", "--help"]},
             params=cache_params())
@click.version_option(__version__, "-V", "--version", prog_name="gecmetric",
                      message=f"%(prog)s %(version)s (counting core: {core_name()})")
def main() -> None:
    """Score grammatical error correction systems: every registered metric has a command
    (GLEU+, GREEN, M2, ERRANT, CLEME, PT-M2, GoToScorer, SOME, IMPARA, Scribendi, BERTScore,
    LLM judges, plugins), beside side-by-side comparison, significance tests, meta-evaluation
    against human rankings and an HTML report.

    Run `gecmetric COMMAND --help` for the options of each command. Every scoring command takes
    -p/--chunk-lines/--dask/--quiet, --json/--tsv/--markdown/--latex/--format, --scale and
    --signature; `--cache DIR` / `--no-cache` go before or after the command's name (see
    docs/cache.md). `-V/--version` also names the counting core in use: the C extension, or
    NumPy (same numbers, slower; GECMETRICS_NUMPY_CORE=1 chooses it). Shell completion:
    eval "$(_GECMETRIC_COMPLETE=bash_source gecmetric)" (zsh_source, fish_source).
    """
    keep_freed_memory()  # one command per process: reuse freed memory rather than re-fault it
    settle_start_up()  # (the command's module is imported by now: click resolved it first)


__all__ = ["COMMAND_MODULES", "METRIC_COMMANDS", "GecGroup", "SharedOptionsGroup", "main", "with_shared_options"]
