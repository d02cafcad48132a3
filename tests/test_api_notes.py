"""The Python API tells what the command line tells: the lines a run prints on stderr about its
input (whitespace, sentences shorter than the n-gram order) and the metrics' notes (a model's
cut sentences) are, from every public function that computes scores and returns no run, one
``gecmetrics.InputNote`` warning each, with the command line's text and pointing at the caller.
``corpus_score`` and ``compare`` dropped them; ``score_corpus`` returns them
(``Scored.warnings()``, the command line's lines) and issues none. A warning's message is the
text without the command's ``gecmetric: warning:`` / ``gecmetric: note:`` (a Python caller ran
no command); its ``line`` is the command line's."""
from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any, Sequence

import numpy as np
import pytest

import gecmetrics as G
from gecmetrics.metrics.base import Metric
from tests._meta_support import REFERENCES, SOURCES, SYSTEMS, toy_args, toy_files
from tests.conftest import run_cli, write_files

SHORT = ["a b", "c d"]
"""Sentences of two words: no 4-gram to match (the order warning, which names no file)."""

ORDER_TEXT = ("n = 4 is more than the length of every sentence (at most 2 words): no n-gram of order 4 to match, so "
              "corpus scores are 0 (sentence scores follow each metric's rules for short sentences)")
ORDER = f"gecmetric: warning: {ORDER_TEXT}"


def notes_of(record: Any) -> list[str]:
    """The InputNote texts of a pytest.warns record, each pointing at this file."""
    found = [w for w in record if issubclass(w.category, G.InputNote)]
    assert all(Path(w.filename) == Path(__file__) for w in found), [(w.filename, w.lineno) for w in found]
    return [str(w.message) for w in found]


def lines_of(record: Any) -> list[str]:
    """The InputNote lines of a pytest.warns record as the command line prints them."""
    return [w.message.line for w in record if issubclass(w.category, G.InputNote)]


def no_notes(call: Any) -> Any:
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        value = call()
    assert not [w for w in record if issubclass(w.category, G.InputNote)], [str(w.message) for w in record]
    return value


def test_corpus_score_warns_what_the_command_prints(tmp_path):
    paths = write_files(tmp_path, {"src": SHORT, "hyp": SHORT})
    code, _, err = run_cli("gleu", "-s", paths["src"], "-r", paths["src"], "-o", paths["hyp"])
    assert code == 0 and err.splitlines() == [ORDER], err
    gleu = G.get_metric("gleu")
    with pytest.warns(G.InputNote) as record:
        result = gleu.corpus_score(SHORT, [SHORT], SHORT)
    assert notes_of(record) == [ORDER_TEXT] and lines_of(record) == [ORDER] and result.score == 0
    green = G.get_metric("green")
    with pytest.warns(G.InputNote) as record:
        green.sentence_scores(SHORT, [SHORT], SHORT)
    with pytest.warns(G.InputNote) as more:
        green.corpus_statistics(SHORT, [SHORT], SHORT)
    assert notes_of(record) == notes_of(more) == [ORDER_TEXT]
    assert issubclass(G.InputNote, UserWarning) and "InputNote" in G.__all__
    no_notes(lambda: gleu.corpus_score(SOURCES, REFERENCES, SYSTEMS["half"]))  # nothing to say: silent


def test_a_whitespace_warning_has_the_command_s_text_naming_the_python_input(tmp_path):
    """In char mode stray spaces count: the command names the file, Python its argument; the
    Python warning's message is the text without ``gecmetric: warning:`` (it ran no command)."""
    hypothesis = ["a  b c d e", "f g h i j"]
    paths = write_files(tmp_path, {"src": ["a b c d e", "f g h i j"], "hyp": hypothesis})
    code, _, err = run_cli("green-char", "-s", paths["src"], "-r", paths["src"], "-o", paths["hyp"])
    text = ("1 line has whitespace other than single spaces between words (leading, trailing or repeated, "
            "a tab, a lone '\\r'), which counts in char mode (as in the "
            "original tools); --normalize-space (Python: normalize_space=True) ignores it")
    assert code == 0 and err.splitlines() == [f"gecmetric: warning: {paths['hyp']}: {text}"], err
    with pytest.warns(G.InputNote) as record:
        G.get_metric("green-char").corpus_score(["a b c d e", "f g h i j"], [["a b c d e", "f g h i j"]], hypothesis)
    assert notes_of(record) == [f"hypothesis: {text}"]
    assert lines_of(record) == [err.splitlines()[0].replace(paths["hyp"], "hypothesis")]
    with warnings.catch_warnings():  # made an error: the same text
        warnings.simplefilter("error", G.InputNote)
        with pytest.raises(G.InputNote, match=r"^hypothesis: 1 line has"):
            G.get_metric("green-char").corpus_score(["a b c d e", "f g h i j"], [["a b c d e", "f g h i j"]],
                                                    hypothesis)


