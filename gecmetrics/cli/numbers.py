"""Click's number types reading numbers as typed in ASCII: ``int()`` and ``float()`` also read
``1_0`` as 10 and other scripts' digits (``-n \u0661`` ran 1-grams for a 1), which a flag's value
is never meant to be (:func:`gecmetrics.core.checks.plain_number`)."""
from __future__ import annotations

from typing import Any

import click

from ..core.checks import plain_number


class _Typed:
    def convert(self, value: Any, param: Any, ctx: Any) -> Any:
        if isinstance(value, str) and not plain_number(value):
            self.fail(f"{value!r} is not a number written in ASCII digits", param, ctx)
        return super().convert(value, param, ctx)


class Int(_Typed, click.types.IntParamType):
    """click.INT, ASCII only."""


class Float(_Typed, click.types.FloatParamType):
    """click.FLOAT, ASCII only."""


class IntRange(_Typed, click.IntRange):
    """click.IntRange, ASCII only; named "integer" ('1e3' is not a valid integer; click's own
    "integer range" read as if a range were asked for)."""

    name = "integer"


class FloatRange(_Typed, click.FloatRange):
    """click.FloatRange, ASCII only; named "float", as click.FLOAT."""

    name = "float"


INT, FLOAT = Int(), Float()
