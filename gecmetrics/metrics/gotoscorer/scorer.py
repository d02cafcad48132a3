"""GoToScorer: chunk-level F weighted by correction difficulty (Gotou et al., COLING 2020).

Reproduces github gotutiyan/GTS ``gotoscorer.py`` (commit 5d120c3) on ERRANT M2 files: gold
chunks from one annotator of the reference M2 (``-ref_id``), system chunks from each system's
M2 (the original's ``-hyp`` file holds systems as annotators 0, 1, ... up to the first id with no
line), a chunk's weight ``a - (n + b) / (N + c)`` where n of N systems got it right (defaults
1, 0, 0: the share of systems that fail it), or n and N read from a weight file.

Statistics: for one system, an int64 array of shape (D, 5, N + 1): row d counts the gold chunks
of sentence d by outcome (TP, FP, FN, TN, and ALL = every gold chunk) and by how many systems got
them right (the *level* n = 0..N). Rows add up over sentences; the corpus's weighted TP is
``sum_n TP[n] * w(n)`` of the column sums (likewise FP, FN, TN and the total weight ALL), so
corpus scores, sentence scores and resampled scores are all sums of rows then one dot product.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Iterable, Sequence

import numpy as np

from ...core.edits.blocks import same_sentence, the_reference
from ...core.offsets import joined_offsets
from ...errors import InputError, plural
from ...io.gts_weights import WeightTable, parse_weight_file, read_weight_file  # noqa: F401 (re-exported)
from ...io.m2 import Block, check_blocks
from .chunking import SKIPPED_TYPES, Chunks, EditArrays, SentenceTokens, Vocabulary, build_chunks, chunk_edits
from .judging import ALL, FN, FP, TN, TP, RowJudgments, judge_rows, outcome_flags

CATEGORY_MODES = (1, 2, 3)
BATCH_ROWS = 2048
"""Rows (distinct sentence versions) judged per batch."""
MAX_LEVEL_WEIGHT = 1e100
"""Largest size of a chunk's weight ``a - (n + b) / (N + c)``: a weight times a chunk count must
stay a finite double (a = 1e308 overflowed the weighted counts and printed nan)."""


# --------------------------------------------------------------------------- gold and systems


@dataclass(frozen=True)
class GoldChunks:
    """The gold chunks of a corpus (one annotator of a reference M2), shared by every system."""

    name: str
    annotator: int
    tokens: SentenceTokens
    chunks: Chunks
    types: tuple[str, ...]
    """Error type of each gold edit, indexed by ``chunks.edit``."""
    lines: tuple[int, ...]
    """Line of each sentence's ``S`` line in the reference file (0 when built in code)."""
    vocabulary: Vocabulary

    def __len__(self) -> int:
        return len(self.tokens)

    @property
    def chunk_counts(self) -> np.ndarray:
        """Gold chunks per sentence."""
        return np.diff(self.chunks.offsets)


def read_gold(blocks: Sequence[Block], annotator: int = 0, name: str = "reference", required: bool = True
              ) -> GoldChunks:
    """The gold chunks of ``annotator`` (the original's ``-ref_id``) in reference M2 blocks.
    ``required``: a file without any line of that annotator is an error (False: a part of a
    corpus may have none, its sentences then have no gold edit, as the original reads them)."""
    blocks = check_blocks(blocks, name)
    _check_annotator(annotator, "ref_id")
    if required and not any(edit.annotator == annotator for block in blocks for edit in block.edits):
        raise InputError(f"has no edit line of annotator {annotator} (-ref_id): GoToScorer needs one reference",
                         name)
    vocabulary = Vocabulary()
    tokens = SentenceTokens.from_blocks(blocks, vocabulary)
    per_sentence, types = [], []
    for block in blocks:
        kept = chunk_edits(block.edits_of(annotator))
        per_sentence.append([(edit.start, edit.end, vocabulary.id(edit.correction)) for edit in kept])
        types.extend(edit.type for edit in kept)
    chunks = build_chunks(tokens.lengths, tokens.offsets, tokens.ids, EditArrays.from_lists(per_sentence))
    return GoldChunks(name, annotator, tokens, chunks, tuple(types), tuple(block.line for block in blocks),
                      vocabulary)


