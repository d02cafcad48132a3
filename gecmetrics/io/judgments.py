"""Human judgments of GEC system outputs, read from Appraise ranking XML.

Each ``<ranking-item>`` is one annotator ranking up to five outputs of one source sentence
(``src-id``); a ``<translation>`` names one or more systems (separated by spaces, or by commas
as in Napoles et al.'s file) whose outputs
were identical, sharing its ``rank`` (1 = best). WMT, GJG15 (Grundkiewicz et al., 2015) and SEEDA
(Kobayashi et al., 2024) turn every item into pairwise comparisons the way GJG15's
``print_pairs.pl`` / ``EW.pl`` do: every system gets the rank of its translation, every pair of
systems of one item is one comparison, won by the better rank and a tie when the ranks are equal
(systems sharing a translation, or translations given the same rank).
"""
from __future__ import annotations

import numbers
import os
import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence
from xml.parsers import expat

import numpy as np

from ..errors import InputError, kind_of, one_line, shown
from .text import (STDIN, ascii_integer, check_not_standard_output, check_path, check_sequence, check_system_names,
                   read_to_nul, standard_input)

_SYSTEM_SEPARATOR = re.compile(r"[\s,]+")
"""Systems sharing a translation: space-separated in GJG15's and SEEDA's files, comma-separated
in Napoles et al.'s (``system="CUUI,POST"``)."""
MISSING_SRC_ID = -1
"""``src_id`` of an item without a ``src-id`` attribute (Napoles et al.'s file has none): such
items count for system rankings, not for sentence-level meta-evaluation."""
EXCLUDED_USERS = ("admin",)
"""Users whose items GJG15's scripts skip (``return if $user eq "admin"``)."""
MAX_SRC_ID = 2**31 - 1
"""Largest ``src-id`` (and ``--src-ids`` value): a sentence number; no corpus comes near, and
NumPy's 64-bit arithmetic on it stays exact (1e30 was an OverflowError)."""
MAX_RANK = 1_000_000
"""Largest ``rank`` of a translation (Appraise ranks 1 to 5)."""
MAX_NAME_CHARS = 256
"""Longest element name, attribute name or system name (GJG15 and SEEDA: 31, at most 12 for a
system): a system name is printed in every table."""
MAX_ATTRIBUTE_CHARS = 4096
"""Longest attribute value (GJG15 and SEEDA: 123): a 50 MB one took 14 s and 1.4 GB."""
MAX_SYSTEMS = 100
"""Most distinct systems in one file (GJG15: 13, Napoles et al.: 14, SEEDA: 15): rankings count
wins in system by system tables, one per resample (30,000 systems named in a 200 KB file asked
for 7 GB)."""
MAX_COMPARISONS = 10_000_000
"""Most pairwise comparisons in one file (GJG15: 109,098; SEEDA: 33,544), about 400 MB as arrays:
an item of m systems makes m (m - 1) / 2 of them, so a small file could ask for gigabytes."""


@dataclass(frozen=True)
class RankingItem:
    """One annotator's ranking of the outputs of one source sentence."""

    src_id: int  # as written (GJG15 counts from 0, SEEDA from 1); -1 when the item has none
    user: str
    item_id: str
    line: int  # line of the <ranking-item> tag in the XML file
    systems: tuple[str, ...]  # every ranked system, expanded from its translation
    ranks: tuple[int, ...]  # the rank of each system (1 = best)
    translations: tuple[int, ...] = ()  # which <translation> of the item named each system (0, 1, ...)


