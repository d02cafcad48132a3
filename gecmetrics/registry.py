"""Metrics by name: ``get_metric("green", beta=[0.5, 1, 2])``, ``list_metrics()``, and the
small text syntax of ``gecmetric compare --metrics`` (``gleu,green:beta=0.5/1/2:unit=char``).

Each name is a metric with a default configuration chosen to reproduce the original tool's
published numbers (``gleu`` samples references exactly as gec-ranking, i.e. ``-f``); settings
override it by keyword. Unknown names or settings raise :class:`InputError` listing the valid
ones. :func:`column_labels` gives the compact column headers of a comparison table.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from .errors import InputError
from .metrics.gleu import GLEU
from .metrics.green import GREEN
from .units import UNITS

DEFAULT_ORDER = 4
DEFAULT_ITERATIONS = 500


# ----------------------------------------------------------------------------- settings


def _parse_int(name: str, value: Any) -> int:
    if isinstance(value, bool):
        raise InputError(f"setting {name} must be an integer, got {value!r}")
    try:
        number = int(value) if not isinstance(value, float) or value.is_integer() else None
    except (TypeError, ValueError):
        number = None
    if number is None:
        raise InputError(f"setting {name} must be an integer, got {value!r}")
    return number


def _parse_float(name: str, value: Any) -> float:
    if isinstance(value, bool):
        raise InputError(f"setting {name} must be a number, got {value!r}")
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise InputError(f"setting {name} must be a number, got {value!r}") from None
    if math.isnan(number):
        raise InputError(f"setting {name} must be a number, got {value!r}")
    return number


def _parse_floats(name: str, value: Any) -> list[float]:
    if isinstance(value, str):
        items: Sequence[Any] = [item for item in value.split("/")]
    elif isinstance(value, (list, tuple)):
        items = value
    else:
        items = [value]
    if not items or any(item == "" for item in items):
        raise InputError(f"setting {name} needs one or more numbers separated by '/', got {value!r}")
    return [_parse_float(name, item) for item in items]


_TRUE = ("true", "yes", "1", "on")
_FALSE = ("false", "no", "0", "off")


def _parse_bool(name: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise InputError(f"setting {name} must be true or false, got {value!r}")


def _parse_unit(name: str, value: Any) -> str:
    if value not in UNITS:
        raise InputError(f"setting {name} must be one of: {', '.join(UNITS)}; got {value!r}")
    return str(value)


@dataclass(frozen=True)
class Setting:
    """One keyword a metric name accepts: its parser and what it means."""

    name: str
    parse: Callable[[str, Any], Any]
    help: str
    aliases: tuple[str, ...] = ()


SETTINGS: dict[str, Setting] = {s.name: s for s in [
    Setting("n", _parse_int, "maximum n-gram order"),
    Setting("unit", _parse_unit, "word or char"),
    Setting("normalize_space", _parse_bool, "char unit: collapse whitespace first"),
    Setting("iterations", _parse_int, "reference-sampling iterations", ("iter", "i")),
    Setting("fix_seed", _parse_bool, "gec-ranking's Python 2 draws (-f)", ("f",)),
    Setting("seed", _parse_int, "seed of NumPy draws (implies fix_seed=false)"),
    Setting("lambda_", _parse_float, "gleu0 penalty weight", ("lambda", "l")),
    Setting("beta", _parse_floats, "F-beta weight(s); GREEN takes several: 0.5/1/2", ("b",)),
    Setting("max_unchanged_words", _parse_int, "M2: unchanged words an edit may span", ("max_unchanged",)),
    Setting("ignore_whitespace_casing", _parse_bool, "M2: drop case/space-only edits", ("iwc",)),
]}

_ALIASES = {alias: s.name for s in SETTINGS.values() for alias in (s.name, *s.aliases)}


# ----------------------------------------------------------------------------- the registry


@dataclass(frozen=True)
class MetricInfo:
    """A registered metric name: what it is, its default configuration, its settings."""

    name: str
    description: str
    defaults: dict[str, Any]
    settings: tuple[str, ...]
    needs_gold_m2: bool = False

    def __str__(self) -> str:
        defaults = ", ".join(f"{k}={_show(v)}" for k, v in self.defaults.items())
        return f"{self.name}: {self.description} ({defaults})"


@dataclass(frozen=True)
class _Entry:
    info: MetricInfo
    build: Callable[[dict[str, Any]], Any]


def _show(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return "/".join(_show(v) for v in value)
    if isinstance(value, float):
        return f"{value:g}"
    if value is None:
        return "none"
    return str(value).lower() if isinstance(value, bool) else str(value)


def _sampling(config: dict[str, Any], given: set[str]) -> tuple[bool, int]:
    """fix_seed and seed: a seed alone means NumPy draws; both together is a contradiction."""
    seed = config["seed"]
    fix_seed = config["fix_seed"]
    if seed is not None and "fix_seed" not in given:
        fix_seed = False
    if seed is not None and fix_seed:
        raise InputError("setting seed applies to NumPy draws; it cannot go with fix_seed=true")
    return fix_seed, 0 if seed is None else seed


def _gleu_builder(variant: str, best_reference: bool = False) -> Callable[[dict[str, Any]], GLEU]:
    def build(config: dict[str, Any]) -> GLEU:
        given = config.pop("_given")
        fix_seed, seed = _sampling(config, given) if "fix_seed" in config else (False, 0)
        return GLEU(variant, config["n"], config["unit"], iterations=config.get("iterations", DEFAULT_ITERATIONS),
                    fix_seed=fix_seed, seed=seed, best_reference=best_reference,
                    lambda_=config.get("lambda_"), normalize_space=config["normalize_space"])
    return build


def _green_builder(config: dict[str, Any]) -> GREEN:
    config.pop("_given")
    return GREEN(config["n"], config["beta"], config["unit"], config["normalize_space"])


def _m2_builder(config: dict[str, Any]):
    config.pop("_given")
    from .m2.maxmatch import M2Scorer  # only registered when the module imports

    return M2Scorer(beta=config["beta"], max_unchanged_words=config["max_unchanged_words"],
                    ignore_whitespace_casing=config["ignore_whitespace_casing"])


_NGRAM = {"n": DEFAULT_ORDER, "unit": "word", "normalize_space": False}
_SAMPLED = {**_NGRAM, "iterations": DEFAULT_ITERATIONS, "fix_seed": True, "seed": None}
_M2 = {"beta": 0.5, "max_unchanged_words": 2, "ignore_whitespace_casing": False}

_ENTRIES: list[_Entry] = [
    _Entry(MetricInfo("gleu", "GLEU+ as gec-ranking's code (official variant), references sampled as it does",
                      dict(_SAMPLED), tuple(_SAMPLED)), _gleu_builder("official")),
    _Entry(MetricInfo("gleu-max", "GLEU+ (official) with the best reference per sentence (gleu -m)",
                      dict(_NGRAM), tuple(_NGRAM)), _gleu_builder("official", best_reference=True)),
    _Entry(MetricInfo("gleu-paper", "GLEU+ as Equation 1 of 'GLEU Without Tuning' (no per-sentence clamp)",
                      dict(_SAMPLED), tuple(_SAMPLED)), _gleu_builder("paper")),
    _Entry(MetricInfo("gleu0", "the original 2015 GLEU (merged references, penalty weight lambda)",
                      {**_NGRAM, "lambda_": 0.0}, (*_NGRAM, "lambda_")), _gleu_builder("gleu0")),
    _Entry(MetricInfo("green", "GREEN, word n-grams (best reference per sentence and beta)",
                      {**_NGRAM, "beta": [2.0]}, (*_NGRAM, "beta")), _green_builder),
    _Entry(MetricInfo("green-char", "GREEN, character n-grams",
                      {**_NGRAM, "unit": "char", "beta": [2.0]}, ("n", "normalize_space", "beta")), _green_builder),
    # the M2 code is imported only when an m2 metric is built: n-gram comparisons do not pay for it
    _Entry(MetricInfo("m2", "MaxMatch (NUS M2 scorer) F-beta against gold M2 edits", dict(_M2),
                      tuple(_M2), needs_gold_m2=True), _m2_builder),
]
_BY_NAME: dict[str, _Entry] = {entry.info.name: entry for entry in _ENTRIES}


def list_metrics() -> list[MetricInfo]:
    """The registered metric names with their descriptions, defaults and settings."""
    return [entry.info for entry in _ENTRIES]


def _unknown_name(name: str, entries: dict[str, _Entry]) -> InputError:
    return InputError(f"unknown metric {name!r}; valid names: {', '.join(entries)}")


def get_metric(name: str, **config: Any):
    """A metric object configured by name and keyword settings, e.g.
    ``get_metric("gleu", iterations=100)`` or ``get_metric("green-char", beta=[0.5, 2])``."""
    entry = _BY_NAME.get(name)
    if entry is None:
        raise _unknown_name(name, _BY_NAME)
    settings = dict(entry.info.defaults)
    given: set[str] = set()
    for key, value in config.items():
        canonical = _ALIASES.get(key.replace("-", "_"))
        if canonical not in entry.info.settings:
            raise InputError(f"metric {name!r} has no setting {key!r}; valid settings: "
                             f"{', '.join(entry.info.settings)}")
        if canonical in given:
            raise InputError(f"setting {canonical!r} of metric {name!r} given twice")
        settings[canonical] = SETTINGS[canonical].parse(canonical, value)
        given.add(canonical)
    if entry.info.needs_gold_m2 and "beta" in given:
        if len(settings["beta"]) != 1:
            raise InputError(f"metric {name!r} takes one beta, got {len(settings['beta'])}")
        settings["beta"] = settings["beta"][0]
    settings["_given"] = given
    return entry.build(settings)


# ----------------------------------------------------------------------------- text syntax


METRIC_SEPARATOR = ","
SETTING_SEPARATOR = ":"


@dataclass(frozen=True)
class MetricSpec:
    """A metric name with settings as written on the command line (values still text)."""

    name: str
    settings: dict[str, str] = field(default_factory=dict)

    def build(self):
        return get_metric(self.name, **self.settings)


def parse_metric_spec(text: str) -> MetricSpec:
    """``NAME[:KEY=VALUE[:KEY=VALUE...]]``; a bare ``KEY`` means ``KEY=true``; several values
    of one setting are separated by ``/`` (``green:beta=0.5/1/2``)."""
    parts = [part.strip() for part in text.strip().split(SETTING_SEPARATOR)]
    name = parts[0].lower()
    if not name:
        raise InputError(f"empty metric name in {text!r}; valid names: {', '.join(_BY_NAME)}")
    settings: dict[str, str] = {}
    for part in parts[1:]:
        if not part:
            raise InputError(f"empty setting in metric {text!r} (settings are written KEY=VALUE, joined by ':')")
        key, _, value = part.partition("=")
        key = key.strip()
        if key in settings:
            raise InputError(f"setting {key!r} given twice in metric {text!r}")
        settings[key] = value.strip() if "=" in part else "true"
    return MetricSpec(name, settings)


def parse_metric_list(texts: str | Sequence[str]) -> list[MetricSpec]:
    """Comma-separated metric specifications (one string or several)."""
    if isinstance(texts, str):
        texts = [texts]
    specs = []
    for text in texts:
        for item in text.split(METRIC_SEPARATOR):
            if not item.strip():
                raise InputError(f"empty metric in {text!r}; valid names: {', '.join(_BY_NAME)}")
            specs.append(parse_metric_spec(item))
    if not specs:
        raise InputError(f"no metric given; valid names: {', '.join(_BY_NAME)}")
    return specs


def metrics_from_text(texts: str | Sequence[str]) -> list[Any]:
    """Metric objects for ``--metrics`` text, e.g. ``"gleu,green:beta=0.5/1/2"``."""
    return [spec.build() for spec in parse_metric_list(texts)]


def settings_help() -> str:
    """One line per setting keyword, for help texts and errors."""
    return "\n".join(f"{name}{' (' + ', '.join(s.aliases) + ')' if s.aliases else ''}: {s.help}"
                     for name, s in SETTINGS.items())


# ----------------------------------------------------------------------------- column labels


def _order_tokens(metric) -> list[str]:
    tokens = []
    if metric.n != DEFAULT_ORDER:
        tokens.append(f"n{metric.n}")
    if metric.encoding[1]:  # normalize_space counts for char units only
        tokens.append("ns")
    return tokens


def is_m2(metric) -> bool:
    """Whether the metric is the M2 scorer (scored from gold M2 blocks, not n-grams); by name,
    so that the M2 code is imported only when used."""
    return type(metric).__name__ == "M2Scorer"


def column_labels(metric) -> list[str]:
    """Compact headers of the columns a metric fills: ``GLEU+ f``, ``GLEU+ max``,
    ``GREEN b0.5``, ``GREEN-char b2``, ``M2 F0.5``. GREEN gives one column per beta."""
    char = "-char" if getattr(metric, "unit", "word") == "char" else ""
    if isinstance(metric, GLEU):
        if metric.variant == "gleu0":
            tokens = [f"l{metric.lambda_:g}"]
            return [" ".join([f"GLEU0{char}", *tokens, *_order_tokens(metric)])]
        tokens = ["paper"] if metric.variant == "paper" else []
        if metric.best_reference:
            tokens.append("max")
        else:
            tokens.append("f" if metric.fix_seed else f"s{metric.seed}")
            if metric.iterations != DEFAULT_ITERATIONS:
                tokens.append(f"i{metric.iterations}")
        if metric.smooth:
            tokens.append("smooth")
        return [" ".join([f"GLEU+{char}", *tokens, *_order_tokens(metric)])]
    if isinstance(metric, GREEN):
        return [" ".join([f"GREEN{char}", f"b{beta:g}", *_order_tokens(metric)]) for beta in metric.betas]
    if is_m2(metric):
        tokens = [f"F{metric.beta:g}"]
        if metric.max_unchanged_words != 2:
            tokens.append(f"mu{metric.max_unchanged_words}")
        if metric.ignore_whitespace_casing:
            tokens.append("iwc")
        return [" ".join(["M2", *tokens])]
    raise InputError(f"cannot compare with {type(metric).__name__}: not a GLEU, GREEN or M2 metric")
