"""Time PT-M2 on CoNLL-2014 (AMU CAMB CUUI, gold official-2014.combined.m2) against the authors'
code (github pygongnlp/PT-M2, ``evaluate.py --scorer bertscore``), both with the tiny BERT of
``gecmetrics.pt.tiny`` (no real weights can be downloaded here), and check the scores agree.

There is no ``gecmetric`` command for PT-M2 yet: our side is this script's own child mode, a
small Python entry point that calls ``gecmetrics.pt.pt_m2_systems`` on the gold M2 and the
systems' files (import, model loading, gold preparation and scoring all counted). Each side runs
as a child process timed by the harness, one system per process (as the authors' script runs),
plus ours with all systems in one process (the gold side and the embeddings shared) against the
sum of the authors' runs. Both sides
use one torch thread (``OMP_NUM_THREADS=1``).

The authors' code is slow (minutes of CPU per system, far more on a busy machine); ``--sentences N``
times the first N sentences only, but then both sides' start-up (importing torch and
transformers, several seconds) weighs on the ratio. It is never fetched or
installed here: give its checkout (``--peer-src``, default /tmp/peers/ptm2-src) and a Python with
its requirements (``--peer-python``, default /tmp/peers/ptm2/bin/python: torch, transformers,
pandas, matplotlib, tqdm). Without torch and transformers the script says so and exits 0.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _harness as harness  # noqa: E402

SYSTEMS = ["AMU", "CAMB", "CUUI"]
QUICK_SYSTEMS = ["AMU"]
GOLD = "official-2014.combined.m2"
LEVELS = {"sentence": "sentm2", "corpus": "m2"}
TARGET = 20.0


def child(model: str, level: str, data: Path, systems: list[str]) -> int:
    """Our entry point: PT-M2 of the systems, one `SYSTEM<TAB>score` line each."""
    from gecmetrics.corpus import read_lines
    from gecmetrics.pt import PTSettings, pt_m2_systems

    settings = PTSettings(model=model, num_layers=9, baseline="bert-base-uncased", level=level)
    results = pt_m2_systems(data / "reference.m2", {s: read_lines(str(data / s)) for s in systems}, settings)
    for name, result in results.items():
        print(f"{name}\t{result.score!r}")
    return 0


def write_subset(conll: Path, target: Path, count: int, systems: list[str]) -> None:
    """The first `count` sentences (0: all) in the layout the authors' evaluate.py reads."""
    (target / "reference").mkdir(parents=True)
    for name, path in [("INPUT", "INPUT"), ("REF0", "reference/ref0"), ("REF1", "reference/ref1")] + \
            [(s, s) for s in systems]:
        lines = (conll / name).read_text(encoding="utf-8").split("\n")[:-1]
        (target / path).write_text("".join(line + "\n" for line in (lines[:count] if count else lines)),
                                   encoding="utf-8")
    blocks = (conll / GOLD).read_text(encoding="utf-8").strip("\n").split("\n\n")
    (target / "reference.m2").write_text("".join(b + "\n\n" for b in (blocks[:count] if count else blocks)),
                                         encoding="utf-8")


def peer_setup(args, model: Path, work: Path) -> Path | None:
    """A copy of the authors' checkout with the tiny model saved in it as bert-base-uncased
    (so that their default layer 9 and rescaling baseline apply), or None with a message."""
    python, source = Path(args.peer_python), Path(args.peer_src)
    if not python.is_file() or not (source / "evaluate.py").is_file():
        print(f"[peer] the authors' PT-M2 checkout ({source}) or its Python ({python}) is missing: timing ours only")
        return None
    copy = work / "ptm2-src"
    shutil.copytree(source, copy, ignore=shutil.ignore_patterns("bert-base-uncased", "__pycache__"))
    shutil.copytree(model, copy / "bert-base-uncased")
    return copy


def peer_score(args, source: Path, data: Path, system: str, level: str) -> tuple[harness.Timing | None, str]:
    output = data / f"{system}.{level}.out"
    command = [args.peer_python, "evaluate.py", "--source", str(data / "INPUT"), "--reference", str(data / "reference"),
               "--hypothesis", str(data / system), "--output", str(output), "--base", LEVELS[level],
               "--scorer", "bertscore", "--model_type", "bert-base-uncased"]
    timing = harness.measure_peer(command, args.peer_repeats, cwd=source)
    return timing, (output.read_text().rsplit("score=", 1)[1].strip() if timing else "")


