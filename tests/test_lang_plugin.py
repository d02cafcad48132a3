"""A language of the edit metrics from an outside package, touching no package file: registered at
run time (``register_language``) for the Python calls and ``gecmetric errant --lang toy`` in the
same process, and found through its entry point (group ``gecmetrics.languages``) by the console
script, also in worker processes (``-p 2``) and by ``m2 annotate``.

The toy language splits on whitespace, aligns with difflib's opcodes and types an edit by its
operation (``R:TOY``, ``M:TOY``, ``U:TOY``); its edits of the corpus below are hand-computed:
reference 1 replaces b by B, reference 2 deletes y; the hypothesis replaces b by B (TP) and d
by e (FP) and misses the deletion (FN): P = R = F0.5 = 0.5.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gecmetrics import EditLanguage, __version__, register_language, unregister_language
from gecmetrics.core import lang
from gecmetrics.core.lang import known_languages, language_class
from gecmetrics.errors import InputError
from tests.conftest import run_cli

TOY = '''
"""A toy language: whitespace tokens, difflib's alignment, edits typed by their operation."""
import difflib

from gecmetrics.core.lang.base import EditLanguage, TypedEdit


class ToyLanguage(EditLanguage):
    code = "toy"

    def tokenise(self, texts):
        return [tuple(text.split()) for text in texts]

    def alignments(self, orig, cor):
        return [[(tag, i1, i2, j1, j2) for tag, i1, i2, j1, j2 in
                 difflib.SequenceMatcher(None, orig, cor, autojunk=False).get_opcodes()]]

    def merge(self, alignment, orig, cor):
        return [("X", i1, i2, j1, j2) for tag, i1, i2, j1, j2 in alignment if tag != "equal"]

    def classify(self, edits, orig, cor):
        kinds = {(True, True): "R", (False, True): "M", (True, False): "U"}
        return [TypedEdit(i1, i2, kinds[(i2 > i1, j2 > j1)] + ":TOY", " ".join(cor[j1:j2]))
                for _, i1, i2, j1, j2 in edits]

    def signature_fields(self):
        return {"toy": "1"}
