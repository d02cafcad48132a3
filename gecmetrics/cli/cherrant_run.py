"""``gecmetric cherrant compare|score`` through the run engine: M2 files chunk by chunk (or the
sentences --start/--end select, in memory), and the M2 of two para files as they are annotated."""
from __future__ import annotations

from typing import Any

from ..errors import InputError
from .common import corpus_files, progress_unless, score
from .shared import chosen_format


def compared(comparer: Any, hyp: str, ref: str, start: int | None, end: int | None, run: dict[str, Any]) -> Any:
    """ChERRANT's comparison of a hypothesis M2 file with a reference M2 file, through the run
    engine: the files chunk by chunk, or the blocks [start:end] (ChERRANT's --start/--end, both
    or neither) as a corpus in memory."""
    from ..io.corpus import Corpus
    from ..io.m2 import read_m2
    from ..io.para_m2 import unequal_lengths
    from ..metrics.m2.cherrant import selected_blocks
    from ..run.engine import score_corpus

    progress = progress_unless(chosen_format(None) == "json", "cherrant")
    wanted = comparer.settings.reference_num
    if start is None and end is None:
        if wanted is not None and ref != "-":  # (standard input is read once: by the run)
            _check_reference_num(comparer, read_m2(ref, target_lines=True), ref)
        scored = score([comparer], corpus_files(None, (), (hyp,), ref, m2_hypotheses=True),
                       progress=progress, **run)
        return scored.result(scored.names[0], 0)
    hyp_blocks, ref_blocks = selected_blocks(read_m2(hyp, target_lines=True), read_m2(ref, target_lines=True),
                                             start, end, hyp)
    _check_reference_num(comparer, ref_blocks, ref)
    if len(hyp_blocks) != len(ref_blocks):
        raise unequal_lengths(len(hyp_blocks), len(ref_blocks), f"the reference {ref}", hyp)
    corpus = Corpus(None, [], {}, ref_blocks, {"gold": ref})
    corpus.add_hypothesis_blocks(hyp, hyp_blocks)
    return score_corpus([comparer], corpus, [hyp], jobs=run["jobs"], chunk_lines=run["chunk_lines"],
                        progress=progress).result(hyp, 0)


def compared_pairs(comparer: Any, pairs: Any, run: dict[str, Any]) -> Any:
    """ChERRANT's comparison of the M2 of two para files (an :class:`~gecmetrics.io.para_m2.M2Pairs`),
    chunk by chunk as they are annotated, through the run engine."""
    from ..run.engine import score_chunks

    def chunks() -> Any:  # --reference_num: checked on the reference's blocks as they go by
        wanted = comparer.settings.reference_num
        seen = wanted is None
        for chunk in pairs:
            seen = seen or _has_reference_num(comparer, chunk.gold)
            yield chunk
        if not seen:
            raise _no_reference_num(wanted, pairs.ref)

    scored = score_chunks([comparer], chunks(), [pairs.hyp], jobs=run["jobs"], dask=run["dask_address"],
                          progress=progress_unless(chosen_format(None) == "json", "cherrant"))
    return scored.result(pairs.hyp, 0)


def pair_chunk(run: dict[str, Any]) -> int:
    """Sentences a chunk of ``cherrant score`` holds: --chunk-lines, else 2,000 in one process and
    500 with workers (so that two of them share MuCGEC's 1,137 lines)."""
    from ..run.executors import check_jobs
    from ..run.reading import chunk_size

    size = chunk_size(run["chunk_lines"])
    return size if run["chunk_lines"] is not None or check_jobs(run["jobs"]) == 1 else size // 4


def _has_reference_num(comparer: Any, references: list) -> bool:
    """Whether a reference block has exactly --reference_num annotators."""
    comparison = comparer.make_comparison()
    wanted = comparer.settings.reference_num
    return any(len(comparison.edit_tables(block)) == wanted for block in references)


def _check_reference_num(comparer: Any, references: list, ref: str) -> None:
    """``--reference_num N`` with no sentence of N reference annotators (among ``--start``/
    ``--end``'s) is an error: ChERRANT prints zero counts with P = R = F = 1.0 there, a perfect
    score for nothing scored."""
    wanted = comparer.settings.reference_num
    if wanted is not None and references and not _has_reference_num(comparer, references):
        raise _no_reference_num(wanted, ref)


def _no_reference_num(wanted: int, ref: str) -> InputError:
    return InputError(f"--reference_num {wanted}: no sentence has {wanted} reference annotators, so nothing "
                      "would be scored (ChERRANT prints P = R = F = 1.0 for it)", ref)
