"""GLEU+ against the PyPI package gleu 1.1.0 (run in its own virtualenv) for the settings the
expected files do not cover: characters, another n, sentence and mean modes."""
from __future__ import annotations

import subprocess

import pytest
from click.testing import CliRunner

from gecmetrics.cli import main
from tests.conftest import peer_virtualenv

REQUIREMENT = "gleu==1.1.0"
CHECK = "import importlib.metadata as m, gleu.main; assert m.version('gleu') == '1.1.0'"


@pytest.fixture(scope="module")
def peer(conll14):
    return peer_virtualenv("gleu", REQUIREMENT, CHECK)


def run_peer(python, command: str, args: list[str], cwd) -> str:
    code = f"import sys; from gleu.main import {command}; sys.argv = ['{command}'] + sys.argv[1:]; {command}()"
    done = subprocess.run([str(python), "-c", code, *args], capture_output=True, text=True, cwd=cwd, check=True)
    return done.stdout


def run_ours(args: list[str], cwd, monkeypatch) -> str:
    monkeypatch.chdir(cwd)
    result = CliRunner().invoke(main, ["gleu", *args])
    assert result.exit_code == 0, result.stderr
    return result.stdout


CASES = [  # (peer command, peer options, our options)
    ("gleu", ["-t", "char", "-m"], ["-t", "char", "-m"]),
    ("gleu", ["-t", "char", "-f", "-i", "30"], ["-t", "char", "-f", "-i", "30"]),
    ("gleu", ["-n", "2", "-m"], ["-n", "2", "-m"]),
    ("gleu", ["-n", "6", "-f", "-i", "30"], ["-n", "6", "-f", "-i", "30"]),
    ("mgleu", ["-t", "char", "-m"], ["-t", "char", "-m", "--mean"]),
    ("mgleu", ["-n", "3"], ["-n", "3", "--mean"]),
    ("sgleu", ["-t", "char"], ["-t", "char", "--sentence"]),
    ("sgleu", ["-n", "2", "-m"], ["-n", "2", "-m", "--sentence"]),
]


@pytest.mark.parametrize("command,peer_options,our_options", CASES)
def test_same_output_as_the_gleu_package(peer, conll14, monkeypatch, command, peer_options, our_options):
    common = ["-s", "INPUT", "-r", "REF0", "REF1", "-o", "AMU", "CAMB", "-d", "6"]
    expected = run_peer(peer, command, common + peer_options, conll14)
    assert expected.strip()
    assert run_ours(common + our_options, conll14, monkeypatch) == expected


@pytest.mark.parametrize("command,peer_options,our_options", [("gleu", ["-m", "-v"], ["-m", "-v"]),
                                                              ("sgleu", ["-v"], ["--sentence", "-v"])])
def test_verbose_tables_to_the_last_digit(peer, tmp_path, monkeypatch, command, peer_options, our_options):
    """The BP column at -d 15: the package prints np.exp of the log BP, whose last digits math.exp
    did not always give (exp(1 - 11/7): ...775915 against ...775930)."""
    (tmp_path / "src").write_text("a b c d e f g\n", encoding="utf-8")
    (tmp_path / "ref").write_text("a b c d e f g h i j k\n", encoding="utf-8")
    (tmp_path / "hyp").write_text("a b c d e f g\n", encoding="utf-8")
    common = ["-s", "src", "-r", "ref", "-o", "hyp", "-d", "15"]
    expected = run_peer(peer, command, common + peer_options, tmp_path)
    assert "56.471812200775915" in expected
    assert run_ours(common + our_options, tmp_path, monkeypatch) == expected
