"""Smoke runs of the benchmark scripts (`--quick --no-peers`, real subprocesses) and checks of
the harness's measurements. No timing assertions: only that the scripts run and report."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import _harness as harness  # noqa: E402
from tests.conftest import unavailable  # noqa: E402

OUR_TIMING_LINE = re.compile(r"^(\[\w+\] )?ours\s+gecmetric \w+\s+cpu\s+\d+\.\d+ s\s+wall\s+\d+\.\d+ s\s+peak RSS\s+\d+\.\d+ MB",
                             re.MULTILINE)
NOTHING_TO_TIME = ("nothing to time",)
"""What a script prints when an extra or a spaCy model it times is not installed."""


def quick_run(script: str, *options: str, timeout: int = 600, skip_when: tuple[str, ...] = (),
              env: dict[str, str] | None = None) -> str:
    """What ``script --quick --no-peers [options]`` printed: the run must end with code 0, and a
    test that reads it skips (naming why) when the output holds one of ``skip_when`` (an extra,
    a spaCy model or the shared data that is not there)."""
    completed = subprocess.run([sys.executable, str(BENCHMARKS / script), "--quick", "--no-peers", *options],
                               capture_output=True, text=True, timeout=timeout, env=env)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    if any(reason in completed.stdout for reason in skip_when):
        pytest.skip(completed.stdout.strip().splitlines()[-1] if completed.stdout.strip() else script)
    return completed.stdout


@pytest.mark.parametrize("script", ["gleu_conll14.py", "green_conll14.py", "compare_conll14.py", "cleme_conll14.py"])
def test_benchmark_quick_run_reports_our_timing(script: str, shared_data: Path) -> None:
    output = quick_run(script, timeout=300)
    assert OUR_TIMING_LINE.search(output), output
    assert "MISMATCH" not in output


def test_errant_benchmark_quick_run_reports_both_process_counts(shared_data: Path) -> None:
    output = quick_run("errant_conll14.py", skip_when=NOTHING_TO_TIME)
    for processes in ("1", "0"):
        assert re.search(rf"^ours\s+gecmetric errant x1 -p {processes}\s+cpu\s+\d+\.\d+ s", output, re.MULTILINE), output
    # our TP FP FN P R F are read from the output (compared with the peer's when it runs)
    assert re.search(r"^AMU\s+ours \d+ \d+ \d+ [\d.]+ [\d.]+ [\d.]+$", output, re.MULTILINE), output


def test_errant_long_lines_benchmark_quick_run_reports_each_length(shared_data: Path) -> None:
    output = quick_run("errant_long_lines.py", skip_when=NOTHING_TO_TIME)
    for case in ("1 word changed", "1,000 tokens", "2,000 tokens"):
        assert re.search(rf"^ours\s+m2 annotate, {case}\s+cpu\s+\d+\.\d+ s", output, re.MULTILINE), output
    assert re.search(r"in this process: parse [\d.]+ s, align [\d.]+ s, merge [\d.]+ s", output)


def test_gotoscorer_benchmark_quick_run_reports_both_jobs(shared_data: Path) -> None:
    output = quick_run("gotoscorer_conll14.py", skip_when=NOTHING_TO_TIME)
    for job in ("weights", "w_file"):
        assert re.search(rf"^ours\s+gecmetric gotoscorer {job}\s+cpu\s+\d+\.\d+ s", output, re.MULTILINE), output


def test_cherrant_benchmark_quick_run_reports_our_timings(shared_data: Path) -> None:
    output = quick_run("cherrant_mucgec.py")
    if "nothing to time" in output or "not available in this installation" in output:
        unavailable(output.strip())
    for step in ("score", r"m2 \(hyp\)", r"m2 \(ref\)", "compare"):
        assert re.search(rf"^ours\s+gecmetric cherrant {step}\s+cpu\s+\d+\.\d+ s", output, re.MULTILINE), output


def test_peak_memory_is_the_commands_own_not_this_process() -> None:
    """A child forked from a big process must not be charged that process's memory, and a
    child that allocates must be: the harness measures the command alone."""
    ballast = bytearray(160 * 2**20)
    ballast[::4096] = b"\x01" * len(ballast[::4096])  # touch every page so it is resident
    small = harness.run_once([sys.executable, "-c", "pass"])
    big = harness.run_once([sys.executable, "-c", "b = bytearray(96 * 2**20); b[::4096] = b'1' * len(b[::4096])"])
    del ballast
    assert small.returncode == 0 and big.returncode == 0
    assert small.peak_rss_bytes < 80 * 2**20
    assert big.peak_rss_bytes >= 96 * 2**20


def test_measure_reports_the_output_and_failures() -> None:
    timing = harness.measure([sys.executable, "-c", "print('AMU\\t58.33')"], repeats=2)
    assert len(timing.runs) == 2
    assert harness.parse_score_rows(timing.stdout, ["AMU"]) == {"AMU": ["58.33"]}
    with pytest.raises(harness.CommandFailed, match="exited with 3: broken"):
        harness.measure([sys.executable, "-c", "import sys; sys.stderr.write('broken'); sys.exit(3)"])
    assert harness.run_once(["no-such-command-gecmetrics"]).returncode == 127


def test_score_comparison_names_the_differing_rows(capsys: pytest.CaptureFixture[str]) -> None:
    peer = "alpha\t0.80\t0.50\nbeta\t0.50\t1.00\nAMU\t85.42\t81.97\nCAMB\t82.02\t80.50\n"
    assert harness.print_agreement("scores", "AMU\t85.42\t81.97\nCAMB\t82.02\t80.50\n", peer, ["AMU", "CAMB"])
    assert not harness.print_agreement("scores", "AMU\t85.42\t81.98\nCAMB\t82.02\t80.50\n", peer, ["AMU", "CAMB"])
    output = capsys.readouterr().out
    assert "OK" in output and "MISMATCH" in output and "AMU: ours ['85.42', '81.98']" in output
    assert "CAMB: ours" not in output


def test_the_m2_of_some_corrections_is_read_from_one_run_on_them_all() -> None:
    """The benchmarks make each system's M2 from one `m2 annotate` of all of them: a file is
    what a run on its corrections alone writes (checked against such runs on CoNLL-2014: the same
    bytes), their edit lines annotator by annotator in the order asked for, ids from 0."""
    text = ("S a b c\nA 0 1|||R:X|||x|||REQUIRED|||-NONE-|||0\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1\n"
            "A 1 2|||R:Y|||y|||REQUIRED|||-NONE-|||2\nA 2 3|||U:Z||||||REQUIRED|||-NONE-|||2\n\n"
            "S \nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\nA 0 0|||M:W|||w|||REQUIRED|||-NONE-|||1\n"
            "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||2\n\n")
    assert harness.corrections_m2(text, [2, 0]) == (
        "S a b c\nA 1 2|||R:Y|||y|||REQUIRED|||-NONE-|||0\nA 2 3|||U:Z||||||REQUIRED|||-NONE-|||0\n"
        "A 0 1|||R:X|||x|||REQUIRED|||-NONE-|||1\n\n"
        "S \nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1\n\n")
    assert harness.corrections_m2(text, [1]) == ("S a b c\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n"
                                                 "S \nA 0 0|||M:W|||w|||REQUIRED|||-NONE-|||0\n\n")
    assert harness.corrections_m2(text, [0, 1, 2]) == text


def test_missing_shared_data_exits_cleanly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(harness, "SHARED_DATA", tmp_path / "absent")
    with pytest.raises(SystemExit) as exit_info:
        harness.shared_data("conll14")
    assert exit_info.value.code == 0
    assert "shared data not found" in capsys.readouterr().out


def test_peer_install_failure_returns_none(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """When pip fails (as without network) the peer is None with a printed reason, not an
    exception. The venv's python is a stand-in that fails like pip would, so nothing is fetched."""
    monkeypatch.setenv(harness.PEERS_DIR_VARIABLE, str(tmp_path))
    python = tmp_path / "broken" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text("#!/bin/sh\necho 'ERROR: No matching distribution found for gleu==1.1.0' >&2\nexit 1\n")
    python.chmod(0o755)
    assert harness.peer_python("broken", "gleu==1.1.0") is None
    output = capsys.readouterr().out
    assert "No matching distribution" in output and "peer skipped" in output
    assert not (tmp_path / "broken" / harness.PEER_MARKER).exists()


