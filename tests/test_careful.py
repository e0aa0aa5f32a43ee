"""Careful mode (`careful=True`): a one-sentence reason before each verdict, decided after it."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from rubricate import Judge, RetryPolicy
from rubricate._batch._results import judge_fingerprint
from rubricate._judge import _prompts as prompts
from rubricate._judge._answers import criterion_schema, joint_schema
from rubricate.testing import GrammarScriptedChatModel, ScriptedChatModel, criterion_reply

FAST = RetryPolicy(initial_delay=0, max_delay=0, timeout=None)
RUBRIC = "- Names the capital of France\n- Names the capital of Spain"
OUTPUT = "Paris is lovely in spring."


def reasoning_model(messages: list[BaseMessage], kwargs: dict[str, Any]) -> AIMessage:
    """Says what the output names, then decides from what it said, then gives a gap."""
    last = str(messages[-1].content)
    if "grammar" in kwargs:  # the verdict: read from the model's own reason before it
        reason = str(messages[-2].content)
        return AIMessage("yes" if "names Paris" in reason and "France" in last + reason else "no")
    if last.endswith(prompts.CAREFUL_REQUEST):
        asked = "France" if "France" in last else "Spain"
        named = "names Paris" if asked == "France" else "names no Spanish city"
        return AIMessage(f"The output {named}, for {asked}.")
    return AIMessage("The output does not name Madrid.")


def test_the_embedded_judge_decides_after_its_reason() -> None:
    model = GrammarScriptedChatModel(script=[reasoning_model], repeat_last=True)
    evaluation = Judge(model, retry=FAST, read_checks=False, careful=True).evaluate(
        RUBRIC, output=OUTPUT
    )

    assert [v.passed for v in evaluation.criteria] == [True, False]
    reasons = [(msgs, kw) for msgs, kw in model.calls if "grammar" not in kw]
    verdicts = [(msgs, kw) for msgs, kw in model.calls if "grammar" in kw]
    # One reason and one verdict a criterion, then one gap for the fail.
    assert len(verdicts) == 2 and len(reasons) == 3
    assert all(kw["stop"] == ["\n"] for _, kw in reasons[:2])  # a reason is one line
    for messages, _ in verdicts:
        assert str(messages[-2].content).startswith("The output names")
        assert messages[-1] == HumanMessage(prompts.CAREFUL_VERDICT)
    assert evaluation.criteria[1].gap == "The output does not name Madrid."


def test_without_careful_the_verdict_comes_first() -> None:
    model = GrammarScriptedChatModel(script=[reasoning_model], repeat_last=True)
    Judge(model, retry=FAST, read_checks=False).evaluate(RUBRIC, output=OUTPUT)

    assert not any(prompts.CAREFUL_REQUEST in p for p in model.prompts())
    assert not any(prompts.CAREFUL_VERDICT in p for p in model.prompts())


def test_remote_models_get_a_reasoning_field_before_the_verdict() -> None:
    assert list(criterion_schema(allow_unscorable=True, with_reasoning=True)["properties"]) == [
        "reasoning",
        "verdict",
        "gap",
    ]
    item = joint_schema(["C1"], allow_unscorable=False, with_reasoning=True)["properties"]
    assert list(item["verdicts"]["items"]["properties"])[:3] == [
        "criterion",
        "reasoning",
        "verdict",
    ]

    model = ScriptedChatModel(script=[criterion_reply("pass")], repeat_last=True)
    judge = Judge(model, retry=FAST, mode="per_criterion", careful=True)
    assert judge.evaluate("- Names a city", output=OUTPUT).criteria[0].passed
    (messages, kwargs), *_ = model.calls
    assert '"reasoning": first' in str(messages[-1].content)
    assert next(iter(kwargs["tools"][0]["properties"])) == "reasoning"  # the schema it was bound


def test_careful_verdicts_are_cached_apart() -> None:
    model = ScriptedChatModel(script=[])
    assert judge_fingerprint(Judge(model, careful=True)) != judge_fingerprint(Judge(model))
