"""One CLI shape: a command for every registered metric (generated from its settings, or a
hand-written command with the flags that select it), the options every scoring command shares
(--sentence, --json, --tsv, --quiet, -p, --cache/--no-cache before or after the command name,
-V), the one scale rule and JSON vocabulary, output formats from the registry (a toy format
registered by a test), ERRANT's -cat totals, and the CLI's size rules."""
from __future__ import annotations

import ast
import itertools
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.conftest import SPACY_TEST_MODEL, json_x100, one_line_error, run_cli, write_files

from gecmetrics import __version__
from gecmetrics.io.corpus import read_corpus, read_m2_corpus, read_m2_hypotheses
from gecmetrics.metrics.registry import get_metric, list_metrics
from gecmetrics.run.engine import score_corpus

ROOT = Path(__file__).resolve().parent.parent
CLI = ROOT / "gecmetrics" / "cli"

SOURCE = ["the cat sit on mat .", "he go to school", "a a b", "short one"]
REF0 = ["the cat sits on the mat .", "he goes to school", "a b", "short one"]
REF1 = ["the cat sat on a mat .", "he went to school", "a a b", "a short one"]
SYS_A = ["the cat sits on mat .", "he go to school", "a b", "short one"]
SYS_B = ["the cat sit on the mat .", "he goes to the school", "a a b", "shorter one"]
GOLD = """S the cat sit on mat .
A 2 3|||R:VERB:SVA|||sits|||REQUIRED|||-NONE-|||0
A 4 4|||M:DET|||the|||REQUIRED|||-NONE-|||0
A 2 3|||R:VERB:TENSE|||sat|||REQUIRED|||-NONE-|||1

S he go to school
A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0
A 1 2|||R:VERB:TENSE|||went|||REQUIRED|||-NONE-|||1

S a a b
A 1 2|||U:DET||||||REQUIRED|||-NONE-|||0
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1

S short one
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0
A 0 0|||M:DET|||a|||REQUIRED|||-NONE-|||1
"""
HYP_A = """S the cat sit on mat .
A 2 3|||R:VERB:SVA|||sits|||REQUIRED|||-NONE-|||0

S he go to school
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S a a b
A 1 2|||U:DET||||||REQUIRED|||-NONE-|||0

S short one
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0
"""
HYP_B = """S the cat sit on mat .
A 4 4|||M:DET|||the|||REQUIRED|||-NONE-|||0

S he go to school
A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0
A 3 3|||M:DET|||the|||REQUIRED|||-NONE-|||0

S a a b
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S short one
A 0 1|||R:ADJ|||shorter|||REQUIRED|||-NONE-|||0
"""

NON_MODEL = ("gleu", "gleu-max", "gleu-paper", "gleu0", "green", "green-char", "m2", "sentm2", "senterrant", "cleme",
             "cleme2", "gotoscorer")
"""Every registered metric without a model or spaCy, by its command's name (m2: `m2 score`)."""


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    return write_files(tmp_path, {"src": SOURCE, "ref0": REF0, "ref1": REF1, "a": SYS_A, "b": SYS_B, "gold.m2": GOLD,
                                  "a.m2": HYP_A, "b.m2": HYP_B})


def command_of(name: str, files: dict[str, str]) -> list[str]:
    """The command line of a registered metric on the tiny corpus (its inputs by what it reads)."""
    if name in ("gleu", "gleu-max", "gleu-paper", "gleu0", "green", "green-char"):
        return [name, "-s", files["src"], "-r", files["ref0"], files["ref1"], "-o", files["a"], files["b"]]
    if name in ("m2", "sentm2"):
        return [*((name,) if name != "m2" else ("m2", "score")), "-s", files["gold.m2"], "-o", files["a"], files["b"]]
    if name == "senterrant":
        return [name, "-hyp", files["a.m2"], "-ref", files["gold.m2"]]
    return [name, "-hyp", files["a.m2"], files["b.m2"], "-ref", files["gold.m2"]]


def reference_numbers(name: str, files: dict[str, str], hypotheses: list[str]) -> tuple[list, list]:
    """(corpus scores, sentence score matrices) of each hypothesis under the registered metric,
    from the library (the engine on a corpus in memory)."""
    metric = get_metric(name)
    if name in ("senterrant", "cleme", "cleme2", "gotoscorer"):
        corpus = read_m2_hypotheses(files["gold.m2"], [files[h + ".m2"] for h in hypotheses])
    elif name in ("m2", "sentm2"):
        corpus = read_m2_corpus(files["gold.m2"], [files[h] for h in hypotheses])
    else:
        corpus = read_corpus(files["src"], [files["ref0"], files["ref1"]], [files[h] for h in hypotheses])
    scored = score_corpus([metric], corpus)
    return ([scored.result(n, 0).scores for n in scored.names],
            [metric.sentence_matrix(scored.statistics[n][0]) for n in scored.names])


# ----------------------------------------------------------------------------- a command for every metric


def test_every_registered_metric_has_a_command():
    from gecmetrics.cli.commands import METRIC_COMMANDS

    for info in list_metrics():
        words = list(METRIC_COMMANDS.get(info.name, (info.name,)))
        if info.name == "m2":
            words = ["m2", "score"]
        code, out, err = run_cli(*(words if info.name == "m2" else [info.name]), "--help")
        assert code == 0 and "Usage:" in out, (info.name, err)
    code, out, _ = run_cli("--help")
    listed = {line.split()[0] for line in out.split("Commands:")[1].splitlines() if line.startswith("  ") and
              not line.startswith("   ")}
    assert {info.name for info in list_metrics()} <= listed


def test_each_metric_command_s_references_follow_what_its_metric_declares():
    """`gecmetric some` asked for -r (required), which SOME never reads: the command of a metric
    declaring no references has no -r; one reading text references requires it."""
    from gecmetrics.cli.commands import METRIC_COMMANDS
    from gecmetrics.kinds import NONE, TEXT
    from gecmetrics.metrics.registry import declared_kind

    seen = set()
    for info in list_metrics():
        kind = declared_kind(info.cls, "reference_kind")
        if kind not in (NONE, TEXT) or info.name in METRIC_COMMANDS or info.name == "m2":
            continue
        code, out, err = run_cli(info.name, "--help")
        assert code == 0, err
        assert ("-r, --reference" in out) == (kind == TEXT), info.name
        seen.add(kind)
    assert seen == {NONE, TEXT}


