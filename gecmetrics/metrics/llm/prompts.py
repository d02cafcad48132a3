"""The prompts of LLM-S and LLM-E as gec-metrics writes them, and the grouping of hypotheses.

gec-metrics (gotutiyan/gec-metrics, ``metrics/llm_kobayashi24.py``) fills one instruction
template per source with two successive ``str.replace`` calls (``[SOURCE]``, then
``[CORRECTION]`` with the targets joined by newlines), and shows at most five distinct
hypotheses: the five most frequent among the systems (ties in first-occurrence order), sorted.
LLM-E shows each hypothesis as its ERRANT edits, ``o_str→c_str`` joined by spaces (an
unchanged hypothesis is an empty line). A criterion sentence is inserted before the blank line
that precedes ``# context``; the LLM-S template has no ``# context`` section, so in gec-metrics
(and here) the LLM-S criteria leave the prompt unchanged. The texts below are byte for byte
gec-metrics' (tests/test_llm_prompts.py checks them against its recorded requests).

Grouping ``"gec-metrics"`` keeps its single prompt per source (hypotheses beyond the five most
frequent get no score); ``"all"`` scores every distinct hypothesis: the frequency order is cut
into runs of at most five, each run sorted, so the first prompt of a source is gec-metrics'
prompt and more systems make more prompts.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from ...core.checks import check_count
from ...core.lines import LONE_SURROGATE
from ...errors import InputError, kind_of, plural, shown
from ...io.text import check_sequence

VARIANTS = ("llm-s", "llm-e")
"""LLM-S shows sentences, LLM-E shows ERRANT edits."""
GROUPINGS = ("all", "gec-metrics")
MAX_TARGETS = 5
"""The most targets one prompt shows (the paper's and gec-metrics' limit)."""

_OUTPUT_FORMAT_S = '''# output format
The output should be a markdown code snippet formatted in the following schema, including the leading and trailing "```json" and "```":
```json
{
"target1_score": int // assigned score for target 1
...
"targetN_score": int // assigned score for target N
}
```
'''
_OUTPUT_FORMAT_E = '''# output format
The output should be a markdown code snippet formatted in the
following schema, including the leading and trailing "```json" and "```":
```json
{
"target1_score": int // assigned score for target 1
...
"targetN_score": int // assigned score for target N
}
```
'''
_TASK = '''The goal of this task is to rank the presented targets based on the quality of the sentences.
After reading the source sentence and target sentences, please assign a score from a minimum of 1 point to a maximum of 5 points to each target based on the quality of the sentence (note that you can assign the same score multiple times).
'''

TEMPLATES = {
    "llm-s": _TASK + '''
# source
[SOURCE]

# targets
[CORRECTION]

''' + _OUTPUT_FORMAT_S,
    "llm-e": _TASK + '''For targets without any edits, if the sentence is correct, they will be awarded 5 points; if there is an error, they will receive 1 point.
The edits in each target are indicated as follows:
Insert "the": [→the]
Delete "the": [the→]
Replace "the" with "a": [the→a]

# context
[SOURCE]

# targets
[CORRECTION]

''' + _OUTPUT_FORMAT_E,
}
"""gec-metrics' ``instruction_template`` of its Sent and Edit classes."""

CRITERIA = {
    "llm-s": {
        "grammaticality": "Please evaluate each target with a focus on the grammaticality of the sentence.",
        "fluency": "Please evaluate each target with a focus on the fluency of the sentence.",
        "meaning": "Please evaluate each target with a focus on preserving the meaning between each target "
                   "and the source, which is the middle sentence in the context.",
    },
    "llm-e": {
        "difficulty": "Please evaluate each edit in the target with a focus on the difficulty of corrections.",
        "impact": "Please evaluate each edit in the target with a focus on its impact on the sentence.",
    },
}
"""The optional criteria of each variant (gec-metrics' ``criteria2prompt``)."""

_CRITERION_ANCHOR = "\n\n# context"

Edit = tuple[int, int, str]
"""(start, end, correction): source tokens [start, end) (whitespace tokens) become correction."""


def check_variant(variant: str) -> str:
    """``variant`` if it is one of :data:`VARIANTS`, else an InputError."""
    if variant not in VARIANTS:
        raise InputError(f"unknown LLM judge variant {variant!r} (one of {', '.join(VARIANTS)})")
    return variant


def instruction_template(variant: str, criterion: str | None = None) -> str:
    """The template of ``variant`` with the ``criterion`` sentence inserted where gec-metrics
    inserts it (before the blank line ahead of ``# context``; nowhere in LLM-S)."""
    template = TEMPLATES[check_variant(variant)]
    if criterion is None:
        return template
    known = CRITERIA[variant]
    if not isinstance(criterion, str) or criterion not in known:
        raise InputError(f"unknown criterion {criterion!r} for {variant} (one of {', '.join(known)})")
    return template.replace(_CRITERION_ANCHOR, f"\n{known[criterion]}{_CRITERION_ANCHOR}")


