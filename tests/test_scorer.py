from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from rubricate import Criterion, RetryPolicy, create_rubric_scorer
from rubricate.testing import ScriptedChatModel, joint_reply

FAST = RetryPolicy(initial_delay=0, max_delay=0, timeout=None)
HAIKU = "Cherry blossoms fall\nsoft rain on the temple roof\nspring wakes the river"


def scorer(model: Any, criteria: Any = None, **kwargs: Any) -> Any:
    return create_rubric_scorer(model, criteria, retry=FAST, **kwargs)


def test_score_passed_reason_and_evaluation_when_satisfied() -> None:
    model = ScriptedChatModel(script=[joint_reply(("C1", "pass", ""), ("C2", "pass", ""))])
    result = scorer(model, "- The poem has three lines\n- The theme is spring").run(
        input="Write a haiku about spring.", output=HAIKU
    )
    assert result.score == 1
    assert result.passed is True
    assert result.skipped is False
    assert result.reason.splitlines() == [
        "Score 1/1: all 2 required criteria satisfied.",
        "- [satisfied] The poem has three lines",
        "- [satisfied] The theme is spring",
    ]
    assert [v.to_dict()["passed"] for v in result.evaluation.criteria] == [True, True]
    assert "Write a haiku about spring." in model.calls[0][0][1].content


def test_failure_reason_counts_match_the_lines_and_scale_is_consistent() -> None:
    model = ScriptedChatModel(
        script=[
            joint_reply(
                ("C1", "pass", ""),
                ("C2", "fail", "It is about autumn."),
                ("C3", "fail", "No title."),
            )
        ]
    )
    criteria = [
        {"description": "The poem has three lines"},
        {"description": "The theme is spring"},
        {"description": "It has a title", "required": False},
    ]
    result = scorer(model, criteria, scale=10).run(input="Write a haiku", output=HAIKU)
    assert result.score == 0
    assert result.passed is False
    assert result.reason.splitlines() == [
        "Score 0/10: 1 of 2 required criteria not satisfied. Address each one below.",
        "- [satisfied] The poem has three lines",
        "- [not satisfied] The theme is spring: It is about autumn.",
        "- [not satisfied] (optional) It has a title: No title.",
    ]


def test_scale_multiplies_a_pass_and_passed_stays_boolean() -> None:
    model = ScriptedChatModel(script=[joint_reply(("C1", "pass", ""))])
    result = scorer(model, "- x", scale=5).run(output="x")
    assert result.score == 5
    assert result.passed is True
    assert result.reason.startswith("Score 5/5:")


def test_optional_failures_do_not_block() -> None:
    model = ScriptedChatModel(
        script=[joint_reply(("C1", "pass", ""), ("C2", "fail", "No citations."))]
    )
    result = scorer(
        model, [{"description": "Analysis"}, {"description": "Citations", "required": False}]
    ).run(output="x")
    assert result.passed and result.score == 1


def test_no_required_means_all_required() -> None:
    model = ScriptedChatModel(script=[joint_reply(("C1", "pass", ""), ("C2", "fail", "Missing."))])
    criteria = [{"description": "A", "required": False}, {"description": "B", "required": False}]
    result = scorer(model, criteria).run(output="x")
    assert not result.passed
    assert all(v.required for v in result.evaluation.criteria)


@pytest.mark.parametrize(
    "where",
    [
        {"request_context": {"rubric": "- Mentions Paris"}},
        {"additional_context": {"rubric": "- Mentions Paris"}},
        {"input": {"task": "Capital of France?", "rubric": "- Mentions Paris"}},
        {"rubric": "- Mentions Paris"},
    ],
)
def test_dynamic_rubric_is_resolved_from_each_run(where: dict[str, Any]) -> None:
    model = ScriptedChatModel(script=[joint_reply(("C1", "pass", ""))])
    result = scorer(model).run(output="Paris.", **where)
    assert result.passed
    assert "C1: Mentions Paris" in model.calls[0][0][-1].content


def test_request_context_wins_over_additional_context() -> None:
    model = ScriptedChatModel(script=[joint_reply(("C1", "pass", ""))])
    scorer(model).run(
        output="x",
        request_context={"rubric": "- From the request"},
        additional_context={"rubric": "- From elsewhere"},
    )
    assert "From the request" in model.calls[0][0][-1].content
    assert "From elsewhere" not in model.calls[0][0][-1].content


def test_no_rubric_anywhere_is_skipped_with_score_1_and_no_call() -> None:
    model = ScriptedChatModel()
    result = scorer(model).run(input="anything", output="x")
    assert result.skipped and result.passed and result.score == 1
    assert model.calls == []
    assert "skipped" in result.reason


