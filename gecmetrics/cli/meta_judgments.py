"""``gecmetric meta-eval --judgments FILE.xml``: meta-evaluation against raw human judgments
(the options and the run; ``cli/meta.py`` declares them on the command and hands over), and
the helpers ``gecmetric rank`` shares."""
from __future__ import annotations

from typing import Any, Callable

import click

from ..errors import InputError
from .common import StderrProgress, echo_json

JUDGMENT_DEFAULTS: dict[str, Any] = {
    "judgments_path": None, "ranking": "ew", "ew_procedure": "plain", "bootstrap": 0, "resample": "judgments",
    "seed": 0, "compare": False, "level": "system", "window": None, "plot_path": None, "src_ids": None,
    "tie_rule": "seeda"}
"""Each option of the judgments mode and its value when not given."""
RESAMPLE_CHOICES = {"judgments": ("judgments",), "sentences": ("sentences",), "both": ("judgments", "sentences")}


def ranking_options(func: Callable) -> Callable:
    """--judgments, --ranking, --ew-procedure, --bootstrap, --seed (meta-eval and rank)."""
    func = click.option("--seed", type=int, default=0, show_default=True,
                        help="Seed of the bootstrap resamples and TrueSkill runs.")(func)
    func = click.option("--ew-procedure", default="plain", show_default=True, metavar="plain|bootstrap-mean",
                        help="Expected Wins: plain (GJG15's EW.pl) or the mean over the bootstrap resamples "
                             "(GJG15's Makefile; SEEDA's published EW files).")(func)
    func = click.option("--ranking", default="ew", show_default=True, metavar="ew|ts",
                        help="Human scores: Expected Wins (ew) or TrueSkill (ts; pip install "
                             "'gecmetrics[trueskill]').")(func)
    return click.option("--judgments", "judgments_path", type=click.Path(dir_okay=False), metavar="FILE.xml",
                        help="Raw human judgments: an Appraise ranking XML file (GJG15's judgments.xml, "
                             "SEEDA's judgments_*.xml ...).")(func)


def judgment_options(func: Callable) -> Callable:
    """The options of ``meta-eval --judgments`` (declared on the command in cli/meta.py)."""
    options = [
        click.option("--bootstrap", type=int, default=0, show_default=True, metavar="N",
                     help="With --judgments: N bootstrap resamples for the intervals and paired tests (EW); "
                          "with --ranking ts, N TrueSkill runs (10 when 0)."),
        click.option("--resample", default="judgments", show_default=True, metavar="judgments|sentences|both",
                     help="With --bootstrap: resample the human judgments, the test sentences (metrics rescored "
                          "per resample; needs -o files and --src-ids), or both (one interval each)."),
        click.option("--compare", "compare", is_flag=True,
                     help="With --judgments: test every pair of metric columns (Williams; paired bootstrap "
                          "with --bootstrap)."),
        click.option("--level", default="system", show_default=True, metavar="system|sentence",
                     help="With --judgments: system-level correlations, or SEEDA's sentence-level agreement "
                          "(accuracy, Kendall-like tau) of the metrics' sentence scores."),
        click.option("--tie-rule", default="seeda", show_default=True, metavar="seeda|disagree|ignore",
                     help="Sentence level: what a metric tie counts as (seeda: as SEEDA's corr_sentence.py)."),
        click.option("--window", type=int, default=None, metavar="K",
                     help="With --judgments: correlations over windows of K systems adjacent in the human ranking."),
        click.option("--plot", "plot_path", type=click.Path(dir_okay=False), metavar="FILE.png|FILE.pdf",
                     help="Write a figure (pip install 'gecmetrics[plot]'): the scatter of metric against human "
                          "scores; with --window, the windows, and the scatter beside it as FILE-scatter.png|pdf."),
        click.option("--src-ids", "src_ids", metavar="0|1|FILE",
                     help="How the judgments' src-id attributes map to the -o files' lines: the src-id of the "
                          "first line (GJG15: 0, SEEDA on the full corpus: 1), or a file of the src-id of every "
                          "line (SEEDA's subset LINES). Needed by --level sentence and --resample sentences."),
    ]
    for option in reversed(options):
        func = option(func)
    return ranking_options(func)


