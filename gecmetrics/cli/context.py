"""The run's cache on the command line: ``--cache DIR`` / ``--no-cache`` are remembered in
click's context and become one :class:`~gecmetrics.core.context.RunContext` per command
(``$GECMETRICS_CACHE`` is read there, once), which the commands hand to the run engine and bind
their metrics to. Nothing is put in the process's environment."""
from __future__ import annotations

import os
from typing import Any, Iterable

import click

from ..errors import InputError

_SETTING = "gecmetrics.cache"
_CONTEXT = "gecmetrics.run_context"


def remember_cache(folder: str | None, no_cache: bool) -> None:
    """Keep ``--cache DIR`` / ``--no-cache`` for the command's run (a later pair, the command's
    own, replaces an earlier one)."""
    if folder is not None and no_cache:
        raise InputError("--cache and --no-cache do not go together")
    if folder is None and not no_cache:
        return
    meta = click.get_current_context().meta
    meta[_SETTING] = False if no_cache else folder
    meta.pop(_CONTEXT, None)


def cache_option() -> str | bool | None:
    """What the command line said of the cache: the ``--cache`` folder, False for
    ``--no-cache``, None for neither (then ``$GECMETRICS_CACHE`` or the default decides)."""
    ctx = click.get_current_context(silent=True)
    return None if ctx is None else ctx.meta.get(_SETTING)


def run_context() -> Any:
    """The command's run context (made on first use from the remembered options; its cache
    reports a problem as one ``gecmetric: warning:`` line on stderr)."""
    from ..core.context import run_context as make

    ctx = click.get_current_context(silent=True)
    meta: dict[str, Any] = ctx.meta if ctx is not None else {}
    found = meta.get(_CONTEXT)
    if found is None:
        found = meta[_CONTEXT] = make(meta.get(_SETTING), on_warning=_warn)
    return found


def check_command_outputs(outputs: Iterable[tuple[str, str | None]], inputs: Iterable[Any]) -> None:
    """:func:`~gecmetrics.io.atomic.check_outputs` for a command: its outputs are not its
    inputs, nor each other, nor the files of the run's cache (as ``--cache``, ``--no-cache`` and
    ``$GECMETRICS_CACHE`` say; the cache is not opened): a page written over the cache's
    database destroyed it without a word."""
    from ..io.atomic import check_outputs

    outputs = list(outputs)
    check_outputs(outputs, [*inputs, *_cache_files([path for _, path in outputs if path is not None])])


def metric_files(texts: Iterable[str] | None) -> list[str]:
    """The files the metrics of ``texts`` (``--metrics`` values) name in their settings and read
    (:meth:`~gecmetrics.metrics.base.Metric.files_read`), inputs no output may replace (a page
    written over ``errant:word_list=FILE`` replaced the word list)."""
    from ..metrics.registry import resolve_metrics

    texts = [text for text in texts or () if text.strip().lower() != "none"]
    return [path for text in texts for metric in resolve_metrics(text) for path in metric.files_read()]


def model_folders(*models: str | None) -> list[str]:
    """The folders of the spaCy models the run loads (``--spacy-model DIR``, or an installed
    package by name; None: $GECMETRICS_SPACY_MODEL, else en_core_web_sm), inputs no output may be
    written into (``-o .../en_core_web_sm/meta.json`` broke the model for the next run)."""
    from ..core.lang.en.modelid import model_folder
    from ..core.lang.en.parse import model_name

    found = (model_folder(model_name(model)) for model in models)
    return [str(folder) for folder in found if folder is not None]


def _cache_files(outputs: list[Any]) -> list[str]:
    """The run's cache files, looked up only when an output may be one of them
    (:func:`~gecmetrics.core.cache_folder.may_be_a_cache_file`)."""
    from ..core.cache_folder import cache_files, may_be_a_cache_file, resolve_cache_folder

    setting = cache_option()
    if setting is False or not any(may_be_a_cache_file(path) for path in outputs if os.fspath(path) != "-"):
        return []
    folder = resolve_cache_folder(setting)
    return [] if folder is None else [os.fspath(path) for path in cache_files(folder)]


def in_run(metric: Any) -> Any:
    """``metric`` bound to the command's run context (its signature then says ``cache:on`` exactly
    when the run's cache is in use)."""
    return metric.with_context(run_context())


def _warn(message: str) -> None:
    click.echo(f"gecmetric: warning: {message}", err=True)
