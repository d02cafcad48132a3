"""Write tests/data/cherrant_mucgec_m2.tsv and cherrant_mucgec_compare.txt from ChERRANT's outputs.

The outputs are made by the unmodified ChERRANT (github HillZhang1999/MuCGEC, scorers/ChERRANT at
commit 39221934ee4ccf07801879136a75dd7e11319977) in its own virtualenv, from its folder:

    python parallel_to_m2.py -f ../shared/data/mucgec/example_pred_dev.txt -o hyp.m2.char -g char
    python parallel_to_m2.py -f ../shared/data/mucgec/MuCGEC_dev.txt -o ref.m2.char -g char
    for each option set OPTS below:
        echo "### HYP vs ref.m2.char:OPTS"; python compare_m2_for_evaluation.py -hyp HYP -ref ref.m2.char OPTS

(HYP is hyp.m2.char, or ref.m2.char for the lines marked HYP=REF), all concatenated into one file.
The M2 files are not kept here (they hold the whole data set): only the SHA-256 of each file and
the first 16 hex digits of the SHA-256 of each block (the text between blank lines).

    python tests/data/make_cherrant_mucgec.py HYP.m2 REF.m2 COMPARE.txt
"""
from __future__ import annotations

import hashlib
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

OPTION_SETS = """\

 -cat 1
 -cat 2
 -cat 3
 -dt -cat 3
 -ds -cat 3
 -cse -cat 3
 -single -cat 3
 -multi -cat 3
 -filt S -cat 3
 -filt W M -cat 3
 -b 1 -cat 3
 -b 2
 --start 100 --end 600 -cat 3
 --start 1000 --end 2000
 --max_answer_num 1 -cat 3
 --max_answer_num 2 -cat 3
 --max_answer_num 3 -cat 3
 --reference_num 1 -cat 3
 --reference_num 2 -cat 3
 --reference_num 3 -cat 3
 -dt -single
 -ds -multi -b 2
 -cse -filt R --max_answer_num 2
HYP=REF -cat 3
HYP=REF -dt"""

ENVIRONMENT = ("Python 3.11.7, torch 2.13.0+cpu, ltp 4.2.14, OpenCC 1.4.2 (ChERRANT's requirements.txt pins 1.1.2, "
               "which has no build for Python 3.11), pypinyin 0.55.0, python-Levenshtein 0.27.5, numpy 2.4.6, "
               "tqdm 4.70.1; data/ = the four files of ../shared/data/cherrant (same SHA-256 as the commit's); "
               "no LTP model is loaded at character level; run on 2026-11-27")


def block_hash(block: str) -> str:
    return hashlib.sha256(block.encode("utf-8")).hexdigest()[:16]


def blocks_of(text: str) -> list[str]:
    """The blocks of an M2 text: the parts between blank lines (the file ends with one)."""
    parts = text.split("\n\n")
    if parts and parts[-1] == "":
        parts.pop()
    return parts


def write_m2_hashes(hyp: Path, ref: Path, out: Path) -> None:
    lines = ["# ChERRANT `parallel_to_m2.py -g char` (defaults: -s all, simplified targets) on the MuCGEC dev set",
             "# (../shared/data/mucgec: MuCGEC_dev.txt -> ref, example_pred_dev.txt -> hyp); see",
             "# make_cherrant_mucgec.py for the commands.",
             f"# Environment: {ENVIRONMENT}.",
             "# Per file: its SHA-256; per block (the text between blank lines, 0-based): the first 16 hex",
             "# digits of the block's SHA-256 (UTF-8)."]
    rows = ["file\tblock\tsha256"]
    for name, path in (("hyp", hyp), ("ref", ref)):
        text = path.read_text(encoding="utf-8")
        rows.append(f"{name}\tall\t{hashlib.sha256(text.encode('utf-8')).hexdigest()}")
        rows.extend(f"{name}\t{k}\t{block_hash(block)}" for k, block in enumerate(blocks_of(text)))
    out.write_text("\n".join(lines + rows) + "\n", encoding="utf-8")


def write_compare(compare: Path, out: Path) -> None:
    header = ["# ChERRANT `compare_m2_for_evaluation.py -hyp HYP -ref ref.m2.char OPTS` printed each section below",
              "# (after '### HYP vs ref.m2.char:OPTS'), HYP and ref.m2.char being ChERRANT's own char-level M2",
              "# of the MuCGEC dev example predictions and references (see make_cherrant_mucgec.py).",
              f"# Environment: {ENVIRONMENT}."]
    out.write_text("\n".join(header) + "\n" + compare.read_text(encoding="utf-8"), encoding="utf-8")


def main(argv: list[str]) -> None:
    if len(argv) != 3:
        raise SystemExit(__doc__)
    hyp, ref, compare = (Path(a) for a in argv)
    write_m2_hashes(hyp, ref, HERE / "cherrant_mucgec_m2.tsv")
    write_compare(compare, HERE / "cherrant_mucgec_compare.txt")


if __name__ == "__main__":
    main(sys.argv[1:])
