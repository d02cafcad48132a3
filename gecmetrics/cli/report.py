"""``gecmetric report``: one self-contained HTML page (and/or its JSON) for an evaluation."""
from __future__ import annotations

import click

from ..core.collector import survivors_frozen
from ..errors import InputError
from ..meta.human_tables import human_table_file
from ..output.report import check_report_paths, read_report_corpus, report_data, write_report
from ..output.report.attribution import over_bound_notes
from ..output.report.data import DEFAULT_PERMUTATIONS, DEFAULT_SAMPLES, OVER_BOUND
from ..stats.attribution import DEFAULT_MAX_EXACT_EDITS, MAX_EXACT_EDITS_LIMIT, MAX_PERMUTATIONS, METHODS
from ..stats.significance import MAX_PAIRED_SAMPLES
from . import main
from .common import echo_warnings, progress_unless
from .inputs import corpus_options, hypothesis_m2_option
from .numbers import INT, IntRange
from .options import GreedyCommand, GreedyOption
from .progress import quiet_option
from .shared import jobs_option
from .context import check_command_outputs, metric_files, model_folders, run_context
from .given import given_flag, refuse_idle_attribution_options


@main.command(cls=GreedyCommand)
@corpus_options()
@click.option("--m2", "gold_m2", metavar="GOLD.m2",
              help="Gold M2 of the same sentences: the reference edits (else the references annotated with ERRANT); "
                   "adds M2 F0.5 to the default metrics.")
@hypothesis_m2_option("The systems' ERRANT M2, one per -o file in the same order (else they are annotated here): "
                      "the edits the page shows, and the hypotheses of the metrics that read edits ({metrics}).")
@click.option("--html", "html_path", metavar="PAGE.html", help="Write the page here.")
@click.option("--json", "json_path", metavar="DATA.json", help="Write the data behind the page here.")
@click.option("--metrics", "metric_texts", cls=GreedyOption, metavar="SPEC...",
              help="Metric settings as in `compare` (comma-separated or several) [default: gleu, "
                   "green:beta=0.5/1/2, m2 with --m2, gotoscorer (two or more systems)]; ERRANT F0.5 is always "
                   "added.")
@click.option("--baseline", metavar="SYSTEM", help="The system the others are tested against [default: the first -o].")
@click.option("--samples", type=IntRange(1, MAX_PAIRED_SAMPLES), default=DEFAULT_SAMPLES, show_default=True,
              help="Paired bootstrap resamples behind the intervals and p-values.")
@click.option("--seed", type=INT, default=0, show_default=True, help="Seed of the bootstrap and of sampled Shapley.")
@click.option("--correction", type=click.Choice(["holm", "bh", "none"]), default="holm", show_default=True,
              help="Multiple-comparison correction of the test of every pair of systems, which the summary's "
                   "stars against the baseline and the clusters both read: holm (family-wise error), "
                   "bh (Benjamini-Hochberg, false discovery rate) or none.")
@click.option("--attribute", "attribute_texts", cls=GreedyOption, metavar="SPEC...",
              help="Metrics whose sentence scores are attributed to the edits ('none': no attribution) "
                   "[default: the first metric with text hypotheses and sentence scores].")
@click.option("--methods", "method_texts", metavar="M,M...", default=",".join(METHODS), show_default=True,
              help="Attribution methods: add, leave-one-out, shapley, sampled-shapley.")
@click.option("--max-exact-edits", type=IntRange(0, MAX_EXACT_EDITS_LIMIT), default=DEFAULT_MAX_EXACT_EDITS,
              show_default=True, help="Exact Shapley up to this many edits (sampled above).")
@click.option("--permutations", type=IntRange(1, MAX_PERMUTATIONS), default=DEFAULT_PERMUTATIONS, show_default=True,
              help="Permutations of sampled Shapley.")
@click.option("--human", metavar="TABLE", help="Human system scores (gjg15, seeda or a TSV file): adds the "
                                               "meta-evaluation figures.")
@click.option("--human-score", metavar="COLUMN", help="The human score column to correlate with (one) [default: every "
                                                    "human column].")
