"""``gecmetric gotoscorer``: GoToScorer of system M2 files against one reference (github gotutiyan/GTS)."""
from __future__ import annotations

import functools

import click

from ..errors import InputError, plural
from ..io.text import check_distinct, first_repeated
from ..metrics.results import SENTENCES_EACH, scores_signature
from . import main
from .context import check_command_outputs
from .given import refuse_gotoscorer_weight_flags
from .common import corpus_files, echo_json, echo_scores, echo_table, json_result, progress_unless
from .numbers import FLOAT, IntRange
from .options import GreedyCommand, GreedyOption
from .scoring import ScoringOptions, scoring_options

@main.command(cls=GreedyCommand)
@click.option("-hyp", "--hyp", "hypotheses", cls=GreedyOption, required=True,
              help="System M2 file(s): each holds one system per annotator id 0, 1, ... (errant_parallel "
                   "-cor SYS1 SYS2 ... writes such a file; one -cor, one system).")
@click.option("-ref", "--ref", "reference", required=True, metavar="FILE", help="Reference M2 file (ERRANT).")
@click.option("-ref_id", "--ref_id", "--ref-id", "ref_id", type=IntRange(0), default=0, show_default=True,
              help="The annotator of the reference file that is the gold (GoToScorer uses one).")
@click.option("-name", "-sys_name", "--sys_name", "--names", "names", metavar="A,B,...", help="Names of the systems, comma-separated.")
@click.option("-w_file", "--w_file", "--weights", "weight_file", metavar="FILE",
              help="Weights from a weight file (made by -gen_w_file here or by the original), instead of "
                   "from the systems scored.")
@click.option("-gen_w_file", "--gen_w_file", "--make-weights", "make_weights", metavar="FILE",
              help="Write the weight file of the systems scored (the original's format).")
@click.option("-cat", "--cat", "category", type=click.Choice(["1", "2", "3"]),
              help="Also print the difficulty of each error category (1: R/M/U, 2: NOUN..., 3: R:NOUN...), as the "
                   "original prints it.")
@click.option("-no_weight", "--no_weight", "--no-weight", "no_weight", is_flag=True, help="Every chunk weighs 1.")
@click.option("-a", "--a", "a", type=FLOAT, default=1.0, show_default=True, help="A chunk's weight is a - (n + b) / (N + c), where n of the N systems "
                   "get the chunk right: a.")
@click.option("-b", "--b", "b", type=FLOAT, default=0.0, show_default=True, help="b of the weight (see -a).")
@click.option("-c", "--c", "c", type=FLOAT, default=0.0, show_default=True, help="c of the weight (see -a).")
@click.option("-sort", "--sort", "sort", is_flag=True, help="Systems by F0.5, highest first.")
@scoring_options(mean=False, paired=False, verbose="Also print the weighted TP, FP, FN and TN.")
def gotoscorer(hypotheses, reference, ref_id, names, weight_file, make_weights, category, no_weight, a, b, c, sort,
               **options) -> None:
    """GoToScorer (Gotou et al., COLING 2020) as github gotutiyan/GTS computes it: precision,
    recall, F1, F0.5 and accuracy over chunks (edits, unchanged tokens, insertion slots), each
    weighted by the share of the systems that fail it (x100; --scale 1: fractions, as the
    original prints them).

    \b
    gecmetric gotoscorer -ref official-2014.combined.m2 -hyp SYSTEMS.m2 -name AMU,CAMB,CUUI -cat 3
    gecmetric gotoscorer -ref official-2014.combined.m2 -hyp AMU.m2 CAMB.m2 CUUI.m2 -gen_w_file weights.txt
    gecmetric gotoscorer -ref official-2014.combined.m2 -hyp INPUT.m2 -w_file weights.txt

    SYSTEMS.m2, the systems in one file as `errant_parallel -cor AMU CAMB CUUI` writes it, is
    `gecmetric m2 annotate -orig INPUT -cor AMU CAMB CUUI -o SYSTEMS.m2`; AMU.m2 and INPUT.m2
    are `gecmetric m2 annotate -orig INPUT -cor AMU -o AMU.m2` (and -cor INPUT).

    The run engine reads the files in chunks of sentences (-p N: N chunks at once); a chunk's
    weights depend only on its sentences, so the numbers are those of the whole files at once.
    """
    from ..io.gts_weights import WeightFile
    from ..metrics.gotoscorer.metric import GoToScorer
    from ..metrics.gotoscorer.runs import RunOptions, join_runs, score_chunk
    from ..run.engine import map_chunks
    from ..run.reading import MAX_CHUNK_LINES

    out = ScoringOptions.take(options)
    if category is not None and (out.sentence or out.format in ("json", "tsv")):  # (each left the table out)
        clash = "--sentence, rows of sentences" if out.sentence else "--json or --tsv, streams of one table"
        raise InputError(f"adds the difficulty table: not with {clash}", "-cat")
    refuse_gotoscorer_weight_flags(no_weight, category, weight_file, make_weights)
    check_distinct(hypotheses, "in -hyp: the weights count the systems, so each file is given once")
    given = [] if names is None else names.split(",")
    if not all(name.strip() for name in given) or first_repeated(given) is not None:
        raise InputError(f"-name gives each system a name of its own (not empty), got {names!r}")
    check_command_outputs([("-gen_w_file", make_weights)], [*hypotheses, reference])
    weights = WeightFile.read(weight_file) if weight_file is not None else None  # ('' is refused there)
    files = corpus_files(None, (), hypotheses, reference, m2_hypotheses=True)
    systems, has_reference = _whole_files(hypotheses, reference, ref_id)
    if systems is not None:  # checked before the scoring and its warnings, when the files tell
        _labels([""] * sum(systems), names)
    run_options = RunOptions(ref_id, weights, a, b, c, no_weight, None if category is None else int(category),
                             systems, has_reference)
    # a file read once (standard input): one chunk, so that its systems are those of the whole file
    chunk_lines = out.chunk_lines if systems is not None else MAX_CHUNK_LINES
    chunks = map_chunks(functools.partial(score_chunk, run_options), files, jobs=out.jobs, dask=out.dask_address,
                        chunk_lines=chunk_lines, progress=progress_unless(out.format == "json", "gotoscorer"))
    run = join_runs([part for _, _, part in chunks], run_options)
    if make_weights is not None:
        run.weights.write(make_weights)
    # the metric of these settings, headline F0.5 (P, R, F, Acc beside it), signed as compare signs it
    metric = GoToScorer(ref_id=ref_id, weights=weights or "systems", a=a, b=b, c=c, no_weight=no_weight)
    _print(run, _labels(run.names, names), sort, category, out, metric)
    if out.show_signature:
        click.echo(scores_signature(metric.signature(1), out.sentence), err=True)


