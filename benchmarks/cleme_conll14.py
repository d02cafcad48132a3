"""Time CLEME (corpus level, dependent, length-weighted: the official default) on five CoNLL-2014
systems against the official THUKElab/CLEME code, in the same run, and check the numbers.

Files: the ERRANT M2 files the CLEME repository ships (``demo/examples/conll14-SYSTEM.errant``
against ``conll14.errant``) in a checkout named by $GECMETRICS_CLEME_CHECKOUT (default
/tmp/peers/cleme-src). The official side is the command in $GECMETRICS_CLEME_CMD, run once per
system with ``--ref REF --hyp HYP --metric cleme --level corpus --assumption dependent`` appended
(e.g. ``python main.py`` in the checkout's virtualenv, which needs errant, spaCy and
en_core_web_sm, ltp, pypinyin, Levenshtein, tabulate and bert_score); it is never fetched or
installed by this script. Ours is one ``gecmetric cleme`` process scoring all five systems (the
references read once).

Without the checkout, ours is timed on the CoNLL-2014 M2 files of ../shared/data (annotator 0
and annotator 1 scored against the combined annotation); without the command, ours only.
"""
from __future__ import annotations

import argparse
import os
import re
import shlex
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _harness as harness  # noqa: E402

SYSTEMS = ["AMU", "CAMB", "CUUI", "POST", "UFC"]
QUICK_SYSTEMS = ["AMU"]
TARGET_RATIO = 30.0
CHECKOUT_VARIABLE = "GECMETRICS_CLEME_CHECKOUT"
COMMAND_VARIABLE = "GECMETRICS_CLEME_CMD"
FIELDS = ("F", "P", "R", "ACC", "TP", "FP", "FN", "TN")


def our_command(reference: Path, hypotheses: list[Path]) -> list[str]:
    return [*harness.gecmetric_command(), "cleme", "-ref", str(reference), "-hyp", *map(str, hypotheses), "--scale",
            "1"]  # fractions with 4 decimals, as CLEME prints them


def our_rows(stdout: str) -> dict[str, list[str]]:
    """Our printed lines: file name -> the eight numbers."""
    rows = {}
    for line in stdout.splitlines()[1:]:
        fields = line.split("\t")
        if len(fields) == 9:
            rows[Path(fields[0]).name] = fields[1:]
    return rows


def official_row(stdout: str) -> list[str] | None:
    """The prf_corpus_weighted row of the official table (F P R ACC TP FP FN TN, 4 decimals)."""
    for line in stdout.splitlines():
        if "prf_corpus_weighted" in line:
            return re.findall(r"-?\d+\.\d+", line)[:len(FIELDS)]
    return None


def files(quick: bool) -> tuple[Path, list[Path], bool]:
    """Reference, hypotheses, and whether they are the CLEME demo files."""
    folder = Path(os.environ.get(CHECKOUT_VARIABLE, "/tmp/peers/cleme-src")) / "demo" / "examples"
    if (folder / "conll14.errant").is_file():
        systems = QUICK_SYSTEMS if quick else SYSTEMS
        return folder / "conll14.errant", [folder / f"conll14-{name}.errant" for name in systems], True
    print(f"no THUKElab/CLEME checkout at {folder.parent.parent} (set {CHECKOUT_VARIABLE}): timing ours on the "
          "CoNLL-2014 M2 files of ../shared/data instead")
    data = harness.shared_data("conll14")
    hypotheses = [data / "official-2014.0.m2"] + ([] if quick else [data / "official-2014.1.m2"])
    return data / "official-2014.combined.m2", hypotheses, False


def time_official(command: list[str], reference: Path, hypotheses: list[Path], repeats: int
                  ) -> tuple[float, dict[str, list[str]]]:
    """Total CPU seconds of the official command over the systems, and its rows."""
    total, rows = 0.0, {}
    for hypothesis in hypotheses:
        options = ["--ref", str(reference), "--hyp", str(hypothesis), "--metric", "cleme", "--level", "corpus",
                   "--assumption", "dependent"]
        timing = harness.measure_peer([*command, *options], repeats)
        if timing is None:
            return 0.0, {}
        harness.report(f"official {hypothesis.name}", timing)
        total += timing.cpu_seconds
        row = official_row(timing.stdout)
        if row:
            rows[hypothesis.name] = row
    return total, rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    harness.add_common_arguments(parser)
    args = parser.parse_args(argv)
    repeats = args.repeats or (1 if args.quick else 5)
    reference, hypotheses, demo = files(args.quick)
    harness.print_header("# CLEME, corpus level, dependent, length-weighted (the official default)")
    ours = harness.measure_reported("ours  gecmetric cleme", our_command(reference, hypotheses), repeats)
    if ours is None:
        return 1
    rows = our_rows(ours.stdout)
    for name, values in rows.items():
        print(f"  {name:24s} " + "  ".join(f"{field} {value}" for field, value in zip(FIELDS, values)))
    command = shlex.split(os.environ.get(COMMAND_VARIABLE, ""))
    if args.no_peers or not demo:
        return 0
    if not command:
        print(f"official CLEME command not set ({COMMAND_VARIABLE}, e.g. 'python main.py' in the checkout's "
              "virtualenv): timing ours only")
        return 0
    official_cpu, official_rows = time_official(command, reference, hypotheses, args.peer_repeats)
    if not official_rows:
        return 0
    differing = [name for name in rows if official_rows.get(name) != rows[name]]
    for name in differing:
        print(f"MISMATCH {name}: ours {rows[name]} official {official_rows.get(name)}")
    if not differing:
        print(f"numbers: OK (same printed F P R ACC TP FP FN TN for {len(rows)} systems)")
    ratio = official_cpu / max(ours.cpu_seconds, 1e-9)
    verdict = "" if ratio >= TARGET_RATIO else f"  BELOW TARGET ({TARGET_RATIO:.0f}x)"
    print(f"CPU ratio official / ours over {len(hypotheses)} systems: {ratio:.1f}x{verdict}")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
