"""What identifies a loaded model (the namespaces and keys of its cached outputs, its signature
fields), kept in the persistent cache under what decides it, so that a later run can read it
back instead of loading the model.

A run whose every output is stored (a warm run) needs the model only to know those keys and
fields; loading it costs torch's and transformers' import and the weights (2.5-4 s of CPU and
300 MB with a small model). The first run that loads a model stores the record it found under
:func:`request_key`, made only of what can be known without torch: the SHA-256 of the model
folder's weights and of its other files (or a cached hub snapshot's commit), the caller's
settings (layer, dtype, threads ...), the CPU, the installed torch, transformers and tokenizers
(read from their metadata) and Python's Unicode tables. Where the key cannot be known so (a
device torch must choose, a hub name not on disk, a folder without weights) there is none, and
the model is loaded first, as before. A caller that loads the model after reading a record
checks it (:func:`check_loaded`): a record that differs is stored anew and the run stops with
one line.

Used by PT-M2 and PT-ERRANT (``metrics/pt/scorers.py``) and BERTScore
(``metrics/models/bertscore.py``).
"""
from __future__ import annotations

import json
from typing import Any, Callable

from ...errors import InputError
from ..cache import cache_key


def request_key(source: str, device: str | None, settings: list[str]) -> str | None:
    """What decides the identity of the model read from ``source`` (a folder, or a hub model's
    cached snapshot) with the caller's ``settings`` (strings, in the caller's order), known
    without torch; None when only a load can tell (see the module docstring)."""
    import unicodedata

    from .loading import cpu_without_torch, folder_revision
    from .token_ids import installed_version, tokenizer_digest

    if not cpu_without_torch(device):
        return None
    revision = folder_revision(source)
    digest = tokenizer_digest(source, revision) if revision is not None else ""
    if not digest:
        return None
    versions = [f"{package}-{installed_version(package)}" for package in ("torch", "transformers", "tokenizers")]
    return "\n".join([revision, digest, *settings, *versions, f"unicode-{unicodedata.unidata_version}"])


def stored(cache: Any, namespace: str, key: str, valid: Callable[[Any], bool]) -> dict | None:
    """The record stored under ``key`` in ``namespace``, or None (absent, or not one ``valid``
    accepts: found by loading again)."""
    value = cache.get_many(namespace, [cache_key(key)]).get(cache_key(key))
    try:
        record = json.loads(value) if value is not None else None
    except (UnicodeDecodeError, ValueError):
        return None
    return record if isinstance(record, dict) and valid(record) else None


def store(cache: Any, namespace: str, key: str, record: dict) -> None:
    cache.put_many(namespace, {cache_key(key): json.dumps(record, sort_keys=True).encode("utf-8")}, compress=False)


def check_loaded(found: dict, read: dict | None, cache: Any, namespace: str, key: str | None, model: str) -> None:
    """After a model whose record was read back (``read``; None: it was not) is loaded: its own
    record ``found`` must be the same; else it is stored anew and the run stops with one line
    (what was read under the stored record may not be this model's)."""
    if read is None or found == read:
        return
    if key is not None:
        store(cache, namespace, key, found)
    raise InputError(f"the identity of the model {model} stored in the cache differs from the loaded model's "
                     "(something changed that its key does not hold): it is stored anew; run the command again")


def strings(record: dict, *names: str) -> bool:
    """Whether ``record`` holds a string under each of ``names``."""
    return all(isinstance(record.get(name), str) for name in names)


class LoadedOnUse:
    """A stand-in for a loaded model in a scorer that reads it only to tokenize a text or to
    compute: ``load()`` is called (once it has loaded, it returns the same model) on the first
    attribute read, so a run that finds everything stored never loads it."""

    def __init__(self, load: Callable[[], Any]) -> None:
        self._load = load

    def __getattr__(self, name: str) -> Any:
        return getattr(self._load(), name)
