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
from typing import Any, Hashable, Iterable, Sequence

import numpy as np

from ...io.corpus import Corpus
from ...errors import InputError
from ...kinds import M2
from ..results import CorpusSums
from ..settings import Settings, choice, flag, parse_beta, parse_bool, parse_strings, setting, when_set
from ...core import fscore
from .base import CountsResult, RunningFMetric
from ...io.m2 import DELETION, NOOP_TYPE as NOOP, Block, Edit, blocks_name, check_blocks, read_m2

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


class ErrantStatistics:
    """Per-sentence statistics of an ERRANT-style comparison: ``rows`` (D, P, 5), the counts of
    every (hypothesis annotator, reference annotator) pair in trial order, as the M2 family's
    reducers read them (``numpy.asarray`` gives them), and ``details``, per sentence what the
    corpus result shows beside the counts: each pair's error categories, and with ``verbose``
    the edits and the source for ERRANT's trace. Chunks join by :meth:`joined`."""

    def __init__(self, rows: np.ndarray, details: list[_Sentence]) -> None:
        self.rows, self.details = rows, details

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return self.rows if dtype is None else self.rows.astype(dtype)

    def __len__(self) -> int:
        return len(self.rows)

    @property
    def shape(self) -> tuple[int, ...]:
        return self.rows.shape

    @classmethod
    def joined(cls, parts: Sequence["ErrantStatistics"], rows: np.ndarray) -> "ErrantStatistics":
        return cls(rows, [detail for part in parts for detail in part.details])


PAIR_BASE = 1 << 31
"""Candidate ids of ERRANT statistics encode (hypothesis annotator, reference annotator)."""


def pair_code(hyp_id: int, ref_id: int) -> int:
    return hyp_id * PAIR_BASE + ref_id


def pair_of(code: int) -> tuple[int, int]:
    return divmod(int(code), PAIR_BASE)


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

    def rounded(self) -> tuple[float, float, float]:
        """P, R, F as ERRANT prints them (4 decimals)."""
        return round(self.precision, 4), round(self.recall, 4), round(self.f, 4)

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

    def to_dict(self, scale: float = 1.0) -> dict[str, Any]:
        return {"metric": getattr(self.signature, "name", "ERRANT"), "tp": self.tp, "fp": self.fp, "fn": self.fn,
                "precision": scale * self.precision, "recall": scale * self.recall, "f": scale * self.f_score,
                "beta": self.beta,
                "categories": {k: [v.tp, v.fp, v.fn] for k, v in sorted(self.categories.items())},
                "settings": self.settings, "signature": self.signature}

    def to_json(self) -> str:
        """Scores, counts, categories, settings and signature as one JSON object."""
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=1)


def choose_pairs(pair_counts: np.ndarray, candidate_order: Sequence[Sequence[int]], beta: float,
                 start: tuple[int, int, int] = (0, 0, 0)) -> np.ndarray:
    """ERRANT's greedy choice, sentence by sentence in the given order: the pair maximizing the
    running corpus F (rounded to 4 decimals), ties by more TP, fewer FP, fewer FN, then first.
    Returns the chosen pair index per sentence."""
    pair_counts = np.asarray(pair_counts)
    available = np.zeros(pair_counts.shape[:2], dtype=bool)
    rank = np.full(pair_counts.shape[:2], pair_counts.shape[1], dtype=np.int64)
    for d, order in enumerate(candidate_order):
        available[d, list(order)] = True
        rank[d, list(order)] = np.arange(len(order))
    data = fscore.CandidateCounts(pair_counts, available, rank)
    return fscore.RunningChoice(fscore.ERRANT, beta).corpus(data, start)[0]


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
    sentence_average: bool = setting(False, "SentERRANT: the mean of the sentence P/R/F, each sentence against its "
                                     "best annotator", parse_bool, flags=("--sentence-average",))


@dataclass
class _Sentence:
    """One sentence's tables and its candidate pairs in trial order, with their counts."""

    hyp_tables: dict[int, EditTable]
    ref_tables: dict[int, EditTable]
    pairs: list[tuple[int, int]]
    counts: list[tuple[int, int, int]]
    categories: list[dict[str, list[int]]]
    source: str = ""


