"""Corpora: D aligned sentences (source, reference sets, named hypotheses, gold M2), read from
files and checked once (:func:`read_corpus`), or made from Python lists (:class:`Corpus`)."""
from __future__ import annotations

import copy
import operator
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from ..core.checks import check_count
from ..errors import InputError, plural, shown
from ..kinds import M2, TEXT
from ..core.lines import (check_length, check_lines, check_reference_lengths, check_reference_sets, is_iterable,
                          sequence_problem, unordered)
from .text import (REPEATED_REFERENCE, blame_line_counts, check_distinct, check_named, check_paths, check_sequence,
                   check_stdin_once, read_lines, shown_path)

@dataclass
class Corpus:
    """D aligned sentences: the source, R reference sets (text), named hypotheses (lines of
    text, or M2 blocks for metrics that read hypothesis M2), and optionally the gold M2
    blocks of the same sentences (the references of the M2 family). Checked once, here:
    types, equal lengths, and gold M2 sources equal to the source sentences (SPEC 1, 4).

    ``hypothesis_m2`` gives text hypotheses their edits as M2 blocks too (e.g. from
    ``errant_parallel``), for metrics that read hypothesis M2 (CLEME, ERRANT's comparison)
    beside metrics that read the text: the blocks must annotate the source sentences and,
    applied, give the text. :meth:`hypothesis` hands each metric the kind it reads."""

    sources: list[str] | None
    references: list[list[str]] = field(default_factory=list)
    hypotheses: dict[str, list] = field(default_factory=dict)
    gold: list | None = None
    names: dict[str, str] = field(default_factory=dict)
    """File names for messages: 'source', 'gold', 'reference K' (default: descriptions)."""
    offset: int = 0
    """Sentences before this one in its files (a chunk of a larger corpus): for line numbers."""
    hypothesis_m2: dict[str, list] = field(default_factory=dict)
    """Hypothesis name -> its M2 blocks, for text hypotheses (see the class docstring)."""
    rows: list[int] | None = None
    """Each sentence's number in the whole corpus (0-based) where they are not ``offset``,
    ``offset + 1``, ...: edit attribution's candidates, several of one sentence, each keeps its
    sentence's place (:meth:`sentence_rows`, which a metric reading per-sentence data of the
    whole corpus reads: GoToScorer's weight file, a line per sentence)."""
    _named: dict = field(default_factory=dict, init=False, repr=False, compare=False)
    """Hypothesis name -> (its blocks, the same as NamedBlocks), made once (see hypothesis())."""

    def __post_init__(self) -> None:
        self.offset = check_count(self.offset, "offset (the number of the corpus's first sentence in the whole)", 0)
        self.names = _mapping(self.names, "names (roles such as 'source' -> file names)")
        source_name = self.name("source")
        from_gold = self.sources is None and self.gold is not None
        if from_gold:  # the gold blocks' own sentences: nothing to compare them with
            self.gold = _blocks_list(self.gold, self.name("gold"))
            self.sources = [_block_source(block, k, self.name("gold")) for k, block in enumerate(self.gold)]
            source_name = self.name("gold")  # what the other files' lengths are compared with
        self.sources = check_lines(self.sources, source_name, self.offset)
        if not self.sources:
            raise InputError("the corpus has no sentences (an empty file scores nothing)",
                             self.name("gold") if from_gold else source_name)
        self.references = check_reference_sets(self.references)
        d = len(self.sources)
        check_reference_lengths(self.references, d, lambda k: self.name(f"reference {k}"), source_name)
        _mapping(self.hypotheses, "hypotheses (names -> lines)")
        check_named(self.hypotheses, "hypotheses", "its hypothesis lines")  # (a key 1 was the system '1')
        self.hypotheses = {name: _hypothesis(h, name) for name, h in self.hypotheses.items()}
        if self.gold is not None and not from_gold:
            self.gold = _blocks_list(self.gold, self.name("gold"))
            check_m2_sources(self.gold, self.sources, self.name("gold"), source_name, self.offset)
        for name, hyp in self.hypotheses.items():
            if hyp and not isinstance(hyp[0], str):
                self.check_blocks(hyp, name, sources=False)  # the metric that reads them checks more
            else:
                check_length(hyp, d, name, source_name)
        given, self.hypothesis_m2 = dict(_mapping(self.hypothesis_m2, "hypothesis_m2 (names -> M2 blocks)")), {}
        check_named(given, "hypothesis_m2", "its M2 blocks")
        for name, blocks in given.items():
            self.add_hypothesis_m2(name, blocks)
        if self.rows is not None:
            self.rows = _checked_rows(self.rows, d)

    def check_blocks(self, blocks: Sequence[Any], name: str, sources: bool = True) -> None:
        """M2 blocks of a hypothesis must annotate the corpus's sentences: same count and (with
        ``sources``) the same tokens; errors name the file and the block's line. (ERRANT's
        comparison pairs blocks by position whatever their sources: its hypotheses are checked
        for their count only; CLEME checks the sources as it reads them.)"""
        _check_built(blocks, name)
        where = self.name("gold") if self.gold is not None else self.name("source")
        if len(blocks) != self.size:
            extra = len(blocks) > self.size
            line = getattr(blocks[self.size if extra else -1], "line", None) if blocks else None
            raise InputError(f"has {plural(len(blocks), 'sentence')} but {where} has {self.size}"
                             + ("" if extra or not line else " (the last one starts here)"), name, line or None)
        for k, (block, source) in enumerate(zip(blocks, self.sources) if sources else ()):
            number = self.offset + k + 1
            if not hasattr(block, "source"):
                raise InputError(f"expected M2 blocks, got {type(block).__name__} at sentence {number}", name)
            if not _annotates(block, source):
                place = f"sentence {number} of {where}" + (f" (line {self.gold[k].line})"
                                                           if self.gold is not None and self.gold[k].line else "")
                if self.gold is None:
                    place = f"line {number} of {where}"
                raise InputError(f"the source of sentence {number} differs from {place}", name, block.line or None)

    def add_hypothesis_blocks(self, name: str, blocks: Sequence[Any]) -> None:
        """Hypothesis ``name`` as M2 blocks (a metric that reads hypothesis M2 against the gold),
        checked to annotate the corpus's sentences first (:meth:`check_blocks`: errors name
        ``name`` and the block's line)."""
        self.check_blocks(blocks, name)
        self.hypotheses[name] = blocks

    def add_hypothesis_m2(self, name: str, blocks: Sequence[Any], file_name: str | None = None) -> None:
        """Give text hypothesis ``name`` its M2 blocks (read from ``file_name``, for messages),
        checked against the sentences and against the text."""
        if name not in self.hypotheses:
            raise InputError(f"hypothesis M2 for {name!r}, which is not a hypothesis of the corpus")
        shown = file_name or f"the M2 of {name}"
        blocks = _blocks_list(blocks, shown)
        self.check_blocks(blocks, shown)
        text = self.hypotheses[name]
        if text and isinstance(text[0], str):
            check_m2_text(blocks, text, self.sources, shown, name, self.offset)
        self.hypothesis_m2[name] = blocks
        if file_name is not None:
            self.names[f"m2 {name}"] = file_name

    def hypothesis(self, name: str, kind: str = TEXT, metric: str = "") -> list:
        """Hypothesis ``name`` as a metric reads it: :data:`~gecmetrics.kinds.TEXT` lines or
        :data:`~gecmetrics.kinds.M2` blocks."""
        if not isinstance(kind, str) or kind not in (TEXT, M2):
            raise InputError(f"kind must be {TEXT!r} (lines of text) or {M2!r} (M2 blocks), got {kind!r}", "kind")
        value = self.hypotheses[self._known(name)]
        is_text = not value or isinstance(value[0], str)
        if kind == M2 and is_text:
            if name in self.hypothesis_m2:
                return self._named_blocks(name, self.hypothesis_m2[name], self.names.get(f"m2 {name}", name))
            raise InputError(f"metric {metric or 'this metric'} reads hypotheses as M2 edits, and {name} is text: give "
                             "its M2 file (e.g. from errant_parallel) with --hyp-m2 (Python: hypothesis_m2=)")
        if kind != M2 and not is_text:
            raise InputError(f"metric {metric or 'this metric'} reads hypotheses as lines of text, and {name} is M2")
        return self._named_blocks(name, value, name) if kind == M2 else value

    def _known(self, name: Any) -> str:
        """``name`` when it names a hypothesis (its file name for files read), else an InputError
        listing them."""
        if not isinstance(name, str) or name not in self.hypotheses:
            raise InputError(f"no hypothesis {name!r} in the corpus; its hypotheses: {', '.join(self.hypotheses)}")
        return name

    def _named_blocks(self, key: str, blocks: list, shown: str) -> list:
        """``blocks`` as :class:`~gecmetrics.io.m2.NamedBlocks` named ``shown``, the same
        object on every call (metrics of one group recognise a hypothesis they have seen)."""
        from .m2 import NamedBlocks  # (here: a command on text files never loads the M2 code)

        made = self._named.get(key)
        if made is None or made[0] is not blocks:
            made = self._named[key] = (blocks, NamedBlocks(blocks, shown))
        return made[1]

    def name(self, role: str) -> str:
        """The file name of a role ('source', 'gold', 'reference K') for messages."""
        default = {"source": "the source", "gold": "the gold M2"}.get(role, role)
        return self.names.get(role, default)

    def source_file(self) -> str:
        """The source's name for a FILE:LINE message: its file (:meth:`name` says "the source
        FILE"), or "the source" without one."""
        return self.name("source").removeprefix("the source ")

    @property
    def size(self) -> int:
        return len(self.sources)

    def sentence_rows(self) -> Sequence[int]:
        """Each sentence's number in the whole corpus (0-based): ``rows`` if given, else
        ``offset`` on (a chunk of the corpus)."""
        return range(self.offset, self.offset + self.size) if self.rows is None else self.rows

    def slice(self, start: int, end: int, hypotheses: bool = True, gold: bool = True) -> "Corpus":
        """Sentences ``start:end`` of every text (already checked: no checks again); without
        the hypotheses and their M2 (``hypotheses`` False), or the gold M2 (``gold`` False), that
        a part sent to a worker does not need."""
        start = check_count(start, "start", 0, self.size)
        end = check_count(end, "end", start, self.size)  # (a negative start gave a negative offset)
        part = copy.copy(self)
        part.offset = self.offset + start
        part.rows = None if self.rows is None else self.rows[start:end]
        part.sources = self.sources[start:end]
        part.references = [ref[start:end] for ref in self.references]
        part.hypotheses = {name: lines[start:end] for name, lines in self.hypotheses.items()} if hypotheses else {}
        part.gold = None if self.gold is None or not gold else self.gold[start:end]
        part.hypothesis_m2 = ({name: blocks[start:end] for name, blocks in self.hypothesis_m2.items()}
                              if hypotheses else {})
        part._named = {}
        return part

    def keeping(self, names: Sequence[str]) -> "Corpus":
        """The same corpus with only the hypotheses ``names`` (and their M2 blocks), in that
        order (each of them checked to be one, not checked again)."""
        names = [self._known(name) for name in check_sequence(names, "names", "hypothesis names")]
        part = copy.copy(self)
        part.hypotheses = {name: self.hypotheses[name] for name in names}
        part.hypothesis_m2 = {name: self.hypothesis_m2[name] for name in names if name in self.hypothesis_m2}
        part._named = {}
        return part

    def with_hypotheses(self, hypotheses: Mapping[str, Sequence]) -> "Corpus":
        """The same source, references and gold with other hypotheses (checked; the M2 blocks
        of those of them that have some are kept)."""
        hypotheses = _mapping(hypotheses, "hypotheses")
        m2 = {name: self.hypothesis_m2[name] for name in hypotheses if name in self.hypothesis_m2}
        return Corpus(self.sources, self.references, dict(hypotheses), self.gold, dict(self.names), self.offset, m2,
                      self.rows)


