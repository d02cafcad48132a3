"""GLEU+ (Napoles et al. 2015/2016) as a reducer of n-gram counts (SPEC 2).

Variants: ``official`` (gec-ranking's code, the default), ``official-2016`` (the same code as
published in May 2016, before commit 50b5032 swapped its brevity lengths: BP = exp(min(0, 1 -
Hlen/Rlen)), the code behind "GLEU Without Tuning"'s tables) and ``paper`` (Equation 1 of that
paper, no per-sentence clamp). Corpus scores sample one reference per sentence
(SPEC 2.3: by default gec-ranking's own Python 2 draws, the official numbers; ``seed`` selects
NumPy draws) or take the best one (SPEC 2.4); sentence scores follow SPEC 2.5. The original
2015 GLEU is :class:`~gecmetrics.metrics.gleu.gleu2015.GLEU2015`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from ...core.aggregate import (best_reference, by_sentence_blocks, draw_blocks, python2_draws, python2_sampled_sums,
                         sampled_sums, seeded_draws, select)
from ...errors import InputError
from ..results import CorpusSums, OneScore, SentenceScores, Signature, check_joined_parts
from ..settings import bounded_int, choice, flag_as, optional_bool, optional_seed, parse_bool, setting
from ...core.ngrams import EncodedCorpus, EncodedText
from ...core.table import scaled_number
from ..ngram import NgramMetric, NgramSettings

VARIANTS = ("official", "official-2016", "paper", "gleu0")
"""What ``gecmetric gleu --variant`` accepts (gleu0 is the 2015 GLEU, its own class)."""
GLEU_PLUS_VARIANTS = ("official", "official-2016", "paper")
SWAPPED_LENGTHS = "official-2016"
"""The variant whose statistics store (reference, hypothesis) lengths, as the 2016 code yields
them, so that the one corpus formula gives its brevity term 1 - Hlen/Rlen (as for GLEU 2015)."""
DEFAULT_ITERATIONS = 500
MAX_ITERATIONS = 100_000
"""Upper bound of the reference-sampling iterations (-i): 200 times gec-ranking's 500. The draws
grow with them (CoNLL-2014, two references: 3 s and 150 MB at 100,000; 33 s and 400 MB at
1,000,000; 100,000,000 was a MemoryError)."""
Z95 = 1.959963984540054  # the 97.5% quantile of the standard normal distribution


class GLEULayout:
    """The columns of GLEU statistics, named once: two lengths, then match, penalty,
    numerator and denominator for orders 1..N."""

    __slots__ = ("n",)

    def __init__(self, n: int) -> None:
        self.n = n

    @property
    def width(self) -> int:
        return 2 + 4 * self.n

    def block(self, k: int) -> slice:
        """The N columns of the k-th per-order block."""
        return slice(2 + k * self.n, 2 + (k + 1) * self.n)

    match = property(lambda self: self.block(0), doc="matched n-grams, per order")
    penalty = property(lambda self: self.block(1), doc="penalized source n-grams, per order")
    numerator = property(lambda self: self.block(2), doc="match - penalty (the precision's numerator)")
    denominator = property(lambda self: self.block(3), doc="hypothesis n-grams, per order")

    @property
    def scored(self) -> np.ndarray:
        """The columns a corpus score reads: the lengths, numerators and denominators."""
        return np.r_[0:2, self.numerator, self.denominator]

    def split(self, stats: np.ndarray) -> tuple[np.ndarray, ...]:
        """(first length, second length, match, penalty, numerator, denominator)."""
        return (stats[..., 0], stats[..., 1], stats[..., self.match], stats[..., self.penalty],
                stats[..., self.numerator], stats[..., self.denominator])


class ScoredLayout(GLEULayout):
    """The columns a corpus score reads (:attr:`GLEULayout.scored`) alone, in that order: the two
    lengths, then the numerators and the denominators for orders 1..N (the sums of a paired
    test, scored without first spreading them back to every column)."""

    __slots__ = ()

    @property
    def width(self) -> int:
        return 2 + 2 * self.n

    def split(self, stats: np.ndarray) -> tuple[Any, ...]:
        """(first length, second length, None, None, numerator, denominator)."""
        n = self.n
        return stats[..., 0], stats[..., 1], None, None, stats[..., 2:2 + n], stats[..., 2 + n:2 + 2 * n]


@dataclass(repr=False)
class GLEUResult(OneScore):
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
    log_brevity_penalty: float | None = None
    """log BP as computed (``brevity_penalty`` is its exp); None: take the log of the BP."""

    @property
    def precision(self) -> np.ndarray:
        """p_n per order (1 where the denominator is 0, as the gleu package prints)."""
        return precision_of(self.numerator, self.denominator)

    @property
    def order_scores(self) -> np.ndarray:
        """BP * p_n per order (the per-order 'gleu' column of verbose tables), computed as the gleu
        package does, exp(log BP + log p_n): the product BP * p_n may differ in the last bit, which
        shows with -d 15."""
        brevity = self.log_brevity_penalty
        if brevity is None:
            with np.errstate(divide="ignore"):
                brevity = float(np.log(self.brevity_penalty))
        with np.errstate(divide="ignore"):
            return np.exp(brevity + np.log(self.precision))

    def to_dict(self, scale: float = 1.0) -> dict[str, Any]:
        return {"score": scaled_number(self.score, scale), "std": scaled_number(self.std, scale),
                "iterations": self.iterations,
                "interval": None if self.interval is None else scaled_number(list(self.interval), scale),
                "orders": {"match": self.match, "penalty": self.penalty, "numerator": self.numerator,
                           "denominator": self.denominator, "precision": self.precision},
                "hypothesis_length": self.hypothesis_length, "reference_length": self.reference_length,
                "brevity_penalty": self.brevity_penalty, "settings": self.settings, "signature": self.signature}


@dataclass(repr=False)
class GLEUSentenceScores(SentenceScores):
    """Per-sentence scores (fractions), and for each the per-reference scores."""

    scores: np.ndarray
    """Shape (D,): the mean over references, or the max with ``best_reference``."""
    reference_scores: np.ndarray
    """Shape (D, R)."""
    chosen_references: np.ndarray
    """Shape (D,): the best reference of each sentence (SPEC 2.4 tie-break)."""
    signature: Signature
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

    @classmethod
    def joined(cls, parts: Sequence["GLEUSentenceScores"]) -> "GLEUSentenceScores":
        """The scores of consecutive chunks of sentences as one (of one run: check_joined_parts)."""
        parts = check_joined_parts(parts)
        std = None if parts[0].std is None else np.concatenate([p.std for p in parts])
        return cls(np.concatenate([p.scores for p in parts]), np.concatenate([p.reference_scores for p in parts]),
                   np.concatenate([p.chosen_references for p in parts]), parts[0].signature, std)

    def to_dict(self, scale: float = 1.0) -> dict[str, Any]:
        """The sentence scores (and std with ``smooth``); the signature says ``sentences:each``."""
        return {**super().to_dict(scale), **({} if self.std is None else {"std": scaled_number(self.std, scale)})}


def precision_of(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """p_n, clamped at 0, and 1 where the denominator is 0 (the gleu package's sentence rule)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(denominator == 0, 1.0, numerator / np.where(denominator == 0, 1, denominator))
    return np.maximum(p, 0.0)


def log_brevity(reference_length, hypothesis_length) -> np.ndarray:
    """log BP with the gleu package's conventions for empty sentences: 0 when both lengths
    are 0, -inf for an empty hypothesis alone (numbers or arrays)."""
    r = np.asarray(reference_length, dtype=np.float64)
    h = np.asarray(hypothesis_length, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(h == 0, np.where(r == 0, 0.0, -np.inf), np.minimum(0.0, 1.0 - r / np.where(h == 0, 1, h)))


def corpus_gleu(layout: GLEULayout, sums: np.ndarray) -> np.ndarray:
    """Corpus GLEU of summed statistics (..., K) -> (...) (SPEC 2.2: 0 when any of the
    lengths, numerators or denominators is 0, or a numerator is negative). The first stored
    length is the hypothesis's: GLEU 2015 stores its pair the other way round, which makes
    the same formula its brevity term 1 - hlen / rlen."""
    first, second, _, _, numerator, denominator = layout.split(np.asarray(sums, dtype=np.float64))
    zero = (first == 0) | (second == 0) | np.any(numerator <= 0, axis=-1) | np.any(denominator == 0, axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        log_precision = np.log(numerator / denominator).sum(axis=-1) / layout.n
        score = np.exp(np.minimum(0.0, 1.0 - second / first) + log_precision)
    return np.where(zero, 0.0, score)


def sentence_keys(layout: GLEULayout, stats: np.ndarray, numerator: np.ndarray | None = None,
                  denominator: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Unsmoothed sentence GLEU (gleu package conventions, SPEC 2.5) and per-order BP * p_n,
    for statistics of any leading shape: shapes (...) and (..., N)."""
    first, second, _, _, stored_numerator, stored_denominator = layout.split(stats)
    numerator = stored_numerator if numerator is None else numerator
    denominator = stored_denominator if denominator is None else denominator
    brevity = log_brevity(second, first)
    with np.errstate(divide="ignore"):
        log_precision = np.log(precision_of(numerator, denominator))
        score = np.exp(brevity + log_precision.mean(axis=-1))
        per_order = np.exp(brevity[..., None] + log_precision)
    return score, per_order


def best_of(score: np.ndarray, per_order: np.ndarray) -> np.ndarray:
    """Per sentence, the reference with the highest sentence GLEU; ties by BP*p_n from n = N
    down to 1, then the first reference (SPEC 2.4)."""
    return best_reference(np.concatenate([score[..., None], per_order[..., ::-1]], axis=-1))


def result_fields(layout: GLEULayout, sums: np.ndarray, reported: np.ndarray | None = None,
                  swapped: bool = False) -> dict[str, Any]:
    """The per-order table of summed statistics, as :class:`GLEUResult`'s fields (``reported``:
    the counts to show, when they differ from the scored ones; ``swapped``: the lengths are
    stored (reference, hypothesis), as GLEU 2015 does)."""
    first, second, match, penalty, numerator, denominator = layout.split(sums)
    if reported is not None:
        _, _, match, penalty, _, _ = layout.split(reported)
    brevity = float(log_brevity(second, first))
    hypothesis_length, reference_length = (second, first) if swapped else (first, second)
    return {"match": match, "penalty": penalty, "numerator": numerator, "denominator": denominator,
            "hypothesis_length": float(hypothesis_length), "reference_length": float(reference_length),
            "brevity_penalty": float(np.exp(brevity)), "log_brevity_penalty": brevity}  # (np.exp: the package's last digits)


def result_of(layout: GLEULayout, sums: np.ndarray, signature: str, settings: dict,
              reported: np.ndarray | None = None, swapped: bool = False, **extra: Any) -> GLEUResult:
    """A :class:`GLEUResult` of summed statistics (see :func:`result_fields`)."""
    return GLEUResult(score=float(corpus_gleu(layout, sums)), signature=signature, settings=settings,
                      **result_fields(layout, sums, reported, swapped), **extra)


def parse_variant(name: str, value: Any) -> str:
    """A GLEU+ variant; gleu0 is the 2015 GLEU, a metric of its own (``GLEU2015``)."""
    if isinstance(value, str) and value == "gleu0":
        raise InputError("the 2015 GLEU (gleu0) is its own metric: GLEU2015(...) or get_metric('gleu0')")
    return choice(*GLEU_PLUS_VARIANTS)(name, value)


@dataclass(frozen=True)
class GLEUSettings(NgramSettings):
    """GLEU+ settings. Reference draws: gec-ranking's own (the default; ``fix_seed`` is the gleu
    package's name for it), or NumPy's seeded generator when ``seed`` is given."""

    variant: str = setting("official", "official (gec-ranking's code), official-2016 (its 2016 brevity "
                           "penalty) or paper (no per-sentence clamp)", parse_variant, signature="variant")
    iterations: int = setting(DEFAULT_ITERATIONS, "reference-sampling iterations of the corpus score (one when there "
                              "is one reference; at most 100,000)",
                              bounded_int(1, MAX_ITERATIONS, "gecmetrics.metrics.gleu.gleu.MAX_ITERATIONS"),
                              ("iter", "i"), flags=("-i", "--iter"))
    fix_seed: bool | None = setting(None, "draw references exactly as gec-ranking (Python 2 random, seed j*101): the "
                                    "default, accepted for the gleu package's command line", optional_bool, ("f",),
                                    flags=("-f", "--fix-seed"))
    seed: int | None = setting(None, "draw references from NumPy's generator with this seed (0 to 2**64 - 1) instead "
                               "of gec-ranking's draws; also the seed of --paired-bs/--paired-ar (0 if not given); "
                               "with -f or --variant gleu0, the paired test's seed only",
                               optional_seed, flags=("--seed",))
    best_reference: bool = setting(False, "best reference per sentence (highest sentence GLEU) instead of sampling",
                                   parse_bool, ("max", "m"), flags=("-m", "--max"))
    smooth: bool = setting(False, "with --sentence: gec-ranking's smoothed sentence scores with std and 95% interval "
                           "over references", parse_bool, flags=("--smooth",), signature="smooth",
                           shown=flag_as("official"))

    def check(self) -> None:
        super().check()
        if self.best_reference and self.iterations != DEFAULT_ITERATIONS:  # (it changed nothing)
            raise InputError(f"setting iterations ({self.iterations}) is the number of reference draws; "
                             "best_reference (-m) draws none")
        # (a seed with the best reference changed nothing in the metric and compare; the command refused it)
        if self.best_reference and self.seed is not None:
            raise InputError("setting seed (--seed) draws references; best_reference (-m) draws none (a paired "
                             "test takes a seed of its own)")
        if self.smooth and self.best_reference:
            raise InputError("smooth (--smooth) gives gec-ranking's mean, std and interval over the references; "
                             "best_reference (-m) the best one: not both")
        if self.seed is not None and self.fix_seed:
            raise InputError("setting seed applies to NumPy draws; it cannot go with fix_seed=true "
                             "(gec-ranking's draws)")
        if self.fix_seed is False and self.seed is None:
            object.__setattr__(self, "seed", 0)
        object.__setattr__(self, "fix_seed", self.seed is None)

    def sampled_iterations(self, references: int | None) -> int:
        """Sampling iterations: one when there is one reference (nothing to sample)."""
        return 1 if references == 1 else self.iterations

    def sampling_fields(self, references: int | None) -> list[tuple[str, str] | str]:
        if self.best_reference:
            return [("ref", "best")]
        sampling = "py2-compatible" if self.fix_seed else f"seed-{self.seed}"
        return [("iter", str(self.sampled_iterations(references))), ("sampling", sampling)]


def refuse_smoothed_corpus(metric: Any) -> None:
    """``smooth`` changes sentence scores only: a corpus score asked with it would carry a
    ``smooth`` label and signature for the unsmoothed number (the command refuses --smooth
    without --sentence alike)."""
    if metric.settings.smooth:
        raise InputError(f"{metric.display_name}: smooth applies to sentence scores (--sentence, sentence_scores): "
                         "the corpus score is not smoothed; leave smooth out", "smooth")  # (the setting, not a file)


class GLEU(NgramMetric):
    """GLEU+ (``official``, ``official-2016`` or ``paper`` variant).

    >>> GLEU().corpus_score(sources, references, hypothesis).score   # gec-ranking's number

    ``references`` is a list of R reference sets, each a list of D sentences. The 2015 GLEU is
    its own class, :class:`~gecmetrics.metrics.gleu.gleu2015.GLEU2015` (``get_metric("gleu0")``).
    """

    name = "gleu"
    label = "GLEU+"
    python2_words = True  # (gec-ranking is Python 2: SPEC 1)
    settings_class = GLEUSettings
    positional = ("variant", "n", "unit")
    result_class = GLEUResult
    signature_order = ("variant", "n", "unit", "space", "refs", "iter", "sampling", "ref", "smooth")

    @property
    def layout(self) -> GLEULayout:
        return GLEULayout(self.settings.n)

    @property
    def statistics_width(self) -> int:
        return self.layout.width

    @property
    def lengths_swapped(self) -> bool:
        """Whether the statistics store (rlen, hlen): the 2016 code's brevity penalty."""
        return self.settings.variant == SWAPPED_LENGTHS

    # ------------------------------------------------------------------ statistics
    def text_statistics(self, encoded: EncodedCorpus, hyp: EncodedText) -> np.ndarray:
        """Shape (D, R, 2 + 4N): hlen, rlen (rlen, hlen for ``official-2016``), then match,
        penalty, numerator, denominator for orders 1..N (the official variants store the
        penalty clamped to the match, per sentence)."""
        layout = self.layout
        stats = np.zeros((encoded.size, len(encoded.references), layout.width), dtype=np.int64)
        for r, ref in enumerate(encoded.references):
            first, second = (ref.lengths, hyp.lengths) if self.lengths_swapped else (hyp.lengths, ref.lengths)
            stats[:, r, 0], stats[:, r, 1] = first, second
            for order in range(1, layout.n + 1):
                stats[:, r, 2 + order - 1::layout.n] = self._order_counts(encoded, hyp, r, order)
        return stats

    @property
    def count_statistics(self) -> bool:  # type: ignore[override]
        """The paper variant's numerators (match - penalty, unclamped) may be below 0."""
        return self.settings.variant != "paper"

    def _order_counts(self, encoded: EncodedCorpus, hyp, reference: int, order: int) -> np.ndarray:
        """(match, penalty, numerator, denominator) of one order, per sentence: shape (D, 4)."""
        t = encoded.hypothesis_triples(hyp, reference, order)  # only n-grams with eta > 0 count
        matched = np.minimum(t.rho, t.eta)
        match = t.per_sentence(matched)
        if self.settings.variant != "paper":
            # clamped per sentence: the gleu package's min(penalty, match) form
            penalty = np.minimum(t.per_sentence(np.minimum(np.where(t.rho == 0, t.sigma, 0), t.eta)), match)
        else:  # paper
            penalty = t.per_sentence(np.maximum(np.minimum(t.sigma, t.eta) - matched, 0))
        return np.stack([match, penalty, match - penalty, hyp.ngram_counts(order)], axis=1)

    def split_statistics(self, stats: np.ndarray) -> tuple[np.ndarray, ...]:
        """The statistics split into (hlen, rlen, match, penalty, numerator, denominator)."""
        return self.layout.split(stats)

    # ------------------------------------------------------------------ scores
    def score_from_sums(self, sums: np.ndarray, column: int = 0) -> np.ndarray:
        """Corpus GLEU of summed statistics (..., K) -> (...)."""
        return corpus_gleu(self.layout, sums)

    def score_from_scored_sums(self, sums: np.ndarray) -> np.ndarray:
        """:meth:`score_from_sums` of sums of the scored columns alone (``layout.scored``, in that
        order: a paired test's), the same values."""
        return corpus_gleu(ScoredLayout(self.layout.n), sums)

    def rows(self, stats: np.ndarray, column: int = 0) -> np.ndarray:
        """The rows of fixed references: the best one per sentence with ``best_reference``, the
        only one otherwise (sampled references are drawn in :meth:`score` and the resampler)."""
        if self.settings.best_reference:
            return select(stats, self.best_references(stats))
        return stats[:, 0]

    def draws(self, sentences: int, references: int) -> np.ndarray:
        """The reference index of each sentence in each sampling iteration."""
        iterations = self.settings.sampled_iterations(references)
        if self.settings.fix_seed:
            return python2_draws(iterations, sentences, references)
        return seeded_draws(iterations, sentences, references, self.settings.seed)

    def corpus_sums(self, stats: np.ndarray, column: int = 0) -> np.ndarray | CorpusSums:
        """The best reference's rows summed (``best_reference``), else the sums of every
        sampling iteration, shape (I, K), whose scores the corpus score averages."""
        size, n_refs, _ = stats.shape
        if self.settings.best_reference:
            chosen = self.best_references(stats)
            return CorpusSums(select(stats, chosen).sum(axis=0), chosen)
        iterations = self.settings.sampled_iterations(n_refs)
        if self.settings.fix_seed:
            return python2_sampled_sums(stats, iterations)
        return sampled_sums(stats, draw_blocks(iterations, size, n_refs, self.settings.seed))

    def details(self, stats: np.ndarray, sums: list[CorpusSums]) -> dict[str, Any]:
        """The per-order table (of the mean sums over the iterations), the spread of the
        iterations' scores, or the best references chosen."""
        refuse_smoothed_corpus(self)
        total = sums[0].total
        if self.settings.best_reference:
            return {**result_fields(self.layout, total, swapped=self.lengths_swapped),
                    "chosen_references": sums[0].chosen}
        scores = self.score_from_sums(total)
        mean, std = float(np.mean(scores)), float(np.std(scores))
        return {**result_fields(self.layout, total.mean(axis=0), swapped=self.lengths_swapped),
                "iterations": len(total), "std": std, "interval": (mean - Z95 * std, mean + Z95 * std)}

    # ------------------------------------------------------------------ sentences
    def sentence_keys(self, stats: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        score, per_order = sentence_keys(self.layout, stats)
        if self.lengths_swapped:
            # the 2016 code's formula on the sentence's statistics, so 0 when any is 0, as GLEU
            # 2015's: the gleu package's sentence conventions (p_n = 1 for an order without
            # n-grams) were never applied to the 2016 brevity term, which does not penalize a short
            # hypothesis; with both, an empty or one-word output scored 1.0
            score = corpus_gleu(self.layout, stats)
        return score, per_order

    def best_references(self, stats: np.ndarray) -> np.ndarray:
        """Per sentence, the reference with the highest sentence GLEU (SPEC 2.4 ties)."""
        return by_sentence_blocks(lambda rows: best_of(*self.sentence_keys(rows)), stats)

    def smoothed_scores(self, stats: np.ndarray) -> np.ndarray:
        """gec-ranking's sentence scores (--debug): zero statistics replaced by 1."""
        return self.score_from_sums(np.where(stats == 0, 1, stats))

    def sentence_from_statistics(self, stats: np.ndarray) -> GLEUSentenceScores:
        """Sentence GLEU: mean over references (max with ``best_reference``); with
        ``smooth``, gec-ranking's smoothed scores with their std over references."""
        stats = self.check_statistic_values(stats)
        per_reference, per_order = self.sentence_keys(stats)
        chosen = best_of(per_reference, per_order)
        signature = self.signature(stats.shape[1])
        if self.settings.smooth:
            per_reference = self.smoothed_scores(stats)
            return GLEUSentenceScores(per_reference.mean(axis=1), per_reference, chosen, signature,
                                      per_reference.std(axis=1))
        scores = per_reference.max(axis=1) if self.settings.best_reference else per_reference.mean(axis=1)
        return GLEUSentenceScores(scores, per_reference, chosen, signature)

    def sentence_result(self, stats: np.ndarray, sentence: int, reference: int,
                        penalty: np.ndarray | None = None) -> GLEUResult:
        """The per-order table of one sentence against one reference (verbose output);
        ``penalty``: the per-order penalties to show instead of the stored (clamped) ones."""
        result = result_of(self.layout, stats[sentence, reference], self.signature(stats.shape[1]),
                           self.settings_dict(), swapped=self.lengths_swapped)
        result.score = float(self.sentence_keys(stats[sentence, reference])[0])
        if penalty is not None:
            result.penalty = np.asarray(penalty)
        return result

    def unclamped_penalties(self, sources: Sequence[str], references: Sequence[Sequence[str]],
                            hypothesis: Sequence[str]) -> np.ndarray:
        """Shape (D, R, N): each sentence's penalty per reference and order before the clamp to
        the match (the official variants store it clamped). The gleu package's sentence tables
        (``sgleu -v``) print this one in their ``penal`` column, and the clamped one in
        ``numer``; its corpus tables sum the clamped ones."""
        encoded = self.encode(sources, references)
        hyp = encoded.hypothesis(self.check_prepared(encoded, hypothesis))
        out = np.zeros((encoded.size, len(encoded.references), self.layout.n), dtype=np.int64)
        for r in range(len(encoded.references)):
            for order in range(1, self.layout.n + 1):
                t = encoded.hypothesis_triples(hyp, r, order)
                if self.settings.variant != "paper":
                    raw = t.per_sentence(np.minimum(np.where(t.rho == 0, t.sigma, 0), t.eta))
                else:  # never clamped
                    raw = t.per_sentence(np.maximum(np.minimum(t.sigma, t.eta) - np.minimum(t.rho, t.eta), 0))
                out[:, r, order - 1] = raw
        return out

    # ------------------------------------------------------------------ description
    def signature_extra(self, references: int | None) -> list[tuple[str, str] | str]:
        """The n-gram settings, the reference count and how references are taken."""
        return [*super().signature_extra(references), *self.settings.sampling_fields(references)]

    def column_names(self) -> list[str]:
        s = self.settings
        tokens = [s.variant] if s.variant != "official" else []
        if s.best_reference:
            tokens.append("max")
        else:
            tokens.append("f" if s.fix_seed else f"s{s.seed}")
            if s.iterations != DEFAULT_ITERATIONS:
                tokens.append(f"i{s.iterations}")
        if s.smooth:
            tokens.append("smooth")
        return [" ".join([*tokens, *s.label_tokens()])]

    def paired_label(self, column: int = 0) -> str:
        """The signature's name (``GLEU+``)."""
        return self.signature_name()

    def resampler(self, column: int = 0, references: int = 1):
        """Sampled references are redrawn in every resample; fixed ones are plain rows."""
        self.check_resampler_arguments(column, references)
        if self.settings.best_reference or references == 1:
            return super().resampler(column, references)
        from .resampler import SampledGLEUResampler

        return SampledGLEUResampler(self, references)
