"""The shared counting core: exact integer n-gram ids and per-sentence count tables.

Every metric of the library is a sum over n-grams of a function of (sigma, rho, eta): the
counts of an n-gram in the source, a reference and a hypothesis of one sentence (SPEC 1).
This module produces those triples in bulk with NumPy and knows nothing about any metric.

* Words get integer ids from a :class:`Vocabulary` (a dict over the corpus); characters are
  their code points. Each distinct line is counted once per :class:`Encoder`.
* The per-line loops (words to ids, n-gram ids, per-line counts) run in the optional C
  extension ``gecmetrics.core._counting`` when it was built, and otherwise in NumPy as described
  below; both give the same count tables up to the numbering of n-grams, which no metric sees
  (the test suite checks this); see :mod:`gecmetrics.core.backend`.
* Order-n ids are built from order-(n-1) ids: the pair (previous id, next unit id) is packed
  into one int64 and looked up in a sorted table of the pairs seen so far (:class:`NgramIndex`).
  Two different n-grams never share an id, and every text encoded with the same index
  shares the ids.
* A :class:`CountTable` holds, for one text and one order, the sorted packed keys
  (sentence, n-gram id) with their counts; joins between tables are sorted searches.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import chain
from typing import Any, Callable, Hashable, Iterable, Sequence

import numpy as np

from ..errors import InputError
from .backend import compiled as _counting, compiled_core_enabled
from .checks import check_count, check_flag
from .lines import check_lines, check_reference_lengths, check_reference_sets
from .offsets import ranges_index
from .units import UNITS, normalized_space

MAX_ORDER = 32
"""Upper bound of the n-gram order (-n): five times the longest order any published metric uses
(chrF: 6 characters). Memory grows with it (GREEN at character level on CoNLL-2014: 0.5 GB at
16, 1.1 GB at 32, 4.3 GB at 1000; 2147483648 was an OverflowError)."""

_SHIFT = np.int64(32)
_LOW = np.int64((1 << 32) - 1)
_MAX_ID = (1 << 31) - 1


class Vocabulary:
    """Maps words (``str.split()`` tokens) to consecutive integer ids, in order of first sight
    (with the C extension, its ``WordIds``: no str is made for a word already known)."""

    def __init__(self, compiled: bool = False) -> None:
        self._ids: Any = _counting.WordIds() if compiled else {}
        self._compiled = compiled

    def __len__(self) -> int:
        return len(self._ids)

    def encode(self, lines: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """The ids of all words of all lines, flattened, and the number of words per line."""
        ids = self._ids
        if self._compiled:
            flat, lengths = ids.encode(list(lines))
            return np.frombuffer(flat, np.int64), np.frombuffer(lengths, np.int64)
        setdefault = ids.setdefault
        encoded = [[setdefault(u, len(ids)) for u in line.split()] for line in lines]
        lengths = np.fromiter(map(len, encoded), dtype=np.int64, count=len(encoded))
        flat = np.fromiter(chain.from_iterable(encoded), dtype=np.int64, count=int(lengths.sum()))
        return flat, lengths


def _pack(high: np.ndarray, low: np.ndarray) -> np.ndarray:
    return (high.astype(np.int64) << _SHIFT) | low.astype(np.int64)


def sorted_unique(values: np.ndarray, return_counts: bool = False, runs: bool = False):
    """Sorted distinct values (and their counts), by sorting: NumPy's hash-based
    ``np.unique`` is several times slower on these int64 keys. ``runs``: the values are a
    few sorted runs, which a stable sort merges in linear time."""
    values = np.sort(values, kind="stable" if runs else "quicksort")
    if len(values) == 0:
        return (values, np.zeros(0, np.int64)) if return_counts else values
    starts = np.flatnonzero(np.concatenate(([True], values[1:] != values[:-1])))
    unique = values[starts]
    if not return_counts:
        return unique
    return unique, np.diff(np.append(starts, len(values)))


def locate(keys: np.ndarray, queries: np.ndarray, compiled: bool = False) -> np.ndarray:
    """The index of each query in the sorted, distinct ``keys``, or -1 where it is absent.
    The C extension merges the queries in one pass (a binary search wherever a query is smaller
    than the one before it: runs of sorted queries cost a merge each); NumPy searches each one."""
    if compiled:
        return np.frombuffer(_counting.positions(keys, queries), np.int64)
    if len(keys) == 0:
        return np.full(len(queries), -1, np.int64)
    where = np.searchsorted(keys, queries)
    where[where == len(keys)] = 0
    return np.where(keys[where] == queries, where, -1)


def _check_range(values: np.ndarray, what: str) -> None:
    if values.size and int(values.max()) > _MAX_ID:
        raise OverflowError(f"too many {what} for exact 32-bit ids; score the corpus in chunks")


DENSE_REFERENCE_CELLS = 1 << 24
"""Most (reference, key) cells of one order kept as one count array per reference over all the
reference-side keys (:class:`_ReferenceCounts`): the keys are those of every reference, so the
arrays grow with the square of the number of references (a reward row of 1,000 references of 50
words: 1 GB; 62,500 of 3 words: past 24 GB). Beyond, each reference keeps only where its own
n-grams sit, and its array is made when asked for."""
LEARN_CHARACTERS = 1 << 21
"""The most characters of new lines :meth:`Encoder.learn` counts in one call (the core's working
arrays take about 50 bytes a unit: 100 MB at character level, a fifth of it in words)."""


class _ReferenceCounts:
    """Each reference's counts on the reference-side keys (sorted, the union of the source's
    and every reference's): ``counts[r]`` an array over the keys (0 where reference r has no
    such n-gram), ``largest()`` the largest count over the references at each key. Kept whole
    within :data:`DENSE_REFERENCE_CELLS`, else made from each reference's own keys' places."""

    def __init__(self, size: int, places: Sequence[tuple[np.ndarray, np.ndarray]]) -> None:
        """``places``: per reference, where its n-grams are among the ``size`` keys, and their counts."""
        self.size = size
        self.dense: list[np.ndarray] | None = None
        self.places = list(places)
        if len(self.places) * size <= DENSE_REFERENCE_CELLS:
            self.dense, self.places = [self[r] for r in range(len(self.places))], []

    @classmethod
    def of_tables(cls, keys: np.ndarray, references: Sequence[CountTable], compiled: bool) -> "_ReferenceCounts":
        """The counts of reference tables, each looked up among the keys (each reference's keys
        are among them: every place is found)."""
        return cls(len(keys), [(locate(keys, r.keys, compiled), r.counts) for r in references])

    def __getitem__(self, reference: int) -> np.ndarray:
        if self.dense is not None:
            return self.dense[reference]
        places, counts = self.places[reference]
        found = np.zeros(self.size, dtype=np.int64)
        found[places] = counts
        return found

    def largest(self) -> np.ndarray:
        if self.dense is not None:
            return np.max(self.dense, axis=0)
        largest = np.zeros(self.size, dtype=np.int64)
        for places, counts in self.places:
            largest[places] = np.maximum(largest[places], counts)
        return largest


class NgramIndex:
    """Exact ids for n-grams of order >= 2, shared by every text encoded with it.

    For order n, an n-gram is the pair (id of its first n-1 units, id of its last unit);
    the pairs seen so far are kept sorted with their ids, and new pairs get new ids.
    """

    def __init__(self) -> None:
        self._keys: dict[int, np.ndarray] = {}
        self._ids: dict[int, np.ndarray] = {}

    def ids(self, order: int, prefix_ids: np.ndarray, last_ids: np.ndarray) -> np.ndarray:
        """The ids of the order-``order`` n-grams given as (prefix id, last unit id) pairs."""
        _check_range(prefix_ids, f"distinct {order - 1}-grams")
        _check_range(last_ids, "distinct units")
        pairs = _pack(prefix_ids, last_ids)
        order_of_pairs = np.argsort(pairs)
        sorted_pairs = pairs[order_of_pairs]
        is_first = np.concatenate(([True], sorted_pairs[1:] != sorted_pairs[:-1])) if len(pairs) else np.zeros(0, bool)
        unique = sorted_pairs[is_first]
        inverse = np.empty(len(pairs), np.int64)
        inverse[order_of_pairs] = np.cumsum(is_first) - 1
        known = self._keys.get(order, np.empty(0, np.int64))
        known_ids = self._ids.get(order, np.empty(0, np.int64))
        where = np.searchsorted(known, unique)
        found = where < len(known)
        found[found] = known[where[found]] == unique[found]
        unique_ids = np.empty(len(unique), np.int64)
        unique_ids[found] = known_ids[where[found]]
        new = ~found
        n_new = int(new.sum())
        if n_new:
            unique_ids[new] = np.arange(len(known), len(known) + n_new, dtype=np.int64)
            # both sorted: insert the new pairs in place rather than sorting everything again
            at = where[new]
            self._keys[order] = np.insert(known, at, unique[new])
            self._ids[order] = np.insert(known_ids, at, unique_ids[new])
        return unique_ids[inverse.reshape(-1)]


class _GrowingArray:
    """An int64 array that is appended to in place (capacity doubles), so that encoding
    text after text copies each row a bounded number of times."""

    def __init__(self, initial: Sequence[int] = ()) -> None:
        self._data = np.array(initial, dtype=np.int64)
        self._size = len(self._data)

    def __len__(self) -> int:
        return self._size

    @property
    def values(self) -> np.ndarray:
        return self._data[:self._size]

    def extend(self, values: np.ndarray) -> None:
        """Append ``values`` (int64). An empty array takes them as they are, not copied (the
        caller gives them up): a table made in one call is stored at its final size, its pages
        written once."""
        if not len(values):
            return
        if not len(self._data):
            self._data, self._size = values, len(values)
            return
        end = self._size + len(values)
        if end > len(self._data):
            grown = np.empty(max(end, 2 * len(self._data)), dtype=np.int64)
            grown[:self._size] = self.values
            self._data = grown
        self._data[self._size:end] = values
        self._size = end


@dataclass(frozen=True)
class CountTable:
    """Counts of the n-grams of one order in each sentence of one text.

    ``keys`` are sorted, unique packed (sentence, n-gram id) pairs; ``counts`` their counts.
    """

    keys: np.ndarray
    counts: np.ndarray

    def lookup(self, keys: np.ndarray, compiled: bool = False) -> np.ndarray:
        """The count of each packed key (0 where the text does not have it)."""
        if len(self.keys) == 0:
            return np.zeros(len(keys), np.int64)
        where = locate(self.keys, keys, compiled)
        return np.where(where >= 0, self.counts[where], 0)


class EncodedText:
    """One text (D sentences) as units and n-gram counts of orders 1..N.

    ``lengths``: the number of units in each sentence, shape (D,). ``lines``: the encoder's id
    of each sentence's line, shape (D,): equal ids, equal lines. ``tables[n - 1]`` holds the
    counts of order n (of the chosen sentences only, when the text was gathered for some of its
    sentences: see :meth:`Encoder.gather`); a text made by :meth:`Encoder.text` gathers them
    from its encoder's line tables when they are first read (an EncodedCorpus whose sentences
    repeat their source and references reads them only per distinct row). ``chosen``: the
    sentences whose n-grams the tables hold (a boolean mask), or None for all."""

    __slots__ = ("lengths", "lines", "chosen", "_tables", "_encoder")

    def __init__(self, lengths: np.ndarray, tables: tuple[CountTable, ...] | None, lines: np.ndarray,
                 encoder: Encoder | None = None, chosen: np.ndarray | None = None) -> None:
        if tables is None and encoder is None:
            raise ValueError("an EncodedText needs its tables or the encoder to gather them from")
        self.lengths, self.lines, self.chosen, self._tables, self._encoder = lengths, lines, chosen, tables, encoder

    @property
    def encoder(self) -> Encoder | None:
        """The encoder whose line tables hold this text's lines (None for a text gathered at once)."""
        return self._encoder

    @property
    def tables(self) -> tuple[CountTable, ...]:
        if self._tables is None:
            self._tables = self._encoder.gather(self.lines, self.chosen).tables
        return self._tables

    @property
    def size(self) -> int:
        return len(self.lengths)

    def ngram_counts(self, order: int) -> np.ndarray:
        """Number of n-grams of this order in each sentence: max(0, L - n + 1)."""
        return np.maximum(self.lengths - order + 1, 0)


