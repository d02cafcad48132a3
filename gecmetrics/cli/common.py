"""Options and input handling shared by the commands."""
from __future__ import annotations

import sys
import time
from typing import Any, Callable, Iterable, Iterator, Sequence, TextIO

import click

from ..io.corpus import Corpus
from ..errors import InputError
from ..core.table import MAX_DIGITS, dumps, percent
from ..run.engine import DEFAULT_CHUNK_LINES, check_jobs, check_metrics, score_chunks
from ..run.reading import CorpusChunks, parallel_chunk_lines
from ..core.units import UNITS, TextChecks
from .options import GreedyOption

DIGITS_HELP = "Decimals of printed scores (rounded half up)."


def digits_option(default: int, help: str = DIGITS_HELP) -> Callable:
    """``-d/--digits``, capped at :data:`MAX_DIGITS` in every command."""
    return click.option("-d", "--digits", type=click.IntRange(0, MAX_DIGITS), default=default, show_default=True,
                        help=help)


def corpus_options(hypothesis_flags: tuple[str, ...] = ("-o", "--hypothesis")) -> Callable:
    """-s, -r, -o/-c: the source, reference and hypothesis files."""
    def decorate(func: Callable) -> Callable:
        func = click.option(*hypothesis_flags, "hypotheses", cls=GreedyOption, required=True,
                            help="Hypothesis (system output) files, one or more; '-' reads standard input.")(func)
        func = click.option("-r", "--reference", "references", cls=GreedyOption, required=True,
                            help="Reference files, one or more (one per annotator).")(func)
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


def output_options(func: Callable) -> Callable:
    func = click.option("--signature", "show_signature", is_flag=True,
                        help="Print the signature (everything that determines the number) on stderr.")(func)
    func = click.option("--json", "as_json", is_flag=True, help="Print JSON: scores, statistics, settings, signature.")(func)
    func = click.option("-v", "--verbose", is_flag=True, help="Print per-order tables.")(func)
    func = digits_option(2, "Decimals of printed scores (x100, rounded half up).")(func)
    return func


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
                             f"results do not depend on it)  [default: {DEFAULT_CHUNK_LINES}]")(func)


def scale_options(func: Callable) -> Callable:
    """``-p/--jobs``, ``--chunk-lines`` and ``--dask``: worker processes, sentences counted
    together, and a Dask cluster instead of local processes."""
    func = click.option("--dask", "dask_address", metavar="ADDRESS",
                        help="Count the chunks on a Dask cluster: a scheduler address (tcp://host:8786), or "
                             "'local' for a local cluster of -p workers (needs gecmetrics[dask]; files must be "
                             "readable by the workers).")(func)
    return local_scale_options(func)


def local_scale_options(func: Callable) -> Callable:
    """``-p/--jobs`` and ``--chunk-lines`` (for commands whose input a Dask cluster cannot read
    chunk by chunk from files)."""
    return jobs_option(chunk_lines_option(func))


def read_chunks(source: str | None, references: Sequence[str], hypotheses: Sequence[str], metrics: Sequence[Any],
                gold: str | None = None, chunk_lines: int | None = None,
                jobs: int = 1, hypothesis_m2: Sequence[str] = ()) -> tuple[Iterator[Corpus], TextChecks]:
    """The files as chunks of sentences (at least two per worker with ``jobs``), and the
    whitespace/order checks they feed (print :func:`echo_warnings` once they are consumed);
    ``hypothesis_m2``: the hypotheses' M2 files, one per hypothesis file."""
    checks = text_checks(metrics)
    chunk_lines = parallel_chunk_lines([source, *references, *hypotheses], gold, check_jobs(jobs), chunk_lines)
    reader = CorpusChunks(source, references, hypotheses, gold, chunk_lines, hypothesis_m2)
    shown = shown_texts(source, references, hypotheses)

    def chunks() -> Iterator[Corpus]:
        for chunk in reader:
            texts = ([chunk.sources] if source is not None else []) + chunk.references
            checks.observe(list(zip(shown, texts + [chunk.hypotheses[p] for p in hypotheses])))
            yield chunk
    return chunks(), checks


def text_checks(metrics: Sequence[Any]) -> TextChecks:
    """The whitespace and order checks of the metrics' text units (fed chunk by chunk)."""
    return TextChecks([(*unit, m.settings.n) for m in metrics if (unit := m.text_unit()) is not None])


def shown_texts(source: str | None, references: Sequence[str], hypotheses: Sequence[str]) -> list[str]:
    """The names of the text files in warnings: source, references, hypotheses."""
    shown = [source] if source is not None else []
    return shown + list(references) + [path if path != "-" else "<stdin>" for path in hypotheses]


