"""ChERRANT's compare_m2_for_evaluation.py (gecmetrics.metrics.m2.cherrant): every option that changes a
number, against what ChERRANT printed on the MuCGEC dev set (tests/data/cherrant_mucgec_compare.txt,
see tests/data/make_cherrant_mucgec.py), and its differences from ERRANT's compare_m2."""
from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from gecmetrics.errors import InputError
from gecmetrics.io.m2 import read_cherrant_m2
from gecmetrics.metrics.m2.cherrant import CherrantCompare, compare_cherrant_blocks
from gecmetrics.run.m2_files import compare_cherrant_files
from gecmetrics.metrics.m2.compare import ErrantCompare
from gecmetrics.metrics.m2.errant_report import format_errant_report
from gecmetrics.io.m2 import parse_m2, read_m2
from tests._zh_support import mucgec_m2 as mucgec_m2_text
from tests.conftest import run_cli

DATA = Path(__file__).resolve().parent / "data"


def cherrant_options(argv: list[str]) -> tuple[dict, int | None, int | None, int | None]:
    """compare_m2_for_evaluation.py's flags -> (CherrantCompare settings, -cat, --start, --end)."""
    settings: dict = {}
    category = start = end = None
    k = 0
    while k < len(argv):
        flag = argv[k]
        if flag in ("-dt", "-ds", "-cs", "-cse"):
            settings["mode"] = flag[1:]
        elif flag in ("-single", "-multi"):
            settings[flag[1:]] = True
        elif flag == "-filt":
            types = []
            while k + 1 < len(argv) and not argv[k + 1].startswith("-"):
                types.append(argv[k + 1])
                k += 1
            settings["filter_types"] = tuple(types)
        else:
            value = argv[k + 1]
            k += 1
            if flag == "-cat":
                category = int(value)
            elif flag == "-b":
                settings["beta"] = float(value)
            elif flag == "--start":
                start = int(value)
            elif flag == "--end":
                end = int(value)
            elif flag in ("--max_answer_num", "--reference_num"):
                settings[flag[2:]] = int(value)
            else:
                raise AssertionError(f"unknown flag {flag}")
        k += 1
    return settings, category, start, end


def recorded_sections() -> list[tuple[str, str, str, str]]:
    """(hypothesis file, reference file, options, printed text) of each recorded run."""
    text = (DATA / "cherrant_mucgec_compare.txt").read_text(encoding="utf-8")
    text = "\n".join(line for line in text.split("\n") if not line.startswith("# "))
    sections = []
    for part in text.split("### ")[1:]:
        head, printed = part.split("\n", 1)
        names, options = head.split(":", 1)
        hyp, _, ref = names.split()
        sections.append((hyp, ref, options, printed))
    return sections


@pytest.fixture(scope="module")
def mucgec_m2(shared_data: Path) -> dict:
    """Our M2 of the MuCGEC dev predictions and references (equal to ChERRANT's, see
    test_zh_cherrant.py), read back as blocks."""
    return {f"{name}.m2.char": parse_m2(mucgec_m2_text(shared_data, name), f"{name}.m2.char", target_lines=True)
            for name in ("hyp", "ref")}


@pytest.mark.parametrize("hyp, ref, options, printed", recorded_sections(),
                         ids=[f"{h[:3]}:{o.strip() or 'default'}" for h, _, o, _ in recorded_sections()])
def test_scores_and_type_table_equal_cherrant(mucgec_m2: dict, hyp: str, ref: str, options: str, printed: str) -> None:
    settings, category, start, end = cherrant_options(shlex.split(options))
    result = compare_cherrant_blocks(mucgec_m2[hyp], mucgec_m2[ref], CherrantCompare(**settings), start, end)
    assert format_errant_report(result, category).strip("\n") == printed.strip("\n")


def test_recorded_runs_cover_every_option_that_changes_numbers() -> None:
    flags = {flag for _, _, options, _ in recorded_sections() for flag in shlex.split(options) if flag.startswith("-")}
    assert flags >= {"-dt", "-ds", "-cse", "-single", "-multi", "-filt", "-cat", "-b", "--start", "--end",
                     "--max_answer_num", "--reference_num"}


# --------------------------------------------------------------------------- differences from ERRANT

BLOCKS = """S a b c d
T0-A0 x b c d
A 0 1|||S|||x|||REQUIRED|||-NONE-|||0

S a b c d
T0 无法标注
A -1 -1|||NA|||-NONE-|||REQUIRED|||-NONE-|||0

S a b c d
T0-A0 a y z c d
A 1 2|||S|||y z|||REQUIRED|||-NONE-|||0
T1-A0 a b c
A 3 4|||R|||-NONE-|||REQUIRED|||-NONE-|||1
T2-A0 q b c d
A 0 1|||S|||q|||REQUIRED|||-NONE-|||2
"""

