"""Reading Appraise ranking XML into pairwise comparisons (gecmetrics.io.judgments)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from gecmetrics.errors import InputError
from gecmetrics.io.judgments import parse_judgments, read_judgments

DATA = Path(__file__).resolve().parent / "data"

SMALL = b"""<?xml version="1.0" encoding="UTF-8"?>
<appraise-results>
<error-correction-ranking-result id="x">
  <ranking-item src-id="7" id="1" user="ann1">
    <translation system="A" rank="1"/>
    <translation system="B C" rank="2"/>
    <translation system="D" rank="2"/>
  </ranking-item>
  <ranking-item src-id="8" id="2" user="admin">
    <translation system="D" rank="1"/>
    <translation system="A" rank="5"/>
  </ranking-item>
  <ranking-item src-id="8" id="3" user="ann2">
    <translation system="D" rank="1"/>
    <translation system="A" rank="3"/>
  </ranking-item>
</error-correction-ranking-result>
</appraise-results>
"""


def test_items_expand_shared_translations_and_skip_admin() -> None:
    judgments = parse_judgments(SMALL, "small.xml")
    assert judgments.systems == ("A", "B", "C", "D")
    assert [item.src_id for item in judgments.items] == [7, 8]  # the admin item is skipped
    first = judgments.items[0]
    assert first.systems == ("A", "B", "C", "D") and first.ranks == (1, 2, 2, 2) and first.line == 4
    pairwise = judgments.pairwise()
    # item 1: A beats B, C, D; B=C, B=D, C=D are ties. item 3: D beats A.
    assert pairwise.size == 7 and int(pairwise.tie.sum()) == 3
    wins = pairwise.win_counts()
    expected = np.zeros((4, 4), dtype=int)
    expected[0, 1] = expected[0, 2] = expected[0, 3] = 1
    expected[3, 0] = 1
    assert wins.tolist() == expected.tolist()


def test_restricted_drops_systems_from_every_item() -> None:
    judgments = parse_judgments(SMALL, "small.xml").restricted(["A", "D"])
    assert judgments.systems == ("A", "D")
    assert judgments.pairwise().win_counts().tolist() == [[0, 1], [1, 0]]
    with pytest.raises(InputError, match="not in the judgments: Z"):
        parse_judgments(SMALL, "small.xml").restricted(["A", "Z"])
    with pytest.raises(InputError, match="systems must be a sequence of system names, got 'AD'"):
        parse_judgments(SMALL, "small.xml").restricted("AD")  # was read as the systems A and D


@pytest.mark.parametrize("text, line, message", [
    (b"<r>\n<ranking-item src-id='1'>\n<translation system='A' rank='1'>\n</ranking-item></r>", 4, "malformed XML"),
    (b"<r>\n<ranking-item src-id='1'>\n<translation system='A'/>\n</ranking-item></r>", 3, "no rank"),
    (b"<r>\n<ranking-item src-id='x'>\n</ranking-item></r>", 2, "not an integer"),
    (b"<r>\n<ranking-item src-id='-2'>\n</ranking-item></r>", 2, ">= 0"),
    (b"<r>\n<ranking-item src-id='1'>\n<translation system='A' rank='0'/>\n</ranking-item></r>", 3, ">= 1"),
    (b"<r>\n<translation system='A' rank='1'/>\n</r>", 2, "outside a <ranking-item>"),
    (b"<r><ranking-item src-id='1'>\n<translation system='A' rank='1'/>\n<translation system='B A' rank='2'/>"
     b"</ranking-item></r>", 3, "ranked twice"),
    (b"<r><ranking-item src-id='1'>\n<translation system=' ' rank='1'/></ranking-item></r>", 2, "no system name"),
    # int() reads these; GJG15's Perl and the other readers here do not (and int('\u00b2') raised)
    (b"<r>\n<ranking-item src-id='1_0'>\n</ranking-item></r>", 2, "not an integer"),
    ("<r>\n<ranking-item src-id='\u0663'>\n</ranking-item></r>".encode(), 2, "not an integer"),
    ("<r><ranking-item src-id='1'>\n<translation system='A' rank='\uff11'/></ranking-item></r>".encode(), 2,
     "not an integer"),
])
def test_bad_xml_names_file_and_line(text: bytes, line: int, message: str) -> None:
    with pytest.raises(InputError, match=message) as caught:
        parse_judgments(text, "bad.xml")
    assert caught.value.path == "bad.xml" and caught.value.line == line
    assert str(caught.value).startswith(f"bad.xml:{line}: ") and "\n" not in str(caught.value)


def _items(count: int, systems_per_item: int, names: int) -> bytes:
    rows = [f"<ranking-item src-id='{i}'>" + "".join(
        f"<translation system='s{(i * systems_per_item + k) % names}' rank='{k + 1}'/>" for k in range(systems_per_item))
        + "</ranking-item>" for i in range(count)]
    return ("<r>\n" + "\n".join(rows) + "\n</r>").encode()


def test_systems_and_comparisons_are_bounded_with_the_line_that_passes_the_bound(monkeypatch) -> None:
    """A 200 KB file naming 30,000 systems asked for 7 GB (a system by system table), and a few
    items of many systems make comparisons that grow with their square: each is one error at
    the line where the file passes the bound; at the bound the file is read."""
    from gecmetrics.io import judgments

    monkeypatch.setattr(judgments, "MAX_SYSTEMS", 6)
    assert len(parse_judgments(_items(3, 2, 6), "ok.xml").systems) == 6
    with pytest.raises(InputError, match=r"more than 6 distinct systems \(gecmetrics.io.judgments.MAX_SYSTEMS\)") as caught:
        parse_judgments(_items(4, 2, 7), "many.xml")
    assert caught.value.line == 5  # the fourth item names the seventh system
    monkeypatch.setattr(judgments, "MAX_COMPARISONS", 12)
    assert parse_judgments(_items(2, 4, 6), "ok.xml").pairwise().size == 12
    with pytest.raises(InputError, match=r"more than 12 pairwise comparisons .*MAX_COMPARISONS") as caught:
        parse_judgments(_items(3, 4, 6), "pairs.xml")
    assert caught.value.line == 4


def test_src_ids_file_takes_ascii_integers_only(tmp_path: Path) -> None:
    """``\u00b2`` passed str.isdigit() and then raised ValueError in int(): a traceback."""
    from gecmetrics.meta.evaluate import read_src_ids

    (tmp_path / "ok").write_text(" 3\n+4\n0\n", encoding="utf-8")
    assert read_src_ids(str(tmp_path / "ok")) == [3, 4, 0]
    for bad in ("\u00b2", "1_0", "\u0663", "\uff11", "1.0", ""):
        (tmp_path / "bad").write_text(f"1\n{bad}\n", encoding="utf-8")
        with pytest.raises(InputError, match="expected one integer src-id per line") as caught:
            read_src_ids(str(tmp_path / "bad"))
        assert caught.value.line == 2

def test_no_items_and_missing_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no <ranking-item>"):
        parse_judgments(b"<r/>", "empty.xml")
    with pytest.raises(InputError, match="cannot read") as caught:
        read_judgments(tmp_path / "missing.xml")
    assert caught.value.path == str(tmp_path / "missing.xml")


@pytest.mark.parametrize("name", ["gjg15", "seeda_sent", "seeda_edit"])
def test_comparison_counts_equal_ew_pl(shared_data: Path, name: str) -> None:
    """EW.pl prints how many comparisons and ties it extracted (tests/data/meta_ewpl.tsv)."""
    header = (DATA / "meta_ewpl.tsv").read_text(encoding="utf-8")
    stderr = next(line for line in header.splitlines() if line.startswith(f"# {name}.xml stderr"))
    comparisons, ties = (int(word) for word in stderr.split() if word.isdigit())
    pairwise = read_judgments(shared_data / "human" / "judgments" / f"{name}.xml").pairwise()
    assert (pairwise.size, int(pairwise.tie.sum())) == (comparisons, ties)


def _shared_translations_identical(judgments, lines: dict[str, list[str]], row_of) -> int:
    """How many translations naming several known systems were checked; fails on any whose
    outputs differ at the item's row."""
    checked = 0
    for item in judgments.items:
        groups: dict[int, list[str]] = {}
        for system, translation in zip(item.systems, item.translations):
            if system in lines:
                groups.setdefault(translation, []).append(system)
        for group in groups.values():
            if len(group) > 1:
                assert len({lines[s][row_of(item.src_id)] for s in group}) == 1, (item, group)
                checked += 1
    return checked