@dataclass(frozen=True)
class SystemEdits:
    """One system's chunk-making edits per sentence: (start, end, text id) in file order."""

    name: str
    edits: tuple[tuple[tuple[int, int, int], ...], ...]


def system_count(annotator_ids: Iterable[int]) -> int:
    """How many systems a hypothesis M2 with these annotator ids holds, as the original counts
    them: ids 0, 1, ... up to the first id without any line."""
    present = set(annotator_ids)
    count = 0
    while count in present:
        count += 1
    return count


def system_annotators(blocks: Sequence[Block], name: str = "hypothesis") -> list[int]:
    """The systems of a hypothesis M2 as the original finds them: annotator ids 0, 1, ... up to
    the first id without any line (``errant_parallel -cor SYS1 SYS2 ...`` writes such files); a
    line of an id beyond them is refused (:func:`check_no_id_beyond`)."""
    first_seen: dict[int, int | None] = {}
    for block in check_blocks(blocks, name):
        note_first_lines(block, first_seen)
    count = system_count(first_seen)
    if count == 0:
        raise InputError("has no edit line of annotator 0: no system to score (an ERRANT M2 file has a line, "
                         "maybe 'noop', for every sentence and system)", name)
    check_no_id_beyond(first_seen, count, name)
    return list(range(count))


def note_first_lines(block: Block, first_seen: dict[int, int | None]) -> None:
    """Each annotator's first edit line, in file order, into ``first_seen`` (for
    :func:`check_no_id_beyond`)."""
    for index, edit in enumerate(block.edits):
        if edit.annotator not in first_seen:
            first_seen[edit.annotator] = block.edit_line(index)


def check_no_id_beyond(first_seen: dict[int, int | None], count: int, name: str) -> None:
    """Refuse an edit line of an annotator id at or past ``count``, the file's systems (ids 0, 1,
    ... up to the first without a line): the original reads none of them, so its edits would be
    left out without a word (a mistyped id changed the numbers of every system scored with it).
    ``first_seen``: each id's first edit line, in file order."""
    beyond = next((annotator for annotator in first_seen if annotator >= count), None)
    if beyond is not None:
        systems = {1: "annotator 0", 2: "annotators 0 and 1"}.get(count, f"annotators 0 to {count - 1}")
        raise InputError(f"annotator {beyond} beyond the file's {plural(count, 'system')} ({systems}): GoToScorer "
                         "reads the systems as annotators 0, 1, ... up to the first id without a line, and the "
                         "original would leave this line out", name, first_seen[beyond])


def read_system(blocks: Sequence[Block], gold: GoldChunks, annotator: int = 0, name: str = "hypothesis"
                ) -> SystemEdits:
    """One system (``annotator`` of a hypothesis M2) on the gold's sentences; a different number
    of sentences or a different source line is an InputError naming the file and line."""
    blocks = check_blocks(blocks, name)
    _check_gold(gold)
    _check_annotator(annotator, "annotator")
    if len(blocks) != len(gold):
        raise InputError(f"has {plural(len(blocks), 'sentence')} but {the_reference(gold.name)} has {len(gold)}", name)
    text_id, sources = gold.vocabulary.id, gold.tokens.sources
    edits = []
    for k, block in enumerate(blocks):
        if not same_sentence(block.source, sources[k]):
            raise InputError(f"sentence {k + 1} differs from the reference's ({gold.name}, line {gold.lines[k]})",
                             name, block.line or None)
        edits.append(tuple((edit.start, edit.end, text_id(edit.correction))
                           for edit in chunk_edits(block.edits_of(annotator))))
    return SystemEdits(name, tuple(edits))


