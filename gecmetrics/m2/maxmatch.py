"""MaxMatch (M2) scorer: a tokenized system output scored against gold M2 edits (SPEC 4.4).

Reproduces the official NUS m2scorer (current code): per sentence and annotator, the system's
edit sequence is the best path of the edit lattice (:mod:`gecmetrics.m2.lattice`); the
annotator kept for a sentence is the one maximizing the running corpus F-score. The counts of
every annotator are kept per sentence (shape (D, A_max, 3)), so a significance test can
resample sentences and redo the annotator choice without recomputing edits.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from .. import __version__
from ..errors import InputError
from .format import Block
from .lattice import DEFAULT_ARC_BUDGET, GoldEdit, SystemEdit, best_edit_sequence, build_lattice


def gold_edits_by_annotator(block: Block) -> dict[int, list[GoldEdit]]:
    """Gold edits of each annotator of a block, as the official reads them.

    An annotator with only a ``noop`` line has no edits; a block without edit lines has
    annotator 0 with no edits. ``-NONE-`` means the empty correction, ``||`` separates
    alternatives (each stripped).
    """
    tokens = block.tokens
    annotators: dict[int, list[GoldEdit]] = {annotator: [] for annotator in block.annotators() or [0]}
    for edit in block.edits:
        if edit.is_noop:
            continue
        corrections = tuple(text.strip() for text in edit.alternatives)
        annotators[edit.annotator].append(GoldEdit(edit.start, edit.end, " ".join(tokens[edit.start:edit.end]),
                                                   corrections))
    return annotators


def equal_ignoring_whitespace_casing(a: str, b: str) -> bool:
    """True when two texts differ only in spaces and letter case."""
    return a.replace(" ", "").lower() == b.replace(" ", "").lower()


def match_in_order(system: Sequence[SystemEdit], gold: Sequence[GoldEdit]) -> list[SystemEdit]:
    """System edits found in the gold list, scanning the gold list forward only (the official
    matches left to right and never looks back: a gold list out of order can miss matches)."""
    correct = []
    next_index = 0
    for edit in system:
        for index in range(next_index, len(gold)):
            if gold[index].matches(edit):
                correct.append(edit)
                next_index = index + 1
                break
    return correct


def precision_recall_f(correct: float, proposed: float, gold: float, beta: float) -> tuple[float, float, float]:
    """P, R and F-beta from counts: P is 1 with nothing proposed, R is 1 with no gold edit."""
    precision = correct / proposed if proposed else 1.0
    recall = correct / gold if gold else 1.0
    denominator = beta * beta * precision + recall
    f = (1.0 + beta * beta) * precision * recall / denominator if denominator else 0.0
    return precision, recall, f


def _running_f(correct: float, proposed: float, gold: float, beta: float) -> float:
    """F-beta from counts as the annotator choice computes it (F is 1 when nothing is
    proposed, nothing is gold and nothing is correct)."""
    denominator = beta * beta * gold + proposed
    if denominator == 0:
        return 1.0 if correct == 0 else 0.0
    return (1 + beta * beta) * correct / denominator


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


@dataclass
class M2Result:
    """Corpus P/R/F of one system with the per-sentence, per-annotator counts behind it."""

    precision: float
    recall: float
    f: float
    correct: int
    proposed: int
    gold: int
    beta: float
    signature: str
    counts: np.ndarray
    """Integer array (D, A_max, 3): correct, proposed, gold per sentence and annotator."""
    annotator_mask: np.ndarray
    """Boolean array (D, A_max): which annotator slots exist in each sentence."""
    chosen: np.ndarray
    """Integer array (D,): the annotator slot kept for each sentence (running-F choice)."""
    details: list[SentenceDetail] = field(default_factory=list)

    def sentence_scores(self) -> list[tuple[float, float, float]]:
        """P, R, F of each sentence with its chosen annotator."""
        rows = self.counts[np.arange(len(self.chosen)), self.chosen]
        return [precision_recall_f(float(c), float(p), float(g), self.beta) for c, p, g in rows]


def choose_annotators(counts: np.ndarray, mask: np.ndarray, beta: float) -> np.ndarray:
    """Per sentence, in order, the annotator maximizing the running corpus F-beta; ties: more
    correct edits, then fewer proposed + beta^2 * gold, then the first annotator.

    Works on any selection of rows (e.g. a bootstrap resample), since only counts are needed.
    """
    sqbeta = beta * beta
    chosen: list[int] = []
    total_correct = total_proposed = total_gold = 0.0
    for row_counts, row_mask in zip(np.asarray(counts).tolist(), np.asarray(mask).tolist()):
        best_f = -1.0
        best_correct = -1.0
        best_cost = float("inf")
        best = 0
        for slot, present in enumerate(row_mask):
            if not present:
                continue
            c, p, g = row_counts[slot]
            local_correct, local_proposed, local_gold = total_correct + c, total_proposed + p, total_gold + g
            f = _running_f(local_correct, local_proposed, local_gold, beta)
            cost = local_proposed + sqbeta * local_gold
            if (best_f < f or (best_f == f and best_correct < local_correct)
                    or (best_f == f and best_correct == local_correct and best_cost > cost)):
                best_f, best_correct, best_cost, best = f, local_correct, cost, slot
        chosen.append(best)
        c, p, g = row_counts[best]
        total_correct += c
        total_proposed += p
        total_gold += g
    return np.array(chosen, dtype=np.int64)


@dataclass
class M2Scorer:
    """The MaxMatch scorer with the official's settings (beta, max unchanged words per edit,
    whether case- or space-only system edits are ignored)."""

    beta: float = 0.5
    max_unchanged_words: int = 2
    ignore_whitespace_casing: bool = False
    keep_details: bool = False
    arc_budget: int = DEFAULT_ARC_BUDGET

    @property
    def signature(self) -> str:
        parts = [f"M2|beta:{self.beta:g}|max-unchanged:{self.max_unchanged_words}"]
        if self.ignore_whitespace_casing:
            parts.append("ignore-whitespace-casing:yes")
        parts.append(f"version:{__version__}")
        return "|".join(parts)

    def settings(self) -> dict:
        return {"metric": "M2", "beta": self.beta, "max_unchanged_words": self.max_unchanged_words,
                "ignore_whitespace_casing": self.ignore_whitespace_casing}

    def sentence_edits(self, source: str, hypothesis: str,
                       gold: dict[int, list[GoldEdit]]) -> list[tuple[list[SystemEdit], list[SystemEdit]]]:
        """Per annotator (in order): the system edits chosen against its gold and the correct ones."""
        source_tokens, hypothesis_tokens = source.split(), hypothesis.split()
        if source_tokens == hypothesis_tokens:
            # the only minimum-cost alignment is the diagonal: no edit, whatever the gold
            return [([], []) for _ in gold]
        lattice = build_lattice(source_tokens, hypothesis_tokens, self.max_unchanged_words, self.arc_budget)
        result = []
        for edits in gold.values():
            system = best_edit_sequence(lattice, edits)
            if self.ignore_whitespace_casing:
                system = [e for e in system if not equal_ignoring_whitespace_casing(e.original, e.correction)]
            result.append((system, match_in_order(system, edits)))
        return result

    def score(self, blocks: Sequence[Block], hypotheses: Sequence[str], name: str = "hypothesis") -> M2Result:
        """Score one system output (one tokenized line per M2 block)."""
        if len(hypotheses) != len(blocks):
            raise InputError(f"has {len(hypotheses)} lines but the M2 file has {len(blocks)} blocks", name)
        golds = [gold_edits_by_annotator(block) for block in blocks]
        slots = max((len(g) for g in golds), default=1)
        count_rows: list[list[tuple[int, int, int]]] = []
        mask_rows: list[list[bool]] = []
        details: list[SentenceDetail] = []
        for block, hypothesis, gold in zip(blocks, hypotheses, golds):
            per_annotator = self.sentence_edits(block.source, hypothesis, gold)
            row = [(len(correct), len(system), len(edits))
                   for (system, correct), edits in zip(per_annotator, gold.values())]
            mask_rows.append([True] * len(row) + [False] * (slots - len(row)))
            count_rows.append(row + [(0, 0, 0)] * (slots - len(row)))
            if self.keep_details:
                details.append(SentenceDetail(block.source, hypothesis, list(gold), 0,
                                              [s for s, _ in per_annotator], list(gold.values()),
                                              [c for _, c in per_annotator]))
        counts = np.array(count_rows, dtype=np.int64).reshape(len(blocks), slots, 3)
        mask = np.array(mask_rows, dtype=bool).reshape(len(blocks), slots)
        chosen = choose_annotators(counts, mask, self.beta)
        for detail, slot in zip(details, chosen):
            detail.chosen = int(slot)
        totals = counts[np.arange(len(blocks)), chosen].sum(axis=0) if len(blocks) else np.zeros(3, dtype=np.int64)
        correct, proposed, gold_total = (int(x) for x in totals)
        precision, recall, f = precision_recall_f(float(correct), float(proposed), float(gold_total), self.beta)
        return M2Result(precision, recall, f, correct, proposed, gold_total, self.beta, self.signature,
                        counts, mask, chosen, details)
