"""Edit attribution: how much each edit of a hypothesis adds to a metric's sentence score.

A hypothesis is its source with edits applied. For a metric with sentence scores, v(E) is the
score of the source with only the edits E applied, so v(all) is the hypothesis's score and
v(none) the source's. The methods (gec-metrics' ``analysis/attributor``; Goto et al., 2025):

* ``add``: v({i}) - v(none), each edit applied alone to the source (n + 2 sentences);
* ``leave-one-out``: v(all) - v(all but i), each edit taken out of the hypothesis (n + 2);
* ``shapley``: the exact Shapley value, the sum over the sets E without i of
  |E|! (n - |E| - 1)! / n! * (v(E + i) - v(E)): all 2^n subsets are scored, so it is refused
  above ``max_exact_edits`` edits (an :class:`InputError` naming the bound and the alternative);
* ``sampled-shapley``: the mean over permutations of the edits of v(before + i) - v(before),
  where ``before`` are the edits ahead of i in the permutation: ``permutations`` distinct
  permutations drawn by a generator seeded with (seed, sentence number), or all n! of them when
  n! <= ``permutations`` (it is then the exact Shapley value).

What the parts add up to: the Shapley values sum to v(all) - v(none) (efficiency), and so does
each permutation's row of marginal contributions (a telescoping sum), hence their mean; both up
to floating-point rounding. Add and leave-one-out do not in general: they do when the metric is
additive over the edits, not when edits interact (two edits that only help together, an edit
whose worth depends on another). ``normalize=True`` rescales add and leave-one-out parts as
gec-metrics' ``AttributorAdd``/``AttributorSub`` do, by (v(all) - v(none)) / sum of the parts,
and sets them all to 0 when the parts sum to 0 (up to rounding: within ``NORMALIZE_ZERO``, 1e-12,
of the sum of their magnitudes); they then sum to the difference except in that case.

Edits are applied in source order whatever subset or permutation is scored, so a subset's
sentence never depends on the order edits were added (gec-metrics' ``apply_edits`` assumes
that order; its sampled Shapley at commit 320c830 applies them in permutation order).

Work done once: the candidate sentences of every sentence and method are built first, and each
distinct (sentence number, candidate text) is scored once, in one call of the scoring function.
"""
from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping, Sequence

import numpy as np

from ..core.checks import check_count, check_flag
from ..core.lines import sequence_problem
from ..core.table import escaped_cell
from ..errors import InputError, kind_of, plural

ADD = "add"
LEAVE_ONE_OUT = "leave-one-out"
SHAPLEY = "shapley"
SAMPLED_SHAPLEY = "sampled-shapley"
METHODS = (ADD, LEAVE_ONE_OUT, SHAPLEY, SAMPLED_SHAPLEY)
METHOD_ALIASES = {"loo": LEAVE_ONE_OUT, "sub": LEAVE_ONE_OUT, "shapley-sampling": SAMPLED_SHAPLEY,
                  "shapleysampling": SAMPLED_SHAPLEY}
"""Other names accepted for the methods (gec-metrics calls leave-one-out ``sub``)."""
OVER_BOUND_RULES = ("error", "sample", "skip")
DEFAULT_MAX_EXACT_EDITS = 10
"""Exact Shapley scores 2^n sentences: 1,024 at 10 edits."""
MAX_EXACT_EDITS_LIMIT = 20
"""The highest bound accepted (2^20, about a million sentences for one hypothesis)."""
DEFAULT_PERMUTATIONS = 100
MAX_PERMUTATIONS = 10_000
"""The most permutations sampled Shapley averages (each scores up to n + 1 sentences of n edits:
about as many as exact Shapley's bound; 10**400 ran all 12! orders of 12 edits, for hours)."""

ScoreFunction = Callable[[list], Sequence[float]]
"""``score(sentences: list[str]) -> list[float]``: a metric's sentence scores of candidate
hypotheses of one source."""
RowScoreFunction = Callable[[list, list], Sequence[float]]
"""``score(rows: list[int], sentences: list[str]) -> list[float]``: the sentence score of each
candidate text as a hypothesis of source ``rows[k]`` (0-based position in the corpus given)."""


@dataclass(frozen=True)
class EditSpan:
    """One edit of a hypothesis: source tokens [start, end) become ``correction`` (tokens;
    empty for a deletion, start == end for an insertion)."""

    start: int
    end: int
    correction: tuple[str, ...] = ()
    type: str = ""

    @property
    def correction_text(self) -> str:
        return " ".join(self.correction)


