"""The base of the metrics that compare M2 edits as ERRANT's ``compare_m2`` does: ``errant-m2``
(:class:`gecmetrics.metrics.m2.compare.ErrantCompare`), ChERRANT's ``cherrant-m2``
(:class:`gecmetrics.metrics.m2.cherrant.CherrantCompare`) and ``errant`` on plain text
(:class:`gecmetrics.metrics.errant.metric.ErrantText`). A metric base beside :mod:`.running_f`,
not a family: the families derive from it without importing each other.

The rules (edit keys per mode, filters, the pairs tried, ChERRANT's differences) are
:mod:`gecmetrics.core.edits.compare`'s and :mod:`gecmetrics.core.edits.cherrant`'s; this module
adds the settings, the running-F choice of a pair per sentence (:class:`~.running_f.RunningFMetric`
with ERRANT's rule) and the result with its error categories.
"""
from __future__ import annotations

import dataclasses
import json
import warnings
from dataclasses import dataclass, field
from typing import Any, Hashable, Sequence

import numpy as np

from ..core import fscore
from ..core.checks import check_flag
from ..core.edits.blocks import Block, Edit, blocks_name, check_blocks, the_reference
from ..core.table import number_label
from ..core.edits.cherrant import ANSWER_NUMBERS
from ..core.edits.compare import (AVERAGES, MODES, UNKNOWN_TYPE, CategoryCounts, EditComparison, EditTable,
                                  ErrantStatistics, ReferenceTables, SentenceTrace, choose_pairs_macro,
                                  errant_scores, macro_means, macro_scores, pair_code, pair_of,
                                  sentence_traces)
from ..core.table import scaled_number
from ..errors import InputError
from ..io.corpus import Corpus
from ..kinds import M2
from .base import checked_corpus
from .capabilities import EditMarks, SentenceMarks
from .results import CorpusSums
from .running_f import CountsResult
from .type_average import (TypeAveragedMetric, category_level_setting, check_category_level, grouped, grouping_level,
                           level_signature, type_group)
from .settings import (Settings, choice, flag, optional_int, parse_beta, parse_bool, parse_strings, setting,
                       setting_label, unless, when_set)


