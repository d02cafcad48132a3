"""The run's one persistent cache (:mod:`gecmetrics.core.cache`), chosen once for every metric.

A run configures it before it starts (the command line from ``--cache DIR`` / ``--no-cache``);
every metric then reads and stores through :func:`~gecmetrics.core.cache.default_cache`. The
folder (or ``off``) is put in ``$GECMETRICS_CACHE``, so the worker processes of ``-p N`` and the
workers of a local Dask cluster, started afterwards, use the same file (a Dask worker started
separately uses its own ``$GECMETRICS_CACHE``, or its user cache folder).
"""
from __future__ import annotations

import os
from typing import Callable

from ..core.cache import Cache, set_default_cache
from ..errors import InputError

__all__ = ["configure_cache"]


def configure_cache(folder: str | os.PathLike[str] | None = None, enabled: bool = True,
                    on_warning: Callable[[str], None] | None = None) -> Cache:
    """Make the run's cache: ``folder`` (``--cache DIR``; None: ``$GECMETRICS_CACHE``, else the
    user cache folder), or none with ``enabled=False`` (``--no-cache``); problems with it are
    reported through ``on_warning`` (one line each). It becomes the process's default cache,
    inherited by worker processes started afterwards; returns it."""
    if not enabled and folder is not None:
        raise InputError("--cache and --no-cache do not go together")
    cache = Cache(folder, enabled=enabled, on_warning=on_warning)
    set_default_cache(cache)
    return cache
