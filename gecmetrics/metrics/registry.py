"""Metrics by name: ``get_metric("green", beta=[0.5, 1, 2])``, ``list_metrics()``,
``register_metric(name, cls)``, and the small text syntax of ``gecmetric compare --metrics``
(``gleu,green:beta=0.5/1/2:unit=char``).

The registry is a table from names to metric classes (:class:`gecmetrics.metrics.base.Metric`
subclasses), each with an optional preset: ``gleu-max`` is GLEU+ with ``best_reference=True``,
``green-char`` GREEN on characters. Settings come from the class's settings dataclass: its
fields are the valid keywords, with their aliases, parsers and help lines. Metrics installed
by other packages register through the entry-point group ``gecmetrics.metrics``
(``name = "package.module:Class"``), under the rules of :func:`register_metric`: an entry point
that breaks them, whose class cannot be imported, or whose name is taken, leaves the other
metrics working (see :func:`list_metrics`, :func:`metric_info`). Unknown names or settings raise
:class:`InputError` listing the valid ones.
"""
from __future__ import annotations

import re
import warnings
from dataclasses import dataclass, field, replace as replaced
from typing import Any, Iterable, Mapping, Sequence

from ..core.checks import check_flag
from ..errors import InputError, kind_of, shown
from ..core.lines import unordered
from . import names
from .names import NAME, NAME_RULE, MetricInfo, preset_of, registered_name, table as _table
from .plugin_guard import plugin_errors

_WARNED: set[str] = set()
"""The unusable plugins a listing has warned about (once per process)."""

def _usable(name: str) -> MetricInfo:
    """A registered name's entry, an installed plugin's class imported and put through
    :func:`register_metric`'s checks first (once). A plugin that fails leaves the table for
    :data:`~gecmetrics.metrics.names.UNUSABLE`, one :class:`InputError` naming its entry point and why: an installed
    package's mistake must not break the commands that do not use it."""
    info = _table(plugins=False)[name]
    if not info.entry_point or not isinstance(info.target, str):
        return info
    try:
        cls = info.cls
        _checked_class(cls, None)
    except Exception as err:  # noqa: BLE001 - an installed package's error, named in one line
        del _table(plugins=False)[name]
        why = str(err) if isinstance(err, InputError) else f"{type(err).__name__}: {err}"
        names.UNUSABLE[name] = " ".join(f"metric entry point {info.entry_point} cannot be loaded: {why}".split())
        raise InputError(names.UNUSABLE[name]) from None
    info = _table(plugins=False)[name] = replaced(info, target=cls)
    return info


def _checked_class(cls: Any, where: str | None, preset: Any = None) -> dict[str, Any]:
    """The checks of a metric class (and its preset, returned as a dict) that
    :func:`register_metric` and an installed plugin's entry point both pass: a
    :class:`~gecmetrics.metrics.base.Metric` subclass, not abstract, with kinds of
    :mod:`gecmetrics.kinds` and valid preset settings. ``where``: the argument messages name."""
    import inspect

    from ..kinds import M2, NONE, TEXT
    from .base import Metric

    if not (isinstance(cls, type) and issubclass(cls, Metric)):
        raise InputError(f"a metric class is a gecmetrics.Metric subclass, got {shown(cls)}", where)
    if inspect.isabstract(cls):  # would fail at get_metric, in every command naming it
        raise InputError(f"{cls.__name__} does not write {', '.join(sorted(cls.__abstractmethods__))} (a metric "
                         "writes prepare, statistics and score_from_sums)", where)
    for attribute, kinds in (("reference_kind", (TEXT, M2, NONE)), ("hypothesis_kind", (TEXT, M2))):
        declared = getattr(cls, attribute)
        if not isinstance(declared, property) and declared not in kinds:  # (a property: by the settings)
            raise InputError(f"{cls.__name__}.{attribute} is {getattr(cls, attribute)!r}, not one of gecmetrics.kinds' "
                             f"{', '.join(map(repr, kinds))}", where)
    if preset is not None and not isinstance(preset, Mapping):
        raise InputError(f"preset must be a dict of settings, got {type(preset).__name__}")
    preset = dict(preset or {})
    # the preset must be valid settings (aliases as get_metric takes them)
    cls.checked_settings({cls.settings_class.canonical_name(key) or key: value for key, value in preset.items()})
    return preset


