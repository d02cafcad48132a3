"""spaCy is started without torch for a model that needs none (thinc imports torch when it can:
seconds of CPU and about 190 MB per process), and torch stays importable after."""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gecmetrics.core.lang.en.parse import needs_torch
from tests.conftest import SPACY_TEST_MODEL

ROOT = Path(__file__).resolve().parents[1]


def run_script(script: str) -> str:
    """What a fresh Python process prints running ``script`` with this checkout's package."""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_the_test_model_needs_no_torch(spacy_model):
    assert needs_torch(SPACY_TEST_MODEL) is False


def test_a_model_not_found_on_disk_may_need_torch():
    assert needs_torch("no_such_spacy_model_here") is True


def write_model(folder: Path, requirements: list[str], config: str) -> Path:
    (folder / "meta.json").write_text(json.dumps({"lang": "en", "name": "x", "version": "1.0.0",
                                                  "requirements": requirements, "pipeline": ["tagger"]}))
    (folder / "config.cfg").write_text(config)
    return folder


@pytest.mark.parametrize("requirements, config, expected", [
    (["spacy>=3.8.0,<3.9.0"], "[components.tok2vec.model]\n@architectures = \"spacy.Tok2Vec.v2\"\n", False),
    ([], "[components.tagger]\nfactory = \"tagger\"\n", False),
    (["spacy>=3.8.0,<3.9.0", "spacy-curated-transformers>=0.2.2,<1.0.0"], "[components.tagger]\n", True),
    (["spacy-transformers>=1.1.2"], "[components.tagger]\n", True),
    (["spacy>=3.8.0"], "[components.transformer]\nfactory = \"curated_transformer\"\n", True),
    (["spacy>=3.8.0"], "[model]\n@architectures = \"spacy.PyTorchWrapper.v1\"\n", True),
    (["spacy>=3.8.0"], "", True),  # no config: cannot tell
])
def test_needs_torch_reads_the_requirements_and_the_config(tmp_path, requirements, config, expected):
    assert needs_torch(str(write_model(tmp_path, requirements, config))) is expected


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed: nothing to avoid")
def test_the_parser_starts_without_torch_which_stays_importable(spacy_model):
    script = ("import sys\n"
              "from gecmetrics.core.lang.en.parse import SpacyModel\n"
              f"model = SpacyModel({SPACY_TEST_MODEL!r})\n"
              "parsed = model.parse(['This are a test .'])[0]\n"
              "print('torch' in sys.modules, parsed.tag)\n"
              "import thinc.compat, torch\n"
              "print(thinc.compat.has_torch, torch.zeros(2).sum().item())\n")
    first, second = run_script(script).splitlines()
    assert first.startswith("False ")
    assert first.split(" ", 1)[1] == str(spacy_model.parse(["This are a test ."])[0].tag)
    assert second == "False 0.0"


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")
def test_torch_imported_first_is_left_as_it_is(spacy_model):
    script = ("import sys, torch\n"
              "from gecmetrics.core.lang.en.parse import SpacyModel\n"
              f"SpacyModel({SPACY_TEST_MODEL!r}).parse(['A test .'])\n"
              "import thinc.compat\n"
              "print(thinc.compat.has_torch, sys.modules['torch'] is torch)\n")
    assert run_script(script).split() == ["True", "True"]
