"""The registered model-based metrics ``some`` and ``impara`` on the metric protocol: every
command, ``compare``, paired tests, meta-evaluation and the API run them as any built-in metric.

Both are reference-free (``reference_kind = NONE``): a corpus needs its sources and hypotheses
only. Each is computed by its scorer (:class:`~.some.SOMEScorer`, :class:`~.impara.IMPARAScorer`,
equal to the original code), and:

* the scorer (its loaded models and tokenizer) is kept once per process and model setting
  (:func:`shared_scorer`), never pickled: a worker loads its own; metrics that differ only in
  what is applied after the models (SOME's weights, IMPARA's threshold, the batch size) share
  one scorer and one ``prepare`` (their sharing key is the scorer's);
* ``prepare(corpus)`` runs the models on every hypothesis of the corpus (or chunk) at once, so
  a sentence or (source, hypothesis) pair that several systems share is scored once, through
  the persistent cache (:func:`~gecmetrics.core.cache.default_cache`): model outputs are stored
  per model weights fingerprint, dtype and exact model input, so a re-run or a new system costs
  only its new sentences;
* ``statistics`` gives per sentence the row (score, 1) (IMPARA: (score, 1, gated)), whose sums
  give the mean of the sentence scores, the originals' corpus score.

Signatures name each model with its weights fingerprint (``grammar:grammer@1a2b3c4d5e6f``: the
first 12 hex digits of the SHA-256 over the weights' names, shapes and float32 values), and the
settings that change a number; device, batch size and threads change only float rounding and
are left out. Loading the models (once per process) is needed to sign.
"""
from __future__ import annotations

import os
import re
import threading
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Hashable, Sequence

import numpy as np

from ...errors import InputError
from ...io.corpus import Corpus
from ..protocol import (NONE, TEXT, Metric, Settings, choice, non_negative_int, parse_float, parse_floats,
                        positive_int, setting, signature_value)

DTYPES = ("float32", "float16", "bfloat16")
"""gecmetrics.core.models.inference.DTYPES, without importing it (and numpy's model code) to
read settings."""

SOME_HEAD_FOLDERS = {"grammar": ("grammer", "grammar"), "fluency": ("fluency",), "meaning": ("meaning",)}
"""Where each SOME head lies in the authors' ``gfm-models`` folder (``grammer`` sic; ``grammar`` too)."""


# ----------------------------------------------------------------------------- settings


def _label(name: str) -> str:
    """How a message names a setting: a command-line flag as it is, else ``setting NAME``."""
    return name if name.startswith("-") else f"setting {name}"


def parse_model(name: str, value: Any) -> str:
    """A model: a hub name or a folder (non-empty text; '/' is part of it)."""
    if not isinstance(value, str) or not value.strip():
        raise InputError(f"{_label(name)} must be a model name or a folder, got {value!r}")
    return value.strip()


def parse_optional_model(name: str, value: Any) -> str | None:
    """A model name or folder, or None (``none``, empty): the metric's default."""
    if value is None or (isinstance(value, str) and value.strip().lower() in ("", "none", "auto")):
        return None
    return parse_model(name, value)


parse_model.reads_slashes = parse_optional_model.reads_slashes = True  # type: ignore[attr-defined]

_DEVICE = re.compile(r"(cpu|cuda(:[0-9]+)?|mps)")


def parse_device(name: str, value: Any) -> str | None:
    """``cpu``, ``cuda``, ``cuda:N`` or ``mps``; None (``auto``): CUDA when torch sees one."""
    if value is None or (isinstance(value, str) and value.strip().lower() in ("", "auto")):
        return None
    if not isinstance(value, str) or not _DEVICE.fullmatch(value.strip().lower()):
        raise InputError(f"{_label(name)} must be cpu, cuda, cuda:N, mps or auto, got {value!r}")
    return value.strip().lower()


def parse_max_length(name: str, value: Any) -> int:
    """The longest model input in tokens: room for ``[CLS] a [SEP] b [SEP]`` at least."""
    number = positive_int(name, value)
    if number < 4:
        raise InputError(f"{_label(name)} must be at least 4 (the special tokens and one token per text), got {number}")
    return number


