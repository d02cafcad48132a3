"""Sentence-level meta-evaluation and window analysis against SEEDA's scripts; plots.

CI checks the numbers SEEDA's scripts printed (tests/data/meta_seeda_*.tsv); where a fetched
copy of SEEDA (github tmu-nlp/SEEDA, utils/) is present, the live tests run its scripts too."""
from __future__ import annotations

import functools
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from gecmetrics import GLEU, GREEN, meta_evaluate, read_lines
from gecmetrics.errors import InputError
from gecmetrics.io.judgments import parse_judgments, read_judgments
from gecmetrics.meta.sentence import rows_of_src_ids, sentence_agreement
from gecmetrics.meta.windows import window_analysis
from tests.conftest import read_tsv

DATA = Path(__file__).resolve().parent / "data"
SEEDA_SYSTEMS = ["BART", "BERT-fuse", "GECToR-BERT", "GECToR-ens", "GPT-3.5", "INPUT", "LM-Critic", "PIE", "REF-F",
                 "REF-M", "Riken-Tohoku", "T5", "TemplateGEC", "TransGEC", "UEDIN-MS"]
LEFT_OUT = {"base": ("GPT-3.5", "INPUT", "REF-F"), "+INPUT": ("GPT-3.5", "REF-F"), "+REF-F_GPT-3.5": ("INPUT",),
            "all": ()}
SEEDA_VARIABLE = "GECMETRICS_SEEDA_UTILS"
SEEDA_DEFAULT = "/tmp/peers/meta-seeda/utils"
SEEDA_PYTHON_VARIABLE = "GECMETRICS_SEEDA_PYTHON"
SEEDA_PYTHON_DEFAULT = "/tmp/peers/meta-seeda/venv/bin/python"


def subset_corpus(shared_data: Path) -> tuple[list[str], list[list[str]], list[int]]:
    """The 391-sentence SEEDA subset: source, REF0/REF1 cut by LINES, and LINES."""
    subset = shared_data / "seeda_subset"
    lines = [int(x) for x in (subset / "LINES").read_text().split()]
    references = [[read_lines(str(shared_data / "conll14" / f"REF{k}"))[line - 1] for line in lines] for k in (0, 1)]
    return read_lines(str(subset / "INPUT")), references, lines


def sentence_scores(shared_data: Path) -> dict[str, dict[str, np.ndarray]]:
    sources, references, _ = subset_corpus(shared_data)
    gleu, green = GLEU(), GREEN(beta=2.0)
    out: dict[str, dict[str, np.ndarray]] = {"gleu": {}, "green": {}}
    encoded_gleu, encoded_green = gleu.encode(sources, references), green.encode(sources, references)
    for system in SEEDA_SYSTEMS:
        hypothesis = read_lines(str(shared_data / "seeda_subset" / system))
        out["gleu"][system] = gleu.sentence_scores(sources, references, hypothesis, prepared=encoded_gleu).scores
        out["green"][system] = green.sentence_scores(sources, references, hypothesis, prepared=encoded_green).scores[0]
    return out


@pytest.fixture(scope="module")
def seeda_scores(shared_data: Path) -> dict[str, dict[str, np.ndarray]]:
    return sentence_scores(shared_data)


@functools.lru_cache(maxsize=None)
def seeda_judgments(shared_data: Path, judgments: str):
    """A SEEDA judgment file and the subset row of each of its items (read once per run)."""
    loaded = read_judgments(shared_data / "human" / "judgments" / f"seeda_{judgments}.xml")
    return loaded, rows_of_src_ids(loaded, subset_corpus(shared_data)[2])


def ours(shared_data: Path, scores, metric: str, judgments: str, systems: str):
    loaded, rows = seeda_judgments(shared_data, judgments)
    kept = [s for s in SEEDA_SYSTEMS if s not in LEFT_OUT[systems]]
    return sentence_agreement(scores[metric], loaded, rows, kept, metric=metric)


# --------------------------------------------------------------------------- sentence level


