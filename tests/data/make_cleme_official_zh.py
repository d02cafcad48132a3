"""Write tests/data/cleme_official_zh.tsv from the official CLEME's JSON lines (see that file's header).

    python tests/data/make_cleme_official_zh.py ORACLE.jsonl > tests/data/cleme_official_zh.tsv

ORACLE.jsonl: the lines starting with '{' that the driver printed (one per assumption, level and
scorer: hyp, ref, assumption, level, scorer, scores = CLEME's score.scores as dicts).
"""
from __future__ import annotations

import json
import sys

HEADER = """\
# CLEME and CLEME2.0 numbers printed by the official code, github THUKElab/CLEME at commit
# e90abead75a9d766595b1b0ff4473647af0c86e9 ("CLEME2.0 released"), with lang="zho" (its Chinese path:
# TokenizerZho at character level, AlignerZho/MergerZho/ClassifierZho loaded, not used on M2 input), on
# ChERRANT character-level M2 files of the MuCGEC dev set (../shared/data/mucgec): hyp.m2.char and
# ref.m2.char, made by `gecmetric cherrant m2 -f example_pred_dev.txt|MuCGEC_dev.txt -o ...` (byte for
# byte ChERRANT's parallel_to_m2.py -g char output: same SHA-256, a05b3fb4...0921 and 74206fb9...e9ca).
# Run unmodified in its own virtualenv (Python 3.11.7; ltp 4.2.14 with no model loaded, pypinyin 0.55.0,
# Levenshtein 0.27.5, tabulate 0.10.0, pydantic 2.13.4, bert-score 0.3.13, spaCy 3.8.18, errant 3.0.2,
# torch 2.13.0+cpu from the local wheel, transformers 5.24.0) on 2026-11-27, through a driver script
# (/work/oracles/cleme/drive_zh.py) around CLEME's own classes in the configurations of its main.py:
#   metric cleme:  cls(lang="zho", scorer_type=ScorerType.PRF, weigher=main.DEFAULT_LENGTH_WEIGHER_<LEVEL>_<ASSUMPTION>)
#                  = `python main.py --ref ref.m2.char --hyp hyp.m2.char --lang zho --metric cleme --level LEVEL
#                    --assumption ASSUMPTION` (checked: the same table for dependent corpus)
#   metric cleme2: cls(lang="zho", scorer=main.DEFAULT_HEUO_SCORER_<LEVEL>, weigher=main.DEFAULT_LENGTH_WEIGHER_<LEVEL>_<ASSUMPTION>)
#                  (main.py --metric cleme2 uses a SimilarityWeigher whose bert-base-uncased cannot be
#                  downloaded here; the HEUO scorer and its unweighted numbers are the same)
#   score, _ = metric.evaluate(M2DataReaderWriter().read(HYP), M2DataReaderWriter().read(REF))
# with cls DependentCLEME (assumption dependent) or IndependentCLEME (independent). CLEME's reader skips
# the edit lines after T<k>-A<n> with n > 0 ("Skip overlapped lines": 2 blocks of hyp, 27 of ref).
# Values: Python repr of the floats in score.scores, laid out as tests/data/cleme_official.tsv (the PRF
# rows of the run at their level; the HEUO rows of every run, column factors = the run's level).
"""
NAMES = {"f": "F", "p": "P", "r": "R", "acc": "Acc", "com": "aggregate", "hit": "HC", "err": "WC", "und": "UC",
         "ove": "OC", "tp": "TP", "fp": "FP", "fn": "FN", "tn": "TN", "fp_ne": "FP_NE", "fp_un": "FP_UN"}
COLUMNS = ["hyp", "ref", "metric", "assumption", "level", "weights", "factors", "F", "P", "R", "Acc", "aggregate",
           "HC", "WC", "UC", "OC", "TP", "FP", "FN", "TN", "FP_NE", "FP_UN"]


def rows(run: dict) -> list[dict]:
    out = []
    for key, values in run["scores"].items():
        scorer, level, weighting = key.split("_")
        if scorer == "prf" and level != run["level"]:
            continue  # the run at that level has them
        row = {"hyp": run["hyp"], "ref": run["ref"], "metric": "cleme" if scorer == "prf" else "cleme2",
               "assumption": run["assumption"], "level": level,
               "weights": "length" if weighting == "weighted" else "none",
               "factors": run["level"] if scorer == "heuo" else "-"}
        row.update({NAMES[name]: repr(value) for name, value in values.items() if name in NAMES and value is not None})
        out.append(row)
    return out


def main(path: str) -> None:
    sys.stdout.write(HEADER + "\t".join(COLUMNS) + "\n")
    for line in open(path, encoding="utf-8"):
        if line.startswith("{"):
            for row in rows(json.loads(line)):
                sys.stdout.write("\t".join(row.get(column, "-") for column in COLUMNS) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
