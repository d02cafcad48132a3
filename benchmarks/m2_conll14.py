"""Time the MaxMatch (M2) scorer on the CoNLL-2014 systems and on a generated stress corpus.

Per system (AMU CAMB CUUI INPUT): our time (in process) and P/R/F; when the official NUS
m2scorer can be run (Python 2.7 and its scripts/m2scorer.py: --official PATH, or the
GECMETRICS_M2SCORER / GECMETRICS_PYTHON2 variables, or /tmp/src/nusnlp+m2scorer with pyenv's
2.7.18), its time and P/R/F in the same run, the ratio, and MISMATCH if the numbers differ.
The official scorer is never vendored or fetched.

The stress corpus (fixed seed) has long sentences (100-250 tokens) whose hypotheses are heavily
rewritten: shuffled spans, many insertions and deletions, repeated n-grams at the end, and one
line in ten misaligned (the hypothesis of the next sentence). It
reports the total and the slowest sentence (target: none over 2 s).

``--seeda``: the 15 systems of the SEEDA subset (../shared/data/seeda_subset, 391 sentences; the
gold M2 cut to its lines), each timed in process (CPU and wall), with the official in the same
run when it is found; target (issue 34): under 1 s of CPU per system, REF-F included.
"""
from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _harness as harness  # noqa: E402

from gecmetrics.io.text import read_lines  # noqa: E402
from gecmetrics.io.m2 import Block, Edit, read_m2  # noqa: E402
from gecmetrics.core.edits.maxmatch import gold_edits_by_annotator  # noqa: E402
from gecmetrics.metrics.m2.maxmatch import M2Scorer  # noqa: E402

SYSTEMS = ["AMU", "CAMB", "CUUI", "INPUT"]
GOLD = "official-2014.combined.m2"
SEEDA_TARGET_SECONDS = 1.0


def find_official(option: str | None) -> tuple[str, str] | None:
    """(python2 executable, m2scorer.py) if both exist, else None."""
    script = option or os.environ.get("GECMETRICS_M2SCORER") or "/tmp/src/nusnlp+m2scorer/scripts/m2scorer.py"
    python2 = os.environ.get("GECMETRICS_PYTHON2")
    if not python2:
        pyenv = shutil.which("pyenv")
        if pyenv:
            root = subprocess.run([pyenv, "root"], capture_output=True, text=True).stdout.strip()
            candidate = Path(root) / "versions" / "2.7.18" / "bin" / "python"
            python2 = str(candidate) if candidate.exists() else None
        python2 = python2 or shutil.which("python2.7")
    if python2 and Path(script).is_file():
        return python2, script
    return None


def run_official(official: tuple[str, str], hypothesis: Path, gold: Path) -> tuple[float, list[str]]:
    """Wall time and the P/R/F lines printed by the official scorer."""
    python2, script = official
    start = time.perf_counter()
    done = subprocess.run([python2, script, str(hypothesis), str(gold)], capture_output=True, text=True,
                          cwd=str(Path(script).parent))
    elapsed = time.perf_counter() - start
    values = re.findall(r"^(?:Precision|Recall|F_[0-9.]+)\s*:\s*([0-9.]+)", done.stdout, re.MULTILINE)
    return elapsed, values


