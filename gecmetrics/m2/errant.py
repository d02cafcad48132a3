"""ERRANT-style edit-level comparison of a hypothesis M2 with a reference M2 (SPEC 4.3).

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
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Iterable, Sequence

import numpy as np

from .. import __version__
from ..errors import InputError
from .format import DELETION, NOOP_TYPE as NOOP, Block, read_m2

MODES = ("dt", "ds", "cs", "cse")
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


def errant_scores(tp: int, fp: int, fn: int, beta: float) -> tuple[float, float, float]:
    """ERRANT's precision, recall and F-beta, unrounded (P or R is 1 when FP or FN is 0).
    F is 0 when its denominator is: P = R = 0, or beta = 0 with R = 0 (where ERRANT divides
    by zero; for beta > 0 this is ERRANT's own P + R = 0 guard)."""
    precision = float(tp) / (tp + fp) if fp else 1.0
    recall = float(tp) / (tp + fn) if fn else 1.0
    denominator = (beta ** 2) * precision + recall
    f_score = float((1 + (beta ** 2)) * precision * recall) / denominator if denominator else 0.0
    return precision, recall, f_score


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


@dataclass
class ErrantResult:
    """Corpus result of an ERRANT-style comparison.

    ``pair_counts[d, p]`` = (TP, FP, FN) of sentence d for annotator pair ``pairs[p]``
    (hypothesis id, reference id); ``pair_available[d, p]`` says whether both annotators exist
    in that sentence (else the counts are 0 and the pair cannot be chosen);
    ``candidate_order[d]`` lists the available pairs in ERRANT's trial order, which decides
    exact ties; ``chosen_pair[d]`` is the pair chosen (by :func:`choose_pairs`). With a
    one-annotator hypothesis, the pairs are the reference annotators: shape (D, A, 3).
    Significance tests resample rows and redo the choice with a running F-score
    (:class:`gecmetrics.significance.RunningFResampler`).
    """

    tp: int
    fp: int
    fn: int
    precision: float
    recall: float
    f_score: float
    beta: float
    mode: str
    categories: dict[str, CategoryCounts]
    pairs: list[tuple[int, int]]
    pair_counts: np.ndarray
    pair_available: np.ndarray
    candidate_order: list[list[int]]
    chosen_pair: np.ndarray
    settings: dict = field(default_factory=dict)
    signature: str = ""
    traces: list[SentenceTrace] = field(default_factory=list)

    @property
    def sentence_counts(self) -> np.ndarray:
        """(TP, FP, FN) per sentence for the chosen pair, shape (D, 3)."""
        rows = np.arange(self.pair_counts.shape[0])
        return self.pair_counts[rows, self.chosen_pair]

    def rounded(self) -> tuple[float, float, float]:
        """P, R, F as ERRANT prints them (4 decimals)."""
        return rounded_scores(self.tp, self.fp, self.fn, self.beta)

    def grouped_categories(self, level: int) -> dict[str, CategoryCounts]:
        """ERRANT's -cat levels: 1 = first character of the type (ERRANT's operation tier,
        e.g. 'R'), 2 = the type without its first two characters ('NOUN' of 'R:NOUN'), 3 = the
        types as they are. UNK is never grouped. On non-ERRANT types (NUCLE 'ArtOrDet')
        levels 1 and 2 give odd groups ('A', 'tOrDet'): kept to match ERRANT."""
        if level not in (1, 2, 3):
            raise InputError(f"category level must be 1, 2 or 3, not {level}")
        if level == 3:
            return dict(self.categories)
        grouped: dict[str, CategoryCounts] = {}
        for error_type, counts in self.categories.items():
            if error_type == UNKNOWN_TYPE:
                group = error_type
            elif level == 1:
                group = error_type[:1]
            else:
                group = error_type[2:]
            total = grouped.setdefault(group, CategoryCounts())
            total.tp += counts.tp
            total.fp += counts.fp
            total.fn += counts.fn
        return grouped

    def to_json(self) -> str:
        """Scores, counts, categories, settings and signature as one JSON object."""
        data = {
            "metric": "ERRANT",
            "tp": self.tp, "fp": self.fp, "fn": self.fn,
            "precision": self.precision, "recall": self.recall, "f": self.f_score,
            "beta": self.beta,
            "categories": {k: [v.tp, v.fp, v.fn] for k, v in sorted(self.categories.items())},
            "settings": self.settings,
            "signature": self.signature,
        }
        return json.dumps(data, ensure_ascii=False, indent=1)


def choose_pairs(pair_counts: np.ndarray, candidate_order: Sequence[Sequence[int]], beta: float,
                 start: tuple[int, int, int] = (0, 0, 0)) -> np.ndarray:
    """ERRANT's greedy choice, sentence by sentence in the given order: the pair maximizing the
    running corpus F (rounded to 4 decimals), ties by more TP, fewer FP, fewer FN, then first.
    Returns the chosen pair index per sentence."""
    total_tp, total_fp, total_fn = start
    chosen = np.zeros(len(candidate_order), dtype=np.int64)
    for row, candidates in enumerate(candidate_order):
        best_key = None
        best_pair = candidates[0]
        for pair in candidates:
            tp, fp, fn = (int(x) for x in pair_counts[row, pair])
            f_score = round(errant_scores(total_tp + tp, total_fp + fp, total_fn + fn, beta)[2], 4)
            key = (f_score, tp, -fp, -fn)
            if best_key is None or key > best_key:
                best_key, best_pair = key, pair
        chosen[row] = best_pair
        tp, fp, fn = (int(x) for x in pair_counts[row, best_pair])
        total_tp += tp
        total_fp += fp
        total_fn += fn
    return chosen


@dataclass
class ErrantCompare:
    """ERRANT ``compare_m2`` as a library object.

    mode: 'cs' (span correction, default), 'cse' (+ error type), 'ds' (span detection),
    'dt' (token detection). single / multi keep only single-token / multi-token edits;
    filter_types drops those error types; verbose keeps the per-sentence traces.
    """

    beta: float = 0.5
    mode: str = "cs"
    single: bool = False
    multi: bool = False
    filter_types: Sequence[str] = ()
    verbose: bool = False

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise InputError(f"unknown ERRANT mode {self.mode!r} (choose from {', '.join(MODES)})")
        self.filter_types = tuple(self.filter_types)
        self.beta = float(self.beta)

    @property
    def signature(self) -> str:
        parts = [f"ERRANT|mode:{self.mode}", f"beta:{self.beta:g}"]
        if self.single:
            parts.append("single")
        if self.multi:
            parts.append("multi")
        if self.filter_types:
            parts.append("filt:" + ",".join(self.filter_types))
        parts.append(f"version:{__version__}")
        return "|".join(parts)

    def edit_tables(self, block: Block) -> dict[int, EditTable]:
        """Per annotator (in order of first appearance), its edit keys -> error types."""
        edits = [(e.start, e.end, e.type, e.correction, e.annotator) for e in block.edits]
        if not edits:
            edits = [(-1, -1, NOOP, DELETION, 0)]
        tables: dict[int, EditTable] = {}
        detection = self.mode in ("dt", "ds")
        for start, end, error_type, correction, annotator in edits:
            table = tables.setdefault(annotator, {})
            if not detection and error_type == UNKNOWN_TYPE:
                continue
            n_correction_tokens = len(correction.split())
            if self.single and (end - start >= 2 or n_correction_tokens >= 2):
                continue
            if self.multi and end - start < 2 and n_correction_tokens < 2:
                continue
            if error_type in self.filter_types:
                continue
            for key in self._keys(start, end, error_type, correction):
                table.setdefault(key, []).append(error_type)
        return tables

    def _keys(self, start: int, end: int, error_type: str, correction: str) -> list[EditKey]:
        if self.mode == "dt":
            if start == -1:
                return [(start, start)]
            if start == end and start >= 0:
                return [(start, start + 1)]
            return [(token, token + 1) for token in range(start, end)]
        if self.mode == "ds":
            return [(start, end)]
        if self.mode == "cse":
            return [(start, end, error_type, correction)]
        return [(start, end, correction)]

    def compare(self, hyp_blocks: Sequence[Block], ref_blocks: Sequence[Block],
                hyp_name: str = "hypothesis", ref_name: str = "reference") -> ErrantResult:
        """Compare aligned hypothesis and reference blocks (one per sentence)."""
        if len(hyp_blocks) != len(ref_blocks):
            raise InputError(f"has {len(hyp_blocks)} sentences but the reference {ref_name} has "
                             f"{len(ref_blocks)}", hyp_name)
        sentence_tables = [(self.edit_tables(h), self.edit_tables(r)) for h, r in zip(hyp_blocks, ref_blocks)]
        pairs = sorted({(hyp_id, ref_id) for hyp_tables, ref_tables in sentence_tables
                        for hyp_id in hyp_tables for ref_id in ref_tables})
        pair_index = {pair: k for k, pair in enumerate(pairs)}
        n_sentences = len(sentence_tables)
        pair_counts = np.zeros((n_sentences, len(pairs), 3), dtype=np.int64)
        pair_available = np.zeros((n_sentences, len(pairs)), dtype=bool)
        candidate_order: list[list[int]] = []
        pair_categories: list[dict[int, dict[str, list[int]]]] = []
        for row, (hyp_tables, ref_tables) in enumerate(sentence_tables):
            order = []
            categories = {}
            for hyp_id, hyp_table in hyp_tables.items():
                for ref_id, ref_table in ref_tables.items():
                    k = pair_index[(hyp_id, ref_id)]
                    tp, fp, fn, cats = compare_tables(hyp_table, ref_table)
                    pair_counts[row, k] = (tp, fp, fn)
                    pair_available[row, k] = True
                    order.append(k)
                    categories[k] = cats
            candidate_order.append(order)
            pair_categories.append(categories)

        chosen = choose_pairs(pair_counts, candidate_order, self.beta)
        category_totals: dict[str, CategoryCounts] = {}
        for row, k in enumerate(chosen):
            for error_type, (tp, fp, fn) in pair_categories[row][int(k)].items():
                total = category_totals.setdefault(error_type, CategoryCounts())
                total.tp += tp
                total.fp += fp
                total.fn += fn
        chosen_counts = pair_counts[np.arange(n_sentences), chosen] if n_sentences else np.zeros((0, 3), np.int64)
        tp, fp, fn = (int(x) for x in chosen_counts.sum(axis=0))
        precision, recall, f_score = errant_scores(tp, fp, fn, self.beta)
        traces = []
        if self.verbose:
            traces = self._traces(hyp_blocks, sentence_tables, pairs, pair_counts, candidate_order, chosen,
                                  pair_categories)
        settings = {"mode": self.mode, "beta": self.beta, "single": self.single, "multi": self.multi,
                    "filter_types": list(self.filter_types)}
        return ErrantResult(tp, fp, fn, precision, recall, f_score, self.beta, self.mode, category_totals, pairs,
                            pair_counts, pair_available, candidate_order, chosen, settings, self.signature, traces)

    def _traces(self, hyp_blocks, sentence_tables, pairs, pair_counts, candidate_order, chosen,
                pair_categories) -> list[SentenceTrace]:
        traces = []
        total = np.zeros(3, dtype=np.int64)
        for row, (hyp_tables, ref_tables) in enumerate(sentence_tables):
            shown = []
            for k in candidate_order[row]:
                hyp_id, ref_id = pairs[k]
                counts = tuple(int(x) for x in pair_counts[row, k])
                global_counts = tuple(int(x) for x in total + pair_counts[row, k])
                shown.append(SentenceComparison(hyp_id, ref_id, _shown_edits(hyp_tables[hyp_id]),
                                                _shown_edits(ref_tables[ref_id]), counts, global_counts))
            k = int(chosen[row])
            traces.append(SentenceTrace(row, hyp_blocks[row].source, shown, pairs[k], pair_categories[row][k]))
            total += pair_counts[row, k]
        return traces


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


def _beta_label(beta: float) -> str:
    return "F" + str(beta)


def format_errant_report(result: ErrantResult, category_level: int | None = None) -> str:
    """The text ERRANT's compare_m2 prints: verbose traces (when kept), the optional category
    table, then the overall TP/FP/FN/Prec/Rec/F table."""
    lines: list[str] = []
    beta = result.beta
    for trace in result.traces:
        lines.extend(_trace_lines(trace, beta))
    title = MODE_TITLES[result.mode]
    if category_level:
        lines.append("")
        lines.append("{:=^66}".format(title))
        lines.append(" ".join(["Category".ljust(14), "TP".ljust(8), "FP".ljust(8), "FN".ljust(8), "P".ljust(8),
                               "R".ljust(8), _beta_label(beta)]))
        grouped = result.grouped_categories(category_level)
        for error_type in sorted(grouped):
            counts = grouped[error_type]
            p, r, f = counts.scores(beta)
            lines.append(" ".join([error_type.ljust(14), str(counts.tp).ljust(8), str(counts.fp).ljust(8),
                                   str(counts.fn).ljust(8), str(p).ljust(8), str(r).ljust(8), str(f)]))
    lines.append("")
    lines.append("{:=^46}".format(title))
    lines.append("\t".join(["TP", "FP", "FN", "Prec", "Rec", _beta_label(beta)]))
    lines.append("\t".join(map(str, [result.tp, result.fp, result.fn, *result.rounded()])))
    lines.append("{:=^46}".format(""))
    lines.append("")
    return "\n".join(lines) + "\n"


def _trace_lines(trace: SentenceTrace, beta: float) -> list[str]:
    rule = "{:-^40}".format("")
    lines = [rule, f"Original sentence {trace.index}: {trace.source}"]
    for pair in trace.pairs:
        tp, fp, fn = pair.counts
        local_p, local_r, local_f = rounded_scores(tp, fp, fn, beta)
        global_p, global_r, global_f = rounded_scores(*pair.global_counts, beta)
        lines.extend([
            rule,
            f"SENTENCE {trace.index} - HYP {pair.hyp_annotator} - REF {pair.ref_annotator}",
            f"HYPOTHESIS EDITS : {pair.hyp_edits!r}",
            f"REFERENCE EDITS  : {pair.ref_edits!r}",
            f"Local TP/FP/FN   : {tp} {fp} {fn}",
            f"Local P/R/F{beta}  : {local_p} {local_r} {local_f}",
            "Global TP/FP/FN  : " + " ".join(map(str, pair.global_counts)),
            f"Global P/R/F{beta}  : {global_p} {global_r} {global_f}",
        ])
    lines.append(rule)
    lines.append(f"^^ HYP {trace.chosen[0]}, REF {trace.chosen[1]} chosen for sentence {trace.index}")
    lines.append("Local results:")
    lines.extend(_right_aligned_table([["Category", "TP", "FP", "FN"]]
                                      + [[name, *counts] for name, counts in trace.categories.items()]))
    return lines


def _right_aligned_table(rows: list[list]) -> list[str]:
    """Columns right-aligned to their widest cell plus 3 spaces (ERRANT's local table)."""
    widths = [max(len(str(row[i])) for row in rows) + 3 for i in range(len(rows[0]))]
    return ["".join(str(cell).rjust(width) for cell, width in zip(row, widths)) for row in rows]


def compare_m2_files(hyp_path: str, ref_path: str, comparer: ErrantCompare | None = None) -> ErrantResult:
    """Read two M2 files and compare them (a convenience for the CLI and scripts)."""
    comparer = comparer or ErrantCompare()
    return comparer.compare(read_m2(hyp_path), read_m2(ref_path), hyp_path, ref_path)


def parse_filter_types(values: Iterable[str]) -> tuple[str, ...]:
    """Error types given to -filt (space separated values may come in one argument)."""
    return tuple(t for value in values for t in value.split())
