"""Run the original SOME and IMPARA, unmodified, on the tiny seeded models and write what they
print to tests/data/models_tiny_some.tsv and tests/data/models_tiny_impara.tsv (the oracle
numbers of tests/test_models_some_impara.py).

The originals are never installed or fetched here: give their checkouts and the Python of a
virtualenv holding their requirements (torch, transformers 4.46.3 -- the last line of releases
whose tokenizers still accept SOME's ``pad_to_max_length`` -- numpy < 2, tqdm):

    python tests/data/oracle_some_impara.py --some-src DIR --some-python PY \\
        --impara-src DIR --impara-python PY [--systems AMU CAMB CUUI]

Both originals hard-code CUDA; they run through benchmarks/_on_cpu.py, which keeps torch's
CUDA moves on the CPU and changes nothing else. Both load ``bert-base-cased`` by name (SOME its
tokenizer, IMPARA its similarity model): each runs in a folder holding the tiny model under that
name, with HF_HUB_OFFLINE=1 and one torch thread.
"""
from __future__ import annotations

import argparse
import ast
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from gecmetrics.core.models import tiny_bert_heads  # noqa: E402

CONLL14 = ROOT.parent / "shared" / "data" / "conll14"
ON_CPU = ROOT / "benchmarks" / "_on_cpu.py"
SOME_COMMIT = "83fd6f05b7ebe066c168b7b5cea61225a8cbfe58"
IMPARA_COMMIT = "1c5aa97db2989b8cebc61f9d6f69e1f95d481f39"
SOME_SETTINGS = {"default": [], "g0.2-f0.3-m0.5": ["--weight-g", "0.2", "--weight-f", "0.3", "--weight-m", "0.5"]}
"""SOME's default weights (0.55 0.43 0.02) and distinct ones, so that a swapped head shows."""
IMPARA_SETTINGS = {"t0.9": [], "t0.995": ["--threshold", "0.995"]}
"""IMPARA's default threshold (which no pair of the tiny models falls under) and one under
which a good share of the hypotheses scores 0."""


def run(python: str, script: Path, arguments: list[str], cwd: Path) -> str:
    environment = dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", OMP_NUM_THREADS="1")
    command = [python, str(ON_CPU), str(script), *arguments]
    print("$", " ".join(command), flush=True)
    completed = subprocess.run(command, cwd=cwd, env=environment, capture_output=True, text=True)
    if completed.returncode != 0:
        sys.exit(f"failed ({completed.returncode}): {completed.stderr.strip()[-2000:]}")
    return completed.stdout


def versions(python: str) -> str:
    code = ("import sys, torch, transformers, tokenizers, numpy; print(f'Python {sys.version.split()[0]}, "
            "torch {torch.__version__}, transformers {transformers.__version__}, tokenizers {tokenizers.__version__}, "
            "numpy {numpy.__version__}')")
    return subprocess.run([python, "-c", code], capture_output=True, text=True, check=True).stdout.strip()


def write_table(path: Path, header: list[str], columns: dict[str, list[str]], corpus: dict[str, str]) -> None:
    names = list(columns)
    length = {len(values) for values in columns.values()}
    assert len(length) == 1, length
    lines = [f"# {line}" if line else "#" for line in header]
    lines.append("\t".join(["sentence", *names]))
    for index in range(length.pop()):
        lines.append("\t".join([str(index + 1), *(columns[name][index] for name in names)]))
    lines.append("\t".join(["corpus", *(corpus[name] for name in names)]))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {path}")


def some_oracle(args, work: Path, systems: list[str]) -> None:
    models = work / "some"
    prints = tiny_bert_heads.build_some_models(models, args.seed)
    run_dir = work / "some-run"
    run_dir.mkdir()
    shutil.copytree(models / "grammer", run_dir / "bert-base-cased")
    heads = ["--g-dir", str(models / "grammer"), "--f-dir", str(models / "fluency"), "--m-dir", str(models / "meaning")]
    columns, corpus, commands = {}, {}, []
    for setting, options in SOME_SETTINGS.items():
        for system in systems if setting == "default" else systems[:1]:
            name = f"{setting}/{system}"
            files = [str(CONLL14 / system), str(CONLL14 / "INPUT")]
            sentence = run(args.some_python, Path(args.some_src) / "some.py", [*files, *heads, *options], run_dir)
            columns[name] = sentence.split()
            printed = run(args.some_python, Path(args.some_src) / "some.py", [*files, *heads, *options, "--system"],
                          run_dir)
            corpus[name] = printed.strip().removeprefix("score: ")
            commands.append(f"{name}: some.py {system} INPUT {' '.join(options) or '(default weights)'} [--system]")
    header = [
        "SOME sentence and corpus scores printed by the original code on the tiny seeded models.",
        "",
        f"tool: github kokeman/SOME, commit {SOME_COMMIT[:8]} (HEAD), some.py unmodified.",
        f"environment: {versions(args.some_python)}, OMP_NUM_THREADS=1, HF_HUB_OFFLINE=1, CPU.",
        f"models: gecmetrics.core.models.tiny_bert_heads.build_some_models(FOLDER, seed={args.seed}) ->",
        "  FOLDER/grammer, FOLDER/fluency, FOLDER/meaning (BertForSequenceClassification, 1 output, 4 layers,",
        "  hidden 64, cased WordPiece vocabulary gecmetrics/data/models/conll14_cased_vocab.txt); FOLDER/grammer",
        "  copied as the folder bert-base-cased in the working directory (some.py loads",
        "  BertTokenizer.from_pretrained('bert-base-cased')).",
        *(f"weights fingerprint {head}: {value}" for head, value in prints.items()),
        "  (gecmetrics.core.models.tiny.weights_fingerprint: SHA-256 over name, shape and float32 bytes, in name order).",
        "data: ../shared/data/conll14 (CoNLL-2014 test set, 1312 sentences; source INPUT; systems as submitted).",
        "commands (cd RUNDIR; python benchmarks/_on_cpu.py, which runs some.py with torch's CUDA moves kept on",
        "  the CPU, since some.py hard-codes torch.device('cuda')):",
        "  python _on_cpu.py some.py SYSTEM INPUT --g-dir FOLDER/grammer --f-dir FOLDER/fluency --m-dir FOLDER/meaning",
        "    [WEIGHTS] -> one score per line (the 'sentence' rows); the same with --system -> 'score: X' (the",
        "    'corpus' row); made by tests/data/oracle_some_impara.py.",
        *(f"  {line}" for line in commands),
        "columns: SETTING/SYSTEM; default = --weight-g 0.55 --weight-f 0.43 --weight-m 0.02 (some.py's defaults);",
        "  values as printed (repr of the numpy float64 of each sentence; the corpus mean as printed).",
    ]
    write_table(ROOT / "tests" / "data" / "models_tiny_some.tsv", header, columns, corpus)