def register_metric(name: str, cls: type, preset: dict[str, Any] | None = None, description: str = "",
                    replace: bool = False) -> None:
    """Make ``cls`` (a :class:`~gecmetrics.metrics.base.Metric` subclass) known as ``name``, for
    ``get_metric``, ``compare``, ``--metrics`` and meta-evaluation. ``preset``: settings this
    name fixes. Registering a taken name is an error unless ``replace=True``; so is a name
    outside :data:`NAME_RULE` (upper case is refused rather than lower-cased: ``--metrics``
    would reach the lower-cased name, ``get_metric`` and the command the name as given)."""
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise InputError(f"{NAME_RULE}, got {shown(name)}")
    preset = _checked_class(cls, "cls", preset)
    check_flag(replace, "replace")
    if not isinstance(description, str):
        raise InputError(f"description must be a string (one line for --help), got {kind_of(description)}")
    table = _table()
    if name in table and not replace:
        raise InputError(f"metric name {name!r} is already registered (pass replace=True to replace it)")
    table[name] = MetricInfo(name, cls, preset, description)
    names.UNUSABLE.pop(name, None)


def unregister_metric(name: str) -> None:
    """Forget a name given to :func:`register_metric` (for tests and plugins that clean up); a
    built-in name registered again with ``replace=True`` gets its built-in metric back. A
    built-in name that was not replaced, or a name that is not registered, is an InputError
    (before, ``unregister_metric("gleu")`` removed GLEU+ from the process without a word)."""
    if not isinstance(name, str):
        raise InputError(f"name must be a registered metric's name, got {shown(name)}", "name")
    table = _table()
    if name not in table:
        raise InputError(f"no metric is registered as {name!r}", "name")
    built_in = next((info for info in names._BUILT_IN if info.name == name), None)
    if built_in is None:
        del table[name]
    elif table[name] == built_in:
        raise InputError(f"{name!r} is a built-in metric: only names given to register_metric are unregistered",
                         "name")
    else:
        table[name] = built_in


def list_metrics() -> list[MetricInfo]:
    """The registered names with their classes, presets and descriptions: every installed
    plugin's class is loaded here, and one that cannot be used is left out with one warning
    (once) naming its entry point and why, so that listing shows the metrics that work."""
    for name in [name for name, info in _table().items() if info.entry_point]:
        try:
            _usable(name)
        except InputError:
            pass
    for name, why in names.UNUSABLE.items():
        if name not in _WARNED:
            _WARNED.add(name)
            warnings.warn(why)
    return list(_table().values())


def find_metric(name: str) -> MetricInfo | None:
    """A registered name's entry, None for an unknown name; an installed plugin of that name
    (case aside: ``--metrics`` lower-cases) that cannot be used is its :class:`InputError`."""
    table = _table(plugins=False)
    if name not in table:
        table = _table()
    if name in table:
        return _usable(name)
    why = next((why for key, why in names.UNUSABLE.items() if key.lower() == name.lower()), None)
    if why is not None:
        raise InputError(why)
    return None


def metric_info(name: str) -> MetricInfo:
    if not isinstance(name, str):
        raise InputError(f"a metric is named by a string such as 'gleu' (list_metrics()[k].name), got {shown(name)}",
                         "name")
    info = find_metric(name)
    if info is None and name.lower() != name:  # (case aside, as --metrics and compare read a name: 'GREEN')
        info = find_metric(name.lower())
    if info is None:
        raise InputError(f"unknown metric {name!r}; valid names: {', '.join(_table())}")
    return info


