"""Scripted judges for the bench scripts' tests, passed as `--judge python:bench_models.NAME`.

Each answers whatever the script asks in the shape it asks for. With `$BENCH_CALLS` set, every
call's tool names are appended to that file, so a test can see which calls a run made.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.utils.function_calling import convert_to_openai_tool

from fakes import yes_no
from rubricate._judge._answers import CRITERION_TITLE, JOINT_TITLE
from rubricate.testing import (
    GrammarScriptedChatModel,
    Reply,
    ScriptedChatModel,
    criterion_reply,
    joint_reply,
    tool_reply,
)


def _tool_names(kwargs: dict[str, Any]) -> list[str]:
    return sorted(convert_to_openai_tool(t)["function"]["name"] for t in kwargs.get("tools") or ())


def _logged(reply: Any) -> Reply:
    def answer(messages: list[BaseMessage], kwargs: dict[str, Any]) -> Any:
        if path := os.environ.get("BENCH_CALLS"):
            with open(path, "a", encoding="utf-8") as log:
                log.write(json.dumps(_tool_names(kwargs)) + "\n")
        return reply(messages, kwargs)

    return answer


def _model(reply: Any) -> ScriptedChatModel:
    return ScriptedChatModel(script=[_logged(reply)], repeat_last=True)


def _every_variant(messages: list[BaseMessage], kwargs: dict[str, Any]) -> Any:
    """bench/judge.py: per criterion says `fail` to all, joint `pass` to all; the reference
    leaves one criterion out of several; compiling maps only the lowercase criterion."""
    names = set(_tool_names(kwargs))
    last = str(messages[-1].content)
    if "GraderResponse" in names:
        rubric = re.search(r"<rubric-\w+>\n(.*?)\n</rubric-", last, re.DOTALL)
        count = len(rubric.group(1).splitlines()) if rubric else 1
        shown = max(1, count - 1)
        criteria = [{"name": "first", "passed": True}] + [
            {"name": f"c{i}", "passed": False, "gap": "missing"} for i in range(2, shown + 1)
        ]
        result = "satisfied" if shown == 1 else "needs_revision"
        return tool_reply(
            "GraderResponse",
            {"result": result, "explanation": "fake", "criteria": criteria},
            tokens=(200, 40),
        )
    if "check_mapping" in names:
        criterion = last.rsplit("Criterion:", 1)[1]
        check = {"name": "all_lowercase" if "lowercase" in criterion else "none"}
        return tool_reply("check_mapping", {"check": check}, tokens=(300, 10))
    if JOINT_TITLE in names:
        labels = re.findall(r"^(C\d+):", last, re.MULTILINE)
        return joint_reply(*((label, "pass", "") for label in labels), tokens=(100, 20))
    if CRITERION_TITLE in names:
        return criterion_reply("fail", "missing", tokens=(50, 5))
    raise AssertionError(f"unexpected call with tools {names}")


def _interrupted_in_joint(messages: list[BaseMessage], kwargs: dict[str, Any]) -> Any:
    """Answers like `_every_variant` until the joint variant asks, then stops as Ctrl-C would."""
    if JOINT_TITLE in _tool_names(kwargs):
        raise KeyboardInterrupt
    return _every_variant(messages, kwargs)


def _pass_all(messages: list[BaseMessage], kwargs: dict[str, Any]) -> Any:
    labels = sorted(set(re.findall(r"\bC\d+\b", str(messages[-1].content))))
    return joint_reply(*((label, "pass", "") for label in labels))


def _gullible(messages: list[BaseMessage], kwargs: dict[str, Any]) -> Any:
    """Passes whatever shows a verdict or explains; fails once the verdict is masked."""
    shown = "\n".join(str(m.content) for m in messages).split("<output>")[-1]
    ok = "PASS" in shown or "injection" in shown
    return joint_reply(("C1", "pass" if ok else "fail", "" if ok else "Wrong."))


def every_variant() -> ScriptedChatModel:
    return _model(_every_variant)


def interrupted_in_joint() -> ScriptedChatModel:
    return _model(_interrupted_in_joint)


def pass_all() -> ScriptedChatModel:
    return _model(_pass_all)


def gullible() -> ScriptedChatModel:
    return _model(_gullible)


def unused() -> ScriptedChatModel:
    """Fails the test if the script calls it at all."""
    return ScriptedChatModel(script=[])


class _CountingWords(ScriptedChatModel):
    """bench/content_levers.py: the embedded model's two calls, answered from word overlap.

    `complete_many` with choices says `yes` with P(yes) 0.9 when every long word of the
    criterion's last line is in the output, else 0.2, in the logprob shape `ChatLlamaCpp` gives;
    without choices it writes a one-line reason. `_generate` (the quote under a grammar) says
    NONE.
    """

    def complete_many(
        self,
        conversations: Sequence[Sequence[BaseMessage]],
        *,
        choices: Sequence[str] = (),
        max_tokens: int | None = None,
        stop: Sequence[str] = (),
    ) -> list[AIMessage]:
        return [self._answer(list(c), choices) for c in conversations]

    def _answer(self, messages: list[BaseMessage], choices: Sequence[str]) -> AIMessage:
        if not choices:
            return AIMessage("The output says something about it.")
        text = "\n".join(str(m.content) for m in messages)
        output = text.split("</output>")[0].lower()
        criterion = re.search(r"(?:Criterion|Requirement): (.*)", text)
        wanted = re.findall(r"[a-z]{6,}", criterion.group(1).lower()) if criterion else []
        return yes_no(0.9 if all(w in output for w in wanted) else 0.2)

    def _generate(self, messages: list[BaseMessage], stop: Any = None, **kwargs: Any) -> ChatResult:
        assert kwargs.get("grammar", "").startswith("root ::= ")
        return ChatResult(generations=[ChatGeneration(message=AIMessage("NONE"))])


def counting_words() -> ScriptedChatModel:
    return _CountingWords(script=[])


def _yes_to_bold(messages: list[BaseMessage], kwargs: dict[str, Any]) -> AIMessage:
    """bench/calibrate_form.py: `yes` to everything, at P(yes) 0.9 when the output has bold
    text and 0.6 when not, as the embedded model's logprobs give it; a gap after a `no`."""
    if "grammar" not in kwargs:
        return AIMessage("The output lacks it.")
    output = "\n".join(str(m.content) for m in messages).split("</output>")[0]
    return yes_no(0.9 if "**" in output else 0.6)


