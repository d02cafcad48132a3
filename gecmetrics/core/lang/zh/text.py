"""ChERRANT's character-level text handling: cleaning, traditional-to-simplified conversion of
targets, character tokens and their toneless pinyin.

* Cleaning: every whitespace character is removed (``"".join(text.split())``), as
  ``parallel_to_m2.py`` does without ``--segmented``.
* Targets (references and hypotheses, never sources) are converted to simplified characters
  with OpenCC's ``t2s`` configuration, as ``parallel_to_m2.py`` does without ``--no_simplified``.
  OpenCC is an optional dependency (``pip install 'gecmetrics[zh]'``); the conversion depends
  on OpenCC's dictionaries, so its version is part of the result (see :func:`simplifier_version`).
* Tokens are the characters, except that the six characters ``[缺失成分]`` ("missing
  component", an annotation placeholder) form one token.
* Pinyin: the substitution cost asks whether two characters share a reading, tones ignored:
  ``pypinyin.pinyin(char, style=Style.NORMAL, heteronym=True)[0]`` as ChERRANT computes it, once
  per distinct character. pypinyin is optional too (same extra). It is used rather than the
  pronunciations in ChERRANT's ``char_meta.txt`` because those differ from pypinyin's for
  almost every character (other readings, e.g. 丁 has no 'zheng' there), and ChERRANT's
  alignment uses pypinyin's.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Callable, Iterable

from ....errors import InputError

INSTALL_HINT = "pip install 'gecmetrics[zh]'"
MISSING_COMPONENT = "[缺失成分]"
"""ChERRANT's placeholder for a missing sentence component: one token."""


def clean(text: str) -> str:
    """The sentence without any whitespace (ChERRANT's ``"".join(text.split())``)."""
    return "".join(text.split())


def char_tokens(sentence: str) -> list[str]:
    """ChERRANT's character tokens: one per character, ``[缺失成分]`` as one token (non-overlapping
    occurrences from the left, as ``str.replace`` finds them)."""
    if MISSING_COMPONENT not in sentence:
        return list(sentence)
    tokens: list[str] = []
    start = 0
    while True:
        found = sentence.find(MISSING_COMPONENT, start)
        if found < 0:
            tokens.extend(sentence[start:])
            return tokens
        tokens.extend(sentence[start:found])
        tokens.append(MISSING_COMPONENT)
        start = found + len(MISSING_COMPONENT)


def _import_opencc():
    try:
        import opencc
    except ImportError:
        raise InputError(f"ChERRANT converts targets to simplified Chinese with OpenCC, which is not installed: "
                         f"{INSTALL_HINT} (or turn the conversion off: no_simplified / --no-simplified)") from None
    return opencc


@lru_cache(maxsize=1)
def _t2s() -> Callable[[str], str]:
    converter = _import_opencc().OpenCC("t2s")
    return converter.convert


def to_simplified(text: str) -> str:
    """OpenCC ``t2s`` of ``text`` (ChERRANT's ``OpenCC("t2s").convert``)."""
    return _t2s()(text)


def simplifier_version() -> str:
    """The installed OpenCC's version ('' when it is not installed)."""
    try:
        from importlib import metadata

        return metadata.version("opencc")
    except Exception:
        return ""


def _import_pypinyin():
    try:
        import pypinyin
    except ImportError:
        raise InputError(f"ChERRANT's character costs need pypinyin, which is not installed: {INSTALL_HINT}") from None
    return pypinyin


def pinyin_version() -> str:
    """The installed pypinyin's version ('' when it is not installed)."""
    try:
        return _import_pypinyin().__version__
    except InputError:
        return ""


class PinyinTable(dict):
    """Character -> frozenset of its toneless readings, computed by pypinyin on first use
    (``pinyin(char, style=Style.NORMAL, heteronym=True)[0]``)."""

    def __init__(self) -> None:
        super().__init__()
        self._pinyin = None

    def __missing__(self, token: str) -> frozenset:
        if self._pinyin is None:
            pypinyin = _import_pypinyin()
            style = pypinyin.Style.NORMAL
            convert = pypinyin.pinyin
            self._pinyin = lambda text: convert(text, style=style, heteronym=True)[0]
        found = self[token] = frozenset(self._pinyin(token))
        return found

    def readings(self, tokens: Iterable[str]) -> list[frozenset]:
        return [self[token] for token in tokens]
