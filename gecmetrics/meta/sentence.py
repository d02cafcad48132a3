"""Sentence-level meta-evaluation (SEEDA's ``utils/corr_sentence.py``, gec-metrics'
``MetaEvalBase.corr_sentence``): does the metric order two outputs of a sentence as a human did?

Every ranking item gives human preferences between pairs of its systems (ties left out: a pair
the human ranked equal is not counted). The metric prefers the system with the higher sentence
score (``higher_is_better=False``: the lower). Over all such pairs:

* accuracy = agreements / pairs
* Kendall-like tau = (agreements - disagreements) / pairs

A metric tie (equal sentence scores) is where the definitions differ. ``seeda`` (the default)
does what both originals do: of the pair (i, j), i before j in the system order (code-point
order of the names, SEEDA's), the metric's verdict is "i better" only if score_i > score_j, so
a tie counts as "j better" (``higher_is_better=False``: as "i better"). ``disagree`` counts every
metric tie as a disagreement; ``ignore`` drops the pairs the metric ties from the counts.
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import numpy as np

from ..errors import InputError, shown
from ..io.judgments import MAX_SRC_ID, Judgments
from ..core.checks import check_flag
from ..core.lines import sequence_problem
from ..io.text import check_named, check_system_names
from ..stats.sentence_rankings import score_matrix

TIE_RULES = ("seeda", "disagree", "ignore")


@dataclass
class SentenceAgreement:
    """Agreement of one metric's sentence scores with the human pairwise preferences."""

    metric: str
    judgments: str
    systems: list[str]
    pairs: int  # human-decided pairs counted (the denominator)
    agreements: int
    disagreements: int
    metric_ties: int  # pairs whose two outputs the metric scored equal
    accuracy: float
    kendall: float
    tie_rule: str
    higher_is_better: bool

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return dict(self.__dict__, systems=list(self.systems))


def _score_matrix(sentence_scores: Mapping[str, Sequence[float]], systems: Sequence[str]) -> np.ndarray:
    """(systems, sentences) finite sentence scores (:func:`gecmetrics.stats.sentence_rankings.score_matrix`)."""
    order, matrix = score_matrix(sentence_scores, systems)
    if not np.all(np.isfinite(matrix)):
        bad = order[int(np.argwhere(~np.isfinite(matrix))[0][0])]
        raise InputError(f"sentence scores of {bad} contain a value that is not a finite number")
    return matrix


def check_item_rows(judgments: Judgments, item_rows: Sequence[int], sentences: int) -> np.ndarray:
    """``item_rows`` as an integer array: one corpus row per ranking item, each within the
    ``sentences`` scored (an error names the item's line otherwise)."""
    problem = None if isinstance(item_rows, np.ndarray) else sequence_problem(item_rows)
    if problem is not None:  # (a set was "got shape ()")
        raise InputError(f"item_rows needs one integer corpus row per ranking item, in the items' order, got {problem}")
    rows = np.asarray(item_rows)
    if rows.shape != (len(judgments.items),):
        raise InputError(f"item_rows needs one integer corpus row per ranking item ({len(judgments.items)}), "
                         f"got shape {rows.shape}")
    flags = rows.dtype == bool or any(isinstance(row, (bool, np.bool_)) for row in item_rows)  # (NumPy makes ints of them)
    if flags or (rows.size and not np.issubdtype(rows.dtype, np.integer)):
        got = "True/False, which are no rows" if flags else f"{rows.dtype} values"
        raise InputError(f"item_rows needs one integer corpus row per ranking item, got {got}")
    outside = np.flatnonzero((rows < 0) | (rows >= sentences))
    if outside.size:
        item = judgments.items[int(outside[0])]
        raise InputError(f"ranking item src-id={item.src_id} maps to row {int(rows[outside[0]])}, outside the "
                         f"{sentences} scored sentences", judgments.source, item.line)
    return rows


@dataclass(frozen=True)
class PairVerdicts:
    """Every pair of outputs of an item that the humans ranked differently (human ties left
    out), with its two human ranks and the metric's verdict under a tie rule."""

    systems: list[str]  # the order of the seeda tie rule
    better_rank: np.ndarray  # (P,) human rank of the better output (1 = best)
    worse_rank: np.ndarray  # (P,)
    agree: np.ndarray  # (P,) bool: the metric orders the pair as the human did
    tied: np.ndarray  # (P,) bool: the metric scored the two outputs equal
    counted: np.ndarray  # (P,) bool: the pair counts (all but metric ties under the ignore rule)


