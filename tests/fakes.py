"""Test-only helpers beside `rubricate.testing`'s fakes (the scripted model and the builders of
the judge's answers are public there, so users can test their own rubric code the same way)."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage

from rubricate.testing import ScriptedChatModel


def text(content: str, *, tokens: tuple[int, int] = (0, 0)) -> AIMessage:
    return AIMessage(
        content,
        usage_metadata={
            "input_tokens": tokens[0],
            "output_tokens": tokens[1],
            "total_tokens": sum(tokens),
        },
    )


def dumps(value: Any) -> str:
    return json.dumps(value)


def with_verdict_logprobs(
    message: AIMessage, answer: Any, p_pass: Mapping[str, float]
) -> AIMessage:
    """`message` carrying OpenAI-style logprobs for `answer` written as JSON text.

    Words and punctuation are tokens; at each verdict word the alternatives are `pass` with
    probability `p_pass[verdict]` and `fail` with the rest, as a provider reports them.
    """
    entries = []
    for token in re.findall(r"\w+|[^\w\s]+|\s+", json.dumps(answer)):
        top = [{"token": token, "logprob": 0.0}]
        if token in p_pass:
            p = p_pass[token]
            top = [{"token": "pass", "logprob": math.log(p)}]
            if p < 1:
                top.append({"token": "fail", "logprob": math.log(1 - p)})
        chosen = next(alt for alt in top if alt["token"] == token)
        entries.append({**chosen, "top_logprobs": top})
    metadata = {**message.response_metadata, "logprobs": {"content": entries}}
    return message.model_copy(update={"response_metadata": metadata})


def yes_no(p_yes: float) -> AIMessage:
    """The embedded judge's greedy `yes` / `no` with P(yes) = `p_yes` in its logprobs, in the
    shape `ChatLlamaCpp` gives them."""
    top = [
        {"token": "yes", "logprob": math.log(p_yes)},
        {"token": "no", "logprob": math.log(1 - p_yes)},
    ]
    chosen = top[0] if p_yes >= 0.5 else top[1]
    logprobs = {"content": [{**chosen, "top_logprobs": top}]}
    return AIMessage(chosen["token"], response_metadata={"logprobs": logprobs})


def answering(verdict: str) -> Any:
    """A scripted reply for the embedded judge: `verdict` to every yes/no, a gap otherwise."""

    def reply(messages: list[BaseMessage], kwargs: dict[str, Any]) -> AIMessage:
        return AIMessage(verdict if "grammar" in kwargs else "The output lacks it.")

    return reply


def prompts_about(model: ScriptedChatModel, criterion: str) -> list[str]:
    """The whole prompt of every call that asked about `criterion`."""
    texts = ["\n".join(str(m.content) for m in messages) for messages, _ in model.calls]
    return [text for text in texts if criterion in text]
