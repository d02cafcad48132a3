"""The registered metrics ``llm-s`` and ``llm-e``: the LLM judges on the metric protocol.

A prompt shows up to five distinct hypotheses of one source, from all systems at once, so
``prepare(corpus)`` runs the :class:`~.judge.Judge` on every hypothesis of the corpus (answers in
the persistent cache cost nothing; each prompt's scores depend only on its own sentence, so a
corpus prepared in chunks of sentences gets the same scores). ``statistics`` then reads one
system's scores: per sentence the integer row (score, scored, unscored), so that the corpus score
is the mean over the scored sentences and a sentence without a score (a prompt left unanswered
after the retries, the request budget, or gec-metrics' grouping beyond five hypotheses) is
counted, in the result's ``unscored``, never dropped silently. Its sentence score is NaN (an
empty cell in a sentence table), which paired tests (:class:`ScoredSentencesResampler`),
rankings from sentence scores and sentence-level meta-evaluation refuse with a message, and a
reward turns into its fallback (:meth:`LLMJudgeMetric.alone_matrix`).

Settings name the backend as ``provider:model`` (``model=openai:gpt-4o-mini-2024-07-18``,
``vllm:Qwen/Qwen2.5-7B-Instruct``, ``transformers:/models/llama``); in ``--metrics`` text, where
':' separates settings, write ``provider=vllm:model=NAME``. The signature names the backend, the
model (a local folder by a fingerprint of its files), a server given by URL, the criterion, the
grouping and the decoding. LLM-E annotates the hypotheses with gecmetrics' ERRANT (one spaCy
pipeline per model and process, shared with the ``errant`` metric).
"""
from __future__ import annotations

import os
import threading
import uuid
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable, Hashable, Sequence

import numpy as np

from ...core.resampling import LinearResampler
from ...errors import InputError, LineRefused, kind_of, plural
from ...io.corpus import Corpus
from ...kinds import NONE, TEXT
from ..base import Metric, checked_corpus
from ..results import CorpusSums
from ..settings import (Settings, choice, non_negative_int, optional_int, parse_device, parse_finite_non_negative,
                        parse_float, positive_int, setting, setting_label, signature_value, unset)
from .backends import LOCAL, PROVIDERS, check_key, make_backend, parse_spec
from .backends.base import KEY_VARIABLE, check_base_url
from .judge import DryRun, Judge, JudgeReport, JudgeResult
from .prompts import CRITERIA, GROUPINGS, edits_from_blocks, prompt_line_problem

DEFAULT_MODEL = "openai:gpt-4o-mini-2024-07-18"
"""gec-metrics' default judge."""
DTYPES = ("auto", "float32", "float16", "bfloat16")
STRUCTURED = ("json_schema", "json_object", "none")
"""backends.http.STRUCTURED, without importing the HTTP client to read settings."""
HTTP_ONLY = ("base_url", "api_key_env", "structured", "temperature", "concurrency", "requests_per_minute",
             "max_retry_after", "timeout", "max_retries")
LOCAL_ONLY = ("device", "dtype", "batch_size")
SCORED, UNSCORED = 1, 2
"""Columns of a statistics row after the score: 1 if the sentence has a score, 1 if not."""


class LLMJudgeWarning(UserWarning):
    """Prompts left without an answer (bad answers after the retries, failed requests, the
    request budget): their sentences are counted as unscored."""


# ----------------------------------------------------------------------------- settings


def _text(name: str, value: Any) -> str:
    """A non-empty text (in ``--metrics`` text a ':' is written ``%3A``, which
    :func:`~gecmetrics.metrics.registry.parse_metric_spec` reads for every metric:
    ``model=ollama%3Allama3.1%3A8b``, ``base_url=http%3A//gpu-box%3A8000/v1``)."""
    if not isinstance(value, str) or not value.strip():
        shown_value = repr(value) if isinstance(value, str) else kind_of(value)  # (bytes of a URL: its credentials)
        raise InputError(f"{setting_label(name)} must be a non-empty text, got {shown_value}")
    return value.strip()


