"""Where each command lives: the hand-written commands' modules, and the registered metrics
those commands cover. Every other registered metric (plugins included) gets a command made
from its settings (:mod:`.metric_command`); a new hand-written command is a module here and a
line in :data:`COMMAND_MODULES`."""
from __future__ import annotations

# Each subcommand lives in its own module and registers itself on `main` when imported.
# Modules are imported only when their command is used (or listed), so that
# `gecmetric gleu` does not pay for importing the M2 code, and the other way round.
COMMAND_MODULES: dict[str, tuple[str, ...]] = {
    "cache": ("cache",),
    "cherrant": ("cherrant",),
    "cleme": ("cleme",),
    "compare": ("compare",),
    "data": ("data",),
    "gleu": ("gleu",),
    "green": ("green",),
    "gotoscorer": ("gotoscorer",),
    "llm": ("llm",),
    "m2": ("m2", "m2_score", "annotate"),
    "errant": ("errant",),
    "meta-eval": ("meta",),
    "pt-m2": ("pt",),
    "pt-errant": ("pt",),
    "rank": ("rank",),
    "demo": ("demo",),
    "report": ("report",),
    "attribute": ("attribute",),
}

METRIC_COMMANDS: dict[str, tuple[str, ...]] = {
    "gleu": ("gleu",),
    "gleu-max": ("gleu", "-m"),
    "gleu-paper": ("gleu", "--variant", "paper"),
    "gleu0": ("gleu", "--variant", "gleu0"),
    "green": ("green",),
    "green-char": ("green", "-t", "char"),
    "m2": ("m2", "score"),
    "sentm2": ("m2", "score", "--sentence-average"),
    "senterrant": ("m2", "compare", "--sentence-average"),
    "cleme": ("cleme",),
    "cleme2": ("cleme", "--cleme2"),
    "errant": ("errant",),
    "pt-m2": ("pt-m2",),
    "pt-errant": ("pt-errant",),
    "gotoscorer": ("gotoscorer",),
    "llm-s": ("llm", "--variant", "s"),
    "llm-e": ("llm", "--variant", "e"),
}
"""The registered metrics whose original tool's flags a hand-written command keeps: the command
and the arguments that select the metric. A name that is not a command itself (``gleu-max``)
becomes one: the command with those arguments (``gecmetric gleu-max ...`` = ``gecmetric gleu -m
...``)."""
