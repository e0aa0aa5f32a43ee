"""A tone criterion's bar, moved by how much likelier the reply is once that tone is asked for.

The embedded 1.5B judge hardly perceives tone when asked ("Is the reply polite?"), but as a
language model it finds a polite reply likelier after a request for a polite one. The likelihood
gain

    log P(output | task + "Requirement for your reply: <criterion>") - log P(output | task)

is read from the logits of one batched pass per conversation (`ChatLlamaCpp.score_many`), with
no decoding: one pass for the output after the task alone, shared by the evaluation's tone
criteria, and one per tone criterion. On the development files it ranks the tone criteria a reply
meets above those it fails (AUROC 0.68) in a way that P(yes) does not already (together 0.82
against 0.79, out of fold), so the two are combined by a logistic regression fitted on dev
(`TONE_LIKELIHOOD_WEIGHTS`). That rule, solved for P(yes), is a bar per criterion: a reply much
likelier under the criterion passes at a lower P(yes), one made unlikelier by it needs more.
On the frozen test files it helped on one set and hurt on another (docs/benchmarks.md).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from ._confidence import TONE_LIKELIHOOD_WEIGHTS

__all__ = ["NO_TASK", "REQUIREMENT", "likelihood_conversations", "tone_bar"]

REQUIREMENT = "{task}\n\nRequirement for your reply: {criterion}"
"""The request with a criterion added, as the weights were fitted with it."""

NO_TASK = "Write a reply."
"""The request when there is none: the output's likelihood needs something it answers."""


def likelihood_conversations(
    task: str, output: str, criteria: Sequence[str]
) -> list[list[BaseMessage]]:
    """The output after the task alone, then after the task with each criterion as a requirement.

    `ChatLlamaCpp.score_many` of these, minus the first, gives each criterion's gain.
    """
    request = task.strip() or NO_TASK
    asked = [REQUIREMENT.format(task=request, criterion=c) for c in criteria]
    return [[HumanMessage(text), AIMessage(output)] for text in (request, *asked)]


def tone_bar(gain: float) -> float:
    """The P(yes) a tone criterion needs to pass, given the output's likelihood gain under it.

    The fitted rule passes when `intercept + w_yes * logit(P(yes)) + w_gain * gain >= 0`; solved
    for P(yes), that is this bar.
    """
    intercept, w_yes, w_gain = TONE_LIKELIHOOD_WEIGHTS
    exponent = (intercept + w_gain * gain) / w_yes
    if exponent > 700:  # the gain alone passes it: any P(yes) will do
        return 0.0
    return 1.0 / (1.0 + math.exp(exponent))