def fill_template(template: str, source: str, targets: Sequence[str]) -> str:
    """The prompt: ``[SOURCE]`` replaced by the source, then ``[CORRECTION]`` (also one the
    source brought in) by the targets, one per line, as gec-metrics does."""
    for value, what in ((template, "template"), (source, "source")):
        if not isinstance(value, str):
            raise InputError(f"the {what} must be a text, got {kind_of(value)}")
    targets = check_sequence(targets, "targets", "texts")
    if not all(isinstance(target, str) for target in targets):
        raise InputError("targets must be texts, one per hypothesis", "targets")
    return template.replace("[SOURCE]", source).replace("[CORRECTION]", "\n".join(targets))


def format_edits(source: str, edits: Sequence[Edit]) -> str:
    """LLM-E's view of a hypothesis: ``original→correction`` per edit, joined by spaces, the
    original being the source's whitespace tokens [start, end) joined by spaces."""
    if not isinstance(source, str):
        raise InputError(f"the source must be a text, got {kind_of(source)}")
    tokens = source.split()
    parts = []
    for edit in check_sequence(edits, "edits", "(start, end, correction) edits"):
        try:
            start, end, correction = edit
        except (TypeError, ValueError):
            raise InputError(f"an edit is (start, end, correction), not {edit!r}") from None
        if not (isinstance(start, (int, np.integer)) and isinstance(end, (int, np.integer))
                and isinstance(correction, str)):
            raise InputError(f"an edit is (start, end, correction), not {edit!r}")
        if not 0 <= start <= end <= len(tokens):
            raise InputError(f"edit {edit!r} is outside the {plural(len(tokens), 'token')} of source {source!r}")
        if _LINE_BREAK.search(correction) or (not correction.isascii() and LONE_SURROGATE.search(correction)):
            raise InputError(f"edit {edit!r}: its correction holds a line break or a lone surrogate (the prompt lists "
                             "one target a line, so the judge's scores would go to the wrong hypotheses)")
        parts.append(f"{' '.join(tokens[start:end])}→{correction}")
    return " ".join(parts)


def edits_from_blocks(blocks: Sequence[Any], systems: int) -> list[list[list[Edit]]]:
    """LLM-E's ``edits`` (systems x sentences) from annotated M2 blocks, one per sentence, whose
    annotator ``k`` is system ``k`` (what ``Annotator.annotate(sources, systems)`` returns with
    ``keep_empty=True``); noop lines mean no edits."""
    from ...io.m2 import Block

    systems = check_count(systems, "systems (the number of systems)", 1)
    blocks = check_sequence(blocks, "blocks", "M2 blocks (one per sentence)")
    out: list[list[list[Edit]]] = [[] for _ in range(systems)]
    for number, block in enumerate(blocks, start=1):
        if not isinstance(block, Block):
            raise InputError(f"expected M2 blocks (Annotator.annotate(..., keep_empty=True)), got {kind_of(block)} "
                             f"at sentence {number}", "blocks")
        per_system: list[list[Edit]] = [[] for _ in range(systems)]
        for edit in block.edits:
            if not 0 <= edit.annotator < systems:
                raise InputError(f"an edit of annotator {edit.annotator} for {plural(systems, 'system')}")
            if not edit.is_noop:
                per_system[edit.annotator].append((edit.start, edit.end, edit.correction))
        for k in range(systems):
            out[k].append(per_system[k])
    return out


def by_frequency(hypotheses: Sequence[str]) -> list[str]:
    """The distinct hypotheses, most frequent first, ties in first-occurrence order."""
    counts = Counter(hypotheses)
    return sorted(counts, key=counts.__getitem__, reverse=True)


def group_hypotheses(hypotheses: Sequence[str], grouping: str = "all",
                     max_targets: int = MAX_TARGETS) -> list[list[str]]:
    """The targets of each prompt for one source's hypotheses (one per system): the frequency
    order in runs of ``max_targets``, each sorted; ``"gec-metrics"`` keeps only the first run."""
    if grouping not in GROUPINGS:
        raise InputError(f"unknown grouping {grouping!r} (one of {', '.join(GROUPINGS)})")
    max_targets = check_count(max_targets, "max_targets")
    ranked = by_frequency(hypotheses)
    runs = [sorted(ranked[i:i + max_targets]) for i in range(0, len(ranked), max_targets)]
    return runs[:1] if grouping == "gec-metrics" else runs


