"""Standalone BERTScore: idf weights and baselines as bert_score defines them (no torch needed);
with the tiny BERT, sentence P, R, F and corpus means on CoNLL-2014 equal what the bert-score
command printed (tests/data/models_tiny_bertscore.tsv and its sentence rows) at 4 decimals in
six configurations (package conventions with two references, with the fast and the slow
tokenizer; idf; one reference, another layer and a baseline file; no rescaling; layer 1 with
idf), and for the empty system; scoring systems together equals scoring each alone; bad
arguments are one InputError."""
from __future__ import annotations

import gzip
import math
import os
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import run_cli

from gecmetrics.errors import InputError
from gecmetrics.metrics.models.bertscore import baseline_row, idf_table

DATA = Path(__file__).resolve().parent / "data"
EXPECTED = DATA / "models_tiny_bertscore.tsv"
SENTENCES = DATA / "models_tiny_bertscore_sentences.tsv.gz"
CUSTOM_BASELINE = DATA / "bertscore_custom_baseline.tsv"
MISSING_EXTRA = "model metric tests need torch and transformers (pip install 'gecmetrics[models]')"
SYSTEMS = ("AMU", "CAMB", "CUUI")


def read_expected() -> tuple[dict[str, str], list[dict[str, str]]]:
    """The header facts of the corpus file and the rows of the (gzip) sentence file."""
    facts = {}
    for line in EXPECTED.read_text(encoding="utf-8").split("\n"):
        if line.startswith("# ") and ": " in line:
            key, value = line[2:].split(": ", 1)
            facts[key.strip()] = value.strip()
    lines = [line.split("\t") for line in gzip.decompress(SENTENCES.read_bytes()).decode("utf-8").split("\n") if line]
    return facts, [dict(zip(lines[0], row)) for row in lines[1:]]


# ----------------------------------------------------------------------------- no model


def test_idf_table_is_bert_scores() -> None:
    """log((M + 1) / (c + 1)) over reference sentences counted once each, duplicates included."""
    table, default = idf_table([(101, 7, 7, 102), (101, 8, 102), (101, 7, 102)])
    assert default == math.log(4)
    assert table == {101: 0.0, 102: 0.0, 7: math.log(4 / 3), 8: math.log(4 / 2)}


def test_baselines_follow_the_package_conventions(tmp_path: Path) -> None:
    assert baseline_row("none", "bert-base-uncased", 9) is None
    auto = baseline_row("auto", "bert-base-uncased", 9)
    assert auto.dtype == np.float32 and auto.tolist() == np.array([0.35375935, 0.3537393, 0.35219112],
                                                                  dtype=np.float32).tolist()
    custom = baseline_row(str(CUSTOM_BASELINE), "anything", 4)
    assert custom.tolist() == np.array([0.3273558, 0.4480556, 0.2371406], dtype=np.float32).tolist()
    with pytest.raises(InputError, match="no rescaling baseline known"):
        baseline_row("auto", "no-such-model-here", 9)
    with pytest.raises(InputError, match="no rescaling baseline known"):
        baseline_row("auto", "bert-base-uncased", 9, lang="xx")
    with pytest.raises(InputError, match="cannot read the baseline file"):
        baseline_row(str(tmp_path / "missing.tsv"), "bert-base-uncased", 9)
    with pytest.raises(InputError, match="no row for layer 20"):
        baseline_row(str(CUSTOM_BASELINE), "bert-base-uncased", 20)
    with pytest.raises(InputError, match="no bert-base-uncased baseline for layer 13"):
        baseline_row("auto", "bert-base-uncased", 13)


def test_blank_lines_of_a_baseline_file_are_not_rows(tmp_path: Path) -> None:
    """bert_score reads row ``layer`` of ``pd.read_csv(path)``, which skips blank and
    whitespace-only lines: counting them as rows took the row above (layer 2 rescaled with
    layer 1's values, 0.8728 for the original's 0.8546) or refused a good file (found by a
    differential fuzz against bert-score 0.3.13)."""
    from gecmetrics.core.models.bertscore import read_baseline_file

    path = tmp_path / "baseline.tsv"
    path.write_text("\nLAYER,P,R,F\n0,0.1,0.1,0.1\n\n   \n1,0.2,0.2,0.2\r\n2,0.3,0.3,0.3\n\n", encoding="utf-8")
    for layer in range(3):
        assert read_baseline_file(str(path), layer).tolist() == pytest.approx([0.1 * (layer + 1)] * 3)
    path.write_text("LAYER,P,R,F\n0,0.1,0.1,0.1\n\n1,0.2,x,0.2\n", encoding="utf-8")
    with pytest.raises(InputError, match="malformed baseline row for layer 1") as bad:
        read_baseline_file(str(path), 1)
    assert bad.value.line == 4


