"""Metrics as training signals: reward functions in TRL's ``GRPOTrainer`` convention and
minimum-Bayes-risk selection (docs/rewards.md).

:func:`reward_function` wraps a registered metric (or a metric object) in a callable
``f(prompts=None, completions=..., source=..., references=..., **kwargs) -> list[float]``:
one value per completion, equal to ``metric.sentence_scores([source], references, [completion])``
(the completion scored as a corpus of one sentence: the M2 family's running-F annotator choice
then sees that sentence alone, as edit attribution scores a candidate). A call scores every
distinct (source, references, completion) once, in one batch through the engine's per-chunk
step (:func:`~gecmetrics.metrics.running.chunk_statistics`: each distinct source and reference
set prepared once, the completions of a row as the systems of one corpus, rows of one number of
completions together so that each completion is scored once; each row as a corpus of its own
for a metric whose observations may refuse a corpus, ``observations_refuse``); values
of earlier calls are kept in a bounded LRU keyed by the texts.

A per-line work budget decides before scoring, deterministically, which lines are not scored:
a line one of whose texts (the completion, the source, a reference) has more than
``max_tokens`` whitespace tokens, or whose completion would align with the source and its
references, or whose source with all its references, together in more than ``max_cells`` cells
((tokens + 1) x (tokens + 1) an alignment), gets ``fallback``; so does a line on which a metric's
own work bound (the MaxMatch lattice's open states, ERRANT's alignment cells and merge steps:
docs/design.md, "Limits") raises. Nothing is timed: the same call gives the same values on any
machine. ``f.stats`` counts them, and one warning is logged per ``warn_every`` fallbacks; the
metric's notes (inputs cut to a model's maximum length) are counted, and logged once.

:func:`mbr_select` picks, for each source, the candidate with the highest mean utility against
the other candidates taken as references (N x N sentence scores).
"""
from __future__ import annotations

import logging
import math
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Hashable, Mapping, Sequence

import numpy as np

from ..core.checks import check_count, check_score
from ..core.edits.blocks import Block, check_built_blocks
from ..errors import InputError, LineRefused, kind_of, note_text, plural, shown
from ..io.m2 import parse_m2
from ..core.lines import LONE_SURROGATE
from ..kinds import M2, NONE, TEXT
from ..metrics.running import check_observations, chunk_statistics, python_corpus

LOG = logging.getLogger("gecmetrics.rewards")

DEFAULT_MAX_TOKENS = 1000
"""Completions longer than this (whitespace tokens) get the fallback value without being scored."""
DEFAULT_MAX_CELLS = 250_000
"""Alignment cells ((tokens + 1) x (tokens + 1) two texts) above which a line gets the fallback (a
500 x 500 alignment): a completion's with the source and its references together, a source's with
its references together; the work of every edit-based metric's alignment grows with them."""
DEFAULT_MEMO_SIZE = 100_000
"""Values of (source, references, completion) kept across calls (least recently used dropped)."""

_SLOT = "completion {}"
ROW_TOKENS = "max_tokens: source or reference"
"""The fallback's reason for a row whose source or a reference has more than ``max_tokens`` tokens."""
ROW_CELLS = "max_cells: source x references"
"""The fallback's reason for a row whose source would align with its references, all of them
together, in more than ``max_cells``."""
NOT_FINITE = "not a finite score"
"""The fallback's reason for a line the metric scored nan or inf (a plugin's)."""


@dataclass
class RewardStats:
    """What a reward function did since it was made (or unpickled)."""
    calls: int = 0
    completions: int = 0
    scored: int = 0
    """Distinct lines scored by the metric."""
    reused: int = 0
    """Completions whose value came from the LRU of earlier calls, or from a copy in the same call."""
    fallbacks: int = 0
    """Lines given the fallback value (budget or a metric's work bound)."""
    length_penalties: int = 0
    """Completions given ``length_penalty`` by the ``max_length_ratio`` guard."""
    reasons: dict[str, int] = field(default_factory=dict)
    """Fallbacks by reason: ``max_tokens``, ``max_cells`` (the completion's), :data:`ROW_TOKENS`,
    :data:`ROW_CELLS` (its row's source or a reference), ``refused by the metric`` (a work bound
    of the metric, or an input its sentence scores refuse)."""
    notes: int = 0
    """Calls whose scored lines the metric noted something about that changes no value (its
    :meth:`~gecmetrics.metrics.base.Metric.notes`: SOME, IMPARA, BERTScore and PT-M2 inputs cut to
    the model's maximum length, as the originals cut them); the first such call's notes are logged
    once, as a command prints them on stderr once a run."""