@click.option("--spacy-model", default=None, metavar="NAME",
              help="spaCy model of the ERRANT annotation [default: $GECMETRICS_SPACY_MODEL, else en_core_web_sm].")
@click.option("--title", metavar="TEXT", help="The page's title.")
@jobs_option
@quiet_option
def report(source, references, hypotheses, gold_m2, hypothesis_m2, html_path, json_path, metric_texts, baseline,
           samples, seed, correction, attribute_texts, method_texts, max_exact_edits, permutations, human, human_score,
           spacy_model, title, jobs):
    """An HTML report of an evaluation: summary with intervals and significance, ERRANT's error
    types, a sentence browser (edits marked TP/FP/FN), edit attribution and, with --human, the
    meta-evaluation figures.

    \b
    gecmetric m2 annotate --from-m2 official-2014.combined.m2 --auto -o gold.auto.m2     # ERRANT's types
    gecmetric report -s INPUT -r REF0 REF1 --m2 gold.auto.m2 -o AMU CAMB CUUI --html report.html
    gecmetric report -s INPUT -r REF0 REF1 -o AMU CAMB CUUI --json data.json --human gjg15

    The page is one file that loads nothing; --json writes the data it shows. Warnings about
    the input (as compare prints them: a gold M2 of another type scheme) go to stderr and into
    the page's summary.
    """
    if html_path is None and json_path is None:
        raise InputError("nothing to write: give --html PAGE.html and/or --json DATA.json")
    inputs = [source, *references, *hypotheses, gold_m2, *hypothesis_m2, human_table_file(human),
              *metric_files([*metric_texts, *attribute_texts]), *model_folders(spacy_model)]
    check_command_outputs([("--html", html_path), ("--json", json_path)], inputs)
    for flag, path in (("--html", html_path), ("--json", json_path)):  # before the work, not after it
        if path is not None:
            try:
                check_report_paths(path, None)
            except InputError as err:
                raise InputError(f"{flag}: {err}") from None
    attribution = None if not attribute_texts else \
        ("none" if [t.strip().lower() for t in attribute_texts] == ["none"] else list(attribute_texts))
    if attribution == "none":  # the attribution's own options would be ignored without a word
        given = [flag for flag, name in (("--methods", "method_texts"), ("--max-exact-edits", "max_exact_edits"),
                                         ("--permutations", "permutations")) if given_flag(name)]
        if given:
            raise InputError(f"{given[0]} sets the edit attribution, which --attribute none leaves out: "
                             f"drop one of them")
    else:
        refuse_idle_attribution_options(_methods(method_texts), OVER_BOUND, ("max_exact_edits", "permutations"),
                                        "--methods")
    with survivors_frozen():  # millions of objects live until the page is written
        corpus = read_report_corpus(source, references, hypotheses, gold_m2, hypothesis_m2)
        data = report_data(corpus, list(metric_texts) if metric_texts else None, baseline=baseline, samples=samples,
                           seed=seed, attribution=attribution, methods=_methods(method_texts),
                           max_exact_edits=max_exact_edits, permutations=permutations, human=human,
                           human_score=human_score, spacy_model=spacy_model, jobs=jobs, title=title,
                           correction=correction, progress=progress_unless(False, "report"), cache=run_context())
        del corpus  # the page needs only the data: the M2 blocks and system texts go before it is written
        write_report(data, html_path, json_path)
    echo_warnings(data["warnings"])  # (the page lists them too: it is what gets shared)
    echo_warnings([note for entry in data["attribution"] for note in over_bound_notes(
        entry["max_exact_edits"], sampled=sum(map(len, entry["sampled_shapley"].values())),
        label=entry["label"], rule="the report's over-bound:sample, in its signature",
        shown="marked in the sentence browser (and the data's sampled_shapley)")])


def _methods(text: str) -> list[str]:
    methods = [item.strip() for item in text.split(",") if item.strip()]
    if not methods:
        raise InputError("--methods needs at least one attribution method")
    return methods
