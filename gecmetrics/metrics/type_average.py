"""The base of the running-F metrics whose counts split by error type (ERRANT's comparison,
the M2 scorer): per-type (TP, FP, FN) of the candidate each sentence keeps, gathered over the
corpus, and the ``average=macro`` setting, the mean over types of their P, R, F instead of the
P, R, F of the summed counts. A metric base beside :mod:`.running_f`, not a family.

A metric says how a type's scores are averaged (:meth:`TypeAveragedMetric.type_average`: ERRANT
rounds each to 4 decimals as errant pull request #52 does, the M2 scorer does not) and may choose
its candidates otherwise under the macro average (:meth:`TypeAveragedMetric.macro_choice`: the
PR's choice by the running macro F for ERRANT; the M2 scorer keeps its running-F choice).
Statistics that carry the types are :class:`~gecmetrics.core.edits.compare.ErrantStatistics`
(rows, and per sentence each candidate's type counts).
"""
from __future__ import annotations

import numbers
from typing import Any, Sequence

import numpy as np

from ..core import fscore
from ..core.edits.compare import CategoryCounts, ErrantStatistics
from ..errors import InputError
from .results import CorpusSums
from .running_f import RunningFMetric
from .settings import optional_int, setting, setting_label


def _category_level(name: str, value: Any) -> int | None:
    level = optional_int(name, value)
    if level is not None and level not in (1, 2, 3):
        raise InputError(f"{setting_label(name)} must be 1, 2 or 3 (ERRANT's -cat levels), got {value!r}")
    return level


def grouping_level(level: int | None) -> str | None:
    """``cat:LEVEL`` in a signature (and a column label) for the levels that group types (1, 2):
    3 is the full types, the macro average's own (:func:`level_signature`)."""
    return str(level) if level in (1, 2) else None


def category_level_setting() -> Any:
    """The ``category_level`` (``cat``) setting of a metric with the macro average: the -cat level
    whose type groups are averaged (a ``compare`` column's way to say ``--macro -cat N``)."""
    return setting(None, "with average=macro, the -cat level whose type groups are averaged: 1 (operations: R), 2 "
                   "(main types: NOUN), 3 (the full types: R:NOUN, as without it)", _category_level, ("cat",),
                   signature="cat", shown=grouping_level)


class TypeAveragedMetric(RunningFMetric):
    """A running-F metric with per-type counts and the ``average`` setting (micro or macro)."""

    @property
    def macro(self) -> bool:
        """The ``average=macro`` setting: P, R, F averaged over error types."""
        return getattr(self.settings, "average", "micro") == "macro"

    @property
    def has_sentence_scores(self) -> bool:  # type: ignore[override]
        """The macro average is a corpus figure over error types: no sentence scores."""
        return not self.macro

    no_sentence_scores_reason = "average=macro: the macro average over error types is a corpus figure"

    def type_average(self, rows: Sequence[Sequence[int]]) -> tuple[float, float, float]:
        """The macro P, R, F of per-type (TP, FP, FN) rows, in the order given."""
        raise NotImplementedError

    def type_groups(self, categories: dict[str, CategoryCounts]) -> dict[str, CategoryCounts]:
        """The groups the macro average is over: by default the types as they are (a metric with
        a -cat level setting groups them at that level)."""
        return categories

    def macro_choice(self, statistics: ErrantStatistics) -> np.ndarray:
        """The candidate kept per sentence under the macro average (default: the running-F choice)."""
        return super().corpus_sums(statistics).chosen

    def check_average(self) -> None:
        """The macro average and the sentence average are two different figures; a -cat level
        (``category_level``) changes the macro average alone."""
        if self.macro and self.sentence_average:
            raise InputError("the macro average over error types (average=macro; --macro) and the sentence average "
                             "(sentence_average; --sentence-average, which sentm2 and senterrant are) are two "
                             "different figures: choose one")
        if getattr(self.settings, "category_level", None) is not None and not self.macro:
            raise InputError(f"setting category_level (cat) is the -cat level of the macro average over error types: "
                             f"with average={self.settings.average} it changes no number; give average=macro with it")

    def corpus_sums(self, statistics: Any, column: int = 0) -> CorpusSums:
        """The running-F choice and its totals; with the macro average, :meth:`macro_choice` and,
        as the sums the score is made of, the chosen candidates' (TP, FP, FN) per type group
        (:meth:`type_groups`) (C, 3)."""
        if not self.macro:
            return super().corpus_sums(statistics, column)
        if not isinstance(statistics, ErrantStatistics):
            raise InputError(f"the macro average of {self.display_name} needs the error types of every candidate")
        data = fscore.candidate_counts(statistics)
        chosen = self.macro_choice(statistics)
        categories: dict[str, CategoryCounts] = {}
        statistics.types.add_chosen(categories, chosen)
        rows = np.array([[c.tp, c.fp, c.fn] for c in self.type_groups(categories).values()],
                        dtype=np.int64).reshape(-1, 3)
        totals = data.counts[np.arange(len(data)), chosen].sum(axis=0) if len(data) else np.zeros(3, np.int64)
        return CorpusSums(rows, chosen, {"data": data, "totals": totals})

    def score_from_sums(self, sums: np.ndarray, column: int = 0) -> Any:
        """F-beta of summed counts; with the macro average, the macro F of per-type sums (C, 3)."""
        if not self.macro:
            return super().score_from_sums(sums, column)
        return self.type_average(np.asarray(sums).reshape(-1, 3).tolist())[2]

    def details(self, statistics: Any, sums: list[CorpusSums]) -> dict[str, Any]:
        """The running-F details; the per-type counts of the chosen candidates (``categories``)
        when the statistics carry them; with the macro average, the details of the chosen
        candidates' summed counts with the macro P and R."""
        categories: dict[str, CategoryCounts] = {}
        if isinstance(statistics, ErrantStatistics):
            statistics.types.add_chosen(categories, sums[0].chosen)
        if not self.macro:
            return {**super().details(statistics, sums), "categories": categories}
        micro = CorpusSums(sums[0].extra["totals"], sums[0].chosen, sums[0].extra)
        precision, recall, _ = self.type_average(sums[0].total.tolist())
        return {**super().details(statistics, [micro]), "precision": precision, "recall": recall,
                "categories": categories}

    def resampler(self, column: int = 0, references: int = 1):
        if self.macro:
            raise InputError("no paired test of the macro average over error types (average=macro): test the micro F")
        return super().resampler(column, references)

    def sentence_from_statistics(self, statistics: Any, start: Sequence[int] = (0, 0, 0)) -> Any:
        if self.macro:
            self.require_sentence_scores()
        return super().sentence_from_statistics(statistics, start)

    def join_statistics(self, parts: Sequence[Any]) -> Any:
        if parts and all(isinstance(part, ErrantStatistics) for part in parts):
            return ErrantStatistics.joined(parts, super().join_statistics([part.rows for part in parts]))
        return super().join_statistics(parts)


