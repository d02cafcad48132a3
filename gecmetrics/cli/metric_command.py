"""A command for every registered metric (plugins included) that no module of this package
writes by hand: ``gecmetric some -s SRC -o HYP... --model DIR``, ``gecmetric bertscore -s SRC
-r REF... -o HYP...``. Its options come from the metric: the input files from what it reads
(:mod:`.inputs`), one option per setting (the setting's flags, help and parser; ``--name`` for a
setting without flags) and the options every scoring command shares. It prints what ``compare``
prints for the metric (``--sentence``: a score per sentence).

A registered name that a hand-written command covers with its original tool's flags
(:data:`~.commands.METRIC_COMMANDS`, e.g. ``gleu-max`` = ``gleu -m``) is that command with the
flags that select the metric."""
from __future__ import annotations

import warnings
from typing import Any, Sequence

import click

from ..errors import InputError
from ..kinds import M2
from .commands import COMMAND_MODULES, METRIC_COMMANDS
from .common import corpus_files
from .inputs import inputs_for
from .options import GreedyCommand
from .setting_options import given_settings, settings_options
from .scoring import ScoringOptions, run_scoring, scoring_options


def metric_command_names() -> list[str]:
    """Every registered metric that is not a hand-written command's own name (an installed
    plugin that cannot be loaded is left out, with a warning: ``list_metrics``)."""
    from ..metrics.registry import list_metrics
    from .process import one_line_warning

    with warnings.catch_warnings():  # --help lists outside the group's invoke: its warnings in one line too
        warnings.showwarning = one_line_warning
        infos = list_metrics()
        for info in infos:  # (it was shadowed without a word: `gecmetric demo` ran the demo)
            if info.entry_point and info.name in COMMAND_MODULES and info.name not in _WARNED:
                _WARNED.add(info.name)
                warnings.warn(f"metric entry point {info.entry_point} has no command of its own: {info.name!r} is a "
                              f"gecmetric command; use it with --metrics {info.name} (compare, report, meta-eval)")
        return [info.name for info in infos if info.name not in COMMAND_MODULES]


_WARNED: set[str] = set()
"""The plugins named like a command that were warned about (once a run)."""


def metric_command(name: str) -> click.Command | None:
    """The command of a registered metric (None: no such metric)."""
    if name in METRIC_COMMANDS:
        return AliasCommand(name, METRIC_COMMANDS[name])
    from ..metrics.registry import find_metric

    info = find_metric(name)  # an installed plugin that cannot be loaded: its InputError, one line
    return None if info is None else generated_command(info)


def _description(name: str) -> str:
    from ..metrics.registry import metric_info

    return metric_info(name).summary.rstrip(".")  # (the help adds the period: a docstring's own made '..')


# ----------------------------------------------------------------------------- generated commands


def generated_command(info: Any) -> click.Command:
    """A scoring command for a registered metric, made from its class and settings."""
    from ..metrics.registry import declared_kind

    metric_class = info.cls
    reference_kind, hypothesis_kind = (declared_kind(metric_class, kind)
                                       for kind in ("reference_kind", "hypothesis_kind"))
    names = [name for name in metric_class.settings_class.infos() if name not in info.preset]

    def callback(**options: Any) -> None:
        from ..metrics.registry import get_metric

        out = ScoringOptions.take(options)
        files = _files(options, reference_kind, hypothesis_kind)
        metric = get_metric(info.name, **given_settings(metric_class.settings_class, options, generate=True))
        run_scoring(info.name, [metric], files, None, out)

    decorated = inputs_for(reference_kind, hypothesis_kind)(settings_options(
        metric_class.settings_class, names, generate=True)(scoring_options(mean=False)(callback)))
    description = _description(info.name)
    example = {M2: "-s GOLD.m2 -o HYP..." if hypothesis_kind != M2 else "-hyp HYP.m2... -ref GOLD.m2"}.get(
        reference_kind, "-s SRC -r REF... -o HYP..." if reference_kind != "none" else "-s SRC -o HYP...")
    if "model" in names and metric_class.settings_class.__dataclass_fields__["model"].default is None:
        example += " --model DIR"  # (SOME: no model it could fetch)
    help_text = (f"{description}.\n\n\b\ngecmetric {info.name} {example}\n\nPrints what `gecmetric compare "
                 f"--metrics {info.name}` prints (--sentence: a score per sentence); settings as in --metrics "
                 f"{info.name}:KEY=VALUE.")
    return click.command(info.name, cls=GreedyCommand, help=help_text)(decorated)


def _files(options: dict[str, Any], reference_kind: str, hypothesis_kind: str) -> Any:
    hypotheses = options.pop("hypotheses")
    if reference_kind == M2:
        return corpus_files(None, (), hypotheses, options.pop("gold_path"), m2_hypotheses=hypothesis_kind == M2)
    return corpus_files(options.pop("source"), options.pop("references", ()) or (), hypotheses,
                        hypothesis_m2=options.pop("hypothesis_m2", ()) or ())


# ----------------------------------------------------------------------------- aliases of hand-written commands


class AliasCommand(click.Command):
    """``gecmetric NAME ARGS`` = ``gecmetric COMMAND FIXED ARGS`` (``gleu-max`` = ``gleu -m``):
    the arguments go to the command, whose --help this prints; giving a fixed option again is an
    error."""

    def __init__(self, name: str, target: Sequence[str]) -> None:
        self.path = list(target[:_command_words(target)])
        self.fixed = list(target[len(self.path):])
        description = _description(name)
        super().__init__(name, help=f"(= gecmetric {' '.join(target)}) {description}.", add_help_option=False,
                         context_settings={"ignore_unknown_options": True, "allow_extra_args": True,
                                           "allow_interspersed_args": False})

    def invoke(self, ctx: click.Context) -> Any:
        target, parent = self._target(ctx)
        fixed_flags = {flag for param in target.params if set(getattr(param, "opts", ())) & set(self.fixed)
                       for flag in (*param.opts, *param.secondary_opts)}
        for arg in ctx.args:
            if arg.split("=", 1)[0] in fixed_flags:
                raise InputError(f"{self.name} is `gecmetric {' '.join(self.path + self.fixed)}`: "
                                 f"{arg.split('=', 1)[0]} is fixed (run {' '.join(self.path)} to choose it)")
        if set(ctx.args) & {"--help", "-h"}:  # the target's help, said to be with these flags fixed
            flags = " ".join(arg for arg in self.fixed if arg.startswith("-"))
            click.echo(f"{self.name} is `gecmetric {' '.join(self.path + self.fixed)}`: the options below are "
                       f"{' '.join(self.path)}'s, with {flags} fixed.\n")
        with target.make_context(self.name, [*self.fixed, *ctx.args], parent=parent) as sub:
            return target.invoke(sub)

    def _target(self, ctx: click.Context) -> tuple[click.Command, click.Context]:
        parent, command = ctx.parent, ctx.find_root().command
        for word in self.path:
            assert isinstance(command, click.Group)
            command = command.get_command(ctx, word)
        return command, parent


def _command_words(target: Sequence[str]) -> int:
    """How many leading words of a :data:`METRIC_COMMANDS` entry name commands (``m2 score``)."""
    words = 0
    while words < len(target) and not target[words].startswith("-"):
        words += 1
    return words