def _optional_text(name: str, value: Any) -> str | None:
    if unset(value):
        return None
    return _text(name, value)


def _optional_float(name: str, value: Any) -> float | None:
    if unset(value):
        return None
    return parse_float(name, value)


def _optional_temperature(name: str, value: Any) -> float | None:
    number = _optional_float(name, value)
    if number is not None and not (0 <= number < float("inf")):
        raise InputError(f"setting {name} must be a finite number of 0 or more, got {value!r}")
    return number


def _positive_seconds(name: str, value: Any) -> float:
    seconds = parse_finite_non_negative(name, value)
    if seconds == 0:
        raise InputError(f"{setting_label(name)} must be a number of seconds above 0, got {value!r}")
    return seconds


def _optional_provider(name: str, value: Any) -> str | None:
    text = _optional_text(name, value)
    if text is None:
        return None
    provider, _ = parse_spec(text + ":x")
    return provider


def _optional_key_variable(name: str, value: Any) -> str | None:
    """The name of an environment variable (never the key: a text that is no such name is
    refused without being shown)."""
    if unset(value):
        return None
    if not isinstance(value, str) or not KEY_VARIABLE.fullmatch(value.strip()):
        raise InputError(f"{setting_label(name)} names the environment variable that holds the key (letters, digits "
                         "and _, not starting with a digit), got another text (not shown: it may be the key)")
    return value.strip()


_text.reads_paths = _optional_text.reads_paths = True  # type: ignore[attr-defined]  # '/' in paths and names


