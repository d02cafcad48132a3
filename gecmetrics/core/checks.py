"""Checks of the numbers a user gives the library (counts, seeds, factors), shared by every
layer: each bad value is one :class:`~gecmetrics.errors.InputError` naming the setting (and its
command-line flag where it has one) and the bound, raised before anything is allocated.

The bounds themselves are named constants next to the settings they bound (e.g.
``gecmetrics.stats.significance.MAX_PAIRED_SAMPLES``); the only ones here are the seed's and the
F-score's beta (every metric family's).
"""
from __future__ import annotations

import math
import numbers
from typing import Any, Iterable, Mapping

from ..errors import InputError, large_count, shown
from .lines import LONE_SURROGATE

MAX_SEED = 2**64 - 1
"""Largest seed: NumPy's generators take seeds >= 0 (a negative one is a ValueError deep in
NumPy); 64 bits hold any seed a signature shows."""


MAX_BETA = 1e100
"""Largest finite beta of an F-score (``inf`` stays allowed: recall): beta squared times a count
must stay a finite double (1e308 gave an OverflowError in GREEN and nan in M2's F)."""

MIN_BETA = 1 / MAX_BETA
"""Smallest beta above 0: beta squared must stay a normal double (1e-320 squared is 0, and the
F-score's label printed as ``f9.99989e-321``)."""


def check_flag(value: Any, what: str) -> bool:
    """A yes/no argument must be True or False: a text such as "no" would be taken as true."""
    if not isinstance(value, bool):
        raise InputError(f"{what} must be True or False, got {shown(value)}")
    return value


def check_beta(number: float, what: str = "beta", given: str | None = None, keep_sign: bool = False) -> float:
    """A parsed beta (>= 0, not nan): 0, from :data:`MIN_BETA` to :data:`MAX_BETA`, or ``inf``;
    ``given``: the text it was read from, when that wrote out a number a float cannot hold
    (``1e309`` reads as inf, and recall is asked for by ``inf`` only; ``1e-400`` reads as 0).
    ``-0.0`` is returned as 0.0 (``-b -0`` is beta 0: its F-score was labelled ``F-0``), unless
    ``keep_sign`` (GREEN's, whose original prints ``-b -0`` as ``beta=-0.00``)."""
    if (math.isfinite(number) and (number > MAX_BETA or 0 < number < MIN_BETA)) or given is not None:
        raise InputError(f"{what} must be 0, from 1e-100 to 1e+100 (gecmetrics.core.checks.MIN_BETA, MAX_BETA), "
                         f"or inf for recall, got {shown(number) if given is None else given}")
    return 0.0 if number == 0 and not keep_sign else number


def check_beta_number(value: Any, what: str = "beta") -> float:
    """A beta given in code as a number (a Python or NumPy int or float; a bool or a text is
    none): >= 0 or inf, then as :func:`check_beta` (nan made a running-F choice loop forever,
    and gave a nan F-score)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise InputError(f"{what} must be a number >= 0 or inf, got {type(value).__name__}")
    try:
        number = float(value)
    except OverflowError:  # (an int past float's range: 10**400)
        raise InputError(f"{what} must be a number a float can hold, got {shown(value)}") from None
    if math.isnan(number) or number < 0:
        raise InputError(f"{what} must be a number >= 0 or inf, got {number}")
    return check_beta(number, what)


def _integer(value: Any) -> int | None:
    """``value`` as a Python int when it is an integer (int, NumPy integer), else None (bool,
    float, text ...)."""
    if isinstance(value, bool) or not hasattr(value, "__index__") or isinstance(value, float):
        return None
    try:
        return int(value.__index__())
    except (TypeError, ValueError):
        return None


def check_count(value: Any, what: str, minimum: int = 1, maximum: int | None = None, bound: str = "") -> int:
    """An integer count from ``minimum`` to ``maximum`` (``bound``: the constant's name, for the
    message); ``what`` names it (e.g. "samples (--paired-bs N)")."""
    number = _integer(value)
    if number is None:
        raise InputError(f"{what} must be an integer, got {shown(value)}")
    if number < minimum:
        raise InputError(f"{what} must be an integer >= {minimum}, got {large_count(number)}")
    if maximum is not None and number > maximum:
        raise InputError(f"{what} must be at most {maximum:,}" + (f" ({bound})" if bound else "")
                         + f", got {large_count(number)}")
    return number


def check_seed(value: Any, what: str = "seed") -> int:
    """A seed of NumPy's generators: an integer from 0 to :data:`MAX_SEED`."""
    number = _integer(value)
    if number is None or not 0 <= number <= MAX_SEED:
        raise InputError(f"{what} must be an integer from 0 to 2**64 - 1 (NumPy's generators take no negative "
                         f"seed), got {shown(value)}")
    return number