HYPOTHESIS = """S a b c d
T0-A0 x b c d
A 0 1|||S|||x|||REQUIRED|||-NONE-|||0

S a b c d
T0-A0 a b c
A 3 4|||R|||-NONE-|||REQUIRED|||-NONE-|||0

S a b c d
T0-A0 a yz c d
A 1 2|||S|||yz|||REQUIRED|||-NONE-|||0
"""


def _blocks() -> tuple[list, list]:
    return parse_m2(HYPOTHESIS, "hyp", target_lines=True), parse_m2(BLOCKS, "ref", target_lines=True)


def test_corrections_compare_without_spaces() -> None:
    hyp, ref = _blocks()
    cherrant = compare_cherrant_blocks(hyp, ref)
    errant = ErrantCompare().compare(hyp, ref)
    # sentence 3: 'yz' matches 'y z' for ChERRANT, not for ERRANT
    assert cherrant.sentence_counts[2].tolist() == [1, 0, 0]
    assert errant.sentence_counts[2].tolist() != [1, 0, 0]


def test_a_not_annotatable_sentence_counts_nothing() -> None:
    hyp, ref = _blocks()
    assert compare_cherrant_blocks(hyp, ref).sentence_counts[1].tolist() == [0, 0, 0]
    assert ErrantCompare().compare(hyp, ref).sentence_counts[1].tolist() == [0, 1, 1]


TRACE_HYP = 'S 我 爱 你 们\nT0-A0 我 爱 你\nA 3 4|||R|||-NONE-|||REQUIRED|||-NONE-|||0\n\nS 他 去 学 校\nT0 没有错误\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\nS 天 气 好\nT0-A0 天 气 很 好\nA 2 2|||M|||很|||REQUIRED|||-NONE-|||0\n'
TRACE_REF = 'S 我 爱 你 们\nT0-A0 我 爱 你\nA 3 4|||R|||-NONE-|||REQUIRED|||-NONE-|||0\nT1-A1 我 喜 欢 你 们\nA 1 2|||S|||喜 欢|||REQUIRED|||-NONE-|||1\n\nS 他 去 学 校\nT0-A0 他 去 学 校\nA 0 4|||NA|||-NONE-|||REQUIRED|||-NONE-|||0\n\nS 天 气 好\nT0-A0 天 气 真 好\nA 2 2|||M|||真|||REQUIRED|||-NONE-|||0\n'
CHERRANT_TRACE = "----------------------------------------\nSENTENCE 0 我 爱 你 们\n----------------------------------------\nSENTENCE 0 - HYP 0 - REF 0\nHYPOTHESIS EDITS : [(3, 4, '-NONE-')]\nREFERENCE EDITS  : [(3, 4, '-NONE-')]\nLocal TP/FP/FN   : 1 0 0\nLocal P/R/F0.5  : 1.0 1.0 1.0\nGlobal TP/FP/FN  : 1 0 0\nGlobal P/R/F0.5  : 1.0 1.0 1.0\n----------------------------------------\nSENTENCE 0 我 爱 你 们\n----------------------------------------\nSENTENCE 0 - HYP 0 - REF 1\nHYPOTHESIS EDITS : [(3, 4, '-NONE-')]\nREFERENCE EDITS  : [(1, 2, '喜欢')]\nLocal TP/FP/FN   : 0 1 1\nLocal P/R/F0.5  : 0.0 0.0 0.0\nGlobal TP/FP/FN  : 0 1 1\nGlobal P/R/F0.5  : 0.0 0.0 0.0\n----------------------------------------\n^^ HYP 0, REF 0 chosen for sentence 0\n----------------------------------------\nSENTENCE 2 天 气 好\n----------------------------------------\nSENTENCE 2 - HYP 0 - REF 0\nHYPOTHESIS EDITS : [(2, 2, '很')]\nREFERENCE EDITS  : [(2, 2, '真')]\nLocal TP/FP/FN   : 0 1 1\nLocal P/R/F0.5  : 0.0 0.0 0.0\nGlobal TP/FP/FN  : 1 1 1\nGlobal P/R/F0.5  : 0.5 0.5 0.5\n----------------------------------------\n^^ HYP 0, REF 0 chosen for sentence 2\n\n=========== Span-Based Correction ============\nTP\tFP\tFN\tPrec\tRec\tF0.5\n1\t1\t1\t0.5\t0.5\t0.5\n==============================================\n\n"
"""What ChERRANT's ``compare_m2_for_evaluation.py -hyp hyp.m2 -ref ref.m2 -v`` printed on those
two files (github HillZhang1999/MuCGEC scorers/ChERRANT, run 2026-12-03): ERRANT 2's layout,
the sentence line above every pair, edits without their types, no local type table, and
nothing for the not annotatable sentence 1."""