def test_tie_rules_hand_computed() -> None:
    # one item: A rank 1, B rank 2, C rank 3 (3 decided pairs); metric: A 0.5, B 0.5, C 0.1
    judgments = parse_judgments(b"<r><ranking-item src-id='1'><translation system='A' rank='1'/>"
                                b"<translation system='B' rank='2'/><translation system='C' rank='3'/>"
                                b"</ranking-item></r>", "one.xml")
    scores = {"A": [0.5], "B": [0.5], "C": [0.1]}
    seeda = sentence_agreement(scores, judgments, [0])  # A=B tie -> "B better": disagrees
    assert (seeda.pairs, seeda.agreements, seeda.metric_ties) == (3, 2, 1)
    assert seeda.accuracy == pytest.approx(2 / 3) and seeda.kendall == pytest.approx(1 / 3)
    lower = sentence_agreement({k: [-v[0]] for k, v in scores.items()}, judgments, [0], higher_is_better=False)
    assert lower.agreements == 3  # lower is better: the tie counts as "A better"
    assert sentence_agreement(scores, judgments, [0], tie_rule="disagree").agreements == 2
    ignored = sentence_agreement(scores, judgments, [0], tie_rule="ignore")
    assert (ignored.pairs, ignored.agreements, ignored.accuracy) == (2, 2, 1.0)
    # the system order decides SEEDA's tie verdict: with B listed first, the tie is "A better"
    assert sentence_agreement(scores, judgments, [0], ["B", "A", "C"]).agreements == 3
    for metric in (5, None, ""):  # (5 was taken as the result's metric name)
        with pytest.raises(InputError, match="metric is the metric's name, a text"):
            sentence_agreement(scores, judgments, [0], metric=metric)


def test_a_metric_that_ties_most_pairs_is_said_to() -> None:
    """A metric tying every pair scored accuracy 0.631 on SEEDA without a word (the tie rule
    decided every pair), where the system level refuses a constant metric."""
    import warnings

    judgments = parse_judgments(b"<r><ranking-item src-id='1'><translation system='A' rank='1'/>"
                                b"<translation system='B' rank='2'/><translation system='C' rank='3'/>"
                                b"</ranking-item></r>", "one.xml")
    with pytest.warns(UserWarning, match=r"the sentence scores tie 3 of the 3 pairs the humans ranked apart, and the "
                                         r"tie rule 'seeda' counts each as the second system of the pair better"):
        sentence_agreement({"A": [0.5], "B": [0.5], "C": [0.5]}, judgments, [0], metric="flat")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sentence_agreement({"A": [0.5], "B": [0.5], "C": [0.1]}, judgments, [0])  # one of three: no warning
        sentence_agreement({"A": [0.5], "B": [0.5], "C": [0.1]}, judgments, [0], tie_rule="ignore")


