"""Time `gecmetric pt-m2` on CoNLL-2014 (gold official-2014.combined.m2) against the authors' code
(github pygongnlp/PT-M2, ``evaluate.py --scorer bertscore``), both with the tiny BERT of
``gecmetrics.core.models.tiny`` (no real weights can be downloaded here), and check the scores agree.

Per system: our command on that system alone against one run of the authors' script (which
scores one system per run), CPU, wall and peak memory of each, their ratios, and the F of both
at 4 decimals. Then ours with every system in one process (the model loaded once, the gold side
prepared once, each distinct sentence encoded once) against the sum of the authors' runs; that
run must print, system by system, the same bits as the one-system runs (a system's score does
not depend on the others). Both sides use one torch thread (``OMP_NUM_THREADS=1``). A line
times ``import torch, transformers`` alone (not with ``--quick``): both sides pay it on every run.

The authors' code is slow (minutes of CPU per system); ``--sentences N`` times the first N
sentences only (start-up then weighs on the ratio). It is never fetched or installed here: give
its checkout (``--peer-src``, default /tmp/peers/ptm2-src) and a Python with its requirements
(``--peer-python``, default /tmp/peers/ptm2/bin/python: torch, transformers, pandas, matplotlib,
tqdm). Without torch and transformers the script says so and exits 0.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _harness as harness  # noqa: E402

SYSTEMS = ["AMU", "CAMB", "CUUI", "INPUT", "REF0"]
QUICK_SYSTEMS = ["AMU"]
GOLD = "official-2014.combined.m2"
LEVELS = {"sentence": "sentm2", "corpus": "m2"}
TARGET = 20.0
TINY = ["--layer", "9", "--baseline", "bert-base-uncased"]


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


def peer_score(args, source: Path, data: Path, system: str, level: str) -> tuple[harness.Timing | None, float]:
    output = data / f"{system}.{level}.out"
    command = [args.peer_python, "evaluate.py", "--source", str(data / "INPUT"), "--reference", str(data / "reference"),
               "--hypothesis", str(data / system), "--output", str(output), "--base", LEVELS[level],
               "--scorer", "bertscore", "--model_type", "bert-base-uncased"]
    timing = harness.measure_peer(command, args.peer_repeats, cwd=source)
    return timing, (float(output.read_text().rsplit("score=", 1)[1]) if timing else float("nan"))


def ours(model: Path, data: Path, systems: list[str], level: str, repeats: int) -> tuple[harness.Timing, dict]:
    """`gecmetric pt-m2` on the systems in one process: its timing and each system's F."""
    command = [*harness.gecmetric_command(), "pt-m2", "-s", str(data / "reference.m2"), "-o",
               *(str(data / s) for s in systems), "--model", str(model), *TINY, "--level", level, "--json", "--scale", "1"]
    timing = harness.measure(command, repeats)
    return timing, {Path(row["system"]).name: row["f"] for row in json.loads(timing.stdout)}


def ratios(peer_cpu: float, peer_wall: float, timing: harness.Timing) -> str:
    cpu, wall = peer_cpu / timing.cpu_seconds, peer_wall / timing.wall_seconds
    return f"ratio cpu {cpu:6.1f}x  wall {wall:6.1f}x{'' if cpu >= TARGET else '  BELOW TARGET'}"


def run_level(args, model: Path, data: Path, peer_source: Path | None, systems: list[str], level: str) -> bool:
    """Every system alone (and the authors' run of it), then all systems in one process."""
    print(f"## level {level} ({LEVELS[level]}); per system: ours | the authors' evaluate.py", flush=True)
    agreed, singles, peer_cpu, peer_wall = True, {}, 0.0, 0.0
    for system in systems:
        timing, values = ours(model, data, [system], level, args.repeats)
        singles[system] = values[system]
        line = f"{system:6s} ours {harness.usage(timing)}  F {values[system]:.4f}"
        if peer_source is not None:
            peer, theirs = peer_score(args, peer_source, data, system, level)
            if peer is None:
                agreed = False
            else:
                peer_cpu, peer_wall = peer_cpu + peer.cpu_seconds, peer_wall + peer.wall_seconds
                same = f"{values[system]:.4f}" == f"{theirs:.4f}"
                agreed &= same
                line += (f" | authors {harness.usage(peer)}  F {theirs:.4f}  {ratios(peer.cpu_seconds, peer.wall_seconds, timing)}"
                         f"  {'same' if same else 'MISMATCH'}")
        print(line, flush=True)
    if len(systems) > 1:
        timing, values = ours(model, data, systems, level, args.repeats)
        identical = values == singles
        agreed &= identical
        line = (f"{'all ' + str(len(systems)):6s} ours {harness.usage(timing)}  one process; F bits as alone: "
                f"{'yes' if identical else 'NO'}")
        if peer_source is not None and peer_cpu:
            line += f" | authors (sum of runs) cpu {peer_cpu:8.2f} s  wall {peer_wall:8.2f} s  " + \
                ratios(peer_cpu, peer_wall, timing)
        print(line, flush=True)
    return agreed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    harness.add_common_arguments(parser)
    parser.add_argument("--sentences", type=int, default=None,
                        help="first N sentences (0 = all, the default; 20 with --quick)")
    parser.add_argument("--levels", nargs="+", choices=list(LEVELS), default=["sentence"],
                        help="sentence (sentm2, the authors' recommended PT-M2; default) and/or corpus (m2)")
    parser.add_argument("--systems", nargs="+", default=None, help=f"systems (default: {' '.join(SYSTEMS)})")
    parser.add_argument("--peer-src", default=os.environ.get("GECMETRICS_PTM2_SRC", "/tmp/peers/ptm2-src"))
    parser.add_argument("--peer-python", default=os.environ.get("GECMETRICS_PTM2_PYTHON", "/tmp/peers/ptm2/bin/python"))
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    if importlib.util.find_spec("torch") is None or importlib.util.find_spec("transformers") is None:
        print("PT-M2 needs torch and transformers (pip install 'gecmetrics[pt]'): not installed, nothing to time")
        return 0
    conll = harness.shared_data("conll14")
    systems = args.systems or (QUICK_SYSTEMS if args.quick else SYSTEMS)
    args.repeats = args.repeats or 1
    count = args.sentences if args.sentences is not None else (20 if args.quick else 0)
    os.environ["OMP_NUM_THREADS"] = "1"  # for both sides' child processes
    os.environ["HF_HUB_OFFLINE"] = "1"
    harness.print_header(f"# PT-M2 on CoNLL-2014 ({count or 'all'} sentences, gold {GOLD}), tiny BERT, one torch thread")
    harness.print_torch_import(args.quick, args.repeats, "every run of either side pays it")
    from gecmetrics.core.models.tiny import build_tiny_bert

    with tempfile.TemporaryDirectory(prefix="gecmetrics-pt-") as folder:
        work = Path(folder)
        build_tiny_bert(work / "tiny")
        write_subset(conll, work / "data", count, systems)
        peer_source = None if args.no_peers else peer_setup(args, work / "tiny", work)
        agreed = [run_level(args, work / "tiny", work / "data", peer_source, systems, level) for level in args.levels]
    return 0 if all(agreed) else 1


if __name__ == "__main__":
    sys.exit(main())
