"""Shared by the ChERRANT tests: the zh extra (pypinyin, OpenCC; in the test extra, so CI fails
without it), the para records of a file and our M2 of the MuCGEC dev set."""
from __future__ import annotations

import functools
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


MUCGEC_FILES = {"hyp": "example_pred_dev.txt", "ref": "MuCGEC_dev.txt"}
"""The MuCGEC dev files of ``shared/data/mucgec``: the authors' example predictions, the references."""


@functools.cache
def mucgec_m2(shared_data: Path, name: str) -> str:
    """Our character-level M2 of a MuCGEC dev file (``name``: "hyp" or "ref", :data:`MUCGEC_FILES`),
    made once per test process by ``CharAnnotator`` with the shipped data of ChERRANT: the tests
    that score or compare it share one annotation of each file (about a second each);
    test_zh_cherrant checks it block for block against ChERRANT's."""
    require_zh_extra()
    from gecmetrics.core.lang.zh.annotate import CharAnnotator

    return CharAnnotator(shared_data / "cherrant").to_m2(records(shared_data / "mucgec" / MUCGEC_FILES[name]))
