"""Time and peak memory of the corpus and sentence commands on large generated corpora
(10^4, 10^5, 10^6 lines by default), and the speed-up of -p 2 over -p 1.

The corpus is built from CoNLL-2014 (INPUT, REF0, REF1, the AMU output and the gold M2) and the
JFLEG dev set, so that it keeps growing in vocabulary and n-grams as real text does (repeating a
corpus would add no new n-grams, and would flatter memory):

* every generated line takes an aligned CoNLL-2014 (or JFLEG) tuple, source / references /
  hypothesis, and renames some of its words, the same way in every text of the tuple (and in
  the gold M2 edits), with words drawn from a vocabulary that grows with the corpus as Heaps'
  law says (about 30 * lines ** 0.6 distinct renamed words);
* half the lines also take their second half from another tuple (word-aligned in every text),
  making n-grams across the cut that no line had.

Targets (issue 16): peak memory under 1 GB at 10^6 lines for every command, time linear in
lines, and `-p 2` at least 1.7x faster than `-p 1` in wall time for the corpus commands on a
2-core machine.

    python benchmarks/scale.py                        # 10^4, 10^5, 10^6 lines (long: minutes)
    python benchmarks/scale.py --sizes 10000 100000
    python benchmarks/scale.py --quick --no-peers     # CI smoke: 2,000 lines, one run each
"""
from __future__ import annotations

import argparse
import random
import sys
import tempfile
from pathlib import Path
from typing import Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _harness as harness  # noqa: E402

MEMORY_TARGET_MB = 1024
SPEEDUP_TARGET = 1.7
COMMANDS = {
    "gleu -f": ["gleu", "-s", "src", "-r", "ref0", "ref1", "-o", "hyp", "-f"],
    "green word": ["green", "-s", "src", "-r", "ref0", "ref1", "-c", "hyp", "-b", "0.5", "1", "2"],
    "green char": ["green", "-s", "src", "-r", "ref0", "ref1", "-c", "hyp", "-t", "char"],
    "gleu --sentence": ["gleu", "-s", "src", "-r", "ref0", "ref1", "-o", "hyp", "--sentence"],
    "green --sentence": ["green", "-s", "src", "-r", "ref0", "ref1", "-c", "hyp", "--sentence"],
    "green char --sentence": ["green", "-s", "src", "-r", "ref0", "ref1", "-c", "hyp", "-t", "char", "--sentence"],
    "m2 score": ["m2", "score", "-s", "gold.m2", "-o", "hyp"],
}
CORPUS_MODES = ("gleu -f", "green word", "green char", "m2 score")


class Generator:
    """Aligned generated lines from real tuples (see the module docstring)."""

    def __init__(self, data: Path, seed: int = 0) -> None:
        from gecmetrics.io.text import read_lines
        from gecmetrics.io.m2 import read_m2

        conll = data / "conll14"
        texts = [read_lines(str(conll / name)) for name in ("INPUT", "REF0", "REF1", "AMU")]
        self.tuples = [list(t) for t in zip(*texts)]
        self.blocks = read_m2(str(conll / "official-2014.combined.m2"))
        jfleg = data / "jfleg" / "dev"
        if jfleg.is_dir():
            extra = [read_lines(str(jfleg / name)) for name in ("dev.src", "dev.ref0", "dev.ref1", "dev.ref2")]
            self.tuples += [list(t) for t in zip(*extra)]
        self.random = random.Random(seed)

    def word(self, lines_so_far: int) -> str:
        """A renaming word from a vocabulary of about 30 * lines ** 0.6 words (Heaps' law)."""
        return f"w{self.random.randrange(int(30 * (lines_so_far + 1) ** 0.6) + 1)}"

    def text_line(self, number: int) -> list[str]:
        """source, ref0, ref1, hypothesis of one generated line."""
        texts = [line.split() for line in self.random.choice(self.tuples)]
        if number % 2:
            other = [line.split() for line in self.random.choice(self.tuples)]
            cut = min(len(t) for t in texts + other) // 2
            texts = [t[:cut] + o[cut:] for t, o in zip(texts, other)]
        renames = {w: self.word(number) for w in set(texts[0]) if self.random.random() < 0.15}
        return [" ".join(renames.get(w, w) for w in t) for t in texts]

    def m2_line(self, number: int) -> tuple[str, str]:
        """(the gold M2 block, the hypothesis line) of one generated sentence."""
        k = self.random.randrange(len(self.blocks))
        block, hypothesis = self.blocks[k], self.tuples[k % len(self.blocks)][3]
        renames = {w: self.word(number) for w in set(block.tokens) if self.random.random() < 0.15}
        rename = lambda text: " ".join(renames.get(w, w) for w in text.split(" "))  # noqa: E731
        lines = ["S " + rename(block.source)]
        for edit in block.edits:
            fields = edit.to_line()[2:].split("|||")
            fields[2] = rename(fields[2])
            lines.append("A " + "|||".join(fields))
        return "\n".join(lines) + "\n\n", rename(hypothesis)