def read_systems(blocks: Iterable[Block], gold: GoldChunks, name: str = "hypothesis",
                 names: Sequence[str] | None = None, n_systems: int | None = None) -> list[SystemEdits]:
    """Every system of a hypothesis M2 (annotators 0, 1, ... up to the first id without any
    line; a line of an id beyond them is refused, :func:`check_no_id_beyond`), named ``names``
    or NAME:k, in one pass over the blocks (a list, or :func:`~gecmetrics.io.m2.iter_m2_blocks`
    of a file, which keeps no block). ``n_systems``: the number of systems found in the whole
    file when ``blocks`` are a part of it (a system may have no line in a part)."""
    if isinstance(blocks, (str, bytes)) or not isinstance(blocks, Iterable):
        raise InputError(f"expected M2 blocks (gecmetrics.metrics.m2.read_m2), got {type(blocks).__name__}", name)
    _check_gold(gold)
    text_id, sources = gold.vocabulary.id, gold.tokens.sources
    per_annotator: dict[int, list[tuple]] = {}
    first_seen: dict[int, int | None] = {}  # each annotator's first edit line, in file order
    count = 0
    for k, block in enumerate(blocks):
        if not isinstance(block, Block):
            raise InputError(f"expected M2 blocks (gecmetrics.metrics.m2.read_m2), got {type(block).__name__} at sentence "
                             f"{k + 1}", name)
        if k >= len(sources) or not same_sentence(block.source, sources[k]):
            if k >= len(sources):
                raise InputError(f"has more sentences than {the_reference(gold.name)} ({len(gold)})", name,
                                 block.line or None)
            raise InputError(f"sentence {k + 1} differs from the reference's ({gold.name}, line {gold.lines[k]})",
                             name, block.line or None)
        note_first_lines(block, first_seen)
        edits: dict[int, list[tuple[int, int, int]]] = {}
        for edit in block.edits:
            if edit.type not in SKIPPED_TYPES and not edit.is_noop:
                edits.setdefault(edit.annotator, []).append((edit.start, edit.end, text_id(edit.correction)))
        for annotator in edits.keys() - per_annotator.keys():
            per_annotator[annotator] = [()] * k
        for annotator, sentences in per_annotator.items():
            sentences.append(tuple(edits.get(annotator, ())))
        count = k + 1
    if count != len(gold):
        raise InputError(f"has {plural(count, 'sentence')} but {the_reference(gold.name)} has {len(gold)}", name)
    if n_systems is None:
        n_systems = system_count(first_seen)
    if n_systems == 0:
        raise InputError("has no edit line of annotator 0: no system to score (an ERRANT M2 file has a line, "
                         "maybe 'noop', for every sentence and system)", name)
    check_no_id_beyond(first_seen, n_systems, name)
    if names is not None and len(names) != n_systems:
        raise InputError(f"has {plural(n_systems, 'system')} but {plural(len(names), 'name')} were given", name)
    return [SystemEdits(names[k] if names is not None else f"{name}:{k}",
                        tuple(per_annotator.get(k, [()] * count))) for k in range(n_systems)]


def _check_gold(gold: Any) -> None:
    if not isinstance(gold, GoldChunks):
        raise InputError(f"expected the gold chunks of read_gold, got {type(gold).__name__}")


def _check_annotator(value: Any, what: str) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise InputError(f"{what} must be a non-negative integer, got {value!r}")


# --------------------------------------------------------------------------- judging


