"""Loading a model goes wrong in one line, at once (issue 33): a folder holding another
architecture is named with what was expected, with none of transformers' load report; a hub name
that is not on disk fails after one look at the hub (no retries), or none with HF_HUB_OFFLINE,
naming HF_HUB_OFFLINE and the folder option; a hub name in the Hugging Face cache loads from it
without the network; a folder whose config.json contradicts its weights (sizes, layer count) is
one line naming what does not match, not a number from the forward passes written from weights.
The hub is a server on the loopback interface that counts connections."""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tests.conftest import run_gecmetric, write_files

ROOT = Path(__file__).resolve().parent.parent
GUARD_SECONDS = 300
"""A generous bound on each subprocess, so that a hang fails the test instead of stalling it."""


class CountingHub:
    """A TCP server on 127.0.0.1 that counts connections and closes each at once (what a hub
    that cannot be reached looks like to a client that does not retry: one failed request)."""

    def __init__(self) -> None:
        self.socket = socket.create_server(("127.0.0.1", 0))
        self.socket.settimeout(0.2)
        self.connections = 0
        self.running = True
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.socket.getsockname()[1]}"

    def _serve(self) -> None:
        while self.running:
            try:
                connection, _ = self.socket.accept()
            except OSError:
                continue
            self.connections += 1
            connection.close()

    def close(self) -> None:
        self.running = False
        self.thread.join(timeout=5)
        self.socket.close()


@pytest.fixture()
def hub():
    """A local stand-in for the Hugging Face hub that counts connections. The look-up under test
    is huggingface_hub's (installed with transformers, not with the test extra): without it a
    hub name is handed to transformers as given, and these tests skip."""
    pytest.importorskip("huggingface_hub", reason="huggingface_hub is installed with transformers ([models])")
    server = CountingHub()
    yield server
    server.close()


def run_python(code: str, tmp_path: Path, hub: CountingHub, **env: str) -> subprocess.CompletedProcess:
    environment = {key: value for key, value in os.environ.items() if not key.startswith(("HF_", "TRANSFORMERS_"))}
    environment.update(PYTHONPATH=str(ROOT), HF_HOME=str(tmp_path / "hf"), HF_ENDPOINT=hub.endpoint, **env)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=environment,
                          timeout=GUARD_SECONDS)


LOOK_UP = ("from gecmetrics.core.models.loading import model_source\nfrom gecmetrics.errors import InputError\n"
           "try:\n    print(model_source('someorg/some-model'))\nexcept InputError as error:\n    print(error)\n")


def test_a_model_not_on_disk_is_one_look_at_an_unreachable_hub(tmp_path: Path, hub: CountingHub) -> None:
    done = run_python(LOOK_UP, tmp_path, hub)
    assert done.returncode == 0, done.stderr
    message = done.stdout.strip()
    assert message.startswith("someorg/some-model: no such model folder, nor a model of that name in the Hugging "
                              "Face cache, and the Hugging Face hub cannot be reached"), message
    assert "--model DIR" in message and "HF_HUB_OFFLINE=1" in message and "\n" not in message
    # one request (the HTTP client may reconnect once at once); transformers' own lookup makes 4
    # here, waiting between them with backoff (about 10 s; 52 s when the name does not resolve)
    assert 1 <= hub.connections <= 2


def test_a_model_not_on_disk_with_hf_hub_offline_asks_nothing(tmp_path: Path, hub: CountingHub) -> None:
    done = run_python(LOOK_UP, tmp_path, hub, HF_HUB_OFFLINE="1")
    assert done.returncode == 0, done.stderr
    assert "HF_HUB_OFFLINE is set, so it is not downloaded: give the model's folder" in done.stdout
    assert hub.connections == 0


