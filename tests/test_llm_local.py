"""The local backend: the answer grammar (no torch), then a tiny seeded GPT-2 built here, alone
and behind a loopback chat-completions server (same scores both ways), batching, the chat
template, the dry run's exact token counts and the cache."""
from __future__ import annotations

import itertools
import threading
from pathlib import Path
from typing import Iterator

import numpy as np
import pytest

from tests import _llm_support as support
from tests._llm_support import ChatServer, completion_reply, targets_of

from gecmetrics.core.cache import Cache
from gecmetrics.metrics.llm.answers import parse_answer
from gecmetrics.metrics.llm.backends.grammar import ScoreGrammar, TokenTable
from gecmetrics.metrics.llm.judge import Judge

SOURCES = ["This are a sentences .", "He go to school yesterday .", "She like apple .", "Nothing here ."]
SYSTEMS = [
    ["This is a sentence .", "He goes to school yesterday .", "She likes apples .", "Nothing here ."],
    ["This are a sentence .", "He went to school yesterday .", "She likes apple .", "Nothing here ."],
    ["This is a sentence .", "He go to the school yesterday .", "She liked apples .", "Nothing here !"],
    ["A sentence .", "He goes to school .", "She likes an apple .", "Nothing is here ."],
    ["This sentence .", "He goes school yesterday .", "She like apples .", "Nothing here"],
    ["These are sentences .", "He has gone to school yesterday .", "She likes the apple .", "nothing here ."],
]


# --------------------------------------------------------------------------------------------
# the grammar (no torch)

def test_grammar_accepts_the_answers_and_nothing_else():
    grammar = ScoreGrammar(2)
    good = ['{"target_score1":3,"target_score2":5}', '{ "target_score1" : 1 , "target_score2" : 4 }',
            '{"target_score1": 2, "target_score2": 2}']
    for text in good:
        assert grammar.is_final(grammar.walk(grammar.start, text))
    bad = ['{"target_score1":6,"target_score2":5}', '{"target_score2":3,"target_score1":5}',
           '{"target_score1":3, "target_score2":5}}', '{  "target_score1":3,"target_score2":5}',
           '{"target_score1":33,"target_score2":5}', '{"target1_score":3,"target_score2":5}']
    for text in bad:
        assert grammar.walk(grammar.start, text) < 0
    assert not grammar.is_final(grammar.walk(grammar.start, '{"target_score1":3,"target_score2":5'))
    assert grammar.first_chars(grammar.start) == {"{"}
    assert grammar.first_chars(1) == {" ", '"'}


@pytest.mark.parametrize("n", [1, 2])
def test_every_accepted_answer_parses(n):
    """Every placement of the optional spaces and every score: accepted, and parsed back to
    those scores; a double space anywhere is refused."""
    parts = ["{", " "]
    for k in range(1, n + 1):
        parts += ([" ", ",", " "] if k > 1 else []) + [f'"target_score{k}"', " ", ":", " ", "D"]
    parts += [" ", "}"]
    spaces = [i for i, p in enumerate(parts) if p == " "]
    digits = [i for i, p in enumerate(parts) if p == "D"]
    grammar = ScoreGrammar(n)
    for chosen in itertools.product(["", " "], repeat=len(spaces)):
        for scores in itertools.product("12345", repeat=n):
            text = list(parts)
            for i, value in zip(spaces + digits, chosen + scores):
                text[i] = value
            answer = "".join(text)
            assert grammar.is_final(grammar.walk(grammar.start, answer)), answer
            assert parse_answer(answer, n) == [int(c) for c in scores]
            where = answer.index(":")
            assert grammar.walk(grammar.start, answer[:where] + "  " + answer[where:]) < 0