def stress_corpus(count: int, seed: int = 2014) -> tuple[list[Block], list[str]]:
    """Long sentences with heavily rewritten hypotheses and a few gold edits each."""
    rng = random.Random(seed)
    vocabulary = [f"w{k}" for k in range(400)] + ["the", "a", "of", "to", ",", "."]
    blocks, hypotheses = [], []
    for _ in range(count):
        length = rng.randint(100, 250)
        source = [rng.choice(vocabulary) for _ in range(length)]
        hypothesis = list(source)
        for _ in range(rng.randint(3, 8)):  # move spans around
            a = rng.randrange(len(hypothesis))
            b = min(len(hypothesis), a + rng.randint(2, 15))
            span = hypothesis[a:b]
            del hypothesis[a:b]
            c = rng.randrange(len(hypothesis) + 1)
            hypothesis[c:c] = span
        for _ in range(rng.randint(10, 40)):  # insertions and deletions
            k = rng.randrange(len(hypothesis) + 1)
            if rng.random() < 0.5 and k < len(hypothesis):
                del hypothesis[k]
            else:
                hypothesis.insert(k, rng.choice(vocabulary))
        tail = hypothesis[-rng.randint(2, 4):]
        hypothesis += tail * rng.randint(2, 6)  # repeated n-grams at the end
        edits = []
        for _ in range(rng.randint(2, 6)):
            start = rng.randrange(length)
            end = min(length, start + rng.randint(0, 2))
            edits.append(Edit(start, end, "X", rng.choice(vocabulary + ["-NONE-"]), annotator=rng.randint(0, 1)))
        edits.sort(key=lambda e: (e.annotator, e.start, e.end))
        blocks.append(Block(" ".join(source), edits))
        hypotheses.append(" ".join(hypothesis))
    for index in range(0, count, 10):  # misaligned lines: the hypothesis of another sentence
        hypotheses[index] = hypotheses[(index + 1) % count]
    return blocks, hypotheses


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="short smoke run: one system, 10 stress sentences")
    parser.add_argument("--official", help="path of the official scripts/m2scorer.py (run with Python 2.7)")
    parser.add_argument("--no-official", "--no-peers", dest="no_official", action="store_true",
                        help="do not run the official scorer (--no-peers: the same, as in the other benchmarks)")
    parser.add_argument("--stress", type=int, default=None, help="stress sentences (default 200, 10 with --quick)")
    parser.add_argument("--seeda", action="store_true", help="the 15 systems of the SEEDA subset instead")
    args = parser.parse_args(argv)
    if args.seeda:
        official = None if args.no_official else find_official(args.official)
        return seeda(harness.shared_data("seeda_subset"), harness.shared_data("conll14"), official)
    data = harness.shared_data("conll14")
    systems = SYSTEMS[:1] if args.quick else SYSTEMS
    official = None if (args.no_official or args.quick) else find_official(args.official)
    print("# MaxMatch (M2) on CoNLL-2014 (gold: official-2014.combined.m2)")
    if official is None and not (args.no_official or args.quick):
        print("official m2scorer not found (give --official PATH and Python 2.7): timing ours only")
    blocks = read_m2(str(data / GOLD))
    scorer = M2Scorer()
    for system in systems:
        hypotheses = read_lines(str(data / system))
        start = time.perf_counter()
        result = scorer.score(blocks, hypotheses, name=system)
        ours = time.perf_counter() - start
        numbers = [f"{x:.4f}" for x in (result.precision, result.recall, result.f)]
        line = f"{system:6s} ours {ours:7.3f} s  P/R/F {' '.join(numbers)}"
        if official is not None:
            elapsed, values = run_official(official, data / system, data / GOLD)
            verdict = "same" if values == numbers else f"MISMATCH official {values}"
            line += f"   official {elapsed:7.2f} s  ratio {elapsed / ours:6.1f}x  {verdict}"
        print(line, flush=True)

    count = args.stress if args.stress is not None else (10 if args.quick else 200)
    stress_blocks, stress_hypotheses = stress_corpus(count)
    print(f"# stress corpus: {count} sentences of 100-250 tokens, hypotheses heavily rewritten (seed 2014)")
    slowest = (0.0, -1)
    total = 0.0
    for index, (block, hypothesis) in enumerate(zip(stress_blocks, stress_hypotheses)):
        gold = gold_edits_by_annotator(block)
        start = time.perf_counter()
        scorer.sentence_edits(block.source, hypothesis, gold)
        elapsed = time.perf_counter() - start
        total += elapsed
        slowest = max(slowest, (elapsed, index))
    print(f"stress total {total:.2f} s, mean {total / max(count, 1):.3f} s, slowest sentence {slowest[0]:.3f} s "
          f"(#{slowest[1] + 1}){'  OVER 2 s' if slowest[0] > 2 else ''}")
    return 0


def seeda(subset: Path, conll: Path, official: tuple[str, str] | None) -> int:
    """Every SEEDA subset system against the gold M2 cut to the subset's lines."""
    import tempfile

    lines = [int(x) for x in read_lines(str(subset / "LINES"))]
    texts = (conll / GOLD).read_text(encoding="utf-8").strip("\n").split("\n\n")
    with tempfile.TemporaryDirectory(prefix="gecmetrics-seeda-") as folder:
        gold_path = Path(folder) / "seeda.m2"
        gold_path.write_text("\n\n".join(texts[k - 1] for k in lines) + "\n\n", encoding="utf-8")
        blocks = read_m2(str(gold_path))
        systems = sorted(p.name for p in subset.iterdir() if p.name not in ("LINES", "README.md"))
        print(f"# MaxMatch (M2) on the SEEDA subset ({len(blocks)} sentences, {len(systems)} systems; load "
              f"{os.getloadavg()[0]:.2f})")
        slowest = 0.0
        for system in systems:
            hypotheses = read_lines(str(subset / system))
            cpu, wall = time.process_time(), time.perf_counter()
            result = M2Scorer().score(blocks, hypotheses, name=system)
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            slowest = max(slowest, cpu)
            numbers = [f"{x:.4f}" for x in (result.precision, result.recall, result.f)]
            line = f"{system:14s} ours cpu {cpu:6.3f} s wall {wall:6.3f} s  P/R/F {' '.join(numbers)}"
            if official is not None:
                elapsed, values = run_official(official, subset / system, gold_path)
                verdict = "same" if values == numbers else f"MISMATCH official {values}"
                line += f"   official {elapsed:7.2f} s  ratio {elapsed / wall:6.1f}x  {verdict}"
            print(line, flush=True)
    print(f"target: under {SEEDA_TARGET_SECONDS:g} s of CPU per system: slowest {slowest:.3f} s"
          f"{'' if slowest < SEEDA_TARGET_SECONDS else '  BELOW TARGET'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