def completion_text(completion: Any, k: int = 0) -> str:
    """The text of a completion: a string, or chat messages (a list of {"role", "content"}
    dicts: the last assistant message's content; a content of parts joins its text parts; no
    content, or None, is the empty text: TRL's parsed response of an output cut off in its
    reasoning has none)."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, Mapping):
        completion = [completion]
    if isinstance(completion, Sequence) and completion and all(isinstance(m, Mapping) for m in completion):
        for message in completion:  # ({"generated_text": ...}, {"text": ...} were scored as empty outputs)
            if "role" not in message and "content" not in message:
                raise InputError(f"completion {k} has a message with neither 'role' nor 'content' (its keys: "
                                 f"{', '.join(map(str, message)) or 'none'}): give strings or chat messages",
                                 "completions")
        answers = [m for m in completion if m.get("role", "assistant") == "assistant"]
        if answers:  # (no content, or None: an output cut off in its reasoning, an empty one, tool calls only)
            content = answers[-1].get("content")
            return "" if content is None else _content_text(content, k)
        raise InputError(f"completion {k} has no assistant message (roles: "
                         f"{', '.join(str(m.get('role')) for m in completion)})", "completions")
    raise InputError(f"completion {k} is {kind_of(completion)}: give strings or chat messages "
                     "(a list of {'role': ..., 'content': ...} dicts)", "completions")


def _content_text(content: Any, k: int) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, Sequence) and all(isinstance(part, Mapping) for part in content):
        parts = [part for part in content if part.get("type", "text") == "text"]
        if any("text" not in part for part in parts):  # (it was scored as an empty completion)
            raise InputError(f"completion {k}: a text part has no 'text'", "completions")
        texts = [part["text"] for part in parts]
        for text in texts:
            if not isinstance(text, str):  # (its str() was scored: None as the word "None")
                raise InputError(f"completion {k}: a text part's text is {kind_of(text)}, not text",
                                 "completions")
        return "".join(texts)
    raise InputError(f"completion {k}: the assistant message's content is {kind_of(content)}, not text",
                     "completions")


_LINE_BREAK = re.compile("\r\n|\r|\n")


def _one_line(text: str) -> str:
    """A text as one line: its line breaks (which no sentence can hold) become spaces, those at its
    end dropped (a model's closing newline). Only these: a line of a file holds U+2028 or U+000B
    as they are, and so does a completion."""
    return _LINE_BREAK.sub(" ", text.rstrip("\r\n")) if ("\n" in text or "\r" in text) else text


class RewardFunction:
    """A metric's sentence scores as a reward function (see :func:`reward_function`, whose
    options it takes; an option left None is not given: the columns ``source`` and
    ``references``, ``edit_language`` "en", ``length_penalty`` -1.0 where they are read)."""

    def __init__(self, metric: Any, *, source_column: str | None = None, references_column: str | None = None,
                 column: int | str | float | None = None, fallback: float = 0.0,
                 max_tokens: int | None = DEFAULT_MAX_TOKENS, max_cells: int | None = DEFAULT_MAX_CELLS,
                 max_length_ratio: float | None = None, length_penalty: float | None = None, warn_every: int = 100,
                 memo_size: int = DEFAULT_MEMO_SIZE, name: str | None = None, edit_language: str | None = None,
                 annotation: Mapping[str, Any] | None = None, cache: Any = None) -> None:
        from ..core.context import run_context

        registered = metric if isinstance(metric, str) else None
        self.metric = metric = _metric(metric, {})  # a registered name, or a Metric
        run_context(cache)  # checked now; the metric is bound to it on first use in each process
        self.cache = cache
        _refuse_unused(metric, edit_language=edit_language, annotation=annotation,
                       references_column=references_column, source_column=source_column,
                       length_penalty=None if max_length_ratio is not None else length_penalty)
        if annotation is not None and not isinstance(annotation, Mapping):
            raise InputError(f"must be a dict of annotation settings, got {type(annotation).__name__}", "annotation")
        self.edit_language = "en" if edit_language is None else edit_language
        self.annotation = dict(annotation or {})
        if metric.hypothesis_kind == M2:
            from ..core.lang import make_language

            make_language(self.edit_language, False, **self.annotation)  # checked now, the annotator made later
        if not metric.has_sentence_scores:
            raise InputError(f"metric {metric.display_name} has no sentence scores "
                             f"({metric.no_sentence_scores_reason}): a reward needs one value per completion", "metric")
        refusal = metric.candidate_refusal or metric.placeless_refusal  # (a completion is no corpus sentence)
        if refusal is not None:
            raise InputError(f"metric {metric.display_name} cannot score a sentence on its own: {refusal}", "metric")
        for key, value in (("source_column", source_column), ("references_column", references_column)):
            if value is not None and (not isinstance(value, str) or not value):
                raise InputError(f"{key} must be a column name (a string), got {value!r}", key)
        self.column = metric.column_index(column)
        self.source_column = "source" if source_column is None else source_column
        self.references_column = "references" if references_column is None else references_column
        self.fallback = _number(fallback, "fallback")
        self.max_tokens = _bound(max_tokens, "max_tokens")
        self.max_cells = _bound(max_cells, "max_cells")
        self.max_length_ratio = None if max_length_ratio is None else _number(max_length_ratio, "max_length_ratio")
        if self.max_length_ratio is not None and not self.max_length_ratio > 0:
            raise InputError(f"max_length_ratio must be positive, got {max_length_ratio!r}", "max_length_ratio")
        self.length_penalty = -1.0 if length_penalty is None else _number(length_penalty, "length_penalty")
        # counts, not bounds: None said "no bound" in the message and meant a warning at every
        # fallback (warn_every) or no memo at all (memo_size)
        self.warn_every = check_count(warn_every, "warn_every", 1)
        self.memo_size = check_count(memo_size, "memo_size (0: no memo)", 0)
        if name is not None and (not isinstance(name, str) or not name):
            raise InputError(f"name must be a non-empty string (the reward's __name__), got {shown(name)}", "name")
        self.__name__ = name or reward_name(metric, registered, self.column)
        self._setup()

    def _setup(self) -> None:
        self._bound: Any = None
        self._lock = threading.Lock()
        self._noted: list[str] = []  # the metric's notes in the call under way
        self._refused: dict[Hashable, Exception] = {}  # lines of the call's batches the metric refused alone
        self._memo: OrderedDict[Hashable, float] = OrderedDict()
        self.stats = RewardStats()

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        for key in ("_lock", "_memo", "stats", "_bound", "_noted", "_refused"):
            state.pop(key)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._setup()

    @property
    def fallbacks(self) -> int:
        return self.stats.fallbacks

    def __repr__(self) -> str:
        return f"RewardFunction({self.metric!r}, column={self.column}, fallback={self.fallback})"

    # ------------------------------------------------------------------ the call
    def __call__(self, prompts: Any = None, completions: Any = None, **kwargs: Any) -> list[float]:
        if completions is None:
            raise InputError("no completions given (completions=[...])", "completions")
        completions = _listed(completions)
        if isinstance(completions, (str, bytes)) or not isinstance(completions, Sequence):
            raise InputError(f"completions must be a list, got {type(completions).__name__}", "completions")
        texts = [_one_line(completion_text(c, k)) for k, c in enumerate(completions)]
        rows = self._rows(len(texts), kwargs)
        with self._lock:
            before = dict(vars(self.stats), reasons=dict(self.stats.reasons))
            try:
                return self._rewards(texts, rows)
            except BaseException:  # (a call that raised returned no rewards: it counts for nothing)
                reasons = self.stats.reasons
                reasons.clear()
                reasons.update(before.pop("reasons"))
                vars(self.stats).update(before)
                raise

    def _rows(self, count: int, kwargs: Mapping[str, Any]) -> list[tuple[str | None, Any]]:
        """Each completion's (source, references): the references as a tuple of texts (TEXT),
        one M2 block (M2), or None (reference-free)."""
        kind = self.metric.reference_kind
        needs_source = kind != M2 and getattr(self.metric, "reads_sources", True)
        sources = None if kind == M2 else self._column(kwargs, self.source_column, count, needs_source)
        references = self._column(kwargs, self.references_column, count, kind != NONE)
        rows = []
        for k in range(count):
            source = None if sources is None else sources[k]
            if source is not None and not isinstance(source, str):
                raise InputError(f"{self.source_column} {k} is {kind_of(source)}, not text", self.source_column)
            if source is not None:  # (said here, by the caller's column and row; the batch's corpus
                _no_lone_surrogate(source, f"{self.source_column} {k}", self.source_column)  # numbers its own)
            if source is None and sources is not None and needs_source:  # "" would score against no source
                raise InputError(f"{self.source_column} {k} is None: {self.metric.display_name} reads the source "
                                 "sentence", self.source_column)
            refs = None if references is None or kind == NONE else self._references(references[k], k)
            if kind == M2:
                source = None
            elif source is None:
                source = ""
            else:
                source = _one_line(source)
            rows.append((source, refs))
        return rows

    @staticmethod
    def _column(kwargs: Mapping[str, Any], name: str, count: int, required: bool) -> Sequence[Any] | None:
        values = kwargs.get(name)
        if values is None:
            if required:
                given = ", ".join(sorted(key for key, value in kwargs.items() if value is not None))  # None: not given
                raise InputError(f"the column {name!r} is missing (one value per completion; the columns given: "
                                 f"{given or 'none'})", name)
            return None
        values = _listed(values)
        if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
            raise InputError(f"the column {name!r} must be a list (one value per completion), got "
                             f"{type(values).__name__}", name)
        if len(values) != count:
            raise InputError(f"the column {name!r} has {plural(len(values), 'value')} for {count} completions", name)
        return values

    def _references(self, value: Any, k: int) -> Any:
        name = self.references_column
        if self.metric.reference_kind == M2:
            if isinstance(value, Sequence) and not isinstance(value, str) and len(value) == 1:
                value = value[0]  # (a list of one block or M2 text, as a dataset's column may hold it)
            if isinstance(value, str):
                _no_lone_surrogate(value, f"{name} {k}: the M2 text", name)  # (read blocks are trusted)
                blocks = parse_m2(value, f"{name} {k}")
                if len(blocks) != 1:
                    raise InputError(f"{name} {k}: expected the M2 block of one sentence, got {len(blocks)}", name)
                return blocks[0]
            if isinstance(value, Block):
                check_built_blocks([value], f"{name} {k}")  # as the M2 reader checks a file's
                return value
            raise InputError(f"{name} {k}: metric {self.metric.display_name} reads gold M2 references: give the M2 "
                             f"text of the sentence (or its Block), got {type(value).__name__}", name)
        if isinstance(value, str):
            value = [value]
        value = _listed(value)
        if isinstance(value, Sequence) and value and all(isinstance(text, str) for text in value):
            for r, text in enumerate(value):
                where = f"{name} {k}" + (f", reference {r}" if len(value) > 1 else "")
                _no_lone_surrogate(text, where, name)
                if _M2_BLOCK.match(text):  # (its line breaks became spaces: scored as one odd sentence)
                    raise InputError(f"{where} is the M2 text of a sentence (S and A lines), and metric "
                                     f"{self.metric.display_name} reads reference texts: give the corrected "
                                     "sentence", name)
            return tuple(_one_line(text) for text in value)
        raise InputError(f"{name} {k}: expected a reference text or a non-empty list of them, got "
                         f"{_not_texts(value)}", name)

    def _rewards(self, texts: list[str], rows: list[tuple[str | None, Any]]) -> list[float]:
        stats = self.stats
        stats.calls += 1
        stats.completions += len(texts)
        values: list[float | None] = [None] * len(texts)
        wanted: dict[Hashable, list[int]] = {}
        sizes = _Sizes()  # each row's texts and each completion split once per call
        for k, (text, row) in enumerate(zip(texts, rows)):
            key = (_row_key(row), text)
            if self.max_length_ratio is not None and self._too_long(sizes.text(text), sizes.row(key[0], row), row):
                values[k] = self.length_penalty
                stats.length_penalties += 1
                continue
            if key in self._memo:
                self._memo.move_to_end(key)
                values[k] = self._memo[key]
                stats.reused += 1
            else:
                wanted.setdefault(key, []).append(k)
        stats.reused += sum(len(ks) - 1 for ks in wanted.values())
        self._noted, self._refused = [], {}
        scored = self._score({key: rows[ks[0]] for key, ks in wanted.items()}, sizes)
        for key, value in scored.items():
            for k in wanted[key]:
                values[k] = value
            self._remember(key, value)
        self._note()
        return [float(v) for v in values]

    def _too_long(self, tokens: int, sizes: tuple[int, tuple[int, ...]], row: tuple[str | None, Any]) -> bool:
        """Whether the length guard (``max_length_ratio``, given) gives a completion of ``tokens``
        ``length_penalty``: more tokens than ``max_length_ratio`` times those of the row's longest
        text reference (gold M2 and no references: of the source). ``sizes``: the row's
        :func:`_row_sizes`."""
        source, references = sizes
        longest = max(references) if isinstance(row[1], tuple) else source
        return tokens > self.max_length_ratio * longest

    def _note(self) -> None:
        """The metric's notes of this call (:attr:`RewardStats.notes`): counted, logged at the first
        call that has any, and not again (a training run makes thousands of calls)."""
        if not self._noted:
            return
        self.stats.notes += 1
        if self.stats.notes == 1:
            lines = "; ".join(dict.fromkeys(note_text(line) for line in self._noted))
            LOG.warning("%s: %s (logged once: stats.notes counts the calls with a note)", self.__name__, lines)

    def _remember(self, key: Hashable, value: float) -> None:
        if self.memo_size:
            self._memo[key] = value
            if len(self._memo) > self.memo_size:
                self._memo.popitem(last=False)

    # ------------------------------------------------------------------ scoring
    def _score(self, lines: Mapping[Hashable, tuple[str | None, Any]], sizes: _Sizes) -> dict[Hashable, float]:
        """Values of distinct (row, completion) keys: over budget ones the fallback, the others
        scored in batches (rows of one reference count together). ``sizes``: the call's texts'
        tokens known so far."""
        values: dict[Hashable, float] = {}
        batches: dict[int, list[Hashable]] = {}
        budgets: dict[Hashable, tuple[str | None, int]] = {}  # a row's, judged once for its completions
        for key, row in lines.items():
            if key[0] not in budgets:
                budgets[key[0]] = self._row_budget(*sizes.row(key[0], row))
            reason = self._over_budget(sizes.text(key[1]), *budgets[key[0]]) or _not_text(key[1])
            if reason:
                values[key] = self._fall_back(reason)
            else:
                batches.setdefault(len(row[1]) if isinstance(row[1], tuple) else 0, []).append(key)
        for keys in batches.values():
            try:
                values.update(zip(keys, self._batch(keys, lines)))
            except LineRefused:  # a work bound (or a refusal) on some line: each line alone, deterministically
                for key in keys:
                    self._refused.pop(key, None)  # (what the whole batch said of it no longer holds)
                    try:
                        values[key] = self._batch([key], lines)[0]
                    except LineRefused as err:  # any other error (a setting, a model) is not the line's
                        values[key] = self._fall_back("refused by the metric", err)
        for key, value in values.items():  # (a plugin's nan reached the trainer as a reward)
            if key in self._refused:
                values[key] = self._fall_back("refused by the metric", self._refused[key])
            elif not math.isfinite(value):
                values[key] = self._fall_back(NOT_FINITE)
        self.stats.scored += sum(len(keys) for keys in batches.values())
        return values

    def _row_budget(self, source: int, references: tuple[int, ...]) -> tuple[str | None, int]:
        """Why no completion of a row is scored (None: the row's texts are within the budget), from
        the tokens of its source and of each of its references (:func:`_row_sizes`): one text over
        ``max_tokens``, or the source's alignments with its references, all of them together, over
        ``max_cells`` (so many references count as one long one does); and the row's texts' tokens
        + 1 summed, by which a completion's tokens + 1 are the cells of its alignments with all of
        them."""
        if self.max_tokens is not None and max((source, *references)) > self.max_tokens:
            return ROW_TOKENS, 0
        if self.max_cells is not None and sum((source + 1) * (r + 1) for r in references) > self.max_cells:
            return ROW_CELLS, 0
        return None, sum(tokens + 1 for tokens in (source, *references))

    def _over_budget(self, tokens: int, row_reason: str | None, width: int) -> str | None:
        """Why a line is not scored (None: it is): its row's reason (:meth:`_row_budget`) first,
        then a completion of more than ``max_tokens`` tokens, or one whose alignments with the
        row's source and each of its references would take more than ``max_cells`` cells
        together (``width``: the row's texts' tokens + 1, summed)."""
        if row_reason is not None:
            return row_reason
        if self.max_tokens is not None and tokens > self.max_tokens:
            return "max_tokens"
        if self.max_cells is not None and (tokens + 1) * width > self.max_cells:
            return "max_cells"
        return None

    def _fall_back(self, reason: str, error: Exception | None = None) -> float:
        stats = self.stats
        stats.fallbacks += 1
        stats.reasons[reason] = stats.reasons.get(reason, 0) + 1
        if (stats.fallbacks - 1) % self.warn_every == 0:
            LOG.warning("%s: %s given the fallback value %s so far (this one: %s%s)", self.__name__,
                        plural(stats.fallbacks, "line"), self.fallback, reason, f": {error}" if error else "")
        return self.fallback

    def _batch(self, keys: Sequence[Hashable], lines: Mapping[Hashable, tuple[str | None, Any]]) -> list[float]:
        """Values of distinct lines, each completion scored once: the distinct rows are the corpus
        (each prepared once), the completions of a row are the systems (the j-th system holds each
        row's j-th completion), rows of one number of completions together (:meth:`_group`: one
        call of the engine's per-chunk step where every row has as many, as in a GRPO call whose
        completions all differ); the metric's observations of all of them checked at once (a refusal:
        :class:`LineRefused`) and its notes kept for the call. A metric whose observations may
        refuse a corpus (``observations_refuse``, GoToScorer's ``ref_id``) has each row scored and
        checked alone: a row is a corpus of its own."""
        # a key is (its row's key, the completion): see _rewards
        per_row: dict[Hashable, list[str]] = {}
        for key in keys:
            per_row.setdefault(key[0], []).append(key[1])
        if self.metric.observations_refuse and len(per_row) > 1:
            values = {}
            for row in per_row:
                mine = [key for key in keys if key[0] == row]
                values.update(zip(mine, self._batch(mine, lines)))
            return [values[key] for key in keys]
        groups: dict[int, list[Hashable]] = {}  # rows by their number of completions: no row padded
        for row, texts in per_row.items():
            groups.setdefault(len(texts), []).append(row)
        annotator = self._edit_annotator() if self.metric.hypothesis_kind == M2 else None  # one for the groups
        metric, observed, values = self._metric_in_run(), [], {}
        for rows in groups.values():
            observed.append({})
            texts = [per_row[row] for row in rows]
            scored, refused = self._group(metric, [lines[(row, mine[0])] for row, mine in zip(rows, texts)], texts,
                                          annotator, observed[-1])
            values.update(((row, text), value) for row, mine, row_values in zip(rows, texts, scored)
                          for text, value in zip(mine, row_values))
            self._refused.update(((rows[i], texts[i][j]), err) for i, j, err in refused)
        try:
            self._noted += check_observations([metric], observed)  # the groups' as a run's chunks'
        except LineRefused:
            raise
        except InputError as err:  # refused, as the CLI would refuse it: _score then scores each line alone
            raise LineRefused(str(err)) from None
        return [values[key] for key in keys]

    def _group(self, metric: Any, rows: list[tuple[str | None, Any]], texts: list[list[str]], annotator: Any,
               observed: dict[int, Any]) -> tuple[list[list[float]], list[tuple[int, int, Exception]]]:
        """Each row's completions' values (``texts``: as many for every row), through one call of
        the engine's per-chunk step: the rows the corpus, the j-th completions the j-th system, each
        line then read as a corpus of one sentence; the metric's observations into ``observed``.
        And the (row, completion, refusal) of each line the metric refused alone (its value NaN)."""
        sources, references = self._corpus_inputs(rows)
        names = [_SLOT.format(j + 1) for j in range(len(texts[0]))]
        systems = {name: [mine[j] for mine in texts] for j, name in enumerate(names)}
        if annotator is not None:  # the completions' edits, as the metric reads them
            originals = sources if sources is not None else [block.source for block in references]
            systems = {name: annotator.annotate(originals, [lines], keep_empty=True) for name, lines in systems.items()}
            for name, blocks in systems.items():
                try:  # (an edit an M2 line cannot hold, e.g. the correction '|': that line's refusal, not the call's)
                    check_built_blocks(blocks, name)
                except InputError as err:
                    raise LineRefused(str(err)) from None
        corpus = python_corpus([metric], sources, references, systems)
        statistics, _ = chunk_statistics([metric], corpus, names, observed)
        columns = [self._alone_column(metric, metric.join_statistics([statistics[name][0]])) for name in names]
        refused = [(i, j, err) for j, (_, lost) in enumerate(columns) for i, err in lost.items()]
        return [[float(column[i]) for column, _ in columns] for i in range(len(rows))], refused

    def _alone_column(self, metric: Any, statistics: Any) -> tuple[Any, dict[int, Exception]]:
        """The reward column of each line of one system's statistics, each a corpus of one
        sentence, and the lines the metric refused (:class:`LineRefused`: an LLM judge's prompt
        without an answer). A refusal leaves the other lines' values, computed from the same
        statistics: scoring each line again would ask the judge again (no cache: the answers
        gone, a request budget spent)."""
        try:
            return metric.alone_matrix(statistics)[self.column], {}
        except LineRefused:
            if not isinstance(statistics, np.ndarray) or statistics.ndim != 2:
                raise  # (statistics of a kind of their own: each line is scored alone by _score)
        values, lost = np.full(len(statistics), np.nan), {}
        for i in range(len(statistics)):
            try:
                values[i] = metric.alone_matrix(statistics[i:i + 1])[self.column][0]
            except LineRefused as err:
                lost[i] = err
        return values, lost

    def _metric_in_run(self) -> Any:
        """The metric bound to the run context of ``cache`` (the persistent cache, the process's
        loaded models), once per process: an unpickled function binds again where it runs."""
        if self._bound is None:
            self._bound = self.metric.for_call(self.cache)
        return self._bound

    def _edit_annotator(self) -> Any:
        """The annotator giving completions their M2 edits, in the metric's run context (its
        loaded parser, its cache of parses): a new one per batch, so that its memo of parses
        does not grow over a training run."""
        from ..core.lang import language_annotator

        return language_annotator(self.edit_language, self._metric_in_run().run_context, **self.annotation)

    def _corpus_inputs(self, rows: list[tuple[str | None, Any]]) -> tuple[list[str] | None, Any]:
        kind = self.metric.reference_kind
        if kind == M2:
            return None, [refs for _, refs in rows]
        sources = [source for source, _ in rows]
        if kind == NONE:
            return sources, None
        width = len(rows[0][1])
        return sources, [[refs[r] for _, refs in rows] for r in range(width)]


_M2_BLOCK = re.compile(r"S [^\r\n]*\r?\nA -?[0-9]+ -?[0-9]+\|\|\|")
"""The start of an M2 block: an ``S`` line, then an ``A`` line's span and separator."""