@dataclass(frozen=True)
class LLMSettings(Settings):
    """The judge's backend, prompts, budget and decoding (LLM-S and LLM-E alike)."""

    model: str = setting(DEFAULT_MODEL, "LLM judge: provider:model (openai:..., gemini:..., vllm:..., ollama:..., "
                                        "transformers:FOLDER), or a bare model with provider=; in --metrics text "
                                        "write ':' as %3A", _text)
    provider: str | None = setting(None, "LLM judge: the provider of a bare model name (in --metrics text, where ':' "
                                         "separates settings: provider=vllm:model=NAME)", _optional_provider)
    base_url: str | None = setting(None, "LLM judge: the server's URL (OpenAI-compatible; default: the provider's; "
                                          "':' as %3A in --metrics text)",
                                   _optional_text, ("url",))
    api_key_env: str | None = setting(None, "LLM judge (HTTP): the environment variable holding the server's key "
                                            "(default: the provider's; openai-compatible sends none unless named)",
                                      _optional_key_variable, run_only=True)
    criterion: str | None = setting(None, "LLM judge: a criterion prompt (LLM-S: grammaticality, fluency, meaning; "
                                          "LLM-E: difficulty, impact)", _optional_text)
    grouping: str = setting("all", "LLM judge: all (every hypothesis scored, 5 a prompt) or gec-metrics (its one "
                                   "prompt of the 5 most frequent per source)", choice(*GROUPINGS))
    max_requests: int | None = setting(None, "LLM judge: the most requests sent in one run (per process with -p)",
                                       optional_int)
    answer_retries: int = setting(2, "LLM judge: times a bad answer is asked again", non_negative_int)
    structured: str = setting("json_schema", "LLM judge (HTTP): structured output json_schema, json_object or none",
                              choice(*STRUCTURED))
    temperature: float | None = setting(None, "LLM judge (HTTP): sampling temperature, 0 or more (default: the "
                                        "server's)", _optional_temperature)
    concurrency: int = setting(4, "LLM judge (HTTP): requests in flight", positive_int, run_only=True)
    requests_per_minute: float | None = setting(None, "LLM judge (HTTP): rate limit", _optional_float, ("rpm",),
                                                run_only=True)
    max_retry_after: float = setting(120.0, "LLM judge (HTTP): the longest Retry-After wait honoured, in seconds "
                                            "(a server asking for longer stops the run)", parse_finite_non_negative,
                                     run_only=True)
    timeout: float = setting(120.0, "LLM judge (HTTP): the seconds a request may take (then it is sent again, as a "
                                    "failed one is)", _positive_seconds, run_only=True)
    max_retries: int = setting(5, "LLM judge (HTTP): times a failed request (no answer in time, HTTP 429 or 5xx, a "
                                  "dropped connection) is sent again", non_negative_int, run_only=True)
    device: str | None = setting("cpu", "LLM judge (local model): cpu, cuda, cuda:N, mps or auto (CUDA when torch "
                                        "sees one, else the CPU)", parse_device, flags=("--device",), run_only=True)
    dtype: str = setting("auto", "LLM judge (local model): auto, float32, float16 or bfloat16", choice(*DTYPES))
    batch_size: int = setting(8, "LLM judge (local model): prompts decoded together", positive_int, run_only=True)

    variant = "llm-s"

    def check(self) -> None:
        # with the provider given apart, the model is still checked (a URL with credentials as the
        # model went into the signature, repr() and a reward's name), and the default model, a
        # provider:model text, is no bare name of the provider given (it was sent as the model)
        bare = "" if self.model is None or self.model == DEFAULT_MODEL else self.model
        provider, model = parse_spec(self.model if self.provider is None else f"{self.provider}:{bare}")
        if model is None:
            model = PROVIDERS[provider].default_model if provider in PROVIDERS else None
            if model is None:
                raise InputError(f"setting model: give the model of provider {provider} ({provider}:MODEL)")
        object.__setattr__(self, "provider", provider)
        object.__setattr__(self, "model", model)
        local = provider in LOCAL
        defaults = {f: getattr(type(self), f) for f in HTTP_ONLY + LOCAL_ONLY}
        for name in (HTTP_ONLY if local else LOCAL_ONLY):
            if getattr(self, name) != defaults[name]:
                raise InputError(f"{setting_label(name)} is for {'HTTP servers' if local else 'local models'}, "
                                 f"not provider {provider}")
        if self.base_url is not None:  # before the URL reaches a signature or an error message
            object.__setattr__(self, "base_url", check_base_url(self.base_url))
        if self.max_requests is not None and self.max_requests < 0:
            raise InputError(f"setting max_requests must be >= 0, got {self.max_requests}")
        if self.requests_per_minute is not None and not 0 < self.requests_per_minute < float("inf"):
            raise InputError(f"setting requests_per_minute must be a finite positive number, got "
                             f"{self.requests_per_minute}")
        if self.criterion is not None and self.criterion not in CRITERIA[self.variant]:
            raise InputError(f"setting criterion: {self.criterion!r} is not one of {self.variant}'s "
                             f"({', '.join(CRITERIA[self.variant])})")

    @property
    def spec(self) -> str:
        return f"{self.provider}:{self.model}"

    @property
    def is_local(self) -> bool:
        return self.provider in LOCAL

    def backend_options(self) -> dict[str, Any]:
        """The options of :func:`~.backends.make_backend` these settings give."""
        if self.is_local:
            return {"device": self.device, "dtype": self.dtype, "batch_size": self.batch_size}
        options: dict[str, Any] = {"structured": self.structured, "concurrency": self.concurrency,
                                   "requests_per_minute": self.requests_per_minute,
                                   "max_retry_after": self.max_retry_after, "timeout": self.timeout,
                                   "max_retries": self.max_retries}
        if self.base_url is not None:
            options["base_url"] = self.base_url
        if self.api_key_env is not None:
            options["api_key_env"] = self.api_key_env
        if self.temperature is not None:
            options["temperature"] = self.temperature
        return options


