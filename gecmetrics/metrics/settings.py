"""Metric settings: each setting declared once in a frozen dataclass (:func:`setting`: default,
parser, aliases, help line, signature key, command-line flags, whether it is run-only), and the
parsers that read values from Python or from text (``green:beta=0.5/2``) with one
:class:`InputError` naming the setting or its flag."""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ..errors import InputError, large_count, shown as shown_value
from ..core.checks import check_beta, check_finite_non_negative, check_seed, plain_number
from ..core.models.runtime import check_device
from ..core.table import number_label
from ..io.text import first_repeated

_META = "gecmetrics"


# ----------------------------------------------------------------------------- settings


Shown = Callable[[Any], "str | None"]
"""How a signature shows a setting's value: its text, "" for a bare key (``lev``), None to leave
the field out (a flag that is off, a value at its default)."""


class SettingInfo:
    """How one setting is read and described: its parser (Python values and text both), its
    help line, the aliases a user may type (``iter`` for ``iterations``), its key in the
    metric's signature (None: not in it) and how the signature shows its value (``shown``;
    None: :func:`signature_value`), its command-line flags (``("-i", "--iter")``; empty:
    ``--name``), and whether it is ``run_only``: it changes how the metric runs (a device,
    a batch size, threads, requests in flight), not its values beyond float rounding."""

    __slots__ = ("help", "parse", "aliases", "signature", "flags", "shown", "run_only")

    def __init__(self, help: str, parse: Callable[[str, Any], Any], aliases: tuple[str, ...] = (),
                 signature: str | None = None, flags: tuple[str, ...] = (), shown: Shown | None = None,
                 run_only: bool = False) -> None:
        self.help, self.parse, self.aliases = help, parse, tuple(aliases)
        self.signature, self.flags, self.shown, self.run_only = signature, tuple(flags), shown, run_only


def setting(default: Any, help: str, parse: Callable[[str, Any], Any], aliases: tuple[str, ...] = (), *,
            signature: str | None = None, flags: tuple[str, ...] = (), shown: Shown | None = None,
            run_only: bool = False) -> Any:
    """A settings dataclass field: ``n: int = setting(4, "maximum n-gram order", positive_int,
    signature="n")``. ``signature``: the field's key in the metric's signature (the signature
    lists these fields in declaration order, unless the metric's ``signature_order`` says
    otherwise); ``shown``: how the signature shows the value (:func:`flag`, :func:`flag_as`,
    :func:`unless`, :func:`when_set`; default :func:`signature_value`); ``flags``: its
    command-line flags; ``run_only=True``: the setting changes how the metric runs, not its
    values beyond float rounding (``device``, ``batch_size``, ``threads``, an LLM judge's
    ``concurrency``), so it is no part of a reward's name
    (:func:`~gecmetrics.run.rewards.reward_name`); such a setting has no signature key, which
    names what changes the values (one InputError naming ``run_only`` otherwise)."""
    if not isinstance(run_only, bool):
        raise InputError(f"must be True or False, got {shown_value(run_only)}", "run_only")
    if not isinstance(help, str) or not help.strip():
        raise InputError(f"a setting needs its help text (what the --help line says), got {shown_value(help)}", "help")
    if not callable(parse):
        raise InputError(f"a setting needs a parse function parse(name, value), got {shown_value(parse)}", "parse")
    for what, names in (("aliases", aliases), ("flags", flags)):
        if not isinstance(names, tuple) or not all(isinstance(name, str) and name for name in names):
            raise InputError(f"must be a tuple of names, got {shown_value(names)}", what)
    if signature is not None and not isinstance(signature, str):
        raise InputError(f"must be the setting's key in the signature (a string) or None, got {shown_value(signature)}",
                         "signature")
    if run_only and signature is not None:
        raise InputError(f"a setting with a signature key (signature={signature!r}) changes the values, which the "
                         "signature names: it is not run-only", "run_only")
    return field(default=default, metadata={_META: SettingInfo(help, parse, aliases, signature, flags, shown,
                                                                run_only)})


def flag(value: Any) -> str | None:
    """A signature's bare key when the setting is on (``|lev|``), nothing when it is off."""
    return "" if value else None


def flag_as(text: str) -> Shown:
    """A signature's ``key:text`` when the setting is on (``smooth:official``), nothing when off."""
    def shown(value: Any) -> str | None:
        return text if value else None
    return shown


