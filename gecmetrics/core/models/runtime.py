"""torch and transformers for the model metrics: importing them (their absence is one line
saying what to install), knowing they are installed without importing them, the device and
dtype settings (checked without torch), and torch's threads.

A module of its own (nothing here imports the rest of ``core.models``), so that what loads
models on first use (:class:`~gecmetrics.core.models.identity.OnUse`) can set torch's threads
when it hands a model out without an import circle.
"""
from __future__ import annotations

import importlib.util
import re
from typing import Any

from ...errors import InputError

INSTALL_HINT = "pip install 'gecmetrics[models]'"

DTYPES = ("float32", "float16", "bfloat16")
"""Weight types a model can be run in; ``float32`` is what the original computes with."""
_DEVICE = re.compile(r"(cpu|cuda(:[0-9]+)?|mps)")


def check_device(device: str | None, label: str = "device", auto: bool = False) -> str | None:
    """``cpu``, ``cuda``, ``cuda:N``, ``mps`` or None (CUDA when torch sees one, else CPU), in any
    case and with spaces around; ``auto`` (and an empty text): None too. ``label`` names the value
    in the message (a metric's setting and its flag)."""
    if device is None or (auto and isinstance(device, str) and device.strip().lower() in ("", "auto")):
        return None
    if not isinstance(device, str) or not _DEVICE.fullmatch(device.strip().lower()):
        choices = "cpu, cuda, cuda:N, mps or auto" if auto else "cpu, cuda, cuda:N or mps"
        raise InputError(f"{label} must be {choices}, got {device!r}")
    return device.strip().lower()


def check_dtype(dtype: str) -> str:
    """float32, float16 or bfloat16."""
    if dtype not in DTYPES:
        raise InputError(f"dtype must be one of {', '.join(DTYPES)}, got {dtype!r}")
    return dtype


def import_torch_transformers(needs: str = "model-based metrics", hint: str = INSTALL_HINT) -> tuple[Any, Any]:
    """(torch, transformers), or one line saying that ``needs`` need them and what to install
    (``hint``: the extra of the metrics that need them)."""
    try:
        import torch
        import transformers
    except ImportError as err:
        raise InputError(f"{needs} need torch and transformers ({err}): {hint}") from None
    return torch, transformers


def import_transformers() -> Any:
    """transformers alone (a tokenizer needs no torch), or one line saying what to install."""
    try:
        import transformers
    except ImportError as err:
        raise InputError(f"model-based metrics need transformers ({err}): {INSTALL_HINT}") from None
    return transformers


def check_installed() -> None:
    """torch and transformers must be installed (one line saying what to install), found without
    importing them (a model loaded on first use may never be)."""
    for name in ("torch", "transformers"):
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError) as err:  # a finder that refuses it
            raise InputError(f"model-based metrics need torch and transformers ({err}): {INSTALL_HINT}") from None
        if not found:
            raise InputError(f"model-based metrics need torch and transformers (No module named {name!r}): "
                             f"{INSTALL_HINT}")


def set_threads(torch: Any, threads: int) -> None:
    """Use ``threads`` torch threads in this process (0: leave torch's default). One thread
    (the default of the model metrics, as PT-M2's) spends no CPU on idle worker threads and
    keeps a sentence's numbers the same bits whatever it is batched with."""
    if not isinstance(threads, int) or isinstance(threads, bool) or threads < 0:
        raise InputError(f"threads must be an integer >= 0, got {threads!r}")
    if threads and torch.get_num_threads() != threads:
        torch.set_num_threads(threads)


def use_threads(threads: int) -> None:
    """:func:`set_threads` where ``threads`` is not 0 (torch imported only then)."""
    if threads:
        set_threads(import_torch_transformers()[0], threads)