def plain_number(text: str) -> bool:
    """Whether ``text`` may be read by Python's ``int()`` or ``float()`` as it was typed: ASCII
    only, no ``_``. Those also read ``1_0`` as 10 and other scripts' digits (``\u0661`` as 1),
    which no tool that these flags and settings come from writes."""
    return text.isascii() and "_" not in text


def check_finite_non_negative(value: Any, what: str) -> float:
    """A finite number >= 0 (not nan, not inf)."""
    if isinstance(value, bool) or (isinstance(value, str) and not plain_number(value)):
        raise InputError(f"{what} must be a number, got {shown(value)}")
    try:
        number = float(value.strip() if isinstance(value, str) else value)
    except (TypeError, ValueError, OverflowError):
        raise InputError(f"{what} must be a number, got {shown(value)}") from None
    if not math.isfinite(number) or number < 0:
        raise InputError(f"{what} must be a finite number >= 0, got {shown(value)}")
    return number


def check_fraction(value: Any, what: str) -> float:
    """A number strictly between 0 and 1 (a confidence or significance level); a bool, text,
    None, nan or anything else is an InputError ``{what} must be a number between 0 and 1``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not 0.0 < value < 1.0:
        raise InputError(f"{what} must be a number between 0 and 1, got {shown(value)}")
    return float(value)


def check_score(value: Any, what: str) -> float:
    """A score given as a number (a metric's or a human's, for a correlation): a finite real
    number, a Python or NumPy int or float; a bool, a text (even ``"0.5"``: a column read as text
    is a mistake to report, not to convert), None, a list, nan or inf is an InputError
    ``{what}: {value!r} is not a finite number``."""
    try:  # (an int past float's range does not fit either: 10**400)
        finite = not isinstance(value, bool) and isinstance(value, numbers.Real) and math.isfinite(value)
    except OverflowError:
        finite = False
    if not finite:
        raise InputError(f"{what}: {shown(value)} is not a finite number")
    return float(value)


def check_name_text(name: str, what: str) -> str:
    """A name (a system's, a metric's) that a table can print: one holding a lone surrogate (no
    Unicode text) was taken, and its table or page could not be encoded."""
    if LONE_SURROGATE.search(name):
        raise InputError(f"{what}: the name {name!r} holds a lone surrogate (no Unicode text): a table cannot print it")
    return name


def check_distinct_names(named: Any, what: str) -> None:
    """Names of a mapping (systems, metrics) are used as text: two keys with one text (``1`` and
    ``"1"``) would leave one of them out without a word."""
    if not isinstance(named, Mapping):
        return
    seen: dict[str, Any] = {}
    for key in named:
        text = str(key)
        check_name_text(text, what)
        if text in seen:
            raise InputError(f"{what}: the names {seen[text]!r} and {key!r} are both {text!r} as text: give distinct names")
        seen[text] = key


def check_progress(progress: Any, name: str = "progress") -> None:
    """The InputError of a ``progress`` that is neither None nor a function (every run that
    reports progress; ``name``: the argument's, e.g. ``ranking_progress``)."""
    if progress is not None and not callable(progress):
        raise InputError(f"{name} must be a function progress(done, total, what) or None, got "
                         f"{type(progress).__name__}")


def check_keywords(given: Iterable[str], valid: Iterable[str], what: str) -> None:
    """Keyword options passed on to another function (``what``): an unknown one is an
    InputError listing the valid ones, not a TypeError about a function the caller never named."""
    valid = list(valid)
    unknown = [key for key in given if key not in valid]
    if unknown:
        raise InputError(f"unknown {what} option {unknown[0]!r}; valid: {', '.join(valid)}")