@pytest.mark.parametrize("name", NON_MODEL)
def test_metric_command_json_tsv_sentence_quiet_and_jobs(name, files):
    """Each command prints the library's corpus scores (x100 in JSON, which says `system`), the
    same table with --tsv, one score per sentence with --sentence (x100), the same with --quiet
    and -p 2."""
    base = command_of(name, files)
    hypotheses = ["a"] if name == "senterrant" else ["a", "b"]
    corpus, sentences = reference_numbers(name, files, hypotheses)
    code, out, err = run_cli(*base, "--json")
    assert code == 0, err
    data = json.loads(out)
    check_json_vocabulary(data, [files[h + (".m2" if "-hyp" in base else "")] for h in hypotheses])
    for item, want in zip(data, corpus):
        got = item["scores"] if name != "gotoscorer" else [item["f05"]]  # (the metric's one column: F0.5)
        assert np.allclose(np.asarray(got, dtype=float), 100 * np.asarray(want, dtype=float)), item
    code, tsv, err = run_cli(*base, "--tsv")
    assert code == 0 and tsv.splitlines()[0].split("\t")[0] == "system", err
    code, sentence, err = run_cli(*base, "--sentence", "--tsv", "-d", "6")
    assert code == 0, err
    rows = [line.split("\t") for line in sentence.splitlines()]
    assert rows[0][0] in ("sentence", "system")
    if rows[0][0] == "sentence":  # the generic table: a row per sentence, a column per system (x column)
        assert len(rows) == 1 + len(SOURCE)
        first = np.array([float(row[1]) for row in rows[1:]])
    else:  # the original's layout: a row per system and sentence; the headline is one of its columns
        mine = [row for row in rows[1:] if row[0] == rows[1][0]]
        assert [row[1] for row in mine] == [str(k) for k in range(1, len(SOURCE) + 1)]
        matching = [k for k in range(2, len(rows[0]))
                    if np.allclose([float(row[k]) for row in mine], 100 * sentences[0][0], atol=1e-6)]
        assert matching, (name, rows[0])
        first = np.array([float(row[matching[0]]) for row in mine])
    assert np.allclose(first, 100 * sentences[0][0], atol=1e-6)
    for extra in (["--quiet"], ["-p", "2"]):
        code, again, err = run_cli(*base, "--tsv", *extra)
        assert code == 0 and again == tsv, (extra, err)


@pytest.mark.parametrize("name", NON_MODEL)
def test_every_metric_command_has_one_shape_of_sentence_json_and_cited_tables(name, files):
    """One shape (a sweep, 2026-12-02): ``--sentence --json`` prints each system's sentence scores
    (cleme, cleme2 and gotoscorer printed their corpus JSON); a Markdown or LaTeX table carries the
    metric's signature below it, as compare's tables do (m2 score, senterrant, cleme, gotoscorer
    ... printed none); ``--signature`` is an option of every one (m2 compare/senterrant refused
    it); -v, the original's text trace, is refused with a format (``m2 score -v --json`` printed the
    trace, then JSON no parser reads)."""
    base = command_of(name, files)
    hypotheses = ["a"] if name == "senterrant" else ["a", "b"]
    _, sentences = reference_numbers(name, files, hypotheses)
    code, out, err = run_cli(*base, "--sentence", "--json")
    assert code == 0, err
    data = json.loads(out)
    check_json_vocabulary(data, [files[h + (".m2" if "-hyp" in base else "")] for h in hypotheses], "sentence",
                          len(SOURCE))
    for item, matrix in zip(data, sentences):
        column = item["scores"][item["labels"].index("GoToScorer F0.5")] if name == "gotoscorer" else item["scores"][0]
        assert np.allclose(column, 100 * np.asarray(matrix[0], dtype=float), atol=1e-9), (name, item)
    library = get_metric(name).signature(2 if name in ("gleu", "gleu-max", "gleu-paper", "gleu0", "green",
                                                       "green-char") else None).name
    for fmt, cited in (("--markdown", r"\n\* (.+: )?`" + re.escape(library) + r"\|"),
                       ("--latex", r"\n% (.+: )?" + re.escape(library) + r"\|")):
        code, out, err = run_cli(*base, fmt)
        assert code == 0 and re.search(cited, out), (name, fmt, out, err)
    code, out, err = run_cli(*base, "--signature")
    assert code == 0 and err.strip().splitlines()[-1].startswith(library + "|"), (name, err)
    if "-v" in run_cli(*base, "--help")[1]:
        code, out, err = run_cli(*base, "-v", "--json")
        assert code == 2 and out == "" and "-v: prints the original tool's trace as text: not with --json" in err
    if name in ("gleu", "gleu-max", "gleu-paper", "gleu0", "green", "green-char"):  # -v was dropped silently
        for mode in (["--mean"], ["--paired-bs", "20"]):
            code, out, err = run_cli(*base, "-v", *mode)
            assert (code, out) == (2, "") and err == ("gecmetric: error: -v: prints the tables of corpus or "
                                                      "sentence scores: not with --mean or a paired test\n")


def test_a_one_letter_option_takes_its_value_after_an_equals_sign_as_argparse_did(files):
    """``errant_compare -b=1`` and ``gleu -n=2`` are the original tools' argparse reading ``-b 1``;
    click read the value '=1' and refused it. A value holding '=' stays whole (``-r=a=b`` is the
    file 'a=b'), and after ``--`` nothing is split."""
    plain = run_cli("gleu", "-s", files["src"], "-r", files["ref0"], "-o", files["a"], "-n", "2", "-d", "2")
    assert plain[0] == 0, plain
    assert run_cli("gleu", "-s", files["src"], "-r", files["ref0"], "-o", files["a"], "-n=2", "-d=2") == plain
    assert run_cli("gleu", "-s=" + files["src"], "-r=" + files["ref0"], "-o=" + files["a"], "-n=2", "-d=2") == plain
    code, out, err = run_cli("gleu", "-s", files["src"], "-r", files["ref0"], "-o", files["a"], "-n=x")
    assert (code, out) == (2, "") and "'x'" in err and "'=x'" not in err, err


