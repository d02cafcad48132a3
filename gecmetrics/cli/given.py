"""Which flags the running command was given (not left at their defaults): for refusing a flag
that would change nothing in its combination, rather than ignoring it."""
from __future__ import annotations

import click

from ..errors import InputError


def given_flag(name: str) -> bool:
    """Whether the running command's parameter ``name`` was given (on the command line or by
    the environment), not left at its default."""
    ctx = click.get_current_context(silent=True)
    source = ctx.get_parameter_source(name) if ctx is not None else None
    return source is not None and source is not click.core.ParameterSource.DEFAULT


def refuse_idle_seed(idle: bool) -> None:
    """A --seed given where nothing is drawn (``idle``: no paired test of a command whose --seed is
    the test's) is refused, as meta-eval and gleu -i with -m refuse what would change nothing."""
    if idle and given_flag("seed"):
        raise InputError("--seed is the seed of a paired test's resampling: nothing is drawn without --paired-bs "
                         "or --paired-ar")
