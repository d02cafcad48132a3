"""Settings that give different scores never share a label or a signature: numbers are written
as %g only when that reads back as the same float (a differential fuzz found Scribendi
thresholds 0.8 and 0.80000001 scoring 1 and -1, as the original does, under one signature
``threshold:0.8`` and one column label; IMPARA's 0.9999999 signed ``threshold:1``)."""
from __future__ import annotations

import pytest

from gecmetrics import get_metric
from gecmetrics.core.table import number_label
from gecmetrics.metrics.settings import signature_value


@pytest.mark.parametrize("value, label", [
    (0.5, "0.5"), (2.0, "2"), (1, "1"), (0.9, "0.9"), (1e-07, "1e-07"), (float("inf"), "inf"), (-0.0, "-0"),
    (0.80000001, "0.80000001"), (0.9999999, "0.9999999"), (0.1 + 0.2, "0.30000000000000004"),
    (123456789.0, "123456789.0"),
])
def test_a_number_label_is_g_unless_that_rounds(value, label):
    assert number_label(value) == label
    assert float(number_label(value)) == value


def test_settings_a_hair_apart_have_their_own_signatures_and_labels():
    sources, references, hypothesis = ["a b c d e"], [["a b c d f"]], ["a b c d f"]
    near = get_metric("green", beta=0.50000001)
    plain = get_metric("green", beta=0.5)
    assert "beta:0.50000001" in str(near.corpus_score(sources, references, hypothesis).signature)
    assert "beta:0.5|" in str(plain.corpus_score(sources, references, hypothesis).signature)
    assert near.column_names() != plain.column_names()
    assert signature_value(0.80000001) != signature_value(0.8)
    assert signature_value([0.5, 0.50000001]) == "0.5,0.50000001"
    m2 = get_metric("m2", beta=0.50000001)
    assert any("F0.50000001" in name for name in m2.column_names()), m2.column_names()
    cleme = get_metric("cleme2", factors="0.450000001/0.349999999/0.15/0.05")
    assert cleme.column_names() == ["factors:0.450000001/0.349999999/0.15/0.05"], cleme.column_names()
    assert get_metric("cleme2", factors="0.45/0.35/0.15/0.05").column_names() == ["factors:0.45/0.35/0.15/0.05"]
