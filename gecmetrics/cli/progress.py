"""The progress display of a long run: a live bar on stderr with the count, the rate and the time
left, shown once a run has taken more than two seconds and only on a terminal: never in pipes,
logs, captured output, with --json or with --quiet."""
from __future__ import annotations

import sys
import time
from typing import TextIO

import click

PROGRESS_DELAY_SECONDS = 2.0
BAR_WIDTH = 24
_SHOWING: list[TextIO] = []
"""The stream whose last line is a progress line now (at most one)."""


def clear_line() -> None:
    """Clear the progress line shown now, if any: a line written to stderr from elsewhere (a
    stop's, from a signal's handler) then starts at the left, not at the end of the bar."""
    while _SHOWING:
        stream = _SHOWING.pop()
        try:
            stream.write("\r\x1b[K")
            stream.flush()
        except (OSError, ValueError):
            pass


class StderrProgress:
    """``progress(done, total, what)`` callbacks of the run engine as one line on stderr
    (``total`` 0: unknown, then no bar and no time left). A command that runs several times
    (the report: its scoring, then each attribution) shares one: after ``"done"`` the next run
    starts its own clock (its rate, time left and two seconds' delay)."""

    def __init__(self, command: str, stream: TextIO | None = None, delay: float = PROGRESS_DELAY_SECONDS,
                 unit: str = "lines") -> None:
        self.command, self.unit = command, unit
        self.stream = stream if stream is not None else sys.stderr
        self.start = time.monotonic()
        self.delay = delay
        self.enabled = bool(getattr(self.stream, "isatty", lambda: False)())
        self.shown = False

    def __call__(self, done: int, total: int, what: str) -> None:
        if not self.enabled:
            return
        if what == "done":
            if self.shown:
                self.stream.write("\r\x1b[K")
                self.stream.flush()
                _SHOWING.clear()
            self.start, self.shown = time.monotonic(), False
            return
        elapsed = time.monotonic() - self.start
        if elapsed < self.delay:
            return
        self.stream.write("\r" + self.line(done, total, elapsed, what) + "\x1b[K")
        self.stream.flush()
        self.shown = True
        if not _SHOWING:
            _SHOWING.append(self.stream)

    def line(self, done: int, total: int, elapsed: float, what: str = "") -> str:
        """``gecmetric CMD [#####.....] 1,000/3,000 lines  410 lines/s  0:05 left  WHAT``."""
        rate = done / elapsed if elapsed > 0 else 0.0
        parts = [f"gecmetric {self.command}"]
        if total:
            filled = min(BAR_WIDTH, int(BAR_WIDTH * done / total))
            parts.append("[" + "#" * filled + "." * (BAR_WIDTH - filled) + "]")
            parts.append(f"{done:,}/{total:,} {self.unit}")
        else:
            parts.append(f"{done:,} {self.unit}")
        if rate > 0:
            parts.append(f"{rate:,.{0 if rate >= 10 else 1}f} {self.unit}/s")
            if total and done < total:
                left = int((total - done) / rate)
                parts.append(f"{left // 60}:{left % 60:02d} left")
        if what:
            parts.append(what)
        return "  ".join(parts)


def quiet_option(func):
    """--quiet: no progress display (warnings and errors still go to stderr)."""
    def remember(ctx: click.Context, _param: click.Parameter, value: bool) -> bool:
        if value:
            ctx.meta["gecmetrics.quiet"] = True
        return value
    return click.option("--quiet", is_flag=True, expose_value=False, callback=remember,
                        help="Show no progress bar (it shows only on a terminal, after two seconds).")(func)


def progress_unless(as_json: bool, command: str, unit: str = "lines") -> StderrProgress | None:
    """The progress display of a command, except with --json or --quiet."""
    context = click.get_current_context(silent=True)
    if as_json or (context is not None and context.meta.get("gecmetrics.quiet")):
        return None
    return StderrProgress(command, unit=unit)
