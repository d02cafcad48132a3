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


def refuse_idle_attribution_options(methods: list[str], over_bound: str) -> None:
    """attribute's options that none of its ``methods`` reads (they changed nothing): the bound
    and its fallback go with exact Shapley, permutations and the seed with sampled Shapley (asked
    for, or exact Shapley's fallback with --over-bound sample), --normalize with add and
    leave-one-out."""
    exact = "shapley" in methods
    readers = {"max_exact_edits": exact, "over_bound": exact,
               "permutations": "sampled-shapley" in methods or (exact and over_bound == "sample"),
               "normalize": "add" in methods or "leave-one-out" in methods}
    readers["seed"] = readers["permutations"]
    for name, read in readers.items():
        if not read and given_flag(name):
            flag = "--" + name.replace("_", "-")
            raise InputError(f"{flag} does nothing with --method {','.join(methods)} (no method here reads it)")
