"""The registered model-based metrics ``some``, ``impara``, ``scribendi`` and ``bertscore`` on
the metric protocol: every command, ``compare``, paired tests, meta-evaluation and the API run
them as any built-in metric.

SOME, IMPARA and the Scribendi Score are reference-free (``reference_kind = NONE``): a corpus
needs its sources and hypotheses only; BERTScore reads reference texts. Each is computed by its
scorer (:class:`~.some.SOMEScorer`, :class:`~.impara.IMPARAScorer`, the perplexities of
:class:`~gecmetrics.core.models.causal_lm.Perplexities` with :mod:`.scribendi`'s rules,
:class:`~.bertscore.BertScoreModel`; equal to the original code), and:

* the scorer (its loaded models and tokenizer) is kept once per process and model setting
  (:func:`shared_scorer`), never pickled: a worker loads its own; metrics that differ only in
  what is applied after the models (SOME's weights, IMPARA's threshold, the batch size) share
  one scorer and one ``prepare`` (their sharing key is the scorer's);
* ``prepare(corpus)`` runs the models on every hypothesis of the corpus (or chunk) at once, so
  a sentence or (source, hypothesis) pair that several systems share is scored once, through
  the run's persistent cache (``self.run_context.cache``, the engine's): model outputs are stored
  per model weights fingerprint, dtype and exact model input, so a re-run or a new system costs
  only its new sentences;
* ``statistics`` gives per sentence the row (score, 1) (IMPARA: (score, 1, gated)), whose sums
  give the mean of the sentence scores, the originals' corpus score; the Scribendi Score's row
  is its value (-1, 0 or +1), whose sum is the corpus score; BERTScore's statistics keep the
  token similarities of each (sentence, reference) pair and the references' document
  frequencies, and read as rows (P, R, F, 1) computed with the idf weights of the whole corpus
  (:class:`~.bertscore.BertScoreStatistics`), so that chunks give bert_score's numbers.

Signatures name each model with its weights fingerprint and its config's digest
(``grammar:grammer@1a2b3c4d5e6f/config-9a8b7c6d``: the first 12 hex digits of the SHA-256 over
the weights' names, shapes and float32 values, and the first 8 of config.json's: the same
weights under a config naming fewer layers compute other numbers), and the settings that
change a number; device, batch size and threads change only float rounding and
are left out. The Scribendi Score and BERTScore also name the torch and transformers versions
(the tokenizers and the float arithmetic). The models and tokenizers are loaded on first use:
their identities are read back from the persistent cache once a run has loaded them
(:class:`~gecmetrics.core.models.inference.ModelOnUse`,
:class:`~gecmetrics.core.models.causal_lm.CausalLMOnUse`,
:class:`~.bertscore.BertScoreEncoder`), so a warm run neither loads them nor imports torch.
"""
from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from typing import Any, Callable, Hashable, Iterator, Sequence

import numpy as np

from ...core.models.runtime import DTYPES
from ...core.table import number_label
from ...errors import InputError, LineRefused, kind_of
from ...io.corpus import Corpus
from ...kinds import NONE, TEXT
from ..base import Metric, checked_corpus, truncation_note
from ..results import CorpusSums, ScoreResult, shown_score
from ..settings import (Settings, batch_size_setting, choice, device_setting, parse_bool, parse_float, parse_floats,
                        parse_int, positive_int, setting, setting_label, signature_value, threads_setting, when_set)


SOME_HEAD_FOLDERS = {"grammar": ("grammer", "grammar"), "fluency": ("fluency",), "meaning": ("meaning",)}
"""Where each SOME head lies in the authors' ``gfm-models`` folder (``grammer`` sic; ``grammar`` too)."""


# ----------------------------------------------------------------------------- settings


def parse_model(name: str, value: Any) -> str:
    """A model: a hub name or a folder (non-empty text; '/' is part of it)."""
    if not isinstance(value, str) or not value.strip():
        raise InputError(f"{setting_label(name)} must be a model name or a folder, got {value!r}")
    return value.strip()


def parse_optional_model(name: str, value: Any) -> str | None:
    """A model name or folder, or None (``none``, empty): the metric's default."""
    if value is None or (isinstance(value, str) and value.strip().lower() in ("", "none", "auto")):
        return None
    return parse_model(name, value)


parse_model.reads_slashes = parse_optional_model.reads_slashes = True  # type: ignore[attr-defined]

def parse_max_length(name: str, value: Any) -> int:
    """The longest model input in tokens: room for ``[CLS] a [SEP] b [SEP]`` at least."""
    number = positive_int(name, value)
    if number < 4:
        raise InputError(f"{setting_label(name)} must be at least 4 (the special tokens and one token per text), "
                         f"got {number}")
    return number


def parse_some_weights(name: str, value: Any) -> tuple[float, float, float]:
    """SOME's weights of the grammar, fluency and meaning ratings: three finite numbers
    (``0.55/0.43/0.02``)."""
    from .some import check_weights

    grammar, fluency, meaning = check_weights(parse_floats(name, value), setting_label(name), value)
    return grammar, fluency, meaning


parse_some_weights.takes_several = True  # type: ignore[attr-defined]


def parse_threshold(name: str, value: Any) -> float:
    """A threshold: a finite number."""
    number = parse_float(name, value)
    if not np.isfinite(number):
        raise InputError(f"{setting_label(name)} must be a finite number, got {value!r}")
    return number


def parse_gate(name: str, value: Any) -> float | None:
    """IMPARA's similarity threshold: a finite number below 1 (a cosine similarity is at most 1;
    impara.py's float32 cosine of equal sentences rounds to either side of 1, so its scores at 1
    or more count rounding), or ``none`` (None): no similarity gate, as IMPARA-GED runs
    (gec-metrics' ``threshold=-999.0``, accepted too)."""
    if value is None or (isinstance(value, str) and value.strip().lower() in ("none", "off")):
        return None
    from .impara import check_threshold

    return check_threshold(parse_threshold(name, value), setting_label(name), value)


