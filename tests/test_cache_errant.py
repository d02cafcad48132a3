"""ERRANT's parses and edits in the persistent cache: the same M2 and scores with the cache cold,
warm, disabled, with damaged values, a damaged or truncated file; a warm run parses nothing and
never loads spaCy (with its edits stored it reads no parse either); another spaCy, model version
or model file is another namespace, as are other annotator settings, word list or code for the
edits; two processes (and -p 2 workers) fill one cache at once; the signature says cache:on;
`gecmetric cache`."""
from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from gecmetrics.core.cache import FILE_NAME, Cache, CacheWarning
from gecmetrics.core.lang.en import modelid
from gecmetrics.core.lang.en.parse import SpacyModel, sentence_from_words
from gecmetrics.core.lang.en import editstore
from gecmetrics.core.lang.edits import AnnotatedEdit
from gecmetrics.core.lang.en.parsestore import model_namespace, pack_parse, parse_key, unpack_parse
from gecmetrics.io.m2 import format_m2
from gecmetrics.metrics.errant import Annotator
from tests.conftest import SPACY_TEST_MODEL as MODEL, one_line_error, run_cli, write_files
from tests.test_errant_metric import GOLD_M2, SOURCES, SYSTEMS

ROOT = Path(__file__).resolve().parent.parent
EXTRA = {"extra": ["He goes to school every day , he said .", "She has two cats and a dog .", "It is raining .",
                   "We are happy now !", "This sentence is fine , too .", "Bye ."]}


def annotated(model: SpacyModel, cache: Cache, systems: dict[str, list[str]] = SYSTEMS) -> str:
    """The M2 of every system (each distinct line parsed once, or read from ``cache``)."""
    blocks = Annotator(model, cache=cache).annotate_sets(SOURCES, [[lines] for lines in systems.values()],
                                                         keep_empty=True)
    return "\n".join(format_m2(system) for system in blocks)


def entries(folder, namespace: str) -> int:
    found = Cache(folder).info().namespaces.get(namespace)
    return 0 if found is None else found.entries


def edits_namespace(model: SpacyModel, **settings) -> str:
    """Where an annotator of these settings keeps its edits (in any cache: this one is never opened)."""
    return Annotator(model, cache=Cache(ROOT / "never-opened"), **settings).edits_namespace()


def fresh() -> SpacyModel:
    """A model object that has loaded nothing yet (so its ``parsed`` and ``_nlp`` tell)."""
    return SpacyModel(MODEL)


@pytest.fixture
def expected(spacy_model: SpacyModel) -> str:
    """The M2 without any cache."""
    return annotated(spacy_model, Cache(enabled=False))


def test_pack_round_trip_and_unreadable_values():
    sentence = sentence_from_words(["I", "Gonna", "ＡＢ", "x"], lower=["i", "gonna", "ａｂ", "X"],
                                   lemma=["I", "gon", "ａｂ", ""], head=[1, 1, 1, 0])
    assert unpack_parse(pack_parse(sentence)) == sentence
    assert pack_parse(sentence_from_words(["a\x1fb"])) is None  # a separator in a token: not stored
    good = pack_parse(sentence)
    for bad in (b"", b"\x02" + good[1:], good[:-1] + b"2", good.replace(b"\x1e", b"\x1f", 1), b"\x01\xff\x1e"):
        with pytest.raises(ValueError):
            unpack_parse(bad)


