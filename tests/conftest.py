"""Shared fixtures. Reproduction tests read ../shared/data beside the clone: they skip with a
reason on a user's machine when it is missing, and fail in CI (CI=true)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

SHARED_DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"


def _in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The folder ../shared/data (CoNLL-2014, JFLEG, expected numbers)."""
    if not (SHARED_DATA / "expected").is_dir():
        message = f"shared data not found at {SHARED_DATA}: reproduction tests need ../shared beside the clone"
        if _in_ci():
            pytest.fail(message)
        pytest.skip(message)
    return SHARED_DATA


@pytest.fixture(scope="session")
def conll14(shared_data: Path) -> Path:
    return shared_data / "conll14"


@pytest.fixture(scope="session")
def expected(shared_data: Path) -> Path:
    return shared_data / "expected"


def read_tsv(path: Path) -> list[dict[str, str]]:
    """Rows of an expected-numbers TSV: '#' comment lines, then a header, then data."""
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]
    header = lines[0].split("\t")
    return [dict(zip(header, line.split("\t"))) for line in lines[1:]]
