"""The token ids of ASCII texts computed word by word (gecmetrics.core.models.wordpiece) are
transformers' Python BERT tokenizer's, for cased and uncased vocabularies, on seeded random
texts (every ASCII character, the special tokens in any case, words longer than WordPiece
takes, non-ASCII words that go to the tokenizer) and on CoNLL-2014; with special tokens and
truncation as BERTScore and PT-M2 encode; and a tokenizer it cannot stand in for is left alone."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

transformers = pytest.importorskip("transformers")

from gecmetrics.core.models import wordpiece  # noqa: E402
from gecmetrics.core.models.inference import Encoder  # noqa: E402
from gecmetrics.core.models.loading import LoadedModel, python_bert_tokenizer_class  # noqa: E402
from gecmetrics.core.models.tiny import tiny_vocabulary, write_tokenizer  # noqa: E402


def tokenizer_in(folder: Path, lower_case: bool, extra: list[str] = ()):
    """transformers' Python BertTokenizer on the tiny vocabulary (and ``extra`` pieces)."""
    write_tokenizer(folder, [*tiny_vocabulary(), *extra], lower_case=lower_case)
    return python_bert_tokenizer_class(transformers).from_pretrained(str(folder))


@pytest.fixture(scope="module", params=[True, False], ids=["uncased", "cased"])
def tokenizer(request, tmp_path_factory):
    return tokenizer_in(tmp_path_factory.mktemp("vocab"), request.param, ["##s", "##ing", "Cat", "##X"])


def theirs(tokenizer, texts: list[str]) -> list[list[int]]:
    return [list(ids) for ids in tokenizer(texts, add_special_tokens=False, verbose=False)["input_ids"]]


def random_texts(tokenizer, count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    words = [token for token in tokenizer.vocab if token.isalnum()]
    texts = []
    for _ in range(count):
        parts = []
        for _ in range(rng.randint(0, 16)):
            draw = rng.random()
            if draw < 0.45:
                word = rng.choice(words)
                parts.append(word.upper() if rng.random() < 0.2 else word)
            elif draw < 0.65:  # any ASCII characters, controls included
                parts.append("".join(chr(rng.randint(0, 127)) for _ in range(rng.randint(1, 5))))
            elif draw < 0.72:
                parts.append(rng.choice(["[CLS]", "[sep]", "[Mask]", "x[UNK]y", "[PAD]", "naïve", "é", "中文", "\u00a0"]))
            elif draw < 0.77:
                parts.append("x" * rng.randint(98, 102))
            else:
                parts.append(rng.choice(words) + rng.choice(words))
        texts.append(rng.choice([" ", "", "\t", "  ", "-", "\n"]).join(parts))
    return texts


def test_random_texts_get_the_tokenizers_ids(tokenizer):
    fast = wordpiece.fast_token_ids(tokenizer)
    assert fast is not None
    texts = random_texts(tokenizer, 2000, seed=11)
    assert sum(not text.isascii() for text in texts) > 50  # the tokenizer's own share is exercised too
    assert fast(texts) == theirs(tokenizer, texts)


def test_conll14_texts_get_the_tokenizers_ids(tokenizer, conll14: Path):
    texts = [line for name in ("INPUT", "AMU") for line in (conll14 / name).read_text(encoding="utf-8").split("\n")]
    assert wordpiece.fast_token_ids(tokenizer)(texts) == theirs(tokenizer, texts)


def test_the_encoders_of_the_model_metrics_give_the_tokenizers_ids(tokenizer):
    """SOME's and IMPARA's :class:`Encoder` (no special tokens) and BERTScore's and PT-M2's
    :meth:`LoadedModel.encode` (stripped, [CLS] ... [SEP], truncated to the maximum length)."""
    texts = random_texts(tokenizer, 300, seed=12) + ["a " * 40, "  padded text  ", ""]
    folder = Path(tokenizer.name_or_path)
    (folder / "config.json").write_text('{"model_type": "bert"}')  # what makes it a model folder
    encoder = Encoder(str(folder), 128, python_bert=True)
    assert type(encoder.tokenizer) is type(tokenizer)
    encoder.prepare(texts)
    assert [list(encoder.pieces[text]) for text in texts] == theirs(tokenizer, texts)
    for max_length in (8, 512):
        loaded = LoadedModel("tiny", tokenizer, None, "cpu", 1, "", "", "", False, tokenizer.cls_token_id,
                             tokenizer.sep_token_id, max_length)
        present = [text.strip() for text in texts if text.strip()]
        expected = [tuple(ids) for ids in tokenizer(present, add_special_tokens=True, truncation=True,
                                                    max_length=max_length)["input_ids"]]
        assert [ids for text, ids in zip(texts, loaded.encode(texts)) if text.strip()] == expected
        assert any(len(ids) == max_length for ids in expected) == (max_length == 8)


def test_a_tokenizer_it_cannot_stand_in_for_is_left_alone(tmp_path: Path):
    python_class = python_bert_tokenizer_class(transformers)
    write_tokenizer(tmp_path, tiny_vocabulary(), lower_case=True)
    rust = transformers.AutoTokenizer.from_pretrained(str(tmp_path))
    assert type(rust).__name__ != python_class.__name__ and wordpiece.fast_token_ids(rust) is None

    class Shouting(python_class):  # its own tokenization: another result than BERT's
        def _tokenize(self, text, **kwargs):
            return super()._tokenize(text.upper(), **kwargs)

    assert wordpiece.fast_token_ids(Shouting.from_pretrained(str(tmp_path))) is None
    kept_whole = python_class.from_pretrained(str(tmp_path), never_split=["e.g."])
    assert wordpiece.fast_token_ids(kept_whole) is None
    no_basic = python_class.from_pretrained(str(tmp_path), do_basic_tokenize=False)
    assert wordpiece.fast_token_ids(no_basic) is None


def test_the_probe_check_refuses_a_tokenizer_that_disagrees(tokenizer, monkeypatch):
    """Were BERT's rules here wrong for some tokenizer, the check at first use finds it: a
    vocabulary lookup changed here makes the probes disagree and the tokenizer is used as it is."""
    monkeypatch.setattr(wordpiece, "_WORDS", wordpiece.re.compile(r"[0-9A-Za-z!-/:-@\[-`{-~]+"))  # no punct split
    monkeypatch.setattr(wordpiece, "_MADE", wordpiece.weakref.WeakKeyDictionary())
    assert wordpiece.fast_token_ids(tokenizer) is None