def parse_some_weights(name: str, value: Any) -> tuple[float, float, float]:
    """SOME's weights of the grammar, fluency and meaning ratings: three finite numbers
    (``0.55/0.43/0.02``)."""
    numbers = parse_floats(name, value)
    if len(numbers) != 3 or not all(np.isfinite(numbers)):
        raise InputError(f"{_label(name)} needs three finite numbers, grammar/fluency/meaning (e.g. 0.55/0.43/0.02), "
                         f"got {value!r}")
    return (numbers[0], numbers[1], numbers[2])


parse_some_weights.takes_several = True  # type: ignore[attr-defined]


def parse_threshold(name: str, value: Any) -> float:
    """IMPARA's similarity threshold: a finite number."""
    number = parse_float(name, value)
    if not np.isfinite(number):
        raise InputError(f"{_label(name)} must be a finite number, got {value!r}")
    return number


@dataclass(frozen=True)
class SOMESettings(Settings):
    """SOME's models, tokenizer and weights (what changes a number), then how it runs."""

    model: str | None = setting(None, "SOME: the authors' gfm-models folder (subfolders grammer, fluency, meaning)",
                                parse_optional_model, ("models", "gfm_models"), flags=("--model",))
    grammar_model: str | None = setting(None, "SOME: grammaticality regressor, name or folder (default: MODEL/grammer)",
                                        parse_optional_model, ("g_dir",), signature="grammar",
                                        flags=("--grammar-model",))
    fluency_model: str | None = setting(None, "SOME: fluency regressor, name or folder (default: MODEL/fluency)",
                                        parse_optional_model, ("f_dir",), signature="fluency",
                                        flags=("--fluency-model",))
    meaning_model: str | None = setting(None, "SOME: meaning regressor, name or folder (default: MODEL/meaning)",
                                        parse_optional_model, ("m_dir",), signature="meaning",
                                        flags=("--meaning-model",))
    tokenizer: str = setting("bert-base-cased", "SOME: the tokenizer, name or folder (some.py: bert-base-cased)",
                             parse_model, signature="tokenizer", flags=("--tokenizer",))
    weights: tuple[float, float, float] = setting((0.55, 0.43, 0.02), "SOME: weights of grammar/fluency/meaning",
                                                  parse_some_weights, signature="weights", flags=("--weights",))
    max_length: int = setting(128, "SOME/IMPARA: longest model input in tokens (the originals: 128)",
                              parse_max_length, ("max_len",), signature="max_len", flags=("--max-length",))
    dtype: str = setting("float32", "model metrics: float32, float16 or bfloat16 (changes the numbers a little)",
                         choice(*DTYPES), signature="dtype", flags=("--dtype",))
    batch_size: int = setting(64, "model metrics: inputs per batch (speed and memory only)", positive_int,
                              flags=("--batch-size",))
    device: str | None = setting(None, "model metrics: cpu, cuda, cuda:N or mps (auto: CUDA when available)",
                                 parse_device, flags=("--device",))
    threads: int = setting(0, "model metrics: torch threads per process (0: torch's default)", non_negative_int,
                           flags=("--threads",))

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
                         ("qe_model", "qe", "restore_dir"), signature="qe", flags=("--model",))
    se_model: str = setting("bert-base-cased", "IMPARA: the similarity encoder, name or folder", parse_model,
                            ("se",), signature="se", flags=("--se-model",))
    tokenizer: str | None = setting(None, "IMPARA: the tokenizer of both models (default: the quality estimator's)",
                                    parse_optional_model, signature="tokenizer", flags=("--tokenizer",))
    threshold: float = setting(0.9, "IMPARA: a hypothesis whose similarity to its source is not above this scores 0",
                               parse_threshold, ("t",), signature="threshold", flags=("--threshold",))
    max_length: int = setting(128, "SOME/IMPARA: longest model input in tokens (the originals: 128)",
                              parse_max_length, ("max_len",), signature="max_len", flags=("--max-length",))
    dtype: str = setting("float32", "model metrics: float32, float16 or bfloat16 (changes the numbers a little)",
                         choice(*DTYPES), signature="dtype", flags=("--dtype",))
    batch_size: int = setting(32, "model metrics: inputs per batch (speed and memory only)", positive_int,
                              flags=("--batch-size",))
    device: str | None = setting(None, "model metrics: cpu, cuda, cuda:N or mps (auto: CUDA when available)",
                                 parse_device, flags=("--device",))
    threads: int = setting(0, "model metrics: torch threads per process (0: torch's default)", non_negative_int,
                           flags=("--threads",))


