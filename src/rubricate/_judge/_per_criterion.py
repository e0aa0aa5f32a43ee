"""The `per_criterion` strategy: one small question per criterion over the shared evidence.

On the embedded model the answer is a grammar-constrained `yes` / `no`, the verdict being
P(yes) against the calibrated `PASS_THRESHOLD`, and only a `no` (or, with `explain_passes`, a
`yes`) pays for a second, one-line call saying why: output tokens are what cost time on a CPU.
All criteria's questions go out as one batch where the model batches (`ChatLlamaCpp`), else one
after another so each gap follows its verdict while the KV cache holds it.

Remote models answer each criterion with a small JSON verdict through structured output,
several criteria at once (`max_concurrency`), each corrected once if invalid.
"""

from __future__ import annotations

import asyncio
import functools
import json
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from .._rubric._rubric import Criterion
from . import _prompts as prompts
from ._answers import Answer, answer_text, criterion_schema, parse_criterion
from ._calls import Meter, ModelCalls
from ._confidence import PASS_THRESHOLD, yes_probability
from ._evidence import message_text
from ._prompts import with_tail
from ._verdicts import NO_GAP, scored

__all__ = ["ask_per_criterion"]

_GAP_MAX_TOKENS = 48
_REASON_MAX_TOKENS = 60


async def ask_per_criterion(
    calls: ModelCalls,
    base: list[BaseMessage],
    labels: dict[str, Criterion],
    meter: Meter,
    *,
    local: bool,
    explain_passes: bool,
    careful: bool,
    max_concurrency: int,
    bars: Mapping[str, float] | None = None,
) -> dict[str, Answer | str]:
    """Every criterion's answer (or problem), by label, each asked on its own.

    `local`: the embedded model (yes/no questions); `explain_passes`: also say why a criterion
    is met; `careful`: a short reason before each verdict; `max_concurrency`: remote criteria
    asked at once; `bars`: the P(yes) a label needs to pass on the embedded model, where it is
    not `PASS_THRESHOLD`.
    """
    if local:
        ask = functools.partial(
            _yes_no, explain_passes=explain_passes, careful=careful, bars=bars or {}
        )
        if await calls.batches():
            return await ask(calls, base, labels, meter)
        # One criterion at a time: its gap follows its verdict while the KV cache holds it.
        answers: dict[str, Answer | str] = {}
        for label, criterion in labels.items():
            answers.update(await ask(calls, base, {label: criterion}, meter))
        return answers
    schema = criterion_schema(
        allow_unscorable=True, with_reason=explain_passes, with_reasoning=careful
    )
    key = json.dumps(schema, sort_keys=True)  # once, not once a criterion
    grade_one: Callable[[list[BaseMessage], Criterion, Meter], Awaitable[Answer | str]]
    grade_one = functools.partial(
        _structured_one,
        calls,
        schema=schema,
        key=key,
        explain_passes=explain_passes,
        careful=careful,
    )
    if max_concurrency == 1:
        return {label: await grade_one(base, c, meter) for label, c in labels.items()}
    pending = iter(labels.items())
    answers = {}

    async def worker() -> None:  # a few workers sharing one queue: no task per criterion
        for label, criterion in pending:
            answers[label] = await grade_one(base, criterion, meter)

    workers = min(max_concurrency, len(labels))
    tasks = [asyncio.ensure_future(worker()) for _ in range(workers)]
    try:
        await asyncio.gather(*tasks)
    except BaseException:
        # One criterion gave up (or we were cancelled): stop the others, so no call goes on
        # after the evaluation has returned, unseen by its usage.
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise
    return {label: answers[label] for label in labels}


