"""Run the prompts of a plan through a backend, with the persistent cache, bad-answer retries
and a request budget, and turn the answers into sentence scores.

Every valid answer is stored in the cache as soon as it arrives (key: the backend's identity,
its decoding settings and the prompt text), so a re-run costs no requests and a run that was
killed resumes where it stopped. An answer that is not a 1-5 score per target is asked again up
to ``answer_retries`` times, then counted in the report by reason; its scores stay NaN. With
``max_requests`` the judge never hands the backend more than that many requests in one run and
reports the prompts left unsent.
"""
from __future__ import annotations

import json
import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Sequence

import numpy as np

from ...core.cache import Cache, cache_key
from ...core.checks import check_finite_non_negative
from ...core.table import round_half_up
from ...errors import InputError, large_count, plural, shown
from .answers import BadAnswer, compact_answer, parse_answer
from .backends.base import (MAX_TOKEN_COUNT, Backend, BackendError, ChatRequest, Completion, check_backend,
                            token_count)
from .prompts import MAX_TARGETS, Edit, PromptPlan, build_plan, group_hypotheses, instruction_template

ANSWER_FORMAT = "gecmetrics-llm-judge/1"
"""The first part of every cache key: what a stored value means (bump when it changes)."""


@dataclass
class JudgeReport:
    """What one run did. ``requested`` counts requests handed to the backend (retries of bad
    answers included); ``failed`` maps prompt index -> (reason, message) for prompts left
    without an answer; ``not_sent`` lists prompts the budget stopped."""

    prompts: int = 0
    cached: int = 0
    requested: int = 0
    answered: int = 0
    retried: int = 0
    bad_answers: Counter = field(default_factory=Counter)
    failed: dict[int, tuple[str, str]] = field(default_factory=dict)
    not_sent: list[int] = field(default_factory=list)
    budget_reached: bool = False
    prompt_tokens: int = 0
    completion_tokens: int = 0

    @classmethod
    def merged(cls, reports: Sequence["JudgeReport"]) -> "JudgeReport":
        """The reports of consecutive runs (the chunks of one corpus) as one: counts added, the
        prompts of the later runs numbered after the earlier ones'."""
        total, offset = cls(), 0
        for report in reports:
            for name in ("prompts", "cached", "requested", "answered", "retried", "prompt_tokens",
                         "completion_tokens"):
                setattr(total, name, getattr(total, name) + getattr(report, name))
            total.bad_answers.update(report.bad_answers)
            total.failed.update({offset + k: value for k, value in report.failed.items()})
            total.not_sent += [offset + k for k in report.not_sent]
            total.budget_reached = total.budget_reached or report.budget_reached
            offset += report.prompts
        return total

    @property
    def complete(self) -> bool:
        """Whether every prompt has an answer."""
        return not self.failed and not self.not_sent

    def summary(self) -> str:
        """The report in a few lines for people."""
        lines = [f"{self.prompts} prompts: {self.cached} from the cache, {self.requested} requests sent, "
                 f"{self.answered} new answers"]
        if self.prompt_tokens or self.completion_tokens:
            lines.append(f"tokens: {self.prompt_tokens} prompt, {self.completion_tokens} completion")
        if self.bad_answers:
            kinds = ", ".join(f"{k}: {v}" for k, v in sorted(self.bad_answers.items()))
            lines.append(f"bad answers: {sum(self.bad_answers.values())} ({kinds}); {self.retried} asked again")
        if self.failed:
            lines.append(f"{self._failures()}; their scores are missing")
        if self.budget_reached:
            lines.append(f"request budget reached: {len(self.not_sent)} prompts not sent "
                         "(answers so far are cached; run again to continue)")
        return "\n".join(lines)

    def _failures(self) -> str:
        """The prompts without an answer: how many of each kind, and the first one's message."""
        reasons = Counter(reason for reason, _ in self.failed.values())
        kinds = ", ".join(f"{k}: {v}" for k, v in sorted(reasons.items()))
        first = self.failed[min(self.failed)][1]
        return f"{len(self.failed)} prompts without an answer ({kinds}; the first: {first})"

    def why(self) -> str:
        """Why prompts have no answer, in one line (the failures, the budget), for an error."""
        parts = [self._failures()] if self.failed else []
        if self.budget_reached:
            parts.append(f"request budget reached: {len(self.not_sent)} prompts not sent (--max-requests)")
        return "; ".join(parts) or "no prompt failed"

    def counts(self) -> dict[str, Any]:
        """The report in numbers (:meth:`to_dict` with the prompts that failed and were not sent
        counted, not listed): what every object of ``gecmetric llm --json`` carries."""
        return {**self.to_dict(), "failed": len(self.failed), "not_sent": len(self.not_sent)}

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready copy."""
        return {"prompts": self.prompts, "cached": self.cached, "requested": self.requested,
                "answered": self.answered, "retried": self.retried, "bad_answers": dict(self.bad_answers),
                "failed": {str(k): list(v) for k, v in self.failed.items()}, "not_sent": list(self.not_sent),
                "budget_reached": self.budget_reached, "complete": self.complete,
                "prompt_tokens": self.prompt_tokens, "completion_tokens": self.completion_tokens}


@dataclass
class JudgeResult:
    """The plan, each prompt's scores (None: no answer), the sentence scores (sentences x
    systems, NaN where missing) and the run's report."""

    plan: PromptPlan
    answers: list[list[int] | None]
    scores: np.ndarray
    report: JudgeReport

    def system_scores(self) -> np.ndarray:
        """Each system's mean sentence score over the sentences that have one (NaN if none)."""
        with np.errstate(invalid="ignore"):
            counts = (~np.isnan(self.scores)).sum(axis=0)
            sums = np.nansum(self.scores, axis=0)
            return np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)


