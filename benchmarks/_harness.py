"""Shared helpers for the benchmark scripts: locate the shared data, time a command as a child
process (CPU, wall, peak memory), manage the peer virtualenvs, and find the original GREEN.

Standard library only, so a benchmark runs wherever gecmetrics itself is installed. Peers
(PyPI ``gleu``, ``sacrebleu``, ``errant`` ...) are never project dependencies: each lives in its
own virtualenv in a cache folder, created on first use.
"""
from __future__ import annotations

import argparse
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = REPO_ROOT.parent / "shared" / "data"
PEERS_DIR_VARIABLE = "GECMETRICS_PEERS_DIR"
GREEN_COMMAND_VARIABLE = "GECMETRICS_GREEN_CMD"
PEER_MARKER = ".gecmetrics-peer-requirement"

# Timings are of the work itself: our commands run without the persistent cache (a user's cache
# would make every repeat after the first a warm run), unless a benchmark gives --cache DIR,
# which wins over the variable (cache_conll14.py times cold and warm runs that way).
os.environ["GECMETRICS_CACHE"] = "off"
# Bytecode caches on for every timed process, ours and the peers' alike: under
# PYTHONDONTWRITEBYTECODE (set in some shells and CI images) a package installed with pip's
# --no-compile is compiled from source at every start (NumPy alone: a GoToScorer run took
# 0.67 s of CPU instead of 0.44 s, and its ratio read 5.1x instead of 8.6x).
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


# --------------------------------------------------------------------------- data


def shared_data(subfolder: str = "") -> Path:
    """The folder ../shared/data (or a subfolder of it) beside the clone.

    Benchmarks are optional: when the data is missing, say where it was looked for and exit 0
    rather than fail, so a user's machine without the data is not an error.
    """
    folder = SHARED_DATA / subfolder if subfolder else SHARED_DATA
    if not folder.is_dir():
        print(f"shared data not found at {folder}: the benchmarks need ../shared/data beside the clone; nothing to do")
        sys.exit(0)
    return folder


def repeat_corpus(source_folder: Path, names: Sequence[str], times: int, target_folder: Path) -> None:
    """Write each file of `names` concatenated `times` times into `target_folder` (same names),
    so a scaling run sees a corpus `times` as large with the same sentence mix."""
    target_folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        data = (source_folder / name).read_bytes()
        if data and not data.endswith(b"\n"):
            data += b"\n"
        (target_folder / name).write_bytes(data * times)


# --------------------------------------------------------------------------- timing


@dataclass
class RunMeasurement:
    """One run of a child process: CPU (user + sys) and wall seconds, peak resident memory."""

    cpu_seconds: float
    wall_seconds: float
    peak_rss_bytes: int
    returncode: int
    stdout: str
    stderr: str


@dataclass
class Timing:
    """Medians over several runs of the same command, and the output of the first run."""

    command: list[str]
    runs: list[RunMeasurement] = field(default_factory=list)

    @property
    def cpu_seconds(self) -> float:
        return statistics.median(run.cpu_seconds for run in self.runs)

    @property
    def wall_seconds(self) -> float:
        return statistics.median(run.wall_seconds for run in self.runs)

    @property
    def peak_rss_mb(self) -> float:
        return statistics.median(run.peak_rss_bytes for run in self.runs) / 2**20

    @property
    def stdout(self) -> str:
        return self.runs[0].stdout

    def summary(self) -> str:
        """One line: median CPU, wall and peak memory, and the number of runs."""
        return (f"cpu {self.cpu_seconds:8.3f} s   wall {self.wall_seconds:8.3f} s   "
                f"peak RSS {self.peak_rss_mb:7.1f} MB   (median of {len(self.runs)})")


class CommandFailed(RuntimeError):
    """A timed command exited with a non-zero code; the message carries its stderr."""


