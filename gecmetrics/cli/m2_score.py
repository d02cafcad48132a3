"""``gecmetric m2 score``: MaxMatch (M2) scores of tokenized system outputs against gold M2."""
from __future__ import annotations

import click

from ..corpus import read_lines
from ..m2.format import read_m2
from ..m2.maxmatch import M2Result, M2Scorer, precision_recall_f
from ..report import round_half_up
from ..significance import resamplers_for
from .m2 import m2
from .options import GreedyCommand, GreedyOption
from .significance import run_paired_tests, significance_options


def _edits_text(edits) -> str:
    return repr([e.as_tuple() for e in edits])


def _gold_text(edits) -> str:
    return repr([(g.start, g.end, g.original, list(g.corrections)) for g in edits])


def _verbose_lines(result: M2Result, digits: int) -> list[str]:
    """Per sentence: source, hypothesis, chosen annotator, its edits and the running P/R/F."""
    lines = []
    total = [0, 0, 0]
    for index, detail in enumerate(result.details, start=1):
        slot = detail.chosen
        system, gold, correct = detail.system_edits[slot], detail.gold_edits[slot], detail.correct_edits[slot]
        total = [total[0] + len(correct), total[1] + len(system), total[2] + len(gold)]
        p, r, f = precision_recall_f(float(total[0]), float(total[1]), float(total[2]), result.beta)
        lines += [
            f"SENTENCE      : {index}",
            f"SOURCE        : {detail.source}",
            f"HYPOTHESIS    : {detail.hypothesis}",
            f"ANNOTATOR     : {detail.annotators[slot]} (of {', '.join(map(str, detail.annotators))})",
            f"SYSTEM EDITS  : {_edits_text(system)}",
            f"GOLD EDITS    : {_gold_text(gold)}",
            f"CORRECT EDITS : {_edits_text(correct)}",
            f"# correct     : {total[0]}",
            f"# proposed    : {total[1]}",
            f"# gold        : {total[2]}",
            f"precision     : {round_half_up(p, digits)}",
            f"recall        : {round_half_up(r, digits)}",
            f"f_{result.beta:g}         : {round_half_up(f, digits)}",
            "-------------------------------------------",
        ]
    return lines


@m2.command("score", cls=GreedyCommand)
@click.option("-s", "--gold", "gold_path", required=True, type=click.Path(dir_okay=False, allow_dash=True),
              help="Gold M2 file (source sentences and annotators' edits).")
@click.option("-o", "--hypothesis", "hypotheses", cls=GreedyOption, required=True,
              type=click.Path(dir_okay=False, allow_dash=True),
              help="Tokenized system output(s), one line per M2 block: -o A.txt B.txt.")
@click.option("-b", "--beta", type=click.FloatRange(min=0), default=0.5, show_default=True, help="Beta of the F-score (>= 0).")
@click.option("--max-unchanged-words", type=click.IntRange(min=0), default=2, show_default=True,
              help="Most unchanged tokens one system edit may hold.")
@click.option("--ignore-whitespace-casing", is_flag=True,
              help="Drop system edits that only change spaces or letter case.")
@click.option("-v", "--verbose", is_flag=True,
              help="Per sentence: source, hypothesis, chosen annotator, edits, running P/R/F.")
@click.option("--sentence", is_flag=True, help="Per-sentence P/R/F (with the annotator chosen for the corpus).")
@click.option("-d", "--digits", type=click.IntRange(min=0), default=4, show_default=True,
              help="Decimals (rounded half up).")
@significance_options()
def score(gold_path: str, hypotheses: tuple[str, ...], beta: float,
          max_unchanged_words: int, ignore_whitespace_casing: bool, verbose: bool, sentence: bool,
          digits: int, paired_bs: int | None, paired_ar: int | None, seed: int) -> None:
    """MaxMatch (M2) precision, recall and F-beta of system outputs, as the official NUS
    m2scorer computes them (fractions, not x100)."""
    blocks = read_m2(gold_path)
    scorer = M2Scorer(beta=beta, max_unchanged_words=max_unchanged_words,
                      ignore_whitespace_casing=ignore_whitespace_casing, keep_details=verbose)
    paths = list(hypotheses)
    loaded = []
    for path in paths:
        lines = read_lines(path)
        name = path if path != "-" else "<stdin>"
        loaded.append((path, scorer.score(blocks, lines, name=name)))
    if paired_bs or paired_ar:
        from ..significance import maxmatch_candidates
        run_paired_tests(resamplers_for([scorer], 1), paths, maxmatch_candidates([r for _, r in loaded]), paired_bs,
                         paired_ar, seed, digits, conflicts={"--sentence": sentence, "-v": verbose}, scale=1)
        return
    if sentence:
        click.echo(f"system\tsentence\tprecision\trecall\tf{beta:g}")
        for path, result in loaded:
            for index, (p, r, f) in enumerate(result.sentence_scores(), start=1):
                click.echo(f"{path}\t{index}\t{round_half_up(p, digits)}\t{round_half_up(r, digits)}\t"
                           f"{round_half_up(f, digits)}")
        return
    if verbose:
        for path, result in loaded:
            click.echo(f"== {path}")
            for line in _verbose_lines(result, digits):
                click.echo(line)
            click.echo(f"CORRECT EDITS  : {result.correct}")
            click.echo(f"PROPOSED EDITS : {result.proposed}")
            click.echo(f"GOLD EDITS     : {result.gold}")
            click.echo(f"SIGNATURE      : {result.signature}")
    click.echo(f"system\tprecision\trecall\tf{beta:g}")
    for path, result in loaded:
        click.echo(f"{path}\t{round_half_up(result.precision, digits)}\t{round_half_up(result.recall, digits)}\t"
                   f"{round_half_up(result.f, digits)}")
