"""Scribendi Score: the string ratios equal the original libraries' on 800 stored pairs and the
definitions on random strings (no torch needed); the tiny GPT-2 is deterministic and loads
offline; with it, the sentence values, corpus sums, perplexities and ratios on CoNLL-2014 equal
those the original code printed (tests/data/models_tiny_scribendi.tsv); the work done once
(distinct texts and pairs, unchanged lines skipped) gives the same numbers as scoring each
system alone; bad arguments are one InputError."""
from __future__ import annotations

import re

import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gecmetrics import get_metric
from gecmetrics.errors import InputError
from gecmetrics.metrics.models.scribendi import (ScribendiScorer, corpus_score, fuzzy_process, lcs_length,
                                                 levenshtein_ratio, sentence_value, token_sort_ratio)

DATA = Path(__file__).resolve().parent / "data"
MISSING_EXTRA = "model metric tests need torch and transformers (pip install 'gecmetrics[models]')"
SYSTEMS = ("AMU", "CAMB", "CUUI", "INPUT", "NULL")


def read_rows(path: Path) -> tuple[dict[str, str], list[dict[str, str]]]:
    """Header facts ('# key: value') and rows of a tab-separated test data file."""
    facts, lines = {}, []
    for line in path.read_text(encoding="utf-8").split("\n"):
        if line.startswith("# ") and ": " in line:
            key, value = line[2:].split(": ", 1)
            facts[key.strip()] = value.strip()
        elif line and not line.startswith("#"):
            lines.append(line.split("\t"))
    return facts, [dict(zip(lines[0], row)) for row in lines[1:]]


# ----------------------------------------------------------------------------- ratios, no model


def test_ratios_equal_the_original_libraries_on_stored_pairs() -> None:
    _, rows = read_rows(DATA / "scribendi_ratios.tsv")
    assert len(rows) == 800
    differs = 0
    for row in rows:
        a, b = json.loads(row["a"]), json.loads(row["b"])
        assert token_sort_ratio(a, b) == float(row["token_sort_ratio"]), (a, b)
        assert token_sort_ratio(a, b, "levenshtein") == float(row["token_sort_ratio_levenshtein"]), (a, b)
        if row["levenshtein_ratio"]:
            assert levenshtein_ratio(a, b) == float(row["levenshtein_ratio"]), (a, b)
        differs += row["token_sort_ratio"] != row["token_sort_ratio_levenshtein"]
    assert differs > 50  # the two matchers really differ (gec-metrics' departure is visible here)


def _lcs_table(a: str, b: str) -> int:
    row = [0] * (len(b) + 1)
    for char in a:
        previous, diagonal = row[:], 0
        for j, other in enumerate(b, 1):
            diagonal, row[j] = previous[j], diagonal + 1 if char == other else max(previous[j], row[j - 1])
    return row[-1]