def parse_ratio_threshold(name: str, value: Any) -> float:
    """Scribendi's threshold on a ratio of 0 to 1 (above 1 no sentence passes)."""
    from .scribendi import check_threshold

    return check_threshold(parse_threshold(name, value), setting_label(name), value)


def parse_pooling(name: str, value: Any) -> str | None:
    """How a quality estimator whose classifier has the choice pools: ``cls``, ``mean``, or
    ``model`` / ``none`` (None): as the model's config says."""
    if value is None or (isinstance(value, str) and value.strip().lower() in ("", "none", "model")):
        return None
    return choice("cls", "mean")(name, value.strip().lower() if isinstance(value, str) else value)


def parse_layer(name: str, value: Any) -> int | None:
    """A layer number (>= 0), or None (``auto``, ``none``, empty): BERTScore's default for the model."""
    if value is None or (isinstance(value, str) and value.strip().lower() in ("", "none", "auto")):
        return None
    return parse_int(name, value, 0)


def parse_baseline(name: str, value: Any) -> str:
    """BERTScore's rescaling: ``none``, ``auto``, a model name with a built-in table, or a
    bert_score baseline file (non-empty text; '/' is part of a path)."""
    if not isinstance(value, str) or not value.strip():
        raise InputError(f"{setting_label(name)} must be none, auto, a model name or a baseline file, got {value!r}")
    text = value.strip()
    return text.lower() if text.lower() in ("none", "auto") else text


parse_baseline.reads_slashes = True  # type: ignore[attr-defined]


# ----------------------------------------------------------------------------- settings every model metric has


def dtype_setting() -> Any:
    return setting("float32", "model metrics: float32, float16 or bfloat16 (changes the numbers a little)",
                   choice(*DTYPES), signature="dtype", flags=("--dtype",))


def max_length_setting() -> Any:
    return setting(128, "SOME/IMPARA: longest model input in tokens, longer ones cut (the originals: 128)",
                   parse_max_length,
                   ("max_len",), signature="max_len", flags=("--max-length",))


@dataclass(frozen=True)
class SOMESettings(Settings):
    """SOME's models, tokenizer and weights (what changes a number), then how it runs."""

    model: str | None = setting(None, "SOME: the authors' gfm-models folder (subfolders grammer, fluency, "
                                "meaning); needed unless each of the three regressors is given",
                                parse_optional_model, ("models", "gfm_models"), flags=("--model",))
    grammar_model: str | None = setting(None, "SOME: grammaticality regressor, name or folder (default: MODEL/grammer)",
                                        parse_optional_model, ("g_dir",), flags=("--grammar-model",))
    fluency_model: str | None = setting(None, "SOME: fluency regressor, name or folder (default: MODEL/fluency)",
                                        parse_optional_model, ("f_dir",), flags=("--fluency-model",))
    meaning_model: str | None = setting(None, "SOME: meaning regressor, name or folder (default: MODEL/meaning)",
                                        parse_optional_model, ("m_dir",), flags=("--meaning-model",))
    tokenizer: str = setting("bert-base-cased", "SOME: the tokenizer, name or folder (some.py: bert-base-cased)",
                             parse_model, flags=("--tokenizer",))
    weights: tuple[float, float, float] = setting((0.55, 0.43, 0.02), "SOME: weights of grammar/fluency/meaning",
                                                  parse_some_weights, signature="weights", flags=("--weights",))
    max_length: int = max_length_setting()
    dtype: str = dtype_setting()
    batch_size: int = batch_size_setting(64)
    device: str | None = device_setting()
    threads: int = threads_setting(0)

    def heads(self) -> dict[str, str]:
        """Head -> model name or folder: the head's own setting, else its subfolder of ``model``."""
        heads = {}
        for head, folders in SOME_HEAD_FOLDERS.items():
            given = getattr(self, f"{head}_model")
            if given is None and self.model is not None:
                base = os.path.expanduser(self.model)
                if not os.path.isdir(base):
                    raise InputError(f"setting model: SOME's model is the folder of its three models (grammer, "
                                     f"fluency, meaning), and {self.model!r} is not a folder; give hub models one "
                                     "by one (grammar_model, fluency_model, meaning_model)")
                found = [os.path.join(base, folder) for folder in folders if os.path.isdir(os.path.join(base, folder))]
                if not found:
                    raise InputError(f"setting model: no {folders[0]!r} folder in {self.model} (SOME's models are "
                                     "MODEL/grammer, MODEL/fluency and MODEL/meaning)")
                given = found[0]
            if given is None:
                raise InputError("SOME needs its three models: model=FOLDER (the authors' gfm-models: grammer, "
                                 "fluency, meaning) or grammar_model=, fluency_model=, meaning_model= (command line: "
                                 "--model, or --grammar-model/--fluency-model/--meaning-model)")
            heads[head] = given
        return heads


@dataclass(frozen=True)
class IMPARASettings(Settings):
    """IMPARA's models, tokenizer and threshold, then how it runs."""

    model: str = setting("gotutiyan/IMPARA-QE", "IMPARA: the quality estimator, name or folder", parse_model,
                         ("qe_model", "qe", "restore_dir"), flags=("--model",))
    se_model: str = setting("bert-base-cased", "IMPARA: the similarity encoder, name or folder", parse_model,
                            ("se",), flags=("--se-model",))
    tokenizer: str | None = setting(None, "IMPARA: the tokenizer of both models (default: the quality estimator's)",
                                    parse_optional_model, flags=("--tokenizer",))
    threshold: float | None = setting(0.9, "IMPARA: a hypothesis whose similarity to its source is not above this "
                                      "scores 0 (none: no similarity gate and no similarity model, as IMPARA-GED)",
                                      parse_gate, ("t",), signature="threshold", flags=("--threshold",))
    pooling: str | None = setting(None, "IMPARA: how the quality estimator's classifier pools, when it has the choice "
                                  "(ModernBERT): cls or mean (IMPARA-GED: mean); none: as its config says",
                                  parse_pooling, signature="pooling", flags=("--pooling",), shown=when_set)
    max_length: int = max_length_setting()
    dtype: str = dtype_setting()
    batch_size: int = batch_size_setting(32)
    device: str | None = device_setting()
    threads: int = threads_setting(0)


