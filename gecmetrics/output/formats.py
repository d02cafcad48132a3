"""The output formats: one registry from a format's name to the function that renders a table
(:class:`~gecmetrics.core.table.Table`: header, rows of printed cells, notes, optional JSON data)
as text. Every table a command prints goes through :func:`render`; ``--tsv``, ``--markdown``,
``--latex``, ``--json`` and ``--format NAME`` choose the format.

Built in: ``text`` (a prettytable, the notes under it), ``tsv`` (a header line, then a line per
row; no notes), ``markdown`` (the notes as a list), ``latex`` (a booktabs tabular, the notes as
comments) and ``json`` (the table's ``data`` when the command gave one, else its header and
rows). A new format is one :func:`register_format` call, here or from any package at run time::

    register_format("csv", lambda table, notes: "\\n".join(",".join(row) for row in [table.header, *table.rows]),
                    "comma-separated values")
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

import numpy as np

from ..core.table import Table, escaped_cell
from ..errors import InputError

READ_BY_PEOPLE = ("text", "markdown", "latex")
"""The built-in formats people read rather than programs: a difference of scores (an edit's
attribution) is signed there (``+15.63``, as on the HTML report's page); TSV, JSON and registered
formats get plain numbers."""

Renderer = Callable[[Table, bool], str]
"""``render(table, notes)``: the table as text (``notes``: print the notes too)."""


@dataclass(frozen=True)
class Format:
    """A registered output format: its name (``--format NAME``), renderer and help line."""

    name: str
    render: Renderer
    help: str
    shorthand: bool = True
    """Whether the commands also take it as ``--NAME`` (the built-in ones)."""


_FORMATS: dict[str, Format] = {}


def register_format(name: str, render: Renderer, help: str, replace: bool = False, shorthand: bool = False) -> None:
    """Make ``render(table, notes) -> str`` the format ``name`` of every command (``--format
    NAME``). Registering a taken name is an error unless ``replace=True``."""
    if not isinstance(name, str) or not name.replace("-", "_").isidentifier():
        raise InputError(f"a format name is a word (letters, digits, '-', '_'), got {name!r}")
    if not callable(render):
        raise TypeError(f"register_format needs a function render(table, notes) -> str, got {render!r}")
    if name in _FORMATS and not replace:
        raise InputError(f"output format {name!r} is already registered (pass replace=True to replace it)")
    _FORMATS[name] = Format(name, render, help, shorthand)


def unregister_format(name: str) -> None:
    """Forget a registered format (for tests and plugins that clean up)."""
    _FORMATS.pop(name, None)


def format_names() -> list[str]:
    """Every registered format, in registration order (the built-in ones first)."""
    return list(_FORMATS)


def formats() -> list[Format]:
    return list(_FORMATS.values())


def check_format(fmt: str) -> str:
    if not isinstance(fmt, str) or fmt not in _FORMATS:  # (a list was "unhashable type")
        raise InputError(f"unknown output format {fmt!r}; valid formats: {', '.join(_FORMATS)}")
    return fmt


def render(table: Table, fmt: str = "text", notes: bool = True) -> str:
    """``table`` in the format ``fmt`` (``notes``: with the notes below it, where the format
    has a place for them)."""
    return _FORMATS[check_format(fmt)].render(table, notes)


def render_parts(parts: str | Table | Iterable[Any], fmt: str = "text") -> str:
    """Text and tables one after another, one per line (what a family's report gives)."""
    if isinstance(parts, (str, Table)):
        parts = [parts]
    return "\n".join(part if isinstance(part, str) else render(part, fmt) for part in parts)


def render_sections(sections: Sequence[Any], fmt: str = "text") -> str:
    """Titled tables (``section.title``, ``section.table``) one after another, the title on its
    own line (bold in Markdown, ``% `` in LaTeX); a TSV or JSON stream holds one table."""
    if fmt in ("tsv", "json"):
        if len(sections) != 1:
            raise InputError(f"a {fmt} stream holds one table, got {len(sections)}: choose one (--table)")
        return render(sections[0].table, fmt)
    parts = []
    for section in sections:
        # (one line: a file name holding a newline left the rest of a LaTeX comment live)
        shown = escaped_cell(section.title, backslash=fmt == "markdown")
        title = {"markdown": f"**{shown}**\n", "latex": f"% {shown}"}.get(fmt, shown)
        parts.append(f"{title}\n{render(section.table, fmt)}")
    return "\n\n".join(parts)


# ----------------------------------------------------------------------------- the built-in formats


def _text(table: Table, notes: bool) -> str:
    from prettytable import PrettyTable  # only the text format draws one

    out = PrettyTable([escaped_cell(h, backslash=False) for h in table.header])
    for row in table.rows:
        out.add_row([escaped_cell(cell, backslash=False) if isinstance(cell, str) else cell for cell in row])
    for column, side in (table.text_align or {}).items():
        out.align[column] = side
    return "\n".join([out.get_string()] + ([escaped_cell(note, backslash=False) for note in table.notes] if notes else []))


def _tsv(table: Table, notes: bool) -> str:
    return "\n".join("\t".join(escaped_cell(cell) for cell in row) for row in [table.header] + table.rows)


def _markdown(table: Table, notes: bool) -> str:
    cell = lambda text: escaped_cell(text).replace("|", "\\|")  # noqa: E731
    lines = ["| " + " | ".join(cell(h) for h in table.header) + " |",
             "|" + "|".join(":---" if k in table.left else "---:" for k in range(len(table.header))) + "|"]
    lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in table.rows]
    if notes and table.notes:
        lines += ["", "Signatures:", ""] + [f"* {escaped_cell(note)}" for note in table.notes]
    return "\n".join(lines)


def _latex(table: Table, notes: bool) -> str:
    spec = "".join("l" if k in table.left else "r" for k in range(len(table.header)))
    lines = [f"\\begin{{tabular}}{{{spec}}}", "\\toprule",
             " & ".join(latex_escape(h) for h in table.header) + " \\\\", "\\midrule"]
    lines += [" & ".join(latex_escape(c) for c in row) + " \\\\" for row in table.rows]
    lines += ["\\bottomrule", "\\end{tabular}"]
    if notes and table.notes:
        lines += ["% " + escaped_cell(note, backslash=False) for note in table.notes]
    return "\n".join(lines)


def prose(text: str, fmt: str) -> str:
    """A line of text printed beside tables (a test's title, its legend, the clusters) as the
    format takes it: in LaTeX a comment per line (raw, a cluster's '{A_B%C}' broke the document),
    as it is in every other format."""
    if fmt != "latex":
        return text
    return "\n".join("% " + escaped_cell(line, backslash=False) for line in text.splitlines())


def _json(table: Table, notes: bool) -> str:
    if table.data is not None:
        return dumps(table.data)
    return dumps({"columns": table.header, "rows": table.rows, **({"notes": table.notes} if notes else {})})


_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
                  "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}


def latex_escape(text: Any) -> str:
    """Text with LaTeX's special characters escaped (``±`` becomes ``$\\pm$``)."""
    out = "".join(_LATEX_SPECIAL.get(c, c) for c in str(text))
    return out.replace("±", "$\\pm$")


def to_jsonable(value: Any) -> Any:
    """NumPy arrays and scalars, dataclasses and tuples turned into JSON values."""
    if isinstance(value, np.ndarray):
        return to_jsonable(value.tolist())
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (np.floating, float)) and not isinstance(value, bool):
        value = float(value)
        return value if math.isfinite(value) else str(value)
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v) for v in value]
    return value


def dumps(value: Any) -> str:
    """A JSON document (indented, UTF-8 as it is, non-finite numbers as strings)."""
    import json  # (here: only --json output needs it)

    return json.dumps(to_jsonable(value), indent=2, ensure_ascii=False)


for _name, _render, _help in (
        ("text", _text, "a text table, the signatures under it"),
        ("tsv", _tsv, "tab-separated values: a header, then a line per row"),
        ("markdown", _markdown, "a Markdown table and the signatures"),
        ("latex", _latex, "a LaTeX tabular (booktabs rules), signatures as comments"),
        ("json", _json, "JSON: scores, counts, settings and signatures")):
    register_format(_name, _render, _help, shorthand=True)