def _mapping(value: Any, what: str) -> dict:
    """``value`` as a dict (the one given when it is one); anything but a mapping is an InputError."""
    if not isinstance(value, Mapping):
        raise InputError(f"{what} must be a mapping, got {type(value).__name__}")
    return value if isinstance(value, dict) else dict(value)


def _blocks_list(blocks: Any, name: str) -> list:
    """M2 blocks given as a list (or another ordered iterable), checked to be blocks; text, a
    number, a mapping or a set is an InputError naming ``name``."""
    if sequence_problem(blocks) is not None:
        raise InputError(f"expected a list of M2 blocks (gecmetrics.read_m2), got {type(blocks).__name__}", name)
    blocks = list(blocks)
    _check_built(blocks, name)
    return blocks


def _check_built(blocks: Sequence[Any], name: str) -> None:
    """:func:`~gecmetrics.core.edits.blocks.check_built_blocks` (imported here: a command on text
    files never loads the M2 code)."""
    from ..core.edits.blocks import check_built_blocks

    check_built_blocks(blocks, name)


def _checked_rows(rows: Any, size: int) -> list[int]:
    """``rows`` as a list of one sentence number (an integer >= 0) per sentence."""
    if isinstance(rows, (str, bytes)) or not is_iterable(rows):
        raise InputError(f"rows must be a list of sentence numbers, got {type(rows).__name__}", "rows")
    problem = unordered(rows)
    if problem is not None:
        raise InputError(f"rows must be a list of sentence numbers, got {problem}", "rows")
    rows = list(rows)
    if len(rows) != size:
        raise InputError(f"has {plural(len(rows), 'sentence number')} for {plural(size, 'sentence')}", "rows")
    for row in rows:
        if isinstance(row, bool) or not hasattr(row, "__index__") or operator.index(row) < 0:
            raise InputError(f"sentence numbers must be integers >= 0, got {shown(row)}", "rows")
    return [operator.index(row) for row in rows]


