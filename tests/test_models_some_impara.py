"""SOME and IMPARA (gecmetrics.metrics.models) on CoNLL-2014 AMU/CAMB/CUUI with the tiny seeded
models equal the original code (github kokeman/SOME, gotutiyan/IMPARA) at 4 decimals, sentence
and corpus level, against the numbers it printed (tests/data/models_tiny_*.tsv; made by
tests/data/oracle_some_impara.py); each distinct input is scored once, and bad settings are one
InputError. The maths (truncation, normalisation, gating) is also tested without torch."""
from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

from gecmetrics.core.models.inference import check_parallel, corpus_mean, truncate_pair
from gecmetrics.errors import InputError
from gecmetrics.metrics.models.impara import check_threshold, cosine, gate, sigmoid
from gecmetrics.metrics.models.some import SomeWeights, combine, normalize

DATA = Path(__file__).resolve().parent / "data"
SYSTEMS = ("AMU", "CAMB", "CUUI")
MISSING_EXTRA = "SOME and IMPARA tests need torch and transformers (pip install 'gecmetrics[models]')"
TOLERANCE = 1e-5
"""Equal at 4 decimals, as a distance: a tenth of a unit of the 4th decimal (the float32 noise of
other batch shapes is ~3e-7 here). Printing both with "%.4f" would differ for the few sentences
whose value lies within that noise of a rounding boundary (1-3 of 1312 per system)."""


# --------------------------------------------------------------------------- the maths, no torch


def reference_truncation(first: int, second: int, budget: int) -> tuple[int, int]:
    """transformers 3.0.2's longest_first loop: one token at a time from the longer text,
    from the second on a tie."""
    for _ in range(max(0, first + second - budget)):
        if first > second:
            first -= 1
        else:
            second -= 1
    return first, second


def test_pair_truncation_is_the_python_tokenizers_longest_first() -> None:
    for first, second, budget in itertools.product(range(12), range(12), range(1, 14)):
        assert truncate_pair(first, second, budget) == reference_truncation(first, second, budget), \
            (first, second, budget)


def test_some_combination_normalises_without_clipping() -> None:
    assert normalize(np.array([1.0, 4.0, 2.5, 7.0, -2.0])).tolist() == [0.0, 1.0, 0.5, 2.0, -1.0]
    scores = combine(np.array([4.0]), np.array([1.0]), np.array([2.5]), SomeWeights())
    assert scores[0] == pytest.approx(0.55 * 1.0 + 0.43 * 0.0 + 0.02 * 0.5)
    swapped = combine(np.array([4.0]), np.array([1.0]), np.array([2.5]), SomeWeights(grammar=0.43, fluency=0.55))
    assert swapped[0] == pytest.approx(0.43 + 0.01)
    assert SomeWeights() == SomeWeights(0.55, 0.43, 0.02)


def test_impara_gate_is_strict_and_ungated_sentences_score_zero() -> None:
    similarity = np.array([0.95, 0.9, 0.85, 1.0])
    quality = np.array([0.7, 0.6, 0.5, 0.4])
    assert gate(similarity, quality, 0.9).tolist() == [0.7, 0.0, 0.0, 0.4]
    assert sigmoid(np.array([0.0]))[0] == 0.5
    assert cosine(np.array([[1.0, 0.0], [0.0, 0.0]]), np.array([[2.0, 0.0], [1.0, 1.0]])).tolist() == [1.0, 0.0]
    assert corpus_mean(np.array([0.25, 0.75, 0.5])) == 0.5


@pytest.mark.parametrize("call", [
    lambda: SomeWeights(grammar="0.5"), lambda: SomeWeights(meaning=float("nan")), lambda: SomeWeights(fluency=True),
    lambda: check_threshold("0.9"), lambda: check_threshold(float("inf")), lambda: corpus_mean(np.zeros(0)),
    lambda: check_parallel(["a"], ["a", "b"]), lambda: check_parallel("a b", ["a"]), lambda: check_parallel(["a"], [1]),
])
def test_bad_arguments_of_the_maths_are_input_errors(call) -> None:
    with pytest.raises(InputError):
        call()


