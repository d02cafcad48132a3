"""The C extension's loops against the NumPy loops and plain Python (gecmetrics.core.backend).

Every statistic must be the same whichever implementation counted it; the n-gram ids may be
numbered differently (no metric sees them)."""
from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gecmetrics import GLEU, GLEU2015, GREEN
from gecmetrics.core import backend
from gecmetrics.core.ngrams import EncodedCorpus, locate

needs_compiled = pytest.mark.skipif(backend.compiled is None, reason="the C extension is not built here")

# words from a small vocabulary, with every kind of whitespace str.split() knows between them
WHITESPACE = [" ", "  ", "\t", "\u00a0", "\u3000", "\x1c", "\x85", "\u2028", "\r", "\x0b"]
word_line = st.lists(st.tuples(st.sampled_from(["a", "b", "c", "é", "ß", "語"]), st.sampled_from(WHITESPACE)),
                     max_size=12).map(lambda pairs: "".join(w + s for w, s in pairs))


def test_compiled_core_is_built_in_ci():
    """CI builds the extension: a broken build must not pass by falling back to NumPy."""
    if os.environ.get("CI", "").lower() not in ("1", "true", "yes"):
        pytest.skip("checked in CI only (a user's machine may lack a C compiler)")
    assert backend.compiled is not None


def test_environment_switch(monkeypatch):
    monkeypatch.setenv(backend.ENVIRONMENT_VARIABLE, "1")
    assert not backend.compiled_core_enabled()
    assert backend.core_name().startswith("NumPy")
    assert not EncodedCorpus(["a"], [["a"]], 2).encoder.compiled
    monkeypatch.setenv(backend.ENVIRONMENT_VARIABLE, "0")
    assert backend.compiled_core_enabled() == (backend.compiled is not None)


@needs_compiled
@settings(max_examples=80, deadline=None)
@given(st.lists(word_line, max_size=6))
def test_word_ids_are_str_split_in_order_of_first_sight(lines):
    """Words found where they lie in the line (never a str per token), in lines of every kind
    (ASCII, Latin-1, UCS-2: 'é' in an ASCII word's line is the same word in a line holding '語'),
    ids kept across calls as a dict's setdefault numbers them."""
    words = backend.compiled.WordIds()
    expected_vocabulary: dict[str, int] = {}
    for part in (lines, lines[::-1], ["b a", "a\u3000語 b"]):
        flat, lengths = words.encode(part)
        ids, lengths = np.frombuffer(flat, np.int64).tolist(), np.frombuffer(lengths, np.int64).tolist()
        expected = [expected_vocabulary.setdefault(w, len(expected_vocabulary)) for line in part for w in line.split()]
        assert ids == expected
        assert lengths == [len(line.split()) for line in part]
        assert len(words) == len(expected_vocabulary)


@needs_compiled
def test_word_ids_tell_words_of_equal_hash_apart_and_refuse_non_text():
    """Thousands of words (the table grows, probes collide): each its own id; a non-str line
    is a TypeError."""
    words = backend.compiled.WordIds()
    many = [f"w{k} \u00e9{k} \u8a9e{k}" for k in range(5000)]
    flat, _ = words.encode(many)
    assert np.frombuffer(flat, np.int64).tolist() == list(range(15000)) and len(words) == 15000
    flat, _ = words.encode([" ".join(reversed(many[7].split()))])
    assert np.frombuffer(flat, np.int64).tolist() == [23, 22, 21]
    with pytest.raises(TypeError):
        words.encode(["a", 3])


@needs_compiled
def test_count_rows_by_hand():
    """Line 0 'x y x y' (ids 5 6 5 6), line 1 empty, line 2 'y': order 1 rows per line sorted by
    id with counts; order 2 has the ids of (5,6) and (6,5) in order of first sight."""
    counter = backend.compiled.NgramIds(2)
    units = np.array([5, 6, 5, 6, 6], np.int64)
    (g1, c1, r1), (g2, c2, r2) = [[np.frombuffer(a, np.int64).tolist() for a in order]
                                  for order in counter.count(units, np.array([4, 0, 1], np.int64))]
    assert (g1, c1, r1) == ([5, 6, 6], [2, 2, 1], [2, 0, 1])
    assert (g2, c2, r2) == ([0, 1], [2, 1], [2, 0, 0])
    # ids are kept across calls: (6, 5) is id 1 again, (5, 5) is new
    second = [[np.frombuffer(a, np.int64).tolist() for a in order]
              for order in counter.count(np.array([6, 5, 5], np.int64), np.array([3], np.int64))]
    assert second[1] == [[1, 2], [1, 1], [2]]