def _block_source(block: Any, k: int, name: str) -> str:
    source = getattr(block, "source", None)
    if not isinstance(source, str):
        raise InputError(f"expected M2 blocks, got {type(block).__name__} at sentence {k + 1}", name)
    return source


def _hypothesis(lines: Any, name: str) -> list:
    if sequence_problem(lines) is not None:
        return check_lines(lines, name)  # raises with the right message
    lines = list(lines)
    if lines and not isinstance(lines[0], str) and _is_block(lines[0]):
        return lines  # M2 blocks: checked by the metric that reads them
    return check_lines(lines, name)  # (a number first was called 'expected M2 blocks' for a text metric)


def _is_block(value: Any) -> bool:
    """Whether ``value`` is an M2 block (imported here: a command on text files never loads the
    M2 code)."""
    from .m2 import Block

    return isinstance(value, Block)


def check_m2_sources(blocks: Sequence[Any], sources: Sequence[str], m2_name: str = "the M2 file",
                     source_name: str = "the source", offset: int = 0) -> None:
    """Gold M2 blocks must annotate the same sentences as the source: same count, same tokens,
    or, for character-level M2 (ChERRANT's), the characters of the line without its whitespace
    (``offset``: sentences before these, for the numbers in messages)."""
    if len(blocks) != len(sources):
        raise InputError(f"has {plural(len(blocks), 'sentence')} "
                         f"but {source_name} has {plural(len(sources), 'line')}", m2_name)
    for i, (block, source) in enumerate(zip(blocks, sources), start=offset + 1):
        _block_source(block, i - 1, m2_name)
        if not _annotates(block, source):
            raise InputError(f"the source of sentence {i} differs from line {i} of {source_name}",
                             m2_name, block.line or None)


