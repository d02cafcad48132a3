"""Hostile input to the HTML report (a sweep, 2026-12-05): a title or data holding a lone surrogate,
a damaged page read back, human scores as large as 1e308 in the page's scatter."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from gecmetrics.errors import InputError
from gecmetrics.output.report import page_data, read_report_corpus, render_html, report_data, report_json, write_report
from tests import _chromium
from tests.conftest import SPACY_TEST_MODEL, one_line_error, unavailable, write_files
from tests.test_report import REFERENCES, SOURCES, small_corpus


# A report title holding a lone surrogate (a Python string can; ``--title`` gets one from a
# byte that is no UTF-8) was taken, and the page failed to encode after all the work: a
# UnicodeEncodeError traceback. It is refused before any work.
def test_a_title_with_a_lone_surrogate_is_refused_before_any_work(tmp_path):
    with pytest.raises(InputError, match="lone surrogate"):
        report_data(small_corpus(), ["green"], samples=20, attribution="none", title="a\ud800b")
    f = write_files(tmp_path, {"src": SOURCES, "ref": REFERENCES[0], "hyp": REFERENCES[1]})
    err = one_line_error("report", "-s", f["src"], "-r", f["ref"], "-o", f["hyp"], "--metrics", "gleu",
                         "--attribute", "none", "--html", str(tmp_path / "x.html"), "--title", "a\udcffb")
    assert "lone surrogate" in err
    assert not (tmp_path / "x.html").exists()


# ``page_data`` (a public function) read anything that is not a page's text, or a page whose
# data is damaged, with a TypeError, JSONDecodeError or binascii.Error traceback: it raises
# InputError, as every public function does on bad arguments.
def test_page_data_of_no_page_or_a_damaged_page_is_an_input_error():
    page = render_html(report_data(small_corpus(), ["green"], samples=20, attribution="none"))
    assert page_data(page)["systems"] == ["A", "B", "SRC"]
    head = 'id="report-data">'
    start = page.index(head) + len(head)
    rows = page.index('id="report-rows" data-encoding="gzip base64">\n') + len('id="report-rows" data-encoding="gzip base64">\n')
    damaged = [page[:start] + page[start + 1:],                       # the data's JSON cut
               page[:rows] + "!" + page[rows + 1:],                   # the rows' base64
               page[:rows] + "QUJD" + page[rows + 4:],                # base64, but no gzip
               page[:start] + "[" + page[start:].replace("</script>", "]</script>", 1)]  # a list, not a mapping
    for bad in (None, page.encode("utf-8"), *damaged):
        with pytest.raises(InputError):
            page_data(bad)


# A human table whose scores reach 1e308 (the correlations handle them) made the page's
# meta-evaluation scatter NaN: the differences and sums of such scores are Infinity in
# JavaScript, so every point, label and the least-squares line had NaN coordinates and the
# figure was drawn empty without a word. The scatter draws them in units of the largest score.
SCATTER_PROBE = """
  var bad = [], circles = document.querySelectorAll("#meta-figures svg circle");
  document.querySelectorAll("#meta-figures svg *").forEach(function (n) {
    for (var a of n.attributes) if (/NaN|Infinity/.test(a.value)) bad.push(n.tagName + " " + a.name);
  });
  result.bad = bad;
  result.circles = circles.length;
  result.heights = Array.prototype.map.call(circles, function (c) { return Number(c.getAttribute("cy")); });
