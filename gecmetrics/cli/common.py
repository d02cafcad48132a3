"""Options and input handling shared by the commands."""
from __future__ import annotations

from typing import Any, Callable, Iterable, Iterator, Sequence

import click

from ..errors import InputError
from ..core.table import MAX_DIGITS, dumps, percent
from ..run.engine import DEFAULT_CHUNK_LINES, score_files, scored_chunks
from ..run.executors import make_executor
from ..run.files import CorpusFiles
from ..core.units import UNITS
from .context import run_context
from .options import GreedyOption
from .progress import StderrProgress, progress_unless, quiet_option  # noqa: F401 (commands take them here)

DIGITS_HELP = "Decimals of printed scores (rounded half up)."


def digits_option(default: int, help: str = DIGITS_HELP) -> Callable:
    """``-d/--digits``, capped at :data:`MAX_DIGITS` in every command."""
    return click.option("-d", "--digits", type=click.IntRange(0, MAX_DIGITS), default=default, show_default=True,
                        help=help)


def corpus_options(hypothesis_flags: tuple[str, ...] = ("-o", "--hypothesis"), references_required: bool = True
                   ) -> Callable:
    """-s, -r, -o/-c: the source, reference and hypothesis files (``references_required=False``:
    -r may be left out, for reference-free metrics; see :func:`check_references`)."""
    def decorate(func: Callable) -> Callable:
        func = click.option(*hypothesis_flags, "hypotheses", cls=GreedyOption, required=True,
                            help="Hypothesis (system output) files, one or more; '-' reads standard input.")(func)
        func = click.option("-r", "--reference", "references", cls=GreedyOption, required=references_required,
                            help="Reference files, one or more (one per annotator)"
                                 + ("." if references_required else "; not needed by reference-free metrics "
                                                                    "(some, impara, scribendi, llm-s, llm-e)."))(func)
        func = click.option("-s", "--source", required=True, metavar="FILE",
                            help="The source (uncorrected) sentences, one per line, tokenized.")(func)
        return func
    return decorate


def unit_options(func: Callable) -> Callable:
    func = click.option("--normalize-space", is_flag=True,
                        help="In char mode, collapse runs of whitespace and strip the ends first "
                             "(off by default: the original tools count every character).")(func)
    func = click.option("-t", "--unit", type=click.Choice(UNITS), default="word", show_default=True,
                        help="Units of n-grams: words (split on whitespace) or characters of the raw line.")(func)
    func = click.option("-n", "order", type=int, default=4, show_default=True,
                        help="Maximum n-gram order.")(func)
    return func


def output_options(func: Callable | None = None, *, digits: Callable | None = None,
                   verbose: str = "Print per-order tables.") -> Callable:
    """-d (``digits``: another -d option), -v (``verbose``: its help), --json, --signature."""
    def decorate(func: Callable) -> Callable:
        func = click.option("--signature", "show_signature", is_flag=True,
                            help="Print the signature (everything that determines the number) on stderr.")(func)
        func = click.option("--json", "as_json", is_flag=True,
                            help="Print JSON: scores, statistics, settings, signature.")(func)
        func = click.option("-v", "--verbose", is_flag=True, help=verbose)(func)
        return (digits or digits_option(2, "Decimals of printed scores (x100, rounded half up)."))(func)
    return decorate(func) if func is not None else decorate


def echo_score_rows(rows: Iterable[tuple[str, Sequence[float]]], digits: int,
                    header: list[str] | None = None) -> None:
    """``path<TAB>score...`` lines (scores x100, rounded half up), after an optional header."""
    if header is not None:
        click.echo("\t".join(header))
    for path, scores in rows:
        click.echo("\t".join([path] + [percent(score, digits) for score in scores]))


def echo_json(value: Any) -> None:
    """A JSON document on stdout (the output layer's encoding)."""
    click.echo(dumps(value))