def _original_levenshtein(a: str, b: str) -> float:
    """The original's table (insert/delete 1, substitute 2), written again from its definition."""
    dp = [[i + j if i == 0 or j == 0 else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            dp[i][j] = min(dp[i - 1][j - 1] + (0 if a[i - 1] == b[j - 1] else 2), dp[i - 1][j] + 1, dp[i][j - 1] + 1)
    return 1 - dp[len(a)][len(b)] / (len(a) + len(b))


TEXT = st.text(alphabet=st.sampled_from(list("ab c.,éÉ_İ\tz1") + ["中"]), max_size=80)


@settings(max_examples=300, deadline=None)
@given(TEXT, TEXT)
def test_bit_parallel_lcs_and_the_levenshtein_ratio_follow_their_definitions(a: str, b: str) -> None:
    assert lcs_length(a, b) == _lcs_table(a, b) == lcs_length(b, a)
    if a or b:
        assert levenshtein_ratio(a, b) == _original_levenshtein(a, b)


@settings(max_examples=200, deadline=None)
@given(TEXT, TEXT)
def test_token_sort_ratio_properties(a: str, b: str) -> None:
    value = token_sort_ratio(a, b)
    assert 0 <= value <= 1 and round(value * 100) / 100 == value
    assert token_sort_ratio(" ".join(reversed(a.split())), b) == value  # word order does not count
    if fuzzy_process(a) == "" and fuzzy_process(b) == "":
        assert value == 1.0  # two texts without letters or digits are "equal" for fuzzywuzzy
    elif fuzzy_process(a) == "" or fuzzy_process(b) == "":
        assert value == 0.0


def test_the_papers_examples() -> None:
    """Table 1 of the paper; the values the original's functions return (its README's comments
    truncate them: 0.94308, 0.9767)."""
    src = "Once the test is done , whether the results should be open to his or her relatives has caused social " \
          "extensive controversy."
    pred = src.replace("social extensive", "extensive social")
    assert token_sort_ratio(src, pred) == 1.0 and levenshtein_ratio(src, pred) == 0.943089430894309
    assert token_sort_ratio("We can not let it go .", "We cannot let it go .") == 0.82
    assert levenshtein_ratio("We can not let it go .", "We cannot let it go .") == 0.9767441860465116


def test_sentence_value_rules() -> None:
    assert sentence_value("a b .", "b a .", 10.0, 10.0) == -1  # ppl(s) <= ppl(h)
    assert sentence_value("a b .", "b a .", 10.5, 10.0) == 1
    assert sentence_value("a b .", "completely different text", 10.5, 10.0) == -1
    assert sentence_value("\"", "", 20.0, math.nan) == 1  # NaN compares false; '"' and '' both process to ''
    assert sentence_value("", "a", math.nan, 5.0) == -1
    assert sentence_value("a b .", "b a .", 10.5, 10.0, threshold=1.01) == -1


class CountingPerplexity:
    """A stand-in LM: a fixed function of the text, counting what it is asked."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def __call__(self, texts):
        texts = list(texts)
        self.asked += texts
        return [math.nan if not text else 1.0 + (sum(map(ord, text)) % 97) for text in texts]


def test_work_is_done_once_and_equals_scoring_each_system_alone() -> None:
    sources = ["a b c .", "d e f .", "g h .", "a b c .", "x"]
    systems = {"one": ["a c b .", "d e f .", "g h !", "a c b .", ""],
               "two": ["a c b .", "d f .", "g h .", "a b c .", ""],
               "three": ["a b c .", "d e f .", "g h .", "a b c .", "x"]}
    counting = CountingPerplexity()
    together = ScribendiScorer(counting).systems(sources, systems)
    assert len(counting.asked) == len(set(counting.asked))  # each text once
    assert set(counting.asked) == {"a b c .", "a c b .", "d e f .", "d f .", "g h .", "g h !", "x", ""}
    for name, hypotheses in systems.items():
        alone = ScribendiScorer(CountingPerplexity()).sentence_scores(sources, hypotheses)
        assert alone.tolist() == together[name].tolist()
    assert together["three"].tolist() == [0] * 5
    unchanged = CountingPerplexity()
    assert ScribendiScorer(unchanged).sentence_scores(sources, sources).tolist() == [0] * 5 and unchanged.asked == []
    assert corpus_score(together["one"]) == int(together["one"].sum())


def test_argument_checks() -> None:
    """The scorer alone checks what the metric checks, with the same functions (SOME's and
    IMPARA's check of texts; the threshold setting's range): strings were scored letter by
    letter, and a threshold of 2 was taken where the metric refuses it."""
    with pytest.raises(InputError, match="^2 hypotheses for 3 sources: one per source is needed$"):
        ScribendiScorer(CountingPerplexity()).sentence_scores(["a", "b", "c"], ["a", "b"])
    with pytest.raises(InputError, match=r"^hypotheses\[1\] must be a string, got NoneType$"):
        ScribendiScorer(CountingPerplexity()).sentence_scores(["a", "b"], ["a", None])
    with pytest.raises(InputError, match="^sources must be a sequence of sentences \\(strings\\), got str$"):
        ScribendiScorer(CountingPerplexity()).sentence_scores("abc", "abd")
    with pytest.raises(InputError, match="^AMU must be a sequence of sentences"):
        ScribendiScorer(CountingPerplexity()).systems(["abc"], {"AMU": "abd"})
    for threshold in (2, -0.1):
        with pytest.raises(InputError, match=f"^threshold must be from 0 to 1 .*, got {threshold}$"):
            ScribendiScorer(CountingPerplexity(), threshold=threshold)
    with pytest.raises(InputError, match="threshold"):
        ScribendiScorer(CountingPerplexity(), threshold=math.nan)
    with pytest.raises(InputError, match="threshold"):
        ScribendiScorer(CountingPerplexity(), threshold="0.8")
    with pytest.raises(InputError, match="matcher"):
        ScribendiScorer(CountingPerplexity(), matcher="rapidfuzz")
    with pytest.raises(InputError, match="matcher"):
        token_sort_ratio("a", "b", "fuzzy")
    with pytest.raises(InputError, match="callable"):
        ScribendiScorer(None)


# ----------------------------------------------------------------------------- with the tiny GPT-2


@pytest.fixture(scope="module")
def tiny_gpt2(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("torch", reason=MISSING_EXTRA)
    pytest.importorskip("transformers", reason=MISSING_EXTRA)
    from gecmetrics.core.models.tiny_gpt2 import build_tiny_gpt2

    folder = tmp_path_factory.mktemp("tiny-gpt2")
    build_tiny_gpt2(folder)
    return folder


@pytest.fixture(scope="module")
def perplexities(tiny_gpt2: Path):
    from gecmetrics.core.models.causal_lm import Perplexities, load_causal_lm

    return Perplexities(load_causal_lm(str(tiny_gpt2), device="cpu"))


def _fingerprint_from_header() -> str:
    text = (DATA / "models_tiny_scribendi.tsv").read_text(encoding="utf-8")
    return text.split("weights fingerprint\n#   ", 1)[1].split("\n", 1)[0].strip()


def test_tiny_gpt2_is_deterministic_and_loads_offline(tiny_gpt2: Path, tmp_path: Path) -> None:
    import transformers

    from gecmetrics.core.models.tiny_gpt2 import CausalLMShape, build_tiny_causal_lm, build_tiny_gpt2, \
        folder_fingerprint

    again = build_tiny_gpt2(tmp_path / "again")
    assert again == folder_fingerprint(tiny_gpt2) == _fingerprint_from_header()
    for name in ("model.safetensors", "config.json", "vocab.json", "merges.txt", "tokenizer_config.json"):
        assert (tmp_path / "again" / name).read_bytes() == (tiny_gpt2 / name).read_bytes()
    assert build_tiny_gpt2(tmp_path / "other", seed=7) != again
    model = transformers.AutoModelForCausalLM.from_pretrained(str(tiny_gpt2))
    tokenizer = transformers.AutoTokenizer.from_pretrained(str(tiny_gpt2))
    assert model.config.model_type == "gpt2" and model.config.n_layer == 2 and len(tokenizer) == 2048
    ids = tokenizer("<|endoftext|>Genetic testing is a fa ç ade .")["input_ids"]
    assert ids[0] == tokenizer.bos_token_id == 0 and tokenizer.decode(ids[1:]) == "Genetic testing is a fa ç ade ."
    assert len(ids) < 20  # the CoNLL vocabulary: common words are one token
    bigger = build_tiny_causal_lm(tmp_path / "bigger", shape=CausalLMShape(layers=3, hidden=32, heads=2, positions=64))
    assert bigger != again and json.loads((tmp_path / "bigger" / "config.json").read_text())["n_positions"] == 64
    with pytest.raises(InputError, match="multiple of heads"):
        build_tiny_causal_lm(tmp_path / "bad", shape=CausalLMShape(hidden=30, heads=4))
    with pytest.raises(InputError, match="seed"):
        build_tiny_causal_lm(tmp_path / "bad", seed=-1)


def test_perplexity_is_the_same_whatever_the_batching(tiny_gpt2: Path, perplexities) -> None:
    from gecmetrics.core.models.causal_lm import Perplexities

    texts = ["This are a sentences .", "He go to school yesterday .", "", "Nothing to do here !", "a"] * 2
    batched = perplexities(texts)
    one_by_one = Perplexities(perplexities.lm, batch_size=1)(texts)
    assert math.isnan(batched[2]) and math.isnan(one_by_one[2])
    assert np.allclose(batched, one_by_one, rtol=1e-6, equal_nan=True)
    assert batched[:5] == batched[5:] or all(math.isnan(x) for x in batched[2::5])


def test_direct_gpt2_equals_transformers(tiny_gpt2: Path, perplexities) -> None:
    """The GPT-2 computed from its weights gives transformers' GPT2LMHeadModel's perplexities."""
    import torch
    import transformers

    from gecmetrics.core.models.causal_lm import CausalLM, Perplexities

    assert getattr(perplexities.lm.model, "direct", False)  # the tiny GPT-2 is computed directly
    model = transformers.AutoModelForCausalLM.from_pretrained(str(tiny_gpt2)).eval()
    through = CausalLM("tiny", perplexities.lm.tokenizer, model, torch.device("cpu"), "float32", "<|endoftext|>",
                       1024, torch)
    texts = ["This are a sentences .", "He go to school yesterday .", "", "a", "We are actively \" presenting \" "
             "fa ç ades of our lifes in front of others .", "Nothing to do here !" * 12]
    assert np.allclose(Perplexities(through)(texts), perplexities(texts), rtol=2e-6, equal_nan=True)


def test_perplexity_argument_checks(tiny_gpt2: Path, tmp_path: Path) -> None:
    from gecmetrics.core.models.causal_lm import Perplexities, load_causal_lm
    from gecmetrics.core.models.tiny_gpt2 import CausalLMShape, build_tiny_causal_lm

    with pytest.raises(InputError, match="no such model folder"):
        load_causal_lm(str(tmp_path / "missing"))
    with pytest.raises(InputError, match="dtype"):
        load_causal_lm(str(tiny_gpt2), dtype="float64")
    with pytest.raises(InputError, match="device"):
        load_causal_lm(str(tiny_gpt2), device="tpu")
    import torch

    if not torch.cuda.is_available():  # said of the device, before the model loads (the metric named the hypothesis)
        metric = get_metric("scribendi", model=str(tiny_gpt2), device="cuda")
        with pytest.raises(InputError) as caught:
            metric.corpus_score(["A b ."], None, ["A c ."], cache=False)
        assert str(caught.value) == "device: 'cuda' is not available in this installation of torch"
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="no config.json"):
        load_causal_lm(str(tmp_path / "empty"))
    build_tiny_causal_lm(tmp_path / "short", shape=CausalLMShape(positions=8))
    short = Perplexities(load_causal_lm(str(tmp_path / "short"), device="cpu"))
    with pytest.raises(InputError, match="more than the model's 8 positions"):
        short(["one two three four five six seven eight nine ten"])
    with pytest.raises(InputError, match="batch_size"):
        Perplexities(short.lm, batch_size=0)
    with pytest.raises(InputError, match="not a string"):
        short([b"bytes"])


def damaged(folder: Path, copy: Path) -> Path:
    """A copy of a model folder whose weight file ends in 0xFF bytes: float32 NaN under a valid
    safetensors header."""
    import shutil

    shutil.copytree(folder, copy)
    weights = copy / "model.safetensors"
    size = weights.stat().st_size
    with open(weights, "r+b") as handle:
        handle.seek(size - min(size // 2, 60000))
        handle.write(b"\xff" * min(size // 2, 50000))
    return copy


def test_damaged_weights_and_a_tokenizer_without_words_are_refused(tiny_gpt2: Path, tmp_path: Path) -> None:
    """A weight file holding NaN gave Scribendi +11 for the clean model's -7 (every NaN
    perplexity comparison false), exit 0; a GPT-2 folder without vocab.json and merges.txt
    tokenized every text to its BOS alone and was scored. Both are one line naming the folder."""
    from gecmetrics.core.models.causal_lm import load_causal_lm
    from tests.conftest import one_line_error

    with pytest.raises(InputError, match="hold NaN or infinite values: a damaged model file"):
        load_causal_lm(str(damaged(tiny_gpt2, tmp_path / "nan")), device="cpu")
    import shutil

    shutil.copytree(tiny_gpt2, tmp_path / "no-vocabulary")
    for name in ("vocab.json", "merges.txt", "tokenizer.json"):
        (tmp_path / "no-vocabulary" / name).unlink(missing_ok=True)
    with pytest.raises(InputError, match="no usable tokenizer"):
        load_causal_lm(str(tmp_path / "no-vocabulary"), device="cpu")
    (tmp_path / "src").write_text("He go home .\n", encoding="utf-8")
    (tmp_path / "hyp").write_text("He goes home .\n", encoding="utf-8")
    err = one_line_error("--no-cache", "scribendi", "-s", str(tmp_path / "src"), "-o", str(tmp_path / "hyp"),
                         "--model", str(tmp_path / "nan"))
    assert "nan" in err and "damaged model file" in err


def test_a_sentence_longer_than_the_model_is_one_line_of_stderr(tmp_path: Path) -> None:
    """scribendi.py fails with torch's IndexError on such a sentence; here: exit 2 and one line,
    without the tokenizer's warning ("Token indices sequence length is longer ...") before it."""
    import os
    import subprocess
    import sys

    pytest.importorskip("torch", reason=MISSING_EXTRA)
    pytest.importorskip("transformers", reason=MISSING_EXTRA)
    from gecmetrics.core.models.tiny_gpt2 import CausalLMShape, build_tiny_causal_lm

    build_tiny_causal_lm(tmp_path / "short", shape=CausalLMShape(positions=8))
    (tmp_path / "src").write_text("one .\none two three four five six seven eight nine ten\n", encoding="utf-8")
    (tmp_path / "hyp").write_text("two .\none two three four five six seven eight nine ten !\n", encoding="utf-8")
    root = str(Path(__file__).resolve().parents[1])
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join([root, os.environ.get("PYTHONPATH", "")]),
                       HF_HUB_OFFLINE="1")
    done = subprocess.run([sys.executable, "-c", "from gecmetrics.cli import run; run()", "scribendi",
                           "-s", str(tmp_path / "src"), "-o", str(tmp_path / "hyp"), "--model", str(tmp_path / "short"),
                           "--device", "cpu", "--no-cache"], capture_output=True, text=True, env=environment,
                          timeout=600)
    assert done.returncode == 2 and done.stdout == "", (done.returncode, done.stdout, done.stderr)
    assert len(done.stderr.strip().splitlines()) == 1 and "more than the model's 8 positions" in done.stderr, \
        done.stderr
    # the file and line that hold it (the message named neither)
    assert re.search(r"(src|hyp):2: a sentence has \d+ tokens with BOS", done.stderr), done.stderr


