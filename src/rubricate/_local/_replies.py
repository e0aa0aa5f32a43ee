"""llama.cpp's answers as LangChain `AIMessage`s: usage with cache reads, finish reason, logprobs.

One definition for the three ways `ChatLlamaCpp` gets an answer (a chat completion, a token
completion, a sequence of a batch), so usage and metadata read the same whichever path ran.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.messages import AIMessage, InvalidToolCall, ToolCall
from langchain_core.messages.ai import InputTokenDetails, UsageMetadata

from rubricate._local._sequences import Completion

__all__ = ["completion_reply", "reply"]


def reply(
    content: str,
    *,
    model_name: str,
    usage: Mapping[str, Any],
    cached: int,
    finish_reason: str | None,
    logprobs: Any = None,
    tool_calls: Sequence[ToolCall] = (),
    invalid_tool_calls: Sequence[InvalidToolCall] = (),
) -> AIMessage:
    """An `AIMessage` from an OpenAI-shaped `usage` dict and the prompt tokens read from cache.

    `logprobs` go in `response_metadata["logprobs"]`, where langchain-openai puts them.
    """
    metadata: dict[str, Any] = {"finish_reason": finish_reason, "model_name": model_name}
    if logprobs:
        metadata["logprobs"] = logprobs
    return AIMessage(
        content=content,
        tool_calls=list(tool_calls),
        invalid_tool_calls=list(invalid_tool_calls),
        usage_metadata=UsageMetadata(
            input_tokens=usage.get("prompt_tokens", 0),
            output_tokens=usage.get("completion_tokens", 0),
            total_tokens=usage.get("total_tokens", 0),
            input_token_details=InputTokenDetails(cache_read=cached),
        ),
        response_metadata=metadata,
    )


def completion_reply(
    completion: Completion, words: Mapping[int, str], model_name: str
) -> AIMessage:
    """One sequence's answer; a one-token choice carries every choice's log-probability.

    `words` maps each choice's token id to its text.
    """
    logprobs = None
    if completion.choices:
        chosen = max(completion.choices, key=lambda t: completion.choices[t])
        alternatives = [
            {"token": words[t], "logprob": lp, "bytes": list(words[t].encode("utf-8"))}
            for t, lp in completion.choices.items()
        ]
        logprobs = {
            "content": [
                {
                    "token": words[chosen],
                    "logprob": completion.choices[chosen],
                    "bytes": list(words[chosen].encode("utf-8")),
                    "top_logprobs": alternatives,
                }
            ]
        }
    return reply(
        completion.text,
        model_name=model_name,
        usage={
            "prompt_tokens": completion.prompt_tokens,
            "completion_tokens": completion.completion_tokens,
            "total_tokens": completion.prompt_tokens + completion.completion_tokens,
        },
        cached=completion.cached_tokens,
        finish_reason=completion.finish_reason,
        logprobs=logprobs,
    )
