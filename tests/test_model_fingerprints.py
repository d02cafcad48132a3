"""What identifies a model folder's weights (cache keys, signatures) reads every byte of every
weight file: a sharded checkpoint's shards, not only its index, and the middle of a large file.
An invariance audit found both stale: a warm cache gave the old model's outputs and signature."""
from __future__ import annotations

import json
import shutil

from gecmetrics.core.models.folders import folder_fingerprint
from gecmetrics.core.models.loading import folder_revision, weight_paths, weights_digest


def sharded(folder, shards: dict[str, bytes]):
    folder.mkdir()
    (folder / "config.json").write_text("{}", encoding="utf-8")
    weight_map = {f"layer.{k}.weight": name for k, name in enumerate(shards)}
    (folder / "model.safetensors.index.json").write_text(json.dumps({"metadata": {}, "weight_map": weight_map}),
                                                          encoding="utf-8")
    for name, content in shards.items():
        (folder / name).write_bytes(content)
    return folder


def test_a_sharded_checkpoint_is_known_by_its_shards(tmp_path):
    shards = {"model-00001-of-00002.safetensors": b"\x01" * 1000, "model-00002-of-00002.safetensors": b"\x02" * 1000}
    first = sharded(tmp_path / "a", shards)
    again = sharded(tmp_path / "b", {**shards, "model-00002-of-00002.safetensors": b"\x02" * 999 + b"\x03"})
    assert [p.name for p in weight_paths(first)] == ["model.safetensors.index.json", *sorted(shards)]
    assert weights_digest(first) != weights_digest(again)  # the same index, another shard
    assert folder_revision(str(first)) != folder_revision(str(again))
    copy = tmp_path / "c"
    shutil.copytree(first, copy)
    assert weights_digest(copy) == weights_digest(first)


def test_an_index_that_names_no_readable_shards_is_hashed_alone(tmp_path):
    folder = tmp_path / "m"
    folder.mkdir()
    (folder / "model.safetensors.index.json").write_text("not json", encoding="utf-8")
    assert [p.name for p in weight_paths(folder)] == ["model.safetensors.index.json"]
    assert weights_digest(folder)


def test_a_large_file_changed_in_its_middle_changes_the_fingerprint(tmp_path):
    size = 65 << 20  # over the 64 MiB beyond which only the first and last MiB were read
    for name, byte in (("a", 0), ("b", 1)):
        folder = tmp_path / name
        folder.mkdir()
        content = bytearray(size)
        content[size // 2] = byte
        (folder / "model.safetensors").write_bytes(bytes(content))
    assert folder_fingerprint(tmp_path / "a") != folder_fingerprint(tmp_path / "b")
    assert folder_fingerprint(tmp_path / "a") == folder_fingerprint(tmp_path / "a")
