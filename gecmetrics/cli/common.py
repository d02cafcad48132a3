"""Options and input handling shared by the commands."""
from __future__ import annotations

import sys
import time
from typing import Any, Callable, Iterable, Sequence, TextIO

import click

from ..corpus import Corpus, read_corpus
from ..errors import InputError
from ..report import MAX_DIGITS, dumps, percent
from ..units import UNITS, longest, order_warning, whitespace_warnings
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


def load_corpus(source: str, references: tuple[str, ...], hypotheses: tuple[str, ...], metrics: Sequence[Any],
                gold: str | None = None) -> Corpus:
    """Read and check the files; print whitespace and order warnings on stderr."""
    corpus = read_corpus(source, references, hypotheses, gold)
    warn_whitespace(corpus, source, references, sorted({m.text_unit() for m in metrics} - {None}))
    warn_order(corpus, metrics)
    return corpus


def warn_whitespace(corpus: Corpus, source: str, references: tuple[str, ...],
                    settings: list[tuple[str, bool]]) -> None:
    """SPEC 1 whitespace warnings on stderr, for each (unit, normalize_space) setting in turn."""
    named = [(source, corpus.sources)] + list(zip(references, corpus.references))
    named += [(name if name != "-" else "<stdin>", lines) for name, lines in corpus.hypotheses.items()]
    for unit, normalize_space in settings:
        for name, lines in named:
            for warning in whitespace_warnings(lines, name, unit, normalize_space):
                click.echo(warning, err=True)


def warn_order(corpus: Corpus, metrics: Sequence[Any]) -> None:
    """A warning on stderr for each n-gram metric whose order exceeds every sentence."""
    texts = [corpus.sources, *corpus.references, *corpus.hypotheses.values()]
    seen = set()
    for metric in metrics:
        unit = metric.text_unit()
        if unit is None or (unit, metric.settings.n) in seen:
            continue
        seen.add((unit, metric.settings.n))
        warning = order_warning(metric.settings.n, max(longest(lines, *unit) for lines in texts), unit[0])
        if warning:
            click.echo(warning, err=True)


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
        if done >= total:
            if self.shown:
                self.stream.write("\r\x1b[K")
                self.stream.flush()
            return
        elapsed = time.monotonic() - self.start
        if elapsed < self.delay:
            return
        rate = f" ({done / elapsed:,.0f} lines/s)" if elapsed > 0 else ""
        self.stream.write(f"\rgecmetric {self.command}: {done:,}/{total:,} lines{rate} {what}".rstrip() + "\x1b[K")
        self.stream.flush()
        self.shown = True


def progress_unless(as_json: bool, command: str) -> StderrProgress | None:
    """The progress line of a command, except when it prints JSON."""
    return None if as_json else StderrProgress(command)
