"""The input files of the scoring commands, by the kinds a metric reads (a module that registers
no command): ``-s SRC -r REF... -o HYP...`` for text references, ``-s SRC -o HYP...`` for
reference-free metrics, ``-s GOLD.m2 -o HYP...`` for gold M2 references and ``-hyp HYP.m2...
-ref GOLD.m2`` for hypothesis edits."""
from __future__ import annotations

import warnings
from typing import Any, Callable

import click

from ..kinds import M2, NONE
from .options import GreedyOption

FILE = click.Path(dir_okay=False, allow_dash=True)


class RegistryHelpOption(GreedyOption):
    """A :class:`GreedyOption` whose help names the registered metrics an input is for, by what
    they declare (:func:`~gecmetrics.metrics.registry.names_reading`): ``help`` is a template
    with ``{metrics}``, filled when the help is shown, so that running the command loads no
    metric class for it and the names stay true as metrics (and plugins) are added."""

    def __init__(self, *args: Any, reads: tuple[str, str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.template, self.reads = self.help, reads

    def get_help_record(self, ctx: click.Context) -> Any:
        from ..metrics.registry import names_reading
        from .process import one_line_warning

        with warnings.catch_warnings():  # (an installed plugin that cannot be loaded: one line)
            warnings.showwarning = one_line_warning
            self.help = self.template.format(metrics=", ".join(names_reading(*self.reads)))
        return super().get_help_record(ctx)


def hypothesis_m2_option(help_text: str) -> Callable:
    """``--hyp-m2 FILE.m2...``, the M2 files of the -o files; ``help_text`` names the metrics
    that read hypothesis edits as ``{metrics}``."""
    return click.option("--hyp-m2", "hypothesis_m2", cls=RegistryHelpOption, reads=("hypothesis_kind", M2),
                        metavar="FILE.m2...", help=help_text)


def corpus_options(hypothesis_flags: tuple[str, ...] = ("-o", "--hypothesis"), references_required: bool = True,
                   references: bool = True) -> Callable:
    """-s, -r, -o/-c: the source, reference and hypothesis files (``references_required=False``:
    -r may be left out, for reference-free metrics; ``references=False``: no -r at all)."""
    def decorate(func: Callable) -> Callable:
        func = click.option(*hypothesis_flags, "hypotheses", cls=GreedyOption, required=True,
                            help="Hypothesis (system output) files, one or more; '-' reads standard input.")(func)
        if references and references_required:
            func = click.option("-r", "--reference", "references", cls=GreedyOption, required=True,
                                help="Reference files, one or more (one per annotator).")(func)
        elif references:
            func = click.option("-r", "--reference", "references", cls=RegistryHelpOption,
                                reads=("reference_kind", NONE),
                                help="Reference files, one or more (one per annotator); not needed by reference-free "
                                     "metrics ({metrics}).")(func)
        return click.option("-s", "--source", required=True, metavar="FILE",
                            help="The source (uncorrected) sentences, one per line, tokenized.")(func)
    return decorate


def gold_m2_options(func: Callable | None = None, *, required: bool = True) -> Callable:
    """``-s GOLD.m2`` and ``-o SYSTEM...``: the inputs of every command scored on a gold M2
    (``required=False``: the command also takes them as positional arguments)."""
    def decorate(func: Callable) -> Callable:
        func = click.option("-o", "--hypothesis", "hypotheses", cls=GreedyOption, required=required, type=FILE,
                            help="Tokenized system output(s), one line per M2 block: -o A.txt B.txt.")(func)
        return click.option("-s", "--gold", "gold_path", required=required, type=FILE,
                            help="Gold M2 file (source sentences and annotators' edits).")(func)
    return decorate(func) if func is not None else decorate


def m2_hypothesis_options(func: Callable) -> Callable:
    """``-hyp HYP.m2...`` and ``-ref GOLD.m2``: hypothesis edits against reference edits."""
    func = click.option("-ref", "--ref", "gold_path", required=True, type=FILE, metavar="FILE",
                        help="Reference M2 file, one or more annotators.")(func)
    return click.option("-hyp", "--hyp", "hypotheses", cls=GreedyOption, required=True, type=FILE,
                        help="Hypothesis M2 file(s), one annotator each (e.g. errant_parallel output); the first "
                             "is the baseline of a paired test.")(func)


def inputs_for(reference_kind: str, hypothesis_kind: str) -> Callable:
    """The input options of a metric that reads ``reference_kind`` references (text, M2 or none)
    and ``hypothesis_kind`` hypotheses (text or M2)."""
    if reference_kind == M2:
        return m2_hypothesis_options if hypothesis_kind == M2 else gold_m2_options
    decorate = corpus_options(references=reference_kind != NONE)
    if hypothesis_kind == M2:
        return lambda func: decorate(click.option(
            "--hyp-m2", "hypothesis_m2", cls=GreedyOption, required=True, type=FILE, metavar="FILE.m2...",
            help="M2 files of the hypotheses, one per -o file in the same order.")(func))
    return decorate


