"""``gecmetric pt-m2`` and ``pt-errant`` with the tiny BERT: what they print equals the library's
numbers (corpus and sentence level, JSON, per-sentence rows, signature), paired tests run, PT-M2
works in ``compare`` and ``meta-eval``, and bad input (missing extra, missing or unreadable
model, a model without tokenizer, bad options and files) is one line and exit code 2."""
from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from tests._pt_support import GOLD, HYPOTHESIS, TINY_SETTINGS, require_backend, tiny_model  # noqa: F401
from tests._pt_support import tiny_options, tiny_spec
from tests.conftest import one_line_error, run_cli

require_backend()

from gecmetrics.io.m2 import parse_m2  # noqa: E402
from gecmetrics.run.engine import corpus_for, score_corpus  # noqa: E402
from gecmetrics.metrics.pt import PTErrant, PTM2  # noqa: E402
from gecmetrics.core.table import round_half_up  # noqa: E402

SOURCES = [" ".join(block.tokens) for block in parse_m2(GOLD, "gold")]
OTHER = ["This is one sentence .", "He went to school yesterday .", "Nothing to do here .",
         "The people in the city are happy !"]
REFERENCE_M2 = {  # ERRANT-style M2 files of two coders, written one per coder and combined
    "ref0.m2": "S He go to school .\nA 1 2|||R:VERB|||went|||REQUIRED|||-NONE-|||0\n\n"
               "S A cat sat .\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n",
    "ref1.m2": "S He go to school .\nA 1 2|||R:VERB|||goes|||REQUIRED|||-NONE-|||0\n\n"
               "S A cat sat .\nA 0 1|||R:DET|||The|||REQUIRED|||-NONE-|||0\n",
    "refs.m2": "S He go to school .\nA 1 2|||R:VERB|||went|||REQUIRED|||-NONE-|||0\n"
               "A 1 2|||R:VERB|||goes|||REQUIRED|||-NONE-|||1\n\n"
               "S A cat sat .\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n"
               "A 0 1|||R:DET|||The|||REQUIRED|||-NONE-|||1\n",
    "hyp.m2": "S He go to school .\nA 1 2|||R:VERB|||goes|||REQUIRED|||-NONE-|||0\n\n"
              "S A cat sat .\nA 0 1|||R:DET|||The|||REQUIRED|||-NONE-|||0\n",
    "copy.m2": "S He go to school .\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n"
               "S A cat sat .\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n",
}


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("pt-cli")
    texts = {"gold.m2": GOLD, "sys": "\n".join(HYPOTHESIS) + "\n", "copy": "\n".join(SOURCES) + "\n",
             "other": "\n".join(OTHER) + "\n", "short": "\n".join(HYPOTHESIS[:3]) + "\n",
             "human.tsv": "system\thuman\nsys\t0.9\nother\t0.6\ncopy\t0.1\n",
             "swapped.m2": "S A cat sat .\n\nS He go to school .\n", **REFERENCE_M2}
    paths = {}
    for name, text in texts.items():
        (folder / name).write_text(text, encoding="utf-8")
        paths[name] = str(folder / name)
    return paths


def library(kind, blocks, systems, **settings):
    """The library's results of each system (as the commands must print them)."""
    metric = kind(**settings)
    scored = score_corpus([metric], corpus_for([metric], None, blocks, systems))
    return metric, {name: scored.result(name, 0) for name in systems}


def test_pt_m2_prints_the_library_scores_and_signature(files, tiny_model) -> None:
    code, out, err = run_cli("pt-m2", "-s", files["gold.m2"], "-o", files["sys"], files["copy"],
                             *tiny_options(tiny_model), "--signature",
                             "--scale", "1")
    assert code == 0, err
    metric, results = library(PTM2, parse_m2(GOLD, "gold"), {"sys": HYPOTHESIS, "copy": SOURCES},
                              model=str(tiny_model), **TINY_SETTINGS)
    rows = [line.split("\t") for line in out.splitlines()]
    assert rows[0] == ["system", "precision (fraction)", "recall (fraction)", "f0.5 (fraction)"]
    for row, (name, result) in zip(rows[1:], results.items()):
        assert row == [files[name], *(round_half_up(x, 4) for x in (result.precision, result.recall, result.f))]
    assert err.strip() == str(metric.signature) and "|model:" in err and "|rev:sha256:" in err
    # a Markdown table carries its signature below it, as every command's (it printed none)
    code, out, err = run_cli("pt-m2", "-s", files["gold.m2"], "-o", files["sys"], *tiny_options(tiny_model),
                             "--markdown")
    assert code == 0 and out.rstrip().endswith(f"* `{metric.signature}`"), (out, err)