# A tiny launcher process spawns the measured command and reports that command's rusage.
# Measuring through it matters for memory: a child's ru_maxrss starts from the RSS of the
# process that forked it (kept across exec), so a command forked straight from this script
# would be charged this script's memory. The launcher is a bare `python -I -S` (about 9 MB,
# below any Python program it measures), and it times only the spawn and wait.
LAUNCHER = """
import os, sys, time
result_path, command = sys.argv[1], sys.argv[2:]
start = time.perf_counter()
try:
    pid = os.posix_spawnp(command[0], command, os.environ)
except OSError as err:
    sys.stderr.write(f"cannot run {command[0]}: {err}\\n")
    sys.exit(127)
_, status, usage = os.wait4(pid, 0)
wall = time.perf_counter() - start
with open(result_path, "w") as handle:
    handle.write(f"{usage.ru_utime + usage.ru_stime!r} {wall!r} {usage.ru_maxrss} {os.waitstatus_to_exitcode(status)}")
"""


def run_once(command: Sequence[str], cwd: Path | None = None) -> RunMeasurement:
    """Run `command` once and measure that child alone: user+sys CPU, wall, peak RSS.

    The launcher takes the rusage from os.wait4 of exactly this command (with any
    grandchildren it waited for), unlike RUSAGE_CHILDREN, which accumulates over every child
    this process ever had and whose ru_maxrss is a maximum over all of them.
    """
    with tempfile.TemporaryDirectory(prefix="gecmetrics-run-") as folder:
        result_path = Path(folder) / "rusage"
        out_path, err_path = Path(folder) / "stdout", Path(folder) / "stderr"
        with open(out_path, "wb") as out, open(err_path, "wb") as err:
            launcher = [sys.executable, "-I", "-S", "-c", LAUNCHER, str(result_path), *command]
            returncode = subprocess.run(launcher, cwd=cwd, stdout=out, stderr=err, stdin=subprocess.DEVNULL).returncode
        stdout = out_path.read_bytes().decode("utf-8", "replace")
        stderr = err_path.read_bytes().decode("utf-8", "replace")
        if not result_path.exists():
            return RunMeasurement(0.0, 0.0, 0, returncode or 1, stdout, stderr)
        cpu, wall, max_rss, returncode_text = result_path.read_text().split()
    # ru_maxrss is in kilobytes on Linux, in bytes on macOS
    peak = int(max_rss) * (1 if sys.platform == "darwin" else 1024)
    return RunMeasurement(float(cpu), float(wall), peak, int(returncode_text), stdout, stderr)


def usage(timing: Timing) -> str:
    """A timing's CPU, wall time and peak memory on one line."""
    return f"cpu {timing.cpu_seconds:8.2f} s  wall {timing.wall_seconds:8.2f} s  RSS {timing.peak_rss_mb:5.0f} MB"


def print_torch_import(quick: bool, repeats: int, who_pays: str) -> None:
    """What ``import torch, transformers`` alone costs (``who_pays``: which runs pay it): not
    measured by a ``--quick`` run, the CI smoke, where each process that starts torch is seconds
    of the model tests' pass."""
    if quick:
        print("import torch, transformers alone: not measured with --quick", flush=True)
        return
    imports = measure([sys.executable, "-c", "import torch, transformers"], repeats)
    print(f"import torch, transformers alone: {usage(imports)} ({who_pays})", flush=True)


def measure(command: Sequence[str], repeats: int = 3, cwd: Path | None = None) -> Timing:
    """Run `command` `repeats` times; raise CommandFailed on the first failure."""
    timing = Timing(list(command))
    for _ in range(max(1, repeats)):
        run = run_once(command, cwd)
        if run.returncode != 0:
            raise CommandFailed(f"{shlex.join(command)} exited with {run.returncode}: {run.stderr.strip()[-2000:]}")
        timing.runs.append(run)
    return timing


def measure_peer(command: Sequence[str], repeats: int, cwd: Path | None = None) -> Timing | None:
    """Like :func:`measure` for a peer: a failing peer is reported and skipped, not fatal."""
    try:
        return measure(command, repeats, cwd)
    except CommandFailed as failure:
        print(f"[peer] failed, skipped: {failure}")
        return None


