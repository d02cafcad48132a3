"""CLEME's chunk partition (Ye et al., EMNLP 2023), on M2 input.

A sentence's source is cut into chunks whose boundaries are shared by the hypothesis and every
reference: the source spans of all their edits are sorted by start and merged whenever one starts
at or before the end of the previous one (touching spans merge too); each merged span is one
*corrected* chunk (zero-length for insertions only), and the source tokens between them are
*unchanged* chunks. Each target (hypothesis or reference) then reads as one token sequence per
chunk: the source tokens of the chunk with that target's edits inside it applied. A chunk of a
target is *marked* when the target has an edit inside it (even one that leaves the text as it
was, which CLEME still counts as a correction).

How an M2 block becomes targets follows THUKElab/CLEME's M2 reader (commit e90abea):
``-1 -1`` lines are "no edit", a correction is split on whitespace and means "delete" when its
first token is ``-NONE-`` (``||`` alternatives are not split), and a reference whose corrected
text is empty is dropped (all but the first when every reference is empty). Inputs on which that
reader silently misreads (annotator ids not 0, 1, 2 ... in order, or one annotator's edits out
of order or overlapping) raise :class:`InputError` here instead.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ...errors import InputError, LineRefused
from ...io.m2 import Block, Edit

DELETE_MARKER = "-NONE-"
NOOP_TYPES = ("noop", "NA")
NOOP_SPAN = (-1, -1)

Span = tuple[int, int]


@dataclass(frozen=True)
class TargetEdit:
    """One edit of a target: source span [start, end) and the tokens that replace it."""

    start: int
    end: int
    tokens: tuple[str, ...]


@dataclass(frozen=True)
class Target:
    """One corrected version of a source (a hypothesis or one reference): its edits, sorted."""

    edits: tuple[TargetEdit, ...]
    length: int
    """Number of tokens of the corrected text."""


@dataclass(frozen=True)
class SentenceChunks:
    """The chunk partition of one sentence: the chunk spans over the source, and per target
    (hypothesis first, then the references) the tokens and the marked flag of each chunk."""

    source: tuple[str, ...]
    spans: tuple[Span, ...]
    corrected: tuple[bool, ...]
    """Whether each chunk is a merged edit span (else an unchanged stretch of the source)."""
    tokens: tuple[tuple[tuple[str, ...], ...], ...]
    """tokens[target][chunk]"""
    marked: tuple[tuple[bool, ...], ...]
    """marked[target][chunk]: the target has an edit inside the chunk"""


def correction_tokens(correction: str) -> tuple[str, ...]:
    """The tokens an M2 correction field puts in place of its span, as CLEME reads it."""
    tokens = correction.split()
    if tokens and tokens[0] == DELETE_MARKER:
        return ()
    return tuple(tokens)


def _edit_line(block: Block, index: int) -> int | None:
    """1-based file line of the index-th edit line of a block (edit lines follow its S line)."""
    return block.line + 1 + index if block.line else None


def character_blocks(blocks: Sequence[Block], name: str) -> list[Block]:
    """ChERRANT's character-level M2 as the official CLEME reads it with ``--lang zho``: of each
    target, only the edits of its first edit set (the lines after ``T<k>-A0``; those after
    ``T<k>-A<n>``, n > 0, are skipped), on tokens that must be ChERRANT's characters (CLEME cuts
    the text into characters again: any other token would leave the edits' offsets pointing
    elsewhere, which is refused here)."""
    from ...core.lang.zh.text import char_tokens, clean

    if isinstance(blocks, (str, bytes)) or not all(isinstance(block, Block) for block in blocks):
        raise InputError("expected a sequence of M2 blocks (gecmetrics.io.m2.Block); read files with read_m2", name)
    out = []
    for block in blocks:
        tokens = block.tokens
        if tokens != char_tokens(clean(block.source)):
            token = next((t for t in tokens if char_tokens(t) != [t]), tokens[:1])
            raise InputError(f"CLEME --lang zh reads character-level M2 (ChERRANT's -g char): the source token "
                             f"{token!r} is not one character", name, block.line or None)
        kept = [edit for edit in block.edits if edit.edit_set == 0]
        for index, edit in enumerate(kept):
            for token in correction_tokens(edit.correction):
                if char_tokens(token) != [token]:
                    raise InputError(f"CLEME --lang zh reads character-level M2 (ChERRANT's -g char): the correction "
                                     f"token {token!r} is not one character", name, None)
        out.append(Block(block.source, kept, block.line))
    return out


def group_targets(block: Block, name: str) -> list[list[tuple[int, Edit]]]:
    """The block's edit lines (with their index in the block) grouped into targets as CLEME's
    reader does: a line whose annotator id is one more than the current target's starts the next
    target. Raise when that differs from grouping by annotator id 0, 1, 2 ... in order."""
    groups: list[list[tuple[int, Edit]]] = []
    current: list[tuple[int, Edit]] = []
    target_id = -1
    for index, edit in enumerate(block.edits):
        if edit.annotator == target_id + 1:
            if current:
                groups.append(current)
            current = []
            target_id = edit.annotator
        elif edit.annotator != target_id:
            raise LineRefused(f"annotator {edit.annotator} where CLEME expects {target_id} or {target_id + 1}: the "
                             "annotator ids of a block must be 0, 1, 2 ... in order (CLEME would read this line as "
                             f"annotator {max(target_id, 0)}'s)", name, _edit_line(block, index))
        current.append((index, edit))
    groups.append(current)
    return groups


def build_target(block: Block, lines: Sequence[tuple[int, Edit]], name: str) -> Target:
    """A target from its edit lines: noop lines skipped, the others checked to be in order and
    not overlapping (each starts at or after the end of the one before). The refusals of a
    block's edits, here and in :func:`group_targets` and :func:`block_targets`, are the
    sentence's (:class:`~gecmetrics.errors.LineRefused`: a reward gives its row the fallback)."""
    n_source = len(block.tokens)
    edits: list[TargetEdit] = []
    length = n_source
    previous_end = 0
    for index, edit in lines:
        span = (edit.start, edit.end)
        if span == NOOP_SPAN:
            continue
        if edit.type in NOOP_TYPES:
            raise LineRefused(f"a '{edit.type}' edit must have the span -1 -1, not {edit.start} {edit.end}", name,
                             _edit_line(block, index))
        if edit.start < previous_end:
            raise LineRefused(f"edit {edit.start} {edit.end} starts before the end ({previous_end}) of the previous "
                             f"edit of annotator {edit.annotator}: CLEME needs each annotator's edits in order and "
                             "not overlapping", name, _edit_line(block, index))
        tokens = correction_tokens(edit.correction)
        edits.append(TargetEdit(edit.start, edit.end, tokens))
        length += len(tokens) - (edit.end - edit.start)
        previous_end = edit.end
    return Target(tuple(edits), length)