@dataclass(repr=False)
class ErrantResult(CountsResult):
    """Corpus result of an ERRANT-style comparison.

    Per sentence, every (hypothesis annotator, reference annotator) pair is a candidate, in
    ERRANT's trial order: ``counts[d, p]`` = (TP, FP, FN), ``available[d, p]`` whether the
    sentence has a p-th pair, ``candidates[d, p]`` the pair (:func:`pair_code`), ``chosen[d]``
    the position of the pair kept (running-F choice). The same names as :class:`M2Result`.
    ``pairs``, ``pair_counts``, ``pair_available``, ``candidate_order`` and ``chosen_pair``
    give the same over the corpus's sorted list of pairs.
    """

    categories: dict[str, CategoryCounts] = field(default_factory=dict)
    traces: list[SentenceTrace] = field(default_factory=list)

    tp = property(lambda self: self.totals[0])
    fp = property(lambda self: self.totals[1])
    fn = property(lambda self: self.totals[2])
    f_score = property(lambda self: self.f, doc="F-beta (the name ERRANT prints)")
    beta = property(lambda self: self.settings["beta"])
    mode = property(lambda self: self.settings["mode"])

    @property
    def pairs(self) -> list[tuple[int, int]]:
        """Every (hypothesis id, reference id) pair of the corpus, sorted."""
        return [pair_of(code) for code in sorted(set(self.candidates[self.available].tolist()))]

    def _pair_columns(self) -> np.ndarray:
        index = {pair_code(*pair): k for k, pair in enumerate(self.pairs)}
        return np.vectorize(lambda code: index.get(int(code), 0), otypes=[np.int64])(self.candidates) \
            if self.candidates.size else np.zeros(self.candidates.shape, np.int64)

    @property
    def pair_counts(self) -> np.ndarray:
        """(TP, FP, FN) per sentence and pair of :attr:`pairs`, shape (D, len(pairs), 3)."""
        out = np.zeros((len(self.counts), len(self.pairs), 3), dtype=np.int64)
        rows, columns = np.nonzero(self.available)
        out[rows, self._pair_columns()[rows, columns]] = self.counts[rows, columns]
        return out

    @property
    def pair_available(self) -> np.ndarray:
        out = np.zeros((len(self.counts), len(self.pairs)), dtype=bool)
        rows, columns = np.nonzero(self.available)
        out[rows, self._pair_columns()[rows, columns]] = True
        return out

    @property
    def candidate_order(self) -> list[list[int]]:
        """Per sentence, its pairs (indices into :attr:`pairs`) in ERRANT's trial order."""
        columns = self._pair_columns()
        return [columns[d][self.available[d]].tolist() for d in range(len(self.counts))]

    @property
    def chosen_pair(self) -> np.ndarray:
        """The pair (index into :attr:`pairs`) kept for each sentence."""
        return self._pair_columns()[np.arange(len(self.chosen)), self.chosen] if len(self.chosen) \
            else np.zeros(0, np.int64)

    @property
    def sentence_counts(self) -> np.ndarray:
        """(TP, FP, FN) per sentence for the chosen pair, shape (D, 3)."""
        return self.counts[np.arange(len(self.chosen)), self.chosen]

    macro = property(lambda self: self.settings.get("average") == "macro",
                     doc="Whether P, R, F are the macro average over error types (errant PR #52)")

    def rounded(self) -> tuple[float, float, float]:
        """P, R, F as ERRANT prints them (4 decimals)."""
        return round(self.precision, 4), round(self.recall, 4), round(self.f, 4)

    def exact(self, level: int | None = None) -> tuple[float, float, float]:
        """The overall P, R, F at full precision: those of the summed counts (or the sentence
        average); with the macro average, errant PR #52's mean over the ``-cat`` ``level``'s
        type groups of their 4-decimal P, R, F, before the PR rounds it (None: the metric's
        own level, :attr:`f`; 3: the full types) (:func:`gecmetrics.core.edits.compare.macro_means`)."""
        level = None if level is None else check_category_level(level)  # (ignored without a word under micro)
        if not self.macro or level is None:
            return self.precision, self.recall, self.f
        groups = self.grouped_categories(level)
        return macro_means([(c.tp, c.fp, c.fn) for c in groups.values()], self.beta)

    def overall(self, level: int | None = None) -> tuple[float, float, float]:
        """The overall P, R, F as compare_m2 prints them: :meth:`exact` rounded to 4 decimals."""
        precision, recall, f = self.exact(level)
        return round(precision, 4), round(recall, 4), round(f, 4)

    def macro_scores(self, level: int = 3) -> tuple[float, float, float]:
        """errant PR #52's macro P, R, F over the type groups of a ``-cat`` level (3: full types)
        of the chosen pairs, as it prints them (:func:`gecmetrics.core.edits.compare.macro_scores`)."""
        groups = self.grouped_categories(level)
        return macro_scores([(c.tp, c.fp, c.fn) for c in groups.values()], self.beta)

    def grouped_categories(self, level: int) -> dict[str, CategoryCounts]:
        """ERRANT's -cat levels: 1 = first character of the type (ERRANT's operation tier,
        e.g. 'R'), 2 = the type without its first two characters ('NOUN' of 'R:NOUN'), 3 = the
        types as they are. UNK is never grouped. On non-ERRANT types (NUCLE 'ArtOrDet')
        levels 1 and 2 give odd groups ('A', 'tOrDet'): kept to match ERRANT, and so is its
        handling of a level-2 group named UNK (``R:UNK``): UNK's counts replace what that group
        held when UNK first came (:func:`~gecmetrics.metrics.type_average.grouped`)."""
        return grouped(self.categories, level, (UNKNOWN_TYPE,), ungrouped_replaces=True)

    def to_dict(self, scale: float = 1.0, level: int | None = None) -> dict[str, Any]:
        """Counts, P, R, F (x ``scale``), categories, settings and signature; ``level``: as the
        report at that -cat level shows them (the categories grouped; with the macro average,
        P, R, F the means over the level's groups and ``cat:LEVEL`` in the signature). P, R, F
        at full precision (:meth:`exact`: the macro average is the PR's mean of the types'
        4-decimal figures, which its report prints rounded to 4 decimals)."""
        level = self.settings.get("category_level") if level is None else level  # the metric's own level
        groups = self.categories if level is None else self.grouped_categories(level)
        precision, recall, f = self.exact(level)
        return {"metric": getattr(self.signature, "name", "ERRANT"), "tp": self.tp, "fp": self.fp, "fn": self.fn,
                "precision": scaled_number(precision, scale), "recall": scaled_number(recall, scale),
                "f": scaled_number(f, scale), "beta": self.beta,
                **({"scores": [scaled_number(f, scale)]} if self.macro else {}),
                "categories": {k: [v.tp, v.fp, v.fn] for k, v in sorted(groups.items())},
                "settings": self.settings, "signature": level_signature(self.signature, self.macro, level)}

    def to_json(self) -> str:
        """Scores, counts, categories, settings and signature as one JSON object."""
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=1)


