"""The `joint` strategy: one call grades every criterion, answering a list of labelled verdicts.

The answer is matched to the criteria by label (`C1`, `C2`...). Labels missing, unknown or
contradicted are asked about once more, in the same conversation; what is still missing after
that is returned as a problem string, which fails closed.
"""

from __future__ import annotations

from collections.abc import Mapping

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from .._rubric._rubric import Criterion
from . import _prompts as prompts
from ._answers import Answer, answer_text, joint_schema, parse_joint
from ._calls import Meter, ModelCalls
from ._prompts import with_tail
from ._verdicts import scored

__all__ = ["ask_joint"]


async def ask_joint(
    calls: ModelCalls,
    base: list[BaseMessage],
    labels: dict[str, Criterion],
    meter: Meter,
    *,
    local: bool,
    explain_passes: bool,
    careful: bool,
) -> dict[str, Answer | str]:
    """Every criterion's answer (or problem), by label, from one call and at most one retry.

    `local`: the embedded model, which is not offered `cannot_evaluate`. `explain_passes`:
    ask for the reason a criterion is met, too. `careful`: a reasoning field before each
    verdict.
    """
    request = prompts.JOINT_REQUEST.format(
        criteria="\n".join(f"{label}: {c.description}" for label, c in labels.items()),
        unscorable="" if local else prompts.UNSCORABLE_OPTION,
        reason=prompts.PASS_REASON_OPTION if explain_passes else "",
        reasoning=prompts.REASONING_OPTION if careful else "",
    )
    schema = joint_schema(
        list(labels),
        allow_unscorable=not local,
        with_reason=explain_passes,
        with_reasoning=careful,
    )
    messages = with_tail(base, request)
    runnable = calls.structured_runnable(schema)
    raw, scores = await calls.scored_answer(runnable, messages, schema, meter)
    first = parse_joint(raw, list(labels))
    if not first.problems:
        return {label: scored(a, scores, label) for label, a in first.answers.items()}
    retry_messages = [
        *messages,
        AIMessage(answer_text(raw)),
        HumanMessage(_correction(first.problems, list(labels))),
    ]
    raw_again, scores_again = await calls.scored_answer(
        calls.structured_runnable(schema), retry_messages, schema, meter
    )
    second = parse_joint(raw_again, list(labels))
    merged: dict[str, Answer | str] = {}
    for label in labels:
        if label in second.answers:
            merged[label] = scored(second.answers[label], scores_again, label)
        elif label in first.answers:
            merged[label] = scored(first.answers[label], scores, label)
        else:
            merged[label] = second.problems.get(label) or first.problems.get(label, "no verdict")
    return merged


def _correction(problems: Mapping[str, str], labels: list[str]) -> str:
    listed = "; ".join(
        problem if label == "*" else f"{label}: {problem}" for label, problem in problems.items()
    )
    return prompts.CORRECTION.format(problems=listed, labels=", ".join(labels))