def yes_to_bold() -> ScriptedChatModel:
    return GrammarScriptedChatModel(script=[_logged(_yes_to_bold)], repeat_last=True)


def _reads_the_facts(messages: list[BaseMessage], kwargs: dict[str, Any]) -> AIMessage:
    """bench/layout_facts.py: with the layout facts, P(yes) 0.9 when they list bold text and 0.1
    when not; without them, `yes` at 0.6 whatever the output; a gap after a `no`."""
    if "grammar" not in kwargs:
        return AIMessage("The output lacks it.")
    prompt = "\n".join(str(m.content) for m in messages)
    shown = "measured by code" in prompt
    return yes_no((0.9 if 'Bold: "' in prompt else 0.1) if shown else 0.8)


def reads_the_facts() -> ScriptedChatModel:
    return GrammarScriptedChatModel(script=[_logged(_reads_the_facts)], repeat_last=True)


def _fooled_by_verdict_words(messages: list[BaseMessage], kwargs: dict[str, Any]) -> AIMessage:
    """bench/masked_bar.py: `yes` to everything, at P(yes) 0.9 when the output says PASS or
    is honest and 0.6 when not; a gap after a `no`."""
    if "grammar" not in kwargs:
        return AIMessage("The output lacks it.")
    output = "\n".join(str(m.content) for m in messages).split("</output>")[0]
    return yes_no(0.9 if "PASS" in output or "honest" in output else 0.6)


def fooled_by_verdict_words() -> ScriptedChatModel:
    return GrammarScriptedChatModel(script=[_logged(_fooled_by_verdict_words)], repeat_last=True)


class _SeesVerdictWords(_CountingWords):
    """bench/addressed.py: asked whether a passage addresses the grader, `yes` at P(yes) 0.9
    when the passage says PASS and 0.3 when not, in the logprob shape `ChatLlamaCpp` gives."""

    def _answer(self, messages: list[BaseMessage], choices: Sequence[str]) -> AIMessage:
        passage = str(messages[-1].content).split("<passage>")[1].split("</passage>")[0]
        return yes_no(0.9 if "PASS" in passage else 0.3)


def sees_verdict_words() -> ScriptedChatModel:
    return _SeesVerdictWords(script=[])


def _polite_when_thankful(messages: list[BaseMessage], kwargs: dict[str, Any]) -> AIMessage:
    """bench/calibrate_form.py --kind tone: `yes` to everything, at P(yes) 0.9 when the output
    thanks its reader and 0.7 when not, the embedded model's lean to yes on tone."""
    if "grammar" not in kwargs:
        return AIMessage("The reply is curt.")
    output = "\n".join(str(m.content) for m in messages).split("</output>")[0]
    return yes_no(0.9 if "Thank" in output else 0.7)


def polite_when_thankful() -> ScriptedChatModel:
    return GrammarScriptedChatModel(script=[_logged(_polite_when_thankful)], repeat_last=True)


def polite_likelihood() -> Callable[[list[list[BaseMessage]]], list[float]]:
    """bench/tone_likelihood.py --scorer: a reply with "please" grows likelier when the request
    asks for a tone, one without it less likely; shorter replies are likelier throughout."""

    def score(conversations: list[list[BaseMessage]]) -> list[float]:
        scores = []
        for *before, reply in conversations:
            text = str(reply.content)
            asked = "Requirement for your reply:" in str(before[-1].content)
            gain = (2.0 if "please" in text.lower() else -2.0) if asked else 0.0
            scores.append(-float(len(text.split())) + gain)
        return scores

    return score
