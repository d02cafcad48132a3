"""``gecmetric errant``: ERRANT scores of plain-text system outputs (errant_parallel on each
system, then errant_compare against the gold M2), in one run that parses each line once."""
from __future__ import annotations

from typing import Callable, Sequence

import click

from ..errors import InputError
from ..metrics.m2.compare import ErrantSettings, format_errant_report, parse_filter_types
from . import main
from .annotate import annotation_options
from .common import digits_option, echo_json, progress_unless, scored_files
from .options import GreedyCommand, GreedyOption
from .significance import significance_options

MODE_FLAGS = (("dt", "detection_tokens"), ("ds", "detection_spans"), ("cs", "correction_spans"),
              ("cse", "correction_types"))


def comparison_options(func: Callable) -> Callable:
    """compare_m2's options: -b, -dt/-ds/-cs/-cse, -single, -multi, -filt, -cat, -v."""
    func = click.option("-v", "--verbose", is_flag=True, help="Print ERRANT's per-sentence trace.")(func)
    func = click.option("-cat", "category_level", type=click.IntRange(1, 3),
                        help="Category scores. 1: operation (M, R, U); 2: main type (e.g. NOUN); 3: full type.")(func)
    func = click.option("-filt", "filter_types", cls=GreedyOption, metavar="TYPE...",
                        help="Do not evaluate these error types.")(func)
    func = click.option("-multi", is_flag=True, help="Only evaluate multi token edits; i.e. 2+:n or n:2+.")(func)
    func = click.option("-single", is_flag=True, help="Only evaluate single token edits; i.e. 0:1, 1:0 or 1:1.")(func)
    for flag, name in reversed(MODE_FLAGS):
        what = {"dt": "detection in terms of tokens", "ds": "detection in terms of spans",
                "cs": "correction in terms of spans (default)", "cse": "correction in terms of spans and types"}
        func = click.option(f"-{flag}", name, is_flag=True, help=f"Evaluate {what[flag]}.")(func)
    func = click.option("-b", "--beta", type=float, default=ErrantSettings.beta, show_default=True,
                        help="Beta of the F-score (>= 0; inf gives recall).")(func)
    return func


def chosen_mode(flags: dict[str, bool]) -> str:
    """The one evaluation mode given by -dt/-ds/-cs/-cse (cs by default)."""
    modes = [flag for flag, name in MODE_FLAGS if flags[name]]
    if len(modes) > 1:
        raise click.UsageError(f"-{modes[0]} and -{modes[1]} are mutually exclusive")
    return modes[0] if modes else "cs"


@main.command("errant", cls=GreedyCommand)
@click.option("-s", "--source", required=True, metavar="FILE", help="The source sentences, one per line.")
@click.option("-r", "--reference", "references", cls=GreedyOption, required=True,
              help="The gold M2 file of the same sentences (as given: re-annotate it first with "
                   "`m2 annotate --from-m2 --auto|--gold` to score as ERRANT papers do), or with --annotate-refs "
                   "one or more text references.")
@click.option("-o", "--hypothesis", "hypotheses", cls=GreedyOption, required=True,
              help="System output files (plain text, one line per source line).")
@click.option("--annotate-refs", is_flag=True, help="-r names text references: annotate them as annotators 0, 1, ...")
@comparison_options
@annotation_options
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list: per system its counts, scores, categories "
                                                     "and signature.")
@click.option("--signature", "show_signature", is_flag=True,
              help="Print the signature (settings, spaCy and model versions) on stderr.")
@digits_option(4, "Decimals of the paired tests' scores (rounded half up).")
@significance_options()
def errant(source: str, references: tuple[str, ...], hypotheses: tuple[str, ...], annotate_refs: bool, beta: float,
           single: bool, multi: bool, filter_types: tuple[str, ...], category_level: int | None, verbose: bool,
           merge: str, lev: bool, tokenise: bool, spacy_model: str, jobs: int, chunk_lines: int | None,
           dask_address: str | None, word_list: str | None, as_json: bool, show_signature: bool, digits: int, paired_bs: int | None,
           paired_ar: int | None, seed: int, **modes: bool) -> None:
    """ERRANT precision, recall and F-beta of plain-text system outputs, as errant_parallel then
    errant_compare (ERRANT 3.0.2) print them, with compare_m2's options.

    \b
    gecmetric m2 annotate --from-m2 official-2014.combined.m2 --auto -o gold.auto.m2
    gecmetric errant -s INPUT -r gold.auto.m2 -o AMU CAMB CUUI -cat 3
    gecmetric errant -s INPUT -r REF0 REF1 --annotate-refs -o AMU CAMB --paired-bs

    The files are read in chunks (--chunk-lines), each distinct line of a chunk parsed once for
    all systems and compared at once, so memory stays near one chunk's needs (plus the -v
    traces); -p 0 annotates on every core. With several systems each report follows a
    '== FILE' line.
    """
    from ..metrics.errant.metric import ErrantText

    metric = ErrantText(beta=beta, mode=chosen_mode(modes), single=single, multi=multi,
                        filter_types=parse_filter_types(filter_types), merge=merge, lev=lev, tokenise=tokenise,
                        spacy_model=spacy_model, annotate_refs=annotate_refs, word_list=word_list,
                        verbose=verbose and not as_json)
    if not annotate_refs and len(references) != 1:
        raise InputError(f"-r takes one gold M2 file (got {len(references)}); text references need --annotate-refs")
    paired = bool(paired_bs or paired_ar)
    conflicts = {"-v": verbose, "-cat": category_level is not None}
    if paired:
        _check_paired(paired_bs, paired_ar, conflicts, hypotheses)  # before the annotation, which takes time
    paths = list(dict.fromkeys(hypotheses))
    scored = scored_files([metric], source, references if annotate_refs else (), paths,
                          None if annotate_refs else references[0], jobs=jobs, chunk_lines=chunk_lines,
                          dask_address=dask_address, progress=progress_unless(as_json, "errant"))
    if paired:
        from ..stats.significance import resamplers_for
        from .significance import run_paired_tests

        run_paired_tests(resamplers_for([metric], 1), list(hypotheses),
                         [scored.statistics[path][0] for path in hypotheses], paired_bs, paired_ar, seed, digits,
                         as_json, show_signature, conflicts, scale=1)
        return
    _echo_reports([(path, scored.result(path, 0)) for path in hypotheses], category_level, as_json)
    if show_signature:
        click.echo(metric.signature, err=True)


def _echo_reports(results: list, category_level: int | None, as_json: bool) -> None:
    if as_json:
        echo_json([{"system": path, **result.to_dict()} for path, result in results])
        return
    for path, result in results:
        if len(results) > 1:
            click.echo(f"== {path}")
        click.echo(format_errant_report(result, category_level), nl=False)


def _check_paired(paired_bs: int | None, paired_ar: int | None, conflicts: dict[str, bool],
                  hypotheses: Sequence[str]) -> None:
    from .significance import check_paired_options

    check_paired_options(paired_bs, paired_ar, conflicts)
    if len(hypotheses) < 2:
        raise InputError("a paired test needs at least two hypothesis files: the first is the baseline")
