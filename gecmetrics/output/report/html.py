"""The report page: one self-contained HTML file showing :func:`~.data.report_data`'s dict.

The page holds the data as JSON in a ``<script type="application/json">`` element and draws
every table and figure (inline SVG) from it with its own inline script and style sheet; it
loads nothing: no network request, no CDN, no web font, and its Content-Security-Policy
(``default-src 'none'``) forbids any. The data is the JSON that ``--json`` writes, so the page
is only a view of it: its per-sentence part (``sentences`` and each attribution's per-sentence
values, :data:`PER_SENTENCE`) is held apart, gzip-compressed and base64-encoded (a 10^5-line
report stays a few MB), and decoded by the browser's own ``DecompressionStream`` once the other
sections are drawn; :func:`page_data` reads the whole data back from a page.
"""
from __future__ import annotations

import base64
import gzip
import json
import math
import operator
import os
import re
import zlib
from importlib import resources
from typing import Any, Iterator

from ...errors import InputError
from .data import DEFAULT_TITLE

CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:"
SECTIONS = ("summary", "types", "sentences", "attribution", "meta")
"""The ids of the page's sections (``meta`` only with human scores)."""


def _clean(value: Any) -> Any:
    """JSON values: NumPy numbers as Python ones, non-finite floats as null. A list or mapping
    that is plain already (str keys, values kept as they are) is returned itself, not copied:
    the report's data is mostly plain, and a copy of a 10^5-sentence report's lists held about
    200 MB while its page was written."""
    if isinstance(value, dict):
        cleaned = {str(k): _clean(v) for k, v in value.items()}
        if type(value) is dict and all(map(_same_item, value.items(), cleaned.items())):
            return value
        return cleaned
    if isinstance(value, (list, tuple)):
        # the items already plain (a str, int, bool, None or finite float of exactly those types:
        # 10^7 of them in a 10^5-sentence report) are kept without a call, the others cleaned
        cleaned = [v if ((kind := type(v)) is str or kind is int or v is None or kind is bool
                         or (kind is float and v - v == 0.0)) else _clean(v) for v in value]
        if type(value) is list and all(map(operator.is_, cleaned, value)):
            return value
        return cleaned
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


def _same_item(old: tuple, new: tuple) -> bool:
    """A mapping's (key, value) kept by :func:`_clean`: a str key, the same value object."""
    return type(old[0]) is str and old[1] is new[1]


def _check_data(data: Any) -> None:
    if not isinstance(data, dict) or data.get("format") != "gecmetrics-report":
        raise InputError("not the data of a gecmetrics report (see gecmetrics.output.report.report_data)")


def report_json(data: dict, indent: int | None = None) -> str:
    """The report's data as JSON (non-finite numbers as null; compact unless ``indent``)."""
    _check_data(data)
    if indent is None:
        return _compact(_clean(data))
    return json.dumps(_clean(data), ensure_ascii=False, indent=indent, separators=(",", ": "), allow_nan=False)


