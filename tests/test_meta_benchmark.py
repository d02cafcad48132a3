"""Smoke run of benchmarks/meta_eval_gjg15.py (`--quick --no-peers`): it runs and reports; no
timing assertion."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "meta_eval_gjg15.py"


def test_meta_eval_benchmark_quick_run(shared_data: Path) -> None:
    completed = subprocess.run([sys.executable, str(SCRIPT), "--quick", "--no-peers"], capture_output=True,
                               text=True, timeout=300)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert re.search(r"^pipeline: (13|4) systems, GLEU\+ and GREEN, EW, 100 resamples", completed.stdout, re.MULTILINE)
    assert re.search(r"^ours\s+meta-eval pipeline\s+cpu\s+\d+\.\d+ s\s+wall", completed.stdout, re.MULTILINE)
    assert re.search(r"^target: whole pipeline under 5 s wall: (OK|BELOW TARGET) \(\d+\.\d+ s wall, \d+\.\d+ s CPU\)",
                     completed.stdout, re.MULTILINE)