# ----------------------------------------------------------------------------- one scorer per process

_SCORERS: dict[tuple, Any] = {}
_LOCK = threading.RLock()


def shared_scorer(key: tuple, make: Callable[[], Any]) -> Any:
    """The scorer of ``key`` (its models and tokenizer), made once per process and kept: every
    chunk, system and metric with the same models uses it."""
    with _LOCK:
        scorer = _SCORERS.get(key)
        if scorer is None:
            scorer = _SCORERS[key] = make()
        return scorer


def release_scorers() -> None:
    """Forget the loaded models of this process (freed once nothing else holds them)."""
    with _LOCK:
        _SCORERS.clear()


def shown_model(name: str) -> str:
    """A model as a signature shows it: a hub name as given, a folder by its last part (its
    weights fingerprint says the rest)."""
    path = os.path.expanduser(name)
    return os.path.basename(os.path.normpath(path)) if os.path.isdir(path) else name


def _set_threads(threads: int) -> None:
    if threads:
        from ...core.models.inference import import_backend

        torch = import_backend()[0]
        if torch.get_num_threads() != threads:
            torch.set_num_threads(threads)


# ----------------------------------------------------------------------------- prepared corpus


class ModelPrepared:
    """What the models gave for every hypothesis of one corpus (or chunk): per system the parts
    a metric's statistics are made from (SOME: the three ratings; IMPARA: similarity and
    quality), found by the identity of the system's lines; other lines are scored on demand
    (``score``) against the same sources. ``computed``: model inputs run (cache hits not
    counted)."""

    def __init__(self, sources: list[str], systems: list[Sequence[str]], parts: list[Any], computed: int,
                 score: Callable[[list[str], list[Sequence[str]]], list[Any]], key: Hashable) -> None:
        self.sources, self.systems, self.parts, self.computed = sources, systems, parts, computed
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


