"""ERRANT annotation of one very long hypothesis line: time and peak memory of `gecmetric m2
annotate` (errant_parallel) with a 14-token source and a garbage line of 1,000, 2,000 and
100,000 tokens, and the same line alone in this process, stage by stage.

The source is the first 14-token line of CoNLL-2014's INPUT; the hypothesis is that many tokens
drawn (seeded) from {the, cat, sat, on, a, mat, .}: the alignment leaves one long run of
insertions around a few substitutions, where ERRANT 3.0.2's merge lists every sub-range of the
run and joins its tokens (cubic time, quadratic memory: before this merge, 43 s at 1,000 tokens,
over 60 s at 2,000 and a MemoryError after 33 s at 5.8 GB at 100,000).

Each case runs `gecmetric m2 annotate -orig SRC -cor HYP -o OUT` as a child process (CPU, wall,
peak RSS, median of --repeats) beside a baseline run whose hypothesis changes one word (start-up
and the spaCy model: what every command pays), and the long line is then parsed, aligned, merged
and classified in this process (CPU per stage). Targets at 2,000 tokens: under 3 s and 300 MB
more than the baseline. The peer, ERRANT 3.0.2's errant_parallel (a virtualenv made on first
use, or GECMETRICS_ERRANT_PYTHON), runs the 1,000- and 2,000-token cases within --peer-timeout
seconds, and its M2 must equal ours byte for byte; it cannot run the 100,000-token one (5
billion ranges).

    python benchmarks/errant_long_lines.py                     # full run, with the peer
    python benchmarks/errant_long_lines.py --quick --no-peers  # CI smoke: 1,000 and 2,000 tokens
"""
from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _harness as harness  # noqa: E402
from errant_conll14 import DEFAULT_MODEL, PEER_RUNNER, find_peer  # noqa: E402

GARBAGE_WORDS = "the cat sat on a mat .".split()
SOURCE_TOKENS = 14
LENGTHS = [1_000, 2_000, 100_000]
QUICK_LENGTHS = [1_000, 2_000]
PEER_LENGTHS = [1_000, 2_000]
TARGET_TOKENS = 2_000
TARGET_SECONDS = 3.0
TARGET_EXTRA_MB = 300.0


def write_case(data: Path, folder: Path, tokens: int | None) -> tuple[Path, Path]:
    """The source file (the first 14-token CoNLL-2014 line) and a hypothesis file: ``tokens``
    garbage tokens (seeded), or the source with one word changed (None: the baseline)."""
    source = next(line for line in (data / "INPUT").read_text(encoding="utf-8").split("\n")
                  if len(line.split()) == SOURCE_TOKENS)
    if tokens is None:
        words = source.split()
        words[2] = "refer"
        hypothesis = " ".join(words)
    else:
        rng = random.Random(tokens)
        hypothesis = " ".join(rng.choice(GARBAGE_WORDS) for _ in range(tokens))
    name = "baseline" if tokens is None else str(tokens)
    (folder / f"src_{name}").write_text(source + "\n", encoding="utf-8")
    (folder / f"hyp_{name}").write_text(hypothesis + "\n", encoding="utf-8")
    return folder / f"src_{name}", folder / f"hyp_{name}"


def ours(source: Path, hypothesis: Path, output: Path, model: str, repeats: int) -> harness.Timing:
    return harness.measure([*harness.gecmetric_command(), "m2", "annotate", "-orig", str(source), "-cor",
                            str(hypothesis), "-o", str(output), "--spacy-model", model], repeats)


def stages(source: Path, hypothesis: Path, model: str) -> str:
    """CPU seconds of each stage for the line in this process (the model loaded first), through
    the English language's steps (those ERRANT's annotator runs)."""
    from gecmetrics.metrics.errant import Annotator

    annotator = Annotator(model)
    language = annotator.language
    annotator.parse(["warm up"])
    texts = [source.read_text(encoding="utf-8").strip(), hypothesis.read_text(encoding="utf-8").strip()]
    start = time.process_time()
    orig, cor = annotator.parse(texts)
    parsed = time.process_time()
    [alignment] = language.alignments(orig, cor)
    aligned = time.process_time()
    spans = language.merge(alignment, orig, cor)
    merged = time.process_time()
    edits = language.classify(spans, orig, cor)
    typed = time.process_time()
    return (f"parse {parsed - start:.3f} s, align {aligned - parsed:.3f} s, merge {merged - aligned:.3f} s "
            f"({len(alignment):,} operations -> {len(spans)} edits), classify {typed - merged:.3f} s "
            f"({len(edits)} edits)")