@dataclass
class DryRun:
    """What a run would cost: prompts in all, from the cache, to request (at most the budget),
    and their tokens (exact when the backend has the tokenizer, else estimated) and price."""

    prompts: int
    cached: int
    to_request: int
    prompt_tokens: int
    completion_tokens: int
    exact: bool
    cost: float | None = None
    over_budget: int = 0

    def summary(self, digits: int = 4) -> str:
        """The estimate in a few lines for people (the cost to ``digits`` decimals, rounded half up)."""
        how = "" if self.exact else "~"
        lines = [f"{self.prompts} prompts: {self.cached} in the cache, {self.to_request} to request",
                 f"tokens to send: {how}{self.prompt_tokens} prompt, {how}{self.completion_tokens} completion "
                 f"({'counted with the model tokenizer' if self.exact else 'estimated at 4 characters a token'})"]
        if self.cost is not None:
            lines.append(f"estimated cost: {round_half_up(self.cost, digits)} (at the given prices per million tokens, "
                         "without retries)")
        if self.over_budget:
            lines.append(f"{self.over_budget} more prompts are beyond the request budget")
        return "\n".join(lines)


def _check_count(name: str, value: int | None, minimum: int) -> None:
    if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < minimum):
        raise InputError(f"{name} must be an integer >= {minimum}, not {value!r}")


