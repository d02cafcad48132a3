"""What every n-gram metric has: the order/unit settings (signed as ``n:4|unit:word``, with
the number of reference sets), preparation by the shared counting core (one
:class:`EncodedCorpus` per unit setting, deep enough for every metric using it), and
:meth:`NgramMetric.encode`, an encoding of plain lists that ``corpus_score(...,
prepared=)`` reuses."""
from __future__ import annotations

from abc import abstractmethod
from dataclasses import dataclass
from typing import Any, Hashable, Sequence

import numpy as np


from ..io.corpus import Corpus


from ..core.lines import check_lines
from ..errors import InputError, plural
from .base import Metric, checked_corpus
from .settings import Settings, bounded_int, choice, parse_bool, setting
from ..core.ngrams import MAX_ORDER, EncodedCorpus, EncodedText
from ..core.units import UNITS

DEFAULT_ORDER = 4


@dataclass(frozen=True)
class NgramSettings(Settings):
    """Settings shared by the n-gram metrics."""

    n: int = setting(DEFAULT_ORDER, "maximum n-gram order (at most 32)",
                     bounded_int(1, MAX_ORDER, "gecmetrics.core.ngrams.MAX_ORDER"), flags=("-n",))
    unit: str = setting("word", "units of n-grams: words (split on whitespace) or characters of the raw line",
                        choice(*UNITS), flags=("-t", "--unit"))
    normalize_space: bool = setting(False, "in char mode, collapse runs of whitespace and strip the ends first "
                                    "(the original tools count every character)", parse_bool,
                                    flags=("--normalize-space",))

    def check(self) -> None:
        """normalize_space reads characters: with words (split on whitespace already) it changed
        nothing, without a word."""
        super().check()
        if self.normalize_space and self.unit != "char":
            raise InputError("normalize_space (--normalize-space) collapses whitespace between characters: it goes "
                             "with unit char (-t char); words are split on whitespace already")

    @property
    def encoding(self) -> tuple[str, bool]:
        """Metrics with the same encoding share one :class:`EncodedCorpus`
        (``normalize_space`` matters for characters only)."""
        return (self.unit, self.normalize_space and self.unit == "char")

    def unit_fields(self) -> list[tuple[str, str] | str]:
        """The signature fields of the n-gram settings."""
        fields: list[tuple[str, str] | str] = [("n", str(self.n)), ("unit", self.unit)]
        if self.encoding[1]:
            fields.append(("space", "normalized"))
        return fields

    def label_tokens(self) -> list[str]:
        """Column-label tokens of non-default n-gram settings (``n2``, ``ns``)."""
        tokens = [f"n{self.n}"] if self.n != DEFAULT_ORDER else []
        if self.encoding[1]:
            tokens.append("ns")
        return tokens