def _same_source(block: Any, source: str) -> bool:
    """Whether an M2 block's sentence is the source line as it is; the block then keeps the
    line's own string (one copy of each sentence for the source and every M2 file: about 70 MB
    of a report on 10^5 sentences with four M2 files)."""
    if block.source != source:
        return False
    if block.source is not source:
        try:
            block.source = source
        except AttributeError:  # (blocks of another, frozen kind keep theirs)
            pass
    return True


def _annotates(block: Any, source: str) -> bool:
    """Whether an M2 block's sentence is the source line: the same text (:func:`_same_source`),
    the same tokens, ChERRANT's character tokens of it, or its characters tokenised otherwise
    (``errant_parallel -tok``'s spaCy tokens: ``do n't`` for ``don't``; ERRANT's metric checks
    that they are its annotator's tokens)."""
    if _same_source(block, source):
        return True
    tokens = block.source.split()
    return tokens == source.split() or _characters_of(tokens, source) or "".join(tokens) == "".join(source.split())


def _characters_of(tokens: list[str], line: str) -> bool:
    """Whether M2 tokens are ChERRANT's character tokens of a text line."""
    from ..core.lang.zh.text import char_tokens, clean

    return len(tokens) <= len(line) and tokens == char_tokens(clean(line))


def check_m2_text(blocks: Sequence[Any], lines: Sequence[str], sources: Sequence[str], name: str, text_name: str,
                  offset: int = 0) -> None:
    """A hypothesis's M2 blocks, applied, must give its text, token for token: M2 files given in
    another order than the text files are caught here (``offset``: sentences before these, for
    the numbers in messages). The edits are one annotator's (0): a second annotator's would be
    scored as an alternative output that is not the text. Character-level blocks (ChERRANT's
    character tokens of their source line, ``[缺失成分]`` one of them, a one-character source too;
    their targets are converted to simplified characters and may hold several edit sets) are
    checked by their sources only."""
    from .m2_references import apply_edits  # M2 code only for corpora with M2

    for k, (block, line, source) in enumerate(zip(blocks, lines, sources), start=offset + 1):
        tokens = block.tokens
        if any(edit.edit_set for edit in block.edits):
            continue
        other = next((annotator for annotator in block.annotators() if annotator != 0), None)
        if other is not None:
            raise InputError(f"sentence {k} has edits of annotator {other}: the M2 of a hypothesis text holds that "
                             f"text's edits, as annotator 0 ({text_name})", name, block.line or None)
        if apply_edits(tokens, block.edits, name, block.line) != line.split() and not _characters_of(tokens, source):
            raise InputError(f"sentence {k} with its edits applied differs from line {k} of {text_name}",
                             name, block.line or None)


