"""The language layer of the edit metrics, chosen by name (the ``lang`` setting, ``--lang``).

* ``en`` (the default): ERRANT 3.0.2's English rules (:mod:`.en`; run by
  :class:`gecmetrics.metrics.errant.Annotator`).
* ``zh``: ChERRANT's character level (:mod:`.zh`: :class:`.zh.language.ChineseCharacters`), with
  ChERRANT's comparison rules in the edit metrics.
* any other two- or three-letter code of a language with a spaCy model (``fr``, ``de`` ...): the
  operation-level annotator of :mod:`.generic` (ERRANT's language-independent part).

Each is an :class:`~gecmetrics.core.lang.base.EditLanguage` (tokeniser, aligner costs, merger,
classifier), made here by :func:`make_language`.
"""
from __future__ import annotations

import re
from typing import Any

from ...errors import InputError

DEFAULT_LANGUAGE = "en"
ENGLISH, CHINESE = "en", "zh"
ALIASES = {"eng": "en", "english": "en", "zho": "zh", "chi": "zh", "cmn": "zh", "chinese": "zh"}
"""Other names accepted for the two languages with rules of their own (CLEME's are eng and zho)."""
_CODE = re.compile(r"[a-z]{2,3}")


def parse_lang(name: str, value: Any) -> str:
    """A language code: ``en``, ``zh`` (or an alias) or another lower-case ISO 639 code of two or
    three letters (a language of the generic annotator)."""
    text = value.strip().lower() if isinstance(value, str) else value
    text = ALIASES.get(text, text) if isinstance(text, str) else text
    if not isinstance(text, str) or not _CODE.fullmatch(text):
        label = name if name.startswith("-") else f"setting {name}"
        raise InputError(f"{label} must be a language code: en, zh, or the ISO 639 code of a language with a spaCy "
                         f"model (fr, de ...), got {value!r}")
    return text


def language_kind(code: str) -> str:
    """Which annotator a language has: ``errant`` (en), ``cherrant`` (zh) or ``generic``."""
    return {ENGLISH: "errant", CHINESE: "cherrant"}.get(code, "generic")


def make_language(code: str, **options: Any) -> Any:
    """The :class:`~gecmetrics.core.lang.base.EditLanguage` of a non-English language: zh with
    ChineseCharacters' options (data, strategy, simplified), others with GenericLanguage's (model,
    merge, lev, tokenise). English has its own annotator (ERRANT's)."""
    kind = language_kind(code)
    if kind == "cherrant":
        from .zh.language import ChineseCharacters

        return ChineseCharacters(**options)
    if kind == "generic":
        from .generic import GenericLanguage

        return GenericLanguage(code, **options)
    raise InputError("English is annotated by ERRANT's own annotator (gecmetrics.metrics.errant.Annotator)")