@pytest.mark.parametrize("content, message", [
    ("root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n" * 6, "header LAYER,P,R,F"),
    (b"\x89PNG\r\n\x1a\n\x00\xff\xfe" * 40, "not CSV text"),
    ("LAYER,P,R,F\n" + "0,0.1,0.2\n" * 12, "malformed baseline row for layer 9"),
    ("LAYER,P,R,F\n" + "0,0.1,0.2,0.3,0.4\n" * 12, "malformed baseline row for layer 9"),
    ("LAYER,P,R,F\n" + "0,0.1,nan,0.3\n" * 12, "malformed baseline row for layer 9"),
    # float() reads these as 1.0 and 0.5; pandas leaves them text and bert_score fails on them
    ("LAYER,P,R,F\n" + "0,0_1,0.2,0.3\n" * 12, "malformed baseline row for layer 9"),
    ("LAYER,P,R,F\n" + "0,0.1,\u0660.5,0.3\n" * 12, "malformed baseline row for layer 9"),
])
def test_a_file_that_is_not_a_baseline_is_one_line(tmp_path: Path, content: str | bytes, message: str) -> None:
    """``bertscore:baseline=/etc/passwd`` and the like: one InputError naming the file, never an
    array-shape ValueError later."""
    path = tmp_path / "baseline"
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    with pytest.raises(InputError, match=message) as error:
        baseline_row(str(path), "bert-base-uncased", 9)
    assert str(path) in str(error.value) and "\n" not in str(error.value)


@pytest.mark.parametrize("row, shown", [("1.0,1.0,1.0", "P 1.0, R 1.0, F 1.0"), ("0.99999999,0.3,0.3", "P 0.99999999"),
                                        ("0.3,1.5,0.3", "R 1.5")])
def test_a_baseline_of_1_or_more_is_refused_at_its_row(tiny_bert_here: Path, tmp_path: Path, row: str,
                                                       shown: str) -> None:
    """Scores are rescaled as (x - b) / (1 - b): a baseline of 1 (or 0.99999999, 1 in float32)
    gave NumPy's divide warnings and then a 0/0 error blaming a hypothesis line, and one above 1
    (1.5) was taken (P 100.89). Now one line naming the file and the row."""
    from gecmetrics.core.models.bertscore import read_baseline_file

    path = tmp_path / "baseline.tsv"
    path.write_text("LAYER,P,R,F\n" + "".join(f"{k},0.3,0.3,0.3\n" for k in range(9)) + f"9,{row}\n",
                    encoding="utf-8")
    with pytest.raises(InputError) as bad:
        read_baseline_file(str(path), 9)
    assert str(bad.value) == (f"{path}:11: baseline row for layer 9 has {shown}: a baseline must be below 1 (scores "
                              "are rescaled as (x - b) / (1 - b))")
    assert read_baseline_file(str(path), 8).tolist() == pytest.approx([0.3] * 3)
    code, _, err = run_cli("bertscore", "-s", str(path), "-r", str(path), "-o", str(path), "--model",
                           str(tiny_bert_here), "--layer", "9", "--baseline", str(path))
    assert code == 2 and err.strip() == f"gecmetric: error: {bad.value}", err


# ----------------------------------------------------------------------------- with the tiny BERT


