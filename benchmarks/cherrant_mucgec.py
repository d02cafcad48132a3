"""Time ChERRANT at character level on the MuCGEC dev set against the original, in the same run,
and check that both write the same M2 and print the same scores.

The job: the authors' example predictions (``example_pred_dev.txt``) and the references
(``MuCGEC_dev.txt``, 1,137 sentences, up to 8 references each) of ../shared/data/mucgec, turned
into character-level M2 and scored (P/R/F0.5 and the per-type table, ``-cat 3``).

* Ours, one process: ``gecmetric cherrant score -hyp PRED -ref DEV --hyp-m2 .. --ref-m2 .. -cat 3``
  (each distinct sentence pair aligned once for both files), and, step for step like the peer,
  ``gecmetric cherrant m2`` twice then ``gecmetric cherrant compare``.
* The peer: ChERRANT (github HillZhang1999/MuCGEC, ``scorers/ChERRANT``), unmodified, from a
  checkout given by ``--peer-src`` or $GECMETRICS_CHERRANT_SRC, run by the Python of its own
  virtualenv (``--peer-python`` or $GECMETRICS_CHERRANT_PYTHON; it needs torch, ltp 4.x, OpenCC,
  pypinyin, python-Levenshtein, tqdm): ``parallel_to_m2.py -f PRED -o HYP.m2 -g char``, the same
  for DEV, then ``compare_m2_for_evaluation.py -hyp HYP.m2 -ref REF.m2 -cat 3``. It is never
  fetched or installed by this script; without it, ours only.

Printed: CPU, wall and peak memory of each command, the CPU ratios peer / ours (target >= 10x),
whether the M2 files are byte for byte the same and whether the printed reports agree.
``--quick``: the first 100 lines of each file. Ours needs the zh extra (pypinyin, OpenCC) and the
data files (``--cherrant-data``, else ../shared/data/cherrant).
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _harness as harness  # noqa: E402

TARGET_RATIO = 10.0
QUICK_LINES = 100
SOURCE_VARIABLE = "GECMETRICS_CHERRANT_SRC"
PYTHON_VARIABLE = "GECMETRICS_CHERRANT_PYTHON"
PREDICTIONS = "example_pred_dev.txt"
REFERENCES = "MuCGEC_dev.txt"


def interpreter_of(command: list[str]) -> str:
    """The Python that runs `command`: itself, or the one of a console script's '#!' line."""
    first = Path(command[0])
    if first.name.startswith("python"):
        return str(first)
    try:
        line = first.read_bytes().split(b"\n", 1)[0].decode()
    except (OSError, UnicodeDecodeError):
        return sys.executable
    return line[2:].split()[0] if line.startswith("#!") and "python" in line else sys.executable


def zh_extra_missing(command: list[str]) -> str | None:
    """None when the Python behind `command` has pypinyin and OpenCC, else why not."""
    done = subprocess.run([interpreter_of(command), "-c", "import pypinyin, opencc"], capture_output=True, text=True)
    return None if done.returncode == 0 else (done.stderr.strip().splitlines() or ["unknown error"])[-1]


def input_files(data: Path, quick: bool, folder: Path) -> tuple[Path, Path]:
    """The predictions and references para files (their first lines with --quick)."""
    if not quick:
        return data / PREDICTIONS, data / REFERENCES
    paths = []
    for name in (PREDICTIONS, REFERENCES):
        lines = (data / name).read_text(encoding="utf-8").splitlines(keepends=True)[:QUICK_LINES]
        (folder / name).write_text("".join(lines), encoding="utf-8")
        paths.append(folder / name)
    return paths[0], paths[1]


def find_peer(args: argparse.Namespace) -> tuple[Path, Path] | None:
    """(ChERRANT's folder, its Python), or None with a message."""
    source = args.peer_src or os.environ.get(SOURCE_VARIABLE)
    python = args.peer_python or os.environ.get(PYTHON_VARIABLE)
    if not source or not python:
        print(f"[peer] ChERRANT not configured (--peer-src/${SOURCE_VARIABLE} and --peer-python/${PYTHON_VARIABLE}): "
              "timing ours only")
        return None
    folder = Path(source)
    if not (folder / "parallel_to_m2.py").is_file() or not (folder / "compare_m2_for_evaluation.py").is_file():
        print(f"[peer] {folder} is not ChERRANT's folder (scorers/ChERRANT of HillZhang1999/MuCGEC): timing ours only")
        return None
    return folder, Path(python)


