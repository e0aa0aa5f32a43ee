"""The grader-tool phase: the judge calls its tools, a bounded number of times, before verdicts.

The calls and their results become part of the conversation the verdicts are asked in.

A tool's failure is data for the judge (an `Error: ...` result), never a crash; an interrupt
(human-in-the-loop) goes through as the control flow it is.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from langchain_core.tools import BaseTool
from langgraph.errors import GraphBubbleUp

from .._rubric._rubric import Criterion
from . import _prompts as prompts
from ._calls import Meter, ModelCalls
from ._prompts import with_tail
from ._retry import describe_error

__all__ = ["run_tool_phase"]

_TOOL_OUTPUT_CHARS = 4000


async def run_tool_phase(
    calls: ModelCalls,
    model: BaseChatModel,
    tools: Sequence[BaseTool],
    max_tool_calls: int,
    base: list[BaseMessage],
    labels: dict[str, Criterion],
    meter: Meter,
) -> list[BaseMessage]:
    """Let the judge call its tools (bounded) before any verdict; returns the transcript."""
    bound = model.bind_tools(list(tools))
    by_name = {t.name: t for t in tools}
    request = prompts.TOOLS_REQUEST.format(
        criteria="\n".join(f"{label}: {c.description}" for label, c in labels.items()),
        max_calls=max_tool_calls,
    )
    messages = with_tail(base, request)
    used = 0
    while used < max_tool_calls:
        reply = await calls.invoke(bound, messages, meter)
        messages.append(reply)
        tool_calls = reply.tool_calls if isinstance(reply, AIMessage) else []
        if not tool_calls:
            break
        for call in tool_calls:
            if used >= max_tool_calls:
                content = f"Not run: the grader's budget of {max_tool_calls} tool calls is used up."
            else:
                used += 1
                content = await _run_tool(by_name.get(call["name"]), call)
            messages.append(
                ToolMessage(content, tool_call_id=call.get("id") or "", name=call["name"])
            )
    return messages


async def _run_tool(tool: BaseTool | None, call: Mapping[str, Any]) -> str:
    """Run one grader tool call; its failure is data for the judge, not a crash."""
    if tool is None:
        return f"Error: there is no tool named {call.get('name')!r}."
    try:
        result = await tool.ainvoke(call.get("args") or {})
    except GraphBubbleUp:
        raise  # an interrupt (human-in-the-loop) is control flow, not a tool failure
    except Exception as exc:
        return f"Error: the tool raised {describe_error(exc)}"
    text = result if isinstance(result, str) else json.dumps(result, default=str)
    if len(text) > _TOOL_OUTPUT_CHARS:
        text = (
            text[:_TOOL_OUTPUT_CHARS]
            + f"\n[... {len(text) - _TOOL_OUTPUT_CHARS:,} characters omitted]"
        )
    return text