@dataclass(frozen=True)
class Judgments:
    """Every system judged on every gold chunk, each distinct (sentence, edits) once."""

    gold: GoldChunks
    names: tuple[str, ...]
    row_of: np.ndarray
    """(systems, D): the judged row of each system's sentence."""
    row_sentence: np.ndarray
    pairs: RowJudgments
    flags: np.ndarray
    """(pairs, 4) TP, FP, FN, TN flags of each (row, gold chunk) pair."""
    _cache: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def n_systems(self) -> int:
        return len(self.names)

    def correct_counts(self) -> np.ndarray:
        """Per gold chunk, how many systems got it right (the original's ``n_correct``)."""
        uses = np.bincount(self.row_of.reshape(-1), minlength=len(self.row_sentence))
        pair_rows = np.repeat(np.arange(len(self.row_sentence)), np.diff(self.pairs.offsets))
        weights = (uses[pair_rows] * self.pairs.correct).astype(np.float64)
        return np.bincount(self.pairs.gold, weights, minlength=len(self.gold.chunks)).astype(np.int64)

    def outcomes(self, system: int) -> np.ndarray:
        """(gold chunks, 4) TP, FP, FN, TN flags of one system, in the gold chunks' order
        (sentence after sentence): the order in which the original adds up the weights."""
        starts = self.pairs.offsets[self.row_of[system]]
        counts = self.pairs.offsets[self.row_of[system] + 1] - starts
        before = np.cumsum(counts) - counts
        return self.flags[np.repeat(starts - before, counts) + np.arange(int(counts.sum()), dtype=np.int64)]

    def statistics(self, system: int, levels: np.ndarray, n_levels: int) -> np.ndarray:
        """(D, 5, n_levels) counts of one system (see the module docstring); ``levels`` gives
        each gold chunk's level."""
        row_counts = self._row_counts(levels, n_levels)
        return row_counts[self.row_of[system]]

    def _row_counts(self, levels: np.ndarray, n_levels: int) -> np.ndarray:
        key = (n_levels, levels.tobytes())
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        n_rows = len(self.row_sentence)
        pair_rows = np.repeat(np.arange(n_rows, dtype=np.int64), np.diff(self.pairs.offsets))
        pair_levels = levels[self.pairs.gold]
        counts = np.zeros((n_rows, 5, n_levels), dtype=np.int64)
        for outcome in (TP, FP, FN, TN):
            chosen = self.flags[:, outcome]
            counts[:, outcome, :] = np.bincount(pair_rows[chosen] * n_levels + pair_levels[chosen],
                                                minlength=n_rows * n_levels).reshape(n_rows, n_levels)
        counts[:, ALL, :] = np.bincount(pair_rows * n_levels + pair_levels,
                                        minlength=n_rows * n_levels).reshape(n_rows, n_levels)
        self._cache[key] = counts
        return counts


def judge(gold: GoldChunks, systems: Sequence[SystemEdits]) -> Judgments:
    """Judge every system against the gold chunks; rows shared by systems are judged once."""
    _check_gold(gold)
    if isinstance(systems, SystemEdits) or not systems:
        raise InputError("no system to score")
    for system in systems:
        if not isinstance(system, SystemEdits) or len(system.edits) != len(gold):
            raise InputError("expected the systems' edits from read_system on the same reference",
                             getattr(system, "name", None))
    row_ids: dict[tuple[int, tuple], int] = {}
    row_sentence: list[int] = []
    row_edits: list[tuple] = []
    row_of = np.empty((len(systems), len(gold)), dtype=np.int64)
    for s, system in enumerate(systems):
        for k, edits in enumerate(system.edits):
            key = (k, edits)
            row = row_ids.get(key)
            if row is None:
                row = row_ids[key] = len(row_sentence)
                row_sentence.append(k)
                row_edits.append(edits)
            row_of[s, k] = row
    tokens = gold.tokens
    sentences = np.asarray(row_sentence, dtype=np.int64)
    parts = []
    for lo in range(0, len(row_edits), BATCH_ROWS):  # bounded temporaries, cache-sized work
        hi = min(lo + BATCH_ROWS, len(row_edits))
        parts.append(judge_rows(gold.chunks, tokens.lengths, tokens.offsets, tokens.ids, sentences[lo:hi],
                                EditArrays.from_lists(row_edits[lo:hi])))
    pairs = RowJudgments(np.concatenate([part.gold for part in parts]),
                         np.concatenate([part.correct for part in parts]),
                         np.concatenate([part.tried for part in parts]),
                         joined_offsets([part.offsets for part in parts]))
    flags = outcome_flags(pairs.correct, pairs.tried, gold.chunks.modified[pairs.gold])
    return Judgments(gold, tuple(system.name for system in systems), row_of, sentences, pairs, flags)


