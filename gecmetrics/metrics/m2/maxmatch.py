"""MaxMatch (M2) scorer: a tokenized system output scored against gold M2 edits (SPEC 4.4).

Reproduces the official NUS m2scorer (current code): per sentence and annotator, the system's
edit sequence is the best path of the edit lattice (:mod:`gecmetrics.core.edits.maxmatch`); the
annotator kept for a sentence is the one maximizing the running corpus F-score. The counts of
every annotator are kept per sentence (shape (D, A_max, 3)), so a significance test can
resample sentences and redo the annotator choice without recomputing edits.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Hashable, Sequence

import numpy as np

from ...io.corpus import Corpus

from ...core.checks import check_beta_number, check_count, check_flag
from ...core.lines import check_lines
from ...core.table import number_label
from ...errors import InputError, LineRefused, plural
from ..settings import Settings, choice, flag_as, non_negative_int, parse_beta, parse_bool, setting, unless
from ...core import fscore
from ...core.table import scaled_number
from ..base import checked_corpus
from ..running_f import CountsResult
from ..type_average import (TypeAveragedMetric, category_level_setting, check_category_level, grouped, grouping_level,
                            level_signature)
from ...io.m2 import Block, Edit, check_blocks
from ...io.text import check_sequence
from ...core.edits.lattice import DEFAULT_ARC_BUDGET, GoldEdit, SystemEdit
from ...core.edits.compare import CategoryCounts, ErrantStatistics, TypeCounts
from ...core.edits.maxmatch import (NO_TYPE, gold_edits_by_annotator, gold_lines_by_annotator, gold_types_by_annotator,
                                    python2_spaces, system_edits, typed_counts)


def precision_recall_f(correct: float, proposed: float, gold: float, beta: float) -> tuple[float, float, float]:
    """P, R and F-beta from counts: P is 1 with nothing proposed, R is 1 with no gold edit."""
    return fscore.MAXMATCH.scores((correct, proposed, gold), beta)


@dataclass
class SentenceDetail:
    """What the scorer did on one sentence, for verbose output."""

    source: str
    hypothesis: str
    annotators: list[int]
    chosen: int
    """Index into ``annotators`` of the annotator kept."""
    system_edits: list[list[SystemEdit]]
    gold_edits: list[list[GoldEdit]]
    correct_edits: list[list[SystemEdit]]
    gold_lines: list[list[Edit]] = field(default_factory=list)
    """The M2 line of each gold edit (per annotator, as ``gold_edits``): its correction field as
    written (the official prints a ``-NONE-`` correction unlike an empty one)."""


@dataclass(repr=False)
class M2Result(CountsResult):
    """Corpus P/R/F of one system with the per-sentence, per-annotator counts behind it.

    ``counts`` (D, A, 3): correct, proposed, gold per sentence and annotator slot (the block's
    annotators in the order the official tries them, ``official_annotator_order``);
    ``available`` (D, A): which slots exist; ``chosen`` (D,): the slot kept (running-F choice);
    ``candidates`` (D, A): the annotator id of each slot."""

    details: list[SentenceDetail] = field(default_factory=list)
    categories: dict[str, CategoryCounts] = field(default_factory=dict)
    """Per gold error type, TP / FP / FN of the chosen annotators (a scorer made with
    ``per_type=True`` or ``average='macro'``; docs/m2.md defines them)."""

    correct = property(lambda self: self.totals[0], doc="correct system edits of the chosen annotators")
    proposed = property(lambda self: self.totals[1], doc="system edits proposed")
    gold = property(lambda self: self.totals[2], doc="gold edits of the chosen annotators")
    beta = property(lambda self: self.settings["beta"])

    @property
    def annotator_mask(self) -> np.ndarray:
        """The slots that exist (the name :attr:`available` shares with ERRANT results)."""
        return self.available

    def sentence_scores(self) -> list[tuple[float, float, float]]:
        """P, R, F of each sentence with its chosen annotator."""
        rows = self.counts[np.arange(len(self.chosen)), self.chosen]
        return [precision_recall_f(float(c), float(p), float(g), self.beta) for c, p, g in rows]

    macro = property(lambda self: self.settings.get("average") == "macro",
                     doc="Whether P, R, F are the macro average over the gold's error types")

    def grouped_categories(self, level: int) -> dict[str, CategoryCounts]:
        """The per-type counts at ERRANT's -cat levels (1: first character, 2: without the first
        two, 3: as they are; '(none)' is never grouped)."""
        return grouped(self.categories, level, (NO_TYPE,))

    def macro_scores(self, level: int = 3) -> tuple[float, float, float]:
        """The mean P, R, F over the type groups of a -cat level (unrounded, as the scorer's)."""
        return _type_means([(c.tp, c.fp, c.fn) for c in self.grouped_categories(level).values()], self.beta)

    def overall(self, level: int | None = None) -> tuple[float, float, float]:
        """P, R, F; with the macro average, over the -cat level's groups (None: the metric's own
        level, the full types unless its ``category_level`` says another; 3: the full types)."""
        level = None if level is None else check_category_level(level)  # (ignored without a word under micro)
        if self.macro and level is not None:
            return self.macro_scores(level)
        return self.precision, self.recall, self.f

    def to_dict(self, scale: float = 1.0, level: int | None = None) -> dict[str, Any]:
        """P, R, F (x ``scale``), counts, settings, signature and the per-type counts; ``level``: as
        the report at that -cat level shows them (the types grouped; with the macro average, P, R,
        F the means over the level's groups and ``cat:LEVEL`` in the signature)."""
        level = self.settings.get("category_level") if level is None else level  # the metric's own level
        precision, recall, f = self.overall(level)
        out = {"precision": scaled_number(precision, scale), "recall": scaled_number(recall, scale),
               "f": scaled_number(f, scale), **({"scores": [scaled_number(f, scale)]} if self.macro else {}),
               "correct": self.correct, "proposed": self.proposed, "gold": self.gold,
               "settings": self.settings, "signature": level_signature(self.signature, self.macro, level)}
        if self.categories:
            groups = self.categories if level is None else self.grouped_categories(level)
            out["categories"] = {k: [v.tp, v.fp, v.fn] for k, v in sorted(groups.items())}
        return out


def type_means(rows: Sequence[Sequence[int]], beta: float) -> tuple[float, float, float]:
    """The means over types of the M2 scorer's P, R, F of each type's (TP, FP, FN) (P = TP /
    (TP + FP), 1 with nothing proposed; R = TP / (TP + FN), 1 with no gold edit); unrounded. No
    type at all: the scorer's scores of zero counts, (1, 1, 1). ``rows``: a sequence of three
    integer counts >= 0 per type; ``beta``: a number >= 0 or inf (anything else: an InputError)."""
    checked = [_type_row(row, k) for k, row in enumerate(check_sequence(rows, "rows", "(TP, FP, FN) counts per type"))]
    return _type_means(checked, check_beta_number(beta))


def _type_row(row: Any, k: int) -> tuple[int, int, int]:
    """One type's (TP, FP, FN) given to :func:`type_means`: three integers >= 0."""
    what = f"rows[{k}]"
    counts = check_sequence(row, what, "three counts (TP, FP, FN)")
    if len(counts) != 3:
        raise InputError(f"{what} must be three counts (TP, FP, FN), got {plural(len(counts), 'value')}")
    tp, fp, fn = (check_count(count, f"{what}: a count", minimum=0) for count in counts)
    return tp, fp, fn


def _type_means(rows: Sequence[Sequence[int]], beta: float) -> tuple[float, float, float]:
    """:func:`type_means` of checked rows and beta (the scorer's own, for each resample)."""
    scores = [precision_recall_f(tp, tp + fp, tp + fn, beta) for tp, fp, fn in rows]
    if not scores:
        return precision_recall_f(0, 0, 0, beta)
    return tuple(float(sum(score[k] for score in scores) / len(scores)) for k in range(3))  # type: ignore[return-value]


def choose_annotators(counts: np.ndarray, mask: np.ndarray, beta: float) -> np.ndarray:
    """Per sentence, in order, the annotator maximizing the running corpus F-beta; ties: more
    correct edits, then fewer proposed + beta^2 * gold, then the first annotator."""
    counts, mask, beta = fscore.checked_choice_arguments(counts, mask, beta, "choose_annotators")
    rank = np.broadcast_to(np.arange(counts.shape[1]), counts.shape[:2])
    return fscore.RunningChoice(fscore.MAXMATCH, beta).corpus(fscore.CandidateCounts(counts, mask, rank))[0]


@dataclass(frozen=True)
class M2Settings(Settings):
    beta: float = setting(0.5, "F-beta weight (>= 0; inf gives recall)", parse_beta, ("b",), flags=("-b", "--beta"),
                          signature="beta")
    max_unchanged_words: int = setting(2, "most unchanged tokens one system edit may hold", non_negative_int,
                                       ("max_unchanged",), flags=("--max-unchanged-words", "--max_unchanged_words"),
                                       signature="max-unchanged")
    ignore_whitespace_casing: bool = setting(False, "drop system edits that only change spaces or letter case",
                                             parse_bool, ("iwc",), flags=("--ignore-whitespace-casing", "--ignore_whitespace_casing"),
                                             signature="ignore-whitespace-casing", shown=flag_as("yes"))
    average: str = setting("micro", "micro: P, R, F of the summed counts; macro: the mean over the gold M2's error "
                           "types of their P, R, F (docs/m2.md)", choice("micro", "macro"), signature="average",
                           shown=unless("micro"))
    category_level: int | None = category_level_setting()
    sentence_average: bool = setting(False, "SentM2: the mean of the sentence P/R/F, each sentence against its best "
                                     "annotator", parse_bool, flags=("--sentence-average",))


@dataclass
class MaxMatchGold:
    """What every system output shares: the gold blocks and their edits per annotator."""

    blocks: list[Block]
    golds: list[dict[int, list[GoldEdit]]]
    name: str = "the gold M2"


class M2Scorer(TypeAveragedMetric):
    """The MaxMatch scorer with the official's settings (beta, max unchanged words per edit,
    whether case- or space-only system edits are ignored).

    ``scorer.corpus_score(None, gold_blocks, hypothesis_lines)`` scores a system output (the one
    call shape of every metric; ``scorer.score(gold_blocks, hypothesis_lines)``, the older call,
    is an alias); the protocol's ``prepare(corpus)``, ``statistics(prepared, lines)`` and
    ``score(statistics)`` do the same in steps (the gold edits are read once for all systems).
    """

    name = "m2"
    settings_class = M2Settings
    positional = ("beta", "max_unchanged_words", "ignore_whitespace_casing")
    rule = fscore.MAXMATCH
    label = "M2"
    rounds_to = 4  # the m2scorer prints "%.4f": the binary value rounded, ties to even

    def __init__(self, *args: Any, keep_details: bool = False, arc_budget: int = DEFAULT_ARC_BUDGET,
                 per_type: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.keep_details = check_flag(keep_details, "keep_details")
        self.arc_budget = check_count(arc_budget, "arc_budget (transitive arcs enumerated before the compact search)", 0)
        self.per_type = check_flag(per_type, "per_type") or self.macro
        """Keep each annotator's per-type counts (the result's ``categories``)."""
        self.check_average()

    def type_average(self, rows: Sequence[Sequence[int]]) -> tuple[float, float, float]:
        return _type_means(rows, self.settings.beta)

    def type_groups(self, categories: dict[str, CategoryCounts]) -> dict[str, CategoryCounts]:
        """The macro average's groups: the types at the ``category_level`` setting's -cat level."""
        level = self.settings.category_level
        return categories if level is None else grouped(categories, level, (NO_TYPE,))

    def settings_dict(self) -> dict[str, Any]:
        """The settings (``average`` only when it is macro: the micro figures' JSON is as before;
        ``category_level`` only when given)."""
        out = super().settings_dict()
        if not self.macro:
            out.pop("average", None)
        if self.settings.category_level is None:
            out.pop("category_level", None)
        return out

    def sharing_key(self) -> Hashable:
        return ("maxmatch-gold",)

    def prepare(self, corpus: Corpus, group: Sequence[Any] = ()) -> MaxMatchGold:
        corpus = checked_corpus(corpus, self.display_name, " whose gold M2 is the reference")
        if corpus.gold is None:
            raise InputError("the m2 metric needs gold M2 annotations of the same sentences (--m2 GOLD.m2; "
                             "Python: the gold blocks as the references)")
        blocks = check_blocks(corpus.gold, corpus.name("gold"))
        return MaxMatchGold(blocks, [gold_edits_by_annotator(block) for block in blocks], corpus.name("gold"))

    def sentence_edits(self, source: str, hypothesis: str,
                       gold: dict[int, list[GoldEdit]]) -> list[tuple[list[SystemEdit], list[SystemEdit]]]:
        """Per annotator (in order): the system edits chosen against its gold and the correct ones."""
        s = self.settings
        # the official (Python 2) splits on U+180E too
        return system_edits(python2_spaces(source), python2_spaces(hypothesis), gold, s.max_unchanged_words,
                            s.ignore_whitespace_casing, self.arc_budget)

    def statistics(self, prepared: MaxMatchGold, hypothesis: Sequence[str], name: str = "hypothesis") -> np.ndarray:
        """Per sentence and annotator: (correct, proposed, gold), shape (D, A, 5)."""
        self.check_prepared_kind(prepared, MaxMatchGold)
        lines = check_lines(hypothesis, name)
        if len(lines) != len(prepared.blocks):
            raise InputError(f"has {plural(len(lines), 'line')} "
                             f"but {prepared.name} has {plural(len(prepared.blocks), 'block')}", name)
        rows, typed = [], []
        for d, (block, line, gold) in enumerate(zip(prepared.blocks, lines, prepared.golds)):
            try:
                per_annotator = self.sentence_edits(block.source, line, gold)
            except LineRefused as err:  # a lattice past its bound: the run names the file and line
                err.sentence = d
                raise
            rows.append([(len(correct), len(system), len(edits), annotator)
                         for (system, correct), (annotator, edits) in zip(per_annotator, gold.items())])
            if self.per_type:
                types = gold_types_by_annotator(block)
                typed.append([typed_counts(system, edits, types[annotator])
                              for (system, _), (annotator, edits) in zip(per_annotator, gold.items())])
        counts = fscore.candidates_from_lists(rows)
        return ErrantStatistics(counts, TypeCounts.of(typed)) if self.per_type else counts

    result_class = M2Result

    def score(self, statistics: Any, hypotheses: Sequence[str] | None = None, name: str = "hypothesis") -> M2Result:
        """``score(statistics)``: the base class's reducer, as every metric's. ``score(gold_blocks,
        hypothesis_lines, name)``: the older call, kept as an alias of :meth:`corpus_score` (its
        prepare and statistics steps, with ``name`` in messages; with ``keep_details``, the
        per-sentence edits for verbose output). The package's one override of ``score``, for
        this alias only: the reduction is the base class's."""
        if isinstance(statistics, (np.ndarray, fscore.CandidateCounts, ErrantStatistics)):
            return super().score(statistics)
        blocks = check_blocks(statistics, "the gold M2")
        if hypotheses is None:
            raise InputError("scoring gold M2 blocks needs the hypothesis lines: score(gold_blocks, hypothesis_lines)")
        prepared = self.prepare(Corpus(None, gold=blocks))
        result = super().score(self.statistics(prepared, hypotheses, name))
        if self.keep_details:
            result.details = self.sentence_details(prepared, check_lines(hypotheses, name), result.chosen)
        return result

    def sentence_details(self, gold: MaxMatchGold | Sequence[Block], lines: Sequence[str],
                         chosen: np.ndarray) -> list[SentenceDetail]:
        """What the scorer did on each sentence (edits per annotator, the one kept), for
        verbose output: the lattice work again, so only when asked."""
        if not isinstance(gold, MaxMatchGold):
            gold = MaxMatchGold(list(gold), [gold_edits_by_annotator(block) for block in gold])
        details = []
        for block, line, edits, slot in zip(gold.blocks, lines, gold.golds, chosen):
            per_annotator = self.sentence_edits(block.source, line, edits)
            details.append(SentenceDetail(block.source, line, list(edits), int(slot), [s for s, _ in per_annotator],
                                          list(edits.values()), [c for _, c in per_annotator],
                                          list(gold_lines_by_annotator(block).values())))
        return details

    def column_names(self) -> list[str]:
        s = self.settings
        tokens = [f"F{number_label(s.beta)}"] + (["macro"] if self.macro else [])
        tokens += [f"cat:{level}" for level in [grouping_level(s.category_level)] if level]
        if s.max_unchanged_words != 2:
            tokens.append(f"mu{s.max_unchanged_words}")
        if s.ignore_whitespace_casing:
            tokens.append("iwc")
        return [" ".join(tokens)]
