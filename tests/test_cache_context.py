"""The run's cache is the run's (gecmetrics.core.context): made from cache= / --cache / --no-cache,
handed to the metrics the engine runs, sent to worker processes with their tasks, never put in
os.environ; loaded resources are kept once per process whatever the run's cache, so two runs
with different caches never mix."""
from __future__ import annotations

import os
import pickle
import threading
import time
from pathlib import Path

import pytest

from gecmetrics.core.cache import Cache
from gecmetrics.core.context import Resources, RunContext, process_resources, run_context
from gecmetrics.core.lang.en.parsestore import model_namespace, parse_key
from gecmetrics.errors import InputError
from gecmetrics.io.corpus import Corpus
from gecmetrics.io.m2 import parse_m2
from gecmetrics.metrics.registry import get_metric
from gecmetrics.run.compare import compare
from gecmetrics.run.engine import score_corpus
from tests.conftest import SPACY_TEST_MODEL as MODEL, run_cli, write_files
from tests.test_errant_metric import GOLD_M2, SOURCES, SYSTEMS

OTHER_SOURCES = ["The cat sit on the mat .", "They was late yesterday .", "I has a pen ."]
OTHER_SYSTEM = ["The cat sits on the mat .", "They were late yesterday .", "I have a pen ."]


def errant(**settings):
    return get_metric("errant", spacy_model=MODEL, annotate_refs=True, **settings)


def numbers(result) -> dict:
    """A result's JSON without its signature."""
    found = result.to_dict()
    found.pop("signature")
    return found


def parsed_lines(cache_folder: Path, spacy_model, lines: list[str]) -> set[str]:
    """Which of ``lines`` the cache in ``cache_folder`` holds a parse of."""
    namespace = model_namespace(spacy_model)
    keys = {parse_key(line, False): line for line in lines}
    return {keys[key] for key in Cache(cache_folder).get_many(namespace, list(keys))}


# ----------------------------------------------------------------------------- the settings


def test_a_cache_setting_makes_a_context(tmp_path, monkeypatch):
    assert not run_context().cache.enabled  # the tests' $GECMETRICS_CACHE=off
    assert not run_context(False).cache.enabled and not run_context(True).cache.enabled
    folder = run_context(tmp_path / "a")
    assert folder.cache.enabled and folder.cache.folder == tmp_path / "a"
    assert run_context(str(tmp_path / "a")).cache is folder.cache  # one open cache per folder and process
    assert run_context(tmp_path / "a", on_warning=print).cache is not folder.cache  # a run's own, with its callback
    given = Cache(tmp_path / "b")
    assert run_context(given).cache is given and run_context(folder) is folder
    monkeypatch.setenv("GECMETRICS_CACHE", str(tmp_path / "env"))
    made = run_context()  # the variable is read now, once ...
    monkeypatch.setenv("GECMETRICS_CACHE", str(tmp_path / "later"))
    assert made.cache.folder == tmp_path / "env"  # ... and not again when the cache is first used
    assert run_context(True).cache.folder == tmp_path / "later"
    monkeypatch.setenv("GECMETRICS_CACHE", "off")
    assert run_context().cache.reason == "disabled ($GECMETRICS_CACHE=off)"
    for bad in ("", 3, 1.5, ["x"]):
        with pytest.raises(InputError):
            run_context(bad)
    with pytest.raises(AttributeError):
        folder.cache = given
    assert folder.signature_fields() == [("cache", "on")] and run_context(False).signature_fields() == []


@pytest.mark.parametrize("command", [["info"], ["clear"], ["prune", "--older-than", "30d"]])
def test_a_file_in_place_of_the_folder_is_an_error_of_the_cache_commands(command, tmp_path, monkeypatch):
    """A scoring command goes on without a cache it cannot use (one warning); the cache commands
    have no other job: exit 2, one line naming the flag or the variable and the file."""
    from tests.conftest import one_line_error

    blocker = tmp_path / "afile"
    blocker.write_text("not a cache\n", encoding="utf-8")
    message = one_line_error("--cache", str(blocker), "cache", *command)
    assert message == f"gecmetric: error: --cache: cannot use cache folder {blocker}: {blocker} is a file, not a folder\n"
    monkeypatch.setenv("GECMETRICS_CACHE", str(blocker / "inside"))
    assert f"$GECMETRICS_CACHE: cannot use cache folder {blocker / 'inside'}: {blocker} is a file" \
        in one_line_error("cache", *command)
    assert blocker.read_text(encoding="utf-8") == "not a cache\n"
    code, out, _ = run_cli("--cache", str(tmp_path / "new" / "folder"), "cache", *command)
    assert code == 0 and not (tmp_path / "new").exists()  # a folder not made yet: nothing in it, none made


