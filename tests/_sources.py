"""The package's modules as syntax trees, each parsed once per test process: the shape tests
(test_code_shape, test_layers, test_generic_modules) walk every module, several times each."""
from __future__ import annotations

import ast
import functools
from pathlib import Path


@functools.cache
def syntax_tree(path: Path) -> ast.Module:
    """The parsed source of one module (shared: callers only read it)."""
    return ast.parse(path.read_text(encoding="utf-8"))
