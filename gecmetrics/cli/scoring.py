"""What the scoring commands share: the run engine reads the corpus; one of four outputs (corpus scores, sentence
scores, their mean, a paired test) through the family's report (its tool's text) or compare's tables; signatures."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

import click

from ..errors import InputError
from ..run.files import CorpusFiles
from ..metrics.results import scores_signature
from .common import check_scale, check_verbose_format, echo_json_results, echo_report, progress_unless, score
from .given import refuse_idle_seed
from .shared import (SENTENCE_HELP, chosen_digits, chosen_format, digits_option, format_options, run_options,
                     scale_option, signature_option)
from .significance import check_paired_options, significance_options
from .context import in_run
from .sentences import echo_sentence_scores, streamed_sentences
from .scoring_output import (corpus_results, echo_means, echo_paired_tests, echo_score_table,
                             scores_signature_of)


@dataclass
class ScoringOptions:
    """The options every scoring command reads (from click's keyword arguments)."""

    sentence: bool = False
    mean: bool = False
    jobs: int = 1
    chunk_lines: int | None = None
    dask_address: str | None = None
    digits: int | None = None
    verbose: bool = False
    show_signature: bool = False
    paired_bs: int | None = None
    paired_ar: int | None = None
    seed: int | None = None
    scale: float = 100.0

    @classmethod
    def take(cls, options: dict[str, Any]) -> "ScoringOptions":
        """The scoring options out of a command's keyword arguments (the rest stays there)."""
        taken = cls(**{name: options.pop(name) for name in list(cls.__dataclass_fields__) if name in options})
        taken.digits = chosen_digits(taken.digits, taken.scale)
        check_verbose_format(taken.verbose)
        refuse_idle_seed(taken.seed is not None and not taken.paired)
        return taken

    @property
    def paired(self) -> bool:
        return bool(self.paired_bs or self.paired_ar)

    @property
    def format(self) -> str | None:
        """The format asked for (None: the command's own text)."""
        return chosen_format(None)  # type: ignore[arg-type]

    def run(self, metrics: Sequence[Any], files: CorpusFiles, command: str) -> Any:
        """The statistics of ``files`` under ``metrics``, with the progress display unless JSON."""
        return score(metrics, files, jobs=self.jobs, chunk_lines=self.chunk_lines, dask_address=self.dask_address,
                     progress=progress_unless(self.format == "json", command))


def scoring_options(add_seed: bool = True, mean: bool = True, verbose: str | None = None,
                    digits: Callable | None = None, paired: bool = True, helps: dict[str, str] | None = None) -> Callable:
    """--sentence, --mean (unless ``mean`` is false), -p/--chunk-lines/--dask/--quiet, the formats (``helps``: a
    flag's own help), --scale, -d (``digits``: another -d option), -v (``verbose``: its help), --signature and the
    paired tests (unless ``paired`` is false; ``add_seed``: with their own --seed)."""
    def decorate(func: Callable) -> Callable:
        func = signature_option(func)
        if paired:
            func = significance_options(add_seed)(func)
        if verbose is not None:
            func = click.option("-v", "--verbose", is_flag=True, help=verbose)(func)
        func = (digits or digits_option(None))(scale_option(format_options(helps=helps)(run_options(func))))
        if mean:
            func = click.option("--mean", is_flag=True, help="Mean of the sentence scores, not the corpus score.")(func)
        return click.option("--sentence", is_flag=True, help=SENTENCE_HELP)(func)
    return decorate


def run_scoring(name: str, metrics: Sequence[Any], files: CorpusFiles, report: Any, options: ScoringOptions) -> None:
    """Score ``files`` with ``metrics`` and print what ``options`` ask for, through ``report`` (the family's
    text: ``corpus_text``, ``mean_text``, ``sentence_lines``) or, without one or with a format, compare's tables."""
    o, metrics = options, [in_run(metric) for metric in metrics]
    if o.sentence and o.mean:
        raise InputError("choose one of --sentence and --mean")
    check_scale(metrics, o.scale)
    if o.paired:
        check_paired_options(o.paired_bs, o.paired_ar, {"--sentence": o.sentence, "--mean": o.mean})
    if o.verbose and (o.paired or o.mean):  # the original's tables are those of corpus and sentence scores
        raise InputError("prints the tables of corpus or sentence scores: not with --mean or a paired test", "-v")
    fmt, names = o.format, files.hypothesis_names
    own_format = getattr(report, "table_format", None)  # a family whose text is a table in this format
    if o.sentence and streamed_sentences(name, metrics, files, report, own_format, o):
        references = len(files.references)
    else:
        scored = o.run(metrics, files, name)
        references = scored.references
        if o.paired:
            return echo_paired_tests(metrics, scored, names, o)
        if o.sentence:
            echo_sentence_scores(scored, o.scale, o.digits, fmt)
        elif o.mean:
            echo_means(metrics, scored, names, report, o)
        elif report is not None and (fmt is None or (own_format and fmt != "json")):
            results = corpus_results(metrics, scored, names, o.jobs)
            echo_report(report.corpus_text(metrics, names, results, o.digits, o.verbose), fmt, own_format,
                        [scores_signature_of(metric, references, report) for metric in metrics])
        elif fmt == "json":
            echo_json_results(((n, m, r) for n, per in zip(names, corpus_results(metrics, scored, names, o.jobs))
                               for m, r in zip(metrics, per)), o.scale, level=getattr(report, "category_level", None))
        else:
            echo_score_table(scored, o)
    if o.show_signature or o.verbose:  # of the scores printed (sentence scores, their mean), as --json says
        click.echo("\n".join(str(scores_signature(scores_signature_of(m, references, report), o.sentence, o.mean))
                              for m in metrics), err=True)
