"""Names of a package imported on first use (PEP 562), so that a command pays only for the
modules it runs (``gecmetric --version`` loads no NumPy; an n-gram command no M2 code)."""
from __future__ import annotations

import importlib
import sys
# typing only for annotations: the console script imports this module (and errors, cli) before the
# command takes over Ctrl-C, and typing with re is about 20 ms of that window (gecmetrics.cli.run)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable


def lazy_names(package: str, table: dict[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of a package whose ``table`` maps each public name
    to the submodule defining it; a name is imported once, then kept in the package."""
    def __getattr__(name: str) -> Any:
        module = table.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f".{module}", package), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(table) | set(vars(sys.modules[package])))

    return __getattr__, __dir__
