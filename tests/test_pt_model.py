"""PT-M2 with a real (tiny) model: the builder is deterministic, the loading code takes a local
folder and fails in one line on a bad one, the batched BERTScore equals a direct one-pair
computation, statistics are additive over chunks, and bad input is reported."""
from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from tests._pt_support import GOLD, HYPOTHESIS, TINY_SETTINGS, expected_rows, require_backend, tiny_model  # noqa: F401

require_backend()

from gecmetrics import get_metric  # noqa: E402
from gecmetrics.errors import InputError  # noqa: E402
from gecmetrics.io.m2 import parse_m2  # noqa: E402
from gecmetrics.run.engine import corpus_for, score_corpus  # noqa: E402
from gecmetrics.metrics.pt import PTEngine, PTErrant, PTM2, PTSettings, engine_for  # noqa: E402
from gecmetrics.core.models.bertscore import baseline_values, read_baseline_file  # noqa: E402
from gecmetrics.core.models.loading import load_model  # noqa: E402
from gecmetrics.core.models.tiny import build_tiny_bert, folder_fingerprint  # noqa: E402

@pytest.fixture(scope="module")
def engine(tiny_model: Path) -> PTEngine:
    return engine_for(PTSettings(model=str(tiny_model), **TINY_SETTINGS))


def scorer(engine: PTEngine, kind=PTM2, **settings) -> PTM2:
    return kind(model=engine.loaded.name, **{**TINY_SETTINGS, **settings})


def test_builder_is_deterministic_and_matches_the_stored_fingerprint(tiny_model: Path, tmp_path: Path) -> None:
    again = build_tiny_bert(tmp_path / "again")
    assert again == folder_fingerprint(tiny_model) == expected_rows()[0]["tiny model weights fingerprint"]
    for name in ("model.safetensors", "vocab.txt", "tokenizer_config.json"):
        assert (tmp_path / "again" / name).read_bytes() == (tiny_model / name).read_bytes()
    assert build_tiny_bert(tmp_path / "other", seed=7) != again


def test_loading_a_local_folder_cuts_the_layers_and_names_the_weights(tiny_model: Path) -> None:
    loaded = load_model(str(tiny_model), num_layers=9, device="cpu")
    assert len(loaded.model.layers) == 9 and loaded.num_layers == 9  # computed directly (a plain BERT)
    assert loaded.revision.startswith("sha256:") and len(loaded.revision) == len("sha256:") + 12
    assert str(loaded.device) == "cpu" and not loaded.model.training
    assert loaded.encode(["", "  Genetic testing ."]) == [(loaded.cls_id, loaded.sep_id),
                                                           tuple(loaded.encode(["genetic testing ."])[0])]