def test_sentence_bad_input() -> None:
    judgments = parse_judgments(b"<r><ranking-item src-id='4'><translation system='A' rank='1'/>"
                                b"<translation system='B' rank='2'/><translation system='C' rank='3'/>"
                                b"</ranking-item></r>", "one.xml")
    good = {"A": [0.1], "B": [0.2], "C": [0.3]}
    with pytest.raises(InputError, match="no sentence scores for: C"):
        sentence_agreement({"A": [0.1], "B": [0.2]}, judgments, [0])
    with pytest.raises(InputError, match="sentence scores but no human judgments: D"):
        sentence_agreement({**good, "D": [0.5]}, judgments, [0])
    with pytest.raises(InputError, match="one length"):
        sentence_agreement({**good, "C": [0.3, 0.4]}, judgments, [0])
    with pytest.raises(InputError, match="outside the 1 scored") as caught:
        sentence_agreement(good, judgments, [1])
    assert caught.value.line == 1
    with pytest.raises(InputError, match="unknown tie rule"):
        sentence_agreement(good, judgments, [0], tie_rule="half")
    with pytest.raises(InputError, match="not a finite number"):
        sentence_agreement({**good, "B": [float("inf")]}, judgments, [0])
    with pytest.raises(InputError, match="systems must be a sequence of system names, got 'ABC'"):
        sentence_agreement(good, judgments, [0], "ABC")  # was read as the systems A, B, C
    two = parse_judgments(b"<r><ranking-item src-id='4'><translation system='A' rank='1'/>"
                          b"<translation system='B' rank='2'/></ranking-item><ranking-item src-id='5'>"
                          b"<translation system='A' rank='2'/><translation system='B' rank='1'/>"
                          b"</ranking-item></r>", "two.xml")
    with pytest.raises(InputError, match="src-id 5 is not one of the corpus lines"):
        rows_of_src_ids(two, [4])
    # the src-id of every corpus line: each once, each judged (issue 23, item 6)
    with pytest.raises(InputError, match="corpus line 2: src-id 4 is given twice \\(first for corpus line 1\\)"):
        rows_of_src_ids(two, [4, 4, 5])
    with pytest.raises(InputError, match="corpus line 2: src-id 8 is not the src-id of any ranking item"):
        rows_of_src_ids(two, [4, 8, 5])
    with pytest.raises(InputError, match="a src-id is an integer below"):
        rows_of_src_ids(two, [4, 10 ** 20])
    with pytest.raises(InputError, match="first corpus line is an integer below"):
        rows_of_src_ids(two, first_line=10 ** 20)
    assert rows_of_src_ids(two, [5, 4]).tolist() == [1, 0]


def test_equal_to_seeda_corr_sentence_printed(shared_data: Path, seeda_scores) -> None:
    """The 16 (metric, judgments, systems) numbers SEEDA's corr_sentence.py printed for our
    GLEU+ and GREEN sentence scores of the subset, to the last bit."""
    rows = read_tsv(DATA / "meta_seeda_corr_sentence.tsv")
    assert len(rows) == 16
    for row in rows:
        result = ours(shared_data, seeda_scores, row["metric"], row["judgments"], row["systems"])
        assert (repr(result.accuracy), repr(result.kendall)) == (row["accuracy"], row["kendall"]), row


def seeda_utils() -> tuple[Path, str]:
    folder = Path(os.environ.get(SEEDA_VARIABLE, SEEDA_DEFAULT))
    python = os.environ.get(SEEDA_PYTHON_VARIABLE, SEEDA_PYTHON_DEFAULT)
    if not (folder / "corr_sentence.py").is_file():
        pytest.skip(f"no copy of SEEDA's utils/ at {folder} (github tmu-nlp/SEEDA; set {SEEDA_VARIABLE})")
    if not Path(python).is_file():
        python = sys.executable
    if subprocess.run([python, "-c", "import numpy, scipy"], capture_output=True).returncode != 0:
        pytest.skip(f"{python} has no numpy/scipy for SEEDA's scripts (set {SEEDA_PYTHON_VARIABLE})")
    return folder, python


def test_live_seeda_corr_sentence(shared_data: Path, seeda_scores, tmp_path: Path) -> None:
    folder, python = seeda_utils()
    for metric, by_system in seeda_scores.items():
        (tmp_path / metric).mkdir()
        for system, values in by_system.items():
            (tmp_path / metric / f"{system}.txt").write_text("".join(f"{float(v)!r}\n" for v in values))
        for judgments in ("edit", "sent"):
            xml = shared_data / "human" / "judgments" / f"seeda_{judgments}.xml"
            for systems in LEFT_OUT:
                printed = subprocess.run([python, "corr_sentence.py", "--human_score", str(xml), "--metric_score",
                                          str(tmp_path / metric), "--order", "higher", "--systems", systems],
                                         cwd=folder, capture_output=True, text=True, check=True).stdout.split()
                result = ours(shared_data, seeda_scores, metric, judgments, systems)
                assert printed == ["Accuracy:", repr(result.accuracy), "Kendall:", repr(result.kendall)]


# --------------------------------------------------------------------------- windows


def window_inputs() -> dict[str, dict[str, float]]:
    text = (DATA / "meta_seeda_windows.tsv").read_text(encoding="utf-8")
    inputs = {}
    for line in text.splitlines():
        if line.startswith("# input "):
            name, *pairs = line[len("# input "):].split("\t")
            inputs[name] = {k: float(v) for k, v in (pair.split("=") for pair in pairs)}
    return inputs