@pytest.mark.parametrize("call, message", [
    (lambda: SomeWeights(-1, 0, 0), "SomeWeights must be weights of 0 or more, not all 0, got (-1, 0, 0)"),
    (lambda: SomeWeights(0, 0, 0), "SomeWeights must be weights of 0 or more, not all 0, got (0, 0, 0)"),
    (lambda: check_threshold(5), "the IMPARA threshold must be below 1 (a cosine similarity is at most 1: only the "
                                 "original's float32 rounding passes some sentences there), got 5"),
    (lambda: check_threshold(1.0), "the IMPARA threshold must be below 1 (a cosine similarity is at most 1: only "
                                   "the original's float32 rounding passes some sentences there), got 1.0"),
])
def test_the_scorers_refuse_what_the_metrics_refuse(call, message) -> None:
    """SomeWeights and IMPARA's threshold alone took weights and thresholds the metrics refuse
    (SomeWeights(-1, 0, 0), IMPARAScorer(qe, se, threshold=5)): one check each now, the setting's
    parser calling the scorer's."""
    with pytest.raises(InputError) as refused:
        call()
    assert str(refused.value) == message
    assert SomeWeights(0, 1, 0).fluency == 1 and check_threshold(-999.0) == -999.0 and check_threshold(None) is None


# --------------------------------------------------------------------------- against the originals


def oracle(name: str) -> tuple[dict[str, str], dict[str, list[float]], dict[str, float]]:
    """Header facts (``# key: value``), sentence scores and corpus score per column."""
    facts: dict[str, str] = {}
    rows = []
    for line in (DATA / name).read_text(encoding="utf-8").splitlines():
        if line.startswith("# ") and ": " in line:
            key, value = line[2:].split(": ", 1)
            facts[key.strip()] = value.strip()
        elif line and not line.startswith("#"):
            rows.append(line.split("\t"))
    header, body = rows[0], rows[1:]
    sentences = {column: [float(row[i]) for row in body if row[0] != "corpus"] for i, column in enumerate(header)
                 if i > 0}
    corpus = {column: float(value) for column, value in zip(header[1:], body[-1][1:])}
    assert body[-1][0] == "corpus"
    return facts, sentences, corpus


@pytest.fixture(scope="module")
def backend():
    """Skip without torch and transformers; compute in one thread (the tiny models gain nothing
    from more, and the machine's other cores are left alone)."""
    torch = pytest.importorskip("torch", reason=MISSING_EXTRA)
    pytest.importorskip("transformers", reason=MISSING_EXTRA)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


