"""SOME and IMPARA cut an input longer than --max-length tokens, as the originals do: the number
stays the original's, and the run says how many inputs were cut (one note on stderr, from the
metric's command and from ``compare``, the same with -p 2 and from a warm cache; a reward counts
the calls that cut inputs and logs the first one's note). A --max-length the models' position
embeddings cannot hold is refused before any work."""
from __future__ import annotations

import logging
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import one_line_error, run_cli, write_files
from tests.test_models_metrics import backend, models, own_cache  # noqa: F401 (fixtures: the tiny models, a cache per test)
from tests.test_models_metrics import impara_metric, some_metric

from gecmetrics.errors import InputError, InputNote
from gecmetrics.metrics.registry import get_metric

pytest.importorskip("torch", reason="the model metrics need torch and transformers")
pytest.importorskip("transformers", reason="the model metrics need torch and transformers")

SOURCE = ["This are a short sentence .",
          "The quick brown fox jumps over the lazy dog while the cat watches from the window sill .",
          "Short one ."]
SYSTEM = ["This is a short sentence .",
          "The quick brown fox jumped over the lazy dog while the cat watched from the window sill .",
          "Short one ."]


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    return write_files(tmp_path, {"src": SOURCE, "sys": SYSTEM})


def flags(name: str, models: dict[str, Path]) -> list[str]:
    if name == "some":
        return ["--model", str(models["some"]), "--tokenizer", str(models["some"] / "grammer"), "--device", "cpu",
                "--threads", "1"]
    return ["--model", str(models["impara"] / "qe"), "--se-model", str(models["impara"] / "se"), "--device", "cpu",
            "--threads", "1"]


def expected_cut(name: str, models: dict[str, Path], max_length: int, systems: list[list[str]],
                 sources: list[str] = SOURCE) -> int:
    """The (system, sentence) inputs the original tokenizer's own truncation would cut: SOME's
    hypothesis or (source, hypothesis) pair, IMPARA's hypothesis or source."""
    import transformers

    folder = models["some"] / "grammer" if name == "some" else models["impara"] / "qe"
    tokenizer = transformers.AutoTokenizer.from_pretrained(str(folder))

    def size(text: str) -> int:
        return len(tokenizer(text, add_special_tokens=False)["input_ids"])

    if name == "some":
        return sum(size(h) > max_length - 2 or size(s) + size(h) > max_length - 3
                   for system in systems for s, h in zip(sources, system))
    return sum(size(h) > max_length - 2 or size(s) > max_length - 2 for system in systems for s, h in zip(sources, system))


def note(label: str, cut: int, total: int, max_length: int) -> str:
    return (f"gecmetric: note: {label}: {cut} of {total} inputs longer than {max_length} tokens were truncated, "
            "as the original does")


@pytest.mark.parametrize("name", ["some", "impara"])
def test_a_run_says_how_many_inputs_were_truncated(name, models, files, tmp_path):
    label, options = name.upper(), flags(name, models)
    cut = expected_cut(name, models, 20, [SYSTEM])
    assert 0 < cut < len(SOURCE)
    command = [name, "-s", files["src"], "-o", files["sys"], *options, "--tsv"]
    code, cold, err = run_cli("--cache", str(tmp_path / "c"), *command, "--max-length", "20")
    assert code == 0 and note(label, cut, 3, 20) in err.splitlines(), err
    for jobs in (["-p", "2", "--chunk-lines", "1"], []):  # from the cache, in chunks or not: the same line
        code, warm, err = run_cli("--cache", str(tmp_path / "c"), *command, "--max-length", "20", *jobs)
        assert code == 0 and warm == cold and note(label, cut, 3, 20) in err.splitlines(), err
    # compare: each system's sentences counted
    spec = ":".join([name, "max_length=20", *(f"{flag[2:].replace('-', '_')}={value}"
                                              for flag, value in zip(options[::2], options[1::2]))])
    code, _, err = run_cli("compare", "-s", files["src"], "-o", files["sys"], files["src"], "--metrics", spec, "--tsv")
    both = cut + expected_cut(name, models, 20, [SOURCE])
    assert code == 0 and note(label, both, 6, 20) in err.splitlines(), err
    # long enough (the default 128): nothing said
    code, _, err = run_cli(*command)
    assert code == 0 and "truncated" not in err, err


