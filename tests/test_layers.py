"""The import map of the package: layers ground first, no upward import, no circle.

Layers (docs/design.md): leaf modules (version, errors, kinds), core, io, metrics, stats, run,
meta, output, cli. A module imports only from its own layer or those below it; the package's
``__init__`` (the public API, imported lazily) may name any of them. Imports inside functions
count too: a lazy import is still an arrow. Imports under ``if TYPE_CHECKING:`` (annotations only,
never run) do not.

Inside the metrics layer, a family is a subpackage ``gecmetrics.metrics.<name>``; the modules at
the top of ``metrics/`` (the protocol and the metric bases: ``base``, ``settings``, ``results``,
``registry``, ``ngram``, ``running_f``, ``edit_comparison`` ...) are shared. A family imports no other
family (what two families share lives in core or in a metric base), and a shared module imports
no family.
"""
from __future__ import annotations

import ast
import functools
from pathlib import Path

from tests._sources import syntax_tree

PACKAGE = Path(__file__).resolve().parent.parent / "gecmetrics"
LAYERS = ["leaf", "core", "io", "metrics", "stats", "run", "meta", "output", "cli"]
LEAF_MODULES = {"gecmetrics.version", "gecmetrics.errors", "gecmetrics.kinds", "gecmetrics._lazy"}
PUBLIC_MODULES = {"gecmetrics.rewards"}
"""Modules of the public API beside the package's ``__init__`` (re-exports from a layer, named
by none): like the package itself, outside the layers."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in PACKAGE.rglob("*.py")}


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The package modules a module imports (resolved; ``from . import x`` names module x)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    tree = syntax_tree(path)
    type_only = {id(node) for block in ast.walk(tree) if _is_type_checking_block(block)
                 for statement in block.body for node in ast.walk(statement)}
    for node in ast.walk(tree):
        if id(node) in type_only:
            continue
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name.startswith("gecmetrics")}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if not target.startswith("gecmetrics"):
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                found.add(sub if sub in known else target)
    return {module for module in found if module in known and module != name}


def _is_type_checking_block(node: ast.AST) -> bool:
    """``if TYPE_CHECKING:``: imports for annotations only, never run."""
    return isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"


def layer(name: str) -> int | None:
    """The layer index of a module (None: the package itself, which is the public API)."""
    if name == "gecmetrics" or name in PUBLIC_MODULES:
        return None
    if name in LEAF_MODULES:
        return 0
    top = name.split(".")[1]
    return LAYERS.index(top) if top in LAYERS else -1


def family(name: str) -> str | None:
    """The metric family of a module (``m2`` for ``gecmetrics.metrics.m2.compare``), else None."""
    parts = name.split(".")
    if len(parts) >= 3 and parts[1] == "metrics" and (PACKAGE / "metrics" / parts[2]).is_dir():
        return parts[2]
    return None


@functools.cache
def graph() -> dict[str, set[str]]:
    """Each module -> the package modules it imports (made once: the tests only read it)."""
    known = modules()
    return {name: imports(name, path, set(known)) for name, path in known.items()}


def test_every_module_is_in_a_layer():
    assert [name for name in modules() if layer(name) == -1] == []


def test_no_import_goes_up_a_layer():
    upward = []
    for name, targets in graph().items():
        if layer(name) is None:
            continue
        for target in sorted(targets):
            if layer(target) is None or layer(target) > layer(name):
                upward.append(f"{name} -> {target}")
    assert upward == []


def test_no_import_between_metric_families():
    crossing = [f"{name} -> {target}" for name, targets in graph().items() if family(name)
                for target in sorted(targets) if family(target) not in (None, family(name))]
    assert crossing == []


def test_shared_metric_modules_import_no_family():
    shared = [f"{name} -> {target}" for name, targets in graph().items()
              if layer(name) == LAYERS.index("metrics") and family(name) is None
              for target in sorted(targets) if family(target) is not None]
    assert shared == []


def test_families_are_found():
    """The family test looks at real families (a renamed folder would make it pass vacuously)."""
    families = {family(name) for name in modules()} - {None}
    assert {"errant", "m2", "pt", "llm", "gleu", "cleme"} <= families
    assert family("gecmetrics.metrics.m2.compare") == "m2" and family("gecmetrics.metrics.running_f") is None


def test_no_import_circles():
    edges = graph()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(node: str) -> None:  # Tarjan's strongly connected components
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in edges[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    assert circles == []
