"""ERRANT-style edit-level comparison of hypothesis M2 blocks with reference M2 blocks (SPEC 4.3).

Behaviour (numbers, annotator choice and text layout) follows ``errant/commands/compare_m2.py``
of ERRANT 3.0.2, including its quirks, which are kept on purpose so that numbers agree:

* an edit is a key: ``(start, end, correction)`` in ``cs`` mode (the raw correction field, so
  '-NONE-' and '' differ), ``(start, end, type, correction)`` in ``cse``, ``(start, end)`` in
  ``ds``, one key per token in ``dt`` (an insertion touches the token on its right);
* a block without edits counts as one ``noop`` edit of annotator 0; ``UNK`` edits are dropped
  outside detection; ``-single``/``-multi``/``-filt`` drop edits (noop lines included) before
  keys are built, but the annotator stays a candidate;
* several edits with the same key count once each; a hypothesis key found in the reference
  adds one TP per *reference* edit with that key, typed with the reference types;
* per sentence, every (hypothesis annotator, reference annotator) pair is tried in order of first
  appearance in the block; the chosen pair maximizes the corpus F so far plus this sentence
  (F rounded to 4 decimals, as ERRANT compares it), ties: more TP, fewer FP, fewer FN, first;
* P = TP/(TP+FP) and 1 when FP = 0; R = TP/(TP+FN) and 1 when FN = 0; printed rounded to 4.

:class:`EditComparison` holds these rules for one setting (mode, -single, -multi, -filt); the
metrics over them (:class:`gecmetrics.metrics.edit_comparison.EditComparisonMetric`: ERRANT's
``compare_m2``, ChERRANT's, ``errant`` on plain text) add the settings, the running-F choice
and the result. ChERRANT's rules are :class:`gecmetrics.core.edits.cherrant.CherrantComparison`.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, ClassVar, Hashable, Iterable, Sequence

import numpy as np

from ...errors import InputError, plural
from .. import fscore
from ..offsets import joined_offsets, ranges_index
from .blocks import DELETION, NO_TYPE, NOOP_TYPE as NOOP, Block, Edit, check_blocks, same_sentence

MODES = ("dt", "ds", "cs", "cse")
DETECTION_MODES = ("dt", "ds")
MODE_TITLES = {
    "dt": " Token-Based Detection ",
    "ds": " Span-Based Detection ",
    "cs": " Span-Based Correction ",
    "cse": " Span-Based Correction + Classification ",
}
UNKNOWN_TYPE = "UNK"
TP, FP, FN = 0, 1, 2

EditKey = tuple
EditTable = dict  # EditKey -> list of error types (one per edit line with that key)
ERRANT_TYPE_FORM = re.compile(r"[MRU]:[A-Z]+(?::[A-Z]+)*")
"""ERRANT's error types: an operation and a category (``R:NOUN:NUM``; the generic annotator's
``R:NOUN:FORM`` too). NUCLE's (``ArtOrDet``, ``Vt``: the CoNLL-2014 gold) are not; ``UNK``, the
``noop`` of a block without edits and the M2 scorer's ``(none)`` of a wrong edit that overlaps no
gold edit belong to no scheme (:data:`SCHEMELESS_TYPES`)."""
SCHEMELESS_TYPES = frozenset({UNKNOWN_TYPE, NOOP, NO_TYPE})


def errant_scores(tp: int, fp: int, fn: int, beta: float) -> tuple[float, float, float]:
    """ERRANT's precision, recall and F-beta, unrounded (P or R is 1 when FP or FN is 0).
    F is 0 when its denominator is: P = R = 0, or beta = 0 with R = 0 (where ERRANT divides
    by zero; for beta > 0 this is ERRANT's own P + R = 0 guard)."""
    return fscore.ERRANT.scores((tp, fp, fn), beta)


def rounded_scores(tp: int, fp: int, fn: int, beta: float) -> tuple[float, float, float]:
    """The scores as ERRANT prints and compares them: rounded to 4 decimals."""
    precision, recall, f_score = errant_scores(tp, fp, fn, beta)
    return round(precision, 4), round(recall, 4), round(f_score, 4)


@dataclass
class CategoryCounts:
    """TP, FP, FN of one error type (or group of types)."""

    tp: int = 0
    fp: int = 0
    fn: int = 0

    def scores(self, beta: float) -> tuple[float, float, float]:
        return rounded_scores(self.tp, self.fp, self.fn, beta)


@dataclass
class SentenceComparison:
    """One tried (hypothesis annotator, reference annotator) pair of one sentence (for -v)."""

    hyp_annotator: int
    ref_annotator: int
    hyp_edits: list[tuple]
    ref_edits: list[tuple]
    counts: tuple[int, int, int]
    global_counts: tuple[int, int, int]


@dataclass
class SentenceTrace:
    """What ERRANT's verbose mode shows for one sentence."""

    index: int
    source: str
    pairs: list[SentenceComparison]
    chosen: tuple[int, int]
    categories: dict[str, list[int]]
    bare_s_line: bool = False  # an "S" line without its space (source: its first edit line)
    skipped: bool = False  # counted nothing (ChERRANT: NA or --reference_num), no pair compared


@dataclass
class ComparedSentence:
    """One sentence's tables and its candidate pairs in trial order, with their counts."""

    hyp_tables: dict[int, EditTable]
    ref_tables: dict[int, EditTable]
    pairs: list[tuple[int, int]]
    counts: list[tuple[int, int, int]]
    categories: list[dict[str, list[int]]]
    source: str = ""
    bare_s_line: bool = False
    skipped: bool = False


class TypeCounts:
    """Per sentence, each candidate's (TP, FP, FN) by error type, in flat arrays: what the type
    tables and the macro average read. ``types`` names the type ids; sentence d's candidates (in
    trial order) are the table's candidates ``sentence_starts[d]`` to ``sentence_starts[d + 1]``,
    and candidate c's types are the rows ``entry_starts[c]`` to ``entry_starts[c + 1]`` of
    ``entries`` (type id, TP, FP, FN), in their order. A dict and a list per type of every
    candidate held about 1 KB a sentence: 0.75 GB of the 10^5-line report's 2.8 GB peak."""

    __slots__ = ("types", "sentence_starts", "entry_starts", "entries")

    def __init__(self, types: Sequence[str], sentence_starts: np.ndarray, entry_starts: np.ndarray,
                 entries: np.ndarray) -> None:
        self.types = tuple(types)
        self.sentence_starts, self.entry_starts, self.entries = sentence_starts, entry_starts, entries

    @classmethod
    def of(cls, sentences: Iterable[Sequence[dict[str, Sequence[int]]]]) -> "TypeCounts":
        """The table of per-sentence lists of candidates' ``{type: (TP, FP, FN)}``."""
        ids: dict[str, int] = {}
        sentence_starts, entry_starts, entries = [0], [0], []
        for candidates in sentences:
            for categories in candidates:
                entries += [(ids.setdefault(error_type, len(ids)), tp, fp, fn)
                            for error_type, (tp, fp, fn) in categories.items()]
                entry_starts.append(len(entries))
            sentence_starts.append(len(entry_starts) - 1)
        return cls(ids, np.array(sentence_starts, dtype=np.int64), np.array(entry_starts, dtype=np.int64),
                   np.array(entries, dtype=np.int32).reshape(-1, 4))

    @classmethod
    def joined(cls, parts: Sequence["TypeCounts"]) -> "TypeCounts":
        """The tables of consecutive chunks as one (type ids renumbered)."""
        ids: dict[str, int] = {}
        entries = [np.zeros((0, 4), np.int32)]
        for part in parts:
            renumber = np.array([ids.setdefault(error_type, len(ids)) for error_type in part.types] or [0],
                                dtype=np.int32)
            entries.append(np.column_stack([renumber[part.entries[:, 0]], part.entries[:, 1:]]).astype(np.int32))
        return cls(ids, joined_offsets([part.sentence_starts for part in parts]),
                   joined_offsets([part.entry_starts for part in parts]), np.concatenate(entries))

    def __len__(self) -> int:
        return len(self.sentence_starts) - 1

    def candidates(self, d: int) -> int:
        """How many candidates sentence ``d`` has."""
        return int(self.sentence_starts[d + 1] - self.sentence_starts[d])

    def candidate(self, d: int, k: int) -> dict[str, list[int]]:
        """Sentence ``d``'s candidate ``k``: ``{type: [TP, FP, FN]}``, its types in their order."""
        c = self.sentence_starts[d] + k
        rows = self.entries[self.entry_starts[c]:self.entry_starts[c + 1]].tolist()
        return {self.types[t]: [tp, fp, fn] for t, tp, fp, fn in rows}

    def add_chosen(self, categories: dict[str, "CategoryCounts"], chosen: np.ndarray) -> None:
        """Add each sentence's chosen candidate's counts to ``categories``: new types in the
        order they first come, sentence by sentence (as adding them one at a time does)."""
        chosen = np.asarray(chosen, dtype=np.int64)
        counts = np.diff(self.sentence_starts)
        if len(chosen) != len(self) or np.any((chosen < 0) | (chosen >= counts)):
            raise ValueError(f"chosen candidates do not fit the table of {len(self)} sentences")
        picked = self.sentence_starts[:-1] + chosen
        starts = self.entry_starts[picked]
        rows = self.entries[ranges_index(starts, self.entry_starts[picked + 1] - starts)]
        if not len(rows):
            return
        type_ids = rows[:, 0]
        sums = np.zeros((len(self.types), 3), dtype=np.int64)
        np.add.at(sums, type_ids, rows[:, 1:])
        present, first = np.unique(type_ids, return_index=True)
        for t in present[np.argsort(first)].tolist():
            total = categories.setdefault(self.types[t], CategoryCounts())
            total.tp += int(sums[t, 0])
            total.fp += int(sums[t, 1])
            total.fn += int(sums[t, 2])


class ErrantStatistics:
    """Per-sentence statistics of an ERRANT-style comparison: ``rows`` (D, P, 5), the counts of
    every (hypothesis annotator, reference annotator) pair in trial order, as the running-F
    reducers read them (``numpy.asarray`` gives them); ``types``, each pair's counts by error
    type (:class:`TypeCounts`); and ``traces``, with ``verbose`` only, the compared sentences
    (their edits and source) for ERRANT's trace. Chunks join by :meth:`joined`."""

    def __init__(self, rows: np.ndarray, types: TypeCounts, traces: list[ComparedSentence] | None = None) -> None:
        self.rows, self.types, self.traces = rows, types, traces

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return self.rows if dtype is None else self.rows.astype(dtype)

    def __len__(self) -> int:
        return len(self.rows)

    @property
    def shape(self) -> tuple[int, ...]:
        return self.rows.shape

    @classmethod
    def joined(cls, parts: Sequence["ErrantStatistics"], rows: np.ndarray) -> "ErrantStatistics":
        traces = None if any(part.traces is None for part in parts) else \
            [sentence for part in parts for sentence in part.traces]
        return cls(rows, TypeCounts.joined([part.types for part in parts]), traces)

    @classmethod
    def of(cls, sentences: list[ComparedSentence], traces: bool = False) -> "ErrantStatistics":
        """The statistics of compared sentences: their pairs' counts as candidate rows, their
        categories as a :class:`TypeCounts`, and the sentences themselves with ``traces``."""
        return cls(fscore.candidates_from_lists([[(*c, pair_code(*p)) for p, c in zip(s.pairs, s.counts)]
                                                 for s in sentences]),
                   TypeCounts.of(s.categories for s in sentences), sentences if traces else None)


PAIR_BASE = 1 << 31
"""Candidate ids of ERRANT statistics encode (hypothesis annotator, reference annotator)."""


def pair_code(hyp_id: int, ref_id: int) -> int:
    return hyp_id * PAIR_BASE + ref_id


def pair_of(code: int) -> tuple[int, int]:
    return divmod(int(code), PAIR_BASE)


def choose_pairs(pair_counts: np.ndarray, candidate_order: Sequence[Sequence[int]], beta: float,
                 start: tuple[int, int, int] = (0, 0, 0)) -> np.ndarray:
    """ERRANT's greedy choice, sentence by sentence in the given order: the pair maximizing the
    running corpus F (rounded to 4 decimals), ties by more TP, fewer FP, fewer FN, then first.
    Returns the chosen pair index per sentence."""
    pair_counts, _, beta = fscore.checked_choice_arguments(
        pair_counts, np.ones(np.shape(pair_counts)[:2], dtype=bool), beta, "choose_pairs")
    n_sentences, n_pairs = pair_counts.shape[:2]
    if isinstance(candidate_order, (str, bytes)) or not isinstance(candidate_order, Sequence) \
            or len(candidate_order) != n_sentences:
        raise InputError(f"choose_pairs: candidate_order must be a sequence of {n_sentences} candidate lists "
                         f"(one per sentence of pair_counts), got "
                         f"{len(candidate_order) if isinstance(candidate_order, Sequence) else type(candidate_order).__name__}")
    available = np.zeros(pair_counts.shape[:2], dtype=bool)
    rank = np.full(pair_counts.shape[:2], n_pairs, dtype=np.int64)
    for d, order in enumerate(candidate_order):
        order = list(order) if isinstance(order, (Sequence, np.ndarray)) and not isinstance(order, (str, bytes)) \
            else None
        if not order or any(isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 0 <= k < n_pairs
                            for k in order) or len(set(int(k) for k in order)) != len(order):
            raise InputError(f"choose_pairs: candidate_order[{d}] must list distinct pair indices from 0 to "
                             f"{n_pairs - 1}, at least one, got {candidate_order[d]!r}")
        available[d, order] = True
        rank[d, order] = np.arange(len(order))
    data = fscore.CandidateCounts(pair_counts, available, rank)
    return fscore.RunningChoice(fscore.ERRANT, beta).corpus(data, start)[0]


@dataclass(frozen=True)
class EditComparison:
    """ERRANT ``compare_m2``'s rules for one setting: ``mode`` 'cs' (span correction), 'cse'
    (+ error type), 'ds' (span detection) or 'dt' (token detection); ``single`` / ``multi``
    keep only single-token / multi-token edits; ``filter_types`` drops those error types."""

    mode: str = "cs"
    single: bool = False
    multi: bool = False
    filter_types: tuple[str, ...] = ()

    label: ClassVar[str] = "ERRANT"
    """The tool whose rules these are."""
    trace_layout: ClassVar[str] = "compare_m2"
    """How -v prints the traces: ERRANT 3.0.2's compare_m2 or ChERRANT's (metrics.m2.errant_report.TRACE_LAYOUTS)."""
    reads_back_m2: ClassVar[bool] = True
    """Whether the tool compares annotated edits as read back from the M2 file its annotator
    wrote (compare_m2 splits edit lines on ``|||``: ``gecmetrics.metrics.errant.read_back``);
    checked against errant 3.0.2 only, so ChERRANT's rules leave it off."""

    type_form: ClassVar[re.Pattern | None] = ERRANT_TYPE_FORM
    """The form of the error types its type settings read (:meth:`type_flags`; ERRANT's
    ``-cat`` 1 and 2 group by it too): types of another scheme compare, but never match one of
    this form (the metrics warn, :meth:`foreign_types`); None: any form (ChERRANT's)."""

    def sharing_key(self) -> Hashable:
        """What a reference's edit tables depend on (tables are made once per key)."""
        return ("errant-reference", self.mode, self.single, self.multi, self.filter_types)

    def type_flags(self) -> list[str]:
        """The settings in use that read error types: -cse (compared) and -filt (dropped)."""
        return [flag for flag, used in (("-cse", self.mode == "cse"), ("-filt", bool(self.filter_types))) if used]

    filter_form: ClassVar[tuple[re.Pattern, str] | None] = None
    """The form of the types -filt takes and how the warning about others shows it, where it is
    not :attr:`type_form` (ChERRANT's, whose M2 files are typed S, M, R, W, and R:NOUN ... at word
    level)."""

    def foreign_types(self, types: Iterable[str], limit: int = 3) -> list[str]:
        """Up to ``limit`` distinct error types, in order, not of :attr:`type_form` (or
        :attr:`filter_form`'s)."""
        found: list[str] = []
        form = self.filter_form[0] if self.filter_form is not None else self.type_form
        if form is not None:
            for error_type in types:
                if error_type not in found and error_type not in SCHEMELESS_TYPES and \
                        not form.fullmatch(error_type):
                    found.append(error_type)
                    if len(found) == limit:
                        break
        return found

    def any_of_form(self, types: Iterable[str]) -> bool:
        """Whether some error type is of :attr:`type_form` (an ERRANT-typed system's edits)."""
        form = self.type_form
        return form is not None and any(form.fullmatch(error_type) for error_type in types)

    def reference_tables(self, blocks: Sequence[Block], name: str,
                         hypotheses: Iterable[Sequence[Block]] = ()) -> "ReferenceTables":
        """The edit tables of reference blocks, keeping their tokens and lines for the check
        that a hypothesis annotates the same sentences, and whether the ``hypotheses`` compared
        with them have types of :attr:`type_form` (for the warning about a reference typed
        otherwise)."""
        tables = ReferenceTables([self.edit_tables(block) for block in blocks], blocks, name)
        tables.typed_hypotheses = self.any_of_form(edit.type for blocks_ in hypotheses for block in blocks_
                                                   for edit in getattr(block, "edits", ()))
        return tables

    def edit_tables(self, block: Block) -> dict[int, EditTable]:
        """Per annotator (in order of first appearance), its edit keys -> error types."""
        edits = [(e.start, e.end, e.type, e.correction, e.annotator) for e in block.edits]
        if not edits:
            edits = [(-1, -1, NOOP, DELETION, 0)]
        tables: dict[int, EditTable] = {}
        for start, end, error_type, correction, annotator in edits:
            table = tables.setdefault(annotator, {})
            if self.dropped(start, end, error_type, correction):
                continue
            for key in self.keys(start, end, error_type, correction):
                table.setdefault(key, []).append(error_type)
        return tables

    def dropped(self, start: int, end: int, error_type: str, correction: str) -> bool:
        """Whether the settings leave an edit out: UNK outside detection, -single, -multi, -filt."""
        if self.mode not in DETECTION_MODES and error_type == UNKNOWN_TYPE:
            return True
        n_correction_tokens = len(correction.split())
        if self.single and (end - start >= 2 or n_correction_tokens >= 2):
            return True
        if self.multi and end - start < 2 and n_correction_tokens < 2:
            return True
        return error_type in self.filter_types

    def keys(self, start: int, end: int, error_type: str, correction: str) -> list[EditKey]:
        """The keys of one edit in this mode."""
        mode = self.mode
        if mode == "dt":
            if start == -1:
                return [(start, start)]
            if start == end and start >= 0:
                return [(start, start + 1)]
            return [(token, token + 1) for token in range(start, end)]
        if mode == "ds":
            return [(start, end)]
        if mode == "cse":
            return [(start, end, error_type, correction)]
        return [(start, end, correction)]

    def marked_edits(self, hyp_block: Block, ref_block: Block, pair: tuple[int, int]
                     ) -> tuple[list[tuple[Edit, str | None]], list[tuple[Edit, str | None]]]:
        """Each edit of one (hypothesis annotator, reference annotator) ``pair`` of a sentence
        with its outcome, by the keys :func:`compare_tables` counts: a hypothesis edit is
        ``"TP"`` when one of its keys is in the reference's table, else ``"FP"``; a reference
        edit ``"TP"`` when one of its keys is in the hypothesis's table, else ``"FN"``; None
        for an edit the comparison leaves out (noop lines, UNK outside detection, -single /
        -multi / -filt). Edits in file order, noop lines included (as None)."""
        hyp_id, ref_id = pair
        hyp_table = self.edit_tables(hyp_block).get(hyp_id, {})
        ref_table = self.edit_tables(ref_block).get(ref_id, {})
        return (self._marks(hyp_block.edits_of(hyp_id), ref_table, "TP", "FP"),
                self._marks(ref_block.edits_of(ref_id), hyp_table, "TP", "FN"))

    def _marks(self, edits: Sequence[Edit], other: EditTable, found: str, missing: str
               ) -> list[tuple[Edit, str | None]]:
        marked: list[tuple[Edit, str | None]] = []
        for edit in edits:
            keys = self._kept_keys(edit)
            if not keys:
                marked.append((edit, None))
            else:
                marked.append((edit, found if any(key in other for key in keys) else missing))
        return marked

    def _kept_keys(self, edit: Edit) -> list[EditKey]:
        """The keys one edit line adds to its table (none when :meth:`edit_tables` drops it, or
        for a noop line, which is never counted)."""
        if edit.is_noop or edit.type == NOOP or self.dropped(edit.start, edit.end, edit.type, edit.correction):
            return []
        return self.keys(edit.start, edit.end, edit.type, edit.correction)

    def skipped(self, ref_tables: dict[int, EditTable]) -> bool:
        """Whether a sentence counts nothing whatever the hypothesis (never, in ERRANT)."""
        return False

    def sentences(self, reference: list[dict[int, EditTable]], hyp_blocks: Sequence[Block], name: str,
                  ref_name: str = "the reference") -> list[ComparedSentence]:
        """Every sentence's (hypothesis annotator, reference annotator) pairs in trial order,
        with their counts and categories; a skipped sentence has one pair counting nothing."""
        hyp_blocks = check_blocks(hyp_blocks, name)
        if len(hyp_blocks) != len(reference):
            raise InputError(f"has {plural(len(hyp_blocks), 'sentence')} but {ref_name} has {len(reference)}", name)
        if isinstance(reference, ReferenceTables):
            reference.check(hyp_blocks, name)
        sentences = []
        for block, ref_tables in zip(hyp_blocks, reference):
            hyp_tables = self.edit_tables(block)
            pairs, counts, categories = [], [], []
            for hyp_id, hyp_table in hyp_tables.items():
                for ref_id, ref_table in ref_tables.items():
                    tp, fp, fn, cats = compare_tables(hyp_table, ref_table)
                    pairs.append((hyp_id, ref_id))
                    counts.append((tp, fp, fn))
                    categories.append(cats)
            skipped = self.skipped(ref_tables)
            if skipped:
                pairs, counts, categories = pairs[:1], [(0, 0, 0)], [{}]
            shown = block.source if block.shown_source is None else block.shown_source
            sentences.append(ComparedSentence(hyp_tables, ref_tables, pairs, counts, categories, shown,
                                              block.shown_source is not None, skipped))
        return sentences


AVERAGES = ("micro", "macro")
"""How the overall P, R, F are made: ``micro``, of the summed counts (compare_m2's); ``macro``,
the mean over error types of their P, R, F (errant pull request #52's ``--f_average macro``)."""


def _rounded_scalar(tp: int, fp: int, fn: int, beta: float) -> tuple[float, float, float]:
    """compare_m2's ``computeFScore`` of one category on Python numbers: P, R, F rounded to 4
    decimals (the same operations as :func:`rounded_scores`, without arrays, for the choice's
    inner loop)."""
    precision = tp / (tp + fp) if fp else 1.0
    recall = tp / (tp + fn) if fn else 1.0
    if beta == math.inf:
        f = recall
    else:
        denominator = beta * beta * precision + recall
        f = (1.0 + beta * beta) * precision * recall / denominator if denominator else 0.0
    return round(precision, 4), round(recall, 4), round(f, 4)


def macro_means(counts: Iterable[Sequence[int]], beta: float) -> tuple[float, float, float]:
    """errant PR #52's macro average of categories' (TP, FP, FN), in the order given, before its
    last rounding: each category's P, R, F as compare_m2 rounds them (4 decimals), then the
    arithmetic mean of each (the PR's ``sum(...) / len(...)``), a number with more decimals than
    4. Only the categories given count (a type with no TP, FP or FN in the chosen pairs is
    absent, never a 0 or a 1); with no category at all, compare_m2's scores of zero counts,
    (1.0, 1.0, 1.0) (where the PR divides by zero)."""
    scores = [_rounded_scalar(int(tp), int(fp), int(fn), beta) for tp, fp, fn in counts]
    if not scores:
        return _rounded_scalar(0, 0, 0, beta)
    return (sum(score[0] for score in scores) / len(scores), sum(score[1] for score in scores) / len(scores),
            sum(score[2] for score in scores) / len(scores))


def macro_scores(counts: Iterable[Sequence[int]], beta: float) -> tuple[float, float, float]:
    """errant PR #52's macro P, R, F as it prints and compares them: :func:`macro_means` rounded
    to 4 decimals."""
    precision, recall, f = macro_means(counts, beta)
    return round(precision, 4), round(recall, 4), round(f, 4)


def choose_pairs_macro(statistics: ErrantStatistics, beta: float) -> np.ndarray:
    """The PR's annotator choice under the macro average: per sentence, the pair whose error
    types, added to the chosen pairs' so far, give the highest macro F (over the full types,
    whatever -cat shows); ties as compare_m2's: more TP, fewer FP, fewer FN of the sentence,
    then the first pair tried. Returns the chosen pair index per sentence."""
    types, rows = statistics.types, np.asarray(statistics.rows)
    running: dict[str, list[int]] = {}
    chosen = np.zeros(len(types), dtype=np.int64)
    for d in range(len(types)):
        best: tuple | None = None
        candidates = [types.candidate(d, k) for k in range(types.candidates(d))]
        for k, categories in enumerate(candidates):
            tp, fp, fn = (int(x) for x in rows[d, k, :3])
            merged = {error_type: list(counts) for error_type, counts in running.items()}
            for error_type, counts in categories.items():
                total = merged.setdefault(error_type, [0, 0, 0])
                for i in range(3):
                    total[i] += counts[i]
            key = (macro_scores(merged.values(), beta)[2], tp, -fp, -fn)
            if best is None or key > best:
                best, chosen[d] = key, k
        for error_type, counts in candidates[int(chosen[d])].items():
            total = running.setdefault(error_type, [0, 0, 0])
            for i in range(3):
                total[i] += counts[i]
    return chosen


def sentence_traces(sentences: Sequence[ComparedSentence], chosen: np.ndarray) -> list[SentenceTrace]:
    """What ERRANT's verbose mode shows, sentence by sentence (the sentences keep their tables)."""
    traces = []
    total = np.zeros(3, dtype=np.int64)
    for row, sentence in enumerate(sentences):
        shown = []
        for (hyp_id, ref_id), counts in zip(sentence.pairs, sentence.counts):
            global_counts = tuple(int(x) for x in total + counts)
            shown.append(SentenceComparison(hyp_id, ref_id, _shown_edits(sentence.hyp_tables[hyp_id]),
                                            _shown_edits(sentence.ref_tables[ref_id]), counts, global_counts))
        k = int(chosen[row])
        traces.append(SentenceTrace(row, sentence.source, shown, sentence.pairs[k], sentence.categories[k],
                                    sentence.bare_s_line, sentence.skipped))
        total += sentence.counts[k]
    return traces


class ReferenceTables(list):
    """A reference's edit tables (one dict per sentence), with its sentences' source lines (the
    blocks' own strings, not copies) and line numbers: hypothesis blocks are compared by
    position, so a hypothesis M2 of other sentences (or the same ones in another order) would
    give numbers; :meth:`check` refuses it instead."""

    def __init__(self, tables: Iterable[dict[int, EditTable]], blocks: Sequence[Block], name: str) -> None:
        super().__init__(tables)
        self.sources = [block.source for block in blocks]
        self.lines = [block.line for block in blocks]
        self.name = name
        self.typed_hypotheses = False
        """Whether the hypotheses compared have types of the comparison's form (ERRANT's)."""

    def check(self, hyp_blocks: Sequence[Block], hyp_name: str) -> None:
        """The hypothesis blocks annotate the reference's sentences (the same tokens), in order:
        one InputError naming the hypothesis file and the line of the first block that differs."""
        for k, (block, source) in enumerate(zip(hyp_blocks, self.sources)):
            if not same_sentence(block.source, source):
                line = f" (line {self.lines[k]})" if self.lines[k] else ""
                raise InputError(f"this sentence differs from the reference's sentence at the same position in "
                                 f"{self.name}{line}: both M2 files must annotate the same sentences in the same order",
                                 hyp_name, block.line or None)

    def __reduce__(self):
        return (_reference_tables, (list(self), self.sources, self.lines, self.name, self.typed_hypotheses))


def _reference_tables(tables: list, sources: list, lines: list, name: str, typed: bool = False) -> ReferenceTables:
    """ReferenceTables from its parts (unpickling)."""
    made = ReferenceTables(tables, [], name)
    made.sources, made.lines, made.typed_hypotheses = sources, lines, typed
    return made


def _shown_edits(table: EditTable) -> list[tuple]:
    """Edits as ERRANT's verbose mode lists them: sorted keys plus their first type; the list is
    shown empty when its first key is a -1 span (a noop), whatever follows."""
    shown = [key + (table[key][0],) for key in sorted(table)]
    if not shown or shown[0][0] == -1:
        return []
    return shown


def compare_tables(hyp_table: EditTable, ref_table: EditTable) -> tuple[int, int, int, dict[str, list[int]]]:
    """TP, FP, FN and per-type [TP, FP, FN] of one hypothesis annotator against one reference
    annotator. Noop keys are neither FP nor FN; a matched key counts each reference edit."""
    tp = fp = fn = 0
    categories: dict[str, list[int]] = {}
    for key, hyp_types in hyp_table.items():
        if hyp_types[0] == NOOP:
            continue
        if key in ref_table:
            for error_type in ref_table[key]:
                tp += 1
                categories.setdefault(error_type, [0, 0, 0])[TP] += 1
        else:
            for error_type in hyp_types:
                fp += 1
                categories.setdefault(error_type, [0, 0, 0])[FP] += 1
    for key, ref_types in ref_table.items():
        if ref_types[0] == NOOP:
            continue
        if key not in hyp_table:
            for error_type in ref_types:
                fn += 1
                categories.setdefault(error_type, [0, 0, 0])[FN] += 1
    return tp, fp, fn, categories


def parse_filter_types(values: Iterable[str]) -> tuple[str, ...]:
    """Error types given to -filt (space separated values may come in one argument)."""
    return tuple(t for value in values for t in value.split())