def read_corpus(source: str, references: Sequence[str], hypotheses: Sequence[str] = (),
                gold: str | None = None, hypothesis_m2: Sequence[str] = ()) -> Corpus:
    """Read source, reference and hypothesis files (and a gold M2 file, and the M2 files of the
    hypotheses, one per hypothesis file in the same order) and check that they are aligned.
    When line counts differ, the file that disagrees with all the others is named (a short
    source is the source's fault, not the first reference's)."""
    from .m2 import read_m2

    references, hypotheses = check_paths(references, "references"), check_paths(hypotheses, "hypotheses")
    hypothesis_m2 = check_paths(hypothesis_m2, "hypothesis_m2")
    check_stdin_once(*hypotheses, gold, source, *references, *hypothesis_m2)
    check_distinct(hypotheses, "(a corpus names its systems by path: the second would replace the first)")
    check_distinct(references, REPEATED_REFERENCE)
    if hypothesis_m2 and len(hypothesis_m2) != len(hypotheses):
        raise InputError(f"give one hypothesis M2 file per hypothesis file, in the same order: {len(hypothesis_m2)} "
                         f"M2 files for {len(hypotheses)} hypothesis files")
    src = read_lines(source)
    refs = [read_lines(path) for path in references]
    hyps = {path: read_lines(path) for path in hypotheses}
    names = {"source": f"the source {shown_path(source)}"} | {f"reference {k}": shown_path(p) for k, p in enumerate(references)}
    blame_line_counts([(shown_path(source), len(src))] + [(shown_path(p), len(r)) for p, r in zip(references, refs)]
                      + [(shown_path(p), len(h)) for p, h in hyps.items()])
    blocks = None
    if gold is not None:
        blocks = read_m2(gold)
        names["gold"] = shown_path(gold)
    corpus = Corpus(src, refs, {}, blocks, names)
    corpus.hypotheses = {path: lines for path, lines in hyps.items()}  # lengths checked above
    if hypothesis_m2:
        for path, m2_path in zip(hypotheses, hypothesis_m2):
            corpus.add_hypothesis_m2(path, read_m2(m2_path), shown_path(m2_path))
    return corpus


def read_m2_corpus(gold_path: str, hypotheses: Sequence[str]) -> Corpus:
    """The gold M2 and the system outputs scored against it (one line per block)."""
    from .m2 import read_m2

    check_stdin_once(*hypotheses, gold_path)
    blocks = read_m2(gold_path)
    gold_name = shown_path(gold_path)
    corpus = Corpus(None, [], {}, blocks, {"source": gold_name, "gold": gold_name})
    for path in hypotheses:
        lines = read_lines(path)
        name = shown_path(path)
        if len(lines) != len(blocks):
            raise InputError(f"has {plural(len(lines), 'line')} "
                             f"but the M2 file {gold_name} has {plural(len(blocks), 'block')}", name)
        corpus.hypotheses[path] = lines
    return corpus


def read_m2_hypotheses(reference: str, hypotheses: Sequence[str], target_lines: bool = False) -> Corpus:
    """The reference M2 and the hypothesis M2 files, checked sentence by sentence
    (``target_lines``: ChERRANT's M2 files, see :func:`~gecmetrics.io.m2.read_m2`)."""
    from .m2 import read_m2

    check_stdin_once(*hypotheses, reference)
    blocks = {shown_path(path): read_m2(path, target_lines) for path in hypotheses}
    corpus = Corpus(None, [], blocks, read_m2(reference, target_lines),
                    {"source": shown_path(reference), "gold": shown_path(reference)})
    for name, hypothesis in blocks.items():
        corpus.check_blocks(hypothesis, name)  # the same sentences: errors name the file and line
    return corpus
