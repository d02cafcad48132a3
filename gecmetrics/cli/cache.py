"""``gecmetric cache``: look at, empty or shrink the persistent cache (docs/cache.md).

The cache is the run's one (``gecmetric --cache DIR cache info``, else ``$GECMETRICS_CACHE``,
else the user cache folder: :func:`~gecmetrics.cli.context.run_context`); looking at it creates
nothing.
"""
from __future__ import annotations

import os

import click

from ..errors import InputError, one_line, plural
from . import main
from .app import SharedOptionsGroup
from .common import echo_json
from .context import cache_option, run_context


def _the_cache():
    """The run's cache (its warnings are one line each on stderr). A scoring command goes on
    without a cache it cannot use; these commands have no other job, so a file where the folder
    should be is an error naming where the folder came from."""
    from ..core.cache import ENV_VAR, shown_name

    store = run_context().cache
    folder = store.folder
    if folder is not None:  # (each path escaped when it is not printable: a newline in it broke the line)
        given = ("--cache" if cache_option() else f"${ENV_VAR}" if os.environ.get(ENV_VAR, "").strip()
                 else "the user cache folder")
        try:  # (a name too long, a parent folder that cannot be searched: OSError, read as a failed write)
            blocker = next((path for path in (folder, *folder.parents) if path.exists()), None)
        except OSError as exc:
            raise InputError(f"{given}: cannot use cache folder {shown_name(str(folder))}: "
                             f"{exc.strerror or exc}") from None
        if blocker is not None and not blocker.is_dir():
            raise InputError(f"{given}: cannot use cache folder {shown_name(str(folder))}: "
                             f"{shown_name(str(blocker))} is a file, not a folder")
        if store.path.exists() and not store.path.is_file():  # (a warning, then this error, exit 1)
            raise InputError(f"{given}: cannot use cache {shown_name(str(store.path))}: it is not a file (a folder?)")
    return store


@main.group("cache", cls=SharedOptionsGroup)
def cache() -> None:
    """The persistent cache of spaCy parses, model encodings and scores, and LLM answers:
    `info`, `clear`, `prune`. Choose its folder with `gecmetric --cache DIR cache ...` (default:
    $GECMETRICS_CACHE, else the user cache folder)."""


def _entries(count: int) -> str:
    """``1 entry``, ``2 entries``."""
    return plural(count, "entry", "entries")


def _changing(store, command: str, change):
    """``change()``'s count of removed entries. A problem that turns the cache off on the way (a
    full disk: even a DELETE writes to the write-ahead log) is an error, exit 1, after the
    cache's own warning: the size and entries are then not known here (it printed "0 B")."""
    removed = change()
    if store.read_only:  # (it said "removed 0 entries", exit 0, whatever the cache held)
        click.echo(f"gecmetric: error: cache {command}: the cache {store.path} cannot be written (read-only): nothing "
                   "was removed", err=True)
        raise SystemExit(1)
    if store.stayed_locked:
        click.echo(f"gecmetric: error: cache {command}: another process kept the cache locked (a run stopped with "
                   f"Ctrl-Z?); {_entries(removed)} removed (`gecmetric cache info` shows what is left)", err=True)
        raise SystemExit(1)
    if not store.enabled:
        from ..core.cache import shown_name

        # (the cache's own files, not its folder: that may be ~ or a folder of other files, --cache .)
        click.echo(f"gecmetric: error: cache {command}: {one_line(store.reason)}; {_entries(removed)} removed before "
                   f"it (`gecmetric cache info` shows what is left; deleting {shown_name(str(store.path))} and its "
                   "-wal and -shm files frees it all)", err=True)
        raise SystemExit(1)
    return removed


@cache.command("info")
@click.option("--json", "as_json", is_flag=True, help="Print JSON: path, size, entries and last use per namespace.")
def info(as_json: bool) -> None:
    """Where the cache is, its size on disk, and its entries and last use per producer."""
    found = _the_cache().info()
    if as_json:
        echo_json(found.to_dict())
    else:
        click.echo(str(found))


@cache.command("clear")
@click.option("--namespace", metavar="NAME", help="Only this producer's entries: a name `cache info` prints, or its "
                                                   "start up to a '/' (spacy-parse: every spaCy parse).")
def clear(namespace: str | None) -> None:
    """Remove every entry (and any damaged copy moved aside), or one producer's."""
    from ..core.cache import check_namespace, format_size

    store = _the_cache()
    if not store.enabled:
        click.echo(str(store.info()))
        return
    if namespace is not None:
        check_namespace(namespace)
    removed = _changing(store, "clear", lambda: store.clear(namespace))
    if namespace is not None and not removed:  # a name that matches nothing is likely mistyped: say what it holds
        held = sorted({name.split("/")[0] for name in store.info().namespaces})
        raise InputError(f"no entries of {namespace!r} in the cache (it holds {', '.join(held) or 'none'})",
                         "--namespace")
    click.echo(f"removed {_entries(removed)}{f' of {namespace}' if namespace else ''}; "
               f"{format_size(store.info().size_bytes)} on disk")


@cache.command("prune")
@click.option("--max-size", metavar="SIZE", help="Remove the least recently used entries until the file is at most "
                                                 "SIZE (2GB, 500MB, 1.5GiB, bytes).")
@click.option("--older-than", metavar="AGE", help="Remove the entries not used for AGE (30d, 12h, 90m, 2w; last "
                                                  "use is recorded to the hour).")
def prune(max_size: str | None, older_than: str | None) -> None:
    """Remove entries not used lately (--older-than) and/or the least recently used ones until
    the cache fits in --max-size (both: the age first)."""
    from ..core.cache import format_size, parse_age, parse_size

    if max_size is None and older_than is None:
        raise InputError("cache prune: give --max-size SIZE, --older-than AGE or both")
    size = None if max_size is None else parse_size(max_size, "--max-size")
    age = None if older_than is None else parse_age(older_than, "--older-than")
    store = _the_cache()
    if not store.enabled:
        click.echo(str(store.info()))
        return
    removed = _changing(store, "prune", lambda: store.prune(max_size=size, older_than=age))
    click.echo(f"removed {_entries(removed)}; {format_size(store.info().size_bytes)} on disk")
