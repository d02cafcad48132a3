"""``gecmetric gotoscorer``: GoToScorer of system M2 files against one reference (github gotutiyan/GTS)."""
from __future__ import annotations

from dataclasses import replace

import click

from ..errors import InputError
from ..io.atomic import check_outputs
from ..io.text import STDIN, read_lines
from ..io.m2 import iter_m2_blocks, read_m2
from ..core.table import Table, round_half_up
from . import main
from .common import digits_option, echo_json
from .options import GreedyCommand, GreedyOption

SCORE_COLUMNS = (("P", "precision"), ("R", "recall"), ("F", "f"), ("F0.5", "f05"), ("Acc", "accuracy"))
COUNT_COLUMNS = (("TP", "tp"), ("FP", "fp"), ("FN", "fn"), ("TN", "tn"))


@main.command(cls=GreedyCommand)
@click.option("-hyp", "hypotheses", cls=GreedyOption, required=True,
              help="System M2 file(s): each holds one system per annotator id 0, 1, ... (errant_parallel "
                   "-cor SYS1 SYS2 ... writes such a file; one -cor, one system).")
@click.option("-ref", "reference", required=True, metavar="FILE", help="Reference M2 file (ERRANT).")
@click.option("-ref_id", "--ref-id", "ref_id", type=click.IntRange(0), default=0, show_default=True,
              help="The annotator of the reference file that is the gold (GoToScorer uses one).")
@click.option("-name", "--names", "names", metavar="A,B,...", help="Names of the systems, comma-separated.")
@click.option("-w_file", "--weights", "weight_file", metavar="FILE",
              help="Weights from a weight file (made by -gen_w_file here or by the original), instead of "
                   "from the systems scored.")
@click.option("-gen_w_file", "--make-weights", "make_weights", metavar="FILE",
              help="Write the weight file of the systems scored (the original's format).")
@click.option("-cat", "--cat", "category", type=click.Choice(["1", "2", "3"]),
              help="Also print the difficulty of each error category (1: R/M/U, 2: NOUN..., 3: R:NOUN...).")
@click.option("-no_weight", "--no-weight", "no_weight", is_flag=True, help="Every chunk weighs 1.")
@click.option("-a", "a", type=float, default=1.0, show_default=True, help="Weight a - (n + b) / (N + c): a.")
@click.option("-b", "b", type=float, default=0.0, show_default=True, help="Weight parameter b.")
@click.option("-c", "c", type=float, default=0.0, show_default=True, help="Weight parameter c.")
@click.option("-v", "--verbose", is_flag=True, help="Also print the weighted TP, FP, FN and TN.")
@click.option("-sort", "--sort", "sort", is_flag=True, help="Systems by F0.5, highest first.")
@click.option("--sentence", is_flag=True, help="Per-sentence scores: a line per system and sentence.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON: counts and scores per system.")
@digits_option(4, "Decimals (rounded half up).")
def gotoscorer(hypotheses: tuple[str, ...], reference: str, ref_id: int, names: str | None, weight_file: str | None,
               make_weights: str | None, category: str | None, no_weight: bool, a: float, b: float, c: float,
               verbose: bool, sort: bool, sentence: bool, as_json: bool, digits: int) -> None:
    """GoToScorer (Gotou et al., COLING 2020) as github gotutiyan/GTS computes it: precision,
    recall, F1, F0.5 and accuracy over chunks (edits, unchanged tokens, insertion slots), each
    weighted by the share of the systems that fail it.

    \b
    gecmetric gotoscorer -ref REF.m2 -hyp SYSTEMS.m2 -name AMU,CAMB,CUUI -cat 3
    gecmetric gotoscorer -ref REF.m2 -hyp AMU.m2 CAMB.m2 CUUI.m2 -gen_w_file weights.txt
    gecmetric gotoscorer -ref REF.m2 -hyp INPUT.m2 -w_file weights.txt
    """
    from ..metrics.gotoscorer import (format_difficulty, read_gold, read_systems, read_weight_file, score_systems,
                                      sentence_scores)

    if weight_file and make_weights:
        raise InputError("-w_file reads weights and -gen_w_file writes the systems' weights: give one of them")
    check_outputs([("-gen_w_file", make_weights)], [*hypotheses, reference])
    if list(hypotheses).count(STDIN) + (reference == STDIN) > 1:
        raise InputError("standard input ('-') can be read only once")
    gold = read_gold(read_m2(reference), ref_id, _shown(reference))
    systems = []
    for path in hypotheses:  # each file read once, its blocks not kept
        found = read_systems(iter_m2_blocks(read_lines(path), _shown(path)), gold, _shown(path))
        systems.extend(found if len(found) > 1 else [replace(found[0], name=_shown(path))])
    labels = [system.name for system in systems]
    if names is not None:
        labels = names.split(",")
        if len(labels) != len(systems):
            raise InputError(f"-name gives {len(labels)} names for {len(systems)} systems")
    weights = read_weight_file(weight_file) if weight_file else None
    run = score_systems(gold, systems, weights, a, b, c, no_weight)
    if make_weights:
        run.weights.write(make_weights)
    order = list(range(len(systems)))
    if sort:
        order.sort(key=lambda s: run.scores[s].f05, reverse=True)
    if as_json:
        echo_json([{"system": labels[s], **run.scores[s].as_dict()} for s in order])
        return
    used = None if no_weight else run.level_weights
    columns = (COUNT_COLUMNS if verbose else ()) + SCORE_COLUMNS
    if sentence:
        rows = [[labels[s], str(d + 1), *(round_half_up(getattr(score, key), digits) for _, key in columns)]
                for s in order for d, score in enumerate(sentence_scores(run.statistics[s], used))]
        click.echo(Table(["system", "sentence", *(label for label, _ in columns)], rows).render("tsv"))
        return
    rows = [[labels[s], *(round_half_up(getattr(run.scores[s], key), digits) for _, key in columns)] for s in order]
    click.echo(Table(["system", *(label for label, _ in columns)], rows).render("tsv"))
    if category:
        click.echo(format_difficulty(run.difficulty(int(category))), nl=False)


def _shown(path: str) -> str:
    return "<stdin>" if path == STDIN else path