def test_cold_warm_disabled_give_the_same_m2_and_warm_parses_nothing(spacy_model, expected, tmp_path, monkeypatch):
    before = spacy_model.parsed
    assert annotated(spacy_model, Cache(tmp_path)) == expected  # cold: parses and stores
    cold = spacy_model.parsed - before
    assert cold > 0
    pairs = {(" ".join(source.split()), " ".join(line.split())) for lines in SYSTEMS.values()
             for source, line in zip(SOURCES, lines) if " ".join(source.split()) != line.strip()}
    assert entries(tmp_path, model_namespace(spacy_model)) == cold
    assert entries(tmp_path, edits_namespace(spacy_model)) == len(pairs) > 0
    assert Cache(tmp_path).info().entries == cold + len(pairs)
    model = fresh()
    with monkeypatch.context() as patched:  # every pair's edits are stored: no parse is even read
        patched.setattr("gecmetrics.core.lang.en.annotator.parse_lines", None)
        assert annotated(model, Cache(tmp_path)) == expected  # warm, in a model object that loaded nothing
    assert model.parsed == 0 and model._nlp is None
    Cache(tmp_path).clear(edits_namespace(spacy_model))
    model = fresh()
    assert annotated(model, Cache(tmp_path)) == expected  # warm parses, edits made again
    assert model.parsed == 0 and model._nlp is None
    assert entries(tmp_path, edits_namespace(spacy_model)) == len(pairs)
    # a sixth system after five: only its new lines are parsed
    model = fresh()
    assert annotated(model, Cache(tmp_path), {**SYSTEMS, **EXTRA}).startswith(expected)
    new_lines = {line for line, source in zip(EXTRA["extra"], SOURCES) if line != source}
    assert model.parsed == len(new_lines - {line for lines in SYSTEMS.values() for line in lines})


def test_damaged_values_are_parsed_again_and_overwritten(spacy_model, expected, tmp_path, monkeypatch):
    annotated(spacy_model, Cache(tmp_path))
    cache = Cache(tmp_path)
    namespace = model_namespace(spacy_model)
    keys = [parse_key(line, False) for lines in [SOURCES, *SYSTEMS.values()] for line in lines if line.strip()]
    stored = cache.get_many(namespace, keys)
    cache.put_many(namespace, {key: b"\x01garbage" for key in list(stored)[:3]})
    edits = edits_namespace(spacy_model)
    cache.clear(edits)  # else no parse is read
    model = fresh()
    assert annotated(model, Cache(tmp_path)) == expected
    assert model.parsed == 3
    again = fresh()
    assert annotated(again, Cache(tmp_path)) == expected and again.parsed == 0
    # damaged edits: those pairs are parsed (read back) and annotated again, and overwritten
    stored = dict(cache.iter_many(edits, [editstore.edit_key(pair, False) for pair in
                                          {(" ".join(s.split()), " ".join(h.split())) for lines in SYSTEMS.values()
                                           for s, h in zip(SOURCES, lines)}]))
    damaged = list(stored)[:3]
    cache.put_many(edits, {damaged[0]: b"[[0,1,0,1,\"R:OTHER\"]]", damaged[1]: b"\xff", damaged[2]: b"{}"})
    calls = []
    real = Annotator.edits
    monkeypatch.setattr(Annotator, "edits", lambda self, orig, cor: calls.append(1) or real(self, orig, cor))
    model = fresh()
    assert annotated(model, Cache(tmp_path)) == expected and len(calls) == 3 and model.parsed == 0
    assert cache.get_many(edits, damaged) == {key: stored[key] for key in damaged}


REANNOTATED = GOLD_M2 + """
S It are raining today .
A 1 2|||R:VERB:SVA|||is|||REQUIRED|||-NONE-|||0
A 3 4|||Um|||-NONE-|||REQUIRED|||-NONE-|||0
"""


@pytest.mark.parametrize("mode", ["auto", "gold"])
def test_reannotation_reads_the_stored_edits(spacy_model, tmp_path, monkeypatch, mode):
    """errant_m2: -auto re-extracts each annotator's (source, correction) pair through the edit
    store (a warm run parses only the sentences whose detection spans it types); -gold keeps
    the spans and types them from the parses. The M2 is the same cold, warm and without cache."""
    from gecmetrics.io.m2 import parse_m2

    blocks = parse_m2(REANNOTATED, "gold.m2")
    expected = format_m2(Annotator(spacy_model, cache=Cache(enabled=False)).reannotate(blocks, mode))
    assert format_m2(Annotator(spacy_model, cache=Cache(tmp_path)).reannotate(blocks, mode)) == expected
    model = fresh()
    parsed = []
    real = Annotator.parse
    monkeypatch.setattr(Annotator, "parse", lambda self, lines, tokenise=None: parsed.extend(lines) or
                        real(self, lines, tokenise))
    assert format_m2(Annotator(model, cache=Cache(tmp_path)).reannotate(blocks, mode)) == expected
    assert model.parsed == 0 and model._nlp is None
    if mode == "auto":  # only the block with a detection span: its source and correction
        assert set(parsed) == {"It are raining today .", "It is raining today ."}
    else:
        assert set(parsed) >= {block.source for block in blocks if any(edit.type != "noop" for edit in block.edits)}


