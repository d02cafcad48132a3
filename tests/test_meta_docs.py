"""The console examples of docs/meta-evaluation.md run as written and print what the page shows.

Every ``$ `` line of a ```console block is run with bash, in order, in one temporary folder,
with ``D`` the reproduction data (``../shared/data``) and ``G`` the 13 GJG15 submissions
(commands that use ``$G`` run only where $GECMETRICS_GJG15_SUBMISSIONS names them); ``gecmetric``
is this checkout's. The lines after a command are its output (stderr and stdout as they come,
the data folder's path printed as ``../shared/data``); a ``...`` line stands for any lines."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "meta-evaluation.md"
SUBMISSIONS_VARIABLE = "GECMETRICS_GJG15_SUBMISSIONS"


def examples(page: Path) -> list[tuple[str, list[str]]]:
    """(command, expected output lines) of every ``$ `` line of the page's console blocks."""
    found: list[tuple[str, list[str]]] = []
    for block in re.findall(r"```console\n(.*?)```", page.read_text(encoding="utf-8"), flags=re.S):
        for line in block.splitlines():
            if line.startswith("$ "):
                found.append((line[2:], []))
            else:
                found[-1][1].append(line)
    return found


def matches(expected: list[str], printed: list[str]) -> bool:
    """Whether ``printed`` is ``expected`` with each ``...`` line standing for any lines."""
    pattern = "".join(".*?" if line == "..." else re.escape(line + "\n") for line in expected)
    return re.fullmatch(pattern, "".join(line + "\n" for line in printed), flags=re.S) is not None


def test_the_page_has_examples() -> None:
    found = examples(PAGE)
    assert len(found) >= 10 and all(command.split()[0] in ("gecmetric", "grep", "head", "for") for command, _ in found)


def test_console_examples_print_what_the_page_shows(shared_data: Path, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    pytest.importorskip("trueskill")
    submissions = os.environ.get(SUBMISSIONS_VARIABLE)
    bin_folder = tmp_path / "bin"
    bin_folder.mkdir()
    script = bin_folder / "gecmetric"
    script.write_text(f"#!/bin/sh\nexec {sys.executable} -c 'from gecmetrics.cli import run; run()' \"$@\"\n")
    script.chmod(0o755)
    work = tmp_path / "work"
    work.mkdir()
    data = os.path.relpath(shared_data, work)
    env = {**os.environ, "PATH": f"{bin_folder}{os.pathsep}{os.environ['PATH']}", "D": data,
           "G": submissions or "", "PYTHONPATH": f"{ROOT}{os.pathsep}{os.environ.get('PYTHONPATH', '')}",
           "COLUMNS": "200"}
    ran = 0
    for command, expected in examples(PAGE):
        if "$G" in command and not (submissions and (Path(submissions) / "IPN").is_file()):
            continue
        completed = subprocess.run(["bash", "-c", command + " 2>&1"], cwd=work, env=env, capture_output=True,
                                   text=True, timeout=600)
        printed = completed.stdout.replace(data, "../shared/data").splitlines()
        assert completed.returncode == 0, (command, completed.stdout)
        assert matches(expected, printed), (command, "\n".join(printed))
        ran += 1
    assert ran >= 10
    assert (work / "meta-windows.png").stat().st_size > 10000 and (work / "meta-windows-scatter.png").is_file()
