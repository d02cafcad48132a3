"""The add-a-metric test: two toy metrics defined here (one on the n-gram core, one on the M2
branch), registered with one call each and no change to any package file, work everywhere a
built-in metric does: get_metric, the --metrics text syntax, compare (table and JSON with
signatures), paired bootstrap and randomization tests, and meta-evaluation scoring."""
from __future__ import annotations

import json
import sys
from collections import Counter
from dataclasses import dataclass

import numpy as np
import pytest

from gecmetrics import (InputError, compare, get_metric, list_metrics, paired_test, register_metric,
                        unregister_metric)
from gecmetrics.core.aggregate import select
from gecmetrics.io.m2 import parse_m2
from gecmetrics.metrics.running_f import RunningFMetric
from gecmetrics.core.fscore import ERRANT, candidates_from_lists, precision_recall_f
from gecmetrics.io.m2_references import apply_edits
from gecmetrics.metrics.settings import Settings, parse_beta, setting
from gecmetrics.metrics.ngram import NgramMetric, NgramSettings
from gecmetrics.metrics.registry import metrics_from_text
from tests.conftest import run_cli


# ---------------------------------------------------------------------------- toy 1: n-gram F


@dataclass(frozen=True)
class ToyFSettings(NgramSettings):
    beta: float = setting(1.0, "F-beta weight", parse_beta, ("b",), signature="beta")


class ToyF(NgramMetric):
    """Toy n-gram F: matched n-grams min(rho, eta) against hypothesis and reference n-grams."""

    label = "ToyF"
    settings_class = ToyFSettings

    def text_statistics(self, prepared, hyp):
        n = self.settings.n
        stats = np.zeros((prepared.size, len(prepared.references), 3 * n), dtype=np.int64)
        for r, ref in enumerate(prepared.references):
            for order in range(1, n + 1):
                t = prepared.hypothesis_triples(hyp, r, order)
                stats[:, r, order - 1] = t.per_sentence(np.minimum(t.rho, t.eta))
                stats[:, r, n + order - 1] = hyp.ngram_counts(order)
                stats[:, r, 2 * n + order - 1] = ref.ngram_counts(order)
        return stats

    def score_from_sums(self, sums, column=0):  # summed rows (..., 3N) -> F (...)
        n = self.settings.n
        match, hyp, ref = (sums[..., k * n:(k + 1) * n].sum(axis=-1) for k in range(3))
        return precision_recall_f(match, hyp - match, ref - match, self.settings.beta)[2]

    def rows(self, stats, column=0):  # per sentence, the reference with the most matches (ties: first)
        return select(stats, np.argmax(stats[..., :self.settings.n].sum(axis=-1), axis=1))

    def column_names(self):  # the header after the label: "ToyF b1"
        return [f"b{self.settings.beta:g}"]


# ---------------------------------------------------------------------------- toy 2: M2 branch


@dataclass(frozen=True)
class ToyEditSettings(Settings):
    beta: float = setting(0.5, "F-beta weight", parse_beta, ("b",), signature="beta")


class ToyEdits(RunningFMetric):
    """Toy edit F: new hypothesis tokens against each annotator's new tokens (as bags), the
    annotator kept per sentence by ERRANT's running-F rule."""

    settings_class = ToyEditSettings
    rule = ERRANT
    label = "ToyEdits"

    def prepare(self, corpus, group=()):  # per sentence: source tokens, each annotator's corrected tokens
        return [(block.tokens, {a: apply_edits(block.tokens, block.edits_of(a)) for a in block.annotators() or [0]})
                for block in corpus.gold]

    def statistics(self, prepared, hypothesis):
        rows = []
        for (source, corrected), line in zip(prepared, hypothesis):
            new = Counter(line.split()) - Counter(source)
            rows.append([(sum((new & (Counter(r) - Counter(source))).values()), sum((new - Counter(r)).values()),
                          sum(((Counter(r) - Counter(source)) - new).values()), a) for a, r in corrected.items()])
        return candidates_from_lists(rows)

    def column_names(self):
        return [f"F{self.settings.beta:g}"]


# ---------------------------------------------------------------------------- data

SOURCES = ["he go to school every day", "she have two cat", "it are raining today", "we is happy now"]
REFERENCES = [["he goes to school every day", "she has two cats", "it is raining today", "we are happy now"],
              ["he went to school every day", "she has two cats", "it was raining today", "we are happy now"]]