@pytest.mark.parametrize("name", ["some", "impara"])
def test_corpus_score_warns_the_note_the_command_prints(name, models, files):
    """corpus_score cut the same inputs and dropped the note the command prints: now it issues
    that note as one InputNote warning, pointing at the caller (docs/api.md)."""
    import warnings

    options = flags(name, models)
    code, _, err = run_cli(name, "-s", files["src"], "-o", files["sys"], *options, "--max-length", "20", "--tsv")
    expected = note(name.upper(), expected_cut(name, models, 20, [SYSTEM]), 3, 20)
    assert code == 0 and expected in err.splitlines(), err
    metric = get_metric(name, **dict(zip((flag[2:].replace("-", "_") for flag in options[::2]), options[1::2])),
                        max_length=20)
    with pytest.warns(InputNote) as record:
        result = metric.corpus_score(SOURCE, None, SYSTEM)
    said = [w for w in record if w.category is InputNote]
    # the message is the note without the command's prefix (a Python caller ran no command), its line the command's
    assert [str(w.message) for w in said] == [expected.removeprefix("gecmetric: note: ")], [str(w.message) for w in said]
    assert said[0].message.line == expected and Path(said[0].filename) == Path(__file__)
    with warnings.catch_warnings():
        warnings.simplefilter("error", InputNote)  # long enough (the default 128): nothing said
        assert get_metric(name, **dict(zip((f[2:].replace("-", "_") for f in options[::2]), options[1::2]))
                          ).corpus_score(SOURCE, None, SYSTEM).score != result.score


def spec_of(name: str, models: dict[str, Path], extra: str) -> str:
    """The metric with the tiny models as ``compare --metrics`` takes it."""
    options = flags(name, models)
    return ":".join([name, extra, *(f"{flag[2:].replace('-', '_')}={value}"
                                    for flag, value in zip(options[::2], options[1::2]))])


@pytest.mark.parametrize("name", ["some", "impara"])
def test_a_max_length_beyond_the_models_positions_is_refused_before_any_work(name, models, files, monkeypatch):
    """The tiny models have 512 positions: --max-length 513 was refused only by the first input
    that long, in the middle of a run (here no line is: it scored); now before any model runs."""
    from gecmetrics.metrics.models.metric import ModelMetric

    def no_work(*args, **kwargs):
        raise AssertionError("the run started")

    monkeypatch.setattr(ModelMetric, "prepare", no_work)
    err = one_line_error(name, "-s", files["src"], "-o", files["sys"], *flags(name, models), "--max-length", "513")
    assert "--max-length" in err and "513 is more than the 512 positions of the model" in err, err
    err = one_line_error("compare", "-s", files["src"], "-o", files["sys"], "--metrics",
                         spec_of(name, models, "max_length=513"))
    assert "513 is more than the 512 positions of the model" in err, err
    options = dict(zip((flag[2:].replace("-", "_") for flag in flags(name, models)[::2]), flags(name, models)[1::2]))
    with pytest.raises(InputError, match="max_length .* 513 is more than the 512 positions"):
        get_metric(name, **options, max_length=513)
    get_metric(name, **options, max_length=512)  # 512 fits