def test_verbose_prints_cherrants_trace(tmp_path: Path) -> None:
    (tmp_path / "hyp.m2").write_text(TRACE_HYP, encoding="utf-8")
    (tmp_path / "ref.m2").write_text(TRACE_REF, encoding="utf-8")
    code, out, err = run_cli("cherrant", "compare", "-hyp", str(tmp_path / "hyp.m2"), "-ref", str(tmp_path / "ref.m2"),
                             "-v")
    assert code == 0 and out == CHERRANT_TRACE, err
    # ERRANT's layout for the same comparison under compare_m2's rules (m2 compare -v): its own
    hyp, ref = parse_m2(TRACE_HYP, "hyp", target_lines=True), parse_m2(TRACE_REF, "ref", target_lines=True)
    errant = format_errant_report(ErrantCompare(verbose=True).compare(hyp, ref))
    assert "Original sentence 1: 他 去 学 校" in errant and "Local results:" in errant
    with pytest.raises(ValueError, match="unknown trace layout"):
        format_errant_report(ErrantCompare(verbose=True).compare(hyp, ref), layout="errant")


def test_single_and_multi_count_correction_tokens_without_spaces() -> None:
    hyp, ref = _blocks()
    # 'y z' is one token once its space is removed: a single-token edit
    assert compare_cherrant_blocks(hyp, ref, CherrantCompare(single=True)).sentence_counts[2].tolist() == [1, 0, 0]
    assert compare_cherrant_blocks(hyp, ref, CherrantCompare(multi=True)).totals == (0, 0, 0)


def test_answer_and_reference_numbers() -> None:
    hyp, ref = _blocks()
    first_only = compare_cherrant_blocks(hyp, ref, CherrantCompare(max_answer_num=1))
    assert first_only.sentence_counts[2].tolist() == [1, 0, 0]
    # only sentence 3 has three reference annotators
    three = compare_cherrant_blocks(hyp, ref, CherrantCompare(reference_num=3))
    assert three.sentence_counts[:2].tolist() == [[0, 0, 0], [0, 0, 0]]
    assert three.totals == (1, 0, 0)
    for bad in (0, 4, "x"):
        with pytest.raises(InputError, match="max_answer_num"):
            CherrantCompare(max_answer_num=bad)
    with pytest.raises(InputError, match="reference_num"):
        CherrantCompare(reference_num=0)


def test_start_and_end_slice_both_files_only_together() -> None:
    hyp, ref = _blocks()
    assert compare_cherrant_blocks(hyp, ref, start=2, end=3).totals == (1, 0, 0)
    # one alone: ChERRANT ignores it and scores the whole files; here it is an error, not a flag dropped
    with pytest.raises(InputError, match="--start needs --end"):
        compare_cherrant_blocks(hyp, ref, start=2)
    with pytest.raises(InputError, match="--end needs --start"):
        compare_cherrant_blocks(hyp, ref, end=3)
    with pytest.raises(InputError, match="sentences"):
        compare_cherrant_blocks(hyp[:2], ref)


@pytest.mark.parametrize("start, end", [(0, 0), (2, 1), (5, 9), (-1, -3)])
def test_start_and_end_selecting_no_block_is_an_error(start: int, end: int) -> None:
    """ChERRANT prints zero counts and P = R = F = 1.0 when --start/--end select no block
    (`compare_m2_for_evaluation.py -hyp H -ref R --start 0 --end 0`, ChERRANT at 39221934); here
    that is an error naming the flags (a perfect score for nothing scored)."""
    hyp, ref = _blocks()
    with pytest.raises(InputError, match=f"--start {start} --end {end} select none of its {len(hyp)} sentences"):
        compare_cherrant_blocks(hyp, ref, start=start, end=end)


def test_target_lines_are_read_only_when_asked(tmp_path: Path) -> None:
    path = tmp_path / "ref.m2"
    path.write_text(BLOCKS, encoding="utf-8")
    assert [len(block.edits) for block in read_cherrant_m2(str(path))] == [1, 1, 3]
    with pytest.raises(InputError, match=r"ref\.m2:2: not an M2 line"):
        read_m2(str(path))
    hyp_path = tmp_path / "hyp.m2"
    hyp_path.write_text(HYPOTHESIS, encoding="utf-8")
    assert compare_cherrant_files(str(hyp_path), str(path)).totals == (2, 0, 0)