def errant_type_groups(categories: dict[str, CategoryCounts], level: int) -> dict[str, CategoryCounts]:
    """The groups ERRANT's -cat ``level`` makes of type counts, as a table or a macro average at
    that level uses them (:meth:`ErrantResult.grouped_categories`). An empty type (an edit line
    whose type field is empty) has no operation to group by at level 1: an InputError, where
    compare_m2 stops with an IndexError (levels 2 and 3 keep it, as compare_m2 does)."""
    if level == 1 and "" in categories:
        raise InputError("an edit with an empty error type was counted: -cat 1 cannot group it by its operation "
                         "(the type's first character)")
    return grouped(categories, level, (UNKNOWN_TYPE,), ungrouped_replaces=True)


REANNOTATE = "re-annotate the M2 file with ERRANT's types first (gecmetric m2 annotate --from-m2 FILE --auto)"


def foreign_groups(comparison: EditComparison, results: Sequence["ErrantResult"], level: int | None) -> str | None:
    """Why ERRANT's -cat ``level`` table of the results' types means nothing, or None: levels 1
    and 2 group by the operation prefix, ``R:`` (NUCLE's 'ArtOrDet' gives 'A' and 'tOrDet'); at
    level 3, types of two schemes (:func:`mixed_schemes`)."""
    if level == 3:
        mixed = mixed_schemes(comparison, results)
        return None if not mixed else f"-cat 3's table holds {mixed_schemes_effect(mixed)}; {REANNOTATE}"
    if level not in (1, 2):
        return None
    found = comparison.foreign_types(t for result in results for t in result.categories)
    if not found:
        return None
    return (f"-cat {level} groups ERRANT's types by their operation (R:NOUN -> {'R' if level == 1 else 'NOUN'}), and "
            f"{', '.join(map(repr, found))} ... are not ERRANT's: their groups mean nothing (-cat 3 shows the types "
            f"as they are); {REANNOTATE}")


def mixed_schemes(comparison: EditComparison, results: Sequence["ErrantResult"]) -> list[str]:
    """Up to 3 of the results' error types that are not of the comparison's form while others
    are (a gold M2 typed otherwise, NUCLE's as the official CoNLL-2014 one, against ERRANT-typed
    systems, or the reverse), else []: compare_m2 counts a true positive and a missed edit under
    the reference's type and a false positive under the hypothesis's, so then no type's row holds
    all of its counts."""
    types = list(dict.fromkeys(t for result in results for t in result.categories))
    found = comparison.foreign_types(types)
    return found if found and comparison.any_of_form(types) else []


