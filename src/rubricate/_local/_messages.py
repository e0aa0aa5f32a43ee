"""LangChain messages to the chat-completion dicts llama-cpp-python's chat templates take."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    ChatMessage,
    FunctionMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)

from rubricate._local._tool_calls import new_call_id

__all__ = ["to_chat_messages"]


def to_chat_messages(messages: Sequence[BaseMessage]) -> list[dict[str, Any]]:
    """Map LangChain messages to the chat-completion dicts the GGUF chat template renders.

    Tool-call arguments stay dicts: Hugging Face templates (Qwen's included) serialize them with
    `tojson`, so a JSON string would be encoded twice.
    """
    converted: list[dict[str, Any]] = []
    for message in messages:
        if isinstance(message, SystemMessage):
            converted.append({"role": "system", "content": _text(message.content)})
        elif isinstance(message, HumanMessage):
            converted.append({"role": "user", "content": _text(message.content)})
        elif isinstance(message, AIMessage):
            item: dict[str, Any] = {
                "role": "assistant",
                "content": _text(message.content, skip_other=True),
            }
            if message.tool_calls:
                item["tool_calls"] = [
                    {
                        "id": call.get("id") or new_call_id(),
                        "type": "function",
                        "function": {"name": call["name"], "arguments": call["args"]},
                    }
                    for call in message.tool_calls
                ]
            converted.append(item)
        elif isinstance(message, ToolMessage):
            converted.append(
                {
                    "role": "tool",
                    "content": _text(message.content, json_other=True),
                    "tool_call_id": message.tool_call_id,
                }
            )
        elif isinstance(message, FunctionMessage):
            converted.append({"role": "tool", "content": _text(message.content, json_other=True)})
        elif isinstance(message, ChatMessage):
            converted.append({"role": message.role, "content": _text(message.content)})
        else:
            raise TypeError(f"ChatLlamaCpp cannot send a {type(message).__name__} to the model")
    return converted


def _text(
    content: str | list[str | dict[str, Any]], *, skip_other: bool = False, json_other: bool = False
) -> str:
    """Flatten message content to text; this model reads text only."""
    if isinstance(content, str):
        return content
    parts: list[str] = []
    for block in content:
        if isinstance(block, str):
            parts.append(block)
        elif block.get("type") == "text":
            parts.append(str(block.get("text", "")))
        elif json_other:
            parts.append(json.dumps(block, ensure_ascii=False))
        elif not skip_other:
            raise ValueError(
                f"ChatLlamaCpp reads text only; got a {block.get('type')!r} content block"
            )
    return "".join(parts)