def test_token_table():
    strings = [None, "{", '{"', "target", "_", "score", "1", "2", '":', " 3", "3", "12", ",", ' "', "}", "x", " ", '"']
    table = TokenTable(strings)
    grammar = ScoreGrammar(1)
    ids, nxt = table.allowed(grammar, grammar.start)
    assert [strings[i] for i in ids] == ["{", '{"']
    state = grammar.walk(grammar.start, '{"target_score1":')
    ids, nxt = table.allowed(grammar, state)
    assert sorted(strings[i] for i in ids) == [" ", " 3", "1", "2", "3"]  # never "12", "x" or "}"
    for i, after in zip(ids, nxt):
        assert after == grammar.walk(state, strings[i])
    assert table.allowed(grammar, state) is table.allowed(grammar, state)  # computed once


def test_token_strings_keep_sentencepiece_spaces():
    """A SentencePiece-style token "▁3" adds " 3" after other text, though decoding it alone
    gives "3": the grammar must see the space."""
    pytest.importorskip("transformers", reason=support.MISSING_EXTRA)
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    from gecmetrics.metrics.llm.backends.grammar import token_strings

    vocab = {"<s>": 0, "</s>": 1, "<unk>": 2}
    for char in sorted(set('{}":,_12345abcdefghijklmnopqrstuvwxyz')) + ["▁"]:
        vocab[char] = len(vocab)
    merges = [("▁", "3"), ("▁", '"'), ("t", "a")]
    for left, right in merges:
        vocab[left + right] = len(vocab)
    model = Tokenizer(models.BPE(vocab=vocab, merges=merges, unk_token="<unk>"))
    model.pre_tokenizer = pre_tokenizers.Metaspace()
    model.decoder = decoders.Metaspace()
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=model, bos_token="<s>", eos_token="</s>", unk_token="<unk>")
    strings = token_strings(tokenizer)
    assert tokenizer.decode([vocab["▁3"]]) == "3"
    assert (strings[vocab["▁3"]], strings[vocab['▁"']], strings[vocab["ta"]], strings[vocab["▁"]]) == (" 3", ' "', "ta", " ")
    assert strings[0] is None and strings[1] is None and strings[2] is None
    grammar = ScoreGrammar(1)
    ids, _ = TokenTable(strings).allowed(grammar, grammar.walk(grammar.start, '{"target_score1":'))
    assert vocab["▁3"] in ids and vocab['▁"'] not in ids


# --------------------------------------------------------------------------------------------
# the tiny GPT-2 (torch)