class Judge:
    """LLM-S or LLM-E with one backend: plan the prompts, answer them (cache first), score.

    ``cache``: a :class:`~gecmetrics.core.cache.Cache` (``None``: the default folder's,
    ``$GECMETRICS_CACHE`` else the user cache folder; pass ``Cache(enabled=False)`` for none; the
    LLM metrics give their run's). ``progress(done, total)`` is called after each answer.
    """

    def __init__(self, backend: Backend, *, variant: str = "llm-s", criterion: str | None = None,
                 grouping: str = "all", max_targets: int = MAX_TARGETS, cache: Cache | None = None,
                 answer_retries: int = 2, max_requests: int | None = None,
                 progress: Callable[[int, int], None] | None = None):
        _check_count("answer_retries", answer_retries, 0)
        _check_count("max_requests", max_requests, 0)
        check_backend(backend)
        if progress is not None and not callable(progress):
            raise InputError(f"progress must be a function of (done, total) or None, got {type(progress).__name__}")
        instruction_template(variant, criterion)  # unknown variant or criterion: InputError now
        group_hypotheses([], grouping, max_targets)
        self.backend = backend
        self.variant, self.criterion, self.grouping, self.max_targets = variant, criterion, grouping, max_targets
        if cache is None:
            from ...core.context import run_context

            cache = run_context().cache
        elif not callable(getattr(cache, "get_many", None)) or not callable(getattr(cache, "put_many", None)):
            raise InputError(f"cache must be a Cache (gecmetrics.core.cache.Cache(folder)) or None, not {cache!r}")
        self.cache = cache
        self.answer_retries = answer_retries
        self.max_requests = max_requests
        self.progress = progress

    def plan(self, sources: Sequence[str], hypotheses: Sequence[Sequence[str]],
             edits: Sequence[Sequence[Sequence[Edit]]] | None = None) -> PromptPlan:
        """The prompts for ``hypotheses`` (systems x sentences) of ``sources``."""
        return build_plan(sources, hypotheses, self.variant, self.criterion, edits, self.grouping, self.max_targets)

    def keys(self, plan: PromptPlan) -> list[bytes]:
        """The cache key of each prompt of ``plan`` with this backend."""
        parts = self.backend.cache_parts(self.cache)
        return [cache_key(ANSWER_FORMAT, *parts, prompt) for prompt in plan.prompts]

    def _cached(self, plan: PromptPlan, keys: list[bytes]) -> list[list[int] | None]:
        stored = self.cache.get_many(self.backend.cache_namespace(), keys)
        answers: list[list[int] | None] = []
        for key, n in zip(keys, plan.sizes):
            value = stored.get(key)
            try:
                answers.append(parse_answer(json.loads(value)["content"], n) if value is not None else None)
            except (BadAnswer, ValueError, KeyError, TypeError):
                answers.append(None)  # not a value this version wrote: ask again
        return answers

    def dry_run(self, sources: Sequence[str], hypotheses: Sequence[Sequence[str]],
                edits: Sequence[Sequence[Sequence[Edit]]] | None = None,
                prices: tuple[float, float] | None = None) -> DryRun:
        """Prompts, cached answers and the tokens (and cost at ``prices`` = (input, output) per
        million tokens) still to spend, without sending anything."""
        if prices is not None:
            if not isinstance(prices, (tuple, list)) or len(prices) != 2:
                raise InputError(f"prices are (input, output) per million tokens, not {prices!r}")
            prices = (check_finite_non_negative(prices[0], "the price of a million prompt tokens (--price-in)"),
                      check_finite_non_negative(prices[1], "the price of a million answer tokens (--price-out)"))
        plan = self.plan(sources, hypotheses, edits)
        answers = self._cached(plan, self.keys(plan))
        todo = [k for k, a in enumerate(answers) if a is None]
        over = 0
        if self.max_requests is not None and len(todo) > self.max_requests:
            over = len(todo) - self.max_requests
            todo = todo[:self.max_requests]
        prompt_tokens = completion_tokens = 0
        exact = True
        for k in todo:
            counts = self.backend.count_tokens(ChatRequest(plan.prompts[k], plan.sizes[k]))
            p, c, e = _checked_counts(self.backend, counts)
            prompt_tokens, completion_tokens, exact = prompt_tokens + p, completion_tokens + c, exact and e
        cost = None if prices is None else (prompt_tokens * prices[0] + completion_tokens * prices[1]) / 1e6
        if cost is not None and not math.isfinite(cost):  # each price finite, their product with the tokens not
            raise InputError(f"the prices (--price-in {prices[0]:g}, --price-out {prices[1]:g} per million tokens) give "
                             f"{prompt_tokens} prompt and {completion_tokens} answer tokens a cost beyond any number")
        return DryRun(len(plan.prompts), len(plan.prompts) - len(todo) - over, len(todo),
                      prompt_tokens, completion_tokens, exact, cost, over)

    def score(self, sources: Sequence[str], hypotheses: Sequence[Sequence[str]],
              edits: Sequence[Sequence[Sequence[Edit]]] | None = None) -> JudgeResult:
        """Sentence scores of every system (see :class:`JudgeResult`)."""
        return self.run(self.plan(sources, hypotheses, edits))

    def run(self, plan: PromptPlan) -> JudgeResult:
        """Answer every prompt of ``plan``: from the cache, else from the backend."""
        keys = self.keys(plan)
        namespace = self.backend.cache_namespace()
        answers = self._cached(plan, keys)
        report = JudgeReport(prompts=len(plan.prompts), cached=sum(a is not None for a in answers))
        attempts: Counter = Counter()
        pending = [k for k, a in enumerate(answers) if a is None]
        done = report.cached
        while pending:
            batch = pending
            if self.max_requests is not None:
                allowed = self.max_requests - report.requested
                if allowed <= 0:
                    report.budget_reached = True
                    report.not_sent = sorted(pending)
                    break
                batch = pending[:allowed]
            later = pending[len(batch):]
            report.requested += len(batch)
            again = []
            requests = [ChatRequest(plan.prompts[k], plan.sizes[k]) for k in batch]
            given: set[int] = set()
            for j, completion in _generated(self.backend, requests, given):
                k = batch[j]
                attempts[k] += 1
                report.prompt_tokens += token_count(completion.prompt_tokens)
                report.completion_tokens += token_count(completion.completion_tokens)
                if completion.error is not None:
                    report.failed[k] = ("request-failed", completion.error)
                    continue
                try:
                    scores = parse_answer(completion.content, plan.sizes[k])
                except BadAnswer as bad:
                    report.bad_answers[bad.reason] += 1
                    if attempts[k] <= self.answer_retries:
                        again.append(k)
                    else:  # (its message quotes the answer: not one that holds the key)
                        report.failed[k] = (bad.reason, str(bad) if not completion.holds_key else
                                            f"{bad.reason}: the answer holds the API key (not shown)")
                    continue
                answers[k] = scores
                self.cache.put_many(namespace, {keys[k]: _stored(completion, scores)})
                report.answered += 1
                done += 1
                if self.progress is not None:
                    self.progress(done, len(plan.prompts))
            for j in sorted(set(range(len(batch))) - given):  # a backend that gave no completion for it
                report.failed[batch[j]] = ("request-failed", "the backend returned no completion")
            report.retried += len(again)
            pending = sorted(again) + later
        return JudgeResult(plan, answers, plan.assemble(answers), report)