def test_pair_edits_are_the_edits_of_the_parses_and_check_their_arguments(spacy_model, tmp_path):
    annotator = Annotator(spacy_model, cache=Cache(tmp_path))
    pairs = [(SOURCES[0], SYSTEMS["odd"][0]), (SOURCES[1], SYSTEMS["good"][1]), (SOURCES[0], SYSTEMS["odd"][0])]
    expected = [annotator.edits(*annotator.parse(list(pair))) for pair in pairs]
    assert annotator.pair_edits(pairs) == expected == Annotator(spacy_model, cache=Cache(tmp_path)).pair_edits(pairs)
    assert annotator.pair_edits([]) == []
    for bad in ("He go .", [("He go .",)], [("He go .", None)], [["a", "b", "c"]], None):
        with pytest.raises(TypeError, match="pairs must be"):
            annotator.pair_edits(bad)


def test_edit_values_round_trip_and_unreadable_ones_are_misses():
    edits = [AnnotatedEdit(0, 1, 0, 2, "R:NOUN", "two words"), AnnotatedEdit(3, 3, 4, 5, "M:DET", "the")]
    assert editstore.unpack_edits(editstore.pack_edits(edits)) == edits
    assert editstore.unpack_edits(editstore.pack_edits([])) == []
    lone = [AnnotatedEdit(0, 1, 0, 1, "R:NOUN", "\udc80")]  # no UTF-8 for it: kept as JSON's escape
    assert editstore.unpack_edits(editstore.pack_edits(lone)) == lone
    for bad in (b"", b"\x01", b"null", b'[[0,1,0,1,"R:NOUN"]]', b'[[1,0,0,1,"R:NOUN","x"]]',
                b'[[-1,0,0,1,"R:NOUN","x"]]', b'[[0,1,0,true,"R:NOUN","x"]]', b'[[0,1,0,1,2,"x"]]'):
        assert editstore.unpack_edits(bad) is None, bad


def test_edit_settings_word_list_and_code_are_other_namespaces(spacy_model, tmp_path, monkeypatch):
    """Stored edits are never read by an annotator that could make other ones."""
    default = edits_namespace(spacy_model)
    assert default.endswith("/" + model_namespace(spacy_model)) and "/merge-rules/align-linguistic/" in default
    others = {edits_namespace(spacy_model, merge="all-split"), edits_namespace(spacy_model, lev=True),
              edits_namespace(spacy_model, word_list=frozenset({"a", "word"}))}
    assert len(others) == 3 and default not in others
    assert edits_namespace(spacy_model, tokenise=True) == default  # the key says the tokenisation
    copy = tmp_path / "en_GB-large.txt"
    copy.write_text("a\nword\n")
    assert edits_namespace(spacy_model, word_list=str(copy)) == edits_namespace(spacy_model,
                                                                               word_list=frozenset({"a", "word"}))
    editstore.code_digest.cache_clear()
    monkeypatch.setattr(editstore, "EDIT_CODE", editstore.EDIT_CODE[:-1])
    try:
        assert edits_namespace(spacy_model) != default
        editstore.code_digest.cache_clear()  # a module whose source is not there: no edits kept
        monkeypatch.setattr(editstore, "EDIT_CODE", (*editstore.EDIT_CODE, "missing.py"))
        assert edits_namespace(spacy_model) is None
        annotated(spacy_model, Cache(tmp_path))
        assert list(Cache(tmp_path).info().namespaces) == [model_namespace(spacy_model)]
    finally:
        editstore.code_digest.cache_clear()
    assert Annotator(spacy_model, cache=Cache(enabled=False)).edits_namespace() is None
    assert Annotator(SpacyModel(str(tmp_path / "nowhere")), cache=Cache(tmp_path)).edits_namespace() is None