# --------------------------------------------------------------------------- weights


def check_table(table: WeightTable, gold: GoldChunks) -> None:
    """A weight table must have one line per sentence of ``gold`` and one count (0..N) per gold
    chunk: one InputError naming the table's file (and line) otherwise."""
    if len(table.offsets) - 1 != len(gold):
        raise InputError(f"has {plural(len(table.offsets) - 1, 'sentence line')} but {the_reference(gold.name)} has "
                         f"{plural(len(gold), 'sentence')}", table.name)
    if len(table.correct) and (int(table.correct.min()) < 0 or int(table.correct.max()) > table.n_systems):
        raise InputError(f"has counts outside 0..{table.n_systems} (the number of systems)", table.name)
    check_chunk_counts(table, gold)


def check_chunk_counts(table: WeightTable, gold: GoldChunks, rows: Sequence[int] | None = None) -> None:
    """Each line of a weight table has one count per gold chunk of its sentence; ``rows``: the
    sentences of the file the table's lines are (default 0, 1, ...; messages give the file's lines)."""
    counts, expected = np.diff(table.offsets), gold.chunk_counts
    differing = np.flatnonzero(counts != expected)
    if len(differing):
        k = int(differing[0])
        row = k if rows is None else int(rows[k])
        raise InputError(f"has {counts[k]} counts for sentence {row + 1} but {the_reference(gold.name)} makes "
                         f"{expected[k]} chunks of it (weights made with another reference or ref_id?)",
                         table.name, row + 2)


def sentence_table(whole: WeightTable, gold: GoldChunks, rows: Sequence[int]) -> WeightTable:
    """The lines of a weight file for the sentences ``rows`` of the whole corpus (a chunk's, or
    edit attribution's candidates, several of one sentence: ``Corpus.sentence_rows``), checked
    against ``gold``, the gold chunks of the same sentences."""
    table = whole.select(rows)
    check_chunk_counts(table, gold, rows)
    return table


def weight_table(judgments: Judgments) -> WeightTable:
    """The weight table of the judged systems (what ``-gen_w_file`` writes)."""
    return WeightTable(judgments.n_systems, judgments.correct_counts(), judgments.gold.chunks.offsets.copy())


def level_weights(n_systems: int, a: float = 1.0, b: float = 0.0, c: float = 0.0) -> np.ndarray:
    """Weight of a chunk that n of N systems got right, for n = 0..N: a - (n + b) / (N + c)."""
    for label, value in (("a", a), ("b", b), ("c", c)):
        if isinstance(value, bool) or not isinstance(value, (int, float, np.floating, np.integer)) \
                or not math.isfinite(value):
            raise InputError(f"weight parameter {label} must be a finite number, got {value!r}")
    if n_systems + c == 0:
        raise InputError(f"weight parameters: N + c is 0 (N = {n_systems} systems, c = {c:g})")
    with np.errstate(over="ignore"):
        weights = float(a) - (np.arange(n_systems + 1, dtype=np.float64) + float(b)) / (n_systems + float(c))
    too_large = np.flatnonzero(~(np.abs(weights) <= MAX_LEVEL_WEIGHT))
    if len(too_large):
        n = int(too_large[0])
        raise InputError(f"weight parameters a = {a:g}, b = {b:g}, c = {c:g} give the chunks that {n} of {n_systems} "
                         f"systems got right the weight {weights[n]:g}: a weight must be at most {MAX_LEVEL_WEIGHT:g} in size "
                         f"(gecmetrics.metrics.gotoscorer.scorer.MAX_LEVEL_WEIGHT)")
    return weights