'''

SOURCES = ["a b c d", "x y z"]
REFERENCES = ["a B c d", "x z"]
HYPOTHESIS = ["a B c e", "x y z"]
HYPOTHESIS_M2 = ("S a b c d\nA 1 2|||R:TOY|||B|||REQUIRED|||-NONE-|||0\nA 3 4|||R:TOY|||e|||REQUIRED|||-NONE-|||0\n\n"
                 "S x y z\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n")
COMPARE_M2 = "TP\tFP\tFN\tPrec\tRec\tF0.5\n1\t1\t1\t0.5\t0.5\t0.5\n"
"""What ERRANT's compare_m2 prints for the hand-computed counts (``--errant-compare``)."""
SIGNATURE = f"ERRANT|mode:cs|beta:0.5|lang:toy|refs:annotated|toy:1|version:{__version__}"


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The toy language's package in a folder of its own, importable, with its entry point
    declared (for processes that look for installed languages), and the corpus files."""
    (tmp_path / "toy_lang.py").write_text(TOY, encoding="utf-8")
    info = tmp_path / "toy_lang-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-lang\nVersion: 0.1\n", encoding="utf-8")
    points = "[gecmetrics.languages]\ntoy = toy_lang:ToyLanguage\nbad = toy_lang:Missing\n"
    (info / "entry_points.txt").write_text(points, encoding="utf-8")
    for name, lines in (("src", SOURCES), ("ref", REFERENCES), ("hyp", HYPOTHESIS)):
        (tmp_path / name).write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(lang, "_ENTRY_POINTS", {})  # installed languages looked up again, and forgotten after
    monkeypatch.setattr(lang, "_SCANNED_ENTRY_POINTS", False)
    return tmp_path


@pytest.fixture
def registered(package: Path):
    """The toy language registered in this process (and forgotten afterwards)."""
    import toy_lang

    register_language("toy", toy_lang.ToyLanguage)
    yield toy_lang.ToyLanguage
    unregister_language("toy")


def test_python_calls_score_a_registered_language(registered):
    from gecmetrics.io.corpus import Corpus
    from gecmetrics.metrics.errant.metric import ErrantText

    assert language_class("toy") is registered and known_languages()["toy"] is registered
    metric = ErrantText(lang="toy", annotate_refs=True)
    prepared = metric.prepare(Corpus(SOURCES, [REFERENCES], {"hyp": HYPOTHESIS}))
    result = metric.score(metric.statistics(prepared, HYPOTHESIS))
    assert (result.tp, result.fp, result.fn) == (1, 1, 1)
    assert (result.precision, result.recall, result.f) == (0.5, 0.5, 0.5)
    assert str(result.signature) == SIGNATURE
    assert result.categories.keys() == {"R:TOY", "U:TOY"}


def test_errant_command_in_the_same_process(package: Path, registered):
    files = {name: str(package / name) for name in ("src", "ref", "hyp")}
    code, out, err = run_cli("--no-cache", "errant", "-s", files["src"], "-r", files["ref"], "--annotate-refs",
                             "-o", files["hyp"], "--lang", "toy", "--errant-compare")
    assert code == 0, err
    assert COMPARE_M2 in out
    code, out, err = run_cli("m2", "annotate", "-orig", files["src"], "-cor", files["hyp"], "--lang", "toy")
    assert code == 0, err
    assert out == HYPOTHESIS_M2


def test_settings_a_language_does_not_read_are_refused(registered):
    from gecmetrics.metrics.errant.metric import ErrantText

    with pytest.raises(InputError, match=r"-merge is not a setting of --lang toy \(it goes with --lang en"):
        ErrantText(lang="toy", merge="all-split")


def test_entry_point_reaches_the_console_script_and_its_workers(package: Path):
    args = ["errant", "-s", "src", "-r", "ref", "--annotate-refs", "-o", "hyp", "--lang", "toy", "--errant-compare"]
    for jobs in ("1", "2"):
        code, out, err = _gecmetric(package, "--no-cache", *args, "-p", jobs, "--chunk-lines", "1")
        assert code == 0, err
        assert COMPARE_M2 in out
    code, out, err = _gecmetric(package, "m2", "annotate", "-orig", "src", "-cor", "hyp", "--lang", "toy", "-p", "2",
                                "--chunk-lines", "1")
    assert (code, out) == (0, HYPOTHESIS_M2), err
    code, out, err = _gecmetric(package, "--no-cache", *args[:-3], "--lang", "bad")
    assert (code, out) == (2, "") and err.count("\n") == 1, err
    assert "language 'bad' of an installed package (toy_lang:Missing) cannot be loaded: AttributeError" in err


def test_register_language_checks_its_arguments(registered):
    with pytest.raises(InputError, match="already known"):
        register_language("en", registered)
    with pytest.raises(InputError, match="already known"):
        register_language("toy", registered)
    with pytest.raises(InputError, match="EditLanguage subclass"):
        register_language("abc", object)
    with pytest.raises(InputError, match="EditLanguage does not write alignments, classify, merge, tokenise"):
        register_language("abc", EditLanguage)  # (taken, and failed at the first sentence)
    with pytest.raises(InputError, match="lower-case word"):
        register_language("A B", registered)
    assert issubclass(registered, EditLanguage) and language_class("fr").__name__ == "GenericLanguage"


def _gecmetric(folder: Path, *args: str) -> tuple[int, str, str]:
    """The console script's code in ``folder`` with it on the path (as an installed package)."""
    root = str(Path(__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(folder), root])}
    done = subprocess.run([sys.executable, "-c", "from gecmetrics.cli import run; run()", *args], capture_output=True,
                          text=True, env=env, cwd=folder, timeout=600)
    return done.returncode, done.stdout, done.stderr