def get_metric(name: str, **config: Any):
    """A metric object configured by name and keyword settings (aliases work too), e.g.
    ``get_metric("gleu", iterations=100)`` or ``get_metric("green-char", beta=[0.5, 2])``."""
    head = name.split(":", 1)[0].strip() if isinstance(name, str) else None
    if head is not None and head != name and find_metric(name) is None and find_metric(head) is not None:
        raise InputError(f"get_metric takes a name and settings as keywords (get_metric({head!r}, setting=value)), "
                         f"got {shown(name)}; a text with settings such as 'green:beta=0.5/2' is read by "
                         "compare(..., metrics=) and --metrics", "name")  # (was 'unknown metric')
    info = metric_info(name)
    settings_class = info.cls.settings_class
    infos = settings_class.infos()
    values = dict(info.preset)
    for key, value in config.items():
        canonical = settings_class.canonical_name(key)
        if canonical is None or canonical in info.preset:
            raise InputError(f"metric {name!r} has no setting {key!r}; valid settings: {', '.join(info.settings)}")
        if canonical in values and canonical not in info.preset:
            raise InputError(f"setting {canonical!r} of metric {name!r} given twice")
        if isinstance(value, str) and "/" in value and not _takes_several(infos[canonical]) \
                and not getattr(infos[canonical].parse, "reads_paths", False):
            raise InputError(f"metric {name!r} takes one {canonical}, got {len(value.split('/'))}")
        values[canonical] = value
    with plugin_errors(info.cls, "making it (its __init__ or its settings' parsers)", info.name):
        return info.cls(**values)


def settings_beyond(metric: Any, name: str | None) -> list[tuple[str, Any]]:
    """The settings of a metric object that differ from those the registered ``name`` gives
    (its preset, the class's defaults for the rest; None: the class's defaults), as (setting,
    value) in declaration order: ``get_metric("green", beta=0.5)`` beyond ``green`` is
    ``[("beta", 0.5)]``, ``GREEN(unit="char")`` beyond ``green-char`` is nothing."""
    cls = type(metric)
    info = _table().get(name) if name is not None else None
    base = cls.checked_settings({} if info is None else preset_of(cls, info))
    return [(key, getattr(metric.settings, key)) for key in cls.settings_class.infos()
            if getattr(metric.settings, key) != getattr(base, key)]


def _takes_several(info: Any) -> bool:
    """Whether a '/' in a setting's text is its own business: several values (a parser marked
    ``takes_several``, such as CLEME2's factors), or a parser marked ``reads_slashes`` (a file or
    folder path, such as PT-M2's model)."""
    from .settings import parse_betas, parse_floats, parse_strings

    return (info.parse in (parse_betas, parse_floats, parse_strings) or getattr(info.parse, "takes_several", False)
            or getattr(info.parse, "reads_slashes", False))


# ----------------------------------------------------------------------------- text syntax


METRIC_SEPARATOR = ","
SETTING_SEPARATOR = ":"


@dataclass(frozen=True)
class MetricSpec:
    """A metric name with settings as written on the command line (values still text)."""

    name: str
    settings: dict[str, str] = field(default_factory=dict)
    bare: tuple[str, ...] = ()
    """Settings written without a value (``gleu:f``): true, for an on/off setting only."""

    def build(self):
        settings_class = metric_info(self.name).cls.settings_class if self.bare else None
        for key in self.bare:  # (a setting the metric lacks: get_metric's message)
            canonical = settings_class.canonical_name(key)
            try:
                if canonical is not None:
                    settings_class.infos()[canonical].parse(canonical, "true")
            except InputError:  # (was "must be an integer, got 'true'")
                raise InputError(f"setting {key!r} of metric {self.name!r} needs a value ({self.name}:{key}=VALUE); "
                                 "a name alone turns an on/off setting on") from None
        return get_metric(self.name, **self.settings)


_URL_CREDENTIALS = re.compile(r"(//|%2f%2f)[^/@\s]*@", re.IGNORECASE)
_URL_QUERY = re.compile(r"(\?|%3f|#|%23)[^:\s]*", re.IGNORECASE)
"""A URL's query or fragment, to the end of its setting (``?key=...``, ``?api-key=...``)."""


def _shown_spec(text: str) -> str:
    """A metric specification as a message repeats it: credentials written in a URL of it
    (``base_url=http%3A//user%3Akey@host``, ``...?key=...``, which the URL's own check refuses)
    left out."""
    return repr(_URL_QUERY.sub(r"\1[query]", _URL_CREDENTIALS.sub(r"\1[credentials]@", text)))


