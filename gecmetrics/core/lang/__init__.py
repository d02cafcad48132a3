"""The languages of the edit metrics, found by their code (the ``lang`` setting, ``--lang``).

A language is an :class:`~gecmetrics.core.lang.base.EditLanguage` subclass (tokeniser, aligner
costs, merger, classifier, and what the metrics ask of it). :func:`language_class` finds the one
of a code, in this order:

1. one registered in this process: :func:`register_language` (``unregister_language`` forgets it);
2. a folder ``core/lang/<code>/`` whose ``__init__`` gives it (``language_class()``): ``en``
   (ERRANT 3.0.2's English rules) and ``zh`` (ChERRANT's character level);
3. an installed package's entry point in the group ``gecmetrics.languages`` (the name is the
   code, the value ``module:Class``);
4. else the generic annotator over a spaCy model of that language
   (:class:`~gecmetrics.core.lang.generic.GenericLanguage`: ``fr``, ``de`` ...).

:func:`language_annotator` makes the annotator of a code from the annotation settings its
language reads.
"""
from __future__ import annotations

import importlib
import importlib.util
import inspect
import pkgutil
import re
from typing import Any

from ...errors import InputError, shown

DEFAULT_LANGUAGE = "en"
"""The language of a signature without ``lang`` (English: the signatures of earlier versions)."""
ALIASES = {"eng": "en", "english": "en", "zho": "zh", "chi": "zh", "cmn": "zh", "chinese": "zh"}
"""Other names accepted for the two languages with rules of their own (CLEME's are eng and zho)."""
ENTRY_POINT_GROUP = "gecmetrics.languages"
_CODE = re.compile(r"[a-z]{2,3}")
_REGISTERED: dict[str, type] = {}
_ENTRY_POINTS: dict[str, Any] = {}
_SCANNED_ENTRY_POINTS = False


def parse_lang(name: str, value: Any) -> str:
    """A language code: ``en``, ``zh`` (or an alias), a registered code, or another lower-case
    ISO 639 code of two or three letters (a language of the generic annotator)."""
    text = value.strip().lower() if isinstance(value, str) else value
    text = ALIASES.get(text, text) if isinstance(text, str) else text
    if not isinstance(text, str) or not (_CODE.fullmatch(text) or text in _REGISTERED or text in _entry_points()):
        label = name if name.startswith("-") else f"setting {name}"
        raise InputError(f"{label} must be a language code: en, zh, or the ISO 639 code of a language with a spaCy "
                         f"model (fr, de ...), got {value!r}")
    return text


def register_language(code: str, language: type, replace: bool = False) -> None:
    """Make ``language`` (an :class:`~gecmetrics.core.lang.base.EditLanguage` subclass) the
    language of ``code`` in this process (worker processes started by ``fork`` inherit it; an
    entry point reaches every process). A code already registered, or with a folder of its own,
    is refused unless ``replace=True``."""
    from .base import EditLanguage

    if not isinstance(code, str) or not re.fullmatch(r"[a-z][a-z0-9_-]*", code):
        raise InputError(f"a language code is a lower-case word, got {code!r}")
    if not (isinstance(language, type) and issubclass(language, EditLanguage)):
        raise InputError(f"register_language needs an EditLanguage subclass, got {language!r}", "language")
    if inspect.isabstract(language):  # (it was taken, and failed at the first sentence)
        raise InputError(f"{language.__name__} does not write {', '.join(sorted(language.__abstractmethods__))} (a "
                         "language writes every abstract method of EditLanguage)", "language")
    if not replace and (code in _REGISTERED or _folder_language(code) is not None):
        raise InputError(f"language {code!r} is already known (pass replace=True to replace it)")
    _REGISTERED[code] = language


def unregister_language(code: str) -> None:
    """Forget a language registered with :func:`register_language` (tests and plugins that clean
    up); a code that was not registered is an InputError, as :func:`unregister_metric` does."""
    if not isinstance(code, str) or code not in _REGISTERED:
        raise InputError(f"no language is registered with register_language as {shown(code)}", "code")
    del _REGISTERED[code]


def language_class(code: str) -> type:
    """The :class:`~gecmetrics.core.lang.base.EditLanguage` subclass of a code (see the module
    docstring for where it is looked for); the generic annotator's for a code without one."""
    if not isinstance(code, str) or not code:
        raise InputError(f"a language is given by its code (a string such as 'en'), got {shown(code)}")
    found = _REGISTERED.get(code) or _folder_language(code)
    if found is None and code in _entry_points():
        found = _load_entry_point(code)
    return found if found is not None else fallback_language()


