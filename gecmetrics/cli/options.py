"""Options that take several values after one flag, as the original tools' argparse
``nargs='+'`` did: ``-r REF0 REF1 -o AMU CAMB``.

Click options take one value per flag; :class:`GreedyCommand` rewrites ``-r A B`` into
``-r A -r B`` before parsing, for the options declared with :class:`GreedyOption`. A value
is every following argument up to the next option-like one (``-`` alone and negative numbers
are values).
"""
from __future__ import annotations

import click


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
    """A command whose :class:`GreedyOption` options take several values per flag."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        greedy = {opt for p in self.params if isinstance(p, GreedyOption) for opt in p.opts}
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
                current = arg if arg in greedy else None
                rewritten.append(arg)
            elif current is not None:
                if rewritten and rewritten[-1] == current:
                    rewritten.append(arg)
                else:
                    rewritten.extend([current, arg])
            else:
                rewritten.append(arg)
        return super().parse_args(ctx, rewritten)