def _no_lone_surrogate(text: str, where: str, column: str) -> None:
    """A dataset's text holding a lone surrogate is an InputError naming its column and row."""
    if not text.isascii() and (lone := LONE_SURROGATE.search(text)):
        raise InputError(f"{where}: holds a lone surrogate ({lone.group()!r}), which is no Unicode text", column)


def _row_key(row: tuple[str | None, Any]) -> Hashable:
    source, refs = row
    if refs is not None and not isinstance(refs, tuple):  # an M2 block
        return ("gold", refs.source, tuple((e.start, e.end, e.type, e.correction, e.required, e.annotator)
                                         for e in refs.edits))
    return (source, refs)


def _row_sizes(row: tuple[str | None, Any]) -> tuple[int, tuple[int, ...]]:
    """The tokens of a row's source and of each of its references: a text reference's, or for
    a gold M2 block, each annotator's sentence as its edits could make it at most (the source's
    tokens and those of every correction of that annotator, alternatives too)."""
    source, refs = row
    if isinstance(refs, tuple):
        return len((source or "").split()), tuple(len(text.split()) for text in refs)
    if refs is None:
        return len((source or "").split()), ()
    tokens = len(refs.source.split())
    added: dict[int, int] = {}
    for edit in refs.edits:
        added[edit.annotator] = added.get(edit.annotator, 0) + sum(len(text.split()) for text in edit.alternatives)
    return tokens, tuple(tokens + count for count in added.values())


