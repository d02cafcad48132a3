"""``gecmetric meta-eval --judgments FILE.xml``: the options of the raw-judgment mode and its
run (``cli/meta.py`` declares them on the command and hands over), and the ranking options
``gecmetric rank`` shares."""
from __future__ import annotations

from typing import Any, Callable

import click

from ..errors import InputError
from ..io.text import ascii_integer
from .common import progress_unless
from .given import given_flag
from .numbers import INT

JUDGMENT_DEFAULTS: dict[str, Any] = {
    "judgments_path": None, "ranking": "ew", "ew_procedure": "plain", "bootstrap": 0, "resample": "judgments",
    "seed": 0, "compare": False, "level": "system", "window": None, "src_ids": None, "tie_rule": "seeda",
    "pairwise": False}
"""Each option of the judgments mode and its value when not given."""
RESAMPLE_CHOICES = {"judgments": ("judgments",), "sentences": ("sentences",), "both": ("judgments", "sentences")}
SYSTEM_LEVEL_FLAGS = {
    "ranking": "the human ranking of the systems is system-level: the sentence level compares each judgment's ranks",
    "ew_procedure": "Expected Wins are system-level: the sentence level compares each judgment's ranks",
    "seed": "nothing is drawn at the sentence level",
    "resample": "it chooses what the system-level bootstrap resamples",
    "bootstrap": "bootstrap intervals are system-level",
    "metric_ranking": "it chooses what stands for a metric at the system level"}
"""The flags only the system level reads, and why each would change nothing at --level sentence
(--window, --compare, --bootstrap N > 0 and --metric-ranking ew|ts: JudgmentOptions' own refusal)."""


def ranking_options(func: Callable) -> Callable:
    """--judgments, --ranking, --ew-procedure, --seed (meta-eval and rank)."""
    func = click.option("--seed", type=INT, default=0, show_default=True,
                        help="Seed of the bootstrap resamples and TrueSkill runs.")(func)
    func = click.option("--ew-procedure", default="plain", show_default=True, metavar="plain|bootstrap-mean",
                        help="Expected Wins: plain (GJG15's EW.pl) or the mean over the bootstrap resamples "
                             "(GJG15's Makefile; SEEDA's published EW files). Not for --ranking ts.")(func)
    func = click.option("--ranking", default="ew", show_default=True, metavar="ew|ts",
                        help="Human scores: Expected Wins (ew) or TrueSkill (ts; pip install "
                             "'gecmetrics[trueskill]').")(func)
    return click.option("--judgments", "judgments_path", type=click.Path(dir_okay=False), metavar="FILE.xml",
                        help="Raw human judgments: an Appraise ranking XML file (GJG15's judgments.xml, "
                             "SEEDA's judgments_*.xml ...).")(func)


