"""``gecmetric pt-m2`` and ``gecmetric pt-errant``: BERTScore-weighted edit metrics (needs the
optional extra ``pt``: torch and transformers, imported only when the model is loaded)."""
from __future__ import annotations

from typing import Any, Callable, Sequence

import click
import numpy as np

from ..io.corpus import Corpus
from ..errors import InputError
from ..io.m2 import read_m2
from ..core.fscore import CANDIDATE
from ..run.engine import Scored, score_corpus
from ..core.table import Table, round_half_up
from ..stats.significance import resamplers_for
from . import main
from .common import digits_option, echo_json, progress_unless, scale_options, scored_files
from .m2_score import gold_m2_options
from .options import GreedyCommand, GreedyOption
from .significance import check_paired_options, run_paired_tests, significance_options


def pt_options(func: Callable) -> Callable:
    """The model and scoring options both commands share."""
    from ..metrics.pt.scorers import PTSettings

    options = [
        click.option("--model", default=PTSettings.model, show_default=True, metavar="NAME|FOLDER",
                     help="Hugging Face model name (read from its cache once downloaded) or a local model folder."),
        click.option("--layer", "num_layers", default=None, metavar="N",
                     help="Layer whose output BERTScore uses [default: the model's BERTScore default, 9 for "
                          "bert-base-uncased]."),
        click.option("--baseline", default=PTSettings.baseline, show_default=True, metavar="auto|none|NAME|FILE",
                     help="Rescaling baseline: the model's own (auto), none, a model name or a bert_score baseline "
                          "file."),
        click.option("--level", type=click.Choice(["sentence", "corpus"]), default=PTSettings.level,
                     show_default=True,
                     help="sentence: mean of sentence F (the authors' recommended PT-M2); corpus: F of summed "
                          "weights."),
        click.option("-b", "--beta", default=PTSettings.beta, show_default=True,
                     help="Beta of the F-score (>= 0; inf gives recall)."),
        click.option("--batch-size", default=PTSettings.batch_size, show_default=True, metavar="N",
                     help="Sentences encoded per batch (speed and memory only)."),
        click.option("--device", default=None, metavar="cpu|cuda|cuda:N",
                     help="Where the model runs [default: CUDA when torch sees one, else CPU]."),
        click.option("--threads", default=PTSettings.threads, show_default=True, metavar="N",
                     help="torch threads (0: torch's default). One thread gives the same bits whatever the "
                          "batches; more may be faster and change the 7th digit."),
        click.option("--sentence", is_flag=True,
                     help="Per-sentence P/R/F, with the annotator kept for each sentence."),
        click.option("--json", "as_json", is_flag=True, help="Print JSON: scores, weights, settings, signature."),
        click.option("--signature", "show_signature", is_flag=True,
                     help="Print the signature (model, revision, library versions ...) on stderr."),
        digits_option(4, "Decimals (rounded half up)."),
        significance_options(),
    ]
    for option in reversed(options):
        func = option(func)
    return func


@main.command("pt-m2", cls=GreedyCommand)
@gold_m2_options
@click.option("--max-unchanged-words", type=click.IntRange(min=0), default=2, show_default=True,
              help="Most unchanged tokens one system edit may hold (the M2 scorer's setting).")
@pt_options
@scale_options
def pt_m2(gold_path: str, hypotheses: tuple[str, ...], max_unchanged_words: int, **options: Any) -> None:
    """PT-M2 (Gong et al., 2022): the M2 scorer's edits, each weighted by how much it changes
    the BERTScore of the source against the annotator's reference (fractions, not x100).

    \b
    gecmetric pt-m2 -s official-2014.combined.m2 -o AMU CAMB CUUI
    gecmetric pt-m2 -s GOLD.m2 -o SYSTEM --model ./my-bert --layer 9 --baseline none
    """
    from ..metrics.pt.scorers import PTM2

    metric, paths = PTM2(**_settings(options), max_unchanged_words=max_unchanged_words), list(hypotheses)
    _check_paired(options)
    scored = scored_files([metric], None, [], paths, gold_path, jobs=options["jobs"],
                          chunk_lines=options["chunk_lines"], dask_address=options["dask_address"],
                          progress=progress_unless(options["as_json"], metric.name))
    _print(metric, scored, paths, options)


@main.command("pt-errant", cls=GreedyCommand)
@click.option("-hyp", "hypotheses", cls=GreedyOption, required=True,
              type=click.Path(dir_okay=False, allow_dash=True),
              help="Hypothesis M2 file(s) (errant_parallel -orig INPUT -cor SYSTEM).")
@click.option("-ref", "references", cls=GreedyOption, required=True,
              type=click.Path(dir_okay=False, allow_dash=True),
              help="Reference M2: one file with every coder (errant_parallel -orig INPUT -cor REF0 REF1), or "
                   "several, whose coders are then taken in file order.")