@pytest.mark.parametrize("command", [["info"], ["clear"], ["prune", "--older-than", "30d"]])
def test_a_folder_name_the_system_cannot_look_up_is_an_error_of_the_cache_commands(command, tmp_path, monkeypatch):
    """A folder name the system refuses (too long; also a parent folder that cannot be searched)
    was an OSError read as a failed write: "cannot write the output", exit 1; and with neither
    --cache nor $GECMETRICS_CACHE the error named the variable, which was not set."""
    from tests.conftest import one_line_error

    long_name = tmp_path / ("d" * 300)
    message = one_line_error("--cache", str(long_name), "cache", *command)
    assert message.startswith(f"gecmetric: error: --cache: cannot use cache folder {long_name}: ")
    monkeypatch.setenv("GECMETRICS_CACHE", str(long_name))
    assert one_line_error("cache", *command).startswith("gecmetric: error: $GECMETRICS_CACHE: cannot use")
    blocker = tmp_path / "afile"
    blocker.write_text("not a cache\n", encoding="utf-8")
    monkeypatch.setenv("GECMETRICS_CACHE", "")  # unset: the user cache folder, under $XDG_CACHE_HOME
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    assert one_line_error("cache", *command).startswith("gecmetric: error: the user cache folder: cannot use")


@pytest.mark.parametrize("where", ["before", "after", "both sides", "command twice"])
def test_two_cache_folders_are_refused_wherever_given(where, tmp_path):
    """Two --cache folders before the command ran silently with the last one (click keeps the
    last of an option given twice), while one each side of the command's name was refused."""
    from tests.conftest import one_line_error

    files = write_files(tmp_path, {"src": ["He go home ."], "ref": ["He goes home ."], "hyp": ["He goes home ."]})
    first, second = str(tmp_path / "A"), str(tmp_path / "B")
    command = ["gleu", "-s", files["src"], "-r", files["ref"], "-o", files["hyp"]]
    args = {"before": ["--cache", first, "--cache", second, *command],
            "after": [*command, "--cache", first, "--cache", second],
            "both sides": ["--cache", first, *command, "--cache", second],
            "command twice": ["--cache", first, "--cache", second, "cache", "info"]}[where]
    assert "gecmetric: error: --cache is given twice with different folders" in one_line_error(*args)
    assert not (tmp_path / "A").exists() and not (tmp_path / "B").exists()
    same = [a if a != second else first for a in args]  # the same folder twice is one choice
    code, out, err = run_cli(*same)
    assert code == 0 and err == "", err
    assert run_cli("--cache", first, "--cache", first, "cache", "info")[1].startswith(f"cache: {first}")


@pytest.mark.parametrize("position", ["before", "after"])
@pytest.mark.parametrize("folder", ["", "  "])
def test_an_empty_cache_folder_names_the_flag(position, folder):
    from tests.conftest import one_line_error

    args = ["--cache", folder, "cache", "info"] if position == "before" else ["cache", "info", "--cache", folder]
    assert one_line_error(*args).startswith("gecmetric: error: --cache: empty folder name")


def test_a_context_pickles_as_its_folder(tmp_path, monkeypatch):
    context = run_context(tmp_path / "a", on_warning=print)
    monkeypatch.chdir(tmp_path)
    relative = run_context("relative")
    monkeypatch.setenv("GECMETRICS_CACHE", str(tmp_path / "elsewhere"))  # a worker's own variable is not read
    sent = pickle.loads(pickle.dumps(context))
    assert sent.cache.folder == tmp_path / "a" and sent.cache.enabled and sent.resources is process_resources()
    assert pickle.loads(pickle.dumps(relative)).cache.folder == tmp_path / "relative"  # absolute: a Dask worker
    assert not pickle.loads(pickle.dumps(run_context(False))).cache.enabled
    own = RunContext(Cache(enabled=False), Resources())
    assert pickle.loads(pickle.dumps(own)).resources is process_resources()  # loaded models are never sent