def jobs_option(func: Callable) -> Callable:
    """``-p/--jobs``: worker processes (0: one per core), the same option in every command."""
    return click.option("-p", "--jobs", "jobs", type=click.IntRange(0, 512), default=1, show_default=True,
                        help="Worker processes counting chunks in parallel (0: one per core); same numbers "
                             "for any value.")(func)


def chunk_lines_option(func: Callable) -> Callable:
    """``--chunk-lines``: sentences read and counted together."""
    return click.option("--chunk-lines", type=click.IntRange(min=1), default=None, metavar="N",
                        help=f"Sentences read and counted together (memory stays near one chunk's needs; "
                             f"results do not depend on it)  [default: {DEFAULT_CHUNK_LINES}, or the metric's own: "
                             f"250 for ERRANT, PT and model metrics, 50 for LLM judges]")(func)


def scale_options(func: Callable) -> Callable:
    """``-p/--jobs``, ``--chunk-lines``, ``--dask`` and ``--quiet``: worker processes, sentences
    counted together, a Dask cluster instead of local processes, and no progress bar."""
    func = quiet_option(func)
    func = click.option("--dask", "dask_address", metavar="ADDRESS",
                        help="Count the chunks on a Dask cluster: a scheduler address (tcp://host:8786), or "
                             "'local' for a local cluster of -p workers (needs gecmetrics[dask]; files must be "
                             "readable by the workers).")(func)
    return local_scale_options(func)


def fraction_scale_option(func: Callable) -> Callable:
    """``--scale 1|100`` of the commands whose original tools print P/R/F as fractions."""
    return click.option("--scale", type=click.Choice(["1", "100"]), default="1", show_default=True,
                        callback=lambda ctx, param, value: float(value),
                        help="Print P/R/F as fractions (1, as the original tool prints them) or x100 (as the "
                             "n-gram metrics); the header says which.")(func)


def local_scale_options(func: Callable) -> Callable:
    """``-p/--jobs`` and ``--chunk-lines`` (for commands whose input a Dask cluster cannot read
    chunk by chunk from files)."""
    return jobs_option(chunk_lines_option(func))


def check_references(metrics: Sequence[Any], references: Sequence[str]) -> None:
    """Without -r, every metric must be reference-free (or read the gold M2 of --m2)."""
    from ..kinds import TEXT

    if not references:
        needing = list(dict.fromkeys(m.display_name for m in metrics if m.reference_kind == TEXT))
        if needing:
            which = f"metric {needing[0]} needs" if len(needing) == 1 else f"metrics {', '.join(needing)} need"
            raise InputError(f"the {which} reference texts: -r REF... (only reference-free metrics run without)")


def corpus_files(source: str | None, references: Sequence[str] = (), hypotheses: Sequence[str] = (),
                 gold: str | None = None, hypothesis_m2: Sequence[str] = (), m2_hypotheses: bool = False) -> CorpusFiles:
    """The files of a command's run."""
    return CorpusFiles(source, tuple(references), tuple(hypotheses), gold, tuple(hypothesis_m2), m2_hypotheses)


def scored_files(metrics: Sequence[Any], source: str | None, references: Sequence[str], hypotheses: Sequence[str],
                 gold: str | None = None, *, jobs: int = 1, chunk_lines: int | None = None,
                 dask_address: str | None = None, progress: Any = None, hypothesis_m2: Sequence[str] = (),
                 m2_hypotheses: bool = False) -> Any:
    """Every metric's statistics of every hypothesis file, counted by the run engine (``jobs``
    worker processes or a Dask cluster), then the input warnings on stderr."""
    files = corpus_files(source, references, hypotheses, gold, hypothesis_m2, m2_hypotheses)
    scored = score_files(metrics, files, jobs=jobs, dask=dask_address, chunk_lines=chunk_lines, progress=progress,
                         cache=run_context())
    echo_warnings(scored.warnings())
    return scored