def test_a_completion_longer_than_the_model_gets_the_rewards_fallback(tmp_path: Path) -> None:
    """A line past the model's positions is a LineRefused: a reward gives it the fallback, and
    the other completions their values, instead of ending the training step."""
    pytest.importorskip("torch", reason=MISSING_EXTRA)
    pytest.importorskip("transformers", reason=MISSING_EXTRA)
    from gecmetrics.core.models.tiny_gpt2 import CausalLMShape, build_tiny_causal_lm
    from gecmetrics.rewards import reward_function

    build_tiny_causal_lm(tmp_path / "short", shape=CausalLMShape(positions=8))
    f = reward_function("scribendi", model=str(tmp_path / "short"), device="cpu", fallback=-5.0, cache=False)
    values = f(completions=["one two three four five six seven eight nine ten", "two ."], source=["one .", "one ."])
    assert values[0] == -5.0 and values[1] in (-1.0, 0.0, 1.0) and f.stats.reasons == {"refused by the metric": 1}


@pytest.fixture(scope="module")
def conll_systems(conll14: Path) -> tuple[list[str], dict[str, list[str]]]:
    """INPUT and the systems, read as the original reads them (``line.rstrip()``)."""
    def read(name: str) -> list[str]:
        with open(conll14 / name, encoding="utf-8") as handle:
            return [line.rstrip() for line in handle]

    return read("INPUT"), {name: read(name) for name in SYSTEMS}


