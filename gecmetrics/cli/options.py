"""Options that take several values after one flag, as the original tools' argparse
``nargs='+'`` did: ``-r REF0 REF1 -o AMU CAMB``.

Click options take one value per flag; :class:`GreedyCommand` rewrites ``-r A B`` into
``-r A -r B`` before parsing, for the options declared with :class:`GreedyOption`. A value
is every following argument up to the next option-like one (``-`` alone and negative numbers
are values).
"""
from __future__ import annotations

import dataclasses
from typing import Any, Callable, Sequence

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
    alone, without a word)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        greedy = {opt for p in self.params if isinstance(p, GreedyOption) for opt in p.opts}
        single = {opt: p.name for p in self.params if isinstance(p, click.Option) and not isinstance(p, GreedyOption)
                  and not p.is_flag and not p.multiple and not p.count for opt in p.opts}
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


COMMAND_LINE = "gecmetrics.command_line"
"""``ctx.meta`` key of a :class:`GreedyCommand`'s arguments, for an eager option's callback (it
runs before the options after it are read: ``compare --list-metrics --json``)."""


# ----------------------------------------------------------------------------- options from settings


def setting_flags(name: str, info: Any, generate: bool = False) -> tuple[str, ...]:
    """A setting's command-line flags: its own (``setting(..., flags=...)``), else with
    ``generate`` one made from its name (``max_length`` -> ``--max-length``)."""
    if info.flags or not generate:
        return tuple(info.flags)
    return (f"--{name.strip('_').replace('_', '-')}",)


def settings_options(settings_class: type, names: Sequence[str] | None = None, generate: bool = False) -> Callable:
    """Click options for the settings of a metric that declare command-line flags
    (``setting(..., flags=("-i", "--iter"))``; ``generate``: every setting, a flag made from its
    name where it declares none), in declaration order: the help line and the default are the
    setting's own, and the value is read by the setting's parser (:func:`given_settings`), so a
    command and the library check a value the same way. A boolean whose default is false (or
    unset) is a flag; a setting with several values takes them after one flag (``-b 0.5 1 2``).
    ``names``: only these settings."""
    infos = [(name, info, setting_flags(name, info, generate)) for name, info in settings_class.infos().items()
             if (names is None or name in names)]
    infos = [item for item in infos if item[2]]
    defaults = {f.name: f.default for f in dataclasses.fields(settings_class)}

    def decorate(func: Callable) -> Callable:
        for name, info, flags in reversed(infos):
            func = _setting_option(name, info, flags, defaults[name])(func)
        return func
    return decorate


def _setting_option(name: str, info: Any, flags: tuple[str, ...], default: Any) -> Callable:
    help_text = info.help[:1].upper() + info.help[1:] + "."
    if isinstance(default, bool) or (default is None and _boolean(info)):
        return click.option(*flags, name, is_flag=True, default=None, help=help_text)
    if isinstance(default, tuple):
        return click.option(*flags, name, cls=GreedyOption, metavar="VALUE...",
                            help=f"{help_text}  [default: {_shown(default)}]")
    numbers = {int: "INTEGER", float: "NUMBER"}  # (the setting's parser reads them; click would say TEXT)
    metavar = "|".join(getattr(info.parse, "choices", ())) or numbers.get(type(default))
    if default is None and "(auto: " in help_text:  # unset: the metric chooses, as the help says
        help_text = f"{help_text}  [default: auto]"
    elif not (default is None and "(default: " in help_text):  # an unset value the help explains
        help_text = f"{help_text}  [default: {_shown(default)}]"
    return click.option(*flags, name, default=None, metavar=metavar, help=help_text)


def given_settings(settings_class: type, values: dict[str, Any], generate: bool = False) -> dict[str, Any]:
    """The settings given on the command line (absent ones keep the metric's defaults), each read
    by its parser with the flag's name in messages: ``{"iterations": 100}`` for ``-i 100``."""
    given = {}
    for name, info in settings_class.infos().items():
        value, flags = values.get(name), setting_flags(name, info, generate)
        if not flags or value is None or value == () or value is False:
            continue
        given[name] = info.parse("/".join(flags), list(value) if isinstance(value, tuple) else value)
    return given


def _boolean(info: Any) -> bool:
    return getattr(info.parse, "__name__", "") in ("parse_bool", "optional_bool")


def _shown(value: Any) -> str:
    if isinstance(value, tuple):
        return " ".join(_shown(item) for item in value) or "none"
    if isinstance(value, float):
        return f"{value:g}"
    return "none" if value is None else str(value)