def measure_reported(label: str, command: Sequence[str], repeats: int, cwd: Path | None = None) -> Timing | None:
    """:func:`measure` then :func:`report` under ``label``; on failure print why, return None."""
    try:
        timing = measure(command, repeats, cwd)
    except CommandFailed as failure:
        print(f"{label.strip()} failed: {failure}")
        return None
    report(label, timing)
    return timing


def ratio(peer: Timing, ours: Timing) -> float:
    """How many times less CPU ours used than the peer (peer CPU / our CPU)."""
    return peer.cpu_seconds / max(ours.cpu_seconds, 1e-9)


# --------------------------------------------------------------------------- commands


def gecmetric_command() -> list[str]:
    """The `gecmetric` console script of the running interpreter's environment."""
    beside_python = Path(sys.executable).parent / "gecmetric"
    if beside_python.exists():
        return [str(beside_python)]
    on_path = shutil.which("gecmetric")
    if on_path:
        return [on_path]
    return [sys.executable, "-c", "from gecmetrics.cli import run; run()"]


def annotate_once(source: Path, corrections: Sequence[Path], outputs: dict[Path, Sequence[int]], model: str
                  ) -> Timing:
    """ERRANT M2 files made by one `gecmetric m2 annotate -orig SOURCE -cor CORRECTIONS...` (spaCy
    started once, each distinct line parsed once): ``outputs`` maps a file to the indices of its
    corrections, each written as `m2 annotate -orig SOURCE -cor` those corrections writes it
    (:func:`corrections_m2`). Returns the command's timing."""
    with tempfile.TemporaryDirectory(prefix="gecmetrics-annotate-") as folder:
        together = Path(folder) / "all.m2"
        timing = measure([*gecmetric_command(), "m2", "annotate", "-orig", str(source), "-cor",
                          *(str(path) for path in corrections), "--spacy-model", model, "-o", str(together)], 1)
        text = together.read_text(encoding="utf-8")
    for path, indices in outputs.items():
        path.write_text(corrections_m2(text, indices), encoding="utf-8")
    return timing


def corrections_m2(text: str, indices: Sequence[int]) -> str:
    """From the M2 text ERRANT writes for several corrections of a source, the text it writes for
    those at ``indices`` alone, in that order: each correction is annotated against the source
    alone, so a block keeps its source line and their edit lines, annotator by annotator, the
    ids renumbered from 0."""
    written = []
    for block in text.split("\n\n"):
        head, *edits = block.split("\n")
        of: dict[str, list[str]] = {}
        for line in edits:  # A start end|||type|||correction|||required|||comment|||annotator
            body, annotator = line.rsplit("|||", 1)
            of.setdefault(annotator, []).append(body)
        written.append("\n".join([head, *(f"{body}|||{position}" for position, index in enumerate(indices)
                                          for body in of.get(str(index), []))]))
    return "\n\n".join(written)


def subcommand_available(command: Sequence[str]) -> bool:
    """Whether `command --help` exits 0 (e.g. a `gecmetric` subcommand not written yet)."""
    try:
        completed = subprocess.run([*command, "--help"], capture_output=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return completed.returncode == 0


def peers_dir() -> Path:
    """Where peer virtualenvs live: $GECMETRICS_PEERS_DIR, else <temp dir>/gecmetrics-peers."""
    configured = os.environ.get(PEERS_DIR_VARIABLE)
    return Path(configured) if configured else Path(tempfile.gettempdir()) / "gecmetrics-peers"


def peer_python(name: str, requirement: str, no_deps: bool = False) -> Path | None:
    """The python of a virtualenv `name` with `requirement` pip-installed, created on first use
    (several requirements: separated by spaces).

    A marker file records what was installed, so later runs start at once. Returns None and
    prints why when the venv cannot be made or the install fails (e.g. no network), so the
    caller can still report its own timings.
    """
    venv = peers_dir() / name
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    marker = venv / PEER_MARKER
    wanted = f"{requirement}{' --no-deps' if no_deps else ''}\n"
    if python.exists() and marker.exists() and marker.read_text(encoding="utf-8") == wanted:
        return python
    try:
        if not python.exists():
            print(f"[peer] creating virtualenv {venv}", flush=True)
            subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True, timeout=300)
        print(f"[peer] pip install {requirement}{' --no-deps' if no_deps else ''} into {venv}", flush=True)
        install = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                   "--retries", "1", "--timeout", "20", *requirement.split()]
        if no_deps:
            install.append("--no-deps")
        completed = subprocess.run(install, capture_output=True, text=True, timeout=900)
    except (OSError, subprocess.CalledProcessError, subprocess.TimeoutExpired) as err:
        print(f"[peer] {name}: cannot create the virtualenv ({err}); peer skipped")
        return None
    if completed.returncode != 0:
        last_line = (completed.stderr.strip().splitlines() or ["no message"])[-1]
        print(f"[peer] {name}: pip install {requirement} failed ({last_line}); peer skipped")
        return None
    marker.write_text(wanted, encoding="utf-8")
    return python


