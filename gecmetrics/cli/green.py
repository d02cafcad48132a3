"""``gecmetric green``: GREEN from files."""
from __future__ import annotations

from typing import Any

import click

from ..metrics.green.green import GREEN, GREENSettings
from ..metrics.green.report import GREENReport
from . import main
from .common import corpus_files
from .inputs import corpus_options
from .options import GreedyCommand
from .setting_options import given_settings, settings_options
from .scoring import ScoringOptions, run_scoring, scoring_options


@main.command(cls=GreedyCommand, spellings={  # the original's (green -h)
    "--src": "--source", **dict.fromkeys(("--ref", "--refs", "--references"), "--reference"),
    **dict.fromkeys(("--cor", "--cors", "--corrected-sentences", "--out", "--outs", "--outputs", "--hyp", "--hyps",
                     "--hypotheses"), "--hypothesis"),
    "--digit": "--digits", **dict.fromkeys(("--token", "--tokenize", "--tokenization"), "--unit")})
@corpus_options(("-c", "-o", "--hypothesis", "--corrected"))
@settings_options(GREENSettings)
@scoring_options(verbose="Print per-order tables (GREEN's, x100).")
@click.option("-l", "--line-verbose", is_flag=True,
              help="With -v: a line per file and beta, `alpha<TAB>beta<TAB>P<TAB>R<TAB>F` (cumulative, x100), as the "
                   "original's -v -l prints it (no file name); without -v it changes nothing, as there.")
def green(source: str, references: tuple[str, ...], hypotheses: tuple[str, ...], **options: Any) -> None:
    """GREEN of each corrected file: a header of betas, then `path<TAB>score...` (x100; --tsv,
    --json ...: the table of `compare`).

    \b
    gecmetric green -s INPUT -r REF0 REF1 -c AMU CAMB -b 0.5 1 2
    The best reference is chosen per sentence and per beta (docs/green.md).
    """
    line_verbose = options.pop("line_verbose")
    scoring = ScoringOptions.take(options)
    metric = GREEN(**given_settings(GREENSettings, options))
    run_scoring("green", [metric], corpus_files(source, references, hypotheses),
                GREENReport(scoring.scale, line_verbose), scoring)