def test_a_language_is_made_in_the_run_context(tmp_path):
    """make_language hands the run's context to the languages of this package (English keeps its
    pipeline in the run's resources and its parses in the run's cache); a cache setting is made
    into a context; a plugin's from_settings without ``context`` is made from its settings."""
    from gecmetrics.core.lang import language_annotator, make_language
    from gecmetrics.core.lang.en.parse import model_name

    own = RunContext(Cache(tmp_path / "own"), Resources())
    annotator = language_annotator("en", context=own, spacy_model=MODEL)
    assert annotator.cache is own.cache
    assert own.resources.find(("spacy", model_name(MODEL))) is annotator.spacy
    assert process_resources().find(("spacy", model_name(MODEL))) is not annotator.spacy
    assert not make_language("en", context=False, spacy_model=MODEL).annotator().cache.enabled
    assert make_language("en", context=tmp_path / "other", spacy_model=MODEL).annotator().cache.folder == \
        tmp_path / "other"


def test_resources_load_once_per_key_from_many_threads():
    store, calls, started = Resources(), [], threading.Barrier(8)

    def load():
        calls.append(1)
        time.sleep(0.05)  # the other threads ask meanwhile
        return object()

    found = []

    def ask():
        started.wait()
        found.append(store.get(("model", "x"), load))

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(calls) == 1 and len({id(value) for value in found}) == 1
    with pytest.raises(ZeroDivisionError):
        store.get(("model", "y"), lambda: 1 / 0)
    assert ("model", "y") not in store and store.get(("model", "y"), lambda: 2) == 2  # a failed load is retried
    store.get(("other", 1), lambda: 3)
    store.drop("model")
    assert list(store.keys()) == [("other", 1)] and store.find(("model", "x")) is None
    store.clear()
    assert len(store) == 0


def test_a_run_of_metrics_without_a_cache_loads_no_sqlite(tmp_path):
    """GLEU+ and GREEN never ask for the cache: their runs (and commands) do not import it."""
    import subprocess
    import sys

    code = ("import sys; from gecmetrics import compare; "
            "t = compare(['a b c'], [['a b c']], {'s': ['a b d']}, metrics=['gleu', 'green'], cache=None); "
            "print(t.labels, 'sqlite3' in sys.modules, 'gecmetrics.core.cache' in sys.modules)")
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=root,
                          env={**os.environ, "PYTHONPATH": str(root)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("False False"), done.stdout


# ----------------------------------------------------------------------------- metrics in a run


def test_the_engine_binds_copies_and_signs_with_the_runs_cache(spacy_model, tmp_path):
    metric = errant()
    corpus = Corpus(SOURCES, [SYSTEMS["good"]], {"good": SYSTEMS["good"], "odd": SYSTEMS["odd"]})
    on = score_corpus([metric], corpus, cache=tmp_path / "cache")
    off = score_corpus([metric], corpus, cache=False)
    assert metric.bound_context is None  # the caller's metric is left as it was
    assert on.metrics[0] == metric and on.metrics[0].run_context.cache.folder == tmp_path / "cache"
    signed_on, signed_off = str(on.result("good", 0).signature), str(off.result("good", 0).signature)
    assert "|cache:on|" in signed_on and signed_on.replace("|cache:on", "") == signed_off
    assert numbers(on.result("odd", 0)) == numbers(off.result("odd", 0))
    assert parsed_lines(tmp_path / "cache", spacy_model, SYSTEMS["odd"])  # the run stored its parses there
    # a metric bound to a cache brings it to a run that is not told another
    bound = metric.with_context(tmp_path / "bound")
    assert "|cache:on|" in str(score_corpus([bound], corpus).result("good", 0).signature)
    assert parsed_lines(tmp_path / "bound", spacy_model, SYSTEMS["odd"])
    with pytest.raises(InputError, match="different caches"):
        score_corpus([bound, get_metric("gleu").with_context(False)], corpus)
    table = compare(SOURCES, [SYSTEMS["good"]], {"odd": SYSTEMS["odd"]}, metrics=[metric], cache=False)
    assert "cache:" not in table.signatures[0]


def test_the_one_call_shape_takes_the_same_cache(spacy_model, tmp_path, monkeypatch):
    """metric.corpus_score / sentence_scores: cache= for the call, else the metric's own, else
    the default folder the command line uses ($GECMETRICS_CACHE here)."""
    metric = get_metric("errant", spacy_model=MODEL)
    gold = parse_m2(GOLD_M2, "gold")
    hypothesis = SYSTEMS["odd"]
    plain = metric.corpus_score(SOURCES, gold, hypothesis)  # the tests' default: off
    assert "cache:" not in str(plain.signature)
    given = metric.corpus_score(SOURCES, gold, hypothesis, cache=tmp_path / "given")
    assert str(given.signature) == str(plain.signature).replace("|version:", "|cache:on|version:")
    assert numbers(given) == numbers(plain) and parsed_lines(tmp_path / "given", spacy_model, list(hypothesis))
    monkeypatch.setenv("GECMETRICS_CACHE", str(tmp_path / "default"))
    sentences = metric.sentence_scores(SOURCES, gold, hypothesis)
    assert "|cache:on|" in str(sentences.signature)
    assert parsed_lines(tmp_path / "default", spacy_model, list(hypothesis))
    assert "cache:" not in str(metric.corpus_score(SOURCES, gold, hypothesis, cache=False).signature)
    bound = metric.with_context(tmp_path / "bound")
    assert "|cache:on|" in str(bound.corpus_score(SOURCES, gold, hypothesis).signature)
    assert parsed_lines(tmp_path / "bound", spacy_model, list(hypothesis))
    assert metric.bound_context is None


def test_two_runs_in_one_process_with_different_caches_do_not_mix(spacy_model, tmp_path):
    """Two threads run the same metric settings at once, each on its own corpus and cache: the
    spaCy pipeline is loaded once for both, and each cache holds its own corpus's parses only."""
    runs = {"a": (SOURCES, SYSTEMS["odd"]), "b": (OTHER_SOURCES, OTHER_SYSTEM)}
    results, errors, barrier = {}, [], threading.Barrier(2)

    def run(name: str) -> None:
        sources, system = runs[name]
        try:
            barrier.wait()
            for _ in range(3):
                scored = score_corpus([errant()], Corpus(sources, [system], {"sys": system}), chunk_lines=1,
                                      cache=tmp_path / name)
            results[name] = numbers(scored.result("sys", 0))
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=run, args=(name,)) for name in runs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors
    for name, (sources, system) in runs.items():
        other = runs["b" if name == "a" else "a"]
        assert parsed_lines(tmp_path / name, spacy_model, list(system)) == set(system) - set(sources)
        assert not parsed_lines(tmp_path / name, spacy_model, [*other[0], *other[1]])
        alone = score_corpus([errant()], Corpus(sources, [system], {"sys": system}), cache=False)
        assert results[name] == numbers(alone.result("sys", 0))


