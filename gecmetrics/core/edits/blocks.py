"""What an edit is: the M2 data model every layer shares (SPEC 4.1).

A :class:`Block` is one sentence (its tokenized source) with its :class:`Edit` lines in file
order. :mod:`gecmetrics.io.m2` reads and writes them; the edit machinery of :mod:`gecmetrics.core`
(comparison, annotators) and the metrics build and read them. Nothing here touches a file.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from ...errors import InputError, plural, shown
from ..lines import LONE_SURROGATE

FIELD_SEPARATOR = "|||"
ALTERNATIVE_SEPARATOR = "||"
DELETION = "-NONE-"
NOOP_TYPE = "noop"
NO_TYPE = "(none)"
"""The type of a wrong system edit that overlaps no gold edit of the chosen annotator (the M2
scorer's per-type counts)."""
NOOP_SPAN = (-1, -1)

MAX_ANNOTATOR_ID = 2**31 - 1
"""Largest annotator id: ids are numbers (0, 1, ... in every known M2 file); ERRANT's statistics
encode a (hypothesis, reference) pair of them in one int64 (id * 2**31 + id), so they stay below
2**31. 4294967296 and 9223372036854775808 were OverflowErrors in the scorers."""


@dataclass(frozen=True, slots=True)
class Edit:
    """One ``A`` line: token span [start, end) of the source, error type, correction, annotator."""

    start: int
    end: int
    type: str
    correction: str
    """The raw correction field as in the file (may be '-NONE-', '' or hold '||' alternatives)."""
    required: str = "REQUIRED"
    comment: str = "-NONE-"
    annotator: int = 0
    edit_set: int = field(default=0, compare=False)
    """In ChERRANT's M2 files, the number n of the ``T<k>-A<n>`` line the edit follows (one of
    the target's equally cheap edit sets; 0 elsewhere). Not part of the line, nor of equality."""
    annotator_text: str = field(default="", compare=False)
    """The annotator field as the file wrote it (trailing whitespace stripped) when that is not
    ``str(annotator)``, e.g. ``01``; empty otherwise. errant_m2 keys annotators by that text (``01``
    and ``1`` are two annotators there, written back as read), the comparisons by the number.
    Written by :meth:`to_line`; not part of equality. It must name ``annotator``: a copy with
    another annotator number must reset it."""

    @property
    def annotator_key(self) -> str:
        """The annotator as errant_m2 knows it: the text of its field (``01`` is not ``1``)."""
        return self.annotator_text or str(self.annotator)

    @property
    def is_noop(self) -> bool:
        """True for an annotator's explicit "no change" line (type ``noop`` or span -1 -1)."""
        return self.type == NOOP_TYPE or (self.start, self.end) == NOOP_SPAN

    @property
    def alternatives(self) -> list[str]:
        """The alternative corrections ('||'-separated), with '-NONE-' read as the empty string."""
        return [normalize_correction(text) for text in self.correction.split(ALTERNATIVE_SEPARATOR)]

    @property
    def replacement(self) -> str:
        """The text that replaces the span when building a reference (the first alternative)."""
        return self.alternatives[0]

    def __reduce__(self):  # pickled by value, 2-3x faster than the frozen dataclass's state (workers)
        return (Edit, (self.start, self.end, self.type, self.correction, self.required, self.comment, self.annotator,
                       self.edit_set, self.annotator_text))

    def to_line(self) -> str:
        """The ``A`` line of this edit, without line terminator."""
        fields = [f"{self.start} {self.end}", self.type, self.correction, self.required, self.comment,
                  self.annotator_text or str(self.annotator)]
        return "A " + FIELD_SEPARATOR.join(fields)


@dataclass(slots=True)
class Block:
    """One sentence of an M2 file: its source text and its edit lines in file order."""

    source: str
    edits: list[Edit] = field(default_factory=list)
    line: int = 0
    """1-based line number of the ``S`` line in its file (0 when built in code)."""
    shown_source: str | None = field(default=None, compare=False)
    """What ERRANT's ``compare_m2 -v`` prints as this sentence ("Original sentence k: ..."), when
    it is not :attr:`source`: it takes the block's text from its third character to the next
    ``\nA``, so after an ``S`` line without its space (an empty sentence) it prints the block's
    first edit line. Set by the M2 reader (its line as read); None: the source."""

    @property
    def tokens(self) -> list[str]:
        return self.source.split()

    def annotators(self) -> list[int]:
        """Annotator ids that have at least one edit line in this block, sorted."""
        return sorted({edit.annotator for edit in self.edits})

    def edits_of(self, annotator: int) -> list[Edit]:
        """The edit lines of one annotator, in file order (noop lines included)."""
        return [edit for edit in self.edits if edit.annotator == annotator]

    def edit_line(self, index: int) -> int | None:
        """1-based file line of the ``index``-th edit line (an ERRANT M2 block's edit lines follow
        its ``S`` line), for messages; None for a block built in code."""
        return self.line + 1 + index if self.line else None

    def __reduce__(self):  # as Edit's
        return (Block, (self.source, self.edits, self.line, self.shown_source))


class ReadEdits(list):
    """The edits of a block as the M2 reader read and checked them against its ``source``:
    :func:`check_built_blocks` trusts a block whose edits are these, unchanged (``intact``) and
    of the same source, and checks any other (built in code, given new edits by
    ``dataclasses.replace``, or changed in place: each changing list method clears ``intact``)."""

    __slots__ = ("source", "intact")

    def __init__(self, edits: Iterable[Edit] = (), source: str = "") -> None:
        super().__init__(edits)
        self.source, self.intact = source, True

    def __reduce__(self):  # (workers get them as read: checked once, where they were read)
        return (_read_edits, (list(self), self.source, self.intact))

    def trusted_for(self, source: str) -> bool:
        """Whether these are the reader's checked edits of ``source``, unchanged since."""
        return self.intact and self.source == source


def _read_edits(edits: list, source: str, intact: bool) -> ReadEdits:
    read = ReadEdits(edits, source)
    read.intact = intact
    return read


def _changing(name: str) -> Any:
    method = getattr(list, name)

    def changed(self: ReadEdits, *args: Any) -> Any:
        self.intact = False
        return method(self, *args)

    changed.__name__ = name
    return changed


for _name in ("append", "extend", "insert", "pop", "remove", "clear", "sort", "reverse", "__setitem__",
              "__delitem__", "__iadd__", "__imul__"):
    setattr(ReadEdits, _name, _changing(_name))


class NamedBlocks(list):
    """The M2 blocks of one hypothesis with its name (its file), which a metric's messages give
    (:meth:`~gecmetrics.io.corpus.Corpus.hypothesis` hands M2 hypotheses over as these)."""

    def __init__(self, blocks: Iterable[Block], name: str) -> None:
        super().__init__(blocks)
        self.name = name

    def __reduce__(self):
        return (NamedBlocks, (list(self), self.name))


def blocks_name(blocks: Any, name: str | None = None, default: str = "hypothesis") -> str:
    """The name for messages about ``blocks``: ``name`` when given, else theirs (NamedBlocks),
    else ``default``."""
    return name or getattr(blocks, "name", None) or default


def the_reference(name: str) -> str:
    """The reference as a message names it: "the reference NAME", or "the reference" when its
    name is only that word (blocks given without a name), never "the reference reference"."""
    return "the reference" if name in ("", "reference") else f"the reference {name}"


def same_sentence(source: str, other: str) -> bool:
    """Whether two M2 source lines are one sentence: the same tokens (every M2 reader splits at
    runs of whitespace, so a line rebuilt from its tokens, as an annotator writes it, is the
    same sentence as one with two spaces, a tab or U+2028 between them)."""
    return source == other or source.split() == other.split()


def span_problem(start: int, end: int, n_tokens: int) -> str | None:
    """What is wrong with the token span [start, end) of an edit of a sentence of ``n_tokens``
    tokens (None: nothing; -1 -1 is the noop span)."""
    if (start, end) == NOOP_SPAN:
        return None
    if start < 0 or end < 0:
        return f"negative edit span {start} {end} (only -1 -1 is allowed, for noop)"
    if start > end:
        return f"edit span {start} {end} starts after it ends"
    if end > n_tokens:
        return f"edit span {start} {end} goes beyond the sentence ({plural(n_tokens, 'token')})"
    return None


def _line_break(text: str) -> bool:
    """Whether ``text`` would end its M2 line early (the reader splits on ``\n``; a ``\r``
    before it is a terminator)."""
    return "\n" in text or "\r" in text


def _field_problem(edit: Edit) -> str | None:
    """What keeps an Edit's text fields from being one ``A`` line the M2 reader reads back."""
    for label in ("type", "correction", "required", "comment"):
        text = getattr(edit, label)
        if not isinstance(text, str):
            return f"an Edit's {label} is a text, got {text!r}"
        if _line_break(text):
            return f"an Edit's {label} holds a line break, which an M2 line cannot: {text!r}"
        if FIELD_SEPARATOR in text or text.endswith("|"):  # a last '|' would join the separator after it
            return f"an Edit's {label} holds {FIELD_SEPARATOR!r} or ends with '|', which an M2 line cannot: {text!r}"
        if _lone_surrogate(text):  # (no file holds one: an edit scored as no M2 file could give it)
            return f"an Edit's {label} holds a lone surrogate, which is no Unicode text: {text!r}"
    return None


def _lone_surrogate(text: str) -> bool:
    return not text.isascii() and LONE_SURROGATE.search(text) is not None


def _annotator_problem(annotator: int) -> str | None:
    if annotator < 0:
        return f"annotator {annotator} is negative"
    if annotator > MAX_ANNOTATOR_ID:  # (an OverflowError in the scorers)
        return f"annotator {shown(annotator)} is more than {MAX_ANNOTATOR_ID:,} (gecmetrics.io.m2.MAX_ANNOTATOR_ID)"
    return None


def check_built_blocks(blocks: Iterable[Any], name: str) -> None:
    """M2 blocks given in code checked as the M2 reader checks a file's (it checked the blocks it
    read: those whose edits are still its :class:`ReadEdits` of their source are not checked
    again; any other, including a read block changed since, is): a :class:`Block` whose
    source is a text of one line and whose edits are :class:`Edit` lines of integer spans inside
    the sentence, text fields that fit in one ``A`` line and a non-negative integer annotator. (A
    list or a str where an Edit belongs was scored 0, or failed deep in a metric; a field holding
    ``|||`` was written as an M2 line the reader refuses.)"""
    for k, block in enumerate(blocks):
        if not isinstance(block, Block):
            raise InputError(f"expected M2 blocks (gecmetrics.read_m2, or gecmetrics.io.m2.Block), got "
                             f"{type(block).__name__} at sentence {k + 1}", name)
        if type(block.edits) is ReadEdits and block.edits.trusted_for(block.source):
            continue
        where = f"sentence {k + 1}"
        if not isinstance(block.source, str):
            raise InputError(f"{where}: a Block's source is its tokenized text, got {type(block.source).__name__}",
                             name)
        if _line_break(block.source):
            raise InputError(f"{where}: a Block's source is one line of text, got one holding a line break: "
                             f"{block.source!r}", name)
        if _lone_surrogate(block.source):
            raise InputError(f"{where}: a Block's source holds a lone surrogate, which is no Unicode text: "
                             f"{block.source!r}", name)
        if not isinstance(block.edits, (list, tuple)):
            raise InputError(f"{where}: a Block's edits are a list of Edit, got {type(block.edits).__name__}", name)
        n_tokens = len(block.source.split())
        for edit in block.edits:
            if not isinstance(edit, Edit):
                raise InputError(f"{where}: a Block's edits are Edit objects, got {type(edit).__name__} "
                                 "(gecmetrics.read_m2 reads A lines)", name)
            numbers = (edit.start, edit.end, edit.annotator)
            if any(isinstance(n, bool) or not isinstance(n, int) for n in numbers):
                raise InputError(f"{where}: an Edit's start, end and annotator are integers, got "
                                 f"{edit.start!r}, {edit.end!r}, {edit.annotator!r}", name)
            problem = span_problem(edit.start, edit.end, n_tokens) or _annotator_problem(edit.annotator) \
                or _field_problem(edit)
            if problem:
                raise InputError(f"{where}: {problem}", name)


def check_blocks(blocks: Any, name: str) -> list[Block]:
    """A list of M2 blocks (as :func:`read_m2` returns), with at least one: anything else is an
    InputError saying what was expected."""
    if isinstance(blocks, (str, bytes)) or not isinstance(blocks, Iterable):
        raise InputError(f"expected a list of M2 blocks (gecmetrics.io.m2.read_m2), got {type(blocks).__name__}", name)
    blocks = list(blocks)
    for k, block in enumerate(blocks):
        if not isinstance(block, Block):
            raise InputError(f"expected M2 blocks (gecmetrics.io.m2.read_m2), got {type(block).__name__} "
                             f"at sentence {k + 1}", name)
    if not blocks:
        raise InputError("has no sentences (an empty M2 file scores nothing)", name)
    return blocks


def normalize_correction(text: str) -> str:
    """'-NONE-' means "delete": the empty string. Other corrections are kept as they are."""
    return "" if text == DELETION else text


def format_m2(blocks: Iterable[Block]) -> str:
    """The M2 text of blocks: each block followed by one blank line. The S line of an empty
    sentence is ``S`` alone, as errant_m2 writes it (it strips each line it reads)."""
    parts = []
    for block in blocks:
        parts.append("S " + block.source + "\n" if block.source else "S\n")
        parts.extend(edit.to_line() + "\n" for edit in block.edits)
        parts.append("\n")
    return "".join(parts)
