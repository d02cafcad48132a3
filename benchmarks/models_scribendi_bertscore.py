"""Time the Scribendi Score and BERTScore of gecmetrics against the original code and against
gec-metrics (github gotutiyan/gec-metrics) on CoNLL-2014, all with the same tiny seeded models
(the tiny GPT-2 of ``gecmetrics.core.models.tiny_gpt2``, the tiny BERT of ``gecmetrics.core.models.tiny``
saved as ``bert-base-uncased``: nothing is downloaded), and check that the scores agree.

One run per side and metric scores the five systems AMU CAMB CUUI INPUT NULL (source INPUT,
references REF0 REF1):

* Scribendi: ours, one process (each distinct text's perplexity and each distinct pair once,
  unchanged lines skipped); the original ``scribendi.py --src INPUT --pred A:B:C:D:E`` (one
  process for all systems, its own multi-file mode); gec-metrics' ``Scribendi`` (one process,
  ``score_corpus`` per system). Corpus scores compared exactly (gec-metrics may differ: its
  token sort ratio uses python-Levenshtein, the original difflib).
* BERTScore (layer 9, no idf, rescaled with the en/bert-base-uncased baseline, F): ours, one
  process; the ``bert-score`` command, one run per system (it takes one candidate file);
  gec-metrics' ``BertScore`` (one process). F compared at 4 decimals.

Each metric's ``gecmetric compare ... --json`` on the same systems is also timed with a cache
folder of its own, once cold and ``--repeats`` times warm (the warm runs read every value and the
model's identity back: no torch), and must print the cold run's bytes.

Every child runs with one torch thread (``OMP_NUM_THREADS=1``) and offline. The peers are never
installed here: give a Python for each (``--scribendi-python`` and ``--scribendi-src``, the
original's checkout; ``--bertscore-python``, with bert-score 0.3.13; ``--gecmetrics-python``,
with gec-metrics and its dependencies), or the environment variables named in ``--help``; a
missing one is skipped with a message. ``--quick`` scores the first 100 sentences of 2 systems.
Without torch and transformers the script says so and exits 0.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _harness as harness  # noqa: E402

SYSTEMS = ["AMU", "CAMB", "CUUI", "INPUT", "NULL"]
QUICK_SYSTEMS = ["AMU", "NULL"]
REFERENCES = ["REF0", "REF1"]
TARGET = 5.0

OURS_SCRIBENDI = """
import sys
from gecmetrics.core.models.causal_lm import Perplexities, load_causal_lm
from gecmetrics.metrics.models.scribendi import ScribendiScorer, corpus_score
model, data, *systems = sys.argv[1:]
read = lambda name: [line.rstrip() for line in open(f"{data}/{name}", encoding="utf-8")]
scorer = ScribendiScorer(Perplexities(load_causal_lm(model, device="cpu")))
for name, values in scorer.systems(read("INPUT"), {name: read(name) for name in systems}).items():
    print(f"{name}\\t{corpus_score(values)}")
"""

OURS_BERTSCORE = """
import sys
from gecmetrics.metrics.models.bertscore import BertScorer
data, *systems = sys.argv[1:]
read = lambda name: [line.strip() for line in open(f"{data}/{name}", encoding="utf-8")]
scorer = BertScorer("bert-base-uncased", baseline="auto", device="cpu")
scorer.prepare([read("REF0"), read("REF1")])
for name in systems:
    print(f"{name}\\t{scorer.score(read(name)).corpus['F']:.4f}")
"""

GEC_METRICS_SCRIBENDI = """
import sys
from gec_metrics.metrics import Scribendi
model, data, *systems = sys.argv[1:]
read = lambda name: [line.rstrip() for line in open(f"{data}/{name}", encoding="utf-8")]
metric = Scribendi(Scribendi.Config(model=model, no_cuda=True))
sources = read("INPUT")
for name in systems:
    print(f"{name}\\t{metric.score_corpus(sources, read(name))}")
"""

GEC_METRICS_BERTSCORE = """
import sys
from gec_metrics.metrics import BertScore
data, *systems = sys.argv[1:]
read = lambda name: [line.strip() for line in open(f"{data}/{name}", encoding="utf-8")]
metric = BertScore(BertScore.Config(model_type="bert-base-uncased"))
references = [read("REF0"), read("REF1")]
for name in systems:
    print(f"{name}\\t{metric.score_corpus(read(name), references):.4f}")