def impara_oracle(args, work: Path, systems: list[str]) -> None:
    models = work / "impara"
    prints = tiny_bert_heads.build_impara_models(models, args.seed)
    run_dir = work / "impara-run"
    run_dir.mkdir()
    shutil.copytree(models / "se", run_dir / "bert-base-cased")
    columns, corpus, commands = {}, {}, []
    for setting, options in IMPARA_SETTINGS.items():
        for system in systems:
            name = f"{setting}/{system}"
            files = ["--src_file", str(CONLL14 / "INPUT"), "--pred_file", str(CONLL14 / system),
                     "--restore_dir", str(models / "qe"), *options]
            sentence = run(args.impara_python, Path(args.impara_src) / "impara.py", [*files, "--level", "sentence"],
                           run_dir)
            columns[name] = [repr(value) for value in ast.literal_eval(sentence.strip().splitlines()[-1])]
            corpus[name] = run(args.impara_python, Path(args.impara_src) / "impara.py", [*files, "--level", "corpus"],
                               run_dir).strip().splitlines()[-1]
            commands.append(f"{name}: impara.py --src_file INPUT --pred_file {system} {' '.join(options)}".rstrip())
    header = [
        "IMPARA sentence and corpus scores printed by the original code on the tiny seeded models.",
        "",
        f"tool: github gotutiyan/IMPARA, commit {IMPARA_COMMIT[:8]} (HEAD), impara.py and modeling.py unmodified.",
        f"environment: {versions(args.impara_python)}, tqdm, OMP_NUM_THREADS=1, HF_HUB_OFFLINE=1, CPU.",
        f"models: gecmetrics.core.models.tiny_bert_heads.build_impara_models(FOLDER, seed={args.seed}) -> FOLDER/qe",
        "  (BertForSequenceClassification, 1 output) and FOLDER/se (BertModel), 4 layers, hidden 64, cased WordPiece",
        "  vocabulary gecmetrics/data/models/conll14_cased_vocab.txt; FOLDER/se copied as the folder bert-base-cased",
        "  in the working directory (impara.py builds SimilarityEstimator('bert-base-cased')).",
        *(f"weights fingerprint {name}: {value}" for name, value in prints.items()),
        "  (gecmetrics.core.models.tiny.weights_fingerprint: SHA-256 over name, shape and float32 bytes, in name order).",
        "data: ../shared/data/conll14 (CoNLL-2014 test set, 1312 sentences; source INPUT; systems as submitted).",
        "commands (cd RUNDIR; python benchmarks/_on_cpu.py, which runs impara.py with its .cuda() kept on the CPU):",
        "  python _on_cpu.py impara.py --src_file INPUT --pred_file SYSTEM --restore_dir FOLDER/qe [--threshold T]",
        "    --level sentence -> a Python list (the 'sentence' rows); --level corpus -> the mean (the 'corpus' row);",
        "    made by tests/data/oracle_some_impara.py. (impara.py's --batch_size and --max_len are not passed on: it",
        "    scores in batches of 32 and at most 128 tokens.)",
        *(f"  {line}" for line in commands),
        "columns: SETTING/SYSTEM; t0.9 = the default threshold 0.9; values as printed (floats of the float32 scores).",
    ]
    write_table(ROOT / "tests" / "data" / "models_tiny_impara.tsv", header, columns, corpus)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--some-src", default="/work/oracles/src/SOME")
    parser.add_argument("--some-python", default="/work/oracles/some/venv/bin/python")
    parser.add_argument("--impara-src", default="/work/oracles/src/IMPARA")
    parser.add_argument("--impara-python", default="/work/oracles/impara/venv/bin/python")
    parser.add_argument("--systems", nargs="+", default=["AMU", "CAMB", "CUUI"])
    parser.add_argument("--seed", type=int, default=tiny_bert_heads.SEED)
    parser.add_argument("--only", choices=["some", "impara"], default=None)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="gecmetrics-oracle-") as folder:
        if args.only in (None, "some"):
            some_oracle(args, Path(folder), args.systems)
        if args.only in (None, "impara"):
            impara_oracle(args, Path(folder), args.systems)
    return 0


if __name__ == "__main__":
    sys.exit(main())