def weight_note(n_systems: int, a: float = 1.0, b: float = 0.0, c: float = 0.0) -> str | None:
    """The line a run prints when the weight parameters give the chunks that 1 to N systems got
    right no weight (one system with the defaults: 1 - 1/1 = 0, so every true positive counts 0
    and P, R and F are 0 whatever the system), or give a level a weight below 0 (P, R, F and
    accuracy then leave 0-100: ``-a 0.4`` on two systems: F0.5 500.00). The original scores
    either way, and so do we, digit for digit. None otherwise (a weight the parameters make 0 may
    come out a rounding error below it, as in the original)."""
    weights = level_weights(n_systems, a, b, c)
    parameters = f"weight parameters a = {a:g}, b = {b:g}, c = {c:g}"
    if n_systems and np.all(np.abs(weights[1:]) <= 1e-9):
        return (f"gecmetric: warning: GoToScorer: {parameters} on {n_systems} system{'s' if n_systems > 1 else ''} "
                "give every chunk a system got right the weight 0: true positives count 0, so P, R and F are 0 "
                "whatever the system (the weights need several systems' outputs, -hyp, or a weight file, -w_file)")
    negative = np.flatnonzero(weights < -1e-9)
    if not len(negative):
        return None
    n = int(negative[0])
    return (f"gecmetric: warning: GoToScorer: {parameters} give the chunks that "
            f"{n} of {n_systems} systems got right the weight {weights[n]:g}: with a weight below 0, P, R, F and "
            f"accuracy can leave 0-100 (the original's numbers, printed as it computes them)")


# --------------------------------------------------------------------------- scores


@dataclass(frozen=True)
class GoToScores:
    """Weighted counts and scores, with the original's zero-division rules (0)."""

    tp: float
    fp: float
    fn: float
    tn: float
    total: float
    precision: float
    recall: float
    f: float
    f05: float
    accuracy: float

    def as_dict(self) -> dict[str, float]:
        return {name: getattr(self, name) for name in ("precision", "recall", "f", "f05", "accuracy", "tp", "fp",
                                                       "fn", "tn", "total")}


def scores_from_sums(sums: np.ndarray, weights: np.ndarray | None) -> GoToScores:
    """Scores of summed statistics rows (5, N + 1): weighted by ``weights`` per level, or
    every chunk 1 when None (the original's ``-no_weight``). The weighted counts are count x
    weight per level: equal to the original's running sums up to the last bits of a double
    (:func:`ordered_scores` adds them up as it does)."""
    sums = np.asarray(sums)
    totals = sums.sum(axis=-1) if weights is None else sums @ np.asarray(weights, dtype=np.float64)
    return scores_from_totals(*(float(totals[k]) for k in (TP, FP, FN, TN, ALL)))


def ordered_scores(outcomes: np.ndarray, levels: np.ndarray, weights: np.ndarray | None) -> GoToScores:
    """Scores of one system's (gold chunks, 4) TP/FP/FN/TN flags in the gold chunks' order
    (:meth:`Judgments.outcomes`), each chunk weighing ``weights[levels[chunk]]`` (None: 1), its
    weights added up one chunk after the other as the original does (GTS ``update_scores``):
    float addition is not associative, and the last bits decide how a score that is exactly
    half-way between two printed decimals (11/32 = 0.34375 at 4 decimals) is printed, and what
    a sum that should cancel to 0 (negative weights) comes to."""
    outcomes = np.asarray(outcomes, dtype=bool)
    chunk_weights = np.ones(len(outcomes)) if weights is None else np.asarray(weights, dtype=np.float64)[levels]
    if len(chunk_weights) != len(outcomes):
        raise InputError(f"{len(outcomes)} outcomes but {len(chunk_weights)} chunk levels")

    def running_sum(chosen: np.ndarray) -> float:
        added = chunk_weights[chosen]
        return float(np.add.accumulate(added)[-1]) if len(added) else 0.0

    totals = [running_sum(outcomes[:, k]) for k in (TP, FP, FN, TN)]
    return scores_from_totals(*totals, running_sum(np.ones(len(outcomes), dtype=bool)))


