"""The catalogue as grader tools: schemas, answers, and a judge that counts with them."""

from __future__ import annotations

import asyncio

import pytest
from langchain_core.messages import ToolMessage
from langchain_core.utils.function_calling import convert_to_openai_tool

from fakes import text
from rubricate import Judge, RetryPolicy, RubricError, checks
from rubricate.testing import ScriptedChatModel, joint_reply, tool_reply

FAST = RetryPolicy(initial_delay=0, max_delay=0, timeout=None)


def test_every_check_is_offered_by_name_with_its_arguments_and_rule() -> None:
    tools = checks.as_tools()
    assert [t.name for t in tools] == list(checks.CATALOGUE)
    [word_count] = checks.as_tools(["word_count"])
    schema = convert_to_openai_tool(word_count)["function"]
    assert schema["name"] == "word_count"
    assert "non-whitespace characters holding at least one letter or digit" in schema["description"]
    assert "Answers PASS or FAIL" in schema["description"]
    properties = schema["parameters"]["properties"]
    assert list(properties) == [
        "text",
        "per",
        "at_least",
        "at_most",
        "exactly",
        "fewer_than",
        "less_than",
        "more_than",
    ]
    assert properties["at_most"]["description"] == "The count must be at most this (inclusive)."
    [keywords] = checks.as_tools(["keywords_present"])
    parameters = convert_to_openai_tool(keywords)["function"]["parameters"]
    assert parameters["required"] == ["keywords"]
    assert parameters["properties"]["keywords"]["type"] == "array"


def test_unknown_tool_names_are_rubric_errors() -> None:
    with pytest.raises(RubricError, match="unknown check 'word_counts'"):
        checks.as_tools(["word_counts"])


def test_tools_answer_pass_fail_or_error() -> None:
    [word_count, letters] = checks.as_tools(["word_count", "letter_count"])
    assert word_count.invoke({"text": "one two three", "at_most": 2}) == (
        "FAIL: has 3 words, needs at most 2"
    )
    assert word_count.invoke({"text": "one two", "at_most": 2, "at_least": None}) == (
        "PASS: has 2 words, needs at most 2"
    )
    assert word_count.invoke({"text": "x"}) == (
        "Error: word_count needs a bound: one of at_least, at_most, exactly, fewer_than, "
        "less_than, more_than"
    )
    assert letters.invoke({"text": "x", "letter": "ab", "at_least": 1}) == (
        "Error: letter_count: `letter` must be a single letter, got 'ab'"
    )
    [sql] = checks.as_tools(["sql_keywords"])
    assert sql.invoke({"text": "```sql\nselect 1\n```"}).startswith("FAIL: has the keyword")
    assert sql.invoke({"text": "No query here."}) == (
        "UNDECIDED: the text has no SQL in a code block; judge it yourself."
    )


def test_without_text_a_tool_checks_the_graded_output_or_asks_for_the_text() -> None:
    [no_commas] = checks.as_tools(["no_commas"])
    assert no_commas.invoke({}).startswith("Error: no graded output is available here")
    with checks.graded_output("one, two"):
        assert no_commas.invoke({}) == "FAIL: has 1 comma, first in 'one,'"
        assert no_commas.invoke({"text": "explicit text wins"}) == "PASS: has no commas"
        assert asyncio.run(no_commas.ainvoke({})) == "FAIL: has 1 comma, first in 'one,'"
    assert no_commas.invoke({}).startswith("Error:")


def test_a_tool_calling_judge_counts_words_exactly_before_its_verdict() -> None:
    output = "The quick brown fox jumps over the lazy dog, twice."
    model = ScriptedChatModel(
        script=[
            tool_reply("word_count", {"text": output, "at_most": 5}),
            text("The output has 10 words."),
            joint_reply(("C1", "fail", "It has 10 words; at most 5 are allowed.")),
        ]
    )
    judge = Judge(model, tools=checks.as_tools(["word_count", "no_commas"]), retry=FAST)
    evaluation = judge.evaluate("- The answer is five words or fewer", output=output)

    assert evaluation.result == "needs_revision"
    assert [t.name for t in model.calls[0][1]["tools"]] == ["word_count", "no_commas"]
    verdict_messages = model.calls[2][0]
    [answer] = [m for m in verdict_messages if isinstance(m, ToolMessage)]
    assert answer.content == "FAIL: has 10 words, needs at most 5"
    assert answer.name == "word_count"
    assert evaluation.criteria[0].gap == "It has 10 words; at most 5 are allowed."


def test_bad_tool_arguments_are_data_for_the_judge_not_a_crash() -> None:
    model = ScriptedChatModel(
        script=[
            tool_reply("word_count", {"text": "a b", "at_most": "many"}),
            text("done"),
            joint_reply(("C1", "pass", "")),
        ]
    )
    judge = Judge(model, tools=checks.as_tools(["word_count"]), retry=FAST)
    evaluation = judge.evaluate("- Short", output="a b")
    assert evaluation.result == "satisfied"
    [answer] = [m for m in model.calls[2][0] if isinstance(m, ToolMessage)]
    assert answer.content == (
        "Error: invalid arguments: at_most: Input should be a valid integer, "
        "unable to parse string as an integer"
    )


def test_the_judge_runs_catalogue_tools_on_the_graded_output_without_copying_it() -> None:
    from fakes import text
    from rubricate import Judge, RetryPolicy, checks
    from rubricate.testing import ScriptedChatModel, joint_reply, tool_reply

    model = ScriptedChatModel(
        script=[
            tool_reply("word_count", {"at_most": 3}),
            text("The tool says it is too long."),
            joint_reply(("C1", "fail", "Has 5 words.")),
        ]
    )
    judge = Judge(
        model, tools=checks.as_tools(["word_count"]), retry=RetryPolicy(max_retries=0, timeout=None)
    )
    judge.evaluate("- At most three words", output="one two three four five")
    tool_result = next(m for m in model.calls[2][0] if m.type == "tool")
    assert tool_result.content.startswith("FAIL")
    assert "5 words" in tool_result.content