def human_file(shared_data: Path, name: str) -> dict[str, float]:
    values = (shared_data / "human" / "judgments" / f"seeda_{name}.txt").read_text().split()
    return dict(zip(SEEDA_SYSTEMS, map(float, values)))


def test_window_analysis_equals_seeda_script_printed(shared_data: Path) -> None:
    inputs = window_inputs()
    base = [s for s in SEEDA_SYSTEMS if s not in LEFT_OUT["base"]]
    expected: dict[tuple[str, str, int], list[dict[str, str]]] = {}
    for row in read_tsv(DATA / "meta_seeda_windows.tsv"):
        expected.setdefault((row["metric"], row["human"], int(row["window"])), []).append(row)
    assert len(expected) == 16 and {k[2] for k in expected} == {4, 8}
    for (metric, human, window), rows in expected.items():
        result = window_analysis(inputs[metric], human_file(shared_data, human), window, base)
        assert [(w.start, w.end) for w in result.windows] == [(int(r["start"]), int(r["end"])) for r in rows]
        for got, row in zip(result.windows, rows):
            assert got.pearson == pytest.approx(float(row["pearson"]), abs=1e-12)
            assert got.spearman == pytest.approx(float(row["spearman"]), abs=1e-12)


def test_window_inputs_are_what_the_library_computes(shared_data: Path) -> None:
    sources, references, _ = subset_corpus(shared_data)
    inputs = window_inputs()
    for system in ("BART", "INPUT", "T5"):
        hypothesis = read_lines(str(shared_data / "seeda_subset" / system))
        assert GLEU(fix_seed=True).corpus_score(sources, references, hypothesis).score == inputs["gleu"][system]
        assert GREEN(beta=2.0).corpus_score(sources, references, hypothesis).score == inputs["green"][system]


def test_live_seeda_window_script(shared_data: Path, tmp_path: Path) -> None:
    folder, python = seeda_utils()
    inputs = window_inputs()
    base = [s for s in SEEDA_SYSTEMS if s not in LEFT_OUT["base"]]
    scores = tmp_path / "gleu.txt"
    scores.write_text("".join(f"{inputs['gleu'][s]!r}\n" for s in SEEDA_SYSTEMS))
    for window in (4, 8):
        human = shared_data / "human" / "judgments" / "seeda_TS_sent.txt"
        printed = subprocess.run([python, "window_analysis_system.py", "--human_score", str(human), "--metric_score",
                                  str(scores), "--window_size", str(window)], cwd=folder, capture_output=True,
                                 text=True, check=True).stdout
        values = [float(line.split(": ")[1]) for line in printed.splitlines() if ": " in line]
        result = window_analysis(inputs["gleu"], human_file(shared_data, "TS_sent"), window, base)
        assert values == pytest.approx([v for w in result.windows for v in (w.pearson, w.spearman)], abs=1e-12)


