"""A content-driven fake judge for batch tests: its verdicts depend on the prompt, not on order.

Batches grade items concurrently, so a script of replies in call order would not do. This fake
reads the output and the criteria from each joint-mode prompt and passes a criterion when the
criterion's last word appears in the output: "Mentions Paris" passes "The capital is Paris.".
Outputs holding `EXPLODE` make the call fail (a non-transient error, so the judge gives up at
once); `interrupt_after=N` raises `KeyboardInterrupt` on call N + 1, like Ctrl-C.
"""

from __future__ import annotations

import re
import threading
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage

from fakes import with_verdict_logprobs
from rubricate import Judge, JudgeOptions, RetryPolicy
from rubricate.testing import ScriptedChatModel, joint_reply

FAST = RetryPolicy(max_retries=0, initial_delay=0, max_delay=0, timeout=None)
TOKENS = (100, 10)

_OUTPUT = re.compile(r"<output>\n(.*?)\n</output>", re.DOTALL)
_CRITERION = re.compile(r"^(C\d+): (.*)$", re.MULTILINE)


def keyword(description: str) -> str:
    return description.split()[-1].strip(".").lower()


class KeywordJudge:
    """The reply function, with a thread-safe counter (LangChain runs sync fakes in threads)."""

    def __init__(
        self, *, interrupt_after: int | None = None, p_pass: dict[str, float] | None = None
    ) -> None:
        self.interrupt_after = interrupt_after
        self.p_pass = p_pass
        """P(pass) the fake reports at its `pass` and `fail` verdict tokens; `None`: no logprobs."""
        self.outputs: list[str] = []
        self._lock = threading.Lock()

    def __call__(self, messages: list[BaseMessage], kwargs: dict[str, Any]) -> AIMessage:
        output = graded_output(messages)
        with self._lock:
            if self.interrupt_after is not None and len(self.outputs) >= self.interrupt_after:
                raise KeyboardInterrupt
            self.outputs.append(output)
        reply = keyword_reply(messages, kwargs)
        if self.p_pass is None or not reply.tool_calls:
            return reply
        return with_verdict_logprobs(reply, reply.tool_calls[0]["args"], self.p_pass)

    @property
    def calls(self) -> int:
        return len(self.outputs)


def graded_output(messages: list[BaseMessage]) -> str:
    """The output a joint-mode prompt asks about."""
    match = _OUTPUT.search(str(messages[-1].content))
    assert match is not None, messages[-1].content
    return match.group(1)


def keyword_reply(messages: list[BaseMessage], kwargs: dict[str, Any]) -> AIMessage:
    """The verdicts alone: a module-level function, so it pickles to other processes (Ray)."""
    prompt = str(messages[-1].content)
    output = graded_output(messages)
    if "EXPLODE" in output:
        raise RuntimeError("the provider exploded")
    block = prompt[prompt.rindex("<criteria>") : prompt.rindex("</criteria>")]
    verdicts = []
    for label, description in _CRITERION.findall(block):
        word = keyword(description)
        if word in output.lower():
            verdicts.append((label, "pass", ""))
        else:
            verdicts.append((label, "fail", f"The output never mentions {word}."))
    return joint_reply(*verdicts, tokens=TOKENS)


def keyword_model(judge: KeywordJudge) -> ScriptedChatModel:
    return ScriptedChatModel(script=[judge], repeat_last=True)


def keyword_judge(judge: KeywordJudge, options: JudgeOptions | None = None) -> Judge:
    """A joint judge on `judge`'s keyword verdicts; `options` (from the CLI) on top."""
    return Judge(keyword_model(judge), **{"mode": "joint", "retry": FAST, **(options or {})})
