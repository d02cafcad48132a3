"""PT-M2 / PT-ERRANT without a model: edit application, weights, statistics rows, the annotator
choice and the reducers, on hand-computed examples (no torch needed), and the one-line errors
for a missing extra and bad settings."""
from __future__ import annotations

import builtins
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gecmetrics.errors import InputError
from gecmetrics.io.m2 import Block, Edit
from gecmetrics.core.edits.lattice import GoldEdit
from gecmetrics.metrics.pt import PTM2, PTM2Settings, PTSettings, choose_annotators, reduce_statistics
from gecmetrics.core.models.loading import default_layers, import_backend
from gecmetrics.metrics.pt.scorers import errant_keys_by_coder, match_all_in_order, match_keys_in_order
from gecmetrics.metrics.pt.weighting import apply_edits_in_order, edit_weights, pack_rows, pt_scores, statistics_row


def precision_recall_f(correct: float, proposed: float, gold: float, beta: float) -> tuple[float, float, float]:
    return pt_scores(np.array([correct, proposed, gold], dtype=float), beta)


def rows(*sentences: list[tuple[float, float, float]]) -> np.ndarray:
    """A statistics array from per-sentence lists of (correct, proposed, gold) annotator rows."""
    return pack_rows([[(c, p, g, a) for a, (c, p, g) in enumerate(sentence)] for sentence in sentences])


def test_edits_apply_in_span_order_with_shifts() -> None:
    tokens = "a b c d".split()
    assert apply_edits_in_order(tokens, [(1, 2, "x y"), (0, 0, "z")]) == "z a x y c d"
    assert apply_edits_in_order(tokens, [(3, 4, ""), (1, 3, "q")]) == "a q"
    assert apply_edits_in_order(tokens, [(4, 4, ".")]) == "a b c d ."
    assert apply_edits_in_order(tokens, []) == "a b c d"


def test_weight_is_the_change_of_f_and_all_zero_becomes_uniform_at_sentence_level() -> None:
    assert edit_weights(["e1", "e2"], [0.5, 0.875], 0.75, False) == {"e1": 0.25, "e2": 0.125}
    assert edit_weights(["e1", "e2"], [0.75, 0.75], 0.75, False) == {"e1": 0.0, "e2": 0.0}
    assert edit_weights(["e1", "e2", "e3"], [0.75] * 3, 0.75, True) == {"e1": 1 / 3, "e2": 1 / 3, "e3": 1 / 3}
    assert edit_weights([], [], 0.75, True) == {}


def test_statistics_row_sums_weights_of_correct_proposed_and_gold() -> None:
    weights = {"s1": 0.5, "s2": 0.25, "g1": 0.125}
    assert statistics_row(weights, ["s1"], ["s2", "s1"], ["s1", "g1"]) == (0.5, 0.75, 0.625)
    assert statistics_row({}, [], [], []) == (0, 0, 0)


def test_precision_recall_f_conventions() -> None:
    assert precision_recall_f(0.0, 0.0, 0.0, 0.5) == (1.0, 1.0, 1.0)
    assert precision_recall_f(0.0, 0.0, 2.0, 0.5) == (1.0, 0.0, 0.0)
    assert precision_recall_f(0.0, 2.0, 0.0, 0.5) == (0.0, 1.0, 0.0)
    p, r, f = precision_recall_f(1.0, 2.0, 4.0, 0.5)
    assert (p, r) == (0.5, 0.25) and f == pytest.approx(1.25 * 0.125 / (0.125 + 0.25))
    assert precision_recall_f(1.0, 2.0, 4.0, float("inf")) == (0.5, 0.25, 0.25)
    # the authors' floating-point form: c / p, not c / (c + (p - c))
    correct, proposed = 0.1 + 0.2, 0.7
    assert precision_recall_f(correct, proposed, 1.0, 1.0)[0] == correct / proposed
    arrays = pt_scores(np.array([[1.0, 2.0, 4.0], [0.0, 0.0, 0.0]]), 0.5)
    assert arrays[2].tolist() == [f, 1.0]


def test_corpus_choice_uses_running_totals_sentence_choice_does_not() -> None:
    # sentence 2 alone prefers annotator B (F = 1 vs 0.833); after sentence 1's ten false
    # positives the running corpus F prefers A (0.192 vs 0.111)
    stats = rows([(0, 10, 0)], [(2, 2, 4), (1, 1, 1)])
    assert choose_annotators(stats, 0.5, "sentence").tolist() == [0, 1]
    assert choose_annotators(stats, 0.5, "corpus").tolist() == [0, 0]