def peer_script(python: Path, script: str) -> list[str]:
    """The console script `script` installed beside a peer's python."""
    return [str(python.parent / script)]


def peer_package_dir(python: Path, package: str) -> Path | None:
    """The folder of `package` inside a peer venv, found without importing it (errant's
    __init__ pulls spaCy, its commands/compare_m2.py alone does not), or None."""
    code = ("import importlib.util, sys; spec = importlib.util.find_spec(sys.argv[1]); "
            "print(spec.submodule_search_locations[0] if spec and spec.submodule_search_locations else '')")
    try:
        completed = subprocess.run([str(python), "-c", code, package], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    location = completed.stdout.strip()
    return Path(location) if completed.returncode == 0 and location else None


def find_green_command() -> list[str] | None:
    """The command of the original GREEN (github shotakoyama/green), or None with a message.

    Looked up in $GECMETRICS_GREEN_CMD (a command line), then as `green` on PATH. It is not on
    PyPI and is never downloaded or vendored here; another program named `green` (a test
    runner) is recognised by its help text and ignored.
    """
    configured = os.environ.get(GREEN_COMMAND_VARIABLE)
    if configured:
        command = shlex.split(configured)
        where = f"${GREEN_COMMAND_VARIABLE}"
    else:
        on_path = shutil.which("green")
        command = [on_path] if on_path else []
        where = "PATH"
    if not command:
        print(f"[peer] original GREEN not found (set {GREEN_COMMAND_VARIABLE} or put its `green` on PATH): "
              "no ratio against it")
        return None
    try:
        completed = subprocess.run([*command, "-h"], capture_output=True, text=True, timeout=60)
        looks_right = completed.returncode == 0 and "COR_PATH_LIST" in completed.stdout
    except (OSError, subprocess.TimeoutExpired):
        looks_right = False
    if not looks_right:
        print(f"[peer] `{shlex.join(command)}` (from {where}) is not shotakoyama/green: no ratio against it")
        return None
    return command


# --------------------------------------------------------------------------- output


def parse_score_rows(text: str, names: Sequence[str]) -> dict[str, list[str]]:
    """Tab-separated rows whose first field is one of `names`: name -> the other fields.
    Header rows (e.g. the alpha/beta lines of GREEN) are skipped because no name matches."""
    wanted = set(names)
    rows: dict[str, list[str]] = {}
    for line in text.splitlines():
        fields = line.split("\t")
        if fields[0] in wanted:
            rows[fields[0]] = [value.strip() for value in fields[1:]]
    return rows


def compare_scores(ours: dict[str, list[str]], peer: dict[str, list[str]], names: Sequence[str]) -> list[str]:
    """Names whose printed scores differ (or are missing on either side)."""
    return [name for name in names if name not in ours or ours.get(name) != peer.get(name)]


def print_agreement(label: str, ours_text: str, peer_text: str, names: Sequence[str]) -> bool:
    """Print `OK` or `MISMATCH` with the differing rows; True when every row agrees."""
    ours = parse_score_rows(ours_text, names)
    peer = parse_score_rows(peer_text, names)
    differing = compare_scores(ours, peer, names)
    if not differing:
        print(f"{label}: OK (same printed scores for {len(names)} systems)")
        return True
    print(f"{label}: MISMATCH")
    for name in differing:
        print(f"    {name}: ours {ours.get(name)}  peer {peer.get(name)}")
    return False


def machine_line() -> str:
    """A short description of where the numbers were measured."""
    import platform

    return f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, {platform.system()}"


def installation_line() -> str:
    """What is being timed: `gecmetric --version` (which names the counting core) and how the
    package is installed. An editable install's import hook costs each start about 0.04 s:
    time a regular install (`pip install .`) for published numbers (the timed processes run with
    bytecode caches on: PYTHONDONTWRITEBYTECODE is dropped above)."""
    from importlib import metadata

    shown = subprocess.run([*gecmetric_command(), "--version"], capture_output=True, text=True).stdout.strip()
    try:
        direct = metadata.distribution("gecmetrics").read_text("direct_url.json") or ""
    except metadata.PackageNotFoundError:
        direct = ""
    editable = '"editable": true' in direct.replace("'", '"').lower()
    return f"{shown or 'gecmetric: unknown version'}; {'editable' if editable else 'regular'} install"


def add_common_arguments(parser) -> None:
    """The options every benchmark script shares (an argparse.ArgumentParser)."""
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run of a few seconds: fewer systems, iterations and repeats")
    parser.add_argument("--no-peers", action="store_true", help="time gecmetrics only; skip the peer implementations")
    parser.add_argument("--repeats", type=int, default=None,
                        help="runs of each gecmetrics command; the median is reported (default 5, 1 with --quick)")
    parser.add_argument("--peer-repeats", type=int, default=1,
                        help="runs of each peer command (default 1: the peers are slow)")
    parser.add_argument("--digits", type=int, default=6, help="decimals printed by both sides and compared (default 6)")


def parse_setup(doc: str, argv: Sequence[str] | None, *, systems: Sequence[str] | None = None,
                quick_systems: Sequence[str] | None = None, default_repeats: int = 5,
                iterations_help: str | None = None) -> tuple[argparse.Namespace, Path, Sequence[str], int]:
    """The common start of a CoNLL-2014 script: its options (the common ones, and
    ``--iterations`` when ``iterations_help`` is given), the data folder, the systems to time
    (fewer with --quick) and the repeats of our commands."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    add_common_arguments(parser)
    if iterations_help is not None:
        parser.add_argument("--iterations", type=int, default=None, help=iterations_help)
    args = parser.parse_args(argv)
    data = shared_data("conll14")  # after parsing, so that --help works without the data
    if args.quick:
        chosen = CONLL_QUICK_SYSTEMS if quick_systems is None else quick_systems
    else:
        chosen = CONLL_SYSTEMS if systems is None else systems
    return args, data, chosen, args.repeats or (1 if args.quick else default_repeats)


def gleu_options(systems: Sequence[str], iterations: int, digits: int) -> list[str]:
    """The GLEU+ command line shared by `gecmetric gleu` and the `gleu` peer."""
    return conll_arguments("-o", systems, "-f", "-i", str(iterations), "-d", str(digits))


def green_options(systems: Sequence[str], unit: str, digits: int) -> list[str]:
    """The GREEN command line shared by `gecmetric green` and the original `green`."""
    return conll_arguments("-c", systems, "-t", unit, "-b", *GREEN_BETAS, "-d", str(digits))


def spacy_model_missing(model: str) -> str | None:
    """Why spaCy's model ``model`` (a package name or a folder) is not installed here, or None.
    Found as the annotator finds it without importing spaCy (``modelid.model_folder``): loading
    the model to check cost every benchmark's smoke run a spaCy start-up (seconds where torch is
    installed: thinc imports it). A model that is installed but does not load makes the
    benchmark's first command fail with its one-line error."""
    import importlib.util

    from gecmetrics.core.lang.en.modelid import model_folder

    if importlib.util.find_spec("spacy") is None:
        return "No module named 'spacy'"
    return None if model_folder(os.path.expanduser(model)) is not None else f"no spaCy model {model!r} installed"


