"""PT-M2 and PT-ERRANT on CoNLL-2014 AMU/CAMB/CUUI with the tiny BERT equal the authors' code
(github pygongnlp/PT-M2) at 4 decimals: against the numbers it printed (tests/data, for CI),
and live against the authors' code when its checkout and virtualenv are on this machine."""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import cache_copy
from tests._pt_support import TINY_SETTINGS, expected_rows, require_backend, tiny_model  # noqa: F401

require_backend()

from gecmetrics.io.text import read_lines  # noqa: E402
from gecmetrics.io.m2 import read_m2  # noqa: E402
from gecmetrics.metrics.pt import PTEngine, PTErrant, PTM2, PTSettings, engine_for  # noqa: E402

SYSTEMS = ("AMU", "CAMB", "CUUI")
GOLD = "official-2014.combined.m2"
ERRANT_M2 = Path(os.environ.get("GECMETRICS_PT_ERRANT_M2", "/work/oracles/pt/errant_m2"))
PEER_PYTHON = Path(os.environ.get("GECMETRICS_PTM2_PYTHON", "/tmp/peers/ptm2/bin/python"))
PEER_SOURCE = Path(os.environ.get("GECMETRICS_PTM2_SRC", "/tmp/peers/ptm2-src"))


@pytest.fixture(scope="module")
def engine(tiny_model: Path) -> PTEngine:
    return engine_for(PTSettings(model=str(tiny_model), **TINY_SETTINGS))


def stored(metric: str) -> list[dict[str, str]]:
    return [row for row in expected_rows()[1] if row["metric"] == metric]


def check(ours: float, row: dict[str, str]) -> None:
    label = f"{row['metric']} {row['level']} {row['system']}"
    assert f"{ours:.4f}" == row["rounded"], (label, ours, row["score"])
    assert abs(ours - float(row["score"])) < 2e-5, (label, ours, row["score"])


def test_pt_m2_equals_the_authors_numbers(conll14: Path, engine: PTEngine, warm_pt_pairs, tmp_path: Path) -> None:
    """Both levels score the pairs of conftest's ``warm_pt_pairs`` (computed once per test run,
    cold, by the same code): the numbers read back from a copy of that cache are the authors'."""
    cache = cache_copy(warm_pt_pairs.path, tmp_path / "cache")
    rows = stored("PT-M2")
    assert {(r["level"], r["system"], r["sentences"]) for r in rows} == \
        {(level, s, "all") for level in ("sentence", "corpus") for s in SYSTEMS}
    for level in ("sentence", "corpus"):
        metric = PTM2(model=engine.loaded.name, level=level, **TINY_SETTINGS).with_context(cache)
        prepared = metric.prepare(read_m2(str(conll14 / GOLD)))
        for row in [r for r in rows if r["level"] == level]:
            check(metric.score(metric.statistics(prepared, read_lines(str(conll14 / row["system"])))).score, row)


def test_pt_errant_equals_the_authors_numbers(engine: PTEngine) -> None:
    rows = stored("PT-ERRANT")
    if not rows:
        pytest.skip("no stored PT-ERRANT numbers")
    if not (ERRANT_M2 / "REF0_REF1.m2").is_file():
        pytest.skip(f"the ERRANT M2 files of CoNLL-2014 (errant_parallel outputs) are not in {ERRANT_M2} "
                    "(set GECMETRICS_PT_ERRANT_M2)")
    for level in ("sentence", "corpus"):
        metric = PTErrant(model=engine.loaded.name, level=level, **TINY_SETTINGS)
        for count in sorted({r["sentences"] for r in rows}):
            size = None if count == "all" else int(count)
            prepared = metric.prepare(read_m2(str(ERRANT_M2 / "REF0_REF1.m2"))[:size])
            for row in [r for r in rows if r["level"] == level and r["sentences"] == count]:
                hypothesis = read_m2(str(ERRANT_M2 / f"{row['system']}.m2"))[:size]
                check(metric.score(metric.statistics(prepared, hypothesis)).score, row)


def first_blocks(m2_text: str, count: int) -> str:
    return "".join(block.strip("\n") + "\n\n" for block in m2_text.split("\n\n")[:count])


@pytest.mark.parametrize("base, level", [("sentm2", "sentence"), ("m2", "corpus")])
def test_live_against_the_authors_code(conll14: Path, engine: PTEngine, tiny_model: Path, tmp_path: Path,
                                       base: str, level: str) -> None:
    """The authors' evaluate.py, unmodified, on the first 20 sentences of AMU: its checkout is
    copied with the tiny model saved in it as ``bert-base-uncased`` (so its default layer and
    baseline apply), and run in its own virtualenv."""
    if not PEER_PYTHON.is_file() or not (PEER_SOURCE / "evaluate.py").is_file():
        pytest.skip(f"the authors' PT-M2 checkout ({PEER_SOURCE}) or its virtualenv ({PEER_PYTHON}) is absent")
    count = 20
    source = tmp_path / "src"
    shutil.copytree(PEER_SOURCE, source, ignore=shutil.ignore_patterns("bert-base-uncased", "__pycache__"))
    shutil.copytree(tiny_model, source / "bert-base-uncased")
    data = tmp_path / "data"
    (data / "reference").mkdir(parents=True)
    for name, target in (("INPUT", "INPUT"), ("AMU", "AMU"), ("REF0", "reference/ref0"), ("REF1", "reference/ref1")):
        (data / target).write_text("\n".join(read_lines(str(conll14 / name))[:count]) + "\n", encoding="utf-8")
    (data / "reference.m2").write_text(first_blocks((conll14 / GOLD).read_text(encoding="utf-8"), count),
                                       encoding="utf-8")
    environment = dict(os.environ, OMP_NUM_THREADS="1", HF_HUB_OFFLINE="1")
    done = subprocess.run([str(PEER_PYTHON), "evaluate.py", "--source", str(data / "INPUT"), "--reference",
                           str(data / "reference"), "--hypothesis", str(data / "AMU"), "--output", str(data / "out"),
                           "--base", base, "--scorer", "bertscore", "--model_type", "bert-base-uncased"],
                          cwd=source, env=environment, capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stderr[-2000:]
    theirs = float((data / "out").read_text().rsplit("score=", 1)[1])
    metric = PTM2(model=engine.loaded.name, level=level, **TINY_SETTINGS)
    prepared = metric.prepare(read_m2(str(data / "reference.m2")))
    ours = metric.score(metric.statistics(prepared, read_lines(str(data / "AMU")))).score
    assert f"{ours:.4f}" == f"{theirs:.4f}" and abs(ours - theirs) < 2e-5, (ours, theirs)