def _compact(value: Any) -> str:
    """The compact JSON of cleaned data: what ``--json`` writes and the page holds."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


JSON_ITEMS = 1000
"""Items of a long list written by one ``json.dumps`` call in :func:`json_pieces`."""


def _long(value: Any) -> bool:
    return isinstance(value, dict) or (isinstance(value, list) and len(value) > JSON_ITEMS)


def json_pieces(cleaned: Any) -> Iterator[str]:
    """The compact JSON of cleaned data (:func:`_clean`) in pieces whose concatenation is
    ``json.dumps(cleaned, ensure_ascii=False, separators=(",", ":"))``: mappings key by key and
    long lists :data:`JSON_ITEMS` items at a time, so that a 10^5-sentence report is written
    without its whole text (about 100 MB) in memory at once."""
    if isinstance(cleaned, dict):
        yield "{"
        for k, (key, value) in enumerate(cleaned.items()):
            yield ("," if k else "") + _compact(key) + ":"
            yield from json_pieces(value)
        yield "}"
    elif isinstance(cleaned, list) and (len(cleaned) > JSON_ITEMS or any(map(_long, cleaned))):
        yield "["
        if len(cleaned) > JSON_ITEMS:
            for start in range(0, len(cleaned), JSON_ITEMS):
                yield ("," if start else "") + _compact(cleaned[start:start + JSON_ITEMS])[1:-1]
        else:
            for k, value in enumerate(cleaned):
                if k:
                    yield ","
                yield from json_pieces(value)
        yield "]"
    else:
        yield _compact(cleaned)


PER_SENTENCE = ("values", "full", "empty", "sampled_shapley")
"""The per-sentence keys of each attribution entry (the page holds them with the sentences)."""


TEXT_KEYS = ("source", "references", "gold", "edits")
"""The sentence browser's lists that the page holds sentence by sentence (``texts``: per sentence
its source, its references, the gold edits and each system's edits): gzip finds a sentence's
words again only within 32 KB, so a reference beside its source costs its changes, not its text
(a third less page on CoNLL-2014-like text). A reference that is its annotator's gold edits
applied to the source (:func:`reference_from_gold`) is not held at all: the row lists its
number (:func:`_text_row`)."""


def reference_from_gold(source: str, gold: Any, annotator: int) -> str | None:
    """``source`` with the page's gold edits of ``annotator`` applied (rows (start, end,
    correction, type, annotator, ...); tokens split on single spaces; edits in order of (start,
    end), a correction "" a deletion), or None where they do not apply (overlapping, outside the
    sentence, not such rows). The page does not hold a reference equal to it (:func:`_text_row`);
    report.js's ``referenceFromGold`` makes the same text."""
    tokens = source.split(" ")
    own = []
    for edit in gold or []:
        if not isinstance(edit, list) or len(edit) < 5 or not all(type(x) is int for x in (edit[0], edit[1], edit[4])) \
                or not isinstance(edit[2], str):
            return None
        if edit[4] == annotator:
            own.append(edit)
    out, position = [], 0
    for start, end, correction, *_ in sorted(own, key=lambda edit: (edit[0], edit[1])):
        if not position <= start <= end <= len(tokens):
            return None
        out += tokens[position:start] + (correction.split(" ") if correction else [])
        position = end
    return " ".join(out + tokens[position:])


def _text_row(source: Any, references: list, gold: Any, edits: list) -> list:
    """One sentence's ``texts`` row: [source, references, gold edits, each system's edits], and
    when some reference r is annotator r's gold edits applied to the source
    (:func:`reference_from_gold`), null in its place and a fifth item listing those r."""
    held = [r for r, text in enumerate(references) if isinstance(source, str) and isinstance(text, str)
            and reference_from_gold(source, gold, r) == text]
    row = [source, [None if r in held else text for r, text in enumerate(references)], gold, edits]
    return row + [held] if held else row


def _row_references(row: list) -> list:
    """The references of a ``texts`` row (:func:`_text_row`), those held made again."""
    references = list(row[1])
    for r in row[4] if len(row) > 4 else []:
        text = reference_from_gold(row[0], row[2], r) if isinstance(row[0], str) and type(r) is int \
            and 0 <= r < len(references) else None
        if text is None:
            raise InputError("the page's data holds a reference its gold edits do not make")
        references[r] = text
    return references


def split_rows(data: dict) -> tuple[dict, dict]:
    """(the data without its per-sentence part, that part: ``sentences`` and each attribution's
    :data:`PER_SENTENCE` keys)."""
    head = {key: value for key, value in data.items() if key != "sentences"}
    head["attribution"] = [{key: value for key, value in entry.items() if key not in PER_SENTENCE}
                           for entry in data.get("attribution") or []]
    rows = {"sentences": data.get("sentences"),
            "attribution": [{key: entry[key] for key in PER_SENTENCE if key in entry}
                            for entry in data.get("attribution") or []]}
    return head, rows


def by_sentence(sentences: dict) -> dict:
    """The sentence data as the page holds it: the :data:`TEXT_KEYS` lists sentence by sentence
    (``texts``, the systems of ``edits`` in ``text_systems``), the other keys as they are."""
    if not isinstance(sentences, dict) or not all(key in sentences for key in TEXT_KEYS):
        return sentences
    systems = list(sentences["edits"])
    references, gold, edits = sentences["references"], sentences["gold"], sentences["edits"]
    texts = [_text_row(source, [reference[d] for reference in references], gold[d], [edits[name][d] for name in systems])
             for d, source in enumerate(sentences["source"])]
    return {"texts": texts, "text_systems": systems,
            **{key: value for key, value in sentences.items() if key not in TEXT_KEYS}}


