"""The answer of one prompt: a JSON object with a score from 1 to 5 per target.

gec-metrics asks for it with OpenAI structured output: a JSON schema named
``LLMSentOutputFormatN`` whose integer properties are ``target_score1`` .. ``target_scoreN``
(:func:`response_format` writes the exact request field). The prompt text itself shows the keys
as ``target1_score`` inside a markdown ```json block, so answers from servers without
structured output may take that form; :func:`parse_answer` accepts both and checks the rest.
"""
from __future__ import annotations

import json
import math
import re
from typing import Any

from ...errors import InputError, shown

SCORE_MIN, SCORE_MAX = 1, 5

_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL)
_KEY = re.compile(r"target_score([0-9]+)|target([0-9]+)_score")
"""A target's key, matched whole (``fullmatch``), its number in ASCII digits (``\\d`` read
Arabic-Indic and fullwidth digits, and ``$`` let a trailing newline through)."""
_MAX_TARGET_DIGITS = 9
"""A target number of more digits (leading zeros aside) is beyond any prompt's targets; int() of
more than 4,300 digits raised a ValueError that ended the run with a traceback."""


class BadAnswer(ValueError):
    """An answer that is not a score from 1 to 5 for each target; ``reason`` is its kind
    (``empty``, ``not-json``, ``duplicate-key``, ``not-object``, ``missing``, ``extra``,
    ``not-integer``, ``out-of-range``), the message says more."""

    def __init__(self, reason: str, message: str):
        self.reason = reason
        super().__init__(message)


def schema_name(n: int) -> str:
    """gec-metrics' name of the answer schema for ``n`` targets (its pydantic class name)."""
    return f"LLMSentOutputFormat{n}"


def answer_schema(n: int) -> dict[str, Any]:
    """The JSON schema of an answer with ``n`` targets, as pydantic writes gec-metrics' model."""
    keys = [f"target_score{i}" for i in range(1, n + 1)]
    return {"properties": {key: {"title": f"Target Score{i}", "type": "integer"}
                           for i, key in enumerate(keys, 1)},
            "required": keys, "title": schema_name(n), "type": "object", "additionalProperties": False}


def response_format(n: int) -> dict[str, Any]:
    """The ``response_format`` field gec-metrics' OpenAI client sends for ``n`` targets."""
    return {"type": "json_schema",
            "json_schema": {"schema": answer_schema(n), "name": schema_name(n), "strict": True}}


def compact_answer(scores: list[int]) -> str:
    """The canonical text of an answer (what the cache stores for local models)."""
    return json.dumps({f"target_score{i}": s for i, s in enumerate(scores, 1)})


class _DuplicateKey(Exception):
    def __init__(self, key: str):
        super().__init__(key)
        self.key = key


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are all different (``json.loads`` would keep the last of two)."""
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise _DuplicateKey(key)
        found[key] = value
    return found


def parse_answer(content: str | None, n: int) -> list[int]:
    """The ``n`` scores of an answer, or :class:`BadAnswer`.

    Accepts the JSON object alone or inside a markdown code block, with keys
    ``target_scoreK`` or ``targetK_score``; other keys are ignored, a key given twice is not
    (which of the two would count?). Scores are integers (an
    integral float such as 4.0 counts) from 1 to 5, one for each of targets 1..n.
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise InputError(f"n (the number of targets) must be an integer >= 1, got {shown(n)}")
    if content is not None and not isinstance(content, str):  # (a backend of the caller's)
        raise BadAnswer("not-json", f"not a text: {type(content).__name__}")
    if content is None or not content.strip():
        raise BadAnswer("empty", "empty answer")
    text = content.strip()
    fenced = _FENCE.search(text)
    if fenced and not text.startswith("{"):
        text = fenced.group(1).strip()
    try:
        value = json.loads(text, object_pairs_hook=_unique_keys)
    except _DuplicateKey as duplicate:
        raise BadAnswer("duplicate-key", f"the key {duplicate.key!r} is given twice: {content[:80]!r}") from None
    except (ValueError, RecursionError):  # (RecursionError: nesting deeper than Python's stack)
        raise BadAnswer("not-json", f"not JSON: {content[:80]!r}") from None
    if not isinstance(value, dict):
        raise BadAnswer("not-object", f"not a JSON object: {content[:80]!r}")
    found: dict[int, Any] = {}
    for key, score in value.items():
        match = _KEY.fullmatch(key)
        if match:
            digits = (match.group(1) or match.group(2)).lstrip("0") or "0"
            if len(digits) > _MAX_TARGET_DIGITS:
                raise BadAnswer("extra", f"a score for target {digits[:12]}... of {n}")
            k = int(digits)
            if k in found and found[k] != score:
                raise BadAnswer("not-object", f"two different scores for target {k}")
            found[k] = score
    extra = sorted(k for k in found if not 1 <= k <= n)
    if extra:
        raise BadAnswer("extra", f"scores for targets {extra} of {n}")
    missing = [k for k in range(1, n + 1) if k not in found]
    if missing:
        raise BadAnswer("missing", f"no score for targets {missing} of {n}")
    scores = []
    for k in range(1, n + 1):
        score = found[k]
        if isinstance(score, bool) or not (isinstance(score, int) or (  # (an int may be past float's range)
                isinstance(score, float) and math.isfinite(score) and score == int(score))):
            raise BadAnswer("not-integer", f"target {k}: {shown(score)} is not an integer")
        if not SCORE_MIN <= score <= SCORE_MAX:
            raise BadAnswer("out-of-range", f"target {k}: {shown(score)} is outside {SCORE_MIN}..{SCORE_MAX}")
        scores.append(int(score))
    return scores
