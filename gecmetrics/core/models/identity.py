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
checks it (:meth:`Records.check_loaded`): a record that differs is stored anew and the run
stops with one line.

Used by PT-M2 and PT-ERRANT (``metrics/pt/scorers.py``) and BERTScore
(``metrics/models/bertscore.py``).
"""
from __future__ import annotations

import json
import threading
from typing import Any, Callable, Hashable

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


class Records:
    """The identity records of one model, per variant (PT-M2's torch threads; BERTScore has one):
    read back from a cache where a load stored one, else found by loading (``find``), and written
    once to each cache file used; records read back are checked once the model is loaded
    (:meth:`check_loaded`).

    ``namespace``: where they are stored; ``valid``: whether a stored value is one;
    ``key_of(variant)``: its :func:`request_key` (None: none, the model is loaded first);
    ``storable(record)``: whether a record is worth storing; ``model``: the name errors give;
    ``lock``: the owner's lock, which its load holds too (one lock: no two threads wait on each
    other's)."""

    def __init__(self, namespace: str, valid: Callable[[dict], bool], key_of: Callable[[Hashable], str | None],
                 model: str, storable: Callable[[dict], bool] = lambda record: True, lock: Any = None) -> None:
        self.namespace, self.valid, self.key_of, self.model, self.storable = namespace, valid, key_of, model, storable
        self.found: dict[Hashable, dict] = {}  # variant -> record (read back, or the loaded model's)
        self._read: dict[Hashable, tuple[Any, str]] = {}  # variant -> (cache, key): read back, not checked yet
        self._keys: dict[Hashable, str | None] = {}
        self._written: set[tuple[str, Hashable]] = set()  # (cache file, variant)
        self._lock = threading.RLock() if lock is None else lock

    def get(self, variant: Hashable, cache: Any, loaded: bool, find: Callable[[], dict]) -> dict:
        """The record of ``variant``: known, read back from ``cache`` (unless the model is
        ``loaded``: then its own is found), or ``find()`` (which loads the model)."""
        with self._lock:
            usable = cache is not None and cache.enabled
            if usable and variant not in self._keys:
                self._keys[variant] = self.key_of(variant)
            key = self._keys.get(variant) if usable else None
            record = self.found.get(variant)
            if record is None and key is not None and not loaded:
                record = stored(cache, self.namespace, key, self.valid)
                if record is not None:
                    self.found[variant], self._read[variant] = record, (cache, key)
                    self._written.add((str(cache.path), variant))
            if record is None:
                record = self.found[variant] = find()
            where = (str(cache.path), variant) if usable else None
            if key is not None and where not in self._written and self.storable(record):
                store(cache, self.namespace, key, record)
                self._written.add(where)
            return record

    def check_loaded(self, find: Callable[[Hashable], dict]) -> None:
        """Once the model is loaded: each record read back must be its own (``find(variant)``);
        else that one is stored anew and the run stops with one line (what was read under the
        stored record may not be this model's)."""
        with self._lock:
            read, self._read = self._read, {}
            changed = False
            for variant, (cache, key) in read.items():
                was, self.found[variant] = self.found[variant], find(variant)
                if self.found[variant] != was:
                    store(cache, self.namespace, key, self.found[variant])
                    changed = True
            if changed:
                raise InputError(f"the identity of the model {self.model} stored in the cache differs from the "
                                 "loaded model's (something changed that its key does not hold): it is stored anew; "
                                 "run the command again")


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