@pytest.fixture(scope="module")
def tiny_gpt2(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The tiny model's folder; torch on one thread meanwhile (two threads of a tiny model on a
    shared machine spend their time waiting for each other)."""
    support.require_backend()
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield support.build_tiny_gpt2(tmp_path_factory.mktemp("tiny-gpt2") / "tiny-gpt2")
    finally:
        torch.set_num_threads(threads)


def local(folder: Path, **options):
    from gecmetrics.metrics.llm.backends.local import TransformersBackend

    return TransformersBackend(str(folder), **options)


def whitespace_edits(source: str, hypothesis: str) -> list[tuple[int, int, str]]:
    """Edits by a plain token diff (stand-in for ERRANT in this test)."""
    import difflib

    a, b = source.split(), hypothesis.split()
    return [(i1, i2, " ".join(b[j1:j2])) for tag, i1, i2, j1, j2 in
            difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes() if tag != "equal"]


def test_token_strings(tiny_gpt2):
    from gecmetrics.metrics.llm.backends.grammar import token_strings

    backend = local(tiny_gpt2)
    strings = token_strings(backend.tokenizer)
    assert strings[backend.tokenizer.eos_token_id] is None
    for text in ['{"target_score1": 3, "target_score2": 5}', "The edits [the→a] here", SOURCES[1]]:
        ids = backend.tokenizer(text, add_special_tokens=False)["input_ids"]
        pieces = [strings[i] for i in ids]
        # the arrow's three UTF-8 bytes are three tokens that decode to U+FFFD alone
        assert "".join(pieces).replace("\ufffd" * 3, "→") == text


def test_local_scores_in_any_batch(tiny_gpt2):
    one = Judge(local(tiny_gpt2, batch_size=1), cache=Cache(enabled=False)).score(SOURCES, SYSTEMS)
    four = Judge(local(tiny_gpt2, batch_size=4), cache=Cache(enabled=False)).score(SOURCES, SYSTEMS)
    assert one.report.complete and not one.report.bad_answers
    assert np.isin(one.scores, [1, 2, 3, 4, 5]).all()
    np.testing.assert_array_equal(one.scores, four.scores)
    assert len(set(one.scores.ravel())) > 1  # the tiny model does not answer one score to all


def test_local_and_http_give_the_same_scores(tiny_gpt2, tmp_path):
    """A loopback server answers chat completions from the same tiny model (the user message
    under the same grammar, as gec-metrics' local path reads no system message)."""
    model = local(tiny_gpt2, batch_size=3)
    lock = threading.Lock()

    def respond(body, attempt):
        with lock:
            text, used = model.decode_batch([model.encode(body["messages"][-1]["content"])], [targets_of(body)])[0]
        return completion_reply(text)

    direct = Judge(model, cache=Cache(tmp_path / "local")).score(SOURCES, SYSTEMS)
    from gecmetrics.metrics.llm.backends.http import OpenAICompatibleBackend

    with ChatServer(respond) as server:
        http = OpenAICompatibleBackend("tiny-gpt2", server.url, concurrency=3)
        served = Judge(http, cache=Cache(tmp_path / "http")).score(SOURCES, SYSTEMS)
        assert server.requests == len(served.plan.prompts)
        np.testing.assert_array_equal(served.scores, direct.scores)
        again = Judge(http, cache=Cache(tmp_path / "http")).score(SOURCES, SYSTEMS)
        assert server.requests == len(served.plan.prompts) and again.report.requested == 0
        np.testing.assert_array_equal(again.scores, direct.scores)


def test_local_llm_e_with_criterion_and_cache(tiny_gpt2, tmp_path):
    edits = [[whitespace_edits(s, h) for s, h in zip(SOURCES, system)] for system in SYSTEMS]
    backend = local(tiny_gpt2)
    calls = []
    generate = backend.generate

    def counting(requests):
        calls.append(len(requests))
        return generate(requests)

    backend.generate = counting
    judge = Judge(backend, variant="llm-e", criterion="impact", cache=Cache(tmp_path))
    first = judge.score(SOURCES, SYSTEMS, edits)
    assert first.report.complete and calls == [len(first.plan.prompts)]
    assert "→" in first.plan.prompts[0] and "focus on its impact" in first.plan.prompts[0]
    second = judge.score(SOURCES, SYSTEMS, edits)
    assert calls == [len(first.plan.prompts)] and second.report.cached == len(first.plan.prompts)
    np.testing.assert_array_equal(first.scores, second.scores)


def test_dry_run_counts_with_the_tokenizer(tiny_gpt2, tmp_path):
    backend = local(tiny_gpt2)
    judge = Judge(backend, cache=Cache(tmp_path))
    dry = judge.dry_run(SOURCES, SYSTEMS, prices=(1.0, 2.0))
    plan = judge.plan(SOURCES, SYSTEMS)
    assert dry.exact and dry.to_request == len(plan.prompts)
    assert dry.prompt_tokens == sum(len(backend.encode(p)) for p in plan.prompts)
    assert backend._model is None  # counting loads no weights


TEMPLATE = ("{% for m in messages %}<|{{ m.role }}|>{{ m.content }}\n{% endfor %}"
            "{% if add_generation_prompt %}<|assistant|>{% endif %}")


def templated_copy(folder: Path, to: Path, template: str = TEMPLATE) -> Path:
    """A copy of the model folder whose tokenizer has ``template`` as its chat template."""
    import shutil

    from transformers import AutoTokenizer

    shutil.copytree(folder, to)
    tokenizer = AutoTokenizer.from_pretrained(str(to))
    tokenizer.chat_template = template
    tokenizer.save_pretrained(str(to))
    return to


def test_chat_template(tiny_gpt2, tmp_path):
    plain = local(tiny_gpt2)
    templated = local(templated_copy(tiny_gpt2, tmp_path / "templated"), add_generation_prompt=True)
    assert templated.use_template and not plain.use_template
    assert templated.model_input("Hi") == "<|user|>Hi\n<|assistant|>"
    assert plain.model_input("Hi") == "Hi"
    assert templated.settings()["chat_template"] is not None and plain.settings()["chat_template"] is None
    assert local(tmp_path / "templated", chat_template=False).settings()["chat_template"] is None
    result = Judge(templated, cache=Cache(tmp_path)).score(SOURCES[:2], [s[:2] for s in SYSTEMS])
    assert result.report.complete


def test_a_warm_run_loads_no_tokenizer_and_no_model(tiny_gpt2, tmp_path):
    from gecmetrics.metrics.llm.backends import BackendError

    """The answer keys name the tokenizer's chat template: a run that finds every answer stored
    reads the tokenizer's record back (kept under the digest of the folder's files) and loads
    neither the tokenizer nor the model; the keys are those the loaded tokenizer gives. A folder
    whose template changed has other files, so its record and keys are its own."""
    cache = Cache(tmp_path / "cache")
    folder = templated_copy(tiny_gpt2, tmp_path / "templated")
    cold = Judge(local(folder), cache=cache).score(SOURCES, SYSTEMS)
    backend = local(folder)
    warm = Judge(backend, cache=cache).score(SOURCES, SYSTEMS)
    assert warm.report.cached == warm.report.prompts == cold.report.answered > 0
    assert not backend._tokenizer.is_loaded and backend._model is None
    np.testing.assert_array_equal(warm.scores, cold.scores)
    assert backend.cache_parts(cache) == local(folder).cache_parts()  # read back = the tokenizer's
    other = templated_copy(tiny_gpt2, tmp_path / "other", TEMPLATE.replace("<|assistant|>", "<|bot|>"))
    assert local(other).cache_parts(cache)[2] != backend.cache_parts(cache)[2]
    local(tiny_gpt2).cache_parts(cache)  # the plain folder's record, stored
    refused = local(tiny_gpt2, chat_template=True)
    with pytest.raises(BackendError, match="no chat template"):
        refused.cache_parts(cache)
    assert not refused._tokenizer.is_loaded  # the record read back said so


def test_a_stored_record_the_tokenizer_does_not_have_is_one_line_and_stored_anew(tiny_gpt2, tmp_path):
    """Should the record read back differ from the tokenizer once it loads (answers were looked up
    under another template's keys), the run stops with one line and the tokenizer's own record is
    stored: the next run's keys are the tokenizer's."""
    from gecmetrics.errors import InputError
    from gecmetrics.metrics.llm.backends.local import TOKENIZER_IDENTITIES
    from tests.conftest import cache_keys

    cache = Cache(tmp_path / "cache")
    expected = local(tiny_gpt2).cache_parts(cache)
    [key] = cache_keys(cache, TOKENIZER_IDENTITIES)  # the record now says: a template
    cache.put_many(TOKENIZER_IDENTITIES, {key: b'{"has_template": true, "template": "0123456789ab"}'})
    backend = local(tiny_gpt2)
    assert backend.cache_parts(cache) != expected and not backend._tokenizer.is_loaded
    with pytest.raises(InputError, match="differs from the loaded model's"):
        backend.tokenizer
    assert local(tiny_gpt2).cache_parts(cache) == expected


def test_a_warm_command_imports_neither_torch_nor_transformers(tiny_gpt2, tmp_path):
    from tests.conftest import probe_model_imports, run_cli, write_files

    paths = write_files(tmp_path, {"src": SOURCES, **{f"sys{k}": lines for k, lines in enumerate(SYSTEMS[:2])}})
    command = ["--cache", str(tmp_path / "cache"), "llm", "-s", paths["src"], "-o", paths["sys0"], paths["sys1"],
               "--model", f"transformers:{tiny_gpt2}", "--tsv"]
    code, cold, err = run_cli(*command)
    assert code == 0, err
    warm = probe_model_imports(command)
    assert warm.returncode == 0 and warm.stderr.splitlines()[-1] == "modules: False False", warm.stderr
    assert warm.stdout == cold


def test_local_errors(tiny_gpt2, tmp_path):
    from gecmetrics.metrics.llm.backends import BackendError

    with pytest.raises(BackendError, match="dtype"):
        local(tiny_gpt2, dtype="float8")
    with pytest.raises(BackendError, match="batch_size"):
        local(tiny_gpt2, batch_size=0)
    with pytest.raises(BackendError, match="chat template"):  # known once the tokenizer is read
        local(tiny_gpt2, chat_template=True).cache_parts()
    with pytest.raises(BackendError, match="no such model folder"):  # see test_a_model_that_is_not_on_disk...
        local(tmp_path / "missing-model")


def test_a_prompt_longer_than_the_positions_gets_no_score_and_the_others_theirs(tiny_gpt2):
    """A prompt past the model's 2048 positions raised IndexError from torch (a traceback); it is
    now a prompt without an answer, as a server's refusal of a too long prompt is."""
    long_source = " ".join(["word"] * 2100)
    result = Judge(local(tiny_gpt2), cache=Cache(enabled=False)).score(
        [long_source, SOURCES[1]], [[long_source + " .", SYSTEMS[0][1]]])
    assert list(result.report.failed) == [0], result.report.failed
    assert "more than the model's 2048 positions" in result.report.failed[0][1]
    assert result.scores.shape == (2, 1) and np.isnan(result.scores[0, 0]) and result.scores[1, 0] in (1, 2, 3, 4, 5)


def test_a_folder_without_a_tokenizer_is_one_line(tiny_gpt2, tmp_path):
    """transformers built a tokenizer of special tokens alone from it: every prompt encoded as
    nothing, and torch failed to reshape the empty batch (a traceback)."""
    import shutil

    from gecmetrics.errors import InputError

    folder = tmp_path / "no-tokenizer"
    folder.mkdir()
    for name in ("config.json", "model.safetensors"):
        shutil.copy(tiny_gpt2 / name, folder / name)
    with pytest.raises(InputError, match="no usable tokenizer: its vocabulary has only special tokens"):
        Judge(local(folder), cache=Cache(enabled=False)).score(SOURCES, SYSTEMS)


def test_a_model_that_is_not_on_disk_is_one_line_at_once(tmp_path, monkeypatch):
    """A path that is no folder was taken for a hub name: transformers then retried the hub for
    about a minute where it cannot be reached. Now it is the models' one line (no torch needed),
    and a hub name neither cached nor downloadable says why (HF_HUB_OFFLINE here)."""
    from gecmetrics.metrics.llm.backends.base import BackendError

    for path in (tmp_path / "nope", "./nope", "models/tiny/gpt2"):
        with pytest.raises(BackendError, match="no such model folder$"):
            local(path)
    try:
        from huggingface_hub import constants
    except ImportError:
        return
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)
    with pytest.raises(BackendError, match="nor a model of that name in the Hugging Face cache, and HF_HUB_OFFLINE is set"):
        local("no-such-judge-model-here")


def test_an_encoder_folder_is_one_line_not_a_judge_with_random_weights(tmp_path):
    """A BERT folder given as the local judge: transformers would build a BERT LM head model with its
    prediction head at random and the judge would answer from noise; it is one InputError."""
    support.require_backend()
    from gecmetrics.core.models.tiny import build_tiny_bert
    from gecmetrics.errors import InputError

    folder = tmp_path / "tiny-bert"
    build_tiny_bert(folder)
    judge = Judge(local(folder), cache=Cache(enabled=False))
    with pytest.raises(InputError, match="not a causal language model .*holds a BertModel.* not in the checkpoint"):
        judge.score(SOURCES, SYSTEMS)
