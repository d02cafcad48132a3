"""The token ids of texts, kept in the persistent cache across runs.

A model metric's stored outputs are keyed by the exact token ids of their inputs, so a warm run
still tokenized every text to find its keys; transformers' Python BERT tokenizer (the one
BERTScore, PT-M2 and SOME use, for its Unicode handling) takes about 0.7 ms a sentence, which
was most of a warm run. The ids are stored per text in a namespace that holds everything that
decides them: the tokenizer's files, its class, the versions of the code that runs it, and how
the caller tokenizes (with or without special tokens, the truncation). A tokenizer whose files
are unknown is not stored.
"""
from __future__ import annotations

import os
from typing import Any, Callable, Sequence

import numpy as np

from ..cache import cache_key
from .folders import folder_fingerprint

TOKEN_IDS_FORMAT = 1
"""Part of every namespace of stored token ids: bump when what a stored value means changes."""

WEIGHT_FILE_ENDINGS = (".safetensors", ".bin", ".h5", ".msgpack", ".ot", ".onnx", ".pt", ".pth", ".ckpt", ".gguf")
"""Endings of weight files, which a tokenizer never reads."""


def tokenizer_digest(source: str, revision: str = "") -> str:
    """What identifies the files a tokenizer is made from: for a folder (a local one, or a hub
    model's cached snapshot), the SHA-256 of the names, sizes and bytes of every file in it but
    the weights (vocabularies, merges, sentencepiece models, tokenizer and special tokens
    settings, config.json: whatever ``AutoTokenizer`` reads); else the hub commit the model was
    loaded at (``revision`` ``commit:...``); else "" (unknown: its token ids are not stored)."""
    if isinstance(source, str) and os.path.isdir(source):
        try:
            digest = folder_fingerprint(source, skip=lambda name: name.endswith(WEIGHT_FILE_ENDINGS))
        except OSError:  # a file that cannot be read: unknown
            return ""
        return f"files-sha256:{digest[:16]}"
    return revision if revision.startswith("commit:") else ""


def token_namespace(kind: str, digest: str, tokenizer: Any, *settings: str) -> str | None:
    """The namespace of the ids that ``tokenizer`` (its files' ``digest``) gives texts when
    called the caller's way (``kind`` and ``settings``: special tokens, maximum length ...),
    with the versions of the code that runs it (transformers, the Rust ``tokenizers``, Python's
    Unicode tables, which the Python tokenizers read); None when the digest is unknown."""
    if not digest:
        return None
    import unicodedata

    versions = [f"{package}-{installed_version(package)}" for package in ("transformers", "tokenizers")]
    return "/".join(["models/token-ids", str(TOKEN_IDS_FORMAT), kind, digest, type(tokenizer).__name__, *versions,
                     f"unicode-{unicodedata.unidata_version}", *settings])


def loaded_token_namespace(kind: str, tokenizer: Any, *settings: str) -> str | None:
    """:func:`token_namespace` of a loaded tokenizer, its digest taken over the folder it was read
    from (a hub model's cached snapshot included)."""
    digest = tokenizer_digest(str(getattr(tokenizer, "name_or_path", "") or ""))
    return token_namespace(kind, digest, tokenizer, *settings)


def installed_version(package: str) -> str:
    """The installed version of a distribution (``none`` when it is not installed), read from its
    metadata without importing it."""
    from importlib import metadata

    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "none"


_ID_WIDTHS = {2: "<u2", 4: "<i4"}


def pack_ids(ids: Sequence[int]) -> bytes:
    """Token ids as stored: a byte giving the width (2 when every id is below 65,536, as in
    BERT's and RoBERTa's vocabularies, else 4), then the little-endian ids."""
    width = 2 if not ids or max(ids) < 1 << 16 else 4
    return bytes([width]) + np.asarray(ids, dtype=_ID_WIDTHS[width]).tobytes()


def unpack_ids(value: bytes | None) -> tuple[int, ...] | None:
    """The ids :func:`pack_ids` stored, or None for a value that is not such ids."""
    if not value or value[0] not in _ID_WIDTHS or (len(value) - 1) % value[0]:
        return None
    return tuple(np.frombuffer(value, dtype=_ID_WIDTHS[value[0]], offset=1).tolist())


def cached_token_ids(cache: Any, namespace: str | None, texts: list[str],
                     tokenize: Callable[[list[str]], Sequence[Sequence[int]]]) -> tuple[list[tuple[int, ...]], int]:
    """(the token ids of each of the distinct ``texts``, how many were tokenized): read from
    ``cache`` where stored in ``namespace``, the others by ``tokenize(texts)`` in one call and
    stored. Without a cache (None, disabled) or a namespace, every text is tokenized."""
    if cache is None or not cache.enabled or namespace is None:
        return [tuple(ids) for ids in tokenize(texts)] if texts else [], len(texts)
    keys = {text: cache_key(TOKEN_IDS_FORMAT, text) for text in texts}
    stored = cache.get_many(namespace, keys.values())
    found: dict[str, tuple[int, ...]] = {}
    for text, key in keys.items():
        ids = unpack_ids(stored.get(key))
        if ids is not None:  # else absent or unreadable: tokenized again and overwritten
            found[text] = ids
    missing = [text for text in texts if text not in found]
    if missing:
        computed = [tuple(ids) for ids in tokenize(missing)]
        found.update(zip(missing, computed))
        cache.put_many(namespace, {keys[text]: pack_ids(ids) for text, ids in zip(missing, computed)}, compress=False)
    return [found[text] for text in texts], len(missing)
