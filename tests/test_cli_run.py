"""`rubricate run` through typer's CliRunner, with fake worker and judge models at the boundary."""

from __future__ import annotations

import json
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from typer.testing import CliRunner, Result

from fakes import text
from rubricate import Judge, RetryPolicy
from rubricate._cli import create_app
from rubricate._cli._run import revision_request
from rubricate._loop._core import feedback_message
from rubricate.testing import ScriptedChatModel, joint_reply, tool_reply

ENV = {"COLUMNS": "120", "NO_COLOR": "1"}
RUBRIC = "- Mentions Paris\n- Under ten words"
PASS = joint_reply(("C1", "pass", ""), ("C2", "pass", ""))
FAIL = joint_reply(("C1", "fail", "Name the city."), ("C2", "pass", ""))


def run(args: list[str], worker: list[Any], judge: list[Any]) -> tuple[Result, ScriptedChatModel]:
    grader = ScriptedChatModel(script=judge, repeat_last=True)
    app = create_app(
        judge_factory=lambda spec, options: Judge(
            grader, **options, retry=RetryPolicy(max_retries=0, timeout=None)
        ),
        model_factory=lambda spec: ScriptedChatModel(script=worker),
    )
    return CliRunner().invoke(app, args, env=ENV), grader


def test_run_revises_until_satisfied_and_shows_each_pass() -> None:
    result, _ = run(
        ["run", "Capital of France?", "-r", RUBRIC], [text("A city."), text("Paris.")], [FAIL, PASS]
    )
    assert result.exit_code == 0, result.output
    assert "Grading pass 1: needs_revision" in result.output
    assert "Name the city." in result.output
    assert "Grading pass 2: satisfied" in result.output
    assert "status: satisfied after 2 grading pass(es)" in result.output
    assert "Paris." in result.output


def test_a_revision_is_asked_as_one_request_holding_task_draft_and_feedback() -> None:
    worker = ScriptedChatModel(script=[text("A city."), text("Paris.")])
    grader = ScriptedChatModel(script=[FAIL, PASS])
    app = create_app(
        judge_factory=lambda spec, options: Judge(grader, **options),
        model_factory=lambda spec: worker,
    )
    result = CliRunner().invoke(app, ["run", "Capital of France?", "-r", RUBRIC], env=ENV)
    assert result.exit_code == 0, result.output
    first, revision = (messages for messages, _ in worker.calls)
    assert [m.content for m in first] == ["Capital of France?"]
    # Small models asked in a follow-up turn repeat their draft; one request gets a revision.
    assert len(revision) == 1 and revision[0].type == "human"
    request = str(revision[0].content)
    assert request.startswith("Capital of France?")
    assert "Your previous answer:\n\nA city." in request
    assert "Mentions Paris: Name the city." in request


def test_run_json_and_exit_1_at_the_cap() -> None:
    result, _ = run(
        ["run", "Capital?", "-r", RUBRIC, "--max-iterations", "2", "--json"],
        [text("A city."), text("Still a city.")],
        [FAIL],
    )
    assert result.exit_code == 1
    payload = json.loads(result.stdout[result.stdout.index("{") :])
    assert payload["status"] == "max_iterations_reached"
    assert payload["output"] == "Still a city."
    assert [e["result"] for e in payload["evaluations"]] == [
        "needs_revision",
        "max_iterations_reached",
    ]


def test_run_accepts_escaped_newlines_and_rubric_files(tmp_path: Any) -> None:
    rubric = tmp_path / "rubric.md"
    rubric.write_text("# Done when\n- Mentions Paris\n")
    result, grader = run(
        ["run", "Capital?", "-r", str(rubric)], [text("Paris.")], [joint_reply(("C1", "pass", ""))]
    )
    assert result.exit_code == 0, result.output
    assert "C1: Mentions Paris" in grader.calls[0][0][-1].content
    result, grader = run(
        ["run", "Capital?", "-r", "- Mentions Paris\\n- Short"], [text("Paris.")], [PASS]
    )
    assert result.exit_code == 0, result.output
    assert "C2: Short" in grader.calls[0][0][-1].content


@pytest.mark.parametrize(
    ("rubric", "message"),
    [("- x {check: nope}", "invalid --rubric"), ("# only a heading", "no criteria")],
)
def test_run_usage_errors_exit_2(rubric: str, message: str) -> None:
    result, _ = run(["run", "Task", "-r", rubric], [text("x")], [PASS])
    assert result.exit_code == 2
    assert message in result.output


def test_run_help_has_examples_and_exit_codes() -> None:
    result = CliRunner().invoke(create_app(), ["run", "--help"], env=ENV)
    assert result.exit_code == 0
    assert "rubricate run 'Write a haiku" in result.output
    assert "Exit codes: 0 the rubric is satisfied" in result.output


@pytest.mark.local_model
def test_run_on_the_embedded_model() -> None:
    result = CliRunner().invoke(
        create_app(),
        [
            "run",
            "What is the capital of France? Answer in one short sentence.",
            "-r",
            "- The answer names Paris",
            "--json",
        ],
        env=ENV,
    )
    assert result.exit_code in (0, 1), result.output
    payload = json.loads(result.stdout[result.stdout.index("{") :])
    assert payload["evaluations"], payload
    assert payload["status"] in ("satisfied", "max_iterations_reached")
    assert payload["output"]


def test_run_compile_checks_shows_the_mapping_and_decides_in_code() -> None:
    mapping = tool_reply("check_mapping", {"check": {"name": "word_count", "fewer_than": 10}})
    none = tool_reply("check_mapping", {"check": {"name": "none"}})
    result, _ = run(
        [
            "run",
            "Capital?",
            "-r",
            "- Mentions Paris\n- Under 10 words",
            "--compile-checks",
            "--max-iterations",
            "1",
        ],
        [text("It is Paris, the city of light and of many bridges too.")],
        [none, mapping, joint_reply(("C1", "pass", ""))],
    )
    assert "1 of 2 criteria compiled to checks" in result.output
    assert "word_count(fewer_than=10)" in result.output
    assert "has 12 words, needs fewer than 10" in result.output
    assert "status: max_iterations_reached" in result.output
    assert result.exit_code == 1


def test_the_revision_request_quotes_the_draft_without_its_line_end_spaces() -> None:
    messages = [
        HumanMessage("Write a haiku about spring."),
        AIMessage("Spring showers,  \nGreen leaves dance,  \nPeace in the air."),
        feedback_message("Criteria not met yet:\n- The poem mentions cherry blossoms"),
    ]
    [request] = revision_request(messages)
    assert "Spring showers,\nGreen leaves dance,\nPeace in the air." in request.content
    assert request.content.startswith("Write a haiku about spring.")
    assert request.content.endswith("- The poem mentions cherry blossoms")