def print_header(title: str) -> None:
    """The run's title, the machine, and what is timed on our side."""
    print(title)
    print(f"machine: {machine_line()}")
    print(f"ours: {installation_line()}")


def count_lines(path: Path) -> int:
    """Number of lines of a text file (a final line without a newline counts)."""
    data = path.read_bytes()
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


def startup_timing(repeats: int) -> Timing:
    """`gecmetric --version`: interpreter, NumPy and CLI imports, no work. Every command pays
    this floor, so it bounds the CLI ratio against a peer whose whole run is a few seconds."""
    return measure([*gecmetric_command(), "--version"], repeats)


def warm_after_cold(label: str, arguments: Sequence[str], repeats: int, cache: Path, cwd: Path | None = None) -> bool:
    """``gecmetric --cache CACHE ARGUMENTS`` once with an empty cache folder (cold: it fills it),
    then ``repeats`` times on what it stored (warm); prints both timings and whether every warm
    run printed the cold run's bytes, which it returns (False when a run fails)."""
    shutil.rmtree(cache, ignore_errors=True)
    command = [*gecmetric_command(), "--cache", str(cache), *arguments]
    cold = measure_reported(f"{label}, cold cache", command, 1, cwd)
    warm = measure_reported(f"{label}, warm cache", command, repeats, cwd) if cold is not None else None
    same = warm is not None and all(run.stdout == cold.stdout for run in warm.runs)
    if warm is not None:
        print(f"{'':<36}warm runs print the cold run's bytes: {'yes' if same else 'NO (MISMATCH)'}", flush=True)
    return same


