"""Time SOME and IMPARA on CoNLL-2014 (source INPUT; systems AMU CAMB CUUI INPUT NULL) with the
tiny seeded models of ``gecmetrics.core.models.tiny_bert_heads``: ours (every system in one
process) against the original code and against gec-metrics, in one run, and check that the
corpus scores agree at 4 decimals.

* ours: ``gecmetrics.metrics.models.some.SOMEScorer`` / ``impara.IMPARAScorer`` scoring all the
  systems in one process (each distinct hypothesis, pair or sentence once; batches sorted by
  length); also each system in a process of its own; and ``gecmetric compare --metrics ...
  --json`` on all the systems with a cache folder of its own, once cold and ``--repeats`` times
  warm (the warm runs read every value and model identity back: no torch), which must print the
  cold run's bytes.
* the originals: github kokeman/SOME ``some.py HYP SRC --g-dir --f-dir --m-dir --system`` and
  github gotutiyan/IMPARA ``impara.py --src_file --pred_file --restore_dir --level corpus``, one
  run per system (their command lines take one system), unmodified, through ``_on_cpu.py`` (both
  hard-code CUDA), in a folder holding the tiny model as ``bert-base-cased``. They are never
  fetched or installed here: give each checkout and the Python of a virtualenv with its
  requirements (``--some-src/--some-python``, ``--impara-src/--impara-python``; torch,
  transformers 4.46.3, numpy < 2, tqdm).
* gec-metrics (PyPI ``gec-metrics``, github gotutiyan/gec-metrics): its ``SOME`` and ``IMPARA``
  classes on the same models, all systems in one process (``score_corpus`` per system), from a
  Python where it is installed (``--gec-metrics-python``).

Every side runs with one torch thread (``OMP_NUM_THREADS=1``) and ``HF_HUB_OFFLINE=1``; the
ratio is the peer's CPU (summed over its runs) over ours. ``impara.py`` reads its files with
``read().rstrip().split('\\n')``, so it cannot score NULL (1312 empty lines): that run fails and
is reported, and its ratio is taken over the systems it scored. ``--quick`` scores the first 40
sentences of AMU and NULL. Without torch and transformers the script says so and exits 0.
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

SYSTEMS = ["AMU", "CAMB", "CUUI", "INPUT", "NULL"]
QUICK_SYSTEMS = ["AMU", "NULL"]
TARGET = 5.0
ON_CPU = Path(__file__).resolve().parent / "_on_cpu.py"

OURS = r"""
import sys
from pathlib import Path
metric, models, data, digits, *systems = sys.argv[1:]
models, data = Path(models), Path(data)
read = lambda name: (data / name).read_text(encoding="utf-8").split("\n")[:-1]
sources = read("INPUT")
if metric == "some":
    from gecmetrics.metrics.models.some import SOMEScorer
    scorer = SOMEScorer(*(str(models / head) for head in ("grammer", "fluency", "meaning")),
                        tokenizer=str(models / "grammer"), device="cpu")
else:
    from gecmetrics.metrics.models.impara import IMPARAScorer
    scorer = IMPARAScorer(str(models / "qe"), str(models / "se"), device="cpu")
for name, scores in zip(systems, scorer.systems_sentence_scores(sources, [read(name) for name in systems])):
    print(f"{name}\t{sum(scores.tolist()) / len(scores):.{digits}f}")
"""

GEC_METRICS = r"""
import sys
from pathlib import Path
metric, models, data, digits, *systems = sys.argv[1:]
models, data = Path(models), Path(data)
read = lambda name: (data / name).read_text(encoding="utf-8").split("\n")[:-1]
sources = read("INPUT")
if metric == "some":
    from gec_metrics.metrics.some import SOME
    scorer = SOME(SOME.Config(model_g=str(models / "grammer"), model_f=str(models / "fluency"),
                              model_m=str(models / "meaning"), no_cuda=True))
else:
    from gec_metrics.metrics.impara import IMPARA
    scorer = IMPARA(IMPARA.Config(model_qe=str(models / "qe"), model_se=str(models / "se"), no_cuda=True))
for name in systems:
    print(f"{name}\t{scorer.score_corpus(sources, read(name)):.{digits}f}")
