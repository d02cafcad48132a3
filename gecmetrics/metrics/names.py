"""The table of metric names: the built-in metrics, the installed plugins' entry points (found
once, on the first lookup that needs them) and the names registered at run time, and which name a
metric object answers to (:func:`registered_name`: ``GREEN(unit="char")`` is ``green-char``).

It imports no metric class (a built-in's is named by ``"module:Class"`` and imported on first
use), so the metric base can ask it for a metric's name without an import circle;
:mod:`gecmetrics.metrics.registry` builds ``get_metric``, ``register_metric`` and the
``--metrics`` syntax on it.
"""
from __future__ import annotations

import importlib
import re
import warnings
from dataclasses import dataclass, field
from typing import Any

from ..core.table import number_label
from ..errors import shown

ENTRY_POINT_GROUP = "gecmetrics.metrics"

NAME = re.compile(r"[a-z0-9][a-z0-9_.+-]*")
NAME_RULE = ("a metric name is lower-case letters, digits, '-', '_', '.' and '+', starting with a letter or a "
             "digit (what --metrics NAME:KEY=VALUE,... and a command name can hold)")
"""Why a name is refused: ``--metrics`` lower-cases the name it is given and splits on ',', ':',
'=' and '/', and a command name cannot start with '-', so any other name could be registered
and never reached."""


@dataclass(frozen=True)
class MetricInfo:
    """A registered name: its class (or where to import it from), preset and description."""

    name: str
    target: Any
    """The metric class, or ``"module:Class"`` imported on first use."""
    preset: dict[str, Any] = field(default_factory=dict)
    """Settings fixed by this name (``gleu-max``: ``best_reference=True``)."""
    description: str = ""
    entry_point: str = ""
    """``name = module:Class (package P)`` for an installed plugin (what its messages name)."""

    @property
    def cls(self) -> type:
        if isinstance(self.target, str):
            module, _, attribute = self.target.partition(":")
            return getattr(importlib.import_module(module), attribute)
        return self.target

    @property
    def summary(self) -> str:
        """The description, else the first line of the class's docstring (a plugin's class may
        have none: its name)."""
        lines = (self.cls.__doc__ or "").strip().splitlines()
        return self.description or (lines[0] if lines else self.cls.__name__)

    @property
    def settings(self) -> tuple[str, ...]:
        """The settings a user may give with this name (all but the preset's)."""
        return tuple(name for name in self.cls.settings_class.infos() if name not in self.preset)

    @property
    def defaults(self) -> dict[str, Any]:
        values = self.cls.settings_class(**self.preset).to_dict()
        return {name: values[name] for name in self.cls.settings_class.infos()}

    def __str__(self) -> str:
        defaults = ", ".join(f"{k}={_show(v)}" for k, v in self.defaults.items())
        return f"{self.name}: {self.summary} ({defaults})"


