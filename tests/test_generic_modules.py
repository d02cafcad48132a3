"""Generic code asks a metric what it offers and never names one (issue 32, item 4).

The report, edit attribution, ``compare``, the engine, meta-evaluation and the other generic
modules decide what to do with a metric by its declared capabilities (``has_sentence_scores``,
``independent_sentences``, ``candidate_refusal``, ``marks_edits``, ``weighs_gold_edits``, the
input kinds ... on :class:`gecmetrics.metrics.base.Metric`) and take default metrics from the
registry's one list (:data:`gecmetrics.metrics.registry.DEFAULT_METRICS`). So a plugin metric
that declares a capability gets what the built-in ones get, and no generic module changes when
a metric is added, renamed or removed.

Which modules are generic: every module of the layers below and beside the metrics that are
not a metric's own: ``core/``, ``io/``, ``stats/``, ``run/``, ``meta/``, ``output/`` and
``cli/``, except

* the modules that are a metric's own front end (:data:`METRIC_COMMANDS`): a CLI command named
  after its metric, with the original tool's flags, and ``run/m2_files.py``'s one-call scoring of
  M2 files named after their metric (``cleme_files``, ``compare_m2_files`` ...), which default
  to that metric;
* ``cli/commands.py``'s command table (:data:`COMMAND_TABLE`): it maps command names, which are
  metric names for the metrics' own commands, to those modules (routing, no decision about a
  metric);
* the leaf modules (``kinds.py`` names the M2 *format*) and the package's ``__init__`` (the
  public API exports the metric classes by name), which are not a layer of generic code.

What counts as naming a metric, outside docstrings, comments and the options' ``help=`` texts
(prose may cite an example):

* an identifier (a name, an attribute, an imported name) that is a metric class's name (any
  subclass of ``Metric`` defined under ``gecmetrics/metrics/``);
* an import from a metric family (``gecmetrics.metrics.<family>``); generic code may import
  only the protocol modules of :data:`PROTOCOL_MODULES`;
* a string that is a registry name (``"m2"``), a metric list of registry names
  (``"gleu,green:beta=0.5/1/2"``) or holds a metric class's name as a word
  (``"GoToScorer|ref_id:0"``).

:data:`ALLOWED` lists the exceptions left, each with its reason; the lead shrinks it.
"""
from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

from tests._sources import syntax_tree

PACKAGE = Path(__file__).resolve().parent.parent / "gecmetrics"
GENERIC = ("core", "io", "stats", "run", "meta", "output", "cli")
METRIC_COMMANDS = {
    "cli/annotate.py",          # m2 annotate: ERRANT's errant_parallel / errant_m2
    "cli/cherrant.py", "cli/cherrant_options.py", "cli/cherrant_run.py",
    "cli/cleme.py",
    "cli/demo.py",              # demonstrates GLEU+ and GREEN and prints their own commands
    "cli/errant.py", "cli/errant_options.py",
    "cli/gleu.py", "cli/gotoscorer.py", "cli/green.py", "cli/llm.py", "cli/llm_run.py",
    "cli/m2.py", "cli/m2_score.py", "cli/pt.py",
    "run/m2_files.py",          # cleme_files, compare_m2_files ...: the originals' scripts as one call
}
COMMAND_TABLE = {"cli/commands.py"}
PROTOCOL_MODULES = {"base", "settings", "results", "registry", "capabilities"}
"""The modules of ``gecmetrics/metrics/`` that generic code may import: the protocol, the
results, the registry and the capabilities' data."""

ALLOWED = {
    # ERRANT the annotator and its tie-break rule, and BERTScore's token matching, are shared
    # machinery that core holds: the words name those tools there (a ChoiceRule's name, a
    # language's annotator kind, the word list's folder, a model loader's messages), not metrics.
    ("core/fscore.py", "string 'errant'"),
    ("core/running_f.py", "string 'errant'"),      # the ChoiceRule's name, as in core/fscore.py
    ("core/lang/en/wordlist.py", "string 'errant'"),
    ("core/models/loading.py", "string naming BERTScore"),
    # the regressor loader's message names the checkpoints it was made for (SOME's, IMPARA's)
    ("core/models/inference.py", "string naming IMPARA"),
    ("core/models/inference.py", "string naming SOME"),
    # The report's data format (version 1, read by the page's script) keeps its key "errant" for
    # the edit marks; a new key would change every report's JSON.
    ("output/report/data.py", "string 'errant'"),
}


