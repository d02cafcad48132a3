"""``gecmetric m2 score``: MaxMatch (M2) scores of tokenized system outputs against gold M2."""
from __future__ import annotations

from typing import Callable

import click

from ..io.corpus import Corpus

from ..io.text import read_lines
from ..errors import InputError
from ..io.m2 import read_m2
from ..metrics.m2.maxmatch import M2Result, M2Scorer, M2Settings, precision_recall_f
from ..run.engine import score_corpus
from ..core.table import Table, round_half_up
from ..stats.significance import resamplers_for
from .common import StderrProgress, corpus_files, digits_option, scale_options, scored_files, streamed_chunks
from .m2 import m2
from .options import GreedyCommand, GreedyOption
from .significance import check_paired_options, run_paired_tests, significance_options


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


def gold_m2_options(func: Callable) -> Callable:
    """``-s GOLD.m2`` and ``-o SYSTEM...``: the inputs of every command scored on a gold M2."""
    func = click.option("-o", "--hypothesis", "hypotheses", cls=GreedyOption, required=True,
                        type=click.Path(dir_okay=False, allow_dash=True),
                        help="Tokenized system output(s), one line per M2 block: -o A.txt B.txt.")(func)
    return click.option("-s", "--gold", "gold_path", required=True, type=click.Path(dir_okay=False, allow_dash=True),
                        help="Gold M2 file (source sentences and annotators' edits).")(func)


@m2.command("score", cls=GreedyCommand)
@gold_m2_options
@click.option("-b", "--beta", type=float, default=M2Settings.beta, show_default=True,
              help="Beta of the F-score (>= 0; inf gives recall).")
@click.option("--max-unchanged-words", type=click.IntRange(min=0), default=M2Settings.max_unchanged_words,
              show_default=True, help="Most unchanged tokens one system edit may hold.")
@click.option("--ignore-whitespace-casing", is_flag=True,
              help="Drop system edits that only change spaces or letter case.")
@click.option("-v", "--verbose", is_flag=True,
              help="Per sentence: source, hypothesis, chosen annotator, edits, running P/R/F.")
@click.option("--sentence", is_flag=True, help="Per-sentence P/R/F (with the annotator chosen for the corpus).")
@click.option("--sentence-average", is_flag=True,
              help="SentM2: the mean of the sentence P/R/F, each sentence against its best annotator.")
@digits_option(4, "Decimals (rounded half up).")
@scale_options
@significance_options()
def score(gold_path: str, hypotheses: tuple[str, ...], beta: float,
          max_unchanged_words: int, ignore_whitespace_casing: bool, verbose: bool, sentence: bool,
          sentence_average: bool, digits: int, jobs: int, chunk_lines: int | None, dask_address: str | None,
          paired_bs: int | None, paired_ar: int | None, seed: int) -> None:
    """MaxMatch (M2) precision, recall and F-beta of system outputs, as the official NUS
    m2scorer computes them (fractions, not x100)."""
    scorer = M2Scorer(beta=beta, max_unchanged_words=max_unchanged_words,
                      ignore_whitespace_casing=ignore_whitespace_casing, sentence_average=sentence_average)
    paths = list(hypotheses)
    if paired_bs or paired_ar:
        check_paired_options(paired_bs, paired_ar, {"--sentence": sentence, "-v": verbose})
    if verbose:  # the per-sentence edits are recomputed from the whole corpus
        corpus = read_gold_corpus(gold_path, hypotheses)
        scored = score_corpus([scorer], corpus, paths, progress=StderrProgress("m2 score"), jobs=jobs,
                              chunk_lines=chunk_lines)
        _print_verbose(scorer, corpus, [(path, scored.result(path, 0)) for path in paths], digits)
        return
    if sentence:
        chunks = streamed_chunks([scorer], corpus_files(None, (), paths, gold_path), jobs=jobs, chunk_lines=chunk_lines,
                                 dask_address=dask_address, progress=StderrProgress("m2 score"))
        _print_sentences(scorer, chunks, paths, beta, digits)
        return
    scored = scored_files([scorer], None, [], paths, gold_path, jobs=jobs, chunk_lines=chunk_lines,
                          dask_address=dask_address, progress=StderrProgress("m2 score"))
    if paired_bs or paired_ar:
        run_paired_tests(resamplers_for([scorer], 1), paths, [scored.statistics[p][0] for p in paths], paired_bs,
                         paired_ar, seed, digits, scale=1)
        return
    rows = [[path, *(round_half_up(x, digits) for x in (r.precision, r.recall, r.f))]
            for path, r in ((path, scored.result(path, 0)) for path in paths)]
    click.echo(Table(["system", "precision", "recall", f"f{beta:g}"], rows).render("tsv"))


def _print_sentences(scorer, chunks, paths, beta, digits) -> None:
    """Per sentence and system, P/R/F with the annotator the corpus choice keeps, chunk by chunk
    (the choice of a sentence depends only on the sentences before it)."""
    click.echo(f"system\tsentence\tprecision\trecall\tf{beta:g}")
    totals = {path: (0, 0, 0) for path in paths}
    for chunk in chunks:
        scores = {path: scorer.sentence_from_statistics(chunk.statistics[path][0], totals[path]) for path in paths}
        for d in range(chunk.size):
            for path in paths:
                s = scores[path]
                click.echo(f"{path}\t{chunk.offset + d + 1}\t" + "\t".join(
                    round_half_up(x, digits) for x in (s.precision[d], s.recall[d], s.scores[d])))
        totals = {path: tuple(int(x) for x in scores[path].totals) for path in paths}


def _print_verbose(scorer, corpus, loaded, digits) -> None:
    for path, result in loaded:
        result.details = scorer.details(corpus.gold, corpus.hypotheses[path], result.chosen)
        click.echo(f"== {path}")
        for line in _verbose_lines(result, digits):
            click.echo(line)
        click.echo(f"CORRECT EDITS  : {result.correct}")
        click.echo(f"PROPOSED EDITS : {result.proposed}")
        click.echo(f"GOLD EDITS     : {result.gold}")
        click.echo(f"SIGNATURE      : {result.signature}")
    rows = [[path, *(round_half_up(x, digits) for x in (r.precision, r.recall, r.f))] for path, r in loaded]
    click.echo(Table(["system", "precision", "recall", f"f{scorer.settings.beta:g}"], rows).render("tsv"))


def read_gold_corpus(gold_path: str, hypotheses: tuple[str, ...]) -> Corpus:
    """The gold M2 and the system outputs scored against it (one line per block)."""
    if list(hypotheses).count("-") + (gold_path == "-") > 1:
        raise InputError("standard input ('-') can be read only once")
    blocks = read_m2(gold_path)
    gold_name = gold_path if gold_path != "-" else "<stdin>"
    corpus = Corpus(None, [], {}, blocks, {"source": gold_name, "gold": gold_name})
    for path in hypotheses:
        lines = read_lines(path)
        name = path if path != "-" else "<stdin>"
        if len(lines) != len(blocks):
            raise InputError(f"has {len(lines)} lines but the M2 file {gold_name} has {len(blocks)} blocks", name)
        corpus.hypotheses[path] = lines
    return corpus