def test_repeated_corpus_has_every_line_times_over(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "A").write_bytes(b"one\ntwo")  # no final newline: must not merge lines
    harness.repeat_corpus(tmp_path / "src", ["A"], 3, tmp_path / "big")
    assert (tmp_path / "big" / "A").read_bytes() == b"one\ntwo\n" * 3
    assert harness.count_lines(tmp_path / "big" / "A") == 6


def test_peer_package_dir_finds_a_package_without_importing_it(tmp_path: Path) -> None:
    package = tmp_path / "site" / "fakepeer"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("raise ImportError('importing would pull a heavy dependency')\n")
    python = tmp_path / "python"
    python.write_text(f"#!/bin/sh\nPYTHONPATH={tmp_path / 'site'} exec {sys.executable} \"$@\"\n")
    python.chmod(0o755)
    assert harness.peer_package_dir(python, "fakepeer") == package
    assert harness.peer_package_dir(python, "no_such_package_gecmetrics") is None


@pytest.mark.parametrize("script", ["significance_conll14.py"])
def test_other_benchmarks_quick_run(script: str, shared_data: Path) -> None:
    """The significance benchmark prints its own layout; check that it runs and reports our
    timing (as .ci/run calls every benchmark with --quick --no-peers). m2_conll14.py's smoke run,
    with a stricter check of its timing line, is test_m2_benchmark_quick_runs_report_each_case's."""
    output = quick_run(script, timeout=300)
    assert re.search(r"\bours\b.*\d+\.\d+ s", output), output