def test_conll14_equals_the_original(perplexities, conll_systems) -> None:
    facts, rows = read_rows(DATA / "models_tiny_scribendi.tsv")
    sources, systems = conll_systems
    scorer = ScribendiScorer(perplexities)
    values = scorer.systems(sources, systems)
    for name in SYSTEMS:
        assert corpus_score(values[name]) == int(facts[f"corpus {name}"]), name
    expected = {name: np.zeros(len(sources), dtype=np.int64) for name in SYSTEMS}
    for row in rows:
        line = int(row["line"]) - 1
        expected[row["system"]][line] = int(row["score"])
        source, hypothesis = sources[line], systems[row["system"]][line]
        assert source != hypothesis
        ppl = perplexities([source, hypothesis])
        for ours, theirs in zip(ppl, (row["ppl_source"], row["ppl_hypothesis"])):
            assert (math.isnan(ours) and theirs == "nan") or abs(ours - float(theirs)) <= 1e-4 * float(theirs)
        assert token_sort_ratio(source, hypothesis) == float(row["token_sort_ratio"])
        assert levenshtein_ratio(source, hypothesis) == float(row["levenshtein_ratio"])
    for name in SYSTEMS:
        assert values[name].tolist() == expected[name].tolist(), name
    assert {row["system"] for row in rows} == {"AMU", "CAMB", "CUUI", "NULL"}


def test_conll14_work_done_once_gives_the_same_numbers(perplexities, conll_systems) -> None:
    """All systems together (shared texts and pairs) = each system with a fresh scorer and LM
    cache (on the first 300 lines); the shared run scores fewer texts than the separate ones."""
    from gecmetrics.core.models.causal_lm import Perplexities

    sources, systems = conll_systems
    sources, systems = sources[:300], {name: hypotheses[:300] for name, hypotheses in systems.items()}
    shared = Perplexities(perplexities.lm)
    together = ScribendiScorer(shared).systems(sources, {name: systems[name] for name in ("AMU", "CAMB", "CUUI")})
    separate_texts = 0
    for name in ("AMU", "CAMB", "CUUI"):
        fresh = Perplexities(perplexities.lm)
        assert ScribendiScorer(fresh).sentence_scores(sources, systems[name]).tolist() == together[name].tolist()
        separate_texts += fresh.scored_count
    assert shared.scored_count < separate_texts
