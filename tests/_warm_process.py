"""A warm process for the ``gecmetric`` commands the tests run as a user would.

A ``gecmetric`` process pays Python's start-up and its imports (NumPy, click, the package; spaCy
for an ERRANT command, torch and transformers for a model metric's) before it reads a line:
about 0.3 s of CPU for a light command, 1-2 s with spaCy, 3-5 s with torch. The docs' console
examples and the bad-input batteries run a few hundred such commands.

So those tests run ``gecmetric`` as a small client (:data:`CLIENT`, started with ``python -S``:
:func:`client_command`) that hands its arguments, working folder, environment and standard
streams (the descriptors themselves, over a Unix socket) to a server (:func:`serve`) started
once per test worker (conftest's ``run_gecmetric``), which has imported all of that. The
server forks; the child takes the client's streams as 0, 1 and 2, its folder, environment and
arguments, and runs the console script's own entry point (:func:`gecmetrics.cli.run`: signals,
exit codes, the exit without teardown), so the command runs as the user's does, only without
the imports. The client exits with the child's code (a child killed by a signal: the client
kills itself with that signal), and the server ends the child when the client goes away (a
test's timeout).

A request whose environment differs from the server's in a variable read at start-up
(:func:`startup_variables`: Python's, the locale, the thread counts, Hugging Face's) gets a
fresh process instead: the client starts the console script itself, as it does when no server
answers. What a fresh process adds (the console script's start-up, what each command imports)
is checked with real processes where it matters: the warm-run import probes, the console script
tests, test_signals. ``GECMETRICS_TEST_FRESH_PROCESSES=1`` gives every command a fresh process.
"""
from __future__ import annotations

import importlib
import importlib.util
import json
import os
import re
import select
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FRESH_VARIABLE = "GECMETRICS_TEST_FRESH_PROCESSES"
HEADER = 8
"""Bytes of the request's length, before its JSON."""
FRESH = b"fresh\n"
"""The server's answer to a request it leaves to a fresh process."""
CONSOLE_SCRIPT = [sys.executable, "-c", "from gecmetrics.cli import run; run()"]
"""``gecmetric`` as a process of its own (what the installed console script runs)."""

CLIENT = r"""
import os, sys, socket, json, signal
path, args = sys.argv[1], sys.argv[2:]
def fresh():
    os.execv(sys.executable, [sys.executable, "-c", "from gecmetrics.cli import run; run()", *args])
try:
    for fd in (0, 1, 2):
        os.fstat(fd)
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    connection.connect(path)
except (OSError, ValueError):
    fresh()
request = json.dumps({"argv": args, "cwd": os.getcwd(), "env": dict(os.environ)}).encode()
socket.send_fds(connection, [len(request).to_bytes(8, "big") + request], [0, 1, 2])
answer = b""
while not answer.endswith(b"\n"):
    chunk = connection.recv(64)
    if not chunk:
        break
    answer += chunk
answer = answer.strip()
if answer == b"fresh":
    fresh()
code = int(answer or b"70")
if code < 0:
    signal.signal(-code, signal.SIG_DFL)
    os.kill(os.getpid(), -code)
sys.exit(code)
"""
"""The client: ``python -S -c CLIENT SOCKET ARGS...``; without a server, or when the server says
so, it becomes the console script itself."""

STARTUP = re.compile(r"PYTHON.*|LC_.*|LANG|LANGUAGE|.*_NUM_THREADS|HF_.*|TRANSFORMERS_.*|TORCH_.*|TOKENIZERS_.*"
                     r"|OPENBLAS_.*|MKL_.*|KMP_.*|GOMP_.*|SPACY_.*|CUDA_.*")
"""Variables the interpreter or an imported library reads when it starts or is imported."""


def startup_variables(env: dict[str, str]) -> dict[str, str]:
    return {name: value for name, value in env.items() if STARTUP.fullmatch(name)}


def client_command(socket_path: str) -> list[str]:
    """The command line of ``gecmetric`` through the server listening on ``socket_path``."""
    return [sys.executable, "-S", "-c", CLIENT, socket_path]


PRELOADED = ("numpy", "spacy", "torch", "transformers", "transformers.models.bert.modeling_bert",
             "transformers.models.bert.tokenization_bert", "transformers.models.gpt2.modeling_gpt2",
             "transformers.models.gpt2.tokenization_gpt2")
"""Imported by the server where installed, after the package's commands: what the commands
import (the tests' tiny models are BERTs and GPT-2s)."""


def _preload() -> None:
    from gecmetrics.cli import COMMAND_MODULES

    for modules in COMMAND_MODULES.values():
        for module in modules:
            importlib.import_module(f"gecmetrics.cli.{module}")
    for name in PRELOADED:
        try:
            found = importlib.util.find_spec(name) is not None
        except ModuleNotFoundError:  # its parent package is not installed
            found = False
        if found:
            importlib.import_module(name)


def _request(connection: socket.socket) -> tuple[dict, list[int]]:
    data, fds, _, _ = socket.recv_fds(connection, 1 << 16, 3)
    while len(data) < HEADER or len(data) < HEADER + int.from_bytes(data[:HEADER], "big"):
        chunk = connection.recv(1 << 16)
        if not chunk:
            for fd in fds:
                os.close(fd)
            raise ConnectionError("the client went away")
        data += chunk
    return json.loads(data[HEADER:].decode()), fds


_HELD: set[int] = set()
"""Descriptors the server holds for other requests (their connections, their children's pidfds):
a child closes them, so that no client waits on a connection another command keeps open."""
_HELD_LOCK = threading.Lock()


def _hold(fd: int, held: bool) -> None:
    with _HELD_LOCK:
        (_HELD.add if held else _HELD.discard)(fd)