def test_a_cached_hub_model_loads_without_the_network(tmp_path: Path, hub: CountingHub) -> None:
    """A name in the cache is read from its snapshot (its commit in a signature), offline or
    not; the scores are the folder's."""
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from gecmetrics.core.models.tiny_bert_heads import build_impara_models

    build_impara_models(tmp_path / "models")
    commit = "0123456789abcdef0123456789abcdef01234567"
    repository = tmp_path / "hf" / "hub" / "models--someorg--tiny-qe"
    shutil.copytree(tmp_path / "models" / "qe", repository / "snapshots" / commit)
    (repository / "refs").mkdir()
    (repository / "refs" / "main").write_text(commit)
    code = ("from gecmetrics.metrics.models.impara import IMPARAScorer\n"
            "from gecmetrics.core.models.loading import model_source\n"
            "print(model_source('someorg/tiny-qe'))\n"
            f"lines = ['This are a test .', 'Another one here .']\n"
            "print(IMPARAScorer('someorg/tiny-qe', threshold=None, device='cpu').sentence_scores(lines, lines).tolist())\n"
            f"print(IMPARAScorer({str(tmp_path / 'models' / 'qe')!r}, threshold=None, device='cpu')"
            ".sentence_scores(lines, lines).tolist())\n")
    done = run_python(code, tmp_path, hub)
    assert done.returncode == 0, done.stderr[-2000:]
    source, by_name, by_folder = done.stdout.strip().splitlines()
    assert source == str(repository / "snapshots" / commit)
    assert by_name == by_folder
    assert hub.connections == 0


@pytest.mark.parametrize("metric, folder, expected", [
    ("impara:model={gpt2}:se_model={bert}/se", "gpt2", "not a one-output sequence classifier .*: the folder holds a "
                                                        "GPT2LMHeadModel, and 1 weight it needs is not in the checkpoint"),
    ("scribendi:model={bert}/qe", "bert/qe", "not a causal language model .*: the folder holds a "
                                              "BertForSequenceClassification, and 6 weights"),
    ("bertscore:model={gpt2}:layer=1", "gpt2", "BERTScore needs an encoder"),
])
def test_a_model_of_another_architecture_is_one_line(tmp_path: Path, hub: CountingHub, metric: str, folder: str,
                                                      expected: str) -> None:
    """No load report, no advice on tied weights: exit 2 and one line naming the folder and what
    the metric expected."""
    import re

    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from gecmetrics.core.models.tiny_bert_heads import build_impara_models
    from gecmetrics.core.models.tiny_gpt2 import build_tiny_gpt2

    build_impara_models(tmp_path / "bert")
    build_tiny_gpt2(tmp_path / "gpt2")
    paths = write_files(tmp_path, {"SRC": ["A b c .", "D e ."], "HYP": ["A b c .", "D e f ."]})
    text = metric.format(gpt2=tmp_path / "gpt2", bert=tmp_path / "bert")
    done = run_gecmetric(["--no-cache", "compare", "-s", paths["SRC"], "-r", paths["SRC"], "-o", paths["HYP"],
                          "--metrics", text], capture_output=True, text=True, timeout=GUARD_SECONDS)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and done.stdout == "" and len(lines) == 1, done.stderr
    assert lines[0].startswith(f"gecmetric: error: {tmp_path / folder}: ") and re.search(expected, lines[0]), lines[0]


