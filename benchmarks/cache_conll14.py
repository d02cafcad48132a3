"""What the persistent cache saves on CoNLL-2014 (issue 27): ERRANT and PT-M2 run again against
the peers, a sixth system after five, the cache's size, and `m2 annotate` of a large generated
corpus with the cache on.

* ERRANT: `gecmetric --cache DIR errant -s INPUT -r GOLD -o AMU CAMB CUUI INPUT REF0 -p 1`, cold
  (a new folder for every repeat) and warm (the folder the cold run filled), and `--no-cache`,
  against ERRANT 3.0.2's `errant_parallel` + `errant_compare` system after system (the peer of
  benchmarks/errant_conll14.py: same virtualenv, gold, model and word list). Target: warm >= 30x
  the peer's CPU. The TP/FP/FN/P/R/F of every run must equal the peer's.
* A sixth system after five: REF1 added to the five with their parses cached; its cost beside
  the five warm, against the cold cost per parsed line times the lines it adds.
* PT-M2 (sentence level, tiny BERT of gecmetrics.core.models.tiny, one torch thread): ours with
  five systems (AMU CAMB CUUI INPUT NULL: the authors' code stops on REF0) in one process, cold
  and warm, against the authors' evaluate.py (github
  pygongnlp/PT-M2, one run per system, from a checkout: `--peer-src`, `--peer-python`; see
  benchmarks/pt_conll14.py). Target: warm >= 50x the authors' CPU; F equal at 4 decimals.
* Size: the cache file (write-ahead log folded in) per 1,000 stored parses and pair scores.
* `--annotate-lines N`: `m2 annotate` of N generated lines (benchmarks/scale.py's generator),
  cold and warm with the cache on: peak memory (target < 1 GB at 10^6 lines) and cache size.

Times are medians of `--repeats` runs (CPU = user + sys of the command and its children); this
machine is shared, so CPU is the figure to read, and wall only on a quiet machine.

    python benchmarks/cache_conll14.py [--quick] [--no-peers] [--repeats 3] [--parts errant pt annotate]
"""
from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import os
import shutil
import sqlite3
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _harness as harness  # noqa: E402
import errant_conll14 as errant_bench  # noqa: E402
import pt_conll14 as pt_bench  # noqa: E402

SYSTEMS = ["AMU", "CAMB", "CUUI", "INPUT", "REF0"]
PT_SYSTEMS = ["AMU", "CAMB", "CUUI", "INPUT", "NULL"]
"""REF0 as a system stops the authors' PT-M2 code (an assertion in its compute_weight_edits fails on
two insertions at one position, sentence 'At the same time , we are prepared ...'); NULL runs."""
SIXTH = "REF1"
ERRANT_TARGET, PT_TARGET = 30.0, 50.0
FILE_NAME = "cache-v1.sqlite3"


def settled_size(folder: Path) -> tuple[int, int, int]:
    """(bytes of the cache file once its write-ahead log is folded in, stored parses, stored
    ERRANT edits of (source, correction) pairs)."""
    path = folder / FILE_NAME
    with contextlib.closing(sqlite3.connect(str(path))) as conn:  # closed, so its log is gone before copies
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
    entries = namespace_entries(folder)
    parses, edits = (sum(count for name, (count, _) in entries.items() if name.startswith(kind))
                     for kind in ("spacy-parse/", "errant-edits/"))
    return os.path.getsize(path), parses, edits


def namespace_entries(folder: Path) -> dict[str, tuple[int, int]]:
    """Per namespace of the cache file: (entries, bytes of their keys and values)."""
    with contextlib.closing(sqlite3.connect(str(folder / FILE_NAME))) as conn:
        return {name: (count, size) for name, count, size in conn.execute(
            "SELECT n.name, COUNT(*), SUM(LENGTH(e.key) + LENGTH(e.value)) FROM entries e "
            "JOIN namespaces n ON n.id = e.ns GROUP BY n.name")}


def cold_and_warm(command, folder: Path, repeats: int) -> tuple[harness.Timing, harness.Timing]:
    """`command(folder)` with a new cache folder every cold repeat, then warm on the last one."""
    cold = harness.Timing(command(folder))
    for _ in range(repeats):
        shutil.rmtree(folder, ignore_errors=True)
        run = harness.run_once(command(folder))
        if run.returncode != 0:
            raise harness.CommandFailed(run.stderr[-2000:])
        cold.runs.append(run)
    return cold, harness.measure(command(folder), repeats)


