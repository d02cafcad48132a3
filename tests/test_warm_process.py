"""The tests' warm process (tests/_warm_process.py, conftest's ``run_gecmetric``): a command run
in a child of it prints, writes and exits as the console script in a process of its own."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.conftest import command_environment, gecmetric_script, run_gecmetric, write_files
from tests._warm_process import WARM, startup_variables

TIMEOUT = 300


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    write_files(tmp_path, {"src": ["A b c .", "D e f ."], "ref": ["A b c .", "D e g ."], "hyp": ["A b c .", "D e g ."],
                           "systemé": ["A c .", "D e ."]})
    return tmp_path


def fresh(args: list[str], folder: Path, env: dict[str, str] | None = None, **options) -> subprocess.CompletedProcess:
    return subprocess.run([gecmetric_script(), *args], cwd=folder, env=env or command_environment(),
                          capture_output=True, timeout=TIMEOUT, **options)


@pytest.mark.parametrize("args", [
    ["gleu", "-s", "src", "-r", "ref", "-o", "hyp", "systemé", "-n", "2", "-d", "4"],
    ["compare", "-s", "src", "-r", "ref", "-o", "hyp", "systemé", "--metrics", "gleu:n=2,green:n=2", "--json"],
    ["gleu", "-s", "src", "-r", "ref", "-o", "missing"],  # exit 2, one line
    ["gleu", "--frobnicate"],  # click's usage error
    ["--version"],
])
def test_the_same_bytes_and_exit_code_as_a_process_of_its_own(corpus: Path, args: list[str]) -> None:
    server = WARM.server(command_environment())
    children = server.children()
    warm = run_gecmetric(args, cwd=corpus, capture_output=True, timeout=TIMEOUT)
    assert server.children() == children + 1  # it ran in a child of the server
    alone = fresh(args, corpus)
    assert (warm.returncode, warm.stdout, warm.stderr) == (alone.returncode, alone.stdout, alone.stderr)
    assert warm.stdout or warm.stderr


def test_standard_input_and_output_files(corpus: Path) -> None:
    """The child reads the client's stdin and writes files in the client's folder."""
    gold = ("S A b c .\nA 2 3|||R:NOUN|||d|||REQUIRED|||-NONE-|||0\n\n"
            "S D e .\nA 0 1|||R:DET|||F|||REQUIRED|||-NONE-|||0\n\n")
    args = ["m2", "refs", "-", "--prefix", "p"]
    warm = run_gecmetric(args, cwd=corpus, input=gold.encode(), capture_output=True, timeout=TIMEOUT)
    assert warm.returncode == 0, warm.stderr
    written = {name: (corpus / name).read_bytes() for name in ("p.src", "p.ref0")}
    assert written == {"p.src": b"A b c .\nD e .\n", "p.ref0": b"A b d .\nF e .\n"}
    for name in written:
        (corpus / name).unlink()
    alone = fresh(args, corpus, input=gold.encode())
    assert alone.returncode == 0 and {name: (corpus / name).read_bytes() for name in written} == written
    assert (warm.stdout, warm.stderr) == (alone.stdout, alone.stderr)


def test_a_request_with_other_start_up_variables_runs_in_a_fresh_process(corpus: Path) -> None:
    """PYTHONIOENCODING is read when Python starts: the warm process's children write UTF-8, so a
    command asking for Latin-1 must get a process of its own (the client starts it)."""
    env = command_environment(PYTHONIOENCODING="latin-1")
    assert startup_variables(env) != startup_variables(command_environment())
    args = ["gleu", "-s", "src", "-r", "ref", "-o", "systemé", "-n", "2", "-d", "4"]
    server = WARM.server(command_environment())
    children = server.children()
    warm = subprocess.run([*server.command, *args], cwd=corpus, env=env, capture_output=True, timeout=TIMEOUT)
    assert server.children() == children
    alone = fresh(args, corpus, env=env)
    assert warm.returncode == alone.returncode == 0
    assert warm.stdout == alone.stdout and "systemé".encode("latin-1") in warm.stdout


def test_without_a_server_the_client_is_the_console_script(corpus: Path, tmp_path: Path) -> None:
    command = [part if not part.endswith(".sock") else str(tmp_path / "none.sock")
               for part in WARM.command(command_environment())]
    args = ["gleu", "-s", "src", "-r", "ref", "-o", "hyp", "-n", "2"]
    warm = subprocess.run([*command, *args], cwd=corpus, env=command_environment(), capture_output=True,
                          timeout=TIMEOUT)
    assert (warm.returncode, warm.stdout) == (0, fresh(args, corpus).stdout)


def test_a_command_ends_while_a_later_one_still_runs(corpus: Path) -> None:
    """A child forked while another command runs must not keep that command's connection open:
    the first command's client returns as soon as its own child exits."""
    import time

    server = WARM.server(command_environment())
    args = ["gleu", "-s", "src", "-r", "ref", "-o", "-", "-n", "2", "-d", "4"]
    running = []
    for _ in range(2):  # each waits on its standard input until the test writes it
        children = server.children()
        running.append(subprocess.Popen([*server.command, *args], cwd=corpus, env=command_environment(),
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE))
        deadline = time.monotonic() + 60
        while server.children() == children and time.monotonic() < deadline:
            time.sleep(0.05)
        assert server.children() == children + 1
    first, later = running
    out, err = first.communicate((corpus / "hyp").read_bytes(), timeout=60)
    assert first.returncode == 0 and out.endswith(b"\t100.0000\n"), err
    assert later.poll() is None  # still reading its input
    assert later.communicate((corpus / "hyp").read_bytes(), timeout=60)[0] == out
