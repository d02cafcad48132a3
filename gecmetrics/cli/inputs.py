"""The input files of the scoring commands, by the kinds a metric reads (a module that registers
no command): ``-s SRC -r REF... -o HYP...`` for text references, ``-s SRC -o HYP...`` for
reference-free metrics, ``-s GOLD.m2 -o HYP...`` for gold M2 references and ``-hyp HYP.m2...
-ref GOLD.m2`` for hypothesis edits."""
from __future__ import annotations

from typing import Callable

import click

from ..kinds import M2, NONE, TEXT
from .options import GreedyOption

FILE = click.Path(dir_okay=False, allow_dash=True)


def corpus_options(hypothesis_flags: tuple[str, ...] = ("-o", "--hypothesis"), references_required: bool = True,
                   references: bool = True) -> Callable:
    """-s, -r, -o/-c: the source, reference and hypothesis files (``references_required=False``:
    -r may be left out, for reference-free metrics; ``references=False``: no -r at all)."""
    def decorate(func: Callable) -> Callable:
        func = click.option(*hypothesis_flags, "hypotheses", cls=GreedyOption, required=True,
                            help="Hypothesis (system output) files, one or more; '-' reads standard input.")(func)
        if references:
            func = click.option("-r", "--reference", "references", cls=GreedyOption, required=references_required,
                                help="Reference files, one or more (one per annotator)"
                                     + ("." if references_required else "; not needed by reference-free metrics "
                                                                        "(some, impara, scribendi, llm-s, llm-e)."))(func)
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
    func = click.option("-ref", "gold_path", required=True, type=FILE, metavar="FILE",
                        help="Reference M2 file, one or more annotators.")(func)
    return click.option("-hyp", "hypotheses", cls=GreedyOption, required=True, type=FILE,
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


def kind_of(metric_class: type, name: str) -> str:
    """A metric class's ``reference_kind`` or ``hypothesis_kind`` (text where it depends on the settings)."""
    value = getattr(metric_class, name, TEXT)
    return value if isinstance(value, str) else TEXT