def unless(default: Any) -> Shown:
    """A signature's ``key:value`` unless the value is ``default`` (``lang`` other than en)."""
    def shown(value: Any) -> str | None:
        return None if value == default else signature_value(value)
    return shown


def when_set(value: Any) -> str | None:
    """A signature's ``key:value`` when the setting has a value (not None, empty or false)."""
    return signature_value(value) if value not in (None, False, (), [], "") else None


@dataclass(frozen=True)
class Settings:
    """Base of every metric's settings: a frozen dataclass whose fields are declared with
    :func:`setting`. Values are parsed and checked when the object is made (from Python values
    or from text); :meth:`check` adds rules between fields."""

    def __post_init__(self) -> None:
        for item in dataclasses.fields(self):
            info = item.metadata.get(_META)
            if info is not None:
                shown = f"{item.name} ({'/'.join(info.flags)})" if info.flags else item.name  # messages name the flags
                object.__setattr__(self, item.name, info.parse(shown, getattr(self, item.name)))
        self.check()

    def check(self) -> None:
        """Rules between fields (override); raise InputError."""

    @classmethod
    def infos(cls) -> dict[str, SettingInfo]:
        """The settings a user can give, in declaration order."""
        return {f.name: f.metadata[_META] for f in dataclasses.fields(cls) if _META in f.metadata}

    @classmethod
    def run_only_names(cls) -> frozenset[str]:
        """The settings declared ``run_only`` (:func:`setting`): how the metric runs, not its values."""
        return frozenset(name for name, info in cls.infos().items() if info.run_only)

    @classmethod
    def canonical_name(cls, key: str) -> str | None:
        """The setting a keyword or alias names (``iter`` -> ``iterations``), or None."""
        key = key.replace("-", "_")
        for name, info in cls.infos().items():
            if key == name or key in info.aliases:
                return name
        return None

    def to_dict(self) -> dict[str, Any]:
        return {f.name: _plain(getattr(self, f.name)) for f in dataclasses.fields(self)}

    def signature_fields(self) -> list[tuple[str, str]]:
        """(key, value) of the settings declared with a signature key, in declaration order,
        each shown by its ``shown`` rule (fields it leaves out are not listed; a value of ""
        is a bare key)."""
        fields = []
        for name, info in self.infos().items():
            if info.signature:
                value = getattr(self, name)
                text = signature_value(value) if info.shown is None else info.shown(value)
                if text is not None:
                    fields.append((info.signature, text))
        return fields

    def replace(self, **changes: Any) -> "Settings":
        return dataclasses.replace(self, **changes)


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def signature_value(value: Any) -> str:
    """A setting as a signature shows it: numbers as ``%g`` unless that rounds them
    (:func:`~gecmetrics.core.table.number_label`), booleans as yes/no, several values
    joined by ``,``, None as ``none``."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return number_label(value)
    if isinstance(value, (list, tuple)):
        return ",".join(signature_value(item) for item in value)
    return "none" if value is None else str(value)


# ----------------------------------------------------------------------------- parsers


def setting_label(name: str) -> str:
    """How a message names a setting: a command-line flag as it is, else ``setting NAME``."""
    return name if name.startswith("-") else f"setting {name}"


def _not_bool(name: str, value: Any, what: str) -> None:
    # (NumPy's True is no Python bool, and float() reads it as 1.0)
    if isinstance(value, bool) or getattr(getattr(value, "dtype", None), "kind", "") == "b":
        raise InputError(f"{setting_label(name)} must be {what}, got {shown_value(value)}")


def parse_int(name: str, value: Any, minimum: int | None = None, maximum: int | None = None,
              bound: str = "") -> int:
    """An integer from an int, an integral float or text; ``minimum`` and ``maximum`` when given
    (``bound``: the name of the maximum's constant, for the message)."""
    _not_bool(name, value, "an integer")
    number = None
    try:
        if isinstance(value, str):
            number = int(value.strip()) if plain_number(value) else None
        elif isinstance(value, float):
            number = int(value) if value.is_integer() else None
        else:
            number = int(value) if hasattr(value, "__index__") else None
    except (TypeError, ValueError):
        number = None
    if number is None:
        raise InputError(f"{setting_label(name)} must be an integer, got {shown_value(value)}")
    if minimum is not None and number < minimum:
        raise InputError(f"{setting_label(name)} must be an integer >= {minimum}, got {shown_value(value)}")
    if maximum is not None and number > maximum:
        raise InputError(f"{setting_label(name)} must be at most {maximum:,}" + (f" ({bound})" if bound else "")
                         + f", got {large_count(number)}")
    return number


def bounded_int(minimum: int, maximum: int, bound: str = "") -> Callable[[str, Any], int]:
    """A parser of integers from ``minimum`` to ``maximum`` (``bound``: the maximum's constant)."""
    def parse(name: str, value: Any) -> int:
        return parse_int(name, value, minimum, maximum, bound)
    return parse


def parse_seed(name: str, value: Any) -> int:
    """A seed of NumPy's generators: an integer from 0 to 2**64 - 1 (a negative one is one
    InputError here, not a ValueError inside NumPy)."""
    number = parse_int(name, value)
    return check_seed(number, setting_label(name))


def unset(value: Any) -> bool:
    """Whether an optional setting is left unset: None, or the word ``none`` (an empty text is
    not: ``--seed ""`` is a slip, not a choice)."""
    return value is None or (isinstance(value, str) and value.strip().lower() == "none")


def optional_seed(name: str, value: Any) -> int | None:
    """A seed, or None (unset)."""
    return None if unset(value) else parse_seed(name, value)


def parse_finite_non_negative(name: str, value: Any) -> float:
    """A finite number >= 0 (a weight: nan, inf and negative numbers are rejected)."""
    _not_bool(name, value, "a finite number >= 0")
    return check_finite_non_negative(value, setting_label(name))


def positive_int(name: str, value: Any) -> int:
    return parse_int(name, value, 1)


def non_negative_int(name: str, value: Any) -> int:
    return parse_int(name, value, 0)


def optional_int(name: str, value: Any) -> int | None:
    return None if unset(value) else parse_int(name, value)


def parse_float(name: str, value: Any) -> float:
    """A finite or infinite number (not nan) from a number or text."""
    _not_bool(name, value, "a number")
    wrong = InputError(f"{setting_label(name)} must be a number, got {shown_value(value)}")
    if isinstance(value, str) and not plain_number(value):
        raise wrong
    try:
        number = float(value.strip() if isinstance(value, str) else value)
    except (TypeError, ValueError):
        raise wrong from None
    except OverflowError:  # an int past float's range (10**400)
        raise InputError(f"{setting_label(name)} must be a number a float can hold, got {shown_value(value)}") from None
    if math.isnan(number):
        raise InputError(f"{setting_label(name)} must be a number, not nan")
    return number


def parse_beta(name: str, value: Any, keep_sign: bool = False) -> float:
    """The one rule for beta in every metric: a number >= 0; inf means recall; nan and
    negative numbers are rejected; -0 is 0 unless ``keep_sign`` (:func:`check_beta`)."""
    number = parse_float(name, value)
    if number < 0:
        raise InputError(f"{setting_label(name)} must be a number >= 0 or inf, got {shown_value(value)}")
    # a number written out too large for a float (1e309) reads as inf: recall is asked for by "inf" only
    overflow = math.isinf(number) and isinstance(value, str) and \
        value.strip().lower().lstrip("+") not in ("inf", "infinity")
    # and one too small (1e-400) reads as 0
    underflow = number == 0 and isinstance(value, str) and any(c in "123456789" for c in value.lower().split("e")[0])
    return check_beta(number, setting_label(name), value.strip() if overflow or underflow else None, keep_sign)


def parse_betas(name: str, value: Any) -> tuple[float, ...]:
    """One or more betas: a number, a sequence, or text separated by '/' (``0.5/1/2``); GREEN's,
    whose -0 keeps its sign (the original prints ``-b -0`` as ``beta=-0.00``, and ``F-0.0``)."""
    betas = tuple(parse_beta(name, item, keep_sign=True) for item in _items(name, value))
    refuse_repeated_columns(name, "beta", betas)
    return betas


def refuse_repeated_columns(name: str, noun: str, values: Sequence[float]) -> None:
    """Numbers of which each makes a column (GREEN's betas, GLEU 2015's lambdas), parsed: one
    given twice would print two identical columns, so it is refused, naming the setting or flag."""
    repeated = first_repeated(values)
    if repeated is not None:
        raise InputError(f"{setting_label(name)}: {noun} {repeated:g} given twice (each {noun} is a column)")


def parse_floats(name: str, value: Any) -> tuple[float, ...]:
    return tuple(parse_float(name, item) for item in _items(name, value))


def _items(name: str, value: Any) -> Sequence[Any]:
    if isinstance(value, str):
        items: Sequence[Any] = value.split("/")
    elif isinstance(value, (list, tuple)) or (hasattr(value, "tolist") and getattr(value, "ndim", 0) == 1):
        items = list(value)
    else:
        items = [value]
    if not items or any(isinstance(item, str) and not item.strip() for item in items):
        raise InputError(f"{setting_label(name)} needs one or more numbers separated by '/', got {shown_value(value)}")
    return items


_TRUE = ("true", "yes", "1", "on")
_FALSE = ("false", "no", "0", "off")


def parse_device(name: str, value: Any) -> str | None:
    """``cpu``, ``cuda``, ``cuda:N`` or ``mps``; None (``auto``): CUDA when torch sees one. The
    models' own check (:func:`~gecmetrics.core.models.runtime.check_device`), naming the setting."""
    return check_device(value, setting_label(name), auto=True)


def parse_bool(name: str, value: Any) -> bool:
    """True or False (NumPy's too), or a text of a spec (``true``/``false``, ``yes``/``no``,
    ``1``/``0``, ``on``/``off``); any other value is refused (1 was taken, 1.0 refused)."""
    if isinstance(value, bool):
        return value
    if getattr(getattr(value, "dtype", None), "kind", "") == "b" and getattr(value, "ndim", 1) == 0:
        return bool(value)
    if not isinstance(value, str):
        raise InputError(f"{setting_label(name)} must be True or False, got {shown_value(value)}")
    text = value.strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise InputError(f"{setting_label(name)} must be true or false, got {shown_value(value)}")


def optional_bool(name: str, value: Any) -> bool | None:
    return None if value is None else parse_bool(name, value)


def choice(*choices: str) -> Callable[[str, Any], str]:
    """A parser accepting one of ``choices``."""
    def parse(name: str, value: Any) -> str:
        if not isinstance(value, str) or value not in choices:  # (an array's 'in' was a ValueError)
            raise InputError(f"{setting_label(name)} must be one of: {', '.join(choices)}; got {shown_value(value)}")
        return str(value)
    parse.choices = choices  # type: ignore[attr-defined]  # shown in command-line help
    return parse


def parse_strings(name: str, value: Any) -> tuple[str, ...]:
    """Several words: a sequence, or text separated by '/' or spaces."""
    if isinstance(value, str):
        return tuple(item for part in value.split("/") for item in part.split())
    if isinstance(value, (list, tuple)) and all(isinstance(item, str) for item in value):
        return tuple(value)
    raise InputError(f"{setting_label(name)} must be a list of words, got {shown_value(value)}")


# ----------------------------------------------------------------------------- settings of every torch metric
# (the model metrics, PT-M2 and PT-ERRANT: here, where each family can import them)


def batch_size_setting(default: int) -> Any:
    """The batch size of every metric that runs a torch model (the model metrics, PT-M2 and
    PT-ERRANT), with the metric's default."""
    return setting(default, "model metrics: inputs per batch (speed and memory only)", positive_int,
                   flags=("--batch-size",), run_only=True)


def device_setting() -> Any:
    """Where a torch model runs (every model metric, PT-M2 and PT-ERRANT load theirs through
    :func:`~gecmetrics.core.models.inference.resolve_device` or
    :func:`~gecmetrics.core.models.loading.to_device`, which take the same values)."""
    return setting(None, "model metrics: where the model runs: cpu, cuda, cuda:N or mps (default: auto, CUDA when "
                   "torch sees one, else the CPU)", parse_device, flags=("--device",), run_only=True)


def threads_setting(default: int) -> Any:
    """torch threads: 0 (torch's default) where the original runs so, 1 where one thread keeps the
    bits independent of the batches (the help says so, and what more threads change)."""
    same_bits = ("; one thread gives the same bits whatever the batches, more may be faster and change float "
                 "rounding") if default == 1 else ""
    return setting(default, f"model metrics: torch threads per process (0: torch's default{same_bits})",
                   non_negative_int, flags=("--threads",), run_only=True)
