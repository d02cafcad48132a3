"""Corpus GREEN on CoNLL-2014, word and char units, betas 0.5 1 2: `gecmetric green` against the
original GREEN command (github shotakoyama/green) when one is installed.

The original is not on PyPI and is never downloaded here: set GECMETRICS_GREEN_CMD to its
`green` command (or put it on PATH). For each unit the script prints both CPU times, the ratio
(target >= 10x) and whether both printed the same numbers.

    python benchmarks/green_conll14.py
    GECMETRICS_GREEN_CMD=/path/to/venv/bin/green python benchmarks/green_conll14.py
    python benchmarks/green_conll14.py --quick --no-peers    # CI smoke run
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _harness as harness  # noqa: E402

SOURCE, REFERENCES, BETAS = harness.CONLL_SOURCE, harness.CONLL_REFERENCES, harness.GREEN_BETAS
UNITS = ["word", "char"]
TARGET_RATIO = 10.0


def main(argv: list[str] | None = None) -> int:
    args, data, systems, repeats = harness.parse_setup(__doc__, argv)

    ours_command = harness.begin(
        "green", f"GREEN corpus score, CoNLL-2014 ({harness.count_lines(data / SOURCE)} sentences), source {SOURCE}, "
        f"references {' '.join(REFERENCES)}, systems {' '.join(systems)}, betas {' '.join(BETAS)}", repeats)
    if ours_command is None:
        return 1
    original = None if args.no_peers else harness.find_green_command()

    agreed = True
    for unit in UNITS:
        options = harness.green_options(systems, unit, args.digits)
        ours = harness.measure_reported(f"[{unit}] ours  gecmetric green", [*ours_command, *options], repeats, data)
        if ours is None:
            return 1
        library_cpu = harness.time_api("GREEN", {"beta": [float(b) for b in BETAS], "unit": unit}, data, systems)
        print(f"{f'[{unit}] ours  Python API only':<36}cpu {library_cpu:8.3f} s   "
              "(encode once, corpus_score per system, in process)")
        if original is None:
            continue
        peer = harness.measure_peer([*original, *options], args.peer_repeats, data)
        if peer is None:
            continue
        harness.report(f"[{unit}] peer  original green", peer)
        speedup = harness.ratio(peer, ours)
        verdict = "OK" if speedup >= TARGET_RATIO else "BELOW TARGET"
        print(f"[{unit}] ratio: peer CPU / our CPU = {speedup:.1f}x (target >= {TARGET_RATIO:.0f}x): {verdict}")
        agreed &= harness.print_agreement(f"[{unit}] scores (-d {args.digits})", ours.stdout, peer.stdout, systems)
    return 0 if agreed else 1


if __name__ == "__main__":
    sys.exit(main())
