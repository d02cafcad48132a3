"""`gecmetric meta-eval` scoring system files itself (-s/-r/-o --metrics)."""
from __future__ import annotations

import json


from gecmetrics import compare, read_corpus
from tests.conftest import one_line_error, run_cli


run = run_cli


def test_scoring_mode_equals_scores_file(conll14, tmp_path):
    names = ["AMU", "CAMB", "CUUI", "INPUT"]
    files = [str(conll14 / n) for n in names]
    refs = [str(conll14 / "REF0"), str(conll14 / "REF1")]
    code, out, err = run("meta-eval", "--human", "gjg15", "-s", str(conll14 / "INPUT"), "-r", *refs, "-o", *files,
                         "--metrics", "gleu,green", "--json")
    assert code == 0, err
    scored = json.loads(out)
    # the same scores computed with the library, written as a scores file
    corpus = read_corpus(str(conll14 / "INPUT"), refs, files)
    table = compare(corpus.sources, corpus.references, {n: corpus.hypotheses[f] for n, f in zip(names, files)},
                    ["gleu", "green"])
    lines = ["system\t" + "\t".join(c.label for c in table.columns)]
    lines += [n + "\t" + "\t".join(repr(table.score(n, c.label)) for c in table.columns) for n in names]
    (tmp_path / "scores.tsv").write_text("\n".join(lines) + "\n")
    code, out, err = run("meta-eval", "--human", "gjg15", "--scores", str(tmp_path / "scores.tsv"), "--json")
    assert code == 0, err
    assert json.loads(out)["correlations"] == scored["correlations"]
    assert len(scored["correlations"]) == 4  # 2 metric columns x 2 human columns


def test_scoring_mode_errors(conll14, tmp_path):
    src, ref, amu = str(conll14 / "INPUT"), str(conll14 / "REF0"), str(conll14 / "AMU")
    (tmp_path / "s.tsv").write_text("system\tm\nAMU\t1\nCAMB\t2\nINPUT\t3\n")
    assert "not both" in one_line_error("meta-eval", "--scores", str(tmp_path / "s.tsv"), "-s", src, "-r", ref, "-o", amu)
    assert "-r REF" in one_line_error("meta-eval", "-s", src, "-o", amu)
    other = tmp_path / "x"
    other.mkdir()
    (other / "AMU").write_text((conll14 / "AMU").read_text())
    assert "repeat: AMU" in one_line_error("meta-eval", "-s", src, "-r", ref, "-o", amu, str(other / "AMU"))
    # REF0 is no system of the GJG15 table
    err = one_line_error("meta-eval", "-s", src, "-r", ref, "-o", amu, str(conll14 / "CAMB"), str(conll14 / "REF0"),
                         "--metrics", "gleu")
    assert "REF0" in err
    assert "unknown" in one_line_error("meta-eval", "-s", src, "-r", ref, "-o", amu, "--metrics", "bleu").lower()
