"""The persistent cache's helpers check what they are given (an audit of the public API):
``put_many``'s ``compress`` is True or False, and ``pack_json`` stores JSON only, refusing nan,
inf and values JSON does not hold with one InputError saying what cannot be stored."""
from __future__ import annotations

import json
import math

import numpy as np
import pytest

from gecmetrics.core.cache import Cache, cache_key, pack_json, unpack_json
from gecmetrics.errors import InputError

NS = "test/argument-checks/1"


@pytest.mark.parametrize("compress", ["no", "False", 0, 1, None, np.bool_(False)])
def test_put_many_compress_is_true_or_false(tmp_path, compress) -> None:
    """``compress="no"`` was taken as true (and compressed)."""
    cache = Cache(tmp_path)
    with pytest.raises(InputError, match=f"compress must be True or False, got {compress!r}"):
        cache.put_many(NS, {cache_key("y"): b"x" * 400}, compress=compress)
    assert cache.get_many(NS, [cache_key("y")]) == {}  # nothing stored


def test_put_many_compress_is_checked_with_the_cache_off(tmp_path) -> None:
    with pytest.raises(InputError, match="compress must be True or False"):
        Cache(tmp_path, enabled=False).put_many(NS, {cache_key("y"): b"x"}, compress="yes")


@pytest.mark.parametrize("compress", [True, False])
def test_put_many_with_a_flag_stores(tmp_path, compress) -> None:
    cache = Cache(tmp_path)
    cache.put_many(NS, {cache_key("y"): b"x" * 400}, compress=compress)
    assert cache.get_many(NS, [cache_key("y")]) == {cache_key("y"): b"x" * 400}


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -math.inf, [1.0, float("nan")], {"score": math.inf},
                                   np.float64("nan"), {"a": [{"b": -math.inf}]}, {float("nan"): 1}])
def test_pack_json_refuses_nan_and_inf(value) -> None:
    """``pack_json(nan)`` was ``b'NaN'``: no JSON (other readers refuse it)."""
    with pytest.raises(InputError, match="pack_json cannot store nan, inf or -inf \\(JSON has no such number\\)"):
        pack_json(value)


@pytest.mark.parametrize("value, what", [({1, 2}, "a set"), ([frozenset()], "a frozenset"), (b"x", "a bytes"),
                                         ({"a": np.int64(3)}, "an int64"), (object(), "an object"),
                                         ({"a": np.zeros(2)}, "an? ndarray")])
def test_pack_json_refuses_values_json_does_not_hold(value, what) -> None:
    """``pack_json({1, 2})`` raised json's TypeError."""
    with pytest.raises(InputError, match=f"pack_json cannot store {what} in a cache value: it stores lists, dicts"):
        pack_json(value)


def test_pack_json_refuses_other_keys_and_circular_values() -> None:
    with pytest.raises(InputError, match="pack_json cannot store the value as JSON: keys must be str.*not tuple"):
        pack_json({(1, 2): 3})
    circular: list = []
    circular.append(circular)
    with pytest.raises(InputError, match="pack_json cannot store a value that holds itself"):
        pack_json(circular)
    nested: list = []
    for _ in range(100_000):
        nested = [nested]
    with pytest.raises(InputError, match="nested too deeply"):
        pack_json(nested)


def test_pack_json_of_json_values_is_unchanged() -> None:
    value = {"answer": "Ünïcode ✓", "scores": [1, 2.5, None, -0.0, 1e308], "ok": True, "n": 10**30}
    packed = pack_json(value)
    assert packed == json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    assert unpack_json(packed) == value
    assert pack_json([[0, 1, 0, 1, "R:VERB:SVA", "goes"]]) == b'[[0,1,0,1,"R:VERB:SVA","goes"]]'
    assert unpack_json(pack_json({"a": "\ud800 é"})) == {"a": "\ud800 é"}  # (a lone surrogate: its escape)
    assert pack_json(np.float64(0.5)) == b"0.5" and pack_json((1, 2)) == b"[1,2]"


def test_a_folder_where_the_cache_file_belongs_is_left_alone(tmp_path) -> None:
    """A folder named like the cache file was made private (chmod 0600: no longer enterable) on
    the way to refusing it, and `cache clear`/`prune` printed a warning and an error, exit 1."""
    import os
    import stat

    from gecmetrics.core.cache import FILE_NAME
    from tests.conftest import run_cli

    folder = tmp_path / FILE_NAME
    (folder / "inside").mkdir(parents=True)
    folder.chmod(0o755)
    cache = Cache(str(tmp_path))
    assert cache.get_many("ns/a", [cache_key("x")]) == {} and not cache.enabled
    assert "is not a file (a folder?)" in cache.reason
    assert stat.S_IMODE(os.stat(folder).st_mode) == 0o755
    for command in (["info"], ["clear"], ["prune", "--max-size", "0"]):
        code, out, err = run_cli("--cache", str(tmp_path), "cache", *command)
        assert code == 2 and out == "" and err.count("\n") == 1 and "it is not a file (a folder?)" in err, err
    assert stat.S_IMODE(os.stat(folder).st_mode) == 0o755