class NgramMetric(Metric):
    """A metric computed from (sigma, rho, eta) n-gram counts of the shared core: statistics of
    shape (D, R, K) per hypothesis, reduced to scores."""

    count_statistics = True

    settings_class = NgramSettings

    @property
    def encoding(self) -> tuple[str, bool]:
        return self.settings.encoding

    def sharing_key(self) -> Hashable:
        return ("ngram",) + self.settings.encoding

    def text_unit(self) -> tuple[str, bool]:
        return (self.settings.unit, self.settings.normalize_space)

    def prepare(self, corpus: Corpus, group: Sequence[Metric] = ()) -> EncodedCorpus:
        """Encode the source and references once, to the largest order of the group (with the
        corpus's text hypotheses, counted in the same pass)."""
        corpus = checked_corpus(corpus, self.display_name)
        if not corpus.references:
            raise InputError(f"the {self.display_name} metric needs reference texts")
        order = max([self.settings.n] + [m.settings.n for m in group])
        unit, normalize = self.settings.encoding
        texts = [text for text in corpus.hypotheses.values() if text and isinstance(text[0], str)]
        return EncodedCorpus(corpus.sources, corpus.references, order, unit, normalize, hypotheses=texts)

    def references_in(self, statistics: Any) -> int:
        """Statistics of n-gram metrics are (D, R, K): R reference sets."""
        return statistics.shape[1]

    statistics_width: int | None = None
    """K of the (D, R, K) statistics, when the metric declares it (checked by the paired tests)."""

    def check_statistic_values(self, statistics: Any) -> Any:
        """As every metric's, and an array (D, R, :attr:`statistics_width`): another metric's
        statistics were scored as these (GLEU+ of GREEN's: 0.0)."""
        statistics = super().check_statistic_values(statistics)
        shape, width = np.shape(statistics), self.statistics_width
        if not isinstance(statistics, np.ndarray) or len(shape) != 3 or width is not None and shape[2] != width:
            got = f"an array of shape {shape}" if isinstance(statistics, np.ndarray) else type(statistics).__name__
            raise InputError(f"{self.display_name}: statistics must be its corpus_statistics, an array (sentences, "
                             f"reference sets, {'K' if width is None else width}), got {got}", "statistics")
        return statistics

    def check_statistics(self, statistics: Any, references: int) -> Any:
        """Statistics of shape (D, ``references``, :attr:`statistics_width`)."""
        shape = np.shape(statistics)
        width = self.statistics_width
        if len(shape) != 3 or shape[1] != references or width is not None and shape[2] != width:
            raise InputError(f"{self.display_name}: statistics of shape {shape} do not fit the resampler, which reads "
                             f"(sentences, {references}, {'K' if width is None else width}): give this metric's "
                             f"corpus_statistics, made with {plural(references, 'reference set')} as the resampler "
                             "was (metric.resampler(column, references))")
        return statistics

    def signature_extra(self, references: int | None) -> list[tuple[str, str] | str]:
        """The n-gram settings (order, unit, whitespace) and the number of reference sets."""
        return [*self.settings.unit_fields(), *super().signature_extra(references)]

    def column_title(self) -> str:
        """The header's first word, ``-char`` added for character n-grams (``GREEN-char``)."""
        return super().column_title() + ("-char" if self.settings.unit == "char" else "")

    def texts_encoded(self, prepared: EncodedCorpus) -> int:
        return prepared.encoder.calls

    def statistics(self, encoded: EncodedCorpus, hypothesis: Sequence[str]) -> np.ndarray:
        """Per-sentence statistics (D, R, K): :meth:`text_statistics` of the hypothesis's
        encoded text, a sentence left as its source line taking the source's row (computed once
        per corpus and settings: :meth:`EncodedCorpus.sentence_statistics`)."""
        lines = self.check_prepared(encoded, hypothesis)
        return encoded.sentence_statistics((type(self), self.settings), lines,
                                           lambda text: self.text_statistics(encoded, text))

    @abstractmethod
    def text_statistics(self, encoded: EncodedCorpus, hyp: EncodedText) -> np.ndarray:
        """The statistics of an encoded hypothesis text, shape (D, R, K); each sentence's row
        depends on that sentence's lines only."""

    def check_prepared(self, encoded: EncodedCorpus, hypothesis: Sequence[str]) -> list[str]:
        """The hypothesis's lines, checked against an encoded corpus this metric can use."""
        self.check_prepared_kind(encoded, EncodedCorpus)
        if encoded.max_order < self.settings.n or (encoded.encoder.unit, encoded.encoder.normalize_space) \
                != self.settings.encoding:
            raise InputError(f"{self.display_name}: prepared was encoded for another unit or n-gram order "
                             "(another metric's prepare())", "prepared")
        lines = check_lines(hypothesis, "the hypothesis")
        if len(lines) != encoded.size:
            raise InputError(f"the hypothesis has {plural(len(lines), 'sentence')} but the source has {encoded.size}")
        return lines

    # ------------------------------------------------------------------ conveniences
    def encode(self, sources: Sequence[str], references: Sequence[Sequence[str]]) -> EncodedCorpus:
        """Encode a source and its references: ``prepare`` of plain lists (an encoding that
        ``corpus_score(..., prepared=)`` reuses for several hypotheses)."""
        return self.prepare(Corpus(sources, references))