"""


def write_subset(conll: Path, target: Path, count: int, systems: list[str]) -> None:
    """The first ``count`` sentences (0: all) of INPUT and the systems."""
    target.mkdir(parents=True)
    for name in dict.fromkeys(["INPUT", *systems]):
        lines = (conll / name).read_text(encoding="utf-8").split("\n")[:-1]
        (target / name).write_text("".join(line + "\n" for line in (lines[:count] if count else lines)),
                                   encoding="utf-8")


def ratio_text(peer_cpu: float, ours: harness.Timing) -> str:
    value = peer_cpu / max(ours.cpu_seconds, 1e-9)
    return f"ratio cpu {value:6.1f}x{'' if value >= TARGET else '  BELOW TARGET'}"


def run_ours(metric: str, models: Path, data: Path, systems: list[str], args) -> tuple[harness.Timing, dict]:
    command = [sys.executable, "-c", OURS, metric, str(models), str(data), "4", *systems]
    timing = harness.measure(command, args.repeats)
    return timing, harness.parse_score_rows(timing.stdout, systems)


def original_command(metric: str, args, models: Path, data: Path, system: str) -> tuple[list[str], Path]:
    if metric == "some":
        python, script = args.some_python, Path(args.some_src) / "some.py"
        options = [str(data / system), str(data / "INPUT"), "--g-dir", str(models / "grammer"),
                   "--f-dir", str(models / "fluency"), "--m-dir", str(models / "meaning"), "--system"]
    else:
        python, script = args.impara_python, Path(args.impara_src) / "impara.py"
        options = ["--src_file", str(data / "INPUT"), "--pred_file", str(data / system),
                   "--restore_dir", str(models / "qe"), "--level", "corpus"]
    return [python, str(ON_CPU), str(script), *options], script


def original_score(metric: str, stdout: str) -> float:
    last = stdout.strip().splitlines()[-1]
    return float(last.removeprefix("score: ") if metric == "some" else last)


def benchmark(metric: str, args, models: Path, data: Path, systems: list[str]) -> bool:
    """Ours (all systems in one process, then each alone), the original per system, gec-metrics."""
    print(f"## {metric.upper()} ({len(systems)} systems)", flush=True)
    ours, scores = run_ours(metric, models, data, systems, args)
    print(f"ours  all systems, one process    {harness.usage(ours)}  " +
          "  ".join(f"{name} {scores[name][0]}" for name in systems), flush=True)
    spec = (f"some:model={models}:tokenizer={models / 'grammer'}" if metric == "some" else
            f"impara:model={models / 'qe'}:se_model={models / 'se'}") + ":device=cpu:threads=1"
    agreed = harness.warm_after_cold("ours  compare --json", [
        "compare", "-s", str(data / "INPUT"), "-o", *(str(data / name) for name in systems), "--metrics", spec,
        "--json"], args.repeats, models.parent / f"cache-{metric}")
    if not args.no_peers:
        alone_cpu = 0.0
        for system in systems:
            alone_cpu += run_ours(metric, models, data, [system], args)[0].cpu_seconds
        print(f"ours  one process per system (sum) cpu {alone_cpu:8.2f} s", flush=True)
    if args.no_peers:
        return agreed
    python = args.some_python if metric == "some" else args.impara_python
    script_dir = Path(args.some_src if metric == "some" else args.impara_src)
    if not Path(python).is_file() or not script_dir.is_dir():
        print(f"[peer] the original {metric} ({script_dir}) or its Python ({python}) is missing: no ratio against it")
    else:
        run_dir = models.parent / f"{metric}-run"
        if not run_dir.exists():
            run_dir.mkdir()
            shutil.copytree(models / ("grammer" if metric == "some" else "se"), run_dir / "bert-base-cased")
        peer_cpu, scored = 0.0, []
        for system in systems:
            command, _ = original_command(metric, args, models, data, system)
            timing = harness.measure_peer(command, args.peer_repeats, cwd=run_dir)
            if timing is None:
                print(f"[peer] original {metric} could not score {system}")
                continue
            theirs = f"{original_score(metric, timing.stdout):.4f}"
            same = theirs == scores[system][0]
            agreed &= same
            peer_cpu += timing.cpu_seconds
            scored.append(system)
            print(f"original {system:6s} {harness.usage(timing)}  {theirs}  {'same' if same else 'MISMATCH'}", flush=True)
        if scored:
            subset = ours if scored == systems else run_ours(metric, models, data, scored, args)[0]
            label = "" if scored == systems else f" (the {len(scored)} systems it scored; ours on those)"
            print(f"original, sum of {len(scored)} runs: cpu {peer_cpu:8.2f} s  vs ours {subset.cpu_seconds:.2f} s  "
                  f"{ratio_text(peer_cpu, subset)}{label}", flush=True)
    if args.gec_metrics_python and Path(args.gec_metrics_python).is_file():
        command = [args.gec_metrics_python, str(ON_CPU), "-c", GEC_METRICS, metric, str(models), str(data), "4",
                   *systems]
        timing = harness.measure_peer(command, args.peer_repeats)
        if timing is not None:
            theirs = harness.parse_score_rows(timing.stdout, systems)
            same = all(theirs.get(name) == scores.get(name) for name in systems)
            print(f"gec-metrics all systems           {harness.usage(timing)}  " +
                  "  ".join(f"{name} {theirs.get(name, ['?'])[0]}" for name in systems) +
                  f"  {'same' if same else 'DIFFERENT (its departures from the original, see the module docs)'}")
            print(f"gec-metrics vs ours: {ratio_text(timing.cpu_seconds, ours)}", flush=True)
    else:
        print(f"[peer] gec-metrics' Python ({args.gec_metrics_python}) is missing: no ratio against it")
    return agreed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    harness.add_common_arguments(parser)
    parser.add_argument("--sentences", type=int, default=None, help="first N sentences (default all; 40 with --quick)")
    parser.add_argument("--metrics", nargs="+", choices=["some", "impara"], default=["some", "impara"])
    parser.add_argument("--systems", nargs="+", default=None, help=f"systems (default: {' '.join(SYSTEMS)})")
    parser.add_argument("--some-src", default=os.environ.get("GECMETRICS_SOME_SRC", "/work/oracles/src/SOME"))
    parser.add_argument("--some-python", default=os.environ.get("GECMETRICS_SOME_PYTHON",
                                                                "/work/oracles/some/venv/bin/python"))
    parser.add_argument("--impara-src", default=os.environ.get("GECMETRICS_IMPARA_SRC", "/work/oracles/src/IMPARA"))
    parser.add_argument("--impara-python", default=os.environ.get("GECMETRICS_IMPARA_PYTHON",
                                                                  "/work/oracles/impara/venv/bin/python"))
    parser.add_argument("--gec-metrics-python", default=os.environ.get("GECMETRICS_GEC_METRICS_PYTHON",
                                                                       "/work/oracles/gec-metrics/venv/bin/python"))
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    if importlib.util.find_spec("torch") is None or importlib.util.find_spec("transformers") is None:
        print("SOME and IMPARA need torch and transformers (pip install 'gecmetrics[models]'): not installed, "
              "nothing to time")
        return 0
    conll = harness.shared_data("conll14")
    systems = args.systems or (QUICK_SYSTEMS if args.quick else SYSTEMS)
    args.repeats = args.repeats or 1
    count = args.sentences if args.sentences is not None else (40 if args.quick else 0)
    os.environ.update(OMP_NUM_THREADS="1", HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1",
                      PYTHONPATH=os.pathsep.join([str(harness.REPO_ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(
                          os.pathsep))
    harness.print_header(f"# SOME and IMPARA on CoNLL-2014 ({count or 'all'} sentences), tiny seeded models, "
                         "one torch thread")
    harness.print_torch_import(args.quick, args.repeats, "every run of every side pays it")
    sys.path.insert(0, str(harness.REPO_ROOT))
    from gecmetrics.core.models.tiny_bert_heads import build_impara_models, build_some_models

    agreed = True
    with tempfile.TemporaryDirectory(prefix="gecmetrics-models-") as folder:
        work = Path(folder)
        write_subset(conll, work / "data", count, systems)
        if "some" in args.metrics:
            build_some_models(work / "some")
            agreed &= benchmark("some", args, work / "some", work / "data", systems)
        if "impara" in args.metrics:
            build_impara_models(work / "impara")
            agreed &= benchmark("impara", args, work / "impara", work / "data", systems)
    return 0 if agreed else 1


if __name__ == "__main__":
    sys.exit(main())
