"""MaxMatch (M2) on very long lines: time and peak memory of `gecmetric m2 score` per case.

Cases (written to a temporary folder, fixed seeds):

* AMU (CoNLL-2014) with line 10 replaced by 2,000 random tokens from {the, cat, sat, on, a,
  mat, .} (a garbage line), against official-2014.combined.m2; the same with 100,000 tokens;
  plain AMU for reference;
* one 200,000-token gold sentence (random words, 1,000 gold edits: deletions, insertions,
  replacements) scored with an empty hypothesis line, with a 20-token line, and with the
  sentence corrected by its gold edits (two long, similar texts: cut into pieces; no target,
  it is as much work as scoring the CoNLL-2014 test set seven times).

Each case runs `gecmetric m2 score` as a child process (CPU, wall, peak RSS, median of
--repeats), and the long sentence alone is timed in this process (build + every annotator's
search). Targets: the long sentence under 2 s and every command under 200 MB. The official
scorer cannot finish any of these (its closure is cubic in alignment cells), so there is no
peer here: `benchmarks/m2_conll14.py` compares with it on CoNLL-2014, and
tests/test_lattice.py on long lines it can finish.

    python benchmarks/m2_long_lines.py            # full run
    python benchmarks/m2_long_lines.py --quick    # 2,000 tokens and a 20,000-token gold sentence
"""
from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _harness as harness  # noqa: E402

GOLD = "official-2014.combined.m2"
GARBAGE_WORDS = "the cat sat on a mat .".split()
LONG_LINE = 10
TARGET_SECONDS = 2.0
TARGET_PEAK_MB = 200.0


def garbage_system(data: Path, folder: Path, tokens: int) -> Path:
    """AMU with line LONG_LINE replaced by ``tokens`` random tokens (seeded)."""
    rng = random.Random(tokens)
    lines = (data / "AMU").read_text(encoding="utf-8").split("\n")
    lines[LONG_LINE - 1] = " ".join(rng.choice(GARBAGE_WORDS) for _ in range(tokens))
    path = folder / f"AMU_{tokens}"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def long_gold(folder: Path, tokens: int, edits: int) -> Path:
    """One gold sentence of ``tokens`` random words with ``edits`` gold edits (seeded)."""
    rng = random.Random(tokens)
    words = [f"w{k}" for k in range(300)] + "the a of to in , .".split()
    source = [rng.choice(words) for _ in range(tokens)]
    lines = []
    for position in sorted(rng.sample(range(tokens), edits)):
        kind = rng.random()
        end = position if 0.3 <= kind < 0.6 else position + 1
        correction = "-NONE-" if kind < 0.3 else rng.choice(words)
        lines.append(f"A {position} {end}|||X|||{correction}|||REQUIRED|||-NONE-|||0")
    path = folder / f"gold_{tokens}.m2"
    path.write_text("S " + " ".join(source) + "\n" + "\n".join(lines) + "\n\n", encoding="utf-8")
    return path


def corrected(gold: Path) -> str:
    """The gold sentence with its gold edits applied (left to right)."""
    lines = gold.read_text(encoding="utf-8").split("\n")
    tokens, result, at = lines[0].split()[1:], [], 0
    for line in lines[1:]:
        if line.startswith("A "):
            span, _, correction = line[2:].split("|||")[:3]
            start, end = map(int, span.split())
            result += tokens[at:start] + ([] if correction == "-NONE-" else correction.split())
            at = end
    return " ".join(result + tokens[at:])


def time_sentence(gold: Path, hypothesis: str, block_index: int) -> float:
    """CPU seconds of one sentence in this process: its lattice and every annotator's edits."""
    from gecmetrics.io.m2 import read_m2
    from gecmetrics.core.edits.maxmatch import gold_edits_by_annotator
    from gecmetrics.metrics.m2.maxmatch import M2Scorer

    block = read_m2(str(gold))[block_index]
    annotators = gold_edits_by_annotator(block)
    start = time.process_time()
    M2Scorer().sentence_edits(block.source, hypothesis, annotators)
    return time.process_time() - start