def ratio_line(label: str, peer_cpu: float, ours: harness.Timing, target: float) -> float:
    value = peer_cpu / max(ours.cpu_seconds, 1e-9)
    verdict = "" if not target else f" (target >= {target:g}x)" + ("" if value >= target else "  BELOW TARGET")
    print(f"{label}: {value:6.1f}x{verdict}")
    return value


# ----------------------------------------------------------------------------- ERRANT


def errant_part(args, data: Path, work: Path) -> bool:
    print("\n## ERRANT: gecmetric errant, the systems in one run, -p 1 | errant_parallel + errant_compare per system")
    missing = harness.spacy_model_missing(args.spacy_model)
    if missing is not None:
        print(f"spaCy or the model {args.spacy_model!r} is not available ({missing}): skipped")
        return True
    systems = ["AMU"] if args.quick else SYSTEMS
    peer = errant_bench.find_peer(args.no_peers)
    files, gold_in = errant_bench.input_files(data, systems + [SIXTH], errant_bench.QUICK_LINES if args.quick else None,
                                              work)
    gold = errant_bench.make_gold(peer, args.spacy_model, gold_in, work, args.quick)

    def command(cache: list[str], names: list[str]) -> list[str]:
        return [*harness.gecmetric_command(), *cache, "errant", "-s", str(files / "INPUT"), "-r", str(gold), "-o",
                *(str(files / name) for name in names), "--spacy-model", args.spacy_model, "-p", "1",
                "--errant-compare"]  # errant_compare's report of each system (the default output is a table)

    folder = work / "errant-cache"
    off = harness.measure(command(["--no-cache"], systems), args.repeats)
    cold, warm = cold_and_warm(lambda f: command(["--cache", str(f)], systems), folder, args.repeats)
    size, parses, pairs = settled_size(folder)
    harness.report("ours  --no-cache", off)
    harness.report("ours  cold (new cache)", cold)
    harness.report("ours  warm", warm)
    paths = [str(files / name) for name in systems]
    rows = {label: errant_bench.our_rows(timing.stdout, paths) for label, timing in
            (("off", off), ("cold", cold), ("warm", warm))}
    # every system's TP FP FN P R F0.5 read (an empty reading would agree vacuously)
    agreed = all(rows["off"].get(Path(p).name) for p in paths) and rows["off"] == rows["cold"] == rows["warm"]
    if not agreed:
        print(f"off/cold/warm: MISMATCH or unread {rows}")
    print(f"cache: {parses} parses and the edits of {pairs} pairs, {size / 1e6:.2f} MB: {size / parses * 1000 / 1e6:.3f} "
          f"MB per 1,000 parsed lines ({size / (len(systems) + 1) / count_lines(files / 'INPUT') * 1000 / 1e6:.3f} MB "
          f"per 1,000 corpus lines of the {len(systems)} systems and the source)")
    # a sixth system after five
    sixth_folder = work / "errant-sixth"
    sixth_runs = harness.Timing([])
    for _ in range(args.repeats):
        shutil.rmtree(sixth_folder, ignore_errors=True)
        shutil.copytree(folder, sixth_folder)
        sixth_runs.runs.append(harness.run_once(command(["--cache", str(sixth_folder)], systems + [SIXTH])))
    added = settled_size(sixth_folder)[1] - parses  # new parses
    load = f"import spacy; spacy.load({args.spacy_model!r}, exclude=['ner'])"
    startup = harness.measure([sys.executable, "-c", load], args.repeats)
    harness.report("spaCy start-up alone (import, load)", startup)
    per_line = (cold.cpu_seconds - warm.cpu_seconds - startup.cpu_seconds) / parses
    harness.report(f"ours  +{SIXTH}, the others cached", sixth_runs)
    extra = sixth_runs.cpu_seconds - warm.cpu_seconds
    share = startup.cpu_seconds + added * per_line
    print(f"{SIXTH} parsed {added} new lines ({added / parses:.1%} of the {parses} already cached); it cost "
          f"{extra:.2f} s CPU beyond the others warm, against {share:.2f} s expected: spaCy's start-up plus its "
          f"share of the cold run's parsing ({per_line * 1000:.2f} ms per parsed line) = {extra / max(share, 1e-9):.2f}x")
    if peer is None:
        print("peer not run (--no-peers or not available): no ratio")
        return agreed
    timed = errant_bench.time_peer(peer, args.spacy_model, files, gold, systems, work, args.peer_repeats)
    if timed is None:
        return agreed
    peer_cpu, peer_wall, peer_peak, peer_rows = timed
    print(f"peer  total: cpu {peer_cpu:.2f} s, wall {peer_wall:.2f} s, peak RSS {peer_peak:.1f} MB")
    ratio_line("CPU ratio, peer / ours --no-cache", peer_cpu, off, 0)
    ratio_line("CPU ratio, peer / ours cold", peer_cpu, cold, 0)
    ratio_line("CPU ratio, peer / ours warm", peer_cpu, warm, ERRANT_TARGET)
    same = all(rows["warm"].get(s) == peer_rows.get(s) for s in systems)
    print("scores: OK (same TP FP FN P R F0.5 cold, warm, off and peer)" if same and agreed else "scores: MISMATCH")
    return same and agreed


