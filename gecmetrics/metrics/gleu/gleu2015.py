"""The original 2015 GLEU (gec-ranking ``scripts/original_gleu``, SPEC 2.1 ``gleu0``).

References are merged per sentence (the count of an n-gram is its largest count in any
reference); rdiff = n-grams of the merged reference absent from the source, sdiff = n-grams of
the source absent from the merged reference; with a penalty weight lambda

    numer_n = sum min(eta, rdiff) + max(0, sum min(eta, merged rho) - lambda * sum min(eta, sdiff))
    denom_n = sum min(eta, rdiff) + max(0, |h| - n + 1)

Its length pair is (the reference length closest to |h|, first reference on ties; |h|), the
other way round from GLEU+: the same corpus formula then gives its brevity term 1 - |h| / r.
Statistics keep the GLEU column layout per reference: only the first length differs between
references (each its own length), and the closest one is chosen per sentence by the reducer.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ...core.aggregate import select
from ..results import CorpusSums
from ...errors import InputError, shown
from ..settings import flag_as, parse_bool, parse_finite_non_negative, setting, setting_label
from ...core.ngrams import EncodedCorpus, EncodedText
from ...core.table import number_label
from ..ngram import NgramMetric, NgramSettings
from .gleu import (GLEULayout, GLEUResult, GLEUSentenceScores, corpus_gleu, refuse_smoothed_corpus, result_fields,
                   result_of)


MAX_LAMBDA = 1e100
"""Largest penalty weight (-l): lambda times an n-gram count stays a finite double (1e308
overflowed to inf with NumPy's warning on stderr; the score had long stopped changing, from
about 1e6 on CoNLL-2014)."""


def parse_lambda(name: str, value: Any) -> float:
    """A finite number from 0 to :data:`MAX_LAMBDA`."""
    number = parse_finite_non_negative(name, value)
    if number > MAX_LAMBDA:
        raise InputError(f"{setting_label(name)} must be at most 1e+100 (gecmetrics.metrics.gleu.gleu2015.MAX_LAMBDA), "
                         f"got {shown(number)}")
    return number


@dataclass(frozen=True)
class GLEU2015Settings(NgramSettings):
    lambda_: float = setting(0.0, "penalty weight of source n-grams missing from the references (a finite "
                             "number from 0 to 1e100)", parse_lambda, ("lambda", "l"),
                             flags=("-l", "--lambda"), signature="lambda")
    smooth: bool = setting(False, "sentence scores: gec-ranking's smoothed ones", parse_bool, signature="smooth",
                           shown=flag_as("official"))


class GLEU2015(NgramMetric):
    """The 2015 GLEU: ``GLEU2015(n=4, lambda_=0.0)`` (``get_metric("gleu0")``)."""

    name = "gleu0"
    label = "GLEU"
    python2_words = True  # (gec-ranking is Python 2: SPEC 1)
    header = "GLEU0"
    settings_class = GLEU2015Settings
    result_class = GLEUResult
    signature_order = ("variant", "lambda", "n", "unit", "space", "refs", "smooth")
    positional = ("n", "unit")
    variant = "gleu0"
    merges_references = True  # (its sentence tables, -v, are of all the references at once)
    best_reference = False

    @property
    def layout(self) -> GLEULayout:
        return GLEULayout(self.settings.n)

    @property
    def statistics_width(self) -> int:
        return self.layout.width

    def text_statistics(self, encoded: EncodedCorpus, hyp: EncodedText) -> np.ndarray:
        """Shape (D, R, 2 + 4N): reference r's length, hlen, then per order the matches with
        the merged reference, with its source-only part and its reference-only part, and the
        hypothesis n-gram count (the numerator depends on lambda: see :meth:`lambda_rows`)."""
        layout = self.layout
        merged = np.zeros((encoded.size, layout.width), dtype=np.int64)
        merged[:, 1] = hyp.lengths
        for order in range(1, layout.n + 1):
            t = encoded.hypothesis_triples(hyp, None, order)  # references merged
            reference_only = np.where(t.sigma == 0, t.rho, 0)
            source_only = np.where(t.rho == 0, t.sigma, 0)
            merged[:, 2 + order - 1::layout.n] = np.stack(
                [t.per_sentence(np.minimum(t.eta, t.rho)), t.per_sentence(np.minimum(t.eta, source_only)),
                 t.per_sentence(np.minimum(t.eta, reference_only)), hyp.ngram_counts(order)], axis=1)
        stats = np.repeat(merged[:, None, :], len(encoded.references), axis=1)
        stats[:, :, 0] = np.stack([r.lengths for r in encoded.references], axis=1)
        return stats

    def closest(self, stats: np.ndarray) -> np.ndarray:
        """Per sentence, the reference whose length is closest to the hypothesis's (first
        reference on ties), shape (D,)."""
        return np.argmin(np.abs(stats[..., 0] - stats[..., 1]), axis=1)

    def closest_rows(self, stats: np.ndarray) -> np.ndarray:
        """Per sentence, the row of the :meth:`closest` reference, shape (D, K)."""
        return select(stats, self.closest(stats))

    def lambda_rows(self, rows: np.ndarray) -> np.ndarray:
        """Rows (..., K) with this lambda's numerator and denominator filled in (floats, clamped
        per sentence): rows that sum to the corpus statistics."""
        layout = self.layout
        _, _, match, source_only, reference_only, plain = layout.split(rows)
        out = rows.astype(np.float64)
        out[..., layout.numerator] = reference_only + np.maximum(match - self.settings.lambda_ * source_only, 0.0)
        out[..., layout.denominator] = reference_only + plain
        return out

    def score_from_sums(self, sums: np.ndarray, column: int = 0) -> np.ndarray:
        """GLEU 2015 of summed :meth:`rows`."""
        return corpus_gleu(self.layout, sums)

    def rows(self, stats: np.ndarray, column: int = 0) -> np.ndarray:
        """Per sentence, the closest reference's row with this lambda's numerator and denominator."""
        return self.lambda_rows(self.closest_rows(stats))

    def corpus_sums(self, stats: np.ndarray, column: int = 0) -> CorpusSums:
        """The :meth:`rows` summed, with the closest reference of each sentence."""
        chosen = self.closest(stats)
        return CorpusSums(self.lambda_rows(select(stats, chosen)).sum(axis=0), chosen)

    def details(self, stats: np.ndarray, sums: list[CorpusSums]) -> dict[str, Any]:
        """The per-order table of the closest references (their integer counts shown)."""
        refuse_smoothed_corpus(self)
        return result_fields(self.layout, sums[0].total, reported=select(stats, sums[0].chosen).sum(axis=0),
                             swapped=True)

    def sentence_from_statistics(self, stats: np.ndarray) -> GLEUSentenceScores:
        stats = self.check_statistic_values(stats)
        rows = self.closest_rows(stats)[:, None, :]
        signature = self.signature(stats.shape[1])
        if self.settings.smooth:
            smoothed = self.score_from_sums(self.lambda_rows(np.where(rows == 0, 1, rows)))
            return GLEUSentenceScores(smoothed.mean(axis=1), smoothed, np.zeros(len(rows), np.int64), signature,
                                      smoothed.std(axis=1))
        # original_gleu's --debug lines: its corpus formula on the sentence's statistics, so 0
        # when any is 0 (an order without n-grams, an empty hypothesis), not the gleu package's
        # sentence conventions for GLEU+ (p_n = 1), which that package never applied to GLEU 2015
        score = self.score_from_sums(self.lambda_rows(rows))
        return GLEUSentenceScores(score.mean(axis=1), score, np.zeros(len(rows), np.int64), signature)

    def sentence_result(self, stats: np.ndarray, sentence: int, reference: int | None = None,
                        penalty: np.ndarray | None = None) -> GLEUResult:
        """The per-order table of one sentence against all its references at once (its closest
        rows, as the score takes them: ``reference`` is not one of them; verbose output). ``penalty``:
        as GLEU+'s (GLEU 2015 has no clamped penalty to show otherwise: unused)."""
        row = self.closest_rows(stats[sentence:sentence + 1])[0]
        return result_of(self.layout, self.lambda_rows(row), self.signature(stats.shape[1]), self.settings_dict(),
                         reported=row, swapped=True)

    def settings_dict(self) -> dict:
        return {"metric": "GLEU", "variant": "gleu0", **self.settings.to_dict(), "lambda": self.settings.lambda_}

    def signature_extra(self, references: int | None) -> list[tuple[str, str] | str]:
        """The variant (gleu0), the n-gram settings and the reference count."""
        return [("variant", "gleu0"), *super().signature_extra(references)]

    def column_names(self) -> list[str]:
        return [" ".join([f"l{number_label(self.settings.lambda_)}", *self.settings.label_tokens()])]

    def paired_label(self, column: int = 0) -> str:
        """The signature's name and the lambda (``GLEU lambda=0``), as GREEN's names its beta: two
        lambdas' tables were both ``GLEU``."""
        return f"{self.signature_name()} lambda={number_label(self.settings.lambda_)}"