def _show(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return "/".join(_show(v) for v in value)
    if isinstance(value, float):
        return number_label(value)
    if value is None:
        return "none"
    return str(value).lower() if isinstance(value, bool) else str(value)


_BUILT_IN = [
    MetricInfo("gleu", "gecmetrics.metrics.gleu.gleu:GLEU", {},
               "GLEU+ as gec-ranking's code (official variant), references sampled as it does"),
    MetricInfo("gleu-max", "gecmetrics.metrics.gleu.gleu:GLEU", {"best_reference": True},
               "GLEU+ (official) with the best reference per sentence (gleu -m)"),
    MetricInfo("gleu-paper", "gecmetrics.metrics.gleu.gleu:GLEU", {"variant": "paper"},
               "GLEU+ as Equation 1 of 'GLEU Without Tuning' (no per-sentence clamp)"),
    MetricInfo("gleu0", "gecmetrics.metrics.gleu.gleu2015:GLEU2015", {},
               "the original 2015 GLEU (merged references, penalty weight lambda)"),
    MetricInfo("green", "gecmetrics.metrics.green.green:GREEN", {},
               "GREEN, word n-grams (best reference per sentence and beta)"),
    MetricInfo("green-char", "gecmetrics.metrics.green.green:GREEN", {"unit": "char"}, "GREEN, character n-grams"),
    MetricInfo("m2", "gecmetrics.metrics.m2.maxmatch:M2Scorer", {},
               "MaxMatch (NUS M2 scorer) F-beta against gold M2 edits"),
    MetricInfo("sentm2", "gecmetrics.metrics.m2.maxmatch:M2Scorer", {"sentence_average": True},
               "SentM2: mean over sentences of the MaxMatch sentence F-beta (best annotator per sentence)"),
    MetricInfo("senterrant", "gecmetrics.metrics.m2.compare:ErrantCompare", {"sentence_average": True},
               "SentERRANT: mean over sentences of ERRANT's sentence F-beta, hypothesis M2 (best annotator each)"),
    MetricInfo("cleme", "gecmetrics.metrics.cleme.metric:CLEME", {},
               "CLEME F-beta over chunks of hypothesis M2 against the gold M2 (dependent, corpus, length-weighted)"),
    MetricInfo("cleme2", "gecmetrics.metrics.cleme.metric:CLEME2", {},
               "CLEME2.0 aggregate of hit/wrong/under/over-correction rates over chunks of hypothesis M2"),
    MetricInfo("errant", "gecmetrics.metrics.errant.metric:ErrantText", {},
               "ERRANT F-beta of plain-text outputs: annotated as errant_parallel (spaCy), compared as compare_m2"),
    MetricInfo("pt-m2", "gecmetrics.metrics.pt.scorers:PTM2", {},
               "PT-M2: MaxMatch edits weighted by BERTScore (needs the extra gecmetrics[pt])"),
    MetricInfo("pt-errant", "gecmetrics.metrics.pt.scorers:PTErrant", {},
               "PT-ERRANT: edits of hypothesis M2 files (ERRANT) weighted by BERTScore (needs gecmetrics[pt])"),
    MetricInfo("gotoscorer", "gecmetrics.metrics.gotoscorer.metric:GoToScorer", {},
               "GoToScorer F0.5 over chunks of hypothesis M2, each weighted by the share of the systems failing it"),
    MetricInfo("some", "gecmetrics.metrics.models.metric:SOME", {},
               "SOME: BERT regressors of grammar, fluency and meaning, weighted; mean over sentences "
               "(reference-free; needs gecmetrics[models])"),
    MetricInfo("impara", "gecmetrics.metrics.models.metric:IMPARA", {},
               "IMPARA: a BERT quality estimate gated by source-hypothesis similarity; mean over sentences "
               "(reference-free; needs gecmetrics[models])"),
    MetricInfo("scribendi", "gecmetrics.metrics.models.metric:Scribendi", {},
               "Scribendi Score: +1/-1 per changed sentence from a causal LM's perplexities and string similarity; "
               "sum over sentences (reference-free; needs gecmetrics[models])"),
    MetricInfo("bertscore", "gecmetrics.metrics.models.metric:BERTScore", {},
               "BERTScore P, R, F (F headline): token matches with BERT embeddings, best reference per sentence; "
               "mean over sentences (needs gecmetrics[models])"),
    MetricInfo("llm-s", "gecmetrics.metrics.llm.metric:LLMS", {},
               "LLM-S: a chat model scores each hypothesis 1-5 (up to 5 systems a prompt); mean over sentences"),
    MetricInfo("llm-e", "gecmetrics.metrics.llm.metric:LLME", {},
               "LLM-E: a chat model scores each hypothesis's ERRANT edits 1-5; mean over sentences"),
]

_REGISTRY: dict[str, MetricInfo] = {}
_LOADED_ENTRY_POINTS = False
UNUSABLE: dict[str, str] = {}
"""Installed plugins that cannot be used, by entry-point name: why (one line)."""


def table(plugins: bool = True) -> dict[str, MetricInfo]:
    """The registry, with the built-in metrics and, once, the installed plugins (``plugins``:
    look for them; a name found without them needs no scan of the installed packages). A
    plugin's class is loaded on first use (``registry._usable``); a name that breaks the rule of
    names is kept aside as unusable, and a name already taken (a built-in metric's) is one
    warning: the plugin would otherwise be silently ignored."""
    global _LOADED_ENTRY_POINTS
    if not _REGISTRY:
        _REGISTRY.update((info.name, info) for info in _BUILT_IN)
    if plugins and not _LOADED_ENTRY_POINTS:
        _LOADED_ENTRY_POINTS = True
        from importlib.metadata import entry_points

        for point in entry_points(group=ENTRY_POINT_GROUP):
            dist = getattr(getattr(point, "dist", None), "name", None)
            where = f"{point.name} = {point.value}" + (f" (package {dist})" if dist else "")
            taken = _REGISTRY.get(point.name)
            if taken is not None and taken.entry_point != where:
                owner = "a built-in metric" if any(info.name == point.name for info in _BUILT_IN) else \
                    (f"entry point {taken.entry_point}" if taken.entry_point else "a registered metric")
                warnings.warn(f"metric entry point {where} is ignored: {point.name!r} is {owner}")
            elif taken is None and not NAME.fullmatch(point.name):
                UNUSABLE[point.name] = (f"metric entry point {where} cannot be used: {NAME_RULE}, got "
                                        f"{shown(point.name)}")
            elif taken is None:
                _REGISTRY[point.name] = MetricInfo(point.name, point.value, entry_point=where)
                UNUSABLE.pop(point.name, None)
    return _REGISTRY


def registered_name(metric: Any, plugins: bool = True) -> str | None:
    """The registered name a metric object answers to: among the names of its class whose
    preset its settings hold, the one whose preset fixes the most settings (the first
    registered on a tie): ``GREEN(unit="char")`` is ``green-char``, ``GREEN(beta=2)``
    ``green``; None when no name of its class has a preset it holds (an unregistered class).
    An installed plugin's class is not imported to be compared: its ``module:Class`` is.
    ``plugins=False``: among the names known so far, without a scan for installed plugins
    (what a metric's :attr:`~gecmetrics.metrics.base.Metric.display_name` asks: a plugin's
    class names itself by its ``name``)."""
    cls = type(metric)
    where = f"{cls.__module__}:{cls.__qualname__}"
    best, fixed = None, -1
    for info in table(plugins).values():
        if info.target is not cls and info.target != where:
            continue
        preset = preset_of(cls, info)
        wanted = cls.checked_settings(preset)
        if len(preset) > fixed and all(getattr(metric.settings, key) == getattr(wanted, key) for key in preset):
            best, fixed = info.name, len(preset)
    return best


def preset_of(cls: Any, info: MetricInfo) -> dict[str, Any]:
    """A registered name's preset under the settings' canonical names."""
    return {cls.settings_class.canonical_name(key) or key: value for key, value in info.preset.items()}