@pytest.mark.parametrize("name", ["some", "impara"])
def test_a_reward_scores_a_batch_at_once_and_counts_its_notes(name, models, monkeypatch, caplog):
    """As a reward (GRPO: thousands of calls) SOME and IMPARA scored every batch twice, the second
    time each row as a corpus of its own, one at a time, because they observe their truncation
    (for a note only) and a reward re-scored the rows of any metric that observed something; and
    the notes were dropped. Now a batch of several rows is one chunk_statistics call, with each
    completion's own value; a call that cut inputs is counted in stats.notes, logged once."""
    from gecmetrics.rewards import reward_function
    from gecmetrics.run import rewards

    calls, chunk_statistics = [], rewards.chunk_statistics

    def counted(*args, **kwargs):
        calls.append(1)
        return chunk_statistics(*args, **kwargs)

    monkeypatch.setattr(rewards, "chunk_statistics", counted)
    metric = (some_metric if name == "some" else impara_metric)(models, max_length=20)
    assert expected_cut(name, models, 20, [SYSTEM]) > 0
    f = reward_function(metric)
    systems = [SYSTEM[:2] + ["One short ."], SOURCE]  # each row's two completions
    completions, sources = [text for pair in zip(*systems) for text in pair], [s for s in SOURCE for _ in "ab"]
    with caplog.at_level(logging.WARNING, logger="gecmetrics.rewards"):
        values = f(completions=completions, source=sources)
        assert len(calls) == 1 and f.stats.scored == 6
        alone = [float(np.asarray(metric.sentence_scores([s], None, [c]).scores).ravel()[0])
                 for s, c in zip(sources, completions)]
        np.testing.assert_allclose(values, alone, rtol=0, atol=1e-6)
        assert len(set(values)) > 2
        said = note(name.upper(), expected_cut(name, models, 20, systems), 6, 20).removeprefix("gecmetric: note: ")
        assert f.stats.notes == 1 and [record.getMessage() for record in caplog.records] == [
            f"{f.__name__}: {said} (logged once: stats.notes counts the calls with a note)"]
        f(completions=[SYSTEM[1] + " ."], source=[SOURCE[1]])  # cut again: counted, not logged
    assert f.stats.notes == 2 and len(caplog.records) == 1 and len(calls) == 2
    whole = reward_function((some_metric if name == "some" else impara_metric)(models))  # max_length 128: no cut
    whole(completions=completions, source=sources)
    assert whole.stats.notes == 0


@pytest.mark.parametrize("name", ["some", "impara"])
def test_a_reward_s_note_counts_each_completion_once(name, models, monkeypatch, caplog):
    """A call's rows with fewer completions than its widest were padded with their first
    completion, which was scored and its cut counted: here the long row's one completion three
    times, of 9 inputs. Now rows of one width are scored together: each completion is one of the
    6 inputs, cut or not, and has the value it has alone."""
    from gecmetrics.rewards import reward_function

    metric = (some_metric if name == "some" else impara_metric)(models, max_length=20)
    sources = [SOURCE[0]] * 3 + [SOURCE[1]] + [SOURCE[2]] * 2  # rows of 3, 1 and 2 completions
    completions = [SYSTEM[0], SOURCE[0], "This is the short sentence .", SYSTEM[1], SYSTEM[2], "One short ."]
    cut = expected_cut(name, models, 20, [completions], sources)
    padded = [[SYSTEM[0], SYSTEM[1], SYSTEM[2]], [SOURCE[0], SYSTEM[1], "One short ."],
              ["This is the short sentence .", SYSTEM[1], SYSTEM[2]]]  # the slots' lines, as they were
    assert 0 < cut < expected_cut(name, models, 20, padded)
    f = reward_function(metric)
    with caplog.at_level(logging.WARNING, logger="gecmetrics.rewards"):
        values = f(completions=completions, source=sources)
    said = note(name.upper(), cut, 6, 20).removeprefix("gecmetric: note: ")
    assert f.stats.notes == 1 and [record.getMessage() for record in caplog.records] == [
        f"{f.__name__}: {said} (logged once: stats.notes counts the calls with a note)"]
    alone = [float(np.asarray(metric.sentence_scores([s], None, [c]).scores).ravel()[0])
             for s, c in zip(sources, completions)]
    np.testing.assert_allclose(values, alone, rtol=0, atol=1e-6)


WORDS = "The test of the data is in the model and it is for the test".split()
"""Each one token of the tiny models' cased vocabulary."""


