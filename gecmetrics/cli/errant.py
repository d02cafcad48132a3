"""``gecmetric errant``: ERRANT scores of plain-text system outputs (errant_parallel on each
system, then errant_compare against the gold M2), in one run that parses each line once."""
from __future__ import annotations

from typing import Any

import click

from ..core.table import ScoreFormat
from ..errors import InputError
from ..io.m2 import looks_like_text
from ..metrics.errant.metric import ANNOTATION_SETTINGS, ErrantText, ErrantTextSettings
from ..metrics.m2.errant_report import errant_table, format_errant_report
from ..metrics.results import scores_signature
from ..metrics.type_average import level_signature
from . import main
from .common import corpus_files, echo_json_results, echo_scores, echo_table
from .errant_options import (check_corpus_figures, check_report_numbers, chosen_mode, comparison_options,
                             report_signature, warn_nothing_compared, warn_type_groups)
from .options import GreedyCommand, GreedyOption
from .setting_options import given_settings, settings_options
from .scoring import ScoringOptions, scoring_options
from .significance import check_paired_options, run_paired_tests
from .context import in_run
from .sentences import echo_sentence_scores


@main.command("errant", cls=GreedyCommand)
@click.option("-s", "--source", required=True, metavar="FILE", help="The source sentences, one per line.")
@click.option("-r", "--reference", "references", cls=GreedyOption, required=True,
              help="The gold M2 file of the same sentences (as given: re-annotate it first with "
                   "`m2 annotate --from-m2 --auto|--gold` to score as ERRANT papers do), or with --annotate-refs "
                   "one or more text references.")
@click.option("-o", "--hypothesis", "hypotheses", cls=GreedyOption, required=True,
              help="System output files (plain text, one line per source line).")
@comparison_options
@settings_options(ErrantTextSettings, ANNOTATION_SETTINGS)
@click.option("--errant-compare", "reports", is_flag=True,
              help="Print errant_compare's own report of each system instead of one table (after a '== FILE' line "
                   "when there are several): its text and fractions as ERRANT prints them; with -v its "
                   "per-sentence traces. Not with --json, --tsv ... (--json alone holds the same counts).")
@scoring_options(mean=False, verbose="With --errant-compare: ERRANT's per-sentence trace.")
def errant(source: str, references: tuple[str, ...], hypotheses: tuple[str, ...], category_level: int | None,
           reports: bool, **options: Any) -> None:
    """ERRANT precision, recall and F-beta of plain-text system outputs, as errant_parallel then
    errant_compare (ERRANT 3.0.2) compute them, with compare_m2's options: one table of the
    systems (x100; --scale 1: fractions; -cat N: a row per error type, then the totals);
    --errant-compare prints errant_compare's own report of each.

    \b
    gecmetric m2 annotate --from-m2 official-2014.combined.m2 --auto -o gold.auto.m2
    gecmetric errant -s INPUT -r gold.auto.m2 -o AMU CAMB CUUI -cat 3
    gecmetric errant -s INPUT -r REF0 REF1 --annotate-refs -o AMU CAMB --paired-bs

    Each distinct line of a chunk is parsed once for all systems; -p N annotates N chunks at once.
    """
    out = ScoringOptions.take(options)
    fmt = out.format
    if out.verbose and not reports:
        raise InputError("-v (ERRANT's per-sentence trace) goes with --errant-compare")
    if reports and (out.sentence or fmt is not None):
        raise InputError("--errant-compare prints errant_compare's own report: no --sentence, --json, --tsv ... with "
                         "it (--json without it holds the same counts, per type with -cat)")
    if reports:
        check_report_numbers()
    metric = in_run(ErrantText(mode=chosen_mode(options), **given_settings(ErrantTextSettings, options),
                               verbose=out.verbose and reports))
    refs = metric.settings.annotate_refs
    if not refs and len(references) != 1:
        raise InputError(f"-r takes one gold M2 file (got {len(references)}); text references need --annotate-refs")
    if not refs and looks_like_text(references[0]):
        raise InputError("not an M2 file (its first line is plain text); text references need --annotate-refs",
                         references[0])
    if out.paired:  # checked before the annotation, which takes time
        check_paired_options(out.paired_bs, out.paired_ar, {"-v": out.verbose, "-cat": category_level is not None,
                                                            "--sentence": out.sentence, "--errant-compare": reports})
    check_corpus_figures(category_level, options, sentence=out.sentence)
    names = list(dict.fromkeys(hypotheses))
    files = corpus_files(source, references if refs else (), names, None if refs else references[0])
    scored = out.run([metric], files, "errant")
    warn_nothing_compared(names, [scored.result(name, 0) for name in names])
    if out.paired:
        run_paired_tests([metric.resampler(0, 1)], list(hypotheses), [scored.statistics[p][0] for p in hypotheses],
                         out.paired_bs, out.paired_ar, out.seed or 0, out.digits, fmt == "json", out.show_signature,
                         printed=ScoreFormat.of(metric, out.scale))
        return
    if out.sentence:
        echo_sentence_scores(scored, out.scale, out.digits, fmt)
    else:
        results = [scored.result(path, 0) for path in hypotheses]
        _print(metric, list(hypotheses), results, category_level, reports, out)
        if out.format != "json":  # once the groups are printed (a type they cannot take is an error)
            warn_type_groups(metric, results, category_level)
    if out.show_signature:  # (with --macro, its -cat level)
        click.echo(scores_signature(level_signature(metric.signature, metric.macro, category_level), out.sentence),
                   err=True)


def _print(metric: Any, names: list[str], results: list[Any], category_level: int | None, reports: bool,
           out: ScoringOptions) -> None:
    if out.format == "json":
        echo_json_results(((path, metric, result) for path, result in zip(names, results)), out.scale,
                          level=category_level)
    elif reports:
        for path, result in zip(names, results):
            if len(names) > 1:
                click.echo(f"== {path}")
            click.echo(format_errant_report(result, category_level, metric.comparison().trace_layout), nl=False)
    else:
        table = errant_table(names, results, category_level, out.scale, out.digits)
        if out.format is None:  # its own text, as before; a format asked for carries the signature
            echo_table(table, "text")
        else:
            echo_scores(table, out.format, [report_signature(result, category_level) for result in results])
