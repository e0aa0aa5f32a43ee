"""Which criteria see the request: `needs_context`, and the judge's two views of one evaluation."""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from fakes import answering, prompts_about
from rubricate import Judge, RetryPolicy
from rubricate._judge._context import needs_context
from rubricate.testing import (
    GrammarScriptedChatModel,
    ScriptedChatModel,
    criterion_reply,
    joint_reply,
)

FAST = RetryPolicy(initial_delay=0, max_delay=0, timeout=None)
TASK = "Write a haiku about spring for my grandmother."


@pytest.mark.parametrize(
    "criterion",
    [
        "Answers the user's question.",
        "Directly answer what was asked",
        "Does the response refuse the request?",
        "Complies with the instructions",
        "Follows the brief",
        "Stays on topic",
        "Everything in it is relevant to the prompt",
        "The facts are correct",
        "Contains no inaccurate claims",
        "Addresses the customer's complaint",
        "Responds to the concern the client raised",
        "Only uses information from the provided article",
        "Does not make up details that are not in the source",
        "The agent ran the tests before answering",
        "Calls the search tool at least once",
        "Does not repeat what was said earlier in the conversation",
        "Covers every requirement of the task",
        "Fully satisfies the specification",
        "Follows the formatting rules",
        "Does not invent any statistics",
        "Every claim is supported by the source",
        "Uses only the information provided",
        "Builds on the previous draft",
    ],
)
def test_criteria_about_the_request_or_what_came_before_need_context(criterion: str) -> None:
    assert needs_context(criterion)


@pytest.mark.parametrize(
    "criterion",
    [
        "The poem is about spring",
        "Make sure the haiku's subject is spring.",
        "Check that the explanation is given in Spanish.",
        "Written in a formal register appropriate for a CEO",
        "Mentions the name of the new team lead",
        "States a specific refund amount.",
        "The summary mentions the car ban on Main Street.",
        "The summary conveys this fact: the bridge opened in 1932.",
        "Recommends one of the two options.",
        "The reply is polite.",
        "Has a title",
        "Ends with a question to the reader",
        # everyday senses of words that elsewhere point at the request or a source
        "Says he died following a battle with cancer",
        "The fight could also be called a brawl",
        "States that the team is made up of volunteers",
        "Mentions that flights were grounded",
        "Says the senator supported the bill",
        "Notes that Bell invented the telephone",
        "Mentions the task force's findings",
        "The answer is brief",
        "Says police searched the house",
        "Gives the previous record of 9.58 seconds",
        "Cites its sources",
    ],
)
def test_criteria_about_the_output_itself_do_not(criterion: str) -> None:
    assert not needs_context(criterion)


def test_the_embedded_judge_grades_output_criteria_without_the_task() -> None:
    model = GrammarScriptedChatModel(script=[answering("no")], repeat_last=True)
    rubric = "- The poem is about spring\n- Answers the user's request"
    evaluation = Judge(model, retry=FAST, read_checks=False).evaluate(
        rubric, task=TASK, output="Snow on the road / the lake is frozen still"
    )

    assert [v.passed for v in evaluation.criteria] == [False, False]
    about_spring = prompts_about(model, "The poem is about spring")
    about_request = prompts_about(model, "Answers the user's request")
    assert about_spring and about_request  # a verdict and a gap for each
    assert all("Snow on the road" in text for text in about_spring + about_request)
    assert not any("grandmother" in text for text in about_spring)
    assert all("grandmother" in text for text in about_request)


def test_the_transcript_is_left_out_with_the_task() -> None:
    model = GrammarScriptedChatModel(script=[answering("yes")], repeat_last=True)
    messages = [HumanMessage(TASK), AIMessage("Cherry blossoms fall")]
    Judge(model, retry=FAST, read_checks=False).evaluate(
        "- Mentions cherry blossoms\n- Does what the user asked", messages=messages
    )

    assert not any("grandmother" in t for t in prompts_about(model, "Mentions cherry blossoms"))
    assert all("grandmother" in t for t in prompts_about(model, "Does what the user asked"))


def test_always_shows_the_task_for_every_criterion() -> None:
    model = GrammarScriptedChatModel(script=[answering("yes")], repeat_last=True)
    Judge(model, retry=FAST, read_checks=False, show_context="always").evaluate(
        "- The poem is about spring", task=TASK, output="Cherry blossoms fall"
    )

    assert all("grandmother" in t for t in prompts_about(model, "The poem is about spring"))


def test_remote_models_see_the_task_by_default_and_can_opt_in() -> None:
    default = ScriptedChatModel(script=[joint_reply(("C1", "pass", ""))])
    Judge(default, retry=FAST).evaluate("- The poem is about spring", task=TASK, output="x")
    assert "grandmother" in str(default.calls[0][0][-1].content)

    opted = ScriptedChatModel(script=[criterion_reply("pass")])
    Judge(opted, retry=FAST, mode="per_criterion", show_context="when_referenced").evaluate(
        "- The poem is about spring", task=TASK, output="x"
    )
    assert not any("grandmother" in str(m.content) for m in opted.calls[0][0])


def test_a_rubric_of_one_kind_makes_one_view() -> None:
    model = GrammarScriptedChatModel(script=[answering("yes")], repeat_last=True)
    evaluation = Judge(model, retry=FAST, read_checks=False).evaluate(
        "- The poem is about spring\n- The poem mentions blossoms", task=TASK, output="x"
    )

    assert evaluation.usage.calls == 2  # one yes/no each, both on the output alone
    assert not any("grandmother" in str(m.content) for msgs, _ in model.calls for m in msgs)


def test_an_unknown_policy_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="`show_context` must be 'when_referenced' or 'always'"):
        Judge(ScriptedChatModel(script=[]), show_context="sometimes")  # type: ignore[typeddict-item]
