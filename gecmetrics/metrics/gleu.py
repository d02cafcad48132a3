"""GLEU+ (Napoles et al. 2015/2016) and the original 2015 GLEU, as reducers of n-gram counts.

Variants (SPEC 2.1): ``official`` (gec-ranking's code, the default), ``paper`` (Equation 1 of
"GLEU Without Tuning", no per-sentence clamp) and ``gleu0`` (the 2015 GLEU with merged
references and a lambda weight). Corpus scores sample one reference per sentence (SPEC 2.3)
or take the best one (SPEC 2.4); sentence scores follow SPEC 2.5.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from ..aggregate import best_reference, python2_draws, seeded_draws, select, sum_selected
from ..errors import InputError
from ..ngrams import EncodedCorpus
from .base import NgramMetric

VARIANTS = ("official", "paper", "gleu0")
Z95 = 1.959963984540054  # the 97.5% quantile of the standard normal distribution


@dataclass
class GLEUResult:
    """A GLEU score (a fraction) with the per-order statistics behind it.

    For sampled corpus scores the per-order counts are means over the iterations and
    ``std``/``interval`` describe the spread of the iteration scores.
    """

    score: float
    match: np.ndarray
    penalty: np.ndarray
    numerator: np.ndarray
    denominator: np.ndarray
    hypothesis_length: float
    reference_length: float
    brevity_penalty: float
    signature: str
    settings: dict = field(default_factory=dict)
    iterations: int = 1
    std: float = 0.0
    interval: tuple[float, float] | None = None
    chosen_references: np.ndarray | None = None

    @property
    def precision(self) -> np.ndarray:
        """p_n per order (1 where the denominator is 0, as the gleu package prints)."""
        return _precision(self.numerator, self.denominator)

    @property
    def order_scores(self) -> np.ndarray:
        """BP * p_n per order (the per-order 'gleu' column of verbose tables)."""
        return self.brevity_penalty * self.precision


@dataclass
class GLEUSentenceScores:
    """Per-sentence scores (fractions), and for each the per-reference scores."""

    scores: np.ndarray
    """Shape (D,): the mean over references, or the max with ``best_reference``."""
    reference_scores: np.ndarray
    """Shape (D, R)."""
    chosen_references: np.ndarray
    """Shape (D,): the best reference of each sentence (SPEC 2.4 tie-break)."""
    signature: str
    std: np.ndarray | None = None
    """With ``smooth``: the standard deviation over references, shape (D,)."""

    @property
    def mean(self) -> float:
        return float(np.mean(self.scores)) if len(self.scores) else 0.0

    @property
    def interval(self) -> np.ndarray | None:
        if self.std is None:
            return None
        return np.stack([self.scores - Z95 * self.std, self.scores + Z95 * self.std], axis=1)


def _precision(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """p_n, clamped at 0, and 1 where the denominator is 0 (the gleu package's sentence rule)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(denominator == 0, 1.0, numerator / np.where(denominator == 0, 1, denominator))
    return np.maximum(p, 0.0)


def _log_brevity(reference_length, hypothesis_length) -> np.ndarray:
    """log BP with the gleu package's conventions for empty sentences: 0 when both lengths
    are 0, -inf for an empty hypothesis alone (numbers or arrays)."""
    r = np.asarray(reference_length, dtype=np.float64)
    h = np.asarray(hypothesis_length, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(h == 0, np.where(r == 0, 0.0, -np.inf), np.minimum(0.0, 1.0 - r / np.where(h == 0, 1, h)))


def _best_of(score: np.ndarray, per_order: np.ndarray) -> np.ndarray:
    """Per sentence, the reference with the highest sentence GLEU; ties by BP*p_n from n = N
    down to 1, then the first reference (SPEC 2.4)."""
    return best_reference(np.concatenate([score[..., None], per_order[..., ::-1]], axis=-1))


class GLEU(NgramMetric):
    """GLEU+ and GLEU (2015).

    >>> GLEU(fix_seed=True).corpus_score(sources, references, hypothesis).score

    ``references`` is a list of R reference sets, each a list of D sentences.
    """

    name = "gleu"

    def __init__(self, variant: str = "official", n: int = 4, unit: str = "word", *,
                 iterations: int = 500, fix_seed: bool = False, seed: int = 0,
                 best_reference: bool = False, smooth: bool = False, lambda_: float | None = None,
                 normalize_space: bool = False) -> None:
        super().__init__(n, unit, normalize_space)
        if variant not in VARIANTS:
            raise InputError(f"unknown GLEU variant {variant!r}; choose one of: {', '.join(VARIANTS)}")
        if lambda_ is not None and variant != "gleu0":
            raise InputError(f"--lambda applies to the gleu0 variant only, not to {variant!r}")
        if not isinstance(iterations, (int, np.integer)) or iterations < 1:
            raise InputError(f"the number of iterations must be >= 1, got {iterations!r}")
        self.variant = variant
        self.iterations = int(iterations)
        self.fix_seed = bool(fix_seed)
        self.seed = int(seed)
        self.best_reference = bool(best_reference)
        self.smooth = bool(smooth)
        self.lambda_ = float(lambda_ if lambda_ is not None else 0.0)

    # ------------------------------------------------------------------ statistics
    @property
    def columns(self) -> int:
        return 2 + 4 * self.n

    def statistics(self, encoded: EncodedCorpus, hypothesis: Sequence[str]) -> np.ndarray:
        """Shape (D, R, 2 + 4N): hlen, rlen, then match, penalty, numerator, denominator
        for orders 1..N (``official`` stores the penalty clamped to the match, per sentence).
        For ``gleu0`` R is 1 (references merged), the first two columns are (closest
        reference length, hlen) and penalty/numerator hold the source-only and reference-only
        matches (the numerator depends on lambda: see :meth:`lambda_rows`)."""
        self._check_hypothesis(hypothesis, encoded)
        hyp = encoded.hypothesis(hypothesis)
        n = self.n
        size = encoded.size
        if self.variant == "gleu0":
            return self._gleu0_statistics(encoded, hyp)
        n_refs = len(encoded.references)
        stats = np.zeros((size, n_refs, self.columns), dtype=np.int64)
        for r, ref in enumerate(encoded.references):
            stats[:, r, 0] = hyp.lengths
            stats[:, r, 1] = ref.lengths
            for order in range(1, n + 1):
                t = encoded.hypothesis_triples(hyp, r, order)  # only n-grams with eta > 0 count
                matched = np.minimum(t.rho, t.eta)
                match = t.per_sentence(matched)
                if self.variant == "official":
                    # clamped per sentence: the gleu package's min(penalty, match) form
                    penalty = np.minimum(t.per_sentence(np.minimum(np.where(t.rho == 0, t.sigma, 0), t.eta)), match)
                else:  # paper
                    penalty = t.per_sentence(np.maximum(np.minimum(t.sigma, t.eta) - matched, 0))
                numerator = match - penalty
                k = order - 1
                stats[:, r, 2 + k] = match
                stats[:, r, 2 + n + k] = penalty
                stats[:, r, 2 + 2 * n + k] = numerator
                stats[:, r, 2 + 3 * n + k] = hyp.ngram_counts(order)
        return stats

    def _gleu0_statistics(self, encoded: EncodedCorpus, hyp) -> np.ndarray:
        n = self.n
        stats = np.zeros((encoded.size, 1, self.columns), dtype=np.int64)
        ref_lengths = np.stack([r.lengths for r in encoded.references], axis=1)
        distance = np.abs(ref_lengths - hyp.lengths[:, None])
        closest = np.argmin(distance, axis=1)  # first reference wins ties
        stats[:, 0, 0] = ref_lengths[np.arange(encoded.size), closest]
        stats[:, 0, 1] = hyp.lengths
        for order in range(1, n + 1):
            t = encoded.hypothesis_triples(hyp, None, order)  # references merged
            reference_only = np.where(t.sigma == 0, t.rho, 0)
            source_only = np.where(t.rho == 0, t.sigma, 0)
            k = order - 1
            stats[:, 0, 2 + k] = t.per_sentence(np.minimum(t.eta, t.rho))
            stats[:, 0, 2 + n + k] = t.per_sentence(np.minimum(t.eta, source_only))
            stats[:, 0, 2 + 2 * n + k] = t.per_sentence(np.minimum(t.eta, reference_only))
            stats[:, 0, 2 + 3 * n + k] = hyp.ngram_counts(order)
        return stats

    def split_statistics(self, stats: np.ndarray) -> tuple[np.ndarray, ...]:
        """The statistics split into (hlen, rlen, match, penalty, numerator, denominator),
        the last four with one column per order (see :meth:`statistics`)."""
        n = self.n
        return (stats[..., 0], stats[..., 1], stats[..., 2:2 + n], stats[..., 2 + n:2 + 2 * n],
                stats[..., 2 + 2 * n:2 + 3 * n], stats[..., 2 + 3 * n:2 + 4 * n])

    def _gleu0_fractions(self, stats: np.ndarray):
        """Per-sentence (numerator, denominator) of GLEU 2015 for this lambda, floats."""
        _, _, match, source_only, reference_only, plain = self.split_statistics(stats)
        numerator = reference_only + np.maximum(match - self.lambda_ * source_only, 0.0)
        return numerator, reference_only + plain

    # ------------------------------------------------------------------ scores
    def score_sums(self, sums: np.ndarray) -> np.ndarray:
        """Corpus GLEU of summed statistics (..., K) -> (...) (SPEC 2.2: 0 when any of
        the lengths, numerators or denominators is 0, or a numerator is negative).

        gleu0 stores its lengths the other way round, (closest reference length, hlen): the
        same formula on the stored columns is GLEU 2015's brevity term, 1 - hlen / rlen."""
        hlen, rlen, _, _, numerator, denominator = self.split_statistics(np.asarray(sums, dtype=np.float64))
        zero = (hlen == 0) | (rlen == 0) | np.any(numerator <= 0, axis=-1) | np.any(denominator == 0, axis=-1)
        with np.errstate(divide="ignore", invalid="ignore"):
            log_precision = np.log(numerator / denominator).sum(axis=-1) / self.n
            log_brevity = np.minimum(0.0, 1.0 - rlen / hlen)
            score = np.exp(log_brevity + log_precision)
        return np.where(zero, 0.0, score)

    def lambda_rows(self, stats: np.ndarray) -> np.ndarray:
        """gleu0 statistics with this lambda's numerator and denominator filled in (floats,
        clamped per sentence): rows that sum to the corpus statistics."""
        numerator, denominator = self._gleu0_fractions(stats)
        out = stats.astype(np.float64)
        n = self.n
        out[..., 2 + 2 * n:2 + 3 * n] = numerator
        out[..., 2 + 3 * n:2 + 4 * n] = denominator
        return out

    def _iterations(self, references: int | None) -> int:
        """Sampling iterations: one when there is one reference (nothing to sample)."""
        return 1 if references == 1 else self.iterations

    def draws(self, sentences: int, references: int) -> np.ndarray:
        """The reference index of each sentence in each sampling iteration."""
        iterations = self._iterations(references)
        if self.fix_seed:
            return python2_draws(iterations, sentences, references)
        return seeded_draws(iterations, sentences, references, self.seed)

    def corpus_from_statistics(self, stats: np.ndarray, references: int | None = None) -> GLEUResult:
        """Corpus score of a statistics array: sampled, best-reference or (gleu0) merged.
        ``references`` (R) is only needed for the signature of gleu0 (whose stats merge them)."""
        size, n_refs, _ = stats.shape
        references = references or n_refs
        if self.variant == "gleu0":
            rows = self.lambda_rows(stats)
            return self._result(rows[:, 0].sum(axis=0), references, stats[:, 0].sum(axis=0))
        if self.best_reference:
            chosen = self.best_references(stats)
            return self._result(select(stats, chosen).sum(axis=0), references, chosen_references=chosen)
        draws = self.draws(size, n_refs)
        sums = sum_selected(stats, draws)
        scores = self.score_sums(sums)
        mean = float(np.mean(scores))
        std = float(np.std(scores))
        result = self._result(sums.mean(axis=0), references)
        result.score = mean
        result.iterations = len(draws)
        result.std = std
        result.interval = (mean - Z95 * std, mean + Z95 * std)
        return result

    def _result(self, sums: np.ndarray, references: int, raw: np.ndarray | None = None, **extra) -> GLEUResult:
        hlen, rlen, match, penalty, numerator, denominator = self.split_statistics(sums)
        log_brevity = float(_log_brevity(rlen, hlen))  # on the stored columns (see score_sums)
        if self.variant == "gleu0":
            _, _, match, penalty, _, _ = self.split_statistics(raw)
            hlen, rlen = rlen, hlen  # reported as what they are
        score = float(self.score_sums(sums))
        hlen, rlen = float(hlen), float(rlen)
        return GLEUResult(score=score, match=match, penalty=penalty, numerator=numerator,
                          denominator=denominator, hypothesis_length=hlen, reference_length=rlen,
                          brevity_penalty=math.exp(log_brevity), signature=self.signature(references),
                          settings=self.settings(), **extra)

    def corpus_score(self, sources: Sequence[str], references: Sequence[Sequence[str]],
                     hypothesis: Sequence[str], encoded: EncodedCorpus | None = None) -> GLEUResult:
        """Corpus GLEU of one hypothesis set (pass ``encoded`` to reuse the counting)."""
        encoded = self._encoded(sources, references, encoded)
        return self.corpus_from_statistics(self.statistics(encoded, hypothesis), len(encoded.references))

    # ------------------------------------------------------------------ sentences
    def sentence_keys(self, stats: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Unsmoothed sentence GLEU (gleu package conventions, SPEC 2.5) and per-order
        BP * p_n, for statistics of any leading shape: shapes (...) and (..., N)."""
        hlen, rlen, _, _, numerator, denominator = self.split_statistics(stats)
        if self.variant == "gleu0":
            numerator, denominator = self._gleu0_fractions(stats)
        log_brevity = _log_brevity(rlen, hlen)  # on the stored columns (see score_sums)
        with np.errstate(divide="ignore"):
            log_precision = np.log(_precision(numerator, denominator))
            score = np.exp(log_brevity + log_precision.mean(axis=-1))
            per_order = np.exp(log_brevity[..., None] + log_precision)
        return score, per_order

    def best_references(self, stats: np.ndarray) -> np.ndarray:
        """Per sentence, the reference with the highest sentence GLEU; ties by BP*p_n from
        n = N down to 1, then the first reference (SPEC 2.4)."""
        return _best_of(*self.sentence_keys(stats))

    def smoothed_scores(self, stats: np.ndarray) -> np.ndarray:
        """gec-ranking's sentence scores (--debug): zero statistics replaced by 1."""
        smoothed = np.where(stats == 0, 1, stats)
        if self.variant == "gleu0":
            smoothed = self.lambda_rows(smoothed)
        return self.score_sums(smoothed)

    def sentence_from_statistics(self, stats: np.ndarray, references: int | None = None) -> GLEUSentenceScores:
        per_reference, per_order = self.sentence_keys(stats)
        chosen = _best_of(per_reference, per_order)
        signature = self.signature(references or stats.shape[1])
        if self.smooth:
            per_reference = self.smoothed_scores(stats)
            std = per_reference.std(axis=1)
            return GLEUSentenceScores(per_reference.mean(axis=1), per_reference, chosen, signature, std)
        if self.best_reference:
            scores = per_reference.max(axis=1)
        else:
            scores = per_reference.mean(axis=1)
        return GLEUSentenceScores(scores, per_reference, chosen, signature)

    def sentence_scores(self, sources: Sequence[str], references: Sequence[Sequence[str]],
                        hypothesis: Sequence[str], encoded: EncodedCorpus | None = None) -> GLEUSentenceScores:
        """Sentence GLEU of each line: mean over references, or max with ``best_reference``;
        with ``smooth``, gec-ranking's smoothed scores with their std over references."""
        encoded = self._encoded(sources, references, encoded)
        return self.sentence_from_statistics(self.statistics(encoded, hypothesis), len(encoded.references))

    def sentence_result(self, stats: np.ndarray, sentence: int, reference: int) -> GLEUResult:
        """The per-order table of one sentence against one reference (verbose output)."""
        row = stats[sentence, reference]
        if self.variant == "gleu0":
            return self._result(self.lambda_rows(row), stats.shape[1], row)
        result = self._result(row, stats.shape[1])
        result.score = float(self.sentence_keys(row)[0])
        return result

    # ------------------------------------------------------------------ description
    def settings(self) -> dict:
        return {"metric": "GLEU+" if self.variant != "gleu0" else "GLEU", "variant": self.variant,
                "n": self.n, "unit": self.unit, "normalize_space": self.normalize_space,
                "iterations": self.iterations, "fix_seed": self.fix_seed, "seed": self.seed,
                "best_reference": self.best_reference, "smooth": self.smooth,
                **({"lambda": self.lambda_} if self.variant == "gleu0" else {})}

    def signature(self, references: int | None = None) -> str:
        if self.variant == "gleu0":
            parts = ["GLEU", "variant:gleu0", f"lambda:{self.lambda_:g}"]
        else:
            parts = ["GLEU+", f"variant:{self.variant}"]
        parts += self._signature_parts()
        if references is not None:
            parts.append(f"refs:{references}")
        if self.variant != "gleu0":
            if self.best_reference:
                parts.append("ref:best")
            else:
                parts.append(f"iter:{self._iterations(references)}")
                parts.append("sampling:py2-compatible" if self.fix_seed else f"sampling:seed-{self.seed}")
        if self.smooth:
            parts.append("smooth:official")
        return self._join_signature(parts)