def count_lines(path: Path) -> int:
    return harness.count_lines(path)


# ----------------------------------------------------------------------------- PT-M2


def pt_part(args, data: Path, work: Path) -> bool:
    print("\n## PT-M2 sentence level, tiny BERT, one torch thread: ours five systems in one process | the authors' "
          "evaluate.py per system")
    if importlib.util.find_spec("torch") is None or importlib.util.find_spec("transformers") is None:
        print("PT-M2 needs torch and transformers: skipped")
        return True
    from gecmetrics.core.models.tiny import build_tiny_bert

    systems = ["AMU"] if args.quick else PT_SYSTEMS
    count = args.sentences if args.sentences is not None else (20 if args.quick else 0)
    os.environ["OMP_NUM_THREADS"], os.environ["HF_HUB_OFFLINE"] = "1", "1"
    model, subset = work / "tiny", work / "pt-data"
    build_tiny_bert(model)
    pt_bench.write_subset(data, subset, count, systems)

    def command(cache: list[str]) -> list[str]:
        return [*harness.gecmetric_command(), *cache, "pt-m2", "-s", str(subset / "reference.m2"),
                "-o", *(str(subset / s) for s in systems), "--model", str(model), *pt_bench.TINY, "--level",
                "sentence", "--json", "--scale", "1"]

    folder = work / "pt-cache"
    off = harness.measure(command(["--no-cache"]), args.repeats)
    cold, warm = cold_and_warm(lambda f: command(["--cache", str(f)]), folder, args.repeats)
    size = settled_size(folder)[0]
    kinds = namespace_entries(folder)
    pairs, pair_bytes = (sum(v[i] for k, v in kinds.items() if k.startswith("pt/bertscore-f/")) for i in (0, 1))
    texts, text_bytes = (sum(v[i] for k, v in kinds.items() if k.startswith("models/token-ids/")) for i in (0, 1))
    harness.report("ours  --no-cache", off)
    harness.report("ours  cold (new cache)", cold)
    harness.report("ours  warm", warm)
    scores = [{Path(row["system"]).name: row["f"] for row in json.loads(t.stdout)} for t in (off, cold, warm)]
    agreed = scores[0] == scores[1] == scores[2]
    print(f"F bits the same off, cold and warm: {'yes' if agreed else 'NO'}")
    sentences = count or count_lines(subset / "INPUT")
    print(f"cache: {pairs} pair scores ({pair_bytes / 1e6:.2f} MB of keys and values) and the token ids of {texts} "
          f"texts ({text_bytes / 1e6:.2f} MB), file {size / 1e6:.2f} MB: {size / pairs * 1000 / 1e6:.3f} MB per 1,000 "
          f"pairs, {size / sentences / len(systems) * 1000 / 1e6:.3f} MB per 1,000 system sentences")
    peer_source = None if args.no_peers else pt_bench.peer_setup(args, model, work)
    if peer_source is None:
        print("the authors' code not run: no ratio")
        return agreed
    peer_cpu = 0.0
    for system in systems:
        timing, theirs = pt_bench.peer_score(args, peer_source, subset, system, "sentence")
        if timing is None:
            return False
        peer_cpu += timing.cpu_seconds
        same = f"{scores[2][system]:.4f}" == f"{theirs:.4f}"
        agreed &= same
        print(f"{system:6s} authors {pt_bench.usage(timing)}  F {theirs:.4f}  ours warm F {scores[2][system]:.4f}  "
              f"{'same' if same else 'MISMATCH'}")
    print(f"authors total cpu {peer_cpu:.2f} s")
    ratio_line("CPU ratio, authors / ours --no-cache", peer_cpu, off, 0)
    ratio_line("CPU ratio, authors / ours cold", peer_cpu, cold, 0)
    ratio_line("CPU ratio, authors / ours warm", peer_cpu, warm, PT_TARGET)
    return agreed


