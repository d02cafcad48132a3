"""One HTML page per evaluation: summary with intervals and significance, ERRANT's per-type
views, a sentence browser with edits marked TP / FP / FN, edit attribution and, with human
scores, the meta-evaluation figures.

>>> from gecmetrics.output.report import read_report_corpus, report_data, render_html
>>> corpus = read_report_corpus("INPUT", ["REF0", "REF1"], ["AMU", "CAMB"], gold="official.m2")
>>> data = report_data(corpus, baseline="AMU", spacy_model="en_core_web_sm")
>>> open("report.html", "w").write(render_html(data))

:func:`report_data` assembles the data (JSON-ready) from one run of the engine;
:func:`render_html` draws the page from it; :func:`write_report` writes either or both;
:func:`page_data` reads the data back from a page.
:func:`attribute_systems` is the edit attribution of system outputs under any metric with
sentence scores (``gecmetric attribute``); :func:`attribution_parts` gives it part by part.
"""
from __future__ import annotations

from .attribution import (attribute_corpus, attribute_systems, attribution_dicts, attribution_parts,
                          attribution_tsv_of_systems, hypothesis_edits)
from .data import DEFAULT_METRICS, read_report_corpus, report_data, system_names
from .html import SECTIONS, check_report_paths, page_data, render_html, report_json, write_report

__all__ = ["DEFAULT_METRICS", "SECTIONS", "attribute_corpus", "attribute_systems", "attribution_dicts",
           "attribution_parts", "attribution_tsv_of_systems", "check_report_paths", "hypothesis_edits", "page_data",
           "read_report_corpus", "render_html", "report_data", "report_json", "system_names", "write_report"]
