"""IMPARA-GED (``impara:threshold=none:pooling=mean``: a quality estimator of any architecture
transformers loads, here ModernBERT, with mean pooling, and no similarity gate) equals
gec-metrics' IMPARA run as IMPARA-GED's model card runs it (``threshold=-999.0``), on a tiny
seeded ModernBERT and CoNLL-2014 AMU/CAMB/CUUI, sentence and corpus level, against the numbers
gec-metrics returned (tests/data/models_tiny_impara_ged.tsv; made by
tests/data/oracle_impara_ged.py in a virtualenv holding gec-metrics 0.1.1)."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from tests.test_models_some_impara import SYSTEMS, assert_equal_at_4_decimals, backend, oracle, read_system  # noqa: F401

from gecmetrics.errors import InputError

ORACLE = "models_tiny_impara_ged.tsv"


@pytest.fixture(scope="module")
def ged_models(backend, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The tiny ModernBERT as the oracle ran it (config ``classifier_pooling`` mean), the same
    weights with a config saying ``cls``, and a tiny BERT similarity model."""
    from gecmetrics.core.models.tiny_bert_heads import build_tiny_model
    from gecmetrics.core.models.tiny_modernbert import build_tiny_modernbert

    folder = tmp_path_factory.mktemp("tiny-ged")
    build_tiny_modernbert(folder / "qe", pooling="mean")
    shutil.copytree(folder / "qe", folder / "qe-cls")
    config = json.loads((folder / "qe-cls" / "config.json").read_text())
    (folder / "qe-cls" / "config.json").write_text(json.dumps({**config, "classifier_pooling": "cls"}))
    build_tiny_model(folder / "se", "impara-se", False)
    return {"qe": folder / "qe", "qe-cls": folder / "qe-cls", "se": folder / "se"}


def scorer(model: Path, **options):
    from gecmetrics.metrics.models.impara import IMPARAScorer

    return IMPARAScorer(str(model), **{"device": "cpu", "threshold": None, **options})


def test_the_tiny_modernbert_is_the_oracles(ged_models) -> None:
    facts = oracle(ORACLE)[0]
    loaded = scorer(ged_models["qe"])
    assert facts["weights fingerprint qe"] == loaded.qe.fingerprint
    assert not loaded.qe.direct and loaded.qe.pooling == "mean" and loaded.se is None  # no similarity model
    items = loaded.signature_items()
    assert items["se_model"] == "none" and items["threshold"] == "none" and items["pooling"] == "mean"


@pytest.mark.parametrize("model, pooling", [("qe", None), ("qe", "mean"), ("qe-cls", "mean")])
def test_impara_ged_equals_gec_metrics(ged_models, conll14: Path, model: str, pooling: str | None) -> None:
    """The oracle's model as its config says, with pooling=mean, and the same weights whose config
    says cls with pooling=mean (the setting decides): gec-metrics' numbers, each sentence and
    the corpus mean."""
    from gecmetrics.core.models.inference import corpus_mean

    _, sentences, corpus = oracle(ORACLE)
    sources = read_system(conll14, "INPUT")
    systems = [read_system(conll14, name) for name in SYSTEMS]
    for name, scores in zip(SYSTEMS, scorer(ged_models[model], pooling=pooling).systems_sentence_scores(sources,
                                                                                                         systems)):
        assert_equal_at_4_decimals(name, scores, sentences[name])
        assert abs(corpus_mean(scores) - corpus[name]) < 1e-6, name


def test_the_pooling_setting_decides_and_is_in_the_cache_key(ged_models, tmp_path: Path) -> None:
    """Same weights, other pooling: other numbers, and a value cached under one pooling is not
    read under the other."""
    from gecmetrics.core.cache import Cache

    lines = ["This are a sentence with a few words in it .", "Short one .", ""]
    cache = Cache(str(tmp_path / "cache"))
    mean = scorer(ged_models["qe"], cache=cache).sentence_scores(lines, lines)
    cls = scorer(ged_models["qe-cls"], cache=cache)
    assert cls.qe.pooling == "cls"
    assert not np.allclose(cls.sentence_scores(lines, lines), mean)
    assert cls.computed == len(lines)  # nothing read from the mean pooling's values
    np.testing.assert_allclose(scorer(ged_models["qe-cls"], pooling="mean", cache=cache).sentence_scores(lines, lines),
                               mean, rtol=0, atol=0)


