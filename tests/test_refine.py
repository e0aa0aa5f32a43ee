from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
import threading
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from rubricate import Criterion, Judge, RefineResult, RetryPolicy, Rubric, arefine, refine
from rubricate.testing import ScriptedChatModel, joint_reply

RUBRIC = "- Mentions Paris\n- Under ten words"
PASS = joint_reply(("C1", "pass", ""), ("C2", "pass", ""))
FAIL = joint_reply(("C1", "fail", "Name the city."), ("C2", "pass", ""))


def judge(*script: Any, repeat_last: bool = False) -> Judge:
    return Judge(
        ScriptedChatModel(script=list(script), repeat_last=repeat_last),
        retry=RetryPolicy(max_retries=0, timeout=None),
    )


def test_task_and_feedback_style_agent_revises_until_satisfied() -> None:
    seen: list[tuple[str, str | None]] = []

    def agent(task: str, feedback: str | None) -> str:
        seen.append((task, feedback))
        return "It is a big city." if feedback is None else "Paris."

    evaluations: list[dict[str, Any]] = []
    result = refine(
        agent,
        "Capital of France?",
        RUBRIC,
        judge=judge(FAIL, PASS),
        on_evaluation=evaluations.append,
    )
    assert result.status == "satisfied"
    assert result.output == "Paris."
    assert result.iterations == 2
    assert [e["result"] for e in result.evaluations] == ["needs_revision", "satisfied"]
    assert evaluations == result.evaluations
    assert seen[0] == ("Capital of France?", None)
    assert seen[1][0] == "Capital of France?"
    assert seen[1][1] is not None and "- Mentions Paris: Name the city." in seen[1][1]


def test_conversation_style_agent_sees_feedback_as_a_user_message() -> None:
    conversations: list[list[BaseMessage]] = []

    def agent(messages: list[BaseMessage]) -> AIMessage:
        conversations.append(messages)
        return AIMessage("Paris." if len(messages) > 1 else "Somewhere.")

    result = refine(agent, "Capital of France?", RUBRIC, judge=judge(FAIL, PASS))
    assert result.status == "satisfied"
    feedback = conversations[1][-1]
    assert isinstance(feedback, HumanMessage) and feedback.name == "rubric_grader"
    assert [type(m).__name__ for m in result.messages] == [
        "HumanMessage",
        "AIMessage",
        "HumanMessage",
        "AIMessage",
    ]


async def test_async_agent_and_arefine() -> None:
    async def agent(task: str, feedback: str | None) -> str:
        return "Paris."

    result = await arefine(agent, "Capital of France?", RUBRIC, judge=judge(PASS))
    assert result.status == "satisfied" and result.output == "Paris."


def test_cap_events_and_best_draft() -> None:
    both_fail = joint_reply(("C1", "fail", "No city."), ("C2", "fail", "Too long."))
    drafts = iter(["Short, no city.", "A very long rambling answer about many things."])
    events: list[dict[str, Any]] = []
    result = refine(
        lambda task, feedback: next(drafts),
        "Capital?",
        RUBRIC,
        judge=judge(FAIL, both_fail),
        max_iterations=2,
        best_draft=True,
        on_event=events.append,
    )
    assert result.status == "max_iterations_reached"
    assert result.output == "Short, no city."
    assert [e["type"] for e in events] == ["rubric_evaluation_start", "rubric_evaluation_end"] * 2
    assert [e["result"] for e in result.evaluations] == ["needs_revision", "max_iterations_reached"]


def test_code_checked_rubric_needs_no_model() -> None:
    rubric = Rubric(
        (Criterion(description="Ends with a period", check=lambda ev: ev.output.endswith(".")),)
    )
    drafts = iter(["no period", "a period."])
    result = refine(lambda task, feedback: next(drafts), "Write.", rubric, judge=judge())
    assert result.status == "satisfied"
    assert result.evaluations[0]["criteria"][0]["decided_by"] == "check"


def test_no_rubric_runs_the_agent_once_without_grading() -> None:
    result = refine(lambda task, feedback: "Hi.", "Say hi.", None, judge=judge())
    assert result.status is None and result.output == "Hi." and result.evaluations == []


def test_grader_error_ends_the_run() -> None:
    result = refine(lambda task, feedback: "x", "Do.", RUBRIC, judge=judge(ValueError("boom")))
    assert result.status == "grader_error"
    assert "ValueError: boom" in result.evaluations[0]["explanation"]


def test_sqlite_thread_persists_and_a_second_call_starts_a_new_run(tmp_path: Path) -> None:
    db = tmp_path / "runs.sqlite"

    def run(task: str, answer: str) -> RefineResult:
        return refine(
            lambda task, feedback: answer,
            task,
            RUBRIC,
            judge=judge(PASS),
            checkpointer=db,
            thread_id="t",
        )

    first = run("Capital?", "Paris.")
    second = run("Again?", "Paris!")
    assert first.status == second.status == "satisfied"
    assert len(second.evaluations) == 2
    assert second.evaluations[0]["grading_run_id"] != second.evaluations[1]["grading_run_id"]
    assert len(second.messages) == 4


async def test_arefine_runs_an_async_agent_and_the_judge_on_the_callers_loop() -> None:
    caller = asyncio.get_running_loop()
    agent_loops: list[asyncio.AbstractEventLoop] = []
    judge_loops: list[asyncio.AbstractEventLoop] = []

    async def agent(task: str, feedback: str | None) -> str:
        agent_loops.append(asyncio.get_running_loop())
        return "Paris." if feedback else "A city."

    class LoopRecordingJudge(Judge):
        async def aevaluate(self, *args: Any, **kwargs: Any) -> Any:
            judge_loops.append(asyncio.get_running_loop())
            return await super().aevaluate(*args, **kwargs)

    grader = LoopRecordingJudge(
        ScriptedChatModel(script=[FAIL, PASS]), retry=RetryPolicy(max_retries=0, timeout=None)
    )
    result = await arefine(agent, "Capital?", RUBRIC, judge=grader)
    assert result.status == "satisfied" and result.iterations == 2
    # No fresh event loop per call: every agent turn and every grading ran on the caller's loop.
    assert agent_loops == [caller, caller]
    assert judge_loops == [caller, caller]