@pytest.mark.parametrize("script", ["m2_conll14.py", "m2_long_lines.py"])
def test_m2_benchmark_quick_runs_report_each_case(script: str, shared_data: Path) -> None:
    """The M2 benchmarks in their smoke mode: every case prints a timing line (no peer)."""
    output = quick_run(script, skip_when=("shared data not found",))
    if script == "m2_conll14.py":
        assert re.search(r"^AMU\s+ours\s+\d+\.\d+ s .*P/R/F 0\.4162 0\.2140 0\.3501", output, re.MULTILINE)
        assert "stress total" in output
    else:
        for case in ("AMU as it is", "AMU, line 10 2,000 tokens", "20,000-token gold, empty line",
                     "20,000-token gold, 20 tokens"):
            assert re.search(rf"^ours\s+{re.escape(case)}\s+cpu\s+\d+\.\d+ s\s+wall\s+\d+\.\d+ s\s+peak RSS",
                             output, re.MULTILINE), output
        assert "stages: lattice" in output


def run_cache_benchmark(part: str) -> str:
    """cache_conll14.py --quick --no-peers on one part: what it printed, checked for a clean end."""
    output = quick_run("cache_conll14.py", "--parts", part, timeout=900)
    assert "MISMATCH" not in output and "F bits the same off, cold and warm: NO" not in output
    return output


def assert_cold_and_warm_timed(output: str) -> None:
    for run in ("--no-cache", r"cold \(new cache\)", "warm"):
        assert len(re.findall(rf"^ours\s+{run}\s+cpu\s+\d+\.\d+ s", output, re.MULTILINE)) == 1, output


def test_cache_benchmark_quick_run_reports_cold_and_warm(shared_data: Path) -> None:
    """The ERRANT part (spaCy, no torch): one part per test, so that the PT-M2 part, which needs
    torch, neither skips this one (pass 1 has no torch) nor is left out of the model pass."""
    output = run_cache_benchmark("errant")
    if "skipped" in output:  # spaCy or its model missing
        pytest.skip(output.strip().splitlines()[-1])
    assert_cold_and_warm_timed(output)
    assert re.search(r"MB per 1,000 parsed lines", output), output


