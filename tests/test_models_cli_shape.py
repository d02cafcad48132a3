"""The commands of the model metrics, made from their settings (``gecmetric some``, ``impara``,
``scribendi``, ``bertscore``) or hand-written (``pt-m2``, ``llm-s``), with the tiny seeded models:
corpus scores equal to ``compare``'s (JSON, x100), one score per sentence with --sentence equal
to the library's, the same table with --tsv, --quiet and -p 2 (each test on a cache of its own)."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import one_line_error, run_cli, write_files
from tests.test_cli_shape import (GOLD, HYP_A, HYP_B, MODEL_COMMANDS, REF0, REF1, SOURCE, SYS_A, SYS_B,
                                  check_json_vocabulary, check_paired_json, command_options)
from tests.test_models_scribendi_bertscore_metrics import own_cache  # noqa: F401 (autouse: a cache per test)

from gecmetrics.io.corpus import read_corpus, read_m2_corpus
from gecmetrics.metrics.registry import get_metric
from gecmetrics.run.engine import score_corpus

pytest.importorskip("torch", reason="the model metrics need torch and transformers (pip install 'gecmetrics[pt]')")
pytest.importorskip("transformers", reason="the model metrics need torch and transformers")

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    import torch

    from gecmetrics.core.models.tiny import build_tiny_bert
    from gecmetrics.core.models.tiny_bert_heads import build_impara_models, build_some_models
    from gecmetrics.core.models.tiny_gpt2 import build_tiny_gpt2

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    folder = tmp_path_factory.mktemp("tiny-models")
    build_some_models(folder / "some")
    build_impara_models(folder / "impara")
    build_tiny_gpt2(folder / "gpt2")
    build_tiny_bert(folder / "bert" / "bert-base-uncased")
    yield {"some": folder / "some", "impara": folder / "impara", "gpt2": folder / "gpt2",
           "bert": folder / "bert" / "bert-base-uncased"}
    torch.set_num_threads(threads)


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    return write_files(tmp_path, {"src": SOURCE, "ref0": REF0, "ref1": REF1, "a": SYS_A, "b": SYS_B, "gold.m2": GOLD,
                                  "a.m2": HYP_A, "b.m2": HYP_B})


def settings_of(name: str, models: dict[str, Path]) -> dict[str, str]:
    """The tiny model's settings of each metric (the setting names, as --metrics takes them)."""
    return {"some": {"model": str(models["some"]), "tokenizer": str(models["some"] / "grammer"), "device": "cpu",
                     "threads": "1"},
            "impara": {"model": str(models["impara"] / "qe"), "se_model": str(models["impara"] / "se"),
                       "device": "cpu", "threads": "1"},
            "scribendi": {"model": str(models["gpt2"]), "device": "cpu", "threads": "1"},
            "bertscore": {"model": str(models["bert"]), "num_layers": "9", "device": "cpu", "threads": "1"},
            "pt-m2": {"model": str(models["bert"]), "num_layers": "9", "baseline": "bert-base-uncased",
                      "device": "cpu", "threads": "1"},
            "pt-errant": {"model": str(models["bert"]), "num_layers": "9", "baseline": "bert-base-uncased",
                          "device": "cpu", "threads": "1"}}[name]


def flags_of(settings: dict[str, str]) -> list[str]:
    flag = {"num_layers": "--layer", "se_model": "--se-model"}
    return [part for key, value in settings.items() for part in (flag.get(key, f"--{key}"), value)]