def test_corpus_level_json_and_sentence_rows(files, tiny_model) -> None:
    options = [*tiny_options(tiny_model), "--level", "corpus", "--scale", "1"]
    code, out, err = run_cli("pt-m2", "-s", files["gold.m2"], "-o", files["sys"], *options, "--json")
    assert code == 0, err
    metric, results = library(PTM2, parse_m2(GOLD, "gold"), {"sys": HYPOTHESIS}, model=str(tiny_model),
                              level="corpus", **TINY_SETTINGS)
    data = json.loads(out)[0]
    assert data["f"] == results["sys"].f and data["level"] == "corpus" and data["settings"]["level"] == "corpus"
    assert list(data["weights"].values()) == list(results["sys"].totals)
    code, out, err = run_cli("pt-m2", "-s", files["gold.m2"], "-o", files["sys"], *options, "--sentence")
    assert code == 0, err
    rows = [line.split("\t") for line in out.splitlines()]
    sentences = metric.sentence_from_statistics(score_corpus(
        [metric], corpus_for([metric], None, parse_m2(GOLD, "gold"), {"sys": HYPOTHESIS})).statistics["sys"][0])
    assert rows[0] == ["system", "sentence", "precision (fraction)", "recall (fraction)", "f0.5 (fraction)",
                       "annotator"] and len(rows) == 5
    assert [row[4] for row in rows[1:]] == [round_half_up(f, 4) for f in sentences.scores]
    assert [row[5] for row in rows[1:]][3] == "0"
    code, out, err = run_cli("pt-m2", "-s", files["gold.m2"], "-o", files["sys"], *options, "--sentence", "--json")
    [data] = json.loads(out)  # the one JSON vocabulary: its one column's sentence scores, then each sentence's
    assert data["scores"] == [sentences.scores.tolist()] and data["labels"] == metric.column_labels()
    assert [s["f"] for s in data["sentences"]] == sentences.scores.tolist() and "|sentences:each|" in data["signature"]


@pytest.mark.parametrize("level", ["sentence", "corpus"])
def test_paired_tests(files, tiny_model, level: str) -> None:
    args = ["pt-m2", "-s", files["gold.m2"], "-o", files["copy"], files["sys"], files["other"],
            *tiny_options(tiny_model), "--level", level, "--scale", "1"]
    code, out, err = run_cli(*args, "--paired-bs", "200")
    assert code == 0, err
    assert "Paired bootstrap resampling (200 resamples, seed 0): PT-M2 F0.5" in out and "baseline" in out
    code, out, err = run_cli(*args, "--paired-ar", "100", "--json")
    assert code == 0, err
    result = json.loads(out)[0]
    _, results = library(PTM2, parse_m2(GOLD, "gold"), {"copy": SOURCES, "sys": HYPOTHESIS}, model=str(tiny_model),
                         level=level, **TINY_SETTINGS)
    assert [s["score"] for s in result["systems"][:2]] == pytest.approx([results["copy"].f, results["sys"].f])
    assert result["signature"].startswith(f"PT-M2|level:{level}|") and "|test:paired-ar|" in result["signature"]


def test_pt_errant_reads_one_combined_or_several_reference_files(files, tiny_model) -> None:
    base = ["pt-errant", "-hyp", files["hyp.m2"], files["copy.m2"], *tiny_options(tiny_model), "--scale", "1"]
    code, combined, err = run_cli(*base, "-ref", files["refs.m2"], "--level", "corpus")
    assert code == 0, err
    code, merged, err = run_cli(*base, "-ref", files["ref0.m2"], files["ref1.m2"], "--level", "corpus")
    assert code == 0, err
    assert merged == combined
    _, results = library(PTErrant, parse_m2(REFERENCE_M2["refs.m2"], "refs"),
                         {"hyp": parse_m2(REFERENCE_M2["hyp.m2"], "hyp")}, model=str(tiny_model), level="corpus",
                         **TINY_SETTINGS)
    assert combined.splitlines()[1].split("\t")[3] == round_half_up(results["hyp"].f, 4)
    assert results["hyp"].f == 1.0  # each hypothesis edit is one coder's


