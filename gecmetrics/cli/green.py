"""``gecmetric green``: GREEN from files."""
from __future__ import annotations

from typing import Any

from ..metrics.green.green import GREEN, GREENSettings
from ..metrics.green.report import GREENReport
from . import main
from .common import corpus_files
from .inputs import corpus_options
from .options import GreedyCommand
from .setting_options import given_settings, settings_options
from .scoring import ScoringOptions, run_scoring, scoring_options


@main.command(cls=GreedyCommand)
@corpus_options(("-c", "-o", "--hypothesis", "--corrected"))
@settings_options(GREENSettings)
@scoring_options(verbose="Print per-order tables (GREEN's, x100).")
def green(source: str, references: tuple[str, ...], hypotheses: tuple[str, ...], **options: Any) -> None:
    """GREEN of each corrected file: a header of betas, then `path<TAB>score...` (x100; --tsv,
    --json ...: the table of `compare`).

    \b
    gecmetric green -s INPUT -r REF0 REF1 -c AMU CAMB -b 0.5 1 2
    The best reference is chosen per sentence and per beta (docs/green.md).
    """
    scoring = ScoringOptions.take(options)
    metric = GREEN(**given_settings(GREENSettings, options))
    run_scoring("green", [metric], corpus_files(source, references, hypotheses), GREENReport(scoring.scale), scoring)
