"""errant_m2: re-extract (``auto``) or re-type (``gold``) the edits of an M2 file.

For each annotator of a block (in the order of their ids as strings, as ERRANT sorts them; an
annotator is the text of the id field, so ``01`` and ``1`` are two, each written back as read),
its edits are applied to the source to build that annotator's corrected sentence, which is
parsed; ``auto`` then aligns, merges and classifies source and correction like
errant_parallel, ``gold`` keeps each edit's span, trims tokens equal on both sides at its ends
(unless ``minimise`` is off) and classifies it (unless ``old_types``). An annotator whose
first edit line is a noop keeps one noop line. Detection edits (types Um and UNK) mark a span
without correcting it: they are kept in both modes, with their pseudo correction, and in
``auto`` sorted among the automatic edits by span.
"""
from __future__ import annotations

import dataclasses
from typing import Protocol, Sequence

from ...edits.blocks import NOOP_TYPE, Block, Edit
from ..edits import DETECTION_TYPES, AnnotatedEdit, noop_edit
from .parse import ParsedSentence

GoldSpan = tuple  # (o_start, o_end, c_start, c_end, type, correction)


class ParsingAnnotator(Protocol):
    """What re-annotation asks of ERRANT's annotator (:class:`.annotator.Annotator`, which calls
    this module: the protocol keeps the import one way)."""

    def parse(self, lines: Sequence[str], tokenise: bool | None = None) -> list[ParsedSentence]: ...

    def pair_edits(self, pairs: Sequence[tuple[str, str]], tokenise: bool | None = None) -> list[list[AnnotatedEdit]]: ...

    def classify_tokens(self, orig: ParsedSentence, o_tokens: list[int], cor: ParsedSentence,
                        c_tokens: list[int]) -> str: ...


def corrected_sentence(source: str, edits: list[Edit]) -> tuple[str, list[GoldSpan]]:
    """An annotator's corrected sentence and its edits as spans of source and correction.
    Edits are applied in order of span; a detection edit leaves its tokens unchanged."""
    source_tokens = source.split()
    cor = list(source_tokens)
    spans = []
    offset = 0
    for edit in sorted(edits, key=lambda e: (e.start, e.end)):
        tokens = edit.correction.split()
        shown = tokens
        if edit.type in DETECTION_TYPES:
            tokens = source_tokens[edit.start:edit.end]
        cor[edit.start + offset:edit.end + offset] = tokens
        c_start = edit.start + offset
        c_end = c_start + len(tokens)
        offset = offset - (edit.end - edit.start) + len(tokens)
        spans.append((edit.start, edit.end, c_start, c_end, edit.type, " ".join(shown)))
    return " ".join(cor), spans


def token_range(length: int, start: int, stop: int) -> range:
    """Token indices of a slice [start:stop] of a sentence, clamped as spaCy clamps Doc slices."""
    if start < 0:
        start += length
    start = min(length, max(0, start))
    if stop < 0:
        stop += length
    stop = min(length, max(start, stop))
    return range(start, stop)


def _annotator_edits(block: Block) -> list[tuple[str, list[Edit]]]:
    """Each annotator's edit lines, annotators keyed and ordered by their id field's text (errant_m2
    keeps the id a string: ``01`` and ``1`` are two annotators, ``10`` comes before ``2``)."""
    grouped: dict[str, list[Edit]] = {}
    for edit in block.edits:
        grouped.setdefault(edit.annotator_key, []).append(edit)
    return sorted(grouped.items())


def _as_written(edit: Edit, key: str) -> Edit:
    """``edit`` with its annotator id written as ``key`` (the id field's text in the input)."""
    return edit if key == str(edit.annotator) else dataclasses.replace(edit, annotator_text=key)


def correction_jobs(blocks: list[Block]) -> list[tuple[int, str, str, list[GoldSpan]]]:
    """(block index, annotator key, corrected sentence, gold spans) of every annotator of every
    block, in errant_m2's order, but for annotators whose first edit is a noop (they keep their
    noop line and have no corrected sentence to parse)."""
    return [(index, key, *corrected_sentence(block.source, edits)) for index, block in enumerate(blocks)
            for key, edits in _annotator_edits(block) if edits[0].type != NOOP_TYPE]