@functools.cache
def _metric_classes() -> set[str]:
    """Names of the Metric subclasses defined under gecmetrics/metrics (found in the source,
    by their base classes' names, without importing any metric)."""
    bases: dict[str, set[str]] = {}
    for path in (PACKAGE / "metrics").rglob("*.py"):
        for node in ast.walk(syntax_tree(path)):
            if isinstance(node, ast.ClassDef):
                bases.setdefault(node.name, set()).update(
                    base.id if isinstance(base, ast.Name) else base.attr for base in node.bases
                    if isinstance(base, (ast.Name, ast.Attribute)))
    found = {"Metric"}
    while True:
        more = {name for name, parents in bases.items() if parents & found} - found
        if not more:
            return found - {"Metric"}
        found |= more


@functools.cache
def _metric_names() -> set[str]:
    """The registry's names, and the ``name`` every metric class declares."""
    from gecmetrics.metrics.registry import list_metrics

    names = {info.name for info in list_metrics()}
    for path in (PACKAGE / "metrics").rglob("*.py"):
        for node in ast.walk(syntax_tree(path)):
            if isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(item, ast.Assign) and [getattr(t, "id", None) for t in item.targets] == ["name"] \
                            and isinstance(item.value, ast.Constant) and isinstance(item.value.value, str):
                        names.add(item.value.value)
    return names - {""}


def generic_modules() -> list[Path]:
    """The generic modules (see the module docstring), as paths."""
    paths = []
    for top in GENERIC:
        for path in sorted((PACKAGE / top).rglob("*.py")):
            relative = path.relative_to(PACKAGE).as_posix()
            if relative not in METRIC_COMMANDS | COMMAND_TABLE:
                paths.append(path)
    return paths


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            found |= {id(item.value) for item in node.body if isinstance(item, ast.Expr)
                      and isinstance(item.value, ast.Constant) and isinstance(item.value.value, str)}
        if isinstance(node, (ast.Module, ast.ClassDef)):  # attribute docstrings: a string after an assignment
            for before, item in zip(node.body, node.body[1:]):
                if isinstance(before, (ast.Assign, ast.AnnAssign)) and isinstance(item, ast.Expr) \
                        and isinstance(item.value, ast.Constant) and isinstance(item.value.value, str):
                    found.add(id(item.value))
    return found


