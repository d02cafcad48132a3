"""Corpus GLEU+ on CoNLL-2014: `gecmetric gleu -f` against PyPI gleu 1.1.0's `gleu -f`.

Both commands score the same files with the same options (Python-2-compatible seeded sampling,
500 iterations) in the same run; the script prints their CPU times, the ratio (target >= 50x),
our peak memory (target < 300 MB), whether both printed the same scores, and how our time
grows on the corpus repeated 10 times (linear growth would be a ratio of 10).

    python benchmarks/gleu_conll14.py            # full run (about half a minute of peer time)
    python benchmarks/gleu_conll14.py --quick    # a few seconds, for CI smoke tests
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _harness as harness  # noqa: E402

SOURCE, REFERENCES = harness.CONLL_SOURCE, harness.CONLL_REFERENCES
PEER_REQUIREMENT = "gleu==1.1.0"
TARGET_RATIO = 50.0
TARGET_PEAK_MB = 300.0
SCALE = 10


def main(argv: list[str] | None = None) -> int:
    args, data, systems, repeats = harness.parse_setup(
        __doc__, argv, iterations_help="sampling iterations (default 500, 20 with --quick)")
    iterations = args.iterations or (20 if args.quick else 500)
    scale = 2 if args.quick else SCALE
    options = harness.gleu_options(systems, iterations, args.digits)

    ours_command = harness.begin(
        "gleu", f"GLEU+ corpus score, CoNLL-2014 ({harness.count_lines(data / SOURCE)} sentences), "
        f"source {SOURCE}, references {' '.join(REFERENCES)}, systems {' '.join(systems)}, -f -i {iterations}", repeats)
    if ours_command is None:
        return 1

    ours = harness.measure_reported("ours  gecmetric gleu", [*ours_command, *options], repeats, data)
    if ours is None:
        return 1
    library_cpu = harness.time_api("GLEU", {"fix_seed": True, "iterations": iterations}, data, systems)
    print(f"{'ours  Python API only':<36}cpu {library_cpu:8.3f} s   (encode once, corpus_score per system, in process)")
    memory_verdict = "OK" if ours.peak_rss_mb < TARGET_PEAK_MB else "OVER TARGET"
    print(f"memory: our peak RSS {ours.peak_rss_mb:.1f} MB (target < {TARGET_PEAK_MB:.0f} MB): {memory_verdict}")

    agreed = True
    if not args.no_peers:
        peer_python = harness.peer_python("gleu", PEER_REQUIREMENT)
        peer = None
        if peer_python is not None:
            peer = harness.measure_peer([*harness.peer_script(peer_python, "gleu"), *options], args.peer_repeats, data)
        if peer is not None:
            harness.report(f"peer  {PEER_REQUIREMENT} gleu", peer)
            speedup = harness.ratio(peer, ours)
            verdict = "OK" if speedup >= TARGET_RATIO else "BELOW TARGET"
            print(f"ratio: peer CPU / our CPU = {speedup:.1f}x (target >= {TARGET_RATIO:.0f}x): {verdict}")
            agreed = harness.print_agreement(f"scores (-d {args.digits})", ours.stdout, peer.stdout, systems)

    with tempfile.TemporaryDirectory(prefix="gecmetrics-bench-") as folder:
        scaled = Path(folder)
        harness.repeat_corpus(data, [SOURCE, *REFERENCES, *systems], scale, scaled)
        bigger = harness.measure_reported(f"ours  gecmetric gleu, corpus x{scale}", [*ours_command, *options],
                                          repeats, scaled)
    if bigger is None:
        return 1
    growth = harness.ratio(bigger, ours)
    print(f"scaling: CPU x{scale} corpus / x1 corpus = {growth:.2f} (linear: at most {scale}; "
          f"startup makes it smaller), peak RSS {bigger.peak_rss_mb:.1f} MB")
    return 0 if agreed else 1


if __name__ == "__main__":
    sys.exit(main())