def report(label: str, timing: Timing) -> None:
    """Print one aligned timing line, e.g. `ours  gecmetric gleu   cpu ... wall ... peak RSS ...`."""
    print(f"{label:<36}{timing.summary()}")


# The CoNLL-2014 job every n-gram benchmark times: files of ../shared/data/conll14.
CONLL_SOURCE = "INPUT"
CONLL_REFERENCES = ["REF0", "REF1"]
CONLL_SYSTEMS = ["AMU", "CAMB", "CUUI", "INPUT", "REF0"]
CONLL_QUICK_SYSTEMS = ["AMU", "CAMB"]
GREEN_BETAS = ["0.5", "1", "2"]


def conll_arguments(system_flag: str, systems: Sequence[str], *options: str) -> list[str]:
    """`-s INPUT -r REF0 REF1 <system_flag> SYSTEMS... OPTIONS...`: the command line shared by
    gecmetric and the peers."""
    return ["-s", CONLL_SOURCE, "-r", *CONLL_REFERENCES, system_flag, *systems, *options]


def time_api(metric_name: str, settings: dict, data: Path, systems: Sequence[str]) -> float:
    """CPU seconds of the library used as its docs say (files already read, imports done):
    ``gecmetrics.<metric_name>(**settings)``, ``metric.encode`` once, then
    ``metric.corpus_score(..., encoded)`` per system."""
    import gecmetrics

    metric = getattr(gecmetrics, metric_name)(**settings)
    from gecmetrics import read_lines

    sources = read_lines(str(data / CONLL_SOURCE))
    references = [read_lines(str(data / name)) for name in CONLL_REFERENCES]
    hypotheses = [read_lines(str(data / name)) for name in systems]
    start = time.process_time()
    encoded = metric.encode(sources, references)
    for hypothesis in hypotheses:
        metric.corpus_score(sources, references, hypothesis, encoded)
    return time.process_time() - start


def begin(subcommand: str, title: str, repeats: int, startup_label: str = "ours  startup (gecmetric --version)"
          ) -> list[str] | None:
    """Print the run's title, the machine and our start-up time, and return the command of
    ``gecmetric SUBCOMMAND`` (None, with a message, when this installation lacks it)."""
    command = [*gecmetric_command(), subcommand]
    if not subcommand_available(command):
        print(f"`gecmetric {subcommand}` is not available in this installation")
        return None
    print_header(title)
    report(startup_label, startup_timing(repeats))
    return command
