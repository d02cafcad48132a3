"""Click options made from a metric's settings: the help line, default and parser are the
setting's own, so a command and the library check a value the same way."""
from __future__ import annotations

import dataclasses
from typing import Any, Callable, Sequence

import click

from .options import GreedyOption


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
    unset) is a flag, one whose default is true a pair --x/--no-x; a setting with several values
    takes them after one flag (``-b 0.5 1 2``).
    ``names``: only these settings."""
    infos = [(name, info, setting_flags(name, info, generate)) for name, info in settings_class.infos().items()
             if (names is None or name in names)]
    infos = [item for item in infos if item[2]]
    defaults = _defaults(settings_class)

    def decorate(func: Callable) -> Callable:
        for name, info, flags in reversed(infos):
            func = _setting_option(name, info, flags, defaults[name])(func)
        return func
    return decorate


def _setting_option(name: str, info: Any, flags: tuple[str, ...], default: Any) -> Callable:
    help_text = info.help[:1].upper() + info.help[1:] + "."
    if default is True:  # on unless turned off: --x/--no-x (a one-way --x could not turn it off)
        pairs = [f"{flag}/--no-{flag[2:]}" for flag in flags if flag.startswith("--")]
        return click.option(*(pairs or flags), name, is_flag=True, default=None, help=f"{help_text}  [default: on]")
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
    defaults = _defaults(settings_class)
    for name, info in settings_class.infos().items():
        value, flags = values.get(name), setting_flags(name, info, generate)
        if not flags or value is None or value == () or (value is False and defaults.get(name) is not True):
            continue  # (a one-way flag not given is False; --no-x of a setting on by default is given)
        given[name] = info.parse("/".join(flags), list(value) if isinstance(value, tuple) else value)
    return given


def _defaults(settings_class: type) -> dict[str, Any]:
    """Each setting's default, by name."""
    return {f.name: f.default for f in dataclasses.fields(settings_class)}


def _boolean(info: Any) -> bool:
    return getattr(info.parse, "__name__", "") in ("parse_bool", "optional_bool")


def _shown(value: Any) -> str:
    if isinstance(value, tuple):
        return " ".join(_shown(item) for item in value) or "none"
    if isinstance(value, float):
        return f"{value:g}"
    return "none" if value is None else str(value)