def test_choice_ties_more_correct_then_less_cost_then_first() -> None:
    # equal F (0): lower proposed + beta^2 * gold wins, whatever the order
    assert choose_annotators(rows([(0, 0, 1), (0, 1, 0)]), 0.5, "sentence").tolist() == [0]
    assert choose_annotators(rows([(0, 1, 0), (0, 0, 1)]), 0.5, "sentence").tolist() == [1]
    # equal F (1): more correct wins
    assert choose_annotators(rows([(0, 0, 0), (2, 2, 2)]), 0.5, "sentence").tolist() == [1]
    # everything equal: the first
    assert choose_annotators(rows([(1, 2, 2), (1, 2, 2)]), 0.5, "sentence").tolist() == [0]


def test_padding_slots_are_never_chosen() -> None:
    stats = rows([(0, 5, 5), (3, 3, 3)], [(1, 1, 1)])
    assert stats[1, 1].tolist() == [0.0] * 5
    assert choose_annotators(stats, 0.5, "corpus").tolist() == [1, 0]


def test_reducers_corpus_sums_sentence_averages() -> None:
    stats = rows([(1, 2, 4)], [(0, 0, 0)], [(0, 1, 0)])
    corpus = reduce_statistics(stats, 0.5, "corpus")
    assert corpus.totals == (1, 3, 4)
    assert corpus.score == pytest.approx(precision_recall_f(1, 3, 4, 0.5)[2])
    sentence = reduce_statistics(stats, 0.5, "sentence")
    f1 = precision_recall_f(1, 2, 4, 0.5)[2]
    assert sentence.sentence_f.tolist() == pytest.approx([f1, 1.0, 0.0])
    assert sentence.score == pytest.approx((f1 + 1.0 + 0.0) / 3)
    assert sentence.precision == pytest.approx((0.5 + 1.0 + 0.0) / 3)


def test_resampled_rows_redo_the_choice() -> None:
    stats = rows([(0, 10, 0)], [(2, 2, 4), (1, 1, 1)])
    assert reduce_statistics(stats[[1]], 0.5, "corpus").chosen.tolist() == [1]
    assert reduce_statistics(stats, 0.5, "corpus").chosen.tolist() == [0, 0]
    halves = np.concatenate([stats[:1], stats[1:]])
    assert reduce_statistics(halves, 0.5, "corpus").score == reduce_statistics(stats, 0.5, "corpus").score


def test_bad_statistics_are_input_errors() -> None:
    with pytest.raises(InputError, match="shape"):
        reduce_statistics(np.zeros((3, 2)), 0.5, "corpus")
    with pytest.raises(InputError, match="at least one annotator"):
        reduce_statistics(np.zeros((2, 1, 5)), 0.5, "corpus")
    with pytest.raises(InputError, match="at least one sentence"):
        reduce_statistics(np.zeros((0, 1, 5)), 0.5, "corpus")
    with pytest.raises(InputError, match="finite"):
        reduce_statistics(rows([(np.nan, 1, 1)]), 0.5, "corpus")
    with pytest.raises(InputError, match="level"):
        choose_annotators(rows([(0, 0, 0)]), 0.5, "document")


def test_m2_matching_counts_every_gold_match_forward_only() -> None:
    gold = [GoldEdit(0, 1, "a", ("b",)), GoldEdit(0, 1, "a", ("c", "b")), GoldEdit(2, 3, "x", ("y",))]
    # the authors' matchSeq has no break: one system edit matching two gold edits counts twice
    assert match_all_in_order([(0, 1, "a", "b")], gold) == [(0, 1, "a", "b")] * 2
    # after a match the scan never goes back
    assert match_all_in_order([(2, 3, "x", "y"), (0, 1, "a", "c")], gold) == [(2, 3, "x", "y")]
    assert match_all_in_order([(0, 1, "a", "z")], gold) == []


def test_errant_keys_skip_noop_and_unk_and_keep_first_appearance_order() -> None:
    block = Block("A b c .", [Edit(0, 1, "R:DET", "The", annotator=1), Edit(-1, -1, "noop", "-NONE-", annotator=0),
                              Edit(1, 2, "UNK", "b", annotator=1), Edit(0, 1, "R:DET", "The", annotator=1),
                              Edit(2, 3, "U:NOUN", "", annotator=1)])
    assert errant_keys_by_coder(block) == {1: [(0, 1, "The"), (2, 3, "")], 0: []}
    assert errant_keys_by_coder(Block("A b .", [])) == {0: []}


def test_errant_matching_is_forward_only_on_start_end_correction() -> None:
    gold = [(0, 1, "The"), (2, 3, "")]
    assert match_keys_in_order([(0, 1, "The"), (2, 3, "")], gold) == gold
    assert match_keys_in_order([(2, 3, ""), (0, 1, "The")], gold) == [(2, 3, "")]
    assert match_keys_in_order([(0, 1, "A")], gold) == []