@pytest.mark.parametrize("damage", ["random bytes", "truncated"])
def test_damaged_or_truncated_file_is_detected_and_rebuilt(spacy_model, expected, tmp_path, damage):
    cache = Cache(tmp_path)
    annotated(spacy_model, cache)
    cache.close()
    path = tmp_path / FILE_NAME
    if damage == "random bytes":
        path.write_bytes(random.Random(0).randbytes(os.path.getsize(path)))
    else:
        with open(path, "r+b") as handle:
            handle.truncate(os.path.getsize(path) // 2)
    with pytest.warns(CacheWarning) as record:
        model = fresh()
        assert annotated(model, Cache(tmp_path)) == expected
    assert len([w for w in record if issubclass(w.category, CacheWarning)]) == 1
    assert model.parsed > 0 and (tmp_path / (FILE_NAME + ".bad")).is_file()
    with warnings.catch_warnings():
        warnings.simplefilter("error", CacheWarning)
        again = fresh()
        assert annotated(again, Cache(tmp_path)) == expected and again.parsed == 0


def test_spacy_version_change_invalidates(spacy_model, expected, tmp_path, monkeypatch):
    annotated(spacy_model, Cache(tmp_path))
    namespace = model_namespace(spacy_model)
    real = modelid.package_version
    monkeypatch.setattr(modelid, "package_version", lambda name: "99.0.0" if name == "spacy" else real(name))
    assert model_namespace(spacy_model) != namespace and "spacy-99.0.0" in model_namespace(spacy_model)
    before = spacy_model.parsed
    assert annotated(spacy_model, Cache(tmp_path)) == expected
    assert spacy_model.parsed > before  # nothing read back from the other version's namespace
    assert spacy_model.versions()["spacy"] == "99.0.0"


def test_model_version_or_files_change_invalidates(spacy_model, tmp_path, monkeypatch):
    identity = spacy_model.identity
    copy = tmp_path / "model"
    shutil.copytree(Path(identity.path) / identity.label, copy)  # the package's data folder: a model path
    copied = SpacyModel(str(copy))
    assert copied.identity.label == identity.label and model_namespace(copied) != model_namespace(spacy_model)
    namespace = model_namespace(copied)
    meta = json.loads((copy / "meta.json").read_text(encoding="utf-8"))
    meta["version"] = "3.8.1"
    (copy / "meta.json").write_text(json.dumps(meta), encoding="utf-8")
    modelid._identity_seen_from.cache_clear()  # a new process would compute the identity again
    bumped = SpacyModel(str(copy))
    assert bumped.versions()["model"].endswith("-3.8.1") and model_namespace(bumped) != namespace
    namespace = model_namespace(bumped)
    weights = copy / "tok2vec" / "model"
    stat = weights.stat()
    os.utime(weights, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))  # retrained in place
    modelid._identity_seen_from.cache_clear()  # a new process would compute the identity again
    assert model_namespace(SpacyModel(str(copy))) != namespace
    # and a parse with the changed model is made, not read back
    cache = Cache(tmp_path / "cache")
    annotated(spacy_model, cache)
    changed = SpacyModel(str(copy))
    annotated(changed, cache)
    assert changed.parsed > 0


def test_model_not_found_on_disk_is_parsed_without_cache(tmp_path):
    assert model_namespace(SpacyModel(str(tmp_path / "nowhere"))) is None
    assert model_namespace(SpacyModel("gecmetrics")) is None  # a package, but no spaCy model


def cli_command(*args: str) -> list[str]:
    return [sys.executable, "-c", "from gecmetrics.cli import run; run()", *args]