def test_an_option_of_one_value_given_twice_is_refused(files):
    """click kept the last: `m2 compare -hyp A -hyp B` scored B alone, `gleu -s X -s Y` read Y,
    without a word. Options of several values (-o, -r) still add up."""
    for args, flag in [(["m2", "compare", "-hyp", files["a.m2"], "-hyp", files["b.m2"], "-ref", files["gold.m2"]], "-hyp"),
                       (["gleu", "-s", files["src"], "-s", files["a"], "-r", files["ref0"], "-o", files["a"]], "-s"),
                       (["gleu", "-s", files["src"], "-r", files["ref0"], "-o", files["a"], "-d", "2", "--digits=3"],
                        "--digits")]:
        code, out, err = run_cli(*args)
        assert (code, out, err) == (2, "", f"gecmetric: error: {flag}: is given twice: give it once\n"), args
    code, out, err = run_cli("gleu", "-s", files["src"], "-r", files["ref0"], "-r", files["ref1"], "-o", files["a"],
                             "-o", files["b"])
    assert code == 0 and len(out.splitlines()) == 2, err


def test_errant_command_sentence_scores_are_the_library_s(files, spacy_model):
    """`errant --sentence` prints the library's sentence scores of ERRANT on plain text (its
    edits by spaCy, compared with the gold M2), and the corpus JSON its corpus scores."""
    from gecmetrics.io.corpus import Corpus
    from gecmetrics.io.m2 import read_m2

    base = ["errant", "-s", files["src"], "-r", files["gold.m2"], "-o", files["a"], files["b"],
            "--spacy-model", SPACY_TEST_MODEL, "--no-cache"]
    metric = get_metric("errant", spacy_model=SPACY_TEST_MODEL)
    corpus = Corpus(SOURCE, [], {files["a"]: SYS_A, files["b"]: SYS_B}, read_m2(files["gold.m2"]))
    scored = score_corpus([metric], corpus, cache=False)
    code, out, err = run_cli(*base, "--json")
    assert code == 0, err
    for item, name in zip(json.loads(out), (files["a"], files["b"])):
        assert item["system"] == name
        assert np.allclose(item["scores"], 100 * np.asarray(scored.result(name, 0).scores, dtype=float))
    code, out, err = run_cli(*base, "--sentence", "--tsv", "-d", "6")
    assert code == 0, err
    rows = [line.split("\t") for line in out.splitlines()]
    expected = metric.sentence_matrix(scored.statistics[files["a"]][0])[0]
    if rows[0][0] == "sentence":
        got = [float(row[1]) for row in rows[1:]]
    else:
        got = [float(row[rows[0].index(next(h for h in rows[0] if h.lower().startswith("f0.5")))])
               for row in rows[1:] if row[0] == files["a"]]
    assert np.allclose(got, 100 * expected, atol=1e-6), (rows[0], got, expected)


def test_alias_commands_are_their_commands_with_fixed_flags(files):
    common = ["-s", files["src"], "-r", files["ref0"], files["ref1"], "-o", files["a"]]
    assert run_cli("gleu-max", *common)[1] == run_cli("gleu", "-m", *common)[1]
    assert run_cli("green-char", *common)[1] == run_cli("green", "-t", "char", *common)[1]
    assert "-t is fixed" in one_line_error("green-char", *common, "-t", "word")
    # their --help is the command's, said to be with the flag fixed (it listed the flag as if it could be chosen)
    assert run_cli("gleu-paper", "--help")[1].startswith("gleu-paper is `gecmetric gleu --variant paper`: the "
                                                        "options below are gleu's, with --variant fixed.\n")
    assert run_cli("sentm2", "-h")[1].startswith("sentm2 is `gecmetric m2 score --sentence-average`")


def test_help_names_what_a_setting_takes():
    """A number setting's metavar says so (click said TEXT: the setting's own parser reads it), and an
    empty list default is 'none' (it was '[default: ]')."""
    gleu, errant = run_cli("gleu", "--help")[1], run_cli("errant", "--help")[1]
    assert "-n INTEGER" in gleu and "-i, --iter INTEGER" in gleu and "-b, --beta NUMBER" in errant
    assert re.search(r"-filt VALUE\.\.\.\s+Do not evaluate these error types\.\s+\[default:\s+none\]", errant)


def test_compare_verbose_is_its_signature_in_every_format(files):
    """compare's -v prints the signatures on stderr, as --signature: no trace, so --tsv and --json go with it."""
    base = ["compare", "-s", files["src"], "-r", files["ref0"], "-o", files["a"], "--metrics", "gleu"]
    for fmt in ("--tsv", "--json"):
        code, out, err = run_cli(*base, "-v", fmt)
        assert code == 0 and out == run_cli(*base, fmt)[1] and err == run_cli(*base, fmt, "--signature")[2], err


def test_compare_sentence_prints_a_row_per_sentence_and_a_column_per_system_and_metric(files):
    code, out, err = run_cli("compare", "-s", files["src"], "-r", files["ref0"], files["ref1"], "-o", files["a"],
                             files["b"], "--metrics", "gleu-max,green:beta=0.5/2", "--sentence", "-d", "6")
    assert code == 0, err
    rows = [line.split("\t") for line in out.splitlines()]
    assert rows[0] == ["sentence", *(f"{system} {label} (x100)" for system in (files["a"], files["b"])
                                     for label in ("GLEU+ max", "GREEN b0.5", "GREEN b2"))]
    assert [row[0] for row in rows[1:]] == ["1", "2", "3", "4"]
    green = get_metric("green", beta=[0.5, 2])
    corpus = read_corpus(files["src"], [files["ref0"], files["ref1"]], [files["b"]])
    matrix = green.sentence_matrix(score_corpus([green], corpus).statistics[files["b"]][0])
    assert np.allclose([float(row[6]) for row in rows[1:]], 100 * matrix[1], atol=1e-6)


# ----------------------------------------------------------------------------- the one JSON vocabulary


