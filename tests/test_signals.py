"""Signals: SIGINT, SIGTERM or SIGHUP to a run with worker processes leaves no process behind
(the process group is empty within 5 s), and an output file is complete or absent, never a
partial file that looks complete."""
from __future__ import annotations

import contextlib
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import SPACY_TEST_MODEL

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and process groups")
ROOT = str(Path(__file__).resolve().parent.parent)
WORDS = "the a cat dog sat on mat is was big small red runs ran".split()


def corpus(folder: Path, lines: int, seed: int = 0) -> dict[str, str]:
    rng = random.Random(seed)
    texts = {"src": [" ".join(rng.choices(WORDS, k=rng.randint(3, 12))) for _ in range(lines)]}
    texts["ref"] = [" ".join(line.split()[::-1]) for line in texts["src"]]
    texts["sys"] = [line.replace("cat", "cats").replace("sat", "sits") for line in texts["src"]]
    paths = {}
    for name, content in texts.items():
        (folder / name).write_text("".join(line + "\n" for line in content), encoding="utf-8")
        paths[name] = str(folder / name)
    return paths


def start(*args: str) -> subprocess.Popen:
    """The console script's code in a new session (its own process group)."""
    env = {**os.environ, "PYTHONPATH": ROOT}
    return subprocess.Popen([sys.executable, "-c", "from gecmetrics.cli import run; run()", *args], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)


def group_empty(pgid: int, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.1)
    return False


def workers_started(pgid: int, seconds: float = 20.0) -> None:
    """Wait until the run's process group holds a worker beside the main process (read from
    /proc where there is one; elsewhere a fixed wait)."""
    if not os.path.isdir("/proc/self"):
        time.sleep(0.8)
        return
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        members = 0
        for entry in filter(str.isdigit, os.listdir("/proc")):
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            members += fields[2] == str(pgid)  # the fifth field of stat: the process group
        if members >= 2:
            return
        time.sleep(0.05)


def stop(process: subprocess.Popen, signum: int) -> tuple[int, str]:
    process.send_signal(signum)
    try:
        _, err = process.communicate(timeout=10)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    return process.returncode, err.decode()


@pytest.fixture(scope="module")
def large_corpora(tmp_path_factory) -> dict[int, dict[str, str]]:
    """The runs' inputs, made once for every signal (the commands only read them): 300,000 lines
    for GLEU+ and GREEN, 80,000 and their gold M2 for the M2 scorer (slower per line)."""
    made = {}
    for lines in (300_000, 80_000):
        folder = tmp_path_factory.mktemp(f"corpus-{lines}")
        made[lines] = corpus(folder, lines)
    gold = Path(made[80_000]["src"]).with_name("gold.m2")
    gold.write_text("".join(f"S {line}\nA 0 1|||R:X|||x|||REQUIRED|||-NONE-|||0\n\n"
                            for line in Path(made[80_000]["src"]).read_text().splitlines()), encoding="utf-8")
    made[80_000]["gold"] = str(gold)
    return made


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
@pytest.mark.parametrize("command", ["gleu", "green-char", "m2-score"])
def test_no_worker_outlives_a_signal(large_corpora, command, signum):
    files = large_corpora[80_000 if command == "m2-score" else 300_000]  # GLEU+ and GREEN are faster
    if command == "m2-score":
        args = ["m2", "score", "-s", files["gold"], "-o", files["sys"]]
    else:
        args = {"gleu": ["gleu", "-s", files["src"], "-r", files["ref"], "-o", files["sys"], "-i", "2000"],
                "green-char": ["green", "-t", "char", "-s", files["src"], "-r", files["ref"], "-c", files["sys"]]}[command]
    process = start(*args, "-p", "2", "--chunk-lines", "500")
    workers_started(process.pid)
    time.sleep(0.2)  # the workers are scoring chunks (each run takes a few seconds here)
    if process.poll() is not None:
        pytest.skip("the run finished before the signal (a very fast machine)")
    code, err = stop(process, signum)
    assert group_empty(process.pid), f"workers left after {signal.Signals(signum).name}"
    assert code != 0 and len(err.strip().splitlines()) == 1, err


def test_workers_end_when_their_run_is_killed(large_corpora):
    """SIGKILL (or the OOM killer) ends the run with no `finally`: its workers lived on, re-parented,
    waiting on their task queue with the cache's files open (found by an audit of concurrent cache
    use: still there 150 s later); they end within a second of their parent now."""
    files = large_corpora[300_000]
    process = start("gleu", "-s", files["src"], "-r", files["ref"], "-o", files["sys"], "-i", "2000", "-p", "2",
                    "--chunk-lines", "500")
    workers_started(process.pid)
    time.sleep(0.2)
    if process.poll() is not None:
        pytest.skip("the run finished before the signal (a very fast machine)")
    process.kill()
    process.communicate(timeout=10)
    try:
        assert group_empty(process.pid), "workers left after their run was killed"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)


