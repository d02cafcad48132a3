"""The Python examples of the README and the docs run as written (each file's blocks in order,
in one namespace). Blocks that show fragments of a larger program (they use names such as
``hypothesis_lines`` that the page explains but does not define) are listed here, not run."""
from __future__ import annotations

import re
import sys
import types
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RUNNABLE = ["README.md", "docs/api.md", "docs/cache.md", "docs/cleme.md", "docs/design.md", "docs/green.md",
            "docs/rewards.md"]
"""Pages whose Python blocks are complete programs."""


def python_blocks(path: Path) -> list[str]:
    return re.findall(r"```python\n(.*?)```", path.read_text(encoding="utf-8"), flags=re.S)


def run_page(page: str, blocks: list[str]) -> dict:
    """Run blocks as one module (dataclasses need theirs in sys.modules)."""
    module = types.ModuleType(f"docs_example_{Path(page).stem}")
    sys.modules[module.__name__] = module
    try:
        for block in blocks:
            exec(compile(block, page, "exec"), module.__dict__)
    finally:
        del sys.modules[module.__name__]
    return module.__dict__


@pytest.mark.parametrize("page", RUNNABLE)
def test_examples_run(page, capsys):
    from gecmetrics import list_metrics, unregister_metric

    blocks = python_blocks(ROOT / page)
    assert blocks, f"{page} has no Python example"
    try:
        run_page(page, blocks)
    finally:  # the toy metric of docs/design.md, on the pages that register it
        if "toyf" in {info.name for info in list_metrics()}:
            unregister_metric("toyf")


def test_design_page_registers_the_toy_metric_it_describes():
    """The 'writing a metric' example works through the registry and the table."""
    from gecmetrics import compare, get_metric, unregister_metric

    run_page("docs/design.md", python_blocks(ROOT / "docs/design.md")[:1])
    try:
        table = compare(["a b c d"], [["a b c d"]], {"same": ["a b c d"], "other": ["x y z w"]}, "toyf:b=2")
        assert table.labels == ["ToyF b2"]
        assert table.score("same", 1) == 1.0 and table.score("other", 1) == 0.0
        assert get_metric("toyf").signature(1) == "ToyF|beta:1|n:4|unit:word|refs:1|version:0.1.0"
    finally:
        unregister_metric("toyf")