def reannotate_blocks(annotator: ParsingAnnotator, blocks: list[Block], mode: str, minimise: bool, old_types: bool
                      ) -> list[Block]:
    """The blocks with every annotator's edits re-extracted or re-typed (see module doc)."""
    jobs = correction_jobs(blocks)
    # auto: every job's automatic edits at once (stored ones read back: those jobs are not parsed
    # unless they hold detection spans to classify)
    automatic = annotator.pair_edits([(blocks[job[0]].source, job[2]) for job in jobs], tokenise=False) \
        if mode == "auto" else [None] * len(jobs)
    classified = [job for job in jobs if mode == "gold" or any(span[4] in DETECTION_TYPES for span in job[3])]
    parsed = annotator.parse([blocks[job[0]].source for job in classified] + [job[2] for job in classified],
                             tokenise=False)
    parses = {(job[0], job[1]): (orig, cor) for job, orig, cor in zip(classified, parsed, parsed[len(classified):])}
    job_edits = {(job[0], job[1]): _job_edits(annotator, *parses.get((job[0], job[1]), (None, None)), job[3], mode,
                                              minimise, old_types, found)
                 for job, found in zip(jobs, automatic)}
    result = []
    for index, block in enumerate(blocks):
        out = Block(block.source.rstrip(), [], block.line)
        for key, edits in _annotator_edits(block):
            annotator_id = edits[0].annotator
            if (index, key) not in job_edits:
                out.edits.append(_as_written(noop_edit(annotator_id), key))
            else:
                out.edits.extend(_as_written(edit.to_m2(annotator_id), key) for edit in job_edits[(index, key)])
        result.append(out)
    return result


def _job_edits(annotator: ParsingAnnotator, orig: ParsedSentence | None, cor: ParsedSentence | None,
               spans: list[GoldSpan], mode: str, minimise: bool, old_types: bool,
               automatic: list[AnnotatedEdit] | None) -> list[AnnotatedEdit]:
    """One annotator's output edits for one sentence (``automatic``: ERRANT's edits of source and
    correction, in ``auto`` mode; the parses are needed only to classify gold or detection
    spans)."""
    detections, gold = [], []
    for span in spans:
        if span[4] in DETECTION_TYPES:
            edit = _imported(annotator, orig, cor, span, False, old_types)
            detections.append(AnnotatedEdit(edit.o_start, edit.o_end, edit.c_start, edit.c_end, edit.type, span[5]))
        elif mode == "gold":
            gold.append(_imported(annotator, orig, cor, span, minimise, old_types))
        if mode == "gold" and span[4] in DETECTION_TYPES:
            gold.append(detections[-1])
    if mode == "gold":
        return gold
    return sorted(detections + automatic, key=lambda e: (e.o_start, e.o_end))


def _imported(annotator: ParsingAnnotator, orig: ParsedSentence, cor: ParsedSentence, span: GoldSpan, minimise: bool,
              old_types: bool) -> AnnotatedEdit:
    """ERRANT's ``import_edit``: a gold span, trimmed of equal end tokens, classified."""
    o_start, o_end, c_start, c_end, edit_type, _ = span
    o_tokens = list(token_range(len(orig), o_start, o_end))
    c_tokens = list(token_range(len(cor), c_start, c_end))
    if minimise:
        while o_tokens and c_tokens and orig.words[o_tokens[0]] == cor.words[c_tokens[0]]:
            o_tokens, c_tokens = o_tokens[1:], c_tokens[1:]
            o_start, c_start = o_start + 1, c_start + 1
        while o_tokens and c_tokens and orig.words[o_tokens[-1]] == cor.words[c_tokens[-1]]:
            o_tokens, c_tokens = o_tokens[:-1], c_tokens[:-1]
            o_end, c_end = o_end - 1, c_end - 1
    if not old_types:
        edit_type = annotator.classify_tokens(orig, o_tokens, cor, c_tokens)
    correction = " ".join(cor.words[j] for j in c_tokens)
    return AnnotatedEdit(o_start, o_end, c_start, c_end, edit_type, correction)