def test_one_scorer_grades_each_run_against_a_different_rubric() -> None:
    model = ScriptedChatModel(
        script=[joint_reply(("C1", "pass", "")), joint_reply(("C1", "fail", "No."))]
    )
    s = scorer(model)
    assert s.run(output="x", rubric="- First").passed
    assert not s.run(output="x", rubric="- Second").passed
    assert "First" in model.calls[0][0][-1].content
    assert "Second" in model.calls[1][0][-1].content


def test_output_as_a_conversation_grades_the_last_assistant_message() -> None:
    model = ScriptedChatModel(script=[joint_reply(("C1", "pass", ""))])
    conversation = [HumanMessage("Write a haiku"), AIMessage(HAIKU)]
    scorer(model, "- Three lines").run(input="Write a haiku", output=conversation)
    assert f"<output>\n{HAIKU}\n</output>" in model.calls[0][0][1].content


def test_grader_error_scores_zero_and_says_why() -> None:
    model = ScriptedChatModel(script=[ValueError("bad request")])
    result = scorer(model, "- x").run(output="x")
    assert result.score == 0 and not result.passed
    assert result.evaluation.result == "grader_error"
    assert "ValueError: bad request" in result.reason


def test_code_checked_criterion_in_a_scorer() -> None:
    model = ScriptedChatModel()
    three_lines = Criterion(description="Three lines", check=lambda ev: ev.output.count("\n") == 2)
    result = scorer(model, [three_lines]).run(output=HAIKU)
    assert result.passed
    assert model.calls == []


async def test_arun_is_the_async_twin() -> None:
    model = ScriptedChatModel(script=[joint_reply(("C1", "pass", ""))])
    result = await scorer(model, "- x").arun(output="x")
    assert result.passed


def test_bad_scale_is_rejected() -> None:
    with pytest.raises(ValueError, match="scale"):
        create_rubric_scorer(ScriptedChatModel(), "- x", scale=0)


def _verdicts(*items: dict[str, str]) -> AIMessage:
    from rubricate.testing import tool_reply

    return tool_reply("RubricVerdicts", {"verdicts": list(items)})


def test_remote_judges_say_why_a_criterion_passed_in_the_reason() -> None:
    model = ScriptedChatModel(
        script=[
            _verdicts(
                {"criterion": "C1", "verdict": "pass", "gap": "", "reason": "It has 3 lines."},
                {"criterion": "C2", "verdict": "fail", "gap": "It is autumn.", "reason": "x"},
            )
        ]
    )
    result = scorer(model, "- The poem has three lines\n- The theme is spring").run(output=HAIKU)
    assert result.reason.splitlines()[1:] == [
        "- [satisfied] The poem has three lines: It has 3 lines.",
        "- [not satisfied] The theme is spring: It is autumn.",
    ]
    assert result.evaluation.criteria[0].reason == "It has 3 lines."
    assert result.evaluation.criteria[1].reason == ""  # a failed criterion has its gap
    [(_, kwargs)] = model.calls
    [schema] = kwargs["tools"]
    item = schema["properties"]["verdicts"]["items"]
    assert item["required"] == ["criterion", "verdict", "gap", "reason"]
    assert '"reason": for pass, one short sentence saying why it is met' in model.prompts()[0]


def test_explaining_passes_can_be_turned_off_on_a_remote_judge() -> None:
    model = ScriptedChatModel(script=[joint_reply(("C1", "pass", ""))])
    result = scorer(model, "- Three lines", explain_passes=False).run(output=HAIKU)
    assert result.reason.splitlines()[1] == "- [satisfied] Three lines"
    [(_, kwargs)] = model.calls
    item = kwargs["tools"][0]["properties"]["verdicts"]["items"]
    assert "reason" not in item["properties"]
    assert '"reason"' not in model.prompts()[0]


def test_the_embedded_judge_explains_passes_only_when_asked_at_one_call_each() -> None:
    from rubricate.testing import GrammarScriptedChatModel

    quiet = GrammarScriptedChatModel(script=["yes"])
    assert scorer(quiet, "- Mentions rain").run(output=HAIKU).reason.endswith("Mentions rain")
    assert len(quiet.calls) == 1

    explained = GrammarScriptedChatModel(script=["yes", "It says soft rain falls."])
    result = scorer(explained, "- Mentions rain", explain_passes=True).run(output=HAIKU)
    assert result.reason.splitlines()[1] == "- [satisfied] Mentions rain: It says soft rain falls."
    assert len(explained.calls) == 2
    assert "meets the criterion" in explained.prompts()[1]
