"""Shared by the ChERRANT tests: the zh extra (pypinyin, OpenCC; in the test extra, so CI fails
without it) and the para records of a file."""
from __future__ import annotations

from pathlib import Path

from gecmetrics.io.para import read_para
from tests.conftest import unavailable

DATA = Path(__file__).resolve().parent / "data"


def require_zh_extra() -> None:
    """Skip (fail in CI) when pypinyin or OpenCC is missing."""
    for module in ("pypinyin", "opencc"):
        try:
            __import__(module)
        except ImportError:
            unavailable(f"{module} is not installed (pip install 'gecmetrics[zh]')")


def records(path: Path) -> list[tuple[str, tuple[str, ...]]]:
    """(source, targets) of each line of a para file."""
    return [(r.source, r.targets) for r in read_para(path)]
