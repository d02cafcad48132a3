"""One Python call shape on every registered metric (issue 32): ``corpus_score(sources,
references, hypothesis)`` equals what ``compare`` gives for that metric on the same corpus, and
``sentence_scores`` has one value per sentence and equals the engine's sentence scores, for
every name of ``list_metrics()`` (tiny seeded models where a metric needs one, a loopback chat
server for the LLM judges, real CoNLL-2014 lines); the inputs are checked by kind; results
print in one line and repr without their arrays.

:func:`expected_rows` is the table's hook: per metric and system, what the engine gives (corpus
scores, sentence scores). A command-line comparison (``gecmetric NAME --sentence``) adds its
rows there and is checked by the same test."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests._llm_support import ChatServer
from tests.conftest import SPACY_TEST_MODEL

from gecmetrics import InputError, compare, get_metric, list_metrics
from gecmetrics.io.corpus import Corpus
from gecmetrics.io.m2 import parse_m2, read_m2
from gecmetrics.io.text import read_lines
from gecmetrics.kinds import M2, NONE, TEXT
from gecmetrics.metrics.results import SentenceScores
from gecmetrics.run.engine import score_corpus

SENTENCES = 12
"""CoNLL-2014 sentences of the table (enough for every metric's choices to differ)."""
SYSTEMS = ("AMU", "CAMB", "INPUT")
MODEL_METRICS = {"pt-m2", "pt-errant", "some", "impara", "scribendi", "bertscore"}
"""Registered names that need torch and a (tiny) model."""
SPACY_METRICS = {"errant", "llm-e"}
"""Registered names that parse with spaCy (besides those reading hypothesis M2, annotated by it)."""


def table_names() -> list[Any]:
    """Every registered name, the model metrics marked ``models``."""
    return [pytest.param(info.name, marks=pytest.mark.models) if info.name in MODEL_METRICS else info.name
            for info in list_metrics()]


# --------------------------------------------------------------------------- the corpus


@dataclass
class Case:
    """The table's corpus: sources, reference sets, gold M2, the systems as text and as M2."""

    sources: list[str]
    references: list[list[str]]
    gold: list[Any]
    systems: dict[str, list[str]]
    hypothesis_m2: dict[str, list[Any]] = field(default_factory=dict)


@pytest.fixture(scope="module")
def case(conll14: Path) -> Case:
    sources = read_lines(str(conll14 / "INPUT"))[:SENTENCES]
    return Case(sources, [read_lines(str(conll14 / name))[:SENTENCES] for name in ("REF0", "REF1")],
                read_m2(str(conll14 / "official-2014.combined.m2"))[:SENTENCES],
                {name: read_lines(str(conll14 / name))[:SENTENCES] for name in SYSTEMS})


def with_hypothesis_m2(case: Case) -> Case:
    """The systems' M2, annotated by gecmetrics' ERRANT (errant_parallel) once per module."""
    if not case.hypothesis_m2:
        from gecmetrics.metrics.errant.metric import AnnotationJob

        corpus = Corpus(case.sources, case.references, case.systems)
        case.hypothesis_m2 = {name: AnnotationJob(spacy_model=SPACY_TEST_MODEL, hypotheses=(name,))(corpus)
                              for name in case.systems}
    return case


@pytest.fixture(scope="module")
def server():
    with ChatServer() as chat:
        yield chat


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The tiny seeded models (built on first use; torch on one thread meanwhile)."""
    return {"folder": tmp_path_factory.mktemp("tiny-models")}


def tiny_models(tiny: dict[str, Path]) -> dict[str, Path]:
    torch = pytest.importorskip("torch", reason="the model metrics need torch and transformers")
    pytest.importorskip("transformers", reason="the model metrics need torch and transformers")
    torch.set_num_threads(1)
    if "bert" not in tiny:
        from gecmetrics.core.models.tiny import build_tiny_bert
        from gecmetrics.core.models.tiny_bert_heads import build_impara_models, build_some_models
        from gecmetrics.core.models.tiny_gpt2 import build_tiny_gpt2

        folder = tiny["folder"]
        build_tiny_bert(folder / "bert" / "bert-base-uncased")
        build_tiny_gpt2(folder / "gpt2")
        build_some_models(folder / "some")
        build_impara_models(folder / "impara")
        tiny.update(bert=folder / "bert" / "bert-base-uncased", gpt2=folder / "gpt2", some=folder / "some",
                    impara=folder / "impara")
    return tiny


def metric_settings(name: str, request: pytest.FixtureRequest) -> dict[str, Any]:
    """The settings a registered name is scored with here: its defaults, with the tiny models, the
    test spaCy model or the loopback server where it needs one (a plugin: its defaults)."""
    if name in SPACY_METRICS:
        request.getfixturevalue("spacy_model")
    if name == "errant":
        return {"spacy_model": SPACY_TEST_MODEL}
    if name in ("llm-s", "llm-e"):
        server = request.getfixturevalue("server")
        more = {"spacy_model": SPACY_TEST_MODEL} if name == "llm-e" else {}
        return {"provider": "openai-compatible", "model": "test-model", "base_url": server.url, **more}
    if name not in MODEL_METRICS:
        return {}
    models = tiny_models(request.getfixturevalue("tiny"))
    if name in ("pt-m2", "pt-errant"):
        return {"model": str(models["bert"]), "num_layers": 9, "baseline": "bert-base-uncased", "device": "cpu"}
    if name == "bertscore":
        return {"model": str(models["bert"]), "num_layers": 9, "baseline": "bert-base-uncased", "device": "cpu"}
    if name == "scribendi":
        return {"model": str(models["gpt2"]), "device": "cpu"}
    if name == "some":
        return {"model": str(models["some"]), "tokenizer": str(models["some"] / "grammer"), "device": "cpu",
                "threads": 1}
    return {"model": str(models["impara"] / "qe"), "se_model": str(models["impara"] / "se"), "device": "cpu",
            "threads": 1}


def inputs(metric: Any, case: Case) -> tuple[Any, Any, dict[str, list[Any]]]:
    """(sources, references, systems) of the one call shape, by the metric's kinds: gold M2
    metrics and BERTScore take no sources, reference-free metrics no references."""
    kind = metric.reference_kind
    references = {TEXT: case.references, M2: case.gold, NONE: None}[kind]
    sources = None if kind == M2 or not metric.reads_sources else case.sources
    systems = case.hypothesis_m2 if metric.hypothesis_kind == M2 else case.systems
    return sources, references, systems


# --------------------------------------------------------------------------- the expected rows (the hook)


def expected_rows(metric: Any, case: Case) -> dict[str, dict[str, Any]]:
    """What the table compares the one call shape with, per system: the corpus scores
    ``compare`` gives (every system scored together, in the corpus's order) and the sentence
    scores of the engine (``sentence_from_statistics`` of ``score_corpus``'s statistics). A
    command-line source of the same rows (``gecmetric NAME --sentence``) is added here."""
    kind = metric.reference_kind
    table = compare(case.sources, case.references if kind == TEXT else [], case.systems, [metric],
                    m2_blocks=case.gold if kind == M2 else None,
                    hypothesis_m2=case.hypothesis_m2 if metric.hypothesis_kind == M2 else None)
    rows: dict[str, dict[str, Any]] = {name: {"scores": [float(s) for s in table.results[name][0].scores]}
                                       for name in case.systems}
    if metric.has_sentence_scores:
        corpus = Corpus(case.sources, case.references if kind == TEXT else [], dict(case.systems),
                        case.gold if kind == M2 else None,
                        hypothesis_m2=case.hypothesis_m2 if metric.hypothesis_kind == M2 else {})
        scored = score_corpus([metric], corpus)
        for name in case.systems:
            rows[name]["sentences"] = metric.sentence_matrix(scored.statistics[name][0])
    return rows


# --------------------------------------------------------------------------- the table


@pytest.mark.parametrize("name", table_names())
def test_one_call_shape_equals_compare_and_the_engine(name, case, request):
    settings = metric_settings(name, request)
    metric = get_metric(name, **settings)
    if metric.hypothesis_kind == M2:
        request.getfixturevalue("spacy_model")
        with_hypothesis_m2(case)
    sources, references, systems = inputs(metric, case)
    expected = expected_rows(metric, case)
    for system, hypothesis in systems.items():
        result = metric.corpus_score(sources, references, hypothesis, systems=systems)
        assert [float(s) for s in result.scores] == expected[system]["scores"], (name, system)
        assert result.signature == metric.signature(len(case.references) if metric.reference_kind == TEXT else None)
        line = str(result)
        assert "\n" not in line and line.endswith(f" | {result.signature}") and "=" in line, line
        if not metric.has_sentence_scores:
            continue
        sentences = metric.sentence_scores(sources, references, hypothesis, systems=systems)
        assert isinstance(sentences, SentenceScores)
        matrix = np.asarray(sentences.scores, dtype=np.float64).reshape(-1, SENTENCES)
        assert matrix.shape == (len(metric.column_labels()), SENTENCES), (name, matrix.shape)
        np.testing.assert_array_equal(matrix, expected[system]["sentences"], err_msg=f"{name} {system}")
        assert len(sentences) == SENTENCES and "\n" not in str(sentences)


def test_every_registered_metric_is_in_the_table():
    """The built-in names the issue lists (and any plugin: list_metrics() drives the table)."""
    names = {info.name for info in list_metrics()}
    assert {"gleu", "gleu0", "green", "m2", "sentm2", "errant", "senterrant", "cleme", "cleme2", "pt-m2",
            "pt-errant", "gotoscorer", "scribendi", "some", "impara", "bertscore", "llm-s", "llm-e"} <= names


# --------------------------------------------------------------------------- systems, aliases


GOLD = """S He go to school .
A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0

S She like it .
A 1 2|||R:VERB:SVA|||likes|||REQUIRED|||-NONE-|||0
"""
HYP_GOOD = """S He go to school .
A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0

S She like it .
A 1 2|||R:VERB:SVA|||likes|||REQUIRED|||-NONE-|||0
"""
HYP_HALF = """S He go to school .
A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0

S She like it .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0
"""


def test_gotoscorer_weights_come_from_the_systems_scored_together():
    """Alone, a hypothesis is its own only system (N = 1: every chunk it gets right weighs 0);
    with ``systems=``, the levels are those of every system, as ``compare`` gives them."""
    metric = get_metric("gotoscorer", score="f05/r")
    gold, good, half = parse_m2(GOLD, "gold"), parse_m2(HYP_GOOD, "good"), parse_m2(HYP_HALF, "half")
    alone = metric.corpus_score(None, gold, half)
    together = metric.corpus_score(None, gold, half, systems={"good": good, "half": half})
    listed = metric.corpus_score(None, gold, half, systems=[good])
    assert alone.systems == 1 and together.systems == 2 and listed.systems == 2
    # alone, the chunk half gets right is right for every system: weight 1 - 1/1 = 0, recall 0 of 0
    assert alone.scores == [0.0, 0.0]
    # together, "goes" (both right) weighs 0, "likes" (half misses it) weighs 1 - 1/2: recall 0
    assert together.scores[1] == 0.0 and together.scores == listed.scores
    good_together = metric.corpus_score(None, gold, good, systems={"good": good, "half": half})
    assert good_together.scores[1] == 1.0


def test_old_calls_are_aliases_of_the_one_shape(case):
    """M2Scorer().score(blocks, lines), ErrantCompare().compare(hyp, ref), GLEU's and GREEN's
    corpus_score(..., prepared=) give what corpus_score gives."""
    from gecmetrics import ErrantCompare, M2Scorer

    lines = case.systems["AMU"]
    assert M2Scorer().score(case.gold, lines).scores == M2Scorer().corpus_score(None, case.gold, lines).scores
    blocks = parse_m2(HYP_HALF, "half")
    comparer = ErrantCompare()
    assert comparer.compare(blocks, parse_m2(GOLD, "gold")).scores == \
        comparer.corpus_score(None, parse_m2(GOLD, "gold"), blocks).scores
    for name in ("gleu", "green"):
        metric = get_metric(name)
        encoded = metric.encode(case.sources, case.references)
        assert metric.corpus_score(None, None, lines, prepared=encoded).scores == \
            metric.corpus_score(case.sources, case.references, lines).scores
        assert np.array_equal(metric.sentence_scores(None, None, lines, prepared=encoded).scores,
                              metric.sentence_scores(case.sources, case.references, lines).scores)


def test_score_files_and_corpus_files_are_exported(tmp_path, case):
    """gecmetrics.score_files(metrics, gecmetrics.CorpusFiles(...)): the engine on files, the
    same number as the one call shape."""
    from gecmetrics import CorpusFiles, score_files
    from tests.conftest import write_files

    paths = write_files(tmp_path, {"src": case.sources, "ref0": case.references[0], "ref1": case.references[1],
                                   "amu": case.systems["AMU"]})
    scored = score_files(["green"], CorpusFiles(paths["src"], (paths["ref0"], paths["ref1"]), (paths["amu"],)))
    assert scored.result(paths["amu"], 0).scores.tolist() == \
        get_metric("green").corpus_score(case.sources, case.references, case.systems["AMU"]).scores.tolist()


# --------------------------------------------------------------------------- inputs checked


SOURCES = ["He go to school .", "She like it ."]
REFERENCES = [["He goes to school .", "She likes it ."]]


@pytest.mark.parametrize("call, message", [
    (lambda: get_metric("gleu").corpus_score(SOURCES, REFERENCES[0], SOURCES), "got a list of strings"),
    (lambda: get_metric("gleu").corpus_score(SOURCES, None, SOURCES), "needs reference texts"),
    (lambda: get_metric("gleu").corpus_score(None, REFERENCES, SOURCES), "needs the source sentences"),
    (lambda: get_metric("gleu").corpus_score(SOURCES, REFERENCES, SOURCES[:1]), "has 1 line but the source has 2"),
    (lambda: get_metric("gleu").corpus_score(SOURCES, REFERENCES, "He go to school ."), "expected a list of lines"),
    (lambda: get_metric("m2").corpus_score(None, REFERENCES, SOURCES), "give the gold M2 blocks"),
    (lambda: get_metric("m2").corpus_score(None, "gold.m2", SOURCES), "give the gold M2 blocks"),
    (lambda: get_metric("m2").corpus_score(None, None, SOURCES), "got nothing"),
    (lambda: get_metric("m2").corpus_score(None, 5, SOURCES), "give the gold M2 blocks .*, got an int"),
    (lambda: get_metric("cleme").corpus_score(None, parse_m2(GOLD, "gold"), SOURCES), "reads the hypothesis as M2"),
    (lambda: get_metric("m2").corpus_score(None, parse_m2(GOLD, "gold"), parse_m2(GOLD, "hyp")),
     "reads the hypothesis as lines of text"),
    (lambda: get_metric("m2").corpus_score(None, parse_m2(GOLD, "gold"), SOURCES[:1]), "has 1 line "),
    (lambda: get_metric("gleu").corpus_score(SOURCES, REFERENCES, SOURCES, systems="x"), "systems must be"),
    (lambda: get_metric("gleu").corpus_score(SOURCES, REFERENCES, SOURCES, systems=5), "systems must be"),
    (lambda: get_metric("gleu").corpus_score(SOURCES, REFERENCES, None, systems={"a": SOURCES}),
     "hypothesis: expected a list of lines"),
    (lambda: get_metric("gleu").corpus_score(SOURCES, REFERENCES, SOURCES, systems={"hypothesis": SOURCES[::-1]}),
     "is the scored hypothesis's"),
    (lambda: get_metric("m2", sentence_average=True).sentence_scores(None, parse_m2(GOLD, "g"), ["a"] * 3),
     "has 3 lines"),
])
def test_inputs_of_the_wrong_kind_or_length_are_input_errors(call, message):
    with pytest.raises(InputError, match=message):
        call()


def test_a_reference_free_metric_takes_none_or_reads_no_references():
    """None where a metric reads no references; a corpus's reference sets (which other metrics
    read, e.g. in paired_test) are checked and not read."""
    from gecmetrics.kinds import NONE as NO_REFERENCES
    from gecmetrics.metrics.base import Metric

    class Length(Metric):
        reference_kind = NO_REFERENCES

        def prepare(self, corpus, group=()):
            return len(corpus.references)

        def statistics(self, prepared, hypothesis):
            return np.array([[len(line.split()), 1] for line in hypothesis])

        def score_from_sums(self, sums, column=0):
            return sums[..., 0] / sums[..., 1]

    metric = Length()
    assert metric.corpus_score(SOURCES, None, SOURCES).score == 4.5  # (5 + 4) tokens / 2
    assert metric.corpus_score(SOURCES, REFERENCES, SOURCES).score == 4.5
    with pytest.raises(InputError, match="reference 0: has 1 line but the source has 2"):
        metric.corpus_score(SOURCES, [REFERENCES[0][:1]], SOURCES)


def test_a_metric_without_sentence_scores_says_so():
    from gecmetrics.metrics.base import Metric

    class Corpus1(Metric):
        name = "corpus-only"
        has_sentence_scores = False

        def prepare(self, corpus, group=()):
            return None

        def statistics(self, prepared, hypothesis):
            return np.ones((len(hypothesis), 1))

        def score_from_sums(self, sums, column=0):
            return sums[..., 0]

    metric = Corpus1()
    assert metric.corpus_score(SOURCES, REFERENCES, SOURCES).score == 2.0
    with pytest.raises(InputError, match=r"has no sentence scores \(it declares has_sentence_scores False\)"):
        metric.sentence_scores(SOURCES, REFERENCES, SOURCES)
    # a built-in metric says its own reason (the macro average is a corpus figure), not the attribute
    with pytest.raises(InputError, match=r"m2 has no sentence scores \(average=macro: the macro average over error "):
        get_metric("m2", average="macro").require_sentence_scores()


# --------------------------------------------------------------------------- str and repr


def test_str_is_one_line_sacrebleu_style(case):
    gleu = get_metric("gleu").corpus_score(case.sources, case.references, case.systems["AMU"])
    assert str(gleu) == f"GLEU+ = {100 * gleu.score:.2f} | {gleu.signature}"
    green = get_metric("green", beta=[0.5, 2]).corpus_score(case.sources, case.references, case.systems["AMU"])
    assert str(green) == f"GREEN b0.5 = {100 * green.scores[0]:.2f}, b2 = {100 * green.scores[1]:.2f} | " \
                         f"{green.signature}"
    m2 = get_metric("m2").corpus_score(None, case.gold, case.systems["AMU"])
    assert str(m2) == f"M2 F0.5 = {100 * m2.f:.2f} (P {100 * m2.precision:.2f}, R {100 * m2.recall:.2f}) | " \
                      f"M2|beta:0.5|max-unchanged:2|version:{m2.signature.version}"
    errant = get_metric("senterrant").corpus_score(None, parse_m2(GOLD, "g"), parse_m2(HYP_HALF, "h"))
    assert str(errant).startswith("SentERRANT F0.5 = 50.00 (P 100.00, R 50.00) | SentERRANT|mode:cs|beta:0.5|")
    cleme = get_metric("cleme2").corpus_score(None, parse_m2(GOLD, "g"), parse_m2(HYP_HALF, "h"))
    assert str(cleme).startswith(f"CLEME2 = {100 * cleme.score:.2f} (HC 50.00, WC 0.00, UC 50.00, OC 0.00) | CLEME2|")
    goto = get_metric("gotoscorer", score="f05/p").corpus_score(None, parse_m2(GOLD, "g"), parse_m2(HYP_GOOD, "h"))
    assert str(goto).startswith("GoToScorer F0.5 = 0.00, P = 0.00 | GoToScorer|score:f05,p|")


def test_scores_that_are_not_fractions_print_as_they_are():
    from gecmetrics.metrics.results import ScoreResult, Signature, shown_score

    signature = Signature("LLM-S", [("criterion", "none")])
    assert str(ScoreResult([3.5], signature, fraction=False)) == "LLM-S = 3.5000 | LLM-S|criterion:none|version:" \
        + signature.version
    assert str(ScoreResult([12.0], Signature("Scribendi"), fraction=False)).startswith("Scribendi = 12 | ")
    assert shown_score(float("nan")) == "nan" and shown_score(0.32109) == "32.11"


def test_repr_shows_shapes_not_thousands_of_values(case):
    result = get_metric("m2").corpus_score(None, case.gold, case.systems["AMU"])
    text = repr(result)
    assert text.startswith("M2Result(precision=") and "counts=array(shape=(12, " in text and len(text) < 1000
    assert "\n" not in text
    sentences = get_metric("gleu").sentence_scores(case.sources, case.references, case.systems["AMU"])
    assert "scores=array(shape=(12,), dtype=float64)" in repr(sentences)
    assert str(sentences).startswith(f"GLEU+ sentence scores: 12 sentences, mean {100 * sentences.mean:.2f} | GLEU+|")
    # the mean is signed as what it is (it was printed under the corpus score's signature)
    assert str(sentences).endswith(str(sentences.mean_dict()["signature"])) and "|sentences:mean|" in str(sentences)
    assert json.dumps(sentences.to_dict(), default=lambda value: value.tolist() if hasattr(value, "tolist")
                      else str(value))


def test_a_seed_with_the_best_reference_is_refused_in_python_as_on_the_command_line():
    """`gecmetric gleu -m --seed 3` was refused ('-m/--max draws no reference') while
    get_metric('gleu-max', seed=3) and compare's gleu-max:seed=3 took the seed and changed nothing."""
    for make in (lambda: get_metric("gleu-max", seed=3), lambda: get_metric("gleu", best_reference=True, seed=0)):
        with pytest.raises(InputError, match=r"setting seed \(--seed\) draws references; best_reference \(-m\) draws "
                                             "none"):
            make()
    assert get_metric("gleu-max").settings.seed is None  # (no seed: allowed, as before)


def test_a_metric_name_in_capitals_and_a_chinese_m2_read_without_target_lines(tmp_path):
    """get_metric('GREEN') was an unknown metric where compare and --metrics read the name case
    aside; read_m2 of ChERRANT's M2 said only 'not an M2 line' at its T line."""
    assert get_metric("GREEN").name == get_metric("green").name == "green"
    from gecmetrics import read_m2

    path = tmp_path / "zh.m2"
    path.write_text("S 我 喜 欢\nT0-A0 我 爱\nA 1 3|||S|||爱|||REQUIRED|||-NONE-|||0\n\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"zh\.m2:2: not an M2 line .*a ChERRANT target line: its M2 is read with "
                                         r"target_lines=True"):
        read_m2(str(path))
    assert len(read_m2(str(path), target_lines=True)) == 1
