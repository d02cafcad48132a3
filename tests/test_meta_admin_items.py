"""Items by the user ``admin``: GJG15's scripts (print_pairs.pl, EW.pl), which the system level
follows, skip them; SEEDA's corr_sentence.py and gec-metrics, which the sentence level follows,
keep them. They were skipped at both levels: two opposite judgments of one sentence, one by
admin, gave accuracy 1.000 and Kendall 1.000 where corr_sentence.py prints 0.5 and 0.0 (found by
a differential fuzz against SEEDA's scripts)."""
from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import run_cli

XML = """<?xml version="1.0" encoding="UTF-8"?>
<appraise-results><error-correction-ranking-result source-language="err" id="x" target-language="cor">
<ranking-item src-id="1" doc-id="d" id="1" user="annotator1">
<translation system="A C" rank="1"/><translation system="B" rank="2"/></ranking-item>
<ranking-item src-id="1" doc-id="d" id="2" user="admin">
<translation system="A C" rank="2"/><translation system="B" rank="1"/></ranking-item>
<ranking-item src-id="2" doc-id="d" id="3" user="annotator1">
<translation system="A" rank="1"/><translation system="B" rank="2"/><translation system="C" rank="3"/></ranking-item>
</error-correction-ranking-result></appraise-results>
"""


def test_admin_items_count_at_the_sentence_level_only(tmp_path: Path) -> None:
    (tmp_path / "j.xml").write_text(XML, encoding="utf-8")
    lines = {"S": ["a b c d", "e f g h"], "R": ["a b c x", "e f g x"], "A": ["a b c x", "e f g x"],
             "B": ["a b c d", "e f g d"], "C": ["a b c x", "e f g h"]}
    for name, text in lines.items():
        (tmp_path / name).write_text("\n".join(text) + "\n", encoding="utf-8")
    common = ["meta-eval", "--judgments", str(tmp_path / "j.xml"), "-s", str(tmp_path / "S"), "-r",
              str(tmp_path / "R"), "-o", *(str(tmp_path / s) for s in "ABC"), "--metrics", "green", "--json"]
    code, out, err = run_cli(*common, "--level", "sentence", "--src-ids", "1")
    assert code == 0, err
    row = json.loads(out)["sentence"][0]
    # sentence 1: A = C > B by annotator1 (2 decided pairs), B > A = C by admin (2); sentence 2:
    # A > B > C (3): 7 pairs, as corr_sentence.py counts them (5 without admin's item)
    assert row["pairs"] == 7, row
    code, out, err = run_cli(*common)  # the system level: admin's item skipped, as EW.pl does
    assert code == 0, err
    ranking = json.loads(out)["ranking"]
    assert ranking["comparisons"] == 6, ranking  # (3 + 3 comparisons, ties too; 9 with admin's item)