@dataclass(frozen=True)
class Triples:
    """Rows of n-grams of one order with their counts sigma (source), rho (reference) and
    eta (hypothesis). Rows are sorted by sentence; ``edges[d]:edges[d + 1]`` are the rows of
    sentence d. See :meth:`EncodedCorpus.hypothesis_triples` and
    :meth:`EncodedCorpus.reference_triples` for which n-grams the rows hold."""

    sentence: np.ndarray
    sigma: np.ndarray
    rho: np.ndarray
    eta: np.ndarray
    edges: np.ndarray

    @property
    def size(self) -> int:
        """Number of sentences D."""
        return len(self.edges) - 1

    def per_sentence(self, values: np.ndarray) -> np.ndarray:
        """Sum per-n-gram values into one number per sentence, shape (D,): differences of
        cumulative sums at the sentence edges (exact for integers)."""
        cumulative = np.zeros(len(values) + 1, dtype=np.int64 if values.dtype.kind in "iub" else np.float64)
        np.cumsum(values, out=cumulative[1:])
        return cumulative[self.edges[1:]] - cumulative[self.edges[:-1]]


@dataclass(frozen=True)
class _HypothesisRows:
    """A hypothesis's n-grams of one order placed on the reference-side keys."""

    shared: np.ndarray
    """Which of its n-grams also occur in the source or a reference."""
    position: np.ndarray
    """For those, their row among the reference-side keys."""
    place: np.ndarray
    """For every one of its n-grams, that row, or -1 where it is not shared."""
    sentence: np.ndarray
    sigma: np.ndarray
    eta: np.ndarray
    edges: np.ndarray


