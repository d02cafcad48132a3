"""spaCy parses in the persistent cache (:mod:`gecmetrics.core.cache`): :func:`parse_lines`
parses only the lines the cache does not hold, and stores them as compact bytes.

A parse depends on the line (and whether spaCy tokenises it), on spaCy and the libraries that
compute its network (thinc, cython-blis), and on the model: its name, version and files. All of
them are in the namespace or the key, so a stored parse is never used for another producer:

* the namespace: ``spacy-parse/<format>/spacy-<v>/thinc-<v>/blis-<v>/<lang>_<name>-<version>/
  <fingerprint>``; the versions come from the installed packages' metadata and the model is
  found on disk and fingerprinted without loading spaCy (:mod:`gecmetrics.core.lang.en.modelid`);
* the key: :data:`PARSE_FORMAT`, the tokenisation (``given``: whitespace-split; ``spacy``) and
  the line as parsed (whitespace-split tokens joined by one space, or the text given).

Values (:func:`pack_parse`) are UTF-8 text, no pickle: a format byte, then seven fields (words,
lower case, lemma, coarse POS, tag, dependency, head offset) each of tokens joined by U+001F,
fields joined by U+001E, then the spacing flags as ``0``/``1``. A lower case equal to the word's
``str.lower()`` and a lemma equal to the lower case are written as U+001D (most tokens), so a
CoNLL-2014 line takes about 650 bytes (320 once the store compresses it). A token holding one of
those control characters makes the parse unstorable (it is parsed every time).
"""
from __future__ import annotations

import re
from typing import Any, Sequence

from . import modelid
from .modelid import ModelIdentity
from .parse import EMPTY_SENTENCE, ParsedSentence, SpacyModel

PARSE_FORMAT = 1
"""Bump when the packed layout or what a stored parse means changes."""
_FIELD, _TOKEN, _SAME = "\x1e", "\x1f", "\x1d"
_RESERVED = re.compile("[\x1d\x1e\x1f]")
_FORMAT_BYTE = bytes([PARSE_FORMAT])


def parse_namespace(identity: ModelIdentity) -> str:
    """The cache namespace of parses by this model with the installed spaCy (see the module doc)."""
    versions = "/".join(f"{name}-{modelid.package_version(name)}" for name in ("spacy", "thinc", "blis"))
    return f"spacy-parse/{PARSE_FORMAT}/{versions}/{identity.label}/{identity.fingerprint[:24]}"


def model_namespace(model: SpacyModel) -> str | None:
    """The namespace of a model's parses, or None when it is not found on disk (not cached)."""
    identity = model.identity
    return None if identity is None else parse_namespace(identity)


def parse_lines(model: SpacyModel, texts: Sequence[str], tokenise: bool, cache: Any) -> list[ParsedSentence]:
    """``model.parse(texts, tokenise)``, but with the stored parses read from ``cache`` (a
    :class:`~gecmetrics.core.cache.Cache`) in one lookup and only the other lines parsed (and
    stored); spaCy is not even loaded when every line is stored. Without a usable cache, or for
    a model not found on disk, every line is parsed."""
    namespace = model_namespace(model) if cache is not None and cache.enabled else None
    if namespace is None:
        return model.parse(texts, tokenise)
    found = stored_parses(cache, namespace, texts, tokenise)
    missing = list(dict.fromkeys(text for text in texts if text not in found and text.strip()))
    if missing:
        parsed = model.parse(missing, tokenise)
        store_parses(cache, namespace, list(zip(missing, parsed)), tokenise)
        found.update(zip(missing, parsed))
    return [found.get(text, EMPTY_SENTENCE) for text in texts]


def parse_key(text: str, tokenise: bool) -> bytes:
    """The cache key of a line as the parser sees it (see :func:`parsed_text`)."""
    from ...cache import cache_key

    return cache_key(PARSE_FORMAT, "spacy" if tokenise else "given", parsed_text(text, tokenise))


def parsed_text(text: str, tokenise: bool) -> str:
    """What the parser reads of a line: the text itself for spaCy's tokenisation, else its
    whitespace-split tokens (joined by one space)."""
    return text if tokenise else " ".join(text.split())


# ----------------------------------------------------------------------------- values


def pack_parse(sentence: ParsedSentence) -> bytes | None:
    """A parse as compact bytes (see the module docstring); None when a token holds one of the
    separator characters (such a parse is not stored)."""
    words, lower, lemma = sentence.words, sentence.lower, sentence.lemma
    if not words:
        return None
    strings = (*words, *lower, *lemma, *sentence.pos, *sentence.tag, *sentence.dep)
    if _RESERVED.search("".join(strings)):
        return None
    lower_field = [_SAME if low == word.lower() else low for word, low in zip(words, lower)]
    lemma_field = [_SAME if lem == low else lem for low, lem in zip(lower, lemma)]
    heads = [str(head - index) for index, head in enumerate(sentence.head)]
    fields = [words, lower_field, lemma_field, sentence.pos, sentence.tag, sentence.dep, heads]
    text = _FIELD.join(_TOKEN.join(field) for field in fields) + _FIELD + \
        "".join("1" if space else "0" for space in sentence.space)
    return _FORMAT_BYTE + text.encode("utf-8", "surrogatepass")


def unpack_parse(data: bytes) -> ParsedSentence:
    """The parse :func:`pack_parse` stored; ValueError when ``data`` is not such a value."""
    if data[:1] != _FORMAT_BYTE:
        raise ValueError("not a stored parse of this format")
    try:
        fields = data[1:].decode("utf-8", "surrogatepass").split(_FIELD)
    except UnicodeDecodeError:
        raise ValueError("not UTF-8") from None
    if len(fields) != 8:
        raise ValueError(f"{len(fields)} fields")
    words, lowers, lemmas, pos, tag, dep, offsets = [field.split(_TOKEN) for field in fields[:7]]
    space, n = fields[7], len(words)
    if not len(lowers) == len(lemmas) == len(pos) == len(tag) == len(dep) == len(offsets) == len(space) == n \
            or space.strip("01"):
        raise ValueError("fields of different lengths")
    lower = tuple([word.lower() if low == _SAME else low for word, low in zip(words, lowers)])
    lemma = tuple([low if lem == _SAME else lem for low, lem in zip(lower, lemmas)])
    heads = tuple([index + int(offset) for index, offset in enumerate(offsets)])
    if min(heads) < 0 or max(heads) >= n:
        raise ValueError("head outside the sentence")
    return ParsedSentence(tuple(words), lower, lemma, tuple(pos), tuple(tag), tuple(dep), heads,
                          tuple([flag == "1" for flag in space]))


def stored_parses(cache, namespace: str, texts: Sequence[str], tokenise: bool) -> dict[str, ParsedSentence]:
    """The stored parses of those ``texts`` that are in the cache (one lookup for all; a value
    that cannot be read is a miss and will be overwritten)."""
    keys = {parse_key(text, tokenise): text for text in texts if text.strip()}
    found = {}
    for key, value in cache.iter_many(namespace, list(keys)):
        try:
            found[keys[key]] = unpack_parse(value)
        except ValueError:
            continue
    return found


def store_parses(cache, namespace: str, parses: Sequence[tuple[str, ParsedSentence]], tokenise: bool) -> None:
    """Store new parses (empty ones and unstorable ones are left out)."""
    items = {}
    for text, sentence in parses:
        if sentence is EMPTY_SENTENCE or not sentence.words:
            continue
        packed = pack_parse(sentence)
        if packed is not None:
            items[parse_key(text, tokenise)] = packed
    if items:
        cache.put_many(namespace, items)