def words(count: int) -> str:
    return " ".join(WORDS[k % len(WORDS)] for k in range(count)) + " ."


def bert_tokens(folder: Path, text: str) -> int:
    """The tokens bert_score's tokenizer gives ``text`` ([CLS] and [SEP] included), not truncated."""
    import transformers

    tokenizer = transformers.AutoTokenizer.from_pretrained(str(folder), use_fast=False)
    return len(tokenizer(text.strip(), add_special_tokens=True, verbose=False)["input_ids"])


def test_bertscore_says_how_many_sentences_of_which_file_it_cut(models, tmp_path):
    """bert_score cuts every text at the tokenizer's maximum length (512), and so does the metric
    (its number is the original's), but nothing said so: now one note naming each file with cut
    sentences and how many, from the metric's command, ``compare``, -p 2 and a warm cache alike."""
    encoder = models["impara"] / "se"  # a plain BERT of 512 positions
    long_hypothesis, long_reference, near = words(520), words(600), words(505)
    assert bert_tokens(encoder, long_hypothesis) > 512 and bert_tokens(encoder, long_reference) > 512
    assert bert_tokens(encoder, near) <= 512  # long, not cut
    paths = write_files(tmp_path, {"src": ["A b .", "C d .", "E f ."], "ref": ["A b .", long_reference, near],
                                   "one": ["A b .", long_hypothesis, near],
                                   "two": [long_hypothesis, "C d .", long_reference],
                                   "short": ["A b .", "C d .", "E f ."]})
    options = ["--model", str(encoder), "--layer", "2", "--device", "cpu", "--tsv"]
    expected = ("gecmetric: note: BERTScore: sentences longer than 512 tokens were truncated to 512, as bert_score "
                f"does: 1 of {paths['one']}, 2 of {paths['two']}, 1 of {paths['ref']}")
    command = ["bertscore", "-s", paths["src"], "-r", paths["ref"], "-o", paths["one"], paths["two"], *options]
    code, cold, err = run_cli("--cache", str(tmp_path / "c"), *command)
    assert code == 0 and expected in err.splitlines(), err
    for jobs in ([], ["-p", "2", "--chunk-lines", "1"]):  # the cut read back with the token ids; each chunk's added
        code, warm, err = run_cli("--cache", str(tmp_path / "c"), *command, *jobs)
        assert code == 0 and warm == cold and expected in err.splitlines(), err
    code, _, err = run_cli("--no-cache", "compare", "-s", paths["src"], "-r", paths["ref"], "-o", paths["one"],
                           "--metrics", f"bertscore:model={encoder}:layer=2:device=cpu")
    assert code == 0 and f"does: 1 of {paths['one']}, 1 of {paths['ref']}" in err, err
    code, _, err = run_cli("--no-cache", "bertscore", "-s", paths["src"], "-r", paths["src"], "-o", paths["short"],
                           *options)
    assert code == 0 and "truncated" not in err, err


def test_a_bertscore_reward_counts_each_cut_completion_once(models, caplog):
    """A reward's note named its systems (the j-th completion of each row) with their cut
    sentences, counting the padding of a row with fewer completions than the widest: the one
    long completion of a row of one was cut in every slot, "1 of completion 1, 1 of completion
    2, 1 of completion 3". Now once, as the long reference is (its row is prepared once)."""
    from gecmetrics.rewards import reward_function

    encoder = models["impara"] / "se"
    long_hypothesis, long_reference, near = words(520), words(600), words(505)
    f = reward_function("bertscore", model=str(encoder), layer=2, device="cpu", max_cells=None)  # no fallback
    completions = [long_hypothesis, "C d .", "C e .", near]  # rows of one and three completions
    references = [["A b ."], *[[long_reference]] * 3]
    with caplog.at_level(logging.WARNING, logger="gecmetrics.rewards"):
        values = f(completions=completions, references=references)
    assert [record.getMessage() for record in caplog.records] == [
        f"{f.__name__}: BERTScore: sentences longer than 512 tokens were truncated to 512, as bert_score does: "
        "1 of completion 1, 1 of reference 0 (logged once: stats.notes counts the calls with a note)"]
    metric = get_metric("bertscore", model=str(encoder), layer=2, device="cpu")
    alone = [float(np.asarray(metric.sentence_scores(None, [r], [c]).scores).reshape(3, -1)[2][0])
             for c, r in zip(completions, references)]
    np.testing.assert_allclose(values, alone, rtol=0, atol=1e-6)