@pytest.mark.models
def test_cache_benchmark_pt_part_reports_cold_and_warm(shared_data: Path) -> None:
    pytest.importorskip("torch", reason="the PT-M2 part needs torch and transformers")
    pytest.importorskip("transformers", reason="the PT-M2 part needs torch and transformers")
    output = run_cache_benchmark("pt")
    assert "skipped" not in output, output
    assert_cold_and_warm_timed(output)
    assert re.search(r"MB per 1,000 pairs", output), output


@pytest.mark.models
def test_models_benchmark_quick_run_reports_both_metrics(shared_data: Path) -> None:
    """Scribendi and BERTScore with the tiny models (skipped inside the script without torch)."""
    output = quick_run("models_scribendi_bertscore.py", timeout=900, skip_when=NOTHING_TO_TIME)
    for metric in ("Scribendi", "BERTScore"):
        assert f"## {metric}" in output, output
    assert len(re.findall(r"^ours\s+cpu\s+\d+\.\d+ s\s+wall\s+\d+\.\d+ s", output, re.MULTILINE)) == 2, output
    assert output.count("warm runs print the cold run's bytes: yes") == 2, output


def test_rewards_benchmark_quick_run_reports_each_metric(shared_data: Path) -> None:
    import os

    env = {**os.environ, "PYTHONPATH": str(BENCHMARKS.parent)}  # this checkout's package (rewards is new)
    output = quick_run("rewards_throughput.py", env=env)
    for metric in ("gleu", "green", "errant", "m2"):
        assert re.search(rf"^{metric}\s+ours\s+one call\s+cpu\s+[\d.]+ s\s+[\d.]+ sentences/s/core", output,
                         re.MULTILINE), output
        assert re.search(rf"^{metric}\s+GRPO call .* median wall\s+[\d.]+ ms", output, re.MULTILINE)


# ----------------------------------------------------------------------------- every script, once

COVERED = {"gleu_conll14.py", "green_conll14.py", "compare_conll14.py", "cleme_conll14.py", "errant_conll14.py",
           "errant_long_lines.py", "gotoscorer_conll14.py", "cherrant_mucgec.py", "m2_conll14.py",
           "significance_conll14.py", "m2_long_lines.py", "cache_conll14.py", "models_scribendi_bertscore.py",
           "rewards_throughput.py",
           # smoke-run by the tests of what they time
           "report_conll14.py",       # tests/test_report.py
           "models_some_impara.py",   # tests/test_models_some_impara.py
           "pt_conll14.py",           # tests/test_pt_weighting.py
           "meta_eval_gjg15.py"}      # tests/test_meta_benchmark.py
"""Scripts whose smoke run a test checks in detail (above, or beside what they time)."""
NEEDS_TORCH = {"direct_paths.py", "models_some_impara.py", "pt_conll14.py", "models_scribendi_bertscore.py"}
"""Scripts that time the model metrics: run with the model tests (``-m models``, torch installed)."""


def benchmark_scripts() -> list[str]:
    return sorted(path.name for path in BENCHMARKS.glob("[!_]*.py"))


def test_every_benchmark_script_has_its_smoke_run_in_the_suite() -> None:
    """.ci/run runs the benchmarks' smoke runs through this suite (each once, in parallel with
    the rest): a new script is run by :func:`test_benchmark_smoke_run` unless a test above
    checks it in detail."""
    assert set(benchmark_scripts()) >= COVERED | NEEDS_TORCH
    assert benchmark_scripts(), "no benchmark scripts found"


@pytest.mark.parametrize("script", [pytest.param(name, marks=pytest.mark.models) if name in NEEDS_TORCH else name
                                    for name in benchmark_scripts() if name not in COVERED])
def test_benchmark_smoke_run(script: str, shared_data: Path) -> None:
    """Every other benchmark with --quick --no-peers: it runs to the end and prints a timing of
    ours (or says why there is nothing to time: an extra that is not installed)."""
    output = quick_run(script, timeout=900, skip_when=NOTHING_TO_TIME)
    assert "MISMATCH" not in output, output
    assert re.search(r"\d+\.\d+ s", output), output
