"""Turning evidence into the judge's view: delimited, neutralised, and trimmed out loud.

The graded text is untrusted. It goes between fixed tags (`<task>`, `<transcript>`, `<output>`),
and any copy of those tags inside it is defused, so an output cannot close its own block and
speak as the grader. The tags never change, so the prompt prefix stays cacheable. When the
evidence is longer than the budget it is shortened with a visible marker *and* a note that tells
the judge what it cannot see: silent truncation used to cause false `needs_revision` verdicts.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage

from .._types import Evidence

__all__ = [
    "FEEDBACK_MESSAGE_NAME",
    "FEEDBACK_SOURCE",
    "RUBRIC_GRADER_MESSAGE_SOURCE",
    "RenderedEvidence",
    "defuse",
    "first_user_text",
    "is_feedback",
    "last_assistant_text",
    "message_text",
    "render_evidence",
]

FEEDBACK_MESSAGE_NAME = "rubric_grader"
"""`name` of the feedback messages the loops inject; the judge never grades its own feedback."""
FEEDBACK_SOURCE = "rubric_grader"
"""`additional_kwargs["lc_source"]` of those messages (the reference middleware's tag too)."""
RUBRIC_GRADER_MESSAGE_SOURCE = FEEDBACK_SOURCE
"""deepagents' name for that tag, so code filtering feedback messages by it works unchanged."""

_TAG = re.compile(r"<\s*(/?)\s*(task|transcript|output|criteria|criterion)\b", re.IGNORECASE)
_PER_MESSAGE_CHARS = 4000


@dataclass(frozen=True)
class RenderedEvidence:
    """The evidence block of the judge prompt, and what had to be left out of it."""

    text: str
    notes: tuple[str, ...]
    """Plain statements of every trim, also included at the end of `text`."""


def message_text(message: BaseMessage | Mapping[str, Any]) -> str:
    """The text of a LangChain message or a role/content dict (content blocks joined)."""
    content = message.content if isinstance(message, BaseMessage) else message.get("content", "")
    if content is None:  # OpenAI-style dicts: an assistant message that only calls tools
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, Sequence):
        parts = []
        for block in content:
            if isinstance(block, str):
                parts.append(block)
            elif isinstance(block, Mapping) and isinstance(block.get("text"), str):
                parts.append(block["text"])
        return "\n".join(parts)
    return str(content)


def first_user_text(messages: Sequence[BaseMessage | Mapping[str, Any]]) -> str:
    """The task: the text of the conversation's first user message ("" when there is none)."""
    return next((message_text(m) for m in messages if _role(m) == "user"), "")


def last_assistant_text(messages: Sequence[BaseMessage | Mapping[str, Any]]) -> str:
    """The draft to grade: the text of the last assistant message that has any."""
    for message in reversed(messages):
        if _role(message) == "assistant" and message_text(message).strip():
            return message_text(message)
    return ""