def by_column(sentences: dict) -> dict:
    """The inverse of :func:`by_sentence`: the sentence data as ``--json`` writes it."""
    if not isinstance(sentences, dict) or "texts" not in sentences:
        return sentences
    texts, systems = sentences["texts"], sentences["text_systems"]
    count = len(texts[0][1]) if texts else 0
    held = [_row_references(row) for row in texts]
    out = {"source": [row[0] for row in texts], "references": [[row[r] for row in held] for r in range(count)],
           "gold": [row[2] for row in texts],
           "edits": {name: [row[3][k] for row in texts] for k, name in enumerate(systems)}}
    out.update((key, value) for key, value in sentences.items() if key not in ("texts", "text_systems"))
    return out


def encode_rows(rows: dict) -> str:
    """The per-sentence part as the page holds it: the first :data:`ROWS_BLOCK` sentences, then
    the others (:func:`row_blocks`), each block compact JSON with the texts sentence by sentence
    (:func:`by_sentence`), gzip (no time stamp: the same data gives the same page), base64 in
    lines of 76 characters; a line ``.`` between the blocks."""
    return _packed(_clean(rows))


ROWS_BLOCK = 2000
"""Sentences of the first compressed block of the page's per-sentence data. The page decodes
that block, draws its first sentences, then decodes the block of all the others: a 10^5-sentence
page opens without parsing 100 MB of JSON first. (Two blocks, not many: gzip finds repeated text
only within a block, so every cut costs a little page.)"""

ROWS_SEPARATOR = "\n.\n"
"""Between two blocks in the page's rows element (a line ``.``: no base64 line is one)."""

_SENTENCE_LISTS = {"texts": 0, "difficulty": 0, "reference": 1, "matched": 1, "missed": 1, "spread": 1, "scores": 2}
_ATTRIBUTION_LISTS = {"values": 1, "full": 1, "empty": 0}
"""Where the per-sentence lists are (``sentences`` in :func:`by_sentence`'s form; each attribution
entry): the number of mappings (system, column) above each list. Every other key is the same
for all sentences and goes once, in the first block."""


def row_blocks(rows: dict, size: int | None = None) -> list[dict]:
    """The per-sentence part (:func:`split_rows`, cleaned) in blocks: the first ``size`` sentences
    (default :data:`ROWS_BLOCK`), then the others if there are more.

    Block 0 also holds ``total`` (the number of sentences), ``fixed`` (the keys that are not per
    sentence) and ``types`` (every error type of the gold and system edits, in the order of
    JavaScript's sort, for the sentence browser's type filter before the other blocks are read).
    Each block holds ``sentences`` (its number of sentences) and ``rows``: the per-sentence lists
    of its sentences, with mappings above them only (the attribution entries keyed "0", "1", ...),
    so that :func:`joined_rows` puts blocks back together by concatenating every list."""
    size = ROWS_BLOCK if size is None else size
    if isinstance(size, bool) or not isinstance(size, int) or size < 1:
        raise ValueError(f"the sentences of a block must be an integer >= 1, got {size!r}")
    sentences = by_sentence(rows.get("sentences"))
    if not isinstance(sentences, dict) or "texts" not in sentences:
        raise InputError("the report data has no sentences (source, references, gold and edits of each)")
    attribution = rows.get("attribution") or []
    total = len(sentences["texts"])
    fixed = {"sentences": {k: v for k, v in sentences.items() if k not in _SENTENCE_LISTS},
             "attribution": [{k: v for k, v in entry.items() if k not in _ATTRIBUTION_LISTS} for entry in attribution]}
    lists = {"sentences": {k: v for k, v in sentences.items() if k in _SENTENCE_LISTS},
             "attribution": {str(i): {k: v for k, v in entry.items() if k in _ATTRIBUTION_LISTS}
                             for i, entry in enumerate(attribution)}}
    depths = {"sentences": _SENTENCE_LISTS, "attribution": {str(i): _ATTRIBUTION_LISTS for i in range(len(attribution))}}
    bounds = [(0, min(size, total))] + ([(size, total)] if total > size else [])
    blocks = [{"sentences": last - first, "rows": _cut(lists, depths, first, last, total, "")}
              for first, last in bounds]
    blocks[0].update(total=total, fixed=fixed, types=_edit_types(sentences))
    return blocks


