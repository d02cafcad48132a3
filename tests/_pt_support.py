"""Shared by the PT-M2 tests that need torch and transformers: the skip when they are missing
(the optional extra ``pt``; CI does not install it) and the tiny BERT, built once per session."""
from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parent / "data"
EXPECTED = DATA / "pt_tiny_conll14.tsv"
MISSING_EXTRA = "PT-M2 tests need torch and transformers (pip install 'gecmetrics[pt]')"


def require_backend() -> None:
    """Skip the calling module when the optional extra is not installed."""
    pytest.importorskip("torch", reason=MISSING_EXTRA)
    pytest.importorskip("transformers", reason=MISSING_EXTRA)


def expected_rows() -> tuple[dict[str, str], list[dict[str, str]]]:
    """The header facts (``# key: value`` lines) and the rows of the stored authors' numbers."""
    facts: dict[str, str] = {}
    lines = []
    for line in EXPECTED.read_text(encoding="utf-8").splitlines():
        if line.startswith("# ") and ": " in line:
            key, value = line[2:].split(": ", 1)
            facts[key.strip()] = value.strip()
        elif line and not line.startswith("#"):
            lines.append(line.split("\t"))
    header, body = lines[0], lines[1:]
    return facts, [dict(zip(header, row)) for row in body]


# Four sentences: two annotators who agree on one edit, an annotator with no edit for a sentence,
# a block of noop lines, and a case edit that an uncased model cannot see; a system's output.
GOLD = """S This are a sentences .
A 1 2|||R:VERB:SVA|||is|||REQUIRED|||-NONE-|||0
A 3 4|||R:NOUN:NUM|||sentence|||REQUIRED|||-NONE-|||0
A 1 2|||R:VERB:SVA|||is|||REQUIRED|||-NONE-|||1
A 2 4|||R:OTHER|||one sentence|||REQUIRED|||-NONE-|||1

S He go to school yesterday .
A 1 2|||R:VERB:TENSE|||went|||REQUIRED|||-NONE-|||0

S Nothing to do here .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1

S the people in the city is happy .
A 0 1|||R:ORTH|||The|||REQUIRED|||-NONE-|||0
A 5 6|||R:VERB:SVA|||are|||REQUIRED|||-NONE-|||0
"""
HYPOTHESIS = ["This is a sentence .", "He goes to the school yesterday .", "Nothing to do here !",
              "The people in the city are happy ."]


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the tiny BERT (seed 2022)."""
    require_backend()
    from gecmetrics.core.models.tiny import build_tiny_bert

    folder = tmp_path_factory.mktemp("tiny-bert")
    build_tiny_bert(folder)
    return folder


TINY_SETTINGS = {"num_layers": 9, "baseline": "bert-base-uncased"}
"""What the authors' code uses when the tiny model stands in for bert-base-uncased."""


def tiny_options(folder: Path) -> list[str]:
    """The command-line options that score with the tiny model as the authors' code does."""
    return ["--model", str(folder), "--layer", "9", "--baseline", "bert-base-uncased"]


def tiny_spec(folder: Path, **more: str) -> str:
    """``compare --metrics`` text of PT-M2 with the tiny model."""
    return ":".join(["pt-m2", f"model={folder}", "layer=9", "baseline=bert-base-uncased",
                     *(f"{key}={value}" for key, value in more.items())])