NOT_SCORING = {
    "attribute": "edit attribution: each system's edits and what each adds (docs/attribute.md)",
    "cache info": "the persistent cache's folder and entries",
    "compare": "a table: columns, rows and metrics (docs/compare.md)",
    "demo": "compare's table of the sample corpus",
    "meta-eval": "correlations with human scores (docs/meta-evaluation.md)",
    "rank": "rankings from raw human judgments",
    "report": "the data behind the HTML report (docs/report.md)",
}
"""Commands with --json that print something other than scores of systems, and why."""
MODEL_COMMANDS = ("bertscore", "some", "impara", "scribendi", "pt-m2", "pt-errant")
"""Scoring commands checked by tests/test_models_cli_shape.py (tiny models: torch)."""
LLM_COMMANDS = ("llm",)
"""Scoring commands checked by tests/test_llm_metric.py (a loopback judge)."""
CHERRANT_M2 = str(ROOT / "tests" / "data" / "cherrant_pairs.m2")
CHERRANT_PARA = str(ROOT / "tests" / "data" / "cherrant_pairs.para")


def json_commands(files: dict[str, str]) -> dict[str, tuple[list[str], list[str]]]:
    """Every scoring command (and alias: its own metric) on the tiny corpus: (arguments, the
    systems it scores, in order)."""
    text = ["-s", files["src"], "-r", files["ref0"], files["ref1"], "-o", files["a"], files["b"]]
    m2 = ["-hyp", files["a.m2"], files["b.m2"], "-ref", files["gold.m2"]]
    gold = ["-s", files["gold.m2"], "-o", files["a"], files["b"]]
    one = ["-hyp", files["a.m2"], "-ref", files["gold.m2"]]
    texts, m2s = [files["a"], files["b"]], [files["a.m2"], files["b.m2"]]
    return {"gleu": (["gleu", *text], texts), "gleu-max": (["gleu-max", *text], texts),
            "gleu-paper": (["gleu-paper", *text], texts), "gleu0": (["gleu0", *text, "-l", "0", "1"], texts),
            "green": (["green", *text, "-b", "0.5", "2"], texts), "green-char": (["green-char", *text], texts),
            "m2 score": (["m2", "score", *gold], texts), "sentm2": (["sentm2", *gold], texts),
            "m2 compare": (["m2", "compare", *one], [files["a.m2"]]), "senterrant": (["senterrant", *one], [files["a.m2"]]),
            "cleme": (["cleme", *m2], m2s), "cleme2": (["cleme2", *m2], m2s), "gotoscorer": (["gotoscorer", *m2], m2s),
            "errant": (["errant", "-s", files["src"], "-r", files["gold.m2"], "-o", *texts, "--spacy-model",
                        SPACY_TEST_MODEL, "--no-cache"], texts),
            "cherrant compare": (["cherrant", "compare", "-hyp", CHERRANT_M2, "-ref", CHERRANT_M2], [CHERRANT_M2]),
            "cherrant score": (["cherrant", "score", "-hyp", CHERRANT_PARA, "-ref", CHERRANT_PARA], [CHERRANT_PARA])}


def command_options(words: list[str]) -> set[str]:
    """The options of a command (an alias: of the command it stands for)."""
    import click

    from gecmetrics.cli import main
    from gecmetrics.cli.commands import METRIC_COMMANDS

    if len(words) == 1:  # the command's words, before the flags that select the metric
        words = list(itertools.takewhile(lambda word: not word.startswith("-"), METRIC_COMMANDS.get(words[0], words)))
    command, ctx = main, click.Context(main)
    for word in words:
        command = command.get_command(ctx, word)
        ctx = click.Context(command, parent=ctx)
    return {opt for param in command.params for opt in getattr(param, "opts", ())}


def every_command() -> dict[str, Any]:
    """Every command (subcommands of groups by their path) -> its click command."""
    import click

    from gecmetrics.cli import main

    found: dict[str, Any] = {}

    def walk(group: click.Group, path: list[str], ctx: click.Context) -> None:
        for name in group.list_commands(ctx):
            command = group.get_command(ctx, name)
            if isinstance(command, click.Group):
                walk(command, [*path, name], click.Context(command, parent=ctx))
            else:
                found[" ".join([*path, name])] = command
    walk(main, [], click.Context(main))
    return found


def test_every_command_refuses_an_option_of_one_value_given_twice():
    """rank, cache prune, cache clear, data check kept the last value (click's rule):
    `cache prune --older-than 300d --older-than 1s` emptied the cache, `rank --judgments A
    --judgments B` ranked B. Every command's every option of one value is refused given twice
    (before anything is read or done)."""
    import click

    checked = 0
    for path, command in every_command().items():
        for param in command.params:
            if not isinstance(param, click.Option) or param.is_flag or param.multiple or param.count \
                    or param.name in ("cache",) or getattr(param, "hidden", False):
                continue
            flag = param.opts[0]
            code, out, err = run_cli(*path.split(), flag, "1", flag, "1")
            assert (code, out, err) == (2, "", f"gecmetric: error: {flag}: is given twice: give it once\n"), \
                (path, flag, err)
            checked += 1
    assert checked > 100


def commands_with_json() -> set[str]:
    """Every command (subcommands of groups by their path) that takes --json."""
    return {path for path, command in every_command().items()
            if "--json" in {opt for param in command.params for opt in getattr(param, "opts", ())}}