@needs_compiled
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), unit_bits=st.sampled_from([3, 11, 12, 21, 22, 23, 32]),
       longest=st.sampled_from([1, 5, 40, 300]))
def test_count_sorts_many_lines_at_once_as_each_line_alone(seed, unit_bits, longest):
    """A call holding many units sorts every line's ids at once (a radix sort of 1, 2 or 3 passes,
    by the largest id); the same lines counted one call each (each line sorted alone) give the
    same rows byte for byte: ids are given in order of first sight either way."""
    rng = np.random.default_rng(seed)
    lengths = rng.integers(0, longest + 1, size=max(2, 12_000 // (longest // 2 + 1)))
    units = rng.integers(0, 2**unit_bits, size=int(lengths.sum()), dtype=np.int64)
    if unit_bits <= 3:  # few distinct units: repeated n-grams, counts above 1
        units = units % 3
    together = backend.compiled.NgramIds(4).count(units, lengths)
    alone = backend.compiled.NgramIds(4)
    pieces: list[list[list[bytes]]] = [[[], [], []] for _ in range(4)]
    start = 0
    for length in lengths.tolist():
        for order, arrays in enumerate(alone.count(units[start:start + length], np.array([length], np.int64))):
            for part, array in zip(pieces[order], arrays):
                part.append(array)
        start += length
    assert len(units) > 4096  # (past RADIX_FROM)
    for order in range(4):
        assert list(together[order]) == [b"".join(part) for part in pieces[order]], order


@needs_compiled
@pytest.mark.parametrize("units, lengths, error", [
    (np.array([1, 2], np.int32), np.array([2], np.int64), TypeError),
    (np.array([1, 2], np.int64), np.array([3], np.int64), ValueError),
    (np.array([1, 2], np.int64), np.array([3, -1], np.int64), ValueError),
    (np.array([1, 1 << 32], np.int64), np.array([2], np.int64), OverflowError),
    (np.array([-1], np.int64), np.array([1], np.int64), OverflowError),
])
def test_count_rejects_bad_arrays(units, lengths, error):
    with pytest.raises(error):
        backend.compiled.NgramIds(2).count(units, lengths)


@needs_compiled
def test_python2_draws_rejects_bad_arguments():
    with pytest.raises(ValueError):
        backend.compiled.python2_draws(3, 4, 0)
    assert backend.compiled.python2_draws(0, 5, 2) == b""


@needs_compiled
@settings(max_examples=30, deadline=None)
@given(size=st.integers(0, 40), references=st.integers(1, 4), width=st.integers(1, 5),
       iterations=st.integers(0, 40), first=st.integers(0, 600), wide=st.booleans(), threads=st.integers(1, 3))
def test_python2_sampled_sums_equal_the_draws_sums(size, references, width, iterations, first, wide, threads):
    """The fused C loop (draw and add, groups of 16 iterations, tiles of sentences, a range of
    iterations per thread) against summing the stored draws' rows: the same integers."""
    from gecmetrics.core.aggregate import _python2_draws_from, python2_sampled_sums, reducer_threads, sum_selected

    rng = np.random.default_rng(size * 1000 + iterations)
    stats = rng.integers(-2**30, 2**30, size=(size, references, width)).astype(np.int64 if wide else np.int32)
    draws = _python2_draws_from(first, iterations, size, references, False)
    expected = np.zeros((iterations, width), np.int64)
    for j in range(iterations):
        for d in range(size):
            expected[j] += stats[d, draws[j, d]]
    raw = backend.compiled.python2_sampled_sums(stats, size, references, width, iterations, first)
    assert np.array_equal(np.frombuffer(raw, np.int64).reshape(iterations, width), expected)
    if first == 0:
        with reducer_threads(threads):
            assert np.array_equal(python2_sampled_sums(stats, iterations), expected)
        assert np.array_equal(sum_selected(stats, draws), expected)


@needs_compiled
def test_python2_sampled_sums_rejects_bad_arguments():
    stats = np.zeros((3, 2, 4), np.int64)
    with pytest.raises(ValueError):
        backend.compiled.python2_sampled_sums(stats, 3, 0, 4, 5, 0)
    with pytest.raises(TypeError):  # the shape given must be the buffer's
        backend.compiled.python2_sampled_sums(stats, 4, 2, 4, 5, 0)
    with pytest.raises(TypeError):
        backend.compiled.python2_sampled_sums(stats.astype(np.float64), 3, 2, 4, 5, 0)
    with pytest.raises(TypeError):
        backend.compiled.python2_sampled_sums(stats.astype(np.int16), 3, 2, 4, 5, 0)
    assert backend.compiled.python2_sampled_sums(stats, 3, 2, 4, 0, 0) == b""


@needs_compiled
def test_region_sums_by_hand_and_rejects_bad_arrays():
    """Two sentences, rows (s, c, place), rho = [1, 2]: (2, 1, 0) (0, 3, -1) | (0, 3, 1) (3, 2, 0). Per row
    TK = min(s, r, c), TI = max(min(r, c) - s, 0), TD' = min(s, r) - min(s, max(r, c)): sentence 1
    (1, 0, 0) + (0, 0, 0); sentence 2 (0, 2, 0) + (1, 0, -1)."""
    rho, i64 = np.array([1, 2], np.int64), (lambda *v: np.array(v, np.int64))
    sums = backend.compiled.region_sums(i64(2, 0, 0, 3), rho, i64(0, -1, 1, 0), i64(1, 3, 3, 2), i64(0, 2, 4))
    assert np.frombuffer(sums, np.int64).reshape(-1, 3).tolist() == [[1, 0, 0], [1, 2, -1]]
    good = [i64(2, 0), rho, i64(0, -1), i64(1, 3), i64(0, 2)]
    for at, bad in [(2, i64(0, 2)), (2, i64(0, -2)), (3, i64(1)), (4, i64(0, 1)), (4, i64(1, 2)), (4, i64(0, 3, 2)),
                    (0, i64(2, 0).astype(np.int32))]:
        arguments = list(good)
        arguments[at] = bad
        with pytest.raises((ValueError, TypeError)):
            backend.compiled.region_sums(*arguments)


corpus_line = st.lists(st.sampled_from(["a", "b", "c", "d", "a b"]), max_size=10).map(" ".join)


@needs_compiled
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_metric_statistics_equal_between_cores(data):
    """GLEU+ and GREEN statistics, word and char, several hypotheses through one encoder."""
    size = data.draw(st.integers(1, 5))
    lines = st.lists(corpus_line, min_size=size, max_size=size)
    sources, hypotheses = data.draw(lines), [data.draw(lines) for _ in range(3)]
    references = [data.draw(lines) for _ in range(data.draw(st.integers(1, 3)))]
    unit = data.draw(st.sampled_from(["word", "char"]))
    metrics = [GLEU(n=4, unit=unit), GLEU2015(n=3, unit=unit), GREEN(n=4, unit=unit)]
    encoded = {core: EncodedCorpus(sources, references, 4, unit, compiled=core) for core in (True, False)}
    for hypothesis in hypotheses + [sources]:
        for metric in metrics:
            compiled, numpy = (metric.statistics(encoded[core], hypothesis) for core in (True, False))
            assert compiled.dtype == numpy.dtype
            np.testing.assert_array_equal(compiled, numpy)


def test_version_names_the_core(tmp_path):
    command = [sys.executable, "-c", "from gecmetrics.cli import main; main()", "--version"]
    shown = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    assert f"counting core: {backend.core_name()}" in shown
    forced = subprocess.run(command, capture_output=True, text=True, check=True,
                            env={**os.environ, backend.ENVIRONMENT_VARIABLE: "1"}).stdout
    assert "counting core: NumPy" in forced


@needs_compiled
@settings(max_examples=100, deadline=None)
@given(st.sets(st.integers(-50, 50), max_size=30), st.lists(st.integers(-60, 60), max_size=30), st.booleans())
def test_locate_is_the_same_search(keys, queries, sort_queries):
    """The C merge (sorted queries) and its restart (unsorted ones) find what searchsorted finds."""
    keys = np.array(sorted(keys), np.int64)
    queries = np.array(sorted(queries) if sort_queries else queries, np.int64)
    expected = [keys.tolist().index(q) if q in keys else -1 for q in queries.tolist()]
    for compiled in (True, False):
        assert locate(keys, queries, compiled).tolist() == expected


@needs_compiled
@pytest.mark.parametrize("command", [
    ["gleu", "-f", "-d", "6", "-o", "AMU", "CAMB", "INPUT", "REF0"],
    ["green", "-b", "0.5", "1", "2", "-d", "6", "-c", "AMU", "CUUI"],
    ["green", "-t", "char", "-d", "6", "-c", "AMU"],
])
def test_real_corpus_same_output_with_either_core(conll14, monkeypatch, command):
    """CoNLL-2014 end to end: the NumPy loops print what the C loops print (which the
    reproduction tests check against the original implementations)."""
    from click.testing import CliRunner

    from gecmetrics.cli import main

    files = {"AMU", "CAMB", "CUUI", "INPUT", "REF0"}
    args = [str(conll14 / a) if a in files else a for a in command]
    args += ["-s", str(conll14 / "INPUT"), "-r", str(conll14 / "REF0"), str(conll14 / "REF1")]
    outputs = []
    for switch in ("0", "1"):
        monkeypatch.setenv(backend.ENVIRONMENT_VARIABLE, switch)
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0, result.output
        outputs.append(result.stdout)
    assert outputs[0] == outputs[1]
    assert outputs[0].count("\n") >= 2


def test_keep_freed_memory_reports_whether_it_applied():
    import platform

    applied = backend.keep_freed_memory()
    assert isinstance(applied, bool)
    if backend.compiled is not None and platform.system() == "Linux" and platform.libc_ver()[0] == "glibc":
        assert applied
    if backend.compiled is None:
        assert not applied


def _resident_bytes() -> int:
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def test_release_freed_memory_gives_the_kept_memory_back():
    """What keep_freed_memory keeps (arrays below glibc's mmap threshold, freed) stays resident
    until release_freed_memory hands it back: the report calls it before its attribution."""
    import platform

    if backend.compiled is None:
        assert backend.release_freed_memory() is False
        return
    if platform.system() != "Linux" or platform.libc_ver()[0] != "glibc":
        pytest.skip("the allocator hints are glibc's")
    assert backend.keep_freed_memory()
    arrays = [np.ones(1 << 20) for _ in range(20)]  # 20 x 8 MB on the heap, each touched
    del arrays
    kept = _resident_bytes()
    assert backend.release_freed_memory() is True
    assert kept - _resident_bytes() > 100 * 2**20


_CONSOLE_SCRIPT_GC = (
    "import gc, os\nfrom gecmetrics.cli import process\n"
    "def main(prog_name):\n"
    "    print('while importing', gc.isenabled())\n"
    "    process.settle_start_up()\n"
    "    print('command', gc.isenabled(), gc.get_freeze_count() > 1000, flush=True)\n"
    "process.run_and_exit(main)\n")


def test_console_script_collects_no_garbage_until_the_command_is_imported():
    """The console script runs without the cyclic collector until the command's modules are
    imported (the group's callback settles start-up), then freezes what they made and collects
    again; a Python caller's process keeps its collector as it is and freezes nothing."""
    done = subprocess.run([sys.executable, "-c", _CONSOLE_SCRIPT_GC], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["while importing False", "command True True"]
    import gc

    from gecmetrics.cli.process import settle_start_up

    frozen, enabled = gc.get_freeze_count(), gc.isenabled()
    settle_start_up()
    assert (gc.get_freeze_count(), gc.isenabled()) == (frozen, enabled)


def test_an_extension_built_from_older_sources_is_left_unused(monkeypatch):
    """An editable install whose C sources changed without a rebuild keeps an extension that lacks
    what the package calls (an AttributeError deep in a run): it is left unused, the NumPy loops
    give the numbers, and --version says why."""
    import types

    current = types.SimpleNamespace(API_VERSION=backend.COMPILED_API)
    assert backend.usable_extension(current) is current
    for stale in (types.SimpleNamespace(), types.SimpleNamespace(API_VERSION=backend.COMPILED_API - 1), None):
        assert backend.usable_extension(stale) is None
    monkeypatch.setattr(backend, "_built", types.SimpleNamespace())
    monkeypatch.setattr(backend, "compiled", None)
    assert not backend.compiled_core_enabled()
    assert backend.core_name() == "NumPy (the C extension was built from older sources: pip install -e . builds it again)"
