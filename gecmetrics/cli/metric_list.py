"""``gecmetric compare --list-metrics``: the registered metric names, their defaults and settings,
as text or (``--json``) as JSON."""
from __future__ import annotations

from typing import Any

import click

from ..errors import InputError
from ..metrics.registry import list_metrics, settings_help
from .common import echo_json
from .options import COMMAND_LINE
from .shared import FORMAT_FLAGS


def print_metric_list(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    """The eager ``--list-metrics`` option's callback: print the list and exit."""
    if not value or ctx.resilient_parsing:
        return
    fmt = asked_format(ctx.meta.get(COMMAND_LINE, ()))
    if fmt == "json":
        echo_json(metric_list())
    elif fmt not in (None, "text"):
        raise InputError("prints text, or JSON with --json", "--list-metrics")
    else:
        for info in list_metrics():
            click.echo(str(info))
        click.echo("\nsettings, written NAME:KEY=VALUE:KEY=VALUE (KEY or an alias in parentheses):")
        for line in settings_help().splitlines():
            click.echo("  " + line)
    ctx.exit(0)


def asked_format(args: tuple[str, ...]) -> str | None:
    """The output format a command line asks for with a format flag or ``--format NAME`` (the
    last one given; None: none)."""
    asked = None
    for k, arg in enumerate(args):
        if arg == "--":
            break
        if arg.startswith("--format="):
            asked = arg.split("=", 1)[1]
        elif arg == "--format" and k + 1 < len(args):
            asked = args[k + 1]
        elif arg.startswith("--") and arg[2:] in FORMAT_FLAGS:
            asked = arg[2:]
    return asked


def metric_list() -> list[dict[str, Any]]:
    """Per registered name: its description, the settings the name fixes (``preset``), every
    setting's default, and the settings a user may give (aliases and help)."""
    listed = []
    for info in list_metrics():
        infos = info.cls.settings_class.infos()
        listed.append({"name": info.name, "description": info.summary, "preset": dict(info.preset),
                       "defaults": info.defaults,
                       "settings": {name: {"aliases": list(infos[name].aliases), "help": infos[name].help}
                                    for name in info.settings}})
    return listed
