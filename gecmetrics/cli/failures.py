"""A command's failure as one line on stderr, and its exit code (:meth:`.app.GecGroup.invoke`)."""
from __future__ import annotations

import errno
import re

import click

from ..errors import InputError
from .process import output_failed


def say_error(text: str) -> None:
    """``gecmetric: error: TEXT`` on stderr; a stderr that cannot be written (``2>/dev/full``,
    ``2>&-``) loses the line, not the exit code (a failed echo made a 2 a 1)."""
    try:
        click.echo(f"gecmetric: error: {text}", err=True)
    except OSError:
        pass


def command_failed(err: BaseException) -> int:
    """One line for a command's failure (bad input, a warning made an error, memory refused, a
    failed write: an OSError), and its exit code: 2 for bad input, else 1."""
    if isinstance(err, InputError):
        say_error(str(err))
        return 2
    if isinstance(err, Warning):  # a warning the Python warnings filter made an error (PYTHONWARNINGS=error)
        text = " ".join(str(err).split())  # (an InputNote, always printed, is never one; its str() is its text)
        say_error(f"{text} (a warning, made an error by the Python warnings filter)")
        return 2
    if isinstance(err, OSError) and err.errno in (errno.EMFILE, errno.ENFILE):  # (whatever file it came from:
        # a worker's pipe, a module imported late, an output: none of them is the cause)
        say_error(f"too many open files ({err.strerror}): the process may open fewer than the command needs "
                  "(ulimit -n; fewer -p workers need fewer)")
        return 1
    if isinstance(err, MemoryError):  # (every file the run was writing was removed on the way)
        say_error("out of memory (the system refused the memory the command asked for; smaller --chunk-lines or "
                  "fewer -p workers need less)")
        return 1
    return output_failed(err)  # writing the output failed


def usage_error_line(err: click.ClickException, given: list[str]) -> str:
    """A usage error (click's) as one line, plus a pointer to the command's --help; ``given``: the
    command line's arguments."""
    hint = f" (see '{err.ctx.command_path} --help')" if getattr(err, "ctx", None) else ""
    message = re.sub(r"\s*\n\s*", " ", err.format_message().strip())  # click's "Choose from:\n\t..."
    if isinstance(err, click.NoSuchOption) and re.fullmatch(r"-[\d.]+", err.option_name):  # --paired-bs -1
        option = next((a for a in given if a.startswith(err.option_name)), err.option_name)
        message = f"{option} is no option, and no count of --paired-bs or --paired-ar either (they take N >= 1)"
    elif isinstance(err, click.NoSuchOption) and "-help" in given:  # read as -h -e -l -p
        message = "-help is no option: --help (or -h) prints a command's help"
    return f"{message}{hint}"