def _cut(value: Any, depth: Any, first: int, last: int, total: int, where: str) -> Any:
    """``value``'s per-sentence lists cut to sentences first..last-1 (``depth``: the mappings
    above each list, as :data:`_SENTENCE_LISTS`)."""
    if value is None:
        return None
    if isinstance(depth, dict) or depth > 0:
        if not isinstance(value, dict):
            raise InputError(f"the report data's {where.strip('.')} is not a mapping")
        return {k: _cut(v, depth[k] if isinstance(depth, dict) else depth - 1, first, last, total, f"{where}.{k}")
                for k, v in value.items()}
    if not isinstance(value, list) or len(value) != total:
        raise InputError(f"the report data's {where.strip('.')} is not a list of one item per sentence ({total})")
    return value[first:last]


def _edit_types(sentences: dict) -> list[str]:
    """Every error type of the gold and system edits (``texts`` rows), sorted as JavaScript
    sorts strings (by UTF-16 code units)."""
    found = set()
    for row in sentences["texts"]:
        for edit in [*(row[2] or []), *(e for edits in row[3] for e in edits or [])]:
            if len(edit) > 3 and isinstance(edit[3], str):
                found.add(edit[3])
    return sorted(found, key=lambda t: t.encode("utf-16-be", "surrogatepass"))


def joined_rows(blocks: list[dict]) -> dict:
    """The inverse of :func:`row_blocks`: the per-sentence part as :func:`split_rows` gives it."""
    first = blocks[0]
    rows = first["rows"]
    for block in blocks[1:]:
        rows = _joined(rows, block["rows"])
    fixed = first["fixed"]
    sentences = {**fixed["sentences"], **rows["sentences"]}
    attribution = [{**entry, **rows["attribution"][str(i)]} for i, entry in enumerate(fixed["attribution"])]
    return {"sentences": by_column(sentences), "attribution": attribution}


def _joined(left: Any, right: Any) -> Any:
    if isinstance(left, list):
        return left + right
    if isinstance(left, dict):
        return {k: _joined(v, right[k]) for k, v in left.items()}
    return left


PIECES_BYTES = 1 << 20
"""JSON text gathered before it is handed to the compressor (:func:`_packed`)."""


def _packed(cleaned: dict) -> str:
    """The page's text of the per-sentence part: its blocks, each gzip and base64 in lines of 76
    characters, a line ``.`` between blocks. A block's JSON goes to the compressor a piece at a
    time (:func:`json_pieces`): the gzip stream is the one zlib makes of the whole text at once
    (``gzip.compress(text, 6, mtime=0)`` on Python >= 3.11; 3.10's writes 255, "unknown", in
    its header's system byte), without the text."""
    packed = []
    for block in row_blocks(cleaned):
        compressor = zlib.compressobj(6, zlib.DEFLATED, 31)  # 31: a gzip header, no time stamp
        compressed, pending, size = [], [], 0
        for piece in json_pieces(block):
            pending.append(piece)
            size += len(piece)
            if size >= PIECES_BYTES:
                compressed.append(compressor.compress("".join(pending).encode("utf-8")))
                pending, size = [], 0
        compressed.append(compressor.compress("".join(pending).encode("utf-8")))
        compressed.append(compressor.flush())
        encoded = base64.b64encode(b"".join(compressed)).decode("ascii")
        packed.append("\n".join(encoded[k:k + 76] for k in range(0, len(encoded), 76)))
    return ROWS_SEPARATOR.join(packed)