def streamed_chunks(metrics: Sequence[Any], files: CorpusFiles, *, jobs: int = 1, chunk_lines: int | None = None,
                    dask_address: str | None = None, progress: Any = None) -> Iterator[Any]:
    """The engine's statistics chunk by chunk (sentence output that streams), then the input
    warnings on stderr."""
    checks: list = []
    with make_executor(jobs, dask_address) as executor:
        yield from scored_chunks(metrics, files, executor=executor, chunk_lines=chunk_lines, progress=progress,
                                 checks=checks, cache=run_context())
    echo_warnings(checks[0].warnings() if checks else [])


def echo_warnings(lines: Iterable[str]) -> None:
    for line in lines:
        click.echo(line, err=True)


def warn_if_swapped(hyp: str, ref: str) -> None:
    """A warning when the hypothesis M2 has several annotators and the reference one: the files
    are most likely given the wrong way round (the numbers would be computed, silently wrong)."""
    from ..io.m2 import annotator_ids

    hyp_ids, ref_ids = annotator_ids(hyp), annotator_ids(ref)
    if len(hyp_ids) > 1 and len(ref_ids) == 1:
        echo_warnings([f"gecmetric: warning: -hyp {hyp} has {len(hyp_ids)} annotators and -ref {ref} one: are they swapped? "
                       "(-hyp is the system's M2, -ref the gold)"])


def check_order_option(order: int) -> None:
    if order < 1:
        raise InputError(f"-n must be >= 1, got {order}")


TABLE_FORMATS = ("tsv", "markdown", "latex", "json")


def format_options(func: Callable | None = None, *, json: bool = True) -> Callable:
    """--tsv, --markdown, --latex (and --json, unless the command has it already): how a table
    is printed (a text table without them); read them back with :func:`chosen_format`."""
    helps = {"tsv": "Print tab-separated values (a header, then a line per row).",
             "markdown": "Print a Markdown table and the signatures.",
             "latex": "Print a LaTeX tabular (booktabs rules), signatures as comments.",
             "json": "Print JSON: scores, counts, settings and signatures."}

    def decorate(func: Callable) -> Callable:
        for fmt in reversed(TABLE_FORMATS if json else TABLE_FORMATS[:-1]):
            func = click.option(f"--{fmt}", f"as_{fmt}", is_flag=True, help=helps[fmt])(func)
        return func
    return decorate(func) if func is not None else decorate


def chosen_format(options: dict[str, Any]) -> str:
    """The format :func:`format_options` asked for ("text" when none); several is an error."""
    return output_format({fmt: bool(options.get(f"as_{fmt}")) for fmt in TABLE_FORMATS},
                         "choose one of --tsv, --markdown, --latex and --json")


def output_format(flags: dict[str, bool], message: str) -> str:
    """The one output format asked for by flags like {"tsv": True, "json": False} ("text"
    when none); several is the error ``message``."""
    given = [fmt for fmt, on in flags.items() if on]
    if len(given) > 1:
        raise InputError(message)
    return given[0] if given else "text"


def echo_sentence_chunks(metric: Any, chunks: Iterable, hypotheses: Sequence[str], as_json: bool,
                         print_chunk: Callable[[Any, list, list], None]) -> None:
    """Sentence scores of one metric chunk by chunk as they are counted: ``print_chunk(chunk,
    statistics per hypothesis, sentence scores per hypothesis)`` prints them (``chunk``: a
    :class:`~gecmetrics.run.engine.ScoredChunk`); with ``as_json`` they are gathered and printed
    as one JSON document at the end."""
    gathered: dict[str, list] = {path: [] for path in hypotheses}
    for chunk in chunks:
        stats = [chunk.statistics[path][0] for path in hypotheses]
        scores = [metric.sentence_from_statistics(s) for s in stats]
        if as_json:
            for path, s in zip(hypotheses, scores):
                gathered[path].append(s)
        else:
            print_chunk(chunk, stats, scores)
    if as_json:
        echo_json([{"hypothesis": path, **type(parts[0]).joined(parts).to_dict(scale=100)}
                   for path, parts in gathered.items()])