# ----------------------------------------------------------------------------- the command line


def test_a_command_with_a_cache_leaves_the_environment_alone(spacy_model, tmp_path):
    files = write_files(tmp_path, {"src": SOURCES, "gold.m2": GOLD_M2, "hyp": SYSTEMS["odd"]})
    before = dict(os.environ)
    code, out, err = run_cli("--cache", str(tmp_path / "cache"), "errant", "-s", files["src"], "-r",
                             files["gold.m2"], "-o", files["hyp"], "--spacy-model", MODEL, "--json")
    assert code == 0, err
    assert dict(os.environ) == before and "|cache:on|" in out
    code, out, err = run_cli("--no-cache", "m2", "annotate", "-orig", files["src"], "-cor", files["hyp"],
                             "--spacy-model", MODEL)
    assert code == 0 and dict(os.environ) == before


def test_worker_processes_use_the_given_folder(spacy_model, tmp_path, fresh_resources):
    """-p 2 workers inherit $GECMETRICS_CACHE=off from this test session: the folder they store
    into can only have come with their tasks."""
    assert os.environ["GECMETRICS_CACHE"] == "off"
    files = write_files(tmp_path, {"src": SOURCES, "gold.m2": GOLD_M2, "hyp": SYSTEMS["odd"]})
    args = ["errant", "-s", files["src"], "-r", files["gold.m2"], "-o", files["hyp"], "--spacy-model", MODEL]
    code, out, err = run_cli("--cache", str(tmp_path / "cache"), *args, "-p", "2", "--chunk-lines", "2")
    assert code == 0, err
    model = fresh_resources.find(("spacy", MODEL))
    assert model is None or model.parsed == 0  # the workers parsed, this process did not
    changed = {h for s, h in zip(SOURCES, SYSTEMS["odd"]) if s.split() != h.split() and h.strip()}
    assert parsed_lines(tmp_path / "cache", spacy_model, sorted(changed)) == changed
    assert out == run_cli("--no-cache", *args)[1]