async def _yes_no(
    calls: ModelCalls,
    base: list[BaseMessage],
    labels: dict[str, Criterion],
    meter: Meter,
    *,
    explain_passes: bool,
    careful: bool,
    bars: Mapping[str, float],
) -> dict[str, Answer | str]:
    """Embedded model: a one-token verdict per criterion, then a one-line gap for each `no`.

    Each phase is one batched call (`ChatLlamaCpp.complete_many`): every criterion's question
    is its own sequence over the shared evidence, and the gaps are decoded side by side;
    output tokens are what cost time on a CPU, and a decode step costs little more for
    several sequences than for one. `careful` decodes a one-sentence reason first and reads
    the verdict after it: more decode steps for a verdict that has put the evidence in words.
    """
    if prompts.VERDICT_INSTRUCTION:
        base = with_tail(base, prompts.VERDICT_INSTRUCTION)
    questions = {
        label: with_tail(base, prompts.CRITERION_QUESTION.format(criterion=criterion.description))
        for label, criterion in labels.items()
    }
    if careful:
        questions = await _reasoned(calls, questions, meter)
    continues = await calls.continues()  # the gap as the verdict's continuation
    replies = await calls.invoke_many(
        list(questions.values()), meter, choices=prompts.VERDICT_WORDS
    )
    answers: dict[str, Answer | str] = {}
    follow_ups: dict[str, tuple[list[BaseMessage], bool, float | None]] = {}
    for (label, messages), reply in zip(questions.items(), replies, strict=True):
        confidence = yes_probability(reply)
        said_yes = message_text(reply).strip().lower() == "yes"
        # At a threshold of 0.5 this is the greedy answer: P(yes) >= P(no).
        bar = bars.get(label, PASS_THRESHOLD)
        passed = said_yes if confidence is None else confidence >= bar
        if passed and not explain_passes:
            answers[label] = Answer(verdict="pass", confidence=confidence)
            continue
        if continues:
            prefill = prompts.PASS_PREFILL if passed else prompts.GAP_PREFILL
            asked = [*messages, AIMessage(prefill)]
        else:
            request = prompts.PASS_REASON_REQUEST if passed else prompts.GAP_REQUEST
            asked = [
                *messages,
                AIMessage("yes" if passed else "no"),
                HumanMessage(request.format(criterion=labels[label].description)),
            ]
        follow_ups[label] = (asked, passed, confidence)
    if follow_ups:
        said_all = await calls.invoke_many(
            [asked for asked, _, _ in follow_ups.values()],
            meter,
            stop=("\n",),  # one line; a grammar would cost ~2x per token in llama-cpp-python
            max_tokens=_GAP_MAX_TOKENS,
        )
        for (label, (_, passed, confidence)), reply in zip(
            follow_ups.items(), said_all, strict=True
        ):
            said = message_text(reply)
            if continues:
                said = f"The output{said}" if said.strip() else ""
            said = _clean_gap(said)
            answers[label] = (
                Answer(verdict="pass", reason=said, confidence=confidence)
                if passed
                else Answer(verdict="fail", gap=said or NO_GAP, confidence=confidence)
            )
    return {label: answers[label] for label in labels}


async def _reasoned(
    calls: ModelCalls, questions: dict[str, list[BaseMessage]], meter: Meter
) -> dict[str, list[BaseMessage]]:
    """Careful mode: each question with the model's one-sentence reason, then the verdict asked.

    The reason is the model's own turn, so the yes / no that follows is read with it in view.
    """
    asked = {
        label: with_tail(messages, prompts.CAREFUL_REQUEST) for label, messages in questions.items()
    }
    reasons = await calls.invoke_many(
        list(asked.values()), meter, stop=("\n",), max_tokens=_REASON_MAX_TOKENS
    )
    return {
        label: [
            *messages,
            AIMessage(_clean_gap(message_text(reason)) or "(no reason given)"),
            HumanMessage(prompts.CAREFUL_VERDICT),
        ]
        for (label, messages), reason in zip(asked.items(), reasons, strict=True)
    }


async def _structured_one(
    calls: ModelCalls,
    base: list[BaseMessage],
    criterion: Criterion,
    meter: Meter,
    *,
    schema: dict[str, Any],
    key: str,
    explain_passes: bool,
    careful: bool,
) -> Answer | str:
    """Remote model: one criterion's JSON verdict, corrected once if it is not valid."""
    request = prompts.CRITERION_STRUCTURED.format(
        criterion=criterion.description,
        unscorable=prompts.UNSCORABLE_OPTION,
        reason=prompts.PASS_REASON_OPTION if explain_passes else "",
        reasoning=prompts.REASONING_OPTION if careful else "",
    )
    messages = with_tail(base, request)
    raw, scores = await calls.scored_answer(
        calls.structured_runnable(schema, key), messages, schema, meter
    )
    answer, problem = parse_criterion(raw)
    if answer is not None:
        return scored(answer, scores, None)
    retry_messages = [
        *messages,
        AIMessage(answer_text(raw)),
        HumanMessage(prompts.CORRECTION.format(problems=problem, labels="this criterion")),
    ]
    raw, scores = await calls.scored_answer(
        calls.structured_runnable(schema, key), retry_messages, schema, meter
    )
    answer, problem = parse_criterion(raw)
    return scored(answer, scores, None) if answer is not None else (problem or "invalid verdict")


def _clean_gap(text: str) -> str:
    return " ".join(text.split()).strip().strip('"')