@dataclass(frozen=True)
class ScribendiSettings(Settings):
    """The Scribendi Score's language model and decision rule, then how it runs."""

    model: str = setting("gpt2", "Scribendi: the causal LM of the perplexities, name or folder (scribendi.py: gpt2)",
                         parse_model, ("model_id",), flags=("--model",))
    threshold: float = setting(0.8, "Scribendi: a changed sentence scores +1 when its perplexity fell and "
                               "max(token sort ratio, Levenshtein ratio) is at least this, else -1",
                               parse_ratio_threshold, ("t",),
                               signature="threshold", flags=("--threshold",))
    token_sort: str = setting("difflib", "Scribendi: the token sort ratio's matcher: difflib (the original's "
                              "fuzzywuzzy) or levenshtein (gec-metrics', with python-Levenshtein)",
                              choice("difflib", "levenshtein"), ("matcher",), signature="token_sort",
                              flags=("--token-sort",))
    dtype: str = dtype_setting()
    batch_size: int = batch_size_setting(32)
    device: str | None = device_setting()
    threads: int = threads_setting(1)


@dataclass(frozen=True)
class BERTScoreSettings(Settings):
    """BERTScore's encoder, layer, idf and baseline, then how it runs."""

    model: str = setting("bert-base-uncased", "BERTScore: the encoder, name or folder", parse_model,
                         ("model_type",), flags=("--model",))
    num_layers: int | None = setting(None, "BERTScore: the layer whose output is used (auto: bert_score's default "
                                     "for the model name, 9 for bert-base-uncased; a folder must say)", parse_layer,
                                     ("layer",), flags=("--layer",))
    idf: bool = setting(False, "BERTScore: weight tokens by their idf over the corpus's references (bert_score --idf)",
                        parse_bool, signature="idf", flags=("--idf",))
    baseline: str = setting("none", "BERTScore: rescaling: none (bert_score's default), auto (the model's English "
                            "baseline), a model name with a built-in table (bert-base-uncased) or a bert_score "
                            "baseline file", parse_baseline, flags=("--baseline",))
    dtype: str = dtype_setting()
    batch_size: int = batch_size_setting(64)
    device: str | None = device_setting()
    threads: int = threads_setting(1)


# ----------------------------------------------------------------------------- one scorer per process

_LOCK = threading.RLock()
SCORERS = "model-scorer"
"""The kind of the model scorers in a :class:`~gecmetrics.core.context.Resources` store."""


def shared_scorer(key: tuple, make: Callable[[], Any], resources: Any = None) -> Any:
    """The scorer of ``key`` (its models and tokenizer), made once per process and kept in
    ``resources`` (a run's store, else the process's): every chunk, system and metric with the
    same models uses it."""
    from ...core.context import loaded

    return loaded((SCORERS, *key), make, resources)


def release_scorers() -> None:
    """Forget the loaded models of this process (freed once nothing else holds them)."""
    from ...core.context import process_resources

    process_resources().drop(SCORERS)


# ----------------------------------------------------------------------------- prepared corpus


class ModelPrepared:
    """What the models gave for every hypothesis of one corpus (or chunk): per system the parts
    a metric's statistics are made from (SOME: the three ratings; IMPARA: similarity and
    quality), found by the identity of the system's lines; other lines are scored on demand
    (``score``) against the same sources. ``computed``: model inputs run (cache hits not
    counted); ``truncated``: what the metric's ``truncated_inputs`` says of the inputs cut to the
    maximum length (None: nothing)."""

    def __init__(self, sources: list[str], systems: list[Sequence[str]], parts: list[Any], computed: int,
                 score: Callable[[list[str], list[Sequence[str]]], list[Any]], key: Hashable,
                 truncated: Any = None) -> None:
        self.sources, self.systems, self.parts, self.computed = sources, systems, parts, computed
        self.truncated = truncated
        self._score, self.key = score, key
        self._index = {id(lines): k for k, lines in enumerate(systems)}

    def parts_of(self, hypothesis: Sequence[str]) -> Any:
        k = self._index.get(id(hypothesis))
        if k is not None and self.systems[k] is hypothesis:
            return self.parts[k]
        return self._score(self.sources, [hypothesis])[0]

    def __getstate__(self) -> dict[str, Any]:  # the scoring function holds a loaded model: not sent anywhere
        return {**self.__dict__, "_score": None}


# ----------------------------------------------------------------------------- the metrics


def library_versions() -> list[tuple[str, str]]:
    """The torch and transformers versions, for signatures (the tokenizers and the float
    arithmetic they bring can change a number), read from their metadata (without importing them)."""
    from ...core.models.token_ids import installed_version

    return [("torch", installed_version("torch").split("+")[0]), ("transformers", installed_version("transformers"))]