"""


def test_the_pages_scatter_draws_human_scores_as_large_as_1e308(tmp_path: Path) -> None:
    if _chromium.chromium_binary() is None:
        unavailable("chromium is not installed (apt-get install -y chromium): the page is not opened in a browser")
    f = write_files(tmp_path, {"src": SOURCES, "ref": REFERENCES[0], "A": REFERENCES[1], "B": SOURCES,
                               "C": REFERENCES[0], "human.tsv": "system\tew\nA\t1e308\nB\t-1e308\nC\t0\n"})
    corpus = read_report_corpus(f["src"], [f["ref"]], [f["A"], f["B"], f["C"]])
    data = report_data(corpus, ["gleu"], samples=20, attribution="none", human=f["human.tsv"],
                       spacy_model=SPACY_TEST_MODEL)
    page = tmp_path / "page.html"
    page.write_text(render_html(data), encoding="utf-8")
    probe = _chromium.open_page(page, SCATTER_PROBE)["probe"]
    assert probe["errors"] == [] and probe["actions"]["bad"] == [], probe
    heights = probe["actions"]["heights"]  # per figure (GLEU+, ERRANT F0.5): A (1e308) on top, B (-1e308) at the
    assert len(heights) == 3 * len(data["columns"]), heights  # bottom, C half way
    assert all(top < middle < bottom for top, bottom, middle in zip(*[iter(heights)] * 3)), heights


# ``write_report`` of data holding a lone surrogate (read back from a JSON file with a
# ``"\\ud800"`` escape, which ``json`` reads as one) was a UnicodeEncodeError traceback: it is an
# InputError, and neither file is written (an older JSON stays as it was).
def test_data_with_a_lone_surrogate_is_an_input_error_and_writes_nothing(tmp_path: Path) -> None:
    data = json.loads(report_json(report_data(small_corpus(), ["green"], samples=20, attribution="none")))
    page, old = tmp_path / "page.html", tmp_path / "data.json"
    old.write_text("OLD", encoding="utf-8")
    for where in ("title", "source"):
        edited = json.loads(json.dumps(data))
        if where == "title":
            edited["title"] = "x\ud800"
        else:
            edited["sentences"]["source"][1] = "He \ud800 go"
        with pytest.raises(InputError, match="lone surrogate"):
            write_report(edited, page, old)
        assert not page.exists() and old.read_text(encoding="utf-8") == "OLD"
        assert not [p.name for p in tmp_path.iterdir() if p.name not in ("data.json",)]


# Error types named like JavaScript's own object properties: the page counted and looked types up
# in plain objects, so "__proto__" vanished from the heat map and the tables, a type a system
# lacked ("constructor", "toString") showed "TP undefined" (Object's methods were found), and the
# sentence filter for such a type listed every sentence.
BUILT_IN_TYPES_PROBE = """
  result.labels = Array.prototype.map.call(document.querySelectorAll("#types svg text"), function (t) {
    return t.firstChild ? t.firstChild.textContent : ""; });
  var text = document.querySelector("main").innerText, at = text.indexOf("undefined");
  result.undefined = at < 0 ? null : text.slice(Math.max(0, at - 80), at + 20);
  var typeSelect = document.querySelector("#sentence-controls label:nth-of-type(4) select");
  result.listed = Object.create(null);
  ["__proto__", "constructor", "toString", "hasOwnProperty"].forEach(function (t) {
    typeSelect.value = Array.prototype.find.call(typeSelect.options, function (o) { return o.text === t; }).value;
    typeSelect.dispatchEvent(new Event("change"));
    result.listed[t] = document.querySelectorAll(".sentence").length;
  });
"""


def _applied(source: str, edits: list) -> str:
    tokens = source.split()
    for start, end, _, correction in sorted(edits, reverse=True):
        tokens[start:end] = correction.split()
    return " ".join(tokens)


def _m2(sources: list[str], edits_of: list) -> str:
    return "".join(f"S {s}\n" + "".join(f"A {a} {b}|||{t}|||{c}|||REQUIRED|||-NONE-|||0\n" for a, b, t, c in edits)
                   + ("" if edits else "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n") + "\n"
                   for s, edits in zip(sources, edits_of))


def edits_page(tmp_path: Path, sources: list[str], gold: list, systems: dict, metrics: list[str]) -> Path:
    """The page of a report on ``sources`` with a gold M2 of ``gold``'s edits (start, end, type,
    correction) and each system's text and M2 made from its edits (the systems' M2 given)."""
    texts = {"src": "\n".join(sources) + "\n", "ref": "\n".join(map(_applied, sources, gold)) + "\n",
             "gold.m2": _m2(sources, gold)}
    for name, edits in systems.items():
        texts[name] = "\n".join(map(_applied, sources, edits)) + "\n"
        texts[f"{name}.m2"] = _m2(sources, edits)
    f = write_files(tmp_path, texts)
    corpus = read_report_corpus(f["src"], [f["ref"]], [f[name] for name in systems], f["gold.m2"],
                                hypothesis_m2=[f[f"{name}.m2"] for name in systems])
    page = tmp_path / "page.html"
    page.write_text(render_html(report_data(corpus, metrics, samples=20, attribution="none",
                                            spacy_model=SPACY_TEST_MODEL)), encoding="utf-8")
    return page


def test_error_types_named_like_object_properties_are_types_like_any_other(tmp_path: Path) -> None:
    if _chromium.chromium_binary() is None:
        unavailable("chromium is not installed (apt-get install -y chromium): the page is not opened in a browser")
    sources = ["This are a apple .", "He go to school yesterday .", "She have two cat ."]
    gold = [[(1, 2, "__proto__", "is")], [(1, 2, "constructor", "went")], [(1, 2, "toString", "has")]]
    systems = {"A": gold, "B": [[], [(4, 5, "hasOwnProperty", "today")], []]}
    page = edits_page(tmp_path, sources, gold, systems, ["gleu"])
    probe = _chromium.open_page(page, BUILT_IN_TYPES_PROBE)["probe"]
    assert probe["errors"] == [], probe
    found = probe["actions"]
    assert {"__proto__", "constructor", "toString", "hasOwnProperty"} <= set(found["labels"]), found["labels"]
    assert found["undefined"] is None and found["listed"] == {"__proto__": 1, "constructor": 1, "toString": 1,
                                                          "hasOwnProperty": 1}, found


# Names and error types as they are: systems named "B b" and "B  b" looked alike everywhere (HTML
# collapses spaces), a system or error type of 200 characters without a space widened the page
# (2,034 px at 1400: the input notes, the summary's note and clusters), and an M2 error type that
# is empty could not be chosen in the sentence filter (its entry was "any error type"'s value).
NAMES_PROBE = """
  result.width = [document.documentElement.scrollWidth, window.innerWidth];
  var controls = document.querySelectorAll("#sentence-controls select");
  result.systems = Array.prototype.map.call(controls[2].options, function (o) { return o.text; });
  var names = document.querySelectorAll("#summary tbody td:first-child bdi");
  result.shown = Array.prototype.map.call(names, function (b) { return b.getBoundingClientRect().width; });
  var typeSelect = controls[3], listed = {};
  Array.prototype.forEach.call(typeSelect.options, function (o) {
    typeSelect.value = o.value;
    typeSelect.dispatchEvent(new Event("change"));
    listed[o.text] = document.querySelectorAll(".sentence").length;
  });
  result.listed = listed;
