"""The options and helpers of ``gecmetric cherrant``'s commands: parallel_to_m2.py's options
(the annotator), compare_m2_for_evaluation.py's own options, and reading, writing and reporting."""
from __future__ import annotations

from typing import Any, Callable

import click

from ..errors import InputError, plural
from ..metrics.errant.metric import WORD_LEVEL_MESSAGE
from .common import corpus_files, progress_unless, score
from .numbers import INT
from .shared import chosen_format, digits_option, format_options, run_options, scale_option, signature_option
from .errant_options import chosen_mode
from .setting_options import given_settings


def annotator_options(func: Callable) -> Callable:
    """parallel_to_m2.py's options that change the M2: -g, -s, --no-simplified; and the data folder."""
    func = click.option("--cherrant-data", "data_folder", metavar="DIR",
                        help="Folder of ChERRANT's data files (default: $GECMETRICS_CHERRANT_DATA, else the user "
                             "data folder filled by `gecmetric data fetch cherrant`).")(func)
    func = click.option("--no-simplified", "--no_simplified", "no_simplified", is_flag=True,
                        help="Do not convert targets to simplified characters (OpenCC t2s).")(func)
    func = click.option("-s", "--strategy", "--multi_cheapest_strategy", "strategy", type=click.Choice(["all", "first"]),
                        default="all", show_default=True,
                        help="Every cheapest alignment (all) or only the first.")(func)
    func = click.option("-g", "--granularity", type=click.Choice(["char", "word"]), default="char",
                        show_default=True, help="Character level (word level needs LTP: not available).")(func)
    return func


def make_annotator(granularity: str, strategy: str, no_simplified: bool, data_folder: str | None):
    if granularity != "char":
        raise InputError(WORD_LEVEL_MESSAGE)
    from ..core.lang.zh.annotate import CharAnnotator

    annotator = CharAnnotator(data_folder, strategy=strategy, simplified=not no_simplified)
    if not annotator.data.matches_published:
        click.echo(f"gecmetric: warning: the data files in {annotator.data.folder} differ from ChERRANT's published "
                   "ones (see `gecmetric data check cherrant`): edits may differ from ChERRANT's", err=True)
    return annotator


def cherrant_options(func: Callable) -> Callable:
    """compare_m2_for_evaluation.py's own options, beside ERRANT's."""
    func = click.option("--reference_num", "--reference-num", "reference_num", type=INT,
                        help="Only score sentences with exactly N reference annotators.")(func)
    func = click.option("--max_answer_num", "--max-answer-num", "max_answer_num", type=INT,
                        help="Only the edits of annotators 0..K-1 (K = 1, 2 or 3).")(func)
    func = click.option("--end", type=INT, help="With --start: score the sentences [start:end] only.")(func)
    func = click.option("--start", type=INT, help="With --end: score the sentences [start:end] only.")(func)
    return func


def write(texts: dict[str, str]) -> None:
    """Each path's text; the files replace their targets together, or none does."""
    from ..io.atomic import output_group

    with output_group() as outputs:
        for path, text in texts.items():
            with outputs.output(path) as handle:
                handle.write(text)


def read(para_path: str) -> list:
    from ..io.para import read_para

    return read_para(para_path)


def m2_text(annotator, para_path: str, records: list) -> str:
    parts = []
    for record in records:
        try:
            parts.append(annotator.block(record.source, record.targets))
        except InputError as err:  # e.g. a pair too long to align: the file and its line
            raise InputError(str(err), para_path, record.line or None) from None
    return "".join(parts)


def make_comparer(verbose: bool, max_answer_num: int | None, reference_num: int | None, options: dict):
    from ..metrics.edit_comparison import CherrantSettings
    from ..metrics.m2.cherrant import CherrantCompare
    from ..metrics.m2.compare import ErrantSettings

    infos = CherrantSettings.infos()  # read by the settings' parsers, their flags named in messages
    counts = {name: infos[name].parse(f"--{name}", value)
              for name, value in (("max_answer_num", max_answer_num), ("reference_num", reference_num))}
    return CherrantCompare(mode=chosen_mode(options), **given_settings(ErrantSettings, options), **counts,
                           verbose=verbose)


def report_options(func: Callable) -> Callable:
    """The output (ChERRANT's own report, or with --tsv, --json ... the table of `gecmetric
    errant`), --signature and the run (-p, --chunk-lines, --dask, --quiet)."""
    return signature_option(digits_option(None)(scale_option(format_options(run_options(func)))))


def compared(comparer: Any, hyp: str, ref: str, start: int | None, end: int | None, run: dict[str, Any],
             blocks: tuple[list, list] | None = None) -> Any:
    """ChERRANT's comparison of a hypothesis M2 with a reference M2 (files, or their ``blocks``),
    through the run engine: the files chunk by chunk, or the blocks [start:end] (ChERRANT's
    --start/--end, both or neither) as a corpus in memory."""
    from ..io.corpus import Corpus
    from ..io.m2 import read_m2
    from ..metrics.m2.cherrant import selected_blocks
    from ..run.engine import score_corpus

    progress = progress_unless(chosen_format(None) == "json", "cherrant")
    _check_reference_num(comparer, ref, start, end, blocks)
    if blocks is None and start is None and end is None:
        scored = score([comparer], corpus_files(None, (), (hyp,), ref, m2_hypotheses=True),
                       progress=progress, **run)
        return scored.result(scored.names[0], 0)
    hyp_blocks, ref_blocks = blocks or (read_m2(hyp, target_lines=True), read_m2(ref, target_lines=True))
    hyp_blocks, ref_blocks = selected_blocks(hyp_blocks, ref_blocks, start, end, hyp)
    if len(hyp_blocks) != len(ref_blocks):
        raise InputError(f"has {plural(len(hyp_blocks), 'sentence')} "
                         f"but the reference {ref} has {len(ref_blocks)}", hyp)
    corpus = Corpus(None, [], {}, ref_blocks, {"gold": ref})
    corpus.check_blocks(hyp_blocks, hyp)
    corpus.hypotheses[hyp] = hyp_blocks
    return score_corpus([comparer], corpus, [hyp], jobs=run["jobs"], chunk_lines=run["chunk_lines"],
                        progress=progress).result(hyp, 0)


def _check_reference_num(comparer: Any, ref: str, start: int | None, end: int | None,
                         blocks: tuple[list, list] | None) -> None:
    """``--reference_num N`` with no sentence of N reference annotators (among ``--start``/
    ``--end``'s) is an error: ChERRANT prints zero counts with P = R = F = 1.0 there, a perfect
    score for nothing scored. The reference is read for it (not standard input, read once)."""
    wanted = comparer.settings.reference_num
    if wanted is None or (blocks is None and ref == "-"):
        return
    from ..io.m2 import read_m2

    references = blocks[1] if blocks is not None else read_m2(ref, target_lines=True)
    if start is not None and end is not None:
        references = references[start:end]
    comparison = comparer.make_comparison()
    if references and not any(len(comparison.edit_tables(block)) == wanted for block in references):
        raise InputError(f"--reference_num {wanted}: no sentence has {wanted} reference annotators, so nothing "
                         "would be scored (ChERRANT prints P = R = F = 1.0 for it)", ref)