class ModelMetric(Metric):
    """What the model-based metrics share (see the module docstring)."""

    hypothesis_kind = TEXT
    reference_kind = NONE
    scale = 1.0
    higher_is_better = True
    has_sentence_scores = True
    chunk_lines = 250  # model inference is slow: progress moves, -p N workers share the lines
    truncates = False
    """Whether inputs longer than the ``max_length`` setting are cut, as the original does
    (SOME, IMPARA): the scorer counts them (``systems_truncated``) and a run says how many."""
    statistics_width = 2
    """K of the (D, K) statistics rows :meth:`statistics` makes (checked by :meth:`score` and the paired tests)."""
    finite_statistics = True  # (BERTScore's idf 0/0 is nan, and said later)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.truncates:  # a --max-length beyond the models' positions: refused now, not at the first long line
            from ...core.models.loading import check_positions

            check_positions(self.model_settings(), self.settings.max_length)

    def model_settings(self) -> dict[str, str]:
        """What names each model the ``max_length`` setting feeds -> its name or folder (those
        that can be known from the settings alone)."""
        return {}

    def check_statistic_values(self, statistics: Any) -> Any:
        """As every metric's, and rows (D, :attr:`statistics_width`) of numbers, those of a list
        (or BERTScore's statistics) checked as an array's: a list [1, 2] scored Scribendi 3.0."""
        statistics = super().check_statistic_values(statistics)
        rows = np.asarray(statistics)
        if rows.ndim != 2 or rows.shape[1] != self.statistics_width or rows.dtype.kind not in "iuf":
            raise InputError(f"{self.display_name}: statistics must be what statistics() returned, rows (sentences, "
                             f"{self.statistics_width}) of numbers, got {kind_of(statistics)} of shape {rows.shape}",
                             "statistics")
        if not isinstance(statistics, np.ndarray):
            super().check_statistic_values(rows)
        return statistics

    # ------------------------------------------------------------------ written per metric
    def scorer_key(self) -> tuple:
        """What decides the scorer (models, tokenizer, maximum length, device, dtype)."""
        raise NotImplementedError

    def make_scorer(self) -> Any:
        raise NotImplementedError

    def loaded_models(self, scorer: Any) -> dict[str, Any]:
        """Signature key -> :class:`~gecmetrics.core.models.inference.LoadedModel`."""
        raise NotImplementedError

    def score_systems(self, scorer: Any, sources: list[str], systems: list[Sequence[str]],
                      group: Sequence[Metric]) -> list[Any]:
        """The parts of every system (computed together: each distinct input once) against
        ``sources``, what :meth:`context` took from the corpus."""
        raise NotImplementedError

    def context(self, corpus: Corpus) -> list[Any]:
        """What every system is scored against: the sources (a metric reading references
        overrides this)."""
        return list(corpus.sources)

    # ------------------------------------------------------------------ shared
    def scorer(self) -> Any:
        """The loaded scorer of these settings (once per process)."""
        return shared_scorer(self.scorer_key(), self.make_scorer, self.run_context.resources)

    def sharing_key(self) -> Hashable:
        return self.scorer_key()

    def set_threads(self, scorer: Any) -> None:
        """torch's threads for the scorer's work (0: left as they are): the scorer sets them
        whenever it uses a model (a warm run never loads one)."""
        scorer.threads = self.settings.threads

    def prepare(self, corpus: Corpus, group: Sequence[Metric] = ()) -> ModelPrepared:
        """Run the models on every hypothesis of the corpus at once (each distinct sentence or
        pair once, cached outputs read from the run's persistent cache)."""
        corpus = checked_corpus(corpus, self.label)
        if not corpus.hypotheses:
            raise InputError(f"{self.label} needs at least one hypothesis")
        sources = self.context(corpus)
        systems = [corpus.hypothesis(name, TEXT, self.display_name) for name in corpus.hypotheses]
        scorer, cache = self.scorer(), self.run_context.cache
        self.set_threads(scorer)
        with _LOCK:  # one scorer, one chunk at a time (threads of one process share it)
            scorer.forget()
            scorer.cache = cache  # the run's: the scorer is shared by every run of the process
            scorer.batch_size = self.settings.batch_size
            before = scorer.computed
            from ...core.models.causal_lm import TextTooLong  # (here: what the module imports is the models')

            try:
                parts = self.score_systems(scorer, sources, systems, group)
            except TextTooLong as err:  # the first line that holds the text (it was a sentence, somewhere)
                raise err.located(_corpus_lines(corpus, sources, systems)) from None
            computed = scorer.computed - before
            truncated = self.truncated_inputs(scorer, sources, systems, corpus)

        def score(sources: list[str], hypotheses: list[Sequence[str]]) -> list[Any]:
            with _LOCK:
                scorer.cache = cache
                return self.score_systems(scorer, sources, [list(h) for h in hypotheses], group)

        return ModelPrepared(sources, systems, parts, computed, score, self.sharing_key(), truncated)

    def truncated_inputs(self, scorer: Any, context: list[Any], systems: list[Sequence[str]], corpus: Corpus) -> Any:
        """What the chunk's inputs cut to the maximum length were, for :meth:`notes` (None:
        nothing to say): (truncated inputs, inputs) of a metric that ``truncates``."""
        return (scorer.systems_truncated(context, systems), len(context) * len(systems)) if self.truncates else None

    def observation(self, prepared: Any) -> Any:
        """The chunk's :meth:`truncated_inputs`, for :meth:`notes`."""
        return prepared.truncated if isinstance(prepared, ModelPrepared) else None

    def notes(self, observations: Sequence[Any]) -> list[str]:
        """One line when some input was longer than ``max_length`` tokens and cut, as the
        original cuts it: the number stays the original's, but the user learns that some
        sentences were scored cut."""
        seen = [observed for observed in observations if observed is not None]
        cut, total = sum(observed[0] for observed in seen), sum(observed[1] for observed in seen)
        if not cut:
            return []
        return [f"gecmetric: note: {self.label}: {cut:,} of {total:,} inputs longer than "
                f"{self.settings.max_length} tokens were truncated, as the original does"]

    def _checked(self, prepared: Any) -> ModelPrepared:
        self.check_prepared_kind(prepared, ModelPrepared)
        if prepared.key != self.sharing_key():
            raise InputError(f"{self.label}: this corpus was prepared with other model settings")
        return prepared

    def score_from_sums(self, sums: Any, column: int = 0) -> Any:
        """The mean sentence score of summed rows (..., K): sums[..., 0] / sums[..., 1]."""
        sums = np.asarray(sums, dtype=np.float64)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(sums[..., 1] > 0, sums[..., 0] / np.where(sums[..., 1] > 0, sums[..., 1], 1), np.nan)

    def texts_encoded(self, prepared: Any) -> int:
        """Model inputs run while preparing (those read from the cache not counted)."""
        return prepared.computed if isinstance(prepared, ModelPrepared) else 0

    def identity_fields(self, scorer: Any) -> list[tuple[str, str]]:
        """The models' identities for the signature: each model (:meth:`loaded_models`) as
        :func:`~gecmetrics.core.models.loading.signed_model` names it (read back from the cache
        where a load stored them, else found by loading the models), and the tokenizer where the
        metric has one, with its files' digest (:func:`~gecmetrics.core.models.loading.signed_tokenizer`)."""
        from ...core.models.loading import signed_model, signed_tokenizer

        fields = [(key, signed_model(loaded.name, loaded.fingerprint, loaded.config))
                  for key, loaded in self.loaded_models(scorer).items()]
        if hasattr(self.settings, "tokenizer"):
            fields.append(("tokenizer", signed_tokenizer(scorer.tokenizer_name, scorer.encoder.source)))
        return fields

    def run_departures(self) -> list[str]:
        """The column label's words for what every model metric may set that changes its numbers:
        a maximum input length other than the default (``max_len256``), a dtype other than
        float32 (``float16``): two columns that differ only there are told apart by their labels,
        not numbered (``SOME``, ``SOME (2)``)."""
        s = self.settings
        words = []
        default = type(s).__dataclass_fields__["max_length"].default if hasattr(s, "max_length") else None
        if default is not None and s.max_length != default:
            words.append(f"max_len{s.max_length}")
        if s.dtype != "float32":
            words.append(s.dtype)
        return words

    def signature_extra(self, references: int | None) -> list[tuple[str, str] | str]:
        """The models' identities (placed by :attr:`signature_order`), the reference count (a
        metric with reference texts), the torch and transformers versions, and ``cache:on``
        when outputs may come from the cache."""
        scorer = self.scorer()
        with _LOCK:
            scorer.cache = self.run_context.cache  # where the models' identities are read back
            identities = self.identity_fields(scorer)
        return [*identities, *super().signature_extra(references), *library_versions(),
                *self.run_context.signature_fields()]