async def test_arefine_runs_a_sync_agent_off_the_event_loop() -> None:
    threads: list[threading.Thread] = []

    def agent(task: str, feedback: str | None) -> str:
        threads.append(threading.current_thread())
        with pytest.raises(RuntimeError):
            asyncio.get_running_loop()  # a blocking agent does not stall the caller's loop
        return "Paris."

    result = await arefine(agent, "Capital?", RUBRIC, judge=judge(PASS))
    assert result.status == "satisfied"
    assert threads and threads[0] is not threading.main_thread()


_ABANDONED_SCRIPT = textwrap.dedent(
    """
    import asyncio, sys, threading
    sys.path.insert(0, {tests!r})
    from rubricate.testing import ScriptedChatModel
    from rubricate import Judge, arefine

    started = threading.Event()

    def agent(task, feedback):
        started.set()
        threading.Event().wait()  # never answers

    async def main():
        run = asyncio.create_task(
            arefine(agent, "Do.", "- X", judge=Judge(ScriptedChatModel(script=[])))
        )
        while not started.is_set():
            await asyncio.sleep(0.01)
        run.cancel()  # what Ctrl-C does to asyncio.run's main task
        try:
            await run
        except asyncio.CancelledError:
            print("cancelled")

    asyncio.run(main())
    print("exited")
    """
)


def test_a_run_given_up_on_does_not_wait_for_a_blocked_sync_agent(tmp_path: Path) -> None:
    script = tmp_path / "abandon.py"
    script.write_text(_ABANDONED_SCRIPT.format(tests=str(Path(__file__).parent)))
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["cancelled", "exited"]


async def test_refine_called_inside_a_running_loop_still_works() -> None:
    result = refine(lambda task, feedback: "Paris.", "Capital?", RUBRIC, judge=judge(PASS))
    assert result.status == "satisfied"


def test_a_checkpointer_without_async_methods_is_a_clear_error(tmp_path: Path) -> None:
    import sqlite3

    from langgraph.checkpoint.sqlite import SqliteSaver

    connection = sqlite3.connect(str(tmp_path / "sync.sqlite"), check_same_thread=False)
    try:
        with pytest.raises(TypeError, match=r"SqliteSaver has no async methods.*path of a SQLite"):
            refine(
                lambda task, feedback: "Paris.",
                "Capital?",
                RUBRIC,
                judge=judge(PASS),
                checkpointer=SqliteSaver(connection),
            )
    finally:
        connection.close()


@pytest.mark.parametrize(
    ("setting", "value", "error"),
    [
        ("max_iterations", 0, ValueError),
        ("max_iterations", True, TypeError),
        ("max_iterations", 2.5, TypeError),
        ("max_evaluations_kept", 0, ValueError),
    ],
)
def test_the_loops_caps_are_validated_before_anything_runs(
    setting: str, value: Any, error: type[Exception]
) -> None:
    def agent(task: str, feedback: str | None) -> str:
        raise AssertionError("the agent must not run")

    with pytest.raises(error, match=f"`{setting}` must be"):
        refine(agent, "Do.", RUBRIC, judge=judge(PASS), **{setting: value})


def test_unsupported_agent_result_is_a_clear_error() -> None:
    with pytest.raises(TypeError, match="got int"):
        refine(lambda task, feedback: 42, "Do.", RUBRIC, judge=judge(PASS))


_KILLED_SCRIPT = textwrap.dedent(
    """
    import os, sys
    sys.path.insert(0, {tests!r})
    from rubricate.testing import ScriptedChatModel, joint_reply
    from rubricate import Judge, RetryPolicy, refine

    FAIL = joint_reply(("C1", "fail", "Name the city."))
    PASS = joint_reply(("C1", "pass", ""))
    calls = {{"n": 0}}

    def grade(messages, kwargs):
        calls["n"] += 1
        if sys.argv[1] == "crash" and calls["n"] == 2:
            os.kill(os.getpid(), 9)  # SIGKILL in the middle of the second grading
        return FAIL if calls["n"] == 1 and sys.argv[1] == "crash" else PASS

    judge = Judge(
        ScriptedChatModel(script=[grade], repeat_last=True),
        retry=RetryPolicy(max_retries=0, timeout=None),
    )
    result = refine(
        lambda task, feedback: "Paris." if feedback else "A city.",
        "Capital?",
        "- Mentions Paris",
        judge=judge,
        checkpointer={db!r},
        thread_id="killed",
    )
    print(result.status, len(result.evaluations), [e["result"] for e in result.evaluations])
    """
)


def test_a_killed_run_resumes_with_every_recorded_evaluation_and_no_duplicate(
    tmp_path: Path,
) -> None:
    db = tmp_path / "runs.sqlite"
    script = tmp_path / "run.py"
    script.write_text(_KILLED_SCRIPT.format(tests=str(Path(__file__).parent), db=str(db)))
    crashed = subprocess.run(
        [sys.executable, str(script), "crash"], capture_output=True, text=True, timeout=120
    )
    assert crashed.returncode == -9, crashed.stderr
    resumed = subprocess.run(
        [sys.executable, str(script), "resume"], capture_output=True, text=True, timeout=120
    )
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout.split("\n")[0] == "satisfied 2 ['needs_revision', 'satisfied']"