@dataclass(frozen=True)
class Attribution:
    """The attribution of one hypothesis's sentence score to its edits by one method."""

    method: str
    source: str  # the source tokens joined by single spaces
    hypothesis: str  # the source with every edit applied
    edits: tuple[EditSpan, ...]  # as given
    values: tuple[float, ...]  # one per edit, in the order of ``edits``
    full_score: float  # v(all edits): the hypothesis's sentence score
    empty_score: float  # v(no edit): the source's sentence score
    normalized: bool = False  # add / leave-one-out rescaled to sum to the difference
    permutations: int = 0  # sampled Shapley: permutations averaged
    exhaustive: bool = False  # sampled Shapley: all n! permutations were used (exact)
    seed: int | None = None
    scored: int = 0  # distinct candidate sentences this attribution needed
    in_place_of: str | None = None  # "shapley": sampled Shapley run for exact Shapley above the bound

    @property
    def delta(self) -> float:
        """v(all) - v(none): what the edits together add to the sentence score."""
        return self.full_score - self.empty_score

    @property
    def residual(self) -> float:
        """delta - sum of the parts (0 up to rounding for Shapley and sampled Shapley)."""
        return self.delta - math.fsum(self.values)

    def source_span(self, k: int) -> str:
        """The source tokens edit k (0 to the number of edits - 1) replaces, joined by spaces."""
        edit = self.edits[check_count(k, f"the edit number (0 to {len(self.edits) - 1})", 0, len(self.edits) - 1)]
        return " ".join(self.source.split(" ")[edit.start:edit.end]) if self.source else ""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (full precision)."""
        return {
            "method": self.method, "source": self.source, "hypothesis": self.hypothesis,
            "full_score": self.full_score, "empty_score": self.empty_score, "delta": self.delta,
            "normalized": self.normalized, "permutations": self.permutations, "exhaustive": self.exhaustive,
            "seed": self.seed, "scored": self.scored, "in_place_of": self.in_place_of,
            "edits": [{"start": e.start, "end": e.end, "original": self.source_span(k),
                       "correction": e.correction_text, "type": e.type, "attribution": self.values[k]}
                      for k, e in enumerate(self.edits)],
        }


# --------------------------------------------------------------------------- arguments


def method_name(method: str) -> str:
    """The canonical name of ``method`` (aliases: loo, sub, shapley-sampling)."""
    if not isinstance(method, str):
        raise InputError(f"an attribution method is a name, got {method!r}")
    name = method.strip().lower().replace("_", "-")
    name = METHOD_ALIASES.get(name, name)
    if name not in METHODS:
        raise InputError(f"unknown attribution method {method!r}; choose one of: {', '.join(METHODS)}")
    return name


def idle_options(methods: Sequence[str], given: Iterable[str], over_bound: str = "error") -> list[str]:
    """The options in ``given`` (names) that none of ``methods`` reads, so that giving them
    changed nothing: the bound and its fallback go with exact Shapley, the permutations and the
    seed with sampled Shapley (asked for, or exact Shapley's fallback with ``over_bound``
    ``sample``), ``normalize`` with add and leave-one-out. Names it does not know are not idle."""
    names = {method_name(method) for method in ([methods] if isinstance(methods, str) else methods)}
    exact = SHAPLEY in names
    sampled = SAMPLED_SHAPLEY in names or (exact and over_bound == "sample")
    readers = {"max_exact_edits": exact, "over_bound": exact, "permutations": sampled, "seed": sampled,
               "normalize": ADD in names or LEAVE_ONE_OUT in names}
    return [name for name in given if not readers.get(name, True)]


def refuse_idle_options(methods: Sequence[str], options: Mapping[str, Any], over_bound: str = "error") -> None:
    """The InputError for an option in ``options`` (those a caller gave) that ``methods`` never read."""
    idle = idle_options(methods, options, over_bound)
    if idle:
        listed = [methods] if isinstance(methods, str) else methods
        raise InputError(f"{idle[0]}={options[idle[0]]!r} does nothing with method(s) "
                         f"{', '.join(method_name(m) for m in listed)} (no method here reads it)")


def _where(row: int | None) -> str:
    return "" if row is None else f"sentence {row + 1}: "


def _tokens(source: str | Sequence[str], row: int | None) -> tuple[str, ...]:
    if isinstance(source, str):
        return tuple(source.split())
    if (problem := sequence_problem(source)) is not None:
        raise InputError(f"{_where(row)}a source is a text or a list of tokens, got {problem}")
    tokens = tuple(source)
    for token in tokens:
        if not isinstance(token, str) or not token or token != token.strip() or len(token.split()) != 1:
            raise InputError(f"{_where(row)}source tokens must be non-empty strings without spaces, got {token!r}")
    return tokens


def _correction(value: Any, row: int | None, k: int) -> tuple[str, ...]:
    if isinstance(value, str):
        return tuple(value.split())
    if isinstance(value, (list, tuple)):
        tokens = tuple(value)
        if all(isinstance(t, str) and t and len(t.split()) == 1 and t == t.strip() for t in tokens):
            return tokens
    raise InputError(f"{_where(row)}edit {k + 1}: the correction must be a string or a list of tokens, got {value!r}")


def as_edit(edit: Any, row: int | None = None, k: int = 0) -> EditSpan:
    """``edit`` as an :class:`EditSpan`: an EditSpan, a tuple (start, end, correction[, type])
    with the correction as text or tokens, an M2 edit (``start``, ``end``, ``replacement``,
    ``type``), an ERRANT edit (``o_start``, ``o_end``, ``c_str``) or an annotator edit
    (``o_start``, ``o_end``, ``correction``). A no-op edit (span -1 -1, type noop) is refused."""
    if isinstance(edit, EditSpan):
        span = edit
    elif isinstance(edit, (tuple, list)):
        if len(edit) not in (3, 4):
            raise InputError(f"{_where(row)}edit {k + 1}: expected (start, end, correction[, type]), got {edit!r}")
        edit_type = edit[3] if len(edit) == 4 else ""
        span = EditSpan(edit[0], edit[1], _correction(edit[2], row, k), edit_type)
    else:
        start = getattr(edit, "start", getattr(edit, "o_start", None))
        end = getattr(edit, "end", getattr(edit, "o_end", None))
        if hasattr(edit, "replacement"):
            text = edit.replacement
        elif hasattr(edit, "c_str"):
            text = edit.c_str
        else:
            text = getattr(edit, "correction", None)
        if start is None or end is None or text is None:
            raise InputError(f"{_where(row)}edit {k + 1}: not an edit (no start, end and correction): {edit!r}")
        span = EditSpan(start, end, _correction(text, row, k), getattr(edit, "type", "") or "")
    if not isinstance(span.type, str):
        raise InputError(f"{_where(row)}edit {k + 1}: the type must be a string, got {span.type!r}")
    for value in (span.start, span.end):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise InputError(f"{_where(row)}edit {k + 1}: start and end must be integers, "
                             f"got {span.start!r} {span.end!r}")
    if span.start < 0 or span.type == "noop":
        raise InputError(f"{_where(row)}edit {k + 1}: a no-op line (-1 -1 / noop) is not an edit; leave it out")
    if span.start > span.end:
        raise InputError(f"{_where(row)}edit {k + 1}: start {span.start} is after end {span.end}")
    if not isinstance(span.correction, tuple):
        span = EditSpan(span.start, span.end, _correction(span.correction, row, k), span.type)
    return EditSpan(int(span.start), int(span.end), span.correction, span.type)


def check_edits(tokens: Sequence[str], edits: Iterable[Any], row: int | None = None) -> tuple[EditSpan, ...]:
    """The edits as EditSpans, checked against the source: spans within the tokens, no two
    overlapping (insertions at one point are applied in the order given)."""
    if (problem := sequence_problem(edits)) is not None:
        # (a set: insertions at one point, applied in the order given, came in hash order)
        raise InputError(f"{_where(row)}the edits must be a list, got {problem}")
    spans = tuple(as_edit(edit, row, k) for k, edit in enumerate(edits))
    for k, span in enumerate(spans):
        if span.end > len(tokens):
            raise InputError(f"{_where(row)}edit {k + 1} ({span.start} {span.end}) is outside the source's "
                             f"{plural(len(tokens), 'token')}")
    order = sorted(range(len(spans)), key=lambda k: (spans[k].start, spans[k].end))
    for a, b in zip(order, order[1:]):
        if spans[b].start < spans[a].end:
            raise InputError(f"{_where(row)}edits {a + 1} ({spans[a].start} {spans[a].end}) and {b + 1} "
                             f"({spans[b].start} {spans[b].end}) overlap")
    return spans


# --------------------------------------------------------------------------- candidates


class _Sentence:
    """One source with its checked edits: builds the text of any subset (a bit mask over the
    edits), edits always applied in source order."""

    def __init__(self, tokens: tuple[str, ...], edits: tuple[EditSpan, ...]) -> None:
        self.tokens = tokens
        self.edits = edits
        self.n = len(edits)
        self.order = sorted(range(self.n), key=lambda k: (edits[k].start, edits[k].end))
        self.full = (1 << self.n) - 1

    def text(self, mask: int) -> str:
        pieces: list[str] = []
        position = 0
        for k in self.order:
            if mask >> k & 1:
                edit = self.edits[k]
                pieces.extend(self.tokens[position:edit.start])
                pieces.extend(edit.correction)
                position = edit.end
        pieces.extend(self.tokens[position:])
        return " ".join(pieces)


@dataclass
class _Plan:
    """What one method needs for one sentence: the subsets to score and how to combine them."""

    method: str
    masks: list[int]
    permutations: list[tuple[int, ...]] | None = None
    exhaustive: bool = False


def _plan(method: str, sentence: _Sentence, permutations: int, rng_seed: Sequence[int]) -> _Plan:
    n, full = sentence.n, sentence.full
    if method == ADD:
        return _Plan(method, [0, full] + [1 << i for i in range(n)])
    if method == LEAVE_ONE_OUT:
        return _Plan(method, [0, full] + [full ^ (1 << i) for i in range(n)])
    if method == SHAPLEY:
        return _Plan(method, list(range(1 << n)))
    orders, exhaustive = _permutations(n, permutations, rng_seed)
    if exhaustive:  # every order: every subset is reached
        return _Plan(method, list(range(1 << n)), orders, exhaustive)
    masks = {0}
    for order in orders:
        mask = 0
        for i in order:
            mask |= 1 << i
            masks.add(mask)
    return _Plan(method, sorted(masks), orders, exhaustive)


CACHED_ORDERS = 5
"""Every order of up to this many edits (120 at 5) is made once per process and kept; more are
made for each sentence (10 edits have 3,628,800)."""
CACHED_SHAPLEY_EDITS = 10
"""Up to this many edits, Shapley's subsets and weights are made once per process and kept
(about 250 KB for 1 to 10 edits; 20 edits alone would keep about 250 MB)."""


def _kept_up_to(limit: int) -> Callable[[Callable[[int], Any]], Callable[[int], Any]]:
    """What ``make(n)`` returns, made once per process for n <= ``limit`` and made again each
    call above it (so that what a large n needs is not held for the process's life)."""
    def wrap(make: Callable[[int], Any]) -> Callable[[int], Any]:
        kept = functools.lru_cache(maxsize=None)(make)
        return functools.wraps(make)(lambda n: kept(n) if n <= limit else make(n))
    return wrap


@_kept_up_to(CACHED_ORDERS)
def _all_orders(n: int) -> tuple[tuple[int, ...], ...]:
    return tuple(itertools.permutations(range(n)))


def _permutations(n: int, count: int, rng_seed: Sequence[int]) -> tuple[list[tuple[int, ...]], bool]:
    """All n! orders when n! <= count, else ``count`` distinct ones drawn at random."""
    total = 1
    for k in range(2, n + 1):
        total *= k
        if total > count:
            break
    if total <= count:
        return list(_all_orders(n)), True
    rng = np.random.default_rng(list(rng_seed))
    seen: set[tuple[int, ...]] = set()
    orders: list[tuple[int, ...]] = []
    while len(orders) < count:
        order = tuple(rng.permutation(n).tolist())
        if order not in seen:
            seen.add(order)
            orders.append(order)
    return orders, False


def _shapley_weights(n: int) -> np.ndarray:
    """|E|! (n - |E| - 1)! / n! for |E| = 0 .. n - 1."""
    whole = math.factorial(n)
    return np.array([math.factorial(s) * math.factorial(n - s - 1) / whole for s in range(n)])


@_kept_up_to(CACHED_SHAPLEY_EDITS)
def _shapley_terms(n: int) -> tuple[tuple[np.ndarray, np.ndarray, np.ndarray], ...]:
    """Per edit i of n: the subsets without i, the same with i, and the weight of each
    (:func:`_shapley_weights` of its size); the same for every sentence of n edits (read-only
    arrays: the kept ones are shared)."""
    masks = np.arange(1 << n)
    sizes = np.zeros(1 << n, dtype=np.int64)
    for bit in range(n):
        sizes += (masks >> bit) & 1
    weights = _shapley_weights(n)
    terms = []
    for i in range(n):
        without = masks[((masks >> i) & 1) == 0]
        term = (without, without | (1 << i), weights[sizes[without]])
        for array in term:
            array.flags.writeable = False
        terms.append(term)
    return tuple(terms)


def _combine(plan: _Plan, sentence: _Sentence, value: Mapping[int, float]) -> list[float]:
    n, full = sentence.n, sentence.full
    if n == 1:
        # one edit: every method gives it v(it) - v(none) (Shapley's one weight is 1.0, and the
        # one permutation's mean is its one difference), the same float each way
        return [value[1] - value[0]]
    if plan.method == ADD:
        return [value[1 << i] - value[0] for i in range(n)]
    if plan.method == LEAVE_ONE_OUT:
        return [value[full] - value[full ^ (1 << i)] for i in range(n)]
    if plan.method == SHAPLEY:
        if n == 0:
            return []
        v = np.array([value[mask] for mask in range(1 << n)], dtype=np.float64)
        return [float(np.dot(weights, v[with_i] - v[without])) for without, with_i, weights in _shapley_terms(n)]
    totals = [0.0] * n
    for order in plan.permutations or []:
        mask, before = 0, value[0]
        for i in order:
            mask |= 1 << i
            totals[i] += value[mask] - before
            before = value[mask]
    count = len(plan.permutations or []) or 1
    return [total / count for total in totals]


NORMALIZE_ZERO = 1e-12
"""Parts whose sum is within this fraction of the sum of their magnitudes sum to 0 for
``normalize``: a sum that is 0 but for the rounding of the scores (0.8, 0.4 and 0.3 less 0.5
each: 5.6e-17) divided the difference into parts of 1e15."""


def _normalized(parts: list[float], delta: float) -> list[float]:
    """gec-metrics' rescaling of add / leave-one-out parts to sum to ``delta`` (0 if they sum to 0,
    up to rounding: :data:`NORMALIZE_ZERO`)."""
    total = math.fsum(parts)
    zero = abs(total) <= NORMALIZE_ZERO * math.fsum(abs(part) for part in parts)
    weight = 0.0 if zero else delta / total
    return [weight * part for part in parts]


def _score_values(score: RowScoreFunction, rows: list[int], texts: list[str]) -> np.ndarray:
    if not texts:
        return np.zeros(0)
    try:
        returned = np.asarray(score(rows, texts))
        if returned.dtype.kind not in "fiu":  # (text such as "1" was converted, bools read as 0 and 1)
            raise TypeError(f"got {returned.dtype.name} values")
        values = returned.astype(np.float64)
    except InputError:
        raise
    except (TypeError, ValueError, OverflowError) as error:
        raise InputError(f"the score function must return one number per sentence: {error}") from None
    if values.shape != (len(texts),):
        raise InputError(f"the score function returned {plural(values.size, 'value')} (shape {values.shape}) for "
                         f"{plural(len(texts), 'sentence')}")
    if not np.all(np.isfinite(values)):
        k = int(np.flatnonzero(~np.isfinite(values))[0])
        raise InputError(f"the score function returned {float(values[k])!r} for sentence {rows[k] + 1}'s candidate "
                         f"{texts[k]!r}")
    return values


# --------------------------------------------------------------------------- attribution


def attribute_corpus_methods(sources: Sequence[str | Sequence[str]], edits: Sequence[Iterable[Any]],
                             score: RowScoreFunction, methods: Sequence[str] = (SHAPLEY,), *,
                             max_exact_edits: int = DEFAULT_MAX_EXACT_EDITS,
                             permutations: int = DEFAULT_PERMUTATIONS, seed: int = 0, normalize: bool = False,
                             over_bound: str = "error", first_row: int = 0) -> list[dict[str, Attribution | None]]:
    """Attributions of every hypothesis (``sources[r]`` with ``edits[r]``) by every method in
    ``methods``, scoring each distinct (r, candidate text) once in ONE call ``score(rows, texts)``.

    ``over_bound`` says what exact Shapley does for a hypothesis with more than
    ``max_exact_edits`` edits: ``error`` (an InputError naming the bound and the alternative),
    ``sample`` (sampled Shapley in its place; its ``method`` and ``in_place_of`` say so; with
    sampled Shapley also asked for, both keys hold its one Attribution) or ``skip`` (None).
    ``first_row``: the corpus position of ``sources[0]`` when these are a part of a corpus (the
    rows given to ``score``, sampled Shapley's seeds and the messages count from it: a corpus
    attributed part by part gives what it gives whole)."""
    options = _Options.checked(methods, max_exact_edits, permutations, seed, normalize, over_bound)
    first_row = check_count(first_row, "first_row", 0)
    if not callable(score):
        raise InputError(f"score must be a function, got {type(score).__name__}")
    for given in (sources, edits):
        if (problem := sequence_problem(given)) is not None:
            raise InputError(f"sources and edits are lists, one item per sentence, got {problem}")
    sources, edits = list(sources), list(edits)
    if len(sources) != len(edits):
        raise InputError(f"{plural(len(sources), 'source')} but "
                         f"{plural(len(edits), 'list of edits', 'lists of edits')}")
    candidates = _Candidates()
    for row, (source, row_edits) in enumerate(zip(sources, edits), start=first_row):
        tokens = _tokens(source, row)
        sentence = _Sentence(tokens, check_edits(tokens, row_edits, row))
        candidates.add(row, sentence, _sentence_plans(sentence, row, options))
    values = _score_values(score, candidates.rows, candidates.texts)
    return [_attributions(sentence, row_plans, candidates.values(k, values), candidates.mask_texts[k], options)
            for k, (sentence, row_plans) in enumerate(zip(candidates.sentences, candidates.plans))]


@dataclass(frozen=True)
class _Options:
    """The checked options of one attribution run."""

    methods: list[str]
    bound: int
    permutations: int
    seed: int
    normalize: bool
    over_bound: str

    @classmethod
    def checked(cls, methods: Sequence[str] | str, max_exact_edits: Any, permutations: Any, seed: Any,
                normalize: Any, over_bound: Any) -> "_Options":
        if not isinstance(methods, str) and (problem := sequence_problem(methods)) is not None:
            raise InputError(f"must be a method name or a list of them, got {problem}", "methods")
        names = [method_name(m) for m in ([methods] if isinstance(methods, str) else list(methods))]
        if not names:
            raise InputError("no attribution method given")
        if len(set(names)) != len(names):
            raise InputError(f"an attribution method is listed twice: {', '.join(names)}")
        bound = check_count(max_exact_edits, "max_exact_edits", 0, MAX_EXACT_EDITS_LIMIT, "MAX_EXACT_EDITS_LIMIT")
        permutations = check_count(permutations, "permutations", 1, MAX_PERMUTATIONS,
                                   "gecmetrics.stats.attribution.MAX_PERMUTATIONS")
        seed = check_count(seed, "seed", 0)
        check_flag(normalize, "normalize")
        if over_bound not in OVER_BOUND_RULES:
            raise InputError(f"unknown over_bound rule {over_bound!r}; choose one of: {', '.join(OVER_BOUND_RULES)}")
        return cls(names, bound, permutations, seed, normalize, over_bound)


def check_attribution_options(methods: Sequence[str] | str = METHODS, max_exact_edits: Any = DEFAULT_MAX_EXACT_EDITS,
                              permutations: Any = DEFAULT_PERMUTATIONS, seed: Any = 0, normalize: Any = False,
                              over_bound: Any = "error") -> None:
    """The InputError :func:`attribute_corpus_methods` raises for these options, raised before
    any sentence is read (a caller that hands parts of a corpus to workers checks them once)."""
    _Options.checked(methods, max_exact_edits, permutations, seed, normalize, over_bound)


def _sentence_plans(sentence: _Sentence, row: int, options: _Options) -> dict[str, _Plan | None]:
    """Each method's plan for one sentence; exact Shapley above the bound follows ``over_bound``
    (an error, sampled Shapley in its place, or None: skipped). Sampled Shapley is planned once
    per sentence: in exact Shapley's place it is the same plan as the sampled Shapley asked for
    beside it (the same permutations), and it is run and shown once."""
    plans: dict[str, _Plan | None] = {}
    sampled: list[_Plan] = []  # the sentence's one sampled Shapley plan, once made

    def sampled_plan() -> _Plan:
        if not sampled:
            sampled.append(_plan(SAMPLED_SHAPLEY, sentence, options.permutations, (options.seed, row)))
        return sampled[0]

    for name in options.methods:
        if name == SHAPLEY and sentence.n > options.bound:
            if options.over_bound == "error":
                raise InputError(
                    f"{_where(row)}exact Shapley over {plural(sentence.n, 'edit')} needs 2^{sentence.n} = "
                    f"{1 << sentence.n:,} scored sentences, above the bound max_exact_edits={options.bound} "
                    f"(--max-exact-edits): raise it (at most {MAX_EXACT_EDITS_LIMIT}), sample such sentences "
                    f"(over_bound='sample', --over-bound sample) or use sampled Shapley (method "
                    f"'{SAMPLED_SHAPLEY}', permutations={options.permutations})")
            plans[name] = None if options.over_bound == "skip" else sampled_plan()
        elif name == SAMPLED_SHAPLEY:
            plans[name] = sampled_plan()
        else:
            plans[name] = _plan(name, sentence, options.permutations, (options.seed, row))
    return plans


class _Candidates:
    """Every sentence's plans and the distinct (row, candidate text) pairs they need, in the
    order they were first needed: what one call of the scoring function scores."""

    def __init__(self) -> None:
        self.sentences: list[_Sentence] = []
        self.sentence_rows: list[int] = []
        self.plans: list[dict[str, _Plan | None]] = []
        self.mask_texts: list[dict[int, str]] = []
        self.index: dict[tuple[int, str], int] = {}
        self.rows: list[int] = []
        self.texts: list[str] = []

    def add(self, row: int, sentence: _Sentence, plans: dict[str, _Plan | None]) -> None:
        masks = sorted({mask for plan in plans.values() if plan is not None for mask in plan.masks})
        mask_text = {}
        for mask in masks:
            text = mask_text[mask] = sentence.text(mask)
            if (row, text) not in self.index:
                self.index[(row, text)] = len(self.texts)
                self.rows.append(row)
                self.texts.append(text)
        self.sentences.append(sentence)
        self.sentence_rows.append(row)
        self.plans.append(plans)
        self.mask_texts.append(mask_text)

    def values(self, k: int, scores: np.ndarray) -> dict[int, float]:
        """The ``k``-th sentence added: its score of each subset (mask) its plans need, from the
        scores of :attr:`texts`."""
        row = self.sentence_rows[k]
        return {mask: float(scores[self.index[(row, text)]]) for mask, text in self.mask_texts[k].items()}


def _attributions(sentence: _Sentence, plans: dict[str, _Plan | None], value: dict[int, float],
                  mask_text: dict[int, str], options: _Options) -> dict[str, Attribution | None]:
    """One sentence's attribution by each method, from the score ``value`` and the text
    ``mask_text`` of each subset (mask) of its edits. Methods that share a plan (exact Shapley
    sampled in its place, and sampled Shapley) share one Attribution, which says whose place
    it took (``in_place_of``)."""
    out: dict[str, Attribution | None] = {}
    made: dict[int, Attribution] = {}
    source = " ".join(sentence.tokens)  # one string for every method's Attribution
    for name, plan in plans.items():
        if plan is None:
            out[name] = None
            continue
        if id(plan) in made:
            out[name] = made[id(plan)]
            continue
        parts = _combine(plan, sentence, value)
        full, empty = value[sentence.full], value[0]
        rescale = options.normalize and plan.method in (ADD, LEAVE_ONE_OUT)
        if rescale:
            parts = _normalized(parts, full - empty)
        sampled = plan.method == SAMPLED_SHAPLEY
        replaced = SHAPLEY if sampled and plans.get(SHAPLEY) is plan else None
        out[name] = made[id(plan)] = Attribution(
            plan.method, source, mask_text[sentence.full], sentence.edits, tuple(parts),
            full, empty, normalized=rescale, permutations=len(plan.permutations or []) if sampled else 0,
            exhaustive=plan.exhaustive if sampled else False, seed=options.seed if sampled else None,
            scored=len({mask_text[m] for m in plan.masks}), in_place_of=replaced)
    return out


def distinct_attributions(sentence: Mapping[str, Attribution | None]) -> list[Attribution]:
    """The attributions of one sentence's ``{method: Attribution}``, each run once, in the
    methods' order: exact Shapley sampled in its place and the sampled Shapley asked for beside
    it are one run (one Attribution under both keys), shown once; skipped ones (None) left out."""
    seen: set[int] = set()
    out = []
    for attribution in sentence.values():
        if attribution is not None and id(attribution) not in seen:
            seen.add(id(attribution))
            out.append(attribution)
    return out


def attribution_signature(metric_signature: Any, methods: Sequence[str], max_exact_edits: int = DEFAULT_MAX_EXACT_EDITS,
                          permutations: int = DEFAULT_PERMUTATIONS, seed: int = 0, normalize: bool = False,
                          over_bound: str = "error", annotator: Any = None) -> Any:
    """The metric's signature (a :class:`~gecmetrics.metrics.results.Signature`) with the
    attribution's settings before its version: the methods, exact Shapley's bound and rule above
    it, sampled Shapley's permutations and seed where it can run, ``normalized`` where add or
    leave-one-out are rescaled (what else changes a number is the metric's). ``annotator``: the
    ERRANT annotator that gave the edits attributed or the candidate sentences theirs, when they
    were annotated: its fields follow the metric's, as ERRANT's signature names that annotator
    (``annotation_fields()``: ``spacy:3.8.18|model:en_core_web_sm-3.8.0``, then ``cache:on`` when
    its parses may come from the persistent cache)."""
    options = _Options.checked(methods, max_exact_edits, permutations, seed, normalize, over_bound)
    names = options.methods
    fields: list = [] if annotator is None else list(annotator.annotation_fields())
    fields.append(("attribution", ",".join(names)))
    if SHAPLEY in names:
        fields += [("max-exact", str(options.bound)), ("over-bound", options.over_bound)]
    if SAMPLED_SHAPLEY in names or (SHAPLEY in names and options.over_bound == "sample"):
        fields += [("perms", str(options.permutations)), ("seed", str(options.seed))]
    if options.normalize and (ADD in names or LEAVE_ONE_OUT in names):
        fields.append("normalized")
    return metric_signature.with_fields(*fields)


def attribute_corpus(sources: Sequence[str | Sequence[str]], edits: Sequence[Iterable[Any]],
                     score: RowScoreFunction, method: str = SHAPLEY, **options: Any) -> list[Attribution | None]:
    """Attributions of every hypothesis by one ``method``; options as in
    :func:`attribute_corpus_methods` (one scoring call for the whole corpus)."""
    name = method_name(method)
    _check_option_names("attribute_corpus", options)
    return [result[name] for result in attribute_corpus_methods(sources, edits, score, (name,), **options)]


_OPTION_NAMES = ("max_exact_edits", "permutations", "seed", "normalize", "over_bound", "first_row")
"""The options of :func:`attribute_corpus_methods` (after its methods)."""


def _check_option_names(function: str, options: Mapping[str, Any], known: Sequence[str] = _OPTION_NAMES) -> None:
    """An option ``function`` does not have is an InputError naming it and those it has (a
    TypeError named attribute_corpus_methods, which the caller never called)."""
    unknown = [name for name in options if name not in known]
    if unknown:
        raise InputError(f"{function} has no option {unknown[0]!r}; its options: {', '.join(known)}")


def attribute(source: str | Sequence[str], edits: Iterable[Any], score: ScoreFunction, method: str = SHAPLEY,
              **options: Any) -> Attribution:
    """The attribution of one hypothesis (``source`` with ``edits``) by ``method``:
    ``score(sentences) -> scores`` is called once, on the distinct candidate sentences.
    Options: ``max_exact_edits``, ``permutations``, ``seed``, ``normalize`` (see the module doc)."""
    if not callable(score):
        raise InputError(f"score must be a function, got {type(score).__name__}")
    if "over_bound" in options:
        raise InputError("over_bound applies to attribute_corpus; attribute raises above the bound")
    _check_option_names("attribute", options, [name for name in _OPTION_NAMES if name not in ("over_bound", "first_row")])
    result = attribute_corpus([source], [edits], lambda rows, texts: score(texts), method, **options)[0]
    assert result is not None
    return result


# --------------------------------------------------------------------------- output

TSV_COLUMNS = ("sentence", "method", "edit", "start", "end", "original", "correction", "type", "attribution",
               "full_score", "empty_score")


def attribution_rows(attributions: Sequence[Attribution | None] | Attribution,
                     first_sentence: int = 1) -> list[dict[str, Any]]:
    """One dict per edit (keys: :data:`TSV_COLUMNS`, then ``in_place_of``: "shapley" where
    sampled Shapley ran in exact Shapley's place, else None); ``sentence`` counts from
    ``first_sentence`` over the list given (None entries, skipped hypotheses, write nothing)."""
    first_sentence = check_count(first_sentence, "first_sentence", 0)
    if isinstance(attributions, Attribution):
        attributions = [attributions]
    elif sequence_problem(attributions) is not None:
        raise InputError(f"expected an Attribution or a list of them, got {kind_of(attributions)}")
    rows = []
    for position, attribution in enumerate(attributions):
        if attribution is None:
            continue
        if not isinstance(attribution, Attribution):
            raise InputError(f"expected Attribution objects, got {type(attribution).__name__}")
        for k, edit in enumerate(attribution.edits):
            rows.append({"sentence": first_sentence + position, "method": attribution.method, "edit": k + 1,
                         "start": edit.start, "end": edit.end, "original": attribution.source_span(k),
                         "correction": edit.correction_text, "type": edit.type,
                         "attribution": attribution.values[k], "full_score": attribution.full_score,
                         "empty_score": attribution.empty_score, "in_place_of": attribution.in_place_of})
    return rows


def attribution_tsv(attributions: Sequence[Attribution | None] | Attribution, first_sentence: int = 1) -> str:
    """The attributions as TSV: a header line, then one line per edit (floats at full precision,
    tabs and newlines in text escaped as \\t and \\n)."""
    lines = ["\t".join(TSV_COLUMNS)]
    for row in attribution_rows(attributions, first_sentence):
        cells = []
        for column in TSV_COLUMNS:
            value = row[column]
            cells.append(repr(value) if isinstance(value, float) else escaped_cell(value))
        lines.append("\t".join(cells))
    return "\n".join(lines) + "\n"