@pytest.mark.parametrize("name", ["some", "impara", "scribendi", "bertscore", "pt-m2"])
def test_model_metric_commands(name, models, files):
    settings = settings_of(name, models)
    if name == "pt-m2":
        inputs = ["-s", files["gold.m2"], "-o", files["a"], files["b"]]
        corpus = read_m2_corpus(files["gold.m2"], [files["a"], files["b"]])
    else:
        references = [files["ref0"], files["ref1"]] if name == "bertscore" else []
        inputs = ["-s", files["src"], *(["-r", *references] if references else []), "-o", files["a"], files["b"]]
        corpus = read_corpus(files["src"], references, [files["a"], files["b"]])
    command = [name, *inputs, *flags_of(settings)]
    metric = get_metric(name, **settings)
    scored = score_corpus([metric], corpus)
    code, out, err = run_cli(*command, "--json")
    assert code == 0, err
    data = json.loads(out)
    check_json_vocabulary(data, [files["a"], files["b"]])
    assert data[0]["labels"] == metric.column_labels()
    scale = 100 if metric.fraction else 1
    for item, system in zip(data, (files["a"], files["b"])):
        assert np.allclose(item["scores"], scale * np.asarray(scored.result(system, 0).scores, dtype=float)), item
    code, sentence, err = run_cli(*command, "--sentence", "--tsv", "-d", "8")
    assert code == 0, err
    rows = [line.split("\t") for line in sentence.splitlines()]
    column = 1 if rows[0][0] == "sentence" else 4  # pt-m2's own table: system, sentence, P, R, F, annotator
    matrix = metric.sentence_matrix(scored.statistics[files["a"]][0])
    first = [float(row[column]) for row in rows[1:] if rows[0][0] == "sentence" or row[0] == files["a"]]
    assert np.allclose(first, scale * matrix[0], atol=1e-6), (rows, matrix)
    code, tsv, err = run_cli(*command, "--tsv", "--quiet")
    assert code == 0 and tsv.splitlines()[0].startswith("system\t"), err
    if not metric.fraction:  # Scribendi's sums print as they are: --scale 1 changed only -d's default
        assert f"--scale: 1 would change nothing: the scores of {name} are not fractions" in one_line_error(
            *command, "--scale", "1")
    # two workers (forked from this process, which has torch already; no cache, so that they
    # compute) print what one process printed. The console script's own two workers run in
    # test_console_script_in_two_processes of test_models_metrics (SOME, IMPARA) and of
    # test_models_scribendi_bertscore_metrics (Scribendi, BERTScore), and in test_cache_pt's
    # test_workers_fill_one_cache_and_the_signature_says_so (PT-M2)
    assert run_cli("--no-cache", *command, "--tsv", "--quiet", "-p", "2") == (0, tsv, "")


@pytest.mark.parametrize("name", MODEL_COMMANDS)
def test_model_commands_speak_the_one_json_vocabulary(name, models, files):
    """--sentence and the paired test's JSON of the model commands (pt-m2/pt-errant --sentence
    printed each system's `sentences` alone: no scores, no signature; BERTScore's an object per
    column), as tests/test_cli_shape.py checks the others'."""
    inputs = {"pt-m2": ["-s", files["gold.m2"], "-o", files["a"], files["b"]],
              "pt-errant": ["-hyp", files["a.m2"], files["b.m2"], "-ref", files["gold.m2"]],
              "bertscore": ["-s", files["src"], "-r", files["ref0"], files["ref1"], "-o", files["a"], files["b"]]
              }.get(name, ["-s", files["src"], "-o", files["a"], files["b"]])
    systems = [files["a.m2"], files["b.m2"]] if name == "pt-errant" else [files["a"], files["b"]]
    command = [name, *inputs, *flags_of(settings_of(name, models))]
    for mode, extra in (("corpus", []), ("sentence", ["--sentence"])):
        code, out, err = run_cli(*command, "--json", *extra)
        assert code == 0, (name, err)
        check_json_vocabulary(json.loads(out), systems, mode, len(SOURCE))
    assert "--paired-bs" in command_options([name])
    code, out, err = run_cli(*command, "--json", "--paired-bs", "50")
    assert code == 0, (name, err)
    check_paired_json(json.loads(out), systems)


def test_llm_s_is_llm_variant_s(models, files, tmp_path):
    from tests.test_llm_local import support

    folder = support.build_tiny_gpt2(tmp_path / "tiny-gpt2")
    common = ["-s", files["src"], "-o", files["a"], files["b"], "--model", f"transformers:{folder}", "--device", "cpu"]
    code, out, err = run_cli("llm-s", *common, "--tsv", "--chunk-lines", "2")
    assert code == 0 and out.splitlines()[0] == "system\tLLM-S\tscored\tunscored", err
    assert run_cli("llm", "--variant", "s", *common)[1] == out
    # two workers (forked from this process, which has torch already; no cache, so that they
    # compute) print what one process printed (the console script's own two workers with a judge:
    # test_llm_metric's test_console_script_in_two_processes)
    code, parallel, err = run_cli("--no-cache", "llm-s", *common, "--tsv", "--chunk-lines", "2", "-p", "2")
    assert (code, parallel) == (0, out), err
