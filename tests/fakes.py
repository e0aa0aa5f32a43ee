"""A scripted chat model: the one fake at the model boundary.

It records every call (messages and keyword arguments) so tests can assert on the prompts sent,
and replays a script of replies: an `AIMessage`, a string, an exception to raise, or a function
of (messages, kwargs). It supports `bind_tools`, so LangChain's own `with_structured_output`
(tool-calling based) runs unchanged on top of it.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field, PrivateAttr

from rubricate._judge._answers import CRITERION_TITLE, JOINT_TITLE

Reply = AIMessage | str | BaseException | Callable[[list[BaseMessage], dict[str, Any]], Any]


class ScriptedChatModel(BaseChatModel):
    """Replays `script` in order; the last entry repeats when `repeat_last` is set."""

    script: list[Any] = Field(default_factory=list)
    repeat_last: bool = False
    model_name: str = "scripted"
    supports_grammar: ClassVar[bool] = False
    _calls: list[tuple[list[BaseMessage], dict[str, Any]]] = PrivateAttr(default_factory=list)
    _position: int = PrivateAttr(default=0)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    @property
    def calls(self) -> list[tuple[list[BaseMessage], dict[str, Any]]]:
        return self._calls

    def prompts(self) -> list[str]:
        """Every call's messages flattened to text, for assertions."""
        return ["\n".join(f"[{m.type}] {m.content}" for m in msgs) for msgs, _ in self._calls]

    def bind_tools(self, tools: Sequence[Any], *, tool_choice: Any = None, **kwargs: Any) -> Any:
        return self.bind(tools=list(tools), tool_choice=tool_choice, **kwargs)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        self._calls.append((list(messages), {**kwargs, **({"stop": stop} if stop else {})}))
        if self._position >= len(self.script):
            if not (self.repeat_last and self.script):
                raise AssertionError(
                    f"ScriptedChatModel ran out of replies at call {len(self._calls)}"
                )
            reply = self.script[-1]
        else:
            reply = self.script[self._position]
            self._position += 1
        if callable(reply) and not isinstance(reply, BaseException):
            reply = reply(list(messages), dict(kwargs))
        if isinstance(reply, BaseException):
            raise reply
        message = reply if isinstance(reply, AIMessage) else AIMessage(str(reply))
        return ChatResult(generations=[ChatGeneration(message=message)])


class GrammarScriptedChatModel(ScriptedChatModel):
    """Looks like the embedded model to the judge: takes grammars, runs one call at a time."""

    supports_grammar: ClassVar[bool] = True
    n_ctx: int = 8192


def tool_reply(name: str, args: dict[str, Any], *, tokens: tuple[int, int] = (0, 0)) -> AIMessage:
    """A reply that calls one tool, as LangChain's structured output expects it."""
    return AIMessage(
        "",
        tool_calls=[{"name": name, "args": args, "id": f"call_{name}", "type": "tool_call"}],
        usage_metadata={
            "input_tokens": tokens[0],
            "output_tokens": tokens[1],
            "total_tokens": sum(tokens),
        },
    )


def joint_reply(*verdicts: tuple[str, str, str], tokens: tuple[int, int] = (0, 0)) -> AIMessage:
    """A joint structured verdict: `("C1", "pass", "")`, `("C2", "fail", "gap")`..."""
    items = [{"criterion": c, "verdict": v, "gap": g} for c, v, g in verdicts]
    return tool_reply(JOINT_TITLE, {"verdicts": items}, tokens=tokens)


def criterion_reply(verdict: str, gap: str = "", *, tokens: tuple[int, int] = (0, 0)) -> AIMessage:
    """A per-criterion structured verdict."""
    return tool_reply(CRITERION_TITLE, {"verdict": verdict, "gap": gap}, tokens=tokens)


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
