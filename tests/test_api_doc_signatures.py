"""docs/api.md's signatures name every parameter of the functions it lists, and no other: a
keyword added to a function (executor, chunk_lines, progress, ...) and not to the page was found
by reading, several at a time."""
from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

import pytest

import gecmetrics
from gecmetrics.io.m2 import read_m2
from gecmetrics.metrics.errant import Annotator

PAGE = Path(__file__).resolve().parent.parent / "docs" / "api.md"

LISTED = {
    "score_corpus": gecmetrics.score_corpus,
    "score_files": gecmetrics.score_files,
    "compare": gecmetrics.compare,
    "meta_evaluate": gecmetrics.meta_evaluate,
    "read_judgments": gecmetrics.read_judgments,
    "expected_wins": gecmetrics.expected_wins,
    "trueskill_scores": gecmetrics.trueskill_scores,
    "meta_evaluate_judgments": gecmetrics.meta_evaluate_judgments,
    "read_m2": read_m2,
    "read_corpus": gecmetrics.read_corpus,
    "Annotator": Annotator,
}
SETTINGS = {"GLEU": gecmetrics.GLEU, "GREEN": gecmetrics.GREEN, "CLEME": gecmetrics.CLEME}
ALIASES = {"GLEU": {"fix_seed"}}  # accepted, and said so on the page beside the signature


def documented(name: str) -> set[str]:
    """The parameter names of the page's fullest ``name(...)`` in backticks (the page also
    calls some of them in passing: ``(read_m2(path))``), read as a Python call."""
    found = re.findall(rf"`(?:[\w.]+\.)?{name}\(([^`]*)\)`", PAGE.read_text(encoding="utf-8"))
    assert found, f"docs/api.md lists no `{name}(...)`"
    call = ast.parse(f"f({max(found, key=len).replace('*, ', '')})", mode="eval").body
    names = {k.arg if k.arg is not None else k.value.id for k in call.keywords}  # (**settings)
    for arg in call.args:
        if isinstance(arg, ast.Name):
            names.add(arg.id)
        elif isinstance(arg, ast.Call):  # score_files(metrics, CorpusFiles(...), ...)
            names.add(arg.func.id)
    return names


@pytest.mark.parametrize("name", sorted(LISTED))
def test_function_signatures(name):
    parameters = set(inspect.signature(LISTED[name]).parameters)
    if name == "score_files":  # written with its CorpusFiles(...) argument in the files' place
        parameters = parameters - {"files"} | {"CorpusFiles"}
    assert documented(name) == parameters


@pytest.mark.parametrize("name", sorted(SETTINGS))
def test_metric_settings(name):
    import dataclasses

    fields = {f.name for f in dataclasses.fields(SETTINGS[name].settings_class)}
    assert documented(name) == fields - ALIASES.get(name, set())