def environment() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}


def test_two_processes_and_workers_fill_one_cache_at_once(spacy_model, tmp_path):
    files = write_files(tmp_path, {"src": SOURCES, **{name: lines for name, lines in SYSTEMS.items()},
                                   **EXTRA})
    names = [files[name] for name in [*SYSTEMS, *EXTRA]]
    off = run_cli("--no-cache", "m2", "annotate", "-orig", files["src"], "-cor", *names, "--spacy-model", MODEL)
    assert off[0] == 0
    folder = str(tmp_path / "cache")
    command = cli_command("--cache", folder, "m2", "annotate", "-orig", files["src"], "-cor", *names,
                          "--spacy-model", MODEL, "--chunk-lines", "2")
    both = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment())
            for _ in range(2)]
    outputs = [process.communicate(timeout=600) for process in both]
    assert [process.returncode for process in both] == [0, 0], outputs
    # (a blank source line: both say it has no block, as the run without the cache does)
    assert [out for out, _ in outputs] == [off[1], off[1]] and [err for _, err in outputs] == [off[2], off[2]]
    assert off[2].count("\n") == 1 and "1 blank line of" in off[2]
    parses, edits = entries(folder, model_namespace(spacy_model)), entries(folder, edits_namespace(spacy_model))
    assert parses > 0 and edits > 0
    workers = subprocess.run(cli_command("--cache", folder, "errant", "-s", files["src"], "-r",
                                         write_files(tmp_path, {"gold.m2": GOLD_M2})["gold.m2"], "-o", *names,
                                         "--spacy-model", MODEL, "-p", "2", "--chunk-lines", "2", "--json"),
                             capture_output=True, text=True, env=environment(), timeout=600)
    assert workers.returncode == 0 and workers.stderr == "", workers.stderr
    # what m2 annotate stored, plus the two lines only errant parses (blocks of an empty source)
    # and their pairs
    assert entries(folder, model_namespace(spacy_model)) == parses + len({"Hello .", "Bye ."})
    assert entries(folder, edits_namespace(spacy_model)) == edits + len({"Hello .", "Bye ."})
    code, alone, _ = run_cli("--no-cache", "errant", "-s", files["src"], "-r", str(tmp_path / "gold.m2"), "-o", *names,
                             "--spacy-model", MODEL, "--json")
    ours, theirs = json.loads(workers.stdout), json.loads(alone)
    signed, plain = [row.pop("signature") for row in ours], [row.pop("signature") for row in theirs]
    assert code == 0 and ours == theirs  # the same numbers ...
    assert all("|cache:on|" in s for s in signed) and not any("cache:" in s for s in plain)  # ... the signature says


def test_warm_run_through_the_command_parses_nothing(spacy_model, tmp_path, monkeypatch):
    from gecmetrics.core import context

    files = write_files(tmp_path, {"src": SOURCES, "gold.m2": GOLD_M2, **SYSTEMS})
    args = ["errant", "-s", files["src"], "-r", files["gold.m2"], "-o", *(files[n] for n in SYSTEMS),
            "--spacy-model", MODEL, "--signature"]
    runs = []
    for _ in range(2):
        monkeypatch.setattr(context, "_PROCESS", store := context.Resources())  # as in a new process
        runs.append(run_cli("--cache", str(tmp_path / "cache"), *args))
        runs[-1] += (store.find(("spacy", MODEL)).parsed,)
    (code1, out1, err1, parsed1), (code2, out2, err2, parsed2) = runs
    assert code1 == code2 == 0 and out1 == out2 and err1 == err2 and "|cache:on|" in err1
    assert parsed1 > 0 and parsed2 == 0 and store.find(("spacy", MODEL))._nlp is None
    code, out, err = run_cli("--no-cache", *args)
    assert out == out1 and err == err1.replace("|cache:on", "")