class SOME(ModelMetric):
    """SOME (Yoshimura et al., COLING 2020): BERT regressors of grammar, fluency, meaning, weighted; sentence mean."""

    name = "some"
    label = "SOME"
    settings_class = SOMESettings
    truncates = True
    positional = ("model",)
    signature_order = ("grammar", "fluency", "meaning", "tokenizer")

    def model_settings(self) -> dict[str, str]:
        """The three heads (none when they are not all given: the run refuses that)."""
        try:
            return self.settings.heads()
        except InputError:
            return {}

    def scorer_key(self) -> tuple:
        s = self.settings
        heads = s.heads()
        return ("SOME", heads["grammar"], heads["fluency"], heads["meaning"], s.tokenizer, s.max_length, s.device,
                s.dtype)

    def make_scorer(self) -> Any:
        from .some import SOMEScorer

        s = self.settings
        heads = s.heads()
        return SOMEScorer(heads["grammar"], heads["fluency"], heads["meaning"], tokenizer=s.tokenizer,
                          max_length=s.max_length, batch_size=s.batch_size, device=s.device, dtype=s.dtype, lazy=True)

    def loaded_models(self, scorer: Any) -> dict[str, Any]:
        return dict(scorer.models)

    def score_systems(self, scorer: Any, sources: list[str], systems: list[Sequence[str]],
                      group: Sequence[Metric]) -> list[Any]:
        return scorer.systems_ratings(sources, systems)

    def statistics(self, prepared: Any, hypothesis: Sequence[str]) -> np.ndarray:
        """(D, 2) float64 rows: the sentence's SOME and a 1."""
        from .some import SomeWeights, combine

        ratings = self._checked(prepared).parts_of(hypothesis)
        scores = combine(ratings["grammar"], ratings["fluency"], ratings["meaning"],
                         SomeWeights(*self.settings.weights))
        return np.column_stack([scores, np.ones(len(scores))])

    def column_names(self) -> list[str]:
        """After ``SOME``: other weights (``w0.2/0.3/0.5``), then :meth:`run_departures`."""
        weights = self.settings.weights
        default = SOMESettings.__dataclass_fields__["weights"].default
        names = [] if weights == default else [f"w{'/'.join(map(number_label, weights))}"]
        names += self.run_departures()
        return [" ".join(names)] if names else []