def test_loading_by_hub_name_from_the_cache(tiny_model: Path, tmp_path: Path) -> None:
    """A hub name is read from the Hugging Face cache (offline here) and its snapshot's commit
    is the revision; a name that is not cached is a one-line error."""
    import subprocess
    import sys

    commit = "0123456789abcdef0123456789abcdef01234567"
    repository = tmp_path / "hub" / "models--gecmetrics--tiny-bert"
    shutil.copytree(tiny_model, repository / "snapshots" / commit)
    (repository / "refs").mkdir()
    (repository / "refs" / "main").write_text(commit)
    code = ("from gecmetrics.core.models.loading import load_model\n"
            "from gecmetrics.errors import InputError\n"
            "print(load_model('gecmetrics/tiny-bert', 9).revision)\n"
            "try:\n    load_model('gecmetrics/not-cached', 9)\nexcept InputError as e:\n    print('ERROR', e)\n")
    environment = {**__import__("os").environ, "HF_HOME": str(tmp_path), "HF_HUB_OFFLINE": "1"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=environment, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    revision, error = done.stdout.strip().splitlines()
    assert revision == f"commit:{commit[:12]}"
    assert error.startswith("ERROR gecmetrics/not-cached: no such model folder, nor a model of that name in the "
                            "Hugging Face cache, and HF_HUB_OFFLINE is set")
    assert "--model DIR" in error


@pytest.mark.parametrize("case, message", [
    ("missing", "no such model folder"), ("file", "not a model folder"), ("no-config", "no config.json"),
    ("no-tokenizer", "no usable tokenizer"), ("corrupt", "cannot load the model"),
    ("layers", r"num_layers \(--layer\) must be"),
])
def test_bad_models_are_one_line_errors(tiny_model: Path, tmp_path: Path, case: str, message: str) -> None:
    folder = tmp_path / "model"
    layers = 9
    if case == "missing":
        folder = tmp_path / "no" / "such"
    elif case == "file":
        folder.write_text("not a model")
    elif case == "no-config":
        folder.mkdir()
        shutil.copy(tiny_model / "vocab.txt", folder)
    else:
        shutil.copytree(tiny_model, folder)
        if case == "no-tokenizer":
            for name in ("vocab.txt", "tokenizer_config.json", "special_tokens_map.json"):
                (folder / name).unlink()
        elif case == "corrupt":
            (folder / "model.safetensors").write_bytes((tiny_model / "model.safetensors").read_bytes()[:1000])
        else:
            layers = 13
    with pytest.raises(InputError, match=message) as error:
        load_model(str(folder), num_layers=layers)
    assert "\n" not in str(error.value)


def test_baselines(tmp_path: Path) -> None:
    assert baseline_values("none", "x", 9) is None
    assert baseline_values("auto", "bert-base-uncased", 9).tolist() == pytest.approx([0.35375935, 0.3537393, 0.35219112])
    path = tmp_path / "base.tsv"
    path.write_text("LAYER,P,R,F\n0,0.1,0.2,0.3\n1,0.4,0.5,0.6\n")
    assert read_baseline_file(str(path), 1).tolist() == pytest.approx([0.4, 0.5, 0.6])
    with pytest.raises(InputError, match="no row for layer 5"):
        read_baseline_file(str(path), 5)
    with pytest.raises(InputError, match="no rescaling baseline known"):
        baseline_values("auto", "my-model", 3)


def direct_f(engine: PTEngine, candidate: str, reference: str) -> float:
    """BERTScore F of one pair, each sentence encoded alone (no padding), the formula written out."""
    import torch

    loaded = engine.loaded
    vectors = []
    for text in (candidate, reference):
        ids = torch.tensor([loaded.encode([text])[0]])
        with torch.no_grad():
            output = loaded.model(ids)[0][0]
        vectors.append((ids[0], output / output.norm(dim=-1, keepdim=True)))
    (c_ids, c), (r_ids, r) = vectors
    similarity = c @ r.T
    inner = lambda ids: ((ids != loaded.cls_id) & (ids != loaded.sep_id)).float()  # noqa: E731
    precision = (similarity.max(dim=1)[0] * inner(c_ids)).sum() / inner(c_ids).sum()
    recall = (similarity.max(dim=0)[0] * inner(r_ids)).sum() / inner(r_ids).sum()
    f = float(2 * precision * recall / (precision + recall))
    baseline = engine.baseline[2]
    return (f - float(baseline)) / (1 - float(baseline))


def test_batched_scores_equal_one_pair_at_a_time(engine: PTEngine) -> None:
    pairs = [("This is a sentence .", "This is one sentence ."), ("He go to school .", "He went to school yesterday ."),
             ("a", "A much longer reference sentence with many more tokens than the candidate has ."),
             ("Genetic testing is important .", "Genetic testing is important .")]
    scorer_ = engine.pair_scorer(64)
    f = scorer_.f_scores(scorer_.sequences([c for c, _ in pairs]), scorer_.sequences([r for _, r in pairs]))
    assert f == pytest.approx([direct_f(engine, c, r) for c, r in pairs], abs=1e-5)
    assert f[3] == pytest.approx(1.0, abs=1e-5)


def test_scores_do_not_depend_on_chunking_and_only_pinned_embeddings_stay(engine: PTEngine) -> None:
    from gecmetrics.core.models.bertscore import PairScorer

    texts = ["He go to school .", "He goes to school .", "He went to the school .", "She goes to school ."]
    results = []
    for chunk in (1, 2, 4096):
        pairs = PairScorer(engine.loaded, engine.baseline, chunk=chunk)
        reference = pairs.sequences(["He went to school ."], pin=True)[0]
        results.append(pairs.f_scores(pairs.sequences(texts), [reference] * len(texts)))
        assert set(pairs.embeddings) == {reference} and pairs.kept_bytes > 0
    assert results[0] == pytest.approx(results[2], abs=1e-6) and results[1] == pytest.approx(results[2], abs=1e-6)


def test_kept_embeddings_beyond_the_budget_are_encoded_again(engine: PTEngine) -> None:
    """With no room for kept embeddings, every reference is dropped after use and encoded again
    when needed: the same scores, more encoding."""
    from gecmetrics.core.models.bertscore import PairScorer

    references = ["He went to school .", "She goes to the market ."]
    texts = ["He go to school .", "She go to the market ."]
    runs = []
    for keep_bytes in (0, 2**30):
        pairs = PairScorer(engine.loaded, engine.baseline, chunk=1, keep_bytes=keep_bytes)
        numbers = pairs.sequences(references, pin=True)
        first = pairs.f_scores(pairs.sequences(texts), numbers)
        again = pairs.f_scores(pairs.sequences(["He goes to school .", "She goes to market ."]), numbers)
        runs.append((first + again, pairs.encoded_count, set(pairs.embeddings)))
    (tight, tight_count, tight_kept), (roomy, roomy_count, roomy_kept) = runs
    assert tight == pytest.approx(roomy, abs=1e-6)
    assert tight_kept == set() and roomy_kept == {0, 1} and tight_count > roomy_count


def test_a_case_only_edit_weighs_exactly_zero_with_an_uncased_model(engine: PTEngine) -> None:
    scorer_ = engine.pair_scorer(64)
    source, edited, reference = scorer_.sequences(["the city .", "The city .", "The big city ."])
    assert source == edited
    first, second = scorer_.f_scores([source, edited], [reference, reference])
    assert abs(first - second) == 0.0


def test_statistics_add_up_over_chunks(engine: PTEngine) -> None:
    """Chunks of any size (each prepared on its own, as the pipeline does) join into the
    statistics of the whole corpus, at both levels."""
    blocks = parse_m2(GOLD, "gold")
    for level in ("sentence", "corpus"):
        metric = scorer(engine, level=level)
        whole = metric.statistics(metric.prepare(blocks), HYPOTHESIS)
        assert whole.shape == (4, 2, 5) and whole[1, 1].tolist() == [0.0] * 5 and whole[2, :, 3].tolist() == [1, 1]
        assert whole[0, :, 4].tolist() == [0, 1]  # the annotator ids
        for size in (1, 3):
            corpus = corpus_for([metric], None, blocks, {"sys": HYPOTHESIS})
            joined = score_corpus([metric], corpus, chunk_lines=size).statistics["sys"][0]
            assert np.array_equal(joined, whole), (level, size)
            assert metric.score(joined).score == metric.score(whole).score


def test_a_system_scores_the_same_bits_whatever_was_scored_before(engine: PTEngine) -> None:
    """Edited sentences cached from another system (and encoded in its batches) give the same
    statistics as encoding them for this system alone."""
    blocks = parse_m2(GOLD, "gold")
    other = ["This is one sentence .", "He went to school yesterday .", "Nothing to do here .",
             "The people in the city are happy !"]
    metric = scorer(engine)
    alone = metric.statistics(metric.prepare(blocks), HYPOTHESIS)
    shared = metric.prepare(blocks)
    metric.statistics(shared, other)
    assert np.array_equal(metric.statistics(shared, HYPOTHESIS), alone)


def test_a_prepared_corpus_pickles_without_its_cache(engine: PTEngine) -> None:
    """A prepared corpus sent to another process travels without embeddings; its cache is
    rebuilt on use and gives the same statistics."""
    import pickle

    metric = scorer(engine, level="corpus")
    prepared = metric.prepare(parse_m2(GOLD, "gold"))
    expected = metric.statistics(prepared, HYPOTHESIS)
    copy = pickle.loads(pickle.dumps(prepared))
    assert copy.pairs is None and copy.source_f == prepared.source_f
    assert np.array_equal(pickle.loads(pickle.dumps(metric)).statistics(copy, HYPOTHESIS), expected)


def test_worker_processes_give_the_same_statistics(engine: PTEngine) -> None:
    """``jobs=2``: each worker loads the model itself; the statistics are those of one process."""
    metric = scorer(engine)
    corpus = corpus_for([metric], None, parse_m2(GOLD, "gold"), {"sys": HYPOTHESIS, "copy": HYPOTHESIS[::-1]})
    alone = score_corpus([metric], corpus)
    workers = score_corpus([metric], corpus, jobs=2)
    for name in ("sys", "copy"):
        assert np.array_equal(workers.statistics[name][0], alone.statistics[name][0])


def test_hand_example_rows(engine: PTEngine) -> None:
    metric = scorer(engine, level="corpus")
    blocks = parse_m2(GOLD, "gold")
    stats = metric.statistics(metric.prepare(blocks), HYPOTHESIS)
    s = engine.pair_scorer(64)
    # sentence 1, annotator 0: the system's two edits are the gold edits: correct = proposed = gold
    reference = s.sequences(["This is a sentence ."])[0]
    source_f = s.f_scores(s.sequences(["This are a sentences ."]), [reference])[0]
    weights = [abs(f - source_f) for f in s.f_scores(s.sequences(["This is a sentences .", "This are a sentence ."]),
                                                     [reference] * 2)]
    assert stats[0, 0, :3].tolist() == pytest.approx([sum(weights)] * 3)
    # sentence 3: one false positive, nothing gold (F = 0); sentence 4: both edits of annotator 0
    # are matched (correct = proposed) and they weigh more than the case edit alone, which
    # weighs 0 under an uncased model
    assert stats[2, 0, 0] == stats[2, 0, 2] == 0.0 and stats[2, 0, 1] > 0
    assert stats[3, 0, 0] == stats[3, 0, 1] == stats[3, 0, 2] > 0
    are = s.sequences(["the people in the city are happy ."])
    the, source = s.sequences(["The people in the city is happy .", "the people in the city is happy ."])
    reference = s.sequences(["The people in the city are happy ."])[0]
    edited, unchanged, alone = s.f_scores([the, source, are[0]], [reference] * 3)
    assert edited == unchanged and stats[3, 0, 0] == abs(alone - unchanged)
    result = metric.score(stats)
    assert 0 < result.score < 1 and result.chosen.tolist()[2] == 0 and result.sentence_f[2] == 0.0
    for field in ("PT-M2|level:corpus|beta:0.5|max-unchanged:2|model:", "|layer:9|baseline:bert-base-uncased|torch:",
                  "|rev:sha256:", "|transformers:", "|encoder:direct|", "|version:"):
        assert field in result.signature  # the tiny BERT is computed from its weights, and the signature says so
    assert result.settings["metric"] == "PT-M2" and "batch_size" not in result.signature


def test_pt_errant_on_hand_m2(engine: PTEngine) -> None:
    reference = parse_m2("S He go to school .\nA 1 2|||R:VERB|||went|||REQUIRED|||-NONE-|||0\n"
                         "A 1 2|||R:VERB|||goes|||REQUIRED|||-NONE-|||1\n", "ref")
    hypothesis = parse_m2("S He go to school .\nA 1 2|||R:VERB|||goes|||REQUIRED|||-NONE-|||0\n", "hyp")
    metric = scorer(engine, PTErrant, level="sentence")
    stats = metric.statistics(metric.prepare(reference), hypothesis)
    assert stats[0, 0, 0] == 0.0 and stats[0, 1, 0] == stats[0, 1, 1] == stats[0, 1, 2] > 0
    assert metric.score(stats).score == 1.0 and metric.score(stats).chosen.tolist() == [1]


def test_bad_input(engine: PTEngine) -> None:
    metric = scorer(engine)
    prepared = metric.prepare(parse_m2(GOLD, "gold"))
    with pytest.raises(InputError, match="has 3 lines but the gold M2 has 4"):
        metric.statistics(prepared, HYPOTHESIS[:3])
    with pytest.raises(InputError, match="expected a list of lines"):
        metric.statistics(prepared, "one string")
    with pytest.raises(InputError, match="no sentences"):
        metric.prepare([])
    with pytest.raises(InputError, match="needs gold M2"):
        metric.prepare(corpus_for([get_metric("gleu")], ["a"], [["a"]], {}))
    errant = scorer(engine, PTErrant)
    prepared = errant.prepare(parse_m2("S He go .\n", "ref"))
    with pytest.raises(InputError, match="source of sentence 1 differs"):
        errant.statistics(prepared, parse_m2("S She go .\n", "hyp"))
    with pytest.raises(InputError, match="has 2 sentences"):
        errant.statistics(prepared, parse_m2("S He go .\n\nS x\n", "hyp"))
    with pytest.raises(InputError, match="other model settings"):
        scorer(engine, PTErrant, num_layers=8).statistics(prepared, parse_m2("S He go .\n", "hyp"))
    with pytest.raises(InputError, match=r"prepared must be what its prepare\(\) returned"):
        errant.statistics([], parse_m2("S He go .\n", "hyp"))


# evaluate.py of PT-M2 (its bundled bert_score loads AutoTokenizer.from_pretrained(model,
# use_fast=False): transformers' Python BertTokenizer; transformers 4.46.3, torch 2.13.0, Python
# 3.11), the tiny model saved in its folder as bert-base-uncased, this corpus written to
# reference.m2, reference/ref0 (the gold edits applied), INPUT (the sources) and HYP:
#   python evaluate.py --source INPUT --reference reference --hypothesis HYP --output out \
#       --base m2 --scorer bertscore --model_type bert-base-uncased          (and --base sentm2)
# printed score=0.9472 (m2; 0.9472025457457929 in its output file) and 0.9650 (sentm2;
# 0.9649886773213678). U+FDD0 and U+FFFF are noncharacters (category Cn in every Unicode
# version): the Python tokenizer drops them, the Rust one made each word holding one [UNK], and
# gecmetric pt-m2 printed 0.1936 (corpus) and 0.6748 (sentence).
NONCHARACTER_GOLD = """S He have many friend\ufdd0 in the school .
A 1 2|||R:VERB:SVA|||has|||REQUIRED|||-NONE-|||0
A 3 4|||R:NOUN:NUM|||friends|||REQUIRED|||-NONE-|||0

S The people is happy \uffff .
A 2 3|||R:VERB:SVA|||are|||REQUIRED|||-NONE-|||0
A 4 5|||U:OTHER||||||REQUIRED|||-NONE-|||0

S Their is a problem .
A 0 1|||R:OTHER|||There|||REQUIRED|||-NONE-|||0
"""
NONCHARACTER_HYPOTHESIS = ["He has many friend\ufdd0 in the school .", "The people are happy .",
                           "There is a \ufdd0 problem ."]
NONCHARACTER_ORACLE = {"corpus": 0.9472025457457929, "sentence": 0.9649886773213678}


@pytest.mark.parametrize("level", ["corpus", "sentence"])
def test_tokenized_as_the_python_bert_tokenizer_of_bert_score(engine: PTEngine, level: str) -> None:
    metric = scorer(engine, level=level)
    result = metric.score(metric.statistics(metric.prepare(parse_m2(NONCHARACTER_GOLD, "gold")),
                                            NONCHARACTER_HYPOTHESIS))
    assert f"{result.score:.4f}" == f"{NONCHARACTER_ORACLE[level]:.4f}"
    assert abs(result.score - NONCHARACTER_ORACLE[level]) < 2e-5
    assert engine.loaded.encode(["friend\ufdd0 \uffff", "cafe\u0301"]) == engine.loaded.encode(["friend", "caf\u00e9"])
