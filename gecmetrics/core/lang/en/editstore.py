"""ERRANT's edits of (source, correction) pairs in the persistent cache
(:mod:`gecmetrics.core.cache`), beside the parses they come from (:mod:`.parsestore`).

A warm run read every parse back and then aligned, merged and classified every changed pair
again: three quarters of a warm ``gecmetric errant`` of three CoNLL-2014 systems. The edits of a
pair depend on the two parses, the annotator's settings and its code; all of them are in the
namespace or the key, so stored edits are never used for another producer:

* the namespace: ``errant-edits/<format>/code-<digest>/merge-<strategy>/align-<lev|linguistic>/
  words-<checksum>/`` then the parses' namespace (:func:`.parsestore.parse_namespace`: spaCy,
  thinc and cython-blis versions, the model's name, version and fingerprint). The code digest is
  the SHA-256 of the modules that decide edits (:data:`EDIT_CODE`), so a changed rule never reads
  edits the old one made; the word list's checksum is that of its words (the shipped list's is
  recorded, :data:`~.wordlist.SHIPPED_SHA256`);
* the key: :data:`EDITS_FORMAT`, the tokenisation and both lines as parsed.

Values are JSON: a list of ``[o_start, o_end, c_start, c_end, type, correction]``. A value that
is not such a list is a miss (the pair is annotated again and the value overwritten).
"""
from __future__ import annotations

import functools
import hashlib
from pathlib import Path
from typing import Any, Iterable, Mapping

from ..edits import AnnotatedEdit

EDITS_FORMAT = 1
"""Bump when the stored layout or what stored edits mean changes."""

EDIT_CODE = ("align.py", "merge.py", "classify.py", "stem.py", "annotator.py")
"""The modules of this package whose code decides a pair's edits (fingerprinted in the namespace)."""

Pair = tuple[str, str]
"""A (source, correction) pair as the annotator parses them (:meth:`Annotator._parse_key`)."""


@functools.cache
def code_digest() -> str | None:
    """The first 16 hex digits of the SHA-256 over the names and bytes of :data:`EDIT_CODE`; None
    when a module's source cannot be read (an installation without it: edits are then not kept)."""
    digest = hashlib.sha256()
    folder = Path(__file__).resolve().parent
    for name in EDIT_CODE:
        try:
            data = (folder / name).read_bytes()
        except OSError:
            return None
        digest.update(name.encode() + b"\0" + len(data).to_bytes(8, "little") + data)
    return digest.hexdigest()[:16]


def edits_namespace(parse_namespace: str, merge: str, lev: bool, words: str) -> str | None:
    """The cache namespace of the edits an annotator with these settings makes from the parses of
    ``parse_namespace`` (``words``: the word list's checksum); None when the code that decides
    them cannot be fingerprinted (:func:`code_digest`)."""
    code = code_digest()
    if code is None:
        return None
    return (f"errant-edits/{EDITS_FORMAT}/code-{code}/merge-{merge}/align-{'lev' if lev else 'linguistic'}/"
            f"words-{words[:16]}/{parse_namespace}")


def edit_key(pair: Pair, tokenise: bool) -> bytes:
    from ...cache import cache_key

    return cache_key(EDITS_FORMAT, "spacy" if tokenise else "given", *pair)


def stored_edits(cache: Any, namespace: str, pairs: Iterable[Pair], tokenise: bool) -> dict[Pair, list[AnnotatedEdit]]:
    """The stored edits of those ``pairs`` that are in the cache (one lookup for all)."""
    keys = {edit_key(pair, tokenise): pair for pair in pairs}
    found = {}
    for key, value in cache.iter_many(namespace, list(keys)):
        edits = unpack_edits(value)
        if edits is not None:
            found[keys[key]] = edits
    return found


def store_edits(cache: Any, namespace: str, edits: Mapping[Pair, list[AnnotatedEdit]], tokenise: bool) -> None:
    """Store new edits."""
    items = {edit_key(pair, tokenise): pack_edits(found) for pair, found in edits.items()}
    if items:
        cache.put_many(namespace, items)


def pack_edits(edits: list[AnnotatedEdit]) -> bytes:
    """Edits as stored (a correction holding a lone surrogate too: JSON's escape keeps it)."""
    from ...cache import pack_json

    return pack_json([[e.o_start, e.o_end, e.c_start, e.c_end, e.type, e.correction] for e in edits])


def unpack_edits(data: bytes) -> list[AnnotatedEdit] | None:
    """The edits :func:`pack_edits` stored, or None for a value that is not such edits."""
    from ...cache import unpack_json

    try:
        rows = unpack_json(data)
    except ValueError:
        return None
    if not isinstance(rows, list):
        return None
    edits = []
    for row in rows:
        if not (isinstance(row, list) and len(row) == 6 and all(type(n) is int and n >= 0 for n in row[:4])
                and row[0] <= row[1] and row[2] <= row[3] and isinstance(row[4], str) and isinstance(row[5], str)):
            return None
        edits.append(AnnotatedEdit(*row))
    return edits