class IMPARA(ModelMetric):
    """IMPARA (Maeda et al., COLING 2022): a BERT quality estimate, 0 unless similar to the source; sentence mean."""

    name = "impara"
    label = "IMPARA"
    settings_class = IMPARASettings
    statistics_width = 3  # (score, 1, gated)
    truncates = True
    positional = ("model",)
    signature_order = ("qe", "se", "tokenizer")

    def model_settings(self) -> dict[str, str]:
        """The quality estimator, and the similarity encoder when there is a gate."""
        s = self.settings
        return {"qe": s.model, **({"se": s.se_model} if s.threshold is not None else {})}

    def scorer_key(self) -> tuple:
        """The models, tokenizer, maximum length, device and dtype; whether there is a similarity
        gate (without one no similarity model is loaded) and the quality estimator's pooling."""
        s = self.settings
        gated = s.threshold is not None
        return ("IMPARA", s.model, s.se_model if gated else None, s.tokenizer, s.max_length, s.device, s.dtype,
                gated, s.pooling)

    def make_scorer(self) -> Any:
        from .impara import IMPARAScorer

        s = self.settings
        return IMPARAScorer(s.model, s.se_model, tokenizer=s.tokenizer, threshold=s.threshold, pooling=s.pooling,
                            max_length=s.max_length, batch_size=s.batch_size, device=s.device, dtype=s.dtype,
                            lazy=True)

    def loaded_models(self, scorer: Any) -> dict[str, Any]:
        return {"qe": scorer.qe, **({"se": scorer.se} if scorer.se is not None else {})}

    def score_systems(self, scorer: Any, sources: list[str], systems: list[Sequence[str]],
                      group: Sequence[Metric]) -> list[Any]:
        """Similarities, and qualities where the lowest threshold of the group is passed (the
        group shares the scorer, so its metrics are all gated or all ungated)."""
        thresholds = [self.settings.threshold, *(m.settings.threshold for m in group if isinstance(m, IMPARA))]
        gated = [threshold for threshold in thresholds if threshold is not None]
        return scorer.systems_parts(sources, systems, min(gated) if gated else None)

    def statistics(self, prepared: Any, hypothesis: Sequence[str]) -> np.ndarray:
        """(D, 3) float64 rows: the sentence's IMPARA, a 1, and 1 if the similarity gate zeroed it."""
        from .impara import gated_scores, passes

        similarity, logits = self._checked(prepared).parts_of(hypothesis)
        threshold = self.settings.threshold
        scores = gated_scores(similarity, logits, threshold)
        return np.column_stack([scores, np.ones(len(scores)), ~passes(similarity, threshold)]).astype(np.float64)

    def details(self, statistics: Any, sums: list[CorpusSums]) -> dict[str, Any]:
        """How many sentences the similarity gate zeroed."""
        return {"gated": int(round(float(np.asarray(sums[0].total)[2])))}

    def column_names(self) -> list[str]:
        """After ``IMPARA``: the pooling when it is set, ``t0.95`` for another threshold
        (``ungated`` for none): ``IMPARA mean ungated`` is IMPARA-GED's settings."""
        s = self.settings
        names = [s.pooling] if s.pooling else []
        if s.threshold is None:
            names.append("ungated")
        elif s.threshold != IMPARASettings.__dataclass_fields__["threshold"].default:
            names.append(f"t{signature_value(s.threshold)}")
        names += self.run_departures()
        return [" ".join(names)] if names else []  # one column

    def identity_fields(self, scorer: Any) -> list[tuple[str, str]]:
        """As every model metric's; without a gate the similarity model is ``se:none`` (not loaded)."""
        fields = super().identity_fields(scorer)
        return fields if scorer.se is not None else [*fields[:1], ("se", "none"), *fields[1:]]


def _zero_recall_reference(statistics: Any, sentence: int) -> str | None:
    """The name of the first reference set whose recall at ``sentence`` is 0/0 (its tokens all
    weigh 0), or None when the statistics do not say (an array, no names kept)."""
    names = getattr(statistics, "reference_names", ())
    if not names:
        return None
    recall = statistics.matches.pair_prf(statistics.idf)[sentence, :, 1]
    undefined = np.flatnonzero(np.isnan(recall))
    return names[int(undefined[0])] if len(undefined) and int(undefined[0]) < len(names) else None


def _corpus_lines(corpus: Corpus, sources: list[Any], systems: list[Sequence[str]]) -> Iterator[tuple[str, int, str]]:
    """(file, line number in the whole corpus, text as the models read it: ``rstrip()``) of the
    chunk's sources, then of each system's lines."""
    rows = corpus.sentence_rows()
    for name, lines in [(corpus.name("source"), sources), *zip(corpus.hypotheses, systems)]:
        for row, text in zip(rows, lines):
            if isinstance(text, str):
                yield name, row + 1, text.rstrip()