@dataclass(frozen=True)
class Pairwise:
    """All pairwise comparisons of a set of judgments, one row per pair of systems of an item.

    ``better`` won against ``worse``; for a tie (``tie`` True) the two are in system order.
    """

    systems: tuple[str, ...]
    item: np.ndarray  # (P,) index of the ranking item each comparison comes from
    better: np.ndarray  # (P,) system index
    worse: np.ndarray  # (P,) system index
    tie: np.ndarray  # (P,) bool
    better_rank: np.ndarray  # (P,) the rank the item gave ``better`` (1 = best)
    worse_rank: np.ndarray  # (P,) the rank the item gave ``worse``

    @property
    def size(self) -> int:
        return int(self.item.shape[0])

    def cells(self) -> np.ndarray:
        """Each comparison's cell: ``better * S + worse`` when decided, ``S * S`` for a tie."""
        n = len(self.systems)
        return np.where(self.tie, n * n, self.better * n + self.worse)

    def win_counts(self) -> np.ndarray:
        """(S, S) matrix: how often system i beat system j."""
        n = len(self.systems)
        counts = np.bincount(self.cells(), minlength=n * n + 1)
        return counts[: n * n].reshape(n, n)


def _item_problem(item: RankingItem, known: set[str]) -> str | None:
    """What is wrong with a ranking item made in code (None: nothing)."""
    src_id = item.src_id
    if isinstance(src_id, bool) or not isinstance(src_id, numbers.Integral) \
            or not (src_id == MISSING_SRC_ID or 0 <= src_id <= MAX_SRC_ID):
        return f"src_id must be an integer from 0 to {MAX_SRC_ID:,} ({MISSING_SRC_ID}: none), got {shown(src_id)}"
    if not isinstance(item.systems, (tuple, list)) or not isinstance(item.ranks, (tuple, list)) \
            or len(item.systems) != len(item.ranks):
        return "systems and ranks must be tuples of the same length"
    unknown = [name for name in item.systems if name not in known]
    if unknown:
        return f"ranks {', '.join(map(repr, unknown))}, not among the judgments' systems"
    if len(set(item.systems)) != len(item.systems):
        return "a system is ranked twice"
    if any(isinstance(r, bool) or not isinstance(r, numbers.Integral) or not 1 <= r <= MAX_RANK for r in item.ranks):
        return f"ranks must be integers from 1 to {MAX_RANK:,}, got {shown(tuple(item.ranks))}"
    return None


