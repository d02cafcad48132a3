"""What a run hands to the metrics it runs: its persistent cache and the process's loaded resources.

* :class:`RunContext`: the run's :class:`~gecmetrics.core.cache.Cache` and a :class:`Resources`
  store. The run engine makes one per run from the run's cache setting (:func:`run_context`:
  ``gecmetric --cache DIR`` / ``--no-cache``, or ``cache=`` in Python; ``$GECMETRICS_CACHE`` is
  read there, once, and never written) and runs copies of the metrics bound to it
  (:meth:`gecmetrics.metrics.base.Metric.with_context`); ``prepare`` reads ``self.context`` and
  hands ``context.cache`` to the producers (the ERRANT annotator, the model scorers, the PT pair
  scorer, the LLM judge). A context pickles as its cache folder: a worker process (``-p N``) or
  a Dask worker unpickles it into the same folder and its own process's resources.
* :class:`Resources`: loaded things that are costly to make and depend only on their key (spaCy
  pipelines, model scorers, PT encoders, LLM backends, word lists, ChERRANT's data tables, open
  cache files), each made once per process and key, by one thread while others wait for it. One
  store per process (:func:`process_resources`) serves every run of the process, whatever its
  cache: nothing in it holds a cache that a run chose, so two runs with different caches never
  mix.

Pure memoisation of deterministic functions (versions, fingerprints, signature fields) stays
beside its function as a bounded :func:`functools.lru_cache`.
"""
from __future__ import annotations

import os
import threading
import weakref
from typing import TYPE_CHECKING, Any, Callable, Hashable, Iterator, TypeVar

from ..errors import InputError
from .cache_folder import ENV_VAR  # (not the store: a run whose metrics never touch it does not load SQLite)

if TYPE_CHECKING:
    from .cache import Cache

__all__ = ["Resources", "RunContext", "CacheSetting", "loaded", "process_resources", "run_context"]

T = TypeVar("T")

CacheSetting = Any
"""What ``cache=`` accepts: None or True (the default folder: ``$GECMETRICS_CACHE``, else the
user cache folder), False (no cache), a folder (str or path), a :class:`Cache`, or a
:class:`RunContext` (used as it is)."""


class Resources:
    """Loaded resources by key (a tuple whose first item names the kind: ``("spacy", name)``),
    each made once by :meth:`get`; safe to use from several threads. A failed load stores
    nothing (the next call tries again)."""

    def __init__(self) -> None:
        self._items: dict[Hashable, Any] = {}
        self._reset_locks()
        _STORES.add(self)

    def _reset_locks(self) -> None:
        self._lock = threading.Lock()
        self._gates: dict[Hashable, threading.Lock] = {}

    def get(self, key: Hashable, load: Callable[[], T]) -> T:
        """The resource of ``key``, made by ``load()`` on first use (one thread loads, the others
        asking for the same key wait for it; other keys are not held up)."""
        with self._lock:
            if key in self._items:
                return self._items[key]
            gate = self._gates.setdefault(key, threading.Lock())
        with gate:
            with self._lock:
                if key in self._items:
                    return self._items[key]
            value = load()
            with self._lock:
                self._items[key] = value
                self._gates.pop(key, None)
            return value

    def find(self, key: Hashable) -> Any:
        """The resource of ``key`` if it is loaded, else None (nothing is loaded)."""
        with self._lock:
            return self._items.get(key)

    def cache(self, folder: str | os.PathLike[str]) -> Cache:
        """The open cache of ``folder`` in this process (one connection per folder, reused by every
        run and chunk that names the folder; its problems are reported once)."""
        from .cache import Cache

        return self.get(("cache", os.fspath(folder)), lambda: Cache(folder))

    def drop(self, kind: str) -> None:
        """Forget the resources of one kind (freed once nothing else holds them)."""
        with self._lock:
            for key in [key for key in self._items if isinstance(key, tuple) and key and key[0] == kind]:
                del self._items[key]

    def clear(self) -> None:
        """Forget every resource (freed once nothing else holds them)."""
        with self._lock:
            self._items.clear()

    def __contains__(self, key: Hashable) -> bool:
        with self._lock:
            return key in self._items

    def keys(self) -> Iterator[Hashable]:
        with self._lock:
            return iter(list(self._items))

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)

    def __reduce__(self) -> tuple:
        return (process_resources, ())  # loaded models are never sent: a worker has its own store


_STORES: "weakref.WeakSet[Resources]" = weakref.WeakSet()


def _after_fork() -> None:
    """A forked child keeps what its parent loaded (copy-on-write), but not a lock another thread
    of the parent held at the fork."""
    for store in list(_STORES):
        store._reset_locks()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork)

_PROCESS = Resources()


def process_resources() -> Resources:
    """This process's store of loaded resources (shared by every run of the process)."""
    return _PROCESS