class Scribendi(ModelMetric):
    """Scribendi Score (Islam and Magnani, EMNLP 2021): +1/-1 per changed sentence from LM perplexity and
    similarity; corpus sum."""

    name = "scribendi"
    label = "Scribendi"
    settings_class = ScribendiSettings
    statistics_width = 1  # the sentence's value
    positional = ("model",)
    fraction = False
    signature_order = ("model", "tokenizer")

    def scorer_key(self) -> tuple:
        s = self.settings
        return ("Scribendi", s.model, s.device, s.dtype)

    def make_scorer(self) -> Any:
        from ...core.models.causal_lm import CausalLMOnUse, Perplexities
        from ...core.models.runtime import check_installed

        s = self.settings
        check_installed()
        lm = CausalLMOnUse(s.model, device=s.device, dtype=s.dtype)
        scorer = Perplexities(lm, batch_size=s.batch_size)
        lm.owner = scorer  # its cache and threads
        return scorer

    def loaded_models(self, scorer: Any) -> dict[str, Any]:
        return {"model": scorer.lm}

    def identity_fields(self, scorer: Any) -> list[tuple[str, str]]:
        """The model's, and its tokenizer's (read from the model's folder) with its files' digest."""
        from ...core.models.loading import signed_tokenizer

        return [*super().identity_fields(scorer), ("tokenizer", signed_tokenizer(scorer.lm.name, scorer.lm.source))]

    def score_systems(self, scorer: Any, sources: list[str], systems: list[Sequence[str]],
                      group: Sequence[Metric]) -> list[Any]:
        """Per system, the (source, hypothesis) perplexities of each changed line, (D, 2)
        float64 (0 on unchanged lines, which are never scored): the perplexity of every
        distinct text of the changed pairs of all systems, computed once. Lines are compared
        and scored as the original reads them (``rstrip()``)."""
        from ...core.models.inference import check_parallel

        checked = [check_parallel(sources, hypotheses)[1] for hypotheses in systems]
        stripped = [text.rstrip() for text in sources]
        pairs = [[(s, h.rstrip()) for s, h in zip(stripped, hypotheses)] for hypotheses in checked]
        texts = list(dict.fromkeys(text for system in pairs for s, h in system if s != h for text in (s, h)))
        perplexity = dict(zip(texts, scorer(texts))) if texts else {}
        return [np.array([(perplexity[s], perplexity[h]) if s != h else (0.0, 0.0) for s, h in system],
                         dtype=np.float64).reshape(-1, 2) for system in pairs]

    def statistics(self, prepared: Any, hypothesis: Sequence[str]) -> np.ndarray:
        """(D, 1) int64 rows: each sentence's value, -1, 0 (unchanged) or +1."""
        from .scribendi import sentence_value

        prepared = self._checked(prepared)
        perplexities = prepared.parts_of(hypothesis)
        s = self.settings
        values = np.zeros(len(prepared.sources), dtype=np.int64)
        for d, (source, line) in enumerate(zip(prepared.sources, hypothesis)):
            source, line = source.rstrip(), line.rstrip()
            if source != line:
                values[d] = sentence_value(source, line, perplexities[d, 0], perplexities[d, 1], s.threshold,
                                           s.token_sort)
        return values.reshape(-1, 1)

    def score_from_sums(self, sums: Any, column: int = 0) -> Any:
        """The sum of the sentence values (a sentence's own row: its value)."""
        return np.asarray(sums, dtype=np.float64)[..., 0]

    def details(self, statistics: Any, sums: list[CorpusSums]) -> dict[str, Any]:
        """How many sentences scored +1 and -1 (the rest are unchanged, 0)."""
        values = np.asarray(statistics).reshape(-1)
        return {"improved": int((values > 0).sum()), "worsened": int((values < 0).sum())}

    def column_names(self) -> list[str]:
        s = self.settings
        tokens = []
        if s.threshold != ScribendiSettings.__dataclass_fields__["threshold"].default:
            tokens.append(f"t{signature_value(s.threshold)}")
        if s.token_sort != "difflib":
            tokens.append(s.token_sort)
        tokens += self.run_departures()
        return [" ".join(tokens)] if tokens else []


@dataclass(repr=False)
class BERTScoreResult(ScoreResult):
    """BERTScore's P, R and F (``scores``, in that order, and ``precision``, ``recall``,
    ``f``); the headline ``score`` is F."""

    @property
    def score(self) -> float:
        return float(self.scores[2])

    @property
    def precision(self) -> float:
        return float(self.scores[0])

    @property
    def recall(self) -> float:
        return float(self.scores[1])

    @property
    def f(self) -> float:
        return float(self.scores[2])

    def headline(self) -> str:
        """``BERTScore F = 61.20 (P 60.01, R 62.43)``."""
        return f"{self.name} F = {shown_score(self.f)} (P {shown_score(self.precision)}, R {shown_score(self.recall)})"


ZERO_WEIGHTS = ("BERTScore: a sentence's precision or recall is 0/0 (bert_score prints nan): every token of it "
                "weighs 0, as [CLS] and [SEP] do (a text of only such strings, which the tokenizer reads as those "
                "tokens), and with idf a token in every reference sentence (log((M + 1) / (M + 1)) = 0: give more "
                "reference sentences, or leave idf off)")
ZERO_RECALL = ZERO_WEIGHTS.replace("a sentence's precision or recall is 0/0", "the reference sentence's recall is 0/0")
"""The refusal of a sentence whose recall is 0/0: its reference's tokens all weigh 0 (the line
named is the reference's)."""