def check_json_vocabulary(data: Any, systems: list[str], mode: str = "corpus", sentences: int | None = None) -> None:
    """The one JSON vocabulary of the scoring commands (README): a list of an object per system
    and metric, in the systems' order, each beginning with ``system``, ``scores`` (one per column:
    a number, or with --sentence the list of the sentences' scores, null for a sentence without a
    score: an LLM judge's unanswered prompt), ``labels`` (one per score, non-empty) and
    ``signature`` (``sentences:each`` / ``sentences:mean`` with --sentence / --mean)."""
    assert isinstance(data, list) and data and len(data) % len(systems) == 0, data
    per_system = len(data) // len(systems)
    assert [item["system"] for item in data] == [system for system in systems for _ in range(per_system)]
    field = {"sentence": "|sentences:each|", "mean": "|sentences:mean|"}.get(mode)
    for item in data:
        assert list(item)[:4] == ["system", "scores", "labels", "signature"], list(item)
        scores, labels = item["scores"], item["labels"]
        assert isinstance(labels, list) and labels and all(isinstance(x, str) and x for x in labels), item
        assert isinstance(scores, list) and len(scores) == len(labels), item
        columns = scores if mode == "sentence" else [scores]
        assert all(isinstance(column, list) for column in columns), item
        assert all((isinstance(x, (int, float)) and not isinstance(x, bool)) or (x is None and mode == "sentence")
                   for column in columns for x in column), item
        if mode == "sentence" and sentences is not None:
            assert [len(column) for column in columns] == [sentences] * len(labels), item
        signature = item["signature"]
        assert isinstance(signature, str) and signature.rsplit("|", 1)[-1].startswith("version:"), item
        assert (field in signature) if field else "|sentences:" not in signature, signature


def check_paired_json(data: Any, systems: list[str]) -> None:
    """A paired test's JSON: a list of a test per score column, its systems named by ``system``."""
    assert isinstance(data, list) and data, data
    for test in data:
        assert [item["system"] for item in test["systems"]] == systems and "|test:paired-bs|" in test["signature"]


def test_every_command_with_json_is_in_the_vocabulary_test():
    """A new command that prints JSON is checked by the test below (or says why not here)."""
    commands = {name for name in json_commands({k: k for k in ("src", "ref0", "ref1", "a", "b", "gold.m2", "a.m2",
                                                                    "b.m2")}) if " " in name or name in
                {"gleu", "green", "cleme", "gotoscorer", "errant"}}
    assert commands_with_json() == commands | set(MODEL_COMMANDS) | set(LLM_COMMANDS) | set(NOT_SCORING)


@pytest.mark.parametrize("name", list(json_commands({k: k for k in ("src", "ref0", "ref1", "a", "b", "gold.m2", "a.m2",
                                                                     "b.m2")})))
def test_every_scoring_command_speaks_the_one_json_vocabulary(name, files, request):
    """Corpus scores, --sentence, --mean and the paired test's JSON of every scoring command
    (before: GREEN's scores were keyed by beta, GLEU's --mean said `score`, GoToScorer's scores
    held F0.5 alone, m2 compare printed one object, the generated commands' --sentence an object
    per column, a paired test's systems said `hypothesis`)."""
    if name == "errant":
        request.getfixturevalue("spacy_model")
    if name == "cherrant score":
        request.getfixturevalue("shared_data")
        from tests._zh_support import require_zh_extra

        require_zh_extra()
        os.environ.setdefault("GECMETRICS_CHERRANT_DATA", str(request.getfixturevalue("shared_data") / "cherrant"))
    args, systems = json_commands(files)[name]
    options = command_options(args[:2] if " " in name else args[:1])
    sentences = 26 if name.startswith("cherrant") else len(SOURCE)
    modes = ["corpus", *(["sentence"] if "--sentence" in options else []), *(["mean"] if "--mean" in options else [])]
    for mode in modes:
        given = args[:-1] if name == "gleu0" and mode == "sentence" else args  # (--sentence takes one lambda)
        code, out, err = run_cli(*given, "--json", *({"corpus": [], "sentence": ["--sentence"], "mean": ["--mean"]}[mode]))
        assert code == 0, (name, mode, err)
        check_json_vocabulary(json.loads(out), systems, mode, None if name.startswith("cherrant") else sentences)
    if "--paired-bs" in options and len(systems) > 1:
        code, out, err = run_cli(*args, "--json", "--paired-bs", "50")
        assert code == 0, (name, err)
        check_paired_json(json.loads(out), systems)


def test_json_result_gives_a_missing_sentence_score_as_null_for_every_metric():
    """A sentence without a score (NaN: an LLM judge's unanswered prompt) was the string "nan" in
    JSON (json_result's floats, printed by dumps); it is null, whatever the metric."""
    from gecmetrics.cli.common import json_result
    from gecmetrics.metrics.results import SentenceScores
    from gecmetrics.output.formats import dumps

    for metric, columns in ((get_metric("gleu"), 1), (get_metric("green", beta=[0.5, 2]), 2)):
        scores = np.array([0.5, np.nan, 0.25] * columns).reshape(columns, 3).squeeze()
        item = json_result("a", SentenceScores(scores, metric.signature(1)), metric, 100, "sentence")
        assert item["scores"] == [[50.0, None, 25.0]] * columns, item
        check_json_vocabulary([item], ["a"], "sentence", 3)
        assert "nan" not in dumps([item]).lower()


def test_json_labels_are_compare_s_columns_and_scores_the_library_s(files):
    """``labels`` are the columns ``compare`` heads; GoToScorer's scores are its metric's column
    (F0.5, as compare scores and signs it; P, R, F and Acc by name beside it), GREEN's its betas
    in order."""
    args, systems = json_commands(files)["gotoscorer"]
    data = json.loads(run_cli(*args, "--json", "--scale", "1")[1])
    metric = get_metric("gotoscorer")
    assert data[0]["labels"] == metric.column_labels() == ["GoToScorer F0.5"]
    assert data[0]["signature"] == str(metric.signature(1))
    scored = score_corpus([metric], read_m2_hypotheses(files["gold.m2"], [files["a.m2"], files["b.m2"]]))
    for item, system in zip(data, systems):
        assert item["scores"] == [float(x) for x in scored.result(system, 0).scores]
        assert item["f05"] == item["scores"][0] and item["tp"] >= 0
        assert {"precision", "recall", "f", "accuracy"} <= set(item)
    sentence = json.loads(run_cli(*args, "--json", "--sentence", "--scale", "1")[1])
    assert np.allclose(sentence[1]["scores"], metric.sentence_matrix(scored.statistics[systems[1]][0]))
    args, systems = json_commands(files)["green"]
    data = json.loads(run_cli(*args, "--json")[1])
    green = get_metric("green", beta=[0.5, 2])
    assert data[0]["labels"] == green.column_labels() == ["GREEN b0.5", "GREEN b2"]
    assert data[0]["scores"] == [json_x100(x) for x in green.corpus_score(SOURCE, [REF0, REF1], SYS_A).scores]
    assert [len(region["tk"]) for region in data[0]["regions"]] == [4, 4]


