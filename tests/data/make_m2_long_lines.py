"""Write the seeded sentence pairs of tests/data/m2_long_lines.{m2,txt} (see the .tsv header).

Two families, each block scored on its own by the official NUS m2scorer:

* ``wide``: a short source (4-8 tokens) against a hypothesis of 20-45 random tokens from
  {the, cat, sat, on, a, mat, .} (a misaligned or garbage line); the lattice is a full grid
  and, past the arc budget, goes to the compact search. Gold edits include several insertions
  at one position spelled by hypothesis tokens (the official's insertion walk).
* ``garbage``: a source of 6-9 tokens none of which the hypothesis holds, against 30-55
  random tokens from the same 7 words: no alignment keeps a token, every cell is a vertex and
  the transitive arcs (over 60,000) send the default scorer to the compact search, while the
  official still finishes (in minutes).
* ``long``: a source of 100-400 tokens from a 40-word vocabulary (many repeated tokens), and
  the source with about one edit in ten applied (substitutions, deletions, insertions of 1-3
  tokens, several at one position). Two annotators annotate overlapping subsets of the
  applied edits plus edits the system did not make, including insertions at one position.

Usage: python tests/data/make_m2_long_lines.py OUT_PREFIX   (writes OUT_PREFIX.m2, .txt, .cases)
"""
from __future__ import annotations

import random
import sys

WIDE_VOCABULARY = "the cat sat on a mat .".split()
LONG_VOCABULARY = [f"w{k}" for k in range(34)] + ["the", "a", "of", "to", ",", "."]


def gold_line(start: int, end: int, correction: str, annotator: int) -> str:
    return f"A {start} {end}|||X|||{correction or '-NONE-'}|||REQUIRED|||-NONE-|||{annotator}"


def wide_case(rng: random.Random) -> tuple[list[str], list[str], list[str]]:
    """A short source, a random hypothesis line, gold edits of one or two annotators."""
    source = [rng.choice(WIDE_VOCABULARY + ["dog", "sits", "under", "red", "rug"]) for _ in range(rng.randint(4, 8))]
    hypothesis = [rng.choice(WIDE_VOCABULARY) for _ in range(rng.randint(20, 45))]
    lines = []
    for annotator in range(rng.randint(1, 2)):
        position = rng.randint(0, len(source))
        for _ in range(rng.randint(2, 4)):  # insertions at one position, spelled by the hypothesis
            start = rng.randrange(len(hypothesis))
            spelled = hypothesis[start:start + rng.randint(1, 2)]
            lines.append(gold_line(position, position, " ".join(spelled), annotator))
        start = rng.randrange(len(source))
        lines.append(gold_line(start, start + 1, rng.choice(["", rng.choice(WIDE_VOCABULARY)]), annotator))
    return source, hypothesis, sorted(lines, key=_gold_order)


def garbage_case(rng: random.Random) -> tuple[list[str], list[str], list[str]]:
    """A short source sharing no token with a long random hypothesis line."""
    words = ["dog", "sits", "under", "red", "rug", "we", "were", "told"]
    source = [rng.choice(words) for _ in range(rng.randint(6, 9))]
    hypothesis = [rng.choice(WIDE_VOCABULARY) for _ in range(rng.randint(30, 55))]
    lines = []
    for annotator in range(2):
        position = rng.randint(0, len(source))
        for _ in range(rng.randint(2, 3)):
            start = rng.randrange(len(hypothesis))
            spelled = hypothesis[start:start + rng.randint(1, 2)]
            lines.append(gold_line(position, position, " ".join(spelled), annotator))
        start = rng.randrange(len(source) - 1)
        lines.append(gold_line(start, start + 1, "", annotator))
        lines.append(gold_line(start + 1, start + 2, rng.choice(WIDE_VOCABULARY), annotator))
    return source, hypothesis, sorted(lines, key=_gold_order)


def long_case(rng: random.Random) -> tuple[list[str], list[str], list[str]]:
    """A long source, the source with edits applied, two annotators' gold edits."""
    source = [rng.choice(LONG_VOCABULARY) for _ in range(rng.randint(100, 400))]
    applied = []  # (start, end, correction tokens), left to right, non-overlapping
    position = 0
    while True:
        position += rng.randint(3, 18)
        if position > len(source):
            break
        kind = rng.random()
        if kind < 0.3:
            applied.append((position, position, [rng.choice(LONG_VOCABULARY) for _ in range(rng.randint(1, 3))]))
            if rng.random() < 0.4:  # a second insertion at the same position
                applied.append((position, position, [rng.choice(LONG_VOCABULARY)]))
        elif position < len(source):
            end = min(len(source), position + (1 if kind < 0.8 else 2))
            correction = [] if kind >= 0.6 else [rng.choice(LONG_VOCABULARY)]
            applied.append((position, end, correction))
            position = end
    hypothesis, at = [], 0
    for start, end, tokens in applied:
        hypothesis += source[at:start] + tokens
        at = end
    hypothesis += source[at:]
    lines = []
    for annotator in (0, 1):
        for start, end, tokens in applied:
            if rng.random() < 0.7:
                lines.append(gold_line(start, end, " ".join(tokens), annotator))
        for _ in range(len(applied) // 4):  # edits the system did not make
            start = rng.randrange(len(source))
            lines.append(gold_line(start, start + rng.randint(0, 1), rng.choice(LONG_VOCABULARY), annotator))
    return source, hypothesis, sorted(lines, key=_gold_order)


def _gold_order(line: str) -> tuple[int, int, int]:
    span, *_, annotator = line[2:].split("|||")
    start, end = map(int, span.split())
    return int(annotator), start, end


CASES = [("wide", seed, 2) for seed in range(1, 11)] + [("long", seed, 2) for seed in range(1, 13)] \
    + [("long", seed, unchanged) for seed, unchanged in ((13, 0), (14, 1), (15, 3))] \
    + [("garbage", seed, 2) for seed in range(1, 9)]
"""(family, seed, max_unchanged_words) of each block, in file order."""


def main(prefix: str) -> None:
    blocks, hypotheses, names = [], [], []
    for family, seed, unchanged in CASES:
        rng = random.Random(f"{family}-{seed}")
        source, hypothesis, lines = {"wide": wide_case, "long": long_case, "garbage": garbage_case}[family](rng)
        blocks.append("\n".join(["S " + " ".join(source)] + lines))
        hypotheses.append(" ".join(hypothesis))
        names.append(f"{family}-{seed}\t{unchanged}")
    with open(prefix + ".m2", "w", encoding="utf-8") as handle:
        handle.write("\n\n".join(blocks) + "\n\n")
    with open(prefix + ".txt", "w", encoding="utf-8") as handle:
        handle.write("\n".join(hypotheses) + "\n")
    with open(prefix + ".cases", "w", encoding="utf-8") as handle:
        handle.write("\n".join(names) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
