"""Run gec-metrics' IMPARA, unmodified, as IMPARA-GED is run (``threshold=-999.0``: no
similarity gate; a ModernBERT quality estimator with mean pooling) on a tiny seeded ModernBERT,
and write what it returns to tests/data/models_tiny_impara_ged.tsv (the oracle numbers of
tests/test_models_impara_ged.py).

gec-metrics is never a dependency and is not fetched here: give the Python of a virtualenv that
holds it (the last release on the package index, 0.1.1, and its requirements; a transformers
with ModernBERT, 4.48 or later):

    python -m venv VENV && VENV/bin/pip install torch 'transformers==4.51.3' gec-metrics==0.1.1
    python tests/data/oracle_impara_ged.py --python VENV/bin/python [--systems AMU CAMB CUUI]

IMPARA-GED's model card calls ``IMPARA(Config(model_qe='naist-nlp/IMPARA-GED', threshold=-999.0,
pooling='mean'))``; no released gec-metrics has the ``pooling`` field (0.1.1's IMPARA loads the
quality estimator with ``AutoModelForSequenceClassification``, which pools as the model's config
says). The mean pooling is therefore given the way 0.1.1 can take it: the tiny quality
estimator's config.json says ``classifier_pooling: mean`` (ModernBERT's own switch, which
``impara:pooling=mean`` sets). The similarity model (which the -999 threshold makes irrelevant,
but gec-metrics loads and runs) is the tiny BERT of ``tiny_bert_heads.build_impara_models``.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from gecmetrics.core.models import tiny_bert_heads, tiny_modernbert  # noqa: E402

CONLL14 = ROOT.parent / "shared" / "data" / "conll14"
OUTPUT = ROOT / "tests" / "data" / "models_tiny_impara_ged.tsv"
DRIVER = """
import json, sys
from gec_metrics import get_metric
qe, se, source, *systems = sys.argv[1:]
read = lambda path: open(path, encoding="utf-8").read().split("\\n")[:-1]
metric_class = get_metric("impara")
metric = metric_class(metric_class.Config(model_qe=qe, model_se=se, threshold=-999.0, no_cuda=True))
sources = read(source)
out = {}
for path in systems:
    hypotheses = read(path)
    out[path] = {"sentence": [repr(v) for v in metric.score_sentence(sources, hypotheses)],
                 "corpus": repr(metric.score_corpus(sources, hypotheses))}
print(json.dumps(out))
"""
"""What runs in the virtualenv: gec-metrics' own API, as its README and the model card call it."""


def versions(python: str) -> str:
    code = ("import sys, torch, transformers, tokenizers, numpy, importlib.metadata as m; print(f'Python "
            "{sys.version.split()[0]}, gec-metrics {m.version(\"gec-metrics\")}, torch {torch.__version__}, "
            "transformers {transformers.__version__}, tokenizers {tokenizers.__version__}, numpy {numpy.__version__}')")
    return subprocess.run([python, "-c", code], capture_output=True, text=True, check=True).stdout.strip()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", required=True, help="the Python of a virtualenv holding gec-metrics")
    parser.add_argument("--systems", nargs="+", default=["AMU", "CAMB", "CUUI"])
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="gecmetrics-oracle-") as work:
        qe, se = Path(work) / "qe", Path(work) / "se"
        qe_print = tiny_modernbert.build_tiny_modernbert(qe, pooling="mean")
        se_print = tiny_bert_heads.build_tiny_model(se, "impara-se", False)
        command = [args.python, "-c", DRIVER, str(qe), str(se), str(CONLL14 / "INPUT"),
                   *(str(CONLL14 / system) for system in args.systems)]
        environment = dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", OMP_NUM_THREADS="1",
                           CUDA_VISIBLE_DEVICES="")
        done = subprocess.run(command, env=environment, capture_output=True, text=True, cwd=work)
        if done.returncode:
            sys.exit(f"failed ({done.returncode}): {done.stderr.strip()[-2000:]}")
        results = json.loads(done.stdout.strip().splitlines()[-1])
    header = [
        "IMPARA-GED (IMPARA without the similarity gate, a ModernBERT quality estimator with mean pooling):",
        "sentence and corpus scores returned by gec-metrics' code on a tiny seeded ModernBERT.",
        "",
        "tool: gec-metrics 0.1.1 (the package index's latest release), gec_metrics.metrics.IMPARA unmodified.",
        f"environment: {versions(args.python)}, OMP_NUM_THREADS=1, HF_HUB_OFFLINE=1, CPU (Config no_cuda=True).",
        "models: gecmetrics.core.models.tiny_modernbert.build_tiny_modernbert(QE, pooling='mean') ->",
        "  ModernBertForSequenceClassification, 1 output, 3 layers (global, local window 8, local), hidden 64,",
        "  config classifier_pooling 'mean', cased WordPiece vocabulary gecmetrics/data/models/conll14_cased_vocab.txt;",
        "  tiny_bert_heads.build_tiny_model(SE, 'impara-se', False) as the similarity model.",
        f"weights fingerprint qe: {qe_print}",
        f"weights fingerprint se: {se_print}",
        "  (gecmetrics.core.models.tiny.weights_fingerprint: SHA-256 over name, shape and float32 bytes, in name order).",
        "data: ../shared/data/conll14 (CoNLL-2014 test set, 1312 sentences; source INPUT; systems as submitted).",
        "call (tests/data/oracle_impara_ged.py --python VENV/bin/python; files read as lines):",
        "  m = get_metric('impara'); m = m(m.Config(model_qe=QE, model_se=SE, threshold=-999.0, no_cuda=True))",
        "  m.score_sentence(sources, hypotheses) -> the 'sentence' rows; m.score_corpus(...) -> the 'corpus' row.",
        "  (The model card's pooling='mean' is not a field of any released gec-metrics: the QE's config carries it.)",
        "values as returned (repr of the Python floats of the float32 scores).",
    ]
    lines = [f"# {line}" if line else "#" for line in header]
    names = [Path(path).name for path in results]
    columns = list(results.values())
    lines.append("\t".join(["sentence", *names]))
    for index in range(len(columns[0]["sentence"])):
        lines.append("\t".join([str(index + 1), *(column["sentence"][index] for column in columns)]))
    lines.append("\t".join(["corpus", *(column["corpus"] for column in columns)]))
    OUTPUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {OUTPUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