def loaded(key: Hashable, load: Callable[[], T], resources: Resources | None = None) -> T:
    """``resources.get(key, load)``: the resource of ``key`` from a run's store (``context.resources``),
    or from this process's when none is given."""
    return (_PROCESS if resources is None else resources).get(key, load)


class RunContext:
    """A run's cache and the resources its metrics load (see the module docstring). Immutable;
    safe to share between threads; pickles as its cache folder.

    ``RunContext(cache, resources)``; :func:`run_context` makes one from a cache setting, whose
    default folder (or ``False``: none) is then only looked up when a metric first asks for
    :attr:`cache`, with the value ``$GECMETRICS_CACHE`` had when the context was made."""

    __slots__ = ("_cache", "_setting", "_on_warning", "_lock", "resources")

    def __init__(self, cache: Cache, resources: Resources | None = None) -> None:
        from .cache import Cache

        if not isinstance(cache, Cache):
            raise InputError(f"a run context's cache is a gecmetrics.core.cache.Cache, got {type(cache).__name__}")
        self._start(cache, None, None, resources)

    def _start(self, cache: Cache | None, setting: tuple | None, on_warning: Callable[[str], None] | None,
               resources: Resources | None) -> None:
        if resources is not None and not isinstance(resources, Resources):
            raise InputError(f"a run context's resources are a Resources store, got {type(resources).__name__}")
        for name, value in (("_cache", cache), ("_setting", setting), ("_on_warning", on_warning),
                            ("_lock", threading.Lock()),
                            ("resources", resources if resources is not None else process_resources())):
            object.__setattr__(self, name, value)

    @classmethod
    def _deferred(cls, setting: tuple, on_warning: Callable[[str], None] | None = None) -> RunContext:
        """A context whose cache is made on first use from ``setting``: ``("off",)`` or
        ``("default", value of $GECMETRICS_CACHE or None)``."""
        context = object.__new__(cls)
        context._start(None, setting, on_warning, None)
        return context

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a RunContext is immutable")

    @property
    def cache(self) -> Cache:
        """The run's persistent cache (made on first use when the context was made from a
        default setting)."""
        if self._cache is None:
            with self._lock:
                if self._cache is None:
                    object.__setattr__(self, "_cache", _made_cache(self._setting, self._on_warning))
        return self._cache

    def signature_fields(self) -> list[tuple[str, str]]:
        """``cache:on`` when the cache is in use (for the signature of a metric whose values may
        come from it), nothing when it is off: the numbers are the same either way."""
        return [("cache", "on")] if self.cache.enabled else []

    def __repr__(self) -> str:
        return f"RunContext({self.cache!r})"

    def __reduce__(self) -> tuple:
        cache = self.cache  # resolved here: a worker never reads its own environment
        folder = cache.folder if cache.path is not None else None
        # absolute: a worker started elsewhere (a Dask worker) finds the same folder
        return (_unpickled, (None if folder is None else os.path.abspath(folder),))


def _made_cache(setting: tuple, on_warning: Callable[[str], None] | None) -> Cache:
    """The cache of a deferred setting (see :meth:`RunContext._deferred`)."""
    from .cache import Cache, resolve_cache_folder

    folder = None if setting[0] == "off" else resolve_cache_folder(variable=setting[1] or "")
    if folder is None:
        cache = Cache(enabled=False, on_warning=on_warning)
        if setting[0] != "off":  # why, for `gecmetric cache info`
            cache._reason = f"disabled (${ENV_VAR}={setting[1]})"
        return cache
    return Cache(folder, on_warning=on_warning) if on_warning is not None else process_resources().cache(folder)


def _unpickled(folder: str | None) -> RunContext:
    """A context sent to a worker: the same cache folder, opened once per worker process."""
    if folder is None:
        return RunContext._deferred(("off",))
    return RunContext(process_resources().cache(folder))


def run_context(cache: CacheSetting = None, *, on_warning: Callable[[str], None] | None = None) -> RunContext:
    """The context of a run from its cache setting (see :data:`CacheSetting`). The default
    folder is looked up as ``$GECMETRICS_CACHE`` says now (else the user cache folder); a
    folder's cache is opened once per process, unless ``on_warning`` is given (then a cache of
    the run's own reports its problems through it)."""
    if isinstance(cache, RunContext):
        return cache
    if cache is None or cache is True:
        return RunContext._deferred(("default", os.environ.get(ENV_VAR)), on_warning)
    if cache is False:
        return RunContext._deferred(("off",), on_warning)
    from .cache import Cache, resolve_cache_folder

    if isinstance(cache, Cache):
        return RunContext(cache)
    if not isinstance(cache, (str, os.PathLike)):
        raise InputError(f"cache must be a folder, a Cache, True (the default folder) or False (none), "
                         f"got {type(cache).__name__}")
    folder = resolve_cache_folder(cache)  # an empty name is an InputError
    return RunContext(Cache(folder, on_warning=on_warning) if on_warning is not None else
                      process_resources().cache(folder))
