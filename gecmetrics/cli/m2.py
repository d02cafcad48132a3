"""``gecmetric m2``: commands on M2 annotation files (references, ERRANT-style comparison).

The MaxMatch scorer adds its ``score`` subcommand to this group from ``m2_score.py``.
"""
from __future__ import annotations

import click

from . import main


@main.group("m2")
def m2() -> None:
    """Work with M2 annotation files: build references, compare edits, score."""