def render_evidence(evidence: Evidence, *, max_chars: int) -> RenderedEvidence:
    """Render task, transcript and output within about `max_chars` characters.

    The output has priority: the transcript gets what the output leaves, oldest messages go first.
    """
    notes: list[str] = []
    task = defuse(evidence.task.strip())
    output = defuse(evidence.output)
    gradable = _gradable(evidence.messages)
    transcript_lines = [_render_message(m) for m in gradable]

    output_budget = max(max_chars - len(task) - 200, max_chars // 2)
    if len(output) > output_budget:
        output = _shorten(output, output_budget)
        notes.append(
            f"The output is {len(evidence.output):,} characters long; only its beginning and end "
            f"are shown ({output_budget:,} characters). Do not fail a criterion only because "
            "its evidence could be in the omitted middle."
        )

    transcript = ""
    if transcript_lines:
        budget = max(max_chars - len(task) - len(output) - 400, 0)
        shortened = sum(len(line) > _PER_MESSAGE_CHARS for line in transcript_lines)
        lines = [_shorten(line, _PER_MESSAGE_CHARS) for line in transcript_lines]
        # The original request stays whatever is trimmed: without it the judge cannot tell
        # what the answer was for (deepagents keeps it too).
        request = next((i for i, m in enumerate(gradable) if _role(m) == "user"), None)
        pinned = lines[request] if request is not None else ""
        budget -= len(pinned)
        kept: list[str] = []
        used = 0
        for index in range(len(lines) - 1, -1, -1):
            line = lines[index]
            if index == request or used + len(line) > budget:
                break
            kept.append(line)
            used += len(line) + 1
        kept.reverse()
        dropped = len(lines) - len(kept) - (request is not None)
        if dropped:
            kept.insert(0, f"[{dropped} earlier message(s) omitted by rubricate]")
            notes.append(
                f"The transcript was trimmed: {dropped} of its {len(lines)} messages "
                "(the oldest after the first user message) are omitted."
            )
        if request is not None:
            kept.insert(0, pinned)
        if shortened:
            notes.append(
                f"{shortened} long transcript message(s) are shortened to their beginning and end."
            )
        transcript = "\n".join(kept)

    blocks = []
    if task:
        blocks.append(f"<task>\n{task}\n</task>")
    if transcript:
        blocks.append(f"<transcript>\n{transcript}\n</transcript>")
    blocks.append(f"<output>\n{output}\n</output>")
    if notes:
        blocks.append(
            "Notes from rubricate (not part of the evidence):\n"
            + "\n".join(f"- {note}" for note in notes)
        )
    return RenderedEvidence(text="\n\n".join(blocks), notes=tuple(notes))


def _gradable(
    messages: Sequence[BaseMessage | Mapping[str, Any]],
) -> list[BaseMessage | Mapping[str, Any]]:
    """Drop rubricate's own feedback and system prompts: the judge grades the agent, not us."""
    return [m for m in messages if not is_feedback(m) and _role(m) != "system"]


def is_feedback(message: BaseMessage | Mapping[str, Any] | None) -> bool:
    """Whether `message` is the loop's own feedback to the agent (by name or by source tag)."""
    if message is None:
        return False
    if isinstance(message, BaseMessage):
        name, source = message.name, message.additional_kwargs.get("lc_source")
    else:
        name, source = message.get("name"), message.get("lc_source")
    return name == FEEDBACK_MESSAGE_NAME or source == FEEDBACK_SOURCE


def _role(message: BaseMessage | Mapping[str, Any]) -> str:
    if isinstance(message, HumanMessage):
        return "user"
    if isinstance(message, AIMessage):
        return "assistant"
    if isinstance(message, ToolMessage):
        return "tool"
    if isinstance(message, BaseMessage):
        return message.type
    role = message.get("role") or message.get("type") or "user"
    return {"human": "user", "ai": "assistant"}.get(str(role), str(role))


def _render_message(message: BaseMessage | Mapping[str, Any]) -> str:
    role = _role(message)
    text = defuse(message_text(message).strip())
    if role == "tool":
        name = message.name if isinstance(message, BaseMessage) else message.get("name")
        return f"[tool result{f' from {name}' if name else ''}] {text}"
    lines = [f"[{role}] {text}"] if text else []
    if isinstance(message, AIMessage):
        calls: Any = message.tool_calls
    elif isinstance(message, BaseMessage):
        calls = message.additional_kwargs.get("tool_calls")
    else:
        calls = message.get("tool_calls")
    for call in calls or []:
        name = call.get("name") or call.get("function", {}).get("name", "?")
        args = call.get("args", call.get("function", {}).get("arguments", {}))
        rendered = args if isinstance(args, str) else json.dumps(args, ensure_ascii=False)
        lines.append(f"[{role} called tool {name}] {defuse(rendered)}")
    return "\n".join(lines) or f"[{role}] (empty)"


def defuse(text: str) -> str:
    """Neutralise copies of our delimiters so graded text cannot close or open a block."""
    return _TAG.sub(lambda m: f"‹{m.group(1)}{m.group(2)}", text)


def _shorten(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    omitted = len(text) - limit
    head = limit * 2 // 3
    tail = limit - head
    marker = f"\n[... {omitted:,} characters omitted by rubricate ...]\n"
    return text[:head] + marker + text[len(text) - tail :]