def fallback_language() -> type:
    """The language of codes without one of their own: the generic annotator over a spaCy model
    of the language (:class:`~gecmetrics.core.lang.generic.GenericLanguage`)."""
    from .generic import GenericLanguage

    return GenericLanguage


def language_annotator(code: str, context: Any = None, **settings: Any) -> Any:
    """The annotator of language ``code`` made from the annotation settings its language reads
    (:attr:`~gecmetrics.core.lang.base.EditLanguage.settings`; any other is an InputError), e.g.
    ``language_annotator("fr", spacy_model="fr_core_news_sm")``: ERRANT's for ``en``, a
    :class:`~gecmetrics.core.lang.base.LanguageAnnotator` for the others. ``context``: the run's
    :class:`~gecmetrics.core.context.RunContext` or cache setting (see :func:`make_language`)."""
    return make_language(code, context, **settings).annotator()


def make_language(code: str, context: Any = None, **settings: Any) -> Any:
    """The :class:`~gecmetrics.core.lang.base.EditLanguage` of ``code`` made from the annotation
    settings it reads (any other is an InputError). ``context``: the run's
    :class:`~gecmetrics.core.context.RunContext`, or a cache setting made into one
    (:func:`~gecmetrics.core.context.run_context`; None: the default folder, False: no cache):
    its resources keep what the language loads (spaCy pipelines, data tables), its cache the
    parses of a language that keeps them (English). It reaches a language whose
    ``from_settings`` takes ``context``; one that does not (a plugin's) is made from its settings
    alone."""
    from ..context import run_context

    language = language_class(code)
    other = [name for name in settings if name not in language.settings]
    if other:
        raise InputError(f"{other[0]} is not a setting of language {code} (its settings: "
                         f"{', '.join(language.settings) or 'none'})")
    language.check_settings(**settings)
    if _takes_context(language):
        return language.from_settings(code, context=run_context(context), **settings)
    return language.from_settings(code, **settings)


def _takes_context(language: type) -> bool:
    """Whether a language's ``from_settings`` has a ``context`` parameter (this package's do)."""
    return "context" in inspect.signature(language.from_settings).parameters


def known_languages() -> dict[str, type]:
    """Every language with a code of its own: the folders', the installed (entry points: those
    that load) and the registered ones; other codes are the generic annotator's."""
    found = {code: language for code in _folder_codes() if (language := _folder_language(code)) is not None}
    for code in _entry_points():
        try:
            found[code] = language_class(code)
        except InputError:
            continue  # reported where the language is used
    found.update(_REGISTERED)
    return found


def _folder_codes() -> list[str]:
    return [info.name for info in pkgutil.iter_modules(__path__) if info.ispkg and _CODE.fullmatch(info.name)]


def _folder_language(code: str) -> type | None:
    """The language of the folder ``core/lang/<code>/``, if there is one."""
    if not _CODE.fullmatch(code) or importlib.util.find_spec(f"{__name__}.{code}") is None:
        return None
    make = getattr(importlib.import_module(f"{__name__}.{code}"), "language_class", None)
    return make() if make is not None else None


def _entry_points() -> dict[str, Any]:
    """The installed packages' languages by code (looked up once per process, loaded on use)."""
    global _SCANNED_ENTRY_POINTS
    if not _SCANNED_ENTRY_POINTS:
        _SCANNED_ENTRY_POINTS = True
        from importlib.metadata import entry_points

        _ENTRY_POINTS.update((point.name, point) for point in entry_points(group=ENTRY_POINT_GROUP))
    return _ENTRY_POINTS


def _load_entry_point(code: str) -> type:
    """The class of an installed language (loaded on first use, then kept)."""
    from .base import EditLanguage

    point = _ENTRY_POINTS[code]
    if isinstance(point, type):
        return point
    try:
        language = point.load()
    except Exception as err:  # noqa: BLE001 - an installed package's error, named in one line
        raise InputError(f"language {code!r} of an installed package ({point.value}) cannot be loaded: "
                         f"{type(err).__name__}: {err}") from None
    if not (isinstance(language, type) and issubclass(language, EditLanguage)):
        raise InputError(f"language {code!r} of an installed package ({point.value}) is not an EditLanguage subclass")
    _ENTRY_POINTS[code] = language
    return language