def scored_files(metrics: Sequence[Any], source: str | None, references: Sequence[str], hypotheses: Sequence[str],
                 gold: str | None = None, *, jobs: int = 1, chunk_lines: int | None = None,
                 dask_address: str | None = None, progress: Any = None, hypothesis_m2: Sequence[str] = ()) -> Any:
    """Every metric's statistics of every hypothesis file, counted chunk by chunk: here (in
    ``jobs`` processes) or on a Dask cluster; then the input warnings."""
    chunk_lines = parallel_chunk_lines([source, *references, *hypotheses], gold, check_jobs(jobs), chunk_lines)
    if dask_address is None and check_jobs(jobs) > 1:
        scored, checks = _scored_by_workers(metrics, source, references, hypotheses, gold, jobs, chunk_lines,
                                            progress, hypothesis_m2)
        if scored is not None:
            echo_warnings(checks)
            return scored
    chunks, checks = read_chunks(source, references, hypotheses, metrics, gold, chunk_lines,
                                 hypothesis_m2=hypothesis_m2)
    if dask_address is None:
        scored = score_chunks(metrics, chunks, hypotheses, progress, jobs, references=len(references))
    else:
        from ..run.dask import connect, score_files_on_dask

        with connect(dask_address, jobs) as client:
            scored = score_files_on_dask(metrics, source, references, hypotheses, gold, chunk_lines, client, chunks,
                                         hypothesis_m2)
    echo_warnings(checks)
    return scored


def _scored_by_workers(metrics: Sequence[Any], source: str | None, references: Sequence[str],
                       hypotheses: Sequence[str], gold: str | None, jobs: int, chunk_lines: int | None,
                       progress: Any, hypothesis_m2: Sequence[str]) -> tuple[Any, TextChecks]:
    """Every chunk read by the worker that counts it (the main process only indexes the files:
    it is no longer the bottleneck); None when the files cannot be split so or hold bad input,
    which the serial reader then reports exactly as always."""
    from ..run.file_chunks import index_file_chunks, score_files_in_pool

    checks = text_checks(metrics)
    chunks = index_file_chunks(source, references, hypotheses, gold, chunk_lines, hypothesis_m2)
    if chunks is None:
        return None, checks
    scored = score_files_in_pool(check_metrics(metrics), chunks, list(hypotheses), check_jobs(jobs), checks,
                                 shown_texts(source, references, hypotheses), progress)
    return scored, checks


def echo_warnings(checks: TextChecks) -> None:
    for line in checks.warnings():
        click.echo(line, err=True)


def check_order_option(order: int) -> None:
    if order < 1:
        raise InputError(f"-n must be >= 1, got {order}")


def output_format(flags: dict[str, bool], message: str) -> str:
    """The one output format asked for by flags like {"tsv": True, "json": False} ("text"
    when none); several is the error ``message``."""
    given = [fmt for fmt, on in flags.items() if on]
    if len(given) > 1:
        raise InputError(message)
    return given[0] if given else "text"


PROGRESS_DELAY_SECONDS = 1.0


class StderrProgress:
    """A progress line on stderr (lines done, lines per second), shown only once the work has
    taken more than a second and only when stderr is a terminal: never in logs, pipes or
    captured output."""

    def __init__(self, command: str, stream: TextIO | None = None, delay: float = PROGRESS_DELAY_SECONDS) -> None:
        self.command = command
        self.stream = stream if stream is not None else sys.stderr
        self.start = time.monotonic()
        self.delay = delay
        self.enabled = bool(getattr(self.stream, "isatty", lambda: False)())
        self.shown = False

    def __call__(self, done: int, total: int, what: str) -> None:
        if not self.enabled:
            return
        if what == "done":
            if self.shown:
                self.stream.write("\r\x1b[K")
                self.stream.flush()
            return
        elapsed = time.monotonic() - self.start
        if elapsed < self.delay:
            return
        rate = f" ({done / elapsed:,.0f} lines/s)" if elapsed > 0 else ""
        count = f"{done:,}/{total:,}" if total else f"{done:,}"
        self.stream.write(f"\rgecmetric {self.command}: {count} lines{rate} {what}".rstrip() + "\x1b[K")
        self.stream.flush()
        self.shown = True


def progress_unless(as_json: bool, command: str) -> StderrProgress | None:
    """The progress line of a command, except when it prints JSON."""
    return None if as_json else StderrProgress(command)


def check_streaming(dask_address: str | None) -> None:
    """Sentence scores stream from here, chunk by chunk, in order: not from a cluster."""
    if dask_address is not None:
        raise InputError("--dask counts corpus scores; sentence scores stream from this process (drop --dask)")


def echo_sentence_chunks(metric: Any, chunks: Iterable, hypotheses: Sequence[str], as_json: bool,
                         print_chunk: Callable[[Corpus, list, list], None]) -> None:
    """Sentence scores of one metric chunk by chunk as they are counted: ``print_chunk(chunk,
    statistics per hypothesis, sentence scores per hypothesis)`` prints them; with ``as_json``
    they are gathered and printed as one JSON document at the end."""
    gathered: dict[str, list] = {path: [] for path in hypotheses}
    for chunk, statistics, _ in chunks:
        stats = [statistics[path][0] for path in hypotheses]
        scores = [metric.sentence_from_statistics(s) for s in stats]
        if as_json:
            for path, s in zip(hypotheses, scores):
                gathered[path].append(s)
        else:
            print_chunk(chunk, stats, scores)
    if as_json:
        echo_json([{"hypothesis": path, **type(parts[0]).joined(parts).to_dict(scale=100)}
                   for path, parts in gathered.items()])