def parse_metric_spec(text: str) -> MetricSpec:
    """``NAME[:KEY=VALUE[:KEY=VALUE...]]``; a bare ``KEY`` means ``KEY=true``; several values
    of one setting are separated by ``/`` (``green:beta=0.5/1/2``); a ``:`` inside a value is
    written ``%3A`` (``bertscore:device=cuda%3A1``, ``llm-s:model=ollama%3Allama3.1%3A8b``)."""
    parts = [part.strip() for part in text.strip().split(SETTING_SEPARATOR)]
    name = parts[0].lower()
    if not name:
        raise InputError(f"empty metric name in {_shown_spec(text)}; valid names: {', '.join(_table())}")
    settings: dict[str, str] = {}
    for part in parts[1:]:
        if not part:
            raise InputError(f"empty setting in metric {_shown_spec(text)} (settings are written KEY=VALUE, joined by ':')")
        key, _, value = part.partition("=")
        key = key.strip()
        if key in settings:
            raise InputError(f"setting {key!r} given twice in metric {_shown_spec(text)}")
        settings[key] = value.strip().replace("%3A", ":").replace("%3a", ":") if "=" in part else "true"
    return MetricSpec(name, settings, tuple(part.strip() for part in parts[1:] if "=" not in part))


def parse_metric_list(texts: str | Sequence[str]) -> list[MetricSpec]:
    """Comma-separated metric specifications (one string or several)."""
    if isinstance(texts, str):
        texts = [texts]
    specs = []
    for text in texts:
        for item in text.split(METRIC_SEPARATOR):
            if not item.strip():
                raise InputError(f"empty metric in {_shown_spec(text)}; valid names: {', '.join(_table())}")
            specs.append(parse_metric_spec(item))
    if not specs:
        raise InputError(f"no metric given; valid names: {', '.join(_table())}")
    return specs


def metrics_from_text(texts: str | Sequence[str]) -> list[Any]:
    """Metric objects for ``--metrics`` text, e.g. ``"gleu,green:beta=0.5/1/2"``."""
    return [spec.build() for spec in parse_metric_list(texts)]


def resolve_metrics(metrics: Sequence[Any] | str) -> list[Any]:
    """Metric objects from objects and/or registry texts."""
    from .base import Metric

    if isinstance(metrics, str):
        return metrics_from_text(metrics)
    if isinstance(metrics, Metric):
        return [metrics]
    if not isinstance(metrics, Iterable) or isinstance(metrics, (bytes, Mapping)):
        raise InputError(f"metrics must be a list of metrics (objects or registered names), got "
                         f"{type(metrics).__name__}")
    if (kind := unordered(metrics)) is not None:  # (a set: its metrics, and so the result's columns, in any order)
        raise InputError(f"metrics must be a list of metrics (objects or registered names), got {kind}")
    resolved = []
    for metric in metrics:
        if not isinstance(metric, (str, Metric)):  # (None failed later, asked for its signature)
            raise InputError(f"not a metric: {shown(metric)} (metrics are gecmetrics.Metric objects or registered names)")
        resolved.extend(metrics_from_text(metric) if isinstance(metric, str) else [metric])
    return resolved


def settings_help() -> str:
    """One line per setting keyword of every registered metric, for help texts; a keyword that
    metrics describe differently (``level``: CLEME's and PT-M2's) has a line per description,
    naming the metrics it is theirs: ``level: ... [pt-m2, pt-errant]``."""
    described: dict[str, dict[str, list[str]]] = {}
    for info in list_metrics():
        for name, setting in info.cls.settings_class.infos().items():
            aliases = f" ({', '.join(setting.aliases)})" if setting.aliases else ""
            described.setdefault(name, {}).setdefault(f"{name}{aliases}: {setting.help}", []).append(info.name)
    return "\n".join(line if len(lines) == 1 else f"{line} [{', '.join(metrics)}]"
                     for lines in described.values() for line, metrics in lines.items())


# ----------------------------------------------------------------------------- defaults


COMPARE = "compare"
"""The runs of ``compare`` and ``meta-eval`` (command and Python call) told no metrics."""
REPORT = "report"
"""The runs of the HTML report told no metrics."""
ALWAYS = "always"
WITH_GOLD_M2 = "with gold M2"
"""Only when the user gives a gold M2 file (the reference edits of the M2 family)."""


