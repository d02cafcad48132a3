"""``gecmetric attribute``: each edit's share of a metric's sentence score (add, leave-one-out,
exact and sampled Shapley), as TSV or JSON."""
from __future__ import annotations

import click

from ..errors import InputError
from ..output.report import attribute_corpus, attribution_dicts, attribution_tsv_of_systems, read_report_corpus
from ..stats.attribution import (DEFAULT_MAX_EXACT_EDITS, DEFAULT_PERMUTATIONS, MAX_EXACT_EDITS_LIMIT, METHODS,
                                 OVER_BOUND_RULES)
from . import main
from .common import echo_json
from .inputs import corpus_options
from .options import GreedyCommand, GreedyOption
from .progress import quiet_option
from .shared import chosen_format, format_options, jobs_option
from .context import run_context


@main.command(cls=GreedyCommand)
@corpus_options()
@click.option("--metric", "metric_text", required=True, metavar="SPEC",
              help="The metric whose sentence scores are attributed: NAME[:KEY=VALUE...] as in `compare --metrics`.")
@click.option("--column", default="0", show_default=True, metavar="COLUMN",
              help="The metric's score column: its index, label or (GREEN) beta.")
@click.option("--m2", "gold_m2", metavar="GOLD.m2", help="Gold M2 of the same sentences (metrics of the M2 family).")
@click.option("--hyp-m2", "hypothesis_m2", cls=GreedyOption, metavar="FILE.m2...",
              help="The systems' edits as M2, one per -o file in the same order (else ERRANT annotates the outputs).")
@click.option("--method", "method_texts", cls=GreedyOption, metavar="METHOD...",
              help=f"Attribution methods: {', '.join(METHODS)} (comma-separated or several) [default: shapley].")
@click.option("--max-exact-edits", type=click.IntRange(0, MAX_EXACT_EDITS_LIMIT), default=DEFAULT_MAX_EXACT_EDITS,
              show_default=True, help="Exact Shapley scores 2^n candidates: refused above this many edits.")
@click.option("--over-bound", type=click.Choice(OVER_BOUND_RULES), default="error", show_default=True,
              help="Exact Shapley above the bound: an error, sampled Shapley instead, or skip the sentence.")
@click.option("--permutations", type=click.IntRange(1), default=DEFAULT_PERMUTATIONS, show_default=True,
              help="Permutations of sampled Shapley (all n! when that is fewer: exact).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of sampled Shapley (per sentence).")
@click.option("--normalize", is_flag=True,
              help="Rescale add and leave-one-out to sum to the score difference (gec-metrics' attributors).")
@format_options(only={"json": "Print JSON: a list of the rows (system, sentence, method, edit, ... attribution).",
                      "tsv": "Print tab-separated values (the default): a header, then a line per system, sentence, "
                             "method and edit."})
@click.option("--spacy-model", default=None, metavar="NAME",
              help="spaCy model of the ERRANT annotation [default: $GECMETRICS_SPACY_MODEL, else en_core_web_sm].")
@jobs_option
@quiet_option
def attribute(source, references, hypotheses, metric_text, column, gold_m2, hypothesis_m2, method_texts,
              max_exact_edits, over_bound, permutations, seed, normalize, spacy_model, jobs):
    """How much each edit of each system output adds to a metric's sentence score.

    \b
    gecmetric attribute -s INPUT -r REF0 REF1 -o AMU --metric gleu --over-bound sample --tsv
    gecmetric attribute -s INPUT -r REF0 -o AMU --hyp-m2 AMU.m2 --metric green --method add,shapley --over-bound sample --json

    A candidate is the source with some of the edits applied, scored as a hypothesis of that
    source. Shapley values of a sentence add up to its score difference (output minus source).
    """
    fmt = chosen_format("tsv")
    if fmt not in ("tsv", "json"):
        raise InputError(f"attribute prints TSV (a line per system, sentence, method and edit) or JSON, not {fmt}")
    methods = [m.strip() for text in (method_texts or ("shapley",)) for m in text.split(",") if m.strip()]
    corpus = read_report_corpus(source, references, hypotheses, gold_m2, hypothesis_m2)
    results = attribute_corpus(corpus, metric_text, column=_column(column), spacy_model=spacy_model, methods=methods,
                               max_exact_edits=max_exact_edits, permutations=permutations, seed=seed,
                               normalize=normalize, over_bound=over_bound, jobs=jobs, cache=run_context())
    if fmt == "json":
        echo_json(attribution_dicts(results))
    else:
        click.echo(attribution_tsv_of_systems(results), nl=False)
    skipped = sum(any(found is None for found in row.values()) for rows in results.values() for row in rows)
    if skipped:  # (only --over-bound skip leaves a sentence out: its rows would be missing unsaid)
        click.echo(f"gecmetric: warning: {skipped} sentence{'s' if skipped != 1 else ''} with more than "
                   f"{max_exact_edits} edits left out (--over-bound skip): no rows for "
                   f"{'them' if skipped != 1 else 'it'}", err=True)


def _column(text: str) -> int | str:
    return int(text) if text.strip().isdigit() else text