def test_cache_command_info_clear_prune(spacy_model, tmp_path):
    folder = str(tmp_path / "cache")
    assert run_cli("--cache", folder, "cache", "info")[1].startswith(f"cache: {folder}")
    assert not (tmp_path / "cache" / FILE_NAME).exists()  # looking creates nothing
    annotated(spacy_model, Cache(folder))
    namespace = model_namespace(spacy_model)
    code, out, _ = run_cli("--cache", folder, "cache", "info", "--json")
    found = json.loads(out)
    assert code == 0 and found["entries"] > 0
    assert sorted(found["namespaces"]) == sorted([namespace, edits_namespace(spacy_model)])
    assert run_cli("--cache", folder, "cache", "prune", "--older-than", "30d")[1].startswith("removed 0 entries")
    code, out, _ = run_cli("--cache", folder, "cache", "prune", "--max-size", "1")
    assert code == 0 and out.startswith(f"removed {found['entries']} entries")
    annotated(spacy_model, Cache(folder))
    assert "no entries of 'other' in the cache (it holds errant-edits, spacy-parse)" in \
        one_line_error("--cache", folder, "cache", "clear", "--namespace", "other")
    assert run_cli("--cache", folder, "cache", "clear")[1].startswith(f"removed {found['entries']} entries")
    assert run_cli("--no-cache", "cache", "info")[1].strip() == "cache: off (disabled (--no-cache))"


@pytest.mark.parametrize("args, message", [
    (["cache", "prune"], "give --max-size SIZE, --older-than AGE or both"),
    (["cache", "prune", "--max-size", "2 parsecs"], "--max-size: '2 parsecs' is not a size"),
    (["cache", "prune", "--older-than", "soon"], "--older-than: 'soon' is not an age"),
    (["--no-cache", "--cache", "DIR", "cache", "info"], "--cache and --no-cache do not go together"),
])
def test_cache_command_errors_are_one_line(args, message, tmp_path):
    from tests.conftest import one_line_error

    assert message in one_line_error(*args)


def test_dask_workers_use_the_runs_cache(spacy_model, tmp_path, fresh_resources):
    """Workers of a local Dask cluster store into the run's folder, which they get with their
    tasks (not from the environment); this process parses nothing."""
    pytest.importorskip("distributed", reason="the Dask path needs gecmetrics[dask] (dask, distributed)")
    files = write_files(tmp_path, {"src": SOURCES, "hyp": SYSTEMS["odd"]})
    folder = tmp_path / "cache"
    args = ["m2", "annotate", "-orig", files["src"], "-cor", files["hyp"], "--spacy-model", MODEL]
    code, out, err = run_cli("--cache", str(folder), *args, "--dask", "local", "-p", "2", "--chunk-lines", "2")
    assert code == 0, err
    model = fresh_resources.find(("spacy", MODEL))
    assert model is None or model.parsed == 0
    assert out == run_cli("--no-cache", *args)[1]
    namespace = model_namespace(spacy_model)
    assert sorted(Cache(folder).info().namespaces) == sorted([namespace, edits_namespace(spacy_model)])
    keys = [parse_key(line, False) for line in SYSTEMS["odd"][:-1]]  # the last source is empty: not annotated
    assert len(Cache(folder).get_many(namespace, keys)) == len(keys)


def test_a_long_run_reloads_the_pipeline_and_parses_the_same(spacy_model, monkeypatch):
    """Memory stays bounded on millions of lines: the pipeline is dropped and loaded again after
    RELOAD_AFTER texts, which changes no parse."""
    from gecmetrics.core.lang.en import parse

    lines = [line for lines in [SOURCES, *SYSTEMS.values(), *EXTRA.values()] for line in lines if line.strip()]
    expected = spacy_model.parse(lines)
    monkeypatch.setattr(parse, "RELOAD_AFTER", 5)
    model, loads = fresh(), []
    real_load = model._load
    monkeypatch.setattr(model, "_load", lambda: loads.append(1) or real_load())
    got = [sentence for start in range(0, len(lines), 4) for sentence in model.parse(lines[start:start + 4])]
    assert got == expected and len(loads) == -(-len(range(0, len(lines), 4)) // 2)  # a load per two calls
