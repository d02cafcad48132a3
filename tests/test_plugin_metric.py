"""A metric in an outside package, found through its entry point with no package file touched:
an error rate (lower is better) with sentence scores, written in a few lines on the template
protocol, works through the console script in compare (ranks the right way round, sorting),
paired tests, -p 2, --dask local, and meta-evaluation at system and sentence level."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

PLUGIN = '''
"""An outside package's metric: the share of hypothesis tokens found in no reference (lower is better)."""
from dataclasses import dataclass

import numpy as np

from gecmetrics.metrics.base import Metric
from gecmetrics.metrics.settings import Settings, parse_bool, setting


@dataclass(frozen=True)
class UnknownRateSettings(Settings):
    lower: bool = setting(False, "compare lower-cased tokens", parse_bool, signature="lower")


class UnknownRate(Metric):
    """Unknown-word rate: hypothesis tokens absent from every reference of the sentence."""

    label = "UnknownRate"
    settings_class = UnknownRateSettings
    higher_is_better = False

    def prepare(self, corpus, group=()):
        fold = str.lower if self.settings.lower else str
        return [set(fold(" ".join(refs)).split()) for refs in zip(*corpus.references)]

    def statistics(self, prepared, hypothesis):
        fold = str.lower if self.settings.lower else str
        rows = [[sum(token not in known for token in fold(line).split()), len(line.split())]
                for known, line in zip(prepared, hypothesis)]
        return np.array(rows, dtype=np.int64).reshape(len(rows), 2)

    def score_from_sums(self, sums, column=0):
        sums = np.asarray(sums, dtype=np.float64)
        return np.divide(sums[..., 0], sums[..., 1], out=np.zeros(sums.shape[:-1]), where=sums[..., 1] > 0)