SYSTEMS = {"good": REFERENCES[0], "half": [REFERENCES[0][0], SOURCES[1], REFERENCES[1][2], SOURCES[3]],
           "input": SOURCES, "bad": ["he go to to school", "she", "it are are raining", "we is is happy"]}
GOLD_M2 = """S he go to school every day
A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0
A 1 2|||R:VERB:TENSE|||went|||REQUIRED|||-NONE-|||1

S she have two cat
A 1 2|||R:VERB:SVA|||has|||REQUIRED|||-NONE-|||0
A 3 4|||R:NOUN:NUM|||cats|||REQUIRED|||-NONE-|||0
A 1 2|||R:VERB:SVA|||has|||REQUIRED|||-NONE-|||1
A 3 4|||R:NOUN:NUM|||cats|||REQUIRED|||-NONE-|||1

S it are raining today
A 1 2|||R:VERB:SVA|||is|||REQUIRED|||-NONE-|||0
A 1 2|||R:VERB:TENSE|||was|||REQUIRED|||-NONE-|||1

S we is happy now
A 1 2|||R:VERB:SVA|||are|||REQUIRED|||-NONE-|||0
"""


@pytest.fixture(autouse=True)
def toys():
    register_metric("toyf", ToyF)
    register_metric("toy-edits", ToyEdits)
    yield
    unregister_metric("toyf")
    unregister_metric("toy-edits")


