"""The registered metric ``gotoscorer``: GoToScorer on the metric protocol.

Hypotheses are ERRANT M2 (one system each: annotator 0 of its blocks; ``compare --hyp-m2``
gives text hypotheses theirs), the reference is one annotator (``ref_id``) of the gold M2.
``prepare(corpus)`` judges every hypothesis of the corpus at once and takes each gold chunk's
level (how many of the N systems got it right) from them, or from a weight file (``weights=
FILE``, the original's ``-w_file``, read with the setting by :mod:`gecmetrics.io.gts_weights`). A chunk's level depends only on its own sentence, so a corpus
prepared in chunks of sentences (the engine's ``chunk_lines``, ``-p``) gets the same rows as the
whole corpus at once.

Statistics: the core's per-sentence integer rows (D, 5, N + 1), gold chunks counted by outcome
(TP, FP, FN, TN, ALL) and level (:mod:`.scorer`); they add up over sentences, and every score
is one weighted sum of them (:meth:`GoToScorer.score_from_sums`, vectorised for resampling).
The weights ``a - (n + b) / (N + c)`` are fixed by the systems (or the file) the rows were made
with, so paired tests resample rows without judging again, as the paper assumes.

Columns: ``score=f05`` (default) or several of ``f05/f/p/r/acc`` (one column each, from one
judging); the result carries every number (P, R, F, F0.5, accuracy, weighted TP/FP/FN/TN, N).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Hashable, NamedTuple, Sequence

import numpy as np

from ...core.edits.blocks import Block
from ...errors import InputError
from ...io.corpus import Corpus
from ...io.gts_weights import SYSTEMS, weights_setting
from ...kinds import M2
from ..base import Metric, checked_corpus
from ..capabilities import GoldEditWeights
from ..results import CorpusSums
from ..settings import Settings, non_negative_int, parse_bool, parse_float, setting, setting_label
from .chunking import chunk_edits
from .judging import ALL, FN, FP, TN, TP
from .scorer import (GoldChunks, Judgments, SentenceDifficulty, SystemEdits, WeightTable, category_of, judge,
                     level_weights, weight_note, read_gold, read_system, scores_from_sums,
                     sentence_difficulty, sentence_table, weight_table)

OUTCOMES = 5
"""Outcome rows of the statistics: TP, FP, FN, TN, ALL."""

SCORES = {"f05": "F0.5", "f": "F", "p": "P", "r": "R", "acc": "Acc"}
"""The numbers a column can show (setting ``score``) and their headers (the original's)."""
_SCORE_ALIASES = {"f0.5": "f05", "f1": "f", "precision": "p", "recall": "r", "accuracy": "acc"}


# ----------------------------------------------------------------------------- settings


def parse_scores(name: str, value: Any) -> tuple[str, ...]:
    """One or more of f05, f, p, r, acc (text separated by '/', or a sequence)."""
    items = value.split("/") if isinstance(value, str) else value
    if isinstance(items, str) or not isinstance(items, (list, tuple)) or not items:
        raise InputError(f"{setting_label(name)} must be one or more of {', '.join(SCORES)} separated by '/', got {value!r}")
    chosen = []
    for item in items:
        key = str(item).strip().lower()
        key = _SCORE_ALIASES.get(key, key)
        if key not in SCORES:
            raise InputError(f"{setting_label(name)}: {item!r} is not one of {', '.join(SCORES)}")
        if key in chosen:
            raise InputError(f"{setting_label(name)}: {key} given twice")
        chosen.append(key)
    return tuple(chosen)


parse_scores.takes_several = True  # type: ignore[attr-defined]  # '/' separates its values (registry)


def shown_weights(weights: str) -> str:
    """How a signature names the chunk levels' source: ``systems``, or a weight file by its
    SHA-256 (its contents, not its path, change the numbers)."""
    return weights if weights == SYSTEMS else "file-" + weights.digest[:12]


def finite(name: str, value: Any) -> float:
    number = parse_float(name, value)
    if not np.isfinite(number):
        raise InputError(f"{setting_label(name)} must be a finite number, got {value!r}")
    return number


DIFFICULTY_ROWS = 10_000
"""Sentences judged at a time by :meth:`GoToScorer.difficulty`: judging 10^5 sentences of three
systems at once held about 0.6 GB of (sentence, gold chunk) arrays."""


@dataclass(frozen=True)
class GoToScorerSettings(Settings):
    score: tuple[str, ...] = setting(("f05",), "GoToScorer: the number(s) shown, one column each: f05, f, p, r, acc",
                                     parse_scores, signature="score")
    weights: str = setting(SYSTEMS, "GoToScorer: chunk levels from the hypotheses scored ('systems') or from a "
                                    "weight file (the original's -w_file)", weights_setting, ("w_file",),
                           signature="weights", shown=shown_weights)
    a: float = setting(1.0, "GoToScorer: weight a - (n + b) / (N + c), parameter a", finite, signature="a")
    b: float = setting(0.0, "GoToScorer: weight parameter b", finite, signature="b")
    c: float = setting(0.0, "GoToScorer: weight parameter c", finite, signature="c")
    no_weight: bool = setting(False, "GoToScorer: every chunk weighs 1 (the original's -no_weight)", parse_bool,
                              signature="no_weight")
    ref_id: int = setting(0, "GoToScorer: the annotator of the gold M2 that is the reference", non_negative_int,
                          signature="ref_id")


# ----------------------------------------------------------------------------- the metric


class GoToObservation(NamedTuple):
    """What a chunk tells the whole run (:meth:`GoToScorer.observation`)."""

    reference_seen: bool
    """Whether its gold M2 has a line of annotator ``ref_id``."""
    edit_lines: bool
    """Whether its gold M2 has any edit line."""
    name: str
    """The gold M2's name, for messages."""
    systems: int
    """The number of systems its weights count."""
    sentences: int
    placed: bool
    """Whether the corpus gave its sentences' places in the whole (``Corpus(rows=...)``)."""


class GoToPrepared:
    """One corpus (or chunk) judged: the gold chunks, every hypothesis's judgments, the level of
    each gold chunk and N; hypotheses are found by identity (the corpus's own lists)."""

    def __init__(self, gold: GoldChunks, judgments: Judgments, table: WeightTable,
                 hypotheses: Sequence[Sequence[Any]], name: str,
                 reference_seen: tuple[bool, bool] = (True, True), placed: bool = False) -> None:
        self.gold, self.judgments, self.table, self.name = gold, judgments, table, name
        self.reference_seen = reference_seen
        """Whether the gold M2 has a line of the reference annotator (``ref_id``), and any line."""
        self.placed = placed
        """Whether the corpus gave its sentences' places in the whole (``Corpus(rows=...)``)."""
        self._index = {id(blocks): (blocks, k) for k, blocks in enumerate(hypotheses)}

    def system_of(self, hypothesis: Sequence[Any]) -> int | None:
        found = self._index.get(id(hypothesis))
        return found[1] if found is not None and found[0] is hypothesis else None


class GoToScorer(Metric):
    """GoToScorer (Gotou et al., COLING 2020): chunk F0.5 weighted by the share of systems failing each chunk.

    ``corpus_score(None, gold_blocks, hypothesis_blocks, systems={name: blocks, ...})``: the
    levels come from every system given (the hypothesis among them or not); alone, the
    hypothesis is the only system (N = 1: every chunk it gets right weighs 0). A weight file
    (``weights=FILE``) fixes the levels without the other systems.
    """

    name = "gotoscorer"
    label = "GoToScorer"
    settings_class = GoToScorerSettings
    hypothesis_kind = M2
    reference_kind = M2
    scale = 1.0
    rounds_to = 4  # the original prints "{:.4f}": the binary value rounded, ties to even
    has_sentence_scores = True
    column_setting = "score"
    weighs_gold_edits = True
    observations_refuse = True  # a gold M2 without a line of annotator ref_id (check_observations)
    count_statistics = True  # chunks per outcome and level (nan or a negative count scored a number)

    @property
    def candidate_refusal(self) -> str | None:  # type: ignore[override]
        """With ``weights=systems`` a sentence's score depends on the systems scored with it; a
        weight file fixes each chunk's level (edit attribution keeps a candidate's sentence,
        whose line of the file it reads), and with ``no_weight`` every chunk weighs 1."""
        if self.settings.no_weight or self.settings.weights != SYSTEMS:
            return None
        return ("its chunk weights come from the systems scored together, which a candidate sentence does not have "
                "(fix them with a weight file, weights=W.txt from gecmetric gotoscorer --make-weights W.txt, or "
                "weigh every chunk 1 with no_weight=true)")

    @property
    def placeless_refusal(self) -> str | None:  # type: ignore[override]
        """A weight file has a line per sentence of its corpus, which a sentence scored outside
        the corpus (a reward's completion) does not have."""
        if self.settings.weights == SYSTEMS:
            return None
        return ("its chunk levels are read from the weight file's line of each corpus sentence, which a sentence "
                "scored outside the corpus does not have (weights=systems with no_weight=true weighs every chunk 1)")

    def check_corpus_size(self, sentences: int) -> None:
        """A weight file has a line for each sentence of the whole corpus, and no more."""
        if self.settings.weights != SYSTEMS:
            self.settings.weights.table.check_sentences(sentences)

    @property
    def shared_by_systems(self) -> str | None:  # type: ignore[override]
        """Weighted by the hypotheses scored (``weights=systems``), every system's scores depend
        on the others'; a weight file or ``no_weight`` fixes the weights."""
        if self.settings.no_weight or self.settings.weights != SYSTEMS:
            return None
        return "chunk weights"

    # ------------------------------------------------------------------ preparing
    def sharing_key(self) -> Hashable:
        """Judging depends on the reference annotator and the weight source only."""
        return ("gotoscorer", self.settings.ref_id, self.settings.weights)

    def prepare(self, corpus: Corpus, group: Sequence[Metric] = ()) -> GoToPrepared:
        """Judge every hypothesis of ``corpus`` (one system each: annotator 0 of its M2) against
        annotator ``ref_id`` of the gold M2; levels from these systems or the weight file."""
        corpus = checked_corpus(corpus, "GoToScorer", " whose gold M2 is the reference")
        if corpus.gold is None:
            raise InputError("GoToScorer needs the reference M2 (the corpus's gold M2 blocks: --m2 GOLD.m2)")
        gold_name = corpus.name("gold")
        gold = read_gold(corpus.gold, self.settings.ref_id, gold_name, required=False)
        annotators = {edit.annotator for block in corpus.gold for edit in block.edits}
        seen = (self.settings.ref_id in annotators, bool(annotators))
        names = list(corpus.hypotheses)
        if not names:
            raise InputError("GoToScorer needs at least one hypothesis")
        hypotheses = [corpus.hypothesis(name, M2, self.display_name) for name in names]
        shown = [name if not corpus.hypotheses[name] or not isinstance(corpus.hypotheses[name][0], str)
                 else f"the M2 of {name}" for name in names]
        systems = [self._system(blocks, gold, name) for blocks, name in zip(hypotheses, shown)]
        judgments = judge(gold, systems)
        if self.settings.weights == SYSTEMS:
            table = weight_table(judgments)
        else:
            table = sentence_table(self.settings.weights.table, gold, corpus.sentence_rows())
        return GoToPrepared(gold, judgments, table, hypotheses, gold_name, seen, corpus.rows is not None)

    def observation(self, prepared: GoToPrepared) -> GoToObservation:
        """What :meth:`notes` and :meth:`check_observations` read of a chunk."""
        self.check_prepared_kind(prepared, GoToPrepared)
        return GoToObservation(*prepared.reference_seen, prepared.name, prepared.table.n_systems, len(prepared.gold),
                               prepared.placed)

    def notes(self, observations: Sequence[Any]) -> list[str]:
        """Weights below 0, or none for what a system got right (:func:`~.scorer.weight_note`), as the
        command prints them."""
        s = self.settings
        systems = next((observed.systems for observed in observations if observed is not None), None)
        note = None if s.no_weight or systems is None else weight_note(systems, s.a, s.b, s.c)
        return [note] if note else []

    def check_observations(self, observations: Sequence[Any]) -> None:
        """A gold M2 with edit lines but none of annotator ``ref_id`` is refused, as the command
        refuses it (a chunk alone may have none: its sentences then have no gold edit; so may a
        corpus of sentences without any edit line, e.g. one such sentence scored alone). A weight
        file must have a line per sentence of a corpus not given its places (``rows``): its
        sentence scores and statistics read the file's first lines without a word."""
        seen = [observed for observed in observations if observed is not None]
        if any(o.edit_lines for o in seen) and not any(o.reference_seen for o in seen):
            raise InputError(f"has no edit line of annotator {self.settings.ref_id} (ref_id): GoToScorer needs one "
                             "reference", seen[0].name)
        if seen and not any(o.placed for o in seen):  # a corpus read from a weight file's first line
            self.check_corpus_size(sum(o.sentences for o in seen))

    def _system(self, blocks: Sequence[Any], gold: GoldChunks, name: str) -> SystemEdits:
        for block in blocks:
            other = next((k for k, edit in enumerate(getattr(block, "edits", ())) if edit.annotator != 0), None)
            if other is not None:
                raise InputError(f"has edits of annotator {block.edits[other].annotator}: a hypothesis M2 holds one "
                                 "system (annotator 0); score files of several systems with gecmetric gotoscorer",
                                 name, block.edit_line(other) if isinstance(block, Block) else None)
        return read_system(blocks, gold, 0, name)

    def difficulty(self, corpus: Corpus) -> SentenceDifficulty:
        """How hard the reference's gold edits are, judged as :meth:`prepare` judges them (the
        corpus's hypotheses, or the weight file): each gold edit chunk's weight a - (n + b) /
        (N + c), per edit and averaged per sentence (the per-sentence view of the original's
        ``-cat`` table; weighted even with ``no_weight``, which only changes the scores). A
        sentence's weights depend on its own judgments only, so a large corpus is judged
        :data:`DIFFICULTY_ROWS` sentences at a time (what judging holds stays bounded)."""
        corpus = checked_corpus(corpus, "GoToScorer", " whose gold M2 is the reference", "difficulty")
        parts = [self._difficulty(corpus.slice(start, min(start + DIFFICULTY_ROWS, corpus.size)))
                 for start in range(0, corpus.size, DIFFICULTY_ROWS)] or [self._difficulty(corpus)]
        return SentenceDifficulty(*(np.concatenate([getattr(part, name) for part in parts])
                                    for name in ("edit", "sentence", "count")))

    def _difficulty(self, corpus: Corpus) -> SentenceDifficulty:
        prepared = self.prepare(corpus)
        s = self.settings
        weights = level_weights(prepared.table.n_systems, s.a, s.b, s.c)
        return sentence_difficulty(prepared.gold, prepared.table, weights)

    def gold_edit_weights(self, corpus: Corpus, levels: Sequence[int] = (1, 2, 3),
                          group: Callable[[str, int], str] | None = None) -> GoldEditWeights | None:
        """:meth:`difficulty` per edit of every gold block (None for the edits that are not
        annotator ``ref_id``'s chunk edits), per sentence, and per ``-cat`` level the mean,
        sample standard deviation and number of each type group's weights (types grouped by
        ``group``, default the original's -cat rule: NUCLE's ``Vt`` is its own group at level 1,
        in ERRANT's ``V``); None when annotator ``ref_id`` has no edit."""
        ref_id = self.settings.ref_id
        if not any(edit.annotator == ref_id and not edit.is_noop for block in corpus.gold for edit in block.edits):
            return None
        difficulty = self.difficulty(corpus)
        weights = iter(difficulty.edit.tolist())
        per_block, typed = [], []
        for block in corpus.gold:
            weighted = {}
            for edit in chunk_edits(block.edits_of(ref_id)):
                weighted[id(edit)] = next(weights)
                typed.append((edit.type, weighted[id(edit)]))
            per_block.append([weighted.get(id(edit)) for edit in block.edits])
        categories = {level: _category_weights(typed, level, group or category_of) for level in levels}
        return GoldEditWeights(per_block, difficulty.sentence, categories,
                               "|".join([self.label, f"ref_id:{ref_id}", f"weights:{shown_weights(self.settings.weights)}",
                                         *(f"{key}:{value}" for key, value in self.edits_made_by)]))

    # ------------------------------------------------------------------ rows and scores
    def statistics(self, prepared: GoToPrepared, hypothesis: Sequence[Any], name: str = "hypothesis") -> np.ndarray:
        """(D, 5, N + 1) int64: the gold chunks of each sentence by outcome and level. A
        hypothesis that is not one of the prepared corpus's is judged alone against the same
        levels (fixed weights, as with a weight file)."""
        self.check_prepared_kind(prepared, GoToPrepared)
        table = prepared.table
        system = prepared.system_of(hypothesis)
        judgments = prepared.judgments
        if system is None:
            judgments, system = judge(prepared.gold, [self._system(hypothesis, prepared.gold, name)]), 0
        return judgments.statistics(system, table.correct, table.n_systems + 1)

    def check_statistic_values(self, statistics: Any) -> Any:
        """As every metric's, and an array (sentences, 5, N + 1) with N >= 1 (another shape was
        summed and scored: the statistics of one sentence given without its axis scored 0)."""
        statistics = super().check_statistic_values(statistics)
        shape = np.shape(statistics)
        if len(shape) != 3 or shape[1] != OUTCOMES or shape[2] < 2:
            raise InputError(f"GoToScorer: statistics must be an array (sentences, {OUTCOMES}, N + 1) with N >= 1 "
                             f"systems, as statistics() returns them, got shape {shape}", "statistics")
        return statistics

    def level_weights(self, n_levels: int) -> np.ndarray | None:
        """The weight of each level for N + 1 = ``n_levels`` (None: every chunk weighs 1)."""
        if self.settings.no_weight:
            return None
        s = self.settings
        return level_weights(n_levels - 1, s.a, s.b, s.c)

    def totals(self, sums: Any) -> np.ndarray:
        """Weighted TP, FP, FN, TN and ALL of summed rows (..., 5 (N + 1)) -> (..., 5)."""
        sums = np.asarray(sums)
        if sums.shape[-1] % OUTCOMES or sums.shape[-1] < 2 * OUTCOMES:
            raise InputError(f"GoToScorer: summed rows of width {sums.shape[-1]}: not {OUTCOMES} x (N + 1) with N >= 1 "
                             "systems")
        n_levels = sums.shape[-1] // OUTCOMES
        table = sums.reshape(*sums.shape[:-1], OUTCOMES, n_levels)
        weights = self.level_weights(n_levels)
        if weights is None:
            return table.sum(axis=-1).astype(np.float64)
        return table @ weights

    def score_from_sums(self, sums: Any, column: int = 0) -> np.ndarray:
        """The column's score (P, R, F, F0.5 or accuracy; 0 when its denominator is) of summed
        rows, vectorised over leading axes; the core's formulas, operation for operation."""
        totals = self.totals(sums)
        tp, fp, fn, tn, total = (totals[..., k] for k in (TP, FP, FN, TN, ALL))
        which = self.settings.score[column]
        with np.errstate(divide="ignore", invalid="ignore"):
            if which == "acc":
                return _ratio(tp + tn, total)
            precision, recall = _ratio(tp, tp + fp), _ratio(tp, tp + fn)
            if which == "p":
                return precision
            if which == "r":
                return recall
            if which == "f":
                return _ratio(2 * precision * recall, precision + recall)
            return _ratio(1.25 * precision * recall, 0.25 * precision + recall)

    def details(self, statistics: Any, sums: list[CorpusSums]) -> dict[str, Any]:
        """Every number of the original's output (scores, weighted counts), N and whether
        weighted; a weight file must have a line for every sentence of the corpus."""
        self.check_corpus_size(len(statistics))
        total = np.asarray(sums[0].total)
        n_levels = total.shape[-1] // OUTCOMES
        scores = scores_from_sums(total.reshape(OUTCOMES, n_levels), self.level_weights(n_levels))
        return {**scores.as_dict(), "systems": n_levels - 1, "weighted": not self.settings.no_weight,
                "sentences": int(len(statistics))}

    # ------------------------------------------------------------------ description
    def column_names(self) -> list[str]:
        tokens = [token for token, on in (("unweighted", self.settings.no_weight),
                                          ("w_file", self.settings.weights != SYSTEMS),
                                          (f"ref{self.settings.ref_id}", self.settings.ref_id != 0)) if on]
        return [" ".join([SCORES[key], *tokens]) for key in self.settings.score]

    def column_index(self, key: int | str | float | None) -> int:
        """A column by index or label, or by its score name (``f05``, ``p``, ``acc`` ...)."""
        if isinstance(key, str):
            name = _SCORE_ALIASES.get(key.strip().lower(), key.strip().lower())
            if name in self.settings.score:
                return self.settings.score.index(name)
            if key in self.column_labels():
                return self.column_labels().index(key)
            raise InputError(f"metric {self.display_name} has no column {key!r}; columns: "
                             f"{', '.join(self.column_labels())} (or {', '.join(self.settings.score)})")
        return super().column_index(key)



def _category_weights(typed: Sequence[tuple[str, float]], level: int, group: Callable[[str, int], str]
                      ) -> dict[str, tuple[float, float, int]]:
    """Per type group (``group(type, level)``): the mean, sample standard deviation (0 for one
    edit) and number of the weights of its edits, groups sorted by name."""
    groups: dict[str, list[float]] = {}
    for error_type, weight in typed:
        groups.setdefault(group(error_type, level), []).append(weight)
    return {name: (float(np.mean(values)), float(np.std(values, ddof=1)) if len(values) > 1 else 0.0, len(values))
            for name, values in sorted(groups.items())}


def _ratio(numerator: Any, denominator: Any) -> np.ndarray:
    """numerator / denominator, 0 where the denominator is 0 (the original's rule)."""
    numerator, denominator = np.asarray(numerator, dtype=np.float64), np.asarray(denominator, dtype=np.float64)
    zero = denominator == 0
    out = numerator / np.where(zero, 1.0, denominator)
    return np.where(zero, 0.0, out) if zero.any() else out