def _not_text(completion: str) -> str | None:
    """Why a completion is no text to score (a lone surrogate, which a model can emit through a
    byte-level decoder and spaCy cannot hash), else None."""
    if not completion.isascii() and LONE_SURROGATE.search(completion):
        return "a lone surrogate (no Unicode text)"
    return None


class _Sizes:
    """The tokens of a call's texts, each split once in the call, for the length guard and the
    budget: a row's (:func:`_row_sizes`, kept under its key) however many completions it has, and
    a completion's however many rows have it."""

    def __init__(self) -> None:
        self.rows: dict[Hashable, tuple[int, tuple[int, ...]]] = {}
        self.texts: dict[str, int] = {}

    def row(self, key: Hashable, row: tuple[str | None, Any]) -> tuple[int, tuple[int, ...]]:
        if key not in self.rows:
            self.rows[key] = _row_sizes(row)
        return self.rows[key]

    def text(self, text: str) -> int:
        if text not in self.texts:
            self.texts[text] = len(text.split())
        return self.texts[text]


def _refuse_unused(metric: Any, **given: Any) -> None:
    """An option the metric never reads is refused (None: not given), not silently ignored
    (``length_penalty``: given as None when the length guard is on, which reads it)."""
    if metric.hypothesis_kind != M2:
        for key in ("edit_language", "annotation"):
            _unused(key, given[key], f"metric {metric.display_name} reads completions as text: no annotator "
                                     "makes their edits")
    if metric.reference_kind == NONE:
        _unused("references_column", given["references_column"],
                f"metric {metric.display_name} is reference-free (reference_kind none): no references are read")
    if metric.reference_kind == M2:
        _unused("source_column", given["source_column"],
                f"metric {metric.display_name} takes the source from each gold M2 block: no source column is read")
    _unused("length_penalty", given["length_penalty"], "it is the value of the length guard: give max_length_ratio")


