"""Which implementation of the counting core's inner loops is in use.

The loops (words to ids, n-gram ids, per-line counts, gec-ranking's seeded draws) run in the
optional C extension ``gecmetrics.core._counting`` when the install could compile it, and otherwise
in NumPy; both give the same statistics. ``GECMETRICS_NUMPY_CORE=1`` forces NumPy (for
comparisons and debugging). This module imports neither NumPy nor the metrics. It also holds
what the process asks of the system: memory kept or given back, the permissions of new files.
"""
from __future__ import annotations

import os
from types import ModuleType

ENVIRONMENT_VARIABLE = "GECMETRICS_NUMPY_CORE"

COMPILED_API = 3
"""The interface of the C extension this package calls (its ``API_VERSION``). An extension built
from older sources (an editable install whose sources changed without ``pip install -e .`` again)
lacks what the package calls: it is left unused, and ``--version`` says why."""


def usable_extension(module: ModuleType | None) -> ModuleType | None:
    """``module`` when it was built from these sources (its ``API_VERSION``), else None."""
    return module if module is not None and getattr(module, "API_VERSION", None) == COMPILED_API else None


try:
    from . import _counting as _built
except ImportError:  # installed without a C compiler
    _built: ModuleType | None = None  # type: ignore[no-redef]
compiled = usable_extension(_built)


def compiled_core_enabled() -> bool:
    """Whether new encoders use the C extension: built, and not disabled by the environment."""
    return compiled is not None and os.environ.get(ENVIRONMENT_VARIABLE, "") in ("", "0")


def core_name() -> str:
    """A short description for ``--version`` and bug reports."""
    if compiled_core_enabled():
        return "C extension"
    if compiled is not None:
        return f"NumPy ({ENVIRONMENT_VARIABLE} is set)"
    if _built is not None:
        return "NumPy (the C extension was built from older sources: pip install -e . builds it again)"
    return "NumPy (the C extension was not built)"


def keep_freed_memory() -> bool:
    """For a one-shot command: ask the C allocator to keep freed memory for reuse instead of
    returning it to the system, which saves page faults on the many large temporary arrays
    (glibc only; a no-op elsewhere). A library user's process is left alone."""
    return bool(compiled is not None and compiled.keep_freed_memory())


def release_freed_memory() -> bool:
    """Between two phases of a long command: give the freed memory that :func:`keep_freed_memory`
    keeps back to the system (glibc's ``malloc_trim``; a no-op elsewhere). The large arrays of a
    finished phase leave it behind, and the next phase's Python objects live in Python's own
    arenas, which cannot reuse it: a 10^5-sentence report kept about 600 MB so."""
    return bool(compiled is not None and compiled.release_freed_memory())


def new_file_mode() -> int:
    """The permissions a new file gets here (0666 less the process's umask): what a file written
    through a temporary one (``mkstemp``'s are 0600) is given before it takes the target's name."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask
