"""compare(): the same numbers as the separate commands, one counting pass, the registry, the
CLI's formats and errors. (benchmarks/compare_conll14.py is smoke-run by test_benchmarks_smoke.py.)"""
from __future__ import annotations

import io
import re
import json
from decimal import Decimal
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from gecmetrics import GLEU, GLEU2015, GREEN, InputError
from gecmetrics.cli import main
from gecmetrics.cli.common import StderrProgress
from gecmetrics import compare  # the printable table (gecmetrics.output.tables)
from gecmetrics.core.ngrams import Encoder
from gecmetrics.metrics.registry import column_labels, get_metric, list_metrics, metrics_from_text, parse_metric_spec
from tests.conftest import json_x100, read_tsv

SOURCES = ["the cat sit on mat .", "he go to school yesterday", "a a a b", "short", ""]
REF0 = ["the cat sits on the mat .", "he went to school yesterday", "a a b", "short", ""]
REF1 = ["the cat sat on a mat .", "he goes to school yesterday", "a a a b", "shorter", "x"]
SYSTEMS = {
    "sys_a": ["the cat sits on mat .", "he went to school yesterday", "a b", "short", ""],
    "sys_b": ["the cat sit on the mat .", "he go to the school yesterday", "a a a b", "short !", "x y"],
    "copy": list(SOURCES),
}


def _separate_scores(metric, sources, references, hypothesis) -> list[float]:
    """What the metric's own corpus_score gives (fresh encoding, nothing shared)."""
    result = metric.corpus_score(sources, references, hypothesis)
    return [float(s) for s in result.scores] if isinstance(metric, GREEN) else [result.score]


# ---------------------------------------------------------------------------- same numbers


def test_compare_gives_each_metrics_own_numbers() -> None:
    metrics = [GLEU(fix_seed=True), GLEU(best_reference=True), GLEU("paper", seed=3, iterations=50),
               GLEU2015(lambda_=0.1), GREEN(beta=[0.5, 1, 2]), GREEN(n=2, beta=[2.0]),
               GREEN(beta=[0.5, float("inf")], unit="char"), GLEU(unit="char", n=6, fix_seed=True)]
    table = compare(SOURCES, [REF0, REF1], SYSTEMS, metrics)
    assert table.labels == ["GLEU+ f", "GLEU+ max", "GLEU+ paper s3 i50", "GLEU0 l0.1", "GREEN b0.5", "GREEN b1",
                            "GREEN b2", "GREEN b2 n2", "GREEN-char b0.5", "GREEN-char binf", "GLEU+-char f n6"]
    for row in table.rows:
        expected = [s for m in metrics for s in _separate_scores(m, SOURCES, [REF0, REF1], SYSTEMS[row.system])]
        assert row.scores == expected  # exactly, not approximately
    assert table.systems == list(SYSTEMS)
    assert 0 < table.score("sys_a", "GLEU+ f") < 1


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(*[st.lists(st.sampled_from("a b c d"), max_size=7).map(" ".join)] * 4),
                min_size=1, max_size=6))
def test_compare_equals_separate_scores_on_random_corpora(lines) -> None:
    sources, reference, system_a, system_b = (list(column) for column in zip(*lines))
    metrics = [GLEU(fix_seed=True, iterations=20), GREEN(beta=[0.5, 2]), GLEU(best_reference=True)]
    references = [reference, system_b]
    table = compare(sources, references, {"a": system_a, "b": system_b}, metrics)
    for row, hypothesis in zip(table.rows, (system_a, system_b)):
        assert row.scores == [s for m in metrics for s in _separate_scores(m, sources, references, hypothesis)]


# ---------------------------------------------------------------------------- one counting pass


@pytest.fixture
def encoded_texts(monkeypatch: pytest.MonkeyPatch) -> Counter:
    """Every text the core encodes, counted by (unit, content): each goes through
    ``Encoder.line_ids`` (a source or reference through ``encode``, a hypothesis through its
    look-up of which lines it changed)."""
    seen: Counter = Counter()
    original = Encoder.line_ids

    def counting_line_ids(self, sentences):
        seen[(self.unit, tuple(sentences))] += 1
        return original(self, sentences)

    monkeypatch.setattr(Encoder, "line_ids", counting_line_ids)
    return seen


def test_the_core_counts_each_file_once_whatever_the_number_of_metrics(encoded_texts: Counter) -> None:
    metrics = metrics_from_text("gleu,gleu-max,gleu-paper,gleu0,green:beta=0.5/1/2,green:n=2")
    table = compare(SOURCES, [REF0, REF1], SYSTEMS, metrics)
    texts = [SOURCES, REF0, REF1, *SYSTEMS.values()]  # "copy" has the source's text: counted as both
    assert encoded_texts == Counter(("word", tuple(t)) for t in texts)
    assert encoded_texts[("word", tuple(SOURCES))] == 2
    assert table.encoded_texts == 6
    assert len(table.columns) == 8


def test_one_counting_pass_per_unit_setting(encoded_texts: Counter) -> None:
    systems = {"sys_a": SYSTEMS["sys_a"], "sys_b": SYSTEMS["sys_b"]}
    compare(SOURCES, [REF0, REF1], systems, "gleu,green:beta=0.5/1/2,green-char,gleu:unit=char,green:unit=char:n=6")
    texts = [SOURCES, REF0, REF1, *systems.values()]
    assert encoded_texts == Counter({(unit, tuple(t)): 1 for t in texts for unit in ("word", "char")})


def test_separate_metrics_without_compare_count_again(encoded_texts: Counter) -> None:
    """The counter above does see repeated work: two separate scorings encode the source twice."""
    GLEU().corpus_score(SOURCES, [REF0], SYSTEMS["sys_a"])
    GREEN().corpus_score(SOURCES, [REF0], SYSTEMS["sys_a"])
    assert encoded_texts[("word", tuple(SOURCES))] == 2


# ---------------------------------------------------------------------------- registry


def test_registry_names_and_defaults() -> None:
    names = [info.name for info in list_metrics()]
    assert names[:6] == ["gleu", "gleu-max", "gleu-paper", "gleu0", "green", "green-char"]
    gleu = get_metric("gleu")
    assert (gleu.variant, gleu.fix_seed, gleu.iterations, gleu.best_reference) == ("official", True, 500, False)
    assert get_metric("gleu-max").best_reference and get_metric("gleu-paper").variant == "paper"
    assert get_metric("gleu0", lambda_=0.1).lambda_ == 0.1
    assert get_metric("green").betas == [2.0] and get_metric("green-char").unit == "char"
    assert get_metric("green", beta=[0.5, 1]).betas == [0.5, 1.0]
    seeded = get_metric("gleu", seed=7)
    assert (seeded.fix_seed, seeded.seed) == (False, 7)
    assert get_metric("gleu", iter=20).iterations == 20  # aliases work as keywords too


def test_registry_errors_list_the_valid_choices() -> None:
    with pytest.raises(InputError, match="unknown metric 'bleu'; valid names: gleu, gleu-max, gleu-paper, gleu0, "
                                         "green, green-char"):
        get_metric("bleu")
    with pytest.raises(InputError, match="metric 'green' has no setting 'iterations'; valid settings: n, unit, "
                                         "normalize_space, beta"):
        get_metric("green", iterations=3)
    with pytest.raises(InputError, match=r"setting unit \(-t/--unit\) must be one of: word, char"):
        get_metric("gleu", unit="byte")
    with pytest.raises(InputError, match=r"setting beta \(-b/--beta\) must be a number"):
        metrics_from_text("green:beta=0.5/x")
    with pytest.raises(InputError, match="cannot go with fix_seed=true"):
        metrics_from_text("gleu:seed=1:fix_seed=true")
    with pytest.raises(InputError, match="given twice"):
        compare(SOURCES, [REF0], SYSTEMS, "green,green")


def test_metric_text_syntax() -> None:
    spec = parse_metric_spec(" green-char : beta=0.5/2 : normalize-space ")
    assert (spec.name, spec.settings) == ("green-char", {"beta": "0.5/2", "normalize-space": "true"})
    metrics = metrics_from_text(["gleu:iter=50:f=false", "green:b=1/inf,gleu0:lambda=1"])
    assert [column_labels(m) for m in metrics] == [["GLEU+ s0 i50"], ["GREEN b1", "GREEN binf"], ["GLEU0 l1"]]
    assert metrics[1].betas == [1.0, float("inf")]
    assert metrics[2].lambda_ == 1.0


def test_a_setting_named_without_a_value_is_true_only_for_an_on_off_setting() -> None:
    """``gleu:f`` and ``green-char:normalize-space`` turn the setting on; ``gleu:n`` or
    ``green:beta`` alone said "must be an integer, got 'true'": now that the setting needs a value."""
    assert metrics_from_text("gleu:best_reference")[0].settings.best_reference is True
    assert metrics_from_text("green-char:normalize-space")[0].settings.normalize_space is True
    for text, key in (("gleu:n", "n"), ("green:beta", "beta"), ("gleu0:l", "l")):
        with pytest.raises(InputError, match=rf"setting '{key}' of metric '{text.split(':')[0]}' needs a value "
                                             rf"\({text}=VALUE\)"):
            metrics_from_text(text)
    with pytest.raises(InputError, match="has no setting 'zz'"):
        metrics_from_text("gleu:zz")


def test_a_colon_in_a_setting_value_is_written_percent_3a_for_every_metric() -> None:
    """':' separates settings in metric text, so a value's ':' is written %3A, for every metric
    (it was the LLM judges' model and URL alone: bertscore:device=cuda%3A1 was refused, and
    device=cuda:1 read '1' as a setting)."""
    assert parse_metric_spec("bertscore:device=cuda%3A1:model=a%3ab").settings == {"device": "cuda:1", "model": "a:b"}
    assert metrics_from_text("bertscore:device=cuda%3A1")[0].settings.device == "cuda:1"
    assert metrics_from_text("pt-m2:device=CUDA%3A0")[0].settings.device == "cuda:0"
    with pytest.raises(InputError, match="has no setting '1'"):
        metrics_from_text("bertscore:device=cuda:1")


# ---------------------------------------------------------------------------- table object


def test_table_sort_ranks_and_formats() -> None:
    table = compare(SOURCES, [REF0, REF1], SYSTEMS, [GLEU(best_reference=True), GREEN(beta=[0.5, 2])])
    by_green = table.sorted_by("green b2")
    scores = [row.scores[2] for row in by_green.rows]
    assert scores == sorted(scores, reverse=True)
    assert table.sorted_by("system").systems == ["copy", "sys_a", "sys_b"]
    assert table.sorted_by(1).systems == table.sorted_by("GLEU+ max").systems
    ranks = table.ranks("GREEN b0.5")
    values = [row.scores[1] for row in table.rows]
    assert ranks == [1 + sum(v > x for v in values) for x in values]
    with pytest.raises(InputError, match="unknown column 'BLEU'; valid columns: system, 'GLEU\\+ max'"):
        table.sorted_by("BLEU")

    data = table.to_dict()
    assert [c["signature"] for c in data["columns"]] == [
        GLEU(best_reference=True).signature(2), GREEN(beta=0.5).signature(2), GREEN(beta=2).signature(2)]
    assert data["rows"][0]["scores"]["GREEN b2"] == json_x100(table.rows[0].scores[2])
    assert [m["signature"] for m in data["metrics"]] == table.signatures
    markdown = table.to_markdown(digits=1).splitlines()
    assert markdown[0] == "| system | GLEU+ max (x100) | GREEN b0.5 (x100) | GREEN b2 (x100) |"
    assert markdown[1] == "|:---|---:|---:|---:|"
    assert f"`{GREEN(beta=[0.5, 2]).signature(2)}`" in markdown[-1]
    # results keep the per-metric objects with their signatures
    assert table.results["sys_a"][1].signature == GREEN(beta=[0.5, 2]).signature(2)


def test_ties_share_the_best_rank() -> None:
    systems = {"a": SOURCES, "b": list(SOURCES), "c": REF0}
    table = compare(SOURCES, [REF0], systems, [GREEN()])
    assert table.ranks(1) == [2, 2, 1]


def test_bad_corpus_input() -> None:
    with pytest.raises(InputError, match="has 2 lines but the source has 5"):
        compare(SOURCES, [REF0], {"short": ["a", "b"]})
    with pytest.raises(InputError, match="at least one system"):
        compare(SOURCES, [REF0], {})
    with pytest.raises(InputError, match="not a metric"):
        compare(SOURCES, [REF0], SYSTEMS, [object()])


# ---------------------------------------------------------------------------- CLI


def _write(folder: Path, name: str, lines: list[str]) -> str:
    path = folder / name
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    out = {"src": _write(tmp_path, "src", SOURCES), "ref0": _write(tmp_path, "ref0", REF0),
           "ref1": _write(tmp_path, "ref1", REF1)}
    for name, lines in SYSTEMS.items():
        out[name] = _write(tmp_path, name, lines)
    return out


def _run(args: list[str]):
    return CliRunner().invoke(main, args)


def test_cli_tsv_json_markdown_and_signature(files: dict[str, str]) -> None:
    base = ["compare", "-s", files["src"], "-r", files["ref0"], files["ref1"], "-o", files["sys_a"], files["sys_b"]]
    tsv = _run(base + ["--tsv", "-d", "4", "--ranks", "--signature"])
    assert tsv.exit_code == 0, tsv.output
    lines = tsv.stdout.splitlines()
    assert lines[0].split("\t") == ["system", "GLEU+ f (x100)", "GLEU+ f #", "GREEN b0.5 (x100)", "GREEN b0.5 #",
                                    "GREEN b1 (x100)", "GREEN b1 #", "GREEN b2 (x100)", "GREEN b2 #"]
    table = compare(SOURCES, [REF0, REF1], {files["sys_a"]: SYSTEMS["sys_a"], files["sys_b"]: SYSTEMS["sys_b"]})
    assert lines[1:] == table.to_tsv(4, ranks=True).splitlines()[1:]
    assert tsv.stderr.splitlines()[0] == "GLEU+ f\t" + GLEU(fix_seed=True).signature(2)

    as_json = _run(base + ["--json", "--metrics", "green-char:beta=1"])
    data = json.loads(as_json.stdout)
    assert [c["label"] for c in data["columns"]] == ["GREEN-char b1"]
    assert data["rows"][0]["scores"]["GREEN-char b1"] == json_x100(GREEN(beta=1, unit="char").corpus_score(
        SOURCES, [REF0, REF1], SYSTEMS["sys_a"]).score)
    assert data["columns"][0]["signature"] == GREEN(beta=1, unit="char").signature(2)

    markdown = _run(base + ["--markdown", "--sort", "GREEN b2", "--metrics", "gleu-max", "green:beta=2"])
    assert markdown.exit_code == 0, markdown.output
    assert markdown.stdout.startswith("| system | GLEU+ max (x100) | GREEN b2 (x100) |\n|:---|---:|---:|\n")

    pretty = _run(base)
    assert pretty.stdout.startswith("+--------")
    assert "GREEN b0.5, GREEN b1, GREEN b2: GREEN|beta:0.5,1,2|n:4|unit:word|refs:2|" in pretty.stdout


def test_cli_errors_are_one_line_exit_2(files: dict[str, str], tmp_path: Path) -> None:
    base = ["compare", "-s", files["src"], "-r", files["ref0"], "-o", files["sys_a"]]
    cases = {
        "unknown metric 'bleu'; valid names: gleu, gleu-max": base + ["--metrics", "gleu,bleu"],
        "metric 'gleu' has no setting 'beta'; valid settings: n, unit": base + ["--metrics", "gleu:beta=2"],
        "unknown column 'x'; valid columns: system": base + ["--sort", "x"],
        "choose one output format, got tsv and json": base + ["--tsv", "--json"],
        "the m2 metric needs the gold annotation: --m2 GOLD.m2": base + ["--metrics", "gleu,m2"],
        "metric 'm2' takes one beta, got 2": base + ["--metrics", "m2:beta=0.5/1"],
        "has 2 lines but the source": ["compare", "-s", files["src"], "-r", files["ref0"], "-o",
                                       _write(tmp_path, "two", ["a", "b"])],
    }
    for message, args in cases.items():
        result = _run(args)
        assert result.exit_code == 2, (args, result.output)
        assert result.stderr.count("\n") == 1 and message in result.stderr, result.stderr


def test_cli_m2_sources_must_match(files: dict[str, str], tmp_path: Path) -> None:
    blocks = [f"S {line}\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n" for line in SOURCES]
    blocks[1] = "S he goes to school\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n"
    gold = tmp_path / "gold.m2"
    gold.write_text("\n".join(blocks) + "\n", encoding="utf-8")
    result = _run(["compare", "-s", files["src"], "-r", files["ref0"], "-o", files["sys_a"], "--m2", str(gold)])
    assert result.exit_code == 2, result.output
    assert result.stderr == (f"gecmetric: error: {gold}:4: the source of sentence 2 differs from line 2 "
                             f"of the source {files['src']}\n")
    short = tmp_path / "short.m2"
    short.write_text("".join(blocks[:3]).replace("\nS", "\n\nS"), encoding="utf-8")
    result = _run(["compare", "-s", files["src"], "-r", files["ref0"], "-o", files["sys_a"], "--m2", str(short)])
    assert result.exit_code == 2 and "has 3 sentences but the source" in result.stderr


def test_console_script_error_exit_code(files: dict[str, str]) -> None:
    completed = subprocess.run([sys.executable, "-c", "from gecmetrics.cli import main; main()", "compare",
                                "-s", files["src"], "-r", files["ref0"], "-o", files["sys_a"],
                                "--metrics", "green:unit=byte"], capture_output=True, text=True, timeout=60)
    assert completed.returncode == 2
    assert completed.stderr == "gecmetric: error: setting unit (-t/--unit) must be one of: word, char; got 'byte'\n"


def test_progress_line_only_on_a_terminal() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal = Terminal()
    progress = StderrProgress("compare", terminal, delay=0.0)
    progress(1000, 3000, "AMU")
    progress(3000, 3000, "done")
    # lines done and lines per second (issues 12 and 16), then the line is cleared
    assert re.fullmatch(r"\rgecmetric compare  \[########\.{16}\]  1,000/3,000 lines  [\d,]+ lines/s  \d+:\d\d left  AMU"
                        r"\x1b\[K\r\x1b\[K",
                        terminal.getvalue())

    slow_to_show = Terminal()
    progress = StderrProgress("compare", slow_to_show, delay=3600.0)
    progress(1, 3, "AMU")
    progress(3, 3, "done")
    assert slow_to_show.getvalue() == ""

    runs = Terminal()  # another unit (rank's TrueSkill runs)
    StderrProgress("rank", runs, delay=0.0, unit="TrueSkill runs")(10, 1000, "TrueSkill")
    assert "10/1,000 TrueSkill runs" in runs.getvalue() and "TrueSkill runs/s" in runs.getvalue()

    pipe = io.StringIO()
    progress = StderrProgress("compare", pipe, delay=0.0)
    progress(1, 3, "AMU")
    assert pipe.getvalue() == ""


# ---------------------------------------------------------------------------- real data


def _cli_rows(args: list[str], cwd: Path, monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    monkeypatch.chdir(cwd)
    result = _run(args)
    assert result.exit_code == 0, result.output
    return [line.split("\t") for line in result.stdout.splitlines()]


def test_compare_prints_the_separate_commands_numbers(conll14: Path, expected: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    systems = ["AMU", "CAMB", "CUUI", "INPUT", "REF0"]
    corpus = ["-s", "INPUT", "-r", "REF0", "REF1", "-o", *systems]
    table = _cli_rows(["compare", *corpus, "--tsv", "-d", "6"], conll14, monkeypatch)
    assert table[0] == ["system", "GLEU+ f (x100)", "GREEN b0.5 (x100)", "GREEN b1 (x100)", "GREEN b2 (x100)"]
    gleu = _cli_rows(["gleu", *corpus, "-f", "-d", "6"], conll14, monkeypatch)
    green = _cli_rows(["green", "-s", "INPUT", "-r", "REF0", "REF1", "-c", *systems, "-b", "0.5", "1", "2",
                       "-d", "6"], conll14, monkeypatch)
    assert [row[:2] for row in table[1:]] == gleu
    assert [[row[0], *row[2:5]] for row in table[1:]] == green[1:]
    # the published numbers themselves
    published_gleu = {r["hypothesis"]: r["score"] for r in read_tsv(expected / "gleu_official.tsv")
                      if r["dataset"] == "conll14" and r["references"] == "REF0 REF1"}
    assert [f"{float(row[1]) / 100:.6f}" for row in table[1:]] == [published_gleu[name] for name in systems]
    published_green = {(r["hypothesis"], r["beta"]): r["score"] for r in read_tsv(expected / "green.tsv")
                       if r["unit"] == "word"}
    for row in table[1:]:
        assert row[2:5] == [published_green[(row[0], beta)] for beta in ("0.5", "1.0", "2.0")]


def test_compare_prints_the_m2_commands_numbers(conll14: Path, expected: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """M2 is the slow metric (about a second per system): two systems keep the test short."""
    systems = ["CAMB", "INPUT"]
    table = _cli_rows(["compare", "-s", "INPUT", "-r", "REF0", "-o", *systems, "--metrics", "green",
                       "--m2", "official-2014.combined.m2", "--tsv", "-d", "6"], conll14, monkeypatch)
    assert table[0] == ["system", "GREEN b2 (x100)", "M2 F0.5 (x100)"]
    m2_rows = _cli_rows(["m2", "score", "-s", "official-2014.combined.m2", "-o", *systems, "-d", "6"], conll14,
                        monkeypatch)
    assert m2_rows[0] == ["system", "precision (x100)", "recall (x100)", "f0.5 (x100)"]  # one scale rule
    assert [row[2] for row in table[1:]] == [row[3] for row in m2_rows[1:]]
    published_m2 = {r["hypothesis"]: r["f0.5"] for r in read_tsv(expected / "m2.tsv")}
    assert [f"{Decimal(row[2]) / 100:.4f}" for row in table[1:]] == [published_m2[name] for name in systems]



def test_ranking_columns_from_sentence_scores(tmp_path):
    """--ranking ew|ts: after each column of a metric with sentence scores, the systems' Expected
    Wins (a fraction, x100) or TrueSkill mu from the pairwise wins of their sentence scores."""
    from gecmetrics import Corpus
    from gecmetrics.run.engine import score_corpus
    from gecmetrics.stats.sentence_rankings import rank_by_sentence_scores

    sources = ["he go to school", "she have cat", "it are big", "we is here"]
    references = [["he goes to school", "she has a cat", "it is big", "we are here"]]
    systems = {"good": references[0], "half": ["he goes to school", "she have cat", "it is big", "we is here"],
               "input": sources}
    table = compare(sources, references, systems, ["green"], ranking="ew")
    assert table.labels == ["GREEN b2", "GREEN b2 EW"]
    scored = score_corpus([GREEN()], Corpus(sources, references, dict(systems)))
    expected = rank_by_sentence_scores({n: GREEN().sentence_matrix(scored.statistics[n][0])[0]
                                        for n in systems}, "ew", list(systems))
    assert [table.score(n, "GREEN b2 EW") for n in systems] == [expected.scores[n] for n in systems]
    assert table.ranks("GREEN b2 EW")[0] == 1 and "|ranking:ew|" in table.columns[1].signature
    # the table's notes sign the ranking column as its own (it was listed under the metric's signature)
    assert table.signature_lines() == [f"GREEN b2: {table.signatures[0]}", f"GREEN b2 EW: {table.columns[1].signature}"]
    ts = compare(sources, references, systems, ["green"], ranking="ts")
    assert ts.cells(2)[0][2] == f"{ts.score('good', 2):.2f}"  # TrueSkill mu printed as it is
    with pytest.raises(InputError, match="ew .* or ts"):
        compare(sources, references, systems, ["green"], ranking="elo")