class ErrantCompare(RunningFMetric):
    """ERRANT ``compare_m2`` as a library object.

    mode: 'cs' (span correction, default), 'cse' (+ error type), 'ds' (span detection),
    'dt' (token detection). single / multi keep only single-token / multi-token edits;
    filter_types drops those error types; verbose keeps the per-sentence traces.
    Hypotheses are M2 blocks; the corpus's gold blocks are the reference.
    """

    name = "errant-m2"
    settings_class = ErrantSettings
    positional = ("beta", "mode")
    hypothesis_kind = M2
    rule = fscore.ERRANT
    label = "ERRANT"
    result_class = ErrantResult
    signature_order = ("mode", "beta")

    def __init__(self, *args: Any, verbose: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.verbose = bool(verbose)

    def sharing_key(self) -> Hashable:
        s = self.settings
        return ("errant-reference", s.mode, s.single, s.multi, s.filter_types)

    def prepare(self, corpus: Corpus, group: Sequence[Any] = ()) -> list[dict[int, EditTable]]:
        """The reference's edit tables, per sentence and annotator (with the sentences' tokens,
        which every hypothesis must annotate too)."""
        if corpus.gold is None:
            raise InputError("ERRANT comparison needs reference M2 annotations")
        return self.reference_tables(check_blocks(corpus.gold, corpus.name("gold")), corpus.name("gold"))

    def reference_tables(self, blocks: Sequence[Block], name: str) -> "ReferenceTables":
        """The edit tables of reference blocks, keeping their tokens and lines for the check
        that a hypothesis annotates the same sentences."""
        return ReferenceTables([self.edit_tables(block) for block in blocks], blocks, name)

    def edit_tables(self, block: Block) -> dict[int, EditTable]:
        """Per annotator (in order of first appearance), its edit keys -> error types."""
        edits = [(e.start, e.end, e.type, e.correction, e.annotator) for e in block.edits]
        if not edits:
            edits = [(-1, -1, NOOP, DELETION, 0)]
        tables: dict[int, EditTable] = {}
        s = self.settings
        detection = s.mode in ("dt", "ds")
        for start, end, error_type, correction, annotator in edits:
            table = tables.setdefault(annotator, {})
            if not detection and error_type == UNKNOWN_TYPE:
                continue
            n_correction_tokens = len(correction.split())
            if s.single and (end - start >= 2 or n_correction_tokens >= 2):
                continue
            if s.multi and end - start < 2 and n_correction_tokens < 2:
                continue
            if error_type in s.filter_types:
                continue
            for key in self._keys(start, end, error_type, correction):
                table.setdefault(key, []).append(error_type)
        return tables

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
        s = self.settings
        if edit.is_noop or edit.type == NOOP:
            return []
        if s.mode not in ("dt", "ds") and edit.type == UNKNOWN_TYPE:
            return []
        n_correction_tokens = len(edit.correction.split())
        if s.single and (edit.end - edit.start >= 2 or n_correction_tokens >= 2):
            return []
        if s.multi and edit.end - edit.start < 2 and n_correction_tokens < 2:
            return []
        if edit.type in s.filter_types:
            return []
        return self._keys(edit.start, edit.end, edit.type, edit.correction)

    def _keys(self, start: int, end: int, error_type: str, correction: str) -> list[EditKey]:
        mode = self.settings.mode
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

    def _sentences(self, reference: list[dict[int, EditTable]], hyp_blocks: Sequence[Block],
                   name: str, ref_name: str = "the reference") -> list[_Sentence]:
        hyp_blocks = check_blocks(hyp_blocks, name)
        if len(hyp_blocks) != len(reference):
            raise InputError(f"has {len(hyp_blocks)} sentences but {ref_name} has {len(reference)}", name)
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
            sentences.append(_Sentence(hyp_tables, ref_tables, pairs, counts, categories, block.source))
        return sentences

    @staticmethod
    def _rows(sentences: list[_Sentence]) -> np.ndarray:
        return fscore.candidates_from_lists([[(*c, pair_code(*p)) for p, c in zip(s.pairs, s.counts)]
                                             for s in sentences])

    def statistics(self, prepared: list[dict[int, EditTable]], hypothesis: Sequence[Block],
                   name: str | None = None) -> ErrantStatistics:
        """Per sentence and annotator pair (trial order): (TP, FP, FN) as rows (D, P, 5), with
        each pair's categories (and, with ``verbose``, what the trace shows)."""
        sentences = self._sentences(prepared, hypothesis, blocks_name(hypothesis, name))
        if not self.verbose:
            for sentence in sentences:
                sentence.hyp_tables = sentence.ref_tables = {}  # only the trace shows them
        return ErrantStatistics(self._rows(sentences), sentences)

    def join_statistics(self, parts: Sequence[Any]) -> Any:
        if parts and all(isinstance(part, ErrantStatistics) for part in parts):
            return ErrantStatistics.joined(parts, super().join_statistics([part.rows for part in parts]))
        return super().join_statistics(parts)

    def details(self, statistics: Any, sums: list[CorpusSums]) -> dict[str, Any]:
        """The M2 family's details; with the statistics' details, the error categories of the
        chosen pairs (and the traces, with ``verbose``)."""
        categories: dict[str, CategoryCounts] = {}
        traces: list[SentenceTrace] = []
        if isinstance(statistics, ErrantStatistics):
            self.add_details(categories, traces, statistics.details, sums[0].chosen)
        return {**super().details(statistics, sums), "categories": categories, "traces": traces}

    def compare(self, hyp_blocks: Sequence[Block], ref_blocks: Sequence[Block],
                hyp_name: str = "hypothesis", ref_name: str = "reference") -> ErrantResult:
        """Compare aligned hypothesis and reference blocks (one per sentence), with the error
        categories of the chosen pairs (and the traces, with ``verbose``)."""
        reference = self.reference_tables(check_blocks(ref_blocks, ref_name), ref_name)
        sentences = self._sentences(reference, hyp_blocks, hyp_name, f"the reference {ref_name}")
        return self.score(ErrantStatistics(self._rows(sentences), sentences))

    def add_details(self, categories: dict[str, CategoryCounts], traces: list[SentenceTrace],
                    sentences: list[_Sentence], chosen: np.ndarray) -> None:
        """Add the error categories of the chosen pairs to ``categories`` (and their traces to
        ``traces``, with ``verbose``)."""
        for sentence, k in zip(sentences, chosen):
            for error_type, (tp, fp, fn) in sentence.categories[int(k)].items():
                total = categories.setdefault(error_type, CategoryCounts())
                total.tp += tp
                total.fp += fp
                total.fn += fn
        if self.verbose:
            traces.extend(self._traces(sentences, chosen))

    def _traces(self, sentences: list[_Sentence], chosen: np.ndarray) -> list[SentenceTrace]:
        traces = []
        total = np.zeros(3, dtype=np.int64)
        for row, sentence in enumerate(sentences):
            shown = []
            for (hyp_id, ref_id), counts in zip(sentence.pairs, sentence.counts):
                global_counts = tuple(int(x) for x in total + counts)
                shown.append(SentenceComparison(hyp_id, ref_id, _shown_edits(sentence.hyp_tables[hyp_id]),
                                                _shown_edits(sentence.ref_tables[ref_id]), counts, global_counts))
            k = int(chosen[row])
            traces.append(SentenceTrace(row, sentence.source, shown, sentence.pairs[k], sentence.categories[k]))
            total += sentence.counts[k]
        return traces

    def settings_dict(self) -> dict:
        s = self.settings
        return {"mode": s.mode, "beta": s.beta, "single": s.single, "multi": s.multi,
                "filter_types": list(s.filter_types), "sentence_average": s.sentence_average}

    def column_names(self) -> list[str]:
        s = self.settings
        tokens = [f"F{s.beta:g}"] + ([s.mode] if s.mode != "cs" else [])
        tokens += [word for word, on in (("single", s.single), ("multi", s.multi)) if on]
        return [" ".join(tokens + (["filt:" + ",".join(s.filter_types)] if s.filter_types else []))]


class ReferenceTables(list):
    """A reference's edit tables (one dict per sentence), with its sentences' tokens and lines:
    hypothesis blocks are compared by position, so a hypothesis M2 of other sentences (or the
    same ones in another order) would give numbers; :meth:`check` refuses it instead."""

    def __init__(self, tables: Iterable[dict[int, EditTable]], blocks: Sequence[Block], name: str) -> None:
        super().__init__(tables)
        self.tokens = [block.source.split() for block in blocks]
        self.lines = [block.line for block in blocks]
        self.name = name

    def check(self, hyp_blocks: Sequence[Block], hyp_name: str) -> None:
        """The hypothesis blocks annotate the reference's sentences, in order: one InputError
        naming the hypothesis file and the line of the first block that differs."""
        for k, (block, tokens) in enumerate(zip(hyp_blocks, self.tokens)):
            if block.source.split() != tokens:
                line = f" (line {self.lines[k]})" if self.lines[k] else ""
                raise InputError(f"this sentence differs from the reference's sentence at the same position in "
                                 f"{self.name}{line}: both M2 files must annotate the same sentences in the same order",
                                 hyp_name, block.line or None)

    def __reduce__(self):
        return (_reference_tables, (list(self), self.tokens, self.lines, self.name))


def _reference_tables(tables: list, tokens: list, lines: list, name: str) -> ReferenceTables:
    """ReferenceTables from its parts (unpickling)."""
    made = ReferenceTables(tables, [], name)
    made.tokens, made.lines = tokens, lines
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


def compare_m2_files(hyp_path: str, ref_path: str, comparer: ErrantCompare | None = None) -> ErrantResult:
    """Read two M2 files and compare them (a convenience for the CLI and scripts)."""
    comparer = comparer or ErrantCompare()
    return comparer.compare(read_m2(hyp_path), read_m2(ref_path), hyp_path, ref_path)


def parse_filter_types(values: Iterable[str]) -> tuple[str, ...]:
    """Error types given to -filt (space separated values may come in one argument)."""
    return tuple(t for value in values for t in value.split())