def report_lines(text: str) -> list[str]:
    """The lines of a compare report, without blank lines."""
    return [line for line in text.splitlines() if line.strip()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    harness.add_common_arguments(parser)
    parser.add_argument("--peer-src", help=f"ChERRANT's folder (default ${SOURCE_VARIABLE})")
    parser.add_argument("--peer-python", help=f"the Python of ChERRANT's virtualenv (default ${PYTHON_VARIABLE})")
    parser.add_argument("--cherrant-data", help="ChERRANT's data files for ours (default ../shared/data/cherrant)")
    args = parser.parse_args(argv)
    repeats = args.repeats or (1 if args.quick else 5)
    data = harness.shared_data("mucgec")
    cherrant_data = Path(args.cherrant_data) if args.cherrant_data else harness.shared_data("cherrant")
    ours_base = [*harness.gecmetric_command(), "cherrant"]
    if not harness.subcommand_available(ours_base):
        print("`gecmetric cherrant` is not available in this installation")
        return 0
    missing = zh_extra_missing(harness.gecmetric_command())
    if missing:
        print(f"ours needs the zh extra (pip install 'gecmetrics[zh]'): {missing}; nothing to time")
        return 0
    harness.print_header("# ChERRANT, character level: MuCGEC dev, example predictions against the references, -cat 3")
    with tempfile.TemporaryDirectory(prefix="gecmetrics-cherrant-") as temporary:
        folder = Path(temporary)
        predictions, references = input_files(data, args.quick, folder)
        data_option = ["--cherrant-data", str(cherrant_data)]
        ours_hyp, ours_ref = folder / "ours.hyp.m2", folder / "ours.ref.m2"
        score = harness.measure_reported(
            "ours  gecmetric cherrant score",
            [*ours_base, "score", "-hyp", str(predictions), "-ref", str(references), "--hyp-m2", str(ours_hyp),
             "--ref-m2", str(ours_ref), "-cat", "3", *data_option], repeats)
        if score is None:
            return 1
        steps = [harness.measure_reported("ours  gecmetric cherrant m2 (hyp)",
                                          [*ours_base, "m2", "-f", str(predictions), "-o", str(folder / "h.m2"),
                                           *data_option], repeats),
                 harness.measure_reported("ours  gecmetric cherrant m2 (ref)",
                                          [*ours_base, "m2", "-f", str(references), "-o", str(folder / "r.m2"),
                                           *data_option], repeats),
                 harness.measure_reported("ours  gecmetric cherrant compare",
                                          [*ours_base, "compare", "-hyp", str(folder / "h.m2"), "-ref",
                                           str(folder / "r.m2"), "-cat", "3"], repeats)]
        if any(step is None for step in steps):
            return 1
        ours_steps_cpu = sum(step.cpu_seconds for step in steps)
        print("\n".join(report_lines(score.stdout)[-3:-1]))
        peer = None if args.no_peers else find_peer(args)
        if peer is None:
            return 0
        source, python = peer
        peer_hyp, peer_ref = folder / "peer.hyp.m2", folder / "peer.ref.m2"
        timings = [harness.measure_peer([str(python), "parallel_to_m2.py", "-f", str(predictions), "-o", str(peer_hyp),
                                         "-g", "char"], args.peer_repeats, cwd=source),
                   harness.measure_peer([str(python), "parallel_to_m2.py", "-f", str(references), "-o", str(peer_ref),
                                         "-g", "char"], args.peer_repeats, cwd=source)]
        if any(t is None for t in timings):
            return 0
        compare = harness.measure_peer([str(python), "compare_m2_for_evaluation.py", "-hyp", str(peer_hyp), "-ref",
                                        str(peer_ref), "-cat", "3"], args.peer_repeats, cwd=source)
        if compare is None:
            return 0
        for label, timing in zip(("peer  parallel_to_m2.py (hyp)", "peer  parallel_to_m2.py (ref)",
                                  "peer  compare_m2_for_evaluation"), (*timings, compare)):
            harness.report(label, timing)
        peer_cpu = sum(t.cpu_seconds for t in timings) + compare.cpu_seconds
        same_m2 = ours_hyp.read_bytes() == peer_hyp.read_bytes() and ours_ref.read_bytes() == peer_ref.read_bytes()
        same_scores = report_lines(score.stdout) == report_lines(compare.stdout)
        print(f"M2 files: {'OK (byte for byte)' if same_m2 else 'MISMATCH'}")
        print(f"scores and type table: {'OK' if same_scores else 'MISMATCH'}")
        for label, ours_cpu in (("one `score` process", score.cpu_seconds), ("m2 + m2 + compare", ours_steps_cpu)):
            ratio = peer_cpu / max(ours_cpu, 1e-9)
            verdict = "" if ratio >= TARGET_RATIO else f"  BELOW TARGET ({TARGET_RATIO:.0f}x)"
            print(f"CPU ratio ChERRANT / ours ({label}): {ratio:.1f}x{verdict}")
        return 0 if same_m2 and same_scores else 1


if __name__ == "__main__":
    sys.exit(main())
