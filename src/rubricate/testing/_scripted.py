"""A chat model that replays a script: test rubric code without a model.

It records every call (messages and keyword arguments) so a test can assert on the prompts the
judge sent, and replays a script of replies: an `AIMessage`, a string, an exception to raise, or
a function of (messages, kwargs). It supports `bind_tools`, so LangChain's own
`with_structured_output` (tool-calling based) runs unchanged on top of it, exactly as it does on a
hosted provider. `joint_reply` and `criterion_reply` build the structured verdicts the judge asks
for, so a script reads as the grading it stands for.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar, TypeAlias

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field, PrivateAttr

from .._judge._answers import CRITERION_TITLE, JOINT_TITLE

__all__ = [
    "GrammarScriptedChatModel",
    "Reply",
    "ScriptedChatModel",
    "criterion_reply",
    "joint_reply",
    "tool_reply",
]

Reply: TypeAlias = (
    AIMessage | str | BaseException | Callable[[list[BaseMessage], dict[str, Any]], Any]
)
"""One script entry: a reply, its text, an exception to raise, or a function of the call."""


class ScriptedChatModel(BaseChatModel):
    """Replays `script` in order, one entry a call; the last entry repeats when `repeat_last`.

    Example:
        ```python
        from rubricate import Judge
        from rubricate.testing import ScriptedChatModel, joint_reply

        model = ScriptedChatModel(script=[joint_reply(("C1", "fail", "No greeting."))])
        judge = Judge(model, mode="joint")
        evaluation = judge.evaluate("- Greets the user", output="Here is the report.")
        assert evaluation.result == "needs_revision"
        ```

    """

    script: list[Any] = Field(default_factory=list)
    """`Reply` entries, used in order."""
    repeat_last: bool = False
    """Keep answering with the last entry once the script is used up (else: `AssertionError`)."""
    model_name: str = "scripted"
    supports_grammar: ClassVar[bool] = False
    _calls: list[tuple[list[BaseMessage], dict[str, Any]]] = PrivateAttr(default_factory=list)
    _position: int = PrivateAttr(default=0)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    @property
    def calls(self) -> list[tuple[list[BaseMessage], dict[str, Any]]]:
        """Every call so far: its messages and keyword arguments (tools, grammar, stop...)."""
        return self._calls

    def prompts(self) -> list[str]:
        """Every call's messages flattened to text, for assertions."""
        return ["\n".join(f"[{m.type}] {m.content}" for m in msgs) for msgs, _ in self._calls]

    def bind_tools(self, tools: Sequence[Any], *, tool_choice: Any = None, **kwargs: Any) -> Any:
        """Pass the tools on to each call, as a provider's `bind_tools` does."""
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
    """Looks like the embedded model to the judge: it takes grammars and runs one call at a time.

    The judge then asks one grammar-constrained `yes` / `no` a criterion and a one-line gap after
    a `no`, so a script of plain `"yes"` / `"no"` strings drives it.
    """

    supports_grammar: ClassVar[bool] = True
    n_ctx: int = 8192


def tool_reply(name: str, args: dict[str, Any], *, tokens: tuple[int, int] = (0, 0)) -> AIMessage:
    """A reply that calls one tool, as LangChain's structured output expects it.

    `tokens` is (input, output) usage, reported as a provider reports it.
    """
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
    """The judge's `joint` answer: `("C1", "pass", "")`, `("C2", "fail", "the gap")`...

    Criteria are labelled `C1`, `C2`... in rubric order in the judge's prompt.
    """
    items = [{"criterion": c, "verdict": v, "gap": g} for c, v, g in verdicts]
    return tool_reply(JOINT_TITLE, {"verdicts": items}, tokens=tokens)


def criterion_reply(verdict: str, gap: str = "", *, tokens: tuple[int, int] = (0, 0)) -> AIMessage:
    """The judge's `per_criterion` answer for one criterion: `"pass"` or `"fail"` with a gap."""
    return tool_reply(CRITERION_TITLE, {"verdict": verdict, "gap": gap}, tokens=tokens)
