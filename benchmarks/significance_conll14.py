"""Paired significance tests on CoNLL-2014: bootstrap (1000 resamples) and approximate
randomization (10000 trials) for GREEN (word) and GLEU+ -m, AMU CAMB CUUI against INPUT,
with sacrebleu's own paired tests on BLEU for the same files, in the same run, as the anchor.

For each test the script prints the library time of the test alone (statistics already
counted; target under 2 s on the 2-core dev machine), the whole `gecmetric ... --paired-bs`
command (counting included) and sacrebleu's `--paired-bs` / `--paired-ar` commands (sacrebleu
pip-installed in a virtualenv of the peers folder on first use, never a project dependency).

    python benchmarks/significance_conll14.py              # full run
    python benchmarks/significance_conll14.py --quick      # a few seconds: 100 resamples / 1000 trials
    python benchmarks/significance_conll14.py --no-peers   # without sacrebleu
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _harness as harness  # noqa: E402

SOURCE, REFERENCES = harness.CONLL_SOURCE, harness.CONLL_REFERENCES
SYSTEMS = ["AMU", "CAMB", "CUUI"]
QUICK_SYSTEMS = ["AMU"]
SAMPLES = {"bs": 1000, "ar": 10000}
QUICK_SAMPLES = {"bs": 100, "ar": 1000}
PEER_REQUIREMENT = "sacrebleu==2.6.0"
TARGET_SECONDS = 2.0


def library_timings(data: Path, systems: list[str], samples: dict[str, int], repeats: int) -> None:
    """Time paired_test_from_statistics alone (the counting is done once, before the clock)."""
    from gecmetrics import GLEU, GREEN, read_lines
    from gecmetrics.stats.significance import paired_test_from_statistics

    sources = read_lines(str(data / SOURCE))
    references = [read_lines(str(data / name)) for name in REFERENCES]
    names = [SOURCE, *systems]
    for label, metric in (("GREEN word beta=2", GREEN()), ("GLEU+ -m", GLEU(best_reference=True))):
        start = time.perf_counter()
        encoded = metric.encode(sources, references)
        statistics = {name: metric.statistics(encoded, read_lines(str(data / name))) for name in names}
        counting = time.perf_counter() - start
        resampler = metric.resampler(0, len(references))
        print(f"{label}: counting {counting:.3f} s (once, for {len(names)} files)")
        for method in ("bs", "ar"):
            cpu, wall = [], []
            for _ in range(repeats):
                start_cpu, start_wall = time.process_time(), time.perf_counter()
                result = paired_test_from_statistics(resampler, statistics, method, samples[method], seed=0)
                cpu.append(time.process_time() - start_cpu)
                wall.append(time.perf_counter() - start_wall)
            wall_median = sorted(wall)[len(wall) // 2]
            verdict = "OK" if wall_median < TARGET_SECONDS else "OVER"
            what = f"{samples[method]} {'resamples' if method == 'bs' else 'trials'}"
            print(f"  [library] paired-{method} {what:<16} wall {wall_median:7.3f} s   cpu {sorted(cpu)[len(cpu) // 2]:7.3f} s"
                  f"   ({len(systems)} systems vs {SOURCE}; target < {TARGET_SECONDS:g} s: {verdict})")
            for system in result.systems[1:]:
                low, high = system.interval
                print(f"      {system.name:<6} {100 * system.score:6.2f}  [{100 * low:6.2f}, {100 * high:6.2f}]"
                      f"  p = {system.p_value:.4f}{' *' if system.significant else ''}")


def command_timings(data: Path, systems: list[str], samples: dict[str, int], repeats: int) -> None:
    """The whole commands: reading, counting, the test and printing."""
    ours = harness.gecmetric_command()
    compared = [SOURCE, *systems]
    for label, command in (("green", [*ours, "green", *harness.conll_arguments("-c", compared)]),
                           ("gleu -m", [*ours, "gleu", *harness.conll_arguments("-o", compared, "-m")])):
        for method in ("bs", "ar"):
            timing = harness.measure([*command, f"--paired-{method}", str(samples[method])], repeats, cwd=data)
            harness.report(f"ours  gecmetric {label} --paired-{method}", timing)


def peer_timings(data: Path, systems: list[str], samples: dict[str, int], repeats: int) -> None:
    """sacrebleu's paired tests on BLEU for the same files (its default seed, 12345)."""
    python = harness.peer_python("sacrebleu", PEER_REQUIREMENT)
    if python is None:
        return
    for method in ("bs", "ar"):
        command = [str(python), "-m", "sacrebleu", *REFERENCES, "-i", SOURCE, *systems, "-m", "bleu",
                   f"--paired-{method}", f"--paired-{method}-n", str(samples[method])]
        timing = harness.measure_reported(f"peer  sacrebleu bleu --paired-{method}", command, repeats, data)
        if timing is None:
            continue
        try:
            rows = json.loads(timing.stdout)
        except ValueError:
            continue
        for row in rows:
            bleu = row.get("BLEU", {})
            interval = f"{bleu['mean']:6.2f} ± {bleu['ci']:.2f}" if bleu.get("ci") is not None else ""
            p_text = f"p = {bleu['p_value']:.4f}" if bleu.get("p_value") is not None else "baseline"
            print(f"      {row.get('system', '?'):<16} BLEU {bleu.get('score', float('nan')):6.2f}  {interval}  {p_text}")


def main(argv: list[str] | None = None) -> int:
    args, data, systems, repeats = harness.parse_setup(
        __doc__, argv, systems=SYSTEMS, quick_systems=QUICK_SYSTEMS, default_repeats=3)
    samples = QUICK_SAMPLES if args.quick else SAMPLES
    harness.print_header(f"Paired tests, CoNLL-2014 ({harness.count_lines(data / SOURCE)} sentences), baseline {SOURCE}, "
                         f"systems {' '.join(systems)}, references {' '.join(REFERENCES)}, "
                         f"{samples['bs']} bootstrap resamples, {samples['ar']} randomization trials")
    library_timings(data, systems, samples, repeats)
    command_timings(data, systems, samples, repeats)
    if not args.no_peers:
        peer_timings(data, systems, samples, args.peer_repeats)
    return 0


if __name__ == "__main__":
    sys.exit(main())