def _is_module(name: str) -> bool:
    path = PACKAGE.parent.joinpath(*name.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def _imported(path: Path, node: ast.ImportFrom | ast.Import) -> tuple[list[str], list[str]]:
    """The package modules an import statement imports (``from . import x``: module x), and the
    names it imports."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names], []
    package = path.relative_to(PACKAGE.parent).with_suffix("").parts
    package = package if path.name == "__init__.py" else package[:-1]
    base = list(package[:len(package) - node.level + 1]) if node.level else []
    module = ".".join(base + ([node.module] if node.module else []))
    names = [alias.name for alias in node.names]
    modules = [f"{module}.{name}" for name in names if _is_module(f"{module}.{name}")]
    return ([module] if _is_module(module) else []) + modules, names


def _family(module: str) -> str | None:
    """The metric family a module belongs to (``gecmetrics.metrics.m2.compare``: m2), if any."""
    parts = module.split(".")
    if parts[:2] == ["gecmetrics", "metrics"] and len(parts) > 2 and parts[2] not in PROTOCOL_MODULES \
            and (PACKAGE / "metrics" / parts[2]).is_dir():
        return parts[2]
    return None


def _names_a_metric_list(text: str, names: set[str]) -> bool:
    """A registry name, or a comma-separated list of ``NAME[:KEY=VALUE...]`` of registry names."""
    items = [item.strip() for item in text.split(",")]
    return text == text.strip() and all(items) and all(item.split(":")[0].strip() in names for item in items)


def _help_texts(tree: ast.AST) -> set[int]:
    """The ``help=`` texts of calls (click options' help: prose for the user, like a docstring)."""
    return {id(part) for node in ast.walk(tree) if isinstance(node, ast.Call) for keyword in node.keywords
            if keyword.arg == "help" for part in ast.walk(keyword.value) if isinstance(part, ast.Constant)}


def findings(path: Path, classes: set[str], names: set[str], text: str | None = None) -> list[str]:
    """What one module names (``text``: its source, else read from ``path``): metric classes,
    metric families, metric names."""
    tree = syntax_tree(path) if text is None else ast.parse(text)
    prose = _docstrings(tree) | _help_texts(tree)
    class_word = re.compile(r"(?<![\w.])(" + "|".join(sorted(map(re.escape, classes), key=len, reverse=True))
                            + r")(?![\w])")
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in classes:
            found.append(f"class {node.id}")
        elif isinstance(node, ast.Attribute) and node.attr in classes:
            found.append(f"class {node.attr}")
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            modules, imported = _imported(path, node)
            found += [f"import {module}" for module in modules if _family(module)]
            found += [f"class {name}" for name in imported if name in classes]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in prose:
            if _names_a_metric_list(node.value, names):
                found.append(f"string {node.value!r}")
            found += [f"string naming {name}" for name in class_word.findall(node.value)]
    return found


def test_no_generic_module_names_a_metric():
    classes, names = _metric_classes(), _metric_names()
    assert {"GoToScorer", "ErrantCompare", "RunningFMetric", "M2Scorer", "GLEU"} <= classes  # the scan finds them
    assert {"m2", "gotoscorer", "gleu", "errant-m2"} <= names
    named = sorted({(path.relative_to(PACKAGE).as_posix(), what)
                    for path in generic_modules() for what in findings(path, classes, names)})
    assert [item for item in named if item not in ALLOWED] == []


def test_the_allowed_exceptions_are_still_needed():
    """An exception that no longer occurs is taken off the list (the list only shrinks)."""
    classes, names = _metric_classes(), _metric_names()
    named = {(path.relative_to(PACKAGE).as_posix(), what)
             for path in generic_modules() for what in findings(path, classes, names)}
    assert sorted(ALLOWED - named) == []


def test_the_check_finds_what_it_looks_for():
    """The scan is not blind: each kind of naming in a module is found; docstrings, comments
    and help texts are not."""
    text = ('"""GoToScorer and m2 in a docstring are prose."""\n'
            "import click\n"
            "from ..metrics.gotoscorer.metric import GoToScorer  # GoToScorer in a comment\n"
            "from ..metrics.registry import get_metric\n"
            "OPTION = click.option('--x', help='m2 or GoToScorer, in prose')\n"
            "def f(metric):\n"
            "    return isinstance(metric, GoToScorer) or get_metric('m2') or "
            "'GoToScorer|ref_id:0' or 'gleu,green:beta=0.5/1/2' or metric.RunningFMetric\n")
    found = findings(PACKAGE / "output" / "probe.py", _metric_classes(), _metric_names(), text)
    assert sorted(found) == sorted(["import gecmetrics.metrics.gotoscorer.metric", "class GoToScorer",
                                    "class GoToScorer", "string 'm2'", "string naming GoToScorer",
                                    "string 'gleu,green:beta=0.5/1/2'", "class RunningFMetric"])


# ---------------------------------------------------------------- what the metrics declare


def test_the_metrics_declare_what_generic_code_asks():
    from gecmetrics.metrics.base import Metric
    from gecmetrics.metrics.registry import get_metric

    assert (Metric.independent_sentences, Metric.candidate_refusal, Metric.placeless_refusal, Metric.marks_edits,
            Metric.weighs_gold_edits, Metric.observations_refuse) == (True, None, None, False, False, False)
    assert get_metric("gotoscorer").observations_refuse and not get_metric("errant").observations_refuse
    assert get_metric("m2").independent_sentences is False  # the running-F choice
    assert get_metric("sentm2").independent_sentences and get_metric("senterrant").independent_sentences
    assert get_metric("gotoscorer").candidate_refusal and get_metric("gotoscorer").weighs_gold_edits
    assert get_metric("senterrant").marks_edits and not get_metric("gleu").marks_edits


def test_default_metrics_are_one_list():
    from gecmetrics.metrics.registry import (COMPARE, REPORT, default_metric_texts, default_metrics, gold_metrics)
    from gecmetrics.output.report import DEFAULT_METRICS as REPORT_TEXTS
    from gecmetrics.run.compare import DEFAULT_METRICS as COMPARE_TEXTS

    assert COMPARE_TEXTS == REPORT_TEXTS == default_metric_texts(COMPARE) == ("gleu", "green:beta=0.5/1/2")
    assert [m.display_name for m in default_metrics(COMPARE, gold_m2=True)] == ["gleu", "green", "m2"]
    assert [m.display_name for m in default_metrics(REPORT)] == ["gleu", "green", "gotoscorer", "errant-m2"]
    assert [m.display_name for m in gold_metrics()] == ["m2"]


def test_a_metric_that_cannot_score_candidates_is_refused_by_what_it_declares():
    """A plugin's refusal reaches the user as the built-in one does (no class is named)."""
    import pytest

    from gecmetrics.errors import InputError
    from gecmetrics.io.corpus import Corpus
    from gecmetrics.metrics.green.green import GREEN
    from gecmetrics.output.report import attribute_systems

    class Pooled(GREEN):
        label = "Pooled"
        candidate_refusal = "its n-gram counts are pooled over the systems"

    corpus = Corpus(["a b"], [["a c"]], {"A": ["a c"]})
    with pytest.raises(InputError, match="Pooled cannot attribute edits: its n-gram counts are pooled over the "
                                         "systems; choose another metric"):
        attribute_systems(corpus, Pooled(), {"A": [[(1, 2, "c")]]})
