"""`gecmetric compare` on CoNLL-2014 against the sum of the separate peer tools' times.

One `gecmetric compare` run scores AMU CAMB CUUI INPUT REF0 with GLEU+ (gec-ranking's draws,
-f, 500 iterations) and word GREEN for beta 0.5, 1 and 2. The same work done with the peer
tools takes two commands: PyPI gleu 1.1.0 `gleu -f` and the original GREEN `green -b 0.5 1 2`
(when installed: set GECMETRICS_GREEN_CMD or put its `green` on PATH). The script times all of
them in the same run, prints the ratio (sum of the peers' CPU) / (our CPU) (target >= 50x),
and checks that the compare table printed the peers' numbers.

    python benchmarks/compare_conll14.py                     # full run
    python benchmarks/compare_conll14.py --quick --no-peers  # CI smoke run (seconds)
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _harness as harness  # noqa: E402

SOURCE, REFERENCES, BETAS = harness.CONLL_SOURCE, harness.CONLL_REFERENCES, harness.GREEN_BETAS
GLEU_REQUIREMENT = "gleu==1.1.0"
TARGET_RATIO = 50.0


def compare_arguments(systems: list[str], iterations: int, digits: int) -> list[str]:
    metrics = f"gleu:iter={iterations},green:beta={'/'.join(BETAS)}"
    return harness.conll_arguments("-o", systems, "--metrics", metrics, "--tsv", "-d", str(digits))


def split_compare_output(text: str, systems: list[str]) -> tuple[str, str]:
    """The compare TSV as two texts shaped like the peers' outputs: `name<TAB>gleu` lines and
    `name<TAB>green b0.5<TAB>b1<TAB>b2` lines (the first score column is GLEU+)."""
    rows = harness.parse_score_rows(text, systems)
    gleu_text = "\n".join(f"{name}\t{rows[name][0]}" for name in systems if name in rows)
    green_text = "\n".join("\t".join([name, *rows[name][1:]]) for name in systems if name in rows)
    return gleu_text, green_text


def main(argv: list[str] | None = None) -> int:
    args, data, systems, repeats = harness.parse_setup(
        __doc__, argv, iterations_help="GLEU+ sampling iterations (default 500, 20 with --quick)")
    iterations = args.iterations or (20 if args.quick else 500)

    ours_command = harness.begin(
        "compare", f"compare: GLEU+ (-f, {iterations} iterations) and GREEN word (betas {' '.join(BETAS)}), CoNLL-2014 "
        f"({harness.count_lines(data / SOURCE)} sentences), source {SOURCE}, references {' '.join(REFERENCES)}, "
        f"systems {' '.join(systems)}", repeats, "ours  startup (--version)")
    if ours_command is None:
        return 1
    ours = harness.measure([*ours_command, *compare_arguments(systems, iterations, args.digits)], repeats, cwd=data)
    harness.report("ours  gecmetric compare", ours)
    if args.no_peers:
        return 0

    peers: list[harness.Timing] = []
    agreed = True
    ours_gleu, ours_green = split_compare_output(ours.stdout, systems)
    gleu_python = harness.peer_python("gleu", GLEU_REQUIREMENT)
    if gleu_python is not None:
        gleu = harness.measure([*harness.peer_script(gleu_python, "gleu"),
                                *harness.gleu_options(systems, iterations, args.digits)], args.peer_repeats, cwd=data)
        harness.report(f"peer  {GLEU_REQUIREMENT} gleu -f", gleu)
        agreed &= harness.print_agreement(f"GLEU+ scores (-d {args.digits})", ours_gleu, gleu.stdout, systems)
        peers.append(gleu)
    green_command = harness.find_green_command()
    if green_command is not None:
        green = harness.measure([*green_command, *harness.green_options(systems, "word", args.digits)], args.peer_repeats, cwd=data)
        harness.report("peer  original green -b 0.5 1 2", green)
        agreed &= harness.print_agreement(f"GREEN scores (-d {args.digits})", ours_green, green.stdout, systems)
        peers.append(green)
    if peers:
        peer_cpu = sum(p.cpu_seconds for p in peers)
        peer_wall = sum(p.wall_seconds for p in peers)
        speedup = peer_cpu / max(ours.cpu_seconds, 1e-9)
        verdict = "OK" if speedup >= TARGET_RATIO else "BELOW TARGET"
        names = " + ".join(["gleu"] * (gleu_python is not None) + ["green"] * (green_command is not None))
        print(f"peers ({names}): cpu {peer_cpu:.3f} s, wall {peer_wall:.3f} s")
        print(f"ratio: sum of peer CPU / our CPU = {speedup:.1f}x (target >= {TARGET_RATIO:.0f}x): {verdict}; "
              f"wall {peer_wall / max(ours.wall_seconds, 1e-9):.1f}x")
    return 0 if agreed else 1


if __name__ == "__main__":
    sys.exit(main())