# ----------------------------------------------------------------------------- m2 annotate at scale


def annotate_part(args, shared: Path, work: Path) -> bool:
    import scale

    lines = args.annotate_lines or (2000 if args.quick else 100_000)
    print(f"\n## m2 annotate of {lines:,} generated lines (source, hypothesis), cache on, -p {args.jobs}, one run each")
    corpus = work / "scale"
    corpus.mkdir()
    scale.build(corpus, lines, shared)
    folder = work / "annotate-cache"

    def command(cache: Path) -> list[str]:
        return [*harness.gecmetric_command(), "--cache", str(cache), "m2", "annotate", "-orig", str(corpus / "src"),
                "-cor", str(corpus / "hyp"), "--spacy-model", args.spacy_model, "-p", str(args.jobs), "-o",
                str(work / "out.m2")]

    cold, warm = cold_and_warm(command, folder, 1)
    size, parses, pairs = settled_size(folder)
    for label, timing in (("cold", cold), ("warm", warm)):
        verdict = "" if timing.peak_rss_mb < scale.MEMORY_TARGET_MB else "  ABOVE 1 GB"
        harness.report(f"ours  m2 annotate {label}", timing)
        print(f"   peak memory {timing.peak_rss_mb:.0f} MB{verdict}")
    print(f"cache: {parses:,} parses and the edits of {pairs:,} pairs, {size / 1e6:.1f} MB: "
          f"{size / parses * 1000 / 1e6:.3f} MB per 1,000 parsed lines")
    return max(cold.peak_rss_mb, warm.peak_rss_mb) < scale.MEMORY_TARGET_MB


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    harness.add_common_arguments(parser)
    parser.add_argument("--parts", nargs="+", choices=["errant", "pt", "annotate"], default=["errant", "pt"],
                        help="what to time (default: errant pt; annotate is long)")
    parser.add_argument("--spacy-model", default=errant_bench.DEFAULT_MODEL)
    parser.add_argument("--sentences", type=int, default=None, help="PT-M2: first N sentences (default all)")
    parser.add_argument("--annotate-lines", type=int, default=None, help="m2 annotate: generated lines (10^5)")
    parser.add_argument("-p", "--jobs", type=int, default=2, help="m2 annotate: worker processes (default 2)")
    parser.add_argument("--peer-src", default=os.environ.get("GECMETRICS_PTM2_SRC", "/tmp/peers/ptm2-src"))
    parser.add_argument("--peer-python", default=os.environ.get("GECMETRICS_PTM2_PYTHON", "/tmp/peers/ptm2/bin/python"))
    args = parser.parse_args(argv)
    args.repeats = args.repeats or (1 if args.quick else 3)
    shared = harness.shared_data()
    data = shared / "conll14"
    harness.print_header("# The persistent cache on CoNLL-2014: ERRANT and PT-M2 cold and warm against the peers")
    print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())}; CPU medians of {args.repeats} runs")
    ok = True
    with tempfile.TemporaryDirectory(prefix="gecmetrics-cache-") as name:
        work = Path(name)
        for part, run in (("errant", errant_part), ("pt", pt_part), ("annotate", annotate_part)):
            if part in args.parts:
                (work / part).mkdir()
                ok &= run(args, shared if part == "annotate" else data, work / part)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