def _generated(backend: Any, requests: list[ChatRequest], given: set[int]) -> Iterator[tuple[int, Completion]]:
    """The (index, completion) pairs of ``backend.generate(requests)``, each index added to
    ``given``. A backend of the caller's that returns no iterable (None), gives what is no such
    pair or answers a request twice is one BackendError naming what it gave (a TypeError
    traceback, or a second answer counted twice in the report, before)."""
    items = backend.generate(requests)
    try:
        iterator = iter(items)
    except TypeError:
        raise BackendError(f"backend {type(backend).__name__}: generate() must return an iterable of (index of a "
                           f"request, Completion) pairs, not {shown(items)}") from None
    for item in iterator:
        j, completion = _checked_item(backend, item, len(requests))
        if j in given:
            raise BackendError(f"backend {type(backend).__name__}: generate() gave request {j} a second completion "
                               f"(one for each of its {plural(len(requests), 'request')})")
        given.add(j)
        yield j, completion


def _checked_item(backend: Any, item: Any, size: int) -> tuple[int, Completion]:
    """One (index, completion) of ``backend.generate``: a backend of the caller's that gives
    anything else is one BackendError (an IndexError or AttributeError traceback before)."""
    try:
        j, completion = item
    except (TypeError, ValueError):
        j = completion = None
    if isinstance(j, bool) or not isinstance(j, (int, np.integer)) or not 0 <= j < size \
            or not _completion_like(completion):
        raise BackendError(f"backend {type(backend).__name__}: generate() must give (index of a request, Completion) "
                           f"pairs for its {plural(size, 'request')}, not {type(item).__name__} {shown(item)}")
    return int(j), completion


def _completion_like(completion: Any) -> bool:
    """Whether ``completion`` has a Completion's fields and its error is a text or None (an error
    of another type went into the report's failures as it was; content that is no text is a bad
    answer, counted and asked again as one)."""
    return all(hasattr(completion, name) for name in ("content", "error", "prompt_tokens", "completion_tokens",
                                                      "holds_key")) and (
        completion.error is None or isinstance(completion.error, str))


def _checked_counts(backend: Any, counts: Any) -> tuple[int, int, bool]:
    """What ``backend.count_tokens`` returned, checked: (prompt tokens, answer tokens, exact?),
    each count an int as :func:`~.backends.base.token_count` keeps one (0 to
    MAX_TOKEN_COUNT) and ``exact`` True or False. Anything else is refused with a BackendError
    naming it, not read as 0 as a completion's odd usage is: the dry run's counts are its whole
    answer, and a count taken as 0 would be a silently wrong estimate (a TypeError or ValueError
    traceback, or a nan total, before)."""
    try:
        p, c, exact = counts
    except (TypeError, ValueError):
        p = c = exact = None
    if not (_is_count(p) and _is_count(c) and isinstance(exact, (bool, np.bool_))):
        raise BackendError(f"backend {type(backend).__name__}: count_tokens() must return (prompt tokens, answer "
                           f"tokens, exact?): two integers from 0 to {large_count(MAX_TOKEN_COUNT)} and True or "
                           f"False, not {shown(counts)}")
    return p, c, bool(exact)


def _is_count(value: Any) -> bool:
    """Whether token_count() keeps ``value`` as it is (an int, not a bool, from 0 to MAX_TOKEN_COUNT)."""
    return isinstance(value, int) and not isinstance(value, bool) and token_count(value) == value


def _stored(completion: Completion, scores: list[int]) -> bytes:
    """What the cache keeps of a good answer: the answer, or, when it holds the API key, its
    scores in the canonical form (the answer with the key cut out may not read as they did), and
    its token counts as the report counts them (token_count: an odd one, nan or negative, as 0)."""
    content = compact_answer(scores) if completion.holds_key else completion.content
    value = {"content": content, "prompt_tokens": token_count(completion.prompt_tokens),
             "completion_tokens": token_count(completion.completion_tokens)}
    try:
        return json.dumps(value, ensure_ascii=False).encode()
    except UnicodeEncodeError:  # a lone surrogate (a reply's "\ud800" escape): JSON's escapes keep it
        return json.dumps(value, ensure_ascii=True).encode()