@pt_options
@scale_options
def pt_errant(hypotheses: tuple[str, ...], references: tuple[str, ...], **options: Any) -> None:
    """PT-ERRANT: ERRANT's edits (span-based correction) of hypothesis M2 files against a
    reference M2, each weighted by BERTScore as in PT-M2 (fractions, not x100).

    \b
    gecmetric pt-errant -hyp AMU.m2 CAMB.m2 -ref REF0_REF1.m2
    """
    from ..metrics.pt.scorers import PTErrant, merge_coders

    paths = [*hypotheses, *references]
    if paths.count("-") > 1:
        raise InputError("standard input ('-') can be read only once")
    metric, paths = PTErrant(**_settings(options)), list(hypotheses)
    _check_paired(options)
    progress = progress_unless(options["as_json"], metric.name)
    if len(references) == 1:  # read chunk by chunk by the engine
        paths = [_shown(path) for path in hypotheses]
        scored = scored_files([metric], None, (), hypotheses, references[0], jobs=options["jobs"],
                              chunk_lines=options["chunk_lines"], dask_address=options["dask_address"],
                              progress=progress, m2_hypotheses=True)
    else:  # the coders of several files merged in memory first
        reference = merge_coders([read_m2(path) for path in references], [_shown(path) for path in references])
        corpus = Corpus(None, [], {}, reference, {"gold": _shown(references[0])})
        for path in hypotheses:
            corpus.hypotheses[path] = _aligned(read_m2(path), corpus.sources, _shown(path), _shown(references[0]))
        scored = score_corpus([metric], corpus, paths, progress=progress, jobs=options["jobs"],
                              chunk_lines=options["chunk_lines"])
    _print(metric, scored, paths, options)


def _aligned(blocks: list, sources: list[str], name: str, reference: str) -> list:
    """Hypothesis M2 blocks of the reference's sentences, in order (else a one-line error)."""
    if len(blocks) != len(sources):
        raise InputError(f"has {len(blocks)} sentences but the reference M2 {reference} has {len(sources)}", name)
    for d, (block, source) in enumerate(zip(blocks, sources), start=1):
        if block.tokens != source.split():
            raise InputError(f"the source of sentence {d} differs from sentence {d} of the reference M2 {reference}",
                             name, block.line or None)
    return blocks


def _shown(path: str) -> str:
    return "<stdin>" if path == "-" else path


def _settings(options: dict[str, Any]) -> dict[str, Any]:
    return {key: options[key] for key in ("model", "num_layers", "baseline", "level", "beta", "batch_size", "device",
                                          "threads")}


def _check_paired(options: dict[str, Any]) -> None:
    """Paired-test option conflicts, reported before the model is loaded."""
    if options["paired_bs"] or options["paired_ar"]:
        check_paired_options(options["paired_bs"], options["paired_ar"], {"--sentence": options["sentence"]})


def _print(metric: Any, scored: Scored, paths: list[str], options: dict[str, Any]) -> None:
    """The scores of every hypothesis (or per sentence, or the paired tests), as asked."""
    digits, as_json = options["digits"], options["as_json"]
    statistics = [scored.statistics[path][0] for path in paths]
    if options["paired_bs"] or options["paired_ar"]:
        run_paired_tests(resamplers_for([metric], 1), paths, statistics, options["paired_bs"], options["paired_ar"],
                         options["seed"], digits, as_json, options["show_signature"],
                         {"--sentence": options["sentence"]}, scale=1)
        return
    if options["sentence"]:
        _print_sentences(metric, paths, statistics, digits, as_json)
    else:
        results = [scored.result(path, 0) for path in paths]
        if as_json:
            echo_json([{"hypothesis": path, **result.to_dict()} for path, result in zip(paths, results)])
        else:
            rows = [[path, *(round_half_up(x, digits) for x in (r.precision, r.recall, r.f))]
                    for path, r in zip(paths, results)]
            click.echo(Table(["system", "precision", "recall", f"f{metric.beta:g}"], rows).render("tsv"))
    if options["show_signature"]:
        click.echo(metric.signature, err=True)


def _print_sentences(metric: Any, paths: Sequence[str], statistics: Sequence[Any], digits: int,
                     as_json: bool) -> None:
    """One row per system and sentence: P, R, F and the annotator kept."""
    scores = [metric.sentence_from_statistics(stats) for stats in statistics]
    annotators = [stats[np.arange(len(stats)), s.chosen, CANDIDATE].astype(int) for stats, s in zip(statistics, scores)]
    if as_json:
        echo_json([{"hypothesis": path, "sentences": [
            {"precision": p, "recall": r, "f": f, "annotator": int(a)}
            for p, r, f, a in zip(s.precision.tolist(), s.recall.tolist(), s.scores.tolist(), chosen)]}
            for path, s, chosen in zip(paths, scores, annotators)])
        return
    rows = [[path, str(d), *(round_half_up(x, digits) for x in (p, r, f)), str(a)]
            for path, s, chosen in zip(paths, scores, annotators)
            for d, (p, r, f, a) in enumerate(zip(s.precision, s.recall, s.scores, chosen), start=1)]
    click.echo(Table(["system", "sentence", "precision", "recall", f"f{metric.beta:g}", "annotator"], rows)
               .render("tsv"))
