"""``gecmetric gleu``: GLEU+ and GLEU 2015 from files."""
from __future__ import annotations

import dataclasses
from typing import Any

import click

from ..errors import InputError
from ..metrics.gleu.gleu import VARIANTS, GLEU, GLEUSettings
from ..metrics.gleu.report import GLEUReport
from ..metrics.settings import refuse_repeated_columns
from . import main
from .common import corpus_files
from .inputs import corpus_options
from .options import GreedyCommand, GreedyOption
from .setting_options import given_settings, settings_options
from .scoring import ScoringOptions, run_scoring, scoring_options

SAMPLING = ("iterations", "fix_seed", "seed", "best_reference")
"""GLEU+ settings that the 2015 GLEU does not have."""


def gleu_metrics(variant: str, lambdas: tuple[str, ...], options: dict[str, Any]) -> list[Any]:
    """One GLEU+ metric, or one GLEU 2015 per lambda (-l), from the command's options."""
    settings = given_settings(GLEUSettings, options)
    if variant != "gleu0":
        if lambdas:
            raise InputError(f"-l/--lambda applies to --variant gleu0 only, not {variant}")
        if settings.get("fix_seed") and settings.get("seed") is not None:
            raise InputError("-f (gec-ranking's draws, the default) and --seed N (NumPy draws) contradict each "
                             "other; give one (with a paired test, -f --seed N seeds the test alone)")
        if settings.get("best_reference") and "iterations" in settings:  # it changed nothing
            raise InputError("-i/--iter does not apply to -m/--max (the best reference of each sentence: no "
                             "reference sampling)")
        return [GLEU(variant=variant, **settings)]
    unused = [flag for name in SAMPLING if name in settings for flag in GLEUSettings.infos()[name].flags[:1]]
    if unused:
        verb = "does" if len(unused) == 1 else "do"
        raise InputError(f"{', '.join(unused)} {verb} not apply to --variant gleu0 (no reference sampling; with a "
                         "paired test, --seed seeds the test)")
    from ..metrics.gleu.gleu2015 import GLEU2015, GLEU2015Settings

    parse = GLEU2015Settings.infos()["lambda_"].parse
    parsed = [parse("-l/--lambda", value) for value in (lambdas or ("0",))]
    refuse_repeated_columns("-l/--lambda", "lambda", parsed)
    return [GLEU2015(**settings, lambda_=value) for value in parsed]


@main.command(cls=GreedyCommand, spellings={  # the gleu package's (gleu -h)
    "--src": "--source", "--ref": "--reference", "--references": "--reference", "--out": "--hypothesis",
    "--outputs": "--hypothesis", "--digit": "--digits", "--proc": "--jobs", "--token": "--unit", "--fix": "--fix-seed"})
@corpus_options()
@settings_options(GLEUSettings)
@click.option("--variant", type=click.Choice(VARIANTS), default="official", show_default=True,
              help="official: gec-ranking's code; official-2016: its May 2016 brevity penalty exp(min(0, "
                   "1 - Hlen/Rlen)); paper: Eq. 1 of 'GLEU Without Tuning' (no clamp); "
                   "gleu0: the original 2015 GLEU with merged references.")
@click.option("-l", "--lambda", "lambdas", cls=GreedyOption, metavar="FLOAT...",
              help="gleu0 only: weight(s) of the penalty for source n-grams not in the references, one column "
                   "each (one with --sentence) [default: 0].")
@scoring_options(add_seed=False, verbose="Print per-order tables (gec-ranking's, x100).")
def gleu(source: str, references: tuple[str, ...], hypotheses: tuple[str, ...], variant: str,
         lambdas: tuple[str, ...], **options: Any) -> None:
    """GLEU+ of each hypothesis file: `path<TAB>score` (x100; --tsv, --json ...: the table of
    `compare`).

    \b
    gecmetric gleu -s INPUT -r REF0 REF1 -o AMU CAMB -d 4
    prints gec-ranking's numbers (AMU 58.3256): references are drawn as its code draws them
    (-f, the gleu package's flag for it, is accepted). --seed N draws them from NumPy instead.
    """
    scoring = ScoringOptions.take({**options, "seed": None})
    if options.get("smooth") and not scoring.sentence:
        raise InputError("--smooth goes with --sentence")
    test_seed = None
    if scoring.paired and options.get("seed") is not None and (variant == "gleu0" or options.get("fix_seed")
                                                               or options.get("best_reference")):
        # no reference drawn from it (-f: gec-ranking's draws; gleu0 and -m draw none): the test's seed alone, as
        # compare's --seed is
        test_seed = GLEUSettings.infos()["seed"].parse("--seed", options["seed"])
        options = {**options, "seed": None}
    if options.get("best_reference") and options.get("seed") is not None and not scoring.paired:
        raise InputError("--seed draws references or a paired test's resamples: -m/--max draws no reference")
    metrics = gleu_metrics(variant, lambdas, options)
    seed = test_seed if test_seed is not None else getattr(metrics[0].settings, "seed", None)  # --seed, as parsed
    scoring = dataclasses.replace(scoring, seed=seed)
    files = corpus_files(source, references, hypotheses)
    if scoring.sentence and len(metrics) > 1:  # (the first lambda's were printed, the others dropped unsaid)
        raise InputError("--sentence prints one lambda's sentence scores: give one -l value (compare --sentence "
                         "--metrics gleu0:lambda=0,gleu0:lambda=1 prints a column for each)", "-l")
    run_scoring("gleu", metrics, files, GLEUReport(scoring.scale), scoring)