@pytest.fixture(scope="module")
def some_models(backend, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    from gecmetrics.core.models.tiny_bert_heads import build_some_models

    folder = tmp_path_factory.mktemp("tiny-some")
    return folder, build_some_models(folder)


@pytest.fixture(scope="module")
def impara_models(backend, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    from gecmetrics.core.models.tiny_bert_heads import build_impara_models

    folder = tmp_path_factory.mktemp("tiny-impara")
    return folder, build_impara_models(folder)


def some_scorer(folder: Path, **options):
    from gecmetrics.metrics.models.some import SOMEScorer

    return SOMEScorer(str(folder / "grammer"), str(folder / "fluency"), str(folder / "meaning"),
                      tokenizer=str(folder / "grammer"), **{"device": "cpu", **options})


def impara_scorer(folder: Path, **options):
    from gecmetrics.metrics.models.impara import IMPARAScorer

    return IMPARAScorer(str(folder / "qe"), str(folder / "se"), **{"device": "cpu", **options})


def read_system(conll14: Path, name: str) -> list[str]:
    from gecmetrics.io.text import read_lines

    return read_lines(str(conll14 / name))


def assert_equal_at_4_decimals(label: str, ours: np.ndarray, theirs: list[float]) -> None:
    assert len(ours) == len(theirs), label
    difference = np.abs(np.asarray(ours) - np.asarray(theirs))
    worst = int(np.argmax(difference))
    assert difference[worst] < TOLERANCE, (label, f"sentence {worst + 1}", ours[worst], theirs[worst])


def test_a_similarity_model_of_another_vocabulary_is_one_line(impara_models, tmp_path: Path) -> None:
    """IMPARA feeds the quality estimator's token ids to the similarity model: a model with a
    smaller vocabulary was an IndexError traceback; it is one line naming the model."""
    from gecmetrics.core.models.tiny import build_tiny_bert
    from tests.conftest import one_line_error

    folder, _ = impara_models
    build_tiny_bert(tmp_path / "other")
    (tmp_path / "src").write_text("He go to school every day .\n", encoding="utf-8")
    (tmp_path / "hyp").write_text("He goes to school every day .\n", encoding="utf-8")
    err = one_line_error("--no-cache", "impara", "-s", str(tmp_path / "src"), "-o", str(tmp_path / "hyp"),
                         "--model", str(folder / "qe"), "--se-model", str(tmp_path / "other"))
    assert "the model cannot read these inputs" in err and "token ids beyond its vocabulary" in err


def test_tiny_models_are_the_oracles(some_models, impara_models) -> None:
    some_facts = oracle("models_tiny_some.tsv")[0]
    impara_facts = oracle("models_tiny_impara.tsv")[0]
    for head, value in some_models[1].items():
        assert some_facts[f"weights fingerprint {head}"] == value, head
    for name, value in impara_models[1].items():
        assert impara_facts[f"weights fingerprint {name}"] == value, name
    scorer = some_scorer(some_models[0])
    assert scorer.fingerprints == dict(zip(("grammar", "fluency", "meaning"), some_models[1].values()))
    assert impara_scorer(impara_models[0]).fingerprints == impara_models[1]
    items = scorer.signature_items()
    assert items["grammar_weights"] == some_models[1]["grammer"][:12] and items["weights"] == "0.55,0.43,0.02"
    assert items["dtype"] == "float32" and items["tokenizer"] == str(some_models[0] / "grammer")
    items = impara_scorer(impara_models[0], threshold=0.995).signature_items()
    assert items["se_weights"] == impara_models[1]["se"][:12] and items["threshold"] == "0.995"


def test_some_equals_the_original(some_models, conll14: Path) -> None:
    _, sentences, corpus = oracle("models_tiny_some.tsv")
    sources = read_system(conll14, "INPUT")
    systems = [read_system(conll14, name) for name in SYSTEMS]
    scorer = some_scorer(some_models[0])
    for name, scores in zip(SYSTEMS, scorer.systems_sentence_scores(sources, systems)):
        column = f"default/{name}"
        assert_equal_at_4_decimals(column, scores, sentences[column])
        assert f"{corpus_mean(scores):.4f}" == f"{corpus[column]:.4f}", column
        assert abs(corpus_mean(scores) - corpus[column]) < 1e-6, column
    weighted = some_scorer(some_models[0], weights=SomeWeights(grammar=0.2, fluency=0.3, meaning=0.5))
    column = "g0.2-f0.3-m0.5/AMU"
    scores = weighted.sentence_scores(sources, systems[0])
    assert_equal_at_4_decimals(column, scores, sentences[column])
    assert f"{weighted.corpus_score(sources, systems[0]):.4f}" == f"{corpus[column]:.4f}"


@pytest.mark.parametrize("threshold", [0.9, 0.995])
def test_impara_equals_the_original(impara_models, conll14: Path, threshold: float) -> None:
    _, sentences, corpus = oracle("models_tiny_impara.tsv")
    sources = read_system(conll14, "INPUT")
    systems = [read_system(conll14, name) for name in SYSTEMS]
    scorer = impara_scorer(impara_models[0], threshold=threshold)
    gated = 0
    for name, scores in zip(SYSTEMS, scorer.systems_sentence_scores(sources, systems)):
        column = f"t{threshold}/{name}"
        assert_equal_at_4_decimals(column, scores, sentences[column])
        assert f"{corpus_mean(scores):.4f}" == f"{corpus[column]:.4f}", column
        assert abs(corpus_mean(scores) - corpus[column]) < 1e-6, column
        gated += int(np.sum(scores == 0.0))
    assert (gated > 500) == (threshold == 0.995), gated  # the second threshold exercises the gate


def counting(monkeypatch, module) -> list[int]:
    """Record the number of inputs of every batched model run of ``module``."""
    sizes: list[int] = []
    original = module.run_batches

    def run_batches(inputs, *args):
        sizes.append(len(inputs))
        return original(inputs, *args)

    monkeypatch.setattr(module, "run_batches", run_batches)
    return sizes


def test_some_scores_each_distinct_input_once(some_models, monkeypatch) -> None:
    from gecmetrics.metrics.models import some

    sources = ["A cat sat .", "He go home .", "A cat sat ."]
    systems = [["A cat sat .", "He goes home .", "A cat sat ."], ["A cat sat .", "He went home .", "A cat sat ."],
               ["A cat sat .", "He goes home .", "The cat sat ."]]
    alone = [some_scorer(some_models[0]).sentence_scores(sources, hypotheses) for hypotheses in systems]
    sizes = counting(monkeypatch, some)
    scorer = some_scorer(some_models[0])
    together = scorer.systems_sentence_scores(sources, systems)
    # grammar and fluency: 4 distinct hypotheses; meaning: 4 distinct (source, hypothesis) pairs
    assert sizes == [4, 4, 4]
    for one, other in zip(alone, together):
        np.testing.assert_allclose(one, other, rtol=0, atol=1e-6)
    assert together[0][0] == together[0][2] and together[0][0] == together[1][0]
    again = scorer.sentence_scores(sources, systems[1])
    assert sizes == [4, 4, 4] and again.tolist() == together[1].tolist()


def test_impara_scores_each_distinct_input_once(impara_models, monkeypatch) -> None:
    from gecmetrics.metrics.models import impara

    sources = ["A cat sat .", "He go home .", "A cat sat ."]
    systems = [["A cat sat .", "He goes home .", "A cat sat ."], ["A cat sat .", "He went home .", "A cat sat ."],
               ["A cat sat .", "He goes home .", "Totally unrelated words here , and many more of them !"]]
    alone = [impara_scorer(impara_models[0]).sentence_scores(sources, hypotheses) for hypotheses in systems]
    sizes = counting(monkeypatch, impara)
    scorer = impara_scorer(impara_models[0])
    together = scorer.systems_sentence_scores(sources, systems)
    # embeddings: 5 distinct sentences; quality: the distinct hypotheses that pass the threshold
    similarities = np.concatenate([scorer.similarities(sources, hypotheses) for hypotheses in systems])
    hypotheses = [text for system in systems for text in system]
    passing = {text for text, value in zip(hypotheses, similarities) if value > scorer.threshold}
    assert sizes == [5, len(passing)]
    for one, other in zip(alone, together):
        np.testing.assert_allclose(one, other, rtol=0, atol=1e-6)
    qualities = scorer.qualities(hypotheses)
    expected = np.where(similarities > scorer.threshold, qualities, 0.0)
    np.testing.assert_allclose(np.concatenate(together), expected, rtol=0, atol=1e-12)


def test_empty_and_overlong_sentences_are_scored(some_models, impara_models) -> None:
    long = " ".join(["word"] * 300)
    sources, hypotheses = ["A cat sat .", long], ["", long + " again"]
    some_scores = some_scorer(some_models[0]).sentence_scores(sources, hypotheses)
    impara_scores = impara_scorer(impara_models[0]).sentence_scores(sources, hypotheses)
    assert np.all(np.isfinite(some_scores)) and np.all(np.isfinite(impara_scores))
    scorer = some_scorer(some_models[0])
    ids, types = scorer.encoder.pair(long, long + " again")
    assert len(ids) == 128 and types.count(0) == 65 and types.count(1) == 63
    assert len(scorer.encoder.single(long)[0]) == 128
    assert some_scorer(some_models[0]).sentence_scores([], []).shape == (0,)


def test_reduced_precision_runs(some_models, impara_models) -> None:
    sources, hypotheses = ["He go home .", "A cat sat ."], ["He goes home .", "A cat sat ."]
    full = some_scorer(some_models[0]).sentence_scores(sources, hypotheses)
    half = some_scorer(some_models[0], dtype="bfloat16").sentence_scores(sources, hypotheses)
    np.testing.assert_allclose(half, full, atol=0.05)
    assert np.all(np.isfinite(impara_scorer(impara_models[0], dtype="bfloat16").sentence_scores(sources, hypotheses)))


@pytest.mark.parametrize("options", [{"batch_size": 0}, {"batch_size": 2.5}, {"max_length": 3}, {"device": "tpu"},
                                     {"device": "cuda:x"}, {"dtype": "float64"}, {"weights": (0.5, 0.3, 0.2)}])
def test_some_bad_settings_are_input_errors(some_models, options) -> None:
    with pytest.raises(InputError):
        some_scorer(some_models[0], **options)


@pytest.mark.parametrize("options", [{"threshold": "high"}, {"batch_size": -1}, {"dtype": "int8"}, {"device": ""},
                                     {"max_length": True}])
def test_impara_bad_settings_are_input_errors(impara_models, options) -> None:
    with pytest.raises(InputError):
        impara_scorer(impara_models[0], **options)


def test_bad_models_are_input_errors(some_models, impara_models, tmp_path: Path) -> None:
    from gecmetrics.metrics.models.impara import IMPARAScorer
    from gecmetrics.metrics.models.some import SOMEScorer

    some_folder, impara_folder = some_models[0], impara_models[0]
    heads = [str(some_folder / head) for head in ("grammer", "fluency", "meaning")]
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="no config.json"):
        SOMEScorer(str(tmp_path / "empty"), *heads[1:], tokenizer=heads[0], device="cpu")
    with pytest.raises(InputError, match="no such model folder"):
        SOMEScorer(*heads, tokenizer=str(tmp_path / "missing"), device="cpu")
    with pytest.raises(InputError, match="not a one-output sequence classifier.*holds a BertModel"):  # no classifier
        IMPARAScorer(str(impara_folder / "se"), str(impara_folder / "se"), device="cpu")
    scorer = impara_scorer(impara_folder)
    with pytest.raises(InputError, match="2 hypotheses for 1 source:"):
        scorer.sentence_scores(["a"], ["a", "b"])
    with pytest.raises(InputError, match="must be a string"):
        some_scorer(some_folder).sentence_scores(["a"], [None])


def test_the_shipped_vocabulary_is_rebuilt_from_conll14(shared_data: Path) -> None:
    import subprocess
    import sys

    script = Path(__file__).resolve().parent / "data" / "build_conll14_vocab.py"
    completed = subprocess.run([sys.executable, str(script), "--check", "--data", str(shared_data / "conll14")],
                               capture_output=True, text=True)
    assert completed.returncode == 0 and completed.stdout.startswith("same"), completed.stdout + completed.stderr


def test_benchmark_quick_run_reports_our_timing(backend, shared_data: Path) -> None:
    import re
    import subprocess
    import sys

    script = Path(__file__).resolve().parent.parent / "benchmarks" / "models_some_impara.py"
    completed = subprocess.run([sys.executable, str(script), "--quick", "--no-peers"], capture_output=True, text=True,
                               timeout=600)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    for metric in ("SOME", "IMPARA"):
        assert f"## {metric}" in completed.stdout, completed.stdout
    lines = re.findall(r"^ours  all systems, one process\s+cpu\s+\d+\.\d+ s\s+wall\s+\d+\.\d+ s.*AMU \d\.\d{4}",
                       completed.stdout, re.MULTILINE)
    assert len(lines) == 2, completed.stdout
    # each metric's compare, cold then warm (the warm run reads everything back and prints the same)
    assert completed.stdout.count("warm runs print the cold run's bytes: yes") == 2, completed.stdout


def test_direct_bert_equals_transformers(some_models, impara_models) -> None:
    """The models computed from their weights (direct_bert) give transformers' numbers on padded
    batches with token types, and the same weights fingerprint."""
    import torch

    from gecmetrics.core.models.inference import Encoder, _load_with_transformers, load_model

    folder = some_models[0]
    encoder = Encoder(str(folder / "meaning"), 128)
    rows = [encoder.pair("He go to school .", "He goes to school ."), encoder.single("Yes ."),
            encoder.pair("", "A much longer sentence , with a comma and more words in it .")]
    width = max(len(ids) for ids, _ in rows)
    ids = torch.tensor([list(i) + [0] * (width - len(i)) for i, _ in rows])
    types = torch.tensor([list(t) + [0] * (width - len(t)) for _, t in rows])
    mask = torch.tensor([[1] * len(i) + [0] * (width - len(i)) for i, _ in rows])
    cases = [(folder / "meaning", "regressor"), (impara_models[0] / "qe", "regressor"),
             (impara_models[0] / "se", "encoder")]
    for path, kind in cases:
        direct = load_model(str(path), kind, "cpu")
        reference = _load_with_transformers(str(path), str(path), kind, "cpu", torch.device("cpu"), torch.float32)
        assert direct.direct and not reference.direct and direct.fingerprint == reference.fingerprint
        with torch.inference_mode():
            if kind == "regressor":
                ours, theirs = direct.model.regress(ids, mask, types), reference.model.regress(ids, mask, types)
            else:
                ours, theirs = direct.model.states(ids, mask, types), reference.model.states(ids, mask, types)
                ours, theirs = ours[mask.bool()], theirs[mask.bool()]
        torch.testing.assert_close(ours, theirs, rtol=0, atol=2e-5)


# impara.py (commit 1c5aa97d, environment of tests/data/models_tiny_impara.tsv) on three lines
# whose second hypothesis is empty (not at the end of the file, where impara.py would drop it):
#   python _on_cpu.py impara.py --src_file S --pred_file H --restore_dir FOLDER/qe --level sentence
EMPTY_LINE_SOURCES = ["This are a test .", "He go home .", "She like it ."]
EMPTY_LINE_HYPOTHESES = ["This is a test .", "", "She likes it ."]
EMPTY_LINE_ORACLE = [0.7667592763900757, 0.0, 0.7167247533798218]


def test_impara_scores_an_empty_hypothesis_as_the_original(impara_models) -> None:
    scores = impara_scorer(impara_models[0]).sentence_scores(EMPTY_LINE_SOURCES, EMPTY_LINE_HYPOTHESES)
    assert_equal_at_4_decimals("empty line", scores, EMPTY_LINE_ORACLE)


# some.py (commit 83fd6f05) loads transformers' Python BertTokenizer, which NFC-normalizes the text
# (transformers >= 4.29; 4.46.3 here, the environment of tests/data/models_tiny_some.tsv): a
# decomposed accent (e + U+0301), the Kelvin sign (U+212A -> K) and the Greek question mark
# (U+037E -> ;) are read as their composed forms; the Rust tokenizer keeps them and gives [UNK]:
#   python _on_cpu.py some.py H S --g-dir FOLDER/grammer --f-dir FOLDER/fluency --m-dir FOLDER/meaning
#   (bert-base-cased in the working folder: a copy of FOLDER/grammer); with --system: 0.552524655395084
NFC_SOURCES = ["He went to the cafe\u0301 .", "The \u212a value is 5 .", "Is it five dollars\u037e"]
NFC_HYPOTHESES = ["He go to the cafe\u0301 today .", "The \u212a value are 5 .", "Is it five dollar\u037e"]
NFC_ORACLE = [0.5938106775283815, 0.5142999029159546, 0.549463385740916]


def test_some_tokenizes_as_the_python_bert_tokenizer_of_some_py(some_models) -> None:
    scorer = some_scorer(some_models[0])
    assert_equal_at_4_decimals("NFC", scorer.sentence_scores(NFC_SOURCES, NFC_HYPOTHESES), NFC_ORACLE)
    assert abs(scorer.corpus_score(NFC_SOURCES, NFC_HYPOTHESES) - 0.552524655395084) < 1e-6
    assert scorer.encoder.ids("cafe\u0301") == scorer.encoder.ids("caf\u00e9")