def scores_from_totals(tp: float, fp: float, fn: float, tn: float, total: float) -> GoToScores:
    """Scores of weighted counts, 0 where a denominator is 0 (the original's rules)."""
    precision = tp / (tp + fp) if tp + fp != 0 else 0.0
    recall = tp / (tp + fn) if tp + fn != 0 else 0.0
    f = 2 * precision * recall / (precision + recall) if precision + recall != 0 else 0.0
    f05 = 1.25 * precision * recall / (0.25 * precision + recall) if 0.25 * precision + recall != 0 else 0.0
    accuracy = (tp + tn) / total if total != 0 else 0.0
    return GoToScores(tp, fp, fn, tn, total, precision, recall, f, f05, accuracy)


def sentence_scores(statistics: np.ndarray, weights: np.ndarray | None) -> list[GoToScores]:
    """Scores of each sentence's own row."""
    return [scores_from_sums(row, weights) for row in statistics]


# --------------------------------------------------------------------------- difficulty


@dataclass(frozen=True)
class Difficulty:
    """One error category: mean and sample standard deviation of its gold edits' weights."""

    category: str
    mean: float
    std: float
    count: int


def category_of(error_type: str, mode: int) -> str:
    """The original's (and ERRANT's) -cat 1/2/3 grouping of an error type."""
    if mode == 1:
        return error_type.split(":")[0]
    if mode == 2:
        return ":".join(error_type.split(":")[1:])
    return error_type


def difficulty_table(gold: GoldChunks, table: WeightTable, weights: np.ndarray, mode: int = 3) -> list[Difficulty]:
    """The original's ``-cat`` table: per category of gold edits (first seen first), the mean and
    standard deviation of their weights, sorted by mean, highest first (stable). Means are exact
    (as ``statistics.mean``), so equal means keep the original's order."""
    return difficulty_rows(difficulty_counts(gold, table, mode), weights)


def difficulty_counts(gold: GoldChunks, table: WeightTable, mode: int = 3) -> dict[str, np.ndarray]:
    """Per category of gold edits (first seen first), how many of its edit chunks n systems got
    right (n = 0..N): what :func:`difficulty_rows` needs, and adds up over parts of a corpus."""
    if mode not in CATEGORY_MODES:
        raise InputError(f"-cat must be 1, 2 or 3, got {mode!r}")
    check_table(table, gold)
    chunks = gold.chunks
    edit_chunks = np.flatnonzero(chunks.modified)
    names: dict[str, int] = {}
    category = np.fromiter((names.setdefault(category_of(gold.types[e], mode), len(names))
                            for e in chunks.edit[edit_chunks].tolist()), dtype=np.int64, count=len(edit_chunks))
    n_levels = table.n_systems + 1
    counts = np.bincount(category * n_levels + table.correct[edit_chunks],
                         minlength=len(names) * n_levels).reshape(len(names), n_levels)
    return {name: counts[k] for name, k in names.items()}


def difficulty_rows(counts: dict[str, np.ndarray], weights: np.ndarray) -> list[Difficulty]:
    """The ``-cat`` rows of per-category level counts (:func:`difficulty_counts`): mean and
    sample standard deviation of the weights, highest mean first (stable)."""
    exact = [Fraction(float(w)) for w in weights]
    rows = []
    for name, per_level in counts.items():
        used = [(int(c), exact[level]) for level, c in enumerate(per_level.tolist()) if c]
        n = sum(c for c, _ in used)
        mean = sum(c * w for c, w in used) / n
        std = math.sqrt(float(sum(c * (w - mean) ** 2 for c, w in used) / (n - 1))) if n > 1 else 0.0
        rows.append(Difficulty(name, float(mean), std, n))
    return sorted(rows, key=lambda row: row.mean, reverse=True)