def test_scale_options_print_the_same_numbers(files, tiny_model) -> None:
    """-p and --chunk-lines (the shared scale options) change nothing in what either command prints."""
    runs = {"pt-m2": ["pt-m2", "-s", files["gold.m2"], "-o", files["sys"], files["copy"]],
            "pt-errant": ["pt-errant", "-hyp", files["hyp.m2"], files["copy.m2"], "-ref", files["refs.m2"]]}
    for command, args in runs.items():
        code, whole, err = run_cli(*args, *tiny_options(tiny_model), "-d", "6")
        assert code == 0, err
        code, chunked, err = run_cli(*args, *tiny_options(tiny_model), "-d", "6", "--chunk-lines", "1", "-p", "2")
        assert code == 0, err
        assert chunked == whole, command
    code, on_dask, err = run_cli(*runs["pt-errant"], *tiny_options(tiny_model), "-d", "6", "--dask", "local")
    assert code == 0 and on_dask == run_cli(*runs["pt-errant"], *tiny_options(tiny_model), "-d", "6")[1], err


def test_dask_path_gives_the_local_statistics(files, tiny_model) -> None:
    """pt-m2's chunks read by the workers of a local Dask cluster: the metric travels pickled,
    and the statistics are those of one process."""
    pytest.importorskip("distributed", reason="the Dask executor needs gecmetrics[dask]")
    from gecmetrics.run.engine import score_files
    from gecmetrics.run.executors import DaskExecutor
    from gecmetrics.run.files import CorpusFiles

    metric = PTM2(model=str(tiny_model), **TINY_SETTINGS)
    _, results = library(PTM2, parse_m2(GOLD, "gold"), {"sys": HYPOTHESIS}, model=str(tiny_model), **TINY_SETTINGS)
    with DaskExecutor("local", 1) as executor:
        scored = score_files([metric], CorpusFiles(None, (), (files["sys"],), files["gold.m2"]), executor=executor,
                             chunk_lines=1)
    assert scored.result(files["sys"], 0).f == results["sys"].f


def test_compare_and_meta_eval_take_pt_m2(files, tiny_model) -> None:
    specs = [tiny_spec(tiny_model), tiny_spec(tiny_model, level="corpus")]
    code, out, err = run_cli("compare", "-s", files["copy"], "-r", files["sys"], "-o", files["sys"], files["copy"],
                             "--m2", files["gold.m2"], "--metrics", ",".join(specs), "--json")
    assert code == 0, err
    data = json.loads(out)
    assert [c["label"] for c in data["columns"]] == [f"PT-M2 F0.5 {tiny_model.name} L9",
                                                     f"PT-M2 F0.5 corpus {tiny_model.name} L9"]
    _, results = library(PTM2, parse_m2(GOLD, "gold"), {"sys": HYPOTHESIS}, model=str(tiny_model),
                         level="corpus", **TINY_SETTINGS)
    assert data["rows"][0]["scores"][data["columns"][1]["label"]] == pytest.approx(100 * results["sys"].f)
    assert data["columns"][1]["signature"] == results["sys"].signature
    code, out, err = run_cli("meta-eval", "--human", files["human.tsv"], "-s", files["copy"], "-r", files["sys"],
                             "-o", files["sys"], files["other"], files["copy"], "--metrics", specs[0],
                             "--m2", files["gold.m2"], "--json")
    assert code == 0, err
    correlation = json.loads(out)["correlations"][0]
    assert correlation["metric"].startswith("PT-M2 F0.5") and correlation["n"] == 3


