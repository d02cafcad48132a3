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

Used by PT-M2 and PT-ERRANT (``metrics/pt/scorers.py``) through :class:`Records` (a record per
torch thread count), and through :class:`OnUse` by BERTScore's encoder
(``metrics/models/bertscore.BertScoreEncoder``), SOME's and IMPARA's models and tokenizers
(:class:`~gecmetrics.core.models.inference.ModelOnUse`,
:class:`~gecmetrics.core.models.inference.Encoder`) and the Scribendi Score's language model
(:class:`~gecmetrics.core.models.causal_lm.CausalLMOnUse`) and a local LLM judge's tokenizer
(``metrics/llm/backends/local.JudgeTokenizer``: its chat template's digest; the judge hands it
the run's cache).
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
    from .loading import cpu_without_torch, folder_revision
    from .token_ids import tokenizer_digest

    if not cpu_without_torch(device):
        return None
    revision = folder_revision(source)
    digest = tokenizer_digest(source, revision) if revision is not None else ""
    if not digest:
        return None
    return "\n".join([revision, digest, *settings, *_versions("torch", "transformers", "tokenizers")])


def tokenizer_request_key(source: str, settings: list[str]) -> str | None:
    """What decides what a tokenizer read from ``source`` is (its special token ids, the
    namespace of its ids), known without transformers: its files' digest (or the hub commit of a
    cached snapshot), the caller's ``settings``, the installed transformers and tokenizers and
    Python's Unicode tables; None for a source that is not a folder on disk."""
    from .loading import folder_revision
    from .token_ids import tokenizer_digest

    digest = tokenizer_digest(source, folder_revision(source) or "")
    if not digest:
        return None
    return "\n".join([digest, *settings, *_versions("transformers", "tokenizers")])


def _versions(*packages: str) -> list[str]:
    """The installed versions of ``packages`` (read from their metadata) and of Python's Unicode tables."""
    import unicodedata

    from .token_ids import installed_version

    return [*(f"{package}-{installed_version(package)}" for package in packages),
            f"unicode-{unicodedata.unidata_version}"]


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


class OnUse:
    """A model or tokenizer loaded on first use (:meth:`load`), whose identity record (what cache
    keys and signatures need of it) is read back from ``owner.cache`` where an earlier load stored
    it, else found by loading (:class:`Records`, one variant). ``owner``: the scorer that holds it
    (its ``cache``, and its ``threads``: torch threads set whenever a model is handed out).

    A subclass sets :attr:`identities` (the namespace of its records) and :attr:`valid` (what a
    stored record must be) and writes :meth:`_load_now` (the loaded thing) and
    :meth:`_record_of` (its record)."""

    identities = ""
    valid: Callable[[dict], bool] = staticmethod(lambda record: False)
    sets_threads = True
    """Whether handing the loaded thing out sets the owner's torch threads (a model's, not a tokenizer's)."""

    def __init__(self, name: str, key: Callable[[], str | None], owner: Any = None) -> None:
        self.name, self.owner = name, owner
        self._loaded: Any = None
        self._lock = threading.RLock()
        self._records = Records(self.identities, self.valid, lambda _: key(), name, lock=self._lock)

    def _load_now(self) -> Any:
        raise NotImplementedError

    def _record_of(self, loaded: Any) -> dict:
        raise NotImplementedError

    @property
    def is_loaded(self) -> bool:
        return self._loaded is not None

    def load(self) -> Any:
        """The loaded thing, loaded now if it is not yet (a record read back is checked against it)."""
        from .runtime import use_threads

        with self._lock:
            if self._loaded is None:
                loaded = self._load_now()
                self._loaded = loaded
                self._records.check_loaded(lambda _: self._record_of(loaded))
            if self.sets_threads:
                use_threads(getattr(self.owner, "threads", 0))
            return self._loaded

    def record(self, cache: Any = None) -> dict:
        """The identity record: read back from ``cache`` (None: the owner's), else the loaded thing's."""
        cache = getattr(self.owner, "cache", None) if cache is None else cache
        return self._records.get(None, cache, self.is_loaded, lambda: self._record_of(self.load()))


def recorded(field: str) -> property:
    """A property of an :class:`OnUse` that reads ``field`` of its identity record."""
    return property(lambda self: self.record()[field], doc=f"The identity record's {field!r}.")


class LoadedOnUse:
    """A stand-in for a loaded model in a scorer that reads it only to tokenize a text or to
    compute: ``load()`` is called (once it has loaded, it returns the same model) on the first
    attribute read, so a run that finds everything stored never loads it."""

    def __init__(self, load: Callable[[], Any]) -> None:
        self._load = load

    def __getattr__(self, name: str) -> Any:
        return getattr(self._load(), name)