def mixed_schemes_effect(found: Sequence[str]) -> str:
    """What :func:`mixed_schemes` means for a table of the types (what it holds)."""
    return (f"error types of two schemes ({', '.join(map(repr, found))} ... are not ERRANT's, others are): "
            "true positives and missed edits are counted under the reference's types, false positives under the "
            "system's (compare_m2's rule), so no row is one error type's P, R, F")


class ForeignTypesWarning(UserWarning):
    """A gold M2 whose error types are not of the comparison's form, under a setting that reads
    types (:meth:`EditComparisonMetric.check_observations`)."""


@dataclass(frozen=True)
class ErrantSettings(Settings):
    beta: float = setting(0.5, "beta of the F-score (>= 0; inf gives recall)", parse_beta, ("b",),
                          flags=("-b", "--beta"), signature="beta")
    mode: str = setting("cs", "dt, ds, cs or cse (token/span detection, span correction, + type)", choice(*MODES),
                        signature="mode")
    single: bool = setting(False, "only evaluate single token edits; i.e. 0:1, 1:0 or 1:1", parse_bool,
                           flags=("-single",), signature="single", shown=flag)
    multi: bool = setting(False, "only evaluate multi token edits; i.e. 2+:n or n:2+", parse_bool, flags=("-multi",),
                          signature="multi", shown=flag)
    filter_types: tuple[str, ...] = setting((), "do not evaluate these error types", parse_strings, ("filt",),
                                            flags=("-filt",), signature="filt", shown=when_set)
    average: str = setting("micro", "micro: P, R, F of the summed counts; macro: the mean over error types (-cat "
                           "groups) of their P, R, F, as errant pull request #52's --f_average macro", choice(*AVERAGES),
                           flags=("--f_average", "--f-average"), signature="average", shown=unless("micro"))
    category_level: int | None = category_level_setting()
    sentence_average: bool = setting(False, "SentERRANT: the mean of the sentence P/R/F, each sentence against its "
                                     "best annotator", parse_bool, flags=("--sentence-average",))

    def check(self) -> None:
        """single and multi together keep no edit: compare_m2 then gives every system, an empty
        output too, P = R = F = 1 (refused: a documented departure)."""
        super().check()
        if self.single and self.multi:
            raise InputError("single (-single) and multi (-multi) together keep no edit: every system, an empty "
                             "output too, would score 100; give one of them")


def _answer_number(name: str, value: Any) -> int | None:
    number = optional_int(name, value)
    if number is not None and number not in ANSWER_NUMBERS:
        raise InputError(f"{setting_label(name)} must be 1, 2 or 3 (ChERRANT ignores every edit for other values), "
                         f"got {value!r}")
    return number


def _reference_number(name: str, value: Any) -> int | None:
    number = optional_int(name, value)
    if number is not None and number < 1:
        raise InputError(f"{setting_label(name)} must be a positive integer, got {value!r}")
    return number


@dataclass(frozen=True)
class CherrantSettings(ErrantSettings):
    max_answer_num: int | None = setting(None, "only annotators 0..K-1 (K = 1, 2, 3)", _answer_number,
                                         signature="answers", shown=when_set)
    reference_num: int | None = setting(None, "only sentences with exactly N reference annotators", _reference_number,
                                        signature="refnum", shown=when_set)


