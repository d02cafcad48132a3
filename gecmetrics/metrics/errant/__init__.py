"""ERRANT 3.0.2's English annotator, reimplemented: edits and types from plain-text corrections.

>>> from gecmetrics.metrics.errant import Annotator
>>> annotator = Annotator(model="en_core_web_sm")
>>> blocks = annotator.annotate(sources, [hypotheses])          # errant_parallel
>>> gold = annotator.reannotate(read_m2("gold.m2"), mode="auto") # errant_m2 -auto

The blocks are :class:`gecmetrics.io.m2.Block` objects: write them with
:func:`gecmetrics.io.m2.write_m2`, compare them with :class:`gecmetrics.metrics.m2.compare.ErrantCompare`.
spaCy is needed (``pip install 'gecmetrics[errant]'``) and imported only when a line is parsed.
"""
from __future__ import annotations

from ...core.lang.edits import AnnotatedEdit, noop_edit
from ...core.lang.en.annotator import Annotator
from ...core.lang.en.parse import ParsedSentence, SpacyModel, sentence_from_words
from ...core.lang.en.wordlist import load_word_list

__all__ = ["Annotator", "AnnotatedEdit", "ParsedSentence", "SpacyModel", "load_word_list", "noop_edit",
           "sentence_from_words"]