def test_src_id_counts_from_zero_in_gjg15_and_from_one_in_seeda(shared_data: Path) -> None:
    """Systems named by one translation had identical outputs: that holds at line src-id
    counted from 0 in gjg15.xml (GJG15's README: "the position of the judged sentence") and
    at the subset row of the 1-based line src-id in SEEDA's files."""
    gjg15 = read_judgments(shared_data / "human" / "judgments" / "gjg15.xml")
    conll = {s: (shared_data / "conll14" / s).read_text(encoding="utf-8").split("\n") for s in ("AMU", "CAMB", "CUUI")}
    assert _shared_translations_identical(gjg15, conll, lambda src_id: src_id) > 100
    subset = shared_data / "seeda_subset"
    where = {int(line): row for row, line in enumerate((subset / "LINES").read_text().split())}
    names = [p.name for p in subset.iterdir() if p.name not in ("LINES", "README.md")]
    outputs = {s: (subset / s).read_text(encoding="utf-8").split("\n") for s in names}
    for kind in ("sent", "edit"):
        seeda = read_judgments(shared_data / "human" / "judgments" / f"seeda_{kind}.xml")
        assert _shared_translations_identical(seeda, outputs, lambda src_id: where[src_id]) > 900


def test_napoles_items_without_src_id_rank_systems_but_not_sentences(shared_data: Path) -> None:
    """Napoles et al.'s judgments have no src-id: fine for system rankings, an error (with the
    line) for sentence-level meta-evaluation."""
    from gecmetrics.stats.rankings import expected_wins
    from gecmetrics.meta.sentence import rows_of_src_ids

    judgments = read_judgments(shared_data / "human" / "judgments" / "napoles2015.xml")
    # comma-separated systems sharing a translation: the 12 submissions, the source and a reference
    assert judgments.systems == ("AMU", "CAMB", "CUUI", "IITB", "IPN", "NTHU", "PKU", "POST", "RAC", "SJTU", "UFC",
                                 "UMC", "refmix1", "src")
    assert all(item.src_id == -1 for item in judgments.items)
    assert len(expected_wins(judgments, resamples=0).scores) == len(judgments.systems)
    with pytest.raises(InputError, match="without src-id") as caught:
        rows_of_src_ids(judgments)
    assert caught.value.line == judgments.items[0].line