@pytest.fixture
def files(tmp_path):
    paths = {}
    for name, lines in [("src", SOURCES), ("ref0", REFERENCES[0]), ("ref1", REFERENCES[1]), *SYSTEMS.items()]:
        (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths[name] = str(tmp_path / name)
    (tmp_path / "gold.m2").write_text(GOLD_M2, encoding="utf-8")
    paths["gold"] = str(tmp_path / "gold.m2")
    human = "system\thuman\ngood\t0.9\nhalf\t0.6\ninput\t0.3\nbad\t0.1\n"
    (tmp_path / "human.tsv").write_text(human, encoding="utf-8")
    paths["human"] = str(tmp_path / "human.tsv")
    return paths


# ---------------------------------------------------------------------------- n-gram toy


def test_toy_ngram_metric_by_name_and_text():
    metric = get_metric("toyf", b=2, n=2)
    assert isinstance(metric, ToyF) and metric.beta == 2.0 and metric.n == 2
    assert metrics_from_text("toyf:beta=0.5:unit=char")[0].settings.unit == "char"
    with pytest.raises(InputError, match="metric 'toyf' has no setting 'lambda'; valid settings: n, unit"):
        get_metric("toyf", **{"lambda": 1})
    perfect = ToyF().corpus_score(SOURCES, REFERENCES, REFERENCES[0])
    assert perfect.score == 1.0 and perfect.signature == "ToyF|beta:1|n:4|unit:word|refs:2|version:0.1.0"


def test_toy_ngram_metric_in_compare():
    table = compare(SOURCES, REFERENCES, SYSTEMS, ["toyf", "toyf:b=2", "green"])
    assert table.labels == ["ToyF b1", "ToyF b2", "GREEN b2"]
    assert table.score("good", "ToyF b1") == 1.0
    assert table.score("bad", "ToyF b1") < table.score("half", "ToyF b1") < 1.0
    data = table.to_dict()
    assert data["columns"][1]["signature"] == "ToyF|beta:2|n:4|unit:word|refs:2|version:0.1.0"


def test_toy_ngram_metric_in_compare_cli_json(files):
    args = ["compare", "-s", files["src"], "-r", files["ref0"], files["ref1"], "-o", files["good"], files["bad"],
            "--metrics", "toyf,gleu", "--json"]
    code, out, err = run_cli(*args)
    assert code == 0, err
    data = json.loads(out)
    assert data["columns"][0] == {"label": "ToyF b1", "metric": 0,
                                  "signature": "ToyF|beta:1|n:4|unit:word|refs:2|version:0.1.0"}
    assert data["rows"][0]["scores"]["ToyF b1"] == 100.0


@pytest.mark.parametrize("method", ["bs", "ar"])
def test_toy_ngram_metric_paired_tests(method):
    systems = {"input": SYSTEMS["input"], "good": SYSTEMS["good"], "input again": SYSTEMS["input"]}
    result = paired_test(get_metric("toyf"), SOURCES, REFERENCES, systems, method, samples=200)
    assert [s.score for s in result.systems][1] == 1.0
    assert result.systems[2].p_value == 1.0  # a system against an identical one
    assert result.signature.startswith("ToyF|beta:1|n:4|unit:word|refs:2|test:paired-")
    assert all(s.interval[0] <= s.score <= s.interval[1] for s in result.systems)


def test_toy_ngram_metric_in_meta_evaluation(files):
    code, out, err = run_cli("meta-eval", "--human", files["human"], "-s", files["src"], "-r", files["ref0"],
                             files["ref1"], "-o", *(files[name] for name in SYSTEMS), "--metrics", "toyf", "--json")
    assert code == 0, err
    correlation = json.loads(out)["correlations"][0]
    assert correlation["metric"] == "ToyF b1" and correlation["n"] == 4 and correlation["spearman"] > 0.7


# ---------------------------------------------------------------------------- M2 toy


def test_toy_m2_metric_scores_and_choice():
    gold = parse_m2(GOLD_M2, "gold")
    metric = get_metric("toy-edits")
    perfect = paired_test(metric, None, gold, {"good": SYSTEMS["good"]}, "bs", samples=10).systems[0]
    assert perfect.score == 1.0  # the running-F choice keeps annotator 0 where it matches
    from gecmetrics.run.engine import corpus_for, score_corpus

    scored = score_corpus([metric], corpus_for([metric], None, gold, {"half": SYSTEMS["half"]}))
    result = scored.result("half", 0)
    assert result.totals == (2, 0, 3)  # goes (annotator 0) and was (annotator 1) found; has, cats, are missed
    assert list(result.candidates[result.available].ravel()) == [0, 1, 0, 1, 0, 1, 0]
    assert result.signature == "ToyEdits|beta:0.5|version:0.1.0"


def test_toy_m2_metric_in_compare_and_paired_tests(files):
    gold = parse_m2(GOLD_M2, "gold")
    table = compare(SOURCES, REFERENCES, SYSTEMS, ["toy-edits", "m2"], m2_blocks=gold)
    assert table.labels == ["ToyEdits F0.5", "M2 F0.5"] and table.score("good", 1) == 1.0
    for method in ("bs", "ar"):
        result = paired_test(get_metric("toy-edits"), None, gold, {"input": SOURCES, "good": SYSTEMS["good"]},
                             method, samples=100)
        assert result.systems[0].score == 0.0 and result.systems[1].score == 1.0
    code, out, err = run_cli("compare", "-s", files["src"], "-r", files["ref0"], "-o", files["good"], files["bad"],
                             "--metrics", "toy-edits", "--m2", files["gold"], "--json")
    assert code == 0, err
    assert json.loads(out)["columns"][0]["signature"] == "ToyEdits|beta:0.5|version:0.1.0"
    code, out, err = run_cli("compare", "-s", files["src"], "-r", files["ref0"], "-o", files["input"], files["good"],
                             "--metrics", "toy-edits", "--m2", files["gold"], "--paired-bs", "50")
    assert code == 0 and "ToyEdits" in out, err


def test_toy_m2_metric_in_meta_evaluation(files):
    code, out, err = run_cli("meta-eval", "--human", files["human"], "-s", files["src"], "-r", files["ref0"],
                             "-o", *(files[name] for name in SYSTEMS), "--metrics", "toy-edits,m2",
                             "--m2", files["gold"], "--tsv")
    assert code == 0, err
    rows = [line.split("\t") for line in out.splitlines()[1:]]
    assert [row[0] for row in rows] == ["ToyEdits F0.5", "M2 F0.5"]


# ---------------------------------------------------------------------------- registry rules


def test_registering_twice_needs_replace():
    with pytest.raises(InputError, match="'toyf' is already registered"):
        register_metric("toyf", ToyF)
    register_metric("toyf", ToyF, preset={"beta": 3.0}, replace=True)
    assert get_metric("toyf").beta == 3.0
    with pytest.raises(InputError, match="has no setting 'beta'"):  # the preset fixes it
        get_metric("toyf", beta=1)
    with pytest.raises(InputError, match="Metric subclass"):
        register_metric("other", object)
    # a sweep (2026-12-02): an abstract class registered and failed in every command naming it; a
    # kind's typo dropped refs:N from the signature; a bad preset was a TypeError
    from gecmetrics.metrics.base import Metric

    class Half(Metric):
        name, label = "half", "Half"
        settings_class = ToyF.settings_class

        def prepare(self, corpus, group=()):
            return corpus

    class Typo(ToyF):
        reference_kind = "Text"

    with pytest.raises(InputError, match=r"^cls: Half does not write score_from_sums, statistics"):
        register_metric("half", Half)
    with pytest.raises(InputError, match=r"Typo.reference_kind is 'Text', not one of gecmetrics.kinds' 'text'"):
        register_metric("typo", Typo)
    with pytest.raises(InputError, match=r"ToyF has no setting 'bogus'; valid settings: n, unit, .*beta"):
        register_metric("toyf-bogus", ToyF, preset={"bogus": 1})
    assert not {"half", "typo", "toyf-bogus"} & {info.name for info in list_metrics()}


def test_a_run_only_setting_has_no_signature_key():
    """run_only says a setting does not change the values, a signature key that it does: both at
    once is one InputError naming run_only, when the settings class is written."""
    from gecmetrics.metrics.settings import positive_int

    with pytest.raises(InputError, match="^run_only: a setting with a signature key .*'workers'"):
        setting(1, "threads", positive_int, signature="workers", run_only=True)
    with pytest.raises(InputError, match="^run_only: must be True or False, got 'yes'"):
        setting(1, "threads", positive_int, run_only="yes")

    @dataclass(frozen=True)
    class Declared(Settings):
        n: int = setting(2, "order", positive_int, signature="n")
        threads: int = setting(1, "threads", positive_int, run_only=True)

    assert Declared.run_only_names() == {"threads"} and Declared.infos()["threads"].run_only


def test_torch_run_settings_are_declared_once():
    """batch_size, device and threads of every metric that runs a torch model (the model metrics,
    PT-M2 and PT-ERRANT) come from metrics/settings.py's helpers: one parser, flag, run_only and
    help line each (the metric keeps its own default), so --help, compare --list-metrics and
    the values accepted agree; PT-M2's were its own, and its device help left out mps."""
    import dataclasses

    from gecmetrics.metrics.settings import batch_size_setting, device_setting, threads_setting

    helpers = {"batch_size": batch_size_setting, "device": lambda default: device_setting(),
               "threads": threads_setting}
    slots = ("help", "parse", "aliases", "signature", "flags", "shown", "run_only")
    declaring = set()
    for info in list_metrics():
        fields = {item.name: item for item in dataclasses.fields(info.cls.settings_class)}
        if "threads" not in fields:  # the torch metrics; an LLM judge's device is a local server's
            continue
        for name, helper in helpers.items():
            declared, expected = fields[name], helper(fields[name].default)
            assert [getattr(declared.metadata["gecmetrics"], slot) for slot in slots] == \
                [getattr(expected.metadata["gecmetrics"], slot) for slot in slots], (info.name, name)
        declaring.add(info.name)
    assert declaring == {"some", "impara", "scribendi", "bertscore", "pt-m2", "pt-errant"}
    device = get_metric("pt-m2").settings_class.infos()["device"]
    assert "mps" in device.help and device.parse("device", "MPS") == "mps"


def test_the_settings_list_gives_each_metrics_own_description():
    """compare --list-metrics describes each setting keyword as its metrics do: where metrics
    describe one keyword differently (level: CLEME's chunk choice, PT-M2's sentence or corpus F;
    threads: one thread gives the same bits for PT-M2, not for SOME), each description has its line,
    naming its metrics. It listed the first registered metric's alone (level said "CLEME:" for
    pt-m2:level too)."""
    from gecmetrics.metrics.registry import settings_help

    lines = settings_help().splitlines()
    seen: dict[str, set[str]] = {}
    for info in list_metrics():
        for name, declared in info.cls.settings_class.infos().items():
            aliases = f" ({', '.join(declared.aliases)})" if declared.aliases else ""
            text = f"{name}{aliases}: {declared.help}"
            seen.setdefault(name, set()).add(text)
            assert [line for line in lines if line == text or line.startswith(text + " [")], (info.name, name)
    for name, texts in seen.items():
        mine = [line for line in lines if line.split(":", 1)[0].split(" (")[0] == name]
        assert len(mine) == len(texts), name
        if len(texts) > 1:  # each line names its metrics
            assert all(line.endswith("]") for line in mine), mine
    level = [line for line in lines if line.startswith("level: ")]
    assert any("CLEME" in line and line.endswith("[cleme, cleme2]") for line in level)
    assert any("summed weights" in line and line.endswith("[pt-m2, pt-errant]") for line in level)
    code, out, _ = run_cli("compare", "--list-metrics")
    assert code == 0 and "  level: sentence: mean of sentence F" in out


def test_the_metric_list_as_json():
    """compare --list-metrics with --json (before or after it, or --format json) prints the list as
    JSON: every registered name, the settings its name fixes, every default and the settings a
    user may give; it printed the text list. Another format is refused (one line, exit 2)."""
    text_code, text, _ = run_cli("compare", "--list-metrics")
    assert text_code == 0 and text.startswith("gleu: ")
    outputs = set()
    for args in (("--list-metrics", "--json"), ("--json", "--list-metrics"), ("--list-metrics", "--format=json")):
        code, out, err = run_cli("compare", *args)
        assert code == 0 and err == "", (args, err)
        outputs.add(out)
    assert len(outputs) == 1
    listed = json.loads(outputs.pop())
    assert [entry["name"] for entry in listed] == [info.name for info in list_metrics()]
    for entry, info in zip(listed, list_metrics()):
        assert entry["description"] == info.summary and set(entry["settings"]) == set(info.settings)
        assert f"{info.name}: {info.summary} (" in text
    gleu_max = next(entry for entry in listed if entry["name"] == "gleu-max")
    assert gleu_max["preset"] == {"best_reference": True} and gleu_max["defaults"]["best_reference"] is True
    assert "best_reference" not in gleu_max["settings"] and gleu_max["defaults"]["iterations"] == 500
    for args in (("--list-metrics", "--tsv"), ("--format", "markdown", "--list-metrics")):
        code, out, err = run_cli("compare", *args)
        assert code == 2 and out == "" and err.strip() == "gecmetric: error: --list-metrics: prints text, or " \
                                                          "JSON with --json", (args, err)


def test_unknown_name_lists_the_registered_ones():
    with pytest.raises(InputError, match=r"unknown metric 'nope'; valid names: gleu, .*toyf, toy-edits"):
        get_metric("nope")


def test_installed_plugin_registers_through_its_entry_point(tmp_path, monkeypatch):
    """A package declaring ``[gecmetrics.metrics] name = module:Class`` is found by name."""
    from gecmetrics.metrics import names

    (tmp_path / "toy_plugin.py").write_text(
        "from tests.test_metric_protocol import ToyF\n\nclass PluginF(ToyF):\n    pass\n", encoding="utf-8")
    info = tmp_path / "toy_plugin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-plugin\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[gecmetrics.metrics]\nplugin-f = toy_plugin:PluginF\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(names, "_LOADED_ENTRY_POINTS", False)
    try:
        metric = get_metric("plugin-f", beta=2)
        assert type(metric).__name__ == "PluginF" and metric.beta == 2.0
    finally:
        unregister_metric("plugin-f")
        sys.modules.pop("toy_plugin", None)


# ---------------------------------------------------------------------------- what a plugin returns


def _rate_class():
    """A plugin metric (a class from outside gecmetrics): hypothesis tokens found in no reference,
    per sentence (unknown, tokens)."""
    from gecmetrics.metrics.base import Metric

    class Rate(Metric):
        label = "Rate"
        settings_class = ToyEditSettings

        def prepare(self, corpus, group=()):
            return [set(" ".join(refs).split()) for refs in zip(*corpus.references)]

        def statistics(self, prepared, hypothesis):
            return np.array([[sum(t not in known for t in line.split()), len(line.split())]
                             for known, line in zip(prepared, hypothesis)], dtype=np.int64).reshape(-1, 2)

        def score_from_sums(self, sums, column=0):
            sums = np.asarray(sums, dtype=np.float64)
            return np.divide(sums[..., 0], sums[..., 1], out=np.zeros(sums.shape[:-1]), where=sums[..., 1] > 0)

    return Rate


def test_what_a_plugin_returns_is_checked(files):
    """A plugin's statistics a row short gave a silently wrong score (4.66 for 4.56), an infinite
    count 0.00, NaN ``nan``; 1-D, None or object statistics, a text score and an error raised in
    its own code were tracebacks through the engine. Each is one InputError (exit 2, one line)."""
    Rate = _rate_class()

    def variant(name, **methods):
        return type(name, (Rate,), {"label": name, **methods})

    def floats(change):
        def statistics(self, prepared, hypothesis):
            rows = Rate.statistics(self, prepared, hypothesis).astype(float)
            change(rows)
            return rows
        return statistics

    def fail(self, *args):
        raise ValueError("plugin bug")

    cases = [(variant("Short", statistics=lambda self, p, h: Rate.statistics(self, p, h)[:-1]),
              r"statistics of hypothesis are an array of shape \(3, 2\) for 4 sentences"),
             (variant("Inf", statistics=floats(lambda rows: rows.__setitem__((0, 1), np.inf))), "infinite values"),
             (variant("NaN", statistics=floats(lambda rows: rows.__setitem__((0, 0), np.nan))),
              "gives a score of nan .not a finite number."),
             (variant("NoneRows", statistics=lambda self, p, h: None), "statistics of hypothesis are None;"),
             (variant("Objects", statistics=lambda self, p, h: np.array([["a", 1]] * len(h), dtype=object)),
              "an array of object, not of numbers"),
             (variant("Text", score_from_sums=lambda self, sums, column=0: "high"),
              r"failed in score_from_sums: ValueError: could not convert"),
             (variant("Raises", statistics=fail), r"rate-variant \(\S*Raises\) failed in statistics: ValueError: plugin bug"),
             (variant("RaisesPrepare", prepare=fail), "failed in prepare: ValueError: plugin bug")]
    assert Rate().corpus_score(SOURCES, REFERENCES, SYSTEMS["bad"]).score > 0  # the base plugin scores
    for cls, message in cases:
        register_metric("rate-variant", cls, replace=True)
        try:
            with pytest.raises(InputError, match=message):
                cls().corpus_score(SOURCES, REFERENCES, SYSTEMS["bad"])
            code, out, err = run_cli("compare", "-s", files["src"], "-r", files["ref0"], files["ref1"],
                                     "-o", files["bad"], "--metrics", "rate-variant")
            assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, (cls.__name__, code, out, err)
        finally:
            unregister_metric("rate-variant")


def test_a_plugins_error_is_one_line_on_every_path(files):
    """A plugin's own error was one line where a corpus score was made, but a traceback (a
    TypeError through NumPy and the engine) from sentence scores, a paired test's resamples, a
    reward and MBR selection, which call its score_from_sums elsewhere: every protocol method a
    plugin class writes is now guarded where it is defined, whoever calls it."""
    from gecmetrics.rewards import mbr_select, reward_function

    Rate = _rate_class()
    # an old signature (no column), as a plugin written against an earlier protocol has it
    Old = type("Old", (Rate,), {"label": "Old", "score_from_sums": lambda self, sums: Rate.score_from_sums(self, sums)})
    calls = {"sentence scores": lambda: Old().sentence_scores(SOURCES, REFERENCES, SYSTEMS["bad"]),
             "paired test": lambda: paired_test(Old(), SOURCES, REFERENCES, {"a": SYSTEMS["bad"], "b": SOURCES},
                                                samples=50),
             "randomization": lambda: paired_test(Old(), SOURCES, REFERENCES, {"a": SYSTEMS["bad"], "b": SOURCES},
                                                  "ar", samples=50),
             "reward": lambda: reward_function(Old())(completions=SYSTEMS["bad"][:2], source=SOURCES[:2],
                                                      references=[list(refs) for refs in zip(*REFERENCES)][:2]),
             "mbr": lambda: mbr_select([SYSTEMS["bad"][:3]], Old(), SOURCES[:1])}
    for what, call in calls.items():
        with pytest.raises(InputError, match=r"plugin metric Old \(\S+Old\) failed in score_from_sums: TypeError"):
            call()
    assert Rate().sentence_scores(SOURCES, REFERENCES, SYSTEMS["bad"]).scores.shape == (len(SOURCES),)
    register_metric("rate-old", Old, replace=True)
    try:
        code, out, err = run_cli("compare", "-s", files["src"], "-r", files["ref0"], files["ref1"], "-o",
                                 files["bad"], files["src"], "--metrics", "rate-old", "--paired-bs", "20")
        assert code == 2 and out == "" and "failed in score_from_sums: TypeError" in err, (code, out, err)
        assert len(err.strip().splitlines()) == 1, err
    finally:
        unregister_metric("rate-old")
    # the guard is a plugin class's: a built-in class's methods are its own (its bugs show their
    # traceback), and only the protocol's methods a plugin writes are guarded
    assert not hasattr(type(get_metric("gleu")).score_from_sums, "__wrapped__")
    assert Old.score_from_sums.__wrapped__ is not None and Rate.statistics.__wrapped__ is not None
    assert not hasattr(Rate.__init__, "__wrapped__")
