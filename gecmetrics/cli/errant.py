"""``gecmetric errant``: ERRANT scores of plain-text system outputs (errant_parallel on each
system, then errant_compare against the gold M2), in one run that parses each line once."""
from __future__ import annotations

from typing import Any

import click

from ..errors import InputError
from ..io.m2 import looks_like_text
from ..metrics.errant.metric import ANNOTATION_SETTINGS, ErrantText, ErrantTextSettings
from ..metrics.m2.errant_report import errant_table, format_errant_report
from . import main
from .common import (chosen_format, digits_option, echo_json, format_options, fraction_scale_option, progress_unless,
                     scored_files)
from .errant_options import chosen_mode, comparison_options
from .context import in_run
from .options import GreedyCommand, GreedyOption, given_settings, settings_options
from .scoring import ScoringOptions, scoring_options
from .significance import check_paired_options, run_paired_tests

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
              help="Print errant_compare's report of each system instead of one table (after a '== FILE' line when "
                   "there are several); with -v its per-sentence traces.")
@format_options(json=False)
@fraction_scale_option
@scoring_options(mean=False, verbose="With --errant-compare: ERRANT's per-sentence trace.",
                 digits=digits_option(4, "Decimals of the paired tests' scores (rounded half up)."))
def errant(source: str, references: tuple[str, ...], hypotheses: tuple[str, ...], category_level: int | None,
           reports: bool, scale: float, **options: Any) -> None:
    """ERRANT precision, recall and F-beta of plain-text system outputs, as errant_parallel then
    errant_compare (ERRANT 3.0.2) compute them, with compare_m2's options: one table of the
    systems (--errant-compare: errant_compare's own report of each).

    \b
    gecmetric m2 annotate --from-m2 official-2014.combined.m2 --auto -o gold.auto.m2
    gecmetric errant -s INPUT -r gold.auto.m2 -o AMU CAMB CUUI -cat 3
    gecmetric errant -s INPUT -r REF0 REF1 --annotate-refs -o AMU CAMB --paired-bs

    Each distinct line of a chunk is parsed once for all systems; -p N annotates N chunks at once.
    """
    fmt, out = chosen_format(options), ScoringOptions.take(options)
    if out.sentence:
        raise InputError("--sentence: use gecmetric compare --metrics errant (sentence scores) or m2 score --sentence")
    if reports and scale != 1:
        raise InputError("--scale 100 goes with the table; --errant-compare prints errant_compare's own report "
                         "(fractions)")
    if out.verbose and not reports:
        raise InputError("-v (ERRANT's per-sentence trace) goes with --errant-compare")
    mode = chosen_mode(options)
    metric = in_run(ErrantText(mode=mode, **given_settings(ErrantTextSettings, options),
                               verbose=out.verbose and reports and fmt != "json"))
    if not metric.settings.annotate_refs and len(references) != 1:
        raise InputError(f"-r takes one gold M2 file (got {len(references)}); text references need --annotate-refs")
    if not metric.settings.annotate_refs and looks_like_text(references[0]):
        raise InputError("not an M2 file (its first line is plain text); text references need --annotate-refs",
                         references[0])
    if out.paired:  # checked before the annotation, which takes time
        check_paired_options(out.paired_bs, out.paired_ar, {"-v": out.verbose, "-cat": category_level is not None})
    refs = metric.settings.annotate_refs
    scored = scored_files([metric], source, references if refs else (), list(dict.fromkeys(hypotheses)),
                          None if refs else references[0], jobs=out.jobs, chunk_lines=out.chunk_lines,
                          dask_address=out.dask_address, progress=progress_unless(fmt == "json", "errant"))
    if out.paired:
        run_paired_tests([metric.resampler(0, 1)], list(hypotheses), [scored.statistics[p][0] for p in hypotheses],
                         out.paired_bs, out.paired_ar, out.seed or 0, out.digits, fmt == "json", out.show_signature,
                         scale=scale)
        return
    results = [scored.result(path, 0) for path in hypotheses]
    if fmt == "json":
        echo_json([{"system": path, **result.to_dict()} for path, result in zip(hypotheses, results)])
    elif reports:
        for path, result in zip(hypotheses, results):
            if len(hypotheses) > 1:
                click.echo(f"== {path}")
            click.echo(format_errant_report(result, category_level), nl=False)
    else:
        click.echo(errant_table(list(hypotheses), results, category_level, scale).render(fmt))
    if out.show_signature:
        click.echo(metric.signature, err=True)
