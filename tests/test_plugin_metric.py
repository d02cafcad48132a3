"""A metric in an outside package, found through its entry point with no package file touched:
an error rate (lower is better) with sentence scores, written in a few lines on the template
protocol, works through the console script in compare (ranks the right way round, sorting),
paired tests, -p 2, --dask local, and meta-evaluation at system and sentence level."""
from __future__ import annotations

import json
import os
import re
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
    assert systems[0]["system"].endswith("input") and systems[3]["score"] == 0.0
    assert systems[2]["p_value"] is not None and systems[2]["score"] > systems[0]["score"]


def test_sentence_scores_and_meta_evaluation(plugin, tmp_path, monkeypatch):
    from gecmetrics import Corpus, get_metric

    metric = get_metric("unknown-rate") if _installed(plugin, monkeypatch) else None
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


def _installed(plugin: dict, monkeypatch) -> bool:
    """The plugin registered in this process too, for the library part of the test only (the
    path and the registry are restored after it: the worker's next tests, such as the CLI's
    command list, must not see it)."""
    from gecmetrics.metrics import names, registry

    monkeypatch.syspath_prepend(plugin["folder"])
    monkeypatch.setattr(names, "_REGISTRY", dict(names.table(plugins=False)))
    monkeypatch.setattr(names, "UNUSABLE", {})
    monkeypatch.setattr(names, "_LOADED_ENTRY_POINTS", False)
    return "unknown-rate" in {info.name for info in registry.list_metrics()}


# ----------------------------------------------------------------------------- plugins that cannot be used
# a sweep (2027-01): one installed plugin whose class could not be loaded (its module or class
# missing, not a Metric subclass, abstract) broke `gecmetric --help` and `compare --list-metrics`
# with a traceback; a name such as UPPER registered but --metrics (which lower-cases) never
# reached it; an entry point named like a built-in metric was silently ignored.

BROKEN = PLUGIN + '''

class NoDoc(UnknownRate):
    label = "NoDoc"


class Abstract(Metric):
    """A metric that does not write score_from_sums."""

    settings_class = UnknownRateSettings

    def prepare(self, corpus, group=()):
        return None

    def statistics(self, prepared, hypothesis):
        return np.zeros((len(hypothesis), 1))


class NotMetric:
    """Not a metric."""


not_a_class = 42
'''

UNUSABLE = {
    "no-module": "no_such_module_xyz:Thing (package broken-plugins) cannot be loaded: ModuleNotFoundError: No module "
                 "named 'no_such_module_xyz'",
    "no-class": "broken_plugins:Nope (package broken-plugins) cannot be loaded: AttributeError: module "
                "'broken_plugins' has no attribute 'Nope'",
    "not-metric": "broken_plugins:NotMetric (package broken-plugins) cannot be loaded: a metric class is a "
                  "gecmetrics.Metric subclass, got <class 'broken_plugins.NotMetric'>",
    "not-class": "broken_plugins:not_a_class (package broken-plugins) cannot be loaded: a metric class is a "
                 "gecmetrics.Metric subclass, got 42",
    "abstract": "broken_plugins:Abstract (package broken-plugins) cannot be loaded: Abstract does not write "
                "score_from_sums (a metric writes prepare, statistics and score_from_sums)",
    "UPPER": "broken_plugins:UnknownRate (package broken-plugins) cannot be used: a metric name is lower-case "
             "letters, digits, '-', '_', '.' and '+', starting with a letter or a digit (what --metrics "
             "NAME:KEY=VALUE,... and a command name can hold), got 'UPPER'",
}
"""Each unusable entry point's message, after ``metric entry point NAME = ``."""
CLASH = "metric entry point gleu = broken_plugins:UnknownRate (package broken-plugins) is ignored: 'gleu' is a " \
        "built-in metric"