# ----------------------------------------------------------------------------- shared options


SHARED_OPTIONS = ("--jobs", "--chunk-lines", "--dask", "--quiet", "--json", "--tsv", "--markdown", "--latex", "--format",
                  "--scale", "--digits", "--signature", "--sentence", "--cache", "--no-cache")
"""What `gecmetric --help` and the README promise of every scoring command."""


def test_every_scoring_command_takes_the_shared_options():
    """Every registered metric's command (hand-written, as METRIC_COMMANDS names it, or made from
    its settings) and compare take every shared option, read from the commands themselves: `llm`
    (llm-s, llm-e) took neither --scale nor --signature nor --sentence, which `gecmetric --help`
    promises of every scoring command; a command added without one fails here."""
    import click

    from gecmetrics.cli import main
    from gecmetrics.cli.commands import METRIC_COMMANDS
    from gecmetrics.cli.metric_command import _command_words

    context = click.Context(main)
    paths = {tuple(words[:_command_words(words)]) for words in
             (METRIC_COMMANDS.get(info.name, (info.name,)) for info in list_metrics())} | {("compare",)}
    assert {("llm",), ("gotoscorer",), ("m2", "score"), ("compare",)} <= paths
    missing = {}
    for path in sorted(paths):
        command = main
        for word in path:
            command = command.get_command(context, word)
        flags = {flag for param in command.params for flag in (*param.opts, *param.secondary_opts)}
        missing[" ".join(path)] = [option for option in SHARED_OPTIONS if option not in flags]
    assert {name: options for name, options in missing.items() if options} == {}
    assert all(option in main.get_help(context) for option in ("--scale", "--signature", "--chunk-lines"))


def test_a_group_without_its_command_prints_its_help_and_usage_errors_are_one_line():
    """click >= 8.2 raises an error holding the whole help for `gecmetric cache`: printed as
    help (stdout, exit 0), as older click does; a click message of several lines (a choice
    missing) is folded into the one error line."""
    for words in ([], ["cache"], ["m2"], ["cherrant"], ["data"]):
        code, out, err = run_cli(*words)
        assert code == 0 and out.startswith("Usage: ") and "Commands:" in out and err == "", words
    assert one_line_error("data", "check").startswith("gecmetric: error: Missing argument '{cherrant}'. Choose from: "
                                                      "cherrant (see ")


def test_version_short_and_long():
    for flag in ("-V", "--version"):
        code, out, _ = run_cli(flag)
        assert code == 0 and out.startswith(f"gecmetric {__version__} (counting core: ")


def test_cache_options_before_or_after_the_command(files, tmp_path):
    """The run's cache (what `cache info` reports) is the folder given before or after the
    command name; --no-cache anywhere turns it off; both together are one error."""
    folder = str(tmp_path / "c1")
    before = run_cli("--cache", folder, "cache", "info")
    after = run_cli("cache", "info", "--cache", folder)
    assert before == after and before[0] == 0 and before[1].startswith(f"cache: {folder}")
    assert run_cli("cache", "info", "--no-cache")[1] == run_cli("--no-cache", "cache", "info")[1]
    assert run_cli("--no-cache", "cache", "info")[1].startswith("cache: off")
    args = command_of("gleu", files)
    assert run_cli(*args, "--no-cache")[:2] == run_cli("--no-cache", *args)[:2] == run_cli(*args)[:2]
    err = one_line_error("--cache", folder, *args, "--no-cache")
    assert "--cache and --no-cache do not go together" in err


def test_scale_rule_and_json_vocabulary(files):
    gold = ["-s", files["gold.m2"], "-o", files["a"]]
    code, x100, _ = run_cli("m2", "score", *gold)
    code, fractions, _ = run_cli("m2", "score", *gold, "--scale", "1")
    assert x100.splitlines()[0] == "system\tprecision (x100)\trecall (x100)\tf0.5 (x100)"
    assert fractions.splitlines()[0] == "system\tprecision (fraction)\trecall (fraction)\tf0.5 (fraction)"
    p100, p1 = float(x100.splitlines()[1].split("\t")[1]), float(fractions.splitlines()[1].split("\t")[1])
    assert p100 == pytest.approx(100 * p1, abs=0.006) and len(fractions.splitlines()[1].split("\t")[1]) == 6
    for command in (command_of("gleu", files), command_of("cleme", files), ["m2", "score", *gold]):
        data = json.loads(run_cli(*command, "--json")[1])
        assert all(list(item)[:4] == ["system", "scores", "labels", "signature"] and "hypothesis" not in item
                   for item in data)


def test_json_numbers_x100_carry_no_binary_noise(tmp_path):
    """7 of 25 edits right: P = R = F = 0.28, which ``100 * 0.28`` makes 28.000000000000004. Every
    scaled JSON number is the 15-digit value (m2 score, its paired test, compare and its sentences);
    --scale 1 gives the fraction exactly as computed; the table's figure is as before."""
    blocks = ["S a b\nA 0 1|||R:X|||c|||REQUIRED|||-NONE-|||0"] * 25
    paths = write_files(tmp_path, {"gold.m2": "\n\n".join(blocks) + "\n\n", "src": "a b\n" * 25,
                                   "hyp": "c b\n" * 7 + "d b\n" * 18, "other": "c b\n" * 11 + "a b\n" * 14})
    assert 100 * (7 / 25) != 28
    gold = ["m2", "score", "-s", paths["gold.m2"], "-o", paths["hyp"]]
    [x100] = json.loads(run_cli(*gold, "--json")[1])
    [fraction] = json.loads(run_cli(*gold, "--json", "--scale", "1")[1])
    assert x100["scores"] == [28.0] and [x100[k] for k in ("precision", "recall", "f")] == [28.0] * 3
    assert fraction["scores"] == [7 / 25] and fraction["precision"] == 7 / 25
    assert run_cli(*gold)[1].splitlines()[1].split("\t")[1:] == ["28.00"] * 3
    paired = json.loads(run_cli(*gold, paths["other"], "--paired-bs", "100", "--json")[1])
    assert paired[0]["systems"][0]["score"] == 28.0
    compare = ["compare", "-s", paths["src"], "-o", paths["hyp"], "--m2", paths["gold.m2"], "--metrics", "m2", "--json"]
    assert json.loads(run_cli(*compare)[1])["rows"][0]["scores"] == {"M2 F0.5": 28.0}
    assert json.loads(run_cli(*compare, "--scale", "1")[1])["rows"][0]["scores"] == {"M2 F0.5": 7 / 25}
    [sentences] = json.loads(run_cli(*compare, "--sentence")[1])
    assert sentences["scores"] == [100.0] * 7 + [0.0] * 18