def pair_verdicts(sentence_scores: Mapping[str, Sequence[float]], judgments: Judgments, item_rows: Sequence[int],
                  systems: Sequence[str] | None = None, *, higher_is_better: bool = True,
                  tie_rule: str = "seeda") -> PairVerdicts:
    """The metric's verdict on every human-decided pair (see the module doc): ``sentence_scores``
    ({system: (D,) scores}), ``item_rows[i]`` the score row of item i's sentence, ``systems``
    (default: all judged) kept in every item, in the order of the ``seeda`` tie rule."""
    if tie_rule not in TIE_RULES:
        raise InputError(f"unknown tie rule {tie_rule!r}; choose one of: {', '.join(TIE_RULES)}")
    if not isinstance(judgments, Judgments):
        raise InputError(f"expected Judgments, got {type(judgments).__name__}")
    check_flag(higher_is_better, "higher_is_better")
    check_named(sentence_scores, "sentence_scores", "its sentence scores")
    order = list(judgments.systems) if systems is None else check_system_names(systems)
    unjudged = sorted(set(sentence_scores) - set(judgments.systems)) if systems is None else []
    if unjudged:
        raise InputError(f"systems with sentence scores but no human judgments: {', '.join(unjudged)}",
                         judgments.source)
    restricted = judgments.restricted(order)
    scores = _score_matrix(sentence_scores, order)
    rows = check_item_rows(judgments, item_rows, scores.shape[1])
    pairwise = restricted.pairwise()
    decided = ~pairwise.tie
    if not decided.any():
        raise InputError("no pair of outputs that the humans ranked differently", judgments.source)
    position = np.array([order.index(s) for s in restricted.systems])  # restricted index -> order
    better, worse = position[pairwise.better[decided]], position[pairwise.worse[decided]]
    row = rows[pairwise.item[decided]]
    first, second = np.minimum(better, worse), np.maximum(better, worse)
    human_first = better == first
    score_first, score_second = scores[first, row], scores[second, row]
    tied = score_first == score_second
    metric_first = score_first > score_second if higher_is_better else score_first < score_second
    if tie_rule == "seeda":
        metric_first = np.where(tied, not higher_is_better, metric_first)
    agree = (metric_first == human_first) & ~(tied & (tie_rule != "seeda"))
    counted = ~tied if tie_rule == "ignore" else np.ones_like(tied)
    return PairVerdicts(order, pairwise.better_rank[decided], pairwise.worse_rank[decided], agree, tied, counted)


def sentence_agreement(sentence_scores: Mapping[str, Sequence[float]], judgments: Judgments,
                       item_rows: Sequence[int], systems: Sequence[str] | None = None, *,
                       higher_is_better: bool = True, tie_rule: str = "seeda",
                       metric: str = "metric") -> SentenceAgreement:
    """Accuracy and Kendall-like tau of ``sentence_scores`` ({system: (D,) scores}) against the
    pairwise preferences of ``judgments``; ``item_rows[i]`` is the score row of item i's
    sentence; ``systems`` (default: all judged) are kept in every item, the rest dropped, and
    their order is the order of the ``seeda`` tie rule (default: code-point order)."""
    if not isinstance(metric, str) or not metric.strip():  # (the metric's name in the result and its table)
        raise InputError(f"metric is the metric's name, a text, got {shown(metric)}", "metric")
    verdicts = pair_verdicts(sentence_scores, judgments, item_rows, systems, higher_is_better=higher_is_better,
                             tie_rule=tie_rule)
    pairs, agreements = int(verdicts.counted.sum()), int((verdicts.agree & verdicts.counted).sum())
    if pairs == 0:
        raise InputError("no pair of outputs that the humans ranked differently (and the metric did not tie)",
                         judgments.source)
    disagreements = pairs - agreements
    _warn_ties(metric, int(verdicts.tied.sum()), len(verdicts.tied), tie_rule)
    return SentenceAgreement(metric, judgments.source, verdicts.systems, pairs, agreements, disagreements,
                             int(verdicts.tied.sum()), agreements / pairs, (agreements - disagreements) / pairs,
                             tie_rule, higher_is_better)



def check_corpus_src_ids(judgments: Judgments, corpus_lines: Sequence[int], path: str | None = None) -> list[int]:
    """The src-id of every corpus line, checked: integers, each once, each among the src-ids of
    the judgments (an error names ``path`` and the line, or the position in the list)."""
    judged = set(judgments.src_ids.tolist())
    first_seen: dict[int, int] = {}
    checked = []
    for position, value in enumerate(corpus_lines, start=1):
        where = (path, position) if path is not None else (judgments.source, None)
        label = "" if path is not None else f"corpus line {position}: "
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or abs(int(value)) >= MAX_SRC_ID:
            raise InputError(f"{label}a src-id is an integer below {MAX_SRC_ID}, got {value!r}", *where)
        value = int(value)
        if value in first_seen:
            raise InputError(f"{label}src-id {value} is given twice (first for corpus line {first_seen[value]}): "
                             "each corpus line has its own src-id", *where)
        if value not in judged:
            raise InputError(f"{label}src-id {value} is not the src-id of any ranking item of {judgments.source}: "
                             "the src-ids give each corpus line's, and each line must be a judged sentence (for "
                             "files of the whole test set give the first line's src-id, e.g. --src-ids 0 or 1)",
                             *where)
        first_seen[value] = position
        checked.append(value)
    return checked