@dataclass(frozen=True)
class SentenceDifficulty:
    """How hard each sentence's gold edits are: the weight of every gold edit's chunk (``edit``,
    in :func:`read_gold`'s order: sentence after sentence, file order, noop/UNK/Um left out),
    and per sentence their mean (``sentence``, NaN for a sentence without a gold edit) and
    number (``count``)."""

    edit: np.ndarray
    sentence: np.ndarray
    count: np.ndarray


def sentence_difficulty(gold: GoldChunks, table: WeightTable, weights: np.ndarray) -> SentenceDifficulty:
    """The weights ``weights[n]`` of the gold edit chunks that n systems got right (the weights
    behind :func:`difficulty_table`), per gold edit and averaged per sentence."""
    check_table(table, gold)
    chunks = gold.chunks
    weights = np.asarray(weights, dtype=np.float64)
    edit_chunks = np.flatnonzero(chunks.modified)
    chunk_weight = weights[table.correct[edit_chunks]]
    per_edit = np.full(len(gold.types), np.nan)
    per_edit[chunks.edit[edit_chunks]] = chunk_weight
    sentences = len(gold)
    count = np.bincount(chunks.row[edit_chunks], minlength=sentences)
    total = np.bincount(chunks.row[edit_chunks], chunk_weight, minlength=sentences)
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = np.where(count > 0, total / np.maximum(count, 1), np.nan)
    return SentenceDifficulty(per_edit, mean, count)


def format_difficulty(rows: Sequence[Difficulty]) -> str:
    """The table as the original prints it."""
    lines = ["----- Category Difficulty -----", "{:10}\tAve.\tStd.\tFreq.".format("Category")]
    lines.extend("{:10}\t{:.2f}\t{:.2f}\t{}".format(row.category, row.mean, row.std, row.count) for row in rows)
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- one call


@dataclass(frozen=True)
class GoToRun:
    """Systems scored together: their judgments, the weight table used and each one's scores."""

    judgments: Judgments
    weights: WeightTable
    level_weights: np.ndarray
    weighted: bool
    statistics: tuple[np.ndarray, ...]
    scores: tuple[GoToScores, ...]

    @property
    def names(self) -> tuple[str, ...]:
        return self.judgments.names

    def difficulty(self, mode: int = 3) -> list[Difficulty]:
        return difficulty_table(self.judgments.gold, self.weights, self.level_weights, mode)


def score_systems(gold: GoldChunks, systems: Sequence[SystemEdits], weights: WeightTable | None = None,
                  a: float = 1.0, b: float = 0.0, c: float = 0.0, no_weight: bool = False) -> GoToRun:
    """Score systems as the original does: weights from these systems, or from ``weights``
    (a weight file, ``-w_file``); ``no_weight``: every chunk weighs 1."""
    if weights is not None and not isinstance(weights, WeightTable):
        raise InputError(f"weights must be a WeightTable (read_weight_file), got {type(weights).__name__}")
    judgments = judge(gold, systems)
    table = weight_table(judgments) if weights is None else weights
    check_table(table, gold)
    per_level = level_weights(table.n_systems, a, b, c)
    statistics = tuple(judgments.statistics(s, table.correct, table.n_systems + 1) for s in range(len(systems)))
    used = None if no_weight else per_level
    scores = tuple(ordered_scores(judgments.outcomes(s), table.correct, used) for s in range(len(systems)))
    return GoToRun(judgments, table, per_level, not no_weight, statistics, scores)