def test_compare_paired_test_and_meta_evaluation_warn_once_and_score_corpus_returns_them(tmp_path):
    with pytest.warns(G.InputNote) as record:
        G.compare(SHORT, [SHORT], {"A": SHORT, "B": SHORT}, ["gleu", "green"])
    assert notes_of(record) == [ORDER_TEXT]  # one line for both metrics, as compare prints it
    with pytest.warns(G.InputNote) as record:
        G.paired_test("gleu", SHORT, [SHORT], {"A": SHORT, "B": SHORT}, samples=50)
    assert notes_of(record) == [ORDER_TEXT]
    scored = no_notes(lambda: G.score_corpus(["gleu"], G.Corpus(SHORT, [SHORT], {"A": SHORT})))
    assert scored.warnings() == [ORDER]
    bad = [SYSTEMS["bad"][0].replace(" ", "\u00a0", 1), *SYSTEMS["bad"][1:]]
    corpus = G.Corpus(SOURCES, REFERENCES, {**SYSTEMS, "bad": bad})
    line = ("bad: 1 line contains whitespace that Python 2 did not split on (e.g. U+00A0, U+001C), which "
            "splits words here but not in gec-ranking; scores may differ from it")
    human = tmp_path / "human.tsv"
    human.write_text("system\thuman\ngood\t0.9\nhalf\t0.6\ninput\t0.3\nbad\t0.1\n", encoding="utf-8")
    with pytest.warns(G.InputNote) as record:
        G.meta_evaluate(human=str(human), metrics=["gleu"], corpus=corpus)
    assert notes_of(record) == [line]


def test_meta_eval_prints_the_input_warnings_as_compare_does(tmp_path):
    """meta-eval scored the outputs and said nothing of their input; the library's InputNote is
    printed as the command's own line (no second ``gecmetric: warning:``), once."""
    toy = toy_files(tmp_path)
    Path(toy["bad"]).write_text(Path(toy["bad"]).read_text(encoding="utf-8").replace(" ", "\u00a0", 1),
                                encoding="utf-8")
    code, _, compared = run_cli("compare", "-s", toy["src"], "-r", toy["ref0"], toy["ref1"], "-o", toy["bad"],
                                "--metrics", "gleu")
    assert code == 0 and len(compared.splitlines()) == 1, compared
    code, _, err = run_cli(*toy_args(toy, "--metrics", "gleu"))
    said = [line for line in err.splitlines() if "did not split on" in line]
    assert code == 0 and said == [compared.splitlines()[0].replace(toy["bad"], "bad")], err


class Noted(Metric):
    """A toy metric with a note: how many hypothesis lines were empty (what it saw while scoring)."""

    label = "Noted"

    def prepare(self, corpus: Any, group: Sequence[Metric] = ()) -> dict:
        return {"empty": 0}

    def statistics(self, prepared: dict, hypothesis: Sequence[str]) -> np.ndarray:
        prepared["empty"] += sum(not line for line in hypothesis)
        return np.array([[len(line.split()), 1] for line in hypothesis], dtype=np.float64)

    def score_from_sums(self, sums: Any, column: int = 0) -> Any:
        return np.asarray(sums)[..., 0] / np.asarray(sums)[..., 1]

    def observation(self, prepared: dict) -> int:
        return prepared["empty"]

    def notes(self, observations: Sequence[Any]) -> list[str]:
        empty = sum(seen or 0 for seen in observations)
        return [f"gecmetric: note: Noted: {empty} empty hypothesis line(s)"] if empty else []


def test_a_metric_s_notes_come_from_every_one_call_form_as_from_the_command(tmp_path):
    G.register_metric("noted-toy", Noted)
    try:
        hypothesis = ["a b", ""]
        paths = write_files(tmp_path, {"src": ["a b", "c d"], "hyp": hypothesis})
        code, _, err = run_cli("compare", "-s", paths["src"], "-r", paths["src"], "-o", paths["hyp"],
                               "--metrics", "noted-toy")
        assert code == 0 and err.splitlines() == ["gecmetric: note: Noted: 1 empty hypothesis line(s)"], err
        metric = Noted()
        for call in (lambda: metric.corpus_score(["a b", "c d"], [["a b", "c d"]], hypothesis),
                     lambda: metric.sentence_scores(["a b", "c d"], [["a b", "c d"]], hypothesis),
                     lambda: metric.corpus_score(None, None, hypothesis, prepared=metric.prepare(None)),
                     lambda: metric.evaluate(metric.prepare(None), hypothesis)):
            with pytest.warns(G.InputNote) as record:
                call()
            assert notes_of(record) == ["Noted: 1 empty hypothesis line(s)"] and lines_of(record) == err.splitlines()
        no_notes(lambda: metric.corpus_score(["a b", "c d"], [["a b", "c d"]], ["a b", "c"]))
    finally:
        G.unregister_metric("noted-toy")


def test_an_input_note_is_its_text_and_keeps_the_command_s_line():
    """``str()`` is the note without the command's prefix, ``line`` the command's line; a line
    without the prefix (a plugin's note) is its own text; pickling keeps both."""
    import pickle

    note = G.InputNote("gecmetric: note: AMU: 3 line(s) were cut")
    assert str(note) == "AMU: 3 line(s) were cut" and note.line == "gecmetric: note: AMU: 3 line(s) were cut"
    again = pickle.loads(pickle.dumps(note))
    assert (str(again), again.line) == (str(note), note.line)
    own = G.InputNote("Noted: gecmetric: warning: kept")
    assert str(own) == own.line == "Noted: gecmetric: warning: kept"