@dataclass(frozen=True)
class Judgments:
    """The ranking items of one XML file, and the systems they rank (sorted by code point)."""

    source: str
    items: tuple[RankingItem, ...]
    systems: tuple[str, ...]
    excluded_users: tuple[str, ...] = field(default=EXCLUDED_USERS)

    def __post_init__(self) -> None:
        """Judgments made in code are checked as the XML reader checks a file's: ranks of nan, 0 or
        True were ranked, a system missing from ``systems`` left out, without a word."""
        names = check_system_names(self.systems)
        if not isinstance(self.items, (tuple, list)):
            raise InputError(f"items must be a tuple of RankingItem, got {kind_of(self.items)}", self.source)
        known = set(names)
        for number, item in enumerate(self.items, 1):
            if not isinstance(item, RankingItem):
                raise InputError(f"item {number}: a RankingItem, got {kind_of(item)}", self.source)
            problem = _item_problem(item, known)
            if problem:
                raise InputError(f"item {number} (src-id {item.src_id}): {problem}", self.source, item.line or None)

    @property
    def src_ids(self) -> np.ndarray:
        """The ``src-id`` of every item, shape (items,)."""
        return np.array([item.src_id for item in self.items], dtype=np.int64)

    @property
    def compared_systems(self) -> tuple[str, ...]:
        """The systems some comparison involves (named in an item beside another system)."""
        compared = {name for item in self.items if len(item.systems) >= 2 for name in item.systems}
        return tuple(name for name in self.systems if name in compared)

    def compared(self) -> "Judgments":
        """The judgments of the systems a human ranking can place (:attr:`compared_systems`):
        GJG15's ``print_pairs.pl`` writes comparisons only, so ``EW.py``, ``EW.pl`` and ``TS.py``
        never see a system ranked alone in every item (it counted among every system's S - 1
        opponents here, and Expected Wins came out times (S - 2) / (S - 1))."""
        systems = self.compared_systems
        return self if len(systems) == len(self.systems) else self.restricted(systems)

    def uncompared_note(self, among: Iterable[str] | None = None) -> str | None:
        """A warning naming the systems (of ``among``, default all) no comparison involves (each
        item naming them names no other system): no judgment gives them a human score, and
        rankings leave them out (:meth:`compared`); None when there are none."""
        compared = set(self.compared_systems)
        alone = [name for name in (self.systems if among is None else among) if name not in compared]
        if not alone:
            return None
        return (f"{os.path.basename(self.source)}: {', '.join(alone)} {'is' if len(alone) == 1 else 'are'} never "
                "compared with another system (ranked alone in every item): no human score, left out of the "
                "ranking (GJG15's EW.py, EW.pl and TS.py never see such a system)")

    def restricted(self, systems: Iterable[str]) -> "Judgments":
        """The same judgments with only ``systems`` kept in every item (SEEDA's system subsets
        drop the others from each ranking, as ``corr_sentence.py`` does)."""
        keep = check_system_names(systems)
        unknown = sorted(set(keep) - set(self.systems))
        if unknown:
            raise InputError(f"systems not in the judgments: {', '.join(unknown)}; "
                             f"they rank: {', '.join(self.systems)}", self.source)
        kept = set(keep)
        items = []
        for item in self.items:
            pairs = [(s, r) for s, r in zip(item.systems, item.ranks) if s in kept]
            translation = dict(zip(item.systems, item.translations))
            items.append(RankingItem(item.src_id, item.user, item.item_id, item.line, tuple(s for s, _ in pairs),
                                     tuple(r for _, r in pairs), tuple(translation.get(s, 0) for s, _ in pairs)))
        return Judgments(self.source, tuple(items), tuple(sorted(kept)), self.excluded_users)

    def pairwise(self) -> Pairwise:
        """Every pairwise comparison of every item (GJG15's expansion, see the module doc)."""
        index = {name: k for k, name in enumerate(self.systems)}
        items, better, worse, tie, better_rank, worse_rank = [], [], [], [], [], []
        pairs_of_size: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        for number, item in enumerate(self.items):
            m = len(item.systems)
            if m < 2:
                continue
            ids = np.array([index[s] for s in item.systems])
            ranks = np.array(item.ranks)
            if m not in pairs_of_size:
                pairs_of_size[m] = np.triu_indices(m, 1)
            first, second = pairs_of_size[m]
            swap = (ranks[second] < ranks[first]) | ((ranks[second] == ranks[first]) & (ids[second] < ids[first]))
            items.append(np.full(len(first), number))
            better.append(np.where(swap, ids[second], ids[first]))
            worse.append(np.where(swap, ids[first], ids[second]))
            tie.append(ranks[first] == ranks[second])
            better_rank.append(np.minimum(ranks[first], ranks[second]))
            worse_rank.append(np.maximum(ranks[first], ranks[second]))
        if not items:
            raise InputError("no ranking item compares two systems", self.source)
        return Pairwise(self.systems, *(np.concatenate(arrays) for arrays in (items, better, worse, tie,
                                                                              better_rank, worse_rank)))


# --------------------------------------------------------------------------- reading