def run(args, model: Path, data: Path, work: Path, systems: list[str]) -> int:
    ours_command = [sys.executable, __file__, "--child", str(model)]
    peer_source = None if args.no_peers else peer_setup(args, model, work)
    failed = False
    for level in args.levels:
        peer_total = 0.0
        for system in systems:
            ours = harness.measure([*ours_command, level, str(data), system], args.repeats)
            value = float(harness.parse_score_rows(ours.stdout, [system])[system][0])
            line = (f"{system:5s} {level:8s} ours cpu {ours.cpu_seconds:7.2f} s  RSS {ours.peak_rss_mb:6.0f} MB  "
                    f"F {value:.4f}")
            if peer_source is not None:
                peer, peer_value = peer_score(args, peer_source, data, system, level)
                if peer is None:
                    failed = True
                else:
                    peer_total += peer.cpu_seconds
                    same = f"{value:.4f}" == f"{float(peer_value):.4f}"
                    failed |= not same
                    line += (f"   authors cpu {peer.cpu_seconds:8.2f} s  F {float(peer_value):.4f}   "
                             f"{ratio_text(harness.ratio(peer, ours))}  {'same' if same else 'MISMATCH'}")
            print(line, flush=True)
        if len(systems) > 1:
            everything = harness.measure([*ours_command, level, str(data), *systems], args.repeats)
            line = (f"{'all':5s} {level:8s} ours cpu {everything.cpu_seconds:7.2f} s  "
                    f"RSS {everything.peak_rss_mb:6.0f} MB  (one process)")
            if peer_source is not None and peer_total:
                line += f"   authors cpu {peer_total:8.2f} s  (sum)   {ratio_text(peer_total / everything.cpu_seconds)}"
            print(line, flush=True)
    return 1 if failed else 0


def ratio_text(ratio: float) -> str:
    return f"ratio {ratio:6.1f}x{'' if ratio >= TARGET else '  BELOW TARGET'}"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--child"]:
        os.environ.setdefault("OMP_NUM_THREADS", "1")
        return child(argv[1], argv[2], Path(argv[3]), argv[4:])
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    harness.add_common_arguments(parser)
    parser.add_argument("--sentences", type=int, default=None,
                        help="first N sentences (0 = all, the default; 20 with --quick)")
    parser.add_argument("--levels", nargs="+", choices=list(LEVELS), default=["sentence"],
                        help="sentence (sentm2, the authors' recommended PT-M2; default) and/or corpus (m2)")
    parser.add_argument("--peer-src", default=os.environ.get("GECMETRICS_PTM2_SRC", "/tmp/peers/ptm2-src"))
    parser.add_argument("--peer-python", default=os.environ.get("GECMETRICS_PTM2_PYTHON", "/tmp/peers/ptm2/bin/python"))
    args = parser.parse_args(argv)
    if importlib.util.find_spec("torch") is None or importlib.util.find_spec("transformers") is None:
        print("PT-M2 needs torch and transformers (pip install 'gecmetrics[pt]'): not installed, nothing to time")
        return 0
    conll = harness.shared_data("conll14")
    systems = QUICK_SYSTEMS if args.quick else SYSTEMS
    args.repeats = args.repeats or 1
    count = args.sentences if args.sentences is not None else (20 if args.quick else 0)
    os.environ["OMP_NUM_THREADS"] = "1"  # for both sides' child processes
    os.environ["HF_HUB_OFFLINE"] = "1"
    print(f"# PT-M2 on CoNLL-2014 ({count or 'all'} sentences, gold {GOLD}), tiny BERT, one torch thread")
    print(f"machine: {harness.machine_line()}")
    from gecmetrics.pt.tiny import build_tiny_bert

    with tempfile.TemporaryDirectory(prefix="gecmetrics-pt-") as folder:
        work = Path(folder)
        build_tiny_bert(work / "tiny")
        write_subset(conll, work / "data", count, systems)
        return run(args, work / "tiny", work / "data", work, systems)


if __name__ == "__main__":
    sys.exit(main())