def _child(request: dict, fds: list[int]) -> None:
    """In the forked child: become the client's command, then run the console script."""
    code = 70
    try:
        for fd in list(_HELD):
            os.close(fd)
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
        for fd in fds:
            if fd > 2:
                os.close(fd)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        sys.argv = ["gecmetric", *request["argv"]]
        from gecmetrics.cli import run

        run()
        code = 0
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else 1
    except BaseException:  # noqa: BLE001 - the child must never return into the server's loop
        import traceback

        traceback.print_exc()
    finally:
        os._exit(code)


def _watch(pid: int, connection: socket.socket) -> None:
    """Return when the child has exited, or kill it when the client ends first (a test's timeout
    killed it): a pidfd where the system has them, else polling every 50 ms."""
    try:
        pidfd = os.pidfd_open(pid)
    except (AttributeError, OSError):
        pidfd = None
    if pidfd is not None:
        _hold(pidfd, True)
    try:
        while True:
            ready, _, _ = select.select([connection] + ([pidfd] if pidfd is not None else []), [], [],
                                        None if pidfd is not None else 0.05)
            if pidfd in ready or (pidfd is None and os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)):
                return
            if connection in ready and not connection.recv(1, socket.MSG_PEEK):
                os.kill(pid, signal.SIGKILL)
                return
    finally:
        if pidfd is not None:
            _hold(pidfd, False)
            os.close(pidfd)


def _wait(pid: int, connection: socket.socket) -> None:
    """Send the child's exit code to the client once it has exited."""
    try:
        _watch(pid, connection)
        _, status = os.waitpid(pid, 0)
        connection.sendall(f"{os.waitstatus_to_exitcode(status)}\n".encode())
    except OSError:
        pass
    finally:
        _hold(connection.fileno(), False)
        connection.close()


def _answer(connection: socket.socket, listener: socket.socket, startup: dict[str, str]) -> None:
    """One request: a forked child runs it, or the client is told to start a fresh process."""
    try:
        request, fds = _request(connection)
    except (OSError, ValueError):
        connection.close()
        return
    if startup_variables(request["env"]) != startup:
        for fd in fds:
            os.close(fd)
        connection.sendall(FRESH)
        connection.close()
        return
    _hold(connection.fileno(), True)
    pid = os.fork()
    if pid == 0:
        listener.close()
        _child(request, fds)
    print(f"child {pid}: {' '.join(request['argv'])[:200]}", file=sys.stderr, flush=True)
    for fd in fds:
        os.close(fd)
    threading.Thread(target=_wait, args=(pid, connection), daemon=True).start()


def serve(path: str) -> None:
    """Answer requests on the Unix socket ``path`` until the parent process (the test worker) ends."""
    _preload()
    startup = startup_variables(dict(os.environ))
    parent = os.getppid()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(16)
    listener.settimeout(1.0)
    print("ready", flush=True)
    while os.getppid() == parent:
        try:
            connection, _ = listener.accept()
        except socket.timeout:
            continue
        connection.settimeout(None)
        _answer(connection, listener, startup)


class WarmProcess:
    """A server in ``folder`` with the environment ``env``; its clients: :attr:`command`."""

    def __init__(self, folder: Path, env: dict[str, str]) -> None:
        self.path = str(folder / "warm.sock")
        self.command = client_command(self.path)
        self._log = folder / "warm.log"
        with open(self._log, "w") as log:
            self._process = subprocess.Popen(
                [sys.executable, "-c", "import sys; from tests._warm_process import serve; serve(sys.argv[1])",
                 self.path], cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=log,
                text=True)
        if self._process.stdout.readline().strip() != "ready":
            self.close()
            raise RuntimeError("the warm process did not start: " + self._log.read_text()[-2000:])

    def children(self) -> int:
        """How many commands have run in children of this server (each is a line of its log)."""
        return sum(line.startswith("child ") for line in self._log.read_text().splitlines())

    def close(self) -> None:
        if self._process.poll() is None:
            self._process.kill()
        self._process.wait()
        self._process.stdout.close()


class WarmProcesses:
    """The test worker's servers, one per environment's start-up variables, each started on
    first use; :meth:`close` ends them."""

    def __init__(self) -> None:
        self._servers: dict[tuple, WarmProcess] = {}
        self._folder: Path | None = None
        self._lock = threading.Lock()  # tests run commands from several threads at once

    def command(self, env: dict[str, str] | None = None) -> list[str]:
        """How to run ``gecmetric`` with ``env`` (None: this process's environment) in a warm
        child; the console script itself under ``GECMETRICS_TEST_FRESH_PROCESSES=1``."""
        env = dict(os.environ if env is None else env)
        if env.get(FRESH_VARIABLE, "") not in ("", "0"):
            return CONSOLE_SCRIPT
        return self.server(env).command

    def server(self, env: dict[str, str]) -> WarmProcess:
        """The server of ``env``'s start-up variables, started on first use."""
        import tempfile

        key = tuple(sorted(startup_variables(env).items()))
        with self._lock:
            if key not in self._servers:
                if self._folder is None:
                    self._folder = Path(tempfile.mkdtemp(prefix="gecmetrics-warm-"))
                folder = self._folder / str(len(self._servers))
                folder.mkdir()
                self._servers[key] = WarmProcess(folder, env)
            return self._servers[key]

    def close(self) -> None:
        import shutil

        with self._lock:
            for server in self._servers.values():
                server.close()
            self._servers.clear()
            if self._folder is not None:
                shutil.rmtree(self._folder, ignore_errors=True)
                self._folder = None


WARM = WarmProcesses()
"""This test process's servers (conftest's ``pytest_sessionfinish`` closes them)."""