class _ItemCollector:
    """expat callbacks that build RankingItems and report bad input with its line."""

    def __init__(self, parser: expat.XMLParserType, path: str, excluded_users: Sequence[str]) -> None:
        self.parser = parser
        self.path = path
        self.excluded = set(excluded_users)
        self.items: list[RankingItem] = []
        self.left_out = 0
        """Items by an excluded user."""
        self.current: dict | None = None
        self.names: set[str] = set()
        """Every system named so far (at most MAX_SYSTEMS)."""
        self.comparisons = 0
        """Of the items kept so far (at most MAX_COMPARISONS)."""

    def _error(self, message: str) -> InputError:
        return InputError(message, self.path, self.parser.CurrentLineNumber)

    def _integer(self, attributes: dict, name: str, tag: str, minimum: int, maximum: int, bound: str) -> int:
        text = attributes.get(name)
        if text is None:
            raise self._error(f"<{tag}> has no {name} attribute")
        value = ascii_integer(text)
        if value is None:
            raise self._error(f"<{tag}> {name}={text!r} is not an integer")
        if value < minimum:
            raise self._error(f"<{tag}> {name}={value} must be >= {minimum}")
        if value > maximum:
            raise self._error(f"<{tag}> {name}={value} is more than {maximum:,} (gecmetrics.io.judgments.{bound})")
        return value

    def _check_sizes(self, tag: str, attributes: dict) -> None:
        """Names and attribute values within MAX_NAME_CHARS and MAX_ATTRIBUTE_CHARS."""
        for name in (tag, *attributes):
            if len(name) > MAX_NAME_CHARS:
                raise self._error(f"a name of {len(name):,} characters ({name[:20]!r}...), more than "
                                  f"{MAX_NAME_CHARS} (gecmetrics.io.judgments.MAX_NAME_CHARS)")
        for name, value in attributes.items():
            if len(value) > MAX_ATTRIBUTE_CHARS:
                raise self._error(f"<{tag}> {name}= is {len(value):,} characters long, more than "
                                  f"{MAX_ATTRIBUTE_CHARS:,} "
                                  "(gecmetrics.io.judgments.MAX_ATTRIBUTE_CHARS)")

    def _check_system(self, name: str) -> None:
        """At most MAX_SYSTEMS distinct systems in the file."""
        if name not in self.names:
            if len(self.names) >= MAX_SYSTEMS:
                raise self._error(f"more than {MAX_SYSTEMS:,} distinct systems (gecmetrics.io.judgments.MAX_SYSTEMS)")
            self.names.add(name)

    def doctype(self, name: str, *_: Any) -> None:
        """A document type declaration is refused before its DTD is read: its entities would be
        expanded into attributes (``system="&s;"`` ranked the systems the DTD spelled out, a
        reference to an undeclared one in an external DTD was silently dropped), and expat bounds
        entity expansion only from version 2.4 (billion laughs)."""
        raise self._error(f"a document type declaration (<!DOCTYPE {name[:20]} ...>): judgments XML has none, "
                          "and its entities are neither expanded nor fetched")

    def start(self, tag: str, attributes: dict) -> None:
        self._check_sizes(tag, attributes)
        if tag == "ranking-item":
            if self.current is not None:
                raise self._error("<ranking-item> inside another <ranking-item>")
            src_id = self._integer(attributes, "src-id", tag, 0, MAX_SRC_ID, "MAX_SRC_ID") \
                if "src-id" in attributes else MISSING_SRC_ID
            self.current = {"src_id": src_id,
                            "user": attributes.get("user", ""), "id": attributes.get("id", ""),
                            "line": self.parser.CurrentLineNumber, "systems": [], "ranks": [], "translations": [],
                            "count": 0}
        elif tag == "translation":
            if self.current is None:
                raise self._error("<translation> outside a <ranking-item>")
            rank = self._integer(attributes, "rank", tag, 1, MAX_RANK, "MAX_RANK")
            names = _SYSTEM_SEPARATOR.split(attributes.get("system", "").strip())
            names = [name for name in names if name]
            if not names:
                raise self._error("<translation> has no system name")
            for name in names:
                if len(name) > MAX_NAME_CHARS:
                    raise self._error(f"a system name of {len(name):,} characters ({name[:20]!r}...), more than "
                                      f"{MAX_NAME_CHARS} (gecmetrics.io.judgments.MAX_NAME_CHARS)")
                if name in self.current["systems"]:
                    raise self._error(f"system {name!r} is ranked twice in one <ranking-item>")
                self._check_system(name)
                self.current["systems"].append(name)
                self.current["ranks"].append(rank)
                self.current["translations"].append(self.current["count"])
            self.current["count"] += 1

    def end(self, tag: str) -> None:
        if tag != "ranking-item":
            return
        item, self.current = self.current, None
        if item["user"] in self.excluded:
            self.left_out += 1
            return
        self.comparisons += len(item["systems"]) * (len(item["systems"]) - 1) // 2
        if self.comparisons > MAX_COMPARISONS:
            raise self._error(f"more than {MAX_COMPARISONS:,} pairwise comparisons by this <ranking-item>'s end "
                              "(gecmetrics.io.judgments.MAX_COMPARISONS)")
        self.items.append(RankingItem(item["src_id"], item["user"], item["id"], item["line"],
                                      tuple(item["systems"]), tuple(item["ranks"]), tuple(item["translations"])))