def _unused(option: str, value: Any, why: str) -> None:
    """Refuse an option given (not None) where it would have no effect."""
    if value is not None:
        raise InputError(f"{option} has no effect here: {why}", option)


_ESCAPED = {"-": "_", "_": "_5F", ".": "_2E", "+": "_2B"}
"""How a registered name is written in a reward's name: '-' as '_'; a plugin name's '_', '.' and
'+' as their uppercase hex codes (no registered name holds upper case, so two names never meet)."""

_PLAIN_VALUE = re.compile(r"[A-Za-z0-9._]+")


def reward_name(metric: Any, registered: str | None = None, column: int | None = None) -> str:
    """A reward function's ``__name__`` (TRL logs each reward under it): ``gecmetrics_`` and the
    registered name, the one given (``registered``) or the one the metric object's settings
    answer to (:func:`~gecmetrics.metrics.registry.registered_name`: ``GREEN(unit="char")`` is
    ``gecmetrics_green_char``), with ``-`` as ``_`` (a plugin name's ``_ . +`` as ``_5F _2E _2B``);
    for a class no name answers to, ``gecmetrics_`` and its ``module.Class``. Different registered
    names never give one reward name. Then each setting that differs from that name's (but
    those its metric declares ``run_only``, :func:`~gecmetrics.metrics.settings.setting`: how it
    runs, not its values), in declaration order, as ``-KEY_VALUE`` (several values joined by
    ``_``): ``gecmetrics_green-beta_0.5``; a value with other characters than letters, digits,
    ``.`` and ``_`` has them as ``_`` and the name ends in ``-`` and 8 hex digits of the settings'
    SHA-256 (two such values that differ in those characters alone still differ). A score column
    (``column``, its index; None: the metric's default) other than the metric's default (the
    first; BERTScore's F) ends it in ``-column_N``: GREEN's betas 0.5 and 2 are two columns of
    one setting, and two rewards of them give different values."""
    from ..metrics.registry import registered_name, settings_beyond

    registered = registered or registered_name(metric)
    if registered is None:
        cls = type(metric)
        name = f"gecmetrics_{cls.__module__}.{cls.__qualname__}"  # a '.': no registered name's form
    else:
        name = "gecmetrics_" + "".join(_ESCAPED.get(char, char) for char in registered)
    run_only = type(metric).settings_class.run_only_names()
    return name + _settings_suffix([(key, value) for key, value in settings_beyond(metric, registered)
                                    if key not in run_only]) + \
        ("" if column is None or column == metric.column_index(None) else f"-column_{column}")


