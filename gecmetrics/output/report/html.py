"""The report page: one self-contained HTML file showing :func:`~.data.report_data`'s dict.

The page holds the data as JSON in a ``<script type="application/json">`` element and draws
every table and figure (inline SVG) from it with its own inline script and style sheet; it
loads nothing: no network request, no CDN, no web font, and its Content-Security-Policy
(``default-src 'none'``) forbids any. The data is the JSON that ``--json`` writes, so the page
is only a view of it.
"""
from __future__ import annotations

import json
import math
import os
from importlib import resources
from typing import Any

from ...errors import InputError

CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:"
SECTIONS = ("summary", "types", "sentences", "attribution", "meta")
"""The ids of the page's sections (``meta`` only with human scores)."""


def _clean(value: Any) -> Any:
    """JSON values: NumPy numbers as Python ones, non-finite floats as null."""
    if isinstance(value, dict):
        return {str(k): _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        return value
    tolist = getattr(value, "tolist", None)
    if callable(tolist):
        return _clean(tolist())
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    return value


def report_json(data: dict, indent: int | None = None) -> str:
    """The report's data as JSON (non-finite numbers as null; compact unless ``indent``)."""
    if not isinstance(data, dict) or data.get("format") != "gecmetrics-report":
        raise InputError("not the data of a gecmetrics report (see gecmetrics.output.report.report_data)")
    separators = (",", ":") if indent is None else (",", ": ")
    return json.dumps(_clean(data), ensure_ascii=False, indent=indent, separators=separators, allow_nan=False)


def _asset(name: str) -> str:
    return (resources.files(__package__) / "assets" / name).read_text(encoding="utf-8")


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def render_html(data: dict) -> str:
    """The page of a report's data: one HTML document, everything inline."""
    payload = report_json(data).replace("<", "\\u003c")  # nothing in the data can close the element
    title = _escape(str(data.get("title") or "GEC evaluation report"))
    return "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{CONTENT_SECURITY_POLICY}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{title}</title>",
        f"<style>\n{_asset('report.css')}</style>",
        "</head>",
        "<body>",
        f'<header id="top"><h1>{title}</h1><p id="corpus-line"></p><nav id="nav"></nav></header>',
        "<main>",
        *[f'<section id="{name}"></section>' for name in SECTIONS],
        "</main>",
        f'<footer>gecmetrics {_escape(str(data.get("gecmetrics", "")))}: this page is a view of its data '
        '(the JSON in the element #report-data, as <code>--json</code> writes it).</footer>',
        f'<script type="application/json" id="report-data">{payload}</script>',
        f"<script>\n{_asset('report.js')}</script>",
        "</body>",
        "</html>",
        ""])


def write_report(data: dict, html: str | os.PathLike | None = None, json_path: str | os.PathLike | None = None
                 ) -> None:
    """Write the page and/or the JSON (each written whole, then moved into place)."""
    from ...io.atomic import atomic_output

    if html is None and json_path is None:
        raise InputError("nothing to write: give the HTML page's path and/or the JSON's")
    for path in (html, json_path):
        if path is not None and not os.path.isdir(os.path.dirname(os.path.abspath(os.fspath(path)))):
            raise InputError("the folder does not exist", os.fspath(path))
    for path, text in ((json_path, lambda: report_json(data) + "\n"), (html, lambda: render_html(data))):
        if path is not None:
            with atomic_output(os.fspath(path)) as handle:
                handle.write(text())