@pytest.fixture(scope="module")
def tiny_folders(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny BERT (BERTScore, PT-M2), IMPARA's tiny regressor and encoder, and the tiny GPT-2."""
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from gecmetrics.core.models.tiny import build_tiny_bert
    from gecmetrics.core.models.tiny_bert_heads import build_impara_models
    from gecmetrics.core.models.tiny_gpt2 import build_tiny_gpt2

    folder = tmp_path_factory.mktemp("tiny")
    build_tiny_bert(folder / "bert")
    build_impara_models(folder / "impara")
    build_tiny_gpt2(folder / "gpt2")
    return folder


CONTRADICTIONS = [  # (the folder copied, the metric, what config.json is made to say, the line's end)
    ("bert", "bertscore:model={model}:layer=2", {"hidden_size": 128},
     "hidden_size is 128 in config.json, 64 in the weights (embeddings.word_embeddings.weight is 660x64)"),
    ("bert", "bertscore:model={model}:layer=2", {"num_hidden_layers": 14},  # layer 2 exists: all 14 were not read
     "num_hidden_layers is 14 in config.json, the weights hold 12 layers"),
    ("bert", "bertscore:model={model}:layer=2", {"max_position_embeddings": 1024},
     "max_position_embeddings is 1024 in config.json, 512 in the weights"),
    ("bert", "bertscore:model={model}:layer=2", {"vocab_size": None},
     "vocab_size is 30522 in config.json (not set: transformers' default), 660 in the weights"),
    ("impara/qe", "impara:model={model}:se_model={folder}/impara/se", {"intermediate_size": 256},
     "intermediate_size is 256 in config.json, 128 in the weights (encoder.layer.0.intermediate.dense.weight is "
     "128x64)"),
    ("impara/qe", "impara:model={model}:se_model={folder}/impara/se", {"num_hidden_layers": 5},
     "num_hidden_layers is 5 in config.json, the weights hold 4 layers"),
    ("impara/se", "impara:model={folder}/impara/qe:se_model={model}", {"hidden_size": 32},
     "hidden_size is 32 in config.json, 64 in the weights"),
    ("gpt2", "scribendi:model={model}", {"n_embd": 128}, "n_embd is 128 in config.json, 64 in the weights"),
    ("gpt2", "scribendi:model={model}", {"n_layer": 3}, "n_layer is 3 in config.json, the weights hold 2 layers"),
    ("gpt2", "scribendi:model={model}", {"n_inner": 100},
     "n_inner is 100 in config.json, 256 in the weights (h.0.mlp.c_fc.weight is 64x256)"),
]


@pytest.mark.parametrize("copied, metric, change, expected", CONTRADICTIONS,
                         ids=[f"{c[0]}-{','.join(c[2])}" for c in CONTRADICTIONS])
def test_a_config_that_contradicts_its_weights_is_one_line(tiny_folders: Path, tmp_path: Path, copied: str,
                                                             metric: str, change: dict, expected: str) -> None:
    """The forward passes written from weights read their sizes from the weights: a config.json
    that says other sizes (or more layers than the weights hold) gave a number from a model
    transformers refuses to load (weights missing or of other shapes). Now exit 2 and one line
    naming the folder and what does not match."""
    import json

    from tests.conftest import one_line_error

    model = tmp_path / "model"
    shutil.copytree(tiny_folders / copied, model)
    config = json.loads((model / "config.json").read_text(encoding="utf-8"))
    config.update(change)
    (model / "config.json").write_text(json.dumps({k: v for k, v in config.items() if v is not None}),
                                       encoding="utf-8")
    paths = write_files(tmp_path, {"SRC": ["A b c .", "D e ."], "HYP": ["A b c .", "D e f ."]})
    spec = metric.format(model=model, folder=tiny_folders) + ":device=cpu"
    err = one_line_error("--no-cache", "compare", "-s", paths["SRC"], "-r", paths["SRC"], "-o", paths["HYP"],
                         "--metrics", spec)
    assert err.startswith(f"gecmetric: error: {model}: cannot load the model: config.json does not match the "
                          "weights: ") and expected in err, err


def test_some_with_a_tokenizer_that_is_not_wordpiece_says_so(tiny_folders: Path, tmp_path: Path) -> None:
    """SOME loads transformers' Python BertTokenizer, which reads vocab.txt: a GPT-2 folder as
    its tokenizer said ``no usable tokenizer: stat: path should be string, bytes, os.PathLike or
    integer, not NoneType``. Now the line says the folder has no vocab.txt."""
    from tests.conftest import one_line_error
    from gecmetrics.core.models.tiny_bert_heads import build_some_models

    build_some_models(tmp_path / "some")
    paths = write_files(tmp_path, {"SRC": ["A b c .", "D e ."], "HYP": ["A b c .", "D e f ."]})
    err = one_line_error("--no-cache", "some", "-s", paths["SRC"], "-o", paths["HYP"], "--model",
                         str(tmp_path / "some"), "--tokenizer", str(tiny_folders / "gpt2"), "--device", "cpu")
    assert err.strip() == (f"gecmetric: error: {tiny_folders / 'gpt2'}: no usable tokenizer: the folder has no "
                           "vocab.txt, so it is not a BERT WordPiece tokenizer (what this metric's original loads, "
                           "BertTokenizer)")