@pytest.mark.parametrize("settings, message", [
    ({"level": "document"}, "level"), ({"beta": -1}, "beta"), ({"beta": True}, "beta"),
    ({"num_layers": True}, "num_layers"), ({"num_layers": -2}, "num_layers"), ({"model": ""}, "model"),
    ({"batch_size": 0}, "batch_size"), ({"baseline": ""}, "baseline"), ({"device": "gpu"}, "device"),
    ({"max_unchanged_words": -1}, "max_unchanged_words"),
])
def test_bad_settings_are_one_line_errors(settings: dict, message: str) -> None:
    with pytest.raises(InputError, match=message) as error:
        PTM2Settings(**settings)
    assert "\n" not in str(error.value)


def test_settings_parse_text_and_keep_paths_whole() -> None:
    from gecmetrics import get_metric
    from gecmetrics.metrics.registry import metrics_from_text

    metric = metrics_from_text("pt-m2:model=/models/tiny-bert:layer=9:level=corpus:b=1:device=CPU")[0]
    assert (metric.model, metric.num_layers, metric.level, metric.beta, metric.device) == \
        ("/models/tiny-bert", 9, "corpus", 1.0, "cpu")
    assert PTSettings(num_layers="auto").num_layers is None and PTSettings(device="auto").device is None
    assert get_metric("pt-errant", layer="3").num_layers == 3
    with pytest.raises(InputError, match="has no setting 'max_unchanged_words'"):
        get_metric("pt-errant", max_unchanged_words=1)


def test_unknown_model_name_needs_num_layers() -> None:
    assert default_layers("bert-base-uncased") == 9
    with pytest.raises(InputError, match=r"give it \(num_layers, --layer N\)"):
        default_layers("my-own-bert")


def test_missing_extra_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def without_torch(name, *args, **kwargs):
        if name in ("torch", "transformers") or name.startswith(("torch.", "transformers.")):
            raise ImportError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", without_torch)
    with pytest.raises(InputError) as error:
        import_backend()
    message = str(error.value)
    assert message.startswith("PT-M2 and PT-ERRANT need torch") and "pip install 'gecmetrics[pt]'" in message
    assert "\n" not in message
    # the same import names the model metrics' extra for them (BERTScore, SOME, IMPARA, Scribendi)
    from gecmetrics.core.models.runtime import import_torch_transformers

    with pytest.raises(InputError, match=r"^model-based metrics need torch and transformers \(.*\): "
                                         r"pip install 'gecmetrics\[models\]'$"):
        import_torch_transformers()


