"""GoToScorer's own run (what ``gecmetric gotoscorer`` prints) chunk by chunk: :func:`score_chunk`
scores every system of a chunk of sentences (the run engine's ``map_chunks`` hands out the
chunks, to worker processes with ``-p``), :func:`join_runs` joins the chunks' rows, weight tables
and category counts. A chunk's levels depend only on its own sentences (or on the weight file's
lines for them), so the joined run is the run of the whole corpus at once."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Sequence

import numpy as np

from ...core.edits.blocks import the_reference
from ...core.table import scaled_number
from ...errors import InputError, plural, warn_notes
from ...io.gts_weights import WeightFile
from .scorer import (Difficulty, GoToScores, WeightTable, difficulty_counts, difficulty_rows, level_weights,
                     weight_note, ordered_scores, read_gold, read_systems, score_systems, sentence_scores,
                     sentence_table)


@dataclass(frozen=True)
class RunOptions:
    """The original's options: the reference annotator, a weight file read once (None: weights
    from the systems), the weight parameters, unweighted chunks, the ``-cat`` level (None: no
    table). What the whole files hold, so that a chunk of sentences is read as the original
    reads the whole files (a system, or the reference annotator, may have no line in a
    chunk): ``systems``, the number of systems of each hypothesis file (None: found in each
    chunk), and ``has_reference``, whether the reference file has a line of ``ref_id``."""

    ref_id: int = 0
    weights: WeightFile | None = None
    a: float = 1.0
    b: float = 0.0
    c: float = 0.0
    no_weight: bool = False
    category: int | None = None
    systems: tuple[int, ...] | None = None
    has_reference: bool = False


@dataclass
class ChunkRun:
    """One chunk scored: each system's rows and its outcome on each gold chunk in order (the
    original adds up the weights in that order), the chunk's weight table and category counts."""

    names: list[str]
    statistics: list[np.ndarray]
    table: WeightTable
    categories: dict[str, np.ndarray] | None
    outcomes: list[np.ndarray] = field(default_factory=list)


def score_chunk(options: RunOptions, corpus: Any) -> ChunkRun:
    """Every system of every hypothesis M2 of ``corpus`` (a file of several systems, as
    ``errant_parallel -cor SYS1 SYS2`` writes them, gives ``FILE:k`` each) against annotator
    ``ref_id`` of its gold M2."""
    gold = read_gold(corpus.gold, options.ref_id, corpus.name("gold"), required=not options.has_reference)
    systems = []
    for k, (name, blocks) in enumerate(corpus.hypotheses.items()):
        found = read_systems(blocks, gold, name, n_systems=None if options.systems is None else options.systems[k])
        systems.extend(found if len(found) > 1 else [replace(found[0], name=name)])
    table = None
    if options.weights is not None:
        whole = options.weights.table
        if len(whole.offsets) - 1 < corpus.offset + corpus.size:
            raise InputError(f"has {plural(len(whole.offsets) - 1, 'sentence line')} "
                             f"but {the_reference(gold.name)} has more "
                             f"sentences (at least {corpus.offset + corpus.size})", options.weights)
        table = sentence_table(whole, gold, corpus.sentence_rows())
    run = score_systems(gold, systems, table, options.a, options.b, options.c, options.no_weight)
    categories = None if options.category is None else difficulty_counts(gold, run.weights, options.category)
    outcomes = [run.judgments.outcomes(s) for s in range(len(systems))]
    return ChunkRun([system.name for system in systems], list(run.statistics), run.weights, categories, outcomes)


SCORE_FIELDS = {"p": "precision", "r": "recall", "f": "f", "f05": "f05", "acc": "accuracy"}
"""The field of :class:`GoToScores` of each score a column can show (the metric's ``score``)."""


@dataclass
class JoinedRun:
    """The systems scored over the whole corpus: names, rows, weight table (``-gen_w_file``),
    the weight of each level, and each system's scores."""

    names: list[str]
    statistics: list[np.ndarray]
    weights: WeightTable
    level_weights: np.ndarray
    weighted: bool
    scores: list[GoToScores]
    categories: dict[str, np.ndarray] | None

    def difficulty(self) -> list[Difficulty]:
        """The ``-cat`` table (as :func:`~.scorer.difficulty_table`)."""
        if self.categories is None:
            raise InputError("the run was made without a -cat level")
        return difficulty_rows(self.categories, self.level_weights)

    def sentence_scores(self, system: int) -> list[GoToScores]:
        return sentence_scores(self.statistics[system], self.level_weights if self.weighted else None)

    def json_fields(self, system: int, columns: Sequence[str], scale: float = 1.0,
                    sentence: bool = False) -> dict[str, Any]:
        """What ``--json`` shows of a system: ``scores``, those of the metric's ``columns`` (its
        ``score`` setting: ``("f05",)`` by default) in order, then every number by name (P, R, F,
        F0.5 and accuracy x``scale``); ``sentence``: each column per sentence, and every number of
        each sentence (``sentences``)."""
        parts = self.sentence_scores(system) if sentence else [self.scores[system]]
        fractions = set(SCORE_FIELDS.values())
        numbers = [{key: scaled_number(value, scale) if key in fractions else value
                    for key, value in x.as_dict().items()} for x in parts]
        scores = [[scaled_number(getattr(x, SCORE_FIELDS[key]), scale) for x in parts] for key in columns]
        return {"scores": scores, "sentences": numbers} if sentence else \
            {"scores": [column[0] for column in scores], **numbers[0]}


def join_runs(parts: Sequence[ChunkRun], options: RunOptions) -> JoinedRun:
    """The chunks of one corpus, in order, as one run."""
    if not parts:
        raise InputError("the corpus has no sentences (an empty file scores nothing)")
    names = parts[0].names
    for part in parts[1:]:
        if part.names != names:
            raise InputError(f"the hypothesis M2 files hold {plural(len(names), 'system')} in some sentences and "
                             f"{len(part.names)} in others (every block needs a line of every system)")
    statistics = [np.concatenate([part.statistics[k] for part in parts]) for k in range(len(names))]
    table = _joined_table([part.table for part in parts])
    if options.weights is not None:
        options.weights.table.check_sentences(len(table.offsets) - 1)
    per_level = level_weights(table.n_systems, options.a, options.b, options.c)
    used = None if options.no_weight else per_level
    if used is not None:
        warn_notes(filter(None, [weight_note(table.n_systems, options.a, options.b, options.c)]))
    scores = [ordered_scores(np.concatenate([part.outcomes[k] for part in parts]), table.correct, used)
              for k in range(len(names))]
    return JoinedRun(list(names), statistics, table, per_level, not options.no_weight, scores,
                     _joined_counts([part.categories for part in parts]))


def _joined_table(tables: Sequence[WeightTable]) -> WeightTable:
    offsets, start = [np.zeros(1, dtype=np.int64)], 0
    for table in tables:
        offsets.append(np.asarray(table.offsets[1:], dtype=np.int64) + start)
        start += int(table.offsets[-1])
    return WeightTable(tables[0].n_systems, np.concatenate([table.correct for table in tables]),
                       np.concatenate(offsets), tables[0].name)


def _joined_counts(parts: Sequence[dict[str, np.ndarray] | None]) -> dict[str, np.ndarray] | None:
    if parts[0] is None:
        return None
    total: dict[str, np.ndarray] = {}
    for part in parts:
        for name, counts in (part or {}).items():
            total[name] = total[name] + counts if name in total else counts.copy()
    return total