def test_a_tokenizer_without_model_max_length_is_cut_at_the_model_s_positions(models, tmp_path):
    """A tokenizer folder that sets no ``model_max_length`` (transformers then says 1e30) let a
    text longer than the model's 512 positions reach it: BERTScore and PT-M2 ended in a
    traceback (``The size of tensor a (...) must match the size of tensor b (512)``). Now the text
    is cut at the model's positions, with the usual note, and the numbers are those of the same
    model whose tokenizer says 512."""
    import json
    import shutil

    encoder = models["impara"] / "se"
    unset = tmp_path / "unset"
    shutil.copytree(encoder, unset)
    config = json.loads((unset / "tokenizer_config.json").read_text(encoding="utf-8"))
    del config["model_max_length"]
    (unset / "tokenizer_config.json").write_text(json.dumps(config), encoding="utf-8")
    long_hypothesis = words(1500)
    paths = write_files(tmp_path, {"src": ["A b .", "C d ."], "ref": ["A b .", "C d ."],
                                   "hyp": ["A b .", long_hypothesis]})
    gold = tmp_path / "gold.m2"
    gold.write_text("S A b .\n\nS C d .\nA 0 1|||R:NOUN|||E|||REQUIRED|||-NONE-|||0\n\n", encoding="utf-8")
    gold = str(gold)
    outputs = []
    for folder in (encoder, unset):
        code, out, err = run_cli("--no-cache", "bertscore", "-s", paths["src"], "-r", paths["ref"], "-o",
                                 paths["hyp"], "--model", str(folder), "--layer", "2", "--device", "cpu", "--tsv")
        assert code == 0 and f"truncated to 512, as bert_score does: 1 of {paths['hyp']}" in err, err
        outputs.append(out.splitlines()[1])
        metric = get_metric("bertscore", model=str(folder), layer=2, device="cpu")
        with pytest.warns(InputNote, match="1 of hypothesis"):
            assert metric.corpus_score(None, [["A b .", "C d ."]], ["A b .", long_hypothesis]).score > 0
        code, out, err = run_cli("--no-cache", "pt-m2", "-s", gold, "-o", paths["hyp"], "--model", str(folder),
                                 "--layer", "2", "--baseline", "none", "--device", "cpu")
        assert code == 0 and "truncated to 512, as bert_score does: 1 of " in err, err
        outputs.append(out.splitlines()[1])
    assert outputs[:2] == outputs[2:]  # BERTScore and PT-M2 alike


def test_the_text_limit_is_the_tokenizer_s_within_the_model_s_positions():
    """The limit is the tokenizer's ``model_max_length`` where it is smaller, else the model's
    positions less a RoBERTa-style padding offset (positions start after the padding index)."""
    from types import SimpleNamespace

    from gecmetrics.core.models.loading import text_limit

    bert = SimpleNamespace(config={"max_position_embeddings": 512})
    assert text_limit(SimpleNamespace(model_max_length=int(1e30)), bert) == 512
    assert text_limit(SimpleNamespace(model_max_length=128), bert) == 128
    roberta = SimpleNamespace(config=SimpleNamespace(max_position_embeddings=514),
                              embeddings=SimpleNamespace(padding_idx=1))
    assert text_limit(SimpleNamespace(model_max_length=int(1e30)), roberta) == 512
    assert text_limit(SimpleNamespace(model_max_length=None), SimpleNamespace(config={})) == 512
