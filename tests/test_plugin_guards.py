"""A plugin metric's mistakes are one line naming it, never a traceback or a silently wrong
number, and a plugin is used as a built-in metric is (an audit of 2026-12-07 wrote plugins from
docs/api.md alone)."""
from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np
import pytest
from click.testing import CliRunner

from gecmetrics import InputError, get_metric, paired_test, register_metric, unregister_metric
from gecmetrics.cli import main
from gecmetrics.metrics.base import Metric
from gecmetrics.metrics.settings import Settings, parse_bool, setting

SOURCES = ["a b c", "d e", "f g h i"]
REFERENCES = [["a b c", "d e f", "f g h i"], ["a x c", "d e", "f g h"]]
HYPOTHESIS = ["a b", "d e f", "f g h i j"]


@dataclass(frozen=True)
class CountSettings(Settings):
    punct: bool = setting(True, "count punctuation tokens", parse_bool, signature="punct")
    size: int = setting(1, "a size", lambda name, value: int(value), signature="size")


class TokenMatches(Metric):
    """Tokens of the hypothesis found in the first reference, over the hypothesis's tokens."""

    label = "TokenMatches"
    settings_class = CountSettings

    def prepare(self, corpus, group=()):
        return [set(line.split()) for line in corpus.references[0]]

    def statistics(self, prepared, hypothesis):
        return np.array([[sum(t in known for t in line.split()), len(line.split())]
                         for known, line in zip(prepared, hypothesis)], dtype=np.int64).reshape(-1, 2)

    def score_from_sums(self, sums, column=0):
        sums = np.asarray(sums, dtype=np.float64)
        return sums[..., 0] / np.maximum(sums[..., 1], 1)


class FailsWhenMade(TokenMatches):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        raise RuntimeError("model file not found")


class RaggedRows(TokenMatches):
    def statistics(self, prepared, hypothesis):
        return [[1, 2]] * (len(hypothesis) - 1) + [[1]]


class ListRowShort(TokenMatches):
    def statistics(self, prepared, hypothesis):
        return super().statistics(prepared, hypothesis).tolist()[:-1]


class ScoreVector(TokenMatches):
    def score_from_sums(self, sums, column=0):
        sums = np.asarray(sums, dtype=np.float64)
        return np.stack([sums[..., 0], sums[..., 1]], axis=-1)


class ScoreScalar(TokenMatches):
    def score_from_sums(self, sums, column=0):
        sums = np.asarray(sums, dtype=np.float64).reshape(-1, 2).sum(axis=0)
        return sums[0] / sums[1]


PLUGINS = {"t-matches": TokenMatches, "t-made": FailsWhenMade, "t-ragged": RaggedRows, "t-short": ListRowShort,
           "t-vector": ScoreVector, "t-scalar": ScoreScalar}


@pytest.fixture(autouse=True)
def registered():
    for name, cls in PLUGINS.items():
        register_metric(name, cls)
    yield
    for name in PLUGINS:
        unregister_metric(name)
        main.commands.pop(name, None)  # (the group keeps a command it made: other tests list the commands)


def test_a_plugin_that_fails_while_it_is_made_is_one_line_naming_it():
    """An error in its __init__ or in one of its settings' parsers was a traceback in every command."""
    with pytest.raises(InputError, match=r"^plugin metric t-made \(tests.test_plugin_guards.FailsWhenMade\) failed in "
                                         r"making it .*RuntimeError: model file not found"):
        get_metric("t-made")
    with pytest.raises(InputError, match=r"plugin metric t-matches .*failed in making it .*ValueError: invalid literal"):
        get_metric("t-matches", size="abc")


@pytest.mark.parametrize("name, message", [
    ("t-ragged", "are a list that makes no table of numbers"),
    ("t-short", "are a list of 2 rows for 3 sentences"),
])
def test_statistics_given_as_a_list_are_checked_as_an_array_is(name, message):
    """A ragged list was a NumPy traceback; a list a row short was scored without a word."""
    with pytest.raises(InputError, match=message):
        get_metric(name).corpus_score(SOURCES, REFERENCES, HYPOTHESIS)


def test_a_score_from_sums_of_the_wrong_shape_is_refused():
    """A vector per sum was averaged into the score (3025300.00); a scalar for every resample
    made a point interval and a 'significant' p-value."""
    with pytest.raises(InputError, match=r"failed in score_from_sums: ValueError: it gave scores of shape \(2,\) for "
                                         r"summed rows of shape \(2,\)"):
        get_metric("t-vector").corpus_score(SOURCES, REFERENCES, HYPOTHESIS)
    assert get_metric("t-scalar").corpus_score(SOURCES, REFERENCES, HYPOTHESIS).score == pytest.approx(9 / 10)
    with pytest.raises(InputError, match=r"it gave scores of shape \(\) for summed rows of shape \(50, 2\)"):
        paired_test("t-scalar", SOURCES, REFERENCES, {"a": SOURCES, "b": HYPOTHESIS}, samples=50)


def test_a_setting_on_by_default_is_turned_off_by_its_command_and_results_sign_the_references(tmp_path):
    """A boolean setting whose default is True could not be turned off from the plugin's own
    command (--no-punct: no such option); the result's signature (--json, corpus_score) lacked
    the refs:N its table's signature had."""
    for name, lines in (("src", SOURCES), ("ref0", REFERENCES[0]), ("ref1", REFERENCES[1]), ("hyp", HYPOTHESIS)):
        (tmp_path / name).write_text("\n".join(lines) + "\n")
    base = ["t-matches", "-s", str(tmp_path / "src"), "-r", str(tmp_path / "ref0"), str(tmp_path / "ref1"),
            "-o", str(tmp_path / "hyp"), "--json"]
    for extra, punct in (([], "yes"), (["--no-punct"], "no"), (["--punct"], "yes")):
        done = CliRunner().invoke(main, [*base, *extra])
        assert done.exit_code == 0, done.output
        assert json.loads(done.stdout)[0]["signature"] == f"TokenMatches|punct:{punct}|size:1|refs:2|version:0.1.0"
    assert get_metric("t-matches").corpus_score(SOURCES, REFERENCES, HYPOTHESIS).signature == \
        "TokenMatches|punct:yes|size:1|refs:2|version:0.1.0"
    helped = " ".join(CliRunner().invoke(main, ["t-matches", "--help"]).output.split())
    assert "--punct / --no-punct Count punctuation tokens. [default: on]" in helped
    assert "over the hypothesis's tokens. gecmetric t-matches" in helped  # (its docstring's period, not '..')


def test_an_entry_point_named_like_a_command_is_warned_about(monkeypatch, capsys):
    """An entry point 'demo' was shadowed by the demo command without a word."""
    from gecmetrics.cli import metric_command
    from gecmetrics.metrics import names

    info = names.MetricInfo("demo", TokenMatches, entry_point="demo = plugin:TokenMatches (package p)")
    monkeypatch.setitem(names._REGISTRY, "demo", info)
    monkeypatch.setattr(metric_command, "_WARNED", set())
    assert "demo" not in metric_command.metric_command_names()
    metric_command.metric_command_names()
    said = [line for line in capsys.readouterr().err.splitlines() if "no command of its own" in line]
    assert said == ["gecmetric: warning: metric entry point demo = plugin:TokenMatches (package p) has no command of its own: 'demo' is a "
                    "gecmetric command; use it with --metrics demo (compare, report, meta-eval)"]
