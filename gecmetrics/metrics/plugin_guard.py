"""A plugin metric's own errors as one line: a metric class defined outside gecmetrics (a
plugin's or a user's) has each protocol method it writes guarded where the class is made
(:meth:`gecmetrics.metrics.base.Metric.__init_subclass__`), so its error is one
:class:`~gecmetrics.errors.InputError` naming the plugin, the method and the error wherever the
engine calls it: a corpus score, sentence scores, a paired test's resamples, a reward, MBR."""
from __future__ import annotations

import functools
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Callable, Iterator

from ..errors import InputError

if TYPE_CHECKING:
    from .base import Metric


def is_plugin(cls: type) -> bool:
    """Whether a metric class is defined outside gecmetrics (a plugin's or a user's)."""
    return cls.__module__.split(".")[0] != "gecmetrics"


@contextmanager
def plugin_errors(metric: "Metric", step: str) -> Iterator[None]:
    """An error inside a plugin metric's own code (a class from outside gecmetrics) as one
    :class:`InputError` naming the plugin, the step and the error: not a traceback through the
    engine that looks like gecmetrics' (the CLI prints one line; a built-in metric's bug still
    shows its traceback)."""
    try:
        yield
    except InputError:
        raise
    except Exception as err:  # noqa: BLE001 - any error of code that is not ours
        cls = type(metric)
        if not is_plugin(cls):
            raise
        raise InputError(f"plugin metric {metric.display_name} ({cls.__module__}.{cls.__qualname__}) failed in "
                         f"{step}: {type(err).__name__}: {err}") from err


def guarded_hook(method: Callable[..., Any], step: str) -> Callable[..., Any]:
    """A plugin's protocol method ``step``, its errors made one line by :func:`plugin_errors`.
    ``score_from_sums`` must give numbers: its value is made a float array there (a text score
    failed later, inside NumPy, in whatever called it)."""
    @functools.wraps(method)
    def guarded(self: "Metric", *args: Any, **kwargs: Any) -> Any:
        with plugin_errors(self, step):
            return method(self, *args, **kwargs)

    @functools.wraps(method)
    def guarded_numbers(self: "Metric", *args: Any, **kwargs: Any) -> Any:
        import numpy as np

        with plugin_errors(self, step):
            return np.asarray(method(self, *args, **kwargs), dtype=np.float64)

    return guarded_numbers if step == "score_from_sums" else guarded