@pytest.fixture(scope="module")
def tiny_bert_here(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the tiny BERT as ``bert-base-uncased`` (how the oracle was run: the
    package's name conventions pick layer 9 and the en/bert-base-uncased baseline)."""
    pytest.importorskip("torch", reason=MISSING_EXTRA)
    pytest.importorskip("transformers", reason=MISSING_EXTRA)
    from gecmetrics.core.models.tiny import build_tiny_bert

    folder = tmp_path_factory.mktemp("bertscore") / "bert-base-uncased"
    build_tiny_bert(folder)
    return folder


@pytest.fixture(scope="module")
def conll(conll14: Path) -> dict[str, list[str]]:
    """The files as the bert-score command reads them (``line.strip()``)."""
    def read(name: str) -> list[str]:
        with open(conll14 / name, encoding="utf-8") as handle:
            return [line.strip() for line in handle]

    return {name: read(name) for name in ("REF0", "REF1", "NULL", *SYSTEMS)}


CONFIGURATIONS = {
    # name: (BertScorer options, reference files); the model is "bert-base-uncased" read from the
    # working folder (the tiny BERT's parent), as the command was run; C names the folder's path
    "A": ({"baseline": "auto"}, ("REF0", "REF1")),
    "B": ({"baseline": "auto", "idf": True}, ("REF0", "REF1")),
    "C": ({"num_layers": 4, "baseline": str(CUSTOM_BASELINE), "idf": True, "model": None}, ("REF0",)),
    "D": ({"num_layers": 6, "baseline": "none"}, ("REF0", "REF1")),
    "F": ({"num_layers": 1, "baseline": "none", "idf": True}, ("REF0", "REF1")),
}
"""E (the slow tokenizer) has A's settings: only its corpus numbers are stored."""


def scorer_for(folder: Path, name: str, conll: dict[str, list[str]]):
    from gecmetrics.metrics.models.bertscore import BertScorer

    options, references = dict(CONFIGURATIONS[name][0]), CONFIGURATIONS[name][1]
    model = str(folder) if options.pop("model", "") is None else "bert-base-uncased"
    here = os.getcwd()
    os.chdir(folder.parent)
    try:
        scorer = BertScorer(model, device="cpu", **options)
    finally:
        os.chdir(here)
    scorer.prepare([conll[reference] for reference in references])
    return scorer


@pytest.fixture(scope="module")
def prepared(tiny_bert_here: Path, conll):
    """``prepared(name)``: configuration ``name``'s scorer with its references prepared, made once
    for the module (the tests that count what a scorer encodes make their own)."""
    made: dict = {}

    def scorer(name: str):
        if name not in made:
            made[name] = scorer_for(tiny_bert_here, name, conll)
        return made[name]

    return scorer


@pytest.mark.parametrize("name", sorted(CONFIGURATIONS))
def test_conll14_equals_the_bert_score_package(name: str, prepared, conll) -> None:
    facts, rows = read_expected()
    scorer = prepared(name)
    for system in SYSTEMS:
        result = scorer.score(conll[system])
        expected = np.array([[float(row[f"{name}_{part}"]) for part in "PRF"] for row in rows if row["system"] == system])
        assert expected.shape == (len(conll[system]), 3)
        assert np.abs(result.sentences - expected).max() < 5e-5, (name, system)
        ours = np.array([result.corpus[part] for part in "PRF"])
        corpus = [float(value) for value in facts[f"corpus {name} {system}"].split()]
        assert np.abs(ours - corpus).max() < 5e-5, (name, system)
        if name == "A":  # the slow tokenizer gives the same numbers
            assert np.abs(ours - [float(value) for value in facts[f"corpus E {system}"].split()]).max() < 5e-5


@pytest.mark.parametrize("name", ["A", "B"])
def test_empty_hypotheses_as_the_package(name: str, prepared, conll) -> None:
    """NULL (empty lines): raw P = R = F = 0, so each is -b / (1 - b) after rescaling."""
    facts, _ = read_expected()
    result = prepared(name).score(conll["NULL"])
    baseline = baseline_row("auto", "bert-base-uncased", 9)
    assert np.array_equal(result.sentences, np.tile(-baseline / (np.float32(1) - baseline), (len(conll["NULL"]), 1)))
    corpus = [float(value) for value in facts[f"corpus {name} NULL"].split()]
    assert np.abs(np.array([result.corpus[part] for part in "PRF"]) - corpus).max() < 5e-6


def test_systems_scored_together_equal_each_alone(tiny_bert_here: Path, conll) -> None:
    """On the first 300 lines of every file (each of the four scorers encodes its references and
    their idf: 2 x 1312 lines on the whole corpus): 200 system lines, then 100 empty hypotheses."""
    head = {name: lines[:300] for name, lines in conll.items()}
    shared = scorer_for(tiny_bert_here, "B", head)
    together = {system: shared.score(head[system][:200] + [""] * 100).sentences for system in SYSTEMS}
    encoded_together = shared.scorer.encoded_count
    encoded_alone = 0
    for system in SYSTEMS:
        alone = scorer_for(tiny_bert_here, "B", head)
        assert np.array_equal(alone.score(head[system][:200] + [""] * 100).sentences, together[system])
        encoded_alone += alone.scorer.encoded_count
    assert encoded_together < encoded_alone


def test_argument_checks(tiny_bert_here: Path, tmp_path: Path, conll) -> None:
    from gecmetrics.metrics.models.bertscore import BertScorer, bertscore

    with pytest.raises(InputError, match="no default layer"):
        BertScorer(str(tiny_bert_here / ".." / "bert-base-uncased"))
    with pytest.raises(InputError, match="no such model folder"):
        BertScorer(str(tmp_path / "missing"), num_layers=2)
    with pytest.raises(InputError, match="idf"):
        BertScorer(str(tiny_bert_here), num_layers=2, idf="yes")
    with pytest.raises(InputError, match="batch_size"):
        BertScorer(str(tiny_bert_here), num_layers=2, batch_size=0)
    with pytest.raises(InputError, match="num_layers \\(--layer\\) must be between 0 and 12"):
        BertScorer(str(tiny_bert_here), num_layers=13)
    scorer = BertScorer(str(tiny_bert_here), num_layers=2)
    with pytest.raises(InputError, match="prepare"):
        scorer.score(["a"])
    with pytest.raises(InputError, match="reference set 2 has 1 sentence,"):
        scorer.prepare([["a", "b"], ["a"]])
    with pytest.raises(InputError, match="at least one reference set"):
        scorer.prepare([])
    scorer.prepare([["a", "b"]])
    with pytest.raises(InputError, match="1 hypothesis for 2 reference sentences"):
        scorer.score(["a"])
    with pytest.raises(InputError, match=r"hypotheses\[1\] must be a string, got int"):
        scorer.score(["a", 3])
    # the metrics' checks (a flat list of strings is one reference set without its list; a string
    # is no list of sentences): "reference set 2 has 22 sentences, the first has 37" before
    with pytest.raises(InputError, match="got a list of strings; one reference set is written \\[lines\\]"):
        scorer.prepare(["the cat sat on the mat .", "a dog ."])
    with pytest.raises(InputError, match="must be a sequence of sentences"):
        scorer.score("ab")
    result = bertscore(["the cat ."], [["the cat ."]], model=str(tiny_bert_here), num_layers=2)
    assert np.allclose(result.sentences, 1.0, atol=1e-6)


# bert_score.score(H, R, model_type=FOLDER, num_layers=9) (bert-score 0.3.13 from PyPI, reporting
# 0.3.12; transformers 4.46.3, Python 3.11), FOLDER the tiny BERT: its default use_fast_tokenizer=False
# loads transformers' Python BertTokenizer, which drops the noncharacters U+FDD0 and U+FFFF
# (category Cn); with use_fast_tokenizer=True (the Rust tokenizer, and the default of the bert-score
# command) F was 0.907069 0.997486 0.985837 0.864051, as we computed before taking the Python one.
ODD_HYPOTHESES = ["There is a \ufdd0 problem .", "He has many friend\uffff in the school .", "The people are happy .",
                  "Genetic testing is important ."]
ODD_REFERENCES = ["There is a problem .", "He has many friends in the school .", "The people are happy \ufdd0 .",
                  "Genetic testing is very important ."]
ODD_ORACLE = [[1.0000001192092896, 0.9695479869842529, 1.0, 0.8640233874320984],
              [1.0000001192092896, 0.9695165157318115, 1.0, 0.8640792369842529],
              [1.0000001192092896, 0.9695322513580322, 1.0, 0.8640512824058533]]


def test_tokenized_as_bert_score_does_by_default(tiny_bert_here: Path) -> None:
    from gecmetrics.metrics.models.bertscore import BertScorer

    scorer = BertScorer(str(tiny_bert_here), num_layers=9, baseline="none", device="cpu")
    scorer.prepare([ODD_REFERENCES])
    assert np.abs(scorer.score(ODD_HYPOTHESES).sentences.T - np.array(ODD_ORACLE)).max() < 1e-5