class EditComparisonMetric(TypeAveragedMetric):
    """ERRANT-style comparison of hypothesis M2 edits with the corpus's gold M2 edits under the
    rules of :meth:`comparison` (ERRANT's here); ``verbose`` keeps the per-sentence traces."""

    settings_class = ErrantSettings
    positional = ("beta", "mode")
    hypothesis_kind = M2
    rule = fscore.ERRANT
    label = "ERRANT"
    result_class = ErrantResult
    signature_order = ("mode", "beta")
    marks_edits = True
    rounds_to = 4  # compare_m2's computeFScore

    def __init__(self, *args: Any, verbose: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.verbose = check_flag(verbose, "verbose")
        self._comparison: EditComparison | None = None  # made on first use (settings are frozen)
        self._check_average()

    def comparison(self) -> EditComparison:
        """The comparison rules of the settings (made once)."""
        found = self.__dict__.get("_comparison")
        if found is None:
            found = self._comparison = self.make_comparison()
        return found

    def make_comparison(self) -> EditComparison:
        """ERRANT's rules with the settings' mode and filters (a subclass may give others)."""
        return comparison_from(self.settings, EditComparison)

    def sharing_key(self) -> Hashable:
        return self.comparison().sharing_key()

    def prepare(self, corpus: Corpus, group: Sequence[Any] = ()) -> list[dict[int, EditTable]]:
        """The reference's edit tables, per sentence and annotator (with the sentences' tokens,
        which every hypothesis must annotate too)."""
        corpus = checked_corpus(corpus, self.display_name, " whose gold M2 is the reference")
        if corpus.gold is None:
            raise InputError("ERRANT comparison needs reference M2 annotations")
        return self.reference_tables(check_blocks(corpus.gold, corpus.name("gold")), corpus.name("gold"),
                                     self._typed_hypotheses(corpus))

    def _typed_hypotheses(self, corpus: Corpus) -> list[Sequence[Block]]:
        """The chunk's M2 hypotheses, when a setting reads types (their types decide the warning
        about a gold typed otherwise); one that is not M2 is refused by :meth:`statistics`."""
        if not self.type_flags():
            return []
        found = []
        for name in corpus.hypotheses:
            try:
                found.append(corpus.hypothesis(name, M2))
            except InputError:
                continue
        return found

    def reference_tables(self, blocks: Sequence[Block], name: str,
                         hypotheses: Sequence[Sequence[Block]] = ()) -> ReferenceTables:
        """The edit tables of reference blocks (:meth:`EditComparison.reference_tables`)."""
        return self.comparison().reference_tables(blocks, name, hypotheses)

    def gold_tables(self, prepared: Any) -> tuple[Sequence[dict[int, EditTable]], str, bool] | None:
        """The gold's edit tables of a prepared chunk, the gold's name, and whether the
        hypotheses' types are of the comparison's form (None: no gold M2 was read)."""
        return prepared, getattr(prepared, "name", "the reference"), getattr(prepared, "typed_hypotheses", False)

    def type_flags(self) -> list[str]:
        """The settings in use that read error types: the comparison's (-cse, -filt), the macro
        average over types."""
        return self.comparison().type_flags() + (["--f_average macro"] if self.macro else [])

    def observation(self, prepared: Any) -> tuple[list[str], str] | None:
        """The gold's error types in this chunk that are not of the comparison's form (NUCLE's
        in ERRANT's comparison) while the hypotheses' are, and the gold's name; None when there
        are none (NUCLE-typed systems against a NUCLE-typed gold compare as meant)."""
        gold = self.gold_tables(prepared)
        if gold is None or not self.type_flags() or not gold[2]:
            return None
        tables, name, _ = gold
        found = self.comparison().foreign_types(t for table in tables for ann in table.values()
                                                for types in ann.values() for t in types)
        return (found, name) if found else None

    def check_observations(self, observations: Sequence[Any]) -> None:
        """One warning when the gold's error types are not ERRANT's, the hypotheses' are, and a
        setting reads types:
        the numbers are compare_m2's (with -cse, NUCLE's types against ERRANT's match nothing:
        F = 0), so they are kept, but said to be likely not what was meant."""
        seen = [observed for observed in observations if observed]
        if not seen:
            return
        types = list(dict.fromkeys(t for found, _ in seen for t in found))[:3]
        flags = self.type_flags()
        warnings.warn(f"{seen[0][1]}: its edit types are not ERRANT's ({', '.join(map(repr, types))} ...), and "
                      f"{' and '.join(flags)} {'reads' if len(flags) == 1 else 'read'} types: an edit ERRANT typed "
                      f"never has the type of one typed otherwise, so these numbers (compare_m2's) are likely not "
                      f"what was meant; {REANNOTATE}", ForeignTypesWarning, stacklevel=2)

    def edit_tables(self, block: Block) -> dict[int, EditTable]:
        """Per annotator (in order of first appearance), its edit keys -> error types."""
        return self.comparison().edit_tables(block)

    def marked_edits(self, hyp_block: Block, ref_block: Block, pair: tuple[int, int]
                     ) -> tuple[list[tuple[Edit, str | None]], list[tuple[Edit, str | None]]]:
        """Each edit of one pair of a sentence with its outcome (:meth:`EditComparison.marked_edits`)."""
        return self.comparison().marked_edits(hyp_block, ref_block, pair)

    def type_groups(self, categories: dict[str, CategoryCounts]) -> dict[str, CategoryCounts]:
        """The macro average's groups: the types at the ``category_level`` setting's -cat level."""
        level = self.settings.category_level
        return categories if level is None else errant_type_groups(categories, level)

    def type_group(self, error_type: str, level: int) -> str:
        """ERRANT's -cat group of a type (:meth:`ErrantResult.grouped_categories`)."""
        return type_group(error_type, level, (UNKNOWN_TYPE,))

    def edit_marks(self, result: ErrantResult, hypothesis: Sequence[Block], gold: Sequence[Block],
                   levels: Sequence[int] = (1, 2, 3)) -> EditMarks:
        """Per sentence, the system's edits marked (:meth:`marked_edits`) against the pair the
        running-F choice of ``result`` kept; per ``-cat`` level, each type group's counts and
        unrounded P, R, F."""
        sentences = [self._sentence_marks(result, d, block, ref_block)
                     for d, (block, ref_block) in enumerate(zip(hypothesis, gold))]
        beta = self.settings.beta
        categories = {level: {error_type: (c.tp, c.fp, c.fn, *(float(x) for x in errant_scores(c.tp, c.fp, c.fn, beta)))
                              for error_type, c in sorted(result.grouped_categories(level).items())}
                      for level in levels}
        mixed = mixed_schemes(self.comparison(), [result])
        return EditMarks(sentences, categories, beta, mixed_schemes_effect(mixed) if mixed else None)

    def _sentence_marks(self, result: ErrantResult, d: int, block: Block, ref_block: Block) -> SentenceMarks:
        code = result.candidates[d, result.chosen[d]] if result.candidates.size else 0
        hyp_id, ref_id = pair_of(int(code))
        hyp_marks, ref_marks = self.marked_edits(block, ref_block, (hyp_id, ref_id))
        positions = {id(edit): p for p, edit in enumerate(e for e in ref_block.edits if not e.is_noop)}
        return SentenceMarks([(edit, mark) for edit, mark in hyp_marks if not edit.is_noop], ref_id,
                             [positions[id(edit)] for edit, mark in ref_marks if mark == "TP"],
                             [positions[id(edit)] for edit, mark in ref_marks if mark == "FN"])

    def statistics(self, prepared: list[dict[int, EditTable]], hypothesis: Sequence[Block],
                   name: str | None = None) -> ErrantStatistics:
        """Per sentence and annotator pair (trial order): (TP, FP, FN) as rows (D, P, 5), with
        each pair's categories (and, with ``verbose``, what the trace shows)."""
        self.check_prepared_kind(prepared, list)
        sentences = self.comparison().sentences(prepared, hypothesis, blocks_name(hypothesis, name))
        return ErrantStatistics.of(sentences, traces=self.verbose)  # only the trace shows the sentences

    def type_average(self, rows: Sequence[Sequence[int]]) -> tuple[float, float, float]:
        """errant PR #52's macro P, R, F: the means of each type's 4-decimal figures, which it
        prints rounded to 4 decimals (:attr:`rounds_to`)."""
        return macro_means(rows, self.settings.beta)

    def macro_choice(self, statistics: ErrantStatistics) -> np.ndarray:
        """The PR's choice of the pair per sentence by the running macro F."""
        return choose_pairs_macro(statistics, self.settings.beta)

    def _check_average(self) -> None:
        """The macro average goes with neither the sentence average nor the trace; a -filt type
        not of the comparison's form (ERRANT's ``R:NOUN``) is warned about: ``-filt NOUN`` left
        out nothing, without a word."""
        self.check_average()
        if self.macro and self.verbose:
            raise InputError("ERRANT's per-sentence trace (-v) shows the micro counts: not with the macro average")
        comparison = self.comparison()
        found = comparison.foreign_types(self.settings.filter_types, limit=len(self.settings.filter_types))
        if found:
            form = comparison.filter_form[1] if comparison.filter_form else \
                "operation:category, as R:NOUN, M:DET, U:PUNCT"
            warnings.warn(f"-filt/filter_types: {', '.join(map(repr, found))} {'is' if len(found) == 1 else 'are'} "
                          f"not {comparison.label}'s form of an error type ({form}; or UNK): only edits typed "
                          "exactly so are left out", stacklevel=3)

    def details(self, statistics: Any, sums: list[CorpusSums]) -> dict[str, Any]:
        """The running-F metrics' details; with the statistics' details, the error categories
        of the chosen pairs (and the traces, with ``verbose``)."""
        traces: list[SentenceTrace] = []
        if isinstance(statistics, ErrantStatistics) and self.verbose and statistics.traces is not None:
            traces = sentence_traces(statistics.traces, sums[0].chosen)
        return {**super().details(statistics, sums), "traces": traces}

    def compare(self, hyp_blocks: Sequence[Block], ref_blocks: Sequence[Block],
                hyp_name: str = "hypothesis", ref_name: str = "reference") -> ErrantResult:
        """Compare aligned hypothesis and reference blocks (one per sentence), with the error
        categories of the chosen pairs (and the traces, with ``verbose``)."""
        reference = self.reference_tables(check_blocks(ref_blocks, ref_name), ref_name)
        sentences = self.comparison().sentences(reference, hyp_blocks, hyp_name, the_reference(ref_name))
        return self.score(ErrantStatistics.of(sentences, traces=self.verbose))

    def settings_dict(self) -> dict:
        s = self.settings
        return {"mode": s.mode, "beta": s.beta, "single": s.single, "multi": s.multi,
                "filter_types": list(s.filter_types), "sentence_average": s.sentence_average,
                **({"average": s.average} if s.average != "micro" else {}),
                **({"category_level": s.category_level} if s.category_level is not None else {})}

    def column_names(self) -> list[str]:
        s = self.settings
        tokens = [f"F{number_label(s.beta)}"] + ([s.mode] if s.mode != "cs" else [])
        tokens += [word for word, on in (("single", s.single), ("multi", s.multi), ("macro", self.macro)) if on]
        tokens += [f"cat:{level}" for level in [grouping_level(s.category_level)] if level]
        return [" ".join(tokens + (["filt:" + ",".join(s.filter_types)] if s.filter_types else []))]


def comparison_from(settings: Settings, rules: type[EditComparison]) -> EditComparison:
    """Comparison rules (``EditComparison`` or a subclass, such as ChERRANT's) with the metric
    settings of the same names (``mode``, ``single`` ... ``max_answer_num``)."""
    return rules(**{f.name: getattr(settings, f.name) for f in dataclasses.fields(rules)})