def page_data(page: str) -> dict:
    """The data a page holds (what ``--json`` writes for it), read back from its text."""
    if not isinstance(page, str):  # (None, bytes: a TypeError from re)
        raise InputError(f"page_data reads a report page's text (a str), got {type(page).__name__}")
    head = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', page, re.S)
    rows = re.search(r'<script type="application/octet-stream" id="report-rows"[^>]*>(.*?)</script>', page, re.S)
    if head is None or rows is None:
        raise InputError("not a gecmetrics report page")
    try:  # a page that is not one the report wrote (cut short, edited): not a JSON, base64 or gzip traceback
        data = json.loads(head.group(1))
        blocks = [json.loads(gzip.decompress(base64.b64decode("".join(text.split()), validate=True)).decode("utf-8"))
                  for text in rows.group(1).split(ROWS_SEPARATOR)]
        parts = joined_rows(blocks)
        data["sentences"] = parts["sentences"]
        for entry, extra in zip(data["attribution"], parts["attribution"]):
            entry.update(extra)
    except (ValueError, TypeError, KeyError, IndexError, EOFError, OSError, zlib.error) as err:
        raise InputError(f"not a gecmetrics report page, or a damaged one: {err}") from None
    return data


def _asset(name: str) -> str:
    return (resources.files(__package__) / "assets" / name).read_text(encoding="utf-8")


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def render_html(data: dict) -> str:
    """The page of a report's data: one HTML document, everything inline."""
    _check_data(data)
    return _page(_clean(data))


def _page(data: dict) -> str:
    """:func:`render_html` of cleaned data."""
    head, rows = split_rows(data)
    payload = _compact(head).replace("<", "\\u003c")  # nothing in the data can close the element
    title = _escape(str(data.get("title") or DEFAULT_TITLE))
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
        f'<header id="top"><h1><bdi>{title}</bdi></h1><p id="corpus-line"></p><nav id="nav"></nav></header>',
        "<main>",
        *[f'<section id="{name}"></section>' for name in SECTIONS],
        "</main>",
        f'<footer>gecmetrics {_escape(str(data.get("gecmetrics", "")))}: this page is a view of its data '
        '(the JSON in the element #report-data, as <code>--json</code> writes it).</footer>',
        f'<script type="application/json" id="report-data">{payload}</script>',
        f'<script type="application/octet-stream" id="report-rows" data-encoding="gzip base64">\n{_packed(rows)}\n'
        '</script>',
        f"<script>\n{_asset('report.js')}</script>",
        "</body>",
        "</html>",
        ""])


def check_report_paths(html: str | os.PathLike | None, json_path: str | os.PathLike | None) -> None:
    """The page's and the JSON's paths, checked before a report is computed (``gecmetric
    report``) and again when it is written: at least one, each in a folder that exists (the
    report makes none)."""
    from ...io.atomic import check_outputs
    from ...io.text import check_path

    if html is None and json_path is None:
        raise InputError("nothing to write: give the HTML page's path and/or the JSON's")
    for name, path in (("html", html), ("json_path", json_path)):
        if path is not None and not os.path.isdir(os.path.dirname(os.path.abspath(check_path(path, name)))):
            raise InputError("the folder does not exist", os.fspath(path))
    check_outputs([("html", html), ("json_path", json_path)], [])  # (the same file twice kept one of them)


def write_report(data: dict, html: str | os.PathLike | None = None, json_path: str | os.PathLike | None = None
                 ) -> None:
    """Write the page and/or the JSON: both written whole, then moved into place, or neither
    (a page that cannot be written leaves an older JSON as it was)."""
    from ...io.atomic import output_group

    check_report_paths(html, json_path)
    _check_data(data)
    cleaned = _clean(data)  # once for both
    try:
        with output_group() as outputs:  # both files moved into place once both are written
            if json_path is not None:
                with outputs.output(os.fspath(json_path)) as handle:
                    for piece in json_pieces(cleaned):  # (the whole text of a large report is not made)
                        handle.write(piece)
                    handle.write("\n")
            if html is not None:
                with outputs.output(os.fspath(html)) as page:
                    page.write(_page(cleaned))
    except UnicodeEncodeError as err:  # data read back from a JSON with a "\ud800" escape: neither file is written
        raise InputError(f"the report data holds a lone surrogate ({err.object[err.start:err.end]!r}), which is "
                         f"no Unicode text: no page or JSON can hold it") from None