@dataclass(frozen=True)
class DefaultMetric:
    """A metric that generic runs score when told none: ``text``, its registry text
    (``green:beta=0.5/1/2``), or ``target`` (``module:Class``, its default settings) for a
    metric with no registered name; the ``runs`` it is in (:data:`COMPARE`, :data:`REPORT`);
    and its ``condition`` (:data:`ALWAYS`, or :data:`WITH_GOLD_M2`: only when a gold M2 file is
    given)."""

    text: str = ""
    runs: tuple[str, ...] = (COMPARE, REPORT)
    condition: str = ALWAYS
    target: str = ""

    def build(self) -> Any:
        return MetricInfo(self.text, self.target).cls() if self.target else metrics_from_text(self.text)[0]


DEFAULT_METRICS: tuple[DefaultMetric, ...] = (
    DefaultMetric("gleu"),
    DefaultMetric("green:beta=0.5/1/2"),
    DefaultMetric("m2", condition=WITH_GOLD_M2),
    DefaultMetric("gotoscorer", (REPORT,)),  # weighs the gold edits: the report's difficulty views
    DefaultMetric(runs=(REPORT,), target="gecmetrics.metrics.m2.compare:ErrantCompare"),  # marks the report's edits
)
"""The one list of default metrics, in the order their columns appear: GLEU+ as gec-ranking,
word GREEN for beta 0.5, 1 and 2, MaxMatch M2 F0.5 with a gold M2; the report adds GoToScorer
F0.5 and ERRANT's span correction F0.5."""


def _defaults(run: str, gold_m2: bool) -> list[DefaultMetric]:
    if run not in (COMPARE, REPORT):
        raise InputError(f"unknown run {run!r}: {COMPARE} or {REPORT}")
    return [entry for entry in DEFAULT_METRICS
            if run in entry.runs and (entry.condition == ALWAYS or (gold_m2 and entry.condition == WITH_GOLD_M2))]


def default_metric_texts(run: str = COMPARE, gold_m2: bool = False) -> tuple[str, ...]:
    """The registry texts of the default metrics of ``run`` (``gold_m2``: a gold M2 is given);
    the texts of metrics with a registered name only, without loading any metric."""
    return tuple(entry.text for entry in _defaults(run, gold_m2) if entry.text)


def default_metrics(run: str = COMPARE, gold_m2: bool = False) -> list[Any]:
    """The default metrics of ``run`` (``gold_m2``: a gold M2 is given), as metric objects."""
    return [entry.build() for entry in _defaults(run, gold_m2)]


def gold_metrics(run: str = COMPARE) -> list[Any]:
    """The default metrics of ``run`` that come only with a gold M2 (MaxMatch's M2 F0.5):
    ``compare --m2`` adds them when no metric given reads the gold."""
    return [entry.build() for entry in _defaults(run, True) if entry.condition == WITH_GOLD_M2]


def column_labels(metric: Any) -> list[str]:
    """Compact headers of the columns a metric fills (``GLEU+ f``, ``GREEN b0.5`` ...)."""
    return metric.column_labels()


def declared_kind(metric_class: type, attribute: str) -> str:
    """A metric class's ``reference_kind`` or ``hypothesis_kind`` (``attribute``): text where
    it depends on the settings (a property)."""
    from ..kinds import TEXT

    value = getattr(metric_class, attribute, TEXT)
    return value if isinstance(value, str) else TEXT


def names_reading(attribute: str, kind: str) -> list[str]:
    """The registered names whose metrics declare ``attribute`` (``hypothesis_kind``,
    ``reference_kind``) to be ``kind``, in registry order: what help texts name as the metrics
    an input is for (e.g. hypothesis M2), so that they stay true as metrics are added."""
    return [info.name for info in list_metrics() if declared_kind(info.cls, attribute) == kind]


def needs_gold_m2(metric: Any) -> bool:
    """Whether the metric reads gold M2 references (the M2 family) instead of reference texts."""
    from ..kinds import M2

    return metric.reference_kind == M2
