"""meta-eval --judgments --level sentence and the flags only the system level reads: --ranking,
--ew-procedure, --seed, --resample, --bootstrap 0 and --metric-ranking corpus were taken and
changed nothing (an audit: `--ranking ts` printed the same table as without it); now each is one
line naming the flag, exit 2. And --src-ids FILE lists judged sentences only, as documented."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests._meta_support import toy_args, toy_files
from tests.conftest import one_line_error, run_cli

IDLE_AT_SENTENCE_LEVEL = [["--ranking", "ew"], ["--ranking", "ts"], ["--ew-procedure", "bootstrap-mean"],
                          ["--ew-procedure", "plain"], ["--seed", "0"], ["--seed", "3"], ["--resample", "judgments"],
                          ["--resample", "sentences"], ["--bootstrap", "0"], ["--metric-ranking", "corpus"]]


@pytest.fixture
def toy(tmp_path: Path) -> dict[str, str]:
    return toy_files(tmp_path)


@pytest.mark.parametrize("flags", IDLE_AT_SENTENCE_LEVEL, ids=" ".join)
def test_system_level_flags_are_refused_at_the_sentence_level(toy, flags) -> None:
    sentence = toy_args(toy, "--level", "sentence", "--src-ids", "0")
    assert run_cli(*sentence)[0] == 0
    err = one_line_error(*sentence, *flags)
    assert err.startswith(f"gecmetric: error: {flags[0]} does not go with --level sentence ("), err


def test_the_flags_still_work_at_the_system_level(toy) -> None:
    """Refused at the sentence level only: the system level reads each of them."""
    for flags in (["--ranking", "ew"], ["--ew-procedure", "bootstrap-mean", "--seed", "3"], ["--bootstrap", "0"],
                  ["--resample", "judgments", "--bootstrap", "20"], ["--metric-ranking", "corpus"],
                  ["--bootstrap", "50", "--seed", "1"]):  # (--resample without --bootstrap N resamples nothing: refused)
        code, _, err = run_cli(*toy_args(toy, *flags))
        assert code == 0, (flags, err)


def test_the_library_refusals_at_the_sentence_level_are_unchanged(toy) -> None:
    """--bootstrap N, --metric-ranking ew|ts, --window and --compare keep JudgmentOptions' message."""
    sentence = toy_args(toy, "--level", "sentence", "--src-ids", "0")
    assert "bootstrap intervals is system-level" in one_line_error(*sentence, "--bootstrap", "10")
    assert "a ranking from sentence scores is system-level" in one_line_error(*sentence, "--metric-ranking", "ew")
    assert "paired tests is system-level" in one_line_error(*sentence, "--compare")


def test_the_audit_command_on_gjg15(shared_data: Path, conll14: Path, tmp_path: Path) -> None:
    """The audit's command: --ranking ts and --ew-procedure bootstrap-mean exited 0 with the
    table of the run without them."""
    sentence = ["meta-eval", "--judgments", str(shared_data / "human/judgments/gjg15.xml"), "-s",
                str(conll14 / "INPUT"), "-r", str(conll14 / "REF0"), str(conll14 / "REF1"), "-o",
                *(str(conll14 / name) for name in ("AMU", "CAMB", "CUUI", "INPUT")), "--metrics", "gleu:iter=1",
                "--level", "sentence", "--src-ids", "0"]
    for flags in (["--ranking", "ts"], ["--ew-procedure", "bootstrap-mean"]):
        err = one_line_error(*sentence, *flags)
        assert err.startswith(f"gecmetric: error: {flags[0]} does not go with --level sentence ("), err


def test_a_src_ids_file_holds_judged_sentences_only(shared_data: Path, conll14: Path, tmp_path: Path) -> None:
    """As docs/meta-evaluation-judgments.md says, a --src-ids FILE gives the src-id of each -o
    line and each must be a judged item's: GJG15 judged 663 of the 1312 sentences, so the ids 0
    to 1311 of the whole test set are refused at the first unjudged one (src-id 0), where
    --src-ids 0 maps the whole test set; --help says what the file holds."""
    ids = tmp_path / "ids"
    ids.write_text("".join(f"{k}\n" for k in range(1312)))
    sentence = ["meta-eval", "--judgments", str(shared_data / "human/judgments/gjg15.xml"), "-s",
                str(conll14 / "INPUT"), "-r", str(conll14 / "REF0"), "-o", *(str(conll14 / name) for name in ("AMU", "CAMB", "INPUT")),
                "--metrics", "gleu:iter=1", "--level", "sentence"]
    code, _, err = run_cli(*sentence, "--src-ids", "0")
    assert code == 0, err
    err = one_line_error(*sentence, "--src-ids", str(ids))
    assert f"{ids}:1: src-id 0 is not the src-id of any ranking item" in err, err
    assert "each line must be a judged sentence (for files of the whole test set give the first line's src-id" in err
    help_text = " ".join(run_cli("meta-eval", "--help")[1].split())
    assert "a file of the src-id of every line, each line a judged sentence" in help_text


def test_a_tie_rule_at_the_system_level_is_refused_even_at_its_default(toy) -> None:
    """--tie-rule disagree was refused at the system level (by JudgmentOptions), --tie-rule seeda taken."""
    for rule in ("seeda", "disagree"):
        err = one_line_error(*toy_args(toy, "--tie-rule", rule))
        assert "tie rule is for the sentence level" in err or "--tie-rule is for the sentence level" in err, err
    assert run_cli(*toy_args(toy, "--level", "sentence", "--src-ids", "0", "--tie-rule", "seeda"))[0] == 0