@dataclass(frozen=True)
class LLMESettings(LLMSettings):
    """LLM-E's settings: the judge's, and the spaCy model of the ERRANT annotator."""

    spacy_model: str | None = setting(None, "LLM-E: the spaCy model of the ERRANT annotator, name or path (default: "
                                            "$GECMETRICS_SPACY_MODEL, else en_core_web_sm)", _optional_text, ("spacy",))

    variant = "llm-e"


# ----------------------------------------------------------------------------- shared per process


def shared_backend(settings: LLMSettings, sending: bool = True, resources: Any = None) -> Any:
    """One backend per (model, options) in a process: a local model loads once for every chunk
    (kept in ``resources``, a run's store, else the process's). ``sending=False``: for a dry
    run, which needs no API key."""
    from ...core.context import loaded

    options = settings.backend_options()
    if not sending and not settings.is_local:
        options["key_required"] = False
    key = ("llm-backend", settings.spec, tuple(sorted(options.items())))
    return loaded(key, lambda: make_backend(settings.spec, **options), resources)


class RequestsSpent:
    """The requests one metric object has sent in this process (its ``max_requests`` budget is
    counted over every chunk a process judges)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.count = 0

    def add(self, requests: int) -> None:
        with self._lock:
            self.count += requests


# ----------------------------------------------------------------------------- the metric


class ScoredSentencesResampler(LinearResampler):
    """The judge's rows resampled, sentence by sentence, only where every sentence has a score:
    a paired test (and any resampling of sentences) compares the systems on the same sentences,
    and a resample's mean over the scored sentences of each system would compare them on
    different ones (or be NaN where a resample drew none), so such statistics are refused in
    one line saying how many sentences lack a score and how to give them one
    (:meth:`LLMJudgeMetric.unscored_refusal`)."""

    def __init__(self, rows: Callable, score_sums: Callable, label: str, signature: str, refusal: Callable) -> None:
        super().__init__(rows, score_sums, label, signature)
        self.refusal = refusal

    def prepare(self, statistics: np.ndarray) -> np.ndarray:
        refused = self.refusal(statistics, "a paired test")
        if refused:
            raise InputError(refused)
        return super().prepare(statistics)


class LLMPrepared:
    """The judge's run on one corpus (or chunk): the result (scores sentences x systems, NaN
    where missing; the report), and the systems' lines (found by identity, else by text)."""

    def __init__(self, result: JudgeResult, hypotheses: Sequence[Sequence[str]]) -> None:
        self.result = result
        self.hypotheses = list(hypotheses)
        self._index = {id(lines): k for k, lines in enumerate(self.hypotheses)}

    @property
    def report(self) -> JudgeReport:
        return self.result.report

    def scores_of(self, hypothesis: Sequence[str]) -> np.ndarray:
        """Sentence scores (D,) of one hypothesis: a system's column, or (for other lines equal
        to a judged hypothesis, sentence by sentence) the score of that hypothesis."""
        k = self._index.get(id(hypothesis))
        if k is not None and self.hypotheses[k] is hypothesis:
            return self.result.scores[:, k]
        if len(hypothesis) != self.result.scores.shape[0]:
            raise InputError(f"the hypothesis has {plural(len(hypothesis), 'sentence')} but the judged corpus has "
                             f"{self.result.scores.shape[0]}")
        scores = np.empty(len(hypothesis))
        for i, line in enumerate(hypothesis):
            found = next((s for s, lines in enumerate(self.hypotheses) if lines[i] == line), None)
            if found is None:
                raise InputError(f"sentence {i + 1} of the hypothesis is not one the judge scored: the LLM judges "
                                 "score the hypotheses of the corpus they were prepared with (prompts group them)")
            scores[i] = self.result.scores[i, found]
        return scores


