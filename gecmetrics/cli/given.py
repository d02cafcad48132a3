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


def refuse_idle_attribution_options(methods: list[str], over_bound: str,
                                    names: tuple[str, ...] = ("max_exact_edits", "over_bound", "permutations", "seed",
                                                              "normalize"), flag: str = "--method") -> None:
    """The attribution options among ``names`` given that none of ``methods`` reads (they
    changed nothing; which method reads which: :func:`~gecmetrics.stats.attribution.idle_options`):
    attribute's, or the report's (``flag``: the command's flag of the methods)."""
    from ..stats.attribution import idle_options

    idle = idle_options(methods, [name for name in names if given_flag(name)], over_bound)
    if idle:
        option = "--" + idle[0].replace("_", "-")
        raise InputError(f"{option} does nothing with {flag} {','.join(methods)} (no method here reads it)")


def refuse_gotoscorer_weight_flags(no_weight: bool, category: str | None, weight_file: str | None,
                                   make_weights: str | None) -> None:
    """gotoscorer's weight flags that contradict each other or change nothing: -w_file reads the
    levels -gen_w_file writes; with -no_weight every chunk weighs 1, so -a, -b, -c and a weight
    file's levels change no score (only the signature), unless -cat prints its table, which
    weighs the chunks whatever -no_weight, as the original's does (-gen_w_file still writes)."""
    if weight_file is not None and make_weights is not None:
        raise InputError("-w_file reads weights and -gen_w_file writes the systems' weights: give one of them")
    idle = [flag for name, flag in (("a", "-a"), ("b", "-b"), ("c", "-c"), ("weight_file", "-w_file"))
            if no_weight and category is None and given_flag(name)]
    if idle:
        raise InputError(f"{', '.join(idle)} {'does' if len(idle) == 1 else 'do'} not apply to -no_weight (every "
                         "chunk weighs 1: the weights a - (n + b) / (N + c) and a weight file's levels change only "
                         "the -cat table)")