@pytest.fixture
def broken(plugin, tmp_path, monkeypatch) -> dict:
    """An installed package with two working metrics (one without a docstring), the unusable
    entry points of :data:`UNUSABLE` and one named like a built-in metric; the registry looks
    for plugins again in this process, and forgets them after."""
    from gecmetrics.metrics import names, registry

    (tmp_path / "broken_plugins.py").write_text(BROKEN, encoding="utf-8")
    info = tmp_path / "broken_plugins-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-plugins\nVersion: 0.1\n", encoding="utf-8")
    points = {"rate": "broken_plugins:UnknownRate", "no-doc": "broken_plugins:NoDoc",
              "gleu": "broken_plugins:UnknownRate", **{name: text.split(" ")[0] for name, text in UNUSABLE.items()}}
    lines = "".join(f"{name} = {target}\n" for name, target in points.items())
    (info / "entry_points.txt").write_text("[gecmetrics.metrics]\n" + lines, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(names, "_REGISTRY", dict(names.table(plugins=False)))
    monkeypatch.setattr(names, "UNUSABLE", {})
    monkeypatch.setattr(registry, "_WARNED", set())
    monkeypatch.setattr(names, "_LOADED_ENTRY_POINTS", False)
    yield {**plugin, "folder": str(tmp_path)}
    sys.modules.pop("broken_plugins", None)


def _warnings(err: str) -> set[str]:
    assert "Traceback" not in err, err
    return {line.removeprefix("gecmetric: warning: ") for line in err.splitlines()}


def test_help_and_list_metrics_list_the_working_metrics_and_warn_once_per_unusable_plugin(broken):
    expected = {CLASH, *(f"metric entry point {name} = {message}" for name, message in UNUSABLE.items())}
    code, out, err = gecmetric(broken, "--help")
    assert code == 0 and _warnings(err) == expected and len(err.splitlines()) == len(expected), err
    commands = {line.split()[0] for line in out.split("Commands:")[1].splitlines() if line.startswith("  ")}
    assert {"rate", "no-doc", "gleu", "compare"} <= commands and not commands & {*UNUSABLE, "upper"}
    code, out, err = gecmetric(broken, "compare", "--list-metrics")
    assert code == 0 and _warnings(err) == expected and len(err.splitlines()) == len(expected), err
    assert "\nrate: Unknown-word rate" in out and "\nno-doc: NoDoc (lower=false)" in out
    assert "gleu: GLEU+ as gec-ranking's code" in out and not any(f"\n{name}:" in out for name in UNUSABLE)


def test_using_an_unusable_plugin_is_one_line_naming_its_entry_point(broken):
    for name, args in (("abstract", ["compare", *corpus_args(broken, "good"), "--metrics", "gleu,abstract"]),
                       ("abstract", ["abstract", *corpus_args(broken, "good")]),
                       ("UPPER", ["compare", *corpus_args(broken, "good"), "--metrics", "UPPER:lower"]),
                       ("UPPER", ["UPPER", "--help"])):
        code, out, err = gecmetric(broken, *args)
        assert (code, out) == (2, "") and "Traceback" not in err, (args, err)
        assert err.splitlines()[-1] == f"gecmetric: error: metric entry point {name} = {UNUSABLE[name]}", (args, err)
    code, out, err = gecmetric(broken, "compare", *corpus_args(broken, "good", "bad"), "--metrics", "rate,no-doc",
                               "--tsv")  # the working plugins of the same package; the clash said once
    assert code == 0 and len(out.splitlines()) == 3 and _warnings(err) == {CLASH}, err
    code, out, err = gecmetric(broken, "gleu", *corpus_args(broken, "good"))  # built in: no plugin looked up
    assert (code, err) == (0, "") and out.strip()


def test_library_calls_name_the_unusable_entry_point(broken):
    from gecmetrics import get_metric, list_metrics
    from gecmetrics.errors import InputError
    from gecmetrics.metrics.registry import metrics_from_text, settings_help

    with pytest.warns(UserWarning, match="^" + re.escape(CLASH) + "$"):  # the plugins looked up: once
        for name, message in UNUSABLE.items():
            for text in (name, name.lower()):  # UPPER as --metrics gives it: upper
                with pytest.raises(InputError, match="^" + re.escape(f"metric entry point {name} = {message}") + "$"):
                    get_metric(text)
    with pytest.raises(InputError, match="^metric entry point not-metric = .* got <class"):
        metrics_from_text("rate,not-metric")
    with pytest.warns(UserWarning) as caught:
        names = {info.name for info in list_metrics()}
    assert {"rate", "no-doc"} <= names and not names & set(UNUSABLE)
    assert len(caught) == len(UNUSABLE) and "lower: compare lower-cased tokens" in settings_help()
    assert type(get_metric("gleu")).__name__ == "GLEU" and get_metric("rate", lower=True).settings.lower


@pytest.mark.parametrize("name", ["UPPER", "Rate", "a\nb", "a=b", "a/b", "-rate", "a b", ".rate", "", "a,b", "a:b"])
def test_a_name_no_metric_spec_or_command_can_hold_is_refused(name):
    from gecmetrics import register_metric
    from gecmetrics.errors import InputError
    from gecmetrics.metrics.base import Metric

    class Rate(Metric):
        """A rate."""

        def prepare(self, corpus, group=()):
            return None

        def statistics(self, prepared, hypothesis):
            return None

        def score_from_sums(self, sums, column=0):
            return 0.0

    with pytest.raises(InputError, match=r"^a metric name is lower-case letters, digits, '-', '_', '\.' and '\+', "
                                         r"starting with a letter or a digit .*, got " + re.escape(repr(name)) + "$"):
        register_metric(name, Rate)
