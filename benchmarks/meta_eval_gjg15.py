"""The whole GJG15 meta-evaluation pipeline from raw judgments, as a user runs it:

    gecmetric meta-eval --judgments gjg15.xml -s INPUT -r REF0 REF1 -o <13 systems> \\
        --metrics gleu green:beta=2 --bootstrap 1000 --compare

reads judgments.xml, Expected Wins with 1000 bootstrap resamples (rank ranges), GLEU+ and GREEN
of the 13 judged systems (one score_corpus run), their Pearson/Spearman/Kendall with Expected
Wins and 1000-resample intervals, and the paired test GLEU+ vs GREEN (paired bootstrap and
Williams). Target: under 5 s on the dev machine; CPU is reported beside wall time because the
machine is shared. ``--sentences`` adds the sentence bootstrap (``--resample both --src-ids 0``:
both metrics rescored on every resample), which is reported, not targeted.

The 13 system outputs are the CoNLL-2014 submissions of github grammatical/evaluation
(``data/original/official_submissions``; ``--submissions DIR`` or $GECMETRICS_GJG15_SUBMISSIONS);
without them only the 4 of ../shared/data/conll14 (AMU CAMB CUUI INPUT) are scored and correlated.
The peer is GJG15's own ``EW.pl`` (perl with XML::Twig; 1000 bootstrap resamples in perl;
``--ew-pl PATH`` or $GECMETRICS_EW_PL), timed on the same judgments.

    python benchmarks/meta_eval_gjg15.py                     # full run
    python benchmarks/meta_eval_gjg15.py --quick --no-peers  # smoke run: 100 resamples
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _harness as harness  # noqa: E402

SYSTEMS = ["AMU", "CAMB", "CUUI", "IITB", "INPUT", "IPN", "NTHU", "PKU", "POST", "RAC", "SJTU", "UFC", "UMC"]
SHARED_SYSTEMS = ["AMU", "CAMB", "CUUI", "INPUT"]
TARGET_SECONDS = 5.0
SUBMISSIONS_VARIABLE = "GECMETRICS_GJG15_SUBMISSIONS"
EW_PL_VARIABLE = "GECMETRICS_EW_PL"
DEFAULT_SUBMISSIONS = "/tmp/peers/meta-ge/data/original/official_submissions"  # where a fetched copy was put


def pipeline_command(judgments: Path, conll: Path, submissions: Path | None, resamples: int,
                     sentences: bool) -> list[str]:
    """The one command of the whole pipeline (system files named by their file names)."""
    systems = SYSTEMS if submissions is not None else SHARED_SYSTEMS
    outputs = [str((conll if submissions is None or s in SHARED_SYSTEMS else submissions) / s) for s in systems]
    command = [*harness.gecmetric_command(), "meta-eval", "--judgments", str(judgments), "-s", str(conll / "INPUT"),
               "-r", str(conll / "REF0"), str(conll / "REF1"), "-o", *outputs, "--metrics", "gleu", "green:beta=2",
               "--bootstrap", str(resamples), "--compare"]
    return command + (["--resample", "both", "--src-ids", "0"] if sentences else [])


def find_ew_pl(given: str | None) -> Path | None:
    candidates = [given, os.environ.get(EW_PL_VARIABLE), "/tmp/peers/meta-ge/data/scripts/EW.pl"]
    for candidate in candidates:
        if candidate and Path(candidate).is_file():
            return Path(candidate)
    return None


def time_peer(ew_pl: Path | None, judgments: Path, repeats: int) -> harness.Timing | None:
    perl = shutil.which("perl")
    if ew_pl is None or perl is None:
        print("[peer] GJG15's EW.pl not found (--ew-pl PATH or $GECMETRICS_EW_PL): peer skipped")
        return None
    command = [perl, "-e", f"open(STDIN, '<', '{judgments}') or die; do '{ew_pl}'; die $@ if $@"]
    timing = harness.measure_peer(command, repeats)
    if timing is not None:
        harness.report("peer  EW.pl (1000 resamples)", timing)
    return timing


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    harness.add_common_arguments(parser)
    parser.add_argument("--submissions", default=None, help="folder of the 13 CoNLL-2014 submissions")
    parser.add_argument("--ew-pl", default=None, help="GJG15's data/scripts/EW.pl (the peer)")
    parser.add_argument("--sentences", action="store_true", help="also time the sentence bootstrap")
    args = parser.parse_args(argv)
    data = harness.shared_data()
    resamples = 100 if args.quick else 1000
    given = args.submissions or os.environ.get(SUBMISSIONS_VARIABLE) or DEFAULT_SUBMISSIONS
    submissions = Path(given) if (Path(given) / "IPN").is_file() else None
    judgments = data / "human" / "judgments" / "gjg15.xml"
    harness.print_header("GJG15 meta-evaluation pipeline from raw judgments")
    if submissions is None:
        print(f"note: the 13 submissions are not at {given}: scoring the 4 systems of shared/data/conll14 only")
    repeats = args.repeats or (1 if args.quick else 5)
    systems = len(SYSTEMS if submissions else SHARED_SYSTEMS)
    print(f"pipeline: {systems} systems, GLEU+ and GREEN, EW, {resamples} resamples, paired test")
    ours = harness.measure_reported("ours  meta-eval pipeline",
                                    pipeline_command(judgments, data / "conll14", submissions, resamples, False),
                                    repeats)
    if ours is None:
        return 1
    verdict = "OK" if ours.wall_seconds < TARGET_SECONDS else "BELOW TARGET"
    print(f"target: whole pipeline under {TARGET_SECONDS:g} s wall: {verdict} ({ours.wall_seconds:.3f} s wall, "
          f"{ours.cpu_seconds:.3f} s CPU)")
    if args.sentences:
        harness.measure_reported("ours  + sentence bootstrap",
                                 pipeline_command(judgments, data / "conll14", submissions, resamples, True), repeats)
    if not args.no_peers:
        peer = time_peer(find_ew_pl(args.ew_pl), judgments, args.peer_repeats)
        if peer is not None:
            print(f"ratio (EW.pl alone / our whole pipeline, CPU): {harness.ratio(peer, ours):.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