def _settings_suffix(settings: list[tuple[str, Any]]) -> str:
    """``-KEY_VALUE`` for each setting (see :func:`reward_name`; no registered name holds '-')."""
    import hashlib

    from ..metrics.settings import signature_value

    parts, exact = [], True
    for key, value in settings:
        items = value if isinstance(value, (list, tuple)) else (value,)
        text = "_".join(map(signature_value, items))  # %g, unless it would round the value
        if not _PLAIN_VALUE.fullmatch(text):
            exact = False
            text = re.sub(r"[^A-Za-z0-9._]", "_", text)
        parts.append(f"-{key.rstrip('_')}_{text}")
    if not exact:
        parts.append("-" + hashlib.sha256(repr(settings).encode()).hexdigest()[:8])
    return "".join(parts)


def _number(value: Any, name: str) -> float:
    """A finite real number (a NumPy one too; not a bool, a text, 10**400 or nan)."""
    try:
        return check_score(value, name)
    except InputError:
        raise InputError(f"{name} must be a finite number, got {shown(value)}", name) from None


def _bound(value: Any, name: str, least: int = 1) -> int | None:
    """An integer option of at least ``least`` (a NumPy integer too, as every count of the
    package: :func:`~gecmetrics.core.checks.check_count`), or None (no bound; 0 is not a way to
    say it)."""
    return None if value is None else check_count(value, f"{name} (or None: no bound)", least)


