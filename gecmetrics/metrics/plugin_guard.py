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
def plugin_errors(metric: "Metric | type[Metric]", step: str, name: str | None = None) -> Iterator[None]:
    """An error inside a plugin metric's own code (a class from outside gecmetrics) as one
    :class:`InputError` naming the plugin, the step and the error: not a traceback through the
    engine that looks like gecmetrics' (the CLI prints one line; a built-in metric's bug still
    shows its traceback). ``metric`` is the object, or its class while one is being made (its
    ``__init__``, its settings' parsers and checks), then called ``name``."""
    try:
        yield
    except InputError:
        raise
    except Exception as err:  # noqa: BLE001 - any error of code that is not ours
        cls = metric if isinstance(metric, type) else type(metric)
        if not is_plugin(cls) and not is_plugin(cls.settings_class):
            raise
        shown = name or (cls.name or cls.__name__ if isinstance(metric, type) else metric.display_name)
        raise InputError(f"plugin metric {shown} ({cls.__module__}.{cls.__qualname__}) failed in "
                         f"{step}: {type(err).__name__}: {err}") from err


def guarded_hook(method: Callable[..., Any], step: str) -> Callable[..., Any]:
    """A plugin's protocol method ``step``, its errors made one line by :func:`plugin_errors`.
    ``score_from_sums`` must give numbers, one per summed row: its value is made a float array
    of the sums' leading shape there (a text score failed later, inside NumPy, in whatever called
    it)."""
    @functools.wraps(method)
    def guarded(self: "Metric", *args: Any, **kwargs: Any) -> Any:
        with plugin_errors(self, step):
            return method(self, *args, **kwargs)

    @functools.wraps(method)
    def guarded_numbers(self: "Metric", *args: Any, **kwargs: Any) -> Any:
        import numpy as np

        with plugin_errors(self, step):
            scores = np.asarray(method(self, *args, **kwargs), dtype=np.float64)
            sums = np.shape(args[0] if args else kwargs.get("sums"))
            if scores.shape != sums[:-1]:  # (a vector per sum was averaged into the score, a scalar for
                # every resample made a point interval: wrong numbers without a word)
                raise ValueError(f"it gave scores of shape {scores.shape} for summed rows of shape {sums}: it maps "
                                 "summed rows (..., K) to one score each, shape (...)")
            return scores

    return guarded_numbers if step == "score_from_sums" else guarded
