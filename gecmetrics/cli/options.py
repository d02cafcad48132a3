"""Options that take several values after one flag, as the original tools' argparse
``nargs='+'`` did: ``-r REF0 REF1 -o AMU CAMB``.

Click options take one value per flag; :class:`GreedyCommand` rewrites ``-r A B`` into
``-r A -r B`` before parsing, for the options declared with :class:`GreedyOption`. A value
is every following argument up to the next option-like one (``-`` alone and negative numbers
are values).
"""
from __future__ import annotations

import click

from ..errors import InputError


def _is_option(arg: str) -> bool:
    if not arg.startswith("-") or arg == "-":
        return False
    try:
        float(arg)
    except ValueError:
        return True
    return False


class GreedyOption(click.Option):
    """An option taking one or more values after a single flag (always a tuple)."""

    def __init__(self, *args, **kwargs):
        kwargs["multiple"] = True
        kwargs.setdefault("metavar", "FILE...")
        super().__init__(*args, **kwargs)


class GreedyCommand(click.Command):
    """A command whose :class:`GreedyOption` options take several values per flag; an option of
    one value given twice is refused (click kept the last: ``m2 compare -hyp A -hyp B`` scored B
    alone, without a word). ``spellings``: an original tool's other long names of its options,
    each read as ours (GREEN's ``--refs`` as ``--reference``); ``--help`` lists them."""

    def __init__(self, *args, spellings: dict[str, str] | None = None, **kwargs) -> None:
        self.spellings = spellings or {}
        super().__init__(*args, **kwargs)
        if self.spellings:
            listed = ", ".join(f"{other} ({ours})" for other, ours in self.spellings.items())
            self.epilog = f"{self.epilog or ''}\n\nThe original's spellings, read as ours: {listed}.".lstrip()

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        greedy = {opt for p in self.params if isinstance(p, GreedyOption) for opt in p.opts}
        single = {opt: p.name for p in self.params if isinstance(p, click.Option) and not isinstance(p, GreedyOption)
                  and not p.is_flag and not p.multiple and not p.count for opt in p.opts}
        args = _respelled(args, self.spellings, set(single))
        args = _short_values_split(args, greedy | set(single))
        seen: set[str] = set()
        rewritten: list[str] = []
        current: str | None = None
        ended = False
        for arg in args:
            if ended:
                rewritten.append(arg)
            elif arg == "--":
                ended = True
                rewritten.append(arg)
            elif _is_option(arg):
                flag = arg.split("=", 1)[0]
                name = single.get(flag)
                if name is not None:
                    if name in seen:
                        raise InputError("is given twice: give it once", flag)
                    seen.add(name)
                current = arg if arg in greedy else None
                rewritten.append(arg)
            elif current is not None:
                if rewritten and rewritten[-1] == current:
                    rewritten.append(arg)
                else:
                    rewritten.extend([current, arg])
            else:
                rewritten.append(arg)
        ctx.meta[COMMAND_LINE] = tuple(rewritten)
        return super().parse_args(ctx, rewritten)


def _respelled(args: list[str], spellings: dict[str, str], taking_a_value: set[str]) -> list[str]:
    """``args`` with each flag of ``spellings`` (alone, or before ``=value``) as its name in it,
    up to ``--``; the value after a flag of ``taking_a_value`` stays as it is (``-s --ref`` reads
    the file ``--ref``, as click reads it)."""
    if not spellings:
        return args
    respelled: list[str] = []
    value_next = False
    for k, arg in enumerate(args):
        if arg == "--":
            return respelled + args[k:]
        flag, equals, value = arg.partition("=")
        if not value_next and flag.startswith("--"):
            flag = spellings.get(flag, flag)
            arg = flag + equals + value
        respelled.append(arg)
        value_next = not value_next and not equals and flag in taking_a_value
    return respelled


def _short_values_split(args: list[str], taking_values: set[str]) -> list[str]:
    """``-b=1`` as ``-b 1`` for a one-letter option that takes a value, as the original tools'
    argparse reads it (click read the value '=1'); ``-cat=3`` and ``--beta=1`` click reads
    itself. Arguments after ``--`` are left as they are."""
    split: list[str] = []
    for k, arg in enumerate(args):
        if arg == "--":
            return split + args[k:]
        if len(arg) > 2 and arg[2] == "=" and arg[0] == "-" and arg[:2] in taking_values:
            split.extend([arg[:2], arg[3:]])
        else:
            split.append(arg)
    return split


COMMAND_LINE = "gecmetrics.command_line"
"""``ctx.meta`` key of a :class:`GreedyCommand`'s arguments, for an eager option's callback (it
runs before the options after it are read: ``compare --list-metrics --json``)."""