class LLMJudgeMetric(Metric):
    """What LLM-S and LLM-E share (see the module docstring)."""

    settings_class = LLMSettings
    hypothesis_kind = TEXT
    reference_kind = NONE
    scale = 1.0
    fraction = False  # scores 1-5
    higher_is_better = True
    has_sentence_scores = True
    chunk_lines = 50  # each answer takes a request: progress moves with every few sentences
    variant = "llm-s"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._run = uuid.uuid4().hex  # the request budget is counted per metric object (and process)
        self.progress: Callable[[int, int], None] | None = None
        """Called as progress(answers, prompts) after each answer (a command's progress line)."""
        self.on_report: Callable[[JudgeReport], None] | None = None
        """Given each run's report (a command prints it); without it, an incomplete run warns."""

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["progress"] = state["on_report"] = None  # callbacks of the main process stay there
        return state

    # ------------------------------------------------------------------ judging
    def judge(self, cache: Any = None, sending: bool = True) -> Judge:
        """The judge of these settings in this metric's run context (answers kept in its cache,
        unless another ``cache`` is given), with what is left of the request budget (``sending=
        False``: for a dry run, no API key needed)."""
        s, context = self.settings, self.run_context
        budget = None if s.max_requests is None else max(0, s.max_requests - self._spent(context).count)
        return Judge(shared_backend(s, sending, context.resources), variant=self.variant, criterion=s.criterion,
                     grouping=s.grouping, cache=context.cache if cache is None else cache,
                     answer_retries=s.answer_retries, max_requests=budget, progress=self.progress)

    def check_ready(self) -> None:
        """A hosted API's key, checked as its backend checks it when it starts (:func:`~.backends.check_key`;
        nothing loaded or sent): the backend starts before the cache is read, so a run whose answers
        are all cached needs no key only where the provider needs none."""
        if not self.settings.is_local:
            try:
                check_key(self.settings.spec, **self.settings.backend_options())
            except InputError as err:
                raise InputError(f"{self.label}: {err}") from None

    def _spent(self, context: Any) -> RequestsSpent:
        """The requests this metric object has sent in this process."""
        return context.resources.get(("llm-requests", self._run), RequestsSpent)

    def hypotheses_of(self, corpus: Corpus, method: str = "prepare") -> tuple[list[str], list[list[str]]]:
        """The corpus's sources and every hypothesis (text lines), in the corpus's order; a line
        no prompt can hold (:func:`~.prompts.prompt_line_problem`) is refused naming its file
        and line (a hypothesis's as :class:`~gecmetrics.errors.LineRefused`: a reward gives
        that completion its fallback value)."""
        corpus = checked_corpus(corpus, self.label, method=method)
        if not corpus.hypotheses:
            raise InputError(f"{self.label} needs at least one hypothesis")
        sources = list(corpus.sources)
        systems = [corpus.hypothesis(name, TEXT, self.display_name) for name in corpus.hypotheses]
        rows = corpus.sentence_rows()
        for refusal, name, lines in ((InputError, corpus.source_file(), sources),
                                     *((LineRefused, *named) for named in zip(corpus.hypotheses, systems))):
            for k, line in enumerate(lines):
                if (problem := prompt_line_problem(line)) is not None:
                    raise refusal(problem, name, rows[k] + 1)
        return sources, systems

    def edits(self, sources: Sequence[str], systems: Sequence[Sequence[str]]) -> Any:
        """The edits the prompts show (LLM-E), None for LLM-S."""
        return None

    def prepare(self, corpus: Corpus, group: Sequence[Metric] = ()) -> LLMPrepared:
        """Run the judge on every hypothesis of the corpus (cached answers cost nothing); prompts
        left unanswered are reported to :attr:`on_report`, else with an :class:`LLMJudgeWarning`
        (and counted per sentence)."""
        sources, systems = self.hypotheses_of(corpus)
        judge = self.judge()
        result = judge.score(sources, systems, self.edits(sources, systems))
        self._spent(self.run_context).add(result.report.requested)
        if self.on_report is not None:
            self.on_report(result.report)
        elif not result.report.complete:
            where = f"sentences {corpus.offset + 1}-{corpus.offset + corpus.size}: " if corpus.offset else ""
            warnings.warn(f"{self.label}: {where}" + result.report.summary().replace("\n", "; "), LLMJudgeWarning,
                          stacklevel=2)
        return LLMPrepared(result, systems)

    def dry_run(self, corpus: Corpus, prices: tuple[float, float] | None = None) -> DryRun:
        """Prompts, cached answers, tokens and cost still to spend on ``corpus``; nothing is sent."""
        sources, systems = self.hypotheses_of(corpus, "dry_run")
        return self.judge(sending=False).dry_run(sources, systems, self.edits(sources, systems), prices)

    def statistics(self, prepared: LLMPrepared, hypothesis: Sequence[str]) -> np.ndarray:
        """(D, 3) int64 rows: the sentence's score (0 without one), 1 if scored, 1 if not."""
        self.check_prepared_kind(prepared, LLMPrepared)
        scores = prepared.scores_of(hypothesis)
        missing = np.isnan(scores)
        rows = np.zeros((len(scores), 3), dtype=np.int64)
        rows[:, 0] = np.where(missing, 0, np.nan_to_num(scores)).astype(np.int64)
        rows[:, SCORED] = ~missing
        rows[:, UNSCORED] = missing
        return rows

    def score_from_sums(self, sums: Any, column: int = 0) -> np.ndarray:
        """The mean score (1-5) of the scored sentences of summed rows (..., 3); NaN with none."""
        sums = np.asarray(sums, dtype=np.float64)
        count = sums[..., SCORED]
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(count > 0, sums[..., 0] / np.where(count > 0, count, 1), np.nan)

    def resampler(self, column: int = 0, references: int = 1) -> Any:
        """The paired-test resampler, refusing statistics with a sentence without a score (see
        :class:`ScoredSentencesResampler`)."""
        self.check_resampler_arguments(column, references)
        return ScoredSentencesResampler(lambda statistics: self.rows(statistics, column),
                                        lambda sums: self.score_from_sums(sums, column), self.paired_label(column),
                                        self.column_signature(column, references), self.unscored_refusal)

    def unscored_refusal(self, statistics: Any, use: str) -> str | None:
        """``use`` (a paired test, a ranking from sentence scores) compares the systems on every
        sentence: refused where the judge gave some sentence no score, saying how many and how to
        give them one; None when every sentence has a score."""
        rows = np.asarray(statistics)
        missing = int(rows[:, UNSCORED].sum()) if rows.ndim == 2 and rows.shape[-1] > UNSCORED else 0
        if not missing:
            return None
        have = "has" if missing == 1 else "have"
        return (f"{self.column_labels()[0]}: {missing} of its {plural(len(rows), 'sentence')} {have} no score "
                f"from the judge, and {use} compares the systems on every sentence: {self.unscored_remedy()}")

    def unscored_remedy(self) -> str:
        """What gives every sentence a score: another run (unanswered prompts are asked again,
        answered ones come from the cache), and grouping ``all`` where gec-metrics' leaves
        hypotheses beyond five a source without one."""
        return ("run again (unanswered prompts are asked again, the others come from the cache)"
                + (", with grouping all (gec-metrics' scores 5 hypotheses a source)"
                   if self.settings.grouping != "all" else ""))

    def alone_matrix(self, statistics: Any) -> Any:
        """Each sentence's score, as :meth:`sentence_matrix`; a sentence without a score is
        refused (:class:`~gecmetrics.errors.LineRefused`: a reward gives it its fallback value,
        edit attribution stops with one line) rather than scored NaN."""
        rows = np.asarray(statistics)
        missing = np.flatnonzero(rows[:, UNSCORED]) if rows.ndim == 2 and len(rows) else []
        if len(missing):
            left_out = ", or grouping gec-metrics left it out" if self.settings.grouping != "all" else ""
            raise LineRefused(f"{self.column_labels()[0]}: sentence {int(missing[0]) + 1} has no score from the judge "
                              f"(its prompt got no valid answer{left_out})")
        return self.sentence_matrix(statistics)

    def details(self, statistics: Any, sums: list[CorpusSums]) -> dict[str, Any]:
        """How many sentences have a score and how many have none; a hypothesis none of whose
        sentences has a score has no corpus score (refused: the mean of nothing is no number)."""
        total = np.asarray(sums[0].total)
        if total[SCORED] == 0:
            raise InputError(f"{self.column_labels()[0]}: none of its {plural(int(total[UNSCORED]), 'sentence')} has "
                             "a score from the judge (every prompt failed or was not sent), so it has no corpus "
                             "score")
        return {"scored": int(total[SCORED]), "unscored": int(total[UNSCORED])}

    # ------------------------------------------------------------------ description
    def sharing_key(self) -> Hashable:
        return (type(self), self.settings)

    def column_names(self) -> list[str]:
        s = self.settings
        tokens = [s.criterion] if s.criterion else []
        tokens += ["gec-metrics-groups"] if s.grouping != "all" else []
        return [" ".join(tokens)] if tokens else []

    def signature_extra(self, references: int | None) -> list[tuple[str, str] | str]:
        """Backend, model (a local folder by its files' fingerprint), server URL when given,
        decoding, criterion and grouping: what changes the answers (all made from the backend
        and its settings, so none is declared on a setting), then ``cache:on`` when answers
        may come from the cache."""
        s = self.settings
        fields: list[tuple[str, str] | str] = [("backend", s.provider), ("model", s.model)]
        if s.is_local:
            from .backends.local import folder_fingerprint

            folder = os.path.expanduser(s.model)
            if os.path.isdir(folder):
                fields[1] = ("model", os.path.basename(os.path.normpath(folder)))
                fields.append(("weights", folder_fingerprint(folder)[:12]))
            fields.append(("decoding", f"greedy-grammar,dtype={s.dtype}"))
        else:
            if s.base_url is not None:
                fields.append(("url", s.base_url))
            decoding = f"{s.structured},temperature={signature_value(s.temperature)}"
            fields.append(("decoding", decoding))
        fields += [("criterion", signature_value(s.criterion)), ("grouping", s.grouping)]
        return fields + self.annotation_fields() + self.run_context.signature_fields()

    def annotation_fields(self) -> list[tuple[str, str]]:
        """What the prompts' edits depend on (LLM-E's annotator); [] for LLM-S."""
        return []


class LLMS(LLMJudgeMetric):
    """LLM-S (Kobayashi et al., BEA 2024): a chat model scores each hypothesis sentence 1-5; mean over sentences."""

    name = "llm-s"
    label = "LLM-S"
    settings_class = LLMSettings
    variant = "llm-s"


class LLME(LLMJudgeMetric):
    """LLM-E (Kobayashi et al., BEA 2024): a chat model scores each hypothesis's ERRANT edits 1-5, mean of sentences."""

    name = "llm-e"
    label = "LLM-E"
    settings_class = LLMESettings
    variant = "llm-e"

    def annotator(self) -> Any:
        """gecmetrics' ERRANT annotator on the setting's spaCy model (one pipeline per process),
        its parses kept in the run's cache."""
        from ...core.lang.en.annotator import Annotator
        from ...core.lang.en.parse import shared_model

        context = self.run_context  # spacy_model None: $GECMETRICS_SPACY_MODEL, else en_core_web_sm
        return Annotator(shared_model(self.settings.spacy_model, context.resources), cache=context.cache)

    def edits(self, sources: Sequence[str], systems: Sequence[Sequence[str]]) -> Any:
        """Each hypothesis's ERRANT edits (start, end, correction), systems x sentences."""
        blocks = self.annotator().annotate(sources, systems, keep_empty=True)
        return edits_from_blocks(blocks, len(systems))

    def settings_dict(self) -> dict[str, Any]:
        """The settings, with the spaCy model the annotator loads (None: $GECMETRICS_SPACY_MODEL,
        else en_core_web_sm) named."""
        from ...core.lang.en.parse import model_name

        return {**super().settings_dict(), "spacy_model": model_name(self.settings.spacy_model)}

    def annotation_fields(self) -> list[tuple[str, str]]:
        """spaCy's and the model's versions (the ERRANT edits the prompts show)."""
        from ...core.lang.en.parse import shared_model

        return list(shared_model(self.settings.spacy_model, self.run_context.resources).versions().items())