def block_targets(block: Block, name: str) -> list[Target]:
    """Every target of an M2 block, in CLEME's order (checks that the source is not empty)."""
    if not block.tokens:
        raise LineRefused("empty source sentence (CLEME needs at least one token)", name, block.line or None)
    return [build_target(block, lines, name) for lines in group_targets(block, name)]


def reference_targets(block: Block, name: str) -> list[Target]:
    """The references of a block, without those whose corrected text is empty (CLEME drops them
    so that the partition does not collapse; if all are empty, the first is kept)."""
    targets = block_targets(block, name)
    kept = [target for target in targets if target.length > 0]
    return kept or targets[:1]


def hypothesis_target(block: Block, name: str) -> Target:
    """The single target of a hypothesis block (an error if the block holds more than one)."""
    targets = block_targets(block, name)
    if len(targets) != 1:
        raise InputError(f"a hypothesis must have one annotator, this block has {len(targets)}", name,
                         block.line or None)
    return targets[0]


def merged_spans(targets: Sequence[Target]) -> list[list[int]]:
    """The corrected chunks' source spans: all edit spans sorted by start, merged while a span
    starts at or before the end of the merged one."""
    spans = sorted((edit.start, edit.end) for target in targets for edit in target.edits)
    merged: list[list[int]] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            if end > merged[-1][1]:
                merged[-1][1] = end
        else:
            merged.append([start, end])
    return merged


def chunk_spans(n_source: int, corrected: Sequence[Sequence[int]]) -> tuple[list[Span], list[bool]]:
    """All chunk spans in order, each with whether it is a corrected span: the unchanged
    stretches between the corrected spans, and the corrected spans themselves (an
    insertion-only span is an empty chunk)."""
    spans: list[Span] = []
    is_corrected: list[bool] = []
    position = 0
    for start, end in corrected:
        if position < start:
            spans.append((position, start))
            is_corrected.append(False)
        spans.append((start, end))
        is_corrected.append(True)
        position = end
    if position < n_source:
        spans.append((position, n_source))
        is_corrected.append(False)
    return spans, is_corrected


def target_chunks(source: Sequence[str], spans: Sequence[Span], corrected: Sequence[bool], target: Target
                  ) -> tuple[tuple[tuple[str, ...], ...], tuple[bool, ...]]:
    """The tokens and marked flag of each chunk of one target: a corrected chunk holding some
    of the target's edits reads as its source tokens with those edits applied."""
    edits = target.edits
    n_edits = len(edits)
    next_edit = 0
    tokens: list[tuple[str, ...]] = []
    marked: list[bool] = []
    for (start, end), is_corrected in zip(spans, corrected):
        if is_corrected and next_edit < n_edits and edits[next_edit].end <= end:
            pieces: list[str] = []
            position = start
            while next_edit < n_edits and edits[next_edit].end <= end:
                edit = edits[next_edit]
                pieces.extend(source[position:edit.start])
                pieces.extend(edit.tokens)
                position = edit.end
                next_edit += 1
            pieces.extend(source[position:end])
            tokens.append(tuple(pieces))
            marked.append(True)
        else:
            tokens.append(tuple(source[start:end]))
            marked.append(False)
    return tuple(tokens), tuple(marked)


def partition(source: Sequence[str], targets: Sequence[Target]) -> SentenceChunks:
    """The chunk partition of one sentence for these targets (hypothesis first, by convention)."""
    if isinstance(source, (str, bytes)):  # (its characters were taken as the tokens)
        raise InputError(f"partition takes the source's tokens (a list: line.split()), not a {type(source).__name__}")
    spans, corrected = chunk_spans(len(source), merged_spans(targets))
    per_target = [target_chunks(source, spans, corrected, target) for target in targets]
    return SentenceChunks(tuple(source), tuple(spans), tuple(corrected), tuple(t for t, _ in per_target),
                          tuple(m for _, m in per_target))