def test_benchmark_smoke_run(shared_data) -> None:
    """`benchmarks/pt_conll14.py --quick --no-peers` exits 0: it times ours when torch and
    transformers are installed, else says they are missing (as in CI, without the extra)."""
    import re
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parent.parent / "benchmarks" / "pt_conll14.py"
    done = subprocess.run([sys.executable, str(script), "--quick", "--no-peers"], capture_output=True, text=True,
                          timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "not installed, nothing to time" in done.stdout or \
        re.search(r"^AMU\s+ours cpu\s+\d+\.\d+ s", done.stdout, re.MULTILINE), done.stdout


# ---------------------------------------------------------------------------- the authors' loop


def authors_choice(sentences: list[list[tuple[float, float, float]]], beta: float, corpus: bool) -> tuple[list, float]:
    """The annotator loop of the authors' ``batch_multi_pre_rec_f1`` (corpus) and its ``_sent``
    twin (one sentence per call, averaged), transcribed: the chosen slots and the score."""
    b2 = beta * beta
    chosen, totals, sentence_f = [], [0.0, 0.0, 0.0], []
    for rows in sentences:
        start = totals if corpus else [0.0, 0.0, 0.0]
        best, f_max, c_max, p_min, g_min = -1, -math.inf, -math.inf, math.inf, math.inf
        for slot, (c, p, g) in enumerate(rows):
            c, p, g = start[0] + c, start[1] + p, start[2] + g
            precision, recall = (c / p if p else 1.0), (c / g if g else 1.0)
            f = (1.0 + b2) * precision * recall / (b2 * precision + recall) if b2 * precision + recall else 0.0
            if f_max < f or (f_max == f and c_max < c) or (f_max == f and c_max == c and p_min + b2 * g_min > p + b2 * g):
                best, f_max, c_max, p_min, g_min = slot, f, c, p, g
        chosen.append(best)
        sentence_f.append(f_max)
        totals = [totals[k] + rows[best][k] for k in range(3)] if corpus else totals
    if not corpus:
        return chosen, sum(sentence_f) / len(sentence_f)
    return chosen, precision_recall_f(*totals, beta)[2]


WEIGHTS = st.sampled_from([0.0, 0.0, 0.1, 0.25, 0.3, 0.5, 1.0, 1 / 3])
SENTENCES = st.lists(st.lists(st.tuples(WEIGHTS, WEIGHTS, WEIGHTS), min_size=1, max_size=3), min_size=1, max_size=8)


@settings(max_examples=300, deadline=None)
@given(SENTENCES, st.sampled_from([0.5, 1.0, 2.0]), st.sampled_from(["sentence", "corpus"]))
def test_choice_and_score_equal_the_authors_loop(sentences, beta: float, level: str) -> None:
    """The M2 family's running choice with the authors' rule picks what their loop picks, and
    the reducers give their number, to the last bit (ties included: the weights repeat)."""
    stats = rows(*sentences)
    chosen, score = authors_choice(sentences, beta, level == "corpus")
    assert choose_annotators(stats, beta, level).tolist() == chosen
    assert reduce_statistics(stats, beta, level).score == score


class Offline(PTM2):
    """PT-M2 whose signature does not load a model (the resamplers' tests need none)."""

    def signature_fields(self, references):
        return "PT-M2", [("level", self.settings.level)]


@pytest.mark.parametrize("level", ["sentence", "corpus"])
def test_resamplers_redo_the_choice_in_every_resample(level: str) -> None:
    from gecmetrics.stats.significance import bootstrap_indices, paired_test_from_statistics
    from gecmetrics.core.resampling import Resample

    stats = rows([(0, 10, 0)], [(2, 2, 4), (1, 1, 1)], [(1, 3, 2), (0, 0, 1)], [(0.5, 1, 1)], [(0, 1, 0), (1, 1, 2)])
    metric = Offline(level=level)
    resampler = metric.resampler()
    prepared = resampler.prepare(stats)
    assert resampler.score(prepared) == pytest.approx(metric.score(stats).score, abs=1e-15)
    resample = Resample(bootstrap_indices(len(stats), 40, 3))
    expected = [metric.score(stats[indices]).score for indices in resample.indices]
    assert resampler.bootstrap_scores(prepared, resample).tolist() == pytest.approx(expected, abs=1e-15)
    other = rows([(1, 1, 1)], [(2, 2, 4), (0, 1, 1)], [(1, 3, 2)], [(0, 1, 1)], [(1, 1, 2), (0, 0, 0)])
    result = paired_test_from_statistics(resampler, {"a": stats, "b": other}, "ar", 50)
    assert result.systems[1].score == pytest.approx(metric.score(other).score, abs=1e-15)
    assert result.signature.startswith(f"PT-M2|level:{level}|test:paired-ar")


def test_several_reference_files_merge_into_one_with_renumbered_coders() -> None:
    from gecmetrics.io.m2 import parse_m2
    from gecmetrics.metrics.pt.scorers import merge_coders

    first = parse_m2("S A b .\nA 0 1|||R:DET|||The|||REQUIRED|||-NONE-|||0\n\nS C d .\n", "r0")
    second = parse_m2("S A b .\nA 1 2|||R:NOUN|||c|||REQUIRED|||-NONE-|||1\n\nS C d .\n"
                      "A 0 1|||R:X|||E|||REQUIRED|||-NONE-|||0\n", "r1")
    merged = merge_coders([first, second], ["r0", "r1"])
    assert [errant_keys_by_coder(block) for block in merged] == [{0: [(0, 1, "The")], 2: [(1, 2, "c")]},
                                                                 {0: [], 1: [(0, 1, "E")]}]
    assert merge_coders([first], ["r0"]) == first
    with pytest.raises(InputError, match="r1: does not annotate the sentences of r0"):
        merge_coders([first, second[:1]], ["r0", "r1"])


def test_no_torch_for_other_commands_or_for_naming_a_pt_metric(tmp_path) -> None:
    """Importing gecmetrics, running non-PT commands, listing the metrics and configuring a PT
    metric by name import neither torch nor transformers (only loading a model does)."""
    import subprocess
    import sys

    (tmp_path / "gold.m2").write_text("S a b .\nA 0 1|||R:X|||A|||REQUIRED|||-NONE-|||0\n", encoding="utf-8")
    (tmp_path / "hyp").write_text("A b .\n", encoding="utf-8")
    code = (
        "import sys\nfrom gecmetrics.cli import main\n"
        f"for args in (['m2', 'score', '-s', {str(tmp_path / 'gold.m2')!r}, '-o', {str(tmp_path / 'hyp')!r}],"
        " ['compare', '--list-metrics'], ['pt-m2', '--help'], ['pt-errant', '--help']):\n"
        "    try:\n        main(args, standalone_mode=False)\n    except SystemExit:\n        pass\n"
        "from gecmetrics import get_metric\n"
        "print(get_metric('pt-m2', layer=9).column_labels(), get_metric('pt-errant').settings_dict()['metric'])\n"
        "print('loaded:', [name for name in ('torch', 'transformers') if name in sys.modules])\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-2:] == ["['PT-M2 F0.5 L9'] PT-ERRANT", "loaded: []"], done.stdout