def test_judgments_made_in_code_are_checked_as_a_files() -> None:
    """Ranks of nan, 0 or True were ranked, a system missing from ``systems`` left out, without a
    word; a string of names was read as letters."""
    import math

    from gecmetrics.io.judgments import Judgments, RankingItem

    def item(systems, ranks):
        return RankingItem(src_id=0, user="u", item_id="", line=3, systems=systems, ranks=ranks)

    for systems, ranks, said in [(("a", "b", "c"), (math.nan, 1, 2), "ranks must be integers from 1"),
                                 (("a", "b", "c"), (0, -5, 1), "ranks must be integers from 1"),
                                 (("a", "b", "c"), (True, False, 2), "ranks must be integers from 1"),
                                 (("a", "b", "x"), (1, 2, 3), "ranks 'x', not among the judgments' systems"),
                                 (("a", "b"), (1,), "systems and ranks must be tuples of the same length"),
                                 (("a", "a"), (1, 2), "a system is ranked twice")]:
        with pytest.raises(InputError, match=f"toy:3: item 1 \\(src-id 0\\): {said}"):
            Judgments("toy", (item(systems, ranks),), ("a", "b", "c"))
    with pytest.raises(InputError, match="items must be a tuple of RankingItem, got None"):
        Judgments("toy", None, ("a", "b"))
    with pytest.raises(InputError, match="systems must be a sequence of system names"):
        Judgments("toy", (), "abc")
    assert Judgments("toy", (item(("a", "b"), (1, 2)),), ("a", "b", "c")).pairwise().size == 1


@pytest.mark.parametrize("text", [
    # an internal entity spelled the systems and the rank: they were expanded and ranked
    b'<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY s "A B C"><!ENTITY one "1">]>\n<r>\n'
    b'<ranking-item src-id="0"><translation system="&s;" rank="&one;"/><translation system="D" rank="2"/>'
    b'</ranking-item>\n</r>\n',
    # a reference to an entity of an external DTD (never fetched): silently dropped from the names
    b'<?xml version="1.0"?>\n<!DOCTYPE r SYSTEM "http://example.invalid/x.dtd">\n<r>\n'
    b'<ranking-item src-id="0"><translation system="A &e; B" rank="1"/><translation system="C" rank="2"/>'
    b'</ranking-item>\n</r>\n',
    # billion laughs: refused before expat's amplification limit (absent before expat 2.4) is needed
    b'<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>\n'
    b'<r><ranking-item src-id="0"><translation system="&b;" rank="1"/></ranking-item></r>\n',
])
def test_a_dtd_is_refused_and_no_entity_is_expanded(text: bytes) -> None:
    with pytest.raises(InputError, match=r"document type declaration .* neither expanded nor fetched") as caught:
        parse_judgments(text, "dtd.xml")
    assert str(caught.value).startswith("dtd.xml:2: ") and "\n" not in str(caught.value)


def test_src_ids_of_judgments_made_in_code_are_checked() -> None:
    """A src_id of nan or 10**30 was a ValueError or OverflowError where items were matched to
    sentences (item_rows), -5 was called an item without src-id, '3' was read as 3."""
    import math

    from gecmetrics.io.judgments import Judgments, RankingItem
    from gecmetrics.meta.evaluate import item_rows

    for src_id in (math.nan, 10**30, -5, "3", True, 2.0):
        with pytest.raises(InputError, match=r"toy:3: item 1 .*src_id must be an integer from 0 to 2,147,483,647"):
            Judgments("toy", (RankingItem(src_id, "u", "", 3, ("a", "b"), (1, 2)),), ("a", "b"))
    made = Judgments("toy", (RankingItem(np.int64(4), "u", "", 3, ("a", "b"), (1, 2)),
                             RankingItem(-1, "u", "", 4, ("a", "b"), (2, 1))), ("a", "b"))
    assert made.src_ids.tolist() == [4, -1]
    assert item_rows(Judgments("toy", made.items[:1], ("a", "b")), 0).tolist() == [4]


def test_a_path_with_a_nul_character_is_an_input_error() -> None:
    """open() raised ValueError (embedded null byte): a traceback from read_judgments."""
    from gecmetrics.io.text import read_lines

    for read in (read_judgments, read_lines):
        with pytest.raises(InputError, match="NUL character"):
            read("judgments\0.xml")