class ModelMetric(Metric):
    """What the model-based metrics share (see the module docstring)."""

    hypothesis_kind = TEXT
    reference_kind = NONE
    scale = 1.0
    higher_is_better = True
    has_sentence_scores = True
    chunk_lines = 250  # model inference is slow: progress moves, -p N workers share the lines
    model_roles: ClassVar[dict[str, str]] = {}
    """Signature key -> the scorer's model of that role, shown with its weights fingerprint."""

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
        """The parts of every system (computed together: each distinct input once)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ shared
    def scorer(self) -> Any:
        """The loaded scorer of these settings (once per process)."""
        return shared_scorer(self.scorer_key(), self.make_scorer)

    def sharing_key(self) -> Hashable:
        return self.scorer_key()

    def prepare(self, corpus: Corpus, group: Sequence[Metric] = ()) -> ModelPrepared:
        """Run the models on every hypothesis of the corpus at once (each distinct sentence or
        pair once, cached outputs read from the persistent cache)."""
        from ...core.cache import default_cache

        if not isinstance(corpus, Corpus):
            raise InputError(f"{self.label}: prepare() takes a Corpus, got {type(corpus).__name__}")
        if not corpus.hypotheses:
            raise InputError(f"{self.label} needs at least one hypothesis")
        sources = list(corpus.sources)
        systems = [corpus.hypothesis(name, TEXT, self.display_name) for name in corpus.hypotheses]
        _set_threads(self.settings.threads)
        scorer = self.scorer()
        with _LOCK:  # one scorer, one chunk at a time (threads of one process share it)
            scorer.forget()
            scorer.cache = default_cache()
            scorer.batch_size = self.settings.batch_size
            before = scorer.computed
            parts = self.score_systems(scorer, sources, systems, group)
            computed = scorer.computed - before

        def score(sources: list[str], hypotheses: list[Sequence[str]]) -> list[Any]:
            with _LOCK:
                return self.score_systems(scorer, sources, [list(h) for h in hypotheses], group)

        return ModelPrepared(sources, systems, parts, computed, score, self.sharing_key())

    def _checked(self, prepared: Any) -> ModelPrepared:
        if not isinstance(prepared, ModelPrepared):
            raise InputError(f"{self.label}: expected prepare()'s result, got {type(prepared).__name__}")
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

    def signature_fields(self, references: int | None) -> tuple[str, list[tuple[str, str] | str]]:
        """The settings that change a number, each model shown as ``name@fingerprint``."""
        models = self.loaded_models(self.scorer())
        fields: list[tuple[str, str] | str] = []
        for key, value in self.settings.signature_fields():
            if key in models:
                loaded = models[key]
                value = f"{shown_model(loaded.name)}@{loaded.fingerprint[:12]}"
            elif key == "tokenizer":
                value = shown_model(self.scorer().tokenizer_name)
            fields.append((key, value))
        return self.label, fields


class SOME(ModelMetric):
    """SOME (Yoshimura et al., COLING 2020): BERT regressors of grammar, fluency, meaning, weighted; sentence mean."""

    name = "some"
    label = "SOME"
    settings_class = SOMESettings
    positional = ("model",)

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
                          max_length=s.max_length, batch_size=s.batch_size, device=s.device, dtype=s.dtype)

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

    def column_labels(self) -> list[str]:
        weights = self.settings.weights
        default = SOMESettings.__dataclass_fields__["weights"].default
        return [self.label if weights == default else f"{self.label} w{'/'.join(f'{w:g}' for w in weights)}"]


class IMPARA(ModelMetric):
    """IMPARA (Maeda et al., COLING 2022): a BERT quality estimate, 0 unless similar to the source; sentence mean."""

    name = "impara"
    label = "IMPARA"
    settings_class = IMPARASettings
    positional = ("model",)

    def scorer_key(self) -> tuple:
        s = self.settings
        return ("IMPARA", s.model, s.se_model, s.tokenizer, s.max_length, s.device, s.dtype)

    def make_scorer(self) -> Any:
        from .impara import IMPARAScorer

        s = self.settings
        return IMPARAScorer(s.model, s.se_model, tokenizer=s.tokenizer, threshold=s.threshold, max_length=s.max_length,
                            batch_size=s.batch_size, device=s.device, dtype=s.dtype)

    def loaded_models(self, scorer: Any) -> dict[str, Any]:
        return {"qe": scorer.qe, "se": scorer.se}

    def score_systems(self, scorer: Any, sources: list[str], systems: list[Sequence[str]],
                      group: Sequence[Metric]) -> list[Any]:
        """Similarities, and qualities where the lowest threshold of the group is passed."""
        threshold = min([self.settings.threshold, *(m.settings.threshold for m in group if isinstance(m, IMPARA))])
        return scorer.systems_parts(sources, systems, threshold)

    def statistics(self, prepared: Any, hypothesis: Sequence[str]) -> np.ndarray:
        """(D, 3) float64 rows: the sentence's IMPARA, a 1, and 1 if the similarity gate zeroed it."""
        from .impara import gated_scores

        similarity, logits = self._checked(prepared).parts_of(hypothesis)
        threshold = self.settings.threshold
        scores = gated_scores(similarity, logits, threshold)
        return np.column_stack([scores, np.ones(len(scores)), ~(np.asarray(similarity) > threshold)]).astype(np.float64)

    def details(self, statistics: Any, sums: list[Any]) -> dict[str, Any]:
        """How many sentences the similarity gate zeroed."""
        return {"gated": int(round(float(np.asarray(sums[0])[2])))}

    def column_labels(self) -> list[str]:
        threshold = self.settings.threshold
        default = IMPARASettings.__dataclass_fields__["threshold"].default
        return [self.label if threshold == default else f"{self.label} t{signature_value(threshold)}"]