'''

SOURCES = ["he go to school every day", "she have two cat", "it are raining today", "we is happy now",
           "they goes home", "a apple a day"]
REFERENCES = [["he goes to school every day", "she has two cats", "it is raining today", "we are happy now",
               "they go home", "an apple a day"],
              ["he went to school every day", "she has two cats", "it was raining today", "we are happy now",
               "they went home", "an apple a day"]]
SYSTEMS = {"good": REFERENCES[0], "half": [REFERENCES[0][k] if k % 2 else SOURCES[k] for k in range(6)],
           "bad": ["he gone to skool", "she hav cat", "it raining", "we is happy now", "they home", "apple"],
           "input": SOURCES}


@pytest.fixture(scope="module")
def plugin(tmp_path_factory) -> dict:
    folder = tmp_path_factory.mktemp("plugin")
    (folder / "unknown_rate.py").write_text(PLUGIN, encoding="utf-8")
    info = folder / "unknown_rate-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: unknown-rate\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[gecmetrics.metrics]\nunknown-rate = unknown_rate:UnknownRate\n",
                                           encoding="utf-8")
    files = {}
    for name, lines in [("src", SOURCES), ("ref0", REFERENCES[0]), ("ref1", REFERENCES[1]), *SYSTEMS.items()]:
        (folder / name).write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        files[name] = str(folder / name)
    files["folder"] = str(folder)
    return files


def gecmetric(plugin: dict, *args: str) -> tuple[int, str, str]:
    """The console script's code with the plugin's folder on the path (as an installed package)."""
    root = str(Path(__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([plugin["folder"], root])}
    done = subprocess.run([sys.executable, "-c", "from gecmetrics.cli import run; run()", *args], capture_output=True,
                          text=True, env=env, timeout=600)
    return done.returncode, done.stdout, done.stderr


def corpus_args(plugin: dict, *systems: str) -> list[str]:
    return ["-s", plugin["src"], "-r", plugin["ref0"], plugin["ref1"], "-o", *(plugin[name] for name in systems)]


def test_lower_is_better_ranks_and_sorts_the_right_way_round(plugin):
    code, out, err = gecmetric(plugin, "compare", *corpus_args(plugin, "bad", "input", "half", "good"), "--metrics",
                               "unknown-rate,unknown-rate:lower,gleu", "--json")
    assert code == 0, err
    data = json.loads(out)
    rates = {row["system"].rsplit("/", 1)[-1]: row["scores"]["UnknownRate"] for row in data["rows"]}
    ranks = {row["system"].rsplit("/", 1)[-1]: row["ranks"]["UnknownRate"] for row in data["rows"]}
    assert rates["good"] == 0.0 and rates["bad"] > rates["input"] >= rates["half"]
    assert ranks["good"] == 1 and ranks["bad"] == 4  # the lowest rate ranks first
    assert data["columns"][0]["signature"] == "UnknownRate|lower:no|refs:2|version:0.1.0"
    code, out, err = gecmetric(plugin, "compare", *corpus_args(plugin, "bad", "good", "half"), "--metrics",
                               "unknown-rate", "--sort", "UnknownRate", "--tsv")
    assert code == 0 and [line.split("\t")[0].rsplit("/", 1)[-1] for line in out.splitlines()[1:]] == \
        ["good", "half", "bad"], err


def test_paired_tests_workers_and_dask_give_the_same_numbers(plugin):
    base = ["compare", *corpus_args(plugin, "input", "half", "bad", "good"), "--metrics", "unknown-rate", "--json"]
    code, serial, err = gecmetric(plugin, *base)
    assert code == 0, err
    for extra in (["-p", "2", "--chunk-lines", "2"], ["--dask", "local", "-p", "1", "--chunk-lines", "3"]):
        code, out, err = gecmetric(plugin, *base, *extra)
        assert code == 0 and json.loads(out)["rows"] == json.loads(serial)["rows"], (extra, err)
    code, out, err = gecmetric(plugin, *base, "--paired-bs", "200")
    assert code == 0, err
    systems = json.loads(out)[0]["systems"]
    assert systems[0]["hypothesis"].endswith("input") and systems[3]["score"] == 0.0
    assert systems[2]["p_value"] is not None and systems[2]["score"] > systems[0]["score"]


def test_sentence_scores_and_meta_evaluation(plugin, tmp_path):
    from gecmetrics import Corpus, get_metric

    metric = get_metric("unknown-rate") if _installed(plugin) else None
    assert metric is not None and metric.has_sentence_scores and not metric.higher_is_better
    corpus = Corpus(SOURCES, REFERENCES, dict(SYSTEMS))
    prepared = metric.prepare(corpus)
    sentences = metric.sentence_from_statistics(metric.statistics(prepared, SYSTEMS["bad"])).scores
    assert sentences.tolist()[3:5] == [0.25, 0.0] and sentences.tolist()[1] == pytest.approx(2 / 3)
    human = tmp_path / "human.tsv"  # a human ranking that agrees with the rate: good best
    human.write_text("# made up for this test\nsystem\tscore\ngood\t4\nhalf\t3\ninput\t2\nbad\t1\n", encoding="utf-8")
    code, out, err = gecmetric(plugin, "meta-eval", "--human", str(human),
                               *corpus_args(plugin, "good", "half", "input", "bad"), "--metrics", "unknown-rate",
                               "--json")
    assert code == 0, err
    correlation = json.loads(out)["correlations"][0]
    assert correlation["pearson"] > 0.9 and correlation["spearman"] > 0.9  # oriented: lower rate, better system
    judgments = tmp_path / "judgments.xml"  # one ranking item per sentence; good best, bad worst
    ranks = {"good": (1, 1, 1, 1, 1, 1), "half": (3, 2, 3, 2, 3, 2), "input": (2, 3, 2, 3, 2, 3),
             "bad": (4, 4, 4, 4, 4, 4)}
    items = ["".join(f'<translation system="{s}" rank="{r[k]}"/>' for s, r in ranks.items()) for k in range(6)]
    judgments.write_text("<results>\n" + "\n".join(f'<ranking-item src-id="{k}" user="u">{item}</ranking-item>'
                                                    for k, item in enumerate(items)) + "\n</results>\n",
                         encoding="utf-8")
    base = ["meta-eval", "--judgments", str(judgments), *corpus_args(plugin, "good", "half", "input", "bad"),
            "--metrics", "unknown-rate", "--json"]
    code, out, err = gecmetric(plugin, *base)
    assert code == 0, err
    assert json.loads(out)["correlations"][0]["spearman"] > 0.9
    code, out, err = gecmetric(plugin, *base, "--level", "sentence", "--src-ids", "0")
    assert code == 0, err
    assert '"accuracy"' in out and json.loads(out)["sentence"][0]["accuracy"] > 0.5, out


def _installed(plugin: dict) -> bool:
    """The plugin registered in this process too (for the library part of the test)."""
    from gecmetrics.metrics import registry

    sys.path.insert(0, plugin["folder"])
    registry._LOADED_ENTRY_POINTS = False
    return "unknown-rate" in {info.name for info in registry.list_metrics()}