def stage_times(gold: Path, hypothesis: str, block_index: int) -> str:
    """CPU seconds of each stage for one sentence: costs and edges (aligner), then per
    annotator its gold arcs and the compact search (or the exact search)."""
    from gecmetrics.io.m2 import read_m2
    from gecmetrics.core.edits.lattice import CompactLattice, best_edit_sequence, build_lattice
    from gecmetrics.core.edits.lattice.compact import compact_path
    from gecmetrics.core.edits.lattice.gold_arcs import find_gold_arcs
    from gecmetrics.core.edits.maxmatch import gold_edits_by_annotator

    block = read_m2(str(gold))[block_index]
    start = time.process_time()
    lattice = build_lattice(block.tokens, hypothesis.split())
    parts = [f"lattice {time.process_time() - start:.3f} s ({lattice.mode.value})"]
    for annotator, edits in gold_edits_by_annotator(block).items():
        start = time.process_time()
        if isinstance(lattice, CompactLattice):
            arcs = find_gold_arcs(lattice, edits)
            found = time.process_time()
            compact_path(lattice, arcs)
            parts.append(f"annotator {annotator}: gold arcs {found - start:.3f} s ({len(arcs.source_line)}), "
                         f"search {time.process_time() - found:.3f} s")
        else:
            best_edit_sequence(lattice, edits)
            parts.append(f"annotator {annotator}: search {time.process_time() - start:.3f} s")
    return "; ".join(parts)


def run_case(label: str, command: list[str], repeats: int, sentence: tuple[Path, str, int] | None,
             targeted: bool = True) -> bool:
    """Time one command and (when given) its long sentence alone; print whether targets hold
    (or only the figures, when the case has no target)."""
    timing = harness.measure_reported(f"{label:<26}", command, repeats)
    if timing is None:
        return False
    within = timing.peak_rss_mb < TARGET_PEAK_MB
    line = f"{'':<4}peak RSS {'OK' if within else 'OVER TARGET'} (< {TARGET_PEAK_MB:.0f} MB)" if targeted else \
        f"{'':<4}(no target)"
    if sentence is not None:
        seconds = time_sentence(*sentence)
        within = within and seconds < TARGET_SECONDS
        verdict = ""
        if targeted:
            verdict = ("OK" if seconds < TARGET_SECONDS else "OVER TARGET") + f" (< {TARGET_SECONDS:.0f} s)"
        line += f";  the long sentence alone: cpu {seconds:.3f} s {verdict}"
        line += f"\n    stages: {stage_times(*sentence)}"
    print(line, flush=True)
    return within or not targeted


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    harness.add_common_arguments(parser)
    args = parser.parse_args(argv)
    data = harness.shared_data("conll14")
    repeats = args.repeats or (1 if args.quick else 3)
    command = harness.begin("m2", "MaxMatch (M2) on very long lines (gecmetric m2 score, -s GOLD -o SYSTEM)", repeats)
    if command is None:
        return 1
    lengths = [2_000] if args.quick else [2_000, 100_000]
    gold_tokens = 20_000 if args.quick else 200_000
    all_within = True
    with tempfile.TemporaryDirectory(prefix="gecmetrics-m2-long-") as name:
        folder = Path(name)
        run_case("ours  AMU as it is", [*command, "score", "-s", str(data / GOLD), "-o", str(data / "AMU")],
                 repeats, None)
        for tokens in lengths:
            system = garbage_system(data, folder, tokens)
            line = system.read_text(encoding="utf-8").split("\n")[LONG_LINE - 1]
            all_within &= run_case(f"ours  AMU, line {LONG_LINE} {tokens:,} tokens",
                                   [*command, "score", "-s", str(data / GOLD), "-o", str(system)], repeats,
                                   (data / GOLD, line, LONG_LINE - 1))
        gold = long_gold(folder, gold_tokens, gold_tokens // 200)
        short = " ".join(gold.read_text(encoding="utf-8").split("\n")[0].split()[1:21])
        for hypothesis_name, hypothesis in (("empty line", ""), ("20 tokens", short), ("corrected", corrected(gold))):
            system = folder / f"system_{hypothesis_name.replace(' ', '_')}"
            system.write_text(hypothesis + "\n", encoding="utf-8")
            # the corrected text is as much work as 7 CoNLL-2014 test sets scored sentence by sentence
            all_within &= run_case(f"ours  {gold_tokens:,}-token gold, {hypothesis_name}",
                                   [*command, "score", "-s", str(gold), "-o", str(system)], repeats,
                                   (gold, hypothesis, 0), targeted=hypothesis_name != "corrected")
    print(f"targets (long sentence < {TARGET_SECONDS:.0f} s, peak < {TARGET_PEAK_MB:.0f} MB): "
          f"{'all met' if all_within else 'NOT ALL MET'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