def level_signature(signature: Any, macro: bool, level: int | None) -> Any:
    """A result's signature as a report at the -cat ``level`` shows it: with the macro average,
    whose P, R, F are the means over that level's groups, ``cat:LEVEL`` after ``average:macro``
    (1 or 2, where a metric's ``category_level`` setting signs it too; the full types, 3, sign
    none); without it, or with no ``level`` (the metric's own figures), -cat only adds a table."""
    if not macro or level is None:
        return signature
    fields = [item for item in signature.fields if item[0] != "cat"]
    if level in (1, 2):
        keys = [key for key, _ in fields]
        at = keys.index("average") + 1 if "average" in keys else len(fields)
        fields.insert(at, ("cat", str(level)))
    return type(signature)(signature.name, fields, signature.version)


def type_group(error_type: str, level: int, ungrouped: Sequence[str]) -> str:
    """The group of one error type at ERRANT's -cat ``level`` (:func:`grouped`)."""
    if level == 3 or error_type in ungrouped:
        return error_type
    return error_type[:1] if level == 1 else error_type[2:]


def check_category_level(level: Any) -> int:
    """An ERRANT -cat level: the integer 1, 2 or 3 (True and 2.0 were taken as levels 1 and 2)."""
    if isinstance(level, bool) or not isinstance(level, numbers.Integral) or level not in (1, 2, 3):
        raise InputError(f"category level must be 1, 2 or 3, not {level!r}", "level")
    return int(level)


def grouped(categories: dict[str, CategoryCounts], level: int, ungrouped: Sequence[str],
            ungrouped_replaces: bool = False) -> dict[str, CategoryCounts]:
    """ERRANT's -cat levels over type counts: 1 = the type's first character (ERRANT's operation
    tier, e.g. 'R'), 2 = the type without its first two characters ('NOUN' of 'R:NOUN'), 3 = the
    types as they are; the ``ungrouped`` types (UNK, the M2 scorer's '(none)') stay whole.

    ``ungrouped_replaces``: as compare_m2's ``processCategories`` does, an ungrouped type's counts
    *replace* whatever its group holds when it comes (in the order of ``categories``, the order
    in which the types first came) instead of adding to it. This matters only at level 2, where
    a type such as ``R:UNK`` falls into the group ``UNK``: counts of such types that come before
    ``UNK`` itself are dropped, those after it added (errant 3.0.2 prints that)."""
    level = check_category_level(level)
    if level == 3:
        return dict(categories)
    out: dict[str, CategoryCounts] = {}
    for error_type, counts in categories.items():
        group = type_group(error_type, level, ungrouped)
        if error_type in ungrouped and ungrouped_replaces:
            out[group] = CategoryCounts()
        total = out.setdefault(group, CategoryCounts())
        total.tp += counts.tp
        total.fp += counts.fp
        total.fn += counts.fn
    return out