@dataclass(frozen=True)
class PromptPlan:
    """The distinct prompts of a corpus and where each (sentence, system) finds its score.

    ``prompts[k]`` shows ``targets[k]`` (hypothesis texts, in the prompt's order);
    ``prompt_of[i, s]`` / ``position_of[i, s]`` give the prompt and target position scoring
    system ``s`` on sentence ``i`` (-1: not scored, gec-metrics' grouping with more than five
    distinct hypotheses); ``prompts_of_sentence[i]`` lists sentence ``i``'s prompts in order.
    """

    variant: str
    criterion: str | None
    grouping: str
    prompts: list[str]
    targets: list[list[str]]
    prompt_of: np.ndarray
    position_of: np.ndarray
    prompts_of_sentence: list[list[int]]

    @property
    def sizes(self) -> list[int]:
        """The number of targets of each prompt."""
        return [len(t) for t in self.targets]

    @property
    def shape(self) -> tuple[int, int]:
        """(sentences, systems)."""
        return self.prompt_of.shape  # type: ignore[return-value]

    def assemble(self, answers: Sequence[Sequence[int] | None]) -> np.ndarray:
        """Scores (sentences x systems, float; NaN where not scored or the prompt has no
        answer) from one answer (a score per target) or None per prompt."""
        answers = check_sequence(answers, "answers", "answers (a list of scores, or None, per prompt)")
        if len(answers) != len(self.prompts):
            raise InputError(f"{len(answers)} answers for {len(self.prompts)} prompts")
        table = np.full((len(self.prompts), max(self.sizes, default=1)), np.nan)
        for k, answer in enumerate(answers):
            if answer is not None:
                answer = _scores_of(answer, k)
                if len(answer) != len(self.targets[k]):
                    raise InputError(f"prompt {k} has {len(self.targets[k])} targets, not {len(answer)}")
                table[k, :len(answer)] = answer
        scores = np.full(self.prompt_of.shape, np.nan)
        scored = self.prompt_of >= 0
        scores[scored] = table[self.prompt_of[scored], self.position_of[scored]]
        return scores


def _scores_of(answer: Any, k: int) -> list[float]:
    """One prompt's answer: a score (a number) per target."""
    answer = check_sequence(answer, f"the answer of prompt {k}", "scores (one per target)")
    if not all(isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, bool) for x in answer):
        raise InputError(f"the answer of prompt {k} must be numbers (a score per target), got {shown(answer)}")
    return answer


_LINE_BREAK = re.compile("[\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")
"""What ``str.splitlines()`` splits on: a prompt lists one target a line."""


def _checked_corpus(sources: Any, hypotheses: Any) -> tuple[list[str], list[list[str]]]:
    """The sources and hypotheses as lists of one-line strings. A line break inside one (files
    cannot hold it; a Python caller's string can) is refused: the prompt, one target a line,
    would list more lines than the answer has scores, and they would go to the wrong sentences."""
    sources = check_sequence(sources, "sources", "strings")
    if not all(isinstance(s, str) for s in sources):
        raise InputError("sources must be a list of strings")
    hypotheses = check_sequence(hypotheses, "hypotheses", "systems (each a list of sentences)")
    if len(hypotheses) == 0:
        raise InputError("hypotheses must be a non-empty list (systems) of lists of sentences")
    for s, system in enumerate(hypotheses):
        if isinstance(system, str):
            raise InputError(f"system {s} must be a list of sentences")
        system = hypotheses[s] = check_sequence(system, f"system {s}", "sentences")
        if len(system) != len(sources):
            raise InputError(f"system {s} has {plural(len(system), 'sentence')} for {len(sources)} sources")
        if not all(isinstance(h, str) for h in system):
            raise InputError(f"system {s}: hypotheses must be strings")
    for what, lines in (("source", sources), *((f"system {s}: hypothesis", h) for s, h in enumerate(hypotheses))):
        for k, line in enumerate(lines):
            if (problem := prompt_line_problem(line)) is not None:
                raise InputError(f"{what} {k + 1} {problem}")
    return sources, hypotheses


def prompt_line_problem(line: str) -> str | None:
    """Why ``line`` cannot be one line of a prompt, or None: a line break inside it (the prompt
    lists one target a line) or a lone surrogate (no UTF-8 request body holds it: a
    UnicodeEncodeError in a request thread)."""
    if (found := _LINE_BREAK.search(line)) is not None:
        return (f"holds a line break ({found.group()!r}): the prompt lists one sentence a line, so the judge's "
                "scores would go to the wrong sentences; give each sentence on one line")
    if not line.isascii() and (found := LONE_SURROGATE.search(line)) is not None:
        return f"holds a lone surrogate ({found.group()!r}), which is no Unicode text"
    return None