def _metric(metric: Any, settings: Mapping[str, Any]) -> Any:
    from ..metrics.base import Metric
    from ..metrics.registry import get_metric

    if isinstance(metric, str):
        return get_metric(metric, **settings)
    if isinstance(metric, Metric):
        if settings:
            raise InputError(f"settings {', '.join(sorted(settings))} given with a metric object: set them on the "
                             "metric, or give its registered name", "metric")
        return metric
    raise InputError(f"metric must be a registered name or a Metric, got {type(metric).__name__}", "metric")


REWARD_OPTIONS = ("source_column", "references_column", "column", "fallback", "max_tokens", "max_cells",
                  "max_length_ratio", "length_penalty", "warn_every", "memo_size", "name", "edit_language",
                  "annotation", "cache")


def reward_function(metric: Any, **settings: Any) -> RewardFunction:
    """A reward function for TRL's ``GRPOTrainer`` (``reward_funcs=[f]``):
    ``f(prompts=None, completions=..., source=..., references=..., **kwargs) -> list[float]``.

    ``metric``: a registered name (its settings as keywords: ``reward_function("errant",
    beta=0.5, spacy_model=...)``) or a metric object. The reward's own options:
    ``source_column``/``references_column`` (the dataset columns, default ``source`` and
    ``references``), ``column`` (a metric with several score columns), ``fallback`` (0.0),
    ``max_tokens`` (1000), ``max_cells`` (250,000), ``max_length_ratio`` (None; ThinkGEC's guard
    is 2) with ``length_penalty`` (-1.0), ``warn_every`` (100), ``memo_size`` (100,000), ``name``
    (the function's ``__name__``, under which TRL logs it: default :func:`reward_name`,
    ``gecmetrics_green_char`` for ``"green-char"``); for a metric that reads hypothesis M2, the
    completions' edits come from the annotator of ``edit_language`` ("en": ERRANT's) made with
    ``annotation`` (its settings, e.g. ``{"spacy_model": ...}``); ``cache``: the persistent cache
    of parses and model outputs, as for ``corpus_score`` (None: the metric's own, else the
    default; True: the default folder; False: none; a folder or a ``Cache``). An option that
    would have no effect is one InputError naming it: ``edit_language``/``annotation`` for a
    metric that reads completions as text, ``source_column`` for gold M2 references (the source
    is the block's), ``references_column`` for a reference-free metric, ``length_penalty``
    without ``max_length_ratio``. See the module
    docstring and docs/rewards.md."""
    options = {key: settings.pop(key) for key in REWARD_OPTIONS if key in settings}
    built = _metric(metric, settings)
    if options.get("name") is None:  # the name given, not the one the settings answer to
        options["name"] = reward_name(built, metric if isinstance(metric, str) else None,
                                      built.column_index(options.get("column")))
    return RewardFunction(built, **options)


# ----------------------------------------------------------------------------- MBR


@dataclass
class MBRSelection:
    """:func:`mbr_select`'s answer: for each source, the index of the chosen candidate, its
    text, the utility matrix (``utilities[k][i, j]``: candidate i scored against candidate j as
    the reference; the diagonal is NaN, not computed) and each candidate's mean utility."""
    choices: list[int]
    selected: list[str]
    utilities: list[Any]
    expected: list[Any]


def _not_texts(value: Any) -> str:
    """What a value that should be a non-empty list of texts is, for a message: ``int at index
    1 of the list`` (the first item that is not a text), ``an empty list``, or its type."""
    if isinstance(value, Sequence) and not isinstance(value, (str, bytes)):
        wrong = next((j for j, text in enumerate(value) if not isinstance(text, str)), None)
        if wrong is not None:
            return f"{type(value[wrong]).__name__} at index {wrong} of the {type(value).__name__}"
        if not value:
            return f"an empty {type(value).__name__}"
    return type(value).__name__


