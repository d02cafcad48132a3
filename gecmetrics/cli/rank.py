"""``gecmetric rank``: the human ranking of raw judgments (Expected Wins or TrueSkill) with rank
ranges and clusters."""
from __future__ import annotations

import click

from ..errors import InputError
from . import main
from .common import echo_json, progress_unless
from .numbers import INT
from .progress import quiet_option
from .shared import chosen_format, digits_option, format_options
from .meta_judgments import ranking_options, refuse_idle_ranking_options


@main.command("rank")
@ranking_options
@click.option("--bootstrap", type=INT, default=None, metavar="N",
              help="Bootstrap resamples of the comparisons behind the rank ranges (EW; default 1000, 0: none), "
                   "or TrueSkill runs (ts; default 10).")
@click.option("--systems", default=None, metavar="SUBSET",
              help="Rank only these systems (every item keeps only them): base, +INPUT, +fluency, all, or "
                   "NAME,NAME,... [default: all]")
@digits_option(4)
@format_options(helps={"json": "Print JSON: the method and its settings, then systems (system, score, range, "
                              "spread), best first, and the clusters.",
                       "markdown": "Print a Markdown table under its title (method, judgments, resamples).",
                       "latex": "Print a LaTeX tabular (booktabs rules), its title as a comment."})
@quiet_option
def rank(judgments_path: str | None, ranking: str, ew_procedure: str, seed: int, bootstrap: int | None,
         systems: str | None, digits: int) -> None:
    """Rank systems from raw human judgments (Appraise ranking XML): Expected Wins (GJG15's
    EW.pl; --ew-procedure bootstrap-mean for its Makefile's and SEEDA's) or TrueSkill, best
    first, with rank ranges ("2-4") and clusters from bootstrap resamples (cluster.py -by-rank).

    \b
    gecmetric rank --judgments gjg15.xml --bootstrap 1000 --seed 0       # GJG15's judgments.xml
    """
    from ..io.judgments import read_judgments
    from ..meta.report import Section, ranking_table, ranking_title
    from ..output.formats import render_sections
    from ..meta.systems import subset_systems
    from ..stats.rankings import DEFAULT_RESAMPLES, DEFAULT_TS_RUNS, human_ranking

    fmt = chosen_format("text")
    if judgments_path is None:
        raise InputError("rank needs --judgments FILE.xml")
    if bootstrap is not None and bootstrap < 0:
        raise InputError(f"--bootstrap must be 0 or more, got {bootstrap}")
    refuse_idle_ranking_options(ranking, ew_procedure, DEFAULT_RESAMPLES if bootstrap is None else bootstrap)
    judgments = read_judgments(judgments_path)
    if systems is not None:
        judgments = judgments.restricted(subset_systems(judgments.systems, systems))
    if ranking == "ts":
        if bootstrap == 0:  # (it became the default 10 runs; the help says 0 is no resamples, which ts cannot do)
            raise InputError("--bootstrap: TrueSkill (--ranking ts) needs at least 1 run, got 0")
        options = {"runs": DEFAULT_TS_RUNS if bootstrap is None else bootstrap, "seed": seed,
                   "progress": progress_unless(fmt == "json", "rank", unit="TrueSkill runs")}
    else:
        options = {"procedure": ew_procedure, "seed": seed,
                   "resamples": DEFAULT_RESAMPLES if bootstrap is None else bootstrap}
    result = human_ranking(judgments, ranking, **options)  # (warns of systems it leaves out)
    if fmt == "json":
        echo_json(result.to_dict())
        return
    click.echo(render_sections([Section(ranking_title(result), ranking_table(result, digits))], fmt))