def build_plan(sources: Sequence[str], hypotheses: Sequence[Sequence[str]], variant: str = "llm-s",
               criterion: str | None = None, edits: Sequence[Sequence[Sequence[Edit]]] | None = None,
               grouping: str = "all", max_targets: int = MAX_TARGETS) -> PromptPlan:
    """The prompts for ``hypotheses`` (systems x sentences, like gec-metrics) of ``sources``.

    LLM-E needs ``edits`` of the same shape: each hypothesis' edits as (start, end, correction)
    over the source's whitespace tokens (the caller's ERRANT annotator makes them). Equal
    prompts (a repeated source with the same hypotheses) appear once.
    """
    template = instruction_template(variant, criterion)
    sources, hypotheses = _checked_corpus(sources, hypotheses)
    if variant != "llm-e" and edits is not None:  # (taken and never read)
        raise InputError(f"{variant} reads no edits: give edits for llm-e only", "edits")
    if variant == "llm-e":
        if edits is None:
            raise InputError("llm-e needs the edits of every hypothesis")
        edits = check_sequence(edits, "edits", "systems (each a list of sentences' edits)")
        for s, system in enumerate(edits):
            edits[s] = check_sequence(system, f"edits of system {s}", "sentences' edits")
            bad = next((i for i, e in enumerate(edits[s]) if not isinstance(e, (list, tuple))), None)
            if bad is not None:
                raise InputError(f"edits of system {s}: a hypothesis' edits are a list of (start, end, correction), "
                                 f"not {edits[s][bad]!r} (sentence {bad + 1})")
        if len(edits) != len(hypotheses) or any(len(e) != len(sources) for e in edits):
            raise InputError("edits must have the shape of hypotheses (systems x sentences)")
    n_sentences, n_systems = len(sources), len(hypotheses)
    prompt_of = np.full((n_sentences, n_systems), -1, dtype=np.int64)
    position_of = np.full((n_sentences, n_systems), -1, dtype=np.int64)
    index: dict[str, int] = {}
    prompts: list[str] = []
    targets: list[list[str]] = []
    per_sentence: list[list[int]] = []
    for i, source in enumerate(sources):
        hyps = [hypotheses[s][i] for s in range(n_systems)]
        shown: dict[str, str] = {}
        if variant == "llm-e":
            for s, hyp in enumerate(hyps):
                view = format_edits(source, edits[s][i])  # type: ignore[index]
                if shown.setdefault(hyp, view) != view:
                    raise InputError(f"sentence {i}: systems with the same hypothesis {hyp!r} have different edits")
        mine = []
        for group in group_hypotheses(hyps, grouping, max_targets):
            text = fill_template(template, source, [shown.get(h, h) for h in group])
            k = index.get(text)
            if k is None:
                k = index[text] = len(prompts)
                prompts.append(text)
                targets.append(list(group))
            mine.append(k)
            where = {h: p for p, h in enumerate(group)}
            for s, hyp in enumerate(hyps):
                if hyp in where:
                    prompt_of[i, s], position_of[i, s] = k, where[hyp]
        per_sentence.append(mine)
    return PromptPlan(variant, criterion, grouping, prompts, targets, prompt_of, position_of, per_sentence)


def pairwise_tables(plan: PromptPlan, scores: np.ndarray) -> np.ndarray:
    """gec-metrics' ``score_pairwise`` tables (sentences x systems x systems) from sentence
    scores: +1 where the row's system scored higher, -1 lower, 0 a tie, NaN not compared.

    Systems are compared only when one prompt scored both (systems with the same hypothesis
    tie); under grouping ``"all"`` hypotheses of different prompts of a source stay NaN.
    """
    if not isinstance(plan, PromptPlan):
        raise InputError(f"plan must be a PromptPlan (build_plan, Judge.plan), got {kind_of(plan)}")
    try:
        scores = np.asarray(scores, dtype=np.float64)
    except (TypeError, ValueError):
        raise InputError(f"scores must be numbers (sentences x systems, Judge.score(...).scores), got "
                         f"{kind_of(scores)}") from None
    n_sentences, n_systems = plan.shape
    if scores.shape != plan.shape:
        raise InputError(f"scores of shape {scores.shape} for a plan of shape {plan.shape}")
    tables = np.full((n_sentences, n_systems, n_systems), np.nan)
    for i in range(n_sentences):
        prompt, score = plan.prompt_of[i], scores[i]
        same = (prompt[:, None] == prompt[None, :]) & (prompt[:, None] >= 0)
        same &= ~np.isnan(score)[:, None] & ~np.isnan(score)[None, :]
        sign = np.sign(score[:, None] - score[None, :])
        tables[i][same] = sign[same]
    return tables