def test_paired_test_p_value_format(files):
    code, out, err = run_cli(*command_of("green", files), "--paired-bs", "100")
    assert code == 0, err
    values = [line.split("|")[-2].strip() for line in out.splitlines() if line.startswith("|") and "." in line]
    assert values[0] == "baseline" and all(v.split()[0].count(".") == 1 and len(v.split()[0]) == 6
                                           for v in values[1:])


# ----------------------------------------------------------------------------- output formats


def test_a_toy_format_registered_at_run_time_prints_every_table(files):
    from gecmetrics.output.formats import register_format, unregister_format

    register_format("toy", lambda table, notes: "\n".join("; ".join(map(str, row)) for row in [table.header, *table.rows]),
                    "semicolon-separated cells")
    try:
        code, out, err = run_cli("compare", "-s", files["src"], "-r", files["ref0"], "-o", files["a"], "--metrics",
                                 "green", "--format", "toy")
        assert code == 0, err
        assert out.splitlines()[0] == "system; GREEN b2 (x100)" and out.splitlines()[1].startswith(files["a"] + "; ")
        code, out, err = run_cli(*command_of("cleme", files), "--format", "toy")
        assert code == 0 and out.startswith("system; F0.5 (x100); P (x100)"), err
    finally:
        unregister_format("toy")
    assert "unknown output format 'toy'" in one_line_error("compare", "-s", files["src"], "-r", files["ref0"], "-o",
                                                           files["a"], "--format", "toy")
    assert "choose one output format" in one_line_error(*command_of("gleu", files), "--tsv", "--json")


# ----------------------------------------------------------------------------- ERRANT


def test_errant_cat_prints_types_and_totals_and_no_cache_anywhere(files, spacy_model, tmp_path):
    args = ["errant", "-s", files["src"], "-r", files["gold.m2"], "-o", files["a"], files["b"], "--spacy-model",
            SPACY_TEST_MODEL]
    after = run_cli(*args, "--no-cache")
    before = run_cli("--no-cache", *args)
    assert after[0] == 0 and after[1] == before[1], after[2]
    code, out, err = run_cli(*args, "-cat", "3", "--tsv")
    assert code == 0, err
    rows = [line.split("\t") for line in out.splitlines()]
    assert rows[0][:2] == ["system", "category"]
    totals = {row[0]: row for row in rows[1:] if row[1] == "total"}
    assert set(totals) == {files["a"], files["b"]}
    table = {row[0]: row for row in (line.split("\t") for line in run_cli(*args, "--tsv")[1].splitlines()[1:])}
    for system, row in totals.items():
        assert row[2:] == table[system][1:]
        types = [r for r in rows[1:] if r[0] == system and r[1] != "total"]
        assert types and sum(int(r[2]) for r in types) == int(row[2])
    fractions = run_cli(*args, "--scale", "1", "--tsv")[1].splitlines()[1].split("\t")
    assert all(len(cell.split(".")[1]) == 4 for cell in fractions[4:])


# ----------------------------------------------------------------------------- shell completion