def judgment_options(func: Callable) -> Callable:
    """The options of ``meta-eval --judgments`` (declared on the command in cli/meta.py)."""
    options = [
        click.option("--bootstrap", type=INT, default=0, show_default=True, metavar="N",
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
        click.option("--pairwise", is_flag=True,
                     help="Sentence level: also the agreement per pair of human ranks (gec-metrics' pairwise "
                          "analysis; its heat map with --plot)."),
        click.option("--tie-rule", default="seeda", show_default=True, metavar="seeda|disagree|ignore",
                     help="Sentence level: what a metric tie counts as (seeda: as SEEDA's corr_sentence.py)."),
        click.option("--window", type=INT, default=None, metavar="K",
                     help="With --judgments: correlations over windows of K systems adjacent in the human ranking."),
        click.option("--src-ids", "src_ids", metavar="0|1|FILE",
                     help="How the judgments' src-id attributes map to the -o files' lines: the src-id of the "
                          "first line (GJG15: 0, SEEDA on the full corpus: 1), or a file of the src-id of every "
                          "line, each line a judged sentence (SEEDA's subset LINES). Needed by --level sentence "
                          "and --resample sentences."),
    ]
    for option in reversed(options):
        func = option(func)
    return ranking_options(func)


def given_judgment_options(values: dict[str, Any]) -> list[str]:
    """The flags of the judgment-mode options given (even at their defaults: --seed 0 without
    --judgments changed nothing) or whose values differ from their defaults."""
    return ["--" + name.replace("_", "-") for name, default in JUDGMENT_DEFAULTS.items()
            if given_flag(name) or values.get(name, default) != default]


def refuse_idle_ranking_options(ranking: str, ew_procedure: str, resamples: int) -> None:
    """--ew-procedure with TrueSkill, and --seed where nothing is drawn, would do nothing: errors."""
    if ranking == "ts" and given_flag("ew_procedure"):
        raise InputError("--ew-procedure is for Expected Wins (--ranking ew): TrueSkill has no procedure")
    if given_flag("seed") and ranking == "ew" and ew_procedure == "plain" and resamples == 0:
        raise InputError("--seed does nothing here: nothing is drawn without --bootstrap N, --ranking ts or "
                         "--ew-procedure bootstrap-mean")


def refuse_system_level_flags(values: dict[str, Any]) -> None:
    """At --level sentence, a flag of SYSTEM_LEVEL_FLAGS given (even at its default) would change
    nothing: an error naming it (the library refuses --bootstrap N and --metric-ranking ew|ts);
    so would --tie-rule at the system level (the library refuses another rule than seeda there)."""
    refused_later = {"bootstrap": values["bootstrap"] != 0, "metric_ranking": values["sentence_ranking"] is not None}
    for name, why in SYSTEM_LEVEL_FLAGS.items():
        if values["level"] == "sentence" and given_flag(name) and not refused_later.get(name):
            raise InputError(f"--{name.replace('_', '-')} does not go with --level sentence ({why})")
    if values["level"] == "system" and given_flag("tie_rule") and values["tie_rule"] == "seeda":  # (others: the
        raise InputError("--tie-rule is for the sentence level (--level sentence)")              # library's)


def parse_src_ids(text: str | None) -> Any:
    """--src-ids: an integer (the first line's src-id) or a file path."""
    if text is None:
        return None
    number = ascii_integer(text) if len(text.strip()) <= 20 else None
    return text if number is None else number


def run_with_judgments(ctx: click.Context, values: dict[str, Any], corpus: Any, metrics: Any, scores: Any) -> Any:
    """Meta-evaluate (``values``: the judgment options; ``corpus`` with named hypotheses, or
    ``scores`` read from --scores)."""
    from ..meta.evaluate import JudgmentOptions, meta_evaluate_judgments

    if values["resample"] not in RESAMPLE_CHOICES:
        raise InputError(f"unknown --resample {values['resample']!r}; choose one of: {', '.join(RESAMPLE_CHOICES)}")
    refuse_system_level_flags(values)
    if given_flag("resample") and values["resample"] == "judgments" and values["bootstrap"] == 0:  # (the others:
        raise InputError("--resample chooses what --bootstrap N resamples: give --bootstrap N with it")  # library's)
    refuse_idle_ranking_options(values["ranking"], values["ew_procedure"], values["bootstrap"])
    options = JudgmentOptions(ranking=values["ranking"], ew_procedure=values["ew_procedure"],
                              systems=values["systems"], bootstrap=values["bootstrap"],
                              resampling=RESAMPLE_CHOICES[values["resample"]], seed=values["seed"],
                              compare=values["compare"], level=values["level"], window=values["window"],
                              src_ids=parse_src_ids(values["src_ids"]), tie_rule=values["tie_rule"],
                              sentence_ranking=values["sentence_ranking"], pairwise=values["pairwise"])
    if values["plot_path"] is not None and options.level == "sentence" and not options.pairwise:
        raise InputError("--plot at the sentence level draws the pairwise heat map: add --pairwise")
    runs = progress_unless(False, "meta-eval", unit="TrueSkill runs") if options.ranking == "ts" else None
    if scores is not None:
        return meta_evaluate_judgments(values["judgments_path"], scores=scores, options=options, ranking_progress=runs)
    return meta_evaluate_judgments(values["judgments_path"], metrics, corpus, options=options, jobs=values["jobs"],
                                   progress=progress_unless(False, "meta-eval"), ranking_progress=runs)