def build(folder: Path, size: int, data: Path) -> None:
    generator = Generator(data)
    handles = {name: open(folder / name, "w", encoding="utf-8") for name in ("src", "ref0", "ref1", "hyp")}
    m2, m2_hyp = open(folder / "gold.m2", "w", encoding="utf-8"), open(folder / "m2hyp", "w", encoding="utf-8")
    try:
        for number in range(size):
            for name, line in zip(("src", "ref0", "ref1", "hyp"), generator.text_line(number)):
                handles[name].write(line + "\n")
            block, hypothesis = generator.m2_line(number)
            m2.write(block)
            m2_hyp.write(hypothesis + "\n")
    finally:
        for handle in [*handles.values(), m2, m2_hyp]:
            handle.close()


def command_for(label: str, jobs: int) -> list[str]:
    args = list(COMMANDS[label])
    if label == "m2 score":
        args[args.index("hyp")] = "m2hyp"
    return [*harness.gecmetric_command(), *args, "-p", str(jobs)]


def run_size(size: int, data: Path, repeats: int, labels: Sequence[str], jobs_list: Sequence[int]) -> dict:
    """Time every command on a generated corpus of ``size`` lines."""
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        build(folder, size, data)
        for label in labels:
            for jobs in jobs_list:
                if jobs > 1 and label not in CORPUS_MODES:
                    continue
                timing = harness.measure_reported(f"{size:,} {label} -p{jobs}", command_for(label, jobs), repeats,
                                                  folder)
                if timing is None:
                    continue
                results[(label, jobs)] = timing
                if timing.peak_rss_mb > MEMORY_TARGET_MB:
                    print(f"   peak memory {timing.peak_rss_mb:.0f} MB: ABOVE TARGET ({MEMORY_TARGET_MB} MB)")
    return results


def summarize(by_size: dict[int, dict]) -> None:
    sizes = sorted(by_size)
    print("\nsummary (CPU s per 10^4 lines; wall speed-up of -p 2)")
    for label in COMMANDS:
        cells = []
        for size in sizes:
            one = by_size[size].get((label, 1))
            if one is None:
                continue
            cell = f"{size:,}: {one.cpu_seconds / size * 1e4:.3f} s/10^4, {one.peak_rss_mb:.0f} MB"
            two = by_size[size].get((label, 2))
            if two is not None:
                speedup = one.wall_seconds / max(two.wall_seconds, 1e-9)
                verdict = "" if speedup >= SPEEDUP_TARGET or size < 10 ** 5 else " BELOW TARGET"
                cell += f", -p 2 x{speedup:.2f}{verdict}"
            cells.append(cell)
        print(f"{label:<22} " + " | ".join(cells))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    harness.add_common_arguments(parser)
    parser.add_argument("--sizes", type=int, nargs="+", default=None, help="corpus sizes in lines")
    parser.add_argument("--commands", nargs="+", choices=list(COMMANDS), default=None)
    args = parser.parse_args(argv)
    data = harness.shared_data()
    sizes = args.sizes or ([2000] if args.quick else [10 ** 4, 10 ** 5, 10 ** 6])
    labels = args.commands or (["gleu -f", "green word", "m2 score"] if args.quick else list(COMMANDS))
    repeats = args.repeats or 1
    harness.print_header(f"Scale: generated corpora of {', '.join(f'{s:,}' for s in sizes)} lines")
    by_size = {size: run_size(size, data, repeats, labels, [1, 2]) for size in sizes}
    summarize(by_size)
    return 0 if all(by_size.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
