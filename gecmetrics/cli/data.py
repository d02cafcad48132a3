"""``gecmetric data``: data files some metrics read but gecmetrics does not ship (ChERRANT's)."""
from __future__ import annotations

import click

from . import main
from .app import SharedOptionsGroup

DATASETS = ("cherrant",)


def _named_folder(flag: str, folder: str | None) -> None:
    """Refuse an empty folder name: Path("") is the current folder, where nobody meant to fetch
    (or check) the files."""
    from ..errors import InputError

    if folder is not None and not folder.strip():
        raise InputError(f"{flag}: empty folder name")


@main.group("data", cls=SharedOptionsGroup)
def data() -> None:
    """Fetch or check data files that are not part of the package."""


@data.command("fetch")
@click.argument("name", type=click.Choice(DATASETS))
@click.option("--to", "folder", metavar="DIR",
              help="Where to put them (default: $GECMETRICS_CHERRANT_DATA, else the user data folder).")
@click.option("--force", is_flag=True, help="Download every file again, replacing the copies there (without it, good "
                                            "copies are kept and one that differs from the published file is an "
                                            "error).")
def fetch(name: str, folder: str | None, force: bool) -> None:
    """Download ChERRANT's data files from the pinned commit, each checked against its SHA-256."""
    from ..core.lang.zh.data import fetch_data

    _named_folder("--to", folder)
    click.echo(str(fetch_data(folder, overwrite=force)))


@data.command("check")
@click.argument("name", type=click.Choice(DATASETS))
@click.option("--from", "folder", metavar="DIR", help="The folder to check (default: where they are looked for).")
def check(name: str, folder: str | None) -> None:
    """Say where the files are looked for and whether each has the published SHA-256 (exit 1 if
    cilin.txt or confusion_dict.txt, the files the character level reads, is missing or differs)."""
    import os

    from ..core.lang.zh.data import CHAR_LEVEL_FILES, CHECKSUMS, ENVIRONMENT_VARIABLE, data_folder, verify_data
    from ..errors import InputError

    _named_folder("--from", folder)
    if folder is not None and not os.path.isdir(folder):  # a folder named by the user, not a report's subject
        raise InputError(f"--from: {'not a folder' if os.path.exists(folder) else 'no such folder'}", folder)
    where = data_folder(folder)
    if where.exists() and not where.is_dir():  # else each file would be reported missing
        origin = f"${ENVIRONMENT_VARIABLE}" if os.environ.get(ENVIRONMENT_VARIABLE) else "the user data folder"
        raise InputError(f"{origin}: not a folder", str(where))
    problems = verify_data(where)
    click.echo(f"folder: {where}")
    for file_name in CHECKSUMS:
        needed = " (read at character level)" if file_name in CHAR_LEVEL_FILES else ""
        status = problems.get(file_name)
        shown = "ok" if status is None else "missing" if status == "missing" else f"differs (SHA-256 {status})"
        click.echo(f"{file_name}: {shown}{needed}")
    if any(file_name in problems for file_name in CHAR_LEVEL_FILES):
        raise SystemExit(1)