def _listed(values: Any) -> Any:
    """A NumPy array (or a pandas Series) of values as the list it holds, as the metrics take
    them (its str items as str); anything else as it is."""
    if getattr(values, "ndim", 0) >= 1 and callable(getattr(values, "tolist", None)):
        return values.tolist()
    return values


def _check_mbr_sources(sources: Any, count: int, metric: Any) -> None:
    """``sources`` of :func:`mbr_select`: None, or one line per candidate list (each line's type is
    checked where it is read); None only for a metric that reads no source."""
    if sources is not None and (isinstance(sources, (str, bytes)) or not isinstance(sources, Sequence)
                                or len(sources) != count):
        raise InputError(f"sources must be a list of {plural(count, 'line')} (one per candidate list)",
                         "sources")
    if sources is None and getattr(metric, "reads_sources", True):  # "" would score against no source
        raise InputError(f"metric {metric.display_name} reads the source sentence: give sources (one line per "
                         "candidate list)", "sources")


def _mbr_choice(texts: Sequence[str], expected: Any) -> int:
    """The candidate of the highest expected utility (ties: the first); one that is no text is
    never chosen while one that is text is (on a tie of fallbacks it was, being first)."""
    import numpy as np

    return int(np.argmax(np.where([_not_text(text) is None for text in texts], expected, -np.inf)))


def _mbr_reward(metric: Any, settings: dict[str, Any]) -> "RewardFunction":
    """mbr_select's reward of ``metric``: the options that would do nothing refused, a metric
    whose references are not texts (each candidate is the others' reference) refused."""
    for key in ("source_column", "references_column"):
        _unused(key, settings.get(key), "mbr_select passes the candidates and sources to its reward itself")
    _unused("memo_size", settings.pop("memo_size", None), "mbr_select's reward lives for one call, whose copies are "
            "scored once: it keeps no values")
    _unused("name", settings.get("name"), "mbr_select's reward is not returned, so no trainer logs it by its name")
    f = reward_function(metric, memo_size=0, **settings)
    if f.metric.reference_kind != TEXT:
        raise InputError(f"metric {f.metric.display_name} does not take text references, and MBR takes each "
                         "candidate as the reference of the others (for edit F, use a metric that annotates text "
                         "references, e.g. ERRANT's annotate_refs=true)", "metric")
    return f


def mbr_select(candidates: Sequence[Sequence[str]], metric: Any, sources: Sequence[str] | None = None,
               **settings: Any) -> MBRSelection:
    """Minimum-Bayes-risk selection: for each source, the candidate with the highest mean
    utility against the others, each other candidate taken as the one reference (ties: the
    first; one that is no text, a lone surrogate, only when none is text). ``candidates``: one
    list of N texts per source; ``metric``: a name or metric object
    with text references (settings and the reward options as for :func:`reward_function`, but
    ``source_column`` and ``references_column``, refused: the columns are made here,
    ``memo_size``: the reward lives for this call and keeps no values, and ``name``: nothing logs it)."""
    import numpy as np

    candidates, sources = _listed(candidates), _listed(sources)
    if isinstance(candidates, (str, bytes)) or not isinstance(candidates, Sequence):
        raise InputError(f"candidates must be a list (one list of texts per source), got {type(candidates).__name__}",
                         "candidates")
    # a flat list of texts, said before the sources' count, whose message then misleads
    if candidates and all(isinstance(texts, str) for texts in candidates):
        raise InputError("candidates must be a list of candidate lists (one list of texts per source), got a list "
                         "of texts: one source's candidates are written [texts]", "candidates")
    f = _mbr_reward(metric, settings)
    _check_mbr_sources(sources, len(candidates), f.metric)
    completions, source_column, references, cells, fallen = [], [], [], [], []
    for k, texts in enumerate(candidates):
        texts = _listed(texts)
        if isinstance(texts, (str, bytes)) or not isinstance(texts, Sequence) or not texts \
                or not all(isinstance(t, str) for t in texts):
            raise InputError(f"candidates {k}: expected a non-empty list of texts, got {_not_texts(texts)}",
                             "candidates")
        source = "" if sources is None else sources[k]
        if not isinstance(source, str):
            raise InputError(f"sources {k}: expected a source line, got {type(source).__name__}", "sources")
        # a candidate that is no text (a lone surrogate) gets the fallback as the others' reference
        # too, as it does as a hypothesis: it is the model's output, not a dataset's reference
        no_text = [_not_text(text) for text in texts]
        for i, hypothesis in enumerate(texts):
            for j, reference in enumerate(texts):
                if i == j:
                    continue
                if no_text[j] is not None:
                    fallen.append(((k, i, j), no_text[j]))
                    continue
                completions.append(hypothesis)
                source_column.append(source)
                references.append(_one_line(reference))  # (as the reward reads it: a model's text, never
                # refused as a dataset's M2 text would be)
                cells.append((k, i, j))
    values = f(completions=completions, **{f.source_column: source_column, f.references_column: references})
    utilities = [np.full((len(texts), len(texts)), np.nan) for texts in candidates]
    for (k, i, j), value in zip(cells, values):
        utilities[k][i, j] = value
    for (k, i, j), reason in fallen:
        utilities[k][i, j] = f._fall_back(reason)
    # the exactly rounded mean (math.fsum): two candidates whose utilities are the same values in
    # another order (copies of one text) tie, and the first is chosen, whatever np.mean's order gave
    expected = [np.array([math.fsum(np.delete(u[i], i)) / (len(u) - 1) if len(u) > 1 else 0.0
                          for i in range(len(u))]) for u in utilities]
    choices = [_mbr_choice(texts, e) for texts, e in zip(candidates, expected)]
    return MBRSelection(choices, [texts[c] for texts, c in zip(candidates, choices)], utilities, expected)