def rows_of_src_ids(judgments: Judgments, corpus_lines: Sequence[int] | None = None, first_line: int = 1,
                    path: str | None = None) -> np.ndarray:
    """The corpus row of every ranking item: ``corpus_lines[k]`` is the ``src-id`` of row k (a
    subset such as SEEDA's 391 sentences, whose LINES file holds 1-based CoNLL-2014 lines; each
    once, each judged: :func:`check_corpus_src_ids`, ``path`` names their file in errors);
    without it, rows are src-id - ``first_line`` (0 or more: GJG15's src-ids count from 0,
    SEEDA's from 1; an item whose src-id is below it, which names no corpus line, is an
    InputError naming both). ``first_line`` other than 1 with ``corpus_lines``, which it would not
    change, is an InputError."""
    src_ids = judgments.src_ids
    without = np.flatnonzero(src_ids < 0)
    if without.size:
        item = judgments.items[int(without[0])]
        raise InputError("a ranking item without src-id cannot be matched to a sentence", judgments.source, item.line)
    if isinstance(first_line, bool) or not isinstance(first_line, (int, np.integer)) \
            or not 0 <= int(first_line) < MAX_SRC_ID:  # (-1 moved every item one row down)
        raise InputError(f"first_line: the src-id of the first corpus line is an integer below {MAX_SRC_ID}, "
                         f"0 or more, got {shown(first_line)}")
    if corpus_lines is None:
        below = np.flatnonzero(src_ids < int(first_line))
        if below.size:  # (a negative row, refused later as "maps to row -1")
            item = judgments.items[int(below[0])]
            raise InputError(f"src-id {item.src_id} is below first_line={int(first_line)}, the src-id of the first "
                             "corpus line (--src-ids), so it names no corpus line: GJG15's src-ids count from 0, "
                             "SEEDA's from 1", judgments.source, item.line)
        return src_ids - int(first_line)
    if first_line != 1:
        raise InputError(f"first_line={first_line!r} does nothing with corpus_lines, which give the src-id of "
                         "every corpus line: leave it out")
    problem = None if isinstance(corpus_lines, np.ndarray) else sequence_problem(corpus_lines)
    if problem is not None:  # (a set's order is no order of corpus lines)
        raise InputError(f"corpus_lines must be a sequence of the src-id of every corpus line, got {problem}")
    where = {line: k for k, line in enumerate(check_corpus_src_ids(judgments, corpus_lines, path))}
    rows = np.array([where.get(int(s), -1) for s in src_ids], dtype=np.int64)
    missing = np.flatnonzero(rows < 0)
    if missing.size:
        item = judgments.items[int(missing[0])]
        raise InputError(f"src-id {item.src_id} is not one of the corpus lines given", judgments.source, item.line)
    return rows


def _warn_ties(metric: str, tied: int, compared: int, tie_rule: str) -> None:
    """One warning when the metric scored at least half of the pairs the humans ranked apart
    equal (a metric that ties every pair scored 0.631 accuracy on SEEDA without a word, where the
    system level refuses a constant metric): the tie rule, not the metric, decides those pairs."""
    if tie_rule == "ignore" or tied * 2 < compared:
        return
    how = ("the second system of the pair better (SEEDA's rule)" if tie_rule == "seeda" else "a disagreement")
    warnings.warn(f"{metric}: the sentence scores tie {tied} of the {compared} pairs the humans ranked apart, and "
                  f"the tie rule {tie_rule!r} counts each as {how}: accuracy and tau say little of the metric there "
                  "(--tie-rule ignore, tie_rule='ignore', leaves them out)", stacklevel=3)


SHARED_MISMATCH = 0.1
"""Fraction of the pairs of systems that share a translation whose sentence scores may differ
before :func:`warn_shared_translations` says the src-ids look off."""


def warn_shared_translations(sentence_scores: Mapping[str, Sequence[float]], judgments: Judgments,
                             item_rows: Sequence[int], metric: str) -> None:
    """One warning when the items' rows look wrong: systems named by one ``<translation>`` had
    identical outputs, so at the right row their sentence scores are equal. On GJG15 with the
    right src-ids (0) none of the 1,541 such pairs differ; shifted by one, 963 do, and the
    accuracy changed from 0.682 to 0.490 without a word."""
    rows = np.asarray(item_rows)
    compared = differ = 0
    for item, row in zip(judgments.items, rows):
        first: dict[int, str] = {}
        for system, translation in zip(item.systems, item.translations):
            if system not in sentence_scores or not 0 <= row < len(sentence_scores[system]):
                continue
            if translation in first:
                compared += 1
                differ += sentence_scores[system][row] != sentence_scores[first[translation]][row]
            else:
                first[translation] = system
    if compared and differ > SHARED_MISMATCH * compared:
        warnings.warn(f"{metric}: of the {compared} pairs of systems that share a translation in "
                      f"{judgments.source} (identical outputs), {differ} have different sentence scores at the "
                      "corpus lines the src-ids give their items: the src-ids look off (--src-ids: GJG15's count "
                      "from 0, SEEDA's from 1; a subset's file gives every corpus line's)", stacklevel=3)