def test_annotation_workers_end_with_the_run(tmp_path, spacy_model):
    files = corpus(tmp_path, 20_000)
    process = start("m2", "annotate", "-orig", files["src"], "-cor", files["sys"], "-o", str(tmp_path / "out.m2"),
                    "-p", "2", "--spacy-model", SPACY_TEST_MODEL)
    time.sleep(6)
    code, err = stop(process, signal.SIGTERM)
    assert group_empty(process.pid) and code != 0
    assert not (tmp_path / "out.m2").exists() and not list(tmp_path.glob(".out.m2.*")), "a partial output was left"


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.integers(200, 30_000), delay=st.floats(0.0, 3.0), seed=st.integers(0, 100),
       signum=st.sampled_from([signal.SIGINT, signal.SIGTERM]))
def test_an_output_file_is_complete_or_absent(tmp_path_factory, lines, delay, seed, signum):
    """m2 refs of a random M2 file, stopped at a random moment: the files it writes are each
    either absent or exactly what an uninterrupted run writes."""
    folder = tmp_path_factory.mktemp("refs")
    rng = random.Random(seed)
    blocks = []
    for k in range(lines):
        tokens = rng.choices(WORDS, k=rng.randint(2, 9))
        edits = "".join(f"A 0 1|||R:X|||{rng.choice(WORDS)}|||REQUIRED|||-NONE-|||{a}\n" for a in range(2))
        blocks.append(f"S {' '.join(tokens)}\n{edits}\n")
    (folder / "gold.m2").write_text("".join(blocks), encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", "from gecmetrics.cli import run; run()", "m2", "refs",
                           str(folder / "gold.m2"), "-o", str(folder / "whole")], env={**os.environ, "PYTHONPATH": ROOT},
                          capture_output=True)
    assert done.returncode == 0, done.stderr
    process = start("m2", "refs", str(folder / "gold.m2"), "-o", str(folder / "cut"))
    time.sleep(delay)
    if process.poll() is None:
        stop(process, signum)
    assert group_empty(process.pid)
    for written in (folder / "cut").glob("*") if (folder / "cut").exists() else []:
        assert not written.name.startswith("."), f"a temporary file was left: {written.name}"
        assert written.read_bytes() == (folder / "whole" / written.name).read_bytes(), written.name


# an interrupt while the console script still imports the command's modules (before its own
# handlers are in place): raised here at the import of click, the first module the CLI needs
INTERRUPTED_IMPORT = """
import builtins, sys
real_import = builtins.__import__
def interrupting(name, *args, **kwargs):
    if name.split(".")[0] == "click":
        raise KeyboardInterrupt
    return real_import(name, *args, **kwargs)
builtins.__import__ = interrupting
from gecmetrics.cli import run
run()
"""


def test_an_interrupt_during_the_start_is_one_line_and_130():
    command = [sys.executable, "-c", INTERRUPTED_IMPORT, "--version"]
    env = {**os.environ, "PYTHONPATH": ROOT}
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (130, "", "gecmetric: aborted\n")
    # started without standard error (2>&-): the same exit code, nothing printed elsewhere
    done = subprocess.run(["sh", "-c", '"$@" 2>&-', "sh", *command], env=env, stdout=subprocess.PIPE, text=True,
                          timeout=60)
    assert (done.returncode, done.stdout) == (130, "")


# an interrupt raised in a callback, where Python drops it ("Exception ignored in ..."): here an
# object's __del__ during the import of click, which then goes on
DROPPED_INTERRUPT = INTERRUPTED_IMPORT.replace("        raise KeyboardInterrupt", """        class Dropping:
            def __del__(self):
                raise KeyboardInterrupt
        Dropping()""")


def test_an_interrupt_python_drops_during_the_start_still_stops_the_run():
    done = subprocess.run([sys.executable, "-c", DROPPED_INTERRUPT, "--version"], env={**os.environ, "PYTHONPATH": ROOT},
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (130, "", "gecmetric: aborted\n")


def test_the_console_scripts_import_loads_almost_nothing():
    """What the console script imports before ``run()`` (``from gecmetrics.cli import run``) is
    the window where an interrupt is Python's traceback: the package and the CLI package only, not
    even typing (with re, about 20 ms). (-S: no site-packages, whose .pth files may import typing.)"""
    code = ("import sys; from gecmetrics.cli import run; print(' '.join(sorted(m for m in sys.modules "
            "if m.split('.')[0] in ('gecmetrics', 'click', 'numpy', 'typing', 're', 'dataclasses'))))")
    done = subprocess.run([sys.executable, "-S", "-c", code], env={**os.environ, "PYTHONPATH": ROOT},
                          capture_output=True, text=True, timeout=60, check=True)
    assert set(done.stdout.split()) == {"gecmetrics", "gecmetrics._lazy", "gecmetrics.cli", "gecmetrics.errors",
                                        "gecmetrics.version"}