def test_shell_completion_lists_the_metric_commands():
    env = {**os.environ, "PYTHONPATH": str(ROOT), "_GECMETRIC_COMPLETE": "bash_complete",
           "COMP_WORDS": "gecmetric gleu", "COMP_CWORD": "1"}
    done = subprocess.run([sys.executable, "-c", "from gecmetrics.cli import run; run()"],  # the console script
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.stdout.split() == ["plain,gleu", "plain,gleu-max", "plain,gleu-paper", "plain,gleu0"]


# ----------------------------------------------------------------------------- size rules


def _functions(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node


def test_cli_modules_and_functions_stay_small():
    """No module of gecmetrics/cli over 150 lines, no function there of 60 lines or more."""
    long_modules = {path.name: n for path in CLI.glob("*.py")
                    if (n := len(path.read_text(encoding="utf-8").splitlines())) > 150}
    assert long_modules == {}
    long_functions = [f"{path.name}:{node.name} ({node.end_lineno - node.lineno + 1} lines)"
                      for path in CLI.glob("*.py") for node in _functions(ast.parse(path.read_text(encoding="utf-8")))
                      if node.end_lineno - node.lineno + 1 >= 60]
    assert long_functions == []


def test_python_warnings_print_as_one_line():
    """A Python warning raised inside a command (the cache's, the LLM judge's, a library's) is one
    `gecmetric: warning:` line on stderr, not Python's file:line and code lines."""
    import warnings

    import click

    from gecmetrics.cli import main

    @main.command("warns-once")
    def warns_once() -> None:
        warnings.warn("something to know\nover two lines", UserWarning)
        click.echo("done")

    try:
        code, out, err = run_cli("warns-once")
    finally:
        main.commands.pop("warns-once", None)
    assert (code, out) == (0, "done\n")
    assert err == "gecmetric: warning: something to know over two lines\n"


def test_chunk_lines_defaults_in_help_and_docs_are_the_metrics_own():
    """--chunk-lines' default is the engine's, or the smallest a metric run prefers: the shared
    help and the pages that give a number name the ones the code uses."""
    from gecmetrics.metrics.errant.metric import ErrantText
    from gecmetrics.metrics.llm.metric import LLMJudgeMetric
    from gecmetrics.metrics.models.metric import ModelMetric
    from gecmetrics.metrics.pt.scorers import PTMetric
    from gecmetrics.run.reading import DEFAULT_CHUNK_LINES

    assert ErrantText.chunk_lines == PTMetric.chunk_lines == ModelMetric.chunk_lines
    code, out, _ = run_cli("gleu", "--help")
    help_text = " ".join(out.split())
    assert (f"[default: {DEFAULT_CHUNK_LINES}, or the metric's own: {ErrantText.chunk_lines} for ERRANT, PT and "
            f"model metrics, {LLMJudgeMetric.chunk_lines} for LLM judges]") in help_text
    page = {name: " ".join((ROOT / "docs" / f"{name}.md").read_text(encoding="utf-8").split())
            for name in ("errant", "pt-m2", "llm", "scale")}
    assert f"`--chunk-lines N` (default {ErrantText.chunk_lines} for `errant`" in page["errant"]
    assert f"{DEFAULT_CHUNK_LINES} for `m2 annotate`" in page["errant"]
    assert f"sentences per chunk ({PTMetric.chunk_lines};" in page["pt-m2"]
    assert f"chunks of sentences ({LLMJudgeMetric.chunk_lines} by default;" in page["llm"]
    assert f"(default {DEFAULT_CHUNK_LINES:,}, or a slow metric's own: {ErrantText.chunk_lines} for" in page["scale"]


def test_a_reference_free_metric_s_command_takes_no_references(tmp_path):
    """Since -r's help of compare names the reference-free metrics, the command of every
    reference-free metric (some, impara, scribendi, llm-s, a plugin's) required -r again:
    ``gecmetric some -s SRC -o HYP`` was refused with "Missing option '-r'"."""
    from gecmetrics.kinds import NONE
    from gecmetrics.metrics.base import Metric
    from gecmetrics.metrics.registry import register_metric, unregister_metric

    class Lengths(Metric):
        label, reference_kind = "Lengths", NONE

        def prepare(self, corpus: Any, group: Any = ()) -> None:
            return None

        def statistics(self, prepared: Any, hypothesis: Any) -> np.ndarray:
            return np.array([[len(line.split()), 1] for line in hypothesis], dtype=np.float64)

        def score_from_sums(self, sums: Any, column: int = 0) -> Any:
            return np.asarray(sums)[..., 0] / np.asarray(sums)[..., 1]

    for name in ("some", "scribendi"):
        code, out, err = run_cli(name, "--help")
        assert code == 0 and "--reference" not in out and "-s SRC -o HYP..." in out, out
    paths = write_files(tmp_path, {"src": ["a b", "c"], "hyp": ["a b c", "d"]})
    register_metric("lengths-toy", Lengths)
    try:
        code, out, err = run_cli("lengths-toy", "-s", paths["src"], "-o", paths["hyp"], "--tsv")
        assert code == 0 and out.splitlines()[-1].split("\t") == [paths["hyp"], "200.00"], err  # 4 words / 2 lines
    finally:
        unregister_metric("lengths-toy")


@pytest.mark.parametrize("command, flag", [("pt-m2", "--layer"), ("pt-errant", "--layer"), ("bertscore", "--layer")])
def test_a_setting_the_metric_chooses_is_shown_as_auto_not_none(command, flag):
    """--layer unset lets the metric take the model's BERTScore layer, as its help says ("auto:
    ..."); the help's default read "none", which is no layer at all."""
    code, out, _ = run_cli(command, "--help")
    assert code == 0
    text = " ".join(out.split())
    shown = text[text.index(f"{flag} TEXT"):].split("]")[0]
    assert "(auto: " in shown and shown.endswith("[default: auto") and "[default: none" not in shown, shown


def test_every_number_option_reads_ascii_digits_only():
    """click's INT, FLOAT, IntRange and FloatRange read `-n ١` as 1 (int() takes any script's
    digits): every number option of every command uses cli/numbers.py's types instead."""
    import click

    from gecmetrics.cli import numbers

    ours = (numbers.Int, numbers.Float, numbers.IntRange, numbers.FloatRange)

    def walk(command, path):
        for param in command.params:
            if isinstance(param.type, (click.types.IntParamType, click.types.FloatParamType)):
                yield path, param.name, isinstance(param.type, ours)
        for name, sub in getattr(command, "commands", {}).items():
            yield from walk(sub, f"{path} {name}")

    from gecmetrics.cli import main

    found = []
    group = main
    for name in group.list_commands(click.Context(group)):
        found.extend(walk(group.get_command(click.Context(group), name), name))
    assert len(found) > 30 and [item for item in found if not item[2]] == []


def test_a_number_option_with_a_range_says_which_number_it_wants():
    """click's IntRange said "'1e3' is not a valid integer range", as if a range were asked for."""
    from click.testing import CliRunner

    from gecmetrics.cli import main
    from gecmetrics.cli.numbers import FloatRange, IntRange

    result = CliRunner().invoke(main, ["compare", "-s", "s", "-r", "r", "-o", "o", "--paired-bs", "1e3"])
    assert result.exit_code == 2 and "'1e3' is not a valid integer." in result.output, result.output
    assert (IntRange(min=0).name, FloatRange(min=0).name) == ("integer", "float")


def test_every_help_example_names_the_commands_own_options_and_no_placeholder_ellipsis():
    """The example lines of every --help (``gecmetric CMD ...``) take only options their command
    has (or one of its originals' spellings), and no literal ``...`` argument: meta-eval's
    examples listed ``-o AMU CAMB ...``, read as a file named ``...`` (a helper ran every example
    on the reproduction data; docs/ examples run in test_console_docs)."""
    import click
    import shlex

    checked = 0
    for path, command in every_command().items():
        code, out, _ = run_cli(*path.split(), "--help")
        assert code == 0, path
        own = {opt for param in command.params if isinstance(param, click.Option) for opt in param.opts}
        own |= set(getattr(command, "spellings", {}))
        for line in (line.strip() for line in out.splitlines()):
            if not line.startswith("gecmetric "):
                continue
            words = shlex.split(line, comments=True)[1:]
            target = words[:len(path.split())]
            if target != path.split():   # (an alias command shows the example of what it stands for)
                continue
            for word in words[len(target):]:
                assert word != "...", (path, line)
                if word.startswith("-") and word != "-" and not word.lstrip("-").replace(".", "").isdigit():
                    assert word.split("=")[0] in own, (path, word, line)
            checked += 1
    assert checked >= 30
