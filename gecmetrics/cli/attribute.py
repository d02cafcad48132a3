"""``gecmetric attribute``: each edit's share of a metric's sentence score (add, leave-one-out,
exact and sampled Shapley), a row per system, sentence, method and edit, in any format."""
from __future__ import annotations

import click

from ..core.table import ScoreFormat
from ..errors import InputError
from ..io.text import ascii_integer
from ..metrics.registry import resolve_metrics
from ..output.formats import READ_BY_PEOPLE
from ..output.report import attribute_corpus, read_report_corpus
from ..output.report.attribution import (ATTRIBUTION_ROWS, attribution_annotator, attribution_table,
                                         column_attribution_signature, over_bound_notes, systems_without_edits)
from ..stats.attribution import (DEFAULT_MAX_EXACT_EDITS, DEFAULT_PERMUTATIONS, MAX_EXACT_EDITS_LIMIT,
                                 MAX_PERMUTATIONS, METHODS, OVER_BOUND_RULES, idle_options)
from . import main
from .common import echo_scores, echo_warnings, progress_unless
from .inputs import corpus_options
from .numbers import IntRange
from .options import GreedyCommand, GreedyOption
from .shared import chosen_digits, chosen_format, digits_option, format_options, run_options, scale_option, \
    signature_option
from .context import in_run, run_context
from .given import refuse_idle_attribution_options

NO_EDIT_NOTE = "gecmetric: note: no system made an edit: nothing to attribute"
"""What ``attribute`` says on stderr where its table has no row for that reason (the report's
page says it in its attribution section)."""

PARTS_HELP = {"chunk-lines": f"Sentences of a system attributed together: their candidates scored in one engine run "
                             f"(memory stays near one part's needs; results do not depend on it)  [default: "
                             f"{ATTRIBUTION_ROWS}]",
              "dask": "Attribute the parts on a Dask cluster: a scheduler address (tcp://host:8786), or 'local' for "
                      "a local cluster of -p workers (needs gecmetrics[dask]; the parts carry their texts, and the "
                      "spaCy model's name where the metric reads hypothesis M2: the workers need it installed)."}


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
@click.option("--max-exact-edits", type=IntRange(0, MAX_EXACT_EDITS_LIMIT), default=DEFAULT_MAX_EXACT_EDITS,
              show_default=True, help="Exact Shapley scores 2^n candidates: refused above this many edits.")
@click.option("--over-bound", type=click.Choice(OVER_BOUND_RULES), default="error", show_default=True,
              help="Exact Shapley above the bound: an error, sampled Shapley in its place (its rows say "
                   "sampled-shapley; once, with sampled-shapley asked for too), or skip the sentence.")
@click.option("--permutations", type=IntRange(1, MAX_PERMUTATIONS), default=DEFAULT_PERMUTATIONS, show_default=True,
              help="Permutations of sampled Shapley (all n! when that is fewer: exact).")
@click.option("--seed", type=IntRange(0), default=0, show_default=True,
              help="Seed of sampled Shapley (per sentence).")
@click.option("--normalize", is_flag=True,
              help="Rescale add and leave-one-out to sum to the score difference (gec-metrics' attributors).")
@click.option("--spacy-model", default=None, metavar="NAME",
              help="spaCy model of the ERRANT annotation [default: $GECMETRICS_SPACY_MODEL, else en_core_web_sm].")
@format_options(helps={"json": "Print JSON: a list of the rows (system, sentence, method, edit, ... attribution, "
                               "in_place_of), the numbers scaled, at full precision.",
                       "tsv": "Print tab-separated values (the default): a header, then a line per row."})
@scale_option
@digits_option(None)
@signature_option
@run_options(helps=PARTS_HELP)
def attribute(source, references, hypotheses, metric_text, column, gold_m2, hypothesis_m2, method_texts,
              max_exact_edits, over_bound, permutations, seed, normalize, spacy_model, scale, digits, show_signature,
              jobs, chunk_lines, dask_address):
    """How much each edit of each system output adds to a metric's sentence score: a row per
    system, sentence, method run and edit (TSV unless another format is asked for), scored as
    the metric's own scores are printed (fractions x100 unless --scale 1).

    \b
    gecmetric attribute -s INPUT -r REF0 REF1 -o AMU --metric gleu --over-bound sample
    gecmetric attribute -s INPUT -r REF0 -o AMU --hyp-m2 AMU.m2 --metric green --method add,shapley --over-bound sample --json

    A candidate is the source with some of the edits applied, scored as a hypothesis of that
    source. Shapley values of a sentence add up to its score difference (output minus source).
    The corpus is read whole; each system is attributed in parts of --chunk-lines sentences
    (-p N: by N worker processes, which also annotate the candidates of a metric that reads
    hypothesis M2, SentERRANT or CLEME), the same rows for any N; a progress bar on a
    terminal counts the sentences attributed (--quiet: none).
    """
    fmt = chosen_format("tsv")
    methods = [m.strip() for text in (method_texts or ("shapley",)) for m in text.split(",") if m.strip()]
    refuse_idle_attribution_options(methods, over_bound)
    corpus = read_report_corpus(source, references, hypotheses, gold_m2, hypothesis_m2)
    metrics = [in_run(metric) for metric in resolve_metrics([metric_text])]
    try:  # the column named by its flag, before the work
        metrics[0].column_index(_column(column))
    except InputError as err:
        raise InputError(f"--column: {err}") from None
    # (one metric: attribute_corpus refuses more) the annotator of the systems and candidates, if any
    annotator = attribution_annotator(corpus, metrics[0], spacy_model) if len(metrics) == 1 else None
    settings = {"methods": methods, "max_exact_edits": max_exact_edits, "permutations": permutations, "seed": seed,
                "normalize": normalize, "over_bound": over_bound}
    idle = idle_options(methods, settings, over_bound)  # (at their defaults: refused above when given)
    results = attribute_corpus(corpus, metrics, column=_column(column), annotator=annotator, jobs=jobs,
                               chunk_lines=chunk_lines, dask=dask_address, cache=run_context(),
                               progress=progress_unless(fmt == "json", "attribute"),
                               **{name: value for name, value in settings.items() if name not in idle})
    metric = metrics[0]
    signature = column_attribution_signature(metric, metric.column_index(_column(column)), len(corpus.references),
                                             annotator, bool(systems_without_edits(corpus)), **settings)
    table = attribution_table(results, ScoreFormat.of(metric, scale), chosen_digits(digits, scale),
                              signed=fmt in READ_BY_PEOPLE)
    echo_scores(table, fmt, [signature])
    echo_warnings(_notes(results, max_exact_edits))
    if show_signature:
        click.echo(signature, err=True)


def _notes(results: dict, bound: int) -> list[str]:
    """What the rows alone do not say: that no system made an edit (no rows at all), sentences
    left out (--over-bound skip) and sentences whose exact Shapley was sampled in its place
    (--over-bound sample)."""
    sentences = [row for rows in results.values() for row in rows]
    skipped = sum(any(found is None for found in row.values()) for row in sentences)
    sampled = sum(any(found is not None and found.in_place_of for found in row.values()) for row in sentences)
    edited = any(found is None or found.edits for row in sentences for found in row.values())
    return ([] if edited else [NO_EDIT_NOTE]) + over_bound_notes(bound, skipped, sampled)


def _column(text: str) -> int | str:
    number = ascii_integer(text, signed=False)  # (not "²" or "١")
    return text if number is None else number