class BERTScore(ModelMetric):
    """BERTScore (Zhang et al., ICLR 2020): P, R, F of token matches against the references (best reference per
    sentence); sentence means."""

    name = "bertscore"
    label = "BERTScore"
    settings_class = BERTScoreSettings
    statistics_width = 4  # P, R, F, 1
    finite_statistics = False
    positional = ("model",)
    reference_kind = TEXT
    reads_sources = False
    result_class = BERTScoreResult
    signature_order = ("model", "tokenizer", "layer", "idf", "baseline", "dtype", "refs")

    @property
    def candidate_refusal(self) -> str | None:  # type: ignore[override]
        """With idf, a sentence's token weights come from the whole corpus's references: a
        candidate sentence or a completion scored on its own (with its batch's references, or
        a candidate corpus repeating them) would get other weights, and other numbers."""
        if not self.settings.idf:
            return None
        return ("with idf its token weights come from the references of the whole corpus, which a sentence scored "
                "on its own does not have (its score would change with the sentences scored beside it): leave idf off")

    @property
    def placeless_refusal(self) -> str | None:  # type: ignore[override]
        return self.candidate_refusal

    def scorer_key(self) -> tuple:
        s = self.settings
        return ("BERTScore", s.model, s.num_layers, s.device, s.dtype)

    def make_scorer(self) -> Any:
        from .bertscore import BertScoreModel

        s = self.settings
        return BertScoreModel(s.model, s.num_layers, device=s.device, dtype=s.dtype, batch_size=s.batch_size)

    def loaded_models(self, scorer: Any) -> dict[str, Any]:
        return {"model": scorer}

    def context(self, corpus: Corpus) -> list[Any]:
        """The reference sets (each one text per sentence)."""
        if not corpus.references:
            raise InputError(f"the metric {self.display_name} needs reference texts: -r REF... (a Corpus with "
                             "references)")
        return [list(reference) for reference in corpus.references]

    def score_systems(self, scorer: Any, references: list[Any], systems: list[Sequence[str]],
                      group: Sequence[Metric]) -> list[Any]:
        """The token material of every system (:class:`~.bertscore.BertScoreMatches`)."""
        return scorer.systems_matches(references, systems)

    def baseline(self) -> tuple[Any, str]:
        """(the float32 (P, R, F) baseline or None, how the signature names it), for the
        model's layer (kept once computed)."""
        found = self.__dict__.get("_baseline")
        if found is None:
            from .bertscore import resolve_baseline

            found = self.__dict__["_baseline"] = resolve_baseline(self.settings.baseline, self.settings.model,
                                                                  self.scorer().num_layers)
        return found

    def statistics(self, prepared: Any, hypothesis: Sequence[str]) -> Any:
        """A :class:`~.bertscore.BertScoreStatistics`: as an array, the rows (P, R, F, 1) per
        sentence (from the token similarities and the corpus's idf once chunks are joined)."""
        from .bertscore import BertScoreStatistics

        prepared = self._checked(prepared)
        return BertScoreStatistics(prepared.parts_of(hypothesis), self.settings.idf, self.baseline()[0],
                                   getattr(prepared, "reference_names", ()))

    def prepare(self, corpus: Corpus, group: Sequence[Metric] = ()) -> ModelPrepared:
        """As every model metric's, keeping the reference sets' names (a sentence whose recall is
        0/0 is refused by its reference's file and line)."""
        prepared = super().prepare(corpus, group)
        prepared.reference_names = tuple(corpus.name(f"reference {k}") for k in range(len(corpus.references)))
        return prepared

    def join_statistics(self, parts: Sequence[Any]) -> Any:
        """Chunks joined by their token material (document frequencies added up)."""
        from .bertscore import BertScoreStatistics

        if parts and all(isinstance(part, BertScoreStatistics) for part in parts):
            return BertScoreStatistics.joined(parts)
        return super().join_statistics(parts)

    def check_statistic_values(self, statistics: Any) -> Any:
        """As every model metric's, and no sentence whose P or R is 0/0 (bert_score prints ``nan``):
        the first such sentence is refused by its line (:class:`~gecmetrics.errors.LineRefused`:
        a reward gives that completion its fallback value; the command line names file and line)."""
        statistics = super().check_statistic_values(statistics)
        rows = np.asarray(statistics)[:, :3]
        undefined = np.flatnonzero(np.isnan(rows).any(axis=1))
        if len(undefined):
            sentence = int(undefined[0])
            reference = _zero_recall_reference(statistics, sentence) if not np.isnan(rows[sentence, 0]) else None
            if reference is not None:  # the reference's tokens all weigh 0: its file and line
                raise LineRefused(ZERO_RECALL, reference, sentence + 1)
            raise LineRefused(ZERO_WEIGHTS, None, sentence + 1)
        return statistics

    def score_from_sums(self, sums: Any, column: int = 0) -> Any:
        """P, R or F (``column`` 0, 1, 2) of summed rows (..., 4): the mean over sentences. A NaN
        sum (a side whose token weights sum to 0, and bert_score prints P or R ``nan``) is one
        InputError, never a printed ``nan``."""
        sums = np.asarray(sums, dtype=np.float64)
        if np.isnan(sums[..., :3]).any():
            raise InputError(ZERO_WEIGHTS)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(sums[..., 3] > 0, sums[..., column] / np.where(sums[..., 3] > 0, sums[..., 3], 1), np.nan)

    def truncated_inputs(self, scorer: Any, references: list[Any], systems: list[Sequence[str]],
                         corpus: Corpus) -> tuple[dict[str, int], int] | None:
        """(each file, in the run's order -> its sentences cut to the model's maximum length, that
        length), or None when none was: bert_score cuts every text there (so does this metric, and
        the number is the original's), saying nothing."""
        files = {**dict(zip(corpus.hypotheses, systems)),
                 **{corpus.name(f"reference {k}"): lines for k, lines in enumerate(references)}}
        cut = {name: scorer.cut_count(lines) for name, lines in files.items()}
        return (cut, scorer.max_length) if any(cut.values()) else None

    def notes(self, observations: Sequence[Any]) -> list[str]:
        """One line naming the files with sentences cut to the maximum length, and how many."""
        return truncation_note(self.label, "bert_score", observations)

    def references_in(self, statistics: Any) -> int | None:
        matches = getattr(statistics, "matches", None)
        return matches.references if matches is not None else None

    def column_index(self, key: int | str | float | None) -> int:
        """None: F, the headline."""
        return 2 if key is None else super().column_index(key)

    def column_names(self) -> list[str]:
        """``P``, ``R``, ``F``, after what departs from the defaults: the model (by its folder's
        last part), a layer other than the name's default, ``idf``, ``rescaled`` (by the
        model's own baseline; ``rescaled:NAME`` by another), the dtype."""
        from ...core.models.loading import DEFAULT_LAYERS, shown_model

        s = self.settings
        model = shown_model(s.model)
        tokens = []
        if model != BERTScoreSettings.__dataclass_fields__["model"].default:
            tokens.append(model)
        if s.num_layers is not None and s.num_layers != DEFAULT_LAYERS.get(model):
            tokens.append(f"L{s.num_layers}")
        if s.idf:
            tokens.append("idf")
        if s.baseline != "none":
            baseline = shown_model(s.baseline)
            tokens.append("rescaled" if s.baseline == "auto" or baseline == model else f"rescaled:{baseline}")
        tokens += self.run_departures()
        return [" ".join([*tokens, part]) for part in ("P", "R", "F")]

    def identity_fields(self, scorer: Any) -> list[tuple[str, str]]:
        """The model (:func:`~gecmetrics.core.models.loading.signed_model`), the layer used and
        the baseline (none, the table's model or a file's SHA-256)."""
        from ...core.models.loading import signed_model, signed_tokenizer

        record = scorer.record()  # read back from the run's cache (signature_extra sets it), or the loaded model's
        return [("model", signed_model(scorer.name, record["fingerprint"], record["config"])),
                ("tokenizer", signed_tokenizer(scorer.name, scorer.source)),
                ("layer", str(scorer.num_layers)), ("baseline", self.baseline()[1])]