def test_gec_metrics_threshold_spelling_gives_the_same_numbers(ged_models) -> None:
    """``threshold=-999`` (gec-metrics' way to skip the gate) loads the similarity model and
    gates nothing: the numbers of ``threshold=none``."""
    lines = ["This are a sentence with a few words in it .", "Short one .", "A b c d e f g h i j k l m n o p ."]
    hypotheses = ["This is a sentence with a few words in it .", "", "A b c ."]
    gated = scorer(ged_models["qe"], threshold=-999.0, se_model=str(ged_models["se"]))
    assert gated.se is not None
    np.testing.assert_allclose(gated.sentence_scores(lines, hypotheses),
                               scorer(ged_models["qe"]).sentence_scores(lines, hypotheses), rtol=0, atol=0)


def test_the_metric_impara_ged_through_compare(ged_models, conll14: Path) -> None:
    """``impara:model=QE:threshold=none:pooling=mean`` in ``compare``: gec-metrics' corpus score,
    its own column label and signature (no similarity model), nothing gated."""
    from gecmetrics import compare

    _, _, corpus = oracle(ORACLE)
    sources = read_system(conll14, "INPUT")
    systems = {name: read_system(conll14, name) for name in SYSTEMS[:2]}
    table = compare(sources, [], systems, [f"impara:model={ged_models['qe-cls']}:threshold=none:pooling=mean"],
                    scale=1.0)
    column = "IMPARA mean ungated"
    for name in systems:
        assert abs(table.score(name, column) - corpus[name]) < 1e-6, name
    signature = table.signatures[0]
    assert "|se:none|" in signature and "|pooling:mean|" in signature and "|threshold:none|" in signature
    assert table.results[SYSTEMS[0]][0].details["gated"] == 0


def test_pooling_on_a_model_without_the_choice_is_one_line(ged_models, tmp_path: Path) -> None:
    from gecmetrics.core.models.tiny_bert_heads import build_impara_models

    build_impara_models(tmp_path / "bert")
    with pytest.raises(InputError, match="no pooling choice") as error:
        scorer(tmp_path / "bert" / "qe", pooling="mean")
    assert "\n" not in str(error.value)
    with pytest.raises(InputError, match="cls, mean"):
        from gecmetrics import get_metric

        get_metric("impara", pooling="max")


def test_a_tokenizer_that_frames_texts_otherwise_is_one_line(ged_models, tmp_path: Path) -> None:
    """Inputs are built as [CLS] a [SEP] (b [SEP]); a tokenizer whose own framing differs (here
    RoBERTa's pair framing, a [SEP] doubled) is refused where it matters (SOME's pairs), not
    fed to its model in a shape it never saw."""
    from tokenizers.processors import TemplateProcessing

    import transformers
    from gecmetrics.core.models.inference import Encoder

    folder = tmp_path / "tokenizer"
    shutil.copytree(ged_models["qe"], folder)
    tokenizer = transformers.AutoTokenizer.from_pretrained(str(folder))
    special = [(token, tokenizer.convert_tokens_to_ids(token)) for token in ("[CLS]", "[SEP]")]
    tokenizer.backend_tokenizer.post_processor = TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] [SEP] $B:1 [SEP]:1", special_tokens=special)
    tokenizer.save_pretrained(str(folder))
    assert Encoder(str(folder), 128).load() is not None  # single texts as BERT's: fine for IMPARA
    with pytest.raises(InputError, match="does not frame texts as .* and \\[CLS\\] a \\[SEP\\] b \\[SEP\\]") as error:
        Encoder(str(folder), 128, pairs=True).load()
    assert str(folder) in str(error.value)