class Encoder:
    """Turns lists of sentences into :class:`EncodedText` with shared, exact ids.

    Every text that must be compared with another (source, references, hypotheses of one
    corpus) must be encoded by the same Encoder. Each distinct line is counted once, however
    many texts contain it (a hypothesis mostly repeats its source): a text's count tables
    are then gathered from the lines' tables without sorting. ``calls`` counts the texts
    encoded (the compare command uses it to prove that each file is counted once).
    """

    def __init__(self, max_order: int, unit: str = "word", normalize_space: bool = False,
                 compiled: bool | None = None) -> None:
        max_order = check_count(max_order, "max_order", 1, MAX_ORDER, "gecmetrics.core.ngrams.MAX_ORDER")
        if unit not in UNITS:
            raise InputError(f"unit must be one of: {', '.join(UNITS)}; got {unit!r}")
        check_flag(normalize_space, "normalize_space")
        if compiled is None:
            compiled = compiled_core_enabled()
        elif compiled and _counting is None:
            raise RuntimeError("the C extension gecmetrics.core._counting is not built")
        self.max_order = max_order
        self.unit = unit
        self.normalize_space = normalize_space
        self.compiled = compiled
        self.vocabulary = Vocabulary(compiled)
        # exact ids of n-grams of order >= 2, kept across calls
        self._ngram_ids = _counting.NgramIds(max_order) if compiled else NgramIndex()
        self.calls = 0
        self._line_index: dict[str, int] = {}
        self._line_lengths = _GrowingArray()
        # per order: n-gram ids and counts of every known line, line after line (sorted by id
        # within a line), and where each line's rows start (one more entry than lines)
        self._grams = [_GrowingArray() for _ in range(max_order)]
        self._counts = [_GrowingArray() for _ in range(max_order)]
        self._starts = [_GrowingArray([0]) for _ in range(max_order)]

    def __getstate__(self) -> dict[str, Any]:
        """Pickled as its settings and its lines in the order they were first counted: the C
        extension's n-gram map cannot be pickled, and counting the same lines again in the same
        order gives every line the same id (and, with the C loops, every n-gram the same id)."""
        return {"settings": (self.max_order, self.unit, self.normalize_space, self.compiled), "calls": self.calls,
                "lines": list(self._line_index)}

    def __setstate__(self, state: dict[str, Any]) -> None:
        max_order, unit, normalize_space, compiled = state["settings"]
        self.__init__(max_order, unit, normalize_space, compiled and _counting is not None)
        lines = state["lines"]
        self._line_index = {line: k for k, line in enumerate(lines)}
        if lines:
            self._add_lines(lines)
        self.calls = state["calls"]

    def encode(self, sentences: Sequence[str]) -> EncodedText:
        return self.gather(self.line_ids(sentences))

    def text(self, line_of: np.ndarray, chosen: np.ndarray | None = None) -> EncodedText:
        """The text whose sentences are the lines ``line_of``, its tables gathered when first
        read (:meth:`gather`; ``chosen``: of those sentences only)."""
        return EncodedText(lengths=self._line_lengths.values[line_of], tables=None, lines=line_of, encoder=self,
                           chosen=chosen)

    def learn(self, texts: Iterable[Sequence[str]]) -> None:
        """Count the lines of ``texts`` not seen before, all in one pass: texts known beforehand
        (a corpus's source, references and hypotheses) are then found by :meth:`line_ids`, and
        the line tables are made once at their size instead of grown text after text (a
        character-level corpus's tables are tens of megabytes). The counting core's working
        arrays grow with the units of one call: the lines go in calls of at most
        :data:`LEARN_CHARACTERS` characters (CoNLL-2014's six files at character level, 737,000,
        in one). Not a text encoded: ``calls`` is unchanged."""
        index = self._line_index
        new_lines: list[str] = []
        size = 0
        for text in texts:
            for line in text:
                if line not in index:
                    index[line] = len(index)
                    new_lines.append(line)
                    size += len(line)
                    if size > LEARN_CHARACTERS:
                        self._add_lines(new_lines)
                        new_lines, size = [], 0
        if new_lines:
            self._add_lines(new_lines)

    def line_ids(self, sentences: Sequence[str]) -> np.ndarray:
        """The id of each sentence's line (a text: ``calls`` counts it); lines not seen before
        are counted now."""
        self.calls += 1
        index = self._line_index
        ids = list(map(index.get, sentences))
        if None in ids:
            new_lines: list[str] = []
            for d, found in enumerate(ids):
                if found is None:
                    line = sentences[d]
                    found = index.get(line)
                    if found is None:
                        found = index[line] = len(index)
                        new_lines.append(line)
                    ids[d] = found
            self._add_lines(new_lines)
        _check_range(np.array([len(ids)]), "sentences")
        return np.array(ids, dtype=np.int64)

    def gather(self, line_of: np.ndarray, chosen: np.ndarray | None = None) -> EncodedText:
        """The text whose sentences are the lines ``line_of`` (ids of :meth:`line_ids`), its
        count tables gathered from the lines' tables without sorting. ``chosen`` (a boolean
        mask): only those sentences' n-grams are in the tables (a sentence without rows sums
        to 0); the lengths are every sentence's."""
        if chosen is None:
            sentences, picked = np.arange(len(line_of), dtype=np.int64), line_of
        else:
            sentences = np.flatnonzero(chosen)
            picked = line_of[sentences]
        tables = []
        for k in range(self.max_order):
            starts = self._starts[k].values
            first = starts[picked]
            rows = starts[picked + 1] - first
            where = ranges_index(first, rows)
            tables.append(CountTable(_pack(np.repeat(sentences, rows), self._grams[k].values[where]),
                                     self._counts[k].values[where]))
        return EncodedText(lengths=self._line_lengths.values[line_of], tables=tuple(tables), lines=line_of,
                           chosen=chosen)

    def merged_sides(self, order: int, sides: Sequence[np.ndarray]
                     ) -> tuple[np.ndarray, np.ndarray, list[tuple[np.ndarray, np.ndarray]]]:
        """Texts of D rows given as line ids (``sides``), merged row by row from the line tables
        of one order with the C loops: the sorted packed (row, n-gram) keys of every n-gram of any
        side, the rows' edges among them, and per side where its n-grams are among the keys and
        their counts (what gathering each side's table, merging the keys and looking each side up
        gives)."""
        k = order - 1
        lines = np.ascontiguousarray(np.concatenate(sides) if sides else np.zeros(0, np.int64), dtype=np.int64)
        keys, edges, places = _counting.merge_sides(self._starts[k].values, self._grams[k].values,
                                                    self._counts[k].values, lines, len(sides))
        return (np.frombuffer(keys, np.int64), np.frombuffer(edges, np.int64),
                [(np.frombuffer(p, np.int64), np.frombuffer(c, np.int64)) for p, c in places])

    def placed_rows(self, order: int, lines: np.ndarray, sentences: np.ndarray, keys: np.ndarray, sigma: np.ndarray,
                    key_edges: np.ndarray, key_rows: np.ndarray | None) -> tuple[np.ndarray, ...]:
        """With the C loops: the n-grams of one order of the lines at ``sentences`` (increasing)
        of a text (``lines``: its line ids), each with its place among the sorted packed ``keys``
        of its sentence's key row (``key_rows[d]``, or d; that row's keys from ``key_edges``) or
        -1, ``sigma`` there (0 where not there), its count and its sentence, and the sentences'
        row edges (what gathering those sentences' table and locating its keys gives)."""
        k = order - 1
        as_int64 = lambda a: np.ascontiguousarray(a, dtype=np.int64)  # noqa: E731
        arrays = _counting.place_rows(
            self._starts[k].values, self._grams[k].values, self._counts[k].values, as_int64(lines),
            as_int64(sentences), as_int64(keys), as_int64(sigma), as_int64(key_edges),
            None if key_rows is None else as_int64(key_rows))
        return tuple(np.frombuffer(a, np.int64) for a in arrays)

    def _units(self, lines: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """Unit ids of all lines, flattened, and the number of units of each line."""
        if self.unit == "char":
            # a character's id is its code point: no dictionary needed
            if self.normalize_space:
                lines = [normalized_space(line) for line in lines]
            lengths = np.fromiter(map(len, lines), dtype=np.int64, count=len(lines))
            text = "".join(lines).encode("utf-32-le", errors="surrogatepass")
            return np.frombuffer(text, dtype=np.uint32).astype(np.int64), lengths
        return self.vocabulary.encode(lines)

    def _add_lines(self, lines: Sequence[str]) -> None:
        """Count the n-grams of lines not seen before and append them to the line tables."""
        unit_ids, lengths = self._units(lines)
        n_lines = len(lengths)
        _check_range(np.array([len(self._line_lengths) + n_lines]), "distinct lines")
        self._line_lengths.extend(lengths)
        if self.compiled:
            per_order = [tuple(np.frombuffer(a, np.int64) for a in order)
                         for order in self._ngram_ids.count(unit_ids, lengths)]
        else:
            per_order = self._count_lines(unit_ids, lengths)
        for k, (grams, counts, rows) in enumerate(per_order):
            self._starts[k].extend(np.cumsum(rows) + len(self._grams[k]))
            self._grams[k].extend(grams)
            self._counts[k].extend(counts)

    def _count_lines(self, unit_ids: np.ndarray, lengths: np.ndarray) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """Per order, line after line: the distinct n-gram ids of each line in increasing order,
        their counts, and the number of distinct n-grams of each line (NumPy loops)."""
        n_lines = len(lengths)
        starts = np.zeros(n_lines + 1, np.int64)
        np.cumsum(lengths, out=starts[1:])
        line_of = np.repeat(np.arange(n_lines, dtype=np.int64), lengths)
        position = np.arange(len(unit_ids), dtype=np.int64) - starts[line_of]
        remaining = lengths[line_of] - position  # units from this position to the end of its line
        gram_ids = unit_ids  # ids of the n-grams starting at each valid position
        valid = np.arange(len(unit_ids), dtype=np.int64)  # positions where an n-gram starts
        boundaries = np.arange(n_lines + 1)
        per_order = []
        for k in range(self.max_order):
            order = k + 1
            if order > 1:
                keep = remaining[valid] >= order
                prefix = gram_ids[keep]
                valid = valid[keep]
                gram_ids = self._ngram_ids.ids(order, prefix, unit_ids[valid + order - 1])
            keys, counts = sorted_unique(_pack(line_of[valid], gram_ids), return_counts=True)
            rows = np.diff(np.searchsorted(keys >> _SHIFT, boundaries))
            per_order.append((keys & _LOW, counts.astype(np.int64), rows))
        return per_order


@dataclass(frozen=True)
class _RowGroups:
    """Sentences of a corpus that repeat their source and every reference line (an edit
    attribution's candidates of one sentence, scored as a corpus): the source and reference
    n-grams are merged and looked up once per group, a group's sums given to each of its
    sentences."""

    of_sentence: np.ndarray
    """The group of each sentence, shape (D,): groups numbered in order of first occurrence."""
    first: np.ndarray
    """The first sentence of each group, shape (G,)."""

    SAVING = 0.75
    """Groups are used when there are at most this many groups per sentence (at least a quarter
    of the sentences repeat another's source and references); with fewer repeats the rows saved
    do not pay for looking a hypothesis's n-grams up in unsorted order."""

    @classmethod
    def of(cls, source_lines: np.ndarray, reference_lines: Sequence[np.ndarray]) -> "_RowGroups | None":
        """The groups of sentences with equal (source, references) line ids, or None where
        too few sentences repeat."""
        size = len(source_lines)
        if size < 4 or len(sorted_unique(source_lines)) > cls.SAVING * size:  # (equal rows have equal sources)
            return None
        rows = np.stack([source_lines, *reference_lines], axis=1)
        _, first, inverse = np.unique(rows, axis=0, return_index=True, return_inverse=True)
        if len(first) > cls.SAVING * size:
            return None
        order = np.argsort(first, kind="stable")
        rank = np.empty(len(first), dtype=np.int64)
        rank[order] = np.arange(len(first), dtype=np.int64)
        return cls(of_sentence=rank[inverse.reshape(-1)], first=first[order].astype(np.int64))

    @property
    def size(self) -> int:
        return len(self.first)

    def keys_of(self, keys: np.ndarray) -> np.ndarray:
        """Packed (sentence, n-gram) keys as (group, n-gram) keys."""
        return _pack(self.of_sentence[keys >> _SHIFT], keys & _LOW)


class EncodedCorpus:
    """A source and its references encoded once, and the hypotheses scored against them.

    Every metric here is a sum over n-grams of f(sigma, rho, eta) with f(0, 0, 0) = 0, so
    for one hypothesis

        sum over all n-grams f = sum over source/reference n-grams f(sigma, rho, 0)
                                 + sum over hypothesis n-grams [f(sigma, rho, eta) - f(sigma, rho, 0)]

    The first sum does not depend on the hypothesis (:meth:`reference_sums` keeps it); the
    second needs only the hypothesis's own n-grams (:meth:`hypothesis_triples`), looked up in
    the source and reference keys, which are merged once per order.
    """

    def __init__(self, sources: Sequence[str], references: Sequence[Sequence[str]], max_order: int,
                 unit: str = "word", normalize_space: bool = False, compiled: bool | None = None,
                 hypotheses: Sequence[Sequence[str]] = ()) -> None:
        """``hypotheses``: texts that will be scored, counted with the source and references in
        one pass (:meth:`Encoder.learn`); any other hypothesis is counted when it comes."""
        self.encoder = Encoder(max_order, unit, normalize_space, compiled)
        sources, references = check_lines(sources, "sources"), check_reference_sets(references)
        check_reference_lengths(references, len(sources))
        self.encoder.learn([sources, *references,
                            *(check_lines(text, f"hypothesis {k}") for k, text in enumerate(hypotheses))])
        self._start(self.encoder.line_ids(sources), [self.encoder.line_ids(ref) for ref in references])

    def __getstate__(self) -> dict[str, Any]:
        """Pickled as its encoder and its texts' line ids: the tables and caches are made again
        where it is unpickled (the encoder counts its lines again: :meth:`Encoder.__getstate__`)."""
        return {"encoder": self.encoder, "source": self.source.lines, "references": [r.lines for r in self.references]}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.encoder = state["encoder"]
        self._start(state["source"], state["references"])

    def _start(self, source_lines: np.ndarray, reference_lines: list[np.ndarray]) -> None:
        """The source and reference texts of these line ids, their row groups, and empty caches."""
        self.source = self.encoder.text(source_lines)
        self.references = [self.encoder.text(lines) for lines in reference_lines]
        # the rows the source and reference n-grams are merged on: the sentences, or the groups
        # of sentences repeating one source and references (their texts gathered once per group)
        self._groups = _RowGroups.of(source_lines, reference_lines)
        self._sides = [self.source, *self.references] if self._groups is None else \
            [self.encoder.text(lines[self._groups.first]) for lines in (source_lines, *reference_lines)]
        self._reference_sides: dict[int, tuple[np.ndarray, np.ndarray, list[np.ndarray], np.ndarray]] = {}
        self._reference_sums: dict[tuple, np.ndarray] = {}
        self._merged_rhos: dict[int, np.ndarray] = {}
        self._hypothesis_rows: tuple[EncodedText | None, dict[int, _HypothesisRows]] = (None, {})
        # the latest hypothesis: its sentences, line ids and unchanged sentences, and its texts
        self._latest: tuple[tuple[str, ...], np.ndarray, np.ndarray] | None = None
        self._texts: dict[bytes, EncodedText] = {}
        # per statistics key: the rows of the source lines left unchanged so far, and which
        self._source_rows: dict[Hashable, tuple[np.ndarray, np.ndarray]] = {}

    @property
    def size(self) -> int:
        return self.source.size

    @property
    def max_order(self) -> int:
        return self.encoder.max_order

    def hypothesis(self, sentences: Sequence[str]) -> EncodedText:
        """The hypothesis's count tables. Only the latest hypothesis is kept: every caller
        (the commands, ``compare``) asks all its metrics about one hypothesis before the next,
        so older tables would only hold memory; a hypothesis asked for again is gathered
        again from the line tables (its lines are not counted twice)."""
        lines, _ = self._hypothesis_lines(sentences)
        return self._text_of(lines, np.ones(self.size, dtype=bool))

    def sentence_statistics(self, key: Hashable, sentences: Sequence[str],
                            compute: Callable[[EncodedText], np.ndarray]) -> np.ndarray:
        """A hypothesis's per-sentence statistics ``compute(text)`` (D rows), where each row is a
        function of one sentence's source, references and hypothesis lines. A sentence left as
        its source line takes the row its source line got before, in any hypothesis, under the
        same ``key`` (the statistics' settings): ``compute`` sees a text holding the other
        sentences only, so the lines systems leave unchanged are scored once for all of them
        (and a completion equal to its prompt once)."""
        lines, unchanged = self._hypothesis_lines(sentences)
        known = self._source_rows.get(key)
        reused = unchanged & known[1] if known is not None else np.zeros(self.size, dtype=bool)
        if known is not None and reused.all():
            return known[0].copy()
        rows = compute(self._text_of(lines, ~reused))
        if reused.any():
            rows[reused] = known[0][reused]
        new = unchanged & ~reused
        if new.any():
            if known is None:
                known = self._source_rows[key] = (np.zeros_like(rows), np.zeros(self.size, dtype=bool))
            known[0][new] = rows[new]
            known[1][new] = True
        return rows

    def _hypothesis_lines(self, sentences: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """The latest hypothesis's line ids and which sentences it left as their source line
        (every metric asks about one hypothesis before the next: its lines are looked up once)."""
        key = tuple(sentences)
        if self._latest is None or self._latest[0] != key:
            lines = self.encoder.line_ids(key)
            self._latest = (key, lines, lines == self.source.lines)
            self._texts.clear()
        return self._latest[1], self._latest[2]

    def _text_of(self, lines: np.ndarray, chosen: np.ndarray) -> EncodedText:
        """The latest hypothesis's text holding the chosen sentences (shared by the metrics
        choosing the same ones)."""
        key = chosen.tobytes()
        text = self._texts.get(key)
        if text is None:  # (its tables gathered if read: the compiled merge reads the line tables)
            text = self._texts[key] = self.encoder.text(lines, None if chosen.all() else chosen)
        return text

    def _reference_side(self, order: int) -> tuple[np.ndarray, np.ndarray, list[np.ndarray], np.ndarray]:
        """Per order, once: every (row, n-gram) key of the source or any reference, with its
        count in the source and in each reference, and the row edges of those keys; the rows are
        the sentences, or the groups of sentences repeating their source and references
        (:class:`_RowGroups`)."""
        found = self._reference_sides.get(order)
        if found is None:
            if self.encoder.compiled:  # (the sides' lines merged from the line tables, nothing gathered)
                keys, edges, places = self.encoder.merged_sides(order, [side.lines for side in self._sides])
                (source_places, source_counts), *references = places
                sigma = np.zeros(len(keys), dtype=np.int64)
                sigma[source_places] = source_counts
                found = (keys, sigma, _ReferenceCounts(len(keys), references), edges)
            else:
                source, *references = (side.tables[order - 1] for side in self._sides)
                keys = sorted_unique(np.concatenate([source.keys] + [r.keys for r in references]), runs=True)
                edges = np.searchsorted(keys >> _SHIFT, np.arange(self._sides[0].size + 1))
                found = (keys, source.lookup(keys), _ReferenceCounts.of_tables(keys, references, False), edges)
            self._reference_sides[order] = found
        return found

    def _rho(self, order: int, reference: int | None) -> np.ndarray:
        """One reference's counts on the reference-side keys, or (None) the largest count
        over all references (kept per order: every hypothesis asks for it)."""
        rhos = self._reference_side(order)[2]
        if reference is not None:
            return rhos[reference]
        merged = self._merged_rhos.get(order)
        if merged is None:
            merged = self._merged_rhos[order] = rhos.largest()
        return merged

    def reference_triples(self, reference: int | None, order: int) -> Triples:
        """(sigma, rho, 0) of every n-gram of the source or of any reference: the terms
        f(sigma, rho, 0) of an empty hypothesis. ``reference=None``: rho is the largest
        count over all references (GLEU 2015's merged reference)."""
        triples = self._side_triples(reference, order)
        if self._groups is None:
            return triples
        # each sentence's rows are its group's
        first, rows = triples.edges[self._groups.of_sentence], np.diff(triples.edges)[self._groups.of_sentence]
        where = ranges_index(first, rows)
        return Triples(sentence=np.repeat(np.arange(self.size, dtype=np.int64), rows), sigma=triples.sigma[where],
                       rho=triples.rho[where], eta=triples.eta[where], edges=np.concatenate(([0], np.cumsum(rows))))

    def _side_triples(self, reference: int | None, order: int) -> Triples:
        """:meth:`reference_triples` of the rows of the reference side: the sentences, or the
        groups of sentences repeating their source and references."""
        keys, sigma, _, edges = self._reference_side(order)
        return Triples(sentence=keys >> _SHIFT, sigma=sigma, rho=self._rho(order, reference),
                       eta=np.zeros(len(keys), dtype=np.int64), edges=edges)

    def reference_sums(self, reference: int | None, order: int, name: str,
                       function: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> np.ndarray:
        """Per-sentence sums of ``function(sigma, rho)`` over :meth:`reference_triples`, kept
        under ``name``: a metric's hypothesis-independent part, computed once per corpus (and
        once per group of sentences repeating their source and references)."""
        key = (name, reference, order)
        found = self._reference_sums.get(key)
        if found is None:
            triples = self._side_triples(reference, order)
            sums = triples.per_sentence(function(triples.sigma, triples.rho))
            found = self._reference_sums[key] = sums if self._groups is None else sums[self._groups.of_sentence]
        return found

    def _hypothesis_side(self, hypothesis: EncodedText, order: int) -> _HypothesisRows:
        """Once per hypothesis and order: where its n-grams sit among the reference-side keys."""
        # one hypothesis at a time (every metric asks in turn); the cache holds the hypothesis
        # itself, so that a new one can never be mistaken for it
        cached_for, rows = self._hypothesis_rows
        if cached_for is not hypothesis:
            rows = {}
            self._hypothesis_rows = (hypothesis, rows)
        found = rows.get(order)
        if found is None and self.encoder.compiled and hypothesis.encoder is self.encoder:
            found = rows[order] = self._placed_rows(hypothesis, order)
        if found is None:
            keys, sigma, _, _ = self._reference_side(order)
            table = hypothesis.tables[order - 1]
            if self._groups is None:
                position = locate(keys, table.keys, self.encoder.compiled)
            else:  # (group, n-gram) keys: sorted within a sentence only (the C merge starts each
                # sentence with a binary search; NumPy searches each key)
                position = locate(keys, self._groups.keys_of(table.keys), self.encoder.compiled)
            shared = position >= 0
            place, position = position, position[shared]
            sigma_rows = np.zeros(len(table.keys), dtype=np.int64)
            sigma_rows[shared] = sigma[position]
            sentence = table.keys >> _SHIFT
            edges = np.searchsorted(sentence, np.arange(self.size + 1))
            found = rows[order] = _HypothesisRows(shared, position, place, sentence, sigma_rows, table.counts, edges)
        return found

    def _placed_rows(self, hypothesis: EncodedText, order: int) -> _HypothesisRows:
        """:meth:`_hypothesis_side` with the C loops: the hypothesis's chosen sentences' n-grams
        merged from the line tables with the reference-side keys of their rows (nothing gathered)."""
        keys, sigma, _, key_edges = self._reference_side(order)
        chosen = hypothesis.chosen
        sentences = np.arange(self.size, dtype=np.int64) if chosen is None else np.flatnonzero(chosen)
        key_rows = None if self._groups is None else self._groups.of_sentence
        place, sigma_rows, eta, sentence, edges = self.encoder.placed_rows(order, hypothesis.lines, sentences, keys,
                                                                           sigma, key_edges, key_rows)
        shared = place >= 0
        return _HypothesisRows(shared, place[shared], place, sentence, sigma_rows, eta, edges)

    def hypothesis_places(self, hypothesis: EncodedText, order: int,
                          reference: int | None) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """What :meth:`hypothesis_triples` is made of, for a compiled loop that reads rho where it
        needs it: (sigma, the reference's counts on the reference-side keys, each hypothesis
        n-gram's place among those keys or -1, eta, the sentences' row edges)."""
        rows = self._hypothesis_side(hypothesis, order)
        return rows.sigma, self._rho(order, reference), rows.place, rows.eta, rows.edges

    def hypothesis_triples(self, hypothesis: EncodedText, reference: int | None, order: int) -> Triples:
        """(sigma, rho, eta) of every n-gram of the hypothesis (eta > 0), against one
        reference, or (``reference=None``) the largest count over all references."""
        rows = self._hypothesis_side(hypothesis, order)
        rho = np.zeros(len(rows.eta), dtype=np.int64)
        rho[rows.shared] = self._rho(order, reference)[rows.position]
        return Triples(sentence=rows.sentence, sigma=rows.sigma, rho=rho, eta=rows.eta, edges=rows.edges)