"""


def write_subset(conll: Path, target: Path, count: int, names: list[str]) -> None:
    """The first ``count`` lines (0: all) of each file."""
    target.mkdir(parents=True)
    for name in names:
        lines = (conll / name).read_text(encoding="utf-8").split("\n")[:-1]
        (target / name).write_text("".join(line + "\n" for line in (lines[:count] if count else lines)),
                                   encoding="utf-8")


def scores(text: str, systems: list[str]) -> dict[str, str]:
    return {name: values[0] for name, values in harness.parse_score_rows(text, systems).items()}


def original_scribendi_scores(text: str, systems: list[str]) -> dict[str, str]:
    """The original prints 'SOURCE PRED' then score2freq then the score, per system."""
    lines = [line for line in text.splitlines() if line.strip()]
    result = {}
    for index, line in enumerate(lines):
        parts = line.split(" ")
        if len(parts) == 2 and Path(parts[1]).name in systems and index + 2 < len(lines):
            result[Path(parts[1]).name] = lines[index + 2].strip()
    return result


def peer_line(label: str, timing: harness.Timing | None, theirs: dict[str, str], ours_timing: harness.Timing,
              ours: dict[str, str], exact: bool = True) -> bool:
    if timing is None:
        return True
    ratio_cpu = timing.cpu_seconds / max(ours_timing.cpu_seconds, 1e-9)
    ratio_wall = timing.wall_seconds / max(ours_timing.wall_seconds, 1e-9)
    same = theirs == ours
    print(f"{label:<22}{harness.usage(timing)}  ratio cpu {ratio_cpu:5.1f}x  wall {ratio_wall:5.1f}x"
          f"{'' if ratio_cpu >= TARGET else '  BELOW TARGET'}  {'same' if same else 'DIFFERENT'}")
    if not same:
        print(f"{'':<22}theirs {theirs}")
    return same or not exact


def python_or_none(path: str | None, what: str) -> str | None:
    if path and Path(path).is_file():
        return path
    print(f"[peer] {what}: no Python given or found ({path or 'unset'}): skipped")
    return None


def run_scribendi(args, model: Path, data: Path, systems: list[str]) -> bool:
    print("## Scribendi Score (corpus = sum of sentence values), tiny GPT-2", flush=True)
    ours = harness.measure([sys.executable, "-c", OURS_SCRIBENDI, str(model), str(data), *systems], args.repeats)
    mine = scores(ours.stdout, systems)
    print(f"{'ours':<22}{harness.usage(ours)}  {mine}", flush=True)
    agreed = harness.warm_after_cold("ours  compare --json", [
        "compare", "-s", str(data / "INPUT"), "-o", *(str(data / name) for name in systems), "--metrics",
        f"scribendi:model={model}:device=cpu", "--json"], args.repeats, model.parent / "cache-scribendi")
    if args.no_peers:
        return agreed
    python = python_or_none(args.scribendi_python, "original Scribendi")
    script = Path(args.scribendi_src) / "scribendi.py"
    if python and script.is_file():
        command = [python, str(script), "--src", str(data / "INPUT"), "--pred",
                   ":".join(str(data / name) for name in systems), "--no_cuda", "--model_id", str(model)]
        timing = harness.measure_peer(command, args.peer_repeats)
        agreed &= peer_line("original scribendi.py", timing,
                            original_scribendi_scores(timing.stdout, systems) if timing else {}, ours, mine)
    elif python:
        print(f"[peer] original Scribendi: no scribendi.py in {args.scribendi_src}: skipped")
    python = python_or_none(args.gecmetrics_python, "gec-metrics")
    if python:
        timing = harness.measure_peer([python, "-c", GEC_METRICS_SCRIBENDI, str(model), str(data), *systems],
                                      args.peer_repeats)
        peer_line("gec-metrics", timing, scores(timing.stdout, systems) if timing else {}, ours, mine, exact=False)
    return agreed


def run_bertscore(args, models: Path, data: Path, systems: list[str]) -> bool:
    print("## BERTScore F (layer 9, no idf, rescaled), tiny BERT as bert-base-uncased, references REF0 REF1",
          flush=True)
    ours = harness.measure([sys.executable, "-c", OURS_BERTSCORE, str(data), *systems], args.repeats, cwd=models)
    mine = scores(ours.stdout, systems)
    print(f"{'ours':<22}{harness.usage(ours)}  {mine}", flush=True)
    agreed = harness.warm_after_cold("ours  compare --json", [
        "compare", "-s", str(data / "INPUT"), "-r", *(str(data / name) for name in REFERENCES), "-o",
        *(str(data / name) for name in systems), "--metrics", "bertscore:model=bert-base-uncased:device=cpu",
        "--json"], args.repeats, models / "cache-bertscore", cwd=models)
    if args.no_peers:
        return agreed
    python = python_or_none(args.bertscore_python, "bert-score")
    if python:
        total, theirs = None, {}
        for name in systems:
            command = [str(Path(python).parent / "bert-score"), "-r", *(str(data / r) for r in REFERENCES),
                       "-c", str(data / name), "--lang", "en", "-m", "bert-base-uncased", "--rescale_with_baseline"]
            timing = harness.measure_peer(command, args.peer_repeats, cwd=models)
            if timing is None:
                total = None
                break
            theirs[name] = f"{float(timing.stdout.split('F1: ')[1].split()[0]):.4f}"
            if total is None:
                total = timing
            else:
                for mine_run, run in zip(total.runs, timing.runs):
                    mine_run.cpu_seconds += run.cpu_seconds
                    mine_run.wall_seconds += run.wall_seconds
                    mine_run.peak_rss_bytes = max(mine_run.peak_rss_bytes, run.peak_rss_bytes)
        agreed &= peer_line("bert-score (sum)", total, theirs, ours, mine)
    python = python_or_none(args.gecmetrics_python, "gec-metrics")
    if python:
        timing = harness.measure_peer([python, "-c", GEC_METRICS_BERTSCORE, str(data), *systems], args.peer_repeats,
                                      cwd=models)
        agreed &= peer_line("gec-metrics", timing, scores(timing.stdout, systems) if timing else {}, ours, mine)
    return agreed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    harness.add_common_arguments(parser)
    parser.add_argument("--sentences", type=int, default=None, help="first N sentences (0 = all, the default; "
                                                                    "100 with --quick)")
    parser.add_argument("--metrics", nargs="+", choices=["scribendi", "bertscore"], default=["scribendi", "bertscore"])
    environ = os.environ.get
    parser.add_argument("--scribendi-src", default=environ("GECMETRICS_SCRIBENDI_SRC", "/tmp/peers/scribendi-src"),
                        help="checkout of github gotutiyan/scribendi_score ($GECMETRICS_SCRIBENDI_SRC)")
    parser.add_argument("--scribendi-python", default=environ("GECMETRICS_SCRIBENDI_PYTHON",
                                                              "/tmp/peers/scribendi/bin/python"),
                        help="Python with its requirements ($GECMETRICS_SCRIBENDI_PYTHON)")
    parser.add_argument("--bertscore-python", default=environ("GECMETRICS_BERTSCORE_PYTHON",
                                                              "/tmp/peers/bert-score/bin/python"),
                        help="Python with bert-score 0.3.13 and its bert-score command ($GECMETRICS_BERTSCORE_PYTHON)")
    parser.add_argument("--gecmetrics-python", default=environ("GECMETRICS_GECMETRICS_PYTHON",
                                                               "/tmp/peers/gec-metrics/bin/python"),
                        help="Python with gec-metrics installed ($GECMETRICS_GECMETRICS_PYTHON)")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    if importlib.util.find_spec("torch") is None or importlib.util.find_spec("transformers") is None:
        print("the model metrics need torch and transformers (pip install 'gecmetrics[models]'): nothing to time")
        return 0
    conll = harness.shared_data("conll14")
    systems = QUICK_SYSTEMS if args.quick else SYSTEMS
    args.repeats = args.repeats or 1
    count = args.sentences if args.sentences is not None else (100 if args.quick else 0)
    os.environ["OMP_NUM_THREADS"] = "1"  # for every child process, ours and the peers'
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    harness.print_header(f"# Scribendi and BERTScore on CoNLL-2014 ({count or 'all'} sentences, systems "
                         f"{' '.join(systems)}), tiny models, one torch thread")
    harness.print_torch_import(args.quick, args.repeats, "every run of any side pays it")
    from gecmetrics.core.models.tiny_gpt2 import build_tiny_gpt2
    from gecmetrics.core.models.tiny import build_tiny_bert

    agreed = True
    with tempfile.TemporaryDirectory(prefix="gecmetrics-models-") as folder:
        work = Path(folder)
        write_subset(conll, work / "data", count, sorted({"INPUT", *REFERENCES, *systems}))
        if "scribendi" in args.metrics:
            build_tiny_gpt2(work / "tiny-gpt2")
            agreed &= run_scribendi(args, work / "tiny-gpt2", work / "data", systems)
        if "bertscore" in args.metrics:
            build_tiny_bert(work / "bert" / "bert-base-uncased")
            agreed &= run_bertscore(args, work / "bert", work / "data", systems)
    return 0 if agreed else 1


if __name__ == "__main__":
    sys.exit(main())
