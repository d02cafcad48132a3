"""Shared by the meta-evaluation tests: a toy task (6 sentences, 4 systems of decreasing
quality, one ranking item per sentence) written to files, and two toy metrics that are mirror
images of each other: ``toy-miss`` (share of reference tokens missing, lower is better) and
``toy-hit`` (1 - that, higher is better)."""
from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from gecmetrics.metrics.base import Metric

SOURCES = [f"s{k} he go to school yesterday ." for k in range(6)]
REFERENCES = [[f"s{k} he went to school yesterday ." for k in range(6)],
              [f"s{k} he went to the school yesterday ." for k in range(6)]]
SYSTEMS = {"good": REFERENCES[0], "half": [REFERENCES[0][k] if k % 2 else SOURCES[k] for k in range(6)],
           "input": SOURCES, "bad": [f"s{k} he go school ." for k in range(6)]}
TOY_RANKS = {"good": (1, 1, 2, 1, 1, 1), "half": (3, 2, 1, 2, 3, 2), "input": (2, 3, 3, 4, 2, 3),
             "bad": (4, 4, 4, 3, 4, 4)}


def toy_xml(ranks: dict[str, tuple[int, ...]] = TOY_RANKS) -> str:
    items = []
    for sentence in range(6):
        translations = "".join(f'<translation system="{s}" rank="{r[sentence]}"/>' for s, r in ranks.items())
        items.append(f'<ranking-item src-id="{sentence}" user="u">{translations}</ranking-item>')
    return "<results>\n" + "\n".join(items) + "\n</results>\n"


def toy_files(folder: Path) -> dict[str, str]:
    """The judgments (``xml``), the source, references and system outputs, written to ``folder``."""
    paths = {"xml": str(folder / "toy.xml")}
    (folder / "toy.xml").write_text(toy_xml(), encoding="utf-8")
    for name, lines in [("src", SOURCES), ("ref0", REFERENCES[0]), ("ref1", REFERENCES[1]), *SYSTEMS.items()]:
        (folder / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths[name] = str(folder / name)
    return paths


def toy_args(toy: dict[str, str], *more: str) -> list[str]:
    """``meta-eval --judgments`` on the toy task with every system."""
    return ["meta-eval", "--judgments", toy["xml"], "-s", toy["src"], "-r", toy["ref0"], toy["ref1"], "-o",
            *(toy[s] for s in SYSTEMS), *more]


class ToyMiss(Metric):
    """Share of the first reference's tokens missing from the hypothesis (as bags): an error
    rate, lower is better."""

    label = "ToyMiss"
    higher_is_better = False

    def prepare(self, corpus: Any, group: Sequence[Metric] = ()) -> list[Counter]:
        return [Counter(line.split()) for line in corpus.references[0]]

    def statistics(self, prepared: list[Counter], hypothesis: Sequence[str]) -> np.ndarray:
        return np.array([[sum((reference - Counter(line.split())).values()), sum(reference.values())]
                         for reference, line in zip(prepared, hypothesis)], dtype=np.float64)

    def score_from_sums(self, sums: Any, column: int = 0) -> Any:
        return np.asarray(sums)[..., 0] / np.asarray(sums)[..., 1]


class ToyHit(ToyMiss):
    """1 - :class:`ToyMiss`: the same metric, higher is better."""

    label = "ToyHit"
    higher_is_better = True

    def score_from_sums(self, sums: Any, column: int = 0) -> Any:
        return 1.0 - super().score_from_sums(sums, column)
