"""Options and input handling shared by the commands."""
from __future__ import annotations

from typing import Any, Callable, Iterable, Sequence

import click

from ..corpus import Corpus, read_corpus
from ..errors import InputError
from ..report import MAX_DIGITS, dumps, percent
from ..units import UNITS, whitespace_warnings
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


def load_corpus(source: str, references: tuple[str, ...], hypotheses: tuple[str, ...], unit: str,
                normalize_space: bool, gold: str | None = None) -> Corpus:
    """Read and check the files; print whitespace warnings (SPEC 1) on stderr."""
    corpus = read_corpus(source, references, hypotheses, gold)
    warn_whitespace(corpus, source, references, [(unit, normalize_space)])
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
