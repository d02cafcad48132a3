"""Token ids kept in the persistent cache (gecmetrics.core.models.token_ids), without torch: a
text is tokenized once across runs, a damaged value is tokenized again and overwritten, no
cache tokenizes everything, the namespace follows the tokenizer's files (not its weights), its
class, the libraries' versions and the caller's settings."""
from __future__ import annotations

import importlib.metadata
from pathlib import Path

import pytest

from gecmetrics.core.cache import Cache
from gecmetrics.core.models.token_ids import (cached_token_ids, pack_ids, token_namespace, tokenizer_digest,
                                              unpack_ids)


class WordIds:
    """A stand-in tokenizer: the id of each word is its length; it counts the texts it was given."""

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def __call__(self, texts: list[str]) -> list[list[int]]:
        self.calls.append(list(texts))
        return [[len(word) for word in text.split()] for text in texts]


@pytest.mark.parametrize("ids", [(), (0, 101, 102), (65535, 7), (65536, 0, 2**31 - 1)])
def test_ids_are_stored_in_two_or_four_bytes(ids):
    packed = pack_ids(ids)
    assert unpack_ids(packed) == ids and len(packed) == 1 + len(ids) * (4 if ids and max(ids) >= 65536 else 2)


def test_values_that_are_not_ids_are_none():
    assert all(unpack_ids(bad) is None for bad in (None, b"", b"\x03", b"\x02\x01", b"\x04\x01\x02", b"\x01\x05"))


def test_a_text_is_tokenized_once_across_runs_and_a_damaged_value_again(tmp_path: Path):
    texts = ["a bb ccc", "dddd", ""]
    tokenizer = WordIds()
    first, tokenized = cached_token_ids(Cache(tmp_path), "models/token-ids/test", texts, tokenizer)
    assert first == [(1, 2, 3), (4,), ()] and tokenized == 3 and tokenizer.calls == [texts]
    again, tokenized = cached_token_ids(Cache(tmp_path), "models/token-ids/test", texts + ["ee"], tokenizer)
    assert again == first + [(2,)] and tokenized == 1 and tokenizer.calls[-1] == ["ee"]
    cache = Cache(tmp_path)
    from gecmetrics.core.cache import cache_key
    from gecmetrics.core.models.token_ids import TOKEN_IDS_FORMAT

    cache.put_many("models/token-ids/test", {cache_key(TOKEN_IDS_FORMAT, "dddd"): b"\x03junk"})
    mended, tokenized = cached_token_ids(cache, "models/token-ids/test", texts, tokenizer)
    assert mended == first and tokenized == 1 and tokenizer.calls[-1] == ["dddd"]
    assert cached_token_ids(Cache(tmp_path), "models/token-ids/test", texts, tokenizer)[1] == 0
    # another namespace (another tokenizer) reads nothing of this one's
    assert cached_token_ids(Cache(tmp_path), "models/token-ids/other", texts, tokenizer)[1] == 3


@pytest.mark.parametrize("cache, namespace", [(None, "models/token-ids/test"), ("off", "models/token-ids/test"),
                                              ("on", None)])
def test_without_a_cache_or_a_namespace_every_text_is_tokenized(tmp_path: Path, cache, namespace):
    store = None if cache is None else Cache(tmp_path, enabled=cache == "on")
    tokenizer = WordIds()
    for _ in range(2):
        ids, tokenized = cached_token_ids(store, namespace, ["a b", "ccc"], tokenizer)
        assert ids == [(1, 1), (3,)] and tokenized == 2
    assert len(tokenizer.calls) == 2 and (store is None or store.info().entries == 0)


def test_the_digest_is_of_the_tokenizer_files_not_the_weights(tmp_path: Path):
    folder = tmp_path / "model"
    folder.mkdir()
    (folder / "vocab.txt").write_text("[PAD]\n[CLS]\n[SEP]\nword\n", encoding="utf-8")
    (folder / "config.json").write_text('{"model_type": "bert"}', encoding="utf-8")
    (folder / "model.safetensors").write_bytes(b"weights")
    digest = tokenizer_digest(str(folder))
    assert digest.startswith("files-sha256:")
    (folder / "model.safetensors").write_bytes(b"other weights")
    (folder / "pytorch_model.bin").write_bytes(b"more weights")
    assert tokenizer_digest(str(folder)) == digest
    (folder / "vocab.txt").write_text("[PAD]\n[CLS]\n[SEP]\nword\nother\n", encoding="utf-8")
    assert tokenizer_digest(str(folder)) != digest
    # not a folder: the hub commit it was loaded at, else unknown
    assert tokenizer_digest("bert-base-uncased", "commit:0123456789ab") == "commit:0123456789ab"
    assert tokenizer_digest("bert-base-uncased", "sha256:0123456789ab") == tokenizer_digest("bert-base-uncased") == ""


def test_the_namespace_holds_the_class_libraries_and_settings(monkeypatch):
    tokenizer = WordIds()
    namespace = token_namespace("pieces", "files-sha256:0123", tokenizer, "no-special-tokens")
    assert namespace is not None and namespace.startswith("models/token-ids/1/pieces/files-sha256:0123/WordIds/")
    assert token_namespace("pieces", "", tokenizer, "no-special-tokens") is None  # unknown files: not stored
    others = [token_namespace("special-tokens", "files-sha256:0123", tokenizer, "no-special-tokens"),
              token_namespace("pieces", "files-sha256:4567", tokenizer, "no-special-tokens"),
              token_namespace("pieces", "files-sha256:0123", tokenizer, "max-128")]

    class OtherClass(WordIds):
        pass

    others.append(token_namespace("pieces", "files-sha256:0123", OtherClass(), "no-special-tokens"))
    real_version = importlib.metadata.version

    def version(package: str) -> str:
        if package in ("transformers", "tokenizers"):
            return "9.9.9"
        return real_version(package)

    monkeypatch.setattr(importlib.metadata, "version", version)
    others.append(token_namespace("pieces", "files-sha256:0123", tokenizer, "no-special-tokens"))
    assert len({namespace, *others}) == len(others) + 1