def _whole_files(hypotheses: tuple[str, ...], reference: str, ref_id: int) -> tuple[tuple[int, ...] | None, bool]:
    """What a chunk of sentences cannot tell: the systems of each hypothesis file (annotators 0,
    1, ... up to the first id without a line) and whether the reference has a line of ``ref_id``
    ((None, False): a file read only once; a file without a system is left to its reader)."""
    from ..io.m2 import file_annotator_ids
    from ..metrics.gotoscorer.scorer import system_count

    found = [file_annotator_ids(path) for path in (reference, *hypotheses)]
    if any(ids is None for ids in found):
        return None, False
    counts = [system_count(ids) for ids in found[1:]]
    return (None if 0 in counts else tuple(counts)), ref_id in found[0]


def _labels(found: list[str], names: str | None) -> list[str]:
    labels = found if names is None else names.split(",")
    if len(labels) != len(found):
        raise InputError(f"-name gives {plural(len(labels), 'name')} for {plural(len(found), 'system')}")
    return labels


def _print(run, labels: list[str], sort: bool, category: str | None, out: ScoringOptions, metric) -> None:
    order = list(range(len(labels)))
    if sort:
        order.sort(key=lambda s: run.scores[s].f05, reverse=True)
    if out.format == "json":  # the one vocabulary: the score columns, then every number by name (and sentence)
        mode = "sentence" if out.sentence else "corpus"
        signature = metric.signature(1).with_fields(SENTENCES_EACH) if out.sentence else metric.signature(1)
        fields = [run.json_fields(s, metric.settings.score, out.scale, out.sentence) for s in order]
        settings = metric.settings_dict()  # (as every command's JSON carries them)
        echo_json([json_result(labels[s], {**own, "signature": signature, "settings": settings}, metric, out.scale,
                               mode) for s, own in zip(order, fields)])
        return
    from ..metrics.gotoscorer.report import difficulty_rows, scores_table

    table = scores_table(run, labels, order, metric, out.digits, out.scale, out.verbose, out.sentence)
    if out.sentence:
        echo_table(table, out.format or "tsv")
        return
    echo_scores(table, out.format or "tsv", [metric.signature(1)])
    if category and out.format is not None:  # the second table, in the format asked for, a line apart
        click.echo()
        echo_table(difficulty_rows(run.difficulty()), out.format)
    elif category:
        from ..metrics.gotoscorer import format_difficulty
        click.echo(format_difficulty(run.difficulty()), nl=False)