def _utf16(data: bytes) -> bool:
    """Whether XML starting with ``data`` is UTF-16 that expat detects (a byte-order mark, or
    ``<`` as its first character)."""
    return data[:2] in (b"\xff\xfe", b"\xfe\xff", b"<\0", b"\0<")


def check_no_nul(data: bytes, path: str) -> None:
    """A NUL byte (a binary file, or UTF-16 without its byte-order mark or encoding declaration
    that expat would read) is one InputError naming the line; UTF-16 that expat detects
    (:func:`_utf16`) is left to it."""
    position = data.find(b"\0")
    if position < 0 or _utf16(data):
        return
    raise InputError("NUL byte (is the file binary, or UTF-16 without a byte-order mark?): judgments are XML text",
                     path, data.count(b"\n", 0, position) + 1)


def parse_judgments(data: bytes, path: str = "<judgments>",
                    excluded_users: Sequence[str] = EXCLUDED_USERS) -> Judgments:
    """Judgments from the bytes of an Appraise ranking XML file (``path`` names it in errors)."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise InputError(f"expected the bytes of a judgments XML file, got {type(data).__name__}", path)
    excluded_users = _user_names(excluded_users)
    check_no_nul(data, path)
    parser = expat.ParserCreate()
    collector = _ItemCollector(parser, path, excluded_users)
    parser.StartDoctypeDeclHandler = collector.doctype
    parser.EntityDeclHandler = collector.doctype  # (only inside a DOCTYPE, refused first: a second guard)
    parser.StartElementHandler = collector.start
    parser.EndElementHandler = collector.end
    try:
        parser.Parse(data, True)
    except expat.ExpatError as err:
        raise InputError(f"malformed XML: {expat.ErrorString(err.code)} (column {err.offset + 1})",
                         path, err.lineno) from None
    except InputError:
        raise
    except (LookupError, ValueError) as err:  # the declared encoding: unknown, multi-byte, not a text codec
        raise InputError(f"cannot read the XML in its declared encoding (judgments are UTF-8 XML): "
                         f"{one_line(str(err))}", path, parser.CurrentLineNumber) from None
    if not collector.items and collector.left_out:
        raise InputError(f"every <ranking-item> ({collector.left_out:,}) is by an excluded user "
                         f"({', '.join(map(repr, excluded_users))})", path)
    if not collector.items:
        raise InputError("no <ranking-item> elements (is this an Appraise ranking XML file?)", path)
    systems = tuple(sorted({name for item in collector.items for name in item.systems}))
    return Judgments(path, tuple(collector.items), systems, tuple(excluded_users))


def _user_names(users: Any) -> tuple[str, ...]:
    """The excluded users, a sequence of names (one string is refused, never read as letters)."""
    names = tuple(check_sequence(users, "excluded_users", "user names", ordered=False))
    if not all(isinstance(name, str) for name in names):
        raise InputError(f"excluded_users must be user names (strings), got {shown(users)}")
    return names


def read_judgments(path: str | os.PathLike, excluded_users: Sequence[str] = EXCLUDED_USERS) -> Judgments:
    """Read an Appraise ranking XML file (GJG15's ``judgments.xml``, SEEDA's ``judgments_*.xml``)."""
    if not isinstance(path, (str, os.PathLike)):
        raise InputError(f"the judgments path must be a string or a path, got {type(path).__name__}")
    path = os.fspath(path)
    if not isinstance(path, str):
        raise InputError(f"the judgments path must be a string, got {type(path).__name__}")
    check_path(path)  # not ''
    if path == STDIN:  # read once, as the other inputs read '-'
        return parse_judgments(read_to_nul(standard_input(), _utf16), "<stdin>", excluded_users)
    try:
        with open(path, "rb") as handle:
            check_not_standard_output(handle, path)
            data = read_to_nul(handle, _utf16)  # (check_no_nul refuses a NUL outside UTF-16)
    except OSError as err:
        raise InputError(f"cannot read the judgments: {err.strerror}", path) from None
    return parse_judgments(data, path, excluded_users)
