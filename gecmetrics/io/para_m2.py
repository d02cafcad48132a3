"""Para files as ChERRANT's M2, a batch of lines at a time: what ``cherrant m2`` writes and
``cherrant score`` compares, for a file of any size in the memory of a batch.

:func:`m2_text` is ``parallel_to_m2.py -g char``'s text of some records; :class:`M2Pairs` reads a
hypothesis and a reference para file side by side as M2 blocks, chunk by chunk, each chunk a
:class:`~gecmetrics.io.corpus.Corpus` (the reference's blocks its gold, the hypothesis's its one
hypothesis) for the run engine's :func:`~gecmetrics.run.engine.score_chunks`. Errors name the
para file and its line, never the M2 text made from it."""
from __future__ import annotations

from itertools import chain, islice
from typing import IO, Any, Callable, Iterable, Iterator, Sequence

from ..core.checks import check_count
from ..errors import InputError, plural
from .corpus import Corpus
from .m2 import parse_m2
from .para import ParaRecord, para_batches


def m2_text(annotator: Any, para_path: str, records: Sequence[ParaRecord]) -> str:
    """The M2 of ``records`` (``annotator.block`` of each: ChERRANT's character-level block);
    a record that cannot be annotated (a pair too long to align) is an InputError naming the
    para file and the record's line."""
    return "".join(_piece(annotator, para_path, record) for record in records)


def _piece(annotator: Any, para_path: str, record: ParaRecord) -> str:
    try:
        return annotator.block(record.source, record.targets)
    except InputError as err:
        raise InputError(str(err), para_path, record.line or None) from None


def check_selection(start: int | None, end: int | None) -> None:
    """ChERRANT's ``--start``/``--end`` are given together or not at all (ChERRANT ignores one
    alone: an error here)."""
    if (start is None) != (end is None):
        given, missing = ("--start", "--end") if end is None else ("--end", "--start")
        raise InputError(f"{given} needs {missing}: ChERRANT scores the sentences [start:end] only when both are given")


class _Side:
    """One para file's records in order, each with its M2 block once made: every block goes
    to ``held`` (a file being written) when given, and only the records in ``[start:end]``
    are given on (Python's slice of the file's records; negative bounds hold the file's records
    until its end, the only case that needs its length first). The first batch is read at once
    (a file that cannot be read fails before the annotator is made)."""

    def __init__(self, path: str, held: IO[str] | None, start: int | None, end: int | None) -> None:
        self.path, self.held, self.annotator = path, held, None
        batches = para_batches(path)
        first = next(batches)
        self.total = 0
        self.chosen = self._chosen(self._records(chain([first], batches)), start, end)

    def _records(self, batches: Iterable[list[ParaRecord]]) -> Iterator[tuple[ParaRecord, str | None]]:
        for batch in batches:
            self.total += len(batch)
            if self.held is None:
                yield from ((record, None) for record in batch)
                continue
            pieces = [_piece(self.annotator, self.path, record) for record in batch]
            self.held.write("".join(pieces))
            yield from zip(batch, pieces)

    @staticmethod
    def _chosen(records: Iterator[tuple[ParaRecord, str | None]], start: int | None,
                end: int | None) -> Iterator[tuple[ParaRecord, str | None]]:
        if start is None or end is None:
            yield from records
        elif start < 0 or end < 0:
            yield from list(records)[start:end]
        else:
            for k, item in enumerate(records):
                if start <= k < end:
                    yield item

    def blocks(self, items: Sequence[tuple[ParaRecord, str | None]]) -> list:
        """The M2 blocks of some of the records, each numbered with its para line."""
        text = "".join(piece if piece is not None else _piece(self.annotator, self.path, record)
                       for record, piece in items)
        blocks = parse_m2(text, self.path, target_lines=True)
        for block, (record, _) in zip(blocks, items):
            block.line = record.line
        return blocks

    def rest(self) -> int:
        """The chosen records not yet given (the file is read to its end)."""
        return sum(1 for _ in self.chosen)


class M2Pairs:
    """The sentences ``[start:end]`` (ChERRANT's ``--start``/``--end``; None: all) of a
    hypothesis and a reference para file as M2, ``chunk`` sentences at a time: iterated, each
    chunk a Corpus whose gold is the reference's blocks and whose hypothesis ``hyp`` is the
    hypothesis's, checked to annotate the same sources, with its offset in the selection.
    ``held``: files that receive each para file's whole M2 (every line, selected or not) as it
    is made. Both files are read to their end; then files of different lengths (after the
    selection) or a selection of no sentence is an InputError naming ``hyp``. The first batch
    of each file is read before ``make_annotator()`` (kept as :attr:`annotator`) is called."""

    def __init__(self, hyp: str, ref: str, make_annotator: Callable[[], Any], *, start: int | None = None,
                 end: int | None = None, held: tuple[IO[str] | None, IO[str] | None] = (None, None),
                 chunk: int = 2_000) -> None:
        check_selection(start, end)
        self.hyp, self.ref, self.start, self.end = hyp, ref, start, end
        self.chunk = check_count(chunk, "chunk", 1)
        self.sides = [_Side(path, keep, start, end) for path, keep in zip((hyp, ref), held)]
        self.annotator = make_annotator()
        for side in self.sides:
            side.annotator = self.annotator

    def __iter__(self) -> Iterator[Corpus]:
        hyp_side, ref_side = self.sides
        offset = 0
        while True:
            items = [list(islice(side.chosen, self.chunk)) for side in self.sides]
            size = min(map(len, items))
            if size:
                corpus = Corpus(None, [], {}, ref_side.blocks(items[1][:size]), {"gold": self.ref}, offset=offset)
                blocks = hyp_side.blocks(items[0][:size])
                try:
                    corpus.add_hypothesis_blocks(self.hyp, blocks)
                except InputError:  # a line missing from one file: its length is the fault to say
                    self._check_counts(offset, items, 0)
                    raise
                yield corpus
                offset += size
            if size < self.chunk:
                break
        self._check_counts(offset, items, size)

    def _check_counts(self, offset: int, items: list[list], size: int) -> None:
        """Both files read to their end: files of different lengths (after the selection) or a
        selection of no sentence is an error (``offset`` sentences before ``items``, of which
        ``size`` are given)."""
        hyp_count, ref_count = (offset + len(chosen) - size + side.rest() for side, chosen in zip(self.sides, items))
        if self.sides[0].total and not hyp_count and not ref_count:
            raise no_selection(self.start, self.end, self.sides[0].total, self.hyp)
        if hyp_count != ref_count:
            raise unequal_lengths(hyp_count, ref_count, f"the reference {self.ref}", self.hyp)


def unequal_lengths(hyp_count: int, ref_count: int, reference: str, hyp: str) -> InputError:
    """The error of a hypothesis and a reference (``reference``: "the reference NAME") of different
    numbers of sentences, naming the hypothesis."""
    return InputError(f"has {plural(hyp_count, 'sentence')} but {reference} has {ref_count}", hyp)


def no_selection(start: int | None, end: int | None, total: int, hyp: str) -> InputError:
    """The error of ``--start``/``--end`` that select no sentence of a file that has some
    (ChERRANT prints zero counts with P = R = F = 1.0 there, a perfect score for nothing)."""
    return InputError(f"--start {start} --end {end} select none of its {plural(total, 'sentence')}", hyp)