"""


def test_names_and_types_show_as_they_are_without_widening_the_page(tmp_path: Path) -> None:
    if _chromium.chromium_binary() is None:
        unavailable("chromium is not installed (apt-get install -y chromium): the page is not opened in a browser")
    long_type = "R:VERB" + "Y" * 190
    sources = ["this are a test .", "he go home .", "no errors here ."]
    gold = [[(1, 2, "", "is")], [(1, 2, long_type, "goes")], []]
    systems = {"A" * 200: gold, "B  b": [[], [(1, 2, long_type, "goes")], []], "B b": [[], [], []]}
    page = edits_page(tmp_path, sources, gold, systems, ["gleu", "m2"])
    probe = _chromium.open_page(page, NAMES_PROBE, width=1400)["probe"]
    assert probe["errors"] == [], probe
    found = probe["actions"]
    assert found["width"][0] <= found["width"][1], found["width"]
    assert found["systems"] == ["A" * 200, "B \u00a0b", "B b"], found["systems"]
    assert found["shown"][1] > found["shown"][2], found["shown"]  # two spaces are wider than one
    assert found["listed"] == {"any error type": 3, "(empty type)": 1, long_type: 1}, found["listed"]


# A title of 1,500 words made the sticky header 2,787 px tall: no section was ever visible. And
# a title without spaces widened the page (a 400-character word: 6,504 px).
LAYOUT_PROBE = """
  result.header = document.querySelector("header").getBoundingClientRect().height;
  result.viewport = [window.innerWidth, window.innerHeight];
  result.width = document.documentElement.scrollWidth;
"""


def test_a_long_title_neither_covers_nor_widens_the_page(tmp_path: Path) -> None:
    if _chromium.chromium_binary() is None:
        unavailable("chromium is not installed (apt-get install -y chromium): the page is not opened in a browser")
    f = write_files(tmp_path, {"src": SOURCES, "ref": REFERENCES[0], "A": REFERENCES[1], "B": SOURCES})
    corpus = read_report_corpus(f["src"], [f["ref"]], [f["A"], f["B"]])
    page = tmp_path / "page.html"
    for title in (" ".join(["word"] * 1500), "y" * 400):
        page.write_text(render_html(report_data(corpus, ["gleu"], samples=20, attribution="none", title=title,
                                                spacy_model=SPACY_TEST_MODEL)), encoding="utf-8")
        probe = _chromium.open_page(page, LAYOUT_PROBE, width=1185)["probe"]
        assert probe["errors"] == [], probe
        found = probe["actions"]
        width, height = found["viewport"]
        assert found["header"] <= 0.36 * height and found["width"] <= width, (title[:10], found)


def test_a_file_name_that_is_not_utf8_is_refused_before_the_work(tmp_path: Path) -> None:
    """A file under a folder whose name holds the byte 0xff was refused only after all the
    scoring ('the report data holds a lone surrogate'), naming no file."""
    import os

    folder = os.path.join(os.fsencode(tmp_path), b"dir\xff")
    try:
        os.mkdir(folder)
    except (OSError, UnicodeError):
        pytest.skip("this file system takes no such name")
    for name in (b"src", b"hyp"):
        with open(os.path.join(folder, name), "w", encoding="utf-8") as handle:
            handle.write("a b c\n")
    src, hyp = (os.fsdecode(os.path.join(folder, name)) for name in (b"src", b"hyp"))
    with pytest.raises(InputError, match=r"dir\\xff/src: the file's name is not UTF-8 text"):
        read_report_corpus(src, [src], [hyp])
    err = one_line_error("report", "-s", src, "-r", src, "-o", hyp, "--html", str(tmp_path / "p.html"))
    assert "the file's name is not UTF-8 text" in err and not (tmp_path / "p.html").exists()
