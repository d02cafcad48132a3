"""The comparison table of many systems x many metrics, printed: :func:`compare` and
:func:`compare_corpus` (``gecmetrics.compare``) return a :class:`ComparisonTable`, the run
layer's :class:`~gecmetrics.run.compare.Comparison` with its renderings (text, TSV, Markdown,
LaTeX, JSON or any registered format, :mod:`gecmetrics.output.formats`)."""
from __future__ import annotations

import dataclasses
import functools
from typing import Any

from ..run import compare as run_compare
from ..run.compare import Comparison
from .formats import dumps, render


class ComparisonTable(Comparison):
    """A :class:`~gecmetrics.run.compare.Comparison` that prints itself."""

    @classmethod
    def of(cls, comparison: Comparison) -> "ComparisonTable":
        return comparison if isinstance(comparison, cls) else \
            cls(**{f.name: getattr(comparison, f.name) for f in dataclasses.fields(comparison)})

    def render(self, fmt: str = "text", digits: int = 2, ranks: bool = False) -> str:
        """The table as text (with signatures), TSV (no footer), Markdown, LaTeX, JSON or any
        registered format."""
        return render(self.as_table(digits, ranks, markdown=fmt == "markdown"), fmt)

    def to_text(self, digits: int = 2, ranks: bool = False) -> str:
        """A prettytable followed by the signatures."""
        return self.render("text", digits, ranks)

    def to_tsv(self, digits: int = 2, ranks: bool = False) -> str:
        """Tab-separated: a header line, then a line per system (no footer)."""
        return self.render("tsv", digits, ranks)

    def to_markdown(self, digits: int = 2, ranks: bool = False) -> str:
        """A Markdown table (scores right-aligned) followed by the signatures as a list."""
        return self.render("markdown", digits, ranks)

    def to_latex(self, digits: int = 2, ranks: bool = False) -> str:
        """A LaTeX tabular (booktabs rules), the signatures as comments."""
        return self.render("latex", digits, ranks)

    def to_json(self, ranks: bool = True) -> str:
        return dumps(self.to_dict(ranks))


def _printable(function: Any) -> Any:
    @functools.wraps(function)
    def wrapped(*args: Any, **kwargs: Any) -> ComparisonTable:
        return ComparisonTable.of(function(*args, **kwargs))
    return wrapped


compare = _printable(run_compare.compare)
compare_corpus = _printable(run_compare.compare_corpus)
comparison_table = _printable(run_compare.comparison_table)