def test_window_bad_input_and_undefined_windows() -> None:
    metric = {"A": 1.0, "B": 1.0, "C": 1.0, "D": 2.0}
    human = {"A": 0.4, "B": 0.3, "C": 0.2, "D": 0.1}
    result = window_analysis(metric, human, 3)
    assert result.systems == ["A", "B", "C", "D"]
    assert result.windows[0].pearson is None and result.windows[1].pearson == pytest.approx(-(3 ** 0.5) / 2)
    with pytest.raises(InputError, match="window must be an integer from 3"):
        window_analysis(metric, human, 2)
    with pytest.raises(InputError, match="without a metric or human score: E"):
        window_analysis(metric, {**human, "E": 0.0}, 3)
    with pytest.raises(InputError, match="metric score but no human score: F"):
        window_analysis({**metric, "F": 0.0}, human, 3)
    with pytest.raises(InputError, match="systems must be a sequence of system names, got 'ABCD'"):
        window_analysis(metric, human, 3, "ABCD")  # was read as the systems A, B, C and D
    with pytest.raises(InputError, match="metric_scores must map each system's name to its score, got a list"):
        window_analysis(list(metric.values()), human, 3)  # was a TypeError from joining the names
    with pytest.raises(InputError, match="human_scores must map each system's name to its score, got a list"):
        window_analysis(metric, list(human.values()), 3)


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), "0.5", [1.0], None, True])
def test_window_scores_must_be_finite_numbers_as_meta_evaluate_requires(bad) -> None:
    # nan gave a window whose correlation was None, "x" a raw ValueError, a list a TypeError
    metric = {"A": 1.0, "B": 3.0, "C": 2.0, "D": 4.0}
    human = {"A": 0.4, "B": 0.3, "C": 0.2, "D": 0.1}
    with pytest.raises(InputError, match=f"metric 'metric', system 'D': {re.escape(repr(bad))} is not a finite"):
        window_analysis({**metric, "D": bad}, human, 3)
    with pytest.raises(InputError, match=f"human score 'EW', system 'A': {re.escape(repr(bad))} is not a finite"):
        window_analysis(metric, {**human, "A": bad}, 3, human="EW")
    with pytest.raises(InputError, match=f"metric 'metric', system 'CUUI': {re.escape(repr(bad))} is not a finite"):
        meta_evaluate({"AMU": 0.5, "CAMB": 0.4, "CUUI": bad})  # the same check, the same words


# --------------------------------------------------------------------------- plots


def test_plots_write_png_and_pdf(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from gecmetrics.output.plots import plot_scatter, plot_windows

    metric = {"A": 0.1, "B": 0.3, "C": 0.2, "D": 0.5, "E": 0.4}
    human = {"A": 0.2, "B": 0.25, "C": 0.3, "D": 0.6, "E": 0.5}
    analysis = window_analysis(metric, human, 3)
    assert plot_windows(analysis, tmp_path / "w.png") == str(tmp_path / "w.png")
    assert (tmp_path / "w.png").read_bytes()[:4] == b"\x89PNG"
    plot_scatter(metric, human, tmp_path / "s.pdf", metric="GREEN", human="EW")
    assert (tmp_path / "s.pdf").read_bytes()[:4] == b"%PDF"
    plot_scatter(metric, human, tmp_path / "s.svg", metric="GREEN", human="EW")
    assert b"<svg" in (tmp_path / "s.svg").read_bytes()[:400]
    with pytest.raises(InputError, match=r"\.png, \.pdf or \.svg"):
        plot_scatter(metric, human, tmp_path / "s.txt")
    with pytest.raises(InputError, match="folder"):
        plot_windows(analysis, tmp_path / "missing" / "w.png")


def test_src_ids_that_look_off_are_said_to(shared_data: Path) -> None:
    """GJG15 with --src-ids 1 (its src-ids count from 0) scored accuracy 0.490 instead of 0.682
    without a word: systems that share a translation (identical outputs) then have different
    sentence scores at the rows given, which the sentence level checks."""
    import warnings

    from gecmetrics.meta.sentence import warn_shared_translations

    judgments = read_judgments(str(shared_data / "human" / "judgments" / "gjg15.xml"))
    folder = shared_data / "conll14"
    sources, references = read_lines(str(folder / "INPUT")), [read_lines(str(folder / "REF0"))]
    scores = {name: np.asarray(GREEN().sentence_scores(sources, references, read_lines(str(folder / name))).scores)
              .reshape(-1, len(sources))[0] for name in ("AMU", "CAMB", "CUUI", "INPUT")}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warn_shared_translations(scores, judgments, rows_of_src_ids(judgments, first_line=0), "GREEN")
    with pytest.warns(UserWarning, match=r"GREEN: of the 1541 pairs of systems that share a translation in .*gjg15"
                                         r"\.xml \(identical outputs\), 96\d have different sentence scores .* the "
                                         r"src-ids look off"):
        warn_shared_translations(scores, judgments, rows_of_src_ids(judgments, first_line=1), "GREEN")
