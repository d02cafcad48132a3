"""What the scoring commands share: the corpus read by the run engine, then one of four outputs
(corpus scores, the mean of the sentence scores, sentence scores streamed chunk by chunk, or a
paired test), each as text or JSON, with the signature on stderr. A command gives its metrics,
its files and its family's report (the text its original tool printed)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

import click

from ..core.aggregate import reducer_threads
from ..errors import InputError
from ..run.executors import check_jobs
from ..run.files import CorpusFiles
from .common import echo_json, echo_sentence_chunks, output_options, progress_unless, scale_options, scored_files, \
    streamed_chunks
from .context import in_run
from .significance import check_paired_options, run_paired_tests, significance_options


@dataclass
class ScoringOptions:
    """The options every scoring command reads (from click's keyword arguments)."""

    sentence: bool = False
    mean: bool = False
    jobs: int = 1
    chunk_lines: int | None = None
    dask_address: str | None = None
    digits: int = 2
    verbose: bool = False
    as_json: bool = False
    show_signature: bool = False
    paired_bs: int | None = None
    paired_ar: int | None = None
    seed: int | None = None
    scale: float | None = None  # --scale of the commands that print fractions (None: the metric's own)

    @classmethod
    def take(cls, options: dict[str, Any]) -> "ScoringOptions":
        """The scoring options out of a command's keyword arguments (the rest stays there)."""
        return cls(**{name: options.pop(name) for name in list(cls.__dataclass_fields__) if name in options})

    @property
    def paired(self) -> bool:
        return bool(self.paired_bs or self.paired_ar)


def scoring_options(add_seed: bool = True, mean: bool = True, **output: Any) -> Callable:
    """--sentence, --mean (unless ``mean`` is false), -p/--chunk-lines/--dask,
    -d/-v/--json/--signature (``output``: their variants, see :func:`output_options`) and the
    paired tests (``add_seed``: with their own --seed)."""
    def decorate(func: Callable) -> Callable:
        func = significance_options(add_seed)(output_options(**output)(scale_options(func)))
        if mean:
            func = click.option("--mean", is_flag=True,
                                help="Mean of the sentence scores instead of the corpus score.")(func)
        return click.option("--sentence", is_flag=True,
                            help="One line per sentence, a column per hypothesis file.")(func)
    return decorate


def run_scoring(name: str, metrics: Sequence[Any], files: CorpusFiles, report: Any, options: ScoringOptions) -> None:
    """Score ``files`` with ``metrics`` and print what ``options`` ask for, through ``report``
    (the family's text: ``corpus_text``, ``mean_text``, ``sentence_lines``)."""
    o, metrics = options, [in_run(metric) for metric in metrics]
    if o.sentence and o.mean:
        raise InputError("choose one of --sentence and --mean")
    if o.paired:
        check_paired_options(o.paired_bs, o.paired_ar, {"--sentence": o.sentence, "--mean": o.mean})
    names = files.hypothesis_names
    progress = progress_unless(o.as_json, name)
    if o.sentence:
        metric = metrics[0]
        chunks = streamed_chunks([metric], files, jobs=o.jobs, chunk_lines=o.chunk_lines,
                                 dask_address=o.dask_address, progress=progress)

        def print_chunk(chunk: Any, statistics: list, scores: list) -> None:
            for line in report.sentence_lines(metric, chunk, names, statistics, scores, o.digits, o.verbose):
                click.echo(line)
        echo_sentence_chunks(metric, chunks, names, o.as_json, print_chunk)
        references = len(files.references)
    else:
        scored = scored_files(metrics, files.source, files.references, files.hypotheses, files.gold, jobs=o.jobs,
                              chunk_lines=o.chunk_lines, dask_address=o.dask_address, progress=progress,
                              hypothesis_m2=files.hypothesis_m2, m2_hypotheses=files.m2_hypotheses)
        references = scored.references
        statistics = [scored.statistics[n] for n in names]
        if o.paired:
            from ..stats.significance import resamplers_for

            run_paired_tests(resamplers_for(metrics, references), names, [s[0] for s in statistics], o.paired_bs,
                             o.paired_ar, o.seed or 0, o.digits, o.as_json, o.show_signature or o.verbose,
                             scale=metrics[0].scale if o.scale is None else o.scale)
            return
        if o.mean:
            sentences = [[m.sentence_from_statistics(s) for m, s in zip(metrics, per_file)] for per_file in statistics]
            _print(o, lambda: [{"hypothesis": n, **s.mean_dict(scale=100)} for n, per in zip(names, sentences)
                               for s in per], lambda: report.mean_text(metrics, names, sentences, o.digits))
        else:
            with reducer_threads(check_jobs(o.jobs)):  # -p N also shares out a reduction that can use threads
                results = [[m.score(s) for m, s in zip(metrics, per_file)] for per_file in statistics]
            _print(o, lambda: [{"hypothesis": n, **r.to_dict(scale=100)} for n, per in zip(names, results)
                               for r in per], lambda: report.corpus_text(metrics, names, results, o.digits, o.verbose))
    if o.show_signature or o.verbose:
        for metric in metrics:
            click.echo(metric.signature(references), err=True)


def _print(options: ScoringOptions, as_json: Callable[[], Any], as_text: Callable[[], str]) -> None:
    if options.as_json:
        echo_json(as_json())
    else:
        click.echo(as_text())