# ----------------------------------------------------------------------------- one corpus at once


@dataclass
class JudgedCorpus:
    """Every hypothesis of a corpus judged in one run: each one's result (mean score,
    ``scored``, ``unscored``), its sentence scores (NaN where none), the run's report and each
    hypothesis's statistics (what :meth:`joined` adds up over the chunks of a corpus)."""

    metric: LLMJudgeMetric
    results: dict[str, Any]
    sentence_scores: dict[str, np.ndarray]
    report: JudgeReport
    statistics: dict[str, np.ndarray] = field(default_factory=dict)

    @classmethod
    def joined(cls, parts: Sequence["JudgedCorpus"]) -> "JudgedCorpus":
        """The judged chunks of one corpus, in order, as one (the run engine's ``map_chunks``
        judges them, in worker processes with ``-p``): statistics joined, scored again."""
        if not parts:
            raise InputError("the corpus has no sentences (an empty file scores nothing)")
        metric = parts[0].metric
        statistics = {name: metric.join_statistics([part.statistics[name] for part in parts])
                      for name in parts[0].statistics}
        return cls.scored(metric, statistics, JudgeReport.merged([part.report for part in parts]))

    @classmethod
    def scored(cls, metric: LLMJudgeMetric, statistics: dict[str, np.ndarray], report: JudgeReport) -> "JudgedCorpus":
        """Each hypothesis scored from its statistics; one none of whose sentences has a score is
        an error that says why, from the run's report (the command stops before printing it)."""
        results = {}
        for name, rows in statistics.items():
            try:
                results[name] = metric.score_of(name, rows)
            except InputError as err:
                raise InputError(f"{err}: {report.why()}") from None
        return cls(metric, results, {name: metric.sentence_from_statistics(rows).scores
                                     for name, rows in statistics.items()}, report, statistics)