def test_missing_extra_is_one_line(files, tiny_model, fresh_resources, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("torch", "transformers"):
        monkeypatch.setitem(sys.modules, name, None)
    error = one_line_error("pt-m2", "-s", files["gold.m2"], "-o", files["sys"], *tiny_options(tiny_model))
    assert "need torch and transformers" in error and "pip install 'gecmetrics[pt]'" in error


@pytest.mark.parametrize("case, message", [
    ("missing", "no such model folder"), ("corrupt", "cannot load the model"),
    ("no-tokenizer", "no usable tokenizer"), ("no-layer-default", "no default layer is known"),
])
def test_bad_models_are_one_line(files, tiny_model, tmp_path: Path, case: str, message: str) -> None:
    folder = tmp_path / "model"
    if case != "missing":
        shutil.copytree(tiny_model, folder)
    if case == "corrupt":
        (folder / "model.safetensors").write_bytes(b"\0" * 100)
    elif case == "no-tokenizer":
        for name in ("vocab.txt", "tokenizer_config.json", "special_tokens_map.json"):
            (folder / name).unlink(missing_ok=True)
    layer = [] if case == "no-layer-default" else ["--layer", "9"]
    error = one_line_error("pt-m2", "-s", files["gold.m2"], "-o", files["sys"], "--model", str(folder), *layer,
                           "--baseline", "bert-base-uncased")
    assert message in error


@pytest.mark.parametrize("extra, message", [
    (["--device", "tpu"], "--device must be"), (["--level", "document"], "--level must be one of"),
    (["-b", "-1"], "-b/--beta must be a number >= 0"), (["--batch-size", "0"], "--batch-size must be"),
    (["--sentence", "--paired-bs", "10"], "--sentence does not go with"), (["--layer", "x"], "--layer must be"),
    (["--baseline", "/no/such.tsv"], "/no/such.tsv: cannot read the baseline file"),
    (["--baseline", "roberta-base"], "no rescaling baseline known for 'roberta-base'"),
])
def test_bad_options_are_one_line(files, tiny_model, extra: list[str], message: str) -> None:
    tiny = tiny_options(tiny_model)
    given = {extra[0]} & {tiny[k] for k in range(0, len(tiny), 2)}
    tiny = [part for k in range(0, len(tiny), 2) if tiny[k] not in given for part in tiny[k:k + 2]]
    args = ["pt-m2", "-s", files["gold.m2"], "-o", files["sys"], files["copy"], *tiny, *extra]  # each option once
    assert message in one_line_error(*args)


def test_bad_files_are_one_line(files, tiny_model) -> None:
    tiny = tiny_options(tiny_model)
    assert "has 3 lines but the M2 file" in one_line_error("pt-m2", "-s", files["gold.m2"], "-o", files["short"], *tiny)
    assert "swapped.m2:1: the source of sentence 1 differs from sentence 1 of" in \
        one_line_error("pt-errant", "-hyp", files["swapped.m2"], "-ref", files["refs.m2"], *tiny)
    assert "gold.m2: has 4 sentences but" in one_line_error("pt-errant", "-hyp", files["gold.m2"], "-ref",
                                                                    files["refs.m2"], *tiny)
    assert "does not annotate the sentences of" in one_line_error("pt-errant", "-hyp", files["hyp.m2"], "-ref",
                                                                   files["refs.m2"], files["gold.m2"], *tiny)
    assert "needs the gold annotation" in one_line_error("compare", "-s", files["copy"], "-r", files["sys"], "-o",
                                                         files["sys"], "--metrics", tiny_spec(tiny_model))


def test_the_encoder_can_be_set_once_in_the_environment(files, tiny_model, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """$GECMETRICS_PT_MODEL names the encoder where --model is not given (an empty value: the
    default); --model wins; a bad value is one line naming the flag and the variable."""
    options = tiny_options(tiny_model)
    at = options.index("--model")
    without_model = options[:at] + options[at + 2:]
    args = ["pt-m2", "-s", files["gold.m2"], "-o", files["sys"], "--json"]
    code, expected, err = run_cli(*args, *options)
    assert code == 0, err
    monkeypatch.setenv("GECMETRICS_PT_MODEL", str(tiny_model))
    code, out, err = run_cli(*args, *without_model)
    assert code == 0 and out == expected, err
    assert PTM2(**TINY_SETTINGS).settings.model == str(tiny_model)
    monkeypatch.setenv("GECMETRICS_PT_MODEL", str(tmp_path / "missing"))
    code, out, err = run_cli(*args, *options)
    assert code == 0 and out == expected, err
    error = one_line_error(*args, *without_model)
    assert f"{tmp_path / 'missing'}: no such model folder" in error
    assert "--model" in error and "$GECMETRICS_PT_MODEL" in error
    monkeypatch.setenv("GECMETRICS_PT_MODEL", "  ")
    assert PTM2().settings.model == PTM2(model="bert-base-uncased").settings.model == "bert-base-uncased"


def test_pt_m2_says_how_many_gold_sentences_had_a_text_cut(files, tiny_model, tmp_path) -> None:
    """PT-M2 weighs edits with bert_score's BERTScore, which cuts every text at the tokenizer's
    maximum length (512 tokens: [CLS] and [SEP] and 510 words of the tiny vocabulary), and so does
    the metric, saying nothing. Now one note counts the gold sentences of which a text the model
    read was cut: the source or a reference (sentence 3), or the source with one of a system's
    edits applied (sentence 2, where only ``long``'s 11-word insertion passes the limit), the same
    from a warm cache and with -p 2."""
    middle = " ".join(["the"] * 505)  # 507 tokens with [CLS] and [SEP]
    beyond = " ".join(["the"] * 515)
    gold = (f"S A b c .\nA 1 2|||R:NOUN|||x|||REQUIRED|||-NONE-|||0\n\nS {middle}\n"
            "A 0 0|||M:DET|||the|||REQUIRED|||-NONE-|||0\n\n"
            f"S {beyond}\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n")
    paths = {}
    for name, text in {"gold.m2": gold, "long": f"A x c .\na b c d e f g h i j k {middle}\n{beyond}\n",
                       "near": f"A x c .\nthe {middle}\n{beyond}\n"}.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        paths[name] = str(tmp_path / name)

    def note(count: int) -> str:
        return (f"gecmetric: note: PT-M2: sentences longer than 512 tokens were truncated to 512, as bert_score does: "
                f"{count} of {paths['gold.m2']}")

    command = ["pt-m2", "-s", paths["gold.m2"], *tiny_options(tiny_model), "--tsv"]
    for system, count in (("long", 2), ("near", 1)):
        for jobs in ([], [], ["-p", "2", "--chunk-lines", "1"]):  # cold, then from the cache
            code, _, err = run_cli("--cache", str(tmp_path / "cache"), *command, "-o", paths[system], *jobs)
            assert code == 0 and note(count) in err.splitlines(), (system, jobs, err)
    code, _, err = run_cli("--no-cache", *command, "-o", paths["near"], paths["long"])
    assert code == 0 and note(2) in err.splitlines(), err
    code, _, err = run_cli("--no-cache", "pt-m2", "-s", files["gold.m2"], "-o", files["sys"], *tiny_options(tiny_model))
    assert code == 0 and "truncated" not in err, err


def test_a_model_that_cannot_load_says_where_the_encoder_is_chosen_once(files, tmp_path) -> None:
    # the model's source was looked up inside the load's own error context: the hint came twice
    (tmp_path / "empty").mkdir()
    for model in (tmp_path / "empty", tmp_path / "missing"):
        message = one_line_error("pt-m2", "-s", files["gold.m2"], "-o", files["sys"], "--model", str(model), "--layer",
                                 "9", "--baseline", "none")
        assert message.count("(the PT encoder: --model NAME|FOLDER") == 1, message


def test_messages_about_the_model_settings_name_their_flags(files, tiny_model, tmp_path):
    """A layer the model does not have said ``num_layers must be between 0 and 12`` and a model
    without a built-in baseline ``give baseline=none``: Python setting names on the command line.
    Now each names its flag as other settings' messages do (``num_layers (--layer)``,
    ``(command line: --baseline none)``)."""
    error = one_line_error("pt-m2", "-s", files["gold.m2"], "-o", files["sys"], "--model", str(tiny_model),
                           "--layer", "13", "--baseline", "none")
    assert "num_layers (--layer) must be between 0 and 12" in error, error
    error = one_line_error("pt-m2", "-s", files["gold.m2"], "-o", files["sys"], "--model", str(tiny_model),
                           "--layer", "9")
    assert "give baseline=none (command line: --baseline none), a known model name" in error, error
    refs = tmp_path / "ref"
    refs.write_text("\n".join(SOURCES) + "\n", encoding="utf-8")
    for options, expected in ((["--layer", "13"], "num_layers (--layer) must be between 0 and 12"),
                              (["--layer", "9", "--baseline", "auto"],
                               "or baseline=none (command line: --baseline none)")):
        error = one_line_error("bertscore", "-s", files["copy"], "-r", str(refs), "-o", files["sys"], "--model",
                               str(tiny_model), *options)
        assert expected in error, error


@pytest.mark.parametrize("references", [["refs.m2"], ["ref0.m2", "ref1.m2"]])
def test_pt_errant_names_standard_input_as_every_command_does(files, tiny_model, references):
    """``pt-errant -hyp -`` named its row ``<stdin>`` (the name messages give standard input);
    pt-m2, gleu, errant ... name it ``-``, as given. Now ``-`` too, read by the engine (one -ref
    file) or merged in memory (several), in the table and the JSON."""
    refs = [files[name] for name in references]
    hypothesis = Path(files["hyp.m2"]).read_text(encoding="utf-8")
    options = ["--model", str(tiny_model), "--layer", "9", "--baseline", "none"]
    code, out, err = run_cli("pt-errant", "-hyp", "-", "-ref", *refs, *options, "--tsv", input=hypothesis)
    assert code == 0 and out.splitlines()[1].split("\t")[0] == "-", (out, err)
    code, given, err = run_cli("pt-errant", "-hyp", files["hyp.m2"], "-ref", *refs, *options, "--tsv")
    assert code == 0 and out.splitlines()[1].split("\t")[1:] == given.splitlines()[1].split("\t")[1:]
    code, out, err = run_cli("pt-errant", "-hyp", "-", "-ref", *refs, *options, "--json", input=hypothesis)
    assert code == 0 and json.loads(out)[0]["system"] == "-", (out, err)