def run_peer(peer: Path, model: str, source: Path, hypothesis: Path, output: Path, timeout: float
             ) -> harness.RunMeasurement | None:
    """errant_parallel on the case, through the harness's launcher (its own CPU and peak RSS),
    killed with its process group after ``timeout`` seconds (None then)."""
    with tempfile.TemporaryDirectory(prefix="gecmetrics-peer-run-") as name:
        result_path = Path(name) / "rusage"
        command = [str(peer), "-c", PEER_RUNNER, model, "parallel", "-orig", str(source), "-cor", str(hypothesis),
                   "-out", str(output)]
        launcher = [sys.executable, "-I", "-S", "-c", harness.LAUNCHER, str(result_path), *command]
        process = subprocess.Popen(launcher, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                   stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            _, stderr = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            return None
        if not result_path.exists():
            print(f"[peer] failed: {stderr.decode('utf-8', 'replace').strip()[-500:]}")
            return None
        cpu, wall, max_rss, code = result_path.read_text().split()
    if int(code) != 0:
        print(f"[peer] exited with {code}: {stderr.decode('utf-8', 'replace').strip()[-500:]}")
        return None
    return harness.RunMeasurement(float(cpu), float(wall), int(max_rss) * (1 if sys.platform == "darwin" else 1024),
                                  0, "", "")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    harness.add_common_arguments(parser)
    parser.add_argument("--spacy-model", default=DEFAULT_MODEL,
                        help=f"spaCy model name or path (default {DEFAULT_MODEL})")
    parser.add_argument("--peer-timeout", type=float, default=900.0,
                        help="seconds errant_parallel may take on one case (default 900)")
    args = parser.parse_args(argv)
    data = harness.shared_data("conll14")
    missing = harness.spacy_model_missing(args.spacy_model)
    if missing is not None:
        print(f"spaCy or the model {args.spacy_model!r} is not available ({missing}): pip install 'gecmetrics[errant]' "
              "and a model; nothing to time")
        return 0
    repeats = args.repeats or (1 if args.quick else 3)
    lengths = QUICK_LENGTHS if args.quick else LENGTHS
    harness.print_header("# ERRANT annotation of one long hypothesis line (14-token source): gecmetric m2 annotate"
                         + ("" if args.no_peers else " vs errant_parallel (ERRANT 3.0.2)"))
    print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    peer = find_peer(args.no_peers)
    all_within = same = True
    with tempfile.TemporaryDirectory(prefix="gecmetrics-errant-long-") as name:
        folder = Path(name)
        source, hypothesis = write_case(data, folder, None)
        baseline = ours(source, hypothesis, folder / "out_baseline.m2", args.spacy_model, repeats)
        harness.report("ours  m2 annotate, 1 word changed", baseline)
        for tokens in lengths:
            source, hypothesis = write_case(data, folder, tokens)
            output = folder / f"out_{tokens}.m2"
            timing = ours(source, hypothesis, output, args.spacy_model, repeats)
            harness.report(f"ours  m2 annotate, {tokens:,} tokens", timing)
            extra_cpu = timing.cpu_seconds - baseline.cpu_seconds
            extra_mb = timing.peak_rss_mb - baseline.peak_rss_mb
            line = f"{'':4}beyond the baseline: cpu {extra_cpu:+.3f} s, peak RSS {extra_mb:+.1f} MB"
            if tokens == TARGET_TOKENS:
                within = extra_cpu < TARGET_SECONDS and extra_mb < TARGET_EXTRA_MB
                all_within &= within
                line += f"  {'OK' if within else 'OVER TARGET'} (< {TARGET_SECONDS:.0f} s, < {TARGET_EXTRA_MB:.0f} MB)"
            print(line)
            print(f"{'':4}in this process: {stages(source, hypothesis, args.spacy_model)}", flush=True)
            if peer is None or tokens not in PEER_LENGTHS:
                continue
            theirs = folder / f"peer_{tokens}.m2"
            measured = run_peer(peer, args.spacy_model, source, hypothesis, theirs, args.peer_timeout)
            if measured is None:
                print(f"peer  errant_parallel, {tokens:,} tokens: did not finish within {args.peer_timeout:.0f} s")
                continue
            print(f"{'peer  errant_parallel, ' + format(tokens, ',') + ' tokens':<36}cpu {measured.cpu_seconds:8.3f} s   "
                  f"wall {measured.wall_seconds:8.3f} s   peak RSS {measured.peak_rss_bytes / 2**20:7.1f} MB")
            equal = theirs.read_bytes() == output.read_bytes()
            same &= equal
            print(f"{'':4}M2 {'identical to ERRANT 3.0.2' if equal else 'MISMATCH with ERRANT 3.0.2'}")
    if peer is None:
        print("peer not run (--no-peers or not available)")
    print(f"targets at {TARGET_TOKENS:,} tokens (< {TARGET_SECONDS:.0f} s and < {TARGET_EXTRA_MB:.0f} MB beyond the "
          f"baseline): {'met' if all_within else 'NOT MET'}" if TARGET_TOKENS in lengths else "")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