def judge_corpus(metric: LLMJudgeMetric, corpus: Corpus) -> JudgedCorpus:
    """Judge every hypothesis of ``corpus`` in one run (one plan: equal prompts asked once) and
    score each (what ``gecmetric llm`` prints)."""
    part = judge_part(metric, corpus)
    return JudgedCorpus.scored(metric, part.statistics, part.report)


def judge_part(metric: LLMJudgeMetric, corpus: Corpus) -> JudgedCorpus:
    """Judge every hypothesis of ``corpus``, a chunk of a corpus: its statistics and report, not
    yet scored (:meth:`JudgedCorpus.joined` scores the whole; a chunk whose prompts all failed
    stopped the run when each chunk was scored on its own)."""
    if not isinstance(metric, LLMJudgeMetric):
        raise InputError(f"judge_corpus needs an LLM judge metric (llm-s, llm-e), got {type(metric).__name__}")
    reports: list[JudgeReport] = []
    metric.on_report = reports.append
    try:
        prepared = metric.prepare(corpus)
    finally:
        metric.on_report = None
    statistics = {name: metric.statistics(prepared, corpus.hypothesis(name, TEXT, metric.display_name))
                  for name in corpus.hypotheses}
    return JudgedCorpus(metric, {}, {}, reports[0], statistics)