def given_judgment_options(values: dict[str, Any]) -> list[str]:
    """The flags of the judgment-mode options whose values differ from their defaults."""
    return ["--plot" if name == "plot_path" else "--" + name.replace("_", "-")
            for name, default in JUDGMENT_DEFAULTS.items() if values.get(name, default) != default]


def parse_src_ids(text: str | None) -> Any:
    """--src-ids: an integer (the first line's src-id) or a file path."""
    if text is None:
        return None
    return int(text) if text.strip().lstrip("-").isdigit() else text


def run_with_judgments(values: dict[str, Any], corpus: Any, metric_texts: tuple[str, ...], scores: Any,
                       digits: int, fmt: str) -> None:
    """Meta-evaluate and print (``values``: the judgment options; ``corpus`` with named
    hypotheses, or ``scores`` read from --scores)."""
    from ..run.compare import DEFAULT_METRICS
    from ..meta.evaluate import JudgmentOptions, meta_evaluate_judgments
    from ..metrics.registry import metrics_from_text

    if values["resample"] not in RESAMPLE_CHOICES:
        raise InputError(f"unknown --resample {values['resample']!r}; choose one of: {', '.join(RESAMPLE_CHOICES)}")
    options = JudgmentOptions(ranking=values["ranking"], ew_procedure=values["ew_procedure"],
                              systems=values["systems"], bootstrap=values["bootstrap"],
                              resampling=RESAMPLE_CHOICES[values["resample"]], seed=values["seed"],
                              compare=values["compare"], level=values["level"], window=values["window"],
                              src_ids=parse_src_ids(values["src_ids"]), tie_rule=values["tie_rule"])
    if values["plot_path"] is not None:
        from ..output.plots import check_figure

        if options.level == "sentence":
            raise InputError("--plot draws system-level figures: it does not go with --level sentence")

        check_figure(values["plot_path"])
    if scores is not None:
        result = meta_evaluate_judgments(values["judgments_path"], scores=scores, options=options)
    else:
        metrics = metrics_from_text(list(metric_texts) if metric_texts else list(DEFAULT_METRICS))
        result = meta_evaluate_judgments(values["judgments_path"], metrics, corpus, options=options,
                                         jobs=values["jobs"], progress=StderrProgress("meta-eval"))
    if values["plot_path"] is not None:
        from ..output.plots import plot_meta_evaluation

        for path in plot_meta_evaluation(result, values["plot_path"]):
            click.echo(f"gecmetric: wrote {path}", err=True)
    print_evaluation(result, digits, fmt)


def print_evaluation(result: Any, digits: int, fmt: str) -> None:
    """The result as titled tables (or JSON)."""
    from ..meta.tables import render_sections

    if fmt == "json":
        echo_json(result.to_dict())
        return
    notes = [f"{label}: {signature}" for label, signature in result.signatures.items()]
    sections = sentence_sections(result, digits) if result.level == "sentence" else system_sections(result, digits)
    sections[-1].table.notes = notes
    click.echo(render_sections(sections, fmt))


def system_sections(result: Any, digits: int) -> list:
    """Ranking with scores, correlations, paired tests, windows."""
    from ..meta.tables import (
        Section,
        comparison_table,
        correlation_table,
        ranking_table,
        ranking_title,
        window_table,
    )

    ranking = result.ranking
    sections = [Section(ranking_title(ranking), ranking_table(ranking, digits + 1, result.scores, result.scales,
                                                              max(digits - 1, 0)))]
    human = "Expected Wins" if ranking.method == "ew" else "TrueSkill"
    over = f"{len(result.systems)} systems (subset {result.subset})"
    sections.append(Section(f"System-level correlations with {human} over {over}",
                            correlation_table(result.correlations, digits)))
    if result.comparisons:
        sections.append(Section("Paired tests: does metric A agree with the humans better than metric B? "
                                "(one-sided p-values)", comparison_table(result.comparisons, digits)))
    if result.windows:
        sections.append(Section(f"Windows of {result.windows[0].window} systems adjacent in the human ranking",
                                window_table(result.windows, digits)))
    return sections


def sentence_sections(result: Any, digits: int) -> list:
    from ..meta.tables import Section, sentence_table

    title = (f"Sentence-level agreement with the pairwise judgments of {result.judgments} over "
             f"{len(result.systems)} systems (subset {result.subset})")
    return [Section(title, sentence_table(result.sentence, digits))]
